/* SPDX-License-Identifier: Apache-2.0 */
/* RV64GC instruction decoder and disassembler: the one place that knows
 * RISC-V encodings (RV64GC, and tiprof's selective-dispatch extension Xtpsd on custom-0/1,
 * docs/seldisp.md). Pure functions over caller-owned memory (no I/O, no
 * global mutable state), shared by the ISS, the timing model and the
 * software branch tracer. */
#ifndef TIPROF_RV_ISA_H
#define TIPROF_RV_ISA_H

#include <stddef.h>
#include <stdint.h>

/* ---- operations ---------------------------------------------------- */

enum rv_op {
	RV_OP_ILLEGAL = 0,
#define RV_OP(id, name, fmt, fu, flags, memsz) RV_OP_##id,
#include "rv_ops.def"
#undef RV_OP
	RV_OP_COUNT
};

/* Operand format: which register files the operands live in and how the
 * canonical form prints (X = integer register, F = FP register). */
enum rv_fmt {
	RV_FMT_NONE,    /* no operands (ecall, fence.i, ...) */
	RV_FMT_U,       /* rd, imm20 (imm holds the shifted value) */
	RV_FMT_JAL,     /* rd, target */
	RV_FMT_JALR,    /* rd, imm(rs1) */
	RV_FMT_B,       /* rs1, rs2, target */
	RV_FMT_LOAD,    /* rd, imm(rs1) */
	RV_FMT_FLOAD,   /* frd, imm(rs1) */
	RV_FMT_STORE,   /* rs2, imm(rs1) */
	RV_FMT_FSTORE,  /* frs2, imm(rs1) */
	RV_FMT_I,       /* rd, rs1, imm */
	RV_FMT_SHI,     /* rd, rs1, shamt */
	RV_FMT_R,       /* rd, rs1, rs2 */
	RV_FMT_FENCE,   /* pred, succ (imm holds fm|pred|succ) */
	RV_FMT_SFENCE,  /* rs1, rs2 */
	RV_FMT_CSR,     /* rd, csr, rs1 */
	RV_FMT_CSRI,    /* rd, csr, uimm (imm) */
	RV_FMT_LR,      /* rd, (rs1) */
	RV_FMT_AMO,     /* rd, rs2, (rs1) */
	/* Xtpsd, selective dispatch (include/tiprof/seldisp.h, docs/seldisp.md) */
	RV_FMT_PFCTL,   /* setpf/resetpf mask (imm), pushpf, poppf */
	RV_FMT_PFBLK,   /* pf.blk f, follow: pf = f, target = follow address */
	RV_FMT_PFINC,   /* pf.inc f, counter: pf = f, counter at pc + imm */
	RV_FMT_PFINCR,  /* pf.incr f, imm(rs1): pf = f */
	RV_FMT_FFF,     /* frd, frs1, frs2 */
	RV_FMT_FFF_RM,  /* frd, frs1, frs2, rm */
	RV_FMT_FFFF_RM, /* frd, frs1, frs2, frs3, rm */
	RV_FMT_FF_RM,   /* frd, frs1, rm */
	RV_FMT_FF_RM0,  /* frd, frs1 (rm printed only when not 0) */
	RV_FMT_XF_RM,   /* rd, frs1, rm */
	RV_FMT_FX_RM,   /* frd, rs1, rm */
	RV_FMT_FX_RM0,  /* frd, rs1 (rm printed only when not 0) */
	RV_FMT_XF,      /* rd, frs1 */
	RV_FMT_FX,      /* frd, rs1 */
	RV_FMT_XFF,     /* rd, frs1, frs2 */
};

/* Functional-unit class, for a timing model. */
enum rv_fu {
	RV_FU_NONE = 0, /* illegal instruction */
	RV_FU_ALU,      /* integer add/logic/shift/compare, lui, auipc */
	RV_FU_MUL,      /* integer multiply */
	RV_FU_DIV,      /* integer divide/remainder */
	RV_FU_BRANCH,   /* conditional branch */
	RV_FU_JUMP,     /* jal, jalr */
	RV_FU_LOAD,     /* integer and FP loads */
	RV_FU_STORE,    /* integer and FP stores */
	RV_FU_AMO,      /* LR, SC, AMOs */
	RV_FU_CSR,      /* CSR accesses */
	RV_FU_SYSTEM,   /* fences, ecall, ebreak, xRET, wfi */
	RV_FU_FADD,     /* FP add/sub/min/max/compare */
	RV_FU_FMUL,     /* FP multiply */
	RV_FU_FMA,      /* FP fused multiply-add */
	RV_FU_FDIV,     /* FP divide and square root */
	RV_FU_FCVT,     /* FP<->int and FP<->FP conversions */
	RV_FU_FMISC,    /* FP sign injection, classify, moves */
	RV_FU_COUNT
};

/* Control-transfer kind. The RISC-V return-address-stack hints decide
 * call/return: a link register is x1 or x5. */
enum rv_cf {
	RV_CF_NONE = 0,  /* not a control transfer */
	RV_CF_BRANCH,    /* conditional branch (static target) */
	RV_CF_JAL,       /* direct jump without link (static target) */
	RV_CF_JALR,      /* indirect jump without link, not a return */
	RV_CF_CALL,      /* direct call: jal with link rd (static target) */
	RV_CF_CALL_IND,  /* indirect call: jalr with link rd */
	RV_CF_RETURN,    /* jalr rd=non-link, rs1=link */
};

/* Static classification flags (struct rv_insn.flags). */
#define RV_F_LOAD        (1u << 0)  /* reads memory (loads, LR, AMOs) */
#define RV_F_STORE       (1u << 1)  /* writes memory (stores, SC, AMOs) */
#define RV_F_AMO         (1u << 2)  /* LR, SC or AMO */
#define RV_F_FP          (1u << 3)  /* F or D instruction (incl. FP loads) */
#define RV_F_CSR         (1u << 4)  /* Zicsr access */
#define RV_F_FENCE       (1u << 5)  /* fence, fence.i, sfence.vma */
#define RV_F_SERIAL      (1u << 6)  /* BOOM "unique": alone in an empty
                                       ROB, flushes on commit */
#define RV_F_COMPRESSED  (1u << 7)  /* 16-bit encoding (expanded) */
#define RV_F_TARGET      (1u << 8)  /* .target is a static target */
#define RV_F_RD_X        (1u << 9)  /* writes integer rd (even x0) */
#define RV_F_RD_F        (1u << 10) /* writes FP rd */
#define RV_F_RS1_X       (1u << 11) /* reads integer rs1 */
#define RV_F_RS1_F       (1u << 12) /* reads FP rs1 */
#define RV_F_RS2_X       (1u << 13) /* reads integer rs2 */
#define RV_F_RS2_F       (1u << 14) /* reads FP rs2 */
#define RV_F_RS3_F       (1u << 15) /* reads FP rs3 */
#define RV_F_HAS_RM      (1u << 16) /* .rm is a rounding-mode field */
#define RV_F_AQ          (1u << 17) /* AMO acquire bit */
#define RV_F_RL          (1u << 18) /* AMO release bit */
#define RV_F_PROFILE     (1u << 19) /* Xtpsd profile instruction: its effect depends on
                                       profile flag .pf (pf.inc, pf.incr, pf.blk) */
#define RV_F_PFWRITE     (1u << 20) /* writes the profile flags (setpf, resetpf, pushpf,
                                       poppf) */

/* Rounding modes (struct rv_insn.rm). */
enum rv_rm {
	RV_RM_RNE = 0, RV_RM_RTZ = 1, RV_RM_RDN = 2, RV_RM_RUP = 3,
	RV_RM_RMM = 4, RV_RM_DYN = 7
};

/* A decoded instruction. Fields not used by the op are zero. */
struct rv_insn {
	enum rv_op op;       /* operation; RV_OP_ILLEGAL if not decodable */
	enum rv_fu fu;       /* functional-unit class */
	enum rv_cf cf;       /* control-transfer kind */
	enum rv_fmt fmt;     /* operand format */
	uint32_t flags;      /* RV_F_* */
	uint32_t raw;        /* instruction bits (16-bit forms zero-extended) */
	uint8_t len;         /* encoded length in bytes: 2 or 4 */
	uint8_t rd, rs1, rs2, rs3; /* register numbers (file per .flags) */
	uint8_t rm;          /* rounding mode when RV_F_HAS_RM */
	uint8_t mem_size;    /* bytes accessed by loads/stores/AMOs, else 0 */
	uint8_t pf;          /* Xtpsd: profile-flag index of an RV_F_PROFILE op */
	uint16_t csr;        /* CSR number for Zicsr ops */
	int64_t imm;         /* sign-extended immediate (U: already << 12;
	                        CSRI: uimm; FENCE: fm|pred|succ bits) */
	uint64_t target;     /* static target when RV_F_TARGET */
};

/* Status codes returned by rv_decode. */
#define RV_ERR_NEED_MORE (-1) /* buffer ends inside the instruction */
#define RV_ERR_ILLEGAL   (-2) /* not an RV64GC instruction */

/* Decode one instruction at buf[0..len) located at address pc.
 * Returns the bytes consumed (2 or 4) and fills *out; RV_ERR_NEED_MORE if
 * len is shorter than the encoding; RV_ERR_ILLEGAL for a reserved or
 * unsupported encoding, in which case out->op is RV_OP_ILLEGAL and
 * out->len/out->raw still give the encoded length and bits (len 0 for
 * encodings longer than 32 bits). Never reads beyond buf[len). */
int rv_decode(const uint8_t *buf, size_t len, uint64_t pc, struct rv_insn *out);

/* Same as rv_decode for an instruction already fetched into a 32-bit word
 * (low half-word first; the upper half is ignored for 16-bit forms). */
int rv_decode_word(uint32_t word, uint64_t pc, struct rv_insn *out);

/* Length in bytes (2 or 4) implied by the low half-word of an instruction,
 * or 0 for encodings longer than 32 bits. */
static inline int rv_insn_length(uint16_t lo)
{
	if ((lo & 3) != 3)
		return 2;
	if ((lo & 0x1c) != 0x1c)
		return 4;
	return 0;
}

/* Write the GNU objdump (binutils 2.40, default options) text of *insn at
 * address pc into buf (at most len bytes including the NUL): mnemonic,
 * a tab, then operands; branch targets as bare hex addresses. Returns the
 * length the full text has (like snprintf), or -1 if insn is illegal. */
int rv_disasm(const struct rv_insn *insn, uint64_t pc, char *buf, size_t len);

/* Canonical (non-alias) mnemonic of op, "illegal" for RV_OP_ILLEGAL. */
const char *rv_op_name(enum rv_op op);

/* ABI names: integer x0..x31 ("zero", "ra", ...) and FP f0..f31. */
const char *rv_xreg_name(unsigned r);
const char *rv_freg_name(unsigned r);

/* Standard name of a CSR, or NULL when it has none we know. */
const char *rv_csr_name(unsigned csr);

/* Classification helpers. */
static inline int rv_is_load(const struct rv_insn *i) { return (i->flags & RV_F_LOAD) != 0; }
static inline int rv_is_store(const struct rv_insn *i) { return (i->flags & RV_F_STORE) != 0; }
static inline int rv_is_amo(const struct rv_insn *i) { return (i->flags & RV_F_AMO) != 0; }
static inline int rv_is_fp(const struct rv_insn *i) { return (i->flags & RV_F_FP) != 0; }
static inline int rv_is_csr(const struct rv_insn *i) { return (i->flags & RV_F_CSR) != 0; }
static inline int rv_is_fence(const struct rv_insn *i) { return (i->flags & RV_F_FENCE) != 0; }
static inline int rv_is_serializing(const struct rv_insn *i) { return (i->flags & RV_F_SERIAL) != 0; }
static inline int rv_is_compressed(const struct rv_insn *i) { return (i->flags & RV_F_COMPRESSED) != 0; }
static inline int rv_is_control(const struct rv_insn *i) { return i->cf != RV_CF_NONE; }
static inline int rv_has_target(const struct rv_insn *i) { return (i->flags & RV_F_TARGET) != 0; }
static inline int rv_is_profile(const struct rv_insn *i) { return (i->flags & RV_F_PROFILE) != 0; }
static inline int rv_writes_pf(const struct rv_insn *i) { return (i->flags & RV_F_PFWRITE) != 0; }

#endif /* TIPROF_RV_ISA_H */
