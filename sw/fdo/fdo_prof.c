/* SPDX-License-Identifier: Apache-2.0 */
/* fdo_prof.c - block/edge profiles (fdo.h): the profile file, and block counts from sample
 * files (TIP cycle or instruction samples, ProfileMe records). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdo.h"
#include "policy_profile.h"
#include "sample_file.h"
#include "tiprof/pm_sample.h"
#include "tiprof/tiprof_regs.h"

#define PROF_MAGIC "tiprof-fdo-profile 1"

int fdo_prof_init(struct fdo_prof *p, const struct fdo_cfg *g)
{
	memset(p, 0, sizeof(*p));
	p->nb = g->nb;
	p->ne = g->ne;
	p->bc = calloc(g->nb ? g->nb : 1, sizeof(double));
	p->ec = calloc(g->ne ? g->ne : 1, sizeof(double));
	if (!p->bc || !p->ec) {
		fdo_prof_free(p);
		return -1;
	}
	return 0;
}

void fdo_prof_free(struct fdo_prof *p)
{
	free(p->bc);
	free(p->ec);
	free(p->agg);
	free(p->shadow);
	memset(p, 0, sizeof(*p));
}

/* Grow p's edge array to g's edge count (edges added after p was made). */
static int prof_fit(struct fdo_prof *p, const struct fdo_cfg *g)
{
	if (p->ne >= g->ne)
		return 0;
	double *ec = realloc(p->ec, g->ne * sizeof(double));

	if (!ec)
		return -1;
	for (size_t i = p->ne; i < g->ne; i++)
		ec[i] = 0;
	p->ec = ec;
	p->ne = g->ne;
	return 0;
}

int fdo_prof_write(const struct fdo_prof *p, const struct fdo_cfg *g, const char *path,
		   char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "%s\nbuild-id %s\nsource %s\nsamples %.0f\n", PROF_MAGIC,
		g->build_id[0] ? g->build_id : "-", p->source[0] ? p->source : "-", p->samples);
	for (size_t i = 0; i < g->nb && i < p->nb; i++)
		if (p->bc[i] != 0)
			fprintf(f, "block 0x%" PRIx64 " %.17g\n", g->b[i].start, p->bc[i]);
	for (size_t i = 0; i < g->ne && i < p->ne; i++) {
		const struct fdo_edge *e = &g->e[i];

		if (p->ec[i] == 0)
			continue;
		if (e->src == FDO_ENTRY)
			fprintf(f, "edge entry 0x%" PRIx64, g->b[e->dst].start);
		else if (e->dst == FDO_EXIT)
			fprintf(f, "edge 0x%" PRIx64 " exit", g->b[e->src].start);
		else
			fprintf(f, "edge 0x%" PRIx64 " 0x%" PRIx64, g->b[e->src].start,
				g->b[e->dst].start);
		fprintf(f, " %.17g\n", p->ec[i]);
	}
	if (fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static long block_at(const struct fdo_cfg *g, const char *tok)
{
	char *end;
	uint64_t a = strtoull(tok, &end, 0);
	long b;

	if (*end)
		return -2;
	b = fdo_cfg_block(g, a);
	return b >= 0 && g->b[b].start == a ? b : -1;
}

int fdo_prof_read(struct fdo_prof *p, struct fdo_cfg *g, const char *path, char *err,
		  size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512], a[64], b[64], c[64];
	unsigned long ln = 0;

	memset(p, 0, sizeof(*p));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), f) || strncmp(line, PROF_MAGIC, strlen(PROF_MAGIC))) {
		snprintf(err, errlen, "%s: not a tiprof FDO profile (no '%s' line)", path, PROF_MAGIC);
		goto fail;
	}
	ln = 1;
	if (fdo_prof_init(p, g))
		goto nomem;
	while (fgets(line, sizeof(line), f)) {
		double v;
		long s, d, e;

		ln++;
		if (sscanf(line, "build-id %63s", a) == 1) {
			if (strcmp(a, g->build_id[0] ? g->build_id : "-")) {
				snprintf(err, errlen, "%s: profile of another binary (build-id %s, the "
					 "ELF's is %s)", path, a, g->build_id[0] ? g->build_id : "none");
				goto fail;
			}
		} else if (sscanf(line, "source %31s", p->source) == 1) {
		} else if (sscanf(line, "samples %lf", &p->samples) == 1) {
		} else if (sscanf(line, "block %63s %lf", a, &v) == 2) {
			if ((s = block_at(g, a)) < 0)
				goto bad;
			p->bc[s] = v;
		} else if (sscanf(line, "edge %63s %63s %63s", a, b, c) == 3) {
			v = strtod(c, NULL);
			s = strcmp(a, "entry") ? block_at(g, a) : (long)FDO_ENTRY;
			d = strcmp(b, "exit") ? block_at(g, b) : (long)FDO_EXIT;
			if (s < 0 || d < 0 || (s == (long)FDO_ENTRY && d == (long)FDO_EXIT))
				goto bad;
			e = fdo_cfg_edge(g, (uint32_t)s, (uint32_t)d);
			if (e < 0 && s != (long)FDO_ENTRY && d != (long)FDO_EXIT &&
			    g->b[s].func == g->b[d].func && g->b[s].term == FDO_T_INDIRECT)
				e = fdo_cfg_add_edge(g, (uint32_t)s, (uint32_t)d, FDO_E_DYN);
			if (e < 0)
				goto bad;
			if (prof_fit(p, g))
				goto nomem;
			p->ec[e] = v;
		} else if (line[0] != '#' && line[0] != '\n') {
			goto bad;
		}
	}
	fclose(f);
	return 0;
bad:
	snprintf(err, errlen, "%s:%lu: not an edge or block of this binary's control-flow graph",
		 path, ln);
	goto fail;
nomem:
	snprintf(err, errlen, "%s: out of memory", path);
fail:
	fclose(f);
	fdo_prof_free(p);
	return -1;
}

/* ---- block counts from samples ---------------------------------------------------------- */

static const char *const est_names[] = { "auto", "commit", "cycles", "insn", "pm-retired" };

int fdo_est_parse(const char *s, enum fdo_est *e)
{
	for (size_t i = 0; i < sizeof(est_names) / sizeof(est_names[0]); i++)
		if (!strcmp(s, est_names[i])) {
			*e = (enum fdo_est)i;
			return 0;
		}
	return -1;
}

const char *fdo_est_name(enum fdo_est e)
{
	return (unsigned)e < sizeof(est_names) / sizeof(est_names[0]) ? est_names[e] : "?";
}

/* One attributed address of one sample. */
struct hit {
	uint64_t addr;
	double w;		/* instructions it stands for (block-count units after /ninsn) */
	double t;		/* cycles of the sample it carries (for the factors) */
	uint8_t stalled;	/* the sampled cycle was Stalled on it */
	uint8_t par;		/* instructions committing in that cycle (Computing), else 0 */
};

struct hits {
	struct hit *v;
	size_t n, cap;
};

static int hit_push(struct hits *h, struct hit x)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 4096;
		struct hit *v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return -1;
		h->v = v;
		h->cap = cap;
	}
	h->v[h->n++] = x;
	return 0;
}

static int popcount8(unsigned v)
{
	int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

int fdo_prof_from_samples(struct fdo_prof *p, const struct fdo_cfg *g, const char *path,
			  enum fdo_est est, char *err, size_t errlen)
{
	struct sf_reader r;
	struct sf_record rec;
	struct hits h = { 0 }, hpm = { 0 };
	char bid[2 * SF_BUILD_ID_MAX + 1];
	uint64_t bias = 0, nsamp = 0, npm = 0, used = 0;
	int st, w;
	double *t_all = NULL, *t_stall = NULL, *par_sum = NULL, *par_n = NULL;

	if (fdo_prof_init(p, g)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	st = sf_reader_open(&r, path);
	if (st) {
		snprintf(err, errlen, "%s", r.msg);
		goto fail;
	}
	elf_image_hex(r.hdr.build_id, r.hdr.build_id_len, bid, sizeof(bid));
	if (r.hdr.build_id_len && g->build_id[0] && strcmp(bid, g->build_id)) {
		snprintf(err, errlen, "%s: recorded from another binary (build-id %s, the ELF's is "
			 "%s)", path, bid, g->build_id);
		goto fail;
	}
	w = r.hdr.w ? r.hdr.w : 1;
	while ((st = sf_reader_next_record(&r, &rec)) == 1) {
		if (rec.type == SF_REC_OBJECT && rec.object.kind == SF_OBJ_MAIN) {
			bias = rec.object.bias;
		} else if (rec.type == SF_REC_SAMPLE) {
			const struct tiprof_sample *s = &rec.sample;
			int n = popcount8(s->valid);
			double per = r.hdr.period;

			nsamp++;
			if (est == FDO_EST_PM_RETIRED || !n)
				continue;
			for (int i = 0; i < (int)TIPROF_MAX_BANKS && i < w; i++) {
				struct hit x = { .addr = s->addr[i], .t = per / n,
						 .stalled = (s->flags & TIPROF_SF_STALLED) != 0,
						 .par = s->flags ? 0 : (uint8_t)n };

				if (!(s->valid >> i & 1))
					continue;
				if (est == FDO_EST_COMMIT || est == FDO_EST_AUTO)
					x.w = s->flags ? 0 : per;
				else if (est == FDO_EST_CYCLES)
					x.w = per / n;
				else
					x.w = per;
				if (hit_push(&h, x))
					goto nomem;
				used++;
			}
		} else if (rec.type == SF_REC_PM_SAMPLE) {
			struct tiprof_pm_sample *s = &rec.pm_sample;
			uint64_t pc = tiprof_pm_field(s, TIPROF_PM_REC_PC, 0, TIPROF_PM_REC_PC_PC_MASK,
						      TIPROF_PM_REC_PC_PC_SHIFT);
			unsigned ev = (unsigned)tiprof_pm_field(s, TIPROF_PM_REC_INFO, 0,
								TIPROF_PM_REC_INFO_EV_MASK,
								TIPROF_PM_REC_INFO_EV_SHIFT);
			unsigned tagged = (unsigned)tiprof_pm_field(s, TIPROF_PM_REC_INFO, 0,
								    TIPROF_PM_REC_INFO_TAGGED_MASK,
								    TIPROF_PM_REC_INFO_TAGGED_SHIFT);

			npm++;
			if ((est != FDO_EST_PM_RETIRED && est != FDO_EST_AUTO) || !tagged ||
			    !(ev >> TIPROF_PM_EV_RETIRED & 1))
				continue;
			if (hit_push(&hpm, (struct hit){ .addr = pc, .w = r.pm_config.period }))
				goto nomem;
			used++;
		}
	}
	if (st < 0) {
		snprintf(err, errlen, "%s", r.msg);
		goto fail;
	}
	/* auto: a recording with ProfileMe records (which also holds TIP samples) is read as
	 * ProfileMe, else TIP's cycle samples by their committing instructions */
	if (est == FDO_EST_AUTO)
		est = hpm.n ? FDO_EST_PM_RETIRED : FDO_EST_COMMIT;
	if (est == FDO_EST_PM_RETIRED) {
		struct hits t = h;

		h = hpm;
		hpm = t;
	}
	if (!h.n)
		used = 0;
	if (!used) {
		snprintf(err, errlen, "%s: no usable sample (%" PRIu64 " TIP samples, %" PRIu64
			 " ProfileMe records; estimator %s)", path, nsamp, npm, fdo_est_name(est));
		goto fail;
	}
	t_all = calloc(g->nb, sizeof(double));
	t_stall = calloc(g->nb, sizeof(double));
	par_sum = calloc(g->nb, sizeof(double));
	par_n = calloc(g->nb, sizeof(double));
	p->agg = calloc(g->nb, sizeof(double));
	p->shadow = calloc(g->nb, sizeof(double));
	if (!t_all || !t_stall || !par_sum || !par_n || !p->agg || !p->shadow)
		goto nomem;
	for (size_t i = 0; i < h.n; i++) {
		long b = fdo_cfg_block(g, h.v[i].addr - bias);

		if (b < 0)
			continue;	/* outside the program's functions (libraries, kernel) */
		p->bc[b] += h.v[i].w;
		t_all[b] += h.v[i].t;
		if (h.v[i].stalled)
			t_stall[b] += h.v[i].t;
		if (h.v[i].par) {
			par_sum[b] += h.v[i].par;
			par_n[b] += 1;
		}
	}
	for (size_t b = 0; b < g->nb; b++) {
		p->bc[b] /= g->b[b].ninsn;
		/* aggregation: share of the block's time spent stalled with it at the ROB head
		 * (long-latency instructions collect cycle samples); shadow: commit parallelism
		 * of its Computing cycles (instructions committing W at a time get 1/W each) */
		p->agg[b] = t_all[b] > 0 ? t_stall[b] / t_all[b] : 0;
		p->shadow[b] = par_n[b] > 0 && w > 1 ? (par_sum[b] / par_n[b] - 1) / (w - 1) : 0;
	}
	if (est == FDO_EST_PM_RETIRED || est == FDO_EST_INSN) {
		/* no skid, no time weighting: no events to classify */
		free(p->agg);
		free(p->shadow);
		p->agg = p->shadow = NULL;
	}
	snprintf(p->source, sizeof(p->source), "%s", est == FDO_EST_PM_RETIRED ? "pm-retired" :
		 est == FDO_EST_COMMIT ? "tip-commit" : est == FDO_EST_CYCLES ? "tip-cycles" : "insn");
	p->samples = (double)(est == FDO_EST_PM_RETIRED ? npm : nsamp);
	free(h.v);
	free(hpm.v);
	free(t_all);
	free(t_stall);
	free(par_sum);
	free(par_n);
	sf_reader_close(&r);
	return 0;
nomem:
	snprintf(err, errlen, "%s: out of memory", path);
fail:
	free(h.v);
	free(hpm.v);
	free(t_all);
	free(t_stall);
	free(par_sum);
	free(par_n);
	sf_reader_close(&r);
	fdo_prof_free(p);
	return -1;
}

/* ---- block counts from a reference policy's attribution (FILE.policies) ------------------ */

struct pol_ctx {
	const struct fdo_cfg *g;
	struct fdo_prof *p;
	const char *name;
	uint64_t bias;
	double used;
};

static int pol_ent(void *ctx, const char *name, double total, uint64_t pc, double w)
{
	struct pol_ctx *c = ctx;
	long b;

	(void)total;
	if (strcmp(name, c->name))
		return 0;
	b = fdo_cfg_block(c->g, pc - c->bias);
	c->used += w;
	if (b >= 0)
		c->p->bc[b] += w;
	return 0;
}

int fdo_prof_from_policy(struct fdo_prof *p, const struct fdo_cfg *g, const char *path,
			 const char *policy, char *err, size_t errlen)
{
	struct sf_reader r;
	struct sf_record rec;
	struct policy_profile_hdr h;
	struct pol_ctx c = { .g = g, .p = p, .name = policy };
	char ppath[4096], bid[2 * POLICY_PROFILE_ID_MAX + 1];
	FILE *f;
	int st;

	if (fdo_prof_init(p, g)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	/* the sample file: the run's main object (its load bias) */
	if (sf_reader_open(&r, path)) {
		snprintf(err, errlen, "%s", r.msg);
		sf_reader_close(&r);
		goto fail;
	}
	while ((st = sf_reader_next_record(&r, &rec)) == 1)
		if (rec.type == SF_REC_OBJECT && rec.object.kind == SF_OBJ_MAIN)
			c.bias = rec.object.bias;
	sf_reader_close(&r);
	snprintf(ppath, sizeof(ppath), "%s.policies", path);
	f = fopen(ppath, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s (tiprof sim --profile writes it beside the sample "
			 "file)", ppath, strerror(errno));
		goto fail;
	}
	st = policy_profile_read(f, &h, pol_ent, &c, err, errlen);
	fclose(f);
	if (st)
		goto fail;
	elf_image_hex(h.build_id, h.build_id_len, bid, sizeof(bid));
	if (h.build_id_len && g->build_id[0] && strcmp(bid, g->build_id)) {
		snprintf(err, errlen, "%s: made from another binary (build-id %s, the ELF's is %s)",
			 ppath, bid, g->build_id);
		goto fail;
	}
	if (c.used <= 0) {
		snprintf(err, errlen, "%s: no samples of policy '%s' (Oracle, Ideal, LCI, NCI, "
			 "NCI+ILP, Dispatch, Software)", ppath, policy);
		goto fail;
	}
	for (size_t b = 0; b < g->nb; b++)
		p->bc[b] /= g->b[b].ninsn;
	snprintf(p->source, sizeof(p->source), "policy:%s", policy);
	p->samples = (double)h.sampled;
	return 0;
fail:
	fdo_prof_free(p);
	return -1;
}
