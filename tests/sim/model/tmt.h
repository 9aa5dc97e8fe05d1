/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tmt.h - helpers shared by the TIP model's unit tests: check counting and reporting,
 * and a "rig" that drives a tip_model one cycle at a time and talks to it through the
 * CSR port exactly as software would (reads, writes, reading a sample back with
 * TIP_FIFO_COUNT / TIP_S_* reads and a TIP_POP write).
 */
#ifndef TIPROF_TMT_H
#define TIPROF_TMT_H

#include <stdint.h>

#include "tip_model.h"
#include "tsection.h"

/* ---- checks: tests/include/tsection.h (CHECK, CHECK_EQ, sections, notes, summary) ---- */
#define tmt_section ts_section
#define tmt_note ts_note
#define tmt_summary ts_summary

/* Whether two samples agree in every field but the cycle (W address slots). */
int tmt_sample_same(const struct tiprof_sample *a, const struct tiprof_sample *b, unsigned w);

/* Compare every field of a sample (cycle, flags, bank, valid, priv, ctx, the W address
 * slots) with the expected one; one check per field. what names the sample in messages. */
void tmt_expect_sample(const struct tiprof_sample *got, const struct tiprof_sample *want,
		       unsigned w, const char *what);

/* ---- the rig ---- */

struct rig {
	struct tip_model m;          /* the unit */
	struct tiprof_rob_if rob;    /* ROB inputs applied in every cycle until changed */
	struct tip_csr_resp resp;    /* CSR response of the last cycle */
};

/* Initialise the model with (w, xlen, depth) and zero ROB inputs; aborts on error. */
void rig_init(struct rig *r, unsigned w, unsigned xlen, unsigned depth);
/* Release the model. */
void rig_fini(struct rig *r);
/* Run n cycles with the current ROB inputs and no CSR access. */
void rig_idle(struct rig *r, unsigned n);
/* One cycle with a CSR access (we, addr, wdata, priv); returns the response. */
struct tip_csr_resp rig_access(struct rig *r, int we, uint16_t addr, uint64_t wdata,
			       uint8_t priv);
/* One cycle with an M-mode read of addr; counts a check that it was legal; returns rdata. */
uint64_t rig_read(struct rig *r, uint16_t addr);
/* One cycle with an M-mode write; counts a check that it was legal. */
void rig_write(struct rig *r, uint16_t addr, uint64_t v);
/* Read the oldest sample through the CSR port as a driver would: TIP_FIFO_COUNT, then
 * (if nonzero) TIP_S_CYCLE(H), TIP_S_INFO, TIP_S_CTX, TIP_S_ADDR0..W-1 and a TIP_POP
 * write. Returns the FIFO count read first (0: s untouched). */
unsigned rig_read_sample(struct rig *r, struct tiprof_sample *s);
/* The CTRL value "enabled, periodic, every privilege" (plus extra bits). */
uint32_t rig_ctrl_en(uint32_t mode, uint32_t rand_bits, uint32_t extra);

/* ---- ROB input helpers ---- */

/* Zero every ROB input but priv/ctx, which are set to priv/ctx. */
void rob_clear(struct tiprof_rob_if *rob, uint8_t priv, uint16_t ctx);
/* Put an instruction at the head of bank b (valid), committing if commit. */
void rob_head(struct tiprof_rob_if *rob, unsigned b, uint64_t pc, int commit);
/* Dispatch an instruction into bank b this cycle. */
void rob_disp(struct tiprof_rob_if *rob, unsigned b, uint64_t pc);

/* Build an expected sample. addr[] has w entries (0 where not valid). */
struct tiprof_sample mk_sample(uint64_t cycle, unsigned flags, unsigned bank, unsigned valid,
			       unsigned priv, unsigned ctx, const uint64_t *addr, unsigned w);

#endif /* TIPROF_TMT_H */
