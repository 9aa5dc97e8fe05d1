/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the ROB trace format: random round trips for every configuration, repeat runs,
 * truncation at every byte, corruption, bad magic/version, normalisation of out-of-range bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rob_trace.h"

static unsigned passed, failed;

#define CHECK(cond, ...) do { if (cond) passed++; else { failed++; printf("  FAIL %s:%d: ", \
	__FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random cycle, often equal to the previous one or close to it. */
static void random_cycle(const struct rob_trace_hdr *h, struct tiprof_rob_if *r)
{
	unsigned k = (unsigned)(rnd() % 10);

	if (k < 4)
		return; /* repeat */
	if (k < 8) {
		r->head_commit = (uint8_t)rnd();
		r->head_pc[rnd() % h->w] += 4 * (rnd() % 8);
		r->disp_valid = (uint8_t)rnd();
		return;
	}
	r->head_valid = (uint8_t)rnd();
	r->head_commit = (uint8_t)rnd();
	r->head_mispred = (uint8_t)rnd();
	r->head_flush = (uint8_t)rnd();
	r->head_bank = (uint8_t)rnd();
	r->exception = (uint8_t)rnd();
	r->disp_valid = (uint8_t)rnd();
	r->priv = (uint8_t)rnd();
	r->ctx_id = (uint16_t)rnd();
	for (unsigned b = 0; b < 8; b++) {
		r->head_pc[b] = rnd();
		r->disp_pc[b] = rnd();
		r->disp_idx[b] = (uint16_t)rnd();
	}
}

/* Expected decoding of r under h (the encoder drops what the configuration cannot carry). */
static void expect(const struct rob_trace_hdr *h, const struct tiprof_rob_if *r,
		   const struct tiprof_rob_if *prev, struct tiprof_rob_if *e)
{
	uint64_t am = h->xlen == 64 ? ~0ull : 0xffffffffull;

	memset(e, 0, sizeof(*e));
	e->head_valid = r->head_valid & ((1u << h->w) - 1);
	e->head_commit = r->head_commit & ((1u << h->w) - 1);
	e->head_mispred = r->head_mispred & ((1u << h->w) - 1);
	e->head_flush = r->head_flush & ((1u << h->w) - 1);
	e->disp_valid = r->disp_valid & ((1u << h->w) - 1);
	e->head_bank = r->head_bank % h->w;
	e->exception = r->exception & 1;
	e->priv = r->priv & 3;
	e->ctx_id = r->ctx_id;
	for (unsigned b = 0; b < h->w; b++) {
		e->head_pc[b] = r->head_pc[b] & am;
		e->disp_pc[b] = r->disp_pc[b] & am;
		e->disp_idx[b] = r->disp_idx[b] & ((1u << h->robidx_w) - 1);
		if (!(e->head_valid >> b & 1))
			e->head_pc[b] = prev->head_pc[b];
		if (!(e->disp_valid >> b & 1)) {
			e->disp_pc[b] = prev->disp_pc[b];
			e->disp_idx[b] = prev->disp_idx[b];
		}
	}
}

static size_t encode_random(const struct rob_trace_hdr *h, unsigned n, uint8_t *buf,
			    struct tiprof_rob_if *cycles)
{
	struct rob_trace_state st;
	struct tiprof_rob_if r, zero;
	size_t len;

	memset(&r, 0, sizeof(r));
	memset(&zero, 0, sizeof(zero));
	len = (size_t)rob_trace_encode_header(h, &st, buf);
	for (unsigned i = 0; i < n; i++) {
		random_cycle(h, &r);
		expect(h, &r, i ? &cycles[i - 1] : &zero, &cycles[i]);
		len += (size_t)rob_trace_encode(&st, &r, buf + len);
	}
	len += (size_t)rob_trace_flush_repeat(&st, buf + len);
	return len;
}

static void test_roundtrip(void)
{
	static const unsigned ws[] = { 1, 2, 4, 8 }, xs[] = { 32, 64 };
	enum { N = 20000 };
	static uint8_t buf[N * ROB_TRACE_MAX_RECORD + 64];
	static struct tiprof_rob_if cycles[N];

	for (unsigned wi = 0; wi < 4; wi++)
		for (unsigned xi = 0; xi < 2; xi++) {
			struct rob_trace_hdr h = { ws[wi], xs[xi], 1 + (unsigned)(rnd() % 16) };
			struct rob_trace_state st;
			struct tiprof_rob_if got;
			size_t len = encode_random(&h, N, buf, cycles), pos;
			unsigned bad = 0, i = 0;
			int k = rob_trace_decode_header(buf, len, &st);

			CHECK(k == ROB_TRACE_HEADER_SIZE, "header W=%u", h.w);
			pos = (size_t)k;
			for (i = 0; i < N; i++) {
				k = rob_trace_decode(&st, buf + pos, len - pos, &got);
				if (k < 0)
					break;
				pos += (size_t)k;
				bad += memcmp(&got, &cycles[i], sizeof(got)) != 0;
			}
			CHECK(i == N && bad == 0 && pos == len && !st.repeat,
			      "round trip W=%u XLEN=%u: %u cycles decoded, %u differ", h.w, h.xlen, i, bad);
			printf("  round trip W=%u XLEN=%u: %u cycles in %zu bytes (%.2f bytes/cycle)\n",
			       h.w, h.xlen, N, len, (double)len / N);
		}
}

/* Truncating the data anywhere gives a clean prefix, then NEED_MORE; corruption never crashes. */
static void test_truncation_corruption(void)
{
	struct rob_trace_hdr h = { 4, 64, 7 };
	static uint8_t buf[300 * ROB_TRACE_MAX_RECORD], bad[300 * ROB_TRACE_MAX_RECORD];
	static struct tiprof_rob_if cycles[300];
	size_t len = encode_random(&h, 300, buf, cycles);
	unsigned wrong = 0;

	for (size_t cut = 0; cut < len; cut++) {
		struct rob_trace_state st;
		struct tiprof_rob_if got;
		int k = rob_trace_decode_header(buf, cut, &st);
		size_t pos;

		if (k < 0) {
			wrong += k != ROB_TRACE_NEED_MORE;
			continue;
		}
		pos = (size_t)k;
		for (unsigned i = 0; i < 300; i++) {
			k = rob_trace_decode(&st, buf + pos, cut - pos, &got);
			if (k < 0) {
				wrong += k != ROB_TRACE_NEED_MORE;
				break;
			}
			wrong += memcmp(&got, &cycles[i], sizeof(got)) != 0;
			pos += (size_t)k;
		}
	}
	CHECK(wrong == 0, "truncation: %u wrong results", wrong);
	for (unsigned t = 0; t < 3000; t++) {
		struct rob_trace_state st;
		struct tiprof_rob_if got;
		size_t pos;
		int k;

		memcpy(bad, buf, len);
		for (unsigned f = 0; f < 1 + t % 4; f++)
			bad[ROB_TRACE_HEADER_SIZE + rnd() % (len - ROB_TRACE_HEADER_SIZE)] = (uint8_t)rnd();
		k = rob_trace_decode_header(bad, len, &st);
		pos = (size_t)k;
		for (unsigned i = 0; i < 100000 && k >= 0; i++) {
			k = rob_trace_decode(&st, bad + pos, len - pos, &got);
			if (k > 0)
				pos += (size_t)k;
			if (pos > len)
				wrong++;
		}
	}
	CHECK(wrong == 0, "corruption: decoder read past the data");
}

static void test_header(void)
{
	struct rob_trace_state st;
	uint8_t buf[ROB_TRACE_HEADER_SIZE];
	struct rob_trace_hdr h = { 2, 64, 7 }, bad = { 3, 64, 7 };

	CHECK(rob_trace_encode_header(&bad, &st, buf) == ROB_TRACE_BAD_RECORD, "W=3 refused");
	rob_trace_encode_header(&h, &st, buf);
	buf[8] = 9;
	CHECK(rob_trace_decode_header(buf, sizeof(buf), &st) == ROB_TRACE_BAD_VERSION, "version");
	CHECK(rob_trace_decode_header((const uint8_t *)"\x7f" "ELF\2\1\1\0\0\0\0\0\0\0\0\0", 16, &st) ==
	      ROB_TRACE_BAD_MAGIC, "an ELF is not a trace");
}

/* Read path to its end: cycles read (into got, up to max) and the last status. */
static int read_file(const char *path, struct tiprof_rob_if *got, unsigned max, unsigned *n)
{
	struct rob_trace_reader r;
	struct tiprof_rob_if c;
	int rc = rob_trace_reader_open(&r, path);

	*n = 0;
	if (rc < 0)
		return rc;
	while ((rc = rob_trace_reader_next(&r, &c)) > 0)
		if (*n < max)
			got[(*n)++] = c;
	rob_trace_reader_close(&r);
	return rc;
}

static void write_bytes(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(b, 1, n, f);
		fclose(f);
	}
}

/* Files: the writer ends a trace with its end record; every shorter prefix - at a record
 * boundary too - reads as truncated; a bad end count or bytes after the end are corrupt; a
 * version-1 file (no end record) still reads to its last cycle. */
static void test_files(const char *dir)
{
	struct rob_trace_hdr h = { 2, 64, 7 };
	static struct tiprof_rob_if got[400];
	static uint8_t buf[400 * ROB_TRACE_MAX_RECORD + 64];
	struct rob_trace_writer w;
	struct tiprof_rob_if r;
	char path[512], cut[520];
	unsigned n, bad = 0, cuts = 0;
	size_t len;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/files.rbt", dir);
	snprintf(cut, sizeof(cut), "%s.cut", path);
	memset(&r, 0, sizeof(r));
	CHECK(rob_trace_writer_open(&w, path, &h) == 0, "writer open");
	for (unsigned i = 0; i < 400; i++) {
		random_cycle(&h, &r);
		if (i % 7 == 3)		/* runs of repeated cycles, so repeat records occur */
			for (unsigned k = 0; k < 5 && i < 399; k++, i++)
				rob_trace_writer_cycle(&w, &r);
		rob_trace_writer_cycle(&w, &r);
	}
	CHECK(rob_trace_writer_close(&w) == 0, "writer close");
	rc = read_file(path, got, 400, &n);
	CHECK(rc == 0 && n == 400, "whole file: status %d, %u cycles", rc, n);
	f = fopen(path, "rb");
	len = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	CHECK(len > ROB_TRACE_HEADER_SIZE && buf[8] == 2, "version 2 written");
	for (size_t c = ROB_TRACE_HEADER_SIZE; c < len; c++) {
		write_bytes(cut, buf, c);
		rc = read_file(cut, got, 400, &n);
		bad += rc != ROB_TRACE_NEED_MORE;
		cuts++;
	}
	CHECK(bad == 0, "%u of %u prefixes were not reported truncated", bad, cuts);
	buf[len] = 0x80;	/* a byte after the end record */
	write_bytes(cut, buf, len + 1);
	CHECK(read_file(cut, got, 400, &n) == ROB_TRACE_BAD_RECORD, "data after the end refused");
	buf[len - 1] ^= 1;	/* the end record's count (one LEB128 byte for 400) is off by one */
	write_bytes(cut, buf, len);
	CHECK(read_file(cut, got, 400, &n) == ROB_TRACE_BAD_RECORD, "wrong end count refused");
	buf[len - 1] ^= 1;
	/* version 1: the same records without the end record */
	buf[8] = 1;
	write_bytes(cut, buf, len - 3);	/* TAG_END + two LEB128 bytes of 400 */
	rc = read_file(cut, got, 400, &n);
	CHECK(rc == 0 && n == 400, "a version-1 file reads to its end: status %d, %u cycles", rc, n);
	remove(cut);
	remove(path);
}

int main(int argc, char **argv)
{
	test_header();
	test_roundtrip();
	test_truncation_corruption();
	test_files(argc > 1 ? argv[1] : ".");
	printf("test-rob-trace: %u passed, %u failed\n", passed, failed);
	return failed != 0;
}
