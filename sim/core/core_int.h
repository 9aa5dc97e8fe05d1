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

#endif /* TIPROF_CORE_INT_H */
