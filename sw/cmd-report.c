/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-report.c - `tiprof report FILE [--elf ELF] [--level function|block|instruction]
 * [--json] [--oracle ORACLE] [--limit N] [--cycle-stack] [--svg OUT.svg] [--function NAME]`:
 * flat profile of a sample file, hottest first, each symbol's time share and cycle-category
 * mix; or its cycle stacks (per symbol, and per hot instruction of one function) as text,
 * JSON or an SVG chart in the style of the TIP paper's Figures 7 and 13 (docs/report.md).
 * Samples are attributed time-proportionally by sw/lib/attrib; symbols come from
 * lib/symbol/code_map; the chart is drawn by lib/chart/svg.
 *
 * Sections: aggregation; the Oracle profile; the function of the cycle-stack view;
 * output (text, JSON, cycle stacks, SVG); entry point.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sfprof.h"
#include "oracle_profile.h"
#include "lib/polcmp.h"
#include "svg.h"
#include "rv_isa.h"
#include "tiprof/cmd.h"

#define REPORT_UNKNOWN CODE_MAP_UNKNOWN	/* key of addresses outside every function */

/* State of one report. */
struct report_ctx {
	const char *file;		/* the sample file */
	const char *elf;		/* --elf, or NULL */
	const char *kallsyms;		/* --kallsyms, or NULL: FILE.kallsyms if present */
	const char *oracle;		/* --oracle, or NULL */
	enum code_level level;		/* aggregation level */
	const char *svg;		/* --svg: the cycle-stack chart to write, or NULL */
	const char *func;		/* --function: the function of the instruction view */
	int json;			/* one JSON object */
	int cycle_stack;		/* --cycle-stack: cycle stacks instead of the flat profile */
	long limit;			/* rows in text output, 0 = all, -1: default */
	struct sfprof p;		/* the profile */
	struct attr_prof agg;		/* aggregated to the level, in samples */
	struct attr_prof orc;		/* the Oracle aggregated the same way, in cycles */
	const char *compare;		/* --compare: policies to show beside TIP, or NULL */
	struct polcmp cmp;		/* their profiles, by address ... */
	struct attr_prof cagg[POLCMP_MAX]; /* ... and aggregated to the level */
	long fo;			/* object of that function (sfprof) */
	long fi;			/* function of the instruction view, -1: none */
	uint64_t flo, fhi;		/* its run-time range */
	uint64_t fbias;			/* its object's load bias (text shows link addresses) */
	char fname[512];		/* its name ("func" or "func@libc.so.6") */
	double fw;			/* its weight, in samples */
	const struct attr_ent **ins;	/* its sampled instructions, by address (owned) */
	size_t nins;			/* how many */
	const struct attr_ent **hot;	/* the hottest of ins, by address (owned) */
	size_t nhot;			/* how many */
	char err[1024];			/* message of a failure */
};

/* Hot instructions shown in the text and SVG cycle-stack views; function rows in the SVG. */
#define REPORT_HOT_INSNS 12
#define REPORT_SVG_ROWS 12

static const char *const level_names[] = { "instruction", "block", "function" };

/* ---- aggregation */

/* Key of the run-time address addr at the context's level (sfprof_key: still a run-time
 * address, so the Oracle's and --compare's addresses aggregate the same way). */
static uint64_t report_key(struct report_ctx *x, uint64_t addr)
{
	return sfprof_key(&x->p, addr, x->level);
}

/* Name of a key: function, function+offset, "func@libc.so.6", "[unknown]", an address. */
static void report_name(struct report_ctx *x, uint64_t key, char *buf, size_t len)
{
	sfprof_name(&x->p, key, buf, len);
}

static int report_aggregate(struct report_ctx *x)
{
	for (size_t i = 0; i < x->p.prof.n; i++) {
		const struct attr_ent *e = &x->p.prof.ent[i];
		uint64_t k = report_key(x, e->key);

		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			if (e->w[c] != 0 && attr_prof_add(&x->agg, k, c, e->w[c]))
				return -1;
	}
	attr_prof_sort(&x->agg);
	return 0;
}

/* ---- the Oracle profile (docs/core.md, "Oracle profile file") */

/* One address line of the Oracle profile into x->orc, in cycles at the context's level. */
static int report_oracle_ent(void *ctx, const struct oracle_profile_hdr *h,
			     const struct oracle_profile_ent *e)
{
	struct report_ctx *x = ctx;

	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		if (e->units[c] && attr_prof_add(&x->orc, report_key(x, e->pc), c,
						 (double)e->units[c] / (double)h->unit)) {
			snprintf(x->err, sizeof(x->err), "out of memory");
			return -2;
		}
	return 0;
}

/* Read x->oracle (lib/sample/oracle_profile) aggregated to the level, in cycles. Returns 0 or
 * -1 with x->err set. */
static int report_oracle(struct report_ctx *x)
{
	struct oracle_profile_hdr h;
	char why[256];
	FILE *f = fopen(x->oracle, "r");
	int r;

	if (!f) {
		snprintf(x->err, sizeof(x->err), "cannot open the Oracle profile %s", x->oracle);
		return -1;
	}
	r = oracle_profile_read(f, &h, report_oracle_ent, x, why, sizeof(why));
	fclose(f);
	if (r == -1)
		snprintf(x->err, sizeof(x->err), "%s is not a tiprof Oracle profile (tiprof sim "
			 "--oracle writes one): %s", x->oracle, why);
	return r ? -1 : 0;
}

/* Oracle share of key (0 if absent). */
/* Aggregate the --compare policies to the level. Returns 0 or -1 (out of memory). */
static int report_compare_agg(struct report_ctx *x)
{
	for (size_t k = 0; k < x->cmp.n; k++)
		for (size_t i = 0; i < x->cmp.col[k].n; i++)
			if (attr_prof_add(&x->cagg[k], report_key(x, x->cmp.col[k].pc[i]), 0,
					  x->cmp.col[k].w[i]))
				return -1;
	return 0;
}

/* Share of policy k's run at key. */
static double report_compare_share(const struct report_ctx *x, size_t k, uint64_t key)
{
	const struct attr_ent *e = attr_prof_get(&x->cagg[k], key);

	return e && x->cmp.col[k].total > 0 ? e->total / x->cmp.col[k].total : 0.0;
}

static double report_oracle_share(const struct report_ctx *x, uint64_t key)
{
	const struct attr_ent *e = attr_prof_get(&x->orc, key);

	return e && x->orc.total > 0 ? e->total / x->orc.total : 0.0;
}

/* ---- the function of the cycle-stack view */

static int ent_by_addr(const void *a, const void *b)
{
	const struct attr_ent *x = *(const struct attr_ent *const *)a;
	const struct attr_ent *y = *(const struct attr_ent *const *)b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Heaviest first, ties by address. */
static int ent_by_weight(const void *a, const void *b)
{
	const struct attr_ent *x = *(const struct attr_ent *const *)a;
	const struct attr_ent *y = *(const struct attr_ent *const *)b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Choose the function (--function, else the one with most samples), collect its sampled
 * instructions by address and the REPORT_HOT_INSNS heaviest of them. x->fi = -1 when no
 * sample falls in a function. Returns 0 or -1 with x->err set. */
static int report_func(struct report_ctx *x)
{
	const struct code_map *m;

	x->fi = -1;
	if (x->func) {
		if (sfprof_find_func(&x->p, x->func, &x->fo, &x->fi, x->err, sizeof(x->err)))
			return -1;
	} else if (sfprof_hottest(&x->p, &x->fo, &x->fi)) {
		x->fi = -1;
		return 0;
	}
	m = sfprof_obj_map(&x->p, x->fo);
	x->fbias = x->p.obj[x->fo].rec.bias;
	x->flo = m->func[x->fi].start + x->fbias;
	x->fhi = m->func[x->fi].end + x->fbias;
	sfprof_func_name(&x->p, x->fo, x->fi, x->fname, sizeof(x->fname));
	x->ins = calloc(x->p.prof.n ? x->p.prof.n : 1, sizeof(*x->ins));
	if (!x->ins)
		goto nomem;
	for (size_t i = 0; i < x->p.prof.n; i++) {
		const struct attr_ent *e = &x->p.prof.ent[i];

		if (e->key >= x->flo && e->key < x->fhi) {
			x->ins[x->nins++] = e;
			x->fw += e->total;
		}
	}
	qsort(x->ins, x->nins, sizeof(*x->ins), ent_by_addr);
	x->hot = calloc(x->nins ? x->nins : 1, sizeof(*x->hot));
	if (!x->hot)
		goto nomem;
	memcpy(x->hot, x->ins, x->nins * sizeof(*x->hot));
	qsort(x->hot, x->nins, sizeof(*x->hot), ent_by_weight);
	x->nhot = x->nins < REPORT_HOT_INSNS ? x->nins : REPORT_HOT_INSNS;
	qsort(x->hot, x->nhot, sizeof(*x->hot), ent_by_addr);
	return 0;
nomem:
	snprintf(x->err, sizeof(x->err), "out of memory");
	return -1;
}

/* The disassembly of the instruction at run-time address rt, as at its link-time address
 * pc = rt - bias of the chosen function's object (tabs as spaces). */
static void report_disasm(struct report_ctx *x, uint64_t rt, char *buf, size_t len)
{
	uint8_t b[4];
	size_t n = sfprof_read(&x->p, rt, b, sizeof(b));
	uint64_t pc = rt - x->fbias;
	struct rv_insn in;

	if (!n)
		snprintf(buf, len, "(not in the ELF)");
	else if (rv_decode(b, n, pc, &in) < 0 || rv_disasm(&in, pc, buf, len) < 0)
		snprintf(buf, len, "(undecodable)");
	for (char *t = buf; *t; t++)
		if (*t == '\t')
			*t = ' ';
}

/* ---- output */

/* s as a JSON string body. */
static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* The "address" (run-time, or null) and "object" (file name, or null) of a row's key. */
static void report_json_addr(struct report_ctx *x, FILE *out, uint64_t key)
{
	const char *obj = sfprof_key_object(&x->p, key);

	if (key == REPORT_UNKNOWN || key >= REPORT_UNKNOWN - x->p.nobj)
		fprintf(out, ", \"address\": null");
	else
		fprintf(out, ", \"address\": \"0x%" PRIx64 "\"", key);
	fprintf(out, ", \"object\": ");
	if (obj)
		json_str(out, obj);
	else
		fprintf(out, "null");
}

static void report_json(struct report_ctx *x, FILE *out)
{
	const struct attr_prof *a = &x->agg;
	char bid[2 * SF_BUILD_ID_MAX + 1], name[512];

	elf_image_hex(x->p.hdr.build_id, x->p.hdr.build_id_len, bid, sizeof(bid));
	fprintf(out, "{\"file\": ");
	json_str(out, x->file);
	fprintf(out, ", \"elf\": ");
	json_str(out, x->p.elf);
	fprintf(out, ", \"kallsyms\": ");
	if (x->p.ks_path[0])
		json_str(out, x->p.ks_path);
	else
		fprintf(out, "null");
	fprintf(out, ", \"build_id\": \"%s\", \"level\": \"%s\", \"w\": %u, \"period\": %u, "
		"\"mode\": \"%s\", \"rand_bits\": %u, \"samples\": %" PRIu64 ", "
		"\"unattributed\": %" PRIu64 ", \"lost_unit\": %" PRIu64 ", \"lost_sw\": %" PRIu64
		", \"cycle_stack\": {", bid, level_names[x->level], x->p.hdr.w, x->p.hdr.period,
		sfprof_mode_name(&x->p.hdr), x->p.hdr.rand_bits, x->p.trailer.samples,
		x->p.prof.bad, x->p.trailer.lost_unit, x->p.trailer.lost_sw);
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(out, "%s\"%s\": %.6f", c ? ", " : "", tiprof_cat_name(c),
			a->total > 0 ? a->cat[c] / a->total : 0.0);
	fprintf(out, "}, \"rows\": [");
	for (size_t i = 0; i < a->n; i++) {
		const struct attr_ent *e = &a->ent[i];

		report_name(x, e->key, name, sizeof(name));
		fprintf(out, "%s{\"symbol\": ", i ? ", " : "");
		json_str(out, name);
		report_json_addr(x, out, e->key);
		fprintf(out, ", \"share\": %.6f, \"samples\": %.3f, \"categories\": {",
			a->total > 0 ? e->total / a->total : 0.0, e->total);
		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			fprintf(out, "%s\"%s\": %.6f", c ? ", " : "", tiprof_cat_name(c),
				e->total > 0 ? e->w[c] / e->total : 0.0);
		fprintf(out, "}");
		if (x->oracle)
			fprintf(out, ", \"oracle_share\": %.6f", report_oracle_share(x, e->key));
		if (x->cmp.n) {
			fprintf(out, ", \"compare\": {");
			for (size_t k = 0; k < x->cmp.n; k++)
				fprintf(out, "%s\"%s\": %.6f", k ? ", " : "", x->cmp.col[k].name,
					report_compare_share(x, k, e->key));
			fprintf(out, "}");
		}
		fprintf(out, "}");
	}
	fprintf(out, "]");
	if (x->oracle) {	/* symbols the Oracle saw but no sample hit */
		fprintf(out, ", \"oracle_only\": [");
		for (size_t i = 0, k = 0; i < x->orc.n; i++) {
			if (attr_prof_get(a, x->orc.ent[i].key))
				continue;
			report_name(x, x->orc.ent[i].key, name, sizeof(name));
			fprintf(out, "%s{\"symbol\": ", k++ ? ", " : "");
			json_str(out, name);
			fprintf(out, ", \"oracle_share\": %.6f}", report_oracle_share(x,
				x->orc.ent[i].key));
		}
		fprintf(out, "]");
	}
	fprintf(out, "}\n");
}

/* Short column heads of the categories, 4 columns each. */
static const char *const cat_heads[TIPROF_NCAT] = { "exec", "alu", "load", "stor", "misp",
						  "flsh", "fe" };

/* One header line "prefix path", the path shortened from the left to fit 79 columns. */
static void report_path(FILE *out, const char *prefix, const char *path)
{
	size_t room = 79 - strlen(prefix), n = strlen(path);

	if (n <= room)
		fprintf(out, "%s%s\n", prefix, path);
	else
		fprintf(out, "%s...%s\n", prefix, path + n - (room - 3));
}

/* The header shared by the text views. */
static void report_head(struct report_ctx *x, FILE *out)
{
	fprintf(out, "# samples: %" PRIu64 "; lost: %" PRIu64 " by the unit, %" PRIu64 " by "
		"software\n# sampling: W=%u, period %u, %s", x->p.trailer.samples,
		x->p.trailer.lost_unit, x->p.trailer.lost_sw, x->p.hdr.w, x->p.hdr.period,
		sfprof_mode_name(&x->p.hdr));
	if (x->p.hdr.mode != TIPROF_MODE_PERIODIC)
		fprintf(out, " k=%u", x->p.hdr.rand_bits);
	fprintf(out, "\n");
	report_path(out, "# file: ", x->file);
	report_path(out, "# elf:  ", x->p.elf);
	if (x->p.ks_path[0])
		report_path(out, "# kernel symbols: ", x->p.ks_path);
}

static void report_text(struct report_ctx *x, FILE *out)
{
	const struct attr_prof *a = &x->agg;
	char name[512];
	/* share 7, samples 9, oracle 8, categories 5 each, 2 spaces: at most 79 columns */
	int symw = 79 - 7 - 9 - (x->oracle ? 8 : 0) - 8 * (int)x->cmp.n - 5 * TIPROF_NCAT - 2;

	if (x->cmp.n && symw < 24)	/* --compare: wider than 80 rather than names cut short */
		symw = 24;
	size_t rows = x->limit > 0 && (size_t)x->limit < a->n ? (size_t)x->limit : a->n;

	report_head(x, out);
	fprintf(out, "# level: %s; share of all samples, categories in %% of each row\n",
		level_names[x->level]);
	fprintf(out, "%7s %8s", "share", "samples");
	if (x->oracle)
		fprintf(out, " %7s", "oracle");
	for (size_t k = 0; k < x->cmp.n; k++)
		fprintf(out, " %7.7s", x->cmp.col[k].name);
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(out, " %4s", cat_heads[c]);
	fprintf(out, "  %s\n", "symbol");
	fprintf(out, "%6.2f%% %8.1f", 100.0, a->total);	/* the cycle stack as a first row */
	if (x->oracle)
		fprintf(out, " %6.2f%%", 100.0);
	for (size_t k = 0; k < x->cmp.n; k++)
		fprintf(out, " %6.2f%%", 100.0);
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(out, " %4.0f", a->total > 0 ? 100 * a->cat[c] / a->total : 0.0);
	fprintf(out, "  [total]\n");
	for (size_t i = 0; i < rows; i++) {
		const struct attr_ent *e = &a->ent[i];

		report_name(x, e->key, name, sizeof(name));
		fprintf(out, "%6.2f%% %8.1f", a->total > 0 ? 100 * e->total / a->total : 0.0,
			e->total);
		if (x->oracle)
			fprintf(out, " %6.2f%%", 100 * report_oracle_share(x, e->key));
		for (size_t k = 0; k < x->cmp.n; k++)
			fprintf(out, " %6.2f%%", 100 * report_compare_share(x, k, e->key));
		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			if (e->w[c] > 0)
				fprintf(out, " %4.0f", 100 * e->w[c] / e->total);
			else
				fprintf(out, " %4s", ".");
		fprintf(out, "  %.*s\n", symw, name);
	}
	if (rows < a->n)
		fprintf(out, "# %zu more rows (--limit 0 shows all)\n", a->n - rows);
}

/* ---- cycle stacks (TIP paper, Figures 7 and 13) */

/* One letter per category in the text bars, and its colour in the SVG. */
static const char cat_letter[TIPROF_NCAT] = { 'E', 'A', 'L', 'S', 'M', 'O', 'F' };
static const char *const cat_color[TIPROF_NCAT] = { "#59a14f", "#edc948", "#e15759", "#b07aa1",
						  "#4e79a7", "#76b7b2", "#bab0ac" };

/* Append the bar of w[] (weights per category) at `unit` weight per character to the line
 * buf (size len): the bar is as long as its rounded total, and its characters go to the
 * categories by largest remainder (each gets the whole characters of its weight, the rest
 * go to the largest fractions), so no category is drawn longer than it rounds to. */
static void stack_bar(char *buf, size_t len, const double *w, double unit)
{
	size_t n = strlen(buf);
	double tot = 0, rem[TIPROF_NCAT];
	long cnt[TIPROF_NCAT], want, have = 0;

	if (!(unit > 0))
		return;
	for (unsigned c = 0; c < TIPROF_NCAT; c++) {
		double v = w[c] > 0 ? w[c] / unit : 0;

		tot += v;
		cnt[c] = (long)v;
		rem[c] = v - (double)cnt[c];
		have += cnt[c];
	}
	for (want = (long)(tot + 0.5); have < want; have++) {
		unsigned best = 0;

		for (unsigned c = 1; c < TIPROF_NCAT; c++)
			if (rem[c] > rem[best])
				best = c;
		cnt[best]++;
		rem[best] = -1;
	}
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		for (long k = 0; k < cnt[c] && n + 1 < len; k++)
			buf[n++] = cat_letter[c];
	buf[n] = '\0';
}

/* Print line without trailing blanks, and a newline. */
static void put_line(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

/* Text cycle stacks: a bar per symbol (1 character = 2% of all cycles), then the chosen
 * function's stack by category and its hot instructions. Every line fits 79 columns. */
static void report_stack_text(struct report_ctx *x, FILE *out)
{
	const struct attr_prof *a = &x->agg;
	size_t rows = x->limit > 0 && (size_t)x->limit < a->n ? (size_t)x->limit : a->n;
	char name[512], dis[128], line[160];

	report_head(x, out);
	fprintf(out, "# level: %s; cycle stacks, hottest first; 1 character = 2%% of all "
		"cycles\n", level_names[x->level]);
	fprintf(out, "# E execute  A alu_stall  L load_stall  S store_stall  M mispredict_flush"
		"\n# O other_flush  F frontend\n");
	fprintf(out, "%7s  %-20s %s\n", "share", "symbol", "cycle stack");
	snprintf(line, sizeof(line), "%6.2f%%  %-20s ", 100.0, "[total]");
	stack_bar(line, sizeof(line), a->cat, a->total / 50);
	put_line(out, line);
	for (size_t i = 0; i < rows; i++) {
		const struct attr_ent *e = &a->ent[i];

		report_name(x, e->key, name, sizeof(name));
		snprintf(line, sizeof(line), "%6.2f%%  %-20.20s ", a->total > 0 ?
			 100 * e->total / a->total : 0.0, name);
		stack_bar(line, sizeof(line), e->w, a->total / 50);
		put_line(out, line);
	}
	if (rows < a->n)
		fprintf(out, "# %zu more rows (--limit 0 shows all)\n", a->n - rows);
	if (x->fi < 0) {
		fprintf(out, "# no sample falls in a function of the ELF\n");
		return;
	}
	{
		const char *fn = x->fname;
		double w[TIPROF_NCAT] = { 0 };

		for (size_t i = 0; i < x->nins; i++)
			for (unsigned c = 0; c < TIPROF_NCAT; c++)
				w[c] += x->ins[i]->w[c];
		fprintf(out, "\n# %.40s: %.2f%% of all cycles\n# %.1f samples x period %u = about "
			"%.0f cycles\n", fn, a->total > 0 ? 100 * x->fw / a->total : 0.0, x->fw,
			x->p.hdr.period, x->fw * x->p.hdr.period);
		fprintf(out, "  %-18s %10s %8s  %s\n", "category", "% of func", "% of all",
			"1 character = 2% of the function");
		for (unsigned c = 0; c < TIPROF_NCAT; c++) {
			double fr = x->fw > 0 ? w[c] / x->fw : 0;

			double one[TIPROF_NCAT] = { 0 };

			one[c] = fr;
			snprintf(line, sizeof(line), "  %-18s %9.2f%% %7.2f%%  ", tiprof_cat_name(c),
				 100 * fr, a->total > 0 ? 100 * w[c] / a->total : 0.0);
			stack_bar(line, sizeof(line), one, 1.0 / 50);
			put_line(out, line);
		}
		fprintf(out, "\n# hot instructions of %.40s in address order (%zu of %zu sampled)\n"
			"# share = %% of the function; 1 character = 4%% of the function\n", fn,
			x->nhot, x->nins);
		fprintf(out, "  %8s  %-28s %7s  %s\n", "address", "instruction", "share",
			"cycle stack");
		for (size_t i = 0; i < x->nhot; i++) {
			const struct attr_ent *e = x->hot[i];

			report_disasm(x, e->key, dis, sizeof(dis));
			snprintf(line, sizeof(line), "  %8" PRIx64 "  %-28.28s %6.2f%%  ",
				 e->key - x->fbias, dis,
				 x->fw > 0 ? 100 * e->total / x->fw : 0.0);
			stack_bar(line, sizeof(line), e->w, x->fw / 25);
			put_line(out, line);
		}
	}
}

/* "category": value of w[c] / div for every category, as a JSON object. */
static void json_stack(FILE *out, const double *w, double div)
{
	fputc('{', out);
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(out, "%s\"%s\": %.6f", c ? ", " : "", tiprof_cat_name(c),
			div > 0 ? w[c] / div : 0.0);
	fputc('}', out);
}

/* JSON cycle stacks: every symbol's stack in shares of all cycles, and every sampled
 * instruction of the chosen function in shares of the function. */
static void report_stack_json(struct report_ctx *x, FILE *out)
{
	const struct attr_prof *a = &x->agg;
	char bid[2 * SF_BUILD_ID_MAX + 1], name[512], dis[128];
	double per = x->p.hdr.period;

	elf_image_hex(x->p.hdr.build_id, x->p.hdr.build_id_len, bid, sizeof(bid));
	fprintf(out, "{\"file\": ");
	json_str(out, x->file);
	fprintf(out, ", \"elf\": ");
	json_str(out, x->p.elf);
	fprintf(out, ", \"build_id\": \"%s\", \"level\": \"%s\", \"period\": %u, \"samples\": %"
		PRIu64 ", \"unattributed\": %" PRIu64 ", \"categories\": [", bid,
		level_names[x->level], x->p.hdr.period, x->p.trailer.samples, x->p.prof.bad);
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(out, "%s\"%s\"", c ? ", " : "", tiprof_cat_name(c));
	fprintf(out, "], \"total\": {\"samples\": %.3f, \"cycles\": %.0f, \"stack\": ", a->total,
		a->total * per);
	json_stack(out, a->cat, a->total);
	fprintf(out, "}, \"rows\": [");
	for (size_t i = 0; i < a->n; i++) {
		const struct attr_ent *e = &a->ent[i];

		report_name(x, e->key, name, sizeof(name));
		fprintf(out, "%s{\"symbol\": ", i ? ", " : "");
		json_str(out, name);
		report_json_addr(x, out, e->key);
		fprintf(out, ", \"share\": %.6f, \"samples\": %.3f, \"cycles\": %.0f, \"stack\": ",
			a->total > 0 ? e->total / a->total : 0.0, e->total, e->total * per);
		json_stack(out, e->w, a->total);
		fputc('}', out);
	}
	fprintf(out, "], \"function\": ");
	if (x->fi < 0) {
		fprintf(out, "null}\n");
		return;
	}
	fprintf(out, "{\"symbol\": ");
	json_str(out, x->fname);
	fprintf(out, ", \"address\": \"0x%" PRIx64 "\", \"share\": %.6f, \"samples\": %.3f, "
		"\"cycles\": %.0f, \"instructions\": [", x->flo,
		a->total > 0 ? x->fw / a->total : 0.0, x->fw, x->fw * per);
	for (size_t i = 0; i < x->nins; i++) {
		const struct attr_ent *e = x->ins[i];

		report_disasm(x, e->key, dis, sizeof(dis));
		fprintf(out, "%s{\"address\": \"0x%" PRIx64 "\", \"disasm\": ", i ? ", " : "",
			e->key);
		json_str(out, dis);
		fprintf(out, ", \"share_of_function\": %.6f, \"samples\": %.3f, \"stack\": ",
			x->fw > 0 ? e->total / x->fw : 0.0, e->total);
		json_stack(out, e->w, x->fw);
		fputc('}', out);
	}
	fprintf(out, "]}}\n");
}

/* The SVG: a legend, the whole program's stack, the hottest symbols' stacks (% of all
 * cycles) and the chosen function's hot instructions (% of the function's cycles). */
static int report_svg(FILE *f, const void *arg)
{
	struct report_ctx *x = (struct report_ctx *)arg;	/* names load objects lazily */
	const struct attr_prof *a = &x->agg;
	size_t nr = a->n < REPORT_SVG_ROWS ? a->n : REPORT_SVG_ROWS, nlab = nr + x->nhot + 1;
	const char *base = strrchr(x->p.elf, '/'), *fn = NULL;
	char (*lab)[96] = calloc(nlab, sizeof(*lab)), (*note)[16] = calloc(nlab, sizeof(*note));
	const char **lp = calloc(nlab, sizeof(*lp)), **np = calloc(nlab, sizeof(*np));
	double *v = calloc(nlab * TIPROF_NCAT, sizeof(*v)), width = 960, lw = 0, y, h;
	const char *cats[TIPROF_NCAT];
	struct svg_hstack pan[3];
	char title[3][256], head[256], dis[128];
	int npan = 0, r = -1;

	if (x->limit > 0 && (size_t)x->limit < nr)
		nr = (size_t)x->limit;
	if (!lab || !note || !lp || !np || !v)
		goto out;
	base = base ? base + 1 : x->p.elf;
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		cats[c] = tiprof_cat_name(c);
	/* panel 1: the whole program */
	snprintf(lab[0], sizeof(lab[0]), "%s", "whole program");
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		v[c] = a->total > 0 ? 100 * a->cat[c] / a->total : 0;
	snprintf(title[0], sizeof(title[0]), "Cycle stack of %.120s (%% of all cycles)", base);
	pan[npan++] = (struct svg_hstack){ title[0], "% of all cycles", lp, NULL, 1, v, TIPROF_NCAT,
					   cat_color, 100 };
	/* panel 2: the hottest symbols */
	for (size_t i = 0; i < nr; i++) {
		const struct attr_ent *e = &a->ent[i];

		report_name(x, e->key, lab[1 + i], sizeof(lab[1 + i]));
		snprintf(note[1 + i], sizeof(note[1 + i]), "%.1f%%",
			 a->total > 0 ? 100 * e->total / a->total : 0.0);
		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			v[(1 + i) * TIPROF_NCAT + c] = a->total > 0 ? 100 * e->w[c] / a->total : 0;
	}
	snprintf(title[1], sizeof(title[1]), "Cycle stacks of the %zu hottest %s%s (%% of all "
		 "cycles)", nr, x->level == LEVEL_FUNCTION ? "function" : x->level == LEVEL_BLOCK ?
		 "basic block" : "instruction", nr == 1 ? "" : "s");
	if (nr)
		pan[npan++] = (struct svg_hstack){ title[1], "% of all cycles", lp + 1, np + 1, nr,
						   v + TIPROF_NCAT, TIPROF_NCAT, cat_color, 0 };
	/* panel 3: the hot instructions of the function */
	if (x->fi >= 0 && x->nhot) {
		fn = x->fname;
		for (size_t i = 0; i < x->nhot; i++) {
			const struct attr_ent *e = x->hot[i];
			size_t k = 1 + nr + i;

			report_disasm(x, e->key, dis, sizeof(dis));
			snprintf(lab[k], sizeof(lab[k]), "%" PRIx64 ": %.60s", e->key - x->fbias, dis);
			snprintf(note[k], sizeof(note[k]), "%.1f%%",
				 x->fw > 0 ? 100 * e->total / x->fw : 0.0);
			for (unsigned c = 0; c < TIPROF_NCAT; c++)
				v[k * TIPROF_NCAT + c] = x->fw > 0 ? 100 * e->w[c] / x->fw : 0;
		}
		snprintf(title[2], sizeof(title[2]), "Hot instructions of %.80s (%.1f%% of all "
			 "cycles), in address order (%% of its cycles)", fn,
			 a->total > 0 ? 100 * x->fw / a->total : 0.0);
		pan[npan++] = (struct svg_hstack){ title[2], "% of the function's cycles",
						   lp + 1 + nr, np + 1 + nr, x->nhot,
						   v + (1 + nr) * TIPROF_NCAT, TIPROF_NCAT, cat_color, 0 };
	}
	for (size_t i = 0; i < nlab; i++) {
		lp[i] = lab[i];
		np[i] = note[i];
		if (svg_text_width(lab[i], 11) > lw)
			lw = svg_text_width(lab[i], 11);
	}
	lw = lw < 100 ? 100 : lw > 300 ? 300 : lw + 4;
	h = 64 + svg_legend_height(width - 40, cats, TIPROF_NCAT) + 16;
	for (int i = 0; i < npan; i++)
		h += svg_hstack_height(&pan[i]) + 10;
	svg_begin(f, width, h);
	snprintf(head, sizeof(head), "tiprof cycle stacks: %.120s, %" PRIu64 " samples, period %u "
		 "(time-proportional, TIP)", base, x->p.trailer.samples, x->p.hdr.period);
	svg_text(f, width / 2, 26, 15, "middle", 0, head);
	y = 44;
	y += svg_legend(f, 20, y, width - 40, cats, cat_color, TIPROF_NCAT) + 16;
	for (int i = 0; i < npan; i++) {
		svg_hstack(f, 20, y, width - 40, lw, &pan[i]);
		y += svg_hstack_height(&pan[i]) + 10;
	}
	r = svg_end(f);
out:
	free(lab);
	free(note);
	free(lp);
	free(np);
	free(v);
	return r;
}

/* ---- entry point */

static int report_run(struct report_ctx *x)
{
	int ret = TIPROF_EXIT_FAIL;

	attr_prof_init(&x->agg);
	attr_prof_init(&x->orc);
	for (size_t k = 0; k < POLCMP_MAX; k++)
		attr_prof_init(&x->cagg[k]);
	x->fi = -1;
	if (sfprof_load(&x->p, x->file, x->elf, x->err, sizeof(x->err)) ||
	    sfprof_load_kallsyms(&x->p, x->file, x->kallsyms, x->err, sizeof(x->err)))
		goto fail;
	if (report_aggregate(x)) {
		snprintf(x->err, sizeof(x->err), "out of memory");
		goto fail;
	}
	if (x->oracle && report_oracle(x))
		goto fail;
	if (x->compare && polcmp_load(&x->cmp, x->file, x->compare, x->p.hdr.build_id,
				      x->p.hdr.build_id_len, x->err, sizeof(x->err)))
		goto fail;
	if (x->compare && report_compare_agg(x)) {
		snprintf(x->err, sizeof(x->err), "out of memory");
		goto fail;
	}
	if ((x->cycle_stack || x->svg || x->func) && report_func(x))
		goto fail;
	/* the chart first: a failure leaves neither it nor anything on standard output */
	if (x->svg && svg_write_file(x->svg, report_svg, x, x->err, sizeof(x->err)))
		goto fail;
	if (x->cycle_stack && x->json)
		report_stack_json(x, stdout);
	else if (x->cycle_stack)
		report_stack_text(x, stdout);
	else if (x->json)
		report_json(x, stdout);
	else
		report_text(x, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		snprintf(x->err, sizeof(x->err), "cannot write the report");
		goto fail;
	}
	for (int i = 0; i < x->p.nwarn; i++)
		fprintf(stderr, "tiprof report: warning: %s\n", x->p.warn[i]);
	ret = TIPROF_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "tiprof report: %s\n", x->err);
out:
	free(x->ins);
	free(x->hot);
	attr_prof_free(&x->agg);
	attr_prof_free(&x->orc);
	for (size_t k = 0; k < POLCMP_MAX; k++)
		attr_prof_free(&x->cagg[k]);
	polcmp_free(&x->cmp);
	sfprof_free(&x->p);
	return ret;
}

static const struct opt_use report_uses[] = {
	{ OPT_INPUT, "the sample file (default tiprof.tps)" },
	{ OPT_ELF, NULL },
	{ OPT_LEVEL, "rows are functions (default), blocks or instructions" },
	{ OPT_FUNCTION, "the function whose hot instructions --cycle-stack shows (default: "
	  "the hottest)" },
	{ OPT_LIMIT, "show N rows (default 25, cycle stacks 10; 0 = all; JSON: all)" },
	{ OPT_ORACLE, "add the shares of an Oracle profile (tiprof sim --oracle)" },
	{ OPT_KALLSYMS, "name kernel addresses by this copy of /proc/kallsyms (default: "
	  "FILE.kallsyms if present)" },
	{ OPT_COMPARE, "add what these policies and the Oracle said on the same run "
	  "(FILE.policies, written by tiprof sim --profile)" },
	{ OPT_CYCLE_STACK, "print cycle stacks instead of the flat profile" },
	{ OPT_SVG, "with --cycle-stack, also write the chart to OUT.svg" },
	{ OPT_JSON, NULL },
	{ OPT_STDIO, NULL },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_report = { "report", report_uses, "report" };

/* Entry point of `tiprof report` (registered in sw/tiprof.c). */
int cmd_report(int argc, char **argv)
{
	struct report_ctx x;
	struct opt_parser p;
	uint64_t v;
	int o;

	memset(&x, 0, sizeof(x));
	x.level = LEVEL_FUNCTION;
	x.limit = -1;
	opt_init(&p, &opt_set_report, argc, argv, 1);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return TIPROF_EXIT_OK;
		case OPT_ERROR:
			return TIPROF_EXIT_USAGE;
		case OPT_INPUT:
		case OPT_OPERAND:
			if (opt_one_file(&p, &x.file))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_JSON:
			x.json = 1;
			break;
		case OPT_STDIO:
			x.json = 0;
			break;
		case OPT_CYCLE_STACK:
			x.cycle_stack = 1;
			break;
		case OPT_ELF:
			x.elf = p.arg;
			break;
		case OPT_ORACLE:
			x.oracle = p.arg;
			break;
		case OPT_KALLSYMS:
			x.kallsyms = p.arg;
			break;
		case OPT_COMPARE:
			x.compare = p.arg;
			break;
		case OPT_SVG:
			x.svg = p.arg;
			break;
		case OPT_FUNCTION:
			x.func = p.arg;
			break;
		case OPT_LIMIT:
			if (opt_u64(&p, 0, INT_MAX, &v))
				return TIPROF_EXIT_USAGE;
			x.limit = (long)v;
			break;
		case OPT_LEVEL:
			if (!strcmp(p.arg, "function"))
				x.level = LEVEL_FUNCTION;
			else if (!strcmp(p.arg, "block"))
				x.level = LEVEL_BLOCK;
			else if (!strcmp(p.arg, "instruction"))
				x.level = LEVEL_INSTRUCTION;
			else
				return opt_usage_error(&opt_set_report, "unknown level '%s'; use "
						       "function, block or instruction", p.arg);
			break;
		}
	}
	if (!x.file)
		x.file = "tiprof.tps";
	if (x.limit < 0)	/* default rows: 25 in the flat profile, 10 cycle stacks */
		x.limit = x.cycle_stack ? 10 : 25;
	return report_run(&x);
}
