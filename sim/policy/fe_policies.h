/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fe_policies.h - the two profiling policies that need front-end state the ROB interface
 * does not carry, computed from the core's retired-instruction records (sim/core: seq, pc,
 * t_fetch, t_dispatch, and whether the instruction committed or trapped), which the core
 * hands out in program order:
 *   DISPATCH  (AMD IBS op sampling / Arm SPE) a sample taken in cycle t tags the first
 *             instruction, in program (= ROB) order, dispatched in cycle t or later, i.e.
 *             the one dispatched in t, or the next one dispatched if none was; the sample is
 *             attributed to it when it commits. A tagged instruction that never commits
 *             (squashed; in this model only a trapping ecall, as wrong-path work is never
 *             dispatched) drops the sample, and the drop is counted.
 *   SOFTWARE  (perf-style interrupt with skid) a sample taken in cycle t is recognised L
 *             cycles later and lands where the front end is then: the first instruction of
 *             the latest fetch group with t_fetch <= t + L (the fetch PC of the last cycle
 *             that fetched at or before t + L).
 * Because dispatch and fetch are in program order, t_dispatch and t_fetch never decrease
 * along the record stream, so both policies resolve their samples on the fly with a queue
 * of pending sample cycles. Each sample weighs 1 (profiles are scaled to the Oracle's total
 * before they are compared). No global state; allocation failures set the profile's oom.
 */
#ifndef TIPROF_FE_POLICIES_H
#define TIPROF_FE_POLICIES_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* Growable FIFO of sample cycles (non-decreasing). */
struct fe_queue {
	uint64_t *v;       /* cap slots, circular */
	size_t cap, head, n;
};

/* The Software policy's default skid L, cycles (`tiprof accuracy --skid`). */
#define FE_DEFAULT_SKID 40

struct fe_policies {
	uint64_t skid;             /* L: cycles from the sample to its recognition */
	struct profile disp;       /* DISPATCH profile */
	struct profile sw;         /* SOFTWARE profile */
	struct fe_queue dq;        /* DISPATCH samples waiting for their instruction */
	struct fe_queue sq;        /* SOFTWARE sample cycles + L waiting for a later fetch */
	int have_group;            /* a fetch group has been seen */
	uint64_t group_t;          /* the latest fetch group seen: its fetch cycle ... */
	uint64_t group_pc;         /* ... and its first instruction */
	uint64_t samples;          /* samples taken */
	uint64_t disp_attributed;  /* DISPATCH samples attributed at a commit */
	uint64_t disp_dropped;     /* DISPATCH samples whose tagged instruction never committed */
	uint64_t disp_unresolved;  /* DISPATCH samples after the last dispatch (end of run) */
	int oom;                   /* a queue could not grow: results are incomplete */
};

/* Set up with skid L. Returns 0, or -1 when out of memory. */
int fe_policies_init(struct fe_policies *fp, uint64_t skid);
void fe_policies_free(struct fe_policies *fp);

/* A sample was taken in cycle t (calls in non-decreasing t). */
void fe_policies_sample(struct fe_policies *fp, uint64_t t);

/* The next record in program order: address, fetch and dispatch cycles, and whether it
 * committed (0: it trapped / was squashed). Every sample of a cycle t must have been given
 * before a record with t_dispatch >= t (true when records are given at their commit). */
void fe_policies_retire(struct fe_policies *fp, uint64_t pc, uint64_t t_fetch,
			uint64_t t_dispatch, int committed);

/* End of the run: SOFTWARE samples still waiting go to the last fetch group (nothing was
 * fetched after it); DISPATCH samples still waiting are counted unresolved. */
void fe_policies_finish(struct fe_policies *fp);

#endif /* TIPROF_FE_POLICIES_H */
