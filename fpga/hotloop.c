// SPDX-License-Identifier: Apache-2.0
/*
 * fpga/hotloop.c - the bring-up self-test's known loop (fpga/bringup.sh, docs/fpga.md):
 * a chain of dependent divides, each waiting for the one before, so that on any
 * out-of-order core the commit stage stalls on the `divu` at `tiprof_hot` and a TIP
 * profile must put that instruction on top.
 *
 *   tiprof-hotloop [SECS]   (default 1) prints `hot=0xADDR` and spins SECS of wall time
 *
 * Build (riscv64, static): riscv64-linux-gnu-gcc -O2 -static -o tiprof-hotloop fpga/hotloop.c
 * (on the board: cc -O2 -static ...). RISC-V only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if !defined(__riscv)
#error "fpga/hotloop.c is the RISC-V self-test loop"
#endif

extern char tiprof_hot[];	/* the divide, defined by the asm below */

/* 1000 dependent divides; noinline: the global label exists once */
static __attribute__((noinline)) uint64_t chain(uint64_t x, uint64_t d)
{
	__asm__ volatile(
		"	li	t0, 1000\n"
		"1:\n"
		"	.globl	tiprof_hot\n"
		"tiprof_hot:\n"
		"	divu	t1, %0, %1\n"
		"	xor	%0, t1, %2\n"	/* keeps the dividend large: no early-out divides */
		"	addi	t0, t0, -1\n"
		"	bnez	t0, 1b\n"
		: "+r"(x) : "r"(d), "r"(~0ull >> 1) : "t0", "t1");
	return x;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	double secs = argc > 1 ? strtod(argv[1], &end) : 1.0, stop;
	volatile uint64_t sink;
	uint64_t x = ~0ull >> 3;

	if (argc > 2 || (argc > 1 && (end == argv[1] || *end || secs < 0 || secs > 3600))) {
		fprintf(stderr, "tiprof-hotloop: bad duration '%s' (seconds, 0..3600)\n",
			argc > 1 ? argv[1] : "");
		return 2;
	}
	printf("hot=%#llx\n", (unsigned long long)(uintptr_t)tiprof_hot);
	fflush(stdout);
	stop = now_s() + secs;
	do
		x = chain(x, 3);
	while (now_s() < stop);
	sink = x;
	(void)sink;
	return 0;
}
