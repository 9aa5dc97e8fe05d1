/* SPDX-License-Identifier: Apache-2.0 */
/* The Verilated RTL unit as the unit of `tiprof sim --profile` (tiprof-cosim-Nwide, cosim.c):
 * the RTL clocked in lockstep with the C model, every cycle compared (docs/report.md). */
#ifndef TIPROF_COSIM_H
#define TIPROF_COSIM_H

#include <stddef.h>
#include <stdint.h>

#include "recsim.h"

struct cosim_unit;

/* The recorder's view of it (struct recsim_cfg.unit, with the unit as unit_ctx). */
extern const struct recsim_unit_ops cosim_unit_ops;

/* The RTL unit of commit width w, XLEN 64, RECSIM_DEPTH entries (the build's parameters) and
 * its C model, both reset; on a difference the last cycles go to the VCD file vcd_path.
 * Returns NULL with a reason in err. */
struct cosim_unit *cosim_unit_open(unsigned w, const char *vcd_path, char *err, size_t errlen);

/* Unit cycles on which the RTL's outputs were compared with the C model's and agreed. */
uint64_t cosim_unit_checked(const struct cosim_unit *c);

/* Free everything (NULL is fine). */
void cosim_unit_close(struct cosim_unit *c);

#endif /* TIPROF_COSIM_H */
