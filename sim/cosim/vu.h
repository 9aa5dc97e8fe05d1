/* SPDX-License-Identifier: Apache-2.0 */
/* The Verilated TIP unit driven from C (sim/cosim/tiprof_vu.sv built with Verilator's
 * --lib-create): C owns the loop and clocks the RTL one cycle per call, through the DPI-C entry
 * points Verilator generates (no SystemVerilog testbench, no timing, no callback into C).
 * vu.c is compiled once per Verilator build, against its generated prototypes, with
 * -DVU_W=.. -DVU_XLEN=.. -DVU_DEPTH=.. naming the build's parameters. */
#ifndef TIPROF_VU_H
#define TIPROF_VU_H

#include <stddef.h>

#include "tb.h"

struct vu;

/* Instantiate the RTL unit. cfg must equal the build's parameters. Returns the unit (in reset
 * until the first cycle without tb_in.rst) or NULL with a reason in err. */
struct vu *vu_open(const struct tip_model_cfg *cfg, char *err, size_t errlen);

/* One clock cycle: apply in (reset, ROB interface, CSR request) for this cycle, return the
 * unit's outputs in this cycle (CSR response, irq_o) in out. The clock edge that ends the cycle
 * is taken at the start of the next call (the unit's state and irq_o follow then). */
void vu_cycle(struct vu *u, const struct tb_in *in, struct tb_out *out);

/* Run final blocks and free the unit (NULL is fine). */
void vu_close(struct vu *u);

#endif /* TIPROF_VU_H */
