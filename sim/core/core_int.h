/* SPDX-License-Identifier: Apache-2.0 */
/*
 * core_int.h - the core model's state, shared by its files: core.c (configuration, memory
 * hierarchy, prediction, the pipeline, the cycle driver) and core_pm.c (the ProfileMe
 * interface: shadow fetch past a stop, tags, stage events, the issue-slot truth). Not part of
 * the model's interface (core.h).
 */
#ifndef TIPROF_CORE_INT_H
#define TIPROF_CORE_INT_H

#include <stdint.h>

#include "core.h"

/* A set-associative cache (or TLB) with LRU replacement. Each line also remembers when its
 * fill completes, so a hit on a line still in flight waits for it (an MSHR merge). */
struct cache {
	unsigned set_mask;  /* sets - 1 */
	unsigned ways;      /* associativity */
	unsigned shift;     /* log2 of the line (or page) size */
	uint64_t *tag;      /* sets x ways: line number + 1, 0 = invalid */
	uint64_t *ready;    /* sets x ways: cycle the line's data is there */
	uint32_t *lru;      /* sets x ways: last-use stamp */
	uint32_t clock;     /* use counter for the stamps */
};

/* The memory system: split L1s, unified L2 and LLC, TLBs, L1D MSHRs. */
struct memsys {
	struct cache l1i, l1d, l2, llc;
	struct cache itlb, dtlb, l2tlb;
	int tlbs;            /* TLBs modelled */
	uint64_t *mshr;      /* cfg.mshrs entries: cycle each becomes free */
};

/* Resources reserved per cycle in the port ring: issue ports, then the two unpipelined
 * units. */
#define RING      8192u           /* cycles of look-ahead for port reservations */
#define NRES      16u
#define RES_DIV   14u
#define RES_FDIV  15u

/* A store-queue entry (stores in the ROB, oldest first). */
struct sq_ent {
	uint64_t addr;      /* effective address */
	uint64_t t_addr;    /* cycle its address is known */
	uint64_t t_data;    /* cycle its data is ready */
	uint8_t size;       /* bytes */
};

/* One issue queue: the issue cycles of the entries it holds. */
struct iq {
	uint64_t *t;        /* issue cycle of each occupant */
	unsigned n, cap;    /* occupants, capacity */
};

struct core {
	struct core_cfg cfg;        /* configuration */
	struct iss *iss;            /* the program (borrowed) */
	char err[256];              /* last error */
	struct core_stats st;       /* counters */
	uint64_t now;               /* the cycle being simulated */
	int done;                   /* the exit ecall trapped */

	/* instruction ring: [head_seq, disp_seq) is the ROB, [disp_seq, tail_seq) the fetch
	 * buffer; entry for seq s at ring[s & ring_mask] */
	struct core_insn *ring;
	uint64_t ring_mask;
	uint64_t head_seq, disp_seq, tail_seq;
	unsigned rob_head_idx;      /* ROB index of the oldest entry (next entry when empty) */
	unsigned rob_tail_idx;      /* ROB index the next dispatched instruction gets */

	/* front end */
	uint64_t fetch_resume;      /* first cycle fetch may run (UINT64_MAX: waiting) */
	int fetch_stopped;          /* core_fetch_stop: draining for functional warming */
	int iss_done;               /* the ISS delivered the exit ecall */
	int la_valid;               /* la holds the next instruction */
	struct iss_retired la;      /* look-ahead: the next instruction on the correct path */
	int la_exited;              /* la is the exit ecall */
	uint16_t la_events;         /* fetch-side events for la (I$/ITLB miss) */
	uint8_t *pht;               /* gshare 2-bit counters */
	uint32_t ghist;             /* global history */
	struct btb_ent { uint64_t pc, target; } *btb;
	uint64_t *ras;              /* return-address stack (circular) */
	unsigned ras_top;

	/* back end */
	uint64_t reg_ready[64];     /* x0..x31, f0..f31: cycle the value is available */
	uint8_t *busy;              /* RING x NRES reservation bits */
	struct iq iq[3];            /* int, mem, fp */
	unsigned ldq_n, stq_n;      /* occupancy */
	struct sq_ent *sq;          /* store queue ring (stq entries) */
	unsigned sq_head;           /* oldest store */
	struct memsys mem;          /* caches and TLBs */

	/* selective dispatch (core_sd.c); sd_on = 0 (cfg.sd_mode 0) leaves all of it unused */
	int sd_on;
	unsigned sd_drop_n;         /* dropped instructions in the fetch buffer */
	uint32_t sd_idx_xor;        /* XORed into the gshare index of the branch predicted */
	struct core_sd *sd;         /* its state (core_sd.c) */

	/* the ProfileMe interface (core_pm.c); pm_on = 0 leaves all of it unused */
	int pm_on;
	struct core_pm *pm;         /* its state (core_pm.c) */
};

/* ---- between core.c and core_pm.c ---- */

/* Look addr up in c without changing it (no LRU update): 1 if the line is present. */
int cache_probe(const struct cache *c, uint64_t addr);

/* ProfileMe, called by core_cycle() when pm_on: the start of the cycle (out's PM part is
 * cleared); the packet's slot i (n = 0, 1, ...) was fetched from ring entry e; the end of
 * the cycle after fetch (shadow fetch, squashes, events, truth). stop_seq/stop_kind: the
 * correct-path fetch stopped this cycle at instruction stop_seq (CORE_STOP_*), pred_pc is
 * where the front end predicts it goes next. */
enum { CORE_STOP_NONE, CORE_STOP_MISPRED, CORE_STOP_UNIQUE, CORE_STOP_TRAP };
void core_pm_cycle_begin(struct core *c, struct core_cycle_out *out);
void core_pm_fetched(struct core *c, struct core_cycle_out *out, const struct core_insn *e,
		     uint16_t hist);
void core_pm_stop(struct core *c, uint64_t stop_seq, int stop_kind, uint64_t pred_pc);
void core_pm_issue(struct core *c, const struct core_insn *e);
void core_pm_cycle_end(struct core *c, struct core_cycle_out *out);
void core_pm_free(struct core *c);
/* Predicted direction of conditional branch pc, without training (shadow fetch). */
int core_predict_taken(const struct core *c, uint64_t pc);
/* The BTB's target for a taken transfer at pc, or 0 if it has none. */
uint64_t core_btb_target(const struct core *c, uint64_t pc);

/* ---- between core.c and core_sd.c (selective dispatch, docs/core.md) ---- */

/* core.c's fetch helpers: make la hold the next correct-path instruction (0 or -1); check that
 * pc may be fetched as slot n of this cycle's packet of fetch block *blk (n = 0 starts the
 * packet: sets *blk and looks the ITLB and L1I up, events into *ev): 0 yes, 1 no (another
 * block: the packet ends), 2 no (the block arrives later: fetch_resume is set); predict and
 * train for transfer e. */
int core_fetch_peek(struct core *c);
int core_fetch_block(struct core *c, uint64_t pc, unsigned n, uint64_t *blk, uint16_t *ev);
int core_predict(struct core *c, struct core_insn *e, const struct iss_retired *r,
		 uint64_t *pred);

/* Fetch-stage results of core_sd_walk / core_sd_profile. */
enum {
	CORE_SD_NORMAL,   /* not handled: la becomes a ring entry as usual */
	CORE_SD_SLOT,     /* one instruction fetched and to be dropped at decode: a slot used */
	CORE_SD_FREE,     /* instructions skipped at fetch, no slot: the packet goes on */
	CORE_SD_END,      /* the packet ends (slot used if slot_used is set) */
	CORE_SD_STALL,    /* fetch stalls this cycle (I-cache miss or a redirect) */
};
int core_sd_init(struct core *c);
void core_sd_free(struct core *c);
/* Walking a skipped block: fetch its next instruction as slot n (*slot_used set when it took
 * a slot). Returns CORE_SD_SLOT, _END or _STALL; -1 never. */
int core_sd_walk(struct core *c, unsigned n, uint64_t *blk, int *slot_used);
int core_sd_walking(const struct core *c);
/* la (already checked to fit the packet) is an Xtpsd profile instruction: filter, walk,
 * BDT. Returns CORE_SD_*, or -1 on an ISS error. */
int core_sd_profile(struct core *c, unsigned n, uint64_t blk);
/* e was made from la (the ISS's record r): flag writers, serializing reloads, executed
 * profile instructions; then its prediction (replaces core_predict). */
void core_sd_fetched(struct core *c, struct core_insn *e, const struct iss_retired *r);
int core_sd_predict(struct core *c, struct core_insn *e, const struct iss_retired *r,
		    uint64_t *pred);
/* The decode slots of the dispatch stage: consume dropped instructions due before
 * disp_seq, up to *slots < width. Returns 1 if the stage must stop (not yet decodable). */
int core_sd_decode_drops(struct core *c, unsigned *slots);
/* Decode (dispatch) of a flag writer e: BDT locks released, the poppf hazard starts. */
void core_sd_decoded(struct core *c, const struct core_insn *e);
/* A profile instruction cannot be decoded this cycle (poppf hazard; counts the stall). */
int core_sd_poppf_wait(struct core *c);
/* After functional warming: the front-end copy from the ISS, no walk, no run. */
void core_sd_resync(struct core *c);

#endif /* TIPROF_CORE_INT_H */
