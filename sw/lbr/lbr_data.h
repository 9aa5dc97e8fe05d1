/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_data.h - a whole records file in memory, for the converters (perf.data, LLVM and
 * AutoFDO profiles, edge counts). Sessions, threads, executable mappings and stacks in file
 * order; each stack and mapping knows its session (so addresses are read in the right
 * address space: a process that execs appends a new session with the same pid). */
#ifndef TIPROF_LBR_DATA_H
#define TIPROF_LBR_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "lbr_file.h"

struct lbr_data_mmap {
	struct lbr_mmap m;
	size_t sess;            /* index into sessions */
};

struct lbr_data_thread {
	struct lbr_thread_rec t;
	size_t sess;
};

struct lbr_data_stack {
	struct lbr_stack s;
	uint32_t pid;           /* from the thread records (the session's pid if none) */
	size_t sess;
};

struct lbr_data {
	struct lbr_session *sessions;
	size_t nsessions;
	struct lbr_data_thread *threads;
	size_t nthreads;
	struct lbr_data_mmap *mmaps;
	size_t nmmaps;
	struct lbr_data_stack *stacks;
	size_t nstacks;
	int truncated;          /* the file ended inside a record (the rest was ignored) */
	unsigned machine;       /* ELF e_machine of the traced machine (lbr_data_machine) */
};

/* The traced machine: the file header's (version 2), else the e_machine of the first
 * session's executable if it is readable (version-1 files, e.g. of the riscv64 tracer),
 * else 0. */
unsigned lbr_data_machine(const struct lbr_data *d);

/* Read a records file. Returns 0, or -1 with a one-line reason in err (cannot read, not a
 * records file, malformed record, no session). */
int lbr_data_load(const char *path, struct lbr_data *d, char *err, size_t errlen);

/* Release everything (a zeroed struct is fine). */
void lbr_data_free(struct lbr_data *d);

/* The mapping of session `sess` that contains addr, or NULL. */
const struct lbr_mmap *lbr_data_find_mmap(const struct lbr_data *d, size_t sess, uint64_t addr);

#endif
