/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_paths.c - directed tests of the TIP model's commit-state paths and FIFO, all
 * through the CSR port: the exception path, a serializing (CSR) instruction, the OIR
 * taking the youngest committing instruction's flags, back-to-back samples (PERIOD=1),
 * FIFO full with the lost counter and full + pop in one cycle, several pending Drained
 * samples completing together, a POP that finds the oldest entry pending, the fallback
 * completion from the ROB head (also on a trap), reset with a pending sample, irq at
 * the watermark, the privilege filter, sampler restart on a CTRL/PERIOD write, and a
 * TAKEN/LOST write winning over an increment. Expected samples are written by hand.
 */
#include <stdio.h>
#include <string.h>

#include "tmt.h"

#define PC(x) (UINT64_C(0xffffffc000200000) + (x)) /* kernel-like 64-bit addresses */
#define PRE PC(0xff0)       /* committed before a sequence: OIR without flags */

#define ST TIPROF_SF_STALLED
#define FE TIPROF_SF_FRONTEND
#define MP TIPROF_SF_MISPRED
#define FL TIPROF_SF_FLUSH
#define EX TIPROF_SF_EXCEPTION
#define U TIPROF_PRIV_U
#define S TIPROF_PRIV_S
#define M TIPROF_PRIV_M

#define SEQ_MAX 24

/* A scripted sequence sampled in every cycle (PERIOD=1). */
struct seq {
	const char *name;
	unsigned w, n;
	struct tiprof_rob_if in[SEQ_MAX];     /* ROB inputs of cycle j */
	struct tiprof_sample want[SEQ_MAX];   /* expected sample of cycle j (cycle field set by run) */
};

/* Expected sample: flags, bank, valid, priv, ctx and 4 address slots. */
static struct tiprof_sample ex4(unsigned flags, unsigned bank, unsigned valid, unsigned priv,
				unsigned ctx, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	uint64_t a[4] = { a0, a1, a2, a3 };
	return mk_sample(0, flags, bank, valid, priv, ctx, a, 4);
}

/* Run sq with a sample in every cycle: PERIOD=1 written in cycle 0, CTRL (EN) in cycle 1,
 * both while PRE commits (OIR = PRE, no flag, priv S, ctx 1); the sequence runs from
 * cycle 2 and sampling is disabled by a CTRL write in its last cycle (which still samples).
 * Every sample is read back through the CSR port and compared. */
static void run_seq(const struct seq *sq)
{
	struct rig r;
	char what[128];

	rig_init(&r, sq->w, 64, 64);
	rob_clear(&r.rob, S, 1);
	rob_head(&r.rob, 0, PRE, 1);
	rig_write(&r, TIPROF_TIP_PERIOD, 1);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_PERIODIC, 0, 0));
	for (unsigned j = 0; j < sq->n; j++) {
		r.rob = sq->in[j];
		if (j + 1 < sq->n)
			rig_idle(&r, 1);
		else
			rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);
	}
	rob_clear(&r.rob, S, 1);
	rob_head(&r.rob, 0, PC(0xdead0), 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "STATUS (nothing pending)");
	for (unsigned j = 0; j < sq->n; j++) {
		struct tiprof_sample got, want = sq->want[j];

		want.cycle = 2 + j;
		snprintf(what, sizeof(what), "%s, cycle %u", sq->name, j);
		CHECK_EQ(rig_read_sample(&r, &got), sq->n - j, "FIFO_COUNT");
		tmt_expect_sample(&got, &want, sq->w, what);
	}
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), sq->n, "TAKEN");
	rig_fini(&r);
}

/* Start cycle j of a sequence: clear its inputs with priv/ctx and set the head bank. */
static struct tiprof_rob_if *cyc(struct seq *sq, unsigned j, uint8_t priv, uint16_t ctx,
				 unsigned hb)
{
	struct tiprof_rob_if *in = &sq->in[j];

	rob_clear(in, priv, ctx);
	in->head_bank = (uint8_t)hb;
	if (j + 1 > sq->n)
		sq->n = j + 1;
	return in;
}

/* The exception path, W=4. */
static void test_exception(void)
{
	static struct seq sq;
	const uint64_t E = PC(0x8000), F = PC(0x8004), H = PC(0x9000), J = PC(0x9004),
		       K = PC(0x9008);
	struct tiprof_rob_if *in;

	tmt_section("exception: trap cycle is Stalled, then Flushed with EXCEPTION (slot 0, OIR priv/ctx); "
		    "rob_exception ignored while empty or committing");
	memset(&sq, 0, sizeof(sq));
	sq.name = "exception";
	sq.w = 4;
	/* 0: E (bank 2, U-mode, ctx 7) traps; F behind it */
	in = cyc(&sq, 0, U, 7, 2); rob_head(in, 2, E, 0); rob_head(in, 3, F, 0); in->exception = 1;
	sq.want[0] = ex4(ST, 2, 0xc, U, 7, 0, 0, E, F);
	/* 1-3: ROB empty (inputs' priv/ctx meaningless); exception ignored; handler H dispatched in 3 */
	for (unsigned j = 1; j <= 3; j++) {
		in = cyc(&sq, j, M, 0x99, 3);
		in->exception = j == 2;
		if (j == 3)
			rob_disp(in, 3, H);
		sq.want[j] = ex4(EX, 0, 1, U, 7, E, 0, 0, 0);
	}
	/* 4: H at the head (M-mode); 5: H commits, J behind it */
	in = cyc(&sq, 4, M, 0, 3); rob_head(in, 3, H, 0);
	sq.want[4] = ex4(ST, 3, 0x8, M, 0, 0, 0, 0, H);
	in = cyc(&sq, 5, M, 0, 3); rob_head(in, 3, H, 1); rob_head(in, 0, J, 0);
	sq.want[5] = ex4(0, 3, 0x8, M, 0, 0, 0, 0, H);
	/* 6: J commits while rob_exception is (wrongly) high: ignored, OIR = J without flag */
	in = cyc(&sq, 6, M, 0, 0); rob_head(in, 0, J, 1); in->exception = 1;
	sq.want[6] = ex4(0, 0, 0x1, M, 0, J, 0, 0, 0);
	/* 7: empty, exception ignored -> Drained; 8: K dispatched into bank 1 */
	in = cyc(&sq, 7, S, 0x55, 1); in->exception = 1;
	sq.want[7] = ex4(FE, 1, 0x2, M, 0, 0, K, 0, 0);
	in = cyc(&sq, 8, S, 0x55, 1); rob_disp(in, 1, K);
	sq.want[8] = ex4(FE, 1, 0x2, M, 0, 0, K, 0, 0);
	/* 9: K traps; 10: empty -> Flushed EXCEPTION with K */
	in = cyc(&sq, 9, M, 3, 1); rob_head(in, 1, K, 0); in->exception = 1;
	sq.want[9] = ex4(ST, 1, 0x2, M, 3, 0, K, 0, 0);
	in = cyc(&sq, 10, U, 0, 2);
	sq.want[10] = ex4(EX, 0, 1, M, 3, K, 0, 0, 0);
	run_seq(&sq);
}

/* A serializing instruction (CSR access) dispatched alone into an empty ROB, W=4. */
static void test_serializing(void)
{
	static struct seq sq;
	const uint64_t Q = PC(0x9ff8), C = PC(0xa000), N1 = PC(0xa004), N2 = PC(0xa008);
	struct tiprof_rob_if *in;

	tmt_section("serializing: ROB drains (Drained -> the CSR instruction), CSR alone in the ROB, "
		    "commits with flush: Flushed with FLUSH");
	memset(&sq, 0, sizeof(sq));
	sq.name = "serializing";
	sq.w = 4;
	in = cyc(&sq, 0, S, 5, 1); rob_head(in, 1, Q, 1);           /* last before the CSR */
	sq.want[0] = ex4(0, 1, 0x2, S, 5, 0, Q, 0, 0);
	for (unsigned j = 1; j <= 3; j++) {                          /* empty; C dispatched in 3 */
		in = cyc(&sq, j, S, 5, 2);
		if (j == 3)
			rob_disp(in, 2, C);
		sq.want[j] = ex4(FE, 2, 0x4, S, 5, 0, 0, C, 0);
	}
	for (unsigned j = 4; j <= 5; j++) {                          /* C alone, waiting */
		in = cyc(&sq, j, S, 5, 2); rob_head(in, 2, C, 0);
		sq.want[j] = ex4(ST, 2, 0x4, S, 5, 0, 0, C, 0);
	}
	in = cyc(&sq, 6, S, 5, 2); rob_head(in, 2, C, 1); in->head_flush = 0x4;  /* commits */
	sq.want[6] = ex4(0, 2, 0x4, S, 5, 0, 0, C, 0);
	for (unsigned j = 7; j <= 9; j++) {                          /* flushed; refetch */
		in = cyc(&sq, j, U, 0, 3);
		if (j == 9) { rob_disp(in, 3, N1); rob_disp(in, 0, N2); }
		sq.want[j] = ex4(FL, 0, 1, S, 5, C, 0, 0, 0);
	}
	in = cyc(&sq, 10, S, 5, 3); rob_head(in, 3, N1, 0); rob_head(in, 0, N2, 0);
	sq.want[10] = ex4(ST, 3, 0x9, S, 5, N2, 0, 0, N1);
	in = cyc(&sq, 11, S, 5, 3); rob_head(in, 3, N1, 1); rob_head(in, 0, N2, 1);
	sq.want[11] = ex4(0, 3, 0x9, S, 5, N2, 0, 0, N1);
	in = cyc(&sq, 12, S, 5, 1);                                  /* empty, OIR = N2 */
	in->disp_valid = 0;
	rob_disp(in, 1, PC(0xb000));
	sq.want[12] = ex4(FE, 1, 0x2, S, 5, 0, PC(0xb000), 0, 0);
	run_seq(&sq);
}

/* OIR: flags of the youngest committing bank only; both flags at once. W=4. */
static void test_oir_youngest(void)
{
	static struct seq sq;
	const uint64_t A1 = PC(0xc000), A2 = PC(0xc004), A3 = PC(0xc008), A5 = PC(0xc010),
		       A6 = PC(0xc014), A7 = PC(0xc018);
	struct tiprof_rob_if *in;

	tmt_section("OIR: youngest committing bank (in age order from head_bank) gives address and flags");
	memset(&sq, 0, sizeof(sq));
	sq.name = "oir";
	sq.w = 4;
	/* 0: banks 3,0,1 commit (3 oldest); bank 0 (middle) has mispred: ignored */
	in = cyc(&sq, 0, S, 2, 3);
	rob_head(in, 3, A1, 1); rob_head(in, 0, A2, 1); rob_head(in, 1, A3, 1);
	in->head_mispred = 0x1;
	sq.want[0] = ex4(0, 3, 0xb, S, 2, A2, A3, 0, A1);
	in = cyc(&sq, 1, S, 2, 2);                     /* empty: Drained (A3 had no flag) */
	sq.want[1] = ex4(FE, 2, 0x4, S, 2, 0, 0, A5, 0);
	in = cyc(&sq, 2, S, 2, 2); rob_disp(in, 2, A5); rob_disp(in, 3, A6);
	sq.want[2] = sq.want[1];
	/* 3: A5 (bank 2, mispred) and A6 (bank 3, youngest, flush) commit -> OIR FLUSH, A6 */
	in = cyc(&sq, 3, S, 2, 2); rob_head(in, 2, A5, 1); rob_head(in, 3, A6, 1);
	in->head_mispred = 0x4; in->head_flush = 0x8;
	sq.want[3] = ex4(0, 2, 0xc, S, 2, 0, 0, A5, A6);
	in = cyc(&sq, 4, U, 9, 0);
	rob_disp(in, 0, A7);
	sq.want[4] = ex4(FL, 0, 1, S, 2, A6, 0, 0, 0);
	/* 5: A7 commits with both mispred and flush */
	in = cyc(&sq, 5, S, 2, 0); rob_head(in, 0, A7, 1); in->head_mispred = 1; in->head_flush = 1;
	sq.want[5] = ex4(0, 0, 0x1, S, 2, A7, 0, 0, 0);
	in = cyc(&sq, 6, S, 2, 1);
	sq.want[6] = ex4(MP | FL, 0, 1, S, 2, A7, 0, 0, 0);
	run_seq(&sq);
}

/* Back to back: PERIOD=1 after enabling in cycle t0 samples t0+1, t0+2, ... */
static void test_back_to_back(void)
{
	struct rig r;
	struct tiprof_sample s;

	tmt_section("PERIOD=1: samples in consecutive cycles from the cycle after the CTRL write");
	rig_init(&r, 2, 64, 16);
	rob_clear(&r.rob, S, 1);
	rob_head(&r.rob, 1, PC(0x100), 0);
	r.rob.head_bank = 1;
	rig_write(&r, TIPROF_TIP_PERIOD, 1);                      /* cycle 0 */
	rig_idle(&r, 8);                                          /* 1..8 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 9: no sample yet */
	rig_idle(&r, 9);                                          /* 10..18 */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 19: last sample */
	rig_idle(&r, 5);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 10, "TAKEN after cycles 10..19");
	for (unsigned i = 0; i < 10; i++) {
		CHECK_EQ(rig_read_sample(&r, &s), 10 - i, "FIFO_COUNT");
		CHECK_EQ(s.cycle, 10 + i, "S_CYCLE");
		CHECK_EQ(s.flags, ST, "flags");
		CHECK_EQ(s.valid, 2, "valid");
		CHECK_EQ(s.addr[1], PC(0x100), "addr[1]");
	}
	rig_fini(&r);
}

/* FIFO full, lost samples, and full + pop in the same cycle. */
static void test_fifo_full(void)
{
	struct rig r;
	struct tiprof_sample s;

	tmt_section("FIFO full: LOST counts, STATUS.FULL; full + POP in one cycle accepts the new sample; "
		    "POP of an empty FIFO sets POP_EMPTY");
	rig_init(&r, 2, 64, 4);
	rob_clear(&r.rob, S, 1);
	rob_head(&r.rob, 0, PC(0x200), 0);
	rig_write(&r, TIPROF_TIP_PERIOD, 1);                      /* 0 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 1 */
	rig_idle(&r, 5);                                          /* 2..6 sample */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 7 samples, lost */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), TIPROF_TIP_STATUS_FULL_MASK, "STATUS = FULL");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 4, "FIFO_COUNT");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 4, "TAKEN");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), 2, "LOST (cycles 6, 7)");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_S_CYCLE), 2, "oldest S_CYCLE");
	CHECK_EQ(r.m.cycle, 13, "cycle (peek)");
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 13 */
	CHECK(r.m.used == 4, "FIFO still full (peek)");
	rig_write(&r, TIPROF_TIP_POP, 0);                         /* 14: pop + sample accepted */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 15: sample lost */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 5, "TAKEN after full + pop");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), 3, "LOST after full + pop");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), TIPROF_TIP_STATUS_FULL_MASK, "still FULL");
	static const uint64_t want[] = { 3, 4, 5, 14 };
	for (unsigned i = 0; i < 4; i++) {
		CHECK_EQ(rig_read_sample(&r, &s), 4 - i, "FIFO_COUNT");
		CHECK_EQ(s.cycle, want[i], "S_CYCLE in order");
	}
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "STATUS empty");
	rig_write(&r, TIPROF_TIP_POP, 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), TIPROF_TIP_STATUS_POP_EMPTY_MASK, "POP_EMPTY");
	rig_write(&r, TIPROF_TIP_STATUS, TIPROF_TIP_STATUS_POP_EMPTY_MASK);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "POP_EMPTY cleared by W1C");
	rig_fini(&r);
}

/* Several pending Drained samples complete in the same cycle. W=4. */
static void test_pending_many(void)
{
	struct rig r;
	struct tiprof_sample s;
	const uint64_t D1 = PC(0xd000), D2 = PC(0xd004);

	tmt_section("pending: 4 Drained samples wait (FIFO_COUNT 0, PENDING 1) and complete together "
		    "with the first dispatched bank (head_bank order)");
	rig_init(&r, 4, 64, 16);
	rob_clear(&r.rob, S, 3);
	rob_head(&r.rob, 0, PRE, 1);
	rig_write(&r, TIPROF_TIP_PERIOD, 2);                      /* 0 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 1: samples 3,5,7,9,11 */
	rob_clear(&r.rob, U, 0x77);                               /* empty, next bank 1 */
	r.rob.head_bank = 1;
	for (unsigned t = 2; t < 10; t++) {
		if (t == 2 || t == 3) {
			rig_idle(&r, 1);
			continue;
		}
		if (t & 1) {
			CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 0, "FIFO_COUNT while pending");
		} else {
			CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), TIPROF_TIP_STATUS_PENDING_MASK,
				 "STATUS = PENDING");
		}
	}
	CHECK_EQ(r.m.pending, 4, "4 pending entries (peek)");
	/* 10: D1 into bank 2 and D2 into bank 1 -- bank 1 is first in order from head_bank 1 */
	rob_disp(&r.rob, 2, D1);
	rob_disp(&r.rob, 1, D2);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 0, "FIFO_COUNT in the completing cycle");
	rob_clear(&r.rob, S, 3);
	r.rob.head_bank = 1;
	rob_head(&r.rob, 1, D2, 0);
	rob_head(&r.rob, 2, D1, 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 4, "FIFO_COUNT = 4 one cycle later"); /* 11 */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);   /* 12 */
	static const uint64_t cyc5[] = { 3, 5, 7, 9 };
	for (unsigned i = 0; i < 4; i++) {
		uint64_t a[4] = { 0, D2, 0, 0 };
		struct tiprof_sample want = mk_sample(cyc5[i], FE, 1, 0x2, S, 3, a, 4);

		CHECK_EQ(rig_read_sample(&r, &s), 5 - i, "FIFO_COUNT");
		tmt_expect_sample(&s, &want, 4, "pending sample");
	}
	{
		uint64_t a[4] = { 0, D2, D1, 0 };
		struct tiprof_sample want = mk_sample(11, ST, 1, 0x6, S, 3, a, 4);

		CHECK_EQ(rig_read_sample(&r, &s), 1, "FIFO_COUNT");
		tmt_expect_sample(&s, &want, 4, "stalled sample after");
	}
	rig_fini(&r);

	tmt_section("pending never blocks: older complete samples pop; a POP finding the oldest entry "
		    "pending sets POP_EMPTY and removes nothing");
	rig_init(&r, 2, 64, 8);
	rob_clear(&r.rob, S, 3);
	rob_head(&r.rob, 0, PRE, 1);
	rig_write(&r, TIPROF_TIP_PERIOD, 3);                      /* 0 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 1: samples 4, 7 */
	rig_idle(&r, 3);                                          /* 2..4: 4 is Computing */
	rob_clear(&r.rob, S, 3);
	r.rob.head_bank = 1;
	rig_idle(&r, 2);                                          /* 5, 6 */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 7: Drained sample, then off */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), TIPROF_TIP_STATUS_PENDING_MASK, "PENDING");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 1, "one complete");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_S_CYCLE), 4, "oldest complete is cycle 4");
	rig_write(&r, TIPROF_TIP_POP, 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_S_INFO), 0, "S_INFO reads 0: oldest entry pending");
	rig_write(&r, TIPROF_TIP_POP, 0);                         /* oldest is pending */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS),
		 TIPROF_TIP_STATUS_PENDING_MASK | TIPROF_TIP_STATUS_POP_EMPTY_MASK,
		 "POP_EMPTY, still PENDING");
	CHECK_EQ(r.m.used, 1, "pending entry kept (peek)");
	rob_disp(&r.rob, 1, PC(0xe000));
	rig_idle(&r, 1);
	CHECK_EQ(rig_read_sample(&r, &s), 1, "completed");
	CHECK_EQ(s.cycle, 7, "S_CYCLE");
	CHECK_EQ(tiprof_sample_info(&s), FE | (1u << 8) | (2u << 16) | ((unsigned)S << 24), "S_INFO");
	CHECK_EQ(s.addr[1], PC(0xe000), "addr[1]");
	CHECK_EQ(r.m.last.addr[1], PC(0xe000), "m.last completed too (peek)");
	rig_fini(&r);
}

/* Fallback completion from the head when no dispatch is seen. W=4. */
static void test_fallback(void)
{
	struct rig r;
	struct tiprof_sample s;
	const uint64_t Z = PC(0xf000), Z2 = PC(0xf004), T = PC(0xf100);

	tmt_section("fallback: a pending sample completes from the head (head_bank, head_pc) when the ROB "
		    "is non-empty without a dispatch seen; also on a trap cycle");
	rig_init(&r, 4, 64, 8);
	rob_clear(&r.rob, S, 3);
	rob_head(&r.rob, 0, PRE, 1);
	rig_write(&r, TIPROF_TIP_PERIOD, 3);                      /* 0 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 1: samples 4, 7 */
	rob_clear(&r.rob, S, 3);
	r.rob.head_bank = 2;
	rig_idle(&r, 4);                                          /* 2..5: 4 pending */
	rob_head(&r.rob, 3, Z, 0);                                /* head_bank 2 empty still */
	rig_idle(&r, 1);                                          /* 6: bank 3 valid, head empty */
	CHECK_EQ(r.m.pending, 1, "still pending while head bank empty (peek)");
	r.rob.head_bank = 3;
	rob_head(&r.rob, 0, Z2, 0);
	rig_idle(&r, 1);                                          /* 7: completes; 7 is Stalled */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 8 */
	{
		uint64_t a[4] = { 0, 0, 0, Z };
		struct tiprof_sample want = mk_sample(4, FE, 3, 0x8, S, 3, a, 4);
		CHECK_EQ(rig_read_sample(&r, &s), 2, "FIFO_COUNT");
		tmt_expect_sample(&s, &want, 4, "fallback sample");
	}
	{
		uint64_t a[4] = { Z2, 0, 0, Z };
		struct tiprof_sample want = mk_sample(7, ST, 3, 0x9, S, 3, a, 4);
		CHECK_EQ(rig_read_sample(&r, &s), 1, "FIFO_COUNT");
		tmt_expect_sample(&s, &want, 4, "stalled sample");
	}
	/* trap while a sample is pending: completes from the head (the trapping instruction) */
	rob_clear(&r.rob, S, 3);
	r.rob.head_bank = 1;
	rig_write(&r, TIPROF_TIP_PERIOD, 1);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* next cycle samples */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* one Drained sample, pending */
	uint64_t c0 = r.m.cycle - 1;
	rob_head(&r.rob, 1, T, 0);
	r.rob.exception = 1;
	rig_idle(&r, 1);
	{
		uint64_t a[4] = { 0, T, 0, 0 };
		struct tiprof_sample want = mk_sample(c0, FE, 1, 0x2, S, 3, a, 4);
		CHECK_EQ(rig_read_sample(&r, &s), 1, "FIFO_COUNT");
		tmt_expect_sample(&s, &want, 4, "completed on a trap cycle");
	}
	rig_fini(&r);
}

/* Reset with a pending sample. */
static void test_reset_pending(void)
{
	struct rig r;

	tmt_section("reset with a pending Drained sample: every register to reset, entry discarded, "
		    "no sample appears at the later dispatch");
	rig_init(&r, 2, 64, 8);
	rob_clear(&r.rob, S, 3);
	rob_head(&r.rob, 0, PRE, 1);
	rig_write(&r, TIPROF_TIP_MENABLE, 1);
	rig_write(&r, TIPROF_TIP_WATERMARK, 5);
	rig_write(&r, TIPROF_TIP_PERIOD, 2);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, TIPROF_TIP_CTRL_IRQ_EN_MASK));
	rob_clear(&r.rob, S, 3);
	rig_idle(&r, 3);
	rig_write(&r, TIPROF_TIP_STATUS, 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), TIPROF_TIP_STATUS_PENDING_MASK, "PENDING before reset");
	CHECK(rig_read(&r, TIPROF_TIP_TAKEN) >= 1, "TAKEN counts the pending sample");
	tip_model_reset(&r.m);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_CYCLE), 0, "CYCLE = 0 in the first cycle after reset");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "STATUS");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 0, "FIFO_COUNT");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_CTRL), TIPROF_TIP_CTRL_RESET, "CTRL");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_PERIOD), TIPROF_TIP_PERIOD_RESET, "PERIOD");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_WATERMARK), TIPROF_TIP_WATERMARK_RESET, "WATERMARK");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 0, "TAKEN");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), 0, "LOST");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_MENABLE), 0, "MENABLE");
	CHECK_EQ(r.m.oir_flags | r.m.oir_addr, 0, "OIR (peek)");
	rob_disp(&r.rob, 0, PC(0x1234));
	rig_idle(&r, 1);
	rob_clear(&r.rob, S, 3);
	rob_head(&r.rob, 0, PC(0x1234), 0);
	rig_idle(&r, 3);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 0, "no sample after the dispatch");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "STATUS");
	CHECK_EQ(tip_model_irq(&r.m), 0, "irq");
	rig_fini(&r);
}

/* irq at the watermark. */
static void test_irq(void)
{
	struct rig r;

	tmt_section("irq_o = IRQ_EN & FIFO_COUNT >= WATERMARK, from registers (rises the cycle after the "
		    "3rd sample); pending samples do not count");
	rig_init(&r, 2, 64, 8);
	rob_clear(&r.rob, S, 3);
	rob_head(&r.rob, 0, PC(0x300), 0);
	rig_write(&r, TIPROF_TIP_WATERMARK, 3);                   /* 0 */
	rig_write(&r, TIPROF_TIP_PERIOD, 4);                      /* 1 */
	rig_write(&r, TIPROF_TIP_CTRL,
		  rig_ctrl_en(0, 0, TIPROF_TIP_CTRL_IRQ_EN_MASK));  /* 2: samples 6, 10, 14 */
	int ok = 1;
	for (uint64_t t = 3; t <= 16; t++) {
		rig_idle(&r, 1);                                  /* cycle t */
		int want = t >= 14;                               /* irq_o in cycle t+1 */
		ok &= CHECK_EQ(tip_model_irq(&r.m), want, "irq after cycle");
	}
	if (ok)
		tmt_note("irq_o low through cycle 14, high from cycle 15 (samples 6, 10, 14)");
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET | TIPROF_TIP_CTRL_IRQ_EN_MASK);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS) & TIPROF_TIP_STATUS_IRQ_MASK,
		 TIPROF_TIP_STATUS_IRQ_MASK, "STATUS.IRQ");
	rig_write(&r, TIPROF_TIP_POP, 0);
	CHECK_EQ(tip_model_irq(&r.m), 0, "irq drops after a POP");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS) & TIPROF_TIP_STATUS_IRQ_MASK, 0, "STATUS.IRQ");
	rig_write(&r, TIPROF_TIP_WATERMARK, 2);
	CHECK_EQ(tip_model_irq(&r.m), 1, "irq with WATERMARK 2");
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* IRQ_EN = 0 */
	CHECK_EQ(tip_model_irq(&r.m), 0, "no irq with IRQ_EN = 0");
	rig_fini(&r);

	rig_init(&r, 2, 64, 8);
	rob_clear(&r.rob, S, 3);
	rob_head(&r.rob, 0, PRE, 1);
	rig_write(&r, TIPROF_TIP_PERIOD, 2);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, TIPROF_TIP_CTRL_IRQ_EN_MASK));
	rob_clear(&r.rob, S, 3);
	rig_idle(&r, 2);                                          /* Drained sample pending */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_IRQ_EN_MASK);
	CHECK_EQ(r.m.pending, 1, "pending (peek)");
	CHECK_EQ(tip_model_irq(&r.m), 0, "a pending sample does not raise irq (WATERMARK 1)");
	rob_disp(&r.rob, 0, PC(0x400));
	rig_idle(&r, 1);
	CHECK_EQ(tip_model_irq(&r.m), 1, "irq once it completes");
	rig_fini(&r);
}

/* Privilege filter. */
static void test_priv_filter(void)
{
	struct rig r;
	struct tiprof_sample s;

	tmt_section("CTRL.PRIV filter: uses the inputs' priv when the ROB is not empty, the OIR's when "
		    "empty; a filtered trigger does not move the schedule");
	rig_init(&r, 2, 64, 16);
	rig_write(&r, TIPROF_TIP_PERIOD, 1);                      /* 0 */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_EN_MASK |
		  (1u << (TIPROF_TIP_CTRL_PRIV_SHIFT + U)));      /* 1: U only */
	/* 2: S-mode stalled (no); 3: U-mode commit (yes); 4: empty, inputs S, OIR U (yes);
	 * 5: S-mode commit (no); 6: empty, inputs U, OIR S (no); 7: U stalled (yes) */
	rob_clear(&r.rob, S, 1); rob_head(&r.rob, 0, PC(0x10), 0); rig_idle(&r, 1);
	rob_clear(&r.rob, U, 2); rob_head(&r.rob, 0, PC(0x10), 1); rig_idle(&r, 1);
	rob_clear(&r.rob, S, 1); r.rob.head_bank = 1; rob_disp(&r.rob, 1, PC(0x14)); rig_idle(&r, 1);
	rob_clear(&r.rob, S, 1); r.rob.head_bank = 1; rob_head(&r.rob, 1, PC(0x14), 1); rig_idle(&r, 1);
	rob_clear(&r.rob, U, 2); rig_idle(&r, 1);
	rob_clear(&r.rob, U, 2); rob_head(&r.rob, 0, PC(0x20), 0);
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);
	static const uint64_t want_c[] = { 3, 4, 7 };
	static const unsigned want_f[] = { 0, FE, ST };
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 3, "TAKEN");
	for (unsigned i = 0; i < 3; i++) {
		CHECK_EQ(rig_read_sample(&r, &s), 3 - i, "FIFO_COUNT");
		CHECK_EQ(s.cycle, want_c[i], "S_CYCLE");
		CHECK_EQ(s.flags, want_f[i], "flags");
		CHECK_EQ(s.priv, U, "priv");
		CHECK_EQ(s.ctx, 2, "ctx");
	}
	rig_fini(&r);

	/* PERIOD 3 from cycle 1: triggers at 4, 7, 10, 13; 7 is in S-mode and filtered */
	rig_init(&r, 2, 64, 16);
	rob_clear(&r.rob, U, 2);
	rob_head(&r.rob, 0, PC(0x10), 0);
	rig_write(&r, TIPROF_TIP_PERIOD, 3);
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_EN_MASK |
		  (1u << (TIPROF_TIP_CTRL_PRIV_SHIFT + U)));
	rig_idle(&r, 5);                                          /* 2..6 */
	r.rob.priv = S;
	rig_idle(&r, 1);                                          /* 7 */
	r.rob.priv = U;
	rig_idle(&r, 5);                                          /* 8..12 */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 13 */
	static const uint64_t want_d[] = { 4, 10, 13 };
	for (unsigned i = 0; i < 3; i++) {
		CHECK_EQ(rig_read_sample(&r, &s), 3 - i, "FIFO_COUNT");
		CHECK_EQ(s.cycle, want_d[i], "S_CYCLE (7 filtered, schedule kept)");
	}
	rig_fini(&r);
}

/* Sampler restart on CTRL / PERIOD writes. */
static void test_restart(void)
{
	struct rig r;
	struct tiprof_sample s;

	tmt_section("restart: a PERIOD write in a firing cycle still samples (old values), then the new "
		    "period; a CTRL write restarts the interval; bad writes do not restart");
	rig_init(&r, 2, 64, 16);
	rob_clear(&r.rob, S, 1);
	rob_head(&r.rob, 0, PC(0x10), 0);
	rig_write(&r, TIPROF_TIP_PERIOD, 5);                      /* 0 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 1: fires 6 */
	rig_idle(&r, 4);                                          /* 2..5 */
	rig_write(&r, TIPROF_TIP_PERIOD, 3);                      /* 6: fires; then 9, 12 */
	rig_idle(&r, 6);                                          /* 7..12 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 13: restart -> 16 (not 15) */
	rig_idle(&r, 2);                                          /* 14, 15 */
	rig_write(&r, TIPROF_TIP_PERIOD, 0);                      /* 16: fires; bad: no restart */
	rig_write(&r, TIPROF_TIP_CTRL, 0x6u);                     /* 17: MODE=3, no restart */
	rig_idle(&r, 1);                                          /* 18 */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 19: fires, then off */
	rig_idle(&r, 10);
	static const uint64_t want[] = { 6, 9, 12, 16, 19 };
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 5, "FIFO_COUNT");
	for (unsigned i = 0; i < 5; i++) {
		CHECK_EQ(rig_read_sample(&r, &s), 5 - i, "FIFO_COUNT");
		CHECK_EQ(s.cycle, want[i], "S_CYCLE");
	}
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), TIPROF_TIP_STATUS_CFG_ERR_MASK, "CFG_ERR");
	rig_fini(&r);
}

/* TAKEN / LOST writes win over increments; CSR reads show start-of-cycle values. */
static void test_counter_write(void)
{
	struct rig r;

	tmt_section("TAKEN/LOST: a write wins over an increment in the same cycle; reads show the value "
		    "at the start of the cycle");
	rig_init(&r, 2, 64, 2);
	rob_clear(&r.rob, S, 1);
	rob_head(&r.rob, 0, PC(0x10), 0);
	rig_write(&r, TIPROF_TIP_PERIOD, 1);                      /* 0 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 1: samples from 2 */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 0, "FIFO_COUNT read in a sampled cycle"); /* 2 */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 1, "FIFO_COUNT one cycle later"); /* 3: full */
	rig_write(&r, TIPROF_TIP_TAKEN, 100);                     /* 4: sample lost */
	rig_write(&r, TIPROF_TIP_LOST, UINT64_C(0x123456789a));   /* 5: lost; the write wins */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 100, "TAKEN");   /* 6: lost */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), UINT64_C(0x123456789b),
		 "LOST = written value + the loss of cycle 6");    /* 7: lost */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 8: lost, then off */
	rig_write(&r, TIPROF_TIP_POP, 0);                         /* 9 */
	rig_write(&r, TIPROF_TIP_POP, 0);                         /* 10 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 11: samples from 12 */
	rig_write(&r, TIPROF_TIP_TAKEN, 500);                     /* 12: accepted sample + write */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);    /* 13: accepted sample */
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 2, "both samples accepted");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 501, "TAKEN: the write won over cycle 12's +1, "
		 "cycle 13 added 1");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), UINT64_C(0x123456789d), "LOST");
	rig_fini(&r);
}

/* xorshift64 for the stress run (test-local state). */
static uint64_t xs(uint64_t *st)
{
	uint64_t x = *st;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return *st = x;
}

/* Inconsistent ROB inputs (head bank empty while another bank commits): the model's
 * documented choices (see the report / tip_model.c). */
static void test_inconsistent(void)
{
	struct rig r;
	struct tiprof_sample s;
	const uint64_t X = PC(0x7700), D = PC(0x7800);

	tmt_section("inconsistent inputs (model's choice): head bank empty but bank 1 commits = "
		    "Computing (inputs' priv); a Flushed sample then queues behind a pending one");
	rig_init(&r, 2, 64, 8);
	rob_clear(&r.rob, S, 3);
	rob_head(&r.rob, 0, PRE, 1);
	rig_write(&r, TIPROF_TIP_PERIOD, 1);                      /* 0 */
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));     /* 1: samples from 2 */
	rob_clear(&r.rob, U, 4);                                  /* 2: empty: Drained, pending */
	rig_idle(&r, 1);
	rob_clear(&r.rob, U, 4);                                  /* 3: head bank 0 empty, bank 1 */
	rob_head(&r.rob, 1, X, 1);                                /*    commits a mispredict */
	r.rob.head_mispred = 2;
	rig_idle(&r, 1);
	rob_clear(&r.rob, U, 4);                                  /* 4: empty: Flushed (complete) */
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 2, "FIFO_COUNT: 2 complete behind 1 pending");
	CHECK_EQ(rig_read(&r, TIPROF_TIP_S_INFO), 0, "S_INFO 0: the oldest entry is pending");
	rig_write(&r, TIPROF_TIP_POP, 0);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS),
		 TIPROF_TIP_STATUS_PENDING_MASK | TIPROF_TIP_STATUS_POP_EMPTY_MASK, "POP_EMPTY");
	rob_disp(&r.rob, 0, D);                                   /* completes the pending one */
	rig_write(&r, TIPROF_TIP_STATUS, TIPROF_TIP_STATUS_POP_EMPTY_MASK);
	uint64_t a0[2] = { D, 0 }, a1[2] = { 0, X }, a2[2] = { X, 0 };
	struct tiprof_sample w0 = mk_sample(2, FE, 0, 1, S, 3, a0, 2);
	struct tiprof_sample w1 = mk_sample(3, 0, 0, 2, U, 4, a1, 2);
	struct tiprof_sample w2 = mk_sample(4, MP, 0, 1, U, 4, a2, 2);
	CHECK_EQ(rig_read_sample(&r, &s), 3, "FIFO_COUNT after completion");
	tmt_expect_sample(&s, &w0, 2, "Drained");
	CHECK_EQ(rig_read_sample(&r, &s), 2, "FIFO_COUNT");
	tmt_expect_sample(&s, &w1, 2, "Computing with the head bank empty");
	CHECK_EQ(rig_read_sample(&r, &s), 1, "FIFO_COUNT");
	tmt_expect_sample(&s, &w2, 2, "Flushed behind the pending sample");
	rig_fini(&r);
}

/* Random ROB inputs for one cycle. consistent: the valid banks are contiguous in age order
 * from head_bank (so the head bank is valid whenever any bank is), commits are a prefix of
 * them, a trap only when nothing commits; otherwise every signal is random. */
static void random_rob(struct tiprof_rob_if *in, unsigned w, int consistent, int empty_phase,
		       uint64_t *st)
{
	const unsigned wm = (1u << w) - 1u;
	uint64_t x = xs(st);

	rob_clear(in, (uint8_t)(x & 3u), (uint16_t)(x >> 8));
	in->head_bank = (uint8_t)((x >> 4) & (w - 1u));
	if (consistent) {
		unsigned nv = empty_phase ? 0 : (unsigned)((x >> 24) % (w + 1u));
		unsigned nc = nv ? (unsigned)((x >> 32) % (nv + 1u)) : 0;
		for (unsigned k = 0; k < nv; k++) {
			unsigned b = (in->head_bank + k) & (w - 1u);
			in->head_valid |= (uint8_t)(1u << b);
			if (k < nc) {
				in->head_commit |= (uint8_t)(1u << b);
				if (((x >> (40 + k)) & 7u) == 0)
					in->head_mispred |= (uint8_t)(1u << b);
				if (((x >> (44 + k)) & 7u) == 1)
					in->head_flush |= (uint8_t)(1u << b);
			}
		}
		in->exception = nv && !nc && ((x >> 56) & 7u) == 0;
	} else if (!empty_phase) {
		in->head_valid = (uint8_t)((x >> 16) & wm);
		in->head_commit = (uint8_t)((x >> 24) & wm);
		in->head_mispred = (uint8_t)((x >> 32) & wm & ((x >> 40) & 1u ? 0xff : 0));
		in->head_flush = (uint8_t)((x >> 48) & wm & ((x >> 56) & 1u ? 0xff : 0));
		in->exception = (x >> 60) & 1u;
	}
	if ((x >> 61) % 8 == 0 || !empty_phase)
		in->disp_valid = (uint8_t)((x >> 41) & wm);
	for (unsigned b = 0; b < w; b++) {
		in->head_pc[b] = xs(st);
		in->disp_pc[b] = xs(st);
	}
}

/* Random inputs and CSR traffic; structural invariants checked after every cycle. */
static void test_stress(void)
{
	static const unsigned ws[] = { 1, 2, 4, 8 };
	const unsigned ncyc = 250000;
	uint64_t st = 0x9E3779B97F4A7C15ull;
	unsigned long fired = 0, popped = 0, drained = 0, pend_seen = 0, interleaved = 0;

	tmt_section("stress: random ROB inputs (consistent, then arbitrary), POPs and config writes, "
		    "W = 1, 2, 4, 8, FIFO depth 5 (wraps); FIFO/pending/sample invariants every cycle");
	for (unsigned ci = 0; ci < 2; ci++) {
		for (unsigned wi = 0; wi < 4; wi++) {
			struct rig r;
			const unsigned w = ws[wi], wm = (1u << w) - 1u;
			const int consistent = ci == 0;
			unsigned long taken = 0, lost = 0, bad = 0;

			rig_init(&r, w, wi & 1 ? 32 : 64, 5);
			rig_write(&r, TIPROF_TIP_PERIOD, 1);
			rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(0, 0, 0));
			for (unsigned c = 0; c < ncyc; c++) {
				struct tip_csr_req q = { 0, 0, 0, 0, M };

				random_rob(&r.rob, w, consistent, (c / 16) % 3 == 0, &st);
				uint64_t y = xs(&st);
				if (y % 3 == 0) {
					q.req = 1; q.we = 1; q.addr = TIPROF_TIP_POP;
				} else if (y % 97 == 1) {
					q.req = 1; q.we = 1; q.addr = TIPROF_TIP_PERIOD;
					q.wdata = 1 + (y >> 8) % 4;
				} else if (y % 89 == 2) {
					q.req = 1; q.we = 1; q.addr = TIPROF_TIP_CTRL;
					q.wdata = rig_ctrl_en((y >> 8) % 3, (y >> 12) % 3, 0);
				}
				int head_complete = r.m.used && !r.m.fifo[r.m.head].pending;
				tip_model_cycle(&r.m, &r.rob, &q, NULL);
				const struct tip_model *m = &r.m;
				if (q.req && q.addr == TIPROF_TIP_POP && head_complete)
					popped++;
				fired += (unsigned long)m->fired;
				lost += (unsigned long)m->fired_lost;
				taken += (unsigned long)(m->fired && !m->fired_lost);
				pend_seen += m->pending > 1;
				/* invariants */
				unsigned npend = 0, ncomplete = 0, seen_pending = 0;
				int ok = m->used <= m->cfg.fifo_depth && m->pending <= m->used &&
					 m->taken == taken && m->lost == lost;
				for (unsigned i = 0; i < m->used && ok; i++) {
					const struct tip_fifo_entry *e =
						&m->fifo[(m->head + i) % m->cfg.fifo_depth];

					if (e->pending) {
						npend++;
						seen_pending = 1;
						ok &= e->s.flags == TIPROF_SF_FRONTEND && e->s.valid == 0;
						continue;
					}
					ncomplete++;
					if (seen_pending) {
						interleaved++;
						ok &= !consistent; /* pending entries are the youngest */
					}
					ok &= e->s.valid != 0 && (e->s.valid & ~wm) == 0;
					if (e->s.flags == TIPROF_SF_FRONTEND) {
						ok &= e->s.valid == 1u << e->s.bank;
						drained++;
					}
					for (unsigned b = 0; b < TIPROF_MAX_BANKS; b++)
						if (!((e->s.valid >> b) & 1u))
							ok &= e->s.addr[b] == 0;
						else if (m->cfg.xlen == 32)
							ok &= e->s.addr[b] >> 32 == 0;
				}
				ok &= npend == m->pending && ncomplete == tip_model_fifo_count(m);
				if (!ok && bad++ < 3)
					CHECK(0, "%s W=%u cycle %u: invariant broken",
					      consistent ? "consistent" : "arbitrary", w, c);
			}
			CHECK(bad == 0, "%s inputs, W=%u: invariants held in %u cycles",
			      consistent ? "consistent" : "arbitrary", w, ncyc);
			rig_fini(&r);
		}
	}
	CHECK(drained > 0 && pend_seen > 0, "Drained samples and several pending entries occurred");
	tmt_note("%lu triggers, %lu POPs; several entries pending in %lu cycles; complete behind "
		 "pending (arbitrary inputs only) in %lu entry-cycles", fired, popped, pend_seen,
		 interleaved);
}

int main(void)
{
	printf("TIP model: commit-state paths, FIFO and sampler corner cases (CSR port)\n");
	test_exception();
	test_serializing();
	test_oir_youngest();
	test_back_to_back();
	test_fifo_full();
	test_pending_many();
	test_fallback();
	test_reset_pending();
	test_irq();
	test_priv_filter();
	test_restart();
	test_counter_write();
	test_inconsistent();
	test_stress();
	return tmt_summary();
}
