/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_file.h - the ProfileMe part of a sample file (format 1.2, docs/sample-file.md): its
 * header, PM configuration, every PM sample, the PM counts and the object records, read in
 * one pass through the sample-file module. No printing, no global state.
 */
#ifndef TIPROF_PM_FILE_H
#define TIPROF_PM_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "sample_file.h"
#include "tiprof/pm_sample.h"

struct pm_file {
	struct sf_header hdr;
	struct tiprof_pm_config cfg;	/* the PM config record */
	struct tiprof_pm_counts counts;	/* the PM counts record (if has_counts) */
	int has_counts;
	struct tiprof_pm_sample *s;	/* the PM samples, in file order (owned) */
	size_t n, cap;
	struct sf_object *obj;		/* the object records (owned) */
	size_t nobj;
	uint64_t tip_samples;		/* TIP samples in the file (not used here) */
};

/* Read path into f (zeroed first). Returns 0, or -1 with one line in err naming the file and
 * the problem (unreadable, damaged, or no ProfileMe configuration record: not a ProfileMe
 * recording). Call pm_file_free in both cases. */
int pm_file_load(struct pm_file *f, const char *path, char *err, size_t errlen);

void pm_file_free(struct pm_file *f);

#endif /* TIPROF_PM_FILE_H */
