/* SPDX-License-Identifier: Apache-2.0 */
/* The TIP test harness, bench side: finds a bench by name, asks it for each cycle's inputs and
 * checks the DUT through the lockstep core of harness.c. */
#include "harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct tb_bench_desc *tb_bench_find(const char *name)
{
	for (const struct tb_bench_desc *const *d = tb_benches; *d; d++)
		if (strcmp((*d)->name, name) == 0)
			return *d;
	return NULL;
}

int harness_init(struct harness *h, const struct tip_model_cfg *cfg, const char *bench_name,
		 uint64_t seed, uint64_t cycles, const char *outdir, const char *sim)
{
	if (harness_setup(h, cfg, sim) != 0)
		return -1;
	h->tb.seed = seed;
	h->desc = tb_bench_find(bench_name);
	if (!h->desc) {
		tb_fail(&h->tb, "no bench called '%s'", bench_name);
		return -1;
	}
	h->tb.bench = &h->bench;
	if (h->desc->create(&h->tb, &h->bench, cfg, seed, cycles) != 0) {
		if (!h->tb.failed)
			tb_fail(&h->tb, "bench %s does not support this configuration", bench_name);
		return -1;
	}
	h->bench.name = h->desc->name;
	h->max_ticks = 4 * cycles + 1000000;
	snprintf(h->vcd_path, sizeof(h->vcd_path), "%s/%s-%s-w%u-x%u-d%u-seed%" PRIu64 ".vcd",
		 outdir, sim, bench_name, cfg->w, cfg->xlen, cfg->fifo_depth, seed);
	h->nocompare = getenv("TIPROF_TB_NOCOMPARE") != NULL;
	if (getenv("TIPROF_TB_RECORD")) {
		struct rob_trace_hdr th = { cfg->w, cfg->xlen, 7 };
		int rc = rob_trace_writer_open(&h->rec, getenv("TIPROF_TB_RECORD"), &th);

		if (rc < 0) {
			tb_fail(&h->tb, "cannot record the ROB trace %s: %s",
				getenv("TIPROF_TB_RECORD"), rob_trace_strerror(rc));
			return -1;
		}
		h->recording = 1;
	}
	fprintf(h->tb.log, "tip-harness: sim=%s bench=%s W=%u XLEN=%u depth=%u seed=%" PRIu64 "\n",
		sim, bench_name, cfg->w, cfg->xlen, cfg->fifo_depth, seed);
	return 0;
}

int harness_tick(struct harness *h, const struct tb_out *dut, struct tb_in *next)
{
	struct tb_out ref;
	uint64_t mask = h->model.cfg.xlen == 64 ? ~0ull : 0xffffffffull;
	int rc;

	if (h->status)
		return h->status;
	if (h->nocompare) {
		/* Speed measurements only: the DUT alone (or the C model alone when no DUT is
		 * attached), no reference, no checks, no coverage, no waveform. */
		if (!dut) {
			memset(&ref, 0, sizeof(ref));
			ref.irq = tip_model_irq(&h->model);
			if (h->in.rst)
				tip_model_reset(&h->model);
			else
				tip_model_cycle(&h->model, &h->in.rob,
						h->in.csr.req ? &h->in.csr : NULL, &ref.resp);
			dut = &ref;
		}
		h->t++;
	} else {
		if (harness_check(h, &h->in, dut, &ref) < 0)
			return -1;
		if (!dut)
			dut = &ref;
		if (h->t > h->max_ticks) {
			tb_fail(&h->tb, "bench %s did not finish within %" PRIu64 " cycles",
				h->bench.name, h->max_ticks);
			h->status = -1;
			return -1;
		}
	}
	/* The bench: next inputs. */
	memset(next, 0, sizeof(*next));
	rc = h->bench.step(&h->tb, h->bench.state, h->t - 1, h->started ? dut : NULL, next);
	h->started = 1;
	if (rc < 0 || h->tb.failed) {
		if (!h->tb.failed)
			tb_fail(&h->tb, "bench %s failed without a message", h->bench.name);
		h->status = -1;
		return -1;
	}
	if (rc > 0) {
		h->status = 1;
		return 1;
	}
	/* Drive the DUT with addresses it can represent. */
	for (unsigned b = 0; b < TIPROF_MAX_BANKS; b++) {
		next->rob.head_pc[b] &= mask;
		next->rob.disp_pc[b] &= mask;
	}
	next->csr.wdata &= mask;
	h->in = *next;
	return 0;
}
