/* SPDX-License-Identifier: Apache-2.0 */
/*
 * attrib.h - time-proportional attribution of TIP samples to instruction addresses and
 * cycle-stack categories (TIP, MICRO 2021, §3.1; docs/report.md):
 *   Computing  1/n of the sample to each of the n valid slots, category execute;
 *   Stalled    the whole sample to the oldest bank's instruction, category by its type
 *              (load, store, or anything else = ALU/FU), decided by a caller callback
 *              that decodes the binary;
 *   Flushed    to slot 0 (the offending instruction): mispredict flush if MISPRED, else
 *              other flush (FLUSH, EXCEPTION);
 *   Drained    to the valid slot (the next instruction to enter the ROB), front end.
 * Also a general keyed accumulator (attr_prof_add) so profiles can be re-aggregated at
 * block or function level. No I/O, no global state; errors are return codes.
 */
#ifndef TIPROF_ATTRIB_H
#define TIPROF_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "tiprof/cycle_stack.h"
#include "tiprof/sample.h"

/* Cycle-stack categories: enum tiprof_cat of include/tiprof/cycle_stack.h (the Oracle's). */

/* Type of a stalled instruction, as the kind callback reports it. */
enum attr_kind { ATTR_KIND_ALU = 0, ATTR_KIND_LOAD = 1, ATTR_KIND_STORE = 2 };

/* Returns the enum attr_kind of the instruction at addr (ATTR_KIND_ALU if unknown). */
typedef int (*attr_kind_fn)(void *ctx, uint64_t addr);

/* One key's (address, block or function start) weight per category, in samples. */
struct attr_ent {
	uint64_t key;			/* address or aggregation key */
	double w[TIPROF_NCAT];		/* weight per category */
	double total;			/* sum of w */
};

/* A profile: entries in first-seen order, hashed by key. */
struct attr_prof {
	struct attr_ent *ent;		/* entries (owned) */
	size_t n, cap;			/* used, allocated */
	uint32_t *hash;			/* open addressing: index+1, 0 free (owned) */
	size_t hmask;			/* hash slots - 1 */
	double total;			/* sum over entries */
	double cat[TIPROF_NCAT];		/* sum per category */
	uint64_t samples;		/* samples attributed */
	uint64_t bad;			/* samples with no attributable slot (skipped) */
};

/* Zero p (no allocation until the first add). */
void attr_prof_init(struct attr_prof *p);

/* Release p's storage. */
void attr_prof_free(struct attr_prof *p);

/* Add weight wt of category cat to key. Returns 0, or -1 if out of memory. */
int attr_prof_add(struct attr_prof *p, uint64_t key, unsigned cat, double wt);

/* The entry of key, or NULL. */
const struct attr_ent *attr_prof_get(const struct attr_prof *p, uint64_t key);

/* Attribute one sample of a W-bank unit (weight 1) by the rules above; kind (may be NULL:
 * every stall is ALU) classifies stalled instructions. Returns 0, or -1 if out of memory. */
int attr_sample(struct attr_prof *p, unsigned w, const struct tiprof_sample *s,
		attr_kind_fn kind, void *kctx);

/* Type the stalls afterwards: move each entry's alu_stall weight to load_stall or
 * store_stall when kind says its key (an address) is a load or a store. Attributing with
 * kind NULL and then calling this gives the same profile as attributing with kind; it is
 * for readers that know the binary only after reading every sample (object records may come
 * anywhere in a sample file). */
void attr_prof_retype(struct attr_prof *p, attr_kind_fn kind, void *kctx);

/* Sort p's entries by total, heaviest first (ties by key); the hash is rebuilt. */
void attr_prof_sort(struct attr_prof *p);


#endif /* TIPROF_ATTRIB_H */
