/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_stage.c - the input stage (tip_model_cfg.input_stage, the RTL's InputStage parameter):
 * a unit with the stage, given ROB inputs x[t] and CSR requests c[t], behaves exactly as a unit
 * without it given x[t-1] (all-zero ROB inputs in the first cycle after reset) and c[t]: the
 * same CSR responses, interrupt, trigger and sample in every cycle. Checked over random input
 * streams (contract-keeping and arbitrary bits), random CSR traffic, and resets in the middle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmt.h"

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random ROB inputs: mostly contract-shaped (a prefix of valid entries from a head bank, a
 * prefix of them committing), sometimes arbitrary bits. */
static void random_rob(struct tiprof_rob_if *rob, unsigned w, uint64_t *s)
{
	uint64_t r = rng_next(s);
	unsigned hb = (unsigned)(r & (w - 1u)), nv = (unsigned)((r >> 3) % (w + 1u));
	unsigned nc = nv ? (unsigned)((r >> 7) % (nv + 1u)) : 0;

	memset(rob, 0, sizeof(*rob));
	rob->head_bank = (uint8_t)hb;
	if ((r >> 11) % 16u == 0) { /* arbitrary bits */
		rob->head_valid = (uint8_t)rng_next(s);
		rob->head_commit = (uint8_t)rng_next(s);
		rob->head_mispred = (uint8_t)rng_next(s);
		rob->head_flush = (uint8_t)rng_next(s);
		rob->exception = (uint8_t)(rng_next(s) & 1u);
	} else {
		for (unsigned k = 0; k < nv; k++)
			rob->head_valid |= (uint8_t)(1u << ((hb + k) % w));
		for (unsigned k = 0; k < nc; k++)
			rob->head_commit |= (uint8_t)(1u << ((hb + k) % w));
		if (nc && (r >> 15) % 8u == 0)
			rob->head_mispred = (uint8_t)(1u << ((hb + nc - 1u) % w));
		if (nc && (r >> 18) % 16u == 0)
			rob->head_flush = (uint8_t)(1u << ((hb + nc - 1u) % w));
		rob->exception = nv && !nc && (r >> 22) % 32u == 0;
	}
	rob->disp_valid = (uint8_t)((r >> 27) % 4u == 0 ? rng_next(s) : 0);
	for (unsigned b = 0; b < w; b++) {
		rob->head_pc[b] = rng_next(s) & ~1ull;
		rob->disp_pc[b] = rng_next(s) & ~1ull;
	}
	rob->priv = (uint8_t)((r >> 33) % 8u == 0 ? 1 : 3);
	rob->ctx_id = (uint16_t)((r >> 36) % 4u);
}

/* Random CSR traffic: mostly none; CTRL writes that enable periodic or random sampling with
 * small periods, reads of every register, POP writes, LFSR and WATERMARK writes. */
static void random_csr(struct tip_csr_req *c, uint64_t *s)
{
	static const uint16_t rd[] = { TIPROF_TIP_CTRL, TIPROF_TIP_STATUS, TIPROF_TIP_TAKEN,
				       TIPROF_TIP_LOST, TIPROF_TIP_FIFO_COUNT, TIPROF_TIP_S_CYCLE,
				       TIPROF_TIP_S_INFO, TIPROF_TIP_S_CTX, TIPROF_TIP_S_ADDR,
				       TIPROF_TIP_CYCLE };
	uint64_t r = rng_next(s);

	memset(c, 0, sizeof(*c));
	c->priv = 3;
	switch (r % 32u) {
	case 0:
		c->req = c->we = 1;
		c->addr = TIPROF_TIP_PERIOD;
		c->wdata = 2 + (r >> 8) % 40u;
		break;
	case 1:
		c->req = c->we = 1;
		c->addr = TIPROF_TIP_CTRL;
		c->wdata = rig_ctrl_en((r >> 8) % 3u, (r >> 12) % 6u, TIPROF_TIP_CTRL_IRQ_EN_MASK);
		break;
	case 2: case 3: case 4:
		c->req = c->we = 1;
		c->addr = TIPROF_TIP_POP;
		break;
	case 5:
		c->req = c->we = 1;
		c->addr = TIPROF_TIP_WATERMARK;
		c->wdata = 1 + (r >> 8) % 4u;
		break;
	case 6: case 7: case 8: case 9:
		c->req = 1;
		c->addr = rd[(r >> 8) % (sizeof(rd) / sizeof(rd[0]))];
		break;
	default:
		break;
	}
}

static void equivalence(unsigned w, unsigned xlen, unsigned depth, uint64_t seed,
			unsigned long cycles)
{
	struct tip_model_cfg c0 = { w, xlen, depth, 0 }, c1 = { w, xlen, depth, 1 };
	struct tip_model plain, staged;
	struct tiprof_rob_if prev, cur;
	unsigned long bad = 0, fired = 0, resets = 0;
	uint64_t s = seed;

	if (!CHECK(tip_model_init(&plain, &c0) == 0 && tip_model_init(&staged, &c1) == 0,
		   "init W=%u XLEN=%u depth=%u", w, xlen, depth))
		return;
	memset(&prev, 0, sizeof(prev));
	for (unsigned long t = 0; t < cycles && bad < 5; t++) {
		struct tip_csr_req csr;
		struct tip_csr_resp r0, r1;

		if (rng_next(&s) % 50000u == 0) { /* reset: both forget, the stage empties */
			tip_model_reset(&plain);
			tip_model_reset(&staged);
			memset(&prev, 0, sizeof(prev));
			resets++;
			continue;
		}
		random_rob(&cur, w, &s);
		random_csr(&csr, &s);
		if (tip_model_irq(&plain) != tip_model_irq(&staged))
			bad += !CHECK(0, "W=%u cycle %lu: irq %d vs staged %d", w, t,
				      tip_model_irq(&plain), tip_model_irq(&staged));
		tip_model_cycle(&plain, &prev, &csr, &r0);
		tip_model_cycle(&staged, &cur, &csr, &r1);
		fired += plain.fired;
		if (r0.rdata != r1.rdata || r0.illegal != r1.illegal || plain.fired != staged.fired ||
		    plain.fired_lost != staged.fired_lost ||
		    (plain.fired && memcmp(&plain.last, &staged.last, sizeof(plain.last))) ||
		    plain.taken != staged.taken || plain.lost != staged.lost)
			bad += !CHECK(0, "W=%u XLEN=%u depth=%u cycle %lu: staged unit differs from "
				      "the unit on delayed inputs (rdata %llx/%llx fired %d/%d)", w,
				      xlen, depth, t, (unsigned long long)r0.rdata,
				      (unsigned long long)r1.rdata, plain.fired, staged.fired);
		prev = cur;
	}
	CHECK(bad == 0 && fired > 1000, "W=%u XLEN=%u depth=%u: %lu cycles, %lu triggers, %lu "
	      "resets, %lu differences", w, xlen, depth, cycles, fired, resets, bad);
	tmt_note("W=%u XLEN=%u depth=%u: %lu cycles, %lu triggers, %lu resets: identical", w, xlen,
		 depth, cycles, fired, resets);
	tip_model_fini(&plain);
	tip_model_fini(&staged);
}

int main(void)
{
	struct tip_model m;
	struct tip_model_cfg bad = { 2, 64, 4, 2 };

	tmt_section("input stage: the staged unit on x[t] = the unit on x[t-1] (CSR port "
		    "undelayed), every cycle, random streams with resets");
	equivalence(1, 32, 1, 0x9e3779b97f4a7c15ull, 400000);
	equivalence(2, 64, 16, 0x0123456789abcdefull, 400000);
	equivalence(4, 64, 8, 0xfeedfacecafebeefull, 400000);
	equivalence(8, 32, 2, 0x5555aaaa3333ccccull, 400000);
	tmt_section("input stage: input_stage > 1 refused");
	CHECK_EQ(tip_model_init(&m, &bad), (uint64_t)(int64_t)-22, "init -EINVAL");
	tip_model_fini(&m);
	return tmt_summary();
}
