/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_fig4.c - the four worked examples of the TIP paper's Figure 4 (Computing,
 * Stalled, Flushed, Drained) on a 2-wide core (W=2, XLEN=64), cycle by cycle.
 *
 * For every cycle j of every example, a fresh unit is programmed through the CSR
 * port exactly as software would (TIP_PERIOD, then TIP_CTRL with EN, PERIODIC mode
 * and every privilege bit) so that its first sample falls in cycle j; the sample is
 * read back with TIP_FIFO_COUNT / TIP_S_* reads and a TIP_POP write, and compared with
 * the sample TIP's policy implies for that cycle (hand-written tables below, not
 * derived from the model). While the example runs after the sampled cycle, the CSR
 * port polls TIP_STATUS.PENDING / TIP_FIFO_COUNT, so a Drained sample is seen to stay
 * pending until the first instruction dispatches, and no other sample to be pending.
 * Each example is then run once more with PERIOD=1: a sample in every cycle,
 * back to back, all read back in order.
 */
#include <stdio.h>
#include <string.h>

#include "tmt.h"

#define W 2
#define B 200                        /* first cycle of every example */
#define PRIV_EX TIPROF_PRIV_S        /* privilege of the example's instructions */
#define CTX_EX 0x42                  /* and their context id */
#define PC(x) (UINT64_C(0x0000003f80000000) + (x)) /* instruction addresses (above 4 GiB) */
#define P0 PC(0x0ffc)                /* the instruction that commits just before cycle B */
#define PC_REST PC(0xdead0)          /* the stalled head while the sample is read back */

#define ST TIPROF_SF_STALLED
#define FE TIPROF_SF_FRONTEND
#define MP TIPROF_SF_MISPRED

struct example {
	const char *name;
	unsigned n;                                            /* cycles */
	void (*inputs)(unsigned j, struct tiprof_rob_if *rob); /* ROB inputs of cycle j */
	/* Expected sample for a sample taken in example cycle j (cycle field left 0).
	 * Returns the example cycle in which the sample completes (j unless Drained). */
	unsigned (*expect)(unsigned j, struct tiprof_sample *s);
};

/* Expected sample with W=2 slots and the example's priv/ctx. */
static struct tiprof_sample ex2(unsigned flags, unsigned bank, unsigned valid, uint64_t a0,
				uint64_t a1)
{
	uint64_t a[2] = { a0, a1 };
	return mk_sample(0, flags, bank, valid, PRIV_EX, CTX_EX, a, W);
}

/* ---- (a) Computing: two instructions commit in the same cycle ---- */
#define I1 PC(0x2000)
#define I2 PC(0x2004)
#define I3 PC(0x2008)
#define I4 PC(0x200c)
#define I5 PC(0x2010)
#define I6 PC(0x2014)
static void in_a(unsigned j, struct tiprof_rob_if *r)
{
	rob_clear(r, PRIV_EX, CTX_EX);
	switch (j) {
	case 0: r->head_bank = 0; rob_head(r, 0, I1, 0); rob_head(r, 1, I2, 0); break;
	case 1: r->head_bank = 0; rob_head(r, 0, I1, 1); rob_head(r, 1, I2, 1); break;
	case 2: r->head_bank = 0; rob_head(r, 0, I3, 1); rob_head(r, 1, I4, 0); break;
	case 3: r->head_bank = 1; rob_head(r, 1, I4, 1); rob_head(r, 0, I5, 1); break;
	default: r->head_bank = 1; rob_head(r, 1, I6, 1); break;
	}
}
static unsigned ex_a(unsigned j, struct tiprof_sample *s)
{
	switch (j) {
	case 0: *s = ex2(ST, 0, 3, I1, I2); break; /* waiting: both heads */
	case 1: *s = ex2(0, 0, 3, I1, I2); break;  /* I1, I2 commit: 1/2 cycle each */
	case 2: *s = ex2(0, 0, 1, I3, 0); break;   /* only I3 commits */
	case 3: *s = ex2(0, 1, 3, I5, I4); break;  /* I4 (bank 1, oldest) and I5 (bank 0) */
	default: *s = ex2(0, 1, 2, 0, I6); break;  /* I6 alone in bank 1 */
	}
	return j;
}

/* ---- (b) Stalled: a load misses and stalls the ROB head for 40 cycles ---- */
#define I0 PC(0x3000)
#define LD PC(0x3004)
#define AD PC(0x3008)
static void in_b(unsigned j, struct tiprof_rob_if *r)
{
	rob_clear(r, PRIV_EX, CTX_EX);
	if (j == 0) {
		r->head_bank = 0;
		rob_head(r, 0, I0, 1);
		rob_head(r, 1, LD, 0);
	} else {
		r->head_bank = 1;
		rob_head(r, 1, LD, j == 41);
		rob_head(r, 0, AD, j == 41);
	}
}
static unsigned ex_b(unsigned j, struct tiprof_sample *s)
{
	if (j == 0)
		*s = ex2(0, 0, 1, I0, 0);          /* I0 commits */
	else if (j <= 40)
		*s = ex2(ST, 1, 3, AD, LD);        /* load at the head, 40 cycles */
	else
		*s = ex2(0, 1, 3, AD, LD);         /* load and add commit */
	return j;
}

/* ---- (c) Flushed: a mispredicted branch commits, the ROB is empty for 4 cycles ---- */
#define IX PC(0x4000)
#define BR PC(0x4004)
#define T1 PC(0x5000)
#define T2 PC(0x5004)
static void in_c(unsigned j, struct tiprof_rob_if *r)
{
	rob_clear(r, PRIV_EX, CTX_EX);
	switch (j) {
	case 0: /* the branch has resolved (wrong path squashed) but IX ahead of it commits */
		r->head_bank = 0; rob_head(r, 0, IX, 1); rob_head(r, 1, BR, 0);
		r->head_mispred = 2; break;
	case 1: r->head_bank = 1; rob_head(r, 1, BR, 1); r->head_mispred = 2; break;
	case 2: case 3: case 4: case 5:
		/* empty: priv/ctx inputs are meaningless (the OIR's are used) */
		rob_clear(r, TIPROF_PRIV_M, 0x7777);
		r->head_bank = 0;
		if (j == 5) { rob_disp(r, 0, T1); rob_disp(r, 1, T2); }
		break;
	case 6: r->head_bank = 0; rob_head(r, 0, T1, 0); rob_head(r, 1, T2, 0); break;
	default: r->head_bank = 0; rob_head(r, 0, T1, 1); rob_head(r, 1, T2, 0); break;
	}
}
static unsigned ex_c(unsigned j, struct tiprof_sample *s)
{
	switch (j) {
	case 0: *s = ex2(0, 0, 1, IX, 0); break;
	case 1: *s = ex2(0, 1, 2, 0, BR); break;          /* the branch commits */
	case 2: case 3: case 4: case 5:
		*s = ex2(MP, 0, 1, BR, 0); break;         /* Flushed: the branch, slot 0 */
	case 6: *s = ex2(ST, 0, 3, T1, T2); break;
	default: *s = ex2(0, 0, 1, T1, 0); break;
	}
	return j;
}

/* ---- (d) Drained: an I-cache miss; the ROB drains, the sample waits for dispatch ---- */
#define IY PC(0x6000)
#define U1 PC(0x7000)
#define U2 PC(0x7004)
static void in_d(unsigned j, struct tiprof_rob_if *r)
{
	rob_clear(r, PRIV_EX, CTX_EX);
	if (j == 0) {
		r->head_bank = 0;
		rob_head(r, 0, IY, 1);                 /* last instruction before the miss */
	} else if (j <= 7) {
		rob_clear(r, TIPROF_PRIV_U, 0x1234);   /* empty: inputs meaningless */
		r->head_bank = 1;                      /* next dispatch goes to bank 1 */
		if (j == 7) {                          /* the miss returns */
			rob_disp(r, 1, U1);
			rob_disp(r, 0, U2);
		}
	} else {
		r->head_bank = 1;
		rob_head(r, 1, U1, j == 9);
		rob_head(r, 0, U2, j == 9);
	}
}
static unsigned ex_d(unsigned j, struct tiprof_sample *s)
{
	if (j == 0) {
		*s = ex2(0, 0, 1, IY, 0);
		return 0;
	}
	if (j <= 7) {
		*s = ex2(FE, 1, 2, 0, U1); /* the first instruction to dispatch, bank 1 */
		return 7;
	}
	*s = j == 8 ? ex2(ST, 1, 3, U2, U1) : ex2(0, 1, 3, U2, U1);
	return j;
}

static const struct example examples[] = {
	{ "(a) Computing: two instructions commit together", 5, in_a, ex_a },
	{ "(b) Stalled: 40-cycle load miss at the ROB head", 42, in_b, ex_b },
	{ "(c) Flushed: mispredicted branch, ROB empty 4 cycles", 8, in_c, ex_c },
	{ "(d) Drained: I-cache miss drains the ROB", 10, in_d, ex_d },
};

/* ROB inputs before the example: P0 waits at the head of bank 1 and commits in cycle
 * B-1 (OIR = P0, no flag), so the next head is bank 0. */
static void in_prologue(uint64_t t, struct tiprof_rob_if *r)
{
	rob_clear(r, PRIV_EX, CTX_EX);
	r->head_bank = 1;
	rob_head(r, 1, P0, t == B - 1);
}

/* ROB inputs after the example (while reading back): a stalled head. */
static void in_rest(struct tiprof_rob_if *r)
{
	rob_clear(r, PRIV_EX, CTX_EX);
	r->head_bank = 0;
	rob_head(r, 0, PC_REST, 0);
}

/* One-line description of a sample, without its cycle. */
static void fmt_sample(char *buf, size_t n, const struct tiprof_sample *s)
{
	static const char *const fl[] = { "STALLED", "FRONTEND", "MISPRED", "FLUSH", "EXCEPTION" };
	char f[64] = "";

	for (unsigned i = 0; i < 5; i++)
		if (s->flags & (1u << i))
			snprintf(f + strlen(f), sizeof(f) - strlen(f), "%s%s", *f ? "|" : "", fl[i]);
	snprintf(buf, n, "%-9s bank %u valid %u%u slot0 %#llx slot1 %#llx priv %u ctx %#x",
		 *f ? f : "Computing", s->bank, (s->valid >> 1) & 1u, s->valid & 1u,
		 (unsigned long long)s->addr[0], (unsigned long long)s->addr[1], s->priv, s->ctx);
}

/* The example with a single sample in each of its cycles in turn. */
static void run_single(const struct example *ex)
{
	char what[96];

	for (unsigned j = 0; j < ex->n; j++) {
		struct rig r;
		struct tiprof_sample want, got;
		const uint64_t c = B + j;           /* the sampled cycle */
		unsigned done = ex->expect(j, &want);

		want.cycle = c;
		rig_init(&r, W, 64, 4);
		in_prologue(0, &r.rob);
		rig_write(&r, TIPROF_TIP_PERIOD, c - 1);                    /* cycle 0 */
		in_prologue(1, &r.rob);
		rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_PERIODIC, 0, 0)); /* 1 */
		for (uint64_t t = 2; t < B; t++) {
			in_prologue(t, &r.rob);
			rig_idle(&r, 1);
		}
		for (unsigned k = 0; k < ex->n; k++) {
			ex->inputs(k, &r.rob);
			if (k <= j) {
				rig_idle(&r, 1);
				continue;
			}
			/* the state after cycle k-1: complete iff it completed in a cycle <= k-1 */
			int complete = k - 1 >= done;
			snprintf(what, sizeof(what), "%s j=%u: poll in cycle %u", ex->name, j, k);
			if (k & 1) {
				CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), complete, what);
			} else {
				uint64_t st = rig_read(&r, TIPROF_TIP_STATUS);
				CHECK_EQ(st & TIPROF_TIP_STATUS_PENDING_MASK,
					 complete ? 0 : TIPROF_TIP_STATUS_PENDING_MASK, what);
			}
		}
		in_rest(&r.rob);
		snprintf(what, sizeof(what), "%s, sample in cycle %u", ex->name, j);
		CHECK_EQ(rig_read(&r, TIPROF_TIP_STATUS), 0, "STATUS before read-back");
		CHECK_EQ(rig_read_sample(&r, &got), 1, "FIFO_COUNT");
		tmt_expect_sample(&got, &want, W, what);
		CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), 0, "FIFO_COUNT after POP");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_S_INFO), 0, "S_INFO reads 0 when empty");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), 1, "TAKEN");
		CHECK_EQ(rig_read(&r, TIPROF_TIP_LOST), 0, "LOST");
		rig_fini(&r);
	}
}

/* The example with PERIOD=1: a sample in every one of its cycles, back to back. */
static void run_every_cycle(const struct example *ex)
{
	struct rig r;
	char what[96];

	rig_init(&r, W, 64, 64);
	in_prologue(0, &r.rob);
	rig_write(&r, TIPROF_TIP_PERIOD, 1);
	for (uint64_t t = 1; t < B - 1; t++) {
		in_prologue(t, &r.rob);
		rig_idle(&r, 1);
	}
	in_prologue(B - 1, &r.rob);
	rig_write(&r, TIPROF_TIP_CTRL, rig_ctrl_en(TIPROF_MODE_PERIODIC, 0, 0)); /* B-1 */
	for (unsigned k = 0; k + 1 < ex->n; k++) {
		ex->inputs(k, &r.rob);
		rig_idle(&r, 1);
	}
	ex->inputs(ex->n - 1, &r.rob);
	rig_write(&r, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET);  /* disable: still samples here */
	in_rest(&r.rob);
	CHECK_EQ(rig_read(&r, TIPROF_TIP_FIFO_COUNT), ex->n, "PERIOD=1: FIFO_COUNT");
	for (unsigned j = 0; j < ex->n; j++) {
		struct tiprof_sample want, got;

		ex->expect(j, &want);
		want.cycle = B + j;
		snprintf(what, sizeof(what), "%s, PERIOD=1, sample %u", ex->name, j);
		CHECK_EQ(rig_read_sample(&r, &got), ex->n - j, "FIFO_COUNT");
		tmt_expect_sample(&got, &want, W, what);
	}
	CHECK_EQ(rig_read(&r, TIPROF_TIP_TAKEN), ex->n, "TAKEN");
	rig_fini(&r);
}

/* Print the expected samples, runs of equal samples collapsed. */
static void print_table(const struct example *ex)
{
	unsigned j = 0;
	char buf[200], range[32];

	while (j < ex->n) {
		struct tiprof_sample a, b;
		unsigned k = j + 1, done = ex->expect(j, &a);

		while (k < ex->n) {
			unsigned d2 = ex->expect(k, &b);
			/* same sample, and the same completion (immediate, or the same cycle) */
			if (!tmt_sample_same(&a, &b, W) || (done == j ? d2 != k : d2 != done))
				break;
			k++;
		}
		fmt_sample(buf, sizeof(buf), &a);
		if (k - 1 == j)
			snprintf(range, sizeof(range), "%u", j);
		else
			snprintf(range, sizeof(range), "%u..%u", j, k - 1);
		if (done != j)
			tmt_note("cycle %-6s %s (pending until the dispatch in cycle %u)", range,
				 buf, done);
		else
			tmt_note("cycle %-6s %s", range, buf);
		j = k;
	}
}

int main(void)
{
	char desc[160];

	printf("TIP model: Figure 4 of the TIP paper on a 2-wide core (W=2, XLEN=64)\n");
	for (unsigned e = 0; e < sizeof(examples) / sizeof(examples[0]); e++) {
		snprintf(desc, sizeof(desc), "%s: a sample in each of its %u cycles",
			 examples[e].name, examples[e].n);
		tmt_section(desc);
		print_table(&examples[e]);
		run_single(&examples[e]);
		snprintf(desc, sizeof(desc), "%s: PERIOD=1, %u back-to-back samples",
			 examples[e].name, examples[e].n);
		tmt_section(desc);
		run_every_cycle(&examples[e]);
	}
	return tmt_summary();
}
