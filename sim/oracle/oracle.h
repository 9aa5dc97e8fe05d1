/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oracle.h - the Oracle profile: every cycle of a run attributed to instruction addresses by
 * the four commit states of TIP (Computing, Stalled, Flushed, Drained), split into cycle-stack
 * categories, with exact accounting (fixed point: one cycle = ORACLE_UNIT units, divisible by
 * every commit count 1..8). It consumes the per-cycle ROB interface (struct tiprof_rob_if)
 * plus the class of the oldest entry. File format: docs/core.md. No global state; errors are
 * returned, never printed.
 */
#ifndef TIPROF_ORACLE_H
#define TIPROF_ORACLE_H

#include <stdint.h>
#include <stdio.h>

#include "tiprof/cycle_stack.h"
#include "tiprof/tiprof_regs.h"

/* Units per cycle: lcm(1..8), so 1/n of a cycle is exact for n committing instructions. */
#define ORACLE_UNIT 840u

/* Cycle-stack categories. */
/* Cycle categories: enum tiprof_cat of include/tiprof/cycle_stack.h. */

/* Class of the oldest ROB entry, as the core reports it (same values as enum core_kind). */
enum oracle_head_kind { ORACLE_HEAD_ALU = 0, ORACLE_HEAD_LOAD = 1, ORACLE_HEAD_STORE = 2 };

/* One instruction address's share. */
struct oracle_ent {
	uint64_t pc;                    /* instruction address */
	uint64_t commits;               /* times it committed (or trapped) */
	uint64_t units[TIPROF_NCAT];    /* attributed units per category */
};

/* The profile; fields are read-only for users. */
struct oracle {
	unsigned w;                     /* commit width (banks) */
	uint64_t cycles;                /* cycles seen */
	uint64_t total[TIPROF_NCAT];    /* units per category over all addresses */
	struct oracle_ent *ent;         /* entries, in first-seen order */
	size_t n, cap;                  /* entries used, allocated */
	uint32_t *hash;                 /* open addressing: index+1 into ent, 0 = free */
	size_t hmask;                   /* hash slots - 1 */
	/* the Offending Instruction Register's view */
	uint64_t oir_pc;                /* youngest committed or last trapping instruction */
	int oir_cat;                    /* -1: no flag; else the Flushed category it implies */
	uint64_t pending;               /* Drained cycles waiting for the next dispatch */
	int nomem;                      /* an allocation failed (sticky) */
};

/* Initialise o for commit width w (1..8). Returns 0, or -1 (bad width or no memory). */
int oracle_init(struct oracle *o, unsigned w);

/* Free o's storage. */
void oracle_fini(struct oracle *o);

/* Attribute one cycle. head_kind is the enum oracle_head_kind of the oldest entry (ignored
 * when the ROB is empty). Returns 0, or -1 if out of memory. */
int oracle_cycle(struct oracle *o, const struct tiprof_rob_if *rob, unsigned head_kind);

/* Count a commit (or trap) of the instruction at pc, for the per-address counts. */
int oracle_count(struct oracle *o, uint64_t pc);

/* End of the run: Drained cycles still waiting for an instruction go to the last offending
 * instruction (front-end category). Returns 0 or -1 (no memory). */
int oracle_finish(struct oracle *o);

/* Exact-accounting check, after oracle_finish: no cycle pending, per-address units sum to
 * the category totals and those to cycles x ORACLE_UNIT. Returns 0, or -1 with the first
 * discrepancy in err. */
int oracle_check(const struct oracle *o, char *err, size_t errlen);

/* Write the profile (docs/core.md, "Oracle profile file") to f, entries sorted by address.
 * insns is the instruction count for the header. Returns 0 or -1 on a write error. */
int oracle_write(const struct oracle *o, FILE *f, uint64_t insns);


#endif /* TIPROF_ORACLE_H */
