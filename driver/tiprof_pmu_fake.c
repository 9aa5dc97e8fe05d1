// SPDX-License-Identifier: GPL-2.0-only
/*
 * tiprof_pmu_fake.c - software stand-in for a hart's TIP unit, for the system
 * test (tiprof_pmu fake_unit=1; see tiprof_pmu_fake.h).
 *
 * Every 1 ms while TIP_CTRL.EN is set, the timer "takes" 4 samples (24 on
 * every 50th tick, so a 16-entry FIFO overflows and TIP_LOST counts), then
 * calls the interrupt handler when FIFO_COUNT >= WATERMARK and IRQ_EN is set.
 * Sample n (counted in POP order) has one valid slot, address
 * TIPROF_FAKE_ADDR0 + 4n, context TIPROF_FAKE_CTX, cycle n * PERIOD, user
 * privilege: the test checks that the addresses it reads are consecutive.
 *
 * All accesses come from the fake's own hart with interrupts off (perf
 * callbacks, the probe IPI) or from its pinned timer, so no locking.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>

#include "tiprof_pmu_fake.h"

#define TIPROF_FAKE_TICK_NS	(1000 * 1000)

static u32 tiprof_fake_info(void)
{
	/* Computing, bank 0, slot 0 valid, privilege U */
	return 1u << TIPROF_TIP_S_INFO_VALID_SHIFT;
}

static int tiprof_fake_read(void *ctx, uint16_t addr, uint64_t *val)
{
	struct tiprof_fake *f = ctx;
	bool have = f->count > 0;

	switch (addr) {
	case TIPROF_TIP_ID:
		*val = TIPROF_TIP_ID_MAGIC |
		       TIPROF_TIP_ID_MAJOR << TIPROF_TIP_ID_MAJOR_SHIFT |
		       TIPROF_TIP_ID_MINOR << TIPROF_TIP_ID_MINOR_SHIFT;
		return 0;
	case TIPROF_TIP_PARAMS:
		*val = TIPROF_FAKE_W << TIPROF_TIP_PARAMS_W_SHIFT |
		       TIPROF_FAKE_XLEN << TIPROF_TIP_PARAMS_XLEN_SHIFT |
		       TIPROF_FAKE_DEPTH << TIPROF_TIP_PARAMS_DEPTH_SHIFT;
		return 0;
	case TIPROF_TIP_CTRL:
		*val = f->ctrl;
		return 0;
	case TIPROF_TIP_PERIOD:
		*val = f->period;
		return 0;
	case TIPROF_TIP_WATERMARK:
		*val = f->watermark;
		return 0;
	case TIPROF_TIP_STATUS:
	case TIPROF_TIP_POP:
	case TIPROF_TIP_LFSR:
		*val = 0;
		return 0;
	case TIPROF_TIP_TAKEN:
		*val = f->taken;
		return 0;
	case TIPROF_TIP_LOST:
		*val = f->lost;
		return 0;
	case TIPROF_TIP_CYCLE:
		*val = ktime_get_ns();
		return 0;
	case TIPROF_TIP_FIFO_COUNT:
		*val = f->count;
		return 0;
	case TIPROF_TIP_S_INFO:
		*val = have ? tiprof_fake_info() : 0;
		return 0;
	case TIPROF_TIP_S_CYCLE:
		*val = have ? f->seq * f->period : 0;
		return 0;
	case TIPROF_TIP_S_CTX:
		*val = have ? TIPROF_FAKE_CTX : 0;
		return 0;
	case TIPROF_TIP_S_ADDR:
		*val = have ? TIPROF_FAKE_ADDR0 + 4 * f->seq : 0;
		return 0;
	default:
		/* what a real hart does for a CSR that is not there */
		return -EIO;
	}
}

static int tiprof_fake_write(void *ctx, uint16_t addr, uint64_t val)
{
	struct tiprof_fake *f = ctx;
	u32 was = f->ctrl;

	switch (addr) {
	case TIPROF_TIP_CTRL:
		f->ctrl = (u32)val;
		if (!(was & TIPROF_TIP_CTRL_EN_MASK) &&
		    (val & TIPROF_TIP_CTRL_EN_MASK)) {
			f->ticks = 0;
			hrtimer_start(&f->timer, ns_to_ktime(TIPROF_FAKE_TICK_NS),
				      HRTIMER_MODE_REL_PINNED_HARD);
		} else if (!(val & TIPROF_TIP_CTRL_EN_MASK)) {
			/* may run inside the timer: it sees EN clear and ends */
			hrtimer_try_to_cancel(&f->timer);
		}
		return 0;
	case TIPROF_TIP_PERIOD:
		f->period = (u32)val;
		return 0;
	case TIPROF_TIP_WATERMARK:
		f->watermark = (u32)val;
		return 0;
	case TIPROF_TIP_POP:
		if (f->count) {
			f->count--;
			f->seq++;
		}
		return 0;
	case TIPROF_TIP_TAKEN:
		f->taken = val;
		return 0;
	case TIPROF_TIP_LOST:
		f->lost = val;
		return 0;
	case TIPROF_TIP_STATUS:
	case TIPROF_TIP_LFSR:
		return 0;
	default:
		return -EIO;
	}
}

const struct tiprof_hw_ops tiprof_fake_ops = {
	.csr_read = tiprof_fake_read,
	.csr_write = tiprof_fake_write,
};

static enum hrtimer_restart tiprof_fake_tick(struct hrtimer *t)
{
	struct tiprof_fake *f = container_of(t, struct tiprof_fake, timer);
	unsigned int i, n;

	if (!(f->ctrl & TIPROF_TIP_CTRL_EN_MASK))
		return HRTIMER_NORESTART;
	n = ++f->ticks % 50 ? 4 : 24;
	for (i = 0; i < n; i++) {
		if (f->count < TIPROF_FAKE_DEPTH) {
			f->count++;
			f->taken++;
		} else {
			f->lost++;
		}
	}
	if ((f->ctrl & TIPROF_TIP_CTRL_IRQ_EN_MASK) && f->count >= f->watermark)
		f->irq(f->irq_arg);
	if (!(f->ctrl & TIPROF_TIP_CTRL_EN_MASK))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(TIPROF_FAKE_TICK_NS));
	return HRTIMER_RESTART;
}

void tiprof_fake_init(struct tiprof_fake *f, void (*irq)(void *arg),
		      void *irq_arg)
{
	memset(f, 0, sizeof(*f));
	hrtimer_init(&f->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	f->timer.function = tiprof_fake_tick;
	f->irq = irq;
	f->irq_arg = irq_arg;
	f->period = 1;
	f->watermark = 1;
}

void tiprof_fake_exit(struct tiprof_fake *f)
{
	hrtimer_cancel(&f->timer);
}
