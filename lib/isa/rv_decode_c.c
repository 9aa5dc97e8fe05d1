/* SPDX-License-Identifier: Apache-2.0 */
/* RV64C: expansion of 16-bit instructions to their 32-bit operations
 * (register numbers and immediates of the expanded form). HINT encodings
 * (rd = x0 forms, zero shifts, c.nop with an immediate) decode as the
 * harmless operation they expand to; reserved encodings are illegal. */
#include "rv_isa_int.h"

/* Bits [hi:lo] of h. */
static unsigned bits(uint16_t h, unsigned hi, unsigned lo)
{
	return (h >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* Sign-extend the low n bits of v. */
static int64_t sext(uint32_t v, unsigned n)
{
	uint64_t m = 1ull << (n - 1);
	return (int64_t)(((uint64_t)v ^ m) - m);
}

/* Register number of a 3-bit compressed register field (x8..x15). */
static uint8_t creg(unsigned f) { return (uint8_t)(8 + f); }

/* CI-format 6-bit signed immediate: imm[5] = bit 12, imm[4:0] = 6:2. */
static int64_t ci_imm(uint16_t h)
{
	return sext(bits(h, 12, 12) << 5 | bits(h, 6, 2), 6);
}

static enum rv_op quadrant0(uint16_t h, struct rv_insn *o)
{
	unsigned f3 = bits(h, 15, 13);
	/* CL/CS offsets: word = uimm[5:3]=12:10, [2]=6, [6]=5;
	 * double = uimm[5:3]=12:10, [7:6]=6:5. */
	uint32_t offw = bits(h, 12, 10) << 3 | bits(h, 6, 6) << 2 | bits(h, 5, 5) << 6;
	uint32_t offd = bits(h, 12, 10) << 3 | bits(h, 6, 5) << 6;

	o->rs1 = creg(bits(h, 9, 7));
	switch (f3) {
	case 0: { /* c.addi4spn: nzuimm[5:4|9:6|2|3] */
		uint32_t imm = bits(h, 12, 11) << 4 | bits(h, 10, 7) << 6 |
			       bits(h, 6, 6) << 2 | bits(h, 5, 5) << 3;
		if (imm == 0)
			return RV_OP_ILLEGAL;
		o->rd = creg(bits(h, 4, 2));
		o->rs1 = 2;
		o->imm = imm;
		return RV_OP_ADDI;
	}
	case 1: o->rd = creg(bits(h, 4, 2)); o->imm = offd; return RV_OP_FLD;
	case 2: o->rd = creg(bits(h, 4, 2)); o->imm = offw; return RV_OP_LW;
	case 3: o->rd = creg(bits(h, 4, 2)); o->imm = offd; return RV_OP_LD;
	case 5: o->rs2 = creg(bits(h, 4, 2)); o->imm = offd; return RV_OP_FSD;
	case 6: o->rs2 = creg(bits(h, 4, 2)); o->imm = offw; return RV_OP_SW;
	case 7: o->rs2 = creg(bits(h, 4, 2)); o->imm = offd; return RV_OP_SD;
	}
	return RV_OP_ILLEGAL;
}

static enum rv_op quadrant1(uint16_t h, struct rv_insn *o)
{
	unsigned f3 = bits(h, 15, 13), rd = bits(h, 11, 7);

	switch (f3) {
	case 0: /* c.addi (c.nop when rd = 0) */
		o->rd = o->rs1 = (uint8_t)rd;
		o->imm = ci_imm(h);
		return RV_OP_ADDI;
	case 1: /* c.addiw (RV64) */
		if (rd == 0)
			return RV_OP_ILLEGAL;
		o->rd = o->rs1 = (uint8_t)rd;
		o->imm = ci_imm(h);
		return RV_OP_ADDIW;
	case 2: /* c.li */
		o->rd = (uint8_t)rd;
		o->imm = ci_imm(h);
		return RV_OP_ADDI;
	case 3:
		if (rd == 2) { /* c.addi16sp: nzimm[9|4|6|8:7|5] */
			uint32_t v = bits(h, 12, 12) << 9 | bits(h, 6, 6) << 4 |
				     bits(h, 5, 5) << 6 | bits(h, 4, 3) << 7 |
				     bits(h, 2, 2) << 5;
			if (v == 0)
				return RV_OP_ILLEGAL;
			o->rd = o->rs1 = 2;
			o->imm = sext(v, 10);
			return RV_OP_ADDI;
		} else { /* c.lui: nzimm[17|16:12] */
			uint32_t v = bits(h, 12, 12) << 17 | bits(h, 6, 2) << 12;
			if (v == 0)
				return RV_OP_ILLEGAL;
			o->rd = (uint8_t)rd;
			o->imm = sext(v, 18);
			return RV_OP_LUI;
		}
	case 4: {
		unsigned f2 = bits(h, 11, 10);
		uint8_t r = creg(bits(h, 9, 7));

		o->rd = o->rs1 = r;
		if (f2 == 0 || f2 == 1) { /* c.srli, c.srai */
			o->imm = bits(h, 12, 12) << 5 | bits(h, 6, 2);
			return f2 == 0 ? RV_OP_SRLI : RV_OP_SRAI;
		}
		if (f2 == 2) {
			o->imm = ci_imm(h);
			return RV_OP_ANDI;
		}
		o->rs2 = creg(bits(h, 4, 2));
		switch (bits(h, 12, 12) << 2 | bits(h, 6, 5)) {
		case 0: return RV_OP_SUB;
		case 1: return RV_OP_XOR;
		case 2: return RV_OP_OR;
		case 3: return RV_OP_AND;
		case 4: return RV_OP_SUBW;
		case 5: return RV_OP_ADDW;
		}
		return RV_OP_ILLEGAL;
	}
	case 5: { /* c.j: offset[11|4|9:8|10|6|7|3:1|5] */
		uint32_t v = bits(h, 12, 12) << 11 | bits(h, 11, 11) << 4 |
			     bits(h, 10, 9) << 8 | bits(h, 8, 8) << 10 |
			     bits(h, 7, 7) << 6 | bits(h, 6, 6) << 7 |
			     bits(h, 5, 3) << 1 | bits(h, 2, 2) << 5;
		o->rd = 0;
		o->imm = sext(v, 12);
		return RV_OP_JAL;
	}
	default: { /* c.beqz, c.bnez: offset[8|4:3] [7:6|2:1|5] */
		uint32_t v = bits(h, 12, 12) << 8 | bits(h, 11, 10) << 3 |
			     bits(h, 6, 5) << 6 | bits(h, 4, 3) << 1 |
			     bits(h, 2, 2) << 5;
		o->rs1 = creg(bits(h, 9, 7));
		o->rs2 = 0;
		o->imm = sext(v, 9);
		return f3 == 6 ? RV_OP_BEQ : RV_OP_BNE;
	}
	}
}

static enum rv_op quadrant2(uint16_t h, struct rv_insn *o)
{
	unsigned f3 = bits(h, 15, 13), rd = bits(h, 11, 7), rs2 = bits(h, 6, 2);
	/* CI stack loads: word uimm[5]=12,[4:2]=6:4,[7:6]=3:2;
	 * double uimm[5]=12,[4:3]=6:5,[8:6]=4:2. CSS stores: word
	 * uimm[5:2]=12:9,[7:6]=8:7; double uimm[5:3]=12:10,[8:6]=9:7. */
	uint32_t lw = bits(h, 12, 12) << 5 | bits(h, 6, 4) << 2 | bits(h, 3, 2) << 6;
	uint32_t ld = bits(h, 12, 12) << 5 | bits(h, 6, 5) << 3 | bits(h, 4, 2) << 6;
	uint32_t sw = bits(h, 12, 9) << 2 | bits(h, 8, 7) << 6;
	uint32_t sd = bits(h, 12, 10) << 3 | bits(h, 9, 7) << 6;

	switch (f3) {
	case 0: /* c.slli */
		o->rd = o->rs1 = (uint8_t)rd;
		o->imm = bits(h, 12, 12) << 5 | rs2;
		return RV_OP_SLLI;
	case 1: o->rd = (uint8_t)rd; o->rs1 = 2; o->imm = ld; return RV_OP_FLD;
	case 2:
		if (rd == 0)
			return RV_OP_ILLEGAL;
		o->rd = (uint8_t)rd; o->rs1 = 2; o->imm = lw;
		return RV_OP_LW;
	case 3:
		if (rd == 0)
			return RV_OP_ILLEGAL;
		o->rd = (uint8_t)rd; o->rs1 = 2; o->imm = ld;
		return RV_OP_LD;
	case 4:
		if (bits(h, 12, 12) == 0) {
			if (rs2 == 0) { /* c.jr */
				if (rd == 0)
					return RV_OP_ILLEGAL;
				o->rd = 0; o->rs1 = (uint8_t)rd; o->imm = 0;
				return RV_OP_JALR;
			}
			/* c.mv: add rd, x0, rs2 */
			o->rd = (uint8_t)rd; o->rs1 = 0; o->rs2 = (uint8_t)rs2;
			return RV_OP_ADD;
		}
		if (rs2 == 0) {
			if (rd == 0)
				return RV_OP_EBREAK;
			o->rd = 1; o->rs1 = (uint8_t)rd; o->imm = 0; /* c.jalr */
			return RV_OP_JALR;
		}
		o->rd = o->rs1 = (uint8_t)rd; o->rs2 = (uint8_t)rs2; /* c.add */
		return RV_OP_ADD;
	case 5: o->rs1 = 2; o->rs2 = (uint8_t)rs2; o->imm = sd; return RV_OP_FSD;
	case 6: o->rs1 = 2; o->rs2 = (uint8_t)rs2; o->imm = sw; return RV_OP_SW;
	default: o->rs1 = 2; o->rs2 = (uint8_t)rs2; o->imm = sd; return RV_OP_SD;
	}
}

enum rv_op rv__expand_c(uint16_t h, struct rv_insn *o)
{
	switch (h & 3) {
	case 0: return quadrant0(h, o);
	case 1: return quadrant1(h, o);
	case 2: return quadrant2(h, o);
	}
	return RV_OP_ILLEGAL;
}
