/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_opts.h - the options every subcommand that simulates a program shares (sim, accuracy):
 * where the report goes (-o), the program's sysroot (-L) and /proc/self/exe (--exe-path), the
 * progress line (--progress, --no-progress, --expect). One parser for them, so the two
 * commands cannot drift apart.
 */
#ifndef TIPROF_RUN_OPTS_H
#define TIPROF_RUN_OPTS_H

#include <stdint.h>

#include "iss.h"
#include "tiprof/opt.h"

struct run_opts {
	const char *out_path;	/* -o: the report's file ("-": stdout; NULL: stderr) */
	const char *sysroot;	/* -L: a dynamic program's loader and libraries */
	const char *exe_path;	/* --exe-path: /proc/self/exe as the program sees it */
	int progress;		/* show the progress line (default: stderr is a terminal) */
	uint64_t expect;	/* --expect: instructions, for the progress line */
};

/* The defaults. */
void run_opts_init(struct run_opts *o);

/* Take option id (its value in p) if it is one of these: 1 taken, 0 not one of these, -1 a bad
 * value (one line printed). */
int run_opts_take(struct run_opts *o, struct opt_parser *p, int id);

/* What the ISS needs of them. */
void run_opts_iss(const struct run_opts *o, struct iss_config *cfg);

#endif /* TIPROF_RUN_OPTS_H */
