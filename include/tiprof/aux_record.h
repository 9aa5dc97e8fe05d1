/* SPDX-License-Identifier: (GPL-2.0-only OR Apache-2.0) */
/*
 * tiprof/aux_record.h - the records the tiprof_pmu driver writes into the perf AUX area and
 * `tiprof record` reads back (docs/driver.md): the one definition of that contract, used by
 * driver/tiprof_pmu_drv.c (kernel) and sw/lib/perf_aux.c (user space). Records are 8-byte
 * aligned, in the hart's byte order (little-endian on RISC-V), and may wrap around the end
 * of the AUX ring.
 */
#ifndef TIPROF_AUX_RECORD_H
#define TIPROF_AUX_RECORD_H

#include <stdint.h>

#include "tiprof/sample.h"

/* Record types (struct tiprof_aux_rec.type). */
#define TIPROF_AUX_REC_SAMPLE	1	/* payload: struct tiprof_sample */
#define TIPROF_AUX_REC_LOST	2	/* payload: uint64_t samples lost since the last record */

/* One record of the AUX stream. */
struct tiprof_aux_rec {
	uint16_t type;		/* TIPROF_AUX_REC_* */
	uint16_t size;		/* bytes, header included */
	uint32_t reserved;	/* 0 */
	union {
		struct tiprof_sample sample;	/* TIPROF_AUX_REC_SAMPLE */
		uint64_t lost;			/* TIPROF_AUX_REC_LOST */
	};
};

/* Sizes of the header and of each record type (the value of .size). */
#define TIPROF_AUX_REC_HDR_SIZE		8u
#define TIPROF_AUX_REC_SAMPLE_SIZE	(TIPROF_AUX_REC_HDR_SIZE + 80u)
#define TIPROF_AUX_REC_LOST_SIZE	(TIPROF_AUX_REC_HDR_SIZE + 8u)

/* The layout both sides rely on, checked wherever the header is compiled. */
_Static_assert(sizeof(struct tiprof_sample) == TIPROF_AUX_REC_SAMPLE_SIZE - TIPROF_AUX_REC_HDR_SIZE,
	       "struct tiprof_sample is the 80-byte payload of a SAMPLE record");
_Static_assert(sizeof(struct tiprof_aux_rec) == TIPROF_AUX_REC_SAMPLE_SIZE,
	       "a SAMPLE record is the largest record");

#endif /* TIPROF_AUX_RECORD_H */
