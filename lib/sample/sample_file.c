/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sample_file.c - encode, decode, write, read and dump the tiprof sample file
 * (contract in sample_file.h, byte layout in docs/sample-file.md).
 *
 * Sections, low level to high: little-endian helpers; header and record
 * validation; codecs (pure, no I/O); the writer (temporary file + rename); the
 * reader (buffered stream over the codecs, one-line diagnostics); the dumper.
 */
#include "sample_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Commit-state flag groups of a sample. */
#define SF_FLUSH_FLAGS (TIPROF_SF_MISPRED | TIPROF_SF_FLUSH)
#define SF_ALL_FLAGS (TIPROF_SF_STALLED | TIPROF_SF_FRONTEND | TIPROF_SF_MISPRED | \
		      TIPROF_SF_FLUSH | TIPROF_SF_EXCEPTION)
/* Read buffer of the reader (grown for large extension records). */
#define SF_READ_CHUNK 65536u

/* ---------------------------------------------------------------- little endian */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Set *why (if why is not NULL) and return status. */
static int fail(const char **why, const char *reason, int status)
{
	if (why)
		*why = reason;
	return status;
}

/* Number of set bits of an 8-bit mask. */
static unsigned popcount8(unsigned v)
{
	return (unsigned)__builtin_popcount(v & 0xFFu);
}

/* ---------------------------------------------------------------- validation */

/* Contract in sample_file.h. */
void sf_header_init(struct sf_header *h)
{
	memset(h, 0, sizeof(*h));
	h->version_major = SF_VERSION_MAJOR;
	h->version_minor = SF_VERSION_MINOR;
	h->w = 1;
	h->xlen = 64;
	h->fifo_depth = 1;
	h->period = 1;
	h->priv_filter = TIPROF_TIP_CTRL_PRIV_MASK >> TIPROF_TIP_CTRL_PRIV_SHIFT;
}

/* Contract in sample_file.h. The version fields are not checked here (the decoder
 * checks what it reads; the encoder writes its own). */
int sf_header_validate(const struct sf_header *h, const char **why)
{
	if (h->w != 1 && h->w != 2 && h->w != 4 && h->w != 8)
		return fail(why, "W must be 1, 2, 4 or 8", SF_EHEADER);
	if (h->xlen != 32 && h->xlen != 64)
		return fail(why, "XLEN must be 32 or 64", SF_EHEADER);
	if (h->fifo_depth == 0)
		return fail(why, "FIFO depth must be at least 1", SF_EHEADER);
	if (h->period == 0)
		return fail(why, "sampling period must be at least 1", SF_EHEADER);
	if (h->mode > TIPROF_MODE_RANDOM_PERIOD)
		return fail(why, "sampling mode must be 0, 1 or 2", SF_EHEADER);
	if (h->rand_bits > 31)
		return fail(why, "random bits must be 0..31", SF_EHEADER);
	if (h->priv_filter > 0xF)
		return fail(why, "privilege filter must be 4 bits", SF_EHEADER);
	if (h->source > SF_SOURCE_BOARD)
		return fail(why, "unknown source (must be 0, 1 or 2)", SF_EHEADER);
	if (h->elf_path_len > SF_PATH_MAX)
		return fail(why, "ELF path longer than 4095 bytes", SF_EHEADER);
	if (h->build_id_len > SF_BUILD_ID_MAX)
		return fail(why, "build-id longer than 64 bytes", SF_EHEADER);
	if (memchr(h->elf_path, 0, h->elf_path_len))
		return fail(why, "ELF path contains a NUL byte", SF_EHEADER);
	return 0;
}

/* Contract in sample_file.h. */
size_t sf_header_size(const struct sf_header *h)
{
	return SF_HEADER_FIXED + (size_t)h->elf_path_len + h->build_id_len;
}

/* The commit state of a flag set, as a small code: 0 Computing, 1 Stalled,
 * 2 Flushed, 3 Drained, -1 an impossible combination. */
static int flags_state(unsigned flags)
{
	if (flags == 0)
		return 0;
	if (flags == TIPROF_SF_STALLED)
		return 1;
	if (flags == TIPROF_SF_FRONTEND)
		return 3;
	if (flags == TIPROF_SF_EXCEPTION || (flags & ~SF_FLUSH_FLAGS) == 0)
		return 2;
	return -1;
}

/* Contract in sample_file.h. */
int sf_sample_validate(const struct sf_header *h, const struct tiprof_sample *s,
		       const char **why)
{
	unsigned wmask = (1u << h->w) - 1u;
	uint64_t amask = h->xlen == 64 ? ~(uint64_t)0 : 0xFFFFFFFFu;
	int st = flags_state(s->flags);

	if (st < 0 || (s->flags & ~SF_ALL_FLAGS))
		return fail(why, "impossible combination of state flags", SF_EINVAL);
	if (s->bank >= h->w)
		return fail(why, "bank beyond W", SF_EINVAL);
	if (s->valid == 0)
		return fail(why, "no valid address slot", SF_EINVAL);
	if (s->valid & ~wmask)
		return fail(why, "valid bit beyond W", SF_EINVAL);
	if (s->priv > 3)
		return fail(why, "privilege beyond 3", SF_EINVAL);
	if (st == 2 && (s->bank != 0 || s->valid != 1))
		return fail(why, "flushed sample not in slot 0", SF_EINVAL);
	if (st == 3 && s->valid != (1u << s->bank))
		return fail(why, "drained sample valid bit is not its bank", SF_EINVAL);
	for (unsigned i = 0; i < TIPROF_MAX_BANKS; i++) {
		if (!((s->valid >> i) & 1u) && s->addr[i])
			return fail(why, "nonzero address in an invalid slot", SF_EINVAL);
		if (s->addr[i] & ~amask)
			return fail(why, "address wider than XLEN", SF_EINVAL);
	}
	return 0;
}

/* Contract in sample_file.h. */
size_t sf_sample_size(const struct sf_header *h, const struct tiprof_sample *s)
{
	return SF_SAMPLE_FIXED + popcount8(s->valid) * (size_t)(h->xlen / 8);
}

/* Contract in sample_file.h. */
int sf_object_validate(const struct sf_header *h, const struct sf_object *o,
		       const char **why)
{
	if (o->start >= o->end)
		return fail(why, "object range is empty (start >= end)", SF_EINVAL);
	if (h->xlen == 32 && o->end > 0x100000000ull)
		return fail(why, "object range beyond XLEN", SF_EINVAL);
	if (o->kind > SF_OBJ_MAPPED)
		return fail(why, "unknown object kind (must be 0, 1 or 2)", SF_EINVAL);
	if (o->path_len > SF_PATH_MAX)
		return fail(why, "object path longer than 4095 bytes", SF_EINVAL);
	if (o->build_id_len > SF_BUILD_ID_MAX)
		return fail(why, "object build-id longer than 64 bytes", SF_EINVAL);
	if (memchr(o->path, 0, o->path_len))
		return fail(why, "object path contains a NUL byte", SF_EINVAL);
	return 0;
}

/* Contract in sample_file.h. */
size_t sf_object_size(const struct sf_object *o)
{
	return SF_EXT_FIXED + SF_OBJECT_FIXED + (size_t)o->path_len + o->build_id_len;
}

/* ---------------------------------------------------------------- ProfileMe (1.2) */

/* PM_CTRL bits that are fields (a legal write sets no other bit). */
#define PM_CTRL_FIELDS (TIPROF_PM_CTRL_EN_MASK | TIPROF_PM_CTRL_MODE_MASK | \
			TIPROF_PM_CTRL_IRQ_EN_MASK | TIPROF_PM_CTRL_PRIV_MASK | \
			TIPROF_PM_CTRL_RAND_BITS_MASK | TIPROF_PM_CTRL_UNIT_MASK | \
			TIPROF_PM_CTRL_PAIR_MASK)
#define PM_LATFILT_FIELDS (TIPROF_PM_LATFILT_THRESH_MASK | TIPROF_PM_LATFILT_SEL_MASK | \
			   TIPROF_PM_LATFILT_INV_MASK)
/* Defined bits of the record words that have reserved bits. */
#define PM_SINFO_BITS (TIPROF_PM_REC_SINFO_FMT_MASK | TIPROF_PM_REC_SINFO_PAIR_MASK | \
		       TIPROF_PM_REC_SINFO_PAIR_DIST_MASK | TIPROF_PM_REC_SINFO_PAIR_CYCLES_MASK)
#define PM_INFO_BITS (TIPROF_PM_REC_INFO_EV_MASK | TIPROF_PM_REC_INFO_REASON_MASK | \
		      TIPROF_PM_REC_INFO_PRIV_MASK | TIPROF_PM_REC_INFO_TAGGED_MASK | \
		      TIPROF_PM_REC_INFO_SLOT_MASK | TIPROF_PM_REC_INFO_CTX_MASK | \
		      TIPROF_PM_REC_INFO_PATH_MASK)
#define PM_STAMP_B_BITS (TIPROF_PM_REC_STAMP_B_MEM_MASK | TIPROF_PM_REC_STAMP_B_END_MASK | \
			 TIPROF_PM_REC_STAMP_B_SEEN_MASK)
/* The end bits: exactly one per profile. */
#define PM_END_BITS ((1u << TIPROF_PM_EV_RETIRED) | (1u << TIPROF_PM_EV_ABORTED) | \
		     (1u << TIPROF_PM_EV_TIMEOUT) | (1u << TIPROF_PM_EV_EMPTY))

/* Contract in sample_file.h. */
int sf_pm_config_validate(const struct tiprof_pm_config *c, const char **why)
{
	uint32_t mode = (c->ctrl & TIPROF_PM_CTRL_MODE_MASK) >> TIPROF_PM_CTRL_MODE_SHIFT;
	uint32_t window = (c->pair & TIPROF_PM_PAIR_WINDOW_MASK) >> TIPROF_PM_PAIR_WINDOW_SHIFT;
	uint32_t sel = (c->latfilt & TIPROF_PM_LATFILT_SEL_MASK) >> TIPROF_PM_LATFILT_SEL_SHIFT;

	if (c->f != 1 && c->f != 2 && c->f != 4 && c->f != 8)
		return fail(why, "PM fetch slots F must be 1, 2, 4 or 8", SF_EINVAL);
	if (c->tags != 1 && c->tags != 2)
		return fail(why, "PM tag ids must be 1 or 2", SF_EINVAL);
	if (c->fifo_depth == 0)
		return fail(why, "PM FIFO depth must be at least 1", SF_EINVAL);
	if (c->period < c->f)
		return fail(why, "PM_PERIOD must be at least F (and not 0)", SF_EINVAL);
	if ((c->ctrl & ~(uint32_t)PM_CTRL_FIELDS) || mode > TIPROF_MODE_RANDOM_PERIOD)
		return fail(why, "PM_CTRL has a bit outside its fields or MODE 3", SF_EINVAL);
	if ((c->ctrl & TIPROF_PM_CTRL_PAIR_MASK) && c->tags != 2)
		return fail(why, "PM_CTRL.PAIR set on a unit with one tag id", SF_EINVAL);
	if ((c->pair & ~(uint32_t)TIPROF_PM_PAIR_WINDOW_MASK) || window < 1 || window > 256)
		return fail(why, "PM_PAIR.WINDOW must be 1..256", SF_EINVAL);
	if (c->timeout < 1 || c->timeout > 65535)
		return fail(why, "PM_TIMEOUT must be 1..65535", SF_EINVAL);
	if ((c->latfilt & ~(uint32_t)PM_LATFILT_FIELDS) || sel == 7)
		return fail(why, "PM_LATFILT has a bit outside its fields or SEL 7", SF_EINVAL);
	return 0;
}

/* Check profile p of s (present: profile 0, or profile 1 of a pair). */
static int pm_profile_validate(const struct sf_header *h, const struct tiprof_pm_config *c,
			       const struct tiprof_pm_sample *s, unsigned p, const char **why)
{
	uint64_t amask = h->xlen == 64 ? ~(uint64_t)0 : 0xFFFFFFFFu;
	unsigned o = p * TIPROF_PM_REC_PROFILE_STRIDE;
	uint64_t info = s->w[TIPROF_PM_REC_INFO + o];
	unsigned ev = (unsigned)((info & TIPROF_PM_REC_INFO_EV_MASK) >> TIPROF_PM_REC_INFO_EV_SHIFT);
	unsigned slot = (unsigned)((info & TIPROF_PM_REC_INFO_SLOT_MASK) >>
				   TIPROF_PM_REC_INFO_SLOT_SHIFT);

	if ((s->w[TIPROF_PM_REC_PC + o] | s->w[TIPROF_PM_REC_EA + o]) & ~amask)
		return fail(why, "PM address wider than XLEN", SF_EINVAL);
	if ((info & ~(uint64_t)PM_INFO_BITS) || (s->w[TIPROF_PM_REC_STAMP_B + o] &
						 ~(uint64_t)PM_STAMP_B_BITS))
		return fail(why, "PM record has a reserved bit set", SF_EINVAL);
	if (popcount8(ev & PM_END_BITS) != 1)
		return fail(why, "PM profile without exactly one of RETIRED, ABORTED, TIMEOUT, "
			    "EMPTY", SF_EINVAL);
	if ((info & TIPROF_PM_REC_INFO_REASON_MASK) && !(ev & (1u << TIPROF_PM_EV_ABORTED)))
		return fail(why, "PM abort reason without ABORTED", SF_EINVAL);
	if (c && slot >= c->f)
		return fail(why, "PM slot beyond F", SF_EINVAL);
	return 0;
}

/* Contract in sample_file.h. */
int sf_pm_sample_validate(const struct sf_header *h, const struct tiprof_pm_config *c,
			  const struct tiprof_pm_sample *s, const char **why)
{
	uint64_t si = s->w[TIPROF_PM_REC_SINFO];
	unsigned fmt = (unsigned)((si & TIPROF_PM_REC_SINFO_FMT_MASK) >>
				  TIPROF_PM_REC_SINFO_FMT_SHIFT);
	unsigned dist = (unsigned)((si & TIPROF_PM_REC_SINFO_PAIR_DIST_MASK) >>
				   TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT);
	int pair = (si & TIPROF_PM_REC_SINFO_PAIR_MASK) != 0;
	int ret;

	if (fmt != TIPROF_PM_REC_FMT)
		return fail(why, "PM record FMT is not 1", SF_EINVAL);
	if (si & ~(uint64_t)PM_SINFO_BITS)
		return fail(why, "PM record has a reserved bit set", SF_EINVAL);
	if (pair && (dist < 1 || dist > 256))
		return fail(why, "PM pair distance must be 1..256", SF_EINVAL);
	if (!pair && (si & (TIPROF_PM_REC_SINFO_PAIR_DIST_MASK |
			    TIPROF_PM_REC_SINFO_PAIR_CYCLES_MASK)))
		return fail(why, "PM single sample with pair fields", SF_EINVAL);
	if (pair && c && c->tags != 2)
		return fail(why, "PM pair from a unit with one tag id", SF_EINVAL);
	for (unsigned i = 0; !pair && i < TIPROF_PM_REC_PROFILE_STRIDE; i++)
		if (s->w[TIPROF_PM_REC_PC + TIPROF_PM_REC_PROFILE_STRIDE + i])
			return fail(why, "PM single sample with a second profile", SF_EINVAL);
	ret = pm_profile_validate(h, c, s, 0, why);
	if (!ret && pair)
		ret = pm_profile_validate(h, c, s, 1, why);
	return ret;
}

/* Contract in sample_file.h. */
int sf_pm_config_encode(const struct tiprof_pm_config *c, uint8_t *buf, size_t cap,
			const char **why)
{
	uint8_t *p = buf + SF_EXT_FIXED;

	if (sf_pm_config_validate(c, why))
		return SF_EINVAL;
	if (cap < SF_EXT_FIXED + SF_PM_CONFIG_FIXED)
		return fail(why, "buffer too small", SF_ENEED);
	buf[0] = SF_REC_PM_CONFIG;
	put32(buf + 1, SF_PM_CONFIG_FIXED);
	p[0] = c->f;
	p[1] = c->tags;
	put16(p + 2, c->fifo_depth);
	put32(p + 4, c->ctrl);
	put32(p + 8, c->period);
	put32(p + 12, c->pair);
	put32(p + 16, c->timeout);
	put32(p + 20, c->evfilt);
	put32(p + 24, c->latfilt);
	put16(p + 28, c->issue_width);
	return SF_EXT_FIXED + SF_PM_CONFIG_FIXED;
}

/* Contract in sample_file.h. */
int sf_pm_sample_encode(const struct sf_header *h, const struct tiprof_pm_config *c,
			const struct tiprof_pm_sample *s, uint8_t *buf, size_t cap,
			const char **why)
{
	if (sf_pm_sample_validate(h, c, s, why))
		return SF_EINVAL;
	if (cap < SF_EXT_FIXED + SF_PM_SAMPLE_FIXED)
		return fail(why, "buffer too small", SF_ENEED);
	buf[0] = SF_REC_PM_SAMPLE;
	put32(buf + 1, SF_PM_SAMPLE_FIXED);
	for (unsigned i = 0; i < TIPROF_PM_REC_WORDS; i++)
		put64(buf + SF_EXT_FIXED + 8 * i, s->w[i]);
	return SF_EXT_FIXED + SF_PM_SAMPLE_FIXED;
}

/* Contract in sample_file.h. */
int sf_pm_counts_encode(uint64_t samples, const struct tiprof_pm_counts *n, uint8_t *buf,
			size_t cap)
{
	uint8_t *p = buf + SF_EXT_FIXED;

	if (cap < SF_EXT_FIXED + SF_PM_COUNTS_FIXED)
		return SF_ENEED;
	buf[0] = SF_REC_PM_COUNTS;
	put32(buf + 1, SF_PM_COUNTS_FIXED);
	put64(p, samples);
	put64(p + 8, n->taken);
	put64(p + 16, n->lost);
	put64(p + 24, n->filtered);
	put64(p + 32, n->collided);
	put64(p + 40, n->lost_sw);
	return SF_EXT_FIXED + SF_PM_COUNTS_FIXED;
}

/* Decode the payload p[0..len) of a ProfileMe record of type `type` into r. */
static int pm_decode(const struct sf_header *h, unsigned type, const uint8_t *p, uint32_t len,
		     struct sf_record *r, const char **why)
{
	if (type == SF_REC_PM_CONFIG) {
		struct tiprof_pm_config *c = &r->pm_config;

		if (len < SF_PM_CONFIG_FIXED)
			return fail(why, "PM config record shorter than its fixed part",
				    SF_ERECORD);
		memset(c, 0, sizeof(*c));
		c->f = p[0];
		c->tags = p[1];
		c->fifo_depth = get16(p + 2);
		c->ctrl = get32(p + 4);
		c->period = get32(p + 8);
		c->pair = get32(p + 12);
		c->timeout = get32(p + 16);
		c->evfilt = get32(p + 20);
		c->latfilt = get32(p + 24);
		c->issue_width = get16(p + 28);
		return sf_pm_config_validate(c, why) ? SF_ERECORD : 0;
	}
	if (type == SF_REC_PM_SAMPLE) {
		if (len < SF_PM_SAMPLE_FIXED)
			return fail(why, "PM sample record shorter than 12 words", SF_ERECORD);
		for (unsigned i = 0; i < TIPROF_PM_REC_WORDS; i++)
			r->pm_sample.w[i] = get64(p + 8 * i);
		return sf_pm_sample_validate(h, NULL, &r->pm_sample, why) ? SF_ERECORD : 0;
	}
	if (len < SF_PM_COUNTS_FIXED)
		return fail(why, "PM counts record shorter than its fixed part", SF_ERECORD);
	r->pm_count_samples = get64(p);
	r->pm_counts.taken = get64(p + 8);
	r->pm_counts.lost = get64(p + 16);
	r->pm_counts.filtered = get64(p + 24);
	r->pm_counts.collided = get64(p + 32);
	r->pm_counts.lost_sw = get64(p + 40);
	return 0;
}

/* ---------------------------------------------------------------- codecs */

/* Contract in sample_file.h. */
int sf_header_encode(const struct sf_header *h, uint8_t *buf, size_t cap,
		     const char **why)
{
	size_t n = sf_header_size(h);
	int ret = sf_header_validate(h, why);

	if (ret)
		return SF_EINVAL;
	if (cap < n)
		return fail(why, "buffer too small", SF_ENEED);
	memset(buf, 0, SF_HEADER_FIXED);
	memcpy(buf, SF_MAGIC, SF_MAGIC_LEN);
	put16(buf + 8, SF_VERSION_MAJOR);
	put16(buf + 10, SF_VERSION_MINOR);
	put32(buf + 12, (uint32_t)n);
	buf[16] = h->w;
	buf[17] = h->xlen;
	put16(buf + 18, h->fifo_depth);
	put32(buf + 20, h->unit_id);
	put32(buf + 24, h->period);
	buf[28] = h->mode;
	buf[29] = h->rand_bits;
	buf[30] = h->priv_filter;
	buf[31] = h->source;
	put64(buf + 32, h->clock_hz);
	put64(buf + 40, h->start_cycle);
	put64(buf + 48, h->start_time_ns);
	put16(buf + 56, h->elf_path_len);
	buf[58] = h->build_id_len;
	/* 59..63 reserved, zero */
	memcpy(buf + SF_HEADER_FIXED, h->elf_path, h->elf_path_len);
	memcpy(buf + SF_HEADER_FIXED + h->elf_path_len, h->build_id, h->build_id_len);
	return (int)n;
}

/* Contract in sample_file.h. The magic is checked on however many bytes are present,
 * so a foreign file is recognised from its first byte, not only from its 8th. */
int sf_header_decode(const uint8_t *buf, size_t len, struct sf_header *h,
		     const char **why)
{
	size_t m = len < SF_MAGIC_LEN ? len : SF_MAGIC_LEN;
	uint32_t size;
	int ret;

	if (memcmp(buf, SF_MAGIC, m) != 0)
		return fail(why, "bad magic", SF_EMAGIC);
	if (len < 12)
		return fail(why, "header incomplete", SF_ENEED);
	memset(h, 0, sizeof(*h));
	h->version_major = get16(buf + 8);
	h->version_minor = get16(buf + 10);
	if (h->version_major != SF_VERSION_MAJOR)
		return fail(why, "unsupported major version", SF_EVERSION);
	if (len < SF_HEADER_FIXED)
		return fail(why, "header incomplete", SF_ENEED);
	size = get32(buf + 12);
	h->w = buf[16];
	h->xlen = buf[17];
	h->fifo_depth = get16(buf + 18);
	h->unit_id = get32(buf + 20);
	h->period = get32(buf + 24);
	h->mode = buf[28];
	h->rand_bits = buf[29];
	h->priv_filter = buf[30];
	h->source = buf[31];
	h->clock_hz = get64(buf + 32);
	h->start_cycle = get64(buf + 40);
	h->start_time_ns = get64(buf + 48);
	h->elf_path_len = get16(buf + 56);
	h->build_id_len = buf[58];
	if (h->elf_path_len > SF_PATH_MAX)
		return fail(why, "ELF path longer than 4095 bytes", SF_EHEADER);
	if (h->build_id_len > SF_BUILD_ID_MAX)
		return fail(why, "build-id longer than 64 bytes", SF_EHEADER);
	if (size < sf_header_size(h) || size > SF_HEADER_MAX)
		return fail(why, "header size disagrees with its contents", SF_EHEADER);
	if (len < size)
		return fail(why, "header incomplete", SF_ENEED);
	memcpy(h->elf_path, buf + SF_HEADER_FIXED, h->elf_path_len);
	h->elf_path[h->elf_path_len] = '\0';
	memcpy(h->build_id, buf + SF_HEADER_FIXED + h->elf_path_len, h->build_id_len);
	ret = sf_header_validate(h, why);
	if (ret)
		return ret;
	return (int)size;
}

/* Contract in sample_file.h. */
int sf_sample_encode(const struct sf_header *h, const struct tiprof_sample *s,
		     uint8_t *buf, size_t cap, const char **why)
{
	size_t n = sf_sample_size(h, s);
	unsigned ab = h->xlen / 8u;
	uint8_t *p;

	if (sf_sample_validate(h, s, why))
		return SF_EINVAL;
	if (cap < n)
		return fail(why, "buffer too small", SF_ENEED);
	buf[0] = SF_REC_SAMPLE;
	buf[1] = s->flags;
	buf[2] = s->bank;
	buf[3] = s->valid;
	buf[4] = s->priv;
	put16(buf + 5, s->ctx);
	put64(buf + 7, s->cycle);
	p = buf + SF_SAMPLE_FIXED;
	for (unsigned i = 0; i < h->w; i++) {
		if (!((s->valid >> i) & 1u))
			continue;
		if (ab == 8)
			put64(p, s->addr[i]);
		else
			put32(p, (uint32_t)s->addr[i]);
		p += ab;
	}
	return (int)n;
}

/* Contract in sample_file.h. */
int sf_object_encode(const struct sf_header *h, const struct sf_object *o, uint8_t *buf,
		     size_t cap, const char **why)
{
	size_t n = sf_object_size(o);
	uint8_t *p = buf + SF_EXT_FIXED;

	if (sf_object_validate(h, o, why))
		return SF_EINVAL;
	if (cap < n)
		return fail(why, "buffer too small", SF_ENEED);
	buf[0] = SF_REC_OBJECT;
	put32(buf + 1, (uint32_t)(n - SF_EXT_FIXED));
	put64(p, o->start);
	put64(p + 8, o->end);
	put64(p + 16, o->bias);
	put16(p + 24, o->path_len);
	p[26] = o->build_id_len;
	p[27] = o->kind;
	memcpy(p + SF_OBJECT_FIXED, o->path, o->path_len);
	memcpy(p + SF_OBJECT_FIXED + o->path_len, o->build_id, o->build_id_len);
	return (int)n;
}

/* Contract in sample_file.h. */
int sf_trailer_encode(const struct sf_trailer *t, uint8_t *buf, size_t cap)
{
	if (cap < SF_TRAILER_SIZE)
		return SF_ENEED;
	buf[0] = SF_REC_TRAILER;
	put64(buf + 1, t->samples);
	put64(buf + 9, t->lost_unit);
	put64(buf + 17, t->lost_sw);
	put64(buf + 25, t->taken_unit);
	put64(buf + 33, t->end_cycle);
	return SF_TRAILER_SIZE;
}

/* Decode a sample record (type byte already checked). */
static int sample_decode(const struct sf_header *h, const uint8_t *buf, size_t len,
			 struct tiprof_sample *s, const char **why)
{
	unsigned ab = h->xlen / 8u;
	size_t n;
	const uint8_t *p;

	if (len < SF_SAMPLE_FIXED)
		return fail(why, "sample record incomplete", SF_ENEED);
	memset(s, 0, sizeof(*s));
	s->flags = buf[1];
	s->bank = buf[2];
	s->valid = buf[3];
	s->priv = buf[4];
	s->ctx = get16(buf + 5);
	s->cycle = get64(buf + 7);
	/* check before the valid mask sizes the record */
	if (sf_sample_validate(h, s, why))
		return SF_ERECORD;
	n = sf_sample_size(h, s);
	if (len < n)
		return fail(why, "sample record incomplete", SF_ENEED);
	p = buf + SF_SAMPLE_FIXED;
	for (unsigned i = 0; i < h->w; i++) {
		if (!((s->valid >> i) & 1u))
			continue;
		s->addr[i] = ab == 8 ? get64(p) : get32(p);
		p += ab;
	}
	return (int)n;
}

/* Decode the payload p[0..len) of an object record (its length already checked
 * against the buffer). */
static int object_decode(const struct sf_header *h, const uint8_t *p, uint32_t len,
			 struct sf_object *o, const char **why)
{
	memset(o, 0, sizeof(*o));
	if (len < SF_OBJECT_FIXED)
		return fail(why, "object record shorter than its fixed part", SF_ERECORD);
	o->start = get64(p);
	o->end = get64(p + 8);
	o->bias = get64(p + 16);
	o->path_len = get16(p + 24);
	o->build_id_len = p[26];
	o->kind = p[27];
	if (o->path_len > SF_PATH_MAX || o->build_id_len > SF_BUILD_ID_MAX ||
	    SF_OBJECT_FIXED + (uint32_t)o->path_len + o->build_id_len > len)
		return fail(why, "object record's path and build-id overrun it", SF_ERECORD);
	memcpy(o->path, p + SF_OBJECT_FIXED, o->path_len);
	o->path[o->path_len] = '\0';
	memcpy(o->build_id, p + SF_OBJECT_FIXED + o->path_len, o->build_id_len);
	if (sf_object_validate(h, o, why))
		return SF_ERECORD;
	return 0;
}

/* Contract in sample_file.h. */
int sf_record_decode(const struct sf_header *h, const uint8_t *buf, size_t len,
		     struct sf_record *r, const char **why)
{
	uint32_t ext;

	if (len < 1)
		return fail(why, "record incomplete", SF_ENEED);
	r->type = buf[0];
	if (buf[0] == SF_REC_SAMPLE)
		return sample_decode(h, buf, len, &r->sample, why);
	if (buf[0] == SF_REC_TRAILER) {
		if (len < SF_TRAILER_SIZE)
			return fail(why, "trailer incomplete", SF_ENEED);
		r->trailer.samples = get64(buf + 1);
		r->trailer.lost_unit = get64(buf + 9);
		r->trailer.lost_sw = get64(buf + 17);
		r->trailer.taken_unit = get64(buf + 25);
		r->trailer.end_cycle = get64(buf + 33);
		return SF_TRAILER_SIZE;
	}
	if (buf[0] >= SF_REC_EXT_MIN && buf[0] <= SF_REC_EXT_MAX) {
		if (len < SF_EXT_FIXED)
			return fail(why, "extension record incomplete", SF_ENEED);
		ext = get32(buf + 1);
		if (ext > SF_EXT_MAX)
			return fail(why, "extension record longer than 16 MiB", SF_ERECORD);
		if (len < SF_EXT_FIXED + (size_t)ext)
			return fail(why, "extension record incomplete", SF_ENEED);
		r->ext_len = ext;
		if (buf[0] == SF_REC_OBJECT && h->version_minor >= 1 &&
		    object_decode(h, buf + SF_EXT_FIXED, ext, &r->object, why))
			return SF_ERECORD;
		if (buf[0] >= SF_REC_PM_CONFIG && buf[0] <= SF_REC_PM_COUNTS &&
		    h->version_minor >= 2 &&
		    pm_decode(h, buf[0], buf + SF_EXT_FIXED, ext, r, why))
			return SF_ERECORD;
		return (int)(SF_EXT_FIXED + ext);
	}
	return fail(why, "unknown record type", SF_ERECORD);
}

/* Contract in sample_file.h. */
const char *sf_strerror(int status)
{
	switch (status) {
	case 0: return "success";
	case SF_ENEED: return "incomplete data";
	case SF_EMAGIC: return "not a tiprof sample file";
	case SF_EVERSION: return "unsupported sample-file version";
	case SF_EHEADER: return "bad header";
	case SF_ERECORD: return "bad record";
	case SF_EINVAL: return "invalid value";
	case SF_EIO: return "I/O error";
	case SF_ENOMEM: return "out of memory";
	case SF_ETRUNC: return "file truncated";
	case SF_ECOUNT: return "sample count disagrees with the trailer";
	case SF_ETRAILING: return "data after the trailer";
	default: return status > 0 ? "success" : "unknown error";
	}
}

/* ---------------------------------------------------------------- writer */

/* Record the writer's first error with a formatted message; returns w->err. */
static int wfail(struct sf_writer *w, int status, int sys_errno, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int wfail(struct sf_writer *w, int status, int sys_errno, const char *fmt, ...)
{
	va_list ap;

	if (w->err)
		return w->err;
	w->err = status;
	w->sys_errno = sys_errno;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	return status;
}

/* Write n bytes to the temporary file; 0 or SF_EIO (sticky). */
static int wwrite(struct sf_writer *w, const void *p, size_t n)
{
	if (w->err)
		return w->err;
	if (fwrite(p, 1, n, w->fp) != n)
		return wfail(w, SF_EIO, errno, "%s: write failed: %s", w->tmp_path,
			     strerror(errno));
	return 0;
}

/* Close and remove the temporary file, free the paths (keeps err and msg). */
static void writer_release(struct sf_writer *w)
{
	if (w->fp)
		fclose(w->fp);
	w->fp = NULL;
	if (w->tmp_path)
		unlink(w->tmp_path);
	free(w->tmp_path);
	free(w->path);
	w->tmp_path = NULL;
	w->path = NULL;
}

/* Contract in sample_file.h. The temporary file is ".NAME.XXXXXX" in the final
 * path's directory so that rename() is atomic (same file system); it is created
 * 0600, like perf.data, since a profile reveals addresses. */
int sf_writer_open(struct sf_writer *w, const char *path, const struct sf_header *h)
{
	const char *why = NULL;
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t len = strlen(path);
	uint8_t *hb;
	int fd, ret;

	memset(w, 0, sizeof(*w));
	if (sf_header_validate(h, &why))
		return wfail(w, SF_EINVAL, 0, "%s: invalid header: %s", path, why);
	if (len == dirlen)
		return wfail(w, SF_EINVAL, 0, "%s: not a file name", path);
	w->hdr = *h;
	w->hdr.version_major = SF_VERSION_MAJOR;
	w->hdr.version_minor = SF_VERSION_MINOR;
	w->path = strdup(path);
	w->tmp_path = malloc(len + 9);
	if (!w->path || !w->tmp_path) {
		free(w->tmp_path);
		w->tmp_path = NULL;
		writer_release(w);
		return wfail(w, SF_ENOMEM, ENOMEM, "%s: out of memory", path);
	}
	memcpy(w->tmp_path, path, dirlen);
	snprintf(w->tmp_path + dirlen, len + 9 - dirlen, ".%s.XXXXXX", path + dirlen);
	fd = mkstemp(w->tmp_path);
	if (fd < 0) {
		ret = errno;
		free(w->tmp_path);
		w->tmp_path = NULL;
		writer_release(w);
		return wfail(w, SF_EIO, ret, "%s: cannot create a temporary file beside it: %s",
			     path, strerror(ret));
	}
	w->fp = fdopen(fd, "wb");
	if (!w->fp) {
		ret = errno;
		close(fd);
		writer_release(w);
		return wfail(w, SF_EIO, ret, "%s: %s", path, strerror(ret));
	}
	hb = malloc(sf_header_size(&w->hdr));
	if (!hb) {
		writer_release(w);
		return wfail(w, SF_ENOMEM, ENOMEM, "%s: out of memory", path);
	}
	ret = sf_header_encode(&w->hdr, hb, sf_header_size(&w->hdr), NULL);
	ret = ret < 0 ? ret : wwrite(w, hb, (size_t)ret);
	free(hb);
	if (ret < 0) {
		writer_release(w);
		return w->err ? w->err : ret;
	}
	return 0;
}

/* Contract in sample_file.h. */
int sf_writer_sample(struct sf_writer *w, const struct tiprof_sample *s)
{
	uint8_t rec[SF_SAMPLE_FIXED + 8 * TIPROF_MAX_BANKS];
	const char *why = NULL;
	int n;

	if (w->err)
		return w->err;
	n = sf_sample_encode(&w->hdr, s, rec, sizeof(rec), &why);
	if (n < 0) {
		/* not sticky: the caller may count it as lost and go on */
		snprintf(w->msg, sizeof(w->msg), "%s: sample %" PRIu64 " is invalid: %s",
			 w->path, w->samples, why);
		return SF_EINVAL;
	}
	if (wwrite(w, rec, (size_t)n))
		return w->err;
	w->samples++;
	return 0;
}

/* Contract in sample_file.h. */
int sf_writer_object(struct sf_writer *w, const struct sf_object *o)
{
	uint8_t rec[SF_EXT_FIXED + SF_OBJECT_FIXED + SF_PATH_MAX + SF_BUILD_ID_MAX];
	const char *why = NULL;
	int n;

	if (w->err)
		return w->err;
	n = sf_object_encode(&w->hdr, o, rec, sizeof(rec), &why);
	if (n < 0) {
		snprintf(w->msg, sizeof(w->msg), "%s: object record %" PRIu64 " is invalid: %s",
			 w->path, w->objects, why);
		return SF_EINVAL;
	}
	if (wwrite(w, rec, (size_t)n))
		return w->err;
	w->objects++;
	return 0;
}

/* Write a ProfileMe record that encoded to rec[0..n) (n < 0: refused, msg from why). */
static int pm_write(struct sf_writer *w, const uint8_t *rec, int n, const char *what,
		    const char *why)
{
	if (n < 0) {
		snprintf(w->msg, sizeof(w->msg), "%s: %s is invalid: %s", w->path, what, why);
		return SF_EINVAL;
	}
	return wwrite(w, rec, (size_t)n) ? w->err : 0;
}

/* Contract in sample_file.h. */
int sf_writer_pm_config(struct sf_writer *w, const struct tiprof_pm_config *c)
{
	uint8_t rec[SF_EXT_FIXED + SF_PM_CONFIG_FIXED];
	const char *why = "a second PM config record (one per file)";
	int n = SF_EINVAL, ret;

	if (w->err)
		return w->err;
	if (!w->pm_config)
		n = sf_pm_config_encode(c, rec, sizeof(rec), &why);
	ret = pm_write(w, rec, n, "PM config", why);
	if (ret == 0) {
		w->pm_config = 1;
		w->pm_cfg = *c;
	}
	return ret;
}

/* Contract in sample_file.h. */
int sf_writer_pm_sample(struct sf_writer *w, const struct tiprof_pm_sample *s)
{
	uint8_t rec[SF_EXT_FIXED + SF_PM_SAMPLE_FIXED];
	const char *why = "no PM config record before it";
	char what[64];
	int n = SF_EINVAL, ret;

	if (w->err)
		return w->err;
	if (w->pm_counts)
		why = "after the PM counts record";
	else if (w->pm_config)
		n = sf_pm_sample_encode(&w->hdr, &w->pm_cfg, s, rec, sizeof(rec), &why);
	snprintf(what, sizeof(what), "PM sample %" PRIu64, w->pm_samples);
	ret = pm_write(w, rec, n, what, why);
	if (ret == 0)
		w->pm_samples++;
	return ret;
}

/* Contract in sample_file.h. */
int sf_writer_pm_counts(struct sf_writer *w, const struct tiprof_pm_counts *c)
{
	uint8_t rec[SF_EXT_FIXED + SF_PM_COUNTS_FIXED];
	int n = SF_EINVAL, ret;

	if (w->err)
		return w->err;
	if (!w->pm_counts)
		n = sf_pm_counts_encode(w->pm_samples, c, rec, sizeof(rec));
	ret = pm_write(w, rec, n, "PM counts", "a second PM counts record (one per file)");
	if (ret == 0)
		w->pm_counts = 1;
	return ret;
}

/* Contract in sample_file.h. */
int sf_writer_close(struct sf_writer *w, const struct sf_trailer *t)
{
	uint8_t rec[SF_TRAILER_SIZE];
	struct sf_trailer tr = *t;
	FILE *fp = w->fp;

	if (!fp && !w->err)
		return wfail(w, SF_EINVAL, 0, "writer is not open");
	tr.samples = w->samples;
	sf_trailer_encode(&tr, rec, sizeof(rec));
	if (!w->err && wwrite(w, rec, sizeof(rec)) == 0) {
		if (fflush(fp) != 0 || fsync(fileno(fp)) != 0)
			wfail(w, SF_EIO, errno, "%s: write failed: %s", w->tmp_path,
			      strerror(errno));
	}
	w->fp = NULL;
	if (fp && fclose(fp) != 0)
		wfail(w, SF_EIO, errno, "%s: close failed: %s", w->tmp_path,
		      strerror(errno));
	if (!w->err && rename(w->tmp_path, w->path) != 0)
		wfail(w, SF_EIO, errno, "%s: cannot rename the finished file into place: %s",
		      w->path, strerror(errno));
	if (!w->err) {
		free(w->tmp_path); /* renamed: nothing to unlink */
		w->tmp_path = NULL;
	}
	writer_release(w);
	return w->err;
}

/* Contract in sample_file.h. */
void sf_writer_abort(struct sf_writer *w)
{
	writer_release(w);
}

/* ---------------------------------------------------------------- reader */

/* Record the reader's first error as "NAME: message"; returns r->err. */
static int rfail(struct sf_reader *r, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int rfail(struct sf_reader *r, int status, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->err)
		return r->err;
	r->err = status;
	n = snprintf(r->msg, sizeof(r->msg), "%s: ", r->name);
	if (n < 0 || (size_t)n >= sizeof(r->msg))
		return status;
	va_start(ap, fmt);
	vsnprintf(r->msg + n, sizeof(r->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return status;
}

/* Make at least `want` unconsumed bytes available in the buffer if the stream has
 * them (fewer only at end of file). Returns 0 or SF_EIO / SF_ENOMEM. */
static int rfill(struct sf_reader *r, size_t want)
{
	if (r->end - r->pos >= want || r->eof)
		return 0;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->end -= r->pos;
		r->pos = 0;
	}
	if (want > r->cap) {
		uint8_t *nb = realloc(r->buf, want);

		if (!nb)
			return rfail(r, SF_ENOMEM, "out of memory");
		r->buf = nb;
		r->cap = want;
	}
	while (r->end < want && !r->eof) {
		size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->fp);

		r->end += got;
		if (got == 0) {
			if (ferror(r->fp))
				return rfail(r, SF_EIO, "read error: %s", strerror(errno));
			r->eof = 1;
		}
	}
	return 0;
}

/* Describe a foreign file from its first bytes (for the bad-magic message). */
static const char *guess_kind(const uint8_t *p, size_t n)
{
	if (n >= 4 && memcmp(p, "\x7f" "ELF", 4) == 0)
		return " (it is an ELF file: pass the sample file, not the program)";
	if (n >= 8 && memcmp(p, "PERFILE2", 8) == 0)
		return " (it is a perf.data file)";
	if (n >= 8 && memcmp(p, TIPROF_LBR_FILE_MAGIC, 8) == 0)
		return " (it is a tiprof-lbr records file: read it with tiprof lbr)";
	if (n >= 8 && memcmp(p, TIPROF_ROB_TRACE_MAGIC, 8) == 0)
		return " (it is a ROB trace: read it with tiprof trace)";
	if (n >= 13 && memcmp(p, TIPROF_ORACLE_MAGIC, 13) == 0)
		return " (it is an Oracle profile: pass it to tiprof report --oracle)";
	if (n == 0)
		return " (the file is empty)";
	return "";
}

/* Common part of the two opens: buffer, header. */
static int reader_start(struct sf_reader *r)
{
	const char *why = "";
	int ret;

	r->buf = malloc(SF_READ_CHUNK);
	if (!r->buf)
		return rfail(r, SF_ENOMEM, "out of memory");
	r->cap = SF_READ_CHUNK;
	ret = rfill(r, SF_HEADER_FIXED);
	for (;;) {
		if (ret)
			return ret;
		ret = sf_header_decode(r->buf + r->pos, r->end - r->pos, &r->hdr, &why);
		if (ret >= 0)
			break;
		if (ret == SF_EMAGIC)
			return rfail(r, ret, "not a tiprof sample file: bad magic%s",
				     guess_kind(r->buf, r->end));
		if (ret == SF_EVERSION)
			return rfail(r, ret, "unsupported sample-file version %u.%u "
				     "(this tiprof reads %u.x): a newer tiprof wrote it",
				     r->hdr.version_major, r->hdr.version_minor,
				     SF_VERSION_MAJOR);
		if (ret == SF_EHEADER)
			return rfail(r, ret, "bad header: %s", why);
		/* SF_ENEED */
		if (r->eof && r->end == 0)
			return rfail(r, SF_ETRUNC, "the file is empty: not a tiprof sample "
				     "file, or the recording never started");
		if (r->eof)
			return rfail(r, SF_ETRUNC, "truncated at byte %zu inside the header "
				     "(%s): the file was cut short", r->end, why);
		if (r->end >= SF_HEADER_FIXED) /* size is known: fetch all of it */
			ret = rfill(r, get32(r->buf + 12));
		else
			ret = rfill(r, SF_HEADER_FIXED);
	}
	r->pos += (size_t)ret;
	r->offset += (uint64_t)ret;
	return 0;
}

/* Contract in sample_file.h. */
int sf_reader_open_stream(struct sf_reader *r, FILE *fp, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	snprintf(r->name, sizeof(r->name), "%s", name);
	return reader_start(r);
}

/* Contract in sample_file.h. */
int sf_reader_open(struct sf_reader *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", path);
	r->fp = fopen(path, "rb");
	if (!r->fp)
		return rfail(r, SF_EIO, "cannot open: %s", strerror(errno));
	r->own_fp = 1;
	return reader_start(r);
}

/* Accept a decoded ProfileMe record `rec` (size bytes, already consumed) into out: its
 * place in the file and, for a sample, the config's constraints. 1 or SF_ERECORD. */
static int pm_next(struct sf_reader *r, const struct sf_record *rec, struct sf_record *out,
		   uint64_t size)
{
	const char *why = NULL;
	uint64_t at = r->offset - size;

	if (rec->type == SF_REC_PM_CONFIG && r->has_pm_config)
		why = "a second PM config record";
	else if (rec->type != SF_REC_PM_CONFIG && rec->type != SF_REC_PM_COUNTS &&
		 !r->has_pm_config)
		why = "a PM sample before the PM config record";
	else if (rec->type != SF_REC_PM_CONFIG && r->has_pm_counts)
		why = rec->type == SF_REC_PM_COUNTS ? "a second PM counts record" :
		      "a PM sample after the PM counts record";
	else if (rec->type == SF_REC_PM_SAMPLE)
		sf_pm_sample_validate(&r->hdr, &r->pm_config, &rec->pm_sample, &why);
	else if (rec->type == SF_REC_PM_COUNTS && rec->pm_count_samples != r->pm_samples)
		why = "the PM counts record's sample count disagrees with the PM samples before it";
	if (why)
		return rfail(r, SF_ERECORD, "bad record at byte %" PRIu64 " (after %" PRIu64
			     " PM samples): %s", at, r->pm_samples, why);
	out->type = rec->type;
	out->ext_len = rec->ext_len;
	if (rec->type == SF_REC_PM_CONFIG) {
		out->pm_config = r->pm_config = rec->pm_config;
		r->has_pm_config = 1;
	} else if (rec->type == SF_REC_PM_SAMPLE) {
		out->pm_sample = rec->pm_sample;
		r->pm_samples++;
	} else {
		out->pm_counts = r->pm_counts = rec->pm_counts;
		out->pm_count_samples = rec->pm_count_samples;
		r->has_pm_counts = 1;
	}
	return 1;
}

/* Contract in sample_file.h. */
int sf_reader_next_record(struct sf_reader *r, struct sf_record *out)
{
	struct sf_record rec;
	const char *why = "";
	int ret;

	if (r->err)
		return r->err;
	if (r->done)
		return 0;
	for (;;) {
		ret = rfill(r, SF_SAMPLE_FIXED);
		if (ret)
			return ret;
		if (r->pos == r->end)
			return rfail(r, SF_ETRUNC, "truncated: the file ends after %" PRIu64
				     " samples without a trailer (the recording did not "
				     "finish?)", r->samples);
		ret = sf_record_decode(&r->hdr, r->buf + r->pos, r->end - r->pos, &rec, &why);
		if (ret == SF_ENEED) {
			size_t have = r->end - r->pos;
			/* ask for more: the fixed part first, then the exact size */
			size_t want = have + 1;

			if (rec.type == SF_REC_SAMPLE)
				want = have < SF_SAMPLE_FIXED ? SF_SAMPLE_FIXED :
				       SF_SAMPLE_FIXED + popcount8(r->buf[r->pos + 3]) *
				       (size_t)(r->hdr.xlen / 8);
			else if (rec.type == SF_REC_TRAILER)
				want = SF_TRAILER_SIZE;
			else if (have >= SF_EXT_FIXED)
				want = SF_EXT_FIXED + (size_t)get32(r->buf + r->pos + 1);
			if (r->eof)
				return rfail(r, SF_ETRUNC, "truncated at byte %" PRIu64
					     " (%s after %" PRIu64 " samples): the file was "
					     "cut short", r->offset + have, why, r->samples);
			ret = rfill(r, want > have ? want : have + 1);
			if (ret)
				return ret;
			continue;
		}
		if (ret < 0)
			return rfail(r, ret, "bad record at byte %" PRIu64 " (after %" PRIu64
				     " samples): %s", r->offset, r->samples, why);
		r->pos += (size_t)ret;
		r->offset += (uint64_t)ret;
		if (rec.type == SF_REC_SAMPLE) {
			out->type = rec.type;
			out->sample = rec.sample;
			r->samples++;
			return 1;
		}
		if (rec.type == SF_REC_TRAILER)
			break;
		if (rec.type == SF_REC_OBJECT && r->hdr.version_minor >= 1) {
			out->type = rec.type;
			out->object = rec.object;
			out->ext_len = rec.ext_len;
			r->objects++;
			return 1;
		}
		if (rec.type >= SF_REC_PM_CONFIG && rec.type <= SF_REC_PM_COUNTS &&
		    r->hdr.version_minor >= 2)
			return pm_next(r, &rec, out, (uint64_t)ret);
		r->ext_records++;
	}
	r->trailer = rec.trailer;
	if (r->trailer.samples != r->samples)
		return rfail(r, SF_ECOUNT, "the trailer counts %" PRIu64 " samples but the "
			     "file holds %" PRIu64, r->trailer.samples, r->samples);
	ret = rfill(r, 1);
	if (ret)
		return ret;
	if (r->end > r->pos)
		return rfail(r, SF_ETRAILING, "unexpected data after the trailer at byte %"
			     PRIu64, r->offset);
	r->done = 1;
	return 0;
}

/* Contract in sample_file.h. */
int sf_reader_next(struct sf_reader *r, struct tiprof_sample *s)
{
	struct sf_record rec;
	int ret;

	while ((ret = sf_reader_next_record(r, &rec)) == 1 && rec.type != SF_REC_SAMPLE)
		;
	if (ret == 1)
		*s = rec.sample;
	return ret;
}

/* Contract in sample_file.h. */
const char *sf_reader_error(const struct sf_reader *r)
{
	return r->err ? r->msg : "";
}

/* Contract in sample_file.h. */
void sf_reader_close(struct sf_reader *r)
{
	if (r->own_fp && r->fp)
		fclose(r->fp);
	r->fp = NULL;
	r->own_fp = 0;
	free(r->buf);
	r->buf = NULL;
	r->cap = r->pos = r->end = 0;
}

/* ---------------------------------------------------------------- dumper */

/* Contract in sample_file.h. */
const char *sf_state_name(const struct tiprof_sample *s)
{
	static const char *const names[] = { "computing", "stalled", "flushed", "drained" };
	int st = flags_state(s->flags);

	return st < 0 ? "invalid" : names[st];
}

/* Name of a privilege level. */
static const char *priv_name(unsigned p)
{
	static const char *const names[] = { "U", "S", "H", "M" };

	return names[p & 3u];
}

/* Name of a sampling mode. */
static const char *mode_name(unsigned m)
{
	switch (m) {
	case TIPROF_MODE_PERIODIC: return "periodic";
	case TIPROF_MODE_RANDOM_INTERVAL: return "random-interval";
	case TIPROF_MODE_RANDOM_PERIOD: return "random-period";
	default: return "invalid";
	}
}

/* Contract in sample_file.h. */
int sf_dump_header(FILE *out, const struct sf_header *h)
{
	static const char *const sources[] = { "unknown", "simulator", "board" };
	int bad = 0;

	bad |= fprintf(out, "tiprof sample file %u.%u\n", h->version_major,
		       h->version_minor) < 0;
	bad |= fprintf(out, "unit: W=%u XLEN=%u FIFO=%u id=0x%08" PRIx32 " (map %u.%u)\n",
		       h->w, h->xlen, h->fifo_depth, h->unit_id,
		       (unsigned)((h->unit_id & TIPROF_TIP_ID_MAJOR_MASK) >>
				  TIPROF_TIP_ID_MAJOR_SHIFT),
		       (unsigned)((h->unit_id & TIPROF_TIP_ID_MINOR_MASK) >>
				  TIPROF_TIP_ID_MINOR_SHIFT)) < 0;
	bad |= fprintf(out, "sampling: period=%" PRIu32 " mode=%s rand_bits=%u priv=",
		       h->period, mode_name(h->mode), h->rand_bits) < 0;
	for (unsigned p = 0, first = 1; p < 4; p++) {
		if ((h->priv_filter >> p) & 1u) {
			bad |= fprintf(out, "%s%s", first ? "" : ",", priv_name(p)) < 0;
			first = 0;
		}
	}
	bad |= fprintf(out, "\nsource: %s\n", h->source <= SF_SOURCE_BOARD ?
		       sources[h->source] : "invalid") < 0;
	bad |= fprintf(out, "workload: %s build-id=", h->elf_path_len ? h->elf_path :
		       "(unknown)") < 0;
	for (unsigned i = 0; i < h->build_id_len; i++)
		bad |= fprintf(out, "%02x", h->build_id[i]) < 0;
	bad |= fprintf(out, "%s\n", h->build_id_len ? "" : "(none)") < 0;
	bad |= fprintf(out, "clock: %" PRIu64 " Hz start_cycle=%" PRIu64
		       " start_time=%" PRIu64 ".%09" PRIu64 "\n", h->clock_hz,
		       h->start_cycle, h->start_time_ns / 1000000000u,
		       h->start_time_ns % 1000000000u) < 0;
	return bad ? SF_EIO : 0;
}

/* Contract in sample_file.h. */
int sf_dump_sample(FILE *out, const struct sf_header *h, uint64_t idx,
		   const struct tiprof_sample *s)
{
	int bad = 0;
	int digits = h->xlen / 4;

	bad |= fprintf(out, "%" PRIu64 ": cycle=%" PRIu64 " %s", idx, s->cycle,
		       sf_state_name(s)) < 0;
	if (s->flags & TIPROF_SF_MISPRED)
		bad |= fputs("+mispred", out) < 0;
	if (s->flags & TIPROF_SF_FLUSH)
		bad |= fputs("+flush", out) < 0;
	if (s->flags & TIPROF_SF_EXCEPTION)
		bad |= fputs("+exception", out) < 0;
	bad |= fprintf(out, " bank=%u valid=0x%02x priv=%s ctx=0x%04x", s->bank, s->valid,
		       priv_name(s->priv), s->ctx) < 0;
	for (unsigned i = 0; i < h->w && i < TIPROF_MAX_BANKS; i++)
		if ((s->valid >> i) & 1u)
			bad |= fprintf(out, " [%u]=0x%0*" PRIx64, i, digits, s->addr[i]) < 0;
	bad |= fputc('\n', out) == EOF;
	return bad ? SF_EIO : 0;
}

/* Contract in sample_file.h. */
const char *sf_object_kind_name(unsigned kind)
{
	static const char *const names[] = { "main", "interp", "mapped" };

	return kind <= SF_OBJ_MAPPED ? names[kind] : "invalid";
}

/* Contract in sample_file.h. */
int sf_dump_object(FILE *out, const struct sf_header *h, const struct sf_object *o)
{
	int digits = h->xlen / 4, bad = 0;

	bad |= fprintf(out, "object: %s 0x%0*" PRIx64 "-0x%0*" PRIx64 " bias=0x%" PRIx64
		       " %s build-id=", sf_object_kind_name(o->kind), digits, o->start, digits,
		       o->end, o->bias, o->path_len ? o->path : "(unknown)") < 0;
	for (unsigned i = 0; i < o->build_id_len; i++)
		bad |= fprintf(out, "%02x", o->build_id[i]) < 0;
	bad |= fprintf(out, "%s\n", o->build_id_len ? "" : "(none)") < 0;
	return bad ? SF_EIO : 0;
}

/* Contract in sample_file.h. */
const char *sf_pm_event_name(unsigned b)
{
	static const char *const names[TIPROF_PM_EV_BITS] = {
		"RETIRED", "ABORTED", "TRAP", "TIMEOUT", "EMPTY", "IC_MISS", "ITLB_MISS",
		"DC_MISS", "DTLB_MISS", "LOAD", "STORE", "CTRL", "BR_TAKEN", "BR_MISPRED",
		"EA_VALID",
	};

	return b < TIPROF_PM_EV_BITS ? names[b] : "?";
}

/* Field `mask`/`shift` of v. */
static unsigned fld(uint64_t v, uint64_t mask, unsigned shift)
{
	return (unsigned)((v & mask) >> shift);
}

/* Contract in sample_file.h. */
int sf_dump_pm_config(FILE *out, const struct tiprof_pm_config *c)
{
	static const char *const units[] = { "insts", "slots" };
	unsigned priv = fld(c->ctrl, TIPROF_PM_CTRL_PRIV_MASK, TIPROF_PM_CTRL_PRIV_SHIFT);
	int bad = 0;

	bad |= fprintf(out, "pm config: F=%u tags=%u FIFO=%u issue_width=%u period=%" PRIu32
		       " ctrl=0x%04" PRIx32 " (%s mode=%s rand_bits=%u unit=%s%s%s priv=",
		       c->f, c->tags, c->fifo_depth, c->issue_width, c->period, c->ctrl,
		       (c->ctrl & TIPROF_PM_CTRL_EN_MASK) ? "en" : "off",
		       mode_name(fld(c->ctrl, TIPROF_PM_CTRL_MODE_MASK, TIPROF_PM_CTRL_MODE_SHIFT)),
		       fld(c->ctrl, TIPROF_PM_CTRL_RAND_BITS_MASK, TIPROF_PM_CTRL_RAND_BITS_SHIFT),
		       units[fld(c->ctrl, TIPROF_PM_CTRL_UNIT_MASK, TIPROF_PM_CTRL_UNIT_SHIFT)],
		       (c->ctrl & TIPROF_PM_CTRL_PAIR_MASK) ? " pair" : "",
		       (c->ctrl & TIPROF_PM_CTRL_IRQ_EN_MASK) ? " irq" : "") < 0;
	for (unsigned p = 0, first = 1; p < 4; p++) {
		if ((priv >> p) & 1u) {
			bad |= fprintf(out, "%s%s", first ? "" : ",", priv_name(p)) < 0;
			first = 0;
		}
	}
	bad |= fprintf(out, ") window=%u timeout=%" PRIu32 " evfilt=mask:0x%04x,match:0x%04x"
		       " latfilt=sel:%u,thresh:%u%s\n",
		       fld(c->pair, TIPROF_PM_PAIR_WINDOW_MASK, TIPROF_PM_PAIR_WINDOW_SHIFT),
		       c->timeout,
		       fld(c->evfilt, TIPROF_PM_EVFILT_MASK_MASK, TIPROF_PM_EVFILT_MASK_SHIFT),
		       fld(c->evfilt, TIPROF_PM_EVFILT_MATCH_MASK, TIPROF_PM_EVFILT_MATCH_SHIFT),
		       fld(c->latfilt, TIPROF_PM_LATFILT_SEL_MASK, TIPROF_PM_LATFILT_SEL_SHIFT),
		       fld(c->latfilt, TIPROF_PM_LATFILT_THRESH_MASK,
			   TIPROF_PM_LATFILT_THRESH_SHIFT),
		       (c->latfilt & TIPROF_PM_LATFILT_INV_MASK) ? ",inv" : "") < 0;
	return bad ? SF_EIO : 0;
}

/* The profile p part of a PM sample's line. */
static int dump_pm_profile(FILE *out, const struct sf_header *h,
			   const struct tiprof_pm_sample *s, unsigned p)
{
	static const char *const reasons[] = { "mispred", "trap", "replay", "other" };
	static const char *const stage[] = { "map", "ready", "issue", "mem", "complete" };
	unsigned o = p * TIPROF_PM_REC_PROFILE_STRIDE;
	uint64_t info = s->w[TIPROF_PM_REC_INFO + o];
	uint64_t sa = s->w[TIPROF_PM_REC_STAMP_A + o], sb = s->w[TIPROF_PM_REC_STAMP_B + o];
	unsigned ev = fld(info, TIPROF_PM_REC_INFO_EV_MASK, TIPROF_PM_REC_INFO_EV_SHIFT);
	unsigned seen = fld(sb, TIPROF_PM_REC_STAMP_B_SEEN_MASK, TIPROF_PM_REC_STAMP_B_SEEN_SHIFT);
	unsigned st[5] = { (unsigned)(sa & 0xFFFF), (unsigned)(sa >> 16 & 0xFFFF),
			   (unsigned)(sa >> 32 & 0xFFFF), (unsigned)(sb & 0xFFFF),
			   (unsigned)(sa >> 48 & 0xFFFF) };
	int digits = h->xlen / 4, bad = 0;

	bad |= fprintf(out, " | p%u%s pc=0x%0*" PRIx64 " ea=0x%0*" PRIx64 " ev=", p,
		       (info & TIPROF_PM_REC_INFO_TAGGED_MASK) ? "" : " untagged", digits,
		       s->w[TIPROF_PM_REC_PC + o], digits, s->w[TIPROF_PM_REC_EA + o]) < 0;
	for (unsigned b = 0, first = 1; b < TIPROF_PM_EV_BITS; b++) {
		if ((ev >> b) & 1u) {
			bad |= fprintf(out, "%s%s", first ? "" : ",", sf_pm_event_name(b)) < 0;
			first = 0;
		}
	}
	if (ev & (1u << TIPROF_PM_EV_ABORTED))
		bad |= fprintf(out, " reason=%s", reasons[fld(info, TIPROF_PM_REC_INFO_REASON_MASK,
							      TIPROF_PM_REC_INFO_REASON_SHIFT)]) < 0;
	bad |= fprintf(out, " priv=%s ctx=0x%04x slot=%u path=0x%04x",
		       priv_name(fld(info, TIPROF_PM_REC_INFO_PRIV_MASK,
				     TIPROF_PM_REC_INFO_PRIV_SHIFT)),
		       fld(info, TIPROF_PM_REC_INFO_CTX_MASK, TIPROF_PM_REC_INFO_CTX_SHIFT),
		       fld(info, TIPROF_PM_REC_INFO_SLOT_MASK, TIPROF_PM_REC_INFO_SLOT_SHIFT),
		       fld(info, TIPROF_PM_REC_INFO_PATH_MASK, TIPROF_PM_REC_INFO_PATH_SHIFT)) < 0;
	for (unsigned k = 0; k < 5; k++)
		if ((seen >> k) & 1u)
			bad |= fprintf(out, " %s=%u", stage[k], st[k]) < 0;
	bad |= fprintf(out, " end=%u", (unsigned)(sb >> 16 & 0xFFFF)) < 0;
	return bad;
}

/* Contract in sample_file.h. */
int sf_dump_pm_sample(FILE *out, const struct sf_header *h, uint64_t idx,
		      const struct tiprof_pm_sample *s)
{
	uint64_t si = s->w[TIPROF_PM_REC_SINFO];
	int pair = (si & TIPROF_PM_REC_SINFO_PAIR_MASK) != 0;
	int bad = 0;

	bad |= fprintf(out, "pm %" PRIu64 ": cycle=%" PRIu64, idx,
		       s->w[TIPROF_PM_REC_CYCLE]) < 0;
	if (pair)
		bad |= fprintf(out, " pair dist=%u cycles=%u",
			       fld(si, TIPROF_PM_REC_SINFO_PAIR_DIST_MASK,
				   TIPROF_PM_REC_SINFO_PAIR_DIST_SHIFT),
			       fld(si, TIPROF_PM_REC_SINFO_PAIR_CYCLES_MASK,
				   TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT)) < 0;
	else
		bad |= fputs(" single", out) < 0;
	bad |= dump_pm_profile(out, h, s, 0);
	if (pair)
		bad |= dump_pm_profile(out, h, s, 1);
	bad |= fputc('\n', out) == EOF;
	return bad ? SF_EIO : 0;
}

/* Contract in sample_file.h. */
int sf_dump_pm_counts(FILE *out, uint64_t samples, const struct tiprof_pm_counts *n)
{
	return fprintf(out, "pm counts: samples=%" PRIu64 " taken=%" PRIu64 " lost=%" PRIu64
		       " filtered=%" PRIu64 " collided=%" PRIu64 " lost_sw=%" PRIu64 "\n",
		       samples, n->taken, n->lost, n->filtered, n->collided,
		       n->lost_sw) < 0 ? SF_EIO : 0;
}

/* Contract in sample_file.h. */
int sf_dump_trailer(FILE *out, const struct sf_trailer *t)
{
	return fprintf(out, "trailer: samples=%" PRIu64 " lost_unit=%" PRIu64
		       " lost_sw=%" PRIu64 " taken_unit=%" PRIu64 " end_cycle=%" PRIu64 "\n",
		       t->samples, t->lost_unit, t->lost_sw, t->taken_unit,
		       t->end_cycle) < 0 ? SF_EIO : 0;
}
