/* SPDX-License-Identifier: Apache-2.0 */
/* The ProfileMe testbench harness (tests/rtl/pm/): a bench generates the unit's ProfileMe and CSR
 * inputs one cycle at a time, the C reference model (sim/model/pm_model.c) runs the same cycle,
 * and every output of the RTL (pm_tag_o, csr_rdata_o, csr_illegal_o, irq_o) is compared with the
 * model's in every cycle. Shared by the DPI-C (Verilator) and VPI (Icarus) entry points. */
#ifndef TIPROF_PM_HARNESS_H
#define TIPROF_PM_HARNESS_H

#include <stdint.h>
#include <stdio.h>

#include "pm_model.h"
#include "tiprof/tiprof_pm_wire.h"

/* What the RTL answered in the cycle that ends now. */
struct pm_obs {
	uint16_t tag;     /* pm_tag_o, slot i at bits [2i +: 2] */
	uint64_t rdata;   /* csr_rdata_o */
	int illegal;      /* csr_illegal_o */
	int irq;          /* irq_o */
};

/* The inputs of the next cycle, as the testbench applies them. */
struct pm_drive {
	int rst;                 /* reset (rst_ni low) */
	struct pm_csr_req csr;   /* CSR request */
	int check;               /* the events the unit sees next cycle keep the contract */
	uint32_t w[TIPROF_PM_WIRE_WORDS]; /* ProfileMe inputs (tiprof_pm_wire_pack) */
};

struct pm_harness;

/* Set up the harness for a unit configuration and a bench: 0, or -1 with a message printed. */
int pm_harness_init(struct pm_harness **hp, const struct pm_model_cfg *cfg, int stage,
		    const char *bench, uint64_t seed, uint64_t cycles, const char *outdir,
		    const char *sim);
/* One clock edge: obs holds the RTL's outputs for the cycle that ends now (ignored at the first
 * call); fills d with the next cycle's inputs. Returns 0 to go on, 1 when done or failed. */
int pm_harness_tick(struct pm_harness *h, const struct pm_obs *obs, struct pm_drive *d);
/* Print the summary line; returns the process exit status (0 pass). */
int pm_harness_final(struct pm_harness *h);
/* Record an external failure (an RTL assertion stopped the simulator). */
void pm_harness_fail(struct pm_harness *h, const char *why);

#endif /* TIPROF_PM_HARNESS_H */
