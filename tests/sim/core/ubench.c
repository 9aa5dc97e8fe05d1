/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ubench.c - mechanism microbenchmarks for the timing model (RISC-V, static). Each mode
 * runs a kernel N times; tests/sim/core/run-tests.sh runs two values of N and divides the
 * difference in cycles by the difference in N, which cancels start-up and set-up.
 *   ubench chase FOOTPRINT N   pointer chase, one 64-byte line per node, in address order
 *                              round a FOOTPRINT-byte ring: load-to-use latency of the level
 *                              the ring fits in (a ring larger than a cache misses every time
 *                              under LRU)
 *   ubench mlp FOOTPRINT N     N independent loads, one per line, round the ring: bounded by
 *                              the L1D MSHRs when the ring misses the LLC
 *   ubench rbranch N           a branch on a random bit per iteration (~50% mispredicted)
 *   ubench pbranch N           the same branch on an always-zero bit (predictable)
 *   ubench alu N               12 independent adds per iteration (IPC near the width)
 *   ubench csr N               one frflags (a CSR read: unique, flushes on commit) per iteration
 *   ubench stlf N              a store and a load of the same address per iteration (forwarded)
 *   ubench replay K N          a store whose address waits for a divide by K (=1), then a load
 *                              of that address whose own address is ready at once: the load
 *                              issues first and must re-execute (memory-ordering replay)
 *   ubench div K N             four independent divides by K per iteration (unpipelined divider)
 *   ubench mulchain N          a chain of dependent multiplies (multiplier latency)
 *   ubench faddchain N         a chain of dependent fadd.d (FP add latency)
 * Prints one line with the mode and a checksum (so nothing is optimised away).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ring of FOOTPRINT bytes: node i links to node i+1 (64 bytes apart), the last to the first. */
static void **ring(long footprint)
{
	long n = footprint / 64;
	void **a = aligned_alloc(64, (size_t)n * 64);

	if (!a)
		exit(3);
	for (long i = 0; i < n; i++)
		a[i * 8] = &a[((i + 1) % n) * 8];
	return a;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long fp = argc > 3 ? atol(argv[2]) : 0, n = atol(argv[argc - 1]);
	uint64_t sum = 0;

	if (argc < 3 || n < 0) {
		fprintf(stderr, "usage: ubench MODE [FOOTPRINT] N\n");
		return 2;
	}
	if (strcmp(mode, "chase") == 0) {
		void **p = ring(fp);

		for (long i = 0; i < n; i++)
			p = (void **)*p;
		sum = (uint64_t)(uintptr_t)p;
	} else if (strcmp(mode, "mlp") == 0) {
		void **a = ring(fp);
		long lines = fp / 64, j = 0;

		for (long i = 0; i < n; i += 8) {
			uintptr_t s = 0;

			for (int k = 0; k < 8; k++) {
				s += (uintptr_t)a[j * 8];
				j = j + 1 == lines ? 0 : j + 1;
			}
			sum += s;
		}
	} else if (strcmp(mode, "rbranch") == 0 || strcmp(mode, "pbranch") == 0) {
		uint64_t x = 88172645463325252ull, m = mode[0] == 'r' ? 1 : 0;

		for (long i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			__asm__ volatile("and t0, %1, %2\n\tbeqz t0, 1f\n\taddi %0, %0, 1\n1:"
					 : "+r"(sum) : "r"(x >> 20), "r"(m) : "t0");
		}
	} else if (strcmp(mode, "alu") == 0) {
		uint64_t r0 = 0, r1 = 1, r2 = 2, r3 = 3, r4 = 4, r5 = 5, r6 = 6, r7 = 7, r8 = 8,
			 r9 = 9, r10 = 10, r11 = 11;

		for (long i = 0; i < n; i++)
			__asm__ volatile("addi %0,%0,1\n\taddi %1,%1,1\n\taddi %2,%2,1\n\t"
					 "addi %3,%3,1\n\taddi %4,%4,1\n\taddi %5,%5,1\n\t"
					 "addi %6,%6,1\n\taddi %7,%7,1\n\taddi %8,%8,1\n\t"
					 "addi %9,%9,1\n\taddi %10,%10,1\n\taddi %11,%11,1"
					 : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3), "+r"(r4), "+r"(r5),
					   "+r"(r6), "+r"(r7), "+r"(r8), "+r"(r9), "+r"(r10), "+r"(r11));
		sum = r0 + r1 + r2 + r3 + r4 + r5 + r6 + r7 + r8 + r9 + r10 + r11;
	} else if (strcmp(mode, "csr") == 0) {
		for (long i = 0; i < n; i++) {
			uint64_t f;

			__asm__ volatile("frflags %0" : "=r"(f));
			sum += f + 1;
		}
	} else if (strcmp(mode, "stlf") == 0) {
		volatile uint64_t buf[8];

		for (long i = 0; i < n; i++) {
			buf[i & 7] = (uint64_t)i;
			sum += buf[i & 7];
		}
	} else if (strcmp(mode, "replay") == 0) {
		volatile uint64_t buf[8];
		uint64_t k = (uint64_t)fp;

		for (long i = 0; i < n; i++) {
			uint64_t j = (uint64_t)i & 7;

			buf[(j * k) / k] = (uint64_t)i;	/* address after a divide */
			sum += buf[j];			/* same address, known early */
		}
	} else if (strcmp(mode, "div") == 0) {
		uint64_t k = (uint64_t)fp, a = 1000, b = 2000, c = 3000, d = 4000;

		for (long i = 0; i < n; i++) {
			__asm__ volatile("divu %0,%0,%4\n\tdivu %1,%1,%4\n\tdivu %2,%2,%4\n\t"
					 "divu %3,%3,%4" : "+r"(a), "+r"(b), "+r"(c), "+r"(d) : "r"(k));
		}
		sum = a + b + c + d;
	} else if (strcmp(mode, "mulchain") == 0) {
		uint64_t x = 3;

		for (long i = 0; i < n; i++)
			__asm__ volatile("mul %0,%0,%0\n\tmul %0,%0,%0\n\tmul %0,%0,%0\n\t"
					 "mul %0,%0,%0" : "+r"(x));
		sum = x;
	} else if (strcmp(mode, "faddchain") == 0) {
		double x = 1.0, y = 1e-9;

		for (long i = 0; i < n; i++)
			__asm__ volatile("fadd.d %0,%0,%1\n\tfadd.d %0,%0,%1\n\tfadd.d %0,%0,%1\n\t"
					 "fadd.d %0,%0,%1" : "+f"(x) : "f"(y));
		sum = (uint64_t)x;
	} else {
		fprintf(stderr, "ubench: unknown mode %s\n", mode);
		return 2;
	}
	printf("ubench %s: %llu\n", mode, (unsigned long long)sum);
	return 0;
}
