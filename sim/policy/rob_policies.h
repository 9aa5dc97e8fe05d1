/* SPDX-License-Identifier: Apache-2.0 */
/* The Oracle and the reference profiling policies computed from the per-cycle ROB interface
 * alone (struct tiprof_rob_if), so they apply to the simulator and to ROB traces recorded from
 * any core. One struct follows the stream cycle by cycle and builds, per policy, an
 * instruction-level profile:
 *   ORACLE   every cycle, by the four commit states (TIP paper §2.2; docs/tip-unit.md rules)
 *   IDEAL    the Oracle's own attribution of the sampled cycles only (the statistical floor)
 *   TIP      the TIP unit's samples (from the C model or the RTL), time-proportional
 *   TIP_ILP  TIP without commit parallelism: a Computing sample goes to the oldest committer
 *   LCI      the last committed instruction at the sample (CoreSight-style)
 *   NCI      the next instruction to commit at or after the sample (Intel PEBS-style)
 *   NCI_ILP  NCI, split over every instruction committing in that cycle
 * Dispatch and Software need front-end state the ROB interface does not carry; they are in
 * fe_policies.h, fed with the core's retired records (docs/accuracy.md). */
#ifndef TIPROF_ROB_POLICIES_H
#define TIPROF_ROB_POLICIES_H

#include <stdint.h>

#include "profile.h"
#include "tiprof/sample.h"
#include "tiprof/tiprof_regs.h"

enum rob_policy {
	POL_ORACLE, POL_IDEAL, POL_TIP, POL_TIP_ILP, POL_LCI, POL_NCI, POL_NCI_ILP, POL_COUNT
};

/* Names as printed and accepted on command lines: "Oracle", "Ideal", "TIP", ... */
extern const char *const rob_policy_name[POL_COUNT];

struct rob_policies {
	unsigned w;                        /* banks */
	struct profile prof[POL_COUNT];    /* one profile per policy */
	/* OIR as the Oracle keeps it */
	uint64_t oir_addr;                 /* youngest committed / last trapping instruction */
	int oir_flagged;                   /* it flushed the pipeline (mispredict, flush, trap) */
	/* Drained cycles waiting for the next instruction to enter the ROB */
	uint64_t drained_cycles;           /* all of them (Oracle) */
	uint64_t drained_sampled;          /* the sampled ones (Ideal) */
	/* samples waiting for the next commit (NCI) */
	uint64_t nci_waiting;
	uint64_t cycles;                   /* cycles seen */
	uint64_t samples;                  /* sampled cycles seen */
};

/* Set up for a core of w banks. Returns 0, or -1 when out of memory. */
int rob_policies_init(struct rob_policies *rp, unsigned w);
void rob_policies_free(struct rob_policies *rp);

/* One cycle of the stream; sampled says whether the sampler took a sample in this cycle (the
 * same cycles the TIP unit samples). Updates every policy but TIP/TIP_ILP. */
void rob_policies_cycle(struct rob_policies *rp, const struct tiprof_rob_if *rob, int sampled);

/* Add one sample delivered by the TIP unit (complete) to TIP and TIP_ILP. */
void rob_policies_tip_sample(struct rob_policies *rp, const struct tiprof_sample *s);

#endif /* TIPROF_ROB_POLICIES_H */
