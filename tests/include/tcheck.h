/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tcheck.h - check counting for the test programs (header-only; each test
 * program is single-threaded and includes it once). A check prints file:line and a
 * message when it fails; tc_summary() prints "N passed, M failed" and gives the
 * exit status. A test program of several files (its checks counted in one place) and
 * with a result line per section uses tsection.h instead, which is built on this one.
 */
#ifndef TIPROF_TCHECK_H
#define TIPROF_TCHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The test program's own bookkeeping (not library state). */
static unsigned long tc_pass, tc_fail;

/* tc_check with the message's arguments as a va_list. */
static int __attribute__((format(printf, 4, 0), unused))
tc_vcheck(int cond, const char *file, int line, const char *fmt, va_list ap)
{
	if (cond) {
		tc_pass++;
		return 1;
	}
	tc_fail++;
	printf("  FAIL %s:%d: ", file, line);
	vprintf(fmt, ap);
	printf("\n");
	return 0;
}

/* Count a check; print file:line and the message on failure. Returns cond. */
static int __attribute__((format(printf, 4, 5), unused))
tc_check(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tc_vcheck(cond, file, line, fmt, ap);
	va_end(ap);
	return r;
}

/* Count a check that got == want, printing both on failure (each evaluated once). */
static int __attribute__((unused))
tc_check_eq(uint64_t got, uint64_t want, const char *file, int line, const char *what)
{
	return tc_check(got == want, file, line, "%s: got 0x%llx, want 0x%llx", what,
			(unsigned long long)got, (unsigned long long)want);
}

#define CHECK(cond, ...) tc_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ(got, want, what) \
	tc_check_eq((uint64_t)(got), (uint64_t)(want), __FILE__, __LINE__, (what))

/* Read a whole file into a malloc'd, NUL-terminated buffer; *n receives its length (0 and
 * NULL when the file cannot be read whole). */
static __attribute__((unused)) void *tc_slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	char *p = NULL;
	long len;

	*n = 0;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
		p = malloc((size_t)len + 1);
		if (p && fread(p, 1, (size_t)len, fp) == (size_t)len) {
			p[len] = 0;
			*n = (size_t)len;
		} else {
			free(p);
			p = NULL;
		}
	}
	fclose(fp);
	return p;
}

/* Print a section title. */
static void __attribute__((unused)) tc_section(const char *title)
{
	printf("- %s\n", title);
}

/* Print the summary line; returns the exit status (0 if every check passed). */
static int __attribute__((unused)) tc_summary(void)
{
	printf("%lu passed, %lu failed\n", tc_pass, tc_fail);
	return tc_fail ? 1 : 0;
}

/* splitmix64: a small deterministic generator for test inputs. */
struct tc_rng {
	uint64_t s;	/* state */
};

static uint64_t __attribute__((unused)) tc_rand(struct tc_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0). */
static unsigned __attribute__((unused)) tc_below(struct tc_rng *r, unsigned n)
{
	return (unsigned)(tc_rand(r) % n);
}

/* True with probability per_mille / 1000. */
static int __attribute__((unused)) tc_chance(struct tc_rng *r, unsigned per_mille)
{
	return tc_below(r, 1000) < per_mille;
}

#endif /* TIPROF_TCHECK_H */
