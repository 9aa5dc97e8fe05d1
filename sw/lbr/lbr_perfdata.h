/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_perfdata.h - a records file as a perf.data file (perf's "PERFILE2" format, written
 * here byte by byte, little-endian): one event attr (the session's sampling event,
 * sample_type IP|TID|TIME|PERIOD|BRANCH_STACK, branch_sample_type ANY|USER,
 * sample_id_all, CLOCK_MONOTONIC), then in time order a PERF_RECORD_COMM per process and
 * thread, a PERF_RECORD_MMAP2 per executable mapping, a PERF_RECORD_SAMPLE per stack
 * (ip = the sample PC, branches newest first, flags "predicted") and a final
 * PERF_RECORD_FINISHED_ROUND; header features BUILD_ID and BRANCH_STACK. Layout in
 * docs/lbr.md ("Outputs"). */
#ifndef TIPROF_LBR_PERFDATA_H
#define TIPROF_LBR_PERFDATA_H

#include <stddef.h>

#include "lbr_data.h"
#include "lbr_sym.h"

/* Write out (created or truncated). Returns 0, or -1 with a reason in err. */
int lbr_perfdata_write(const char *out, const struct lbr_data *d, const struct lbr_symtab *st,
		       char *err, size_t errlen);

#endif
