/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oracle_profile.c - the Oracle profile file's writer and reader (contract in
 * oracle_profile.h, format in docs/core.md).
 */
#include "oracle_profile.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tiprof/file_magic.h"

int oracle_profile_write(FILE *f, const struct oracle_profile_hdr *h,
			 const struct oracle_profile_ent *e, size_t n)
{
	fprintf(f, TIPROF_ORACLE_MAGIC " %d\nwidth %u\nunit %u\ncycles %" PRIu64 "\n"
		"instructions %" PRIu64 "\ncategories", ORACLE_PROFILE_VERSION, h->width, h->unit,
		h->cycles, h->insns);
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(f, " %s", tiprof_cat_name(c));
	fprintf(f, "\ntotal");
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		fprintf(f, " %" PRIu64, h->total[c]);
	fprintf(f, "\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%" PRIx64 " %" PRIu64, e[i].pc, e[i].commits);
		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			fprintf(f, " %" PRIu64, e[i].units[c]);
		fprintf(f, "\n");
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}

/* Parse n unsigned numbers of base 10 or 16 from s (single spaces between, nothing after but
 * the newline). Returns 0 or -1. */
static int parse_nums(const char *s, int base, uint64_t *v, unsigned n)
{
	char *end;

	for (unsigned i = 0; i < n; i++) {
		if (!(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)))
			return -1;
		errno = 0;
		v[i] = strtoull(s, &end, base);
		if (errno)
			return -1;
		s = end;
		if (i + 1 < n && *s++ != ' ')
			return -1;
	}
	return *s == '\n' || *s == '\0' ? 0 : -1;
}

/* The value of a "key N" header line into *v; 1 if line is that key, 0 if another line,
 * -1 if it is that key with a bad value. */
static int header_num(const char *line, const char *key, uint64_t *v)
{
	size_t len = strlen(key);

	if (strncmp(line, key, len) || line[len] != ' ')
		return 0;
	return parse_nums(line + len + 1, 10, v, 1) ? -1 : 1;
}

static int bad(char *err, size_t errlen, unsigned lineno, const char *what)
{
	snprintf(err, errlen, "line %u: %s", lineno, what);
	return -1;
}

int oracle_profile_read(FILE *f, struct oracle_profile_hdr *h, oracle_profile_fn fn, void *ctx,
			char *err, size_t errlen)
{
	char line[1024], want[256];
	unsigned lineno = 1, entries = 0;
	int ver = 0, r;
	uint64_t v, nums[2 + TIPROF_NCAT];

	memset(h, 0, sizeof(*h));
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, TIPROF_ORACLE_MAGIC " %d", &ver) != 1)
		return bad(err, errlen, lineno, "not a tiprof Oracle profile (no '"
			   TIPROF_ORACLE_MAGIC "' line)");
	if (ver != ORACLE_PROFILE_VERSION)
		return bad(err, errlen, lineno, "an Oracle profile version this tiprof does not read");
	snprintf(want, sizeof(want), "categories");
	for (unsigned c = 0; c < TIPROF_NCAT; c++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), " %s", tiprof_cat_name(c));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			return bad(err, errlen, lineno, "line too long");
		if ((r = header_num(line, "width", &v)) != 0) {
			if (r < 0 || v < 1 || v > 8)
				return bad(err, errlen, lineno, "bad width");
			h->width = (unsigned)v;
		} else if ((r = header_num(line, "unit", &v)) != 0) {
			if (r < 0 || v < 1 || v > 1000000)
				return bad(err, errlen, lineno, "bad unit");
			h->unit = (unsigned)v;
		} else if ((r = header_num(line, "cycles", &h->cycles)) != 0 ||
			   (r = header_num(line, "instructions", &h->insns)) != 0) {
			if (r < 0)
				return bad(err, errlen, lineno, "bad count");
		} else if (!strncmp(line, "categories", 10)) {
			if (strncmp(line, want, strlen(want)) || (line[strlen(want)] != '\n' &&
								 line[strlen(want)] != '\0'))
				return bad(err, errlen, lineno, "categories differ from this tiprof's");
		} else if (!strncmp(line, "total ", 6)) {
			if (parse_nums(line + 6, 10, h->total, TIPROF_NCAT))
				return bad(err, errlen, lineno, "bad total line");
		} else {
			struct oracle_profile_ent e;
			char *sp = strchr(line, ' ');

			if (!h->unit || !sp)
				return bad(err, errlen, lineno, "not an address line");
			*sp = '\0';
			if (parse_nums(line, 16, nums, 1) ||
			    parse_nums(sp + 1, 10, nums + 1, 1 + TIPROF_NCAT))
				return bad(err, errlen, lineno, "not an address line");
			e.pc = nums[0];
			e.commits = nums[1];
			memcpy(e.units, nums + 2, sizeof(e.units));
			entries++;
			if (fn && (r = fn(ctx, h, &e)) != 0)
				return r;
		}
	}
	if (ferror(f))
		return bad(err, errlen, lineno, "read error");
	if (!h->unit || !entries)
		return bad(err, errlen, lineno, "no unit line or no address line");
	return 0;
}
