/* SPDX-License-Identifier: Apache-2.0 */
/*
 * core_sd.c - selective dispatch (Xtpsd, docs/seldisp.md sections 5-6; docs/core.md
 * "Selective dispatch") in the core model's front end: the decode filter (a profile
 * instruction whose flag is clear takes a fetch slot, a fetch-buffer entry and a decode slot,
 * and no ROB entry), the fetch of skipped pf.blk blocks (the ISS never executes them, so the
 * core reads their bytes itself), the speculative front-end copy of pfstate with its
 * checkpoints and the poppf hazard, the three strategies for branches inside profile blocks,
 * and the profile flag predictor (block descriptor table: leader, follow address, prediction
 * bit, lock) with misprediction detection and recovery. cfg.sd_blk 1 skips a pf.blk block by a
 * decode redirect instead of fetching it, as the RTL does. Only used with cfg.sd_mode 1; core.c
 * calls in from fetch (core_sd_walk, core_sd_profile, core_sd_fetched, core_sd_predict) and
 * from dispatch (core_sd_decode_drops).
 */
#include <stdlib.h>
#include <string.h>

#include "core_int.h"
#include "tiprof/seldisp.h"

/* Dropped instructions waiting in the fetch buffer: n of them, decodable from t_avail, due
 * just before ring entry before_seq (in program order). */
struct sd_drop {
	uint64_t before_seq, t_avail;
	unsigned n;
	int prof;	/* its first instruction is a profile instruction (the poppf hazard) */
};

/* A block descriptor: leader (pc + 1, 0 = empty), follow address, prediction bit (the flag
 * last seen at decode), flag index. The lock bit of the seed is kept per flag (lock_n): an
 * entry of flag f is locked exactly while a writer of f is between fetch and decode, which
 * is what setting the lock bit on every such entry at the writer's fetch and clearing it at
 * its decode does. */
struct sd_bdt {
	uint64_t tag, follow;
	uint8_t pred, f;
};

#define SD_NBLK 8	/* executing profile blocks remembered for profile-branch detection */

struct core_sd {
	uint64_t spec;			/* the front end's speculative pfstate */
	struct sd_drop *dq;		/* dropped instructions in the fetch buffer, oldest first */
	unsigned dq_head, dq_n, dq_cap;
	uint64_t walk_pc, walk_end;	/* a skipped block being fetched: [walk_pc, walk_end) */
	unsigned lock_n[TIPROF_SD_NFLAGS]; /* writers of flag f fetched, not yet decoded */
	uint64_t poppf_ready;		/* first decode cycle of a profile instruction after the
					 * last poppf (sd_poppf_lat) */
	struct sd_bdt *bdt;		/* sd_bdt_entries (sd_pfp) */
	uint8_t *btb_prof;		/* btb_entries: the entry is a profile branch (sd_bp 3) */
	/* the run of pf.inc/pf.incr being decoded (its leader's follow address is learned) */
	int run_on;
	uint64_t run_leader, run_next;
	unsigned run_f;
	/* executing (flag set) profile blocks, [lo, hi) */
	struct { uint64_t lo, hi; } blk[SD_NBLK];
	unsigned blk_next;
};

/* Contract in core_int.h. */
int core_sd_init(struct core *c)
{
	struct core_sd *s = calloc(1, sizeof(*s));

	c->sd = s;
	if (!s)
		return -1;
	s->dq_cap = c->cfg.fetch_buf + 2;
	s->dq = calloc(s->dq_cap, sizeof(*s->dq));
	if (c->cfg.sd_pfp)
		s->bdt = calloc(c->cfg.sd_bdt_entries, sizeof(*s->bdt));
	s->btb_prof = calloc(c->cfg.btb_entries, 1);
	if (!s->dq || (c->cfg.sd_pfp && !s->bdt) || !s->btb_prof)
		return -1;
	s->spec = iss_pfstate(c->iss);
	c->sd_on = 1;
	return 0;
}

/* Contract in core_int.h. */
void core_sd_free(struct core *c)
{
	if (!c->sd)
		return;
	free(c->sd->dq);
	free(c->sd->bdt);
	free(c->sd->btb_prof);
	free(c->sd);
	c->sd = NULL;
}

/* Contract in core_int.h. */
int core_sd_walking(const struct core *c) { return c->sd->walk_pc < c->sd->walk_end; }

/* Contract in core_int.h. */
void core_sd_resync(struct core *c)
{
	struct core_sd *s = c->sd;

	s->spec = iss_pfstate(c->iss);
	s->walk_pc = s->walk_end = 0;
	s->run_on = 0;
	memset(s->lock_n, 0, sizeof(s->lock_n));
}

/* One more instruction fetched now that decode will drop (prof: a profile instruction). */
static void drop_add(struct core *c, int prof)
{
	struct core_sd *s = c->sd;
	struct sd_drop *d = s->dq_n ? &s->dq[(s->dq_head + s->dq_n - 1) % s->dq_cap] : NULL;
	uint64_t t_avail = c->now + c->cfg.frontend_lat;

	if (d && !prof && d->before_seq == c->tail_seq && d->t_avail == t_avail) {
		d->n++;
	} else {
		d = &s->dq[(s->dq_head + s->dq_n++) % s->dq_cap];
		d->before_seq = c->tail_seq;
		d->t_avail = t_avail;
		d->n = 1;
		d->prof = prof;
	}
	c->sd_drop_n++;
	c->st.sd_fetch_drop++;
}

/* Contract in core_int.h. */
int core_sd_decode_drops(struct core *c, unsigned *slots)
{
	struct core_sd *s = c->sd;

	while (s->dq_n && *slots < c->cfg.width) {
		struct sd_drop *d = &s->dq[s->dq_head];
		unsigned k;

		if (d->before_seq != c->disp_seq)
			return 0;	/* a real instruction comes first */
		if (d->t_avail > c->now)
			return 1;	/* still in the front-end pipeline */
		if (d->prof && core_sd_poppf_wait(c))
			return 1;
		d->prof = 0;
		k = d->n < c->cfg.width - *slots ? d->n : c->cfg.width - *slots;
		d->n -= k;
		*slots += k;
		c->sd_drop_n -= k;
		c->st.sd_dropped += k;
		if (!d->n) {
			s->dq_head = (s->dq_head + 1) % s->dq_cap;
			s->dq_n--;
		}
	}
	return 0;
}

/* Contract in core_int.h. */
int core_sd_poppf_wait(struct core *c)
{
	if (c->now >= c->sd->poppf_ready)
		return 0;
	c->st.sd_poppf_stall++;
	return 1;
}

/* Contract in core_int.h. */
void core_sd_decoded(struct core *c, const struct core_insn *e)
{
	struct core_sd *s = c->sd;
	unsigned fn = e->raw >> 25, m = (e->raw >> 20) & TIPROF_SD_FLAGS_MASK;

	if (fn == TIPROF_SD_FN_POPPF) {
		m = TIPROF_SD_FLAGS_MASK;
		if (c->cfg.sd_poppf_lat)	/* the stack's top reaches the decoder later */
			s->poppf_ready = c->now + c->cfg.sd_poppf_lat;
	} else if (fn == TIPROF_SD_FN_PUSHPF) {
		m = 0;
	}
	for (unsigned f = 0; f < TIPROF_SD_NFLAGS; f++)
		if (m >> f & 1 && s->lock_n[f])
			s->lock_n[f]--;
}

/* Is pc inside a profile block that executed (its flag was set)? */
static int in_profile_block(const struct core_sd *s, uint64_t pc)
{
	for (unsigned i = 0; i < SD_NBLK; i++)
		if (pc >= s->blk[i].lo && pc < s->blk[i].hi)
			return 1;
	return 0;
}

/* The BDT entry of pc. */
static struct sd_bdt *bdt_at(struct core *c, uint64_t pc)
{
	return &c->sd->bdt[(pc >> 2) & (c->cfg.sd_bdt_entries - 1)];
}

/* The run of pf.inc/pf.incr ends (the instruction at s->run_next is something else): the
 * leader's entry learns its follow address. */
static void run_close(struct core *c)
{
	struct core_sd *s = c->sd;

	if (s->run_on && s->bdt) {
		struct sd_bdt *b = bdt_at(c, s->run_leader);

		if (b->tag == s->run_leader + 1)
			b->follow = s->run_next;
	}
	s->run_on = 0;
}

/* Decode of pc (a pf.inc/pf.incr of flag f when inc): does it start a run? */
static int run_track(struct core *c, uint64_t pc, int inc, unsigned f, unsigned len)
{
	struct core_sd *s = c->sd;

	if (inc && s->run_on && pc == s->run_next && f == s->run_f) {
		s->run_next = pc + len;
		return 0;
	}
	run_close(c);
	if (!inc)
		return 0;
	s->run_on = 1;
	s->run_leader = pc;
	s->run_next = pc + len;
	s->run_f = f;
	return 1;
}

/* The profile flag predictor at fetch for leader candidate la (its flag's real value flag,
 * known from the ISS). Returns CORE_SD_NORMAL (no skip: the filter handles it), _FREE /
 * _END (skipped at fetch), _STALL (mispredicted skip: fetch waits for the refetch), or -1. */
static int bdt_fetch(struct core *c, int flag, uint64_t blk)
{
	struct core_sd *s = c->sd;
	const struct iss_retired *r = &c->la;
	struct sd_bdt *b = bdt_at(c, r->pc);
	int is_blk = r->insn.op == RV_OP_PF_BLK;
	uint64_t follow;

	c->st.sd_bdt_lookups++;
	if (b->tag != r->pc + 1)
		return CORE_SD_NORMAL;
	c->st.sd_bdt_hits++;
	if (b->pred)
		return CORE_SD_NORMAL;
	if (s->lock_n[b->f]) {	/* a writer of the flag is between fetch and decode */
		c->st.sd_bdt_locked++;
		return CORE_SD_NORMAL;
	}
	if (flag) {
		/* predicted clear, but set: decode finds it, trains the entry and refetches the
		 * leader (the front end refills; the back end is not flushed) */
		c->st.sd_bdt_mispred++;
		c->st.sd_bdt_recovery += c->cfg.frontend_lat;
		b->pred = 1;
		c->fetch_resume = c->now + c->cfg.frontend_lat;
		run_close(c);
		return CORE_SD_STALL;
	}
	/* skip: fetch goes to the follow address in this cycle */
	c->st.sd_bdt_skips++;
	follow = b->follow;
	run_close(c);
	if (is_blk) {
		c->la_valid = 0;
		c->st.sd_bdt_skipped++;
	} else {
		uint64_t pc = r->pc;

		while (c->la_valid && c->la.pc == pc && pc < follow && !c->la_exited &&
		       (c->la.insn.op == RV_OP_PF_INC || c->la.insn.op == RV_OP_PF_INCR) &&
		       c->la.insn.pf == b->f && !c->la.mem_size) {
			pc += c->la.insn.len;
			c->la_valid = 0;
			c->st.sd_bdt_skipped++;
			if (core_fetch_peek(c))
				return -1;
		}
	}
	if (core_fetch_peek(c))
		return -1;
	if (c->la.pc != follow) {
		/* the path left the run early (the learned follow address is stale): decode
		 * redirects fetch to the instruction the skip passed over; the entry predicts
		 * "set" until its run is decoded again from the leader and relearned */
		b->pred = 1;
		c->st.sd_bdt_mispred++;
		c->st.sd_bdt_recovery += c->cfg.frontend_lat;
		c->fetch_resume = c->now + c->cfg.frontend_lat;
		return CORE_SD_STALL;
	}
	return (follow & ~(uint64_t)(c->cfg.fetch_bytes - 1)) == blk ? CORE_SD_FREE : CORE_SD_END;
}

/* Contract in core_int.h. */
int core_sd_profile(struct core *c, unsigned n, uint64_t blk)
{
	struct core_sd *s = c->sd;
	const struct iss_retired *r = &c->la;
	unsigned f = r->insn.pf;
	int is_blk = r->insn.op == RV_OP_PF_BLK, flag = (int)tiprof_sd_flag(s->spec, f);
	int iss_flag = is_blk ? r->next_pc == r->pc + r->insn.len : r->mem_size != 0;
	int leader;

	(void)n;
	if (is_blk && r->insn.target == r->pc + r->insn.len)
		iss_flag = flag;	/* an empty block: the record cannot tell */
	if (iss_flag != flag) {		/* the front end's copy disagrees with the ISS */
		c->st.sd_spec_mismatch++;
		flag = iss_flag;
	}
	if (s->bdt) {
		int k = bdt_fetch(c, flag, blk);

		if (k != CORE_SD_NORMAL)
			return k;
	}
	/* fetched; decode sees the flag */
	leader = is_blk ? (run_close(c), 1) : run_track(c, r->pc, 1, f, r->insn.len);
	if (s->bdt && leader) {
		struct sd_bdt *b = bdt_at(c, r->pc);

		if (b->tag != r->pc + 1) {	/* allocate on the first decode */
			b->tag = r->pc + 1;
			b->follow = is_blk ? r->insn.target : r->pc + r->insn.len;
			b->f = (uint8_t)f;
		} else if (b->pred && !flag) {
			c->st.sd_bdt_missed++;
		}
		b->pred = (uint8_t)flag;
	}
	if (!is_blk && flag)
		return CORE_SD_NORMAL;	/* pf.inc/pf.incr executes: a ring entry */
	/* dropped at decode: pf.inc/pf.incr with the flag clear, every pf.blk (a no-op once its
	 * flag is known); a skipped block's bytes are fetched next */
	drop_add(c, 1);
	if (is_blk) {
		if (!flag && c->cfg.sd_blk) {
			/* as the RTL (docs/seldisp-rtl.md section 2): decode redirects fetch to the
			 * follow address, the bytes fetched behind the pf.blk are discarded - a
			 * front-end bubble instead of the block's fetch slots */
			c->fetch_resume = c->now + c->cfg.frontend_lat;
			c->la_valid = 0;
			return CORE_SD_END;
		}
		if (!flag) {
			s->walk_pc = r->pc + r->insn.len;
			s->walk_end = r->insn.target;
		} else {
			s->blk[s->blk_next].lo = r->pc + r->insn.len;
			s->blk[s->blk_next].hi = r->insn.target;
			s->blk_next = (s->blk_next + 1) % SD_NBLK;
		}
	}
	c->la_valid = 0;
	return CORE_SD_SLOT;
}

/* A branch of a skipped block, fetched at slot pc and dropped at decode: would the front end
 * have followed its predicted target (then decode redirects it back: a bubble)? Trains the
 * predictor as the strategy says. */
static int walked_branch(struct core *c, uint64_t pc, const struct rv_insn *in)
{
	struct core_sd *s = c->sd;
	unsigned bi = (unsigned)(pc >> 1) & (c->cfg.btb_entries - 1);
	struct btb_ent *b = &c->btb[bi];
	int bhit = b->pc == pc + 1, taken = 0;
	uint32_t mask = (1u << c->cfg.ghist_bits) - 1;
	uint8_t *ctr = &c->pht[((pc >> 1) ^ c->ghist) & mask];	/* flag clear: no XOR */

	c->st.sd_pbr_walked++;
	if (in->cf == RV_CF_BRANCH)
		taken = bhit && *ctr >= 2;
	else if (in->cf != RV_CF_RETURN)
		taken = bhit;
	if (c->cfg.sd_bp == 3 && bhit && s->btb_prof[bi])
		taken = 0;	/* a known profile branch, flag clear: not taken, target ignored */
	switch (c->cfg.sd_bp) {
	case 1:	/* ignored-instruction updates: trained not taken (no history) */
		if (in->cf == RV_CF_BRANCH && *ctr > 0)
			(*ctr)--;
		else if (in->cf != RV_CF_BRANCH && bhit)
			b->pc = 0;
		break;
	case 2:	/* profile-flag based: the flag-clear partition learns not taken */
		if (in->cf == RV_CF_BRANCH && *ctr > 0)
			(*ctr)--;
		break;
	case 3:	/* prediction-bit based: decode marks the BTB entry */
		if (bhit)
			s->btb_prof[bi] = 1;
		break;
	}
	return taken;
}

/* Contract in core_int.h. */
int core_sd_walk(struct core *c, unsigned n, uint64_t *blk, int *slot_used)
{
	struct core_sd *s = c->sd;
	uint64_t pc = s->walk_pc;
	uint16_t ev = 0;
	uint8_t buf[4] = { 0, 0, 0, 0 };
	struct rv_insn in;
	unsigned len;

	*slot_used = 0;
	switch (core_fetch_block(c, pc, n, blk, &ev)) {
	case 1:
		return CORE_SD_END;
	case 2:
		return CORE_SD_STALL;
	}
	/* the block is straight-line code for the walk; its bytes as the ISS's memory has them */
	if (iss_read_mem(c->iss, pc, buf, 2) == 0 && (buf[0] & 3) == 3)
		(void)iss_read_mem(c->iss, pc + 2, buf + 2, 2);
	len = (buf[0] & 3) == 3 ? 4 : 2;
	if (rv_decode(buf, len, pc, &in) <= 0)
		memset(&in, 0, sizeof(in));
	s->walk_pc = pc + len;
	drop_add(c, 0);
	c->st.sd_walked++;
	*slot_used = 1;
	if (in.cf != RV_CF_NONE && in.op != RV_OP_PF_BLK && walked_branch(c, pc, &in)) {
		c->st.sd_pbr_redirect++;
		c->fetch_resume = c->now + c->cfg.frontend_lat;
		return CORE_SD_END;
	}
	return CORE_SD_SLOT;
}

/* Contract in core_int.h. */
void core_sd_fetched(struct core *c, struct core_insn *e, const struct iss_retired *r)
{
	struct core_sd *s = c->sd;
	int inc = r->insn.op == RV_OP_PF_INC || r->insn.op == RV_OP_PF_INCR;

	run_track(c, r->pc, inc, r->insn.pf, r->insn.len);
	(void)e;
	if (inc)	/* executed: its flag was set */
		c->st.sd_executed++;
	if (rv_writes_pf(&r->insn)) {
		unsigned fn = r->raw >> 25, m = (r->raw >> 20) & TIPROF_SD_FLAGS_MASK;

		c->st.sd_flag_writes++;
		s->spec = tiprof_sd_flag_op(s->spec, fn, m);
		if (fn == TIPROF_SD_FN_POPPF)
			m = TIPROF_SD_FLAGS_MASK;	/* any flag may change */
		else if (fn == TIPROF_SD_FN_PUSHPF)
			m = 0;
		for (unsigned f = 0; f < TIPROF_SD_NFLAGS; f++)	/* BDT lock until decode */
			s->lock_n[f] += m >> f & 1;
		if (s->spec != iss_pfstate(c->iss)) {
			c->st.sd_spec_mismatch++;
			s->spec = iss_pfstate(c->iss);
		}
	} else if (e->unique) {
		/* serializing (a csrw pfstate among them): the front end refetches after it
		 * commits and reloads its copy from the architectural state */
		uint64_t a = iss_pfstate(c->iss);

		if (a != s->spec) {
			c->st.sd_reloads++;
			s->spec = a;
		}
	}
}

/* Contract in core_int.h. */
int core_sd_predict(struct core *c, struct core_insn *e, const struct iss_retired *r,
		    uint64_t *pred)
{
	struct core_sd *s = c->sd;
	int prof = c->cfg.sd_bp && in_profile_block(s, r->pc), mis;
	unsigned bi = (unsigned)(r->pc >> 1) & (c->cfg.btb_entries - 1);

	if (prof && c->cfg.sd_bp == 2)	/* profile-flag based: the flag (set) in the index */
		c->sd_idx_xor = 1u << (c->cfg.ghist_bits - 1);
	mis = core_predict(c, e, r, pred);
	c->sd_idx_xor = 0;
	if (c->btb[bi].pc == r->pc + 1)
		s->btb_prof[bi] = (uint8_t)(prof && c->cfg.sd_bp == 3);
	if (prof) {
		c->st.sd_pbr_exec++;
		c->st.sd_pbr_exec_mispred += (uint64_t)mis;
	}
	if (mis)	/* the branch's flag checkpoint is restored when it resolves */
		c->st.sd_restores++;
	return mis;
}
