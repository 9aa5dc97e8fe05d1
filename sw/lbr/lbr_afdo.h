/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_afdo.h - AutoFDO's text sample format, what `create_llvm_prof --profiler=text`
 * (and create_gcov) read (autofdo sample_reader.cc, TextSampleReaderWriter):
 *   N                 number of fall-through ranges, then N lines  BEGIN-END:COUNT
 *   N                 number of addresses, then N lines            ADDR:COUNT
 *   N                 number of branches, then N lines             FROM->TO:COUNT
 * addresses in hex without 0x, counts in decimal, addresses as offsets from the binary's
 * first PT_LOAD segment (AutoFDO adds that segment's address back). Only ranges, sample
 * PCs and branches that lie wholly inside the chosen binary are written. */
#ifndef TIPROF_LBR_AFDO_H
#define TIPROF_LBR_AFDO_H

#include <stdio.h>

#include "lbr_agg.h"

/* Returns 0, or -1 with a reason in err. */
int lbr_afdo_write(FILE *f, const struct lbr_agg *g, const struct lbr_symtab *st, int obj,
		   char *err, size_t errlen);

#endif
