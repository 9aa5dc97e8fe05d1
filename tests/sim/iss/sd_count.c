/* SPDX-License-Identifier: Apache-2.0 */
/* Xtpsd (selective dispatch, docs/seldisp.md) on the ISS: a program instrumented with
 * profile instructions whose counts are known. Every basic block of the workload counts
 * itself twice: with a plain C counter (cc_*, always) and with a profile instruction
 * (pc_*, only while its flag is set). Flag 0 guards basic-block counters (pf.inc), flag 1
 * call-edge counters (pf.inc at call sites, pf.incr through a base register), flag 2 two
 * profile blocks (pf.blk: a call to a helper, a loop). Functions switch flags with
 * pushpf/setpf/resetpf at entry and poppf at exit, one recursion goes deeper than the flag
 * stack, and pfstate is saved, clobbered and restored as a kernel would.
 *
 *   sd_count on|off [N]
 *
 * "on" follows a schedule of four rounds (flags 0 off; BB on; BB+CG on; CG on), "off" never
 * sets a flag in main. The expected profile counts are computed from the C counters of the
 * rounds in which each flag was set; any difference, and any unexpected pfstate, is
 * printed to stderr and the exit status is 1. stdout carries only the computation's
 * results and the C counters, so it is the same with profiling on, off, and in the build
 * without the extension (-DSD_NONE, which qemu-riscv64 runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiprof/seldisp.h"

#ifdef SD_NONE
#undef TP_SETPF
#undef TP_RESETPF
#undef TP_PUSHPF
#undef TP_POPPF
#undef TP_PF_INC
#undef TP_PF_INCR
#undef TP_PF_BLK_ASM
#define TP_SETPF(m) ((void)0)
#define TP_RESETPF(m) ((void)0)
#define TP_PUSHPF() ((void)0)
#define TP_POPPF() ((void)0)
#define TP_PF_INC(f, s) ((void)0)
#define TP_PF_INCR(f, b, o) ((void)(b))
#define TP_PF_BLK_ASM(f, body, ...) ((void)0)
#endif

#define NBB 24  /* basic-block counters */
#define NCG 8   /* call-edge counters */

long pc_bb[NBB] __attribute__((used, aligned(8)));
long pc_cg[NCG] __attribute__((used, aligned(8)));
static long cc_bb[NBB], cc_cg[NCG];
static long helper_calls, loop_adds;
static int failures;

/* Block k: the C counter and the profile counter of flag 0. */
#define BB(k) do { cc_bb[k]++; TP_PF_INC(0, pc_bb + 8 * k); } while (0)
/* Call edge k (at the call site): flag 1, PC-relative or through a base register. */
#define CG(k) do { cc_cg[k]++; TP_PF_INC(1, pc_cg + 8 * k); } while (0)
#define CGR(k) do { cc_cg[k]++; TP_PF_INCR(1, pc_cg, 8 * k); } while (0)

static void __attribute__((unused)) check(int ok, const char *what, long got, long want)
{
	if (!ok) {
		fprintf(stderr, "sd_count: %s: %ld, expected %ld\n", what, got, want);
		failures++;
	}
}

/* A profile block (flag 2) calls this; it is never reached while flag 2 is clear. */
void sd_region_helper(void);
void __attribute__((noinline, used)) sd_region_helper(void)
{
	helper_calls++;
}

static unsigned long __attribute__((noinline)) leaf(unsigned long x)
{
	BB(0);
	if (x & 1) {
		BB(1);
		x = 3 * x + 1;
	} else {
		BB(2);
		x >>= 1;
	}
	return x;
}

/* Profiling switched off inside (pushpf; resetpf all; ...; poppf): its blocks never count. */
static unsigned long __attribute__((noinline)) quiet(unsigned long x)
{
	TP_PUSHPF();
	TP_RESETPF(15);
	BB(3);
	for (int i = 0; i < 3; i++) {
		BB(4);
		x = x * 2654435761u + (unsigned long)i;
	}
	TP_POPPF();
	return x;
}

/* Basic-block profiling switched on inside: its blocks always count. */
static unsigned long __attribute__((noinline)) loud(unsigned long x)
{
	TP_PUSHPF();
	TP_SETPF(1);
	BB(5);
	if (x % 3 == 0) {
		BB(6);
		x += 7;
	}
	TP_POPPF();
	return x;
}

/* Recursion deeper than the flag stack, each level turning flag 0 on as its entry
 * instruction would; at the bottom the stack is full and OVF counts the rest. */
static long deepest_state __attribute__((unused));
static unsigned long __attribute__((noinline)) rec(int d, unsigned long x)
{
	TP_PUSHPF();
	TP_SETPF(1);
	BB(7);
	if (d > 0) {
		CG(0);
		x = rec(d - 1, x + (unsigned long)d);
		BB(8);  /* after the callee's poppf: still on */
	} else {
#ifndef SD_NONE
		deepest_state = (long)TP_PFSTATE_READ();
#endif
	}
	TP_POPPF();
	return x;
}

static unsigned long work(int n)
{
	unsigned long acc = 1, y = 0;

	for (int i = 0; i < n; i++) {
		BB(9);
		CG(1);
		acc = leaf(acc + (unsigned long)i);
		if (i % 4 == 0) {
			BB(10);
			CGR(2);
			acc ^= quiet(acc);
			BB(11);  /* flags restored by quiet's poppf */
		}
		if (i % 5 == 1) {
			BB(12);
			CGR(3);
			acc += loud(acc);
		}
		switch (acc % 3) {
		case 0: BB(13); acc += 11; break;
		case 1: BB(14); acc ^= 0x5555; break;
		default: BB(15); acc -= 3; break;
		}
		TP_PF_BLK_ASM(2, "call sd_region_helper", ::: "ra", "t0", "t1", "t2", "t3", "t4",
			      "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
			      "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9",
			      "ft10", "ft11", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6",
			      "fa7", "memory");
		TP_PF_BLK_ASM(2, "li t0, 5\n1:\taddi %0, %0, 1\n\taddi t0, t0, -1\n\tbnez t0, 1b",
			      : "+r"(y) :: "t0");
	}
	BB(16);
	CG(4);
	acc += rec(20, acc);
	loop_adds += (long)y;	/* the profile block's loop: 5 per execution */
	return acc;
}

struct snap { long bb[NBB], cg[NCG], helper; };

static void take(struct snap *s)
{
	memcpy(s->bb, cc_bb, sizeof(s->bb));
	memcpy(s->cg, cc_cg, sizeof(s->cg));
	s->helper = helper_calls;
}

int main(int argc, char **argv)
{
	int on = argc > 1 && !strcmp(argv[1], "on");
	int n = argc > 2 ? atoi(argv[2]) : 1000;
	/* rounds: flags set in main during each (bit 0 BB, bit 1 CG, bit 2 blocks) */
	static const unsigned sched[4] = { 0, 1 | 4, 1 | 2, 2 | 4 };
	struct snap s[5];
	unsigned long r[4];
	long want_bb[NBB] = { 0 }, want_cg[NCG] = { 0 }, want_helper = 0, y_rounds = 0;

	if (argc < 2 || (!on && strcmp(argv[1], "off"))) {
		fprintf(stderr, "usage: sd_count on|off [N]\n");
		return 2;
	}
	take(&s[0]);
	for (int k = 0; k < 4; k++) {
		unsigned m = on ? sched[k] : 0;

		/* main's flags: exactly m (setpf/resetpf take literal masks) */
		TP_RESETPF(15);
		if (m & 1)
			TP_SETPF(1);
		if (m & 2)
			TP_SETPF(2);
		if (m & 4)
			TP_SETPF(4);
#ifndef SD_NONE
		{
			unsigned long st = TP_PFSTATE_READ();

			check(st == m, "pfstate at round start", (long)st, (long)m);
		}
		if (k == 2) {	/* a context switch: save, run another thread's state, restore */
			unsigned long saved = TP_PFSTATE_READ(), other;

			TP_PFSTATE_WRITE(0UL);
			(void)leaf(12345);	/* counts nothing in pc_bb: flags clear */
			cc_bb[0]--, cc_bb[1]--;	/* ... and is no part of the round's C counts */
			TP_PFSTATE_WRITE(~0UL);	/* WARL: canonical value */
			other = TP_PFSTATE_READ();
			check(other == 0xffffffff01ffff8fUL, "pfstate WARL all-ones", (long)other,
			      (long)0xffffffff01ffff8fUL);
			TP_PFSTATE_WRITE(saved);
			other = TP_PFSTATE_READ();
			check(other == saved, "pfstate restored", (long)other, (long)saved);
		}
#endif
		r[k] = work(n + k);
		take(&s[k + 1]);
		y_rounds += (m & 4) ? 5L * (n + k) : 0;
		for (int b = 0; b < NBB; b++) {
			long d = s[k + 1].bb[b] - s[k].bb[b];

			if (b >= 3 && b <= 4)
				continue;		/* quiet: never */
			if ((b >= 5 && b <= 8) || (m & 1))
				want_bb[b] += d;	/* loud and rec: always; else when flag 0 */
		}
		for (int e = 0; e < NCG; e++)
			if (m & 2)
				want_cg[e] += s[k + 1].cg[e] - s[k].cg[e];
		if (m & 4)
			want_helper += n + k;
	}
	TP_RESETPF(15);
	for (int k = 0; k < 4; k++)
		printf("round %d: %lu\n", k, r[k]);
	for (int b = 0; b < NBB; b++)
		printf("bb %d: %ld\n", b, cc_bb[b]);
	for (int e = 0; e < NCG; e++)
		printf("edge %d: %ld\n", e, cc_cg[e]);
#ifndef SD_NONE
	for (int b = 0; b < NBB; b++) {
		char what[32];

		snprintf(what, sizeof(what), "pc_bb[%d]", b);
		check(pc_bb[b] == want_bb[b], what, pc_bb[b], want_bb[b]);
	}
	for (int e = 0; e < NCG; e++) {
		char what[32];

		snprintf(what, sizeof(what), "pc_cg[%d]", e);
		check(pc_cg[e] == want_cg[e], what, pc_cg[e], want_cg[e]);
	}
	check(helper_calls == want_helper, "profile-block helper calls", helper_calls, want_helper);
	check(loop_adds == y_rounds, "profile-block loop additions", loop_adds, y_rounds);
	/* rec(20) in the last round: 21 levels pushed; the deepest sees main's flags | flag 0,
	 * 8 entries (main's flags, then 7 x main's | flag 0) and 13 overflowed */
	{
		unsigned long d = (unsigned long)deepest_state;
		unsigned long m = on ? sched[3] : 0, want;

		want = (m | 1) | 8u << 4 | 13u << 8;
		want |= (m & 15) << 32;
		for (int i = 1; i < 8; i++)
			want |= (unsigned long)(m | 1) << (32 + 4 * i);
		check(d == want, "pfstate at recursion depth 21", (long)d, (long)want);
	}
	{
		unsigned long st = TP_PFSTATE_READ();

		check(st == 0, "pfstate at the end", (long)st, 0);
		TP_POPPF();	/* on an empty stack: ERR, flags unchanged */
		st = TP_PFSTATE_READ();
		check(st == 1UL << 24, "pfstate after poppf on empty stack", (long)st, 1L << 24);
		TP_PFSTATE_WRITE(0UL);
	}
	fprintf(stderr, "sd_count: %s, N %d: %ld bb and %ld edge profile counts, %ld helper calls; "
		"%d failures\n", on ? "on" : "off", n,
		pc_bb[0] + pc_bb[9], pc_cg[0] + pc_cg[1], helper_calls, failures);
#endif
	return failures ? 1 : 0;
}
