/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_ci.c - confidence intervals for sampled counts (contract in pm_ci.h). The incomplete
 * beta function is the continued fraction evaluated by the modified Lentz method; the
 * Clopper-Pearson bounds invert it by bisection on the proportion (the binomial tail is
 * monotonic in p), to a relative precision far below the statistical error.
 */
#include <math.h>

#include "pm_ci.h"

/* Continued fraction of I_x(a, b) (valid for x < (a + 1) / (a + b + 2)). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1.0, qam = a - 1.0;
	double c = 1.0, d = 1.0 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= 1000000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < eps)
			break;
	}
	return h;
}

/* Contract in pm_ci.h. */
double pm_ci_betainc(double a, double b, double x)
{
	double lbt;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1.0 - exp(lbt) * betacf(b, a, 1.0 - x) / b;
}

/* The p in (0, 1) with I_p(a, b) = t, by bisection (I is increasing in p). */
static double betainv(double a, double b, double t)
{
	double lo = 0.0, hi = 1.0;

	for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
		double mid = 0.5 * (lo + hi);

		if (pm_ci_betainc(a, b, mid) < t)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* Contract in pm_ci.h. */
void pm_ci_clopper_pearson(uint64_t k, uint64_t n, double conf, double *lo, double *hi)
{
	double alpha = 1.0 - conf, dk = (double)k, dn = (double)n;

	if (n == 0 || k > n) {
		*lo = 0.0;
		*hi = 1.0;
		return;
	}
	/* closed forms at the ends */
	*lo = k == 0 ? 0.0 : k == n ? pow(alpha / 2.0, 1.0 / dn) :
	      betainv(dk, dn - dk + 1.0, alpha / 2.0);
	*hi = k == n ? 1.0 : k == 0 ? 1.0 - pow(alpha / 2.0, 1.0 / dn) :
	      betainv(dk + 1.0, dn - dk, 1.0 - alpha / 2.0);
}

/* Contract in pm_ci.h: Acklam's rational approximation refined by one Halley step. */
double pm_ci_norm_quantile(double q)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double x, r, e, u;

	if (q <= 0.0)
		return -INFINITY;
	if (q >= 1.0)
		return INFINITY;
	if (q < 0.02425) {
		r = sqrt(-2.0 * log(q));
		x = (((((c[0] * r + c[1]) * r + c[2]) * r + c[3]) * r + c[4]) * r + c[5]) /
		    ((((d[0] * r + d[1]) * r + d[2]) * r + d[3]) * r + 1.0);
	} else if (q > 1.0 - 0.02425) {
		r = sqrt(-2.0 * log1p(-q));
		x = -(((((c[0] * r + c[1]) * r + c[2]) * r + c[3]) * r + c[4]) * r + c[5]) /
		    ((((d[0] * r + d[1]) * r + d[2]) * r + d[3]) * r + 1.0);
	} else {
		r = (q - 0.5) * (q - 0.5);
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) *
		    (q - 0.5) /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
	}
	e = 0.5 * erfc(-x / sqrt(2.0)) - q;
	u = e * sqrt(2.0 * M_PI) * exp(x * x / 2.0);
	return x - u / (1.0 + x * u / 2.0);
}

/* Contract in pm_ci.h. */
void pm_ci_wilson(uint64_t k, uint64_t n, double conf, double *lo, double *hi)
{
	double z, p, dn = (double)n, den, mid, half;

	if (n == 0 || k > n) {
		*lo = 0.0;
		*hi = 1.0;
		return;
	}
	z = pm_ci_norm_quantile(1.0 - (1.0 - conf) / 2.0);
	p = (double)k / dn;
	den = 1.0 + z * z / dn;
	mid = (p + z * z / (2.0 * dn)) / den;
	half = z * sqrt(p * (1.0 - p) / dn + z * z / (4.0 * dn * dn)) / den;
	*lo = mid - half < 0.0 ? 0.0 : mid - half;
	*hi = mid + half > 1.0 ? 1.0 : mid + half;
}
