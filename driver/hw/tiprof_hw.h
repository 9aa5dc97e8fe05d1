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
};

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
 * tiprof_hw_strerror - a short constant description of a code returned by
 * this layer (for log messages); never NULL.
 */
const char *tiprof_hw_strerror(int err);

#endif /* TIPROF_HW_H */
