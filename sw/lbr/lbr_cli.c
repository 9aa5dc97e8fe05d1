/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_cli.c - helpers the `tiprof lbr` subcommands share (contract in lbr_cli.h). */
#define _GNU_SOURCE
#include "lbr_cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lbr_cli_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	if (!s || !*s || s[0] == '-')
		return -1;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

int lbr_cli_find_lib(char *lib, size_t cap)
{
	const char *env = getenv("TIPROF_LBR_LIB");
	if (env && *env) {
		snprintf(lib, cap, "%s", env);
		return access(lib, R_OK) == 0 ? 0 : -1;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = 0;
	static const char *const rel[] = { "/../lib/libtiprof-lbr.so", "/libtiprof-lbr.so" };
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if (strlen(exe) + strlen(rel[i]) + 1 > cap)
			return -1;
		snprintf(lib, cap, "%s%s", exe, rel[i]);
		if (access(lib, R_OK) == 0)
			return 0;
	}
	snprintf(lib, cap, "%s%s", exe, rel[0]); /* report the usual location */
	return -1;
}

int lbr_cli_read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -errno;
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	for (;;) {
		if (!b) {
			fclose(f);
			return -ENOMEM;
		}
		size_t r = fread(b + n, 1, cap - n, f);
		n += r;
		if (n < cap)
			break;
		cap *= 2;
		uint8_t *nb = realloc(b, cap);
		if (!nb)
			free(b);
		b = nb;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(b);
		return -EIO;
	}
	*buf = b;
	*len = n;
	return 0;
}
