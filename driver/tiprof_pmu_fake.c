// SPDX-License-Identifier: GPL-2.0-only
/*
 * tiprof_pmu_fake.c - software stand-in for a hart's TIP unit, for the system
 * test (tiprof_pmu fake_unit=1; see tiprof_pmu_fake.h).
 *
 * Every 1 ms while TIP_CTRL.EN is set, the timer "takes" 4 samples (24 on
 * every TIPROF_FAKE_BURST-th tick, so a 16-entry FIFO overflows and TIP_LOST
 * counts), then calls the interrupt handler when FIFO_COUNT >= WATERMARK and
 * IRQ_EN is set.
 * Sample n (counted in POP order) has one valid slot, address
 * TIPROF_FAKE_ADDR0 + 4n, context TIPROF_FAKE_CTX, cycle n * PERIOD, user
 * privilege: the test checks that the addresses it reads are consecutive.
 *
 * ProfileMe (PM_*): every 1 ms while PM_CTRL.EN is set, 4 records are made (20
 * on every TIPROF_FAKE_BURST-th tick, so the 8-entry FIFO overflows and
 * PM_LOST counts) and one selection collides (PM_COLLIDED). Record g is tiprof_fake_pm_record(g) of
 * tiprof_pmu_fake.h; PM_EVFILT drops records (PM_FILTERED), PM_LATFILT is
 * stored but not applied. TIP and ProfileMe share the timer and the interrupt
 * (TIP_STATUS.IRQ, PM_STATUS.IRQ say which).
 *
 * All accesses come from the fake's own hart with interrupts off (perf
 * callbacks, the probe IPI) or from its pinned timer, so no locking.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>

#include "tiprof_pmu_fake.h"

#define TIPROF_FAKE_TICK_NS	(1000 * 1000)
/*
 * Ticks between bursts. The tick is a wall-clock timer: in a guest starved by a
 * loaded host, hrtimer_forward_now() skips the missed ones, and a 0.3 s busy
 * loop saw as few as 46 ticks - with a burst every 50th none overflowed.
 */
#define TIPROF_FAKE_BURST	10

static u32 tiprof_fake_info(void)
{
	/* Computing, bank 0, slot 0 valid, privilege U */
	return 1u << TIPROF_TIP_S_INFO_VALID_SHIFT;
}

static bool tiprof_fake_tip_irq(const struct tiprof_fake *f)
{
	return (f->ctrl & TIPROF_TIP_CTRL_IRQ_EN_MASK) && f->count >= f->watermark;
}

static bool tiprof_fake_pm_irq(const struct tiprof_fake_pm *pm)
{
	return (pm->ctrl & TIPROF_PM_CTRL_IRQ_EN_MASK) &&
	       pm->count >= pm->watermark;
}

static bool tiprof_fake_pm_read(struct tiprof_fake_pm *pm, uint16_t addr,
				uint64_t *val)
{
	if (addr >= TIPROF_PM_R && addr < TIPROF_PM_R + TIPROF_PM_REC_WORDS) {
		*val = pm->count ? pm->fifo[pm->head].w[addr - TIPROF_PM_R] : 0;
		return true;
	}
	switch (addr) {
	case TIPROF_PM_PARAMS:
		*val = TIPROF_FAKE_PM_F << TIPROF_PM_PARAMS_F_SHIFT |
		       TIPROF_FAKE_XLEN << TIPROF_PM_PARAMS_XLEN_SHIFT |
		       TIPROF_FAKE_PM_DEPTH << TIPROF_PM_PARAMS_DEPTH_SHIFT |
		       TIPROF_FAKE_PM_TAGS << TIPROF_PM_PARAMS_TAGS_SHIFT;
		return true;
	case TIPROF_PM_CTRL:
		*val = pm->ctrl;
		return true;
	case TIPROF_PM_PERIOD:
		*val = pm->period;
		return true;
	case TIPROF_PM_WATERMARK:
		*val = pm->watermark;
		return true;
	case TIPROF_PM_PAIR:
		*val = pm->pair;
		return true;
	case TIPROF_PM_TIMEOUT:
		*val = pm->timeout;
		return true;
	case TIPROF_PM_EVFILT:
		*val = pm->evfilt;
		return true;
	case TIPROF_PM_LATFILT:
		*val = pm->latfilt;
		return true;
	case TIPROF_PM_STATUS:
		*val = (tiprof_fake_pm_irq(pm) ? TIPROF_PM_STATUS_IRQ_MASK : 0) |
		       (pm->count == TIPROF_FAKE_PM_DEPTH ?
			TIPROF_PM_STATUS_FULL_MASK : 0);
		return true;
	case TIPROF_PM_POP:
	case TIPROF_PM_LFSR:
		*val = 0;
		return true;
	case TIPROF_PM_FIFO_COUNT:
		*val = pm->count;
		return true;
	case TIPROF_PM_TAKEN:
		*val = pm->taken;
		return true;
	case TIPROF_PM_LOST:
		*val = pm->lost;
		return true;
	case TIPROF_PM_FILTERED:
		*val = pm->filtered;
		return true;
	case TIPROF_PM_COLLIDED:
		*val = pm->collided;
		return true;
	default:
		return false;
	}
}

static int tiprof_fake_read(void *ctx, uint16_t addr, uint64_t *val)
{
	struct tiprof_fake *f = ctx;
	bool have = f->count > 0;

	if (tiprof_fake_pm_read(&f->pm, addr, val))
		return 0;
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
		*val = tiprof_fake_tip_irq(f) ? TIPROF_TIP_STATUS_IRQ_MASK : 0;
		return 0;
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

static bool tiprof_fake_on(const struct tiprof_fake *f)
{
	return (f->ctrl & TIPROF_TIP_CTRL_EN_MASK) ||
	       (f->pm.ctrl & TIPROF_PM_CTRL_EN_MASK);
}

/* Start the timer when a subsystem starts, stop it when none runs. */
static void tiprof_fake_timer(struct tiprof_fake *f, bool was_on)
{
	if (!was_on && tiprof_fake_on(f)) {
		f->ticks = 0;
		hrtimer_start(&f->timer, ns_to_ktime(TIPROF_FAKE_TICK_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
	} else if (!tiprof_fake_on(f)) {
		/* may run inside the timer: it sees EN clear and ends */
		hrtimer_try_to_cancel(&f->timer);
	}
}

static bool tiprof_fake_pm_write(struct tiprof_fake_pm *pm, uint16_t addr,
				 uint64_t val)
{
	switch (addr) {
	case TIPROF_PM_PERIOD:
		pm->period = (u32)val;
		return true;
	case TIPROF_PM_WATERMARK:
		pm->watermark = (u32)val;
		return true;
	case TIPROF_PM_PAIR:
		pm->pair = (u32)val;
		return true;
	case TIPROF_PM_TIMEOUT:
		pm->timeout = (u32)val;
		return true;
	case TIPROF_PM_EVFILT:
		pm->evfilt = (u32)val;
		return true;
	case TIPROF_PM_LATFILT:
		pm->latfilt = (u32)val;
		return true;
	case TIPROF_PM_POP:
		if (pm->count) {
			pm->head = (pm->head + 1) % TIPROF_FAKE_PM_DEPTH;
			pm->count--;
		}
		return true;
	case TIPROF_PM_TAKEN:
		pm->taken = val;
		return true;
	case TIPROF_PM_LOST:
		pm->lost = val;
		return true;
	case TIPROF_PM_FILTERED:
		pm->filtered = val;
		return true;
	case TIPROF_PM_COLLIDED:
		pm->collided = val;
		return true;
	case TIPROF_PM_STATUS:
	case TIPROF_PM_LFSR:
		return true;
	default:
		return false;
	}
}

static int tiprof_fake_write(void *ctx, uint16_t addr, uint64_t val)
{
	struct tiprof_fake *f = ctx;
	bool was_on = tiprof_fake_on(f);

	if (addr == TIPROF_PM_CTRL) {
		f->pm.ctrl = (u32)val;
		tiprof_fake_timer(f, was_on);
		return 0;
	}
	if (tiprof_fake_pm_write(&f->pm, addr, val))
		return 0;
	switch (addr) {
	case TIPROF_TIP_CTRL:
		f->ctrl = (u32)val;
		tiprof_fake_timer(f, was_on);
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

/* One tick of ProfileMe: make @n records, one selection collides. */
static void tiprof_fake_pm_tick(struct tiprof_fake_pm *pm, unsigned int n)
{
	struct tiprof_pm_sample *s, spare;
	unsigned int i;

	pm->collided++;
	for (i = 0; i < n; i++) {
		/* made in the next free entry; kept there only if it passes */
		s = pm->count < TIPROF_FAKE_PM_DEPTH ?
		    &pm->fifo[(pm->head + pm->count) % TIPROF_FAKE_PM_DEPTH] :
		    &spare;
		tiprof_fake_pm_record(pm->seq++, pm->ctrl, pm->pair, pm->period,
				      s);
		if (!tiprof_fake_pm_keep(s, pm->evfilt)) {
			pm->filtered++;
		} else if (s == &spare) {
			pm->lost++;
		} else {
			pm->count++;
			pm->taken++;
		}
	}
}

static enum hrtimer_restart tiprof_fake_tick(struct hrtimer *t)
{
	struct tiprof_fake *f = container_of(t, struct tiprof_fake, timer);
	unsigned int i, n;

	if (!tiprof_fake_on(f))
		return HRTIMER_NORESTART;
	++f->ticks;
	n = f->ticks % TIPROF_FAKE_BURST ? 4 : 24;
	for (i = 0; f->ctrl & TIPROF_TIP_CTRL_EN_MASK && i < n; i++) {
		if (f->count < TIPROF_FAKE_DEPTH) {
			f->count++;
			f->taken++;
		} else {
			f->lost++;
		}
	}
	if (f->pm.ctrl & TIPROF_PM_CTRL_EN_MASK)
		tiprof_fake_pm_tick(&f->pm,
				    f->ticks % TIPROF_FAKE_BURST ? 4 : 20);
	if (tiprof_fake_tip_irq(f) || tiprof_fake_pm_irq(&f->pm))
		f->irq(f->irq_arg);
	if (!tiprof_fake_on(f))
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
	f->pm.period = TIPROF_PM_PERIOD_RESET;
	f->pm.watermark = 1;
	f->pm.pair = TIPROF_PM_PAIR_RESET;
	f->pm.timeout = TIPROF_PM_TIMEOUT_RESET;
}

void tiprof_fake_exit(struct tiprof_fake *f)
{
	hrtimer_cancel(&f->timer);
}
