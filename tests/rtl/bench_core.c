/* SPDX-License-Identifier: Apache-2.0 */
/* Co-simulation bench: the RISC-V ISS and the out-of-order timing model (sim/core) drive the
 * unit's ROB interface every cycle, live — under Verilator the RTL unit, compared with the C
 * model every cycle by the harness. The unit samples in TIP's random-interval mode and is
 * drained through the CSR port like a driver would.
 * Environment: TIPROF_TB_ELF (static riscv64 program), TIPROF_TB_ARGS (its arguments, space
 * separated), TIPROF_TB_PERIOD (default 64). The core's width is the unit's W (1, 2 or 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "tb.h"

#define MAX_ARGS 16

struct core_state {
	struct iss *iss;             /* the program */
	struct core *core;           /* the timing model */
	char *argbuf;                /* TIPROF_TB_ARGS copy, split in place */
	char *argv[MAX_ARGS + 2];    /* ELF and arguments */
	uint32_t period;             /* sampling period */
	int last;                    /* the core simulated its last cycle */
	struct tb_drain drain;       /* the driver-like drain */
	uint64_t cycles;             /* core cycles */
};

static int core_step(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		     struct tb_in *in)
{
	struct core_state *s = state;
	struct core_cycle_out o;
	int r;

	tb_drain_result(&s->drain, prev);
	if (t == 0) {
		in->rst = 1;
		return 0;
	}
	if (s->last) {
		fprintf(tb->log, "core: %s: %llu core cycles, exit code %d, %lu samples drained\n",
			s->argv[0], (unsigned long long)s->cycles, iss_exit_code(s->iss), s->drain.samples);
		if (!s->drain.samples)
			return tb_fail(tb, "core: no sample was taken");
		tb_pass(tb);
		return 1;
	}
	r = core_cycle(s->core, &o);
	if (r < 0)
		return tb_fail(tb, "core: %s", core_error(s->core));
	s->cycles++;
	s->last = r == 0;
	in->rob = o.rob;
	if (t == 1) {
		tb_csr(&in->csr, 1, TIPROF_TIP_PERIOD, s->period, 3);
	} else if (t == 2) {
		unsigned k = 0;

		while (k < 8 && (2u << k) <= s->period)
			k++;
		tb_csr(&in->csr, 1, TIPROF_TIP_CTRL, 0xf1u | TIPROF_MODE_RANDOM_INTERVAL << 1 | k << 8, 3);
	} else {
		tb_drain_access(&s->drain, &in->csr);
	}
	return 0;
}

static void core_destroy_state(struct tb_bench *b)
{
	struct core_state *s = b->state;

	if (!s)
		return;
	core_destroy(s->core);
	if (s->iss)
		iss_destroy(s->iss);
	free(s->argbuf);
	free(s);
	b->state = NULL;
}

static int core_create_bench(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
			     uint64_t seed, uint64_t cycles)
{
	static char *const envp[] = { NULL };
	const char *elf = getenv("TIPROF_TB_ELF"), *args = getenv("TIPROF_TB_ARGS");
	const char *per = getenv("TIPROF_TB_PERIOD");
	struct core_state *s;
	struct core_cfg ccfg;
	struct iss_config icfg;
	char err[512], preset[8];
	int n = 1;

	(void)seed;
	(void)cycles;
	if (!elf)
		return tb_fail(tb, "core: set TIPROF_TB_ELF to a static riscv64 program");
	if (cfg->w > 4)
		return tb_fail(tb, "core: the core model has 1-, 2- and 4-wide configurations, not W=%u",
			       cfg->w);
	snprintf(preset, sizeof(preset), "%uwide", cfg->w);
	if (core_cfg_preset(&ccfg, preset))
		return tb_fail(tb, "core: no core configuration %s", preset);
	s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	b->state = s;
	s->period = per ? (uint32_t)strtoul(per, NULL, 0) : 64;
	if (!s->period)
		s->period = 64;
	s->argv[0] = (char *)elf;
	if (args && (s->argbuf = strdup(args)) != NULL)
		for (char *tok = strtok(s->argbuf, " "); tok && n <= MAX_ARGS; tok = strtok(NULL, " "))
			s->argv[n++] = tok;
	s->argv[n] = NULL;
	memset(&icfg, 0, sizeof(icfg));
	s->iss = iss_create(elf, s->argv, envp, &icfg, err, sizeof(err));
	if (!s->iss) {
		core_destroy_state(b);
		return tb_fail(tb, "core: %s", err);
	}
	s->core = core_create(&ccfg, s->iss, err, sizeof(err));
	if (!s->core) {
		core_destroy_state(b);
		return tb_fail(tb, "core: %s", err);
	}
	b->step = core_step;
	return 0;
}

const struct tb_bench_desc tb_bench_core = {
	"core", "a RISC-V program on the out-of-order core model drives the unit live",
	core_create_bench, core_destroy_state,
};
