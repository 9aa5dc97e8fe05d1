/* SPDX-License-Identifier: Apache-2.0 */
/* lbr_recurse.c - traced test program: recursion and returns (a Fibonacci tree, mutual
 * recursion, an Ackermann-like descent). argv[1] = repetitions of an identical body.
 * Exits with status 3. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long is_odd(unsigned n);

__attribute__((noinline)) static long is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

__attribute__((noinline)) static long is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

__attribute__((noinline)) static long ack(long m, long n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

__attribute__((noipa)) static long body(void)
{
	long acc = fib(14);
	for (unsigned i = 0; i < 40; i++)
		acc += is_even(i * 3);
	acc += ack(2, 3);
	return acc;
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 1, res = 0;
	for (long r = 0; r < reps; r++)
		res = body();
	printf("recurse %ld\n", res);
	return 3;
}
