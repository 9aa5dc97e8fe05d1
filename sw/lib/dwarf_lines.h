/* SPDX-License-Identifier: Apache-2.0 */
/* dwarf_lines.h - source positions of link-time code addresses from DWARF (libdw), with
 * inline stacks, for the source-level sample profiles (srcprof.h: LLVM's text format and
 * GCC's AutoFDO gcov format, written by `tiprof lbr llvm-prof` and `tiprof fdo`; one
 * reader for both, any ELF machine libdw reads): each address gives its frames from the
 * out-of-line function to the innermost inlined call, each with the function's name
 * (linkage name, else name), its declaration line, and the line (and discriminator) in it.
 * Discriminators of clang-built units are reduced to LLVM's base discriminator. No
 * printing. */
#ifndef TIPROF_DWARF_LINES_H
#define TIPROF_DWARF_LINES_H

#include <stddef.h>
#include <stdint.h>

struct dwl;

#define DWL_MAX_FRAMES 32

struct dwl_frame {
	const char *name;    /* valid while the reader is open */
	int decl_line;       /* DW_AT_decl_line of the function, 0 if unknown */
	int line;            /* line in that function: the code's (innermost frame) or the
			      * call site of the next frame */
	unsigned discr;      /* discriminator of that line */
	int clang;           /* the unit's producer is clang (discriminators in LLVM's base form) */
};

/* Open path's DWARF. NULL with a reason in err if it has none (no compilation unit with a
 * line table: built without -g, or stripped). */
struct dwl *dwl_open(const char *path, char *err, size_t errlen);
void dwl_close(struct dwl *dw);

/* Frames of the code at vaddr, outermost first, into fr[0..max). Returns their number; 0 if
 * the address has no line (or line 0, compiler-generated code). */
int dwl_frames(struct dwl *dw, uint64_t vaddr, struct dwl_frame *fr, int max);

/* Call fn(arg, a) for begin and for every line-table row address a in (begin, end] of the
 * unit containing begin: the distinct source positions a fall-through range runs over. */
void dwl_rows(struct dwl *dw, uint64_t begin, uint64_t end,
		    void (*fn)(void *arg, uint64_t a), void *arg);

#endif
