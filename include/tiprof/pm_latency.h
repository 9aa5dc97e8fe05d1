/* SPDX-License-Identifier: (GPL-2.0-only OR Apache-2.0) */
/* The latencies of a ProfileMe record (docs/profileme.md "Latencies", the paper's latency
 * registers), derived from one profile's stage stamps: the one definition that the C reference
 * model's latency filter (sim/model/pm_model.c) and the tools (sw/pm/) both use. Header-only,
 * no dependencies beyond the generated register map. */
#ifndef TIPROF_PM_LATENCY_H
#define TIPROF_PM_LATENCY_H

#include <stdint.h>

#include "tiprof/tiprof_regs.h"

/* Number of latency selectors (PM_LATFILT.SEL 0..6: TIPROF_PM_LAT_*). */
#define TIPROF_PM_NLAT 7

/* Latency sel (TIPROF_PM_LAT_*) of profile p of the record words w[TIPROF_PM_REC_WORDS].
 * *valid (may be NULL) is set to whether the latency is defined (its stages were seen); the
 * value is 0 when it is not. A negative difference reads 0 (never produced by the unit). */
static inline uint16_t tiprof_pm_latency(const uint64_t *w, unsigned p, unsigned sel,
					 int *valid)
{
	unsigned b = p * TIPROF_PM_REC_PROFILE_STRIDE;
	uint64_t info = w[TIPROF_PM_REC_INFO + b];
	uint64_t sa = w[TIPROF_PM_REC_STAMP_A + b], sb = w[TIPROF_PM_REC_STAMP_B + b];
	unsigned seen = (unsigned)((sb & TIPROF_PM_REC_STAMP_B_SEEN_MASK) >>
				   TIPROF_PM_REC_STAMP_B_SEEN_SHIFT);
	/* stamps in the order of the seen bits: map, ready, issue, mem, complete; then end */
	enum { MAP, READY, ISSUE, MEM, COMPLETE, END };
	const uint16_t st[6] = {
		(uint16_t)sa, (uint16_t)(sa >> 16), (uint16_t)(sa >> 32), (uint16_t)sb,
		(uint16_t)(sa >> 48), (uint16_t)(sb >> 16),
	};
	int tagged = (info & TIPROF_PM_REC_INFO_TAGGED_MASK) != 0;
	int retired = (int)((info >> TIPROF_PM_EV_RETIRED) & 1u);
	unsigned x = 0, y = 0;
	int v = 0;

#define TIPROF_PM_SEEN_(s) ((seen >> (s)) & 1u)
	switch (sel) {
	case TIPROF_PM_LAT_TOTAL: v = tagged; x = st[END]; break;
	case TIPROF_PM_LAT_FETCH_MAP: v = TIPROF_PM_SEEN_(MAP); x = st[MAP]; break;
	case TIPROF_PM_LAT_MAP_READY:
		v = TIPROF_PM_SEEN_(MAP) && TIPROF_PM_SEEN_(READY); x = st[READY]; y = st[MAP];
		break;
	case TIPROF_PM_LAT_READY_ISSUE:
		v = TIPROF_PM_SEEN_(READY) && TIPROF_PM_SEEN_(ISSUE); x = st[ISSUE]; y = st[READY];
		break;
	case TIPROF_PM_LAT_ISSUE_COMPLETE:
		v = TIPROF_PM_SEEN_(ISSUE) && TIPROF_PM_SEEN_(COMPLETE); x = st[COMPLETE];
		y = st[ISSUE];
		break;
	case TIPROF_PM_LAT_COMPLETE_RETIRE:
		v = TIPROF_PM_SEEN_(COMPLETE) && retired; x = st[END]; y = st[COMPLETE];
		break;
	case TIPROF_PM_LAT_MEM:
		v = TIPROF_PM_SEEN_(MEM) && TIPROF_PM_SEEN_(COMPLETE); x = st[COMPLETE]; y = st[MEM];
		break;
	default:
		break;
	}
#undef TIPROF_PM_SEEN_
	if (valid)
		*valid = v;
	if (!v)
		return 0;
	return (uint16_t)(x > y ? x - y : 0);
}

#endif /* TIPROF_PM_LATENCY_H */
