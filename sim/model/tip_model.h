/* SPDX-License-Identifier: Apache-2.0 */
/* C reference model of the TIP unit, cycle-exact at its ports (docs/tip-unit.md).
 * Used by the RTL differential tests and by the simulator's reference policies. */
#ifndef TIPROF_TIP_MODEL_H
#define TIPROF_TIP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tiprof/sample.h"
#include "tiprof/tiprof_regs.h"

/* Build parameters of the unit. */
struct tip_model_cfg {
	unsigned w;          /* commit width: 1, 2, 4 or 8 */
	unsigned xlen;       /* 32 or 64 */
	unsigned fifo_depth; /* 1 .. 65535 */
	unsigned input_stage; /* 0, or 1: the ROB inputs pass one register stage first (the
			       * RTL's InputStage): a cycle is judged on the previous cycle's
			       * ROB inputs; the CSR port is not delayed */
};

/* One cycle's CSR request (inputs of the CSR port). */
struct tip_csr_req {
	int req;        /* an access this cycle */
	int we;         /* it is a write */
	uint16_t addr;  /* CSR number, 12 bits */
	uint64_t wdata; /* write data; on XLEN=32 only the low 32 bits are presented */
	uint8_t priv;   /* privilege of the access: 0 U, 1 S, 3 M */
};

/* The CSR port's combinational response in the same cycle. */
struct tip_csr_resp {
	uint64_t rdata; /* read data (0 for writes, illegal accesses and no request) */
	int illegal;    /* the access is illegal (see docs/tip-unit.md) */
};

/* One FIFO entry. */
struct tip_fifo_entry {
	struct tiprof_sample s; /* the sample */
	int pending;            /* a Drained sample waiting for its instruction */
};

/* The whole unit state; fields are public for tests and waveform dumps, but change only
 * through tip_model_cycle(). */
struct tip_model {
	struct tip_model_cfg cfg;  /* parameters */
	struct tiprof_rob_if rob_q; /* the input stage's register (cfg.input_stage = 1) */
	/* OIR */
	uint64_t oir_addr;         /* youngest committed / last excepting instruction */
	uint8_t oir_flags;         /* TIPROF_SF_MISPRED | _FLUSH | _EXCEPTION */
	uint8_t oir_priv;          /* its privilege */
	uint16_t oir_ctx;          /* its context id */
	/* sampler */
	uint64_t cycle;            /* free-running cycle counter */
	uint32_t pos;              /* position in the current interval */
	uint32_t target;           /* interval position of the next sample */
	uint32_t lfsr;             /* Galois LFSR state */
	/* registers */
	uint32_t ctrl;             /* TIP_CTRL */
	uint32_t period;           /* TIP_PERIOD */
	uint32_t watermark;        /* TIP_WATERMARK */
	uint8_t status_sticky;     /* CFG_ERR | POP_EMPTY bits of TIP_STATUS */
	uint64_t taken;            /* TIP_TAKEN */
	uint64_t lost;             /* TIP_LOST */
	uint8_t menable;           /* TIP_MENABLE.S */
	/* FIFO */
	struct tip_fifo_entry *fifo; /* fifo_depth entries, circular */
	unsigned head;             /* index of the oldest entry */
	unsigned used;             /* allocated entries (complete + pending) */
	unsigned pending;          /* pending entries (the youngest ones) */
	/* observation of the last cycle, for tests and the simulator (not architectural) */
	int fired;                 /* a trigger fired in the last cycle */
	int fired_lost;            /* ... and was lost to a full FIFO */
	struct tiprof_sample last; /* the sample the last trigger took (address fields may be
				    * filled later if it was Drained) */
};

/* Initialise m for cfg and reset it. Returns 0, or -EINVAL for illegal parameters,
 * -ENOMEM if the FIFO cannot be allocated. */
int tip_model_init(struct tip_model *m, const struct tip_model_cfg *cfg);

/* Release the FIFO storage. */
void tip_model_fini(struct tip_model *m);

/* Asynchronous reset: every register to its reset value, FIFO emptied. */
void tip_model_reset(struct tip_model *m);

/* Value of irq_o during the coming cycle (a function of the state only). */
int tip_model_irq(const struct tip_model *m);

/* Simulate one cycle: rob and csr are the cycle's inputs (csr may be NULL for no request);
 * resp (may be NULL) receives the CSR port's combinational outputs of this cycle; then the
 * state advances to the next cycle. */
void tip_model_cycle(struct tip_model *m, const struct tiprof_rob_if *rob,
		     const struct tip_csr_req *csr, struct tip_csr_resp *resp);

/* Number of complete samples in the FIFO (TIP_FIFO_COUNT). */
unsigned tip_model_fifo_count(const struct tip_model *m);

/* Copy the oldest complete sample into s and remove it, as the driver's POP would but
 * without a CSR cycle (for simulators that model the drain elsewhere). Returns 1 if a
 * sample was returned, 0 if none is complete. */
int tip_model_pop(struct tip_model *m, struct tiprof_sample *s);

#endif /* TIPROF_TIP_MODEL_H */
