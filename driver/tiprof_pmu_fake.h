/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tiprof_pmu_fake.h - a software stand-in for the TIP unit of one hart, for
 * the system test only (module parameter fake_unit=1): QEMU has no TIP unit,
 * and this lets the test drive the PMU, the interrupt path, the AUX output and
 * lost-sample reporting end to end. It answers the CSR accessors of the
 * hardware layer; a pinned hrtimer stands in for the sampler and the
 * interrupt. Not a model of the unit: the simulator has that.
 */
#ifndef TIPROF_PMU_FAKE_H
#define TIPROF_PMU_FAKE_H

#include <linux/hrtimer.h>
#include <linux/types.h>

#include "tiprof_hw.h"

/* Parameters the fake reports in TIP_PARAMS (the test's DT node matches). */
#define TIPROF_FAKE_W		2
#define TIPROF_FAKE_XLEN	64
#define TIPROF_FAKE_DEPTH	16
/* Context id of every fake sample, and the address of sample 0. */
#define TIPROF_FAKE_CTX		0x42
#define TIPROF_FAKE_ADDR0	0x10000

/* One fake unit (per hart). */
struct tiprof_fake {
	struct hrtimer timer;		/* the sampler: a tick every 1 ms */
	void (*irq)(void *arg);		/* called like the unit's interrupt */
	void *irq_arg;			/* its argument */
	u32 ctrl, period, watermark;	/* registers as written */
	u32 count;			/* complete samples in the FIFO */
	u64 seq;			/* sequence number of the oldest sample */
	u64 taken, lost;		/* TIP_TAKEN, TIP_LOST */
	u64 ticks;			/* timer ticks since EN was set */
};

extern const struct tiprof_hw_ops tiprof_fake_ops;

void tiprof_fake_init(struct tiprof_fake *f, void (*irq)(void *arg),
		      void *irq_arg);
void tiprof_fake_exit(struct tiprof_fake *f);

#endif /* TIPROF_PMU_FAKE_H */
