/* SPDX-License-Identifier: Apache-2.0 */
/*
 * accuracy_pm.h - `tiprof accuracy -e profileme`: ProfileMe's estimates against the core's
 * exact truth (docs/profileme-accuracy.md). The program runs on the core model with the
 * ProfileMe unit's C model recording (sim/pm/pmsim), the truth is kept (sim/pm/pm_truth), the
 * records go through the same estimator as `tiprof pm` (sw/pm/pm_est) and every estimate of
 * the hottest instructions is compared with what happened: counts with their 95% intervals
 * (covered or not, relative error against the sample count k), and from paired samples the
 * useful overlap and wasted issue slots.
 */
#ifndef TIPROF_ACCURACY_PM_H
#define TIPROF_ACCURACY_PM_H

#include <stdint.h>

#include "run_opts.h"

/* The setup (from tiprof accuracy's command line). */
struct accuracy_pm_opts {
	const char *config;	/* core preset */
	uint32_t period;	/* fetched instructions per selection */
	unsigned rand_bits;	/* random interval bits (0: periodic) */
	uint32_t seed;		/* PM_LFSR (0: reset value) */
	unsigned window;	/* pair window (0: single) */
	unsigned top;		/* instructions compared (the hottest by fetches) */
	int json;		/* one JSON object */
	struct run_opts run;	/* -o, sysroot, exe path, progress */
	char **prog_argv;	/* the program and its arguments */
};

/* Run it; returns an exit status (one line on stderr on failure). */
int accuracy_pm_run(const struct accuracy_pm_opts *o);

#endif /* TIPROF_ACCURACY_PM_H */
