/* SPDX-License-Identifier: Apache-2.0 */
/*
 * accuracy_pm.c - ProfileMe's estimates against the core's truth (contract in accuracy_pm.h;
 * formulas in docs/profileme-accuracy.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy_pm.h"
#include "cmd_out.h"
#include "core.h"
#include "pm_est.h"
#include "pm_truth.h"
#include "pmsim.h"
#include "progress.h"
#include "sim_run.h"
#include "tiprof/cmd.h"

extern char **environ;

/* The events compared: the estimator's event and the truth's columns that count it. */
struct acc_ev {
	const char *name;
	int ev;			/* PM_EST_EV_FETCHED or a TIPROF_PM_EV_* bit */
	int col[3];		/* PMT_* columns summed (-1: none) */
};
static const struct acc_ev acc_evs[] = {
	{ "fetched", PM_EST_EV_FETCHED, { PMT_FETCHED, -1, -1 } },
	{ "retired", TIPROF_PM_EV_RETIRED, { PMT_RETIRED, -1, -1 } },
	{ "aborted", TIPROF_PM_EV_ABORTED, { PMT_TRAP, PMT_SQUASH_MISPRED, PMT_SQUASH_OTHER } },
	{ "dc_miss", TIPROF_PM_EV_DC_MISS, { PMT_DC_MISS, -1, -1 } },
	{ "dtlb_miss", TIPROF_PM_EV_DTLB_MISS, { PMT_DTLB_MISS, -1, -1 } },
	{ "br_mispred", TIPROF_PM_EV_BR_MISPRED, { PMT_MISPRED, -1, -1 } },
	{ "br_taken", TIPROF_PM_EV_BR_TAKEN, { PMT_TAKEN, -1, -1 } },
	{ "ic_miss", TIPROF_PM_EV_IC_MISS, { PMT_IC_MISS, -1, -1 } },
};
#define ACC_NEV (sizeof(acc_evs) / sizeof(acc_evs[0]))

/* The records of the run, kept in memory. */
struct acc_recs {
	struct tiprof_pm_sample *s;
	size_t n, cap;
};

/* Everything of one run. */
struct acc_pm {
	const struct accuracy_pm_opts *o;
	struct iss *iss;
	struct core *core;
	struct pmsim *pms;
	struct pm_truth truth;
	int truth_on;
	struct acc_recs recs;
	struct pm_est est;
	int est_on;
	struct pmsim_stats st;
	struct tiprof_pm_config pcfg;
	struct sim_progress prog;
	struct cmd_out out;
	const struct pm_truth_ent **top;	/* the hottest instructions, by fetches */
	size_t ntop;
	struct acc_row *rows;			/* the compared counts */
	size_t nrows;
	struct acc_pair *prs;			/* the compared pair figures */
	size_t nprs;
	struct acc_lat *lats;			/* the compared mean latencies */
	size_t nlats;
	char err[512];
};

static int keep_record(void *ctx, const struct tiprof_pm_sample *s, char *err, size_t errlen)
{
	struct acc_recs *r = ctx;

	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		struct tiprof_pm_sample *n = realloc(r->s, cap * sizeof(*n));

		if (!n) {
			snprintf(err, errlen, "out of memory for the ProfileMe records");
			return -1;
		}
		r->s = n;
		r->cap = cap;
	}
	r->s[r->n++] = *s;
	return 0;
}

static int pm_cycle(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
		    size_t errlen)
{
	struct acc_pm *a = ctx;

	(void)cyc;
	if (pmsim_cycle(a->pms, o, err, errlen))
		return -1;
	if (pm_truth_cycle(&a->truth, o)) {
		snprintf(err, errlen, "out of memory for the ProfileMe truth");
		return -1;
	}
	return 0;
}

/* Truth count of event i for instruction t. */
static uint64_t truth_of(const struct pm_truth_ent *t, unsigned i)
{
	uint64_t n = 0;

	for (unsigned c = 0; c < 3; c++)
		if (acc_evs[i].col[c] >= 0)
			n += t->n[acc_evs[i].col[c]];
	return n;
}

/* Column c summed over every instruction. */
static uint64_t truth_total(const struct pm_truth *t, unsigned c)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < t->size; i++)
		n += t->tab[i].n[c];
	return n;
}

static int by_fetched(const void *x, const void *y)
{
	const struct pm_truth_ent *a = *(const struct pm_truth_ent *const *)x;
	const struct pm_truth_ent *b = *(const struct pm_truth_ent *const *)y;

	if (a->n[PMT_FETCHED] != b->n[PMT_FETCHED])
		return a->n[PMT_FETCHED] > b->n[PMT_FETCHED] ? -1 : 1;
	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* The o->top hottest instructions of the truth. 0 or -1 (out of memory). */
static int pick_top(struct acc_pm *a)
{
	const struct pm_truth *t = &a->truth;
	const struct pm_truth_ent **v = malloc((t->used ? t->used : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return -1;
	for (uint64_t i = 0; i < t->size; i++)
		if (t->tab[i].pc)
			v[k++] = &t->tab[i];
	qsort(v, k, sizeof(*v), by_fetched);
	a->top = v;
	a->ntop = k < a->o->top ? k : a->o->top;
	return 0;
}

/* One compared count: an instruction's event, its estimate and the truth. */
struct acc_row {
	uint64_t pc, k, tv;		/* address, sample count, true count */
	size_t rank;			/* rank of the instruction by fetches */
	unsigned ev;			/* index in acc_evs */
	double est, lo, hi;		/* estimate and its 95% interval */
};

/* One instruction's paired-sample figures, estimated and true (per fetch). */
struct acc_pair {
	uint64_t pc, fetched, n;	/* address, true fetches, pairs that used it */
	double life, life_est, ov, ov_est, ov_lo, ov_hi, w, w_est;
};

/* One instruction's mean latency of one stage: the samples' mean and its standard error, and
 * the truth's mean over the same population (every fetch for the total, the committed ones for
 * the stages, the memory instructions for mem). */
struct acc_lat {
	uint64_t pc, n;			/* address, samples with the latency valid */
	unsigned sel;			/* TIPROF_PM_LAT_* */
	double mean, se, truth;		/* estimate, its standard error, true mean */
};

/* Standard error of the mean of l's values (0 for fewer than 2). */
static double lat_se(const struct pm_est_lat *l)
{
	double m, ss = 0.0;

	if (l->n < 2)
		return 0.0;
	m = l->sum / (double)l->n;
	for (uint64_t i = 0; i < l->n; i++)
		ss += ((double)l->v[i] - m) * ((double)l->v[i] - m);
	return sqrt(ss / (double)(l->n - 1) / (double)l->n);
}

/* The true mean latency sel of t, or -1 when the truth has no population for it. */
static double truth_lat(const struct pm_truth_ent *t, unsigned sel)
{
	uint64_t pop = sel == TIPROF_PM_LAT_TOTAL ? t->n[PMT_FETCHED] :
		       sel == TIPROF_PM_LAT_MEM ? t->n[PMT_LOAD] + t->n[PMT_STORE] :
		       t->n[PMT_RETIRED];

	if (!pop)
		return -1.0;
	return sel == TIPROF_PM_LAT_TOTAL ? (double)t->n[PMT_ALL_LIFETIME] / (double)pop :
	       (double)t->n[PMT_LAT0 + sel] / (double)pop;
}

/* The rows of the hottest instructions: counts with a nonzero truth or estimate, the pair
 * figures of those with pairs, the mean latencies with at least 2 samples. 0, or -1 out of
 * memory. */
static int build_rows(struct acc_pm *a)
{
	a->rows = calloc(a->ntop * ACC_NEV + 1, sizeof(*a->rows));
	a->prs = calloc(a->ntop + 1, sizeof(*a->prs));
	a->lats = calloc(a->ntop * TIPROF_PM_NLAT + 1, sizeof(*a->lats));
	if (!a->rows || !a->prs || !a->lats)
		return -1;
	for (size_t i = 0; i < a->ntop; i++) {
		const struct pm_truth_ent *t = a->top[i];
		const struct pm_est_insn *in = pm_est_find(&a->est, t->pc);
		double f = (double)t->n[PMT_FETCHED];

		for (unsigned e = 0; e < ACC_NEV; e++) {
			struct acc_row *r = &a->rows[a->nrows];

			r->tv = truth_of(t, e);
			r->k = in ? in->k_ev[acc_evs[e].ev] : 0;
			if (!r->tv && !r->k)
				continue;
			r->pc = t->pc;
			r->rank = i;
			r->ev = e;
			r->est = pm_est_count(&a->est, r->k);
			pm_est_interval(&a->est, r->k, &r->lo, &r->hi);
			a->nrows++;
		}
		for (unsigned sel = 0; in && sel < TIPROF_PM_NLAT; sel++) {
			struct acc_lat *l = &a->lats[a->nlats];
			double tm = truth_lat(t, sel);

			/* trapped ecalls are mapped but not committed: leave instructions with any out */
			if (in->lat[sel].n < 2 || tm < 0 || (sel != TIPROF_PM_LAT_TOTAL && t->n[PMT_TRAP]))
				continue;
			l->pc = t->pc;
			l->sel = sel;
			l->n = in->lat[sel].n;
			l->mean = pm_est_lat_mean(&in->lat[sel]);
			l->se = lat_se(&in->lat[sel]);
			l->truth = tm;
			a->nlats++;
		}
		if (in && in->pair.life_n) {
			struct acc_pair *q = &a->prs[a->nprs++];

			q->pc = t->pc;
			q->fetched = t->n[PMT_FETCHED];
			q->n = in->pair.n_first + in->pair.n_second;
			q->life = (double)t->n[PMT_ALL_LIFETIME] / f;
			q->ov = (double)t->n[PMT_ALL_OVERLAP] / f;
			q->w = (double)a->truth.issue_width * q->life - q->ov;
			q->life_est = in->pair.life_mean;
			q->ov_est = in->pair.overlap;
			q->ov_lo = in->pair.overlap_lo;
			q->ov_hi = in->pair.overlap_hi;
			q->w_est = in->pair.wasted;
		}
	}
	return 0;
}

static int row_inside(const struct acc_row *r)
{
	return (double)r->tv >= r->lo && (double)r->tv <= r->hi;
}

/* Coverage and error summary over the rows with a nonzero truth, and the pairs. */
struct acc_sum {
	uint64_t counts, covered;	/* counts with a true value > 0, of them inside */
	double rel_sum;			/* sum of their |relative error| */
	double w_true, w_est;		/* fetch-weighted wasted slots, true and estimated */
	double o_true, o_est;		/* fetch-weighted useful overlap */
	double wasted_abs_rel;		/* mean |rel. error| of wasted slots per instruction */
	uint64_t lats, lats_in;		/* mean latencies whose samples vary, of them within
					 * 1.96 standard errors of the truth */
	uint64_t lats_const;		/* mean latencies whose samples are all equal (se 0) */
	double lat_rel_sum;		/* sum of their |relative error| (true mean > 0) */
	uint64_t lat_rel_n;
};

static int lat_inside(const struct acc_lat *l)
{
	return fabs(l->mean - l->truth) <= 1.96 * l->se;
}

static void summarize(const struct acc_pm *a, struct acc_sum *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < a->nrows; i++) {
		const struct acc_row *r = &a->rows[i];

		if (!r->tv)
			continue;
		s->counts++;
		s->covered += (uint64_t)row_inside(r);
		s->rel_sum += fabs(r->est - (double)r->tv) / (double)r->tv;
	}
	for (size_t i = 0; i < a->nprs; i++) {
		const struct acc_pair *q = &a->prs[i];

		s->w_true += (double)q->fetched * q->w;
		s->w_est += (double)q->fetched * q->w_est;
		s->o_true += (double)q->fetched * q->ov;
		s->o_est += (double)q->fetched * q->ov_est;
		s->wasted_abs_rel += q->w ? fabs(q->w_est - q->w) / q->w : 0.0;
	}
	if (a->nprs)
		s->wasted_abs_rel /= (double)a->nprs;
	for (size_t i = 0; i < a->nlats; i++) {
		const struct acc_lat *l = &a->lats[i];

		if (l->se > 0) {
			s->lats++;
			s->lats_in += (uint64_t)lat_inside(l);
		} else {
			s->lats_const++;
		}
		if (l->truth > 0) {
			s->lat_rel_sum += fabs(l->mean - l->truth) / l->truth;
			s->lat_rel_n++;
		}
	}
}

static double pct_of(double part, double whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static void report_text(struct acc_pm *a, FILE *f)
{
	const struct accuracy_pm_opts *o = a->o;
	struct acc_sum s;

	summarize(a, &s);
	fprintf(f, "tiprof accuracy -e profileme: %s on %s, period %u fetched instructions%s",
		o->prog_argv[0], o->config, o->period, o->rand_bits ? " (random interval)" : "");
	if (o->window)
		fprintf(f, ", pairs within %u", o->window);
	fprintf(f, "\n  %zu records (%llu selections: %llu taken, %llu lost, %llu collided); "
		"scale %.2f fetched instructions per record\n", a->recs.n,
		(unsigned long long)(a->st.counts.taken + a->st.counts.lost +
				     a->st.counts.filtered + a->st.counts.collided),
		(unsigned long long)a->st.counts.taken, (unsigned long long)a->st.counts.lost,
		(unsigned long long)a->st.counts.collided, a->est.scale);
	fprintf(f, "  truth: %llu cycles, %llu instructions fetched (%llu retired) at %llu "
		"addresses, issue width %u\n", (unsigned long long)a->truth.cycles,
		(unsigned long long)truth_total(&a->truth, PMT_FETCHED),
		(unsigned long long)truth_total(&a->truth, PMT_RETIRED),
		(unsigned long long)a->truth.used, a->truth.issue_width);
	fprintf(f, "%-12s %-10s %12s %12s %12s %12s %12s %4s\n", "pc", "event", "k", "true",
		"estimate", "95% lo", "95% hi", "in");
	for (size_t i = 0; i < a->nrows; i++) {
		const struct acc_row *r = &a->rows[i];

		fprintf(f, "0x%-10llx %-10s %12llu %12llu %12.0f %12.0f %12.0f %4s\n",
			(unsigned long long)r->pc, acc_evs[r->ev].name, (unsigned long long)r->k,
			(unsigned long long)r->tv, r->est, r->lo, r->hi, row_inside(r) ? "yes" : "NO");
	}
	fprintf(f, "coverage of the 95%% intervals: %llu of %llu (%.1f%%) instruction x event "
		"counts of the %zu hottest instructions; mean relative error %.3f\n",
		(unsigned long long)s.covered, (unsigned long long)s.counts,
		pct_of((double)s.covered, (double)s.counts), a->ntop,
		s.counts ? s.rel_sum / (double)s.counts : 0.0);
	fprintf(f, "%-12s %-16s %8s %10s %10s %10s %4s\n", "pc", "latency", "samples", "true",
		"mean", "+-1.96se", "in");
	for (size_t i = 0; i < a->nlats; i++) {
		const struct acc_lat *l = &a->lats[i];

		fprintf(f, "0x%-10llx %-16s %8llu %10.2f %10.2f %10.2f %4s\n",
			(unsigned long long)l->pc, pm_est_lat_name(l->sel), (unsigned long long)l->n,
			l->truth, l->mean, 1.96 * l->se,
			l->se > 0 ? (lat_inside(l) ? "yes" : "NO") : "-");
	}
	fprintf(f, "mean latencies: %llu of %llu (%.1f%%) within 1.96 standard errors of the true "
		"mean (%llu more whose samples were all equal: -); mean relative error %.3f\n",
		(unsigned long long)s.lats_in, (unsigned long long)s.lats,
		pct_of((double)s.lats_in, (double)s.lats), (unsigned long long)s.lats_const,
		s.lat_rel_n ? s.lat_rel_sum / (double)s.lat_rel_n : 0.0);
	if (!o->window)
		return;
	fprintf(f, "%-12s %10s %10s %10s %10s %10s %10s %8s\n", "pc", "pairs", "life", "life~",
		"overlap", "overlap~", "wasted", "wasted~");
	for (size_t i = 0; i < a->nprs; i++) {
		const struct acc_pair *q = &a->prs[i];

		fprintf(f, "0x%-10llx %10llu %10.2f %10.2f %10.2f %10.2f %10.2f %8.2f\n",
			(unsigned long long)q->pc, (unsigned long long)q->n, q->life, q->life_est,
			q->ov, q->ov_est, q->w, q->w_est);
	}
	fprintf(f, "wasted issue slots of these %zu instructions (weighted by fetches): true %.4g, "
		"estimated %.4g (%+.1f%%); useful overlap true %.4g, estimated %.4g (%+.1f%%); mean "
		"|relative error| per instruction %.3f   (~ = estimated)\n", a->nprs, s.w_true,
		s.w_est, pct_of(s.w_est - s.w_true, s.w_true), s.o_true, s.o_est,
		pct_of(s.o_est - s.o_true, s.o_true), s.wasted_abs_rel);
}

static void report_json(struct acc_pm *a, FILE *f)
{
	const struct accuracy_pm_opts *o = a->o;
	struct acc_sum s;

	summarize(a, &s);
	fprintf(f, "{\"config\": \"%s\", \"period\": %u, \"rand_bits\": %u, \"seed\": %u, "
		"\"window\": %u, \"records\": %zu, \"taken\": %llu, \"lost\": %llu, \"filtered\": "
		"%llu, \"collided\": %llu, \"scale\": %.6f, \"cycles\": %llu, \"issue_width\": %u, "
		"\"coverage\": {\"counts\": %llu, \"covered\": %llu, \"mean_rel_error\": %.6f}, "
		"\"counts\": [", o->config, o->period, o->rand_bits, o->seed, o->window,
		a->recs.n, (unsigned long long)a->st.counts.taken,
		(unsigned long long)a->st.counts.lost, (unsigned long long)a->st.counts.filtered,
		(unsigned long long)a->st.counts.collided, a->est.scale,
		(unsigned long long)a->truth.cycles, a->truth.issue_width,
		(unsigned long long)s.counts, (unsigned long long)s.covered,
		s.counts ? s.rel_sum / (double)s.counts : 0.0);
	for (size_t i = 0; i < a->nrows; i++) {
		const struct acc_row *r = &a->rows[i];

		fprintf(f, "%s{\"pc\": %llu, \"rank\": %zu, \"event\": \"%s\", \"k\": %llu, "
			"\"true\": %llu, \"estimate\": %.3f, \"lo\": %.3f, \"hi\": %.3f}",
			i ? ", " : "", (unsigned long long)r->pc, r->rank, acc_evs[r->ev].name,
			(unsigned long long)r->k, (unsigned long long)r->tv, r->est, r->lo, r->hi);
	}
	fprintf(f, "], \"pairs\": [");
	for (size_t i = 0; i < a->nprs; i++) {
		const struct acc_pair *q = &a->prs[i];

		fprintf(f, "%s{\"pc\": %llu, \"fetched\": %llu, \"n\": %llu, \"life\": %.4f, "
			"\"life_est\": %.4f, \"overlap\": %.4f, \"overlap_est\": %.4f, "
			"\"overlap_lo\": %.4f, \"overlap_hi\": %.4f, \"wasted\": %.4f, "
			"\"wasted_est\": %.4f}", i ? ", " : "", (unsigned long long)q->pc,
			(unsigned long long)q->fetched, (unsigned long long)q->n, q->life, q->life_est,
			q->ov, q->ov_est, q->ov_lo, q->ov_hi, q->w, q->w_est);
	}
	fprintf(f, "], \"latencies\": [");
	for (size_t i = 0; i < a->nlats; i++) {
		const struct acc_lat *l = &a->lats[i];

		fprintf(f, "%s{\"pc\": %llu, \"stage\": \"%s\", \"n\": %llu, \"true\": %.4f, "
			"\"mean\": %.4f, \"se\": %.4f}", i ? ", " : "", (unsigned long long)l->pc,
			pm_est_lat_name(l->sel), (unsigned long long)l->n, l->truth, l->mean, l->se);
	}
	fprintf(f, "], \"latency_summary\": {\"means\": %llu, \"within\": %llu, \"constant\": "
		"%llu, \"mean_rel_error\": %.6f}", (unsigned long long)s.lats,
		(unsigned long long)s.lats_in, (unsigned long long)s.lats_const,
		s.lat_rel_n ? s.lat_rel_sum / (double)s.lat_rel_n : 0.0);
	fprintf(f, ", \"wasted\": {\"instructions\": %zu, \"true\": %.6g, \"estimate\": %.6g, "
		"\"overlap_true\": %.6g, \"overlap_estimate\": %.6g, \"mean_abs_rel_error\": "
		"%.6f}}\n", a->nprs, s.w_true, s.w_est, s.o_true, s.o_est, s.wasted_abs_rel);
}

/* Contract in accuracy_pm.h. */
int accuracy_pm_run(const struct accuracy_pm_opts *o)
{
	struct acc_pm *a = calloc(1, sizeof(*a));
	struct core_cfg cfg;
	struct iss_config icfg;
	struct pmsim_cfg pc;
	struct sim_run run;
	struct sim_consumer c;
	int ret = TIPROF_EXIT_FAIL;

	if (!a) {
		fprintf(stderr, "tiprof accuracy: out of memory\n");
		return TIPROF_EXIT_FAIL;
	}
	a->o = o;
	memset(&icfg, 0, sizeof(icfg));
	run_opts_iss(&o->run, &icfg);
	if (cmd_out_open(&a->out, o->run.out_path, a->err, sizeof(a->err))) {
		fprintf(stderr, "tiprof accuracy: %s\n", a->err);
		free(a);
		return TIPROF_EXIT_FAIL;
	}
	core_cfg_preset(&cfg, o->config);
	a->iss = iss_create(o->prog_argv[0], o->prog_argv, environ, &icfg, a->err, sizeof(a->err));
	if (!a->iss)
		goto fail;
	a->core = core_create(&cfg, a->iss, a->err, sizeof(a->err));
	if (!a->core)
		goto fail;
	memset(&pc, 0, sizeof(pc));
	pc.period = o->period;
	pc.rand_bits = o->rand_bits;
	pc.seed = o->seed;
	pc.window = o->window;
	pc.fifo_depth = 16;
	pc.emit = keep_record;
	pc.emit_ctx = &a->recs;
	a->pms = pmsim_open(&pc, a->core, a->err, sizeof(a->err));
	if (!a->pms)
		goto fail;
	if (pm_truth_init(&a->truth, core_issue_width(a->core)))
		goto oom;
	a->truth_on = 1;
	sim_run_init(&run, a->core, o->prog_argv[0]);
	c = (struct sim_consumer){ pm_cycle, NULL, a };
	sim_run_attach(&run, &c);
	if (o->run.progress) {
		sim_progress_init(&a->prog, "tiprof accuracy", a->core, o->prog_argv, o->run.expect,
				  stderr);
		c = sim_consumer_progress(&a->prog);
		sim_run_attach(&run, &c);
	}
	if (sim_run_loop(&run, a->err, sizeof(a->err))) {
		sim_progress_erase(&a->prog);
		goto fail;
	}
	pmsim_stats(a->pms, &a->st);
	pmsim_config(a->pms, &a->pcfg);
	if (pm_est_build(&a->est, &a->pcfg, &a->st.counts, NULL, a->recs.s, a->recs.n))
		goto oom;
	a->est_on = 1;
	if (pick_top(a) || build_rows(a))
		goto oom;
	fflush(stdout);		/* the program's output first */
	if (o->json)
		report_json(a, a->out.f);
	else
		report_text(a, a->out.f);
	if (cmd_out_close(&a->out, 1, a->err, sizeof(a->err)))
		goto fail;
	ret = TIPROF_EXIT_OK;
	goto done;
oom:
	snprintf(a->err, sizeof(a->err), "out of memory");
fail:
	cmd_out_close(&a->out, 0, a->err, sizeof(a->err));	/* no partial report */
	fprintf(stderr, "tiprof accuracy: %s\n", a->err);
done:
	free(a->top);
	free(a->rows);
	free(a->prs);
	free(a->lats);
	if (a->est_on)
		pm_est_free(&a->est);
	if (a->truth_on)
		pm_truth_fini(&a->truth);
	pmsim_close(a->pms);
	core_destroy(a->core);
	if (a->iss)
		iss_destroy(a->iss);
	free(a->recs.s);
	free(a);
	return ret;
}
