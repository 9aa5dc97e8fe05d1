/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_pm_random.c - the ProfileMe model's randomised selection and a random core.
 *
 * Fetch counter: packets with random valid masks (a fixed-seed generator, so every run is
 * the same); the test keeps its own count of the counted fetch units and places every
 * selection (taken or collided) at its interval position. RANDOM_INTERVAL: exactly one
 * selection per interval of PERIOD units, positions uniform (chi-square, P = 64 with k = 6:
 * exact; P = 100 with k = 15 and F = 8: within 1/256, with intervals straddling packets and
 * two selections in one cycle); slots of full packets uniform (no slot-0 bias); PERIODIC:
 * every PERIOD-th unit; RANDOM_PERIOD: gaps in [P - 2^(k-1), P + 2^(k-1) - 1], mean P - 1/2
 * within 5 standard errors. Pair distance: uniform on [1, WINDOW] (chi-square).
 *
 * Chi-square threshold: the 0.999 quantile of chi-square with df = bins - 1 degrees of
 * freedom (Wilson-Hilferty: df (1 - 2/(9 df) + 3.0902 sqrt(2/(9 df)))^3), so a correct
 * model fails one check in a thousand seeds; the seeds are fixed, so the result is stable.
 *
 * Random core: random events (including ones for idle tags), tags sometimes lost, random CSR
 * pops and filter writes: every selection has exactly one fate (TAKEN + LOST + FILTERED +
 * COLLIDED, plus one if a sample is still open), the unit never wedges (a sample never stays
 * open longer than PM_TIMEOUT), and the records read equal the records pushed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmt.h"

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

static double chi2_crit999(unsigned df)
{
	double d = df, t = 1.0 - 2.0 / (9.0 * d) + 3.0902 * sqrt(2.0 / (9.0 * d));

	return d * t * t * t;
}

static double chi2(const uint64_t *obs, unsigned bins, double expect_each)
{
	double x = 0;

	for (unsigned i = 0; i < bins; i++) {
		double d = (double)obs[i] - expect_each;

		x += d * d / expect_each;
	}
	return x;
}

/* Drive a rig with random packets; every tag retires the cycle after it is driven. Records
 * every selection's interval position. Returns the number of intervals completed. */
struct selstats {
	uint64_t *pos_hist;     /* per interval position */
	uint64_t slot_hist[8];  /* per slot */
	uint64_t intervals_with[4]; /* intervals with 0, 1, 2, 3+ selections */
	uint64_t nsel, ncoll, two_in_cycle, on_invalid;
	uint64_t gap_sum, gap_sq, gap_min, gap_max, ngaps;
};

static void run_selection(struct pmrig *r, uint32_t period, unsigned full_mask_prob,
			  unsigned idle_between, uint64_t n_intervals, struct selstats *st)
{
	const unsigned f = r->m.cfg.f, all = (1u << f) - 1u;
	uint64_t units = 0, cur_int = 0, cur_count = 0, last_sel = 0;
	int have_last = 0;
	uint8_t retire_next = 0;

	while (cur_int < n_intervals) {
		unsigned valid = (rnd() % 100 < full_mask_prob) ? all : (rnd() & all);

		pr_fetch(r, valid, 0x10000);
		r->in.retire = retire_next;
		pr_step(r);
		retire_next = 0;
		for (unsigned s = 0; s < f; s++)
			retire_next |= r->out.tag[s];
		if (r->out.nsel == 2)
			st->two_in_cycle++;
		for (unsigned i = 0; i < r->out.nsel; i++) {
			unsigned s = r->out.sel_slot[i];
			uint64_t g = units + (unsigned)__builtin_popcount(valid & ((1u << s) - 1u));
			uint64_t iv = g / period;

			if (!((valid >> s) & 1u))
				st->on_invalid++;
			while (cur_int < iv) {      /* close the intervals before iv */
				st->intervals_with[cur_count > 3 ? 3 : cur_count]++;
				cur_int++;
				cur_count = 0;
			}
			cur_count++;
			st->pos_hist[g % period]++;
			st->slot_hist[s]++;
			st->nsel++;
			if (!((r->out.sel_taken >> i) & 1u))
				st->ncoll++;
			if (have_last) {
				uint64_t gap = g - last_sel;

				st->gap_sum += gap;
				st->gap_sq += gap * gap;
				if (!st->ngaps || gap < st->gap_min)
					st->gap_min = gap;
				if (gap > st->gap_max)
					st->gap_max = gap;
				st->ngaps++;
			}
			last_sel = g;
			have_last = 1;
		}
		units += (unsigned)__builtin_popcount(valid);
		for (unsigned i = 0; i < idle_between; i++) {
			r->in.retire = retire_next;
			pr_step(r);
			retire_next = 0;
		}
		while (cur_int < units / period) {
			st->intervals_with[cur_count > 3 ? 3 : cur_count]++;
			cur_int++;
			cur_count = 0;
		}
	}
}

static void test_random_interval(unsigned f, uint32_t p, unsigned k, uint64_t n)
{
	struct pmrig r;
	struct selstats st;
	char title[160];

	snprintf(title, sizeof(title),
		 "RANDOM_INTERVAL F=%u PERIOD=%u k=%u: one selection per interval, uniform position", f, p, k);
	pmt_section(title);
	memset(&st, 0, sizeof(st));
	st.pos_hist = calloc(p, sizeof(*st.pos_hist));
	rng_state = 12345u + p;
	pr_init(&r, f, 64, 16, 2);
	pr_write(&r, TIPROF_PM_PERIOD, p);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_RANDOM_INTERVAL, k, 0));
	run_selection(&r, p, 0, 0, n, &st);
	CHECK_EQ(st.intervals_with[0] + st.intervals_with[2] + st.intervals_with[3], 0,
		 "every interval holds exactly one selection");
	CHECK_EQ(st.intervals_with[1], n, "intervals");
	CHECK_EQ(st.on_invalid, 0, "every selection on a valid slot (UNIT = instructions)");
	double x = chi2(st.pos_hist, p, (double)st.nsel / p), crit = chi2_crit999(p - 1);
	CHECK(x < crit, "position chi-square %.1f < %.1f (df %u)", x, crit, p - 1);
	pmt_note("%llu selections, chi-square %.1f (0.999 quantile %.1f, df %u), %llu collisions, "
		 "%llu cycles with two selections", (unsigned long long)st.nsel, x, crit, p - 1,
		 (unsigned long long)st.ncoll, (unsigned long long)st.two_in_cycle);
	CHECK_EQ(r.m.collided, st.ncoll, "COLLIDED = collisions seen");
	if (f == 8)
		CHECK(st.two_in_cycle > 0, "two selections in one cycle happened (selection B)");
	free(st.pos_hist);
	pr_fini(&r);
}

static void test_slot_bias(void)
{
	struct pmrig r;
	struct selstats st;
	const unsigned f = 4;

	pmt_section("full packets, PERIOD 63 (not a multiple of F): selected slot uniform, no slot-0 bias");
	memset(&st, 0, sizeof(st));
	st.pos_hist = calloc(63, sizeof(*st.pos_hist));
	rng_state = 777;
	pr_init(&r, f, 64, 16, 2);
	pr_write(&r, TIPROF_PM_PERIOD, 63);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_RANDOM_INTERVAL, 14, 0));
	run_selection(&r, 63, 100, 0, 40000, &st);
	double x = chi2(st.slot_hist, f, (double)st.nsel / f), crit = chi2_crit999(f - 1);
	CHECK(x < crit, "slot chi-square %.2f < %.2f", x, crit);
	pmt_note("slots %llu %llu %llu %llu, chi-square %.2f (0.999 quantile %.2f, df 3)",
		 (unsigned long long)st.slot_hist[0], (unsigned long long)st.slot_hist[1],
		 (unsigned long long)st.slot_hist[2], (unsigned long long)st.slot_hist[3], x, crit);
	free(st.pos_hist);
	pr_fini(&r);
}

static void test_periodic_and_random_period(void)
{
	struct pmrig r;
	struct selstats st;

	pmt_section("PERIODIC: every PERIOD-th fetched instruction");
	memset(&st, 0, sizeof(st));
	st.pos_hist = calloc(37, sizeof(*st.pos_hist));
	rng_state = 99;
	pr_init(&r, 4, 64, 16, 2);
	pr_write(&r, TIPROF_PM_PERIOD, 37);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_PERIODIC, 0, 0));
	run_selection(&r, 37, 0, 0, 5000, &st);
	CHECK_EQ(st.pos_hist[36], st.nsel, "always position 36");
	CHECK_EQ(st.on_invalid, 0, "every selection on a valid slot");
	CHECK_EQ(st.gap_min, 37, "gap 37");
	CHECK_EQ(st.gap_max, 37, "gap 37");
	free(st.pos_hist);
	pr_fini(&r);

	pmt_section("RANDOM_PERIOD PERIOD=50 k=5: gaps in [34, 65], mean 49.5 within 5 standard errors");
	memset(&st, 0, sizeof(st));
	st.pos_hist = calloc(1, sizeof(*st.pos_hist));
	rng_state = 4242;
	pr_init(&r, 8, 64, 16, 2);
	pr_write(&r, TIPROF_PM_PERIOD, 50);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_RANDOM_PERIOD, 5, 0));
	run_selection(&r, 1, 0, 0, 2000000, &st);   /* period 1: every unit its own "interval" */
	double mean = (double)st.gap_sum / st.ngaps;
	double var = (double)st.gap_sq / st.ngaps - mean * mean;
	double se = sqrt(var / st.ngaps);
	CHECK(st.gap_min >= 34 && st.gap_max <= 65, "gaps %llu..%llu",
	      (unsigned long long)st.gap_min, (unsigned long long)st.gap_max);
	CHECK(fabs(mean - 49.5) < 5 * se, "mean gap %.3f (se %.3f)", mean, se);
	pmt_note("%llu gaps, mean %.3f, se %.3f, range %llu..%llu", (unsigned long long)st.ngaps,
		 mean, se, (unsigned long long)st.gap_min, (unsigned long long)st.gap_max);
	free(st.pos_hist);
	pr_fini(&r);

	pmt_section("RANDOM_PERIOD PERIOD=8=F k=5: L clamped to F (never below), mean 11.75");
	memset(&st, 0, sizeof(st));
	st.pos_hist = calloc(1, sizeof(*st.pos_hist));
	rng_state = 31337;
	pr_init(&r, 8, 64, 16, 2);
	pr_write(&r, TIPROF_PM_PERIOD, 8);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_RANDOM_PERIOD, 5, 0));
	/* 7 idle cycles after each packet: draws ~12 cycles apart, so consecutive draws do not
	 * share shifted LFSR bits (k = 5; docs/tip-unit.md, "The sampler") */
	run_selection(&r, 1, 100, 7, 400000, &st);
	/* L = max(8, 8 + r - 16), r uniform on 0..31: 17 of 32 draws give 8, the rest 9..23 */
	mean = (double)st.gap_sum / st.ngaps;
	var = (double)st.gap_sq / st.ngaps - mean * mean;
	se = sqrt(var / st.ngaps);
	CHECK(st.gap_min == 8 && st.gap_max == 23, "gaps %llu..%llu = 8..23",
	      (unsigned long long)st.gap_min, (unsigned long long)st.gap_max);
	CHECK(fabs(mean - 11.75) < 5 * se, "mean gap %.3f (se %.3f)", mean, se);
	pmt_note("%llu gaps, mean %.3f, se %.3f", (unsigned long long)st.ngaps, mean, se);
	free(st.pos_hist);
	pr_fini(&r);
}

static void test_pair_distance(void)
{
	struct pmrig r;
	uint64_t hist[16] = { 0 };
	const unsigned w = 10;
	uint64_t n = 0, out_of_range = 0;
	uint8_t retire_next = 0;

	pmt_section("pair distance d uniform on [1, WINDOW] (WINDOW 10)");
	rng_state = 555;
	pr_init(&r, 4, 64, 16, 2);
	pr_write(&r, TIPROF_PM_PAIR, w);
	pr_write(&r, TIPROF_PM_PERIOD, 40);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_RANDOM_INTERVAL, 14, TIPROF_PM_CTRL_PAIR_MASK));
	while (n < 30000) {
		pr_fetch(&r, rnd() & 0xF, 0x2000);
		r.in.retire = retire_next;
		pr_step(&r);
		retire_next = 0;
		for (unsigned s = 0; s < 4; s++)
			retire_next |= r.out.tag[s];
		if (r.out.pushed) {
			unsigned d = (unsigned)REC(&r.out.rec, SINFO, PAIR_DIST);

			if (d >= 1 && d <= w)
				hist[d]++;
			else
				out_of_range++;
			n++;
			pm_model_pop(&r.m, NULL);
		}
	}
	CHECK_EQ(out_of_range, 0, "every d in [1, WINDOW]");
	double x = chi2(hist + 1, w, (double)n / w), crit = chi2_crit999(w - 1);
	CHECK(x < crit, "distance chi-square %.2f < %.2f", x, crit);
	pmt_note("%llu pairs, chi-square %.2f (0.999 quantile %.2f, df %u)", (unsigned long long)n,
		 x, crit, w - 1);
	pr_fini(&r);
}

static void test_random_core(void)
{
	struct pmrig r;
	uint64_t taken_sel = 0, pushed = 0, completed = 0, popped = 0, cycles = 0;
	uint64_t longest_open = 0, open_for = 0;
	int mismatch = 0;
	struct pm_record *shadow;
	unsigned sh_head = 0, sh_used = 0;
	const unsigned depth = 4, timeout = 40;

	pmt_section("random core (lost tags, stray events, pops, filter writes): every selection has one fate, no wedge");
	rng_state = 2026;
	pr_init(&r, 4, 64, depth, 2);
	shadow = calloc(depth, sizeof(*shadow));
	pr_write(&r, TIPROF_PM_TIMEOUT, timeout);
	pr_write(&r, TIPROF_PM_PAIR, 12);
	pr_write(&r, TIPROF_PM_PERIOD, 9);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_RANDOM_INTERVAL, 12,
					     TIPROF_PM_CTRL_PAIR_MASK | TIPROF_PM_CTRL_UNIT_MASK));
	for (cycles = 0; cycles < 400000; cycles++) {
		struct pm_csr_req q = { 0, 0, 0, 0, TIPROF_PRIV_M };
		uint32_t x = rnd();

		pr_fetch(&r, rnd() & 0xF, 0x3000 + 16 * (cycles & 0xFF));
		r.in.fetch_priv = (uint8_t)(rnd() & 3u);
		/* events at random for both ids (often for idle ones: stray) */
		r.in.map = (uint8_t)(rnd() & 3u);
		r.in.ready = (uint8_t)(rnd() & 3u);
		r.in.issue = (uint8_t)(rnd() & 3u);
		r.in.mem = (uint8_t)(rnd() & rnd() & 3u);
		r.in.complete = (uint8_t)(rnd() & rnd() & 3u);
		r.in.dc_miss = (uint8_t)(rnd() & rnd() & 3u);
		r.in.ea_valid = (uint8_t)(rnd() & rnd() & 3u);
		r.in.ea[0] = rnd();
		r.in.ea[1] = rnd();
		/* ends are rarer, so some tags are "lost" until the timeout */
		if ((x & 15u) == 0)
			r.in.retire = (uint8_t)(rnd() & 3u);
		if ((x & 31u) == 1) {
			r.in.abort = (uint8_t)(rnd() & 3u);
			r.in.abort_reason[0] = (uint8_t)(rnd() & 3u);
			r.in.abort_reason[1] = (uint8_t)(rnd() & 3u);
		}
		if (((x >> 8) & 7u) == 0) {
			q.req = 1;
			q.we = 1;
			q.addr = TIPROF_PM_POP;
		} else if (((x >> 8) & 1023u) == 1) {
			q.req = 1;
			q.we = 1;
			q.addr = TIPROF_PM_EVFILT;
			q.wdata = rnd() & 0x00810081u; /* sometimes filter on RETIRED / DC_MISS */
		}
		int was_open = r.m.open;
		unsigned used_before = r.m.used;
		struct pm_record head_before = used_before ? r.m.fifo[r.m.head] : shadow[0];

		pm_model_cycle(&r.m, &r.in, q.req ? &q : NULL, 0, &r.out);
		memset(&r.in, 0, sizeof(r.in));
		if (q.req && q.addr == TIPROF_PM_POP && used_before) {
			/* the popped record equals the oldest one the shadow holds */
			if (memcmp(&head_before, &shadow[sh_head], sizeof(head_before)))
				mismatch++;
			sh_head = (sh_head + 1) % depth;
			sh_used--;
			popped++;
		}
		if (r.out.pushed) {
			shadow[(sh_head + sh_used) % depth] = r.out.rec;
			sh_used++;
			pushed++;
		}
		completed += (uint64_t)r.out.completed;
		taken_sel += (uint64_t)__builtin_popcount(r.out.sel_taken);
		open_for = was_open && r.m.open ? open_for + 1 : 0;
		if (open_for > longest_open)
			longest_open = open_for;
	}
	CHECK_EQ(mismatch, 0, "records popped = records pushed, in order");
	CHECK_EQ(sh_used, r.m.used, "FIFO occupancy");
	CHECK_EQ(taken_sel, completed + (uint64_t)r.m.open, "every taken selection completes once (or is open)");
	CHECK_EQ(r.m.taken + r.m.lost + r.m.filtered, completed, "TAKEN + LOST + FILTERED = completions");
	CHECK_EQ(r.m.taken, pushed, "TAKEN = pushes");
	CHECK(longest_open <= timeout, "no sample open longer than the timeout (%llu)",
	      (unsigned long long)longest_open);
	CHECK(r.m.lost > 0 && r.m.filtered > 0 && r.m.collided > 0, "lost, filtered and collided all happened");
	CHECK(r.m.sticky & TIPROF_PM_STATUS_STRAY_MASK, "stray events seen");
	CHECK(r.m.sticky & TIPROF_PM_STATUS_TIMEOUT_MASK, "timeouts seen");
	pmt_note("%llu cycles: %llu taken selections, TAKEN %llu LOST %llu FILTERED %llu COLLIDED %llu, popped %llu, longest open %llu",
		 (unsigned long long)cycles, (unsigned long long)taken_sel,
		 (unsigned long long)r.m.taken, (unsigned long long)r.m.lost,
		 (unsigned long long)r.m.filtered, (unsigned long long)r.m.collided,
		 (unsigned long long)popped, (unsigned long long)longest_open);
	free(shadow);
	pr_fini(&r);
}

int main(void)
{
	test_random_interval(4, 64, 6, 100000);
	test_random_interval(8, 100, 15, 100000);
	test_random_interval(1, 16, 4, 50000);
	test_slot_bias();
	test_periodic_and_random_period();
	test_pair_distance();
	test_random_core();
	return pmt_summary();
}
