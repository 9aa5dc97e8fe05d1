/* SPDX-License-Identifier: Apache-2.0 */
/* Xtpsd from assembler: the macros of include/tiprof/seldisp.h in a freestanding static
 * program (no libc). Ten loop iterations count with pf_inc (flag 0), pf_incr (flag 1) and a
 * profile block (flag 3); flag 0 is set from iteration 4 on, flag 1 only inside a
 * pushpf/setpf/poppf bracket in odd iterations, flag 3 never; nested blocks (flag 0 around
 * flag 2) count their executions in s3 and s4. Exit status 0 when the counters are 6, 5, 0,
 * 7 and 1 and the flags are back to flag 0 alone; else the number of the failed check.
 * Writes "sd_asm ok\n". */
#include "tiprof/seldisp.h"

	.text
	.globl	_start
_start:
	.option	push
	.option	norelax
	la	gp, __global_pointer$
	.option	pop
	li	s0, 0			/* iteration */
	li	s3, 0
	li	s4, 0
	li	s1, 10
	la	s2, cnt_r
1:
	li	t0, 4
	bne	s0, t0, 2f
	setpf	1			/* flag 0 on from iteration 4 */
2:
	pf_inc	0, cnt_a
	andi	t0, s0, 1
	beqz	t0, 3f
	pushpf
	setpf	2
	pf_incr	1, 8(s2)
	poppf
3:
	pf_blk	3, 4f
	la	t1, cnt_b		/* never reached: flag 3 is clear */
	ld	t2, 0(t1)
	addi	t2, t2, 1
	sd	t2, 0(t1)
4:
	pf_blk	0, 6f			/* nested blocks: flag 0 outside, flag 2 inside */
	addi	s3, s3, 1
	pf_blk	2, 5f
	addi	s4, s4, 1
5:
6:
	addi	s0, s0, 1
	blt	s0, s1, 1b
	setpf	4			/* flag 2 on: once more, inner block included */
	pf_blk	0, 8f
	addi	s3, s3, 1
	pf_blk	2, 7f
	addi	s4, s4, 1
7:
8:
	resetpf	4

	li	a0, 1
	ld	t0, cnt_a
	li	t1, 6
	bne	t0, t1, fail
	li	a0, 2
	ld	t0, 8(s2)
	li	t1, 5
	bne	t0, t1, fail
	li	a0, 3
	ld	t0, cnt_b
	bnez	t0, fail
	li	a0, 5
	li	t1, 7
	bne	s3, t1, fail		/* outer: 6 loop iterations + 1 */
	li	a0, 6
	li	t1, 1
	bne	s4, t1, fail		/* inner: only the last one */
	li	a0, 4
	csrr	t0, TIPROF_SD_CSR_PFSTATE
	li	t1, 1
	bne	t0, t1, fail
	resetpf	15
	li	a0, 1			/* write(1, msg, 10) */
	la	a1, msg
	li	a2, 10
	li	a7, 64
	ecall
	li	a0, 0
fail:
	li	a7, 93			/* exit(a0) */
	ecall

	.section .rodata
msg:	.ascii	"sd_asm ok\n"

	.data
	.balign	8
cnt_a:	.dword	0
cnt_b:	.dword	0
cnt_r:	.dword	0, 0
