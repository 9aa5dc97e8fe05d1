/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kallsyms.h - the kernel's symbols from a copy of /proc/kallsyms, for attributing S-mode
 * samples (docs/report.md "Kernel samples"): `tiprof record --kernel` saves the board's
 * /proc/kallsyms beside the sample file (kallsyms_save), `tiprof report` reads it
 * (kallsyms_load) and names a kernel address by the text symbol holding it (kallsyms_find).
 *
 * A line is "ADDRESS TYPE NAME" or "ADDRESS TYPE NAME\t[MODULE]" (ADDRESS hexadecimal, TYPE
 * one letter). Only text symbols (types t T w W) are kept, a module's as "NAME@MODULE". A
 * symbol runs from its address to the next text symbol's; the last one to at most
 * KALLSYMS_LAST_SPAN bytes past its address (its end is not in the file). Of symbols at one
 * address the first global (upper-case type) one is kept, else the first. No global state.
 */
#ifndef TIPROF_KALLSYMS_H
#define TIPROF_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#define KALLSYMS_LAST_SPAN 0x1000	/* bytes the last text symbol may cover */

/* One text symbol. */
struct ksym {
	uint64_t addr;		/* its start */
	char *name;		/* "name" or "name@module" (owned) */
	int global;		/* upper-case type */
	size_t line;		/* its line in the file */
};

/* The text symbols of one kallsyms file, by address. */
struct kallsyms {
	struct ksym *sym;	/* owned */
	size_t n;		/* how many */
};

/* Read the kallsyms file path into k (zeroed first). Returns 0, or -1 with a one-line
 * message naming path in err (a malformed line, with its number; no text symbol; every
 * address 0, as kernel.kptr_restrict shows them; cannot read; out of memory). Call
 * kallsyms_free in both cases. */
int kallsyms_load(struct kallsyms *k, const char *path, char *err, size_t errlen);

/* Release k. */
void kallsyms_free(struct kallsyms *k);

/* Index of the text symbol holding addr, or -1 (below the first, past the last's span). */
long kallsyms_find(const struct kallsyms *k, uint64_t addr);

/* Copy the kallsyms file src (normally /proc/kallsyms) to dst if it shows addresses.
 * Returns 0 (written), 1 (not written: src unreadable or every address 0; reason in msg,
 * one line), or -1 (dst could not be written, reason in msg; no dst left behind). */
int kallsyms_save(const char *src, const char *dst, char *msg, size_t len);

#endif /* TIPROF_KALLSYMS_H */
