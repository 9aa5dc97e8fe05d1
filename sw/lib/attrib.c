/* SPDX-License-Identifier: Apache-2.0 */
/*
 * attrib.c - time-proportional attribution of TIP samples (contract in attrib.h).
 */
#include <stdlib.h>
#include <string.h>

#include "attrib.h"

/* Contract in attrib.h. */
void attr_prof_init(struct attr_prof *p)
{
	memset(p, 0, sizeof(*p));
}

/* Contract in attrib.h. */
void attr_prof_free(struct attr_prof *p)
{
	free(p->ent);
	free(p->hash);
	memset(p, 0, sizeof(*p));
}

static size_t attr_hash(uint64_t key, size_t mask)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & mask;
}

/* Rebuild the hash with at least 2*n slots. Returns 0 or -1. */
static int attr_rehash(struct attr_prof *p, size_t slots)
{
	uint32_t *h = calloc(slots, sizeof(*h));

	if (!h)
		return -1;
	free(p->hash);
	p->hash = h;
	p->hmask = slots - 1;
	for (size_t i = 0; i < p->n; i++) {
		size_t j = attr_hash(p->ent[i].key, p->hmask);

		while (h[j])
			j = (j + 1) & p->hmask;
		h[j] = (uint32_t)(i + 1);
	}
	return 0;
}

/* Index of key's entry, or -1 (slot in *slot). */
static long attr_find(const struct attr_prof *p, uint64_t key, size_t *slot)
{
	size_t j;

	if (!p->hash)
		return -1;
	for (j = attr_hash(key, p->hmask); p->hash[j]; j = (j + 1) & p->hmask)
		if (p->ent[p->hash[j] - 1].key == key)
			return (long)p->hash[j] - 1;
	if (slot)
		*slot = j;
	return -1;
}

/* Contract in attrib.h. */
const struct attr_ent *attr_prof_get(const struct attr_prof *p, uint64_t key)
{
	long i = attr_find(p, key, NULL);

	return i < 0 ? NULL : &p->ent[i];
}

/* Contract in attrib.h. */
int attr_prof_add(struct attr_prof *p, uint64_t key, unsigned cat, double wt)
{
	size_t slot = 0;
	long i;

	if (cat >= TIPROF_NCAT)
		cat = TIPROF_CAT_ALU_STALL;
	if (!p->hash || 2 * (p->n + 1) > p->hmask + 1)
		if (attr_rehash(p, p->hash ? 2 * (p->hmask + 1) : 1024))
			return -1;
	i = attr_find(p, key, &slot);
	if (i < 0) {
		if (p->n == p->cap) {
			size_t nc = p->cap ? 2 * p->cap : 256;
			struct attr_ent *ne = realloc(p->ent, nc * sizeof(*ne));

			if (!ne)
				return -1;
			p->ent = ne;
			p->cap = nc;
		}
		memset(&p->ent[p->n], 0, sizeof(p->ent[0]));
		p->ent[p->n].key = key;
		p->hash[slot] = (uint32_t)(p->n + 1);
		i = (long)p->n++;
	}
	p->ent[i].w[cat] += wt;
	p->ent[i].total += wt;
	p->cat[cat] += wt;
	p->total += wt;
	return 0;
}

/* Contract in attrib.h. */
int attr_sample(struct attr_prof *p, unsigned w, const struct tiprof_sample *s,
		attr_kind_fn kind, void *kctx)
{
	unsigned nvalid = 0, cat, slot;
	uint8_t valid = w >= 8 ? s->valid : (uint8_t)(s->valid & ((1u << w) - 1));

	for (unsigned i = 0; i < w; i++)
		nvalid += (valid >> i) & 1u;
	if (!nvalid) {
		p->bad++;
		return 0;
	}
	p->samples++;
	if (s->flags == 0) {			/* Computing */
		for (unsigned i = 0; i < w; i++)
			if (((valid >> i) & 1u) &&
			    attr_prof_add(p, s->addr[i], TIPROF_CAT_EXECUTE, 1.0 / nvalid))
				return -1;
		return 0;
	}
	if (s->flags & TIPROF_SF_STALLED) {	/* Stalled: the oldest bank */
		int k;

		slot = s->bank < w && ((valid >> s->bank) & 1u) ? s->bank : 0;
		while (!((valid >> slot) & 1u))
			slot++;
		k = kind ? kind(kctx, s->addr[slot]) : ATTR_KIND_ALU;
		cat = k == ATTR_KIND_LOAD ? TIPROF_CAT_LOAD_STALL :
		      k == ATTR_KIND_STORE ? TIPROF_CAT_STORE_STALL : TIPROF_CAT_ALU_STALL;
		return attr_prof_add(p, s->addr[slot], cat, 1.0);
	}
	if (s->flags & TIPROF_SF_FRONTEND) {	/* Drained: the valid slot */
		cat = TIPROF_CAT_FRONTEND;
	} else {				/* Flushed: slot 0 */
		cat = (s->flags & TIPROF_SF_MISPRED) ? TIPROF_CAT_MISPRED_FLUSH : TIPROF_CAT_OTHER_FLUSH;
	}
	for (slot = 0; !((valid >> slot) & 1u); slot++)
		;
	return attr_prof_add(p, s->addr[slot], cat, 1.0);
}

/* Contract in attrib.h. */
void attr_prof_retype(struct attr_prof *p, attr_kind_fn kind, void *kctx)
{
	for (size_t i = 0; i < p->n; i++) {
		struct attr_ent *e = &p->ent[i];
		double wt = e->w[TIPROF_CAT_ALU_STALL];
		unsigned cat;
		int k;

		if (wt == 0)
			continue;
		k = kind(kctx, e->key);
		if (k != ATTR_KIND_LOAD && k != ATTR_KIND_STORE)
			continue;
		cat = k == ATTR_KIND_LOAD ? TIPROF_CAT_LOAD_STALL : TIPROF_CAT_STORE_STALL;
		e->w[TIPROF_CAT_ALU_STALL] = 0;
		e->w[cat] += wt;
		p->cat[TIPROF_CAT_ALU_STALL] -= wt;
		p->cat[cat] += wt;
	}
}

static int attr_cmp(const void *a, const void *b)
{
	const struct attr_ent *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Contract in attrib.h. */
void attr_prof_sort(struct attr_prof *p)
{
	if (!p->n)
		return;
	qsort(p->ent, p->n, sizeof(p->ent[0]), attr_cmp);
	if (attr_rehash(p, p->hmask + 1)) {	/* no memory: drop the stale index */
		free(p->hash);
		p->hash = NULL;
	}
}
