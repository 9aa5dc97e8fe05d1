/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_pm_directed.c - directed scenarios of the ProfileMe model (docs/profileme.md), each
 * cycle-exact: one instruction's life through every stage (the paper's profile and latency
 * registers), the path register, squash / trap / front-end kill, paired sampling in one
 * cycle and across cycles with the second on the wrong path, collisions, FIFO full + lost +
 * pop and push in one cycle, the event and latency filters, the timeout (lost tag, untagged
 * second, a lowered timeout, retire on the timeout cycle), CSR writes while a tag is in
 * flight, empty fetch slots, the privilege filter, stray events, the CSR map and its
 * illegal accesses, XLEN=32 halves, the watermark interrupt.
 */
#include <stdio.h>
#include <string.h>

#include "pmt.h"

#define M TIPROF_PRIV_M

/* The LFSR state n steps after s (the spec's step, written out again here). */
static uint32_t lfsr_next_for_test(uint32_t s, unsigned n)
{
	while (n--)
		s = (s >> 1) ^ ((s & 1u) ? TIPROF_LFSR_TOGGLE : 0u);
	return s;
}

/* Configure a rig: PERIOD p, then CTRL (which restarts the fetch counter). */
static void setup(struct pmrig *r, uint32_t period, uint32_t ctrl)
{
	pr_write(r, TIPROF_PM_PERIOD, period);
	pr_write(r, TIPROF_PM_CTRL, ctrl);
}

/* Set the event bit of tag id t in the next cycle's input field sig (r names the rig the
 * field belongs to, for reading the calls). */
#define ev(r, sig, t) (*(sig) |= (uint8_t)(1u << (t)))

static void test_lifecycle(void)
{
	struct pmrig r;
	struct pm_record rec;
	int v;

	pmt_section("one load through every stage: profile, stamps, latencies, path, misses");
	pr_init(&r, 4, 64, 4, 2);
	setup(&r, 4, pr_ctrl(TIPROF_MODE_PERIODIC, 0, 0));
	pr_fetch(&r, 0x3, 0x1000);          /* units 0, 1: nothing yet */
	pr_step(&r);
	CHECK_EQ(r.out.nsel, 0, "no selection at positions 0-1");
	/* positions 2 (slot 0, a branch) and 3 (slot 1): slot 1 is selected */
	uint64_t sel_cycle = r.m.cycle;
	pr_fetch(&r, 0x3, 0x2000);
	r.in.fetch_br = 0x1;
	r.in.fetch_hist = 0x80A5;
	r.in.fetch_icmiss = 1;
	r.in.fetch_priv = TIPROF_PRIV_S;
	r.in.fetch_ctx = 7;
	pr_step(&r);
	CHECK_EQ(r.out.tag[0], 0, "slot 0 untagged");
	CHECK_EQ(r.out.tag[1], 1, "slot 1 carries tag id 0");
	CHECK_EQ(r.out.nsel, 1, "one selection");
	CHECK_EQ(r.out.sel_taken, 1, "taken");
	/* a = 1 map, 3 ready, 4 issue + load, 5 mem + EA + DTLB miss, 6 D-cache miss,
	 * 9 complete, 12 retire */
	ev(&r, &r.in.map, 0); pr_step(&r);
	pr_step(&r);
	ev(&r, &r.in.ready, 0); pr_step(&r);
	ev(&r, &r.in.issue, 0); ev(&r, &r.in.load, 0); pr_step(&r);
	ev(&r, &r.in.mem, 0); ev(&r, &r.in.ea_valid, 0); r.in.ea[0] = 0xdead0;
	ev(&r, &r.in.dtlb_miss, 0); pr_step(&r);
	ev(&r, &r.in.dc_miss, 0); ev(&r, &r.in.issue, 0); /* a repeated issue is ignored */
	r.in.ea[0] = 0xbeef; ev(&r, &r.in.ea_valid, 0);   /* and a second EA */
	pr_step(&r);
	pr_idle(&r, 2);
	ev(&r, &r.in.complete, 0); pr_step(&r);
	pr_idle(&r, 2);
	CHECK(!r.out.completed, "nothing completes before the retire");
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_BUSY_MASK,
		 TIPROF_PM_STATUS_BUSY_MASK, "BUSY while the tag is in flight");
	/* the read took a = 12: retire at a = 13 */
	ev(&r, &r.in.retire, 0); pr_step(&r);
	CHECK(r.out.completed && r.out.pushed, "completes and is pushed on the retire cycle");
	CHECK_EQ(pr_read(&r, TIPROF_PM_TAKEN), 1, "TAKEN");
	CHECK_EQ(pr_read_record(&r, &rec), 1, "one record");
	CHECK_EQ(REC(&rec, CYCLE, CYCLE), sel_cycle, "CYCLE = selection cycle");
	CHECK_EQ(REC(&rec, SINFO, FMT), TIPROF_PM_REC_FMT, "FMT");
	CHECK_EQ(REC(&rec, SINFO, PAIR), 0, "single");
	CHECK_EQ(RECP(&rec, 0, PC, PC), 0x2004, "PC of slot 1");
	CHECK_EQ(RECP(&rec, 0, EA, EA), 0xdead0, "first EA kept");
	CHECK_EQ(RECP(&rec, 0, INFO, EV),
		 EVB(RETIRED) | EVB(IC_MISS) | EVB(LOAD) | EVB(DC_MISS) | EVB(DTLB_MISS) |
		 EVB(EA_VALID), "EV");
	CHECK_EQ(RECP(&rec, 0, INFO, PRIV), TIPROF_PRIV_S, "PRIV");
	CHECK_EQ(RECP(&rec, 0, INFO, TAGGED), 1, "TAGGED");
	CHECK_EQ(RECP(&rec, 0, INFO, SLOT), 1, "SLOT");
	CHECK_EQ(RECP(&rec, 0, INFO, CTX), 7, "CTX");
	CHECK_EQ(RECP(&rec, 0, INFO, PATH), 0x014A, "PATH = hist << 1 (a not-taken branch in slot 0)");
	CHECK_EQ(RECP(&rec, 0, STAMP_A, MAP), 1, "MAP stamp");
	CHECK_EQ(RECP(&rec, 0, STAMP_A, READY), 3, "READY stamp");
	CHECK_EQ(RECP(&rec, 0, STAMP_A, ISSUE), 4, "ISSUE stamp (first)");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, MEM), 5, "MEM stamp");
	CHECK_EQ(RECP(&rec, 0, STAMP_A, COMPLETE), 9, "COMPLETE stamp");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, END), 13, "END stamp");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, SEEN), 0x1F, "SEEN");
	static const unsigned want[7] = { 13, 1, 2, 1, 5, 4, 4 };
	for (unsigned s = 0; s < 7; s++) {
		char what[48];

		snprintf(what, sizeof(what), "latency SEL=%u", s);
		CHECK_EQ(pm_record_latency(&rec, 0, s, &v), want[s], what);
		CHECK(v, "latency %u valid", s);
	}
	for (unsigned k = TIPROF_PM_REC_PC + TIPROF_PM_REC_PROFILE_STRIDE; k < TIPROF_PM_REC_WORDS; k++)
		CHECK_EQ(rec.w[k], 0, "profile 1 words of a single sample are 0");
	CHECK_EQ(pr_read(&r, TIPROF_PM_FIFO_COUNT), 0, "FIFO empty after the POP");
	CHECK_EQ(pr_read(&r, TIPROF_PM_R + 0), 0, "PM_R0 reads 0 when empty");
	pr_fini(&r);
}

/* Tag one instruction: a packet whose slot 0 is the next selected unit with PERIOD 1-per-F
 * (PERIODIC, PERIOD = F = 1 unit per slot... every packet of F valid selects its last slot). */
static void tag_next(struct pmrig *r, uint64_t pc)
{
	pr_fetch(r, (1u << r->m.cfg.f) - 1u, pc);
	pr_step(r);
}

static void test_abort_reasons(void)
{
	struct pmrig r;
	struct pm_record rec;
	int v;

	pmt_section("squash behind a mispredict, trap, front-end kill: status, reason, stamps");
	pr_init(&r, 2, 64, 8, 2);
	setup(&r, 2, pr_ctrl(TIPROF_MODE_PERIODIC, 0, 0));
	/* wrong-path instruction: mapped, issued, squashed (reason 0) */
	tag_next(&r, 0x4000);
	CHECK_EQ(r.out.tag[1], 1, "PERIOD = F = 2: the last slot of a full packet");
	ev(&r, &r.in.map, 0); pr_step(&r);
	ev(&r, &r.in.issue, 0); pr_step(&r);
	ev(&r, &r.in.abort, 0); r.in.abort_reason[0] = TIPROF_PM_ABORT_MISPRED; pr_step(&r);
	CHECK(r.out.pushed, "squashed instruction recorded");
	rec = r.out.rec;
	CHECK_EQ(RECP(&rec, 0, INFO, EV), EVB(ABORTED), "EV ABORTED only");
	CHECK_EQ(RECP(&rec, 0, INFO, REASON), TIPROF_PM_ABORT_MISPRED, "REASON mispredict");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, END), 3, "END stamp");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, SEEN), 0x5, "SEEN map, issue");
	pm_record_latency(&rec, 0, TIPROF_PM_LAT_COMPLETE_RETIRE, &v);
	CHECK(!v, "COMPLETE_RETIRE not valid for an aborted instruction");
	pm_record_latency(&rec, 0, TIPROF_PM_LAT_MAP_READY, &v);
	CHECK(!v, "MAP_READY not valid without ready");
	/* trap: reason 1 sets TRAP; retire and abort in one cycle: the abort wins */
	tag_next(&r, 0x5000);
	ev(&r, &r.in.map, 0); pr_step(&r);
	ev(&r, &r.in.complete, 0); pr_step(&r);
	ev(&r, &r.in.abort, 0); ev(&r, &r.in.retire, 0);
	r.in.abort_reason[0] = TIPROF_PM_ABORT_TRAP; pr_step(&r);
	rec = r.out.rec;
	CHECK_EQ(RECP(&rec, 0, INFO, EV), EVB(ABORTED) | EVB(TRAP), "EV ABORTED | TRAP");
	CHECK_EQ(RECP(&rec, 0, INFO, REASON), TIPROF_PM_ABORT_TRAP, "REASON trap");
	/* killed in the front end before map (reason 3): only TOTAL is valid */
	tag_next(&r, 0x6000);
	pr_idle(&r, 3);
	ev(&r, &r.in.abort, 0); r.in.abort_reason[0] = TIPROF_PM_ABORT_OTHER; pr_step(&r);
	rec = r.out.rec;
	CHECK_EQ(RECP(&rec, 0, INFO, REASON), TIPROF_PM_ABORT_OTHER, "REASON other");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, SEEN), 0, "no stage seen");
	CHECK_EQ(pm_record_latency(&rec, 0, TIPROF_PM_LAT_TOTAL, &v), 4, "TOTAL");
	CHECK(v, "TOTAL valid");
	pm_record_latency(&rec, 0, TIPROF_PM_LAT_FETCH_MAP, &v);
	CHECK(!v, "FETCH_MAP not valid");
	/* memory-ordering replay */
	tag_next(&r, 0x7000);
	ev(&r, &r.in.abort, 0); r.in.abort_reason[0] = TIPROF_PM_ABORT_REPLAY; pr_step(&r);
	CHECK_EQ(RECP(&r.out.rec, 0, INFO, REASON), TIPROF_PM_ABORT_REPLAY, "REASON replay");
	/* a control transfer: the first resolution counts, a repeated one is ignored */
	tag_next(&r, 0x8000);
	ev(&r, &r.in.br_valid, 0); ev(&r, &r.in.br_taken, 0); pr_step(&r);
	ev(&r, &r.in.br_valid, 0); ev(&r, &r.in.br_mispred, 0); pr_step(&r);
	ev(&r, &r.in.br_mispred, 0); pr_step(&r);  /* a qualifier alone is no event */
	ev(&r, &r.in.retire, 0); pr_step(&r);
	CHECK_EQ(RECP(&r.out.rec, 0, INFO, EV), EVB(RETIRED) | EVB(CTRL) | EVB(BR_TAKEN),
		 "first branch resolution kept");
	CHECK_EQ(pr_read(&r, TIPROF_PM_TAKEN), 5, "five records");
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_STRAY_MASK, 0, "no stray event");
	pr_fini(&r);
}

static void test_pairs(void)
{
	struct pmrig r;
	struct pm_record rec;

	pmt_section("paired sampling: second in the same packet; second a cycle later on the wrong path; collision on it");
	pr_init(&r, 4, 64, 4, 2);
	pr_write(&r, TIPROF_PM_PAIR, 8);
	setup(&r, 4, pr_ctrl(TIPROF_MODE_PERIODIC, 0, TIPROF_PM_CTRL_PAIR_MASK));
	pr_fetch(&r, 0x7, 0x100); pr_step(&r);              /* positions 0-2 */
	/* d = 1 + floor(0x2000 * 8 / 2^16) = 2: the LFSR written now is the next cycle's */
	pr_write(&r, TIPROF_PM_LFSR, 0x20000001u);
	pr_fetch(&r, 0xF, 0x200); pr_step(&r);              /* position 3 = slot 0 */
	CHECK_EQ(r.out.tag[0], 1, "first: slot 0, id 0");
	CHECK_EQ(r.out.tag[1], 0, "slot 1 untagged");
	CHECK_EQ(r.out.tag[2], 2, "second: d = 2 valid slots later = slot 2, id 1, same cycle");
	CHECK_EQ(r.out.tag[3], 0, "slot 3 untagged");
	ev(&r, &r.in.map, 0); ev(&r, &r.in.map, 1); pr_step(&r);
	ev(&r, &r.in.retire, 1); pr_step(&r);
	CHECK(!r.out.completed, "the pair waits for its first");
	ev(&r, &r.in.retire, 0); pr_step(&r);
	CHECK(r.out.pushed, "pair recorded when both ended");
	rec = r.out.rec;
	CHECK_EQ(REC(&rec, SINFO, PAIR), 1, "PAIR");
	CHECK_EQ(REC(&rec, SINFO, PAIR_DIST), 2, "PAIR_DIST");
	CHECK_EQ(REC(&rec, SINFO, PAIR_CYCLES), 0, "PAIR_CYCLES");
	CHECK_EQ(RECP(&rec, 1, PC, PC), 0x208, "second's PC");
	CHECK_EQ(RECP(&rec, 1, INFO, SLOT), 2, "second's SLOT");
	CHECK_EQ(RECP(&rec, 1, STAMP_B, END), 2, "second's END");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, END), 3, "first's END");

	/* second in a later cycle, on the wrong path; the fetch counter's next selection falls
	 * on the same slot and is a collision (the unit is busy) */
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_PERIODIC, 0, TIPROF_PM_CTRL_PAIR_MASK));
	/* d = 1 + floor(0x6000 * 8 / 2^16) = 4 */
	pr_write(&r, TIPROF_PM_LFSR, 0x60000001u);
	pr_fetch(&r, 0xF, 0x300); pr_step(&r);              /* position 3 = slot 3 */
	CHECK_EQ(r.out.tag[3], 1, "first: slot 3");
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_PAIR_WAIT_MASK,
		 TIPROF_PM_STATUS_PAIR_WAIT_MASK, "PAIR_WAIT");
	/* the read cycle had no fetch: remaining 4 */
	ev(&r, &r.in.map, 0);
	pr_fetch(&r, 0x3, 0x400); pr_step(&r);              /* 2 valid: remaining 2 */
	CHECK_EQ(r.out.tag[0] | r.out.tag[1], 0, "not yet");
	r.in.map = 0;
	pr_fetch(&r, 0x6, 0x500); pr_step(&r);              /* slots 1, 2: the 2nd is slot 2 */
	CHECK_EQ(r.out.tag[2], 2, "second: slot 2, id 1, age 3");
	CHECK_EQ(r.out.tag[1], 0, "slot 1 untagged");
	CHECK_EQ(r.out.nsel, 1, "the fetch counter selects slot 2 too ...");
	CHECK_EQ(r.out.sel_slot[0], 2, "... slot 2 ...");
	CHECK_EQ(r.out.sel_taken, 0, "... as a collision");
	CHECK_EQ(r.m.collided, 1, "COLLIDED 1");
	ev(&r, &r.in.map, 1); pr_step(&r);                   /* a = 4 */
	ev(&r, &r.in.abort, 1); r.in.abort_reason[1] = TIPROF_PM_ABORT_MISPRED; pr_step(&r);
	ev(&r, &r.in.complete, 0); pr_step(&r);
	ev(&r, &r.in.retire, 0); pr_step(&r);                /* a = 7 */
	CHECK(r.out.pushed, "recorded");
	rec = r.out.rec;
	CHECK_EQ(REC(&rec, SINFO, PAIR_DIST), 4, "PAIR_DIST 4");
	CHECK_EQ(REC(&rec, SINFO, PAIR_CYCLES), 3, "PAIR_CYCLES 3");
	CHECK_EQ(RECP(&rec, 1, PC, PC), 0x508, "second's PC");
	CHECK_EQ(RECP(&rec, 1, INFO, EV), EVB(ABORTED), "second aborted (wrong path)");
	CHECK_EQ(RECP(&rec, 1, STAMP_A, MAP), 1, "second's MAP relative to its own fetch");
	CHECK_EQ(RECP(&rec, 1, STAMP_B, END), 2, "second's END relative to its own fetch");
	CHECK_EQ(RECP(&rec, 0, STAMP_A, MAP), 2, "first's MAP");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, END), 7, "first's END");
	CHECK_EQ(RECP(&rec, 0, INFO, EV), EVB(RETIRED), "first retired");
	CHECK_EQ(pr_read(&r, TIPROF_PM_COLLIDED), 1, "PM_COLLIDED reads 1");

	/* a PM_PAIR write while the second waits does not change its distance */
	pr_write(&r, TIPROF_PM_LFSR, 0x60000001u);
	pr_fetch(&r, 0xF, 0x600); pr_step(&r);              /* position 3 after 4 units: slot 3 */
	CHECK_EQ(r.out.tag[3], 1, "first");
	pr_write(&r, TIPROF_PM_PAIR, 1);
	pr_fetch(&r, 0x7, 0x700); pr_step(&r);              /* 3 valid: remaining 1 */
	pr_fetch(&r, 0x1, 0x800); pr_step(&r);              /* the 4th */
	CHECK_EQ(r.out.tag[0], 2, "second at distance 4 despite WINDOW = 1 now");
	ev(&r, &r.in.retire, 0); ev(&r, &r.in.retire, 1); pr_step(&r);
	CHECK_EQ(REC(&r.out.rec, SINFO, PAIR_DIST), 4, "PAIR_DIST 4");
	pr_fini(&r);

	pmt_section("Tags = 1: PAIR cannot be set; bit 1 of the event ports is ignored");
	pr_init(&r, 4, 64, 4, 1);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(0, 0, TIPROF_PM_CTRL_PAIR_MASK));
	CHECK_EQ(pr_read(&r, TIPROF_PM_CTRL), TIPROF_PM_CTRL_RESET, "CTRL unchanged");
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_CFG_ERR_MASK,
		 TIPROF_PM_STATUS_CFG_ERR_MASK, "CFG_ERR");
	CHECK_EQ(pr_read(&r, TIPROF_PM_PARAMS) >> TIPROF_PM_PARAMS_TAGS_SHIFT, 1, "PARAMS.TAGS");
	ev(&r, &r.in.retire, 1); pr_step(&r);
	pr_write(&r, TIPROF_PM_STATUS, TIPROF_PM_STATUS_CFG_ERR_MASK);
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS), 0, "no STRAY from id 1");
	pr_fini(&r);
}

/* Run one sample to completion: tag, then retire (with extra event bits) k cycles later. */
static void one_sample(struct pmrig *r, unsigned k, uint8_t dc_miss)
{
	tag_next(r, 0x9000);
	if (k > 1)
		pr_idle(r, k - 1);
	r->in.retire = 1;
	r->in.dc_miss = dc_miss;
	pr_step(r);
}

static void test_fifo(void)
{
	struct pmrig r;
	struct pm_record rec;

	pmt_section("FIFO full: LOST counted, FULL, irq at the watermark, pop and push in one cycle");
	pr_init(&r, 1, 64, 2, 2);
	pr_write(&r, TIPROF_PM_WATERMARK, 2);
	setup(&r, 1, pr_ctrl(TIPROF_MODE_PERIODIC, 0, TIPROF_PM_CTRL_IRQ_EN_MASK));
	one_sample(&r, 1, 0);
	CHECK(!r.out.irq, "no irq with 1 < watermark 2 (irq of the completing cycle)");
	one_sample(&r, 1, 0);
	pr_step(&r);
	CHECK(r.out.irq, "irq with 2 records");
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & (TIPROF_PM_STATUS_FULL_MASK | TIPROF_PM_STATUS_IRQ_MASK),
		 TIPROF_PM_STATUS_FULL_MASK | TIPROF_PM_STATUS_IRQ_MASK, "FULL and IRQ");
	one_sample(&r, 1, 0);
	CHECK(r.out.completed && r.out.lost && !r.out.pushed, "third sample lost");
	CHECK_EQ(pr_read(&r, TIPROF_PM_LOST), 1, "LOST 1");
	CHECK_EQ(pr_read(&r, TIPROF_PM_TAKEN), 2, "TAKEN 2");
	/* a completion in the cycle of a POP: the popped entry makes room */
	tag_next(&r, 0xA000);
	r.in.retire = 1;
	struct pm_csr_resp p = pr_access(&r, 1, TIPROF_PM_POP, 0, M);
	CHECK(!p.illegal, "POP legal");
	CHECK(r.out.pushed, "pushed in the POP cycle although full at its start");
	CHECK_EQ(pr_read(&r, TIPROF_PM_FIFO_COUNT), 2, "still 2");
	CHECK_EQ(pr_read(&r, TIPROF_PM_LOST), 1, "LOST still 1");
	CHECK_EQ(pr_read_record(&r, &rec), 2, "read one");
	CHECK_EQ(pr_read_record(&r, &rec), 1, "read the last");
	CHECK_EQ(RECP(&rec, 0, PC, PC), 0xA000, "the newest is the one pushed in the POP cycle");
	pr_write(&r, TIPROF_PM_POP, 0);
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_POP_EMPTY_MASK,
		 TIPROF_PM_STATUS_POP_EMPTY_MASK, "POP of an empty FIFO sets POP_EMPTY");
	pr_write(&r, TIPROF_PM_STATUS, TIPROF_PM_STATUS_POP_EMPTY_MASK);
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_POP_EMPTY_MASK, 0, "cleared by 1");
	pr_fini(&r);
}

static void load_sample(struct pmrig *r, unsigned memlat, int is_load)
{
	tag_next(r, 0xB000);
	if (is_load) {
		r->in.mem = 1;
		r->in.load = 1;
	}
	pr_step(r);
	pr_idle(r, memlat - 1);
	r->in.complete = 1;
	pr_step(r);
	r->in.retire = 1;
	pr_step(r);
}

static void test_filters(void)
{
	struct pmrig r;

	pmt_section("event mask/match filter and latency filter (threshold, invert, invalid latency)");
	pr_init(&r, 1, 64, 16, 2);
	setup(&r, 1, pr_ctrl(TIPROF_MODE_PERIODIC, 0, 0));
	pr_write(&r, TIPROF_PM_EVFILT, ((uint64_t)EVB(DC_MISS) << 16) | EVB(DC_MISS));
	one_sample(&r, 2, 0);
	CHECK(r.out.completed && r.out.filtered && !r.out.pushed, "no D-cache miss: filtered");
	one_sample(&r, 2, 1);
	CHECK(r.out.pushed, "D-cache miss: kept");
	CHECK_EQ(pr_read(&r, TIPROF_PM_FILTERED), 1, "FILTERED 1");
	/* drop wrong-path: MASK = ABORTED, MATCH = 0 */
	pr_write(&r, TIPROF_PM_EVFILT, EVB(ABORTED));
	tag_next(&r, 0xC000);
	r.in.abort = 1; pr_step(&r);
	CHECK(r.out.filtered, "aborted dropped");
	pr_write(&r, TIPROF_PM_EVFILT, 0);
	/* AMD's load-latency filter: SEL = MEM, THRESH = 10 */
	pr_write(&r, TIPROF_PM_LATFILT, 10u | (TIPROF_PM_LAT_MEM << TIPROF_PM_LATFILT_SEL_SHIFT));
	load_sample(&r, 12, 1);
	CHECK(r.out.pushed, "load with memory latency 12 >= 10 kept");
	CHECK_EQ(pm_record_latency(&r.out.rec, 0, TIPROF_PM_LAT_MEM, NULL), 12, "MEM latency 12");
	load_sample(&r, 5, 1);
	CHECK(r.out.filtered, "latency 5 dropped");
	load_sample(&r, 12, 0);
	CHECK(r.out.filtered, "not a load (MEM latency not valid) dropped");
	pr_write(&r, TIPROF_PM_LATFILT, 10u | (TIPROF_PM_LAT_MEM << TIPROF_PM_LATFILT_SEL_SHIFT) |
					    TIPROF_PM_LATFILT_INV_MASK);
	load_sample(&r, 5, 1);
	CHECK(r.out.pushed, "INV: latency 5 < 10 kept");
	load_sample(&r, 12, 1);
	CHECK(r.out.filtered, "INV: latency 12 dropped");
	load_sample(&r, 5, 0);
	CHECK(r.out.filtered, "INV: invalid latency still dropped");
	/* a filter written in the completion cycle applies from the next cycle */
	tag_next(&r, 0xD000);
	r.in.retire = 1;
	pr_access(&r, 1, TIPROF_PM_LATFILT, 0, M);
	CHECK(r.out.filtered, "the start-of-cycle filter judged it (non-load dropped)");
	one_sample(&r, 1, 0);
	CHECK(r.out.pushed, "THRESH = 0 keeps everything");
	CHECK_EQ(pr_read(&r, TIPROF_PM_FILTERED), 7, "FILTERED 7");
	CHECK_EQ(pr_read(&r, TIPROF_PM_TAKEN), 4, "TAKEN 4");
	pr_fini(&r);
}

static void test_timeout(void)
{
	struct pmrig r;
	struct pm_record rec;

	pmt_section("timeout: a lost tag does not wedge the unit; untagged second; lowered timeout; retire wins");
	pr_init(&r, 1, 64, 8, 2);
	pr_write(&r, TIPROF_PM_TIMEOUT, 5);
	setup(&r, 1, pr_ctrl(TIPROF_MODE_PERIODIC, 0, 0));
	tag_next(&r, 0xE000);                     /* a = 0 */
	ev(&r, &r.in.map, 0); pr_step(&r);        /* a = 1 */
	pr_idle(&r, 3);                           /* a = 2..4 */
	CHECK(!r.out.completed, "open until the timeout");
	pr_step(&r);                              /* a = 5 */
	CHECK(r.out.completed && r.out.pushed, "ended by the timeout at age 5");
	rec = r.out.rec;
	CHECK_EQ(RECP(&rec, 0, INFO, EV), EVB(TIMEOUT), "EV TIMEOUT");
	CHECK_EQ(RECP(&rec, 0, STAMP_B, END), 5, "END 5");
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_TIMEOUT_MASK,
		 TIPROF_PM_STATUS_TIMEOUT_MASK, "STATUS.TIMEOUT");
	/* the lost instruction's retire shows up later: stray */
	ev(&r, &r.in.retire, 0); pr_step(&r);
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_STRAY_MASK,
		 TIPROF_PM_STATUS_STRAY_MASK, "STRAY");
	pr_write(&r, TIPROF_PM_STATUS, TIPROF_PM_STATUS_STRAY_MASK | TIPROF_PM_STATUS_TIMEOUT_MASK);
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS), 0, "cleared");
	/* the unit works again */
	one_sample(&r, 2, 0);
	CHECK(r.out.pushed && (RECP(&r.out.rec, 0, INFO, EV) == EVB(RETIRED)), "next sample normal");
	/* retire in the timeout cycle: RETIRED wins */
	one_sample(&r, 5, 0);
	CHECK_EQ(RECP(&r.out.rec, 0, INFO, EV), EVB(RETIRED), "retire at age 5 = TIMEOUT: RETIRED");
	/* lowering the timeout while a tag is in flight: the next cycle's check uses it */
	pr_write(&r, TIPROF_PM_TIMEOUT, 1000);
	tag_next(&r, 0xE100);
	pr_idle(&r, 9);                            /* a = 1..9 */
	pr_write(&r, TIPROF_PM_TIMEOUT, 3);        /* a = 10: old value checked */
	CHECK(!r.out.completed, "not in the write cycle");
	pr_step(&r);                               /* a = 11 >= 3 */
	CHECK(r.out.completed, "times out the next cycle");
	CHECK_EQ(RECP(&r.out.rec, 0, STAMP_B, END), 11, "END 11");
	/* a pair whose second is never fetched: untagged second ended by the timeout */
	pr_write(&r, TIPROF_PM_TIMEOUT, 6);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_PERIODIC, 0, TIPROF_PM_CTRL_PAIR_MASK));
	tag_next(&r, 0xE200);                      /* d >= 1, no more fetches */
	ev(&r, &r.in.retire, 0); pr_step(&r);
	pr_idle(&r, 4);                            /* a = 2..5 */
	CHECK(!r.out.completed, "waits for the second");
	pr_step(&r);                               /* a = 6 */
	CHECK(r.out.completed && r.out.pushed, "closed by the timeout");
	rec = r.out.rec;
	CHECK_EQ(REC(&rec, SINFO, PAIR), 1, "PAIR");
	CHECK(REC(&rec, SINFO, PAIR_DIST) >= 1, "PAIR_DIST kept");
	CHECK_EQ(REC(&rec, SINFO, PAIR_CYCLES), 0, "PAIR_CYCLES 0");
	CHECK_EQ(RECP(&rec, 1, INFO, TAGGED), 0, "second untagged");
	CHECK_EQ(RECP(&rec, 1, INFO, EV), EVB(TIMEOUT), "second TIMEOUT");
	CHECK_EQ(RECP(&rec, 1, PC, PC), 0, "second PC 0");
	CHECK_EQ(RECP(&rec, 0, INFO, EV), EVB(RETIRED), "first retired");
	pr_fini(&r);
}

static void test_csr_midflight(void)
{
	struct pmrig r;

	pmt_section("CSR writes while a tag is in flight: EN off finishes the sample; stray events");
	pr_init(&r, 4, 64, 4, 2);
	setup(&r, 4, pr_ctrl(TIPROF_MODE_PERIODIC, 0, 0));
	tag_next(&r, 0xF000);
	CHECK_EQ(r.out.tag[3], 1, "tagged");
	pr_write(&r, TIPROF_PM_CTRL, 0);           /* disable */
	pr_fetch(&r, 0xF, 0xF100); pr_step(&r);
	CHECK_EQ(r.out.nsel, 0, "no selection while disabled");
	ev(&r, &r.in.map, 1); pr_step(&r);         /* no id 1 in a single sample */
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_STRAY_MASK,
		 TIPROF_PM_STATUS_STRAY_MASK, "STRAY for id 1");
	ev(&r, &r.in.retire, 0); pr_step(&r);
	CHECK(r.out.pushed, "the open sample is still recorded after EN = 0");
	/* an event in the tagging cycle is stray */
	pr_write(&r, TIPROF_PM_STATUS, TIPROF_PM_STATUS_STRAY_MASK);
	pr_write(&r, TIPROF_PM_CTRL, pr_ctrl(TIPROF_MODE_PERIODIC, 0, 0));
	pr_fetch(&r, 0xF, 0xF200);
	r.in.map = 1;
	pr_step(&r);
	CHECK_EQ(r.out.tag[3], 1, "tagged");
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_STRAY_MASK,
		 TIPROF_PM_STATUS_STRAY_MASK, "map in the tagging cycle is stray");
	ev(&r, &r.in.retire, 0); pr_step(&r);
	CHECK_EQ(RECP(&r.out.rec, 0, STAMP_B, SEEN), 0, "and not recorded");
	/* a restart (PERIOD write) in the middle of a sample leaves it alone */
	tag_next(&r, 0xF300);
	pr_write(&r, TIPROF_PM_PERIOD, 8);
	ev(&r, &r.in.retire, 0); pr_step(&r);
	CHECK_EQ(RECP(&r.out.rec, 0, PC, PC), 0xF30C, "sample unaffected by the restart");
	pr_fini(&r);
}

static void test_empty_and_priv(void)
{
	struct pmrig r;

	pmt_section("fetch opportunities: an empty selected slot records EMPTY at once; privilege filter");
	pr_init(&r, 4, 64, 4, 2);
	setup(&r, 4, pr_ctrl(TIPROF_MODE_PERIODIC, 0, TIPROF_PM_CTRL_UNIT_MASK | TIPROF_PM_CTRL_PAIR_MASK));
	r.in.fetch_ctx = 9;
	pr_step(&r);                                /* no packet: 4 opportunities, slot 3 */
	CHECK_EQ(r.out.nsel, 1, "selected");
	CHECK_EQ(r.out.tag[3], 0, "no tag on an empty slot");
	CHECK(r.out.completed && r.out.pushed, "EMPTY record in the selection cycle");
	CHECK_EQ(RECP(&r.out.rec, 0, INFO, EV), EVB(EMPTY), "EV EMPTY");
	CHECK_EQ(RECP(&r.out.rec, 0, INFO, TAGGED), 0, "not tagged");
	CHECK_EQ(RECP(&r.out.rec, 0, INFO, SLOT), 3, "SLOT 3");
	CHECK_EQ(RECP(&r.out.rec, 0, INFO, CTX), 9, "CTX");
	CHECK_EQ(REC(&r.out.rec, SINFO, PAIR), 0, "no pair for an empty slot");
	/* opportunities count invalid slots: valid 0x1 -> 4 units, slot 3 empty again */
	pr_fetch(&r, 0x1, 0x100); pr_step(&r);
	CHECK(r.out.pushed && RECP(&r.out.rec, 0, INFO, EV) == EVB(EMPTY), "EMPTY again");
	/* privilege filter: U excluded, packets in U are not counted */
	pr_write(&r, TIPROF_PM_CTRL, TIPROF_PM_CTRL_EN_MASK | (0xEu << TIPROF_PM_CTRL_PRIV_SHIFT));
	for (unsigned i = 0; i < 5; i++) {
		pr_fetch(&r, 0xF, 0x200);
		r.in.fetch_priv = TIPROF_PRIV_U;
		pr_step(&r);
		CHECK_EQ(r.out.nsel, 0, "no selection in U");
	}
	pr_fetch(&r, 0xF, 0x300);
	r.in.fetch_priv = TIPROF_PRIV_S;
	pr_step(&r);
	CHECK_EQ(r.out.tag[3], 1, "selected in S (the U packets were not counted)");
	pr_fini(&r);
}

static void test_csr_map(void)
{
	struct pmrig r;
	struct pm_csr_resp p;

	pmt_section("CSR map: reset values, PARAMS, illegal accesses, CFG_ERR, XLEN=32 halves");
	pr_init(&r, 8, 64, 300, 2);
	CHECK_EQ(pr_read(&r, TIPROF_PM_CTRL), TIPROF_PM_CTRL_RESET, "CTRL reset");
	CHECK_EQ(pr_read(&r, TIPROF_PM_PERIOD), TIPROF_PM_PERIOD_RESET, "PERIOD reset");
	CHECK_EQ(pr_read(&r, TIPROF_PM_WATERMARK), 1, "WATERMARK reset");
	CHECK_EQ(pr_read(&r, TIPROF_PM_PAIR), 64, "PAIR reset");
	CHECK_EQ(pr_read(&r, TIPROF_PM_TIMEOUT), 0xFFFF, "TIMEOUT reset");
	CHECK_EQ(pr_read(&r, TIPROF_PM_LFSR), lfsr_next_for_test(TIPROF_PM_LFSR_SEED, 5), "LFSR after 5 steps");
	CHECK_EQ(pr_read(&r, TIPROF_PM_PARAMS), 8u | (64u << 4) | (300u << 12) | (2u << 28), "PARAMS");
	p = pr_access(&r, 1, TIPROF_PM_PARAMS, 1, M);
	CHECK(p.hit && p.illegal, "write to a read-only register");
	p = pr_access(&r, 0, TIPROF_PM_TAKENH, 0, M);
	CHECK(p.hit && p.illegal, "..H on XLEN=64");
	p = pr_access(&r, 0, TIPROF_PM_RH, 0, M);
	CHECK(p.hit && p.illegal, "PM_RH on XLEN=64");
	p = pr_access(&r, 0, 0x5F5, 0, M);
	CHECK(p.hit && p.illegal, "unimplemented address in the PM range");
	p = pr_access(&r, 0, 0xDE2, 0, M);
	CHECK(p.hit && p.illegal, "0xDE2 unimplemented");
	p = pr_access(&r, 0, TIPROF_TIP_CTRL, 0, M);
	CHECK(!p.hit && !p.illegal && !p.rdata, "a TIP address is not the subsystem's");
	p = pr_access(&r, 0, TIPROF_PM_CTRL, 0, TIPROF_PRIV_S);
	CHECK(p.illegal, "S access with MENABLE.S = 0");
	r.menable = 1;
	p = pr_access(&r, 0, TIPROF_PM_CTRL, 0, TIPROF_PRIV_S);
	CHECK(!p.illegal && p.rdata == TIPROF_PM_CTRL_RESET, "S access with MENABLE.S = 1");
	p = pr_access(&r, 0, TIPROF_PM_CTRL, 0, TIPROF_PRIV_U);
	CHECK(p.illegal, "U access");
	static const struct { uint16_t a; uint64_t v; } bad[] = {
		{ TIPROF_PM_CTRL, 3u << 1 }, { TIPROF_PM_CTRL, 1u << 15 },
		{ TIPROF_PM_PERIOD, 7 }, { TIPROF_PM_PERIOD, 1ull << 32 },
		{ TIPROF_PM_WATERMARK, 0 }, { TIPROF_PM_WATERMARK, 301 },
		{ TIPROF_PM_LFSR, 0 }, { TIPROF_PM_PAIR, 0 }, { TIPROF_PM_PAIR, 257 },
		{ TIPROF_PM_TIMEOUT, 0 }, { TIPROF_PM_TIMEOUT, 0x10000 },
		{ TIPROF_PM_EVFILT, 1ull << 32 }, { TIPROF_PM_LATFILT, 7u << 16 },
		{ TIPROF_PM_LATFILT, 1u << 20 },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t before = pr_read(&r, bad[i].a);

		pr_write(&r, bad[i].a, bad[i].v);
		CHECK(pr_read(&r, TIPROF_PM_STATUS) & TIPROF_PM_STATUS_CFG_ERR_MASK,
		      "write 0x%llx to 0x%03x sets CFG_ERR", (unsigned long long)bad[i].v, bad[i].a);
		if (bad[i].a != TIPROF_PM_LFSR)
			CHECK_EQ(pr_read(&r, bad[i].a), before, "ignored");
		pr_write(&r, TIPROF_PM_STATUS, TIPROF_PM_STATUS_CFG_ERR_MASK);
	}
	pr_write(&r, TIPROF_PM_PERIOD, 8);
	pr_write(&r, TIPROF_PM_EVFILT, 0xFFFFFFFFu);
	pr_write(&r, TIPROF_PM_LATFILT, 0xEFFFFu);
	CHECK_EQ(pr_read(&r, TIPROF_PM_STATUS), 0, "legal writes at the bounds");
	CHECK_EQ(pr_read(&r, TIPROF_PM_PERIOD), 8, "PERIOD = F legal");
	pr_fini(&r);

	pr_init(&r, 2, 32, 4, 2);
	pr_write(&r, TIPROF_PM_TAKEN, 0x11111111u);
	pr_write(&r, TIPROF_PM_TAKENH, 0x22222222u);
	CHECK_EQ(r.m.taken, 0x2222222211111111ull, "TAKEN halves on XLEN=32");
	CHECK_EQ(pr_read(&r, TIPROF_PM_TAKENH), 0x22222222u, "TAKENH reads the high half");
	setup(&r, 2, pr_ctrl(TIPROF_MODE_PERIODIC, 0, 0));
	pr_fetch(&r, 0x3, 0x1FFFFFFF0ull);       /* address bits above XLEN ignored */
	pr_step(&r);
	r.in.ea_valid = 1;
	r.in.ea[0] = 0xABCDEF0123ull;
	r.in.retire = 1;
	pr_step(&r);
	struct pm_record rec;
	CHECK_EQ(pr_read_record(&r, &rec), 1, "read through PM_R/PM_RH");
	CHECK_EQ(RECP(&rec, 0, PC, PC), 0xFFFFFFF4u, "PC masked to 32 bits");
	CHECK_EQ(RECP(&rec, 0, EA, EA), 0xCDEF0123u, "EA masked to 32 bits");
	CHECK_EQ(pr_read(&r, TIPROF_PM_TAKEN), 0x11111112u, "TAKEN low half incremented");
	pr_fini(&r);
}

int main(void)
{
	test_lifecycle();
	test_abort_reasons();
	test_pairs();
	test_fifo();
	test_filters();
	test_timeout();
	test_csr_midflight();
	test_empty_and_priv();
	test_csr_map();
	return pmt_summary();
}
