// SPDX-License-Identifier: Apache-2.0
// sim/programs/drivers/cjson_bench.c - the driver of the cJSON workload of the real-program
// suite (sim/programs/recipes/cjson.sh links it with Debian's cJSON 1.7.15).
//   cjson-bench FILE [REPS]
// REPS times (default 1): parse FILE with cJSON_Parse, walk the tree (counts per type, sum
// of the numbers, string bytes, deepest nesting), print it unformatted and formatted, parse
// the unformatted text again and compare the two trees (cJSON_Compare), duplicate the tree
// and compare, minify the formatted text (cJSON_Minify) and say whether it equals the
// unformatted one (reported, not required: cJSON 1.7.15's minify takes the quote after an
// escaped backslash, "\\", for an escaped quote). Prints one line of results per repetition
// (a hash of each printed text), then a total. Exit status 0, 1 when the re-parsed or the
// duplicated tree differs, 2 on bad arguments or an unreadable or invalid FILE.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"

struct stats {
	unsigned long objects, arrays, strings, numbers, bools, nulls, string_bytes;
	int depth;
	double sum;
};

static void walk(const cJSON *n, int depth, struct stats *s)
{
	if (depth > s->depth) s->depth = depth;
	for (; n; n = n->next) {
		if (cJSON_IsObject(n)) s->objects++, walk(n->child, depth + 1, s);
		else if (cJSON_IsArray(n)) s->arrays++, walk(n->child, depth + 1, s);
		else if (cJSON_IsString(n)) s->strings++, s->string_bytes += strlen(n->valuestring);
		else if (cJSON_IsNumber(n)) s->numbers++, s->sum += n->valuedouble;
		else if (cJSON_IsBool(n)) s->bools++;
		else if (cJSON_IsNull(n)) s->nulls++;
		if (n->string) s->string_bytes += strlen(n->string);
	}
}

static uint64_t fnv(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *p; p++) h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return h;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	size_t cap = 1 << 16, len = 0, n;
	char *buf = malloc(cap + 1);
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			char *b = realloc(buf, 2 * cap + 1);
			if (!b) { free(buf); buf = NULL; break; }
			buf = b, cap *= 2;
		}
	}
	if (ferror(f)) { free(buf); buf = NULL; }
	fclose(f);
	if (buf) buf[len] = 0;
	return buf;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: cjson-bench FILE [REPS]\n");
		return 2;
	}
	long reps = 1;
	if (argc == 3) {
		char *e;
		reps = strtol(argv[2], &e, 10);
		if (*e || e == argv[2] || reps < 1 || reps > 1000000) {
			fprintf(stderr, "cjson-bench: %s: REPS must be a number from 1 to 1000000\n", argv[2]);
			return 2;
		}
	}
	char *text = slurp(argv[1]);
	if (!text) {
		fprintf(stderr, "cjson-bench: %s: cannot read it\n", argv[1]);
		return 2;
	}
	int bad = 0;
	uint64_t total = 0;
	for (long r = 1; r <= reps; r++) {
		cJSON *root = cJSON_Parse(text);
		if (!root) {
			const char *at = cJSON_GetErrorPtr();
			fprintf(stderr, "cjson-bench: %s: not valid JSON (at byte %ld)\n", argv[1],
			        at ? (long)(at - text) : -1L);
			return 2;
		}
		struct stats s = { 0 };
		walk(root, 0, &s);
		char *flat = cJSON_PrintUnformatted(root), *pretty = cJSON_Print(root);
		cJSON *again = flat ? cJSON_Parse(flat) : NULL, *dup = cJSON_Duplicate(root, 1);
		int same = again && cJSON_Compare(root, again, 1);
		int dupsame = dup && cJSON_Compare(root, dup, 1);
		char *mini = pretty ? malloc(strlen(pretty) + 1) : NULL;
		if (mini) cJSON_Minify(strcpy(mini, pretty));
		int minisame = mini && flat && strcmp(mini, flat) == 0;
		if (!flat || !pretty || !same || !dupsame) bad = 1;
		uint64_t hf = flat ? fnv(flat) : 0, hp = pretty ? fnv(pretty) : 0, hm = mini ? fnv(mini) : 0;
		printf("rep %ld: objects %lu arrays %lu strings %lu numbers %lu bools %lu nulls %lu "
		       "string bytes %lu depth %d sum %.6g | unformatted %zu bytes %016llx, formatted %zu "
		       "bytes %016llx | reparse %s, duplicate %s | minified %016llx, %s\n",
		       r, s.objects, s.arrays, s.strings, s.numbers, s.bools, s.nulls, s.string_bytes,
		       s.depth, s.sum, flat ? strlen(flat) : 0, (unsigned long long)hf,
		       pretty ? strlen(pretty) : 0, (unsigned long long)hp, same ? "equal" : "DIFFERENT",
		       dupsame ? "equal" : "DIFFERENT", (unsigned long long)hm,
		       minisame ? "= unformatted" : "not = unformatted");
		total ^= hf + 31 * hp + 961 * hm + (uint64_t)r;
		free(mini);
		cJSON_free(flat);
		cJSON_free(pretty);
		cJSON_Delete(again);
		cJSON_Delete(dup);
		cJSON_Delete(root);
	}
	printf("cjson-bench: %s, %ld repetitions, %s, %016llx\n", argv[1], reps,
	       bad ? "CHECKS FAILED" : "all checks passed", (unsigned long long)total);
	free(text);
	return bad;
}
