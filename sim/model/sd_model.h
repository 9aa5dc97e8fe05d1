/* SPDX-License-Identifier: Apache-2.0 */
/* C reference model of the selective-dispatch front-end blocks (docs/seldisp-rtl.md): the flag
 * state (architectural + speculative + checkpoints), the decode filter and the profile flag
 * predictor (block descriptor table). Written from the document, not from the RTL, and with its
 * own flag state machine (not include/tiprof/seldisp.h's), so that the RTL is compared with an
 * independent reading of docs/seldisp.md section 3.
 *
 * Each block is evaluated in two steps per cycle, as the RTL is: *_eval computes the
 * combinational outputs of this cycle's inputs and the current state; *_clock moves the state to
 * the next cycle (the rising edge). Reset: *_reset. */
#ifndef TIPROF_SD_MODEL_H
#define TIPROF_SD_MODEL_H

#include <stdint.h>

#define SD_MAX_W     8
#define SD_MAX_CKPT  16
#define SD_MAX_BDT   256

/* pfstate as fields */
struct sd_pf {
	unsigned flags;   /* 4 bits */
	unsigned depth;   /* 0..8 */
	unsigned ovf;     /* 16 bits */
	unsigned err;     /* 1 bit */
	unsigned stack[8];
};

uint64_t sd_pf_pack(const struct sd_pf *s);
/* setpf (fn 0) / resetpf (1) / pushpf (2) / poppf (3) with mask m */
void sd_pf_op(struct sd_pf *s, unsigned fn, unsigned m);
/* csrw pfstate */
void sd_pf_warl(struct sd_pf *s, uint64_t v);

/* ---- tiprof_sd_flags ---------------------------------------------------------------- */
struct sd_flags_cfg { unsigned rw, ckpt; };
struct sd_flags_in {
	unsigned ret_valid;              /* bit i: slot i */
	unsigned ret_fn[SD_MAX_W], ret_mask[SD_MAX_W];
	int dec_valid; unsigned dec_fn, dec_mask;
	unsigned ckpt_we;                /* bit k */
	int restore; unsigned restore_id;
	int flush;
	int csr_we; uint64_t csr_wdata;
};
struct sd_flags_out { uint64_t arch, spec; unsigned flags; };
struct sd_flags {
	struct sd_flags_cfg cfg;
	struct sd_pf arch, spec, ckpt[SD_MAX_CKPT];
};
void sd_flags_reset(struct sd_flags *m, const struct sd_flags_cfg *cfg);
void sd_flags_eval(const struct sd_flags *m, struct sd_flags_out *o);
void sd_flags_clock(struct sd_flags *m, const struct sd_flags_in *in);

/* ---- tiprof_sd_filter --------------------------------------------------------------- */
enum { SD_CLS_OTHER = 0, SD_CLS_PROF = 1, SD_CLS_BLK = 2, SD_CLS_FLAG = 3 };
struct sd_filter_cfg { unsigned w, pcw, poplat; };
struct sd_slot {
	int valid;
	uint64_t pc, follow;
	unsigned cls, flag, fn, mask;
	int pskip;
};
struct sd_filter_in {
	int stall, flush;
	struct sd_slot s[SD_MAX_W];
	unsigned flags;
};
struct sd_filter_out {
	unsigned ready, disp;            /* bit i: slot i */
	int wr_valid; unsigned wr_fn, wr_mask;
	int upd_valid; uint64_t upd_pc, upd_follow; unsigned upd_flag; int upd_clear;
	int redirect; uint64_t redirect_pc;
};
struct sd_filter {
	struct sd_filter_cfg cfg;
	unsigned pop;                    /* poppf hazard counter */
};
void sd_filter_reset(struct sd_filter *m, const struct sd_filter_cfg *cfg);
void sd_filter_eval(const struct sd_filter *m, const struct sd_filter_in *in,
		    struct sd_filter_out *o);
void sd_filter_clock(struct sd_filter *m, const struct sd_filter_in *in);

/* ---- tiprof_sd_fpred ---------------------------------------------------------------- */
struct sd_fpred_cfg { unsigned entries, pcw, w, lockw; };
struct sd_fpred_in {
	int lk_valid; uint64_t lk_pc;
	int upd_valid; uint64_t upd_pc, upd_follow; unsigned upd_flag; int upd_clear;
	unsigned wf_valid;               /* bit i: slot i */
	unsigned wf_mask[SD_MAX_W];
	int wd_valid; unsigned wd_mask;
	int fe_flush;
};
struct sd_fpred_out { int hit, skip, locked; uint64_t target; };
struct sd_bdt_entry { int valid; uint64_t leader; unsigned off, flag; int pred_clear; };
struct sd_fpred {
	struct sd_fpred_cfg cfg;
	struct sd_bdt_entry e[SD_MAX_BDT];
	unsigned inflight[4];
};
void sd_fpred_reset(struct sd_fpred *m, const struct sd_fpred_cfg *cfg);
void sd_fpred_eval(const struct sd_fpred *m, const struct sd_fpred_in *in, struct sd_fpred_out *o);
void sd_fpred_clock(struct sd_fpred *m, const struct sd_fpred_in *in);
/* the flags each writer may change: setpf/resetpf its mask, poppf all, pushpf none */
unsigned sd_writer_mask(unsigned fn, unsigned mask);

#endif /* TIPROF_SD_MODEL_H */
