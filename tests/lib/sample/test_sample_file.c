/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sample_file.c - tests of lib/sample/sample_file: a byte-exact golden file built
 * here from the table in docs/sample-file.md (not from the encoder), with object
 * records (format 1.1) and ProfileMe records (format 1.2), and 1.0 and 1.1 golden images
 * that must still read, and the 1.2 image read as a 1.0 / 1.1 reader does (skipping the
 * extension records it does not know); round trips of random files (samples, object and
 * ProfileMe records) in every configuration, truncation at
 * every byte offset, random corruption (built with AddressSanitizer/UBSan: a crash or
 * an overflow fails the run), foreign and newer files, object-record validation, the
 * writer's temporary-file discipline, and the dumper's text.
 *
 * Usage: test_sample_file TMPDIR
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample_file.h"
#include "tcheck.h"

/* ---------------------------------------------------------------- helpers */

/* A growable byte buffer for expected file images. */
struct bytes {
	uint8_t b[8192];	/* contents */
	size_t n;		/* length */
};

static void b_u8(struct bytes *x, unsigned v)
{
	x->b[x->n++] = (uint8_t)v;
}

static void b_le(struct bytes *x, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		b_u8(x, (unsigned)(v >> (8 * i)) & 0xFFu);
}

static void b_raw(struct bytes *x, const void *p, size_t n)
{
	memcpy(x->b + x->n, p, n);
	x->n += n;
}

static int spit(const char *path, const uint8_t *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	int ok;

	if (!fp)
		return -1;
	ok = fwrite(p, 1, n, fp) == n;
	return fclose(fp) == 0 && ok ? 0 : -1;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Number of entries in dir whose name starts with prefix. */
static int count_prefix(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

/* A message is one line that names the file. */
static int one_line_naming(const char *msg, const char *name)
{
	return msg[0] && !strchr(msg, '\n') && strncmp(msg, name, strlen(name)) == 0;
}

static int sample_equal(const struct tiprof_sample *a, const struct tiprof_sample *b);

static int object_equal(const struct sf_object *a, const struct sf_object *b)
{
	return a->start == b->start && a->end == b->end && a->bias == b->bias &&
	       a->kind == b->kind && a->path_len == b->path_len &&
	       a->build_id_len == b->build_id_len &&
	       memcmp(a->path, b->path, a->path_len + 1u) == 0 &&
	       memcmp(a->build_id, b->build_id, a->build_id_len) == 0;
}

/* ---------------------------------------------------------------- golden file */

/* The tiny file of the golden test: W=2, XLEN=32, two samples. */
static void golden_header(struct sf_header *h)
{
	static const uint8_t bid[4] = { 0xDE, 0xAD, 0xBE, 0xEF };

	sf_header_init(h);
	h->w = 2;
	h->xlen = 32;
	h->fifo_depth = 8;
	h->unit_id = 0x00017119;
	h->period = 4096;
	h->mode = TIPROF_MODE_RANDOM_INTERVAL;
	h->rand_bits = 8;
	h->priv_filter = 0xB;
	h->source = SF_SOURCE_SIMULATOR;
	h->clock_hz = 100000000;
	h->start_cycle = 0x0102030405060708ull;
	h->start_time_ns = 1700000000123456789ull;
	h->elf_path_len = 6;
	memcpy(h->elf_path, "/bin/x", 7);
	h->build_id_len = 4;
	memcpy(h->build_id, bid, 4);
}

static void golden_samples(struct tiprof_sample s[2])
{
	memset(s, 0, 2 * sizeof(*s));
	s[0].cycle = 0x1122334455667788ull;	/* computing, both banks */
	s[0].flags = 0;
	s[0].bank = 1;
	s[0].valid = 3;
	s[0].priv = TIPROF_PRIV_U;
	s[0].ctx = 0xABCD;
	s[0].addr[0] = 0x80001000;
	s[0].addr[1] = 0x80000FFC;
	s[1].cycle = 4096;			/* flushed after a mispredict */
	s[1].flags = TIPROF_SF_MISPRED;
	s[1].bank = 0;
	s[1].valid = 1;
	s[1].priv = TIPROF_PRIV_S;
	s[1].ctx = 7;
	s[1].addr[0] = 0xFFFFFFFE;
}

/* The golden file's two object records: the program, and a library mapped with a bias. */
static void golden_objects(struct sf_object o[2])
{
	memset(o, 0, 2 * sizeof(*o));
	o[0].start = 0x10000;
	o[0].end = 0x12000;
	o[0].bias = 0;
	o[0].kind = SF_OBJ_MAIN;
	o[0].path_len = 6;
	memcpy(o[0].path, "/bin/x", 7);
	o[0].build_id_len = 4;
	memcpy(o[0].build_id, "\xDE\xAD\xBE\xEF", 4);
	o[1].start = 0x40001000;
	o[1].end = 0x40100000;
	o[1].bias = 0x40000000;
	o[1].kind = SF_OBJ_MAPPED;
	o[1].path_len = 11;
	memcpy(o[1].path, "/lib/libc.6", 12);
}

/* The golden file's ProfileMe config (format 1.2). */
static void golden_pm_config(struct tiprof_pm_config *c)
{
	memset(c, 0, sizeof(*c));
	c->f = 2;
	c->tags = 2;
	c->fifo_depth = 4;
	c->ctrl = TIPROF_PM_CTRL_EN_MASK | 1u << TIPROF_PM_CTRL_MODE_SHIFT |
		  0xBu << TIPROF_PM_CTRL_PRIV_SHIFT | 8u << TIPROF_PM_CTRL_RAND_BITS_SHIFT |
		  TIPROF_PM_CTRL_PAIR_MASK;
	c->period = 4096;
	c->pair = 64;
	c->timeout = 65535;
	c->evfilt = 0;
	c->latfilt = 10u << TIPROF_PM_LATFILT_THRESH_SHIFT | 6u << TIPROF_PM_LATFILT_SEL_SHIFT;
	c->issue_width = 4;
}

/* Set field (mask, shift) of word i of s to v. */
static void pm_set(struct tiprof_pm_sample *s, unsigned i, uint64_t mask, unsigned shift,
		   uint64_t v)
{
	s->w[i] = (s->w[i] & ~mask) | ((v << shift) & mask);
}

#define PMSET(s, word, p, fld, v) \
	pm_set(s, TIPROF_PM_REC_##word + (p) * TIPROF_PM_REC_PROFILE_STRIDE, \
	       TIPROF_PM_REC_##word##_##fld##_MASK, TIPROF_PM_REC_##word##_##fld##_SHIFT, v)
#define EVB(b) (1u << TIPROF_PM_EV_##b)

/* The golden file's two ProfileMe samples, field by field: a single retired load that
 * missed the D-cache, and a pair (a trapping instruction and a retired store 5 fetches
 * later, 2 cycles after it). */
static void golden_pm_samples(struct tiprof_pm_sample s[2])
{
	memset(s, 0, 2 * sizeof(*s));
	PMSET(&s[0], CYCLE, 0, CYCLE, 0x1000);
	PMSET(&s[0], SINFO, 0, FMT, TIPROF_PM_REC_FMT);
	PMSET(&s[0], PC, 0, PC, 0x80001234);
	PMSET(&s[0], EA, 0, EA, 0x80100040);
	PMSET(&s[0], INFO, 0, EV, EVB(RETIRED) | EVB(DC_MISS) | EVB(LOAD) | EVB(EA_VALID));
	PMSET(&s[0], INFO, 0, PRIV, TIPROF_PRIV_U);
	PMSET(&s[0], INFO, 0, TAGGED, 1);
	PMSET(&s[0], INFO, 0, SLOT, 1);
	PMSET(&s[0], INFO, 0, CTX, 0xABCD);
	PMSET(&s[0], INFO, 0, PATH, 0xF0);
	PMSET(&s[0], STAMP_A, 0, MAP, 2);
	PMSET(&s[0], STAMP_A, 0, READY, 5);
	PMSET(&s[0], STAMP_A, 0, ISSUE, 6);
	PMSET(&s[0], STAMP_A, 0, COMPLETE, 30);
	PMSET(&s[0], STAMP_B, 0, MEM, 8);
	PMSET(&s[0], STAMP_B, 0, END, 33);
	PMSET(&s[0], STAMP_B, 0, SEEN, 0x1F);

	PMSET(&s[1], CYCLE, 0, CYCLE, 0x2000);
	PMSET(&s[1], SINFO, 0, FMT, TIPROF_PM_REC_FMT);
	PMSET(&s[1], SINFO, 0, PAIR, 1);
	PMSET(&s[1], SINFO, 0, PAIR_DIST, 5);
	PMSET(&s[1], SINFO, 0, PAIR_CYCLES, 2);
	PMSET(&s[1], PC, 0, PC, 0x80002000);
	PMSET(&s[1], INFO, 0, EV, EVB(ABORTED) | EVB(TRAP));
	PMSET(&s[1], INFO, 0, REASON, TIPROF_PM_ABORT_TRAP);
	PMSET(&s[1], INFO, 0, PRIV, TIPROF_PRIV_S);
	PMSET(&s[1], INFO, 0, TAGGED, 1);
	PMSET(&s[1], INFO, 0, CTX, 7);
	PMSET(&s[1], STAMP_A, 0, MAP, 1);
	PMSET(&s[1], STAMP_B, 0, END, 4);
	PMSET(&s[1], STAMP_B, 0, SEEN, 0x01);
	PMSET(&s[1], PC, 1, PC, 0x80002010);
	PMSET(&s[1], EA, 1, EA, 0x80200000);
	PMSET(&s[1], INFO, 1, EV, EVB(RETIRED) | EVB(STORE) | EVB(EA_VALID));
	PMSET(&s[1], INFO, 1, PRIV, TIPROF_PRIV_S);
	PMSET(&s[1], INFO, 1, TAGGED, 1);
	PMSET(&s[1], INFO, 1, SLOT, 1);
	PMSET(&s[1], INFO, 1, CTX, 7);
	PMSET(&s[1], INFO, 1, PATH, 3);
	PMSET(&s[1], STAMP_A, 1, MAP, 1);
	PMSET(&s[1], STAMP_A, 1, READY, 2);
	PMSET(&s[1], STAMP_A, 1, ISSUE, 3);
	PMSET(&s[1], STAMP_A, 1, COMPLETE, 9);
	PMSET(&s[1], STAMP_B, 1, MEM, 4);
	PMSET(&s[1], STAMP_B, 1, END, 12);
	PMSET(&s[1], STAMP_B, 1, SEEN, 0x1F);
}

static const struct tiprof_pm_counts golden_pm_counts = { 2, 1, 3, 4, 0 };

/* Offsets in the golden 1.2 image of its PM records (set by golden_bytes_v). */
static size_t g_off_pmcfg, g_off_pm0, g_off_pm1, g_off_pmcnt;

/* The bytes of the golden PM config record (docs/sample-file.md, "PM config record"). */
static void golden_pm_config_bytes(struct bytes *x)
{
	g_off_pmcfg = x->n;
	b_u8(x, 0x81);				/* 0  type */
	b_le(x, 30, 4);				/* 1  payload length */
	b_u8(x, 2);				/* 5  f */
	b_u8(x, 2);				/* 6  tags */
	b_le(x, 4, 2);				/* 7  fifo_depth */
	b_le(x, 0x48B3, 4);			/* 9  PM_CTRL: EN, MODE 1, PRIV 0xB, k 8, PAIR */
	b_le(x, 4096, 4);			/* 13 PM_PERIOD */
	b_le(x, 64, 4);				/* 17 PM_PAIR */
	b_le(x, 65535, 4);			/* 21 PM_TIMEOUT */
	b_le(x, 0, 4);				/* 25 PM_EVFILT */
	b_le(x, 0x6000A, 4);			/* 29 PM_LATFILT: SEL 6, THRESH 10 */
	b_le(x, 4, 2);				/* 33 issue_width */
}

/* The bytes of golden PM sample record k: the 12 record words of docs/profileme.md's
 * table, written out by hand. */
static void golden_pm_sample_bytes(struct bytes *x, unsigned k)
{
	static const uint64_t words[2][12] = {
		{ 0x1000, 0x1, 0x80001234, 0x80100040, 0x00F0ABCD01104281ull,
		  0x001E000600050002ull, 0x0000001F00210008ull, 0, 0, 0, 0, 0 },
		{ 0x2000, 0x0000000200050011ull, 0x80002000, 0, 0x0000000700150006ull,
		  0x1, 0x0000000100040000ull, 0x80002010, 0x80200000, 0x0003000701144401ull,
		  0x0009000300020001ull, 0x0000001F000C0004ull },
	};

	*(k ? &g_off_pm1 : &g_off_pm0) = x->n;
	b_u8(x, 0x82);				/* 0  type */
	b_le(x, 96, 4);				/* 1  payload length: 12 words */
	for (unsigned i = 0; i < 12; i++)
		b_le(x, words[k][i], 8);	/* 5 + 8i word i */
}

/* The bytes of the golden PM counts record. */
static void golden_pm_counts_bytes(struct bytes *x)
{
	g_off_pmcnt = x->n;
	b_u8(x, 0x83);				/* 0  type */
	b_le(x, 48, 4);				/* 1  payload length */
	b_le(x, 2, 8);				/* 5  PM sample records before it */
	b_le(x, 2, 8);				/* 13 taken */
	b_le(x, 1, 8);				/* 21 lost */
	b_le(x, 3, 8);				/* 29 filtered */
	b_le(x, 4, 8);				/* 37 collided */
	b_le(x, 0, 8);				/* 45 lost_sw */
}

/* The bytes of golden object record k (docs/sample-file.md, "Object record"). */
static void golden_object_bytes(struct bytes *x, unsigned k)
{
	if (k == 0) {
		b_u8(x, 0x80);				/* 0  type */
		b_le(x, 28 + 6 + 4, 4);			/* 1  payload length */
		b_le(x, 0x10000, 8);			/* 5  start */
		b_le(x, 0x12000, 8);			/* 13 end */
		b_le(x, 0, 8);				/* 21 bias */
		b_le(x, 6, 2);				/* 29 path_len */
		b_u8(x, 4);				/* 31 build_id_len */
		b_u8(x, 0);				/* 32 kind: main */
		b_raw(x, "/bin/x", 6);			/* 33 path */
		b_raw(x, "\xDE\xAD\xBE\xEF", 4);	/* 39 build-id */
	} else {
		b_u8(x, 0x80);
		b_le(x, 28 + 11, 4);
		b_le(x, 0x40001000, 8);
		b_le(x, 0x40100000, 8);
		b_le(x, 0x40000000, 8);
		b_le(x, 11, 2);
		b_u8(x, 0);
		b_u8(x, 2);				/* kind: mapped */
		b_raw(x, "/lib/libc.6", 11);
	}
}

/* The golden file's bytes, following docs/sample-file.md offset by offset: format 1.2
 * with an object record before the samples and one between them, a PM config record, a
 * PM sample after each sample and a PM counts record (minor 2); the 1.1 image without the
 * PM records (minor 1); or the 1.0 image of the same samples, which has neither. */
static void golden_bytes_v(struct bytes *x, unsigned minor)
{
	int v10 = minor == 0;

	static const uint8_t magic[8] = { 0x7F, 'T', 'I', 'P', 'R', 'O', 'F', '\n' };

	x->n = 0;
	/* header, fixed part */
	b_raw(x, magic, 8);			/* 0  magic */
	b_le(x, 1, 2);				/* 8  version_major */
	b_le(x, minor, 2);			/* 10 version_minor */
	b_le(x, 64 + 6 + 4, 4);			/* 12 header_size */
	b_u8(x, 2);				/* 16 w */
	b_u8(x, 32);				/* 17 xlen */
	b_le(x, 8, 2);				/* 18 fifo_depth */
	b_le(x, 0x00017119, 4);			/* 20 unit_id */
	b_le(x, 4096, 4);			/* 24 period */
	b_u8(x, 1);				/* 28 mode */
	b_u8(x, 8);				/* 29 rand_bits */
	b_u8(x, 0xB);				/* 30 priv_filter */
	b_u8(x, 1);				/* 31 source */
	b_le(x, 100000000, 8);			/* 32 clock_hz */
	b_le(x, 0x0102030405060708ull, 8);	/* 40 start_cycle */
	b_le(x, 1700000000123456789ull, 8);	/* 48 start_time_ns */
	b_le(x, 6, 2);				/* 56 elf_path_len */
	b_u8(x, 4);				/* 58 build_id_len */
	b_le(x, 0, 5);				/* 59 reserved */
	b_raw(x, "/bin/x", 6);			/* 64 elf path */
	b_raw(x, "\xDE\xAD\xBE\xEF", 4);	/* 70 build-id */
	if (!v10)
		golden_object_bytes(x, 0);
	if (minor >= 2)
		golden_pm_config_bytes(x);
	/* sample 0: computing */
	b_u8(x, 0x01);				/* type */
	b_u8(x, 0);				/* flags */
	b_u8(x, 1);				/* bank */
	b_u8(x, 3);				/* valid */
	b_u8(x, 0);				/* priv */
	b_le(x, 0xABCD, 2);			/* ctx */
	b_le(x, 0x1122334455667788ull, 8);	/* cycle */
	b_le(x, 0x80001000, 4);			/* slot 0 */
	b_le(x, 0x80000FFC, 4);			/* slot 1 */
	if (minor >= 2)
		golden_pm_sample_bytes(x, 0);
	if (!v10)
		golden_object_bytes(x, 1);
	/* sample 1: flushed */
	b_u8(x, 0x01);
	b_u8(x, TIPROF_SF_MISPRED);
	b_u8(x, 0);
	b_u8(x, 1);
	b_u8(x, 1);
	b_le(x, 7, 2);
	b_le(x, 4096, 8);
	b_le(x, 0xFFFFFFFE, 4);
	if (minor >= 2) {
		golden_pm_sample_bytes(x, 1);
		golden_pm_counts_bytes(x);
	}
	/* trailer */
	b_u8(x, 0x02);				/* type */
	b_le(x, 2, 8);				/* samples */
	b_le(x, 3, 8);				/* lost_unit */
	b_le(x, 4, 8);				/* lost_sw */
	b_le(x, 9, 8);				/* taken_unit */
	b_le(x, 0x100000000ull, 8);		/* end_cycle */
}

static void golden_bytes(struct bytes *x)
{
	golden_bytes_v(x, SF_VERSION_MINOR);
}

static const struct sf_trailer golden_trailer = { 999, 3, 4, 9, 0x100000000ull };

/* Write the golden file with the writer; 0 on success. */
static int write_golden(const char *path)
{
	struct sf_header h;
	struct tiprof_sample s[2];
	struct sf_object o[2];
	struct tiprof_pm_config c;
	struct tiprof_pm_sample pm[2];
	struct sf_writer w;

	golden_header(&h);
	golden_samples(s);
	golden_objects(o);
	golden_pm_config(&c);
	golden_pm_samples(pm);
	if (sf_writer_open(&w, path, &h) || sf_writer_object(&w, &o[0]) ||
	    sf_writer_pm_config(&w, &c) || sf_writer_sample(&w, &s[0]) ||
	    sf_writer_pm_sample(&w, &pm[0]) || sf_writer_object(&w, &o[1]) ||
	    sf_writer_sample(&w, &s[1]) || sf_writer_pm_sample(&w, &pm[1]) ||
	    sf_writer_pm_counts(&w, &golden_pm_counts)) {
		printf("  %s\n", w.msg);
		sf_writer_abort(&w);
		return -1;
	}
	return sf_writer_close(&w, &golden_trailer);
}

static void test_golden(const char *dir)
{
	char path[512];
	struct bytes want;
	uint8_t *got;
	size_t n;

	tc_section("golden file: the writer's bytes equal docs/sample-file.md's layout");
	snprintf(path, sizeof(path), "%s/golden.tps", dir);
	golden_bytes(&want);
	CHECK(write_golden(path) == 0, "write the golden file");
	got = tc_slurp(path, &n);
	CHECK(got != NULL, "read it back");
	CHECK_EQ(n, want.n, "file size");
	if (got && n == want.n) {
		size_t i;

		for (i = 0; i < n && got[i] == want.b[i]; i++)
			;
		CHECK(i == n, "first difference at byte %zu: 0x%02x, want 0x%02x", i,
		      i < n ? got[i] : 0, i < n ? want.b[i] : 0);
	}
	free(got);
	/* 1.0 (no object records) and 1.1 (no PM records) files still read, samples and
	 * trailer alike; and the 1.2 image with its minor patched to 1 or 0 reads as a 1.1 or
	 * 1.0 reader reads it: the records it does not know are length-prefixed extension
	 * records (0x80..0xFE) and are skipped, the samples and the trailer are unchanged */
	for (unsigned v = 0; v < 4; v++) {
		struct sf_reader rd;
		struct sf_record rec;
		struct tiprof_sample s[2];
		unsigned ns = 0, no = 0, npm = 0, good = 1;
		unsigned minor = v < 2 ? v : v - 2;	/* 0, 1: old images; 2, 3: 1.2 patched */
		int ret;

		golden_bytes_v(&want, v < 2 ? v : SF_VERSION_MINOR);
		want.b[10] = (uint8_t)minor;
		snprintf(path, sizeof(path), "%s/golden-old-%u.tps", dir, v);
		CHECK(spit(path, want.b, want.n) == 0, "write the image");
		ret = sf_reader_open(&rd, path);
		golden_samples(s);
		CHECK(ret == 0, "open 1.%u: %s", minor, sf_reader_error(&rd));
		while (ret >= 0 && (ret = sf_reader_next_record(&rd, &rec)) == 1) {
			if (rec.type == SF_REC_OBJECT)
				no++;
			else if (rec.type != SF_REC_SAMPLE)
				npm++;
			else if (ns < 2)
				good &= sample_equal(&rec.sample, &s[ns++]);
		}
		CHECK(ret == 0 && ns == 2 && no == (minor ? 2u : 0u) && npm == 0 && good &&
		      rd.hdr.version_minor == minor && rd.trailer.samples == 2 &&
		      rd.ext_records == (v < 2 ? 0u : minor ? 4u : 6u),
		      "%s 1.%u file reads: %d %u samples %u objects %u PM %llu skipped %s",
		      v < 2 ? "a" : "the 1.2 image as a", minor, ret, ns, no, npm,
		      (unsigned long long)rd.ext_records, sf_reader_error(&rd));
		sf_reader_close(&rd);
	}
	/* the 1.2 golden file through both reader entry points */
	snprintf(path, sizeof(path), "%s/golden.tps", dir);
	{
		struct sf_reader rd;
		struct sf_record rec;
		struct tiprof_sample smp;
		struct sf_object o[2];
		struct tiprof_pm_config c;
		struct tiprof_pm_sample pm[2];
		unsigned ns = 0, no = 0, npm = 0, ncfg = 0, ncnt = 0, good = 1;
		char order[16] = "";
		int ret = sf_reader_open(&rd, path);

		golden_objects(o);
		golden_pm_config(&c);
		golden_pm_samples(pm);
		while (ret >= 0 && (ret = sf_reader_next_record(&rd, &rec)) == 1) {
			static const char code[] = "SOCPN";
			size_t len = strlen(order);

			if (len < sizeof(order) - 1) {
				order[len] = code[rec.type == SF_REC_SAMPLE ? 0 :
						  rec.type == SF_REC_OBJECT ? 1 :
						  rec.type == SF_REC_PM_CONFIG ? 2 :
						  rec.type == SF_REC_PM_SAMPLE ? 3 : 4];
				order[len + 1] = '\0';
			}
			if (rec.type == SF_REC_SAMPLE) {
				ns++;
			} else if (rec.type == SF_REC_OBJECT) {
				good &= no < 2 && object_equal(&rec.object, &o[no]);
				no++;
			} else if (rec.type == SF_REC_PM_CONFIG) {
				good &= memcmp(&rec.pm_config, &c, sizeof(c)) == 0;
				ncfg++;
			} else if (rec.type == SF_REC_PM_SAMPLE) {
				good &= npm < 2 && memcmp(&rec.pm_sample, &pm[npm], sizeof(pm[0])) == 0;
				npm++;
			} else {
				good &= rec.type == SF_REC_PM_COUNTS && rec.pm_count_samples == 2 &&
					memcmp(&rec.pm_counts, &golden_pm_counts,
					       sizeof(golden_pm_counts)) == 0;
				ncnt++;
			}
		}
		CHECK(ret == 0 && ns == 2 && no == 2 && npm == 2 && ncfg == 1 && ncnt == 1 && good,
		      "objects and PM records read back: %d %u %u %u %s", ret, ns, no, npm,
		      sf_reader_error(&rd));
		CHECK(strcmp(order, "OCSPOSPN") == 0, "records in file order: %s", order);
		CHECK(rd.pm_samples == 2 && rd.has_pm_config && rd.has_pm_counts &&
		      rd.pm_config.period == 4096 && rd.pm_counts.collided == 4,
		      "reader keeps the PM config and counts");
		sf_reader_close(&rd);
		ns = 0;
		ret = sf_reader_open(&rd, path);
		while (ret >= 0 && (ret = sf_reader_next(&rd, &smp)) == 1)
			ns++;
		CHECK(ret == 0 && ns == 2 && rd.objects == 2 && rd.pm_samples == 2,
		      "sf_reader_next skips objects and PM records: %d %u", ret, ns);
		sf_reader_close(&rd);
	}
}

/* ---------------------------------------------------------------- random files */

/* A random sample of commit state st valid for h. */
static void random_sample(struct tc_rng *r, const struct sf_header *h, unsigned st,
			  struct tiprof_sample *s)
{
	static const uint8_t fl[] = { TIPROF_SF_MISPRED, TIPROF_SF_FLUSH,
				      TIPROF_SF_MISPRED | TIPROF_SF_FLUSH, TIPROF_SF_EXCEPTION };
	uint64_t am = h->xlen == 64 ? ~0ull : 0xFFFFFFFFull;
	unsigned wm = (1u << h->w) - 1u;

	memset(s, 0, sizeof(*s));
	s->cycle = tc_rand(r);
	s->priv = (uint8_t)tc_below(r, 4);
	s->ctx = (uint16_t)tc_rand(r);
	switch (st) {
	case 0:
	case 1:
		s->flags = st ? TIPROF_SF_STALLED : 0;
		s->bank = (uint8_t)tc_below(r, h->w);
		s->valid = (uint8_t)(1 + tc_below(r, wm));
		break;
	case 2:
		s->flags = fl[tc_below(r, 4)];
		s->valid = 1;
		break;
	default:
		s->flags = TIPROF_SF_FRONTEND;
		s->bank = (uint8_t)tc_below(r, h->w);
		s->valid = (uint8_t)(1u << s->bank);
		break;
	}
	for (unsigned i = 0; i < h->w; i++)
		if ((s->valid >> i) & 1u)
			s->addr[i] = tc_rand(r) & am;
}

/* A random object record valid for h. */
static void random_object(struct tc_rng *r, const struct sf_header *h, struct sf_object *o)
{
	uint64_t am = h->xlen == 64 ? ~0ull : 0xFFFFFFFFull;

	memset(o, 0, sizeof(*o));
	o->start = tc_rand(r) & am & ~0xFFFull;
	if (o->start == (am & ~0xFFFull))
		o->start -= 0x1000;
	o->end = o->start + 1 + tc_below(r, 0xFFF);
	o->bias = tc_rand(r) & am;
	o->kind = (uint8_t)tc_below(r, 3);
	o->path_len = (uint16_t)(tc_chance(r, 50) ? SF_PATH_MAX : tc_below(r, 60));
	for (unsigned i = 0; i < o->path_len; i++)
		o->path[i] = (char)(1 + tc_below(r, 255));
	o->path[o->path_len] = '\0';
	o->build_id_len = (uint8_t)(tc_chance(r, 50) ? SF_BUILD_ID_MAX : tc_below(r, 21));
	for (unsigned i = 0; i < o->build_id_len; i++)
		o->build_id[i] = (uint8_t)tc_rand(r);
}

/* A random ProfileMe configuration (valid). */
static void random_pm_config(struct tc_rng *r, struct tiprof_pm_config *c)
{
	static const uint8_t fs[] = { 1, 2, 4, 8 };

	memset(c, 0, sizeof(*c));
	c->f = fs[tc_below(r, 4)];
	c->tags = (uint8_t)(1 + tc_below(r, 2));
	c->fifo_depth = (uint16_t)(1 + tc_below(r, 65535));
	c->ctrl = (uint32_t)tc_below(r, 2) << TIPROF_PM_CTRL_EN_SHIFT |
		  (uint32_t)tc_below(r, 3) << TIPROF_PM_CTRL_MODE_SHIFT |
		  (uint32_t)tc_below(r, 2) << TIPROF_PM_CTRL_IRQ_EN_SHIFT |
		  (uint32_t)tc_below(r, 16) << TIPROF_PM_CTRL_PRIV_SHIFT |
		  (uint32_t)tc_below(r, 32) << TIPROF_PM_CTRL_RAND_BITS_SHIFT |
		  (uint32_t)tc_below(r, 2) << TIPROF_PM_CTRL_UNIT_SHIFT |
		  (uint32_t)(c->tags == 2 ? tc_below(r, 2) : 0) << TIPROF_PM_CTRL_PAIR_SHIFT;
	c->period = c->f + (uint32_t)tc_below(r, 100000);
	c->pair = (uint32_t)(1 + tc_below(r, 256));
	c->timeout = (uint32_t)(1 + tc_below(r, 65535));
	c->evfilt = (uint32_t)tc_rand(r);
	c->latfilt = (uint32_t)tc_below(r, 65536) | (uint32_t)tc_below(r, 7) << 16 |
		     (uint32_t)tc_below(r, 2) << 19;
	c->issue_width = (uint16_t)tc_below(r, 9);
}

/* Random profile p of a ProfileMe sample valid for h and c. */
static void random_pm_profile(struct tc_rng *r, const struct sf_header *h,
			      const struct tiprof_pm_config *c, struct tiprof_pm_sample *s,
			      unsigned p)
{
	static const unsigned ends[] = { TIPROF_PM_EV_RETIRED, TIPROF_PM_EV_ABORTED,
					 TIPROF_PM_EV_TIMEOUT, TIPROF_PM_EV_EMPTY };
	uint64_t am = h->xlen == 64 ? ~0ull : 0xFFFFFFFFull;
	unsigned end = ends[tc_below(r, 4)];
	unsigned ev = 1u << end | ((unsigned)tc_rand(r) & 0x7FE4u);

	PMSET(s, PC, p, PC, tc_rand(r) & am);
	PMSET(s, EA, p, EA, tc_rand(r) & am);
	PMSET(s, INFO, p, EV, ev);
	PMSET(s, INFO, p, REASON, end == TIPROF_PM_EV_ABORTED ? tc_below(r, 4) : 0);
	PMSET(s, INFO, p, PRIV, tc_below(r, 4));
	PMSET(s, INFO, p, TAGGED, tc_below(r, 2));
	PMSET(s, INFO, p, SLOT, tc_below(r, c->f));
	PMSET(s, INFO, p, CTX, tc_rand(r));
	PMSET(s, INFO, p, PATH, tc_rand(r));
	s->w[TIPROF_PM_REC_STAMP_A + p * TIPROF_PM_REC_PROFILE_STRIDE] = tc_rand(r);
	PMSET(s, STAMP_B, p, MEM, tc_rand(r));
	PMSET(s, STAMP_B, p, END, tc_rand(r));
	PMSET(s, STAMP_B, p, SEEN, tc_rand(r));
}

/* A random ProfileMe sample valid for h and c. */
static void random_pm_sample(struct tc_rng *r, const struct sf_header *h,
			     const struct tiprof_pm_config *c, struct tiprof_pm_sample *s)
{
	int pair = c->tags == 2 && tc_chance(r, 500);

	memset(s, 0, sizeof(*s));
	s->w[TIPROF_PM_REC_CYCLE] = tc_rand(r);
	PMSET(s, SINFO, 0, FMT, TIPROF_PM_REC_FMT);
	if (pair) {
		PMSET(s, SINFO, 0, PAIR, 1);
		PMSET(s, SINFO, 0, PAIR_DIST, 1 + tc_below(r, 256));
		PMSET(s, SINFO, 0, PAIR_CYCLES, tc_rand(r));
		random_pm_profile(r, h, c, s, 1);
	}
	random_pm_profile(r, h, c, s, 0);
}

static void random_header(struct tc_rng *r, struct sf_header *h, unsigned w, unsigned xlen)
{
	sf_header_init(h);
	h->w = (uint8_t)w;
	h->xlen = (uint8_t)xlen;
	h->fifo_depth = (uint16_t)(1 + tc_below(r, 65535));
	h->unit_id = (uint32_t)tc_rand(r);
	h->period = (uint32_t)tc_rand(r) | 1u;
	h->mode = (uint8_t)tc_below(r, 3);
	h->rand_bits = (uint8_t)tc_below(r, 32);
	h->priv_filter = (uint8_t)tc_below(r, 16);
	h->source = (uint8_t)tc_below(r, 3);
	h->clock_hz = tc_rand(r);
	h->start_cycle = tc_rand(r);
	h->start_time_ns = tc_rand(r);
	h->elf_path_len = (uint16_t)(tc_chance(r, 100) ? SF_PATH_MAX : tc_below(r, 80));
	for (unsigned i = 0; i < h->elf_path_len; i++)
		h->elf_path[i] = (char)(1 + tc_below(r, 255));
	h->elf_path[h->elf_path_len] = '\0';
	h->build_id_len = (uint8_t)(tc_chance(r, 100) ? SF_BUILD_ID_MAX : tc_below(r, 21));
	for (unsigned i = 0; i < h->build_id_len; i++)
		h->build_id[i] = (uint8_t)tc_rand(r);
}

static int header_equal(const struct sf_header *a, const struct sf_header *b)
{
	return a->w == b->w && a->xlen == b->xlen && a->fifo_depth == b->fifo_depth &&
	       a->unit_id == b->unit_id && a->period == b->period && a->mode == b->mode &&
	       a->rand_bits == b->rand_bits && a->priv_filter == b->priv_filter &&
	       a->source == b->source && a->clock_hz == b->clock_hz &&
	       a->start_cycle == b->start_cycle && a->start_time_ns == b->start_time_ns &&
	       a->elf_path_len == b->elf_path_len && a->build_id_len == b->build_id_len &&
	       memcmp(a->elf_path, b->elf_path, a->elf_path_len + 1u) == 0 &&
	       memcmp(a->build_id, b->build_id, a->build_id_len) == 0 &&
	       b->version_major == SF_VERSION_MAJOR && b->version_minor == SF_VERSION_MINOR;
}

static int sample_equal(const struct tiprof_sample *a, const struct tiprof_sample *b)
{
	return a->cycle == b->cycle && a->flags == b->flags && a->bank == b->bank &&
	       a->valid == b->valid && a->priv == b->priv && a->ctx == b->ctx &&
	       memcmp(a->addr, b->addr, sizeof(a->addr)) == 0;
}

static void test_round_trip(const char *dir)
{
	static const unsigned ws[] = { 1, 2, 4, 8 }, xlens[] = { 32, 64 };
	struct tc_rng r = { 12345 };
	char path[512];
	static struct tiprof_sample s[600];
	static struct sf_object ob[6];
	static struct sf_record rec;
	static struct tiprof_pm_sample pm[600];
	unsigned files = 0, bad = 0, objs = 0, pmfiles = 0;
	uint64_t total = 0, pmtotal = 0;

	tc_section("round trip: random files, every W and XLEN, every commit state, objects");
	snprintf(path, sizeof(path), "%s/rt.tps", dir);
	for (unsigned it = 0; it < 64; it++) {
		struct sf_header h, hr;
		struct sf_writer w;
		struct sf_reader rd;
		struct sf_trailer t = { 0, tc_rand(&r), tc_rand(&r), tc_rand(&r), tc_rand(&r) };
		unsigned n = tc_chance(&r, 100) ? 0 : tc_below(&r, 600);
		unsigned no = tc_below(&r, 7), at[6], io = 0, is = 0;
		/* ProfileMe records in half the files: the config before PM sample cfg_at,
		 * PM sample k after TIP sample pm_at(k), the counts at the end in half of them */
		int has_pm = tc_chance(&r, 500), has_cnt = tc_chance(&r, 500);
		unsigned npm = has_pm ? tc_below(&r, 600) : 0, ip = 0, jp = 0, cfg_seen = 0;
		struct tiprof_pm_config cfg;
		struct tiprof_pm_counts cnt = { tc_rand(&r), tc_rand(&r), tc_rand(&r), tc_rand(&r),
						tc_rand(&r) };
		int ret = 0, ok = 1;

		random_header(&r, &h, ws[it % 4], xlens[(it / 4) % 2]);
		for (unsigned i = 0; i < n; i++)
			random_sample(&r, &h, tc_below(&r, 4), &s[i]);
		random_pm_config(&r, &cfg);
		for (unsigned k = 0; k < npm; k++)
			random_pm_sample(&r, &h, &cfg, &pm[k]);
		for (unsigned k = 0; k < no; k++) {
			random_object(&r, &h, &ob[k]);
			at[k] = tc_below(&r, n + 1);	/* written before sample at[k] */
			if (k && at[k] < at[k - 1])
				at[k] = at[k - 1];
		}
		if (sf_writer_open(&w, path, &h)) {
			CHECK(0, "writer: %s", w.msg);
			continue;
		}
		if (has_pm)
			ret = sf_writer_pm_config(&w, &cfg);
		for (unsigned i = 0; i <= n && !ret; i++) {
			while (io < no && at[io] == i && !ret)
				ret = sf_writer_object(&w, &ob[io++]);
			if (i < n && !ret)
				ret = sf_writer_sample(&w, &s[i]);
			/* PM samples spread among the TIP samples, the rest at the end */
			while (!ret && ip < npm && (i == n || tc_chance(&r, 500)))
				ret = sf_writer_pm_sample(&w, &pm[ip++]);
		}
		if (!ret && has_pm && has_cnt)
			ret = sf_writer_pm_counts(&w, &cnt);
		ok &= CHECK(ret == 0, "write samples, objects and PM records: %s", w.msg);
		ok &= CHECK(w.pm_samples == npm, "writer counts PM samples");
		ok &= CHECK(sf_writer_close(&w, &t) == 0, "close: %s", w.msg);
		if (sf_reader_open(&rd, path)) {
			CHECK(0, "reader: %s", sf_reader_error(&rd));
			sf_reader_close(&rd);
			continue;
		}
		hr = rd.hdr;
		ok &= header_equal(&h, &hr);
		io = 0;
		while ((ret = sf_reader_next_record(&rd, &rec)) == 1) {
			if (rec.type == SF_REC_OBJECT) {
				/* in file order, before the sample it was written before */
				if (io >= no || at[io] != is || !object_equal(&rec.object, &ob[io]))
					ok = 0;
				io++;
			} else if (rec.type == SF_REC_PM_CONFIG) {
				ok &= !cfg_seen++ && memcmp(&rec.pm_config, &cfg, sizeof(cfg)) == 0;
			} else if (rec.type == SF_REC_PM_SAMPLE) {
				ok &= jp < npm && memcmp(&rec.pm_sample, &pm[jp++], sizeof(pm[0])) == 0;
			} else if (rec.type == SF_REC_PM_COUNTS) {
				ok &= has_cnt && jp == npm && rec.pm_count_samples == npm &&
				      memcmp(&rec.pm_counts, &cnt, sizeof(cnt)) == 0;
			} else if (is >= n || !sample_equal(&rec.sample, &s[is++])) {
				ok = 0;
			}
		}
		ok &= CHECK(ret == 0, "end of file: %d %s", ret, sf_reader_error(&rd));
		ok &= is == n && io == no && jp == npm && rd.pm_samples == npm &&
		      cfg_seen == (unsigned)has_pm && rd.has_pm_counts == (has_pm && has_cnt);
		t.samples = n;
		ok &= memcmp(&rd.trailer, &t, sizeof(t)) == 0;
		sf_reader_close(&rd);
		bad += !ok;
		files++;
		total += n;
		objs += no;
		pmfiles += (unsigned)has_pm;
		pmtotal += npm;
	}
	CHECK(bad == 0, "%u of %u files did not read back equal", bad, files);
	printf("  %u files, %llu samples, %u object records; %u files with %llu PM samples\n",
	       files, (unsigned long long)total, objs, pmfiles, (unsigned long long)pmtotal);
}

/* ---------------------------------------------------------------- truncation */

/* Decode buf[0..len) with the codecs as far as possible; returns the status that
 * stopped it (0 if the whole image decoded through its trailer). */
static int decode_all(const uint8_t *buf, size_t len)
{
	struct sf_header h;
	struct sf_record rec;
	size_t pos;
	int ret = sf_header_decode(buf, len, &h, NULL);

	if (ret < 0)
		return ret;
	pos = (size_t)ret;
	for (;;) {
		ret = sf_record_decode(&h, buf + pos, len - pos, &rec, NULL);
		if (ret < 0)
			return ret;
		pos += (size_t)ret;
		if (rec.type == SF_REC_TRAILER)
			return pos == len ? 0 : SF_ETRAILING;
	}
}

/* Read a whole image through the reader (fmemopen); returns the final status. */
static int read_all_mem(const uint8_t *buf, size_t len, const char *name, char *msg,
			size_t msgsz)
{
	struct sf_reader rd;
	struct tiprof_sample s;
	FILE *fp = len ? fmemopen((void *)buf, len, "rb") : fopen("/dev/null", "rb");
	int ret;

	if (!fp)
		return -100;
	ret = sf_reader_open_stream(&rd, fp, name);
	if (ret == 0)
		while ((ret = sf_reader_next(&rd, &s)) == 1)
			;
	if (msg)
		snprintf(msg, msgsz, "%s", sf_reader_error(&rd));
	sf_reader_close(&rd);
	fclose(fp);
	return ret;
}

/* A file with W=4 XLEN=64, a few samples of every state, three object records, a PM
 * config, three PM samples and a PM counts record. */
static void build_file(const char *path, uint8_t **img, size_t *n)
{
	struct tc_rng r = { 99 };
	struct sf_header h;
	struct sf_writer w;
	struct tiprof_sample s;
	struct sf_trailer t = { 0, 1, 2, 3, 4 };

	sf_header_init(&h);
	h.w = 4;
	h.xlen = 64;
	h.fifo_depth = 16;
	h.elf_path_len = 3;
	memcpy(h.elf_path, "a.o", 4);
	h.build_id_len = 20;
	CHECK(sf_writer_open(&w, path, &h) == 0, "open");
	for (unsigned i = 0; i < 12; i++) {
		if (i == 2) {		/* ProfileMe records among the samples */
			struct tiprof_pm_config c;

			random_pm_config(&r, &c);
			c.tags = 2;
			CHECK(sf_writer_pm_config(&w, &c) == 0, "PM config: %s", w.msg);
		}
		if (i >= 2 && i % 3 == 0) {
			struct tiprof_pm_sample pm;

			random_pm_sample(&r, &h, &w.pm_cfg, &pm);
			CHECK(sf_writer_pm_sample(&w, &pm) == 0, "PM sample: %s", w.msg);
		}
		if (i == 11) {
			struct tiprof_pm_counts cn = { 1, 2, 3, 4, 5 };

			CHECK(sf_writer_pm_counts(&w, &cn) == 0, "PM counts: %s", w.msg);
		}
		if (i % 5 == 0) {	/* object records among the samples */
			struct sf_object o;

			random_object(&r, &h, &o);
			o.path_len = (uint16_t)(o.path_len % 40);
			o.path[o.path_len] = '\0';
			CHECK(sf_writer_object(&w, &o) == 0, "object: %s", w.msg);
		}
		random_sample(&r, &h, i % 4, &s);
		sf_writer_sample(&w, &s);
	}
	CHECK(sf_writer_close(&w, &t) == 0, "close");
	*img = tc_slurp(path, n);
}

static void test_truncation(const char *dir)
{
	char path[512], msg[512];
	uint8_t *img;
	size_t n, bad_codec = 0, bad_reader = 0, bad_msg = 0;

	tc_section("truncation at every byte offset: 'need more' / truncated, never a crash");
	snprintf(path, sizeof(path), "%s/trunc.tps", dir);
	build_file(path, &img, &n);
	if (!CHECK(img && n > 100, "test file"))
		return;
	CHECK_EQ(decode_all(img, n), 0, "whole image decodes");
	CHECK_EQ(read_all_mem(img, n, "whole.tps", NULL, 0), 0, "whole image reads");
	for (size_t len = 0; len < n; len++) {
		uint8_t *cut = malloc(len ? len : 1);	/* exact size: ASan sees overreads */

		memcpy(cut, img, len);
		if (decode_all(cut, len) != SF_ENEED) {
			if (bad_codec++ < 3)
				printf("  prefix %zu: codec status %d\n", len, decode_all(cut, len));
		}
		if (read_all_mem(cut, len, "cut.tps", msg, sizeof(msg)) != SF_ETRUNC) {
			if (bad_reader++ < 3)
				printf("  prefix %zu: reader: %s\n", len, msg);
		}
		bad_msg += !one_line_naming(msg, "cut.tps");
		free(cut);
	}
	CHECK(bad_codec == 0, "%zu prefixes gave a codec status other than SF_ENEED", bad_codec);
	CHECK(bad_reader == 0, "%zu prefixes not reported as truncated", bad_reader);
	CHECK(bad_msg == 0, "%zu messages not one line naming the file", bad_msg);
	/* the file on disk, cut in the middle of a record */
	spit(path, img, n - 7);
	{
		struct sf_reader rd;
		struct tiprof_sample s;
		int ret = sf_reader_open(&rd, path);

		if (ret == 0)
			while ((ret = sf_reader_next(&rd, &s)) == 1)
				;
		CHECK_EQ(ret, SF_ETRUNC, "file cut in its trailer");
		CHECK(strstr(sf_reader_error(&rd), "truncated") != NULL &&
		      one_line_naming(sf_reader_error(&rd), path), "message: %s",
		      sf_reader_error(&rd));
		printf("  e.g. %s\n", sf_reader_error(&rd));
		sf_reader_close(&rd);
	}
	free(img);
}

/* ---------------------------------------------------------------- corruption */

static void test_corruption(const char *dir)
{
	struct tc_rng r = { 4242 };
	char path[512];
	uint8_t *img;
	size_t n;
	unsigned outcomes[16] = { 0 };

	tc_section("random corruption and garbage: every outcome is a status, never a crash");
	snprintf(path, sizeof(path), "%s/corrupt.tps", dir);
	build_file(path, &img, &n);
	if (!img)
		return;
	for (unsigned it = 0; it < 20000; it++) {
		size_t len = tc_chance(&r, 100) ? tc_below(&r, (unsigned)n * 2) : n;
		uint8_t *c = malloc(len ? len : 1);
		int ret;

		for (size_t i = 0; i < len; i++)
			c[i] = i < n ? img[i] : (uint8_t)tc_rand(&r);
		for (unsigned k = 1 + tc_below(&r, 4); k && len; k--) {
			size_t at = tc_below(&r, (unsigned)len);

			if (tc_chance(&r, 500))
				c[at] ^= (uint8_t)(1u << tc_below(&r, 8));
			else
				c[at] = (uint8_t)tc_rand(&r);
		}
		if (tc_chance(&r, 50))		/* pure garbage with a valid magic */
			for (size_t i = SF_MAGIC_LEN; i < len; i++)
				c[i] = (uint8_t)tc_rand(&r);
		decode_all(c, len);
		ret = read_all_mem(c, len, "x", NULL, 0);
		outcomes[-ret < 16 && ret <= 0 ? -ret : 15]++;
		free(c);
	}
	printf("  outcomes: ok %u, magic %u, version %u, header %u, record %u, truncated %u, "
	       "count %u, trailing %u\n", outcomes[0], outcomes[-SF_EMAGIC],
	       outcomes[-SF_EVERSION], outcomes[-SF_EHEADER], outcomes[-SF_ERECORD],
	       outcomes[-SF_ETRUNC], outcomes[-SF_ECOUNT], outcomes[-SF_ETRAILING]);
	CHECK(outcomes[15] == 0 && outcomes[-SF_EIO] == 0 && outcomes[-SF_ENOMEM] == 0,
	      "unexpected statuses");
	CHECK(outcomes[-SF_ERECORD] && outcomes[-SF_ETRUNC] && outcomes[-SF_EHEADER],
	      "corruption reached records, truncation and the header");
	free(img);
}

/* ---------------------------------------------------------------- foreign, newer */

static void test_foreign(const char *dir)
{
	char path[512], msg[512];
	struct bytes g;
	uint8_t *elf;
	size_t n;
	int ret;

	tc_section("foreign and unusual files: ELF, text, newer version, bad trailer, extension");
	elf = tc_slurp("/proc/self/exe", &n);
	CHECK(elf && n > 64, "read an ELF");
	if (elf) {
		ret = read_all_mem(elf, n, "prog", msg, sizeof(msg));
		CHECK_EQ(ret, SF_EMAGIC, "ELF");
		CHECK(strstr(msg, "ELF") && one_line_naming(msg, "prog"), "message: %s", msg);
		printf("  e.g. %s\n", msg);
		CHECK_EQ(decode_all(elf, n), SF_EMAGIC, "ELF, codec");
		CHECK_EQ(decode_all(elf, 1), SF_ENEED, "ELF's 0x7f alone could be a sample file");
		CHECK_EQ(decode_all(elf, 2), SF_EMAGIC, "ELF, two bytes are enough");
		free(elf);
	}
	CHECK_EQ(read_all_mem((const uint8_t *)"hello\n", 6, "t", NULL, 0), SF_EMAGIC, "text");
	CHECK_EQ(decode_all((const uint8_t *)"\x7fTIP", 4), SF_ENEED, "magic prefix");
	ret = read_all_mem(NULL, 0, "empty.tps", msg, sizeof(msg));
	CHECK(ret == SF_ETRUNC && strstr(msg, "empty"), "empty file: %s", msg);

	golden_bytes(&g);
	g.b[8] = 2;	/* version 2.0 */
	g.b[10] = 0;
	ret = read_all_mem(g.b, g.n, "new.tps", msg, sizeof(msg));
	CHECK(ret == SF_EVERSION && strstr(msg, "2.0"), "newer major: %s", msg);
	printf("  e.g. %s\n", msg);
	golden_bytes(&g);
	g.b[10] = 3;	/* version 1.3: readable */
	CHECK_EQ(read_all_mem(g.b, g.n, "minor.tps", NULL, 0), 0, "newer minor");
	golden_bytes(&g);
	g.b[16] = 3;	/* W = 3 */
	ret = read_all_mem(g.b, g.n, "w3.tps", msg, sizeof(msg));
	CHECK(ret == SF_EHEADER && strstr(msg, "W must"), "bad W: %s", msg);
	golden_bytes(&g);
	g.b[g.n - 40] = 5;	/* trailer counts 5 samples */
	ret = read_all_mem(g.b, g.n, "cnt.tps", msg, sizeof(msg));
	CHECK(ret == SF_ECOUNT, "count mismatch: %s", msg);
	golden_bytes(&g);
	b_u8(&g, 0);
	CHECK_EQ(read_all_mem(g.b, g.n, "tail.tps", NULL, 0), SF_ETRAILING, "data after trailer");
	/* a header that is longer than this version's (a newer minor's fields) */
	golden_bytes(&g);
	{
		struct bytes x = { .n = 0 };

		b_raw(&x, g.b, 74);
		b_le(&x, 0x1234, 4);		/* 4 unknown header bytes */
		b_raw(&x, g.b + 74, g.n - 74);
		x.b[12] = 78;			/* header_size */
		CHECK_EQ(read_all_mem(x.b, x.n, "long.tps", NULL, 0), 0, "longer header skipped");
		x.b[12] = 73;			/* shorter than its contents */
		CHECK_EQ(read_all_mem(x.b, x.n, "short.tps", NULL, 0), SF_EHEADER,
			 "header_size too small");
	}
	/* an extension record of a type this version does not know is skipped; in a 1.0
	 * file so is type 0x80 (1.0 defines no extension); in 1.1 it is an object record */
	{
		struct bytes x = { .n = 0 };
		size_t trailer = g.n - SF_TRAILER_SIZE;

		b_raw(&x, g.b, trailer);
		b_u8(&x, 0x84);
		b_le(&x, 3, 4);
		b_raw(&x, "abc", 3);
		b_raw(&x, g.b + trailer, SF_TRAILER_SIZE);
		CHECK_EQ(read_all_mem(x.b, x.n, "ext.tps", NULL, 0), 0, "unknown extension record");
		x.b[trailer] = 0x80;		/* an object record of 3 bytes */
		ret = read_all_mem(x.b, x.n, "obj.tps", msg, sizeof(msg));
		CHECK(ret == SF_ERECORD && strstr(msg, "shorter"), "short object record: %s", msg);
		x.b[10] = 0;			/* the same bytes in a 1.0 file */
		CHECK_EQ(read_all_mem(x.b, x.n, "ext10.tps", NULL, 0), 0,
			 "type 0x80 skipped in a 1.0 file");
		x.b[10] = 1;			/* a 3-byte PM config: skipped in 1.1 */
		x.b[trailer] = 0x81;
		CHECK_EQ(read_all_mem(x.b, x.n, "ext11.tps", NULL, 0), 0,
			 "type 0x81 skipped in a 1.1 file");
		x.b[10] = 2;			/* bad in 1.2 */
		ret = read_all_mem(x.b, x.n, "pmc.tps", msg, sizeof(msg));
		CHECK(ret == SF_ERECORD && strstr(msg, "shorter"), "short PM config: %s", msg);
		x.b[10] = 1;
		x.b[trailer] = 0x03;		/* an unknown non-extension type */
		ret = read_all_mem(x.b, x.n, "rec.tps", msg, sizeof(msg));
		CHECK(ret == SF_ERECORD && strstr(msg, "unknown record type"), "bad type: %s", msg);
	}
	/* malformed object records: the golden file's first one changed */
	{
		size_t o0 = 74;			/* after the header */
		struct {
			size_t off;		/* byte of the golden image to change */
			unsigned val;		/* its new value */
			const char *want;	/* in the message */
		} c[] = {
			{ o0 + 5 + 8 + 2, 0, "empty" },		/* end 0x10000 = start */
			{ o0 + 5 + 8 + 4, 0xFF, "XLEN" },	/* end beyond 2^32 */
			{ o0 + 5 + 27, 3, "kind" },		/* kind 3 */
			{ o0 + 5 + 28 + 2, 0, "NUL" },		/* a NUL in the path */
			{ o0 + 5 + 24, 7, "overrun" },		/* path_len 7: one too many */
			{ o0 + 5 + 26, 5, "overrun" },		/* build-id 5 bytes */
			{ o0 + 1, 27, "shorter" },		/* payload 27 < 28 */
		};

		for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
			golden_bytes(&g);
			g.b[c[k].off] = (uint8_t)c[k].val;
			ret = read_all_mem(g.b, g.n, "o.tps", msg, sizeof(msg));
			CHECK(ret == SF_ERECORD && strstr(msg, c[k].want), "object case %zu: %d %s",
			      k, ret, msg);
		}
		printf("  e.g. %s\n", msg);
		/* a longer payload (a later minor's fields after the build-id) is skipped */
		{
			struct bytes x = { .n = 0 };
			size_t end0 = o0 + 5 + 28 + 6 + 4;

			golden_bytes(&g);
			b_raw(&x, g.b, end0);
			b_le(&x, 0xABCDEF, 3);
			b_raw(&x, g.b + end0, g.n - end0);
			x.b[o0 + 1] = 28 + 6 + 4 + 3;
			CHECK_EQ(read_all_mem(x.b, x.n, "olong.tps", NULL, 0), 0,
				 "longer object payload skipped");
		}
	}
	/* malformed and misplaced ProfileMe records: the golden 1.2 image changed */
	{
		size_t cp = g_off_pmcfg + 5, p0 = g_off_pm0 + 5, p1 = g_off_pm1 + 5;
		struct {
			size_t off;		/* byte of the golden image to change */
			unsigned val;		/* its new value */
			const char *want;	/* in the message */
		} c[] = {
			{ cp + 0, 3, "F must" },			/* F = 3 */
			{ cp + 0, 0, "F must" },			/* F = 0 */
			{ cp + 1, 3, "tag ids" },			/* tags = 3 */
			{ cp + 1, 1, "PAIR set on a unit with one" },	/* PAIR with 1 tag */
			{ cp + 2, 0, "" },				/* depth 4 -> 0: */
			{ cp + 9, 0, "PM_PERIOD" },			/* period 4096 -> 0 */
			{ cp + 4, 0xB7, "MODE 3" },			/* PM_CTRL MODE 3 */
			{ cp + 13, 0x02, "WINDOW" },			/* WINDOW 64 + 512 */
			{ cp + 12, 0, "WINDOW" },			/* WINDOW 0 */
			{ cp + 16, 0, "PM_TIMEOUT" },			/* 65535 -> 0xFF00 ok, */
			{ cp + 26, 0x07, "SEL 7" },			/* PM_LATFILT SEL 7 */
			{ g_off_pmcfg + 1, 29, "shorter" },		/* payload 29 < 30 */
			{ g_off_pmcfg, 0x84, "before the PM config" },	/* config unknown */
			{ p0 + 8, 0x02, "FMT" },			/* FMT 2 */
			{ p0 + 8, 0x00, "FMT" },			/* FMT 0 */
			{ p0 + 8, 0x21, "reserved" },			/* SINFO bit 5 */
			{ p0 + 8 + 2, 0x01, "pair fields" },		/* single, dist 1 */
			{ p0 + 16 + 4, 0x01, "XLEN" },			/* PC beyond 2^32 */
			{ p0 + 24 + 4, 0x01, "XLEN" },			/* EA beyond 2^32 */
			{ p0 + 32, 0x83, "exactly one" },		/* RETIRED+ABORTED */
			{ p0 + 32, 0x80, "exactly one" },		/* no end bit */
			{ p0 + 32 + 2, 0x01, "abort reason" },		/* reason, retired */
			{ p0 + 32 + 3, 0x01 | 0x08, "reserved" },	/* INFO bit 27 */
			{ p0 + 32 + 3, 0x02, "slot beyond F" },		/* slot 2, F = 2 */
			{ p0 + 48 + 4, 0x20, "reserved" },		/* STAMP_B bit 37 */
			{ p0 + 56, 0x01, "second profile" },		/* single, PC 1 */
			{ p1 + 8 + 2, 0x00, "pair distance" },		/* pair, dist 0 */
			{ p1 + 72, 0x00, "exactly one" },		/* second: no end */
			{ g_off_pm0 + 1, 95, "shorter than 12" },	/* payload 95 */
			{ g_off_pmcnt + 5, 3, "count disagrees" },	/* counts 3 samples */
		};

		for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
			golden_bytes(&g);
			g.b[c[k].off] = (uint8_t)c[k].val;
			ret = read_all_mem(g.b, g.n, "pm.tps", msg, sizeof(msg));
			if (c[k].off == cp + 2 || c[k].off == cp + 16) {
				/* depth 0 and timeout 0xFF00: depth refused, timeout fine */
				CHECK(c[k].off == cp + 2 ? ret == SF_ERECORD && strstr(msg, "depth")
				      : ret == 0, "PM case %zu: %d %s", k, ret, msg);
				continue;
			}
			CHECK(ret == SF_ERECORD && strstr(msg, c[k].want) && one_line_naming(msg,
			      "pm.tps"), "PM case %zu (%s): %d %s", k, c[k].want, ret, msg);
		}
		printf("  e.g. %s\n", msg);
		/* a second counts record; a PM sample after the counts; a second config: the
		 * golden image with a copy of one of its records inserted at a place */
		{
			struct bytes x = { .n = 0 };
			size_t tr = g.n - SF_TRAILER_SIZE;
			size_t pm_len = SF_EXT_FIXED + SF_PM_SAMPLE_FIXED;
			const struct {
				size_t at, from, len;	/* insert bytes from..+len before at */
				const char *want;
			} ins[] = {
				{ tr, g_off_pmcnt, SF_EXT_FIXED + SF_PM_COUNTS_FIXED,
				  "second PM counts" },
				{ tr, g_off_pm0, pm_len, "after the PM counts" },
				{ g_off_pmcnt, g_off_pmcfg, SF_EXT_FIXED + SF_PM_CONFIG_FIXED,
				  "second PM config" },
			};

			golden_bytes(&g);
			for (size_t k = 0; k < sizeof(ins) / sizeof(ins[0]); k++) {
				x.n = 0;
				b_raw(&x, g.b, ins[k].at);
				b_raw(&x, g.b + ins[k].from, ins[k].len);
				b_raw(&x, g.b + ins[k].at, g.n - ins[k].at);
				ret = read_all_mem(x.b, x.n, "pmx.tps", msg, sizeof(msg));
				CHECK(ret == SF_ERECORD && strstr(msg, ins[k].want), "%s: %s",
				      ins[k].want, msg);
			}
			/* longer payloads (a later minor's fields) are skipped */
			x.n = 0;
			b_raw(&x, g.b, g_off_pm0);
			b_raw(&x, g.b + g_off_pm0, pm_len);
			b_le(&x, 0xABCDEF, 3);
			b_raw(&x, g.b + g_off_pm0 + pm_len, g.n - g_off_pm0 - pm_len);
			x.b[g_off_pm0 + 1] = 99;
			CHECK_EQ(read_all_mem(x.b, x.n, "pmlong.tps", NULL, 0), 0,
				 "longer PM sample payload skipped");
		}
	}
	snprintf(path, sizeof(path), "%s/does-not-exist.tps", dir);
	{
		struct sf_reader rd;

		CHECK_EQ(sf_reader_open(&rd, path), SF_EIO, "missing file");
		CHECK(one_line_naming(sf_reader_error(&rd), path), "message: %s",
		      sf_reader_error(&rd));
		sf_reader_close(&rd);
	}
}

/* ---------------------------------------------------------------- writer, codecs */

static void test_writer(const char *dir)
{
	char path[512], bad[512];
	struct sf_header h;
	struct sf_writer w;
	struct tiprof_sample s[2];
	struct sf_trailer t = { 0 };

	tc_section("writer: temporary file beside the target, rename on close, invalid input");
	snprintf(path, sizeof(path), "%s/atomic.tps", dir);
	unlink(path);
	golden_header(&h);
	golden_samples(s);
	CHECK(sf_writer_open(&w, path, &h) == 0, "open");
	CHECK(sf_writer_sample(&w, &s[0]) == 0, "sample");
	CHECK(!exists(path), "final path absent while writing");
	CHECK_EQ(count_prefix(dir, ".atomic.tps."), 1, "one temporary file beside it");
	sf_writer_abort(&w);
	CHECK(!exists(path), "final path absent after abort");
	CHECK_EQ(count_prefix(dir, ".atomic.tps."), 0, "temporary file removed by abort");
	CHECK(sf_writer_open(&w, path, &h) == 0, "open again");
	s[1].valid = 2;	/* flushed sample in slot 1: invalid */
	CHECK_EQ(sf_writer_sample(&w, &s[1]), SF_EINVAL, "invalid sample refused");
	CHECK(strstr(w.msg, "slot 0") != NULL, "message: %s", w.msg);
	CHECK_EQ(sf_writer_sample(&w, &s[0]), 0, "writer usable after an invalid sample");
	{
		struct sf_object o[2];

		golden_objects(o);
		o[0].end = o[0].start;
		CHECK_EQ(sf_writer_object(&w, &o[0]), SF_EINVAL, "empty object range refused");
		CHECK(strstr(w.msg, "start >= end") != NULL, "message: %s", w.msg);
		o[1].path[3] = '\0';
		CHECK_EQ(sf_writer_object(&w, &o[1]), SF_EINVAL, "NUL in an object path refused");
		o[1].path[3] = 'b';
		o[1].end = 0x100001000ull;	/* beyond XLEN 32 */
		CHECK_EQ(sf_writer_object(&w, &o[1]), SF_EINVAL, "object beyond XLEN refused");
		o[1].end = 0x40100000;
		CHECK_EQ(sf_writer_object(&w, &o[1]), 0, "writer usable after invalid objects");
	}
	{
		struct tiprof_pm_config c;
		struct tiprof_pm_sample pm[2];
		struct tiprof_pm_counts cn = { 0 };

		golden_pm_config(&c);
		golden_pm_samples(pm);
		CHECK_EQ(sf_writer_pm_sample(&w, &pm[0]), SF_EINVAL, "PM sample before config");
		CHECK(strstr(w.msg, "no PM config") != NULL, "message: %s", w.msg);
		c.f = 3;
		CHECK_EQ(sf_writer_pm_config(&w, &c), SF_EINVAL, "invalid PM config refused");
		CHECK(strstr(w.msg, "F must") != NULL, "message: %s", w.msg);
		c.f = 2;
		c.tags = 1;
		CHECK_EQ(sf_writer_pm_config(&w, &c), SF_EINVAL, "PAIR with one tag refused");
		c.tags = 2;
		CHECK_EQ(sf_writer_pm_config(&w, &c), 0, "PM config");
		CHECK_EQ(sf_writer_pm_config(&w, &c), SF_EINVAL, "second PM config refused");
		pm[0].w[TIPROF_PM_REC_SINFO] = 0;
		CHECK_EQ(sf_writer_pm_sample(&w, &pm[0]), SF_EINVAL, "PM sample with FMT 0");
		CHECK(strstr(w.msg, "PM sample 0 is invalid: PM record FMT") != NULL, "message: %s",
		      w.msg);
		CHECK_EQ(sf_writer_pm_sample(&w, &pm[1]), 0, "writer usable after it");
		CHECK_EQ(w.pm_samples, 1, "one PM sample written");
		CHECK_EQ(sf_writer_pm_counts(&w, &cn), 0, "PM counts");
		CHECK_EQ(sf_writer_pm_counts(&w, &cn), SF_EINVAL, "second PM counts refused");
		CHECK_EQ(sf_writer_pm_sample(&w, &pm[1]), SF_EINVAL, "PM sample after the counts");
		CHECK(strstr(w.msg, "after the PM counts") != NULL, "message: %s", w.msg);
	}
	CHECK_EQ(sf_writer_close(&w, &t), 0, "close");
	CHECK(exists(path), "final path present after close");
	CHECK_EQ(count_prefix(dir, ".atomic.tps."), 0, "no temporary file left");
	snprintf(bad, sizeof(bad), "%s/no-such-dir/x.tps", dir);
	CHECK_EQ(sf_writer_open(&w, bad, &h), SF_EIO, "directory missing");
	CHECK(strstr(w.msg, "no-such-dir") != NULL, "message: %s", w.msg);
	h.w = 3;
	CHECK_EQ(sf_writer_open(&w, path, &h), SF_EINVAL, "invalid header");
}

static void test_validate(void)
{
	struct sf_header h;
	struct tiprof_sample s;
	uint8_t buf[256];
	const char *why;

	tc_section("sample validation (encoder and decoder share it)");
	sf_header_init(&h);
	h.w = 4;
	h.xlen = 32;
	memset(&s, 0, sizeof(s));
	s.valid = 0x5;
	s.addr[0] = 1;
	s.addr[2] = 2;
	CHECK_EQ(sf_sample_encode(&h, &s, buf, sizeof(buf), NULL), SF_SAMPLE_FIXED + 8, "ok");
	CHECK_EQ(sf_sample_encode(&h, &s, buf, SF_SAMPLE_FIXED, NULL), SF_ENEED, "small buffer");
	s.addr[1] = 9;
	CHECK_EQ(sf_sample_validate(&h, &s, &why), SF_EINVAL, "address in an invalid slot");
	s.addr[1] = 0;
	s.addr[0] = 1ull << 32;
	CHECK_EQ(sf_sample_validate(&h, &s, &why), SF_EINVAL, "address beyond XLEN");
	s.addr[0] = 1;
	s.valid = 0x10;
	CHECK_EQ(sf_sample_validate(&h, &s, &why), SF_EINVAL, "valid beyond W");
	s.valid = 0;
	CHECK_EQ(sf_sample_validate(&h, &s, &why), SF_EINVAL, "no valid slot");
	s.valid = 1;
	s.addr[2] = 0;
	s.flags = TIPROF_SF_STALLED | TIPROF_SF_FRONTEND;
	CHECK_EQ(sf_sample_validate(&h, &s, &why), SF_EINVAL, "two states");
	s.flags = TIPROF_SF_EXCEPTION | TIPROF_SF_MISPRED;
	CHECK_EQ(sf_sample_validate(&h, &s, &why), SF_EINVAL, "exception with mispredict");
	s.flags = TIPROF_SF_FRONTEND;
	s.bank = 2;
	CHECK_EQ(sf_sample_validate(&h, &s, &why), SF_EINVAL, "drained bank/valid disagree");
	s.bank = 4;
	CHECK_EQ(sf_sample_validate(&h, &s, &why), SF_EINVAL, "bank beyond W");
	CHECK(sf_strerror(SF_ETRUNC)[0] && sf_strerror(-99)[0], "strerror");
}

static void test_dump(const char *dir)
{
	static const char want[] =
		"tiprof sample file 1.2\n"
		"unit: W=2 XLEN=32 FIFO=8 id=0x00017119 (map 1.0)\n"
		"sampling: period=4096 mode=random-interval rand_bits=8 priv=U,S,M\n"
		"source: simulator\n"
		"workload: /bin/x build-id=deadbeef\n"
		"clock: 100000000 Hz start_cycle=72623859790382856 start_time=1700000000.123456789\n"
		"object: main 0x00010000-0x00012000 bias=0x0 /bin/x build-id=deadbeef\n"
		"pm config: F=2 tags=2 FIFO=4 issue_width=4 period=4096 ctrl=0x48b3 (en "
		"mode=random-interval rand_bits=8 unit=insts pair priv=U,S,M) window=64 "
		"timeout=65535 evfilt=mask:0x0000,match:0x0000 latfilt=sel:6,thresh:10\n"
		"0: cycle=1234605616436508552 computing bank=1 valid=0x03 priv=U ctx=0xabcd "
		"[0]=0x80001000 [1]=0x80000ffc\n"
		"pm 0: cycle=4096 single | p0 pc=0x80001234 ea=0x80100040 "
		"ev=RETIRED,DC_MISS,LOAD,EA_VALID priv=U ctx=0xabcd slot=1 path=0x00f0 map=2 "
		"ready=5 issue=6 mem=8 complete=30 end=33\n"
		"object: mapped 0x40001000-0x40100000 bias=0x40000000 /lib/libc.6 build-id=(none)\n"
		"1: cycle=4096 flushed+mispred bank=0 valid=0x01 priv=S ctx=0x0007 [0]=0xfffffffe\n"
		"pm 1: cycle=8192 pair dist=5 cycles=2 | p0 pc=0x80002000 ea=0x00000000 "
		"ev=ABORTED,TRAP reason=trap priv=S ctx=0x0007 slot=0 path=0x0000 map=1 end=4 | "
		"p1 pc=0x80002010 ea=0x80200000 ev=RETIRED,STORE,EA_VALID priv=S ctx=0x0007 slot=1 "
		"path=0x0003 map=1 ready=2 issue=3 mem=4 complete=9 end=12\n"
		"pm counts: samples=2 taken=2 lost=1 filtered=3 collided=4 lost_sw=0\n"
		"trailer: samples=2 lost_unit=3 lost_sw=4 taken_unit=9 end_cycle=4294967296\n";
	char path[512];
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct sf_reader rd;
	struct sf_record rec;
	uint64_t i = 0;
	int ret;

	tc_section("dumper: text of the golden file");
	snprintf(path, sizeof(path), "%s/golden.tps", dir);
	ret = sf_reader_open(&rd, path);
	CHECK(ret == 0, "open: %s", sf_reader_error(&rd));
	if (ret == 0) {
		sf_dump_header(out, &rd.hdr);
		uint64_t ipm = 0;

		while (sf_reader_next_record(&rd, &rec) == 1)
			if (rec.type == SF_REC_OBJECT)
				sf_dump_object(out, &rd.hdr, &rec.object);
			else if (rec.type == SF_REC_PM_CONFIG)
				sf_dump_pm_config(out, &rec.pm_config);
			else if (rec.type == SF_REC_PM_SAMPLE)
				sf_dump_pm_sample(out, &rd.hdr, ipm++, &rec.pm_sample);
			else if (rec.type == SF_REC_PM_COUNTS)
				sf_dump_pm_counts(out, rec.pm_count_samples, &rec.pm_counts);
			else
				sf_dump_sample(out, &rd.hdr, i++, &rec.sample);
		sf_dump_trailer(out, &rd.trailer);
	}
	sf_reader_close(&rd);
	fclose(out);
	CHECK(text && strcmp(text, want) == 0, "dump differs:\n%s---- want:\n%s", text, want);
	free(text);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";

	mkdir(dir, 0777);
	printf("test_sample_file: lib/sample/sample_file (files in %s)\n", dir);
	test_golden(dir);
	test_round_trip(dir);
	test_truncation(dir);
	test_corruption(dir);
	test_foreign(dir);
	test_writer(dir);
	test_validate();
	test_dump(dir);
	return tc_summary();
}
