/* SPDX-License-Identifier: Apache-2.0 */
/* tiprof-cosim-Nwide: `tiprof sim` linked with the Verilated RTL unit (run by `tiprof sim --rtl`,
 * docs/report.md). The recorder of sim/record/recsim.c clocks the RTL (vu.c, C-driven
 * Verilator library) instead of the C model; every unit cycle (core cycles and the driver's
 * CSR accesses alike) also clocks the C model through the harness's lockstep core
 * (harness.c), which compares CSR read data, illegal flag and irq_o and keeps the last 512
 * cycles for the waveform. A difference stops the run with the unit cycle, the access, the
 * expected and the observed outputs, and the VCD window written next to the sample file.
 * The RTL runs with its assertions (--assert): a core cycle whose ROB inputs break the ROB
 * contract stops the run with the assertion's name and the waveform.
 * Test hooks: TIPROF_COSIM_FLIP=N flips bit 0 of the RTL's CSR read data in the N-th CSR read
 * (counting from 1), to show that a difference is caught and reported; TIPROF_COSIM_ROB_BREAK=N
 * makes the N-th core cycle break the ROB contract (an entry commits in a bank without one),
 * to show that the RTL's assertions judge the core's stream. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recsim.h"
#include "cosim.h"
#include "tiprof/cmd.h"
#include "harness.h"
#include "vu.h"

struct cosim_unit {
	struct harness h;       /* the C model in lockstep, comparison, waveform ring */
	struct vu *vu;          /* the RTL */
	uint64_t reads;         /* CSR reads so far */
	uint64_t core_cycles;   /* unit cycles without a CSR access (the core ran) */
	uint64_t flip_at;       /* TIPROF_COSIM_FLIP (0: never) */
	uint64_t break_at;      /* TIPROF_COSIM_ROB_BREAK (0: never) */
	int failed;             /* a difference was found */
};

/* A failed RTL assertion ends a Verilated run in abort() after Verilator has printed the
 * assertion's name: write the waveform of the last cycles, say where it is and exit 1. The
 * handler needs the open unit, and a signal handler has no context argument: this is the one
 * open unit of the process (tiprof-cosim opens one). */
static struct cosim_unit *cosim_open_unit;

static void cosim_on_abort(int sig)
{
	struct cosim_unit *c = cosim_open_unit;

	(void)sig;
	signal(SIGABRT, SIG_DFL);
	fflush(stdout);
	if (c && harness_dump_vcd(&c->h) == 0)
		fprintf(stderr, "tiprof sim --rtl: the RTL unit stopped while clocking core cycle %" PRIu64
			": an RTL assertion failed (its name is in the line above, on stdout); "
			"waveform of the last %u cycles: %s\n", c->core_cycles, vcd_ring_count(c->h.ring),
			c->h.vcd_path);
	else
		fprintf(stderr, "tiprof sim --rtl: the RTL unit stopped: an RTL assertion failed "
			"(its name is in the line above)\n");
	_exit(1);
}

static int cosim_cycle(void *ctx, const struct tiprof_rob_if *rob, const struct tip_csr_req *csr,
		       struct tip_csr_resp *resp, char *err, size_t errlen)
{
	struct cosim_unit *c = ctx;
	struct tb_in in;
	struct tb_out dut, ref;

	memset(&in, 0, sizeof(in));
	in.rob = *rob;
	if (csr) {
		/* a driver access: the recorder's stand-in for the core running the handler
		 * (recsim.c), not a core's ROB stream, so the ROB-contract assertions skip it */
		in.csr = *csr;
		in.rob_nocheck = 1;
	} else if (++c->core_cycles == c->break_at) {
		/* the test hook: a commit in a bank whose head holds no instruction */
		unsigned b = (in.rob.head_bank + 1u) % c->h.model.cfg.w;

		in.rob.head_valid = (uint8_t)(1u << in.rob.head_bank);
		in.rob.head_commit = (uint8_t)(1u << b);
	}
	vu_cycle(c->vu, &in, &dut);
	if (csr && !csr->we && ++c->reads == c->flip_at)
		dut.resp.rdata ^= 1;
	if (harness_check(&c->h, &in, &dut, &ref) < 0) {
		c->failed = 1;
		if (harness_dump_vcd(&c->h) == 0)
			snprintf(err, errlen, "%s (after core cycle %" PRIu64 "); waveform of the "
				 "last %u cycles: %s", c->h.tb.msg, c->core_cycles,
				 vcd_ring_count(c->h.ring), c->h.vcd_path);
		else
			snprintf(err, errlen, "%s (after core cycle %" PRIu64 "); cannot write the "
				 "waveform %s", c->h.tb.msg, c->core_cycles, c->h.vcd_path);
		return -1;
	}
	if (resp)
		*resp = ref.resp;
	return 0;
}

static const struct tip_model *cosim_model(void *ctx)
{
	return &((struct cosim_unit *)ctx)->h.model;
}

const struct recsim_unit_ops cosim_unit_ops = { cosim_cycle, cosim_model };

struct cosim_unit *cosim_unit_open(unsigned w, const char *vcd_path, char *err, size_t errlen)
{
	struct tip_model_cfg cfg = { w, 64, RECSIM_DEPTH, 0 };
	struct cosim_unit *c = calloc(1, sizeof(*c));
	const char *flip = getenv("TIPROF_COSIM_FLIP");
	const char *robbreak = getenv("TIPROF_COSIM_ROB_BREAK");
	struct tb_out dut, ref;

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (harness_setup(&c->h, &cfg, "verilator") != 0) {
		snprintf(err, errlen, "%s", c->h.tb.msg);
		goto fail;
	}
	c->h.tb.log = NULL;
	snprintf(c->h.vcd_path, sizeof(c->h.vcd_path), "%s", vcd_path);
	c->vu = vu_open(&cfg, err, errlen);
	if (!c->vu)
		goto fail;
	c->flip_at = flip ? strtoull(flip, NULL, 0) : 0;
	c->break_at = robbreak ? strtoull(robbreak, NULL, 0) : 0;
	/* One reset cycle: the RTL starts in reset, the model is freshly reset. */
	cosim_open_unit = c;
	signal(SIGABRT, cosim_on_abort);
	vu_cycle(c->vu, &c->h.in, &dut);
	harness_check(&c->h, &c->h.in, &dut, &ref);
	return c;
fail:
	cosim_unit_close(c);
	return NULL;
}

uint64_t cosim_unit_checked(const struct cosim_unit *c)
{
	return c->h.tb.checks;
}

void cosim_unit_close(struct cosim_unit *c)
{
	if (!c)
		return;
	if (cosim_open_unit == c) {
		signal(SIGABRT, SIG_DFL);
		cosim_open_unit = NULL;
	}
	vu_close(c->vu);
	vcd_ring_free(c->h.ring);	/* a failure's waveform is written by cosim_cycle */
	c->h.ring = NULL;
	c->h.status = c->failed ? -1 : 1;
	harness_final(&c->h);
	free(c);
}

/* tiprof-cosim has one command, sim, reached through `tiprof sim --rtl` after tiprof has
 * parsed the command line; the option parser (sw/opt.c) asks the command table for help
 * texts, and this program has no table: `tiprof help sim` is the help. */
const struct tiprof_cmd *tiprof_cmd_find(const char *name)
{
	(void)name;
	return NULL;
}

void tiprof_print_help(FILE *f, const struct tiprof_cmd *c)
{
	(void)c;
	fprintf(f, "see tiprof help sim\n");
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "sim") == 0)
		return cmd_sim(argc - 1, argv + 1);
	fprintf(stderr, "usage: %s sim --rtl --profile FILE [OPTIONS] ELF [ARGS]\n"
		"  the RTL co-simulation of `tiprof sim` (run it as `tiprof sim --rtl`)\n",
		argc ? argv[0] : "tiprof-cosim");
	return 2;
}
