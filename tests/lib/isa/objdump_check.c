/* SPDX-License-Identifier: Apache-2.0 */
/* Compares the decoder and disassembler with GNU objdump on a whole
 * binary: reads `objdump -d -z` output on stdin and checks, for every
 * instruction line, the decoded length and the disassembly text (symbol
 * annotations "<sym>" and "# comments" stripped from objdump's side).
 * Lines objdump cannot decode (.insn/.2byte/.4byte/unimp16) must be
 * illegal for the decoder too, and so must FP instructions objdump shows
 * with an "unknown" (reserved) rounding mode, which the ISA makes illegal.
 * Two spec-versus-2.40 differences are counted as known divergences, not
 * mismatches: c.addi16sp with a zero immediate (reserved by the ISA,
 * printed by objdump) and fcvt.d.{w,wu,s} with a non-zero rounding mode
 * (valid in the ISA, not decoded by objdump 2.40).
 * tiprof's Xtpsd instructions (custom-0/1, docs/seldisp.md) are .4byte to
 * objdump: for them the decoder's length and bits must equal objdump's word
 * (counted as "Xtpsd agreed").
 * Usage: isa-objdump-check [-x] LABEL < listing
 *   -x  the listing has no symbols: objdump prints targets as 0x<hex> */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rv_isa.h"

#define MAX_REPORT 20

/* Counters and the label for one run. */
struct check {
	const char *label;
	int bare_targets;     /* -x: strip 0x from objdump's target operands */
	unsigned long compared;
	unsigned long illegal;
	unsigned long data;
	unsigned long divergences;
	unsigned long mismatches;
	unsigned long xtpsd;
};

static void report(struct check *c, uint64_t addr, const char *hex,
		   const char *expect, const char *got)
{
	if (c->mismatches++ < MAX_REPORT)
		printf("isa: %s: mismatch at %" PRIx64 " [%s]: objdump '%s' decoder '%s'\n",
		       c->label, addr, hex, expect, got);
}

/* Strip " <sym>" and " # comment" annotations in place. */
static void strip_annotations(char *s)
{
	char *p = strstr(s, " #");

	if (p)
		*p = '\0';
	p = strstr(s, " <");
	if (p)
		*p = '\0';
	p = s + strlen(s);
	while (p > s && isspace((unsigned char)p[-1]))
		*--p = '\0';
}

/* Process one listing line; ignores headers, labels and blank lines. */
static void check_line(struct check *c, char *line)
{
	char *f[4] = { 0 }, *p = line, *hex, *end;
	char expect[256], got[256];
	uint8_t bytes[8];
	struct rv_insn in;
	uint64_t addr, word;
	size_t nbytes, k;
	int nf = 0, r;

	line[strcspn(line, "\n")] = '\0';
	while (nf < 4) {
		f[nf++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (nf < 3 || !strchr(f[0], ':'))
		return;
	addr = strtoull(f[0], &end, 16);
	if (*end != ':')
		return;
	/* Hex field: one little-endian number per 16/32-bit parcel; encodings
	 * longer than 32 bits span several. */
	hex = f[1];
	while (*hex == ' ')
		hex++;
	nbytes = 0;
	for (p = hex; *p && *p != ' ' && nbytes < sizeof(bytes);) {
		size_t tl = strcspn(p, " "), b = tl / 2;

		word = strtoull(p, NULL, 16);
		for (k = 0; k < b && nbytes < sizeof(bytes); k++)
			bytes[nbytes++] = (uint8_t)(word >> (8 * k));
		p += tl;
		while (*p == ' ' && p[1] != ' ' && p[1])
			p++;
	}
	hex[strcspn(hex, " ")] = '\0';
	if (nbytes > 4) {
		/* A longer-than-32-bit encoding: not RV64GC. */
		c->illegal++;
		if (rv_decode(bytes, nbytes, addr, &in) != RV_ERR_ILLEGAL || in.len != 0)
			report(c, addr, hex, "<longer than 32 bits>", "<decoded>");
		return;
	}
	if (nbytes != 2 && nbytes != 4)
		return;
	snprintf(expect, sizeof(expect), "%s%s%s", f[2], f[3] ? "\t" : "", f[3] ? f[3] : "");
	strip_annotations(expect);
	if (c->bare_targets && (f[2][0] == 'j' || f[2][0] == 'b')) {
		char *z = strstr(expect, "0x");
		if (z && (z == expect || z[-1] == ',' || z[-1] == '\t'))
			memmove(z, z + 2, strlen(z + 2) + 1);
	}

	if (f[2][0] == '.' && (!strncmp(f[2], ".word", 5) || !strncmp(f[2], ".short", 6) ||
			       !strncmp(f[2], ".byte", 5))) {
		c->data++; /* data in a code section (mapping symbol $d) */
		return;
	}
	r = rv_decode(bytes, nbytes, addr, &in);
	if (f[2][0] == '.' && r == 4 && (in.flags & (RV_F_PROFILE | RV_F_PFWRITE))) {
		/* Xtpsd: objdump prints the word; the decoder must have read the same bits */
		c->xtpsd++;
		if (nbytes != 4 || !f[3] || strtoull(f[3], NULL, 16) != in.raw) {
			rv_disasm(&in, addr, got, sizeof(got));
			report(c, addr, hex, expect, got);
		}
		return;
	}
	if (f[2][0] == '.' || (!strcmp(f[2], "unimp") && nbytes == 2) ||
	    (f[2][0] == 'f' && strstr(expect, ",unknown"))) {
		c->illegal++;
		if (r > 0 && in.rm != 0 && (in.op == RV_OP_FCVT_D_W ||
		    in.op == RV_OP_FCVT_D_WU || in.op == RV_OP_FCVT_D_S)) {
			c->divergences++;
			return;
		}
		if (r != RV_ERR_ILLEGAL) {
			rv_disasm(&in, addr, got, sizeof(got));
			report(c, addr, hex, expect, got);
		}
		return;
	}
	c->compared++;
	if (r == RV_ERR_ILLEGAL && nbytes == 2 && word == 0x6101) {
		c->divergences++;
		return;
	}
	if (r != (int)nbytes) {
		snprintf(got, sizeof(got), "<decode returned %d>", r);
		report(c, addr, hex, expect, got);
		return;
	}
	if (nbytes == 4 && rv_decode(bytes, 3, addr, &in) != RV_ERR_NEED_MORE) {
		report(c, addr, hex, expect, "<no need-more status for 3 bytes>");
		return;
	}
	rv_decode(bytes, nbytes, addr, &in);
	rv_disasm(&in, addr, got, sizeof(got));
	if (strcmp(got, expect) != 0)
		report(c, addr, hex, expect, got);
}

int main(int argc, char **argv)
{
	struct check c = { "stdin", 0, 0, 0, 0, 0, 0, 0 };
	char line[1024];
	int a = 1;

	if (a < argc && !strcmp(argv[a], "-x")) {
		c.bare_targets = 1;
		a++;
	}
	if (a < argc)
		c.label = argv[a];

	while (fgets(line, sizeof(line), stdin))
		check_line(&c, line);
	printf("isa: %s: %lu instructions compared, %lu undecodable agreed, %lu data words, "
	       "%lu known divergences, %lu Xtpsd agreed, %lu mismatches\n",
	       c.label, c.compared, c.illegal, c.data, c.divergences, c.xtpsd, c.mismatches);
	if (c.compared == 0) {
		printf("isa: %s: no instructions found in the listing\n", c.label);
		return 1;
	}
	return c.mismatches ? 1 : 0;
}
