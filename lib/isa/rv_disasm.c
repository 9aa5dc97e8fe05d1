/* SPDX-License-Identifier: Apache-2.0 */
/* RV64GC disassembler producing the text of GNU objdump 2.40 (Debian 12)
 * with default options: the first alias in binutils' opcode table wins.
 * Xtpsd (selective dispatch, custom-0/1), which objdump shows as .4byte,
 * prints under tiprof's names: setpf 0x3, pushpf, pf.blk 1,<follow>,
 * pf.inc 0,<counter>, pf.incr 1,16(a0).
 * 2.40 lists the register-register name before the immediate form, so
 * e.g. addi prints as "add", slli as "sll" and csrrsi x0 as "csrs"; the
 * rules below follow that table order. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "rv_isa.h"

/* Output cursor over the caller's buffer; counts the full length even
 * when the buffer is too small (snprintf semantics). */
struct out {
	char *buf;
	size_t cap;
	size_t n;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int k;
	char *dst = o->n < o->cap ? o->buf + o->n : NULL;
	size_t room = o->n < o->cap ? o->cap - o->n : 0;

	va_start(ap, fmt);
	k = vsnprintf(dst, room, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n += (size_t)k;
}

static const char *X(unsigned r) { return rv_xreg_name(r); }
static const char *F(unsigned r) { return rv_freg_name(r); }

static const char *rm_name(unsigned rm)
{
	static const char *const names[8] = { "rne", "rtz", "rdn", "rup",
		"rmm", "unknown", "unknown", "dyn" };
	return names[rm & 7];
}

/* ",rm" suffix: omitted for the dynamic mode (the table entry without
 * the rounding-mode operand matches first). */
static void put_rm(struct out *o, unsigned rm)
{
	if (rm != RV_RM_DYN)
		put(o, ",%s", rm_name(rm));
}

/* ",rm" suffix for ops whose 2.40 entry has no rm operand and requires
 * rm = 0 (fcvt.d.s, fcvt.d.w, fcvt.d.wu); other values print explicitly. */
static void put_rm0(struct out *o, unsigned rm)
{
	if (rm != 0)
		put(o, ",%s", rm_name(rm));
}

static void put_csr(struct out *o, unsigned csr)
{
	const char *n = rv_csr_name(csr);

	if (n)
		put(o, "%s", n);
	else
		put(o, "0x%x", csr);
}

static void put_fence_set(struct out *o, unsigned v)
{
	static const char *const s[16] = { "unknown", "w", "r", "rw", "o",
		"ow", "or", "orw", "i", "iw", "ir", "irw", "io", "iow", "ior",
		"iorw" };
	put(o, "%s", s[v & 15]);
}

static int d(int64_t v) { return (int)v; }

/* Name of an AMO/LR/SC with its ordering suffix. */
static void put_amo_name(struct out *o, const struct rv_insn *i)
{
	int aq = (i->flags & RV_F_AQ) != 0, rl = (i->flags & RV_F_RL) != 0;

	put(o, "%s%s", rv_op_name(i->op),
	    aq && rl ? ".aqrl" : aq ? ".aq" : rl ? ".rl" : "");
}

/* Integer immediate ALU ops (I format): aliases first. */
static void dis_imm(struct out *o, const struct rv_insn *i)
{
	unsigned rd = i->rd, rs1 = i->rs1;
	int imm = d(i->imm);
	const char *name = rv_op_name(i->op);

	switch (i->op) {
	case RV_OP_ADDI:
		if (rd == 0 && rs1 == 0 && imm == 0) {
			put(o, "nop");
			return;
		}
		if (rv_is_compressed(i) && rd != 0 && rs1 == rd && imm == 0) {
			put(o, "add\t%s,%s,0", X(rd), X(rs1));
			return;
		}
		if (rs1 == 0) {
			put(o, "li\t%s,%d", X(rd), imm);
			return;
		}
		if (imm == 0) {
			put(o, "mv\t%s,%s", X(rd), X(rs1));
			return;
		}
		name = "add";
		break;
	case RV_OP_ADDIW:
		if (imm == 0) {
			put(o, "sext.w\t%s,%s", X(rd), X(rs1));
			return;
		}
		name = "addw";
		break;
	case RV_OP_XORI:
		if (imm == -1) {
			put(o, "not\t%s,%s", X(rd), X(rs1));
			return;
		}
		name = "xor";
		break;
	case RV_OP_ANDI:
		if (imm == 255) {
			put(o, "zext.b\t%s,%s", X(rd), X(rs1));
			return;
		}
		name = "and";
		break;
	case RV_OP_ORI:
		name = "or";
		break;
	case RV_OP_SLTIU:
		if (imm == 1) {
			put(o, "seqz\t%s,%s", X(rd), X(rs1));
			return;
		}
		break;
	default:
		break;
	}
	put(o, "%s\t%s,%s,%d", name, X(rd), X(rs1), imm);
}

/* Shift-immediate ops print the register-shift name and a hex amount. */
static void dis_shi(struct out *o, const struct rv_insn *i)
{
	const char *name = rv_op_name(i->op);

	switch (i->op) {
	case RV_OP_SLLI:  name = "sll"; break;
	case RV_OP_SRLI:  name = "srl"; break;
	case RV_OP_SRAI:  name = "sra"; break;
	case RV_OP_SLLIW: name = "sllw"; break;
	case RV_OP_SRLIW: name = "srlw"; break;
	case RV_OP_SRAIW: name = "sraw"; break;
	default: break;
	}
	put(o, "%s\t%s,%s,0x%x", name, X(i->rd), X(i->rs1), (unsigned)i->imm);
}

/* Register-register integer ops. */
static void dis_r(struct out *o, const struct rv_insn *i)
{
	unsigned rd = i->rd, rs1 = i->rs1, rs2 = i->rs2;

	switch (i->op) {
	case RV_OP_ADD:
		if (rv_is_compressed(i) && rs1 == 0 && rd != 0) {
			put(o, "mv\t%s,%s", X(rd), X(rs2));
			return;
		}
		break;
	case RV_OP_SUB:
		if (rs1 == 0) {
			put(o, "neg\t%s,%s", X(rd), X(rs2));
			return;
		}
		break;
	case RV_OP_SUBW:
		if (rs1 == 0) {
			put(o, "negw\t%s,%s", X(rd), X(rs2));
			return;
		}
		break;
	case RV_OP_SLTU:
		if (rs1 == 0) {
			put(o, "snez\t%s,%s", X(rd), X(rs2));
			return;
		}
		break;
	case RV_OP_SLT:
		if (rs2 == 0) {
			put(o, "sltz\t%s,%s", X(rd), X(rs1));
			return;
		}
		if (rs1 == 0) {
			put(o, "sgtz\t%s,%s", X(rd), X(rs2));
			return;
		}
		break;
	default:
		break;
	}
	put(o, "%s\t%s,%s,%s", rv_op_name(i->op), X(rd), X(rs1), X(rs2));
}

static void dis_branch(struct out *o, const struct rv_insn *i, uint64_t t)
{
	unsigned a = i->rs1, b = i->rs2;
	const char *name = rv_op_name(i->op);

	switch (i->op) {
	case RV_OP_BEQ:
		if (b == 0) {
			put(o, "beqz\t%s,%" PRIx64, X(a), t);
			return;
		}
		break;
	case RV_OP_BNE:
		if (b == 0) {
			put(o, "bnez\t%s,%" PRIx64, X(a), t);
			return;
		}
		break;
	case RV_OP_BGE:
		if (a == 0) {
			put(o, "blez\t%s,%" PRIx64, X(b), t);
			return;
		}
		if (b == 0) {
			put(o, "bgez\t%s,%" PRIx64, X(a), t);
			return;
		}
		break;
	case RV_OP_BLT:
		if (b == 0) {
			put(o, "bltz\t%s,%" PRIx64, X(a), t);
			return;
		}
		if (a == 0) {
			put(o, "bgtz\t%s,%" PRIx64, X(b), t);
			return;
		}
		break;
	default:
		break;
	}
	put(o, "%s\t%s,%s,%" PRIx64, name, X(a), X(b), t);
}

static void dis_jalr(struct out *o, const struct rv_insn *i)
{
	unsigned rd = i->rd, rs1 = i->rs1;
	int imm = d(i->imm);

	if (rd == 0 && rs1 == 1 && imm == 0)
		put(o, "ret");
	else if (rd == 0 && imm == 0)
		put(o, "jr\t%s", X(rs1));
	else if (rd == 0)
		put(o, "jr\t%d(%s)", imm, X(rs1));
	else if (rd == 1 && imm == 0)
		put(o, "jalr\t%s", X(rs1));
	else if (rd == 1)
		put(o, "jalr\t%d(%s)", imm, X(rs1));
	else
		put(o, "jalr\t%s,%d(%s)", X(rd), imm, X(rs1));
}

/* Zicsr, with the F-extension and counter aliases listed before them. */
static void dis_csr(struct out *o, const struct rv_insn *i)
{
	unsigned rd = i->rd, rs1 = i->rs1, csr = i->csr;
	unsigned uimm = (unsigned)i->imm;

	switch (i->op) {
	case RV_OP_CSRRS:
		if (rs1 == 0) {
			switch (csr) {
			case 0x001: put(o, "frflags\t%s", X(rd)); return;
			case 0x002: put(o, "frrm\t%s", X(rd)); return;
			case 0x003: put(o, "frcsr\t%s", X(rd)); return;
			case 0xc00: put(o, "rdcycle\t%s", X(rd)); return;
			case 0xc01: put(o, "rdtime\t%s", X(rd)); return;
			case 0xc02: put(o, "rdinstret\t%s", X(rd)); return;
			}
			put(o, "csrr\t%s,", X(rd));
			put_csr(o, csr);
			return;
		}
		if (rd == 0) {
			put(o, "csrs\t");
			put_csr(o, csr);
			put(o, ",%s", X(rs1));
			return;
		}
		break;
	case RV_OP_CSRRW:
		if (i->raw == 0xc0001073u) {
			put(o, "unimp");
			return;
		}
		if (csr >= 1 && csr <= 3) {
			static const char *const n[4] = { NULL, "fsflags",
				"fsrm", "fscsr" };
			if (rd == 0)
				put(o, "%s\t%s", n[csr], X(rs1));
			else
				put(o, "%s\t%s,%s", n[csr], X(rd), X(rs1));
			return;
		}
		if (rd == 0) {
			put(o, "csrw\t");
			put_csr(o, csr);
			put(o, ",%s", X(rs1));
			return;
		}
		break;
	case RV_OP_CSRRC:
		if (rd == 0) {
			put(o, "csrc\t");
			put_csr(o, csr);
			put(o, ",%s", X(rs1));
			return;
		}
		break;
	case RV_OP_CSRRWI:
		if (csr == 1 || csr == 2) {
			put(o, "%s\t%s,%u", csr == 1 ? "fsflagsi" : "fsrmi",
			    X(rd), uimm);
			return;
		}
		/* fall through */
	case RV_OP_CSRRSI:
	case RV_OP_CSRRCI:
		if (rd == 0) {
			put(o, "%s\t", i->op == RV_OP_CSRRWI ? "csrw" :
			    i->op == RV_OP_CSRRSI ? "csrs" : "csrc");
			put_csr(o, csr);
			put(o, ",%u", uimm);
			return;
		}
		put(o, "%s\t%s,", i->op == RV_OP_CSRRWI ? "csrrw" :
		    i->op == RV_OP_CSRRSI ? "csrrs" : "csrrc", X(rd));
		put_csr(o, csr);
		put(o, ",%u", uimm);
		return;
	default:
		break;
	}
	put(o, "%s\t%s,", rv_op_name(i->op), X(rd));
	put_csr(o, csr);
	put(o, ",%s", X(rs1));
}

static void dis_fence(struct out *o, const struct rv_insn *i)
{
	unsigned pred = ((unsigned)i->imm >> 4) & 15, succ = (unsigned)i->imm & 15;

	if (i->raw == 0x8330000fu) {
		put(o, "fence.tso");
		return;
	}
	if (pred == 15 && succ == 15) {
		put(o, "fence");
		return;
	}
	put(o, "fence\t");
	put_fence_set(o, pred);
	put(o, ",");
	put_fence_set(o, succ);
}

/* FP ops with sign-injection aliases (fmv, fneg, fabs). */
static void dis_fff(struct out *o, const struct rv_insn *i)
{
	const char *alias = NULL;

	if (i->rs1 == i->rs2) {
		switch (i->op) {
		case RV_OP_FSGNJ_S:  alias = "fmv.s"; break;
		case RV_OP_FSGNJN_S: alias = "fneg.s"; break;
		case RV_OP_FSGNJX_S: alias = "fabs.s"; break;
		case RV_OP_FSGNJ_D:  alias = "fmv.d"; break;
		case RV_OP_FSGNJN_D: alias = "fneg.d"; break;
		case RV_OP_FSGNJX_D: alias = "fabs.d"; break;
		default: break;
		}
	}
	if (alias)
		put(o, "%s\t%s,%s", alias, F(i->rd), F(i->rs1));
	else
		put(o, "%s\t%s,%s,%s", rv_op_name(i->op), F(i->rd), F(i->rs1),
		    F(i->rs2));
}

/* Compressed HINT encodings print under their c.* names in 2.40. */
static int dis_c_hint(struct out *o, const struct rv_insn *i)
{
	if (!rv_is_compressed(i))
		return 0;
	switch (i->op) {
	case RV_OP_ADDI:
		if (i->rd == 0 && (i->raw & 0xe003) == 0x4001) {
			put(o, "c.li\tzero,%d", d(i->imm));
			return 1;
		}
		if (i->rd == 0 && i->rs1 == 0 && i->imm != 0) {
			put(o, "c.nop\t%d", d(i->imm));
			return 1;
		}
		return 0;
	case RV_OP_LUI:
		if (i->rd == 0) {
			put(o, "c.lui\tzero,0x%x",
			    (unsigned)(i->imm >> 12) & 0xfffff);
			return 1;
		}
		return 0;
	case RV_OP_ADD:
		if (i->rd == 0) {
			put(o, "%s\tzero,%s", (i->raw & 0x1000) ? "c.add" : "c.mv",
			    X(i->rs2));
			return 1;
		}
		return 0;
	case RV_OP_SLLI:
	case RV_OP_SRLI:
	case RV_OP_SRAI:
		if (i->imm == 0) {
			put(o, "%s\t%s", i->op == RV_OP_SLLI ? "c.slli64" :
			    i->op == RV_OP_SRLI ? "c.srli64" : "c.srai64",
			    X(i->rd));
			return 1;
		}
		if (i->rd == 0) {
			put(o, "c.slli\tzero,0x%x", (unsigned)i->imm);
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}

static void dis(struct out *o, const struct rv_insn *i, uint64_t pc)
{
	uint64_t t = pc + (uint64_t)i->imm;
	const char *name = rv_op_name(i->op);

	if (dis_c_hint(o, i))
		return;
	switch (i->fmt) {
	case RV_FMT_NONE:
		put(o, "%s", name);
		return;
	case RV_FMT_U:
		put(o, "%s\t%s,0x%x", name, X(i->rd),
		    (unsigned)(i->imm >> 12) & 0xfffff);
		return;
	case RV_FMT_JAL:
		if (i->rd == 0)
			put(o, "j\t%" PRIx64, t);
		else if (i->rd == 1)
			put(o, "jal\t%" PRIx64, t);
		else
			put(o, "jal\t%s,%" PRIx64, X(i->rd), t);
		return;
	case RV_FMT_JALR:
		dis_jalr(o, i);
		return;
	case RV_FMT_B:
		dis_branch(o, i, t);
		return;
	case RV_FMT_LOAD:
		put(o, "%s\t%s,%d(%s)", name, X(i->rd), d(i->imm), X(i->rs1));
		return;
	case RV_FMT_FLOAD:
		put(o, "%s\t%s,%d(%s)", name, F(i->rd), d(i->imm), X(i->rs1));
		return;
	case RV_FMT_STORE:
		put(o, "%s\t%s,%d(%s)", name, X(i->rs2), d(i->imm), X(i->rs1));
		return;
	case RV_FMT_FSTORE:
		put(o, "%s\t%s,%d(%s)", name, F(i->rs2), d(i->imm), X(i->rs1));
		return;
	case RV_FMT_I:
		dis_imm(o, i);
		return;
	case RV_FMT_SHI:
		dis_shi(o, i);
		return;
	case RV_FMT_R:
		dis_r(o, i);
		return;
	case RV_FMT_FENCE:
		dis_fence(o, i);
		return;
	case RV_FMT_SFENCE:
		if (i->rs1 == 0 && i->rs2 == 0)
			put(o, "%s", name);
		else if (i->rs2 == 0)
			put(o, "%s\t%s", name, X(i->rs1));
		else
			put(o, "%s\t%s,%s", name, X(i->rs1), X(i->rs2));
		return;
	case RV_FMT_CSR:
	case RV_FMT_CSRI:
		dis_csr(o, i);
		return;
	case RV_FMT_LR:
		put_amo_name(o, i);
		put(o, "\t%s,(%s)", X(i->rd), X(i->rs1));
		return;
	case RV_FMT_AMO:
		put_amo_name(o, i);
		put(o, "\t%s,%s,(%s)", X(i->rd), X(i->rs2), X(i->rs1));
		return;
	case RV_FMT_FFF:
		dis_fff(o, i);
		return;
	case RV_FMT_FFF_RM:
		put(o, "%s\t%s,%s,%s", name, F(i->rd), F(i->rs1), F(i->rs2));
		put_rm(o, i->rm);
		return;
	case RV_FMT_FFFF_RM:
		put(o, "%s\t%s,%s,%s,%s", name, F(i->rd), F(i->rs1), F(i->rs2),
		    F(i->rs3));
		put_rm(o, i->rm);
		return;
	case RV_FMT_FF_RM:
		put(o, "%s\t%s,%s", name, F(i->rd), F(i->rs1));
		put_rm(o, i->rm);
		return;
	case RV_FMT_FF_RM0:
		put(o, "%s\t%s,%s", name, F(i->rd), F(i->rs1));
		put_rm0(o, i->rm);
		return;
	case RV_FMT_XF_RM:
		put(o, "%s\t%s,%s", name, X(i->rd), F(i->rs1));
		put_rm(o, i->rm);
		return;
	case RV_FMT_FX_RM:
		put(o, "%s\t%s,%s", name, F(i->rd), X(i->rs1));
		put_rm(o, i->rm);
		return;
	case RV_FMT_FX_RM0:
		put(o, "%s\t%s,%s", name, F(i->rd), X(i->rs1));
		put_rm0(o, i->rm);
		return;
	case RV_FMT_XF:
		put(o, "%s\t%s,%s", name, X(i->rd), F(i->rs1));
		return;
	case RV_FMT_FX:
		put(o, "%s\t%s,%s", name, F(i->rd), X(i->rs1));
		return;
	case RV_FMT_XFF:
		put(o, "%s\t%s,%s,%s", name, X(i->rd), F(i->rs1), F(i->rs2));
		return;
	/* Xtpsd: objdump prints these as .4byte; the names are tiprof's (docs/seldisp.md) */
	case RV_FMT_PFCTL:
		if (i->op == RV_OP_SETPF || i->op == RV_OP_RESETPF)
			put(o, "%s\t0x%x", name, (unsigned)i->imm);
		else
			put(o, "%s", name);
		return;
	case RV_FMT_PFBLK:
	case RV_FMT_PFINC:
		put(o, "%s\t%u,%" PRIx64, name, i->pf, t);
		return;
	case RV_FMT_PFINCR:
		put(o, "%s\t%u,%d(%s)", name, i->pf, d(i->imm), X(i->rs1));
		return;
	}
}

int rv_disasm(const struct rv_insn *insn, uint64_t pc, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len > 0)
		buf[0] = '\0';
	if (insn->op == RV_OP_ILLEGAL || insn->op >= RV_OP_COUNT)
		return -1;
	dis(&o, insn, pc);
	return (int)o.n;
}
