/* SPDX-License-Identifier: Apache-2.0 */
/* The TIP unit in the hart (tiprof-fs --unit; run.sh and mutants.sh pass --unit to bm_unit*):
 * TIP_ID and TIP_PARAMS read from M-mode, mideleg bit 16 reads 1 whatever M writes (the
 * machine delegates the unit's local interrupt 16, which Debian's OpenSBI does not know),
 * TIP_MENABLE.S set before the hart started. In S-mode: periodic sampling of S at period 40
 * with watermark 4 and the interrupt enabled; interrupt 16 is taken in S (scause), the
 * handler reads FIFO_COUNT and the first sample (S_INFO, S_ADDR0 in the waiting loop), pops
 * every sample and stops the unit; TIP_LOST is 0; then an S-mode access to the M-level
 * TIP_MENABLE traps to M as an illegal instruction. QEMU has no unit: the output is compared
 * with bm_unit.expect, written from the specification (docs/registers.md, docs/fullsys.md). */
#include "bm.h"

#define TIP_CTRL 0x5c0
#define TIP_PERIOD 0x5c1
#define TIP_WATERMARK 0x5c2
#define TIP_POP 0x5c4
#define TIP_LOST 0x5c7
#define TIP_MENABLE 0x7c0
#define TIP_ID 0xdc0
#define TIP_PARAMS 0xdc1
#define TIP_FIFO_COUNT 0xdc4
#define TIP_S_INFO 0xdc7
#define TIP_S_ADDR0 0xdd0
#define IRQ_UNIT 16

	.section .text.start
	.globl _start
_start:
	la sp, _stack_top
	la t0, mhandler
	csrw mtvec, t0
	la t0, shandler
	csrw stvec, t0
	PMP_ALL
	csrr s0, TIP_ID
	SHOW tip_id, s0
	csrr s0, TIP_PARAMS
	SHOW tip_params, s0
	csrw mideleg, zero
	csrr s0, mideleg
	SHOW mideleg_after_writing_0, s0
	csrr s0, TIP_MENABLE
	SHOW tip_menable, s0
	li t0, 1 << IRQ_UNIT
	csrs mie, t0
	li t0, 3 << 11
	csrc mstatus, t0
	li t0, 1 << 11
	csrs mstatus, t0
	la t0, s_entry
	csrw mepc, t0
	mret

s_entry:
	csrw TIP_CTRL, zero
	li t0, 40
	csrw TIP_PERIOD, t0
	li t0, 4
	csrw TIP_WATERMARK, t0
	li s1, 0			/* set by the handler */
	li s2, 100000
	csrsi sstatus, 2		/* SIE */
	li t0, 0x29			/* EN, periodic, IRQ_EN, PRIV = S */
	csrw TIP_CTRL, t0
wait:	bnez s1, 2f
	addi s2, s2, -1
	bnez s2, wait
wait_end:
2:	SHOW irq_taken, s1
	SHOW scause, s3
	SHOW fifo_count_at_irq, s4
	SHOW s_info_first, s5
	SHOW s_addr0_in_wait_loop, s6
	SHOW popped, s7
	csrr s0, TIP_LOST
	SHOW tip_lost, s0
	csrr s0, TIP_FIFO_COUNT
	SHOW fifo_count_after, s0
menable_read:
	csrr s0, TIP_MENABLE		/* M-level: illegal from S, traps to M */
	PUTS not_trapped
	FAIL 1

	.balign 4
shandler:
	csrr s3, scause
	csrr s4, TIP_FIFO_COUNT
	csrr s5, TIP_S_INFO
	csrr t1, TIP_S_ADDR0
	la t2, wait
	la t3, wait_end
	sltu t4, t1, t2
	sltu t5, t1, t3
	xori t4, t4, 1
	and s6, t4, t5			/* wait <= S_ADDR0 < wait_end */
	li s7, 0
1:	csrr t0, TIP_FIFO_COUNT
	beqz t0, 2f
	csrw TIP_POP, zero
	addi s7, s7, 1
	j 1b
2:	csrw TIP_CTRL, zero		/* stop: no more samples, no interrupt */
	li s1, 1
	sret

	.balign 4
mhandler:
	csrr s0, mcause
	SHOW mcause_s_reads_menable, s0
	csrr s0, mepc
	la t0, menable_read
	sub s0, s0, t0
	SHOW mepc_off, s0
	PUTS done
	PASS

	.section .rodata
done:	.asciz "done\n"
not_trapped:	.asciz "TIP_MENABLE read from S did not trap\n"
