/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sample_file.c - tests of lib/sample/sample_file: a byte-exact golden file built
 * here from the table in docs/sample-file.md (not from the encoder), with object
 * records (format 1.1), and a 1.0 golden image that must still read; round trips of
 * random files (samples and object records) in every configuration, truncation at
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

/* The golden file's bytes, following docs/sample-file.md offset by offset: format 1.1
 * with an object record before the samples and one between them, or (v10) the 1.0
 * image of the same samples, which has none. */
static void golden_bytes_v(struct bytes *x, int v10)
{
	static const uint8_t magic[8] = { 0x7F, 'T', 'I', 'P', 'R', 'O', 'F', '\n' };

	x->n = 0;
	/* header, fixed part */
	b_raw(x, magic, 8);			/* 0  magic */
	b_le(x, 1, 2);				/* 8  version_major */
	b_le(x, v10 ? 0 : 1, 2);		/* 10 version_minor */
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
	golden_bytes_v(x, 0);
}

static const struct sf_trailer golden_trailer = { 999, 3, 4, 9, 0x100000000ull };

/* Write the golden file with the writer; 0 on success. */
static int write_golden(const char *path)
{
	struct sf_header h;
	struct tiprof_sample s[2];
	struct sf_object o[2];
	struct sf_writer w;

	golden_header(&h);
	golden_samples(s);
	golden_objects(o);
	if (sf_writer_open(&w, path, &h) || sf_writer_object(&w, &o[0]) ||
	    sf_writer_sample(&w, &s[0]) || sf_writer_object(&w, &o[1]) ||
	    sf_writer_sample(&w, &s[1])) {
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
	/* a 1.0 file (no object records) still reads, samples and trailer alike */
	golden_bytes_v(&want, 1);
	snprintf(path, sizeof(path), "%s/golden-1.0.tps", dir);
	CHECK(spit(path, want.b, want.n) == 0, "write the 1.0 image");
	{
		struct sf_reader rd;
		struct sf_record rec;
		struct tiprof_sample s[2];
		unsigned ns = 0, no = 0, good = 1;
		int ret = sf_reader_open(&rd, path);

		golden_samples(s);
		CHECK(ret == 0, "open 1.0: %s", sf_reader_error(&rd));
		while (ret >= 0 && (ret = sf_reader_next_record(&rd, &rec)) == 1) {
			if (rec.type == SF_REC_OBJECT)
				no++;
			else if (ns < 2)
				good &= sample_equal(&rec.sample, &s[ns++]);
		}
		CHECK(ret == 0 && ns == 2 && no == 0 && good && rd.hdr.version_minor == 0 &&
		      rd.trailer.samples == 2, "1.0 file reads: %d %u samples %u objects %s", ret,
		      ns, no, sf_reader_error(&rd));
		sf_reader_close(&rd);
	}
	/* the 1.1 golden file through both reader entry points */
	snprintf(path, sizeof(path), "%s/golden.tps", dir);
	{
		struct sf_reader rd;
		struct sf_record rec;
		struct tiprof_sample smp;
		struct sf_object o[2];
		unsigned ns = 0, no = 0, good = 1;
		int ret = sf_reader_open(&rd, path);

		golden_objects(o);
		while (ret >= 0 && (ret = sf_reader_next_record(&rd, &rec)) == 1) {
			if (rec.type == SF_REC_SAMPLE) {
				ns++;
				continue;
			}
			good &= no < 2 && object_equal(&rec.object, &o[no]);
			no++;
		}
		CHECK(ret == 0 && ns == 2 && no == 2 && good, "objects read back: %d %u %u %s", ret,
		      ns, no, sf_reader_error(&rd));
		sf_reader_close(&rd);
		ns = 0;
		ret = sf_reader_open(&rd, path);
		while (ret >= 0 && (ret = sf_reader_next(&rd, &smp)) == 1)
			ns++;
		CHECK(ret == 0 && ns == 2 && rd.objects == 2, "sf_reader_next skips objects: %d %u",
		      ret, ns);
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
	unsigned files = 0, bad = 0, objs = 0;
	uint64_t total = 0;

	tc_section("round trip: random files, every W and XLEN, every commit state, objects");
	snprintf(path, sizeof(path), "%s/rt.tps", dir);
	for (unsigned it = 0; it < 64; it++) {
		struct sf_header h, hr;
		struct sf_writer w;
		struct sf_reader rd;
		struct sf_trailer t = { 0, tc_rand(&r), tc_rand(&r), tc_rand(&r), tc_rand(&r) };
		unsigned n = tc_chance(&r, 100) ? 0 : tc_below(&r, 600);
		unsigned no = tc_below(&r, 7), at[6], io = 0, is = 0;
		int ret = 0, ok = 1;

		random_header(&r, &h, ws[it % 4], xlens[(it / 4) % 2]);
		for (unsigned i = 0; i < n; i++)
			random_sample(&r, &h, tc_below(&r, 4), &s[i]);
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
		for (unsigned i = 0; i <= n && !ret; i++) {
			while (io < no && at[io] == i && !ret)
				ret = sf_writer_object(&w, &ob[io++]);
			if (i < n && !ret)
				ret = sf_writer_sample(&w, &s[i]);
		}
		ok &= CHECK(ret == 0, "write samples and objects: %s", w.msg);
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
			} else if (is >= n || !sample_equal(&rec.sample, &s[is++])) {
				ok = 0;
			}
		}
		ok &= CHECK(ret == 0, "end of file: %d %s", ret, sf_reader_error(&rd));
		ok &= is == n && io == no;
		t.samples = n;
		ok &= memcmp(&rd.trailer, &t, sizeof(t)) == 0;
		sf_reader_close(&rd);
		bad += !ok;
		files++;
		total += n;
		objs += no;
	}
	CHECK(bad == 0, "%u of %u files did not read back equal", bad, files);
	printf("  %u files, %llu samples, %u object records\n", files, (unsigned long long)total,
	       objs);
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

/* A file with W=4 XLEN=64, a few samples of every state and three object records. */
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
		b_u8(&x, 0x81);
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
		"tiprof sample file 1.1\n"
		"unit: W=2 XLEN=32 FIFO=8 id=0x00017119 (map 1.0)\n"
		"sampling: period=4096 mode=random-interval rand_bits=8 priv=U,S,M\n"
		"source: simulator\n"
		"workload: /bin/x build-id=deadbeef\n"
		"clock: 100000000 Hz start_cycle=72623859790382856 start_time=1700000000.123456789\n"
		"object: main 0x00010000-0x00012000 bias=0x0 /bin/x build-id=deadbeef\n"
		"0: cycle=1234605616436508552 computing bank=1 valid=0x03 priv=U ctx=0xabcd "
		"[0]=0x80001000 [1]=0x80000ffc\n"
		"object: mapped 0x40001000-0x40100000 bias=0x40000000 /lib/libc.6 build-id=(none)\n"
		"1: cycle=4096 flushed+mispred bank=0 valid=0x01 priv=S ctx=0x0007 [0]=0xfffffffe\n"
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
		while (sf_reader_next_record(&rd, &rec) == 1)
			if (rec.type == SF_REC_OBJECT)
				sf_dump_object(out, &rd.hdr, &rec.object);
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
