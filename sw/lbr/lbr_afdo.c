/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_afdo.c - AutoFDO text profile writer (contract in lbr_afdo.h). */
#include "lbr_afdo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Entries of c wholly in obj (b too unless samples), sorted by address. */
static int cmp_addr(const void *a, const void *b)
{
	const struct lbr_agg_ent *x = a, *y = b;
	if (x->k.a != y->k.a)
		return x->k.a < y->k.a ? -1 : 1;
	return (x->k.b > y->k.b) - (x->k.b < y->k.b);
}

static int section(FILE *f, const struct lbr_counts *c, int obj, uint64_t base, const char *sep,
		   int pairs)
{
	size_t n, m = 0;
	struct lbr_agg_ent *e = lbr_counts_sorted(c, &n);
	if (!e)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (e[i].k.oa == obj && (!pairs || e[i].k.ob == obj))
			e[m++] = e[i];
	qsort(e, m, sizeof(*e), cmp_addr);
	fprintf(f, "%zu\n", m);
	for (size_t i = 0; i < m; i++) {
		if (pairs)
			fprintf(f, "%" PRIx64 "%s%" PRIx64 ":%" PRIu64 "\n", e[i].k.a - base, sep,
				e[i].k.b - base, e[i].count);
		else
			fprintf(f, "%" PRIx64 ":%" PRIu64 "\n", e[i].k.a - base, e[i].count);
	}
	free(e);
	return 0;
}

int lbr_afdo_write(FILE *f, const struct lbr_agg *g, const struct lbr_symtab *st, int obj,
		   char *err, size_t errlen)
{
	uint64_t base = st->objs[obj].base;
	if (section(f, &g->ranges, obj, base, "-", 1) < 0 ||
	    section(f, &g->samples, obj, base, "", 0) < 0 ||
	    section(f, &g->branches, obj, base, "->", 1) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (fflush(f) != 0 || ferror(f)) {
		snprintf(err, errlen, "cannot write the output: %s", strerror(errno));
		return -1;
	}
	return 0;
}
