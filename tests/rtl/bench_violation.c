/* SPDX-License-Identifier: Apache-2.0 */
/* ROB-contract violation bench: a short legal run with one case of ROB inputs that break the
 * contract (DESIGN.md "The ROB interface"; docs/tip-unit.md "Inputs"), chosen with env
 * TIPROF_TB_VIOLATION. On an RTL simulation with assertions the named assertion must stop it
 * (tests/rtl/assert.sh checks which one); case "none" is the same run kept legal, which must pass.
 * The C model defines an answer for any input, so the harness comparison passes throughout. */
#include <stdlib.h>
#include <string.h>

#include "tb.h"

/* One cycle of a case: the ROB inputs that matter (banks 0 and 1). */
struct viol_cycle {
	uint8_t head_bank, valid, commit, mispred, flush, exception, disp;
	uint8_t user;            /* the ROB's entries run in user mode (else machine mode) */
};

struct viol_case {
	const char *name;        /* TIPROF_TB_VIOLATION value */
	const char *assertion;   /* the assertion that must fire (tests/rtl/assert.sh) */
	unsigned n;              /* cycles used below */
	struct viol_cycle c[4];
};

/* Cases on banks 0 and 1 (W >= 2). Fields: head_bank, valid, commit, mispred, flush, exception,
 * disp, user. */
static const struct viol_case viol_cases[] = {
	{ "none", "-", 3, { { 0, 3, 1, 0, 0, 0, 0, 0 }, { 1, 2, 2, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 1, 0 } } },
	{ "commit_invalid", "a_rob_commit_valid", 1, { { 0, 1, 2, 0, 0, 0, 0, 0 } } },
	{ "valid_gap", "a_rob_valid_in_order", 1, { { 0, 2, 0, 0, 0, 0, 0, 0 } } },
	{ "commit_out_of_order", "a_rob_commit_in_order", 1, { { 0, 3, 2, 0, 0, 0, 0, 0 } } },
	{ "flush_not_youngest", "a_rob_flush_youngest", 1, { { 0, 3, 3, 0, 1, 0, 0, 0 } } },
	{ "exception_and_flush", "a_rob_exception_oldest", 1, { { 0, 3, 1, 0, 1, 1, 0, 0 } } },
	{ "exception_empty", "a_rob_exception_oldest", 1, { { 0, 0, 0, 0, 0, 1, 0, 0 } } },
	{ "dispatch_wrong_bank", "a_rob_empty_dispatch", 1, { { 0, 0, 0, 0, 0, 0, 2, 0 } } },
	{ "head_vanishes", "a_rob_head_holds", 2, { { 0, 1, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0, 0 } } },
	{ "head_skips", "a_rob_head_advances", 2, { { 0, 3, 1, 0, 0, 0, 0, 0 }, { 0, 3, 0, 0, 0, 0, 0, 0 } } },
	/* the ROB drains after a plain commit in machine mode; the next instruction runs in user
	 * mode without a trap or flush in between */
	{ "priv_change_drained", "a_rob_priv_same", 4, { { 0, 1, 1, 0, 0, 0, 0, 0 },
	  { 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 1, 0 }, { 0, 1, 1, 0, 0, 0, 0, 1 } } },
	/* the same after a flushing commit: legal (privilege may change across a flush) */
	{ "priv_change_flushed", "-", 4, { { 0, 1, 1, 0, 1, 0, 0, 0 },
	  { 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 1, 0 }, { 0, 1, 1, 0, 0, 0, 0, 1 } } },
};

#define VIOL_AT 20u   /* first cycle of the case */
#define VIOL_END 40u  /* the bench ends here (passes) if nothing stopped it */

struct viol_state {
	const struct viol_case *vc;
};

static int viol_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		     struct tb_in *in)
{
	const struct viol_case *vc = ((struct viol_state *)state)->vc;

	(void)prev;
	if (t == 0) {
		in->rst = 1;
		return 0;
	}
	if (t >= VIOL_END) {
		tb_pass(tb);
		return 1;
	}
	if (t == 1) /* sample every cycle, so the unit's sampling path sees the case too */
		tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, 1, 3);
	else if (t == 2)
		tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf1u, 3);
	else
		tb_csr(&in->csr, 1, TIPROF_TIP_POP, 0, 3);
	in->rob.priv = 3;
	if (t >= VIOL_AT && t < VIOL_AT + vc->n) {
		const struct viol_cycle *c = &vc->c[t - VIOL_AT];

		in->rob.head_bank = c->head_bank;
		in->rob.head_valid = c->valid;
		in->rob.head_commit = c->commit;
		in->rob.head_mispred = c->mispred;
		in->rob.head_flush = c->flush;
		in->rob.exception = c->exception;
		in->rob.disp_valid = c->disp;
		in->rob.priv = c->user ? 0 : 3;
		for (unsigned b = 0; b < 2; b++) {
			in->rob.head_pc[b] = 0x1000 + 4 * b; /* the same entries in every cycle */
			in->rob.disp_pc[b] = 0x2000 + 4 * b;
		}
	}
	/* Otherwise an empty ROB with nothing dispatched, oldest bank 0: legal. */
	return 0;
}

static int viol_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
		       uint64_t seed, uint64_t cycles)
{
	const char *name = getenv("TIPROF_TB_VIOLATION");
	struct viol_state *s;

	(void)seed;
	(void)cycles;
	if (cfg->w < 2)
		return tb_fail(tb, "rob_violation: needs W >= 2");
	if (!name)
		name = "none";
	for (size_t i = 0; i < sizeof(viol_cases) / sizeof(viol_cases[0]); i++) {
		if (strcmp(viol_cases[i].name, name) != 0)
			continue;
		s = calloc(1, sizeof(*s));
		if (!s)
			return -1;
		s->vc = &viol_cases[i];
		fprintf(tb->log, "rob_violation: case %s, expected assertion %s\n", name,
			viol_cases[i].assertion);
		b->state = s;
		b->step = viol_step;
		return 0;
	}
	return tb_fail(tb, "rob_violation: no case '%s' (TIPROF_TB_VIOLATION)", name);
}

static void viol_destroy(struct tb_bench *b)
{
	free(b->state);
	b->state = NULL;
}

const struct tb_bench_desc tb_bench_rob_violation = {
	"rob_violation", "one ROB-contract violation (TIPROF_TB_VIOLATION=case) the RTL's assertions must catch",
	viol_create, viol_destroy,
};
