/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_harness.c - the ProfileMe RTL testbench in C (docs/profileme.md "RTL", docs/verification.md).
 *
 * Every cycle: generate the fetch packet, the events of the tagged instructions and a CSR access;
 * run the C reference model for the cycle; hand the same inputs to the RTL; one edge later compare
 * the RTL's pm_tag_o, csr_rdata_o, csr_illegal_o and irq_o with the model's. The unit top's part
 * of the CSR answer (TIP_MENABLE, addresses no subsystem owns) is computed here; TIP's registers
 * are not accessed (TIP's own benches cover them).
 *
 * Benches:
 *   random     a core that keeps the interface contract, learning the tags from the unit's
 *              output and reporting each tagged instruction's stages in order (some repeated,
 *              some lost so the timeout ends them), garbage on every qualifier; phases of stray
 *              events (contract assertions off); random CSR traffic: reads of every PM address and
 *              record word, driver-like drains, pops, legal and illegal configuration writes at any
 *              time, TIP_MENABLE and privilege changes; resets.
 *   directed   the spec's examples, each checked against values worked out by hand from
 *              docs/profileme.md (besides RTL = model every cycle): one load through every stage,
 *              a pair whose second is on the wrong path, FIFO full + LOST, the event and latency
 *              filters, the timeout of a lost tag and of a never-tagged second.
 *   core       a RISC-V program on the out-of-order core model drives the unit live, contract
 *              assertions on throughout (pm_core.c; not in builds with PM_TB_NO_CORE).
 *
 * With the unit's input stage (stage = 1) the model is given the events one cycle late (the unit
 * registers its event ports; the fetch ports and pm_tag_o are not staged).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_harness.h"

enum { ST_MAP, ST_READY, ST_ISSUE, ST_MEM, ST_COMPLETE, ST_END };

/* A tagged instruction as the core sees it. */
struct inst {
	int alive;          /* carries the tag, has not ended */
	uint64_t tagged_at; /* cycle it was tagged */
	int next;           /* next stage to report (ST_*) */
	int is_mem;         /* a load/store (reports mem) */
	int lost;           /* the core lost the tag: reports nothing more (the timeout ends it) */
};

struct dir_step; /* directed scripts */

struct pm_harness {
	struct pm_model_cfg cfg;
	int stage;
	char bench[32];
	const char *sim;
	uint64_t seed, cycles, t, rng;
	struct pm_model m;
	FILE *log;

	int have_exp;
	struct pm_obs exp;
	struct pm_csr_req exp_csr;
	struct tiprof_pm_if prev_ev;   /* staged: the events the RTL registered last cycle */
	int prev_stray;
	struct inst in[2];
	int menable;

	/* random phases */
	uint64_t stray_until, phase_end;
	uint8_t stray_ids;             /* tag ids the stray phase hits (bit mask) */
	unsigned pop_pct, csr_pct, valid_mode;
	uint64_t pc;
	uint8_t priv;
	uint16_t ctx;
	int drain;                     /* driver drain: next record word to read, -1 none */

	/* core */
	struct pm_core_bench *core;

	/* directed */
	int dir_scene;
	uint64_t dir_t0;
	int dir_step;

	/* statistics */
	unsigned long checks, sel, taken, coll, completed, pushed, lost, filtered, pairs, pairs_tagged,
		      timeouts, empties, stray_cycles, resets, csr_reads, rec_reads, pops;
	int failed;
	char msg[768];
};

/* ---------------------------------------------------------------- helpers */

static uint64_t rnd(struct pm_harness *h)
{
	/* xorshift64* */
	h->rng ^= h->rng >> 12;
	h->rng ^= h->rng << 25;
	h->rng ^= h->rng >> 27;
	return h->rng * 0x2545F4914F6CDD1DULL;
}

static unsigned pct(struct pm_harness *h, unsigned p)
{
	return (unsigned)(rnd(h) % 100u) < p;
}

static void fail(struct pm_harness *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct pm_harness *h, const char *fmt, ...)
{
	va_list ap;

	if (h->failed)
		return;
	h->failed = 1;
	va_start(ap, fmt);
	vsnprintf(h->msg, sizeof(h->msg), fmt, ap);
	va_end(ap);
}

void pm_harness_fail(struct pm_harness *h, const char *why)
{
	fail(h, "%s", why);
}

static uint64_t xmask(const struct pm_harness *h)
{
	return h->cfg.xlen == 64 ? ~0ull : 0xFFFFFFFFull;
}

static void ev_clear(struct tiprof_pm_if *x)
{
	x->map = x->ready = x->issue = x->mem = x->complete = x->retire = x->abort = 0;
	x->load = x->store = x->br_valid = x->br_taken = x->br_mispred = x->ea_valid = 0;
	x->dc_miss = x->dtlb_miss = 0;
	memset(x->abort_reason, 0, sizeof(x->abort_reason));
	memset(x->ea, 0, sizeof(x->ea));
}

static void ev_copy(struct tiprof_pm_if *d, const struct tiprof_pm_if *s)
{
	d->map = s->map; d->ready = s->ready; d->issue = s->issue; d->mem = s->mem;
	d->complete = s->complete; d->retire = s->retire; d->abort = s->abort;
	d->load = s->load; d->store = s->store; d->br_valid = s->br_valid;
	d->br_taken = s->br_taken; d->br_mispred = s->br_mispred; d->ea_valid = s->ea_valid;
	d->dc_miss = s->dc_miss; d->dtlb_miss = s->dtlb_miss;
	memcpy(d->abort_reason, s->abort_reason, sizeof(d->abort_reason));
	memcpy(d->ea, s->ea, sizeof(d->ea));
}

/* The unit top's CSR answer for an access the ProfileMe subsystem does not own. */
static void top_csr(struct pm_harness *h, const struct pm_csr_req *c, const struct pm_model_out *o,
		    struct pm_obs *e)
{
	e->rdata = 0;
	e->illegal = 0;
	if (!c->req)
		return;
	if (o->csr.hit) {
		e->rdata = o->csr.rdata;
		e->illegal = o->csr.illegal;
		return;
	}
	if (c->addr == TIPROF_TIP_MENABLE && c->priv == 3) {
		if (c->we)
			h->menable = (int)(c->wdata & 1u);
		else
			e->rdata = (uint64_t)h->menable;
		return;
	}
	e->illegal = 1;
}

/* ---------------------------------------------------------------- random stimulus */

static void gen_fetch(struct pm_harness *h, struct tiprof_pm_if *x)
{
	unsigned f = h->cfg.f, all = (1u << f) - 1u;
	uint64_t r = rnd(h);

	switch (h->valid_mode) {
	case 0: x->fetch_valid = (uint8_t)((r % 10u) < 6u ? all : (rnd(h) & all)); break;
	case 1: x->fetch_valid = (uint8_t)(rnd(h) & all); break;   /* ragged packets */
	default: x->fetch_valid = (uint8_t)((r % 10u) < 2u ? 0 : all); break;
	}
	x->fetch_br = (uint8_t)(rnd(h) & rnd(h) & all);
	for (unsigned s = 0; s < 8; s++)
		x->fetch_pc[s] = (s < f && ((x->fetch_valid >> s) & 1u)) ? h->pc + 4u * s : rnd(h);
	if (x->fetch_valid)
		h->pc = pct(h, 10) ? (rnd(h) & 0xFFFFFFFFFFull) * 4u : h->pc + 4u * f;
	x->fetch_hist = (uint16_t)rnd(h);
	x->fetch_icmiss = pct(h, 5);
	x->fetch_itlbmiss = pct(h, 3);
	if (pct(h, 1) && pct(h, 20))
		h->priv = (uint8_t)(rnd(h) & 3u);
	if (pct(h, 1) && pct(h, 10))
		h->ctx = (uint16_t)rnd(h);
	x->fetch_priv = h->priv;
	x->fetch_ctx = h->ctx;
}

/* This cycle's events of the tagged instructions; m is the unit's state when they arrive. */
static void gen_events(struct pm_harness *h, struct tiprof_pm_if *ev)
{
	const struct pm_model *m = &h->m;

	for (unsigned id = 0; id < h->cfg.tags; id++) {
		struct inst *I = &h->in[id];
		uint8_t b = (uint8_t)(1u << id);
		int open = m->open && m->p[id].state == PM_P_OPEN && (id == 0 || m->is_pair);

		if (!I->alive)
			continue;
		if (!open) {        /* ended by the timeout (or stray events): the unit forgot it */
			I->alive = 0;
			continue;
		}
		if (I->tagged_at >= h->t || I->lost)
			continue;
		if (pct(h, 1) && pct(h, 5)) {   /* the core loses the tag: only the timeout ends it */
			I->lost = 1;
			continue;
		}
		if (I->is_mem) {
			if (pct(h, 20)) ev->load |= b;
			if (pct(h, 10)) ev->store |= b;
			if (pct(h, 8)) ev->dc_miss |= b;
			if (pct(h, 4)) ev->dtlb_miss |= b;
			if (pct(h, 15)) {
				ev->ea_valid |= b;
				ev->ea[id] = rnd(h);
			}
		}
		if (pct(h, 6)) {
			ev->br_valid |= b;
			if (pct(h, 50)) ev->br_taken |= b;
			if (pct(h, 20)) ev->br_mispred |= b;
		}
		if (pct(h, 5) && I->next > ST_MAP)      /* a repeated stage: the first one counts */
			switch (rnd(h) % 3u) {
			case 0: ev->map |= b; break;
			case 1: ev->ready |= b; break;
			default: ev->issue |= b; break;
			}
		if (pct(h, 2)) {                       /* squashed, trapped, replayed, flushed */
			ev->abort |= b;
			ev->abort_reason[id] = (uint8_t)(rnd(h) & 3u);
			I->alive = 0;
			continue;
		}
		if (!pct(h, 45))
			continue;
		do {
			switch (I->next) {
			case ST_MAP: ev->map |= b; break;
			case ST_READY: ev->ready |= b; break;
			case ST_ISSUE: ev->issue |= b; break;
			case ST_MEM: ev->mem |= b; break;
			case ST_COMPLETE: ev->complete |= b; break;
			default:
				if (pct(h, 85)) {
					ev->retire |= b;
				} else {
					ev->abort |= b;
					ev->abort_reason[id] = (uint8_t)(rnd(h) & 3u);
				}
				I->alive = 0;
				break;
			}
			I->next++;
			if (I->next == ST_MEM && !I->is_mem)
				I->next++;
		} while (I->alive && pct(h, 25));
	}
	/* qualifiers without their events are ignored (and never STRAY) */
	if (pct(h, 50)) {
		ev->br_taken |= (uint8_t)(rnd(h) & 3u & ~ev->br_valid);
		ev->br_mispred |= (uint8_t)(rnd(h) & 3u & ~ev->br_valid);
		for (unsigned id = 0; id < 2; id++) {
			if (!((ev->abort >> id) & 1u))
				ev->abort_reason[id] = (uint8_t)(rnd(h) & 3u);
			if (!((ev->ea_valid >> id) & 1u))
				ev->ea[id] = rnd(h);
		}
	}
	if (h->cfg.tags < 2) {   /* a one-tag core ties bit 1 to 0 */
		uint8_t k = 1u;
		ev->map &= k; ev->ready &= k; ev->issue &= k; ev->mem &= k; ev->complete &= k;
		ev->retire &= k; ev->abort &= k; ev->load &= k; ev->store &= k; ev->br_valid &= k;
		ev->ea_valid &= k; ev->dc_miss &= k; ev->dtlb_miss &= k;
	}
}

/* Stray events: arbitrary bits on the event ports (the contract is broken on purpose). */
static int gen_stray(struct pm_harness *h, struct tiprof_pm_if *ev)
{
	uint8_t *sig[] = { &ev->map, &ev->ready, &ev->issue, &ev->mem, &ev->complete, &ev->retire,
			   &ev->abort, &ev->load, &ev->store, &ev->br_valid, &ev->ea_valid,
			   &ev->dc_miss, &ev->dtlb_miss };

	if (h->t >= h->stray_until || !pct(h, 30))
		return 0;
	for (unsigned k = 1 + (unsigned)(rnd(h) % 3u); k; k--)
		*sig[rnd(h) % 13u] |= (uint8_t)(h->stray_ids & (1u + rnd(h) % 3u));
	h->stray_cycles++;
	return 1;
}

static uint64_t gen_ctrl(struct pm_harness *h)
{
	uint64_t v = 0;

	if (pct(h, 90)) v |= TIPROF_PM_CTRL_EN_MASK;
	v |= (uint64_t)(pct(h, 2) ? 3u : (unsigned)(rnd(h) % 3u)) << TIPROF_PM_CTRL_MODE_SHIFT;
	if (pct(h, 50)) v |= TIPROF_PM_CTRL_IRQ_EN_MASK;
	v |= (uint64_t)(pct(h, 70) ? 0xFu : (unsigned)(rnd(h) & 0xFu)) << TIPROF_PM_CTRL_PRIV_SHIFT;
	v |= (uint64_t)(rnd(h) % 14u) << TIPROF_PM_CTRL_RAND_BITS_SHIFT;
	if (pct(h, 30)) v |= TIPROF_PM_CTRL_UNIT_MASK;
	if (h->cfg.tags > 1 ? pct(h, 60) : pct(h, 5)) v |= TIPROF_PM_CTRL_PAIR_MASK;
	if (pct(h, 2)) v |= 1ull << (15 + rnd(h) % 17u);
	return v;
}

static void gen_write(struct pm_harness *h, struct pm_csr_req *c)
{
	unsigned f = h->cfg.f, d = h->cfg.fifo_depth;
	uint64_t v;

	c->req = 1;
	c->we = 1;
	switch (pct(h, 15) ? 9u : (unsigned)(rnd(h) % 12u)) {   /* 9: PM_STATUS */
	case 0: case 1:
		c->addr = TIPROF_PM_CTRL; v = gen_ctrl(h); break;
	case 2:
		c->addr = TIPROF_PM_PERIOD;
		v = pct(h, 4) ? rnd(h) % (f + 1u) : pct(h, 2) ? rnd(h) : f + rnd(h) % (12u * f);
		break;
	case 3:
		c->addr = TIPROF_PM_PAIR;
		v = pct(h, 4) ? (pct(h, 50) ? 0 : 257u + rnd(h) % 1000u)
			      : pct(h, 70) ? 1u + rnd(h) % 24u : 1u + rnd(h) % 256u;
		break;
	case 4:
		c->addr = TIPROF_PM_TIMEOUT;
		v = pct(h, 3) ? (pct(h, 50) ? 0 : 0x10000u) : pct(h, 55) ? 12u + rnd(h) % 300u
			      : pct(h, 70) ? 0xFFFFu : 1u + rnd(h) % 10u;
		break;
	case 5: {
		unsigned mask = (unsigned)(rnd(h) & rnd(h) & rnd(h) & 0xFFFFu);
		c->addr = TIPROF_PM_EVFILT;
		v = pct(h, 50) ? 0 : (uint64_t)mask | ((uint64_t)(rnd(h) & mask) << 16);
		if (pct(h, 3)) v |= rnd(h) << 32;
		break;
	}
	case 6:
		c->addr = TIPROF_PM_LATFILT;
		v = pct(h, 50) ? 0 : (rnd(h) % 24u) | (uint64_t)(rnd(h) % 7u) << 16 |
				     (uint64_t)(rnd(h) & 1u) << 19;
		if (pct(h, 3)) v |= pct(h, 50) ? 7ull << 16 : 1ull << 20;
		break;
	case 7:
		c->addr = TIPROF_PM_WATERMARK;
		v = pct(h, 5) ? (pct(h, 50) ? 0 : d + 1u) : 1u + rnd(h) % d;
		break;
	case 8:
		c->addr = TIPROF_PM_LFSR; v = pct(h, 3) ? 0 : rnd(h) & (pct(h, 3) ? ~0ull : 0xFFFFFFFFull);
		break;
	case 9:
		c->addr = TIPROF_PM_STATUS; v = pct(h, 50) ? 0xFu : rnd(h) & 0xFFu; break;
	case 10: {
		static const uint16_t cnt[] = { TIPROF_PM_TAKEN, TIPROF_PM_LOST, TIPROF_PM_FILTERED,
						TIPROF_PM_COLLIDED, TIPROF_PM_TAKENH, TIPROF_PM_LOSTH,
						TIPROF_PM_FILTEREDH, TIPROF_PM_COLLIDEDH };
		c->addr = cnt[rnd(h) % 8u]; v = pct(h, 50) ? 0 : rnd(h);
		break;
	}
	default:   /* anything in the ProfileMe ranges (read-only ones are illegal to write) */
		c->addr = (uint16_t)((pct(h, 50) ? 0x5E0u : 0xDE0u) + rnd(h) % 32u); v = rnd(h);
		break;
	}
	c->wdata = v & xmask(h);
	c->priv = 3;
}

static void gen_csr(struct pm_harness *h, struct pm_csr_req *c)
{
	memset(c, 0, sizeof(*c));
	if (h->drain >= 0) {   /* a driver: read every word of the oldest record, then pop it */
		unsigned words = TIPROF_PM_REC_WORDS * (h->cfg.xlen == 32 ? 2u : 1u);

		c->req = 1;
		c->priv = 3;
		if ((unsigned)h->drain < words) {
			unsigned k = (unsigned)h->drain;
			c->addr = (uint16_t)(k < TIPROF_PM_REC_WORDS ? TIPROF_PM_R + k
								    : TIPROF_PM_RH + k - TIPROF_PM_REC_WORDS);
			h->rec_reads++;
			h->drain++;
		} else {
			c->we = 1;
			c->addr = TIPROF_PM_POP;
			h->drain = -1;
			h->pops++;
		}
		return;
	}
	if (!pct(h, h->csr_pct))
		return;
	unsigned u = (unsigned)(rnd(h) % 100u);
	if (u < 8 && pm_model_fifo_count(&h->m)) {
		h->drain = 0;
		gen_csr(h, c);
		return;
	}
	c->req = 1;
	c->priv = pct(h, 85) ? 3 : pct(h, 66) ? 1 : 0;
	if (u < 50) {   /* PM_STATUS more often: its sticky bits are cleared and set again */
		c->addr = pct(h, 10) ? TIPROF_PM_STATUS
				     : (uint16_t)((pct(h, 40) ? 0x5E0u : 0xDE0u) + rnd(h) % 32u);
		h->csr_reads++;
	} else if (u < 50 + h->pop_pct) {
		c->we = 1;
		c->addr = TIPROF_PM_POP;
		c->wdata = rnd(h) & xmask(h);
		h->pops++;
	} else if (u < 90) {
		uint8_t p = c->priv;
		gen_write(h, c);
		if (pct(h, 10))
			c->priv = p;
	} else if (u < 95) {
		c->addr = TIPROF_TIP_MENABLE;
		c->we = pct(h, 50);
		c->wdata = rnd(h) & 1u;
	} else {
		static const uint16_t other[] = { 0x7C1, 0x5D0, 0x5DF, 0x800, 0xDBF, 0xE00, 0x5A0 };
		c->addr = other[rnd(h) % 7u];
		c->we = pct(h, 30);
	}
}

static void new_phase(struct pm_harness *h)
{
	h->phase_end = h->t + 2000u + rnd(h) % 30000u;
	h->pop_pct = (unsigned)(rnd(h) % 4u) * 8u;    /* 0, 8, 16, 24 % of accesses */
	h->csr_pct = 5u + (unsigned)(rnd(h) % 40u);
	h->valid_mode = (unsigned)(rnd(h) % 3u);
	if (pct(h, 30)) {   /* stray events on tag id 0, id 1 or both */
		h->stray_until = h->t + 50u + rnd(h) % 500u;
		h->stray_ids = (uint8_t)(1u + rnd(h) % 3u);
	}
}

/* ---------------------------------------------------------------- directed scripts */

static int directed(struct pm_harness *h, struct tiprof_pm_if *x, struct tiprof_pm_if *ev,
		    struct pm_csr_req *c);
static void dir_check(struct pm_harness *h);

/* ---------------------------------------------------------------- the core bench */
#ifndef PM_TB_NO_CORE
#include "pm_core.c"
#else
static int core_bench_init(struct pm_harness *h)
{
	fail(h, "this build has no core bench (PM_TB_NO_CORE)");
	return -1;
}
static int core_bench_cycle(struct pm_harness *h, struct tiprof_pm_if *x, struct tiprof_pm_if *ev,
			    struct pm_csr_req *c)
{
	(void)h; (void)x; (void)ev; (void)c;
	return -1;
}
static void core_bench_tags(struct pm_harness *h, const struct pm_model_out *o)
{
	(void)h; (void)o;
}
static void core_bench_free(struct pm_harness *h)
{
	(void)h;
}
#endif

/* ---------------------------------------------------------------- the harness */

int pm_harness_init(struct pm_harness **hp, const struct pm_model_cfg *cfg, int stage,
		    const char *bench, uint64_t seed, uint64_t cycles, const char *outdir,
		    const char *sim)
{
	struct pm_harness *h = calloc(1, sizeof(*h));

	(void)outdir;
	*hp = h;
	if (!h)
		return -1;
	h->cfg = *cfg;
	h->stage = stage;
	h->sim = sim;
	snprintf(h->bench, sizeof(h->bench), "%s", bench);
	h->seed = seed;
	h->cycles = cycles;
	h->rng = seed * 0x9E3779B97F4A7C15ULL + 0x1234567u;
	h->drain = -1;
	h->priv = 3;
	h->pc = 0x80000000u;
	h->log = stdout;
	if (pm_model_init(&h->m, cfg)) {
		printf("pm-harness: FAIL illegal configuration F=%u XLEN=%u DEPTH=%u TAGS=%u\n",
		       cfg->f, cfg->xlen, cfg->fifo_depth, cfg->tags);
		return -1;
	}
	if (strcmp(bench, "random") && strcmp(bench, "directed") && strcmp(bench, "core")) {
		printf("pm-harness: FAIL unknown bench '%s' (random, directed, core)\n", bench);
		return -1;
	}
	if (!strcmp(bench, "core") && core_bench_init(h)) {
		printf("pm-harness: FAIL %s\n", h->msg);
		return -1;
	}
	printf("pm-harness: %s bench %s F=%u XLEN=%u DEPTH=%u TAGS=%u STAGE=%d seed %llu cycles %llu\n",
	       sim, bench, cfg->f, cfg->xlen, cfg->fifo_depth, cfg->tags, stage,
	       (unsigned long long)seed, (unsigned long long)cycles);
	return 0;
}

static void compare(struct pm_harness *h, const struct pm_obs *o)
{
	const struct pm_obs *e = &h->exp;

	if (o->tag != e->tag || o->rdata != e->rdata || o->illegal != e->illegal ||
	    o->irq != e->irq) {
		fail(h, "cycle %llu: RTL != model: tag 0x%04x/0x%04x rdata 0x%llx/0x%llx illegal %d/%d "
		     "irq %d/%d (RTL/model); CSR req %d we %d addr 0x%03x wdata 0x%llx priv %u",
		     (unsigned long long)(h->t - 1), o->tag, e->tag, (unsigned long long)o->rdata,
		     (unsigned long long)e->rdata, o->illegal, e->illegal, o->irq, e->irq,
		     h->exp_csr.req, h->exp_csr.we, h->exp_csr.addr,
		     (unsigned long long)h->exp_csr.wdata, h->exp_csr.priv);
		return;
	}
	h->checks++;
}

int pm_harness_tick(struct pm_harness *h, const struct pm_obs *obs, struct pm_drive *d)
{
	struct tiprof_pm_if x, ev, min;
	struct pm_csr_req c;
	struct pm_model_out o;
	int stray = 0, rst, dir, core;

	memset(d, 0, sizeof(*d));
	if (h->have_exp && obs)
		compare(h, obs);
	if (h->failed || h->t >= h->cycles)
		return 1;
	memset(&x, 0, sizeof(x));
	memset(&c, 0, sizeof(c));
	ev_clear(&ev);

	dir = !strcmp(h->bench, "directed");
	core = !strcmp(h->bench, "core");
	rst = h->t < 2 || (!dir && !core && h->t % 250000u == 249999u);
	if (!rst && dir) {
		int r = directed(h, &x, &ev, &c);
		if (r < 0)
			return 1;
		if (r > 0) {
			h->cycles = h->t;   /* the scripts are done */
			return 1;
		}
	}
	if (rst) {
		pm_model_reset(&h->m);
		h->menable = 0;
		memset(h->in, 0, sizeof(h->in));
		ev_clear(&h->prev_ev);
		h->prev_stray = 0;
		h->drain = -1;
		h->resets++;
		memset(&h->exp, 0, sizeof(h->exp));
		h->exp_csr = c;
		h->have_exp = 1;
		d->rst = 1;
		d->check = 1;
		tiprof_pm_wire_pack(&x, d->w);
		h->t++;
		return 0;
	}
	if (core) {
		int r = core_bench_cycle(h, &x, &ev, &c);

		if (r) {
			h->cycles = h->t;	/* the program ended (or the core failed) */
			return 1;
		}
	} else if (!dir) {
		if (h->t >= h->phase_end)
			new_phase(h);
		gen_fetch(h, &x);
		gen_csr(h, &c);
		if (!h->stage) {
			gen_events(h, &ev);
			stray = gen_stray(h, &ev);
		}
	}

	/* the model's cycle: with the input stage it sees last cycle's events */
	min = x;
	ev_copy(&min, h->stage ? &h->prev_ev : &ev);
	pm_model_cycle(&h->m, &min, &c, h->menable, &o);
	if (!dir && !core && h->stage) {
		gen_events(h, &ev);     /* they reach the unit next cycle: judged on the new state */
		stray = gen_stray(h, &ev);
	}
	if (core)
		core_bench_tags(h, &o);

	/* expected outputs */
	memset(&h->exp, 0, sizeof(h->exp));
	for (unsigned s = 0; s < h->cfg.f; s++)
		h->exp.tag |= (uint16_t)((o.tag[s] & 3u) << (2 * s));
	h->exp.irq = o.irq;
	top_csr(h, &c, &o, &h->exp);
	if (dir)
		dir_check(h);
	h->exp_csr = c;
	h->have_exp = 1;

	/* the core learns the tags */
	for (unsigned s = 0; s < h->cfg.f; s++)
		for (unsigned id = 0; id < 2; id++)
			if ((o.tag[s] >> id) & 1u) {
				struct inst *I = &h->in[id];
				memset(I, 0, sizeof(*I));
				I->alive = 1;
				I->tagged_at = h->t;
				I->is_mem = pct(h, 40);
			}

	/* statistics */
	h->sel += o.nsel;
	h->taken += (o.sel_taken & 1u);
	h->coll += o.nsel - (o.sel_taken & 1u);
	if (o.completed) {
		uint64_t sinfo = o.rec.w[TIPROF_PM_REC_SINFO];
		h->completed++;
		h->pushed += (unsigned long)o.pushed;
		h->lost += (unsigned long)o.lost;
		h->filtered += (unsigned long)o.filtered;
		if (sinfo & TIPROF_PM_REC_SINFO_PAIR_MASK) {
			h->pairs++;
			if (o.rec.w[TIPROF_PM_REC_INFO + TIPROF_PM_REC_PROFILE_STRIDE] &
			    TIPROF_PM_REC_INFO_TAGGED_MASK)
				h->pairs_tagged++;
		}
		for (unsigned p = 0; p < 2; p++) {
			uint64_t info = o.rec.w[TIPROF_PM_REC_INFO + p * TIPROF_PM_REC_PROFILE_STRIDE];
			if ((info >> TIPROF_PM_EV_TIMEOUT) & 1u)
				h->timeouts++;
			if ((info >> TIPROF_PM_EV_EMPTY) & 1u)
				h->empties++;
		}
	}

	/* what the RTL gets: the raw events (it stages them itself) */
	min = x;
	ev_copy(&min, &ev);
	tiprof_pm_wire_pack(&min, d->w);
	d->csr = c;
	d->check = h->stage ? !h->prev_stray : !stray;
	h->prev_ev = ev;
	h->prev_stray = stray;
	h->t++;
	return 0;
}

int pm_harness_final(struct pm_harness *h)
{
	if (!h)
		return 1;
	core_bench_free(h);
	if (!h->failed && h->t < h->cycles && strcmp(h->bench, "directed"))
		fail(h, "the simulation ended after %llu of %llu cycles", (unsigned long long)h->t,
		     (unsigned long long)h->cycles);
	printf("pm-harness: %s: %llu cycles, %lu checks; selections %lu (taken %lu, collided %lu), "
	       "samples %lu (pushed %lu, lost %lu, filtered %lu), pairs %lu (second tagged %lu), "
	       "timeout profiles %lu, empty %lu, stray cycles %lu, resets %lu, CSR reads %lu, "
	       "record word reads %lu, pops %lu\n",
	       h->bench, (unsigned long long)h->t, h->checks, h->sel, h->taken, h->coll,
	       h->completed, h->pushed, h->lost, h->filtered, h->pairs, h->pairs_tagged, h->timeouts,
	       h->empties, h->stray_cycles, h->resets, h->csr_reads, h->rec_reads, h->pops);
	if (h->failed) {
		printf("pm-harness: FAIL %s\n", h->msg);
		return 1;
	}
	printf("pm-harness: PASS %s %llu cycles, %lu checks\n", h->bench, (unsigned long long)h->t,
	       h->checks);
	return 0;
}

/* ---------------------------------------------------------------- directed scripts */
#include "pm_directed.c"

/* The expected outputs of the cycle just driven (for the model-only loopback runner). */
void pm_harness_expected(const struct pm_harness *h, struct pm_obs *o)
{
	*o = h->exp;
}
