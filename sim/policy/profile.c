/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction-level profiles and the profile error metric (contracts in profile.h). */
#include "profile.h"

#include "code_map.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t a, size_t cap)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdull;
	a ^= a >> 33;
	return (size_t)a & (cap - 1);
}

static int alloc(struct profile *p, size_t cap)
{
	p->key = calloc(cap, sizeof(*p->key));
	p->val = calloc(cap, sizeof(*p->val));
	p->used = calloc(cap, 1);
	p->cap = cap;
	p->n = 0;
	if (!p->key || !p->val || !p->used) {
		free(p->key);
		free(p->val);
		free(p->used);
		memset(p, 0, sizeof(*p));
		return -1;
	}
	return 0;
}

int profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	return alloc(p, 1024);
}

void profile_free(struct profile *p)
{
	free(p->key);
	free(p->val);
	free(p->used);
	memset(p, 0, sizeof(*p));
}

static size_t find(const struct profile *p, uint64_t a)
{
	size_t i = slot_of(a, p->cap);

	while (p->used[i] && p->key[i] != a)
		i = (i + 1) & (p->cap - 1);
	return i;
}

static int grow(struct profile *p)
{
	struct profile old = *p;

	if (alloc(p, old.cap * 2) != 0) {
		*p = old;
		return -1;
	}
	p->total = old.total;
	p->oom = old.oom;
	for (size_t i = 0; i < old.cap; i++) {
		if (old.used[i]) {
			size_t j = find(p, old.key[i]);

			p->used[j] = 1;
			p->key[j] = old.key[i];
			p->val[j] = old.val[i];
			p->n++;
		}
	}
	free(old.key);
	free(old.val);
	free(old.used);
	return 0;
}

void profile_add(struct profile *p, uint64_t a, double w)
{
	size_t i;

	if (!p->cap)
		return;
	if (2 * (p->n + 1) > p->cap && grow(p) != 0) {
		p->oom = 1;
		return;
	}
	i = find(p, a);
	if (!p->used[i]) {
		p->used[i] = 1;
		p->key[i] = a;
		p->n++;
	}
	p->val[i] += w;
	p->total += w;
}

double profile_get(const struct profile *p, uint64_t a)
{
	size_t i;

	if (!p->cap)
		return 0;
	i = find(p, a);
	return p->used[i] ? p->val[i] : 0;
}

double profile_error(const struct profile *p, const struct profile *o)
{
	double scale, correct = 0;

	if (o->total <= 0)
		return 0;
	if (p->total <= 0)
		return 1;
	scale = o->total / p->total;
	for (size_t i = 0; i < o->cap; i++) {
		if (o->used[i]) {
			double pv = profile_get(p, o->key[i]) * scale;

			correct += pv < o->val[i] ? pv : o->val[i];
		}
	}
	return (o->total - correct) / o->total;
}

/* Aggregate p into out at the level. */
static int aggregate(const struct code_map *m, const struct profile *p, struct profile *out,
		     enum code_level level)
{
	if (profile_init(out))
		return -1;
	for (size_t i = 0; i < p->cap; i++)
		if (p->used[i])
			profile_add(out, code_map_key(m, p->key[i], level), p->val[i]);
	return out->oom ? -1 : 0;
}

double profile_error_at(const struct code_map *m, const struct profile *p,
			const struct profile *o, enum code_level level)
{
	struct profile pa = { 0 }, oa = { 0 };
	double e = -1;

	if (level == LEVEL_INSTRUCTION)
		return profile_error(p, o);
	if (aggregate(m, p, &pa, level) == 0 && aggregate(m, o, &oa, level) == 0)
		e = profile_error(&pa, &oa);
	profile_free(&pa);
	profile_free(&oa);
	return e;
}
