/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_view_path.c - `tiprof pm path`: path profiles from the path register (docs/pm-report.md
 * "path"): for each instruction the distinct 16-bit global histories it was fetched with,
 * their sample counts and, for branches, how often the branch went taken or was
 * mispredicted under each history.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "pm_view.h"

#define PATH_SHOWN 8	/* histories per instruction in the text */

static int keep_path(const struct pm_est_insn *in)
{
	return in->npath != 0;
}

/* The history as 16 characters, oldest outcome first: T taken, N not taken. */
static void bits(uint16_t h, char *buf)
{
	for (int b = 15; b >= 0; b--)
		*buf++ = (h >> b) & 1u ? 'T' : 'N';
	*buf = '\0';
}

static int path_cmp(const void *a, const void *b)
{
	const struct pm_est_path *x = *(const struct pm_est_path *const *)a;
	const struct pm_est_path *y = *(const struct pm_est_path *const *)b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return x->hist < y->hist ? -1 : x->hist > y->hist;
}

/* Contract in pm_view.h. */
int pm_view_path(const struct pm_view *v)
{
	int key = v->sort == PM_SORT_DEFAULT ? PM_EST_EV_FETCHED : v->sort;
	const struct pm_est_insn **r;
	size_t n;
	char name[512], hb[17];
	FILE *o = v->out;

	if (!(r = pm_view_rows(v, key, keep_path, &n)) && v->e->ninsn)
		return -1;
	if (v->json) {
		pm_view_json_head(v);
		fprintf(o, " \"instructions\": [");
	} else {
		pm_view_text_head(v);
		fprintf(o, "  path = the front end's 16-bit global history at fetch, oldest outcome "
			"first (T taken, N not taken)\n\nInstructions by %s:\n",
			pm_view_sort_name(key));
	}
	for (size_t i = 0; i < n; i++) {
		const struct pm_est_insn *in = r[i];
		const struct pm_est_path **p = malloc(in->npath * sizeof(*p));
		uint64_t k = in->k_ev[PM_EST_EV_FETCHED];

		if (!p) {
			free(r);
			return -1;
		}
		for (size_t j = 0; j < in->npath; j++)
			p[j] = &in->path[j];
		qsort(p, in->npath, sizeof(*p), path_cmp);
		pm_view_insn_name(v, in->pc, name, sizeof(name));
		if (v->json) {
			fprintf(o, "%s\n  {\"pc\": \"0x%" PRIx64 "\", \"name\": ", i ? "," : "",
				in->pc);
			pm_view_json_str(o, name);
			fprintf(o, ", \"k\": %" PRIu64 ", \"paths\": [", k);
			for (size_t j = 0; j < in->npath; j++) {
				bits(p[j]->hist, hb);
				fprintf(o, "%s{\"hist\": \"0x%04x\", \"bits\": \"%s\", \"n\": %" PRIu64
					", \"taken\": %" PRIu64 ", \"mispred\": %" PRIu64 "}",
					j ? ", " : "", p[j]->hist, hb, p[j]->n, p[j]->taken,
					p[j]->mispred);
			}
			fputs("]}", o);
		} else {
			fprintf(o, "\n%s (0x%" PRIx64 "): %" PRIu64 " samples, %zu paths%s\n", name,
				in->pc, k, in->npath,
				in->k_ev[TIPROF_PM_EV_CTRL] ? "; taken / mispredicted per path" : "");
			for (size_t j = 0; j < in->npath && j < PATH_SHOWN; j++) {
				bits(p[j]->hist, hb);
				fprintf(o, "  %s 0x%04x %7" PRIu64 " %5.1f%%", hb, p[j]->hist, p[j]->n,
					k ? 100.0 * (double)p[j]->n / (double)k : 0.0);
				if (in->k_ev[TIPROF_PM_EV_CTRL])
					fprintf(o, "  taken %5.1f%%  mispred %5.1f%%",
						100.0 * (double)p[j]->taken / (double)p[j]->n,
						100.0 * (double)p[j]->mispred / (double)p[j]->n);
				fputc('\n', o);
			}
			if (in->npath > PATH_SHOWN)
				fprintf(o, "  ... %zu more (--json lists every path)\n",
					in->npath - PATH_SHOWN);
		}
		free(p);
	}
	if (v->json)
		fprintf(o, "]}\n");
	free(r);
	return 0;
}
