/* SPDX-License-Identifier: Apache-2.0
 * stream - stall-intensive: McCalpin's STREAM kernels (copy, scale, add,
 * triad) over three arrays of argv[1] doubles (default 524288: 4 MB each,
 * 12 MB in all, three times a 4 MB last-level cache; 16384 for tests), two
 * iterations.
 *
 * Every kernel is a unit-stride loop of loads, one FP operation and a store
 * with no reuse, so the working set streams from DRAM: the loads are
 * independent (plenty of memory-level parallelism) but bandwidth- and
 * MSHR-bound, and commit is Stalled on the oldest load's miss most of the
 * time, punctuated by bursts of commits as lines arrive. A profile should
 * charge the stalls to the loads of each kernel, the triad's most.
 *
 * Self-check (as STREAM does): the arrays start constant, so every element
 * of each array must equal a scalar that goes through the same kernels; the
 * values are small integers, so the comparison is exact. */
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define ITERS 2

/* One STREAM iteration over n elements, scalar q. */
static void __attribute__((noinline))
stream_iter(double *restrict a, double *restrict b, double *restrict c, long n, double q)
{
	for (long i = 0; i < n; i++) /* copy */
		c[i] = a[i];
	for (long i = 0; i < n; i++) /* scale */
		b[i] = q * c[i];
	for (long i = 0; i < n; i++) /* add */
		c[i] = a[i] + b[i];
	for (long i = 0; i < n; i++) /* triad */
		a[i] = b[i] + q * c[i];
}

int main(int argc, char **argv)
{
	long n = wl_size(argc, argv, 524288, 1L << 26);
	double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
	double *c = malloc(sizeof(double) * n);
	double aj = 1.0, bj = 2.0, cj = 0.0, q = 3.0;
	uint64_t sum = 0, bad = 0;

	if (!a || !b || !c)
		return wl_report("stream", n, 0, 0, "out of memory");
	for (long i = 0; i < n; i++) {
		a[i] = aj;
		b[i] = bj;
		c[i] = cj;
	}
	for (int k = 0; k < ITERS; k++) {
		stream_iter(a, b, c, n, q);
		cj = aj;
		bj = q * cj;
		cj = aj + bj;
		aj = bj + q * cj;
	}
	for (long i = 0; i < n; i++) {
		bad += (a[i] != aj) + (b[i] != bj) + (c[i] != cj);
		sum += (uint64_t)a[i] + (uint64_t)b[i] + (uint64_t)c[i];
	}
	return wl_report("stream", n, sum, (uint64_t)n * (uint64_t)(aj + bj + cj),
			 bad ? "an element differs from the scalar recurrence" : NULL);
}
