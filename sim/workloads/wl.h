/* SPDX-License-Identifier: Apache-2.0
 * wl.h - helpers shared by the tiprof workload suite: a fixed-seed PRNG, the
 * size argument and the one-line verdict. Header-only, so that every workload
 * stays a single readable C file with no other object to link.
 *
 * Every workload prints exactly one line on stdout,
 *   <name>: OK size=<n> checksum=0x<16 hex> reference=0x<16 hex>
 * (or "FAIL" in place of "OK", followed by a reason) and exits 0 on OK,
 * 1 on FAIL, 2 on a bad argument. */
#ifndef TIPROF_WL_H
#define TIPROF_WL_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* splitmix64: a fast, well-mixed 64-bit generator. The state is explicit so
 * a workload can replay a sequence for its reference computation. */
static inline uint64_t wl_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniform value in [0, n) for n < 2^32 (multiply-high, no division). */
static inline uint32_t wl_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(((wl_rand(state) >> 32) * (uint64_t)n) >> 32);
}

/* The size argument: argv[1] if given (a positive integer no larger than
 * max), otherwise def. Exits with status 2 and a usage line on bad input. */
static inline long wl_size(int argc, char **argv, long def, long max)
{
	char *end;
	long v;

	if (argc < 2)
		return def;
	v = strtol(argv[1], &end, 0);
	if (argc > 2 || end == argv[1] || *end != '\0' || v <= 0 || v > max) {
		fprintf(stderr, "usage: %s [size]   (1..%ld, default %ld)\n",
			argv[0], max, def);
		exit(2);
	}
	return v;
}

/* Print the verdict line and return the exit status: OK when checksum equals
 * reference and no failure reason is given. */
static inline int wl_report(const char *name, long size, uint64_t checksum,
			    uint64_t reference, const char *failure)
{
	int ok = checksum == reference && failure == NULL;

	printf("%s: %s size=%ld checksum=0x%016" PRIx64 " reference=0x%016" PRIx64
	       "%s%s\n", name, ok ? "OK" : "FAIL", size, checksum, reference,
	       ok ? "" : " : ", ok ? "" : failure ? failure : "checksum differs");
	return ok ? 0 : 1;
}

#endif
