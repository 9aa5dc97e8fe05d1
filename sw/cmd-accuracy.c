/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-accuracy.c - `tiprof accuracy [--config C] [--period P] [--rand-bits K] [--periodic]
 * [--json] [--rob-trace FILE] ELF [ARGS]`: runs a static riscv64 ELF on the timing model,
 * samples it with the C TIP model (the unit's reference, programmed through its CSR port and
 * drained every cycle) and judges every ROB-level policy against the Oracle at instruction
 * level (sim/policy). Two Oracles are computed independently — the core's (sim/oracle) and the
 * ROB-stream one (sim/policy) — and must agree address by address; TIP's profile must equal
 * the Ideal sampler's exactly (its systematic error is zero). --rob-trace records the core's
 * ROB interface for replay through the RTL (docs/rob-trace.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "code_map.h"
#include "core.h"
#include "oracle.h"
#include "rob_policies.h"
#include "rob_trace.h"
#include "tip_model.h"
#include "tiprof.h"

extern char **environ;

/* State of one accuracy run. */
struct acc_ctx {
	const char *config;         /* core preset */
	uint32_t period;            /* sampling period in cycles */
	unsigned rand_bits;         /* k of the random mode */
	int periodic;               /* periodic instead of TIP's random interval */
	int json;                   /* one JSON object on stdout */
	const char *trace_path;     /* ROB trace to record, or NULL */
	char **prog_argv;           /* ELF and arguments */
	struct iss *iss;
	struct core *core;
	struct oracle orc;          /* the core's Oracle */
	struct rob_policies rp;     /* ROB-level Oracle and policies */
	struct tip_model tip;       /* the TIP unit's reference model */
	struct rob_trace_writer tw; /* the trace being recorded */
	struct code_map map;        /* functions and basic blocks of the ELF */
	uint64_t tip_samples;       /* samples drained from the unit */
	double oracle_maxdiff;      /* largest per-address difference of the two Oracles */
	double tip_ideal_maxdiff;   /* largest per-address difference of TIP and Ideal */
	char err[512];              /* message of a failure */
};

static void csr_write(struct tip_csr_req *q, uint16_t addr, uint64_t v)
{
	q->req = 1;
	q->we = 1;
	q->addr = addr;
	q->wdata = v;
	q->priv = 3;
}

/* Simulate to the end, feeding the TIP model, the policies, the core's Oracle and the trace. */
static int acc_loop(struct acc_ctx *x)
{
	struct core_cycle_out o;
	struct tiprof_sample s;
	uint64_t cyc = 0;
	int r;

	do {
		struct tip_csr_req q = { 0 };

		r = core_cycle(x->core, &o);
		if (r < 0) {
			snprintf(x->err, sizeof(x->err), "%s", core_error(x->core));
			return -1;
		}
		if (cyc == 0)
			csr_write(&q, TIPROF_TIP_PERIOD, x->period);
		else if (cyc == 1)
			csr_write(&q, TIPROF_TIP_CTRL, 0xF1u |
				  (x->periodic ? TIPROF_MODE_PERIODIC : TIPROF_MODE_RANDOM_INTERVAL)
				  << TIPROF_TIP_CTRL_MODE_SHIFT | x->rand_bits << TIPROF_TIP_CTRL_RAND_BITS_SHIFT);
		tip_model_cycle(&x->tip, &o.rob, q.req ? &q : NULL, NULL);
		rob_policies_cycle(&x->rp, &o.rob, x->tip.fired);
		while (tip_model_pop(&x->tip, &s)) {
			x->tip_samples++;
			rob_policies_tip_sample(&x->rp, &s);
		}
		if (x->trace_path && rob_trace_writer_cycle(&x->tw, &o.rob) < 0) {
			snprintf(x->err, sizeof(x->err), "cannot write the ROB trace %s", x->trace_path);
			return -1;
		}
		if (oracle_cycle(&x->orc, &o.rob, o.head_kind))
			goto nomem;
		for (unsigned k = 0; k < o.n_retired; k++)
			if (oracle_count(&x->orc, o.retired[k]->pc))
				goto nomem;
		cyc++;
	} while (r > 0);
	if (oracle_finish(&x->orc))
		goto nomem;
	if (x->tip.pending) {
		snprintf(x->err, sizeof(x->err), "%u TIP samples still pending at the end of the run",
			 x->tip.pending);
		return -1;
	}
	for (int i = 0; i < POL_COUNT; i++)
		if (x->rp.prof[i].oom)
			goto nomem;
	return oracle_check(&x->orc, x->err, sizeof(x->err));
nomem:
	snprintf(x->err, sizeof(x->err), "out of memory for the profiles");
	return -1;
}

/* Compare the two Oracles and TIP with Ideal, address by address. */
static void acc_crosscheck(struct acc_ctx *x)
{
	const struct profile *ro = &x->rp.prof[POL_ORACLE];
	const struct profile *tip = &x->rp.prof[POL_TIP], *ideal = &x->rp.prof[POL_IDEAL];
	double d;

	for (size_t i = 0; i < x->orc.n; i++) {
		const struct oracle_ent *e = &x->orc.ent[i];
		double units = 0;

		for (unsigned c = 0; c < ORACLE_NCAT; c++)
			units += (double)e->units[c];
		/* relative: the ROB-stream Oracle sums 1/n in floating point */
		d = fabs(units / ORACLE_UNIT - profile_get(ro, e->pc)) / fmax(1.0, units / ORACLE_UNIT);
		if (d > x->oracle_maxdiff)
			x->oracle_maxdiff = d;
	}
	d = fabs(ro->total - (double)x->orc.cycles) / fmax(1.0, (double)x->orc.cycles);
	if (d > x->oracle_maxdiff)
		x->oracle_maxdiff = d;
	for (size_t i = 0; i < ideal->cap; i++)
		if (ideal->used[i]) {
			d = fabs(ideal->val[i] - profile_get(tip, ideal->key[i])) / fmax(1.0, ideal->val[i]);
			if (d > x->tip_ideal_maxdiff)
				x->tip_ideal_maxdiff = d;
		}
	for (size_t i = 0; i < tip->cap; i++)
		if (tip->used[i]) {
			d = fabs(tip->val[i] - profile_get(ideal, tip->key[i])) / fmax(1.0, tip->val[i]);
			if (d > x->tip_ideal_maxdiff)
				x->tip_ideal_maxdiff = d;
		}
}

static void acc_report(struct acc_ctx *x, FILE *out)
{
	const struct profile *orc = &x->rp.prof[POL_ORACLE];
	static const int shown[] = { POL_TIP, POL_TIP_ILP, POL_NCI, POL_NCI_ILP, POL_LCI };
	static const char *const lname[3] = { "instruction", "basic_block", "function" };
	double ideal[3], e[sizeof(shown) / sizeof(shown[0])][3];
	size_t np = sizeof(shown) / sizeof(shown[0]);

	for (int l = 0; l < 3; l++) {
		ideal[l] = code_map_error(&x->map, &x->rp.prof[POL_IDEAL], orc, (enum code_level)l);
		for (size_t i = 0; i < np; i++)
			e[i][l] = code_map_error(&x->map, &x->rp.prof[shown[i]], orc, (enum code_level)l);
	}
	if (x->json) {
		fprintf(out, "{\"workload\": \"%s\", \"config\": \"%s\", \"cycles\": %llu, "
			"\"samples\": %llu, \"period\": %u, \"mode\": \"%s\", \"lost\": %llu, "
			"\"functions\": %zu, \"basic_blocks\": %zu, "
			"\"oracle_crosscheck_maxdiff\": %.3g, \"tip_ideal_maxdiff\": %.3g, \"ideal\": {",
			x->prog_argv[0], x->config, (unsigned long long)x->rp.cycles,
			(unsigned long long)x->tip_samples, x->period,
			x->periodic ? "periodic" : "random-interval", (unsigned long long)x->tip.lost,
			x->map.nfunc, x->map.nleader, x->oracle_maxdiff, x->tip_ideal_maxdiff);
		for (int l = 0; l < 3; l++)
			fprintf(out, "%s\"%s\": %.6f", l ? ", " : "", lname[l], ideal[l]);
		fprintf(out, "}, \"policies\": {");
		for (size_t i = 0; i < np; i++) {
			fprintf(out, "%s\"%s\": {", i ? ", " : "", rob_policy_name[shown[i]]);
			for (int l = 0; l < 3; l++)
				fprintf(out, "%s\"%s\": %.6f", l ? ", " : "", lname[l], e[i][l]);
			fprintf(out, ", \"systematic\": {");
			for (int l = 0; l < 3; l++)
				fprintf(out, "%s\"%s\": %.6f", l ? ", " : "", lname[l], e[i][l] - ideal[l]);
			fprintf(out, "}}");
		}
		fprintf(out, "}}\n");
		return;
	}
	fprintf(out, "tiprof accuracy: %s on %s: %llu cycles, %llu TIP samples (%s, period %u), "
		"%llu lost\n", x->prog_argv[0], x->config, (unsigned long long)x->rp.cycles,
		(unsigned long long)x->tip_samples, x->periodic ? "periodic" : "random interval",
		x->period, (unsigned long long)x->tip.lost);
	fprintf(out, "  Oracle cross-check (core Oracle vs ROB-stream Oracle): largest relative "
		"difference %.3g over %zu addresses; TIP vs Ideal: %.3g\n", x->oracle_maxdiff,
		x->orc.n, x->tip_ideal_maxdiff);
	fprintf(out, "  error vs Oracle (systematic part in brackets; the rest is the statistical "
		"error of an ideal sampler):\n");
	fprintf(out, "    %-8s %20s %20s %20s\n", "policy", "instruction", "basic block", "function");
	fprintf(out, "    %-8s %9.2f%% %9s  %9.2f%% %9s  %9.2f%% %9s\n", "Ideal", 100 * ideal[0], "",
		100 * ideal[1], "", 100 * ideal[2], "");
	for (size_t i = 0; i < np; i++) {
		fprintf(out, "    %-8s", rob_policy_name[shown[i]]);
		for (int l = 0; l < 3; l++)
			fprintf(out, " %9.2f%% (%6.2f%%)", 100 * e[i][l], 100 * (e[i][l] - ideal[l]));
		fprintf(out, "\n");
	}
	fprintf(out, "  (%zu functions, %zu basic blocks recovered from the ELF)\n", x->map.nfunc,
		x->map.nleader);
}

static int acc_run(struct acc_ctx *x)
{
	struct core_cfg cfg;
	struct iss_config icfg;
	struct tip_model_cfg tcfg;
	int ret = TIPROF_EXIT_FAIL, saved = -1, tw_open = 0;
	FILE *out = stdout;

	memset(&icfg, 0, sizeof(icfg));
	core_cfg_preset(&cfg, x->config);
	tcfg.w = cfg.width;
	tcfg.xlen = 64;
	tcfg.fifo_depth = 64;
	if (oracle_init(&x->orc, cfg.width) || rob_policies_init(&x->rp, cfg.width) ||
	    tip_model_init(&x->tip, &tcfg)) {
		fprintf(stderr, "tiprof accuracy: out of memory\n");
		return TIPROF_EXIT_FAIL;
	}
	if (code_map_load(&x->map, x->prog_argv[0], x->err, sizeof(x->err)))
		goto fail;
	x->iss = iss_create(x->prog_argv[0], x->prog_argv, environ, &icfg, x->err, sizeof(x->err));
	if (!x->iss)
		goto fail;
	x->core = core_create(&cfg, x->iss, x->err, sizeof(x->err));
	if (!x->core)
		goto fail;
	if (x->trace_path) {
		struct rob_trace_hdr th = { cfg.width, 64, 7 };

		if (rob_trace_writer_open(&x->tw, x->trace_path, &th) < 0) {
			snprintf(x->err, sizeof(x->err), "cannot create the ROB trace %s", x->trace_path);
			goto fail;
		}
		tw_open = 1;
	}
	/* The program's standard output must not mix with the report. */
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 || !(out = fdopen(saved, "w"))) {
		snprintf(x->err, sizeof(x->err), "cannot redirect standard output");
		goto fail;
	}
	if (acc_loop(x))
		goto fail;
	if (tw_open) {
		tw_open = 0;
		if (rob_trace_writer_close(&x->tw) < 0) {
			snprintf(x->err, sizeof(x->err), "cannot write the ROB trace %s", x->trace_path);
			goto fail;
		}
	}
	acc_crosscheck(x);
	acc_report(x, out);
	if (x->oracle_maxdiff > 1e-9 || x->tip_ideal_maxdiff > 1e-9) {
		snprintf(x->err, sizeof(x->err), "self-check failed: the Oracles differ by a relative "
			 "%g, TIP and Ideal by %g", x->oracle_maxdiff, x->tip_ideal_maxdiff);
		goto fail;
	}
	ret = TIPROF_EXIT_OK;
	goto done;
fail:
	fprintf(stderr, "tiprof accuracy: %s\n", x->err);
done:
	if (tw_open)
		rob_trace_writer_close(&x->tw);
	if (out != stdout)
		fclose(out);
	else if (saved >= 0)
		close(saved);
	core_destroy(x->core);
	if (x->iss)
		iss_destroy(x->iss);
	oracle_fini(&x->orc);
	rob_policies_free(&x->rp);
	tip_model_fini(&x->tip);
	code_map_free(&x->map);
	return ret;
}

/* Entry point of `tiprof accuracy` (registered in sw/tiprof.c). */
int cmd_accuracy(int argc, char **argv)
{
	struct acc_ctx x;
	struct core_cfg probe;
	char *end;
	int i;

	memset(&x, 0, sizeof(x));
	x.config = "4wide";
	x.period = 64;
	x.rand_bits = 6;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json")) {
			x.json = 1;
		} else if (!strcmp(argv[i], "--periodic")) {
			x.periodic = 1;
		} else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			x.config = argv[++i];
			if (core_cfg_preset(&probe, x.config)) {
				fprintf(stderr, "tiprof accuracy: unknown configuration '%s'; use 4wide, "
					"2wide or 1wide\n", x.config);
				return TIPROF_EXIT_USAGE;
			}
		} else if ((!strcmp(argv[i], "--period") || !strcmp(argv[i], "--rand-bits")) &&
			   i + 1 < argc) {
			unsigned long v = strtoul(argv[i + 1], &end, 0);

			if (*end || !argv[i + 1][0] || (!strcmp(argv[i], "--period") ?
			    (v < 1 || v > 0xffffffffUL) : v > 31)) {
				fprintf(stderr, "tiprof accuracy: %s: bad value '%s' (period 1..2^32-1, "
					"random bits 0..31)\n", argv[i], argv[i + 1]);
				return TIPROF_EXIT_USAGE;
			}
			if (!strcmp(argv[i], "--period"))
				x.period = (uint32_t)v;
			else
				x.rand_bits = (unsigned)v;
			i++;
		} else if (!strcmp(argv[i], "--rob-trace") && i + 1 < argc) {
			x.trace_path = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "tiprof accuracy: unknown option '%s'; see tiprof help accuracy\n",
				argv[i]);
			return TIPROF_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "tiprof accuracy: no program given; usage: tiprof accuracy "
			"[--config C] [--period P] [--rand-bits K] [--periodic] [--json] "
			"[--rob-trace FILE] ELF [ARGS]\n");
		return TIPROF_EXIT_USAGE;
	}
	if (!x.periodic && (1ull << x.rand_bits) > x.period) {
		fprintf(stderr, "tiprof accuracy: 2^%u random offsets do not fit a period of %u "
			"(use --rand-bits <= log2(period))\n", x.rand_bits, x.period);
		return TIPROF_EXIT_USAGE;
	}
	x.prog_argv = argv + i;
	return acc_run(&x);
}
