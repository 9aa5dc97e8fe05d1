/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_stat.c - `tiprof lbr stat`: the tracer's cost and the paper's evaluation quantities on
 * one command. CMD runs untraced and traced alternately R times (the order alternates too, so
 * a slow drift of the machine hits both), each run's wall time (CLOCK_MONOTONIC around
 * fork..wait4) and CPU time (user + system from wait4's rusage, which includes the waited-for
 * descendants) are measured, its stdout hashed (FNV-1a) and its exit status kept. After each
 * traced run the records file is read and the stats records of every session and thread are
 * summed. Reported: medians of wall/CPU, overhead, samples/s, stacks, branches, stops, and
 *   t       = taken / transfers             (transfers = static + evaluated at stops)
 *   s       = static / transfers            (direct jmp/call resolved by look-ahead)
 *   t/(1-s) = taken branches recorded per stop (the breakpoint usefulness factor)
 *   cost per stop  = (traced CPU - untraced CPU) / stops   (everything, incl. the #DB exit)
 *   handler per stop = stop_ns / stops; decode per block = decode_ns / cache_misses
 * plus the check that traced and untraced runs agree on exit status and stdout. Text table or
 * --json. The traced runs follow forked children (TIPROF_LBR_PID is not set). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lbr_cli.h"
#include "lbr_file.h"
#include "lbr_probe.h"
#include "tiprof/cmd.h"

int lbr_cmd_stat(int argc, char **argv);

#define PROG "tiprof lbr stat"
#define MAX_REPS 1000

struct stat_run {
	double wall, cpu;     /* seconds */
	int status;           /* wait status */
	uint64_t out_hash;    /* FNV-1a of stdout */
	uint64_t out_len;
	struct lbr_stats st;  /* summed over every stats record (traced runs) */
	uint64_t sessions;
	uint64_t len_hist[LBR_MAX_DEPTH + 1]; /* stacks by number of branches */
};

struct stat_ctx {
	const char *event, *mech;
	uint64_t period;
	unsigned depth, reps;
	int json;
	const char *keep;     /* -o FILE: keep the last traced run's records */
	char **argv;
	char lib[PATH_MAX], out[PATH_MAX];
	struct stat_run u[MAX_REPS], t[MAX_REPS];
};

static int bad(const char *msg, const char *detail)
{
	fprintf(stderr, PROG ": %s%s%s\n", msg, detail ? ": " : "", detail ? detail : "");
	return 2;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run CMD once (traced or not); fill r. Returns 0, or -1 if it could not be started. */
static int run_once(struct stat_ctx *c, int traced, struct stat_run *r)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	if (traced) {
		int fd = open(c->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			close(pfd[0]);
			close(pfd[1]);
			return -1;
		}
		close(fd); /* empty: the preloaded tracer writes the file header */
	}
	double t0 = now_s();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(pfd[1], 1);
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, 0);
		if (traced) {
			char num[32];
			const char *old = getenv("LD_PRELOAD");
			char pre[PATH_MAX * 2];
			snprintf(pre, sizeof(pre), "%s%s%s", c->lib, old && *old ? " " : "",
				 old && *old ? old : "");
			setenv("LD_PRELOAD", pre, 1);
			setenv("TIPROF_LBR_OUT", c->out, 1);
			setenv("TIPROF_LBR_EVENT", c->event, 1);
			snprintf(num, sizeof(num), "%" PRIu64, c->period);
			setenv("TIPROF_LBR_PERIOD", num, 1);
			snprintf(num, sizeof(num), "%u", c->depth);
			setenv("TIPROF_LBR_DEPTH", num, 1);
			setenv("TIPROF_LBR_MECH", c->mech, 1);
			unsetenv("TIPROF_LBR_PID"); /* follow forked children */
		} else {
			unsetenv("TIPROF_LBR_OUT");
		}
		execvp(c->argv[0], c->argv);
		fprintf(stderr, PROG ": cannot run %s: %s\n", c->argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	uint64_t h = 1469598103934665603ULL, len = 0;
	for (;;) {
		unsigned char b[65536];
		ssize_t n = read(pfd[0], b, sizeof(b));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ b[i]) * 1099511628211ULL;
		len += (uint64_t)n;
	}
	close(pfd[0]);
	struct rusage ru;
	int st = 0;
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	r->wall = now_s() - t0;
	r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	r->status = st;
	r->out_hash = h;
	r->out_len = len;
	return 0;
}

/* Sum every stats record of the records file into r. */
static void read_stats(const char *path, struct stat_run *r)
{
	memset(&r->st, 0, sizeof(r->st));
	memset(r->len_hist, 0, sizeof(r->len_hist));
	r->sessions = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	size_t cap = 1 << 20, len = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len < cap)
			break;
		uint8_t *nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	fclose(f);
	if (!buf || lbr_file_check_header(buf, len) < 0) {
		free(buf);
		return;
	}
	static struct lbr_rec rec;
	for (size_t off = LBR_FILE_HDR_SIZE; off < len;) {
		long n = lbr_dec_record(buf + off, len - off, &rec);
		if (n < 0)
			break;
		off += (size_t)n;
		if (rec.type == LBR_REC_SESSION)
			r->sessions++;
		if (rec.type == LBR_REC_STACK && rec.u.stack.nr <= LBR_MAX_DEPTH)
			r->len_hist[rec.u.stack.nr]++;
		if (rec.type != LBR_REC_STATS)
			continue;
		const struct lbr_stats *s = &rec.u.stats;
		r->st.samples += s->samples;
		r->st.stacks += s->stacks;
		r->st.branches += s->branches;
		r->st.stops += s->stops;
		r->st.abandoned += s->abandoned;
		r->st.lost += s->lost;
		r->st.decode_fail += s->decode_fail;
		r->st.cache_hits += s->cache_hits;
		r->st.cache_misses += s->cache_misses;
		r->st.static_br += s->static_br;
		r->st.evaluated += s->evaluated;
		r->st.not_taken += s->not_taken;
		r->st.rseq_ends += s->rseq_ends;
		r->st.sample_ns += s->sample_ns;
		r->st.stop_ns += s->stop_ns;
		r->st.decode_ns += s->decode_ns;
		r->st.emu_runs += s->emu_runs;
		r->st.emu_insns += s->emu_insns;
		r->st.emu_branches += s->emu_branches;
		r->st.emu_confirmed += s->emu_confirmed;
		r->st.emu_mismatch += s->emu_mismatch;
		r->st.emu_ns += s->emu_ns;
		r->st.emu_data_ck += s->emu_data_ck;
		for (int i = 0; i < 5; i++)
			r->st.emu_end[i] += s->emu_end[i];
		for (int i = 0; i < LBR_STATS_NEND; i++)
			r->st.end[i] += s->end[i];
	}
	free(buf);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of n values picked by `get` from the runs. */
static double median(const struct stat_run *runs, unsigned n, double (*get)(const struct stat_run *))
{
	double v[MAX_REPS];
	for (unsigned i = 0; i < n; i++)
		v[i] = get(&runs[i]);
	qsort(v, n, sizeof(v[0]), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define GETTER(name, expr) \
	static double name(const struct stat_run *r) { return (double)(expr); }
GETTER(g_wall, r->wall)
GETTER(g_cpu, r->cpu)
GETTER(g_samples, r->st.samples)
GETTER(g_stacks, r->st.stacks)
GETTER(g_branches, r->st.branches)
GETTER(g_stops, r->st.stops)
GETTER(g_abandoned, r->st.abandoned)
GETTER(g_static, r->st.static_br)
GETTER(g_eval, r->st.evaluated)
GETTER(g_nt, r->st.not_taken)
GETTER(g_rseq, r->st.rseq_ends)
GETTER(g_misses, r->st.cache_misses)
GETTER(g_hits, r->st.cache_hits)
GETTER(g_stop_ns, r->st.stop_ns)
GETTER(g_sample_ns, r->st.sample_ns)
GETTER(g_decode_ns, r->st.decode_ns)
GETTER(g_sessions, r->sessions)
GETTER(g_emu_runs, r->st.emu_runs)
GETTER(g_emu_insns, r->st.emu_insns)
GETTER(g_emu_br, r->st.emu_branches)
GETTER(g_emu_ok, r->st.emu_confirmed)
GETTER(g_emu_bad, r->st.emu_mismatch)
GETTER(g_emu_ns, r->st.emu_ns)
GETTER(g_emu_dck, r->st.emu_data_ck)

/* Median over the runs of element i of a counter array (emu_end, end). */
static int g_idx;
GETTER(g_emu_end_i, r->st.emu_end[g_idx])
GETTER(g_end_i, r->st.end[g_idx])
static const char *const emu_end_names[5] = { "depth", "insn", "mem", "budget", "forbid" };
static const char *const end_names[LBR_STATS_NEND] = { "full", "stuck", "untraceable", "mismatch",
						      "signal", "arm", "rseq", "other" };

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

static void status_text(int st, char *buf, size_t cap)
{
	if (WIFEXITED(st))
		snprintf(buf, cap, "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, cap, "signal %d", WTERMSIG(st));
	else
		snprintf(buf, cap, "status %#x", st);
}

int lbr_cmd_stat(int argc, char **argv)
{
	static struct stat_ctx c;
	memset(&c, 0, sizeof(c));
	c.event = "task-clock";
	c.mech = LBR_DEFAULT_MECH_NAME;
	c.period = LBR_DEFAULT_PERIOD;
	c.depth = LBR_DEFAULT_DEPTH;
	c.reps = 5;
	struct opt_parser p;
	uint64_t x;
	int o, i;

	opt_init(&p, &opt_set_lbr_stat, argc, argv, 0);
	while ((o = opt_next(&p)) != OPT_END) {
		switch (o) {
		case OPT_HELP_DONE:
			return 0;
		case OPT_ERROR:
			return 2;
		case OPT_JSON:
			c.json = 1;
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
		case OPT_REPS:
			if (opt_u64(&p, 1, MAX_REPS, &x))
				return 2;
			c.reps = (unsigned)x;
			break;
		case OPT_EVENT:
			if (lbr_event_parse(p.arg) < 0)
				return bad("unknown event (use task-clock, cpu-clock, cycles or "
					   "instructions)", p.arg);
			c.event = p.arg;
			break;
		case OPT_MECH:
			if (strcmp(p.arg, "hwbp") != 0 && strcmp(p.arg, "int3") != 0)
				return bad("--mech must be hwbp or int3", p.arg);
			c.mech = p.arg;
			break;
		case OPT_OUTPUT:
			c.keep = p.arg;
			break;
		}
	}
	i = p.i;
	if (i >= argc)
		return bad("missing command: tiprof lbr stat [options] -- CMD [ARGS...]", NULL);
	c.argv = argv + i;
	if (lbr_cli_find_lib(c.lib, sizeof(c.lib)) < 0)
		return bad("cannot find libtiprof-lbr.so (set TIPROF_LBR_LIB)", c.lib);
	char why[512];
	if (lbr_probe_perf(lbr_event_parse(c.event), strcmp(c.mech, "hwbp") == 0, why,
			   sizeof(why)) < 0)
		return bad(why, NULL);
	if (c.keep) {
		snprintf(c.out, sizeof(c.out), "%s", c.keep);
	} else {
		const char *tmp = getenv("TMPDIR");
		snprintf(c.out, sizeof(c.out), "%s/tiprof-lbr-stat.%d.lbr", tmp && *tmp ? tmp : "/tmp",
			 (int)getpid());
	}
	int fd = open(c.out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return bad("cannot write the records file (choose another -o FILE)", strerror(errno));
	close(fd);

	for (unsigned r = 0; r < c.reps; r++) {
		for (int k = 0; k < 2; k++) {
			int traced = (k + (int)r) % 2; /* U T, T U, U T, ... */
			struct stat_run *run = traced ? &c.t[r] : &c.u[r];
			if (run_once(&c, traced, run) < 0) {
				if (!c.keep)
					unlink(c.out);
				return bad("cannot run the command", strerror(errno));
			}
			if (traced)
				read_stats(c.out, run);
		}
	}
	if (!c.keep)
		unlink(c.out);

	/* Agreement: every run's exit status and stdout equal the first untraced run's. */
	int same_status = 1, same_out = 1;
	for (unsigned r = 0; r < c.reps; r++) {
		const struct stat_run *x[2] = { &c.u[r], &c.t[r] };
		for (int k = 0; k < 2; k++) {
			same_status &= x[k]->status == c.u[0].status;
			same_out &= x[k]->out_hash == c.u[0].out_hash && x[k]->out_len == c.u[0].out_len;
		}
	}
	unsigned n = c.reps;
	double wu = median(c.u, n, g_wall), wt = median(c.t, n, g_wall);
	double cu = median(c.u, n, g_cpu), ct = median(c.t, n, g_cpu);
	double samples = median(c.t, n, g_samples), stacks = median(c.t, n, g_stacks);
	double branches = median(c.t, n, g_branches), stops = median(c.t, n, g_stops);
	double abandoned = median(c.t, n, g_abandoned), rseq = median(c.t, n, g_rseq);
	double stat_br = median(c.t, n, g_static), eval = median(c.t, n, g_eval);
	double nt = median(c.t, n, g_nt), misses = median(c.t, n, g_misses);
	double hits = median(c.t, n, g_hits), stop_ns = median(c.t, n, g_stop_ns);
	double sample_ns = median(c.t, n, g_sample_ns), decode_ns = median(c.t, n, g_decode_ns);
	double sessions = median(c.t, n, g_sessions);
	double emu_runs = median(c.t, n, g_emu_runs), emu_insns = median(c.t, n, g_emu_insns);
	double emu_br = median(c.t, n, g_emu_br), emu_ok = median(c.t, n, g_emu_ok);
	double emu_bad = median(c.t, n, g_emu_bad), emu_ns = median(c.t, n, g_emu_ns);
	double emu_dck = median(c.t, n, g_emu_dck);
	double emu_end[5], ends[LBR_STATS_NEND];
	for (g_idx = 0; g_idx < 5; g_idx++)
		emu_end[g_idx] = median(c.t, n, g_emu_end_i);
	for (g_idx = 0; g_idx < LBR_STATS_NEND; g_idx++)
		ends[g_idx] = median(c.t, n, g_end_i);
	uint64_t hist[LBR_MAX_DEPTH + 1] = { 0 }; /* summed over the traced runs */
	for (unsigned r = 0; r < n; r++)
		for (unsigned k = 0; k <= LBR_MAX_DEPTH; k++)
			hist[k] += c.t[r].len_hist[k];
	double transfers = stat_br + eval, taken = stat_br + eval - nt;
	double tt = ratio(taken, transfers), ss = ratio(stat_br, transfers);
	double useful = ratio(taken, eval);
	double ovh_cpu = 100 * ratio(ct - cu, cu), ovh_wall = 100 * ratio(wt - wu, wu);
	double cost_stop = 1e6 * ratio(ct - cu, stops), handler_stop = 1e-3 * ratio(stop_ns, stops);
	double handler_sample = 1e-3 * ratio(sample_ns, samples);
	double decode_blk = 1e-3 * ratio(decode_ns, misses);
	char su[32], stt[32];
	status_text(c.u[0].status, su, sizeof(su));
	status_text(c.t[0].status, stt, sizeof(stt));
	int ok = same_status && same_out;

	if (c.json) {
		printf("{\"command\": \"");
		for (char **a = c.argv; *a; a++)
			for (const char *p = *a; ; p++) {
				if (!*p) {
					if (a[1])
						putchar(' ');
					break;
				}
				if (*p == '"' || *p == '\\')
					putchar('\\');
				if ((unsigned char)*p >= 0x20)
					putchar(*p);
			}
		printf("\", \"reps\": %u, \"period\": %" PRIu64 ", \"depth\": %u, \"mech\": \"%s\", "
		       "\"event\": \"%s\",\n", c.reps, c.period, c.depth, c.mech, c.event);
		printf(" \"wall_untraced_s\": %.6f, \"wall_traced_s\": %.6f, \"cpu_untraced_s\": %.6f, "
		       "\"cpu_traced_s\": %.6f, \"overhead_cpu_pct\": %.3f, \"overhead_wall_pct\": %.3f,\n",
		       wu, wt, cu, ct, ovh_cpu, ovh_wall);
		printf(" \"sessions\": %.0f, \"samples\": %.0f, \"samples_per_s\": %.2f, \"stacks\": %.0f, "
		       "\"branches\": %.0f, \"stops\": %.0f, \"abandoned\": %.0f, \"rseq_ends\": %.0f,\n",
		       sessions, samples, ratio(samples, ct), stacks, branches, stops, abandoned, rseq);
		printf(" \"static\": %.0f, \"evaluated\": %.0f, \"not_taken\": %.0f, \"t\": %.4f, "
		       "\"s\": %.4f, \"t_over_1_minus_s\": %.4f, \"stops_per_stack\": %.3f,\n",
		       stat_br, eval, nt, tt, ss, useful, ratio(stops, stacks));
		printf(" \"cost_per_stop_us\": %.3f, \"handler_per_stop_us\": %.3f, "
		       "\"handler_per_sample_us\": %.3f, \"decoded_blocks\": %.0f, \"cache_hits\": %.0f, "
		       "\"decode_per_block_us\": %.3f,\n",
		       cost_stop, handler_stop, handler_sample, misses, hits, decode_blk);
		printf(" \"cost_per_stack_us\": %.3f, \"emu_runs\": %.0f, \"emu_insns\": %.0f, "
		       "\"emu_branches\": %.0f, \"emu_confirmed\": %.0f, \"emu_mismatch\": %.0f, "
		       "\"emu_per_run_us\": %.3f, \"emu_per_insn_ns\": %.3f, \"emu_insns_per_run\": %.1f, "
		       "\"emu_branches_per_confirm\": %.3f, \"emu_data_checkpoints\": %.0f,\n",
		       1e6 * ratio(ct - cu, stacks), emu_runs,
		       emu_insns, emu_br, emu_ok, emu_bad, 1e-3 * ratio(emu_ns, emu_runs),
		       ratio(emu_ns, emu_insns), ratio(emu_insns, emu_runs), ratio(emu_br, emu_ok),
		       emu_dck);
		printf(" \"emu_end\": {");
		for (int k = 0; k < 5; k++)
			printf("%s\"%s\": %.0f", k ? ", " : "", emu_end_names[k], emu_end[k]);
		printf("}, \"stack_end\": {");
		for (int k = 0; k < LBR_STATS_NEND; k++)
			printf("%s\"%s\": %.0f", k ? ", " : "", end_names[k], ends[k]);
		printf("},\n \"stack_len_all_runs\": {");
		for (unsigned k = 0, first = 1; k <= LBR_MAX_DEPTH; k++)
			if (hist[k]) {
				printf("%s\"%u\": %" PRIu64, first ? "" : ", ", k, hist[k]);
				first = 0;
			}
		printf("},\n");
		printf(" \"status_untraced\": \"%s\", \"status_traced\": \"%s\", \"same_status\": %s, "
		       "\"same_stdout\": %s}\n", su, stt, same_status ? "true" : "false",
		       same_out ? "true" : "false");
	} else {
		printf("tiprof lbr stat: %u x untraced / traced (alternating), medians; period %" PRIu64
		       " (%s), depth %u, %s\n", c.reps, c.period, c.event, c.depth, c.mech);
		printf("  %-28s %14s %14s\n", "", "untraced", "traced");
		printf("  %-28s %14.3f %14.3f   %+.1f %%\n", "wall time (s)", wu, wt, ovh_wall);
		printf("  %-28s %14.3f %14.3f   %+.1f %%\n", "CPU time (s)", cu, ct, ovh_cpu);
		printf("  %-28s %14s %14s   %s\n", "exit status", su, stt,
		       same_status ? "same" : "DIFFERENT");
		printf("  %-28s %14" PRIu64 " %14" PRIu64 "   %s\n", "stdout bytes", c.u[0].out_len,
		       c.t[0].out_len, same_out ? "same" : "DIFFERENT");
		printf("  %-28s %14.0f\n", "sessions (processes)", sessions);
		printf("  %-28s %14.0f   %.1f /s of CPU\n", "samples", samples, ratio(samples, ct));
		printf("  %-28s %14.0f   %.0f abandoned early, %.0f at rseq\n", "stacks", stacks,
		       abandoned, rseq);
		printf("  %-28s %14.0f   %.1f per stack\n", "branches recorded", branches,
		       ratio(branches, stacks));
		printf("  %-28s %14.0f   %.1f per stack\n", "breakpoint stops", stops,
		       ratio(stops, stacks));
		printf("  %-28s %14.0f   static %.0f, at stops %.0f (%.0f not taken)\n",
		       "transfers seen", transfers, stat_br, eval, nt);
		printf("  %-28s %14.4f\n", "t (taken fraction)", tt);
		printf("  %-28s %14.4f\n", "s (statically resolved)", ss);
		printf("  %-28s %14.3f   taken branches per stop\n", "t/(1-s)", useful);
		printf("  %-28s %14.2f   (traced - untraced CPU) / stops\n", "cost per stop (us)",
		       cost_stop);
		printf("  %-28s %14.2f   in the stop handler (+ %.2f per sample)\n",
		       "handler per stop (us)", handler_stop, handler_sample);
		printf("  %-28s %14.2f   %.0f blocks decoded, %.0f cache hits\n",
		       "decode per block (us)", decode_blk, misses, hits);
		if (emu_runs > 0)
			printf("  %-28s %14.0f   %.0f instructions (%.1f us, %.0f ns/insn per run), "
			       "%.0f checkpoints confirmed (%.0f data), %.0f mismatched (cut)\n",
			       "emulator runs", emu_runs, emu_insns, 1e-3 * ratio(emu_ns, emu_runs),
			       ratio(emu_ns, emu_insns), emu_ok, emu_dck, emu_bad);
		printf("  %-28s %14.2f   (traced - untraced CPU) / stacks\n", "cost per stack (us)",
		       1e6 * ratio(ct - cu, stacks));
		printf("  %-28s", "runs ended by");
		for (int k = 0; k < 5; k++)
			printf(" %s %.0f", emu_end_names[k], emu_end[k]);
		printf("\n  %-28s", "stacks ended by");
		for (int k = 0; k < LBR_STATS_NEND; k++)
			printf(" %s %.0f", end_names[k], ends[k]);
		printf("\n  %-28s", "stack lengths (all runs)");
		for (unsigned k = 0; k <= LBR_MAX_DEPTH; k++)
			if (hist[k])
				printf(" %u:%" PRIu64, k, hist[k]);
		printf("\n");
		printf("  %s\n", ok ? "traced runs behave like untraced runs (status and stdout)"
				   : "MISMATCH between traced and untraced runs");
	}
	return ok ? 0 : 1;
}
