/* SPDX-License-Identifier: Apache-2.0 */
/* fdo_prog.c - test-fdo-compiler's program: a hot loop with a biased branch, an inlined helper
 * (an inline stack in the DWARF), a rarely called function, a hot called function. The
 * profile of its riscv64 build is fed back to clang and gcc compiling this source. */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

static inline int classify(unsigned x)
{
	if (x % 61 == 0)
		return 3;
	return (x & 3) ? 1 : 2;
}

__attribute__((noinline)) int rare(int x)
{
	int s = 0;

	for (int k = 0; k < 5; k++)
		s += x >> k;
	return s;
}

__attribute__((noinline)) unsigned mix(unsigned h, unsigned v)
{
	h ^= v;
	h *= 16777619u;
	return h;
}

__attribute__((noinline)) unsigned hot(int n)
{
	unsigned h = 2166136261u;

	for (int i = 0; i < n; i++) {
		int c = classify((unsigned)i);

		if (c == 3)
			h += (unsigned)rare(i);
		else if (c == 1)
			h = mix(h, (unsigned)i);
		else
			h ^= (unsigned)i << 3;
	}
	return h;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;

	sink = 1;
	printf("%u\n", hot(n));
	return 0;
}
