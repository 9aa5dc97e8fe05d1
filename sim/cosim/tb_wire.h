/* SPDX-License-Identifier: Apache-2.0 */
/* The testbench's wire format: struct tb_in flattened into the fixed-width vectors that the
 * SystemVerilog testbench exchanges with C (32-bit words, little-endian word order, per-bank
 * fields at 64-bit (addresses) or 16-bit (ROB indices) strides). Shared by dpi.c and vpi.c. */
#ifndef TIPROF_TB_WIRE_H
#define TIPROF_TB_WIRE_H

#include <stdint.h>

#include "tb.h"

struct tb_wire {
	uint32_t rst, head_valid, head_commit, head_mispred, head_flush, head_bank, exception;
	uint32_t disp_valid, priv, ctx_id, csr_req, csr_we, csr_addr, csr_priv;
	uint32_t head_pc[16];   /* bit [511:0]: bank b at bits [64b +: 64] */
	uint32_t disp_pc[16];   /* bit [511:0] */
	uint32_t disp_idx[4];   /* bit [127:0]: bank b at bits [16b +: 16] */
	uint32_t csr_wdata[2];  /* bit [63:0] */
};

/* Flatten in into w. */
static inline void tb_wire_pack(const struct tb_in *in, struct tb_wire *w)
{
	w->rst = (uint32_t)!!in->rst;
	w->head_valid = in->rob.head_valid;
	w->head_commit = in->rob.head_commit;
	w->head_mispred = in->rob.head_mispred;
	w->head_flush = in->rob.head_flush;
	w->head_bank = in->rob.head_bank & 7u;
	w->exception = in->rob.exception & 1u;
	w->disp_valid = in->rob.disp_valid;
	w->priv = in->rob.priv & 3u;
	w->ctx_id = in->rob.ctx_id;
	w->csr_req = (uint32_t)!!in->csr.req;
	w->csr_we = (uint32_t)!!in->csr.we;
	w->csr_addr = in->csr.addr & 0xfffu;
	w->csr_priv = in->csr.priv & 3u;
	for (unsigned b = 0; b < 8; b++) {
		w->head_pc[2 * b] = (uint32_t)in->rob.head_pc[b];
		w->head_pc[2 * b + 1] = (uint32_t)(in->rob.head_pc[b] >> 32);
		w->disp_pc[2 * b] = (uint32_t)in->rob.disp_pc[b];
		w->disp_pc[2 * b + 1] = (uint32_t)(in->rob.disp_pc[b] >> 32);
	}
	for (unsigned b = 0; b < 4; b++)
		w->disp_idx[b] = (uint32_t)in->rob.disp_idx[2 * b] |
				 (uint32_t)in->rob.disp_idx[2 * b + 1] << 16;
	w->csr_wdata[0] = (uint32_t)in->csr.wdata;
	w->csr_wdata[1] = (uint32_t)(in->csr.wdata >> 32);
}

#endif /* TIPROF_TB_WIRE_H */
