/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_profile.c - the comparison file's writer and reader (contract in policy_profile.h).
 */
#include "policy_profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Contract in policy_profile.h. */
int policy_profile_write_hdr(FILE *f, const struct policy_profile_hdr *h)
{
	fprintf(f, "tiprof-policies %d\nbuild-id ", POLICY_PROFILE_VERSION);
	if (!h->build_id_len)
		fputc('-', f);
	for (size_t i = 0; i < h->build_id_len; i++)
		fprintf(f, "%02x", h->build_id[i]);
	fprintf(f, "\nsampled %" PRIu64 "\n", h->sampled);
	return ferror(f) ? -1 : 0;
}

/* Contract in policy_profile.h. */
int policy_profile_write_policy(FILE *f, const char *name, double total)
{
	return fprintf(f, "policy %s %.17g\n", name, total) < 0 ? -1 : 0;
}

/* Contract in policy_profile.h. */
int policy_profile_write_ent(FILE *f, uint64_t pc, double w)
{
	return fprintf(f, "0x%" PRIx64 " %.17g\n", pc, w) < 0 ? -1 : 0;
}

/* A hex build-id into h; -1 if malformed. */
static int parse_id(const char *s, struct policy_profile_hdr *h)
{
	size_t n = strlen(s);

	h->build_id_len = 0;
	if (!strcmp(s, "-"))
		return 0;
	if (n % 2 || n / 2 > POLICY_PROFILE_ID_MAX || !n)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1 || !strchr("0123456789abcdef", s[2 * i]) ||
		    !strchr("0123456789abcdef", s[2 * i + 1]))
			return -1;
		h->build_id[i] = (uint8_t)v;
	}
	h->build_id_len = n / 2;
	return 0;
}

/* Contract in policy_profile.h. */
int policy_profile_read(FILE *f, struct policy_profile_hdr *h, policy_profile_fn fn, void *ctx,
			char *err, size_t errlen)
{
	char line[256], name[POLICY_PROFILE_NAME_MAX] = "", word[160];
	unsigned long lineno = 0;
	int version, have_policy = 0, r;
	double total = 0, w;
	unsigned long long pc, last = 0, n;

	memset(h, 0, sizeof(*h));
	while (fgets(line, sizeof(line), f)) {
		char tail;

		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			goto bad;
		if (lineno == 1) {
			if (sscanf(line, "tiprof-policies %d %c", &version, &tail) != 1) {
				snprintf(err, errlen, "not a tiprof comparison file (line 1)");
				return -1;
			}
			if (version != POLICY_PROFILE_VERSION) {
				snprintf(err, errlen, "comparison file version %d; this tiprof reads "
					 "version %d", version, POLICY_PROFILE_VERSION);
				return -1;
			}
		} else if (lineno == 2) {
			if (sscanf(line, "build-id %159s %c", word, &tail) != 1 || parse_id(word, h))
				goto bad;
		} else if (lineno == 3) {
			if (sscanf(line, "sampled %llu %c", &n, &tail) != 1)
				goto bad;
			h->sampled = n;
		} else if (!strncmp(line, "policy ", 7)) {
			if (sscanf(line, "policy %15s %lf %c", name, &total, &tail) != 2 ||
			    !(total >= 0))
				goto bad;
			have_policy = 1;
			last = 0;
		} else {
			if (!have_policy || sscanf(line, "0x%llx %lf %c", &pc, &w, &tail) != 2 ||
			    !(w >= 0) || (last && pc <= last))
				goto bad;
			last = pc;
			if ((r = fn(ctx, name, total, pc, w)))
				return r;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "read error");
		return -1;
	}
	if (lineno < 3) {
		snprintf(err, errlen, "truncated comparison file (%lu lines)", lineno);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "malformed comparison file at line %lu", lineno);
	return -1;
}
