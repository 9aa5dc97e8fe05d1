/* SPDX-License-Identifier: Apache-2.0 */
/*
 * core_pm.c - the core model's side of the ProfileMe interface (docs/profileme.md, contract in
 * core.h; docs/core.md "ProfileMe"): the fetch packet on F slots, the shadow fetch past a stop,
 * the tags the unit drives carried with the instructions, the stage events of the tagged ones,
 * and the exact truth the estimates are checked against (issue slots used per cycle, each
 * instruction's useful overlap). Nothing here changes the timing: core.c calls in at the start
 * of a cycle, for each instruction fetched, when fetch stops, for each issue and at the end of
 * the cycle, and reads only what the pipeline decided.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_int.h"

/* Cycles of issue history kept for the overlap truth (an instruction living longer gets
 * overlap UINT64_MAX: unknown). */
#define CUM_CYCLES (1u << 20)

/* What one fetch slot of the current packet holds. */
struct pm_slot {
	int ghost;		/* a shadow-fetched instruction (id indexes the ghosts) */
	uint64_t id;		/* ring sequence number, or ghost id */
};

struct core_pm {
	unsigned f;				/* fetch slots */
	unsigned nslot;				/* slots filled this cycle */
	uint64_t blk;				/* fetch block of this cycle's packet */
	struct pm_slot slot[TIPROF_PM_MAX_SLOTS];
	struct { int on; struct pm_slot s; } tag[TIPROF_PM_MAX_TAGS]; /* by tag id */
	/* shadow fetch */
	int sh_kind;				/* CORE_STOP_*: what it waits for */
	uint64_t sh_seq;			/* the instruction that stopped fetch */
	uint64_t sh_pc;				/* next address the shadow fetch takes */
	int sh_stalled;				/* it cannot go on (I-cache miss, unknown target) */
	int sh_cont;				/* it may continue the stop's packet (sequential) */
	struct core_ghost *gh;			/* in the fetch buffer, oldest first */
	struct core_ghost *dead;		/* squashed this cycle */
	unsigned gh_n, dead_n, cap;
	uint64_t next_ghost;			/* id of the next ghost */
	/* issue-slot truth */
	uint16_t *iss_cnt;			/* RING cycles: issues that will retire */
	uint64_t *cum;				/* CUM_CYCLES: issues before cycle t (mod) */
	uint64_t total;				/* issues up to the end of this cycle */
};

/* Contract in core.h. */
int core_pm_enable(struct core *c, char *err, size_t errlen)
{
	unsigned f = c->cfg.fetch_width;
	struct core_pm *p;

	if (f != 1 && f != 2 && f != 4 && f != 8) {
		snprintf(err, errlen, "the ProfileMe interface needs fetch_width 1, 2, 4 or 8 "
			 "(the unit's fetch slots), not %u", f);
		return -1;
	}
	p = calloc(1, sizeof(*p));
	if (p) {
		p->f = f;
		p->cap = c->cfg.fetch_buf;
		p->gh = calloc(p->cap, sizeof(*p->gh));
		p->dead = calloc(p->cap, sizeof(*p->dead));
		p->iss_cnt = calloc(RING, sizeof(*p->iss_cnt));
		p->cum = calloc(CUM_CYCLES, sizeof(*p->cum));
	}
	if (!p || !p->gh || !p->dead || !p->iss_cnt || !p->cum) {
		c->pm = p;
		core_pm_free(c);
		snprintf(err, errlen, "out of memory for the ProfileMe interface");
		return -1;
	}
	c->pm = p;
	c->pm_on = 1;
	return 0;
}

/* Contract in core_int.h. */
void core_pm_free(struct core *c)
{
	struct core_pm *p = c->pm;

	if (!p)
		return;
	free(p->gh);
	free(p->dead);
	free(p->iss_cnt);
	free(p->cum);
	free(p);
	c->pm = NULL;
	c->pm_on = 0;
}

/* Contract in core_int.h. */
void core_pm_cycle_begin(struct core *c, struct core_cycle_out *out)
{
	struct core_pm *p = c->pm;

	memset(&out->pm, 0, sizeof(out->pm));
	out->pm.fetch_priv = 0;	/* user programs (the ISS runs U mode); context 0 */
	p->nslot = 0;
	p->dead_n = 0;
}

/* Put instruction pc (bits raw, a conditional branch if br) in the packet's next slot. */
static void packet_add(struct core_pm *p, struct core_cycle_out *out, struct pm_slot s,
		       uint64_t pc, int br)
{
	unsigned i = p->nslot++;

	out->pm.fetch_valid |= (uint8_t)(1u << i);
	out->pm.fetch_pc[i] = pc;
	if (br)
		out->pm.fetch_br |= (uint8_t)(1u << i);
	p->slot[i] = s;
}

/* Contract in core_int.h. */
void core_pm_fetched(struct core *c, struct core_cycle_out *out, const struct core_insn *e,
		     uint16_t hist)
{
	struct core_pm *p = c->pm;

	if (p->nslot == 0) {
		out->pm.fetch_hist = hist;
		out->pm.fetch_icmiss = (e->events & CORE_EV_IC_MISS) != 0;
		out->pm.fetch_itlbmiss = (e->events & CORE_EV_ITLB_MISS) != 0;
		p->blk = e->pc & ~(uint64_t)(c->cfg.fetch_bytes - 1);
	}
	packet_add(p, out, (struct pm_slot){ 0, e->seq }, e->pc, e->cf == RV_CF_BRANCH);
}

/* Contract in core_int.h. */
void core_pm_stop(struct core *c, uint64_t stop_seq, int stop_kind, uint64_t pred_pc)
{
	struct core_pm *p = c->pm;

	const struct core_insn *e = &c->ring[stop_seq & c->ring_mask];

	p->sh_kind = stop_kind;
	p->sh_seq = stop_seq;
	p->sh_pc = pred_pc;
	p->sh_stalled = 0;
	p->sh_cont = pred_pc == e->pc + e->len;	/* a predicted-taken transfer ends the packet */
}

/* Contract in core_int.h. */
void core_pm_issue(struct core *c, const struct core_insn *e)
{
	if (e->t_issue < c->now + RING)
		c->pm->iss_cnt[e->t_issue & (RING - 1)]++;
}

/* Squash every ghost at cycle now with reason; the shadow fetch ends. */
static void squash(struct core *c, uint8_t reason)
{
	struct core_pm *p = c->pm;

	for (unsigned i = 0; i < p->gh_n; i++) {
		struct core_ghost *g = &p->dead[p->dead_n++];

		*g = p->gh[i];
		g->t_end = c->now;
		g->reason = reason;
	}
	p->gh_n = 0;
	p->sh_kind = CORE_STOP_NONE;
}

/* Has the instruction that stopped fetch resolved, committed or trapped by now? */
static void check_squash(struct core *c)
{
	struct core_pm *p = c->pm;
	const struct core_insn *e = &c->ring[p->sh_seq & c->ring_mask];

	switch (p->sh_kind) {
	case CORE_STOP_MISPRED:	/* the resolve kills the wrong path */
		if (p->sh_seq < c->disp_seq && e->t_complete <= c->now)
			squash(c, TIPROF_PM_ABORT_MISPRED);
		break;
	case CORE_STOP_UNIQUE:	/* the flush at its commit */
	case CORE_STOP_TRAP:	/* the trap */
		if (c->head_seq > p->sh_seq)
			squash(c, TIPROF_PM_ABORT_OTHER);
		break;
	default:
		break;
	}
}

/* The shadow fetch of cycle now: fill the packet's free slots down the predicted path, while
 * the fetch buffer has room (ghosts are never dispatched) and the line is in the L1I. */
static void shadow_fetch(struct core *c, struct core_cycle_out *out)
{
	struct core_pm *p = c->pm;
	const struct core_cfg *cfg = &c->cfg;
	uint64_t mask = ~(uint64_t)(cfg->fetch_bytes - 1);

	if (p->nslot && (!p->sh_cont || (p->sh_pc & mask) != p->blk))
		return;	/* the packet ends at a taken prediction or the block's end */
	while (p->nslot < p->f && !p->sh_stalled &&
	       c->tail_seq - c->disp_seq + p->gh_n < cfg->fetch_buf) {
		uint64_t pc = p->sh_pc, next;
		uint32_t raw = 0;
		struct rv_insn in;
		struct core_ghost *g;
		int end = 0;

		if (p->nslot == 0) {
			if ((c->mem.tlbs && !cache_probe(&c->mem.itlb, pc)) ||
			    !cache_probe(&c->mem.l1i, pc)) {
				p->sh_stalled = 1;	/* it would wait for a refill */
				break;
			}
			p->blk = pc & mask;
			out->pm.fetch_hist = (uint16_t)c->ghist;
		} else if ((pc & mask) != p->blk) {
			break;
		}
		if (iss_read_mem(c->iss, pc, &raw, 4) && iss_read_mem(c->iss, pc, &raw, 2)) {
			p->sh_stalled = 1;	/* not mapped: the front end would fault */
			break;
		}
		rv_decode_word(raw, pc, &in);
		if (!in.len) {
			p->sh_stalled = 1;
			break;
		}
		g = &p->gh[p->gh_n++];
		memset(g, 0, sizeof(*g));
		g->id = p->next_ghost++;
		g->pc = pc;
		g->t_fetch = c->now;
		g->raw = in.len == 2 ? raw & 0xffffu : raw;
		packet_add(p, out, (struct pm_slot){ 1, g->id }, pc, in.cf == RV_CF_BRANCH);
		next = pc + in.len;
		switch (in.cf) {
		case RV_CF_NONE:
			break;
		case RV_CF_BRANCH:
			if (core_predict_taken(c, pc)) {
				next = in.target;
				end = 1;
			}
			break;
		case RV_CF_JAL:
		case RV_CF_CALL:
			next = in.target;
			end = 1;
			break;
		default:	/* indirect: the BTB's target, else nothing to follow */
			next = core_btb_target(c, pc);
			if (!next)
				p->sh_stalled = 1;
			end = 1;
			break;
		}
		p->sh_pc = next;
		if (end)
			break;
	}
}

/* The ghost with id, among the live ones or those squashed this cycle, or NULL. */
static struct core_ghost *ghost_find(struct core_pm *p, uint64_t id, int *dead)
{
	for (unsigned i = 0; i < p->dead_n; i++) {
		if (p->dead[i].id == id) {
			*dead = 1;
			return &p->dead[i];
		}
	}
	*dead = 0;
	for (unsigned i = 0; i < p->gh_n; i++)
		if (p->gh[i].id == id)
			return &p->gh[i];
	return NULL;
}

/* Report this cycle's events of the instruction carrying tag id t. */
static void tag_events(struct core *c, struct core_cycle_out *out, unsigned t)
{
	struct core_pm *p = c->pm;
	struct tiprof_pm_if *pm = &out->pm;
	uint8_t bit = (uint8_t)(1u << t);
	const struct core_insn *e;
	uint64_t now = c->now;

	if (p->tag[t].s.ghost) {
		int dead;
		struct core_ghost *g = ghost_find(p, p->tag[t].s.id, &dead);

		if (!g || dead) {	/* squashed now (not found: cannot happen) */
			pm->abort |= bit;
			pm->abort_reason[t] = g ? g->reason : TIPROF_PM_ABORT_OTHER;
			p->tag[t].on = 0;
		}
		return;
	}
	e = &c->ring[p->tag[t].s.id & c->ring_mask];
	if (p->tag[t].s.id >= c->disp_seq)
		return;		/* still in the fetch buffer */
	if (e->t_dispatch == now) {
		pm->map |= bit;
		if (e->flags & RV_F_LOAD)
			pm->load |= bit;
		if (e->flags & RV_F_STORE)
			pm->store |= bit;
	}
	if (e->t_ready == now)
		pm->ready |= bit;
	if (e->t_issue == now)
		pm->issue |= bit;
	if ((e->flags & (RV_F_LOAD | RV_F_STORE)) && e->t_mem == now) {
		pm->mem |= bit;
		pm->ea_valid |= bit;
		pm->ea[t] = e->mem_addr;
		if (e->events & CORE_EV_DC_MISS)
			pm->dc_miss |= bit;
		if (e->events & CORE_EV_DTLB_MISS)
			pm->dtlb_miss |= bit;
	}
	if (e->t_complete == now) {
		pm->complete |= bit;
		if (e->cf != RV_CF_NONE) {
			pm->br_valid |= bit;
			if (e->events & CORE_EV_TAKEN)
				pm->br_taken |= bit;
			if (e->events & CORE_EV_MISPRED)
				pm->br_mispred |= bit;
		}
	}
	for (unsigned i = 0; i < out->n_retired; i++) {
		if (out->retired[i] != e)
			continue;
		if (e->events & CORE_EV_EXCEPTION) {
			pm->abort |= bit;
			pm->abort_reason[t] = TIPROF_PM_ABORT_TRAP;
		} else {
			pm->retire |= bit;
		}
		p->tag[t].on = 0;
	}
}

/* Contract in core_int.h. */
void core_pm_cycle_end(struct core *c, struct core_cycle_out *out)
{
	struct core_pm *p = c->pm;
	uint64_t now = c->now;

	if (p->sh_kind != CORE_STOP_NONE)
		check_squash(c);
	if (p->sh_kind != CORE_STOP_NONE && !c->done)
		shadow_fetch(c, out);
	for (unsigned t = 0; t < TIPROF_PM_MAX_TAGS; t++)
		if (p->tag[t].on)
			tag_events(c, out, t);

	/* truth: issues of this cycle are final (later dispatches issue after it) */
	out->issued = p->iss_cnt[now & (RING - 1)];
	p->iss_cnt[now & (RING - 1)] = 0;
	p->total += out->issued;
	p->cum[(now + 1) & (CUM_CYCLES - 1)] = p->total;
	for (unsigned i = 0; i < out->n_retired; i++) {
		struct core_insn *e = &c->ring[out->retired[i]->seq & c->ring_mask];
		int self = !(e->events & CORE_EV_EXCEPTION);

		e->overlap = now + 1 - e->t_fetch < CUM_CYCLES ?
			     p->total - p->cum[e->t_fetch & (CUM_CYCLES - 1)] - (uint64_t)self :
			     UINT64_MAX;
	}
	for (unsigned i = 0; i < p->dead_n; i++) {
		struct core_ghost *g = &p->dead[i];

		g->overlap = now + 1 - g->t_fetch < CUM_CYCLES ?
			     p->total - p->cum[g->t_fetch & (CUM_CYCLES - 1)] : UINT64_MAX;
	}
	out->n_ghosts = p->dead_n;
	out->ghosts = p->dead;
}

/* Contract in core.h. */
void core_pm_tag(struct core *c, const uint8_t tag[TIPROF_PM_MAX_SLOTS])
{
	struct core_pm *p = c->pm;

	if (!p)
		return;
	for (unsigned i = 0; i < p->nslot; i++) {
		for (unsigned t = 0; t < TIPROF_PM_MAX_TAGS; t++) {
			int dead;
			struct core_ghost *g;

			if (!(tag[i] & (1u << t)))
				continue;
			p->tag[t].on = 1;	/* a new tag replaces an old one of the same id */
			p->tag[t].s = p->slot[i];
			if (!p->slot[i].ghost) {
				c->ring[p->slot[i].id & c->ring_mask].pm_tag |= (uint8_t)(1u << t);
			} else {
				g = ghost_find(p, p->slot[i].id, &dead);
				if (g)
					g->pm_tag |= (uint8_t)(1u << t);
			}
		}
	}
	p->nslot = 0;
}
