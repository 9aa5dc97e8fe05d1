/* SPDX-License-Identifier: Apache-2.0 */
/* Selective-dispatch testbench harness (see sd_harness.h, docs/seldisp-rtl.md section 4).
 *
 * Benches:
 *   directed  hand-worked scenes (sd_directed.c), recorded on the model at init and replayed
 *   random    phases of (a) a small front end over a fixed random program: fetch with BDT
 *             lookups, a fetch queue, decode through the filter, a ROB of flag writers and
 *             checkpointed branches, retirement, mispredicts, exceptions, csrw pfstate, resets;
 *             the blocks wired through the model's outputs; the speculative state is checked
 *             against the architectural state plus the ROB's writers every cycle; and (b) every
 *             input random within the blocks' contracts. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sd_harness.h"
#include "sd_bench.h"

/* ---- wire packing --------------------------------------------------------------------- */
static void put(uint32_t *v, unsigned *pos, uint64_t x, unsigned width)
{
	for (unsigned b = 0; b < width; b++, (*pos)++)
		if (x >> b & 1)
			v[*pos / 32] |= 1u << (*pos % 32);
}

static unsigned ckw(unsigned c)
{
	unsigned w = 0;

	while ((1u << w) < c)
		w++;
	return w ? w : 1;
}

static void pack_in(const struct sd_cfg *c, const struct sd_in *in, uint32_t v[3][SD_WIRE_WORDS])
{
	unsigned p = 0, W = c->w, P = c->pcw;

	memset(v, 0, 3 * SD_WIRE_WORDS * sizeof(uint32_t));
	put(v[0], &p, in->f.ret_valid, W);
	for (unsigned i = 0; i < W; i++)
		put(v[0], &p, in->f.ret_fn[i], 2);
	for (unsigned i = 0; i < W; i++)
		put(v[0], &p, in->f.ret_mask[i], 4);
	put(v[0], &p, (uint64_t)!!in->f.dec_valid, 1);
	put(v[0], &p, in->f.dec_fn, 2);
	put(v[0], &p, in->f.dec_mask, 4);
	put(v[0], &p, in->f.ckpt_we, c->ckpt);
	put(v[0], &p, (uint64_t)!!in->f.restore, 1);
	put(v[0], &p, in->f.restore_id, ckw(c->ckpt));
	put(v[0], &p, (uint64_t)!!in->f.flush, 1);
	put(v[0], &p, (uint64_t)!!in->f.csr_we, 1);
	put(v[0], &p, in->f.csr_wdata, 64);

	p = 0;
	put(v[1], &p, (uint64_t)!!in->d.stall, 1);
	put(v[1], &p, (uint64_t)!!in->d.flush, 1);
	for (unsigned i = 0; i < W; i++)
		put(v[1], &p, (uint64_t)!!in->d.s[i].valid, 1);
	for (unsigned i = 0; i < W; i++)
		put(v[1], &p, in->d.s[i].pc, P);
	for (unsigned i = 0; i < W; i++)
		put(v[1], &p, in->d.s[i].cls, 2);
	for (unsigned i = 0; i < W; i++)
		put(v[1], &p, in->d.s[i].flag, 2);
	for (unsigned i = 0; i < W; i++)
		put(v[1], &p, in->d.s[i].fn, 2);
	for (unsigned i = 0; i < W; i++)
		put(v[1], &p, in->d.s[i].mask, 4);
	for (unsigned i = 0; i < W; i++)
		put(v[1], &p, in->d.s[i].follow, P);
	for (unsigned i = 0; i < W; i++)
		put(v[1], &p, (uint64_t)!!in->d.s[i].pskip, 1);
	put(v[1], &p, in->d.flags, 4);

	p = 0;
	put(v[2], &p, (uint64_t)!!in->p.lk_valid, 1);
	put(v[2], &p, in->p.lk_pc, P);
	put(v[2], &p, (uint64_t)!!in->p.upd_valid, 1);
	put(v[2], &p, in->p.upd_pc, P);
	put(v[2], &p, in->p.upd_follow, P);
	put(v[2], &p, in->p.upd_flag, 2);
	put(v[2], &p, (uint64_t)!!in->p.upd_clear, 1);
	put(v[2], &p, in->p.wf_valid, W);
	for (unsigned i = 0; i < W; i++)
		put(v[2], &p, in->p.wf_mask[i], 4);
	put(v[2], &p, (uint64_t)!!in->p.wd_valid, 1);
	put(v[2], &p, in->p.wd_mask, 4);
	put(v[2], &p, (uint64_t)!!in->p.fe_flush, 1);
}

static void pack_out(const struct sd_cfg *c, const struct sd_out *o, uint32_t v[3][SD_WIRE_WORDS])
{
	unsigned p = 0, W = c->w, P = c->pcw;

	memset(v, 0, 3 * SD_WIRE_WORDS * sizeof(uint32_t));
	put(v[0], &p, o->f.arch, 64);
	put(v[0], &p, o->f.spec, 64);
	put(v[0], &p, o->f.flags, 4);
	p = 0;
	put(v[1], &p, o->d.ready, W);
	put(v[1], &p, o->d.disp, W);
	put(v[1], &p, (uint64_t)!!o->d.wr_valid, 1);
	put(v[1], &p, o->d.wr_fn, 2);
	put(v[1], &p, o->d.wr_mask, 4);
	put(v[1], &p, (uint64_t)!!o->d.upd_valid, 1);
	put(v[1], &p, o->d.upd_pc, P);
	put(v[1], &p, o->d.upd_follow, P);
	put(v[1], &p, o->d.upd_flag, 2);
	put(v[1], &p, (uint64_t)!!o->d.upd_clear, 1);
	put(v[1], &p, (uint64_t)!!o->d.redirect, 1);
	put(v[1], &p, o->d.redirect_pc, P);
	p = 0;
	put(v[2], &p, (uint64_t)!!o->p.hit, 1);
	put(v[2], &p, (uint64_t)!!o->p.skip, 1);
	put(v[2], &p, (uint64_t)!!o->p.locked, 1);
	put(v[2], &p, o->p.hit ? o->p.target : 0, P);   /* the target means nothing on a miss */
}

/* ---- the harness ---------------------------------------------------------------------- */
struct sd_harness {
	struct sd_cfg cfg;
	struct sd_sys sys;          /* the model */
	char bench[32], sim[16];
	uint64_t seed, cycles, cycle, compared;
	int failed, have_cur, done;
	struct sd_in cur;           /* inputs of the cycle in flight */
	struct sd_out exp;          /* the model's outputs for it */
	/* directed: recorded inputs */
	struct sd_in *rec;
	size_t nrec, irec;
	struct sd_rand *rnd;
};

void sd_sys_reset(struct sd_sys *s, const struct sd_cfg *c)
{
	struct sd_flags_cfg fc = { c->w, c->ckpt };
	struct sd_filter_cfg dc = { c->w, c->pcw, c->poplat };
	struct sd_fpred_cfg pc = { c->entries, c->pcw, c->w, c->lockw };

	sd_flags_reset(&s->f, &fc);
	sd_filter_reset(&s->d, &dc);
	sd_fpred_reset(&s->p, &pc);
}

void sd_sys_eval(const struct sd_sys *s, const struct sd_in *in, struct sd_out *o)
{
	sd_flags_eval(&s->f, &o->f);
	sd_filter_eval(&s->d, &in->d, &o->d);
	sd_fpred_eval(&s->p, &in->p, &o->p);
}

void sd_sys_clock(struct sd_sys *s, const struct sd_cfg *c, const struct sd_in *in)
{
	if (in->rst) {
		sd_sys_reset(s, c);
		return;
	}
	sd_flags_clock(&s->f, &in->f);
	sd_filter_clock(&s->d, &in->d);
	sd_fpred_clock(&s->p, &in->p);
}

void sd_wire(const struct sd_sys *s, struct sd_in *in, int lock)
{
	struct sd_flags_out fo;
	struct sd_filter_out d;

	sd_flags_eval(&s->f, &fo);
	in->d.flags = fo.flags;
	sd_filter_eval(&s->d, &in->d, &d);
	in->f.dec_valid = d.wr_valid;
	in->f.dec_fn = d.wr_fn;
	in->f.dec_mask = d.wr_mask;
	in->p.upd_valid = d.upd_valid;
	in->p.upd_pc = d.upd_pc;
	in->p.upd_follow = d.upd_follow;
	in->p.upd_flag = d.upd_flag;
	in->p.upd_clear = d.upd_clear;
	in->p.wd_valid = lock && d.wr_valid && sd_writer_mask(d.wr_fn, d.wr_mask) != 0;
	in->p.wd_mask = in->p.wd_valid ? sd_writer_mask(d.wr_fn, d.wr_mask) : 0;
}

void sd_harness_fail(struct sd_harness *h, const char *why)
{
	if (!h)
		return;
	if (!h->failed)
		printf("sd-harness: FAIL %s %s cycle %" PRIu64 ": %s\n", h->sim, h->bench, h->cycle, why);
	h->failed = 1;
}

int sd_harness_init(struct sd_harness **hp, const struct sd_cfg *cfg, const char *bench,
		    uint64_t seed, uint64_t cycles, const char *outdir, const char *sim)
{
	struct sd_harness *h = calloc(1, sizeof(*h));

	(void)outdir;
	*hp = h;
	if (!h)
		return -1;
	h->cfg = *cfg;
	snprintf(h->bench, sizeof(h->bench), "%s", bench);
	snprintf(h->sim, sizeof(h->sim), "%s", sim);
	h->seed = seed;
	h->cycles = cycles;
	if (cfg->w < 1 || cfg->w > SD_MAX_W || cfg->ckpt < 1 || cfg->ckpt > SD_MAX_CKPT ||
	    cfg->entries < 2 || cfg->entries > SD_MAX_BDT || (cfg->entries & (cfg->entries - 1)) ||
	    cfg->pcw < 32 || cfg->pcw > 64) {
		printf("sd-harness: bad configuration\n");
		h->failed = 1;
		return -1;
	}
	sd_sys_reset(&h->sys, cfg);
	if (!strcmp(bench, "directed")) {
		if (sd_directed_record(cfg, &h->rec, &h->nrec)) {
			h->failed = 1;
			printf("sd-harness: FAIL %s directed: a scene's expectation failed on the model\n",
			       sim);
			return -1;
		}
	} else if (!strcmp(bench, "random")) {
		h->rnd = sd_rand_new(cfg, seed);
	} else {
		printf("sd-harness: unknown bench '%s'\n", bench);
		h->failed = 1;
		return -1;
	}
	printf("sd-harness: %s %s W=%u PcW=%u Ckpt=%u Entries=%u PopLat=%u seed %" PRIu64 "\n",
	       sim, bench, cfg->w, cfg->pcw, cfg->ckpt, cfg->entries, cfg->poplat, seed);
	return 0;
}

/* the failing cycle's inputs, for the report */
static void dump_inputs(const struct sd_harness *h)
{
	const struct sd_in *in = &h->cur;

	printf("sd-harness: flags in: ret %x dec %d fn %u m %x ckpt_we %x restore %d/%u flush %d "
	       "csr %d %016" PRIx64 "\n", in->f.ret_valid, in->f.dec_valid, in->f.dec_fn,
	       in->f.dec_mask, in->f.ckpt_we, in->f.restore, in->f.restore_id, in->f.flush,
	       in->f.csr_we, in->f.csr_wdata);
	printf("sd-harness: filter in: stall %d flush %d flags %x\n", in->d.stall, in->d.flush,
	       in->d.flags);
	for (unsigned i = 0; i < h->cfg.w; i++)
		printf("sd-harness:   slot %u: valid %d pc %" PRIx64 " cls %u flag %u fn %u mask %x "
		       "follow %" PRIx64 " pskip %d\n", i, in->d.s[i].valid, in->d.s[i].pc,
		       in->d.s[i].cls, in->d.s[i].flag, in->d.s[i].fn, in->d.s[i].mask,
		       in->d.s[i].follow, in->d.s[i].pskip);
	printf("sd-harness: fpred in: lk %d %" PRIx64 " upd %d %" PRIx64 " -> %" PRIx64
	       " flag %u clear %d wf %x wd %d %x fe_flush %d\n", in->p.lk_valid, in->p.lk_pc,
	       in->p.upd_valid, in->p.upd_pc, in->p.upd_follow, in->p.upd_flag, in->p.upd_clear,
	       in->p.wf_valid, in->p.wd_valid, in->p.wd_mask, in->p.fe_flush);
}

static void compare(struct sd_harness *h, uint32_t obs[3][SD_WIRE_WORDS])
{
	uint32_t e[3][SD_WIRE_WORDS];
	static const char *const blk[3] = { "tiprof_sd_flags", "tiprof_sd_filter", "tiprof_sd_fpred" };

	pack_out(&h->cfg, &h->exp, e);
	if (!(obs[2][0] & 1)) {                  /* a miss: lk_target_o is undefined */
		obs[2][0] &= 7;
		memset(&obs[2][1], 0, (SD_WIRE_WORDS - 1) * sizeof(uint32_t));
	}
	for (int b = 0; b < 3; b++) {
		if (memcmp(e[b], obs[b], sizeof(e[b]))) {
			char why[512];
			int n = snprintf(why, sizeof(why), "%s outputs differ (word: rtl/model)", blk[b]);

			for (int k = 0; k < 6 && n < (int)sizeof(why) - 40; k++)
				n += snprintf(why + n, sizeof(why) - n, " %d:%08x/%08x", k, obs[b][k], e[b][k]);
			sd_harness_fail(h, why);
			dump_inputs(h);
		}
	}
	h->compared++;
}

void sd_harness_expected(const struct sd_harness *h, uint32_t obs[3][SD_WIRE_WORDS])
{
	pack_out(&h->cfg, &h->exp, obs);
}

int sd_harness_tick(struct sd_harness *h, uint32_t obs[3][SD_WIRE_WORDS], int *rst,
		    uint32_t in[3][SD_WIRE_WORDS])
{
	if (h->failed)
		return 1;
	if (h->have_cur) {
		if (!h->cur.rst)
			compare(h, obs);
		sd_sys_clock(&h->sys, &h->cfg, &h->cur);
		h->cycle++;
		if (h->rnd && sd_rand_after(h->rnd, &h->sys))
			sd_harness_fail(h, sd_rand_why(h->rnd));
		if (h->failed)
			return 1;
	}
	if (!h->have_cur) {
		memset(&h->cur, 0, sizeof(h->cur));   /* the first cycle resets the RTL */
		h->cur.rst = 1;
	} else if (h->rec) {
		if (h->irec >= h->nrec) {
			h->done = 1;
			return 1;
		}
		h->cur = h->rec[h->irec++];
	} else {
		if (h->cycle >= h->cycles) {
			h->done = 1;
			return 1;
		}
		sd_rand_next(h->rnd, &h->sys, &h->cur);
	}
	sd_sys_eval(&h->sys, &h->cur, &h->exp);
	pack_in(&h->cfg, &h->cur, in);
	*rst = h->cur.rst;
	h->have_cur = 1;
	return 0;
}

int sd_harness_final(struct sd_harness *h)
{
	int rc;

	if (!h)
		return 1;
	/* short runs (Icarus) report coverage; runs of 200k cycles or more must fill every bin */
	if (!h->failed && h->rnd && h->cycles >= 200000 && sd_rand_coverage(h->rnd))
		sd_harness_fail(h, "a coverage bin was not reached (see the coverage line)");
	if (!h->failed && !h->done)
		sd_harness_fail(h, "the simulation ended before the bench did");
	if (h->rnd)
		sd_rand_report(h->rnd);
	rc = h->failed ? 1 : 0;
	if (!h->failed)
		printf("sd-harness: PASS %s %" PRIu64 " cycles compared\n", h->bench, h->compared);
	free(h->rec);
	sd_rand_free(h->rnd);
	free(h);
	return rc;
}
