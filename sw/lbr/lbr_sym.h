/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_sym.h - symbolization of a records file's addresses: each executable mapping's ELF
 * file (libelf) gives its PT_LOAD segments (run-time address -> link-time address, so PIE
 * and shared objects work), its function symbols (.symtab, else .dynsym) and its GNU build
 * ID. Errors come back as text; nothing is printed. */
#ifndef TIPROF_LBR_SYM_H
#define TIPROF_LBR_SYM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lbr_data.h"

struct lbr_func {
	uint64_t addr, size;    /* link-time address; size 0 = up to the next symbol */
	const char *name;
};

struct lbr_load {
	uint64_t off, filesz, vaddr;  /* PT_LOAD: file offset, size in the file, address */
};

/* One mapped file (every distinct path of the mmap records). */
struct lbr_obj {
	char path[256];
	int elf_ok;             /* the file was read as an ELF */
	int has_dwarf;          /* it has .debug_info */
	struct lbr_func *funcs; /* sorted by address */
	size_t nfuncs;
	char *strs;             /* storage of the names */
	struct lbr_load *loads;
	size_t nloads;
	uint64_t base;          /* p_vaddr of the first PT_LOAD (AutoFDO's offsets start there) */
	uint8_t build_id[20];
	size_t build_id_len;    /* 0: none */
	dev_t dev;
	ino_t ino;
};

struct lbr_symtab {
	struct lbr_obj *objs;
	size_t nobjs;
	int *mmap_obj;          /* per d->mmaps[i]: index into objs, or -1 ([vdso]...) */
	const struct lbr_data *d;
};

/* A resolved address: obj >= 0 and the link-time address in that file, or obj = -1 and the
 * run-time address (no mapping, or not an ELF file we could read). */
struct lbr_loc {
	int obj;
	uint64_t vaddr;
};

/* Open every mapped file of d (unreadable files are kept with elf_ok = 0). Returns 0, or -1
 * with a reason in err (out of memory, libelf unusable). */
int lbr_sym_init(struct lbr_symtab *st, const struct lbr_data *d, char *err, size_t errlen);
void lbr_sym_free(struct lbr_symtab *st);

/* Resolve a run-time address of session `sess`. */
struct lbr_loc lbr_sym_resolve(const struct lbr_symtab *st, size_t sess, uint64_t addr);

/* The function containing a link-time address of o, or NULL. */
const struct lbr_func *lbr_sym_func(const struct lbr_obj *o, uint64_t vaddr);

/* The function starting exactly at vaddr, or NULL. */
const struct lbr_func *lbr_sym_func_at(const struct lbr_obj *o, uint64_t vaddr);

/* "func+0xoff", else "file+0xoff" (offset from the file's first segment), else "0xaddr". */
void lbr_sym_format(const struct lbr_symtab *st, struct lbr_loc l, char *buf, size_t n);

/* The object that is the file `path` (same device and inode, or the same path), or -1. */
int lbr_sym_find_obj(const struct lbr_symtab *st, const char *path);

#endif
