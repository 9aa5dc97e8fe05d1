/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_data.c - load a records file into memory (contract in lbr_data.h). */
#include "lbr_data.h"
#include "lbr_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append one element of `size` bytes to a growing array. */
static int push(void **arr, size_t *n, size_t *cap, const void *elem, size_t size)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		void *na = realloc(*arr, nc * size);
		if (!na)
			return -1;
		*arr = na;
		*cap = nc;
	}
	memcpy((char *)*arr + *n * size, elem, size);
	(*n)++;
	return 0;
}

int lbr_data_load(const char *path, struct lbr_data *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	err[0] = 0;
	uint8_t *buf = NULL;
	size_t len = 0;
	int r = lbr_cli_read_file(path, &buf, &len);
	if (r < 0) {
		snprintf(err, errlen, "cannot read the records file %s: %s", path, strerror(-r));
		return -1;
	}
	if (lbr_file_check_header(buf, len) < 0) {
		snprintf(err, errlen, "%s is not a tiprof-lbr records file (bad magic or version)", path);
		free(buf);
		return -1;
	}
	d->machine = lbr_file_machine(buf);
	static struct lbr_rec rec;
	size_t cap_s = 0, cap_t = 0, cap_m = 0, cap_k = 0;
	size_t off = LBR_FILE_HDR_SIZE;
	int status = 0;
	while (off < len && status == 0) {
		long n = lbr_dec_record(buf + off, len - off, &rec);
		if (n == LBR_NEED_MORE) {
			d->truncated = 1;
			break;
		}
		if (n < 0) {
			snprintf(err, errlen, "%s: malformed record at offset %zu; the file is damaged", path, off);
			status = -1;
			break;
		}
		off += (size_t)n;
		if (!d->nsessions && (rec.type == LBR_REC_THREAD || rec.type == LBR_REC_MMAP ||
				      rec.type == LBR_REC_STACK)) {
			snprintf(err, errlen, "%s: record before the first session record", path);
			status = -1;
			break;
		}
		size_t sess = d->nsessions ? d->nsessions - 1 : 0;
		switch (rec.type) {
		case LBR_REC_SESSION:
			status = push((void **)&d->sessions, &d->nsessions, &cap_s, &rec.u.session,
				      sizeof(rec.u.session));
			break;
		case LBR_REC_THREAD: {
			struct lbr_data_thread t = { rec.u.thread, sess };
			status = push((void **)&d->threads, &d->nthreads, &cap_t, &t, sizeof(t));
			break;
		}
		case LBR_REC_MMAP: {
			struct lbr_data_mmap m = { rec.u.mmap, sess };
			status = push((void **)&d->mmaps, &d->nmmaps, &cap_m, &m, sizeof(m));
			break;
		}
		case LBR_REC_STACK: {
			static struct lbr_data_stack k;
			k.s = rec.u.stack;
			k.sess = sess;
			k.pid = d->sessions[sess].pid;
			/* The thread's latest thread record names its process. */
			for (size_t i = d->nthreads; i-- > 0;)
				if (d->threads[i].t.tid == k.s.tid) {
					k.pid = d->threads[i].t.pid;
					k.sess = d->threads[i].sess;
					break;
				}
			status = push((void **)&d->stacks, &d->nstacks, &cap_k, &k, sizeof(k));
			break;
		}
		default:
			break;
		}
		if (status < 0 && !err[0])
			snprintf(err, errlen, "out of memory reading %s", path);
	}
	free(buf);
	if (status == 0 && d->nsessions == 0) {
		snprintf(err, errlen, "%s holds no session (was anything traced?)", path);
		status = -1;
	}
	if (status < 0)
		lbr_data_free(d);
	return status;
}

void lbr_data_free(struct lbr_data *d)
{
	free(d->sessions);
	free(d->threads);
	free(d->mmaps);
	free(d->stacks);
	memset(d, 0, sizeof(*d));
}

const struct lbr_mmap *lbr_data_find_mmap(const struct lbr_data *d, size_t sess, uint64_t addr)
{
	for (size_t i = 0; i < d->nmmaps; i++) {
		const struct lbr_data_mmap *m = &d->mmaps[i];
		if (m->sess == sess && addr >= m->m.start && addr < m->m.end)
			return &m->m;
	}
	return NULL;
}

unsigned lbr_data_machine(const struct lbr_data *d)
{
	if (d->machine || !d->nsessions)
		return d->machine;
	uint8_t h[20];
	FILE *f = fopen(d->sessions[0].exe, "rb");
	size_t n = f ? fread(h, 1, sizeof(h), f) : 0;
	if (f)
		fclose(f);
	if (n < sizeof(h) || memcmp(h, "\177ELF", 4) != 0 || h[5] != 1 /* little-endian */)
		return 0;
	return (unsigned)(h[18] | h[19] << 8);
}
