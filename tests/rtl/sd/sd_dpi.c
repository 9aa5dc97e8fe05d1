/* SPDX-License-Identifier: Apache-2.0 */
/* DPI-C entry points of the selective-dispatch testbench (Verilator): move values between
 * tiprof_sd_tb.sv and sd_harness.c. Compiled by gcc as C; the prototypes are checked against
 * Verilator's generated Vtiprof_sd_tb__Dpi.h. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "svdpi.h"
#include "Vtiprof_sd_tb__Dpi.h"

#include "sd_harness.h"

static struct sd_harness *sd_h;

/* A failed RTL assertion ends a Verilated run in abort() after printing its name. */
static void sd_on_abort(int sig)
{
	(void)sig;
	signal(SIGABRT, SIG_DFL);
	fflush(stdout);
	sd_harness_fail(sd_h, "the simulator stopped: an RTL assertion failed (its name is in the "
		       "'Assertion failed' line above)");
	sd_harness_final(sd_h);
	fflush(stdout);
	_exit(1);
}

int sd_tb_init(int w, int pcw, int ckpt, int entries, int poplat, int lockw, long long seed,
	       long long cycles, const char *bench, const char *outdir)
{
	struct sd_cfg c = { (unsigned)w, (unsigned)pcw, (unsigned)ckpt, (unsigned)entries,
			    (unsigned)poplat, (unsigned)lockw };

	signal(SIGABRT, sd_on_abort);
	return sd_harness_init(&sd_h, &c, bench, (uint64_t)seed, (uint64_t)cycles, outdir,
			       "verilator") ? -1 : 0;
}

int sd_tb_tick(const svBitVecVal *fo, const svBitVecVal *dout, const svBitVecVal *po, svBit *rst,
	       svBitVecVal *fi, svBitVecVal *di, svBitVecVal *pi)
{
	uint32_t obs[3][SD_WIRE_WORDS], in[3][SD_WIRE_WORDS];
	int r = 0, rc;

	memcpy(obs[0], fo, sizeof(obs[0]));
	memcpy(obs[1], dout, sizeof(obs[1]));
	memcpy(obs[2], po, sizeof(obs[2]));
	memset(in, 0, sizeof(in));
	rc = sd_harness_tick(sd_h, obs, &r, in);
	*rst = (svBit)r;
	memcpy(fi, in[0], sizeof(in[0]));
	memcpy(di, in[1], sizeof(in[1]));
	memcpy(pi, in[2], sizeof(in[2]));
	return rc;
}

int sd_tb_final(void)
{
	exit(sd_harness_final(sd_h));
}
