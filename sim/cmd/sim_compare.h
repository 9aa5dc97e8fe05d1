/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_compare.h - the comparison profiles of `tiprof sim --profile FILE`: on the cycles the
 * TIP unit samples while it records FILE, the reference policies of sim/policy (NCI, NCI+ILP,
 * LCI, Dispatch, Software) and the ideal sampler pick their instruction too, and the Oracle
 * attributes every cycle; at the end all of them go to FILE.policies
 * (lib/sample/policy_profile.h), which `tiprof annotate/report --compare` read.
 */
#ifndef TIPROF_SIM_COMPARE_H
#define TIPROF_SIM_COMPARE_H

#include <stddef.h>

#include "fe_policies.h"
#include "rob_policies.h"
#include "sim_run.h"

struct recsim;

struct sim_compare {
	struct recsim *rec;		/* whose unit says which cycles are sampled */
	struct rob_policies rp;		/* Oracle, Ideal, LCI, NCI, NCI+ILP */
	struct fe_policies fe;		/* Dispatch, Software */
	uint64_t sampled;		/* cycles sampled */
	int inited;
};

/* Set up c for a core of commit width w recorded by rec. Returns 0 or -1 (out of memory). */
int sim_compare_init(struct sim_compare *c, struct recsim *rec, unsigned w);

/* The consumer: attach it after rec's (it reads what rec's unit did in the same cycle). */
struct sim_consumer sim_consumer_compare(struct sim_compare *c);

/* Write path (through a temporary file renamed into place) for the program elf. Returns 0,
 * or -1 with a one-line reason in err (nothing left on disk). */
int sim_compare_write(struct sim_compare *c, const char *path, const char *elf, char *err,
		      size_t errlen);

void sim_compare_free(struct sim_compare *c);

#endif /* TIPROF_SIM_COMPARE_H */
