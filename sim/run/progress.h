/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress.h - the progress line of a long simulation: a consumer of the run (sim_run.h) that
 * redraws one line on a terminal, twice a second, with the instructions and cycles simulated,
 * the rate, and - when the program's length is known from --expect or from an earlier run
 * of the same program with the same arguments (a small cache under $XDG_CACHE_HOME/tiprof)
 * - the share done and the time left. The line is erased when the run ends.
 */
#ifndef TIPROF_PROGRESS_H
#define TIPROF_PROGRESS_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "sim_run.h"

struct sim_progress {
	FILE *f;			/* where the line goes (a terminal) */
	const char *what;		/* "tiprof sim", first on the line */
	struct core *core;		/* instructions retired come from its statistics */
	uint64_t expect;		/* instructions the program runs, 0: unknown */
	uint64_t key;			/* the program and its arguments, for the length cache */
	struct timespec start, last;	/* when the run started, the line was last drawn */
	int drawn;			/* a line is on the terminal */
	const uint64_t *warmed;		/* sampled runs: instructions run functionally, outside
					 * the core's count (NULL: none; set after init) */
};

/* Prepare p for a run of core executing argv (NULL-terminated; argv[0] the program's path)
 * that prints to f. expect: instructions given by the user (0: look in the cache). */
void sim_progress_init(struct sim_progress *p, const char *what, struct core *core,
		       char *const *argv, uint64_t expect, FILE *f);

/* The progress line as a consumer (its finish erases the line). */
struct sim_consumer sim_consumer_progress(struct sim_progress *p);

/* What the consumer does in cycle cyc (sampled runs call it in unmeasured cycles too). */
void sim_progress_poll(struct sim_progress *p, uint64_t cyc);

/* Erase the line if drawn (after a failed run, before its message). */
void sim_progress_erase(struct sim_progress *p);

/* Remember that the program ran insns instructions, for the next run's time left. */
void sim_progress_remember(const struct sim_progress *p, uint64_t insns);

#endif /* TIPROF_PROGRESS_H */
