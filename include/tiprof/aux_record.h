/* SPDX-License-Identifier: (GPL-2.0-only OR Apache-2.0) */
/*
 * tiprof/aux_record.h - the records the tiprof_pmu driver writes into the perf AUX area and
 * `tiprof record` reads back (docs/driver.md): the one definition of that contract, used by
 * driver/tiprof_pmu_drv.c (kernel) and sw/lib/perf_aux.c (user space). Records are 8-byte
 * aligned, in the hart's byte order (little-endian on RISC-V), and may wrap around the end
 * of the AUX ring.
 *
 * A TIP event's stream holds SAMPLE and LOST records; a ProfileMe event's (config bit
 * `profileme`) holds PM_SAMPLE and PM_COUNTS records. The types are new numbers with their own
 * sizes, so a reader that knows only SAMPLE and LOST meets an unknown type and stops with
 * "malformed" instead of misreading a ProfileMe stream.
 */
#ifndef TIPROF_AUX_RECORD_H
#define TIPROF_AUX_RECORD_H

#include <stdint.h>

#include "tiprof/sample.h"
#include "tiprof/pm_sample.h"

/* Record types (struct tiprof_aux_rec.type). */
#define TIPROF_AUX_REC_SAMPLE	1	/* payload: struct tiprof_sample */
#define TIPROF_AUX_REC_LOST	2	/* payload: uint64_t samples lost since the last record */
#define TIPROF_AUX_REC_PM_SAMPLE 3	/* payload: struct tiprof_pm_sample (the 12 record words) */
#define TIPROF_AUX_REC_PM_COUNTS 4	/* payload: struct tiprof_pm_counts, increments since the
					 * previous PM_COUNTS record: the unit's PM_TAKEN, PM_LOST,
					 * PM_FILTERED, PM_COLLIDED and, in lost_sw, records the
					 * driver read but had no AUX room for (or discarded) */

/* One record of the AUX stream. */
struct tiprof_aux_rec {
	uint16_t type;		/* TIPROF_AUX_REC_* */
	uint16_t size;		/* bytes, header included */
	uint32_t reserved;	/* 0 */
	union {
		struct tiprof_sample sample;	/* TIPROF_AUX_REC_SAMPLE */
		uint64_t lost;			/* TIPROF_AUX_REC_LOST */
		struct tiprof_pm_sample pm;	/* TIPROF_AUX_REC_PM_SAMPLE */
		struct tiprof_pm_counts pm_counts;	/* TIPROF_AUX_REC_PM_COUNTS */
	};
};

/* Sizes of the header and of each record type (the value of .size). */
#define TIPROF_AUX_REC_HDR_SIZE		8u
#define TIPROF_AUX_REC_SAMPLE_SIZE	(TIPROF_AUX_REC_HDR_SIZE + 80u)
#define TIPROF_AUX_REC_LOST_SIZE	(TIPROF_AUX_REC_HDR_SIZE + 8u)
#define TIPROF_AUX_REC_PM_SAMPLE_SIZE	(TIPROF_AUX_REC_HDR_SIZE + 96u)
#define TIPROF_AUX_REC_PM_COUNTS_SIZE	(TIPROF_AUX_REC_HDR_SIZE + 40u)
/* Largest record (the size of struct tiprof_aux_rec). */
#define TIPROF_AUX_REC_MAX_SIZE		TIPROF_AUX_REC_PM_SAMPLE_SIZE

/* The layout both sides rely on, checked wherever the header is compiled. */
_Static_assert(sizeof(struct tiprof_sample) == TIPROF_AUX_REC_SAMPLE_SIZE - TIPROF_AUX_REC_HDR_SIZE,
	       "struct tiprof_sample is the 80-byte payload of a SAMPLE record");
_Static_assert(sizeof(struct tiprof_pm_sample) ==
	       TIPROF_AUX_REC_PM_SAMPLE_SIZE - TIPROF_AUX_REC_HDR_SIZE,
	       "struct tiprof_pm_sample is the 96-byte payload of a PM_SAMPLE record");
_Static_assert(sizeof(struct tiprof_pm_counts) ==
	       TIPROF_AUX_REC_PM_COUNTS_SIZE - TIPROF_AUX_REC_HDR_SIZE,
	       "struct tiprof_pm_counts is the 40-byte payload of a PM_COUNTS record");
_Static_assert(sizeof(struct tiprof_aux_rec) == TIPROF_AUX_REC_MAX_SIZE,
	       "a PM_SAMPLE record is the largest record");

#endif /* TIPROF_AUX_RECORD_H */
