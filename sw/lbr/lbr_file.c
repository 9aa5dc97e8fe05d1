/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_file.c - encoders and decoder of the branch-records file (layout in lbr_file.h and
 * docs/lbr.md). Little-endian fields written byte by byte, so the format is host-independent;
 * encoders are async-signal-safe (no libc calls besides memcpy-free byte stores). */
#include "lbr_file.h"
#include "lbr_ctr.h"

#include <inttypes.h>
#include <string.h>

/* ------------------------------------------------------------------ byte helpers */

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

static uint32_t get32(const uint8_t *p)
{
	uint32_t v = 0;
	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void put_hdr(uint8_t *p, uint32_t type, size_t size)
{
	put32(p, type);
	put32(p + 4, (uint32_t)size);
}

/* ------------------------------------------------------------------ events */

static const char *const event_names[] = { "task-clock", "cpu-clock", "cycles", "instructions" };

const char *lbr_event_name(unsigned ev)
{
	return ev < 4 ? event_names[ev] : NULL;
}

int lbr_event_parse(const char *name)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

/* ------------------------------------------------------------------ file header */

void lbr_file_header_for(uint8_t *dst, unsigned machine)
{
	for (int i = 0; i < LBR_FILE_HDR_SIZE; i++)
		dst[i] = 0;
	for (int i = 0; i < 8; i++)
		dst[i] = (uint8_t)LBR_FILE_MAGIC[i];
	put32(dst + 8, LBR_FILE_VERSION);
	put32(dst + 12, LBR_FILE_HDR_SIZE);
	put32(dst + 16, machine);
}

void lbr_file_header(uint8_t *dst)
{
	lbr_file_header_for(dst, LBR_EM_NATIVE);
}

int lbr_file_check_header(const uint8_t *src, size_t len)
{
	if (len < LBR_FILE_HDR_SIZE || memcmp(src, LBR_FILE_MAGIC, 8) != 0)
		return -1;
	uint32_t v = get32(src + 8);
	if (v < LBR_FILE_VERSION_MIN || v > LBR_FILE_VERSION || get32(src + 12) != LBR_FILE_HDR_SIZE)
		return -1;
	return 0;
}

unsigned lbr_file_machine(const uint8_t *src)
{
	return get32(src + 8) >= 2 ? get32(src + 16) : 0;
}

/* ------------------------------------------------------------------ encoders */

size_t lbr_enc_session(uint8_t *dst, size_t cap, const struct lbr_session *s)
{
	size_t n = 0;
	while (n < sizeof(s->exe) - 1 && s->exe[n])
		n++;
	size_t size = (40 + n + 1 + 7) & ~(size_t)7;
	if (size > cap)
		return 0;
	put_hdr(dst, LBR_REC_SESSION, size);
	put32(dst + 8, s->pid);
	put32(dst + 12, s->depth);
	put64(dst + 16, s->period);
	put32(dst + 24, s->event);
	put32(dst + 28, s->mech);
	put64(dst + 32, s->start_ns);
	for (size_t i = 40; i < size; i++)
		dst[i] = 0;
	for (size_t i = 0; i < n; i++)
		dst[40 + i] = (uint8_t)s->exe[i];
	return size;
}

size_t lbr_enc_thread(uint8_t *dst, size_t cap, const struct lbr_thread_rec *t)
{
	if (cap < 24)
		return 0;
	put_hdr(dst, LBR_REC_THREAD, 24);
	put32(dst + 8, t->pid);
	put32(dst + 12, t->tid);
	put64(dst + 16, t->time_ns);
	return 24;
}

size_t lbr_enc_stack(uint8_t *dst, size_t cap, const struct lbr_stack *s)
{
	size_t size = lbr_stack_size_f(s->nr, s->flags);
	if (size > cap || s->nr > LBR_MAX_DEPTH)
		return 0;
	put_hdr(dst, LBR_REC_STACK, size);
	put32(dst + 8, s->tid);
	dst[12] = (uint8_t)s->nr;
	dst[13] = (uint8_t)(s->nr >> 8);
	dst[14] = (uint8_t)s->flags;
	dst[15] = (uint8_t)(s->flags >> 8);
	put64(dst + 16, s->time_ns);
	put64(dst + 24, s->sample_pc);
	if (s->flags & LBR_STACK_CTR) {
		/* ctrsource (V = 1), ctrtarget (MISP), ctrdata: RISC-V pcs are even, bit 0 is free */
		for (unsigned i = 0; i < s->nr; i++) {
			uint8_t *e = dst + 32 + 24 * i;
			put64(e, (s->br[i].from & ~LBR_CTRSOURCE_V) | LBR_CTRSOURCE_V);
			put64(e + 8, (s->br[i].to & ~LBR_CTRTARGET_MISP) |
				     (s->br[i].misp ? LBR_CTRTARGET_MISP : 0));
			put64(e + 16, s->br[i].data);
		}
		return size;
	}
	for (unsigned i = 0; i < s->nr; i++) {
		put64(dst + 32 + 16 * i, s->br[i].from);
		put64(dst + 40 + 16 * i, s->br[i].to);
	}
	return size;
}

size_t lbr_enc_stats(uint8_t *dst, size_t cap, const struct lbr_stats *s)
{
	if (cap < LBR_STATS_SIZE)
		return 0;
	put_hdr(dst, LBR_REC_STATS, LBR_STATS_SIZE);
	put32(dst + 8, s->pid);
	put32(dst + 12, s->tid);
	const uint64_t v[16] = { s->samples, s->stacks, s->branches, s->stops, s->abandoned,
				 s->lost, s->decode_fail, s->cache_hits, s->cache_misses,
				 s->static_br, s->evaluated, s->not_taken, s->rseq_ends,
				 s->sample_ns, s->stop_ns, s->decode_ns };
	for (int i = 0; i < 16; i++)
		put64(dst + 16 + 8 * i, v[i]);
	const uint64_t w[6] = { s->emu_runs, s->emu_insns, s->emu_branches, s->emu_confirmed,
				s->emu_mismatch, s->emu_ns };
	for (int i = 0; i < 6; i++)
		put64(dst + 144 + 8 * i, w[i]);
	for (int i = 0; i < 5; i++)
		put64(dst + 192 + 8 * i, s->emu_end[i]);
	for (int i = 0; i < LBR_STATS_NEND; i++)
		put64(dst + 232 + 8 * i, s->end[i]);
	put64(dst + 296, s->emu_data_ck);
	return LBR_STATS_SIZE;
}

size_t lbr_enc_mmap(uint8_t *dst, size_t cap, const struct lbr_mmap *m)
{
	size_t n = 0;
	while (n < sizeof(m->path) - 1 && m->path[n])
		n++;
	size_t size = (40 + n + 1 + 7) & ~(size_t)7;
	if (size > cap)
		return 0;
	put_hdr(dst, LBR_REC_MMAP, size);
	put32(dst + 8, m->pid);
	put32(dst + 12, m->prot);
	put64(dst + 16, m->start);
	put64(dst + 24, m->end);
	put64(dst + 32, m->pgoff);
	for (size_t i = 40; i < size; i++)
		dst[i] = 0;
	for (size_t i = 0; i < n; i++)
		dst[40 + i] = (uint8_t)m->path[i];
	return size;
}

/* ------------------------------------------------------------------ decoder */

long lbr_dec_record(const uint8_t *buf, size_t len, struct lbr_rec *out)
{
	if (len < 8)
		return LBR_NEED_MORE;
	uint32_t type = get32(buf), size = get32(buf + 4);
	if (size < 8 || (size & 7))
		return LBR_BAD;
	if (len < size)
		return LBR_NEED_MORE;
	memset(out, 0, sizeof(*out));
	out->type = type;
	switch (type) {
	case LBR_REC_SESSION: {
		struct lbr_session *s = &out->u.session;
		if (size < 48)
			return LBR_BAD;
		s->pid = get32(buf + 8);
		s->depth = get32(buf + 12);
		s->period = get64(buf + 16);
		s->event = get32(buf + 24);
		s->mech = get32(buf + 28);
		s->start_ns = get64(buf + 32);
		size_t n = size - 40;
		if (n > sizeof(s->exe) - 1)
			n = sizeof(s->exe) - 1;
		memcpy(s->exe, buf + 40, n);
		s->exe[n] = 0;
		break;
	}
	case LBR_REC_MMAP: {
		struct lbr_mmap *m = &out->u.mmap;
		if (size < 48)
			return LBR_BAD;
		m->pid = get32(buf + 8);
		m->prot = get32(buf + 12);
		m->start = get64(buf + 16);
		m->end = get64(buf + 24);
		m->pgoff = get64(buf + 32);
		if (m->end < m->start)
			return LBR_BAD;
		size_t n = size - 40;
		if (n > sizeof(m->path) - 1)
			n = sizeof(m->path) - 1;
		memcpy(m->path, buf + 40, n);
		m->path[n] = 0;
		break;
	}
	case LBR_REC_THREAD:
		if (size != 24)
			return LBR_BAD;
		out->u.thread.pid = get32(buf + 8);
		out->u.thread.tid = get32(buf + 12);
		out->u.thread.time_ns = get64(buf + 16);
		break;
	case LBR_REC_STACK: {
		struct lbr_stack *s = &out->u.stack;
		if (size < 32)
			return LBR_BAD;
		s->tid = get32(buf + 8);
		s->nr = (uint16_t)(buf[12] | buf[13] << 8);
		s->flags = (uint16_t)(buf[14] | buf[15] << 8);
		if (s->nr > LBR_MAX_DEPTH || lbr_stack_size_f(s->nr, s->flags) != size)
			return LBR_BAD;
		s->time_ns = get64(buf + 16);
		s->sample_pc = get64(buf + 24);
		if (s->flags & LBR_STACK_CTR) {
			for (unsigned i = 0; i < s->nr; i++) {
				const uint8_t *e = buf + 32 + 24 * i;
				uint64_t src = get64(e), tgt = get64(e + 8), data = get64(e + 16);
				if (!(src & LBR_CTRSOURCE_V) || (data >> 32))
					return LBR_BAD; /* an invalid entry, or reserved bits set */
				s->br[i].from = src & ~LBR_CTRSOURCE_V;
				s->br[i].to = tgt & ~LBR_CTRTARGET_MISP;
				s->br[i].misp = (uint32_t)(tgt & LBR_CTRTARGET_MISP);
				s->br[i].data = (uint32_t)data;
			}
			break;
		}
		for (unsigned i = 0; i < s->nr; i++) {
			s->br[i].from = get64(buf + 32 + 16 * i);
			s->br[i].to = get64(buf + 40 + 16 * i);
		}
		break;
	}
	case LBR_REC_STATS: {
		struct lbr_stats *s = &out->u.stats;
		/* 88 bytes (version without the evaluation counters: they read as 0), or 144 and
		 * more (later versions may append counters; the extra bytes are skipped). */
		if (size != LBR_STATS_SIZE_V0 && size < LBR_STATS_SIZE_V1)
			return LBR_BAD;
		memset(s, 0, sizeof(*s));
		s->pid = get32(buf + 8);
		s->tid = get32(buf + 12);
		uint64_t *v[16] = { &s->samples, &s->stacks, &s->branches, &s->stops, &s->abandoned,
				    &s->lost, &s->decode_fail, &s->cache_hits, &s->cache_misses,
				    &s->static_br, &s->evaluated, &s->not_taken, &s->rseq_ends,
				    &s->sample_ns, &s->stop_ns, &s->decode_ns };
		int nv = size == LBR_STATS_SIZE_V0 ? 9 : 16;
		for (int i = 0; i < nv; i++)
			*v[i] = get64(buf + 16 + 8 * i);
		if (size >= 296) { /* emulator and end-reason counters */
			uint64_t *w[6] = { &s->emu_runs, &s->emu_insns, &s->emu_branches,
					   &s->emu_confirmed, &s->emu_mismatch, &s->emu_ns };
			for (int i = 0; i < 6; i++)
				*w[i] = get64(buf + 144 + 8 * i);
			for (int i = 0; i < 5; i++)
				s->emu_end[i] = get64(buf + 192 + 8 * i);
			for (int i = 0; i < LBR_STATS_NEND; i++)
				s->end[i] = get64(buf + 232 + 8 * i);
		}
		if (size >= 304)
			s->emu_data_ck = get64(buf + 296);
		break;
	}
	default:
		break; /* unknown: skipped */
	}
	return (long)size;
}

void lbr_rec_dump(FILE *f, const struct lbr_rec *r)
{
	switch (r->type) {
	case LBR_REC_SESSION: {
		const struct lbr_session *s = &r->u.session;
		fprintf(f, "session pid=%" PRIu32 " depth=%" PRIu32 " period=%" PRIu64
			" event=%" PRIu32 " mech=%" PRIu32 " start=%" PRIu64 " exe=%s\n",
			s->pid, s->depth, s->period, s->event, s->mech, s->start_ns, s->exe);
		break;
	}
	case LBR_REC_MMAP: {
		const struct lbr_mmap *m = &r->u.mmap;
		fprintf(f, "mmap pid=%" PRIu32 " start=%#" PRIx64 " end=%#" PRIx64 " pgoff=%#" PRIx64
			" prot=%c%c%c path=%s\n", m->pid, m->start, m->end, m->pgoff,
			m->prot & LBR_PROT_R ? 'r' : '-', m->prot & LBR_PROT_W ? 'w' : '-',
			m->prot & LBR_PROT_X ? 'x' : '-', m->path);
		break;
	}
	case LBR_REC_THREAD:
		fprintf(f, "thread pid=%" PRIu32 " tid=%" PRIu32 " time=%" PRIu64 "\n",
			r->u.thread.pid, r->u.thread.tid, r->u.thread.time_ns);
		break;
	case LBR_REC_STACK: {
		const struct lbr_stack *s = &r->u.stack;
		fprintf(f, "stack tid=%" PRIu32 " nr=%u flags=%u time=%" PRIu64 " sample=%#" PRIx64,
			s->tid, s->nr, s->flags, s->time_ns, s->sample_pc);
		for (unsigned i = 0; i < s->nr; i++) {
			fprintf(f, " %#" PRIx64 "->%#" PRIx64, s->br[i].from, s->br[i].to);
			if (!(s->flags & LBR_STACK_CTR))
				continue;
			/* CTR fields: type, MISP (M / P, or - when not recorded), cycles if CCV */
			int64_t cc = lbr_ctrdata_cycles(s->br[i].data);
			fprintf(f, "/%s/%c", lbr_ctr_type_name(s->br[i].data & LBR_CTRDATA_TYPE),
				!(s->flags & LBR_STACK_MISP) ? '-' : s->br[i].misp ? 'M' : 'P');
			if (cc >= 0)
				fprintf(f, "/cc=%" PRId64, cc);
		}
		fputc('\n', f);
		break;
	}
	case LBR_REC_STATS: {
		const struct lbr_stats *s = &r->u.stats;
		fprintf(f, "stats pid=%" PRIu32 " tid=%" PRIu32 " samples=%" PRIu64 " stacks=%" PRIu64
			" branches=%" PRIu64 " stops=%" PRIu64 " abandoned=%" PRIu64 " lost=%" PRIu64
			" decode_fail=%" PRIu64 " cache_hits=%" PRIu64 " cache_misses=%" PRIu64
			" static=%" PRIu64 " evaluated=%" PRIu64 " not_taken=%" PRIu64
			" rseq_ends=%" PRIu64 " sample_ns=%" PRIu64 " stop_ns=%" PRIu64
			" decode_ns=%" PRIu64 "\n",
			s->pid, s->tid, s->samples, s->stacks, s->branches, s->stops, s->abandoned,
			s->lost, s->decode_fail, s->cache_hits, s->cache_misses, s->static_br,
			s->evaluated, s->not_taken, s->rseq_ends, s->sample_ns, s->stop_ns,
			s->decode_ns);
		fprintf(f, "  emu runs=%" PRIu64 " insns=%" PRIu64 " branches=%" PRIu64
			" confirmed=%" PRIu64 " mismatch=%" PRIu64 " data_ck=%" PRIu64 " ns=%" PRIu64
			" end(depth,insn,mem,budget,forbid)=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 " stack_end(full,stuck,untraceable,mismatch,signal,arm,rseq,other)=%"
			PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 "\n", s->emu_runs, s->emu_insns, s->emu_branches, s->emu_confirmed,
			s->emu_mismatch, s->emu_data_ck, s->emu_ns, s->emu_end[0], s->emu_end[1], s->emu_end[2],
			s->emu_end[3], s->emu_end[4], s->end[0], s->end[1], s->end[2], s->end[3],
			s->end[4], s->end[5], s->end[6], s->end[7]);
		break;
	}
	default:
		fprintf(f, "unknown type=%" PRIu32 "\n", r->type);
		break;
	}
}
