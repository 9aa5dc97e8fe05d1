/* SPDX-License-Identifier: Apache-2.0 */
/* loops.c - a small program with known control flow for test-fdo's exact-truth check: a loop
 * nest, a data-dependent branch, a switch (an indirect jump at -O2), recursion. */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) int kern(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++) {
		if (i % 3 == 0)
			s += i;
		else
			s ^= i;
		for (int j = 0; j < 4; j++)
			sink = j;
	}
	return s;
}

__attribute__((noinline)) int sw(int k)
{
	switch (k & 7) {
	case 0: return k + 1;
	case 1: return k * 3;
	case 2: return k - 7;
	case 3: return k << 2;
	case 4: return k >> 1;
	case 5: return k ^ 0x55;
	case 6: return k | 9;
	default: return 0;
	}
}

__attribute__((noinline)) int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
	int s = kern(1000);

	for (int k = 0; k < 500; k++)
		s += sw(k);
	s += fib(15);
	printf("%d\n", s);
	return 0;
}
