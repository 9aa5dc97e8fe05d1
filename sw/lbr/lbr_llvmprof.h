/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_llvmprof.h - LLVM's text sample profile (what clang -fprofile-sample-use= and
 * llvm-profdata read; llvm/lib/ProfileData/SampleProfReader.cpp):
 *   function:total_samples:head_samples
 *    line_offset[.discriminator]: count [callee:count ...]
 *    line_offset[.discriminator]: inlined_callee:total_samples
 *     ...                                     (the inlined callee's lines, one more space)
 * from the chosen binary's fall-through ranges and branches:
 *   - a range [begin, end] executed c times adds c to every line-table row address in it;
 *     a line's count is the maximum over its addresses (as llvm-profgen does);
 *   - line offsets are relative to the function's DW_AT_decl_line, inline stacks from
 *     DW_TAG_inlined_subroutine scopes, base discriminators for clang-built code;
 *   - a taken branch whose target is a function's first instruction is a call: its count
 *     goes to the caller's line as a call target and to the callee's head samples (a tail
 *     jump to a function start counts as a call too).
 * Functions are written hottest first. */
#ifndef TIPROF_LBR_LLVMPROF_H
#define TIPROF_LBR_LLVMPROF_H

#include <stdio.h>

#include "lbr_agg.h"

struct srcprof;

/* Add obj's ranges and calls to sp (sw/lib/srcprof.h): every range of obj, and every branch
 * from obj to a function's first instruction as a call (and the callee's head count when it
 * is in obj). 0, or -1 (out of memory). Used by tiprof fdo for records files too. */
int lbr_srcprof_fill(struct srcprof *sp, const struct lbr_agg *g, const struct lbr_symtab *st,
		     int obj);

/* Returns 0, or -1 with a reason in err (no DWARF, out of memory, write error). */
int lbr_llvmprof_write(FILE *f, const struct lbr_agg *g, const struct lbr_symtab *st, int obj,
		       char *err, size_t errlen);

#endif
