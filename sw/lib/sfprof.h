/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sfprof.h - a sample file turned into a per-address profile, for `tiprof report` and
 * `tiprof annotate`: reads the file through the sample-file module, opens the workload ELF
 * (the header's path unless the caller names one), checks the GNU build-id, attributes every
 * sample time-proportionally (attrib.h) at its run-time address, then decodes stalled
 * instructions to split stalls into load / store / ALU (rv_decode). Functions and blocks
 * come from lib/symbol/code_map. No printing, no global state.
 *
 * Objects (sample file 1.1, docs/report.md "Programs with shared objects"): the file's object
 * records say which ELF object held each run-time address and with what load bias. The main
 * program (the header's ELF, or --elf) is p->img / p->map; a file without object records
 * (format 1.0) or whose main program has bias 0 resolves addresses as before (the main
 * program, bias 0). Shared objects are loaded lazily, the first time one of their addresses
 * is resolved; one that is missing or whose build-id differs is not an error: its addresses
 * are named "[NAME]+0xOFFSET" and a warning is kept in p->warn.
 *
 * Profile keys stay run-time addresses (so --oracle and --compare, which key by run-time
 * address too, line up): sfprof_key aggregates one to a block or function start, still at
 * run time, and sfprof_name names it: "func", "func+0x10", "[0x1234]" and "[unknown]" for the
 * main program as before; "func@libc.so.6", "func+0x10@libc.so.6", "[libc.so.6]+0x1234"
 * (link-time offset) and, at function level, "[libc.so.6]" for a shared object.
 *
 * Kernel (docs/report.md "Kernel samples"): with a kallsyms file (sfprof_load_kallsyms), an
 * address a kernel text symbol holds (kallsyms.h) is the kernel's, whatever the objects say:
 * its key is the symbol's start at function and block level (the kernel has no blocks here),
 * the address at instruction level; its name "[k] func" or "[k] func+0x10" (a module's
 * "[k] func@module"), its object "[kernel.kallsyms]".
 */
#ifndef TIPROF_SFPROF_H
#define TIPROF_SFPROF_H

#include <stddef.h>
#include <stdint.h>

#include "attrib.h"
#include "code_map.h"
#include "elf_image.h"
#include "kallsyms.h"
#include "sample_file.h"

#define SFPROF_WARN_MAX 8	/* warnings kept */

/* One object of the profile: an object record of the file (or, in a file without any, the
 * main program covering every address with bias 0). */
struct sfprof_obj {
	struct sf_object rec;	/* the record: run-time range, bias, path, build-id, kind */
	const char *name;	/* basename of the path (into rec.path) */
	int main;		/* the header's ELF: its symbols are the profile's img and map */
	int state;		/* 0 not loaded yet, 1 loaded, -1 unusable (missing, other build-id) */
	struct elf_image img;	/* a shared object's bytes (state 1) */
	struct code_map map;	/* its symbols (state 1) */
};

/* A loaded profile. */
struct sfprof {
	struct sf_header hdr;		/* the file's header */
	struct sf_trailer trailer;	/* its trailer */
	char elf[SF_PATH_MAX + 1];	/* the ELF used for the main program */
	struct elf_image img;		/* its bytes and build-id */
	struct code_map map;		/* its functions and blocks */
	int map_ok;			/* map was loaded */
	struct attr_prof prof;		/* per run-time address attribution, in samples */
	struct sfprof_obj *obj;		/* objects, in file order (owned) */
	size_t nobj;			/* how many */
	size_t nrec;			/* of them, from object records (0: a 1.0-style file) */
	long main_obj;			/* index of the (first) main-program object */
	char warn[SFPROF_WARN_MAX][512];	/* one line each: objects without symbols */
	int nwarn;			/* warnings kept */
	struct kallsyms ks;		/* kernel symbols (ks.n 0: none) */
	char ks_path[SF_PATH_MAX + 16];	/* the kallsyms file read, "" if none */
};

/* Where a run-time address is. */
struct sfprof_loc {
	long obj;			/* object index, -1: in no object */
	uint64_t link;			/* link-time address in that object */
	const struct code_map *map;	/* its symbols, NULL if unusable or none */
	const struct elf_image *img;	/* its bytes, NULL if unusable or none */
};

/* Read file (elf: NULL for the header's path) into p (zeroed first). Returns 0, or -1
 * with a one-line message in err that names the file and says what to do. Call
 * sfprof_free in both cases. */
int sfprof_load(struct sfprof *p, const char *file, const char *elf, char *err, size_t errlen);

/* Read the kernel's symbols for p from path, or when path is NULL from FILE.kallsyms (file
 * as given to sfprof_load) if that exists. Returns 0 (also when there is no FILE.kallsyms),
 * or -1 with a one-line message naming the kallsyms file in err. */
int sfprof_load_kallsyms(struct sfprof *p, const char *file, const char *path, char *err,
			 size_t errlen);

/* The kernel symbol holding run-time address rt (its index in p->ks), or -1. */
long sfprof_ksym(const struct sfprof *p, uint64_t rt);

/* Release p. */
void sfprof_free(struct sfprof *p);

/* Resolve the run-time address rt (loading its object's symbols on first use). Returns
 * loc->obj. */
long sfprof_resolve(struct sfprof *p, uint64_t rt, struct sfprof_loc *loc);

/* Key of rt at level, a run-time address (or CODE_MAP_UNKNOWN, or a shared object's
 * "[NAME]" key at function level for addresses outside its functions). */
uint64_t sfprof_key(struct sfprof *p, uint64_t rt, enum code_level level);

/* Name of a key of sfprof_key (see the head of this file). */
void sfprof_name(struct sfprof *p, uint64_t key, char *buf, size_t len);

/* Object name of a key: the basename of its object's path, or NULL outside every object. */
const char *sfprof_key_object(struct sfprof *p, uint64_t key);

/* The function holding run-time address rt: its index in the map of object *obj, or -1. */
long sfprof_func_at(struct sfprof *p, uint64_t rt, long *obj);

/* Symbols of object o (lazily loaded), or NULL when unusable. */
const struct code_map *sfprof_obj_map(struct sfprof *p, long o);

/* Bytes of object o, or NULL when unusable. */
const struct elf_image *sfprof_obj_img(struct sfprof *p, long o);

/* Path of the ELF read for object o (the main program's: p->elf). */
const char *sfprof_obj_path(const struct sfprof *p, long o);

/* Display name of function fi of object o: "func" (main program) or "func@NAME". */
void sfprof_func_name(struct sfprof *p, long o, long fi, char *buf, size_t len);

/* The function named name: NAME finds it in the main program first, then in the one shared
 * object that has it; NAME@OBJ (OBJ the object's file name or path) in that object. Sets
 * *o and *fi and returns 0, or -1 with a one-line reason in err. */
int sfprof_find_func(struct sfprof *p, const char *name, long *o, long *fi, char *err,
		     size_t errlen);

/* The function with most samples: sets *o and *fi and returns 0, or returns -1 when no
 * sample falls in a function (or out of memory). */
int sfprof_hottest(struct sfprof *p, long *o, long *fi);

/* Copy up to len bytes of the instruction at run-time address rt. Returns the bytes copied
 * (0 if its object has no usable bytes there). */
size_t sfprof_read(struct sfprof *p, uint64_t rt, uint8_t *buf, size_t len);

/* attr_kind_fn over p (ctx is the struct sfprof): decode the instruction at run-time addr. */
int sfprof_kind(void *ctx, uint64_t addr);

/* Name of the sampling mode of h ("periodic", "random-interval", "random-period"). */
const char *sfprof_mode_name(const struct sf_header *h);

#endif /* TIPROF_SFPROF_H */
