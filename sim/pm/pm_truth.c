/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_truth.c - the per-PC ProfileMe truth of a run (contract in pm_truth.h).
 */
#include <stdlib.h>
#include <string.h>

#include "pm_truth.h"

static const char *const column[PMT_N] = {
	"fetched", "retired", "trap", "squash_mispred", "squash_other", "ic_miss", "itlb_miss",
	"dc_miss", "dtlb_miss", "load", "store", "ctrl", "taken", "mispred",
	"lat_total", "lat_fetch_map", "lat_map_ready", "lat_ready_issue", "lat_issue_complete",
	"lat_complete_retire", "lat_mem", "lifetime", "overlap", "all_lifetime", "all_overlap",
};

const char *pm_truth_column(unsigned i) { return i < PMT_N ? column[i] : "?"; }

int pm_truth_init(struct pm_truth *t, unsigned issue_width)
{
	memset(t, 0, sizeof(*t));
	t->size = 1u << 12;
	t->tab = calloc(t->size, sizeof(*t->tab));
	t->issue_width = issue_width;
	return t->tab ? 0 : -1;
}

void pm_truth_fini(struct pm_truth *t)
{
	free(t->tab);
	t->tab = NULL;
}

static uint64_t slot_of(uint64_t pc, uint64_t size)
{
	return (pc * 0x9E3779B97F4A7C15ull >> 20) & (size - 1);
}

/* Double the table. 0 or -1. */
static int grow(struct pm_truth *t)
{
	uint64_t size = t->size * 2;
	struct pm_truth_ent *n = calloc(size, sizeof(*n));

	if (!n)
		return -1;
	for (uint64_t i = 0; i < t->size; i++) {
		uint64_t j;

		if (!t->tab[i].pc)
			continue;
		for (j = slot_of(t->tab[i].pc, size); n[j].pc; j = (j + 1) & (size - 1))
			;
		n[j] = t->tab[i];
	}
	free(t->tab);
	t->tab = n;
	t->size = size;
	return 0;
}

/* The entry of pc, created if new (NULL when out of memory). PC 0 is never fetched by a
 * program; it is not recorded. */
static struct pm_truth_ent *ent(struct pm_truth *t, uint64_t pc)
{
	uint64_t j;

	if (!pc)
		return NULL;
	if (4 * (t->used + 1) > 3 * t->size && grow(t)) {
		t->oom = 1;
		return NULL;
	}
	for (j = slot_of(pc, t->size); t->tab[j].pc && t->tab[j].pc != pc; j = (j + 1) & (t->size - 1))
		;
	if (!t->tab[j].pc) {
		t->tab[j].pc = pc;
		t->used++;
	}
	return &t->tab[j];
}

const struct pm_truth_ent *pm_truth_find(const struct pm_truth *t, uint64_t pc)
{
	for (uint64_t j = slot_of(pc, t->size); t->tab[j].pc; j = (j + 1) & (t->size - 1))
		if (t->tab[j].pc == pc)
			return &t->tab[j];
	return NULL;
}

/* Account a retired (or trapped) instruction. */
static void retired(struct pm_truth *t, const struct core_insn *e)
{
	struct pm_truth_ent *x = ent(t, e->pc);
	uint64_t *n;

	if (!x)
		return;
	n = x->n;
	n[PMT_ALL_LIFETIME] += e->t_commit - e->t_fetch;
	n[PMT_ALL_OVERLAP] += e->overlap;
	if (e->events & CORE_EV_EXCEPTION) {
		n[PMT_TRAP]++;
		return;
	}
	n[PMT_RETIRED]++;
	if (e->flags & (RV_F_LOAD | RV_F_STORE)) {
		n[PMT_DC_MISS] += (e->events & CORE_EV_DC_MISS) != 0;
		n[PMT_DTLB_MISS] += (e->events & CORE_EV_DTLB_MISS) != 0;
		n[PMT_LAT0 + TIPROF_PM_LAT_MEM] += e->t_complete - e->t_mem;
	}
	n[PMT_LOAD] += (e->flags & RV_F_LOAD) != 0;
	n[PMT_STORE] += (e->flags & RV_F_STORE) != 0;
	if (e->cf != RV_CF_NONE) {
		n[PMT_CTRL]++;
		n[PMT_TAKEN] += (e->events & CORE_EV_TAKEN) != 0;
		n[PMT_MISPRED] += (e->events & CORE_EV_MISPRED) != 0;
	}
	n[PMT_LAT0 + TIPROF_PM_LAT_TOTAL] += e->t_commit - e->t_fetch;
	n[PMT_LAT0 + TIPROF_PM_LAT_FETCH_MAP] += e->t_dispatch - e->t_fetch;
	n[PMT_LAT0 + TIPROF_PM_LAT_MAP_READY] += e->t_ready - e->t_dispatch;
	n[PMT_LAT0 + TIPROF_PM_LAT_READY_ISSUE] += e->t_issue - e->t_ready;
	n[PMT_LAT0 + TIPROF_PM_LAT_ISSUE_COMPLETE] += e->t_complete - e->t_issue;
	n[PMT_LAT0 + TIPROF_PM_LAT_COMPLETE_RETIRE] += e->t_commit - e->t_complete;
	n[PMT_LIFETIME] += e->t_commit - e->t_fetch;
	n[PMT_OVERLAP] += e->overlap;
}

int pm_truth_cycle(struct pm_truth *t, const struct core_cycle_out *o)
{
	const struct tiprof_pm_if *pm = &o->pm;

	t->cycles++;
	t->issued += o->issued;
	for (unsigned i = 0; i < TIPROF_PM_MAX_SLOTS; i++) {
		struct pm_truth_ent *x;

		if (!((pm->fetch_valid >> i) & 1u))
			continue;
		x = ent(t, pm->fetch_pc[i]);
		if (!x)
			continue;
		x->n[PMT_FETCHED]++;
		x->n[PMT_IC_MISS] += pm->fetch_icmiss != 0;
		x->n[PMT_ITLB_MISS] += pm->fetch_itlbmiss != 0;
	}
	for (unsigned i = 0; i < o->n_retired; i++)
		retired(t, o->retired[i]);
	for (unsigned i = 0; i < o->n_ghosts; i++) {
		const struct core_ghost *g = &o->ghosts[i];
		struct pm_truth_ent *x = ent(t, g->pc);

		if (!x)
			continue;
		x->n[g->reason == TIPROF_PM_ABORT_MISPRED ? PMT_SQUASH_MISPRED : PMT_SQUASH_OTHER]++;
		x->n[PMT_ALL_LIFETIME] += g->t_end - g->t_fetch;
		x->n[PMT_ALL_OVERLAP] += g->overlap;
	}
	return t->oom ? -1 : 0;
}

static int cmp_pc(const void *a, const void *b)
{
	uint64_t x = ((const struct pm_truth_ent *)a)->pc, y = ((const struct pm_truth_ent *)b)->pc;

	return x < y ? -1 : x > y;
}

int pm_truth_write(const struct pm_truth *t, FILE *f)
{
	struct pm_truth_ent *v;
	uint64_t k = 0;

	if (t->oom)
		return -1;
	v = malloc((t->used ? t->used : 1) * sizeof(*v));
	if (!v)
		return -1;
	for (uint64_t i = 0; i < t->size; i++)
		if (t->tab[i].pc)
			v[k++] = t->tab[i];
	qsort(v, k, sizeof(*v), cmp_pc);
	fprintf(f, "# tiprof ProfileMe truth 1\n# cycles %llu\n# issue_width %u\n"
		"# issued %llu\n# instructions %llu\npc",
		(unsigned long long)t->cycles, t->issue_width, (unsigned long long)t->issued,
		(unsigned long long)k);
	for (unsigned c = 0; c < PMT_N; c++)
		fprintf(f, "\t%s", column[c]);
	fputc('\n', f);
	for (uint64_t i = 0; i < k; i++) {
		fprintf(f, "0x%llx", (unsigned long long)v[i].pc);
		for (unsigned c = 0; c < PMT_N; c++)
			fprintf(f, "\t%llu", (unsigned long long)v[i].n[c]);
		fputc('\n', f);
	}
	free(v);
	return ferror(f) ? -1 : 0;
}
