/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_agg.c - branch, range and sample counts of a records file (contract in lbr_agg.h). */
#include "lbr_agg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LBR_RANGE_MAX (1u << 20) /* longer fall-through ranges are bogus (AutoFDO's limit) */

static uint64_t hash_key(const struct lbr_agg_key *k)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	const uint64_t v[3] = { (uint64_t)(uint32_t)k->oa << 32 | (uint32_t)k->ob, k->a, k->b };
	for (int i = 0; i < 3; i++) {
		h ^= v[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
	}
	return h;
}

static int key_eq(const struct lbr_agg_key *x, const struct lbr_agg_key *y)
{
	return x->oa == y->oa && x->ob == y->ob && x->a == y->a && x->b == y->b;
}

static int grow(struct lbr_counts *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 1024;
	struct lbr_agg_ent *nt = calloc(ncap, sizeof(*nt));
	if (!nt)
		return -1;
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->tab[i].count)
			continue;
		size_t j = hash_key(&c->tab[i].k) & (ncap - 1);
		while (nt[j].count)
			j = (j + 1) & (ncap - 1);
		nt[j] = c->tab[i];
	}
	free(c->tab);
	c->tab = nt;
	c->cap = ncap;
	return 0;
}

int lbr_counts_add(struct lbr_counts *c, const struct lbr_agg_key *k, uint64_t n)
{
	if (!n)
		return 0;
	if ((c->n + 1) * 2 > c->cap && grow(c) < 0)
		return -1;
	size_t j = hash_key(k) & (c->cap - 1);
	while (c->tab[j].count && !key_eq(&c->tab[j].k, k))
		j = (j + 1) & (c->cap - 1);
	if (!c->tab[j].count) {
		c->tab[j].k = *k;
		c->n++;
	}
	c->tab[j].count += n;
	return 0;
}

static int cmp_ent(const void *a, const void *b)
{
	const struct lbr_agg_ent *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->k.oa != y->k.oa)
		return x->k.oa < y->k.oa ? -1 : 1;
	if (x->k.a != y->k.a)
		return x->k.a < y->k.a ? -1 : 1;
	if (x->k.ob != y->k.ob)
		return x->k.ob < y->k.ob ? -1 : 1;
	return (x->k.b > y->k.b) - (x->k.b < y->k.b);
}

struct lbr_agg_ent *lbr_counts_sorted(const struct lbr_counts *c, size_t *n)
{
	*n = 0;
	struct lbr_agg_ent *out = malloc((c->n ? c->n : 1) * sizeof(*out));
	if (!out)
		return NULL;
	for (size_t i = 0; i < c->cap; i++)
		if (c->tab[i].count)
			out[(*n)++] = c->tab[i];
	qsort(out, *n, sizeof(*out), cmp_ent);
	return out;
}

void lbr_counts_free(struct lbr_counts *c)
{
	free(c->tab);
	memset(c, 0, sizeof(*c));
}

/* Count the fall-through range [begin, end] if it is plausible. */
static int add_range(struct lbr_agg *g, struct lbr_loc b, struct lbr_loc e)
{
	if (b.obj != e.obj || e.vaddr < b.vaddr || e.vaddr - b.vaddr > LBR_RANGE_MAX) {
		g->bogus++;
		return 0;
	}
	struct lbr_agg_key k = { b.obj, e.obj, b.vaddr, e.vaddr };
	return lbr_counts_add(&g->ranges, &k, 1);
}

int lbr_agg_build(struct lbr_agg *g, const struct lbr_data *d, const struct lbr_symtab *st,
		  char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < d->nstacks; i++) {
		const struct lbr_data_stack *ds = &d->stacks[i];
		const struct lbr_stack *s = &ds->s;
		int rc = 0;
		struct lbr_loc pc = lbr_sym_resolve(st, ds->sess, s->sample_pc);
		struct lbr_agg_key ks = { pc.obj, -1, pc.vaddr, 0 };
		rc |= lbr_counts_add(&g->samples, &ks, 1);
		struct lbr_loc prev_to = pc;
		for (unsigned j = 0; j < s->nr; j++) {
			struct lbr_loc f = lbr_sym_resolve(st, ds->sess, s->br[j].from);
			struct lbr_loc t = lbr_sym_resolve(st, ds->sess, s->br[j].to);
			struct lbr_agg_key kb = { f.obj, t.obj, f.vaddr, t.vaddr };
			rc |= lbr_counts_add(&g->branches, &kb, 1);
			rc |= add_range(g, prev_to, f);
			prev_to = t;
		}
		if (rc < 0) {
			snprintf(err, errlen, "out of memory aggregating stacks");
			lbr_agg_free(g);
			return -1;
		}
		g->stacks++;
	}
	return 0;
}

void lbr_agg_free(struct lbr_agg *g)
{
	lbr_counts_free(&g->branches);
	lbr_counts_free(&g->ranges);
	lbr_counts_free(&g->samples);
}
