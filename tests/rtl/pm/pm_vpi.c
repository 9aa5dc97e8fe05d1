/* SPDX-License-Identifier: Apache-2.0 */
/* VPI entry points of the ProfileMe testbench (Icarus Verilog has no DPI-C): system tasks
 * $tiprof_pm_tb_init, $tiprof_pm_tb_tick and $tiprof_pm_tb_final move values between
 * tiprof_pm_tb.sv (compiled with TIPROF_VPI) and the same harness the DPI-C build uses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpi_user.h"

#include "pm_harness.h"

static struct pm_harness *pm_h;

#define MAX_ARGS 12

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
	s_vpi_vecval vec[TIPROF_PM_WIRE_WORDS];
	s_vpi_value v = { .format = vpiVectorVal };

	for (unsigned i = 0; i < nwords; i++) {
		vec[i].aval = (PLI_INT32)words[i];
		vec[i].bval = 0;
	}
	v.value.vector = vec;
	vpi_put_value(h, &v, NULL, vpiNoDelay);
}

static PLI_INT32 init_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[MAX_ARGS];
	s_vpi_value sv = { .format = vpiStringVal };
	char bench[128], outdir[512];
	struct pm_model_cfg cfg;
	uint32_t rc;
	int stage;

	(void)unused;
	if (vpi_args(a) != 10) {
		vpi_printf("$tiprof_pm_tb_init: expects 10 arguments\n");
		exit(2);
	}
	cfg.f = (unsigned)get_u64(a[1]);
	cfg.xlen = (unsigned)get_u64(a[2]);
	cfg.fifo_depth = (unsigned)get_u64(a[3]);
	cfg.tags = (unsigned)get_u64(a[4]);
	stage = (int)get_u64(a[5]);
	vpi_get_value(a[8], &sv);
	snprintf(bench, sizeof(bench), "%s", sv.value.str);
	sv.format = vpiStringVal;
	vpi_get_value(a[9], &sv);
	snprintf(outdir, sizeof(outdir), "%s", sv.value.str);
	rc = pm_harness_init(&pm_h, &cfg, stage, bench, get_u64(a[6]), get_u64(a[7]), outdir,
			     "icarus") ? (uint32_t)-1 : 0;
	put_words(a[0], &rc, 1);
	return 0;
}

static PLI_INT32 tick_calltf(PLI_BYTE8 *unused)
{
	vpiHandle a[MAX_ARGS];
	struct pm_obs o;
	struct pm_drive d;
	uint32_t ctl[4], rc;

	(void)unused;
	if (vpi_args(a) != 7) {
		vpi_printf("$tiprof_pm_tb_tick: expects 7 arguments\n");
		exit(2);
	}
	o.tag = (uint16_t)get_u64(a[1]);
	o.rdata = get_u64(a[2]);
	o.illegal = (int)get_u64(a[3]);
	o.irq = (int)get_u64(a[4]);
	rc = (uint32_t)pm_harness_tick(pm_h, &o, &d);
	ctl[0] = (uint32_t)(!!d.rst) | (uint32_t)(!!d.csr.req) << 1 | (uint32_t)(!!d.csr.we) << 2 |
		 (uint32_t)(d.csr.priv & 3u) << 3 | (uint32_t)(d.csr.addr & 0xFFFu) << 5 |
		 (uint32_t)(!!d.check) << 17;
	ctl[1] = 0;
	ctl[2] = (uint32_t)d.csr.wdata;
	ctl[3] = (uint32_t)(d.csr.wdata >> 32);
	put_words(a[5], ctl, 4);
	put_words(a[6], d.w, TIPROF_PM_WIRE_WORDS);
	put_words(a[0], &rc, 1);
	return 0;
}

static PLI_INT32 final_calltf(PLI_BYTE8 *unused)
{
	(void)unused;
	exit(pm_harness_final(pm_h));
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

static void pm_tb_register(void)
{
	register_task("$tiprof_pm_tb_init", init_calltf);
	register_task("$tiprof_pm_tb_tick", tick_calltf);
	register_task("$tiprof_pm_tb_final", final_calltf);
}

void (*vlog_startup_routines[])(void) = { pm_tb_register, NULL };
