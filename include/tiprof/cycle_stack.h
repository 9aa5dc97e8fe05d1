/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tiprof/cycle_stack.h - the cycle-stack categories (TIP paper, Figures 7 and 13): what every
 * cycle is attributed as. One list for the Oracle (sim/oracle, which writes them into the
 * Oracle profile file) and for the attribution of samples (sw/lib/attrib, which reads that
 * file for `tiprof report --oracle`): same order, same names, here only.
 */
#ifndef TIPROF_CYCLE_STACK_H
#define TIPROF_CYCLE_STACK_H

enum tiprof_cat {
	TIPROF_CAT_EXECUTE = 0,		/* Computing: shared by the committing instructions */
	TIPROF_CAT_ALU_STALL,		/* Stalled on a non-memory oldest entry (FU latency, CSR) */
	TIPROF_CAT_LOAD_STALL,		/* Stalled on a load (or LR/AMO) */
	TIPROF_CAT_STORE_STALL,		/* Stalled on a store (or SC) */
	TIPROF_CAT_MISPRED_FLUSH,	/* Flushed after a mispredicted control transfer */
	TIPROF_CAT_OTHER_FLUSH,		/* Flushed after a flushing commit or an exception */
	TIPROF_CAT_FRONTEND,		/* Drained: the front end supplied nothing */
	TIPROF_NCAT
};

/* Name of category c as files and reports spell it ("?" out of range). */
static inline const char *tiprof_cat_name(unsigned c)
{
	static const char *const names[TIPROF_NCAT] = {
		"execute", "alu_stall", "load_stall", "store_stall", "mispredict_flush",
		"other_flush", "frontend",
	};

	return c < TIPROF_NCAT ? names[c] : "?";
}

#endif /* TIPROF_CYCLE_STACK_H */
