/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd-pm.c - `tiprof pm VIEW [FILE] [OPTIONS]`: analyses of the ProfileMe samples of a sample
 * file (format 1.2; docs/pm-report.md): report (estimated event counts with intervals per
 * function and instruction), lat (latency distributions per stage), mem (loads by D-cache /
 * D-TLB outcome and latency, per instruction and data region), path (path histories), pairs
 * (useful overlap and wasted issue slots), convert (to perf.data for perf report and perf mem
 * report). The estimates come from sw/pm/pm_est, the views from sw/pm/pm_view*.c, symbols
 * from sw/lib/sfprof, the perf.data from sw/pm/pm_perfdata.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sfprof.h"
#include "pm/pm_est.h"
#include "pm/pm_file.h"
#include "pm/pm_perfdata.h"
#include "pm/pm_view.h"
#include "tiprof/cmd.h"

#define PM_DEFAULT_FILE "tiprof.tps"
#define PM_DEFAULT_LIMIT 25

/* ---- option sets */

#define PM_COMMON_USES \
	{ OPT_INPUT, NULL }, { OPT_OUTPUT, "write the view to FILE (default: standard output)" }, \
	{ OPT_ELF, NULL }, { OPT_JSON, NULL }, { OPT_STDIO, NULL }, \
	{ OPT_LIMIT, "rows per table (default 25, 0 = all; also for --json)" }

static const struct opt_use pm_report_uses[] = {
	PM_COMMON_USES,
	{ OPT_SORT, "order rows by an event's sample count (default fetched) or, for "
		    "instructions, by a stage's mean latency, overlap, wasted, paths or pc" },
	{ OPT_EVENT, "events to show, comma-separated: fetched, retired, aborted, trap, timeout, "
		     "ic_miss, itlb_miss, dc_miss, dtlb_miss, load, store, ctrl, br_taken, "
		     "br_mispred, ea_valid (default fetched,dc_miss,br_mispred)" },
	{ OPT_LEVEL, "function or instruction rows only (default: both tables)" },
	{ OPT_END, NULL },
};
static const struct opt_use pm_lat_uses[] = {
	PM_COMMON_USES,
	{ OPT_SORT, "order instructions by an event's sample count (default fetched) or a "
		    "stage's mean latency (total, fetch_map, map_ready, ready_issue, "
		    "issue_complete, complete_retire, mem)" },
	{ OPT_END, NULL },
};
static const struct opt_use pm_mem_uses[] = {
	PM_COMMON_USES,
	{ OPT_SORT, "order instructions by an event's sample count (default load) or mem" },
	{ OPT_END, NULL },
};
static const struct opt_use pm_path_uses[] = {
	PM_COMMON_USES,
	{ OPT_SORT, "order instructions by an event's sample count (default fetched) or paths" },
	{ OPT_END, NULL },
};
static const struct opt_use pm_pairs_uses[] = {
	PM_COMMON_USES,
	{ OPT_SORT, "order instructions by an event's sample count (default fetched), overlap, "
		    "wasted (per execution) or wasted-total (x the estimated executions)" },
	{ OPT_END, NULL },
};

static const struct opt_use pm_convert_uses[] = {
	{ OPT_INPUT, NULL },
	{ OPT_OUTPUT, "the perf.data file to write (required)" },
	{ OPT_END, NULL },
};

const struct opt_set opt_set_pm_report = { "pm report", pm_report_uses, "pm" };
const struct opt_set opt_set_pm_lat = { "pm lat", pm_lat_uses, "pm" };
const struct opt_set opt_set_pm_mem = { "pm mem", pm_mem_uses, "pm" };
const struct opt_set opt_set_pm_path = { "pm path", pm_path_uses, "pm" };
const struct opt_set opt_set_pm_pairs = { "pm pairs", pm_pairs_uses, "pm" };
const struct opt_set opt_set_pm_convert = { "pm convert", pm_convert_uses, "pm" };

/* ---- convert */

/* `tiprof pm convert [FILE] -o OUT.perf.data` (sw/pm/pm_perfdata, docs/pm-perf.md). */
static int pm_convert(int argc, char **argv)
{
	const struct opt_set *set = &opt_set_pm_convert;
	struct opt_parser p;
	struct pm_file pf;
	struct pm_perf_input in;
	const char *file = NULL, *out = NULL;
	char err[1024];
	size_t prof = 0;
	int o;

	opt_init(&p, set, argc, argv, 1);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return TIPROF_EXIT_OK;
		case OPT_INPUT:
		case OPT_OPERAND:
			if (opt_one_file(&p, &file))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_OUTPUT:
			out = p.arg;
			break;
		default:
			return TIPROF_EXIT_USAGE;
		}
	}
	if (!out)
		return opt_usage_error(set, "-o OUT.perf.data is required");
	if (!file)
		file = PM_DEFAULT_FILE;
	if (pm_file_load(&pf, file, err, sizeof(err))) {
		fprintf(stderr, "tiprof pm convert: %s\n", err);
		pm_file_free(&pf);
		return TIPROF_EXIT_FAIL;
	}
	memset(&in, 0, sizeof(in));
	in.hdr = &pf.hdr;
	in.cfg = &pf.cfg;
	in.s = pf.s;
	in.n = pf.n;
	in.objs = pf.obj;
	in.nobjs = pf.nobj;
	if (pm_perfdata_write(out, &in, err, sizeof(err))) {
		fprintf(stderr, "tiprof pm convert: %s: %s\n", file, err);
		remove(out);
		pm_file_free(&pf);
		return TIPROF_EXIT_FAIL;
	}
	for (size_t i = 0; i < pf.n; i++) {
		const struct tiprof_pm_sample *s = &pf.s[i];

		prof += tiprof_pm_field(s, TIPROF_PM_REC_INFO, 0, TIPROF_PM_REC_INFO_TAGGED_MASK,
					TIPROF_PM_REC_INFO_TAGGED_SHIFT) != 0;
		prof += tiprof_pm_field(s, TIPROF_PM_REC_SINFO, 0, TIPROF_PM_REC_SINFO_PAIR_MASK,
					TIPROF_PM_REC_SINFO_PAIR_SHIFT) &&
			tiprof_pm_field(s, TIPROF_PM_REC_INFO, 1, TIPROF_PM_REC_INFO_TAGGED_MASK,
					TIPROF_PM_REC_INFO_TAGGED_SHIFT);
	}
	fprintf(stderr, "tiprof pm convert: %zu ProfileMe samples of %s: %zu perf samples written "
		"to %s\n", pf.n, file, prof, out);
	pm_file_free(&pf);
	return TIPROF_EXIT_OK;
}

/* ---- the views */

struct pm_viewdef {
	const char *name;
	const struct opt_set *set;
	int (*run)(const struct pm_view *v);
};

static const struct pm_viewdef pm_views[] = {
	{ "report", &opt_set_pm_report, pm_view_report },
	{ "lat", &opt_set_pm_lat, pm_view_lat },
	{ "mem", &opt_set_pm_mem, pm_view_mem },
	{ "path", &opt_set_pm_path, pm_view_path },
	{ "pairs", &opt_set_pm_pairs, pm_view_pairs },
};
#define PM_NVIEWS (sizeof(pm_views) / sizeof(pm_views[0]))

/* func_key of the estimator over the symbols. */
static uint64_t pm_func_key(void *ctx, uint64_t pc)
{
	return sfprof_key(ctx, pc, LEVEL_FUNCTION);
}

/* Parse --event's comma-separated list into v. Returns 0 or -1 (message printed). */
static int pm_events(const struct opt_set *set, const char *list, struct pm_view *v)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	v->nev = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int ev = pm_est_event_parse(t);

		if (ev < 0) {
			opt_usage_error(set, "--event: unknown event '%s' (fetched, retired, aborted, "
					"trap, timeout, empty, ic_miss, itlb_miss, dc_miss, dtlb_miss, "
					"load, store, ctrl, br_taken, br_mispred, ea_valid)", t);
			return -1;
		}
		if (v->nev < PM_EST_NEV)
			v->ev[v->nev++] = (unsigned)ev;
	}
	if (!v->nev) {
		opt_usage_error(set, "--event: no event named");
		return -1;
	}
	return 0;
}

/* Run view d on the command line argv. */
static int pm_run(const struct pm_viewdef *d, int argc, char **argv)
{
	struct opt_parser p;
	struct pm_view v;
	struct pm_file pf;
	struct pm_est e;
	struct pm_est_opts eo;
	struct sfprof *sym = NULL;
	const char *file = NULL, *elf = NULL, *out = NULL;
	char err[1024];
	uint64_t u;
	int o, ret = TIPROF_EXIT_FAIL;

	memset(&v, 0, sizeof(v));
	v.view = d->name;
	v.limit = PM_DEFAULT_LIMIT;
	v.sort = PM_SORT_DEFAULT;
	v.level = -1;
	v.ev[0] = PM_EST_EV_FETCHED;
	v.ev[1] = TIPROF_PM_EV_DC_MISS;
	v.ev[2] = TIPROF_PM_EV_BR_MISPRED;
	v.nev = 3;
	opt_init(&p, d->set, argc, argv, 1);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return TIPROF_EXIT_OK;
		case OPT_ERROR:
			return TIPROF_EXIT_USAGE;
		case OPT_INPUT:
		case OPT_OPERAND:
			if (opt_one_file(&p, &file))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_OUTPUT:
			out = p.arg;
			break;
		case OPT_ELF:
			elf = p.arg;
			break;
		case OPT_JSON:
			v.json = 1;
			break;
		case OPT_STDIO:
			v.json = 0;
			break;
		case OPT_LIMIT:
			if (opt_u64(&p, 0, 1000000000, &u))
				return TIPROF_EXIT_USAGE;
			v.limit = (long)u;
			break;
		case OPT_SORT:
			if ((v.sort = pm_view_sort_parse(p.arg)) == -2)
				return opt_usage_error(d->set, "--sort: unknown key '%s' (an event, a "
						       "stage, overlap, wasted, wasted-total, paths or "
						       "pc)", p.arg);
			break;
		case OPT_EVENT:
			if (pm_events(d->set, p.arg, &v))
				return TIPROF_EXIT_USAGE;
			break;
		case OPT_LEVEL:
			if (!strcmp(p.arg, "function"))
				v.level = LEVEL_FUNCTION;
			else if (!strcmp(p.arg, "instruction"))
				v.level = LEVEL_INSTRUCTION;
			else
				return opt_usage_error(d->set, "--level: '%s' is not function or "
						       "instruction", p.arg);
			break;
		default:
			return TIPROF_EXIT_USAGE;
		}
	}
	v.file = file ? file : PM_DEFAULT_FILE;
	if (pm_file_load(&pf, v.file, err, sizeof(err))) {
		fprintf(stderr, "tiprof pm %s: %s\n", d->name, err);
		pm_file_free(&pf);
		return TIPROF_EXIT_FAIL;
	}
	/* symbols: the ELF the file names, or --elf; none when neither names one */
	if (elf || pf.hdr.elf_path_len) {
		sym = calloc(1, sizeof(*sym));
		if (!sym || sfprof_load(sym, v.file, elf, err, sizeof(err))) {
			fprintf(stderr, "tiprof pm %s: %s\n", d->name, sym ? err : "out of memory");
			goto out;
		}
		v.elf = sym->elf;
	}
	pm_est_opts_init(&eo);
	if (sym) {
		eo.func_key = pm_func_key;
		eo.func_ctx = sym;
	}
	if (pm_est_build(&e, &pf.cfg, pf.has_counts ? &pf.counts : NULL, &eo, pf.s, pf.n)) {
		fprintf(stderr, "tiprof pm %s: %s: out of memory (or a configuration without a "
			"period)\n", d->name, v.file);
		pm_est_free(&e);
		goto out;
	}
	v.pf = &pf;
	v.e = &e;
	v.sym = sym;
	v.out = stdout;
	if (out && strcmp(out, "-") && !(v.out = fopen(out, "w"))) {
		fprintf(stderr, "tiprof pm %s: cannot write %s\n", d->name, out);
		pm_est_free(&e);
		goto out;
	}
	if (d->run(&v)) {
		fprintf(stderr, "tiprof pm %s: out of memory\n", d->name);
	} else if (fflush(v.out) || ferror(v.out)) {
		fprintf(stderr, "tiprof pm %s: error writing %s\n", d->name, out ? out : "stdout");
	} else {
		ret = TIPROF_EXIT_OK;
	}
	if (v.out != stdout && fclose(v.out) && ret == TIPROF_EXIT_OK) {
		fprintf(stderr, "tiprof pm %s: error writing %s\n", d->name, out);
		ret = TIPROF_EXIT_FAIL;
	}
	if (ret != TIPROF_EXIT_OK && v.out != stdout)
		remove(out);
	pm_est_free(&e);
out:
	if (sym)
		sfprof_free(sym);
	free(sym);
	pm_file_free(&pf);
	return ret;
}

/* Entry point of `tiprof pm` (registered in sw/tiprof.c). */
int cmd_pm(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "tiprof pm: missing view (report, lat, mem, path, pairs or convert; "
			"see tiprof help pm)\n");
		return TIPROF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		tiprof_print_help(stdout, tiprof_cmd_find("pm"));
		return TIPROF_EXIT_OK;
	}
	for (size_t i = 0; i < PM_NVIEWS; i++)
		if (!strcmp(argv[1], pm_views[i].name))
			return pm_run(&pm_views[i], argc - 1, argv + 1);
	if (!strcmp(argv[1], "convert"))
		return pm_convert(argc - 1, argv + 1);
	fprintf(stderr, "tiprof pm: '%s' is not a view (report, lat, mem, path, pairs or "
		"convert)\n", argv[1]);
	return TIPROF_EXIT_USAGE;
}
