/* SPDX-License-Identifier: Apache-2.0 */
/* Directed program for selective dispatch on the core model (docs/core.md "Selective
 * dispatch"; tests/sim/seldisp/run-tests.sh). Freestanding, static; argv[1] picks the mode:
 *
 *  t  toggle: 1000 iterations; flag 0 flips every 50 (setpf/resetpf at iterations 50, 100,
 *     ..., 1000, so 10 clear->set and 10 set->clear transitions); each iteration runs a
 *     filler loop (60 instructions: more than a 4-wide core's fetch buffer, so the flag
 *     writer has been decoded before the next profile instruction is fetched), then a profile
 *     block of flag 0 holding an always-taken branch, then a pf.inc of flag 0. With the
 *     profile flag predictor every clear->set transition costs exactly one misprediction per
 *     leader (2 leaders: 20) and every set->clear transition one missed skip per leader (20).
 *  p  poppf: 1000 iterations of pushpf; setpf 1; pf.inc 0; poppf; pf.inc 0 (flag 0 clear
 *     outside): the second pf.inc right behind a poppf (sd_poppf_lat).
 *
 * Checks the counters against plain counts (cnt_a = iterations with flag 0 set = block
 * executions; poppf: cnt_b = 1000, cnt_c = 0), writes "sd_core ok\n" and exits 0, else exits
 * with the number of the failed check. */
#include "tiprof/seldisp.h"

	.text
	.globl	_start
_start:
	.option	push
	.option	norelax
	la	gp, __global_pointer$
	.option	pop
	ld	t0, 16(sp)		/* argv[1] */
	li	a0, 9
	beqz	t0, exit
	lbu	t0, 0(t0)
	li	t1, 'p'
	beq	t0, t1, poppf_mode
	li	t1, 't'
	bne	t0, t1, exit

	li	s0, 1000		/* iterations left */
	li	s1, 50			/* toggle period */
	li	s2, 0			/* iterations since the last toggle */
	li	s3, 0			/* phase: flag 0 set */
	li	s4, 0			/* plain count of flag-set iterations */
	li	s5, 0			/* block executions */
	li	s6, 0			/* taken branches inside the block */
1:
	addi	s2, s2, 1
	bne	s2, s1, 3f
	li	s2, 0
	xori	s3, s3, 1
	beqz	s3, 2f
	setpf	1
	j	3f
2:
	resetpf	1
3:
	add	s4, s4, s3
	li	t0, 20			/* filler: 20 x 3 instructions */
4:
	addi	t0, t0, -1
	add	t1, t1, t0
	bnez	t0, 4b
	pf_blk	0, 6f
	addi	s5, s5, 1
	beq	zero, zero, 5f		/* always taken */
	addi	s6, s6, 100
5:
	addi	s6, s6, 1
6:
	pf_inc	0, cnt_a
	addi	s0, s0, -1
	bnez	s0, 1b
	resetpf	1
	li	a0, 1
	ld	t0, cnt_a
	bne	t0, s4, exit
	li	a0, 2
	bne	s5, s4, exit
	li	a0, 3
	bne	s6, s4, exit
	li	a0, 4
	li	t0, 500
	bne	s4, t0, exit
	j	ok

poppf_mode:
	li	s0, 1000
7:
	pushpf
	setpf	1
	pf_inc	0, cnt_b
	poppf
	pf_inc	0, cnt_c
	addi	s0, s0, -1
	bnez	s0, 7b
	li	a0, 5
	ld	t0, cnt_b
	li	t1, 1000
	bne	t0, t1, exit
	li	a0, 6
	ld	t0, cnt_c
	bnez	t0, exit
ok:
	li	a0, 1			/* write(1, msg, 11) */
	la	a1, msg
	li	a2, 11
	li	a7, 64
	ecall
	li	a0, 0
exit:
	li	a7, 93
	ecall

	.section .rodata
msg:	.ascii	"sd_core ok\n"

	.data
	.balign	8
cnt_a:	.dword	0
cnt_b:	.dword	0
cnt_c:	.dword	0
