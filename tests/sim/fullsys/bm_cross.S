/* SPDX-License-Identifier: Apache-2.0 */
/* Accesses that cross a page boundary under Sv39 (S-mode): a 4-byte instruction whose second
 * half lies on an unmapped page (instruction page fault), then on a mapped one (it runs);
 * a misaligned load and store whose second part is on an unmapped page (load/store page
 * fault; the store must not have changed the first page), and on a mapped one. The handler
 * prints scause and stval. */
#include "bm.h"

#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_A 0x40
#define PTE_D 0x80
#define VA 0x40000000
#define RWXAD (PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D)

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
	/* root: [0] devices, [1] -> l1 -> l0, [2] RAM; l0[0] = pgA, l0[1] invalid for now */
	la s0, pt_root
	li s1, 0
	MKPTE s1, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D
	sd t0, 0(s0)
	li s1, 0x80000000
	MKPTE s1, RWXAD
	sd t0, 16(s0)
	la s1, pt_l1
	MKPTE s1, PTE_V
	sd t0, 8(s0)
	la s2, pt_l0
	MKPTE s2, PTE_V
	sd t0, 0(s1)
	la s1, pgA
	MKPTE s1, RWXAD
	sd t0, 0(s2)
	/* addi s7, s7, 1 split over pgA's last and pgB's first halfword; c.jr s4 after it */
	li t1, 0x8b93
	li t2, 4094
	add t2, s1, t2
	sh t1, 0(t2)
	la s3, pgB
	li t1, 0x001b
	sh t1, 0(s3)
	li t1, 0x8a02
	sh t1, 2(s3)
	fence.i
	li t0, 3 << 11
	csrc mstatus, t0
	li t0, 1 << 11
	csrs mstatus, t0
	la t0, s_entry
	csrw mepc, t0
	mret

s_entry:
	la t0, pt_root
	srli t0, t0, 12
	li t1, 8 << 60
	or t0, t0, t1
	csrw satp, t0
	sfence.vma
	li s7, 41
	li s6, VA + 4094
	jalr s4, 0(s6)			/* second half unmapped: fault 12 */
	SHOW s7_unmapped, s7
	li s6, VA + 4092
	li s8, 0x1122334455667788
	sd s8, 0(s6)			/* sd across into the unmapped page: fault 15 */
	ld s8, -4(s6)			/* first page unchanged? (aligned read) */
	SHOW first_page, s8
	ld s8, 0(s6)			/* fault 13 */
	/* map pgB at VA + 4096 */
	la s3, pgB
	MKPTE s3, RWXAD
	sd t0, 8(s2)
	sfence.vma
	li s6, VA + 4094
	jalr s4, 0(s6)			/* runs: s7 = 42, returns through c.jr s4 */
	SHOW s7_mapped, s7
	li s6, VA + 4092
	li s8, 0x1122334455667788
	sd s8, 0(s6)
	ld s9, 0(s6)
	SHOW crossed, s9
	ld s9, -4(s6)
	SHOW first_page_after, s9
	ecall

	.balign 4
shandler:
	PUTS s_trap
	csrr s5, scause
	SHOW scause, s5
	csrr s5, stval
	SHOW stval, s5
	li t0, 12
	csrr s5, scause
	bne s5, t0, 1f
	csrw sepc, s4
	sret
1:	csrr s5, sepc
	addi s5, s5, 2			/* the faulting c.sd/c.ld or sd/ld */
	lhu t0, -2(s5)
	andi t0, t0, 3
	li t1, 3
	bne t0, t1, 2f
	addi s5, s5, 2
2:	csrw sepc, s5
	sret

	.balign 4
mhandler:
	csrr s5, mcause
	li t0, 9
	bne s5, t0, 1f
	PUTS done
	PASS
1:	SHOW mcause, s5
	FAIL 4

	.section .rodata
s_trap:	.asciz "S trap\n"
done:	.asciz "done\n"
	.data
	.balign 4096
pgA:	.zero 4096
pgB:	.zero 4096
	.section .pt, "aw"
	.balign 4096
pt_root: .zero 4096
pt_l1:	.zero 4096
pt_l0:	.zero 4096
