/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_view_lat.c - `tiprof pm lat`: latency distributions per instruction and stage (the
 * paper's latency registers; docs/pm-report.md "lat"): a table of the mean and 90th
 * percentile of every stage for the hottest instructions, the whole program's distribution per
 * stage, and the full distribution (percentiles, log2 histogram) of the first rows.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pm_view.h"

#define LAT_DETAIL 3	/* rows whose whole distribution the text shows */

static int keep_lat(const struct pm_est_insn *in)
{
	return in->lat[TIPROF_PM_LAT_TOTAL].n != 0;
}

/* The whole program's distribution of each stage (values dropped: mean and histogram). */
static void pooled(const struct pm_est *e, struct pm_est_lat *all)
{
	memset(all, 0, TIPROF_PM_NLAT * sizeof(*all));
	for (size_t i = 0; i < e->ninsn; i++)
		for (unsigned s = 0; s < TIPROF_PM_NLAT; s++) {
			const struct pm_est_lat *l = &e->insn[i].lat[s];

			if (!l->n)
				continue;
			if (!all[s].n || l->min < all[s].min)
				all[s].min = l->min;
			if (l->max > all[s].max)
				all[s].max = l->max;
			all[s].n += l->n;
			all[s].sum += l->sum;
			for (unsigned b = 0; b < PM_EST_HBINS; b++)
				all[s].hist[b] += l->hist[b];
		}
}

static void text_hist(FILE *o, const struct pm_est_lat *l)
{
	for (unsigned b = 0; b < PM_EST_HBINS; b++) {
		unsigned lo = pm_est_bin_lo(b), hi = b ? 2 * lo - 1 : 0;

		if (!l->hist[b])
			continue;
		if (lo == hi)
			fprintf(o, " %u:%" PRIu64, lo, l->hist[b]);
		else
			fprintf(o, " %u-%u:%" PRIu64, lo, hi, l->hist[b]);
	}
}

/* Contract in pm_view.h. */
int pm_view_lat(const struct pm_view *v)
{
	struct pm_est_lat all[TIPROF_PM_NLAT];
	int key = v->sort == PM_SORT_DEFAULT ? PM_EST_EV_FETCHED : v->sort;
	const struct pm_est_insn **r;
	size_t n;
	char name[512];
	FILE *o = v->out;

	if (!(r = pm_view_rows(v, key, keep_lat, &n)) && v->e->ninsn)
		return -1;
	pooled(v->e, all);
	if (v->json) {
		pm_view_json_head(v);
		fprintf(o, " \"stages\": [");
		for (unsigned s = 0; s < TIPROF_PM_NLAT; s++)
			fprintf(o, "%s\"%s\"", s ? ", " : "", pm_est_lat_name(s));
		fprintf(o, "],\n \"all\": {");
		for (unsigned s = 0; s < TIPROF_PM_NLAT; s++) {
			fprintf(o, "%s\"%s\": {\"n\": %" PRIu64 ", \"mean\": ", s ? ", " : "",
				pm_est_lat_name(s), all[s].n);
			pm_view_json_num(o, pm_est_lat_mean(&all[s]));
			fprintf(o, ", \"hist\": [");
			for (unsigned b = 0, f = 1; b < PM_EST_HBINS; b++)
				if (all[s].hist[b]) {
					fprintf(o, "%s[%u, %" PRIu64 "]", f ? "" : ", ",
						pm_est_bin_lo(b), all[s].hist[b]);
					f = 0;
				}
			fprintf(o, "]}");
		}
		fprintf(o, "},\n \"instructions\": [");
		for (size_t i = 0; i < n; i++) {
			pm_view_insn_name(v, r[i]->pc, name, sizeof(name));
			fprintf(o, "%s\n  {\"pc\": \"0x%" PRIx64 "\", \"name\": ", i ? "," : "",
				r[i]->pc);
			pm_view_json_str(o, name);
			fprintf(o, ", \"k\": %" PRIu64 ", \"stages\": {",
				r[i]->k_ev[PM_EST_EV_FETCHED]);
			for (unsigned s = 0; s < TIPROF_PM_NLAT; s++) {
				fprintf(o, "%s\"%s\": ", s ? ", " : "", pm_est_lat_name(s));
				pm_view_json_lat(o, &r[i]->lat[s]);
			}
			fprintf(o, "}}");
		}
		fprintf(o, "]}\n");
		free(r);
		return 0;
	}
	pm_view_text_head(v);
	fprintf(o, "  latency of a stage = cycles between its two stamps, over the samples that "
		"saw both (first profiles; timed-out ones left out)\n");
	fprintf(o, "\nWhole program, mean cycles (samples):\n");
	for (unsigned s = 0; s < TIPROF_PM_NLAT; s++)
		fprintf(o, "  %-16s %9.2f (%" PRIu64 ")\n", pm_est_lat_name(s),
			pm_est_lat_mean(&all[s]), all[s].n);
	fprintf(o, "\nInstructions by %s: mean / p90 cycles of each stage\n",
		pm_view_sort_name(key));
	fprintf(o, " %7s", "k");
	for (unsigned s = 0; s < TIPROF_PM_NLAT; s++)
		fprintf(o, " %15.15s", pm_est_lat_name(s));
	fprintf(o, " instruction\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(o, " %7" PRIu64, r[i]->k_ev[PM_EST_EV_FETCHED]);
		for (unsigned s = 0; s < TIPROF_PM_NLAT; s++) {
			char cell[40];

			if (r[i]->lat[s].n)
				snprintf(cell, sizeof(cell), "%.1f/%.0f", pm_est_lat_mean(&r[i]->lat[s]),
					 pm_est_lat_quantile(&r[i]->lat[s], 0.9));
			else
				snprintf(cell, sizeof(cell), "-");
			fprintf(o, " %15s", cell);
		}
		pm_view_insn_name(v, r[i]->pc, name, sizeof(name));
		fprintf(o, " %s\n", name);
	}
	for (size_t i = 0; i < n && i < LAT_DETAIL; i++) {
		pm_view_insn_name(v, r[i]->pc, name, sizeof(name));
		fprintf(o, "\n%s (0x%" PRIx64 "): n, mean, p50, p90, p99, max; histogram "
			"(cycles:samples)\n", name, r[i]->pc);
		for (unsigned s = 0; s < TIPROF_PM_NLAT; s++) {
			const struct pm_est_lat *l = &r[i]->lat[s];

			if (!l->n)
				continue;
			fprintf(o, "  %-16s %6" PRIu64 " %8.2f %6.0f %6.0f %6.0f %6u  |",
				pm_est_lat_name(s), l->n, pm_est_lat_mean(l),
				pm_est_lat_quantile(l, 0.5), pm_est_lat_quantile(l, 0.9),
				pm_est_lat_quantile(l, 0.99), l->max);
			text_hist(o, l);
			fputc('\n', o);
		}
	}
	free(r);
	return 0;
}
