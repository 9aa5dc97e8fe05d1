/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_perf_mk.c - test helper: write a sample file of ProfileMe samples described on
 * standard input, for the perf.data conversion test (test_pm_perf.sh).
 *
 * Usage: pm_perf_mk OUT ELF BUILD_ID_HEX PERIOD < SPEC
 * SPEC lines (# comments): N PC KIND EA MEMLAT TOTAL FLAGS [PC2 KIND2 EA2 MEMLAT2 TOTAL2
 * FLAGS2 DIST CYCLES]: N samples (a pair when the second profile is given) whose profile
 * is the instruction at PC of KIND alu, load or store, with data address EA (loads and
 * stores), memory latency MEMLAT (complete - mem stamps), total latency TOTAL (end
 * stamp) and FLAGS: any of m (DC_MISS), t (DTLB_MISS), a (aborted: a mispredicted
 * path), or - for none. Samples are 100 cycles apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_file.h"

/* Profile p of s from its description; 0 or -1 (bad KIND). */
static int profile(struct tiprof_pm_sample *s, unsigned p, unsigned long long pc,
		   const char *kind, unsigned long long ea, unsigned memlat, unsigned total,
		   const char *flags)
{
	unsigned o = p * TIPROF_PM_REC_PROFILE_STRIDE;
	uint64_t ev = strchr(flags, 'a') ? 1u << TIPROF_PM_EV_ABORTED : 1u << TIPROF_PM_EV_RETIRED;
	int mem = strcmp(kind, "alu") != 0;
	/* stamps: map 1, ready 2, issue 3, mem 4, complete 4 + memlat (mem ops) or 5 */
	uint64_t cpl = mem ? 4 + memlat : 5;

	if (mem && strcmp(kind, "load") && strcmp(kind, "store"))
		return -1;
	if (mem)
		ev |= (strcmp(kind, "load") ? 1u << TIPROF_PM_EV_STORE : 1u << TIPROF_PM_EV_LOAD) |
		      1u << TIPROF_PM_EV_EA_VALID |
		      (strchr(flags, 'm') ? 1u << TIPROF_PM_EV_DC_MISS : 0) |
		      (strchr(flags, 't') ? 1u << TIPROF_PM_EV_DTLB_MISS : 0);
	s->w[TIPROF_PM_REC_PC + o] = pc;
	s->w[TIPROF_PM_REC_EA + o] = mem ? ea : 0;
	s->w[TIPROF_PM_REC_INFO + o] = ev | TIPROF_PM_REC_INFO_TAGGED_MASK |
				       (uint64_t)p << TIPROF_PM_REC_INFO_SLOT_SHIFT;
	s->w[TIPROF_PM_REC_STAMP_A + o] = 1 | 2ull << 16 | 3ull << 32 | cpl << 48;
	s->w[TIPROF_PM_REC_STAMP_B + o] = (mem ? 4u : 0u) | (uint64_t)total << 16 |
		(uint64_t)(mem ? 0x1F : 0x17) << TIPROF_PM_REC_STAMP_B_SEEN_SHIFT;
	return 0;
}

int main(int argc, char **argv)
{
	struct sf_header h;
	struct sf_writer w;
	struct sf_trailer t = { 0 };
	struct tiprof_pm_config c = { .f = 2, .tags = 2, .fifo_depth = 16, .pair = 32,
				      .timeout = 65535, .issue_width = 4 };
	struct tiprof_pm_counts cn = { 0 };
	char line[512];
	uint64_t cycle = 1000;

	if (argc != 5) {
		fprintf(stderr, "usage: pm_perf_mk OUT ELF BUILD_ID_HEX PERIOD < SPEC\n");
		return 2;
	}
	sf_header_init(&h);
	h.source = SF_SOURCE_SIMULATOR;
	h.elf_path_len = (uint16_t)strlen(argv[2]);
	snprintf(h.elf_path, sizeof(h.elf_path), "%s", argv[2]);
	for (const char *x = argv[3]; x[0] && x[1] && h.build_id_len < SF_BUILD_ID_MAX; x += 2)
		h.build_id[h.build_id_len++] = (uint8_t)strtoul((char[3]){ x[0], x[1], 0 }, NULL, 16);
	c.period = (uint32_t)strtoul(argv[4], NULL, 0);
	c.ctrl = TIPROF_PM_CTRL_EN_MASK | 1u << TIPROF_PM_CTRL_MODE_SHIFT |
		 1u << TIPROF_PM_CTRL_PRIV_SHIFT | 8u << TIPROF_PM_CTRL_RAND_BITS_SHIFT |
		 TIPROF_PM_CTRL_PAIR_MASK;
	if (sf_writer_open(&w, argv[1], &h) || sf_writer_pm_config(&w, &c))
		goto fail;
	while (fgets(line, sizeof(line), stdin)) {
		unsigned long long pc, ea, pc2, ea2;
		unsigned n, ml, tot, ml2, tot2, dist, cyc;
		char kind[16], fl[16], kind2[16], fl2[16];
		int k = sscanf(line, "%u %llx %15s %llx %u %u %15s %llx %15s %llx %u %u %15s %u %u",
			       &n, &pc, kind, &ea, &ml, &tot, fl, &pc2, kind2, &ea2, &ml2, &tot2,
			       fl2, &dist, &cyc);

		if (line[0] == '#' || k <= 0)
			continue;
		if (k != 7 && k != 15) {
			fprintf(stderr, "pm_perf_mk: bad spec line: %s", line);
			sf_writer_abort(&w);
			return 1;
		}
		for (unsigned i = 0; i < n; i++) {
			struct tiprof_pm_sample s;

			memset(&s, 0, sizeof(s));
			s.w[TIPROF_PM_REC_CYCLE] = cycle;
			s.w[TIPROF_PM_REC_SINFO] = TIPROF_PM_REC_FMT;
			cycle += 100;
			if (profile(&s, 0, pc, kind, ea, ml, tot, fl) ||
			    (k == 15 && profile(&s, 1, pc2, kind2, ea2, ml2, tot2, fl2))) {
				fprintf(stderr, "pm_perf_mk: bad KIND: %s", line);
				sf_writer_abort(&w);
				return 1;
			}
			if (k == 15)
				s.w[TIPROF_PM_REC_SINFO] |= TIPROF_PM_REC_SINFO_PAIR_MASK |
					(uint64_t)dist << TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT |
					(uint64_t)cyc << TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT;
			if (sf_writer_pm_sample(&w, &s))
				goto fail;
			cn.taken++;
		}
	}
	if (sf_writer_pm_counts(&w, &cn))
		goto fail;
	t.end_cycle = cycle;
	if (sf_writer_close(&w, &t))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "pm_perf_mk: %s\n", w.msg);
	sf_writer_abort(&w);
	return 1;
}
