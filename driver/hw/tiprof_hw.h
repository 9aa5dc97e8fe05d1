/* SPDX-License-Identifier: GPL-2.0-only OR Apache-2.0 */
/*
 * tiprof_hw.h - kernel-independent hardware layer of the TIP unit: discover
 * the unit (TIP_ID, TIP_PARAMS), program it, start and stop sampling, drain
 * complete samples from its FIFO and read its 64-bit counters, all through
 * two caller-supplied CSR accessors. The same source builds into the Linux
 * module, the simulator and the user-space tests (docs/hw-layer.md).
 *
 * Every function returns 0 (or a count) on success and a negative errno code
 * on failure; see tiprof_hw_strerror() for what each code means here.
 */
#ifndef TIPROF_HW_H
#define TIPROF_HW_H

#include "tiprof_hw_types.h"
#include "tiprof/tiprof_regs.h"
#include "tiprof/sample.h"
#include "tiprof/pm_sample.h"

/*
 * CSR accessors of one unit. Each returns 0 on success or a negative errno
 * code; an illegal access (csr_illegal_o, which the core turns into an
 * illegal-instruction trap) must be reported as -EIO. Read values are the
 * XLEN-bit register value zero-extended to 64 bits.
 */
struct tiprof_hw_ops {
	/* read CSR @addr into *@val */
	int (*csr_read)(void *ctx, uint16_t addr, uint64_t *val);
	/* write @val (its low XLEN bits) to CSR @addr */
	int (*csr_write)(void *ctx, uint16_t addr, uint64_t val);
};

/* Life cycle of a struct tiprof_hw (each function states which it needs). */
enum tiprof_hw_state {
	TIPROF_HW_NEW = 0,	/* initialised, unit not yet identified */
	TIPROF_HW_PROBED,	/* TIP_ID and TIP_PARAMS read and accepted */
	TIPROF_HW_CONFIGURED,	/* a configuration is programmed, EN = 0 */
	TIPROF_HW_RUNNING,	/* sampling enabled (CTRL.EN = 1) */
};

/* Sampling configuration; tiprof_hw_configure() checks every field. */
struct tiprof_hw_config {
	/* sampling period in cycles, >= 1 */
	uint32_t period;
	/* TIPROF_MODE_PERIODIC, _RANDOM_INTERVAL or _RANDOM_PERIOD */
	uint8_t mode;
	/* k: random modes draw LFSR & (2^k - 1); 0..31, 0 if periodic */
	uint8_t rand_bits;
	/* bit p: take samples while the privilege is p; 1..0xF */
	uint8_t priv_mask;
	/* nonzero: raise the interrupt at the watermark */
	uint8_t irq;
	/* interrupt while FIFO_COUNT >= watermark; 1..depth */
	uint16_t watermark;
	/* nonzero: seed TIP_LFSR with it; 0: leave the LFSR as it is */
	uint32_t lfsr_seed;
	/* nonzero: the instruction trigger (CTRL.TRIGGER): period counts
	 * committed instructions, >= W; the unit's map must be 1.2 or later */
	uint8_t insts;
};

/*
 * ProfileMe configuration (docs/profileme.md); tiprof_hw_pm_configure()
 * checks every field against the register rules and PM_PARAMS.
 */
struct tiprof_hw_pm_config {
	/* PM_PERIOD: fetch units per selection, F..2^32-1 */
	uint32_t period;
	/* TIPROF_MODE_*, as TIP's */
	uint8_t mode;
	/* k of the random modes, 0..31 (0 if periodic) */
	uint8_t rand_bits;
	/* bit p: select while fetching at privilege p; 1..0xF */
	uint8_t priv_mask;
	/* nonzero: raise the interrupt at the watermark */
	uint8_t irq;
	/* PM_CTRL.UNIT: 0 count fetched instructions, 1 fetch slots */
	uint8_t unit;
	/* PM_CTRL.PAIR: paired sampling (needs two tag ids) */
	uint8_t pair;
	/* PM_PAIR.WINDOW: the second is 1..window fetches later; 1..256 */
	uint16_t window;
	/* PM_WATERMARK: interrupt while PM_FIFO_COUNT >= it; 1..depth */
	uint16_t watermark;
	/* PM_TIMEOUT: cycles before an open sample is ended; 1..65535 */
	uint16_t timeout;
	/* PM_EVFILT: MASK (15:0), MATCH (31:16); 0 keeps every sample */
	uint32_t evfilt;
	/* PM_LATFILT: THRESH (15:0), SEL (18:16, not 7), INV (19) */
	uint32_t latfilt;
	/* nonzero: seed PM_LFSR with it; 0: leave the LFSR as it is */
	uint32_t lfsr_seed;
};

/* Interrupt sources of tiprof_hw_irq_pending() (the unit ORs them). */
#define TIPROF_HW_IRQ_TIP	0x1u
#define TIPROF_HW_IRQ_PM	0x2u

/* One TIP unit as seen through its CSRs. Fields are read-only for callers. */
struct tiprof_hw {
	const struct tiprof_hw_ops *ops;	/* CSR accessors */
	void *ctx;				/* passed to every accessor */
	enum tiprof_hw_state state;		/* where in the life cycle */
	uint32_t id;		/* raw TIP_ID (valid from PROBED) */
	uint8_t major;		/* TIP_ID.MAJOR */
	uint8_t minor;		/* TIP_ID.MINOR */
	uint8_t w;		/* TIP_PARAMS.W: commit width, 1/2/4/8 */
	uint8_t xlen;		/* TIP_PARAMS.XLEN: 32 or 64 */
	uint16_t depth;		/* TIP_PARAMS.DEPTH: FIFO entries */
	uint32_t ctrl;		/* TIP_CTRL of the config, EN clear */
	struct tiprof_hw_config cfg;	/* the configuration programmed */
	/* ProfileMe subsystem (valid from tiprof_hw_pm_probe(); pm_f 0: none) */
	enum tiprof_hw_state pm_state;	/* NEW until probed; as TIP's after */
	uint8_t pm_f;		/* PM_PARAMS.F: fetch slots per cycle, or 0 */
	uint8_t pm_tags;	/* PM_PARAMS.TAGS: 1, or 2 (paired sampling) */
	uint16_t pm_depth;	/* PM_PARAMS.DEPTH: record FIFO entries */
	uint32_t pm_ctrl;	/* PM_CTRL of the config, EN clear */
	uint32_t pm_discarded;	/* records the last configure discarded */
	struct tiprof_hw_pm_config pm_cfg;	/* the configuration programmed */
};

/*
 * Error codes beyond -EIO (a CSR access failed) and -EINVAL (bad argument):
 * -ENODEV       no TIP unit: TIP_ID's magic is wrong (or not probed yet)
 * -EOPNOTSUPP   a TIP unit of an unsupported register-map major version
 * -EPROTO       the unit reports impossible parameters or sample contents
 * -EREMOTEIO    the unit rejected a configuration write (STATUS.CFG_ERR)
 * -EBUSY        the operation needs sampling stopped
 * -EAGAIN       a 64-bit counter kept changing under a high-low-high read
 */

/*
 * tiprof_hw_init - bind @hw to a unit reached through @ops/@ctx; no CSR
 * access. @hw is then in state NEW.
 */
void tiprof_hw_init(struct tiprof_hw *hw, const struct tiprof_hw_ops *ops,
		    void *ctx);

/*
 * tiprof_hw_probe - read TIP_ID and TIP_PARAMS and record the version, W,
 * XLEN and FIFO depth. Returns 0 (state PROBED); -ENODEV for a wrong magic,
 * -EOPNOTSUPP for an unsupported major version, -EPROTO for impossible
 * parameters, -EIO if a read failed. Only reads; callable in any state but
 * RUNNING (-EBUSY).
 */
int tiprof_hw_probe(struct tiprof_hw *hw);

/*
 * tiprof_hw_configure - program @cfg with sampling disabled. All arguments
 * are checked before any CSR access (-EINVAL, and -ENODEV before a probe,
 * -EBUSY while running). Then: CTRL = 0 (disable, no interrupt), clear the
 * sticky STATUS bits, discard the complete samples left in the FIFO, write
 * PERIOD, WATERMARK and (if seeded) LFSR, read STATUS back: CFG_ERR set means
 * the unit rejected a write (-EREMOTEIO, and the sticky bit is cleared).
 * Returns 0 (state CONFIGURED) or a negative code (state PROBED).
 */
int tiprof_hw_configure(struct tiprof_hw *hw,
			const struct tiprof_hw_config *cfg);

/*
 * tiprof_hw_start - enable sampling with the configured CTRL (EN, and IRQ_EN
 * if cfg->irq); the write restarts the sampler. Needs CONFIGURED (or RUNNING:
 * a restart). Returns 0 (state RUNNING), -ENODEV if not configured, or the
 * accessor's error.
 */
int tiprof_hw_start(struct tiprof_hw *hw);

/*
 * tiprof_hw_stop - disable sampling and the interrupt (CTRL with EN and
 * IRQ_EN clear). Samples already in the FIFO stay for tiprof_hw_drain(); a
 * pending Drained sample completes when the next instruction dispatches.
 * Needs CONFIGURED or RUNNING. Returns 0 (state CONFIGURED) or an error.
 */
int tiprof_hw_stop(struct tiprof_hw *hw);

/*
 * tiprof_hw_drain - move complete samples from the FIFO into @buf[0..@n-1],
 * oldest first, until FIFO_COUNT reads 0 or @buf is full. Per sample: S_INFO,
 * S_CYCLE (and S_CYCLEH on XLEN=32), S_CTX, S_ADDRi for each VALID bit i
 * (invalid slots are 0 by the unit's contract and are not read), then a POP
 * write. Needs PROBED or later. Returns the number of samples stored (0..n),
 * or a negative code if the first sample could not be read; an error after
 * some samples were stored returns their count (the error repeats on the
 * next call). A sample is stored only once its POP succeeded.
 */
int tiprof_hw_drain(struct tiprof_hw *hw, struct tiprof_sample *buf,
		    unsigned int n);

/*
 * tiprof_hw_counters - read TIP_TAKEN and TIP_LOST as 64-bit values (either
 * pointer may be NULL). On XLEN=32 each is read high-low-high and retried if
 * the high half changed, so a carry between the reads cannot tear the value.
 * Needs PROBED or later. Returns 0, -EIO, or -EAGAIN.
 */
int tiprof_hw_counters(struct tiprof_hw *hw, uint64_t *taken, uint64_t *lost);

/*
 * tiprof_hw_counters_clear - set TIP_TAKEN and TIP_LOST (both halves) to 0.
 * Needs PROBED or later; returns 0 or the accessor's error.
 */
int tiprof_hw_counters_clear(struct tiprof_hw *hw);

/*
 * tiprof_hw_cycle - read the free-running TIP_CYCLE counter (64 bits, read
 * high-low-high on XLEN=32). Needs PROBED or later. Returns 0 or an error.
 */
int tiprof_hw_cycle(struct tiprof_hw *hw, uint64_t *cycle);

/*
 * ---- ProfileMe (docs/profileme.md, docs/hw-layer.md "ProfileMe") ----
 * The subsystem has its own state (pm_state), FIFO, counters and interrupt
 * enable; the unit ORs its interrupt with TIP's. Every call needs the unit
 * PROBED by tiprof_hw_probe() first.
 */

/*
 * tiprof_hw_pm_probe - read PM_PARAMS: fetch slots, XLEN, depth, tag ids.
 * Returns 0 (pm_state PROBED); -ENODEV if the unit has no ProfileMe
 * subsystem (PM_PARAMS traps: a unit built with PmF = 0) or TIP is not
 * probed; -EPROTO for impossible parameters (or an XLEN unlike TIP's);
 * -EBUSY while PM is running.
 */
int tiprof_hw_pm_probe(struct tiprof_hw *hw);

/*
 * tiprof_hw_pm_configure - program @cfg with ProfileMe selection disabled.
 * Every field is checked before any CSR access (-EINVAL; -ENODEV before
 * tiprof_hw_pm_probe(), -EBUSY while running). Then: PM_CTRL = 0, clear the
 * sticky PM_STATUS bits, discard the records left in the FIFO (their number
 * in hw->pm_discarded, 0 if the call failed before: the caller counts them
 * as lost), write PM_PERIOD,
 * PM_WATERMARK, PM_PAIR, PM_TIMEOUT, PM_EVFILT, PM_LATFILT and (if seeded)
 * PM_LFSR, read PM_STATUS back: CFG_ERR gives -EREMOTEIO. Returns 0
 * (pm_state CONFIGURED) or a negative code (pm_state PROBED).
 */
int tiprof_hw_pm_configure(struct tiprof_hw *hw,
			   const struct tiprof_hw_pm_config *cfg);

/*
 * tiprof_hw_pm_start / tiprof_hw_pm_stop - set / clear PM_CTRL.EN (and
 * IRQ_EN). As TIP's start and stop; after the stop an open sample still
 * completes and is recorded (a later drain or configure sees it).
 */
int tiprof_hw_pm_start(struct tiprof_hw *hw);
int tiprof_hw_pm_stop(struct tiprof_hw *hw);

/*
 * tiprof_hw_pm_drain - move records from the PM FIFO into @buf[0..@n-1],
 * oldest first, until PM_FIFO_COUNT reads 0 or @buf is full. Per record:
 * CYCLE, SINFO, then per profile INFO, PC, EA only if EV.EA_VALID, STAMP_A,
 * STAMP_B; profile 1 only for a pair (its words read 0 otherwise); on
 * XLEN=32 the high halves (PM_RH) of every word but PC and EA; then a
 * PM_POP write. A record counts as stored once its POP succeeded. Returns
 * the count, or a negative code if the first record could not be read
 * (-EPROTO: a count beyond the depth or a record whose FMT is not 1).
 */
int tiprof_hw_pm_drain(struct tiprof_hw *hw, struct tiprof_pm_sample *buf,
		       unsigned int n);

/*
 * tiprof_hw_pm_counters - read PM_TAKEN, PM_LOST, PM_FILTERED and
 * PM_COLLIDED into @c (high-low-high on XLEN=32); @c->lost_sw is set to 0.
 * Returns 0, -ENODEV (not probed), -EIO or -EAGAIN.
 */
int tiprof_hw_pm_counters(struct tiprof_hw *hw, struct tiprof_pm_counts *c);

/*
 * tiprof_hw_irq_pending - which subsystems hold their interrupt line high:
 * *@which = TIPROF_HW_IRQ_TIP if TIP_STATUS.IRQ, | TIPROF_HW_IRQ_PM if
 * PM_STATUS.IRQ (PM only when probed). The unit has one interrupt; a
 * handler calls this to know which FIFO to drain. Returns 0 or an error.
 */
int tiprof_hw_irq_pending(struct tiprof_hw *hw, unsigned int *which);

/*
 * Bounded work per interrupt (docs/driver.md, "Interrupt storms"). A unit
 * that samples faster than its samples can be drained refills the FIFO as
 * fast as it is emptied: a handler that drains "until empty" never returns.
 *
 * tiprof_hw_drain_budget / tiprof_hw_pm_drain_budget - tiprof_hw_drain() /
 * tiprof_hw_pm_drain() calls of at most @batch_n records into @batch, each
 * call's records handed to @sink(@arg, @batch, n), until the FIFO reads empty
 * or @budget records were drained: at most @budget POPs. Records left stay
 * in the FIFO (a full FIFO makes the unit count the samples it cannot store
 * in TIP_LOST / PM_LOST: nothing is dropped uncounted). Returns the number
 * drained (@budget: the budget ran out, records may be left), or a negative
 * code if the first call failed (an error after some records returns their
 * count; the next call meets it again).
 */
int tiprof_hw_drain_budget(struct tiprof_hw *hw, struct tiprof_sample *batch,
			   unsigned int batch_n, unsigned int budget,
			   void (*sink)(void *arg, const void *recs,
					unsigned int n),
			   void *arg);
int tiprof_hw_pm_drain_budget(struct tiprof_hw *hw,
			      struct tiprof_pm_sample *batch,
			      unsigned int batch_n, unsigned int budget,
			      void (*sink)(void *arg, const void *recs,
					   unsigned int n),
			      void *arg);

/*
 * Interrupt throttling, as perf core's max_samples_per_tick: the samples
 * drained in one tick are counted; when they reach @max the caller stops the
 * unit (tiprof_hw_stop: the FIFO keeps its samples) until the next tick.
 */
struct tiprof_hw_throttle {
	uint64_t tick;		/* the tick @samples were counted in */
	uint32_t samples;	/* samples drained in it */
	uint32_t max;		/* samples per tick allowed; 0: no limit */
};

/*
 * tiprof_hw_throttle_account - add @n samples drained in tick @tick (any
 * monotonic tick count, e.g. jiffies). Returns 1 when the tick's samples
 * reached @t->max (throttle now), else 0. No CSR access.
 */
int tiprof_hw_throttle_account(struct tiprof_hw_throttle *t, uint64_t tick,
			       unsigned int n);

/*
 * tiprof_hw_lost_new - read TIP_LOST; *@inc = its increase since *@seen,
 * and *@seen = the value read (a counter below *@seen, cleared under us,
 * counts from 0). Returns 0 or tiprof_hw_counters()' error (nothing
 * changed then).
 */
int tiprof_hw_lost_new(struct tiprof_hw *hw, uint64_t *seen, uint64_t *inc);

/*
 * tiprof_hw_strerror - a short constant description of a code returned by
 * this layer (for log messages); never NULL.
 */
const char *tiprof_hw_strerror(int err);

#endif /* TIPROF_HW_H */
