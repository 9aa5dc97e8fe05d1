/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_truth.h - the exact per-instruction truth that ProfileMe estimates are judged against
 * (docs/core.md "ProfileMe"): for every static instruction (PC) of a run on the core model, how
 * often it was fetched (wrong path included), how each fetch ended, its events and the sums of
 * its stage latencies, lifetimes and useful overlap; and the run's issue-slot totals. Filled
 * from the core's outputs cycle by cycle (the core's ProfileMe interface must be on); written
 * as a text table (format in docs/core.md).
 */
#ifndef TIPROF_PM_TRUTH_H
#define TIPROF_PM_TRUTH_H

#include <stdint.h>
#include <stdio.h>

#include "core.h"

/* Per-PC counts. Latency sums are over the retired fetches (TRUTH_LAT_* as the record's
 * TIPROF_PM_LAT_* selectors: total, fetch-map, map-ready, ready-issue, issue-complete,
 * complete-retire, mem (memory instructions only)). */
enum { PMT_FETCHED, PMT_RETIRED, PMT_TRAP, PMT_SQUASH_MISPRED, PMT_SQUASH_OTHER, PMT_IC_MISS,
       PMT_ITLB_MISS, PMT_DC_MISS, PMT_DTLB_MISS, PMT_LOAD, PMT_STORE, PMT_CTRL, PMT_TAKEN,
       PMT_MISPRED, PMT_LAT0, PMT_LAT_END = PMT_LAT0 + 7, PMT_LIFETIME = PMT_LAT_END,
       PMT_OVERLAP, PMT_ALL_LIFETIME, PMT_ALL_OVERLAP, PMT_N };

struct pm_truth_ent {
	uint64_t pc;		/* 0: empty slot of the table */
	uint64_t n[PMT_N];
};

struct pm_truth {
	struct pm_truth_ent *tab;	/* open addressing, power-of-two size */
	uint64_t size, used;
	uint64_t cycles, issued;	/* cycles seen; issues that retire */
	unsigned issue_width;
	int oom;			/* a table grow failed (reported by pm_truth_write) */
};

/* Initialise t for a core with issue_width slots per cycle. 0, or -1 out of memory. */
int pm_truth_init(struct pm_truth *t, unsigned issue_width);

/* One core cycle. 0, or -1 out of memory. */
int pm_truth_cycle(struct pm_truth *t, const struct core_cycle_out *o);

/* The entry of pc, or NULL if it was never fetched. */
const struct pm_truth_ent *pm_truth_find(const struct pm_truth *t, uint64_t pc);

/* Write the table (docs/core.md "ProfileMe truth"). 0, or -1 (I/O error or a failed grow). */
int pm_truth_write(const struct pm_truth *t, FILE *f);

/* Name of column i (PMT_*), as in the file's header line. */
const char *pm_truth_column(unsigned i);

void pm_truth_fini(struct pm_truth *t);

#endif /* TIPROF_PM_TRUTH_H */
