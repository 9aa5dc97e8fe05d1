/* SPDX-License-Identifier: Apache-2.0 */
/* fdo_truth.c - exact block and edge counts from the ISS's retired instructions (fdo_truth.h).
 * A block is counted when its first instruction retires; an edge when the block's last
 * instruction retires, by where the next instruction is: the same function's block at that
 * address (a branch, a jump, a fall-through; an indirect jump's target is added to the
 * graph) or the function's exit (return, tail call). A call's edge to its return site is
 * counted when a return lands there (a call that never returns, such as exit's, has none).
 * A function's entry edge counts every arrival at its first instruction from elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdo.h"
#include "fdo_truth.h"

struct fdo_truth {
	struct fdo_cfg g;
	struct fdo_prof p;
	uint64_t bias, unmatched;
	long cur;		/* block of the last instruction, -1 outside the program's code */
	int prev_call;		/* the last instruction was a call */
	int prev_ret;		/* the last instruction (anywhere) was a return */
};

struct fdo_truth *fdo_truth_open(const char *path, uint64_t bias, char *err, size_t errlen)
{
	struct fdo_truth *t = calloc(1, sizeof(*t));

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (fdo_cfg_load(&t->g, path, err, errlen)) {
		free(t);
		return NULL;
	}
	if (fdo_prof_init(&t->p, &t->g)) {
		snprintf(err, errlen, "out of memory");
		fdo_cfg_free(&t->g);
		free(t);
		return NULL;
	}
	snprintf(t->p.source, sizeof(t->p.source), "exact");
	t->bias = bias;
	t->cur = -1;
	return t;
}

static void count_edge(struct fdo_truth *t, uint32_t s, uint32_t d, int may_add)
{
	long e = fdo_cfg_edge(&t->g, s, d);

	if (e < 0 && may_add) {
		e = fdo_cfg_add_edge(&t->g, s, d, FDO_E_DYN);
		if (e >= 0 && (size_t)e >= t->p.ne) {
			double *ec = realloc(t->p.ec, t->g.ecap * sizeof(double));

			if (!ec) {
				e = -1;
			} else {
				for (size_t i = t->p.ne; i < t->g.ecap; i++)
					ec[i] = 0;
				t->p.ec = ec;
				t->p.ne = t->g.ne;
			}
		}
	}
	if (e < 0) {
		t->unmatched++;
		return;
	}
	if ((size_t)e >= t->p.ne)
		t->p.ne = (size_t)e + 1;
	t->p.ec[e] += 1;
}

void fdo_truth_step(struct fdo_truth *t, const struct iss_retired *r)
{
	const struct fdo_cfg *g = &t->g;
	uint64_t a = r->pc - t->bias, n = r->next_pc - t->bias;
	long cur = t->cur, d;
	const struct fdo_block *b;

	if (cur < 0 || a < g->b[cur].start || a >= g->b[cur].end)
		cur = fdo_cfg_block(g, a);
	if (cur < 0) {
		t->cur = -1;
		t->prev_call = 0;
		t->prev_ret = r->insn.cf == RV_CF_RETURN;
		return;
	}
	b = &g->b[cur];
	if (a == b->start) {
		t->p.bc[cur] += 1;
		/* arriving at a function's first instruction from outside it: a call */
		if (a == g->f[b->func].start &&
		    (t->cur < 0 || g->b[t->cur].func != b->func || t->prev_call))
			count_edge(t, FDO_ENTRY, (uint32_t)cur, 0);
		/* a return to the return site of the call that ends the block before */
		if (t->prev_ret && cur > 0 && g->b[cur - 1].term == FDO_T_CALL &&
		    g->b[cur - 1].func == b->func && g->b[cur - 1].end == a)
			count_edge(t, (uint32_t)cur - 1, (uint32_t)cur, 0);
	}
	t->cur = cur;
	t->prev_call = r->insn.cf == RV_CF_CALL || r->insn.cf == RV_CF_CALL_IND;
	t->prev_ret = r->insn.cf == RV_CF_RETURN;
	if (a + r->insn.len != b->end && !r->taken && r->insn.cf == RV_CF_NONE)
		return;		/* not the block's last instruction */
	if (r->insn.cf == RV_CF_CALL || r->insn.cf == RV_CF_CALL_IND) {
		if (b->end >= g->f[b->func].end)	/* a call at the function's end */
			count_edge(t, (uint32_t)cur, FDO_EXIT, 0);
		return;
	}
	d = fdo_cfg_block(g, n);
	if (d >= 0 && g->b[d].func == b->func && g->b[d].start == n &&
	    r->insn.cf != RV_CF_RETURN)	/* a recursive call's return lands in its own function */
		count_edge(t, (uint32_t)cur, (uint32_t)d, b->term == FDO_T_INDIRECT);
	else
		count_edge(t, (uint32_t)cur, FDO_EXIT, 0);
}

int fdo_truth_write(struct fdo_truth *t, const char *path, uint64_t *unmatched, char *err,
		    size_t errlen)
{
	if (unmatched)
		*unmatched = t->unmatched;
	return fdo_prof_write(&t->p, &t->g, path, err, errlen);
}

void fdo_truth_free(struct fdo_truth *t)
{
	if (!t)
		return;
	fdo_prof_free(&t->p);
	fdo_cfg_free(&t->g);
	free(t);
}
