/* SPDX-License-Identifier: Apache-2.0 */
/*
 * core.h - cycle-level out-of-order timing model of a BOOM-like RISC-V core,
 * driven by the ISS one instruction at a time (execute at fetch: the ISS
 * supplies the correct path; wrong-path work appears as a front-end redirect
 * delay after a mispredicted transfer resolves). Every cycle it produces the
 * ROB interface of DESIGN.md / docs/tip-unit.md (struct tiprof_rob_if) and
 * the records of the instructions that left the ROB in that cycle, with their
 * stage times and events. docs/core.md describes the model and where it
 * departs from BOOM. No global mutable state; errors are returned.
 */
#ifndef TIPROF_CORE_H
#define TIPROF_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "iss.h"
#include "tiprof/tiprof_regs.h"

/* Configuration. core_cfg_preset() fills a complete one; core_cfg_set() changes one field
 * by name (the names are the field names). All counts are entries, latencies cycles. */
struct core_cfg {
	unsigned width;          /* decode/rename/dispatch/commit width = ROB banks: 1,2,4,8 */
	unsigned fetch_width;    /* instructions fetched per cycle (1..16) */
	unsigned fetch_bytes;    /* aligned fetch block in bytes (power of 2, 8..64) */
	unsigned fetch_buf;      /* fetch buffer entries between fetch and dispatch */
	unsigned frontend_lat;   /* cycles from fetch to earliest dispatch (>= 1) */
	unsigned rob;            /* ROB entries (multiple of width, <= 4096) */
	unsigned iq_int, iq_mem, iq_fp;          /* issue-queue entries */
	unsigned ports_int, ports_mem, ports_fp; /* issue ports (1..4 each) */
	unsigned ldq, stq;       /* load and store queue entries */
	unsigned lat_alu, lat_mul, lat_div;      /* integer latencies; div unpipelined */
	unsigned lat_fadd, lat_fmul, lat_fma;    /* FP latencies (pipelined) */
	unsigned lat_fdiv, lat_fcvt, lat_fmisc;  /* fdiv/fsqrt unpipelined */
	unsigned lat_stlf;       /* load latency when forwarded from the store queue */
	unsigned replay_penalty; /* extra cycles of a load re-executed after an ordering miss */
	unsigned l1i_kb, l1i_ways, l1d_kb, l1d_ways, lat_l1; /* L1 (64-byte lines) */
	unsigned l2_kb, l2_ways, lat_l2;    /* L2; lat_* are added per level missed */
	unsigned llc_kb, llc_ways, lat_llc; /* last-level cache */
	unsigned lat_dram;       /* added on an LLC miss */
	unsigned mshrs;          /* L1D outstanding line misses */
	unsigned tlb_entries;    /* L1 ITLB and DTLB entries each (0 = no TLB modelled) */
	unsigned l2tlb_entries;  /* shared L2 TLB entries */
	unsigned lat_l2tlb;      /* added on an L1 TLB miss that hits the L2 TLB */
	unsigned lat_walk;       /* added on an L2 TLB miss (page walk) */
	unsigned ghist_bits;     /* gshare: log2 of 2-bit counters = history length */
	unsigned btb_entries;    /* direct-mapped, tagged (power of 2) */
	unsigned ras_entries;    /* return-address stack */
	unsigned redirect_lat;   /* cycles from a mispredict resolving to the refetch */
	unsigned btb_miss_lat;   /* fetch bubble of a taken transfer the BTB missed */
	unsigned syscall_lat;    /* cycles from an ecall's trap to the refetch after it */
	/* Xtpsd selective dispatch (docs/seldisp.md section 5, docs/core.md "Selective
	 * dispatch"); all 0 in the presets: a program's Xtpsd instructions then run as their
	 * lib/isa class says ("plain"), and programs without Xtpsd are never affected. */
	unsigned sd_mode;        /* 0 plain, 1 decode filter (selective dispatch) */
	unsigned sd_bp;          /* profile branches: 0 none, 1 ignored-instruction updates,
				  * 2 profile-flag based, 3 prediction-bit based (needs sd_mode 1) */
	unsigned sd_pfp;         /* 1: the profile flag predictor (BDT) at fetch (needs sd_mode 1) */
	unsigned sd_bdt_entries; /* BDT entries, direct-mapped (power of 2, 4..4096) */
	unsigned sd_poppf_lat;   /* decode of a profile instruction waits this long after a poppf */
	unsigned sd_blk;         /* a skipped pf.blk block: 0 fetched and dropped (walked), 1 skipped
				  * by a decode redirect, as the RTL does (needs sd_mode 1) */
};

/* Fill cfg with a preset: "4wide" (default, the TIP paper's BOOM), "2wide", "1wide",
 * optionally followed by ",field=value" changes ("4wide,sd_mode=1,sd_pfp=1").
 * Returns 0 or -1 for an unknown name or field. */
int core_cfg_preset(struct core_cfg *cfg, const char *name);

/* Set the field called name to value. Returns 0, or -1 for an unknown name. */
int core_cfg_set(struct core_cfg *cfg, const char *name, unsigned value);

/* Check cfg; returns 0 or -1 with a message in err. */
int core_cfg_check(const struct core_cfg *cfg, char *err, size_t errlen);

/* Per-instruction event bits (struct core_insn.events). */
#define CORE_EV_IC_MISS    (1u << 0)  /* its fetch missed the L1I */
#define CORE_EV_ITLB_MISS  (1u << 1)  /* its fetch missed the L1 ITLB */
#define CORE_EV_DC_MISS    (1u << 2)  /* its access missed the L1D (or merged into a miss) */
#define CORE_EV_L2_MISS    (1u << 3)  /* ... and the L2 */
#define CORE_EV_LLC_MISS   (1u << 4)  /* ... and the LLC (went to DRAM) */
#define CORE_EV_DTLB_MISS  (1u << 5)  /* its access missed the L1 DTLB */
#define CORE_EV_TAKEN      (1u << 6)  /* control transfer that redirected */
#define CORE_EV_MISPRED    (1u << 7)  /* mispredicted control transfer (flush at resolve) */
#define CORE_EV_FLUSH      (1u << 8)  /* unique: flushes the pipeline on commit */
#define CORE_EV_EXCEPTION  (1u << 9)  /* trapped at the head (ecall) instead of committing */
#define CORE_EV_STLF       (1u << 10) /* load forwarded from an older store */
#define CORE_EV_REPLAY     (1u << 11) /* load re-executed after a memory-ordering miss */
#define CORE_EV_BTB_MISS   (1u << 12) /* taken transfer whose target the BTB missed */

/* Class of an instruction for stall attribution (struct core_insn.kind). */
enum core_kind {
	CORE_K_ALU = 0,  /* anything not below (integer, FP, branches, CSR, fences) */
	CORE_K_LOAD,     /* loads, LR and AMOs (they wait for a memory read) */
	CORE_K_STORE,    /* stores and SC */
};

/* What the core knows about one dynamic instruction. Times are cycle numbers; all are set
 * by the time the record is handed out at commit. */
struct core_insn {
	uint64_t seq;         /* dynamic instruction number, from 0 (with sd_mode 1: of the
			       * instructions that entered the ROB; dropped ones have none) */
	uint64_t pc;          /* its address */
	uint64_t mem_addr;    /* effective address of a memory access */
	uint64_t t_fetch;     /* cycle it was fetched */
	uint64_t t_dispatch;  /* cycle it entered the ROB */
	uint64_t t_issue;     /* cycle it issued to a functional unit */
	uint64_t t_complete;  /* cycle its result was ready (may commit from then on) */
	uint64_t t_commit;    /* cycle it committed (or trapped) */
	uint32_t raw;         /* instruction bits */
	uint16_t events;      /* CORE_EV_* */
	uint16_t rob_idx;     /* its ROB index */
	uint8_t kind;         /* enum core_kind */
	uint8_t mem_level;    /* loads: 1 L1, 2 L2, 3 LLC, 4 DRAM, 0 forwarded/none */
	uint8_t len;          /* encoded length */
	/* decoded fields the model schedules with (informational for users) */
	uint8_t fu;           /* enum rv_fu */
	uint8_t cf;           /* enum rv_cf */
	uint8_t unique;       /* BOOM unique */
	uint8_t is_ecall;     /* traps at the head */
	uint8_t last;         /* the program's final instruction (exit ecall) */
	uint32_t flags;       /* RV_F_* */
	uint8_t rd, rs1, rs2, rs3; /* registers */
	uint8_t mem_size;     /* bytes accessed */
	uint64_t next_pc;     /* address of the next instruction */
	uint64_t t_avail;     /* earliest dispatch cycle (fetch + front-end latency) */
	uint64_t t_ready;     /* cycle its last issue operand became ready (>= dispatch + 1) */
	uint64_t t_mem;       /* memory instructions: cycle its access went to the D-cache */
	/* with the ProfileMe interface on (core_pm_enable), else 0: */
	uint64_t overlap;     /* other instructions issued in [t_fetch, t_commit] that retire */
	uint8_t pm_tag;       /* ProfileMe tag ids it carried (bit 0 id 0, bit 1 id 1) */
};

/* A wrong-path (or flushed) instruction: fetched by the shadow fetch past a stop and squashed
 * before it was mapped (docs/core.md "ProfileMe"). Only with the ProfileMe interface on. */
struct core_ghost {
	uint64_t id;          /* number among ghosts, from 0 */
	uint64_t pc;          /* its address */
	uint64_t t_fetch;     /* cycle it was fetched */
	uint64_t t_end;       /* cycle it was squashed */
	uint64_t overlap;     /* instructions issued in [t_fetch, t_end] that retire */
	uint32_t raw;         /* its bits (0 if unreadable) */
	uint8_t reason;       /* TIPROF_PM_ABORT_MISPRED or _OTHER (flush, trap) */
	uint8_t pm_tag;       /* tag ids it carried */
};

/* Counters over the whole run. */
struct core_stats {
	uint64_t cycles, insns;           /* cycles simulated, instructions retired */
	uint64_t branches, br_mispred;    /* conditional branches, of them mispredicted */
	uint64_t jumps, jump_mispred;     /* indirect jumps/returns, of them mispredicted */
	uint64_t btb_miss;                /* taken transfers the BTB did not know */
	uint64_t loads, stores;           /* memory instructions */
	uint64_t l1d_miss, l2_miss, llc_miss, l1i_miss, dtlb_miss, itlb_miss;
	uint64_t stlf, replays;           /* forwarded loads, ordering replays */
	uint64_t flushes, exceptions;     /* unique commits, traps */
	uint64_t mshr_full;               /* misses that waited for a free MSHR */
	/* selective dispatch (cfg.sd_mode 1; all 0 otherwise; docs/core.md) */
	uint64_t sd_fetch_drop;           /* fetch slots of instructions dropped at decode */
	uint64_t sd_dropped;              /* instructions dropped at decode (no ROB entry) */
	uint64_t sd_walked;               /* of them, instructions of skipped pf.blk blocks */
	uint64_t sd_executed;             /* pf.inc/pf.incr dispatched (their flag set) */
	uint64_t sd_flag_writes;          /* setpf/resetpf/pushpf/poppf decoded */
	uint64_t sd_restores;             /* flag checkpoints restored (mispredicts) */
	uint64_t sd_reloads;              /* front-end copy reloaded after serializing insns */
	uint64_t sd_spec_mismatch;        /* front-end flag copy != the ISS's (must be 0) */
	uint64_t sd_poppf_stall;          /* decode cycles lost waiting for a poppf */
	uint64_t sd_pbr_walked;           /* branches in skipped blocks (fetched, dropped) */
	uint64_t sd_pbr_redirect;         /* of them, predicted taken: decode redirect */
	uint64_t sd_pbr_exec;             /* branches in executed profile blocks */
	uint64_t sd_pbr_exec_mispred;     /* of them, mispredicted */
	uint64_t sd_bdt_lookups, sd_bdt_hits, sd_bdt_locked; /* BDT at fetch */
	uint64_t sd_bdt_skips;            /* blocks/runs skipped at fetch */
	uint64_t sd_bdt_skipped;          /* instructions (ISS records) skipped at fetch */
	uint64_t sd_bdt_mispred;          /* predicted clear, flag set: refetch */
	uint64_t sd_bdt_missed;           /* predicted set, flag clear: filtered only */
	uint64_t sd_bdt_recovery;         /* fetch cycles lost to BDT mispredictions */
};

/* One cycle's outputs. */
struct core_cycle_out {
	struct tiprof_rob_if rob;          /* the ROB interface this cycle */
	uint8_t head_kind;                 /* enum core_kind of the oldest entry (if any) */
	unsigned n_retired;                /* records in retired[] */
	const struct core_insn *retired[8]; /* committed (or trapped) this cycle, oldest first;
					     * valid until the next core_cycle() */
	/* with the ProfileMe interface on (core_pm_enable); with it off pm is not written and
	 * the two counts are 0: */
	struct tiprof_pm_if pm;            /* this cycle's fetch packet and tagged events */
	unsigned issued;                   /* instructions issuing this cycle that will retire */
	unsigned n_ghosts;                 /* ghosts squashed this cycle, in ghosts[] */
	const struct core_ghost *ghosts;   /* valid until the next core_cycle() */
};

struct core;

/* Create a core for cfg running the program in iss (borrowed: the caller destroys it after
 * the core). Returns NULL with a message in err on a bad configuration or no memory. */
struct core *core_create(const struct core_cfg *cfg, struct iss *iss, char *err, size_t errlen);

/* Free the core. */
void core_destroy(struct core *c);

/* Simulate one cycle and describe it in *out. Returns 1 if the cycle was simulated and
 * more follow, 0 if it was the last cycle (the exit ecall trapped), -1 on an ISS error or
 * when called after the last cycle (core_error() says why; *out is not valid). */
int core_cycle(struct core *c, struct core_cycle_out *out);

/* The run's counters so far. */
const struct core_stats *core_stats(const struct core *c);

/* The configuration in use. */
const struct core_cfg *core_config(const struct core *c);

/* Last error message ("" if none). */
const char *core_error(const struct core *c);

/* ---- the ProfileMe interface (docs/profileme.md; docs/core.md "ProfileMe") ----
 * The core presents each cycle's fetch packet on F = fetch_width slots (1, 2, 4 or 8) and, for
 * the instructions that carry a tag, their stage events, and keeps the exact truth of every
 * instruction (core_insn t_ready, t_mem, overlap) and every cycle (issued). While correct-path
 * fetch waits for a mispredicted transfer to resolve, for a serializing instruction to commit
 * or for a trap, a shadow fetch goes on past it down the predicted path: those instructions
 * are fetched (and can be tagged) and squashed at the resolve, commit or trap, never mapped.
 * All of it only observes: the ROB interface and every timing are the same with it on. */

/* Switch the interface on (before the first cycle). Returns 0, or -1 with a message in err
 * when fetch_width is not 1, 2, 4 or 8 or memory runs out. */
int core_pm_enable(struct core *c, char *err, size_t errlen);

/* The unit's pm_tag_o for the packet of the cycle core_cycle() just simulated (slot i: bit 0
 * tag id 0, bit 1 id 1). Call between core_cycle() calls; no call means no tags. */
void core_pm_tag(struct core *c, const uint8_t tag[TIPROF_PM_MAX_SLOTS]);

/* Issue slots per cycle of the model (every issue port), for wasted-issue-slot figures. */
unsigned core_issue_width(const struct core *c);

/* ---- sampled simulation (docs/accuracy.md, "Sampled simulation") ----
 * Between detailed windows the core can be warmed functionally: the ISS runs instructions
 * without timing while the caches, TLBs and branch predictor are updated as the detailed
 * model would update them for those instructions. The pipeline is drained first: after
 * core_fetch_stop() fetch stops, and core_cycle() is clocked until core_empty(); then
 * core_warm() runs the instructions and restarts fetch at the ISS's next PC (in the next
 * core_cycle). None of this is used when sampling is off: the detailed path is unchanged. */

/* Stop fetching (the ROB and fetch buffer drain as cycles are simulated). */
void core_fetch_stop(struct core *c);

/* The ROB and the fetch buffer are both empty. */
int core_empty(const struct core *c);

/* With the pipeline empty, run up to n instructions on the ISS without timing, updating the
 * I and D caches (with the TLBs, L2 and LLC) and the branch predictor; fetch restarts at the
 * next instruction. The program's exit ecall is never warmed (it stays for the detailed
 * model, which ends the run). *done gets the instructions warmed. The run's counters
 * (core_stats) do not change. Returns 0, or -1 on an ISS error or a non-empty pipeline. */
int core_warm(struct core *c, uint64_t n, uint64_t *done);

/* As core_warm but updating nothing (a cold fast-forward: only to measure what warming buys,
 * its windows start from stale caches and predictor). */
int core_skip(struct core *c, uint64_t n, uint64_t *done);

#endif /* TIPROF_CORE_H */
