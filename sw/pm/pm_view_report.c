/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_view_report.c - `tiprof pm report`: the hottest functions and instructions with the
 * estimated count of each chosen event and its interval (docs/pm-report.md "report").
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pm_view.h"

static int keep_sampled(const struct pm_est_insn *in)
{
	return in->k_ev[PM_EST_EV_FETCHED] != 0;
}

/* Functions ordered by event key (fetched for keys that are not events). */
static int fkey;
static int func_cmp(const void *a, const void *b)
{
	const struct pm_est_func *x = *(const struct pm_est_func *const *)a;
	const struct pm_est_func *y = *(const struct pm_est_func *const *)b;

	if (x->k_ev[fkey] != y->k_ev[fkey])
		return x->k_ev[fkey] < y->k_ev[fkey] ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static const struct pm_est_func **func_rows(const struct pm_view *v, size_t *n)
{
	const struct pm_est_func **r = malloc((v->e->nfunc + 1) * sizeof(*r));
	size_t m = 0;

	*n = 0;
	if (!r)
		return NULL;
	for (size_t i = 0; i < v->e->nfunc; i++)
		if (v->e->func[i].k_ev[PM_EST_EV_FETCHED])
			r[m++] = &v->e->func[i];
	fkey = v->sort >= 0 && v->sort < PM_EST_NEV ? v->sort : PM_EST_EV_FETCHED;
	qsort(r, m, sizeof(*r), func_cmp);
	if (v->limit > 0 && (size_t)v->limit < m)
		m = (size_t)v->limit;
	*n = m;
	return r;
}

/* One event's columns: k, estimate, interval. */
static void text_cells(const struct pm_view *v, const uint64_t *k)
{
	for (unsigned i = 0; i < v->nev; i++) {
		double lo, hi;
		uint64_t x = k[v->ev[i]];
		char a[32], b[32], c[32];

		pm_est_interval(v->e, x, &lo, &hi);
		fprintf(v->out, " %7" PRIu64 " %10s [%9s, %9s]", x,
			pm_view_fmt(a, sizeof(a), pm_est_count(v->e, x)),
			pm_view_fmt(b, sizeof(b), lo), pm_view_fmt(c, sizeof(c), hi));
		if ((int)v->ev[i] != PM_EST_EV_FETCHED)
			fprintf(v->out, " %5.1f%%", k[PM_EST_EV_FETCHED] ?
				100.0 * (double)x / (double)k[PM_EST_EV_FETCHED] : 0.0);
	}
}

static void text_header(const struct pm_view *v, const char *what)
{
	fprintf(v->out, "\n%s, by %s:\n", what, pm_view_sort_name(v->sort));
	for (unsigned i = 0; i < v->nev; i++) {
		fprintf(v->out, " %7s %10.10s %-22s", "k", pm_est_event_name(v->ev[i]),
			"  [95% interval]");
		if ((int)v->ev[i] != PM_EST_EV_FETCHED)
			fprintf(v->out, " %6s", "rate");
	}
	fprintf(v->out, " %s\n", strcmp(what, "Functions") ? "instruction" : "function");
}

static void json_events(const struct pm_view *v, const uint64_t *k)
{
	fputs("{", v->out);
	for (unsigned ev = 0; ev < PM_EST_NEV; ev++) {
		if (ev)
			fputs(", ", v->out);
		pm_view_json_estimate_rate(v, pm_est_event_name((unsigned)ev), k[ev],
					   k[PM_EST_EV_FETCHED]);
	}
	fputs("}", v->out);
}

/* Contract in pm_view.h. */
int pm_view_report(const struct pm_view *v)
{
	const struct pm_est_func **fr = NULL;
	const struct pm_est_insn **ir = NULL;
	size_t nf = 0, ni = 0;
	char name[512];
	int isort = v->sort == PM_SORT_DEFAULT ? PM_EST_EV_FETCHED : v->sort;
	struct pm_view vi = *v, vf = *v;

	vi.sort = isort;
	vf.sort = v->sort >= 0 && v->sort < PM_EST_NEV ? v->sort : PM_EST_EV_FETCHED;
	if (v->level != LEVEL_INSTRUCTION && !(fr = func_rows(v, &nf)))
		return -1;
	if (v->level != LEVEL_FUNCTION && !(ir = pm_view_rows(&vi, isort, keep_sampled, &ni))) {
		free(fr);
		return -1;
	}
	if (v->json) {
		pm_view_json_head(v);
		fprintf(v->out, " \"events\": [");
		for (unsigned i = 0; i < v->nev; i++) {
			fprintf(v->out, "%s", i ? ", " : "");
			pm_view_json_str(v->out, pm_est_event_name(v->ev[i]));
		}
		fprintf(v->out, "],\n \"functions\": [");
		for (size_t i = 0; i < nf; i++) {
			pm_view_func_name(v, fr[i]->key, name, sizeof(name));
			fprintf(v->out, "%s\n  {\"name\": ", i ? "," : "");
			pm_view_json_str(v->out, name);
			fprintf(v->out, ", \"key\": \"0x%" PRIx64 "\", \"instructions\": %zu, "
				"\"events\": ", fr[i]->key, fr[i]->ninsn);
			json_events(v, fr[i]->k_ev);
			fputc('}', v->out);
		}
		fprintf(v->out, "],\n \"instructions\": [");
		for (size_t i = 0; i < ni; i++) {
			pm_view_insn_name(v, ir[i]->pc, name, sizeof(name));
			fprintf(v->out, "%s\n  {\"pc\": \"0x%" PRIx64 "\", \"name\": ", i ? "," : "",
				ir[i]->pc);
			pm_view_json_str(v->out, name);
			fprintf(v->out, ", \"aborted_by_reason\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64
				", %" PRIu64 "], \"events\": ", ir[i]->reason[0], ir[i]->reason[1],
				ir[i]->reason[2], ir[i]->reason[3]);
			json_events(v, ir[i]->k_ev);
			fputc('}', v->out);
		}
		fprintf(v->out, "]}\n");
	} else {
		pm_view_text_head(v);
		if (v->level != LEVEL_INSTRUCTION) {
			text_header(&vf, "Functions");
			for (size_t i = 0; i < nf; i++) {
				text_cells(v, fr[i]->k_ev);
				pm_view_func_name(v, fr[i]->key, name, sizeof(name));
				fprintf(v->out, " %s\n", name);
			}
		}
		if (v->level != LEVEL_FUNCTION) {
			text_header(&vi, "Instructions");
			for (size_t i = 0; i < ni; i++) {
				text_cells(v, ir[i]->k_ev);
				pm_view_insn_name(v, ir[i]->pc, name, sizeof(name));
				if (v->sym)
					fprintf(v->out, " %s (0x%" PRIx64 ")\n", name, ir[i]->pc);
				else
					fprintf(v->out, " %s\n", name);
			}
		}
	}
	free(fr);
	free(ir);
	return 0;
}
