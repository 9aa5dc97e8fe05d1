/* SPDX-License-Identifier: Apache-2.0 */
/* Interrupts: the CLINT timer (mtimecmp, WFI wakes on it) and software interrupt (msip) in
 * M-mode, vectored mtvec; a supervisor timer interrupt injected by M through mip.STIP and
 * delegated with mideleg (taken in S, stvec direct); a supervisor software interrupt from S
 * itself (sip.SSIP); interrupts held pending while disabled (mstatus.MIE = 0) are taken
 * when enabled, MSI before MTI when both are; sie as mie masked by mideleg. Each handler
 * prints its cause. */
#include "bm.h"

#define MTIMECMP (CLINT_BASE + 0x4000)
#define MTIME    (CLINT_BASE + 0xbff8)

	.section .text.start
	.globl _start
_start:
	la sp, _stack_top
	la t0, mvec
	ori t0, t0, 1			/* vectored */
	csrw mtvec, t0
	la t0, shandler
	csrw stvec, t0
	PMP_ALL

	/* M timer: mtimecmp = mtime + 100, wfi with MIE = 0 (wakes, no trap), then enable */
	li s0, MTIME
	ld t1, 0(s0)
	addi t1, t1, 100
	li s0, MTIMECMP
	sd t1, 0(s0)
	li t0, 1 << 7
	csrs mie, t0
	wfi
	csrr t1, mip
	andi t1, t1, 1 << 7
	SHOW mip_mtip, t1
	csrsi mstatus, 8		/* MIE: taken now */
	PUTS after_mti

	/* M software interrupt */
	li t0, 1 << 3
	csrs mie, t0
	li s0, CLINT_BASE
	li t1, 1
	sw t1, 0(s0)
1:	lw t1, 0(s0)			/* the handler clears msip */
	bnez t1, 1b
	PUTS after_msi

	/* both pending while MIE = 0, then enabled: MSI is taken before MTI */
	csrci mstatus, 8
	li s0, MTIMECMP
	sd zero, 0(s0)
	li s0, CLINT_BASE
	li t1, 1
	sw t1, 0(s0)
	csrsi mstatus, 8
	PUTS after_both

	/* S timer injected by M, delegated: taken in S */
	csrci mstatus, 8
	li t0, (1 << 5) | (1 << 1)
	csrw mideleg, t0
	csrs mie, t0
	li t0, 3 << 11
	csrc mstatus, t0
	li t0, 1 << 11
	csrs mstatus, t0
	la t0, s_entry
	csrw mepc, t0
	li t0, 1 << 5
	csrs mip, t0			/* STIP pending; taken once S enables SIE */
	mret

s_entry:
	PUTS in_s
	csrr t1, sie			/* mie & mideleg: STIE, SSIE */
	SHOW sie, t1
	csrsi sstatus, 2		/* SIE */
	PUTS after_sti
	csrsi sip, 2			/* SSIP from S */
	PUTS after_ssi
	li a7, 1
	ecall

	.balign 4
mvec:	/* vectored: 0 exceptions, 3 MSI, 7 MTI */
	j mexc
	.balign 4
	j mexc
	.balign 4
	j mexc
	.balign 4
	j msi
	.balign 4
	j mexc
	.balign 4
	j mexc
	.balign 4
	j mexc
	.balign 4
	j mti

mti:	csrr s1, mcause
	SHOW mcause, s1
	li s0, MTIMECMP
	li t1, -1
	sd t1, 0(s0)			/* no further timer interrupt */
	mret
msi:	csrr s1, mcause
	SHOW mcause, s1
	li s0, CLINT_BASE
	sw zero, 0(s0)
	mret
mexc:	csrr s1, mcause
	SHOW mcause, s1
	li t0, 9
	bne s1, t0, 1f
	PUTS done
	PASS
1:	FAIL 3

	.balign 4
shandler:
	csrr s1, scause
	SHOW scause, s1
	li t0, 1 << 5
	csrc sip, t0			/* read-only from S: STIP stays */
	csrr t1, sip
	SHOW sip, t1
	li t0, 1 << 1
	csrc sip, t0			/* SSIP clears */
	csrr s1, scause
	slli s1, s1, 1
	srli s1, s1, 1
	li t0, 5
	bne s1, t0, 1f
	li t0, 1 << 5			/* STI: S cannot clear STIP; disable it instead */
	csrc sie, t0
1:	sret

	.section .rodata
after_mti:	.asciz "after MTI\n"
after_msi:	.asciz "after MSI\n"
after_both:	.asciz "after MSI and MTI\n"
in_s:		.asciz "in S\n"
after_sti:	.asciz "after STI\n"
after_ssi:	.asciz "after SSI\n"
done:		.asciz "done\n"
