/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_indirect.c - traced test program: indirect calls through a table of function pointers
 * and through a struct of operations (vtable-like), selected by data. argv[1] = repetitions
 * of an identical body. Exits with status 0. */
#include <stdio.h>
#include <stdlib.h>

static unsigned seed;

static unsigned rnd(void)
{
	seed = seed * 1664525u + 1013904223u;
	return seed >> 8;
}

__attribute__((noinline)) static long op_add(long a, long b) { return a + b; }
__attribute__((noinline)) static long op_sub(long a, long b) { return a - b; }
__attribute__((noinline)) static long op_xor(long a, long b) { return a ^ b; }
__attribute__((noinline)) static long op_mix(long a, long b) { return (a * 31) ^ (b >> 1); }

struct shape_ops {
	long (*area)(long);
	long (*perimeter)(long);
};

__attribute__((noinline)) static long sq_area(long x) { return x * x; }
__attribute__((noinline)) static long sq_per(long x) { return 4 * x; }
__attribute__((noinline)) static long tri_area(long x) { return x * x / 2; }
__attribute__((noinline)) static long tri_per(long x) { return 3 * x; }

static long (*const volatile ops[4])(long, long) = { op_add, op_sub, op_xor, op_mix };
static const struct shape_ops shapes[2] = { { sq_area, sq_per }, { tri_area, tri_per } };

__attribute__((noipa)) static long body(void)
{
	long acc = 0;
	seed = 7;
	for (int i = 0; i < 500; i++) {
		unsigned r = rnd();
		acc = ops[r & 3](acc, (long)(r >> 4));
		const struct shape_ops *s = &shapes[(r >> 2) & 1];
		acc += (r & 16) ? s->area((long)(r & 255)) : s->perimeter((long)(r & 255));
	}
	return acc;
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 1, res = 0;
	for (long r = 0; r < reps; r++)
		res = body();
	printf("indirect %ld\n", res);
	return 0;
}
