/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-record-sim.h - `tiprof sim --profile`: the co-simulated recording path. The TIP
 * unit's C reference model sees the core's ROB interface every cycle; when it raises its
 * interrupt, the driver's hardware layer (driver/hw, the kernel module's own source) drains
 * the FIFO through CSR accessors that each clock the unit one cycle, and the samples go to
 * the sample-file writer. How the drain cycles are kept out of the profile: docs/report.md.
 * The unit is the C model, or (tiprof-cosim, `tiprof sim --rtl`) the Verilated RTL clocked in
 * lockstep with the C model and compared with it every cycle (struct recsim_unit_ops).
 */
#ifndef TIPROF_RECSIM_H
#define TIPROF_RECSIM_H

#include <stddef.h>
#include <stdint.h>

#include "tiprof/tiprof_regs.h"

/* FIFO entries and interrupt watermark of the simulated unit. */
#define RECSIM_DEPTH 64
#define RECSIM_WATERMARK 32

struct tip_model;
struct sf_object;
struct sf_writer;
struct tip_csr_req;
struct tip_csr_resp;

/* Another implementation of the unit, clocked instead of the plain C model. */
struct recsim_unit_ops {
	/* One unit cycle with ROB inputs rob and CSR request csr (NULL: none); resp (may be
	 * NULL) receives the CSR response of the cycle. Returns 0, or -1 with a one-line
	 * report in err (the recording then stops). */
	int (*cycle)(void *ctx, const struct tiprof_rob_if *rob, const struct tip_csr_req *csr,
		     struct tip_csr_resp *resp, char *err, size_t errlen);
	/* The C reference model clocked in lockstep: the recorder reads irq_o and the pending
	 * samples from it (both are checked against the unit by cycle()). */
	const struct tip_model *(*model)(void *ctx);
};

/* What to record. */
struct recsim_cfg {
	const char *path;	/* sample file to write */
	const char *elf;	/* the workload ELF (path and build-id go in the header) */
	unsigned w;		/* the core's commit width (the unit's W) */
	uint32_t period;	/* sampling period, cycles */
	unsigned rand_bits;	/* k of TIP's random interval; periodic if 0 */
	unsigned insts;		/* 1: TIP's instruction trigger (period in committed instructions) */
	const struct recsim_unit_ops *unit;	/* NULL: the C model of W, XLEN 64, RECSIM_DEPTH */
	void *unit_ctx;		/* passed to unit's functions (a unit of that configuration) */
};

/* Outcome of a recording. */
struct recsim_stats {
	uint64_t samples;	/* samples written */
	uint64_t lost_unit;	/* TIP_LOST at the end */
	uint64_t lost_sw;	/* samples dropped by software (rejected, pending at the end) */
	uint64_t drains;	/* interrupts served */
	uint64_t csr_cycles;	/* unit cycles spent on CSR accesses (the core was stalled) */
	uint64_t unit_cycles;	/* unit cycles in all (core cycles + csr_cycles) */
};

struct recsim;	/* opaque */

/* Set up the unit model, program it through the hardware layer and open the sample file.
 * Returns the recorder, or NULL with a one-line reason in err (nothing left on disk). */
struct recsim *recsim_open(const struct recsim_cfg *cfg, char *err, size_t errlen);

/* One core cycle: clock the unit with rob, then serve its interrupt if raised. Returns 0,
 * or -1 with err set (the recorder must then be aborted). */
int recsim_cycle(struct recsim *r, const struct tiprof_rob_if *rob, char *err, size_t errlen);

/* Write an object record (sample file 1.1, docs/sample-file.md): an ELF object the program
 * has mapped executable, so readers can turn run-time sample addresses into (object,
 * link-time address). Any time between recsim_open and recsim_close. Returns 0, or -1 with
 * err set (an invalid record is refused: nothing written, the recording goes on). */
int recsim_object(struct recsim *r, const struct sf_object *o, char *err, size_t errlen);

/* The sample file being written, for another recorder of the same run to add its records to
 * (the ProfileMe recorder, sim/pm): valid until recsim_close() or recsim_abort(). */
struct sf_writer *recsim_writer(struct recsim *r);

/* Did the unit select a sample in the core cycle recsim_cycle last clocked? (Samples that
 * fire in the CSR-access cycles of a drain, when the core is stalled, are not counted.) */
int recsim_fired(const struct recsim *r);

/* Stop sampling, drain what is left, write the trailer and rename the file into place;
 * frees r. st (may be NULL) receives the accounting. Returns 0, or -1 with err set. */
int recsim_close(struct recsim *r, struct recsim_stats *st, char *err, size_t errlen);

/* Give up: remove the temporary file, free r (NULL is fine). */
void recsim_abort(struct recsim *r);

#endif /* TIPROF_RECSIM_H */
