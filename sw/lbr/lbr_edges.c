/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_edges.c - edge/block count text (contract in lbr_edges.h). */
#include "lbr_edges.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int lbr_edges_write(FILE *f, const struct lbr_agg *g, const struct lbr_symtab *st,
		    enum lbr_edges_what what, char *err, size_t errlen)
{
	const struct lbr_counts *c = what == LBR_EDGES_BLOCKS ? &g->ranges : &g->branches;
	size_t n;
	struct lbr_agg_ent *e = lbr_counts_sorted(c, &n);
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fprintf(f, "# tiprof lbr edges: %" PRIu64 " stacks; %s, hottest first\n", g->stacks,
		what == LBR_EDGES_BLOCKS ? "fall-through blocks: BEGIN END COUNT"
					 : "taken branches: FROM TO COUNT");
	char a[512], b[512];
	for (size_t i = 0; i < n; i++) {
		lbr_sym_format(st, (struct lbr_loc){ e[i].k.oa, e[i].k.a }, a, sizeof(a));
		lbr_sym_format(st, (struct lbr_loc){ e[i].k.ob, e[i].k.b }, b, sizeof(b));
		fprintf(f, "%s %s %" PRIu64 "\n", a, b, e[i].count);
	}
	free(e);
	if (fflush(f) != 0 || ferror(f)) {
		snprintf(err, errlen, "cannot write the output: %s", strerror(errno));
		return -1;
	}
	return 0;
}
