/* SPDX-License-Identifier: Apache-2.0 */
/* Test benches of the TIP unit as C generators: a bench produces the unit's inputs one cycle at
 * a time and checks what the unit answered. The same bench drives the C reference model alone
 * (tests/rtl/run_model.c), and the RTL under Verilator (DPI-C) or Icarus (VPI), where every
 * cycle's outputs are also compared with the C model (sim/cosim/harness.c). */
#ifndef TIPROF_TB_H
#define TIPROF_TB_H

#include <stdint.h>
#include <stdio.h>

#include "tip_model.h"
#include "tiprof/tiprof_regs.h"

/* The unit's inputs for one cycle. */
struct tb_in {
	int rst;                    /* hold the unit in reset this cycle (rst_ni low) */
	struct tiprof_rob_if rob;   /* ROB interface */
	struct tip_csr_req csr;     /* CSR port request */
	int rob_nocheck;            /* these ROB inputs are not a core's (a bench's arbitrary
				     * bits, the recorder's stand-in handler cycles): the RTL's
				     * ROB-contract assertions are off for them (C-driven build) */
};

/* The unit's outputs in that cycle (sampled just before the clock edge). */
struct tb_out {
	struct tip_csr_resp resp;   /* CSR port response */
	int irq;                    /* irq_o */
};

struct tb;

/* One bench: a generator of inputs and a checker of outputs. */
struct tb_bench {
	const char *name;                   /* name printed in logs */
	struct tip_model_cfg cfg;           /* the unit configuration it needs */
	void *state;                        /* bench-private state */
	/* Produce the inputs of cycle t (t counts from 0 at the first call). prev is the unit's
	 * output for cycle t-1's inputs (NULL when t == 0). Return 0 to go on, 1 when the bench
	 * is finished (in is then ignored), or -1 on a failed check after describing it with
	 * tb_fail(). */
	int (*step)(struct tb *tb, void *state, uint64_t t, const struct tb_out *prev,
		    struct tb_in *in);
};

/* What a bench may call while running. */
struct tb {
	const struct tb_bench *bench; /* the running bench */
	uint64_t seed;                /* seed (benches that randomise use it) */
	FILE *log;                    /* log stream */
	char msg[512];                /* first failure message */
	int failed;                   /* a failure was recorded */
	unsigned long checks;         /* checks passed (for the summary) */
};

/* Record a failure (first one wins) with a printf-style message. Returns -1. */
int tb_fail(struct tb *tb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Count a passed check. */
static inline void tb_pass(struct tb *tb) { tb->checks++; }

/* Fill req with a CSR access. */
static inline void tb_csr(struct tip_csr_req *req, int we, uint16_t addr, uint64_t wdata,
			  uint8_t priv)
{
	req->req = 1;
	req->we = we;
	req->addr = addr;
	req->wdata = wdata;
	req->priv = priv;
}

/* A driver-like drain of the unit, one CSR access per cycle: read TIP_S_INFO; when it shows a
 * complete sample, pop it in the next cycle. */
struct tb_drain {
	int reading;            /* an S_INFO read is outstanding */
	int popping;            /* pop the sample just seen */
	unsigned long samples;  /* samples drained */
};

/* Account for the answer to last cycle's read (prev may be NULL at t == 0). */
static inline void tb_drain_result(struct tb_drain *d, const struct tb_out *prev)
{
	if (d->reading && prev && prev->resp.rdata) {
		d->popping = 1;
		d->samples++;
	}
	d->reading = 0;
}

/* Put this cycle's drain access into req. */
static inline void tb_drain_access(struct tb_drain *d, struct tip_csr_req *req)
{
	if (d->popping) {
		tb_csr(req, 1, TIPROF_TIP_POP, 0, 3);
		d->popping = 0;
	} else {
		tb_csr(req, 0, TIPROF_TIP_S_INFO, 0, 3);
		d->reading = 1;
	}
}

/* A named bench: create() fills b for the unit configuration cfg (or returns -1 if the bench
 * does not support it, with a reason in tb->msg); destroy() frees b->state. */
struct tb_bench_desc {
	const char *name;     /* selected with +bench=NAME */
	const char *purpose;  /* one line for listings */
	int (*create)(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
		      uint64_t seed, uint64_t cycles);
	void (*destroy)(struct tb_bench *b);
};

/* All benches, NULL-terminated (tests/rtl/benches.c). */
extern const struct tb_bench_desc *const tb_benches[];

/* The bench called name, or NULL. */
const struct tb_bench_desc *tb_bench_find(const char *name);

#endif /* TIPROF_TB_H */
