/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_vcd.c - unit tests of the VCD writer and ring, and generators of
 * random VCDs with an expected-values file for the independent readers.
 *
 *   test_vcd                          run the unit tests
 *   test_vcd gen  OUT.vcd OUT.exp SEED   random writer run
 *   test_vcd ring OUT.vcd OUT.exp SEED   random ring run (dumps the window)
 *
 * The expected-values file (read by vcd_check.py) is:
 *   timescale <ts>
 *   var <hier.name> <width>        one per signal
 *   #<t>                           a time step (may repeat: same step)
 *   <hier.name> <value>            full-width binary, or x
 * Unit tests print "unit: N passed, M failed" and exit non-zero on failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcd.h"

/* ------------------------------------------------------------------------ */
/* Test plumbing                                                             */

static int g_failed_checks; /* checks failed in the current test */

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		g_failed_checks++; \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long a_ = (long long)(a), b_ = (long long)(b); \
	if (a_ != b_) { \
		fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", \
			__FILE__, __LINE__, #a, a_, #b, b_); \
		g_failed_checks++; \
	} \
} while (0)

/* An in-memory stream: open with mem_open(), read the text after mem_text(). */
struct mem {
	FILE *f;     /* the stream handed to the writer */
	char *buf;   /* its contents after mem_text() */
	size_t len;  /* their length */
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f) {
		perror("open_memstream");
		exit(2);
	}
}

/* Close the stream; returns the text (owned by m, freed by mem_free()). */
static const char *mem_text(struct mem *m)
{
	fclose(m->f);
	m->f = NULL;
	return m->buf;
}

static void mem_free(struct mem *m)
{
	free(m->buf);
	m->buf = NULL;
}

/* Print where two texts first differ. */
static void show_diff(const char *got, const char *want)
{
	size_t i = 0;

	while (got[i] && got[i] == want[i])
		i++;
	fprintf(stderr, "  texts differ at byte %zu\n  got:  \"%.60s\"\n  want: \"%.60s\"\n",
		i, got + i, want + i);
}

#define CHECK_TEXT(got, want) do { \
	if (strcmp((got), (want)) != 0) { \
		fprintf(stderr, "%s:%d: text mismatch\n", __FILE__, __LINE__); \
		show_diff((got), (want)); \
		g_failed_checks++; \
	} \
} while (0)

/* xorshift64*: deterministic, seedable random numbers for the tests. */
static uint64_t rnd_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* ------------------------------------------------------------------------ */
/* Writer unit tests                                                         */

/* Declare the golden test's signals: top.clk, top.data, top.sub.wide. */
static void golden_defs(vcd_writer *w, int *clk, int *data, int *wide)
{
	CHECK_EQ(vcd_scope_begin(w, "top"), 0);
	*clk = vcd_signal(w, "clk", 1);
	*data = vcd_signal(w, "data", 8);
	CHECK_EQ(vcd_scope_begin(w, "sub"), 0);
	*wide = vcd_signal(w, "wide", 70);
	CHECK_EQ(vcd_scope_end(w), 0);
	CHECK_EQ(vcd_scope_end(w), 0);
	CHECK_EQ(*clk, 0);
	CHECK_EQ(*data, 1);
	CHECK_EQ(*wide, 2);
	CHECK_EQ(vcd_end_defs(w), 0);
}

/* Exact output: header, $dumpvars with x for unset, changes only, wide. */
static void test_golden(void)
{
	const uint64_t wv[2] = { 3, 1 };
	struct mem m;
	vcd_writer *w;
	int clk, data, wide;

	mem_open(&m);
	CHECK_EQ(vcd_open(&w, m.f, "1 ns"), 0);
	golden_defs(w, &clk, &data, &wide);
	CHECK_EQ(vcd_time(w, 0), 0);
	CHECK_EQ(vcd_set_u64(w, clk, 0), 0);
	CHECK_EQ(vcd_set_u64(w, data, 5), 0);
	CHECK_EQ(vcd_time(w, 5), 0);
	CHECK_EQ(vcd_set_u64(w, clk, 1), 0);
	CHECK_EQ(vcd_set_u64(w, data, 5), 0);      /* unchanged: not written */
	CHECK_EQ(vcd_time(w, 10), 0);              /* nothing changes: no #10 */
	CHECK_EQ(vcd_set_u64(w, clk, 1), 0);
	CHECK_EQ(vcd_time(w, 15), 0);
	CHECK_EQ(vcd_set_bits(w, wide, wv, 70), 0);
	CHECK_EQ(vcd_time(w, 15), 0);              /* same step: no-op */
	CHECK_EQ(vcd_set_u64(w, data, 9), 0);
	CHECK_EQ(vcd_set_u64(w, data, 5), 0);      /* back to last written */
	CHECK_EQ(vcd_time(w, 20), 0);
	CHECK_EQ(vcd_set_x(w, data), 0);
	CHECK_EQ(vcd_time(w, 25), 0);              /* last step: #25 on close */
	CHECK_EQ(vcd_close(w), 0);
	CHECK_TEXT(mem_text(&m),
		   "$version tiprof vcd $end\n"
		   "$timescale 1ns $end\n"
		   "$scope module top $end\n"
		   "$var wire 1 ! clk $end\n"
		   "$var wire 8 \" data [7:0] $end\n"
		   "$scope module sub $end\n"
		   "$var wire 70 # wide [69:0] $end\n"
		   "$upscope $end\n"
		   "$upscope $end\n"
		   "$enddefinitions $end\n"
		   "#0\n$dumpvars\n0!\nb101 \"\nbx #\n$end\n"
		   "#5\n1!\n"
		   "#15\nb1" "00000000000000000000000000000000"
		   "000000000000000000000000000000" "11 #\n"
		   "#20\nbx \"\n"
		   "#25\n");
	mem_free(&m);
}

/* Zero values print one digit; full 64-bit and 4096-bit values; the step
 * written by the last vcd_time() is not repeated on close. */
static void test_values(void)
{
	uint64_t big[64];
	struct mem m;
	vcd_writer *w;
	const char *t;
	int a, b, c, i;

	mem_open(&m);
	CHECK_EQ(vcd_open(&w, m.f, "100ps"), 0);
	CHECK_EQ(vcd_scope_begin(w, "s"), 0);
	a = vcd_signal(w, "a", 64);
	b = vcd_signal(w, "b", 4096);
	c = vcd_signal(w, "c", 200);
	CHECK_EQ(vcd_scope_end(w), 0);
	CHECK_EQ(vcd_end_defs(w), 0);
	CHECK_EQ(vcd_time(w, 7), 0);
	CHECK_EQ(vcd_set_u64(w, a, 0), 0);
	CHECK_EQ(vcd_set_u64(w, b, 0), 0);
	CHECK_EQ(vcd_set_u64(w, c, 6), 0);        /* u64 into a wide signal */
	CHECK_EQ(vcd_time(w, 8), 0);
	CHECK_EQ(vcd_set_u64(w, a, UINT64_MAX), 0);
	for (i = 0; i < 64; i++)
		big[i] = UINT64_MAX;
	CHECK_EQ(vcd_set_bits(w, b, big, 4096), 0);
	CHECK_EQ(vcd_close(w), 0);
	t = mem_text(&m);
	CHECK(strstr(t, "$timescale 100ps $end\n") != NULL);
	CHECK(strstr(t, "#7\n$dumpvars\nb0 !\nb0 \"\nb110 #\n$end\n#8\nb") != NULL);
	CHECK(strstr(t, "#8\n") == strrchr(t, '#'));   /* #8 written once */
	{
		size_t n = strlen(t);
		const char *p = strstr(t, "#8\n");
		/* "b" + 64 ones + " !\n" then "b" + 4096 ones + " \"\n" */
		CHECK_EQ(n - (size_t)(p - t), 3 + 1 + 64 + 3 + 1 + 4096 + 3);
		CHECK(p[4] == '1' && p[4 + 63] == '1' && p[4 + 64] == ' ');
	}
	mem_free(&m);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Identifier codes: '!'..'~', then two characters; all distinct, printable. */
static void test_ids(void)
{
	enum { N = 94 * 94 + 200 };
	static char ids[N][8];
	struct mem m;
	vcd_writer *w;
	char name[16];
	const char *p;
	int i, n = 0;

	mem_open(&m);
	CHECK_EQ(vcd_open(&w, m.f, "1ns"), 0);
	CHECK_EQ(vcd_scope_begin(w, "t"), 0);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		CHECK_EQ(vcd_signal(w, name, 1), i);
	}
	CHECK_EQ(vcd_scope_end(w), 0);
	CHECK_EQ(vcd_end_defs(w), 0);
	CHECK_EQ(vcd_close(w), 0);
	p = mem_text(&m);
	while ((p = strstr(p, "$var wire 1 ")) != NULL && n < N) {
		p += strlen("$var wire 1 ");
		sscanf(p, "%7s", ids[n++]);
	}
	CHECK_EQ(n, N);
	CHECK(strcmp(ids[0], "!") == 0);
	CHECK(strcmp(ids[93], "~") == 0);
	CHECK(strcmp(ids[94], "!!") == 0);
	CHECK(strcmp(ids[95], "\"!") == 0);
	CHECK(strcmp(ids[94 + 94 * 94 - 1], "~~") == 0);
	CHECK(strcmp(ids[94 + 94 * 94], "!!!") == 0);
	qsort(ids, N, sizeof(ids[0]), cmp_str);
	for (i = 1; i < N; i++)
		CHECK(strcmp(ids[i - 1], ids[i]) != 0);
	for (i = 0; i < N; i++)
		for (p = ids[i]; *p; p++)
			CHECK(*p >= 33 && *p <= 126);
	mem_free(&m);
}

/* Misuse and bad arguments give the documented codes and write nothing
 * wrong: declarations after the end, time backwards, values too wide. */
static void test_errors(void)
{
	const uint64_t ok2[2] = { 1, 0 }, bad2[2] = { 0, 1u << 6 };
	struct mem m;
	vcd_writer *w;
	int s, v;

	CHECK_EQ(vcd_open(NULL, stdout, "1ns"), VCD_EINVAL);
	CHECK_EQ(vcd_open(&w, NULL, "1ns"), VCD_EINVAL);
	CHECK(w == NULL);
	CHECK_EQ(vcd_open(&w, stdout, "2ns"), VCD_EINVAL);
	CHECK_EQ(vcd_open(&w, stdout, "1000ns"), VCD_EINVAL);
	CHECK_EQ(vcd_open(&w, stdout, "1 xs"), VCD_EINVAL);
	CHECK_EQ(vcd_open(&w, stdout, NULL), VCD_EINVAL);
	CHECK_EQ(vcd_open_path(&w, "/nonexistent-dir/x.vcd", "1ns"), VCD_EIO);
	CHECK_EQ(vcd_close(NULL), 0);
	CHECK(strcmp(vcd_strerror(VCD_ETIME), "time went backwards") == 0);
	CHECK(strcmp(vcd_strerror(12345), "unknown error") == 0);

	mem_open(&m);
	CHECK_EQ(vcd_open(&w, m.f, "10us"), 0);
	CHECK_EQ(vcd_signal(w, "outside", 1), VCD_ESTATE);   /* no scope open */
	CHECK_EQ(vcd_scope_end(w), VCD_ESTATE);
	CHECK_EQ(vcd_end_defs(w), VCD_ESTATE);               /* no signal */
	CHECK_EQ(vcd_scope_begin(w, "has space"), VCD_EINVAL);
	CHECK_EQ(vcd_scope_begin(w, ""), VCD_EINVAL);
	CHECK_EQ(vcd_scope_begin(w, "a"), 0);
	CHECK_EQ(vcd_signal(w, "w0", 0), VCD_EINVAL);
	CHECK_EQ(vcd_signal(w, "w", VCD_MAX_WIDTH + 1), VCD_EINVAL);
	CHECK_EQ(vcd_signal(w, "tab\tname", 1), VCD_EINVAL);
	CHECK_EQ(vcd_signal(w, NULL, 1), VCD_EINVAL);
	s = vcd_signal(w, "s", 5);
	CHECK_EQ(s, 0);
	CHECK_EQ(vcd_signal(w, "s", 5), VCD_EDUP);
	CHECK_EQ(vcd_scope_begin(w, "b"), 0);
	CHECK_EQ(vcd_signal(w, "s", 5), 1);                  /* other scope: fine */
	CHECK_EQ(vcd_end_defs(w), VCD_ESTATE);               /* scopes open */
	CHECK_EQ(vcd_scope_end(w), 0);
	v = vcd_signal(w, "v", 70);
	CHECK_EQ(v, 2);
	CHECK_EQ(vcd_scope_end(w), 0);
	CHECK_EQ(vcd_time(w, 0), VCD_ESTATE);                /* before end_defs */
	CHECK_EQ(vcd_end_defs(w), 0);
	CHECK_EQ(vcd_end_defs(w), VCD_ESTATE);
	CHECK_EQ(vcd_scope_begin(w, "late"), VCD_ESTATE);
	CHECK_EQ(vcd_scope_end(w), VCD_ESTATE);
	CHECK_EQ(vcd_signal(w, "late", 1), VCD_ESTATE);
	CHECK_EQ(vcd_set_u64(w, s, 1), VCD_ESTATE);          /* before vcd_time */
	CHECK_EQ(vcd_time(w, 10), 0);
	CHECK_EQ(vcd_time(w, 9), VCD_ETIME);
	CHECK_EQ(vcd_set_u64(w, s, 32), VCD_ERANGE);
	CHECK_EQ(vcd_set_u64(w, 3, 0), VCD_EINVAL);
	CHECK_EQ(vcd_set_u64(w, -1, 0), VCD_EINVAL);
	CHECK_EQ(vcd_set_x(w, 99), VCD_EINVAL);
	CHECK_EQ(vcd_set_bits(w, v, ok2, 64), VCD_EINVAL);   /* wrong width */
	CHECK_EQ(vcd_set_bits(w, v, bad2, 70), VCD_ERANGE);  /* bit 70 set */
	CHECK_EQ(vcd_set_bits(w, v, NULL, 70), VCD_EINVAL);
	CHECK_EQ(vcd_set_bits(w, v, ok2, 70), 0);
	CHECK_EQ(vcd_set_u64(w, s, 31), 0);
	CHECK_EQ(vcd_close(w), 0);
	CHECK(strstr(mem_text(&m), "#10\n$dumpvars\nb11111 !\nbx \"\nb1 #\n$end\n") != NULL);
	mem_free(&m);

	/* Closing before the end of definitions reports the misuse. */
	mem_open(&m);
	CHECK_EQ(vcd_open(&w, m.f, "1ns"), 0);
	CHECK_EQ(vcd_scope_begin(w, "a"), 0);
	CHECK_EQ(vcd_close(w), VCD_ESTATE);
	mem_text(&m);
	mem_free(&m);
}

/* I/O errors: on an unbuffered full device the header write fails and the
 * writer stays failed; a buffered one fails at latest on close. */
static void test_io_errors(void)
{
	vcd_writer *w;
	FILE *f;
	int s;

	f = fopen("/dev/full", "w");
	CHECK(f != NULL);
	if (!f)
		return;
	setvbuf(f, NULL, _IONBF, 0);
	CHECK_EQ(vcd_open(&w, f, "1ns"), 0);
	CHECK_EQ(vcd_scope_begin(w, "a"), 0);
	s = vcd_signal(w, "s", 1);
	CHECK_EQ(vcd_scope_end(w), 0);
	CHECK_EQ(vcd_end_defs(w), VCD_EIO);
	CHECK_EQ(vcd_time(w, 0), VCD_EIO);
	CHECK_EQ(vcd_set_u64(w, s, 1), VCD_EIO);
	CHECK_EQ(vcd_close(w), VCD_EIO);
	fclose(f);

	CHECK_EQ(vcd_open_path(&w, "/dev/full", "1ns"), 0);
	CHECK_EQ(vcd_scope_begin(w, "a"), 0);
	s = vcd_signal(w, "s", 1);
	CHECK_EQ(vcd_scope_end(w), 0);
	vcd_end_defs(w);           /* may or may not fail: stdio buffers */
	vcd_time(w, 0);
	vcd_set_u64(w, s, 1);
	CHECK_EQ(vcd_close(w), VCD_EIO);
}

/* ------------------------------------------------------------------------ */
/* Random model shared by the ring tests and the generators                  */

#define MODEL_SIGS 24

struct model {
	int nsigs;                   /* signals declared */
	unsigned width[MODEL_SIGS];  /* their widths */
	char name[MODEL_SIGS][48];   /* their hierarchical names */
	uint64_t val[MODEL_SIGS][64];/* current values */
	int known[MODEL_SIGS];       /* current value is not x */
	uint64_t rng;                /* random state */
};

/* Declarations are a fixed plan with nested scopes and awkward widths. */
static const struct { int depth_change; const char *name; unsigned width; } plan[] = {
	{ +1, "tb", 0 }, { 0, "clk", 1 }, { 0, "rst_n", 1 }, { 0, "pc", 64 },
	{ +1, "u_rob", 0 }, { 0, "head", 6 }, { 0, "tail", 6 }, { 0, "retire", 2 },
	{ 0, "entry", 65 }, { 0, "mask", 128 }, { 0, "wide", 4096 },
	{ +1, "u_deep", 0 }, { 0, "odd", 63 }, { 0, "one", 1 }, { 0, "w129", 129 },
	{ -1, NULL, 0 }, { 0, "after", 3 }, { -1, NULL, 0 },
	{ +1, "u_cnt", 0 }, { 0, "q", 32 }, { 0, "w200", 200 }, { -1, NULL, 0 },
	{ -1, NULL, 0 },
};

/* Declare the plan through decl(scope_begin/scope_end/signal) callbacks. */
struct decl_ops {
	int (*scope_begin)(void *o, const char *name);
	int (*scope_end)(void *o);
	int (*signal)(void *o, const char *name, unsigned width);
};

static int w_sb(void *o, const char *n) { return vcd_scope_begin(o, n); }
static int w_se(void *o) { return vcd_scope_end(o); }
static int w_sig(void *o, const char *n, unsigned wd) { return vcd_signal(o, n, wd); }
static int r_sb(void *o, const char *n) { return vcd_ring_scope_begin(o, n); }
static int r_se(void *o) { return vcd_ring_scope_end(o); }
static int r_sig(void *o, const char *n, unsigned wd) { return vcd_ring_signal(o, n, wd); }
static const struct decl_ops writer_ops = { w_sb, w_se, w_sig };
static const struct decl_ops ring_ops = { r_sb, r_se, r_sig };

static void model_declare(struct model *md, const struct decl_ops *ops, void *o, uint64_t seed)
{
	char path[8][16];
	size_t i;
	int depth = 0, j, h;

	memset(md, 0, sizeof(*md));
	md->rng = seed * 0x9e3779b97f4a7c15ull + 1;
	for (i = 0; i < sizeof(plan) / sizeof(plan[0]); i++) {
		if (plan[i].depth_change > 0) {
			CHECK_EQ(ops->scope_begin(o, plan[i].name), 0);
			snprintf(path[depth++], sizeof(path[0]), "%s", plan[i].name);
		} else if (plan[i].depth_change < 0) {
			CHECK_EQ(ops->scope_end(o), 0);
			depth--;
		} else {
			h = ops->signal(o, plan[i].name, plan[i].width);
			CHECK_EQ(h, md->nsigs);
			md->width[h] = plan[i].width;
			md->name[h][0] = '\0';
			for (j = 0; j < depth; j++) {
				strcat(md->name[h], path[j]);
				strcat(md->name[h], ".");
			}
			strcat(md->name[h], plan[i].name);
			md->nsigs++;
		}
	}
}

/* Pick a random new value for signal s (sometimes x, sometimes unchanged,
 * often small so that leading zeros are dropped). */
static void model_random_value(struct model *md, int s)
{
	unsigned nw = (md->width[s] + 63) / 64, top = md->width[s] % 64, k;
	uint64_t r = rnd_next(&md->rng);

	if (r % 16 == 0) {
		md->known[s] = 0;
		return;
	}
	if (r % 16 == 1 && md->known[s])
		return;
	memset(md->val[s], 0, sizeof(md->val[s]));
	if (r % 4 == 2) {
		md->val[s][0] = rnd_next(&md->rng) % 4;
	} else {
		for (k = 0; k < nw; k++)
			md->val[s][k] = rnd_next(&md->rng);
	}
	if (top)
		md->val[s][nw - 1] &= (1ull << top) - 1;
	md->known[s] = 1;
}

/* Write "name value" (full-width binary or x) for s to f. */
static void model_print(const struct model *md, int s, FILE *f)
{
	int b;

	fprintf(f, "%s ", md->name[s]);
	if (!md->known[s])
		fputc('x', f);
	else
		for (b = (int)md->width[s] - 1; b >= 0; b--)
			fputc('0' + (int)((md->val[s][b / 64] >> (b % 64)) & 1), f);
	fputc('\n', f);
}

static void model_print_header(const struct model *md, const char *ts, FILE *f)
{
	int s;

	fprintf(f, "timescale %s\n", ts);
	for (s = 0; s < md->nsigs; s++)
		fprintf(f, "var %s %u\n", md->name[s], md->width[s]);
}

/* ------------------------------------------------------------------------ */
/* Ring unit tests                                                           */

/* Record nsteps random samples in a ring of the given depth, and the same
 * window directly with a writer: the two VCDs must be byte-identical. */
static void ring_vs_writer(unsigned depth, unsigned nsteps, uint64_t seed)
{
	static struct model hist[64]; /* snapshots of the last <= 64 samples */
	static uint64_t hist_t[64];
	struct model md, mw;
	struct mem a, b;
	vcd_ring *r;
	vcd_writer *w;
	unsigned i, first;
	int s;

	CHECK(depth <= 64);
	CHECK_EQ(vcd_ring_create(&r, depth), 0);
	model_declare(&md, &ring_ops, r, seed);
	CHECK_EQ(vcd_ring_end_defs(r), 0);
	for (i = 0; i < nsteps; i++) {
		for (s = 0; s < md.nsigs; s++) {
			if (rnd_next(&md.rng) % 3)
				continue;
			model_random_value(&md, s);
			if (md.known[s])
				CHECK_EQ(vcd_ring_set_bits(r, s, md.val[s], md.width[s]), 0);
			else
				CHECK_EQ(vcd_ring_set_x(r, s), 0);
		}
		hist[i % 64] = md;
		hist_t[i % 64] = 3 * (uint64_t)i + (i % 2);
		CHECK_EQ(vcd_ring_commit(r, hist_t[i % 64]), 0);
	}
	CHECK_EQ(vcd_ring_count(r), nsteps < depth ? nsteps : depth);
	mem_open(&a);
	CHECK_EQ(vcd_ring_dump(r, a.f, "1ns"), 0);

	mem_open(&b);
	CHECK_EQ(vcd_open(&w, b.f, "1ns"), 0);
	model_declare(&mw, &writer_ops, w, seed);
	CHECK_EQ(vcd_end_defs(w), 0);
	first = nsteps > depth ? nsteps - depth : 0;
	for (i = first; i < nsteps; i++) {
		const struct model *h = &hist[i % 64];

		CHECK_EQ(vcd_time(w, hist_t[i % 64]), 0);
		for (s = 0; s < h->nsigs; s++) {
			if (h->known[s])
				CHECK_EQ(vcd_set_bits(w, s, h->val[s], h->width[s]), 0);
			else
				CHECK_EQ(vcd_set_x(w, s), 0);
		}
	}
	CHECK_EQ(vcd_close(w), 0);
	CHECK_TEXT(mem_text(&a), mem_text(&b));
	mem_free(&a);
	mem_free(&b);
	vcd_ring_free(r);
}

static void test_ring_window(void)
{
	ring_vs_writer(1, 1, 1);
	ring_vs_writer(1, 10, 2);
	ring_vs_writer(16, 5, 3);
	ring_vs_writer(16, 16, 4);
	ring_vs_writer(16, 17, 5);
	ring_vs_writer(50, 500, 6);
}

static void test_ring_errors(void)
{
	const uint64_t w2[2] = { 0, 8 };
	vcd_ring *r;
	struct mem m;
	int s, v;

	CHECK_EQ(vcd_ring_create(&r, 0), VCD_EINVAL);
	CHECK(r == NULL);
	CHECK_EQ(vcd_ring_create(NULL, 4), VCD_EINVAL);
	CHECK_EQ(vcd_ring_create(&r, 4), 0);
	CHECK_EQ(vcd_ring_signal(r, "s", 1), VCD_ESTATE);
	CHECK_EQ(vcd_ring_scope_begin(r, "top"), 0);
	s = vcd_ring_signal(r, "s", 3);
	v = vcd_ring_signal(r, "v", 67);
	CHECK_EQ(vcd_ring_signal(r, "v", 2), VCD_EDUP);
	CHECK_EQ(vcd_ring_set_u64(r, s, 1), VCD_ESTATE);
	CHECK_EQ(vcd_ring_commit(r, 0), VCD_ESTATE);
	CHECK_EQ(vcd_ring_dump(r, stdout, "1ns"), VCD_ESTATE);
	CHECK_EQ(vcd_ring_end_defs(r), VCD_ESTATE);          /* scope open */
	CHECK_EQ(vcd_ring_scope_end(r), 0);
	CHECK_EQ(vcd_ring_end_defs(r), 0);
	CHECK_EQ(vcd_ring_scope_begin(r, "late"), VCD_ESTATE);
	CHECK_EQ(vcd_ring_count(r), 0);

	/* No sample: a VCD with definitions only. */
	mem_open(&m);
	CHECK_EQ(vcd_ring_dump(r, m.f, "1ns"), 0);
	CHECK(strstr(mem_text(&m), "$enddefinitions $end\n") != NULL);
	CHECK(strchr(m.buf, '#') == NULL);
	mem_free(&m);

	CHECK_EQ(vcd_ring_set_u64(r, s, 8), VCD_ERANGE);
	CHECK_EQ(vcd_ring_set_u64(r, 2, 0), VCD_EINVAL);
	CHECK_EQ(vcd_ring_set_bits(r, v, w2, 67), VCD_ERANGE);
	CHECK_EQ(vcd_ring_set_bits(r, v, w2, 66), VCD_EINVAL);
	CHECK_EQ(vcd_ring_set_u64(r, s, 7), 0);
	CHECK_EQ(vcd_ring_commit(r, 5), 0);
	CHECK_EQ(vcd_ring_commit(r, 5), VCD_ETIME);
	CHECK_EQ(vcd_ring_commit(r, 4), VCD_ETIME);
	CHECK_EQ(vcd_ring_commit(r, 6), 0);
	CHECK_EQ(vcd_ring_count(r), 2);
	CHECK_EQ(vcd_ring_dump(r, stdout, "3ns"), VCD_EINVAL);
	CHECK_EQ(vcd_ring_dump_path(r, "/nonexistent-dir/x.vcd", "1ns"), VCD_EIO);
	CHECK_EQ(vcd_ring_dump_path(r, "/dev/full", "1ns"), VCD_EIO);

	/* Unset signals stay x; values hold across commits; the ring can go
	 * on recording after a dump. */
	mem_open(&m);
	CHECK_EQ(vcd_ring_dump(r, m.f, "1ns"), 0);
	CHECK(strstr(mem_text(&m), "#5\n$dumpvars\nb111 !\nbx \"\n$end\n#6\n") != NULL);
	mem_free(&m);
	CHECK_EQ(vcd_ring_commit(r, 7), 0);
	CHECK_EQ(vcd_ring_count(r), 3);
	vcd_ring_free(r);
	vcd_ring_free(NULL);
}

/* ------------------------------------------------------------------------ */
/* Generators for the independent readers                                    */

/* Random writer run: times with gaps and repeated vcd_time() calls, random
 * subsets set each step (including unchanged values and x). */
static int gen_writer(const char *vcd, const char *exp, uint64_t seed)
{
	struct model md;
	vcd_writer *w;
	uint64_t t = 0;
	FILE *fe;
	int i, s, err;

	fe = fopen(exp, "w");
	if (!fe || vcd_open_path(&w, vcd, "10ps") != 0) {
		fprintf(stderr, "test_vcd: cannot create %s / %s\n", vcd, exp);
		return 2;
	}
	model_declare(&md, &writer_ops, w, seed);
	CHECK_EQ(vcd_end_defs(w), 0);
	model_print_header(&md, "10ps", fe);
	for (i = 0; i < 400; i++) {
		t += rnd_next(&md.rng) % 4;     /* 0: the same step again */
		CHECK_EQ(vcd_time(w, t), 0);
		fprintf(fe, "#%" PRIu64 "\n", t);
		for (s = 0; s < md.nsigs; s++) {
			if (i > 0 && rnd_next(&md.rng) % 3)
				continue;
			model_random_value(&md, s);
			err = md.known[s] ? vcd_set_bits(w, s, md.val[s], md.width[s])
					  : vcd_set_x(w, s);
			CHECK_EQ(err, 0);
			model_print(&md, s, fe);
		}
	}
	CHECK_EQ(vcd_close(w), 0);
	CHECK_EQ(fclose(fe), 0);
	return g_failed_checks ? 1 : 0;
}

/* Random ring run: 2000 samples into a ring of 100; the expected file holds
 * every signal's value at each of the last 100 samples. */
static int gen_ring(const char *vcd, const char *exp, uint64_t seed)
{
	enum { DEPTH = 100, STEPS = 2000 };
	struct model md;
	vcd_ring *r;
	FILE *fe;
	int i, s;

	fe = fopen(exp, "w");
	if (!fe) {
		fprintf(stderr, "test_vcd: cannot create %s\n", exp);
		return 2;
	}
	CHECK_EQ(vcd_ring_create(&r, DEPTH), 0);
	model_declare(&md, &ring_ops, r, seed);
	CHECK_EQ(vcd_ring_end_defs(r), 0);
	model_print_header(&md, "1ns", fe);
	for (i = 0; i < STEPS; i++) {
		for (s = 0; s < md.nsigs; s++) {
			if (i > 0 && rnd_next(&md.rng) % 4)
				continue;
			model_random_value(&md, s);
			if (md.known[s])
				CHECK_EQ(vcd_ring_set_bits(r, s, md.val[s], md.width[s]), 0);
			else
				CHECK_EQ(vcd_ring_set_x(r, s), 0);
		}
		CHECK_EQ(vcd_ring_commit(r, 10 * (uint64_t)i + 3), 0);
		if (i >= STEPS - DEPTH) {
			fprintf(fe, "#%" PRIu64 "\n", 10 * (uint64_t)i + 3);
			for (s = 0; s < md.nsigs; s++)
				model_print(&md, s, fe);
		}
	}
	CHECK_EQ(vcd_ring_dump_path(r, vcd, "1ns"), 0);
	vcd_ring_free(r);
	CHECK_EQ(fclose(fe), 0);
	return g_failed_checks ? 1 : 0;
}

/* ------------------------------------------------------------------------ */

static const struct { const char *name; void (*fn)(void); } tests[] = {
	{ "golden", test_golden },
	{ "values", test_values },
	{ "ids", test_ids },
	{ "errors", test_errors },
	{ "io_errors", test_io_errors },
	{ "ring_window", test_ring_window },
	{ "ring_errors", test_ring_errors },
};

int main(int argc, char **argv)
{
	size_t i;
	int passed = 0, failed = 0;

	if (argc == 5 && strcmp(argv[1], "gen") == 0)
		return gen_writer(argv[2], argv[3], strtoull(argv[4], NULL, 0));
	if (argc == 5 && strcmp(argv[1], "ring") == 0)
		return gen_ring(argv[2], argv[3], strtoull(argv[4], NULL, 0));
	if (argc != 1) {
		fprintf(stderr, "usage: test_vcd [gen|ring OUT.vcd OUT.exp SEED]\n");
		return 2;
	}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		g_failed_checks = 0;
		tests[i].fn();
		printf("  %-12s %s\n", tests[i].name, g_failed_checks ? "FAIL" : "ok");
		if (g_failed_checks)
			failed++;
		else
			passed++;
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
