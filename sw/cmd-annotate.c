/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-annotate.c - `tiprof annotate [FILE] [--elf ELF] [--function NAME] [--compare P,...]`:
 * the disassembly of
 * one function (default: the hottest) with each instruction's share of all samples, its
 * cycle-category mix, and the source file:line of DWARF (libdw) above each run of
 * instructions from the same line, followed by that line's text when the source file is
 * readable (docs/report.md).
 *
 * Sections: source text cache; choosing the function; output; entry point.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/polcmp.h"
#include "lib/sfprof.h"
#include "srcline.h"
#include "rv_isa.h"
#include "tiprof/cmd.h"

/* Lines of one source file, read on demand. */
struct src_cache {
	char *path;	/* the file (owned), NULL if none loaded */
	char *text;	/* its contents (owned) */
	char **line;	/* line starts into text (owned) */
	int nline;	/* lines */
};

/* State of one annotate run. */
struct annotate_ctx {
	const char *file;	/* the sample file */
	const char *elf;	/* --elf, or NULL */
	const char *func;	/* --function, or NULL: the hottest */
	const char *compare;	/* --compare: policies to show beside TIP, or NULL */
	struct polcmp cmp;	/* their profiles */
	struct sfprof p;	/* the profile */
	struct srcline *sl;	/* DWARF lines, or NULL if the ELF has none */
	struct src_cache src;	/* the last source file shown */
	char err[1024];		/* message of a failure */
};

/* ---- source text cache */

static void src_free(struct src_cache *c)
{
	free(c->path);
	free(c->text);
	free(c->line);
	memset(c, 0, sizeof(*c));
}

/* Text of path:lineno, or NULL if unreadable. */
static const char *src_line(struct src_cache *c, const char *path, int lineno)
{
	if (!c->path || strcmp(c->path, path)) {
		FILE *f;
		long n;
		int k = 0;

		src_free(c);
		c->path = strdup(path);
		f = fopen(path, "r");
		if (!c->path || !f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET) || !(c->text = malloc((size_t)n + 1)) ||
		    fread(c->text, 1, (size_t)n, f) != (size_t)n) {
			if (f)
				fclose(f);
			free(c->text);
			c->text = NULL;
			return NULL;
		}
		fclose(f);
		c->text[n] = '\0';
		for (long i = 0; i < n; i++)
			k += c->text[i] == '\n';
		c->line = calloc((size_t)k + 2, sizeof(*c->line));
		if (!c->line)
			return NULL;
		c->line[c->nline++] = c->text;
		for (long i = 0; i < n; i++)
			if (c->text[i] == '\n') {
				c->text[i] = '\0';
				if (i + 1 < n)
					c->line[c->nline++] = c->text + i + 1;
			}
	}
	if (!c->line || lineno < 1 || lineno > c->nline)
		return NULL;
	return c->line[lineno - 1];
}

/* ---- choosing the function */

/* The function to show: its object in *o and its index, or -1 with x->err set. NAME finds a
 * function of the program first, then of the one shared object that has it; NAME@OBJ one
 * of object OBJ (sfprof_find_func). */
static long annotate_pick(struct annotate_ctx *x, long *o)
{
	long fi;

	if (x->func)
		return sfprof_find_func(&x->p, x->func, o, &fi, x->err, sizeof(x->err)) ? -1 : fi;
	if (sfprof_hottest(&x->p, o, &fi)) {
		snprintf(x->err, sizeof(x->err), "%.400s: no sample falls in a function of %.400s",
			 x->file, x->p.elf);
		return -1;
	}
	return fi;
}

/* ---- output */

static const char *const mix_names[TIPROF_NCAT] = { "exec", "alu", "load", "store", "misp",
						  "flush", "fe" };

/* The two heaviest categories of e as "exec 80 load 20". */
static void annotate_mix(const struct attr_ent *e, char *buf, size_t len)
{
	int a = -1, b = -1;

	buf[0] = '\0';
	if (!e || e->total <= 0)
		return;
	for (int c = 0; c < TIPROF_NCAT; c++) {
		if (e->w[c] <= 0)
			continue;
		if (a < 0 || e->w[c] > e->w[a]) {
			b = a;
			a = c;
		} else if (b < 0 || e->w[c] > e->w[b]) {
			b = c;
		}
	}
	if (b < 0)
		snprintf(buf, len, "%s %.0f", mix_names[a], 100 * e->w[a] / e->total);
	else
		snprintf(buf, len, "%s %.0f %s %.0f", mix_names[a], 100 * e->w[a] / e->total,
			 mix_names[b], 100 * e->w[b] / e->total);
}

/* Annotate function fi of object o. Addresses shown are link-time (those of the ELF, as
 * objdump prints them); samples and --compare are keyed by run-time address = link + bias. */
static int annotate_print(struct annotate_ctx *x, long o, long fi, FILE *out)
{
	const struct code_range *f = &sfprof_obj_map(&x->p, o)->func[fi];
	const struct elf_image *img = sfprof_obj_img(&x->p, o);
	uint64_t bias = x->p.obj[o].rec.bias;
	char last_file[4096] = "";
	int last_line = -1;
	double fw = 0, all = x->p.prof.total;
	char mix[64], dis[128], fname[512];

	sfprof_func_name(&x->p, o, fi, fname, sizeof(fname));
	for (size_t i = 0; i < x->p.prof.n; i++)
		if (x->p.prof.ent[i].key >= f->start + bias && x->p.prof.ent[i].key < f->end + bias)
			fw += x->p.prof.ent[i].total;
	fprintf(out, "# %s [0x%" PRIx64 ", 0x%" PRIx64 ") of %s: %.2f%% of %" PRIu64
		" samples\n", fname, f->start, f->end, sfprof_obj_path(&x->p, o),
		all > 0 ? 100 * fw / all : 0.0, x->p.trailer.samples);
	if (bias)
		fprintf(out, "# addresses are the ELF's; loaded at bias 0x%" PRIx64 "\n", bias);
	fprintf(out, "# share = %% of all samples; mix = its top categories in %% "
		"(exec alu load store misp flush fe)\n");
	if (x->cmp.n) {
		fprintf(out, "# beside TIP's share, on the same run and sampled cycles (%s.policies):",
			x->file);
		for (size_t k = 0; k < x->cmp.n; k++)
			fprintf(out, " %s %.2f%%", x->cmp.col[k].name,
				100 * polcmp_share(&x->cmp.col[k], f->start + bias, f->end + bias));
		fprintf(out, " of the run in this function\n%8s", "TIP");
		for (size_t k = 0; k < x->cmp.n; k++)
			fprintf(out, " %7.7s", x->cmp.col[k].name);
		fputc('\n', out);
	}
	if (!x->sl)
		fprintf(out, "# no source lines: %s\n", x->err);
	for (uint64_t pc = f->start; pc < f->end;) {
		uint8_t b[4];
		size_t n = elf_image_read(img, pc, b, sizeof(b));
		struct rv_insn in;
		const struct attr_ent *e = attr_prof_get(&x->p.prof, pc + bias);
		const char *file;
		int line, len = rv_decode(b, n, pc, &in);

		if (x->sl && !srcline_find(x->sl, pc, &file, &line) &&
		    (line != last_line || strcmp(file, last_file))) {
			const char *text = src_line(&x->src, file, line);

			int used = fprintf(out, "%s:%d", file, line);

			if (text && used < 79 - 12) {	/* the text only where it fits 79 columns */
				while (*text == ' ' || *text == '\t')
					text++;
				fprintf(out, "  %.*s", 79 - 2 - used, text);
			}
			fputc('\n', out);
			snprintf(last_file, sizeof(last_file), "%s", file);
			last_line = line;
		}
		if (len < 0 || rv_disasm(&in, pc, dis, sizeof(dis)) < 0)
			snprintf(dis, sizeof(dis), len == RV_ERR_NEED_MORE ? "(end of segment)" :
				 ".insn 0x%08" PRIx32, in.raw);
		for (char *t = dis; *t; t++)
			if (*t == '\t')
				*t = ' ';
		annotate_mix(e, mix, sizeof(mix));
		if (e && all > 0)
			fprintf(out, "%7.2f%%", 100 * e->total / all);
		else
			fprintf(out, "%8s", "");
		for (size_t k = 0; k < x->cmp.n; k++) {
			double sh = polcmp_share(&x->cmp.col[k], pc + bias, pc + bias + 1);

			if (sh > 0)
				fprintf(out, " %6.2f%%", 100 * sh);
			else
				fprintf(out, " %7s", "");
		}
		fprintf(out, "  %-18s", mix);
		fprintf(out, " %8" PRIx64 ":  %.38s\n", pc, dis);
		if (len < 0 && (len == RV_ERR_NEED_MORE || !in.len))
			break;
		pc += len > 0 ? (unsigned)len : in.len;
	}
	return 0;
}

/* ---- entry point */

static int annotate_run(struct annotate_ctx *x)
{
	int ret = TIPROF_EXIT_FAIL;
	long fi, o = -1;

	if (sfprof_load(&x->p, x->file, x->elf, x->err, sizeof(x->err)))
		goto fail;
	fi = annotate_pick(x, &o);
	if (fi < 0)
		goto fail;
	if (x->compare && polcmp_load(&x->cmp, x->file, x->compare, x->p.hdr.build_id,
				      x->p.hdr.build_id_len, x->err, sizeof(x->err)))
		goto fail;
	x->sl = srcline_open(sfprof_obj_path(&x->p, o), x->err, sizeof(x->err));
	annotate_print(x, o, fi, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		snprintf(x->err, sizeof(x->err), "cannot write the annotation");
		goto fail;
	}
	for (int i = 0; i < x->p.nwarn; i++)
		fprintf(stderr, "tiprof annotate: warning: %s\n", x->p.warn[i]);
	ret = TIPROF_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "tiprof annotate: %s\n", x->err);
out:
	srcline_close(x->sl);
	src_free(&x->src);
	polcmp_free(&x->cmp);
	sfprof_free(&x->p);
	return ret;
}

static const struct opt_use annotate_uses[] = {
	{ OPT_INPUT, "the sample file (default tiprof.tps)" },
	{ OPT_ELF, NULL },
	{ OPT_FUNCTION, "the function to annotate (default: the hottest); NAME@OBJ: in shared "
	  "object OBJ" },
	{ OPT_COMPARE, "show beside TIP's share what these policies and the Oracle said on the "
	  "same run (FILE.policies, written by tiprof sim --profile)" },
	{ OPT_STDIO, NULL },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_annotate = { "annotate", annotate_uses, "annotate" };

/* Entry point of `tiprof annotate` (registered in sw/tiprof.c). */
int cmd_annotate(int argc, char **argv)
{
	struct annotate_ctx x;
	struct opt_parser p;
	int o;

	memset(&x, 0, sizeof(x));
	opt_init(&p, &opt_set_annotate, argc, argv, 1);
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
		case OPT_ELF:
			x.elf = p.arg;
			break;
		case OPT_FUNCTION:
			x.func = p.arg;
			break;
		case OPT_COMPARE:
			x.compare = p.arg;
			break;
		case OPT_STDIO:
			break;
		}
	}
	if (!x.file)
		x.file = "tiprof.tps";
	return annotate_run(&x);
}
