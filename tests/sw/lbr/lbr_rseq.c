/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_rseq.c - traced test program: a restartable sequence (rseq) critical section in a hot
 * loop, registered through glibc's own rseq area (glibc >= 2.35 registers one per thread;
 * __rseq_offset locates it from the thread pointer). The critical section (inline assembly,
 * descriptor in the `__rseq_cs` section, pointer in `__rseq_cs_ptr_array`, abort handler
 * preceded by RSEQ_SIG) reads the current CPU number, runs a data-dependent loop of
 * conditional branches and commits one store to a per-CPU counter. An abort (preemption,
 * migration, a signal - the tracer's included) retries; after 1000 aborts in a row, or when
 * rseq is not registered, the increment is done without rseq. The printed total is exact in
 * every case. argv[1] = increments (x 1000). Exits with status 4. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/rseq.h>

#define NCPU 1024
static long counts[NCPU];
static unsigned long aborts_total;

static struct rseq *rseq_area(void)
{
	if (__rseq_size == 0)
		return NULL;
	return (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
}

/* One increment of counts[cpu] by `inc`, computed inside the critical section by a loop of
 * `n` data-dependent steps. Returns 0 on commit, 1 on abort. */
__attribute__((noinline)) static int cs_add(struct rseq *rs, long inc, unsigned n)
{
	long tmp, tmp2;
	unsigned k = n;
	__asm__ volatile goto(
		".pushsection __rseq_cs, \"aw\"\n\t"
		".balign 32\n\t"
		"3:\n\t"
		".long 0, 0\n\t"
		".quad 1f, (2f - 1f), 4f\n\t"
		".popsection\n\t"
		".pushsection __rseq_cs_ptr_array, \"aw\"\n\t"
		".quad 3b\n\t"
		".popsection\n\t"
		"leaq 3b(%%rip), %[tmp]\n\t"
		"movq %[tmp], %[rseq_cs]\n\t"
		"1:\n\t"
		"movl %[cpu_id], %k[tmp2]\n\t"
		"andl $1023, %k[tmp2]\n\t"
		"leaq (%[counts], %[tmp2], 8), %[tmp2]\n\t"
		"movq (%[tmp2]), %[tmp]\n\t"
		"5:\n\t"                    /* the loop: data-dependent conditional branches */
		"testl $1, %[k]\n\t"
		"jz 6f\n\t"
		"addq $0, %[tmp]\n\t"
		"6:\n\t"
		"subl $1, %[k]\n\t"
		"jnz 5b\n\t"
		"addq %[inc], %[tmp]\n\t"
		"movq %[tmp], (%[tmp2])\n\t"  /* commit */
		"2:\n\t"
		".pushsection __rseq_failure, \"ax\"\n\t"
		".byte 0x0f, 0xb9, 0x3d\n\t"  /* ud1 RSEQ_SIG(%%rip), %%edi: the signature the */
		".long 0x53053053\n\t"        /* kernel checks, as a whole instruction (librseq) */
		"4:\n\t"
		"jmp %l[abort]\n\t"
		".popsection\n\t"
		: [tmp] "=&r"(tmp), [tmp2] "=&r"(tmp2), [k] "+r"(k)
		: [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id), [counts] "r"(counts),
		  [inc] "r"(inc)
		: "memory", "cc"
		: abort);
	rs->rseq_cs = 0;
	return 0;
abort:
	rs->rseq_cs = 0;
	return 1;
}

int main(int argc, char **argv)
{
	long n = (argc > 1 ? atol(argv[1]) : 1) * 1000;
	struct rseq *rs = rseq_area();
	unsigned seed = 1;
	long expect = 0;
	for (long i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		long inc = (seed >> 16) % 7 + 1;
		unsigned steps = (seed >> 8) % 13 + 1;
		expect += inc;
		int done = 0;
		for (int tries = 0; rs && tries < 1000 && !done; tries++) {
			if (cs_add(rs, inc, steps) == 0)
				done = 1;
			else
				aborts_total++;
		}
		if (!done)
			__atomic_fetch_add(&counts[0], inc, __ATOMIC_RELAXED);
	}
	long total = 0;
	for (int c = 0; c < NCPU; c++)
		total += counts[c];
	printf("rseq %s: total %ld expect %ld %s\n", rs ? "registered" : "unavailable", total,
	       expect, total == expect ? "ok" : "WRONG");
	if (getenv("LBR_RSEQ_VERBOSE"))
		fprintf(stderr, "aborts %lu\n", aborts_total);
	return total == expect ? 4 : 1;
}
