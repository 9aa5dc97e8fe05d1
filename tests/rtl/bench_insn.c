/* SPDX-License-Identifier: Apache-2.0 */
/* Directed bench of the instruction trigger (CTRL.TRIGGER = 1, docs/tip-unit.md "The
 * instruction trigger"): a full ROB commits 0..W instructions a cycle, instruction q at address
 * BASE + 4q, and a driver drains every sample through the CSR port (S_INFO, the valid slots'
 * S_ADDRi, POP). Phase 1, PERIODIC, PERIOD 4W+3: the samples name exactly instructions P-1,
 * 2P-1, ..., one VALID bit each, no flag. Phase 2, RANDOM_INTERVAL, PERIOD 2W, k = 8: one
 * selection per interval of PERIOD instructions, records with two instructions (selections A
 * and B in one cycle) on W > 1. The harness compares every cycle with the C model as well. */
#include <stdlib.h>
#include <string.h>

#include "tb.h"

#define BASE 0x4000u
#define PHASE_CYCLES 6000u

struct insn_state {
	struct tip_model_cfg cfg;
	uint64_t rng;
	uint64_t seq;         /* number of the next instruction to commit */
	uint64_t seq0;        /* ... at the phase's CTRL write (phase instruction q = seq - seq0) */
	unsigned hb;          /* head bank */
	unsigned phase;       /* 1, 2; 3 = done */
	uint64_t t_phase;     /* first cycle of the phase (its CTRL write) */
	uint32_t period;
	/* drain: read S_INFO; if a sample, read the valid slots' addresses, then POP */
	unsigned dstep;       /* 0 idle/read info, 1.. address reads, then pop */
	unsigned info;        /* S_INFO of the sample being read */
	unsigned slots[2], nslots;
	uint64_t addrs[2];
	int pending_read;     /* which read the answer in prev belongs to: 1 info, 2 addr */
	/* results of the phase */
	uint64_t nsel, two, bad;
	uint64_t last_q;      /* interval of the last selection */
};

static uint64_t rnd(struct insn_state *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545F4914F6CDD1Dull;
}

/* A drained sample with nslots instructions at addrs[]. */
static int got_sample(struct tb *tb, struct insn_state *s)
{
	uint64_t q[2];

	if ((s->info & 0x1fu) || s->nslots < 1 || s->nslots > 2)
		return tb_fail(tb, "insn phase %u: sample S_INFO 0x%x is not an instruction sample",
			       s->phase, s->info);
	for (unsigned i = 0; i < s->nslots; i++) {
		if (s->addrs[i] < BASE || (s->addrs[i] - BASE) % 4u)
			return tb_fail(tb, "insn phase %u: address 0x%llx is no instruction", s->phase,
				       (unsigned long long)s->addrs[i]);
		q[i] = (s->addrs[i] - BASE) / 4u - s->seq0;
	}
	if (s->nslots == 2) {
		s->two++;
		if (q[1] < q[0]) {
			uint64_t x = q[0];

			q[0] = q[1];
			q[1] = x;
		}
	}
	for (unsigned i = 0; i < s->nslots; i++) {
		uint64_t want = s->phase == 1 ? (s->nsel + 1) * s->period - 1 : 0;

		if (s->phase == 1 && q[i] != want)
			return tb_fail(tb, "insn periodic: selection %llu is instruction %llu, expected %llu",
				       (unsigned long long)s->nsel, (unsigned long long)q[i],
				       (unsigned long long)want);
		/* one selection per interval: each in a later interval than the one before (a
		 * FIFO of depth 1 or 2 may lose one of two close selections: LOST counts it) */
		if (s->phase == 2 && s->nsel && q[i] / s->period <= s->last_q)
			return tb_fail(tb, "insn random interval: selection %llu is instruction %llu, "
				       "in interval %llu again (PERIOD %u)", (unsigned long long)s->nsel,
				       (unsigned long long)q[i], (unsigned long long)s->last_q, s->period);
		s->last_q = q[i] / s->period;
		s->nsel++;
		tb_pass(tb);
	}
	return 0;
}

static int end_phase(struct tb *tb, struct insn_state *s)
{
	uint64_t ninsn = s->seq - s->seq0, nint = ninsn / s->period;

	if (s->phase == 1 && s->nsel != nint)
		return tb_fail(tb, "insn periodic: %llu selections over %llu instructions (PERIOD %u)",
			       (unsigned long long)s->nsel, (unsigned long long)ninsn, s->period);
	if (s->phase == 2 && (s->nsel < nint - nint / 10 || s->nsel > nint + 1))
		return tb_fail(tb, "insn random interval: %llu selections over %llu instructions "
			       "(PERIOD %u)", (unsigned long long)s->nsel, (unsigned long long)ninsn,
			       s->period);
	if (s->phase == 2 && s->cfg.w > 1 && !s->two)
		return tb_fail(tb, "insn random interval: no record with two instructions");
	fprintf(tb->log, "insn phase %u: PERIOD %u, %llu instructions, %llu selections, %llu "
		"records with two\n", s->phase, s->period, (unsigned long long)ninsn,
		(unsigned long long)s->nsel, (unsigned long long)s->two);
	tb_pass(tb);
	return 0;
}

static int insn_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		     struct tb_in *in)
{
	struct insn_state *s = state;
	struct tiprof_rob_if *r = &in->rob;
	unsigned w = s->cfg.w, n = 0;
	uint64_t dt = t - s->t_phase;

	/* the answer to last cycle's read */
	if (s->pending_read == 1 && prev->resp.rdata) {
		s->info = (unsigned)prev->resp.rdata;
		s->nslots = 0;
		for (unsigned b = 0; b < w; b++)
			if ((s->info >> (TIPROF_TIP_S_INFO_VALID_SHIFT + b)) & 1u) {
				if (s->nslots < 2)
					s->slots[s->nslots] = b;
				s->nslots++;
			}
		s->dstep = 1;
	} else if (s->pending_read == 2) {
		s->addrs[s->dstep - 2] = prev->resp.rdata;
	}
	s->pending_read = 0;

	if (t == 0) {
		in->rst = 1;
		return 0;
	}
	/* ROB: full, every bank valid; commits only well inside a phase (the input stage delays
	 * the ROB by a cycle: nothing commits around a CTRL write) */
	if (dt >= 3 && dt < PHASE_CYCLES - 40) {
		n = (unsigned)(rnd(s) % (w + 1));
		if (rnd(s) % 4 == 0)
			n = 0;
	}
	r->head_bank = (uint8_t)s->hb;
	r->priv = 3;
	for (unsigned k = 0; k < w; k++) {
		unsigned b = (s->hb + k) % w;

		r->head_valid |= (uint8_t)(1u << b);
		r->head_pc[b] = BASE + 4u * (s->seq + k);
		if (k < n)
			r->head_commit |= (uint8_t)(1u << b);
	}
	s->seq += n;
	s->hb = (s->hb + n) % w;

	/* CSR: programming at a phase's start, else the drain */
	if (dt == 0) {
		if (s->phase == 3)
			return 1;
		s->period = s->phase == 1 ? 4u * w + 3u : w > 1 ? 2u * w : 8u;
		tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, s->period, 3);
		return 0;
	}
	if (dt == 1) {
		tb_csr(&in->csr, 1, TIPROF_TIP_LFSR, 0x9E3779B9u ^ (uint32_t)tb->seed, 3);
		return 0;
	}
	if (dt == 2) {
		uint32_t mode = s->phase == 1 ? TIPROF_MODE_PERIODIC : TIPROF_MODE_RANDOM_INTERVAL;

		tb_csr(&in->csr, 1, TIPROF_TIP_CTRL,
		       TIPROF_TIP_CTRL_EN_MASK | mode << TIPROF_TIP_CTRL_MODE_SHIFT |
		       TIPROF_TIP_CTRL_PRIV_MASK | 8u << TIPROF_TIP_CTRL_RAND_BITS_SHIFT |
		       TIPROF_TIP_CTRL_TRIGGER_MASK, 3);
		s->seq0 = s->seq;
		s->nsel = s->two = 0;
		return 0;
	}
	if (dt == PHASE_CYCLES - 1) {
		/* next phase: counted from the next cycle, whose first access is its PERIOD write */
		if (end_phase(tb, s))
			return -1;
		s->t_phase = t + 1;
		s->phase++;
		s->dstep = 0;
		tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, TIPROF_TIP_CTRL_RESET, 3);
		return 0;
	}
	if (s->dstep == 0) {
		tb_csr(&in->csr, 0, TIPROF_TIP_S_INFO, 0, 3);
		s->pending_read = 1;
	} else if (s->dstep <= s->nslots && s->dstep <= 2) {
		tb_csr(&in->csr, 0, (uint16_t)(TIPROF_TIP_S_ADDR + s->slots[s->dstep - 1]), 0, 3);
		s->pending_read = 2;
		s->dstep++;
	} else {
		tb_csr(&in->csr, 1, TIPROF_TIP_POP, 0, 3);
		s->dstep = 0;
		if (got_sample(tb, s))
			return -1;
	}
	return 0;
}

static int insn_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
		       uint64_t seed, uint64_t cycles)
{
	struct insn_state *s = calloc(1, sizeof(*s));

	(void)tb;
	(void)cycles;
	if (!s)
		return -1;
	s->cfg = *cfg;
	s->rng = seed * 0x9E3779B97F4A7C15ull + 0x1234567u;
	s->phase = 1;
	s->t_phase = 1;
	b->state = s;
	b->step = insn_step;
	return 0;
}

static void insn_destroy(struct tb_bench *b)
{
	free(b->state);
	b->state = NULL;
}

const struct tb_bench_desc tb_bench_insn = {
	"insn_trigger", "directed: the instruction trigger, periodic and random-interval, drained",
	insn_create, insn_destroy,
};
