/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-report.c - `tiprof report FILE [--elf ELF] [--level function|block|instruction]
 * [--json] [--oracle ORACLE] [--limit N]`: flat profile of a sample file, hottest first,
 * each symbol's time share and cycle-category mix (docs/report.md). Samples are attributed
 * time-proportionally by sw/lib/attrib; symbols come from sim/policy/code_map.
 *
 * Sections: aggregation; the Oracle profile; output (text, JSON); entry point.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sfprof.h"
#include "tiprof.h"

#define REPORT_UNKNOWN UINT64_MAX	/* key of addresses outside every function */

/* State of one report. */
struct report_ctx {
	const char *file;		/* the sample file */
	const char *elf;		/* --elf, or NULL */
	const char *oracle;		/* --oracle, or NULL */
	enum code_level level;		/* aggregation level */
	int json;			/* one JSON object */
	long limit;			/* rows in text output, 0 = all */
	struct sfprof p;		/* the profile */
	struct attr_prof agg;		/* aggregated to the level, in samples */
	struct attr_prof orc;		/* the Oracle aggregated the same way, in cycles */
	char err[1024];			/* message of a failure */
};

static const char *const level_names[] = { "instruction", "block", "function" };

/* ---- aggregation */

/* Key of addr at the context's level. */
static uint64_t report_key(const struct report_ctx *x, uint64_t addr)
{
	long f;

	switch (x->level) {
	case LEVEL_FUNCTION:
		f = code_map_func(&x->p.map, addr);
		return f < 0 ? REPORT_UNKNOWN : x->p.map.func[f].start;
	case LEVEL_BLOCK:
		return code_map_block(&x->p.map, addr);
	default:
		return addr;
	}
}

/* Name of a key: function, function+offset, or "[unknown]" / a bare address. */
static void report_name(const struct report_ctx *x, uint64_t key, char *buf, size_t len)
{
	long f = key == REPORT_UNKNOWN ? -1 : code_map_func(&x->p.map, key);

	if (f < 0) {
		if (key == REPORT_UNKNOWN)
			snprintf(buf, len, "[unknown]");
		else
			snprintf(buf, len, "[0x%" PRIx64 "]", key);
	} else if (key == x->p.map.func[f].start) {
		snprintf(buf, len, "%s", x->p.map.func[f].name ? x->p.map.func[f].name : "?");
	} else {
		snprintf(buf, len, "%s+0x%" PRIx64, x->p.map.func[f].name ? x->p.map.func[f].name :
			 "?", key - x->p.map.func[f].start);
	}
}

static int report_aggregate(struct report_ctx *x)
{
	for (size_t i = 0; i < x->p.prof.n; i++) {
		const struct attr_ent *e = &x->p.prof.ent[i];
		uint64_t k = report_key(x, e->key);

		for (unsigned c = 0; c < ATTR_NCAT; c++)
			if (e->w[c] != 0 && attr_prof_add(&x->agg, k, c, e->w[c]))
				return -1;
	}
	attr_prof_sort(&x->agg);
	return 0;
}

/* ---- the Oracle profile (docs/core.md, "Oracle profile file") */

/* Read x->oracle aggregated to the level, in cycles. Returns 0 or -1 with x->err set. */
static int report_oracle(struct report_ctx *x)
{
	FILE *f = fopen(x->oracle, "r");
	char line[512];
	unsigned long unit = 0;
	int ver = 0, lines = 0;

	if (!f) {
		snprintf(x->err, sizeof(x->err), "cannot open the Oracle profile %s", x->oracle);
		return -1;
	}
	if (!fgets(line, sizeof(line), f) || sscanf(line, "tiprof-oracle %d", &ver) != 1 ||
	    ver != 1)
		goto bad;
	while (fgets(line, sizeof(line), f)) {
		uint64_t pc, commits, u[ATTR_NCAT];

		if (sscanf(line, "unit %lu", &unit) == 1)
			continue;
		if (sscanf(line, "%" SCNx64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %"
			   SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &pc, &commits, &u[0], &u[1],
			   &u[2], &u[3], &u[4], &u[5], &u[6]) != 9 || !unit)
			continue;	/* header lines */
		lines++;
		for (unsigned c = 0; c < ATTR_NCAT; c++)
			if (u[c] && attr_prof_add(&x->orc, report_key(x, pc), c,
						  (double)u[c] / (double)unit)) {
				fclose(f);
				snprintf(x->err, sizeof(x->err), "out of memory");
				return -1;
			}
	}
	fclose(f);
	if (!unit || !lines)
		goto bad2;
	return 0;
bad:
	fclose(f);
bad2:
	snprintf(x->err, sizeof(x->err), "%s is not a tiprof Oracle profile (tiprof sim --oracle "
		 "writes one)", x->oracle);
	return -1;
}

/* Oracle share of key (0 if absent). */
static double report_oracle_share(const struct report_ctx *x, uint64_t key)
{
	const struct attr_ent *e = attr_prof_get(&x->orc, key);

	return e && x->orc.total > 0 ? e->total / x->orc.total : 0.0;
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

static void report_json(struct report_ctx *x, FILE *out)
{
	const struct attr_prof *a = &x->agg;
	char bid[2 * SF_BUILD_ID_MAX + 1], name[512];

	elf_image_hex(x->p.hdr.build_id, x->p.hdr.build_id_len, bid, sizeof(bid));
	fprintf(out, "{\"file\": ");
	json_str(out, x->file);
	fprintf(out, ", \"elf\": ");
	json_str(out, x->p.elf);
	fprintf(out, ", \"build_id\": \"%s\", \"level\": \"%s\", \"w\": %u, \"period\": %u, "
		"\"mode\": \"%s\", \"rand_bits\": %u, \"samples\": %" PRIu64 ", "
		"\"unattributed\": %" PRIu64 ", \"lost_unit\": %" PRIu64 ", \"lost_sw\": %" PRIu64
		", \"cycle_stack\": {", bid, level_names[x->level], x->p.hdr.w, x->p.hdr.period,
		sfprof_mode_name(&x->p.hdr), x->p.hdr.rand_bits, x->p.trailer.samples,
		x->p.prof.bad, x->p.trailer.lost_unit, x->p.trailer.lost_sw);
	for (unsigned c = 0; c < ATTR_NCAT; c++)
		fprintf(out, "%s\"%s\": %.6f", c ? ", " : "", attr_cat_name(c),
			a->total > 0 ? a->cat[c] / a->total : 0.0);
	fprintf(out, "}, \"rows\": [");
	for (size_t i = 0; i < a->n; i++) {
		const struct attr_ent *e = &a->ent[i];

		report_name(x, e->key, name, sizeof(name));
		fprintf(out, "%s{\"symbol\": ", i ? ", " : "");
		json_str(out, name);
		if (e->key == REPORT_UNKNOWN)
			fprintf(out, ", \"address\": null");
		else
			fprintf(out, ", \"address\": \"0x%" PRIx64 "\"", e->key);
		fprintf(out, ", \"share\": %.6f, \"samples\": %.3f, \"categories\": {",
			a->total > 0 ? e->total / a->total : 0.0, e->total);
		for (unsigned c = 0; c < ATTR_NCAT; c++)
			fprintf(out, "%s\"%s\": %.6f", c ? ", " : "", attr_cat_name(c),
				e->total > 0 ? e->w[c] / e->total : 0.0);
		fprintf(out, "}");
		if (x->oracle)
			fprintf(out, ", \"oracle_share\": %.6f", report_oracle_share(x, e->key));
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
static const char *const cat_heads[ATTR_NCAT] = { "exec", "alu", "load", "stor", "misp",
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

static void report_text(struct report_ctx *x, FILE *out)
{
	const struct attr_prof *a = &x->agg;
	char name[512];
	/* share 7, samples 9, oracle 8, categories 5 each, 2 spaces: at most 79 columns */
	int symw = 79 - 7 - 9 - (x->oracle ? 8 : 0) - 5 * ATTR_NCAT - 2;
	size_t rows = x->limit > 0 && (size_t)x->limit < a->n ? (size_t)x->limit : a->n;

	fprintf(out, "# samples: %" PRIu64 "; lost: %" PRIu64 " by the unit, %" PRIu64 " by "
		"software\n# sampling: W=%u, period %u, %s", x->p.trailer.samples,
		x->p.trailer.lost_unit, x->p.trailer.lost_sw, x->p.hdr.w, x->p.hdr.period,
		sfprof_mode_name(&x->p.hdr));
	if (x->p.hdr.mode != TIPROF_MODE_PERIODIC)
		fprintf(out, " k=%u", x->p.hdr.rand_bits);
	fprintf(out, "\n");
	report_path(out, "# file: ", x->file);
	report_path(out, "# elf:  ", x->p.elf);
	fprintf(out, "# level: %s; share of all samples, categories in %% of each row\n",
		level_names[x->level]);
	fprintf(out, "%7s %8s", "share", "samples");
	if (x->oracle)
		fprintf(out, " %7s", "oracle");
	for (unsigned c = 0; c < ATTR_NCAT; c++)
		fprintf(out, " %4s", cat_heads[c]);
	fprintf(out, "  %s\n", "symbol");
	fprintf(out, "%6.2f%% %8.1f", 100.0, a->total);	/* the cycle stack as a first row */
	if (x->oracle)
		fprintf(out, " %6.2f%%", 100.0);
	for (unsigned c = 0; c < ATTR_NCAT; c++)
		fprintf(out, " %4.0f", a->total > 0 ? 100 * a->cat[c] / a->total : 0.0);
	fprintf(out, "  [total]\n");
	for (size_t i = 0; i < rows; i++) {
		const struct attr_ent *e = &a->ent[i];

		report_name(x, e->key, name, sizeof(name));
		fprintf(out, "%6.2f%% %8.1f", a->total > 0 ? 100 * e->total / a->total : 0.0,
			e->total);
		if (x->oracle)
			fprintf(out, " %6.2f%%", 100 * report_oracle_share(x, e->key));
		for (unsigned c = 0; c < ATTR_NCAT; c++)
			if (e->w[c] > 0)
				fprintf(out, " %4.0f", 100 * e->w[c] / e->total);
			else
				fprintf(out, " %4s", ".");
		fprintf(out, "  %.*s\n", symw, name);
	}
	if (rows < a->n)
		fprintf(out, "# %zu more rows (--limit 0 shows all)\n", a->n - rows);
}

/* ---- entry point */

static int report_run(struct report_ctx *x)
{
	int ret = TIPROF_EXIT_FAIL;

	attr_prof_init(&x->agg);
	attr_prof_init(&x->orc);
	if (sfprof_load(&x->p, x->file, x->elf, x->err, sizeof(x->err)))
		goto fail;
	if (report_aggregate(x)) {
		snprintf(x->err, sizeof(x->err), "out of memory");
		goto fail;
	}
	if (x->oracle && report_oracle(x))
		goto fail;
	if (x->json)
		report_json(x, stdout);
	else
		report_text(x, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		snprintf(x->err, sizeof(x->err), "cannot write the report");
		goto fail;
	}
	ret = TIPROF_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "tiprof report: %s\n", x->err);
out:
	attr_prof_free(&x->agg);
	attr_prof_free(&x->orc);
	sfprof_free(&x->p);
	return ret;
}

/* Entry point of `tiprof report` (registered in sw/tiprof.c). */
int cmd_report(int argc, char **argv)
{
	static const char usage[] = "usage: tiprof report FILE [--elf ELF] "
		"[--level function|block|instruction] [--json] [--oracle ORACLE] [--limit N]";
	struct report_ctx x;
	char *end;

	memset(&x, 0, sizeof(x));
	x.level = LEVEL_FUNCTION;
	x.limit = 25;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			x.json = 1;
		} else if (!strcmp(argv[i], "--elf") && i + 1 < argc) {
			x.elf = argv[++i];
		} else if (!strcmp(argv[i], "--oracle") && i + 1 < argc) {
			x.oracle = argv[++i];
		} else if (!strcmp(argv[i], "--limit") && i + 1 < argc) {
			x.limit = strtol(argv[++i], &end, 0);
			if (*end || x.limit < 0) {
				fprintf(stderr, "tiprof report: bad --limit '%s'; %s\n", argv[i], usage);
				return TIPROF_EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--level") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "function"))
				x.level = LEVEL_FUNCTION;
			else if (!strcmp(argv[i], "block"))
				x.level = LEVEL_BLOCK;
			else if (!strcmp(argv[i], "instruction"))
				x.level = LEVEL_INSTRUCTION;
			else {
				fprintf(stderr, "tiprof report: unknown level '%s'; use function, "
					"block or instruction\n", argv[i]);
				return TIPROF_EXIT_USAGE;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "tiprof report: unknown option '%s'; %s\n", argv[i], usage);
			return TIPROF_EXIT_USAGE;
		} else if (!x.file) {
			x.file = argv[i];
		} else {
			fprintf(stderr, "tiprof report: more than one FILE ('%s'); %s\n", argv[i],
				usage);
			return TIPROF_EXIT_USAGE;
		}
	}
	if (!x.file) {
		fprintf(stderr, "tiprof report: no sample file given; %s\n", usage);
		return TIPROF_EXIT_USAGE;
	}
	return report_run(&x);
}
