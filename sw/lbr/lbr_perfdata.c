/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_perfdata.c - perf.data writer (contract in lbr_perfdata.h). The file is built in
 * memory, then written in one go. Field layouts follow the kernel's include/uapi/linux/
 * perf_event.h and tools/perf/Documentation/perf.data-file-format.txt (Linux 6.1). */
#include "lbr_perfdata.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* perf_event.h values used here. */
enum {
	PT_HARDWARE = 0, PT_SOFTWARE = 1,                  /* perf_type_id */
	PC_HW_CPU_CYCLES = 0, PC_HW_INSTRUCTIONS = 1,      /* perf_hw_id */
	PC_SW_CPU_CLOCK = 0, PC_SW_TASK_CLOCK = 1,         /* perf_sw_ids */
	REC_MMAP2 = 10, REC_COMM = 3, REC_SAMPLE = 9,      /* perf_event_type */
	REC_HEADER_BUILD_ID = 67, REC_FINISHED_ROUND = 68, /* perf's own (user) types */
	MISC_USER = 2, MISC_COMM_EXEC = 1 << 13, MISC_BUILD_ID_SIZE = 1 << 15,
	FEAT_BUILD_ID = 2, FEAT_BRANCH_STACK = 15,         /* perf header feature bits */
};
#define SAMPLE_TYPE (1ull /*IP*/ | 2ull /*TID*/ | 4ull /*TIME*/ | 0x100ull /*PERIOD*/ | \
		     0x800ull /*BRANCH_STACK*/)
#define BRANCH_SAMPLE_TYPE (1ull /*USER*/ | 8ull /*ANY*/)
/* attr flag bits: exclude_kernel 5, exclude_hv 6, mmap 8, comm 9, task 13, sample_id_all 18,
 * mmap2 23, comm_exec 24, use_clockid 25 */
#define ATTR_FLAGS ((1ull << 5) | (1ull << 6) | (1ull << 8) | (1ull << 9) | (1ull << 13) | \
		    (1ull << 18) | (1ull << 23) | (1ull << 24) | (1ull << 25))
#define ATTR_SIZE 128        /* PERF_ATTR_SIZE_VER7, what perf 6.1 reads */
#define FILE_HDR_SIZE 104    /* magic, size, attr_size, 3 sections, 256 feature bits */
#define FILE_ATTR_SIZE (ATTR_SIZE + 16) /* attr + ids section */
#define BRANCH_PREDICTED 2ull /* perf_branch_entry flags: bit 1 */
#define CLOCK_MONOTONIC_ID 1

struct buf {
	uint8_t *p;
	size_t n, cap;
	int oom;
};

static void need(struct buf *b, size_t k)
{
	if (b->oom || b->n + k <= b->cap)
		return;
	size_t nc = b->cap ? b->cap : 1 << 16;
	while (nc < b->n + k)
		nc *= 2;
	uint8_t *np = realloc(b->p, nc);
	if (!np) {
		b->oom = 1;
		return;
	}
	b->p = np;
	b->cap = nc;
}

static void put(struct buf *b, uint64_t v, int bytes)
{
	need(b, (size_t)bytes);
	if (b->oom)
		return;
	for (int i = 0; i < bytes; i++)
		b->p[b->n++] = (uint8_t)(v >> (8 * i));
}
#define put16(b, v) put(b, (uint64_t)(v), 2)
#define put32(b, v) put(b, (uint64_t)(v), 4)
#define put64(b, v) put(b, (uint64_t)(v), 8)

/* A NUL-terminated string zero-padded to a multiple of `align` bytes. */
static void put_str(struct buf *b, const char *s, size_t align)
{
	size_t l = strlen(s) + 1, padded = (l + align - 1) / align * align;
	need(b, padded);
	if (b->oom)
		return;
	memcpy(b->p + b->n, s, l);
	memset(b->p + b->n + l, 0, padded - l);
	b->n += padded;
}

static void set64(struct buf *b, size_t at, uint64_t v)
{
	if (b->oom)
		return;
	for (int i = 0; i < 8; i++)
		b->p[at + i] = (uint8_t)(v >> (8 * i));
}

static void hdr(struct buf *b, uint32_t type, uint16_t misc, size_t size)
{
	put32(b, type);
	put16(b, misc);
	put16(b, size);
}

/* sample_id_all trailer for sample_type TID|TIME. */
static void sample_id(struct buf *b, uint32_t pid, uint32_t tid, uint64_t time)
{
	put32(b, pid);
	put32(b, tid);
	put64(b, time);
}

static size_t pad_len(const char *s, size_t align)
{
	return (strlen(s) + 1 + align - 1) / align * align;
}

static void ev_comm(struct buf *b, uint32_t pid, uint32_t tid, const char *path, uint64_t t,
		    int exec)
{
	const char *base = strrchr(path, '/');
	char comm[16];
	snprintf(comm, sizeof(comm), "%s", base ? base + 1 : path);
	hdr(b, REC_COMM, exec ? MISC_COMM_EXEC : 0, 8 + 8 + pad_len(comm, 8) + 16);
	put32(b, pid);
	put32(b, tid);
	put_str(b, comm, 8);
	sample_id(b, pid, tid, t);
}

static void ev_mmap2(struct buf *b, const struct lbr_mmap *m, uint64_t t)
{
	struct stat sb;
	memset(&sb, 0, sizeof(sb));
	if (m->path[0] == '/')
		stat(m->path, &sb);
	hdr(b, REC_MMAP2, MISC_USER, 8 + 64 + pad_len(m->path, 8) + 16);
	put32(b, m->pid);
	put32(b, m->pid);
	put64(b, m->start);
	put64(b, m->end - m->start);
	put64(b, m->pgoff);
	put32(b, major(sb.st_dev));
	put32(b, minor(sb.st_dev));
	put64(b, sb.st_ino);
	put64(b, 0); /* ino_generation */
	uint32_t prot = (m->prot & LBR_PROT_R ? 1 : 0) | (m->prot & LBR_PROT_W ? 2 : 0) |
			(m->prot & LBR_PROT_X ? 4 : 0);
	put32(b, prot);
	put32(b, 2); /* MAP_PRIVATE */
	put_str(b, m->path, 8);
	sample_id(b, m->pid, m->pid, t);
}

static void ev_sample(struct buf *b, const struct lbr_data_stack *k, uint64_t period)
{
	const struct lbr_stack *s = &k->s;
	hdr(b, REC_SAMPLE, MISC_USER, 8 + 32 + 8 + 24 * (size_t)s->nr);
	put64(b, s->sample_pc);
	put32(b, k->pid);
	put32(b, s->tid);
	put64(b, s->time_ns);
	put64(b, period);
	put64(b, s->nr);
	for (int i = (int)s->nr - 1; i >= 0; i--) { /* newest first */
		put64(b, s->br[i].from);
		put64(b, s->br[i].to);
		put64(b, BRANCH_PREDICTED);
	}
}

/* ------------------------------------------------------------------ event order */

enum item_kind { IT_COMM_SESSION, IT_MMAP, IT_COMM_THREAD, IT_SAMPLE };

struct item {
	uint64_t time;
	int kind;
	size_t idx;
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int same_mmap(const struct lbr_data_mmap *x, const struct lbr_data_mmap *y)
{
	return x->sess == y->sess && x->m.start == y->m.start && x->m.end == y->m.end &&
	       x->m.pgoff == y->m.pgoff && strcmp(x->m.path, y->m.path) == 0;
}

static void write_data(struct buf *b, const struct lbr_data *d, struct item *it, size_t *nit)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nsessions; i++)
		it[n++] = (struct item){ d->sessions[i].start_ns, IT_COMM_SESSION, i };
	for (size_t i = 0; i < d->nmmaps; i++) {
		const struct lbr_data_mmap *m = &d->mmaps[i];
		int dup = strcmp(m->m.path, "[vsyscall]") == 0;
		for (size_t j = 0; j < i && !dup; j++)
			dup = same_mmap(&d->mmaps[j], m);
		if (!dup)
			it[n++] = (struct item){ d->sessions[m->sess].start_ns, IT_MMAP, i };
	}
	for (size_t i = 0; i < d->nthreads; i++)
		if (d->threads[i].t.tid != d->threads[i].t.pid)
			it[n++] = (struct item){ d->threads[i].t.time_ns, IT_COMM_THREAD, i };
	for (size_t i = 0; i < d->nstacks; i++)
		it[n++] = (struct item){ d->stacks[i].s.time_ns, IT_SAMPLE, i };
	qsort(it, n, sizeof(*it), cmp_item);
	for (size_t i = 0; i < n; i++) {
		switch (it[i].kind) {
		case IT_COMM_SESSION: {
			const struct lbr_session *s = &d->sessions[it[i].idx];
			int exec = 0;
			for (size_t j = 0; j < it[i].idx; j++)
				exec |= d->sessions[j].pid == s->pid;
			ev_comm(b, s->pid, s->pid, s->exe, s->start_ns, exec);
			break;
		}
		case IT_MMAP:
			ev_mmap2(b, &d->mmaps[it[i].idx].m, it[i].time);
			break;
		case IT_COMM_THREAD: {
			const struct lbr_data_thread *t = &d->threads[it[i].idx];
			ev_comm(b, t->t.pid, t->t.tid, d->sessions[t->sess].exe, t->t.time_ns, 0);
			break;
		}
		default: {
			const struct lbr_data_stack *k = &d->stacks[it[i].idx];
			ev_sample(b, k, d->sessions[k->sess].period);
			break;
		}
		}
	}
	hdr(b, REC_FINISHED_ROUND, 0, 8);
	*nit = n;
}

static void write_attr(struct buf *b, const struct lbr_session *s)
{
	uint32_t type = PT_SOFTWARE;
	uint64_t config = PC_SW_TASK_CLOCK;
	switch (s->event) {
	case LBR_EV_CPU_CLOCK: config = PC_SW_CPU_CLOCK; break;
	case LBR_EV_CYCLES: type = PT_HARDWARE; config = PC_HW_CPU_CYCLES; break;
	case LBR_EV_INSTRUCTIONS: type = PT_HARDWARE; config = PC_HW_INSTRUCTIONS; break;
	default: break;
	}
	size_t start = b->n;
	put32(b, type);
	put32(b, ATTR_SIZE);
	put64(b, config);
	put64(b, s->period);       /* sample_period */
	put64(b, SAMPLE_TYPE);
	put64(b, 0);               /* read_format */
	put64(b, ATTR_FLAGS);
	put32(b, 0);               /* wakeup_events */
	put32(b, 0);               /* bp_type */
	put64(b, 0);               /* config1 */
	put64(b, 0);               /* config2 */
	put64(b, BRANCH_SAMPLE_TYPE);
	put64(b, 0);               /* sample_regs_user */
	put32(b, 0);               /* sample_stack_user */
	put32(b, CLOCK_MONOTONIC_ID);
	while (b->n - start < ATTR_SIZE && !b->oom)
		put(b, 0, 1);
	put64(b, 0);               /* ids section: none (one attr, no sample ids) */
	put64(b, 0);
}

/* HEADER_BUILD_ID: one build_id_event per mapped ELF file with a build ID. */
static void write_build_ids(struct buf *b, const struct lbr_symtab *st)
{
	for (size_t i = 0; i < st->nobjs; i++) {
		const struct lbr_obj *o = &st->objs[i];
		if (!o->build_id_len)
			continue;
		hdr(b, REC_HEADER_BUILD_ID, MISC_USER | MISC_BUILD_ID_SIZE, 36 + pad_len(o->path, 64));
		put32(b, (uint32_t)-1); /* pid: the host machine */
		for (size_t j = 0; j < 20; j++)
			put(b, j < o->build_id_len ? o->build_id[j] : 0, 1);
		put(b, o->build_id_len, 1);
		put(b, 0, 3);
		put_str(b, o->path, 64);
	}
}

int lbr_perfdata_write(const char *out, const struct lbr_data *d, const struct lbr_symtab *st,
		       char *err, size_t errlen)
{
	struct buf b = { 0 };
	size_t nitems = d->nsessions + d->nmmaps + d->nthreads + d->nstacks;
	struct item *it = malloc((nitems ? nitems : 1) * sizeof(*it));
	if (!it) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* File header; sections filled in below. */
	put(&b, 0, FILE_HDR_SIZE);
	if (!b.oom)
		memcpy(b.p, "PERFILE2", 8);
	set64(&b, 8, FILE_HDR_SIZE);
	set64(&b, 16, FILE_ATTR_SIZE);
	set64(&b, 24, FILE_HDR_SIZE);    /* attrs.offset */
	set64(&b, 32, FILE_ATTR_SIZE);   /* attrs.size */
	write_attr(&b, &d->sessions[0]);
	size_t data_off = b.n;
	size_t n;
	write_data(&b, d, it, &n);
	free(it);
	size_t data_end = b.n;
	set64(&b, 40, data_off);
	set64(&b, 48, data_end - data_off);
	/* Features: bits in the header, then one {offset, size} per set bit (ascending), then
	 * their contents. */
	set64(&b, 72, (1ull << FEAT_BUILD_ID) | (1ull << FEAT_BRANCH_STACK));
	size_t table = b.n;
	put(&b, 0, 32);
	size_t bid_off = b.n;
	write_build_ids(&b, st);
	set64(&b, table, bid_off);
	set64(&b, table + 8, b.n - bid_off);
	set64(&b, table + 16, b.n);      /* BRANCH_STACK: empty */
	set64(&b, table + 24, 0);
	if (b.oom) {
		free(b.p);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	FILE *f = fopen(out, "wb");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", out, strerror(errno));
		free(b.p);
		return -1;
	}
	size_t w = fwrite(b.p, 1, b.n, f);
	int bad = w != b.n || ferror(f);
	bad |= fclose(f) != 0;
	free(b.p);
	if (bad) {
		snprintf(err, errlen, "cannot write %s: %s", out, strerror(errno));
		return -1;
	}
	return 0;
}
