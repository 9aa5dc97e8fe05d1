/* SPDX-License-Identifier: Apache-2.0 */
/* RV64GC decoder: 32-bit encodings, the static operation table and the
 * classification common to 16- and 32-bit forms. */
#include <string.h>

#include "rv_isa_int.h"
#include "tiprof/seldisp.h"

/* ---- static operation table ---------------------------------------- */

struct rv_opinfo {
	const char *name;
	enum rv_fmt fmt;
	enum rv_fu fu;
	uint32_t flags;
	uint8_t memsz;
};

static const struct rv_opinfo optab[RV_OP_COUNT] = {
	[RV_OP_ILLEGAL] = { "illegal", RV_FMT_NONE, RV_FU_NONE, 0, 0 },
#define RV_OP(id, nm, fmt, fu, fl, msz) \
	[RV_OP_##id] = { nm, RV_FMT_##fmt, RV_FU_##fu, (fl), (msz) },
#include "rv_ops.def"
#undef RV_OP
};

const char *rv_op_name(enum rv_op op)
{
	if ((unsigned)op >= RV_OP_COUNT)
		return "illegal";
	return optab[op].name;
}

/* Register-file usage and rounding-mode presence implied by a format. */
static uint32_t fmt_flags(enum rv_fmt f)
{
	switch (f) {
	case RV_FMT_NONE:
	case RV_FMT_FENCE:
	case RV_FMT_PFCTL:
	case RV_FMT_PFBLK:
	case RV_FMT_PFINC:    return 0;
	case RV_FMT_PFINCR:   return RV_F_RS1_X;
	case RV_FMT_U:
	case RV_FMT_JAL:
	case RV_FMT_CSRI:     return RV_F_RD_X;
	case RV_FMT_JALR:
	case RV_FMT_LOAD:
	case RV_FMT_I:
	case RV_FMT_SHI:
	case RV_FMT_CSR:
	case RV_FMT_LR:       return RV_F_RD_X | RV_F_RS1_X;
	case RV_FMT_B:
	case RV_FMT_STORE:
	case RV_FMT_SFENCE:   return RV_F_RS1_X | RV_F_RS2_X;
	case RV_FMT_FLOAD:    return RV_F_RD_F | RV_F_RS1_X;
	case RV_FMT_FSTORE:   return RV_F_RS1_X | RV_F_RS2_F;
	case RV_FMT_R:
	case RV_FMT_AMO:      return RV_F_RD_X | RV_F_RS1_X | RV_F_RS2_X;
	case RV_FMT_FFF:      return RV_F_RD_F | RV_F_RS1_F | RV_F_RS2_F;
	case RV_FMT_FFF_RM:   return RV_F_RD_F | RV_F_RS1_F | RV_F_RS2_F | RV_F_HAS_RM;
	case RV_FMT_FFFF_RM:  return RV_F_RD_F | RV_F_RS1_F | RV_F_RS2_F | RV_F_RS3_F | RV_F_HAS_RM;
	case RV_FMT_FF_RM:
	case RV_FMT_FF_RM0:   return RV_F_RD_F | RV_F_RS1_F | RV_F_HAS_RM;
	case RV_FMT_XF_RM:    return RV_F_RD_X | RV_F_RS1_F | RV_F_HAS_RM;
	case RV_FMT_FX_RM:
	case RV_FMT_FX_RM0:   return RV_F_RD_F | RV_F_RS1_X | RV_F_HAS_RM;
	case RV_FMT_XF:       return RV_F_RD_X | RV_F_RS1_F;
	case RV_FMT_FX:       return RV_F_RD_F | RV_F_RS1_X;
	case RV_FMT_XFF:      return RV_F_RD_X | RV_F_RS1_F | RV_F_RS2_F;
	}
	return 0;
}

static int is_link(unsigned r) { return r == 1 || r == 5; }

int rv__finish(struct rv_insn *o, enum rv_op op, uint64_t pc)
{
	const struct rv_opinfo *info = &optab[op];

	o->op = op;
	o->fmt = info->fmt;
	o->fu = info->fu;
	o->flags |= info->flags | fmt_flags(info->fmt);
	o->mem_size = info->memsz;
	o->cf = RV_CF_NONE;
	switch (info->fmt) {
	case RV_FMT_B:
	case RV_FMT_PFBLK:	/* a forward branch to the follow address */
		o->cf = RV_CF_BRANCH;
		o->target = pc + (uint64_t)o->imm;
		o->flags |= RV_F_TARGET;
		break;
	case RV_FMT_JAL:
		o->cf = is_link(o->rd) ? RV_CF_CALL : RV_CF_JAL;
		o->target = pc + (uint64_t)o->imm;
		o->flags |= RV_F_TARGET;
		break;
	case RV_FMT_JALR:
		if (is_link(o->rd))
			o->cf = RV_CF_CALL_IND;
		else if (is_link(o->rs1))
			o->cf = RV_CF_RETURN;
		else
			o->cf = RV_CF_JALR;
		break;
	default:
		break;
	}
	return o->len;
}

/* ---- 32-bit encodings ---------------------------------------------- */

static int valid_rm(unsigned rm) { return rm != 5 && rm != 6; }

/* Operation of an OP-FP (0x53) word, or RV_OP_ILLEGAL. */
static enum rv_op decode_opfp(uint32_t w)
{
	unsigned f5 = w >> 27, fmt = (w >> 25) & 3, f3 = (w >> 12) & 7;
	unsigned rs2 = (w >> 20) & 31;
	int d = fmt == 1;

	if (fmt > 1)
		return RV_OP_ILLEGAL;
	switch (f5) {
	case 0x00: return d ? RV_OP_FADD_D : RV_OP_FADD_S;
	case 0x01: return d ? RV_OP_FSUB_D : RV_OP_FSUB_S;
	case 0x02: return d ? RV_OP_FMUL_D : RV_OP_FMUL_S;
	case 0x03: return d ? RV_OP_FDIV_D : RV_OP_FDIV_S;
	case 0x0b:
		if (rs2 != 0)
			return RV_OP_ILLEGAL;
		return d ? RV_OP_FSQRT_D : RV_OP_FSQRT_S;
	case 0x04:
		switch (f3) {
		case 0: return d ? RV_OP_FSGNJ_D : RV_OP_FSGNJ_S;
		case 1: return d ? RV_OP_FSGNJN_D : RV_OP_FSGNJN_S;
		case 2: return d ? RV_OP_FSGNJX_D : RV_OP_FSGNJX_S;
		}
		return RV_OP_ILLEGAL;
	case 0x05:
		switch (f3) {
		case 0: return d ? RV_OP_FMIN_D : RV_OP_FMIN_S;
		case 1: return d ? RV_OP_FMAX_D : RV_OP_FMAX_S;
		}
		return RV_OP_ILLEGAL;
	case 0x08:
		if (!d && rs2 == 1)
			return RV_OP_FCVT_S_D;
		if (d && rs2 == 0)
			return RV_OP_FCVT_D_S;
		return RV_OP_ILLEGAL;
	case 0x14:
		switch (f3) {
		case 0: return d ? RV_OP_FLE_D : RV_OP_FLE_S;
		case 1: return d ? RV_OP_FLT_D : RV_OP_FLT_S;
		case 2: return d ? RV_OP_FEQ_D : RV_OP_FEQ_S;
		}
		return RV_OP_ILLEGAL;
	case 0x18:
		switch (rs2) {
		case 0: return d ? RV_OP_FCVT_W_D : RV_OP_FCVT_W_S;
		case 1: return d ? RV_OP_FCVT_WU_D : RV_OP_FCVT_WU_S;
		case 2: return d ? RV_OP_FCVT_L_D : RV_OP_FCVT_L_S;
		case 3: return d ? RV_OP_FCVT_LU_D : RV_OP_FCVT_LU_S;
		}
		return RV_OP_ILLEGAL;
	case 0x1a:
		switch (rs2) {
		case 0: return d ? RV_OP_FCVT_D_W : RV_OP_FCVT_S_W;
		case 1: return d ? RV_OP_FCVT_D_WU : RV_OP_FCVT_S_WU;
		case 2: return d ? RV_OP_FCVT_D_L : RV_OP_FCVT_S_L;
		case 3: return d ? RV_OP_FCVT_D_LU : RV_OP_FCVT_S_LU;
		}
		return RV_OP_ILLEGAL;
	case 0x1c:
		if (rs2 != 0)
			return RV_OP_ILLEGAL;
		if (f3 == 0)
			return d ? RV_OP_FMV_X_D : RV_OP_FMV_X_W;
		if (f3 == 1)
			return d ? RV_OP_FCLASS_D : RV_OP_FCLASS_S;
		return RV_OP_ILLEGAL;
	case 0x1e:
		if (rs2 != 0 || f3 != 0)
			return RV_OP_ILLEGAL;
		return d ? RV_OP_FMV_D_X : RV_OP_FMV_W_X;
	}
	return RV_OP_ILLEGAL;
}

/* Operation of an AMO (0x2f) word, or RV_OP_ILLEGAL. */
static enum rv_op decode_amo(uint32_t w)
{
	static const enum rv_op ops_w[32] = {
		[0x00] = RV_OP_AMOADD_W,  [0x01] = RV_OP_AMOSWAP_W,
		[0x02] = RV_OP_LR_W,      [0x03] = RV_OP_SC_W,
		[0x04] = RV_OP_AMOXOR_W,  [0x08] = RV_OP_AMOOR_W,
		[0x0c] = RV_OP_AMOAND_W,  [0x10] = RV_OP_AMOMIN_W,
		[0x14] = RV_OP_AMOMAX_W,  [0x18] = RV_OP_AMOMINU_W,
		[0x1c] = RV_OP_AMOMAXU_W,
	};
	static const enum rv_op ops_d[32] = {
		[0x00] = RV_OP_AMOADD_D,  [0x01] = RV_OP_AMOSWAP_D,
		[0x02] = RV_OP_LR_D,      [0x03] = RV_OP_SC_D,
		[0x04] = RV_OP_AMOXOR_D,  [0x08] = RV_OP_AMOOR_D,
		[0x0c] = RV_OP_AMOAND_D,  [0x10] = RV_OP_AMOMIN_D,
		[0x14] = RV_OP_AMOMAX_D,  [0x18] = RV_OP_AMOMINU_D,
		[0x1c] = RV_OP_AMOMAXU_D,
	};
	unsigned f3 = (w >> 12) & 7, f5 = w >> 27;
	enum rv_op op;

	if (f3 == 2)
		op = ops_w[f5];
	else if (f3 == 3)
		op = ops_d[f5];
	else
		return RV_OP_ILLEGAL;
	if ((op == RV_OP_LR_W || op == RV_OP_LR_D) && ((w >> 20) & 31) != 0)
		return RV_OP_ILLEGAL;
	return op;
}

/* Operation of a 32-bit word (major opcode dispatch). */
static enum rv_op decode_op32(uint32_t w)
{
	unsigned opc = w & 0x7f, f3 = (w >> 12) & 7, f7 = w >> 25;
	unsigned rd = (w >> 7) & 31, rs1 = (w >> 15) & 31;

	switch (opc) {
	case 0x37: return RV_OP_LUI;
	case 0x17: return RV_OP_AUIPC;
	case 0x6f: return RV_OP_JAL;
	case 0x67: return f3 == 0 ? RV_OP_JALR : RV_OP_ILLEGAL;
	case 0x63: {
		static const enum rv_op b[8] = { RV_OP_BEQ, RV_OP_BNE,
			RV_OP_ILLEGAL, RV_OP_ILLEGAL, RV_OP_BLT, RV_OP_BGE,
			RV_OP_BLTU, RV_OP_BGEU };
		return b[f3];
	}
	case 0x03: {
		static const enum rv_op l[8] = { RV_OP_LB, RV_OP_LH, RV_OP_LW,
			RV_OP_LD, RV_OP_LBU, RV_OP_LHU, RV_OP_LWU, RV_OP_ILLEGAL };
		return l[f3];
	}
	case 0x23: {
		static const enum rv_op s[8] = { RV_OP_SB, RV_OP_SH, RV_OP_SW,
			RV_OP_SD };
		return s[f3];
	}
	case 0x13:
		switch (f3) {
		case 0: return RV_OP_ADDI;
		case 2: return RV_OP_SLTI;
		case 3: return RV_OP_SLTIU;
		case 4: return RV_OP_XORI;
		case 6: return RV_OP_ORI;
		case 7: return RV_OP_ANDI;
		case 1: return (w >> 26) == 0 ? RV_OP_SLLI : RV_OP_ILLEGAL;
		default:
			if ((w >> 26) == 0)
				return RV_OP_SRLI;
			if ((w >> 26) == 0x10)
				return RV_OP_SRAI;
			return RV_OP_ILLEGAL;
		}
	case 0x1b:
		switch (f3) {
		case 0: return RV_OP_ADDIW;
		case 1: return f7 == 0 ? RV_OP_SLLIW : RV_OP_ILLEGAL;
		case 5:
			if (f7 == 0)
				return RV_OP_SRLIW;
			if (f7 == 0x20)
				return RV_OP_SRAIW;
			return RV_OP_ILLEGAL;
		}
		return RV_OP_ILLEGAL;
	case 0x33: {
		static const enum rv_op base[8] = { RV_OP_ADD, RV_OP_SLL,
			RV_OP_SLT, RV_OP_SLTU, RV_OP_XOR, RV_OP_SRL, RV_OP_OR,
			RV_OP_AND };
		static const enum rv_op mul[8] = { RV_OP_MUL, RV_OP_MULH,
			RV_OP_MULHSU, RV_OP_MULHU, RV_OP_DIV, RV_OP_DIVU,
			RV_OP_REM, RV_OP_REMU };
		if (f7 == 0)
			return base[f3];
		if (f7 == 1)
			return mul[f3];
		if (f7 == 0x20 && f3 == 0)
			return RV_OP_SUB;
		if (f7 == 0x20 && f3 == 5)
			return RV_OP_SRA;
		return RV_OP_ILLEGAL;
	}
	case 0x3b: {
		static const enum rv_op base[8] = { RV_OP_ADDW, RV_OP_SLLW,
			RV_OP_ILLEGAL, RV_OP_ILLEGAL, RV_OP_ILLEGAL, RV_OP_SRLW };
		static const enum rv_op mul[8] = { RV_OP_MULW, RV_OP_ILLEGAL,
			RV_OP_ILLEGAL, RV_OP_ILLEGAL, RV_OP_DIVW, RV_OP_DIVUW,
			RV_OP_REMW, RV_OP_REMUW };
		if (f7 == 0)
			return base[f3];
		if (f7 == 1)
			return mul[f3];
		if (f7 == 0x20 && f3 == 0)
			return RV_OP_SUBW;
		if (f7 == 0x20 && f3 == 5)
			return RV_OP_SRAW;
		return RV_OP_ILLEGAL;
	}
	case 0x0f:
		/* fm=0 fences, and fence.tso (fm=1000, rw,rw); rd and rs1
		 * must be zero, as binutils requires. */
		if (f3 == 0 && rd == 0 && rs1 == 0 &&
		    ((w >> 28) == 0 || w == 0x8330000fu))
			return RV_OP_FENCE;
		if (w == 0x0000100fu)
			return RV_OP_FENCE_I;
		return RV_OP_ILLEGAL;
	case 0x73:
		switch (f3) {
		case 0:
			switch (w) {
			case 0x00000073u: return RV_OP_ECALL;
			case 0x00100073u: return RV_OP_EBREAK;
			case 0x10200073u: return RV_OP_SRET;
			case 0x30200073u: return RV_OP_MRET;
			case 0x10500073u: return RV_OP_WFI;
			}
			if (f7 == 0x09 && rd == 0)
				return RV_OP_SFENCE_VMA;
			return RV_OP_ILLEGAL;
		case 1: return RV_OP_CSRRW;
		case 2: return RV_OP_CSRRS;
		case 3: return RV_OP_CSRRC;
		case 5: return RV_OP_CSRRWI;
		case 6: return RV_OP_CSRRSI;
		case 7: return RV_OP_CSRRCI;
		}
		return RV_OP_ILLEGAL;
	case 0x2f:
		return decode_amo(w);
	case 0x07:
		if (f3 == 2)
			return RV_OP_FLW;
		if (f3 == 3)
			return RV_OP_FLD;
		return RV_OP_ILLEGAL;
	case 0x27:
		if (f3 == 2)
			return RV_OP_FSW;
		if (f3 == 3)
			return RV_OP_FSD;
		return RV_OP_ILLEGAL;
	case 0x43: case 0x47: case 0x4b: case 0x4f: {
		unsigned fmt = (w >> 25) & 3, k = (opc >> 2) & 3;
		static const enum rv_op s[4] = { RV_OP_FMADD_S, RV_OP_FMSUB_S,
			RV_OP_FNMSUB_S, RV_OP_FNMADD_S };
		static const enum rv_op d[4] = { RV_OP_FMADD_D, RV_OP_FMSUB_D,
			RV_OP_FNMSUB_D, RV_OP_FNMADD_D };
		if (fmt == 0)
			return s[k];
		if (fmt == 1)
			return d[k];
		return RV_OP_ILLEGAL;
	}
	case 0x53:
		return decode_opfp(w);
	}
	return RV_OP_ILLEGAL;
}

/* Fill the operand fields of a 32-bit word according to op's format. */
static void fill_operands32(uint32_t w, enum rv_op op, struct rv_insn *o)
{
	enum rv_fmt fmt = optab[op].fmt;
	uint32_t fl = fmt_flags(fmt);
	int32_t sw = (int32_t)w;

	if (fl & (RV_F_RD_X | RV_F_RD_F))
		o->rd = (w >> 7) & 31;
	if (fl & (RV_F_RS1_X | RV_F_RS1_F))
		o->rs1 = (w >> 15) & 31;
	if (fl & (RV_F_RS2_X | RV_F_RS2_F))
		o->rs2 = (w >> 20) & 31;
	if (fl & RV_F_RS3_F)
		o->rs3 = w >> 27;
	if (fl & RV_F_HAS_RM)
		o->rm = (w >> 12) & 7;
	switch (fmt) {
	case RV_FMT_U:
		o->imm = (int32_t)(w & 0xfffff000u);
		break;
	case RV_FMT_JAL:
		o->imm = ((sw >> 31) * (1 << 20)) | (int32_t)(w & 0xff000) |
			 (int32_t)((w >> 9) & 0x800) | (int32_t)((w >> 20) & 0x7fe);
		break;
	case RV_FMT_B:
		o->imm = ((sw >> 31) * (1 << 12)) | (int32_t)((w << 4) & 0x800) |
			 (int32_t)((w >> 20) & 0x7e0) | (int32_t)((w >> 7) & 0x1e);
		break;
	case RV_FMT_JALR:
	case RV_FMT_LOAD:
	case RV_FMT_FLOAD:
	case RV_FMT_I:
		o->imm = sw >> 20;
		break;
	case RV_FMT_STORE:
	case RV_FMT_FSTORE:
		o->imm = ((sw >> 25) * 32) | (int32_t)((w >> 7) & 31);
		break;
	case RV_FMT_SHI:
		o->imm = (w >> 20) & 63;
		break;
	case RV_FMT_FENCE:
		o->imm = w >> 20;
		break;
	case RV_FMT_CSR:
		o->csr = w >> 20;
		break;
	case RV_FMT_CSRI:
		o->csr = w >> 20;
		o->imm = (w >> 15) & 31;
		break;
	case RV_FMT_LR:
	case RV_FMT_AMO:
		if (w & (1u << 26))
			o->flags |= RV_F_AQ;
		if (w & (1u << 25))
			o->flags |= RV_F_RL;
		break;
	default:
		break;
	}
}

/* Xtpsd (custom-0 and custom-1, include/tiprof/seldisp.h): the operation with its operands
 * in *o, or RV_OP_ILLEGAL for the reserved encodings. */
static enum rv_op decode_xtpsd(uint32_t w, struct rv_insn *o)
{
	unsigned opc = w & 0x7f, f3 = (w >> 12) & 7, f7 = w >> 25;
	unsigned rd = (w >> 7) & 31, rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31;
	int32_t sw = (int32_t)w;

	if (opc == TIPROF_SD_OPC_INC) {	/* pf.inc f, pc + J-immediate */
		if (rd >= TIPROF_SD_NFLAGS)
			return RV_OP_ILLEGAL;
		o->pf = (uint8_t)rd;
		o->imm = ((sw >> 31) * (1 << 20)) | (int32_t)(w & 0xff000) |
			 (int32_t)((w >> 9) & 0x800) | (int32_t)((w >> 20) & 0x7fe);
		return RV_OP_PF_INC;
	}
	switch (f3) {
	case TIPROF_SD_F3_FLAG:
		if (rd != 0 || rs1 != 0)
			return RV_OP_ILLEGAL;
		switch (f7) {
		case TIPROF_SD_FN_SETPF:
		case TIPROF_SD_FN_RESETPF:
			if (rs2 > TIPROF_SD_FLAGS_MASK)
				return RV_OP_ILLEGAL;
			o->imm = rs2;
			return f7 == TIPROF_SD_FN_SETPF ? RV_OP_SETPF : RV_OP_RESETPF;
		case TIPROF_SD_FN_PUSHPF:
		case TIPROF_SD_FN_POPPF:
			if (rs2 != 0)
				return RV_OP_ILLEGAL;
			return f7 == TIPROF_SD_FN_PUSHPF ? RV_OP_PUSHPF : RV_OP_POPPF;
		}
		return RV_OP_ILLEGAL;
	case TIPROF_SD_F3_BLK:	/* pf.blk f, follow: forward only (offset >= 4) */
		if (rs1 >= TIPROF_SD_NFLAGS || rs2 != 0)
			return RV_OP_ILLEGAL;
		o->imm = ((sw >> 31) * (1 << 12)) | (int32_t)((w << 4) & 0x800) |
			 (int32_t)((w >> 20) & 0x7e0) | (int32_t)((w >> 7) & 0x1e);
		if (o->imm < 4)
			return RV_OP_ILLEGAL;
		o->pf = (uint8_t)rs1;
		return RV_OP_PF_BLK;
	case TIPROF_SD_F3_INCR:	/* pf.incr f, imm(rs1) */
		if (rd >= TIPROF_SD_NFLAGS)
			return RV_OP_ILLEGAL;
		o->pf = (uint8_t)rd;
		o->rs1 = (uint8_t)rs1;
		o->imm = sw >> 20;
		return RV_OP_PF_INCR;
	}
	return RV_OP_ILLEGAL;
}

static int decode32(uint32_t w, uint64_t pc, struct rv_insn *o)
{
	enum rv_op op;

	if ((w & 0x5f) == TIPROF_SD_OPC_CTL) {	/* custom-0 or custom-1: Xtpsd */
		op = decode_xtpsd(w, o);
		if (op == RV_OP_ILLEGAL) {
			uint8_t len = o->len;

			memset(o, 0, sizeof(*o));
			o->len = len;
			o->raw = w;
			return RV_ERR_ILLEGAL;
		}
		return rv__finish(o, op, pc);
	}
	op = decode_op32(w);

	if (op == RV_OP_ILLEGAL)
		return RV_ERR_ILLEGAL;
	fill_operands32(w, op, o);
	if ((fmt_flags(optab[op].fmt) & RV_F_HAS_RM) && !valid_rm(o->rm)) {
		uint8_t len = o->len;
		memset(o, 0, sizeof(*o));
		o->len = len;
		o->raw = w;
		return RV_ERR_ILLEGAL;
	}
	return rv__finish(o, op, pc);
}

/* ---- entry points --------------------------------------------------- */

int rv_decode_word(uint32_t word, uint64_t pc, struct rv_insn *out)
{
	int n = rv_insn_length((uint16_t)word);

	memset(out, 0, sizeof(*out));
	out->len = (uint8_t)n;
	if (n == 2) {
		enum rv_op op;

		out->raw = word & 0xffff;
		out->flags = RV_F_COMPRESSED;
		op = rv__expand_c((uint16_t)word, out);
		if (op == RV_OP_ILLEGAL) {
			memset(out, 0, sizeof(*out));
			out->len = 2;
			out->raw = word & 0xffff;
			return RV_ERR_ILLEGAL;
		}
		return rv__finish(out, op, pc);
	}
	out->raw = word;
	if (n == 0) {
		out->raw = word & 0xffff;
		return RV_ERR_ILLEGAL;
	}
	return decode32(word, pc, out);
}

int rv_decode(const uint8_t *buf, size_t len, uint64_t pc, struct rv_insn *out)
{
	uint32_t w;
	int n;

	if (len < 2)
		return RV_ERR_NEED_MORE;
	w = (uint32_t)buf[0] | (uint32_t)buf[1] << 8;
	n = rv_insn_length((uint16_t)w);
	if (n == 4) {
		if (len < 4)
			return RV_ERR_NEED_MORE;
		w |= (uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 24;
	}
	return rv_decode_word(w, pc, out);
}
