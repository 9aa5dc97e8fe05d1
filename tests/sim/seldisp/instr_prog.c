/* SPDX-License-Identifier: Apache-2.0 */
/* instr_prog.c - the program make test-seldisp-instr instruments (docs/seldisp.md section 9):
 * loops, a jump-table switch, recursion deeper than the pfstate stack, direct, indirect and
 * tail calls (direct and indirect), a libc callback (qsort's comparator), floating-point
 * arguments live across the timer poll at every entry. Prints its results; argv[1] = size. */
#include <stdio.h>
#include <stdlib.h>

#define NOINL __attribute__((noinline))

static unsigned long long rng = 88172645463325252ull;
static NOINL unsigned next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 11);
}

static NOINL long op_add(long a, long b) { return a + b; }
static NOINL long op_sub(long a, long b) { return a - b; }
static NOINL long op_mul(long a, long b) { return (a * b) % 1000003; }
static NOINL long op_xor(long a, long b) { return a ^ b; }
static long (*const ops[4])(long, long) = { op_add, op_sub, op_mul, op_xor };

/* a jump table: dense cases with calls */
static NOINL long dispatch(int k, long a)
{
	switch (k) {
	case 0: return op_add(a, 3);
	case 1: return op_sub(a, 5);
	case 2: return op_mul(a, 7);
	case 3: return op_xor(a, 0x55);
	case 4: return a / 3 + 1;
	case 5: return op_add(a, a);
	case 6: return op_sub(0, a);
	case 7: return a >> 1;
	default: return -a;
	}
}

/* recursion 20 deep (the stack holds 8 entries; the rest is counted in OVF) */
static NOINL long depth(int n, long acc)
{
	if (n == 0)
		return acc;
	return depth(n - 1, acc * 3 + n) % 1000000007 + 1;
}

/* tail calls: direct and through a pointer */
static NOINL long tail_direct(long a) { return op_mul(a + 1, a + 2); }
static long (*volatile tail_fp)(long, long) = op_xor;
static NOINL long tail_indirect(long a) { return tail_fp(a, 77); }

static NOINL double fmix(double x, double y, long n)
{
	return x * 0.5 + y * 0.25 + (double)(n % 17);
}

static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000, s = 0, t = 0;
	double d = 1.0;
	unsigned *v;

	if (n <= 0 || n > 10000000) {
		fprintf(stderr, "instr_prog: bad size %s\n", argv[1]);
		return 2;
	}
	for (long i = 0; i < n; i++) {
		unsigned r = next();
		s = ops[r & 3](s, r % 1000);
		t += dispatch((int)(r >> 3) % 9, (long)(r % 10007));
		if (r % 5 == 0)
			s = tail_direct(s % 1000);
		else if (r % 7 == 0)
			s = tail_indirect(s);
		d = fmix(d, (double)(r % 100), i);
		if (i % 97 == 0)
			t += depth(20, i);
	}
	v = malloc(sizeof(*v) * 256);
	if (!v)
		return 1;
	for (int i = 0; i < 256; i++)
		v[i] = next() % 5000;
	qsort(v, 256, sizeof(*v), cmp);
	printf("instr_prog: n=%ld s=%ld t=%ld d=%.6f v0=%u v255=%u\n", n, s, t, d, v[0], v[255]);
	free(v);
	return 0;
}
