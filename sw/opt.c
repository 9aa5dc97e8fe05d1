/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opt.c - the option vocabulary of every tiprof subcommand and its parser (contract in
 * include/tiprof/opt.h). One row per setting; a subcommand picks rows, it never invents a
 * spelling.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tiprof/cmd.h"
#include "tiprof/opt.h"

static const struct opt_def opt_vocab[] = {
	{ OPT_OUTPUT, 'o', "output", { NULL }, "FILE",
	  "write the command's result to FILE ('-': standard output)" },
	{ OPT_INPUT, 'i', "input", { NULL }, "FILE", "the file to read (also as the operand)" },
	{ OPT_PERIOD, 'c', "period", { "count", NULL }, "P",
	  "sampling period: cycles (or event units) between samples" },
	{ OPT_RANDOM_BITS, '\0', "random-bits", { "rand-bits", NULL }, "K",
	  "random-interval bits, 0..31 (0 = periodic; default: log2 P for a power of two, "
	  "else 8 more, at most 31)" },
	{ OPT_SAMPLER_SEED, '\0', "sampler-seed", { NULL }, "N",
	  "seed of the sampler's LFSR (TIP_LFSR), 1..4294967295 (default: the unit's reset "
	  "value): repeated runs with different seeds sample different cycles" },
	{ OPT_PERIODIC, '\0', "periodic", { NULL }, NULL,
	  "sample at fixed intervals (same as --random-bits 0)" },
	{ OPT_EVENT, 'e', "event", { NULL }, "E", "the event that paces sampling" },
	{ OPT_CONFIG, '\0', "config", { NULL }, "C",
	  "core model: 4wide (default, the TIP paper's BOOM), 2wide or 1wide" },
	{ OPT_JSON, '\0', "json", { NULL }, NULL, "print one JSON object instead of text" },
	{ OPT_STDIO, '\0', "stdio", { NULL }, NULL, "print text (the default)" },
	{ OPT_ELF, '\0', "elf", { "binary", NULL }, "ELF",
	  "the profiled program (default: the path recorded in the file)" },
	{ OPT_SYSROOT, 'L', "sysroot", { NULL }, "DIR",
	  "where a dynamic program's loader and libraries are (default "
	  "/usr/riscv64-linux-gnu, as qemu-riscv64 -L)" },
	{ OPT_EXE_PATH, '\0', "exe-path", { NULL }, "PATH",
	  "the path the program sees as its own executable (/proc/self/exe; default: its file's "
	  "absolute path): a fixed one makes runs of one program alike wherever it lies" },
	{ OPT_FUNCTION, '\0', "function", { NULL }, "NAME", "the function to show" },
	{ OPT_LEVEL, '\0', "level", { NULL }, "L",
	  "rows are functions (default), blocks or instructions" },
	{ OPT_LIMIT, '\0', "limit", { "top", NULL }, "N", "show N rows (default 25, 0 = all)" },
	{ OPT_SORT, '\0', "sort", { NULL }, "KEY", "order rows by KEY" },
	{ OPT_ORACLE, '\0', "oracle", { NULL }, "FILE", "the Oracle profile (tiprof sim --oracle)" },
	{ OPT_CYCLE_STACK, '\0', "cycle-stack", { NULL }, NULL, "print cycle stacks" },
	{ OPT_SVG, '\0', "svg", { NULL }, "OUT", "also write the charts as SVG" },
	{ OPT_COMPARE, '\0', "compare", { NULL }, "P1,P2,...",
	  "beside TIP, what Oracle, Ideal, LCI, NCI, NCI+ILP, Dispatch or Software said on the "
	  "same run" },
	{ OPT_PROFILE, '\0', "profile", { NULL }, "FILE", "record a TIP sample file" },
	{ OPT_RTL, '\0', "rtl", { NULL }, NULL,
	  "record through the Verilated RTL unit, checked against its C model every cycle" },
	{ OPT_ROB_TRACE, '\0', "rob-trace", { NULL }, "FILE",
	  "record the per-cycle ROB interface (docs/rob-trace.md)" },
	{ OPT_SWEEP, '\0', "sweep", { NULL }, "P1,P2,...", "several periods on one run" },
	{ OPT_WINDOWS, '\0', "windows", { NULL }, "W,D,U[,cold]",
	  "sampled simulation: warm U instructions functionally, simulate D in detail unmeasured, "
	  "measure W; repeated to the end" },
	{ OPT_PAIR, '\0', "pair", { NULL }, "W",
	  "ProfileMe paired sampling: the second instruction 1..W (1..256) fetched instructions "
	  "after the first" },
	{ OPT_TRUTH, '\0', "truth", { NULL }, "FILE",
	  "the run's exact profile: written by sim (per-instruction ProfileMe truth) and iss "
	  "(block and edge counts), read by fdo overlap" },
	{ OPT_SKID, '\0', "skid", { NULL }, "L", "interrupt skid of the Software policy, cycles" },
	{ OPT_POLICIES, '\0', "policies", { NULL }, "P1,P2,...", "report only these policies" },
	{ OPT_PROGRESS, '\0', "progress", { NULL }, NULL,
	  "show a progress line on stderr even when it is not a terminal" },
	{ OPT_NO_PROGRESS, '\0', "no-progress", { NULL }, NULL,
	  "no progress line (default when stderr is not a terminal)" },
	{ OPT_EXPECT, '\0', "expect", { NULL }, "N",
	  "instructions the program will run, for the progress line's ETA" },
	{ OPT_STAT, '\0', "stat", { NULL }, NULL, "print the instructions retired on stderr" },
	{ OPT_TRACE, '\0', "trace", { NULL }, NULL, "print every retired instruction on stderr" },
	{ OPT_SEED, '\0', "seed", { NULL }, "N", "seed of AT_RANDOM and getrandom (default 1)" },
	{ OPT_MAX_INSNS, '\0', "max-insns", { NULL }, "N", "stop after N instructions (exit 124)" },
	{ OPT_FROM, '\0', "from", { NULL }, "N", "first cycle to show" },
	{ OPT_CYCLES, 'n', "cycles", { NULL }, "M", "cycles to show" },
	{ OPT_USER, '\0', "user", { NULL }, NULL, "sample user mode (default)" },
	{ OPT_KERNEL, '\0', "kernel", { NULL }, NULL, "sample the kernel" },
	{ OPT_CPU, 'C', "cpu", { NULL }, "LIST", "CPUs to record on (0-3,6)" },
	{ OPT_KALLSYMS, '\0', "kallsyms", { NULL }, "FILE",
	  "the kernel's symbols (a copy of /proc/kallsyms; default: FILE.kallsyms if present)" },
	{ OPT_AUX_PAGES, '\0', "aux-pages", { NULL }, "N",
	  "perf AUX area size in pages (power of two, default 256)" },
	{ OPT_CHECK, '\0', "check", { NULL }, "FILE",
	  "read FILE back and print its sample and lost counts" },
	{ OPT_DEPTH, '\0', "depth", { NULL }, "N", "taken branches per stack, 1..256 (default 16)" },
	{ OPT_MECH, '\0', "mech", { NULL }, "M", "how the tracer stops at a branch: hwbp or int3" },
	{ OPT_REPS, 'r', "reps", { NULL }, "R", "repetitions (default 5)" },
	{ OPT_TID, '\0', "tid", { NULL }, NULL, "show thread ids (default)" },
	{ OPT_NO_TID, '\0', "no-tid", { NULL }, NULL, "omit thread ids" },
	{ OPT_BLOCKS, '\0', "blocks", { NULL }, NULL, "fall-through block counts instead" },
	{ OPT_HELP, 'h', "help", { NULL }, NULL, "print this help" },
};

#define NVOCAB (sizeof(opt_vocab) / sizeof(opt_vocab[0]))

/* Contract in opt.h. */
const struct opt_def *opt_def_find(enum opt_id id)
{
	for (size_t k = 0; k < NVOCAB; k++)
		if (opt_vocab[k].id == id)
			return &opt_vocab[k];
	return NULL;
}

/* Contract in opt.h. */
int opt_usage_error(const struct opt_set *set, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tiprof %s: ", set->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return TIPROF_EXIT_USAGE;
}

/* Contract in opt.h. */
void opt_init(struct opt_parser *p, const struct opt_set *set, int argc, char **argv,
	      int permute)
{
	memset(p, 0, sizeof(*p));
	p->set = set;
	p->argc = argc;
	p->argv = argv;
	p->i = 1;
	p->permute = permute;
}

/* Does the set accept id? */
static int set_has(const struct opt_set *set, enum opt_id id)
{
	if (id == OPT_HELP)
		return 1;
	for (const struct opt_use *u = set->uses; u->id != OPT_END; u++)
		if (u->id == id)
			return 1;
	return 0;
}

/* The row whose long spelling (or alias) is name[0..len), or NULL. */
static const struct opt_def *find_long(const char *name, size_t len)
{
	for (size_t k = 0; k < NVOCAB; k++) {
		const struct opt_def *d = &opt_vocab[k];

		if (strlen(d->name) == len && !strncmp(d->name, name, len))
			return d;
		for (int a = 0; a < 2 && d->alias[a]; a++)
			if (strlen(d->alias[a]) == len && !strncmp(d->alias[a], name, len))
				return d;
	}
	return NULL;
}

static const struct opt_def *find_short(char c)
{
	for (size_t k = 0; k < NVOCAB; k++)
		if (opt_vocab[k].short_name == c)
			return &opt_vocab[k];
	return NULL;
}

/* Contract in opt.h. */
int opt_next(struct opt_parser *p)
{
	const struct opt_def *d;
	const char *a, *eq = NULL, *inl = NULL;

	p->arg = NULL;
	p->spelled = NULL;
	for (;;) {
		if (p->i >= p->argc)
			return OPT_END;
		a = p->argv[p->i];
		if (!strcmp(a, "--")) {
			p->i++;
			if (p->permute && p->i < p->argc) {
				p->arg = p->argv[p->i++];
				p->permute = 2;	/* everything after "--" is an operand */
				return OPT_OPERAND;
			}
			return OPT_END;
		}
		if (p->permute == 2 || a[0] != '-' || a[1] == '\0') {	/* "-" is an operand */
			if (!p->permute)
				return OPT_END;
			p->arg = a;
			p->i++;
			return OPT_OPERAND;
		}
		break;
	}
	p->i++;
	if (a[1] == '-') {
		eq = strchr(a + 2, '=');
		d = find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		p->spelled = a;
	} else {
		d = find_short(a[1]);
		if (a[2])
			inl = a + 2;
		snprintf(p->spellbuf, sizeof(p->spellbuf), "-%c", a[1]);
		p->spelled = p->spellbuf;
	}
	if (!d || !set_has(p->set, d->id)) {
		opt_usage_error(p->set, "unknown option '%.*s' (tiprof help %s)",
				eq ? (int)(eq - a) : (int)strlen(a), a, p->set->help_cmd);
		return OPT_ERROR;
	}
	if (d->id == OPT_HELP) {
		const struct tiprof_cmd *c = tiprof_cmd_find(p->set->help_cmd);

		if (c)
			tiprof_print_help(stdout, c);
		return OPT_HELP_DONE;
	}
	if (!d->arg) {
		if (eq || inl) {
			opt_usage_error(p->set, "option '%s' takes no value", d->name);
			return OPT_ERROR;
		}
		return d->id;
	}
	if (eq) {
		p->arg = eq + 1;
		snprintf(p->spellbuf, sizeof(p->spellbuf), "%.*s", (int)(eq - a), a);
		p->spelled = p->spellbuf;
	} else if (inl) {
		p->arg = inl;
	} else if (p->i < p->argc) {
		p->arg = p->argv[p->i++];
	} else {
		opt_usage_error(p->set, "missing value of option '%s' (tiprof help %s)", a,
				p->set->help_cmd);
		return OPT_ERROR;
	}
	return d->id;
}

/* Contract in opt.h. */
int opt_u64(struct opt_parser *p, uint64_t min, uint64_t max, uint64_t *v)
{
	const char *s = p->arg;
	char *end;
	unsigned long long x;

	errno = 0;
	/* strtoull accepts "-1" (and a leading space or '+'): only digits here */
	if (s[0] < '0' || s[0] > '9')
		goto bad;
	x = strtoull(s, &end, 0);
	if (*end || errno || x < min || x > max)
		goto bad;
	*v = x;
	return 0;
bad:
	opt_usage_error(p->set, "%s: bad value '%s' (%llu..%llu)", p->spelled, s,
			(unsigned long long)min, (unsigned long long)max);
	return -1;
}

/* Contract in opt.h. */
int opt_one_file(struct opt_parser *p, const char **file)
{
	if (*file) {
		opt_usage_error(p->set, "more than one FILE ('%s' and '%s')", *file, p->arg);
		return -1;
	}
	*file = p->arg;
	return 0;
}

/* "-o, --output FILE" into buf. */
static void spell(char *buf, size_t n, const struct opt_def *d)
{
	int k = 0;

	if (d->short_name)
		k = snprintf(buf, n, "-%c, ", d->short_name);
	snprintf(buf + k, n - (size_t)k, "--%s%s%s", d->name, d->arg ? " " : "",
		 d->arg ? d->arg : "");
}

/* Print text from column col, breaking lines at spaces before column width. */
static void print_wrapped(FILE *f, const char *text, int col, int width)
{
	const char *p = text;

	while (*p) {
		int n = (int)strlen(p), cut = n;

		if (col + n > width) {
			for (cut = width - col; cut > 0 && p[cut] != ' '; cut--)
				;
			if (cut == 0)	/* one long word: break after it */
				for (cut = width - col; p[cut] && p[cut] != ' '; cut++)
					;
		}
		fprintf(f, "%.*s\n", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		if (*p)
			fprintf(f, "%*s", col, "");
	}
}

/* Contract in opt.h. */
void opt_print_uses(FILE *f, const struct opt_set *set)
{
	char sp[64];

	for (const struct opt_use *u = set->uses; u->id != OPT_END; u++) {
		const struct opt_def *d = opt_def_find(u->id);

		char text[512];
		int k;

		spell(sp, sizeof(sp), d);
		k = snprintf(text, sizeof(text), "%s", u->help ? u->help : d->help);
		for (int a = 0; a < 2 && d->alias[a] && k > 0 && (size_t)k < sizeof(text); a++)
			k += snprintf(text + k, sizeof(text) - (size_t)k, "%s--%s%s",
				      a ? ", " : " (also ", d->alias[a],
				      a == 1 || !d->alias[1] ? ")" : "");
		fprintf(f, "  %-24s ", sp);
		print_wrapped(f, text, 27, 90);
	}
}

/* Contract in opt.h. */
void opt_print_matrix(FILE *f, const struct opt_set *const *sets)
{
	char sp[64];

	fprintf(f, "| option | also | meaning | taken by |\n|---|---|---|---|\n");
	for (size_t k = 0; k < NVOCAB; k++) {
		const struct opt_def *d = &opt_vocab[k];
		int n = 0;

		spell(sp, sizeof(sp), d);
		fprintf(f, "| `%s` | ", sp);
		for (int a = 0; a < 2 && d->alias[a]; a++)
			fprintf(f, "%s`--%s`", a ? ", " : "", d->alias[a]);
		fprintf(f, " | %s | ", d->help);
		if (d->id == OPT_HELP)
			fprintf(f, "every command");
		else
			for (const struct opt_set *const *s = sets; *s; s++)
				if (set_has(*s, d->id))
					fprintf(f, "%s%s", n++ ? ", " : "", (*s)->cmd);
		fprintf(f, " |\n");
	}
}
