/* SPDX-License-Identifier: Apache-2.0 */
/* Atomics across modes: LR/SC success, SC without a reservation, SC to another address,
 * a trap between LR and SC (the reservation is lost), every AMO's old value and result in
 * M-mode and again in U-mode; misaligned plain loads and stores (done in hardware, as QEMU
 * does). */
#include "bm.h"

.macro AMOS
	la s0, cell
	li t1, 5
	sd t1, 0(s0)
	li t2, 3
	amoadd.d s1, t2, (s0)
	amoxor.d s2, t2, (s0)
	amoor.d s3, t2, (s0)
	amoand.d s4, t2, (s0)
	li t2, -7
	amomin.d s5, t2, (s0)
	amomaxu.d s6, t2, (s0)
	li t2, 9
	amoswap.w s7, t2, (s0)
	amomax.w s8, t2, (s0)
	amominu.w s9, t2, (s0)
	ld s10, 0(s0)
	/* LR/SC */
	lr.d t1, (s0)
	addi t1, t1, 1
	sc.d s11, t1, (s0)		/* 0: success */
	ld t1, 0(s0)
	add s10, s10, t1
	sc.d t2, t1, (s0)		/* no reservation: 1 */
	add s11, s11, t2
	la t3, cell2
	lr.d t1, (s0)
	sc.d t2, t1, (t3)		/* another address: 1 */
	slli t2, t2, 4
	add s11, s11, t2
.endm

	.section .text.start
	.globl _start
_start:
	la sp, _stack_top
	la t0, mhandler
	csrw mtvec, t0
	PMP_ALL
	AMOS
	call show
	/* a trap between LR and SC */
	la s0, cell
	lr.d t1, (s0)
	ecall				/* a7 = 0: the handler returns */
	sc.d t2, t1, (s0)
	SHOW sc_after_trap, t2
	/* misaligned plain accesses */
	la s0, cell2
	li t1, 0x1122334455667788
	sd t1, 3(s0)
	ld t2, 3(s0)
	SHOW misaligned, t2
	lw t2, 1(s0)
	SHOW misaligned_w, t2
	/* the same AMOs in U-mode */
	li t0, 3 << 11
	csrc mstatus, t0
	la t0, u_entry
	csrw mepc, t0
	mret
u_entry:
	AMOS
	li a7, 1
	ecall				/* back to M: show, then pass */

show:	mv s0, ra
	SHOW add, s1
	SHOW xor, s2
	SHOW or, s3
	SHOW and, s4
	SHOW min, s5
	SHOW maxu, s6
	SHOW swapw, s7
	SHOW maxw, s8
	SHOW minuw, s9
	SHOW final, s10
	SHOW sc, s11
	mv ra, s0
	ret

	.balign 4
mhandler:
	csrr t0, mepc
	addi t0, t0, 4
	csrw mepc, t0
	bnez a7, 1f
	mret
1:	PUTS in_u
	call show
	PUTS done
	PASS

	.section .rodata
in_u:	.asciz "U-mode:\n"
done:	.asciz "done\n"
	.data
	.balign 16
cell:	.dword 0, 0
cell2:	.dword 0, 0, 0
