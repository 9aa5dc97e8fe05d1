/* SPDX-License-Identifier: Apache-2.0 */
/* DPI-C entry points of the ProfileMe testbench (Verilator): move values between
 * tiprof_pm_tb.sv and pm_harness.c. Compiled by gcc as C; the prototypes are checked against
 * Verilator's generated Vtiprof_pm_tb__Dpi.h. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "svdpi.h"
#include "Vtiprof_pm_tb__Dpi.h"

#include "pm_harness.h"

/* DPI calls carry no context argument; the testbench has exactly one harness instance. */
static struct pm_harness *pm_h;

/* A failed RTL assertion ends a Verilated run in abort() after printing its name: record the
 * failure the harness way and exit non-zero. */
static void pm_on_abort(int sig)
{
	(void)sig;
	signal(SIGABRT, SIG_DFL);
	fflush(stdout);
	pm_harness_fail(pm_h, "the simulator stopped: an RTL assertion failed (its name is in the "
		       "'Assertion failed' line above)");
	pm_harness_final(pm_h);
	fflush(stdout);
	_exit(1);
}

int pm_tb_init(int f, int xlen, int depth, int tags, int stage, long long seed, long long cycles,
	       const char *bench, const char *outdir)
{
	struct pm_model_cfg cfg = { (unsigned)f, (unsigned)xlen, (unsigned)depth, (unsigned)tags };

	signal(SIGABRT, pm_on_abort);
	return pm_harness_init(&pm_h, &cfg, stage, bench, (uint64_t)seed, (uint64_t)cycles, outdir,
			       "verilator") ? -1 : 0;
}

int pm_tb_tick(const svBitVecVal *tag, const svBitVecVal *rdata, svBit illegal, svBit irq,
	       svBitVecVal *ctl, svBitVecVal *w)
{
	struct pm_obs o;
	struct pm_drive d;
	int rc;

	o.tag = (uint16_t)tag[0];
	o.rdata = (uint64_t)rdata[0] | (uint64_t)rdata[1] << 32;
	o.illegal = illegal;
	o.irq = irq;
	rc = pm_harness_tick(pm_h, &o, &d);
	ctl[0] = (uint32_t)(!!d.rst) | (uint32_t)(!!d.csr.req) << 1 | (uint32_t)(!!d.csr.we) << 2 |
		 (uint32_t)(d.csr.priv & 3u) << 3 | (uint32_t)(d.csr.addr & 0xFFFu) << 5 |
		 (uint32_t)(!!d.check) << 17;
	ctl[1] = 0;
	ctl[2] = (uint32_t)d.csr.wdata;
	ctl[3] = (uint32_t)(d.csr.wdata >> 32);
	memcpy(w, d.w, sizeof(d.w));
	return rc;
}

int pm_tb_final(void)
{
	exit(pm_harness_final(pm_h));
}
