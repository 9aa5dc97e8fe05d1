// SPDX-License-Identifier: Apache-2.0
// sim/programs/gen_input.c - deterministic test input for the real-program suite: SIZE bytes
// of mixed text and binary data from a fixed SEED, the same bytes on every host (a 64-bit
// splitmix generator, integer arithmetic only, no locale, no time).
//   gen-input [-k KIND] SIZE [SEED]   (SIZE in bytes, optional K or M suffix; SEED default 1)
// KIND mixed (the default): a sequence of chunks of 4-64 KiB, each of one kind, so compressors
// see what real files hold: English-like text, log lines with numbers, little-endian binary
// records, a pattern repeated with mutations, runs of zeros, and random (incompressible) bytes.
// KIND text: the text and log-line chunks alone (lines of printable ASCII, for grep-like
// programs; up to the last newline within SIZE). KIND json: one JSON document, an array of records (nested objects and arrays,
// strings with escapes and \u sequences, integers, decimals with exponents, true, false,
// null), of SIZE bytes or a little more (the last record is finished and the array closed).
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


static void putstr(const char *p) { put(p, strlen(p)); }

static void json_string(void)
{
	static const char *const esc[] = { "\\n", "\\\"", "\\\\", "\\t", "\\u00e9", "\\u2192", "\\/" };
	putstr("\"");
	for (int n = 1 + (int)below(6); n; n--) {
		putstr(words[below(1 + below(NWORDS))]);
		if (below(5) == 0) putstr(esc[below(sizeof esc / sizeof esc[0])]);
		else if (n > 1) putstr(" ");
	}
	putstr("\"");
}

static void json_number(void)
{
	char tmp[64];
	int n;
	switch (below(4)) {
	case 0: n = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)below(1000)); break;
	case 1: n = snprintf(tmp, sizeof tmp, "-%llu", (unsigned long long)below(1ull << 40)); break;
	case 2: n = snprintf(tmp, sizeof tmp, "%llu.%03llu", (unsigned long long)below(100000),
	                     (unsigned long long)below(1000)); break;
	default: n = snprintf(tmp, sizeof tmp, "%llu.%llue%s%llu", (unsigned long long)below(10),
	                      (unsigned long long)below(1000000), below(2) ? "-" : "+",
	                      (unsigned long long)below(300)); break;
	}
	put(tmp, (size_t)n);
}

static void json_value(int depth)
{
	uint64_t k = below(depth > 3 ? 6 : 8);
	if (k < 2) json_string();
	else if (k < 4) json_number();
	else if (k == 4) putstr(below(2) ? "true" : "false");
	else if (k == 5) putstr("null");
	else if (k == 6) {
		putstr("[");
		for (int n = (int)below(8), i = 0; i < n; i++) {
			if (i) putstr(",");
			json_value(depth + 1);
		}
		putstr("]");
	} else {
		putstr("{");
		for (int n = (int)below(6), i = 0; i < n; i++) {
			char key[48];
			int m = snprintf(key, sizeof key, "%s\"%s_%d\":", i ? "," : "", words[below(NWORDS)], i);
			put(key, (size_t)m);
			json_value(depth + 1);
		}
		putstr("}");
	}
}

static void json(size_t end)
{
	unsigned long long id = 0;
	putstr("[\n");
	while (len < end) {
		char head[64];
		int m = snprintf(head, sizeof head, "%s{\"id\":%llu,\"name\":", id ? ",\n" : "", id);
		put(head, (size_t)m);
		json_string();
		putstr(",\"tags\":[");
		for (int n = (int)below(5), i = 0; i < n; i++) {
			if (i) putstr(",");
			json_string();
		}
		putstr("],\"value\":");
		json_number();
		putstr(",\"data\":");
		json_value(1);
		putstr("}");
		id++;
	}
	putstr("\n]\n");
}

int main(int argc, char **argv)
{
	const char *kind = "mixed";
	if (argc >= 3 && strcmp(argv[1], "-k") == 0) {
		kind = argv[2];
		argc -= 2, argv += 2;
	}
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: gen-input [-k mixed|text|json] SIZE[K|M] [SEED]\n");
		return 2;
	}
	if (strcmp(kind, "mixed") && strcmp(kind, "text") && strcmp(kind, "json")) {
		fprintf(stderr, "gen-input: %s: KIND must be mixed, text or json\n", kind);
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
	state = 1;
	if (argc == 3) {
		state = strtoull(argv[2], &e, 0);
		if (*e || e == argv[2] || argv[2][0] == '-') {
			fprintf(stderr, "gen-input: %s: SEED must be a non-negative integer\n", argv[2]);
			return 2;
		}
	}
	static void (*const mixed[])(size_t) = { text, text, text, logs, logs, records, pattern, zeros, noise };
	static void (*const lines[])(size_t) = { text, text, logs };
	if (strcmp(kind, "json") == 0) {
		json(size);
		size = len;
	}
	while (len < size) {
		size_t end = len + 4096 + below(60 * 1024);
		if (strcmp(kind, "text") == 0) {
			lines[below(sizeof lines / sizeof lines[0])](end);
			if (len && buf[len - 1] != '\n') put("\n", 1);
		} else {
			mixed[below(sizeof mixed / sizeof mixed[0])](end);
		}
	}
	if (strcmp(kind, "text") == 0)  // whole lines: up to the last newline within SIZE
		while (size > 1 && buf[size - 1] != '\n') size--;
	if (fwrite(buf, 1, (size_t)size, stdout) != size || fflush(stdout)) {
		perror("gen-input: stdout");
		return 1;
	}
	return 0;
}
