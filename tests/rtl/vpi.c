/* SPDX-License-Identifier: Apache-2.0 */
/* VPI entry points of the TIP testbench (Icarus Verilog has no DPI-C): system tasks
 * $tiprof_tb_init, $tiprof_tb_tick and $tiprof_tb_final move values between tiprof_tb.sv
 * (compiled with TIPROF_VPI) and the same harness the DPI-C build uses. */
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
	tvpi_put_u32(a[4], w.rst);
	tvpi_put_u32(a[5], w.head_valid);
	tvpi_put_u32(a[6], w.head_commit);
	tvpi_put_words(a[7], w.head_pc, 16);
	tvpi_put_u32(a[8], w.head_mispred);
	tvpi_put_u32(a[9], w.head_flush);
	tvpi_put_u32(a[10], w.head_bank);
	tvpi_put_u32(a[11], w.exception);
	tvpi_put_u32(a[12], w.disp_valid);
	tvpi_put_words(a[13], w.disp_pc, 16);
	tvpi_put_words(a[14], w.disp_idx, 4);
	tvpi_put_u32(a[15], w.priv);
	tvpi_put_u32(a[16], w.ctx_id);
	tvpi_put_u32(a[17], w.csr_req);
	tvpi_put_u32(a[18], w.csr_we);
	tvpi_put_u32(a[19], w.csr_addr);
	tvpi_put_words(a[20], w.csr_wdata, 2);
	tvpi_put_u32(a[21], w.csr_priv);
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
