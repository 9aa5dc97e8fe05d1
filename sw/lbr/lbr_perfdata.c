/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_perfdata.c - perf.data writer (contract in lbr_perfdata.h). The file is built in
 * memory with the project's perf.data building blocks (sw/lib/perfdata_writer.h), then
 * written in one go. */
#include "lbr_perfdata.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/perfdata_writer.h"
#include "lbr_ctr.h"

/* This file's event: sample_type and branch filter (the rest is perfdata_writer.h's). */
#define SAMPLE_TYPE (PDW_SAMPLE_IP | PDW_SAMPLE_TID | PDW_SAMPLE_TIME | PDW_SAMPLE_PERIOD | \
		     PDW_SAMPLE_BRANCH_STACK)
#define BRANCH_SAMPLE_TYPE (1ull /*USER*/ | 8ull /*ANY*/)
#define BRANCH_TYPE_SAVE (1ull << 16) /* PERF_SAMPLE_BRANCH_TYPE_SAVE: entries carry a type */
/* perf_branch_entry's flag word (Linux 6.1): mispred bit 0, predicted bit 1, in_tx 2,
 * abort 3, cycles 4..19, type 20..23, spec 24..25, new_type 26..29, priv 30..32. */
#define BRANCH_MISPRED 1ull
#define BRANCH_PREDICTED 2ull
#define BRANCH_CYCLES_SHIFT 4
#define BRANCH_TYPE_SHIFT 20
#define FEAT_ARCH 6 /* HEADER_ARCH: uname -m of the recorded machine */

/* The flag word of one entry. Records without CTR fields (the x86-64 tracer's): predicted,
 * as before. CTR entries (the riscv64 tracer's): the type perf knows for ctrdata.TYPE; MISP
 * recorded -> M or P, unknown (the software tracer) -> neither (perf prints '-'); cycles
 * from CCV/CCM/CCE if valid (saturated to perf's 16 bits), else 0. */
static uint64_t entry_flags(const struct lbr_stack *s, const struct lbr_pair *p)
{
	if (!(s->flags & LBR_STACK_CTR))
		return BRANCH_PREDICTED;
	uint64_t f = (uint64_t)lbr_ctr_perf_type(p->data & LBR_CTRDATA_TYPE) << BRANCH_TYPE_SHIFT;
	if (s->flags & LBR_STACK_MISP)
		f |= p->misp ? BRANCH_MISPRED : BRANCH_PREDICTED;
	int64_t cc = lbr_ctrdata_cycles(p->data);
	if (cc > 0)
		f |= (uint64_t)(cc > 0xffff ? 0xffff : cc) << BRANCH_CYCLES_SHIFT;
	return f;
}

/* `uname -m` of an ELF machine, for HEADER_ARCH (perf's env->arch). */
static const char *arch_name(unsigned machine)
{
	switch (machine) {
	case LBR_EM_RISCV: return "riscv64";
	case LBR_EM_X86_64: return "x86_64";
	default: return NULL;
	}
}

static void ev_mmap2(struct pdw_buf *b, const struct lbr_mmap *m, uint64_t t)
{
	struct pdw_mmap pm = {
		.pid = m->pid, .tid = m->pid, .start = m->start, .len = m->end - m->start,
		.pgoff = m->pgoff, .path = m->path,
		.prot = (m->prot & LBR_PROT_R ? 1 : 0) | (m->prot & LBR_PROT_W ? 2 : 0) |
			(m->prot & LBR_PROT_X ? 4 : 0),
	};

	pdw_mmap2(b, &pm, t);
}

static void ev_sample(struct pdw_buf *b, const struct lbr_data_stack *k, uint64_t period)
{
	const struct lbr_stack *s = &k->s;
	pdw_hdr(b, PDW_REC_SAMPLE, PDW_MISC_USER, 8 + 32 + 8 + 24 * (size_t)s->nr);
	pdw_put64(b, s->sample_pc);
	pdw_put32(b, k->pid);
	pdw_put32(b, s->tid);
	pdw_put64(b, s->time_ns);
	pdw_put64(b, period);
	pdw_put64(b, s->nr);
	for (int i = (int)s->nr - 1; i >= 0; i--) { /* newest first */
		pdw_put64(b, s->br[i].from);
		pdw_put64(b, s->br[i].to);
		pdw_put64(b, entry_flags(s, &s->br[i]));
	}
}

/* ------------------------------------------------------------------ event order */

enum item_kind { IT_COMM_SESSION, IT_MMAP, IT_COMM_THREAD, IT_SAMPLE };

struct item {
	uint64_t time;
	int kind;
	size_t idx;
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int same_mmap(const struct lbr_data_mmap *x, const struct lbr_data_mmap *y)
{
	return x->sess == y->sess && x->m.start == y->m.start && x->m.end == y->m.end &&
	       x->m.pgoff == y->m.pgoff && strcmp(x->m.path, y->m.path) == 0;
}

static void write_data(struct pdw_buf *b, const struct lbr_data *d, struct item *it, size_t *nit)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nsessions; i++)
		it[n++] = (struct item){ d->sessions[i].start_ns, IT_COMM_SESSION, i };
	for (size_t i = 0; i < d->nmmaps; i++) {
		const struct lbr_data_mmap *m = &d->mmaps[i];
		int dup = strcmp(m->m.path, "[vsyscall]") == 0;
		for (size_t j = 0; j < i && !dup; j++)
			dup = same_mmap(&d->mmaps[j], m);
		if (!dup)
			it[n++] = (struct item){ d->sessions[m->sess].start_ns, IT_MMAP, i };
	}
	for (size_t i = 0; i < d->nthreads; i++)
		if (d->threads[i].t.tid != d->threads[i].t.pid)
			it[n++] = (struct item){ d->threads[i].t.time_ns, IT_COMM_THREAD, i };
	for (size_t i = 0; i < d->nstacks; i++)
		it[n++] = (struct item){ d->stacks[i].s.time_ns, IT_SAMPLE, i };
	qsort(it, n, sizeof(*it), cmp_item);
	for (size_t i = 0; i < n; i++) {
		switch (it[i].kind) {
		case IT_COMM_SESSION: {
			const struct lbr_session *s = &d->sessions[it[i].idx];
			int exec = 0;
			for (size_t j = 0; j < it[i].idx; j++)
				exec |= d->sessions[j].pid == s->pid;
			pdw_comm(b, s->pid, s->pid, s->exe, s->start_ns, exec);
			break;
		}
		case IT_MMAP:
			ev_mmap2(b, &d->mmaps[it[i].idx].m, it[i].time);
			break;
		case IT_COMM_THREAD: {
			const struct lbr_data_thread *t = &d->threads[it[i].idx];
			pdw_comm(b, t->t.pid, t->t.tid, d->sessions[t->sess].exe, t->t.time_ns, 0);
			break;
		}
		default: {
			const struct lbr_data_stack *k = &d->stacks[it[i].idx];
			ev_sample(b, k, d->sessions[k->sess].period);
			break;
		}
		}
	}
	pdw_hdr(b, PDW_REC_FINISHED_ROUND, 0, 8);
	*nit = n;
}

/* The session's sampling event. */
static void session_attr(struct pdw_attr *a, const struct lbr_session *s, int ctr)
{
	memset(a, 0, sizeof(*a));
	a->type = PDW_TYPE_SOFTWARE;
	a->config = PDW_SW_TASK_CLOCK;
	switch (s->event) {
	case LBR_EV_CPU_CLOCK: a->config = PDW_SW_CPU_CLOCK; break;
	case LBR_EV_CYCLES: a->type = PDW_TYPE_HARDWARE; a->config = PDW_HW_CPU_CYCLES; break;
	case LBR_EV_INSTRUCTIONS:
		a->type = PDW_TYPE_HARDWARE;
		a->config = PDW_HW_INSTRUCTIONS;
		break;
	default: break;
	}
	a->period = s->period;
	a->sample_type = SAMPLE_TYPE;
	a->flags = PDW_ATTR_EXCLUDE_KERNEL | PDW_ATTR_FLAGS;
	a->branch_sample_type = BRANCH_SAMPLE_TYPE;
	if (ctr)
		a->branch_sample_type |= BRANCH_TYPE_SAVE;
	a->clockid = PDW_CLOCK_MONOTONIC;
}

int lbr_perfdata_write(const char *out, const struct lbr_data *d, const struct lbr_symtab *st,
		       char *err, size_t errlen)
{
	const char *arch = arch_name(lbr_data_machine(d));
	const uint64_t feats = (1ull << PDW_FEAT_BUILD_ID) | (1ull << PDW_FEAT_BRANCH_STACK) |
			       (arch ? 1ull << FEAT_ARCH : 0);
	int ctr = 0;
	struct pdw_buf b = { 0 };
	struct pdw_attr attr;
	size_t nitems = d->nsessions + d->nmmaps + d->nthreads + d->nstacks;
	struct item *it = malloc((nitems ? nitems : 1) * sizeof(*it));
	size_t data_off, table, off, n;

	if (!it) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < d->nstacks && !ctr; i++)
		ctr = (d->stacks[i].s.flags & LBR_STACK_CTR) != 0;
	session_attr(&attr, &d->sessions[0], ctr);
	data_off = pdw_begin(&b, &attr);
	write_data(&b, d, it, &n);
	free(it);
	table = pdw_end_data(&b, data_off, feats);
	/* HEADER_BUILD_ID: one build_id_event per mapped ELF file with a build ID */
	off = b.n;
	for (size_t i = 0; i < st->nobjs; i++)
		if (st->objs[i].build_id_len)
			pdw_build_id(&b, st->objs[i].path, st->objs[i].build_id,
				     st->objs[i].build_id_len);
	pdw_feature_done(&b, table, feats, PDW_FEAT_BUILD_ID, off);
	if (arch) { /* HEADER_ARCH: a perf string, u32 length + NUL-padded to 64 */
		off = b.n;
		pdw_put32(&b, pdw_pad_len(arch, 64));
		pdw_put_str(&b, arch, 64);
		pdw_feature_done(&b, table, feats, FEAT_ARCH, off);
	}
	pdw_feature_done(&b, table, feats, PDW_FEAT_BRANCH_STACK, b.n); /* empty */
	return pdw_write_file(&b, out, err, errlen);
}
