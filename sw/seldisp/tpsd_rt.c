/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tpsd_rt.c - the runtime of Xtpsd-instrumented programs (docs/seldisp.md section 9): linked
 * into every program sw/seldisp/tpsd-cc builds (RISC-V, not itself instrumented).
 *
 *  - the counters and their descriptors are the instrumenter's (sections tpsd_cnt, tpsd_desc;
 *    the patchable entry instructions in tpsd_entry);
 *  - the timer: every instrumented function's entry decrements __tpsd_cd and calls
 *    __tpsd_tick_entry when it goes negative. The tick reads the retired-instruction count
 *    (rdinstret: the ISS's clock) and, at a window boundary, switches profiling: every
 *    entry's `setpf MASK` becomes `resetpf MASK` (bit 25) or back (a 4-byte store and
 *    fence.i), and the frames active now get the new state too (FLAGS and the pfstate stack
 *    entries, through the CSR). It then sets the countdown from the entry rate it measured
 *    so that the next tick lands near the next boundary. The user-mode ISS delivers no
 *    signals; on Linux the same tick would be a SIGALRM handler (setitimer).
 *  - at exit: the profile file.
 *
 * Configuration: the environment variable TPSD, comma-separated
 *   w=PERCENT   profiled share of each period (default 100; 0 = profiling off)
 *   p=INSNS     period in retired instructions (default 200000)
 *   o=PATH      profile file (default tpsd.prof; "-" = none)
 * A bad TPSD prints one line on stderr naming it and exits with status 2.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tiprof/seldisp.h"

struct tpsd_desc {
	uint64_t *cnt;
	uint64_t site;
	const char *fn;
	const char *callee;	/* NULL: a block counter */
};

extern struct tpsd_desc __start_tpsd_desc[] __attribute__((weak));
extern struct tpsd_desc __stop_tpsd_desc[] __attribute__((weak));
extern uint32_t *__start_tpsd_entry[] __attribute__((weak));
extern uint32_t *__stop_tpsd_entry[] __attribute__((weak));

/* the countdown the entry polls decrement (small data: gp-relative after relaxation) */
long __tpsd_cd __attribute__((section(".sdata"), visibility("hidden")));

static struct {
	int inited, state;
	unsigned mask;			/* the flags the entries set */
	uint64_t period, on_len, next_t, t_last, cd_set;
	uint64_t ticks, switches;
	const char *out;
} rt;

static inline uint64_t rdinstret(void)
{
	uint64_t v;
	__asm__ volatile("rdinstret %0" : "=r"(v));
	return v;
}

#define NEVER UINT64_MAX

/* Profiling on (1) or off (0) in every entry instruction and in the active frames. */
static void apply(int on)
{
	uint64_t st;

	for (uint32_t **e = __start_tpsd_entry; e < __stop_tpsd_entry; e++) {
		uint32_t w = **e;
		**e = on ? w & ~(1u << 25) : w | 1u << 25;
	}
	__asm__ volatile("fence.i" ::: "memory");
	st = TP_PFSTATE_READ();
	for (unsigned k = 0; k <= tiprof_sd_depth(st) && k <= TIPROF_SD_STACK_DEPTH; k++) {
		/* k < depth: stack entry k; k == depth: FLAGS */
		unsigned sh = k < tiprof_sd_depth(st) ? TIPROF_SD_ST_STACK_SHIFT + 4 * k : 0;
		uint64_t m = (uint64_t)rt.mask << sh;

		st = on ? st | m : st & ~m;
	}
	TP_PFSTATE_WRITE(st);
	rt.state = on;
	rt.switches++;
}

/* The next window boundary after instruction count t. */
static uint64_t boundary_after(uint64_t t)
{
	uint64_t ph;

	if (rt.on_len == 0 || rt.on_len >= rt.period)
		return NEVER;
	ph = t % rt.period;
	return ph < rt.on_len ? t - ph + rt.on_len : t - ph + rt.period;
}

static void write_profile(void)
{
	FILE *f;

	if (!strcmp(rt.out, "-"))
		return;
	f = fopen(rt.out, "w");
	if (!f) {
		fprintf(stderr, "tpsd: %s: cannot write the profile\n", rt.out);
		return;
	}
	fprintf(f, "tpsd-profile 1\npfstate %#llx\nwindow %llu\nperiod %llu\nticks %llu\n"
		"switches %llu\n", (unsigned long long)TP_PFSTATE_READ(),
		(unsigned long long)(rt.period ? rt.on_len * 100 / rt.period : 0),
		(unsigned long long)rt.period, (unsigned long long)rt.ticks,
		(unsigned long long)rt.switches);
	for (struct tpsd_desc *d = __start_tpsd_desc; d < __stop_tpsd_desc; d++) {
		if (d->callee)
			fprintf(f, "cg %#llx %s %s %llu\n", (unsigned long long)d->site, d->fn,
				d->callee, (unsigned long long)*d->cnt);
		else
			fprintf(f, "bb %#llx %s %llu\n", (unsigned long long)d->site, d->fn,
				(unsigned long long)*d->cnt);
	}
	fclose(f);
}

static void bad_config(const char *v)
{
	fprintf(stderr, "tpsd: TPSD=%s: expected w=PERCENT,p=INSNS,o=PATH\n", v);
	exit(2);
}

static void init(void)
{
	const char *v = getenv("TPSD");
	unsigned long w = 100;
	uint64_t lo = UINT64_MAX, hi = 0;

	rt.inited = 1;
	rt.period = 200000;
	rt.out = "tpsd.prof";
	if (v && *v) {
		char *s = strdup(v), *tok, *save = NULL, *end;

		if (!s)
			bad_config(v);
		for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (!strncmp(tok, "w=", 2)) {
				w = strtoul(tok + 2, &end, 10);
				if (*end || end == tok + 2 || w > 100)
					bad_config(v);
			} else if (!strncmp(tok, "p=", 2)) {
				rt.period = strtoull(tok + 2, &end, 10);
				if (*end || rt.period < 100)
					bad_config(v);
			} else if (!strncmp(tok, "o=", 2) && tok[2]) {
				rt.out = tok + 2;
			} else {
				bad_config(v);
			}
		}
	}
	rt.on_len = rt.period * w / 100;
	for (uint32_t **e = __start_tpsd_entry; e < __stop_tpsd_entry; e++) {
		uint64_t a = (uint64_t)(uintptr_t)*e;

		rt.mask |= (**e >> 20) & TIPROF_SD_FLAGS_MASK;
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
	}
	if (lo <= hi) {	/* the entry instructions become writable */
		uint64_t pg = lo & ~(uint64_t)4095;

		if (mprotect((void *)(uintptr_t)pg, hi + 4 - pg, PROT_READ | PROT_WRITE | PROT_EXEC))
			fprintf(stderr, "tpsd: mprotect of the code failed\n");
	}
	rt.t_last = rdinstret();
	apply(rt.on_len > 0 && (rt.on_len >= rt.period || rt.t_last % rt.period < rt.on_len));
	rt.switches = 0;
	rt.next_t = boundary_after(rt.t_last);
	rt.cd_set = 64;
	__tpsd_cd = (long)rt.cd_set;
	atexit(write_profile);
}

__attribute__((constructor)) static void tpsd_ctor(void)
{
	if (!rt.inited)
		init();
}

/* Called from __tpsd_tick_entry (every register saved) when the countdown runs out. */
void __tpsd_tick(void);
void __tpsd_tick(void)
{
	uint64_t now, el, rem, cd;

	if (!rt.inited) {
		init();
		return;
	}
	now = rdinstret();
	rt.ticks++;
	if (now >= rt.next_t) {
		apply(!rt.state);
		rt.next_t = boundary_after(now);
	}
	/* the next tick: the entries expected in 3/4 of the time to the boundary */
	el = now - rt.t_last;
	rem = rt.next_t == NEVER ? NEVER : rt.next_t - now;
	if (rem == NEVER || el == 0)
		cd = 1u << 20;
	else
		cd = (uint64_t)((unsigned __int128)rt.cd_set * rem * 3 / 4 / el) + 1;
	if (cd > 1u << 20)
		cd = 1u << 20;
	rt.cd_set = cd;
	rt.t_last = now;
	__tpsd_cd = (long)cd;
}

/* The entry stub's target: called with t0 = the return address, at a function's entry (the
 * argument registers are live): saves every caller-saved register, integer and FP. */
__asm__(".text\n"
	".globl __tpsd_tick_entry\n"
	".type __tpsd_tick_entry, @function\n"
	"__tpsd_tick_entry:\n"
	"\taddi sp, sp, -288\n"
	"\tsd ra, 0(sp)\n\tsd t0, 8(sp)\n\tsd t1, 16(sp)\n\tsd t2, 24(sp)\n"
	"\tsd t3, 32(sp)\n\tsd t4, 40(sp)\n\tsd t5, 48(sp)\n\tsd t6, 56(sp)\n"
	"\tsd a0, 64(sp)\n\tsd a1, 72(sp)\n\tsd a2, 80(sp)\n\tsd a3, 88(sp)\n"
	"\tsd a4, 96(sp)\n\tsd a5, 104(sp)\n\tsd a6, 112(sp)\n\tsd a7, 120(sp)\n"
	"\tfsd fa0, 128(sp)\n\tfsd fa1, 136(sp)\n\tfsd fa2, 144(sp)\n\tfsd fa3, 152(sp)\n"
	"\tfsd fa4, 160(sp)\n\tfsd fa5, 168(sp)\n\tfsd fa6, 176(sp)\n\tfsd fa7, 184(sp)\n"
	"\tfsd ft0, 192(sp)\n\tfsd ft1, 200(sp)\n\tfsd ft2, 208(sp)\n\tfsd ft3, 216(sp)\n"
	"\tfsd ft4, 224(sp)\n\tfsd ft5, 232(sp)\n\tfsd ft6, 240(sp)\n\tfsd ft7, 248(sp)\n"
	"\tfrcsr t1\n\tsd t1, 256(sp)\n"
	"\tcall __tpsd_tick\n"
	"\tld t1, 256(sp)\n\tfscsr t1\n"
	"\tfld fa0, 128(sp)\n\tfld fa1, 136(sp)\n\tfld fa2, 144(sp)\n\tfld fa3, 152(sp)\n"
	"\tfld fa4, 160(sp)\n\tfld fa5, 168(sp)\n\tfld fa6, 176(sp)\n\tfld fa7, 184(sp)\n"
	"\tfld ft0, 192(sp)\n\tfld ft1, 200(sp)\n\tfld ft2, 208(sp)\n\tfld ft3, 216(sp)\n"
	"\tfld ft4, 224(sp)\n\tfld ft5, 232(sp)\n\tfld ft6, 240(sp)\n\tfld ft7, 248(sp)\n"
	"\tld ra, 0(sp)\n\tld t0, 8(sp)\n\tld t1, 16(sp)\n\tld t2, 24(sp)\n"
	"\tld t3, 32(sp)\n\tld t4, 40(sp)\n\tld t5, 48(sp)\n\tld t6, 56(sp)\n"
	"\tld a0, 64(sp)\n\tld a1, 72(sp)\n\tld a2, 80(sp)\n\tld a3, 88(sp)\n"
	"\tld a4, 96(sp)\n\tld a5, 104(sp)\n\tld a6, 112(sp)\n\tld a7, 120(sp)\n"
	"\taddi sp, sp, 288\n"
	"\tjr t0\n"
	".size __tpsd_tick_entry, .-__tpsd_tick_entry\n");
