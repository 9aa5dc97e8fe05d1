/* SPDX-License-Identifier: Apache-2.0 */
/* Sscofpmf: mhpmcounter3 counting instructions (mhpmevent3 = 2) from -2000 overflows; OF
 * is set, scountovf shows it to S, and the local counter-overflow interrupt (13),
 * delegated, is taken in S, which clears sip.LCOFIP. A counter with UINH/SINH set counts
 * nothing in S; mcountinhibit stops a counter, mcycle and minstret. QEMU 7.2 counts these events from its clock,
 * not per instruction (its overflow comes at another point and the run then hangs), so the
 * output is compared with bm_hpm.expect, written from the specification. */
#include "bm.h"

#define LCOFI 13

	.section .text.start
	.globl _start
_start:
	la sp, _stack_top
	la t0, mhandler
	csrw mtvec, t0
	la t0, shandler
	csrw stvec, t0
	PMP_ALL
	li t0, -1
	csrw mcounteren, t0
	li t0, 1 << LCOFI
	csrw mideleg, t0
	csrs mie, t0
	/* counter 4: instructions, but not in S (SINH): must not move in S */
	li t0, (1 << 61) | 2
	csrw mhpmevent4, t0
	csrw mhpmcounter4, zero
	/* counter 5: inhibited by mcountinhibit */
	li t0, 1 << 5
	csrw mcountinhibit, t0
	li t0, 2
	csrw mhpmevent5, t0
	csrw mhpmcounter5, zero
	/* mcycle and minstret stop while mcountinhibit.CY/IR are set, count again after */
	li t0, 5
	csrs mcountinhibit, t0
	csrr s8, mcycle
	csrr s9, minstret
	nop
	nop
	csrr s10, mcycle
	csrr s11, minstret
	sub s8, s10, s8
	sub s9, s11, s9
	csrc mcountinhibit, t0
	csrr s10, minstret
	nop
	nop
	csrr s11, minstret
	sub s10, s11, s10
	/* counter 3: instructions, overflows after 2000 */
	li t0, 2
	csrw mhpmevent3, t0
	li t0, -2000
	csrw mhpmcounter3, t0
	li t0, 3 << 11
	csrc mstatus, t0
	li t0, 1 << 11
	csrs mstatus, t0
	la t0, s_entry
	csrw mepc, t0
	mret

s_entry:
	li s1, 0			/* set by the handler */
	csrsi sstatus, 2		/* SIE */
	li s2, 1000000
1:	bnez s1, 2f
	addi s2, s2, -1
	bnez s2, 1b
2:	SHOW overflow_taken, s1
	SHOW scountovf_seen, s3
	ecall				/* to M: the other counters */

	.balign 4
shandler:
	csrr s3, scause
	SHOW scause, s3
	csrr s3, scountovf
	andi s3, s3, 8			/* counter 3's bit */
	li t0, 1 << LCOFI
	csrc sip, t0
	csrr t1, sip
	srli t1, t1, LCOFI
	andi t1, t1, 1
	SHOW sip_lcofip_after_clear, t1
	li t0, 1 << LCOFI
	csrc sie, t0
	li s1, 1
	sret

	.balign 4
mhandler:
	csrr s4, mhpmcounter4
	csrr s5, mhpmcounter5
	csrr s6, mhpmevent3
	srli s6, s6, 63
	SHOW of3, s6
	sltiu s4, s4, 200		/* only the M-mode instructions since it started */
	SHOW c4_small, s4
	SHOW c5, s5
	SHOW mcycle_inhibited, s8
	SHOW minstret_inhibited, s9
	SHOW minstret_running, s10
	PUTS done
	PASS

	.section .rodata
done:	.asciz "done\n"
