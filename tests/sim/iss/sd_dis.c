/* SPDX-License-Identifier: Apache-2.0 */
/* Decoder and disassembler on given words: reads "ADDR WORD" lines (hex) and prints
 * "ADDR LEN TEXT" (or "ADDR illegal") per line, for tests/sim/iss/sd_objdump.py.
 * With --classify: checks the classification lib/isa gives each Xtpsd operation (what a
 * timing model reads: functional unit, flags, control-transfer kind, size, flag index). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rv_isa.h"

struct want {
	uint32_t word;
	enum rv_op op;
	enum rv_fu fu;
	enum rv_cf cf;
	uint32_t flags;	/* all of these set ... */
	uint32_t none;	/* ... none of these */
	unsigned mem_size, pf, rs1;
	int64_t imm;
};

static int classify(void)
{
	const uint32_t mem = RV_F_LOAD | RV_F_STORE, excl = RV_F_SERIAL | RV_F_AMO | RV_F_CSR |
		RV_F_FENCE | RV_F_RD_X | RV_F_RD_F | RV_F_COMPRESSED;
	static const struct want w[] = {
		{ 0x0010000bu, RV_OP_SETPF, RV_FU_ALU, RV_CF_NONE, RV_F_PFWRITE, 0, 0, 0, 0, 1 },
		{ 0x02f0000bu, RV_OP_RESETPF, RV_FU_ALU, RV_CF_NONE, RV_F_PFWRITE, 0, 0, 0, 0, 15 },
		{ 0x0400000bu, RV_OP_PUSHPF, RV_FU_ALU, RV_CF_NONE, RV_F_PFWRITE, 0, 0, 0, 0, 0 },
		{ 0x0600000bu, RV_OP_POPPF, RV_FU_ALU, RV_CF_NONE, RV_F_PFWRITE, 0, 0, 0, 0, 0 },
		{ 0x00019b0bu, RV_OP_PF_BLK, RV_FU_BRANCH, RV_CF_BRANCH, RV_F_PROFILE | RV_F_TARGET,
		  RV_F_RS1_X | RV_F_RS2_X, 0, 3, 0, 0x16 },
		{ 0x0089208bu, RV_OP_PF_INCR, RV_FU_AMO, RV_CF_NONE, RV_F_PROFILE | RV_F_RS1_X,
		  RV_F_TARGET, 8, 1, 18, 8 },
		{ 0x0960102bu, RV_OP_PF_INC, RV_FU_AMO, RV_CF_NONE, RV_F_PROFILE, RV_F_TARGET |
		  RV_F_RS1_X, 8, 0, 0, 0x1096 },
		{ 0xffdff0abu, RV_OP_PF_INC, RV_FU_AMO, RV_CF_NONE, RV_F_PROFILE, RV_F_TARGET |
		  RV_F_RS1_X, 8, 1, 0, -4 },
	};
	unsigned bad = 0;

	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		struct rv_insn in;
		const struct want *e = &w[k];
		int counter = e->op == RV_OP_PF_INC || e->op == RV_OP_PF_INCR;
		int writer = e->op == RV_OP_SETPF || e->op == RV_OP_RESETPF ||
			     e->op == RV_OP_PUSHPF || e->op == RV_OP_POPPF;
		uint32_t extra = counter ? mem : 0;	/* a read-modify-write of 8 bytes */
		uint32_t forbid = e->none | excl | (counter ? 0 : mem) |
				  (writer ? RV_F_PROFILE : RV_F_PFWRITE);

		if (rv_decode_word(e->word, 0x10000, &in) != 4 || in.op != e->op || in.fu != e->fu ||
		    in.cf != e->cf || (in.flags & (e->flags | extra)) != (e->flags | extra) ||
		    (in.flags & forbid) || in.mem_size != e->mem_size || in.pf != e->pf ||
		    in.rs1 != e->rs1 || in.imm != e->imm ||
		    (e->op == RV_OP_PF_BLK && in.target != 0x10000 + 0x16)) {
			printf("sd-classify: %08" PRIx32 " (%s): op %s fu %d cf %d flags %#x size %u "
			       "pf %u rs1 %u imm %" PRId64 "\n", e->word, rv_op_name(e->op),
			       rv_op_name(in.op), in.fu, in.cf, in.flags, in.mem_size, in.pf, in.rs1,
			       in.imm);
			bad++;
		}
	}
	printf("sd-classify: %zu Xtpsd operations, %u wrong\n", sizeof(w) / sizeof(w[0]), bad);
	return bad != 0;
}

int main(int argc, char **argv)
{
	uint64_t addr, word;
	char text[128];
	struct rv_insn in;

	if (argc > 1 && !strcmp(argv[1], "--classify"))
		return classify();
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
