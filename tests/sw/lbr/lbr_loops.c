/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_loops.c - traced test program: loops with data-dependent branches and a switch (jump
 * table). argv[1] = repetitions of an identical body (same branch sequence every time), so a
 * short single-stepped run contains every window of a long traced run. Prints a checksum
 * that does not depend on the repetitions; exits with status 7. */
#include <stdio.h>
#include <stdlib.h>

static unsigned seed;

__attribute__((noinline)) static unsigned rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 16;
}

__attribute__((noipa)) static long body(void)
{
	long acc = 0;
	seed = 1;
	for (int i = 0; i < 600; i++) {
		unsigned r = rnd();
		if (r & 1)
			acc += r;
		else
			acc -= i;
		for (unsigned k = r % 5; k > 0; k--)
			acc ^= (long)k << (i & 7);
		switch (r % 7) {
		case 0: acc += 3; break;
		case 1: acc *= 5; break;
		case 2: acc -= 11; break;
		case 3: acc ^= 0x55; break;
		case 4: acc += r >> 3; break;
		case 5: acc = acc / 3 + 1; break;
		default: acc--; break;
		}
	}
	return acc;
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 1, res = 0;
	for (long r = 0; r < reps; r++)
		res = body();
	printf("loops %ld\n", res);
	return 7;
}
