/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-accuracy.c - `tiprof accuracy [OPTIONS] ELF [ARGS]` (options: accuracy_uses below):
 * runs a riscv64 ELF on the timing model, samples it with the C TIP model (the unit's
 * reference, programmed through its CSR port and drained every cycle) and judges every policy
 * against the Oracle at instruction, basic-block and function level (sim/policy): the
 * ROB-level ones (TIP, TIP-ILP, NCI, NCI+ILP, LCI) and the front-end ones (Dispatch, Software,
 * from the core's retired records). Two Oracles are computed independently — the core's
 * (sim/oracle) and the ROB-stream one (sim/policy) — and must agree address by address; TIP's
 * profile must equal the Ideal sampler's exactly (its systematic error is zero).
 * --sweep runs one TIP model per period side by side on the same ROB stream of ONE simulation
 * (a "lane" per period, each with its own policies) and prints error vs sampling period;
 * --svg writes the charts (docs/accuracy.md). --rob-trace records the core's ROB interface
 * for replay through the RTL (docs/rob-trace.md). --windows W,D,U samples the run (SMARTS-style:
 * U instructions warmed functionally, D simulated in detail unmeasured, W measured, repeated;
 * sim/run): the Oracle, the TIP model and every policy see only the measured cycles
 * (docs/accuracy.md, "Sampled simulation"). --oracle writes the Oracle profile.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accuracy_pm.h"
#include "cmd_out.h"
#include "code_map.h"
#include "progress.h"
#include "run_opts.h"
#include "core.h"
#include "fe_policies.h"
#include "svg.h"
#include "oracle.h"
#include "rob_policies.h"
#include "rob_trace.h"
#include "sim_run.h"
#include "tip_model.h"
#include "tiprof/cmd.h"
#include "tiprof/sampling.h"

extern char **environ;

/* Most sampling periods one --sweep runs side by side. */
#define ACC_MAX_LANES 16
/* Default Software skid L in cycles (docs/accuracy.md: PMU overflow to interrupt taken). */

/* The policies judged, in report order, and their names (policy names of the JSON). */
enum { SH_TIP, SH_TIP_ILP, SH_NCI, SH_NCI_ILP, SH_LCI, SH_DISPATCH, SH_SOFTWARE, SH_COUNT };
static const char *const shown_name[SH_COUNT] = {
	"TIP", "TIP-ILP", "NCI", "NCI+ILP", "LCI", "Dispatch", "Software",
};
static const char *const lname[3] = { "instruction", "basic_block", "function" };

/* One sampler and everything judged on its samples (one per period). */
struct acc_lane {
	uint32_t period;            /* sampling period in cycles */
	unsigned rand_bits;         /* k of the random mode for this period */
	int inited;                 /* tip, rp and fe are initialised */
	uint64_t seen;              /* cycles given to this lane (= cycle number when not sampled) */
	struct tip_model tip;       /* the TIP unit's reference model */
	struct rob_policies rp;     /* ROB-level Oracle and policies */
	struct fe_policies fe;      /* Dispatch and Software */
	uint64_t tip_samples;       /* samples drained from the unit */
	double tip_ideal_maxdiff;   /* largest per-address difference of TIP and Ideal */
	double ideal[3];            /* Ideal's error per level (after the run) */
	double err[SH_COUNT][3];    /* each policy's error per level (after the run) */
};

/* Independent check of Dispatch's tag on lane 0's samples: in a sampled cycle that
 * dispatches, the ROB interface's first dispatched instruction in ROB order (by disp_idx) must
 * be the first retired record whose t_dispatch is that cycle. */
struct disp_check {
	uint64_t *t, *pc;           /* pending (cycle, expected address) in [head, n) */
	size_t head, n, cap;
	uint64_t last_td;           /* t_dispatch of the previous record */
	int have_last;              /* a record has been seen */
	uint64_t checked;           /* tags compared */
	uint64_t mismatches;        /* ... that differed (or had no record) */
	int oom;                    /* the queue could not grow */
};

/* State of one accuracy run. */
struct acc_ctx {
	const char *config;         /* core preset */
	unsigned rand_bits;         /* k of the random mode (--rand-bits), for every lane */
	int rand_bits_set;          /* --rand-bits given; else each lane's tiprof_random_bits */
	uint32_t sampler_seed;      /* --sampler-seed: TIP_LFSR before sampling (0: not given) */
	int periodic;               /* periodic instead of TIP's random interval */
	int json;                   /* the report as one JSON object */
	struct run_opts run;        /* report file, sysroot, exe path, progress line */
	struct cmd_out out;         /* where the report goes */
	struct sim_progress prog;   /* the progress line */
	int sweep;                  /* --sweep given */
	int auto_period;            /* neither --period nor --sweep: pick the period afterwards */
	uint64_t skid;              /* Software policy's L */
	const char *trace_path;     /* ROB trace to record, or NULL */
	const char *svg_dir;        /* directory for the SVG charts, or NULL */
	int show[SH_COUNT];         /* the policies reported (SH_*), in report order */
	unsigned nshow;             /* entries of show (--policies; default all) */
	char **prog_argv;           /* ELF and arguments */
	struct iss *iss;
	struct core *core;
	struct oracle orc;          /* the core's Oracle */
	struct sim_trace_sink tw;   /* the trace being recorded */
	struct code_map map;        /* functions and basic blocks of the ELF */
	struct acc_lane lane[ACC_MAX_LANES]; /* lane 0 is the main report's (first period) */
	unsigned nlanes;
	unsigned order[ACC_MAX_LANES]; /* lane indices by increasing period (sweep output) */
	double oracle_maxdiff;      /* largest per-address difference of the two Oracles */
	double tip_ideal_maxdiff;   /* largest over the lanes */
	struct disp_check dc;       /* Dispatch tag vs the ROB interface (lane 0) */
	unsigned rob_entries;       /* ROB size (disp_idx wraps at it) */
	char err[512];              /* message of a failure */
	int sampled;                /* --windows given */
	struct sim_windows win;     /* its W, D, U */
	struct sim_sampled_stats sst; /* what the sampled run did */
	double wall_s;              /* wall time of the simulation */
	const char *oracle_path;    /* --oracle: write the Oracle profile here */
};

/* Profile of policy i (SH_*) in lane ln. */
static const struct profile *lane_prof(const struct acc_lane *ln, int i)
{
	static const int rp_idx[SH_DISPATCH] = { POL_TIP, POL_TIP_ILP, POL_NCI, POL_NCI_ILP,
						 POL_LCI };

	if (i < SH_DISPATCH)
		return &ln->rp.prof[rp_idx[i]];
	return i == SH_DISPATCH ? &ln->fe.disp : &ln->fe.sw;
}

static void csr_write(struct tip_csr_req *q, uint16_t addr, uint64_t v)
{
	q->req = 1;
	q->we = 1;
	q->addr = addr;
	q->wdata = v;
	q->priv = 3;
}

/* Lane 0 sampled cycle cyc: note the first instruction the ROB interface dispatches in it. */
static void dc_sample(struct acc_ctx *x, uint64_t cyc, const struct tiprof_rob_if *r)
{
	struct disp_check *d = &x->dc;
	unsigned w = core_config(x->core)->width;

	if (!r->disp_valid)
		return;
	for (unsigned b = 0; b < w; b++) {
		unsigned prev = (r->disp_idx[b] + x->rob_entries - 1) % x->rob_entries, k;

		if (!(r->disp_valid >> b & 1))
			continue;
		for (k = 0; k < w; k++)
			if ((r->disp_valid >> k & 1) && r->disp_idx[k] == prev)
				break;
		if (k < w)
			continue;	/* an older one was dispatched in the same cycle */
		if (d->head + d->n == d->cap) {
			size_t ncap = d->cap ? 2 * d->cap : 256;
			uint64_t *nt = malloc(ncap * sizeof(*nt)), *np = malloc(ncap * sizeof(*np));

			if (!nt || !np) {
				free(nt);
				free(np);
				d->oom = 1;
				return;
			}
			if (d->n) {
				memcpy(nt, d->t + d->head, d->n * sizeof(*nt));
				memcpy(np, d->pc + d->head, d->n * sizeof(*np));
			}
			free(d->t);
			free(d->pc);
			d->t = nt;
			d->pc = np;
			d->cap = ncap;
			d->head = 0;
		}
		d->t[d->head + d->n] = cyc;
		d->pc[d->head + d->n] = r->disp_pc[b];
		d->n++;
		return;
	}
}

/* The next retired record (program order): compare it if it is the first of its dispatch
 * cycle and that cycle was a sampled one. */
static void dc_retire(struct disp_check *d, const struct core_insn *e)
{
	int first = !d->have_last || e->t_dispatch != d->last_td;

	d->have_last = 1;
	d->last_td = e->t_dispatch;
	if (!first)
		return;
	for (; d->n && d->t[d->head] <= e->t_dispatch; d->head++, d->n--) {
		d->checked++;
		if (d->t[d->head] < e->t_dispatch || d->pc[d->head] != e->pc)
			d->mismatches++;
	}
	if (!d->n)
		d->head = 0;
}

/* One cycle of one lane: program the unit in its first cycles, step it, feed the policies. */
static void lane_cycle(const struct acc_ctx *x, struct acc_lane *ln, uint64_t cyc,
		       const struct core_cycle_out *o)
{
	struct tip_csr_req q = { 0 };
	struct tiprof_sample s;

	/* with --sampler-seed, TIP_LFSR is written first and the rest one cycle later */
	uint64_t c0 = x->sampler_seed ? 1 : 0, n = ln->seen++;

	/* counted in the cycles this lane is given: sampled runs program it in their first
	 * measured cycles, and the unit is clocked only in measured cycles */
	if (x->sampler_seed && n == 0)
		csr_write(&q, TIPROF_TIP_LFSR, x->sampler_seed);
	else if (n == c0)
		csr_write(&q, TIPROF_TIP_PERIOD, ln->period);
	else if (n == c0 + 1)
		csr_write(&q, TIPROF_TIP_CTRL, 0xF1u |
			  (x->periodic ? TIPROF_MODE_PERIODIC : TIPROF_MODE_RANDOM_INTERVAL)
			  << TIPROF_TIP_CTRL_MODE_SHIFT | ln->rand_bits << TIPROF_TIP_CTRL_RAND_BITS_SHIFT);
	tip_model_cycle(&ln->tip, &o->rob, q.req ? &q : NULL, NULL);
	rob_policies_cycle(&ln->rp, &o->rob, ln->tip.fired);
	if (ln->tip.fired)
		fe_policies_sample(&ln->fe, cyc);
	while (tip_model_pop(&ln->tip, &s)) {
		ln->tip_samples++;
		rob_policies_tip_sample(&ln->rp, &s);
	}
	/* retired[] is in program order; a trapping ecall never commits */
	for (unsigned k = 0; k < o->n_retired; k++)
		fe_policies_retire(&ln->fe, o->retired[k]->pc, o->retired[k]->t_fetch,
				   o->retired[k]->t_dispatch,
				   !(o->retired[k]->events & CORE_EV_EXCEPTION));
}

/* The policies' consumer of the run (sim/run): every lane, and the Dispatch cross-check. */
static int acc_consume(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
		       size_t errlen)
{
	struct acc_ctx *x = ctx;

	(void)err;
	(void)errlen;
	for (unsigned l = 0; l < x->nlanes; l++)
		lane_cycle(x, &x->lane[l], cyc, o);
	if (x->lane[0].tip.fired)
		dc_sample(x, cyc, &o->rob);
	for (unsigned k = 0; k < o->n_retired; k++)
		dc_retire(&x->dc, o->retired[k]);
	return 0;
}

/* A sampled run's cycle outside the measured windows: its retired records still resolve the
 * front-end policies' pending samples (they wait for a later record in program order) and
 * the Dispatch cross-check's; nothing else sees it. */
static int acc_skip(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
		    size_t errlen)
{
	struct acc_ctx *x = ctx;

	(void)err;
	(void)errlen;
	for (unsigned l = 0; l < x->nlanes; l++)
		for (unsigned k = 0; k < o->n_retired; k++)
			fe_policies_retire(&x->lane[l].fe, o->retired[k]->pc,
					   o->retired[k]->t_fetch, o->retired[k]->t_dispatch,
					   !(o->retired[k]->events & CORE_EV_EXCEPTION));
	for (unsigned k = 0; k < o->n_retired; k++)
		dc_retire(&x->dc, o->retired[k]);
	if (x->run.progress)
		sim_progress_poll(&x->prog, cyc);
	return 0;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* After the last cycle: every lane's books closed, nothing pending, nothing out of memory. */
static int acc_finish(void *ctx, char *err, size_t errlen)
{
	struct acc_ctx *x = ctx;

	for (unsigned l = 0; l < x->nlanes; l++) {
		struct acc_lane *ln = &x->lane[l];

		fe_policies_finish(&ln->fe);
		if (ln->tip.pending) {
			snprintf(err, errlen, "%u TIP samples still pending at the end of "
				 "the run (period %u)", ln->tip.pending, ln->period);
			return -1;
		}
		for (int i = 0; i < POL_COUNT; i++)
			if (ln->rp.prof[i].oom)
				goto nomem;
		if (ln->fe.oom || ln->fe.disp.oom || ln->fe.sw.oom)
			goto nomem;
	}
	if (x->dc.oom)
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for the profiles");
	return -1;
}

/* Simulate to the end (sim/run): the lanes, the ROB trace and the core's Oracle see every
 * cycle. Returns 0 or -1 with x->err set. */
static int acc_loop(struct acc_ctx *x)
{
	struct sim_run run;
	struct sim_consumer c = { acc_consume, acc_finish, x };

	sim_run_init(&run, x->core, x->prog_argv[0]);
	sim_run_attach(&run, &c);
	if (x->tw.open) {
		c = sim_consumer_rob_trace(&x->tw);
		sim_run_attach(&run, &c);
	}
	c = sim_consumer_oracle(&x->orc);
	sim_run_attach(&run, &c);
	if (x->run.progress) {
		sim_progress_init(&x->prog, "tiprof accuracy", x->core, x->prog_argv, x->run.expect,
				  stderr);
		if (x->sampled)
			x->prog.warmed = &x->sst.warmed_insns;
		c = sim_consumer_progress(&x->prog);
		sim_run_attach(&run, &c);
	}
	x->wall_s = wall_now();
	if (x->sampled) {
		run.skip = acc_skip;
		run.skip_ctx = x;
	}
	if (x->sampled ? sim_run_sampled(&run, &x->win, &x->sst, x->err, sizeof(x->err))
		       : sim_run_loop(&run, x->err, sizeof(x->err))) {
		sim_progress_erase(&x->prog);
		return -1;
	}
	x->wall_s = wall_now() - x->wall_s;
	if (x->run.progress)
		sim_progress_remember(&x->prog, core_stats(x->core)->insns + x->sst.warmed_insns);
	return 0;
}

/* Largest relative per-address difference between profiles a and b, both ways. */
static double prof_maxdiff(const struct profile *a, const struct profile *b)
{
	double m = 0, d;

	for (int k = 0; k < 2; k++) {
		const struct profile *p = k ? b : a, *q = k ? a : b;

		for (size_t i = 0; i < p->cap; i++)
			if (p->used[i]) {
				d = fabs(p->val[i] - profile_get(q, p->key[i])) / fmax(1.0, p->val[i]);
				if (d > m)
					m = d;
			}
	}
	return m;
}

/* Compare the two Oracles (and every lane's Oracle with lane 0's) and TIP with Ideal. */
static void acc_crosscheck(struct acc_ctx *x)
{
	const struct profile *ro = &x->lane[0].rp.prof[POL_ORACLE];
	double d;

	for (size_t i = 0; i < x->orc.n; i++) {
		const struct oracle_ent *e = &x->orc.ent[i];
		double units = 0;

		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			units += (double)e->units[c];
		/* relative: the ROB-stream Oracle sums 1/n in floating point */
		d = fabs(units / ORACLE_UNIT - profile_get(ro, e->pc)) / fmax(1.0, units / ORACLE_UNIT);
		if (d > x->oracle_maxdiff)
			x->oracle_maxdiff = d;
	}
	d = fabs(ro->total - (double)x->orc.cycles) / fmax(1.0, (double)x->orc.cycles);
	if (d > x->oracle_maxdiff)
		x->oracle_maxdiff = d;
	for (unsigned l = 0; l < x->nlanes; l++) {
		struct acc_lane *ln = &x->lane[l];

		d = prof_maxdiff(&ln->rp.prof[POL_ORACLE], ro);
		if (d > x->oracle_maxdiff)
			x->oracle_maxdiff = d;
		ln->tip_ideal_maxdiff = prof_maxdiff(&ln->rp.prof[POL_IDEAL], &ln->rp.prof[POL_TIP]);
		if (ln->tip_ideal_maxdiff > x->tip_ideal_maxdiff)
			x->tip_ideal_maxdiff = ln->tip_ideal_maxdiff;
	}
}

/* Every lane's errors at the three levels. */
static void acc_errors(struct acc_ctx *x)
{
	for (unsigned n = 0; n < x->nlanes; n++) {
		struct acc_lane *ln = &x->lane[n];
		const struct profile *orc = &ln->rp.prof[POL_ORACLE];

		for (int l = 0; l < 3; l++) {
			ln->ideal[l] = profile_error_at(&x->map, &ln->rp.prof[POL_IDEAL], orc,
						      (enum code_level)l);
			for (int i = 0; i < SH_COUNT; i++)
				ln->err[i][l] = profile_error_at(&x->map, lane_prof(ln, i), orc,
							       (enum code_level)l);
		}
	}
}

/* JSON members "ideal": {...}, "policies": {...} of one lane. */
static void json_lane(FILE *out, const struct acc_ctx *x, const struct acc_lane *ln)
{
	fprintf(out, "\"ideal\": {");
	for (int l = 0; l < 3; l++)
		fprintf(out, "%s\"%s\": %.6f", l ? ", " : "", lname[l], ln->ideal[l]);
	fprintf(out, "}, \"policies\": {");
	for (unsigned k = 0; k < x->nshow; k++) {
		int i = x->show[k];

		fprintf(out, "%s\"%s\": {", k ? ", " : "", shown_name[i]);
		for (int l = 0; l < 3; l++)
			fprintf(out, "%s\"%s\": %.6f", l ? ", " : "", lname[l], ln->err[i][l]);
		fprintf(out, ", \"systematic\": {");
		for (int l = 0; l < 3; l++)
			fprintf(out, "%s\"%s\": %.6f", l ? ", " : "", lname[l],
				ln->err[i][l] - ln->ideal[l]);
		fprintf(out, "}}");
	}
	fprintf(out, "}");
}

/* Detailed fraction, and the speed-up over a full detailed run estimated from this run's own
 * detailed speed (instructions per second in the detailed model, drains included). */
static void acc_sampled_figures(const struct acc_ctx *x, double *frac, double *speedup)
{
	const struct sim_sampled_stats *t = &x->sst;
	double all = (double)(t->detailed_insns + t->warmed_insns);
	double rate = t->detailed_s > 0 ? (double)t->detailed_insns / t->detailed_s : 0;

	*frac = all > 0 ? (double)t->detailed_insns / all : 1;
	*speedup = rate > 0 && x->wall_s > 0 ? all / rate / x->wall_s : 1;
}

static void acc_report_sampled(const struct acc_ctx *x, FILE *out)
{
	const struct sim_sampled_stats *t = &x->sst;
	double frac, sp;

	acc_sampled_figures(x, &frac, &sp);
	fprintf(out, "  sampled: %llu windows of W %llu measured after D %llu detailed and U %llu "
		"%s instructions; measured %llu instructions in %llu cycles (IPC %.3f); detailed "
		"%llu instructions (%.2f%%), warmed %llu; %.2f s (%.2f s detailed, %.2f s warming), "
		"about %.1fx faster than full detail (estimated from this run's detailed speed)\n",
		(unsigned long long)t->windows, (unsigned long long)x->win.measure,
		(unsigned long long)x->win.detail, (unsigned long long)x->win.warm,
		x->win.cold ? "skipped (cold)" : "warmed", (unsigned long long)t->measured_insns, (unsigned long long)t->measured_cycles,
		t->measured_cycles ? (double)t->measured_insns / (double)t->measured_cycles : 0.0,
		(unsigned long long)t->detailed_insns, 100 * frac,
		(unsigned long long)t->warmed_insns, x->wall_s, t->detailed_s, t->warm_s, sp);
}

static void acc_json_sampled(const struct acc_ctx *x, FILE *out)
{
	const struct sim_sampled_stats *t = &x->sst;
	const struct core_stats *m = &t->measured;
	double frac, sp;

	acc_sampled_figures(x, &frac, &sp);
	fprintf(out, ", \"sampling\": {\"measure\": %llu, \"detail\": %llu, \"warm\": %llu, "
		"\"cold\": %s, \"windows\": %llu, \"measured_insns\": %llu, \"measured_cycles\": %llu, "
		"\"detailed_insns\": %llu, \"detailed_cycles\": %llu, \"warmed_insns\": %llu, "
		"\"detailed_fraction\": %.6f, \"wall_s\": %.3f, \"detailed_s\": %.3f, "
		"\"warm_s\": %.3f, \"speedup_estimate\": %.3f, \"measured_stats\": {"
		"\"insns\": %llu, \"cycles\": %llu, \"loads\": %llu, \"stores\": %llu, "
		"\"l1d_miss\": %llu, \"l1i_miss\": %llu, \"l2_miss\": %llu, \"branches\": %llu, "
		"\"br_mispred\": %llu, \"jumps\": %llu, \"jump_mispred\": %llu}}",
		(unsigned long long)x->win.measure, (unsigned long long)x->win.detail,
		(unsigned long long)x->win.warm, x->win.cold ? "true" : "false",
		(unsigned long long)t->windows,
		(unsigned long long)t->measured_insns, (unsigned long long)t->measured_cycles,
		(unsigned long long)t->detailed_insns, (unsigned long long)t->detailed_cycles,
		(unsigned long long)t->warmed_insns, frac, x->wall_s, t->detailed_s, t->warm_s, sp,
		(unsigned long long)m->insns, (unsigned long long)m->cycles,
		(unsigned long long)m->loads, (unsigned long long)m->stores,
		(unsigned long long)m->l1d_miss, (unsigned long long)m->l1i_miss,
		(unsigned long long)m->l2_miss, (unsigned long long)m->branches,
		(unsigned long long)m->br_mispred, (unsigned long long)m->jumps,
		(unsigned long long)m->jump_mispred);
}

static void acc_report(struct acc_ctx *x, FILE *out)
{
	const struct acc_lane *ln = &x->lane[0];

	if (x->json) {
		fprintf(out, "{\"workload\": \"%s\", \"config\": \"%s\", \"cycles\": %llu, "
			"\"samples\": %llu, \"period\": %u, \"mode\": \"%s\", \"lost\": %llu, "
			"\"functions\": %zu, \"basic_blocks\": %zu, "
			"\"oracle_crosscheck_maxdiff\": %.3g, \"tip_ideal_maxdiff\": %.3g, "
			"\"software_skid\": %llu, \"dispatch\": {\"samples\": %llu, \"attributed\": %llu, "
			"\"dropped\": %llu, \"unresolved\": %llu, \"rob_if_checked\": %llu, "
			"\"rob_if_mismatches\": %llu}, ",
			x->prog_argv[0], x->config, (unsigned long long)ln->rp.cycles,
			(unsigned long long)ln->tip_samples, ln->period,
			x->periodic ? "periodic" : "random-interval", (unsigned long long)ln->tip.lost,
			x->map.nfunc, x->map.nleader, x->oracle_maxdiff, x->tip_ideal_maxdiff,
			(unsigned long long)x->skid, (unsigned long long)ln->fe.samples,
			(unsigned long long)ln->fe.disp_attributed,
			(unsigned long long)ln->fe.disp_dropped,
			(unsigned long long)ln->fe.disp_unresolved,
			(unsigned long long)x->dc.checked, (unsigned long long)x->dc.mismatches);
		json_lane(out, x, ln);
		if (x->sweep) {
			fprintf(out, ", \"sweep\": [");
			for (unsigned n = 0; n < x->nlanes; n++) {
				const struct acc_lane *s = &x->lane[x->order[n]];

				fprintf(out, "%s{\"period\": %u, \"rand_bits\": %u, \"samples\": %llu, "
					"\"lost\": %llu, \"dispatch_dropped\": %llu, ", n ? ", " : "",
					s->period, x->periodic ? 0 : s->rand_bits,
					(unsigned long long)s->tip_samples,
					(unsigned long long)s->tip.lost,
					(unsigned long long)s->fe.disp_dropped);
				json_lane(out, x, s);
				fprintf(out, "}");
			}
			fprintf(out, "]");
		}
		if (x->sampled)
			acc_json_sampled(x, out);
		fprintf(out, "}\n");
		return;
	}
	fprintf(out, "tiprof accuracy: %s on %s: %llu cycles, %llu TIP samples (%s, period %u), "
		"%llu lost\n", x->prog_argv[0], x->config, (unsigned long long)ln->rp.cycles,
		(unsigned long long)ln->tip_samples, x->periodic ? "periodic" : "random interval",
		ln->period, (unsigned long long)ln->tip.lost);
	if (x->sampled)
		acc_report_sampled(x, out);
	fprintf(out, "  Oracle cross-check (core Oracle vs ROB-stream Oracle): largest relative "
		"difference %.3g over %zu addresses; TIP vs Ideal: %.3g\n", x->oracle_maxdiff,
		x->orc.n, x->tip_ideal_maxdiff);
	fprintf(out, "  error vs Oracle (systematic part in brackets; the rest is the statistical "
		"error of an ideal sampler):\n");
	fprintf(out, "    %-8s %20s %20s %20s\n", "policy", "instruction", "basic block", "function");
	fprintf(out, "    %-8s %9.2f%% %9s  %9.2f%% %9s  %9.2f%% %9s\n", "Ideal", 100 * ln->ideal[0],
		"", 100 * ln->ideal[1], "", 100 * ln->ideal[2], "");
	for (unsigned k = 0; k < x->nshow; k++) {
		int i = x->show[k];

		fprintf(out, "    %-8s", shown_name[i]);
		for (int l = 0; l < 3; l++)
			fprintf(out, " %9.2f%% (%6.2f%%)", 100 * ln->err[i][l],
				100 * (ln->err[i][l] - ln->ideal[l]));
		fprintf(out, "\n");
	}
	fprintf(out, "  Dispatch: %llu of %llu samples dropped (tagged instruction trapped), %llu "
		"after the last dispatch; tag = ROB interface's first dispatch in %llu of %llu "
		"sampled dispatch cycles; Software: skid %llu cycles to the fetch PC\n",
		(unsigned long long)ln->fe.disp_dropped, (unsigned long long)ln->fe.samples,
		(unsigned long long)ln->fe.disp_unresolved,
		(unsigned long long)(x->dc.checked - x->dc.mismatches),
		(unsigned long long)x->dc.checked, (unsigned long long)x->skid);
	fprintf(out, "  (%zu functions, %zu basic blocks recovered from the ELF)\n", x->map.nfunc,
		x->map.nleader);
	if (!x->sweep)
		return;
	for (int l = 0; l < 3; l++) {
		fprintf(out, "  %s-level error vs sampling period (one simulation, %u samplers):\n",
			l == 0 ? "instruction" : l == 1 ? "basic-block" : "function", x->nlanes);
		fprintf(out, "    %10s %9s %8s", "period", "samples", "Ideal");
		for (unsigned k = 0; k < x->nshow; k++)
			fprintf(out, " %8s", shown_name[x->show[k]]);
		fprintf(out, "\n");
		for (unsigned n = 0; n < x->nlanes; n++) {
			const struct acc_lane *s = &x->lane[x->order[n]];

			fprintf(out, "    %10u %9llu %7.2f%%", s->period,
				(unsigned long long)s->tip_samples, 100 * s->ideal[l]);
			for (unsigned k = 0; k < x->nshow; k++)
				fprintf(out, " %7.2f%%", 100 * s->err[x->show[k]][l]);
			fprintf(out, "\n");
		}
	}
}

/* --policies: a comma-separated list of policy names (case-insensitive) to report, in the
 * order given; every policy is still simulated (they share the sampled cycles). */
static int parse_policies(struct acc_ctx *x, const char *list)
{
	const char *p = list;

	x->nshow = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int found = -1;

		for (int i = 0; i < SH_COUNT; i++)
			if (strlen(shown_name[i]) == len && !strncasecmp(p, shown_name[i], len))
				found = i;
		for (unsigned k = 0; found >= 0 && k < x->nshow; k++)
			if (x->show[k] == found)
				found = -2;
		if (found < 0) {
			fprintf(stderr, "tiprof accuracy: --policies: %s policy '%.*s' in '%s'; use "
				"TIP, TIP-ILP, NCI, NCI+ILP, LCI, Dispatch, Software\n",
				found == -2 ? "repeated" : "unknown", (int)len, p, list);
			return -1;
		}
		x->show[x->nshow++] = found;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* One chart for svg_write_file: a bar chart (bars set) or a line chart. */
struct acc_chart {
	const struct svg_bars *bars;
	const struct svg_lines *lines;
};

static int acc_chart_write(FILE *f, const void *arg)
{
	const struct acc_chart *c = arg;

	return c->bars ? svg_bar_chart(f, c->bars) : svg_line_chart(f, c->lines);
}

/* Write one chart to dir/<workload>-<what>.svg (atomically: a failed write leaves no
 * partial file); returns 0 or -1 with err set. */
static int svg_write(struct acc_ctx *x, const char *what, const struct svg_bars *bars,
		     const struct svg_lines *lines)
{
	const char *base = strrchr(x->prog_argv[0], '/');
	struct acc_chart c = { bars, lines };
	char path[4096];

	base = base ? base + 1 : x->prog_argv[0];
	snprintf(path, sizeof(path), "%s/%s-%s.svg", x->svg_dir, base, what);
	return svg_write_file(path, acc_chart_write, &c, x->err, sizeof(x->err));
}

/* The charts: per-policy error bars (paper Figs. 8-10 style) of lane 0, and error vs
 * sampling period lines (Fig. 11 style) at instruction and function level. */
static int acc_svg(struct acc_ctx *x)
{
	static const char *const series[3] = { "instruction", "basic block", "function" };
	double v[SH_COUNT * 3], px[ACC_MAX_LANES], py[SH_COUNT * ACC_MAX_LANES];
	const char *base = strrchr(x->prog_argv[0], '/');
	char title[256];
	struct svg_bars b;
	struct svg_lines ln;
	const char *names[SH_COUNT];

	for (unsigned k = 0; k < x->nshow; k++)
		names[k] = shown_name[x->show[k]];
	base = base ? base + 1 : x->prog_argv[0];
	if (mkdir(x->svg_dir, 0777) && errno != EEXIST) {
		snprintf(x->err, sizeof(x->err), "cannot create %s: %s", x->svg_dir, strerror(errno));
		return -1;
	}
	for (unsigned k = 0; k < x->nshow; k++)
		for (int l = 0; l < 3; l++)
			v[k * 3 + l] = 100 * x->lane[0].err[x->show[k]][l];
	snprintf(title, sizeof(title), "%s on %s: error vs Oracle, period %u", base, x->config,
		 x->lane[0].period);
	b = (struct svg_bars){ title, "error (%)", names, x->nshow, series, 3, v };
	if (svg_write(x, "policies", &b, NULL))
		return -1;
	for (int l = 0; l < 3; l += 2) {
		for (unsigned n = 0; n < x->nlanes; n++) {
			const struct acc_lane *s = &x->lane[x->order[n]];

			px[n] = s->period;
			for (unsigned k = 0; k < x->nshow; k++)
				py[(size_t)k * x->nlanes + n] = 100 * s->err[x->show[k]][l];
		}
		snprintf(title, sizeof(title), "%s on %s: %s-level error vs sampling period", base,
			 x->config, l ? "function" : "instruction");
		ln = (struct svg_lines){ title, "sampling period (cycles, log scale)", "error (%)",
					 px, x->nlanes, names, x->nshow, py };
		if (svg_write(x, l ? "sweep-function" : "sweep", NULL, &ln))
			return -1;
	}
	return 0;
}

/* Default period: the largest of the lanes whose run gave at least ACC_STABLE_SAMPLES samples
 * (statistical error shrinks only with the number of samples), or the shortest. The chosen
 * lane becomes lane 0, the one the report shows. */
#define ACC_STABLE_SAMPLES 100000u
static void acc_pick_period(struct acc_ctx *x, FILE *out)
{
	unsigned best = 0;
	struct acc_lane tmp;

	for (unsigned l = 0; l < x->nlanes; l++) {
		const struct acc_lane *a = &x->lane[l], *b = &x->lane[best];

		if ((a->tip_samples >= ACC_STABLE_SAMPLES) != (b->tip_samples >= ACC_STABLE_SAMPLES) ?
		    a->tip_samples >= ACC_STABLE_SAMPLES :
		    (a->tip_samples >= ACC_STABLE_SAMPLES ? a->period > b->period : a->period < b->period))
			best = l;
	}
	if (best) {
		tmp = x->lane[0];
		x->lane[0] = x->lane[best];
		x->lane[best] = tmp;
	}
	if (!x->json)
		fprintf(out, "tiprof accuracy: period %u picked from", x->lane[0].period);
	for (unsigned l = 0; !x->json && l < x->nlanes; l++)
		fprintf(out, " %u (%llu samples)", x->lane[l].period,
			(unsigned long long)x->lane[l].tip_samples);
	if (!x->json)
		fprintf(out, "%s\n", x->lane[0].tip_samples >= ACC_STABLE_SAMPLES ? "" :
			"; fewer than 100,000 samples: the result is not stable, use a longer run");
}

static int acc_run(struct acc_ctx *x)
{
	struct core_cfg cfg;
	struct iss_config icfg;
	struct tip_model_cfg tcfg;
	int ret = TIPROF_EXIT_FAIL;
	FILE *out;

	memset(&icfg, 0, sizeof(icfg));
	run_opts_iss(&x->run, &icfg);
	if (cmd_out_open(&x->out, x->run.out_path, x->err, sizeof(x->err))) {
		fprintf(stderr, "tiprof accuracy: %s\n", x->err);
		return TIPROF_EXIT_FAIL;
	}
	out = x->out.f;
	core_cfg_preset(&cfg, x->config);
	tcfg.w = cfg.width;
	tcfg.xlen = 64;
	tcfg.fifo_depth = 64;
	tcfg.input_stage = 0;
	x->rob_entries = cfg.rob;
	if (oracle_init(&x->orc, cfg.width))
		goto oom;
	for (unsigned l = 0; l < x->nlanes; l++) {
		struct acc_lane *ln = &x->lane[l];

		if (rob_policies_init(&ln->rp, cfg.width))
			goto oom;
		if (fe_policies_init(&ln->fe, x->skid)) {
			rob_policies_free(&ln->rp);
			goto oom;
		}
		if (tip_model_init(&ln->tip, &tcfg)) {
			rob_policies_free(&ln->rp);
			fe_policies_free(&ln->fe);
			goto oom;
		}
		ln->inited = 1;
	}
	if (code_map_load(&x->map, x->prog_argv[0], x->err, sizeof(x->err)))
		goto fail;
	x->iss = iss_create(x->prog_argv[0], x->prog_argv, environ, &icfg, x->err, sizeof(x->err));
	if (!x->iss)
		goto fail;
	x->core = core_create(&cfg, x->iss, x->err, sizeof(x->err));
	if (!x->core)
		goto fail;
	if (x->trace_path &&
	    sim_trace_open(&x->tw, x->trace_path, cfg.width, x->err, sizeof(x->err)))
		goto fail;
	if (acc_loop(x) || sim_trace_close(&x->tw, 1, x->err, sizeof(x->err)))
		goto fail;
	if (x->sampled && !x->sst.measured_cycles) {
		snprintf(x->err, sizeof(x->err), "--windows: no cycle was measured: the program ended "
			 "after %llu instructions, before its first window (D = %llu)",
			 (unsigned long long)(x->sst.detailed_insns + x->sst.warmed_insns),
			 (unsigned long long)x->win.detail);
		goto fail;
	}
	if (x->oracle_path) {
		FILE *pf = fopen(x->oracle_path, "w");

		if (!pf || oracle_write(&x->orc, pf, x->sampled ? x->sst.measured_insns :
					core_stats(x->core)->insns) || fclose(pf)) {
			if (pf)		/* no partial profile */
				unlink(x->oracle_path);
			snprintf(x->err, sizeof(x->err), "cannot write the Oracle profile to %s",
				 x->oracle_path);
			goto fail;
		}
	}
	acc_crosscheck(x);
	acc_errors(x);
	fflush(stdout);		/* the program's output first, when both go to one place */
	if (x->auto_period)
		acc_pick_period(x, out);
	acc_report(x, out);
	if (x->oracle_maxdiff > 1e-9 || x->tip_ideal_maxdiff > 1e-9 || x->dc.mismatches) {
		snprintf(x->err, sizeof(x->err), "self-check failed: the Oracles differ by a relative "
			 "%g, TIP and Ideal by %g; %llu Dispatch tags differ from the ROB interface's",
			 x->oracle_maxdiff, x->tip_ideal_maxdiff, (unsigned long long)x->dc.mismatches);
		goto fail;
	}
	if (x->svg_dir && acc_svg(x))
		goto fail;
	if (cmd_out_close(&x->out, 1, x->err, sizeof(x->err)))
		goto fail;
	ret = TIPROF_EXIT_OK;
	goto done;
oom:
	snprintf(x->err, sizeof(x->err), "out of memory");
fail:
	cmd_out_close(&x->out, 0, x->err, sizeof(x->err));	/* no partial report */
	fprintf(stderr, "tiprof accuracy: %s\n", x->err);
done:
	sim_trace_close(&x->tw, 0, x->err, sizeof(x->err));	/* no partial trace */
	core_destroy(x->core);
	if (x->iss)
		iss_destroy(x->iss);
	oracle_fini(&x->orc);
	for (unsigned l = 0; l < x->nlanes; l++)
		if (x->lane[l].inited) {
			rob_policies_free(&x->lane[l].rp);
			fe_policies_free(&x->lane[l].fe);
			tip_model_fini(&x->lane[l].tip);
		}
	code_map_free(&x->map);
	free(x->dc.t);
	free(x->dc.pc);
	return ret;
}

/* Parse "P1,P2,..." into the lanes; returns 0 or -1 (message printed). */
static int parse_sweep(struct acc_ctx *x, const char *arg)
{
	const char *p = arg;
	char *end;

	x->nlanes = 0;
	while (*p) {
		unsigned long v;
		unsigned k;

		errno = 0;
		v = strtoul(p, &end, 0);
		if (end == p || !isdigit((unsigned char)*p) || errno || (*end && *end != ',') || v < 1 || v > 0xffffffffUL ||
		    x->nlanes == ACC_MAX_LANES) {
			fprintf(stderr, "tiprof accuracy: --sweep: bad list '%s' (1 to %d different "
				"periods 1..2^32-1, separated by commas)\n", arg, ACC_MAX_LANES);
			return -1;
		}
		for (k = 0; k < x->nlanes && x->lane[k].period != v; k++)
			;
		if (k < x->nlanes) {
			fprintf(stderr, "tiprof accuracy: --sweep: period %lu given twice\n", v);
			return -1;
		}
		x->lane[x->nlanes++].period = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	if (!x->nlanes) {
		fprintf(stderr, "tiprof accuracy: --sweep: empty list\n");
		return -1;
	}
	return 0;
}

/* --windows W,D,U[,cold]: three instruction counts, W >= 1, and "cold" to skip the U
 * instructions without warming; returns 0 or -1 (one line printed). */
static int parse_windows(struct acc_ctx *x, const char *arg)
{
	uint64_t v[3];
	const char *p = arg;
	char *end;
	int cold = 0;

	for (int k = 0; k < 3; k++) {
		unsigned long long n;

		errno = 0;
		n = strtoull(p, &end, 10);
		if (k == 2 && !strcmp(end, ",cold"))
			cold = 1;
		else if (end == p || !isdigit((unsigned char)*p) || errno || n > (1ULL << 50) ||
			 (k < 2 ? *end != ',' : *end != '\0') || (k == 0 && n == 0))
			goto bad;
		if (end == p || !isdigit((unsigned char)*p) || errno || n > (1ULL << 50))
			goto bad;
		v[k] = n;
		p = end + 1;
	}
	x->win.measure = v[0];
	x->win.detail = v[1];
	x->win.warm = v[2];
	x->win.cold = cold;
	x->sampled = 1;
	return 0;
bad:
	fprintf(stderr, "tiprof accuracy: --windows: bad value '%s' (W,D,U[,cold]: W >= 1 "
		"measured, D detailed warm-up and U functionally warmed instructions, e.g. "
		"10000,2000,100000)\n", arg);
	return -1;
}

static const struct opt_use accuracy_uses[] = {
	{ OPT_CONFIG, NULL },
	{ OPT_PERIOD, "cycles between samples (default: 16, 64 and 256 side by side, the longest "
	  "giving 100,000 samples reported)" },
	{ OPT_SWEEP, "several periods on one run: error vs sampling period" },
	{ OPT_RANDOM_BITS, NULL },
	{ OPT_PERIODIC, NULL },
	{ OPT_SAMPLER_SEED, NULL },
	{ OPT_EVENT, "profileme: judge the ProfileMe unit's estimates (event counts with 95% "
	  "intervals, latencies, wasted issue slots) against the core's exact truth instead "
	  "(docs/profileme-accuracy.md); --period then counts fetched instructions (default 1024)" },
	{ OPT_PAIR, "with -e profileme: paired sampling within W fetched instructions" },
	{ OPT_LIMIT, "with -e profileme: compare the N hottest instructions (default 20)" },
	{ OPT_POLICIES, "report only these: TIP, TIP-ILP, NCI, NCI+ILP, LCI, Dispatch, Software" },
	{ OPT_SKID, "interrupt skid of the Software policy (default 40 cycles)" },
	{ OPT_OUTPUT, "write the report to FILE (default: standard error; '-': standard output)" },
	{ OPT_JSON, "print the report as one JSON object" },
	{ OPT_SVG, "write the charts into directory OUT" },
	{ OPT_ROB_TRACE, "record the per-cycle ROB interface for replay through the RTL" },
	{ OPT_WINDOWS, NULL },
	{ OPT_ORACLE, "write the per-address Oracle profile to FILE (measured cycles only when "
	  "sampled)" },
	{ OPT_SYSROOT, NULL },
	{ OPT_EXE_PATH, NULL },
	{ OPT_PROGRESS, NULL },
	{ OPT_NO_PROGRESS, NULL },
	{ OPT_EXPECT, NULL },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_accuracy = { "accuracy", accuracy_uses, "accuracy" };

/* Entry point of `tiprof accuracy` (registered in sw/tiprof.c). */
int cmd_accuracy(int argc, char **argv)
{
	struct acc_ctx *x;
	struct core_cfg probe;
	uint32_t period = 64;
	int period_given = 0;
	struct opt_parser p;
	struct accuracy_pm_opts pmo;
	int pm = 0, tip_only = 0;
	uint64_t v;
	int i, o, ret;

	/* about 1 KB per lane of fixed state: on the heap rather than the stack */
	x = calloc(1, sizeof(*x));
	if (!x) {
		fprintf(stderr, "tiprof accuracy: out of memory\n");
		return TIPROF_EXIT_FAIL;
	}
	x->config = "4wide";
	x->skid = FE_DEFAULT_SKID;
	memset(&pmo, 0, sizeof(pmo));
	pmo.top = 20;
	for (int k = 0; k < SH_COUNT; k++)
		x->show[x->nshow++] = k;
	run_opts_init(&x->run);
	opt_init(&p, &opt_set_accuracy, argc, argv, 0);
	while ((o = opt_next(&p)) != OPT_END) {
		int r = run_opts_take(&x->run, &p, o);

		if (r < 0)
			goto usage;
		if (r)
			continue;
		switch (o) {
		case OPT_HELP_DONE:
			free(x);
			return TIPROF_EXIT_OK;
		case OPT_ERROR:
			goto usage;
		case OPT_JSON:
			x->json = 1;
			break;
		case OPT_PERIODIC:
			x->periodic = 1;
			break;
		case OPT_CONFIG:
			x->config = p.arg;
			if (core_cfg_preset(&probe, x->config)) {
				opt_usage_error(&opt_set_accuracy, "unknown configuration '%s'; use "
						"4wide, 2wide or 1wide", x->config);
				goto usage;
			}
			break;
		case OPT_PERIOD:
			if (opt_u64(&p, 1, 0xffffffffu, &v))
				goto usage;
			period = (uint32_t)v;
			period_given = 1;
			break;
		case OPT_SKID:
			if (opt_u64(&p, 0, 1000000, &x->skid))
				goto usage;
			break;
		case OPT_RANDOM_BITS:
			if (opt_u64(&p, 0, 31, &v))
				goto usage;
			x->rand_bits = (unsigned)v;
			x->rand_bits_set = 1;
			break;
		case OPT_SAMPLER_SEED:
			if (opt_u64(&p, 1, 0xffffffffu, &v))
				goto usage;
			x->sampler_seed = (uint32_t)v;
			break;
		case OPT_EVENT:
			if (!strcmp(p.arg, "profileme")) {
				pm = 1;
			} else if (strcmp(p.arg, "tip")) {
				opt_usage_error(&opt_set_accuracy, "unknown event '%s'; use tip or "
						"profileme", p.arg);
				goto usage;
			}
			break;
		case OPT_PAIR:
			if (opt_u64(&p, 1, 256, &v))
				goto usage;
			pmo.window = (unsigned)v;
			break;
		case OPT_LIMIT:
			if (opt_u64(&p, 1, 1000000, &v))
				goto usage;
			pmo.top = (unsigned)v;
			break;
		case OPT_SWEEP:
			if (parse_sweep(x, p.arg))
				goto usage;
			x->sweep = 1;
			tip_only = 1;
			break;
		case OPT_POLICIES:
			if (parse_policies(x, p.arg))
				goto usage;
			tip_only = 1;
			break;
		case OPT_SVG:
			x->svg_dir = p.arg;
			tip_only = 1;
			break;
		case OPT_ROB_TRACE:
			x->trace_path = p.arg;
			tip_only = 1;
			break;
		case OPT_ORACLE:
			x->oracle_path = p.arg;
			tip_only = 1;
			break;
		case OPT_WINDOWS:
			if (parse_windows(x, p.arg))
				goto usage;
			tip_only = 1;
			break;
		}
	}
	i = p.i;
	if (i >= argc) {
		opt_usage_error(&opt_set_accuracy, "no program given (tiprof help accuracy)");
		goto usage;
	}
	if (pm && (tip_only || x->skid != FE_DEFAULT_SKID)) {
		opt_usage_error(&opt_set_accuracy, "-e profileme takes --config, --period, "
				"--random-bits/--periodic, --sampler-seed, --pair, --limit, --json, "
				"-o and the run options; --sweep, --policies, --skid, --svg, "
				"--rob-trace, --oracle and --windows are TIP's");
		goto usage;
	}
	if (!pm && (pmo.window || pmo.top != 20)) {
		opt_usage_error(&opt_set_accuracy, "--pair and --limit need -e profileme");
		goto usage;
	}
	if (pm) {
		pmo.config = x->config;
		pmo.period = period_given ? period : 1024;
		pmo.rand_bits = x->periodic ? 0 : x->rand_bits_set ? x->rand_bits :
				tiprof_random_bits(pmo.period);
		pmo.seed = x->sampler_seed;
		pmo.json = x->json;
		pmo.run = x->run;
		pmo.prog_argv = argv + i;
		free(x);
		return accuracy_pm_run(&pmo);
	}
	if (!x->sweep && !period_given) {
		/* default: three periods side by side, the report shows the one with enough samples */
		static const uint32_t auto_periods[] = { 256, 64, 16 };

		x->auto_period = 1;
		x->nlanes = 3;
		for (unsigned l = 0; l < 3; l++)
			x->lane[l].period = auto_periods[l];
	} else if (!x->sweep) {
		x->nlanes = 1;
		x->lane[0].period = period;
	}
	/* sweep output by increasing period (insertion sort of the lane indices) */
	for (unsigned l = 0; l < x->nlanes; l++) {
		unsigned k = l;

		for (; k && x->lane[x->order[k - 1]].period > x->lane[l].period; k--)
			x->order[k] = x->order[k - 1];
		x->order[k] = l;
	}
	/* each lane's k: --rand-bits, or the one that makes its period's phases uniform */
	for (unsigned l = 0; l < x->nlanes; l++)
		x->lane[l].rand_bits = x->rand_bits_set ? x->rand_bits
				       : tiprof_random_bits(x->lane[l].period);
	x->prog_argv = argv + i;
	ret = acc_run(x);
	free(x);
	return ret;
usage:
	free(x);
	return TIPROF_EXIT_USAGE;
}
