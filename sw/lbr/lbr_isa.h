/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_isa.h - machine-independent description of control transfers for the software branch
 * tracer: what a block ends in (kind, condition, target expression), a CPU context to
 * evaluate it against, and the decode/evaluate contract each ISA back end implements
 * (lbr_x86.c for x86-64, over Zydis). Everything here is async-signal-safe: no allocation,
 * no locks, no stdio; memory is read only through lbr_isa_read (which cannot fault). */
#ifndef TIPROF_LBR_ISA_H
#define TIPROF_LBR_ISA_H

#include <stddef.h>
#include <stdint.h>

/* Kind of the control transfer that ends a block. */
enum lbr_kind {
	LBR_K_COND = 1,  /* conditional direct branch: taken iff `cond` holds */
	LBR_K_JMP,       /* unconditional direct jump: always taken, target static */
	LBR_K_CALL,      /* direct call: always taken, target static */
	LBR_K_RET,       /* return: target = load(stack pointer) */
	LBR_K_IJMP,      /* indirect jump: target = `texpr` */
	LBR_K_ICALL,     /* indirect call: target = `texpr` */
	LBR_K_SYSCALL,   /* system call: falls through unless it is one that never returns here */
	LBR_K_STOP,      /* cannot be followed (trap, halt, far transfer, undefined, ...) */
};

/* Condition of an LBR_K_COND transfer. */
enum lbr_cond_kind {
	LBR_C_FLAGS = 1, /* x86 condition code `cc` (0..15, the Jcc low nibble) over the flags */
	LBR_C_REGZ,      /* taken iff register `reg` (low `width` bytes) is zero (jrcxz) */
	LBR_C_LOOP,      /* reg-- ; taken iff reg != 0 and (cc==LOOP_ANY or ZF matches) (loop*) */
	LBR_C_CMP,       /* compare reg[reg] with reg[reg2] by `cc` (enum lbr_cmp; RISC-V B-type) */
};

/* Comparison of an LBR_C_CMP condition (RISC-V beq/bne/blt/bge/bltu/bgeu). */
enum lbr_cmp { LBR_CMP_EQ = 0, LBR_CMP_NE, LBR_CMP_LT, LBR_CMP_GE, LBR_CMP_LTU, LBR_CMP_GEU };
#define LBR_LOOP_ANY 0xff /* `cc` of a plain LOOP */

/* A target expression: value = imm, or reg[base] + disp (x86: disp 0; RISC-V jalr: the sum
 * with bit 0 cleared), or load(size, seg + reg[base] + reg[index]*scale + disp). Register
 * numbers index lbr_cpu.reg; LBR_REG_NONE = absent. */
enum lbr_expr_kind { LBR_X_IMM = 1, LBR_X_REG, LBR_X_MEM };
enum lbr_seg { LBR_SEG_NONE = 0, LBR_SEG_FS, LBR_SEG_GS };
#define LBR_REG_NONE 0xff

struct lbr_expr {
	uint8_t kind;    /* enum lbr_expr_kind */
	uint8_t base;    /* base register or LBR_REG_NONE */
	uint8_t index;   /* index register or LBR_REG_NONE */
	uint8_t scale;   /* 1, 2, 4, 8 */
	uint8_t seg;     /* enum lbr_seg */
	uint8_t size;    /* bytes loaded (MEM) or register width in bytes (REG) */
	int64_t disp;    /* displacement (MEM: RIP-relative already resolved) or immediate (IMM) */
};

/* The transfer that ends a decoded block. */
struct lbr_branch {
	uint64_t pc;         /* address of the transfer instruction */
	uint8_t len;         /* its length in bytes */
	uint8_t kind;        /* enum lbr_kind */
	uint8_t cond_kind;   /* enum lbr_cond_kind (LBR_K_COND only) */
	uint8_t cc;          /* condition code (LBR_C_FLAGS, LBR_C_LOOP) */
	uint8_t reg;         /* counter register (LBR_C_REGZ, LBR_C_LOOP) */
	uint8_t width;       /* counter width in bytes (LBR_C_REGZ, LBR_C_LOOP) */
	uint8_t reg2;        /* second compared register (LBR_C_CMP) */
	uint8_t ctr_type;    /* RISC-V CTR transfer type when taken (enum lbr_ctr_type), set by
	                      * the back end from the instruction's registers (lbr_rv.c); 0 =
	                      * derive from `kind` (lbr_ctr_type_of) */
	uint64_t target;     /* static target (COND, JMP, CALL) */
	struct lbr_expr texpr; /* target expression (IJMP, ICALL; RET on RISC-V, where a return
	                        * is `jalr x0, imm(x1|x5)`: value = reg + disp, not a load) */
};

/* Register file seen at a stop, built from the signal's ucontext. */
#define LBR_NREG 32
struct lbr_cpu {
	uint64_t reg[LBR_NREG]; /* x86-64: rax rcx rdx rbx rsp rbp rsi rdi r8..r15 (encoding order,
	                         * 0..15); RISC-V: x0..x31 (reg[0] == 0) */
	uint64_t pc;            /* address of the next instruction to execute */
	uint64_t flags;         /* rflags (x86-64; 0 on RISC-V) */
	uint64_t sp;            /* stack pointer (copy of reg[4] on x86-64, reg[2] on RISC-V) */
};

/* Decoder state of one back end (opaque bytes so callers can embed it). */
struct lbr_isa {
	uint64_t opaque[8];
};

/* Initialise the decoder for the native machine. Returns 0 or a negative errno. */
int lbr_isa_init(struct lbr_isa *isa);

/* Decode forward from `pc` (an instruction boundary) to the first control transfer and
 * describe it in *br. At most `max_insns` instructions are examined. Returns the number of
 * instructions before the transfer (>= 0), or -1 when the bytes cannot be read or decoded or
 * no transfer is found within the limit. Reads code through lbr_isa_read. */
int lbr_isa_decode_block(const struct lbr_isa *isa, uint64_t pc, int max_insns,
			 struct lbr_branch *br);

/* Evaluate the transfer `br` in context `cpu` (taken before `br` executes, so cpu->pc ==
 * br->pc). Sets *next to the address of the next instruction to execute and returns 1 if
 * the transfer is taken, 0 if it falls through, -1 if it cannot be evaluated (unreadable
 * target memory, LBR_K_STOP). LBR_K_SYSCALL returns 0 with *next = pc + len, or -1 for
 * the system calls that do not return to the next instruction (rt_sigreturn, execve, exit). */
int lbr_isa_eval(const struct lbr_branch *br, const struct lbr_cpu *cpu, uint64_t *next);

/* Fill *cpu from a signal handler's ucontext_t. */
void lbr_isa_cpu_from_ucontext(struct lbr_cpu *cpu, const void *uc);

/* Read `len` bytes of this process's memory at `addr` without faulting (process_vm_readv on
 * ourselves). Returns 0 on success, -1 if any byte is unreadable. Async-signal-safe. */
int lbr_isa_read(void *dst, uint64_t addr, size_t len);

/* Read up to `len` bytes at addr (lbr_mem.c); returns how many leading bytes were readable. */
size_t lbr_isa_read_partial(uint8_t *dst, uint64_t addr, size_t len);

/* ---- software breakpoints and ucontext access (lbr_stop_sw.c, signal entry) */

#define LBR_BP_MAX 4 /* longest breakpoint instruction, bytes */

/* The breakpoint instruction to write over the instruction whose first bytes are
 * orig[0..LBR_BP_MAX): x86-64 `int3` (0xCC, 1 byte); RISC-V `c.ebreak` (2 bytes) when the
 * patched instruction is compressed, else `ebreak` (4 bytes), so the patch never spans two
 * instructions. Writes bp[0..len) and returns len. Pure. */
size_t lbr_isa_bp_encode(const uint8_t *orig, uint8_t *bp);

/* Set by a mechanism that patches code (lbr_stop_sw.c) before any decoding, else NULL:
 * replaces, in buf (the `len` code bytes read at `addr`), the bytes of breakpoints it wrote
 * with the original ones, so decoders never see the tracer's own patches. Decoders call it
 * on every code read. Async-signal-safe. */
extern void (*lbr_isa_code_view)(uint8_t *buf, uint64_t addr, size_t len);

/* The program counter in a signal handler's ucontext_t, and setting it. */
uint64_t lbr_isa_uc_pc(const void *uc);
void lbr_isa_uc_set_pc(void *uc, uint64_t pc);

/* Address of the breakpoint instruction that raised a SIGTRAP with context uc (x86-64: the
 * PC after `int3` minus 1; RISC-V: the PC of `ebreak` itself). */
uint64_t lbr_isa_bp_addr(const void *uc);

/* True when `kind` is resolved by look-ahead alone (no stop needed). */
static inline int lbr_kind_is_static(uint8_t kind)
{
	return kind == LBR_K_JMP || kind == LBR_K_CALL;
}

/* The CTR type a taken transfer `br` is recorded with: the back end's, else by kind. */
static inline uint8_t lbr_ctr_type_of(const struct lbr_branch *br)
{
	static const uint8_t by_kind[] = { 0, 5 /*TKBR*/, 11 /*DJMP*/, 9 /*DCALL*/, 13 /*RET*/,
					   10 /*IJMP*/, 8 /*ICALL*/, 0, 0 };
	if (br->ctr_type)
		return br->ctr_type;
	return br->kind < sizeof(by_kind) ? by_kind[br->kind] : 0;
}

/* Short name of a kind ("cond", "jmp", ...), for dumps and tests. */
const char *lbr_kind_name(uint8_t kind);

#endif
