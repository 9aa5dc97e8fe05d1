/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test of the decoder's classification fields on known encodings
 * (control-transfer kinds and targets, memory sizes, unique/serializing
 * instructions, functional units, compressed expansion, status codes). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rv_isa.h"

/* Expected properties of one encoding; -1 / 0xff mean "don't check". */
struct expect {
	uint32_t word;
	const char *text;     /* objdump text */
	enum rv_op op;
	enum rv_cf cf;
	enum rv_fu fu;
	uint32_t flags_set;   /* RV_F_* bits that must be set */
	uint32_t flags_clear; /* RV_F_* bits that must be clear */
	int mem_size;
	int64_t target_off;   /* target - pc when RV_F_TARGET is expected */
};

#define PC 0x10000ull
#define SER RV_F_SERIAL

static const struct expect cases[] = {
	/* ret, c.jr, c.jalr, c.j, jal call, jal j, jalr call, beq */
	{ 0x00008067, "ret", RV_OP_JALR, RV_CF_RETURN, RV_FU_JUMP, 0, SER | RV_F_TARGET, 0, 0 },
	{ 0x8082, "ret", RV_OP_JALR, RV_CF_RETURN, RV_FU_JUMP, RV_F_COMPRESSED, SER, 0, 0 },
	{ 0x8782, "jr\ta5", RV_OP_JALR, RV_CF_JALR, RV_FU_JUMP, RV_F_COMPRESSED | RV_F_RS1_X, RV_F_TARGET, 0, 0 },
	{ 0x9782, "jalr\ta5", RV_OP_JALR, RV_CF_CALL_IND, RV_FU_JUMP, RV_F_COMPRESSED, RV_F_TARGET, 0, 0 },
	{ 0xa001, "j\t10000", RV_OP_JAL, RV_CF_JAL, RV_FU_JUMP, RV_F_COMPRESSED | RV_F_TARGET, 0, 0, 0 },
	{ 0x008000ef, "jal\t10008", RV_OP_JAL, RV_CF_CALL, RV_FU_JUMP, RV_F_TARGET, RV_F_COMPRESSED, 0, 8 },
	{ 0xff9ff06f, "j\tfff8", RV_OP_JAL, RV_CF_JAL, RV_FU_JUMP, RV_F_TARGET, 0, 0, -8 },
	{ 0x000780e7, "jalr\ta5", RV_OP_JALR, RV_CF_CALL_IND, RV_FU_JUMP, 0, RV_F_TARGET, 0, 0 },
	{ 0x00b50463, "beq\ta0,a1,10008", RV_OP_BEQ, RV_CF_BRANCH, RV_FU_BRANCH, RV_F_TARGET | RV_F_RS1_X | RV_F_RS2_X, 0, 0, 8 },
	{ 0xfe050ee3, "beqz\ta0,fffc", RV_OP_BEQ, RV_CF_BRANCH, RV_FU_BRANCH, RV_F_TARGET, 0, 0, -4 },
	{ 0xc111, "beqz\ta0,10004", RV_OP_BEQ, RV_CF_BRANCH, RV_FU_BRANCH, RV_F_TARGET | RV_F_COMPRESSED, 0, 0, 4 },
	/* CSR accesses are unique, including FP CSR reads */
	{ 0x001027f3, "frflags\ta5", RV_OP_CSRRS, RV_CF_NONE, RV_FU_CSR, RV_F_CSR | SER, RV_F_FP, 0, 0 },
	{ 0x00202573, "frrm\ta0", RV_OP_CSRRS, RV_CF_NONE, RV_FU_CSR, RV_F_CSR | SER, 0, 0, 0 },
	{ 0xc0102573, "rdtime\ta0", RV_OP_CSRRS, RV_CF_NONE, RV_FU_CSR, RV_F_CSR | SER, 0, 0, 0 },
	/* AMOs, LR/SC */
	{ 0x00b5202f, "amoadd.w\tzero,a1,(a0)", RV_OP_AMOADD_W, RV_CF_NONE, RV_FU_AMO, RV_F_AMO | RV_F_LOAD | RV_F_STORE | SER, 0, 4, 0 },
	{ 0x0eb5302f, "amoswap.d.aqrl\tzero,a1,(a0)", RV_OP_AMOSWAP_D, RV_CF_NONE, RV_FU_AMO, RV_F_AMO | RV_F_AQ | RV_F_RL | SER, 0, 8, 0 },
	{ 0x100427af, "lr.w\ta5,(s0)", RV_OP_LR_W, RV_CF_NONE, RV_FU_AMO, RV_F_AMO | RV_F_LOAD | SER, RV_F_STORE, 4, 0 },
	{ 0x1ce426af, "sc.w.aq\ta3,a4,(s0)", RV_OP_SC_W, RV_CF_NONE, RV_FU_AMO, RV_F_AMO | RV_F_STORE | SER, RV_F_LOAD, 4, 0 },
	/* fences and system */
	{ 0x0ff0000f, "fence", RV_OP_FENCE, RV_CF_NONE, RV_FU_SYSTEM, RV_F_FENCE | SER, 0, 0, 0 },
	{ 0x0000100f, "fence.i", RV_OP_FENCE_I, RV_CF_NONE, RV_FU_SYSTEM, RV_F_FENCE | SER, 0, 0, 0 },
	{ 0x8330000f, "fence.tso", RV_OP_FENCE, RV_CF_NONE, RV_FU_SYSTEM, RV_F_FENCE | SER, 0, 0, 0 },
	{ 0x12000073, "sfence.vma", RV_OP_SFENCE_VMA, RV_CF_NONE, RV_FU_SYSTEM, RV_F_FENCE | SER, 0, 0, 0 },
	{ 0x00000073, "ecall", RV_OP_ECALL, RV_CF_NONE, RV_FU_SYSTEM, SER, 0, 0, 0 },
	{ 0x9002, "ebreak", RV_OP_EBREAK, RV_CF_NONE, RV_FU_SYSTEM, SER | RV_F_COMPRESSED, 0, 0, 0 },
	{ 0x30200073, "mret", RV_OP_MRET, RV_CF_NONE, RV_FU_SYSTEM, SER, 0, 0, 0 },
	{ 0x10500073, "wfi", RV_OP_WFI, RV_CF_NONE, RV_FU_SYSTEM, SER, 0, 0, 0 },
	/* loads/stores and their sizes, compressed forms */
	{ 0x641c, "ld\ta5,8(s0)", RV_OP_LD, RV_CF_NONE, RV_FU_LOAD, RV_F_LOAD | RV_F_COMPRESSED | RV_F_RD_X, SER, 8, 0 },
	{ 0xfd06, "sd\tra,184(sp)", RV_OP_SD, RV_CF_NONE, RV_FU_STORE, RV_F_STORE | RV_F_COMPRESSED, SER, 8, 0 },
	{ 0x00054503, "lbu\ta0,0(a0)", RV_OP_LBU, RV_CF_NONE, RV_FU_LOAD, RV_F_LOAD, 0, 1, 0 },
	{ 0x00a11123, "sh\ta0,2(sp)", RV_OP_SH, RV_CF_NONE, RV_FU_STORE, RV_F_STORE, 0, 2, 0 },
	{ 0x2008, "fld\tfa0,0(s0)", RV_OP_FLD, RV_CF_NONE, RV_FU_LOAD, RV_F_LOAD | RV_F_FP | RV_F_RD_F | RV_F_RS1_X, 0, 8, 0 },
	/* arithmetic units */
	{ 0x02b50533, "mul\ta0,a0,a1", RV_OP_MUL, RV_CF_NONE, RV_FU_MUL, 0, SER, 0, 0 },
	{ 0x02b5453b, "divw\ta0,a0,a1", RV_OP_DIVW, RV_CF_NONE, RV_FU_DIV, 0, 0, 0, 0 },
	{ 0x02b57553, "fadd.d\tfa0,fa0,fa1", RV_OP_FADD_D, RV_CF_NONE, RV_FU_FADD, RV_F_FP | RV_F_HAS_RM, SER, 0, 0 },
	{ 0x12b57553, "fmul.d\tfa0,fa0,fa1", RV_OP_FMUL_D, RV_CF_NONE, RV_FU_FMUL, RV_F_FP, 0, 0, 0 },
	{ 0x1ab57553, "fdiv.d\tfa0,fa0,fa1", RV_OP_FDIV_D, RV_CF_NONE, RV_FU_FDIV, RV_F_FP, 0, 0, 0 },
	{ 0x5a057553, "fsqrt.d\tfa0,fa0", RV_OP_FSQRT_D, RV_CF_NONE, RV_FU_FDIV, RV_F_FP, 0, 0, 0 },
	{ 0x62b57543, "fmadd.d\tfa0,fa0,fa1,fa2", RV_OP_FMADD_D, RV_CF_NONE, RV_FU_FMA, RV_F_FP | RV_F_RS3_F, 0, 0, 0 },
	{ 0xc2051553, "fcvt.w.d\ta0,fa0,rtz", RV_OP_FCVT_W_D, RV_CF_NONE, RV_FU_FCVT, RV_F_FP | RV_F_RD_X | RV_F_RS1_F, 0, 0, 0 },
	{ 0x22a50553, "fmv.d\tfa0,fa0", RV_OP_FSGNJ_D, RV_CF_NONE, RV_FU_FMISC, RV_F_FP, 0, 0, 0 },
	{ 0x84a2, "mv\ts1,s0", RV_OP_ADD, RV_CF_NONE, RV_FU_ALU, RV_F_COMPRESSED, 0, 0, 0 },
	{ 0x7131, "add\tsp,sp,-192", RV_OP_ADDI, RV_CF_NONE, RV_FU_ALU, RV_F_COMPRESSED, 0, 0, 0 },
	{ 0x2781, "sext.w\ta5,a5", RV_OP_ADDIW, RV_CF_NONE, RV_FU_ALU, RV_F_COMPRESSED, 0, 0, 0 },
	{ 0x0001, "nop", RV_OP_ADDI, RV_CF_NONE, RV_FU_ALU, RV_F_COMPRESSED, 0, 0, 0 },
	{ 0x00000013, "nop", RV_OP_ADDI, RV_CF_NONE, RV_FU_ALU, 0, RV_F_COMPRESSED, 0, 0 },
};

static int check_case(const struct expect *e)
{
	struct rv_insn in;
	uint8_t buf[4] = { (uint8_t)e->word, (uint8_t)(e->word >> 8),
			   (uint8_t)(e->word >> 16), (uint8_t)(e->word >> 24) };
	size_t len = (e->word & 3) == 3 ? 4 : 2;
	char text[128];
	int r = rv_decode(buf, len, PC, &in), bad = 0;

	if (r != (int)len) {
		printf("  %08" PRIx32 ": decode returned %d\n", e->word, r);
		return 1;
	}
	rv_disasm(&in, PC, text, sizeof(text));
#define CHECK(cond, ...) do { if (!(cond)) { printf("  %08" PRIx32 " (%s): ", e->word, e->text); \
	printf(__VA_ARGS__); printf("\n"); bad = 1; } } while (0)
	CHECK(strcmp(text, e->text) == 0, "text '%s'", text);
	CHECK(in.op == e->op, "op %s", rv_op_name(in.op));
	CHECK(in.cf == e->cf, "cf %d", (int)in.cf);
	CHECK(in.fu == e->fu, "fu %d", (int)in.fu);
	CHECK((in.flags & e->flags_set) == e->flags_set, "flags %#x lack %#x", in.flags, e->flags_set);
	CHECK((in.flags & e->flags_clear) == 0, "flags %#x have %#x", in.flags, e->flags_clear);
	CHECK(in.mem_size == e->mem_size, "mem_size %d", in.mem_size);
	CHECK(in.len == len, "len %d", in.len);
	if (in.flags & RV_F_TARGET)
		CHECK(in.target == PC + (uint64_t)e->target_off, "target %" PRIx64, in.target);
	return bad;
}

int main(void)
{
	static const uint32_t illegal[] = { 0x00000000, 0xffffffff, 0x0000, 0x00007003,
		0x06000053 /* fadd.q */, 0x02b55553 /* fadd.d rm=5 */, 0x0004 /* c.addi4spn imm=0 */,
		0x6101 /* c.addi16sp imm=0 */, 0x4002 /* c.lwsp rd=0 */, 0x8002 /* c.jr x0 */,
		0x9c41 /* c.addw reserved */, 0x2001 /* c.addiw rd=0 */ };
	struct rv_insn in;
	uint8_t b[4] = { 0x97, 0x05, 0, 0 };
	size_t i;
	int fails = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fails += check_case(&cases[i]);
	for (i = 0; i < sizeof(illegal) / sizeof(illegal[0]); i++) {
		uint32_t w = illegal[i];
		if (rv_decode_word(w, PC, &in) != RV_ERR_ILLEGAL || in.op != RV_OP_ILLEGAL) {
			printf("  %08" PRIx32 ": not illegal (%s)\n", w, rv_op_name(in.op));
			fails++;
		}
	}
	if (rv_decode(b, 1, PC, &in) != RV_ERR_NEED_MORE || rv_decode(b, 3, PC, &in) != RV_ERR_NEED_MORE ||
	    rv_decode(b, 0, PC, &in) != RV_ERR_NEED_MORE) {
		printf("  need-more status wrong\n");
		fails++;
	}
	if (rv_decode(b, 4, PC, &in) != 4 || in.op != RV_OP_AUIPC || in.rd != 11) {
		printf("  auipc decode wrong\n");
		fails++;
	}
	printf("isa-classify: %zu cases, %d failed\n", sizeof(cases) / sizeof(cases[0]) + sizeof(illegal) / sizeof(illegal[0]) + 2, fails);
	return fails ? 1 : 0;
}
