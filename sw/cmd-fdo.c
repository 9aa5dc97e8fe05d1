/* SPDX-License-Identifier: Apache-2.0 */
/* cmd-fdo.c - `tiprof fdo`: sample-based FDO (sw/fdo, docs/fdo.md).
 *   tiprof fdo overlap [FILE] --truth EXACT [--elf ELF] [-e EST] [--json] [-o OUT]
 *       the degree of overlap of FILE's edge profile with the exact one, per stage: raw,
 *       static estimate, MCF, MCF + heuristics, MCF with perfect classification.
 *   tiprof fdo smooth [FILE] -o OUT [--elf ELF] [-e EST]
 *       the MCF-smoothed (with heuristics) block and edge profile, as a profile file.
 *   tiprof fdo llvm-prof [FILE] -o OUT [--elf ELF] [-e EST] [--json]
 *   tiprof fdo gcc-afdo [FILE] -o OUT [--elf ELF] [-e EST] [--json]
 *       the compilers' formats (clang -fprofile-sample-use, gcc -fauto-profile) from a sample
 *       file (smoothed as by smooth), a profile file (smooth's or iss --truth's; --elf
 *       required) or branch records (tiprof lbr record: x86-64 or riscv64, ranges and calls
 *       read directly). --json prints a summary on stdout. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdo.h"
#include "lib/srcprof.h"
#include "lbr_agg.h"
#include "lbr_data.h"
#include "lbr_llvmprof.h"
#include "lbr_sym.h"
#include "sample_file.h"
#include "tiprof/cmd.h"
#include "tiprof/file_magic.h"

#define EST_HELP "how samples become block counts: commit (TIP: instructions committing in a " \
	"sampled Computing cycle; default for TIP), cycles (TIP: the cycle's attribution), insn " \
	"(instruction-proportional samples), pm-retired (ProfileMe; default for it), policy:NAME " \
	"(a reference policy's attribution of the same cycles, from FILE.policies: Oracle, " \
	"Ideal, LCI, NCI, NCI+ILP, Dispatch, Software)"

static const struct opt_use overlap_uses[] = {
	{ OPT_INPUT, NULL },
	{ OPT_TRUTH, "the exact block and edge profile of the same run (tiprof iss --truth)" },
	{ OPT_ELF, NULL },
	{ OPT_EVENT, EST_HELP },
	{ OPT_JSON, NULL },
	{ OPT_OUTPUT, "write the table to FILE (default: standard output)" },
	{ OPT_END, NULL },
};
static const struct opt_use smooth_uses[] = {
	{ OPT_INPUT, NULL },
	{ OPT_ELF, NULL },
	{ OPT_EVENT, EST_HELP },
	{ OPT_OUTPUT, "the profile file to write (required; docs/fdo.md)" },
	{ OPT_END, NULL },
};
static const struct opt_use comp_uses[] = {
	{ OPT_INPUT, "a TIP or ProfileMe sample file (smoothed by MCF), a profile file (tiprof fdo "
	  "smooth, tiprof iss --truth; with --elf) or a branch records file (tiprof lbr record)" },
	{ OPT_ELF, "the profiled program, built with -g (default: the one the sample or records "
	  "file names; required for a profile file)" },
	{ OPT_EVENT, EST_HELP },
	{ OPT_JSON, "print a summary (functions, lines, counts) as one JSON object on stdout" },
	{ OPT_OUTPUT, "the profile to write (required)" },
	{ OPT_END, NULL },
};
const struct opt_set opt_set_fdo_llvm_prof = { "fdo llvm-prof", comp_uses, "fdo" };
const struct opt_set opt_set_fdo_gcc_afdo = { "fdo gcc-afdo", comp_uses, "fdo" };
const struct opt_set opt_set_fdo_overlap = { "fdo overlap", overlap_uses, "fdo" };
const struct opt_set opt_set_fdo_smooth = { "fdo smooth", smooth_uses, "fdo" };

struct args {
	const char *file, *truth, *elf, *out, *policy;
	enum fdo_est est;
	int json;
};

static int parse(const struct opt_set *set, int argc, char **argv, struct args *a)
{
	struct opt_parser p;
	int o;

	memset(a, 0, sizeof(*a));
	opt_init(&p, set, argc, argv, 1);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return TIPROF_EXIT_OK;
		case OPT_INPUT:
		case OPT_OPERAND:
			if (opt_one_file(&p, &a->file))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_TRUTH:
			a->truth = p.arg;
			break;
		case OPT_ELF:
			a->elf = p.arg;
			break;
		case OPT_EVENT:
			if (!strncmp(p.arg, "policy:", 7) && p.arg[7]) {
				a->policy = p.arg + 7;
				break;
			}
			if (fdo_est_parse(p.arg, &a->est))
				return opt_usage_error(set, "-e: unknown estimator '%s' (commit, cycles, "
						       "insn, pm-retired, policy:NAME)", p.arg);
			break;
		case OPT_JSON:
			a->json = 1;
			break;
		case OPT_OUTPUT:
			a->out = p.arg;
			break;
		default:
			return TIPROF_EXIT_USAGE;
		}
	}
	if (!a->file)
		a->file = "tiprof.tps";
	return -1;
}

/* The ELF: --elf, else the path in the sample file's header. */
static int load_cfg(const char *cmd, const struct args *a, struct fdo_cfg *g, char *used,
		    size_t usedlen)
{
	char err[1024];
	const char *elf = a->elf;
	struct sf_reader r;
	char path[SF_PATH_MAX + 1] = "";

	if (!elf) {
		if (sf_reader_open(&r, a->file)) {
			fprintf(stderr, "tiprof %s: %s\n", cmd, r.msg);
			sf_reader_close(&r);
			return -1;
		}
		snprintf(path, sizeof(path), "%s", r.hdr.elf_path);
		sf_reader_close(&r);
		if (!path[0]) {
			fprintf(stderr, "tiprof %s: %s names no ELF: give --elf\n", cmd, a->file);
			return -1;
		}
		elf = path;
	}
	if (fdo_cfg_load(g, elf, err, sizeof(err))) {
		fprintf(stderr, "tiprof %s: %s\n", cmd, err);
		return -1;
	}
	if (used)
		snprintf(used, usedlen, "%s", elf);
	return 0;
}

static int copy_prof(struct fdo_prof *d, const struct fdo_prof *s, const struct fdo_cfg *g)
{
	if (fdo_prof_init(d, g))
		return -1;
	memcpy(d->bc, s->bc, g->nb * sizeof(double));
	if (s->agg) {
		d->agg = malloc(g->nb * sizeof(double));
		d->shadow = malloc(g->nb * sizeof(double));
		if (!d->agg || !d->shadow)
			return -1;
		memcpy(d->agg, s->agg, g->nb * sizeof(double));
		memcpy(d->shadow, s->shadow, g->nb * sizeof(double));
	}
	memcpy(d->source, s->source, sizeof(d->source));
	d->samples = s->samples;
	return 0;
}

enum { ST_RAW, ST_STATIC, ST_MCF, ST_HEUR, ST_PERFECT, ST_N };
static const char *const st_name[ST_N] = { "raw", "static", "mcf", "mcf+heuristics",
					   "mcf+perfect" };

static int fdo_overlap_cmd(int argc, char **argv)
{
	const struct opt_set *set = &opt_set_fdo_overlap;
	struct args a;
	struct fdo_cfg g;
	struct fdo_prof truth, raw, st[ST_N];
	struct fdo_overlap ov[ST_N];
	struct fdo_mcf_stats ms[ST_N];
	char err[1024];
	FILE *out = stdout;
	int r = parse(set, argc, argv, &a), rc = TIPROF_EXIT_FAIL;

	if (r >= 0)
		return r;
	if (!a.truth)
		return opt_usage_error(set, "--truth EXACT is required (tiprof iss --truth EXACT PROG)");
	if (load_cfg("fdo overlap", &a, &g, NULL, 0))
		return TIPROF_EXIT_FAIL;
	memset(st, 0, sizeof(st));
	memset(ms, 0, sizeof(ms));
	memset(&raw, 0, sizeof(raw));
	if (fdo_prof_read(&truth, &g, a.truth, err, sizeof(err))) {
		fprintf(stderr, "tiprof fdo overlap: %s\n", err);
		fdo_cfg_free(&g);
		return TIPROF_EXIT_FAIL;
	}
	if (a.policy ? fdo_prof_from_policy(&raw, &g, a.file, a.policy, err, sizeof(err)) :
	    fdo_prof_from_samples(&raw, &g, a.file, a.est, err, sizeof(err)))
		goto fail;
	for (int s = 0; s < ST_N; s++) {
		if (copy_prof(&st[s], &raw, &g)) {
			snprintf(err, sizeof(err), "out of memory");
			goto fail;
		}
		switch (s) {
		case ST_RAW:
			fdo_edges_raw(&st[s], &g);
			break;
		case ST_STATIC:
			fdo_edges_static(&st[s], &g);
			break;
		default:
			if (fdo_mcf(&st[s], &g, s == ST_MCF ? FDO_H_NONE : s == ST_HEUR ?
				    FDO_H_EVENTS : FDO_H_PERFECT, &truth, &ms[s], err, sizeof(err)))
				goto fail;
		}
		fdo_overlap(&st[s], &truth, &g, &ov[s]);
	}
	if (a.out && !(out = fopen(a.out, "w"))) {
		snprintf(err, sizeof(err), "%s: cannot write", a.out);
		goto fail;
	}
	if (a.json) {
		fprintf(out, "{\"file\":\"%s\",\"source\":\"%s\",\"samples\":%.0f,\"functions\":%zu,"
			"\"blocks\":%zu,\"edges\":%zu,\"heuristics\":%s,\"stages\":{", a.file,
			raw.source, raw.samples, g.nf, g.nb, g.ne, raw.agg ? "true" : "false");
		for (int s = 0; s < ST_N; s++)
			fprintf(out, "%s\"%s\":{\"edge\":%.6f,\"function\":%.6f,\"block\":%.6f,"
				"\"mcf_seconds\":%.4f}", s ? "," : "", st_name[s], ov[s].edge,
				ov[s].func, ov[s].block, ms[s].seconds);
		fprintf(out, "}}\n");
	} else {
		fprintf(out, "%s: %s, %.0f samples; %zu functions, %zu blocks, %zu edges\n", a.file,
			raw.source, raw.samples, g.nf, g.nb, g.ne);
		fprintf(out, "%-16s %8s %8s %8s\n", "stage", "edge", "function", "block");
		for (int s = 0; s < ST_N; s++)
			fprintf(out, "%-16s %7.1f%% %7.1f%% %7.1f%%%s\n", st_name[s], 100 * ov[s].edge,
				100 * ov[s].func, 100 * ov[s].block,
				s == ST_HEUR && !raw.agg ? "  (no events in this source: = mcf)" : "");
	}
	if (a.out)
		fclose(out);
	rc = TIPROF_EXIT_OK;
	goto done;
fail:
	fprintf(stderr, "tiprof fdo overlap: %s\n", err);
done:
	for (int s = 0; s < ST_N; s++)
		fdo_prof_free(&st[s]);
	fdo_prof_free(&raw);
	fdo_prof_free(&truth);
	fdo_cfg_free(&g);
	return rc;
}

static int fdo_smooth_cmd(int argc, char **argv)
{
	const struct opt_set *set = &opt_set_fdo_smooth;
	struct args a;
	struct fdo_cfg g;
	struct fdo_prof p;
	char err[1024];
	int r = parse(set, argc, argv, &a);

	if (r >= 0)
		return r;
	if (!a.out)
		return opt_usage_error(set, "-o OUT is required");
	if (load_cfg("fdo smooth", &a, &g, NULL, 0))
		return TIPROF_EXIT_FAIL;
	if ((a.policy ? fdo_prof_from_policy(&p, &g, a.file, a.policy, err, sizeof(err)) :
	     fdo_prof_from_samples(&p, &g, a.file, a.est, err, sizeof(err))) ||
	    fdo_mcf(&p, &g, FDO_H_EVENTS, NULL, NULL, err, sizeof(err)) ||
	    fdo_prof_write(&p, &g, a.out, err, sizeof(err))) {
		fprintf(stderr, "tiprof fdo smooth: %s\n", err);
		fdo_prof_free(&p);
		fdo_cfg_free(&g);
		return TIPROF_EXIT_FAIL;
	}
	fdo_prof_free(&p);
	fdo_cfg_free(&g);
	return TIPROF_EXIT_OK;
}

/* ---- compiler formats ------------------------------------------------------------------ */

enum in_kind { IN_SAMPLES, IN_PROFILE, IN_RECORDS };

/* What FILE is, by its first bytes; -1 if it cannot be read. */
static int input_kind(const char *path)
{
	char head[32] = "";
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	size_t n = fread(head, 1, sizeof(head) - 1, f);

	fclose(f);
	if (n >= 8 && !memcmp(head, TIPROF_LBR_FILE_MAGIC, 8))
		return IN_RECORDS;
	if (n >= 19 && !memcmp(head, "tiprof-fdo-profile ", 19))
		return IN_PROFILE;
	return IN_SAMPLES;
}

struct comp_out {
	const char *cmd;	/* "fdo llvm-prof" */
	int gcc;
	char elf[4096];
	char build_id[2 * 64 + 1];
	const char *kind;
	char source[32];	/* the estimator, "exact", ... ("lbr" for records) */
	double samples;
};

/* Records: the chosen binary's ranges and calls (lbr_llvmprof.c's reading). */
static int fill_records(struct comp_out *o, const struct args *a, struct dwl **dw,
			struct srcprof **sp, char *err, size_t errlen)
{
	struct lbr_data d;
	struct lbr_symtab st;
	struct lbr_agg g;
	int rc = -1;

	memset(&g, 0, sizeof(g));
	if (lbr_data_load(a->file, &d, err, errlen) < 0)
		return -1;
	if (!d.nsessions) {
		snprintf(err, errlen, "%s: no session in the records file", a->file);
		lbr_data_free(&d);
		return -1;
	}
	if (lbr_sym_init(&st, &d, err, errlen) < 0) {
		lbr_data_free(&d);
		return -1;
	}
	const char *exe = a->elf ? a->elf : d.sessions[0].exe;
	int obj = lbr_sym_find_obj(&st, exe);

	if (obj < 0) {
		snprintf(err, errlen, "%s is not a mapped file of %s (use --elf with the traced "
			 "executable or one of its libraries)", exe, a->file);
		goto out;
	}
	if (!st.objs[obj].elf_ok) {
		snprintf(err, errlen, "cannot read %s as an ELF file", st.objs[obj].path);
		goto out;
	}
	snprintf(o->elf, sizeof(o->elf), "%s", st.objs[obj].path);
	for (size_t i = 0; i < st.objs[obj].build_id_len && 2 * i + 2 < sizeof(o->build_id); i++)
		snprintf(o->build_id + 2 * i, 3, "%02x", st.objs[obj].build_id[i]);
	if (lbr_agg_build(&g, &d, &st, err, errlen) < 0)
		goto out;
	if (!g.stacks) {
		snprintf(err, errlen, "%s: no branch stack in the records file", a->file);
		goto out;
	}
	o->samples = (double)g.stacks;
	snprintf(o->source, sizeof(o->source), "lbr");
	if (!(*dw = dwl_open(o->elf, err, errlen)))
		goto out;
	if (!(*sp = srcprof_new(*dw, o->gcc ? SRCPROF_DISCR_NONE : SRCPROF_DISCR_KEEP)) ||
	    lbr_srcprof_fill(*sp, &g, &st, obj)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	lbr_agg_free(&g);
	lbr_sym_free(&st);
	lbr_data_free(&d);
	return rc;
}

/* Sample file (smoothed) or profile file: block counts over the RISC-V CFG. */
static int fill_blocks(struct comp_out *o, const struct args *a, int kind, struct dwl **dw,
		       struct srcprof **sp, char *err, size_t errlen)
{
	struct fdo_cfg g;
	struct fdo_prof p;
	int rc = -1;

	if (kind == IN_PROFILE && !a->elf) {
		snprintf(err, errlen, "%s is a profile file: give the program with --elf", a->file);
		return -1;
	}
	if (load_cfg(o->cmd, a, &g, o->elf, sizeof(o->elf)))
		return -2;	/* printed */
	memset(&p, 0, sizeof(p));
	snprintf(o->build_id, sizeof(o->build_id), "%s", g.build_id);
	if (kind == IN_PROFILE) {
		if (fdo_prof_read(&p, &g, a->file, err, errlen))
			goto out;
	} else if ((a->policy ? fdo_prof_from_policy(&p, &g, a->file, a->policy, err, errlen) :
		    fdo_prof_from_samples(&p, &g, a->file, a->est, err, errlen)) ||
		   fdo_mcf(&p, &g, FDO_H_EVENTS, NULL, NULL, err, errlen)) {
		goto out;
	}
	snprintf(o->source, sizeof(o->source), "%s", p.source);
	o->samples = p.samples;
	double sum = 0;

	for (size_t b = 0; b < g.nb; b++)
		sum += p.bc[b];
	if (!(sum > 0)) {
		snprintf(err, errlen, "%s: every block count is zero: nothing to write", a->file);
		goto out;
	}
	if (!(*dw = dwl_open(o->elf, err, errlen)))
		goto out;
	if (!(*sp = srcprof_new(*dw, o->gcc ? SRCPROF_DISCR_NONE : SRCPROF_DISCR_CLANG)) ||
	    fdo_srcprof_fill(*sp, &p, &g)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	fdo_prof_free(&p);
	fdo_cfg_free(&g);
	return rc;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static int fdo_compiler_cmd(int argc, char **argv, int gcc)
{
	const struct opt_set *set = gcc ? &opt_set_fdo_gcc_afdo : &opt_set_fdo_llvm_prof;
	struct args a;
	struct comp_out o;
	struct dwl *dw = NULL;
	struct srcprof *sp = NULL;
	struct srcprof_stats st;
	char err[8192];
	FILE *out = NULL;
	int r = parse(set, argc, argv, &a), rc = TIPROF_EXIT_FAIL, kind;

	if (r >= 0)
		return r;
	if (!a.out)
		return opt_usage_error(set, "-o OUT is required");
	memset(&o, 0, sizeof(o));
	o.cmd = set->cmd;
	o.gcc = gcc;
	kind = input_kind(a.file);
	if (kind < 0) {
		snprintf(err, sizeof(err), "cannot open %s: %s", a.file, strerror(errno));
		goto fail;
	}
	o.kind = kind == IN_RECORDS ? "records" : kind == IN_PROFILE ? "profile" : "samples";
	r = kind == IN_RECORDS ? fill_records(&o, &a, &dw, &sp, err, sizeof(err)) :
	    fill_blocks(&o, &a, kind, &dw, &sp, err, sizeof(err));
	if (r == -2)
		goto done;
	if (r)
		goto fail;
	if (!(out = fopen(a.out, gcc ? "wb" : "w"))) {
		snprintf(err, sizeof(err), "cannot write %s: %s", a.out, strerror(errno));
		goto fail;
	}
	if ((gcc ? srcprof_write_gcc(sp, out, &st, err, sizeof(err)) :
	     srcprof_write_llvm(sp, out, &st, err, sizeof(err))))
		goto fail;
	if (fclose(out)) {
		out = NULL;
		snprintf(err, sizeof(err), "cannot write %s: %s", a.out, strerror(errno));
		goto fail;
	}
	out = NULL;
	if (!st.functions) {
		snprintf(err, sizeof(err), "%s: no count has a source line in %s (code without "
			 "DWARF lines?)", a.file, o.elf);
		remove(a.out);
		goto fail;
	}
	if (a.json) {
		printf("{\"input\":");
		json_str(stdout, a.file);
		printf(",\"kind\":\"%s\",\"source\":\"%s\",\"elf\":", o.kind, o.source);
		json_str(stdout, o.elf);
		printf(",\"build_id\":\"%s\",\"format\":\"%s\",\"output\":", o.build_id,
		       gcc ? "gcc-afdo" : "llvm-text");
		json_str(stdout, a.out);
		printf(",\"samples\":%.0f,\"functions\":%zu,\"lines\":%zu,\"inlined\":%zu,"
		       "\"call_targets\":%zu,\"total\":%" PRIu64 ",\"head\":%" PRIu64 ","
		       "\"addresses\":%" PRIu64 ",\"unplaced_addresses\":%" PRIu64 ",\"hottest\":",
		       o.samples, st.functions, st.lines, st.inlined, st.targets, st.total, st.head,
		       st.addrs, st.unplaced);
		json_str(stdout, st.hottest);
		printf("}\n");
	}
	rc = TIPROF_EXIT_OK;
	goto done;
fail:
	fprintf(stderr, "tiprof %s: %s\n", set->cmd, err);
	if (out) {
		fclose(out);
		remove(a.out);
	}
done:
	srcprof_free(sp);
	dwl_close(dw);
	return rc;
}

/* Entry point of `tiprof fdo` (registered in sw/tiprof.c). */
int cmd_fdo(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "tiprof fdo: which? overlap, smooth, llvm-prof or gcc-afdo (tiprof "
			"help fdo)\n");
		return TIPROF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "overlap"))
		return fdo_overlap_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "smooth"))
		return fdo_smooth_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "llvm-prof"))
		return fdo_compiler_cmd(argc - 1, argv + 1, 0);
	if (!strcmp(argv[1], "gcc-afdo"))
		return fdo_compiler_cmd(argc - 1, argv + 1, 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		tiprof_print_help(stdout, tiprof_cmd_find("fdo"));
		return TIPROF_EXIT_OK;
	}
	fprintf(stderr, "tiprof fdo: unknown subcommand '%s' (overlap, smooth, llvm-prof, "
		"gcc-afdo)\n", argv[1]);
	return TIPROF_EXIT_USAGE;
}
