/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_aux.h - user side of the tiprof_pmu perf PMU (docs/driver.md): find the
 * PMU in sysfs (type, format/ fields, caps/), encode perf_event_attr.config*
 * from the format/ entries, and decode the records of the AUX area.
 * No perf_event_open here and nothing printed: errors come back as one line.
 */
#ifndef TIPROF_PERF_AUX_H
#define TIPROF_PERF_AUX_H

#include <stddef.h>
#include <stdint.h>

#include "tiprof/aux_record.h"
#include "tiprof/sample.h"

#define PA_SYSFS_DEVICES "/sys/bus/event_source/devices"
#define PA_MAX_FIELDS 16

/* AUX record types and sizes: the driver's records, include/tiprof/aux_record.h. */
#define PA_REC_SAMPLE TIPROF_AUX_REC_SAMPLE
#define PA_REC_LOST TIPROF_AUX_REC_LOST
#define PA_REC_PM_SAMPLE TIPROF_AUX_REC_PM_SAMPLE
#define PA_REC_PM_COUNTS TIPROF_AUX_REC_PM_COUNTS

/* One sysfs format/ entry: "config1:0-31" -> word 1, bits 0..31. */
struct pa_field {
	char name[32];
	int word;		/* 0 config, 1 config1, 2 config2 */
	int lo, hi;		/* bit range */
};

/* The PMU as sysfs describes it. */
struct pa_pmu {
	char dir[256];		/* /sys/bus/event_source/devices/tiprof_pmu */
	uint32_t type;		/* perf_event_attr.type */
	unsigned w, xlen, fifo_depth;	/* caps/commit_width, xlen, fifo_depth */
	unsigned major, minor;	/* caps/version */
	/* caps/pm_fetch_width, pm_fifo_depth, pm_tags: the ProfileMe subsystem (all 0 when the
	 * unit has none or the driver predates it) */
	unsigned pm_f, pm_fifo_depth, pm_tags;
	int nfields;
	struct pa_field fields[PA_MAX_FIELDS];
};

/* Find the first tiprof* PMU. 0; -1 if there is none (err empty); -2 if one is
 * there but unreadable or malformed (err says what). */
int pa_pmu_find(struct pa_pmu *p, char *err, size_t n);

/* Set format field @name to @val in cfg[3] (config, config1, config2).
 * 0; -1 if the PMU has no such field; -2 if val does not fit its bits. */
int pa_pmu_set(const struct pa_pmu *p, uint64_t cfg[3], const char *name, uint64_t val);

/* TIP_ID register value the caps describe (magic + version). */
uint32_t pa_pmu_unit_id(const struct pa_pmu *p);

/* One decoded AUX record. */
struct pa_rec {
	int type;			/* PA_REC_* */
	struct tiprof_sample sample;	/* PA_REC_SAMPLE */
	uint64_t lost;			/* PA_REC_LOST */
	struct tiprof_pm_sample pm;	/* PA_REC_PM_SAMPLE */
	struct tiprof_pm_counts pm_counts;	/* PA_REC_PM_COUNTS: increments */
};

/* Decode the record at stream offset off of the AUX ring (base, size a power of
 * two, records may wrap), which must end by end. Returns its size in bytes, 0 if
 * fewer than a record's bytes remain before end, or -1 for a malformed record. */
int pa_aux_decode(const uint8_t *base, uint64_t size, uint64_t off, uint64_t end,
		  struct pa_rec *r);

#endif /* TIPROF_PERF_AUX_H */
