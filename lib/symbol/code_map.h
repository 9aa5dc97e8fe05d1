/* SPDX-License-Identifier: Apache-2.0 */
/* Code map of a RISC-V ELF: function symbols (.symtab, or .dynsym when stripped, as shared
 * libraries are) and basic blocks recovered from its control flow (leaders: function entries,
 * static branch/jump targets, and the instruction after every control transfer), so
 * instruction-level profiles can be judged at basic-block and function level. ELF64
 * little-endian only; every offset read from the file is bounds-checked. */
#ifndef TIPROF_CODE_MAP_H
#define TIPROF_CODE_MAP_H

#include <stddef.h>
#include <stdint.h>

/* A named address range. */
struct code_range {
	uint64_t start, end;   /* [start, end) */
	const char *name;      /* function name (points into the map's string table), or NULL */
};

struct code_map {
	struct code_range *func;  /* functions sorted by start (STT_FUNC symbols with a size) */
	size_t nfunc;
	uint64_t *leader;         /* basic-block start addresses, sorted, unique */
	size_t nleader;
	uint64_t text_lo, text_hi; /* executable address range covered by decoding */
	char *strtab;             /* copy of the symbol string table */
};

/* Read path and build the map. Returns 0, or -1 with a one-line reason in err. */
int code_map_load(struct code_map *m, const char *path, char *err, size_t errlen);
void code_map_free(struct code_map *m);

/* Index of the function containing addr, or -1. */
long code_map_func(const struct code_map *m, uint64_t addr);

/* Start address of the basic block containing addr (addr itself if outside the code). */
uint64_t code_map_block(const struct code_map *m, uint64_t addr);

enum code_level { LEVEL_INSTRUCTION, LEVEL_BLOCK, LEVEL_FUNCTION };

/* Key of addr at level: addr itself, the start of its block, or the start of its function
 * (CODE_MAP_UNKNOWN for an address outside every function). */
#define CODE_MAP_UNKNOWN UINT64_MAX
uint64_t code_map_key(const struct code_map *m, uint64_t addr, enum code_level level);

#endif /* TIPROF_CODE_MAP_H */
