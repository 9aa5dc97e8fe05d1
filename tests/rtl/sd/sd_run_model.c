/* SPDX-License-Identifier: Apache-2.0 */
/* The selective-dispatch benches on the C model alone: the model's outputs are fed back as the
 * "RTL" outputs, so this checks the benches themselves (the directed scenes' hand-worked
 * expectations on the model, the random bench's invariants and coverage) without a simulator.
 * Usage: sd_run_model BENCH W PCW CKPT ENTRIES POPLAT SEED CYCLES */
#include <stdio.h>
#include <stdlib.h>

#include "sd_harness.h"

int main(int argc, char **argv)
{
	struct sd_cfg c;
	struct sd_harness *h;
	uint32_t obs[3][SD_WIRE_WORDS] = { { 0 } }, in[3][SD_WIRE_WORDS];
	int rst, first = 1;

	if (argc != 9) {
		fprintf(stderr, "usage: %s BENCH W PCW CKPT ENTRIES POPLAT SEED CYCLES\n", argv[0]);
		return 2;
	}
	c.w = (unsigned)atoi(argv[2]);
	c.pcw = (unsigned)atoi(argv[3]);
	c.ckpt = (unsigned)atoi(argv[4]);
	c.entries = (unsigned)atoi(argv[5]);
	c.poplat = (unsigned)atoi(argv[6]);
	c.lockw = 4;
	if (sd_harness_init(&h, &c, argv[1], strtoull(argv[7], NULL, 0), strtoull(argv[8], NULL, 0),
			    ".", "model"))
		return 1;
	for (;;) {
		if (!first)
			sd_harness_expected(h, obs);
		first = 0;
		if (sd_harness_tick(h, obs, &rst, in))
			break;
	}
	return sd_harness_final(h);
}
