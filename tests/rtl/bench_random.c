/* SPDX-License-Identifier: Apache-2.0 */
/* Random differential bench: a plausible out-of-order ROB (commit bursts, head stalls,
 * mispredicts and flushes that empty it, traps, front-end starvation, serializing instructions)
 * interleaved with phases of arbitrary input bits, and a driver-like CSR traffic (configure,
 * drain, random and illegal accesses, resets). It checks nothing itself: the harness compares
 * every cycle of the RTL with the C model. */
#include <stdlib.h>
#include <string.h>

#include "bench_sva.h"
#include "tb.h"

#define ROB_SIZE 32u

struct rob_entry {
	uint64_t pc;       /* instruction address */
	uint64_t ready;    /* first cycle it may commit */
	uint8_t mispred;   /* commits as a mispredicted control transfer */
	uint8_t flush;     /* commits with a pipeline flush */
	uint8_t trap;      /* traps at the head instead of committing */
};

struct rnd_state {
	struct tip_model_cfg cfg;
	uint64_t rng;           /* xorshift64* state */
	uint64_t cycles;        /* bench length */
	/* abstract ROB */
	struct rob_entry rob[ROB_SIZE];
	unsigned head;          /* index of the oldest entry in rob[] */
	unsigned occ;           /* entries held */
	unsigned head_bank;     /* bank of the oldest entry */
	uint64_t fetch_pc;      /* next address the front end delivers */
	uint64_t fe_stall_until; /* the front end delivers nothing before this cycle */
	unsigned priv;          /* privilege of the running code */
	unsigned ctx;           /* its context id */
	int flagged;            /* the last instruction to leave the ROB trapped or flushed: only then
	                           may privilege and context change (docs/tip-unit.md) */
	uint64_t chaos_until;   /* arbitrary inputs until this cycle */
	/* driver */
	unsigned drain_step;    /* position in a drain sequence, 0 = idle */
	unsigned menable;       /* what the driver believes TIP_MENABLE is */
};

static uint64_t rnd(struct rnd_state *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545F4914F6CDD1Dull;
}

/* True with probability num/den. */
static int chance(struct rnd_state *s, unsigned num, unsigned den)
{
	return rnd(s) % den < num;
}

static uint64_t next_pc(struct rnd_state *s)
{
	uint64_t pc = s->fetch_pc;

	s->fetch_pc += chance(s, 1, 4) ? 2 : 4;
	if (chance(s, 1, 16))
		s->fetch_pc = 0x10000 + (rnd(s) % 0x4000) * 2;
	if (chance(s, 1, 2000))
		s->fetch_pc = rnd(s) & ~1ull; /* anywhere, high bits included */
	return pc;
}

static void rob_squash(struct rnd_state *s, uint64_t t, unsigned delay)
{
	s->occ = 0;
	s->fe_stall_until = t + delay;
}

/* One cycle of a legal ROB. */
static void rob_cycle(struct rnd_state *s, uint64_t t, struct tiprof_rob_if *r)
{
	unsigned w = s->cfg.w, ncommit = 0, limit, k;

	r->head_bank = (uint8_t)s->head_bank;
	r->priv = (uint8_t)s->priv;
	r->ctx_id = (uint16_t)s->ctx;
	for (k = 0; k < w; k++) {
		unsigned bank = (s->head_bank + k) % w;

		r->head_pc[bank] = rnd(s); /* garbage where no entry is: must be ignored */
		if (k < s->occ) {
			const struct rob_entry *e = &s->rob[(s->head + k) % ROB_SIZE];

			r->head_valid |= (uint8_t)(1u << bank);
			r->head_pc[bank] = e->pc;
			r->head_mispred |= (uint8_t)(e->mispred << bank);
			r->head_flush |= (uint8_t)(e->flush << bank);
		} else if (chance(s, 1, 8)) {
			r->head_mispred |= (uint8_t)(1u << bank); /* flags of empty banks: ignored */
		}
	}
	/* Commit a prefix of ready entries; a flushing one ends the group and empties the ROB. */
	limit = (unsigned)(rnd(s) % (w + 1));
	if (chance(s, 3, 4))
		limit = w;
	for (k = 0; k < s->occ && k < limit; k++) {
		const struct rob_entry *e = &s->rob[(s->head + k) % ROB_SIZE];

		if (e->ready > t || e->trap)
			break;
		r->head_commit |= (uint8_t)(1u << ((s->head_bank + k) % w));
		ncommit++;
		if (e->mispred || e->flush)
			break;
	}
	if (ncommit) {
		const struct rob_entry *last = &s->rob[(s->head + ncommit - 1) % ROB_SIZE];
		int squash = last->mispred || last->flush;

		s->head = (s->head + ncommit) % ROB_SIZE;
		s->occ -= ncommit;
		s->head_bank = (s->head_bank + ncommit) % w;
		s->flagged = squash;
		if (squash)
			rob_squash(s, t, 1 + (unsigned)(rnd(s) % 12));
	} else if (s->occ && s->rob[s->head].trap && s->rob[s->head].ready <= t) {
		r->exception = 1;
		s->flagged = 1;
		rob_squash(s, t, 2 + (unsigned)(rnd(s) % 8));
		if (chance(s, 1, 4))
			s->priv = chance(s, 1, 2) ? 1 : 3; /* the handler runs privileged */
	}
	if (!s->occ && s->flagged && chance(s, 1, 50)) {
		s->priv = chance(s, 3, 4) ? 0 : (unsigned)(rnd(s) % 4);
		s->ctx = (unsigned)(rnd(s) % 4);
	}
	/* Dispatch into the tail banks unless the front end starves. */
	if (t >= s->fe_stall_until && s->occ + w <= ROB_SIZE) {
		unsigned n = (unsigned)(rnd(s) % (w + 1));

		if (chance(s, 1, 40))
			s->fe_stall_until = t + 1 + (rnd(s) % (chance(s, 1, 10) ? 200 : 20));
		for (k = 0; k < n; k++) {
			unsigned bank = (s->head_bank + s->occ) % w;
			struct rob_entry *e = &s->rob[(s->head + s->occ) % ROB_SIZE];
			int serial = chance(s, 1, 60);

			if (serial && s->occ)
				break; /* serializing: waits for an empty ROB, dispatched alone */
			memset(e, 0, sizeof(*e));
			e->pc = next_pc(s);
			e->ready = t + 1 + (chance(s, 1, 10) ? rnd(s) % 60 : rnd(s) % 4);
			e->mispred = (uint8_t)chance(s, 1, 30);
			e->flush = (uint8_t)(serial || chance(s, 1, 200));
			e->trap = (uint8_t)chance(s, 1, 300);
			r->disp_valid |= (uint8_t)(1u << bank);
			r->disp_pc[bank] = e->pc;
			r->disp_idx[bank] = (uint16_t)((s->head + s->occ) % ROB_SIZE);
			s->occ++;
			if (serial)
				break;
		}
	}
	for (k = 0; k < w; k++)
		if (!(r->disp_valid >> k & 1))
			r->disp_pc[k] = rnd(s);
}

/* Arbitrary input bits: the spec defines the unit's answer to any input. */
static void chaos_cycle(struct rnd_state *s, struct tiprof_rob_if *r)
{
	uint8_t wmask = (uint8_t)((1u << s->cfg.w) - 1);

	r->head_valid = (uint8_t)rnd(s) & wmask;
	r->head_commit = (uint8_t)rnd(s) & wmask;
	r->head_mispred = (uint8_t)(rnd(s) & rnd(s)) & wmask;
	r->head_flush = (uint8_t)(rnd(s) & rnd(s)) & wmask;
	r->head_bank = (uint8_t)(rnd(s) % s->cfg.w);
	r->exception = (uint8_t)chance(s, 1, 8);
	r->disp_valid = (uint8_t)rnd(s) & wmask;
	r->priv = (uint8_t)(rnd(s) & 3);
	r->ctx_id = (uint16_t)rnd(s);
	for (unsigned b = 0; b < s->cfg.w; b++) {
		r->head_pc[b] = rnd(s);
		r->disp_pc[b] = rnd(s);
		r->disp_idx[b] = (uint16_t)rnd(s);
	}
}

static const uint16_t known_addrs[] = {
	TIPROF_TIP_CTRL, TIPROF_TIP_PERIOD, TIPROF_TIP_WATERMARK, TIPROF_TIP_LFSR, TIPROF_TIP_POP,
	TIPROF_TIP_STATUS, TIPROF_TIP_TAKEN, TIPROF_TIP_LOST, TIPROF_TIP_TAKENH, TIPROF_TIP_LOSTH,
	TIPROF_TIP_MENABLE, TIPROF_TIP_ID, TIPROF_TIP_PARAMS, TIPROF_TIP_CYCLE, TIPROF_TIP_CYCLEH,
	TIPROF_TIP_FIFO_COUNT, TIPROF_TIP_S_CYCLE, TIPROF_TIP_S_CYCLEH, TIPROF_TIP_S_INFO,
	TIPROF_TIP_S_CTX,
};

static uint8_t access_priv(struct rnd_state *s)
{
	if (chance(s, 7, 8))
		return s->menable && chance(s, 1, 2) ? 1 : 3;
	return (uint8_t)(rnd(s) % 4);
}

/* The next value of a configuration write: mostly legal and small, sometimes anything. */
static uint64_t config_value(struct rnd_state *s, uint16_t addr)
{
	switch (addr) {
	case TIPROF_TIP_PERIOD:
		if (chance(s, 1, 20))
			return chance(s, 1, 2) ? 0 : rnd(s);
		return 1 + rnd(s) % (chance(s, 1, 4) ? 200 : 24);
	case TIPROF_TIP_CTRL:
		if (chance(s, 1, 20))
			return rnd(s) & (chance(s, 1, 2) ? 0x3fff : ~0ull);
		/* TRIGGER: committed instructions in a third of the configurations */
		return 1u | (rnd(s) % 3) << 1 | (uint64_t)chance(s, 1, 2) << 3 |
		       (chance(s, 4, 5) ? 0xf0u : (rnd(s) & 0xf0u)) | (rnd(s) % 7) << 8 |
		       (uint64_t)chance(s, 1, 3) << 13;
	case TIPROF_TIP_WATERMARK:
		return rnd(s) % (s->cfg.fifo_depth + 2);
	case TIPROF_TIP_LFSR:
		return chance(s, 1, 10) ? 0 : rnd(s) & 0xffffffffu;
	default:
		return chance(s, 1, 2) ? rnd(s) : rnd(s) % 4;
	}
}

static void csr_cycle(struct rnd_state *s, uint64_t t, const struct tb_out *prev,
		      struct tip_csr_req *c)
{
	unsigned w = s->cfg.w;

	if (s->drain_step) {
		/* Drain one sample as a driver would: cycle, info, ctx, addresses, pop. */
		unsigned k = s->drain_step - 1;
		static const uint16_t head_regs[] = { TIPROF_TIP_S_CYCLE, TIPROF_TIP_S_CYCLEH,
			TIPROF_TIP_S_INFO, TIPROF_TIP_S_CTX };

		if (k < 4)
			tb_csr(c, 0, head_regs[k], 0, 3);
		else if (k < 4 + w)
			tb_csr(c, 0, (uint16_t)(TIPROF_TIP_S_ADDR + k - 4), 0, 3);
		else
			tb_csr(c, 1, TIPROF_TIP_POP, rnd(s), 3);
		s->drain_step = k + 1 < 5 + w ? s->drain_step + 1 : 0;
		return;
	}
	if ((prev && prev->irq && chance(s, 1, 2)) || chance(s, 1, 30)) {
		s->drain_step = 1;
		tb_csr(c, 0, TIPROF_TIP_FIFO_COUNT, 0, 3);
		return;
	}
	if (chance(s, 1, 400) || t < 4) {
		/* (Re)configure. */
		static const uint16_t cfg_regs[] = { TIPROF_TIP_PERIOD, TIPROF_TIP_CTRL,
			TIPROF_TIP_WATERMARK, TIPROF_TIP_LFSR };
		uint16_t a = t < 4 ? cfg_regs[t] : cfg_regs[rnd(s) % 4];

		tb_csr(c, 1, a, config_value(s, a), chance(s, 15, 16) ? 3 : access_priv(s));
		return;
	}
	if (chance(s, 1, 1000)) {
		s->menable = (unsigned)chance(s, 1, 2);
		tb_csr(c, 1, TIPROF_TIP_MENABLE, s->menable | (rnd(s) & ~1ull), 3);
		return;
	}
	if (chance(s, 1, 12)) {
		uint16_t a;
		int we = chance(s, 1, 5);

		if (chance(s, 1, 10))
			a = (uint16_t)(rnd(s) & 0xfff);
		else if (chance(s, 1, 5))
			a = (uint16_t)(TIPROF_TIP_S_ADDR + rnd(s) % 10);
		else
			a = known_addrs[rnd(s) % (sizeof(known_addrs) / sizeof(known_addrs[0]))];
		if (we && a == TIPROF_TIP_MENABLE)
			we = 0;
		tb_csr(c, we, a, we ? config_value(s, a) : 0, access_priv(s));
	}
}

static int rnd_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		    struct tb_in *in)
{
	struct rnd_state *s = state;

	(void)tb;
	if (t >= s->cycles)
		return 1;
	/* Resets are rare, and likelier while the ROB starves (a Drained sample may be pending). */
	if (t == 0 || chance(s, 1, 150000) ||
	    (!s->occ && t < s->fe_stall_until && t >= s->chaos_until && chance(s, 1, 5000))) {
		in->rst = 1;
		s->occ = 0;
		s->drain_step = 0;
		s->menable = 0;
		return 0;
	}
	if (t >= s->chaos_until && chance(s, 1, 20000))
		s->chaos_until = t + 200 + rnd(s) % 2000;
	tb_rob_contract_off = t < s->chaos_until;
	if (t < s->chaos_until)
		chaos_cycle(s, &in->rob);
	else
		rob_cycle(s, t, &in->rob);
	csr_cycle(s, t, prev, &in->csr);
	return 0;
}

static int rnd_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
		      uint64_t seed, uint64_t cycles)
{
	struct rnd_state *s = calloc(1, sizeof(*s));

	(void)tb;
	if (!s)
		return -1;
	s->cfg = *cfg;
	s->rng = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
	if (!s->rng)
		s->rng = 1;
	s->cycles = cycles;
	s->fetch_pc = 0x10000;
	b->state = s;
	b->step = rnd_step;
	return 0;
}

static void rnd_destroy(struct tb_bench *b)
{
	free(b->state);
	b->state = NULL;
}

const struct tb_bench_desc tb_bench_random = {
	"random", "random legal and arbitrary ROB behaviour with driver-like CSR traffic",
	rnd_create, rnd_destroy,
};
