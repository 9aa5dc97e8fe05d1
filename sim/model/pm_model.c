/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_model.c - C reference model of the ProfileMe subsystem (Dean et al., MICRO 1997),
 * cycle-exact at its ports as docs/profileme.md specifies: the fetch counter (TIP's
 * interval block counting n fetch units per cycle), tags driven onto fetch slots, paired
 * sampling, profiles with stage stamps, event and latency filters, the record FIFO, the
 * timeout, and the CSR port of the subsystem.
 *
 * Written from docs/profileme.md only (not from any RTL), so the random differential test
 * against the RTL compares two independent readings of the spec.
 *
 * One call of pm_model_cycle() is one rising clock edge: every decision of cycle t uses the
 * cycle's inputs and the state at the start of the cycle; then the state becomes the state
 * at the start of cycle t+1. The steps of a cycle follow the spec's order: CSR response,
 * pop, events of the open profiles, timeout, tagging a waiting pair's second, completion of
 * the open sample, selection, register writes, fetch-counter advance, LFSR, counters.
 *
 * No global mutable state; nothing is printed; errors are return values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pm_model.h"
#include "tiprof/pm_latency.h"

#define CTRL_FIELDS (TIPROF_PM_CTRL_EN_MASK | TIPROF_PM_CTRL_MODE_MASK | \
		     TIPROF_PM_CTRL_IRQ_EN_MASK | TIPROF_PM_CTRL_PRIV_MASK | \
		     TIPROF_PM_CTRL_RAND_BITS_MASK | TIPROF_PM_CTRL_UNIT_MASK | \
		     TIPROF_PM_CTRL_PAIR_MASK)
#define STICKY_BITS (TIPROF_PM_STATUS_CFG_ERR_MASK | TIPROF_PM_STATUS_POP_EMPTY_MASK | \
		     TIPROF_PM_STATUS_STRAY_MASK | TIPROF_PM_STATUS_TIMEOUT_MASK)
#define LATFILT_FIELDS (TIPROF_PM_LATFILT_THRESH_MASK | TIPROF_PM_LATFILT_SEL_MASK | \
			TIPROF_PM_LATFILT_INV_MASK)
#define EV(b) ((uint16_t)(1u << TIPROF_PM_EV_##b))
#define MAX32 0xFFFFFFFFull

static inline unsigned field(uint32_t v, uint32_t mask, unsigned shift)
{
	return (v & mask) >> shift;
}

static inline uint64_t xmask(const struct pm_model *m)
{
	return m->cfg.xlen == 64 ? ~(uint64_t)0 : (uint64_t)0xFFFFFFFFu;
}

static inline unsigned slot_mask(const struct pm_model *m)
{
	return (1u << m->cfg.f) - 1u;
}

static inline uint32_t lfsr_step(uint32_t s)
{
	uint32_t lsb = s & 1u;

	s >>= 1;
	if (lsb)
		s ^= TIPROF_LFSR_TOGGLE;
	return s;
}

/* Position (slot) of the i-th (0-based) set bit of x; x must have more than i set bits. */
static unsigned nth_bit(unsigned x, unsigned i)
{
	for (unsigned s = 0;; s++)
		if ((x >> s) & 1u) {
			if (!i)
				return s;
			i--;
		}
}

/* The draw of docs/profileme.md, "The draw": TIP's with the RANDOM_PERIOD clamp [F, 2^32]. */
static uint32_t draw(uint32_t ctrl, uint32_t p, uint32_t lfsr, unsigned f)
{
	unsigned mode = field(ctrl, TIPROF_PM_CTRL_MODE_MASK, TIPROF_PM_CTRL_MODE_SHIFT);
	unsigned k = field(ctrl, TIPROF_PM_CTRL_RAND_BITS_MASK, TIPROF_PM_CTRL_RAND_BITS_SHIFT);
	uint32_t r = lfsr & (uint32_t)((UINT64_C(1) << k) - 1u);

	switch (mode) {
	case TIPROF_MODE_RANDOM_INTERVAL:
		return (uint32_t)(((uint64_t)r * p) >> k);
	case TIPROF_MODE_RANDOM_PERIOD: {
		int64_t h = k ? (INT64_C(1) << (k - 1)) : 0;
		int64_t len = (int64_t)p + (int64_t)r - h;

		if (len < (int64_t)f)
			len = f;
		if (len > (INT64_C(1) << 32))
			len = INT64_C(1) << 32;
		return (uint32_t)(len - 1);
	}
	default:
		return p - 1u;
	}
}

/* ---- CSR map ---- */

static int pm_owns(unsigned a)
{
	return (a >= 0x5E0u && a <= 0x5FFu) || (a >= 0xDE0u && a <= 0xDFFu);
}

static int in_map(const struct pm_model *m, unsigned a)
{
	switch (a) {
	case TIPROF_PM_CTRL: case TIPROF_PM_PERIOD: case TIPROF_PM_WATERMARK:
	case TIPROF_PM_LFSR: case TIPROF_PM_POP: case TIPROF_PM_STATUS: case TIPROF_PM_PAIR:
	case TIPROF_PM_TIMEOUT: case TIPROF_PM_EVFILT: case TIPROF_PM_LATFILT:
	case TIPROF_PM_TAKEN: case TIPROF_PM_LOST: case TIPROF_PM_FILTERED:
	case TIPROF_PM_COLLIDED: case TIPROF_PM_PARAMS: case TIPROF_PM_FIFO_COUNT:
		return 1;
	case TIPROF_PM_TAKENH: case TIPROF_PM_LOSTH: case TIPROF_PM_FILTEREDH:
	case TIPROF_PM_COLLIDEDH:
		return m->cfg.xlen == 32;
	default:
		if (a >= TIPROF_PM_R && a < TIPROF_PM_R + TIPROF_PM_R_COUNT)
			return 1;
		if (a >= TIPROF_PM_RH && a < TIPROF_PM_RH + TIPROF_PM_RH_COUNT)
			return m->cfg.xlen == 32;
		return 0;
	}
}

static int csr_legal(const struct pm_model *m, unsigned a, int we, unsigned priv, int menable)
{
	if (!in_map(m, a))
		return 0;
	if (we && (a >> 10) == 3u)
		return 0;
	if (priv < ((a >> 8) & 3u))
		return 0;
	if (priv != TIPROF_PRIV_M && !menable)
		return 0;
	return 1;
}

static uint32_t status_value(const struct pm_model *m)
{
	uint32_t v = m->sticky & STICKY_BITS;

	if (pm_model_irq(m))
		v |= TIPROF_PM_STATUS_IRQ_MASK;
	if (m->used == m->cfg.fifo_depth)
		v |= TIPROF_PM_STATUS_FULL_MASK;
	if (m->open)
		v |= TIPROF_PM_STATUS_BUSY_MASK;
	if (m->open && m->waiting)
		v |= TIPROF_PM_STATUS_PAIR_WAIT_MASK;
	return v;
}

static uint64_t csr_read(const struct pm_model *m, unsigned a)
{
	const struct pm_record *e = m->used ? &m->fifo[m->head] : NULL;

	switch (a) {
	case TIPROF_PM_CTRL: return m->ctrl;
	case TIPROF_PM_PERIOD: return m->period;
	case TIPROF_PM_WATERMARK: return m->watermark;
	case TIPROF_PM_LFSR: return m->lfsr;
	case TIPROF_PM_POP: return 0;
	case TIPROF_PM_STATUS: return status_value(m);
	case TIPROF_PM_PAIR: return m->pair;
	case TIPROF_PM_TIMEOUT: return m->timeout;
	case TIPROF_PM_EVFILT: return m->evfilt;
	case TIPROF_PM_LATFILT: return m->latfilt;
	case TIPROF_PM_TAKEN: return m->taken;
	case TIPROF_PM_LOST: return m->lost;
	case TIPROF_PM_FILTERED: return m->filtered;
	case TIPROF_PM_COLLIDED: return m->collided;
	case TIPROF_PM_TAKENH: return m->taken >> 32;
	case TIPROF_PM_LOSTH: return m->lost >> 32;
	case TIPROF_PM_FILTEREDH: return m->filtered >> 32;
	case TIPROF_PM_COLLIDEDH: return m->collided >> 32;
	case TIPROF_PM_PARAMS:
		return (uint64_t)m->cfg.f | ((uint64_t)m->cfg.xlen << TIPROF_PM_PARAMS_XLEN_SHIFT) |
		       ((uint64_t)m->cfg.fifo_depth << TIPROF_PM_PARAMS_DEPTH_SHIFT) |
		       ((uint64_t)m->cfg.tags << TIPROF_PM_PARAMS_TAGS_SHIFT);
	case TIPROF_PM_FIFO_COUNT: return m->used;
	default:
		if (a >= TIPROF_PM_RH)
			return e ? e->w[a - TIPROF_PM_RH] >> 32 : 0;
		return e ? e->w[a - TIPROF_PM_R] : 0;
	}
}

/* ---- records ---- */

/* Stamp of stage s of profile p relative to its fetch (0 if not seen). */
static inline uint16_t rel(const struct pm_profile *p, unsigned s)
{
	if (s == PM_ST_END)
		return p->tagged ? (uint16_t)(p->st[s] - p->fetch) : 0;
	return ((p->seen >> s) & 1u) ? (uint16_t)(p->st[s] - p->fetch) : 0;
}

static void build_record(const struct pm_model *m, struct pm_record *r)
{
	memset(r, 0, sizeof(*r));
	r->w[TIPROF_PM_REC_CYCLE] = m->s_cycle;
	r->w[TIPROF_PM_REC_SINFO] =
		TIPROF_PM_REC_FMT |
		((uint64_t)(m->is_pair ? 1 : 0) << TIPROF_PM_REC_SINFO_PAIR_SHIFT) |
		((uint64_t)(m->is_pair ? m->dist : 0) << TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT) |
		((uint64_t)(m->is_pair && m->p[1].tagged ? m->p[1].fetch : 0)
		 << TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT);
	for (unsigned i = 0; i < (m->is_pair ? 2u : 1u); i++) {
		const struct pm_profile *p = &m->p[i];
		unsigned b = i * TIPROF_PM_REC_PROFILE_STRIDE;

		r->w[TIPROF_PM_REC_PC + b] = p->pc;
		r->w[TIPROF_PM_REC_EA + b] = p->ea;
		r->w[TIPROF_PM_REC_INFO + b] =
			(uint64_t)p->ev |
			((uint64_t)p->reason << TIPROF_PM_REC_INFO_REASON_SHIFT) |
			((uint64_t)p->priv << TIPROF_PM_REC_INFO_PRIV_SHIFT) |
			((uint64_t)p->tagged << TIPROF_PM_REC_INFO_TAGGED_SHIFT) |
			((uint64_t)p->slot << TIPROF_PM_REC_INFO_SLOT_SHIFT) |
			((uint64_t)p->ctx << TIPROF_PM_REC_INFO_CTX_SHIFT) |
			((uint64_t)p->path << TIPROF_PM_REC_INFO_PATH_SHIFT);
		r->w[TIPROF_PM_REC_STAMP_A + b] =
			(uint64_t)rel(p, PM_ST_MAP) |
			((uint64_t)rel(p, PM_ST_READY) << TIPROF_PM_REC_STAMP_A_READY_SHIFT) |
			((uint64_t)rel(p, PM_ST_ISSUE) << TIPROF_PM_REC_STAMP_A_ISSUE_SHIFT) |
			((uint64_t)rel(p, PM_ST_COMPLETE) << TIPROF_PM_REC_STAMP_A_COMPLETE_SHIFT);
		/* SEEN: bit 0 map, 1 ready, 2 issue, 3 mem, 4 complete = the PM_ST_* order */
		r->w[TIPROF_PM_REC_STAMP_B + b] =
			(uint64_t)rel(p, PM_ST_MEM) |
			((uint64_t)rel(p, PM_ST_END) << TIPROF_PM_REC_STAMP_B_END_SHIFT) |
			((uint64_t)(p->seen & 0x1Fu) << TIPROF_PM_REC_STAMP_B_SEEN_SHIFT);
	}
}

uint16_t pm_record_latency(const struct pm_record *r, unsigned p, unsigned sel, int *valid)
{
	return tiprof_pm_latency(r->w, p, sel, valid);
}

/* The filters of docs/profileme.md on profile 0 of record r: 1 keep, 0 drop. */
static int filters_keep(const struct pm_model *m, const struct pm_record *r)
{
	unsigned ev = (unsigned)(r->w[TIPROF_PM_REC_INFO] & TIPROF_PM_REC_INFO_EV_MASK);
	unsigned mask = field(m->evfilt, TIPROF_PM_EVFILT_MASK_MASK, TIPROF_PM_EVFILT_MASK_SHIFT);
	unsigned match = field(m->evfilt, TIPROF_PM_EVFILT_MATCH_MASK,
			       TIPROF_PM_EVFILT_MATCH_SHIFT);
	unsigned thresh = field(m->latfilt, TIPROF_PM_LATFILT_THRESH_MASK,
				TIPROF_PM_LATFILT_THRESH_SHIFT);
	unsigned sel = field(m->latfilt, TIPROF_PM_LATFILT_SEL_MASK, TIPROF_PM_LATFILT_SEL_SHIFT);
	int inv = (m->latfilt & TIPROF_PM_LATFILT_INV_MASK) != 0;
	int valid;
	unsigned x;

	if ((ev ^ match) & mask)
		return 0;
	if (!thresh)
		return 1;
	x = pm_record_latency(r, 0, sel, &valid);
	if (!valid)
		return 0;
	return (x >= thresh) != inv;
}

/* ---- init, reset, queries ---- */

int pm_model_init(struct pm_model *m, const struct pm_model_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	if (!cfg || (cfg->f != 1 && cfg->f != 2 && cfg->f != 4 && cfg->f != 8) ||
	    (cfg->xlen != 32 && cfg->xlen != 64) || cfg->fifo_depth < 1 ||
	    cfg->fifo_depth > 65535 || (cfg->tags != 1 && cfg->tags != 2))
		return -EINVAL;
	m->cfg = *cfg;
	m->fifo = calloc(cfg->fifo_depth, sizeof(*m->fifo));
	if (!m->fifo)
		return -ENOMEM;
	pm_model_reset(m);
	return 0;
}

void pm_model_fini(struct pm_model *m)
{
	free(m->fifo);
	m->fifo = NULL;
	m->head = m->used = 0;
}

void pm_model_reset(struct pm_model *m)
{
	struct pm_model_cfg cfg = m->cfg;
	struct pm_record *fifo = m->fifo;

	memset(m, 0, sizeof(*m));
	m->cfg = cfg;
	m->fifo = fifo;
	m->lfsr = TIPROF_PM_LFSR_RESET;
	m->ctrl = TIPROF_PM_CTRL_RESET;
	m->period = TIPROF_PM_PERIOD_RESET;
	m->watermark = TIPROF_PM_WATERMARK_RESET;
	m->pair = TIPROF_PM_PAIR_RESET;
	m->timeout = TIPROF_PM_TIMEOUT_RESET;
	m->evfilt = TIPROF_PM_EVFILT_RESET;
	m->latfilt = TIPROF_PM_LATFILT_RESET;
	/* pos/target: unobservable while EN = 0, and every way to set EN restarts them */
}

int pm_model_irq(const struct pm_model *m)
{
	return (m->ctrl & TIPROF_PM_CTRL_IRQ_EN_MASK) && m->used >= m->watermark;
}

unsigned pm_model_fifo_count(const struct pm_model *m)
{
	return m->used;
}

int pm_model_pop(struct pm_model *m, struct pm_record *r)
{
	if (!m->used)
		return 0;
	if (r)
		*r = m->fifo[m->head];
	if (++m->head == m->cfg.fifo_depth)
		m->head = 0;
	m->used--;
	return 1;
}

/* ---- the cycle ---- */

/* Tag profile p with the instruction in slot s of this cycle's packet (sample age a). */
static void tag_profile(struct pm_model *m, unsigned id, const struct tiprof_pm_if *in,
			unsigned s, uint16_t a)
{
	struct pm_profile *p = &m->p[id];
	unsigned below = in->fetch_valid & in->fetch_br & ((1u << s) - 1u);

	memset(p, 0, sizeof(*p));
	p->state = PM_P_OPEN;
	p->tagged = 1;
	p->pc = in->fetch_pc[s] & xmask(m);
	p->priv = in->fetch_priv & 3u;
	p->ctx = in->fetch_ctx;
	p->slot = (uint8_t)s;
	p->fetch = a;
	p->path = (uint16_t)(in->fetch_hist << __builtin_popcount(below));
	if (in->fetch_icmiss)
		p->ev |= EV(IC_MISS);
	if (in->fetch_itlbmiss)
		p->ev |= EV(ITLB_MISS);
}

/* The events of this cycle for an open profile (docs/profileme.md, "Events"). */
static void profile_events(struct pm_model *m, struct pm_profile *p, unsigned t,
			   const struct tiprof_pm_if *in, uint16_t a)
{
	static const unsigned stage[] = { PM_ST_MAP, PM_ST_READY, PM_ST_ISSUE, PM_ST_MEM,
					  PM_ST_COMPLETE };
	const uint8_t bitsv[] = { in->map, in->ready, in->issue, in->mem, in->complete };

	for (unsigned i = 0; i < 5; i++)
		if (((bitsv[i] >> t) & 1u) && !((p->seen >> stage[i]) & 1u)) {
			p->st[stage[i]] = a;
			p->seen |= (uint8_t)(1u << stage[i]);
		}
	if ((in->load >> t) & 1u)
		p->ev |= EV(LOAD);
	if ((in->store >> t) & 1u)
		p->ev |= EV(STORE);
	if ((in->dc_miss >> t) & 1u)
		p->ev |= EV(DC_MISS);
	if ((in->dtlb_miss >> t) & 1u)
		p->ev |= EV(DTLB_MISS);
	if (((in->br_valid >> t) & 1u) && !(p->ev & EV(CTRL))) {
		p->ev |= EV(CTRL);
		if ((in->br_taken >> t) & 1u)
			p->ev |= EV(BR_TAKEN);
		if ((in->br_mispred >> t) & 1u)
			p->ev |= EV(BR_MISPRED);
	}
	if (((in->ea_valid >> t) & 1u) && !(p->ev & EV(EA_VALID))) {
		p->ev |= EV(EA_VALID);
		p->ea = in->ea[t] & xmask(m);
	}
	if ((in->abort >> t) & 1u) {
		p->reason = in->abort_reason[t] & 3u;
		p->ev |= EV(ABORTED);
		if (p->reason == TIPROF_PM_ABORT_TRAP)
			p->ev |= EV(TRAP);
		p->st[PM_ST_END] = a;
		p->state = PM_P_ENDED;
	} else if ((in->retire >> t) & 1u) {
		p->ev |= EV(RETIRED);
		p->st[PM_ST_END] = a;
		p->state = PM_P_ENDED;
	}
}

/* Any event bit of tag id t this cycle. */
static int any_event(const struct tiprof_pm_if *in, unsigned t)
{
	unsigned v = in->map | in->ready | in->issue | in->mem | in->complete | in->retire |
		     in->abort | in->load | in->store | in->br_valid | in->ea_valid |
		     in->dc_miss | in->dtlb_miss;
	return (v >> t) & 1u;
}

/* Tag the pair's second if this cycle's packet holds its remaining-th valid slot at or above
 * slot `from`; else count the packet's valid slots off. */
static void try_second(struct pm_model *m, const struct tiprof_pm_if *in, unsigned from,
		       uint16_t a, struct pm_model_out *o)
{
	unsigned v = in->fetch_valid & slot_mask(m) & ~((1u << from) - 1u);
	unsigned n = (unsigned)__builtin_popcount(v);

	if (m->remaining <= n) {
		unsigned s = nth_bit(v, m->remaining - 1u);

		tag_profile(m, 1, in, s, a);
		o->tag[s] |= 2u;
		m->waiting = 0;
		m->remaining = 0;
	} else {
		m->remaining = (uint16_t)(m->remaining - n);
	}
}

/* Complete the open sample: record, filters, FIFO push (docs/profileme.md, "Completion"). */
static void complete(struct pm_model *m, struct pm_model_out *o, unsigned *inc_taken,
		     unsigned *inc_lost, unsigned *inc_filt)
{
	o->completed = 1;
	build_record(m, &o->rec);
	if (!filters_keep(m, &o->rec)) {
		o->filtered = 1;
		(*inc_filt)++;
	} else if (m->used < m->cfg.fifo_depth) {
		unsigned j = m->head + m->used;

		if (j >= m->cfg.fifo_depth)
			j -= m->cfg.fifo_depth;
		m->fifo[j] = o->rec;
		m->used++;
		o->pushed = 1;
		(*inc_taken)++;
	} else {
		o->lost = 1;
		(*inc_lost)++;
	}
	m->open = 0;
	m->waiting = 0;
}

static int sample_done(const struct pm_model *m)
{
	if (m->p[0].state != PM_P_ENDED)
		return 0;
	return !m->is_pair || m->p[1].state == PM_P_ENDED;
}

void pm_model_cycle(struct pm_model *m, const struct tiprof_pm_if *in,
		    const struct pm_csr_req *csr, int menable_s, struct pm_model_out *out)
{
	static const struct tiprof_pm_if idle;
	struct pm_model_out ob;
	struct pm_model_out *o = out ? out : &ob;
	const uint64_t am = xmask(m);
	const uint32_t lfsr_now = m->lfsr;
	const int start_open = m->open;
	const uint16_t a = m->age;
	const unsigned f = m->cfg.f;
	unsigned inc_taken = 0, inc_lost = 0, inc_filt = 0, inc_coll = 0;
	uint8_t set_sticky = 0;
	int wr = 0;
	unsigned waddr = 0;
	uint64_t wdata = 0;

	if (!in)
		in = &idle;
	memset(o, 0, sizeof(*o));
	o->irq = pm_model_irq(m);

	/* ---- CSR port: response from the start-of-cycle state ---- */
	if (csr && csr->req) {
		unsigned addr = csr->addr & 0xFFFu;

		if (pm_owns(addr)) {
			o->csr.hit = 1;
			if (!csr_legal(m, addr, csr->we, csr->priv & 3u, menable_s)) {
				o->csr.illegal = 1;
			} else if (csr->we) {
				wr = 1;
				waddr = addr;
				wdata = csr->wdata & am;
			} else {
				o->csr.rdata = csr_read(m, addr) & am;
			}
		}
	}

	/* ---- FIFO step 1: pop ---- */
	if (wr && waddr == TIPROF_PM_POP) {
		if (!pm_model_pop(m, NULL))
			set_sticky |= TIPROF_PM_STATUS_POP_EMPTY_MASK;
	}

	/* ---- events of the profiles open at the start of the cycle ---- */
	for (unsigned t = 0; t < m->cfg.tags; t++) {
		if (start_open && m->p[t].state == PM_P_OPEN &&
		    (t == 0 || m->is_pair))
			profile_events(m, &m->p[t], t, in, a);
		else if (any_event(in, t))
			set_sticky |= TIPROF_PM_STATUS_STRAY_MASK;
	}

	if (start_open) {
		/* ---- timeout ---- */
		if (a >= m->timeout) {
			for (unsigned t = 0; t < (m->is_pair ? 2u : 1u); t++) {
				struct pm_profile *p = &m->p[t];

				if (p->state == PM_P_OPEN) {
					p->ev |= EV(TIMEOUT);
					p->st[PM_ST_END] = a;
					p->state = PM_P_ENDED;
					set_sticky |= TIPROF_PM_STATUS_TIMEOUT_MASK;
				} else if (t == 1 && m->waiting) {
					memset(p, 0, sizeof(*p));
					p->ev = EV(TIMEOUT);
					p->state = PM_P_ENDED;
					m->waiting = 0;
					set_sticky |= TIPROF_PM_STATUS_TIMEOUT_MASK;
				}
			}
		}
		/* ---- the pair's second, if still waiting ---- */
		if (m->waiting)
			try_second(m, in, 0, a, o);
		/* ---- completion ---- */
		if (sample_done(m))
			complete(m, o, &inc_taken, &inc_lost, &inc_filt);
	}

	/* ---- selection: the fetch counter (start-of-cycle configuration) ---- */
	uint32_t pos_next = m->pos, target_next = m->target;
	if (m->ctrl & TIPROF_PM_CTRL_EN_MASK) {
		unsigned priv = in->fetch_priv & 3u;
		int priv_ok = (m->ctrl >> (TIPROF_PM_CTRL_PRIV_SHIFT + priv)) & 1u;
		unsigned cnt = 0;

		if (priv_ok)
			cnt = (m->ctrl & TIPROF_PM_CTRL_UNIT_MASK) ? slot_mask(m)
								   : (in->fetch_valid & slot_mask(m));
		uint64_t n = (uint64_t)__builtin_popcount(cnt);
		uint64_t pos = m->pos, tgt = m->target;
		int rint = field(m->ctrl, TIPROF_PM_CTRL_MODE_MASK, TIPROF_PM_CTRL_MODE_SHIFT) ==
			   TIPROF_MODE_RANDOM_INTERVAL;
		uint64_t len = rint ? m->period : tgt + 1u;
		unsigned units[2];

		if (pos <= tgt && tgt < pos + n)
			units[o->nsel++] = (unsigned)(tgt - pos);
		if (pos + n >= len) {
			uint64_t e = pos + n - len;
			uint32_t t2 = draw(m->ctrl, m->period, lfsr_now, f);

			if (t2 < e)
				units[o->nsel++] = (unsigned)(len - pos + t2);
			pos_next = (uint32_t)e;
			target_next = t2;
		} else {
			pos_next = (uint32_t)(pos + n);
		}
		for (unsigned i = 0; i < o->nsel; i++) {
			unsigned s = nth_bit(cnt, units[i]);

			o->sel_slot[i] = (uint8_t)s;
			if (i > 0 || start_open) {
				inc_coll++;
				continue;
			}
			o->sel_taken |= 1u;
			/* open a sample */
			m->open = 1;
			m->age = 0;
			m->s_cycle = m->cycle;
			m->is_pair = 0;
			m->waiting = 0;
			m->dist = 0;
			m->remaining = 0;
			memset(m->p, 0, sizeof(m->p));
			if (!((in->fetch_valid >> s) & 1u)) {
				struct pm_profile *p = &m->p[0];

				p->state = PM_P_ENDED;
				p->ev = EV(EMPTY);
				p->slot = (uint8_t)s;
				p->priv = (uint8_t)priv;
				p->ctx = in->fetch_ctx;
				complete(m, o, &inc_taken, &inc_lost, &inc_filt);
				continue;
			}
			tag_profile(m, 0, in, s, 0);
			o->tag[s] |= 1u;
			if (m->ctrl & TIPROF_PM_CTRL_PAIR_MASK) {
				unsigned w = field(m->pair, TIPROF_PM_PAIR_WINDOW_MASK,
						   TIPROF_PM_PAIR_WINDOW_SHIFT);

				m->is_pair = 1;
				m->dist = (uint16_t)(1u + (((lfsr_now >> 16) * w) >> 16));
				m->remaining = m->dist;
				m->waiting = 1;
				try_second(m, in, s + 1u, 0, o);
			}
		}
	}

	/* ---- register writes; a counter write wins over the increment ---- */
	int restart = 0;
	const uint64_t old_t = m->taken, old_l = m->lost, old_f = m->filtered,
		       old_c = m->collided;
	m->taken += inc_taken;
	m->lost += inc_lost;
	m->filtered += inc_filt;
	m->collided += inc_coll;
	if (wr) {
#define CNT_WRITE(old, hi) \
	(m->cfg.xlen == 64 ? wdata : \
	 (hi) ? ((wdata << 32) | ((old) & 0xFFFFFFFFu)) : (((old) & ~(uint64_t)0xFFFFFFFFu) | wdata))
		switch (waddr) {
		case TIPROF_PM_CTRL:
			if ((wdata & ~(uint64_t)CTRL_FIELDS) ||
			    (wdata & TIPROF_PM_CTRL_MODE_MASK) == TIPROF_PM_CTRL_MODE_MASK ||
			    ((wdata & TIPROF_PM_CTRL_PAIR_MASK) && m->cfg.tags < 2)) {
				set_sticky |= TIPROF_PM_STATUS_CFG_ERR_MASK;
			} else {
				m->ctrl = (uint32_t)wdata;
				restart = 1;
			}
			break;
		case TIPROF_PM_PERIOD:
			if (wdata < f || wdata > MAX32) {
				set_sticky |= TIPROF_PM_STATUS_CFG_ERR_MASK;
			} else {
				m->period = (uint32_t)wdata;
				restart = 1;
			}
			break;
		case TIPROF_PM_WATERMARK:
			if (wdata == 0 || wdata > m->cfg.fifo_depth)
				set_sticky |= TIPROF_PM_STATUS_CFG_ERR_MASK;
			else
				m->watermark = (uint32_t)wdata;
			break;
		case TIPROF_PM_LFSR:
			if (wdata == 0 || wdata > MAX32)
				set_sticky |= TIPROF_PM_STATUS_CFG_ERR_MASK;
			break;
		case TIPROF_PM_PAIR:
			if ((wdata & ~(uint64_t)TIPROF_PM_PAIR_WINDOW_MASK) || wdata == 0 ||
			    wdata > 256)
				set_sticky |= TIPROF_PM_STATUS_CFG_ERR_MASK;
			else
				m->pair = (uint32_t)wdata;
			break;
		case TIPROF_PM_TIMEOUT:
			if (wdata == 0 || wdata > 0xFFFFu)
				set_sticky |= TIPROF_PM_STATUS_CFG_ERR_MASK;
			else
				m->timeout = (uint32_t)wdata;
			break;
		case TIPROF_PM_EVFILT:
			if (wdata > MAX32)
				set_sticky |= TIPROF_PM_STATUS_CFG_ERR_MASK;
			else
				m->evfilt = (uint32_t)wdata;
			break;
		case TIPROF_PM_LATFILT:
			if ((wdata & ~(uint64_t)LATFILT_FIELDS) ||
			    (wdata & TIPROF_PM_LATFILT_SEL_MASK) == TIPROF_PM_LATFILT_SEL_MASK)
				set_sticky |= TIPROF_PM_STATUS_CFG_ERR_MASK;
			else
				m->latfilt = (uint32_t)wdata;
			break;
		case TIPROF_PM_STATUS:
			m->sticky &= (uint8_t)~(wdata & STICKY_BITS);
			break;
		case TIPROF_PM_TAKEN: m->taken = CNT_WRITE(old_t, 0); break;
		case TIPROF_PM_TAKENH: m->taken = CNT_WRITE(old_t, 1); break;
		case TIPROF_PM_LOST: m->lost = CNT_WRITE(old_l, 0); break;
		case TIPROF_PM_LOSTH: m->lost = CNT_WRITE(old_l, 1); break;
		case TIPROF_PM_FILTERED: m->filtered = CNT_WRITE(old_f, 0); break;
		case TIPROF_PM_FILTEREDH: m->filtered = CNT_WRITE(old_f, 1); break;
		case TIPROF_PM_COLLIDED: m->collided = CNT_WRITE(old_c, 0); break;
		case TIPROF_PM_COLLIDEDH: m->collided = CNT_WRITE(old_c, 1); break;
		default: /* PM_POP handled above */
			break;
		}
#undef CNT_WRITE
	}
	m->sticky |= set_sticky; /* a hardware set wins over a clearing write */

	/* ---- fetch counter: restart or advance ---- */
	if (restart) {
		m->pos = 0;
		m->target = draw(m->ctrl, m->period, lfsr_now, f);
	} else {
		m->pos = pos_next;
		m->target = target_next;
	}

	/* ---- LFSR: a legal write sets next cycle's value instead of the step ---- */
	if (wr && waddr == TIPROF_PM_LFSR && wdata != 0 && wdata <= MAX32)
		m->lfsr = (uint32_t)wdata;
	else
		m->lfsr = lfsr_step(lfsr_now);

	if (m->open)
		m->age++;
	m->cycle++;
}
