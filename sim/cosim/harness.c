/* SPDX-License-Identifier: Apache-2.0 */
/* The TIP test harness core: per-cycle comparison of the DUT with the C model (lockstep),
 * coverage bins and the failure waveform. Bench stepping is in harness_bench.c; the
 * simulator-specific wrappers (dpi.c, vpi.c, vu.c) only move values between the simulator and
 * struct tb_in / struct tb_out. tiprof-cosim (cosim.c) links this file without the benches. */
#include "harness.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RING_DEPTH 512u

int tb_fail(struct tb *tb, const char *fmt, ...)
{
	va_list ap;

	if (!tb->failed) {
		va_start(ap, fmt);
		vsnprintf(tb->msg, sizeof(tb->msg), fmt, ap);
		va_end(ap);
		tb->failed = 1;
	}
	return -1;
}

/* ------------------------------------------------------------------ waveform ring */

/* Ring signal order; handles are sig_first + index. */
enum ring_sig {
	RS_RST, RS_HEAD_VALID, RS_HEAD_COMMIT, RS_HEAD_MISPRED, RS_HEAD_FLUSH, RS_HEAD_BANK,
	RS_EXCEPTION, RS_DISP_VALID, RS_PRIV, RS_CTX,
	RS_CSR_REQ, RS_CSR_WE, RS_CSR_ADDR, RS_CSR_WDATA, RS_CSR_PRIV,
	RS_DUT_RDATA, RS_DUT_ILLEGAL, RS_DUT_IRQ, RS_REF_RDATA, RS_REF_ILLEGAL, RS_REF_IRQ,
	RS_OIR_ADDR, RS_OIR_FLAGS, RS_CYCLE, RS_POS, RS_TARGET, RS_LFSR, RS_FIFO_USED,
	RS_FIFO_PENDING, RS_FIRED,
	RS_HEAD_PC0, /* then W head_pc, then W disp_pc */
};

static int ring_setup(struct harness *h)
{
	unsigned w = h->model.cfg.w, x = h->model.cfg.xlen;
	static const struct { const char *name; unsigned width; } fixed[] = {
		{ "rst", 1 }, { "rob_head_valid", 0 }, { "rob_head_commit", 0 },
		{ "rob_head_mispred", 0 }, { "rob_head_flush", 0 }, { "rob_head_bank", 3 },
		{ "rob_exception", 1 }, { "rob_disp_valid", 0 }, { "priv", 2 }, { "ctx_id", 16 },
		{ "csr_req", 1 }, { "csr_we", 1 }, { "csr_addr", 12 }, { "csr_wdata", 64 },
		{ "csr_priv", 2 }, { "dut_rdata", 64 }, { "dut_illegal", 1 }, { "dut_irq", 1 },
		{ "ref_rdata", 64 }, { "ref_illegal", 1 }, { "ref_irq", 1 },
		{ "oir_addr", 64 }, { "oir_flags", 3 }, { "cycle", 64 }, { "pos", 32 },
		{ "target", 32 }, { "lfsr", 32 }, { "fifo_used", 17 }, { "fifo_pending", 17 },
		{ "fired", 1 },
	};
	char name[32];
	int rc;

	if (vcd_ring_create(&h->ring, RING_DEPTH) < 0)
		return -1;
	rc = vcd_ring_scope_begin(h->ring, "tiprof_tb");
	for (unsigned i = 0; rc >= 0 && i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		rc = vcd_ring_signal(h->ring, fixed[i].name, fixed[i].width ? fixed[i].width : w);
		if (i == 0)
			h->sig_first = rc;
	}
	for (unsigned b = 0; rc >= 0 && b < w; b++) {
		snprintf(name, sizeof(name), "rob_head_pc%u", b);
		rc = vcd_ring_signal(h->ring, name, x);
	}
	for (unsigned b = 0; rc >= 0 && b < w; b++) {
		snprintf(name, sizeof(name), "rob_disp_pc%u", b);
		rc = vcd_ring_signal(h->ring, name, x);
	}
	if (rc >= 0)
		rc = vcd_ring_scope_end(h->ring);
	if (rc >= 0)
		rc = vcd_ring_end_defs(h->ring);
	return rc < 0 ? -1 : 0;
}

static void ring_set(struct harness *h, enum ring_sig s, uint64_t v, unsigned width)
{
	if (width < 64)
		v &= (1ull << width) - 1;
	vcd_ring_set_u64(h->ring, h->sig_first + (int)s, v);
}

static void ring_record(struct harness *h, const struct tb_in *in, const struct tb_out *dut,
			const struct tb_out *ref)
{
	const struct tip_model *m = &h->model;
	unsigned w = m->cfg.w, x = m->cfg.xlen;
	uint64_t amask = x == 64 ? ~0ull : 0xffffffffull;

	ring_set(h, RS_RST, (uint64_t)in->rst, 1);
	ring_set(h, RS_HEAD_VALID, in->rob.head_valid, w);
	ring_set(h, RS_HEAD_COMMIT, in->rob.head_commit, w);
	ring_set(h, RS_HEAD_MISPRED, in->rob.head_mispred, w);
	ring_set(h, RS_HEAD_FLUSH, in->rob.head_flush, w);
	ring_set(h, RS_HEAD_BANK, in->rob.head_bank, 3);
	ring_set(h, RS_EXCEPTION, in->rob.exception, 1);
	ring_set(h, RS_DISP_VALID, in->rob.disp_valid, w);
	ring_set(h, RS_PRIV, in->rob.priv, 2);
	ring_set(h, RS_CTX, in->rob.ctx_id, 16);
	ring_set(h, RS_CSR_REQ, (uint64_t)in->csr.req, 1);
	ring_set(h, RS_CSR_WE, (uint64_t)in->csr.we, 1);
	ring_set(h, RS_CSR_ADDR, in->csr.addr, 12);
	ring_set(h, RS_CSR_WDATA, in->csr.wdata, 64);
	ring_set(h, RS_CSR_PRIV, in->csr.priv, 2);
	ring_set(h, RS_DUT_RDATA, dut->resp.rdata, 64);
	ring_set(h, RS_DUT_ILLEGAL, (uint64_t)dut->resp.illegal, 1);
	ring_set(h, RS_DUT_IRQ, (uint64_t)dut->irq, 1);
	ring_set(h, RS_REF_RDATA, ref->resp.rdata, 64);
	ring_set(h, RS_REF_ILLEGAL, (uint64_t)ref->resp.illegal, 1);
	ring_set(h, RS_REF_IRQ, (uint64_t)ref->irq, 1);
	ring_set(h, RS_OIR_ADDR, m->oir_addr, 64);
	ring_set(h, RS_OIR_FLAGS, (uint64_t)m->oir_flags >> 2, 3);
	ring_set(h, RS_CYCLE, m->cycle, 64);
	ring_set(h, RS_POS, m->pos, 32);
	ring_set(h, RS_TARGET, m->target, 32);
	ring_set(h, RS_LFSR, m->lfsr, 32);
	ring_set(h, RS_FIFO_USED, m->used, 17);
	ring_set(h, RS_FIFO_PENDING, m->pending, 17);
	ring_set(h, RS_FIRED, (uint64_t)m->fired, 1);
	for (unsigned b = 0; b < w; b++) {
		ring_set(h, (enum ring_sig)(RS_HEAD_PC0 + b), in->rob.head_pc[b] & amask, 64);
		ring_set(h, (enum ring_sig)(RS_HEAD_PC0 + w + b), in->rob.disp_pc[b] & amask, 64);
	}
	vcd_ring_commit(h->ring, h->t * 10);
}

/* ------------------------------------------------------------------ harness */

static uint64_t xlen_mask(const struct harness *h)
{
	return h->model.cfg.xlen == 64 ? ~0ull : 0xffffffffull;
}

/* Coverage (docs/verification.md "Coverage"): every bin is counted from the C model's state
 * before and after the cycle, and only when the event changes something. */
struct cov_before {
	unsigned used, pending; /* FIFO entries, pending ones, at the start of the cycle */
	uint8_t status;         /* sticky status bits */
	uint32_t ctrl;          /* TIP_CTRL in effect (the trigger fired under it) */
};

static const char *const cov_state_name[4] = { "computing", "stalled", "flushed", "drained" };

/* Called before the model steps (reset: the model is about to discard its state). */
static void coverage_before(struct harness *h, const struct tb_in *in)
{
	if (in->rst && h->model.pending)
		h->cov.reset_while_pending++;
}

static void coverage_after(struct harness *h, const struct tb_in *in,
			   const struct tip_csr_resp *resp, const struct cov_before *b)
{
	const struct tip_model *m = &h->model;
	const struct tiprof_rob_if *rob = &in->rob;
	unsigned w = m->cfg.w, bm = (1u << w) - 1u;
	unsigned hb = rob->head_bank & (w - 1u), hv = rob->head_valid & bm;
	unsigned cm = hv & rob->head_commit, disp = rob->disp_valid & bm;
	int empty = !((hv >> hb) & 1u);
	int pop = in->csr.req && in->csr.we && !resp->illegal &&
		  (in->csr.addr & 0xfffu) == TIPROF_TIP_POP;
	unsigned state;

	if (in->rst)
		return;
	if (resp->illegal)
		h->cov.illegal_access++;
	if ((m->status_sticky & ~b->status) & TIPROF_TIP_STATUS_CFG_ERR_MASK)
		h->cov.cfg_error++;
	if (pop && b->used && b->used == b->pending)
		h->cov.pop_only_pending++;
	if (b->pending && m->pending < b->pending) { /* the pending entries completed */
		if (empty) {
			h->cov.pending_completed_dispatch++;
			/* the first dispatched bank from the head bank on */
			for (unsigned i = 0; i < w; i++) {
				unsigned k = (hb + i) & (w - 1u);

				if ((disp >> k) & 1u) {
					if (k)
						h->cov.pending_completed_bank_nonzero++;
					break;
				}
			}
		} else {
			h->cov.pending_completed_head++;
			if (rob->exception && !cm)
				h->cov.exception_completes_pending++;
		}
	}
	if (!m->fired)
		return;
	if (b->pending) {
		if (m->fired_lost)
			h->cov.trigger_while_pending_lost++;
		else
			h->cov.trigger_while_pending_stored++;
	}
	if (b->ctrl & TIPROF_TIP_CTRL_TRIGGER_MASK) {
		h->cov.insn_sample++;
		if (__builtin_popcount(m->last.valid) == 2)
			h->cov.insn_two++;
	}
	if (m->fired_lost)
		h->cov.lost++;
	else if (b->used == m->cfg.fifo_depth)
		h->cov.full_and_pop++;
	if (m->last.flags & TIPROF_SF_STALLED) {
		state = 1;
		h->cov.sample_stalled++;
	} else if (m->last.flags & TIPROF_SF_FRONTEND) {
		state = 3;
		h->cov.sample_drained++;
		if (m->last.valid)
			h->cov.drained_completed_at_once++;
		else if (!m->fired_lost)
			h->cov.drained_left_pending++;
	} else if (m->last.flags) {
		state = 2;
		h->cov.sample_flushed++;
	} else {
		state = 0;
		h->cov.sample_computing++;
	}
	h->cov.cross[state * 8u + (b->used == m->cfg.fifo_depth) * 4u + !!in->csr.req * 2u +
		     !!b->pending]++;
}

/* ------------------------------------------------------------------ lockstep */

/* "TIP_S_ADDR2 (0xdd2)"-style name of CSR addr for failure messages. */
static void csr_name(char *buf, size_t len, uint16_t addr)
{
	for (unsigned i = 0; i < TIPROF_NUM_REGS; i++) {
		const struct tiprof_reg_desc *d = &tiprof_reg_table[i];

		if (addr >= d->addr && addr < d->addr + d->count) {
			if (d->count > 1)
				snprintf(buf, len, "%s%u (0x%03x)", d->name, addr - d->addr, addr);
			else
				snprintf(buf, len, "%s (0x%03x)", d->name, addr);
			return;
		}
	}
	snprintf(buf, len, "0x%03x", addr);
}

int harness_setup(struct harness *h, const struct tip_model_cfg *cfg, const char *sim)
{
	memset(h, 0, sizeof(*h));
	h->tb.log = stdout;
	h->sim = sim;
	h->in.rst = 1;
	if (tip_model_init(&h->model, cfg) != 0) {
		tb_fail(&h->tb, "illegal unit configuration W=%u XLEN=%u depth=%u", cfg->w,
			cfg->xlen, cfg->fifo_depth);
		return -1;
	}
	if (ring_setup(h) != 0) {
		tb_fail(&h->tb, "cannot set up the waveform ring");
		return -1;
	}
	return 0;
}

int harness_check(struct harness *h, const struct tb_in *cur, const struct tb_out *dut,
		  struct tb_out *ref)
{
	struct cov_before cb = { h->model.used, h->model.pending, h->model.status_sticky,
				 h->model.ctrl };

	memset(ref, 0, sizeof(*ref));
	/* The reference: outputs for the inputs of the cycle that ends now, then step. */
	ref->irq = tip_model_irq(&h->model);
	coverage_before(h, cur);
	if (cur->rst) {
		tip_model_reset(&h->model);
	} else {
		if (h->recording)
			rob_trace_writer_cycle(&h->rec, &cur->rob);
		tip_model_cycle(&h->model, &cur->rob, cur->csr.req ? &cur->csr : NULL, &ref->resp);
		coverage_after(h, cur, &ref->resp, &cb);
	}
	ring_record(h, cur, dut ? dut : ref, ref);
	if (dut && !cur->rst) {
		uint64_t mask = xlen_mask(h);

		if ((dut->resp.rdata & mask) != (ref->resp.rdata & mask) ||
		    !dut->resp.illegal != !ref->resp.illegal || !dut->irq != !ref->irq) {
			char when[96], reg[48];

			if (h->desc)
				snprintf(when, sizeof(when), "tick %" PRIu64 " (bench cycle %" PRIu64 ")",
					 h->t, h->t ? h->t - 1 : 0);
			else
				snprintf(when, sizeof(when), "unit cycle %" PRIu64, h->t);
			csr_name(reg, sizeof(reg), cur->csr.addr);
			tb_fail(&h->tb,
				"%s: RTL and C model differ: "
				"csr %s %s wdata=0x%" PRIx64 " priv=%u: "
				"expected rdata=0x%" PRIx64 " illegal=%d irq=%d, got rdata=0x%" PRIx64
				" illegal=%d irq=%d", when,
				cur->csr.req ? (cur->csr.we ? "write" : "read") : "idle", reg,
				cur->csr.wdata, cur->csr.priv, ref->resp.rdata & mask, ref->resp.illegal,
				ref->irq, dut->resp.rdata & mask, dut->resp.illegal, dut->irq);
			h->status = -1;
			return -1;
		}
		h->tb.checks++;
	}
	h->t++;
	return 0;
}

int harness_dump_vcd(struct harness *h)
{
	if (!h->ring || vcd_ring_dump_path(h->ring, h->vcd_path, "1ns") != 0)
		return -1;
	if (h->tb.log)
		fprintf(h->tb.log, "tip-harness: waveform of the last %u cycles: %s\n",
			vcd_ring_count(h->ring), h->vcd_path);
	return 0;
}

int harness_final(struct harness *h)
{
	int failed = h->status != 1 || h->tb.failed;

	if (h->recording && rob_trace_writer_close(&h->rec) < 0 && !failed) {
		tb_fail(&h->tb, "writing the ROB trace failed");
		failed = 1;
	}

	if (h->ring) {
		if (failed)
			harness_dump_vcd(h);
		vcd_ring_free(h->ring);
		h->ring = NULL;
	}
	if (!h->tb.log)
		goto release;
	/* one line per run, keyed by W (run.sh sums the random runs per W) */
	fprintf(h->tb.log, "tip-harness: coverage: W=%u", h->model.cfg.w);
#define HARNESS_COV_PRINT(n) fprintf(h->tb.log, " %s=%lu", #n, h->cov.n);
	HARNESS_COVERAGE(HARNESS_COV_PRINT)
#undef HARNESS_COV_PRINT
	for (unsigned i = 0; i < HARNESS_CROSS_N; i++)
		fprintf(h->tb.log, " x_%s_%s_%s_%s=%lu", cov_state_name[i / 8u],
			(i & 4u) ? "full" : "room", (i & 2u) ? "csr" : "nocsr",
			(i & 1u) ? "pend" : "nopend", h->cov.cross[i]);
	fprintf(h->tb.log, "\n");
	if (failed) {
		fprintf(h->tb.log, "tip-harness: FAIL %s (sim=%s W=%u XLEN=%u depth=%u seed=%" PRIu64
			"): %s\n", h->desc ? h->desc->name : "lockstep", h->sim, h->model.cfg.w,
			h->model.cfg.xlen, h->model.cfg.fifo_depth, h->tb.seed,
			h->tb.msg[0] ? h->tb.msg : "did not finish");
	} else {
		fprintf(h->tb.log, "tip-harness: PASS %s (sim=%s): %" PRIu64 " cycles, %lu checks\n",
			h->desc ? h->desc->name : "lockstep", h->sim, h->t, h->tb.checks);
	}
	fflush(h->tb.log);
release:
	if (h->desc && h->bench.state && h->desc->destroy)
		h->desc->destroy(&h->bench);
	if (h->model.fifo)
		tip_model_fini(&h->model);
	h->model.fifo = NULL;
	return failed ? 1 : 0;
}
