/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_hw.c - tests of the TIP hardware layer (driver/hw) with the C reference model
 * (sim/model) standing in for the hardware: every CSR access of the layer is one
 * tip_model_cycle(), whose ROB inputs come from a small synthetic core (commits,
 * stalls, mispredicts, flushes, traps, front-end drains). The unit's interrupt
 * triggers tiprof_hw_drain(), and every drained sample must equal the sample the
 * model took (the model's `fired`/`last`; pending Drained samples are completed here
 * from the ROB inputs, independently of the model), with TAKEN/LOST agreeing.
 * Also: a 64-bit counter read across a carry on XLEN=32, and probe/configure/drain
 * error paths against fake accessors.
 *
 * Usage: test_hw [CYCLES_PER_CONFIG [SEED]]   (defaults 2000000, fixed seed)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcheck.h"
#include "tip_model.h"
#include "tiprof_hw.h"

#define ROB_MAX 64		/* largest synthetic ROB (8 entries per bank) */
#define MAX_REPORTS 5		/* mismatches printed per run */
#define DRAIN_MAX 80		/* largest drain buffer of the random runs */

/* ---------------------------------------------------------------- synthetic core */

/* One ROB entry of the synthetic core. */
struct rob_entry {
	uint64_t pc;		/* instruction address */
	uint8_t mispred;	/* a mispredicted branch */
	uint8_t flush;		/* flushes on commit (CSR access, fence, ...) */
	uint8_t priv;		/* privilege it runs at */
	uint16_t ctx;		/* address-space id */
};

/* A synthetic out-of-order core's ROB, producing the ROB interface each cycle. */
struct robgen {
	unsigned w;		/* banks */
	unsigned size;		/* ROB entries (a multiple of w) */
	uint64_t amask;		/* XLEN address mask */
	struct tc_rng rng;	/* randomness */
	unsigned head;		/* ROB index of the oldest entry */
	unsigned count;		/* entries in the ROB */
	struct rob_entry e[ROB_MAX];	/* the entries */
	uint64_t fetch_pc;	/* next address the front end delivers */
	uint8_t priv;		/* front end's privilege */
	uint16_t ctx;		/* front end's context */
	unsigned fe_stall;	/* cycles the front end delivers nothing */
	unsigned be_stall;	/* cycles the head cannot commit */
};

static void robgen_init(struct robgen *g, unsigned w, unsigned xlen, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->w = w;
	g->size = 8 * w;
	g->amask = xlen == 64 ? ~0ull : 0xFFFFFFFFull;
	g->rng.s = seed;
	g->fetch_pc = 0x80000000ull & g->amask;
}

/* A new random instruction address (2-byte aligned, some with high bits on XLEN=64). */
static uint64_t robgen_target(struct robgen *g)
{
	uint64_t a = tc_rand(&g->rng);

	if (tc_chance(&g->rng, 700))
		a &= 0xFFFFFull;
	return a & g->amask & ~1ull;
}

/* The ROB interface of the next cycle into rob, and advance the core. */
static void robgen_next(struct robgen *g, struct tiprof_rob_if *rob)
{
	unsigned w = g->w, n = g->count < w ? g->count : w;
	unsigned c = 0, nd = 0, k, idx, b;
	int squash = 0, trap = 0;

	memset(rob, 0, sizeof(*rob));
	for (k = 0; k < n; k++) {
		idx = (g->head + k) % g->size;
		b = idx % w;
		rob->head_valid |= (uint8_t)(1u << b);
		rob->head_pc[b] = g->e[idx].pc;
		if (g->e[idx].mispred)
			rob->head_mispred |= (uint8_t)(1u << b);
		if (g->e[idx].flush)
			rob->head_flush |= (uint8_t)(1u << b);
	}
	rob->head_bank = (uint8_t)(g->head % w);
	rob->priv = g->count ? g->e[g->head].priv : g->priv;
	rob->ctx_id = g->count ? g->e[g->head].ctx : g->ctx;

	/* commit stage */
	if (g->count) {
		if (g->be_stall) {
			g->be_stall--;
		} else if (tc_chance(&g->rng, 20)) {
			g->be_stall = 1 + tc_below(&g->rng, 60); /* a cache miss at the head */
		} else if (!tc_chance(&g->rng, 150)) {
			c = 1 + tc_below(&g->rng, n);
			for (k = 0; k < c; k++) {
				idx = (g->head + k) % g->size;
				if (g->e[idx].mispred || g->e[idx].flush) {
					c = k + 1;
					squash = 1;
					break;
				}
			}
		}
		if (!c && tc_chance(&g->rng, 4)) {
			rob->exception = 1;
			trap = squash = 1;
		}
		for (k = 0; k < c; k++)
			rob->head_commit |= (uint8_t)(1u << ((g->head + k) % g->size % w));
	}

	/* dispatch (nothing younger than a flushing instruction survives its commit) */
	if (!squash) {
		if (g->fe_stall) {
			g->fe_stall--;
		} else if (tc_chance(&g->rng, 15)) {
			g->fe_stall = 1 + tc_below(&g->rng, 40); /* an I-cache miss */
		} else {
			unsigned tail = g->head + g->count;

			nd = tc_below(&g->rng, w + 1);
			if (nd > g->size - g->count)
				nd = g->size - g->count;
			for (k = 0; k < nd; k++) {
				struct rob_entry *e;

				idx = (tail + k) % g->size;
				b = idx % w;
				e = &g->e[idx];
				e->pc = g->fetch_pc;
				e->mispred = (uint8_t)tc_chance(&g->rng, 25);
				e->flush = (uint8_t)tc_chance(&g->rng, 5);
				e->priv = g->priv;
				e->ctx = g->ctx;
				rob->disp_valid |= (uint8_t)(1u << b);
				rob->disp_pc[b] = e->pc;
				rob->disp_idx[b] = (uint16_t)idx;
				g->fetch_pc = tc_chance(&g->rng, 100) ? robgen_target(g) :
					      (g->fetch_pc + 4) & g->amask;
			}
			/* a core whose dispatch signals lag: the unit falls back on the head */
			if (tc_chance(&g->rng, 30))
				rob->disp_valid = 0;
		}
	}

	/* retire, squash, refill */
	if (squash) {
		g->head = (g->head + c) % g->size;
		g->count = 0;
		g->fe_stall = 2 + tc_below(&g->rng, 15);
		g->fetch_pc = robgen_target(g);
		if (trap) {
			static const uint8_t privs[] = { TIPROF_PRIV_S, TIPROF_PRIV_M };

			g->priv = privs[tc_below(&g->rng, 2)];
		} else if (tc_chance(&g->rng, 300)) {
			g->priv = TIPROF_PRIV_U; /* an xRET */
			if (tc_chance(&g->rng, 300))
				g->ctx = (uint16_t)tc_rand(&g->rng);
		}
	} else {
		g->head = (g->head + c) % g->size;
		g->count = g->count - c + nd;
	}
}

/* ---------------------------------------------------------------- model as hardware */

/* The model plus the record of what it took, in FIFO order. */
struct harness {
	struct tip_model m;		/* the unit */
	struct robgen g;		/* its core */
	struct tiprof_sample *q;	/* samples taken and not yet drained (ring) */
	unsigned qcap;			/* ring size */
	unsigned qhead;			/* oldest */
	unsigned qlen;			/* entries */
	unsigned npend;			/* youngest entries still pending (Drained) */
	uint64_t taken;			/* samples the model put in its FIFO */
	uint64_t lost;			/* samples it lost */
	uint64_t cycles;		/* cycles simulated */
	uint64_t csr;			/* CSR accesses */
	uint8_t csr_priv;		/* privilege of the layer's accesses */
	unsigned errors;		/* bookkeeping disagreements */
	unsigned fallbacks;		/* completions from the head (no dispatch seen) */
};

static void h_report(struct harness *h, const char *fmt, unsigned long long a,
		     unsigned long long b)
{
	if (h->errors++ < MAX_REPORTS) {
		printf("  cycle %llu: ", (unsigned long long)h->cycles);
		printf(fmt, a, b);
		printf("\n");
	}
}

/* One cycle of the model with the core's next inputs and an optional CSR access;
 * records the sample the model took and completes pending ones. */
static void h_step(struct harness *h, const struct tip_csr_req *req,
		   struct tip_csr_resp *resp)
{
	struct tiprof_rob_if rob;
	unsigned w = h->g.w, wm = (1u << w) - 1u, hb, disp, k;
	int empty, can = 0;
	unsigned cb = 0;
	uint64_t ca = 0;

	robgen_next(&h->g, &rob);
	tip_model_cycle(&h->m, &rob, req, resp);
	h->cycles++;

	/* where a pending Drained sample would complete in this cycle (docs/tip-unit.md) */
	hb = rob.head_bank & (w - 1u);
	empty = !(((rob.head_valid & wm) >> hb) & 1u);
	disp = rob.disp_valid & wm;
	if (!empty) {
		can = 1;
		cb = hb;
		ca = rob.head_pc[hb] & h->g.amask;
	} else if (disp) {
		can = 1;
		for (k = 0; k < w; k++) {
			cb = (hb + k) % w;
			if ((disp >> cb) & 1u)
				break;
		}
		ca = rob.disp_pc[cb] & h->g.amask;
	}
	if (can && h->npend) {
		for (k = 0; k < h->npend; k++) {
			struct tiprof_sample *s = &h->q[(h->qhead + h->qlen - 1 - k) % h->qcap];

			s->bank = (uint8_t)cb;
			s->valid = (uint8_t)(1u << cb);
			s->addr[cb] = ca;
		}
		h->npend = 0;
		h->fallbacks += !empty;
	}
	if (h->m.fired) {
		const struct tiprof_sample *s = &h->m.last;

		if (h->m.fired_lost) {
			h->lost++;
		} else if (h->qlen == h->qcap) {
			h_report(h, "model took more samples (%llu) than its FIFO holds (%llu)",
				 h->qlen + 1ull, h->qcap);
		} else {
			h->q[(h->qhead + h->qlen++) % h->qcap] = *s;
			h->taken++;
			if (s->flags == TIPROF_SF_FRONTEND && s->valid == 0)
				h->npend++;
			else if (s->flags == TIPROF_SF_FRONTEND &&
				 (!can || s->valid != 1u << cb || s->addr[cb] != ca))
				h_report(h, "drained sample completed at bank %llu, expected %llu",
					 s->bank, cb);
		}
	}
	if (h->npend != h->m.pending)
		h_report(h, "pending samples: recorded %llu, model %llu", h->npend,
			 h->m.pending);
}

static int h_csr_read(void *ctx, uint16_t addr, uint64_t *val)
{
	struct harness *h = ctx;
	struct tip_csr_req req = { 1, 0, addr, 0, h->csr_priv };
	struct tip_csr_resp r;

	h_step(h, &req, &r);
	h->csr++;
	if (r.illegal)
		return -EIO;
	*val = r.rdata;
	return 0;
}

static int h_csr_write(void *ctx, uint16_t addr, uint64_t val)
{
	struct harness *h = ctx;
	struct tip_csr_req req = { 1, 1, addr, val, h->csr_priv };
	struct tip_csr_resp r;

	h_step(h, &req, &r);
	h->csr++;
	return r.illegal ? -EIO : 0;
}

static const struct tiprof_hw_ops h_ops = { h_csr_read, h_csr_write };

static void h_init(struct harness *h, unsigned w, unsigned xlen, unsigned depth, uint64_t seed)
{
	struct tip_model_cfg cfg = { w, xlen, depth, 0 };

	memset(h, 0, sizeof(*h));
	if (tip_model_init(&h->m, &cfg)) {
		fprintf(stderr, "tip_model_init failed\n");
		exit(2);
	}
	robgen_init(&h->g, w, xlen, seed);
	/* the FIFO plus the samples a drain has popped but the test not yet matched */
	h->qcap = depth + DRAIN_MAX;
	h->q = calloc(h->qcap, sizeof(*h->q));
	if (!h->q)
		exit(2);
	h->csr_priv = TIPROF_PRIV_S;
}

/* Firmware's part (M-mode): let S-mode use the unit. */
static void h_menable(struct harness *h)
{
	uint8_t p = h->csr_priv;

	h->csr_priv = TIPROF_PRIV_M;
	h_csr_write(h, TIPROF_TIP_MENABLE, TIPROF_TIP_MENABLE_S_MASK);
	h->csr_priv = p;
}

static void h_fini(struct harness *h)
{
	tip_model_fini(&h->m);
	free(h->q);
}

/* Compare a drained sample with the oldest recorded one and drop that; returns 1 if
 * they agree in every field. */
static int h_match(struct harness *h, const struct tiprof_sample *got)
{
	const struct tiprof_sample *want;

	if (!h->qlen) {
		h_report(h, "drained a sample the model never took (cycle %llu)%llu",
			 got->cycle, 0);
		return 0;
	}
	want = &h->q[h->qhead];
	h->qhead = (h->qhead + 1) % h->qcap;
	h->qlen--;
	if (got->cycle != want->cycle || got->flags != want->flags ||
	    got->bank != want->bank || got->valid != want->valid ||
	    got->priv != want->priv || got->ctx != want->ctx ||
	    memcmp(got->addr, want->addr, sizeof(got->addr))) {
		h_report(h, "drained sample of cycle %llu differs from the one taken in "
			 "cycle %llu", got->cycle, want->cycle);
		return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- random runs */

/* What the random runs reached, over all configurations. */
struct coverage {
	uint64_t state[4];	/* drained samples per commit state */
	uint64_t lost;		/* samples lost to a full FIFO */
	uint64_t fallbacks;	/* completions from the head */
	uint64_t partial;	/* drains that stopped at a full buffer */
	uint64_t samples;	/* samples drained */
};

static unsigned state_of(const struct tiprof_sample *s)
{
	if (s->flags == 0)
		return 0;
	if (s->flags == TIPROF_SF_STALLED)
		return 1;
	if (s->flags == TIPROF_SF_FRONTEND)
		return 3;
	return 2;
}

/* A random configuration the layer accepts for a unit of the given depth. */
static void random_config(struct tc_rng *r, unsigned depth, struct tiprof_hw_config *c)
{
	static const uint8_t privs[] = { 0xB, 0xB, 0x1, 0x2, 0x8, 0x3 };
	unsigned kmax = 0;

	memset(c, 0, sizeof(*c));
	c->mode = (uint8_t)tc_below(r, 3);
	c->period = tc_chance(r, 300) ? 2 + tc_below(r, 20) : 20 + tc_below(r, 400);
	while ((2u << kmax) <= c->period && kmax < 31)
		kmax++;
	if (c->mode != TIPROF_MODE_PERIODIC)
		c->rand_bits = (uint8_t)tc_below(r, kmax + 1);
	c->priv_mask = privs[tc_below(r, sizeof(privs))];
	c->irq = 1;
	c->watermark = (uint16_t)(1 + tc_below(r, depth));
	c->lfsr_seed = (uint32_t)tc_rand(r) | 1u;
	/* the instruction trigger in a third of the runs (PERIOD - 2^(k-1) >= W holds) */
	c->insts = c->period >= 20 && tc_chance(r, 333);
}

/* One run: probe, configure, start, drain on every interrupt for `cycles` cycles,
 * stop, drain the rest, compare everything. */
static void run_one(unsigned w, unsigned xlen, unsigned depth, uint64_t seed,
		    uint64_t cycles, struct coverage *cov)
{
	struct harness h;
	struct tiprof_hw hw;
	struct tiprof_hw_config cfg;
	struct tc_rng r = { seed ^ 0x5151 };
	struct tiprof_sample buf[DRAIN_MAX];
	unsigned bufn = 1 + tc_below(&r, depth + 3 < DRAIN_MAX ? depth + 3 : DRAIN_MAX);
	unsigned max_latency = tc_chance(&r, 500) ? 0 : 1 + tc_below(&r, 400);
	unsigned latency = 0;
	uint64_t drained = 0, taken = 0, lost = 0, t;
	int n, bad = 0, ok;

	random_config(&r, depth, &cfg);
	h_init(&h, w, xlen, depth, seed);
	/* As if the unit had been running for 2^32 cycles less a bit: the run crosses the
	 * carry into the high half of CYCLE. The model has no CSR to set CYCLE, so the
	 * test sets its public field once, before the first cycle. */
	h.m.cycle = (1ull << 32) - cycles / 2;
	h_menable(&h);
	tiprof_hw_init(&hw, &h_ops, &h);
	ok = CHECK(tiprof_hw_probe(&hw) == 0, "probe W=%u XLEN=%u depth=%u", w, xlen, depth);
	ok &= CHECK(hw.w == w && hw.xlen == xlen && hw.depth == depth,
		    "probe recorded W=%u XLEN=%u depth=%u", hw.w, hw.xlen, hw.depth);
	ok &= CHECK(tiprof_hw_configure(&hw, &cfg) == 0, "configure mode %u period %u k %u",
		    cfg.mode, cfg.period, cfg.rand_bits);
	ok &= CHECK(tiprof_hw_counters_clear(&hw) == 0, "counters_clear");
	ok &= CHECK(tiprof_hw_start(&hw) == 0, "start");
	if (!ok) {
		h_fini(&h);
		return;
	}
	while (h.cycles < cycles) {
		/* the interrupt is taken some cycles after irq_o rises (0 .. max_latency) */
		if (!tip_model_irq(&h.m)) {
			h_step(&h, NULL, NULL);
			continue;
		}
		if (!latency && max_latency)
			latency = 1 + tc_below(&r, max_latency);
		if (latency && --latency) {
			h_step(&h, NULL, NULL);
			continue;
		}
		n = tiprof_hw_drain(&hw, buf, bufn);
		if (n < 0) {
			bad++;
			break;
		}
		cov->partial += (unsigned)n == bufn;
		for (int i = 0; i < n; i++) {
			bad += !h_match(&h, &buf[i]);
			cov->state[state_of(&buf[i])]++;
		}
		drained += (unsigned)n;
	}
	CHECK(tiprof_hw_stop(&hw) == 0, "stop");
	/* pending Drained samples complete when the core dispatches again */
	for (t = 0; t < 100000 && h.m.pending; t++)
		h_step(&h, NULL, NULL);
	while ((n = tiprof_hw_drain(&hw, buf, bufn)) > 0) {
		for (int i = 0; i < n; i++) {
			bad += !h_match(&h, &buf[i]);
			cov->state[state_of(&buf[i])]++;
		}
		drained += (unsigned)n;
	}
	CHECK(n == 0, "final drain returned %d", n);
	CHECK(tiprof_hw_counters(&hw, &taken, &lost) == 0, "counters");
	CHECK(bad == 0 && h.errors == 0,
	      "W=%u XLEN=%u depth=%u mode=%u period=%u k=%u: %d sample mismatches, %u "
	      "bookkeeping errors (seed %llu)", w, xlen, depth, cfg.mode, cfg.period,
	      cfg.rand_bits, bad, h.errors, (unsigned long long)seed);
	CHECK(h.qlen == 0, "%u samples taken but never drained", h.qlen);
	CHECK(drained == h.taken, "drained %llu, model took %llu",
	      (unsigned long long)drained, (unsigned long long)h.taken);
	CHECK(taken == h.taken, "TAKEN reads %llu, model took %llu",
	      (unsigned long long)taken, (unsigned long long)h.taken);
	CHECK(lost == h.lost, "LOST reads %llu, model lost %llu",
	      (unsigned long long)lost, (unsigned long long)h.lost);
	cov->lost += h.lost;
	cov->fallbacks += h.fallbacks;
	cov->samples += drained;
	h_fini(&h);
}

static void test_random(uint64_t cycles, uint64_t seed)
{
	static const unsigned ws[] = { 1, 2, 4, 8 }, xlens[] = { 32, 64 };
	static const unsigned depths[] = { 1, 2, 3, 4, 8, 16, 64 };
	struct coverage cov;
	struct tc_rng r = { seed };

	memset(&cov, 0, sizeof(cov));
	tc_section("drain against the reference model: every W and XLEN, random depth, "
		   "mode, period, watermark and buffer size");
	for (unsigned i = 0; i < 4; i++) {
		for (unsigned j = 0; j < 2; j++) {
			/* four runs per configuration share its cycle budget */
			for (unsigned k = 0; k < 4; k++)
				run_one(ws[i], xlens[j], depths[tc_below(&r, 7)], tc_rand(&r),
					cycles / 4, &cov);
		}
	}
	printf("  %llu samples drained (computing %llu, stalled %llu, flushed %llu, "
	       "drained %llu), %llu lost, %llu head completions, %llu full-buffer drains\n",
	       (unsigned long long)cov.samples, (unsigned long long)cov.state[0],
	       (unsigned long long)cov.state[1], (unsigned long long)cov.state[2],
	       (unsigned long long)cov.state[3], (unsigned long long)cov.lost,
	       (unsigned long long)cov.fallbacks, (unsigned long long)cov.partial);
	for (unsigned s = 0; s < 4; s++)
		CHECK(cov.state[s] > 100, "commit state %u reached only %llu times", s,
		      (unsigned long long)cov.state[s]);
	CHECK(cov.lost > 0, "no sample was ever lost: the FIFO-full path is untested");
	CHECK(cov.fallbacks > 0, "no pending sample completed from the head");
	CHECK(cov.partial > 0, "no drain stopped at a full buffer");
}

/* ---------------------------------------------------------------- counters */

/* LOST increments every cycle across a 32-bit carry while the layer reads it on
 * XLEN=32: the value must lie between the model's counts before and after the read.
 * A plain low-then-high read, done the same way, must tear for some offset (so the
 * check can fail). */
static void test_counter_carry(void)
{
	int torn = 0;

	tc_section("XLEN=32: 64-bit LOST read high-low-high across a carry");
	for (unsigned off = 0; off < 10; off++) {
		struct harness h;
		struct tiprof_hw hw;
		struct tiprof_hw_config cfg = { .period = 1, .mode = TIPROF_MODE_PERIODIC,
						.priv_mask = 0xF, .watermark = 1 };
		uint64_t before, after, v, lo, hi;

		h_init(&h, 2, 32, 1, 77 + off);
		h_menable(&h);
		tiprof_hw_init(&hw, &h_ops, &h);
		CHECK(tiprof_hw_probe(&hw) == 0 && tiprof_hw_configure(&hw, &cfg) == 0 &&
		      tiprof_hw_start(&hw) == 0, "set up");
		/* a sample every cycle, nobody drains: LOST counts every cycle */
		h_csr_write(&h, TIPROF_TIP_LOSTH, 0);
		h_csr_write(&h, TIPROF_TIP_LOST, 0xFFFFFFFFu - off);
		before = h.m.lost;
		CHECK(tiprof_hw_counters(&hw, NULL, &v) == 0, "read");
		after = h.m.lost;
		CHECK(v >= before && v <= after,
		      "offset %u: read 0x%llx outside [0x%llx, 0x%llx]", off,
		      (unsigned long long)v, (unsigned long long)before,
		      (unsigned long long)after);
		/* the naive read */
		h_csr_write(&h, TIPROF_TIP_LOSTH, 0);
		h_csr_write(&h, TIPROF_TIP_LOST, 0xFFFFFFFFu - off);
		before = h.m.lost;
		h_csr_read(&h, TIPROF_TIP_LOST, &lo);
		h_csr_read(&h, TIPROF_TIP_LOSTH, &hi);
		after = h.m.lost;
		v = hi << 32 | lo;
		torn |= v < before || v > after;
		h_fini(&h);
	}
	CHECK(torn, "a low-then-high read never tore: the carry test proves nothing");
}

/* ---------------------------------------------------------------- fake hardware */

/* A register file that answers without a model, for error paths. */
struct fake {
	uint64_t reg[4096];	/* register values by CSR number */
	unsigned reads;		/* accesses counted */
	unsigned writes;
	int fail_addr;		/* accesses of this address fail with -EIO (-1: none) */
	int hi_drift;		/* ..H registers change on every read */
};

static int fake_read(void *ctx, uint16_t addr, uint64_t *val)
{
	struct fake *f = ctx;

	f->reads++;
	if (addr == f->fail_addr)
		return -EIO;
	*val = f->reg[addr & 0xFFFu];
	if (f->hi_drift && (addr == TIPROF_TIP_TAKENH || addr == TIPROF_TIP_LOSTH))
		f->reg[addr]++;
	return 0;
}

static int fake_write(void *ctx, uint16_t addr, uint64_t val)
{
	struct fake *f = ctx;

	f->writes++;
	if (addr == f->fail_addr)
		return -EIO;
	if (addr == TIPROF_TIP_STATUS)
		return 0; /* sticky bits stay as the test set them */
	if (addr == TIPROF_TIP_POP) {
		if (f->reg[TIPROF_TIP_FIFO_COUNT])
			f->reg[TIPROF_TIP_FIFO_COUNT]--;
		return 0;
	}
	f->reg[addr & 0xFFFu] = val;
	return 0;
}

static const struct tiprof_hw_ops fake_ops = { fake_read, fake_write };

/* A unit of map version major.minor with magic and params as given. */
static void fake_init(struct fake *f, uint32_t magic, uint32_t major, uint32_t minor,
		      uint32_t w, uint32_t xlen, uint32_t depth)
{
	memset(f, 0, sizeof(*f));
	f->fail_addr = -1;
	f->reg[TIPROF_TIP_ID] = magic << TIPROF_TIP_ID_MAGIC_SHIFT |
				major << TIPROF_TIP_ID_MAJOR_SHIFT |
				minor << TIPROF_TIP_ID_MINOR_SHIFT;
	f->reg[TIPROF_TIP_PARAMS] = w << TIPROF_TIP_PARAMS_W_SHIFT |
				    xlen << TIPROF_TIP_PARAMS_XLEN_SHIFT |
				    depth << TIPROF_TIP_PARAMS_DEPTH_SHIFT;
}

static int fake_probe(struct fake *f)
{
	struct tiprof_hw hw;

	tiprof_hw_init(&hw, &fake_ops, f);
	return tiprof_hw_probe(&hw);
}

static void test_probe(void)
{
	struct fake f;
	struct tiprof_hw hw;

	tc_section("probe: magic, major version, parameters, failing accesses");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR, TIPROF_TIP_ID_MINOR, 4, 64, 8);
	tiprof_hw_init(&hw, &fake_ops, &f);
	CHECK_EQ(tiprof_hw_probe(&hw), 0, "good unit");
	CHECK(hw.w == 4 && hw.xlen == 64 && hw.depth == 8 && hw.major == TIPROF_TIP_ID_MAJOR,
	      "recorded W=%u XLEN=%u depth=%u major=%u", hw.w, hw.xlen, hw.depth, hw.major);
	CHECK(f.writes == 0, "probe wrote %u registers", f.writes);
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR, TIPROF_TIP_ID_MINOR + 7, 1, 32, 1);
	CHECK_EQ(fake_probe(&f), 0, "newer minor version accepted");
	fake_init(&f, TIPROF_TIP_ID_MAGIC ^ 1, TIPROF_TIP_ID_MAJOR, 0, 4, 64, 8);
	CHECK_EQ(fake_probe(&f), -ENODEV, "wrong magic");
	fake_init(&f, 0, 0, 0, 0, 0, 0);
	CHECK_EQ(fake_probe(&f), -ENODEV, "all-zero ID");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR + 1, 0, 4, 64, 8);
	CHECK_EQ(fake_probe(&f), -EOPNOTSUPP, "newer major version");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR - 1, 0, 4, 64, 8);
	CHECK_EQ(fake_probe(&f), -EOPNOTSUPP, "older major version");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR, 0, 3, 64, 8);
	CHECK_EQ(fake_probe(&f), -EPROTO, "W=3");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR, 0, 4, 48, 8);
	CHECK_EQ(fake_probe(&f), -EPROTO, "XLEN=48");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR, 0, 4, 64, 0);
	CHECK_EQ(fake_probe(&f), -EPROTO, "depth 0");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR, 0, 4, 64, 8);
	f.fail_addr = TIPROF_TIP_ID;
	CHECK_EQ(fake_probe(&f), -EIO, "TIP_ID read fails");
	f.fail_addr = TIPROF_TIP_PARAMS;
	CHECK_EQ(fake_probe(&f), -EIO, "TIP_PARAMS read fails");

	/* on the model: S-mode access before firmware sets TIP_MENABLE.S is illegal */
	{
		struct harness h;

		h_init(&h, 2, 64, 4, 1);
		tiprof_hw_init(&hw, &h_ops, &h);
		CHECK_EQ(tiprof_hw_probe(&hw), -EIO, "model, TIP_MENABLE.S = 0");
		h_menable(&h);
		CHECK_EQ(tiprof_hw_probe(&hw), 0, "model, TIP_MENABLE.S = 1");
		h_fini(&h);
	}
}

static void test_configure(void)
{
	static const struct { struct tiprof_hw_config c; const char *what; } bad[] = {
		{ { .period = 0, .priv_mask = 1, .watermark = 1 }, "period 0" },
		{ { .period = 100, .mode = 3, .priv_mask = 1, .watermark = 1 }, "mode 3" },
		{ { .period = 100, .priv_mask = 0, .watermark = 1 }, "no privilege" },
		{ { .period = 100, .priv_mask = 0x10, .watermark = 1 }, "privilege bit 4" },
		{ { .period = 100, .priv_mask = 1, .watermark = 0 }, "watermark 0" },
		{ { .period = 100, .priv_mask = 1, .watermark = 9 }, "watermark > depth" },
		{ { .period = 100, .priv_mask = 1, .watermark = 1, .rand_bits = 3 },
		  "periodic with random bits" },
		{ { .period = 64, .mode = TIPROF_MODE_RANDOM_PERIOD, .priv_mask = 1,
		    .watermark = 1, .rand_bits = 7 }, "random period, 2^(k-1) >= period" },
		{ { .period = 100, .mode = 1, .priv_mask = 1, .watermark = 1,
		    .rand_bits = 32 }, "32 random bits" },
	};
	struct tiprof_hw_config good = { .period = 128, .mode = TIPROF_MODE_RANDOM_INTERVAL,
					 .rand_bits = 7, .priv_mask = 0xB, .irq = 1,
					 .watermark = 8 };
	struct fake f;
	struct tiprof_hw hw;

	tc_section("configure: argument checks before any access, CFG_ERR read-back, states");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR, 0, 4, 64, 8);
	tiprof_hw_init(&hw, &fake_ops, &f);
	CHECK_EQ(tiprof_hw_configure(&hw, &good), -ENODEV, "configure before probe");
	CHECK_EQ(tiprof_hw_start(&hw), -ENODEV, "start before configure");
	CHECK_EQ(tiprof_hw_drain(&hw, NULL, 0), -ENODEV, "drain before probe");
	CHECK(f.reads + f.writes == 0, "%u accesses before probe", f.reads + f.writes);
	CHECK_EQ(tiprof_hw_probe(&hw), 0, "probe");
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned before = f.reads + f.writes;

		CHECK_EQ(tiprof_hw_configure(&hw, &bad[i].c), -EINVAL, bad[i].what);
		CHECK(f.reads + f.writes == before, "%s: touched the hardware", bad[i].what);
	}
	/* TIP's random interval draws floor(r * P / 2^k): any P with any k */
	static const struct { uint32_t period; unsigned k; } any[] = {
		{ 100, 7 }, { 1000, 18 }, { 2, 31 }, { 250000, 4 }, { 0xFFFFFFFFu, 31 }, { 1, 0 },
	};
	for (unsigned i = 0; i < sizeof(any) / sizeof(any[0]); i++) {
		struct tiprof_hw_config c = good;

		c.period = any[i].period;
		c.rand_bits = any[i].k;
		CHECK(tiprof_hw_configure(&hw, &c) == 0, "random interval, PERIOD %u, k %u accepted",
		      any[i].period, any[i].k);
	}
	CHECK_EQ(tiprof_hw_configure(&hw, &good), 0, "good configuration");
	CHECK_EQ(f.reg[TIPROF_TIP_PERIOD], 128, "PERIOD written");
	CHECK_EQ(f.reg[TIPROF_TIP_WATERMARK], 8, "WATERMARK written");
	CHECK_EQ(tiprof_hw_start(&hw), 0, "start");
	CHECK_EQ(f.reg[TIPROF_TIP_CTRL],
		 TIPROF_TIP_CTRL_EN_MASK | TIPROF_MODE_RANDOM_INTERVAL << TIPROF_TIP_CTRL_MODE_SHIFT |
		 TIPROF_TIP_CTRL_IRQ_EN_MASK | 0xBu << TIPROF_TIP_CTRL_PRIV_SHIFT |
		 7u << TIPROF_TIP_CTRL_RAND_BITS_SHIFT, "CTRL after start");
	CHECK_EQ(tiprof_hw_configure(&hw, &good), -EBUSY, "configure while running");
	CHECK_EQ(tiprof_hw_probe(&hw), -EBUSY, "probe while running");
	CHECK_EQ(tiprof_hw_stop(&hw), 0, "stop");
	CHECK_EQ(f.reg[TIPROF_TIP_CTRL] & (TIPROF_TIP_CTRL_EN_MASK | TIPROF_TIP_CTRL_IRQ_EN_MASK),
		 0, "EN and IRQ_EN clear after stop");
	f.reg[TIPROF_TIP_STATUS] = TIPROF_TIP_STATUS_CFG_ERR_MASK;
	CHECK_EQ(tiprof_hw_configure(&hw, &good), -EREMOTEIO, "unit rejects a write");
	CHECK_EQ(tiprof_hw_start(&hw), -ENODEV, "start after a rejected configuration");
	f.reg[TIPROF_TIP_STATUS] = 0;
	f.fail_addr = TIPROF_TIP_PERIOD;
	CHECK_EQ(tiprof_hw_configure(&hw, &good), -EIO, "PERIOD write fails");
	f.fail_addr = -1;
	f.reg[TIPROF_TIP_FIFO_COUNT] = 3;
	CHECK_EQ(tiprof_hw_configure(&hw, &good), 0, "configure with stale samples");
	CHECK_EQ(f.reg[TIPROF_TIP_FIFO_COUNT], 0, "stale samples discarded");

	/* the instruction trigger: register map 1.2 and PERIOD >= W (W = 4 here) */
	struct tiprof_hw_config ins = good;
	unsigned before = f.reads + f.writes;

	ins.insts = 1;
	CHECK_EQ(tiprof_hw_configure(&hw, &ins), -EOPNOTSUPP, "instruction trigger on map 1.0");
	CHECK(f.reads + f.writes == before, "instruction trigger on map 1.0: touched the hardware");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, 1, 2, 4, 64, 8);
	tiprof_hw_init(&hw, &fake_ops, &f);
	CHECK_EQ(tiprof_hw_probe(&hw), 0, "probe (map 1.2)");
	ins.period = 3;
	ins.rand_bits = 0;
	CHECK_EQ(tiprof_hw_configure(&hw, &ins), -EINVAL, "instruction trigger, PERIOD 3 < W");
	ins.insts = 2;
	ins.period = 100;
	CHECK_EQ(tiprof_hw_configure(&hw, &ins), -EINVAL, "insts 2");
	ins.insts = 1;
	ins.mode = TIPROF_MODE_RANDOM_PERIOD;
	ins.period = 5;
	ins.rand_bits = 2;
	CHECK_EQ(tiprof_hw_configure(&hw, &ins), -EINVAL,
		 "instruction trigger, random period, PERIOD - 2^(k-1) < W");
	ins.period = 6;
	CHECK_EQ(tiprof_hw_configure(&hw, &ins), 0, "instruction trigger, random period, PERIOD 6");
	ins.mode = TIPROF_MODE_PERIODIC;
	ins.rand_bits = 0;
	ins.period = 4;
	CHECK_EQ(tiprof_hw_configure(&hw, &ins), 0, "instruction trigger, PERIOD = W");
	CHECK_EQ(tiprof_hw_start(&hw), 0, "start");
	CHECK_EQ(f.reg[TIPROF_TIP_CTRL],
		 TIPROF_TIP_CTRL_EN_MASK | TIPROF_TIP_CTRL_IRQ_EN_MASK |
		 0xBu << TIPROF_TIP_CTRL_PRIV_SHIFT | TIPROF_TIP_CTRL_TRIGGER_MASK,
		 "CTRL after start has TRIGGER");
	CHECK_EQ(tiprof_hw_stop(&hw), 0, "stop");
	CHECK_EQ(f.reg[TIPROF_TIP_CTRL] & TIPROF_TIP_CTRL_TRIGGER_MASK,
		 TIPROF_TIP_CTRL_TRIGGER_MASK, "TRIGGER kept after stop");
}

static void test_drain_edges(void)
{
	struct fake f;
	struct tiprof_hw hw;
	struct tiprof_sample s[4];
	uint64_t v;

	tc_section("drain and counters: edge cases");
	fake_init(&f, TIPROF_TIP_ID_MAGIC, TIPROF_TIP_ID_MAJOR, 0, 2, 32, 4);
	tiprof_hw_init(&hw, &fake_ops, &f);
	CHECK_EQ(tiprof_hw_probe(&hw), 0, "probe");
	CHECK_EQ(tiprof_hw_drain(&hw, s, 4), 0, "empty FIFO");
	/* FIFO_COUNT > 0 but no complete sample shown (S_INFO.VALID = 0) */
	f.reg[TIPROF_TIP_FIFO_COUNT] = 1;
	f.writes = 0;
	CHECK_EQ(tiprof_hw_drain(&hw, s, 4), 0, "count without a visible sample");
	CHECK_EQ(f.writes, 0, "no POP without a sample");
	/* a complete sample: two slots valid, 64-bit cycle on XLEN=32 */
	f.reg[TIPROF_TIP_S_INFO] = 0x3u << TIPROF_TIP_S_INFO_VALID_SHIFT |
				   1u << TIPROF_TIP_S_INFO_BANK_SHIFT |
				   (uint64_t)TIPROF_PRIV_S << TIPROF_TIP_S_INFO_PRIV_SHIFT;
	f.reg[TIPROF_TIP_S_CYCLE] = 0x89ABCDEF;
	f.reg[TIPROF_TIP_S_CYCLEH] = 0x01234567;
	f.reg[TIPROF_TIP_S_CTX] = 0xBEEF;
	f.reg[TIPROF_TIP_S_ADDR] = 0x1000;
	f.reg[TIPROF_TIP_S_ADDR + 1] = 0x1004;
	CHECK_EQ(tiprof_hw_drain(&hw, s, 4), 1, "one sample");
	CHECK_EQ(s[0].cycle, 0x0123456789ABCDEFull, "cycle high and low");
	CHECK(s[0].valid == 3 && s[0].bank == 1 && s[0].priv == TIPROF_PRIV_S &&
	      s[0].ctx == 0xBEEF && s[0].addr[0] == 0x1000 && s[0].addr[1] == 0x1004 &&
	      s[0].addr[2] == 0, "fields");
	f.reg[TIPROF_TIP_FIFO_COUNT] = 3;
	CHECK_EQ(tiprof_hw_drain(&hw, s, 2), 2, "buffer of 2, 3 waiting");
	CHECK_EQ(f.reg[TIPROF_TIP_FIFO_COUNT], 1, "one left");
	f.fail_addr = TIPROF_TIP_POP;
	CHECK_EQ(tiprof_hw_drain(&hw, s, 2), -EIO, "POP fails on the first sample");
	f.fail_addr = TIPROF_TIP_S_ADDR + 1;
	f.reg[TIPROF_TIP_FIFO_COUNT] = 3;
	CHECK_EQ(tiprof_hw_drain(&hw, s, 4), -EIO, "address read fails");
	f.fail_addr = -1;
	f.reg[TIPROF_TIP_S_INFO] |= 0x4u << TIPROF_TIP_S_INFO_VALID_SHIFT;
	CHECK_EQ(tiprof_hw_drain(&hw, s, 4), -EPROTO, "VALID bit beyond W");
	f.reg[TIPROF_TIP_FIFO_COUNT] = 5;
	CHECK_EQ(tiprof_hw_drain(&hw, s, 4), -EPROTO, "FIFO_COUNT above depth");
	f.reg[TIPROF_TIP_FIFO_COUNT] = 0;
	f.reg[TIPROF_TIP_TAKENH] = 2;
	f.reg[TIPROF_TIP_TAKEN] = 5;
	CHECK_EQ(tiprof_hw_counters(&hw, &v, NULL), 0, "stable counter");
	CHECK_EQ(v, 0x200000005ull, "TAKEN high-low");
	f.hi_drift = 1;
	CHECK_EQ(tiprof_hw_counters(&hw, &v, NULL), -EAGAIN, "high half never settles");
	f.hi_drift = 0;
	f.reg[TIPROF_TIP_TAKEN] = 7;
	CHECK_EQ(tiprof_hw_counters_clear(&hw), 0, "clear");
	CHECK(f.reg[TIPROF_TIP_TAKEN] == 0 && f.reg[TIPROF_TIP_TAKENH] == 0 &&
	      f.reg[TIPROF_TIP_LOST] == 0 && f.reg[TIPROF_TIP_LOSTH] == 0, "cleared");
	CHECK(tiprof_hw_strerror(-EREMOTEIO)[0] && tiprof_hw_strerror(12345)[0], "strerror");
}

/* ---------------------------------------------------------------- interrupt storm */

/*
 * A unit that samples faster than it can be drained: every CSR access is one cycle
 * and, while TIP_CTRL.EN, a sample is taken every `period` cycles (period 1: the FIFO
 * refills as fast as it is emptied - a drain costs 4 + popcount(VALID) accesses a
 * sample). Sample number t (0, 1, ... in the order taken) shows t in S_CYCLE and
 * 0x1000 + 4t in S_ADDR0; a sample taken with the FIFO full is counted in TIP_LOST.
 * A drain that pops more than `guard` samples in one handler call gets -EIO on every
 * access from then on, so a drain that ignores its budget fails the test instead of
 * hanging it.
 */
#define STORM_DEPTH_MAX 64

struct storm {
	unsigned depth, period;
	uint64_t cycle, taken, lost;
	uint64_t fifo[STORM_DEPTH_MAX];	/* sample numbers, oldest at head */
	unsigned head, count;
	uint64_t ctrl;
	unsigned pops;			/* POPs since the handler was entered */
	unsigned guard;
};

static void storm_tick(struct storm *u)
{
	u->cycle++;
	if (!(u->ctrl & TIPROF_TIP_CTRL_EN_MASK) || u->cycle % u->period)
		return;
	if (u->count == u->depth) {
		u->lost++;
	} else {
		u->fifo[(u->head + u->count) % u->depth] = u->taken;
		u->count++;
	}
	u->taken++;
}

static int storm_read(void *ctx, uint16_t addr, uint64_t *val)
{
	struct storm *u = ctx;
	uint64_t t = u->count ? u->fifo[u->head] : 0;

	storm_tick(u);
	if (u->pops > u->guard)
		return -EIO;
	switch (addr) {
	case TIPROF_TIP_ID:
		*val = (uint64_t)TIPROF_TIP_ID_MAGIC << TIPROF_TIP_ID_MAGIC_SHIFT |
		       (uint64_t)TIPROF_TIP_ID_MAJOR << TIPROF_TIP_ID_MAJOR_SHIFT;
		break;
	case TIPROF_TIP_PARAMS:
		*val = 1u << TIPROF_TIP_PARAMS_W_SHIFT | 64u << TIPROF_TIP_PARAMS_XLEN_SHIFT |
		       (uint64_t)u->depth << TIPROF_TIP_PARAMS_DEPTH_SHIFT;
		break;
	case TIPROF_TIP_FIFO_COUNT:
		*val = u->count;
		break;
	case TIPROF_TIP_S_INFO:
		*val = u->count ? 1u << TIPROF_TIP_S_INFO_VALID_SHIFT |
				  (uint64_t)TIPROF_PRIV_S << TIPROF_TIP_S_INFO_PRIV_SHIFT : 0;
		break;
	case TIPROF_TIP_S_CYCLE:
		*val = u->count ? t : 0;
		break;
	case TIPROF_TIP_S_ADDR:
		*val = u->count ? 0x1000 + 4 * t : 0;
		break;
	case TIPROF_TIP_TAKEN:
		*val = u->taken;
		break;
	case TIPROF_TIP_LOST:
		*val = u->lost;
		break;
	case TIPROF_TIP_CTRL:
		*val = u->ctrl;
		break;
	default:
		*val = 0;	/* STATUS (no CFG_ERR), S_CTX */
	}
	return 0;
}

static int storm_write(void *ctx, uint16_t addr, uint64_t val)
{
	struct storm *u = ctx;

	storm_tick(u);
	if (u->pops > u->guard)
		return -EIO;
	if (addr == TIPROF_TIP_POP && u->count) {
		u->head = (u->head + 1) % u->depth;
		u->count--;
		u->pops++;
	} else if (addr == TIPROF_TIP_CTRL) {
		u->ctrl = val;
	} else if (addr == TIPROF_TIP_TAKEN) {
		u->taken = val;
	} else if (addr == TIPROF_TIP_LOST) {
		u->lost = val;
	}
	return 0;
}

static const struct tiprof_hw_ops storm_ops = { storm_read, storm_write };

/* What the driver's AUX stream would hold: the samples delivered, checked as they come. */
struct storm_sink {
	uint64_t delivered;	/* samples handed to the sink */
	uint64_t next;		/* sample number expected if none were lost */
	uint64_t gaps;		/* sample numbers missing between delivered ones */
	unsigned bad;		/* out of order, duplicated or wrong address */
};

static void storm_sink_fn(void *arg, const void *recs, unsigned int n)
{
	struct storm_sink *k = arg;
	const struct tiprof_sample *s = recs;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (s[i].cycle < k->next || s[i].addr[0] != 0x1000 + 4 * s[i].cycle)
			k->bad++;
		else
			k->gaps += s[i].cycle - k->next;
		k->next = s[i].cycle + 1;
		k->delivered++;
	}
}

/*
 * The driver's interrupt handler against the storm unit: drain with a budget of one
 * FIFO (batches of 5), read the lost increment, account the samples for throttling
 * (10 interrupts would come per tick; max 3 FIFOs a tick), stop the unit when throttled
 * and restart it at the next tick. Every handler call must pop at most the budget and
 * the stream must account for every sample: delivered + reported lost = TAKEN, the
 * reported lost = TIP_LOST = the sample numbers missing from the stream.
 */
static void test_storm_one(unsigned depth, unsigned period, uint32_t budget)
{
	struct storm u;
	struct tiprof_hw hw;
	struct tiprof_hw_config cfg = { 0 };
	struct tiprof_hw_throttle thr = { 0, 0, 0 };
	struct tiprof_sample batch[5];
	struct storm_sink k = { 0, 0, 0, 0 };
	uint64_t seen = 0, inc, lost_reported = 0, tick;
	unsigned i, irq, calls = 0, over = 0, throttles = 0, max_pops = 0, throttled = 0, full = 0;
	int n;

	memset(&u, 0, sizeof(u));
	u.depth = depth;
	u.period = period;
	u.guard = 10 * depth;
	tiprof_hw_init(&hw, &storm_ops, &u);
	CHECK_EQ(tiprof_hw_probe(&hw), 0, "storm: probe");
	cfg.period = 1;
	cfg.priv_mask = 1u << TIPROF_PRIV_S;
	cfg.irq = 1;
	cfg.watermark = (uint16_t)(depth / 2 ? depth / 2 : 1);
	CHECK_EQ(tiprof_hw_configure(&hw, &cfg), 0, "storm: configure");
	CHECK_EQ(tiprof_hw_start(&hw), 0, "storm: start");
	thr.max = 3 * budget;
	for (irq = 0; irq < 4000; irq++) {
		tick = irq / 10;
		for (i = 0; i < 50; i++)
			storm_tick(&u);	/* the time between interrupts */
		if (throttled) {
			if (tick == thr.tick)
				continue;	/* stopped: no interrupt until the next tick */
			CHECK_EQ(tiprof_hw_start(&hw), 0, "storm: unthrottle");
			throttled = 0;
		}
		if (u.count < cfg.watermark)
			continue;		/* the line is low */
		u.pops = 0;
		calls++;
		n = tiprof_hw_drain_budget(&hw, batch, 5, budget, storm_sink_fn, &k);
		if (n < 0 || (unsigned)n > budget || u.pops != (unsigned)n)
			over++;
		if (u.pops > max_pops)
			max_pops = u.pops;
		/* budget used up, the line still high: the handler returns anyway */
		if ((unsigned)n == budget && u.count >= cfg.watermark)
			full++;
		if (!tiprof_hw_lost_new(&hw, &seen, &inc))
			lost_reported += inc;
		if (tiprof_hw_throttle_account(&thr, tick, n > 0 ? (unsigned)n : 0)) {
			CHECK_EQ(tiprof_hw_stop(&hw), 0, "storm: throttle stop");
			throttled = 1;
			throttles++;
		}
	}
	/* pmu->stop: stop, then drain what is left with a budget of two FIFOs */
	CHECK_EQ(tiprof_hw_stop(&hw), 0, "storm: stop");
	u.pops = 0;
	n = tiprof_hw_drain_budget(&hw, batch, 5, 2 * depth, storm_sink_fn, &k);
	CHECK(n >= 0 && u.count == 0, "storm: the final drain empties the FIFO (%d, %u left)",
	      n, u.count);
	if (!tiprof_hw_lost_new(&hw, &seen, &inc))
		lost_reported += inc;
	CHECK(!over, "storm D=%u P=%u: every handler call pops at most the budget %u "
	      "(max %u pops, %u calls over)", depth, period, budget, max_pops, over);
	CHECK(k.bad == 0, "storm: samples in order, each once, addresses right (%u bad)", k.bad);
	CHECK(k.delivered + lost_reported == u.taken,
	      "storm D=%u P=%u: delivered %llu + lost reported %llu = TAKEN %llu", depth, period,
	      (unsigned long long)k.delivered, (unsigned long long)lost_reported,
	      (unsigned long long)u.taken);
	/* the numbers missing: between delivered samples, and after the last one */
	k.gaps += u.taken - k.next;
	CHECK(lost_reported == u.lost && k.gaps == u.lost,
	      "storm: lost reported %llu = TIP_LOST %llu = missing sample numbers %llu",
	      (unsigned long long)lost_reported, (unsigned long long)u.lost,
	      (unsigned long long)k.gaps);
	printf("  D=%u P=%u: %u handler calls, at most %u POPs each (budget %u), %u left the "
	       "FIFO above the watermark; %llu delivered + %llu lost = %llu taken; throttled %u "
	       "times\n", depth, period, calls, max_pops, budget, full,
	       (unsigned long long)k.delivered, (unsigned long long)lost_reported,
	       (unsigned long long)u.taken, throttles);
	if (period == 1) {
		/* the storm really happened: full FIFOs behind the budget, losses, throttling */
		CHECK(full > 100 && u.lost > 0 && throttles == 4000 / 10,
		      "storm: %u drains left the FIFO above the watermark, %llu lost, throttled %u times in 400 ticks",
		      full, (unsigned long long)u.lost, throttles);
	}
}

static void test_storm(void)
{
	struct tiprof_hw_throttle t = { 0, 0, 0 };

	tc_section("interrupt storm: bounded drain, throttling, exact lost accounting");
	test_storm_one(16, 1, 16);
	test_storm_one(4, 1, 4);
	test_storm_one(16, 7, 16);
	test_storm_one(64, 2, 64);
	/* the throttle counts per tick, and max 0 never throttles */
	t.max = 10;
	CHECK(!tiprof_hw_throttle_account(&t, 1, 9) && tiprof_hw_throttle_account(&t, 1, 1) &&
	      !tiprof_hw_throttle_account(&t, 2, 9), "throttle: 10 per tick");
	t.max = 0;
	CHECK(!tiprof_hw_throttle_account(&t, 2, 1000000), "throttle: no limit");
	CHECK_EQ(tiprof_hw_drain_budget(NULL, NULL, 0, 1, storm_sink_fn, NULL), -EINVAL,
		 "batch of 0 refused");
}

int main(int argc, char **argv)
{
	uint64_t cycles = argc > 1 ? strtoull(argv[1], NULL, 0) : 2000000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 20211018;

	printf("test_hw: hardware layer on the TIP reference model (%llu cycles per "
	       "configuration, seed %llu)\n", (unsigned long long)cycles,
	       (unsigned long long)seed);
	test_probe();
	test_configure();
	test_drain_edges();
	test_storm();
	test_counter_carry();
	test_random(cycles, seed);
	return tc_summary();
}
