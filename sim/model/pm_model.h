/* SPDX-License-Identifier: Apache-2.0 */
/* C reference model of the ProfileMe subsystem, cycle-exact at its ports (docs/profileme.md).
 * Used by the RTL differential tests and by the simulator when it drives the ProfileMe
 * interface. */
#ifndef TIPROF_PM_MODEL_H
#define TIPROF_PM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tiprof/tiprof_regs.h"

/* Build parameters of the subsystem. */
struct pm_model_cfg {
	unsigned f;          /* fetch slots per cycle: 1, 2, 4 or 8 */
	unsigned xlen;       /* 32 or 64 */
	unsigned fifo_depth; /* 1 .. 65535 */
	unsigned tags;       /* tag ids the core carries: 1, or 2 (paired sampling) */
};

/* One cycle's CSR request (the unit's CSR port). */
struct pm_csr_req {
	int req;        /* an access this cycle */
	int we;         /* it is a write */
	uint16_t addr;  /* CSR number, 12 bits */
	uint64_t wdata; /* write data (low XLEN bits used) */
	uint8_t priv;   /* privilege of the access: 0 U, 1 S, 3 M */
};

/* The subsystem's combinational CSR response in the same cycle. */
struct pm_csr_resp {
	uint64_t rdata; /* read data (0 for writes, illegal accesses, no request, other owners) */
	int illegal;    /* the access is to this subsystem's range and illegal */
	int hit;        /* the address is in this subsystem's ranges (0x5E0-0x5FF, 0xDE0-0xDFF) */
};

/* One record (one FIFO entry), layout in spec/tiprof_regs.json pm_record. */
struct pm_record {
	uint64_t w[TIPROF_PM_REC_WORDS];
};

/* Profile states. */
enum { PM_P_IDLE = 0, PM_P_OPEN = 1, PM_P_ENDED = 2 };

/* Stage stamp indices (st[] of a profile). */
enum { PM_ST_MAP, PM_ST_READY, PM_ST_ISSUE, PM_ST_MEM, PM_ST_COMPLETE, PM_ST_END, PM_ST_N };

/* A profile: one tagged (or empty-slot, or never tagged) instruction of the open sample. */
struct pm_profile {
	uint8_t state;        /* PM_P_* */
	uint8_t tagged;       /* an instruction carries this tag id */
	uint64_t pc, ea;      /* address, effective data address */
	uint16_t ev;          /* EV bits (1 << TIPROF_PM_EV_*) */
	uint8_t reason;       /* abort reason */
	uint8_t priv, slot;   /* fetch privilege, fetch slot */
	uint16_t ctx, path;   /* fetch context, path history */
	uint16_t fetch;       /* sample age at its fetch */
	uint16_t st[PM_ST_N]; /* sample age at each stage (valid if the seen bit is set) */
	uint8_t seen;         /* bit PM_ST_*: stage seen (END is implied by state) */
};

/* Observation of one cycle (outputs and what happened, for tests and simulators). */
struct pm_model_out {
	uint8_t tag[TIPROF_PM_MAX_SLOTS]; /* pm_tag_o per slot: bit 0 id 0, bit 1 id 1 */
	struct pm_csr_resp csr;           /* CSR response */
	int irq;                          /* irq_o of this cycle (state only) */
	unsigned nsel;                    /* selections this cycle (0..2) */
	uint8_t sel_slot[2];              /* their slots, in order */
	uint8_t sel_taken;                /* bit i: selection i was taken (else a collision) */
	int completed;                    /* a sample completed this cycle ... */
	int filtered, pushed, lost;       /* ... and was dropped by a filter / pushed / lost */
	struct pm_record rec;             /* the completed sample's record */
};

/* The whole subsystem; fields are public for tests and dumps, but change only through
 * pm_model_cycle(). */
struct pm_model {
	struct pm_model_cfg cfg;
	uint64_t cycle;            /* the unit's cycle counter (TIP_CYCLE) */
	/* fetch counter (TIP's interval block over fetch units) */
	uint32_t pos, target, lfsr;
	/* registers */
	uint32_t ctrl, period, watermark, pair, timeout, evfilt, latfilt;
	uint8_t sticky;            /* CFG_ERR | POP_EMPTY | STRAY | TIMEOUT */
	uint64_t taken, lost, filtered, collided;
	/* the open sample */
	int open;                  /* a sample is open */
	int is_pair, waiting;      /* it is a pair; its second is not yet tagged */
	uint16_t age;              /* cycles since its selection */
	uint16_t remaining;        /* valid slots still to count for the second */
	uint16_t dist;             /* the pair's distance d */
	uint64_t s_cycle;          /* cycle counter at the selection */
	struct pm_profile p[2];    /* profiles by tag id */
	/* FIFO */
	struct pm_record *fifo;    /* fifo_depth entries, circular */
	unsigned head, used;
};

/* Initialise m for cfg and reset it: 0, -EINVAL for illegal parameters, -ENOMEM. */
int pm_model_init(struct pm_model *m, const struct pm_model_cfg *cfg);
/* Release the FIFO storage (idempotent). */
void pm_model_fini(struct pm_model *m);
/* Asynchronous reset: every register to its reset value, open sample and FIFO discarded. */
void pm_model_reset(struct pm_model *m);
/* irq_o during the coming cycle (a function of the state only). */
int pm_model_irq(const struct pm_model *m);
/* One clock edge. in: the cycle's interface inputs (NULL = all 0); csr: the CSR request (NULL
 * = none); menable_s: TIP_MENABLE.S of the unit (the shared gate); out (may be NULL) receives
 * the cycle's outputs. Input bits beyond the configuration are ignored. */
void pm_model_cycle(struct pm_model *m, const struct tiprof_pm_if *in,
		    const struct pm_csr_req *csr, int menable_s, struct pm_model_out *out);
/* PM_FIFO_COUNT. */
unsigned pm_model_fifo_count(const struct pm_model *m);
/* Copy the oldest record into r (may be NULL) and remove it without a CSR cycle: 1, or 0 if
 * the FIFO is empty. */
int pm_model_pop(struct pm_model *m, struct pm_record *r);
/* Latency sel (TIPROF_PM_LAT_*) of profile p of record r: its value, and *valid. */
uint16_t pm_record_latency(const struct pm_record *r, unsigned p, unsigned sel, int *valid);

#endif /* TIPROF_PM_MODEL_H */
