/* SPDX-License-Identifier: Apache-2.0 */
/* Random bench of the selective-dispatch blocks (see sd_harness.c): phases of a small front end
 * over a fixed random program (the blocks wired through the model) and phases of free random
 * inputs within the blocks' contracts. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sd_bench.h"

#define PROG_N   512
#define QCAP     12
#define ROBCAP   64

struct pinsn { unsigned cls, flag, fn, mask, k; int branch; };
struct qent { struct sd_slot s; };
struct robent { int writer; unsigned fn, mask; int ckpt; };

enum { C_PROF_DROP, C_PROF_DISP, C_BLK_REDIRECT, C_SKIP_OK, C_SKIP_MISS, C_BLK_FALL, C_LOCKED,
       C_RESTORE, C_EXCEPTION, C_CSR, C_RESET, C_OVF, C_ERR, C_NOCKPT, C_POPWAIT, C_FREE,
       C_RETIRE2, C_NBINS };
static const char *const bin_name[C_NBINS] = {
	"prof_drop", "prof_disp", "blk_redirect", "skip_ok", "skip_miss", "blk_fall", "locked",
	"restore", "exception", "csr", "reset", "ovf", "err", "no_ckpt", "pop_wait", "free",
	"retire2",
};

struct sd_rand {
	struct sd_cfg c;
	uint64_t s, pm, base;
	struct pinsn prog[PROG_N];
	int free_phase;
	uint64_t left;
	uint64_t fetch_pc;
	struct qent q[QCAP + SD_MAX_W];
	unsigned nq;
	struct robent rob[ROBCAP];
	unsigned nrob;
	unsigned ckfree;            /* bit k: checkpoint k free */
	uint64_t pool[8];           /* free phase: leaders to look up */
	uint64_t bins[C_NBINS];
	char why[256];
	struct sd_pf prev;          /* architectural state before the edge */
};

static uint64_t rnd(struct sd_rand *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned below(struct sd_rand *r, unsigned n)
{
	return (unsigned)(rnd(r) % n);
}

static int chance(struct sd_rand *r, unsigned per_mille)
{
	return below(r, 1000) < per_mille;
}

static int in_prog(const struct sd_rand *r, uint64_t pc)
{
	return ((pc - r->base) & r->pm) < 4ull * PROG_N && !(pc & 3);
}

static const struct pinsn *at(const struct sd_rand *r, uint64_t pc)
{
	return &r->prog[((pc - r->base) & r->pm) / 4];
}

struct sd_rand *sd_rand_new(const struct sd_cfg *c, uint64_t seed)
{
	struct sd_rand *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	r->c = *c;
	r->s = seed * 0x2545f4914f6cdd1dull + 1;
	r->pm = c->pcw >= 64 ? ~0ull : (1ull << c->pcw) - 1;
	/* odd seeds put the program at the top of the address space: pc + 4 and follow wrap */
	r->base = (seed & 1) ? (r->pm - 4ull * PROG_N + 1) : 0x10000;
	for (unsigned i = 0; i < PROG_N; i++) {
		struct pinsn *p = &r->prog[i];
		unsigned x = below(r, 100);

		memset(p, 0, sizeof(*p));
		p->flag = below(r, 4);
		if (x < 62) {
			p->cls = SD_CLS_OTHER;
			p->branch = below(r, 6) == 0;
		} else if (x < 76) {
			p->cls = SD_CLS_PROF;
		} else if (x < 86) {
			p->cls = SD_CLS_BLK;
			p->k = 1 + below(r, 12);
			if (i + p->k > PROG_N)
				p->k = PROG_N - i;
		} else {
			static const unsigned fns[8] = { 0, 0, 0, 1, 1, 1, 2, 3 };

			p->cls = SD_CLS_FLAG;
			p->fn = fns[below(r, 8)];
			p->mask = p->fn < 2 ? 1 + below(r, 15) : 0;
		}
	}
	r->fetch_pc = r->base;
	r->ckfree = (c->ckpt >= 32 ? ~0u : (1u << c->ckpt) - 1);
	r->left = 2000;
	for (unsigned k = 0; k < 8; k++)
		r->pool[k] = (rnd(r) & r->pm) & ~1ull;
	return r;
}

void sd_rand_free(struct sd_rand *r)
{
	free(r);
}

static uint64_t rand_prog_pc(struct sd_rand *r)
{
	return (r->base + 4ull * below(r, PROG_N)) & r->pm;
}

static void fe_reset(struct sd_rand *r)
{
	r->nq = 0;
	r->nrob = 0;
	r->ckfree = (r->c.ckpt >= 32 ? ~0u : (1u << r->c.ckpt) - 1);
	r->fetch_pc = rand_prog_pc(r);
}

/* ---- the free phase ------------------------------------------------------------------- */
static void free_next(struct sd_rand *r, const struct sd_sys *s, struct sd_in *in)
{
	unsigned W = r->c.w, infl[4], nf[4] = { 0 };

	/* flags */
	if (chance(r, 30)) {
		in->f.csr_we = 1;
		in->f.csr_wdata = rnd(r);
		if (chance(r, 700))
			in->f.csr_wdata = (in->f.csr_wdata & ~0x1fffff0ull) | (uint64_t)below(r, 9) << 4;
	} else {
		for (unsigned i = 0; i < W; i++) {
			if (chance(r, 300)) {
				in->f.ret_valid |= 1u << i;
				in->f.ret_fn[i] = below(r, 4);
				in->f.ret_mask[i] = below(r, 16);
			}
		}
		in->f.dec_valid = chance(r, 400);
		in->f.dec_fn = below(r, 4);
		in->f.dec_mask = below(r, 16);
	}
	in->f.ckpt_we = (unsigned)rnd(r) & ((1u << r->c.ckpt) - 1) & (unsigned)rnd(r);
	in->f.restore = chance(r, 100);
	in->f.restore_id = below(r, r->c.ckpt);
	in->f.flush = chance(r, 40);
	/* filter */
	in->d.stall = chance(r, 80);
	in->d.flush = chance(r, 40);
	in->d.flags = below(r, 16);
	for (unsigned i = 0; i < W; i++) {
		struct sd_slot *sl = &in->d.s[i];

		sl->valid = chance(r, 850);
		sl->pc = rnd(r) & r->pm & ~1ull;
		if (chance(r, 100))
			sl->pc = r->pm - 3 + 2 * below(r, 2);   /* pc + 4 wraps */
		sl->cls = below(r, 4);
		sl->flag = below(r, 4);
		sl->fn = below(r, 4);
		sl->mask = below(r, 16);
		sl->follow = rnd(r) & r->pm;
		sl->pskip = chance(r, 500);
	}
	/* predictor */
	in->p.lk_valid = chance(r, 800);
	in->p.lk_pc = chance(r, 600) ? r->pool[below(r, 8)] : (rnd(r) & r->pm & ~1ull);
	if (chance(r, 200))                          /* a near miss: one tag or index bit flipped */
		in->p.lk_pc = (r->pool[below(r, 8)] ^ 1ull << (1 + below(r, r->c.pcw - 1))) & r->pm;
	in->p.upd_valid = chance(r, 300);
	if (in->p.upd_valid) {
		unsigned k = below(r, 8);

		if (chance(r, 200))
			r->pool[k] = rnd(r) & r->pm & ~1ull;
		in->p.upd_pc = r->pool[k];
		in->p.upd_follow = (in->p.upd_pc + 2ull * (2 + below(r, 2046))) & r->pm;
		in->p.upd_flag = below(r, 4);
		in->p.upd_clear = chance(r, 600);
	}
	in->p.fe_flush = chance(r, 30);
	for (unsigned f = 0; f < 4; f++)
		infl[f] = s->p.inflight[f];
	for (unsigned i = 0; i < W; i++) {
		unsigned m = below(r, 16);
		int ok = chance(r, 200);

		for (unsigned f = 0; f < 4; f++)
			if ((m >> f & 1) && infl[f] + nf[f] + 1 > (1u << r->c.lockw) - 1)
				ok = 0;
		if (ok) {
			in->p.wf_valid |= 1u << i;
			in->p.wf_mask[i] = m;
			for (unsigned f = 0; f < 4; f++)
				nf[f] += m >> f & 1;
		}
	}
	if (chance(r, 300)) {
		unsigned m = below(r, 16), ok = 0;

		for (unsigned f = 0; f < 4; f++)
			if (infl[f] + nf[f])
				ok |= 1u << f;
		in->p.wd_mask = m & ok;
		in->p.wd_valid = in->p.wd_mask != 0 || chance(r, 100);
	}
	{
		struct sd_fpred_out po;

		sd_fpred_eval(&s->p, &in->p, &po);
		if (po.locked)
			r->bins[C_LOCKED]++;
	}
	r->bins[C_FREE]++;
}

/* ---- the front-end phase -------------------------------------------------------------- */
static void fe_next(struct sd_rand *r, const struct sd_sys *s, struct sd_in *in)
{
	unsigned W = r->c.w, nfetch = 0, event = 0, nret, b = 0;
	struct qent fetched[SD_MAX_W];
	struct sd_filter_out d;
	struct sd_fpred_out po;

	/* events at commit / execute: 1 mispredict, 2 exception, 3 csrw, 4 reset */
	if (chance(r, 30)) {
		unsigned cand[ROBCAP], nc = 0;

		for (unsigned i = 0; i < r->nrob; i++)
			if (!r->rob[i].writer && r->rob[i].ckpt >= 0)
				cand[nc++] = i;
		if (nc) {
			event = 1;
			b = cand[below(r, nc)];
		}
	} else if (chance(r, 4)) {
		event = 2;
	} else if (r->nrob == 0 && chance(r, 20)) {
		event = 3;
	} else if (chance(r, 1)) {
		event = 4;
	}
	if (event == 4) {
		in->rst = 1;
		fe_reset(r);
		r->fetch_pc = r->base;
		r->bins[C_RESET]++;
		return;
	}

	/* retire from the ROB head, writers into the retire slots (with random gaps) */
	nret = below(r, W + 1);
	if (event == 1 && nret > b + 1)
		nret = b + 1;
	if (event == 3)
		nret = 0;
	{
		unsigned slot = 0, popped = 0, nw = 0;

		while (popped < nret && popped < r->nrob && slot < W) {
			struct robent *e = &r->rob[popped];

			if (e->writer) {
				if (chance(r, 200) && slot + 1 < W)
					slot++;            /* a gap */
				in->f.ret_valid |= 1u << slot;
				in->f.ret_fn[slot] = e->fn;
				in->f.ret_mask[slot] = e->mask;
				slot++;
				nw++;
			} else if (e->ckpt >= 0) {
				r->ckfree |= 1u << e->ckpt;
			}
			popped++;
		}
		if (nw >= 2)
			r->bins[C_RETIRE2]++;
		memmove(r->rob, r->rob + popped, (r->nrob - popped) * sizeof(r->rob[0]));
		r->nrob -= popped;
		if (event == 1)
			b -= popped;   /* b >= popped - 1 ... b may have been popped only if nret == b + 1 */
	}
	if (event == 1 && (int)b < 0)
		event = 0;
	if (event == 1 && b >= r->nrob)
		event = 0;         /* the branch itself retired this cycle */

	if (event == 1) {
		struct robent *br = &r->rob[b];

		in->f.restore = 1;
		in->f.restore_id = (unsigned)br->ckpt;
		r->ckfree |= 1u << br->ckpt;
		br->ckpt = -1;
		for (unsigned i = b + 1; i < r->nrob; i++)
			if (!r->rob[i].writer && r->rob[i].ckpt >= 0)
				r->ckfree |= 1u << r->rob[i].ckpt;
		r->nrob = b + 1;
		r->bins[C_RESTORE]++;
	} else if (event == 2) {
		in->f.flush = 1;
		r->bins[C_EXCEPTION]++;
	} else if (event == 3) {
		uint64_t v = rnd(r);

		if (chance(r, 700))                      /* mostly a state a program reaches */
			v = (v & ~0x1fffff0ull) | (uint64_t)below(r, 9) << 4 |
			    (chance(r, 100) ? (uint64_t)below(r, 4) << 8 : 0);
		in->f.csr_we = 1;
		in->f.csr_wdata = v;
		r->bins[C_CSR]++;
	}
	if (event) {
		in->d.flush = 1;
		in->p.fe_flush = 1;
		if (event == 2)
			r->nrob = 0;
		for (unsigned i = 0; i < r->nrob; i++)
			if (!r->rob[i].writer && r->rob[i].ckpt >= 0 && event == 2)
				r->ckfree |= 1u << r->rob[i].ckpt;
		if (event == 2)
			r->ckfree = (r->c.ckpt >= 32 ? ~0u : (1u << r->c.ckpt) - 1);
		r->nq = 0;
		r->fetch_pc = rand_prog_pc(r);
		return;
	}

	/* fetch: one lookup at the packet's first address; a pf.blk always starts a packet */
	if (!chance(r, 100) && r->nq + W <= QCAP) {
		uint64_t pc = r->fetch_pc;
		const struct pinsn *p;

		if (!in_prog(r, pc))
			pc = r->base;
		in->p.lk_valid = 1;
		in->p.lk_pc = pc;
		sd_fpred_eval(&s->p, &in->p, &po);
		p = at(r, pc);
		if (po.skip && p->cls == SD_CLS_BLK && po.target == ((pc + 4ull * p->k) & r->pm)) {
			fetched[0].s = (struct sd_slot){ .valid = 1, .pc = pc, .cls = SD_CLS_BLK,
							 .flag = p->flag, .pskip = 1,
							 .follow = po.target };
			nfetch = 1;
			r->fetch_pc = po.target;
		} else {
			if (po.locked)
				r->bins[C_LOCKED]++;
			while (nfetch < W && in_prog(r, pc)) {
				p = at(r, pc);
				if (p->cls == SD_CLS_BLK && nfetch)
					break;
				fetched[nfetch].s = (struct sd_slot){ .valid = 1, .pc = pc, .cls = p->cls,
								      .flag = p->flag, .fn = p->fn,
								      .mask = p->mask,
								      .follow = (pc + 4ull * p->k) & r->pm };
				if (p->cls == SD_CLS_FLAG) {
					in->p.wf_valid |= 1u << nfetch;
					in->p.wf_mask[nfetch] = sd_writer_mask(p->fn, p->mask);
				}
				nfetch++;
				pc = (pc + 4) & r->pm;
			}
			r->fetch_pc = in_prog(r, pc) ? pc : r->base;
		}
	}

	/* decode the queue's head */
	in->d.stall = chance(r, 80) || r->nrob + W > ROBCAP;
	for (unsigned i = 0; i < W && i < r->nq; i++)
		in->d.s[i] = r->q[i].s;
	sd_wire(s, in, 1);
	sd_filter_eval(&s->d, &in->d, &d);
	for (unsigned i = 0; i < W; i++) {
		const struct sd_slot *sl = &in->d.s[i];

		if (!(d.ready >> i & 1)) {
			if (sl->valid && !in->d.stall && s->d.pop &&
			    (sl->cls == SD_CLS_PROF || sl->cls == SD_CLS_BLK))
				r->bins[C_POPWAIT]++;
			continue;
		}
		if (sl->cls == SD_CLS_PROF)
			r->bins[(d.disp >> i & 1) ? C_PROF_DISP : C_PROF_DROP]++;
		if (sl->cls == SD_CLS_BLK)
			r->bins[sl->pskip ? (d.redirect ? C_SKIP_MISS : C_SKIP_OK)
					  : (d.redirect ? C_BLK_REDIRECT : C_BLK_FALL)]++;
		if (sl->cls == SD_CLS_FLAG) {
			r->rob[r->nrob++] = (struct robent){ .writer = 1, .fn = sl->fn, .mask = sl->mask,
							    .ckpt = -1 };
		}
		if (sl->cls == SD_CLS_OTHER && at(r, sl->pc)->branch) {
			int k = -1;

			for (unsigned j = 0; j < r->c.ckpt; j++)
				if (r->ckfree >> j & 1) {
					k = (int)j;
					break;
				}
			if (k >= 0) {
				r->ckfree &= ~(1u << k);
				in->f.ckpt_we |= 1u << k;
			} else {
				r->bins[C_NOCKPT]++;
			}
			r->rob[r->nrob++] = (struct robent){ .writer = 0, .ckpt = k };
		}
	}
	/* the queue: accepted slots leave (a prefix), this cycle's fetch enters */
	{
		unsigned n = 0;

		while (n < r->nq && n < W && (d.ready >> n & 1))
			n++;
		memmove(r->q, r->q + n, (r->nq - n) * sizeof(r->q[0]));
		r->nq -= n;
	}
	for (unsigned i = 0; i < nfetch; i++)
		r->q[r->nq++] = fetched[i];
	if (d.redirect) {
		in->p.fe_flush = 1;
		r->nq = 0;
		r->fetch_pc = d.redirect_pc;
	}
	/* a resolved branch frees its checkpoint now and then */
	if (chance(r, 100))
		for (unsigned i = 0; i < r->nrob; i++)
			if (!r->rob[i].writer && r->rob[i].ckpt >= 0) {
				r->ckfree |= 1u << r->rob[i].ckpt;
				r->rob[i].ckpt = -1;
				break;
			}
}

void sd_rand_next(struct sd_rand *r, const struct sd_sys *s, struct sd_in *in)
{
	memset(in, 0, sizeof(*in));
	if (r->left == 0) {
		/* switch phases through a flush that makes the front end's bookkeeping true again */
		r->free_phase = !r->free_phase && below(r, 3) == 0;
		r->left = 500 + below(r, 5000);
		in->f.flush = 1;
		in->d.flush = 1;
		in->p.fe_flush = 1;
		fe_reset(r);
		return;
	}
	r->left--;
	if (r->free_phase)
		free_next(r, s, in);
	else
		fe_next(r, s, in);
}

/* After the edge: in the front-end phase, spec = arch + the ROB's writers, and the predictor's
 * in-flight counts = the queue's writers. */
int sd_rand_after(struct sd_rand *r, const struct sd_sys *s)
{
	struct sd_pf st = s->f.arch;
	uint64_t a, e;

	if (r->prev.depth == 8 && s->f.arch.ovf == r->prev.ovf + 1)
		r->bins[C_OVF]++;          /* a pushpf went to the overflow count */
	if (s->f.arch.err && !r->prev.err && s->f.arch.ovf == r->prev.ovf)
		r->bins[C_ERR]++;          /* a poppf on an empty stack (or OVF at its limit) */
	r->prev = s->f.arch;
	if (r->free_phase || r->left == 0)
		return 0;
	for (unsigned i = 0; i < r->nrob; i++)
		if (r->rob[i].writer)
			sd_pf_op(&st, r->rob[i].fn, r->rob[i].mask);
	a = sd_pf_pack(&s->f.spec);
	e = sd_pf_pack(&st);
	if (a != e) {
		snprintf(r->why, sizeof(r->why),
			 "speculative pfstate %016" PRIx64 " != architectural + ROB writers %016" PRIx64, a, e);
		return 1;
	}
	for (unsigned f = 0; f < 4; f++) {
		unsigned n = 0;

		for (unsigned i = 0; i < r->nq; i++)
			if (r->q[i].s.cls == SD_CLS_FLAG && (sd_writer_mask(r->q[i].s.fn, r->q[i].s.mask) >> f & 1))
				n++;
		if (n != s->p.inflight[f]) {
			snprintf(r->why, sizeof(r->why), "flag %u: %u writers in flight, queue holds %u",
				 f, s->p.inflight[f], n);
			return 1;
		}
	}
	return 0;
}

const char *sd_rand_why(const struct sd_rand *r)
{
	return r->why;
}

int sd_rand_coverage(struct sd_rand *r)
{
	int miss = 0;

	for (int b = 0; b < C_NBINS; b++) {
		if (b == C_POPWAIT && r->c.poplat == 0)
			continue;
		if (b == C_RETIRE2 && r->c.w < 2)
			continue;
		if (b == C_RESET || b == C_NOCKPT)
			continue;          /* reported, not required */
		if (!r->bins[b])
			miss = 1;
	}
	return miss;
}

void sd_rand_report(const struct sd_rand *r)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "sd-harness: coverage");

	for (int b = 0; b < C_NBINS && n < (int)sizeof(line) - 32; b++)
		n += snprintf(line + n, sizeof(line) - n, " %s=%" PRIu64, bin_name[b], r->bins[b]);
	printf("%s\n", line);
}
