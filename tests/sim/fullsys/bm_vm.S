/* SPDX-License-Identifier: Apache-2.0 */
/* Sv39 in S-mode: gigapages map the devices and RAM one-to-one, a three-level walk maps
 * 4 KiB pages at 0x40000000 (a U page, read-only, A and D clear), 0x40002000 (readable, not
 * executable) and 0x40003000 (execute-only). Page faults are delegated to S; the handler
 * prints scause and stval. Checked: SUM, hardware A and D updates (the PTEs printed),
 * store to a read-only page, sfence.vma after making it writable, instruction page fault,
 * a remapped page after sfence.vma, a non-canonical address, MXR, satp read-back. */
#include "bm.h"

#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_U 0x10
#define PTE_A 0x40
#define PTE_D 0x80
#define VA_U   0x40000000

/* t0 = the PTE for physical address \pa (a register) with flags \fl */
.macro MKPTE pa, fl
	srli t0, \pa, 12
	slli t0, t0, 10
	ori t0, t0, \fl
.endm

	.section .text.start
	.globl _start
_start:
	la sp, _stack_top
	la t0, mhandler
	csrw mtvec, t0
	la t0, shandler
	csrw stvec, t0
	PMP_ALL
	li t0, (1 << 12) | (1 << 13) | (1 << 15)
	csrw medeleg, t0

	/* root: [0] devices 0-1 GiB (gigapage), [1] -> l1, [2] RAM 2-3 GiB (gigapage) */
	la s0, pt_root
	li s1, 0
	MKPTE s1, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D
	sd t0, 0(s0)
	li s1, 0x80000000
	MKPTE s1, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D
	sd t0, 16(s0)
	la s1, pt_l1
	MKPTE s1, PTE_V
	sd t0, 8(s0)
	la s2, pt_l0
	MKPTE s2, PTE_V
	sd t0, 0(s1)
	la s1, upage
	MKPTE s1, PTE_V | PTE_R | PTE_U
	sd t0, 0(s2)
	MKPTE s1, PTE_V | PTE_R | PTE_A
	sd t0, 16(s2)
	MKPTE s1, PTE_V | PTE_X | PTE_U | PTE_A
	sd t0, 24(s2)

	li t0, 3 << 11
	csrc mstatus, t0
	li t0, 1 << 11
	csrs mstatus, t0
	la t0, s_entry
	csrw mepc, t0
	mret

s_entry:
	la s0, pt_root
	srli t0, s0, 12
	li t1, 8 << 60
	or t0, t0, t1
	csrw satp, t0
	sfence.vma
	csrr t1, satp
	SHOW satp, t1
	la s2, pt_l0
	li s1, VA_U

	ld t1, 0(s1)			/* U page from S, SUM = 0: fault 13 */
	li t0, 1 << 18
	csrs sstatus, t0		/* SUM */
	ld t1, 0(s1)
	SHOW loaded, t1
	ld t1, 0(s2)
	andi t1, t1, 0xff
	SHOW pte_after_load, t1		/* A set by the walk */
	sd t1, 8(s1)			/* read-only: fault 15 */
	ld t1, 0(s2)
	ori t1, t1, PTE_W
	sd t1, 0(s2)
	sfence.vma
	li t1, 0x55aa
	sd t1, 8(s1)
	ld t1, 8(s1)
	SHOW stored, t1
	ld t1, 0(s2)
	andi t1, t1, 0xff
	SHOW pte_after_store, t1	/* D set */
	/* 0x40010000 (a TLB slot no code, stack, device or table page shares) maps upage,
	 * is loaded (into the TLB), remapped to upage2: after sfence.vma the new bytes */
	la t2, upage
	MKPTE t2, PTE_V | PTE_R | PTE_U | PTE_A
	sd t0, 16 * 8(s2)
	sfence.vma
	li s5, VA_U + 0x10000
	ld t3, 0(s5)
	la t2, upage2
	MKPTE t2, PTE_V | PTE_R | PTE_U | PTE_A
	sd t0, 16 * 8(s2)
	sfence.vma
	ld t1, 0(s5)
	SHOW remapped, t1

	li t0, VA_U + 0x2000
	jalr s4, 0(t0)			/* not executable: fault 12, the handler returns to s4 */
	li t0, 1 << 39
	ld t1, 0(t0)			/* not canonical: fault 13 */
	li t0, VA_U + 0x3000
	ld t1, 0(t0)			/* execute-only page: fault 13 */
	li t0, 1 << 19
	csrs sstatus, t0		/* MXR */
	li t0, VA_U + 0x3000
	ld t1, 0(t0)
	SHOW loaded_mxr, t1
	ecall				/* to M: done */

	.balign 4
shandler:
	PUTS s_trap
	csrr s3, scause
	SHOW scause, s3
	csrr s3, stval
	SHOW stval, s3
	csrr s3, scause
	li t0, 12
	bne s3, t0, 1f
	csrw sepc, s4
	sret
1:	csrr s3, sepc
	lhu t0, 0(s3)
	andi t0, t0, 3
	li t1, 3
	addi s3, s3, 2
	bne t0, t1, 2f
	addi s3, s3, 2
2:	csrw sepc, s3
	sret

	.balign 4
mhandler:
	csrr s3, mcause
	SHOW mcause, s3
	li t0, 9
	bne s3, t0, 1f
	PUTS done
	PASS
1:	FAIL 2

	.section .rodata
s_trap:	.asciz "S trap\n"
done:	.asciz "done\n"

	.data
	.balign 4096
upage:	.dword 0x0123456789abcdef, 0
	.balign 4096
upage2:	.dword 0xfeedfacecafebeef, 0
	.balign 4096
	.section .pt, "aw"
	.balign 4096
pt_root: .zero 4096
pt_l1:	.zero 4096
pt_l0:	.zero 4096
