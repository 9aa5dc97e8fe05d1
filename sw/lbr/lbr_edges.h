/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_edges.h - aggregated edge and block counts as text (docs/lbr.md "Outputs"):
 *   branches: one line per taken branch   FROM TO COUNT
 *   blocks:   one line per fall-through   BEGIN END COUNT   (executed [BEGIN, END] COUNT times)
 * hottest first, addresses symbolized as func+0xoff (lbr_sym_format). */
#ifndef TIPROF_LBR_EDGES_H
#define TIPROF_LBR_EDGES_H

#include <stdio.h>

#include "lbr_agg.h"

enum lbr_edges_what { LBR_EDGES_BRANCHES, LBR_EDGES_BLOCKS };

/* Returns 0, or -1 with a reason in err (out of memory, write error). */
int lbr_edges_write(FILE *f, const struct lbr_agg *g, const struct lbr_symtab *st,
		    enum lbr_edges_what what, char *err, size_t errlen);

#endif
