/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_insn.c - the TIP model's instruction trigger (CTRL.TRIGGER = 1, docs/tip-unit.md
 * "The instruction trigger"): every PERIOD committed instructions one is selected, the
 * sample is that instruction alone (Computing, one VALID bit; two in a cycle with selections
 * A and B), periodic / random-interval / random-period schedules in instructions, the
 * PERIOD >= W rule, the RANDOM_PERIOD clamp to W, the privilege filter, and that the
 * samples estimate each instruction's retired count without the bias of cycle samples.
 *
 * The ROB is kept full: instruction number q (0, 1, ... from the enabling CTRL write) has
 * address BASE + 4q, so a sample names the selected instruction's number exactly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmt.h"

#define BASE 0x1000u

struct stream {
	struct tip_model m;
	unsigned w;
	uint64_t seq;     /* number of the next instruction to commit */
	unsigned hb;      /* head bank */
	uint64_t rng;
	uint64_t t;       /* cycle counter of the model */
	/* selected instructions (from popped samples), in order */
	uint64_t *sel;
	size_t nsel, cap;
	uint64_t *commit_cycle; /* cycle in which instruction q committed (q < seq) */
	size_t ccap;
	unsigned two;     /* records with two VALID bits */
	unsigned bad;     /* records that are not Computing instruction samples */
};

static uint64_t rnd(struct stream *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545F4914F6CDD1Dull;
}

static void st_init(struct stream *s, unsigned w, uint64_t seed)
{
	struct tip_model_cfg cfg = { w, 64, 64, 0 };

	memset(s, 0, sizeof(*s));
	if (tip_model_init(&s->m, &cfg))
		abort();
	s->w = w;
	s->rng = seed * 0x9E3779B97F4A7C15ull + 1u;
	s->cap = 1024;
	s->sel = malloc(s->cap * sizeof(*s->sel));
	s->ccap = 1u << 16;
	s->commit_cycle = malloc(s->ccap * sizeof(*s->commit_cycle));
	if (!s->sel || !s->commit_cycle)
		abort();
}

static void st_fini(struct stream *s)
{
	tip_model_fini(&s->m);
	free(s->sel);
	free(s->commit_cycle);
}

/* Pop every complete sample and record the selected instructions. */
static void st_drain(struct stream *s)
{
	struct tiprof_sample smp;

	while (tip_model_pop(&s->m, &smp)) {
		unsigned v = smp.valid, nb = 0;

		uint64_t qs[2] = { 0, 0 };

		if (smp.flags)
			s->bad++;
		for (unsigned b = 0; b < s->w; b++) {
			if (!((v >> b) & 1u))
				continue;
			uint64_t q = (smp.addr[b] - BASE) / 4u;

			if (nb < 2)
				qs[nb] = q;
			nb++;

			if (smp.addr[b] < BASE || (smp.addr[b] - BASE) % 4u || q >= s->seq ||
			    s->commit_cycle[q % s->ccap] != smp.cycle)
				s->bad++;
		}
		if (nb == 2 && qs[1] < qs[0]) { /* in age order */
			uint64_t x = qs[0];

			qs[0] = qs[1];
			qs[1] = x;
		}
		for (unsigned j = 0; j < nb && j < 2; j++) {
			if (s->nsel == s->cap) {
				s->cap *= 2;
				s->sel = realloc(s->sel, s->cap * sizeof(*s->sel));
				if (!s->sel)
					abort();
			}
			s->sel[s->nsel++] = qs[j];
		}
		for (unsigned b = 0; b < s->w; b++)
			if (!((v >> b) & 1u) && smp.addr[b])
				s->bad++;
		if (nb == 2)
			s->two++;
		else if (nb != 1)
			s->bad++;
	}
}

/* One cycle: n instructions commit (a prefix from the head bank); csr may be NULL. */
static void st_cycle(struct stream *s, unsigned n, const struct tip_csr_req *csr, uint8_t priv)
{
	struct tiprof_rob_if rob;

	memset(&rob, 0, sizeof(rob));
	rob.head_bank = (uint8_t)s->hb;
	rob.priv = priv;
	for (unsigned k = 0; k < s->w; k++) {
		unsigned b = (s->hb + k) % s->w;

		rob.head_valid |= (uint8_t)(1u << b);
		rob.head_pc[b] = BASE + 4u * (s->seq + k);
		if (k < n) {
			rob.head_commit |= (uint8_t)(1u << b);
			s->commit_cycle[(s->seq + k) % s->ccap] = s->t;
		}
	}
	tip_model_cycle(&s->m, &rob, csr, NULL);
	s->t++;
	s->seq += n;
	s->hb = (s->hb + n) % s->w;
	st_drain(s);
}

/* A CSR write cycle with n commits; returns whether it set CFG_ERR (cleared again). */
static void st_write(struct stream *s, uint16_t addr, uint64_t v, unsigned n)
{
	struct tip_csr_req c = { 1, 1, addr, v, 3 };

	st_cycle(s, n, &c, 3);
}

static int st_cfg_err(struct stream *s)
{
	int e = (s->m.status_sticky & TIPROF_TIP_STATUS_CFG_ERR_MASK) != 0;

	s->m.status_sticky &= (uint8_t)~TIPROF_TIP_STATUS_CFG_ERR_MASK;
	return e;
}

static uint32_t ctrl_insn(uint32_t mode, uint32_t k)
{
	return rig_ctrl_en(mode, k, TIPROF_TIP_CTRL_TRIGGER_MASK);
}

/* Enable the instruction trigger (PERIOD, LFSR, CTRL) and run until ncommit instructions
 * have committed after the CTRL write; instruction numbers restart at 0 after the write. */
static void st_run(struct stream *s, uint32_t mode, uint32_t k, uint32_t period, uint32_t seed,
		   uint64_t ncommit, unsigned maxn)
{
	st_write(s, TIPROF_TIP_PERIOD, period, 0);
	st_write(s, TIPROF_TIP_LFSR, seed, 0);
	st_write(s, TIPROF_TIP_CTRL, ctrl_insn(mode, k), 0);
	s->seq = 0;
	s->nsel = 0;
	while (s->seq < ncommit) {
		unsigned n = (unsigned)(rnd(s) % (maxn + 1));

		if (rnd(s) % 4 == 0)
			n = 0; /* stall cycles */
		st_cycle(s, n, NULL, 3);
	}
}

static void test_periodic(void)
{
	tmt_section("PERIODIC, W = 1, 2, 4, 8, PERIOD 1 .. 13 (>= W): the selected instructions are "
		    "exactly numbers P-1, 2P-1, ..., each sample one VALID bit stamped with the cycle "
		    "its instruction committed");
	for (unsigned w = 1; w <= 8; w *= 2) {
		for (uint32_t p = w; p <= 13; p++) {
			struct stream s;
			int ok = 1;

			st_init(&s, w, p * 31u + w);
			st_run(&s, TIPROF_MODE_PERIODIC, 0, p, 0x1234u, 20000, w);
			uint64_t want = s.seq / p;

			/* the last one(s) may still be in flight only if FIFO was full: depth 64 and
			 * a drain every cycle keep it empty */
			ok &= s.nsel == want;
			for (size_t i = 0; i < s.nsel && ok; i++)
				ok &= s.sel[i] == (i + 1) * p - 1;
			CHECK(ok, "periodic selection in instructions");
			CHECK_EQ(s.bad, 0, "every record a Computing sample of selected instructions");
			CHECK_EQ(s.two, 0, "no record with two instructions outside RANDOM_INTERVAL");
			CHECK_EQ(s.m.lost, 0, "nothing lost");
			st_fini(&s);
		}
	}
}

static double chi2(const unsigned long *cnt, unsigned bins, unsigned long n)
{
	double e = (double)n / bins, x = 0;

	for (unsigned i = 0; i < bins; i++)
		x += ((double)cnt[i] - e) * ((double)cnt[i] - e) / e;
	return x;
}

static void test_random_interval(void)
{
	tmt_section("RANDOM_INTERVAL in instructions: exactly one selection in each run of PERIOD "
		    "instructions, its phase uniform (chi-square), selections A and B in one cycle "
		    "give one record with two VALID bits");
	static const unsigned ws[] = { 2, 4, 8 };
	static const uint32_t ps[] = { 8, 13, 37 };

	for (unsigned i = 0; i < 3; i++) {
		struct stream s;
		unsigned w = ws[i];
		uint32_t p = ps[i];
		unsigned long cnt[64] = { 0 };
		int ok = 1;

		st_init(&s, w, 77u + i);
		st_run(&s, TIPROF_MODE_RANDOM_INTERVAL, 16, p, 0xBEEFu + i, 400000, w);
		uint64_t nint = s.seq / p;

		ok &= s.nsel >= nint && s.nsel <= nint + 1;
		for (size_t j = 0; j < s.nsel && ok; j++) {
			ok &= s.sel[j] / p == j; /* the j-th selection is in the j-th interval */
			cnt[s.sel[j] % p]++;
		}
		CHECK(ok, "one selection per interval of PERIOD instructions");
		CHECK_EQ(s.bad, 0, "every record a Computing sample of selected instructions");
		CHECK(s.two > 0, "some records hold selections A and B");
		double x = chi2(cnt, p, (unsigned long)s.nsel);
		/* df <= 36: 99.9 % critical value of chi2(36) is 67.99 */
		CHECK(x < 68.0, "phase uniform over the interval");
		tmt_note("W %u PERIOD %u: %zu selections over %llu instructions, %u two-instruction "
			 "records, chi2 %.1f (df %u)", w, p, s.nsel, (unsigned long long)s.seq, s.two, x,
			 p - 1);
		st_fini(&s);
	}
}

static void test_random_period(void)
{
	tmt_section("RANDOM_PERIOD in instructions: mean spacing PERIOD - 1/2 (k >= 1), every "
		    "spacing in [max(W, P - h), P + h - 1]; the clamp to W at PERIOD = W");
	struct stream s;
	int ok = 1;
	uint64_t sum = 0;

	st_init(&s, 4, 5);
	st_run(&s, TIPROF_MODE_RANDOM_PERIOD, 5, 100, 0xACE1u, 400000, 4);
	for (size_t j = 1; j < s.nsel; j++) {
		uint64_t d = s.sel[j] - s.sel[j - 1];

		ok &= d >= 84 && d <= 115;
		sum += d;
	}
	double mean = (double)sum / (double)(s.nsel - 1);

	CHECK(ok, "spacing within [P - 16, P + 15]");
	CHECK(fabs(mean - 99.5) < 0.5, "mean spacing P - 1/2");
	tmt_note("PERIOD 100, k 5: %zu selections, mean spacing %.3f", s.nsel, mean);
	st_fini(&s);

	st_init(&s, 4, 6);
	st_run(&s, TIPROF_MODE_RANDOM_PERIOD, 4, 4, 0x77u, 100000, 4);
	ok = 1;
	unsigned long at_w = 0;
	for (size_t j = 1; j < s.nsel; j++) {
		uint64_t d = s.sel[j] - s.sel[j - 1];

		ok &= d >= 4 && d <= 11;
		at_w += d == 4;
	}
	CHECK(ok, "PERIOD = W = 4, k = 4: L = max(4, 4 + r - 8) in [4, 11]");
	CHECK(at_w > s.nsel / 3, "the clamp at W is reached often (r <= 8: 9 of 16)");
	CHECK_EQ(s.bad, 0, "every record a Computing sample of one instruction");
	st_fini(&s);
}

static void test_config_rules(void)
{
	tmt_section("PERIOD >= W with the instruction trigger: CTRL with TRIGGER while PERIOD < W and "
		    "PERIOD < W while TRIGGER is set are ignored with CFG_ERR; PERIOD = W is legal");
	struct stream s;

	st_init(&s, 4, 1);
	st_write(&s, TIPROF_TIP_PERIOD, 3, 0);
	CHECK(!st_cfg_err(&s), "PERIOD 3 legal for cycles");
	st_write(&s, TIPROF_TIP_CTRL, ctrl_insn(TIPROF_MODE_PERIODIC, 0), 0);
	CHECK(st_cfg_err(&s), "TRIGGER with PERIOD 3 < W refused");
	CHECK_EQ(s.m.ctrl, TIPROF_TIP_CTRL_RESET, "CTRL unchanged");
	st_write(&s, TIPROF_TIP_PERIOD, 4, 0);
	st_write(&s, TIPROF_TIP_CTRL, ctrl_insn(TIPROF_MODE_PERIODIC, 0), 0);
	CHECK(!st_cfg_err(&s), "TRIGGER with PERIOD 4 = W legal");
	CHECK_EQ(s.m.ctrl, ctrl_insn(TIPROF_MODE_PERIODIC, 0), "CTRL written");
	st_write(&s, TIPROF_TIP_PERIOD, 3, 0);
	CHECK(st_cfg_err(&s), "PERIOD 3 < W refused while TRIGGER");
	CHECK_EQ(s.m.period, 4, "PERIOD unchanged");
	st_write(&s, TIPROF_TIP_PERIOD, 9, 0);
	CHECK(!st_cfg_err(&s), "PERIOD 9 legal while TRIGGER");
	st_write(&s, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_PERIODIC, 0, 0), 0);
	st_write(&s, TIPROF_TIP_PERIOD, 1, 0);
	CHECK(!st_cfg_err(&s), "PERIOD 1 legal again for cycles");
	st_fini(&s);

	st_init(&s, 1, 1);
	st_write(&s, TIPROF_TIP_PERIOD, 1, 0);
	st_write(&s, TIPROF_TIP_CTRL, ctrl_insn(TIPROF_MODE_PERIODIC, 0), 0);
	CHECK(!st_cfg_err(&s), "W = 1: PERIOD 1 with TRIGGER legal (every instruction)");
	s.seq = 0;
	s.nsel = 0;
	for (unsigned c = 0; c < 100; c++)
		st_cycle(&s, c % 3 != 0, NULL, 3);
	CHECK_EQ(s.nsel, s.seq, "every committed instruction selected");
	st_fini(&s);
}

static void test_priv_filter(void)
{
	tmt_section("privilege filter: selections of instructions committed at a filtered privilege "
		    "are dropped (neither TAKEN nor LOST), the interval still counts them");
	struct stream s;
	uint64_t user = 0;

	st_init(&s, 4, 9);
	st_write(&s, TIPROF_TIP_PERIOD, 5, 0);
	/* PRIV = U only */
	st_write(&s, TIPROF_TIP_CTRL,
		 (rig_ctrl_en(TIPROF_MODE_PERIODIC, 0, TIPROF_TIP_CTRL_TRIGGER_MASK) &
		  ~TIPROF_TIP_CTRL_PRIV_MASK) | (1u << TIPROF_TIP_CTRL_PRIV_SHIFT), 0);
	s.seq = 0;
	s.nsel = 0;
	int ok = 1;
	for (unsigned c = 0; c < 20000; c++) {
		unsigned n = (unsigned)(rnd(&s) % 5);
		uint8_t priv = (c / 100) % 2 ? 3 : 0;
		uint64_t q0 = s.seq;
		size_t before = s.nsel;

		st_cycle(&s, n, NULL, priv);
		for (uint64_t q = q0; q < q0 + n; q++)
			if ((q + 1) % 5 == 0 && priv == 0)
				user++;
		if (priv != 0)
			ok &= s.nsel == before;
	}
	CHECK(ok, "no sample while M code commits");
	CHECK_EQ(s.nsel, user, "every selection of a U instruction taken (every 5th overall)");
	CHECK_EQ(s.m.taken, user, "TAKEN counts the kept ones");
	CHECK_EQ(s.m.lost, 0, "filtered selections are not LOST");
	st_fini(&s);
}

/* A loop of 8 instructions on a 4-wide ROB: instruction 3 is a long-latency load that
 * stalls the head for 40 cycles, 5 and 6 commit in its shadow in the same cycle as it; the
 * rest commit in pairs. Cycle samples pile onto the load (aggregation); instruction samples
 * x PERIOD estimate each instruction's count, which is the number of iterations. */
static void test_estimate(void)
{
	tmt_section("estimate: on a loop with a 40-cycle load, PERIOD x instruction samples per "
		    "instruction = its retired count within 4 sigma");
	struct stream s;
	const unsigned w = 4, iters = 100000;
	const uint32_t period = 97;
	unsigned long cnt[8] = { 0 };
	/* commit groups of one iteration: {0,1} {2} stall40 {3,4,5,6} {7} */
	static const unsigned groups[] = { 2, 1, 0, 4, 1 };

	st_init(&s, w, 11);
	st_write(&s, TIPROF_TIP_PERIOD, period, 0);
	st_write(&s, TIPROF_TIP_LFSR, 0x5EEDu, 0);
	st_write(&s, TIPROF_TIP_CTRL, ctrl_insn(TIPROF_MODE_RANDOM_INTERVAL, 16), 0);
	s.seq = 0;
	s.nsel = 0;
	for (unsigned it = 0; it < iters; it++) {
		for (unsigned g = 0; g < 5; g++) {
			if (!groups[g]) {
				for (unsigned c = 0; c < 40; c++)
					st_cycle(&s, 0, NULL, 3);
			} else {
				st_cycle(&s, groups[g], NULL, 3);
			}
		}
	}
	for (size_t j = 0; j < s.nsel; j++)
		cnt[s.sel[j] % 8]++;
	int ok = 1;
	double worst = 0;
	for (unsigned i = 0; i < 8; i++) {
		double est = (double)cnt[i] * period;
		double sd = sqrt((double)iters * period); /* binomial, p = 1/P */
		double z = fabs(est - iters) / sd;

		if (z > worst)
			worst = z;
		ok &= z < 4.0;
	}
	CHECK(ok, "every instruction's estimate within 4 sigma of its count");
	CHECK_EQ(s.bad, 0, "every record a Computing sample of selected instructions");
	tmt_note("%u iterations, PERIOD %u, %zu samples: estimates of instruction 0..7 = %.0f %.0f "
		 "%.0f %.0f %.0f %.0f %.0f %.0f (truth %u each), worst |z| %.2f",
		 iters, period, s.nsel, cnt[0] * (double)period, cnt[1] * (double)period,
		 cnt[2] * (double)period, cnt[3] * (double)period, cnt[4] * (double)period,
		 cnt[5] * (double)period, cnt[6] * (double)period, cnt[7] * (double)period, iters,
		 worst);
	st_fini(&s);
}

int main(void)
{
	printf("TIP model: the instruction trigger\n");
	test_periodic();
	test_random_interval();
	test_random_period();
	test_config_rules();
	test_priv_filter();
	test_estimate();
	return tmt_summary();
}
