/* SPDX-License-Identifier: Apache-2.0
 * ptrchase - stall-intensive: walk a linked list of argv[1] nodes (default
 * 262144 = 16 MB, four times a 4 MB last-level cache; 16384 for tests) laid
 * out in a random order, four laps.
 *
 * Each node fills a 64-byte cache line, and the list links the nodes in one
 * random cycle (Sattolo's shuffle), so every step of the hot loop
 * (chase) is a load whose address is the previous load's result and which
 * misses every cache level. There is no memory-level parallelism to find:
 * the core waits for DRAM at every node, and commit is Stalled behind that
 * load. A profile should charge the stall cycles to the `ld` of n->next
 * (the oldest, not yet completed instruction), not to its consumers.
 *
 * Self-check: node i carries payload i; after `laps` laps from node 0 the
 * walk must be back at node 0 and the payload sum must be laps * n(n-1)/2.
 * The walk also counts visits per node, which must all equal laps. */
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define LAPS 4

struct node {
	struct node *next;
	uint64_t payload;  /* the node's own index */
	uint64_t visits;   /* bumped on every visit */
	uint64_t pad[5];   /* fill the 64-byte line */
};

/* The measured loop: follow `steps` links from n, summing payloads. */
static uint64_t __attribute__((noinline)) chase(struct node **pos, long steps)
{
	struct node *n = *pos;
	uint64_t sum = 0;

	for (long s = 0; s < steps; s++) {
		sum += n->payload;
		n->visits++;
		n = n->next;
	}
	*pos = n;
	return sum;
}

int main(int argc, char **argv)
{
	long n = wl_size(argc, argv, 262144, 1L << 26);
	struct node *nodes = calloc((size_t)n, sizeof(*nodes));
	uint32_t *perm = malloc(sizeof(uint32_t) * n);
	uint64_t seed = 6, sum, want = (uint64_t)LAPS * n * (n - 1) / 2;
	struct node *pos;
	long bad = 0;

	if (!nodes || !perm)
		return wl_report("ptrchase", n, 0, 0, "out of memory");
	/* Sattolo: a uniformly random permutation with a single cycle. */
	for (long i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (long i = n - 1; i > 0; i--) {
		uint32_t j = wl_below(&seed, (uint32_t)i), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (long i = 0; i < n; i++) {
		nodes[i].next = &nodes[perm[i]];
		nodes[i].payload = (uint64_t)i;
	}
	free(perm);

	pos = &nodes[0];
	sum = chase(&pos, LAPS * n);

	for (long i = 0; i < n; i++)
		bad += nodes[i].visits != LAPS;
	return wl_report("ptrchase", n, sum, want,
			 pos != &nodes[0] ? "walk did not return to the head" :
			 bad ? "a node was not visited once per lap" : NULL);
}
