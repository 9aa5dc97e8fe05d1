/* SPDX-License-Identifier: Apache-2.0 */
/* perfdata_writer.c - perf.data building blocks (contract in perfdata_writer.h). */
#include "perfdata_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define FILE_HDR_SIZE 104	/* magic, size, attr_size, 3 sections, 256 feature bits */
#define FILE_ATTR_SIZE (PDW_ATTR_SIZE + 16)	/* attr + ids section */
#define NAME_ALIGN 64		/* perf's alignment of strings in header features */

/* Room for k more bytes (sets oom on failure). */
static void need(struct pdw_buf *b, size_t k)
{
	size_t nc;
	uint8_t *np;

	if (b->oom || b->n + k <= b->cap)
		return;
	nc = b->cap ? b->cap : 1 << 16;
	while (nc < b->n + k)
		nc *= 2;
	np = realloc(b->p, nc);
	if (!np) {
		b->oom = 1;
		return;
	}
	b->p = np;
	b->cap = nc;
}

/* Contract in perfdata_writer.h. */
void pdw_put(struct pdw_buf *b, uint64_t v, int bytes)
{
	need(b, (size_t)bytes);
	if (b->oom)
		return;
	for (int i = 0; i < bytes; i++)
		b->p[b->n++] = (uint8_t)(i < 8 ? v >> (8 * i) : 0);
}

/* Contract in perfdata_writer.h. */
void pdw_set64(struct pdw_buf *b, size_t at, uint64_t v)
{
	if (b->oom)
		return;
	for (int i = 0; i < 8; i++)
		b->p[at + i] = (uint8_t)(v >> (8 * i));
}

/* Contract in perfdata_writer.h. */
size_t pdw_pad_len(const char *s, size_t align)
{
	return (strlen(s) + 1 + align - 1) / align * align;
}

/* Contract in perfdata_writer.h. */
void pdw_put_str(struct pdw_buf *b, const char *s, size_t align)
{
	size_t l = strlen(s) + 1, padded = pdw_pad_len(s, align);

	need(b, padded);
	if (b->oom)
		return;
	memcpy(b->p + b->n, s, l);
	memset(b->p + b->n + l, 0, padded - l);
	b->n += padded;
}

/* Contract in perfdata_writer.h. */
void pdw_hdr(struct pdw_buf *b, uint32_t type, uint16_t misc, size_t size)
{
	pdw_put32(b, type);
	pdw_put16(b, misc);
	pdw_put16(b, size);
}

/* Contract in perfdata_writer.h. */
void pdw_sample_id(struct pdw_buf *b, uint32_t pid, uint32_t tid, uint64_t time)
{
	pdw_put32(b, pid);
	pdw_put32(b, tid);
	pdw_put64(b, time);
}

/* Contract in perfdata_writer.h. */
void pdw_comm(struct pdw_buf *b, uint32_t pid, uint32_t tid, const char *path, uint64_t time,
	      int exec)
{
	const char *base = strrchr(path, '/');
	char comm[16];

	snprintf(comm, sizeof(comm), "%s", base ? base + 1 : path);
	pdw_hdr(b, PDW_REC_COMM, exec ? PDW_MISC_COMM_EXEC : 0, 8 + 8 + pdw_pad_len(comm, 8) + 16);
	pdw_put32(b, pid);
	pdw_put32(b, tid);
	pdw_put_str(b, comm, 8);
	pdw_sample_id(b, pid, tid, time);
}

/* Contract in perfdata_writer.h. */
void pdw_mmap2(struct pdw_buf *b, const struct pdw_mmap *m, uint64_t time)
{
	struct stat sb;

	memset(&sb, 0, sizeof(sb));
	if (m->path[0] == '/')
		stat(m->path, &sb);
	pdw_hdr(b, PDW_REC_MMAP2, PDW_MISC_USER, 8 + 64 + pdw_pad_len(m->path, 8) + 16);
	pdw_put32(b, m->pid);
	pdw_put32(b, m->tid);
	pdw_put64(b, m->start);
	pdw_put64(b, m->len);
	pdw_put64(b, m->pgoff);
	pdw_put32(b, major(sb.st_dev));
	pdw_put32(b, minor(sb.st_dev));
	pdw_put64(b, sb.st_ino);
	pdw_put64(b, 0);	/* ino_generation */
	pdw_put32(b, m->prot);
	pdw_put32(b, 2);	/* MAP_PRIVATE */
	pdw_put_str(b, m->path, 8);
	pdw_sample_id(b, m->pid, m->tid, time);
}

/* Contract in perfdata_writer.h. */
void pdw_build_id(struct pdw_buf *b, const char *path, const uint8_t *id, size_t len)
{
	pdw_hdr(b, PDW_REC_HEADER_BUILD_ID, PDW_MISC_USER | PDW_MISC_BUILD_ID_SIZE,
		36 + pdw_pad_len(path, 64));
	pdw_put32(b, (uint32_t)-1);	/* pid: the host machine */
	for (size_t j = 0; j < 20; j++)
		pdw_put(b, j < len ? id[j] : 0, 1);
	pdw_put(b, len, 1);
	pdw_put(b, 0, 3);
	pdw_put_str(b, path, 64);
}

/* The attr itself, PDW_ATTR_SIZE bytes. */
static void put_attr(struct pdw_buf *b, const struct pdw_attr *a)
{
	size_t start = b->n;

	pdw_put32(b, a->type);
	pdw_put32(b, PDW_ATTR_SIZE);
	pdw_put64(b, a->config);
	pdw_put64(b, a->period);	/* sample_period */
	pdw_put64(b, a->sample_type);
	pdw_put64(b, 0);		/* read_format */
	pdw_put64(b, a->flags);
	pdw_put32(b, 0);		/* wakeup_events */
	pdw_put32(b, 0);		/* bp_type */
	pdw_put64(b, 0);		/* config1 */
	pdw_put64(b, 0);		/* config2 */
	pdw_put64(b, a->branch_sample_type);
	pdw_put64(b, 0);		/* sample_regs_user */
	pdw_put32(b, 0);		/* sample_stack_user */
	pdw_put32(b, a->clockid);
	while (b->n - start < PDW_ATTR_SIZE && !b->oom)
		pdw_put(b, 0, 1);
}

/* Contract in perfdata_writer.h. */
size_t pdw_begin(struct pdw_buf *b, const struct pdw_attr *a)
{
	pdw_put(b, 0, 8);
	pdw_put(b, 0, FILE_HDR_SIZE - 8);
	if (!b->oom)
		memcpy(b->p, "PERFILE2", 8);
	pdw_set64(b, 8, FILE_HDR_SIZE);
	pdw_set64(b, 16, FILE_ATTR_SIZE);
	pdw_set64(b, 24, FILE_HDR_SIZE);	/* attrs.offset */
	pdw_set64(b, 32, FILE_ATTR_SIZE);	/* attrs.size */
	put_attr(b, a);
	pdw_put64(b, 0);	/* ids section: none (one attr, no sample ids) */
	pdw_put64(b, 0);
	return b->n;
}

/* Contract in perfdata_writer.h. */
size_t pdw_end_data(struct pdw_buf *b, size_t data_off, uint64_t mask)
{
	size_t table;

	pdw_set64(b, 40, data_off);
	pdw_set64(b, 48, b->n - data_off);
	/* features: bits in the header, then one {offset, size} per set bit (ascending) */
	pdw_set64(b, 72, mask);
	table = b->n;
	pdw_put(b, 0, 16 * __builtin_popcountll(mask));
	return table;
}

/* Contract in perfdata_writer.h. */
void pdw_feature_done(struct pdw_buf *b, size_t table, uint64_t mask, unsigned feat, size_t off)
{
	size_t slot = (size_t)__builtin_popcountll(mask & ((1ull << feat) - 1));

	pdw_set64(b, table + 16 * slot, off);
	pdw_set64(b, table + 16 * slot + 8, b->n - off);
}

/* Contract in perfdata_writer.h. perf's write_event_desc: nr, attr size, then per event the
 * attr, its number of ids, its name (u32 length + string padded to 64) and the ids. One id
 * (0) is written: perf's reader indexes the first id of every event. */
void pdw_event_desc(struct pdw_buf *b, const struct pdw_attr *a, const char *name)
{
	pdw_put32(b, 1);
	pdw_put32(b, PDW_ATTR_SIZE);
	put_attr(b, a);
	pdw_put32(b, 1);
	pdw_put32(b, pdw_pad_len(name, NAME_ALIGN));
	pdw_put_str(b, name, NAME_ALIGN);
	pdw_put64(b, 0);
}

/* Contract in perfdata_writer.h. */
int pdw_write_file(struct pdw_buf *b, const char *path, char *err, size_t errlen)
{
	FILE *f;
	int bad;

	if (b->oom) {
		free(b->p);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	f = fopen(path, "wb");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(b->p);
		return -1;
	}
	bad = fwrite(b->p, 1, b->n, f) != b->n || ferror(f);
	bad |= fclose(f) != 0;
	free(b->p);
	b->p = NULL;
	if (bad) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
