/* SPDX-License-Identifier: Apache-2.0 */
/* fdo_src.c - a block/edge profile as a source-level sample profile (fdo.h, sw/lib/srcprof.h):
 * the compilers' formats (docs/fdo.md "Compiler formats"). */
#include <math.h>
#include <string.h>

#include "fdo.h"
#include "../lib/srcprof.h"

static uint64_t count_of(double c)
{
	return c > 0.5 ? (uint64_t)llround(c) : 0;
}

int fdo_srcprof_fill(struct srcprof *sp, const struct fdo_prof *p, const struct fdo_cfg *g)
{
	/* Lines: every block's count over its instructions (zero blocks too: GCC reads a zero
	 * as "never ran", and a line shared with a run block keeps the larger count). */
	for (size_t b = 0; b < g->nb; b++)
		if (srcprof_range(sp, g->b[b].start, g->b[b].last, count_of(p->bc[b])))
			return -1;
	/* Calls: a block ending in a call with a static target calls it as often as it ran. */
	for (size_t b = 0; b < g->nb; b++) {
		const struct fdo_block *bl = &g->b[b];
		uint64_t c = count_of(p->bc[b]);

		if (bl->term != FDO_T_CALL || !bl->call_target || !c)
			continue;
		const char *name = srcprof_func_name(sp, bl->call_target);
		long fi = code_map_func(&g->map, bl->call_target);

		if (!name && fi >= 0 && g->map.func[fi].start == bl->call_target)
			name = g->map.func[fi].name;
		if (name && srcprof_call(sp, bl->last, name, c))
			return -1;
	}
	/* Heads: the entry edge of every function (its entry block's count without edges). */
	for (size_t f = 0; f < g->nf; f++) {
		const struct fdo_func *fn = &g->f[f];
		long e = fdo_cfg_edge(g, FDO_ENTRY, fn->b0);
		uint64_t c = count_of(p->ec && e >= 0 ? p->ec[e] : p->bc[fn->b0]);

		if (c && srcprof_head(sp, fn->start, fn->name, c))
			return -1;
	}
	return 0;
}
