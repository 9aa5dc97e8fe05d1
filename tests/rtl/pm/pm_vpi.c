/* SPDX-License-Identifier: Apache-2.0 */
/* VPI entry points of the ProfileMe testbench (Icarus Verilog has no DPI-C): system tasks
 * $tiprof_pm_tb_init, $tiprof_pm_tb_tick and $tiprof_pm_tb_final move values between
 * tiprof_pm_tb.sv (compiled with TIPROF_VPI) and the same harness the DPI-C build uses. */
#include <stdint.h>
#include <stdlib.h>

#include "tvpi.h"

#include "pm_harness.h"

_Static_assert(TIPROF_PM_WIRE_WORDS <= TVPI_MAX_WORDS, "the wire does not fit one tvpi_put_words");

static struct pm_harness *pm_h;

static PLI_INT32 init_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[10];
	char bench[128], outdir[512];
	struct pm_model_cfg cfg;
	uint32_t rc;
	int stage;

	(void)unused;
	tvpi_args(a, 10, "$tiprof_pm_tb_init");
	cfg.f = (unsigned)tvpi_get_u64(a[1]);
	cfg.xlen = (unsigned)tvpi_get_u64(a[2]);
	cfg.fifo_depth = (unsigned)tvpi_get_u64(a[3]);
	cfg.tags = (unsigned)tvpi_get_u64(a[4]);
	stage = (int)tvpi_get_u64(a[5]);
	tvpi_get_str(a[8], bench, sizeof(bench));
	tvpi_get_str(a[9], outdir, sizeof(outdir));
	rc = pm_harness_init(&pm_h, &cfg, stage, bench, tvpi_get_u64(a[6]), tvpi_get_u64(a[7]),
			     outdir, "icarus") ? (uint32_t)-1 : 0;
	tvpi_put_words(a[0], &rc, 1);
	return 0;
}

static PLI_INT32 tick_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[7];
	struct pm_obs o;
	struct pm_drive d;
	uint32_t ctl[4], rc;

	(void)unused;
	tvpi_args(a, 7, "$tiprof_pm_tb_tick");
	o.tag = (uint16_t)tvpi_get_u64(a[1]);
	o.rdata = tvpi_get_u64(a[2]);
	o.illegal = (int)tvpi_get_u64(a[3]);
	o.irq = (int)tvpi_get_u64(a[4]);
	rc = (uint32_t)pm_harness_tick(pm_h, &o, &d);
	ctl[0] = (uint32_t)(!!d.rst) | (uint32_t)(!!d.csr.req) << 1 | (uint32_t)(!!d.csr.we) << 2 |
		 (uint32_t)(d.csr.priv & 3u) << 3 | (uint32_t)(d.csr.addr & 0xFFFu) << 5 |
		 (uint32_t)(!!d.check) << 17;
	ctl[1] = 0;
	ctl[2] = (uint32_t)d.csr.wdata;
	ctl[3] = (uint32_t)(d.csr.wdata >> 32);
	tvpi_put_words(a[5], ctl, 4);
	tvpi_put_words(a[6], d.w, TIPROF_PM_WIRE_WORDS);
	tvpi_put_words(a[0], &rc, 1);
	return 0;
}

static PLI_INT32 final_calltf(PLI_BYTE8 *unused)
{
	(void)unused;
	exit(pm_harness_final(pm_h));
}

static void pm_tb_register(void)
{
	tvpi_register_tb("tiprof_pm_tb", init_calltf, tick_calltf, final_calltf);
}

void (*vlog_startup_routines[])(void) = { pm_tb_register, NULL };
