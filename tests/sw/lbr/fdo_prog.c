/* SPDX-License-Identifier: Apache-2.0 */
/* fdo_prog.c - test program of the output formats (tests/sw/lbr/outputs.sh): a hot function
 * with a data-dependent branch and a call, called from main in a loop. argv[1] = iterations
 * per call. Built with clang (-gdwarf-4: Debian's AutoFDO reads no DWARF 5); compiles
 * without warnings with gcc and clang. Prints a checksum; exits 0. */
#include <stdio.h>
#include <stdlib.h>

static unsigned seed = 1;

__attribute__((noinline)) static unsigned next_rand(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 16;
}

__attribute__((noinline)) static long hot_loop(long n)
{
	long acc = 0;
	for (long i = 0; i < n; i++) {
		unsigned r = next_rand();
		if (r % 3 == 0)
			acc += r;
		else
			acc -= (long)(r & 7);
	}
	return acc;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, acc = 0;
	for (int rep = 0; rep < 10; rep++)
		acc += hot_loop(n);
	printf("fdo %ld\n", acc);
	return 0;
}
