/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_llvmprof.c - LLVM text sample profile writer (contract in lbr_llvmprof.h). */
#include "lbr_llvmprof.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lbr_dwarf.h"

struct target {
	const char *name;
	uint64_t count;
};

struct body {
	int off;
	unsigned discr;
	uint64_t count;
	struct target *t;
	size_t nt;
};

struct node {
	const char *name;
	int decl_line;
	int call_off;           /* inlinee: its call site in the parent */
	unsigned call_discr;
	uint64_t head, total;
	struct body *body;
	size_t nb;
	struct node **kids;
	size_t nk;
};

struct prof {
	struct node **top;
	size_t ntop;
	int oom;
};

/* Room for element n of an array whose capacity is 4, 8, 16...: grows at n = 0, 4, 8, 16... */
static int reserve(struct prof *p, void **arr, size_t n, size_t size)
{
	if (n != 0 && (n < 4 || (n & (n - 1))))
		return 0;
	void *na = realloc(*arr, (n ? 2 * n : 4) * size);
	if (!na) {
		p->oom = 1;
		return -1;
	}
	*arr = na;
	return 0;
}

#define PUSH(p, arr, n) do { \
		void *t_ = (arr); \
		if (reserve((p), &t_, (n), sizeof(*(arr))) == 0) \
			(arr) = t_; \
	} while (0)

static struct node *new_node(struct prof *p, const char *name, int decl_line)
{
	struct node *nd = calloc(1, sizeof(*nd));
	if (!nd) {
		p->oom = 1;
		return NULL;
	}
	nd->name = name;
	nd->decl_line = decl_line;
	return nd;
}

static struct node *top_node(struct prof *p, const char *name, int decl_line)
{
	for (size_t i = 0; i < p->ntop; i++)
		if (strcmp(p->top[i]->name, name) == 0)
			return p->top[i];
	struct node *nd = new_node(p, name, decl_line);
	if (!nd)
		return NULL;
	PUSH(p, p->top, p->ntop);
	if (p->oom) {
		free(nd);
		return NULL;
	}
	p->top[p->ntop++] = nd;
	return nd;
}

static struct node *kid_node(struct prof *p, struct node *parent, int off, unsigned discr,
			     const char *name, int decl_line)
{
	for (size_t i = 0; i < parent->nk; i++) {
		struct node *k = parent->kids[i];
		if (k->call_off == off && k->call_discr == discr && strcmp(k->name, name) == 0)
			return k;
	}
	struct node *nd = new_node(p, name, decl_line);
	if (!nd)
		return NULL;
	nd->call_off = off;
	nd->call_discr = discr;
	PUSH(p, parent->kids, parent->nk);
	if (p->oom) {
		free(nd);
		return NULL;
	}
	parent->kids[parent->nk++] = nd;
	return nd;
}

static struct body *body_at(struct prof *p, struct node *nd, int off, unsigned discr)
{
	for (size_t i = 0; i < nd->nb; i++)
		if (nd->body[i].off == off && nd->body[i].discr == discr)
			return &nd->body[i];
	PUSH(p, nd->body, nd->nb);
	if (p->oom)
		return NULL;
	struct body *b = &nd->body[nd->nb++];
	memset(b, 0, sizeof(*b));
	b->off = off;
	b->discr = discr;
	return b;
}

/* The node of the innermost frame and the body entry of its line; NULL if the frames do
 * not fit the format (negative line offsets). */
static struct body *locate(struct prof *p, const struct lbr_frame *fr, int nf)
{
	struct node *nd = top_node(p, fr[0].name, fr[0].decl_line);
	for (int k = 0; nd && k < nf; k++) {
		int off = fr[k].line - fr[k].decl_line;
		if (off < 0)
			return NULL;
		if (k == nf - 1)
			return body_at(p, nd, off, fr[k].discr);
		nd = kid_node(p, nd, off, fr[k].discr, fr[k + 1].name, fr[k + 1].decl_line);
	}
	return NULL;
}

static void add_target(struct prof *p, struct body *b, const char *name, uint64_t count)
{
	for (size_t i = 0; i < b->nt; i++)
		if (strcmp(b->t[i].name, name) == 0) {
			b->t[i].count += count;
			return;
		}
	PUSH(p, b->t, b->nt);
	if (p->oom)
		return;
	b->t[b->nt++] = (struct target){ name, count };
}

/* ------------------------------------------------------------------ totals and output */

static uint64_t total_of(struct node *nd)
{
	uint64_t t = 0;
	for (size_t i = 0; i < nd->nb; i++) {
		uint64_t calls = 0;
		for (size_t j = 0; j < nd->body[i].nt; j++)
			calls += nd->body[i].t[j].count;
		if (nd->body[i].count < calls)
			nd->body[i].count = calls;
		t += nd->body[i].count;
	}
	for (size_t i = 0; i < nd->nk; i++)
		t += total_of(nd->kids[i]);
	nd->total = t;
	return t;
}

static int cmp_body(const void *a, const void *b)
{
	const struct body *x = a, *y = b;
	if (x->off != y->off)
		return x->off - y->off;
	return (x->discr > y->discr) - (x->discr < y->discr);
}

static int cmp_kid(const void *a, const void *b)
{
	const struct node *x = *(struct node *const *)a, *y = *(struct node *const *)b;
	if (x->call_off != y->call_off)
		return x->call_off - y->call_off;
	if (x->call_discr != y->call_discr)
		return x->call_discr < y->call_discr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_top(const void *a, const void *b)
{
	const struct node *x = *(struct node *const *)a, *y = *(struct node *const *)b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void put_loc(FILE *f, int depth, int off, unsigned discr)
{
	fprintf(f, "%*s%d", depth, "", off);
	if (discr)
		fprintf(f, ".%u", discr);
	fputs(": ", f);
}

static void write_node(FILE *f, struct node *nd, int depth)
{
	qsort(nd->body, nd->nb, sizeof(*nd->body), cmp_body);
	qsort(nd->kids, nd->nk, sizeof(*nd->kids), cmp_kid);
	for (size_t i = 0; i < nd->nb; i++) {
		const struct body *b = &nd->body[i];
		if (!b->count)
			continue;
		put_loc(f, depth, b->off, b->discr);
		fprintf(f, "%" PRIu64, b->count);
		for (size_t j = 0; j < b->nt; j++)
			fprintf(f, " %s:%" PRIu64, b->t[j].name, b->t[j].count);
		fputc('\n', f);
	}
	for (size_t i = 0; i < nd->nk; i++) {
		struct node *k = nd->kids[i];
		if (!k->total)
			continue;
		put_loc(f, depth, k->call_off, k->call_discr);
		fprintf(f, "%s:%" PRIu64 "\n", k->name, k->total);
		write_node(f, k, depth + 1);
	}
}

static void free_node(struct node *nd)
{
	for (size_t i = 0; i < nd->nb; i++)
		free(nd->body[i].t);
	free(nd->body);
	for (size_t i = 0; i < nd->nk; i++)
		free_node(nd->kids[i]);
	free(nd->kids);
	free(nd);
}

/* ------------------------------------------------------------------ building */

struct rows_ctx {
	struct lbr_counts *addrs;
	int obj;
	uint64_t count;
	int rc;
};

static void on_row(void *arg, uint64_t a)
{
	struct rows_ctx *r = arg;
	struct lbr_agg_key k = { r->obj, r->obj, a, 0 };
	r->rc |= lbr_counts_add(r->addrs, &k, r->count);
}

static int build(struct prof *p, struct lbr_dwarf *dw, const struct lbr_agg *g,
		 const struct lbr_symtab *st, int obj)
{
	/* Per-address execution counts from the ranges. */
	struct lbr_counts addrs = { 0 };
	struct rows_ctx rc = { &addrs, obj, 0, 0 };
	for (size_t i = 0; i < g->ranges.cap && !rc.rc; i++) {
		const struct lbr_agg_ent *e = &g->ranges.tab[i];
		if (!e->count || e->k.oa != obj)
			continue;
		rc.count = e->count;
		lbr_dwarf_rows(dw, e->k.a, e->k.b, on_row, &rc);
	}
	if (rc.rc) {
		lbr_counts_free(&addrs);
		return -1;
	}
	struct lbr_frame fr[LBR_DWARF_MAX_FRAMES];
	for (size_t i = 0; i < addrs.cap && !p->oom; i++) {
		const struct lbr_agg_ent *e = &addrs.tab[i];
		if (!e->count)
			continue;
		int nf = lbr_dwarf_frames(dw, e->k.a, fr, LBR_DWARF_MAX_FRAMES);
		struct body *b = nf > 0 ? locate(p, fr, nf) : NULL;
		if (b && b->count < e->count)
			b->count = e->count;
	}
	lbr_counts_free(&addrs);
	/* Calls: branches from the binary to a function's first instruction. */
	for (size_t i = 0; i < g->branches.cap && !p->oom; i++) {
		const struct lbr_agg_ent *e = &g->branches.tab[i];
		if (!e->count || e->k.oa != obj || e->k.ob < 0)
			continue;
		const struct lbr_func *callee = lbr_sym_func_at(&st->objs[e->k.ob], e->k.b);
		if (!callee)
			continue;
		int nf = lbr_dwarf_frames(dw, e->k.a, fr, LBR_DWARF_MAX_FRAMES);
		struct body *b = nf > 0 ? locate(p, fr, nf) : NULL;
		if (b)
			add_target(p, b, callee->name, e->count);
		if (e->k.ob == obj) {
			int cf = lbr_dwarf_frames(dw, e->k.b, fr, LBR_DWARF_MAX_FRAMES);
			struct node *nd = cf > 0 ? top_node(p, fr[0].name, fr[0].decl_line)
						 : top_node(p, callee->name, 0);
			if (nd)
				nd->head += e->count;
		}
	}
	return p->oom ? -1 : 0;
}

int lbr_llvmprof_write(FILE *f, const struct lbr_agg *g, const struct lbr_symtab *st, int obj,
		       char *err, size_t errlen)
{
	const struct lbr_obj *o = &st->objs[obj];
	struct lbr_dwarf *dw = lbr_dwarf_open(o->path, err, errlen);
	if (!dw)
		return -1;
	struct prof p = { 0 };
	int rc = build(&p, dw, g, st, obj);
	if (rc == 0) {
		for (size_t i = 0; i < p.ntop; i++)
			total_of(p.top[i]);
		qsort(p.top, p.ntop, sizeof(*p.top), cmp_top);
		for (size_t i = 0; i < p.ntop; i++) {
			struct node *nd = p.top[i];
			if (!nd->total)
				continue;
			fprintf(f, "%s:%" PRIu64 ":%" PRIu64 "\n", nd->name, nd->total, nd->head);
			write_node(f, nd, 1);
		}
	} else {
		snprintf(err, errlen, "out of memory");
	}
	for (size_t i = 0; i < p.ntop; i++)
		free_node(p.top[i]);
	free(p.top);
	lbr_dwarf_close(dw);
	if (rc == 0 && (fflush(f) != 0 || ferror(f))) {
		snprintf(err, errlen, "cannot write the output: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}
