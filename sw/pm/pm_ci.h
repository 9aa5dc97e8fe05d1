/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_ci.h - confidence intervals for sampled counts (docs/pm-report.md "Confidence
 * intervals"): the exact binomial (Clopper-Pearson) interval of a proportion k/n, the
 * Wilson score interval, and the regularized incomplete beta function they rest on. No
 * state, no allocation.
 */
#ifndef TIPROF_PM_CI_H
#define TIPROF_PM_CI_H

#include <stdint.h>

/* I_x(a, b), the regularized incomplete beta function, for a, b > 0 and 0 <= x <= 1. */
double pm_ci_betainc(double a, double b, double x);

/* Two-sided Clopper-Pearson interval of the binomial proportion p from k successes in n
 * trials at confidence conf (e.g. 0.95): lo = B^-1(α/2; k, n-k+1), hi = B^-1(1-α/2; k+1,
 * n-k) with α = 1 - conf (lo = 0 for k = 0, hi = 1 for k = n). n = 0: [0, 1]. */
void pm_ci_clopper_pearson(uint64_t k, uint64_t n, double conf, double *lo, double *hi);

/* Wilson score interval of p from k of n at confidence conf (n = 0: [0, 1]). */
void pm_ci_wilson(uint64_t k, uint64_t n, double conf, double *lo, double *hi);

/* The standard normal quantile z with P(Z <= z) = q, 0 < q < 1. */
double pm_ci_norm_quantile(double q);

#endif /* TIPROF_PM_CI_H */
