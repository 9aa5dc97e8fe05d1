// SPDX-License-Identifier: Apache-2.0
// sim/programs/gen_input.c - deterministic test input for the real-program suite: SIZE bytes
// of mixed text and binary data from a fixed SEED, the same bytes on every host (a 64-bit
// splitmix generator, integer arithmetic only, no locale, no time).
//   gen-input SIZE [SEED]     (SIZE in bytes, optional K or M suffix; SEED default 1)
// The output is a sequence of chunks of 4-64 KiB, each of one kind, so compressors see what
// real files hold: English-like text, log lines with numbers, little-endian binary records,
// a pattern repeated with mutations, runs of zeros, and random (incompressible) bytes.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t next(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n) { return next() % n; }

static const char *const words[] = {
	"the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
	"by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
	"an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
	"there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "processor",
	"instruction", "commit", "cycle", "branch", "pipeline", "memory", "cache", "register",
	"profile", "sample", "retire", "stall", "flush", "latency", "throughput", "compression",
	"dictionary", "entropy", "window", "literal", "sequence", "match", "offset", "frame",
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static unsigned char *buf;
static size_t len, cap;

static void put(const void *p, size_t n)
{
	if (len + n > cap) {
		cap = (len + n) * 2;
		buf = realloc(buf, cap);
		if (!buf) {
			fprintf(stderr, "gen-input: out of memory\n");
			exit(1);
		}
	}
	memcpy(buf + len, p, n);
	len += n;
}

static void text(size_t end)
{
	int col = 0, sentence = 1;
	while (len < end) {
		// Zipf-like: low indices (common words) far more often.
		const char *w = words[below(1 + below(NWORDS))];
		char tmp[32];
		size_t n = strlen(w);
		memcpy(tmp, w, n);
		if (sentence && tmp[0] >= 'a' && tmp[0] <= 'z')
			tmp[0] = (char)(tmp[0] - 'a' + 'A');
		sentence = 0;
		if (col + (int)n > 72) {
			put("\n", 1);
			col = 0;
		} else if (col) {
			put(" ", 1);
			col++;
		}
		put(tmp, n);
		col += (int)n;
		if (below(12) == 0) {
			put(below(4) ? "." : ",", 1);
			col++;
			sentence = 1;
		}
	}
}

static void logs(size_t end)
{
	static uint64_t t = 1700000000000ull;
	static const char *const level[] = { "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR" };
	char line[160];
	while (len < end) {
		t += below(5000);
		int n = snprintf(line, sizeof line, "%llu.%03llu %s core%llu pc=0x%08llx insns=%llu ipc=%llu.%02llu\n",
		                 (unsigned long long)(t / 1000), (unsigned long long)(t % 1000),
		                 level[below(6)], (unsigned long long)below(4),
		                 (unsigned long long)(0x10000 + below(0x4000) * 2),
		                 (unsigned long long)below(100000000), (unsigned long long)below(4),
		                 (unsigned long long)below(100));
		put(line, (size_t)n);
	}
}

static void records(size_t end)
{
	uint32_t id = (uint32_t)below(1000);
	while (len < end) {
		unsigned char r[24];
		uint64_t v = below(1u << 20), a = 0x80000000u + below(4096) * 8;
		id += 1 + (uint32_t)below(3);
		for (int i = 0; i < 4; i++) r[i] = (unsigned char)(id >> (8 * i));
		for (int i = 0; i < 8; i++) r[4 + i] = (unsigned char)(a >> (8 * i));
		for (int i = 0; i < 8; i++) r[12 + i] = (unsigned char)(v >> (8 * i));
		r[20] = (unsigned char)below(8);
		r[21] = r[22] = r[23] = 0;
		put(r, sizeof r);
	}
}

static void pattern(size_t end)
{
	unsigned char p[256];
	size_t n = 16 + below(240);
	for (size_t i = 0; i < n; i++) p[i] = (unsigned char)next();
	while (len < end) {
		if (below(8) == 0) p[below(n)] = (unsigned char)next();
		put(p, n);
	}
}

static void zeros(size_t end)
{
	static const unsigned char z[64];
	while (len < end) put(z, sizeof z);
}

static void noise(size_t end)
{
	while (len < end) {
		uint64_t v = next();
		put(&v, sizeof v);  // byte order does not matter: random either way
	}
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: gen-input SIZE[K|M] [SEED]\n");
		return 2;
	}
	char *e;
	unsigned long long size = strtoull(argv[1], &e, 10);
	if (*e == 'K' || *e == 'k') size <<= 10, e++;
	else if (*e == 'M' || *e == 'm') size <<= 20, e++;
	if (*e || e == argv[1] || size == 0 || size > (1ull << 32)) {
		fprintf(stderr, "gen-input: %s: SIZE must be a number of bytes (K or M suffix), 1 to 4G\n", argv[1]);
		return 2;
	}
	state = argc == 3 ? strtoull(argv[2], NULL, 0) : 1;
	static void (*const kinds[])(size_t) = { text, text, text, logs, logs, records, pattern, zeros, noise };
	while (len < size) {
		size_t end = len + 4096 + below(60 * 1024);
		kinds[below(sizeof kinds / sizeof kinds[0])](end);
	}
	if (fwrite(buf, 1, (size_t)size, stdout) != size || fflush(stdout)) {
		perror("gen-input: stdout");
		return 1;
	}
	return 0;
}
