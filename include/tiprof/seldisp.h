/* SPDX-License-Identifier: (GPL-2.0-only OR Apache-2.0) */
/* Xtpsd, tiprof's selective-dispatch extension (docs/seldisp.md): the one definition of its
 * encodings, its flag-state CSR and the assembler forms that emit it.
 *
 *  - Host C (the decoder in lib/isa, the ISS, the timing model, the tools) reads the
 *    TIPROF_SD_* constants and the flag state machine tiprof_sd_flag_op()/tiprof_sd_warl().
 *  - RISC-V C built with Debian's riscv64-linux-gnu-gcc uses the TP_* statement macros
 *    (GNU `.insn` inside inline asm; binutils 2.40 needs no patch).
 *  - RISC-V assembler (.S, preprocessed) gets the same instructions as assembler macros:
 *    setpf MASK, resetpf MASK, pushpf, poppf, pf.blk F, LABEL, pf.inc F, SYMBOL,
 *    pf.incr F, OFF(REG)  (spelled pf_blk, pf_inc, pf_incr: gas macro names take no dots).
 *
 * Every constant is a bare literal so that it can be pasted into an assembler string. */
#ifndef TIPROF_SELDISP_H
#define TIPROF_SELDISP_H

/* ---- architecture parameters -------------------------------------------------------- */
#define TIPROF_SD_NFLAGS       4     /* independent profile flags f = 0..3 */
#define TIPROF_SD_FLAGS_MASK   0xf
#define TIPROF_SD_STACK_DEPTH  8     /* pushpf entries held before the overflow count */
#define TIPROF_SD_OVF_MAX      0xffff

/* ---- major opcodes (RISC-V custom-0 and custom-1) ----------------------------------- */
#define TIPROF_SD_OPC_CTL      0x0b  /* custom-0: flag control, pf.blk, pf.incr */
#define TIPROF_SD_OPC_INC      0x2b  /* custom-1: pf.inc (J-type, the whole opcode) */

/* custom-0 funct3 */
#define TIPROF_SD_F3_FLAG      0     /* R-type: setpf/resetpf/pushpf/poppf by funct7 */
#define TIPROF_SD_F3_BLK       1     /* B-type: pf.blk f, follow (rs1 field = f, rs2 = 0) */
#define TIPROF_SD_F3_INCR      2     /* I-type: pf.incr f, off(rs1) (rd field = f) */
/* funct3 3..7 of custom-0 are reserved (illegal). */

/* funct7 of the flag-control R-type (rd = rs1 = 0; rs2 field = flag mask, bit 4 zero).
 * setpf and resetpf differ in instruction bit 25 only, so a runtime switches a function's
 * profiling by rewriting that one bit of its entry instruction. */
#define TIPROF_SD_FN_SETPF     0
#define TIPROF_SD_FN_RESETPF   1
#define TIPROF_SD_FN_PUSHPF    2     /* rs2 field must be 0 */
#define TIPROF_SD_FN_POPPF     3     /* rs2 field must be 0 */

/* ---- the flag-state CSR ----------------------------------------------------------------
 * pfstate, user read/write custom CSR 0x8c0 (the U-mode custom range 0x800-0x8ff); a kernel
 * saves and restores it with the other per-thread state. Reads return the fields below with
 * every other bit zero; writes are WARL: DEPTH above 8 reads 8, stack entries at and above
 * DEPTH read 0, reserved bits are ignored. */
#define TIPROF_SD_CSR_PFSTATE  0x8c0
#define TIPROF_SD_ST_FLAGS_SHIFT  0   /* [3:0]   the current flags */
#define TIPROF_SD_ST_DEPTH_SHIFT  4   /* [7:4]   stack entries in use, 0..8 */
#define TIPROF_SD_ST_DEPTH_MASK   0xf
#define TIPROF_SD_ST_OVF_SHIFT    8   /* [23:8]  pushpf beyond the depth, not yet popped */
#define TIPROF_SD_ST_OVF_MASK     0xffff
#define TIPROF_SD_ST_ERR_SHIFT    24  /* [24]    sticky: poppf on an empty stack or OVF full */
#define TIPROF_SD_ST_STACK_SHIFT  32  /* [63:32] entry i (i = 0 oldest) at 32+4i .. 35+4i */

/* ---- RISC-V side: instructions as GNU assembler text -------------------------------- */
#define TP__STR2(x) #x
#define TP__STR(x) TP__STR2(x)

#ifdef __ASSEMBLER__

	.macro setpf mask
	.insn r TIPROF_SD_OPC_CTL, TIPROF_SD_F3_FLAG, TIPROF_SD_FN_SETPF, x0, x0, x\mask
	.endm
	.macro resetpf mask
	.insn r TIPROF_SD_OPC_CTL, TIPROF_SD_F3_FLAG, TIPROF_SD_FN_RESETPF, x0, x0, x\mask
	.endm
	.macro pushpf
	.insn r TIPROF_SD_OPC_CTL, TIPROF_SD_F3_FLAG, TIPROF_SD_FN_PUSHPF, x0, x0, x0
	.endm
	.macro poppf
	.insn r TIPROF_SD_OPC_CTL, TIPROF_SD_F3_FLAG, TIPROF_SD_FN_POPPF, x0, x0, x0
	.endm
	/* pf_blk F, FOLLOW: the instructions up to the label FOLLOW form a profile block of
	 * flag F (skipped when F is clear). */
	.macro pf_blk f, follow
	.insn b TIPROF_SD_OPC_CTL, TIPROF_SD_F3_BLK, x\f, x0, \follow
	.endm
	/* pf_inc F, SYM: the 64-bit counter at SYM (within +-1 MiB) += 1 when F is set. */
	.macro pf_inc f, sym
	.insn j TIPROF_SD_OPC_INC, x\f, \sym
	.endm
	/* pf_incr F, OFF(REG): the 64-bit counter at REG+OFF += 1 when F is set. */
	.macro pf_incr f, mem
	.insn i TIPROF_SD_OPC_CTL, TIPROF_SD_F3_INCR, x\f, \mem
	.endm

#else /* C */

#include <stdint.h>

/* ---- the flag state machine: one definition for the ISS, the timing model's speculative
 * copy and the tools (docs/seldisp.md section 3) ------------------------------------------ */

/* The canonical pfstate of the fields: DEPTH at most 8, entries at and above DEPTH zero,
 * reserved bits zero. */
static inline uint64_t tiprof_sd_pack(unsigned flags, unsigned depth, unsigned ovf,
				      unsigned err, uint64_t stack)
{
	uint64_t keep;

	if (depth > TIPROF_SD_STACK_DEPTH)
		depth = TIPROF_SD_STACK_DEPTH;
	keep = depth ? (~0ull >> (64 - 4 * depth)) : 0;
	return (uint64_t)(flags & TIPROF_SD_FLAGS_MASK) |
	       (uint64_t)depth << TIPROF_SD_ST_DEPTH_SHIFT |
	       (uint64_t)(ovf & TIPROF_SD_ST_OVF_MASK) << TIPROF_SD_ST_OVF_SHIFT |
	       (uint64_t)(err & 1) << TIPROF_SD_ST_ERR_SHIFT |
	       (stack & keep & 0xffffffffull) << TIPROF_SD_ST_STACK_SHIFT;
}

/* Field accessors of a pfstate value. */
static inline unsigned tiprof_sd_flags(uint64_t st) { return (unsigned)st & TIPROF_SD_FLAGS_MASK; }
static inline unsigned tiprof_sd_flag(uint64_t st, unsigned f) { return (unsigned)(st >> f) & 1; }
static inline unsigned tiprof_sd_depth(uint64_t st)
{
	return (unsigned)(st >> TIPROF_SD_ST_DEPTH_SHIFT) & TIPROF_SD_ST_DEPTH_MASK;
}
static inline unsigned tiprof_sd_ovf(uint64_t st)
{
	return (unsigned)(st >> TIPROF_SD_ST_OVF_SHIFT) & TIPROF_SD_ST_OVF_MASK;
}
static inline unsigned tiprof_sd_err(uint64_t st) { return (unsigned)(st >> TIPROF_SD_ST_ERR_SHIFT) & 1; }
/* Stack entry k (0 = oldest). */
static inline unsigned tiprof_sd_entry(uint64_t st, unsigned k)
{
	return (unsigned)(st >> (TIPROF_SD_ST_STACK_SHIFT + 4 * k)) & 0xf;
}

/* What a csrw of v to pfstate leaves there (WARL). */
static inline uint64_t tiprof_sd_warl(uint64_t v)
{
	return tiprof_sd_pack(tiprof_sd_flags(v), tiprof_sd_depth(v), tiprof_sd_ovf(v),
			      tiprof_sd_err(v), v >> TIPROF_SD_ST_STACK_SHIFT);
}

/* pfstate after a flag-control instruction: fn = its funct7 (TIPROF_SD_FN_*), m = its mask.
 * pushpf beyond the stack's depth counts in OVF (ERR when OVF is at its limit); poppf first
 * undoes those, leaving the flags as they are; poppf on an empty stack leaves them and sets
 * ERR. */
static inline uint64_t tiprof_sd_flag_op(uint64_t st, unsigned fn, unsigned m)
{
	uint64_t stack = st >> TIPROF_SD_ST_STACK_SHIFT;
	unsigned flags = tiprof_sd_flags(st), depth = tiprof_sd_depth(st), ovf = tiprof_sd_ovf(st);
	unsigned err = tiprof_sd_err(st);

	switch (fn) {
	case TIPROF_SD_FN_SETPF:
		flags |= m;
		break;
	case TIPROF_SD_FN_RESETPF:
		flags &= ~m;
		break;
	case TIPROF_SD_FN_PUSHPF:
		if (depth < TIPROF_SD_STACK_DEPTH) {
			stack |= (uint64_t)flags << (4 * depth);
			depth++;
		} else if (ovf < TIPROF_SD_OVF_MAX) {
			ovf++;
		} else {
			err = 1;
		}
		break;
	default: /* TIPROF_SD_FN_POPPF */
		if (ovf) {
			ovf--;
		} else if (depth) {
			depth--;
			flags = tiprof_sd_entry(st, depth);
			stack &= ~(0xfull << (4 * depth));
		} else {
			err = 1;
		}
		break;
	}
	return tiprof_sd_pack(flags, depth, ovf, err, stack);
}

/* ---- RISC-V side: the instructions as C statements ----------------------------------- */

/* The flag-control instructions. MASK and F are literals (0..15, 0..3). Each is a compiler
 * barrier for memory ("memory" clobber), so counters are not cached in registers across it. */
#define TP_SETPF(mask)                                                                       \
	__asm__ volatile(".insn r " TP__STR(TIPROF_SD_OPC_CTL) ", 0, 0, x0, x0, x" #mask        \
			 ::: "memory")
#define TP_RESETPF(mask)                                                                     \
	__asm__ volatile(".insn r " TP__STR(TIPROF_SD_OPC_CTL) ", 0, 1, x0, x0, x" #mask        \
			 ::: "memory")
#define TP_PUSHPF()                                                                          \
	__asm__ volatile(".insn r " TP__STR(TIPROF_SD_OPC_CTL) ", 0, 2, x0, x0, x0" ::: "memory")
#define TP_POPPF()                                                                           \
	__asm__ volatile(".insn r " TP__STR(TIPROF_SD_OPC_CTL) ", 0, 3, x0, x0, x0" ::: "memory")

/* pf.inc f, SYM: SYM is the assembler name of a 64-bit counter (a global or file-scope C
 * variable's name; keep it referenced, e.g. __attribute__((used))), within +-1 MiB of the
 * instruction (R_RISCV_JAL; in a shared object give it hidden visibility). */
#define TP_PF_INC(f, sym)                                                                    \
	__asm__ volatile(".insn j " TP__STR(TIPROF_SD_OPC_INC) ", x" #f ", " #sym ::: "memory")

/* pf.incr f, off(base): the counter at base + off (off a literal, -2048..2047). */
#define TP_PF_INCR(f, base, off)                                                             \
	__asm__ volatile(".insn i " TP__STR(TIPROF_SD_OPC_CTL) ", 2, x" #f ", " #off "(%0)"     \
			 :: "r"(base) : "memory")

/* A profile block of flag f around assembler text BODY (a string; its own local labels
 * must not be "9"): skipped as a whole when f is clear. Operands and clobbers as for asm. */
#define TP_PF_BLK_ASM(f, body, ...)                                                          \
	__asm__ volatile(".insn b " TP__STR(TIPROF_SD_OPC_CTL) ", 1, x" #f ", x0, 9f\n\t"       \
			 body "\n9:" __VA_ARGS__)

/* Read and write the flag state (pfstate, 0x8c0). */
#define TP_PFSTATE_READ()                                                                    \
	({ unsigned long tp__v; __asm__ volatile("csrr %0, " TP__STR(TIPROF_SD_CSR_PFSTATE)     \
						 : "=r"(tp__v) :: "memory"); tp__v; })
#define TP_PFSTATE_WRITE(v)                                                                  \
	__asm__ volatile("csrw " TP__STR(TIPROF_SD_CSR_PFSTATE) ", %0" :: "r"(v) : "memory")

#endif /* __ASSEMBLER__ */

#endif /* TIPROF_SELDISP_H */
