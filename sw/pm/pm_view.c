/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_view.c - what the views of `tiprof pm` share (contract in pm_view.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pm_view.h"
#include "lib/sfprof.h"

/* ---- names and order */

/* Contract in pm_view.h. */
int pm_view_sort_parse(const char *s)
{
	static const struct { const char *name; int key; } extra[] = {
		{ "overlap", PM_SORT_OVERLAP }, { "wasted", PM_SORT_WASTED },
		{ "wasted-total", PM_SORT_WASTED_TOTAL }, { "paths", PM_SORT_PATHS },
		{ "pc", PM_SORT_PC },
	};
	int k = pm_est_event_parse(s);

	if (k >= 0)
		return k;
	if ((k = pm_est_lat_parse(s)) >= 0)
		return PM_SORT_LAT + k;
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		if (!strcmp(s, extra[i].name))
			return extra[i].key;
	return -2;
}

/* Contract in pm_view.h. */
const char *pm_view_fmt(char *buf, size_t len, double x)
{
	if (x == 0)
		snprintf(buf, len, "0");
	else if (x < 10)
		snprintf(buf, len, "%.2f", x);
	else if (x < 1000)
		snprintf(buf, len, "%.1f", x);
	else if (x < 1e10)
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%.4g", x);
	return buf;
}

/* Contract in pm_view.h. */
const char *pm_view_sort_name(int key)
{
	if (key >= 0 && key < PM_EST_NEV)
		return pm_est_event_name((unsigned)key);
	if (key >= PM_SORT_LAT && key < PM_SORT_LAT + TIPROF_PM_NLAT)
		return pm_est_lat_name((unsigned)(key - PM_SORT_LAT));
	switch (key) {
	case PM_SORT_OVERLAP: return "overlap";
	case PM_SORT_WASTED: return "wasted";
	case PM_SORT_WASTED_TOTAL: return "wasted-total";
	case PM_SORT_PATHS: return "paths";
	case PM_SORT_PC: return "pc";
	default: return "fetched";
	}
}

/* Contract in pm_view.h. */
void pm_view_insn_name(const struct pm_view *v, uint64_t pc, char *buf, size_t len)
{
	if (v->sym)
		sfprof_name(v->sym, pc, buf, len);
	else
		snprintf(buf, len, "[0x%" PRIx64 "]", pc);
}

/* Contract in pm_view.h. */
void pm_view_func_name(const struct pm_view *v, uint64_t key, char *buf, size_t len)
{
	if (key == PM_EST_NOFUNC)
		snprintf(buf, len, "[unknown]");
	else
		pm_view_insn_name(v, key, buf, len);
}

/* Contract in pm_view.h. */
double pm_view_insn_value(const struct pm_view *v, const struct pm_est_insn *in, int key)
{
	if (key >= 0 && key < PM_EST_NEV)
		return (double)in->k_ev[key];
	if (key >= PM_SORT_LAT && key < PM_SORT_LAT + TIPROF_PM_NLAT)
		return pm_est_lat_mean(&in->lat[key - PM_SORT_LAT]);
	switch (key) {
	case PM_SORT_OVERLAP:
		return in->pair.overlap;
	case PM_SORT_WASTED:
		return in->pair.wasted;
	case PM_SORT_WASTED_TOTAL:
		return in->pair.wasted * pm_est_count(v->e, in->k_ev[PM_EST_EV_FETCHED]);
	case PM_SORT_PATHS:
		return (double)in->npath;
	case PM_SORT_PC:
		return -(double)in->pc;
	default:
		return (double)in->k_ev[PM_EST_EV_FETCHED];
	}
}

/* qsort has no context argument: the view and key of the sort in progress. */
static const struct pm_view *sort_v;
static int sort_key;

static int row_cmp(const void *a, const void *b)
{
	const struct pm_est_insn *x = *(const struct pm_est_insn *const *)a;
	const struct pm_est_insn *y = *(const struct pm_est_insn *const *)b;
	double vx = pm_view_insn_value(sort_v, x, sort_key);
	double vy = pm_view_insn_value(sort_v, y, sort_key);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (x->k_ev[PM_EST_EV_FETCHED] != y->k_ev[PM_EST_EV_FETCHED])
		return x->k_ev[PM_EST_EV_FETCHED] < y->k_ev[PM_EST_EV_FETCHED] ? 1 : -1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* Contract in pm_view.h. */
const struct pm_est_insn **pm_view_rows(const struct pm_view *v, int key,
					int (*keep)(const struct pm_est_insn *), size_t *n)
{
	const struct pm_est_insn **r = malloc((v->e->ninsn + 1) * sizeof(*r));
	size_t m = 0;

	*n = 0;
	if (!r)
		return NULL;
	for (size_t i = 0; i < v->e->ninsn; i++)
		if (keep(&v->e->insn[i]))
			r[m++] = &v->e->insn[i];
	sort_v = v;
	sort_key = key;
	qsort(r, m, sizeof(*r), row_cmp);
	if (v->limit > 0 && (size_t)v->limit < m)
		m = (size_t)v->limit;
	*n = m;
	return r;
}

/* ---- the recording */

static const char *mode_name(uint32_t ctrl)
{
	unsigned m = (ctrl & TIPROF_PM_CTRL_MODE_MASK) >> TIPROF_PM_CTRL_MODE_SHIFT;

	return m == TIPROF_MODE_PERIODIC ? "periodic" :
	       m == TIPROF_MODE_RANDOM_INTERVAL ? "random-interval" :
	       m == TIPROF_MODE_RANDOM_PERIOD ? "random-period" : "invalid";
}

static int unit_slots(const struct tiprof_pm_config *c)
{
	return (c->ctrl & TIPROF_PM_CTRL_UNIT_MASK) != 0;
}

static unsigned window(const struct tiprof_pm_config *c)
{
	return (c->ctrl & TIPROF_PM_CTRL_PAIR_MASK) ?
	       (unsigned)((c->pair & TIPROF_PM_PAIR_WINDOW_MASK) >> TIPROF_PM_PAIR_WINDOW_SHIFT) : 0;
}

/* Contract in pm_view.h. */
void pm_view_text_head(const struct pm_view *v)
{
	const struct pm_est *e = v->e;
	const struct tiprof_pm_config *c = &v->pf->cfg;
	const struct tiprof_pm_counts *n = &v->pf->counts;
	uint64_t sel = n->taken + n->lost + n->filtered + n->collided;

	fprintf(v->out, "ProfileMe %s of %s%s%s: %" PRIu64 " samples (%" PRIu64 " empty slots, %"
		PRIu64 " timed out, %" PRIu64 " pairs)\n", v->view, v->file,
		v->elf ? ", symbols from " : "", v->elf ? v->elf : "", e->n, e->n_empty,
		e->n_timeout, e->n_pairs);
	fprintf(v->out, "  one selection per %" PRIu32 " %s (%s)", c->period,
		unit_slots(c) ? "fetch slots" : "fetched instructions", mode_name(c->ctrl));
	if (window(c))
		fprintf(v->out, ", pairs within %u, issue width %u", window(c), c->issue_width);
	if (c->evfilt || c->latfilt)
		fprintf(v->out, ", filters EVFILT 0x%" PRIx32 " LATFILT 0x%" PRIx32, c->evfilt,
			c->latfilt);
	fputc('\n', v->out);
	if (v->pf->has_counts)
		fprintf(v->out, "  counters: taken %" PRIu64 ", lost %" PRIu64 ", filtered %" PRIu64
			", collided %" PRIu64 " (%.1f%% of selections), lost in software %" PRIu64
			"\n", n->taken, n->lost, n->filtered, n->collided,
			sel ? 100.0 * (double)n->collided / (double)sel : 0.0, n->lost_sw);
	else
		fprintf(v->out, "  counters: none in the file\n");
	fprintf(v->out, "  each sample stands for %.4g fetches%s; estimate = k x %.4g, [lo, hi] = "
		"%g%% Clopper-Pearson interval of k in %" PRIu64 "\n", e->scale,
		e->have_counts ? " (PERIOD x (TAKEN+LOST)/n x Sel/(Sel-COLLIDED))" :
		" (PERIOD: no usable counters)", e->scale, 100.0 * e->opts.conf, e->n);
	if (sel && (double)n->collided > 0.01 * (double)sel)
		fprintf(v->out, "  warning: %.1f%% of the selections collided with a sample in flight: "
			"instructions fetched then are under-sampled, so per-instruction estimates "
			"carry a bias the intervals do not cover; a larger PERIOD makes collisions "
			"rare (docs/pm-report.md)\n", 100.0 * (double)n->collided / (double)sel);
	if (e->n_bad)
		fprintf(v->out, "  %" PRIu64 " records ignored (not a ProfileMe format-1 record, or "
			"an untagged first profile)\n", e->n_bad);
}

/* Contract in pm_view.h. */
void pm_view_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* Contract in pm_view.h. */
void pm_view_json_num(FILE *out, double x)
{
	if (!isfinite(x))
		fputs("null", out);
	else if (x == floor(x) && fabs(x) < 9e15)
		fprintf(out, "%.0f", x);
	else
		fprintf(out, "%.10g", x);
}

/* Contract in pm_view.h. */
void pm_view_json_head(const struct pm_view *v)
{
	const struct pm_est *e = v->e;
	const struct tiprof_pm_config *c = &v->pf->cfg;
	const struct tiprof_pm_counts *n = &v->pf->counts;
	FILE *o = v->out;

	fprintf(o, "{\"view\": ");
	pm_view_json_str(o, v->view);
	fprintf(o, ", \"file\": ");
	pm_view_json_str(o, v->file);
	fprintf(o, ", \"elf\": ");
	if (v->elf)
		pm_view_json_str(o, v->elf);
	else
		fputs("null", o);
	fprintf(o, ",\n \"recording\": {\"records\": %" PRIu64 ", \"empty\": %" PRIu64
		", \"timeout\": %" PRIu64 ", \"pairs\": %" PRIu64 ", \"pairs_used\": %" PRIu64
		", \"ignored\": %" PRIu64 ", \"period\": %" PRIu32 ", \"unit\": \"%s\", "
		"\"mode\": \"%s\", \"fetch_width\": %u, \"pair_window\": %u, \"issue_width\": %u, "
		"\"evfilt\": %" PRIu32 ", \"latfilt\": %" PRIu32 ", \"counts\": ", e->n,
		e->n_empty, e->n_timeout, e->n_pairs, e->n_pairs_used, e->n_bad, c->period,
		unit_slots(c) ? "slots" : "instructions", mode_name(c->ctrl), c->f, window(c),
		c->issue_width, c->evfilt, c->latfilt);
	if (v->pf->has_counts)
		fprintf(o, "{\"taken\": %" PRIu64 ", \"lost\": %" PRIu64 ", \"filtered\": %" PRIu64
			", \"collided\": %" PRIu64 ", \"lost_sw\": %" PRIu64 "}", n->taken, n->lost,
			n->filtered, n->collided, n->lost_sw);
	else
		fputs("null", o);
	fprintf(o, "},\n \"estimate\": {\"scale\": ");
	pm_view_json_num(o, e->scale);
	fprintf(o, ", \"total\": ");
	pm_view_json_num(o, e->total);
	fprintf(o, ", \"scale_from_counts\": %s, \"collided_share\": ",
		e->have_counts ? "true" : "false");
	pm_view_json_num(o, n->taken + n->lost + n->filtered + n->collided ?
			 (double)n->collided / (double)(n->taken + n->lost + n->filtered +
							n->collided) : 0.0);
	fprintf(o, ", \"confidence\": ");
	pm_view_json_num(o, e->opts.conf);
	fprintf(o, ", \"interval\": \"clopper-pearson\"},\n");
}

/* The members of an estimate, without braces. */
static void json_estimate_members(const struct pm_view *v, const char *name, uint64_t k)
{
	double lo, hi;

	pm_est_interval(v->e, k, &lo, &hi);
	fprintf(v->out, "\"%s\": {\"k\": %" PRIu64 ", \"est\": ", name, k);
	pm_view_json_num(v->out, pm_est_count(v->e, k));
	fprintf(v->out, ", \"lo\": ");
	pm_view_json_num(v->out, lo);
	fprintf(v->out, ", \"hi\": ");
	pm_view_json_num(v->out, hi);
}

/* Contract in pm_view.h. */
void pm_view_json_estimate(const struct pm_view *v, const char *name, uint64_t k)
{
	json_estimate_members(v, name, k);
	fputc('}', v->out);
}

/* Contract in pm_view.h. */
void pm_view_json_estimate_rate(const struct pm_view *v, const char *name, uint64_t k,
				uint64_t k_fetched)
{
	double r, lo, hi;

	json_estimate_members(v, name, k);
	pm_est_rate(v->e, k, k_fetched, &r, &lo, &hi);
	fprintf(v->out, ", \"rate\": ");
	pm_view_json_num(v->out, r);
	fprintf(v->out, ", \"rate_lo\": ");
	pm_view_json_num(v->out, lo);
	fprintf(v->out, ", \"rate_hi\": ");
	pm_view_json_num(v->out, hi);
	fputc('}', v->out);
}

/* Contract in pm_view.h. */
void pm_view_json_lat(FILE *o, const struct pm_est_lat *l)
{
	int first = 1;

	fprintf(o, "{\"n\": %" PRIu64 ", \"mean\": ", l->n);
	pm_view_json_num(o, pm_est_lat_mean(l));
	fprintf(o, ", \"min\": %u, \"p50\": ", l->n ? l->min : 0);
	pm_view_json_num(o, pm_est_lat_quantile(l, 0.5));
	fprintf(o, ", \"p90\": ");
	pm_view_json_num(o, pm_est_lat_quantile(l, 0.9));
	fprintf(o, ", \"p99\": ");
	pm_view_json_num(o, pm_est_lat_quantile(l, 0.99));
	fprintf(o, ", \"max\": %u, \"hist\": [", l->n ? l->max : 0);
	for (unsigned b = 0; b < PM_EST_HBINS; b++)
		if (l->hist[b]) {
			fprintf(o, "%s[%u, %" PRIu64 "]", first ? "" : ", ", pm_est_bin_lo(b),
				l->hist[b]);
			first = 0;
		}
	fprintf(o, "]}");
}
