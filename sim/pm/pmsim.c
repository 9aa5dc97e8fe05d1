/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pmsim.c - the ProfileMe unit's C model on the simulated core, and the check of every record
 * against the core's truth (contract in pmsim.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_model.h"
#include "pmsim.h"

/* What the core did with the instruction that carried one tag id: the record's profile
 * fields it must produce. */
struct pm_expect {
	int valid;		/* an instruction carries / carried this tag id */
	int ended;		/* it retired or was squashed; the fields below are complete */
	uint64_t t_fetch;	/* its fetch cycle */
	uint64_t pc, ea;
	uint16_t ev;		/* 1 << TIPROF_PM_EV_* */
	uint8_t reason, slot, seen;
	uint16_t st[PM_ST_N];	/* cycles after its fetch */
};

struct pmsim {
	struct pmsim_cfg cfg;
	struct core *core;		/* borrowed */
	struct pm_model m;		/* the unit */
	struct pm_csr_req prog[8];	/* programming writes, one per cycle from cycle 0 */
	unsigned nprog;
	struct pm_expect exp[TIPROF_PM_MAX_TAGS];
	struct pmsim_stats st;
};

#define EVB(b) ((uint16_t)(1u << TIPROF_PM_EV_##b))

static void prog_write(struct pmsim *p, uint16_t addr, uint64_t v)
{
	p->prog[p->nprog++] = (struct pm_csr_req){ .req = 1, .we = 1, .addr = addr, .wdata = v,
						    .priv = TIPROF_PRIV_M };
}

/* Contract in pmsim.h. */
struct pmsim *pmsim_open(const struct pmsim_cfg *cfg, struct core *core, char *err,
			 size_t errlen)
{
	struct pm_model_cfg mc = { .f = core_config(core)->fetch_width, .xlen = 64,
				   .fifo_depth = cfg->fifo_depth, .tags = 2 };
	struct pmsim *p;
	uint32_t ctrl;

	if (cfg->period < mc.f || cfg->rand_bits > 31 || cfg->window > 256 || !cfg->fifo_depth ||
	    cfg->fifo_depth > 65535) {
		snprintf(err, errlen, "bad ProfileMe setup: the period must be at least the fetch "
			 "width (%u), random bits 0..31, the pair window 0..256", mc.f);
		return NULL;
	}
	if (core_pm_enable(core, err, errlen))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p || pm_model_init(&p->m, &mc)) {
		free(p);
		snprintf(err, errlen, "out of memory for the ProfileMe unit");
		return NULL;
	}
	p->cfg = *cfg;
	p->core = core;
	/* as a driver programs it: configuration first, PM_CTRL.EN last */
	prog_write(p, TIPROF_PM_PERIOD, cfg->period);
	if (cfg->window)
		prog_write(p, TIPROF_PM_PAIR, cfg->window);
	if (cfg->seed)
		prog_write(p, TIPROF_PM_LFSR, cfg->seed);
	if (cfg->evfilt)
		prog_write(p, TIPROF_PM_EVFILT, cfg->evfilt);
	if (cfg->latfilt)
		prog_write(p, TIPROF_PM_LATFILT, cfg->latfilt);
	ctrl = TIPROF_PM_CTRL_EN_MASK | (1u << (TIPROF_PM_CTRL_PRIV_SHIFT + TIPROF_PRIV_U)) |
	       ((cfg->rand_bits ? TIPROF_MODE_RANDOM_INTERVAL : TIPROF_MODE_PERIODIC)
		<< TIPROF_PM_CTRL_MODE_SHIFT) |
	       (cfg->rand_bits << TIPROF_PM_CTRL_RAND_BITS_SHIFT) |
	       ((cfg->opportunities ? 1u : 0u) << TIPROF_PM_CTRL_UNIT_SHIFT) |
	       ((cfg->window ? 1u : 0u) << TIPROF_PM_CTRL_PAIR_SHIFT);
	prog_write(p, TIPROF_PM_CTRL, ctrl);
	return p;
}

/* Contract in pmsim.h. */
void pmsim_config(const struct pmsim *p, struct tiprof_pm_config *c)
{
	/* the registers after the programming writes (they take effect in the first cycles) */
	struct pm_model m = p->m;

	for (unsigned i = 0; i < p->nprog; i++) {
		const struct pm_csr_req *w = &p->prog[i];

		switch (w->addr) {
		case TIPROF_PM_CTRL: m.ctrl = (uint32_t)w->wdata; break;
		case TIPROF_PM_PERIOD: m.period = (uint32_t)w->wdata; break;
		case TIPROF_PM_PAIR: m.pair = (uint32_t)w->wdata; break;
		case TIPROF_PM_EVFILT: m.evfilt = (uint32_t)w->wdata; break;
		case TIPROF_PM_LATFILT: m.latfilt = (uint32_t)w->wdata; break;
		default: break;
		}
	}
	memset(c, 0, sizeof(*c));
	c->f = (uint8_t)m.cfg.f;
	c->tags = (uint8_t)m.cfg.tags;
	c->fifo_depth = (uint16_t)m.cfg.fifo_depth;
	c->ctrl = m.ctrl;
	c->period = m.period;
	c->pair = m.pair;
	c->timeout = m.timeout;
	c->evfilt = m.evfilt;
	c->latfilt = m.latfilt;
	c->issue_width = (uint16_t)core_issue_width(p->core);
}

/* The expected profile of a retired (or trapped) instruction e. */
static void expect_insn(struct pm_expect *x, const struct core_insn *e)
{
	uint64_t f = x->t_fetch;
	int memop = (e->flags & (RV_F_LOAD | RV_F_STORE)) != 0;

	x->st[PM_ST_MAP] = (uint16_t)(e->t_dispatch - f);
	x->st[PM_ST_READY] = (uint16_t)(e->t_ready - f);
	x->st[PM_ST_ISSUE] = (uint16_t)(e->t_issue - f);
	x->st[PM_ST_COMPLETE] = (uint16_t)(e->t_complete - f);
	x->st[PM_ST_END] = (uint16_t)(e->t_commit - f);
	x->seen = 1u << PM_ST_MAP | 1u << PM_ST_READY | 1u << PM_ST_ISSUE | 1u << PM_ST_COMPLETE;
	if (memop) {
		x->st[PM_ST_MEM] = (uint16_t)(e->t_mem - f);
		x->seen |= 1u << PM_ST_MEM;
		x->ea = e->mem_addr;
		x->ev |= EVB(EA_VALID);
		if (e->events & CORE_EV_DC_MISS)
			x->ev |= EVB(DC_MISS);
		if (e->events & CORE_EV_DTLB_MISS)
			x->ev |= EVB(DTLB_MISS);
	}
	if (e->flags & RV_F_LOAD)
		x->ev |= EVB(LOAD);
	if (e->flags & RV_F_STORE)
		x->ev |= EVB(STORE);
	if (e->cf != RV_CF_NONE) {
		x->ev |= EVB(CTRL);
		if (e->events & CORE_EV_TAKEN)
			x->ev |= EVB(BR_TAKEN);
		if (e->events & CORE_EV_MISPRED)
			x->ev |= EVB(BR_MISPRED);
	}
	if (e->events & CORE_EV_EXCEPTION) {
		x->ev |= EVB(ABORTED) | EVB(TRAP);
		x->reason = TIPROF_PM_ABORT_TRAP;
	} else {
		x->ev |= EVB(RETIRED);
	}
	x->ended = 1;
}

/* Record what ended this cycle for each tag id (the core reported retire or abort). */
static void expect_ends(struct pmsim *p, const struct core_cycle_out *o)
{
	for (unsigned t = 0; t < TIPROF_PM_MAX_TAGS; t++) {
		struct pm_expect *x = &p->exp[t];

		if (!x->valid || x->ended || !(((o->pm.retire | o->pm.abort) >> t) & 1u))
			continue;
		for (unsigned i = 0; i < o->n_retired; i++) {
			const struct core_insn *e = o->retired[i];

			if (((e->pm_tag >> t) & 1u) && e->t_fetch == x->t_fetch && e->pc == x->pc)
				expect_insn(x, e);
		}
		for (unsigned i = 0; i < o->n_ghosts && !x->ended; i++) {
			const struct core_ghost *g = &o->ghosts[i];

			if (((g->pm_tag >> t) & 1u) && g->t_fetch == x->t_fetch && g->pc == x->pc) {
				x->ev |= EVB(ABORTED);
				x->reason = g->reason;
				x->st[PM_ST_END] = (uint16_t)(g->t_end - x->t_fetch);
				x->ended = 1;
				p->st.tagged_ghost++;
			}
		}
	}
}

/* Compare profile t of record r with what the core did. 0, or -1 with err set. */
static int check_profile(struct pmsim *p, const struct tiprof_pm_sample *r, unsigned t,
			 char *err, size_t errlen)
{
	const struct pm_expect *x = &p->exp[t];
	uint64_t ev = tiprof_pm_field(r, TIPROF_PM_REC_INFO, t, TIPROF_PM_REC_INFO_EV_MASK,
				      TIPROF_PM_REC_INFO_EV_SHIFT);
	uint64_t a = r->w[TIPROF_PM_REC_STAMP_A + t * TIPROF_PM_REC_PROFILE_STRIDE];
	uint64_t b = r->w[TIPROF_PM_REC_STAMP_B + t * TIPROF_PM_REC_PROFILE_STRIDE];
	uint64_t got_st[PM_ST_N] = { a & 0xffff, a >> 16 & 0xffff, a >> 32 & 0xffff, b & 0xffff,
				     a >> 48 & 0xffff, b >> 16 & 0xffff };
	unsigned seen = (unsigned)(b >> 32 & 0x1f);
	static const char *const stage_name[PM_ST_N] = { "map stamp", "ready stamp",
		"issue stamp", "memory stamp", "complete stamp", "end stamp" };
	const char *what = NULL;

	if (!tiprof_pm_field(r, TIPROF_PM_REC_INFO, t, TIPROF_PM_REC_INFO_TAGGED_MASK,
			     TIPROF_PM_REC_INFO_TAGGED_SHIFT))
		return 0;
	if (ev & EVB(TIMEOUT)) {
		p->st.profiles_timeout++;
		return 0;
	}
	if (!x->valid || !x->ended)
		what = "no instruction ended with this tag";
	else if (tiprof_pm_field(r, TIPROF_PM_REC_PC, t, ~0ull, 0) != x->pc)
		what = "PC";
	else if (ev != x->ev)
		what = "event bits";
	else if ((ev & EVB(EA_VALID)) && tiprof_pm_field(r, TIPROF_PM_REC_EA, t, ~0ull, 0) != x->ea)
		what = "effective address";
	else if ((ev & EVB(ABORTED)) &&
		 tiprof_pm_field(r, TIPROF_PM_REC_INFO, t, TIPROF_PM_REC_INFO_REASON_MASK,
				 TIPROF_PM_REC_INFO_REASON_SHIFT) != x->reason)
		what = "abort reason";
	else if (tiprof_pm_field(r, TIPROF_PM_REC_INFO, t, TIPROF_PM_REC_INFO_SLOT_MASK,
				 TIPROF_PM_REC_INFO_SLOT_SHIFT) != x->slot)
		what = "fetch slot";
	else if (seen != x->seen)
		what = "stages seen";
	for (unsigned s = 0; !what && s < PM_ST_N; s++)
		if ((s == PM_ST_END || ((seen >> s) & 1u)) && got_st[s] != x->st[s])
			what = stage_name[s];
	if (!what) {
		p->st.profiles_checked++;
		return 0;
	}
	snprintf(err, errlen, "ProfileMe record of the sample selected at cycle %llu, profile %u "
		 "(pc 0x%llx): its %s differ%s from what the core did (events 0x%llx, expected "
		 "0x%x; end stamp %llu, expected %u)",
		 (unsigned long long)r->w[TIPROF_PM_REC_CYCLE], t, (unsigned long long)x->pc, what,
		 what[strlen(what) - 1] == 's' ? "" : "s", (unsigned long long)ev, x->ev,
		 (unsigned long long)got_st[PM_ST_END], x->st[PM_ST_END]);
	return -1;
}

/* Contract in pmsim.h. */
int pmsim_cycle(struct pmsim *p, const struct core_cycle_out *o, char *err, size_t errlen)
{
	struct pm_model_out mo;
	const struct pm_csr_req *csr = p->st.cycles < p->nprog ? &p->prog[p->st.cycles] : NULL;
	struct tiprof_pm_sample s;
	struct pm_record rec;

	expect_ends(p, o);
	pm_model_cycle(&p->m, &o->pm, csr, 0, &mo);
	p->st.cycles++;
	/* the core keeps the interface's contract and the programming is legal: a stray event
	 * (for a tag id without an open profile) or a refused write is a bug */
	if (p->m.sticky & (TIPROF_PM_STATUS_STRAY_MASK | TIPROF_PM_STATUS_CFG_ERR_MASK)) {
		snprintf(err, errlen, "ProfileMe unit: %s in cycle %llu",
			 p->m.sticky & TIPROF_PM_STATUS_STRAY_MASK ?
			 "the core reported an event for a tag id with no open profile "
			 "(PM_STATUS.STRAY)" : "a programming write was refused (PM_STATUS.CFG_ERR)",
			 (unsigned long long)(p->st.cycles - 1));
		return -1;
	}
	core_pm_tag(p->core, mo.tag);
	if (mo.completed) {
		memcpy(s.w, mo.rec.w, sizeof(s.w));
		for (unsigned t = 0; t < TIPROF_PM_MAX_TAGS; t++)
			if (check_profile(p, &s, t, err, errlen))
				return -1;
	}
	/* the new tags: what the core fetched in those slots */
	for (unsigned i = 0; i < TIPROF_PM_MAX_SLOTS; i++) {
		for (unsigned t = 0; t < TIPROF_PM_MAX_TAGS; t++) {
			struct pm_expect *x = &p->exp[t];

			if (!((mo.tag[i] >> t) & 1u))
				continue;
			memset(x, 0, sizeof(*x));
			x->valid = 1;
			x->t_fetch = p->st.cycles - 1;
			x->pc = o->pm.fetch_pc[i];
			x->slot = (uint8_t)i;
			if (o->pm.fetch_icmiss)
				x->ev |= EVB(IC_MISS);
			if (o->pm.fetch_itlbmiss)
				x->ev |= EVB(ITLB_MISS);
			p->st.tagged++;
		}
	}
	while (pm_model_pop(&p->m, &rec)) {
		memcpy(s.w, rec.w, sizeof(s.w));
		p->st.records++;
		if (p->cfg.emit && p->cfg.emit(p->cfg.emit_ctx, &s, err, errlen))
			return -1;
	}
	return 0;
}

/* Contract in pmsim.h. */
void pmsim_stats(const struct pmsim *p, struct pmsim_stats *st)
{
	*st = p->st;
	st->counts.taken = p->m.taken;
	st->counts.lost = p->m.lost;
	st->counts.filtered = p->m.filtered;
	st->counts.collided = p->m.collided;
}

/* Contract in pmsim.h. */
void pmsim_close(struct pmsim *p)
{
	if (!p)
		return;
	pm_model_fini(&p->m);
	free(p);
}
