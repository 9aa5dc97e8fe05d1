/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pmt.h - helpers shared by the ProfileMe model's unit tests: check counting and reporting,
 * and a rig that drives a pm_model one cycle at a time with one-cycle inputs and talks to it
 * through the CSR port as software would.
 */
#ifndef TIPROF_PMT_H
#define TIPROF_PMT_H

#include <stdint.h>

#include "pm_model.h"
#include "tsection.h"

/* Checks: tests/include/tsection.h (CHECK, CHECK_EQ, sections, notes, summary). */
#define pmt_section ts_section
#define pmt_note ts_note
#define pmt_summary ts_summary

/* The rig: `in` holds the inputs of the next cycle; every step applies them and clears them
 * (inputs are one-cycle pulses unless set again). `out` is the last cycle's observation. */
struct pmrig {
	struct pm_model m;
	struct tiprof_pm_if in;
	struct pm_model_out out;
	int menable;             /* TIP_MENABLE.S presented to the model */
};

void pr_init(struct pmrig *r, unsigned f, unsigned xlen, unsigned depth, unsigned tags);
void pr_fini(struct pmrig *r);
/* One cycle with the current inputs and no CSR access. */
void pr_step(struct pmrig *r);
/* n idle cycles (no fetch, no events). */
void pr_idle(struct pmrig *r, unsigned n);
/* One cycle with a CSR access; returns the response. */
struct pm_csr_resp pr_access(struct pmrig *r, int we, uint16_t addr, uint64_t wdata, uint8_t priv);
/* M-mode read (checks legality) / write (checks legality). */
uint64_t pr_read(struct pmrig *r, uint16_t addr);
void pr_write(struct pmrig *r, uint16_t addr, uint64_t v);
/* Read the oldest record through PM_FIFO_COUNT, PM_Rk (and PM_RHk on XLEN=32) and a PM_POP
 * write, as a driver would; returns the FIFO count read first (0: rec untouched). */
unsigned pr_read_record(struct pmrig *r, struct pm_record *rec);
/* Present a fetch packet in the next cycle: valid mask, slot i at pc0 + 4 i. */
void pr_fetch(struct pmrig *r, unsigned valid, uint64_t pc0);
/* PM_CTRL value: enabled, mode, every privilege, k, plus extra bits. */
uint32_t pr_ctrl(unsigned mode, unsigned k, uint32_t extra);

/* Record field accessors. */
uint64_t rec_field(const struct pm_record *r, unsigned word, uint64_t mask, unsigned shift);
#define REC(r, word, fld) rec_field((r), TIPROF_PM_REC_##word, TIPROF_PM_REC_##word##_##fld##_MASK, \
				    TIPROF_PM_REC_##word##_##fld##_SHIFT)
/* Same for profile p's copy of a per-profile word. */
#define RECP(r, p, word, fld) rec_field((r), TIPROF_PM_REC_##word + (p) * TIPROF_PM_REC_PROFILE_STRIDE, \
					TIPROF_PM_REC_##word##_##fld##_MASK, \
					TIPROF_PM_REC_##word##_##fld##_SHIFT)
#define EVB(b) (1u << TIPROF_PM_EV_##b)

#endif /* TIPROF_PMT_H */
