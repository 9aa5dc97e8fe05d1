/* SPDX-License-Identifier: Apache-2.0 */
/* M -> S -> U and back: mret into S, sret into U; ecall from S (not delegated: M, cause 9),
 * ecall from U and illegal instructions delegated to S (causes 8 and 2, with stval), ebreak
 * from U (not delegated: M, cause 3), a counter read from U without mcounteren (illegal);
 * each handler prints its cause, tval, the previous mode (MPP/SPP) and the trap's offset. */
#include "bm.h"

	.section .text.start
	.globl _start
_start:
	la sp, _stack_top
	la t0, mhandler
	csrw mtvec, t0
	la t0, shandler
	csrw stvec, t0
	PMP_ALL
	li t0, (1 << 8) | (1 << 2)	/* ecall from U, illegal instruction */
	csrw medeleg, t0
	csrr t1, medeleg
	SHOW medeleg, t1
	li t0, 3 << 11
	csrc mstatus, t0
	li t0, 1 << 11			/* MPP = S */
	csrs mstatus, t0
	la t0, s_entry
	csrw mepc, t0
	mret

s_entry:
	PUTS in_s
	ecall				/* to M */
	csrr t1, mstatus		/* illegal in S: to S */
	csrr t1, sstatus
	li t0, 0x122			/* SPP, SPIE, SIE */
	and t1, t1, t0
	SHOW sstatus, t1
	li t0, 1 << 8
	csrc sstatus, t0		/* SPP = U */
	la t0, u_entry
	csrw sepc, t0
	sret

u_entry:
	PUTS in_u
	li a7, 1
	ecall				/* to S */
	csrr t1, sstatus		/* illegal in U: to S */
	rdtime t1			/* mcounteren.TM = 0: illegal, to S */
	ebreak				/* to M */
	li a7, 99
	ecall				/* S finishes: it asks M to pass */
	FAIL 1

	.balign 4
mhandler:
	li t0, 100
	bne a7, t0, 1f
	PUTS done
	PASS
1:	PUTS m_trap
	csrr s0, mcause
	SHOW mcause, s0
	csrr s0, mtval
	SHOW mtval, s0
	csrr s0, mstatus
	srli s0, s0, 11
	andi s0, s0, 3
	SHOW mpp, s0
	csrr s2, mepc
	la t0, _start
	sub s0, s2, t0
	SHOW mepc_off, s0
	lhu t0, 0(s2)
	andi t0, t0, 3
	li t1, 3
	addi s2, s2, 2
	bne t0, t1, 2f
	addi s2, s2, 2
2:	csrw mepc, s2
	mret

	.balign 4
shandler:
	li t0, 99
	bne a7, t0, 1f
	li a7, 100
	ecall
1:	PUTS s_trap
	csrr s0, scause
	SHOW scause, s0
	csrr s0, stval
	SHOW stval, s0
	csrr s0, sstatus
	srli s0, s0, 8
	andi s0, s0, 1
	SHOW spp, s0
	csrr s2, sepc
	la t0, _start
	sub s0, s2, t0
	SHOW sepc_off, s0
	lhu t0, 0(s2)
	andi t0, t0, 3
	li t1, 3
	addi s2, s2, 2
	bne t0, t1, 2f
	addi s2, s2, 2
2:	csrw sepc, s2
	sret

	.section .rodata
in_s:	.asciz "in S\n"
in_u:	.asciz "in U\n"
m_trap:	.asciz "M trap\n"
s_trap:	.asciz "S trap\n"
done:	.asciz "done\n"
