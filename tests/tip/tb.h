/* Test benches of the TIP unit as C generators: a bench produces the unit's inputs one cycle at
 * a time and checks what the unit answered. The same bench drives the C reference model alone
 * (tests/tip/run_model.c), and the RTL under Verilator (DPI-C) or Icarus (VPI), where every
 * cycle's outputs are also compared with the C model (tests/tip/harness.c). */
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

/* A named bench: create() fills b for the unit configuration cfg (or returns -1 if the bench
 * does not support it, with a reason in tb->msg); destroy() frees b->state. */
struct tb_bench_desc {
	const char *name;     /* selected with +bench=NAME */
	const char *purpose;  /* one line for listings */
	int (*create)(struct tb *tb, struct tb_bench *b, const struct tip_model_cfg *cfg,
		      uint64_t seed, uint64_t cycles);
	void (*destroy)(struct tb_bench *b);
};

/* All benches, NULL-terminated (tests/tip/benches.c). */
extern const struct tb_bench_desc *const tb_benches[];

/* The bench called name, or NULL. */
const struct tb_bench_desc *tb_bench_find(const char *name);

#endif /* TIPROF_TB_H */
