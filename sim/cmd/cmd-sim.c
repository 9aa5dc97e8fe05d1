/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-sim.c - `tiprof sim [OPTIONS] ELF [ARGS]` (options: sim_uses below, `tiprof help sim`):
 * runs a riscv64 ELF on the out-of-order timing model (sim/core) and reports cycles,
 * instructions, IPC and the Oracle's cycle stack (sim/oracle); --oracle also writes the
 * per-address Oracle profile (format in docs/core.md). The program's standard streams are its
 * own; the report, text or --json, goes to stderr or -o FILE (sim/cmd/cmd_out.h).
 * --profile records a TIP sample file through the unit model and the driver's hardware
 * layer (sim/record/recsim.c, docs/report.md), with an object record for every ELF object
 * the program had mapped executable (iss_objects, polled when the list may change: at the
 * start, at every system call and at the end). With --rtl the unit is the Verilated RTL,
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

#include "cmd_out.h"
#include "elf_image.h"
#include "iss.h"
#include "sample_file.h"
#include "progress.h"
#include "recsim.h"
#include "pmsim.h"
#include "pm_truth.h"
#include "run_opts.h"
#include "sim_compare.h"
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
	struct sim_compare cmp; /* the other policies on the recorder's sampled cycles */
	struct iss_object *objs; /* objects written to the sample file (paths: the ISS's) */
	size_t nobjs, capobjs;  /* how many, allocated */
	int rtl;                /* --rtl: record through the Verilated RTL unit */
	int pm;                 /* -e profileme: the ProfileMe unit records into the same file */
	int period_set;         /* --period given */
	struct pmsim_cfg pmcfg; /* its setup */
	struct pmsim *pms;      /* the ProfileMe unit while recording */
	const char *truth_path; /* --truth: where the ProfileMe truth goes, or NULL */
	struct pm_truth truth;  /* that truth while running (truth_on) */
	int truth_on;
#ifdef TIPROF_COSIM
	struct cosim_unit *cu;  /* the RTL unit and its C model in lockstep */
	char vcd_path[PATH_MAX]; /* where a difference's waveform goes */
#endif
	char **prog_argv;       /* ELF and its arguments */
	struct run_opts run;    /* report file, sysroot, exe path, progress line */
	struct cmd_out out;     /* where the report goes */
	struct sim_progress prog; /* the progress line */
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

	fprintf(x->out.f, "tiprof sim: %s on %s, exit code %d\n", x->prog_argv[0], x->config,
		iss_exit_code(x->iss));
	fprintf(x->out.f, "  cycles        %llu\n  instructions  %llu\n  IPC           %.3f\n",
		(unsigned long long)st->cycles, (unsigned long long)st->insns,
		st->cycles ? (double)st->insns / (double)st->cycles : 0.0);
	fprintf(x->out.f, "  branch mispredicts %llu of %llu, jump mispredicts %llu of %llu, "
		"L1D misses %llu, LLC misses %llu, flushes %llu, traps %llu\n",
		(unsigned long long)st->br_mispred, (unsigned long long)st->branches,
		(unsigned long long)st->jump_mispred, (unsigned long long)st->jumps,
		(unsigned long long)st->l1d_miss, (unsigned long long)st->llc_miss,
		(unsigned long long)st->flushes, (unsigned long long)st->exceptions);
	if (core_config(x->core)->sd_mode)	/* selective dispatch (docs/core.md) */
		fprintf(x->out.f, "  selective dispatch: %llu dropped at decode (%llu in skipped "
			"blocks), %llu profile instructions executed; BDT %llu skips, %llu "
			"mispredicts (%llu cycles), %llu missed; profile branches %llu redirects, "
			"%llu of %llu mispredicted; poppf stalls %llu\n",
			(unsigned long long)st->sd_dropped, (unsigned long long)st->sd_walked,
			(unsigned long long)st->sd_executed, (unsigned long long)st->sd_bdt_skips,
			(unsigned long long)st->sd_bdt_mispred,
			(unsigned long long)st->sd_bdt_recovery, (unsigned long long)st->sd_bdt_missed,
			(unsigned long long)st->sd_pbr_redirect,
			(unsigned long long)st->sd_pbr_exec_mispred,
			(unsigned long long)st->sd_pbr_exec, (unsigned long long)st->sd_poppf_stall);
	fprintf(x->out.f, "cycle stack (Oracle):\n");
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(x->out.f, "  %-18s %6.2f%%  %14.2f cycles\n", tiprof_cat_name(c),
			units ? 100.0 * (double)x->orc.total[c] / units : 0.0,
			(double)x->orc.total[c] / ORACLE_UNIT);
}

/* Print the JSON object. */
static void sim_print_json(struct sim_ctx *x)
{
	const struct core_stats *st = core_stats(x->core);
	double units = (double)x->orc.cycles * ORACLE_UNIT;

	fprintf(x->out.f, "{\"config\": \"%s\", \"cycles\": %llu, \"instructions\": %llu, "
		"\"ipc\": %.6f, \"exit_code\": %d, \"cycle_stack\": {", x->config,
		(unsigned long long)st->cycles, (unsigned long long)st->insns,
		st->cycles ? (double)st->insns / (double)st->cycles : 0.0, iss_exit_code(x->iss));
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(x->out.f, "%s\"%s\": %.6f", c ? ", " : "", tiprof_cat_name(c),
			units ? (double)x->orc.total[c] / units : 0.0);
	if (core_config(x->core)->sd_mode)	/* selective dispatch (docs/core.md) */
		fprintf(x->out.f, "}, \"seldisp\": {\"dropped\": %llu, \"walked\": %llu, "
			"\"executed\": %llu, \"bdt_skips\": %llu, \"bdt_mispredicts\": %llu, "
			"\"bdt_recovery_cycles\": %llu, \"bdt_missed\": %llu, "
			"\"profile_branch_redirects\": %llu, \"profile_branch_mispredicts\": %llu, "
			"\"poppf_stalls\": %llu",
			(unsigned long long)st->sd_dropped, (unsigned long long)st->sd_walked,
			(unsigned long long)st->sd_executed, (unsigned long long)st->sd_bdt_skips,
			(unsigned long long)st->sd_bdt_mispred,
			(unsigned long long)st->sd_bdt_recovery, (unsigned long long)st->sd_bdt_missed,
			(unsigned long long)st->sd_pbr_redirect,
			(unsigned long long)st->sd_pbr_exec_mispred,
			(unsigned long long)st->sd_poppf_stall);
	fprintf(x->out.f, "}, \"branches\": %llu, \"branch_mispredicts\": %llu, \"jumps\": %llu, "
		"\"jump_mispredicts\": %llu, \"l1d_misses\": %llu, \"llc_misses\": %llu, "
		"\"flushes\": %llu, \"traps\": %llu}\n",
		(unsigned long long)st->branches, (unsigned long long)st->br_mispred,
		(unsigned long long)st->jumps, (unsigned long long)st->jump_mispred,
		(unsigned long long)st->l1d_miss, (unsigned long long)st->llc_miss,
		(unsigned long long)st->flushes, (unsigned long long)st->exceptions);
}

/* ---- object records (docs/report.md, "Programs with shared objects") */

/* Write an object record for o into the sample file. Returns 0 or -1 with err set. */
static int sim_object_write(struct sim_ctx *x, const struct iss_object *o, char *err,
			    size_t errlen)
{
	struct sf_object *so = calloc(1, sizeof(*so));
	struct elf_image im;
	char why[256], *real = realpath(o->path, NULL);
	int r;

	if (!so) {
		free(real);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	so->start = o->exec_lo;
	so->end = o->exec_hi;
	so->bias = o->bias;
	so->kind = o->kind == ISS_OBJ_MAIN ? SF_OBJ_MAIN : o->kind == ISS_OBJ_INTERP ?
		   SF_OBJ_INTERP : SF_OBJ_MAPPED;
	snprintf(so->path, sizeof(so->path), "%s", real ? real : o->path);
	so->path_len = (uint16_t)strlen(so->path);
	free(real);
	if (!elf_image_load(&im, so->path, why, sizeof(why))) {	/* none: no build-id */
		memcpy(so->build_id, im.build_id, im.build_id_len);
		so->build_id_len = (uint8_t)im.build_id_len;
		elf_image_free(&im);
	}
	r = recsim_object(x->rec, so, err, errlen);
	free(so);
	return r;
}

/* Write a record for every object in the ISS's list that was not written yet (an object
 * unmapped later keeps its record). Returns 0 or -1 with err set. */
static int sim_objects_poll(struct sim_ctx *x, char *err, size_t errlen)
{
	size_t n = iss_objects(x->iss, NULL, 0);
	struct iss_object *cur = calloc(n ? n : 1, sizeof(*cur));
	int r = 0;

	if (!cur) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n = iss_objects(x->iss, cur, n);
	for (size_t i = 0; i < n && !r; i++) {
		size_t k;

		for (k = 0; k < x->nobjs; k++)
			if (x->objs[k].exec_lo == cur[i].exec_lo &&
			    x->objs[k].exec_hi == cur[i].exec_hi &&
			    x->objs[k].bias == cur[i].bias && !strcmp(x->objs[k].path, cur[i].path))
				break;
		if (k < x->nobjs)
			continue;
		if (x->nobjs == x->capobjs) {
			size_t cap = x->capobjs ? 2 * x->capobjs : 8;
			struct iss_object *no = realloc(x->objs, cap * sizeof(*no));

			if (!no) {
				snprintf(err, errlen, "out of memory");
				r = -1;
				break;
			}
			x->objs = no;
			x->capobjs = cap;
		}
		x->objs[x->nobjs++] = cur[i];
		r = sim_object_write(x, &cur[i], err, errlen);
	}
	free(cur);
	return r;
}

/* A consumer that polls the object list after every system call (it changes only there). */
static int sim_objects_cycle(void *ctx, uint64_t cyc, const struct core_cycle_out *o,
			     char *err, size_t errlen)
{
	(void)cyc;
	for (unsigned k = 0; k < o->n_retired; k++)
		if (o->retired[k]->is_ecall)
			return sim_objects_poll(ctx, err, errlen);
	return 0;
}

/* ---- ProfileMe (docs/profileme.md; -e profileme, --truth) */

/* A consumer: the ProfileMe unit on this cycle of the core. */
static int sim_pm_cycle(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
			size_t errlen)
{
	struct sim_ctx *x = ctx;

	(void)cyc;
	return pmsim_cycle(x->pms, o, err, errlen);
}

/* A consumer: the exact per-instruction truth. */
static int sim_truth_cycle(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
			   size_t errlen)
{
	struct sim_ctx *x = ctx;

	(void)cyc;
	if (pm_truth_cycle(&x->truth, o)) {
		snprintf(err, errlen, "out of memory for the ProfileMe truth");
		return -1;
	}
	return 0;
}

/* pmsim's records go into the sample file. */
static int sim_pm_emit(void *ctx, const struct tiprof_pm_sample *s, char *err, size_t errlen)
{
	struct sf_writer *w = recsim_writer(((struct sim_ctx *)ctx)->rec);

	if (sf_writer_pm_sample(w, s)) {
		snprintf(err, errlen, "%s", w->msg);
		return -1;
	}
	return 0;
}

/* Start the ProfileMe unit (after the recorder: its records join the sample file) and the
 * truth. Returns 0 or -1 with x->err set. */
static int sim_pm_open(struct sim_ctx *x)
{
	struct tiprof_pm_config pc;
	struct sf_writer *w;

	if (x->pm) {
		x->pmcfg.emit = sim_pm_emit;
		x->pmcfg.emit_ctx = x;
		x->pms = pmsim_open(&x->pmcfg, x->core, x->err, sizeof(x->err));
		if (!x->pms)
			return -1;
		pmsim_config(x->pms, &pc);
		w = recsim_writer(x->rec);
		if (sf_writer_pm_config(w, &pc)) {
			snprintf(x->err, sizeof(x->err), "%s", w->msg);
			return -1;
		}
	} else if (x->truth_path && core_pm_enable(x->core, x->err, sizeof(x->err))) {
		return -1;
	}
	if (x->truth_path) {
		if (pm_truth_init(&x->truth, core_issue_width(x->core))) {
			snprintf(x->err, sizeof(x->err), "out of memory for the ProfileMe truth");
			return -1;
		}
		x->truth_on = 1;
	}
	return 0;
}

/* After the run: the ProfileMe counts into the file, the truth file, a report line. */
static int sim_pm_close(struct sim_ctx *x)
{
	FILE *f;

	if (x->pms) {
		struct pmsim_stats st;
		struct sf_writer *w = recsim_writer(x->rec);

		pmsim_stats(x->pms, &st);
		if (sf_writer_pm_counts(w, &st.counts)) {
			snprintf(x->err, sizeof(x->err), "%s", w->msg);
			return -1;
		}
		fprintf(stderr, "tiprof sim: %llu ProfileMe samples (%llu selections: %llu lost, "
			"%llu filtered, %llu collided); %llu profiles equal the core's truth, %llu "
			"timed out; %llu instructions tagged, %llu of them on the wrong path\n",
			(unsigned long long)st.records,
			(unsigned long long)(st.counts.taken + st.counts.lost + st.counts.filtered +
					     st.counts.collided),
			(unsigned long long)st.counts.lost, (unsigned long long)st.counts.filtered,
			(unsigned long long)st.counts.collided,
			(unsigned long long)st.profiles_checked,
			(unsigned long long)st.profiles_timeout, (unsigned long long)st.tagged,
			(unsigned long long)st.tagged_ghost);
	}
	if (!x->truth_on)
		return 0;
	f = fopen(x->truth_path, "w");
	if (!f || pm_truth_write(&x->truth, f) || fclose(f)) {
		if (f)
			unlink(x->truth_path);	/* no partial truth */
		snprintf(x->err, sizeof(x->err), "cannot write the ProfileMe truth to %s",
			 x->truth_path);
		return -1;
	}
	return 0;
}

/* Simulate to the end: the sample recorder, the ROB trace and the Oracle see every cycle
 * (sim/run). Returns 0 or -1 with x->err set. */
static int sim_loop(struct sim_ctx *x)
{
	struct sim_run run;
	struct sim_consumer c;

	sim_run_init(&run, x->core, x->prog_argv[0]);
	if (x->pms) {
		c = (struct sim_consumer){ sim_pm_cycle, NULL, x };
		sim_run_attach(&run, &c);
	}
	if (x->truth_on) {
		c = (struct sim_consumer){ sim_truth_cycle, NULL, x };
		sim_run_attach(&run, &c);
	}
	if (x->rec) {
		c = sim_consumer_recsim(x->rec);
		sim_run_attach(&run, &c);
		c = sim_consumer_compare(&x->cmp);	/* after the recorder: its sampled cycles */
		sim_run_attach(&run, &c);
		c = (struct sim_consumer){ sim_objects_cycle, NULL, x };
		sim_run_attach(&run, &c);
	}
	if (x->tw.open) {
		c = sim_consumer_rob_trace(&x->tw);
		sim_run_attach(&run, &c);
	}
	c = sim_consumer_oracle(&x->orc);
	sim_run_attach(&run, &c);
	if (x->run.progress) {
		sim_progress_init(&x->prog, "tiprof sim", x->core, x->prog_argv, x->run.expect, stderr);
		c = sim_consumer_progress(&x->prog);
		sim_run_attach(&run, &c);
	}
	if (sim_run_loop(&run, x->err, sizeof(x->err))) {
		sim_progress_erase(&x->prog);
		return -1;
	}
	if (x->run.progress)
		sim_progress_remember(&x->prog, core_stats(x->core)->insns);
	return 0;
}

/* Run everything; returns an exit status, printing one line on stderr on failure. */
static int sim_execute(struct sim_ctx *x)
{
	struct core_cfg cfg;
	struct iss_config icfg;
	int ret = TIPROF_EXIT_FAIL;
	char cmp_path[PATH_MAX + 16];
	FILE *pf;

	memset(&icfg, 0, sizeof(icfg));
	run_opts_iss(&x->run, &icfg);
	if (cmd_out_open(&x->out, x->run.out_path, x->err, sizeof(x->err))) {
		fprintf(stderr, "tiprof sim: %s\n", x->err);
		return TIPROF_EXIT_FAIL;
	}
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
		if (sim_compare_init(&x->cmp, x->rec, cfg.width)) {
			snprintf(x->err, sizeof(x->err), "out of memory");
			goto fail;
		}
		if (sim_objects_poll(x, x->err, sizeof(x->err)))	/* program, ld.so */
			goto fail;
	}
	if (sim_pm_open(x))
		goto fail;
	if (x->trace_path &&
	    sim_trace_open(&x->tw, x->trace_path, cfg.width, x->err, sizeof(x->err)))
		goto fail;
	if (sim_loop(x) || sim_trace_close(&x->tw, 1, x->err, sizeof(x->err)))
		goto fail;
	if (x->rec) {
		struct recsim_stats rs;

		if (sim_objects_poll(x, x->err, sizeof(x->err)) || sim_pm_close(x))
			goto fail;
		if (recsim_close(x->rec, &rs, x->err, sizeof(x->err))) {
			x->rec = NULL;
			goto fail;
		}
		x->rec = NULL;
		snprintf(cmp_path, sizeof(cmp_path), "%s.policies", x->prof.path);
		if (sim_compare_write(&x->cmp, cmp_path, x->prog_argv[0], x->err, sizeof(x->err)))
			goto fail;
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
	if (!x->prof.path && sim_pm_close(x))
		goto fail;
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
	fflush(stdout);		/* the program's output first, when both go to one place */
	if (x->json)
		sim_print_json(x);
	else
		sim_print_text(x);
	if (cmd_out_close(&x->out, 1, x->err, sizeof(x->err)))
		goto fail;
	ret = iss_exit_code(x->iss);	/* as running the program would (perf stat does too) */
	goto out;
fail:
	sim_trace_close(&x->tw, 0, x->err, sizeof(x->err));	/* no partial trace */
	cmd_out_close(&x->out, 0, x->err, sizeof(x->err));	/* no partial report */
	fprintf(stderr, "tiprof sim: %s\n", x->err);
out:
	core_destroy(x->core);
	if (x->iss)
		iss_destroy(x->iss);
	pmsim_close(x->pms);
	if (x->truth_on)
		pm_truth_fini(&x->truth);
	recsim_abort(x->rec);
	sim_compare_free(&x->cmp);
	free(x->objs);
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

static const struct opt_use sim_uses[] = {
	{ OPT_CONFIG, NULL },
	{ OPT_OUTPUT, "write the report to FILE (default: standard error; '-': standard output)" },
	{ OPT_JSON, "print the report as one JSON object" },
	{ OPT_ORACLE, "write the per-address Oracle profile to FILE (docs/core.md)" },
	{ OPT_PROFILE, "record a TIP sample file (tiprof report / annotate read it)" },
	{ OPT_EVENT, "profileme: --profile also records the ProfileMe unit's samples "
	  "(docs/profileme.md), every --period fetched instructions (default 1024); tip: only "
	  "TIP's (default); tip:insts: TIP's instruction trigger, --period committed instructions "
	  "per sample (docs/tip-unit.md)" },
	{ OPT_PERIOD, "cycles between TIP samples of --profile (default 64); with -e profileme, "
	  "fetched instructions between ProfileMe selections" },
	{ OPT_PAIR, "with -e profileme: paired sampling, the second instruction 1..W fetched "
	  "instructions after the first" },
	{ OPT_SAMPLER_SEED, "with -e profileme: seed of the fetch counter's LFSR (PM_LFSR)" },
	{ OPT_TRUTH, "write the exact per-instruction ProfileMe truth to FILE (docs/core.md)" },
	{ OPT_RANDOM_BITS, NULL },
	{ OPT_PERIODIC, NULL },
	{ OPT_RTL, "record through the Verilated RTL unit, checked against its C model every "
	  "cycle" },
	{ OPT_ROB_TRACE, "record the per-cycle ROB interface (docs/rob-trace.md) for tiprof "
	  "trace and replay through the RTL" },
	{ OPT_SYSROOT, NULL },
	{ OPT_EXE_PATH, NULL },
	{ OPT_PROGRESS, NULL },
	{ OPT_NO_PROGRESS, NULL },
	{ OPT_EXPECT, NULL },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_sim = { "sim", sim_uses, "sim" };

/* Entry point of `tiprof sim` (registered in sw/tiprof.c). */
int cmd_sim(int argc, char **argv)
{
	struct sim_ctx x;
	struct core_cfg probe;
	struct opt_parser p;
	uint64_t v;
	int o, rand_set = 0;

	memset(&x, 0, sizeof(x));
	x.config = "4wide";
	x.prof.period = 64;
	run_opts_init(&x.run);
	opt_init(&p, &opt_set_sim, argc, argv, 0);
	while ((o = opt_next(&p)) != OPT_END) {
		int r = run_opts_take(&x.run, &p, o);

		if (r < 0)
			return TIPROF_EXIT_USAGE;
		if (r)
			continue;
		switch (o) {
		case OPT_HELP_DONE:
			return TIPROF_EXIT_OK;
		case OPT_ERROR:
			return TIPROF_EXIT_USAGE;
		case OPT_JSON:
			x.json = 1;
			break;
		case OPT_CONFIG:
			x.config = p.arg;
			if (core_cfg_preset(&probe, x.config))
				return opt_usage_error(&opt_set_sim, "unknown configuration '%s'; use "
						       "4wide, 2wide or 1wide", x.config);
			break;
		case OPT_ORACLE:
			x.oracle_path = p.arg;
			break;
		case OPT_ROB_TRACE:
			x.trace_path = p.arg;
			break;
		case OPT_PROFILE:
			x.prof.path = p.arg;
			break;
		case OPT_RTL:
			x.rtl = 1;
			break;
		case OPT_PERIOD:
			if (opt_u64(&p, 1, 0xffffffffu, &v))
				return TIPROF_EXIT_USAGE;
			x.prof.period = (uint32_t)v;
			x.period_set = 1;
			break;
		case OPT_EVENT:
			if (!strcmp(p.arg, "profileme"))
				x.pm = 1;
			else if (!strcmp(p.arg, "insts") || !strcmp(p.arg, "tip:insts"))
				x.prof.insts = 1;	/* TIP's instruction trigger */
			else if (strcmp(p.arg, "tip"))
				return opt_usage_error(&opt_set_sim, "unknown event '%s'; use tip, "
						       "tip:insts or profileme", p.arg);
			break;
		case OPT_PAIR:
			if (opt_u64(&p, 1, 256, &v))
				return TIPROF_EXIT_USAGE;
			x.pmcfg.window = (unsigned)v;
			break;
		case OPT_SAMPLER_SEED:
			if (opt_u64(&p, 1, 0xffffffffu, &v))
				return TIPROF_EXIT_USAGE;
			x.pmcfg.seed = (uint32_t)v;
			break;
		case OPT_TRUTH:
			x.truth_path = p.arg;
			break;
		case OPT_RANDOM_BITS:
			if (opt_u64(&p, 0, 31, &v))
				return TIPROF_EXIT_USAGE;
			x.prof.rand_bits = (unsigned)v;
			rand_set = 1;
			break;
		case OPT_PERIODIC:
			x.prof.rand_bits = 0;
			rand_set = 1;
			break;
		}
	}
	if (p.i >= argc)
		return opt_usage_error(&opt_set_sim, "no program given (tiprof help sim)");
	if (x.rtl && !x.prof.path)
		return opt_usage_error(&opt_set_sim, "--rtl needs --profile FILE (the RTL unit is "
				       "what records the samples)");
	if (x.pm && !x.prof.path)
		return opt_usage_error(&opt_set_sim, "-e profileme needs --profile FILE (the file "
				       "its samples go to)");
	if (x.prof.insts && !x.prof.path)
		return opt_usage_error(&opt_set_sim, "-e tip:insts needs --profile FILE (the file "
				       "its samples go to)");
	if (x.pm && x.rtl)
		return opt_usage_error(&opt_set_sim, "--rtl records through the TIP unit's RTL; "
				       "ProfileMe runs on its C model only (drop --rtl)");
	if ((x.pmcfg.window || x.pmcfg.seed) && !x.pm)
		return opt_usage_error(&opt_set_sim, "--pair and --sampler-seed need -e profileme");
	if (x.pm) {	/* --period is ProfileMe's; TIP samples at its default */
		x.pmcfg.period = x.period_set ? x.prof.period : 1024;
		x.pmcfg.rand_bits = rand_set ? x.prof.rand_bits :
				    tiprof_random_bits(x.pmcfg.period);
		x.pmcfg.fifo_depth = 16;
		x.prof.period = 64;
		rand_set = 0;
	}
	if (!rand_set)
		x.prof.rand_bits = tiprof_random_bits(x.prof.period);
#ifndef TIPROF_COSIM
	if (x.rtl)
		return sim_exec_rtl(x.config, argc, argv);
#endif
	x.prog_argv = argv + p.i;
	return sim_execute(&x);
}
