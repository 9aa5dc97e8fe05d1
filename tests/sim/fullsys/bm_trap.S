/* SPDX-License-Identifier: Apache-2.0 */
/* Traps into M-mode: illegal instruction, ecall, ebreak, load/store access faults,
 * misaligned atomics, an unimplemented CSR, FP with mstatus.FS = Off; the handler prints mcause, mtval and where it
 * trapped (mepc relative to _start), then skips the instruction. Also mscratch, misa's
 * extensions, mstatus's MPP/MPIE after a trap and mret. */
#include "bm.h"

	.section .text.start
	.globl _start
_start:
	la sp, _stack_top
	la t0, handler
	csrw mtvec, t0
	PUTS hello

	.word 0			/* illegal (all zeros) */
	.word 0xffffffff	/* illegal */
	ecall
	ebreak
	li a1, 0x10
	ld a2, 0(a1)		/* load access fault (nothing at 0x10) */
	sd a2, 0(a1)		/* store access fault */
	la a1, data
	/* (a misaligned AMO is cause 6 by the spec, which tiprof-fs follows; QEMU 7.2 reports 4,
	 * so it is not compared here) */
	addi a3, a1, 4
	lr.d a2, (a3)		/* misaligned LR: cause 4 */
	csrr a2, 0x7c0		/* a custom M CSR that does not exist */
	csrw mhartid, a2	/* read-only CSR */
	csrw cycle, a2		/* read-only counter */
	/* FP with mstatus.FS = Off (as at reset): illegal, FP CSRs too; then on: Dirty */
	li t0, 3 << 13
	csrc mstatus, t0
	fmv.d.x f1, a1		/* illegal */
	frcsr a2		/* illegal */
	li t0, 1 << 13
	csrs mstatus, t0	/* Initial */
	fmv.d.x f1, a1
	csrr t1, mstatus
	srli t1, t1, 13
	andi t1, t1, 3
	SHOW fs_after_fp, t1
	li t0, 3 << 13
	csrc mstatus, t0

	li t0, 0x1234
	csrw mscratch, t0
	csrr t1, mscratch
	SHOW mscratch, t1
	csrr t1, misa
	li t0, 0x3ffff7f	/* not H: QEMU 7.2 has it, tiprof-fs does not */
	and t1, t1, t0
	SHOW misa_ext, t1
	/* MPIE/MPP after mret to M with MIE set before a trap */
	csrsi mstatus, 8
	ecall
	csrr t1, mstatus
	li t0, 0x1888
	and t1, t1, t0
	SHOW mstatus_after, t1
	PUTS done
	PASS

	.balign 4
handler:
	csrr s0, mcause
	csrr s1, mtval
	csrr s2, mepc
	csrr s3, mstatus
	SHOW mcause, s0
	SHOW mtval, s1
	la t0, _start
	sub s4, s2, t0
	SHOW mepc_off, s4
	li t0, 0x1888		/* MPP, MPIE, MIE */
	and s3, s3, t0
	SHOW mstatus, s3
	/* skip the trapping instruction (2 or 4 bytes) */
	lhu t0, 0(s2)
	andi t0, t0, 3
	li t1, 3
	addi s2, s2, 2
	bne t0, t1, 1f
	addi s2, s2, 2
1:	csrw mepc, s2
	mret

	.section .rodata
hello:	.asciz "bm_trap\n"
done:	.asciz "done\n"
	.data
	.balign 8
data:	.dword 0x1122334455667788, 0
