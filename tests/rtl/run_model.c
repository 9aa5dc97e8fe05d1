/* SPDX-License-Identifier: Apache-2.0 */
/* Runs a TIP bench against the C reference model alone (no RTL): checks the benches' own
 * expectations (the paper's worked examples) on the model, and is the fast path of the tests.
 * Compiled with -DTIP_RUN_VU (tip_run_vu), it runs the bench on the Verilated RTL driven from C
 * (vu.c), compared with the C model every cycle unless TIPROF_TB_NOCOMPARE is set.
 * Usage: tip_run_model --bench NAME [--w W] [--xlen X] [--depth D] [--stage 0|1] [--seed S] [--cycles N]
 *                      [--outdir DIR] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_sva.h"
#include "harness.h"
#ifdef TIP_RUN_VU
#include "vu.h"
#define RUNNER "tip_run_vu"
#define SIM "vu"
#else
#define RUNNER "tip_run_model"
#define SIM "model"
#endif

static int arg_u64(const char *s, unsigned long long *out)
{
	char *end;

	*out = strtoull(s, &end, 0);
	return *s && !*end ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct tip_model_cfg cfg = { 4, 64, 8, 0 };
	unsigned long long seed = 1, cycles = 100000, v;
	const char *bench = NULL, *outdir = ".";
	struct harness h;
	struct tb_in next;
	int rc;
#ifdef TIP_RUN_VU
	struct tb_out out;
	struct vu *u;
	char err[256];
#endif

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (i + 1 >= argc) {
			fprintf(stderr, RUNNER ": %s needs a value\n", a);
			return 2;
		}
		if (!strcmp(a, "--bench")) {
			bench = argv[++i];
			continue;
		}
		if (!strcmp(a, "--outdir")) {
			outdir = argv[++i];
			continue;
		}
		if (arg_u64(argv[++i], &v)) {
			fprintf(stderr, RUNNER ": %s: '%s' is not a number\n", a, argv[i]);
			return 2;
		}
		if (!strcmp(a, "--w"))
			cfg.w = (unsigned)v;
		else if (!strcmp(a, "--xlen"))
			cfg.xlen = (unsigned)v;
		else if (!strcmp(a, "--depth"))
			cfg.fifo_depth = (unsigned)v;
		else if (!strcmp(a, "--stage"))
			cfg.input_stage = (unsigned)v;
		else if (!strcmp(a, "--seed"))
			seed = v;
		else if (!strcmp(a, "--cycles"))
			cycles = v;
		else {
			fprintf(stderr, RUNNER ": unknown option %s\n", a);
			return 2;
		}
	}
	if (!bench) {
		fprintf(stderr, RUNNER ": --bench NAME is required\n");
		return 2;
	}
	if (harness_init(&h, &cfg, bench, seed, cycles, outdir, SIM) != 0)
		return harness_final(&h);
#ifdef TIP_RUN_VU
	u = vu_open(&cfg, err, sizeof(err));
	if (!u) {
		tb_fail(&h.tb, "%s", err);
		return harness_final(&h);
	}
	next = h.in;
	do {
		next.rob_nocheck = tb_rob_contract_off; /* the bench's contract-breaking phases */
		vu_cycle(u, &next, &out);
		rc = harness_tick(&h, &out, &next);
	} while (rc == 0);
	rc = harness_final(&h);
	vu_close(u);
	return rc;
#else
	do
		rc = harness_tick(&h, NULL, &next);
	while (rc == 0);
	return harness_final(&h);
#endif
}
