/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_outcmd.c - argument parsing of the output subcommands (contract in lbr_outcmd.h). */
#include "lbr_outcmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lbr_afdo.h"
#include "lbr_agg.h"
#include "lbr_data.h"
#include "lbr_edges.h"
#include "lbr_llvmprof.h"
#include "lbr_perfdata.h"
#include "lbr_sym.h"
#include "tiprof/cmd.h"

#define PROG "tiprof lbr"

struct out_ctx {
	const char *in;      /* records file */
	const char *out;     /* output file, NULL = default */
	const char *binary;  /* --elf EXE (alias --binary) */
	int blocks;          /* --blocks */
	struct lbr_data d;
	struct lbr_symtab st;
	char err[1024];
};

static int fail(const char *msg, const char *detail)
{
	fprintf(stderr, PROG ": %s%s%s\n", msg, detail ? ": " : "", detail ? detail : "");
	return 2;
}

/* The command line of one converter (its options in set, from cmd-lbr.c). */
static int parse(struct out_ctx *c, int argc, char **argv, const struct opt_set *set)
{
	struct opt_parser p;
	int o;

	opt_init(&p, set, argc, argv, 1);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return -1;
		case OPT_ERROR:
			return 2;
		case OPT_OUTPUT:
			c->out = p.arg;
			break;
		case OPT_ELF:
			c->binary = p.arg;
			break;
		case OPT_BLOCKS:
			c->blocks = 1;
			break;
		case OPT_INPUT:
		case OPT_OPERAND:
			if (opt_one_file(&p, &c->in))
				return 2;
			break;
		}
	}
	if (!c->in)
		c->in = LBR_DEFAULT_FILE;
	return 0;
}

static int load(struct out_ctx *c)
{
	if (lbr_data_load(c->in, &c->d, c->err, sizeof(c->err)) < 0)
		return fail(c->err, NULL);
	if (c->d.truncated)
		fprintf(stderr, PROG ": %s: the last record is truncated (ignored)\n", c->in);
	if (lbr_sym_init(&c->st, &c->d, c->err, sizeof(c->err)) < 0) {
		lbr_data_free(&c->d);
		return fail(c->err, NULL);
	}
	return 0;
}

static void unload(struct out_ctx *c)
{
	lbr_sym_free(&c->st);
	lbr_data_free(&c->d);
}

/* The profiled executable: --binary, else the first session's. */
static int pick_binary(struct out_ctx *c, int *obj)
{
	const char *exe = c->binary ? c->binary : c->d.sessions[0].exe;
	*obj = lbr_sym_find_obj(&c->st, exe);
	if (*obj < 0) {
		snprintf(c->err, sizeof(c->err), "%s is not a mapped file of the records (use --elf "
			 "with the traced executable or one of its libraries)", exe);
		return fail(c->err, NULL);
	}
	if (!c->st.objs[*obj].elf_ok) {
		snprintf(c->err, sizeof(c->err), "cannot read %s as an ELF file", c->st.objs[*obj].path);
		return fail(c->err, NULL);
	}
	return 0;
}

/* Text output: -o FILE or stdout. */
static FILE *open_out(struct out_ctx *c)
{
	if (!c->out || strcmp(c->out, "-") == 0)
		return stdout;
	FILE *f = fopen(c->out, "w");
	if (!f) {
		snprintf(c->err, sizeof(c->err), "cannot write %s: %s", c->out, strerror(errno));
		fail(c->err, NULL);
	}
	return f;
}

static int close_out(struct out_ctx *c, FILE *f, int status)
{
	if (f == stdout) {
		if (fflush(f) != 0 && status == 0)
			status = fail("cannot write the output", strerror(errno));
		return status;
	}
	if (fclose(f) != 0 && status == 0)
		status = fail("cannot write the output", strerror(errno));
	if (status != 0)
		remove(c->out);
	return status;
}

int lbr_cmd_perf(int argc, char **argv)
{
	struct out_ctx c = { 0 };
	int r = parse(&c, argc, argv, &opt_set_lbr_perf);
	if (r < 0)
		return 0;
	if (r || (r = load(&c)))
		return r;
	if (lbr_perfdata_write(c.out ? c.out : "perf.data", &c.d, &c.st, c.err, sizeof(c.err)) < 0)
		r = fail(c.err, NULL);
	unload(&c);
	return r;
}

int lbr_cmd_edges(int argc, char **argv)
{
	struct out_ctx c = { 0 };
	int r = parse(&c, argc, argv, &opt_set_lbr_edges);
	if (r < 0)
		return 0;
	if (r)
		return r;
	FILE *f = open_out(&c);
	if (!f)
		return 2;
	if ((r = load(&c)))
		return close_out(&c, f, r);
	struct lbr_agg g;
	if (lbr_agg_build(&g, &c.d, &c.st, c.err, sizeof(c.err)) < 0) {
		r = fail(c.err, NULL);
	} else {
		if (lbr_edges_write(f, &g, &c.st, c.blocks ? LBR_EDGES_BLOCKS : LBR_EDGES_BRANCHES,
				    c.err, sizeof(c.err)) < 0)
			r = fail(c.err, NULL);
		lbr_agg_free(&g);
	}
	unload(&c);
	return close_out(&c, f, r);
}

/* llvm-prof and afdo-text: aggregate, then write for one binary. */
static int cmd_profile(int argc, char **argv, int llvm)
{
	struct out_ctx c = { 0 };
	int r = parse(&c, argc, argv, llvm ? &opt_set_lbr_llvm_prof : &opt_set_lbr_afdo_text);
	if (r < 0)
		return 0;
	if (r || (r = load(&c)))
		return r;
	int obj;
	if ((r = pick_binary(&c, &obj))) {
		unload(&c);
		return r;
	}
	FILE *f = open_out(&c);
	if (!f) {
		unload(&c);
		return 2;
	}
	struct lbr_agg g;
	if (lbr_agg_build(&g, &c.d, &c.st, c.err, sizeof(c.err)) < 0) {
		r = fail(c.err, NULL);
	} else {
		int w = llvm ? lbr_llvmprof_write(f, &g, &c.st, obj, c.err, sizeof(c.err))
			     : lbr_afdo_write(f, &g, &c.st, obj, c.err, sizeof(c.err));
		if (w < 0)
			r = fail(c.err, NULL);
		lbr_agg_free(&g);
	}
	unload(&c);
	return close_out(&c, f, r);
}

int lbr_cmd_llvm_prof(int argc, char **argv)
{
	return cmd_profile(argc, argv, 1);
}

int lbr_cmd_afdo_text(int argc, char **argv)
{
	return cmd_profile(argc, argv, 0);
}
