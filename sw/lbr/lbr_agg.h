/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_agg.h - aggregation of a records file's stacks into counts keyed by resolved
 * addresses (object + link-time address, lbr_sym.h), so stacks of every thread, session
 * and run (ASLR) add up:
 *   branches  taken {from, to} pairs
 *   ranges    fall-through ranges [begin, end] executed once per occurrence: between two
 *             consecutive taken branches of a stack [to_i, from_i+1], and from the sample PC
 *             (where the stack started) to the first branch's from
 *   samples   sample PCs
 * No I/O. */
#ifndef TIPROF_LBR_AGG_H
#define TIPROF_LBR_AGG_H

#include <stddef.h>
#include <stdint.h>

#include "lbr_data.h"
#include "lbr_sym.h"

struct lbr_agg_key {
	int32_t oa, ob;     /* objects of a and b (-1: run-time address) */
	uint64_t a, b;      /* from/to, begin/end, or sample PC (b = 0) */
};

struct lbr_agg_ent {
	struct lbr_agg_key k;
	uint64_t count;     /* 0: free slot */
};

struct lbr_counts {
	struct lbr_agg_ent *tab;
	size_t cap, n;
};

struct lbr_agg {
	struct lbr_counts branches, ranges, samples;
	uint64_t stacks;        /* stacks read */
	uint64_t bogus;         /* ranges dropped: end before begin, across objects, > 1 MiB */
};

/* Count one more key (n times). Returns 0, or -1 when out of memory. */
int lbr_counts_add(struct lbr_counts *c, const struct lbr_agg_key *k, uint64_t n);

/* The used entries, hottest first (ties by key); malloc'ed, *n set. NULL if out of memory
 * (or empty, with *n = 0). */
struct lbr_agg_ent *lbr_counts_sorted(const struct lbr_counts *c, size_t *n);

void lbr_counts_free(struct lbr_counts *c);

/* Aggregate every stack of d. Returns 0, or -1 with a reason in err. */
int lbr_agg_build(struct lbr_agg *g, const struct lbr_data *d, const struct lbr_symtab *st,
		  char *err, size_t errlen);
void lbr_agg_free(struct lbr_agg *g);

#endif
