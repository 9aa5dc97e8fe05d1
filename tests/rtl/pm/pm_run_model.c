/* SPDX-License-Identifier: Apache-2.0 */
/* The ProfileMe benches on the C model alone: the harness's expected outputs are fed back as the
 * "RTL" outputs, so this checks the benches themselves (their scripted expectations on the model,
 * the random core's contract) quickly and without a simulator.
 * Usage: pm_run_model BENCH F XLEN DEPTH TAGS STAGE SEED CYCLES */
#include <stdio.h>
#include <stdlib.h>

#include "pm_harness.h"

/* The harness keeps its expectation private; the loopback peeks through this hook. */
void pm_harness_expected(const struct pm_harness *h, struct pm_obs *o);

int main(int argc, char **argv)
{
	struct pm_model_cfg cfg;
	struct pm_harness *h;
	struct pm_drive d;
	struct pm_obs o = { 0 };
	int first = 1;

	if (argc != 9) {
		fprintf(stderr, "usage: %s BENCH F XLEN DEPTH TAGS STAGE SEED CYCLES\n", argv[0]);
		return 2;
	}
	cfg.f = (unsigned)atoi(argv[2]);
	cfg.xlen = (unsigned)atoi(argv[3]);
	cfg.fifo_depth = (unsigned)atoi(argv[4]);
	cfg.tags = (unsigned)atoi(argv[5]);
	if (pm_harness_init(&h, &cfg, atoi(argv[6]), argv[1], strtoull(argv[7], NULL, 0),
			    strtoull(argv[8], NULL, 0), ".", "model"))
		return 1;
	for (;;) {
		if (!first)
			pm_harness_expected(h, &o);
		first = 0;
		if (pm_harness_tick(h, &o, &d))
			break;
	}
	return pm_harness_final(h);
}
