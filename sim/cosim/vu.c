/* SPDX-License-Identifier: Apache-2.0 */
/* The Verilated TIP unit driven from C (contract in vu.h; the packed input layout is
 * documented in tiprof_vu.sv). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiprof_vu_proto.h"
#include "vu.h"

#if !defined(VU_W) || !defined(VU_XLEN) || !defined(VU_DEPTH)
#error "compile vu.c with -DVU_W= -DVU_XLEN= -DVU_DEPTH= of the Verilator build"
#endif

#define VU_PC_WORDS (VU_W * VU_XLEN / 32)
#define VU_IDX_WORDS ((VU_W * 16 + 31) / 32)
#define VU_X_WORDS (VU_XLEN / 32)

struct vu {
	void *h;                                /* the Verilated model */
	svLogicVecVal in_ctl[3];                /* in_ctl[79:0] */
	svLogicVecVal in_head_pc[VU_PC_WORDS];  /* in_head_pc */
	svLogicVecVal in_disp_pc[VU_PC_WORDS];  /* in_disp_pc */
	svLogicVecVal in_disp_idx[VU_IDX_WORDS]; /* in_disp_idx */
	svLogicVecVal in_csr_wdata[VU_X_WORDS]; /* in_csr_wdata */
	svLogicVecVal csr_rdata[VU_X_WORDS];    /* csr_rdata */
	svLogic clk, csr_illegal, irq;          /* clk, csr_illegal, irq */
};

/* The arguments of the generated call macros (tiprof_vu_proto.h), by port name. */
#define VU_ARG_clk u->clk
#define VU_ARG_csr_illegal (&u->csr_illegal)
#define VU_ARG_irq (&u->irq)
#define VU_ARG_in_ctl u->in_ctl
#define VU_ARG_in_head_pc u->in_head_pc
#define VU_ARG_in_disp_pc u->in_disp_pc
#define VU_ARG_in_disp_idx u->in_disp_idx
#define VU_ARG_in_csr_wdata u->in_csr_wdata
#define VU_ARG_csr_rdata u->csr_rdata

struct vu *vu_open(const struct tip_model_cfg *cfg, char *err, size_t errlen)
{
	struct vu *u;

	if (cfg->w != VU_W || cfg->xlen != VU_XLEN || cfg->fifo_depth != VU_DEPTH) {
		snprintf(err, errlen, "this Verilator build is the unit with W=%u XLEN=%u FIFO %u, "
			 "not W=%u XLEN=%u FIFO %u", VU_W, VU_XLEN, VU_DEPTH, cfg->w, cfg->xlen,
			 cfg->fifo_depth);
		return NULL;
	}
	u = calloc(1, sizeof(*u));	/* every bval (X/Z plane) stays 0 */
	if (!u || !(u->h = tiprof_vu_protectlib_create("tiprof_vu"))) {
		free(u);
		snprintf(err, errlen, "cannot instantiate the Verilated unit");
		return NULL;
	}
	VU_SEQ_UPDATE(u->h);	/* clk = 0: initial blocks and settle */
	return u;
}

void vu_cycle(struct vu *u, const struct tb_in *in, struct tb_out *out)
{
	const struct tiprof_rob_if *r = &in->rob;
	const struct tip_csr_req *c = &in->csr;

	u->in_ctl[0].aval = (uint32_t)r->head_valid | (uint32_t)r->head_commit << 8 |
			    (uint32_t)r->head_mispred << 16 | (uint32_t)r->head_flush << 24;
	u->in_ctl[1].aval = (uint32_t)r->disp_valid | (uint32_t)(r->head_bank & 7u) << 8 |
			    (uint32_t)(r->exception & 1u) << 11 | (uint32_t)(r->priv & 3u) << 12 |
			    (uint32_t)!!in->rst << 14 | (uint32_t)!!c->req << 15 |
			    (uint32_t)!!c->we << 16 | (uint32_t)(c->priv & 3u) << 17 |
			    (uint32_t)(c->addr & 0xfffu) << 19 | (uint32_t)!!in->rob_nocheck << 31;
	u->in_ctl[2].aval = r->ctx_id;
	for (unsigned b = 0; b < VU_W; b++) {
#if VU_XLEN == 64
		u->in_head_pc[2 * b].aval = (uint32_t)r->head_pc[b];
		u->in_head_pc[2 * b + 1].aval = (uint32_t)(r->head_pc[b] >> 32);
		u->in_disp_pc[2 * b].aval = (uint32_t)r->disp_pc[b];
		u->in_disp_pc[2 * b + 1].aval = (uint32_t)(r->disp_pc[b] >> 32);
#else
		u->in_head_pc[b].aval = (uint32_t)r->head_pc[b];
		u->in_disp_pc[b].aval = (uint32_t)r->disp_pc[b];
#endif
	}
	for (unsigned b = 0; b < VU_IDX_WORDS; b++)
		u->in_disp_idx[b].aval = (uint32_t)r->disp_idx[2 * b] |
					 (2 * b + 1 < VU_W ? (uint32_t)r->disp_idx[2 * b + 1] << 16 : 0);
	u->in_csr_wdata[0].aval = (uint32_t)c->wdata;
#if VU_XLEN == 64
	u->in_csr_wdata[1].aval = (uint32_t)(c->wdata >> 32);
#endif
	u->clk = 1;
	VU_SEQ_UPDATE(u->h);	/* edge ending the last cycle; outputs settle for this one */
	u->clk = 0;
	VU_SEQ_UPDATE(u->h);
	out->resp.rdata = u->csr_rdata[0].aval;
#if VU_XLEN == 64
	out->resp.rdata |= (uint64_t)u->csr_rdata[1].aval << 32;
#endif
	out->resp.illegal = u->csr_illegal & 1;
	out->irq = u->irq & 1;
}

void vu_close(struct vu *u)
{
	if (!u)
		return;
	tiprof_vu_protectlib_final(u->h);
	free(u);
}
