/* SPDX-License-Identifier: Apache-2.0 */
/* VPI entry points of the TIP testbench (Icarus Verilog has no DPI-C): system tasks
 * $tiprof_tb_init, $tiprof_tb_tick and $tiprof_tb_final move values between tiprof_tb.sv
 * (compiled with TIPROF_VPI) and the same harness the DPI-C build uses. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vpi_user.h"

#include "harness.h"
#include "tb_wire.h"

/* VPI calls carry no context argument; the testbench has exactly one harness instance. */
static struct harness tb_harness;

#define MAX_ARGS 24

/* Collect the handles of the current system task's arguments; returns their number. */
static int vpi_args(vpiHandle *args)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	vpiHandle it = vpi_iterate(vpiArgument, call);
	int n = 0;
	vpiHandle a;

	while (it && (a = vpi_scan(it)) != NULL) {
		if (n < MAX_ARGS)
			args[n] = a;
		n++;
	}
	return n;
}

static uint64_t get_u64(vpiHandle h)
{
	s_vpi_value v = { .format = vpiVectorVal };
	int bits = vpi_get(vpiSize, h);

	vpi_get_value(h, &v);
	return (uint64_t)(uint32_t)v.value.vector[0].aval |
	       (bits > 32 ? (uint64_t)(uint32_t)v.value.vector[1].aval << 32 : 0);
}

static void put_words(vpiHandle h, const uint32_t *words, unsigned nwords)
{
	s_vpi_vecval vec[16];
	s_vpi_value v = { .format = vpiVectorVal };

	for (unsigned i = 0; i < nwords; i++) {
		vec[i].aval = (PLI_INT32)words[i];
		vec[i].bval = 0;
	}
	v.value.vector = vec;
	vpi_put_value(h, &v, NULL, vpiNoDelay);
}

static void put_u32(vpiHandle h, uint32_t x)
{
	put_words(h, &x, 1);
}

static PLI_INT32 init_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[MAX_ARGS];
	s_vpi_value sv = { .format = vpiStringVal };
	char bench[128], outdir[512];
	struct tip_model_cfg cfg;
	int rc;

	(void)unused;
	if (vpi_args(a) != 9) {
		vpi_printf("$tiprof_tb_init: expects 9 arguments\n");
		exit(2);
	}
	cfg.w = (unsigned)get_u64(a[1]);
	cfg.xlen = (unsigned)get_u64(a[2]);
	cfg.fifo_depth = (unsigned)get_u64(a[3]);
	cfg.input_stage = (unsigned)get_u64(a[4]);
	vpi_get_value(a[7], &sv);
	snprintf(bench, sizeof(bench), "%s", sv.value.str);
	sv.format = vpiStringVal;
	vpi_get_value(a[8], &sv);
	snprintf(outdir, sizeof(outdir), "%s", sv.value.str);
	rc = harness_init(&tb_harness, &cfg, bench, get_u64(a[5]), get_u64(a[6]), outdir,
			  "icarus") ? -1 : 0;
	put_u32(a[0], (uint32_t)rc);
	return 0;
}

static PLI_INT32 tick_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[MAX_ARGS];
	struct tb_out out;
	struct tb_in in;
	struct tb_wire w;
	int rc;

	(void)unused;
	if (vpi_args(a) != 22) {
		vpi_printf("$tiprof_tb_tick: expects 22 arguments\n");
		exit(2);
	}
	out.resp.rdata = get_u64(a[1]);
	out.resp.illegal = (int)get_u64(a[2]);
	out.irq = (int)get_u64(a[3]);
	rc = harness_tick(&tb_harness, &out, &in);
	tb_wire_pack(&in, &w);
	put_u32(a[4], w.rst);
	put_u32(a[5], w.head_valid);
	put_u32(a[6], w.head_commit);
	put_words(a[7], w.head_pc, 16);
	put_u32(a[8], w.head_mispred);
	put_u32(a[9], w.head_flush);
	put_u32(a[10], w.head_bank);
	put_u32(a[11], w.exception);
	put_u32(a[12], w.disp_valid);
	put_words(a[13], w.disp_pc, 16);
	put_words(a[14], w.disp_idx, 4);
	put_u32(a[15], w.priv);
	put_u32(a[16], w.ctx_id);
	put_u32(a[17], w.csr_req);
	put_u32(a[18], w.csr_we);
	put_u32(a[19], w.csr_addr);
	put_words(a[20], w.csr_wdata, 2);
	put_u32(a[21], w.csr_priv);
	put_u32(a[0], (uint32_t)rc);
	return 0;
}

static PLI_INT32 final_calltf(PLI_BYTE8 *unused)
{
	(void)unused;
	exit(harness_final(&tb_harness));
}

static void register_task(const char *name, PLI_INT32 (*calltf)(PLI_BYTE8 *))
{
	s_vpi_systf_data tf;

	memset(&tf, 0, sizeof(tf));
	tf.type = vpiSysTask;
	tf.tfname = (PLI_BYTE8 *)(uintptr_t)name;
	tf.calltf = calltf;
	vpi_register_systf(&tf);
}

static void tiprof_tb_register(void)
{
	register_task("$tiprof_tb_init", init_calltf);
	register_task("$tiprof_tb_tick", tick_calltf);
	register_task("$tiprof_tb_final", final_calltf);
}

void (*vlog_startup_routines[])(void) = { tiprof_tb_register, NULL };
