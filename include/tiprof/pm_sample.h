/* SPDX-License-Identifier: (GPL-2.0-only OR Apache-2.0) */
/* One ProfileMe sample as the unit delivers it (the PM_R0.. record words, docs/profileme.md "The
 * record", layout in spec/tiprof_regs.json pm_record), the configuration of a ProfileMe
 * recording and its accounting: shared by the simulator, the driver's hardware layer, the sample
 * file and the tools. */
#ifndef TIPROF_PM_SAMPLE_H
#define TIPROF_PM_SAMPLE_H

#include <stdint.h>

#include "tiprof/tiprof_regs.h"

/* A sample: the record words exactly as PM_R0..PM_R<n-1> read them (per-profile words of
 * profile p at index + p * TIPROF_PM_REC_PROFILE_STRIDE). */
struct tiprof_pm_sample {
	uint64_t w[TIPROF_PM_REC_WORDS];
};

/* What a recording was made with: the unit's build parameters (PM_PARAMS) and the PM_*
 * registers as programmed, plus what the estimates need from the core. */
struct tiprof_pm_config {
	uint8_t f;		/* fetch slots per cycle (1, 2, 4, 8) */
	uint8_t tags;		/* tag ids: 1, or 2 (paired sampling available) */
	uint16_t fifo_depth;	/* PM record FIFO entries */
	uint32_t ctrl;		/* PM_CTRL */
	uint32_t period;	/* PM_PERIOD: fetch units per selection */
	uint32_t pair;		/* PM_PAIR (WINDOW) */
	uint32_t timeout;	/* PM_TIMEOUT */
	uint32_t evfilt;	/* PM_EVFILT */
	uint32_t latfilt;	/* PM_LATFILT */
	uint16_t issue_width;	/* the core's issue slots per cycle (0: unknown) */
};

/* Accounting of a recording: the unit's counters over the run, and software losses. Every
 * selection is exactly one of taken, lost, filtered, collided. */
struct tiprof_pm_counts {
	uint64_t taken;		/* PM_TAKEN */
	uint64_t lost;		/* PM_LOST: completed samples that found the FIFO full */
	uint64_t filtered;	/* PM_FILTERED: dropped by the event or latency filter */
	uint64_t collided;	/* PM_COLLIDED: selections made while a sample was open */
	uint64_t lost_sw;	/* samples read from the unit but lost on the software path */
};

/* Field of record word `word` (a TIPROF_PM_REC_* index) of profile p, with the field's
 * TIPROF_PM_REC_*_MASK and _SHIFT. */
static inline uint64_t tiprof_pm_field(const struct tiprof_pm_sample *s, unsigned word,
				       unsigned p, uint64_t mask, unsigned shift)
{
	unsigned i = word + (word >= TIPROF_PM_REC_PC ? p * TIPROF_PM_REC_PROFILE_STRIDE : 0);

	return (s->w[i] & mask) >> shift;
}

#endif /* TIPROF_PM_SAMPLE_H */
