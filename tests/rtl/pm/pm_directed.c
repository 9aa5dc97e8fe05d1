/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_directed.c - the directed ProfileMe scenes (included by pm_harness.c). Each scene programs
 * the unit, drives a few fetch packets and events, then reads registers and record words whose
 * values are worked out here by hand from docs/profileme.md; the model's answer must equal them
 * (and the RTL's the model's, as in every cycle). Stamps are cycles after the selection; with the
 * unit's input stage every event arrives one cycle later (+stage).
 *
 *   1 one load through every stage: map 2, ready 3, issue 5, mem 6 (EA, D-cache miss), complete 9,
 *     retire 12, in the last slot of a full packet (PERIODIC, PERIOD = F)
 *   2 a pair (WINDOW = 1): the second is the next valid slot, in the next packet, and is squashed
 *     behind a mispredict (abort reason 0) while the first retires
 *   3 FIFO full + LOST: empty-slot samples (UNIT = opportunities, no valid slot) every cycle, the
 *     FIFO fills, three are lost, a pop and a push in one cycle
 *   4 filters: event filter MASK = MATCH = DC_MISS drops a plain instruction and keeps a miss;
 *     latency filter TOTAL >= 10 drops a short one and keeps a long one
 *   5 timeout: a lost first (PM_TIMEOUT = 20) and, with two tag ids, a second that is never
 *     fetched: both end at age 20 with TIMEOUT, the second untagged
 */

/* An expectation on this cycle's CSR read (checked on the model's answer after its cycle). */
struct dir_want {
	int on;
	uint64_t value, mask;
	const char *what;
};
static struct dir_want dir_want;

#define EVB(b) (1ull << TIPROF_PM_EV_##b)

static void rd(struct pm_csr_req *c, uint16_t a)
{
	c->req = 1; c->we = 0; c->addr = a; c->priv = 3;
}

static void wr(struct pm_csr_req *c, uint16_t a, uint64_t v)
{
	c->req = 1; c->we = 1; c->addr = a; c->wdata = v; c->priv = 3;
}

static void want(struct pm_csr_req *c, uint16_t a, uint64_t v, uint64_t mask, const char *what)
{
	rd(c, a);
	dir_want.on = 1;
	dir_want.value = v;
	dir_want.mask = mask;
	dir_want.what = what;
}

static void full_packet(struct pm_harness *h, struct tiprof_pm_if *x, uint64_t base)
{
	x->fetch_valid = (uint8_t)((1u << h->cfg.f) - 1u);
	for (unsigned s = 0; s < h->cfg.f; s++)
		x->fetch_pc[s] = base + 4u * s;
	x->fetch_priv = 3;
	x->fetch_ctx = 0x42;
	x->fetch_hist = 0xA5C3;
}

#define CTRL_ON (TIPROF_PM_CTRL_EN_MASK | TIPROF_PM_CTRL_PRIV_MASK)

/* Scene n at local cycle lt; returns 1 when the scene is over. */
static int scene(struct pm_harness *h, int n, uint64_t lt, struct tiprof_pm_if *x,
		 struct tiprof_pm_if *ev, struct pm_csr_req *c)
{
	const unsigned f = h->cfg.f, last = f - 1u;
	const uint64_t s = (uint64_t)h->stage;
	const uint64_t xm = xmask(h);
	const uint64_t pc = 0x1000u + 4u * last, hist = 0xA5C3;
	const uint64_t info_common = ((uint64_t)3 << TIPROF_PM_REC_INFO_PRIV_SHIFT) |
				     TIPROF_PM_REC_INFO_TAGGED_MASK |
				     ((uint64_t)last << TIPROF_PM_REC_INFO_SLOT_SHIFT) |
				     ((uint64_t)0x42 << TIPROF_PM_REC_INFO_CTX_SHIFT) |
				     (hist << TIPROF_PM_REC_INFO_PATH_SHIFT);
	const uint16_t R = TIPROF_PM_R, S = TIPROF_PM_REC_PROFILE_STRIDE;

	/* every scene: T = lt 3 is the selection cycle (PERIOD = F, CTRL written at lt 1) */
	if (lt == 0) { wr(c, TIPROF_PM_PERIOD, f); return 0; }
	switch (n) {
	case 1:
		switch (lt) {
		case 1: wr(c, TIPROF_PM_CTRL, CTRL_ON); return 0;
		case 3: full_packet(h, x, 0x1000); return 0;
		case 4: wr(c, TIPROF_PM_CTRL, TIPROF_PM_CTRL_PRIV_MASK); return 0;   /* EN = 0 */
		case 5: ev->map = 1; ev->load = 1; return 0;
		case 6: ev->ready = 1; return 0;
		case 8: ev->issue = 1; return 0;
		case 9: ev->mem = 1; ev->ea_valid = 1; ev->ea[0] = 0xDEAD0; ev->dc_miss = 1; return 0;
		case 12: ev->complete = 1; return 0;
		case 15: ev->retire = 1; return 0;
		case 18: want(c, TIPROF_PM_FIFO_COUNT, 1, ~0ull, "one record"); return 0;
		case 19: want(c, TIPROF_PM_TAKEN, 1, xm, "TAKEN 1"); return 0;
		case 20: want(c, R + TIPROF_PM_REC_SINFO, TIPROF_PM_REC_FMT, xm, "SINFO single"); return 0;
		case 21: want(c, R + TIPROF_PM_REC_PC, pc, xm, "PC of the last slot"); return 0;
		case 22: want(c, R + TIPROF_PM_REC_EA, 0xDEAD0, xm, "EA"); return 0;
		case 23:
			want(c, R + TIPROF_PM_REC_INFO, (EVB(RETIRED) | EVB(DC_MISS) | EVB(LOAD) |
							  EVB(EA_VALID) | info_common) & xm, xm, "INFO");
			return 0;
		case 24:
			want(c, R + TIPROF_PM_REC_STAMP_A, ((2 + s) | (3 + s) << 16 | (5 + s) << 32 |
							     (9 + s) << 48) & xm, xm, "STAMP_A");
			return 0;
		case 25:
			want(c, R + TIPROF_PM_REC_STAMP_B, ((6 + s) | (12 + s) << 16 | 0x1Full << 32) & xm,
			     xm, "STAMP_B");
			return 0;
		case 26: wr(c, TIPROF_PM_POP, 0); return 0;
		case 27: want(c, TIPROF_PM_FIFO_COUNT, 0, ~0ull, "popped"); return 0;
		default: return lt > 27;
		}
	case 2:
		if (h->cfg.tags < 2)
			return 1;
		switch (lt) {
		case 1: wr(c, TIPROF_PM_PAIR, 1); return 0;   /* d = 1 */
		case 2: wr(c, TIPROF_PM_CTRL, CTRL_ON | TIPROF_PM_CTRL_PAIR_MASK); return 0;
		case 3: full_packet(h, x, 0x1000); return 0;
		case 4:   /* the next valid slot: slot 0 of this packet; EN off with it */
			x->fetch_valid = 1; x->fetch_pc[0] = 0x2000; x->fetch_priv = 3; x->fetch_ctx = 0x42;
			wr(c, TIPROF_PM_CTRL, TIPROF_PM_CTRL_PRIV_MASK);
			return 0;
		case 5: ev->map = 1; return 0;
		case 6: ev->map = 2; return 0;
		case 9: ev->abort = 2; ev->abort_reason[1] = 0; return 0;
		case 11: ev->retire = 1; return 0;
		case 14:
			want(c, R + TIPROF_PM_REC_SINFO, (TIPROF_PM_REC_FMT | TIPROF_PM_REC_SINFO_PAIR_MASK |
							  1ull << TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT |
							  1ull << TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT) & xm,
			     xm, "SINFO pair d=1, 1 cycle apart");
			return 0;
		case 15: want(c, R + TIPROF_PM_REC_PC + S, 0x2000, xm, "second's PC"); return 0;
		case 16:
			want(c, R + TIPROF_PM_REC_INFO + S,
			     (EVB(ABORTED) | (3ull << TIPROF_PM_REC_INFO_PRIV_SHIFT) |
			      TIPROF_PM_REC_INFO_TAGGED_MASK | (0x42ull << TIPROF_PM_REC_INFO_CTX_SHIFT)) & xm,
			     xm, "second: aborted (reason 0), slot 0, path 0");
			return 0;
		case 17:   /* second's stamps relative to its own fetch (lt 4): map 2, end 5 */
			want(c, R + TIPROF_PM_REC_STAMP_B + S, ((5 + s) << 16 | 1ull << 32) & xm, xm,
			     "second's end and seen");
			return 0;
		case 18:
			want(c, R + TIPROF_PM_REC_STAMP_B, ((8 + s) << 16 | 1ull << 32) & xm, xm,
			     "first's end");
			return 0;
		case 19: wr(c, TIPROF_PM_POP, 0); return 0;
		default: return lt > 19;
		}
	case 3: {
		const uint64_t k = h->cfg.fifo_depth + 2u;   /* selections at lt 3 .. 3+k */
		if (lt == 1) { wr(c, TIPROF_PM_TAKEN, 0); return 0; }
		if (lt == 2) { wr(c, TIPROF_PM_CTRL, CTRL_ON | TIPROF_PM_CTRL_UNIT_MASK); return 0; }
		if (lt >= 3 && lt < 3 + k) { x->fetch_priv = 3; return 0; }   /* no valid slot */
		if (lt == 3 + k) { wr(c, TIPROF_PM_CTRL, TIPROF_PM_CTRL_PRIV_MASK); return 0; }
		if (lt == 4 + k) { want(c, TIPROF_PM_TAKEN, h->cfg.fifo_depth, xm, "TAKEN = depth"); return 0; }
		if (lt == 5 + k) { want(c, TIPROF_PM_LOST, 3, xm, "three lost"); return 0; }
		if (lt == 6 + k) {
			want(c, TIPROF_PM_STATUS, TIPROF_PM_STATUS_FULL_MASK, TIPROF_PM_STATUS_FULL_MASK,
			     "FULL");
			return 0;
		}
		if (lt == 7 + k) {
			want(c, R + TIPROF_PM_REC_INFO, EVB(EMPTY) | (3ull << TIPROF_PM_REC_INFO_PRIV_SHIFT) |
			     ((uint64_t)last << TIPROF_PM_REC_INFO_SLOT_SHIFT), xm, "an empty-slot record");
			return 0;
		}
		if (lt == 8 + k) {   /* pop while a new empty sample is pushed (EN for one cycle) */
			wr(c, TIPROF_PM_CTRL, CTRL_ON | TIPROF_PM_CTRL_UNIT_MASK);
			return 0;
		}
		if (lt == 9 + k) { wr(c, TIPROF_PM_POP, 0); x->fetch_priv = 3; return 0; } /* restart: target F-1 */
		if (lt == 10 + k) { wr(c, TIPROF_PM_CTRL, TIPROF_PM_CTRL_PRIV_MASK); return 0; }
		if (lt == 11 + k) { want(c, TIPROF_PM_FIFO_COUNT, h->cfg.fifo_depth, ~0ull, "pop + push"); return 0; }
		if (lt == 12 + k) { want(c, TIPROF_PM_TAKEN, h->cfg.fifo_depth + 1u, xm, "TAKEN + 1"); return 0; }
		if (lt < 13 + k + h->cfg.fifo_depth) { wr(c, TIPROF_PM_POP, 0); return 0; }
		return 1;
	}
	case 4:
		switch (lt) {
		case 1: wr(c, TIPROF_PM_EVFILT, EVB(DC_MISS) | EVB(DC_MISS) << 16); return 0;
		case 2: wr(c, TIPROF_PM_CTRL, CTRL_ON); return 0;
		case 3: full_packet(h, x, 0x1000); wr(c, TIPROF_PM_TAKEN, 0); return 0;
		case 5: ev->retire = 1; return 0;                               /* no miss: filtered */
		case 8: full_packet(h, x, 0x1000); wr(c, TIPROF_PM_FILTERED, 0); return 0;
		case 10: ev->dc_miss = 1; ev->retire = 1; return 0;             /* a miss: kept */
		case 13: want(c, TIPROF_PM_TAKEN, 1, xm, "the miss kept"); return 0;
		case 14: want(c, TIPROF_PM_FILTERED, 0, xm, "FILTERED zeroed after the first"); return 0;
		case 15: wr(c, TIPROF_PM_EVFILT, 0); return 0;
		case 16: wr(c, TIPROF_PM_LATFILT, 10u | (uint64_t)TIPROF_PM_LAT_TOTAL << 16); return 0;
		case 17: full_packet(h, x, 0x1000); return 0;
		case 19: wr(c, TIPROF_PM_POP, 0); return 0;                     /* room for the long one */
		case 22: ev->retire = 1; return 0;                              /* TOTAL 5 (+s) < 10 */
		case 24: full_packet(h, x, 0x1000); return 0;
		case 38: ev->retire = 1; return 0;                              /* TOTAL 14 (+s) */
		case 41: want(c, TIPROF_PM_FILTERED, 1, xm, "the short one filtered"); return 0;
		case 42: want(c, TIPROF_PM_TAKEN, 2, xm, "the long one kept"); return 0;
		case 43: wr(c, TIPROF_PM_LATFILT, 0); return 0;
		case 44: wr(c, TIPROF_PM_CTRL, TIPROF_PM_CTRL_PRIV_MASK); return 0;
		default:
			if (lt >= 45 && lt < 48) { wr(c, TIPROF_PM_POP, 0); return 0; }   /* (the last finds it empty) */
			return lt >= 48;
		}
	case 5:
		switch (lt) {
		case 1: wr(c, TIPROF_PM_TIMEOUT, 20); return 0;
		case 2:
			wr(c, TIPROF_PM_CTRL, CTRL_ON | (h->cfg.tags > 1 ? TIPROF_PM_CTRL_PAIR_MASK : 0));
			return 0;
		case 3: full_packet(h, x, 0x1000); return 0;   /* the first in the last slot */
		case 4: wr(c, TIPROF_PM_CTRL, TIPROF_PM_CTRL_PRIV_MASK); return 0;
		case 30:
			want(c, TIPROF_PM_STATUS, TIPROF_PM_STATUS_TIMEOUT_MASK,
			     TIPROF_PM_STATUS_TIMEOUT_MASK | TIPROF_PM_STATUS_BUSY_MASK, "TIMEOUT, not busy");
			return 0;
		case 31:
			want(c, R + TIPROF_PM_REC_INFO, (EVB(TIMEOUT) | info_common) & xm, xm,
			     "first: TIMEOUT");
			return 0;
		case 32: want(c, R + TIPROF_PM_REC_STAMP_B, (20ull << 16) & xm, xm, "ended at age 20"); return 0;
		case 33:
			if (h->cfg.tags > 1)
				want(c, R + TIPROF_PM_REC_INFO + S, EVB(TIMEOUT), xm, "second: untagged TIMEOUT");
			return 0;
		case 34:
			want(c, R + TIPROF_PM_REC_SINFO,
			     h->cfg.tags > 1 ? (TIPROF_PM_REC_FMT | TIPROF_PM_REC_SINFO_PAIR_MASK |
						1ull << TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT)
					     : TIPROF_PM_REC_FMT, xm, "SINFO: pair of distance 1, PAIR_CYCLES 0");
			return 0;
		case 35: wr(c, TIPROF_PM_POP, 0); return 0;
		case 36: wr(c, TIPROF_PM_STATUS, 0xF); return 0;
		default: return lt > 36;
		}
	default:
		return 1;
	}
}

static int directed(struct pm_harness *h, struct tiprof_pm_if *x, struct tiprof_pm_if *ev,
		    struct pm_csr_req *c)
{
	static const int scenes = 5;

	if (h->dir_scene == 0) {
		h->dir_scene = 1;
		h->dir_t0 = h->t;
	}
	while (h->dir_scene <= scenes) {
		if (!scene(h, h->dir_scene, h->t - h->dir_t0, x, ev, c))
			return 0;
		memset(x, 0, sizeof(*x));
		ev_clear(ev);
		memset(c, 0, sizeof(*c));
		dir_want.on = 0;
		printf("pm-harness: directed scene %d done at cycle %llu\n", h->dir_scene,
		       (unsigned long long)h->t);
		h->dir_scene++;
		h->dir_t0 = h->t;
	}
	return 1;
}

/* After the model's cycle: the expectation of this cycle's read. */
static void dir_check(struct pm_harness *h)
{
	if (!dir_want.on)
		return;
	dir_want.on = 0;
	if ((h->exp.rdata & dir_want.mask) != (dir_want.value & dir_want.mask) || h->exp.illegal)
		fail(h, "directed scene %d cycle %llu: %s: read 0x%llx, expected 0x%llx (mask 0x%llx)",
		     h->dir_scene, (unsigned long long)(h->t - h->dir_t0), dir_want.what,
		     (unsigned long long)h->exp.rdata, (unsigned long long)dir_want.value,
		     (unsigned long long)dir_want.mask);
	else
		h->checks++;
}
