/* SPDX-License-Identifier: Apache-2.0 */
/* Integer workload for the decoder and ISS tests: sorting, hashing,
 * 64-bit multiply/divide corner cases, strings and formatted output.
 * Deterministic: the output depends only on argv. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64* pseudo-random generator with explicit state. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* FNV-1a over a byte buffer. */
static uint64_t fnv1a(const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* Division and remainder corner cases, signed and unsigned, 32 and 64 bit. */
static uint64_t divmod_mix(volatile int64_t a, volatile int64_t b)
{
	uint64_t acc = 0;
	int32_t a32 = (int32_t)a, b32 = (int32_t)b;

	if (b != 0) {
		acc += (uint64_t)(a / b) + (uint64_t)(a % b);
		acc += ((uint64_t)a / (uint64_t)b) ^ ((uint64_t)a % (uint64_t)b);
	}
	if (b32 != 0 && !(a32 == INT32_MIN && b32 == -1)) {
		acc += (uint64_t)(a32 / b32) + (uint64_t)(a32 % b32);
		acc += (uint32_t)a32 / (uint32_t)b32 + (uint32_t)a32 % (uint32_t)b32;
	}
	acc += (uint64_t)((__int128)a * b >> 64);
	acc += (uint64_t)((unsigned __int128)(uint64_t)a * (uint64_t)b >> 64);
	return acc;
}

static void sieve(unsigned n, unsigned *count, unsigned *last)
{
	unsigned char *c = calloc(n + 1, 1);
	unsigned i, j;

	*count = 0;
	*last = 0;
	for (i = 2; i <= n; i++) {
		if (c[i])
			continue;
		++*count;
		*last = i;
		for (j = i * 2; j <= n; j += i)
			c[j] = 1;
	}
	free(c);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 20000;
	uint64_t seed = 0x9E3779B97F4A7C15ULL, acc = 0;
	int64_t *v = malloc(n * sizeof(*v));
	char buf[256], *words[64];
	unsigned i, primes, lastp;
	int nw = 0;

	for (i = 0; i < n; i++)
		v[i] = (int64_t)rng_next(&seed) >> (i % 37);
	qsort(v, n, sizeof(*v), cmp_i64);
	for (i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return 3;
	printf("sorted %u values: min %" PRId64 " max %" PRId64 " hash %016" PRIx64 "\n",
	       n, v[0], v[n - 1], fnv1a(v, n * sizeof(*v)));

	for (i = 0; i < 2000; i++) {
		int64_t a = (int64_t)rng_next(&seed), b = (int64_t)rng_next(&seed) >> (i % 64);
		acc = acc * 31 + divmod_mix(a, b);
	}
	acc += divmod_mix(INT64_MIN, -1) + divmod_mix(INT64_MIN, 1) + divmod_mix(7, 0);
	acc += divmod_mix(INT32_MIN, -1) + divmod_mix(-7, 2) + divmod_mix(7, -2);
	printf("divmod acc %016" PRIx64 "\n", acc);

	sieve(100000, &primes, &lastp);
	printf("primes below 100000: %u, last %u\n", primes, lastp);

	snprintf(buf, sizeof(buf), "the quick brown fox jumps over the lazy dog %d %s", argc, argv[0] ? "x" : "y");
	for (char *tok = strtok(buf, " "); tok && nw < 64; tok = strtok(NULL, " "))
		words[nw++] = tok;
	for (i = 0; i < (unsigned)nw; i++)
		acc ^= fnv1a(words[i], strlen(words[i])) << (i % 13);
	printf("words %d acc %016" PRIx64 " strtol %ld %lld\n", nw, acc,
	       strtol("-12345", NULL, 10), strtoll("0x7fffffffffff", NULL, 16));
	for (i = 0; i < (unsigned)argc; i++)
		printf("argv[%u] len %zu\n", i, strlen(argv[i]));
	free(v);
	return (int)(acc & 0x3f) + 10;
}
