/* SPDX-License-Identifier: Apache-2.0
 * quicksort - flush-intensive: recursive quicksort of argv[1] random 32-bit
 * keys (default 150000; 5000 for tests).
 *
 * The hot loops are the two scans of Hoare's partition (qs_sort): "advance
 * while key < pivot" and "retreat while key > pivot". On random keys each
 * comparison goes either way with no pattern, so the scan-exit branches
 * mispredict roughly once per element moved, and the core spends much of its
 * time flushing and refilling after them. A profile should charge those
 * cycles to the compare-and-branch instructions of the scans (Flushed state),
 * not spread them over the instructions that follow.
 *
 * Self-check: the output must be in order (one branch-predictable pass) and a
 * permutation of the input: an order-independent hash of the multiset (sum of
 * a mixing function of every key) must be unchanged. */
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

/* Sort a[lo..hi] inclusive. Middle element as pivot; recurse into the smaller
 * side and loop on the larger, so the stack stays O(log n). */
static void qs_sort(uint32_t *a, long lo, long hi)
{
	while (lo < hi) {
		uint32_t pivot = a[lo + (hi - lo) / 2];
		long i = lo - 1, j = hi + 1;

		for (;;) {
			do
				i++;
			while (a[i] < pivot);
			do
				j--;
			while (a[j] > pivot);
			if (i >= j)
				break;
			uint32_t t = a[i];
			a[i] = a[j];
			a[j] = t;
		}
		if (j - lo < hi - j) {
			qs_sort(a, lo, j);
			lo = j + 1;
		} else {
			qs_sort(a, j + 1, hi);
			hi = j;
		}
	}
}

/* Order-independent multiset hash: sum of a bijective mix of each key. */
static uint64_t multiset_hash(const uint32_t *a, long n)
{
	uint64_t h = 0;

	for (long i = 0; i < n; i++) {
		uint64_t z = a[i] * 0x9e3779b97f4a7c15ull;

		h += z ^ (z >> 29);
	}
	return h;
}

int main(int argc, char **argv)
{
	long n = wl_size(argc, argv, 150000, 50000000);
	uint32_t *a = malloc(sizeof(uint32_t) * n);
	uint64_t seed = 3, before, after;
	long unsorted = 0;

	if (!a)
		return wl_report("quicksort", n, 0, 0, "out of memory");
	for (long i = 0; i < n; i++)
		a[i] = (uint32_t)wl_rand(&seed);
	before = multiset_hash(a, n);

	qs_sort(a, 0, n - 1);

	for (long i = 1; i < n; i++)
		unsorted += a[i - 1] > a[i];
	after = multiset_hash(a, n);
	return wl_report("quicksort", n, after, before,
			 unsorted ? "output not in order" : NULL);
}
