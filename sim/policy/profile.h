/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction-level profiles (address -> attributed cycles) and the TIP paper's error metric
 * against the Oracle. Used by the Oracle, the reference policies and `tiprof accuracy`. */
#ifndef TIPROF_PROFILE_H
#define TIPROF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

/* Open-addressing map from instruction address to attributed weight. */
struct profile {
	uint64_t *key;     /* addresses (slot empty when used[i] == 0) */
	double *val;       /* attributed weight */
	uint8_t *used;     /* slot occupied */
	size_t cap;        /* slots, a power of two */
	size_t n;          /* occupied slots */
	double total;      /* sum of all weights */
	int oom;           /* an allocation failed: the profile is incomplete */
};

/* An empty profile. Returns 0 or -1 when out of memory. */
int profile_init(struct profile *p);
void profile_free(struct profile *p);

/* Add weight w to address a. */
void profile_add(struct profile *p, uint64_t a, double w);

/* Weight of address a (0 if absent). */
double profile_get(const struct profile *p, uint64_t a);

/* The TIP paper's profile error of p against the Oracle o, after scaling p to o's total:
 * e = (C - sum over addresses of min(p_a, o_a)) / C with C = o's total. 0 for identical
 * profiles, 1 for disjoint ones. Returns 0 when o is empty. */
double profile_error(const struct profile *p, const struct profile *o);

struct code_map;
enum code_level;

/* profile_error after aggregating p and o to the level with the code map m (addresses outside
 * every function form one "unknown" function). -1 when out of memory. */
double profile_error_at(const struct code_map *m, const struct profile *p,
			const struct profile *o, enum code_level level);

#endif /* TIPROF_PROFILE_H */
