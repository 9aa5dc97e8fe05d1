/* SPDX-License-Identifier: Apache-2.0 */
/* Directed benches for the unit's rules beyond the worked examples, each checking the values
 * the specification (docs/tip-unit.md) implies, through the CSR port only:
 *   csr_rules      illegal accesses, bad configuration writes, W1C, ID/PARAMS, privilege gating
 *   fifo_full_pop  FIFO full, pop and new sample in one cycle, the lost counter, the interrupt
 *   reset_drained  reset while a Drained sample is pending, then normal operation again
 *   random_stats   random modes: one sample per interval, spread phases, mean intervals */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb.h"

#define ANY (~0ull) /* expected read value: do not check */

/* ------------------------------------------------------------------ csr_rules */

struct access {
	int we;
	uint16_t addr;
	uint64_t wdata;
	uint8_t priv;
	int illegal;        /* expected csr_illegal_o */
	uint64_t rdata;     /* expected read data (ANY: not checked; writes read 0) */
};

struct rules_state {
	struct access a[128];
	unsigned n;         /* accesses in a[] */
	unsigned k;         /* next access */
};

static void add(struct rules_state *s, int we, uint16_t addr, uint64_t wdata, uint8_t priv,
		int illegal, uint64_t rdata)
{
	struct access *a = &s->a[s->n++];

	a->we = we;
	a->addr = addr;
	a->wdata = wdata;
	a->priv = priv;
	a->illegal = illegal;
	a->rdata = we || illegal ? 0 : rdata;
}

static void rules_plan(struct rules_state *s, const struct tip_model_cfg *c)
{
	int x32 = c->xlen == 32;
	uint64_t cfg_err = TIPROF_TIP_STATUS_CFG_ERR_MASK;

	/* Self-description. */
	add(s, 0, TIPROF_TIP_ID, 0, 3, 0, TIPROF_TIP_ID_MAGIC | TIPROF_TIP_ID_MAJOR << 16 |
	    TIPROF_TIP_ID_MINOR << 24);
	add(s, 0, TIPROF_TIP_PARAMS, 0, 3, 0, c->w | c->xlen << 4 | (uint64_t)c->fifo_depth << 12);
	add(s, 0, TIPROF_TIP_CTRL, 0, 3, 0, TIPROF_TIP_CTRL_RESET);
	add(s, 0, TIPROF_TIP_PERIOD, 0, 3, 0, TIPROF_TIP_PERIOD_RESET);
	add(s, 0, TIPROF_TIP_WATERMARK, 0, 3, 0, TIPROF_TIP_WATERMARK_RESET);
	add(s, 0, TIPROF_TIP_LFSR, 0, 3, 0, ANY);
	/* Unimplemented addresses are reported on the port. */
	add(s, 0, 0x5CF, 0, 3, 1, 0);
	add(s, 0, 0xDD8, 0, 3, 1, 0);
	add(s, 0, 0x123, 0, 3, 1, 0);
	add(s, 0, (uint16_t)(TIPROF_TIP_S_ADDR + c->w - 1), 0, 3, 0, 0);
	if (c->w < 8)
		add(s, 0, (uint16_t)(TIPROF_TIP_S_ADDR + c->w), 0, 3, 1, 0);
	add(s, 0, TIPROF_TIP_CYCLEH, 0, 3, !x32, ANY);
	add(s, 1, TIPROF_TIP_TAKENH, 0, 3, !x32, 0);
	/* Writes to read-only space are illegal and change nothing. */
	add(s, 1, TIPROF_TIP_ID, 0, 3, 1, 0);
	add(s, 1, TIPROF_TIP_FIFO_COUNT, 5, 3, 1, 0);
	/* Privilege: S needs TIP_MENABLE.S; U never; MENABLE itself is M-only. */
	add(s, 0, TIPROF_TIP_ID, 0, 1, 1, 0);
	add(s, 1, TIPROF_TIP_MENABLE, 1, 1, 1, 0);
	add(s, 1, TIPROF_TIP_MENABLE, 1, 3, 0, 0);
	add(s, 0, TIPROF_TIP_MENABLE, 0, 3, 0, 1);
	add(s, 0, TIPROF_TIP_ID, 0, 1, 0, TIPROF_TIP_ID_MAGIC | TIPROF_TIP_ID_MAJOR << 16 |
	    TIPROF_TIP_ID_MINOR << 24);
	add(s, 0, TIPROF_TIP_ID, 0, 0, 1, 0);
	add(s, 1, TIPROF_TIP_PERIOD, 77, 0, 1, 0);
	add(s, 0, TIPROF_TIP_PERIOD, 0, 1, 0, TIPROF_TIP_PERIOD_RESET);
	/* Bad configuration values: ignored, CFG_ERR set, register unchanged. */
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, 0);
	add(s, 1, TIPROF_TIP_PERIOD, 0, 3, 0, 0);
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
	add(s, 0, TIPROF_TIP_PERIOD, 0, 3, 0, TIPROF_TIP_PERIOD_RESET);
	add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, 0);
	add(s, 1, TIPROF_TIP_WATERMARK, c->fifo_depth + 1u, 3, 0, 0);
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
	add(s, 0, TIPROF_TIP_WATERMARK, 0, 3, 0, TIPROF_TIP_WATERMARK_RESET);
	add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
	add(s, 1, TIPROF_TIP_WATERMARK, 0, 3, 0, 0);
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
	add(s, 1, TIPROF_TIP_WATERMARK, c->fifo_depth, 3, 0, 0);
	add(s, 0, TIPROF_TIP_WATERMARK, 0, 3, 0, c->fifo_depth);
	add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
	add(s, 1, TIPROF_TIP_CTRL, 0xf7, 3, 0, 0); /* MODE = 3 */
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
	add(s, 0, TIPROF_TIP_CTRL, 0, 3, 0, TIPROF_TIP_CTRL_RESET);
	add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
	add(s, 1, TIPROF_TIP_CTRL, 0x4000, 3, 0, 0); /* a bit outside the fields */
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
	add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
	if (c->w > 1) {
		/* the instruction trigger needs PERIOD >= W (CTRL with TRIGGER, and PERIOD) */
		const uint64_t trig = TIPROF_TIP_CTRL_RESET | TIPROF_TIP_CTRL_TRIGGER_MASK;

		add(s, 1, TIPROF_TIP_PERIOD, c->w - 1u, 3, 0, 0);
		add(s, 1, TIPROF_TIP_CTRL, trig, 3, 0, 0);
		add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
		add(s, 0, TIPROF_TIP_CTRL, 0, 3, 0, TIPROF_TIP_CTRL_RESET);
		add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
		add(s, 1, TIPROF_TIP_PERIOD, c->w, 3, 0, 0);
		add(s, 1, TIPROF_TIP_CTRL, trig, 3, 0, 0);
		add(s, 0, TIPROF_TIP_CTRL, 0, 3, 0, trig);
		add(s, 1, TIPROF_TIP_PERIOD, c->w - 1u, 3, 0, 0);
		add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
		add(s, 0, TIPROF_TIP_PERIOD, 0, 3, 0, c->w);
		add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
		add(s, 1, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET, 3, 0, 0);
		add(s, 1, TIPROF_TIP_PERIOD, TIPROF_TIP_PERIOD_RESET, 3, 0, 0);
	}
	add(s, 1, TIPROF_TIP_LFSR, 0, 3, 0, 0);
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
	add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
	if (!x32) {
		add(s, 1, TIPROF_TIP_PERIOD, 1ull << 32, 3, 0, 0);
		add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, cfg_err);
		add(s, 1, TIPROF_TIP_STATUS, cfg_err, 3, 0, 0);
	}
	/* A legal write takes effect from the next cycle. */
	add(s, 1, TIPROF_TIP_PERIOD, 1234, 3, 0, 0);
	add(s, 0, TIPROF_TIP_PERIOD, 0, 3, 0, 1234);
	add(s, 1, TIPROF_TIP_LFSR, 0x1234567, 3, 0, 0);
	add(s, 0, TIPROF_TIP_LFSR, 0, 3, 0, 0x1234567);
	/* A POP with nothing complete sets POP_EMPTY. */
	add(s, 1, TIPROF_TIP_POP, 0, 3, 0, 0);
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, TIPROF_TIP_STATUS_POP_EMPTY_MASK);
	add(s, 1, TIPROF_TIP_STATUS, TIPROF_TIP_STATUS_POP_EMPTY_MASK, 3, 0, 0);
	add(s, 0, TIPROF_TIP_STATUS, 0, 3, 0, 0);
	/* Counters: writes, and on XLEN=32 the high halves. */
	add(s, 1, TIPROF_TIP_LOST, 0xffffffffu, 3, 0, 0);
	if (x32) {
		add(s, 1, TIPROF_TIP_LOSTH, 7, 3, 0, 0);
		add(s, 0, TIPROF_TIP_LOSTH, 0, 3, 0, 7);
	}
	add(s, 0, TIPROF_TIP_LOST, 0, 3, 0, 0xffffffffu);
	add(s, 0, TIPROF_TIP_POP, 0, 3, 0, 0);
}

static int rules_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		      struct tb_in *in)
{
	struct rules_state *s = state;

	if (t == 0) {
		in->rst = 1;
		return 0;
	}
	if (prev && s->k > 0) {
		const struct access *a = &s->a[s->k - 1];

		if (!prev->resp.illegal != !a->illegal)
			return tb_fail(tb, "csr_rules access %u (%s 0x%03x priv %u): illegal=%d, "
				       "expected %d", s->k - 1, a->we ? "write" : "read", a->addr,
				       a->priv, prev->resp.illegal, a->illegal);
		if (a->rdata != ANY && prev->resp.rdata != a->rdata)
			return tb_fail(tb, "csr_rules access %u (%s 0x%03x priv %u): read 0x%llx, "
				       "expected 0x%llx", s->k - 1, a->we ? "write" : "read",
				       a->addr, a->priv, (unsigned long long)prev->resp.rdata,
				       (unsigned long long)a->rdata);
		tb_pass(tb);
	}
	if (s->k == s->n)
		return 1;
	tb_csr(&in->csr, s->a[s->k].we, s->a[s->k].addr, s->a[s->k].wdata, s->a[s->k].priv);
	s->k++;
	return 0;
}

static int rules_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
			uint64_t seed, uint64_t cycles)
{
	struct rules_state *s = calloc(1, sizeof(*s));

	(void)tb;
	(void)seed;
	(void)cycles;
	if (!s)
		return -1;
	rules_plan(s, cfg);
	b->state = s;
	b->step = rules_step;
	return 0;
}

static void free_state(struct tb_bench *b)
{
	free(b->state);
	b->state = NULL;
}

const struct tb_bench_desc tb_bench_csr_rules = {
	"csr_rules", "directed: illegal accesses, bad writes, W1C, self-description",
	rules_create, free_state,
};

/* ------------------------------------------------------------------ fifo_full_pop */

/* A stalled head every cycle; a sample every cycle from t=4; the FIFO fills after D samples;
 * then 5 cycles with a POP each (no loss: the pop frees the entry the new sample takes);
 * then 3 cycles without (3 lost); then sampling stops and the totals are read. */
struct full_state {
	struct tip_model_cfg cfg;
	uint64_t t_pop, t_nopop, t_dis;
	int irq_seen;      /* irq observed while full */
};

static int full_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		     struct tb_in *in)
{
	struct full_state *s = state;
	unsigned d = s->cfg.fifo_depth;
	uint64_t taken = d + 5, lost = 3;

	in->rob.head_valid = 1;
	in->rob.head_pc[0] = 0x1000;
	/* prev is the output of cycle t-1: count the pop cycles t_pop .. t_nopop-1 */
	if (prev && t > s->t_pop && t <= s->t_nopop && prev->irq)
		s->irq_seen++;
	if (t == 0) {
		in->rst = 1;
		return 0;
	}
	if (t == 1) {
		tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, 1, 3);
	} else if (t == 2) {
		tb_csr(&in->csr, 1, TIPROF_TIP_WATERMARK, d, 3);
	} else if (t == 3) {
		tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf9, 3); /* EN, IRQ_EN, all privileges */
	} else if (t >= s->t_pop && t < s->t_nopop) {
		tb_csr(&in->csr, 1, TIPROF_TIP_POP, 0, 3);
	} else if (t == s->t_dis) {
		tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf8, 3);
	} else if (t == s->t_dis + 1) {
		tb_csr(&in->csr, 0, TIPROF_TIP_TAKEN, 0, 3);
	} else if (t == s->t_dis + 2) {
		if (prev->resp.rdata != taken)
			return tb_fail(tb, "fifo_full_pop: TAKEN=%llu, expected %llu",
				       (unsigned long long)prev->resp.rdata, (unsigned long long)taken);
		tb_pass(tb);
		tb_csr(&in->csr, 0, TIPROF_TIP_LOST, 0, 3);
	} else if (t == s->t_dis + 3) {
		if (prev->resp.rdata != lost)
			return tb_fail(tb, "fifo_full_pop: LOST=%llu, expected %llu",
				       (unsigned long long)prev->resp.rdata, (unsigned long long)lost);
		tb_pass(tb);
		tb_csr(&in->csr, 0, TIPROF_TIP_S_CYCLE, 0, 3);
	} else if (t == s->t_dis + 4) {
		/* First sample in cycle 3 (t=4); five popped: the oldest left is from cycle 8. */
		if (prev->resp.rdata != 8)
			return tb_fail(tb, "fifo_full_pop: oldest sample from cycle %llu, expected 8",
				       (unsigned long long)prev->resp.rdata);
		tb_pass(tb);
		tb_csr(&in->csr, 0, TIPROF_TIP_STATUS, 0, 3);
	} else if (t == s->t_dis + 5) {
		uint64_t want = TIPROF_TIP_STATUS_FULL_MASK | TIPROF_TIP_STATUS_IRQ_MASK;

		if (prev->resp.rdata != want || !prev->irq || s->irq_seen != 5)
			return tb_fail(tb, "fifo_full_pop: STATUS=0x%llx irq=%d (seen %d times while "
				       "full), expected 0x%llx and irq in all 5 pop cycles",
				       (unsigned long long)prev->resp.rdata, prev->irq, s->irq_seen,
				       (unsigned long long)want);
		tb_pass(tb);
		return 1;
	}
	return 0;
}

static int full_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
		       uint64_t seed, uint64_t cycles)
{
	struct full_state *s = calloc(1, sizeof(*s));

	(void)tb;
	(void)seed;
	(void)cycles;
	if (!s)
		return -1;
	s->cfg = *cfg;
	s->t_pop = 4 + cfg->fifo_depth;   /* the FIFO is full at the start of this cycle */
	s->t_nopop = s->t_pop + 5;
	s->t_dis = s->t_nopop + 2;        /* samples in t_nopop .. t_dis are lost: 3 */
	b->state = s;
	b->step = full_step;
	return 0;
}

const struct tb_bench_desc tb_bench_fifo_full_pop = {
	"fifo_full_pop", "directed: FIFO full, pop and push in one cycle, lost counter, irq",
	full_create, free_state,
};

/* ------------------------------------------------------------------ reset_drained */

struct reset_state {
	uint64_t expect;  /* value the read issued last cycle must return */
	int check;        /* a read is outstanding */
	const char *what; /* what it is */
};

static int reset_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		      struct tb_in *in)
{
	struct reset_state *s = state;
	struct tiprof_rob_if *r = &in->rob;

	if (s->check) {
		if (prev->resp.rdata != s->expect || prev->resp.illegal)
			return tb_fail(tb, "reset_drained t=%llu: %s read 0x%llx, expected 0x%llx",
				       (unsigned long long)t, s->what,
				       (unsigned long long)prev->resp.rdata,
				       (unsigned long long)s->expect);
		tb_pass(tb);
		s->check = 0;
	}
#define READ(addr, value, text) \
	do { tb_csr(&in->csr, 0, addr, 0, 3); s->expect = (value); s->check = 1; s->what = text; } \
	while (0)
	r->head_bank = 1; /* after the first commit; an empty ROB otherwise */
	switch (t) {
	case 0: in->rst = 1; r->head_bank = 0; return 0;
	case 1: tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, 5, 3); r->head_bank = 0; return 0;
	case 2: tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf1, 3); r->head_bank = 0; return 0;
	case 3: case 4: r->head_bank = 0; r->head_valid = 1; r->head_pc[0] = 0x100; return 0;
	case 5: r->head_bank = 0; r->head_valid = 1; r->head_commit = 1; r->head_pc[0] = 0x100;
		return 0;
	/* t = 7: the sample fires with the ROB empty and nothing arriving: pending. */
	case 8: READ(TIPROF_TIP_STATUS, TIPROF_TIP_STATUS_PENDING_MASK, "STATUS (pending)"); return 0;
	case 9: READ(TIPROF_TIP_FIFO_COUNT, 0, "FIFO_COUNT (pending)"); return 0;
	case 10: in->rst = 1; return 0;
	case 11: READ(TIPROF_TIP_STATUS, 0, "STATUS after reset"); return 0;
	case 12: READ(TIPROF_TIP_FIFO_COUNT, 0, "FIFO_COUNT after reset"); return 0;
	case 13: READ(TIPROF_TIP_TAKEN, 0, "TAKEN after reset"); return 0;
	case 14: READ(TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET, "CTRL after reset"); return 0;
	case 15: tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, 3, 3); return 0;
	case 16: tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf1, 3); return 0;
	/* t = 19: a sample, pending again; t = 20: an instruction enters bank 1. */
	case 20: r->disp_valid = 2; r->disp_pc[1] = 0x200;
		 tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf0, 3); return 0;
	case 21: READ(TIPROF_TIP_FIFO_COUNT, 1, "FIFO_COUNT after dispatch"); return 0;
	case 22: READ(TIPROF_TIP_S_INFO, TIPROF_SF_FRONTEND | 1u << TIPROF_TIP_S_INFO_BANK_SHIFT |
		      2u << TIPROF_TIP_S_INFO_VALID_SHIFT, "S_INFO"); return 0;
	case 23: READ(TIPROF_TIP_S_ADDR + 1, 0x200, "S_ADDR1"); return 0;
	case 24: READ(TIPROF_TIP_S_CYCLE, 8, "S_CYCLE (cycle 0 is t=11)"); return 0;
	case 25: return 1;
	default: return 0;
	}
#undef READ
}

static int reset_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
			uint64_t seed, uint64_t cycles)
{
	(void)seed;
	(void)cycles;
	if (cfg->w != 2)
		return tb_fail(tb, "reset_drained is written for W=2");
	b->state = calloc(1, sizeof(struct reset_state));
	b->step = reset_step;
	return b->state ? 0 : -1;
}

const struct tb_bench_desc tb_bench_reset_drained = {
	"reset_drained", "directed: reset while a Drained sample is pending",
	reset_create, free_state,
};

/* ------------------------------------------------------------------ random_stats */

#define STAT_SAMPLES 2000u

struct stats_state {
	unsigned phase;         /* 0: RANDOM_INTERVAL, 1: RANDOM_PERIOD */
	uint64_t t_phase;       /* bench cycle the phase started (its reset) */
	uint64_t cyc[STAT_SAMPLES];
	unsigned n;
	int popping;            /* the last read found a sample: pop it now */
	int reading;            /* a S_CYCLE read is outstanding */
};

static const unsigned stat_period[2] = { 32, 40 };
static const unsigned stat_bits[2] = { 5, 4 };

static int stats_judge(struct tb *tb, struct stats_state *s)
{
	unsigned p = stat_period[s->phase], k = stat_bits[s->phase];
	/* Enabled by the write at phase cycle 2: the first interval starts in counter cycle 2. */
	uint64_t c0 = 2;
	double mean = (double)(s->cyc[s->n - 1] - s->cyc[0]) / (s->n - 1);

	if (s->phase == 0) {
		unsigned bins[64] = { 0 };
		double chi = 0, e = (double)s->n / p;

		for (unsigned i = 0; i < s->n; i++) {
			uint64_t j = (s->cyc[i] - c0) / p;

			if (j != i)
				return tb_fail(tb, "random_stats: RANDOM_INTERVAL sample %u (cycle %llu) "
					       "is in interval %llu", i, (unsigned long long)s->cyc[i],
					       (unsigned long long)j);
			bins[(s->cyc[i] - c0) % p]++;
		}
		for (unsigned b = 0; b < p; b++)
			chi += (bins[b] - e) * (bins[b] - e) / e;
		fprintf(tb->log, "random_stats: RANDOM_INTERVAL P=%u k=%u: %u samples, one per "
			"interval, mean interval %.4f (bound %.4f), phase chi-square %.1f (df %u, "
			"limit 61.1 at p=0.001)\n", p, k, s->n, mean, (double)(p - 1) / (s->n - 1),
			chi, p - 1);
		if (fabs(mean - p) > (double)(p - 1) / (s->n - 1) || chi > 61.1)
			return tb_fail(tb, "random_stats: RANDOM_INTERVAL statistics out of bounds");
	} else {
		double sd = sqrt(((double)(1u << (2 * k)) - 1) / 12.0 / (s->n - 1));

		fprintf(tb->log, "random_stats: RANDOM_PERIOD P=%u k=%u: %u samples, mean interval "
			"%.4f, expected %.1f +- %.4f (5 sigma)\n", p, k, s->n, mean, p - 0.5, 5 * sd);
		if (fabs(mean - (p - 0.5)) > 5 * sd)
			return tb_fail(tb, "random_stats: RANDOM_PERIOD mean interval out of bounds");
	}
	tb_pass(tb);
	return 0;
}

static int stats_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		      struct tb_in *in)
{
	struct stats_state *s = state;
	uint64_t rt = t - s->t_phase;
	unsigned p = stat_period[s->phase], k = stat_bits[s->phase];

	in->rob.head_valid = 1; /* a head stall every cycle: samples complete at once */
	in->rob.head_pc[0] = 0x4000;
	if (s->reading) {
		s->reading = 0;
		if (prev->resp.rdata) {
			s->cyc[s->n++] = prev->resp.rdata;
			s->popping = 1;
		}
	}
	if (rt == 0) {
		in->rst = 1;
		return 0;
	}
	if (rt == 1) {
		tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, p, 3);
		return 0;
	}
	if (rt == 2) {
		tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf1u | (s->phase ? 2u : 1u) << 1 | k << 8, 3);
		return 0;
	}
	if (s->n == STAT_SAMPLES) {
		if (stats_judge(tb, s))
			return -1;
		if (s->phase == 1)
			return 1;
		s->phase = 1;
		s->n = 0;
		s->popping = 0;
		s->t_phase = t;
		in->rst = 1;
		return 0;
	}
	if (s->popping) {
		tb_csr(&in->csr, 1, TIPROF_TIP_POP, 0, 3);
		s->popping = 0;
	} else {
		tb_csr(&in->csr, 0, TIPROF_TIP_S_CYCLE, 0, 3);
		s->reading = 1;
	}
	return 0;
}

static int stats_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
			uint64_t seed, uint64_t cycles)
{
	(void)tb;
	(void)cfg;
	(void)seed;
	(void)cycles;
	b->state = calloc(1, sizeof(struct stats_state));
	b->step = stats_step;
	return b->state ? 0 : -1;
}

const struct tb_bench_desc tb_bench_random_stats = {
	"random_stats", "directed: random-mode statistics",
	stats_create, free_state,
};
