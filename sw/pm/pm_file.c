/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_file.c - the ProfileMe part of a sample file (contract in pm_file.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_file.h"

/* Append one item of size sz to *arr (count *n, capacity *cap). Returns 0 or -1. */
static int push(void **arr, size_t *n, size_t *cap, const void *item, size_t sz)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		void *na = realloc(*arr, nc * sz);

		if (!na)
			return -1;
		*arr = na;
		*cap = nc;
	}
	memcpy((char *)*arr + *n * sz, item, sz);
	(*n)++;
	return 0;
}

/* Contract in pm_file.h. */
int pm_file_load(struct pm_file *f, const char *path, char *err, size_t errlen)
{
	struct sf_reader r;
	struct sf_record *rec = malloc(sizeof(*rec));
	size_t ocap = 0;
	int n, has_cfg = 0, ret = -1;

	memset(f, 0, sizeof(*f));
	if (!rec) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (sf_reader_open(&r, path)) {
		snprintf(err, errlen, "%s", sf_reader_error(&r));
		goto out;
	}
	f->hdr = r.hdr;
	while ((n = sf_reader_next_record(&r, rec)) == 1) {
		int bad = 0;

		switch (rec->type) {
		case SF_REC_PM_CONFIG:
			f->cfg = rec->pm_config;
			has_cfg = 1;
			break;
		case SF_REC_PM_SAMPLE:
			bad = push((void **)&f->s, &f->n, &f->cap, &rec->pm_sample,
				   sizeof(rec->pm_sample));
			break;
		case SF_REC_PM_COUNTS:
			f->counts = rec->pm_counts;
			f->has_counts = 1;
			break;
		case SF_REC_OBJECT:
			bad = push((void **)&f->obj, &f->nobj, &ocap, &rec->object,
				   sizeof(rec->object));
			break;
		case SF_REC_SAMPLE:
			f->tip_samples++;
			break;
		default:
			break;
		}
		if (bad) {
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		}
	}
	if (n < 0) {
		snprintf(err, errlen, "%s", sf_reader_error(&r));
		goto out;
	}
	if (!has_cfg && f->hdr.version_major == 1 && f->hdr.version_minor < 2) {
		snprintf(err, errlen, "%s: sample file format %u.%u has no ProfileMe records (they "
			 "came with 1.2); tiprof report reads its TIP samples", path,
			 f->hdr.version_major, f->hdr.version_minor);
		goto out;
	}
	if (!has_cfg) {
		snprintf(err, errlen, "%s: no ProfileMe records (%" PRIu64 " TIP samples: tiprof "
			 "report reads them; record ProfileMe with tiprof sim -e profileme)", path,
			 f->tip_samples);
		goto out;
	}
	ret = 0;
out:
	sf_reader_close(&r);
	free(rec);
	return ret;
}

/* Contract in pm_file.h. */
void pm_file_free(struct pm_file *f)
{
	free(f->s);
	free(f->obj);
	memset(f, 0, sizeof(*f));
}
