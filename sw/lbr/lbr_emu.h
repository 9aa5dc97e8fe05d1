/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_emu.h - the branch tracer's look-ahead emulator (docs/lbr.md §2, "Emulated windows").
 * From a real CPU context (a sample or a stop), run the thread's next instructions on a copy
 * of its registers - memory read through the fault-free reader, stores kept in a private
 * overlay - and collect the taken branches. The run also picks a *checkpoint*: the last
 * instruction it executed for the first time in this run, with the registers it predicts
 * there. A breakpoint on the checkpoint fires at the first real execution of that address,
 * which on the predicted path is exactly that moment; the stop then compares the real
 * registers with the predicted ones (lbr_emu_confirm) before any branch of the run is
 * recorded. A run ends at `max_br` taken branches (then it goes on, recording nothing, until
 * an instruction not executed before, so that the checkpoint follows the last branch), at an
 * instruction it does not emulate (system call, atomic, string, SIMD, ...), at unreadable
 * memory, at a forbidden address (rseq, the tracer itself), or after `budget` instructions.
 * x86-64 only (lbr_emu_x86.c). Async-signal-safe: no allocation, no locks, no libc calls. */
#ifndef TIPROF_LBR_EMU_H
#define TIPROF_LBR_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "lbr_isa.h"

/* Why a run ended. */
enum lbr_emu_end {
	LBR_EMU_END_DEPTH = 0, /* max_br branches, then a first-time instruction */
	LBR_EMU_END_INSN,      /* an instruction the emulator does not model */
	LBR_EMU_END_MEM,       /* unreadable memory, or the store overlay is full */
	LBR_EMU_END_BUDGET,    /* instruction budget used up (long loop), or cache conflict */
	LBR_EMU_END_FORBID,    /* the next instruction may not be stopped at or entered */
	LBR_EMU_NEND
};

/* A taken branch of a run. */
struct lbr_emu_br {
	uint64_t from, to;
	uint8_t ctr_type; /* enum lbr_ctr_type (lbr_ctr.h) */
};

/* Result of a run. */
struct lbr_emu_out {
	int end;           /* enum lbr_emu_end */
	uint64_t insns;    /* instructions emulated */
	unsigned nbr;      /* taken branches collected (<= max_br) */
	uint64_t ck_pc;    /* checkpoint address (== the start pc: no usable checkpoint) */
	uint64_t ck_data;  /* 0: stop when ck_pc is first executed; else a data checkpoint: the
	                    * 8-byte granule at ck_data is first accessed by the instruction
	                    * before ck_pc (a watchpoint traps right after it, at ck_pc) */
	unsigned ck_nbr;   /* branches taken before the checkpoint */
	uint64_t ck_fmask; /* arithmetic flag bits defined at the checkpoint */
	struct lbr_cpu ck; /* predicted registers at the checkpoint (before it executes) */
};

struct lbr_emu;

#if defined(__x86_64__)
/* Bytes of per-thread state (decoded-instruction cache and memory lines); allocate once
 * (zeroed) and pass to lbr_emu_init. */
size_t lbr_emu_size(void);

/* forbid(pc) != 0: the run must not reach pc (checked once per decoded instruction). */
void lbr_emu_init(struct lbr_emu *e, const struct lbr_isa *isa, int (*forbid)(uint64_t pc),
		  unsigned budget);

/* Run from `start` (start->pc is an instruction boundary). Writes up to max_br branches to
 * br[] and the result to *out. */
void lbr_emu_run(struct lbr_emu *e, const struct lbr_cpu *start, unsigned max_br,
		 struct lbr_emu_br *br, struct lbr_emu_out *out);

/* Allow data checkpoints (lbr_emu_out.ck_data; the stop mechanism has read/write
 * watchpoints): the run also tracks the last access to memory that no earlier instruction
 * of the run touched, which in a long loop walking memory comes long after the last
 * instruction executed for the first time. Accesses it cannot see (stepped-over SIMD and
 * string instructions) end these claims for the rest of the run. */
void lbr_emu_set_watch(struct lbr_emu *e, int on);

/* Test tools: the next run starts with these xmm0-15 contents known (the tracer's windows
 * start with every vector register unknown). */
void lbr_emu_set_xmm(struct lbr_emu *e, const uint8_t xmm[16][16]);

/* Use `base` as the FS segment base from now on, instead of the calling thread's (a tool
 * emulating another process: tests/sw/lbr/emu_check.c). */
void lbr_emu_set_fs_base(struct lbr_emu *e, uint64_t base);

/* 1 if the real context at the checkpoint equals the prediction (pc, the 16 general
 * registers, the defined arithmetic flags), else 0. */
int lbr_emu_confirm(const struct lbr_emu_out *o, const struct lbr_cpu *real);

/* Test tools (not the handlers): 1 if every memory page the last run stored into now reads
 * back, through lbr_isa_read, exactly as the run left it (the real stores were the same). */
int lbr_emu_stores_match(struct lbr_emu *e);

/* Test-only planted bug (TIPROF_LBR_EMU=P or U): the emulator's je tests the wrong flag
 * (CF instead of ZF). The checkpoint check must catch it (test-lbr). */
extern int lbr_emu_plant;

#else
/* No emulator for this architecture yet (the RISC-V tracer uses breakpoints only): the
 * tracer never enables it, so these are never called. */
static inline size_t lbr_emu_size(void) { return 0; }
static inline void lbr_emu_init(struct lbr_emu *e, const struct lbr_isa *isa,
				int (*forbid)(uint64_t pc), unsigned budget)
{ (void)e; (void)isa; (void)forbid; (void)budget; }
static inline void lbr_emu_run(struct lbr_emu *e, const struct lbr_cpu *start, unsigned max_br,
			       struct lbr_emu_br *br, struct lbr_emu_out *out)
{ (void)e; (void)max_br; (void)br; out->ck_pc = start->pc; out->end = LBR_EMU_END_INSN;
  out->ck_data = 0;
  out->insns = 0; out->nbr = out->ck_nbr = 0; }
static inline void lbr_emu_set_watch(struct lbr_emu *e, int on) { (void)e; (void)on; }
static inline int lbr_emu_confirm(const struct lbr_emu_out *o, const struct lbr_cpu *real)
{ (void)o; (void)real; return 0; }
static int lbr_emu_plant __attribute__((unused));
#endif

#endif
