/* SPDX-License-Identifier: Apache-2.0
 * matmul - compute-intensive: blocked double-precision matrix multiply
 * C = A * B on n x n matrices (argv[1] = n, default 160; 48 for tests).
 *
 * The hot loop (mm_blocked, innermost j loop) streams a row of a 32x32 block
 * of B against one element of A into a row of C: independent loads, FMAs and
 * stores with no loop-carried dependency except the counter, on a working set
 * of 3 blocks (24 KB) that stays in the L1 data cache. Commit is expected to
 * be Computing most of the time (several instructions per cycle), so a
 * profile should spread cycles evenly over the few instructions of that loop.
 *
 * Self-check (Freivalds): the entries are small integers, so every product is
 * exact; C*x must equal A*(B*x) for a random integer vector x with no zero
 * entry. That costs O(n^2), so the check stays out of the profile. */
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define BS 32 /* block edge: 3 blocks of doubles = 24 KB */

/* C += A*B, all n x n row-major, iterated block by block. */
static void __attribute__((noinline))
mm_blocked(long n, const double *a, const double *b, double *c)
{
	for (long i0 = 0; i0 < n; i0 += BS)
		for (long k0 = 0; k0 < n; k0 += BS)
			for (long j0 = 0; j0 < n; j0 += BS) {
				long i1 = i0 + BS < n ? i0 + BS : n;
				long k1 = k0 + BS < n ? k0 + BS : n;
				long j1 = j0 + BS < n ? j0 + BS : n;

				for (long i = i0; i < i1; i++)
					for (long k = k0; k < k1; k++) {
						double aik = a[i * n + k];
						const double *brow = &b[k * n];
						double *crow = &c[i * n];

						for (long j = j0; j < j1; j++)
							crow[j] += aik * brow[j];
					}
			}
}

/* y = M*x for an n x n matrix M. */
static void mat_vec(long n, const double *m, const double *x, double *y)
{
	for (long i = 0; i < n; i++) {
		double s = 0.0;

		for (long j = 0; j < n; j++)
			s += m[i * n + j] * x[j];
		y[i] = s;
	}
}

int main(int argc, char **argv)
{
	long n = wl_size(argc, argv, 160, 1024);
	double *a = malloc(sizeof(double) * n * n);
	double *b = malloc(sizeof(double) * n * n);
	double *c = calloc((size_t)n * n, sizeof(double));
	double *x = malloc(sizeof(double) * n), *bx = malloc(sizeof(double) * n);
	double *cx = malloc(sizeof(double) * n), *abx = malloc(sizeof(double) * n);
	uint64_t seed = 1, sum = 0, ref = 0;

	if (!a || !b || !c || !x || !bx || !cx || !abx)
		return wl_report("matmul", n, 0, 0, "out of memory");
	/* Entries in [-4, 4]: n <= 1024 keeps every sum below 2^53, so exact. */
	for (long i = 0; i < n * n; i++) {
		a[i] = (double)((int)wl_below(&seed, 9) - 4);
		b[i] = (double)((int)wl_below(&seed, 9) - 4);
	}
	/* x in [1, 8]: no zero entry, so a single wrong C[i][j] always shows. */
	for (long i = 0; i < n; i++)
		x[i] = (double)(1 + (int)wl_below(&seed, 8));

	mm_blocked(n, a, b, c);

	mat_vec(n, c, x, cx);
	mat_vec(n, b, x, bx);
	mat_vec(n, a, bx, abx);
	for (long i = 0; i < n; i++) {
		sum = sum * 31 + (uint64_t)(int64_t)cx[i];
		ref = ref * 31 + (uint64_t)(int64_t)abx[i];
	}
	return wl_report("matmul", n, sum, ref, NULL);
}
