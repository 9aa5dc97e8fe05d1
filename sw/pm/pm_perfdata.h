/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_perfdata.h - ProfileMe samples as a perf.data file that `perf report -i` and
 * `perf mem report -i` read (docs/pm-perf.md): one event ("tiprof-profileme", exact IP),
 * sample_type IP|TID|TIME|ADDR|PERIOD|WEIGHT_STRUCT|DATA_SRC; every tagged profile of every
 * sample is one PERF_RECORD_SAMPLE with ip = PC, addr = EA (when EA_VALID), weight = its
 * memory latency (loads and stores) or total latency (others), ins_lat = total latency,
 * data_src = load/store, L1 hit/miss (DC_MISS), dTLB hit/miss (DTLB_MISS), period =
 * PM_PERIOD; COMM and MMAP2 records for the program (and the object records' objects) and
 * their build-ids. Built with sw/lib/perfdata_writer.h.
 */
#ifndef TIPROF_PM_PERFDATA_H
#define TIPROF_PM_PERFDATA_H

#include <stddef.h>

#include "sample_file.h"
#include "tiprof/pm_sample.h"

/* The process id and thread id the samples are given (one process). */
#define PM_PERF_PID 1

/* What to convert: a ProfileMe recording's header, config, samples and mappings. */
struct pm_perf_input {
	const struct sf_header *hdr;		/* the file's header (XLEN, ELF path, build-id) */
	const struct tiprof_pm_config *cfg;	/* the PM config record */
	const struct tiprof_pm_sample *s;	/* samples */
	size_t n;
	const struct sf_object *objs;		/* object records (mappings), may be 0 */
	size_t nobjs;
};

/* Write path (created or truncated). The program's executable segments are read from the
 * ELF files (the header's ELF when there are no object records; each object's path
 * otherwise) to give the mappings their file offsets. Returns 0, or -1 with a one-line
 * reason in err (the header's ELF unreadable when there are no object records, out of
 * memory, a write error). */
int pm_perfdata_write(const char *path, const struct pm_perf_input *in, char *err,
		      size_t errlen);

/* The pieces of one profile's sample (exposed for tests and for other converters):
 * weight (var1: memory latency of a load or store whose mem and complete stages were
 * seen, else total latency), ins_lat (var2: total latency), and perf_mem_data_src. */
uint64_t pm_perf_weight(const struct tiprof_pm_sample *s, unsigned p);
uint64_t pm_perf_data_src(const struct tiprof_pm_sample *s, unsigned p);

#endif /* TIPROF_PM_PERFDATA_H */
