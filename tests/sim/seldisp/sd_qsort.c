/* SPDX-License-Identifier: Apache-2.0
 * sd_qsort - the quicksort workload (sim/workloads/quicksort.c, same keys, same algorithm,
 * same report) instrumented by hand with Xtpsd the way an instrumenter would (docs/seldisp.md
 * section 6, item 4): a pf.inc of flag 0 at the start of every basic block of the sort
 * (block profiling), a pf.inc of flag 1 before each call (call-graph profiling), pushpf at
 * the entry of qs_sort and poppf at its return. argv: MODE N, MODE "on" (main sets flags 0
 * and 1) or "off" (all clear), N the key count as the workload's argv[1]. Built without
 * the extension (-DSD_NONE) it is the uninstrumented baseline; stdout is the workload's
 * report line in every build and mode. The counters are not checked here (the ISS's
 * semantics are test-seldisp-isa's); main prints nothing about them, so the output stays
 * the same with profiling on and off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl.h"
#include "tiprof/seldisp.h"

#ifdef SD_NONE
#undef TP_SETPF
#undef TP_PUSHPF
#undef TP_POPPF
#undef TP_PF_INC
#define TP_SETPF(m) ((void)0)
#define TP_PUSHPF() ((void)0)
#define TP_POPPF() ((void)0)
#define TP_PF_INC(f, s) ((void)0)
#endif

/* one counter per basic block / call site, each its own symbol (pf.inc names a symbol) */
#define CTR(n) uint64_t n __attribute__((used, aligned(8)));
CTR(bb_entry) CTR(bb_outer) CTR(bb_adv) CTR(bb_ret) CTR(bb_cmp) CTR(bb_swap) CTR(bb_left)
CTR(bb_right) CTR(bb_exit) CTR(cg_left) CTR(cg_right) CTR(bb_hash) CTR(cg_hash) CTR(cg_sort)

static void qs_sort(uint32_t *a, long lo, long hi)
{
	TP_PUSHPF();
	TP_PF_INC(0, bb_entry);
	while (lo < hi) {
		TP_PF_INC(0, bb_outer);
		uint32_t pivot = a[lo + (hi - lo) / 2];
		long i = lo - 1, j = hi + 1;

		for (;;) {
			do {
				TP_PF_INC(0, bb_adv);
				i++;
			} while (a[i] < pivot);
			do {
				TP_PF_INC(0, bb_ret);
				j--;
			} while (a[j] > pivot);
			TP_PF_INC(0, bb_cmp);
			if (i >= j)
				break;
			TP_PF_INC(0, bb_swap);
			uint32_t t = a[i];
			a[i] = a[j];
			a[j] = t;
		}
		if (j - lo < hi - j) {
			TP_PF_INC(0, bb_left);
			TP_PF_INC(1, cg_left);
			qs_sort(a, lo, j);
			lo = j + 1;
		} else {
			TP_PF_INC(0, bb_right);
			TP_PF_INC(1, cg_right);
			qs_sort(a, j + 1, hi);
			hi = j;
		}
	}
	TP_PF_INC(0, bb_exit);
	TP_POPPF();
}

static uint64_t multiset_hash(const uint32_t *a, long n)
{
	uint64_t h = 0;

	for (long i = 0; i < n; i++) {
		TP_PF_INC(0, bb_hash);
		uint64_t z = a[i] * 0x9e3779b97f4a7c15ull;

		h += z ^ (z >> 29);
	}
	return h;
}

int main(int argc, char **argv)
{
	long n = wl_size(argc - 1, argv + 1, 150000, 50000000);
	uint32_t *a = malloc(sizeof(uint32_t) * n);
	uint64_t seed = 3, before, after;
	long unsorted = 0;

	if (argc > 1 && strcmp(argv[1], "on") == 0)
		TP_SETPF(3);
	if (!a)
		return wl_report("quicksort", n, 0, 0, "out of memory");
	for (long i = 0; i < n; i++)
		a[i] = (uint32_t)wl_rand(&seed);
	TP_PF_INC(1, cg_hash);
	before = multiset_hash(a, n);

	TP_PF_INC(1, cg_sort);
	qs_sort(a, 0, n - 1);

	for (long i = 1; i < n; i++)
		unsorted += a[i - 1] > a[i];
	after = multiset_hash(a, n);
	return wl_report("quicksort", n, after, before,
			 unsorted ? "output not in order" : NULL);
}
