/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kallsyms.c - kernel symbols from a copy of /proc/kallsyms (contract in kallsyms.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kallsyms.h"

/* Parse the address at the start of line s (1..16 hex digits then a space). Returns the
 * number of digits, 0 if there is no address. */
static size_t parse_addr(const char *s, uint64_t *addr)
{
	size_t i = 0;

	*addr = 0;
	for (; isxdigit((unsigned char)s[i]); i++) {
		int c = tolower((unsigned char)s[i]);

		if (i >= 16)
			return 0;
		*addr = *addr << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	return i && s[i] == ' ' ? i : 0;
}

/* By address; at one address global symbols first, then in file order. */
static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)
		return x->global ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Parse one line (its newline removed) of n characters into *addr, *type, *name and *mod
 * (NULL without one); name and mod are NUL-terminated in place. Returns 0, -1 if malformed. */
static int parse_line(char *line, size_t n, uint64_t *addr, char *type, char **name,
		      char **mod)
{
	size_t a = parse_addr(line, addr), nl;
	char *end;

	if (memchr(line, '\0', n) || !a || !isalpha((unsigned char)line[a + 1]) ||
	    line[a + 2] != ' ' || !line[a + 3] || isspace((unsigned char)line[a + 3]))
		return -1;
	*type = line[a + 1];
	*name = line + a + 3;
	*mod = NULL;
	nl = strcspn(*name, " \t");
	if (!(*name)[nl])
		return 0;
	if ((*name)[nl] != '\t' || (*name)[nl + 1] != '[')	/* "\t[MODULE]" */
		return -1;
	(*name)[nl] = '\0';
	*mod = *name + nl + 2;
	end = strchr(*mod, ']');
	if (!end || end == *mod || end[1] || strcspn(*mod, " \t") < (size_t)(end - *mod))
		return -1;
	*end = '\0';
	return 0;
}

/* Contract in kallsyms.h. */
int kallsyms_load(struct kallsyms *k, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0, alloc = 0, nonzero = 0, o = 0;
	ssize_t len;
	int ret = -1;

	memset(k, 0, sizeof(*k));
	if (!f) {
		snprintf(err, errlen, "cannot open the kallsyms file %s: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		uint64_t addr;
		char type, *name, *mod;
		struct ksym *s;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (parse_line(line, (size_t)len, &addr, &type, &name, &mod)) {
			snprintf(err, errlen, "%s:%zu: not a kallsyms line (ADDRESS TYPE NAME "
				 "[MODULE])", path, lineno);
			goto out;
		}
		nonzero += addr != 0;
		if (!strchr("tTwW", type) || !addr)
			continue;
		if (k->n == alloc) {
			size_t na = alloc ? 2 * alloc : 4096;
			struct ksym *ns = realloc(k->sym, na * sizeof(*ns));

			if (!ns)
				goto nomem;
			k->sym = ns;
			alloc = na;
		}
		s = &k->sym[k->n];
		s->addr = addr;
		s->global = isupper((unsigned char)type) != 0;
		s->line = lineno;
		s->name = malloc(strlen(name) + (mod ? strlen(mod) + 1 : 0) + 1);
		if (!s->name)
			goto nomem;
		if (mod)
			sprintf(s->name, "%s@%s", name, mod);
		else
			strcpy(s->name, name);
		k->n++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read the kallsyms file %s", path);
		goto out;
	}
	if (lineno && !nonzero) {
		snprintf(err, errlen, "the kallsyms file %s shows every address as 0 "
			 "(kernel.kptr_restrict hid them when it was copied)", path);
		goto out;
	}
	if (!k->n) {
		snprintf(err, errlen, "the kallsyms file %s has no text symbol (type t, T, w or W)",
			 path);
		goto out;
	}
	qsort(k->sym, k->n, sizeof(*k->sym), ksym_cmp);
	for (size_t i = 0; i < k->n; i++) {	/* one symbol per address: the first */
		if (o && k->sym[o - 1].addr == k->sym[i].addr) {
			free(k->sym[i].name);
			continue;
		}
		k->sym[o++] = k->sym[i];
	}
	k->n = o;
	ret = 0;
	goto out;
nomem:
	snprintf(err, errlen, "%s: out of memory", path);
out:
	free(line);
	fclose(f);
	return ret;
}

/* Contract in kallsyms.h. */
void kallsyms_free(struct kallsyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->sym[i].name);
	free(k->sym);
	k->sym = NULL;
	k->n = 0;
}

/* Contract in kallsyms.h. */
long kallsyms_find(const struct kallsyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;	/* the last symbol at or below addr is below hi */

	if (!k->n || addr < k->sym[0].addr)
		return -1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->sym[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == k->n - 1 && addr - k->sym[lo].addr >= KALLSYMS_LAST_SPAN)
		return -1;
	return (long)lo;
}

/* Contract in kallsyms.h. */
int kallsyms_save(const char *src, const char *dst, char *msg, size_t len)
{
	FILE *in = fopen(src, "r"), *out;
	char *line = NULL;
	size_t cap = 0, nonzero = 0, used = 0, alloc = 0;
	char *buf = NULL;
	ssize_t n;
	int ret = 1;

	if (!in) {
		snprintf(msg, len, "cannot read %s: %s", src, strerror(errno));
		return 1;
	}
	while ((n = getline(&line, &cap, in)) >= 0) {	/* procfs: no size, read it all */
		uint64_t a;

		if (parse_addr(line, &a) && a)
			nonzero++;
		if (used + (size_t)n > alloc) {
			size_t na = alloc ? 2 * alloc : 1 << 20;
			char *nb;

			while (na < used + (size_t)n)
				na *= 2;
			if (!(nb = realloc(buf, na))) {
				snprintf(msg, len, "%s: out of memory", src);
				goto out;
			}
			buf = nb;
			alloc = na;
		}
		memcpy(buf + used, line, (size_t)n);
		used += (size_t)n;
	}
	if (ferror(in)) {
		snprintf(msg, len, "cannot read %s", src);
		goto out;
	}
	if (!nonzero) {
		snprintf(msg, len, "%s shows every address as 0 (kernel.kptr_restrict: run as root "
			 "or sysctl kernel.kptr_restrict=0)", src);
		goto out;
	}
	ret = -1;
	if (!(out = fopen(dst, "w"))) {
		snprintf(msg, len, "cannot write %s: %s", dst, strerror(errno));
		goto out;
	}
	if (fwrite(buf, 1, used, out) != used || fclose(out)) {
		snprintf(msg, len, "cannot write %s", dst);
		unlink(dst);
		goto out;
	}
	ret = 0;
out:
	free(line);
	free(buf);
	fclose(in);
	return ret;
}
