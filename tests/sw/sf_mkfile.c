/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sf_mkfile.c - test helper: write a valid tiprof sample file with the library's
 * writer (every commit state, deterministic contents), for the `tiprof dump` tests.
 *
 * Usage: sf_mkfile OUT [W [XLEN [SAMPLES]]]    (defaults 4 64 20)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_file.h"

int main(int argc, char **argv)
{
	struct sf_header h;
	struct sf_writer w;
	struct sf_trailer t = { 0, 5, 1, 0, 0 };
	unsigned n;

	if (argc < 2) {
		fprintf(stderr, "usage: sf_mkfile OUT [W [XLEN [SAMPLES]]]\n");
		return 2;
	}
	sf_header_init(&h);
	h.w = (uint8_t)(argc > 2 ? atoi(argv[2]) : 4);
	h.xlen = (uint8_t)(argc > 3 ? atoi(argv[3]) : 64);
	n = argc > 4 ? (unsigned)atoi(argv[4]) : 20;
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
	t.taken_unit = n + t.lost_sw;
	t.end_cycle = 1000ull * (n + 1);
	if (sf_writer_close(&w, &t)) {
		fprintf(stderr, "sf_mkfile: %s\n", w.msg);
		return 1;
	}
	return 0;
}
