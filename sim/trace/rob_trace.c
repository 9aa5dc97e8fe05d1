/* SPDX-License-Identifier: Apache-2.0 */
/* ROB trace encoder, decoder and file helpers (format: docs/rob-trace.md). */
#include "rob_trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TAG_SCALARS 0x01u  /* valid/commit/mispred/flush/disp masks, bank, exception, priv */
#define TAG_CTX     0x02u  /* ctx_id */
#define TAG_HEADPC  0x04u  /* head_pc of some banks (mask, then zigzag deltas) */
#define TAG_DISPPC  0x08u  /* disp_pc of some banks */
#define TAG_DISPIDX 0x10u  /* disp_idx of some banks (mask, then 2 bytes each) */
#define TAG_REPEAT  0x80u  /* the previous cycle again, varint count >= 1 */
#define TAG_END     0xFFu  /* version 2: the end of the trace, varint count of its cycles */

const char *rob_trace_strerror(int err)
{
	switch (err) {
	case ROB_TRACE_NEED_MORE: return "truncated trace";
	case ROB_TRACE_BAD_MAGIC: return "not a tiprof ROB trace (bad magic)";
	case ROB_TRACE_BAD_VERSION: return "unsupported ROB trace version";
	case ROB_TRACE_BAD_RECORD: return "corrupt ROB trace record";
	case ROB_TRACE_IO: return "I/O error";
	case ROB_TRACE_NOMEM: return "out of memory";
	default: return "unknown error";
	}
}

/* ------------------------------------------------------------------ primitives */

static int put_varint(uint8_t *out, uint64_t v)
{
	int n = 0;

	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		out[n++] = (uint8_t)(b | (v ? 0x80 : 0));
	} while (v);
	return n;
}

/* Read a varint; returns bytes used, 0 if buf ends first, -1 if longer than 10 bytes. */
static int get_varint(const uint8_t *buf, size_t len, uint64_t *v)
{
	uint64_t r = 0;

	for (size_t i = 0; i < 10; i++) {
		if (i >= len)
			return 0;
		r |= (uint64_t)(buf[i] & 0x7f) << (7 * i);
		if (!(buf[i] & 0x80)) {
			*v = r;
			return (int)i + 1;
		}
	}
	return -1;
}

static uint64_t zigzag(uint64_t delta)
{
	return (delta << 1) ^ (uint64_t)((int64_t)delta >> 63);
}

static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

static uint64_t addr_mask(const struct rob_trace_hdr *h)
{
	return h->xlen == 64 ? ~0ull : (1ull << h->xlen) - 1;
}

/* The cycle as the configuration can represent it. */
static void normalize(const struct rob_trace_hdr *h, const struct tiprof_rob_if *in,
		      struct tiprof_rob_if *out)
{
	uint8_t bm = (uint8_t)((1u << h->w) - 1);
	uint16_t im = (uint16_t)((1u << h->robidx_w) - 1);

	memset(out, 0, sizeof(*out));
	out->head_valid = in->head_valid & bm;
	out->head_commit = in->head_commit & bm;
	out->head_mispred = in->head_mispred & bm;
	out->head_flush = in->head_flush & bm;
	out->disp_valid = in->disp_valid & bm;
	out->head_bank = (uint8_t)(in->head_bank & (h->w - 1));
	out->exception = in->exception & 1;
	out->priv = in->priv & 3;
	out->ctx_id = in->ctx_id;
	for (unsigned b = 0; b < h->w; b++) {
		out->head_pc[b] = in->head_pc[b] & addr_mask(h);
		out->disp_pc[b] = in->disp_pc[b] & addr_mask(h);
		out->disp_idx[b] = in->disp_idx[b] & im;
	}
}

/* ------------------------------------------------------------------ header */

int rob_trace_encode_header(const struct rob_trace_hdr *hdr, struct rob_trace_state *st,
			    uint8_t *out)
{
	if (!(hdr->w == 1 || hdr->w == 2 || hdr->w == 4 || hdr->w == 8) ||
	    !(hdr->xlen == 32 || hdr->xlen == 64) || hdr->robidx_w < 1 || hdr->robidx_w > 16)
		return ROB_TRACE_BAD_RECORD;
	memset(st, 0, sizeof(*st));
	st->version = ROB_TRACE_VERSION;
	st->hdr = *hdr;
	memset(out, 0, ROB_TRACE_HEADER_SIZE);
	memcpy(out, ROB_TRACE_MAGIC, 8);
	out[8] = ROB_TRACE_VERSION & 0xff;
	out[9] = ROB_TRACE_VERSION >> 8;
	out[10] = (uint8_t)hdr->w;
	out[11] = (uint8_t)hdr->xlen;
	out[12] = (uint8_t)hdr->robidx_w;
	return ROB_TRACE_HEADER_SIZE;
}

int rob_trace_decode_header(const uint8_t *buf, size_t len, struct rob_trace_state *st)
{
	struct rob_trace_hdr h;
	uint8_t scratch[ROB_TRACE_HEADER_SIZE];
	unsigned version;

	if (len < 8)
		return memcmp(buf, ROB_TRACE_MAGIC, len) ? ROB_TRACE_BAD_MAGIC : ROB_TRACE_NEED_MORE;
	if (memcmp(buf, ROB_TRACE_MAGIC, 8))
		return ROB_TRACE_BAD_MAGIC;
	if (len < ROB_TRACE_HEADER_SIZE)
		return ROB_TRACE_NEED_MORE;
	version = (unsigned)(buf[8] | buf[9] << 8);
	if (version != 1 && version != ROB_TRACE_VERSION)
		return ROB_TRACE_BAD_VERSION;
	if (buf[13] || buf[14] || buf[15])
		return ROB_TRACE_BAD_RECORD;
	h.w = buf[10];
	h.xlen = buf[11];
	h.robidx_w = buf[12];
	if (rob_trace_encode_header(&h, st, scratch) < 0)
		return ROB_TRACE_BAD_RECORD;
	st->version = version;
	return ROB_TRACE_HEADER_SIZE;
}

/* ------------------------------------------------------------------ records */

int rob_trace_flush_repeat(struct rob_trace_state *st, uint8_t *out)
{
	int n;

	if (!st->repeat)
		return 0;
	out[0] = TAG_REPEAT;
	n = 1 + put_varint(out + 1, st->repeat);
	st->repeat = 0;
	return n;
}

int rob_trace_encode_end(struct rob_trace_state *st, uint8_t *out)
{
	int n = rob_trace_flush_repeat(st, out);

	out[n++] = TAG_END;
	return n + put_varint(out + n, st->cycles);
}

int rob_trace_encode(struct rob_trace_state *st, const struct tiprof_rob_if *rob, uint8_t *out)
{
	const struct rob_trace_hdr *h = &st->hdr;
	struct tiprof_rob_if cur;
	const struct tiprof_rob_if *p = &st->prev;
	uint8_t tag = 0, pcm = 0, dpm = 0, dim = 0;
	int n;

	normalize(h, rob, &cur);
	/* Addresses and indices of banks without an entry are don't-care for the unit: they are
	 * not recorded, and decode as the last recorded value. */
	for (unsigned b = 0; b < h->w; b++) {
		if (!(cur.head_valid >> b & 1))
			cur.head_pc[b] = p->head_pc[b];
		if (!(cur.disp_valid >> b & 1)) {
			cur.disp_pc[b] = p->disp_pc[b];
			cur.disp_idx[b] = p->disp_idx[b];
		}
	}
	if (cur.head_valid != p->head_valid || cur.head_commit != p->head_commit ||
	    cur.head_mispred != p->head_mispred || cur.head_flush != p->head_flush ||
	    cur.disp_valid != p->disp_valid || cur.head_bank != p->head_bank ||
	    cur.exception != p->exception || cur.priv != p->priv)
		tag |= TAG_SCALARS;
	if (cur.ctx_id != p->ctx_id)
		tag |= TAG_CTX;
	for (unsigned b = 0; b < h->w; b++) {
		pcm |= (uint8_t)((cur.head_pc[b] != p->head_pc[b]) << b);
		dpm |= (uint8_t)((cur.disp_pc[b] != p->disp_pc[b]) << b);
		dim |= (uint8_t)((cur.disp_idx[b] != p->disp_idx[b]) << b);
	}
	tag |= (uint8_t)((pcm ? TAG_HEADPC : 0) | (dpm ? TAG_DISPPC : 0) | (dim ? TAG_DISPIDX : 0));
	st->cycles++;
	if (!tag) {
		st->repeat++;
		return 0;
	}
	n = rob_trace_flush_repeat(st, out);
	out[n++] = tag;
	if (tag & TAG_SCALARS) {
		out[n++] = cur.head_valid;
		out[n++] = cur.head_commit;
		out[n++] = cur.head_mispred;
		out[n++] = cur.head_flush;
		out[n++] = cur.disp_valid;
		out[n++] = (uint8_t)(cur.head_bank | cur.exception << 3 | cur.priv << 4);
	}
	if (tag & TAG_CTX) {
		out[n++] = (uint8_t)cur.ctx_id;
		out[n++] = (uint8_t)(cur.ctx_id >> 8);
	}
	if (tag & TAG_HEADPC) {
		out[n++] = pcm;
		for (unsigned b = 0; b < h->w; b++)
			if (pcm >> b & 1)
				n += put_varint(out + n, zigzag(cur.head_pc[b] - p->head_pc[b]));
	}
	if (tag & TAG_DISPPC) {
		out[n++] = dpm;
		for (unsigned b = 0; b < h->w; b++)
			if (dpm >> b & 1)
				n += put_varint(out + n, zigzag(cur.disp_pc[b] - p->disp_pc[b]));
	}
	if (tag & TAG_DISPIDX) {
		out[n++] = dim;
		for (unsigned b = 0; b < h->w; b++)
			if (dim >> b & 1) {
				out[n++] = (uint8_t)cur.disp_idx[b];
				out[n++] = (uint8_t)(cur.disp_idx[b] >> 8);
			}
	}
	st->prev = cur;
	return n;
}

/* Decode a per-bank address group at buf; returns bytes used or a status. */
static int get_addrs(const struct rob_trace_hdr *h, const uint8_t *buf, size_t len,
		     uint64_t *addr)
{
	size_t n = 1;
	uint8_t m;

	if (len < 1)
		return ROB_TRACE_NEED_MORE;
	m = buf[0];
	if (!m || m >> h->w)
		return ROB_TRACE_BAD_RECORD;
	for (unsigned b = 0; b < h->w; b++) {
		uint64_t z;
		int k;

		if (!(m >> b & 1))
			continue;
		k = get_varint(buf + n, len - n, &z);
		if (k == 0)
			return ROB_TRACE_NEED_MORE;
		if (k < 0)
			return ROB_TRACE_BAD_RECORD;
		addr[b] = (addr[b] + unzigzag(z)) & addr_mask(h);
		n += (size_t)k;
	}
	return (int)n;
}

int rob_trace_decode(struct rob_trace_state *st, const uint8_t *buf, size_t len,
		     struct tiprof_rob_if *rob)
{
	const struct rob_trace_hdr *h = &st->hdr;
	struct tiprof_rob_if cur;
	uint8_t tag, bm = (uint8_t)((1u << h->w) - 1);
	size_t n = 1;
	int k;

	if (st->repeat) {
		st->repeat--;
		st->cycles++;
		*rob = st->prev;
		return 0;
	}
	if (len < 1)
		return ROB_TRACE_NEED_MORE;
	tag = buf[0];
	if (tag == TAG_REPEAT) {
		uint64_t count;

		k = get_varint(buf + 1, len - 1, &count);
		if (k == 0)
			return ROB_TRACE_NEED_MORE;
		if (k < 0 || count == 0)
			return ROB_TRACE_BAD_RECORD;
		st->repeat = count - 1;
		st->cycles++;
		*rob = st->prev;
		return 1 + k;
	}
	if (!tag || tag & ~0x1fu)
		return ROB_TRACE_BAD_RECORD;
	cur = st->prev;
	if (tag & TAG_SCALARS) {
		if (len < n + 6)
			return ROB_TRACE_NEED_MORE;
		if ((buf[n] | buf[n + 1] | buf[n + 2] | buf[n + 3] | buf[n + 4]) & ~bm ||
		    (buf[n + 5] & 7) >= h->w || buf[n + 5] >> 6)
			return ROB_TRACE_BAD_RECORD;
		cur.head_valid = buf[n];
		cur.head_commit = buf[n + 1];
		cur.head_mispred = buf[n + 2];
		cur.head_flush = buf[n + 3];
		cur.disp_valid = buf[n + 4];
		cur.head_bank = buf[n + 5] & 7;
		cur.exception = buf[n + 5] >> 3 & 1;
		cur.priv = buf[n + 5] >> 4 & 3;
		n += 6;
	}
	if (tag & TAG_CTX) {
		if (len < n + 2)
			return ROB_TRACE_NEED_MORE;
		cur.ctx_id = (uint16_t)(buf[n] | buf[n + 1] << 8);
		n += 2;
	}
	if (tag & TAG_HEADPC) {
		k = get_addrs(h, buf + n, len - n, cur.head_pc);
		if (k < 0)
			return k;
		n += (size_t)k;
	}
	if (tag & TAG_DISPPC) {
		k = get_addrs(h, buf + n, len - n, cur.disp_pc);
		if (k < 0)
			return k;
		n += (size_t)k;
	}
	if (tag & TAG_DISPIDX) {
		uint8_t m;

		if (len < n + 1)
			return ROB_TRACE_NEED_MORE;
		m = buf[n++];
		if (!m || m >> h->w)
			return ROB_TRACE_BAD_RECORD;
		for (unsigned b = 0; b < h->w; b++) {
			if (!(m >> b & 1))
				continue;
			if (len < n + 2)
				return ROB_TRACE_NEED_MORE;
			cur.disp_idx[b] = (uint16_t)(buf[n] | buf[n + 1] << 8);
			if (cur.disp_idx[b] >> h->robidx_w)
				return ROB_TRACE_BAD_RECORD;
			n += 2;
		}
	}
	st->prev = cur;
	st->cycles++;
	*rob = cur;
	return (int)n;
}

/* ------------------------------------------------------------------ files */

int rob_trace_writer_open(struct rob_trace_writer *w, const char *path,
			  const struct rob_trace_hdr *hdr)
{
	uint8_t buf[ROB_TRACE_HEADER_SIZE];
	int n;

	memset(w, 0, sizeof(*w));
	n = rob_trace_encode_header(hdr, &w->st, buf);
	if (n < 0)
		return n;
	w->f = fopen(path, "wb");
	if (!w->f)
		return ROB_TRACE_IO;
	if (fwrite(buf, 1, (size_t)n, w->f) != (size_t)n)
		w->err = ROB_TRACE_IO;
	return w->err;
}

int rob_trace_writer_cycle(struct rob_trace_writer *w, const struct tiprof_rob_if *rob)
{
	uint8_t buf[ROB_TRACE_MAX_RECORD];
	int n = rob_trace_encode(&w->st, rob, buf);

	if (n > 0 && fwrite(buf, 1, (size_t)n, w->f) != (size_t)n && !w->err)
		w->err = ROB_TRACE_IO;
	return w->err;
}

int rob_trace_writer_close(struct rob_trace_writer *w)
{
	uint8_t buf[ROB_TRACE_MAX_END];
	int n;

	if (!w->f)
		return w->err;
	n = rob_trace_encode_end(&w->st, buf);
	if (n > 0 && fwrite(buf, 1, (size_t)n, w->f) != (size_t)n && !w->err)
		w->err = ROB_TRACE_IO;
	if (fclose(w->f) != 0 && !w->err)
		w->err = ROB_TRACE_IO;
	w->f = NULL;
	return w->err;
}

int rob_trace_reader_open(struct rob_trace_reader *r, const char *path)
{
	FILE *f = fopen(path, "rb");
	long size;
	int n;

	memset(r, 0, sizeof(*r));
	if (!f)
		return ROB_TRACE_IO;
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return ROB_TRACE_IO;
	}
	r->buf = malloc((size_t)size + 1);
	if (!r->buf) {
		fclose(f);
		return ROB_TRACE_NOMEM;
	}
	r->len = fread(r->buf, 1, (size_t)size, f);
	fclose(f);
	if (r->len != (size_t)size) {
		rob_trace_reader_close(r);
		return ROB_TRACE_IO;
	}
	n = rob_trace_decode_header(r->buf, r->len, &r->st);
	if (n < 0) {
		rob_trace_reader_close(r);
		return n;
	}
	r->pos = (size_t)n;
	return 0;
}

int rob_trace_reader_next(struct rob_trace_reader *r, struct tiprof_rob_if *rob)
{
	int n;

	if (!r->st.repeat && r->st.version >= 2 && r->pos < r->len &&
	    r->buf[r->pos] == TAG_END) {	/* the end: its count must match, nothing after it */
		uint64_t count;

		n = get_varint(r->buf + r->pos + 1, r->len - r->pos - 1, &count);
		if (n == 0)
			return ROB_TRACE_NEED_MORE;
		if (n < 0 || count != r->st.cycles || r->pos + 1 + (size_t)n != r->len)
			return ROB_TRACE_BAD_RECORD;
		r->pos = r->len;
		r->ended = 1;
		return 0;
	}
	if (!r->st.repeat && r->pos == r->len)	/* version 2 without its end record: cut short */
		return r->st.version >= 2 && !r->ended ? ROB_TRACE_NEED_MORE : 0;
	n = rob_trace_decode(&r->st, r->buf + r->pos, r->len - r->pos, rob);
	if (n < 0)
		return n;
	r->pos += (size_t)n;
	return 1;
}

void rob_trace_reader_close(struct rob_trace_reader *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
