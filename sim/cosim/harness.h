/* SPDX-License-Identifier: Apache-2.0 */
/* The TIP test harness: runs a bench against the RTL (through the DPI-C, VPI or C-driven
 * Verilator wrappers) or against the C model alone, compares every cycle's outputs with the C
 * reference model, counts coverage bins, and leaves a VCD of the last cycles when a test fails.
 * Without a bench (harness_setup + harness_check) it is the lockstep checker of tiprof-cosim. */
#ifndef TIPROF_HARNESS_H
#define TIPROF_HARNESS_H

#include <stdint.h>

#include "rob_trace.h"
#include "tb.h"
#include "vcd.h"

/* Functional coverage bins, counted from the C model's state only when the event has an
 * effect (docs/verification.md "Coverage"). Printed per run with the build's W; run.sh sums
 * them over the random runs per W and requires every bin not declared unreachable in
 * tests/rtl/coverage-unreachable.txt. */
#define HARNESS_COVERAGE(X) \
	X(sample_computing)  /* a sample taken (stored or lost) while instructions commit */ \
	X(sample_stalled)    /* ... while the head stalls */ \
	X(sample_flushed)    /* ... while the ROB is empty after a flush or trap */ \
	X(sample_drained)    /* ... while the ROB is empty for lack of instructions */ \
	X(drained_completed_at_once) /* a Drained sample completed in its own cycle by a dispatch */ \
	X(drained_left_pending) /* a Drained sample stored pending (no dispatch that cycle) */ \
	X(pending_completed_dispatch) /* pending entries completed by a dispatch into the empty ROB */ \
	X(pending_completed_bank_nonzero) /* ... whose first dispatched bank is not bank 0 */ \
	X(pending_completed_head) /* pending entries completed from the head (ROB not empty, no dispatch seen) */ \
	X(exception_completes_pending) /* a trap that takes effect (ROB not empty, no commit) while \
				      * a sample pends: it completes at the trapping instruction */ \
	X(trigger_while_pending_stored) /* a trigger while a sample pends, FIFO has room: stored */ \
	X(trigger_while_pending_lost) /* ... FIFO full: the new sample is lost, the old still pends */ \
	X(pop_only_pending)  /* a legal POP while every FIFO entry pends: refused, POP_EMPTY */ \
	X(full_and_pop)      /* FIFO full, a pop, and a new sample stored in one cycle */ \
	X(lost)              /* a sample lost to a full FIFO */ \
	X(reset_while_pending) /* reset discards a pending Drained sample */ \
	X(illegal_access)    /* an illegal CSR access */ \
	X(cfg_error)         /* an illegal configuration write sets CFG_ERR (was clear) */ \
	X(insn_sample)       /* a sample of the instruction trigger (CTRL.TRIGGER) */ \
	X(insn_two)          /* ... holding two instructions (selections A and B in one cycle) */

/* Cross of every trigger that fires: sample state (4) x FIFO full at the start of the cycle
 * x a CSR access in the same cycle x a Drained sample pending at the start of the cycle. */
#define HARNESS_CROSS_N 32u

struct harness_cov {
#define HARNESS_COV_FIELD(n) unsigned long n;
	HARNESS_COVERAGE(HARNESS_COV_FIELD)
#undef HARNESS_COV_FIELD
	unsigned long cross[HARNESS_CROSS_N]; /* [state * 8 + full * 4 + csr * 2 + pending] */
};

struct harness {
	struct tb tb;                   /* what the bench sees */
	struct tb_bench bench;          /* the running bench */
	const struct tb_bench_desc *desc; /* its descriptor */
	struct tip_model model;         /* C reference model */
	struct tb_in in;                /* inputs applied in the current cycle */
	uint64_t t;                     /* harness ticks so far */
	uint64_t max_ticks;             /* a bench that runs longer has hung */
	int started;                    /* the bench has been asked for inputs */
	int status;                     /* 0 running, 1 passed, -1 failed */
	int compare;                    /* a DUT is attached: compare its outputs */
	int nocompare;                  /* env TIPROF_TB_NOCOMPARE: speed runs without the C model */
	struct harness_cov cov;         /* coverage bins */
	vcd_ring *ring;                 /* last cycles, dumped on failure */
	int sig_first;                  /* handle of the first ring signal */
	char vcd_path[512];             /* where the failure VCD goes */
	const char *sim;                /* "verilator", "icarus" or "model" */
	struct rob_trace_writer rec;    /* ROB trace of the run (env TIPROF_TB_RECORD) */
	int recording;                  /* rec is open */
};

/* Set up h to run the bench called bench_name on a unit of configuration cfg. cycles is the
 * bench's length hint, outdir where logs and VCDs go. Returns 0, or -1 with a message in
 * h->tb.msg. */
int harness_init(struct harness *h, const struct tip_model_cfg *cfg, const char *bench_name,
		 uint64_t seed, uint64_t cycles, const char *outdir, const char *sim);

/* One clock edge. dut holds the DUT's outputs for the inputs of the cycle that ends now (NULL
 * when no DUT is attached). next receives the inputs for the coming cycle. Returns 0 to go on,
 * 1 when the bench has finished, -1 on a failure. */
int harness_tick(struct harness *h, const struct tb_out *dut, struct tb_in *next);

/* The lockstep core without a bench (harness.c): set up the C model of cfg and the waveform
 * ring; h->vcd_path and h->tb.log (NULL: print nothing) may be set afterwards. Returns 0, or
 * -1 with a message in h->tb.msg. */
int harness_setup(struct harness *h, const struct tip_model_cfg *cfg, const char *sim);

/* One cycle in lockstep: the C model takes the inputs in (reset or a cycle), ref receives its
 * outputs for them, the cycle goes into the waveform ring, and dut (NULL: none) is compared
 * with ref. Returns 0, or -1 (status failed) with the cycle, inputs, expected and observed
 * outputs in h->tb.msg. */
int harness_check(struct harness *h, const struct tb_in *in, const struct tb_out *dut,
		  struct tb_out *ref);

/* Write the waveform ring (the last cycles) to h->vcd_path. Returns 0 or -1. */
int harness_dump_vcd(struct harness *h);

/* Print the summary (and the coverage bins), write the VCD on failure, release everything.
 * Returns the process exit status: 0 passed, 1 failed. */
int harness_final(struct harness *h);

#endif /* TIPROF_HARNESS_H */
