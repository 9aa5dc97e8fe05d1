/* SPDX-License-Identifier: Apache-2.0 */
/* Floating-point workload for the decoder and ISS tests: float and double
 * arithmetic, fused multiply-add, square roots, every rounding mode, the
 * rounding functions, conversions with saturation, min/max with NaNs and
 * the exception flags. Deterministic output. */
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
static const char *const mode_names[] = { "nearest", "towardzero", "downward", "upward" };

static uint64_t bits_d(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static uint32_t bits_f(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }

/* Exercise arithmetic under the current rounding mode; fold into a hash. */
static uint64_t arith(volatile double a, volatile double b, volatile float fa, volatile float fb)
{
	uint64_t h = 0;

	h = h * 131 + bits_d(a + b);
	h = h * 131 + bits_d(a - b);
	h = h * 131 + bits_d(a * b);
	h = h * 131 + bits_d(a / b);
	h = h * 131 + bits_d(sqrt(fabs(a)));
	h = h * 131 + bits_d(fma(a, b, -a));
	h = h * 131 + bits_f(fa + fb);
	h = h * 131 + bits_f(fa * fb);
	h = h * 131 + bits_f(fa / fb);
	h = h * 131 + bits_f(sqrtf(fabsf(fa)));
	h = h * 131 + bits_f(fmaf(fa, fb, fa));
	h = h * 131 + bits_f((float)a);
	h = h * 131 + bits_d((double)fa);
	h = h * 131 + (uint64_t)(int64_t)rint(a * 1000.0);
	h = h * 131 + (uint64_t)lrint(b);
	h = h * 131 + (uint64_t)(int32_t)lrintf(fb);
	h = h * 131 + bits_d(nearbyint(a));
	h = h * 131 + bits_f(rintf(fa));
	h = h * 131 + bits_d((double)(int64_t)(a * 1e6));
	h = h * 131 + bits_f((float)(uint32_t)(fb > 0 ? fb : -fb));
	return h;
}

static uint64_t conversions(void)
{
	static const double vals[] = { 0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e10, -1e10,
		1e20, -1e20, 4294967295.5, -2147483648.7, 9.3e18, 1.9e19, INFINITY, -INFINITY, NAN };
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		volatile double x = vals[i];
		volatile float f = (float)vals[i];
		int32_t w; uint32_t wu; int64_t l; uint64_t lu;

		/* Out-of-range conversions are undefined in C; use inline
		 * asm so the RISC-V saturation rules are what is measured. */
		__asm__ volatile("fcvt.w.d %0, %1, rtz" : "=r"(w) : "f"(x));
		__asm__ volatile("fcvt.wu.d %0, %1, rtz" : "=r"(wu) : "f"(x));
		__asm__ volatile("fcvt.l.d %0, %1, rtz" : "=r"(l) : "f"(x));
		__asm__ volatile("fcvt.lu.d %0, %1, rtz" : "=r"(lu) : "f"(x));
		h = h * 257 + (uint32_t)w + wu + (uint64_t)l + lu;
		__asm__ volatile("fcvt.w.s %0, %1, rne" : "=r"(w) : "f"(f));
		__asm__ volatile("fcvt.lu.s %0, %1, rmm" : "=r"(lu) : "f"(f));
		h = h * 257 + (uint32_t)w + lu;
		h = h * 257 + (uint64_t)lround(isfinite(x) && fabs(x) < 1e18 ? x : 0.0);
		h = h * 257 + bits_d(round(x)) + bits_d(trunc(x)) + bits_d(floor(x)) + bits_d(ceil(x));
		h = h * 257 + bits_f(roundf(f)) + bits_f(truncf(f)) + bits_f(floorf(f)) + bits_f(ceilf(f));
	}
	return h;
}

static uint64_t minmax_class(void)
{
	volatile double qnan = NAN, one = 1.0, mzero = -0.0, zero = 0.0;
	volatile float fq = NAN, f1 = 1.0f;
	uint64_t h = 0, c;
	double snan;
	uint64_t sbits = 0x7ff4000000000000ULL;

	memcpy(&snan, &sbits, 8);
	h = h * 3 + bits_d(fmin(qnan, one)) + bits_d(fmax(one, qnan));
	h = h * 3 + bits_d(fmin(mzero, zero)) + bits_d(fmax(mzero, zero));
	h = h * 3 + bits_d(fmin(qnan, qnan)) + bits_f(fminf(fq, f1)) + bits_f(fmaxf(fq, fq));
	h = h * 3 + bits_d(fmin(snan, one));
	__asm__ volatile("fclass.d %0, %1" : "=r"(c) : "f"(snan)); h = h * 3 + c;
	__asm__ volatile("fclass.d %0, %1" : "=r"(c) : "f"(mzero)); h = h * 3 + c;
	__asm__ volatile("fclass.s %0, %1" : "=r"(c) : "f"(fq)); h = h * 3 + c;
	h = h * 3 + bits_d(snan + one);           /* canonical NaN */
	h = h * 3 + bits_f((float)snan);           /* canonical NaN */
	return h;
}

static unsigned flags_test(void)
{
	volatile double big = DBL_MAX, tiny = DBL_MIN, zero = 0.0, one = 1.0, three = 3.0;
	volatile double r;
	unsigned out = 0;

	feclearexcept(FE_ALL_EXCEPT);
	r = big * big;   out = out << 5 | (unsigned)fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
	r = tiny / 1e10; out = out << 5 | (unsigned)fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
	r = one / zero;  out = out << 5 | (unsigned)fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
	r = zero / zero; out = out << 5 | (unsigned)fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
	r = one / three; out = out << 5 | (unsigned)fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
	(void)r;
	return out;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300;
	double sum = 0, x = 0.1;
	float fs = 0;
	int m, i;

	for (m = 0; m < 4; m++) {
		uint64_t h = 0;

		fesetround(modes[m]);
		for (i = 1; i <= n; i++) {
			double a = (i * 0.7311) - n / 3.0, b = 1.0 / (i + 0.25);
			h = h * 7 + arith(a, b, (float)a * 1.1f, (float)b - 0.3f);
		}
		printf("mode %-10s round %d hash %016" PRIx64 " rint(2.5)=%g rint(-3.5)=%g\n",
		       mode_names[m], fegetround() == modes[m], h, rint(2.5), rint(-3.5));
	}
	fesetround(FE_TONEAREST);
	for (i = 0; i < 20000; i++) {
		x = x * 3.7 * (1.0 - x);
		sum += sin(x) * exp(-x) + log1p(x) + pow(x, 1.5) + atan2(x, 1.0 - x);
		fs += (float)x * 0.5f;
	}
	printf("logistic %.17g sum %.17g fs %.9g\n", x, sum, (double)fs);
	printf("conv %016" PRIx64 " minmax %016" PRIx64 " flags %08x\n",
	       conversions(), minmax_class(), flags_test());
	printf("strtod %.17g %a %g %e\n", strtod("3.14159265358979323846", NULL), 0.1, 1e-300 * 1e-300, 12345.678);
	printf("float %a %.9g %g\n", (double)1.1f, (double)(1.0f / 3.0f), (double)sqrtf(2.0f));
	return 0;
}
