/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_view_mem.c - `tiprof pm mem`: memory operations like `perf mem report` (docs/pm-report.md
 * "mem"): loads by D-cache and D-TLB outcome with their memory latency (request to complete)
 * and estimated counts, per instruction and per data region (EA >> 12, 4 KiB).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "pm_view.h"

static const char *const cls_name[4] = { "l1_hit", "l1_miss", "tlb_miss_l1_hit",
					 "tlb_miss_l1_miss" };

static int keep_mem(const struct pm_est_insn *in)
{
	return in->mem.loads + in->mem.stores != 0;
}

/* Regions by loads + stores, then base. */
static int region_cmp(const void *a, const void *b)
{
	const struct pm_est_region *x = *(const struct pm_est_region *const *)a;
	const struct pm_est_region *y = *(const struct pm_est_region *const *)b;
	uint64_t nx = x->mem.loads + x->mem.stores, ny = y->mem.loads + y->mem.stores;

	if (nx != ny)
		return nx < ny ? 1 : -1;
	return x->base < y->base ? -1 : x->base > y->base;
}

/* Mean memory latency of the classes in mask (bit c = class c), -1: no such load. */
static double cls_lat(const struct pm_est_mem *m, unsigned mask)
{
	double s = 0;
	uint64_t n = 0;

	for (unsigned i = 0; i < 4; i++)
		if ((mask >> i) & 1u) {
			s += m->lat_sum[i];
			n += m->lat_n[i];
		}
	return n ? s / (double)n : -1.0;
}

static void json_mem(const struct pm_view *v, const struct pm_est_mem *m)
{
	FILE *o = v->out;

	fputs("{", o);
	pm_view_json_estimate(v, "loads", m->loads);
	fputs(", ", o);
	pm_view_json_estimate(v, "stores", m->stores);
	fputs(", ", o);
	pm_view_json_estimate(v, "store_l1_miss", m->store_dc_miss);
	fputs(", \"classes\": {", o);
	for (unsigned c = 0; c < 4; c++) {
		fprintf(o, "%s\"%s\": {\"k\": %" PRIu64 ", \"est\": ", c ? ", " : "", cls_name[c],
			m->cls[c]);
		pm_view_json_num(o, pm_est_count(v->e, m->cls[c]));
		fprintf(o, ", \"lat_n\": %" PRIu64 ", \"lat_mean\": ", m->lat_n[c]);
		pm_view_json_num(o, m->lat_n[c] ? m->lat_sum[c] / (double)m->lat_n[c] : 0.0);
		fputs("}", o);
	}
	fputs("}, \"lat_hist\": [", o);
	for (unsigned b = 0, f = 1; b < PM_EST_HBINS; b++)
		if (m->hist[b]) {
			fprintf(o, "%s[%u, %" PRIu64 "]", f ? "" : ", ", pm_est_bin_lo(b), m->hist[b]);
			f = 0;
		}
	fputs("]}", o);
}

static void text_mem(const struct pm_view *v, const struct pm_est_mem *m)
{
	FILE *o = v->out;
	double lo, hi, l = cls_lat(m, 0xF);
	char a[32], b[32], c[32];

	pm_est_interval(v->e, m->loads, &lo, &hi);
	fprintf(o, " %6" PRIu64 " %10s [%9s, %9s]", m->loads,
		pm_view_fmt(a, sizeof(a), pm_est_count(v->e, m->loads)),
		pm_view_fmt(b, sizeof(b), lo), pm_view_fmt(c, sizeof(c), hi));
	for (unsigned c = 0; c < 4; c++)
		fprintf(o, " %5.1f%%", m->loads ? 100.0 * (double)m->cls[c] / (double)m->loads : 0.0);
	if (l >= 0)
		fprintf(o, " %7.1f", l);
	else
		fprintf(o, " %7s", "-");
	for (unsigned c = 0; c < 2; c++) {	/* L1 hits (classes 0, 2), L1 misses (1, 3) */
		double x = cls_lat(m, c ? 0xA : 0x5);

		if (x >= 0)
			fprintf(o, " %7.1f", x);
		else
			fprintf(o, " %7s", "-");
	}
	fprintf(o, " %6" PRIu64 " %6" PRIu64, m->stores, m->store_dc_miss);
}

/* The loads' memory latency in log2 buckets (cycles:loads), on a line of its own. */
static void text_buckets(FILE *o, const struct pm_est_mem *m)
{
	int any = 0;

	for (unsigned b = 0; b < PM_EST_HBINS; b++) {
		unsigned lo = pm_est_bin_lo(b), hi = b ? 2 * lo - 1 : 0;

		if (!m->hist[b])
			continue;
		if (!any)
			fprintf(o, "        load latency:");
		any = 1;
		if (lo == hi)
			fprintf(o, " %u:%" PRIu64, lo, m->hist[b]);
		else
			fprintf(o, " %u-%u:%" PRIu64, lo, hi, m->hist[b]);
	}
	if (any)
		fputc('\n', o);
}

static void text_cols(FILE *o, const char *what)
{
	fprintf(o, " %6s %10s %-22s %6s %6s %6s %6s %7s %7s %7s %6s %6s %s\n", "loads", "est",
		"  [95% interval]", "L1hit", "L1miss", "TLB+h", "TLB+m", "lat", "lat_h", "lat_m",
		"stores", "st_m", what);
}

/* Contract in pm_view.h. */
int pm_view_mem(const struct pm_view *v)
{
	int key = v->sort == PM_SORT_DEFAULT ? (int)TIPROF_PM_EV_LOAD : v->sort;
	const struct pm_est_insn **r;
	const struct pm_est_region **g;
	size_t n, ng = 0;
	char name[512];
	FILE *o = v->out;

	r = pm_view_rows(v, key, keep_mem, &n);
	g = malloc((v->e->nregion + 1) * sizeof(*g));
	if (!g || (!r && v->e->ninsn)) {
		free(r);
		free(g);
		return -1;
	}
	for (size_t i = 0; i < v->e->nregion; i++)
		g[ng++] = &v->e->region[i];
	qsort(g, ng, sizeof(*g), region_cmp);
	if (v->limit > 0 && (size_t)v->limit < ng)
		ng = (size_t)v->limit;
	if (v->json) {
		pm_view_json_head(v);
		fprintf(o, " \"region_bytes\": %llu,\n \"instructions\": [",
			1ull << v->e->opts.region_shift);
		for (size_t i = 0; i < n; i++) {
			pm_view_insn_name(v, r[i]->pc, name, sizeof(name));
			fprintf(o, "%s\n  {\"pc\": \"0x%" PRIx64 "\", \"name\": ", i ? "," : "",
				r[i]->pc);
			pm_view_json_str(o, name);
			fputs(", \"mem\": ", o);
			json_mem(v, &r[i]->mem);
			fputs("}", o);
		}
		fprintf(o, "],\n \"regions\": [");
		for (size_t i = 0; i < ng; i++) {
			fprintf(o, "%s\n  {\"base\": \"0x%" PRIx64 "\", \"mem\": ", i ? "," : "",
				g[i]->base);
			json_mem(v, &g[i]->mem);
			fputs("}", o);
		}
		fprintf(o, "]}\n");
	} else {
		pm_view_text_head(v);
		fprintf(o, "  loads by outcome: L1 hit, L1 (D-cache) miss, D-TLB miss + L1 hit, D-TLB "
			"miss + L1 miss; lat = mean cycles from the D-cache request to complete (all, "
			"L1 hit, L1 miss)\n");
		fprintf(o, "\nInstructions by %s:\n", pm_view_sort_name(key));
		text_cols(o, "instruction");
		for (size_t i = 0; i < n; i++) {
			text_mem(v, &r[i]->mem);
			pm_view_insn_name(v, r[i]->pc, name, sizeof(name));
			fprintf(o, " %s\n", name);
			text_buckets(o, &r[i]->mem);
		}
		fprintf(o, "\nData regions of %llu bytes, by accesses:\n",
			1ull << v->e->opts.region_shift);
		text_cols(o, "region");
		for (size_t i = 0; i < ng; i++) {
			text_mem(v, &g[i]->mem);
			fprintf(o, " 0x%" PRIx64 "\n", g[i]->base);
			text_buckets(o, &g[i]->mem);
		}
	}
	free(r);
	free(g);
	return 0;
}
