/* SPDX-License-Identifier: Apache-2.0 */
/* cmd-lbr.c - `tiprof lbr`, the software branch tracer's subcommands (sw/lbr/): `record` runs
 * a command with the tracer (libtiprof-lbr.so) preloaded and passes its exit status through; `script` prints a records file as perf-script-style
 * brstack text; `dump` prints every record. One context struct per command, errors reported
 * in one line with what to do next, non-zero exit on bad use. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lbr_cli.h"
#include "lbr_ctr.h"
#include "lbr_file.h"
#include "lbr_probe.h"
#include "lbr_outcmd.h"
#include "tiprof/cmd.h"

#define PROG "tiprof lbr"

/* The option sets of every lbr subcommand (the converters in lbr_outcmd.c and stat in
 * lbr_stat.c parse theirs too); `tiprof help lbr` lists them all. */
static const struct opt_use lbr_record_uses[] = {
	{ OPT_OUTPUT, "records file (default tiprof-lbr.data)" },
	{ OPT_EVENT, "task-clock (default), cpu-clock, cycles, instructions" },
	{ OPT_PERIOD, "event units between samples (default 10000000 ns = 100/s)" },
	{ OPT_DEPTH, NULL },
	{ OPT_MECH, NULL },
	{ OPT_END, NULL }
};
static const struct opt_use lbr_script_uses[] = {
	{ OPT_INPUT, "records file (default tiprof-lbr.data)" },
	{ OPT_TID, NULL }, { OPT_NO_TID, NULL }, { OPT_END, NULL }
};
static const struct opt_use lbr_dump_uses[] = {
	{ OPT_INPUT, "records file (default tiprof-lbr.data)" }, { OPT_END, NULL }
};
static const struct opt_use lbr_perf_uses[] = {
	{ OPT_INPUT, "records file (default tiprof-lbr.data)" },
	{ OPT_OUTPUT, "perf.data file (default perf.data)" }, { OPT_END, NULL }
};
static const struct opt_use lbr_profile_uses[] = {
	{ OPT_INPUT, "records file (default tiprof-lbr.data)" },
	{ OPT_ELF, "the executable to profile (default: the traced command)" },
	{ OPT_OUTPUT, "the profile (default: standard output)" }, { OPT_END, NULL }
};
static const struct opt_use lbr_edges_uses[] = {
	{ OPT_INPUT, "records file (default tiprof-lbr.data)" },
	{ OPT_BLOCKS, NULL },
	{ OPT_OUTPUT, "the counts (default: standard output)" }, { OPT_END, NULL }
};
static const struct opt_use lbr_stat_uses[] = {
	{ OPT_PERIOD, "event units between samples (default 10000000 ns = 100/s)" },
	{ OPT_DEPTH, NULL },
	{ OPT_MECH, NULL },
	{ OPT_EVENT, "task-clock (default), cpu-clock, cycles, instructions" },
	{ OPT_REPS, NULL },
	{ OPT_JSON, NULL },
	{ OPT_OUTPUT, "keep the last traced run's records file" },
	{ OPT_END, NULL }
};
const struct opt_set opt_set_lbr_record = { "lbr record", lbr_record_uses, "lbr" };
const struct opt_set opt_set_lbr_script = { "lbr script", lbr_script_uses, "lbr" };
const struct opt_set opt_set_lbr_dump = { "lbr dump", lbr_dump_uses, "lbr" };
const struct opt_set opt_set_lbr_perf = { "lbr perf", lbr_perf_uses, "lbr" };
const struct opt_set opt_set_lbr_llvm_prof = { "lbr llvm-prof", lbr_profile_uses, "lbr" };
const struct opt_set opt_set_lbr_afdo_text = { "lbr afdo-text", lbr_profile_uses, "lbr" };
const struct opt_set opt_set_lbr_edges = { "lbr edges", lbr_edges_uses, "lbr" };
const struct opt_set opt_set_lbr_stat = { "lbr stat", lbr_stat_uses, "lbr" };

static int fail(const char *msg, const char *detail)
{
	fprintf(stderr, PROG ": %s%s%s\n", msg, detail ? ": " : "", detail ? detail : "");
	return 2;
}

/* ---------------------------------------------------------------- record */

struct record_ctx {
	const char *out;      /* records file */
	const char *event;    /* event name */
	uint64_t period;      /* sampling period */
	unsigned depth;       /* stack depth */
	const char *mech;     /* stopping mechanism name */
	char **argv;          /* command */
	char lib[PATH_MAX];   /* preload library */
};

static int lbr_record(int argc, char **argv)
{
	struct record_ctx c = { LBR_DEFAULT_FILE, "task-clock", LBR_DEFAULT_PERIOD,
				LBR_DEFAULT_DEPTH, LBR_DEFAULT_MECH_NAME, NULL, "" };
	struct opt_parser p;
	uint64_t x;
	int o, i;

	opt_init(&p, &opt_set_lbr_record, argc, argv, 0);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return 0;
		case OPT_ERROR:
			return 2;
		case OPT_OUTPUT:
			c.out = p.arg;
			break;
		case OPT_EVENT:
			if (lbr_event_parse(p.arg) < 0)
				return fail("unknown event (use task-clock, cpu-clock, cycles or "
					    "instructions)", p.arg);
			c.event = p.arg;
			break;
		case OPT_PERIOD:
			if (opt_u64(&p, 1, UINT64_MAX, &x))
				return 2;
			c.period = x;
			break;
		case OPT_DEPTH:
			if (opt_u64(&p, 1, LBR_MAX_DEPTH, &x))
				return 2;
			c.depth = (unsigned)x;
			break;
		case OPT_MECH:
			if (strcmp(p.arg, "hwbp") != 0 && strcmp(p.arg, "int3") != 0)
				return fail("--mech must be hwbp or int3", p.arg);
			c.mech = p.arg;
			break;
		}
	}
	i = p.i;
	if (i >= argc)
		return fail("missing command: " PROG " record [options] -- CMD [ARGS...]", NULL);
	c.argv = argv + i;
	/* task-clock and cpu-clock count ns: refuse hwbp periods a few stops long, where the
	 * program livelocks instead of being traced (docs/lbr.md §7) */
	if (strcmp(c.mech, "hwbp") == 0 && lbr_event_parse(c.event) <= 1 &&
	    c.period < LBR_MIN_HWBP_TIME_PERIOD) {
		char why[200];

		snprintf(why, sizeof(why), "--period %" PRIu64 " ns of %s is shorter than %llu ns, "
			 "a few hardware-breakpoint stops (each 31-46 us of CPU): the program would "
			 "make no progress; use --period >= %llu or --mech int3", c.period, c.event,
			 LBR_MIN_HWBP_TIME_PERIOD, LBR_MIN_HWBP_TIME_PERIOD);
		return fail(why, NULL);
	}
	if (lbr_cli_find_lib(c.lib, sizeof(c.lib)) < 0)
		return fail("cannot find libtiprof-lbr.so (set TIPROF_LBR_LIB)", c.lib);
	/* The events the tracer will open, tried here: a refusal is one line, not a program
	 * that runs untraced. */
	char why[512];
	if (lbr_probe_perf(lbr_event_parse(c.event), strcmp(c.mech, "hwbp") == 0, why,
			   sizeof(why)) < 0)
		return fail(why, NULL);

	/* Create the records file now, so an unwritable path fails before the command runs. */
	int fd = open(c.out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail("cannot write the records file (choose another -o FILE)", strerror(errno));
	uint8_t h[LBR_FILE_HDR_SIZE];
	lbr_file_header(h);
	if (write(fd, h, sizeof(h)) != (ssize_t)sizeof(h)) {
		close(fd);
		return fail("cannot write the records file", strerror(errno));
	}
	close(fd);

	char num[32];
	const char *old = getenv("LD_PRELOAD");
	size_t n = strlen(c.lib) + (old ? strlen(old) : 0) + 2;
	char *pre = malloc(n);
	if (!pre)
		return fail("out of memory", NULL);
	snprintf(pre, n, "%s%s%s", c.lib, old && *old ? " " : "", old && *old ? old : "");

	pid_t pid = fork();
	if (pid < 0)
		return fail("cannot fork", strerror(errno));
	if (pid == 0) {
		setenv("LD_PRELOAD", pre, 1);
		setenv("TIPROF_LBR_OUT", c.out, 1);
		setenv("TIPROF_LBR_EVENT", c.event, 1);
		snprintf(num, sizeof(num), "%" PRIu64, c.period);
		setenv("TIPROF_LBR_PERIOD", num, 1);
		snprintf(num, sizeof(num), "%u", c.depth);
		setenv("TIPROF_LBR_DEPTH", num, 1);
		setenv("TIPROF_LBR_MECH", c.mech, 1);
		snprintf(num, sizeof(num), "%d", (int)getpid());
		setenv("TIPROF_LBR_PID", num, 1);
		execvp(c.argv[0], c.argv);
		fprintf(stderr, PROG ": cannot run %s: %s\n", c.argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	free(pre);
	/* Like a shell: the terminal's SIGINT/SIGQUIT are for the command. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return fail("waitpid failed", strerror(errno));
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st)) {
		/* Die of the same signal, without a core of our own. */
		int sig = WTERMSIG(st);
		struct rlimit rl = { 0, 0 };
		setrlimit(RLIMIT_CORE, &rl);
		signal(sig, SIG_DFL);
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, sig);
		sigprocmask(SIG_UNBLOCK, &s, NULL);
		raise(sig);
		return 128 + sig;
	}
	return 1;
}

/* ---------------------------------------------------------------- script / dump */

struct script_ctx {
	int dump;   /* print every record instead of brstack lines */
	int tid;    /* prefix each line with the thread id (script) */
};

static int lbr_script(int argc, char **argv, int dump)
{
	struct script_ctx c = { dump, 1 };
	const char *path = NULL;
	struct opt_parser p;
	int o;

	opt_init(&p, dump ? &opt_set_lbr_dump : &opt_set_lbr_script, argc, argv, 1);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return 0;
		case OPT_ERROR:
			return 2;
		case OPT_TID:
			c.tid = 1;
			break;
		case OPT_NO_TID:
			c.tid = 0;
			break;
		case OPT_INPUT:
		case OPT_OPERAND:
			if (opt_one_file(&p, &path))
				return 2;
			break;
		}
	}
	if (!path)
		path = LBR_DEFAULT_FILE;
	uint8_t *buf = NULL;
	size_t len = 0;
	int r = lbr_cli_read_file(path, &buf, &len);
	if (r < 0)
		return fail("cannot read the records file", strerror(-r));
	if (lbr_file_check_header(buf, len) < 0) {
		free(buf);
		return fail("not a tiprof-lbr records file (bad magic or version)", path);
	}
	size_t off = LBR_FILE_HDR_SIZE;
	static struct lbr_rec rec;
	int status = 0;
	while (off < len) {
		long n = lbr_dec_record(buf + off, len - off, &rec);
		if (n == LBR_NEED_MORE) {
			fprintf(stderr, PROG ": %s: truncated record at offset %zu (ignored)\n", path, off);
			break;
		}
		if (n < 0) {
			status = fail("malformed record; the file is damaged", path);
			break;
		}
		off += (size_t)n;
		if (c.dump) {
			lbr_rec_dump(stdout, &rec);
			continue;
		}
		if (rec.type != LBR_REC_STACK)
			continue;
		const struct lbr_stack *s = &rec.u.stack;
		if (c.tid)
			printf("%7" PRIu32 " ", s->tid);
		for (int k = (int)s->nr - 1; k >= 0; k--) {
			const struct lbr_pair *e = &s->br[k];
			if (!(s->flags & LBR_STACK_CTR)) {
				printf(" 0x%" PRIx64 "/0x%" PRIx64 "/P/-/-/0", e->from, e->to);
				continue;
			}
			/* CTR entries (riscv64): as perf prints them from `tiprof lbr perf` */
			int64_t cc = lbr_ctrdata_cycles(e->data);
			const char *ty = lbr_perf_type_name(lbr_ctr_perf_type(e->data & LBR_CTRDATA_TYPE));
			printf(" 0x%" PRIx64 "/0x%" PRIx64 "/%c/-/-/%" PRId64 "%s%s", e->from, e->to,
			       !(s->flags & LBR_STACK_MISP) ? '-' : e->misp ? 'M' : 'P',
			       cc > 0 ? (cc > 0xffff ? 0xffff : cc) : 0, *ty ? "/" : "", ty);
		}
		putchar('\n');
	}
	free(buf);
	if (fflush(stdout) != 0)
		return fail("cannot write output", strerror(errno));
	return status;
}

int lbr_cmd_stat(int argc, char **argv); /* lbr_stat.c */

/* Entry point of `tiprof lbr` (registered in sw/tiprof.c). */
int cmd_lbr(int argc, char **argv)
{
	if (argc < 2)
		return fail("missing subcommand (record, script or dump; see " PROG " --help)", NULL);
	/* `tiprof lbr --help` (each subcommand's parser takes its own -h/--help) */
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		tiprof_print_help(stdout, tiprof_cmd_find("lbr"));
		return 0;
	}
	if (strcmp(argv[1], "record") == 0)
		return lbr_record(argc - 1, argv + 1);
	if (strcmp(argv[1], "script") == 0)
		return lbr_script(argc - 1, argv + 1, 0);
	if (strcmp(argv[1], "dump") == 0)
		return lbr_script(argc - 1, argv + 1, 1);
	if (strcmp(argv[1], "perf") == 0)
		return lbr_cmd_perf(argc - 1, argv + 1);
	if (strcmp(argv[1], "llvm-prof") == 0)
		return lbr_cmd_llvm_prof(argc - 1, argv + 1);
	if (strcmp(argv[1], "afdo-text") == 0)
		return lbr_cmd_afdo_text(argc - 1, argv + 1);
	if (strcmp(argv[1], "edges") == 0)
		return lbr_cmd_edges(argc - 1, argv + 1);
	if (strcmp(argv[1], "stat") == 0)
		return lbr_cmd_stat(argc - 1, argv + 1);
	return fail("unknown subcommand (use record, script or dump)", argv[1]);
}
