/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_core.c - the "core" bench of the ProfileMe harness (#included by pm_harness.c unless
 * PM_TB_NO_CORE): a RISC-V program on the out-of-order core model (sim/core) drives the unit's
 * ProfileMe ports live - its fetch packets, wrong path included, and the stage events of the
 * instructions it tagged, as docs/core.md "ProfileMe" describes - and takes the tags back every
 * cycle. The RTL is compared with the C model every cycle as in every bench, and the contract
 * assertions stay on throughout: the core keeps the interface contract, so an assertion that
 * fires is a bug in the core's interface or in the unit. The unit is programmed and drained
 * through the CSR port as a driver would (configuration, then PM_CTRL.EN; each record's 12 words
 * read, then PM_POP).
 * Environment: TIPROF_TB_ELF (static riscv64 program), TIPROF_TB_ARGS (its arguments, space
 * separated), TIPROF_TB_PERIOD (fetched instructions per selection, default 64), TIPROF_TB_PAIR
 * (pair window, default 32; 0: single). The core is 4-wide (fetch width 8) for F = 8 and
 * 2-wide (fetch width 4) for F = 4.
 */
#include "core.h"

#define CORE_MAX_ARGS 16

struct pm_core_bench {
	struct iss *iss;
	struct core *core;
	char *argbuf;
	char *argv[CORE_MAX_ARGS + 2];
	struct pm_csr_req prog[4];	/* programming writes */
	unsigned nprog, iprog;
	int word;			/* drain: next record word, -1 idle */
	int last;			/* the core simulated its last cycle */
	uint64_t cycles, records;
};

static void core_bench_free(struct pm_harness *h)
{
	struct pm_core_bench *b = h->core;

	if (!b)
		return;
	core_destroy(b->core);
	if (b->iss)
		iss_destroy(b->iss);
	free(b->argbuf);
	free(b);
	h->core = NULL;
}

/* Set up the program and the core. 0, or -1 with the harness failed. */
static int core_bench_init(struct pm_harness *h)
{
	static char *const envp[] = { NULL };
	const char *elf = getenv("TIPROF_TB_ELF"), *args = getenv("TIPROF_TB_ARGS");
	const char *per = getenv("TIPROF_TB_PERIOD"), *pair = getenv("TIPROF_TB_PAIR");
	struct pm_core_bench *b;
	struct core_cfg ccfg;
	struct iss_config icfg;
	char err[512];
	uint32_t period = per ? (uint32_t)strtoul(per, NULL, 0) : 64;
	unsigned window = pair ? (unsigned)strtoul(pair, NULL, 0) : 32, k = 0;
	int n = 1;

	if (!elf) {
		fail(h, "core: set TIPROF_TB_ELF to a static riscv64 program");
		return -1;
	}
	if (core_cfg_preset(&ccfg, h->cfg.f == 8 ? "4wide" : "2wide") ||
	    (h->cfg.f != 8 && h->cfg.f != 4)) {
		fail(h, "core: the core model fetches 8 (4wide) or 4 (2wide, 1wide) instructions per "
		     "cycle, not F=%u", h->cfg.f);
		return -1;
	}
	if (period < h->cfg.f || window > 256 || (window && h->cfg.tags < 2)) {
		fail(h, "core: period %u (at least F) / pair window %u (0..256, needs two tag ids)",
		     period, window);
		return -1;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		fail(h, "core: out of memory");
		return -1;
	}
	h->core = b;
	b->word = -1;
	b->argv[0] = (char *)elf;
	if (args && (b->argbuf = strdup(args)) != NULL)
		for (char *tok = strtok(b->argbuf, " "); tok && n <= CORE_MAX_ARGS;
		     tok = strtok(NULL, " "))
			b->argv[n++] = tok;
	b->argv[n] = NULL;
	memset(&icfg, 0, sizeof(icfg));
	b->iss = iss_create(elf, b->argv, envp, &icfg, err, sizeof(err));
	b->core = b->iss ? core_create(&ccfg, b->iss, err, sizeof(err)) : NULL;
	if (!b->core || core_pm_enable(b->core, err, sizeof(err))) {
		fail(h, "core: %s", err);
		return -1;
	}
	while (k < 31 && (2ull << k) <= period)
		k++;
	b->prog[b->nprog++] = (struct pm_csr_req){ 1, 1, TIPROF_PM_PERIOD, period, 3 };
	if (window)
		b->prog[b->nprog++] = (struct pm_csr_req){ 1, 1, TIPROF_PM_PAIR, window, 3 };
	b->prog[b->nprog++] = (struct pm_csr_req){
		1, 1, TIPROF_PM_CTRL,
		TIPROF_PM_CTRL_EN_MASK | (1u << (TIPROF_PM_CTRL_PRIV_SHIFT + TIPROF_PRIV_U)) |
		TIPROF_MODE_RANDOM_INTERVAL << TIPROF_PM_CTRL_MODE_SHIFT |
		k << TIPROF_PM_CTRL_RAND_BITS_SHIFT |
		(window ? TIPROF_PM_CTRL_PAIR_MASK : 0u), 3 };
	return 0;
}

/* This cycle's inputs from the core (fetch packet and events into x and ev) and the CSR access.
 * 0 to go on, 1 when the program has ended (the bench is done), -1 on a failure. */
static int core_bench_cycle(struct pm_harness *h, struct tiprof_pm_if *x, struct tiprof_pm_if *ev,
			    struct pm_csr_req *c)
{
	struct pm_core_bench *b = h->core;
	struct core_cycle_out o;
	int r;

	if (b->last) {
		fprintf(h->log, "pm-harness: core: %s: %llu core cycles, exit code %d, %llu records "
			"drained\n", b->argv[0], (unsigned long long)b->cycles,
			iss_exit_code(b->iss), (unsigned long long)b->records);
		if (!b->records)
			fail(h, "core: no record was drained");
		return 1;
	}
	r = core_cycle(b->core, &o);
	if (r < 0) {
		fail(h, "core: %s", core_error(b->core));
		return -1;
	}
	b->cycles++;
	b->last = r == 0;
	*x = o.pm;
	ev_copy(ev, &o.pm);
	if (b->iprog < b->nprog) {
		*c = b->prog[b->iprog++];
	} else if (b->word >= 0) {	/* a record's words, then its pop */
		if (b->word < (int)TIPROF_PM_REC_WORDS) {
			*c = (struct pm_csr_req){ 1, 0, (uint16_t)(TIPROF_PM_R + b->word), 0, 3 };
			b->word++;
		} else {
			*c = (struct pm_csr_req){ 1, 1, TIPROF_PM_POP, 1, 3 };
			b->word = -1;
			b->records++;
		}
	} else if (pm_model_fifo_count(&h->m)) {
		*c = (struct pm_csr_req){ 1, 0, TIPROF_PM_R, 0, 3 };
		b->word = 1;
	}
	return 0;
}

/* The unit's tags for this cycle's packet go back to the core. */
static void core_bench_tags(struct pm_harness *h, const struct pm_model_out *o)
{
	core_pm_tag(h->core->core, o->tag);
}
