/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_probe.h - can this process open the tracer's perf events? (lbr_probe.c) */
#ifndef TIPROF_LBR_PROBE_H
#define TIPROF_LBR_PROBE_H

#include <stddef.h>

/* 0 if the sampling event `event` (enum lbr_event) and, with hw_breakpoint, an execute
 * breakpoint can be opened on this thread (user space only); else -1 with a one-line
 * explanation (what failed, why, what to do) in msg[n]. */
int lbr_probe_perf(int event, int hw_breakpoint, char *msg, size_t n);

#endif
