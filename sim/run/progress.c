/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress.c - the progress line of a long simulation (contract in progress.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core.h"

#define PROGRESS_EVERY 65536	/* cycles between clock reads */
#define PROGRESS_REDRAW 0.5	/* seconds between redraws */
#define PROGRESS_FIRST 1.0	/* nothing for runs shorter than this */
#define CACHE_LINES 4096	/* the length cache keeps this many programs */

static double secs(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + 1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

/* FNV-1a over n bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *d, size_t n)
{
	const unsigned char *c = d;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

/* The cache file's path in buf, or -1 without a home. */
static int cache_path(char *buf, size_t n)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int k;

	if (xdg && *xdg)
		k = snprintf(buf, n, "%s/tiprof/lengths", xdg);
	else if (home && *home)
		k = snprintf(buf, n, "%s/.cache/tiprof/lengths", home);
	else
		return -1;
	return k > 0 && (size_t)k < n ? 0 : -1;
}

/* Contract in progress.h. */
void sim_progress_init(struct sim_progress *p, const char *what, struct core *core,
		       char *const *argv, uint64_t expect, FILE *f)
{
	char path[PATH_MAX], line[64];
	struct stat st;
	FILE *cf;
	uint64_t h = 0xcbf29ce484222325ull;

	memset(p, 0, sizeof(*p));
	p->f = f;
	p->what = what;
	p->core = core;
	p->expect = expect;
	/* the program is known by its path, size and time, and its arguments */
	if (stat(argv[0], &st) == 0) {
		h = fnv(h, &st.st_size, sizeof(st.st_size));
		h = fnv(h, &st.st_mtime, sizeof(st.st_mtime));
		h = fnv(h, &st.st_ino, sizeof(st.st_ino));
	}
	for (char *const *a = argv; *a; a++)
		h = fnv(h, *a, strlen(*a) + 1);
	p->key = h;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
	if (expect || cache_path(path, sizeof(path)) || !(cf = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), cf)) {
		unsigned long long k, n;

		if (sscanf(line, "%llx %llu", &k, &n) == 2 && k == h)
			p->expect = n;
	}
	fclose(cf);
}

/* Contract in progress.h. */
void sim_progress_erase(struct sim_progress *p)
{
	if (p->drawn) {
		fputs("\r\033[K", p->f);
		fflush(p->f);
		p->drawn = 0;
	}
}

static void clock_text(char *buf, size_t n, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, n, "%lu:%02lu", t / 60, t % 60);
}

static int progress_cycle(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
			  size_t errlen)
{
	(void)o, (void)err, (void)errlen;
	sim_progress_poll(ctx, cyc);
	return 0;
}

/* Contract in progress.h. */
void sim_progress_poll(struct sim_progress *p, uint64_t cyc)
{
	struct timespec now;
	double el;
	uint64_t insns;
	char e[32], left[32];

	if (cyc % PROGRESS_EVERY)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	el = secs(&p->start, &now);
	if (el < PROGRESS_FIRST || secs(&p->last, &now) < PROGRESS_REDRAW)
		return;
	p->last = now;
	insns = core_stats(p->core)->insns + (p->warmed ? *p->warmed : 0);
	clock_text(e, sizeof(e), el);
	fprintf(p->f, "\r\033[K%s: %.1f M instructions, %.1f M cycles, %.2f M cycles/s, %s",
		p->what, 1e-6 * (double)insns, 1e-6 * (double)cyc, 1e-6 * (double)cyc / el, e);
	if (p->expect && insns && insns < p->expect) {
		clock_text(left, sizeof(left), el * (double)(p->expect - insns) / (double)insns);
		fprintf(p->f, ", %.0f%%, %s left", 100.0 * (double)insns / (double)p->expect, left);
	}
	fflush(p->f);
	p->drawn = 1;
}

static int progress_finish(void *ctx, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	sim_progress_erase(ctx);
	return 0;
}

/* Contract in progress.h. */
struct sim_consumer sim_consumer_progress(struct sim_progress *p)
{
	return (struct sim_consumer){ progress_cycle, progress_finish, p };
}

/* Contract in progress.h: rewrite the cache with this program's line last (the oldest lines
 * go first when it is full); a cache that cannot be written is no error. */
void sim_progress_remember(const struct sim_progress *p, uint64_t insns)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8], line[64], *slash;
	char (*lines)[64];
	unsigned n = 0;
	FILE *cf;

	if (cache_path(path, sizeof(path)) || !(lines = calloc(CACHE_LINES, sizeof(*lines))))
		return;
	if ((cf = fopen(path, "r"))) {
		while (fgets(line, sizeof(line), cf)) {
			unsigned long long k;

			if (sscanf(line, "%llx", &k) != 1 || k == p->key)
				continue;
			if (n == CACHE_LINES) {
				memmove(lines[0], lines[1], sizeof(lines[0]) * (CACHE_LINES - 1));
				n--;
			}
			snprintf(lines[n++], sizeof(lines[0]), "%s", line);
		}
		fclose(cf);
	}
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (slash = tmp + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(tmp, 0755);
		*slash = '/';
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(cf = fopen(tmp, "w"))) {
		free(lines);
		return;
	}
	for (unsigned i = n == CACHE_LINES ? 1 : 0; i < n; i++)
		fputs(lines[i], cf);
	fprintf(cf, "%016llx %llu\n", (unsigned long long)p->key, (unsigned long long)insns);
	if (fclose(cf) || rename(tmp, path))
		remove(tmp);
	free(lines);
}
