/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_run.h - the one simulation loop: the out-of-order core model (sim/core) is clocked until
 * the program ends, and every cycle's output (the ROB interface, the retired instructions) goes
 * to the consumers attached to the run, in the order they were attached. The Oracle, the TIP
 * unit's model or the Verilated RTL recording samples (sim/record), the policies of `tiprof
 * accuracy`, the ROB trace writer - and next the ProfileMe unit - are consumers; `tiprof sim`,
 * `tiprof accuracy` and tiprof-cosim all run this loop. The consumers for the Oracle, the ROB
 * trace and the sample recorder are here; a command adds its own with sim_run_attach.
 */
#ifndef TIPROF_SIM_RUN_H
#define TIPROF_SIM_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

#include "rob_trace.h"

struct oracle;
struct recsim;

/* Most consumers one run takes. */
#define SIM_RUN_MAX_CONSUMERS 8

/* Something that sees every cycle of a run. */
struct sim_consumer {
	/* Cycle number cyc (from 0) of the core with its outputs o. Returns 0, or -1 with a
	 * one-line reason in err (the run stops there). */
	int (*cycle)(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
		     size_t errlen);
	/* After the program's last cycle (NULL: nothing to do). Returns 0 or -1 with err set. */
	int (*finish)(void *ctx, char *err, size_t errlen);
	void *ctx;	/* passed to both */
};

/* Sampled runs only (sim_run_sampled): called for each cycle simulated in detail outside the
 * measured windows (detailed warm-up, draining before functional warming), whose retired
 * records are in program order with those of the measured cycles. Same contract as cycle. */
typedef int (*sim_skip_fn)(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
			   size_t errlen);

/* A run: the core and what is attached to it. */
struct sim_run {
	struct core *core;		/* the timing model (not owned) */
	const char *prog;		/* the program's name, for error messages */
	struct sim_consumer consumer[SIM_RUN_MAX_CONSUMERS];
	unsigned nconsumers;		/* attached so far */
	uint64_t cycles;		/* core cycles run */
	sim_skip_fn skip;		/* sampled runs: unmeasured cycles go here (NULL: nowhere) */
	void *skip_ctx;			/* its context */
};

/* A run of core (which runs prog) with no consumer yet. */
void sim_run_init(struct sim_run *r, struct core *core, const char *prog);

/* Attach c after those already attached. Returns 0, or -1 when the run is full. */
int sim_run_attach(struct sim_run *r, const struct sim_consumer *c);

/* Clock the core to the program's end, every consumer every cycle, then finish every
 * consumer in order. Returns 0, or -1 with a one-line reason in err (the core's error names
 * the program). */
int sim_run_loop(struct sim_run *r, char *err, size_t errlen);

/* Periodic sampled simulation (SMARTS-style; docs/accuracy.md "Sampled simulation"):
 * repeated to the end, U instructions warmed functionally (core_warm, after draining the
 * pipeline), D instructions simulated in detail but not measured, then a measured window
 * that ends with the first cycle in which at least W instructions have left the ROB since it
 * began (so W .. W + width - 1 of them, the last window possibly fewer when the program
 * ends). Only measured cycles go to the consumers' cycle(); the other detailed cycles go to
 * the run's skip hook. U = 0 means no warming and no draining (D unmeasured, W measured, ...);
 * U = D = 0 measures every cycle, exactly as sim_run_loop. */
struct sim_windows {
	uint64_t measure;		/* W >= 1 */
	uint64_t detail;		/* D */
	uint64_t warm;			/* U */
	int cold;			/* skip the U instructions without warming (core_skip) */
};

/* What a sampled run did. Instructions are ROB exits (commits and traps). */
struct sim_sampled_stats {
	uint64_t windows;		/* measured windows begun */
	uint64_t measured_cycles, measured_insns;
	uint64_t detailed_cycles, detailed_insns; /* every detailed cycle (measured or not) */
	uint64_t warmed_insns;		/* run functionally */
	double detailed_s, warm_s;	/* wall time in the detailed model and in warming */
	struct core_stats measured;	/* core counters accumulated over the measured windows */
};

/* Run r as sim_run_loop does, but sampled by w; *st gets the accounting. Returns 0, or -1
 * with a one-line reason in err. */
int sim_run_sampled(struct sim_run *r, const struct sim_windows *w,
		    struct sim_sampled_stats *st, char *err, size_t errlen);

/* The Oracle (sim/oracle) as a consumer: every cycle attributed, every retired instruction
 * counted; at the end its books are closed and checked (oracle_check). */
struct sim_consumer sim_consumer_oracle(struct oracle *orc);

/* A ROB trace being written (sim/trace) and the name of its file, for errors. */
struct sim_trace_sink {
	struct rob_trace_writer tw;	/* the writer */
	const char *path;		/* its file */
	int open;			/* tw is open */
};

/* Create the ROB trace path for a core of commit width w (XLEN 64, 7-bit ROB index). Returns
 * 0, or -1 with a one-line reason in err. */
int sim_trace_open(struct sim_trace_sink *s, const char *path, unsigned w, char *err,
		   size_t errlen);

/* Close s if open. keep = 0 (a failed run) removes the file: no partial trace is left.
 * Returns 0, or -1 with err set when the trace could not be written. */
int sim_trace_close(struct sim_trace_sink *s, int keep, char *err, size_t errlen);

/* The ROB trace writer as a consumer (s stays the caller's, and so does closing it). */
struct sim_consumer sim_consumer_rob_trace(struct sim_trace_sink *s);

/* The sample recorder (sim/record: the unit, the driver's hardware layer, the sample file)
 * as a consumer; closing it stays with its owner (recsim_close gives the accounting). */
struct sim_consumer sim_consumer_recsim(struct recsim *rec);

#endif /* TIPROF_SIM_RUN_H */
