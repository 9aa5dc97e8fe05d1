/* SPDX-License-Identifier: Apache-2.0 */
/* Directed benches of the TIP unit, each with the samples the TIP paper's policy implies:
 * the four worked examples of Figure 4 on a 2-wide core (ILP, load stall, mispredict flush,
 * I-cache drain), the exception path and a serializing instruction. Every example is run once
 * per cycle with a single sample in that cycle, and once with a sample in every cycle
 * (back-to-back, overflowing small FIFOs so the lost counter is checked too). The unit is
 * programmed and drained through its CSR port only, as a driver would; reads of the cycle
 * counter during the example check CSR reads while sampling.
 * Further benches: FIFO full with a pop in the same cycle, reset during a pending Drained
 * sample, and random-mode statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb.h"

/* ------------------------------------------------------------------ example scripts */

/* One ROB head entry of an example cycle. */
struct ex_head {
	unsigned bank;    /* ROB bank */
	uint64_t pc;      /* address; 0 = no entry */
	int commit;       /* commits this cycle */
	int mispred;      /* mispredicted control transfer */
	int flush;        /* flushes on commit */
};

/* One cycle of an example: up to two head entries, a dispatch, a trap, the privilege. */
struct ex_cycle {
	unsigned head_bank;
	struct ex_head h[2];
	int exception;
	unsigned disp_bank;  /* bank of a dispatched instruction */
	uint64_t disp_pc;    /* its address; 0 = none */
	unsigned priv;
	/* the sample a trigger in this cycle implies */
	uint8_t x_flags, x_bank, x_valid, x_priv;
	uint64_t x_addr[2];
};

#define U 0u
#define M 3u
#define SF_ST TIPROF_SF_STALLED
#define SF_FE TIPROF_SF_FRONTEND
#define SF_MP TIPROF_SF_MISPRED
#define SF_FL TIPROF_SF_FLUSH
#define SF_EX TIPROF_SF_EXCEPTION
#define H(b, pc, c) { b, pc, c, 0, 0 }
#define NOH { 0, 0, 0, 0, 0 }

/* Figure 4(a): two instructions commit together, each is half the cycle (both slots valid). */
static const struct ex_cycle ex_ilp[] = {
	{ 0, { H(0, 0x1000, 1), H(1, 0x1004, 1) }, 0, 0, 0, U, 0, 0, 0x3, U, { 0x1000, 0x1004 } },
	{ 0, { H(0, 0x1008, 1), H(1, 0x100c, 0) }, 0, 0, 0, U, 0, 0, 0x1, U, { 0x1008, 0 } },
	{ 1, { H(1, 0x100c, 1), H(0, 0x1010, 1) }, 0, 0, 0, U, 0, 1, 0x3, U, { 0x1010, 0x100c } },
};

/* Figure 4(b): a load waits 40 cycles at the head; the cycles go to the load (oldest bank 0).
 * Then both commit, and the ROB, empty, receives the next instruction in the same cycle. */
#define STALL(n) { 0, { H(0, 0x2000, 0), H(1, 0x2004, 0) }, 0, 0, 0, U, SF_ST, 0, 0x3, U, \
	{ 0x2000, 0x2004 } }
#define STALL4(n) STALL(n), STALL(n), STALL(n), STALL(n)
static const struct ex_cycle ex_stall[] = {
	STALL4(0), STALL4(0), STALL4(0), STALL4(0), STALL4(0),
	STALL4(0), STALL4(0), STALL4(0), STALL4(0), STALL4(0),
	{ 0, { H(0, 0x2000, 1), H(1, 0x2004, 1) }, 0, 0, 0, U, 0, 0, 0x3, U, { 0x2000, 0x2004 } },
	{ 0, { NOH, NOH }, 0, 0, 0x2008, U, SF_FE, 0, 0x1, U, { 0x2008, 0 } },
	{ 0, { H(0, 0x2008, 1), NOH }, 0, 0, 0, U, 0, 0, 0x1, U, { 0x2008, 0 } },
};

/* Figure 4(c): a mispredicted branch commits, the ROB stays empty for 4 cycles: they go to
 * the branch (slot 0, MISPRED); the correct path arrives in bank 1 and commits. */
static const struct ex_cycle ex_flush[] = {
	{ 0, { { 0, 0x3000, 1, 1, 0 }, H(1, 0x3004, 0) }, 0, 0, 0, U, 0, 0, 0x1, U, { 0x3000, 0 } },
	{ 1, { NOH, NOH }, 0, 0, 0, U, SF_MP, 0, 0x1, U, { 0x3000, 0 } },
	{ 1, { NOH, NOH }, 0, 0, 0, U, SF_MP, 0, 0x1, U, { 0x3000, 0 } },
	{ 1, { NOH, NOH }, 0, 0, 0, U, SF_MP, 0, 0x1, U, { 0x3000, 0 } },
	{ 1, { NOH, NOH }, 0, 1, 0x3100, U, SF_MP, 0, 0x1, U, { 0x3000, 0 } },
	{ 1, { H(1, 0x3100, 1), NOH }, 0, 0, 0, U, 0, 1, 0x2, U, { 0, 0x3100 } },
};

/* Figure 4(d): an I-cache miss drains the ROB; the empty cycles go to the instruction that
 * arrives next (FRONTEND, its bank's slot), which is known only when it dispatches. */
static const struct ex_cycle ex_drain[] = {
	{ 0, { H(0, 0x4000, 1), NOH }, 0, 0, 0, U, 0, 0, 0x1, U, { 0x4000, 0 } },
	{ 1, { NOH, NOH }, 0, 0, 0, U, SF_FE, 1, 0x2, U, { 0, 0x4040 } },
	{ 1, { NOH, NOH }, 0, 0, 0, U, SF_FE, 1, 0x2, U, { 0, 0x4040 } },
	{ 1, { NOH, NOH }, 0, 0, 0, U, SF_FE, 1, 0x2, U, { 0, 0x4040 } },
	{ 1, { NOH, NOH }, 0, 0, 0, U, SF_FE, 1, 0x2, U, { 0, 0x4040 } },
	{ 1, { NOH, NOH }, 0, 1, 0x4040, U, SF_FE, 1, 0x2, U, { 0, 0x4040 } },
	{ 1, { H(1, 0x4040, 1), NOH }, 0, 0, 0, U, 0, 1, 0x2, U, { 0, 0x4040 } },
};

/* Exception: the oldest entry traps (its cycle is a head stall); the ROB is flushed and the
 * empty cycles go to the trapping instruction with its user privilege (from the OIR); the
 * handler's first instruction runs in M mode. */
static const struct ex_cycle ex_exception[] = {
	{ 0, { H(0, 0x5000, 1), H(1, 0x5004, 0) }, 0, 0, 0, U, 0, 0, 0x1, U, { 0x5000, 0 } },
	{ 1, { H(1, 0x5004, 0), H(0, 0x5008, 0) }, 1, 0, 0, U, SF_ST, 1, 0x3, U, { 0x5008, 0x5004 } },
	{ 1, { NOH, NOH }, 0, 0, 0, M, SF_EX, 0, 0x1, U, { 0x5004, 0 } },
	{ 1, { NOH, NOH }, 0, 0, 0, M, SF_EX, 0, 0x1, U, { 0x5004, 0 } },
	{ 1, { NOH, NOH }, 0, 1, 0x80000000, M, SF_EX, 0, 0x1, U, { 0x5004, 0 } },
	{ 1, { H(1, 0x80000000, 1), NOH }, 0, 0, 0, M, 0, 1, 0x2, M, { 0, 0x80000000 } },
};

/* A serializing CSR instruction: dispatched alone into an empty ROB, executes at the head,
 * flushes on commit; the refetch cycles go to it (FLUSH). */
static const struct ex_cycle ex_serial[] = {
	{ 0, { H(0, 0x6000, 1), NOH }, 0, 0, 0, U, 0, 0, 0x1, U, { 0x6000, 0 } },
	{ 1, { NOH, NOH }, 0, 1, 0x6004, U, SF_FE, 1, 0x2, U, { 0, 0x6004 } },
	{ 1, { H(1, 0x6004, 0), NOH }, 0, 0, 0, U, SF_ST, 1, 0x2, U, { 0, 0x6004 } },
	{ 1, { H(1, 0x6004, 0), NOH }, 0, 0, 0, U, SF_ST, 1, 0x2, U, { 0, 0x6004 } },
	{ 1, { { 1, 0x6004, 1, 0, 1 }, NOH }, 0, 0, 0, U, 0, 1, 0x2, U, { 0, 0x6004 } },
	{ 0, { NOH, NOH }, 0, 0, 0, U, SF_FL, 0, 0x1, U, { 0x6004, 0 } },
	{ 0, { NOH, NOH }, 0, 0, 0, U, SF_FL, 0, 0x1, U, { 0x6004, 0 } },
	{ 0, { NOH, NOH }, 0, 0, 0x6008, U, SF_FL, 0, 0x1, U, { 0x6004, 0 } },
	{ 0, { H(0, 0x6008, 1), NOH }, 0, 0, 0, U, 0, 0, 0x1, U, { 0x6008, 0 } },
};

struct example {
	const char *name;
	const struct ex_cycle *c;
	unsigned len;
};

static const struct example examples[] = {
	{ "fig4a_ilp", ex_ilp, sizeof(ex_ilp) / sizeof(ex_ilp[0]) },
	{ "fig4b_stall", ex_stall, sizeof(ex_stall) / sizeof(ex_stall[0]) },
	{ "fig4c_flush", ex_flush, sizeof(ex_flush) / sizeof(ex_flush[0]) },
	{ "fig4d_drain", ex_drain, sizeof(ex_drain) / sizeof(ex_drain[0]) },
	{ "exception", ex_exception, sizeof(ex_exception) / sizeof(ex_exception[0]) },
	{ "serializing", ex_serial, sizeof(ex_serial) / sizeof(ex_serial[0]) },
};

/* ------------------------------------------------------------------ example runner */

enum ex_phase { PH_RESET, PH_PERIOD, PH_IDLE, PH_EXAMPLE, PH_COUNT, PH_DRAIN, PH_TOTALS, PH_NEXT };

struct ex_state {
	const struct example *ex;
	int demo;                /* run every example back-to-back and print the samples */
	struct tip_model_cfg cfg;
	unsigned sub;            /* sub-run: 0..len-1 one sample in cycle sub; len: every cycle */
	enum ex_phase ph;
	uint64_t t0;             /* bench cycle of example cycle 0 */
	uint64_t t_sub;          /* bench cycle at which this sub-run started */
	uint64_t t_en;           /* bench cycle of the CTRL write that enables sampling */
	unsigned period;         /* PERIOD of this sub-run */
	unsigned expected;       /* samples the sub-run takes */
	unsigned count;          /* FIFO_COUNT read back */
	unsigned k;              /* position in the drain sequence */
	unsigned drained;        /* samples checked */
	struct tiprof_sample got;
	uint16_t last_addr;      /* register read in the previous cycle, 0 = none */
	uint64_t last_cycle_expect; /* value a TIP_CYCLE read must return */
};

/* The bench cycle (relative to the sub-run) of example cycle 0: room for the enable write
 * PERIOD cycles before the first sample. */
static uint64_t ex_t0(const struct ex_state *s)
{
	return s->ex->len + 4;
}

static void ex_plan(struct ex_state *s)
{
	unsigned len = s->ex->len;

	if (s->sub < len) { /* one sample, in example cycle sub */
		s->period = len + 1;
		s->t_en = ex_t0(s) + s->sub - s->period;
		s->expected = 1;
	} else {            /* a sample in every cycle */
		s->period = 1;
		s->t_en = ex_t0(s) - 1;
		s->expected = len;
	}
}

static void ex_drive(const struct ex_state *s, unsigned e, struct tiprof_rob_if *r)
{
	const struct ex_cycle *c = &s->ex->c[e];

	r->head_bank = (uint8_t)c->head_bank;
	r->priv = (uint8_t)c->priv;
	r->exception = (uint8_t)c->exception;
	for (unsigned i = 0; i < 2; i++) {
		const struct ex_head *hd = &c->h[i];

		if (!hd->pc)
			continue;
		r->head_valid |= (uint8_t)(1u << hd->bank);
		r->head_commit |= (uint8_t)(hd->commit << hd->bank);
		r->head_mispred |= (uint8_t)(hd->mispred << hd->bank);
		r->head_flush |= (uint8_t)(hd->flush << hd->bank);
		r->head_pc[hd->bank] = hd->pc;
	}
	if (c->disp_pc) {
		r->disp_valid = (uint8_t)(1u << c->disp_bank);
		r->disp_pc[c->disp_bank] = c->disp_pc;
	}
}

/* Check the sample just read back against the example's expectation for its cycle. */
static int ex_check(struct tb *tb, struct ex_state *s)
{
	const struct tiprof_sample *g = &s->got;
	uint64_t base = ex_t0(s) - 1; /* cycle counter in example cycle 0 (reset per sub-run) */
	const struct ex_cycle *c;
	uint64_t e;

	if (g->cycle < base || g->cycle >= base + s->ex->len)
		return tb_fail(tb, "%s sub-run %u: sample at cycle %llu outside the example",
			       s->ex->name, s->sub, (unsigned long long)g->cycle);
	e = g->cycle - base;
	c = &s->ex->c[e];
	if (s->demo)
		fprintf(tb->log, "  %-12s cycle %2llu  %-9s bank %u  valid 0x%x  slot0 0x%-8llx slot1 0x%llx\n",
			s->ex->name, (unsigned long long)e,
			g->flags & SF_ST ? "Stalled" : g->flags & SF_FE ? "Drained" :
			g->flags & SF_MP ? "Flushed/M" : g->flags & SF_FL ? "Flushed/F" :
			g->flags & SF_EX ? "Flushed/E" : "Computing", g->bank, g->valid,
			(unsigned long long)g->addr[0], (unsigned long long)g->addr[1]);
	if (g->flags != c->x_flags || g->bank != c->x_bank || g->valid != c->x_valid ||
	    g->priv != c->x_priv || g->addr[0] != c->x_addr[0] || g->addr[1] != c->x_addr[1])
		return tb_fail(tb, "%s example cycle %llu: expected flags=0x%x bank=%u valid=0x%x "
			       "priv=%u addr={0x%llx,0x%llx}, got flags=0x%x bank=%u valid=0x%x "
			       "priv=%u addr={0x%llx,0x%llx}", s->ex->name, (unsigned long long)e,
			       c->x_flags, c->x_bank, c->x_valid, c->x_priv,
			       (unsigned long long)c->x_addr[0], (unsigned long long)c->x_addr[1],
			       g->flags, g->bank, g->valid, g->priv,
			       (unsigned long long)g->addr[0], (unsigned long long)g->addr[1]);
	tb_pass(tb);
	return 0;
}

/* Consume the read answered in the previous cycle. */
static int ex_take_read(struct tb *tb, struct ex_state *s, const struct tb_out *prev)
{
	uint64_t v;

	if (!s->last_addr || !prev)
		return 0;
	if (prev->resp.illegal)
		return tb_fail(tb, "%s: read of 0x%03x was illegal", s->ex->name, s->last_addr);
	v = prev->resp.rdata;
	switch (s->last_addr) {
	case TIPROF_TIP_CYCLE:
		if (v != s->last_cycle_expect)
			return tb_fail(tb, "%s: TIP_CYCLE read %llu, expected %llu", s->ex->name,
				       (unsigned long long)v,
				       (unsigned long long)s->last_cycle_expect);
		tb_pass(tb);
		break;
	case TIPROF_TIP_FIFO_COUNT:
		s->count = (unsigned)v;
		break;
	case TIPROF_TIP_S_CYCLE:
		s->got.cycle = v;
		break;
	case TIPROF_TIP_S_INFO:
		tiprof_sample_set_info(&s->got, (uint32_t)v);
		break;
	case TIPROF_TIP_S_ADDR:
	case TIPROF_TIP_S_ADDR + 1:
		s->got.addr[s->last_addr - TIPROF_TIP_S_ADDR] = v;
		break;
	case TIPROF_TIP_TAKEN: {
		unsigned want = s->expected < s->cfg.fifo_depth ? s->expected : s->cfg.fifo_depth;

		if (v != want)
			return tb_fail(tb, "%s sub-run %u: TAKEN=%llu, expected %u", s->ex->name,
				       s->sub, (unsigned long long)v, want);
		tb_pass(tb);
		break;
	}
	case TIPROF_TIP_LOST: {
		unsigned want = s->expected > s->cfg.fifo_depth ? s->expected - s->cfg.fifo_depth : 0;

		if (v != want)
			return tb_fail(tb, "%s sub-run %u: LOST=%llu, expected %u", s->ex->name,
				       s->sub, (unsigned long long)v, want);
		tb_pass(tb);
		break;
	}
	default:
		break;
	}
	return 0;
}

static void ex_read(struct ex_state *s, struct tb_in *in, uint16_t addr)
{
	tb_csr(&in->csr, 0, addr, 0, 3);
	s->last_addr = addr;
}

static int ex_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		   struct tb_in *in)
{
	struct ex_state *s = state;
	uint64_t rt = t - s->t_sub;  /* cycle within the sub-run */
	unsigned w = s->cfg.w;

	if (ex_take_read(tb, s, prev))
		return -1;
	s->last_addr = 0;
	switch (s->ph) {
	case PH_RESET:
		in->rst = 1;
		ex_plan(s);
		s->ph = PH_PERIOD;
		return 0;
	case PH_PERIOD:
		tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, s->period, 3);
		s->ph = PH_IDLE;
		return 0;
	case PH_IDLE:
		if (rt == s->t_en)
			tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf1, 3);
		if (rt + 1 == ex_t0(s))
			s->ph = PH_EXAMPLE;
		return 0;
	case PH_EXAMPLE: {
		unsigned e = (unsigned)(rt - ex_t0(s));

		ex_drive(s, e, &in->rob);
		if (rt == s->t_en) {
			tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf1, 3);
		} else if (e + 1 == s->ex->len) {
			tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf0, 3); /* stop after this cycle */
		} else {
			ex_read(s, in, TIPROF_TIP_CYCLE);
			s->last_cycle_expect = rt - 1;
		}
		if (e + 1 == s->ex->len)
			s->ph = PH_COUNT;
		return 0;
	}
	case PH_COUNT:
		ex_read(s, in, TIPROF_TIP_FIFO_COUNT);
		s->ph = PH_DRAIN;
		s->k = 0;
		return 0;
	case PH_DRAIN: {
		unsigned want = s->expected < s->cfg.fifo_depth ? s->expected : s->cfg.fifo_depth;

		if (s->k == 0 && s->drained == 0 && s->count != want)
			return tb_fail(tb, "%s sub-run %u: FIFO_COUNT=%u after the example, expected %u",
				       s->ex->name, s->sub, s->count, want);
		if (s->drained == want) {
			s->ph = PH_TOTALS;
			s->k = 0;
			return ex_step(tb, state, t, NULL, in);
		}
		if (s->k == 0) {
			memset(&s->got, 0, sizeof(s->got));
			ex_read(s, in, TIPROF_TIP_S_CYCLE);
		} else if (s->k == 1) {
			ex_read(s, in, TIPROF_TIP_S_INFO);
		} else if (s->k < 2 + w) {
			ex_read(s, in, (uint16_t)(TIPROF_TIP_S_ADDR + s->k - 2));
		} else {
			if (ex_check(tb, s))
				return -1;
			tb_csr(&in->csr, 1, TIPROF_TIP_POP, 0, 3);
			s->drained++;
			s->k = 0;
			return 0;
		}
		s->k++;
		return 0;
	}
	case PH_TOTALS:
		if (s->k == 0) {
			ex_read(s, in, TIPROF_TIP_TAKEN);
		} else if (s->k == 1) {
			ex_read(s, in, TIPROF_TIP_LOST);
		} else {
			s->ph = PH_NEXT;
			return ex_step(tb, state, t, NULL, in);
		}
		s->k++;
		return 0;
	case PH_NEXT:
		if (s->demo && s->ex + 1 < examples + sizeof(examples) / sizeof(examples[0])) {
			s->ex++;
			s->sub = s->ex->len;
			s->drained = 0;
			s->t_sub = t;
			s->ph = PH_RESET;
			fprintf(tb->log, "-- %s\n", s->ex->name);
			return ex_step(tb, state, t, NULL, in);
		}
		if (s->sub == s->ex->len)
			return 1;
		s->sub++;
		s->drained = 0;
		s->t_sub = t;
		s->ph = PH_RESET;
		return ex_step(tb, state, t, NULL, in);
	}
	return tb_fail(tb, "bad phase");
}

static int ex_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
		     const char *name)
{
	struct ex_state *s;

	if (cfg->w != 2 || cfg->xlen != 64)
		return tb_fail(tb, "example %s is written for W=2 XLEN=64", name);
	s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	for (unsigned i = 0; i < sizeof(examples) / sizeof(examples[0]); i++)
		if (!strcmp(examples[i].name, name))
			s->ex = &examples[i];
	s->cfg = *cfg;
	b->state = s;
	b->step = ex_step;
	return 0;
}

static void free_state(struct tb_bench *b)
{
	free(b->state);
	b->state = NULL;
}

#define EXAMPLE_BENCH(id, text) \
	static int create_##id(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg, \
			       uint64_t seed, uint64_t cycles) \
	{ \
		(void)seed; \
		(void)cycles; \
		return ex_create(tb, b, cfg, #id); \
	} \
	const struct tb_bench_desc tb_bench_##id = { #id, text, create_##id, free_state };

/* The registry lists these; run.sh finds directed benches by the "directed:" prefix. */
EXAMPLE_BENCH(fig4a_ilp,
	"directed: Fig. 4a, two instructions commit together")
EXAMPLE_BENCH(fig4b_stall,
	"directed: Fig. 4b, a 40-cycle load stall at the head")
EXAMPLE_BENCH(fig4c_flush,
	"directed: Fig. 4c, mispredict flush with the ROB empty for 4 cycles")
EXAMPLE_BENCH(fig4d_drain,
	"directed: Fig. 4d, I-cache drain completed by the next dispatch")
EXAMPLE_BENCH(exception,
	"directed: exception path, Flushed with the trapping instruction's privilege")
EXAMPLE_BENCH(serializing,
	"directed: serializing CSR instruction dispatched alone, flush on commit")

static int create_demo(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
		       uint64_t seed, uint64_t cycles)
{
	struct ex_state *s;

	(void)seed;
	(void)cycles;
	if (ex_create(tb, b, cfg, examples[0].name))
		return -1;
	s = b->state;
	s->demo = 1;
	s->sub = s->ex->len; /* a sample in every cycle */
	fprintf(tb->log, "-- %s\n", s->ex->name);
	return 0;
}

const struct tb_bench_desc tb_bench_demo = {
	"demo", "every worked example with a sample in every cycle, samples printed",
	create_demo, free_state,
};
