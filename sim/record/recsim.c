/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-record-sim.c - co-simulated recording for `tiprof sim --profile` (contract in
 * cmd-record-sim.h; the drain model is argued in docs/report.md).
 *
 * Sections: CSR accessors over the unit model; draining; open/cycle/close.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recsim.h"
#include "elf_image.h"
#include "sample_file.h"
#include "tip_model.h"
#include "tiprof_hw.h"

#define RECSIM_ISR_PC 0xffffffff80001000ull	/* stand-in address of the S-mode handler */

struct recsim {
	struct tip_model m;		/* the unit (unless cfg.unit is given) */
	const struct recsim_unit_ops *unit;	/* the unit instead of m, or NULL */
	void *unit_ctx;			/* its context */
	char unit_msg[512];		/* its report when it failed */
	struct tiprof_hw hw;		/* the driver's view of it */
	struct tiprof_rob_if last;	/* ROB inputs of the last core cycle */
	struct sf_writer w;		/* the sample file */
	int w_open;			/* w is open */
	struct recsim_stats st;		/* accounting */
	int hw_err;			/* first accessor error (illegal access) */
	int fired;			/* the unit selected a sample in the last core cycle */
	struct tiprof_sample buf[RECSIM_DEPTH];	/* drain buffer */
};

/* ---- the unit: the C model, or cfg.unit (the RTL in lockstep with the C model) */

/* One unit cycle. Returns 0, or -1 after the unit failed (message in r->unit_msg). */
static int recsim_unit_cycle(struct recsim *r, const struct tiprof_rob_if *rob,
			     const struct tip_csr_req *csr, struct tip_csr_resp *resp)
{
	r->st.unit_cycles++;
	if (!r->unit) {
		tip_model_cycle(&r->m, rob, csr, resp);
		return 0;
	}
	if (r->unit_msg[0])
		return -1;
	if (r->unit->cycle(r->unit_ctx, rob, csr, resp, r->unit_msg, sizeof(r->unit_msg))) {
		if (!r->unit_msg[0])
			snprintf(r->unit_msg, sizeof(r->unit_msg), "the TIP unit failed");
		return -1;
	}
	return 0;
}

/* The C model (the unit itself, or the reference clocked in lockstep with it). */
static const struct tip_model *recsim_model(const struct recsim *r)
{
	return r->unit ? r->unit->model(r->unit_ctx) : &r->m;
}

/* Put the failure in err: the unit's report if it failed, else the formatted message. */
static void recsim_fail(const struct recsim *r, char *err, size_t errlen, const char *what,
			int e)
{
	if (r->unit_msg[0])
		snprintf(err, errlen, "%s", r->unit_msg);
	else
		snprintf(err, errlen, "%s: %s", what, tiprof_hw_strerror(e));
}

/* ---- CSR accessors: one access = one unit cycle while the core runs the S-mode handler */

/* The unit's inputs while the core executes the handler: the workload's oldest bank now
 * holds a handler instruction (priv S) that neither commits nor dispatches anything. The
 * sampler keeps counting, but CTRL.PRIV = U only drops triggers in these cycles, so no
 * handler cycle becomes a workload sample and no Drained sample completes on them. */
static void recsim_isr_rob(const struct recsim *r, struct tiprof_rob_if *rob)
{
	memset(rob, 0, sizeof(*rob));
	rob->head_bank = r->last.head_bank;
	rob->head_valid = (uint8_t)(1u << rob->head_bank);
	rob->head_pc[rob->head_bank] = RECSIM_ISR_PC;
	rob->priv = TIPROF_PRIV_S;
}

static int recsim_access(struct recsim *r, int we, uint16_t addr, uint64_t wdata,
			 uint64_t *rdata, uint8_t priv)
{
	struct tiprof_rob_if rob;
	struct tip_csr_req q = { 1, we, addr, wdata, priv };
	struct tip_csr_resp resp;

	recsim_isr_rob(r, &rob);
	if (recsim_unit_cycle(r, &rob, &q, &resp))
		return -EIO;
	r->st.csr_cycles++;
	if (resp.illegal) {
		r->hw_err = 1;
		return -EIO;
	}
	if (rdata)
		*rdata = resp.rdata;
	return 0;
}

static int recsim_csr_read(void *ctx, uint16_t addr, uint64_t *val)
{
	return recsim_access(ctx, 0, addr, 0, val, TIPROF_PRIV_S);
}

static int recsim_csr_write(void *ctx, uint16_t addr, uint64_t val)
{
	return recsim_access(ctx, 1, addr, val, NULL, TIPROF_PRIV_S);
}

static const struct tiprof_hw_ops recsim_ops = { recsim_csr_read, recsim_csr_write };

/* ---- draining */

/* Drain every complete sample into the file. Returns 0 or -1 with err set. */
static int recsim_drain(struct recsim *r, char *err, size_t errlen)
{
	int n;

	do {
		n = tiprof_hw_drain(&r->hw, r->buf, RECSIM_DEPTH);
		if (n < 0 || r->unit_msg[0]) {
			recsim_fail(r, err, errlen, "draining the TIP unit failed", n);
			return -1;
		}
		for (int i = 0; i < n; i++) {
			int e = sf_writer_sample(&r->w, &r->buf[i]);

			if (e == SF_EINVAL)
				r->st.lost_sw++;
			else if (e) {
				snprintf(err, errlen, "%s", r->w.msg);
				return -1;
			}
		}
	} while (n == RECSIM_DEPTH);
	return 0;
}

/* ---- open / cycle / close */

/* Contract in cmd-record-sim.h. */
struct recsim *recsim_open(const struct recsim_cfg *cfg, char *err, size_t errlen)
{
	struct recsim *r = calloc(1, sizeof(*r));
	struct tip_model_cfg mc = { cfg->w, 64, RECSIM_DEPTH, 0 };
	struct tiprof_hw_config hc;
	struct sf_header h;
	struct elf_image im;
	char *real = NULL;
	int e;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->unit = cfg->unit;
	r->unit_ctx = cfg->unit_ctx;
	if (!r->unit && tip_model_init(&r->m, &mc)) {
		snprintf(err, errlen, "cannot build a TIP unit of width %u", cfg->w);
		free(r);
		return NULL;
	}
	/* M-mode firmware (OpenSBI's job) lets S-mode reach the unit. */
	if (recsim_access(r, 1, TIPROF_TIP_MENABLE, TIPROF_TIP_MENABLE_S_MASK, NULL,
			  TIPROF_PRIV_M))
		goto hwfail;
	memset(&hc, 0, sizeof(hc));
	hc.period = cfg->period;
	hc.mode = cfg->rand_bits ? TIPROF_MODE_RANDOM_INTERVAL : TIPROF_MODE_PERIODIC;
	hc.rand_bits = (uint8_t)cfg->rand_bits;
	hc.insts = (uint8_t)(cfg->insts != 0);
	hc.priv_mask = 1u << TIPROF_PRIV_U;
	hc.irq = 1;
	hc.watermark = RECSIM_WATERMARK;
	tiprof_hw_init(&r->hw, &recsim_ops, r);
	if ((e = tiprof_hw_probe(&r->hw)) || (e = tiprof_hw_configure(&r->hw, &hc)) ||
	    (e = tiprof_hw_counters_clear(&r->hw))) {
		recsim_fail(r, err, errlen, "programming the TIP unit failed", e);
		goto fail;
	}
	sf_header_init(&h);
	h.w = r->hw.w;
	h.xlen = r->hw.xlen;
	h.fifo_depth = r->hw.depth;
	h.unit_id = r->hw.id;
	h.period = hc.period;
	h.mode = hc.mode;
	h.rand_bits = hc.rand_bits;
	h.priv_filter = hc.priv_mask;
	h.source = SF_SOURCE_SIMULATOR;
	if (elf_image_load(&im, cfg->elf, err, errlen))
		goto fail;
	memcpy(h.build_id, im.build_id, im.build_id_len);
	h.build_id_len = (uint8_t)im.build_id_len;
	elf_image_free(&im);
	real = realpath(cfg->elf, NULL);
	snprintf(h.elf_path, sizeof(h.elf_path), "%s", real ? real : cfg->elf);
	free(real);
	h.elf_path_len = (uint16_t)strlen(h.elf_path);
	if ((e = tiprof_hw_cycle(&r->hw, &h.start_cycle))) {
		recsim_fail(r, err, errlen, "reading TIP_CYCLE failed", e);
		goto fail;
	}
	if (sf_writer_open(&r->w, cfg->path, &h)) {
		snprintf(err, errlen, "%s", r->w.msg);
		goto fail;
	}
	r->w_open = 1;
	if ((e = tiprof_hw_start(&r->hw))) {
		recsim_fail(r, err, errlen, "starting the TIP unit failed", e);
		goto fail;
	}
	return r;
hwfail:
	if (r->unit_msg[0])
		snprintf(err, errlen, "%s", r->unit_msg);
	else
		snprintf(err, errlen, "the TIP unit refused M-mode access to TIP_MENABLE");
fail:
	recsim_abort(r);
	return NULL;
}

/* Contract in cmd-record-sim.h. */
int recsim_cycle(struct recsim *r, const struct tiprof_rob_if *rob, char *err, size_t errlen)
{
	if (recsim_unit_cycle(r, rob, NULL, NULL)) {
		snprintf(err, errlen, "%s", r->unit_msg);
		return -1;
	}
	r->fired = recsim_model(r)->fired;
	r->last = *rob;
	/* irq_o in the coming cycle, from the C model: the RTL's irq_o is compared with it when
	 * that cycle is clocked. */
	if (!tip_model_irq(recsim_model(r)))
		return 0;
	r->st.drains++;
	return recsim_drain(r, err, errlen);
}

/* Contract in recsim.h. */
int recsim_object(struct recsim *r, const struct sf_object *o, char *err, size_t errlen)
{
	if (sf_writer_object(&r->w, o)) {
		snprintf(err, errlen, "%s", r->w.msg);
		return -1;
	}
	return 0;
}

/* Contract in recsim.h. */
struct sf_writer *recsim_writer(struct recsim *r)
{
	return &r->w;
}

/* Contract in recsim.h. */
int recsim_fired(const struct recsim *r)
{
	return r->fired;
}

/* Contract in cmd-record-sim.h. */
int recsim_close(struct recsim *r, struct recsim_stats *st, char *err, size_t errlen)
{
	struct sf_trailer t;
	int e;

	memset(&t, 0, sizeof(t));
	if ((e = tiprof_hw_stop(&r->hw)) || recsim_drain(r, err, errlen)) {
		if (e)
			recsim_fail(r, err, errlen, "stopping the TIP unit failed", e);
		recsim_abort(r);
		return -1;
	}
	/* A Drained sample still waiting for its instruction at exit never completes. */
	r->st.lost_sw += recsim_model(r)->pending;
	if ((e = tiprof_hw_counters(&r->hw, &t.taken_unit, &t.lost_unit)) ||
	    (e = tiprof_hw_cycle(&r->hw, &t.end_cycle))) {
		recsim_fail(r, err, errlen, "reading the TIP counters failed", e);
		recsim_abort(r);
		return -1;
	}
	t.lost_sw = r->st.lost_sw;
	r->st.lost_unit = t.lost_unit;
	r->st.samples = r->w.samples;
	r->w_open = 0;
	if (sf_writer_close(&r->w, &t)) {
		snprintf(err, errlen, "%s", r->w.msg);
		recsim_abort(r);
		return -1;
	}
	if (st)
		*st = r->st;
	recsim_abort(r);
	return 0;
}

/* Contract in cmd-record-sim.h. */
void recsim_abort(struct recsim *r)
{
	if (!r)
		return;
	if (r->w_open)
		sf_writer_abort(&r->w);
	if (!r->unit)
		tip_model_fini(&r->m);
	free(r);
}
