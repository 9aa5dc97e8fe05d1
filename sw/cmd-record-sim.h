/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-record-sim.h - `tiprof sim --profile`: the co-simulated recording path. The TIP
 * unit's C reference model sees the core's ROB interface every cycle; when it raises its
 * interrupt, the driver's hardware layer (driver/hw, the kernel module's own source) drains
 * the FIFO through CSR accessors that each clock the unit one cycle, and the samples go to
 * the sample-file writer. How the drain cycles are kept out of the profile: docs/report.md.
 */
#ifndef TIPROF_CMD_RECORD_SIM_H
#define TIPROF_CMD_RECORD_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "tiprof/tiprof_regs.h"

/* What to record. */
struct recsim_cfg {
	const char *path;	/* sample file to write */
	const char *elf;	/* the workload ELF (path and build-id go in the header) */
	unsigned w;		/* the core's commit width (the unit's W) */
	uint32_t period;	/* sampling period, cycles */
	unsigned rand_bits;	/* k of TIP's random interval; periodic if 0 */
};

/* Outcome of a recording. */
struct recsim_stats {
	uint64_t samples;	/* samples written */
	uint64_t lost_unit;	/* TIP_LOST at the end */
	uint64_t lost_sw;	/* samples dropped by software (rejected, pending at the end) */
	uint64_t drains;	/* interrupts served */
	uint64_t csr_cycles;	/* unit cycles spent on CSR accesses (the core was stalled) */
};

struct recsim;	/* opaque */

/* Set up the unit model, program it through the hardware layer and open the sample file.
 * Returns the recorder, or NULL with a one-line reason in err (nothing left on disk). */
struct recsim *recsim_open(const struct recsim_cfg *cfg, char *err, size_t errlen);

/* One core cycle: clock the unit with rob, then serve its interrupt if raised. Returns 0,
 * or -1 with err set (the recorder must then be aborted). */
int recsim_cycle(struct recsim *r, const struct tiprof_rob_if *rob, char *err, size_t errlen);

/* Stop sampling, drain what is left, write the trailer and rename the file into place;
 * frees r. st (may be NULL) receives the accounting. Returns 0, or -1 with err set. */
int recsim_close(struct recsim *r, struct recsim_stats *st, char *err, size_t errlen);

/* Give up: remove the temporary file, free r (NULL is fine). */
void recsim_abort(struct recsim *r);

#endif /* TIPROF_CMD_RECORD_SIM_H */
