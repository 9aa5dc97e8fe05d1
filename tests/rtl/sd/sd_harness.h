/* SPDX-License-Identifier: Apache-2.0 */
/* The selective-dispatch testbench harness (tests/rtl/sd/): a bench generates the inputs of the
 * three front-end blocks (tiprof_sd_flags, tiprof_sd_filter, tiprof_sd_fpred) one cycle at a
 * time, the C model (sim/model/sd_model.c) runs the same cycle, and every RTL output is compared
 * with the model's every cycle. Shared by the DPI-C (Verilator) and VPI (Icarus) entry points and
 * the model-only runner.
 *
 * The wire: three input vectors (flags, filter, predictor) and three output vectors of
 * SD_WIRE_WORDS 32-bit words each, fields packed from bit 0 in the order of the ports in
 * docs/seldisp-rtl.md (tiprof_sd_tb.sv unpacks them with one concatenation per block). */
#ifndef TIPROF_SD_HARNESS_H
#define TIPROF_SD_HARNESS_H

#include <stdint.h>

#include "sd_model.h"

#define SD_WIRE_WORDS 32

struct sd_cfg {
	unsigned w;        /* decode / fetch slots (filter, predictor) and retire slots (flags) */
	unsigned pcw;      /* address width */
	unsigned ckpt;     /* checkpoint slots */
	unsigned entries;  /* BDT entries */
	unsigned poplat;   /* poppf hazard */
	unsigned lockw;    /* in-flight writer counter width */
};

struct sd_harness;

int sd_harness_init(struct sd_harness **hp, const struct sd_cfg *cfg, const char *bench,
		    uint64_t seed, uint64_t cycles, const char *outdir, const char *sim);
/* One rising edge: obs[3][SD_WIRE_WORDS] = the RTL's outputs of the cycle that ends now (flags,
 * filter, predictor; ignored at the first call); fills *rst and in[3][SD_WIRE_WORDS] with the next
 * cycle's inputs. 0 to go on, 1 when done or failed. */
int sd_harness_tick(struct sd_harness *h, uint32_t obs[3][SD_WIRE_WORDS], int *rst,
		    uint32_t in[3][SD_WIRE_WORDS]);
/* The model's outputs of the cycle in flight, packed as the RTL's would be (loopback runner). */
void sd_harness_expected(const struct sd_harness *h, uint32_t obs[3][SD_WIRE_WORDS]);
int sd_harness_final(struct sd_harness *h);
void sd_harness_fail(struct sd_harness *h, const char *why);

#endif /* TIPROF_SD_HARNESS_H */
