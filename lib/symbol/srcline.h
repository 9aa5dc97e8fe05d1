/* SPDX-License-Identifier: Apache-2.0 */
/*
 * srcline.h - source file:line of an instruction address from an ELF's DWARF line table
 * (libdw: dwarf_addrdie + dwarf_getsrc_die). Static (non-PIE) executables only: addresses
 * are link-time addresses. No printing, no global state.
 */
#ifndef TIPROF_SRCLINE_H
#define TIPROF_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

/* An open DWARF reader; opaque. */
struct srcline;

/* Open path's DWARF. Returns the reader, or NULL with a reason in err (an ELF without
 * debug information is an error: the caller may go on without lines). */
struct srcline *srcline_open(const char *path, char *err, size_t errlen);

/* File and line of addr: *file (absolute when DWARF gives the compilation directory)
 * points into the reader and is valid until the next srcline_find or srcline_close.
 * Returns 0, or -1 if the address has no line. */
int srcline_find(struct srcline *sl, uint64_t addr, const char **file, int *line);

/* Release the reader (NULL is fine). */
void srcline_close(struct srcline *sl);

#endif /* TIPROF_SRCLINE_H */
