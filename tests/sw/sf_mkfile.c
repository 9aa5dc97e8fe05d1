/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sf_mkfile.c - test helper: write a valid tiprof sample file with the library's
 * writer (every commit state, deterministic contents), for the `tiprof dump` tests;
 * with PM_SAMPLES > 0 also a ProfileMe config, that many ProfileMe samples (single
 * retired loads and pairs) after the TIP samples, and a ProfileMe counts record.
 *
 * Usage: sf_mkfile OUT [W [XLEN [SAMPLES [PM_SAMPLES]]]]    (defaults 4 64 20 0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_file.h"

/* Word `word` of profile p of s. */
static uint64_t *pmw(struct tiprof_pm_sample *s, unsigned word, unsigned p)
{
	return &s->w[word + p * TIPROF_PM_REC_PROFILE_STRIDE];
}

/* Profile p: a retired instruction at pc, a load of ea when ea != 0, fetched f cycles after
 * the first, stamps map f+1, issue f+3, mem f+4, complete f+4+lat, end f+6+lat. */
static void pm_profile(struct tiprof_pm_sample *s, unsigned p, uint64_t pc, uint64_t ea,
		       unsigned lat)
{
	uint64_t ev = 1u << TIPROF_PM_EV_RETIRED;

	if (ea)
		ev |= 1u << TIPROF_PM_EV_LOAD | 1u << TIPROF_PM_EV_EA_VALID |
		      (lat > 10 ? 1u << TIPROF_PM_EV_DC_MISS : 0);
	*pmw(s, TIPROF_PM_REC_PC, p) = pc;
	*pmw(s, TIPROF_PM_REC_EA, p) = ea;
	*pmw(s, TIPROF_PM_REC_INFO, p) = ev | TIPROF_PM_REC_INFO_TAGGED_MASK |
		(uint64_t)p << TIPROF_PM_REC_INFO_SLOT_SHIFT | 1ull << TIPROF_PM_REC_INFO_CTX_SHIFT;
	*pmw(s, TIPROF_PM_REC_STAMP_A, p) = 1 | 3ull << 32 | (uint64_t)(4 + lat) << 48;
	*pmw(s, TIPROF_PM_REC_STAMP_B, p) = (ea ? 4 : 0) | (uint64_t)(6 + lat) << 16 |
		(uint64_t)(ea ? 0x1D : 0x15) << TIPROF_PM_REC_STAMP_B_SEEN_SHIFT;
}

/* The ProfileMe part: config, npm samples, counts. */
static int write_pm(struct sf_writer *w, unsigned npm)
{
	struct tiprof_pm_config c = {
		.f = 2, .tags = 2, .fifo_depth = 8, .period = 1024, .pair = 16,
		.timeout = 65535, .issue_width = 4,
		.ctrl = TIPROF_PM_CTRL_EN_MASK | 1u << TIPROF_PM_CTRL_MODE_SHIFT |
			0xFu << TIPROF_PM_CTRL_PRIV_SHIFT | 10u << TIPROF_PM_CTRL_RAND_BITS_SHIFT |
			TIPROF_PM_CTRL_PAIR_MASK,
	};
	struct tiprof_pm_counts cn = { npm, 1, 0, 2, 0 };

	if (sf_writer_pm_config(w, &c))
		return -1;
	for (unsigned i = 0; i < npm; i++) {
		struct tiprof_pm_sample s;

		memset(&s, 0, sizeof(s));
		s.w[TIPROF_PM_REC_CYCLE] = 5000ull + 1000 * i;
		s.w[TIPROF_PM_REC_SINFO] = TIPROF_PM_REC_FMT;
		pm_profile(&s, 0, 0x10400 + 4 * i, 0x20000 + 64 * i, i % 2 ? 40 : 2);
		if (i % 3 == 2) {
			s.w[TIPROF_PM_REC_SINFO] |= TIPROF_PM_REC_SINFO_PAIR_MASK |
				3ull << TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT |
				1ull << TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT;
			pm_profile(&s, 1, 0x10500, 0, 1);
		}
		if (sf_writer_pm_sample(w, &s))
			return -1;
	}
	return sf_writer_pm_counts(w, &cn);
}

int main(int argc, char **argv)
{
	struct sf_header h;
	struct sf_writer w;
	struct sf_trailer t = { 0, 5, 1, 0, 0 };
	unsigned n, npm;

	if (argc < 2) {
		fprintf(stderr, "usage: sf_mkfile OUT [W [XLEN [SAMPLES [PM_SAMPLES]]]]\n");
		return 2;
	}
	sf_header_init(&h);
	h.w = (uint8_t)(argc > 2 ? atoi(argv[2]) : 4);
	h.xlen = (uint8_t)(argc > 3 ? atoi(argv[3]) : 64);
	n = argc > 4 ? (unsigned)atoi(argv[4]) : 20;
	npm = argc > 5 ? (unsigned)atoi(argv[5]) : 0;
	h.fifo_depth = 16;
	h.unit_id = TIPROF_TIP_ID_MAGIC | TIPROF_TIP_ID_MAJOR << TIPROF_TIP_ID_MAJOR_SHIFT;
	h.period = 1000;
	h.source = SF_SOURCE_SIMULATOR;
	h.elf_path_len = (uint16_t)strlen("/opt/bench/mcf");
	memcpy(h.elf_path, "/opt/bench/mcf", h.elf_path_len + 1u);
	if (sf_writer_open(&w, argv[1], &h)) {
		fprintf(stderr, "sf_mkfile: %s\n", w.msg);
		return 1;
	}
	for (unsigned i = 0; i < n; i++) {
		struct tiprof_sample s;
		unsigned b = i % h.w;

		memset(&s, 0, sizeof(s));
		s.cycle = 1000ull * (i + 1);
		s.priv = TIPROF_PRIV_U;
		s.ctx = 1;
		switch (i % 4) {
		case 0: /* computing in every bank */
			s.valid = (uint8_t)((1u << h.w) - 1u);
			s.bank = (uint8_t)b;
			for (unsigned k = 0; k < h.w; k++)
				s.addr[k] = 0x10000 + 4 * (b + k);
			break;
		case 1:
			s.flags = TIPROF_SF_STALLED;
			s.bank = (uint8_t)b;
			s.valid = (uint8_t)(1u << b);
			s.addr[b] = 0x10100;
			break;
		case 2:
			s.flags = TIPROF_SF_MISPRED;
			s.valid = 1;
			s.addr[0] = 0x10200;
			break;
		default:
			s.flags = TIPROF_SF_FRONTEND;
			s.bank = (uint8_t)b;
			s.valid = (uint8_t)(1u << b);
			s.addr[b] = 0x10300;
			break;
		}
		if (sf_writer_sample(&w, &s)) {
			fprintf(stderr, "sf_mkfile: %s\n", w.msg);
			sf_writer_abort(&w);
			return 1;
		}
	}
	if (npm && write_pm(&w, npm)) {
		fprintf(stderr, "sf_mkfile: %s\n", w.msg);
		sf_writer_abort(&w);
		return 1;
	}
	t.taken_unit = n + t.lost_sw;
	t.end_cycle = 1000ull * (n + 1);
	if (sf_writer_close(&w, &t)) {
		fprintf(stderr, "sf_mkfile: %s\n", w.msg);
		return 1;
	}
	return 0;
}
