/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oracle.c - the Oracle of oracle.h: per-cycle attribution by the four commit states, a
 * hash table from instruction address to its shares, the exact-accounting check and the
 * text profile writer.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "oracle_profile.h"

/* Contract in oracle.h. */
int oracle_init(struct oracle *o, unsigned w)
{
	memset(o, 0, sizeof(*o));
	if (w < 1 || w > 8)
		return -1;
	o->w = w;
	o->oir_cat = -1;
	o->hmask = 4095;
	o->hash = calloc(o->hmask + 1, sizeof(*o->hash));
	return o->hash ? 0 : -1;
}

/* Contract in oracle.h. */
void oracle_fini(struct oracle *o)
{
	free(o->ent);
	free(o->hash);
	memset(o, 0, sizeof(*o));
}

static size_t pc_hash(uint64_t pc)
{
	pc *= 0x9e3779b97f4a7c15ull;
	return (size_t)(pc >> 32);
}

/* Double the hash table. Returns 0 or -1. */
static int oracle_rehash(struct oracle *o)
{
	size_t nm = o->hmask * 2 + 1;
	uint32_t *h = calloc(nm + 1, sizeof(*h));

	if (!h)
		return -1;
	for (size_t i = 0; i < o->n; i++) {
		size_t k = pc_hash(o->ent[i].pc) & nm;

		while (h[k])
			k = (k + 1) & nm;
		h[k] = (uint32_t)(i + 1);
	}
	free(o->hash);
	o->hash = h;
	o->hmask = nm;
	return 0;
}

/* The entry of pc, created if new; NULL if out of memory. */
static struct oracle_ent *oracle_ent(struct oracle *o, uint64_t pc)
{
	size_t k = pc_hash(pc) & o->hmask;
	struct oracle_ent *e;

	while (o->hash[k]) {
		e = &o->ent[o->hash[k] - 1];
		if (e->pc == pc)
			return e;
		k = (k + 1) & o->hmask;
	}
	if (o->n == o->cap) {
		size_t nc = o->cap ? o->cap * 2 : 1024;
		struct oracle_ent *ne = realloc(o->ent, nc * sizeof(*ne));

		if (!ne)
			return NULL;
		o->ent = ne;
		o->cap = nc;
	}
	e = &o->ent[o->n];
	memset(e, 0, sizeof(*e));
	e->pc = pc;
	o->hash[k] = (uint32_t)++o->n;
	if (o->n * 2 > o->hmask && oracle_rehash(o))
		return NULL;
	return &o->ent[o->n - 1];
}

/* Add units of category cat to pc. Returns 0 or -1. */
static int oracle_add(struct oracle *o, uint64_t pc, unsigned cat, uint64_t units)
{
	struct oracle_ent *e = oracle_ent(o, pc);

	if (!e) {
		o->nomem = 1;
		return -1;
	}
	e->units[cat] += units;
	o->total[cat] += units;
	return 0;
}

/* Contract in oracle.h. */
int oracle_count(struct oracle *o, uint64_t pc)
{
	struct oracle_ent *e = oracle_ent(o, pc);

	if (!e) {
		o->nomem = 1;
		return -1;
	}
	e->commits++;
	return 0;
}

/* Contract in oracle.h. */
int oracle_cycle(struct oracle *o, const struct tiprof_rob_if *rob, unsigned head_kind)
{
	unsigned w = o->w, hb = rob->head_bank % w;
	unsigned commit = rob->head_valid & rob->head_commit & ((1u << w) - 1);
	int empty = !(rob->head_valid >> hb & 1), ret = 0;

	o->cycles++;
	/* a pending Drained sample completes at the first dispatch into the empty ROB, or from
	 * the head if the ROB filled without a visible dispatch */
	if (o->pending) {
		uint64_t pc = 0;
		int found = 0;

		for (unsigned i = 0; i < w && empty; i++) {
			unsigned b = (hb + i) % w;

			if (rob->disp_valid >> b & 1) {
				pc = rob->disp_pc[b];
				found = 1;
				break;
			}
		}
		if (!found && !empty) {
			pc = rob->head_pc[hb];
			found = 1;
		}
		if (found) {
			ret |= oracle_add(o, pc, TIPROF_CAT_FRONTEND, o->pending * ORACLE_UNIT);
			o->pending = 0;
		}
	}
	if (commit) {	/* Computing */
		unsigned n = (unsigned)__builtin_popcount(commit), last = hb;

		for (unsigned i = 0; i < w; i++) {
			unsigned b = (hb + i) % w;

			if (commit >> b & 1) {
				ret |= oracle_add(o, rob->head_pc[b], TIPROF_CAT_EXECUTE, ORACLE_UNIT / n);
				last = b;
			}
		}
		o->oir_pc = rob->head_pc[last];
		o->oir_cat = rob->head_mispred >> last & 1 ? TIPROF_CAT_MISPRED_FLUSH :
			     rob->head_flush >> last & 1 ? TIPROF_CAT_OTHER_FLUSH : -1;
	} else if (!empty) {	/* Stalled */
		unsigned cat = head_kind == ORACLE_HEAD_LOAD ? TIPROF_CAT_LOAD_STALL :
			       head_kind == ORACLE_HEAD_STORE ? TIPROF_CAT_STORE_STALL : TIPROF_CAT_ALU_STALL;

		ret |= oracle_add(o, rob->head_pc[hb], cat, ORACLE_UNIT);
		if (rob->exception) {
			o->oir_pc = rob->head_pc[hb];
			o->oir_cat = TIPROF_CAT_OTHER_FLUSH;
		}
	} else if (o->oir_cat >= 0) {	/* Flushed */
		ret |= oracle_add(o, o->oir_pc, (unsigned)o->oir_cat, ORACLE_UNIT);
	} else {	/* Drained: completes at the next dispatch (possibly this cycle) */
		uint64_t pc = 0;
		int found = 0;

		for (unsigned i = 0; i < w; i++) {
			unsigned b = (hb + i) % w;

			if (rob->disp_valid >> b & 1) {
				pc = rob->disp_pc[b];
				found = 1;
				break;
			}
		}
		if (found)
			ret |= oracle_add(o, pc, TIPROF_CAT_FRONTEND, ORACLE_UNIT);
		else
			o->pending++;
	}
	return ret;
}

/* Contract in oracle.h. */
int oracle_finish(struct oracle *o)
{
	int ret = 0;

	if (o->pending)
		ret = oracle_add(o, o->oir_pc, TIPROF_CAT_FRONTEND, o->pending * ORACLE_UNIT);
	o->pending = 0;
	return ret;
}

/* Contract in oracle.h. */
int oracle_check(const struct oracle *o, char *err, size_t errlen)
{
	uint64_t sum[TIPROF_NCAT] = { 0 }, all = 0;

	if (o->nomem) {
		snprintf(err, errlen, "oracle: out of memory during the run");
		return -1;
	}
	for (size_t i = 0; i < o->n; i++)
		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			sum[c] += o->ent[i].units[c];
	for (unsigned c = 0; c < TIPROF_NCAT; c++) {
		if (sum[c] != o->total[c]) {
			snprintf(err, errlen, "oracle: %s: addresses sum to %llu units, total %llu",
				 tiprof_cat_name(c), (unsigned long long)sum[c],
				 (unsigned long long)o->total[c]);
			return -1;
		}
		all += sum[c];
	}
	if (o->pending) {
		snprintf(err, errlen, "oracle: %llu Drained cycles not attributed yet "
			 "(oracle_finish not called)", (unsigned long long)o->pending);
		return -1;
	}
	if (all != o->cycles * ORACLE_UNIT) {
		snprintf(err, errlen, "oracle: %llu units attributed for %llu cycles x %u",
			 (unsigned long long)all, (unsigned long long)o->cycles, ORACLE_UNIT);
		return -1;
	}
	return 0;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct oracle_ent *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* Contract in oracle.h. The file format is lib/sample/oracle_profile's. */
int oracle_write(const struct oracle *o, FILE *f, uint64_t insns)
{
	struct oracle_ent *s = malloc((o->n ? o->n : 1) * sizeof(*s));
	struct oracle_profile_ent *e = malloc((o->n ? o->n : 1) * sizeof(*e));
	struct oracle_profile_hdr h = { o->w, ORACLE_UNIT, o->cycles, insns, { 0 } };
	int ret = -1;

	if (!s || !e)
		goto out;
	memcpy(s, o->ent, o->n * sizeof(*s));
	qsort(s, o->n, sizeof(*s), ent_cmp);
	for (size_t i = 0; i < o->n; i++) {
		e[i].pc = s[i].pc;
		e[i].commits = s[i].commits;
		memcpy(e[i].units, s[i].units, sizeof(e[i].units));
	}
	memcpy(h.total, o->total, sizeof(h.total));
	ret = oracle_profile_write(f, &h, e, o->n);
out:
	free(s);
	free(e);
	return ret;
}
