/* SPDX-License-Identifier: Apache-2.0 */
/* fdo_flow.c - edge profiles from block counts (fdo.h): raw, static estimate, min-cost-flow
 * smoothing on GLPK, and the degree-of-overlap metric. docs/fdo.md gives the formulation. */
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fdo.h"

/* Edges of each function: ix[off[f] .. off[f+1]) are indices into g->e. */
struct fedges {
	size_t *off, *ix;
};

static int fedges_build(struct fedges *fe, const struct fdo_cfg *g)
{
	fe->off = calloc(g->nf + 1, sizeof(size_t));
	fe->ix = malloc((g->ne ? g->ne : 1) * sizeof(size_t));
	if (!fe->off || !fe->ix)
		return -1;
	for (size_t i = 0; i < g->ne; i++)
		fe->off[g->e[i].func + 1]++;
	for (size_t f = 0; f < g->nf; f++)
		fe->off[f + 1] += fe->off[f];
	size_t *pos = calloc(g->nf + 1, sizeof(size_t));

	if (!pos)
		return -1;
	memcpy(pos, fe->off, (g->nf + 1) * sizeof(size_t));
	for (size_t i = 0; i < g->ne; i++)
		fe->ix[pos[g->e[i].func]++] = i;
	free(pos);
	return 0;
}

static void fedges_free(struct fedges *fe)
{
	free(fe->off);
	free(fe->ix);
}

static int prof_edges(struct fdo_prof *p, const struct fdo_cfg *g)
{
	if (p->ne < g->ne || !p->ec) {
		double *ec = realloc(p->ec, (g->ne ? g->ne : 1) * sizeof(double));

		if (!ec)
			return -1;
		p->ec = ec;
		p->ne = g->ne;
	}
	memset(p->ec, 0, g->ne * sizeof(double));
	return 0;
}

void fdo_edges_raw(struct fdo_prof *p, const struct fdo_cfg *g)
{
	double *sum = calloc(g->nb + 1, sizeof(double));
	unsigned *nout = calloc(g->nb + 1, sizeof(unsigned));
	unsigned *nin = calloc(g->nb + 1, sizeof(unsigned));

	if (!sum || !nout || !nin || prof_edges(p, g))
		goto out;
	/* successor weight: the successor block's count; leaving the function: u's own */
	for (size_t i = 0; i < g->ne; i++) {
		const struct fdo_edge *e = &g->e[i];

		if (e->src == FDO_ENTRY)
			continue;
		sum[e->src] += e->dst == FDO_EXIT ? p->bc[e->src] : p->bc[e->dst];
		nout[e->src]++;
		if (e->dst != FDO_EXIT)
			nin[e->dst]++;
	}
	for (size_t i = 0; i < g->ne; i++) {
		const struct fdo_edge *e = &g->e[i];

		if (e->src == FDO_ENTRY) {	/* the entry block's count shared with its preds */
			p->ec[i] = p->bc[e->dst] / (1 + nin[e->dst]);
			continue;
		}
		double wv = e->dst == FDO_EXIT ? p->bc[e->src] : p->bc[e->dst];

		p->ec[i] = sum[e->src] > 0 ? p->bc[e->src] * wv / sum[e->src] :
					     p->bc[e->src] / nout[e->src];
	}
out:
	free(sum);
	free(nout);
	free(nin);
}

/* Normalised static probability of edge i (indirect jumps: even over their targets). */
static double eprob(const struct fdo_cfg *g, size_t i, const unsigned *nout)
{
	const struct fdo_edge *e = &g->e[i];

	if (e->src == FDO_ENTRY)
		return 1;
	if (g->b[e->src].term == FDO_T_INDIRECT)
		return 1.0 / nout[e->src];
	return e->prob;
}

/* The next slot of bucket i (counting sort): returns ioff[i] and advances it. */
static size_t nx_fill(size_t *ioff, uint32_t i)
{
	return ioff[i]++;
}

void fdo_edges_static(struct fdo_prof *p, const struct fdo_cfg *g)
{
	struct fedges fe = { 0 };
	double *x = calloc(g->nb + 1, sizeof(double)), *nx = calloc(g->nb + 1, sizeof(double));
	unsigned *nout = calloc(g->nb + 1, sizeof(unsigned));

	if (!x || !nx || !nout || fedges_build(&fe, g) || prof_edges(p, g))
		goto out;
	for (size_t i = 0; i < g->ne; i++)
		if (g->e[i].src != FDO_ENTRY)
			nout[g->e[i].src]++;
	for (size_t f = 0; f < g->nf; f++) {
		const struct fdo_func *fn = &g->f[f];
		double sampled = 0, est = 0;

		for (uint32_t b = fn->b0; b < fn->b0 + fn->nb; b++) {
			sampled += p->bc[b] * g->b[b].ninsn;
			x[b] = 0;
		}
		if (sampled <= 0) {
			for (uint32_t b = fn->b0; b < fn->b0 + fn->nb; b++)
				p->bc[b] = 0;
			continue;
		}
		/* x = entry + P^T x (a Markov chain's expected visits per call), solved by
		 * Gauss-Seidel sweeps in address order over each block's incoming edges */
		size_t nin = 0;

		for (size_t k = fe.off[f]; k < fe.off[f + 1]; k++)
			if (g->e[fe.ix[k]].dst != FDO_EXIT)
				nin++;
		size_t *ioff = calloc(fn->nb + 1, sizeof(size_t)), *iix = malloc((nin + 1) * sizeof(size_t));

		if (!ioff || !iix) {
			free(ioff);
			free(iix);
			goto out;
		}
		for (size_t k = fe.off[f]; k < fe.off[f + 1]; k++)
			if (g->e[fe.ix[k]].dst != FDO_EXIT)
				ioff[g->e[fe.ix[k]].dst - fn->b0 + 1]++;
		for (uint32_t i = 0; i < fn->nb; i++)
			ioff[i + 1] += ioff[i];
		for (size_t k = fe.off[f]; k < fe.off[f + 1]; k++)
			if (g->e[fe.ix[k]].dst != FDO_EXIT)
				iix[nx_fill(ioff, g->e[fe.ix[k]].dst - fn->b0)] = fe.ix[k];
		for (uint32_t i = fn->nb; i > 0; i--)	/* nx_fill advanced the offsets: undo */
			ioff[i] = ioff[i - 1];
		ioff[0] = 0;
		for (int it = 0; it < 5000; it++) {
			double delta = 0, tot = 0;

			for (uint32_t i = 0; i < fn->nb; i++) {
				uint32_t b = fn->b0 + i;
				double v = 0;

				for (size_t k = ioff[i]; k < ioff[i + 1]; k++) {
					const struct fdo_edge *e = &g->e[iix[k]];

					v += (e->src == FDO_ENTRY ? 1.0 : x[e->src]) * eprob(g, iix[k], nout);
				}
				if (v > 1e9)
					v = 1e9;	/* a loop without an exit */
				delta += fabs(v - x[b]);
				tot += v;
				x[b] = v;
			}
			if (delta <= 1e-9 * (tot + 1))
				break;
		}
		free(ioff);
		free(iix);
		for (uint32_t b = fn->b0; b < fn->b0 + fn->nb; b++)
			est += x[b] * g->b[b].ninsn;
		double scale = est > 0 ? sampled / est : 0;

		for (uint32_t b = fn->b0; b < fn->b0 + fn->nb; b++)
			p->bc[b] = x[b] * scale;
		for (size_t k = fe.off[f]; k < fe.off[f + 1]; k++) {
			const struct fdo_edge *e = &g->e[fe.ix[k]];

			p->ec[fe.ix[k]] = (e->src == FDO_ENTRY ? scale : p->bc[e->src]) *
					  eprob(g, fe.ix[k], nout);
		}
	}
out:
	fedges_free(&fe);
	free(x);
	free(nx);
	free(nout);
}

/* ---- min-cost flow ------------------------------------------------------------------------ */

/* The solver; ew/ek (may be NULL): an estimate of each edge's flow and the cost per unit of
 * departing from it (a soft constraint like the blocks'), else edges are free but ecost. */
static int mcf_solve(size_t nb, const double *w, const double *kinc, const double *kdec,
		     size_t ne, const long *src, const long *dst, const double *ecost,
		     const double *ew, const double *ek, double *x, double *f, double *obj)
{
	/* nodes (rows): S = 1, T = 2, in(v) = 3 + 2v, out(v) = 4 + 2v; conservation = 0.
	 * arcs (columns): per block keep (in->out, [0, w], -kdec) and grow (in->out, [0, inf),
	 * +kinc); per edge (out(u) or S -> in(v) or T, [0, inf), ecost); T -> S [0, inf), 0. */
	size_t nrow = 2 + 2 * nb, ncol = 2 * nb + (ew ? 2 : 1) * ne + 1, nz = 2 * ncol;
	int *ia = malloc((nz + 1) * sizeof(int)), *ja = malloc((nz + 1) * sizeof(int));
	double *ar = malloc((nz + 1) * sizeof(double));
	glp_prob *lp;
	glp_smcp parm;
	int r = -1, k = 0, c = 0;
	double constant = 0;

	if (!ia || !ja || !ar)
		goto out;
	lp = glp_create_prob();
	glp_set_obj_dir(lp, GLP_MIN);
	glp_add_rows(lp, (int)nrow);
	for (size_t i = 1; i <= nrow; i++)
		glp_set_row_bnds(lp, (int)i, GLP_FX, 0, 0);
	glp_add_cols(lp, (int)ncol);
#define ARC(from, to, lo, hi, cost) do {                                                     \
		c++;                                                                         \
		if ((hi) > (lo))                                                             \
			glp_set_col_bnds(lp, c, (hi) < INFINITY ? GLP_DB : GLP_LO, lo, hi);   \
		else                                                                         \
			glp_set_col_bnds(lp, c, GLP_FX, lo, lo);                             \
		glp_set_obj_coef(lp, c, cost);                                               \
		k++; ia[k] = (from); ja[k] = c; ar[k] = -1;                                  \
		k++; ia[k] = (to); ja[k] = c; ar[k] = 1;                                     \
	} while (0)
	for (size_t v = 0; v < nb; v++) {
		double wv = w[v] > 0 ? w[v] : 0;

		ARC(3 + 2 * (int)v, 4 + 2 * (int)v, 0.0, wv, -kdec[v]);
		ARC(3 + 2 * (int)v, 4 + 2 * (int)v, 0.0, INFINITY, kinc[v]);
		constant += kdec[v] * wv;
	}
	for (size_t e = 0; e < ne; e++) {
		int from = src[e] < 0 ? 1 : 4 + 2 * (int)src[e];
		int to = dst[e] < 0 ? 2 : 3 + 2 * (int)dst[e];

		if (ew) {
			double we = ew[e] > 0 ? ew[e] : 0;

			ARC(from, to, 0.0, we, ecost[e] - ek[e]);
			ARC(from, to, 0.0, INFINITY, ecost[e] + ek[e]);
			constant += ek[e] * we;
		} else {
			ARC(from, to, 0.0, INFINITY, ecost[e]);
		}
	}
	ARC(2, 1, 0.0, INFINITY, 0.0);
#undef ARC
	glp_load_matrix(lp, k, ia, ja, ar);
	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	parm.presolve = GLP_OFF;
	if (glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT) {
		for (size_t v = 0; v < nb; v++)
			x[v] = glp_get_col_prim(lp, 1 + 2 * (int)v) + glp_get_col_prim(lp, 2 + 2 * (int)v);
		for (size_t e = 0; e < ne; e++)
			f[e] = ew ? glp_get_col_prim(lp, 1 + 2 * (int)nb + 2 * (int)e) +
				    glp_get_col_prim(lp, 2 + 2 * (int)nb + 2 * (int)e) :
				    glp_get_col_prim(lp, 1 + 2 * (int)nb + (int)e);
		if (obj)
			*obj = glp_get_obj_val(lp) + constant;
		r = 0;
	}
	glp_delete_prob(lp);
out:
	free(ia);
	free(ja);
	free(ar);
	return r;
}

int fdo_mcf_solve(size_t nb, const double *w, const double *kinc, const double *kdec,
		  size_t ne, const long *src, const long *dst, const double *ecost,
		  double *x, double *f, double *obj)
{
	return mcf_solve(nb, w, kinc, kdec, ne, src, dst, ecost, NULL, NULL, x, f, obj);
}

int fdo_mcf_solve_est(size_t nb, const double *w, const double *kinc, const double *kdec,
		      size_t ne, const long *src, const long *dst, const double *ecost,
		      const double *ew, const double *ek, double *x, double *f, double *obj)
{
	return mcf_solve(nb, w, kinc, kdec, ne, src, dst, ecost, ew, ek, x, f, obj);
}

#define HEUR_LAMBDA 1.0		/* a relative factor o lowers a cost to 1 / (1 + o) */
#define PERFECT_FACTOR 10.0	/* perfect classification: the wrong side 10x cheaper */
#define EDGE_EPS 1e-4		/* edge costs: tie-breaking by static probability */
#define EALPHA 0.1		/* the raw edge estimate's weight, per unit 0.1 / ln(w(e) + 2) */
#define FLOOR 0.5		/* increase cost of a block below half its function's mean */

int fdo_mcf(struct fdo_prof *p, const struct fdo_cfg *g, enum fdo_heur h,
	    const struct fdo_prof *truth, struct fdo_mcf_stats *st, char *err, size_t errlen)
{
	struct fedges fe = { 0 };
	size_t nbmax = 0, nemax = 0;
	double *w = NULL, *ki = NULL, *kd = NULL, *ec = NULL, *x = NULL, *fl = NULL;
	double *ew = NULL, *ek = NULL, *rawe = NULL;
	long *src = NULL, *dst = NULL;
	unsigned *nout = calloc(g->nb + 1, sizeof(unsigned));
	double psum = 0, tsum = 0, magg = 0, mshadow = 0;
	struct timespec t0, t1;
	int r = -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (st)
		memset(st, 0, sizeof(*st));
	if (!nout || fedges_build(&fe, g) || prof_edges(p, g))
		goto nomem;
	for (size_t i = 0; i < g->ne; i++)
		if (g->e[i].src != FDO_ENTRY)
			nout[g->e[i].src]++;
	for (size_t f = 0; f < g->nf; f++) {
		if (g->f[f].nb > nbmax)
			nbmax = g->f[f].nb;
		if (fe.off[f + 1] - fe.off[f] > nemax)
			nemax = fe.off[f + 1] - fe.off[f];
	}
	if (h == FDO_H_PERFECT && !truth) {
		snprintf(err, errlen, "perfect classification needs the exact profile");
		goto fail;
	}
	w = malloc((nbmax + 1) * sizeof(double));
	ki = malloc((nbmax + 1) * sizeof(double));
	kd = malloc((nbmax + 1) * sizeof(double));
	x = malloc((nbmax + 1) * sizeof(double));
	ec = malloc((nemax + 1) * sizeof(double));
	ew = malloc((nemax + 1) * sizeof(double));
	ek = malloc((nemax + 1) * sizeof(double));
	fl = malloc((nemax + 1) * sizeof(double));
	src = malloc((nemax + 1) * sizeof(long));
	dst = malloc((nemax + 1) * sizeof(long));
	if (!w || !ki || !kd || !x || !ec || !fl || !src || !dst || !ew || !ek)
		goto nomem;
	/* the raw edge estimate (block counts split by successor counts), a weak soft
	 * constraint on each edge */
	fdo_edges_raw(p, g);
	rawe = malloc((g->ne + 1) * sizeof(double));
	if (!rawe)
		goto nomem;
	memcpy(rawe, p->ec, g->ne * sizeof(double));
	for (size_t f = 0; f < g->nf; f++) {
		const struct fdo_func *fn = &g->f[f];
		size_t ne = fe.off[f + 1] - fe.off[f];
		int any = 0;
		double obj;

		/* the classifications are relative to the function (its flow is solved alone):
		 * sample-weighted means of the factors, each profile's share of the function */
		psum = tsum = magg = mshadow = 0;
		for (uint32_t b = fn->b0; b < fn->b0 + fn->nb; b++) {
			psum += p->bc[b];
			if (truth)
				tsum += truth->bc[b];
			if (p->agg && p->shadow) {
				magg += p->bc[b] * p->agg[b];
				mshadow += p->bc[b] * p->shadow[b];
			}
		}
		if (psum > 0) {
			magg /= psum;
			mshadow /= psum;
		}
		double wmean = 0, wn = 0;

		for (uint32_t i = 0; i < fn->nb; i++)
			if (p->bc[fn->b0 + i] > 0) {
				wmean += p->bc[fn->b0 + i];
				wn++;
			}
		wmean = wn > 0 ? wmean / wn : 0;
		for (uint32_t i = 0; i < fn->nb; i++) {
			uint32_t b = fn->b0 + i;
			double base;

			w[i] = p->bc[b];
			any |= w[i] > 0;
			/* Levin et al.'s confidence cost, normalised by the count's logarithm */
			base = 1.0 / log(w[i] + 2.0);
			ki[i] = kd[i] = base;
			/* a block sampled less than half the function's typical block may simply
			 * have been missed (few instructions, few samples): raising it costs what
			 * raising that typical half would, not the confidence of a zero */
			if (w[i] < FLOOR * wmean)
				ki[i] = 1.0 / log(FLOOR * wmean + 2.0);
			if (h == FDO_H_EVENTS && p->agg && p->shadow) {
				/* relative to the program's sample-weighted means: more stalls than
				 * usual -> over-sampled, wider commit than usual -> under-sampled */
				double o = (p->agg[b] - magg) - (p->shadow[b] - mshadow);

				if (o > 0)
					kd[i] = base / (1 + HEUR_LAMBDA * o);
				else
					ki[i] = base / (1 - HEUR_LAMBDA * o);
			} else if (h == FDO_H_PERFECT && psum > 0 && tsum > 0) {
				double pn = p->bc[b] / psum, tn = truth->bc[b] / tsum;

				if (pn > tn * 1.05)
					kd[i] = base / PERFECT_FACTOR;
				else if (pn < tn * 0.95)
					ki[i] = base / PERFECT_FACTOR;
			}
		}
		if (!any) {
			for (uint32_t i = 0; i < fn->nb; i++)
				p->bc[fn->b0 + i] = 0;
			continue;
		}
		for (size_t k = 0; k < ne; k++) {
			const struct fdo_edge *e = &g->e[fe.ix[fe.off[f] + k]];
			double pr = eprob(g, fe.ix[fe.off[f] + k], nout);

			src[k] = e->src == FDO_ENTRY ? -1 : (long)(e->src - fn->b0);
			dst[k] = e->dst == FDO_EXIT ? -1 : (long)(e->dst - fn->b0);
			ec[k] = EDGE_EPS * (1 - log(pr > 0.01 ? pr : 0.01));
			ew[k] = rawe[fe.ix[fe.off[f] + k]];
			ek[k] = EALPHA / log(ew[k] + 2);
		}
		if (mcf_solve(fn->nb, w, ki, kd, ne, src, dst, ec, ew, ek, x, fl,
			      &obj)) {
			snprintf(err, errlen, "GLPK found no optimal flow for %s", fn->name);
			goto fail;
		}
		for (uint32_t i = 0; i < fn->nb; i++)
			p->bc[fn->b0 + i] = x[i];
		for (size_t k = 0; k < ne; k++)
			p->ec[fe.ix[fe.off[f] + k]] = fl[k];
		if (st) {
			st->funcs++;
			st->nodes += 2 + 2 * fn->nb;
			st->arcs += 2 * fn->nb + ne + 1;
		}
	}
	r = 0;
	goto fail;
nomem:
	snprintf(err, errlen, "out of memory in the min-cost flow");
fail:
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (st)
		st->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	fedges_free(&fe);
	free(nout);
	free(w);
	free(ki);
	free(kd);
	free(x);
	free(ec);
	free(ew);
	free(ek);
	free(rawe);
	free(fl);
	free(src);
	free(dst);
	return r;
}

/* ---- metric ------------------------------------------------------------------------------ */

double fdo_overlap_vec(const double *a, const double *b, size_t n)
{
	double sa = 0, sb = 0, o = 0;

	for (size_t i = 0; i < n; i++) {
		sa += a[i] > 0 ? a[i] : 0;
		sb += b[i] > 0 ? b[i] : 0;
	}
	if (sa <= 0 || sb <= 0)
		return sa <= 0 && sb <= 0 ? 1.0 : 0.0;
	for (size_t i = 0; i < n; i++) {
		double x = a[i] > 0 ? a[i] / sa : 0, y = b[i] > 0 ? b[i] / sb : 0;

		o += x < y ? x : y;
	}
	return o;
}

void fdo_overlap(const struct fdo_prof *p, const struct fdo_prof *t, const struct fdo_cfg *g,
		 struct fdo_overlap *o)
{
	struct fedges fe = { 0 };
	size_t ne = g->ne < p->ne ? g->ne : p->ne;
	double *a = NULL, *b = NULL, wsum = 0, *fw = calloc(g->nf + 1, sizeof(double));

	memset(o, 0, sizeof(*o));
	if (ne > t->ne)
		ne = t->ne;
	o->edge = fdo_overlap_vec(p->ec, t->ec, ne);
	o->block = fdo_overlap_vec(p->bc, t->bc, g->nb);
	a = malloc((g->ne + 1) * sizeof(double));
	b = malloc((g->ne + 1) * sizeof(double));
	if (!fw || !a || !b || fedges_build(&fe, g))
		goto out;
	/* function level: each function's edge overlap, weighted by its exact share of the
	 * executed instructions */
	for (size_t i = 0; i < g->nb; i++)
		fw[g->b[i].func] += t->bc[i] * g->b[i].ninsn;
	for (size_t f = 0; f < g->nf; f++)
		wsum += fw[f];
	for (size_t f = 0; f < g->nf && wsum > 0; f++) {
		size_t n = 0;

		if (fw[f] <= 0)
			continue;
		for (size_t k = fe.off[f]; k < fe.off[f + 1]; k++)
			if (fe.ix[k] < ne) {
				a[n] = p->ec[fe.ix[k]];
				b[n] = t->ec[fe.ix[k]];
				n++;
			}
		o->func += fw[f] / wsum * fdo_overlap_vec(a, b, n);
	}
out:
	fedges_free(&fe);
	free(fw);
	free(a);
	free(b);
}
