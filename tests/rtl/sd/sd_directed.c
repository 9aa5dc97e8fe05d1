/* SPDX-License-Identifier: Apache-2.0 */
/* Directed scenes of the selective-dispatch blocks (docs/seldisp-rtl.md section 4). Every
 * expectation is worked by hand from docs/seldisp.md section 3 and docs/seldisp-rtl.md; the scenes
 * run on the model at init (each EXPECT checked there) and their inputs are replayed to the RTL,
 * which must equal the model every cycle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sd_bench.h"

struct dctx {
	const struct sd_cfg *c;
	struct sd_sys s;
	struct sd_in *rec;
	size_t n, cap;
	int fail;
	const char *scene;
};

#define EXPECT(cond)                                                                          \
	do {                                                                                  \
		if (!(cond)) {                                                                \
			printf("sd-directed: %s: expectation failed: %s (line %d)\n", x->scene,   \
			       #cond, __LINE__);                                              \
			x->fail = 1;                                                          \
		}                                                                             \
	} while (0)

/* one cycle: outputs of this cycle's inputs, then the edge */
static struct sd_out step(struct dctx *x, const struct sd_in *in)
{
	struct sd_out o;

	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 256;
		x->rec = realloc(x->rec, x->cap * sizeof(*x->rec));
		if (!x->rec)
			abort();
	}
	x->rec[x->n++] = *in;
	sd_sys_eval(&x->s, in, &o);
	sd_sys_clock(&x->s, x->c, in);
	return o;
}

static struct sd_out wired(struct dctx *x, struct sd_in *in, int lock)
{
	sd_wire(&x->s, in, lock);
	return step(x, in);
}

static uint64_t arch(const struct dctx *x)
{
	struct sd_flags_out o;

	sd_flags_eval(&x->s.f, &o);
	return o.arch;
}

static uint64_t spec(const struct dctx *x)
{
	struct sd_flags_out o;

	sd_flags_eval(&x->s.f, &o);
	return o.spec;
}

static void clr(struct sd_in *in)
{
	memset(in, 0, sizeof(*in));
}

static void other(struct sd_in *in, unsigned i, uint64_t pc)
{
	in->d.s[i] = (struct sd_slot){ .valid = 1, .pc = pc, .cls = SD_CLS_OTHER };
}

static void prof(struct sd_in *in, unsigned i, uint64_t pc, unsigned f)
{
	in->d.s[i] = (struct sd_slot){ .valid = 1, .pc = pc, .cls = SD_CLS_PROF, .flag = f };
}

static void flagop(struct sd_in *in, unsigned i, uint64_t pc, unsigned fn, unsigned m)
{
	in->d.s[i] = (struct sd_slot){ .valid = 1, .pc = pc, .cls = SD_CLS_FLAG, .fn = fn, .mask = m };
}

static void blk(struct sd_in *in, unsigned i, uint64_t pc, unsigned f, uint64_t follow, int pskip)
{
	in->d.s[i] = (struct sd_slot){ .valid = 1, .pc = pc, .cls = SD_CLS_BLK, .flag = f,
				       .follow = follow, .pskip = pskip };
}

/* csrw pfstate v, with the flush a serializing CSR write causes */
static void csrw(struct dctx *x, uint64_t v)
{
	struct sd_in in;

	clr(&in);
	in.f.csr_we = 1;
	in.f.csr_wdata = v;
	in.d.flush = 1;
	in.p.fe_flush = 1;
	step(x, &in);
}

/* retire a list of flag operations, up to W per cycle (chained through the retire slots) */
static void retire(struct dctx *x, const unsigned (*ops)[2], unsigned n)
{
	struct sd_in in;
	unsigned i = 0;

	while (i < n) {
		clr(&in);
		for (unsigned k = 0; k < x->c->w && i < n; k++, i++) {
			in.f.ret_valid |= 1u << k;
			in.f.ret_fn[k] = ops[i][0];
			in.f.ret_mask[k] = ops[i][1];
		}
		step(x, &in);
	}
}

static void scene_reset(struct dctx *x)
{
	struct sd_in in;
	struct sd_out o;

	x->scene = "reset";
	clr(&in);
	in.rst = 1;
	step(x, &in);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = 0x1000;
	o = step(x, &in);
	EXPECT(o.f.arch == 0 && o.f.spec == 0 && o.f.flags == 0);
	EXPECT(!o.p.hit && !o.p.skip && !o.p.locked);
}

/* A setpf on the wrong path of a mispredicted branch must not survive the restore; a flush at
 * commit reloads the speculative copy from the architectural state. */
static void scene_restore(struct dctx *x)
{
	struct sd_in in;
	struct sd_out o;

	x->scene = "flag-restore";
	csrw(x, 0);
	clr(&in);
	flagop(&in, 0, 0x100, 0, 0x1);                 /* setpf 0x1 */
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 1 && o.d.disp == 1 && o.d.wr_valid && o.d.wr_fn == 0 && o.d.wr_mask == 1);
	EXPECT(spec(x) == 0x1 && arch(x) == 0);
	clr(&in);
	other(&in, 0, 0x104);                          /* a branch: checkpoint 0 */
	in.f.ckpt_we = 1;
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 1 && o.d.disp == 1 && !o.d.wr_valid);
	clr(&in);
	flagop(&in, 0, 0x108, 2, 0);                   /* pushpf (wrong path from here) */
	o = wired(x, &in, 0);
	EXPECT(spec(x) == (0x1ull << 32 | 0x10 | 0x1));
	clr(&in);
	flagop(&in, 0, 0x10c, 1, 0x1);                 /* resetpf 0x1 */
	if (x->c->w > 1)
		prof(&in, 1, 0x110, 0);                /* after the writer: not accepted */
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 1 && o.d.disp == 1 && o.d.wr_fn == 1);
	EXPECT(spec(x) == (0x1ull << 32 | 0x10));      /* flags 0, depth 1, entry 0 = 1 */
	clr(&in);
	prof(&in, 0, 0x110, 0);                        /* pf.inc 0 sees the clear flag: dropped */
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 1 && o.d.disp == 0);
	clr(&in);
	in.f.restore = 1;                              /* the branch mispredicted */
	in.f.restore_id = 0;
	in.d.flush = 1;
	in.p.fe_flush = 1;
	prof(&in, 0, 0x114, 0);
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 0 && !o.d.wr_valid);
	EXPECT(spec(x) == 0x1 && arch(x) == 0);        /* the setpf before the branch survives */
	clr(&in);
	prof(&in, 0, 0x200, 0);                        /* the right path: pf.inc 0 dispatched */
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 1 && o.d.disp == 1);
	clr(&in);
	in.f.ret_valid = 1;                            /* setpf 0x1 retires */
	in.f.ret_fn[0] = 0;
	in.f.ret_mask[0] = 1;
	step(x, &in);
	EXPECT(arch(x) == 0x1);
	clr(&in);
	flagop(&in, 0, 0x204, 0, 0x2);                 /* setpf 0x2, then an exception flushes */
	wired(x, &in, 0);
	EXPECT(spec(x) == 0x3);
	clr(&in);
	in.f.flush = 1;
	in.d.flush = 1;
	in.p.fe_flush = 1;
	step(x, &in);
	EXPECT(spec(x) == 0x1 && arch(x) == 0x1);
	if (x->c->ckpt >= 2) {
		/* a checkpoint written in the cycle of a restore takes the state before it */
		clr(&in);
		in.f.ckpt_we = 1;                      /* checkpoint 0 = {flags 1} (a branch ... */
		flagop(&in, 0, 0x300, 0, 0x4);         /* ... older than this setpf 0x4) */
		wired(x, &in, 0);
		EXPECT(spec(x) == 0x5);
		clr(&in);
		in.f.ckpt_we = 2;                      /* checkpoint 1 = {flags 5} */
		in.f.restore = 1;                      /* while checkpoint 0 is restored */
		in.f.restore_id = 0;
		in.d.flush = 1;
		step(x, &in);
		EXPECT(spec(x) == 0x1);
		clr(&in);
		in.f.restore = 1;
		in.f.restore_id = 1;
		in.d.flush = 1;
		step(x, &in);
		EXPECT(spec(x) == 0x5);
		clr(&in);
		in.f.flush = 1;
		in.d.flush = 1;
		step(x, &in);
		EXPECT(spec(x) == 0x1);
	}
}

/* pushpf beyond the stack counts in OVF, poppf undoes those first, an empty poppf sets ERR; OVF
 * at its limit sets ERR; the WARL write. */
static void scene_stack(struct dctx *x)
{
	static const unsigned fill[][2] = { { 0, 1 }, { 2, 0 }, { 0, 2 }, { 2, 0 }, { 0, 4 }, { 2, 0 },
					    { 2, 0 }, { 2, 0 }, { 2, 0 }, { 2, 0 }, { 2, 0 }, { 2, 0 } };
	static const unsigned pop2[][2] = { { 1, 0xf }, { 3, 0 }, { 3, 0 } };
	static const unsigned pop7[][2] = { { 3, 0 }, { 3, 0 }, { 3, 0 }, { 3, 0 }, { 3, 0 },
					    { 3, 0 }, { 3, 0 } };
	static const unsigned pop1[][2] = { { 3, 0 } };
	static const unsigned push1[][2] = { { 2, 0 } };

	x->scene = "stack";
	csrw(x, 0);
	retire(x, fill, 12);
	EXPECT(arch(x) == 0x7777773100000187ull);      /* flags 7, depth 8, OVF 1 */
	EXPECT(spec(x) == 0);                           /* nothing decoded */
	retire(x, pop2, 3);
	EXPECT(arch(x) == 0x0777773100000077ull);      /* resetpf; pop: OVF 0; pop: entry 7 */
	retire(x, pop7, 7);
	EXPECT(arch(x) == 0x1);                         /* back at entry 0 */
	retire(x, pop1, 1);
	EXPECT(arch(x) == 0x0000000001000001ull);      /* underflow: ERR, flags kept */
	csrw(x, 0x1234567800ffff80ull);                 /* depth 8, OVF at its limit */
	EXPECT(arch(x) == 0x1234567800ffff80ull && spec(x) == 0x1234567800ffff80ull);
	retire(x, push1, 1);
	EXPECT(arch(x) == 0x1234567801ffff80ull);      /* ERR, OVF stays */
	csrw(x, ~0ull);
	EXPECT(arch(x) == 0xffffffff01ffff8full && spec(x) == 0xffffffff01ffff8full);
	csrw(x, 0xabcdef12fe000035ull);                 /* depth 3: entries 3..7 and bits 31:25 read 0 */
	EXPECT(arch(x) == 0x00000f1200000035ull && spec(x) == 0x00000f1200000035ull);
	csrw(x, 0x00000000000000f0ull);                 /* DEPTH 15 reads 8 */
	EXPECT(arch(x) == 0x80);
}

/* The decode filter on a group: a clear flag drops pf.inc, a flag operation ends the group, the
 * younger pf.inc sees the new flag next cycle; stall; the poppf hazard. */
static void scene_filter(struct dctx *x)
{
	struct sd_in in;
	struct sd_out o;
	unsigned w = x->c->w;

	x->scene = "filter";
	csrw(x, 0);
	clr(&in);
	other(&in, 0, 0x400);
	if (w >= 4) {
		prof(&in, 1, 0x404, 0);
		flagop(&in, 2, 0x408, 0, 0x1);
		prof(&in, 3, 0x40c, 0);
		o = wired(x, &in, 0);
		EXPECT(o.d.ready == 0x7 && o.d.disp == 0x5 && o.d.wr_valid && o.d.wr_mask == 1);
		clr(&in);
		prof(&in, 0, 0x40c, 0);
		prof(&in, 1, 0x410, 1);                /* pf.incr 1: flag 1 clear */
		other(&in, 2, 0x414);
		other(&in, 3, 0x418);
		o = wired(x, &in, 0);
		EXPECT(o.d.ready == 0xf && o.d.disp == 0xd);
	} else {
		if (w == 2)
			prof(&in, 1, 0x404, 0);
		o = wired(x, &in, 0);
		EXPECT(o.d.ready == (w == 2 ? 3u : 1u) && o.d.disp == 1);
		clr(&in);
		flagop(&in, 0, 0x408, 0, 0x1);
		o = wired(x, &in, 0);
		EXPECT(o.d.ready == 1 && o.d.wr_valid);
		clr(&in);
		prof(&in, 0, 0x40c, 0);
		o = wired(x, &in, 0);
		EXPECT(o.d.ready == 1 && o.d.disp == 1);
	}
	clr(&in);                                       /* stall: nothing accepted */
	in.d.stall = 1;
	prof(&in, 0, 0x41c, 0);
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 0 && o.d.disp == 0);
	clr(&in);                                       /* invalid slots are skipped */
	if (w >= 2) {
		other(&in, 1, 0x41c);
		o = wired(x, &in, 0);
		EXPECT(o.d.ready == 2 && o.d.disp == 2);
	}
	/* poppf: profile instructions wait PopLat cycles; other instructions do not */
	clr(&in);
	flagop(&in, 0, 0x420, 2, 0);                    /* pushpf */
	wired(x, &in, 0);
	clr(&in);
	flagop(&in, 0, 0x424, 3, 0);                    /* poppf */
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 1);
	for (unsigned k = 0; k < x->c->poplat; k++) {
		clr(&in);
		if (w >= 2) {
			other(&in, 0, 0x428);
			prof(&in, 1, 0x42c, 0);
		} else {
			prof(&in, 0, 0x42c, 0);
		}
		o = wired(x, &in, 0);
		EXPECT(o.d.ready == (w >= 2 ? 1u : 0u));  /* the other goes, the pf.inc waits */
	}
	clr(&in);
	prof(&in, 0, 0x42c, 0);
	o = wired(x, &in, 0);
	EXPECT(o.d.ready == 1 && o.d.disp == 1);
}

/* The profile flag predictor: a pf.blk with a clear flag redirects at decode and trains its
 * entry; the next fetch skips the block; a fetched setpf locks the entry; once the flag is set the
 * skip is a misprediction the decode filter repairs (redirect to the leader's successor) and the
 * entry retrains; aliasing entries replace each other. */
static void scene_fpred(struct dctx *x)
{
	const uint64_t L = 0x1000, F = 0x1020, L2 = 0x1000 + 2ull * x->c->entries;
	struct sd_in in;
	struct sd_out o;

	x->scene = "fpred";
	csrw(x, 0);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	blk(&in, 0, L, 0, F, 0);                        /* no entry: fetched the block */
	in.p.fe_flush = 1;                              /* the redirect below flushes fetch */
	o = wired(x, &in, 0);
	EXPECT(!o.p.hit && !o.p.skip);
	EXPECT(o.d.ready == 1 && o.d.disp == 0 && o.d.redirect && o.d.redirect_pc == F);
	EXPECT(o.d.upd_valid && o.d.upd_clear && o.d.upd_pc == L && o.d.upd_follow == F);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && o.p.skip && !o.p.locked && o.p.target == F);
	clr(&in);
	blk(&in, 0, L, 0, F, 1);                        /* the skipped leader reaches decode */
	if (x->c->w > 1)
		other(&in, 1, F);
	o = wired(x, &in, 0);
	EXPECT(!o.d.redirect && o.d.upd_clear && o.d.ready == 1 && o.d.disp == 0);
	clr(&in);
	in.p.wf_valid = 1;                              /* setpf 0x1 fetched ... */
	in.p.wf_mask[0] = sd_writer_mask(0, 0x1);
	in.p.lk_valid = 1;                              /* ... in the cycle L is looked up */
	in.p.lk_pc = L;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && !o.p.skip && o.p.locked);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	flagop(&in, 0, 0x1100, 0, 0x1);                 /* setpf 0x1 decodes */
	o = wired(x, &in, 1);
	EXPECT(o.p.hit && !o.p.skip && o.p.locked && o.d.wr_valid);
	EXPECT(spec(x) == 0x1);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && o.p.skip && !o.p.locked);     /* still predicts clear */
	clr(&in);
	blk(&in, 0, L, 0, F, 1);                        /* mispredicted skip: flag 0 is set */
	if (x->c->w > 1)
		other(&in, 1, F);                      /* from the wrong address: not accepted */
	in.p.fe_flush = 1;
	o = wired(x, &in, 0);
	EXPECT(o.d.redirect && o.d.redirect_pc == L + 4 && o.d.ready == 1 && o.d.disp == 0);
	EXPECT(o.d.upd_valid && !o.d.upd_clear);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && !o.p.skip);                   /* retrained: execute the block */
	clr(&in);
	blk(&in, 0, L, 0, F, 0);
	o = wired(x, &in, 0);
	EXPECT(!o.d.redirect && o.d.ready == 1 && o.d.disp == 0);
	/* pushpf changes no flag: no lock; poppf may change all: lock */
	clr(&in);
	in.p.wf_valid = 1;
	in.p.wf_mask[0] = sd_writer_mask(2, 0);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && !o.p.locked);
	clr(&in);
	in.p.wf_valid = 1;
	in.p.wf_mask[0] = sd_writer_mask(3, 0);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && o.p.locked);
	clr(&in);                                        /* a front-end flush unlocks */
	in.p.fe_flush = 1;
	in.d.flush = 1;
	wired(x, &in, 0);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && !o.p.locked);
	/* an aliasing leader (same index, another tag) misses, then replaces the entry */
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L2;
	o = wired(x, &in, 0);
	EXPECT(!o.p.hit);
	clr(&in);
	csrw(x, 0);
	blk(&in, 0, L2, 3, L2 + 8, 0);
	in.p.fe_flush = 1;
	o = wired(x, &in, 0);
	EXPECT(o.d.redirect && o.d.redirect_pc == L2 + 8);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L;
	o = wired(x, &in, 0);
	EXPECT(!o.p.hit);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = L2;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && o.p.skip && o.p.target == L2 + 8);
	clr(&in);                                        /* the largest block: 4094 bytes */
	blk(&in, 0, 0x2000, 1, 0x2000 + 4094, 0);
	in.p.fe_flush = 1;
	o = wired(x, &in, 0);
	EXPECT(o.d.redirect && o.d.redirect_pc == 0x2000 + 4094);
	clr(&in);
	in.p.lk_valid = 1;
	in.p.lk_pc = 0x2000;
	o = wired(x, &in, 0);
	EXPECT(o.p.hit && o.p.skip && o.p.target == 0x2000 + 4094);
	/* every tag bit counts: leaders differing from 0x2000 in one bit above the index miss */
	for (unsigned b = 0; b < x->c->pcw; b++) {
		uint64_t pc = 0x2000 ^ (1ull << b);

		if (b == 0 || (b >= 1 && (1u << (b - 1)) < x->c->entries))
			continue;                      /* bit 0 is ignored; index bits elsewhere */
		clr(&in);
		in.p.lk_valid = 1;
		in.p.lk_pc = pc;
		o = wired(x, &in, 0);
		EXPECT(!o.p.hit);
	}
}

int sd_directed_record(const struct sd_cfg *c, struct sd_in **rec, size_t *n)
{
	struct dctx x = { .c = c };

	sd_sys_reset(&x.s, c);
	scene_reset(&x);
	scene_restore(&x);
	scene_stack(&x);
	scene_filter(&x);
	scene_fpred(&x);
	*rec = x.rec;
	*n = x.n;
	printf("sd-directed: 5 scenes, %zu cycles%s\n", x.n, x.fail ? ", FAILED on the model" : "");
	return x.fail ? -1 : 0;
}
