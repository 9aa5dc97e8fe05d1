// SPDX-License-Identifier: GPL-2.0-only OR Apache-2.0
/*
 * tiprof_hw.c - kernel-independent hardware layer of the TIP unit (contract
 * in tiprof_hw.h, walk-through in docs/hw-layer.md).
 *
 * Builds unchanged in the Linux module and in user space: no libc calls, no
 * allocation, no printing, no global mutable state; every register access goes
 * through the caller's accessors, every address and bit comes from the
 * generated include/tiprof/tiprof_regs.h. Each CSR access costs the core an
 * instruction (and the unit a cycle), so the drain reads only what a sample
 * needs.
 */
#include "tiprof_hw.h"

/* TIP_CTRL fields a configuration may set (EN is set by start only). */
#define TIPROF_HW_CTRL_FIELDS	(TIPROF_TIP_CTRL_MODE_MASK | \
				 TIPROF_TIP_CTRL_IRQ_EN_MASK | \
				 TIPROF_TIP_CTRL_PRIV_MASK | \
				 TIPROF_TIP_CTRL_RAND_BITS_MASK | \
				 TIPROF_TIP_CTRL_TRIGGER_MASK)
/* Sticky, write-1-to-clear STATUS bits. */
#define TIPROF_HW_STICKY	(TIPROF_TIP_STATUS_CFG_ERR_MASK | \
				 TIPROF_TIP_STATUS_POP_EMPTY_MASK)
/* Largest RAND_BITS value the CTRL field holds. */
#define TIPROF_HW_RAND_BITS_MAX	(TIPROF_TIP_CTRL_RAND_BITS_MASK >> \
				 TIPROF_TIP_CTRL_RAND_BITS_SHIFT)
/* High-low-high attempts before a 64-bit read gives up. */
#define TIPROF_HW_READ64_TRIES	4

/* Extract the field @mask (with its @shift) from register value @v. */
static inline uint32_t tiprof_hw_field(uint64_t v, uint32_t mask,
				       uint32_t shift)
{
	return (uint32_t)((v & mask) >> shift);
}

static inline int tiprof_hw_rd(struct tiprof_hw *hw, uint16_t addr,
			       uint64_t *val)
{
	return hw->ops->csr_read(hw->ctx, addr, val);
}

static inline int tiprof_hw_wr(struct tiprof_hw *hw, uint16_t addr,
			       uint64_t val)
{
	return hw->ops->csr_write(hw->ctx, addr, val);
}

/*
 * Read a 64-bit register: whole on XLEN=64; on XLEN=32 the high half @hi,
 * the low half @lo, the high half again, retried while the two high reads
 * differ (the low half carried between them). Counters change by at most one
 * per cycle, so a second attempt always succeeds on working hardware.
 */
static int tiprof_hw_read64(struct tiprof_hw *hw, uint16_t lo, uint16_t hi,
			    uint64_t *val)
{
	uint64_t h1, l, h2;
	int tries, ret;

	if (hw->xlen == 64)
		return tiprof_hw_rd(hw, lo, val);
	for (tries = 0; tries < TIPROF_HW_READ64_TRIES; tries++) {
		ret = tiprof_hw_rd(hw, hi, &h1);
		if (ret)
			return ret;
		ret = tiprof_hw_rd(hw, lo, &l);
		if (ret)
			return ret;
		ret = tiprof_hw_rd(hw, hi, &h2);
		if (ret)
			return ret;
		if (h1 == h2) {
			*val = (h1 & 0xFFFFFFFFu) << 32 | (l & 0xFFFFFFFFu);
			return 0;
		}
	}
	return -EAGAIN;
}

/*
 * The registers and bits by which the layer quiesces, starts, stops and drains
 * one subsystem of the unit (TIP, ProfileMe): their steps are the same.
 */
struct tiprof_hw_sub {
	uint16_t ctrl, status, fifo_count, pop;	/* register addresses */
	uint32_t en, irq_en;			/* CTRL bits */
	uint32_t sticky, cfg_err;		/* STATUS bits, write-1-clear */
};

static const struct tiprof_hw_sub tiprof_hw_sub_tip = {
	TIPROF_TIP_CTRL, TIPROF_TIP_STATUS, TIPROF_TIP_FIFO_COUNT,
	TIPROF_TIP_POP,
	TIPROF_TIP_CTRL_EN_MASK, TIPROF_TIP_CTRL_IRQ_EN_MASK,
	TIPROF_HW_STICKY, TIPROF_TIP_STATUS_CFG_ERR_MASK,
};

/*
 * Quiesce subsystem @sub before its registers are written: with EN and IRQ_EN
 * clear no sample arrives and no interrupt fires meanwhile (a stale FIFO could
 * otherwise raise the interrupt as soon as the watermark changes); the sticky
 * bits are cleared and the records of an earlier session, which would mix into
 * this one, are popped and counted in *@discarded (may be NULL).
 */
static int tiprof_hw_quiesce(struct tiprof_hw *hw,
			     const struct tiprof_hw_sub *sub, uint32_t depth,
			     uint32_t *discarded)
{
	uint64_t count;
	int ret;

	ret = tiprof_hw_wr(hw, sub->ctrl, 0);
	if (!ret)
		ret = tiprof_hw_wr(hw, sub->status, sub->sticky);
	if (!ret)
		ret = tiprof_hw_rd(hw, sub->fifo_count, &count);
	if (ret)
		return ret;
	if (count > depth)
		return -EPROTO;
	while (count--) {
		ret = tiprof_hw_wr(hw, sub->pop, 0);
		if (ret)
			return ret;
		if (discarded)
			(*discarded)++;
	}
	return 0;
}

/*
 * After a configuration's writes: 0, or -EREMOTEIO when the unit refused one
 * (STATUS.CFG_ERR, cleared again for the next attempt).
 */
static int tiprof_hw_cfg_refused(struct tiprof_hw *hw,
				 const struct tiprof_hw_sub *sub)
{
	uint64_t status;
	int ret;

	ret = tiprof_hw_rd(hw, sub->status, &status);
	if (ret)
		return ret;
	if (!(status & sub->cfg_err))
		return 0;
	ret = tiprof_hw_wr(hw, sub->status, sub->cfg_err);
	return ret ? ret : -EREMOTEIO;
}

/*
 * Start (@run) or stop a configured subsystem whose life cycle is *@state and
 * whose configured CTRL is @ctrl: EN set, or IRQ_EN cleared (EN stays, so the
 * unit keeps sampling into its FIFO while nobody is interrupted).
 */
static int tiprof_hw_run(struct tiprof_hw *hw, const struct tiprof_hw_sub *sub,
			 enum tiprof_hw_state *state, uint32_t ctrl, int run)
{
	int ret;

	if (*state != TIPROF_HW_CONFIGURED && *state != TIPROF_HW_RUNNING)
		return -ENODEV;
	ret = tiprof_hw_wr(hw, sub->ctrl,
			   run ? ctrl | sub->en : ctrl & ~sub->irq_en);
	if (ret)
		return ret;
	*state = run ? TIPROF_HW_RUNNING : TIPROF_HW_CONFIGURED;
	return 0;
}

/*
 * Drain up to @n records of subsystem @sub into @buf (elements of @size bytes):
 * @read reads the oldest record (1, 0 when none is complete, or a negative
 * code), then POP removes it. Only this loop pops, so the records counted stay
 * complete; the count is re-read only when they are used up. Returns the
 * number drained, or a negative code when none was.
 */
static int tiprof_hw_fifo_drain(struct tiprof_hw *hw,
				const struct tiprof_hw_sub *sub, uint32_t depth,
				int (*read)(struct tiprof_hw *hw, void *rec),
				void *buf, size_t size, unsigned int n)
{
	unsigned int done = 0;
	uint64_t count = 0;
	int ret = 0;

	while (done < n) {
		if (!count) {
			ret = tiprof_hw_rd(hw, sub->fifo_count, &count);
			if (ret || !count)
				break;
			if (count > depth) {
				ret = -EPROTO;
				break;
			}
		}
		ret = read(hw, (char *)buf + (size_t)done * size);
		if (ret <= 0)
			break;
		ret = tiprof_hw_wr(hw, sub->pop, 0);
		if (ret)
			break;
		done++;
		count--;
	}
	if (done || ret >= 0)
		return (int)done;
	return ret;
}

void tiprof_hw_init(struct tiprof_hw *hw, const struct tiprof_hw_ops *ops,
		    void *ctx)
{
	static const struct tiprof_hw zero;

	*hw = zero;
	hw->ops = ops;
	hw->ctx = ctx;
	hw->state = TIPROF_HW_NEW;
}

int tiprof_hw_probe(struct tiprof_hw *hw)
{
	uint64_t id, params;
	uint32_t w, xlen, depth;
	int ret;

	if (hw->state == TIPROF_HW_RUNNING)
		return -EBUSY;
	hw->state = TIPROF_HW_NEW;
	ret = tiprof_hw_rd(hw, TIPROF_TIP_ID, &id);
	if (ret)
		return ret;
	/* Check the magic before trusting any other bit of the space. */
	if (tiprof_hw_field(id, TIPROF_TIP_ID_MAGIC_MASK,
			    TIPROF_TIP_ID_MAGIC_SHIFT) != TIPROF_TIP_ID_MAGIC)
		return -ENODEV;
	if (tiprof_hw_field(id, TIPROF_TIP_ID_MAJOR_MASK,
			    TIPROF_TIP_ID_MAJOR_SHIFT) != TIPROF_TIP_ID_MAJOR)
		return -EOPNOTSUPP;
	ret = tiprof_hw_rd(hw, TIPROF_TIP_PARAMS, &params);
	if (ret)
		return ret;
	w = tiprof_hw_field(params, TIPROF_TIP_PARAMS_W_MASK,
			    TIPROF_TIP_PARAMS_W_SHIFT);
	xlen = tiprof_hw_field(params, TIPROF_TIP_PARAMS_XLEN_MASK,
			       TIPROF_TIP_PARAMS_XLEN_SHIFT);
	depth = tiprof_hw_field(params, TIPROF_TIP_PARAMS_DEPTH_MASK,
				TIPROF_TIP_PARAMS_DEPTH_SHIFT);
	if ((w != 1 && w != 2 && w != 4 && w != 8) || w > TIPROF_MAX_BANKS ||
	    (xlen != 32 && xlen != 64) || depth == 0)
		return -EPROTO;
	hw->id = (uint32_t)id;
	hw->major = (uint8_t)tiprof_hw_field(id, TIPROF_TIP_ID_MAJOR_MASK,
					     TIPROF_TIP_ID_MAJOR_SHIFT);
	hw->minor = (uint8_t)tiprof_hw_field(id, TIPROF_TIP_ID_MINOR_MASK,
					     TIPROF_TIP_ID_MINOR_SHIFT);
	hw->w = (uint8_t)w;
	hw->xlen = (uint8_t)xlen;
	hw->depth = (uint16_t)depth;
	hw->state = TIPROF_HW_PROBED;
	return 0;
}

/* Check @cfg against the field widths and the probed unit; no CSR access. */
static int tiprof_hw_check_config(const struct tiprof_hw *hw,
				  const struct tiprof_hw_config *cfg)
{
	uint64_t span;
	/* the shortest interval: W instructions with the instruction trigger */
	uint32_t lmin = cfg->insts ? hw->w : 1;

	/* the instruction trigger came with register map 1.2 */
	if (cfg->insts && hw->major == 1 && hw->minor < 2)
		return -EOPNOTSUPP;
	if (cfg->period < lmin || cfg->insts > 1 || cfg->priv_mask == 0 ||
	    cfg->priv_mask > (TIPROF_TIP_CTRL_PRIV_MASK >>
			      TIPROF_TIP_CTRL_PRIV_SHIFT) ||
	    cfg->rand_bits > TIPROF_HW_RAND_BITS_MAX ||
	    cfg->watermark == 0 || cfg->watermark > hw->depth)
		return -EINVAL;
	span = (uint64_t)1 << cfg->rand_bits;
	switch (cfg->mode) {
	case TIPROF_MODE_PERIODIC:
		/* the draw ignores k; a nonzero k is a caller's mistake */
		return cfg->rand_bits ? -EINVAL : 0;
	case TIPROF_MODE_RANDOM_INTERVAL:
		/* floor(r * PERIOD / 2^k) is inside the interval for every PERIOD and k */
		return 0;
	case TIPROF_MODE_RANDOM_PERIOD:
		/* PERIOD - 2^(k-1) must stay >= 1 (W instructions) or short
		 * intervals clamp */
		return cfg->rand_bits && span / 2 + lmin > cfg->period ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

int tiprof_hw_configure(struct tiprof_hw *hw,
			const struct tiprof_hw_config *cfg)
{
	uint32_t ctrl;
	int ret;

	if (hw->state == TIPROF_HW_NEW)
		return -ENODEV;
	if (hw->state == TIPROF_HW_RUNNING)
		return -EBUSY;
	ret = tiprof_hw_check_config(hw, cfg);
	if (ret)
		return ret;
	hw->state = TIPROF_HW_PROBED;

	ctrl = (uint32_t)cfg->mode << TIPROF_TIP_CTRL_MODE_SHIFT |
	       (uint32_t)cfg->priv_mask << TIPROF_TIP_CTRL_PRIV_SHIFT |
	       (uint32_t)cfg->rand_bits << TIPROF_TIP_CTRL_RAND_BITS_SHIFT;
	if (cfg->irq)
		ctrl |= TIPROF_TIP_CTRL_IRQ_EN_MASK;
	if (cfg->insts)
		ctrl |= TIPROF_TIP_CTRL_TRIGGER_MASK;

	ret = tiprof_hw_quiesce(hw, &tiprof_hw_sub_tip, hw->depth, NULL);
	if (ret)
		return ret;
	ret = tiprof_hw_wr(hw, TIPROF_TIP_PERIOD, cfg->period);
	if (ret)
		return ret;
	ret = tiprof_hw_wr(hw, TIPROF_TIP_WATERMARK, cfg->watermark);
	if (ret)
		return ret;
	if (cfg->lfsr_seed) {
		ret = tiprof_hw_wr(hw, TIPROF_TIP_LFSR, cfg->lfsr_seed);
		if (ret)
			return ret;
	}
	ret = tiprof_hw_cfg_refused(hw, &tiprof_hw_sub_tip);
	if (ret)
		return ret;
	hw->ctrl = ctrl & TIPROF_HW_CTRL_FIELDS;
	hw->cfg = *cfg;
	hw->state = TIPROF_HW_CONFIGURED;
	return 0;
}

int tiprof_hw_start(struct tiprof_hw *hw)
{
	return tiprof_hw_run(hw, &tiprof_hw_sub_tip, &hw->state, hw->ctrl, 1);
}

int tiprof_hw_stop(struct tiprof_hw *hw)
{
	return tiprof_hw_run(hw, &tiprof_hw_sub_tip, &hw->state, hw->ctrl, 0);
}

/*
 * Read the oldest complete sample into @s (no POP). Returns 1, 0 if the unit
 * shows no complete sample (S_INFO.VALID = 0: a complete sample always has a
 * VALID bit, and all S_ registers read 0 when the oldest entry is pending), or
 * a negative code.
 */
static int tiprof_hw_read_sample(struct tiprof_hw *hw, void *rec)
{
	struct tiprof_sample *s = rec;
	uint64_t info, lo, hi = 0, ctx, addr;
	unsigned int i;
	int ret;

	ret = tiprof_hw_rd(hw, TIPROF_TIP_S_INFO, &info);
	if (ret)
		return ret;
	if (!(info & TIPROF_TIP_S_INFO_VALID_MASK))
		return 0;
	tiprof_sample_set_info(s, (uint32_t)info);
	if (s->valid >> hw->w || s->bank >= hw->w)
		return -EPROTO;
	ret = tiprof_hw_rd(hw, TIPROF_TIP_S_CYCLE, &lo);
	if (ret)
		return ret;
	if (hw->xlen == 32) {
		/* the oldest entry is stable until POP: no tearing here */
		ret = tiprof_hw_rd(hw, TIPROF_TIP_S_CYCLEH, &hi);
		if (ret)
			return ret;
		lo = (hi & 0xFFFFFFFFu) << 32 | (lo & 0xFFFFFFFFu);
	}
	s->cycle = lo;
	ret = tiprof_hw_rd(hw, TIPROF_TIP_S_CTX, &ctx);
	if (ret)
		return ret;
	s->ctx = (uint16_t)tiprof_hw_field(ctx, TIPROF_TIP_S_CTX_ID_MASK,
					   TIPROF_TIP_S_CTX_ID_SHIFT);
	for (i = 0; i < TIPROF_MAX_BANKS; i++) {
		addr = 0;
		if (s->valid >> i & 1u) {
			ret = tiprof_hw_rd(hw, TIPROF_TIP_S_ADDR + i, &addr);
			if (ret)
				return ret;
		}
		s->addr[i] = addr;
	}
	return 1;
}

int tiprof_hw_drain(struct tiprof_hw *hw, struct tiprof_sample *buf,
		    unsigned int n)
{
	if (hw->state == TIPROF_HW_NEW)
		return -ENODEV;
	return tiprof_hw_fifo_drain(hw, &tiprof_hw_sub_tip, hw->depth,
				    tiprof_hw_read_sample, buf, sizeof(*buf),
				    n);
}

int tiprof_hw_counters(struct tiprof_hw *hw, uint64_t *taken, uint64_t *lost)
{
	int ret;

	if (hw->state == TIPROF_HW_NEW)
		return -ENODEV;
	if (taken) {
		ret = tiprof_hw_read64(hw, TIPROF_TIP_TAKEN, TIPROF_TIP_TAKENH,
				       taken);
		if (ret)
			return ret;
	}
	if (lost) {
		ret = tiprof_hw_read64(hw, TIPROF_TIP_LOST, TIPROF_TIP_LOSTH,
				       lost);
		if (ret)
			return ret;
	}
	return 0;
}

int tiprof_hw_counters_clear(struct tiprof_hw *hw)
{
	static const uint16_t regs[] = {
		TIPROF_TIP_TAKEN, TIPROF_TIP_TAKENH,
		TIPROF_TIP_LOST, TIPROF_TIP_LOSTH,
	};
	unsigned int i;
	int ret;

	if (hw->state == TIPROF_HW_NEW)
		return -ENODEV;
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		/* the ..H halves exist on XLEN=32 only */
		if (hw->xlen == 64 && (regs[i] == TIPROF_TIP_TAKENH ||
				       regs[i] == TIPROF_TIP_LOSTH))
			continue;
		ret = tiprof_hw_wr(hw, regs[i], 0);
		if (ret)
			return ret;
	}
	return 0;
}

int tiprof_hw_cycle(struct tiprof_hw *hw, uint64_t *cycle)
{
	if (hw->state == TIPROF_HW_NEW)
		return -ENODEV;
	return tiprof_hw_read64(hw, TIPROF_TIP_CYCLE, TIPROF_TIP_CYCLEH, cycle);
}

/* ---- ProfileMe ---- */

/* PM_CTRL fields a configuration may set (EN is set by start only). */
#define TIPROF_HW_PM_CTRL_FIELDS	(TIPROF_PM_CTRL_MODE_MASK | \
					 TIPROF_PM_CTRL_IRQ_EN_MASK | \
					 TIPROF_PM_CTRL_PRIV_MASK | \
					 TIPROF_PM_CTRL_RAND_BITS_MASK | \
					 TIPROF_PM_CTRL_UNIT_MASK | \
					 TIPROF_PM_CTRL_PAIR_MASK)
/* Sticky, write-1-to-clear PM_STATUS bits. */
#define TIPROF_HW_PM_STICKY	(TIPROF_PM_STATUS_CFG_ERR_MASK | \
				 TIPROF_PM_STATUS_POP_EMPTY_MASK | \
				 TIPROF_PM_STATUS_STRAY_MASK | \
				 TIPROF_PM_STATUS_TIMEOUT_MASK)
/* Bits of PM_LATFILT that exist, and the illegal SEL value. */
#define TIPROF_HW_PM_LATFILT_BITS	(TIPROF_PM_LATFILT_THRESH_MASK | \
					 TIPROF_PM_LATFILT_SEL_MASK | \
					 TIPROF_PM_LATFILT_INV_MASK)
#define TIPROF_HW_PM_SEL_BAD	7u
/* Largest PM_PAIR.WINDOW. */
#define TIPROF_HW_PM_WINDOW_MAX	256u

static const struct tiprof_hw_sub tiprof_hw_sub_pm = {
	TIPROF_PM_CTRL, TIPROF_PM_STATUS, TIPROF_PM_FIFO_COUNT, TIPROF_PM_POP,
	TIPROF_PM_CTRL_EN_MASK, TIPROF_PM_CTRL_IRQ_EN_MASK,
	TIPROF_HW_PM_STICKY, TIPROF_PM_STATUS_CFG_ERR_MASK,
};

int tiprof_hw_pm_probe(struct tiprof_hw *hw)
{
	uint64_t params;
	uint32_t f, xlen, depth, tags;
	int ret;

	if (hw->state == TIPROF_HW_NEW)
		return -ENODEV;
	if (hw->pm_state == TIPROF_HW_RUNNING)
		return -EBUSY;
	hw->pm_state = TIPROF_HW_NEW;
	hw->pm_f = 0;
	ret = tiprof_hw_rd(hw, TIPROF_PM_PARAMS, &params);
	if (ret == -EIO)
		return -ENODEV;	/* no subsystem claims the address */
	if (ret)
		return ret;
	f = tiprof_hw_field(params, TIPROF_PM_PARAMS_F_MASK,
			    TIPROF_PM_PARAMS_F_SHIFT);
	xlen = tiprof_hw_field(params, TIPROF_PM_PARAMS_XLEN_MASK,
			       TIPROF_PM_PARAMS_XLEN_SHIFT);
	depth = tiprof_hw_field(params, TIPROF_PM_PARAMS_DEPTH_MASK,
				TIPROF_PM_PARAMS_DEPTH_SHIFT);
	tags = tiprof_hw_field(params, TIPROF_PM_PARAMS_TAGS_MASK,
			       TIPROF_PM_PARAMS_TAGS_SHIFT);
	if (f == 0 && depth == 0)
		return -ENODEV;	/* an implementation reading 0: none */
	if ((f != 1 && f != 2 && f != 4 && f != 8) || xlen != hw->xlen ||
	    depth == 0 || (tags != 1 && tags != 2))
		return -EPROTO;
	hw->pm_f = (uint8_t)f;
	hw->pm_tags = (uint8_t)tags;
	hw->pm_depth = (uint16_t)depth;
	hw->pm_state = TIPROF_HW_PROBED;
	return 0;
}

/* Check @cfg against the PM register rules and PM_PARAMS; no CSR access. */
static int tiprof_hw_pm_check_config(const struct tiprof_hw *hw,
				     const struct tiprof_hw_pm_config *cfg)
{
	uint64_t span;

	if (cfg->period < hw->pm_f || cfg->priv_mask == 0 ||
	    cfg->priv_mask > (TIPROF_PM_CTRL_PRIV_MASK >>
			      TIPROF_PM_CTRL_PRIV_SHIFT) ||
	    cfg->rand_bits > TIPROF_HW_RAND_BITS_MAX ||
	    cfg->watermark == 0 || cfg->watermark > hw->pm_depth ||
	    cfg->window == 0 || cfg->window > TIPROF_HW_PM_WINDOW_MAX ||
	    cfg->timeout == 0 || cfg->unit > 1 || cfg->pair > 1 ||
	    (cfg->pair && hw->pm_tags < 2) ||
	    (cfg->latfilt & ~(uint32_t)TIPROF_HW_PM_LATFILT_BITS) ||
	    tiprof_hw_field(cfg->latfilt, TIPROF_PM_LATFILT_SEL_MASK,
			    TIPROF_PM_LATFILT_SEL_SHIFT) == TIPROF_HW_PM_SEL_BAD)
		return -EINVAL;
	span = (uint64_t)1 << cfg->rand_bits;
	switch (cfg->mode) {
	case TIPROF_MODE_PERIODIC:
		return cfg->rand_bits ? -EINVAL : 0;
	case TIPROF_MODE_RANDOM_INTERVAL:
		return 0;
	case TIPROF_MODE_RANDOM_PERIOD:
		/* PERIOD - 2^(k-1) must stay >= F or short intervals clamp */
		return cfg->rand_bits && span / 2 + hw->pm_f > cfg->period ?
		       -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

int tiprof_hw_pm_configure(struct tiprof_hw *hw,
			   const struct tiprof_hw_pm_config *cfg)
{
	uint32_t ctrl;
	int ret;

	/* counts this call's discards only, whatever it returns */
	hw->pm_discarded = 0;
	if (hw->pm_state == TIPROF_HW_NEW)
		return -ENODEV;
	if (hw->pm_state == TIPROF_HW_RUNNING)
		return -EBUSY;
	ret = tiprof_hw_pm_check_config(hw, cfg);
	if (ret)
		return ret;
	hw->pm_state = TIPROF_HW_PROBED;

	ctrl = (uint32_t)cfg->mode << TIPROF_PM_CTRL_MODE_SHIFT |
	       (uint32_t)cfg->priv_mask << TIPROF_PM_CTRL_PRIV_SHIFT |
	       (uint32_t)cfg->rand_bits << TIPROF_PM_CTRL_RAND_BITS_SHIFT |
	       (uint32_t)cfg->unit << TIPROF_PM_CTRL_UNIT_SHIFT |
	       (uint32_t)cfg->pair << TIPROF_PM_CTRL_PAIR_SHIFT;
	if (cfg->irq)
		ctrl |= TIPROF_PM_CTRL_IRQ_EN_MASK;

	ret = tiprof_hw_quiesce(hw, &tiprof_hw_sub_pm, hw->pm_depth,
				&hw->pm_discarded);
	if (!ret)
		ret = tiprof_hw_wr(hw, TIPROF_PM_PERIOD, cfg->period);
	if (!ret)
		ret = tiprof_hw_wr(hw, TIPROF_PM_WATERMARK, cfg->watermark);
	if (!ret)
		ret = tiprof_hw_wr(hw, TIPROF_PM_PAIR, cfg->window);
	if (!ret)
		ret = tiprof_hw_wr(hw, TIPROF_PM_TIMEOUT, cfg->timeout);
	if (!ret)
		ret = tiprof_hw_wr(hw, TIPROF_PM_EVFILT, cfg->evfilt);
	if (!ret)
		ret = tiprof_hw_wr(hw, TIPROF_PM_LATFILT, cfg->latfilt);
	if (!ret && cfg->lfsr_seed)
		ret = tiprof_hw_wr(hw, TIPROF_PM_LFSR, cfg->lfsr_seed);
	if (!ret)
		ret = tiprof_hw_cfg_refused(hw, &tiprof_hw_sub_pm);
	if (ret)
		return ret;
	hw->pm_ctrl = ctrl & TIPROF_HW_PM_CTRL_FIELDS;
	hw->pm_cfg = *cfg;
	hw->pm_state = TIPROF_HW_CONFIGURED;
	return 0;
}

int tiprof_hw_pm_start(struct tiprof_hw *hw)
{
	return tiprof_hw_run(hw, &tiprof_hw_sub_pm, &hw->pm_state,
			     hw->pm_ctrl, 1);
}

int tiprof_hw_pm_stop(struct tiprof_hw *hw)
{
	return tiprof_hw_run(hw, &tiprof_hw_sub_pm, &hw->pm_state,
			     hw->pm_ctrl, 0);
}

/* Record word @k of the oldest record; @high: also its PM_RH half (XLEN=32). */
static int tiprof_hw_pm_word(struct tiprof_hw *hw, unsigned int k, int high,
			     uint64_t *val)
{
	uint64_t lo, hi = 0;
	int ret;

	ret = tiprof_hw_rd(hw, (uint16_t)(TIPROF_PM_R + k), &lo);
	if (ret)
		return ret;
	if (hw->xlen == 64) {
		*val = lo;
		return 0;
	}
	if (high) {
		ret = tiprof_hw_rd(hw, (uint16_t)(TIPROF_PM_RH + k), &hi);
		if (ret)
			return ret;
	}
	*val = (hi & 0xFFFFFFFFu) << 32 | (lo & 0xFFFFFFFFu);
	return 0;
}

/* Read the oldest record into @rec (no POP): 1 or a negative code. */
static int tiprof_hw_pm_read_record(struct tiprof_hw *hw, void *rec)
{
	struct tiprof_pm_sample *s = rec;
	unsigned int p, np, base, k;
	uint64_t info;
	int ret;

	for (k = 0; k < TIPROF_PM_REC_WORDS; k++)
		s->w[k] = 0;
	ret = tiprof_hw_pm_word(hw, TIPROF_PM_REC_CYCLE, 1,
				&s->w[TIPROF_PM_REC_CYCLE]);
	if (!ret)
		ret = tiprof_hw_pm_word(hw, TIPROF_PM_REC_SINFO, 1,
					&s->w[TIPROF_PM_REC_SINFO]);
	if (ret)
		return ret;
	if (tiprof_pm_field(s, TIPROF_PM_REC_SINFO, 0,
			    TIPROF_PM_REC_SINFO_FMT_MASK,
			    TIPROF_PM_REC_SINFO_FMT_SHIFT) != TIPROF_PM_REC_FMT)
		return -EPROTO;
	np = tiprof_pm_field(s, TIPROF_PM_REC_SINFO, 0,
			     TIPROF_PM_REC_SINFO_PAIR_MASK,
			     TIPROF_PM_REC_SINFO_PAIR_SHIFT) ? 2 : 1;
	for (p = 0; p < np; p++) {
		base = p * TIPROF_PM_REC_PROFILE_STRIDE;
		ret = tiprof_hw_pm_word(hw, base + TIPROF_PM_REC_INFO, 1,
					&s->w[base + TIPROF_PM_REC_INFO]);
		if (ret)
			return ret;
		info = s->w[base + TIPROF_PM_REC_INFO];
		ret = tiprof_hw_pm_word(hw, base + TIPROF_PM_REC_PC, 0,
					&s->w[base + TIPROF_PM_REC_PC]);
		if (!ret && (info >> TIPROF_PM_EV_EA_VALID & 1u))
			ret = tiprof_hw_pm_word(hw, base + TIPROF_PM_REC_EA, 0,
						&s->w[base + TIPROF_PM_REC_EA]);
		if (!ret)
			ret = tiprof_hw_pm_word(hw, base + TIPROF_PM_REC_STAMP_A,
						1,
						&s->w[base + TIPROF_PM_REC_STAMP_A]);
		if (!ret)
			ret = tiprof_hw_pm_word(hw, base + TIPROF_PM_REC_STAMP_B,
						1,
						&s->w[base + TIPROF_PM_REC_STAMP_B]);
		if (ret)
			return ret;
	}
	return 1;
}

int tiprof_hw_pm_drain(struct tiprof_hw *hw, struct tiprof_pm_sample *buf,
		       unsigned int n)
{
	if (hw->pm_state == TIPROF_HW_NEW)
		return -ENODEV;
	return tiprof_hw_fifo_drain(hw, &tiprof_hw_sub_pm, hw->pm_depth,
				    tiprof_hw_pm_read_record, buf,
				    sizeof(*buf), n);
}

/*
 * The bounded drain of both subsystems: @drain is tiprof_hw_drain() or
 * tiprof_hw_pm_drain() (through a void pointer), @size its record size.
 */
static int tiprof_hw_budget_loop(struct tiprof_hw *hw, int pm, void *batch,
				 unsigned int batch_n, unsigned int budget,
				 void (*sink)(void *arg, const void *recs,
					      unsigned int n),
				 void *arg)
{
	unsigned int done = 0, want;
	int n;

	if (!batch_n)
		return -EINVAL;
	while (done < budget) {
		want = budget - done < batch_n ? budget - done : batch_n;
		n = pm ? tiprof_hw_pm_drain(hw, batch, want) :
			 tiprof_hw_drain(hw, batch, want);
		if (n < 0)
			return done ? (int)done : n;
		if (n)
			sink(arg, batch, (unsigned int)n);
		done += (unsigned int)n;
		if ((unsigned int)n < want)
			break;	/* the FIFO read empty (or an error comes) */
	}
	return (int)done;
}

int tiprof_hw_drain_budget(struct tiprof_hw *hw, struct tiprof_sample *batch,
			   unsigned int batch_n, unsigned int budget,
			   void (*sink)(void *arg, const void *recs,
					unsigned int n),
			   void *arg)
{
	return tiprof_hw_budget_loop(hw, 0, batch, batch_n, budget, sink, arg);
}

int tiprof_hw_pm_drain_budget(struct tiprof_hw *hw,
			      struct tiprof_pm_sample *batch,
			      unsigned int batch_n, unsigned int budget,
			      void (*sink)(void *arg, const void *recs,
					   unsigned int n),
			      void *arg)
{
	return tiprof_hw_budget_loop(hw, 1, batch, batch_n, budget, sink, arg);
}

int tiprof_hw_throttle_account(struct tiprof_hw_throttle *t, uint64_t tick,
			       unsigned int n)
{
	if (t->tick != tick) {
		t->tick = tick;
		t->samples = 0;
	}
	t->samples = t->samples + n < t->samples ? ~(uint32_t)0 :
		     t->samples + n;
	return t->max && t->samples >= t->max;
}

int tiprof_hw_lost_new(struct tiprof_hw *hw, uint64_t *seen, uint64_t *inc)
{
	uint64_t lost;
	int ret = tiprof_hw_counters(hw, NULL, &lost);

	if (ret)
		return ret;
	*inc = lost >= *seen ? lost - *seen : lost;
	*seen = lost;
	return 0;
}

int tiprof_hw_pm_counters(struct tiprof_hw *hw, struct tiprof_pm_counts *c)
{
	int ret;

	if (hw->pm_state == TIPROF_HW_NEW)
		return -ENODEV;
	c->lost_sw = 0;
	ret = tiprof_hw_read64(hw, TIPROF_PM_TAKEN, TIPROF_PM_TAKENH,
			       &c->taken);
	if (!ret)
		ret = tiprof_hw_read64(hw, TIPROF_PM_LOST, TIPROF_PM_LOSTH,
				       &c->lost);
	if (!ret)
		ret = tiprof_hw_read64(hw, TIPROF_PM_FILTERED,
				       TIPROF_PM_FILTEREDH, &c->filtered);
	if (!ret)
		ret = tiprof_hw_read64(hw, TIPROF_PM_COLLIDED,
				       TIPROF_PM_COLLIDEDH, &c->collided);
	return ret;
}

int tiprof_hw_irq_pending(struct tiprof_hw *hw, unsigned int *which)
{
	uint64_t st;
	int ret;

	*which = 0;
	if (hw->state == TIPROF_HW_NEW)
		return -ENODEV;
	ret = tiprof_hw_rd(hw, TIPROF_TIP_STATUS, &st);
	if (ret)
		return ret;
	if (st & TIPROF_TIP_STATUS_IRQ_MASK)
		*which |= TIPROF_HW_IRQ_TIP;
	if (hw->pm_state == TIPROF_HW_NEW)
		return 0;
	ret = tiprof_hw_rd(hw, TIPROF_PM_STATUS, &st);
	if (ret)
		return ret;
	if (st & TIPROF_PM_STATUS_IRQ_MASK)
		*which |= TIPROF_HW_IRQ_PM;
	return 0;
}

const char *tiprof_hw_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -EIO:
		return "CSR access failed (illegal access: is TIP_MENABLE.S set?)";
	case -EINVAL:
		return "invalid argument";
	case -ENODEV:
		return "no TIP unit (wrong TIP_ID magic, or not probed/configured)";
	case -EOPNOTSUPP:
		return "unsupported TIP register-map major version";
	case -EPROTO:
		return "the unit reports impossible parameters or sample contents";
	case -EREMOTEIO:
		return "the unit rejected a configuration write (STATUS.CFG_ERR)";
	case -EBUSY:
		return "sampling is running";
	case -EAGAIN:
		return "64-bit counter kept changing during the read";
	default:
		return "unknown error";
	}
}
