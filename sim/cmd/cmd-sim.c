/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-sim.c - `tiprof sim [--config 4wide|2wide|1wide] [--json] [--oracle FILE]
 * [--profile FILE [--period P] [--rand-bits K] [--rtl]] ELF [ARGS]`:
 * runs a static riscv64 ELF on the out-of-order timing model (sim/core) and prints cycles,
 * instructions, IPC and the Oracle's cycle stack (sim/oracle); --oracle also writes the
 * per-address Oracle profile (format in docs/core.md). With --json, standard output holds
 * only one JSON object and the program's own standard output goes to standard error.
 * --profile records a TIP sample file through the unit model and the driver's hardware
 * layer (sim/record/recsim.c, docs/report.md). With --rtl the unit is the Verilated RTL,
 * clocked in lockstep with the C model and compared with it every cycle: `tiprof` then execs
 * tiprof-cosim-<config> from its own directory, which is this file linked with the RTL
 * (built with -DTIPROF_COSIM, sim/cosim/cosim.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recsim.h"
#ifdef TIPROF_COSIM
#include "cosim.h"
#endif
#include "core.h"
#include "rob_trace.h"
#include "oracle.h"
#include "sim_run.h"
#include "tiprof/cmd.h"
#include "tiprof/sampling.h"

extern char **environ;

/* State of one simulation run. */
struct sim_ctx {
	const char *config;     /* preset name */
	int json;               /* print one JSON object */
	const char *oracle_path; /* where to write the Oracle profile, or NULL */
	const char *trace_path; /* --rob-trace: where to record the ROB interface, or NULL */
	struct sim_trace_sink tw; /* the ROB trace being written */
	struct recsim_cfg prof; /* --profile: the sample file to record (prof.path NULL: none) */
	struct recsim *rec;     /* the recorder while recording */
	int rtl;                /* --rtl: record through the Verilated RTL unit */
#ifdef TIPROF_COSIM
	struct cosim_unit *cu;  /* the RTL unit and its C model in lockstep */
	char vcd_path[PATH_MAX]; /* where a difference's waveform goes */
#endif
	char **prog_argv;       /* ELF and its arguments */
	FILE *out;              /* where the report goes */
	struct iss *iss;        /* the program */
	struct core *core;      /* the timing model */
	struct oracle orc;      /* the attribution */
	char err[512];          /* message of a failure */
};

/* Print the text report. */
static void sim_print_text(struct sim_ctx *x)
{
	const struct core_stats *st = core_stats(x->core);
	double units = (double)x->orc.cycles * ORACLE_UNIT;

	fprintf(x->out, "tiprof sim: %s on %s, exit code %d\n", x->prog_argv[0], x->config,
		iss_exit_code(x->iss));
	fprintf(x->out, "  cycles        %llu\n  instructions  %llu\n  IPC           %.3f\n",
		(unsigned long long)st->cycles, (unsigned long long)st->insns,
		st->cycles ? (double)st->insns / (double)st->cycles : 0.0);
	fprintf(x->out, "  branch mispredicts %llu of %llu, jump mispredicts %llu of %llu, "
		"L1D misses %llu, LLC misses %llu, flushes %llu, traps %llu\n",
		(unsigned long long)st->br_mispred, (unsigned long long)st->branches,
		(unsigned long long)st->jump_mispred, (unsigned long long)st->jumps,
		(unsigned long long)st->l1d_miss, (unsigned long long)st->llc_miss,
		(unsigned long long)st->flushes, (unsigned long long)st->exceptions);
	fprintf(x->out, "cycle stack (Oracle):\n");
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(x->out, "  %-18s %6.2f%%  %14.2f cycles\n", tiprof_cat_name(c),
			units ? 100.0 * (double)x->orc.total[c] / units : 0.0,
			(double)x->orc.total[c] / ORACLE_UNIT);
}

/* Print the JSON object. */
static void sim_print_json(struct sim_ctx *x)
{
	const struct core_stats *st = core_stats(x->core);
	double units = (double)x->orc.cycles * ORACLE_UNIT;

	fprintf(x->out, "{\"config\": \"%s\", \"cycles\": %llu, \"instructions\": %llu, "
		"\"ipc\": %.6f, \"exit_code\": %d, \"cycle_stack\": {", x->config,
		(unsigned long long)st->cycles, (unsigned long long)st->insns,
		st->cycles ? (double)st->insns / (double)st->cycles : 0.0, iss_exit_code(x->iss));
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(x->out, "%s\"%s\": %.6f", c ? ", " : "", tiprof_cat_name(c),
			units ? (double)x->orc.total[c] / units : 0.0);
	fprintf(x->out, "}, \"branches\": %llu, \"branch_mispredicts\": %llu, \"jumps\": %llu, "
		"\"jump_mispredicts\": %llu, \"l1d_misses\": %llu, \"llc_misses\": %llu, "
		"\"flushes\": %llu, \"traps\": %llu}\n",
		(unsigned long long)st->branches, (unsigned long long)st->br_mispred,
		(unsigned long long)st->jumps, (unsigned long long)st->jump_mispred,
		(unsigned long long)st->l1d_miss, (unsigned long long)st->llc_miss,
		(unsigned long long)st->flushes, (unsigned long long)st->exceptions);
}

/* Simulate to the end: the sample recorder, the ROB trace and the Oracle see every cycle
 * (sim/run). Returns 0 or -1 with x->err set. */
static int sim_loop(struct sim_ctx *x)
{
	struct sim_run run;
	struct sim_consumer c;

	sim_run_init(&run, x->core, x->prog_argv[0]);
	if (x->rec) {
		c = sim_consumer_recsim(x->rec);
		sim_run_attach(&run, &c);
	}
	if (x->tw.open) {
		c = sim_consumer_rob_trace(&x->tw);
		sim_run_attach(&run, &c);
	}
	c = sim_consumer_oracle(&x->orc);
	sim_run_attach(&run, &c);
	return sim_run_loop(&run, x->err, sizeof(x->err));
}

/* Run everything; returns an exit status, printing one line on stderr on failure. */
static int sim_execute(struct sim_ctx *x)
{
	struct core_cfg cfg;
	struct iss_config icfg;
	int ret = TIPROF_EXIT_FAIL, saved = -1;
	FILE *pf;

	memset(&icfg, 0, sizeof(icfg));
	core_cfg_preset(&cfg, x->config);
	if (oracle_init(&x->orc, cfg.width)) {
		fprintf(stderr, "tiprof sim: out of memory\n");
		return TIPROF_EXIT_FAIL;
	}
	x->iss = iss_create(x->prog_argv[0], x->prog_argv, environ, &icfg, x->err,
			    sizeof(x->err));
	if (!x->iss)
		goto fail;
	x->core = core_create(&cfg, x->iss, x->err, sizeof(x->err));
	if (!x->core)
		goto fail;
	if (x->json) {	/* keep stdout for the object: the program's stdout goes to stderr */
		fflush(stdout);
		saved = dup(STDOUT_FILENO);
		if (saved < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 ||
		    !(x->out = fdopen(saved, "w"))) {
			snprintf(x->err, sizeof(x->err), "cannot redirect standard output");
			goto fail;
		}
	}
	if (x->prof.path) {
		x->prof.elf = x->prog_argv[0];
		x->prof.w = cfg.width;
#ifdef TIPROF_COSIM
		if (x->rtl) {
			snprintf(x->vcd_path, sizeof(x->vcd_path), "%s.mismatch.vcd", x->prof.path);
			x->cu = cosim_unit_open(cfg.width, x->vcd_path, x->err, sizeof(x->err));
			if (!x->cu)
				goto fail;
			x->prof.unit = &cosim_unit_ops;
			x->prof.unit_ctx = x->cu;
		}
#endif
		x->rec = recsim_open(&x->prof, x->err, sizeof(x->err));
		if (!x->rec)
			goto fail;
	}
	if (x->trace_path &&
	    sim_trace_open(&x->tw, x->trace_path, cfg.width, x->err, sizeof(x->err)))
		goto fail;
	if (sim_loop(x) || sim_trace_close(&x->tw, 1, x->err, sizeof(x->err)))
		goto fail;
	if (x->rec) {
		struct recsim_stats rs;

		if (recsim_close(x->rec, &rs, x->err, sizeof(x->err))) {
			x->rec = NULL;
			goto fail;
		}
		x->rec = NULL;
		fprintf(stderr, "tiprof sim: %llu samples (%llu lost) written to %s\n",
			(unsigned long long)rs.samples,
			(unsigned long long)(rs.lost_unit + rs.lost_sw), x->prof.path);
#ifdef TIPROF_COSIM
		if (x->cu)
			fprintf(stderr, "tiprof sim: RTL unit (Verilator) = C model on all %llu unit "
				"cycles (%llu core cycles + %llu CSR-access cycles)\n",
				(unsigned long long)cosim_unit_checked(x->cu),
				(unsigned long long)(rs.unit_cycles - rs.csr_cycles),
				(unsigned long long)rs.csr_cycles);
#endif
	}
	if (x->oracle_path) {
		pf = fopen(x->oracle_path, "w");
		if (!pf || oracle_write(&x->orc, pf, core_stats(x->core)->insns) ||
		    fclose(pf)) {
			if (pf)		/* no partial profile (pf is closed or unusable) */
				unlink(x->oracle_path);
			snprintf(x->err, sizeof(x->err), "cannot write the Oracle profile to %s",
				 x->oracle_path);
			goto fail;
		}
	}
	if (x->json)
		sim_print_json(x);
	else
		sim_print_text(x);
	if (fflush(x->out) || ferror(x->out)) {
		snprintf(x->err, sizeof(x->err), "cannot write the report");
		goto fail;
	}
	ret = TIPROF_EXIT_OK;
	goto out;
fail:
	sim_trace_close(&x->tw, 0, x->err, sizeof(x->err));	/* no partial trace */
	fprintf(stderr, "tiprof sim: %s\n", x->err);
out:
	if (x->out && x->out != stdout)
		fclose(x->out);
	else if (saved >= 0)
		close(saved);
	core_destroy(x->core);
	if (x->iss)
		iss_destroy(x->iss);
	recsim_abort(x->rec);
#ifdef TIPROF_COSIM
	cosim_unit_close(x->cu);
#endif
	oracle_fini(&x->orc);
	return ret;
}

#ifndef TIPROF_COSIM
/* --rtl: run the same command in tiprof-cosim-CONFIG, next to this executable (the RTL is
 * C++ from Verilator and lives in that program only). Returns only on failure. */
static int sim_exec_rtl(const char *config, int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 32];
	char **nargv = calloc((size_t)argc + 2, sizeof(*nargv));
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n < 0 || !nargv) {
		fprintf(stderr, "tiprof sim: --rtl: cannot find the tiprof executable\n");
		free(nargv);
		return TIPROF_EXIT_FAIL;
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/tiprof-cosim-%s", slash ? self : ".", config);
	nargv[0] = path;
	for (int i = 0; i < argc; i++)
		nargv[i + 1] = argv[i];
	fflush(NULL);
	execv(path, nargv);
	fprintf(stderr, "tiprof sim: --rtl: cannot run %s: %s (build it with `make "
		"tiprof-cosim`)\n", path, strerror(errno));
	free(nargv);
	return TIPROF_EXIT_FAIL;
}
#endif

/* Entry point of `tiprof sim` (registered in sw/tiprof.c). */
int cmd_sim(int argc, char **argv)
{
	struct sim_ctx x;
	struct core_cfg probe;
	int i, rand_set = 0;

	memset(&x, 0, sizeof(x));
	x.config = "4wide";
	x.out = stdout;
	x.prof.period = 64;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			x.json = 1;
		} else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
			x.config = argv[++i];
			if (core_cfg_preset(&probe, x.config)) {
				fprintf(stderr, "tiprof sim: unknown configuration '%s'; use 4wide, "
					"2wide or 1wide\n", x.config);
				return TIPROF_EXIT_USAGE;
			}
		} else if (strcmp(argv[i], "--oracle") == 0 && i + 1 < argc) {
			x.oracle_path = argv[++i];
		} else if (strcmp(argv[i], "--rob-trace") == 0 && i + 1 < argc) {
			x.trace_path = argv[++i];
		} else if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc) {
			x.prof.path = argv[++i];
		} else if (strcmp(argv[i], "--rtl") == 0) {
			x.rtl = 1;
		} else if ((strcmp(argv[i], "--period") == 0 ||
			    strcmp(argv[i], "--rand-bits") == 0) && i + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[i + 1], &end, 0);
			int per = strcmp(argv[i], "--period") == 0;

			/* strtoul accepts "-1" (and wraps "-18446744073709551615" to 1) */
			if (*end || argv[i + 1][0] < '0' || argv[i + 1][0] > '9' || (per ? (v < 1 || v > 0xffffffffUL) : v > 31)) {
				fprintf(stderr, "tiprof sim: %s: bad value '%s' (period 1..2^32-1, "
					"random bits 0..31)\n", argv[i], argv[i + 1]);
				return TIPROF_EXIT_USAGE;
			}
			if (per)
				x.prof.period = (uint32_t)v;
			else
				x.prof.rand_bits = (unsigned)v;
			rand_set |= !per;
			i++;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else {
			fprintf(stderr, "tiprof sim: %s '%s'; usage: tiprof sim "
				"[--config 4wide|2wide|1wide] [--json] [--oracle FILE] "
				"[--profile FILE] ELF [ARGS]\n", i + 1 == argc && (!strcmp(argv[i],
				"--config") || !strcmp(argv[i], "--oracle") || !strcmp(argv[i],
				"--rob-trace") || !strcmp(argv[i], "--profile") || !strcmp(argv[i],
				"--period") || !strcmp(argv[i], "--rand-bits")) ?
				"missing value of option" : "unknown option", argv[i]);
			return TIPROF_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "tiprof sim: no program given; usage: tiprof sim "
			"[--config 4wide|2wide|1wide] [--json] [--oracle FILE] "
			"[--profile FILE [--rtl]] ELF [ARGS]\n");
		return TIPROF_EXIT_USAGE;
	}
	if (x.rtl && !x.prof.path) {
		fprintf(stderr, "tiprof sim: --rtl needs --profile FILE (the RTL unit is what "
			"records the samples)\n");
		return TIPROF_EXIT_USAGE;
	}
	if (!rand_set)
		x.prof.rand_bits = tiprof_random_bits(x.prof.period);
#ifndef TIPROF_COSIM
	if (x.rtl)
		return sim_exec_rtl(x.config, argc, argv);
#endif
	x.prog_argv = argv + i;
	return sim_execute(&x);
}
