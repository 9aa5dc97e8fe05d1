/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_oracle_profile.c - lib/sample/oracle_profile: random profiles written and read back
 * unchanged; the documented text (docs/core.md) read as written there; every prefix of a file
 * and foreign, damaged or newer files give an error line and never a crash or a half-read
 * profile reported as good.
 * Usage: test_oracle_profile TMPDIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_profile.h"
#include "tcheck.h"

/* What the reader handed the callback. */
struct got {
	struct oracle_profile_ent e[64];
	size_t n;
};

static int collect(void *ctx, const struct oracle_profile_hdr *h,
		   const struct oracle_profile_ent *e)
{
	struct got *g = ctx;

	(void)h;
	if (g->n >= 64)
		return -3;
	g->e[g->n++] = *e;
	return 0;
}

/* Read the text s; returns the reader's result, the header in *h, the entries in *g. */
static int read_text(const char *s, size_t len, struct oracle_profile_hdr *h, struct got *g,
		     char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)s, len ? len : 1, "r");
	int r;

	if (!f)
		return -99;
	if (!len) {		/* fmemopen cannot open 0 bytes: read one past the end instead */
		fclose(f);
		f = fopen("/dev/null", "r");
	}
	memset(g, 0, sizeof(*g));
	r = oracle_profile_read(f, h, collect, g, err, errlen);
	fclose(f);
	return r;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_round_trip(const char *dir)
{
	char path[4096], err[256];
	uint64_t seed = 0x9E3779B97F4A7C15ull;

	tc_section("random profiles written and read back unchanged");
	snprintf(path, sizeof(path), "%s/rt.oracle", dir);
	for (int t = 0; t < 200; t++) {
		struct oracle_profile_hdr h = { 1 + (unsigned)(rnd(&seed) % 8), 840,
						rnd(&seed) >> 8, rnd(&seed) >> 8, { 0 } }, h2;
		struct oracle_profile_ent e[64];
		struct got g;
		size_t n = 1 + rnd(&seed) % 64;
		FILE *f = fopen(path, "w+");

		for (unsigned c = 0; c < TIPROF_NCAT; c++)
			h.total[c] = rnd(&seed) >> (t % 64);
		for (size_t i = 0; i < n; i++) {
			e[i].pc = (i * 4 + 0x10000) | (t & 1 ? rnd(&seed) << 20 : 0);
			e[i].commits = rnd(&seed) >> (t % 64);
			for (unsigned c = 0; c < TIPROF_NCAT; c++)
				e[i].units[c] = c == (unsigned)t % TIPROF_NCAT ? UINT64_MAX : rnd(&seed) >> (i % 64);
		}
		if (!CHECK(f && oracle_profile_write(f, &h, e, n) == 0, "write %d", t)) {
			if (f)
				fclose(f);
			continue;
		}
		rewind(f);
		memset(&g, 0, sizeof(g));
		CHECK(oracle_profile_read(f, &h2, collect, &g, err, sizeof(err)) == 0,
		      "read %d: %s", t, err);
		fclose(f);
		CHECK(!memcmp(&h, &h2, sizeof(h)), "header %d read back", t);
		CHECK(g.n == n && !memcmp(e, g.e, n * sizeof(e[0])), "%zu entries %d read back", n, t);
	}
}

/* The example of docs/core.md, as a user would write it. */
static const char doc[] =
	"tiprof-oracle 1\n"
	"width 4\n"
	"unit 840\n"
	"cycles 10\n"
	"instructions 12\n"
	"categories execute alu_stall load_stall store_stall mispredict_flush other_flush frontend\n"
	"total 4200 840 1680 0 840 0 840\n"
	"10078 3 2100 840 0 0 0 0 0\n"
	"1a0b4 9 2100 0 1680 0 840 0 840\n";

static void test_documented(void)
{
	struct oracle_profile_hdr h;
	struct got g;
	char err[256];

	tc_section("the documented text");
	CHECK(read_text(doc, sizeof(doc) - 1, &h, &g, err, sizeof(err)) == 0, "read: %s", err);
	CHECK_EQ(h.width, 4, "width");
	CHECK_EQ(h.unit, 840, "unit");
	CHECK_EQ(h.cycles, 10, "cycles");
	CHECK_EQ(h.insns, 12, "instructions");
	CHECK_EQ(h.total[TIPROF_CAT_LOAD_STALL], 1680, "total load_stall");
	CHECK_EQ(g.n, 2, "two address lines");
	CHECK_EQ(g.e[1].pc, 0x1a0b4, "hex address");
	CHECK_EQ(g.e[1].commits, 9, "commits");
	CHECK_EQ(g.e[1].units[TIPROF_CAT_FRONTEND], 840, "frontend units");
}

static void test_bad(void)
{
	static const struct {
		const char *what, *text;
	} bad[] = {
		{ "empty", "" },
		{ "a sample file", "\x7fTIPROF\n\x01\x00\x00\x00" },
		{ "text", "hello world\n" },
		{ "newer version", "tiprof-oracle 2\nunit 840\n10078 1 1 1 1 1 1 1 1\n" },
		{ "no unit", "tiprof-oracle 1\n10078 1 1 1 1 1 1 1 1\n" },
		{ "unit 0", "tiprof-oracle 1\nunit 0\n10078 1 1 1 1 1 1 1 1\n" },
		{ "no address line", "tiprof-oracle 1\nunit 840\n" },
		{ "other categories", "tiprof-oracle 1\nunit 840\ncategories execute frontend\n"
				      "10078 1 1 1 1 1 1 1 1\n" },
		{ "categories in another order", "tiprof-oracle 1\nunit 840\ncategories alu_stall "
		  "execute load_stall store_stall mispredict_flush other_flush frontend\n"
		  "10078 1 1 1 1 1 1 1 1\n" },
		{ "one field short", "tiprof-oracle 1\nunit 840\n10078 1 1 1 1 1 1 1\n" },
		{ "one field more", "tiprof-oracle 1\nunit 840\n10078 1 1 1 1 1 1 1 1 1\n" },
		{ "not hex", "tiprof-oracle 1\nunit 840\n1007g 1 1 1 1 1 1 1 1\n" },
		{ "negative", "tiprof-oracle 1\nunit 840\n10078 -1 1 1 1 1 1 1 1\n" },
		{ "beyond 64 bits", "tiprof-oracle 1\nunit 840\n10078 18446744073709551616 1 1 1 1 1 "
				    "1 1\n" },
		{ "width 9", "tiprof-oracle 1\nwidth 9\nunit 840\n10078 1 1 1 1 1 1 1 1\n" },
		{ "bad total", "tiprof-oracle 1\nunit 840\ntotal 1 2\n10078 1 1 1 1 1 1 1 1\n" },
	};
	struct oracle_profile_hdr h;
	struct got g;
	char err[256];

	tc_section("foreign, damaged and newer files: an error line, never a profile");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		CHECK(read_text(bad[i].text, strlen(bad[i].text), &h, &g, err, sizeof(err)) == -1 &&
		      err[0] && !strchr(err, '\n'), "%s: refused with one line (%s)", bad[i].what,
		      err);
	}
	printf("  e.g. %s\n", err);

	tc_section("every prefix of the documented text: good only from the first whole address line");
	size_t first = strstr(doc, "10078") - doc + strlen("10078 3 2100 840 0 0 0 0 0\n");
	for (size_t len = 0; len < sizeof(doc) - 1; len++) {
		int r = read_text(doc, len, &h, &g, err, sizeof(err));

		/* a prefix that ends inside an address line may still parse as a shorter one: then
		 * it must be refused for its missing fields, not read as good */
		if (len >= first && (doc[len - 1] == '\n' || len == sizeof(doc) - 1))
			CHECK(r == 0, "prefix %zu of %zu read (%s)", len, sizeof(doc) - 1, err);
		else if (len < first - 1)	/* first - 1: the line without its newline */
			CHECK(r == -1, "prefix %zu refused", len);
		else
			CHECK(r == -1 || g.n >= 1, "prefix %zu inside a line: refused or whole lines",
			      len);
	}
}

int main(int argc, char **argv)
{
	printf("test_oracle_profile: lib/sample/oracle_profile (files in %s)\n",
	       argc > 1 ? argv[1] : ".");
	test_round_trip(argc > 1 ? argv[1] : ".");
	test_documented();
	test_bad();
	return tc_summary();
}
