/* SPDX-License-Identifier: Apache-2.0 */
/* VPI entry points of the TIP testbench (Icarus Verilog has no DPI-C): system tasks
 * $tiprof_tb_init, $tiprof_tb_tick and $tiprof_tb_final move values between tiprof_tb.sv
 * (compiled with TIPROF_VPI) and the same harness the DPI-C build uses. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tvpi.h"

#include "harness.h"
#include "tb_wire.h"

/* VPI calls carry no context argument; the testbench has exactly one harness instance. */
static struct harness tb_harness;

static PLI_INT32 init_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[9];
	char bench[128], outdir[512];
	struct tip_model_cfg cfg;
	int rc;

	(void)unused;
	tvpi_args(a, 9, "$tiprof_tb_init");
	cfg.w = (unsigned)tvpi_get_u64(a[1]);
	cfg.xlen = (unsigned)tvpi_get_u64(a[2]);
	cfg.fifo_depth = (unsigned)tvpi_get_u64(a[3]);
	cfg.input_stage = (unsigned)tvpi_get_u64(a[4]);
	tvpi_get_str(a[7], bench, sizeof(bench));
	tvpi_get_str(a[8], outdir, sizeof(outdir));
	rc = harness_init(&tb_harness, &cfg, bench, tvpi_get_u64(a[5]), tvpi_get_u64(a[6]), outdir,
			  "icarus") ? -1 : 0;
	tvpi_put_u32(a[0], (uint32_t)rc);
	return 0;
}

/* $tiprof_tb_tick's outputs a[4..21]: the tb_wire fields in tiprof_tb.sv's argument order. */
#define TICK_OUT(f) { offsetof(struct tb_wire, f), sizeof(((struct tb_wire *)0)->f) / 4u }
static const struct {
	size_t off;             /* the field's offset in struct tb_wire */
	unsigned words;         /* its 32-bit words */
} tick_out[] = {
	TICK_OUT(rst), TICK_OUT(head_valid), TICK_OUT(head_commit), TICK_OUT(head_pc),
	TICK_OUT(head_mispred), TICK_OUT(head_flush), TICK_OUT(head_bank), TICK_OUT(exception),
	TICK_OUT(disp_valid), TICK_OUT(disp_pc), TICK_OUT(disp_idx), TICK_OUT(priv),
	TICK_OUT(ctx_id), TICK_OUT(csr_req), TICK_OUT(csr_we), TICK_OUT(csr_addr),
	TICK_OUT(csr_wdata), TICK_OUT(csr_priv),
};
_Static_assert(sizeof(tick_out) / sizeof(tick_out[0]) == 22 - 4, "a[4..21]");

static PLI_INT32 tick_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[22];
	struct tb_out out;
	struct tb_in in;
	struct tb_wire w;
	int rc;

	(void)unused;
	tvpi_args(a, 22, "$tiprof_tb_tick");
	out.resp.rdata = tvpi_get_u64(a[1]);
	out.resp.illegal = (int)tvpi_get_u64(a[2]);
	out.irq = (int)tvpi_get_u64(a[3]);
	rc = harness_tick(&tb_harness, &out, &in);
	tb_wire_pack(&in, &w);
	for (unsigned i = 0; i < sizeof(tick_out) / sizeof(tick_out[0]); i++)
		tvpi_put_words(a[4 + i], (const uint32_t *)((const char *)&w + tick_out[i].off),
			       tick_out[i].words);
	tvpi_put_u32(a[0], (uint32_t)rc);
	return 0;
}

static PLI_INT32 final_calltf(PLI_BYTE8 *unused)
{
	(void)unused;
	exit(harness_final(&tb_harness));
}

static void tiprof_tb_register(void)
{
	tvpi_register_tb("tiprof_tb", init_calltf, tick_calltf, final_calltf);
}

void (*vlog_startup_routines[])(void) = { tiprof_tb_register, NULL };
