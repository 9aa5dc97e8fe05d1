/* SPDX-License-Identifier: Apache-2.0 */
/* fdo_cfg.c - the per-function control-flow graph of a RISC-V ELF (fdo.h): blocks from the
 * code map's leaders (lib/symbol/code_map.c), edges from each block's last instruction,
 * static branch probabilities for the static estimate and the edge costs of the flow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdo.h"
#include "rv_isa.h"

/* ---- (src, dst) -> edge index: open addressing ----------------------------------------- */
struct ehash {	/* the layout of struct fdo_cfg's hash member */
	long *slot;
	size_t cap;
};

static size_t ehash_key(uint32_t s, uint32_t d, size_t cap)
{
	uint64_t k = ((uint64_t)s << 32 | d) * 0x9E3779B97F4A7C15ull;

	return (size_t)(k >> 17) & (cap - 1);
}

static int rehash(struct fdo_cfg *g, struct ehash *h, size_t need)
{
	size_t cap = 64;

	while (cap < 2 * need)
		cap *= 2;
	long *slot = malloc(cap * sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < cap; i++)
		slot[i] = -1;
	for (size_t i = 0; i < g->ne; i++) {
		size_t k = ehash_key(g->e[i].src, g->e[i].dst, cap);

		while (slot[k] >= 0)
			k = (k + 1) & (cap - 1);
		slot[k] = (long)i;
	}
	free(h->slot);
	h->slot = slot;
	h->cap = cap;
	return 0;
}

static struct ehash *hash_of(const struct fdo_cfg *g)
{
	return (struct ehash *)&g->hash;
}

long fdo_cfg_edge(const struct fdo_cfg *g, uint32_t src, uint32_t dst)
{
	struct ehash *h = hash_of(g);

	if (!h || !h->cap)
		return -1;
	size_t k = ehash_key(src, dst, h->cap);

	while (h->slot[k] >= 0) {
		const struct fdo_edge *e = &g->e[h->slot[k]];

		if (e->src == src && e->dst == dst)
			return h->slot[k];
		k = (k + 1) & (h->cap - 1);
	}
	return -1;
}

static long push_edge(struct fdo_cfg *g, uint32_t func, uint32_t src, uint32_t dst, uint8_t kind,
		      double prob)
{
	long have = fdo_cfg_edge(g, src, dst);
	struct ehash *h = hash_of(g);

	if (have >= 0) {	/* a branch whose target is its fall-through */
		g->e[have].prob += prob;
		return have;
	}
	if (g->ne == g->ecap) {
		size_t cap = g->ecap ? 2 * g->ecap : 256;
		struct fdo_edge *e = realloc(g->e, cap * sizeof(*e));

		if (!e)
			return -1;
		g->e = e;
		g->ecap = cap;
	}
	g->e[g->ne] = (struct fdo_edge){ .src = src, .dst = dst, .func = func, .kind = kind,
					 .prob = prob };
	g->ne++;
	if (2 * g->ne > h->cap)
		return rehash(g, h, g->ne) ? -1 : (long)g->ne - 1;
	size_t k = ehash_key(src, dst, h->cap);

	while (h->slot[k] >= 0)
		k = (k + 1) & (h->cap - 1);
	h->slot[k] = (long)g->ne - 1;
	return (long)g->ne - 1;
}

long fdo_cfg_add_edge(struct fdo_cfg *g, uint32_t src, uint32_t dst, uint8_t kind)
{
	uint32_t func = src != FDO_ENTRY ? g->b[src].func : g->b[dst].func;

	return push_edge(g, func, src, dst, kind, 0.0);
}

long fdo_cfg_block(const struct fdo_cfg *g, uint64_t addr)
{
	size_t lo = 0, hi = g->nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->b[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= g->b[lo - 1].end)
		return -1;
	return (long)lo - 1;
}

/* Decode the instruction at pc into in; its length, or 0 if not decodable. */
static int decode_at(const struct fdo_cfg *g, uint64_t pc, struct rv_insn *in)
{
	uint8_t buf[4];
	size_t n = elf_image_read(&g->im, pc, buf, sizeof(buf));
	int r;

	if (!n)
		return 0;
	r = rv_decode(buf, n, pc, in);
	return r > 0 ? r : 0;
}

static int long_latency(const struct rv_insn *in)
{
	return in->fu == RV_FU_DIV || in->fu == RV_FU_FDIV || in->fu == RV_FU_LOAD ||
	       in->fu == RV_FU_AMO;
}

/* Ball-Larus's loop-exit heuristic on the static probabilities: a loop is the address range
 * [target, source end) of a backward branch or jump; a conditional branch inside it with one
 * side leaving the range (and not itself a backward branch) stays in with 0.88. */
static void loop_exits(struct fdo_cfg *g)
{
	size_t elo = 0, ehi = 0;

	for (size_t f = 0; f < g->nf; f++) {
		const struct fdo_func *fn = &g->f[f];

		/* at load time a function's edges are contiguous, in block order */
		elo = ehi;
		while (ehi < g->ne && g->e[ehi].func == f)
			ehi++;

		for (uint32_t u = fn->b0; u < fn->b0 + fn->nb; u++) {
			long e[2] = { -1, -1 };
			int n = 0, out[2] = { 0, 0 };

			if (g->b[u].term != FDO_T_BRANCH)
				continue;
			for (size_t i = elo; i < ehi && n < 2; i++)	/* its two edges */
				if (g->e[i].src == u)
					e[n++] = (long)i;
			if (n != 2 || g->e[e[0]].prob >= 0.8 || g->e[e[1]].prob >= 0.8)
				continue;	/* a backward branch already says "loop" */
			for (size_t i = elo; i < ehi; i++) {
				const struct fdo_edge *be = &g->e[i];

				if (be->src == FDO_ENTRY || be->dst == FDO_EXIT ||
				    g->b[be->dst].start > g->b[be->src].start)
					continue;
				uint64_t lo = g->b[be->dst].start, hi = g->b[be->src].end;

				if (g->b[u].start < lo || g->b[u].start >= hi)
					continue;
				for (int k = 0; k < 2; k++) {
					uint32_t d = g->e[e[k]].dst;

					if (d == FDO_EXIT || g->b[d].start < lo || g->b[d].start >= hi)
						out[k] = 1;
				}
			}
			if (out[0] != out[1]) {
				g->e[e[0]].prob = out[0] ? 0.12 : 0.88;
				g->e[e[1]].prob = out[1] ? 0.12 : 0.88;
			}
		}
	}
}

int fdo_cfg_load(struct fdo_cfg *g, const char *path, char *err, size_t errlen)
{
	size_t cap = 0;

	memset(g, 0, sizeof(*g));
	if (code_map_load(&g->map, path, err, errlen))
		return -1;
	if (elf_image_load(&g->im, path, err, errlen)) {
		code_map_free(&g->map);
		return -1;
	}
	elf_image_hex(g->im.build_id, g->im.build_id_len, g->build_id, sizeof(g->build_id));
	if (!g->map.nfunc) {
		snprintf(err, errlen, "%s: no function symbols (a stripped binary?): FDO needs "
			 "the functions' extents", path);
		goto fail;
	}
	if (rehash(g, hash_of(g), 64))
		goto nomem;
	g->f = calloc(g->map.nfunc, sizeof(*g->f));
	if (!g->f)
		goto nomem;
	/* blocks: per function, the leaders inside it */
	for (size_t fi = 0; fi < g->map.nfunc; fi++) {
		const struct code_range *r = &g->map.func[fi];
		struct fdo_func *f;
		size_t lo = 0, hi = g->map.nleader;

		if (r->end <= r->start || r->start < g->map.text_lo || r->end > g->map.text_hi)
			continue;
		if (g->nf && r->start < g->f[g->nf - 1].end)
			continue;	/* an alias or a nested symbol: the first one wins */
		f = &g->f[g->nf];
		*f = (struct fdo_func){ .name = r->name ? r->name : "?", .start = r->start,
					.end = r->end, .b0 = (uint32_t)g->nb };
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (g->map.leader[mid] <= r->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		uint64_t start = r->start;

		for (size_t li = lo;; li++) {
			uint64_t end = li < g->map.nleader && g->map.leader[li] < r->end ?
				       g->map.leader[li] : r->end;

			if (end <= start)
				continue;
			if (g->nb == cap) {
				cap = cap ? 2 * cap : 1024;
				struct fdo_block *b = realloc(g->b, cap * sizeof(*b));

				if (!b)
					goto nomem;
				g->b = b;
			}
			g->b[g->nb++] = (struct fdo_block){ .start = start, .end = end,
							    .func = (uint32_t)g->nf };
			start = end;
			if (end >= r->end)
				break;
		}
		f->nb = (uint32_t)g->nb - f->b0;
		g->nf++;
	}
	/* instructions and edges */
	for (size_t bi = 0; bi < g->nb; bi++) {
		struct fdo_block *b = &g->b[bi];
		const struct fdo_func *f = &g->f[b->func];
		struct rv_insn in, last, prev;
		uint64_t pc = b->start, lastpc = 0, prevpc = 0;
		int have = 0, have_prev = 0;

		memset(&last, 0, sizeof(last));
		memset(&prev, 0, sizeof(prev));
		while (pc < b->end) {
			int n = decode_at(g, pc, &in);

			if (!n) {
				pc += 2;
				have = 0;
				last.op = RV_OP_ILLEGAL;
				continue;
			}
			b->ninsn++;
			if (long_latency(&in))
				b->long_lat++;
			prev = last;
			prevpc = lastpc;
			have_prev = have;
			last = in;
			lastpc = pc;
			have = 1;
			pc += (uint64_t)n;
		}
		if (!b->ninsn)
			b->ninsn = 1;
		b->last = have ? lastpc : b->start;
		uint64_t fall = b->end;
		long fb = fall < f->end ? (long)bi + 1 : -1;
		long tb = -1;

		if (have && (last.flags & RV_F_TARGET)) {
			long t = fdo_cfg_block(g, last.target);

			if (t >= 0 && g->b[t].func == b->func && g->b[t].start == last.target)
				tb = t;
		}
		if (bi == f->b0 &&
		    push_edge(g, b->func, FDO_ENTRY, (uint32_t)bi, FDO_E_ENTRY, 1.0) < 0)
			goto nomem;
		long r1 = 0, r2 = 0;

		if (!have || last.op == RV_OP_EBREAK) {
			b->term = FDO_T_STOP;
			r1 = push_edge(g, b->func, (uint32_t)bi, FDO_EXIT, FDO_E_EXIT, 1.0);
		} else {
			switch (last.cf) {
			case RV_CF_BRANCH: {
				double pt = last.target <= lastpc ? 0.88 : 0.5;
				/* backward: taken (loops, Ball-Larus); forward: even */

				b->term = FDO_T_BRANCH;
				r1 = push_edge(g, b->func, (uint32_t)bi, tb >= 0 ? (uint32_t)tb : FDO_EXIT,
					       tb >= 0 ? FDO_E_TAKEN : FDO_E_EXIT, pt);
				r2 = push_edge(g, b->func, (uint32_t)bi, fb >= 0 ? (uint32_t)fb : FDO_EXIT,
					       fb >= 0 ? FDO_E_FALL : FDO_E_EXIT, 1.0 - pt);
				break;
			}
			case RV_CF_JAL:
				b->term = tb >= 0 ? FDO_T_JUMP : FDO_T_RETURN;
				r1 = push_edge(g, b->func, (uint32_t)bi, tb >= 0 ? (uint32_t)tb : FDO_EXIT,
					       tb >= 0 ? FDO_E_TAKEN : FDO_E_EXIT, 1.0);
				break;
			case RV_CF_CALL:
			case RV_CF_CALL_IND:
				b->term = FDO_T_CALL;
				if (last.flags & RV_F_TARGET)
					b->call_target = last.target;
				else if (have_prev && prev.op == RV_OP_AUIPC && prev.rd == last.rs1 &&
					 prevpc + prev.len == lastpc)	/* call: auipc + jalr */
					b->call_target = prevpc + (uint64_t)prev.imm + (uint64_t)last.imm;
				r1 = push_edge(g, b->func, (uint32_t)bi, fb >= 0 ? (uint32_t)fb : FDO_EXIT,
					       fb >= 0 ? FDO_E_CALLRET : FDO_E_EXIT, 1.0);
				break;
			case RV_CF_RETURN:
				b->term = FDO_T_RETURN;
				r1 = push_edge(g, b->func, (uint32_t)bi, FDO_EXIT, FDO_E_EXIT, 1.0);
				break;
			case RV_CF_JALR:
				b->term = FDO_T_INDIRECT;
				r1 = push_edge(g, b->func, (uint32_t)bi, FDO_EXIT, FDO_E_EXIT, 1.0);
				break;
			default:
				b->term = FDO_T_FALL;
				r1 = push_edge(g, b->func, (uint32_t)bi, fb >= 0 ? (uint32_t)fb : FDO_EXIT,
					       fb >= 0 ? FDO_E_FALL : FDO_E_EXIT, 1.0);
				break;
			}
		}
		if (r1 < 0 || r2 < 0)
			goto nomem;
	}
	loop_exits(g);
	return 0;
nomem:
	snprintf(err, errlen, "%s: out of memory building the control-flow graph", path);
fail:
	fdo_cfg_free(g);
	return -1;
}

void fdo_cfg_free(struct fdo_cfg *g)
{
	struct ehash *h = hash_of(g);

	free(h->slot);
	free(g->b);
	free(g->e);
	free(g->f);
	code_map_free(&g->map);
	elf_image_free(&g->im);
	memset(g, 0, sizeof(*g));
}
