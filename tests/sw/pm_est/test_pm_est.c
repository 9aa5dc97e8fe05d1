/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_pm_est.c - the ProfileMe estimator (sw/pm/pm_est, sw/pm/pm_ci) on samples whose truth is
 * known by construction:
 *   - the confidence intervals: Clopper-Pearson against published values;
 *   - coverage: a synthetic fetch stream with known per-PC frequencies and event rates is
 *     sampled as the unit does (one selection at a random point of every PERIOD fetches; a
 *     fifth of the selections collide, a filter drops aborted firsts, a tenth of the kept
 *     samples are LOST, some records are lost on the software path); over many seeds the
 *     stated 95% intervals must hold the true counts for 93..99 % of PC x event pairs, and two
 *     deliberately wrong estimators (the scale without the counters; a Wald interval) must
 *     fail that same check;
 *   - the scale formula, latency percentiles, the memory and path views on hand-built records;
 *   - useful overlap and wasted issue slots on hand-built pairs against a hand-computed value.
 * Usage: test_pm_est [REPS] (default 300 repetitions of the coverage run).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pm_ci.h"
#include "pm_est.h"
#include "tcheck.h"

#define CHECK_NEAR(got, want, tol, what) \
	CHECK(fabs((double)(got) - (double)(want)) <= (tol), "%s: got %.9g want %.9g", what, \
	      (double)(got), (double)(want))

/* ---- record builder */

struct rb {
	uint64_t pc, ea;
	unsigned ev, reason;
	int tagged;
	uint16_t path;
	/* stamps relative to the profile's fetch; seen bits */
	uint16_t map, ready, issue, mem, complete, end;
	unsigned seen;		/* bit 0 map, 1 ready, 2 issue, 3 mem, 4 complete */
};

#define EV(b) (1u << TIPROF_PM_EV_##b)

static void put_prof(struct tiprof_pm_sample *s, unsigned p, const struct rb *r)
{
	unsigned b = p * TIPROF_PM_REC_PROFILE_STRIDE;

	s->w[TIPROF_PM_REC_PC + b] = r->pc;
	s->w[TIPROF_PM_REC_EA + b] = r->ea;
	s->w[TIPROF_PM_REC_INFO + b] = (uint64_t)r->ev | ((uint64_t)r->reason << 16) |
				       ((uint64_t)(r->tagged ? 1 : 0) << 20) |
				       ((uint64_t)r->path << 48);
	s->w[TIPROF_PM_REC_STAMP_A + b] = (uint64_t)r->map | ((uint64_t)r->ready << 16) |
					  ((uint64_t)r->issue << 32) |
					  ((uint64_t)r->complete << 48);
	s->w[TIPROF_PM_REC_STAMP_B + b] = (uint64_t)r->mem | ((uint64_t)r->end << 16) |
					  ((uint64_t)r->seen << 32);
}

static void mk_single(struct tiprof_pm_sample *s, const struct rb *a)
{
	memset(s, 0, sizeof(*s));
	s->w[TIPROF_PM_REC_SINFO] = TIPROF_PM_REC_FMT;
	put_prof(s, 0, a);
}

static void mk_pair(struct tiprof_pm_sample *s, const struct rb *a, const struct rb *b,
		    unsigned dist, unsigned pcyc)
{
	memset(s, 0, sizeof(*s));
	s->w[TIPROF_PM_REC_SINFO] = TIPROF_PM_REC_FMT | (1u << 4) | ((uint64_t)dist << 16) |
				    ((uint64_t)pcyc << 32);
	put_prof(s, 0, a);
	put_prof(s, 1, b);
}

/* A retired instruction with every stage seen: issue at `issue`, end at `end`. */
static struct rb retired(uint64_t pc, uint16_t issue, uint16_t end)
{
	struct rb r;

	memset(&r, 0, sizeof(r));
	r.pc = pc;
	r.tagged = 1;
	r.ev = EV(RETIRED);
	r.map = 1;
	r.ready = issue > 2 ? issue - 1 : 1;
	r.issue = issue;
	r.complete = end > issue ? end - 1 : issue;
	r.end = end;
	r.seen = 0x17;	/* map, ready, issue, complete */
	return r;
}

/* ---- random numbers (xorshift64*, seeded) */

static uint64_t rng_s;

static uint64_t rng(void)
{
	rng_s ^= rng_s >> 12;
	rng_s ^= rng_s << 25;
	rng_s ^= rng_s >> 27;
	return rng_s * 2685821657736338717ull;
}

static double urand(void)
{
	return (double)(rng() >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- intervals */

static void test_ci(void)
{
	double lo, hi;

	printf("-- Clopper-Pearson and Wilson against published values\n");
	pm_ci_clopper_pearson(5, 10, 0.95, &lo, &hi);	/* 0.187086, 0.812914 */
	CHECK_NEAR(lo, 0.187086, 1e-6, "CP 5/10 lo");
	CHECK_NEAR(hi, 0.812914, 1e-6, "CP 5/10 hi");
	pm_ci_clopper_pearson(0, 20, 0.95, &lo, &hi);	/* 0, 0.168433 */
	CHECK_NEAR(lo, 0.0, 0.0, "CP 0/20 lo");
	CHECK_NEAR(hi, 0.168433, 1e-6, "CP 0/20 hi");
	pm_ci_clopper_pearson(1, 1000000, 0.95, &lo, &hi);	/* Poisson: 0.0253, 5.5716 */
	CHECK_NEAR(lo * 1e6, 0.025318, 1e-5, "CP 1/1e6 lo (Poisson 0.0253)");
	CHECK_NEAR(hi * 1e6, 5.571643, 1e-4, "CP 1/1e6 hi (Poisson 5.5716)");
	pm_ci_clopper_pearson(20, 20, 0.95, &lo, &hi);
	CHECK_NEAR(lo, 0.831567, 1e-6, "CP 20/20 lo");
	CHECK_NEAR(hi, 1.0, 0.0, "CP 20/20 hi");
	pm_ci_wilson(5, 10, 0.95, &lo, &hi);		/* 0.236593, 0.763407 */
	CHECK_NEAR(lo, 0.236593, 1e-6, "Wilson 5/10 lo");
	CHECK_NEAR(hi, 0.763407, 1e-6, "Wilson 5/10 hi");
	CHECK_NEAR(pm_ci_norm_quantile(0.975), 1.959963985, 1e-9, "z(0.975)");
	CHECK_NEAR(pm_ci_betainc(2.0, 3.0, 0.4), 0.5248, 1e-12, "I_0.4(2,3)");
}

/* ---- coverage on a synthetic stream */

#define NPC 40
#define NTEST 4
static const unsigned test_ev[NTEST] = { PM_EST_EV_FETCHED, TIPROF_PM_EV_DC_MISS,
					 TIPROF_PM_EV_BR_MISPRED, TIPROF_PM_EV_LOAD };

struct synth {
	double cum[NPC];		/* cumulative PC weights */
	double p_dc[NPC], p_mis[NPC], p_load[NPC], p_abort[NPC];
};

static void synth_init(struct synth *y)
{
	double tot = 0;

	for (unsigned i = 0; i < NPC; i++) {
		tot += 1.0 / (1.0 + i);		/* Zipf: PC 0 is 40 x PC 39 */
		y->cum[i] = tot;
		y->p_load[i] = i % 3 == 0 ? 1.0 : 0.0;
		y->p_dc[i] = y->p_load[i] * (0.02 + 0.3 * (double)(i % 5) / 4.0);
		y->p_mis[i] = i % 3 == 1 ? 0.05 + 0.1 * (double)(i % 4) : 0.0;
		y->p_abort[i] = 0.1;
	}
	for (unsigned i = 0; i < NPC; i++)
		y->cum[i] /= tot;
}

/* One fetch: its PC index and events. */
static unsigned synth_fetch(const struct synth *y, unsigned *ev)
{
	double u = urand();
	unsigned i = 0;

	while (i < NPC - 1 && u > y->cum[i])
		i++;
	*ev = urand() < y->p_abort[i] ? EV(ABORTED) : EV(RETIRED);
	if (urand() < y->p_load[i])
		*ev |= EV(LOAD);
	if (urand() < y->p_dc[i])
		*ev |= EV(DC_MISS);
	if (urand() < y->p_mis[i])
		*ev |= EV(CTRL) | EV(BR_MISPRED);
	return i;
}

/* Coverage tallies of one estimator. */
struct cov {
	uint64_t in, all;
};

/* Relative error by expected sample count (the paper's Figure 3): bin b holds the PC x event
 * pairs whose expected k (truth / scale) is in [2^b, 2^(b+1)). */
#define FIG3_BINS 16
static double fig3_sq[FIG3_BINS], fig3_k[FIG3_BINS];
static uint64_t fig3_n[FIG3_BINS];

static void tally(struct cov *c, double truth, double lo, double hi)
{
	c->all++;
	c->in += truth >= lo && truth <= hi;
}

/* One run of M fetches sampled with PERIOD P; tallies the three estimators. */
static void coverage_run(const struct synth *y, uint64_t m, unsigned period, struct cov *good,
			 struct cov *noscale, struct cov *wald)
{
	static uint64_t truth[NPC][NTEST];
	struct tiprof_pm_config cfg;
	struct tiprof_pm_counts cnt;
	struct tiprof_pm_sample *rec = calloc(m / period + 2, sizeof(*rec));
	size_t nrec = 0;
	uint64_t target = rng() % period;
	struct pm_est e;

	memset(truth, 0, sizeof(truth));
	memset(&cfg, 0, sizeof(cfg));
	memset(&cnt, 0, sizeof(cnt));
	cfg.period = period;
	for (uint64_t f = 0; f < m; f++) {
		unsigned ev, i = synth_fetch(y, &ev);

		/* the truth: fetches that pass the filter (drop aborted firsts) */
		if (!(ev & EV(ABORTED))) {
			truth[i][0]++;
			truth[i][1] += !!(ev & EV(DC_MISS));
			truth[i][2] += !!(ev & EV(BR_MISPRED));
			truth[i][3] += !!(ev & EV(LOAD));
		}
		if (f % period == target) {
			if (urand() < 0.2) {
				cnt.collided++;
			} else if (ev & EV(ABORTED)) {
				cnt.filtered++;
			} else if (urand() < 0.1) {
				cnt.lost++;
			} else {
				cnt.taken++;
				if (urand() < 0.05) {
					cnt.lost_sw++;
				} else {
					struct rb r = retired(0x10000 + 4 * i, 3, 9);

					r.ev = ev;
					mk_single(&rec[nrec++], &r);
				}
			}
		}
		if (f % period == period - 1)
			target = rng() % period;
	}
	if (pm_est_build(&e, &cfg, &cnt, NULL, rec, nrec)) {
		CHECK(0, "pm_est_build failed");
		free(rec);
		return;
	}
	for (unsigned i = 0; i < NPC; i++) {
		const struct pm_est_insn *in = pm_est_find(&e, 0x10000 + 4 * i);

		for (unsigned t = 0; t < NTEST; t++) {
			uint64_t k = in ? in->k_ev[test_ev[t]] : 0;
			double lo, hi, tr = (double)truth[i][t], z = 1.959963985, pk, half;

			if (!truth[i][t] && !k)
				continue;	/* a PC x event that never happens: nothing to cover */
			pm_est_interval(&e, k, &lo, &hi);
			tally(good, tr, lo, hi);
			if (tr / e.scale >= 1.0) {
				double kx = tr / e.scale, rel = (pm_est_count(&e, k) - tr) / tr;
				unsigned b = 0;

				while (b + 1 < FIG3_BINS && kx >= (double)(2u << b))
					b++;
				fig3_sq[b] += rel * rel;
				fig3_k[b] += kx;
				fig3_n[b]++;
			}
			/* wrong 1: k x PERIOD, the interval without the counters' scale */
			tally(noscale, tr, lo * period / e.scale, hi * period / e.scale);
			/* wrong 2: Wald, k/n +- z sqrt(p(1-p)/n) */
			pk = (double)k / (double)e.n;
			half = z * sqrt(pk * (1 - pk) / (double)e.n);
			tally(wald, tr, (pk - half) * e.total, (pk + half) * e.total);
		}
	}
	pm_est_free(&e);
	free(rec);
}

static void test_coverage(unsigned reps)
{
	struct synth y;
	struct cov good = { 0, 0 }, noscale = { 0, 0 }, wald = { 0, 0 };
	double cg, cn, cw;

	printf("-- coverage of the 95%% intervals: %u runs x 200000 fetches, PERIOD 100, %d PCs "
	       "x %d events\n", reps, NPC, NTEST);
	synth_init(&y);
	for (unsigned r = 0; r < reps; r++) {
		rng_s = 0x9E3779B97F4A7C15ull * (r + 1);
		coverage_run(&y, 200000, 100, &good, &noscale, &wald);
	}
	cg = (double)good.in / (double)good.all;
	cn = (double)noscale.in / (double)noscale.all;
	cw = (double)wald.in / (double)wald.all;
	printf("   Clopper-Pearson, scale from the counters: %.4f of %llu intervals hold the truth\n",
	       cg, (unsigned long long)good.all);
	printf("   wrong: k x PERIOD (no counters):          %.4f\n", cn);
	printf("   wrong: Wald interval:                     %.4f\n", cw);
	CHECK(cg >= 0.93 && cg <= 0.99, "coverage %.4f outside 0.93..0.99", cg);
	printf("   relative error vs expected k (Figure 3): rms error x sqrt(k) stays ~1\n");
	for (unsigned b = 0; b < FIG3_BINS; b++) {
		double rms, mk;

		if (fig3_n[b] < 200)
			continue;
		rms = sqrt(fig3_sq[b] / (double)fig3_n[b]);
		mk = fig3_k[b] / (double)fig3_n[b];
		printf("     k %5u..%-5u  %6llu pairs  mean k %7.1f  rms rel. error %.4f  x sqrt(k) "
		       "%.3f\n", 1u << b, (2u << b) - 1, (unsigned long long)fig3_n[b], mk, rms,
		       rms * sqrt(mk));
		CHECK(rms * sqrt(mk) > 0.6 && rms * sqrt(mk) < 1.3,
		      "rms relative error x sqrt(k) = %.3f at k ~ %.0f", rms * sqrt(mk), mk);
	}
	CHECK(!(cn >= 0.93 && cn <= 0.99), "the estimator without the counters passes (%.4f)", cn);
	CHECK(!(cw >= 0.93 && cw <= 0.99), "the Wald interval passes (%.4f)", cw);
}

/* ---- hand-built records */

static void test_scale(void)
{
	struct tiprof_pm_config cfg;
	struct tiprof_pm_counts cnt = { 80, 20, 50, 50, 0 };
	struct tiprof_pm_sample s[80];
	struct pm_est e;
	struct rb r = retired(0x400, 2, 5);
	double lo, hi, pl, ph;

	printf("-- the scale: PERIOD (TAKEN + LOST) / n * Sel / (Sel - COLLIDED)\n");
	memset(&cfg, 0, sizeof(cfg));
	cfg.period = 10;
	for (unsigned i = 0; i < 80; i++) {
		r.pc = i < 30 ? 0x400 : 0x404;
		mk_single(&s[i], &r);
	}
	CHECK(pm_est_build(&e, &cfg, &cnt, NULL, s, 80) == 0, "build");
	{
		double r, rl, rh;

		pm_est_rate(&e, 5, 10, &r, &rl, &rh);
		CHECK(r == 0.5 && fabs(rl - 0.187086) < 1e-6 && fabs(rh - 0.812914) < 1e-6,
		      "rate 5/10 with its Clopper-Pearson interval");
	}
	/* 10 * 100 / 80 * 200 / 150 */
	CHECK_NEAR(e.scale, 10.0 * 100 / 80 * 200 / 150, 1e-9, "scale");
	CHECK_NEAR(pm_est_count(&e, 30), 30 * e.scale, 1e-9, "count");
	pm_est_interval(&e, 30, &lo, &hi);
	pm_ci_clopper_pearson(30, 80, 0.95, &pl, &ph);
	CHECK_NEAR(lo, pl * 80 * e.scale, 1e-9, "interval lo");
	CHECK_NEAR(hi, ph * 80 * e.scale, 1e-9, "interval hi");
	CHECK(e.ninsn == 2 && pm_est_find(&e, 0x400)->k_ev[PM_EST_EV_FETCHED] == 30,
	      "two PCs, 30 samples at 0x400");
	pm_est_free(&e);
	/* records lost on the software path: n replaces TAKEN */
	cnt.lost_sw = 20;
	CHECK(pm_est_build(&e, &cfg, &cnt, NULL, s, 60) == 0, "build");
	CHECK_NEAR(e.scale, 10.0 * 100 / 60 * 200 / 150, 1e-9, "scale with software losses");
	pm_est_free(&e);
	/* no counters: PERIOD */
	CHECK(pm_est_build(&e, &cfg, NULL, NULL, s, 80) == 0, "build");
	CHECK_NEAR(e.scale, 10.0, 0, "scale without counters");
	CHECK(!e.have_counts, "have_counts 0");
	pm_est_free(&e);
}

static uint64_t func_of(void *ctx, uint64_t pc)
{
	(void)ctx;
	return pc < 0x2000 ? 0x1000 : pc < 0x3000 ? 0x2000 : PM_EST_NOFUNC;
}

static void test_views(void)
{
	struct tiprof_pm_config cfg;
	struct tiprof_pm_sample s[16];
	struct pm_est_opts o;
	struct pm_est e;
	const struct pm_est_insn *in;
	const struct pm_est_func *f;
	size_t n = 0;
	struct rb r;

	printf("-- latencies, memory, paths, functions on hand-built records\n");
	memset(&cfg, 0, sizeof(cfg));
	cfg.period = 64;
	/* five loads at 0x1000: total latency 10, 20, 30, 50, 200; mem latency 4 (hit) x3,
	 * 40 (miss), 140 (miss + DTLB miss) */
	static const uint16_t tot[5] = { 10, 20, 30, 50, 200 }, ml[5] = { 4, 4, 4, 40, 140 };
	static const unsigned cls[5] = { 0, 0, 0, 1, 3 };
	for (unsigned i = 0; i < 5; i++) {
		r = retired(0x1000, 2, tot[i]);
		r.ev |= EV(LOAD) | EV(EA_VALID) | (cls[i] & 1 ? EV(DC_MISS) : 0) |
			(cls[i] & 2 ? EV(DTLB_MISS) : 0);
		r.mem = 3;
		r.complete = (uint16_t)(3 + ml[i]);
		r.end = (uint16_t)(r.complete + 1 > tot[i] ? r.complete + 1 : tot[i]);
		r.seen |= 0x8;
		r.ea = i < 4 ? 0x80001000 + 8 * i : 0x90000010;
		r.path = i < 3 ? 0x00F0 : 0x0001;
		mk_single(&s[n++], &r);
	}
	/* a store at 0x1004 that missed, a branch at 0x2000 taken twice and mispredicted once */
	r = retired(0x1004, 2, 6);
	r.ev |= EV(STORE) | EV(DC_MISS) | EV(EA_VALID);
	r.ea = 0x80001100;
	mk_single(&s[n++], &r);
	for (unsigned i = 0; i < 3; i++) {
		r = retired(0x2000, 2, 6);
		r.ev |= EV(CTRL) | (i < 2 ? EV(BR_TAKEN) : 0) | (i == 0 ? EV(BR_MISPRED) : 0);
		r.path = 0x5;
		mk_single(&s[n++], &r);
	}
	/* one aborted at 0x4000 (reason 0), one timeout, one empty slot, one bad format */
	r = retired(0x4000, 2, 6);
	r.ev = EV(ABORTED);
	mk_single(&s[n++], &r);
	r = retired(0x4000, 2, 6);
	r.ev = EV(TIMEOUT);
	mk_single(&s[n++], &r);
	memset(&r, 0, sizeof(r));
	r.ev = EV(EMPTY);
	mk_single(&s[n++], &r);
	mk_single(&s[n], &r);
	s[n++].w[TIPROF_PM_REC_SINFO] = 2;

	pm_est_opts_init(&o);
	o.func_key = func_of;
	CHECK(pm_est_build(&e, &cfg, NULL, &o, s, n) == 0, "build");
	CHECK(e.n == n - 1 && e.n_empty == 1 && e.n_timeout == 1 && e.n_bad == 1,
	      "n %llu empty %llu timeout %llu bad %llu", (unsigned long long)e.n,
	      (unsigned long long)e.n_empty, (unsigned long long)e.n_timeout,
	      (unsigned long long)e.n_bad);
	in = pm_est_find(&e, 0x1000);
	CHECK(in && in->k_ev[PM_EST_EV_FETCHED] == 5 && in->k_ev[TIPROF_PM_EV_DC_MISS] == 2 &&
	      in->k_ev[TIPROF_PM_EV_DTLB_MISS] == 1, "0x1000: 5 samples, 2 DC, 1 DTLB miss");
	if (in) {
		const struct pm_est_lat *l = &in->lat[TIPROF_PM_LAT_TOTAL];

		CHECK(l->n == 5 && l->min == 10 && l->max == 200, "total latency n/min/max");
		CHECK_NEAR(pm_est_lat_mean(l), 62.0, 1e-12, "mean total latency");
		CHECK_NEAR(pm_est_lat_quantile(l, 0.5), 30, 0, "median (nearest rank)");
		CHECK_NEAR(pm_est_lat_quantile(l, 0.8), 50, 0, "p80");
		CHECK_NEAR(pm_est_lat_quantile(l, 0.9), 200, 0, "p90");
		CHECK(l->hist[4] == 1 && l->hist[5] == 2 && l->hist[6] == 1 && l->hist[8] == 1,
		      "log2 histogram of 10 20 30 50 200");
		CHECK(in->lat[TIPROF_PM_LAT_MEM].n == 5 &&
		      pm_est_lat_quantile(&in->lat[TIPROF_PM_LAT_MEM], 1.0) == 140, "MEM latency");
		CHECK(in->mem.loads == 5 && in->mem.cls[0] == 3 && in->mem.cls[1] == 1 &&
		      in->mem.cls[3] == 1, "load classes 3 hit, 1 DC miss, 1 DC+DTLB miss");
		CHECK_NEAR(in->mem.lat_sum[0] / (double)in->mem.lat_n[0], 4.0, 0, "hit latency");
		CHECK(in->npath == 2 && in->path[0].hist == 0x0001 && in->path[0].n == 2 &&
		      in->path[1].hist == 0x00F0 && in->path[1].n == 3, "two paths 2 + 3");
		CHECK(in->func == 0x1000, "function key");
	}
	in = pm_est_find(&e, 0x1004);
	CHECK(in && in->mem.stores == 1 && in->mem.store_dc_miss == 1 && in->mem.loads == 0,
	      "store");
	in = pm_est_find(&e, 0x2000);
	CHECK(in && in->npath == 1 && in->path[0].n == 3 && in->path[0].taken == 2 &&
	      in->path[0].mispred == 1, "branch path: 3, 2 taken, 1 mispredicted");
	in = pm_est_find(&e, 0x4000);
	CHECK(in && in->k_ev[PM_EST_EV_FETCHED] == 2 && in->reason[0] == 1 &&
	      in->k_ev[TIPROF_PM_EV_TIMEOUT] == 1 && in->lat[TIPROF_PM_LAT_TOTAL].n == 1,
	      "0x4000: aborted + timeout (no latency from the timeout)");
	CHECK(e.nregion == 2 && e.region[0].base == 0x80001000 && e.region[0].mem.loads == 4 &&
	      e.region[0].mem.stores == 1 && e.region[1].base == 0x90000000 &&
	      e.region[1].mem.cls[3] == 1, "two 4 KiB regions");
	f = pm_est_find_func(&e, 0x1000);
	CHECK(f && f->k_ev[PM_EST_EV_FETCHED] == 6 && f->ninsn == 2, "function 0x1000: 6, 2 insns");
	f = pm_est_find_func(&e, PM_EST_NOFUNC);
	CHECK(f && f->k_ev[PM_EST_EV_FETCHED] == 2, "no function: 0x4000's 2");
	CHECK(e.nfunc == 3, "three function keys");
	CHECK(pm_est_event_parse("DC-MISS") == TIPROF_PM_EV_DC_MISS &&
	      pm_est_event_parse("samples") == PM_EST_EV_FETCHED &&
	      pm_est_event_parse("nope") == -1 && pm_est_lat_parse("Mem") == TIPROF_PM_LAT_MEM,
	      "names");
	pm_est_free(&e);
}

/* Useful overlap and wasted issue slots (docs/pm-report.md "Pairs"), worked by hand:
 * I = 0x1000, WINDOW 4, issue width 4.
 *   I first:  A end 20, J pcyc 2 issue 5 retired -> 7 in [0, 20]: useful
 *             B end 10, J pcyc 3 issue 9 retired -> 12 > 10: not
 *             C end 30, J pcyc 1 issue 2 aborted: not
 *             F end 8, second never fetched (untagged, TIMEOUT): not
 *             G end 9, second's tag lost (tagged, TIMEOUT): pair skipped
 *   I second: D first issue 8 retired, pcyc 4, I end 12 -> 8 in [4, 16]: useful
 *             E first issue 2 retired, pcyc 5, I end 6 -> 2 < 5: not
 * u_f/n_f = 1/4, u_s/n_s = 1/2, overlap = 4 (1/4 + 1/2) = 3;
 * lifetimes 20 10 30 8 12 6 -> mean 86/6; wasted = 4 * 86/6 - 3 = 54.333. */
static void test_pairs(void)
{
	struct tiprof_pm_config cfg;
	struct tiprof_pm_sample s[10];
	struct pm_est e;
	const struct pm_est_insn *in;
	struct rb a, b;
	size_t n = 0;

	printf("-- useful overlap and wasted issue slots on hand-built pairs\n");
	memset(&cfg, 0, sizeof(cfg));
	cfg.period = 100;
	cfg.pair = 4;
	cfg.issue_width = 4;
	a = retired(0x1000, 2, 20);
	b = retired(0x2000, 5, 8);
	mk_pair(&s[n++], &a, &b, 1, 2);			/* A */
	a = retired(0x1000, 2, 10);
	b = retired(0x2000, 9, 12);
	mk_pair(&s[n++], &a, &b, 2, 3);			/* B */
	a = retired(0x1000, 2, 30);
	b = retired(0x2004, 2, 4);
	b.ev = EV(ABORTED);
	mk_pair(&s[n++], &a, &b, 1, 1);			/* C */
	a = retired(0x1000, 2, 8);
	memset(&b, 0, sizeof(b));
	b.ev = EV(TIMEOUT);
	mk_pair(&s[n++], &a, &b, 4, 0);			/* F */
	a = retired(0x1000, 2, 9);
	b = retired(0x2008, 1, 500);
	b.ev = EV(TIMEOUT);
	mk_pair(&s[n++], &a, &b, 3, 1);			/* G */
	a = retired(0x3000, 8, 14);
	b = retired(0x1000, 3, 12);
	mk_pair(&s[n++], &a, &b, 2, 4);			/* D */
	a = retired(0x3000, 2, 4);
	b = retired(0x1000, 3, 6);
	mk_pair(&s[n++], &a, &b, 3, 5);			/* E */
	a = retired(0x5000, 2, 4);
	a.ev = EV(ABORTED);
	b = retired(0x5004, 1, 3);
	mk_pair(&s[n++], &a, &b, 1, 1);			/* an aborted first, partner useful */

	CHECK(pm_est_build(&e, &cfg, NULL, NULL, s, n) == 0, "build");
	CHECK(e.n_pairs == 8 && e.n_pairs_used == 7, "8 pairs, 7 used (%llu)",
	      (unsigned long long)e.n_pairs_used);
	in = pm_est_find(&e, 0x1000);
	CHECK(in != NULL, "I sampled");
	if (!in)
		return;
	CHECK(in->pair.n_first == 4 && in->pair.u_first == 1 && in->pair.n_second == 2 &&
	      in->pair.u_second == 1, "I: first 1/4, second 1/2");
	CHECK_NEAR(in->pair.overlap, 3.0, 1e-12, "useful overlap");
	CHECK_NEAR(in->pair.life_mean, 86.0 / 6.0, 1e-12, "mean lifetime");
	CHECK_NEAR(in->pair.wasted, 4.0 * 86.0 / 6.0 - 3.0, 1e-12, "wasted issue slots");
	CHECK(in->pair.overlap_lo < 3.0 && in->pair.overlap_hi > 3.0 && !in->pair.one_sided,
	      "interval around it, two-sided");
	CHECK(!memcmp(&in->pair, &in->pair_retired, sizeof(in->pair)),
	      "I always retired: the retired-only figures are the same");
	in = pm_est_find(&e, 0x5000);
	CHECK(in && in->pair.n_first == 1 && in->pair.u_first == 1 && in->pair.one_sided &&
	      in->pair_retired.life_n == 0, "aborted I: in pair, not in pair_retired");
	if (in)
		CHECK_NEAR(in->pair.overlap, 8.0, 1e-12, "aborted I: 2 W 1/1");
	/* J = 0x3000: first twice, partner I issued at 4 + 3 = 7 in [0, 14]: useful; at
	 * 5 + 3 = 8 > 4: not -> one-sided: 2 W 1/2 = 4 */
	in = pm_est_find(&e, 0x3000);
	CHECK(in && in->pair.one_sided && in->pair.n_first == 2 && in->pair.u_first == 1,
	      "0x3000: one-sided 1/2");
	if (in)
		CHECK_NEAR(in->pair.overlap, 4.0, 1e-12, "0x3000 overlap 2 W u/n");
	pm_est_free(&e);
}

int main(int argc, char **argv)
{
	unsigned reps = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 300;

	test_ci();
	test_scale();
	test_views();
	test_pairs();
	test_coverage(reps ? reps : 1);
	return tc_summary();
}
