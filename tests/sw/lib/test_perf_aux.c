/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_perf_aux.c - tests of sw/lib/perf_aux, the user side of the tiprof_pmu perf PMU:
 *   pa_aux_decode on records built from struct tiprof_aux_rec (include/tiprof/aux_record.h,
 *     what the driver writes): a sample, a lost record, streams of both through a ring, a
 *     record wrapping at every offset of small rings and at large stream offsets, every
 *     truncation (0), malformed types and sizes (-1), a ring smaller than a record, and
 *     random ring contents (built with AddressSanitizer/UBSan and rings allocated to their
 *     exact size: a read outside the ring fails the run);
 *   pa_pmu_find, pa_pmu_set and pa_pmu_unit_id on fake sysfs trees built under TMPDIR: the
 *     PMU of docs/driver.md, several PMUs, none, and malformed type/caps/format entries.
 * pa_pmu_find reads the constant PA_SYSFS_DEVICES and takes no directory, so this file
 * compiles sw/lib/perf_aux.c itself (included below) with that constant naming a variable
 * set to each fake tree; the rest of the source is the library's, unchanged. The real
 * PA_SYSFS_DEVICES is also read once: without a tiprof PMU there, -1 and no message.
 *
 * Usage: test_perf_aux TMPDIR
 */
#include "perf_aux.h"

static char fake_root[512];	/* the fake devices directory of the moment */
static const char *sysfs_root = fake_root;	/* what pa_pmu_find lists */
static const char real_sysfs[] = PA_SYSFS_DEVICES;
#undef PA_SYSFS_DEVICES
#define PA_SYSFS_DEVICES sysfs_root
#include "perf_aux.c"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcheck.h"

/* ---------------------------------------------------------------- AUX records */

/* Copy n bytes to stream offset off of a ring of size bytes (wrapping). */
static void ring_put(uint8_t *ring, uint64_t size, uint64_t off, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ring[(off + i) & (size - 1)] = ((const uint8_t *)p)[i];
}

/* A SAMPLE record whose fields all derive from seed. */
static struct tiprof_aux_rec sample_rec(uint64_t seed)
{
	struct tiprof_aux_rec r;
	struct tc_rng g = { seed };

	memset(&r, 0, sizeof(r));
	r.type = TIPROF_AUX_REC_SAMPLE;
	r.size = TIPROF_AUX_REC_SAMPLE_SIZE;
	r.sample.cycle = tc_rand(&g);
	r.sample.flags = (uint8_t)(tc_rand(&g) & 0x1f);
	r.sample.bank = (uint8_t)tc_below(&g, TIPROF_MAX_BANKS);
	r.sample.valid = (uint8_t)tc_rand(&g);
	r.sample.priv = (uint8_t)tc_below(&g, 4);
	r.sample.ctx = (uint16_t)tc_rand(&g);
	for (unsigned b = 0; b < TIPROF_MAX_BANKS; b++)
		r.sample.addr[b] = tc_rand(&g);
	return r;
}

static struct tiprof_aux_rec lost_rec(uint64_t n)
{
	struct tiprof_aux_rec r;

	memset(&r, 0, sizeof(r));
	r.type = TIPROF_AUX_REC_LOST;
	r.size = TIPROF_AUX_REC_LOST_SIZE;
	r.lost = n;
	return r;
}

/* A PM_SAMPLE record whose words all derive from seed. */
static struct tiprof_aux_rec pm_rec(uint64_t seed)
{
	struct tiprof_aux_rec r;
	struct tc_rng g = { seed };

	memset(&r, 0, sizeof(r));
	r.type = TIPROF_AUX_REC_PM_SAMPLE;
	r.size = TIPROF_AUX_REC_PM_SAMPLE_SIZE;
	for (unsigned k = 0; k < TIPROF_PM_REC_WORDS; k++)
		r.pm.w[k] = tc_rand(&g);
	return r;
}

/* A PM_COUNTS record. */
static struct tiprof_aux_rec pm_counts_rec(uint64_t seed)
{
	struct tiprof_aux_rec r;
	struct tc_rng g = { seed };

	memset(&r, 0, sizeof(r));
	r.type = TIPROF_AUX_REC_PM_COUNTS;
	r.size = TIPROF_AUX_REC_PM_COUNTS_SIZE;
	r.pm_counts.taken = tc_rand(&g);
	r.pm_counts.lost = tc_rand(&g);
	r.pm_counts.filtered = tc_rand(&g);
	r.pm_counts.collided = tc_rand(&g);
	r.pm_counts.lost_sw = tc_rand(&g);
	return r;
}

/* Record of kind 0 SAMPLE, 1 LOST, 2 PM_SAMPLE, 3 PM_COUNTS from seed. */
static struct tiprof_aux_rec any_rec(int kind, uint64_t seed)
{
	switch (kind) {
	case 0:
		return sample_rec(seed);
	case 1:
		return lost_rec(seed * 31 + 7);
	case 2:
		return pm_rec(seed);
	default:
		return pm_counts_rec(seed);
	}
}

/* The decoded record is the one built. */
static int same(const struct pa_rec *d, const struct tiprof_aux_rec *r)
{
	if (r->type == TIPROF_AUX_REC_SAMPLE)
		return d->type == PA_REC_SAMPLE &&
		       memcmp(&d->sample, &r->sample, sizeof(d->sample)) == 0;
	if (r->type == TIPROF_AUX_REC_PM_SAMPLE)
		return d->type == PA_REC_PM_SAMPLE && memcmp(&d->pm, &r->pm, sizeof(d->pm)) == 0;
	if (r->type == TIPROF_AUX_REC_PM_COUNTS)
		return d->type == PA_REC_PM_COUNTS &&
		       memcmp(&d->pm_counts, &r->pm_counts, sizeof(d->pm_counts)) == 0;
	return d->type == PA_REC_LOST && d->lost == r->lost;
}

/* A ring of exactly size bytes (ASan catches any read outside it). */
static uint8_t *ring_new(uint64_t size, uint8_t fill)
{
	uint8_t *p = malloc(size);

	if (!p) {
		fprintf(stderr, "test_perf_aux: out of memory\n");
		exit(2);
	}
	memset(p, fill, size);
	return p;
}

static void test_single(void)
{
	struct tiprof_aux_rec s = sample_rec(1), l = lost_rec(0x123456789abcdefull);
	uint8_t *ring = ring_new(4096, 0xEE);
	struct pa_rec d;
	int n;

	tc_section("single records");
	CHECK_EQ(sizeof(struct tiprof_aux_rec), 104, "sizeof(struct tiprof_aux_rec)");
	CHECK_EQ(TIPROF_AUX_REC_PM_SAMPLE_SIZE, 104, "PM_SAMPLE record size");
	CHECK_EQ(TIPROF_AUX_REC_PM_COUNTS_SIZE, 48, "PM_COUNTS record size");
	{
		struct tiprof_aux_rec p = pm_rec(3), c = pm_counts_rec(4);

		ring_put(ring, 4096, 200, &p, p.size);
		ring_put(ring, 4096, 200 + p.size, &c, c.size);
		n = pa_aux_decode(ring, 4096, 200, 4096, &d);
		CHECK(n == 104 && same(&d, &p), "PM_SAMPLE: every word decoded (rc %d)", n);
		n = pa_aux_decode(ring, 4096, 304, 4096, &d);
		CHECK(n == 48 && same(&d, &c), "PM_COUNTS: every count decoded (rc %d)", n);
	}
	ring_put(ring, 4096, 0, &s, TIPROF_AUX_REC_SAMPLE_SIZE);
	n = pa_aux_decode(ring, 4096, 0, TIPROF_AUX_REC_SAMPLE_SIZE, &d);
	CHECK_EQ(n, TIPROF_AUX_REC_SAMPLE_SIZE, "sample: bytes consumed");
	CHECK(same(&d, &s), "sample: every field decoded");
	ring_put(ring, 4096, 88, &l, TIPROF_AUX_REC_LOST_SIZE);
	n = pa_aux_decode(ring, 4096, 88, 4096, &d);
	CHECK_EQ(n, TIPROF_AUX_REC_LOST_SIZE, "lost: bytes consumed");
	CHECK(same(&d, &l), "lost: count decoded (%llu)", (unsigned long long)d.lost);

	/* the layout by hand: little-endian type, size, reserved, then the payload */
	{
		static const uint8_t raw[16] = { 2, 0, 16, 0, 0, 0, 0, 0,
						 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };

		n = pa_aux_decode(raw, 16, 0, 16, &d);
		CHECK(n == 16 && d.type == PA_REC_LOST && d.lost == 0x0102030405060708ull,
		      "lost record from raw bytes (rc %d)", n);
	}
	free(ring);
}

/* A record at every offset of a small ring and at large stream offsets. */
static void test_wrap(void)
{
	static const uint64_t sizes[] = { 16, 32, 64, 128, 256 };
	static const uint64_t laps[] = { 0, 1, 7, 1000003, 1ull << 40 };
	unsigned long tried = 0, bad = 0, skipped = 0;

	tc_section("records wrapping around small rings");
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		uint64_t size = sizes[si];
		uint8_t *ring = ring_new(size, 0);

		for (int kind = 0; kind < 4; kind++) {
			for (uint64_t pos = 0; pos < size; pos++) {
				for (size_t li = 0; li < sizeof(laps) / sizeof(laps[0]); li++) {
					uint64_t off = laps[li] * size + pos;
					struct tiprof_aux_rec r = any_rec(kind, off);
					struct pa_rec d;
					int n;

					if (r.size > size) {	/* cannot be in this ring */
						skipped++;
						continue;
					}
					memset(ring, 0xA5, size);
					ring_put(ring, size, off, &r, r.size);
					n = pa_aux_decode(ring, size, off, off + r.size, &d);
					tried++;
					if (n != r.size || !same(&d, &r)) {
						if (bad++ < 5)
							printf("    ring %llu, offset %llu, type %u: "
							       "rc %d\n", (unsigned long long)size,
							       (unsigned long long)off, r.type, n);
					}
				}
			}
		}
		free(ring);
	}
	CHECK(tried > 1000 && bad == 0, "%lu records at every offset of rings of 16..256 bytes "
	      "(%lu larger than the ring left out): %lu wrong", tried, skipped, bad);
}

/* A stream of records through a ring, written and read as the driver and tiprof record do. */
static void test_stream(void)
{
	const uint64_t size = 512;
	uint8_t *ring = ring_new(size, 0);
	struct tc_rng g = { 99 };
	uint64_t head = 0, tail = 0;
	struct tiprof_aux_rec q[8];	/* written, not yet read */
	unsigned nq = 0, qh = 0, done = 0, bad = 0;

	tc_section("a stream of records");
	while (done < 20000) {
		struct tiprof_aux_rec r = any_rec((int)tc_below(&g, 4), tc_rand(&g));

		if (nq < 8 && head + r.size - tail <= size) {	/* room: the driver writes */
			ring_put(ring, size, head, &r, r.size);
			head += r.size;
			q[(qh + nq++) % 8] = r;
			continue;
		}
		while (nq) {	/* full: the reader drains */
			struct pa_rec d;
			int n = pa_aux_decode(ring, size, tail, head, &d);

			if (n != q[qh].size || !same(&d, &q[qh]))
				bad++;
			tail += (uint64_t)(n > 0 ? n : q[qh].size);
			qh = (qh + 1) % 8;
			nq--;
			done++;
		}
		if (pa_aux_decode(ring, size, tail, head, &(struct pa_rec){ 0 }) != 0)
			bad++;	/* drained: nothing left to decode */
	}
	CHECK(bad == 0, "%u records through a %llu-byte ring (%llu laps): %u wrong", done,
	      (unsigned long long)size, (unsigned long long)(head / size), bad);
	free(ring);
}

static void test_truncated(void)
{
	const uint64_t size = 256;
	uint8_t *ring = ring_new(size, 0);
	unsigned long bad = 0, tried = 0;

	tc_section("truncated records");
	for (int kind = 0; kind < 4; kind++) {
		struct tiprof_aux_rec r = any_rec(kind, 5);

		for (uint64_t pos = 0; pos < size; pos += 8) {
			uint64_t off = 3 * size + pos;

			ring_put(ring, size, off, &r, r.size);
			for (uint64_t end = off; end < off + r.size; end++, tried++) {
				struct pa_rec d;

				if (pa_aux_decode(ring, size, off, end, &d) != 0)
					bad++;
			}
			tried++;	/* and end before off */
			if (pa_aux_decode(ring, size, off, off - 1, &(struct pa_rec){ 0 }) != 0)
				bad++;
		}
	}
	CHECK(bad == 0, "every end short of the record (%lu cases) gives 0: %lu wrong", tried, bad);

	/* an incomplete header is 0 whatever its bytes */
	memset(ring, 0xFF, size);
	CHECK_EQ(pa_aux_decode(ring, size, 0, 7, &(struct pa_rec){ 0 }), 0,
		 "7 bytes of garbage: not a whole header yet");
	free(ring);
}

static void test_malformed(void)
{
	static const struct {
		uint16_t type, size;
	} bad[] = {
		{ 0, 16 }, { 0, 88 }, { 3, 16 }, { 3, 88 }, { 0xffff, 88 }, { 0x0100, 88 },
		{ TIPROF_AUX_REC_SAMPLE, 0 }, { TIPROF_AUX_REC_SAMPLE, 8 },
		{ TIPROF_AUX_REC_SAMPLE, 16 }, { TIPROF_AUX_REC_SAMPLE, 87 },
		{ TIPROF_AUX_REC_SAMPLE, 89 }, { TIPROF_AUX_REC_SAMPLE, 96 },
		{ TIPROF_AUX_REC_SAMPLE, 0xffff }, { TIPROF_AUX_REC_LOST, 0 },
		{ TIPROF_AUX_REC_LOST, 8 }, { TIPROF_AUX_REC_LOST, 15 }, { TIPROF_AUX_REC_LOST, 17 },
		{ TIPROF_AUX_REC_LOST, 24 }, { TIPROF_AUX_REC_LOST, 88 },
		{ TIPROF_AUX_REC_PM_SAMPLE, 88 }, { TIPROF_AUX_REC_PM_SAMPLE, 103 },
		{ TIPROF_AUX_REC_PM_SAMPLE, 112 }, { TIPROF_AUX_REC_PM_COUNTS, 16 },
		{ TIPROF_AUX_REC_PM_COUNTS, 40 }, { TIPROF_AUX_REC_PM_COUNTS, 104 },
		{ 5, 48 }, { 5, 104 },
	};
	const uint64_t size = 256;
	uint8_t *ring = ring_new(size, 0);
	unsigned long wrong = 0, tried = 0;

	tc_section("malformed records");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tiprof_aux_rec r = sample_rec(i);

		r.type = bad[i].type;
		r.size = bad[i].size;
		for (uint64_t off = 0; off < 2 * size; off += 8) {
			struct pa_rec d;

			ring_put(ring, size, off, &r, sizeof(r));
			/* with all of it there, and with only its header there */
			if (pa_aux_decode(ring, size, off, off + sizeof(r) + 64, &d) != -1 ||
			    pa_aux_decode(ring, size, off, off + 8, &d) != -1) {
				if (wrong++ < 5)
					printf("    type %u size %u at %llu: not refused\n",
					       bad[i].type, bad[i].size, (unsigned long long)off);
			}
			tried += 2;
		}
	}
	CHECK(wrong == 0, "%lu malformed type/size headers give -1: %lu wrong", tried, wrong);
	free(ring);

	/* a ring smaller than a record cannot hold it: -1, nothing read outside the ring */
	{
		struct tiprof_aux_rec s = sample_rec(7), l = lost_rec(7);
		uint8_t *small = ring_new(64, 0);
		struct pa_rec d;
		int n1, n2;

		ring_put(small, 64, 40, &s, 64);	/* header and what fits */
		n1 = pa_aux_decode(small, 64, 40, 40 + 88, &d);
		ring_put(small, 64, 56, &l, 16);
		n2 = pa_aux_decode(small, 64, 56, 56 + 16, &d);
		CHECK(n1 == -1, "an 88-byte SAMPLE record in a 64-byte ring is refused (rc %d)", n1);
		CHECK(n2 == 16 && same(&d, &l), "a LOST record wrapping in a 64-byte ring decodes");
		free(small);
		small = ring_new(4, 0);
		CHECK_EQ(pa_aux_decode(small, 4, 1, 100, &d), -1, "a 4-byte ring holds no header");
		free(small);
	}
}

/* Random ring contents at random offsets: only -1, 0 or a record's size, no stray read. */
static void test_random(void)
{
	struct tc_rng g = { 7 };
	unsigned long odd = 0, n0 = 0, nm = 0, ns = 0, nl = 0;

	tc_section("random ring contents");
	for (int it = 0; it < 20000; it++) {
		uint64_t size = 8ull << tc_below(&g, 8);	/* 8..1024 */
		uint8_t *ring = ring_new(size, 0);
		uint64_t off = tc_rand(&g) >> tc_below(&g, 64), end;
		struct pa_rec d;
		int n;

		if (off > UINT64_MAX / 2)
			off >>= 1;
		end = off + tc_below(&g, 200);
		for (uint64_t i = 0; i < size; i++)
			ring[i] = (uint8_t)tc_rand(&g);
		if (tc_chance(&g, 500)) {	/* a plausible header, random size */
			uint16_t t = (uint16_t)(1 + tc_below(&g, 2)), s = (uint16_t)tc_below(&g, 100);

			ring_put(ring, size, off, &t, 2);
			ring_put(ring, size, off + 2, &s, 2);
		}
		n = pa_aux_decode(ring, size, off, end, &d);
		if (n == 0)
			n0++;
		else if (n == -1)
			nm++;
		else if (n == TIPROF_AUX_REC_SAMPLE_SIZE && d.type == PA_REC_SAMPLE)
			ns++;
		else if (n == TIPROF_AUX_REC_LOST_SIZE && d.type == PA_REC_LOST)
			nl++;
		else
			odd++;
		free(ring);
	}
	CHECK(odd == 0 && n0 && nm && ns && nl, "20000 random rings: %lu truncated, %lu malformed, "
	      "%lu samples, %lu lost, %lu other", n0, nm, ns, nl, odd);
}

/* ---------------------------------------------------------------- sysfs */

static char base[400];	/* TMPDIR/sysfs */

/* Write text to root/rel (parent directories made). */
static void put(const char *root, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "test_perf_aux: cannot write %s\n", path);
		exit(2);
	}
}

/* A new, empty devices directory base/name; pa_pmu_find will list it. */
static const char *new_root(const char *name)
{
	char cmd[1200];

	sysfs_root = fake_root;
	snprintf(fake_root, sizeof(fake_root), "%s/%s", base, name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", fake_root, fake_root);
	if (system(cmd) != 0) {
		fprintf(stderr, "test_perf_aux: cannot make %s\n", fake_root);
		exit(2);
	}
	return fake_root;
}

/* The PMU of docs/driver.md under root/name (sysfs files end with a newline). */
static void put_pmu(const char *root, const char *name, const char *type)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "%s/type", name);
	put(root, rel, type);
	snprintf(rel, sizeof(rel), "%s/caps/commit_width", name);
	put(root, rel, "4\n");
	snprintf(rel, sizeof(rel), "%s/caps/xlen", name);
	put(root, rel, "64\n");
	snprintf(rel, sizeof(rel), "%s/caps/fifo_depth", name);
	put(root, rel, "16\n");
	snprintf(rel, sizeof(rel), "%s/caps/version", name);
	put(root, rel, "1.0\n");
	snprintf(rel, sizeof(rel), "%s/format/mode", name);
	put(root, rel, "config:0-1\n");
	snprintf(rel, sizeof(rel), "%s/format/rand_bits", name);
	put(root, rel, "config:8-12\n");
	snprintf(rel, sizeof(rel), "%s/format/watermark", name);
	put(root, rel, "config:16-31\n");
	snprintf(rel, sizeof(rel), "%s/format/seed", name);
	put(root, rel, "config1:0-31\n");
	snprintf(rel, sizeof(rel), "%s/cpumask", name);
	put(root, rel, "0-3\n");
}

static const struct pa_field *field(const struct pa_pmu *p, const char *name)
{
	for (int i = 0; i < p->nfields; i++)
		if (strcmp(p->fields[i].name, name) == 0)
			return &p->fields[i];
	return NULL;
}

static void test_pmu_find(void)
{
	struct pa_pmu p;
	char err[256], want[1024];
	const char *root;
	const struct pa_field *f;
	int rc;

	tc_section("pa_pmu_find on fake sysfs trees");
	/* the real one: on a machine without the unit there is no tiprof PMU */
	{
		DIR *d = opendir(real_sysfs);
		struct dirent *e;
		int have = 0;

		while (d && (e = readdir(d)))
			have |= strncmp(e->d_name, "tiprof", 6) == 0;
		if (d)
			closedir(d);
		sysfs_root = real_sysfs;
		strcpy(err, "x");
		rc = pa_pmu_find(&p, err, sizeof(err));
		if (!have)
			CHECK(rc == -1 && err[0] == 0, "%s has no tiprof PMU: -1, no message (rc %d)",
			      real_sysfs, rc);
		else
			printf("  (%s has a tiprof PMU: pa_pmu_find gives %d %s)\n", real_sysfs, rc,
			       err);
	}

	/* no devices directory, an empty one, one without tiprof PMUs */
	sysfs_root = fake_root;
	snprintf(fake_root, sizeof(fake_root), "%s/does-not-exist", base);
	strcpy(err, "x");
	CHECK(pa_pmu_find(&p, err, sizeof(err)) == -1 && !err[0], "no devices directory: -1");
	root = new_root("empty");
	CHECK(pa_pmu_find(&p, err, sizeof(err)) == -1 && !err[0], "no PMU at all: -1");
	root = new_root("others");
	put(root, "cpu/type", "4\n");
	put(root, "software/type", "1\n");
	put(root, "tip/type", "9\n");
	CHECK(pa_pmu_find(&p, err, sizeof(err)) == -1 && !err[0], "only other PMUs: -1");

	/* the driver's PMU */
	root = new_root("one");
	put(root, "cpu/type", "4\n");
	put_pmu(root, "tiprof_pmu", "42\n");
	rc = pa_pmu_find(&p, err, sizeof(err));
	snprintf(want, sizeof(want), "%s/tiprof_pmu", root);
	if (CHECK(rc == 0, "tiprof_pmu found (rc %d, %s)", rc, err)) {
		CHECK(strcmp(p.dir, want) == 0, "dir %s", p.dir);
		CHECK(p.type == 42 && p.w == 4 && p.xlen == 64 && p.fifo_depth == 16 &&
		      p.major == 1 && p.minor == 0, "type %u, caps W=%u XLEN=%u FIFO=%u, version "
		      "%u.%u", p.type, p.w, p.xlen, p.fifo_depth, p.major, p.minor);
		CHECK(p.nfields == 4, "4 format fields (%d)", p.nfields);
		f = field(&p, "mode");
		CHECK(f && f->word == 0 && f->lo == 0 && f->hi == 1, "mode is config:0-1");
		f = field(&p, "rand_bits");
		CHECK(f && f->word == 0 && f->lo == 8 && f->hi == 12, "rand_bits is config:8-12");
		f = field(&p, "watermark");
		CHECK(f && f->word == 0 && f->lo == 16 && f->hi == 31, "watermark is config:16-31");
		f = field(&p, "seed");
		CHECK(f && f->word == 1 && f->lo == 0 && f->hi == 31, "seed is config1:0-31");
		CHECK_EQ(pa_pmu_unit_id(&p), 0x00017119u, "unit id of version 1.0");
	}

	/* more than one: the first by name */
	root = new_root("two");
	put_pmu(root, "tiprof_pmu", "42\n");
	put_pmu(root, "tiprof_a", "43\n");
	put_pmu(root, "tiprof_z", "44\n");
	rc = pa_pmu_find(&p, err, sizeof(err));
	CHECK(rc == 0 && p.type == 43 && strstr(p.dir, "/tiprof_a"), "of three, tiprof_a (type %u)",
	      p.type);

	/* long PMU names (sysfs names are short, but nothing may overflow) */
	{
		char name[240];

		root = new_root("long");
		memset(name, 'x', sizeof(name) - 1);
		memcpy(name, "tiprof", 6);
		name[199] = 0;
		if (strlen(root) + 1 + 199 < sizeof(p.dir)) {
			put_pmu(root, name, "7\n");
			CHECK(pa_pmu_find(&p, err, sizeof(err)) == 0 && p.type == 7,
			      "a 199-character PMU name");
		}
		root = new_root("long2");
		name[199] = 'x';
		name[sizeof(name) - 1] = 0;
		put_pmu(root, name, "8\n");
		rc = pa_pmu_find(&p, err, sizeof(err));
		CHECK(rc == -1 || rc == -2, "a 239-character PMU name: not used (rc %d)", rc);
	}
}

/* Each malformed tree gives -2 with a message naming what is wrong. */
static void test_pmu_malformed(void)
{
	static const struct {
		const char *what, *rel, *text;	/* text NULL: remove rel */
		const char *msg;		/* in the message */
	} bad[] = {
		{ "no type", "type", NULL, "type" },
		{ "type not a number", "type", "abc\n", "type" },
		{ "type negative", "type", "-1\n", "type" },
		{ "type too large", "type", "4294967296\n", "type" },
		{ "type with trailing junk", "type", "42x\n", "type" },
		{ "empty type", "type", "", "type" },
		{ "no caps/xlen", "caps/xlen", NULL, "caps" },
		{ "caps/commit_width empty", "caps/commit_width", "\n", "caps" },
		{ "no caps/version", "caps/version", NULL, "version" },
		{ "version without minor", "caps/version", "1\n", "version" },
		{ "version not a number", "caps/version", "v1.0\n", "version" },
		{ "no format directory", "format", NULL, "format" },
		{ "format of config3", "format/mode", "config3:0-1\n", "mode" },
		{ "format range reversed", "format/mode", "config:5-2\n", "mode" },
		{ "format bit 64", "format/mode", "config:0-64\n", "mode" },
		{ "format without bits", "format/mode", "config:\n", "mode" },
		{ "format negative bit", "format/mode", "config:-1\n", "mode" },
		{ "format trailing junk", "format/mode", "config:0-1x\n", "mode" },
		{ "format split range", "format/mode", "config:0-1,4-5\n", "mode" },
		{ "format empty", "format/mode", "", "mode" },
	};
	struct pa_pmu p;
	char err[256], cmd[1200];

	tc_section("pa_pmu_find on malformed PMUs");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *root = new_root("bad");
		int rc;

		put_pmu(root, "tiprof_pmu", "42\n");
		if (bad[i].text) {
			char rel[256];

			snprintf(rel, sizeof(rel), "tiprof_pmu/%s", bad[i].rel);
			put(root, rel, bad[i].text);
		} else {
			snprintf(cmd, sizeof(cmd), "rm -rf '%s/tiprof_pmu/%s'", root, bad[i].rel);
			if (system(cmd) != 0)
				continue;
		}
		err[0] = 0;
		rc = pa_pmu_find(&p, err, sizeof(err));
		CHECK(rc == -2 && strstr(err, bad[i].msg) && !strchr(err, '\n'),
		      "%s: -2 with a reason (rc %d, \"%s\")", bad[i].what, rc, err);
	}

	/* a message longer than the caller's buffer is cut, not overflowed */
	{
		const char *root = new_root("bad");
		char small[8];

		put_pmu(root, "tiprof_pmu", "abc\n");
		memset(small, 'z', sizeof(small));
		CHECK(pa_pmu_find(&p, small, 5) == -2 && strlen(small) == 4 && small[5] == 'z',
		      "message cut to the caller's 5 bytes");
	}

	/* more format fields than PA_MAX_FIELDS, and over-long names: no overflow */
	{
		const char *root = new_root("many");
		char rel[256], text[64];
		int ok;

		put_pmu(root, "tiprof_pmu", "42\n");
		for (int i = 0; i < PA_MAX_FIELDS + 8; i++) {
			snprintf(rel, sizeof(rel), "tiprof_pmu/format/f%02d", i);
			snprintf(text, sizeof(text), "config2:%d-%d\n", i, i + 1);
			put(root, rel, text);
		}
		put(root, "tiprof_pmu/format/a_field_name_longer_than_31_chars", "config:2\n");
		ok = pa_pmu_find(&p, err, sizeof(err)) == 0 && p.nfields <= PA_MAX_FIELDS;
		for (int i = 0; ok && i < p.nfields; i++) {
			const struct pa_field *f = &p.fields[i];
			int k;

			if (sscanf(f->name, "f%d", &k) == 1)
				ok = f->word == 2 && f->lo == k && f->hi == k + 1;
			else
				ok = strlen(f->name) < sizeof(f->name);
		}
		CHECK(ok, "%d format entries: at most %d kept, each right (%d)",
		      PA_MAX_FIELDS + 4 + 1, PA_MAX_FIELDS, p.nfields);
	}
}

/* pa_pmu_set and pa_pmu_unit_id on a PMU described by hand. */
static void test_pmu_set(void)
{
	struct pa_pmu p;
	uint64_t cfg[3];
	int rc;

	tc_section("pa_pmu_set, pa_pmu_unit_id");
	memset(&p, 0, sizeof(p));
	p.nfields = 6;
	p.fields[0] = (struct pa_field){ "mode", 0, 0, 1 };
	p.fields[1] = (struct pa_field){ "rand_bits", 0, 8, 12 };
	p.fields[2] = (struct pa_field){ "watermark", 0, 16, 31 };
	p.fields[3] = (struct pa_field){ "seed", 1, 0, 31 };
	p.fields[4] = (struct pa_field){ "all", 2, 0, 63 };
	p.fields[5] = (struct pa_field){ "top", 1, 63, 63 };

	memset(cfg, 0, sizeof(cfg));
	CHECK(pa_pmu_set(&p, cfg, "mode", 1) == 0 && pa_pmu_set(&p, cfg, "rand_bits", 8) == 0 &&
	      pa_pmu_set(&p, cfg, "watermark", 0xffff) == 0 &&
	      pa_pmu_set(&p, cfg, "seed", 0xdeadbeef) == 0, "four fields set");
	CHECK_EQ(cfg[0], 0xffff0801ull, "config: mode=1 rand_bits=8 watermark=0xffff");
	CHECK_EQ(cfg[1], 0xdeadbeefull, "config1: seed");
	CHECK_EQ(cfg[2], 0, "config2 untouched");

	CHECK(pa_pmu_set(&p, cfg, "mode", 2) == 0, "mode set again");
	CHECK_EQ(cfg[0], 0xffff0802ull, "setting a field again replaces its bits only");
	CHECK(pa_pmu_set(&p, cfg, "rand_bits", 0) == 0, "rand_bits cleared");
	CHECK_EQ(cfg[0], 0xffff0002ull, "a zero value clears the field");

	rc = pa_pmu_set(&p, cfg, "mode", 4);
	CHECK(rc == -2 && cfg[0] == 0xffff0002ull, "a value wider than the field: -2, nothing set");
	CHECK_EQ(pa_pmu_set(&p, cfg, "rand_bits", 32), -2, "rand_bits has 5 bits");
	CHECK_EQ(pa_pmu_set(&p, cfg, "rand_bits", 31), 0, "31 fits in 5 bits");
	CHECK_EQ(pa_pmu_set(&p, cfg, "seed", 1ull << 32), -2, "seed has 32 bits");
	CHECK_EQ(pa_pmu_set(&p, cfg, "nope", 0), -1, "an unknown field: -1");
	CHECK_EQ(pa_pmu_set(&p, cfg, "mod", 0), -1, "a prefix of a field name is no field");
	CHECK(pa_pmu_set(&p, cfg, "all", UINT64_MAX) == 0 && cfg[2] == UINT64_MAX,
	      "a 64-bit field takes any value");
	CHECK(pa_pmu_set(&p, cfg, "top", 1) == 0 && cfg[1] == (0xdeadbeefull | 1ull << 63),
	      "a one-bit field at bit 63");
	CHECK_EQ(pa_pmu_set(&p, cfg, "top", 2), -2, "a one-bit field takes 0 or 1");

	p.major = 2;
	p.minor = 3;
	CHECK_EQ(pa_pmu_unit_id(&p), 0x03027119u, "unit id of version 2.3 (magic 0x7119)");
	p.major = 0;
	p.minor = 0;
	CHECK_EQ(pa_pmu_unit_id(&p), 0x00007119u, "unit id of version 0.0");
	p.major = 0x1ff;
	CHECK_EQ(pa_pmu_unit_id(&p) & 0xffffu, 0x7119u, "a major too wide keeps the magic");
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";

	setvbuf(stdout, NULL, _IOLBF, 0);	/* keep the output if a sanitizer aborts */
	mkdir(dir, 0777);
	snprintf(base, sizeof(base), "%s/sysfs", dir);
	mkdir(base, 0777);
	printf("test_perf_aux: sw/lib/perf_aux (fake sysfs trees in %s)\n", base);
	test_single();
	test_wrap();
	test_stream();
	test_truncated();
	test_malformed();
	test_random();
	test_pmu_find();
	test_pmu_malformed();
	test_pmu_set();
	return tc_summary();
}
