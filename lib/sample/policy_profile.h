/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_profile.h - the comparison file (docs/report.md, "Comparing policies"): what the other
 * sample-selection policies (NCI, NCI+ILP, LCI, TIP-ILP, Dispatch, Software), the ideal
 * sampler and the Oracle would have attributed, per address, on the same run and the same
 * sampled cycles as a TIP sample file. `tiprof sim --profile FILE` writes it beside FILE as
 * FILE.policies; `tiprof annotate/report --compare` read it. The one writer and the one
 * reader of this text format:
 *
 *   tiprof-policies 1
 *   build-id HEX            (the program's GNU build-id; "-" if it has none)
 *   sampled N               (cycles sampled)
 *   policy NAME TOTAL       (then its address lines, ascending)
 *   0xPC WEIGHT
 *   ...
 */
#ifndef TIPROF_POLICY_PROFILE_H
#define TIPROF_POLICY_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define POLICY_PROFILE_VERSION 1
#define POLICY_PROFILE_NAME_MAX 16	/* longest policy name + 1 */
#define POLICY_PROFILE_ID_MAX 64	/* longest build-id, bytes */

/* The header. */
struct policy_profile_hdr {
	uint8_t build_id[POLICY_PROFILE_ID_MAX];
	size_t build_id_len;
	uint64_t sampled;
};

/* Writing: the header, then per policy its line and its address lines in ascending order.
 * Each returns 0 or -1 when writing failed. */
int policy_profile_write_hdr(FILE *f, const struct policy_profile_hdr *h);
int policy_profile_write_policy(FILE *f, const char *name, double total);
int policy_profile_write_ent(FILE *f, uint64_t pc, double w);

/* Called for every address line with its policy's name and total; nonzero stops the read
 * and is returned by it. */
typedef int (*policy_profile_fn)(void *ctx, const char *name, double total, uint64_t pc,
				 double w);

/* Read f: the header into h, fn for each address line. Returns 0, -1 with a one-line reason
 * (with the line number) in err when f is not a comparison file this reader knows, or fn's
 * nonzero return. */
int policy_profile_read(FILE *f, struct policy_profile_hdr *h, policy_profile_fn fn, void *ctx,
			char *err, size_t errlen);

#endif /* TIPROF_POLICY_PROFILE_H */
