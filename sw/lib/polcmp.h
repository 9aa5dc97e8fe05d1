/* SPDX-License-Identifier: Apache-2.0 */
/*
 * polcmp.h - `--compare P1,P2,...` of tiprof annotate and report: the chosen policies' and the
 * Oracle's per-address shares from the comparison file FILE.policies that `tiprof sim
 * --profile FILE` wrote beside the sample file (lib/sample/policy_profile.h), checked to
 * belong to the same program (build-id).
 */
#ifndef TIPROF_POLCMP_H
#define TIPROF_POLCMP_H

#include <stddef.h>
#include <stdint.h>

#include "policy_profile.h"

#define POLCMP_MAX 8	/* policies one command compares */

/* One policy's profile, by ascending address. */
struct polcmp_col {
	char name[POLICY_PROFILE_NAME_MAX];
	double total;		/* its weight over all addresses */
	uint64_t *pc;		/* addresses (owned) */
	double *w;		/* their weights (owned) */
	size_t n, cap;
};

struct polcmp {
	struct polcmp_col col[POLCMP_MAX];	/* in the order the user listed them */
	size_t n;
	uint64_t sampled;	/* cycles sampled in the run */
};

/* Load the policies named in list (comma-separated, case-insensitive; Oracle, Ideal, LCI, NCI,
 * NCI+ILP, Dispatch, Software) from sample_file + ".policies" and check its build-id against
 * id (idlen bytes). Returns 0, or -1 with a one-line reason naming the file in err. Call
 * polcmp_free in both cases. */
int polcmp_load(struct polcmp *c, const char *sample_file, const char *list, const uint8_t *id,
		size_t idlen, char *err, size_t errlen);

/* Share (0..1) of col's weight at addresses [lo, hi). */
double polcmp_share(const struct polcmp_col *col, uint64_t lo, uint64_t hi);

void polcmp_free(struct polcmp *c);

#endif /* TIPROF_POLCMP_H */
