/* SPDX-License-Identifier: Apache-2.0 */
/*
 * polcmp.c - the policies `--compare` shows (contract in polcmp.h).
 */
#include "polcmp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The policies a comparison file holds, as the user may name them. */
static const char *const known[] = { "Oracle", "Ideal", "LCI", "NCI", "NCI+ILP", "Dispatch",
				     "Software", NULL };

/* Column of name, or NULL. */
static struct polcmp_col *find(struct polcmp *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->col[i].name, name))
			return &c->col[i];
	return NULL;
}

static int add(void *ctx, const char *name, double total, uint64_t pc, double w)
{
	struct polcmp_col *col = find(ctx, name);

	if (!col)
		return 0;
	col->total = total;
	if (col->n == col->cap) {
		size_t cap = col->cap ? 2 * col->cap : 1024;
		uint64_t *p = realloc(col->pc, cap * sizeof(*p));
		double *q;

		if (!p)
			return -2;
		col->pc = p;
		q = realloc(col->w, cap * sizeof(*q));
		if (!q)
			return -2;
		col->w = q;
		col->cap = cap;
	}
	col->pc[col->n] = pc;
	col->w[col->n++] = w;
	return 0;
}

/* Contract in polcmp.h. */
int polcmp_load(struct polcmp *c, const char *sample_file, const char *list, const uint8_t *id,
		size_t idlen, char *err, size_t errlen)
{
	char path[4200], e[256];
	struct policy_profile_hdr h;
	const char *p = list;
	FILE *f;
	int r;

	memset(c, 0, sizeof(*c));
	while (*p) {
		size_t len = strcspn(p, ",");
		int k;

		for (k = 0; known[k]; k++)
			if (strlen(known[k]) == len && !strncasecmp(known[k], p, len))
				break;
		if (!known[k] || c->n == POLCMP_MAX || find(c, known[k])) {
			snprintf(err, errlen, "--compare: %s '%.*s'; use Oracle, Ideal, LCI, NCI, "
				 "NCI+ILP, Dispatch or Software", known[k] ? "policy given twice"
				 : "unknown policy", (int)len, p);
			return -1;
		}
		snprintf(c->col[c->n++].name, sizeof(c->col[0].name), "%s", known[k]);
		p += len + (p[len] == ',');
	}
	if (!c->n) {
		snprintf(err, errlen, "--compare: no policy named");
		return -1;
	}
	snprintf(path, sizeof(path), "%s.policies", sample_file);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s (tiprof sim --profile %s writes it beside "
			 "the sample file; a recording from the hardware has none)", path,
			 strerror(errno), sample_file);
		return -1;
	}
	r = policy_profile_read(f, &h, add, c, e, sizeof(e));
	fclose(f);
	if (r == -2) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (r) {
		snprintf(err, errlen, "%s: %s", path, e);
		return -1;
	}
	if (h.build_id_len != idlen || memcmp(h.build_id, id, idlen)) {
		snprintf(err, errlen, "%s: made for a program with another build-id than %s's; "
			 "record both again", path, sample_file);
		return -1;
	}
	c->sampled = h.sampled;
	return 0;
}

/* Contract in polcmp.h. */
double polcmp_share(const struct polcmp_col *col, uint64_t lo, uint64_t hi)
{
	size_t a = 0, b = col->n;
	double s = 0;

	while (a < b) {		/* first address >= lo */
		size_t m = a + (b - a) / 2;

		if (col->pc[m] < lo)
			a = m + 1;
		else
			b = m;
	}
	for (; a < col->n && col->pc[a] < hi; a++)
		s += col->w[a];
	return col->total > 0 ? s / col->total : 0;
}

/* Contract in polcmp.h. */
void polcmp_free(struct polcmp *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->col[i].pc);
		free(c->col[i].w);
	}
	memset(c, 0, sizeof(*c));
}
