/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oracle_profile.h - the Oracle profile file (docs/core.md, "Oracle profile file"): the exact
 * per-address cycle attribution of a simulated run, written by the simulator (`tiprof sim
 * --oracle`, sim/oracle) and read by the tools (`tiprof report --oracle`). The one writer and
 * the one reader of that text format; categories in include/tiprof/cycle_stack.h's order.
 * No global state; errors are returned with a one-line reason.
 */
#ifndef TIPROF_ORACLE_PROFILE_H
#define TIPROF_ORACLE_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tiprof/cycle_stack.h"

#define ORACLE_PROFILE_VERSION 1

/* The header lines. */
struct oracle_profile_hdr {
	unsigned width;			/* commit width of the core */
	unsigned unit;			/* units per cycle (a cycle's shares are integers) */
	uint64_t cycles;		/* cycles of the run */
	uint64_t insns;			/* instructions of the run */
	uint64_t total[TIPROF_NCAT];	/* units per category over all addresses */
};

/* One address line. */
struct oracle_profile_ent {
	uint64_t pc;			/* instruction address */
	uint64_t commits;		/* times it committed (or trapped) */
	uint64_t units[TIPROF_NCAT];	/* units attributed to it per category */
};

/* Write the header h and the n entries e (in the order given: the format wants them sorted by
 * address) to f. Returns 0, or -1 when writing failed. */
int oracle_profile_write(FILE *f, const struct oracle_profile_hdr *h,
			 const struct oracle_profile_ent *e, size_t n);

/* Called for every address line with the header lines read so far (unit is set); a nonzero
 * return stops the read and is returned by it. */
typedef int (*oracle_profile_fn)(void *ctx, const struct oracle_profile_hdr *h,
				 const struct oracle_profile_ent *e);

/* Read f: the header into h (zeroed first), then fn for each address line. Returns 0; -1 with a
 * one-line reason in err when f is not an Oracle profile this reader knows (magic, version,
 * category list, a malformed line, no unit, no address line) or cannot be read; or fn's
 * nonzero return. */
int oracle_profile_read(FILE *f, struct oracle_profile_hdr *h, oracle_profile_fn fn, void *ctx,
			char *err, size_t errlen);

#endif /* TIPROF_ORACLE_PROFILE_H */
