/* SPDX-License-Identifier: Apache-2.0 */
/* Replay bench: drives the unit with a recorded ROB trace (env TIPROF_TB_TRACE, format
 * docs/rob-trace.md) — from the simulator, a random run, or another core's RTL simulation —
 * while sampling in TIP's random mode and draining samples like a driver; the harness compares
 * the RTL with the C model every cycle. A trace may break the ROB contract (a random run's phases
 * of arbitrary bits), so the RTL's ROB-contract assertions are off unless TIPROF_TB_ROB_CONTRACT=1
 * (for traces that must keep it: a core's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_sva.h"
#include "rob_trace.h"
#include "tb.h"

struct replay_state {
	struct rob_trace_reader r;  /* the trace */
	struct tb_drain drain;      /* the driver-like drain */
};

static int replay_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		       struct tb_in *in)
{
	struct replay_state *s = state;
	int rc;

	tb_drain_result(&s->drain, prev);
	if (t == 0) {
		in->rst = 1;
		return 0;
	}
	rc = rob_trace_reader_next(&s->r, &in->rob);
	if (rc < 0)
		return tb_fail(tb, "replay: %s", rob_trace_strerror(rc));
	if (rc == 0) {
		fprintf(tb->log, "replay: %llu trace cycles, %lu samples drained\n",
			(unsigned long long)t - 1, s->drain.samples);
		if (!s->drain.samples)
			return tb_fail(tb, "replay: no sample was taken");
		tb_pass(tb);
		return 1;
	}
	if (t == 1) {
		tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, 13, 3);
	} else if (t == 2) {
		tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf3u | 3u << 8, 3); /* RANDOM_INTERVAL, k=3 */
	} else {
		tb_drain_access(&s->drain, &in->csr);
	}
	return 0;
}

static int replay_create(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
			 uint64_t seed, uint64_t cycles)
{
	const char *path = getenv("TIPROF_TB_TRACE");
	struct replay_state *s;
	int rc;

	(void)seed;
	(void)cycles;
	tb_rob_contract_off = !(getenv("TIPROF_TB_ROB_CONTRACT") &&
				!strcmp(getenv("TIPROF_TB_ROB_CONTRACT"), "1"));
	if (!path)
		return tb_fail(tb, "replay: set TIPROF_TB_TRACE to a ROB trace file");
	s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	rc = rob_trace_reader_open(&s->r, path);
	if (rc < 0) {
		free(s);
		return tb_fail(tb, "replay: %s: %s", path, rob_trace_strerror(rc));
	}
	if (s->r.st.hdr.w != cfg->w || s->r.st.hdr.xlen != cfg->xlen) {
		tb_fail(tb, "replay: %s was recorded for W=%u XLEN=%u, this unit is W=%u XLEN=%u",
			path, s->r.st.hdr.w, s->r.st.hdr.xlen, cfg->w, cfg->xlen);
		rob_trace_reader_close(&s->r);
		free(s);
		return -1;
	}
	b->state = s;
	b->step = replay_step;
	return 0;
}

static void replay_destroy(struct tb_bench *b)
{
	struct replay_state *s = b->state;

	rob_trace_reader_close(&s->r);
	free(s);
	b->state = NULL;
}

const struct tb_bench_desc tb_bench_replay = {
	"replay", "a recorded ROB trace (TIPROF_TB_TRACE) with TIP random sampling",
	replay_create, replay_destroy,
};
