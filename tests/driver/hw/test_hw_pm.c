/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_hw_pm.c - the ProfileMe part of the hardware layer (driver/hw) with the ProfileMe
 * reference model (sim/model/pm_model.c) as the hardware: every CSR access of the layer is one
 * pm_model_cycle() (TIP_ID/TIP_PARAMS/TIP_STATUS are answered by this harness, as the unit top
 * would from its TIP subsystem), with fetch packets and events from a small core that keeps
 * the ProfileMe contract (it learns the tags from pm_tag_o, reports stages in order, ends
 * every tagged instruction, sometimes loses one so the timeout ends it). The subsystem's
 * interrupt triggers tiprof_hw_pm_drain() after a random latency into a buffer of random size.
 *
 * Checked: every record the model pushes is drained exactly once, in order and equal word for
 * word; none is drained that was not pushed; PM_TAKEN/LOST/FILTERED/COLLIDED read through the
 * layer equal the model's counts of pushed/lost/filtered/collided; tiprof_hw_irq_pending sees
 * the PM line; lost and filtered samples and pairs occur (so those paths are exercised).
 * Also: probe without a subsystem, every -EINVAL of the configuration with no CSR access.
 *
 * Usage: test_hw_pm [CYCLES_PER_CONFIG [SEED]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_model.h"
#include "tcheck.h"
#include "tiprof_hw.h"

#define DRAIN_MAX 24		/* largest drain buffer */
#define MAX_REPORTS 5

/* A tagged instruction the synthetic core carries. */
struct live {
	int on;			/* carries the tag */
	unsigned stage;		/* next stage to report: 0 map .. 4 complete, 5 end */
	int lose;		/* never ends: the unit's timeout must */
	int load;		/* a load */
	int store;		/* a store (EA without LOAD) */
};

struct harness {
	struct pm_model m;
	struct tc_rng rng;
	unsigned xlen;
	uint64_t pc;			/* next fetch address */
	struct live t[2];		/* per tag id */
	struct tiprof_pm_sample *q;	/* records pushed, not yet drained (ring) */
	unsigned qcap, qhead, qlen;
	uint64_t pushed, lost, filtered, collided, pairs, cycles, csr, csr_only;
	unsigned errors;
	int no_pm;			/* answer PM addresses as a unit without the subsystem */
};

static void h_report(struct harness *h, const char *what, unsigned long long a,
		     unsigned long long b)
{
	if (h->errors++ < MAX_REPORTS)
		printf("  cycle %llu: %s (%llu, %llu)\n", (unsigned long long)h->cycles, what, a,
		       b);
}

/* The interface inputs of the next cycle. */
static void h_inputs(struct harness *h, struct tiprof_pm_if *in)
{
	unsigned f = h->m.cfg.f, i, t;
	uint64_t amask = h->xlen == 64 ? ~0ull : 0xFFFFFFFFull;

	memset(in, 0, sizeof(*in));
	if (!tc_chance(&h->rng, 150)) {
		in->fetch_valid = (uint8_t)(tc_chance(&h->rng, 700) ? (1u << f) - 1u :
					    tc_rand(&h->rng) & ((1u << f) - 1u));
		for (i = 0; i < f; i++) {
			in->fetch_pc[i] = h->pc & amask;
			h->pc += 4;
		}
		in->fetch_br = (uint8_t)tc_rand(&h->rng);
		in->fetch_hist = (uint16_t)tc_rand(&h->rng);
		in->fetch_icmiss = tc_chance(&h->rng, 50);
		in->fetch_priv = tc_chance(&h->rng, 900) ? TIPROF_PRIV_U : TIPROF_PRIV_S;
		in->fetch_ctx = (uint16_t)tc_below(&h->rng, 4);
	}
	for (t = 0; t < h->m.cfg.tags; t++) {
		struct live *l = &h->t[t];
		uint8_t b = (uint8_t)(1u << t);

		if (!l->on || l->lose || !tc_chance(&h->rng, 400))
			continue;
		if (l->load)
			in->load |= b;
		if (l->store)
			in->store |= b;
		switch (l->stage) {
		case 0:
			in->map |= b;
			if (tc_chance(&h->rng, 300)) {
				in->ready |= b;
				l->stage++;
			}
			break;
		case 1:
			in->ready |= b;
			break;
		case 2:
			in->issue |= b;
			if (l->load || l->store) {
				in->mem |= b;
				if (tc_chance(&h->rng, 800)) {
					in->ea_valid |= b;
					in->ea[t] = tc_rand(&h->rng) & amask;
				}
				if (tc_chance(&h->rng, 300))
					in->dc_miss |= b;
			}
			break;
		case 3:
			in->complete |= b;
			if (tc_chance(&h->rng, 200)) {
				in->br_valid |= b;
				if (tc_chance(&h->rng, 500))
					in->br_taken |= b;
				if (tc_chance(&h->rng, 200))
					in->br_mispred |= b;
			}
			break;
		default:
			if (tc_chance(&h->rng, 150)) {
				in->abort |= b;
				in->abort_reason[t] = (uint8_t)tc_below(&h->rng, 4);
			} else {
				in->retire |= b;
			}
			l->on = 0;
			break;
		}
		l->stage++;
	}
	/* an early abort (wrong path), now and then */
	for (t = 0; t < h->m.cfg.tags; t++) {
		struct live *l = &h->t[t];

		if (l->on && !l->lose && l->stage < 4 && tc_chance(&h->rng, 20) &&
		    !((in->retire | in->abort) >> t & 1u)) {
			in->abort |= (uint8_t)(1u << t);
			in->abort_reason[t] = TIPROF_PM_ABORT_MISPRED;
			l->on = 0;
		}
	}
}

/* One cycle with an optional CSR access. */
static void h_step(struct harness *h, const struct pm_csr_req *req, struct pm_csr_resp *resp)
{
	struct tiprof_pm_if in;
	struct pm_model_out out;
	unsigned i, t, k;

	h_inputs(h, &in);
	pm_model_cycle(&h->m, &in, req, 1, &out);
	h->cycles++;
	if (resp)
		*resp = out.csr;
	/* the core learns the tags: it carries them from the next cycle */
	for (i = 0; i < h->m.cfg.f; i++)
		for (t = 0; t < 2; t++)
			if (out.tag[i] >> t & 1u) {
				memset(&h->t[t], 0, sizeof(h->t[t]));
				h->t[t].on = 1;
				h->t[t].lose = tc_chance(&h->rng, 20);
				h->t[t].load = tc_chance(&h->rng, 300);
				h->t[t].store = !h->t[t].load && tc_chance(&h->rng, 200);
			}
	/* the sample closed (a lost tag ended by the timeout): the core forgets its tags */
	if (!h->m.open)
		for (t = 0; t < 2; t++)
			h->t[t].on = 0;
	for (k = 0; k < out.nsel; k++)
		if (!(out.sel_taken >> k & 1u))
			h->collided++;
	if (out.completed) {
		if (out.filtered) {
			h->filtered++;
		} else if (out.lost) {
			h->lost++;
		} else if (out.pushed) {
			if (h->qlen == h->qcap) {
				h_report(h, "more records pushed than the FIFO holds", h->qlen,
					 h->qcap);
			} else {
				memcpy(h->q[(h->qhead + h->qlen++) % h->qcap].w, out.rec.w,
				       sizeof(out.rec.w));
				h->pushed++;
				h->pairs += out.rec.w[TIPROF_PM_REC_SINFO] >>
					    TIPROF_PM_REC_SINFO_PAIR_SHIFT & 1u;
			}
		}
	}
}

static int h_csr(void *ctx, int we, uint16_t addr, uint64_t wval, uint64_t *val)
{
	struct harness *h = ctx;
	struct pm_csr_req req = { 1, we, addr, wval, TIPROF_PRIV_S };
	struct pm_csr_resp r;

	h->csr++;
	/* the unit top: TIP's identification and status come from the TIP subsystem */
	if (addr == TIPROF_TIP_ID || addr == TIPROF_TIP_PARAMS || addr == TIPROF_TIP_STATUS) {
		h_step(h, NULL, NULL);
		h->csr_only++;
		if (addr == TIPROF_TIP_ID)
			*val = TIPROF_TIP_ID_MAGIC | TIPROF_TIP_ID_MAJOR << TIPROF_TIP_ID_MAJOR_SHIFT |
			       (uint64_t)TIPROF_TIP_ID_MINOR << TIPROF_TIP_ID_MINOR_SHIFT;
		else if (addr == TIPROF_TIP_PARAMS)
			*val = 2u | (uint64_t)h->xlen << TIPROF_TIP_PARAMS_XLEN_SHIFT |
			       16u << TIPROF_TIP_PARAMS_DEPTH_SHIFT;
		else
			*val = 0;
		return 0;
	}
	if (h->no_pm) {
		h_step(h, NULL, NULL);
		return -EIO;
	}
	h_step(h, &req, &r);
	if (r.illegal || !r.hit)
		return -EIO;
	if (!we)
		*val = r.rdata;
	return 0;
}

static int h_read(void *ctx, uint16_t addr, uint64_t *val)
{
	return h_csr(ctx, 0, addr, 0, val);
}

static int h_write(void *ctx, uint16_t addr, uint64_t val)
{
	uint64_t dummy;

	return h_csr(ctx, 1, addr, val, &dummy);
}

static const struct tiprof_hw_ops h_ops = { h_read, h_write };

/* Compare drained records with the oldest recorded ones. */
static void h_match(struct harness *h, const struct tiprof_pm_sample *got, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct tiprof_pm_sample *want;
		unsigned k;

		if (!h->qlen) {
			h_report(h, "drained a record the model never pushed", 0, 0);
			continue;
		}
		want = &h->q[h->qhead];
		for (k = 0; k < TIPROF_PM_REC_WORDS; k++)
			if (got[i].w[k] != want->w[k]) {
				h_report(h, "drained record differs in word (k, got)", k,
					 got[i].w[k]);
				break;
			}
		h->qhead = (h->qhead + 1) % h->qcap;
		h->qlen--;
	}
}

struct coverage {
	uint64_t runs, pushed, lost, filtered, collided, pairs, partial, irqs, cycles, csr;
};

static void run_one(unsigned f, unsigned xlen, unsigned depth, unsigned tags, uint64_t seed,
		    uint64_t cycles, struct coverage *cov)
{
	struct pm_model_cfg mc = { f, xlen, depth, tags };
	struct tiprof_hw_pm_config cfg;
	struct tiprof_pm_sample buf[DRAIN_MAX];
	struct tiprof_pm_counts cnt;
	struct tiprof_hw hw;
	struct harness h;
	unsigned which;
	int ret, n, latency = -1;

	memset(&h, 0, sizeof(h));
	if (pm_model_init(&h.m, &mc)) {
		fprintf(stderr, "pm_model_init failed\n");
		exit(2);
	}
	h.rng.s = seed;
	h.xlen = xlen;
	h.pc = 0x10000;
	h.qcap = depth + DRAIN_MAX;
	h.q = calloc(h.qcap, sizeof(*h.q));
	if (!h.q)
		exit(2);

	tiprof_hw_init(&hw, &h_ops, &h);
	CHECK_EQ(tiprof_hw_probe(&hw), 0, "probe");
	CHECK_EQ(tiprof_hw_pm_probe(&hw), 0, "pm probe");
	CHECK(hw.pm_f == f && hw.pm_depth == depth && hw.pm_tags == tags,
	      "PM_PARAMS: F %u depth %u tags %u", hw.pm_f, hw.pm_depth, hw.pm_tags);

	memset(&cfg, 0, sizeof(cfg));
	cfg.mode = (uint8_t)tc_below(&h.rng, 3);
	cfg.period = f * (4 + tc_below(&h.rng, 40));
	cfg.rand_bits = cfg.mode == TIPROF_MODE_PERIODIC ? 0 :
			cfg.mode == TIPROF_MODE_RANDOM_INTERVAL ? (uint8_t)(1 + tc_below(&h.rng, 12)) :
			(uint8_t)(1 + tc_below(&h.rng, 3));
	cfg.priv_mask = tc_chance(&h.rng, 700) ? 1u << TIPROF_PRIV_U : 0xF;
	cfg.irq = 1;
	cfg.unit = tc_chance(&h.rng, 300);
	cfg.pair = tags == 2 && tc_chance(&h.rng, 700);
	cfg.window = (uint16_t)(1 + tc_below(&h.rng, 16));
	cfg.watermark = (uint16_t)(1 + tc_below(&h.rng, depth));
	cfg.timeout = (uint16_t)(30 + tc_below(&h.rng, 200));
	if (tc_chance(&h.rng, 400))	/* drop retired non-loads, keep the rest */
		cfg.evfilt = 1u << TIPROF_PM_EV_ABORTED;
	if (tc_chance(&h.rng, 300))
		cfg.latfilt = (uint32_t)(TIPROF_PM_LAT_TOTAL << TIPROF_PM_LATFILT_SEL_SHIFT) |
			      (4 + tc_below(&h.rng, 10));
	cfg.lfsr_seed = (uint32_t)tc_rand(&h.rng) | 1u;
	ret = tiprof_hw_pm_configure(&hw, &cfg);
	CHECK_EQ(ret, 0, "pm configure");
	CHECK_EQ(tiprof_hw_pm_start(&hw), 0, "pm start");

	while (h.cycles < cycles && !h.errors) {
		h_step(&h, NULL, NULL);
		if (latency < 0 && pm_model_irq(&h.m))
			latency = (int)tc_below(&h.rng, 60);
		if (latency >= 0 && latency-- == 0) {
			latency = -1;
			cov->irqs++;
			CHECK_EQ(tiprof_hw_irq_pending(&hw, &which), 0, "irq_pending");
			if (!(which & TIPROF_HW_IRQ_PM) && pm_model_irq(&h.m))
				h_report(&h, "PM interrupt not seen by irq_pending", which, 0);
			n = tiprof_hw_pm_drain(&hw, buf, 1 + tc_below(&h.rng, DRAIN_MAX));
			if (n < 0) {
				h_report(&h, "drain failed", (unsigned long long)-n, 0);
				break;
			}
			h_match(&h, buf, n);
		}
	}
	/* stop, let the open sample end, drain the rest */
	CHECK_EQ(tiprof_hw_pm_stop(&hw), 0, "pm stop");
	while (h.m.open && h.cycles < cycles + 70000)
		h_step(&h, NULL, NULL);
	do {
		n = tiprof_hw_pm_drain(&hw, buf, DRAIN_MAX);
		if (n > 0)
			h_match(&h, buf, n);
		if (n == DRAIN_MAX)
			cov->partial++;
	} while (n == DRAIN_MAX);
	CHECK(n >= 0, "final drain: %d", n);
	CHECK(h.qlen == 0, "%u records pushed but never drained", h.qlen);
	CHECK_EQ(tiprof_hw_pm_counters(&hw, &cnt), 0, "pm counters");
	CHECK_EQ(cnt.taken, h.pushed, "PM_TAKEN = records pushed");
	CHECK_EQ(cnt.lost, h.lost, "PM_LOST = records lost");
	CHECK_EQ(cnt.filtered, h.filtered, "PM_FILTERED = records filtered");
	CHECK_EQ(cnt.collided, h.collided, "PM_COLLIDED = selections collided");
	CHECK(h.errors == 0, "F=%u XLEN=%u depth %u tags %u seed %llu: %u errors", f, xlen, depth,
	      tags, (unsigned long long)seed, h.errors);
	/* records left at a reconfiguration are discarded and counted */
	CHECK_EQ(tiprof_hw_pm_start(&hw), 0, "pm restart");
	while (pm_model_fifo_count(&h.m) < 1 && h.cycles < cycles + 200000)
		h_step(&h, NULL, NULL);
	CHECK_EQ(tiprof_hw_pm_stop(&hw), 0, "pm stop again");
	while (h.m.open && h.cycles < cycles + 300000)
		h_step(&h, NULL, NULL);
	n = (int)pm_model_fifo_count(&h.m);
	cfg.irq = 0;
	CHECK_EQ(tiprof_hw_pm_configure(&hw, &cfg), 0, "reconfigure");
	CHECK(n > 0 && hw.pm_discarded == (uint32_t)n && pm_model_fifo_count(&h.m) == 0,
	      "reconfigure discarded %u of %d records, %u left", hw.pm_discarded, n,
	      pm_model_fifo_count(&h.m));
	cfg.window = 0;
	CHECK_EQ(tiprof_hw_pm_configure(&hw, &cfg), -EINVAL, "bad reconfigure");
	CHECK(hw.pm_discarded == 0, "a refused configure discards nothing");
	cov->runs++;
	cov->pushed += h.pushed;
	cov->lost += h.lost;
	cov->filtered += h.filtered;
	cov->collided += h.collided;
	cov->pairs += h.pairs;
	cov->cycles += h.cycles;
	cov->csr += h.csr;
	pm_model_fini(&h.m);
	free(h.q);
}

static void test_random(uint64_t cycles, uint64_t seed)
{
	static const unsigned fs[] = { 1, 2, 4, 8 }, xlens[] = { 32, 64 };
	static const unsigned depths[] = { 1, 2, 3, 4, 8, 16 };
	struct coverage cov;
	struct tc_rng r = { seed };
	unsigned i, j, k;

	memset(&cov, 0, sizeof(cov));
	tc_section("PM drain against the ProfileMe model: every F and XLEN, random depth, tags, "
		   "mode, period, pairing, filters, watermark and buffer size");
	for (i = 0; i < 4; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 4; k++)
				run_one(fs[i], xlens[j], depths[tc_below(&r, 6)],
					1 + tc_chance(&r, 750), tc_rand(&r), cycles / 4, &cov);
	printf("  %llu runs, %llu cycles, %llu CSR accesses: %llu records drained (%llu pairs), "
	       "%llu lost, %llu filtered, %llu collided, %llu interrupts\n",
	       (unsigned long long)cov.runs, (unsigned long long)cov.cycles,
	       (unsigned long long)cov.csr, (unsigned long long)cov.pushed,
	       (unsigned long long)cov.pairs, (unsigned long long)cov.lost,
	       (unsigned long long)cov.filtered, (unsigned long long)cov.collided,
	       (unsigned long long)cov.irqs);
	CHECK(cov.pushed > 1000, "only %llu records", (unsigned long long)cov.pushed);
	CHECK(cov.pairs > 100, "only %llu pairs", (unsigned long long)cov.pairs);
	CHECK(cov.lost > 0, "no record lost: the FIFO-full path is untested");
	CHECK(cov.filtered > 0, "no record filtered");
	CHECK(cov.collided > 0, "no collision");
}

/* Accessors that count and refuse every access. */
static unsigned refused;

static int no_read(void *ctx, uint16_t addr, uint64_t *val)
{
	(void)ctx;
	(void)addr;
	(void)val;
	refused++;
	return -ECANCELED;
}

static int no_write(void *ctx, uint16_t addr, uint64_t val)
{
	(void)ctx;
	(void)addr;
	(void)val;
	refused++;
	return -ECANCELED;
}

static const struct tiprof_hw_ops no_ops = { no_read, no_write };

static void test_config_checks(void)
{
	struct tiprof_hw hw;
	struct tiprof_hw_pm_config ok, c;
	struct harness h;
	struct pm_model_cfg mc = { 4, 64, 8, 1 };
	static const char *const what[] = {
		"period < F", "empty privilege filter", "watermark 0", "watermark > depth",
		"window 0", "window 257", "timeout 0", "pair with one tag id", "latfilt SEL 7",
		"latfilt bit 20", "mode 3", "periodic with k", "random period 2^(k-1) + F > P",
		"rand_bits 32", "unit 2",
	};
	unsigned i;

	tc_section("PM probe without the subsystem; configuration checks before any access");
	memset(&h, 0, sizeof(h));
	if (pm_model_init(&h.m, &mc))
		exit(2);
	h.xlen = 64;
	h.qcap = 16;
	h.q = calloc(h.qcap, sizeof(*h.q));
	h.no_pm = 1;
	tiprof_hw_init(&hw, &h_ops, &h);
	CHECK_EQ(tiprof_hw_pm_probe(&hw), -ENODEV, "pm probe before the unit's probe");
	CHECK_EQ(tiprof_hw_probe(&hw), 0, "probe");
	CHECK_EQ(tiprof_hw_pm_probe(&hw), -ENODEV, "pm probe of a unit without ProfileMe");
	CHECK_EQ(tiprof_hw_pm_drain(&hw, NULL, 0), -ENODEV, "pm drain without ProfileMe");
	h.no_pm = 0;
	CHECK_EQ(tiprof_hw_pm_probe(&hw), 0, "pm probe");
	CHECK(hw.pm_tags == 1, "one tag id");

	memset(&ok, 0, sizeof(ok));
	ok.period = 1000;
	ok.mode = TIPROF_MODE_RANDOM_INTERVAL;
	ok.rand_bits = 10;
	ok.priv_mask = 1;
	ok.window = 64;
	ok.watermark = 4;
	ok.timeout = 1000;
	hw.ops = &no_ops;
	refused = 0;
	CHECK_EQ(tiprof_hw_pm_configure(&hw, &ok), -ECANCELED, "valid config reaches the CSRs");
	CHECK(refused == 1, "first access after the checks");
	hw.pm_state = TIPROF_HW_PROBED;
	refused = 0;
	for (i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		c = ok;
		switch (i) {
		case 0: c.period = 3; break;
		case 1: c.priv_mask = 0; break;
		case 2: c.watermark = 0; break;
		case 3: c.watermark = 9; break;
		case 4: c.window = 0; break;
		case 5: c.window = 257; break;
		case 6: c.timeout = 0; break;
		case 7: c.pair = 1; break;
		case 8: c.latfilt = 7u << TIPROF_PM_LATFILT_SEL_SHIFT; break;
		case 9: c.latfilt = 1u << 20; break;
		case 10: c.mode = 3; break;
		case 11: c.mode = TIPROF_MODE_PERIODIC; break;
		case 12: c.mode = TIPROF_MODE_RANDOM_PERIOD; c.period = 515; break;
		case 13: c.rand_bits = 32; break;
		default: c.unit = 2; break;
		}
		if (!CHECK_EQ(tiprof_hw_pm_configure(&hw, &c), -EINVAL, what[i]))
			printf("    (case %s)\n", what[i]);
	}
	CHECK(refused == 0, "%u CSR accesses for invalid configurations", refused);
	pm_model_fini(&h.m);
	free(h.q);
}

int main(int argc, char **argv)
{
	uint64_t cycles = argc > 1 ? strtoull(argv[1], NULL, 0) : 400000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 20261125;

	printf("test_hw_pm: ProfileMe hardware layer on the ProfileMe reference model (%llu cycles "
	       "per configuration, seed %llu)\n", (unsigned long long)cycles,
	       (unsigned long long)seed);
	test_config_checks();
	test_random(cycles, seed);
	return tc_summary();
}
