/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tiprof_pmu_fake.h - a software stand-in for the TIP unit of one hart, for
 * the system test only (module parameter fake_unit=1): QEMU has no TIP unit,
 * and this lets the test drive the PMU, the interrupt path, the AUX output and
 * lost-sample reporting end to end, for TIP and for ProfileMe. It answers the
 * CSR accessors of the hardware layer; a pinned hrtimer stands in for the
 * samplers and the interrupt. Not a model of the unit: the simulator has that.
 *
 * The ProfileMe records the fake produces are a function of their sequence
 * number (tiprof_fake_pm_record(), below), so the system test, which includes
 * this header in user space, can recompute every record it reads.
 */
#ifndef TIPROF_PMU_FAKE_H
#define TIPROF_PMU_FAKE_H

#ifdef __KERNEL__
#include <linux/hrtimer.h>
#include <linux/types.h>
#else
/* user space (the system test) reads the record generator below */
#include <stdint.h>
#define u32 uint32_t
#define u64 uint64_t
#endif

#include "tiprof_hw.h"

/* Parameters the fake reports in TIP_PARAMS (the test's DT node matches). */
#define TIPROF_FAKE_W		2
#define TIPROF_FAKE_XLEN	64
#define TIPROF_FAKE_DEPTH	16
/* Context id of every fake sample, and the address of sample 0. */
#define TIPROF_FAKE_CTX		0x42
#define TIPROF_FAKE_ADDR0	0x10000

/* ProfileMe: PM_PARAMS of the fake, and where its records point. */
#define TIPROF_FAKE_PM_F	4
#define TIPROF_FAKE_PM_DEPTH	8
#define TIPROF_FAKE_PM_TAGS	2
#define TIPROF_FAKE_PM_PC0	0x20000
#define TIPROF_FAKE_PM_EA0	0x80000
/* D-cache misses add this many cycles to complete and end */
#define TIPROF_FAKE_PM_MISS	20

/* Stage stamps of a fake profile: STAMP_A into *@a, STAMP_B into *@b. */
static inline void tiprof_fake_pm_stamps(int mem, int miss, u64 *a,
					 u64 *b)
{
	u64 late = miss ? TIPROF_FAKE_PM_MISS : 0;
	u64 seen = 0x17;	/* map, ready, issue, complete */

	*a = 2 | 3ull << TIPROF_PM_REC_STAMP_A_READY_SHIFT |
	     5ull << TIPROF_PM_REC_STAMP_A_ISSUE_SHIFT |
	     (9 + late) << TIPROF_PM_REC_STAMP_A_COMPLETE_SHIFT;
	if (mem)
		seen |= 0x8;
	*b = (mem ? 6 : 0) | (12 + late) << TIPROF_PM_REC_STAMP_B_END_SHIFT |
	     seen << TIPROF_PM_REC_STAMP_B_SEEN_SHIFT;
}

/*
 * Record number @g of a fake ProfileMe run with PM_CTRL @ctrl, PM_PAIR
 * @window and PM_PERIOD @period. Profile 0: PC PC0 + 4g, retired (aborted
 * behind a mispredict when g % 7 == 3); a load with its EA (EA0 + 8g) when
 * g % 4 == 1, missing the D-cache when g % 8 == 1; a taken branch when
 * g % 5 == 2, mispredicted when g % 10 == 7. With PM_CTRL.PAIR, records with
 * g % 3 != 0 are pairs at distance 1 + g % window, the second retired.
 */
static inline void tiprof_fake_pm_record(u64 g, u32 ctrl,
					 u32 window, u32 period,
					 struct tiprof_pm_sample *s)
{
	const unsigned int p1 = TIPROF_PM_REC_PROFILE_STRIDE;
	int pair = (ctrl & TIPROF_PM_CTRL_PAIR_MASK) && g % 3 != 0;
	u64 d = pair ? 1 + g % (window ? window : 1) : 0;
	u64 ev = 0, reason = 0, common;
	unsigned int k;
	int load = g % 4 == 1, miss = g % 8 == 1;

	for (k = 0; k < TIPROF_PM_REC_WORDS; k++)
		s->w[k] = 0;
	s->w[TIPROF_PM_REC_CYCLE] = g * period;
	s->w[TIPROF_PM_REC_SINFO] = TIPROF_PM_REC_FMT |
		(u64)pair << TIPROF_PM_REC_SINFO_PAIR_SHIFT |
		d << TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT |
		(d / 4) << TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT;
	common = 1ull << TIPROF_PM_REC_INFO_TAGGED_SHIFT |
		 (u64)TIPROF_FAKE_CTX << TIPROF_PM_REC_INFO_CTX_SHIFT |
		 (g & 0xFFFF) << TIPROF_PM_REC_INFO_PATH_SHIFT;

	if (g % 7 == 3) {
		ev |= 1u << TIPROF_PM_EV_ABORTED;
		reason = TIPROF_PM_ABORT_MISPRED;
	} else {
		ev |= 1u << TIPROF_PM_EV_RETIRED;
	}
	if (load) {
		ev |= 1u << TIPROF_PM_EV_LOAD | 1u << TIPROF_PM_EV_EA_VALID;
		s->w[TIPROF_PM_REC_EA] = TIPROF_FAKE_PM_EA0 + 8 * g;
		if (miss)
			ev |= 1u << TIPROF_PM_EV_DC_MISS;
	}
	if (g % 5 == 2) {
		ev |= 1u << TIPROF_PM_EV_CTRL | 1u << TIPROF_PM_EV_BR_TAKEN;
		if (g % 10 == 7)
			ev |= 1u << TIPROF_PM_EV_BR_MISPRED;
	}
	s->w[TIPROF_PM_REC_PC] = TIPROF_FAKE_PM_PC0 + 4 * g;
	s->w[TIPROF_PM_REC_INFO] = ev | reason << TIPROF_PM_REC_INFO_REASON_SHIFT |
		common |
		(g % TIPROF_FAKE_PM_F) << TIPROF_PM_REC_INFO_SLOT_SHIFT;
	tiprof_fake_pm_stamps(load, load && miss, &s->w[TIPROF_PM_REC_STAMP_A],
			      &s->w[TIPROF_PM_REC_STAMP_B]);
	if (!pair)
		return;
	s->w[p1 + TIPROF_PM_REC_PC] = TIPROF_FAKE_PM_PC0 + 4 * (g + d);
	s->w[p1 + TIPROF_PM_REC_INFO] = 1u << TIPROF_PM_EV_RETIRED | common |
		((g + d) % TIPROF_FAKE_PM_F) << TIPROF_PM_REC_INFO_SLOT_SHIFT;
	tiprof_fake_pm_stamps(0, 0, &s->w[p1 + TIPROF_PM_REC_STAMP_A],
			      &s->w[p1 + TIPROF_PM_REC_STAMP_B]);
}

/* The fake's event filter: PM_EVFILT applied to profile 0's EV bits. */
static inline int tiprof_fake_pm_keep(const struct tiprof_pm_sample *s,
				      u32 evfilt)
{
	u32 ev = (u32)(s->w[TIPROF_PM_REC_INFO] &
				 TIPROF_PM_REC_INFO_EV_MASK);
	u32 mask = evfilt & TIPROF_PM_EVFILT_MASK_MASK;
	u32 match = (evfilt & TIPROF_PM_EVFILT_MATCH_MASK) >>
			 TIPROF_PM_EVFILT_MATCH_SHIFT;

	return ((ev ^ match) & mask) == 0;
}

#ifdef __KERNEL__
/* The ProfileMe side of a fake unit. */
struct tiprof_fake_pm {
	u32 ctrl, period, watermark, pair, timeout, evfilt, latfilt;
	u32 head, count;			/* FIFO ring */
	u64 seq;				/* number of the next record made */
	u64 taken, lost, filtered, collided;	/* PM_* counters */
	struct tiprof_pm_sample fifo[TIPROF_FAKE_PM_DEPTH];
};

/* One fake unit (per hart). */
struct tiprof_fake {
	struct hrtimer timer;		/* the samplers: a tick every 1 ms */
	void (*irq)(void *arg);		/* called like the unit's interrupt */
	void *irq_arg;			/* its argument */
	u32 ctrl, period, watermark;	/* registers as written */
	u32 count;			/* complete samples in the FIFO */
	u64 seq;			/* sequence number of the oldest sample */
	u64 taken, lost;		/* TIP_TAKEN, TIP_LOST */
	u64 ticks;			/* timer ticks since a subsystem started */
	struct tiprof_fake_pm pm;	/* ProfileMe */
};

extern const struct tiprof_hw_ops tiprof_fake_ops;

void tiprof_fake_init(struct tiprof_fake *f, void (*irq)(void *arg),
		      void *irq_arg);
void tiprof_fake_exit(struct tiprof_fake *f);
#endif /* __KERNEL__ */

#endif /* TIPROF_PMU_FAKE_H */
