/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_aux.c - sysfs discovery of the tiprof_pmu PMU and AUX record decoding
 * (contract in perf_aux.h, formats in docs/driver.md).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_aux.h"

/* First line of dir/name into buf (newline cut); 0 or -1. */
static int read_attr(const char *dir, const char *name, char *buf, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int read_uint(const char *dir, const char *name, unsigned *v)
{
	char buf[64], *end;
	unsigned long x;

	if (read_attr(dir, name, buf, sizeof(buf)))
		return -1;
	errno = 0;
	x = strtoul(buf, &end, 10);
	if (errno || end == buf || *end || x > 0xffffffffUL)
		return -1;
	*v = (unsigned)x;
	return 0;
}

/* "config:8-12", "config1:3" -> field. 0 or -1. */
static int parse_format(const char *s, struct pa_field *f)
{
	int lo, hi, used = 0;

	if (strncmp(s, "config2:", 8) == 0) {
		f->word = 2;
		s += 8;
	} else if (strncmp(s, "config1:", 8) == 0) {
		f->word = 1;
		s += 8;
	} else if (strncmp(s, "config:", 7) == 0) {
		f->word = 0;
		s += 7;
	} else {
		return -1;
	}
	if (sscanf(s, "%d-%d%n", &lo, &hi, &used) == 2 && !s[used]) {
		/* range */
	} else if (sscanf(s, "%d%n", &lo, &used) == 1 && !s[used]) {
		hi = lo;
	} else {
		return -1;
	}
	if (lo < 0 || hi < lo || hi > 63)
		return -1;
	f->lo = lo;
	f->hi = hi;
	return 0;
}

static int load_formats(struct pa_pmu *p, char *err, size_t n)
{
	char dir[300], buf[64];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/format", p->dir);
	d = opendir(dir);
	if (!d) {
		snprintf(err, n, "cannot read %s: %s", dir, strerror(errno));
		return -2;
	}
	p->nfields = 0;
	while ((de = readdir(d))) {
		struct pa_field *f;

		if (de->d_name[0] == '.')
			continue;
		if (p->nfields == PA_MAX_FIELDS || strlen(de->d_name) >= sizeof(f->name))
			continue;
		f = &p->fields[p->nfields];
		if (read_attr(dir, de->d_name, buf, sizeof(buf)) || parse_format(buf, f)) {
			snprintf(err, n, "%s/%s: cannot read or parse it", dir, de->d_name);
			closedir(d);
			return -2;
		}
		strcpy(f->name, de->d_name);
		p->nfields++;
	}
	closedir(d);
	return 0;
}

/* Contract in perf_aux.h. */
int pa_pmu_find(struct pa_pmu *p, char *err, size_t n)
{
	char buf[64], name[200] = "";
	struct dirent *de;
	DIR *d;

	memset(p, 0, sizeof(*p));
	err[0] = 0;
	d = opendir(PA_SYSFS_DEVICES);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (strncmp(de->d_name, "tiprof", 6) == 0 && len < sizeof(name) &&
		    (!name[0] || strcmp(de->d_name, name) < 0))
			memcpy(name, de->d_name, len + 1);
	}
	closedir(d);
	if (!name[0])
		return -1;
	snprintf(p->dir, sizeof(p->dir), "%s/%s", PA_SYSFS_DEVICES, name);
	if (read_uint(p->dir, "type", &p->type)) {
		snprintf(err, n, "cannot read %s/type", p->dir);
		return -2;
	}
	if (read_uint(p->dir, "caps/commit_width", &p->w) ||
	    read_uint(p->dir, "caps/xlen", &p->xlen) ||
	    read_uint(p->dir, "caps/fifo_depth", &p->fifo_depth)) {
		snprintf(err, n, "cannot read %s/caps/{commit_width,xlen,fifo_depth}", p->dir);
		return -2;
	}
	if (read_attr(p->dir, "caps/version", buf, sizeof(buf)) ||
	    sscanf(buf, "%u.%u", &p->major, &p->minor) != 2) {
		snprintf(err, n, "cannot read %s/caps/version", p->dir);
		return -2;
	}
	/* optional: a driver without ProfileMe has none of them */
	if (read_uint(p->dir, "caps/pm_fetch_width", &p->pm_f) ||
	    read_uint(p->dir, "caps/pm_fifo_depth", &p->pm_fifo_depth) ||
	    read_uint(p->dir, "caps/pm_tags", &p->pm_tags))
		p->pm_f = p->pm_fifo_depth = p->pm_tags = 0;
	return load_formats(p, err, n);
}

/* Contract in perf_aux.h. */
int pa_pmu_set(const struct pa_pmu *p, uint64_t cfg[3], const char *name, uint64_t val)
{
	int i;

	for (i = 0; i < p->nfields; i++) {
		const struct pa_field *f = &p->fields[i];
		int bits = f->hi - f->lo + 1;
		uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);

		if (strcmp(f->name, name))
			continue;
		if (val & ~mask)
			return -2;
		cfg[f->word] &= ~(mask << f->lo);
		cfg[f->word] |= val << f->lo;
		return 0;
	}
	return -1;
}

/* Contract in perf_aux.h. */
uint32_t pa_pmu_unit_id(const struct pa_pmu *p)
{
	return TIPROF_TIP_ID_MAGIC |
	       ((uint32_t)p->major << TIPROF_TIP_ID_MAJOR_SHIFT & TIPROF_TIP_ID_MAJOR_MASK) |
	       ((uint32_t)p->minor << TIPROF_TIP_ID_MINOR_SHIFT & TIPROF_TIP_ID_MINOR_MASK);
}

static void ring_copy(void *dst, const uint8_t *base, uint64_t size, uint64_t off, size_t len)
{
	uint64_t pos = off & (size - 1);
	size_t first = len;

	if (pos + len > size)
		first = (size_t)(size - pos);
	memcpy(dst, base + pos, first);
	memcpy((uint8_t *)dst + first, base, len - first);
}

/* Contract in perf_aux.h. */
int pa_aux_decode(const uint8_t *base, uint64_t size, uint64_t off, uint64_t end,
		  struct pa_rec *r)
{
	uint8_t rec[TIPROF_AUX_REC_MAX_SIZE];
	uint16_t type, len;
	void *dst;
	size_t want;

	if (end < off + TIPROF_AUX_REC_HDR_SIZE)
		return 0;
	if (size < TIPROF_AUX_REC_HDR_SIZE)	/* ring_copy would read past the ring */
		return -1;
	ring_copy(rec, base, size, off, TIPROF_AUX_REC_HDR_SIZE);
	memcpy(&type, rec, 2);
	memcpy(&len, rec + 2, 2);
	memset(r, 0, sizeof(*r));
	if (len > size)		/* a record larger than the ring cannot be in it */
		return -1;
	switch (type) {
	case TIPROF_AUX_REC_SAMPLE:
		want = TIPROF_AUX_REC_SAMPLE_SIZE;
		dst = &r->sample;
		break;
	case TIPROF_AUX_REC_LOST:
		want = TIPROF_AUX_REC_LOST_SIZE;
		dst = &r->lost;
		break;
	case TIPROF_AUX_REC_PM_SAMPLE:
		want = TIPROF_AUX_REC_PM_SAMPLE_SIZE;
		dst = &r->pm;
		break;
	case TIPROF_AUX_REC_PM_COUNTS:
		want = TIPROF_AUX_REC_PM_COUNTS_SIZE;
		dst = &r->pm_counts;
		break;
	default:
		return -1;
	}
	if (len != want)
		return -1;
	if (end < off + len)
		return 0;
	ring_copy(rec, base, size, off, len);
	r->type = type;
	memcpy(dst, rec + TIPROF_AUX_REC_HDR_SIZE, len - TIPROF_AUX_REC_HDR_SIZE);
	return len;
}
