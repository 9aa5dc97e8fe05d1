/* SPDX-License-Identifier: Apache-2.0 */
/* fdo_truth.h - the exact basic-block and edge counts of a run on the ISS (docs/fdo.md), keyed
 * by the binary's control-flow graph (sw/fdo): every retired instruction of the program's own
 * code is counted; `tiprof iss --truth FILE` writes them as an FDO profile file. */
#ifndef TIPROF_FDO_TRUTH_H
#define TIPROF_FDO_TRUTH_H

#include <stddef.h>
#include <stdint.h>

#include "iss.h"

struct fdo_truth;

/* The CFG of the ELF at path, run-time address = link-time + bias. NULL + reason. */
struct fdo_truth *fdo_truth_open(const char *path, uint64_t bias, char *err, size_t errlen);
/* Count one retired instruction. */
void fdo_truth_step(struct fdo_truth *t, const struct iss_retired *r);
/* Write the profile file; 0 or -1 + reason. *unmatched: transfers inside the program's code
 * that are no edge of the CFG (0 on a consistent graph). */
int fdo_truth_write(struct fdo_truth *t, const char *path, uint64_t *unmatched, char *err,
		    size_t errlen);
void fdo_truth_free(struct fdo_truth *t);

#endif /* TIPROF_FDO_TRUTH_H */
