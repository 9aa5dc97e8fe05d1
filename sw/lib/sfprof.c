/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sfprof.c - sample file to per-address profile (contract in sfprof.h).
 */
#include <stdio.h>
#include <string.h>

#include "rv_isa.h"
#include "sfprof.h"

/* Contract in sfprof.h. */
int sfprof_kind(void *ctx, uint64_t addr)
{
	const struct sfprof *p = ctx;
	uint8_t b[4];
	size_t n = elf_image_read(&p->img, addr, b, sizeof(b));
	struct rv_insn in;

	if (rv_decode(b, n, addr, &in) < 0)
		return ATTR_KIND_ALU;
	/* as the core model classifies them: loads, LR, AMOs wait for a read */
	return rv_is_load(&in) ? ATTR_KIND_LOAD : rv_is_store(&in) ? ATTR_KIND_STORE :
	       ATTR_KIND_ALU;
}

/* Contract in sfprof.h. */
const char *sfprof_mode_name(const struct sf_header *h)
{
	return h->mode == TIPROF_MODE_PERIODIC ? "periodic" :
	       h->mode == TIPROF_MODE_RANDOM_INTERVAL ? "random-interval" : "random-period";
}

/* Contract in sfprof.h. */
int sfprof_load(struct sfprof *p, const char *file, const char *elf, char *err, size_t errlen)
{
	struct sf_reader r;
	struct tiprof_sample s;
	char want[2 * SF_BUILD_ID_MAX + 1], have[2 * SF_BUILD_ID_MAX + 1];
	char why[512];
	int n, ret = -1;

	memset(p, 0, sizeof(*p));
	attr_prof_init(&p->prof);
	if (sf_reader_open(&r, file)) {
		snprintf(err, errlen, "%s", sf_reader_error(&r));
		sf_reader_close(&r);
		return -1;
	}
	p->hdr = r.hdr;
	if (!elf && !p->hdr.elf_path_len) {
		snprintf(err, errlen, "%s: the file names no workload ELF; pass --elf ELF", file);
		goto out;
	}
	snprintf(p->elf, sizeof(p->elf), "%s", elf ? elf : p->hdr.elf_path);
	if (elf_image_load(&p->img, p->elf, why, sizeof(why))) {
		snprintf(err, errlen, "%s%s", why, elf ? "" : " (named by the sample file; "
			 "pass --elf ELF if it moved)");
		goto out;
	}
	if (p->hdr.build_id_len && (p->hdr.build_id_len != p->img.build_id_len ||
	    memcmp(p->hdr.build_id, p->img.build_id, p->hdr.build_id_len))) {
		elf_image_hex(p->hdr.build_id, p->hdr.build_id_len, want, sizeof(want));
		elf_image_hex(p->img.build_id, p->img.build_id_len, have, sizeof(have));
		snprintf(err, errlen, "%s: recorded from build-id %s but %s has build-id %s; pass "
			 "--elf with the profiled binary", file, want, p->elf,
			 have[0] ? have : "(none)");
		goto out;
	}
	if (code_map_load(&p->map, p->elf, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		goto out;
	}
	p->map_ok = 1;
	while ((n = sf_reader_next(&r, &s)) == 1)
		if (attr_sample(&p->prof, p->hdr.w, &s, sfprof_kind, p)) {
			snprintf(err, errlen, "%s: out of memory", file);
			goto out;
		}
	if (n < 0) {
		snprintf(err, errlen, "%s", sf_reader_error(&r));
		goto out;
	}
	p->trailer = r.trailer;
	ret = 0;
out:
	sf_reader_close(&r);
	return ret;
}

/* Contract in sfprof.h. */
void sfprof_free(struct sfprof *p)
{
	attr_prof_free(&p->prof);
	elf_image_free(&p->img);
	if (p->map_ok)
		code_map_free(&p->map);
	p->map_ok = 0;
}
