/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tip_model.c - C reference model of the TIP unit (Time-Proportional Instruction
 * Profiling, Gottschall/Eeckhout/Jahre MICRO 2021), cycle-exact at its ports as
 * docs/tip-unit.md specifies: Offending Instruction Register, commit-state
 * classification of a sampled cycle, the sampler (periodic, random-interval,
 * random-period, 32-bit Galois LFSR), the sample FIFO with pending Drained
 * samples, and the CSR port.
 *
 * Written from docs/tip-unit.md and the paper only (not from the RTL), so the
 * random differential test against the RTL compares two independent readings
 * of the spec.
 *
 * One call of tip_model_cycle() is one rising clock edge: every decision of
 * cycle t is computed from the cycle's inputs and the state at the start of the
 * cycle, then the state becomes the state at the start of cycle t+1.  The
 * common cycle (no CSR access, no trigger, nothing pending) touches only a few
 * words: no allocation, no loop over the FIFO.
 *
 * No global mutable state; nothing is printed; errors are return values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tip_model.h"

/* CTRL bits that name fields (bits 12:0); any other set bit makes a write illegal. */
#define CTRL_FIELDS (TIPROF_TIP_CTRL_EN_MASK | TIPROF_TIP_CTRL_MODE_MASK | \
		     TIPROF_TIP_CTRL_IRQ_EN_MASK | TIPROF_TIP_CTRL_PRIV_MASK | \
		     TIPROF_TIP_CTRL_RAND_BITS_MASK | TIPROF_TIP_CTRL_TRIGGER_MASK)
/* STATUS bits that are sticky (stored) and write-1-to-clear. */
#define STICKY_BITS (TIPROF_TIP_STATUS_CFG_ERR_MASK | TIPROF_TIP_STATUS_POP_EMPTY_MASK)
/* OIR flags: any of them makes an empty-ROB cycle Flushed rather than Drained. */
#define OIR_FLAGS (TIPROF_SF_MISPRED | TIPROF_SF_FLUSH | TIPROF_SF_EXCEPTION)
/* Address of TIP_S_ADDR0; TIP_S_ADDRi = base + i. */
#define S_ADDR_BASE TIPROF_TIP_S_ADDR
#define MAX_REG_VALUE32 0xFFFFFFFFull

/* Address mask of the configuration: XLEN low bits. */
static inline uint64_t xmask(const struct tip_model *m)
{
	return m->cfg.xlen == 64 ? ~(uint64_t)0 : (uint64_t)0xFFFFFFFFu;
}

/* Mask of the W bank bits. */
static inline unsigned bmask(const struct tip_model *m)
{
	return (1u << m->cfg.w) - 1u;
}

/* Rotate the W-bit bank mask x right by hb, so that bit 0 is bank hb and bit j is
 * bank (hb + j) mod W: the banks in age order, oldest first. */
static inline unsigned rot_age(unsigned x, unsigned hb, unsigned w)
{
	return ((x >> hb) | (x << (w - hb))) & ((1u << w) - 1u);
}

/* First bank in age order (starting at hb) whose bit is set in x; x must be nonzero. */
static inline unsigned first_bank(unsigned x, unsigned hb, unsigned w)
{
	return (hb + (unsigned)__builtin_ctz(rot_age(x, hb, w))) & (w - 1u);
}

/* Last (youngest) bank in age order whose bit is set in x; x must be nonzero. */
static inline unsigned last_bank(unsigned x, unsigned hb, unsigned w)
{
	return (hb + 31u - (unsigned)__builtin_clz(rot_age(x, hb, w))) & (w - 1u);
}

/* One Galois LFSR step: lsb = s & 1; s >>= 1; if (lsb) s ^= LFSR_TOGGLE. */
static inline uint32_t lfsr_step(uint32_t s)
{
	uint32_t lsb = s & 1u;

	s >>= 1;
	if (lsb)
		s ^= TIPROF_LFSR_TOGGLE;
	return s;
}

/* The sampler's draw: the next target (interval position of the next sample) for
 * configuration ctrl and period p (1 .. 2^32-1), using the LFSR value lfsr of the
 * current cycle. PERIODIC: p-1; RANDOM_INTERVAL: floor(r * p / 2^k); RANDOM_PERIOD:
 * L-1 with L = p + r - h clamped to [lmin, 2^32], r = lfsr & (2^k-1), h = k ? 2^(k-1) : 0,
 * lmin = W for the instruction trigger (CTRL.TRIGGER in ctrl), else 1. */
static uint32_t draw(uint32_t ctrl, uint32_t p, uint32_t lfsr, unsigned w)
{
	unsigned mode = (ctrl & TIPROF_TIP_CTRL_MODE_MASK) >> TIPROF_TIP_CTRL_MODE_SHIFT;
	unsigned k = (ctrl & TIPROF_TIP_CTRL_RAND_BITS_MASK) >> TIPROF_TIP_CTRL_RAND_BITS_SHIFT;
	uint32_t r = lfsr & (uint32_t)((UINT64_C(1) << k) - 1u);

	switch (mode) {
	case TIPROF_MODE_RANDOM_INTERVAL:	/* r < 2^k, so the result is < p */
		return (uint32_t)(((uint64_t)r * p) >> k);
	case TIPROF_MODE_RANDOM_PERIOD: {
		int64_t h = k ? (INT64_C(1) << (k - 1)) : 0;
		int64_t len = (int64_t)p + (int64_t)r - h;

		int64_t lmin = (ctrl & TIPROF_TIP_CTRL_TRIGGER_MASK) ? (int64_t)w : 1;

		if (len < lmin)
			len = lmin;
		if (len > (INT64_C(1) << 32))
			len = INT64_C(1) << 32;
		return (uint32_t)(len - 1);
	}
	default: /* PERIODIC (MODE=3 cannot be stored) */
		return p - 1u;
	}
}

/* Whether a TIP_CTRL write of v is legal: no bit outside the fields, MODE != 3, and the
 * instruction trigger only with PERIOD >= W (docs/tip-unit.md, "The instruction trigger"). */
static int ctrl_write_ok(const struct tip_model *m, uint64_t v)
{
	return !(v & ~(uint64_t)CTRL_FIELDS) &&
	       (v & TIPROF_TIP_CTRL_MODE_MASK) != TIPROF_TIP_CTRL_MODE_MASK &&
	       !((v & TIPROF_TIP_CTRL_TRIGGER_MASK) && m->period < m->cfg.w);
}

/* Whether a TIP_PERIOD write of v is legal: 1 .. 2^32-1, and >= W with the instruction
 * trigger. */
static int period_write_ok(const struct tip_model *m, uint64_t v)
{
	return v != 0 && v <= MAX_REG_VALUE32 &&
	       !((m->ctrl & TIPROF_TIP_CTRL_TRIGGER_MASK) && v < m->cfg.w);
}

/* Bank of the j-th bank in age order (from hb) whose bit is set in x (j < popcount x). */
static unsigned nth_bank(unsigned x, unsigned hb, unsigned w, unsigned j)
{
	unsigned r = rot_age(x, hb, w);

	while (j--)
		r &= r - 1u;
	return (hb + (unsigned)__builtin_ctz(r)) & (w - 1u);
}

/* Whether addr names a register of this configuration (in the map, not a ..H register
 * on XLEN=64, not TIP_S_ADDRi with i >= W). */
static int csr_in_map(const struct tip_model *m, unsigned addr)
{
	switch (addr) {
	case TIPROF_TIP_CTRL: case TIPROF_TIP_PERIOD: case TIPROF_TIP_WATERMARK:
	case TIPROF_TIP_LFSR: case TIPROF_TIP_POP: case TIPROF_TIP_STATUS:
	case TIPROF_TIP_TAKEN: case TIPROF_TIP_LOST: case TIPROF_TIP_MENABLE:
	case TIPROF_TIP_ID: case TIPROF_TIP_PARAMS: case TIPROF_TIP_CYCLE:
	case TIPROF_TIP_FIFO_COUNT: case TIPROF_TIP_S_CYCLE: case TIPROF_TIP_S_INFO:
	case TIPROF_TIP_S_CTX:
		return 1;
	case TIPROF_TIP_TAKENH: case TIPROF_TIP_LOSTH: case TIPROF_TIP_CYCLEH:
	case TIPROF_TIP_S_CYCLEH:
		return m->cfg.xlen == 32;
	default:
		return addr >= S_ADDR_BASE && addr < S_ADDR_BASE + m->cfg.w;
	}
}

/* Whether an access (we, addr, priv) is legal (docs/tip-unit.md, "The CSR port"). */
static int csr_legal(const struct tip_model *m, unsigned addr, int we, unsigned priv)
{
	if (!csr_in_map(m, addr))
		return 0;
	if (we && (addr >> 10) == 3u)
		return 0;
	if (priv < ((addr >> 8) & 3u))
		return 0;
	if (priv != TIPROF_PRIV_M && addr != TIPROF_TIP_MENABLE && !m->menable)
		return 0;
	return 1;
}

/* The oldest FIFO entry if it is complete, else NULL (empty FIFO, or the oldest entry is
 * pending). With consistent ROB inputs pending entries are the youngest, so this is
 * "some entry is complete"; see the FIFO comment in tip_model_cycle() for the rest. */
static inline const struct tip_fifo_entry *oldest_complete(const struct tip_model *m)
{
	return m->used && !m->fifo[m->head].pending ? &m->fifo[m->head] : NULL;
}

/* TIP_STATUS as read: {FULL, PENDING, IRQ, POP_EMPTY, CFG_ERR} in bits 4..0. */
static uint32_t status_value(const struct tip_model *m)
{
	uint32_t v = m->status_sticky & STICKY_BITS;

	if (tip_model_irq(m))
		v |= TIPROF_TIP_STATUS_IRQ_MASK;
	if (m->pending)
		v |= TIPROF_TIP_STATUS_PENDING_MASK;
	if (m->used == m->cfg.fifo_depth)
		v |= TIPROF_TIP_STATUS_FULL_MASK;
	return v;
}

/* Value of a legal read of addr at the start of the cycle, before masking to XLEN
 * (64-bit counters are returned whole: the caller's XLEN mask leaves the low half). */
static uint64_t csr_read(const struct tip_model *m, unsigned addr)
{
	const struct tip_fifo_entry *e = oldest_complete(m);

	switch (addr) {
	case TIPROF_TIP_CTRL: return m->ctrl;
	case TIPROF_TIP_PERIOD: return m->period;
	case TIPROF_TIP_WATERMARK: return m->watermark;
	case TIPROF_TIP_LFSR: return m->lfsr;
	case TIPROF_TIP_POP: return 0;
	case TIPROF_TIP_STATUS: return status_value(m);
	case TIPROF_TIP_TAKEN: return m->taken;
	case TIPROF_TIP_LOST: return m->lost;
	case TIPROF_TIP_TAKENH: return m->taken >> 32;
	case TIPROF_TIP_LOSTH: return m->lost >> 32;
	case TIPROF_TIP_MENABLE: return m->menable & 1u;
	case TIPROF_TIP_ID:
		return TIPROF_TIP_ID_MAGIC | (TIPROF_TIP_ID_MAJOR << TIPROF_TIP_ID_MAJOR_SHIFT) |
		       (TIPROF_TIP_ID_MINOR << TIPROF_TIP_ID_MINOR_SHIFT);
	case TIPROF_TIP_PARAMS:
		return (uint64_t)m->cfg.w | ((uint64_t)m->cfg.xlen << TIPROF_TIP_PARAMS_XLEN_SHIFT) |
		       ((uint64_t)m->cfg.fifo_depth << TIPROF_TIP_PARAMS_DEPTH_SHIFT);
	case TIPROF_TIP_CYCLE: return m->cycle;
	case TIPROF_TIP_CYCLEH: return m->cycle >> 32;
	case TIPROF_TIP_FIFO_COUNT: return m->used - m->pending;
	case TIPROF_TIP_S_CYCLE: return e ? e->s.cycle : 0;
	case TIPROF_TIP_S_CYCLEH: return e ? e->s.cycle >> 32 : 0;
	case TIPROF_TIP_S_INFO: return e ? tiprof_sample_info(&e->s) : 0;
	case TIPROF_TIP_S_CTX: return e ? e->s.ctx : 0;
	default: /* TIP_S_ADDRi, i < W (checked by csr_in_map) */
		return e ? e->s.addr[addr - S_ADDR_BASE] : 0;
	}
}

/* Complete a Drained sample: its attributed instruction is in bank b at address a.
 * The other slots are already 0. */
static inline void complete_sample(struct tiprof_sample *s, unsigned b, uint64_t a)
{
	s->bank = (uint8_t)b;
	s->valid = (uint8_t)(1u << b);
	s->addr[b] = a;
}

/* A sample is a Drained sample still waiting for its address (a completed one has
 * exactly one VALID bit). */
static inline int sample_pending(const struct tiprof_sample *s)
{
	return s->flags == TIPROF_SF_FRONTEND && s->valid == 0;
}

/* Contract in tip_model.h: validate cfg, allocate the FIFO, reset. 0 / -EINVAL / -ENOMEM;
 * on failure m->fifo is NULL and tip_model_fini() is safe. */
int tip_model_init(struct tip_model *m, const struct tip_model_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	if (!cfg || (cfg->w != 1 && cfg->w != 2 && cfg->w != 4 && cfg->w != 8) ||
	    (cfg->xlen != 32 && cfg->xlen != 64) || cfg->fifo_depth < 1 ||
	    cfg->fifo_depth > 65535 || cfg->input_stage > 1)
		return -EINVAL;
	m->cfg = *cfg;
	m->fifo = calloc(cfg->fifo_depth, sizeof(*m->fifo));
	if (!m->fifo)
		return -ENOMEM;
	tip_model_reset(m);
	return 0;
}

/* Contract in tip_model.h: free the FIFO storage (idempotent). */
void tip_model_fini(struct tip_model *m)
{
	free(m->fifo);
	m->fifo = NULL;
	m->used = m->pending = m->head = 0;
}

/* Contract in tip_model.h: asynchronous reset, every register to its reset value, every
 * FIFO entry (pending ones included) discarded. */
void tip_model_reset(struct tip_model *m)
{
	memset(&m->rob_q, 0, sizeof(m->rob_q));
	m->oir_addr = 0;
	m->oir_flags = 0;
	m->oir_priv = 0;
	m->oir_ctx = 0;
	m->cycle = 0;
	/* pos/target: unobservable while CTRL.EN = 0, and every way to set EN restarts them. */
	m->pos = 0;
	m->target = 0;
	m->lfsr = TIPROF_TIP_LFSR_RESET;
	m->ctrl = TIPROF_TIP_CTRL_RESET;
	m->period = TIPROF_TIP_PERIOD_RESET;
	m->watermark = TIPROF_TIP_WATERMARK_RESET;
	m->status_sticky = 0;
	m->taken = 0;
	m->lost = 0;
	m->menable = 0;
	m->head = 0;
	m->used = 0;
	m->pending = 0;
	m->fired = 0;
	m->fired_lost = 0;
	memset(&m->last, 0, sizeof(m->last));
}

/* Contract in tip_model.h: irq_o = CTRL.IRQ_EN & FIFO_COUNT >= WATERMARK (state only). */
int tip_model_irq(const struct tip_model *m)
{
	return (m->ctrl & TIPROF_TIP_CTRL_IRQ_EN_MASK) &&
	       m->used - m->pending >= m->watermark;
}

/* Contract in tip_model.h: TIP_FIFO_COUNT, the number of complete entries. */
unsigned tip_model_fifo_count(const struct tip_model *m)
{
	return m->used - m->pending;
}

/* Contract in tip_model.h: remove the oldest entry if complete (s may be NULL); 1 if a
 * sample was removed, else 0. Unlike a TIP_POP write it never sets POP_EMPTY. */
int tip_model_pop(struct tip_model *m, struct tiprof_sample *s)
{
	if (!oldest_complete(m))
		return 0;
	if (s)
		*s = m->fifo[m->head].s;
	if (++m->head == m->cfg.fifo_depth)
		m->head = 0;
	m->used--;
	return 1;
}

/* Build the sample of this cycle (docs/tip-unit.md, commit-state table) from the
 * decoded inputs and the OIR at the start of the cycle. The table's rows are taken in
 * order: Computing if anything commits (even if, with inconsistent inputs, the head bank
 * is empty), else Stalled if the ROB is not empty, else Flushed or Drained. A Drained
 * sample is returned with BANK = VALID = 0 and no address (to be completed). */
static void build_sample(const struct tip_model *m, const struct tiprof_rob_if *rob,
			 unsigned hb, unsigned hv, unsigned cm, int empty,
			 struct tiprof_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->cycle = m->cycle;
	if (cm || !empty) { /* Computing takes precedence (first row of the table) */
		uint64_t am = xmask(m);
		unsigned v = cm ? cm : hv;

		s->flags = cm ? 0 : TIPROF_SF_STALLED;
		s->bank = (uint8_t)hb;
		s->valid = (uint8_t)v;
		s->priv = rob->priv & 3u;
		s->ctx = rob->ctx_id;
		for (unsigned i = 0; v; i++, v >>= 1)
			if (v & 1u)
				s->addr[i] = rob->head_pc[i] & am;
	} else {
		s->priv = m->oir_priv;
		s->ctx = m->oir_ctx;
		if (m->oir_flags & OIR_FLAGS) {
			s->flags = m->oir_flags & OIR_FLAGS;
			s->bank = 0;
			s->valid = 1;
			s->addr[0] = m->oir_addr;
		} else {
			s->flags = TIPROF_SF_FRONTEND;
		}
	}
}

/* Contract in tip_model.h: one clock edge. rob may also be NULL (all inputs 0). Input bits
 * beyond the configuration are ignored: per-bank bits >= W, head_bank bits >= log2(W),
 * address and write-data bits >= XLEN, priv bits >= 2, CSR address bits >= 12. */
void tip_model_cycle(struct tip_model *m, const struct tiprof_rob_if *rob,
		     const struct tip_csr_req *csr, struct tip_csr_resp *resp)
{
	static const struct tiprof_rob_if idle_rob; /* all-zero inputs for rob == NULL */
	const unsigned w = m->cfg.w;
	const uint64_t am = xmask(m);
	const uint32_t lfsr_now = m->lfsr;
	struct tip_csr_resp r = { 0, 0 };
	int wr = 0;                 /* a legal write this cycle */
	unsigned inc_taken = 0, inc_lost = 0;
	unsigned waddr = 0;
	uint64_t wdata = 0;

	struct tiprof_rob_if staged;

	if (!rob)
		rob = &idle_rob;
	if (m->cfg.input_stage) { /* judge this cycle on the register's value, load the inputs */
		staged = m->rob_q;
		m->rob_q = *rob;
		rob = &staged;
	}

	/* ---- decode the ROB interface ---- */
	const unsigned hb = rob->head_bank & (w - 1u);
	const unsigned hv = rob->head_valid & bmask(m);
	const unsigned cm = hv & rob->head_commit;
	const int empty = !((hv >> hb) & 1u);
	const int exc = rob->exception && !empty && !cm;
	const unsigned rpriv = rob->priv & 3u;

	/* ---- CSR port: combinational response from the start-of-cycle state ---- */
	if (csr && csr->req) {
		unsigned addr = csr->addr & 0xFFFu;

		if (!csr_legal(m, addr, csr->we, csr->priv & 3u)) {
			r.illegal = 1;
		} else if (csr->we) {
			wr = 1;
			waddr = addr;
			wdata = csr->wdata & am;
		} else {
			r.rdata = csr_read(m, addr) & am;
		}
	}
	if (resp)
		*resp = r;

	/* ---- trigger: uses the start-of-cycle CTRL, pos, target ---- */
	int fire = 0;
	unsigned isel = 0; /* instruction trigger: the selected banks */
	const int itrig = (m->ctrl & TIPROF_TIP_CTRL_TRIGGER_MASK) != 0;
	/* interval positions this cycle: 1 cycle, or the committing instructions */
	const unsigned npos = itrig ? (unsigned)__builtin_popcount(cm) : 1u;
	/* a legal CTRL/PERIOD write restarts the sampler at the end of the cycle */
	const int restart_now = wr && ((waddr == TIPROF_TIP_CTRL && ctrl_write_ok(m, wdata)) ||
				       (waddr == TIPROF_TIP_PERIOD && period_write_ok(m, wdata)));
	m->fired = 0;
	m->fired_lost = 0;
	if ((m->ctrl & TIPROF_TIP_CTRL_EN_MASK) && !itrig && m->pos == m->target) {
		/* the sample's privilege: the inputs' for Computing/Stalled, the OIR's for
		 * Flushed/Drained (build_sample() makes the same choice) */
		unsigned spriv = (empty && !cm) ? m->oir_priv : rpriv;

		fire = (m->ctrl >> (TIPROF_TIP_CTRL_PRIV_SHIFT + spriv)) & 1u;
	} else if ((m->ctrl & TIPROF_TIP_CTRL_EN_MASK) && itrig && npos) {
		/* positions pos .. pos+n-1 are the committing banks in age order */
		const int ri = ((m->ctrl & TIPROF_TIP_CTRL_MODE_MASK) >> TIPROF_TIP_CTRL_MODE_SHIFT) ==
			       TIPROF_MODE_RANDOM_INTERVAL;
		const uint64_t plen = ri ? (uint64_t)m->period : (uint64_t)m->target + 1u;
		const uint64_t pend = (uint64_t)m->pos + npos;

		if (m->target >= m->pos && m->target < pend) /* selection A */
			isel |= 1u << nth_bank(cm, hb, w, m->target - m->pos);
		if (ri && pend >= plen && !restart_now) { /* selection B: next point in this cycle */
			uint64_t t2 = draw(m->ctrl, m->period, lfsr_now, w);

			if (t2 < pend - plen)
				isel |= 1u << nth_bank(cm, hb, w, (unsigned)(plen - m->pos + t2));
		}
		if (isel)
			fire = (m->ctrl >> (TIPROF_TIP_CTRL_PRIV_SHIFT + rpriv)) & 1u;
	}

	/* ---- FIFO step 1: pop ---- */
	if (wr && waddr == TIPROF_TIP_POP) {
		if (oldest_complete(m)) {
			if (++m->head == m->cfg.fifo_depth)
				m->head = 0;
			m->used--;
		} else {
			m->status_sticky |= TIPROF_TIP_STATUS_POP_EMPTY_MASK;
		}
	}

	/* ---- FIFO step 2: complete pending Drained samples ----
	 * Each entry has its own pending bit. With consistent ROB inputs (the head bank is
	 * valid whenever any bank is) the pending entries are always the youngest, as the
	 * spec says. With inconsistent inputs (a bank commits while the head bank is empty)
	 * the OIR can gain a flag while the ROB counts as empty, and a complete Flushed
	 * sample can be allocated behind a pending one; the model then follows the spec's
	 * per-entry wording literally: FIFO_COUNT counts complete entries, TIP_S_* and POP
	 * look at the oldest entry only, and a completion completes every pending entry. */
	if (m->pending || fire || sample_pending(&m->last)) {
		int can = 0;
		unsigned cb = 0;
		uint64_t ca = 0;
		unsigned disp = rob->disp_valid & bmask(m);

		if (empty) {
			if (disp) {
				can = 1;
				cb = first_bank(disp, hb, w);
				ca = rob->disp_pc[cb] & am;
			}
		} else { /* fallback: no dispatch was seen, complete from the head */
			can = 1;
			cb = hb;
			ca = rob->head_pc[hb] & am;
		}
		if (can) {
			/* every pending entry completes; walk from the youngest until all are
			 * found (they are the youngest ones unless the ROB inputs were
			 * inconsistent, see the FIFO comment above) */
			unsigned n = m->pending;
			unsigned i = m->head + m->used;

			if (i >= m->cfg.fifo_depth)
				i -= m->cfg.fifo_depth;
			while (n) {
				i = i ? i - 1 : m->cfg.fifo_depth - 1;
				if (m->fifo[i].pending) {
					complete_sample(&m->fifo[i].s, cb, ca);
					m->fifo[i].pending = 0;
					n--;
				}
			}
			m->pending = 0;
			if (sample_pending(&m->last))
				complete_sample(&m->last, cb, ca);
		}

		/* ---- FIFO step 3: allocate ---- */
		if (fire) {
			struct tiprof_sample s;
			int pend = 0;

			/* the instruction trigger's sample: Computing, the selected banks only */
			build_sample(m, rob, hb, hv, itrig ? isel : cm, empty, &s);
			if (s.flags == TIPROF_SF_FRONTEND) {
				if (can)
					complete_sample(&s, cb, ca);
				else
					pend = 1;
			}
			m->last = s;
			m->fired = 1;
			if (m->used < m->cfg.fifo_depth) {
				unsigned j = m->head + m->used;

				if (j >= m->cfg.fifo_depth)
					j -= m->cfg.fifo_depth;
				m->fifo[j].s = s;
				m->fifo[j].pending = pend;
				m->used++;
				m->pending += (unsigned)pend;
				inc_taken = 1;
			} else {
				inc_lost = 1;
				m->fired_lost = 1;
			}
		}
	}

	/* ---- register writes; a write of TAKEN/LOST (either half) wins over the
	 * increment: the counter becomes the start-of-cycle value with the written
	 * half replaced (XLEN=32) or the written value (XLEN=64) ---- */
	int restart = 0;
	const uint64_t old_taken = m->taken, old_lost = m->lost;
	m->taken += inc_taken;
	m->lost += inc_lost;
	if (wr) {
#define CNT_WRITE(old, hi) \
	(m->cfg.xlen == 64 ? wdata : \
	 (hi) ? ((wdata << 32) | ((old) & 0xFFFFFFFFu)) : (((old) & ~(uint64_t)0xFFFFFFFFu) | wdata))
		switch (waddr) {
		case TIPROF_TIP_CTRL:
			if (!ctrl_write_ok(m, wdata)) {
				m->status_sticky |= TIPROF_TIP_STATUS_CFG_ERR_MASK;
			} else {
				m->ctrl = (uint32_t)wdata;
				restart = 1;
			}
			break;
		case TIPROF_TIP_PERIOD:
			if (!period_write_ok(m, wdata)) {
				m->status_sticky |= TIPROF_TIP_STATUS_CFG_ERR_MASK;
			} else {
				m->period = (uint32_t)wdata;
				restart = 1;
			}
			break;
		case TIPROF_TIP_WATERMARK:
			if (wdata == 0 || wdata > m->cfg.fifo_depth)
				m->status_sticky |= TIPROF_TIP_STATUS_CFG_ERR_MASK;
			else
				m->watermark = (uint32_t)wdata;
			break;
		case TIPROF_TIP_LFSR:
			/* applied below, instead of the step */
			if (wdata == 0 || wdata > MAX_REG_VALUE32)
				m->status_sticky |= TIPROF_TIP_STATUS_CFG_ERR_MASK;
			break;
		case TIPROF_TIP_STATUS:
			m->status_sticky &= (uint8_t)~(wdata & STICKY_BITS);
			break;
		case TIPROF_TIP_TAKEN: m->taken = CNT_WRITE(old_taken, 0); break;
		case TIPROF_TIP_TAKENH: m->taken = CNT_WRITE(old_taken, 1); break;
		case TIPROF_TIP_LOST: m->lost = CNT_WRITE(old_lost, 0); break;
		case TIPROF_TIP_LOSTH: m->lost = CNT_WRITE(old_lost, 1); break;
		case TIPROF_TIP_MENABLE:
			m->menable = (uint8_t)(wdata & TIPROF_TIP_MENABLE_S_MASK);
			break;
		default: /* TIP_POP handled above */
			break;
		}
#undef CNT_WRITE
	}

	/* ---- OIR update ---- */
	if (cm) {
		unsigned y = last_bank(cm, hb, w);

		m->oir_addr = rob->head_pc[y] & am;
		m->oir_flags = (uint8_t)((((rob->head_mispred >> y) & 1u) ? TIPROF_SF_MISPRED : 0) |
					 (((rob->head_flush >> y) & 1u) ? TIPROF_SF_FLUSH : 0));
		m->oir_priv = (uint8_t)rpriv;
		m->oir_ctx = rob->ctx_id;
	} else if (exc) {
		m->oir_addr = rob->head_pc[hb] & am;
		m->oir_flags = TIPROF_SF_EXCEPTION;
		m->oir_priv = (uint8_t)rpriv;
		m->oir_ctx = rob->ctx_id;
	}

	/* ---- sampler: restart (legal CTRL/PERIOD write) or advance (while EN) ---- */
	if (restart) {
		m->pos = 0;
		m->target = draw(m->ctrl, m->period, lfsr_now, w);
	} else if (m->ctrl & TIPROF_TIP_CTRL_EN_MASK) {
		/* no legal CTRL write this cycle, so m->ctrl is the configuration in effect. The
		 * cycle brings npos positions (1 for cycles); the interval ends when they reach
		 * its length and the positions past the end start the next one (fewer than W:
		 * PERIOD >= W and L >= W with the instruction trigger). */
		const uint64_t plen = ((m->ctrl & TIPROF_TIP_CTRL_MODE_MASK) >>
				       TIPROF_TIP_CTRL_MODE_SHIFT) == TIPROF_MODE_RANDOM_INTERVAL
					      ? (uint64_t)m->period
					      : (uint64_t)m->target + 1u;
		const uint64_t pend = (uint64_t)m->pos + npos;

		if (pend >= plen) {
			m->pos = (uint32_t)(pend - plen);
			m->target = draw(m->ctrl, m->period, lfsr_now, w);
		} else {
			m->pos = (uint32_t)pend;
		}
	}

	/* ---- LFSR: a legal write sets next cycle's value instead of the step ---- */
	if (wr && waddr == TIPROF_TIP_LFSR && wdata != 0 && wdata <= MAX_REG_VALUE32)
		m->lfsr = (uint32_t)wdata;
	else
		m->lfsr = lfsr_step(lfsr_now);

	m->cycle++;
}
