/* SPDX-License-Identifier: Apache-2.0 */
/* srcprof.h - source-level sample profiles, what compilers read back (docs/fdo.md
 * "Compiler formats", docs/lbr.md §10): execution counts of code addresses of one ELF,
 * turned through its DWARF (dwarf_lines.h) into per-function trees of
 *   line offset (line - the function's DW_AT_decl_line) [. discriminator]: count, call targets
 *   inlined call sites (offset of the call line): the inlinee's own tree
 * with head counts (entries into the function), written as
 *   - LLVM's text sample profile (clang -fprofile-sample-use, llvm-profdata), and
 *   - GCC's AutoFDO profile (gcc -fauto-profile), the gcov-style binary format of GCC 12's
 *     gcc/auto-profile.cc (version 2).
 * Counts of the same address add up; a line's count is the maximum over its addresses (every
 * instruction of a line executed N times is executed N times: what llvm-profgen does); a
 * line's count is at least its calls. Used by `tiprof lbr llvm-prof` (branch records) and
 * `tiprof fdo llvm-prof / gcc-afdo` (smoothed block counts). No printing but the writers'. */
#ifndef TIPROF_SRCPROF_H
#define TIPROF_SRCPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dwarf_lines.h"

/* What happens to discriminators. */
enum srcprof_discr {
	SRCPROF_DISCR_KEEP = 0,	/* every discriminator kept (clang units: LLVM's base one) */
	SRCPROF_DISCR_CLANG,	/* kept for clang-built units only (LLVM output from a GCC-built
				 * binary: GCC's discriminators mean nothing to clang) */
	SRCPROF_DISCR_NONE,	/* dropped (GCC 12's AutoFDO keys lines by offset only) */
};

struct srcprof;

/* A profile over dw's ELF (dw stays the caller's and must outlive the profile). NULL when out
 * of memory. */
struct srcprof *srcprof_new(struct dwl *dw, enum srcprof_discr discr);
void srcprof_free(struct srcprof *sp);

/* The code at addr ran count more times. 0, or -1 (out of memory). */
int srcprof_addr(struct srcprof *sp, uint64_t addr, uint64_t count);
/* Straight-line code from begin to end (the last instruction's address, inclusive) ran count
 * times: srcprof_addr of begin and of every line-table row address in (begin, end]. */
int srcprof_range(struct srcprof *sp, uint64_t begin, uint64_t end, uint64_t count);
/* The call instruction at site called the function named callee count times: a call target
 * on the site's line (callee is copied). */
int srcprof_call(struct srcprof *sp, uint64_t site, const char *callee, uint64_t count);
/* count entries into the function whose first instruction is at entry (head samples); the
 * function is named by its DWARF, else by name (NULL: dropped without DWARF). */
int srcprof_head(struct srcprof *sp, uint64_t entry, const char *name, uint64_t count);
/* The DWARF name of the out-of-line function at addr (valid while dw is open), or NULL. */
const char *srcprof_func_name(struct srcprof *sp, uint64_t addr);

struct srcprof_stats {
	size_t functions;	/* top-level functions written (total > 0) */
	size_t lines;		/* line entries written (inlined ones included) */
	size_t inlined;		/* inlined call-site instances written */
	size_t targets;		/* call targets written */
	uint64_t total;		/* sum of the functions' totals */
	uint64_t head;		/* sum of the functions' head counts */
	uint64_t addrs;		/* distinct addresses with a count > 0 */
	uint64_t unplaced;	/* of them, without a usable source line (code without DWARF such
				 * as the C library's, line 0, or a negative offset from #line) */
	char hottest[128];	/* the function with the largest total */
};

/* LLVM text: function:total:head, then " offset[.discr]: count [callee:calls ...]" and
 * inlined call sites " offset[.discr]: callee:total" with their lines one space deeper;
 * functions hottest first. 0, or -1 + reason (out of memory, write error). */
int srcprof_write_llvm(struct srcprof *sp, FILE *f, struct srcprof_stats *st, char *err,
		       size_t errlen);

/* GCC 12 AutoFDO (little-endian 32-bit words, 64-bit counters as low word then high word):
 *   "gcda" magic 0x67636461, version 2, 0
 *   0xaa000000 (file names = function names), section length, N, N strings (byte length
 *     with the NUL, bytes)
 *   0xac000000 (functions), section length, F, F times: head count, function instance
 *   0xae000000 (module grouping, empty), 0, 0
 * function instance: name index, P, C, P times (offset << 16, T targets, count, T times
 * (0, name index as a counter, count)), C times (call line offset << 16, instance).
 * Discriminators must have been dropped (SRCPROF_DISCR_NONE); offsets past 0xffff are
 * dropped. 0, or -1 + reason. */
int srcprof_write_gcc(struct srcprof *sp, FILE *f, struct srcprof_stats *st, char *err,
		      size_t errlen);

#endif
