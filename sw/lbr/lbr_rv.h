/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_rv.h - the RV64GC back end of the branch description (lbr_isa.h), over the in-project
 * decoder lib/isa (rv_isa.h). The functions here are pure and compile on any host, so the
 * adapter is unit-tested on the development machine (the tracer's test_rv.c) against
 * riscv64-linux-gnu-objdump; on a riscv64 build (__riscv) lbr_rv.c also implements the
 * lbr_isa_* contract with them (memory reads, ucontext). */
#ifndef TIPROF_LBR_RV_H
#define TIPROF_LBR_RV_H

#include <stddef.h>
#include <stdint.h>

#include "lbr_isa.h"
#include "rv_isa.h"

/* RISC-V system call numbers (asm-generic) of the calls that do not return to the next
 * instruction: evaluation gives up on them (the stack ends). */
#define LBR_RV_NR_EXIT 93
#define LBR_RV_NR_EXIT_GROUP 94
#define LBR_RV_NR_RT_SIGRETURN 139
#define LBR_RV_NR_EXECVE 221
#define LBR_RV_NR_EXECVEAT 281

/* Describe the decoded instruction `in` at pc. Returns 1 when it ends a block (*br filled:
 * beq/bne/blt/bge/bltu/bgeu and c.beqz/c.bnez -> LBR_K_COND with LBR_C_CMP over rs1/rs2;
 * jal/c.j -> JMP or CALL and jalr/c.jr/c.jalr -> IJMP, ICALL or RET by the x1/x5 link rule,
 * indirect targets as texpr = (reg[rs1] + imm) & ~1; ecall -> SYSCALL; ebreak, c.ebreak,
 * sret, mret, wfi -> STOP), 0 when it does not. `in` must be legal. */
int lbr_rv_describe(const struct rv_insn *in, uint64_t pc, struct lbr_branch *br);

/* Decode forward from pc over buf[0..len) (the code bytes at pc) to the first block end.
 * Returns the number of instructions before it (>= 0; *br filled), -1 for an illegal
 * instruction or no block end within max_insns, -2 when buf ends first (*used = the bytes
 * of whole instructions examined, so a caller can refill and continue). */
int lbr_rv_decode_buf(const uint8_t *buf, size_t len, uint64_t pc, int max_insns,
		      struct lbr_branch *br, size_t *used);

/* lbr_isa_eval for RISC-V (pure: RISC-V transfers read registers only). */
int lbr_rv_eval(const struct lbr_branch *br, const struct lbr_cpu *cpu, uint64_t *next);

/* Fill *cpu from the Linux RISC-V signal register layout: g[0] = pc, g[1..31] = x1..x31
 * (ucontext_t.uc_mcontext.__gregs, REG_PC == 0). */
void lbr_rv_cpu_from_gregs(struct lbr_cpu *cpu, const unsigned long *g);

/* lbr_isa_bp_encode for RISC-V: c.ebreak (2 bytes) over a compressed instruction, ebreak
 * (4 bytes) otherwise. */
size_t lbr_rv_bp_encode(const uint8_t *orig, uint8_t *bp);

#endif
