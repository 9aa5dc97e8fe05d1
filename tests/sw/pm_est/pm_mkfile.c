/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_mkfile.c - writes the ProfileMe sample files of tests/sw/pm_est/cli.sh, whose estimates
 * are worked out by hand there: `pm_mkfile OUT pm [ELF]` (100 records: 60 loads at 0x1000, 20
 * of them D-cache misses; 40 branches at 0x1004, 10 mispredicted; every tenth a pair with a
 * second at 0x1008; PERIOD 64, COLLIDED 25 -> scale 80), `pm_mkfile OUT tip` (a TIP file
 * without ProfileMe records).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_file.h"

static void profile(struct tiprof_pm_sample *s, unsigned p, uint64_t pc, uint64_t ea,
		    unsigned ev, uint16_t path, uint16_t mem_lat)
{
	unsigned o = p * TIPROF_PM_REC_PROFILE_STRIDE;
	uint64_t complete = ea ? 3u + mem_lat : 4u;

	s->w[TIPROF_PM_REC_PC + o] = pc;
	s->w[TIPROF_PM_REC_EA + o] = ea;
	s->w[TIPROF_PM_REC_INFO + o] = ev | TIPROF_PM_REC_INFO_TAGGED_MASK |
				       (uint64_t)path << TIPROF_PM_REC_INFO_PATH_SHIFT;
	/* map 1, ready 2, issue 3, (mem 3), complete, end = complete + 2 */
	s->w[TIPROF_PM_REC_STAMP_A + o] = 1 | 2ull << 16 | 3ull << 32 | complete << 48;
	s->w[TIPROF_PM_REC_STAMP_B + o] = (ea ? 3u : 0u) | (complete + 2) << 16 |
					  (uint64_t)(ea ? 0x1F : 0x17) << 32;
}

int main(int argc, char **argv)
{
	struct sf_header h;
	struct sf_writer w;
	struct sf_trailer t = { 0, 0, 0, 0, 0 };
	struct tiprof_pm_config c = {
		.f = 4, .tags = 2, .fifo_depth = 16, .period = 64, .pair = 8, .timeout = 1000,
		.issue_width = 4,
		.ctrl = TIPROF_PM_CTRL_EN_MASK | 1u << TIPROF_PM_CTRL_MODE_SHIFT |
			0xFu << TIPROF_PM_CTRL_PRIV_SHIFT | 8u << TIPROF_PM_CTRL_RAND_BITS_SHIFT |
			TIPROF_PM_CTRL_PAIR_MASK,
	};
	struct tiprof_pm_counts cn = { 100, 0, 0, 25, 0 };
	int pm;

	if (argc < 3 || (strcmp(argv[2], "pm") && strcmp(argv[2], "tip"))) {
		fprintf(stderr, "usage: pm_mkfile OUT pm|tip [ELF]\n");
		return 2;
	}
	pm = !strcmp(argv[2], "pm");
	sf_header_init(&h);
	h.w = 4;
	h.source = SF_SOURCE_SIMULATOR;
	if (argc > 3) {
		h.elf_path_len = (uint16_t)strlen(argv[3]);
		memcpy(h.elf_path, argv[3], h.elf_path_len + 1u);
	}
	if (sf_writer_open(&w, argv[1], &h)) {
		fprintf(stderr, "pm_mkfile: %s\n", w.msg);
		return 1;
	}
	if (pm && sf_writer_pm_config(&w, &c))
		goto bad;
	for (unsigned i = 0; pm && i < 100; i++) {
		struct tiprof_pm_sample s;
		unsigned ev = 1u << TIPROF_PM_EV_RETIRED;

		memset(&s, 0, sizeof(s));
		s.w[TIPROF_PM_REC_CYCLE] = 1000ull * (i + 1);
		s.w[TIPROF_PM_REC_SINFO] = TIPROF_PM_REC_FMT;
		if (i < 60) {
			ev |= 1u << TIPROF_PM_EV_LOAD | 1u << TIPROF_PM_EV_EA_VALID |
			      (i < 20 ? 1u << TIPROF_PM_EV_DC_MISS : 0);
			profile(&s, 0, 0x1000, 0x8000 + 8 * i, ev, 0x0003, i < 20 ? 40 : 4);
		} else {
			ev |= 1u << TIPROF_PM_EV_CTRL | (i % 2 ? 0 : 1u << TIPROF_PM_EV_BR_TAKEN) |
			      (i < 70 ? 1u << TIPROF_PM_EV_BR_MISPRED : 0);
			profile(&s, 0, 0x1004, 0, ev, i % 2 ? 0x00FF : 0x0F0F, 0);
		}
		if (i % 10 == 0) {
			s.w[TIPROF_PM_REC_SINFO] |= TIPROF_PM_REC_SINFO_PAIR_MASK |
				2ull << TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT |
				1ull << TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT;
			profile(&s, 1, 0x1008, 0, 1u << TIPROF_PM_EV_RETIRED, 0, 0);
		}
		if (sf_writer_pm_sample(&w, &s))
			goto bad;
	}
	if (pm && sf_writer_pm_counts(&w, &cn))
		goto bad;
	if (sf_writer_close(&w, &t)) {
		fprintf(stderr, "pm_mkfile: %s\n", w.msg);
		return 1;
	}
	return 0;
bad:
	fprintf(stderr, "pm_mkfile: %s\n", w.msg);
	sf_writer_abort(&w);
	return 1;
}
