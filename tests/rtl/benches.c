/* SPDX-License-Identifier: Apache-2.0 */
/* The registry of TIP benches: every bench the harness can run by name. */
#include <stddef.h>

#include "bench_sva.h"
#include "tb.h"

int tb_rob_contract_off;

extern const struct tb_bench_desc tb_bench_random, tb_bench_fig4a_ilp, tb_bench_fig4b_stall,
	tb_bench_fig4c_flush, tb_bench_fig4d_drain, tb_bench_exception, tb_bench_serializing, tb_bench_demo,
	tb_bench_csr_rules, tb_bench_fifo_full_pop, tb_bench_reset_drained, tb_bench_random_stats, tb_bench_replay,
	tb_bench_rob_violation, tb_bench_insn;
#ifndef TIPROF_TB_NO_CORE
extern const struct tb_bench_desc tb_bench_core; /* not in the Icarus build (no PIC core libraries) */
#endif

const struct tb_bench_desc *const tb_benches[] = {
	&tb_bench_random,
	&tb_bench_fig4a_ilp,
	&tb_bench_fig4b_stall,
	&tb_bench_fig4c_flush,
	&tb_bench_fig4d_drain,
	&tb_bench_exception,
	&tb_bench_serializing,
	&tb_bench_demo,
	&tb_bench_csr_rules,
	&tb_bench_fifo_full_pop,
	&tb_bench_reset_drained,
	&tb_bench_random_stats,
	&tb_bench_replay,
	&tb_bench_rob_violation,
	&tb_bench_insn,
#ifndef TIPROF_TB_NO_CORE
	&tb_bench_core,
#endif
	NULL,
};
