/* SPDX-License-Identifier: Apache-2.0 */
/* VPI entry points of the selective-dispatch testbench (Icarus Verilog has no DPI-C): system
 * tasks $tiprof_sd_tb_init, $tiprof_sd_tb_tick and $tiprof_sd_tb_final move values between
 * tiprof_sd_tb.sv (compiled with TIPROF_VPI) and the same harness the DPI-C build uses. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tvpi.h"

#include "sd_harness.h"

_Static_assert(SD_WIRE_WORDS <= TVPI_MAX_WORDS, "a block's vector does not fit tvpi_put_words");

static struct sd_harness *sd_h;

static PLI_INT32 init_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[11];
	char bench[128], outdir[512];
	struct sd_cfg c;
	uint32_t rc;

	(void)unused;
	tvpi_args(a, 11, "$tiprof_sd_tb_init");
	c.w = (unsigned)tvpi_get_u64(a[1]);
	c.pcw = (unsigned)tvpi_get_u64(a[2]);
	c.ckpt = (unsigned)tvpi_get_u64(a[3]);
	c.entries = (unsigned)tvpi_get_u64(a[4]);
	c.poplat = (unsigned)tvpi_get_u64(a[5]);
	c.lockw = (unsigned)tvpi_get_u64(a[6]);
	tvpi_get_str(a[9], bench, sizeof(bench));
	tvpi_get_str(a[10], outdir, sizeof(outdir));
	rc = sd_harness_init(&sd_h, &c, bench, tvpi_get_u64(a[7]), tvpi_get_u64(a[8]), outdir,
			     "icarus") ? (uint32_t)-1 : 0;
	tvpi_put_words(a[0], &rc, 1);
	return 0;
}

static PLI_INT32 tick_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[8];
	uint32_t obs[3][SD_WIRE_WORDS], in[3][SD_WIRE_WORDS], rc, r32;
	int r = 0;

	(void)unused;
	tvpi_args(a, 8, "$tiprof_sd_tb_tick");
	for (int b = 0; b < 3; b++)
		tvpi_get_words(a[1 + b], obs[b], SD_WIRE_WORDS);
	memset(in, 0, sizeof(in));
	rc = (uint32_t)sd_harness_tick(sd_h, obs, &r, in);
	r32 = (uint32_t)r;
	tvpi_put_words(a[4], &r32, 1);
	for (int b = 0; b < 3; b++)
		tvpi_put_words(a[5 + b], in[b], SD_WIRE_WORDS);
	tvpi_put_words(a[0], &rc, 1);
	return 0;
}

static PLI_INT32 final_calltf(PLI_BYTE8 *unused)
{
	(void)unused;
	exit(sd_harness_final(sd_h));
}

static void sd_tb_register(void)
{
	tvpi_register_tb("tiprof_sd_tb", init_calltf, tick_calltf, final_calltf);
}

void (*vlog_startup_routines[])(void) = { sd_tb_register, NULL };
