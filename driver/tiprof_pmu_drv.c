// SPDX-License-Identifier: GPL-2.0-only
/*
 * tiprof_pmu - perf PMU driver of the tiprof TIP profiling unit (RISC-V).
 *
 * One TIP unit sits beside each hart, behind custom CSRs (docs/registers.md).
 * A device-tree node "tiprof,tip-v1" says the harts have one and gives the
 * unit's per-hart local interrupt number (binding in docs/driver.md). The
 * kernel-independent hardware layer (hw/tiprof_hw.c, shared with the
 * simulator) identifies, programs and drains a unit; this file supplies its
 * CSR accessors and turns it into a perf PMU. fake_unit=1 (test only) puts a
 * software stand-in behind the same accessors (tiprof_pmu_fake.c).
 *
 * Samples travel through the perf AUX area, as with drivers/perf/arm_spe_pmu.c:
 * perf_event_overflow() is not exported to modules, so raw samples are out of
 * reach of a loadable driver. The AUX stream is a sequence of records
 * (struct tiprof_aux_rec of include/tiprof/aux_record.h, the layout `tiprof record`
 * reads; docs/driver.md); lost samples, counted by the
 * unit's TIP_LOST and by this driver when the AUX area is full, become LOST
 * records and set PERF_AUX_FLAG_COLLISION / _TRUNCATED on the AUX record.
 *
 * ProfileMe (docs/profileme.md) is the same PMU with config bit "profileme":
 * the event programs the unit's ProfileMe subsystem instead of TIP (period =
 * fetch units per selection; pairing, window, filters from config*) and its
 * AUX stream holds PM_SAMPLE records (the 12 record words) and PM_COUNTS
 * records (increments of PM_TAKEN/LOST/FILTERED/COLLIDED and of the records
 * this driver had no room for). Both subsystems share the unit's interrupt.
 */
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/asm-extable.h>

#include "tiprof/aux_record.h"
#include "tiprof_hw.h"
#include "tiprof_pmu_fake.h"

#define TIPROF_PMU_NAME		"tiprof_pmu"
/* Samples drained per tiprof_hw_drain() call in the interrupt handler. */
#define TIPROF_PMU_BATCH	16
/*
 * Default of max_samples_per_tick: perf core's default
 * kernel.perf_event_max_sample_rate (100000 per second), per tick.
 */
#define TIPROF_PMU_MAX_RATE	100000

/* AUX buffer of one event: the perf pages, mapped contiguously. */
struct tiprof_pmu_buf {
	void *base;		/* vmap of the AUX pages */
	unsigned long size;	/* bytes, a power of two */
};

/* State of the unit of one hart. */
struct tiprof_pmu_cpu {
	struct tiprof_hw hw;			/* the hardware layer's view */
	struct perf_output_handle handle;	/* AUX output of the event */
	struct perf_event *event;		/* the event on this hart or NULL */
	u64 lost_seen;				/* TIP_LOST already read */
	u64 lost_sw;				/* samples dropped: AUX full */
	u64 lost_pending;			/* lost, no LOST record yet */
	struct tiprof_pmu_buf *aux_buf;		/* drain in progress: AUX */
	unsigned long aux_done;			/* and bytes written */
	/* interrupt throttling (docs/driver.md, "Interrupt storms") */
	struct tiprof_hw_throttle thr;		/* samples this tick */
	struct hrtimer unthrottle;		/* restarts the unit */
	bool throttled;				/* stopped until the timer */
	u64 throttles;				/* times, not logged yet */
	struct tiprof_sample batch[TIPROF_PMU_BATCH];	/* drain buffer */
	/* ProfileMe: counters as last reported (never cleared), drops */
	struct tiprof_pm_counts pm_seen;
	u64 pm_lost_sw;				/* records read, not delivered */
	struct tiprof_pm_sample pm_batch[TIPROF_PMU_BATCH];	/* drain buffer */
	struct tiprof_fake fake;		/* fake_unit=1: the "unit" */
};

/* The driver's instance: all harts that have a unit. */
struct tiprof_pmu {
	struct pmu pmu;				/* registered perf PMU */
	struct platform_device *pdev;		/* the DT node's device */
	struct tiprof_pmu_cpu __percpu *cpus;	/* per-hart state */
	cpumask_t supported;			/* harts whose unit probed */
	struct hlist_node hp_node;		/* CPU hotplug instance */
	int irq;				/* per-CPU (local) interrupt */
	u32 w, xlen, depth;			/* from the DT, checked at probe */
	u8 major, minor;			/* register-map version */
	u8 pm_f, pm_tags;			/* ProfileMe (PM_PARAMS), 0: none */
	u16 pm_depth;				/* its record FIFO entries */
};

#define to_tiprof_pmu(p)	container_of(p, struct tiprof_pmu, pmu)

static enum cpuhp_state tiprof_pmu_hp_state;

static bool fake_unit;
module_param(fake_unit, bool, 0444);
MODULE_PARM_DESC(fake_unit, "test only: a software stand-in answers for the unit of each hart");

static unsigned int max_samples_per_tick = DIV_ROUND_UP(TIPROF_PMU_MAX_RATE, HZ);
module_param(max_samples_per_tick, uint, 0644);
MODULE_PARM_DESC(max_samples_per_tick, "samples drained per hart and tick before the unit is stopped until the next tick (0: no limit)");

/* ---- CSR accessors: csrr/csrw with the illegal-instruction trap caught ---- */

/*
 * csrr/csrw take the CSR number as an immediate, so each register needs its
 * own instruction: tiprof_csr.h, generated by gen_csr.awk from the register
 * table of include/tiprof/tiprof_regs.h, holds a switch with one case per
 * S-mode register. An access the unit refuses (or any access on a hart
 * without a unit) traps as an illegal instruction; the exception table sends
 * it past the instruction that clears the error code: -EIO, as the hardware
 * layer requires for an illegal access.
 */
static __always_inline int tiprof_csr_read_one(const u16 csr, unsigned long *val)
{
	unsigned long v = 0;
	long err = -EIO;

	/* a trap skips the "li": err stays -EIO, v stays 0 */
	asm volatile("1:	csrr %[v], %[c]\n"
		     "	li %[e], 0\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : [v] "+r" (v), [e] "+r" (err)
		     : [c] "i" (csr));
	*val = v;
	return (int)err;
}

static __always_inline int tiprof_csr_write_one(const u16 csr, unsigned long val)
{
	long err = -EIO;

	asm volatile("1:	csrw %[c], %[v]\n"
		     "	li %[e], 0\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : [e] "+r" (err)
		     : [c] "i" (csr), [v] "r" (val));
	return (int)err;
}

#include "tiprof_csr.h"

static int tiprof_pmu_csr_read(void *ctx, uint16_t addr, uint64_t *val)
{
	unsigned long v;
	int ret = tiprof_csr_read(addr, &v);

	*val = v;
	return ret;
}

static int tiprof_pmu_csr_write(void *ctx, uint16_t addr, uint64_t val)
{
	return tiprof_csr_write(addr, (unsigned long)val);
}

static const struct tiprof_hw_ops tiprof_pmu_csr_ops = {
	.csr_read = tiprof_pmu_csr_read,
	.csr_write = tiprof_pmu_csr_write,
};

/* ---- user ABI: perf_event_attr.config* fields, sysfs format and caps ---- */

/* Fields of perf_event_attr.config* the driver reads. */
enum tiprof_pmu_field_id {
	TIPROF_PMU_F_MODE,
	TIPROF_PMU_F_RAND_BITS,
	TIPROF_PMU_F_WATERMARK,
	TIPROF_PMU_F_SEED,
	TIPROF_PMU_F_PROFILEME,
	TIPROF_PMU_F_PAIR,
	TIPROF_PMU_F_UNIT,
	TIPROF_PMU_F_WINDOW,
	TIPROF_PMU_F_EVFILT,
	TIPROF_PMU_F_LATFILT,
	TIPROF_PMU_F_TIMEOUT,
	TIPROF_PMU_F_INSTS,
	TIPROF_PMU_NR_FIELDS,
};

/* One field of the user ABI: attr word (0 config, 1 config1), bits lo..hi. */
struct tiprof_pmu_field {
	const char *name;	/* sysfs format name, as in perf -e tiprof_pmu/name=v/ */
	u8 word;		/* 0: config, 1: config1, 2: config2 */
	u8 lo, hi;		/* bit range */
};

/*
 * The user ABI table: the sysfs format attributes, the getters and the
 * reserved-bit check all come from it.
 *   mode       TIPROF_MODE_*: 0 periodic, 1 random interval, 2 random period
 *   rand_bits  k of the random modes (0 for periodic)
 *   watermark  interrupt at this FIFO fill level (0: half the FIFO)
 *   seed       LFSR seed (0: leave the LFSR running)
 *   insts      TIP only: the instruction trigger (TIP_CTRL.TRIGGER): the period
 *              counts committed instructions (>= W) and each sample is the
 *              instruction that reached it (docs/tip-unit.md)
 * ProfileMe (with profileme=1; the others then apply to PM_* registers):
 *   profileme  sample with the ProfileMe subsystem instead of TIP
 *   pair       paired sampling (PM_CTRL.PAIR)
 *   unit       count fetch slots instead of fetched instructions
 *   window     PM_PAIR.WINDOW, 1..256 (0: 64, the reset value)
 *   evfilt     PM_EVFILT: MASK in 15:0, MATCH in 31:16 (0 keeps all)
 *   latfilt    PM_LATFILT: THRESH 15:0, SEL 18:16, INV 19 (0 keeps all)
 *   timeout    PM_TIMEOUT in cycles (0: 65535)
 */
static const struct tiprof_pmu_field tiprof_pmu_fields[TIPROF_PMU_NR_FIELDS] = {
	[TIPROF_PMU_F_MODE]		= { "mode",		0,  0,  1 },
	[TIPROF_PMU_F_RAND_BITS]	= { "rand_bits",	0,  8, 12 },
	[TIPROF_PMU_F_WATERMARK]	= { "watermark",	0, 16, 31 },
	[TIPROF_PMU_F_SEED]		= { "seed",		1,  0, 31 },
	[TIPROF_PMU_F_PROFILEME]	= { "profileme",	0, 63, 63 },
	[TIPROF_PMU_F_PAIR]		= { "pair",		0, 32, 32 },
	[TIPROF_PMU_F_UNIT]		= { "unit",		0, 33, 33 },
	[TIPROF_PMU_F_WINDOW]		= { "window",		0, 40, 48 },
	[TIPROF_PMU_F_EVFILT]		= { "evfilt",		1, 32, 63 },
	[TIPROF_PMU_F_LATFILT]		= { "latfilt",		2,  0, 19 },
	[TIPROF_PMU_F_TIMEOUT]		= { "timeout",		2, 32, 47 },
	[TIPROF_PMU_F_INSTS]		= { "insts",		0,  2,  2 },
};

/* Fields that only a ProfileMe event may set. */
static const enum tiprof_pmu_field_id tiprof_pmu_pm_only[] = {
	TIPROF_PMU_F_PAIR, TIPROF_PMU_F_UNIT, TIPROF_PMU_F_WINDOW,
	TIPROF_PMU_F_EVFILT, TIPROF_PMU_F_LATFILT, TIPROF_PMU_F_TIMEOUT,
};

static u64 tiprof_pmu_attr_word(const struct perf_event_attr *attr, int word)
{
	switch (word) {
	case 0:
		return attr->config;
	case 1:
		return attr->config1;
	default:
		return attr->config2;
	}
}

static u64 tiprof_pmu_get(const struct perf_event_attr *attr,
			  enum tiprof_pmu_field_id id)
{
	const struct tiprof_pmu_field *f = &tiprof_pmu_fields[id];

	return (tiprof_pmu_attr_word(attr, f->word) &
		GENMASK_ULL(f->hi, f->lo)) >> f->lo;
}

/* Bits of config/config1/config2 that no field uses must be 0. */
static bool tiprof_pmu_reserved_set(const struct perf_event_attr *attr)
{
	u64 used[3] = { 0, 0, 0 };
	int i;

	for (i = 0; i < TIPROF_PMU_NR_FIELDS; i++)
		used[tiprof_pmu_fields[i].word] |=
			GENMASK_ULL(tiprof_pmu_fields[i].hi,
				    tiprof_pmu_fields[i].lo);
	for (i = 0; i < 3; i++)
		if (tiprof_pmu_attr_word(attr, i) & ~used[i])
			return true;
	return false;
}

/* sysfs format attributes, filled from the table by tiprof_pmu_init() */
static struct device_attribute tiprof_pmu_format_dattrs[TIPROF_PMU_NR_FIELDS];
static struct attribute *tiprof_pmu_format_attrs[TIPROF_PMU_NR_FIELDS + 1];

static ssize_t tiprof_pmu_format_show(struct device *dev,
				      struct device_attribute *a, char *page)
{
	static const char *const words[] = { "config", "config1", "config2" };
	const struct tiprof_pmu_field *f =
		&tiprof_pmu_fields[a - tiprof_pmu_format_dattrs];

	if (f->lo == f->hi)
		return sysfs_emit(page, "%s:%u\n", words[f->word], f->lo);
	return sysfs_emit(page, "%s:%u-%u\n", words[f->word], f->lo, f->hi);
}

static void tiprof_pmu_format_init(void)
{
	struct device_attribute *da;
	int i;

	for (i = 0; i < TIPROF_PMU_NR_FIELDS; i++) {
		da = &tiprof_pmu_format_dattrs[i];
		sysfs_attr_init(&da->attr);
		da->attr.name = tiprof_pmu_fields[i].name;
		da->attr.mode = 0444;
		da->show = tiprof_pmu_format_show;
		tiprof_pmu_format_attrs[i] = &da->attr;
	}
}

static const struct attribute_group tiprof_pmu_format_group = {
	.name = "format",
	.attrs = tiprof_pmu_format_attrs,
};

static ssize_t tiprof_pmu_cap_show(struct device *dev,
				   struct device_attribute *a, char *page);

#define TIPROF_PMU_CAP(name) \
	static struct device_attribute cap_attr_##name = \
		__ATTR(name, 0444, tiprof_pmu_cap_show, NULL)
TIPROF_PMU_CAP(commit_width);
TIPROF_PMU_CAP(xlen);
TIPROF_PMU_CAP(fifo_depth);
TIPROF_PMU_CAP(version);
TIPROF_PMU_CAP(pm_fetch_width);
TIPROF_PMU_CAP(pm_fifo_depth);
TIPROF_PMU_CAP(pm_tags);

static ssize_t tiprof_pmu_cap_show(struct device *dev,
				   struct device_attribute *a, char *page)
{
	struct tiprof_pmu *tp = to_tiprof_pmu(dev_get_drvdata(dev));

	if (a == &cap_attr_commit_width)
		return sysfs_emit(page, "%u\n", tp->w);
	if (a == &cap_attr_xlen)
		return sysfs_emit(page, "%u\n", tp->xlen);
	if (a == &cap_attr_fifo_depth)
		return sysfs_emit(page, "%u\n", tp->depth);
	if (a == &cap_attr_pm_fetch_width)
		return sysfs_emit(page, "%u\n", tp->pm_f);
	if (a == &cap_attr_pm_fifo_depth)
		return sysfs_emit(page, "%u\n", tp->pm_depth);
	if (a == &cap_attr_pm_tags)
		return sysfs_emit(page, "%u\n", tp->pm_tags);
	return sysfs_emit(page, "%u.%u\n", tp->major, tp->minor);
}

static struct attribute *tiprof_pmu_cap_attrs[] = {
	&cap_attr_commit_width.attr,
	&cap_attr_xlen.attr,
	&cap_attr_fifo_depth.attr,
	&cap_attr_version.attr,
	&cap_attr_pm_fetch_width.attr,
	&cap_attr_pm_fifo_depth.attr,
	&cap_attr_pm_tags.attr,
	NULL,
};

static const struct attribute_group tiprof_pmu_cap_group = {
	.name = "caps",
	.attrs = tiprof_pmu_cap_attrs,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *a,
			    char *page)
{
	struct tiprof_pmu *tp = to_tiprof_pmu(dev_get_drvdata(dev));

	return cpumap_print_to_pagebuf(true, page, &tp->supported);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *tiprof_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group tiprof_pmu_group = {
	.attrs = tiprof_pmu_attrs,
};

static const struct attribute_group *tiprof_pmu_groups[] = {
	&tiprof_pmu_group,
	&tiprof_pmu_format_group,
	&tiprof_pmu_cap_group,
	NULL,
};

/* ---- event to unit configuration ---- */

/* Privilege filter from the exclude_* bits (hypervisor = M-mode firmware). */
static u8 tiprof_pmu_priv_mask(const struct perf_event_attr *attr)
{
	u8 mask = 0;

	if (!attr->exclude_user)
		mask |= BIT(TIPROF_PRIV_U);
	if (!attr->exclude_kernel)
		mask |= BIT(TIPROF_PRIV_S);
	if (!attr->exclude_hv)
		mask |= BIT(TIPROF_PRIV_M);
	return mask;
}

static void tiprof_pmu_event_config(const struct tiprof_pmu *tp,
				    const struct perf_event *event,
				    struct tiprof_hw_config *cfg)
{
	const struct perf_event_attr *attr = &event->attr;

	memset(cfg, 0, sizeof(*cfg));
	cfg->period = (u32)attr->sample_period;
	cfg->mode = (u8)tiprof_pmu_get(attr, TIPROF_PMU_F_MODE);
	cfg->rand_bits = (u8)tiprof_pmu_get(attr, TIPROF_PMU_F_RAND_BITS);
	cfg->priv_mask = tiprof_pmu_priv_mask(attr);
	cfg->irq = 1;
	cfg->watermark = (u16)tiprof_pmu_get(attr, TIPROF_PMU_F_WATERMARK);
	if (!cfg->watermark)
		cfg->watermark = (u16)max(tp->depth / 2, 1U);
	cfg->lfsr_seed = (u32)tiprof_pmu_get(attr, TIPROF_PMU_F_SEED);
	cfg->insts = (u8)tiprof_pmu_get(attr, TIPROF_PMU_F_INSTS);
}

static bool tiprof_pmu_is_pm(const struct perf_event *event)
{
	return tiprof_pmu_get(&event->attr, TIPROF_PMU_F_PROFILEME);
}

static void tiprof_pmu_pm_event_config(const struct tiprof_pmu *tp,
				       const struct perf_event *event,
				       struct tiprof_hw_pm_config *cfg)
{
	const struct perf_event_attr *attr = &event->attr;

	memset(cfg, 0, sizeof(*cfg));
	cfg->period = (u32)attr->sample_period;
	cfg->mode = (u8)tiprof_pmu_get(attr, TIPROF_PMU_F_MODE);
	cfg->rand_bits = (u8)tiprof_pmu_get(attr, TIPROF_PMU_F_RAND_BITS);
	cfg->priv_mask = tiprof_pmu_priv_mask(attr);
	cfg->irq = 1;
	cfg->unit = (u8)tiprof_pmu_get(attr, TIPROF_PMU_F_UNIT);
	cfg->pair = (u8)tiprof_pmu_get(attr, TIPROF_PMU_F_PAIR);
	cfg->window = (u16)tiprof_pmu_get(attr, TIPROF_PMU_F_WINDOW);
	if (!cfg->window)
		cfg->window = TIPROF_PM_PAIR_RESET;
	cfg->watermark = (u16)tiprof_pmu_get(attr, TIPROF_PMU_F_WATERMARK);
	if (!cfg->watermark)
		cfg->watermark = (u16)max(tp->pm_depth / 2, 1U);
	cfg->timeout = (u16)tiprof_pmu_get(attr, TIPROF_PMU_F_TIMEOUT);
	if (!cfg->timeout)
		cfg->timeout = TIPROF_PM_TIMEOUT_RESET;
	cfg->evfilt = (u32)tiprof_pmu_get(attr, TIPROF_PMU_F_EVFILT);
	cfg->latfilt = (u32)tiprof_pmu_get(attr, TIPROF_PMU_F_LATFILT);
	cfg->lfsr_seed = (u32)tiprof_pmu_get(attr, TIPROF_PMU_F_SEED);
}

static int tiprof_pmu_dry_read(void *ctx, uint16_t addr, uint64_t *val)
{
	return -ECANCELED;
}

static int tiprof_pmu_dry_write(void *ctx, uint16_t addr, uint64_t val)
{
	return -ECANCELED;
}

static const struct tiprof_hw_ops tiprof_pmu_dry_ops = {
	.csr_read = tiprof_pmu_dry_read,
	.csr_write = tiprof_pmu_dry_write,
};

/*
 * Check @cfg with the hardware layer's own rules, off the event's hart: a
 * copy of a probed unit whose accessors refuse every access. The layer checks
 * everything before its first access, so -ECANCELED means "valid".
 */
static int tiprof_pmu_check_config(struct tiprof_pmu *tp,
				   const struct tiprof_hw_config *cfg)
{
	struct tiprof_hw dry;
	int ret;

	dry = per_cpu_ptr(tp->cpus, cpumask_first(&tp->supported))->hw;
	dry.ops = &tiprof_pmu_dry_ops;
	dry.ctx = NULL;
	dry.state = TIPROF_HW_PROBED;
	ret = tiprof_hw_configure(&dry, cfg);
	if (ret == -ECANCELED)
		return 0;
	/* a unit without the instruction trigger (register map < 1.2) */
	return ret == -EOPNOTSUPP ? ret : -EINVAL;
}

/* The same for a ProfileMe configuration. */
static int tiprof_pmu_pm_check_config(struct tiprof_pmu *tp,
				      const struct tiprof_hw_pm_config *cfg)
{
	struct tiprof_hw dry;
	int ret;

	dry = per_cpu_ptr(tp->cpus, cpumask_first(&tp->supported))->hw;
	dry.ops = &tiprof_pmu_dry_ops;
	dry.ctx = NULL;
	dry.pm_state = TIPROF_HW_PROBED;
	ret = tiprof_hw_pm_configure(&dry, cfg);
	return ret == -ECANCELED ? 0 : -EINVAL;
}

/* ---- AUX output and interrupt handling ---- */

/* Copy @len bytes of @rec to the AUX area at the handle's position. */
static void tiprof_pmu_aux_put(struct perf_output_handle *h,
			       struct tiprof_pmu_buf *buf, unsigned long *done,
			       const void *rec, unsigned long len)
{
	unsigned long off = (h->head + *done) & (buf->size - 1);
	unsigned long first = min(len, buf->size - off);

	memcpy(buf->base + off, rec, first);
	memcpy(buf->base, rec + first, len - first);
	*done += len;
}

/* tiprof_hw_drain_budget() sink: SAMPLE records into the AUX area. */
static void tiprof_pmu_sink(void *arg, const void *recs, unsigned int n)
{
	struct tiprof_pmu_cpu *c = arg;
	const struct tiprof_sample *smp = recs;
	struct perf_output_handle *h = &c->handle;
	struct tiprof_aux_rec rec;
	unsigned int i;

	memset(&rec, 0, sizeof(rec));
	rec.type = TIPROF_AUX_REC_SAMPLE;
	rec.size = TIPROF_AUX_REC_SAMPLE_SIZE;
	for (i = 0; i < n; i++) {
		/* keep room for the LOST record that may follow */
		if (c->aux_done + rec.size + TIPROF_AUX_REC_LOST_SIZE >
		    h->size) {
			c->lost_sw++;
			continue;
		}
		rec.sample = smp[i];
		tiprof_pmu_aux_put(h, c->aux_buf, &c->aux_done, &rec, rec.size);
	}
}

/*
 * Move what the unit holds into the AUX area: at most @budget complete
 * samples (*@drained: how many), then a LOST record for samples the unit
 * (TIP_LOST) or this driver (AUX area full) had to drop. Samples beyond the
 * budget stay in the FIFO for the next drain. Runs on the event's hart with
 * interrupts off (the interrupt handler, or pmu->stop). Returns false if the
 * AUX area could not be reopened: the caller leaves the unit stopped.
 */
static bool tiprof_pmu_drain(struct tiprof_pmu_cpu *c, unsigned int budget,
			     unsigned int *drained)
{
	struct perf_output_handle *h = &c->handle;
	struct tiprof_aux_rec rec;
	u64 lost;
	int n;

	*drained = 0;
	c->aux_buf = perf_get_aux(h);
	if (!c->aux_buf)
		return false;
	c->aux_done = 0;
	n = tiprof_hw_drain_budget(&c->hw, c->batch, TIPROF_PMU_BATCH, budget,
				   tiprof_pmu_sink, c);
	if (n < 0)
		pr_err_ratelimited(TIPROF_PMU_NAME ": CPU %d: drain failed: %s\n",
				   smp_processor_id(), tiprof_hw_strerror(n));
	else
		*drained = n;

	if (!tiprof_hw_lost_new(&c->hw, &c->lost_seen, &lost) && lost) {
		perf_aux_output_flag(h, PERF_AUX_FLAG_COLLISION);
		c->lost_pending += lost;
	}
	if (c->lost_sw) {
		perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
		c->lost_pending += c->lost_sw;
		c->lost_sw = 0;
	}
	/* no room (an AUX area below 16 bytes): the next LOST record says it */
	if (c->lost_pending &&
	    c->aux_done + TIPROF_AUX_REC_LOST_SIZE <= h->size) {
		memset(&rec, 0, sizeof(rec));
		rec.type = TIPROF_AUX_REC_LOST;
		rec.size = TIPROF_AUX_REC_LOST_SIZE;
		rec.lost = c->lost_pending;
		tiprof_pmu_aux_put(h, c->aux_buf, &c->aux_done, &rec, rec.size);
		c->lost_pending = 0;
	}
	perf_aux_output_end(h, c->aux_done);
	/* the next interrupt writes into a fresh handle (and space) */
	return !!perf_aux_output_begin(h, c->event);
}

/* tiprof_hw_pm_drain_budget() sink: PM_SAMPLE records into the AUX area. */
static void tiprof_pmu_pm_sink(void *arg, const void *recs, unsigned int n)
{
	struct tiprof_pmu_cpu *c = arg;
	const struct tiprof_pm_sample *smp = recs;
	struct perf_output_handle *h = &c->handle;
	struct tiprof_aux_rec rec;
	unsigned int i;

	memset(&rec, 0, sizeof(rec));
	rec.type = TIPROF_AUX_REC_PM_SAMPLE;
	rec.size = TIPROF_AUX_REC_PM_SAMPLE_SIZE;
	for (i = 0; i < n; i++) {
		/* keep room for the PM_COUNTS record */
		if (c->aux_done + rec.size + TIPROF_AUX_REC_PM_COUNTS_SIZE >
		    h->size) {
			c->pm_lost_sw++;
			continue;
		}
		rec.pm = smp[i];
		tiprof_pmu_aux_put(h, c->aux_buf, &c->aux_done, &rec, rec.size);
	}
}

/*
 * The ProfileMe counterpart of tiprof_pmu_drain(): PM_SAMPLE records, then a
 * PM_COUNTS record with what the unit's counters and this driver added since
 * the last one. Room for the PM_COUNTS record is kept while samples are
 * written; if even that is missing, the increments stay pending for the next
 * drain (they are never dropped).
 */
static bool tiprof_pmu_pm_drain(struct tiprof_pmu_cpu *c, unsigned int budget,
				unsigned int *drained)
{
	struct perf_output_handle *h = &c->handle;
	struct tiprof_pm_counts now, *d;
	struct tiprof_aux_rec rec;
	unsigned long done;
	int n;

	*drained = 0;
	c->aux_buf = perf_get_aux(h);
	if (!c->aux_buf)
		return false;
	c->aux_done = 0;
	n = tiprof_hw_pm_drain_budget(&c->hw, c->pm_batch, TIPROF_PMU_BATCH,
				      budget, tiprof_pmu_pm_sink, c);
	if (n < 0)
		pr_err_ratelimited(TIPROF_PMU_NAME ": CPU %d: ProfileMe drain failed: %s\n",
				   smp_processor_id(), tiprof_hw_strerror(n));
	else
		*drained = n;
	done = c->aux_done;

	if (tiprof_hw_pm_counters(&c->hw, &now))
		now = c->pm_seen;	/* report them next time */
	memset(&rec, 0, sizeof(rec));
	rec.type = TIPROF_AUX_REC_PM_COUNTS;
	rec.size = TIPROF_AUX_REC_PM_COUNTS_SIZE;
	d = &rec.pm_counts;
	d->taken = now.taken - c->pm_seen.taken;
	d->lost = now.lost - c->pm_seen.lost;
	d->filtered = now.filtered - c->pm_seen.filtered;
	d->collided = now.collided - c->pm_seen.collided;
	d->lost_sw = c->pm_lost_sw;
	if ((d->taken || d->lost || d->filtered || d->collided || d->lost_sw) &&
	    done + rec.size <= h->size) {
		if (d->lost)
			perf_aux_output_flag(h, PERF_AUX_FLAG_COLLISION);
		if (d->lost_sw)
			perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
		tiprof_pmu_aux_put(h, c->aux_buf, &done, &rec, rec.size);
		c->pm_seen = now;
		c->pm_lost_sw = 0;
	}
	perf_aux_output_end(h, done);
	return !!perf_aux_output_begin(h, c->event);
}

/* The throttle messages of all harts: at most 10 in 5 s. */
static DEFINE_RATELIMIT_STATE(tiprof_pmu_throttle_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

/* Stop the unit's subsystem of the event (TIP or ProfileMe). */
static void tiprof_pmu_unit_stop(struct tiprof_pmu_cpu *c, bool pm)
{
	if (pm)
		tiprof_hw_pm_stop(&c->hw);
	else
		tiprof_hw_stop(&c->hw);
}

static irqreturn_t tiprof_pmu_irq(int irq, void *dev)
{
	struct tiprof_pmu_cpu *c = dev;
	unsigned int which, mine, n;
	bool pm;

	if (!c->event)
		return IRQ_NONE;
	pm = tiprof_pmu_is_pm(c->event);
	mine = pm ? TIPROF_HW_IRQ_PM : TIPROF_HW_IRQ_TIP;
	/* one line for both subsystems: ask the unit which one it is */
	if (tiprof_hw_irq_pending(&c->hw, &which))
		which = mine;
	if (which & ~mine) {
		/* the other subsystem has no event: silence it */
		if (pm)
			tiprof_hw_stop(&c->hw);
		else if (c->hw.pm_state >= TIPROF_HW_CONFIGURED)
			tiprof_hw_pm_stop(&c->hw);
	}
	if (!(which & mine))
		return which ? IRQ_HANDLED : IRQ_NONE;
	if ((pm ? c->hw.pm_state : c->hw.state) != TIPROF_HW_RUNNING)
		return IRQ_NONE;
	/* at most one FIFO's worth: the rest waits in the FIFO */
	if (!(pm ? tiprof_pmu_pm_drain(c, c->hw.pm_depth, &n) :
	      tiprof_pmu_drain(c, c->hw.depth, &n))) {
		/* AUX area gone (user unmapped it): stop until restarted */
		tiprof_pmu_unit_stop(c, pm);
		c->event->hw.state |= PERF_HES_STOPPED;
		return IRQ_HANDLED;
	}
	c->thr.max = READ_ONCE(max_samples_per_tick);
	if (tiprof_hw_throttle_account(&c->thr, get_jiffies_64(), n)) {
		/* as perf core's throttling: stopped until the next tick */
		tiprof_pmu_unit_stop(c, pm);
		c->throttled = true;
		c->throttles++;
		hrtimer_start(&c->unthrottle, ns_to_ktime(TICK_NSEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
		/* here, not in pmu->stop: that may run under the runqueue lock */
		if (__ratelimit(&tiprof_pmu_throttle_rs)) {
			pr_info(TIPROF_PMU_NAME ": CPU %d: throttled %llu times (max_samples_per_tick %u)\n",
				smp_processor_id(), c->throttles, c->thr.max);
			c->throttles = 0;
		}
	}
	return IRQ_HANDLED;
}

/* The unthrottle timer (hard interrupt, on the hart it was started on). */
static enum hrtimer_restart tiprof_pmu_unthrottle(struct hrtimer *t)
{
	struct tiprof_pmu_cpu *c = container_of(t, struct tiprof_pmu_cpu,
						unthrottle);
	bool pm;
	int ret;

	if (!c->throttled || !c->event ||
	    (c->event->hw.state & PERF_HES_STOPPED))
		return HRTIMER_NORESTART;
	c->throttled = false;
	pm = tiprof_pmu_is_pm(c->event);
	/* the FIFO kept its samples: the next interrupt drains them */
	ret = pm ? tiprof_hw_pm_start(&c->hw) : tiprof_hw_start(&c->hw);
	if (ret)
		pr_err_ratelimited(TIPROF_PMU_NAME ": CPU %d: cannot restart: %s\n",
				   smp_processor_id(), tiprof_hw_strerror(ret));
	return HRTIMER_NORESTART;
}

static void tiprof_pmu_fake_irq(void *arg)
{
	tiprof_pmu_irq(0, arg);
}

/* ---- perf callbacks ---- */

static int tiprof_pmu_event_init(struct perf_event *event)
{
	struct tiprof_pmu *tp = to_tiprof_pmu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct tiprof_hw_config cfg;
	unsigned int i;
	int ret;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &tp->supported))
		return -ENOENT;
	/* counting, frequency mode and branch stacks are not what TIP does */
	if (!is_sampling_event(event) || attr->freq ||
	    has_branch_stack(event) || attr->exclude_idle)
		return -EOPNOTSUPP;
	if (attr->sample_period > U32_MAX || tiprof_pmu_reserved_set(attr))
		return -EINVAL;
	if (tiprof_pmu_is_pm(event)) {
		struct tiprof_hw_pm_config pcfg;

		if (!tp->pm_f)
			return -EOPNOTSUPP;	/* the unit has no ProfileMe */
		if (tiprof_pmu_get(attr, TIPROF_PMU_F_INSTS))
			return -EINVAL;		/* TIP's trigger */
		tiprof_pmu_pm_event_config(tp, event, &pcfg);
		if (!pcfg.priv_mask || tiprof_pmu_pm_check_config(tp, &pcfg))
			return -EINVAL;
	} else {
		for (i = 0; i < ARRAY_SIZE(tiprof_pmu_pm_only); i++)
			if (tiprof_pmu_get(attr, tiprof_pmu_pm_only[i]))
				return -EINVAL;
		tiprof_pmu_event_config(tp, event, &cfg);
		if (!cfg.priv_mask)
			return -EINVAL;
		ret = tiprof_pmu_check_config(tp, &cfg);
		if (ret)
			return ret;
	}
	/* M-mode (firmware) samples; perf core checked exclude_kernel */
	if (!attr->exclude_hv && !perfmon_capable())
		return -EACCES;
	return 0;
}

static void tiprof_pmu_start(struct perf_event *event, int flags)
{
	struct tiprof_pmu *tp = to_tiprof_pmu(event->pmu);
	struct tiprof_pmu_cpu *c = this_cpu_ptr(tp->cpus);
	struct tiprof_hw_config cfg;
	int ret;

	event->hw.state = PERF_HES_STOPPED;
	if (!perf_aux_output_begin(&c->handle, event))
		return;
	if (tiprof_pmu_is_pm(event)) {
		struct tiprof_hw_pm_config pcfg;

		/* PM counters are not cleared: pm_seen follows them */
		tiprof_pmu_pm_event_config(tp, event, &pcfg);
		ret = tiprof_hw_pm_configure(&c->hw, &pcfg);
		c->pm_lost_sw += c->hw.pm_discarded;
		if (!ret)
			ret = tiprof_hw_pm_start(&c->hw);
	} else {
		tiprof_pmu_event_config(tp, event, &cfg);
		ret = tiprof_hw_configure(&c->hw, &cfg);
		if (!ret)
			ret = tiprof_hw_counters_clear(&c->hw);
		if (!ret)
			ret = tiprof_hw_start(&c->hw);
	}
	if (ret) {
		dev_err_ratelimited(&tp->pdev->dev, "CPU %d: cannot start: %s\n",
				    smp_processor_id(), tiprof_hw_strerror(ret));
		perf_aux_output_end(&c->handle, 0);
		return;
	}
	c->lost_seen = 0;
	c->lost_sw = 0;
	c->thr.tick = 0;
	c->thr.samples = 0;
	c->throttled = false;
	event->hw.state = 0;
}

static void tiprof_pmu_stop(struct perf_event *event, int flags)
{
	struct tiprof_pmu *tp = to_tiprof_pmu(event->pmu);
	struct tiprof_pmu_cpu *c = this_cpu_ptr(tp->cpus);
	unsigned int n;
	bool pm;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	/* same hart, interrupts off: the timer callback is not running */
	hrtimer_try_to_cancel(&c->unthrottle);
	c->throttled = false;
	/*
	 * Stop first so the FIFO no longer grows, then drain what it holds
	 * (and a pending sample completing meanwhile); the drain reopens the
	 * handle, which must be closed again here.
	 */
	pm = tiprof_pmu_is_pm(event);
	tiprof_pmu_unit_stop(c, pm);
	if (pm ? tiprof_pmu_pm_drain(c, 2 * c->hw.pm_depth, &n) :
	    tiprof_pmu_drain(c, 2 * c->hw.depth, &n))
		perf_aux_output_end(&c->handle, 0);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int tiprof_pmu_add(struct perf_event *event, int flags)
{
	struct tiprof_pmu *tp = to_tiprof_pmu(event->pmu);
	struct tiprof_pmu_cpu *c = this_cpu_ptr(tp->cpus);

	if (!cpumask_test_cpu(smp_processor_id(), &tp->supported))
		return -ENOENT;
	if (c->event)
		return -EBUSY;
	c->event = event;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START) {
		tiprof_pmu_start(event, PERF_EF_RELOAD);
		if (event->hw.state & PERF_HES_STOPPED) {
			c->event = NULL;
			return -EINVAL;
		}
	}
	return 0;
}

static void tiprof_pmu_del(struct perf_event *event, int flags)
{
	struct tiprof_pmu *tp = to_tiprof_pmu(event->pmu);
	struct tiprof_pmu_cpu *c = this_cpu_ptr(tp->cpus);

	tiprof_pmu_stop(event, PERF_EF_UPDATE);
	c->event = NULL;
}

static void tiprof_pmu_read(struct perf_event *event)
{
	/* the samples are the data; there is no count to fold in */
}

static void *tiprof_pmu_setup_aux(struct perf_event *event, void **pages,
				  int nr_pages, bool snapshot)
{
	struct tiprof_pmu_buf *buf;
	struct page **pglist;
	int i, cpu = event->cpu < 0 ? raw_smp_processor_id() : event->cpu;

	/* snapshot mode would overwrite records mid-way: not supported */
	if (snapshot || nr_pages < 1)
		return NULL;
	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, cpu_to_node(cpu));
	if (!buf)
		return NULL;
	pglist = kcalloc(nr_pages, sizeof(*pglist), GFP_KERNEL);
	if (!pglist)
		goto err_buf;
	for (i = 0; i < nr_pages; i++)
		pglist[i] = virt_to_page(pages[i]);
	buf->base = vmap(pglist, nr_pages, VM_MAP, PAGE_KERNEL);
	if (!buf->base)
		goto err_pglist;
	buf->size = (unsigned long)nr_pages << PAGE_SHIFT;
	kfree(pglist);
	return buf;

err_pglist:
	kfree(pglist);
err_buf:
	kfree(buf);
	return NULL;
}

static void tiprof_pmu_free_aux(void *aux)
{
	struct tiprof_pmu_buf *buf = aux;

	vunmap(buf->base);
	kfree(buf);
}

/* ---- per-hart setup and CPU hotplug ---- */

/* Arguments and result of tiprof_pmu_probe_cpu() on one hart. */
struct tiprof_pmu_probe_arg {
	struct tiprof_pmu *tp;
	int ret;
	int pm_ret;		/* tiprof_hw_pm_probe() */
};

static void tiprof_pmu_probe_cpu(void *data)
{
	struct tiprof_pmu_probe_arg *a = data;
	struct tiprof_pmu_cpu *c = this_cpu_ptr(a->tp->cpus);

	if (fake_unit) {
		tiprof_fake_init(&c->fake, tiprof_pmu_fake_irq, c);
		tiprof_hw_init(&c->hw, &tiprof_fake_ops, &c->fake);
	} else {
		tiprof_hw_init(&c->hw, &tiprof_pmu_csr_ops, c);
	}
	hrtimer_init(&c->unthrottle, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	c->unthrottle.function = tiprof_pmu_unthrottle;
	a->ret = tiprof_hw_probe(&c->hw);
	a->pm_ret = a->ret ? -ENODEV : tiprof_hw_pm_probe(&c->hw);
	/* PM counters are never cleared: report increments from here on */
	if (!a->pm_ret && tiprof_hw_pm_counters(&c->hw, &c->pm_seen))
		a->pm_ret = -EIO;
}

static int tiprof_pmu_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct tiprof_pmu *tp = hlist_entry_safe(node, struct tiprof_pmu,
						 hp_node);

	if (cpumask_test_cpu(cpu, &tp->supported))
		enable_percpu_irq(tp->irq, IRQ_TYPE_NONE);
	return 0;
}

static int tiprof_pmu_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct tiprof_pmu *tp = hlist_entry_safe(node, struct tiprof_pmu,
						 hp_node);

	if (cpumask_test_cpu(cpu, &tp->supported))
		disable_percpu_irq(tp->irq);
	return 0;
}

/* ---- probe and remove ---- */

/* Required u32 property @name of the node into *@val. */
static int tiprof_pmu_dt_u32(struct device *dev, const char *name, u32 *val)
{
	int ret = of_property_read_u32(dev->of_node, name, val);

	if (ret)
		dev_err(dev, "missing or bad \"%s\" property\n", name);
	return ret;
}

/*
 * Map local interrupt @hwirq (an scause interrupt number) of the harts' INTC
 * domain, as riscv_pmu_sbi does for its overflow interrupt. The binding names
 * the number rather than using interrupts-extended: the per-hart INTC nodes
 * are not devices on 6.1, so fw_devlink would defer the probe forever waiting
 * for them as suppliers.
 */
static int tiprof_pmu_map_irq(struct device *dev, u32 hwirq)
{
	struct irq_domain *domain = NULL;
	struct device_node *cpu, *intc;
	unsigned int irq;

	for_each_of_cpu_node(cpu) {
		intc = of_get_compatible_child(cpu, "riscv,cpu-intc");
		if (!intc)
			continue;
		domain = irq_find_host(intc);
		of_node_put(intc);
		if (domain) {
			of_node_put(cpu);
			break;
		}
	}
	if (!domain) {
		dev_err(dev, "no RISC-V hart interrupt controller\n");
		return -ENODEV;
	}
	irq = irq_create_mapping(domain, hwirq);
	if (!irq) {
		dev_err(dev, "cannot map local interrupt %u\n", hwirq);
		return -EINVAL;
	}
	if (!irq_is_percpu_devid(irq)) {
		dev_err(dev, "interrupt %u is not a per-hart local interrupt\n",
			hwirq);
		return -EINVAL;
	}
	return irq;
}

/*
 * Probe the unit of every online hart (it is reached only from its own
 * hart). Refuses with -ENODEV when a hart has no unit (its CSRs trap or
 * TIP_ID has the wrong magic), -EOPNOTSUPP for another major version, and
 * -EINVAL when the unit disagrees with the device tree.
 */
static int tiprof_pmu_probe_units(struct tiprof_pmu *tp)
{
	struct device *dev = &tp->pdev->dev;
	struct tiprof_pmu_probe_arg arg = { .tp = tp };
	struct tiprof_hw *hw;
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		smp_call_function_single(cpu, tiprof_pmu_probe_cpu, &arg, 1);
		hw = &per_cpu_ptr(tp->cpus, cpu)->hw;
		if (arg.ret == -EIO || arg.ret == -ENODEV) {
			dev_err(dev, "no TIP unit on CPU %d (%s)\n", cpu,
				arg.ret == -EIO ? "its CSRs trap" :
				"wrong TIP_ID magic");
			arg.ret = -ENODEV;
			break;
		}
		if (arg.ret) {
			dev_err(dev, "CPU %d: TIP unit refused: %s\n", cpu,
				tiprof_hw_strerror(arg.ret));
			break;
		}
		if (hw->w != tp->w || hw->xlen != tp->xlen ||
		    hw->depth != tp->depth) {
			dev_err(dev, "CPU %d: unit has W=%u XLEN=%u depth %u, the device tree says W=%u XLEN=%u depth %u\n",
				cpu, hw->w, hw->xlen, hw->depth, tp->w,
				tp->xlen, tp->depth);
			arg.ret = -EINVAL;
			break;
		}
		tp->major = hw->major;
		tp->minor = hw->minor;
		/* ProfileMe only if every hart has it, with the same parameters */
		if (cpumask_empty(&tp->supported) && !arg.pm_ret) {
			tp->pm_f = hw->pm_f;
			tp->pm_tags = hw->pm_tags;
			tp->pm_depth = hw->pm_depth;
		} else if (tp->pm_f && (arg.pm_ret || hw->pm_f != tp->pm_f ||
					hw->pm_tags != tp->pm_tags ||
					hw->pm_depth != tp->pm_depth)) {
			dev_warn(dev, "CPU %d: ProfileMe differs from CPU %d's: not offered\n",
				 cpu, cpumask_first(&tp->supported));
			tp->pm_f = 0;
			tp->pm_tags = 0;
			tp->pm_depth = 0;
		}
		cpumask_set_cpu(cpu, &tp->supported);
	}
	cpus_read_unlock();
	return arg.ret;
}

static int tiprof_pmu_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct tiprof_pmu *tp;
	u32 hwirq;
	int ret;

	tp = devm_kzalloc(dev, sizeof(*tp), GFP_KERNEL);
	if (!tp)
		return -ENOMEM;
	tp->pdev = pdev;
	platform_set_drvdata(pdev, tp);
	if (tiprof_pmu_dt_u32(dev, "tiprof,commit-width", &tp->w) ||
	    tiprof_pmu_dt_u32(dev, "tiprof,xlen", &tp->xlen) ||
	    tiprof_pmu_dt_u32(dev, "tiprof,fifo-depth", &tp->depth))
		return -EINVAL;
	if (tiprof_pmu_dt_u32(dev, "tiprof,local-interrupt", &hwirq))
		return -EINVAL;
	tp->irq = tiprof_pmu_map_irq(dev, hwirq);
	if (tp->irq < 0)
		return tp->irq;
	tp->cpus = devm_alloc_percpu(dev, struct tiprof_pmu_cpu);
	if (!tp->cpus)
		return -ENOMEM;

	ret = tiprof_pmu_probe_units(tp);
	if (ret)
		return ret;

	ret = request_percpu_irq(tp->irq, tiprof_pmu_irq, TIPROF_PMU_NAME,
				 tp->cpus);
	if (ret) {
		dev_err(dev, "cannot request interrupt %d: %d\n", tp->irq, ret);
		return ret;
	}
	ret = cpuhp_state_add_instance(tiprof_pmu_hp_state, &tp->hp_node);
	if (ret)
		goto err_irq;

	tp->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.capabilities	= PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_ITRACE,
		.attr_groups	= tiprof_pmu_groups,
		/* per-task events are fine: the unit follows the hart */
		.task_ctx_nr	= perf_sw_context,
		.event_init	= tiprof_pmu_event_init,
		.add		= tiprof_pmu_add,
		.del		= tiprof_pmu_del,
		.start		= tiprof_pmu_start,
		.stop		= tiprof_pmu_stop,
		.read		= tiprof_pmu_read,
		.setup_aux	= tiprof_pmu_setup_aux,
		.free_aux	= tiprof_pmu_free_aux,
	};
	ret = perf_pmu_register(&tp->pmu, TIPROF_PMU_NAME, -1);
	if (ret)
		goto err_hp;
	dev_info(dev, "TIP unit v%u.%u on CPUs %*pbl: W=%u XLEN=%u FIFO %u\n",
		 tp->major, tp->minor, cpumask_pr_args(&tp->supported),
		 tp->w, tp->xlen, tp->depth);
	if (tp->pm_f)
		dev_info(dev, "ProfileMe: F=%u, %u tag ids, FIFO %u\n",
			 tp->pm_f, tp->pm_tags, tp->pm_depth);
	return 0;

err_hp:
	cpuhp_state_remove_instance(tiprof_pmu_hp_state, &tp->hp_node);
err_irq:
	free_percpu_irq(tp->irq, tp->cpus);
	return ret;
}

static int tiprof_pmu_remove(struct platform_device *pdev)
{
	struct tiprof_pmu *tp = platform_get_drvdata(pdev);

	int cpu;

	perf_pmu_unregister(&tp->pmu);
	cpuhp_state_remove_instance(tiprof_pmu_hp_state, &tp->hp_node);
	free_percpu_irq(tp->irq, tp->cpus);
	for_each_cpu(cpu, &tp->supported) {
		hrtimer_cancel(&per_cpu_ptr(tp->cpus, cpu)->unthrottle);
		if (fake_unit)
			tiprof_fake_exit(&per_cpu_ptr(tp->cpus, cpu)->fake);
	}
	return 0;
}

/* ---- match table and module ---- */

static const struct of_device_id tiprof_pmu_of_match[] = {
	{ .compatible = "tiprof,tip-v1" },
	{ /* sentinel */ },
};
MODULE_DEVICE_TABLE(of, tiprof_pmu_of_match);

static struct platform_driver tiprof_pmu_driver = {
	.driver = {
		.name = TIPROF_PMU_NAME,
		.of_match_table = tiprof_pmu_of_match,
		.suppress_bind_attrs = true,
	},
	.probe = tiprof_pmu_probe,
	.remove = tiprof_pmu_remove,
};

static int __init tiprof_pmu_init(void)
{
	int ret;

	tiprof_pmu_format_init();
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/tiprof:online",
				      tiprof_pmu_cpu_online,
				      tiprof_pmu_cpu_offline);
	if (ret < 0)
		return ret;
	tiprof_pmu_hp_state = ret;
	ret = platform_driver_register(&tiprof_pmu_driver);
	if (ret)
		cpuhp_remove_multi_state(tiprof_pmu_hp_state);
	return ret;
}
module_init(tiprof_pmu_init);

static void __exit tiprof_pmu_exit(void)
{
	platform_driver_unregister(&tiprof_pmu_driver);
	cpuhp_remove_multi_state(tiprof_pmu_hp_state);
}
module_exit(tiprof_pmu_exit);

MODULE_DESCRIPTION("perf PMU driver of the tiprof TIP profiling unit");
MODULE_AUTHOR("tiprof");
MODULE_LICENSE("GPL");
