/* SPDX-License-Identifier: Apache-2.0
 * ceilfloor - flush-intensive: libm ceil() and floor() in a hot loop,
 * argv[1] passes (default 1000; 20 for tests) over 1024 doubles.
 *
 * RISC-V glibc's ceil and floor save fflags (frflags) on entry and restore
 * them (fsflags) after the fcvt that would raise "inexact". Both are CSR
 * accesses, which BOOM decodes as unique and flush-on-commit: each call costs
 * two pipeline flushes though it is a dozen plain instructions. A profile
 * should charge the Flushed cycles to the frflags/fsflags inside __ceil and
 * __floor, which makes libm, not the caller's loop, the hot spot.
 *
 * Self-check: floor and ceil are recomputed from an integer conversion (C's
 * truncating cast plus a comparison), with no libm call and no CSR access;
 * the sums over all passes must match. The values have fractional parts (or
 * none) and magnitude at most 2^20, so both methods are exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define NVALS 1024

/* The measured loop: passes x NVALS calls of ceil and of floor. */
static int64_t __attribute__((noinline)) sum_libm(const double *v, long passes)
{
	int64_t s = 0;

	for (long p = 0; p < passes; p++)
		for (int i = 0; i < NVALS; i++)
			s += (int64_t)ceil(v[i]) * 3 + (int64_t)floor(v[i]);
	return s;
}

/* The reference: the same sum by integer truncation, once, times passes. */
static int64_t sum_int(const double *v, long passes)
{
	int64_t s = 0;

	for (int i = 0; i < NVALS; i++) {
		int64_t t = (int64_t)v[i]; /* rounds toward zero */
		int64_t fl = t - (v[i] < (double)t);
		int64_t cl = t + (v[i] > (double)t);

		s += cl * 3 + fl;
	}
	return s * passes;
}

int main(int argc, char **argv)
{
	long passes = wl_size(argc, argv, 1000, 100000000);
	double v[NVALS];
	uint64_t seed = 5;

	/* Integers in [-2^20, 2^20) plus a multiple of 1/1024 (zero included). */
	for (int i = 0; i < NVALS; i++)
		v[i] = (double)((int32_t)wl_below(&seed, 1u << 21) - (1 << 20)) +
		       wl_below(&seed, 1024) / 1024.0;

	return wl_report("ceilfloor", passes, (uint64_t)sum_libm(v, passes),
			 (uint64_t)sum_int(v, passes), NULL);
}
