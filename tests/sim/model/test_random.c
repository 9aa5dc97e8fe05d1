/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_random.c - the TIP model's sampler in its random modes, and its LFSR.
 *
 * LFSR: the model's TIP_LFSR sequence (read through the CSR port) follows the spec's
 * step; the step's period is 2^32 - 1, proved cheaply: the step is a linear map M on
 * GF(2)^32 and M^(2^32-1) = I while M^((2^32-1)/q) != I for every prime q of
 * 2^32-1 = 3*5*17*257*65537, so M has order 2^32-1, its characteristic polynomial is
 * primitive and every nonzero state lies on one cycle of length 2^32-1. The documented
 * polynomial x^32+x^22+x^2+x+1 is checked primitive the same way in GF(2)[x]/(p), and
 * p (or its reciprocal, which has the same period) is checked to annihilate M.
 *
 * Sampler: each mode is programmed through the CSR port (LFSR seed, PERIOD, CTRL) and
 * every sample time of long runs (200k samples) is compared with the closed form of
 * docs/tip-unit.md (interval i starts at s_i; its draw uses the LFSR value of cycle
 * s_i - 1). Statistics over the same runs: RANDOM_INTERVAL has exactly one sample per
 * PERIOD-cycle interval, mean spacing PERIOD, phases uniform (chi-square); RANDOM_PERIOD
 * has mean interval PERIOD - 1/2 within 5 standard errors, the full interval range, and
 * phases (cycle mod PERIOD) spread (chi-square); the clamps of L to [1, 2^32] hold.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tiprof/sampling.h"
#include "tmt.h"

#define NPRIMES 5
static const uint32_t primes[NPRIMES] = { 3, 5, 17, 257, 65537 }; /* 2^32-1 */

static uint32_t step(uint32_t v)
{
	return (v >> 1) ^ ((v & 1u) ? TIPROF_LFSR_TOGGLE : 0u);
}

/* ---- GF(2) 32x32 matrices: col[j] = M e_j ---- */
struct mat { uint32_t col[32]; };

static uint32_t mat_apply(const struct mat *a, uint32_t v)
{
	uint32_t r = 0;
	for (unsigned j = 0; v; j++, v >>= 1)
		if (v & 1u)
			r ^= a->col[j];
	return r;
}

static struct mat mat_mul(const struct mat *a, const struct mat *b)
{
	struct mat c;
	for (unsigned j = 0; j < 32; j++)
		c.col[j] = mat_apply(a, b->col[j]);
	return c;
}

static struct mat mat_id(void)
{
	struct mat c;
	for (unsigned j = 0; j < 32; j++)
		c.col[j] = 1u << j;
	return c;
}

static struct mat mat_pow(struct mat a, uint64_t e)
{
	struct mat r = mat_id();
	while (e) {
		if (e & 1u)
			r = mat_mul(&r, &a);
		a = mat_mul(&a, &a);
		e >>= 1;
	}
	return r;
}

static int mat_is(const struct mat *a, const struct mat *b)
{
	for (unsigned j = 0; j < 32; j++)
		if (a->col[j] != b->col[j])
			return 0;
	return 1;
}

/* Sum over the set bits i of the 33-bit coefficient mask c of M^i. */
static struct mat mat_poly(const struct mat *m, uint64_t c)
{
	struct mat r = { { 0 } }, p = mat_id();
	for (unsigned i = 0; i <= 32; i++) {
		if ((c >> i) & 1u)
			for (unsigned j = 0; j < 32; j++)
				r.col[j] ^= p.col[j];
		p = mat_mul(&p, m);
	}
	return r;
}

/* ---- GF(2)[x] / (x^32 + low), elements of degree < 32 ---- */
static uint32_t pmul(uint32_t a, uint32_t b, uint32_t low)
{
	uint32_t r = 0;
	for (int i = 31; i >= 0; i--) {
		uint32_t carry = r >> 31;
		r <<= 1;
		if (carry)
			r ^= low;
		if ((b >> i) & 1u)
			r ^= a;
	}
	return r;
}

static uint32_t ppow(uint32_t a, uint64_t e, uint32_t low)
{
	uint32_t r = 1;
	while (e) {
		if (e & 1u)
			r = pmul(r, a, low);
		a = pmul(a, a, low);
		e >>= 1;
	}
	return r;
}

static void test_lfsr(void)
{
	struct rig r;
	const uint64_t n = 0xFFFFFFFFull;

	tmt_section("LFSR: the model's TIP_LFSR sequence follows the spec's Galois step (from reset and "
		    "after a write)");
	rig_init(&r, 1, 64, 1);
	uint32_t v = TIPROF_LFSR_RESET;
	int ok = 1;
	for (unsigned i = 0; i < 10000; i++, v = step(v))
		ok &= CHECK_EQ(rig_read(&r, TIPROF_TIP_LFSR), v, "LFSR in cycle i");
	rig_write(&r, TIPROF_TIP_LFSR, 0x80000000u);
	v = 0x80000000u;
	for (unsigned i = 0; i < 10000; i++, v = step(v))
		ok &= CHECK_EQ(rig_read(&r, TIPROF_TIP_LFSR), v, "LFSR after write");
	rig_fini(&r);
	if (ok)
		tmt_note("20000 cycles read through the CSR port");

	tmt_section("LFSR period 2^32-1: order of the step matrix M, primitivity of x^32+x^22+x^2+x+1");
	uint64_t prod = 1;
	for (unsigned i = 0; i < NPRIMES; i++)
		prod *= primes[i];
	CHECK_EQ(prod, n, "3*5*17*257*65537 = 2^32-1");
	struct mat m, id = mat_id();
	for (unsigned j = 0; j < 32; j++)
		m.col[j] = step(1u << j);
	uint32_t x = 0x12345678u;
	ok = 1;
	for (unsigned i = 0; i < 1000; i++) {         /* the step is linear: step(x) = M x */
		x ^= x << 13; x ^= x >> 17; x ^= x << 5;
		ok &= CHECK_EQ(step(x), mat_apply(&m, x), "step is linear");
	}
	struct mat mn = mat_pow(m, n);
	CHECK(mat_is(&mn, &id), "M^(2^32-1) = I");
	for (unsigned i = 0; i < NPRIMES; i++) {
		struct mat mq = mat_pow(m, n / primes[i]);
		CHECK(!mat_is(&mq, &id), "M^((2^32-1)/%u) != I", primes[i]);
	}
	/* the documented polynomial: low part x^22 + x^2 + x + 1 */
	const uint32_t low = (1u << 22) | 0x7u;
	CHECK_EQ(ppow(2, n, low), 1, "x^(2^32-1) = 1 mod p");
	for (unsigned i = 0; i < NPRIMES; i++)
		CHECK(ppow(2, n / primes[i], low) != 1, "x^((2^32-1)/%u) != 1 mod p", primes[i]);
	/* p or its reciprocal x^32+x^31+x^30+x^10+1 annihilates M */
	const uint64_t pc = (1ull << 32) | low;
	const uint64_t rc = (1ull << 32) | (1ull << 31) | (1ull << 30) | (1ull << 10) | 1u;
	struct mat zp = mat_poly(&m, pc), zr = mat_poly(&m, rc), zero = { { 0 } };
	int is_p = mat_is(&zp, &zero), is_r = mat_is(&zr, &zero);
	CHECK(is_p || is_r, "the step's characteristic polynomial is p or its reciprocal");
	tmt_note("M has order 2^32-1, so every nonzero state has period 2^32-1; p is primitive; "
		 "%s annihilates M", is_p ? "p" : "the reciprocal of p (same period)");
	/* and a direct partial run: no return to the seed within 2^26 steps */
	v = TIPROF_LFSR_RESET;
	uint32_t ret = 0;
	for (uint32_t i = 1; i <= (1u << 26); i++) {
		v = step(v);
		if (v == TIPROF_LFSR_RESET) { ret = i; break; }
	}
	CHECK_EQ(ret, 0, "no return to the reset value within 2^26 steps");
}

/* ---- sampler runs ---- */

struct run {
	uint32_t mode, k, period, seed; /* configuration */
	unsigned nsamples;              /* samples to collect */
	uint64_t *t;                    /* sample cycles */
	uint64_t t_restart;             /* cycle of the CTRL write */
	double secs;                    /* wall time of the simulation */
	uint64_t cycles;                /* cycles simulated */
};

/* Program the unit through the CSR port (LFSR seed, PERIOD, CTRL) and collect the
 * cycles of the first nsamples samples (tip_model_pop every cycle; stalled ROB in S). */
static void collect(struct run *ru)
{
	struct rig r;
	struct tiprof_sample s;
	unsigned got = 0;
	struct timespec a, b;

	rig_init(&r, 2, 64, 4);
	rob_clear(&r.rob, TIPROF_PRIV_S, 1);
	rob_head(&r.rob, 0, 0x1000, 0);
	rig_write(&r, TIPROF_TIP_PERIOD, ru->period);
	rig_write(&r, TIPROF_TIP_LFSR, ru->seed);            /* seen in the next cycle */
	ru->t_restart = r.m.cycle;
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(ru->mode, ru->k, 0));
	ru->t = calloc(ru->nsamples, sizeof(*ru->t));
	if (!ru->t)
		abort();
	clock_gettime(CLOCK_MONOTONIC, &a);
	uint64_t c0 = r.m.cycle;
	while (got < ru->nsamples) {
		tip_model_cycle(&r.m, &r.rob, NULL, NULL);
		if (tip_model_fifo_count(&r.m) && tip_model_pop(&r.m, &s))
			ru->t[got++] = s.cycle;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	ru->cycles = r.m.cycle - c0;
	ru->secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), 0, "no sample lost");
	rig_fini(&r);
}

/* The closed form of the schedule: check every sample time. Returns 1 if all match. */
static int check_schedule(const struct run *ru)
{
	const uint64_t mask = (1ull << ru->k) - 1u;
	const int64_t h = ru->k ? (1ll << (ru->k - 1)) : 0;
	uint64_t s = ru->t_restart + 1;         /* start of interval 0 */
	uint64_t lc = ru->t_restart;            /* cycle of lf */
	uint32_t lf = ru->seed;                 /* LFSR value in cycle lc */
	unsigned i = 0, bad = 0;

	while (i < ru->nsamples) {
		while (lc < s - 1) { lf = step(lf); lc++; }    /* LFSR value of cycle s-1 */
		uint64_t r = lf & mask, want, len;
		if (ru->mode == TIPROF_MODE_PERIODIC) {
			len = ru->period;
			want = s + len - 1;
		} else if (ru->mode == TIPROF_MODE_RANDOM_INTERVAL) {
			len = ru->period;
			want = s + (r * ru->period >> ru->k);
		} else {
			int64_t l = (int64_t)ru->period + (int64_t)r - h;
			if (l < 1) l = 1;
			if (l > (1ll << 32)) l = 1ll << 32;
			len = (uint64_t)l;
			want = s + len - 1;
		}
		if (ru->t[i] != want && bad++ < 5)
			CHECK_EQ(ru->t[i], want, "sample time vs closed form");
		i++;
		s += len;
	}
	return CHECK(bad == 0, "%u of %u sample times differ from the closed form", bad, ru->nsamples);
}

/* Chi-square statistic of counts against a uniform expectation. */
static double chi2(const unsigned long *cnt, unsigned bins, unsigned long n)
{
	double e = (double)n / bins, x = 0;
	for (unsigned b = 0; b < bins; b++)
		x += ((double)cnt[b] - e) * ((double)cnt[b] - e) / e;
	return x;
}

/* Upper p = 0.001 quantile of chi-square with df degrees of freedom (Wilson-Hilferty). */
static double chi2_crit(unsigned df)
{
	const double z = 3.0902;
	double a = 2.0 / (9.0 * df);
	return df * pow(1.0 - a + z * sqrt(a), 3.0);
}

/* RANDOM_INTERVAL at a PERIOD that need not be a power of two, with k random bits: the
 * closed form floor(r * P / 2^k) sample for sample; exactly one sample in each interval; mean
 * spacing P; every phase reachable and the phase counts floor or ceil of 2^k / P of the 2^k
 * draws (exhaustive over r, on the closed form the model was just checked against); the
 * sampled phases uniform by a chi-square test over `bins` equal slices of the interval
 * (p = 0.001); every phase seen when there are at least 20 samples per phase. */
static void random_interval_any_period(uint32_t period, unsigned k, uint32_t seed,
				       unsigned nsamples, unsigned bins)
{
	char title[200];

	snprintf(title, sizeof(title), "RANDOM_INTERVAL, PERIOD %u, k = %u, %u samples: closed "
		 "form, one sample per interval, mean spacing = PERIOD, every phase reachable, "
		 "phases uniform", period, k, nsamples);
	tmt_section(title);
	struct run ru = { TIPROF_MODE_RANDOM_INTERVAL, k, period, seed, nsamples, NULL, 0, 0, 0 };
	collect(&ru);
	check_schedule(&ru);

	unsigned *per_phase = calloc(period, sizeof(*per_phase));
	unsigned long *seen = calloc(period, sizeof(*seen)), cnt[1024] = { 0 };
	unsigned bad = 0, unreachable = 0, uneven = 0, unseen = 0;
	const uint64_t lo = ((uint64_t)1 << k) / period, hi = lo + 1;

	if (!per_phase || !seen || bins > 1024) {
		CHECK(0, "out of memory");
		free(per_phase);
		free(seen);
		free(ru.t);
		return;
	}
	for (uint64_t r = 0; r < ((uint64_t)1 << k); r++)
		per_phase[r * period >> k]++;
	for (uint32_t ph = 0; ph < period; ph++) {
		unreachable += per_phase[ph] == 0;
		uneven += per_phase[ph] != lo && per_phase[ph] != hi;
	}
	CHECK(unreachable == 0 && uneven == 0, "the draw reaches all %u phases, each from %llu or "
	      "%llu of the 2^%u values of r (%u unreachable, %u other)", period,
	      (unsigned long long)lo, (unsigned long long)hi, k, unreachable, uneven);
	for (unsigned i = 0; i < ru.nsamples; i++) {
		uint64_t off = ru.t[i] - (ru.t_restart + 1);
		bad += off / ru.period != i;
		seen[off % period]++;
		cnt[off % period * bins / period]++;
	}
	CHECK(bad == 0, "exactly one sample in each %u-cycle interval (%u misplaced)", period, bad);
	double mean = (double)(ru.t[ru.nsamples - 1] - ru.t[0]) / (ru.nsamples - 1);
	double tol = (double)(ru.period - 1) / (ru.nsamples - 1);
	CHECK(fabs(mean - ru.period) <= tol, "mean spacing %.4f within %.4f of %u", mean, tol,
	      period);
	/* expected count of a slice: its phases' share of the draws (near-equal slices) */
	double x = 0;
	for (unsigned b = 0; b < bins; b++) {
		uint64_t draws = 0;
		for (uint32_t ph = 0; ph < period; ph++)
			if ((uint64_t)ph * bins / period == b)
				draws += per_phase[ph];
		double e = (double)ru.nsamples * (double)draws / (double)((uint64_t)1 << k);
		x += ((double)cnt[b] - e) * ((double)cnt[b] - e) / e;
	}
	double crit = chi2_crit(bins - 1);
	CHECK(x < crit, "chi-square of the phases in %u slices %.1f < %.1f (df %u, p = 0.001)",
	      bins, x, crit, bins - 1);
	if (nsamples >= 20u * period) {
		for (uint32_t ph = 0; ph < period; ph++)
			unseen += seen[ph] == 0;
		CHECK(unseen == 0, "every phase 0..%u sampled (%u never)", period - 1, unseen);
	}
	tmt_note("phases in %u slices: chi-square %.1f, df %u, critical %.1f (p = 0.001); mean "
		 "spacing %.4f; each phase drawn by %llu or %llu of 2^%u values of r", bins, x,
		 bins - 1, crit, mean, (unsigned long long)lo, (unsigned long long)hi, k);
	free(per_phase);
	free(seen);
	free(ru.t);
}

static void test_random_interval(void)
{
	tmt_section("RANDOM_INTERVAL, PERIOD 256, k = 8, 200000 samples: closed form, one sample per "
		    "interval, mean spacing = PERIOD, phases uniform");
	struct run ru = { TIPROF_MODE_RANDOM_INTERVAL, 8, 256, 0x1u, 200000, NULL, 0, 0, 0 };
	collect(&ru);
	check_schedule(&ru);
	unsigned long cnt[256] = { 0 };
	unsigned bad = 0;
	const uint64_t s0 = ru.t_restart + 1;
	for (unsigned i = 0; i < ru.nsamples; i++) {
		uint64_t off = ru.t[i] - s0;
		if (off / ru.period != i)       /* sample i must lie in interval i */
			bad++;
		cnt[off % ru.period]++;
	}
	CHECK(bad == 0, "exactly one sample in each 256-cycle interval (%u misplaced)", bad);
	double mean = (double)(ru.t[ru.nsamples - 1] - ru.t[0]) / (ru.nsamples - 1);
	double tol = (double)(ru.period - 1) / (ru.nsamples - 1);
	CHECK(fabs(mean - ru.period) <= tol, "mean spacing %.5f within %.5f of 256", mean, tol);
	double x = chi2(cnt, 256, ru.nsamples), crit = chi2_crit(255);
	unsigned empty = 0;
	for (unsigned b = 0; b < 256; b++)
		empty += cnt[b] == 0;
	CHECK(empty == 0, "every phase 0..255 occurs");
	CHECK(x < crit, "chi-square of phases %.1f < %.1f (df 255, p = 0.001)", x, crit);
	tmt_note("mean spacing %.5f (tolerance +-%.5f); phase chi-square %.1f, df 255, critical %.1f",
		 mean, tol, x, crit);
	tmt_note("model speed: %.1f Mcycles/s (%llu cycles in %.2f s, 2-wide, a sample every 256)",
		 ru.cycles / ru.secs / 1e6, (unsigned long long)ru.cycles, ru.secs);
	free(ru.t);

	random_interval_any_period(1000, tiprof_random_bits(1000), 0xC0FFEEu, 50000, 1000);
	random_interval_any_period(3u << 10, tiprof_random_bits(3u << 10), 0x5EEDu, 20000, 64);
	random_interval_any_period(25000, tiprof_random_bits(25000), 0xBEEFu, 2000, 20);

	tmt_section("RANDOM_INTERVAL, PERIOD 1000, k = 4: the 16 points spread over the whole "
		    "interval (floor(r * 1000 / 16) = 0, 62, ..., 937), none left out");
	struct run r4 = { TIPROF_MODE_RANDOM_INTERVAL, 4, 1000, 0x1234u, 4000, NULL, 0, 0, 0 };
	collect(&r4);
	check_schedule(&r4);
	unsigned long hit[16] = { 0 };
	unsigned off_grid = 0;
	for (unsigned i = 0; i < r4.nsamples; i++) {
		uint64_t ph = (r4.t[i] - (r4.t_restart + 1)) % r4.period;
		unsigned r = (unsigned)((ph * 16 + 999) / 1000);	/* the r that gives ph */
		if (r < 16 && (uint64_t)r * 1000 / 16 == ph)
			hit[r]++;
		else
			off_grid++;
	}
	unsigned missing = 0;
	for (unsigned r = 0; r < 16; r++)
		missing += hit[r] == 0;
	CHECK(off_grid == 0 && missing == 0, "every sample on the grid floor(r*1000/16) (%u off), "
	      "all 16 points drawn (%u missing), the last at phase 937", off_grid, missing);
	free(r4.t);
}

static void test_random_period(void)
{
	tmt_section("RANDOM_PERIOD, PERIOD 200, k = 6, 200000 samples: closed form, mean interval "
		    "PERIOD - 1/2, range [P-32, P+31], phases spread");
	struct run ru = { TIPROF_MODE_RANDOM_PERIOD, 6, 200, 0xACE1u, 200000, NULL, 0, 0, 0 };
	collect(&ru);
	check_schedule(&ru);
	uint64_t mn = ~0ull, mx = 0;
	for (unsigned i = 1; i < ru.nsamples; i++) {
		uint64_t d = ru.t[i] - ru.t[i - 1];
		if (d < mn) mn = d;
		if (d > mx) mx = d;
	}
	/* the first interval starts at t_restart + 1 and ends with sample 0 */
	double mean = (double)(ru.t[ru.nsamples - 1] - ru.t_restart) / ru.nsamples;
	double sd = sqrt((4096.0 - 1.0) / 12.0), tol = 5.0 * sd / sqrt((double)ru.nsamples);
	CHECK(fabs(mean - 199.5) <= tol, "mean interval %.4f within %.4f of 199.5", mean, tol);
	CHECK(fabs(mean - 200.0) > tol, "mean interval distinguishable from 200");
	CHECK_EQ(mn, 168, "shortest interval P - 2^(k-1)");
	CHECK_EQ(mx, 231, "longest interval P + 2^(k-1) - 1");
	unsigned long cnt[20] = { 0 };
	for (unsigned i = 0; i < ru.nsamples; i++)
		cnt[(ru.t[i] % 200) / 10]++;
	double x = chi2(cnt, 20, ru.nsamples), crit = chi2_crit(19);
	CHECK(x < crit, "chi-square of (cycle mod 200) in 20 bins %.1f < %.1f", x, crit);
	tmt_note("mean interval %.4f (want 199.5 +- %.4f = 5 standard errors); range [%llu, %llu]; "
		 "phase chi-square %.1f, df 19, critical %.1f", mean, tol,
		 (unsigned long long)mn, (unsigned long long)mx, x, crit);
	free(ru.t);

	tmt_section("RANDOM_PERIOD k = 0: every interval exactly PERIOD; PERIODIC: closed form");
	struct run r0 = { TIPROF_MODE_RANDOM_PERIOD, 0, 137, 0x5u, 10000, NULL, 0, 0, 0 };
	collect(&r0);
	check_schedule(&r0);
	unsigned bad = 0;
	for (unsigned i = 1; i < r0.nsamples; i++)
		bad += r0.t[i] - r0.t[i - 1] != 137;
	CHECK(bad == 0, "all intervals 137 (%u differ)", bad);
	CHECK_EQ(r0.t[0], r0.t_restart + 137, "first sample PERIOD after the CTRL write");
	free(r0.t);
	struct run rp = { TIPROF_MODE_PERIODIC, 9, 77, 0x5u, 10000, NULL, 0, 0, 0 };
	collect(&rp);
	check_schedule(&rp);
	free(rp.t);

	tmt_section("RANDOM_PERIOD clamps: P = 1, k = 4 gives L = max(1, r - 7) in [1, 8]; "
		    "P = 2^32-1, k = 31 clamps L to 2^32 (target 2^32-1)");
	struct run r1 = { TIPROF_MODE_RANDOM_PERIOD, 4, 1, 0x77u, 100000, NULL, 0, 0, 0 };
	collect(&r1);
	check_schedule(&r1);
	mn = ~0ull; mx = 0;
	for (unsigned i = 1; i < r1.nsamples; i++) {
		uint64_t d = r1.t[i] - r1.t[i - 1];
		if (d < mn) mn = d;
		if (d > mx) mx = d;
	}
	mean = (double)(r1.t[r1.nsamples - 1] - r1.t_restart) / r1.nsamples;
	CHECK_EQ(mn, 1, "shortest interval 1 (clamped)");
	CHECK_EQ(mx, 8, "longest interval 8");
	/* No mean check here: with intervals of 1..8 cycles the LFSR steps only L times between
	 * draws, so r_(i+1) shares k - L shifted bits with r_i and the draws are not independent
	 * (the closed-form check above is what the spec requires). */
	tmt_note("P=1 k=4: intervals in [%llu, %llu], mean %.4f (2.75 for independent draws; "
		 "short intervals correlate successive LFSR draws)",
		 (unsigned long long)mn, (unsigned long long)mx, mean);
	free(r1.t);

	/* the high clamp, checked on the drawn target (peek) after CTRL writes */
	struct rig r;
	rig_init(&r, 2, 64, 4);
	rig_write(&r, TIPROF_TIP_PERIOD, 0xFFFFFFFFu);
	rig_write(&r, TIPROF_TIP_LFSR, 0x7FFFFFFFu);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_RANDOM_PERIOD, 31, 0));
	CHECK_EQ(r.m.target, 0xFFFFFFFFu, "L = 2^32-1 + 2^31-1 - 2^30 clamped to 2^32 (peek)");
	CHECK_EQ(r.m.pos, 0, "pos restarted (peek)");
	rig_write(&r, TIPROF_TIP_LFSR, 0x1u);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_RANDOM_PERIOD, 31, 0));
	CHECK_EQ(r.m.target, 0xFFFFFFFFu - 0x40000000u, "L = 2^32-1 + 1 - 2^30 (peek)");
	rig_write(&r, TIPROF_TIP_LFSR, 0x5u);
	rig_write(&r, TIPROF_TIP_PERIOD, 3);    /* restart with the written PERIOD */
	CHECK_EQ(r.m.target, 0, "P = 3, r = 5, h = 2^30: L clamped to 1, target 0 (peek)");
	rig_write(&r, TIPROF_TIP_LFSR, 0x5u);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_RANDOM_INTERVAL, 4, 0));
	CHECK_EQ(r.m.target, 0, "RANDOM_INTERVAL: floor(5 * 3 / 16) = 0 (peek)");
	rig_write(&r, TIPROF_TIP_LFSR, 0xBu);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_RANDOM_INTERVAL, 4, 0));
	CHECK_EQ(r.m.target, 2, "RANDOM_INTERVAL: floor(11 * 3 / 16) = 2, the last phase (peek)");
	rig_write(&r, TIPROF_TIP_PERIOD, 0xFFFFFFFFu);
	rig_write(&r, TIPROF_TIP_LFSR, 0x7FFFFFFFu);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_RANDOM_INTERVAL, 31, 0));
	CHECK_EQ(r.m.target, (uint32_t)(UINT64_C(0x7FFFFFFF) * 0xFFFFFFFFu >> 31),
		 "RANDOM_INTERVAL: the 63-bit product at P = 2^32-1, k = 31 (peek)");
	rig_fini(&r);
}

int main(void)
{
	printf("TIP model: LFSR and random sampling\n");
	test_lfsr();
	test_random_interval();
	test_random_period();
	return tmt_summary();
}
