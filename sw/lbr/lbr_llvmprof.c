/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_llvmprof.c - LLVM text sample profile writer (contract in lbr_llvmprof.h): the records'
 * ranges and calls into a source-level profile (sw/lib/srcprof.c, shared with tiprof fdo). */
#include "lbr_llvmprof.h"

#include <stdlib.h>

#include "../lib/srcprof.h"

int lbr_srcprof_fill(struct srcprof *sp, const struct lbr_agg *g, const struct lbr_symtab *st,
		     int obj)
{
	/* Per-address execution counts from the fall-through ranges. */
	for (size_t i = 0; i < g->ranges.cap; i++) {
		const struct lbr_agg_ent *e = &g->ranges.tab[i];
		if (!e->count || e->k.oa != obj)
			continue;
		if (srcprof_range(sp, e->k.a, e->k.b, e->count))
			return -1;
	}
	/* Calls: branches from the binary to a function's first instruction. */
	for (size_t i = 0; i < g->branches.cap; i++) {
		const struct lbr_agg_ent *e = &g->branches.tab[i];
		if (!e->count || e->k.oa != obj || e->k.ob < 0)
			continue;
		const struct lbr_func *callee = lbr_sym_func_at(&st->objs[e->k.ob], e->k.b);
		if (!callee)
			continue;
		if (srcprof_call(sp, e->k.a, callee->name, e->count))
			return -1;
		if (e->k.ob == obj && srcprof_head(sp, e->k.b, callee->name, e->count))
			return -1;
	}
	return 0;
}

int lbr_llvmprof_write(FILE *f, const struct lbr_agg *g, const struct lbr_symtab *st, int obj,
		       char *err, size_t errlen)
{
	const struct lbr_obj *o = &st->objs[obj];
	struct dwl *dw = dwl_open(o->path, err, errlen);
	if (!dw)
		return -1;
	struct srcprof *sp = srcprof_new(dw, SRCPROF_DISCR_KEEP);
	int rc = -1;
	if (!sp || lbr_srcprof_fill(sp, g, st, obj))
		snprintf(err, errlen, "out of memory");
	else
		rc = srcprof_write_llvm(sp, f, NULL, err, errlen);
	srcprof_free(sp);
	dwl_close(dw);
	return rc;
}
