/* SPDX-License-Identifier: Apache-2.0 */
/* Bare-metal test programs for the full-system machine (tests/sim/fullsys/run.sh runs each
 * on tiprof-fs and on qemu-system-riscv64 -machine virt -bios none; the UART output must be
 * equal). Include at the top of a .S file; define _start in .text.start. Routines clobber
 * only t0-t6 and a0 (puthex: a0). */
#define UART_BASE 0x10000000
#define TEST_BASE 0x100000
#define CLINT_BASE 0x2000000

/* print the NUL-terminated string at label */
.macro PUTS label
	la a0, \label
	call bm_puts
.endm
/* print "name=<16 hex digits>\n" for register reg */
.macro SHOW name, reg
	.pushsection .rodata
1:	.asciz "\name="
	.popsection
	mv t6, \reg
	la a0, 1b
	call bm_puts
	mv a0, t6
	call bm_puthex
.endm
/* the test device: pass (power-off) or fail with code */
.macro PASS
	li t0, TEST_BASE
	li t1, 0x5555
	sw t1, 0(t0)
99:	j 99b
.endm
.macro FAIL code
	li t0, TEST_BASE
	li t1, (\code << 16) | 0x3333
	sw t1, 0(t0)
99:	j 99b
.endm
/* open PMP entry 0 over everything (QEMU denies S/U accesses without a PMP entry) */
.macro PMP_ALL
	li t0, -1
	srli t0, t0, 10
	csrw pmpaddr0, t0
	li t0, 0x1f
	csrw pmpcfg0, t0
.endm

	.text
bm_putc:	/* a0 = character */
	li t0, UART_BASE
1:	lbu t1, 5(t0)
	andi t1, t1, 0x20
	beqz t1, 1b
	sb a0, 0(t0)
	ret
bm_puts:	/* a0 = string */
	li t0, UART_BASE
	mv t2, a0
1:	lbu t3, 0(t2)
	beqz t3, 3f
2:	lbu t1, 5(t0)
	andi t1, t1, 0x20
	beqz t1, 2b
	sb t3, 0(t0)
	addi t2, t2, 1
	j 1b
3:	ret
bm_puthex:	/* a0 = value: 16 hex digits and a newline */
	li t0, UART_BASE
	li t2, 60
1:	srl t3, a0, t2
	andi t3, t3, 15
	addi t3, t3, '0'
	li t4, '9'
	ble t3, t4, 2f
	addi t3, t3, 'a' - '9' - 1
2:	lbu t1, 5(t0)
	andi t1, t1, 0x20
	beqz t1, 2b
	sb t3, 0(t0)
	addi t2, t2, -4
	bgez t2, 1b
3:	lbu t1, 5(t0)
	andi t1, t1, 0x20
	beqz t1, 3b
	li t3, '\n'
	sb t3, 0(t0)
	ret
