/* SPDX-License-Identifier: Apache-2.0 */
/* srcprof.c - source-level sample profiles and their LLVM and GCC writers (contract in
 * srcprof.h). */
#include "srcprof.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
	int call_off;		/* inlinee: its call site in the parent */
	unsigned call_discr;
	uint64_t head, total;
	struct body *body;
	size_t nb;
	struct node **kids;
	size_t nk;
};

struct addr_ent {
	uint64_t addr, count;
	int used;
};

struct call_rec {
	uint64_t site, count;
	char *name;
};

struct head_rec {
	uint64_t entry, count;
	char *name;		/* NULL: none */
};

struct srcprof {
	struct dwl *dw;
	enum srcprof_discr discr;
	struct addr_ent *tab;	/* address -> count, open addressing */
	size_t cap, n;
	struct call_rec *calls;
	size_t ncalls, ccap;
	struct head_rec *heads;
	size_t nheads, hcap;
	int built;
	uint64_t counted, unplaced;	/* addresses with a count, of them without a line */
	/* the tree */
	struct node **top;
	size_t ntop;
	int oom;
};

/* ------------------------------------------------------------------ the address table */

static size_t slot_of(uint64_t a, size_t cap)
{
	return (size_t)((a * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static int grow_tab(struct srcprof *sp)
{
	size_t cap = sp->cap ? 2 * sp->cap : 1024;
	struct addr_ent *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (size_t i = 0; i < sp->cap; i++) {
		if (!sp->tab[i].used)
			continue;
		size_t k = slot_of(sp->tab[i].addr, cap);

		while (t[k].used)
			k = (k + 1) & (cap - 1);
		t[k] = sp->tab[i];
	}
	free(sp->tab);
	sp->tab = t;
	sp->cap = cap;
	return 0;
}

int srcprof_addr(struct srcprof *sp, uint64_t addr, uint64_t count)
{
	if (2 * (sp->n + 1) > sp->cap && grow_tab(sp))
		return -1;
	size_t k = slot_of(addr, sp->cap);

	while (sp->tab[k].used && sp->tab[k].addr != addr)
		k = (k + 1) & (sp->cap - 1);
	if (!sp->tab[k].used) {
		sp->tab[k] = (struct addr_ent){ .addr = addr, .used = 1 };
		sp->n++;
	}
	sp->tab[k].count += count;
	return 0;
}

struct range_ctx {
	struct srcprof *sp;
	uint64_t count;
	int rc;
};

static void on_row(void *arg, uint64_t a)
{
	struct range_ctx *r = arg;

	r->rc |= srcprof_addr(r->sp, a, r->count);
}

int srcprof_range(struct srcprof *sp, uint64_t begin, uint64_t end, uint64_t count)
{
	struct range_ctx r = { sp, count, 0 };

	dwl_rows(sp->dw, begin, end, on_row, &r);
	return r.rc ? -1 : 0;
}

int srcprof_call(struct srcprof *sp, uint64_t site, const char *callee, uint64_t count)
{
	if (sp->ncalls == sp->ccap) {
		size_t cap = sp->ccap ? 2 * sp->ccap : 64;
		struct call_rec *c = realloc(sp->calls, cap * sizeof(*c));

		if (!c)
			return -1;
		sp->calls = c;
		sp->ccap = cap;
	}
	char *name = strdup(callee);

	if (!name)
		return -1;
	sp->calls[sp->ncalls++] = (struct call_rec){ site, count, name };
	return 0;
}

int srcprof_head(struct srcprof *sp, uint64_t entry, const char *name, uint64_t count)
{
	if (sp->nheads == sp->hcap) {
		size_t cap = sp->hcap ? 2 * sp->hcap : 64;
		struct head_rec *h = realloc(sp->heads, cap * sizeof(*h));

		if (!h)
			return -1;
		sp->heads = h;
		sp->hcap = cap;
	}
	char *n = name ? strdup(name) : NULL;

	if (name && !n)
		return -1;
	sp->heads[sp->nheads++] = (struct head_rec){ entry, count, n };
	return 0;
}

const char *srcprof_func_name(struct srcprof *sp, uint64_t addr)
{
	struct dwl_frame fr[DWL_MAX_FRAMES];

	return dwl_frames(sp->dw, addr, fr, DWL_MAX_FRAMES) > 0 ? fr[0].name : NULL;
}

struct srcprof *srcprof_new(struct dwl *dw, enum srcprof_discr discr)
{
	struct srcprof *sp = calloc(1, sizeof(*sp));

	if (!sp)
		return NULL;
	sp->dw = dw;
	sp->discr = discr;
	return sp;
}

/* ------------------------------------------------------------------ the tree */

/* Room for element n of an array whose capacity is 4, 8, 16...: grows at n = 0, 4, 8, 16... */
static int reserve(struct srcprof *p, void **arr, size_t n, size_t size)
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

static struct node *new_node(struct srcprof *p, const char *name, int decl_line)
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

static struct node *top_node(struct srcprof *p, const char *name, int decl_line)
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

static struct node *kid_node(struct srcprof *p, struct node *parent, int off, unsigned discr,
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

static struct body *body_at(struct srcprof *p, struct node *nd, int off, unsigned discr)
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

static unsigned discr_of(const struct srcprof *p, const struct dwl_frame *f)
{
	switch (p->discr) {
	case SRCPROF_DISCR_NONE:
		return 0;
	case SRCPROF_DISCR_CLANG:
		return f->clang ? f->discr : 0;
	default:
		return f->discr;
	}
}

/* The node of the innermost frame and the body entry of its line; NULL if the frames do not
 * fit the formats (negative line offsets, from #line or macros). */
static struct body *locate(struct srcprof *p, const struct dwl_frame *fr, int nf)
{
	struct node *nd = top_node(p, fr[0].name, fr[0].decl_line);

	for (int k = 0; nd && k < nf; k++) {
		int off = fr[k].line - fr[k].decl_line;

		if (off < 0)
			return NULL;
		if (k == nf - 1)
			return body_at(p, nd, off, discr_of(p, &fr[k]));
		nd = kid_node(p, nd, off, discr_of(p, &fr[k]), fr[k + 1].name, fr[k + 1].decl_line);
	}
	return NULL;
}

static void add_target(struct srcprof *p, struct body *b, const char *name, uint64_t count)
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

static void sort_node(struct node *nd)
{
	if (nd->nb > 1)	/* (an empty array may be NULL: not for qsort) */
		qsort(nd->body, nd->nb, sizeof(*nd->body), cmp_body);
	if (nd->nk > 1)
		qsort(nd->kids, nd->nk, sizeof(*nd->kids), cmp_kid);
	for (size_t i = 0; i < nd->nk; i++)
		sort_node(nd->kids[i]);
}

static int cmp_addr_ent(const void *a, const void *b)
{
	const struct addr_ent *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Lines from addresses (max), then calls and heads; totals; sorted. */
static int build(struct srcprof *p)
{
	struct dwl_frame fr[DWL_MAX_FRAMES];

	if (p->built)
		return p->oom ? -1 : 0;
	p->built = 1;
	/* in address order: the output does not depend on the hash's layout */
	size_t n = 0;

	for (size_t i = 0; i < p->cap; i++)
		if (p->tab[i].used)
			p->tab[n++] = p->tab[i];
	if (n > 1)
		qsort(p->tab, n, sizeof(*p->tab), cmp_addr_ent);
	for (size_t i = 0; i < n && !p->oom; i++) {
		const struct addr_ent *e = &p->tab[i];
		int nf = dwl_frames(p->dw, e->addr, fr, DWL_MAX_FRAMES);
		struct body *b = nf > 0 ? locate(p, fr, nf) : NULL;

		if (e->count)
			p->counted++;
		if (!b) {
			p->unplaced += e->count != 0;
			continue;
		}
		if (b->count < e->count)
			b->count = e->count;
	}
	for (size_t i = 0; i < p->ncalls && !p->oom; i++) {
		int nf = dwl_frames(p->dw, p->calls[i].site, fr, DWL_MAX_FRAMES);
		struct body *b = nf > 0 ? locate(p, fr, nf) : NULL;

		if (b)
			add_target(p, b, p->calls[i].name, p->calls[i].count);
	}
	for (size_t i = 0; i < p->nheads && !p->oom; i++) {
		int nf = dwl_frames(p->dw, p->heads[i].entry, fr, DWL_MAX_FRAMES);
		struct node *nd = nf > 0 ? top_node(p, fr[0].name, fr[0].decl_line) :
				  p->heads[i].name ? top_node(p, p->heads[i].name, 0) : NULL;

		if (nd)
			nd->head += p->heads[i].count;
	}
	if (p->oom)
		return -1;
	for (size_t i = 0; i < p->ntop; i++) {
		total_of(p->top[i]);
		sort_node(p->top[i]);
	}
	if (p->ntop > 1)
		qsort(p->top, p->ntop, sizeof(*p->top), cmp_top);
	return 0;
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

void srcprof_free(struct srcprof *sp)
{
	if (!sp)
		return;
	for (size_t i = 0; i < sp->ntop; i++)
		free_node(sp->top[i]);
	free(sp->top);
	free(sp->tab);
	for (size_t i = 0; i < sp->ncalls; i++)
		free(sp->calls[i].name);
	free(sp->calls);
	for (size_t i = 0; i < sp->nheads; i++)
		free(sp->heads[i].name);
	free(sp->heads);
	free(sp);
}

static void stats_begin(struct srcprof *sp, struct srcprof_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->addrs = sp->counted;
	st->unplaced = sp->unplaced;
	if (sp->ntop && sp->top[0]->total)
		snprintf(st->hottest, sizeof(st->hottest), "%s", sp->top[0]->name);
}

static int finish_write(FILE *f, char *err, size_t errlen)
{
	if (fflush(f) != 0 || ferror(f)) {
		snprintf(err, errlen, "cannot write the output: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ LLVM text */

static void put_loc(FILE *f, int depth, int off, unsigned discr)
{
	fprintf(f, "%*s%d", depth, "", off);
	if (discr)
		fprintf(f, ".%u", discr);
	fputs(": ", f);
}

static void write_llvm_node(FILE *f, struct node *nd, int depth, struct srcprof_stats *st)
{
	for (size_t i = 0; i < nd->nb; i++) {
		const struct body *b = &nd->body[i];

		if (!b->count)
			continue;
		put_loc(f, depth, b->off, b->discr);
		fprintf(f, "%" PRIu64, b->count);
		for (size_t j = 0; j < b->nt; j++)
			fprintf(f, " %s:%" PRIu64, b->t[j].name, b->t[j].count);
		fputc('\n', f);
		st->lines++;
		st->targets += b->nt;
	}
	for (size_t i = 0; i < nd->nk; i++) {
		struct node *k = nd->kids[i];

		if (!k->total)
			continue;
		put_loc(f, depth, k->call_off, k->call_discr);
		fprintf(f, "%s:%" PRIu64 "\n", k->name, k->total);
		st->inlined++;
		write_llvm_node(f, k, depth + 1, st);
	}
}

int srcprof_write_llvm(struct srcprof *sp, FILE *f, struct srcprof_stats *stp, char *err,
		       size_t errlen)
{
	struct srcprof_stats st0, *st = stp ? stp : &st0;

	if (build(sp)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	stats_begin(sp, st);
	for (size_t i = 0; i < sp->ntop; i++) {
		struct node *nd = sp->top[i];

		if (!nd->total)
			continue;
		fprintf(f, "%s:%" PRIu64 ":%" PRIu64 "\n", nd->name, nd->total, nd->head);
		st->functions++;
		st->total += nd->total;
		st->head += nd->head;
		write_llvm_node(f, nd, 1, st);
	}
	return finish_write(f, err, errlen);
}

/* ------------------------------------------------------------------ GCC AutoFDO (gcov) */

#define GCOV_DATA_MAGIC 0x67636461u		/* "gcda" */
#define AFDO_VERSION 2u				/* AUTO_PROFILE_VERSION of GCC 12 */
#define AFDO_TAG_NAMES 0xaa000000u		/* GCOV_TAG_AFDO_FILE_NAMES */
#define AFDO_TAG_FUNCTION 0xac000000u		/* GCOV_TAG_AFDO_FUNCTION */
#define AFDO_TAG_MODULE 0xae000000u		/* GCOV_TAG_AFDO_MODULE_GROUPING */

struct buf {
	uint8_t *p;
	size_t n, cap;
	int oom;
};

static void put_bytes(struct buf *b, const void *d, size_t n)
{
	if (b->oom || !n)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->n + n)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);

		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void put_u32(struct buf *b, uint32_t v)
{
	uint8_t le[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put_bytes(b, le, 4);
}

static void put_counter(struct buf *b, uint64_t v)
{
	put_u32(b, (uint32_t)v);
	put_u32(b, (uint32_t)(v >> 32));
}

static void set_u32(struct buf *b, size_t at, uint32_t v)
{
	if (b->oom)
		return;
	b->p[at] = (uint8_t)v;
	b->p[at + 1] = (uint8_t)(v >> 8);
	b->p[at + 2] = (uint8_t)(v >> 16);
	b->p[at + 3] = (uint8_t)(v >> 24);
}

struct names {
	const char **v;
	size_t n, cap;
	int oom;
};

static uint32_t name_index(struct names *t, const char *s)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i], s) == 0)
			return (uint32_t)i;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		const char **v = realloc(t->v, cap * sizeof(*v));

		if (!v) {
			t->oom = 1;
			return 0;
		}
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n] = s;
	return (uint32_t)t->n++;
}

/* Does the entry fit GCC's 16-bit line offset? */
static int gcc_off_ok(int off)
{
	return off >= 0 && off <= 0xffff;
}

static void gcc_names(struct names *t, const struct node *nd)
{
	name_index(t, nd->name);
	for (size_t i = 0; i < nd->nb; i++)
		for (size_t j = 0; j < nd->body[i].nt; j++)
			name_index(t, nd->body[i].t[j].name);
	for (size_t i = 0; i < nd->nk; i++)
		if (nd->kids[i]->total && gcc_off_ok(nd->kids[i]->call_off))
			gcc_names(t, nd->kids[i]);
}

static void gcc_instance(struct buf *b, struct names *t, const struct node *nd,
			 struct srcprof_stats *st)
{
	uint32_t np = 0, nc = 0;

	for (size_t i = 0; i < nd->nb; i++)
		np += gcc_off_ok(nd->body[i].off);
	for (size_t i = 0; i < nd->nk; i++)
		nc += nd->kids[i]->total && gcc_off_ok(nd->kids[i]->call_off);
	put_u32(b, name_index(t, nd->name));
	put_u32(b, np);
	put_u32(b, nc);
	for (size_t i = 0; i < nd->nb; i++) {
		const struct body *e = &nd->body[i];

		if (!gcc_off_ok(e->off))
			continue;
		put_u32(b, (uint32_t)e->off << 16);
		put_u32(b, (uint32_t)e->nt);
		put_counter(b, e->count);
		for (size_t j = 0; j < e->nt; j++) {
			put_u32(b, 0);	/* histogram type: read and ignored by GCC 12 */
			put_counter(b, name_index(t, e->t[j].name));
			put_counter(b, e->t[j].count);
		}
		st->lines++;
		st->targets += e->nt;
	}
	for (size_t i = 0; i < nd->nk; i++) {
		const struct node *k = nd->kids[i];

		if (!k->total || !gcc_off_ok(k->call_off))
			continue;
		put_u32(b, (uint32_t)k->call_off << 16);
		st->inlined++;
		gcc_instance(b, t, k, st);
	}
}

int srcprof_write_gcc(struct srcprof *sp, FILE *f, struct srcprof_stats *stp, char *err,
		      size_t errlen)
{
	struct srcprof_stats st0, *st = stp ? stp : &st0;
	struct names t = { 0 };
	struct buf b = { 0 }, fb = { 0 };
	uint32_t nf = 0;
	int rc = -1;

	if (sp->discr != SRCPROF_DISCR_NONE) {
		snprintf(err, errlen, "internal: GCC 12's AutoFDO profile has no discriminators");
		return -1;
	}
	if (build(sp)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	stats_begin(sp, st);
	/* Index 0 is a name no function has: GCC 12's string_table::get_name asserts index > 0
	 * (an indirect-call target at index 0 would stop the compiler). */
	name_index(&t, "__tiprof_afdo_no_function");
	for (size_t i = 0; i < sp->ntop; i++)
		if (sp->top[i]->total)
			gcc_names(&t, sp->top[i]);
	/* functions */
	for (size_t i = 0; i < sp->ntop; i++) {
		const struct node *nd = sp->top[i];

		if (!nd->total)
			continue;
		put_counter(&fb, nd->head);
		gcc_instance(&fb, &t, nd, st);
		st->functions++;
		st->total += nd->total;
		st->head += nd->head;
		nf++;
	}
	if (t.oom)
		goto oom;
	put_u32(&b, GCOV_DATA_MAGIC);
	put_u32(&b, AFDO_VERSION);
	put_u32(&b, 0);
	put_u32(&b, AFDO_TAG_NAMES);
	size_t len_at = b.n;

	put_u32(&b, 0);
	put_u32(&b, (uint32_t)t.n);
	for (size_t i = 0; i < t.n; i++) {
		size_t len = strlen(t.v[i]) + 1;

		put_u32(&b, (uint32_t)len);
		put_bytes(&b, t.v[i], len);
	}
	if (!b.oom)	/* section length in bytes (GCC skips it) */
		set_u32(&b, len_at, (uint32_t)(b.n - len_at - 4));
	put_u32(&b, AFDO_TAG_FUNCTION);
	put_u32(&b, (uint32_t)((fb.n + 4) / 4));	/* words after this one */
	put_u32(&b, nf);
	put_bytes(&b, fb.p, fb.n);
	put_u32(&b, AFDO_TAG_MODULE);
	put_u32(&b, 0);
	put_u32(&b, 0);
	if (b.oom || fb.oom)
		goto oom;
	if (fwrite(b.p, 1, b.n, f) != b.n) {
		snprintf(err, errlen, "cannot write the output: %s", strerror(errno));
		goto done;
	}
	rc = finish_write(f, err, errlen);
	goto done;
oom:
	snprintf(err, errlen, "out of memory");
done:
	free(t.v);
	free(b.p);
	free(fb.p);
	return rc;
}
