/* SPDX-License-Identifier: Apache-2.0 */
/* Robustness check of the decoder without an oracle: a million random
 * 32-bit words and every 16-bit word must decode to a valid status, and
 * every accepted word must have consistent fields and disassemble. Also
 * checks that illegal encodings return RV_ERR_ILLEGAL with op ILLEGAL.
 * With --emit FILE N it instead writes N random 32-bit words followed by
 * every 16-bit encoding to FILE, for a comparison with objdump. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rv_isa.h"

/* splitmix64 generator state. */
struct rng { uint64_t s; };

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Counters of one fuzz run. */
struct stats { unsigned long legal, illegal, bad; };

static void check(uint32_t w, struct stats *st)
{
	uint8_t buf[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
	struct rv_insn in;
	char text[128];
	int len = rv_insn_length((uint16_t)w);
	int r = rv_decode(buf, 4, 0x80000000ull, &in);

	if (r == RV_ERR_ILLEGAL) {
		st->illegal++;
		if (in.op != RV_OP_ILLEGAL || rv_disasm(&in, 0, text, sizeof(text)) != -1)
			goto bad;
		return;
	}
	st->legal++;
	if (r != len || in.len != len || in.op <= RV_OP_ILLEGAL || in.op >= RV_OP_COUNT ||
	    in.fu == RV_FU_NONE || in.rd > 31 || in.rs1 > 31 || in.rs2 > 31 || in.rs3 > 31)
		goto bad;
	if (rv_disasm(&in, 0x80000000ull, text, sizeof(text)) <= 0 || strlen(text) == 0)
		goto bad;
	if ((in.flags & RV_F_HAS_RM) && (in.rm == 5 || in.rm == 6))
		goto bad;
	if ((in.cf == RV_CF_BRANCH || in.cf == RV_CF_CALL || in.cf == RV_CF_JAL) != !!(in.flags & RV_F_TARGET))
		goto bad;
	if (rv_decode(buf, (size_t)len - 1, 0, &in) != RV_ERR_NEED_MORE)
		goto bad;
	return;
bad:
	if (st->bad++ < 20)
		printf("isa-fuzz: inconsistent decode of %08" PRIx32 " (status %d, op %s)\n", w, r,
		       rv_op_name(in.op));
}

/* Write the --emit blob; returns 0 or 1 on I/O error. */
static int emit(const char *path, unsigned long n)
{
	struct rng r = { 777 };
	FILE *f = fopen(path, "wb");
	unsigned long i;

	if (!f) {
		perror(path);
		return 1;
	}
	for (i = 0; i < n; i++) {
		uint32_t w = (uint32_t)rng_next(&r) | 3;
		uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
		fwrite(b, 1, 4, f);
	}
	for (i = 0; i < 65536; i++) {
		uint8_t b[2] = { (uint8_t)i, (uint8_t)(i >> 8) };
		if ((i & 3) != 3)
			fwrite(b, 1, 2, f);
	}
	return fclose(f) != 0;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	struct rng r = { 12345 };

	if (argc > 3 && !strcmp(argv[1], "--emit"))
		return emit(argv[2], strtoul(argv[3], NULL, 0));
	struct stats s32 = { 0, 0, 0 }, s16 = { 0, 0, 0 };
	unsigned long i;

	for (i = 0; i < n; i++) {
		uint32_t w = (uint32_t)rng_next(&r) | 3; /* 32-bit space */
		check(w, &s32);
	}
	for (i = 0; i < 65536; i++) {
		if ((i & 3) == 3)
			continue;
		check((uint32_t)i | (uint32_t)(rng_next(&r) << 16), &s16);
	}
	for (i = 0; i < n / 4; i++) /* random words with random low bits */
		check((uint32_t)rng_next(&r), &s16);
	printf("isa-fuzz: 32-bit: %lu legal %lu illegal; 16-bit/mixed: %lu legal %lu illegal; %lu inconsistent\n",
	       s32.legal, s32.illegal, s16.legal, s16.illegal, s32.bad + s16.bad);
	return (s32.bad + s16.bad) ? 1 : 0;
}
