/* SPDX-License-Identifier: Apache-2.0 */
/* F and D execution: host IEEE arithmetic under the host rounding mode
 * (C fenv) for RNE/RTZ/RDN/RUP, RISC-V rules layered on top: accrued
 * flags, canonical NaNs, NaN-boxing, fmin/fmax, fcvt saturation, fclass.
 * RMM (ties to max magnitude) has no host mode: results are computed in
 * long double and rounded with ties away (exact for single precision and
 * conversions; for double add/sub/mul/div/sqrt the exact residual decides
 * ties; double fma uses the long double product, see README). Built with
 * -frounding-math so the compiler keeps every operation at run time. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "iss_int.h"

#define NV 16
#define DZ 8
#define OF 4
#define UF 2
#define NX 1

#define CNAN_S 0x7fc00000u
#define CNAN_D 0x7ff8000000000000ull
#define BOX    0xffffffff00000000ull

static float f_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u_of_f(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double d_of(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t u_of_d(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* Single operand from a register: improperly NaN-boxed values read as
 * the canonical NaN. */
static uint32_t s_bits(const struct iss *s, unsigned r)
{
	uint64_t v = s->f[r];
	return (v >> 32) == 0xffffffffu ? (uint32_t)v : CNAN_S;
}

static float S(const struct iss *s, unsigned r) { return f_of(s_bits(s, r)); }
static double D(const struct iss *s, unsigned r) { return d_of(s->f[r]); }

/* Write results; arithmetic results that are NaN become canonical. */
static void put_s(struct iss *s, unsigned r, float v)
{
	s->f[r] = BOX | (isnan(v) ? CNAN_S : u_of_f(v));
}

static void put_d(struct iss *s, unsigned r, double v)
{
	s->f[r] = isnan(v) ? CNAN_D : u_of_d(v);
}

static int is_snan_s(uint32_t u) { return (u & 0x7fc00000u) == 0x7f800000u && (u & 0x3fffffu); }
static int is_snan_d(uint64_t u)
{
	return (u & 0x7ff8000000000000ull) == 0x7ff0000000000000ull && (u & 0x7ffffffffffffull);
}

/* Host exception flags as RISC-V fflags bits. */
static unsigned host_flags(void)
{
	int e = fetestexcept(FE_ALL_EXCEPT);
	unsigned f = 0;

	if (e & FE_INVALID) f |= NV;
	if (e & FE_DIVBYZERO) f |= DZ;
	if (e & FE_OVERFLOW) f |= OF;
	if (e & FE_UNDERFLOW) f |= UF;
	if (e & FE_INEXACT) f |= NX;
	return f;
}

/* Resolve the instruction's rounding mode; -1 if reserved. */
static int eff_rm(const struct iss *s, const struct rv_insn *i)
{
	unsigned rm = i->rm == RV_RM_DYN ? s->frm : i->rm;

	return rm <= RV_RM_RMM ? (int)rm : -1;
}

/* Set the host rounding mode for rm (RMM computes under RNE). */
static void set_host_rm(struct iss *s, int rm)
{
	static const int host[5] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
		FE_UPWARD, FE_TONEAREST };

	if (s->host_rm != host[rm]) {
		fesetround(host[rm]);
		s->host_rm = host[rm];
	}
}

/* ---- ties-away rounding -------------------------------------------- */

/* Round the exact value x to float with ties away from zero. */
static float ld_to_s_rmm(long double x)
{
	float r = (float)x, o;
	long double mid;

	if ((long double)r == x || isnan(r) || isinf(r))
		return r;
	o = nextafterf(r, x > (long double)r ? INFINITY : -INFINITY);
	mid = ((long double)r + (long double)o) / 2;
	if (x == mid)
		return fabsf(o) > fabsf(r) ? o : r;
	return r;
}

/* Round the exact value x to double with ties away from zero. */
static double ld_to_d_rmm(long double x)
{
	double r = (double)x, o;
	long double mid;

	if ((long double)r == x || isnan(r) || isinf(r))
		return r;
	o = nextafter(r, x > (long double)r ? INFINITY : -INFINITY);
	mid = ((long double)r + (long double)o) / 2;
	if (x == mid)
		return fabs(o) > fabs(r) ? o : r;
	return r;
}

/* Given a double result r rounded to nearest-even and the exact residual
 * e (exact = r + e, e exact), move r away from zero on an exact tie. */
static double tie_away(double r, double e)
{
	double o;

	if (e == 0 || isnan(r) || isinf(r))
		return r;
	o = nextafter(r, e > 0 ? INFINITY : -INFINITY);
	if (fabs(o) > fabs(r) && (long double)e * 2 == (long double)o - (long double)r)
		return o;
	return r;
}

/* ---- conversions to integers ---------------------------------------- */

/* Round x to an integral value under rm (x finite). */
static double round_int(double x, int rm)
{
	switch (rm) {
	case RV_RM_RTZ: return trunc(x);
	case RV_RM_RDN: return floor(x);
	case RV_RM_RUP: return ceil(x);
	case RV_RM_RMM: return round(x);
	default: return nearbyint(x); /* host mode is RNE here */
	}
}

/* Convert x to an integer of the given range with RISC-V saturation;
 * accrues NV or NX into *fl. */
static uint64_t to_int(double x, int rm, int is_signed, int bits, unsigned *fl)
{
	double r, lo, hi;

	if (isnan(x)) {
		*fl |= NV;
		return is_signed ? (bits == 32 ? 0x7fffffffull : 0x7fffffffffffffffull) : ~0ull;
	}
	r = isinf(x) ? x : round_int(x, rm);
	if (is_signed) {
		lo = bits == 32 ? -2147483648.0 : -9223372036854775808.0;
		hi = bits == 32 ? 2147483648.0 : 9223372036854775808.0;
		if (r < lo) { *fl |= NV; return bits == 32 ? 0xffffffff80000000ull : 1ull << 63; }
		if (r >= hi) { *fl |= NV; return bits == 32 ? 0x7fffffffull : 0x7fffffffffffffffull; }
		if (r != x)
			*fl |= NX;
		return (uint64_t)(int64_t)r;
	}
	hi = bits == 32 ? 4294967296.0 : 18446744073709551616.0;
	if (r < 0) { /* -0.3 rounding to zero is only inexact */
		*fl |= NV;
		return 0;
	}
	if (r >= hi) {
		*fl |= NV;
		return ~0ull; /* 32-bit results are sign-extended */
	}
	if (r != x)
		*fl |= NX;
	return bits == 32 ? (uint64_t)(int64_t)(int32_t)(uint32_t)r : (uint64_t)r;
}

/* ---- comparisons and classification ----------------------------------- */

static uint64_t classify(int neg, int inf, int nan, int snan, int zero, int sub)
{
	if (nan)
		return snan ? 1u << 8 : 1u << 9;
	if (inf)
		return neg ? 1u << 0 : 1u << 7;
	if (zero)
		return neg ? 1u << 3 : 1u << 4;
	if (sub)
		return neg ? 1u << 2 : 1u << 5;
	return neg ? 1u << 1 : 1u << 6;
}

static uint64_t fclass_s(uint32_t u)
{
	unsigned e = (u >> 23) & 0xff, m = u & 0x7fffff;

	return classify(u >> 31, e == 0xff && !m, e == 0xff && m, is_snan_s(u),
			e == 0 && !m, e == 0 && m);
}

static uint64_t fclass_d(uint64_t u)
{
	unsigned e = (u >> 52) & 0x7ff;
	uint64_t m = u & 0xfffffffffffffull;

	return classify((int)(u >> 63), e == 0x7ff && !m, e == 0x7ff && m, is_snan_d(u),
			e == 0 && !m, e == 0 && m);
}

/* fmin/fmax: NaNs lose, -0 < +0, both NaN gives the canonical NaN. */
static double minmax_d(double a, double b, int max, int a_snan, int b_snan, unsigned *fl)
{
	if (a_snan || b_snan)
		*fl |= NV;
	if (isnan(a) && isnan(b))
		return d_of(CNAN_D);
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	if (a == b && a == 0)
		return (signbit(a) != 0) == !max ? a : b;
	return max ? (a > b ? a : b) : (a < b ? a : b);
}

/* ---- execution ------------------------------------------------------ */

static int exec_s(struct iss *s, const struct rv_insn *i, int rm, unsigned *fl)
{
	float a = S(s, i->rs1), b = S(s, i->rs2), c = S(s, i->rs3), r = 0;
	uint32_t ua = s_bits(s, i->rs1), ub = s_bits(s, i->rs2);
	int rmm = rm == RV_RM_RMM;
	/* Widened operands for RMM, only converted when used (widening a
	 * signalling NaN raises a host flag). */
#define la ((long double)a)
#define lb ((long double)b)
#define lc ((long double)c)

	switch (i->op) {
	case RV_OP_FADD_S: r = rmm ? ld_to_s_rmm(la + lb) : a + b; break;
	case RV_OP_FSUB_S: r = rmm ? ld_to_s_rmm(la - lb) : a - b; break;
	case RV_OP_FMUL_S: r = rmm ? ld_to_s_rmm(la * lb) : a * b; break;
	case RV_OP_FDIV_S: r = rmm ? ld_to_s_rmm(la / lb) : a / b; break;
	case RV_OP_FSQRT_S: r = rmm ? ld_to_s_rmm(sqrtl(la)) : sqrtf(a); break;
	case RV_OP_FMADD_S: r = rmm ? ld_to_s_rmm(la * lb + lc) : fmaf(a, b, c); break;
	case RV_OP_FMSUB_S: r = rmm ? ld_to_s_rmm(la * lb - lc) : fmaf(a, b, -c); break;
	case RV_OP_FNMSUB_S: r = rmm ? ld_to_s_rmm(-la * lb + lc) : fmaf(-a, b, c); break;
	case RV_OP_FNMADD_S: r = rmm ? ld_to_s_rmm(-la * lb - lc) : fmaf(-a, b, -c); break;
	case RV_OP_FSGNJ_S:
		s->f[i->rd] = BOX | (ua & 0x7fffffffu) | (ub & 0x80000000u);
		return 1;
	case RV_OP_FSGNJN_S:
		s->f[i->rd] = BOX | (ua & 0x7fffffffu) | (~ub & 0x80000000u);
		return 1;
	case RV_OP_FSGNJX_S:
		s->f[i->rd] = BOX | (ua ^ (ub & 0x80000000u));
		return 1;
	case RV_OP_FMIN_S:
	case RV_OP_FMAX_S: {
		double m = minmax_d(a, b, i->op == RV_OP_FMAX_S, is_snan_s(ua), is_snan_s(ub), fl);
		s->f[i->rd] = BOX | (isnan(m) ? CNAN_S : u_of_f((float)m));
		return 1;
	}
	case RV_OP_FEQ_S:
		if (is_snan_s(ua) || is_snan_s(ub))
			*fl |= NV;
		s->x[i->rd] = a == b;
		return 1;
	case RV_OP_FLT_S:
	case RV_OP_FLE_S:
		if (isnan(a) || isnan(b)) {
			*fl |= NV;
			s->x[i->rd] = 0;
		} else {
			s->x[i->rd] = i->op == RV_OP_FLT_S ? a < b : a <= b;
		}
		return 1;
	case RV_OP_FCLASS_S: s->x[i->rd] = fclass_s(ua); return 1;
	case RV_OP_FMV_X_W: s->x[i->rd] = (uint64_t)(int64_t)(int32_t)(uint32_t)s->f[i->rs1]; return 1;
	case RV_OP_FMV_W_X: s->f[i->rd] = BOX | (uint32_t)s->x[i->rs1]; return 1;
	case RV_OP_FCVT_W_S: s->x[i->rd] = to_int(a, rm, 1, 32, fl); return 1;
	case RV_OP_FCVT_WU_S: s->x[i->rd] = to_int(a, rm, 0, 32, fl); return 1;
	case RV_OP_FCVT_L_S: s->x[i->rd] = to_int(a, rm, 1, 64, fl); return 1;
	case RV_OP_FCVT_LU_S: s->x[i->rd] = to_int(a, rm, 0, 64, fl); return 1;
	case RV_OP_FCVT_S_W: {
		int32_t v = (int32_t)s->x[i->rs1];
		r = rmm ? ld_to_s_rmm(v) : (float)v;
		break;
	}
	case RV_OP_FCVT_S_WU: {
		uint32_t v = (uint32_t)s->x[i->rs1];
		r = rmm ? ld_to_s_rmm(v) : (float)v;
		break;
	}
	case RV_OP_FCVT_S_L: {
		int64_t v = (int64_t)s->x[i->rs1];
		r = rmm ? ld_to_s_rmm(v) : (float)v;
		break;
	}
	case RV_OP_FCVT_S_LU: {
		uint64_t v = s->x[i->rs1];
		r = rmm ? ld_to_s_rmm(v) : (float)v;
		break;
	}
	case RV_OP_FCVT_S_D: {
		double d = D(s, i->rs1);
		r = rmm ? ld_to_s_rmm(d) : (float)d;
		break;
	}
	default:
		return 0;
	}
#undef la
#undef lb
#undef lc
	put_s(s, i->rd, r);
	return 1;
}

static int exec_d(struct iss *s, const struct rv_insn *i, int rm, unsigned *fl)
{
	double a = D(s, i->rs1), b = D(s, i->rs2), c = D(s, i->rs3), r = 0;
	uint64_t ua = s->f[i->rs1], ub = s->f[i->rs2];
	int rmm = rm == RV_RM_RMM;

	switch (i->op) {
	case RV_OP_FADD_D:
	case RV_OP_FSUB_D: {
		double bb = i->op == RV_OP_FSUB_D ? -b : b;
		r = a + bb;
		if (rmm) { /* TwoSum residual */
			double bv = r - a, av = r - bv;
			r = tie_away(r, (a - av) + (bb - bv));
		}
		break;
	}
	case RV_OP_FMUL_D:
		r = a * b;
		if (rmm)
			r = tie_away(r, fma(a, b, -r));
		break;
	case RV_OP_FDIV_D:
		r = a / b;
		if (rmm && isfinite(r) && r != 0) {
			double rem = fma(-r, b, a); /* exact: a - r*b */
			r = tie_away(r, (double)((long double)rem / b));
		}
		break;
	case RV_OP_FSQRT_D:
		r = sqrt(a);
		if (rmm && isfinite(r) && r > 0)
			r = tie_away(r, (double)((long double)fma(-r, r, a) / (2 * (long double)r)));
		break;
	case RV_OP_FMADD_D: r = rmm ? ld_to_d_rmm((long double)a * b + c) : fma(a, b, c); break;
	case RV_OP_FMSUB_D: r = rmm ? ld_to_d_rmm((long double)a * b - c) : fma(a, b, -c); break;
	case RV_OP_FNMSUB_D: r = rmm ? ld_to_d_rmm(-(long double)a * b + c) : fma(-a, b, c); break;
	case RV_OP_FNMADD_D: r = rmm ? ld_to_d_rmm(-(long double)a * b - c) : fma(-a, b, -c); break;
	case RV_OP_FSGNJ_D:
		s->f[i->rd] = (ua & ~(1ull << 63)) | (ub & (1ull << 63));
		return 1;
	case RV_OP_FSGNJN_D:
		s->f[i->rd] = (ua & ~(1ull << 63)) | (~ub & (1ull << 63));
		return 1;
	case RV_OP_FSGNJX_D:
		s->f[i->rd] = ua ^ (ub & (1ull << 63));
		return 1;
	case RV_OP_FMIN_D:
	case RV_OP_FMAX_D:
		put_d(s, i->rd, minmax_d(a, b, i->op == RV_OP_FMAX_D, is_snan_d(ua), is_snan_d(ub), fl));
		return 1;
	case RV_OP_FEQ_D:
		if (is_snan_d(ua) || is_snan_d(ub))
			*fl |= NV;
		s->x[i->rd] = a == b;
		return 1;
	case RV_OP_FLT_D:
	case RV_OP_FLE_D:
		if (isnan(a) || isnan(b)) {
			*fl |= NV;
			s->x[i->rd] = 0;
		} else {
			s->x[i->rd] = i->op == RV_OP_FLT_D ? a < b : a <= b;
		}
		return 1;
	case RV_OP_FCLASS_D: s->x[i->rd] = fclass_d(ua); return 1;
	case RV_OP_FMV_X_D: s->x[i->rd] = ua; return 1;
	case RV_OP_FMV_D_X: s->f[i->rd] = s->x[i->rs1]; return 1;
	case RV_OP_FCVT_W_D: s->x[i->rd] = to_int(a, rm, 1, 32, fl); return 1;
	case RV_OP_FCVT_WU_D: s->x[i->rd] = to_int(a, rm, 0, 32, fl); return 1;
	case RV_OP_FCVT_L_D: s->x[i->rd] = to_int(a, rm, 1, 64, fl); return 1;
	case RV_OP_FCVT_LU_D: s->x[i->rd] = to_int(a, rm, 0, 64, fl); return 1;
	case RV_OP_FCVT_D_W: r = (double)(int32_t)s->x[i->rs1]; break;
	case RV_OP_FCVT_D_WU: r = (double)(uint32_t)s->x[i->rs1]; break;
	case RV_OP_FCVT_D_L: {
		int64_t v = (int64_t)s->x[i->rs1];
		r = rmm ? ld_to_d_rmm(v) : (double)v;
		break;
	}
	case RV_OP_FCVT_D_LU: {
		uint64_t v = s->x[i->rs1];
		r = rmm ? ld_to_d_rmm(v) : (double)v;
		break;
	}
	case RV_OP_FCVT_D_S: {
		uint32_t u = s_bits(s, i->rs1);
		if (is_snan_s(u))
			*fl |= NV;
		r = (double)f_of(u);
		break;
	}
	default:
		return 0;
	}
	put_d(s, i->rd, r);
	return 1;
}

int iss__exec_fp(struct iss *s, const struct rv_insn *i)
{
	unsigned fl = 0;
	int rm = RV_RM_RNE;

	if (i->flags & RV_F_HAS_RM) {
		rm = eff_rm(s, i);
		if (rm < 0)
			return iss__fail(s, "pc %#llx: insn %08x: reserved rounding mode %u (frm %u)",
					 (unsigned long long)s->pc, i->raw, i->rm, s->frm);
	}
	set_host_rm(s, rm);
	feclearexcept(FE_ALL_EXCEPT);
	if (!exec_s(s, i, rm, &fl) && !exec_d(s, i, rm, &fl))
		return iss__fail(s, "pc %#llx: insn %08x: %s is not implemented",
				 (unsigned long long)s->pc, i->raw, rv_op_name(i->op));
	/* Host flags from the arithmetic itself; integer conversions, compares
	 * and min/max computed their own flags above. */
	switch (i->fu) {
	case RV_FU_FADD:
	case RV_FU_FMUL:
	case RV_FU_FMA:
	case RV_FU_FDIV:
		if (i->op == RV_OP_FMIN_S || i->op == RV_OP_FMAX_S || i->op == RV_OP_FMIN_D ||
		    i->op == RV_OP_FMAX_D || i->op == RV_OP_FEQ_S || i->op == RV_OP_FEQ_D ||
		    i->op == RV_OP_FLT_S || i->op == RV_OP_FLT_D || i->op == RV_OP_FLE_S ||
		    i->op == RV_OP_FLE_D)
			break;
		fl |= host_flags();
		break;
	case RV_FU_FCVT:
		if (i->flags & RV_F_RD_F)
			fl |= host_flags();
		break;
	default:
		break;
	}
	s->fflags |= fl;
	return ISS_OK;
}
