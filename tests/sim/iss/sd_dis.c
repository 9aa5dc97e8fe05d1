/* SPDX-License-Identifier: Apache-2.0 */
/* Decoder and disassembler on given words: reads "ADDR WORD" lines (hex) and prints
 * "ADDR LEN TEXT" (or "ADDR illegal") per line, for tests/sim/iss/sd_objdump.py. */
#include <inttypes.h>
#include <stdio.h>

#include "rv_isa.h"

int main(void)
{
	uint64_t addr, word;
	char text[128];
	struct rv_insn in;

	while (scanf("%" SCNx64 " %" SCNx64, &addr, &word) == 2) {
		if (rv_decode_word((uint32_t)word, addr, &in) < 0) {
			printf("%" PRIx64 " illegal\n", addr);
			continue;
		}
		rv_disasm(&in, addr, text, sizeof(text));
		printf("%" PRIx64 " %u %s\n", addr, in.len, text);
	}
	return 0;
}
