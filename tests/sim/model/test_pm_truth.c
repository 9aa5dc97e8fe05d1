/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_pm_truth.c - the ProfileMe model against the exact truth of a random core that keeps
 * the interface contract (docs/profileme.md, "Rules of the contract").
 *
 * The test core fetches random packets (random valid masks, branches, history, I-cache and
 * I-TLB misses, privilege and context), and for every instruction the unit tags it draws a
 * life: map, data ready, issue, a memory request for loads and stores (EA, D-TLB and D-cache
 * misses), complete, a branch resolution for control transfers, then retire, or an abort
 * with a random reason at a random point of that life (events up to and including the abort
 * cycle are reported, none after). It keeps the truth of every tagged instruction and checks
 * each completed record against it field by field: PC, slot, privilege, context, path, every
 * event bit, abort reason, every stage stamp and seen bit, EA; for pairs the fetch distance
 * in valid slots and the cycles between the two fetches. With the contract kept, STRAY and
 * TIMEOUT never occur. Runs over F = 1, 2, 4, 8, XLEN 32 and 64, single and paired sampling,
 * both counting units, with the FIFO drained at random.
 */
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

static unsigned rr(unsigned lo, unsigned hi) /* uniform on [lo, hi] */
{
	return lo + rnd() % (hi - lo + 1u);
}

/* Event kinds of a life, in the order the unit's stamps are kept. */
enum { K_MAP, K_READY, K_ISSUE, K_MEM, K_COMPLETE, K_END, K_N };

struct life {
	int live;                 /* tagged, not yet ended */
	uint64_t fetch;           /* fetch cycle */
	uint64_t gidx;            /* index of its slot among all valid slots fetched */
	uint64_t pc;
	unsigned slot, priv, ctx, path, icmiss, itlbmiss;
	uint64_t at[K_N];         /* cycle of each event (at[K_MEM] = 0: none) */
	int is_load, is_store, is_ctrl, taken, mispred, dc_miss, dtlb_miss;
	int aborts;               /* ends by abort (else retire) */
	unsigned reason;
	uint64_t ea;
};

struct expect {
	int valid;
	struct life l[2];
	int pair;
};

/* Draw the life of an instruction tagged in cycle c. */
static void draw_life(struct life *l, uint64_t c)
{
	uint64_t t = c + rr(1, 4);

	l->at[K_MAP] = t;
	t += rr(0, 4);
	l->at[K_READY] = t;
	t += rr(0, 3);
	l->at[K_ISSUE] = t;
	unsigned kind = rnd() % 4;          /* 0 alu, 1 load, 2 store, 3 control transfer */
	l->is_load = kind == 1;
	l->is_store = kind == 2 || (kind == 1 && rnd() % 8 == 0); /* an AMO is both */
	l->is_ctrl = kind == 3;
	l->at[K_MEM] = 0;
	if (l->is_load || l->is_store) {
		l->at[K_MEM] = t + rr(0, 2);
		t = l->at[K_MEM];
		l->dtlb_miss = rnd() % 5 == 0;
		l->dc_miss = rnd() % 3 == 0;
		l->ea = ((uint64_t)rnd() << 32) | rnd();
		t += l->dc_miss ? rr(10, 30) : rr(1, 3);
	} else {
		l->dtlb_miss = l->dc_miss = 0;
		t += rr(1, 6);
	}
	l->at[K_COMPLETE] = t;
	l->taken = rnd() & 1u;
	l->mispred = rnd() % 4 == 0;
	t += rr(0, 5);
	l->at[K_END] = t;
	l->aborts = rnd() % 4 == 0;
	l->reason = rnd() & 3u;
	if (l->aborts)                      /* anywhere in its life, even before map */
		l->at[K_END] = rr((unsigned)(c + 1), (unsigned)l->at[K_END]);
}

/* The events of life l in cycle c, for tag id t, into the inputs. */
static void emit(const struct life *l, unsigned t, uint64_t c, struct tiprof_pm_if *in)
{
	const uint8_t b = (uint8_t)(1u << t);

	if (!l->live || c > l->at[K_END])
		return;
	if (c == l->at[K_MAP]) {
		in->map |= b;
		if (l->is_load)
			in->load |= b;
		if (l->is_store)
			in->store |= b;
	}
	if (c == l->at[K_READY])
		in->ready |= b;
	if (c == l->at[K_ISSUE])
		in->issue |= b;
	if (l->at[K_MEM] && c == l->at[K_MEM]) {
		in->mem |= b;
		in->ea_valid |= b;
		in->ea[t] = l->ea;
		if (l->dtlb_miss)
			in->dtlb_miss |= b;
	}
	if (l->at[K_MEM] && l->dc_miss && c == l->at[K_MEM] + 1)
		in->dc_miss |= b;
	if (c == l->at[K_COMPLETE]) {
		in->complete |= b;
		if (l->is_ctrl) {
			in->br_valid |= b;
			if (l->taken)
				in->br_taken |= b;
			if (l->mispred)
				in->br_mispred |= b;
		}
	}
	if (c == l->at[K_END]) {
		if (l->aborts) {
			in->abort |= b;
			in->abort_reason[t] = (uint8_t)l->reason;
		} else {
			in->retire |= b;
		}
	}
}

static int delivered(const struct life *l, unsigned k)
{
	return l->at[k] && l->at[k] <= l->at[K_END];
}

/* Compare profile p of record r with life l; returns the number of mismatches. */
static unsigned check_profile(const struct pm_record *r, unsigned p, const struct life *l,
			      uint64_t xm)
{
	unsigned bad = 0, ev = 0, seen = 0;
	const unsigned kseen[5] = { K_MAP, K_READY, K_ISSUE, K_MEM, K_COMPLETE };

#define EXP(cond, ...) do { if (!(cond)) { bad++; CHECK(0, __VA_ARGS__); } } while (0)
	ev |= l->aborts ? EVB(ABORTED) : EVB(RETIRED);
	if (l->aborts && l->reason == TIPROF_PM_ABORT_TRAP)
		ev |= EVB(TRAP);
	if (l->icmiss)
		ev |= EVB(IC_MISS);
	if (l->itlbmiss)
		ev |= EVB(ITLB_MISS);
	if (delivered(l, K_MAP)) {
		if (l->is_load)
			ev |= EVB(LOAD);
		if (l->is_store)
			ev |= EVB(STORE);
	}
	if (delivered(l, K_MEM)) {
		ev |= EVB(EA_VALID);
		if (l->dtlb_miss)
			ev |= EVB(DTLB_MISS);
		if (l->dc_miss && l->at[K_MEM] + 1 <= l->at[K_END])
			ev |= EVB(DC_MISS);
	}
	if (delivered(l, K_COMPLETE) && l->is_ctrl) {
		ev |= EVB(CTRL);
		if (l->taken)
			ev |= EVB(BR_TAKEN);
		if (l->mispred)
			ev |= EVB(BR_MISPRED);
	}
	for (unsigned i = 0; i < 5; i++)
		if (delivered(l, kseen[i]))
			seen |= 1u << i;
	EXP(RECP(r, p, PC, PC) == (l->pc & xm), "p%u PC", p);
	EXP(RECP(r, p, INFO, EV) == ev, "p%u EV 0x%llx want 0x%x", p,
	    (unsigned long long)RECP(r, p, INFO, EV), ev);
	EXP(RECP(r, p, INFO, REASON) == (l->aborts ? l->reason : 0), "p%u REASON", p);
	EXP(RECP(r, p, INFO, PRIV) == l->priv, "p%u PRIV", p);
	EXP(RECP(r, p, INFO, TAGGED) == 1, "p%u TAGGED", p);
	EXP(RECP(r, p, INFO, SLOT) == l->slot, "p%u SLOT", p);
	EXP(RECP(r, p, INFO, CTX) == l->ctx, "p%u CTX", p);
	EXP(RECP(r, p, INFO, PATH) == l->path, "p%u PATH 0x%llx want 0x%x", p,
	    (unsigned long long)RECP(r, p, INFO, PATH), l->path);
	EXP(RECP(r, p, EA, EA) == (delivered(l, K_MEM) ? (l->ea & xm) : 0), "p%u EA", p);
	EXP(RECP(r, p, STAMP_B, SEEN) == seen, "p%u SEEN 0x%llx want 0x%x", p,
	    (unsigned long long)RECP(r, p, STAMP_B, SEEN), seen);
#define STAMP(k) (delivered(l, k) ? l->at[k] - l->fetch : 0)
	EXP(RECP(r, p, STAMP_A, MAP) == STAMP(K_MAP), "p%u MAP", p);
	EXP(RECP(r, p, STAMP_A, READY) == STAMP(K_READY), "p%u READY", p);
	EXP(RECP(r, p, STAMP_A, ISSUE) == STAMP(K_ISSUE), "p%u ISSUE", p);
	EXP(RECP(r, p, STAMP_A, COMPLETE) == STAMP(K_COMPLETE), "p%u COMPLETE", p);
	EXP(RECP(r, p, STAMP_B, MEM) == STAMP(K_MEM), "p%u MEM", p);
	EXP(RECP(r, p, STAMP_B, END) == l->at[K_END] - l->fetch, "p%u END", p);
#undef STAMP
#undef EXP
	return bad;
}

static void run(unsigned f, unsigned xlen, int pair, int unit_slots, uint64_t cycles, uint64_t seed)
{
	struct pmrig r;
	struct life cur[2];
	uint64_t gidx = 0, records = 0, pairs = 0, aborts = 0, bad = 0, filtered = 0, empties = 0;
	const uint64_t xm = xlen == 64 ? ~0ull : 0xFFFFFFFFull;
	char title[128];

	snprintf(title, sizeof(title), "F=%u XLEN=%u %s, %s: records = the core's truth", f, xlen,
		 pair ? "paired" : "single", unit_slots ? "fetch opportunities" : "instructions");
	pmt_section(title);
	rng_state = seed;
	memset(cur, 0, sizeof(cur));
	pr_init(&r, f, xlen, 8, 2);
	pr_write(&r, TIPROF_PM_PAIR, 24);
	pr_write(&r, TIPROF_PM_PERIOD, 5 * f + 3);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_RANDOM_INTERVAL, 12,
					     (pair ? TIPROF_PM_CTRL_PAIR_MASK : 0) |
					     (unit_slots ? TIPROF_PM_CTRL_UNIT_MASK : 0)));
	for (uint64_t n = 0; n < cycles; n++) {
		uint64_t c = r.m.cycle;
		unsigned valid = rnd() & ((1u << f) - 1u);
		struct pm_csr_req q = { 0, 1, TIPROF_PM_POP, 0, TIPROF_PRIV_M };

		if (rnd() % 3 == 0)
			valid = (1u << f) - 1u;
		pr_fetch(&r, valid, ((uint64_t)rnd() << 20) | ((uint64_t)rnd() << 40));
		r.in.fetch_br = (uint8_t)rnd();
		r.in.fetch_hist = (uint16_t)rnd();
		r.in.fetch_icmiss = rnd() % 7 == 0;
		r.in.fetch_itlbmiss = rnd() % 11 == 0;
		r.in.fetch_priv = (uint8_t)(rnd() & 3u);
		r.in.fetch_ctx = (uint16_t)rnd();
		for (unsigned t = 0; t < 2; t++)
			emit(&cur[t], t, c, &r.in);
		struct tiprof_pm_if in = r.in;       /* this cycle's inputs, for the truth */
		q.req = rnd() % 4 == 0;              /* drain the FIFO at random */
		pm_model_cycle(&r.m, &r.in, q.req ? &q : NULL, 0, &r.out);
		memset(&r.in, 0, sizeof(r.in));
		/* lives that ended this cycle */
		for (unsigned t = 0; t < 2; t++)
			if (cur[t].live && c == cur[t].at[K_END])
				cur[t].live = 0;
		/* a record completed this cycle: compare with the truth */
		if (r.out.completed) {
			const struct pm_record *rec = &r.out.rec;
			unsigned is_pair = (unsigned)REC(rec, SINFO, PAIR);

			records++;
			filtered += (uint64_t)r.out.filtered;
			if (RECP(rec, 0, INFO, EV) == EVB(EMPTY)) {
				/* an empty fetch slot (fetch opportunities): recorded at once */
				unsigned s = (unsigned)RECP(rec, 0, INFO, SLOT);

				empties++;
				if (!unit_slots || ((valid >> s) & 1u) || is_pair ||
				    RECP(rec, 0, INFO, TAGGED) || RECP(rec, 0, PC, PC) ||
				    RECP(rec, 0, INFO, PRIV) != in.fetch_priv ||
				    RECP(rec, 0, INFO, CTX) != in.fetch_ctx || r.out.tag[s] ||
				    REC(rec, CYCLE, CYCLE) != c) {
					bad++;
					CHECK(0, "EMPTY record");
				}
				goto tags;
			}
			if (is_pair != (unsigned)pair) {
				bad++;
				CHECK(0, "PAIR bit");
			}
			bad += check_profile(rec, 0, &cur[0], xm);
			aborts += cur[0].aborts;
			if (is_pair) {
				pairs++;
				bad += check_profile(rec, 1, &cur[1], xm);
				if (REC(rec, SINFO, PAIR_DIST) != cur[1].gidx - cur[0].gidx ||
				    REC(rec, SINFO, PAIR_CYCLES) != cur[1].fetch - cur[0].fetch) {
					bad++;
					CHECK(0, "pair distance %llu / cycles %llu, want %llu / %llu",
					      (unsigned long long)REC(rec, SINFO, PAIR_DIST),
					      (unsigned long long)REC(rec, SINFO, PAIR_CYCLES),
					      (unsigned long long)(cur[1].gidx - cur[0].gidx),
					      (unsigned long long)(cur[1].fetch - cur[0].fetch));
				}
			}
			if (REC(rec, CYCLE, CYCLE) != cur[0].fetch) {
				bad++;
				CHECK(0, "CYCLE");
			}
		}
tags:
		/* tags driven this cycle start new lives (after the record check: a tag never
		 * appears in a cycle in which its id's previous life still runs) */
		unsigned bpos = 0;
		for (unsigned s = 0; s < f; s++) {
			for (unsigned t = 0; t < 2; t++) {
				if (!((r.out.tag[s] >> t) & 1u))
					continue;
				struct life *l = &cur[t];

				if (l->live) {
					bad++;
					CHECK(0, "id %u tagged while its instruction lives", t);
				}
				memset(l, 0, sizeof(*l));
				l->live = 1;
				l->fetch = c;
				l->gidx = gidx + (unsigned)__builtin_popcount(valid & ((1u << s) - 1u));
				l->pc = in.fetch_pc[s];
				l->slot = s;
				l->priv = in.fetch_priv;
				l->ctx = in.fetch_ctx;
				l->icmiss = in.fetch_icmiss;
				l->itlbmiss = in.fetch_itlbmiss;
				bpos = (unsigned)__builtin_popcount(in.fetch_br & valid & ((1u << s) - 1u));
				l->path = (uint16_t)(in.fetch_hist << bpos);
				draw_life(l, c);
			}
			if (r.out.tag[s] && !((valid >> s) & 1u)) {
				bad++;
				CHECK(0, "tag on an invalid slot");
			}
		}
		gidx += (unsigned)__builtin_popcount(valid);
	}
	CHECK_EQ(bad, 0, "records equal the truth");
	CHECK_EQ(r.m.sticky & (TIPROF_PM_STATUS_STRAY_MASK | TIPROF_PM_STATUS_TIMEOUT_MASK), 0,
		 "no STRAY, no TIMEOUT with the contract kept");
	CHECK(records > 1000, "enough records (%llu)", (unsigned long long)records);
	CHECK(!pair || pairs + empties == records, "every record a pair (or an empty slot)");
	CHECK(unit_slots ? empties > 0 : empties == 0, "empty-slot records only when counting opportunities");
	CHECK_EQ(filtered, 0, "no filter, nothing filtered");
	pmt_note("%llu cycles, %llu records (%llu pairs, %llu empty slots, %llu first aborted), TAKEN %llu LOST %llu COLLIDED %llu",
		 (unsigned long long)cycles, (unsigned long long)records, (unsigned long long)pairs,
		 (unsigned long long)empties, (unsigned long long)aborts, (unsigned long long)r.m.taken,
		 (unsigned long long)r.m.lost, (unsigned long long)r.m.collided);
	pr_fini(&r);
}

int main(void)
{
	static const unsigned fs[] = { 1, 2, 4, 8 };

	for (unsigned i = 0; i < 4; i++) {
		run(fs[i], 64, 0, 0, 60000, 100 + i);
		run(fs[i], 32, 1, 0, 60000, 200 + i);
		run(fs[i], 64, 1, 1, 60000, 300 + i);
	}
	return pmt_summary();
}
