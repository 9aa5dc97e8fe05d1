/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_view_pairs.c - `tiprof pm pairs`: the ProfileMe paper's concurrency metrics from paired
 * samples (docs/pm-report.md "pairs"): per instruction I, the useful overlap (expected
 * retired instructions issued during I's lifetime, from the W fetched before and the W after
 * it) and the wasted issue slots (issue width x I's mean lifetime - useful overlap), with
 * the pair counts they rest on.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "pm_view.h"

static int keep_pair(const struct pm_est_insn *in)
{
	return in->pair.life_n != 0;
}

/* The members of one set of pair figures. */
static void json_pair(FILE *o, const struct pm_est_pair *p, unsigned iw)
{
	fprintf(o, "\"n_first\": %" PRIu64 ", \"u_first\": %" PRIu64 ", \"n_second\": %" PRIu64
		", \"u_second\": %" PRIu64 ", \"one_sided\": %s, \"life_mean\": ", p->n_first,
		p->u_first, p->n_second, p->u_second, p->one_sided ? "true" : "false");
	pm_view_json_num(o, p->life_mean);
	fputs(", \"overlap\": ", o);
	pm_view_json_num(o, p->overlap);
	fputs(", \"overlap_lo\": ", o);
	pm_view_json_num(o, p->overlap_lo);
	fputs(", \"overlap_hi\": ", o);
	pm_view_json_num(o, p->overlap_hi);
	fputs(", \"wasted\": ", o);
	if (iw)
		pm_view_json_num(o, p->wasted);
	else
		fputs("null", o);
}

/* Contract in pm_view.h. */
int pm_view_pairs(const struct pm_view *v)
{
	int key = v->sort == PM_SORT_DEFAULT ? PM_EST_EV_FETCHED : v->sort;
	const struct pm_est_insn **r;
	const struct tiprof_pm_config *c = &v->pf->cfg;
	unsigned w = (unsigned)((c->pair & TIPROF_PM_PAIR_WINDOW_MASK) >>
				TIPROF_PM_PAIR_WINDOW_SHIFT);
	size_t n;
	char name[512];
	FILE *o = v->out;

	if (!(r = pm_view_rows(v, key, keep_pair, &n)) && v->e->ninsn)
		return -1;
	if (v->json) {
		pm_view_json_head(v);
		fprintf(o, " \"window\": %u, \"issue_width\": %u,\n \"instructions\": [", w,
			c->issue_width);
		for (size_t i = 0; i < n; i++) {
			pm_view_insn_name(v, r[i]->pc, name, sizeof(name));
			fprintf(o, "%s\n  {\"pc\": \"0x%" PRIx64 "\", \"name\": ", i ? "," : "",
				r[i]->pc);
			pm_view_json_str(o, name);
			fprintf(o, ", \"k\": %" PRIu64 ", ", r[i]->k_ev[PM_EST_EV_FETCHED]);
			json_pair(o, &r[i]->pair, c->issue_width);
			fputs(", \"retired\": {", o);
			json_pair(o, &r[i]->pair_retired, c->issue_width);
			fputs("}}", o);
		}
		fprintf(o, "]}\n");
		free(r);
		return 0;
	}
	pm_view_text_head(v);
	if (!v->e->n_pairs) {
		fprintf(o, "  no paired samples in this recording (PM_CTRL.PAIR was 0)\n");
		free(r);
		return 0;
	}
	fprintf(o, "  useful overlap = W x (u1/n1 + u2/n2), W = %u: retired instructions issued "
		"during I's lifetime (fetch to end) among the W fetched before and the W after I;\n"
		"  n1/u1: pairs with I first / of them useful, n2/u2 with I second; * = one side "
		"only: 2W u/n\n", w);
	if (c->issue_width)
		fprintf(o, "  wasted issue slots = %u x mean lifetime - useful overlap\n",
			c->issue_width);
	else
		fprintf(o, "  wasted issue slots: the recording does not give the issue width\n");
	fprintf(o, "\nInstructions by %s:\n %7s %6s %5s %6s %5s %8s %8s %-19s %8s %s\n",
		pm_view_sort_name(key), "k", "n1", "u1", "n2", "u2", "life", "overlap",
		"  [95% approx]", "wasted", "instruction");
	for (size_t i = 0; i < n; i++) {
		const struct pm_est_pair *p = &r[i]->pair;

		pm_view_insn_name(v, r[i]->pc, name, sizeof(name));
		fprintf(o, " %7" PRIu64 " %6" PRIu64 " %5" PRIu64 " %6" PRIu64 " %5" PRIu64
			" %8.2f %7.2f%s [%7.2f, %7.2f]", r[i]->k_ev[PM_EST_EV_FETCHED], p->n_first,
			p->u_first, p->n_second, p->u_second, p->life_mean, p->overlap,
			p->one_sided ? "*" : " ", p->overlap_lo, p->overlap_hi);
		if (c->issue_width)
			fprintf(o, " %8.2f", p->wasted);
		else
			fprintf(o, " %8s", "-");
		fprintf(o, " %s\n", name);
	}
	free(r);
	return 0;
}
