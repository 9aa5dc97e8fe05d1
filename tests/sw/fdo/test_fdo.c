/* SPDX-License-Identifier: Apache-2.0 */
/* test_fdo.c - sw/fdo under ASan/UBSan: the overlap metric on hand-worked profiles, the
 * min-cost flow on hand-built graphs with known optima (a solver that is not optimal fails
 * them), against GLPK's other min-cost-flow algorithm (out-of-kilter) on random graphs, and
 * the control-flow graph of a real ELF. usage: test_fdo [ELF] */
#include <glpk.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdo.h"
#include "tcheck.h"

#define NEAR(a, b) near((double)(a), (double)(b))

static int near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (1 + fabs(b));
}

static void test_overlap(void)
{
	double a[] = { 1, 2, 3, 4 }, b[] = { 4, 3, 2, 1 }, c[] = { 10, 20, 30, 40 };
	double d[] = { 0, 0, 5, 0 }, e[] = { 3, 0, 0, 0 };

	/* min(.1,.4)+min(.2,.3)+min(.3,.2)+min(.4,.1) = .6 */
	CHECK(NEAR(fdo_overlap_vec(a, b, 4), 0.6), "overlap {1,2,3,4}/{4,3,2,1} = %g, want 0.6",
	      fdo_overlap_vec(a, b, 4));
	CHECK(NEAR(fdo_overlap_vec(a, c, 4), 1.0), "overlap is scale-free");
	CHECK(NEAR(fdo_overlap_vec(d, e, 4), 0.0), "disjoint profiles overlap 0");
	CHECK(NEAR(fdo_overlap_vec(a, d, 4), 0.3), "overlap with a one-item profile = %g, want .3",
	      fdo_overlap_vec(a, d, 4));
}

/* Edge estimates and their costs for cost_of (NULL: none). */
static const double *cost_ew, *cost_ek;

/* Cost of a solution by the formulation's definition. */
static double cost_of(size_t nb, const double *w, const double *ki, const double *kd,
		      size_t ne, const double *ec, const double *x, const double *f)
{
	double c = 0;

	for (size_t e = 0; e < ne && cost_ew; e++)
		c += f[e] > cost_ew[e] ? cost_ek[e] * (f[e] - cost_ew[e]) :
					 cost_ek[e] * (cost_ew[e] - f[e]);

	for (size_t v = 0; v < nb; v++)
		c += x[v] > w[v] ? ki[v] * (x[v] - w[v]) : kd[v] * (w[v] - x[v]);
	for (size_t e = 0; e < ne; e++)
		c += ec[e] * f[e];
	return c;
}

/* Flow conservation at every block: in = x = out. */
static int conserved(size_t nb, size_t ne, const long *src, const long *dst, const double *x,
		     const double *f)
{
	for (size_t v = 0; v < nb; v++) {
		double in = 0, out = 0;

		for (size_t e = 0; e < ne; e++) {
			if (dst[e] == (long)v)
				in += f[e];
			if (src[e] == (long)v)
				out += f[e];
		}
		if (!NEAR(in, x[v]) || !NEAR(out, x[v]))
			return 0;
	}
	return 1;
}

static void test_mcf_hand(void)
{
	/* diamond A -> {B, C} -> D with B + C short of A = D by 10: raising B (the cheapest
	 * per unit: 1/ln 72) costs 10/ln 72; lowering A and D costs 20/ln 102 - more. */
	double w[] = { 100, 70, 20, 100 }, ki[4], kd[4], x[4], f[6], obj;
	long src[] = { -1, 0, 0, 1, 2, 3 }, dst[] = { 0, 1, 2, 3, 3, -1 };
	double ec[6] = { 0 };

	for (int i = 0; i < 4; i++)
		ki[i] = kd[i] = 1 / log(w[i] + 2);
	CHECK(fdo_mcf_solve(4, w, ki, kd, 6, src, dst, ec, x, f, &obj) == 0, "diamond solves");
	CHECK(NEAR(x[0], 100) && NEAR(x[1], 80) && NEAR(x[2], 20) && NEAR(x[3], 100),
	      "diamond: flows %g %g %g %g, want 100 80 20 100", x[0], x[1], x[2], x[3]);
	CHECK(NEAR(obj, 10 / log(72)), "diamond: cost %g, want 10/ln 72 = %g", obj, 10 / log(72));
	CHECK(NEAR(f[1], 80) && NEAR(f[2], 20), "diamond: edge flows %g %g", f[1], f[2]);
	/* the other repair (lower A and D to 90) is feasible but dearer: a solver that picks it
	 * fails the check above */
	{
		double x2[] = { 90, 70, 20, 90 }, f2[] = { 90, 70, 20, 70, 20, 90 };

		CHECK(conserved(4, 6, src, dst, x2, f2) &&
		      cost_of(4, w, ki, kd, 6, ec, x2, f2) > obj + 0.5,
		      "diamond: the alternative repair costs more (%g vs %g)",
		      cost_of(4, w, ki, kd, 6, ec, x2, f2), obj);
	}
	/* with raising made dear (perfect classification: B over-sampled) the repair flips */
	ki[1] = ki[2] = 10;
	CHECK(fdo_mcf_solve(4, w, ki, kd, 6, src, dst, ec, x, f, &obj) == 0 &&
	      NEAR(x[0], 90) && NEAR(x[3], 90) && NEAR(x[1], 70),
	      "diamond, dear increases: A = D = %g, want 90", x[0]);

	/* a consistent loop keeps its counts at zero cost: E(10) -> H(1000) <-> L(990), H -> X(10) */
	{
		double lw[] = { 10, 1000, 990, 10 }, lk[4], lx[4], lf[6], lobj;
		long ls[] = { -1, 0, 1, 2, 1, 3 }, ld[] = { 0, 1, 2, 1, 3, -1 };
		double lec[6] = { 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4 };

		for (int i = 0; i < 4; i++)
			lk[i] = 1 / log(lw[i] + 2);
		CHECK(fdo_mcf_solve(4, lw, lk, lk, 6, ls, ld, lec, lx, lf, &lobj) == 0 &&
		      NEAR(lx[0], 10) && NEAR(lx[1], 1000) && NEAR(lx[2], 990) && NEAR(lx[3], 10) &&
		      NEAR(lf[3], 990), "consistent loop unchanged: %g %g %g %g", lx[0], lx[1], lx[2],
		      lx[3]);
		CHECK(NEAR(lobj, 6 * 1e-4 * 0 + 1e-4 * (10 + 10 + 990 + 990 + 10 + 10)),
		      "consistent loop: only the edge costs remain (%g)", lobj);
	}
	/* a chain A(50) -> B(0) -> C(50): with Levin's costs filling B (50 / ln 2 = 72.1) is
	 * dearer than emptying A and C (100 / ln 52 = 25.3), so the flow is 0; classified as
	 * under-sampled (increase 10x cheaper: 7.2) B is filled to 50 */
	{
		double cw[] = { 50, 0, 50 }, ck[3], ckd[3], cx[3], cf[4], cobj;
		long cs[] = { -1, 0, 1, 2 }, cd[] = { 0, 1, 2, -1 };
		double cec[4] = { 0 };

		for (int i = 0; i < 3; i++)
			ck[i] = ckd[i] = 1 / log(cw[i] + 2);
		CHECK(fdo_mcf_solve(3, cw, ck, ckd, 4, cs, cd, cec, cx, cf, &cobj) == 0 &&
		      NEAR(cx[0], 0) && NEAR(cx[1], 0) && NEAR(cobj, 100 / log(52)),
		      "chain with an unsampled middle: %g %g %g, cost %g (want 0 0 0, %g)", cx[0],
		      cx[1], cx[2], cobj, 100 / log(52));
		ck[1] /= 10;
		CHECK(fdo_mcf_solve(3, cw, ck, ckd, 4, cs, cd, cec, cx, cf, &cobj) == 0 &&
		      NEAR(cx[0], 50) && NEAR(cx[1], 50) && NEAR(cx[2], 50) &&
		      NEAR(cobj, 5 / log(2)), "chain, middle classified under-sampled: %g %g %g",
		      cx[0], cx[1], cx[2]);
	}
}

/* GLPK's out-of-kilter algorithm on the same network (integer data). */
static double okalg_cost(size_t nb, const double *w, const double *ki, const double *kd,
			 size_t ne, const long *src, const long *dst, const double *ec,
			 const double *ew, const double *ek)
{
	struct arc { double low, cap, cost, x; };
	glp_graph *G = glp_create_graph(sizeof(double), sizeof(struct arc));
	double sol = 0, constant = 0;
	int r;

#define ADD(u, v, lo, hi, c) do { \
		glp_arc *a_ = glp_add_arc(G, u, v); \
		struct arc *d_ = a_->data; \
		d_->low = lo; d_->cap = hi; d_->cost = c; \
	} while (0)
	glp_add_vertices(G, (int)(2 + 2 * nb));
	for (int i = 1; i <= G->nv; i++)
		*(double *)G->v[i]->data = 0;
	for (size_t v = 0; v < nb; v++) {
		ADD(3 + 2 * (int)v, 4 + 2 * (int)v, 0, w[v], -kd[v]);
		ADD(3 + 2 * (int)v, 4 + 2 * (int)v, 0, 100000, ki[v]);
		constant += kd[v] * w[v];
	}
	for (size_t e = 0; e < ne; e++) {
		int u = src[e] < 0 ? 1 : 4 + 2 * (int)src[e], v = dst[e] < 0 ? 2 : 3 + 2 * (int)dst[e];

		if (ew) {
			ADD(u, v, 0, ew[e], ec[e] - ek[e]);
			ADD(u, v, 0, 100000, ec[e] + ek[e]);
			constant += ek[e] * ew[e];
		} else {
			ADD(u, v, 0, 100000, ec[e]);
		}
	}
	ADD(2, 1, 0, 100000, 0);
#undef ADD
	r = glp_mincost_okalg(G, 0, offsetof(struct arc, low), offsetof(struct arc, cap),
			      offsetof(struct arc, cost), &sol, offsetof(struct arc, x), -1);
	glp_delete_graph(G);
	return r == 0 ? sol + constant : NAN;
}

static void test_mcf_random(void)
{
	unsigned seed = 12345, agree = 0, runs = 400;

	for (unsigned run = 0; run < runs; run++) {
		int with_est = run >= runs / 2;	/* the second half: edge estimates too */
		size_t nb = 2 + (size_t)(rand_r(&seed) % 9), ne = 0;
		double w[16], ki[16], kd[16], x[16], f[64], ec[64], ew[64], ek[64], obj;
		long src[64], dst[64];

		for (size_t v = 0; v < nb; v++) {
			w[v] = rand_r(&seed) % 60;
			ki[v] = 1 + rand_r(&seed) % 5;
			kd[v] = 1 + rand_r(&seed) % 5;
		}
		src[ne] = -1; dst[ne] = 0; ec[ne++] = 0;
		for (size_t v = 0; v + 1 < nb; v++) {	/* a chain, plus random extra edges */
			src[ne] = (long)v; dst[ne] = (long)v + 1; ec[ne++] = rand_r(&seed) % 2;
		}
		for (int k = rand_r(&seed) % 8; k > 0; k--) {
			src[ne] = rand_r(&seed) % (int)nb;
			dst[ne] = rand_r(&seed) % (int)nb;
			if (src[ne] == dst[ne])
				continue;
			ec[ne++] = rand_r(&seed) % 3;
		}
		src[ne] = (long)nb - 1; dst[ne] = -1; ec[ne++] = 0;
		for (size_t e = 0; e < ne; e++) {
			ew[e] = rand_r(&seed) % 40;
			ek[e] = 1 + rand_r(&seed) % 3;
		}
		if (with_est ? fdo_mcf_solve_est(nb, w, ki, kd, ne, src, dst, ec, ew, ek, x, f, &obj) :
		    fdo_mcf_solve(nb, w, ki, kd, ne, src, dst, ec, x, f, &obj))
			continue;
		double ok = okalg_cost(nb, w, ki, kd, ne, src, dst, ec, with_est ? ew : NULL, ek);

		cost_ew = with_est ? ew : NULL;
		cost_ek = ek;
		if (NEAR(obj, ok) && conserved(nb, ne, src, dst, x, f) &&
		    NEAR(cost_of(nb, w, ki, kd, ne, ec, x, f), obj))
			agree++;
		else
			printf("  run %u: simplex %g, out-of-kilter %g\n", run, obj, ok);
		cost_ew = NULL;
	}
	CHECK(agree == runs, "random graphs (half with edge estimates): the simplex optimum = "
	      "out-of-kilter's on %u of %u", agree, runs);
}

static void test_cfg(const char *elf)
{
	struct fdo_cfg g;
	char err[512];
	long qs = -1;
	size_t bad = 0, entries = 0;

	if (!elf)
		return;
	CHECK(fdo_cfg_load(&g, elf, err, sizeof(err)) == 0, "CFG of %s: %s", elf, err);
	for (size_t f = 0; f < g.nf; f++)
		if (!strcmp(g.f[f].name, "kern"))
			qs = (long)f;
	CHECK(qs >= 0, "%s has a function kern", elf);
	for (size_t f = 0; f < g.nf; f++) {
		const struct fdo_func *fn = &g.f[f];

		if (!fn->nb || g.b[fn->b0].start != fn->start ||
		    g.b[fn->b0 + fn->nb - 1].end != fn->end)
			bad++;
		for (uint32_t b = fn->b0 + 1; b < fn->b0 + fn->nb; b++)
			if (g.b[b].start != g.b[b - 1].end || g.b[b].func != f)
				bad++;
	}
	CHECK(bad == 0, "blocks tile every function exactly (%zu bad)", bad);
	bad = 0;
	for (size_t e = 0; e < g.ne; e++) {
		const struct fdo_edge *ed = &g.e[e];

		if (ed->src == FDO_ENTRY) {
			entries++;
			continue;
		}
		if (ed->dst != FDO_EXIT && g.b[ed->dst].func != g.b[ed->src].func)
			bad++;
		if (fdo_cfg_edge(&g, ed->src, ed->dst) != (long)e)
			bad++;
	}
	CHECK(bad == 0 && entries == g.nf, "edges stay in their function and are found again "
	      "(%zu bad; %zu entries for %zu functions)", bad, entries, g.nf);
	if (qs >= 0) {
		/* kern: a loop nest - at least one backward branch with probability .88 */
		size_t back = 0;

		for (size_t e = 0; e < g.ne; e++)
			if (g.e[e].func == (uint32_t)qs && g.e[e].kind == FDO_E_TAKEN &&
			    g.b[g.e[e].dst].start <= g.b[g.e[e].src].start && NEAR(g.e[e].prob, 0.88))
				back++;
		CHECK(back >= 1, "kern has %zu backward branches", back);
	}
	fdo_cfg_free(&g);
}

int main(int argc, char **argv)
{
	printf("-- test_fdo: overlap metric, min-cost flow, control-flow graph\n");
	test_overlap();
	test_mcf_hand();
	test_mcf_random();
	test_cfg(argc > 1 ? argv[1] : NULL);
	return tc_summary();
}
