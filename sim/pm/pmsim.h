/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pmsim.h - the ProfileMe unit on the simulated core (docs/profileme.md; docs/core.md
 * "ProfileMe"): every core cycle the unit's C reference model (sim/model/pm_model) is clocked
 * with the core's ProfileMe interface, its tags go back to the core, and each record it makes is
 * drained and handed to the caller. The unit is programmed with CSR writes in its first cycles,
 * as a driver would. Each record is also checked against the core's exact truth of the
 * instructions it describes: pmsim knows which instruction carried each tag, so every field
 * the unit recorded must equal what the core did (a difference is an error: the interface or
 * the unit is wrong).
 */
#ifndef TIPROF_PMSIM_H
#define TIPROF_PMSIM_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "tiprof/pm_sample.h"

/* What to record. */
struct pmsim_cfg {
	uint32_t period;	/* PM_PERIOD: fetch units per selection (>= F) */
	unsigned rand_bits;	/* k of the random interval; 0: periodic */
	int opportunities;	/* PM_CTRL.UNIT: count fetch slots, not fetched instructions */
	unsigned window;	/* paired sampling with this PM_PAIR.WINDOW (1..256); 0: single */
	uint32_t seed;		/* PM_LFSR seed (0: the reset value) */
	unsigned fifo_depth;	/* the unit's record FIFO (>= 1) */
	uint32_t evfilt, latfilt; /* PM_EVFILT, PM_LATFILT (0: no filter) */
	/* every record drained, in order (NULL: none); returns 0 or -1 with err set */
	int (*emit)(void *ctx, const struct tiprof_pm_sample *s, char *err, size_t errlen);
	void *emit_ctx;
};

/* Accounting of a run. */
struct pmsim_stats {
	struct tiprof_pm_counts counts;	/* the unit's counters at the end */
	uint64_t records;		/* records drained and emitted */
	uint64_t profiles_checked;	/* profiles compared with the core's truth */
	uint64_t profiles_timeout;	/* ended by the unit's timeout: not comparable */
	uint64_t tagged;		/* instructions tagged */
	uint64_t tagged_ghost;		/* of them shadow-fetched (counted when squashed) */
	uint64_t cycles;		/* unit cycles (= core cycles) */
};

struct pmsim;

/* Switch the core's ProfileMe interface on and set the unit up (F = the core's fetch width,
 * XLEN 64, two tag ids). Returns NULL with a one-line reason in err. */
struct pmsim *pmsim_open(const struct pmsim_cfg *cfg, struct core *core, char *err,
			 size_t errlen);

/* One core cycle (its outputs o): clock the unit, give the core its tags, drain and check
 * the record of a completed sample. Returns 0, or -1 with err set. */
int pmsim_cycle(struct pmsim *p, const struct core_cycle_out *o, char *err, size_t errlen);

/* The configuration record of this recording (with the core's issue width). */
void pmsim_config(const struct pmsim *p, struct tiprof_pm_config *c);

/* After the last cycle: the accounting. */
void pmsim_stats(const struct pmsim *p, struct pmsim_stats *st);

/* Free p (NULL is fine). */
void pmsim_close(struct pmsim *p);

#endif /* TIPROF_PMSIM_H */
