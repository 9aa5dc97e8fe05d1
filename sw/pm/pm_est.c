/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_est.c - estimates from ProfileMe samples (contract in pm_est.h, formulas in
 * docs/pm-report.md).
 *
 * Sections: names; small containers (hash index, latency, memory, paths); adding a record
 * (first profile, pairs); finishing (sort, functions, scale, pairs); queries.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pm_ci.h"
#include "pm_est.h"

/* ---- names */

static const char *const ev_names[PM_EST_NEV] = {
	"retired", "aborted", "trap", "timeout", "empty", "ic_miss", "itlb_miss", "dc_miss",
	"dtlb_miss", "load", "store", "ctrl", "br_taken", "br_mispred", "ea_valid", "fetched",
};

static const char *const lat_names[TIPROF_PM_NLAT] = {
	"total", "fetch_map", "map_ready", "ready_issue", "issue_complete", "complete_retire",
	"mem",
};

/* Contract in pm_est.h. */
const char *pm_est_event_name(unsigned ev)
{
	return ev < PM_EST_NEV ? ev_names[ev] : "?";
}

/* Compare a and b ignoring case and treating '-' as '_'. */
static int name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int x = *a == '-' ? '_' : tolower((unsigned char)*a);
		int y = *b == '-' ? '_' : tolower((unsigned char)*b);

		if (x != y)
			return 0;
	}
	return *a == *b;
}

/* Contract in pm_est.h. */
int pm_est_event_parse(const char *name)
{
	if (name_eq(name, "samples"))
		return PM_EST_EV_FETCHED;
	for (unsigned i = 0; i < PM_EST_NEV; i++)
		if (name_eq(name, ev_names[i]))
			return (int)i;
	return -1;
}

/* Contract in pm_est.h. */
const char *pm_est_lat_name(unsigned sel)
{
	return sel < TIPROF_PM_NLAT ? lat_names[sel] : "?";
}

/* Contract in pm_est.h. */
int pm_est_lat_parse(const char *name)
{
	for (unsigned i = 0; i < TIPROF_PM_NLAT; i++)
		if (name_eq(name, lat_names[i]))
			return (int)i;
	return -1;
}

/* ---- small containers */

/* 64-bit mix for the hash indexes. */
static size_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

/* Slot of key in an open-addressing index over an array of items (idx + 1 stored, 0 = free)
 * whose key is key_of(i). */
static size_t *hslot(size_t *h, size_t cap, uint64_t key, const void *arr, size_t stride,
		     size_t off)
{
	size_t i = mix(key) & (cap - 1);

	for (;; i = (i + 1) & (cap - 1)) {
		uint64_t k;

		if (!h[i])
			return &h[i];
		memcpy(&k, (const char *)arr + (h[i] - 1) * stride + off, sizeof(k));
		if (k == key)
			return &h[i];
	}
}

/* Grow an index to hold n + 1 items (load <= 1/2). Returns 0 or -1. */
static int hgrow(size_t **h, size_t *cap, size_t n, const void *arr, size_t stride, size_t off)
{
	size_t nc, *nh;

	if ((n + 1) * 2 <= *cap)
		return 0;
	nc = *cap ? *cap * 2 : 256;
	nh = calloc(nc, sizeof(*nh));
	if (!nh)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t k;

		memcpy(&k, (const char *)arr + i * stride + off, sizeof(k));
		*hslot(nh, nc, k, arr, stride, off) = i + 1;
	}
	free(*h);
	*h = nh;
	*cap = nc;
	return 0;
}

/* Grow an array to hold n + 1 items of size sz. Returns 0 or -1. */
static int agrow(void **a, size_t *cap, size_t n, size_t sz)
{
	size_t nc;
	void *na;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 64;
	na = realloc(*a, nc * sz);
	if (!na)
		return -1;
	memset((char *)na + *cap * sz, 0, (nc - *cap) * sz);
	*a = na;
	*cap = nc;
	return 0;
}

/* Log2 bin of a latency. */
static unsigned bin_of(unsigned v)
{
	unsigned b = 0;

	while (v) {
		b++;
		v >>= 1;
	}
	return b < PM_EST_HBINS ? b : PM_EST_HBINS - 1;
}

/* Contract in pm_est.h. */
unsigned pm_est_bin_lo(unsigned b)
{
	return b ? 1u << (b - 1) : 0;
}

static int lat_add(struct pm_est_lat *l, uint16_t v)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 8;
		uint16_t *nv = realloc(l->v, nc * sizeof(*nv));

		if (!nv)
			return -1;
		l->v = nv;
		l->cap = nc;
	}
	if (!l->n || v < l->min)
		l->min = v;
	if (!l->n || v > l->max)
		l->max = v;
	l->v[l->n++] = v;
	l->sum += v;
	l->hist[bin_of(v)]++;
	return 0;
}

static int u16_cmp(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Contract in pm_est.h. */
double pm_est_lat_mean(const struct pm_est_lat *l)
{
	return l->n ? l->sum / (double)l->n : 0.0;
}

/* Contract in pm_est.h: nearest rank, ceil(q n)-th smallest. */
double pm_est_lat_quantile(const struct pm_est_lat *l, double q)
{
	double r;
	size_t i;

	if (!l->n)
		return 0.0;
	r = q * (double)l->n;
	i = (size_t)r;
	if ((double)i < r)
		i++;
	if (i < 1)
		i = 1;
	if (i > l->n)
		i = l->n;
	return l->v[i - 1];
}

/* A memory operation of first profile with events ev into m. */
static void mem_add(struct pm_est_mem *m, unsigned ev, int lat_ok, uint16_t lat)
{
	if (ev & (1u << TIPROF_PM_EV_LOAD)) {
		unsigned c = ((ev >> TIPROF_PM_EV_DC_MISS) & 1u) |
			     (((ev >> TIPROF_PM_EV_DTLB_MISS) & 1u) << 1);

		m->loads++;
		m->cls[c]++;
		if (lat_ok) {
			m->lat_n[c]++;
			m->lat_sum[c] += lat;
			m->hist[bin_of(lat)]++;
		}
	} else if (ev & (1u << TIPROF_PM_EV_STORE)) {
		m->stores++;
		if (ev & (1u << TIPROF_PM_EV_DC_MISS))
			m->store_dc_miss++;
	}
}

/* Count history h with the branch outcome of ev in in's path table. Returns 0 or -1. */
static int path_add(struct pm_est_insn *in, uint16_t h, unsigned ev)
{
	size_t lo = 0, hi = in->npath;
	struct pm_est_path *p;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (in->path[mid].hist < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == in->npath || in->path[lo].hist != h) {
		if (agrow((void **)&in->path, &in->path_cap, in->npath, sizeof(*in->path)))
			return -1;
		memmove(&in->path[lo + 1], &in->path[lo], (in->npath - lo) * sizeof(*in->path));
		memset(&in->path[lo], 0, sizeof(*in->path));
		in->path[lo].hist = h;
		in->npath++;
	}
	p = &in->path[lo];
	p->n++;
	p->taken += (ev >> TIPROF_PM_EV_BR_TAKEN) & 1u;
	p->mispred += (ev >> TIPROF_PM_EV_BR_MISPRED) & 1u;
	return 0;
}

/* ---- adding a record */

/* The instruction at pc, created if new. NULL: out of memory. */
static struct pm_est_insn *insn_get(struct pm_est *e, uint64_t pc)
{
	size_t *s;

	if (hgrow(&e->ihash, &e->ihcap, e->ninsn, e->insn, sizeof(*e->insn),
		  offsetof(struct pm_est_insn, pc)))
		return NULL;
	s = hslot(e->ihash, e->ihcap, pc, e->insn, sizeof(*e->insn),
		  offsetof(struct pm_est_insn, pc));
	if (*s)
		return &e->insn[*s - 1];
	if (agrow((void **)&e->insn, &e->icap, e->ninsn, sizeof(*e->insn)))
		return NULL;
	/* the array may have moved, the slot has not */
	e->insn[e->ninsn].pc = pc;
	e->insn[e->ninsn].func = PM_EST_NOFUNC;
	*s = ++e->ninsn;
	return &e->insn[e->ninsn - 1];
}

/* The data region of ea, created if new. NULL: out of memory. */
static struct pm_est_region *region_get(struct pm_est *e, uint64_t ea)
{
	uint64_t base = e->opts.region_shift >= 64 ? 0 :
			(ea >> e->opts.region_shift) << e->opts.region_shift;
	size_t *s;

	if (hgrow(&e->rhash, &e->rhcap, e->nregion, e->region, sizeof(*e->region),
		  offsetof(struct pm_est_region, base)))
		return NULL;
	s = hslot(e->rhash, e->rhcap, base, e->region, sizeof(*e->region),
		  offsetof(struct pm_est_region, base));
	if (*s)
		return &e->region[*s - 1];
	if (agrow((void **)&e->region, &e->rcap, e->nregion, sizeof(*e->region)))
		return NULL;
	e->region[e->nregion].base = base;
	*s = ++e->nregion;
	return &e->region[e->nregion - 1];
}

/* Fields of profile p of record s. */
struct prof {
	uint64_t pc, ea;
	unsigned ev, reason, tagged;
	uint16_t path;
	int issue_ok;
	uint16_t issue, end;		/* stamps relative to the profile's own fetch */
};

static void prof_get(const struct tiprof_pm_sample *s, unsigned p, struct prof *o)
{
	unsigned seen = (unsigned)tiprof_pm_field(s, TIPROF_PM_REC_STAMP_B, p,
						  TIPROF_PM_REC_STAMP_B_SEEN_MASK,
						  TIPROF_PM_REC_STAMP_B_SEEN_SHIFT);

	o->pc = tiprof_pm_field(s, TIPROF_PM_REC_PC, p, TIPROF_PM_REC_PC_PC_MASK,
				TIPROF_PM_REC_PC_PC_SHIFT);
	o->ea = tiprof_pm_field(s, TIPROF_PM_REC_EA, p, TIPROF_PM_REC_EA_EA_MASK,
				TIPROF_PM_REC_EA_EA_SHIFT);
	o->ev = (unsigned)tiprof_pm_field(s, TIPROF_PM_REC_INFO, p, TIPROF_PM_REC_INFO_EV_MASK,
					  TIPROF_PM_REC_INFO_EV_SHIFT);
	o->reason = (unsigned)tiprof_pm_field(s, TIPROF_PM_REC_INFO, p,
					      TIPROF_PM_REC_INFO_REASON_MASK,
					      TIPROF_PM_REC_INFO_REASON_SHIFT);
	o->tagged = (unsigned)tiprof_pm_field(s, TIPROF_PM_REC_INFO, p,
					      TIPROF_PM_REC_INFO_TAGGED_MASK,
					      TIPROF_PM_REC_INFO_TAGGED_SHIFT);
	o->path = (uint16_t)tiprof_pm_field(s, TIPROF_PM_REC_INFO, p,
					    TIPROF_PM_REC_INFO_PATH_MASK,
					    TIPROF_PM_REC_INFO_PATH_SHIFT);
	o->issue_ok = (seen >> 2) & 1u;	/* seen bits: map, ready, issue, mem, complete */
	o->issue = (uint16_t)tiprof_pm_field(s, TIPROF_PM_REC_STAMP_A, p,
					     TIPROF_PM_REC_STAMP_A_ISSUE_MASK,
					     TIPROF_PM_REC_STAMP_A_ISSUE_SHIFT);
	o->end = (uint16_t)tiprof_pm_field(s, TIPROF_PM_REC_STAMP_B, p,
					   TIPROF_PM_REC_STAMP_B_END_MASK,
					   TIPROF_PM_REC_STAMP_B_END_SHIFT);
}

#define EVB(ev, b) (((ev) >> TIPROF_PM_EV_##b) & 1u)

/* Is the partner a useful overlap of I: retired, issued, and its issue time t (in the
 * first's fetch-relative time) inside I's [lo, hi]? */
static int useful(const struct prof *j, uint64_t t, uint64_t lo, uint64_t hi)
{
	return EVB(j->ev, RETIRED) && j->issue_ok && t >= lo && t <= hi;
}

/* One pair observation of I into its figures (both, and the retired-only ones when I
 * retired): partner useful or not, I's lifetime. */
static void pair_obs(struct pm_est_insn *in, int second, int retired, int use, uint16_t life)
{
	struct pm_est_pair *p[2] = { &in->pair, retired ? &in->pair_retired : NULL };

	for (unsigned i = 0; i < 2; i++) {
		if (!p[i])
			continue;
		if (second) {
			p[i]->n_second++;
			p[i]->u_second += (uint64_t)use;
		} else {
			p[i]->n_first++;
			p[i]->u_first += (uint64_t)use;
		}
		p[i]->life_n++;
		p[i]->life_sum += life;
	}
}

/* The pair analysis of a record with PAIR set (docs/pm-report.md "Pairs"). */
static int pair_add(struct pm_est *e, const struct tiprof_pm_sample *s, const struct prof *a)
{
	struct prof b;
	struct pm_est_insn *ia, *ib;
	uint64_t pcyc = tiprof_pm_field(s, TIPROF_PM_REC_SINFO, 0,
					TIPROF_PM_REC_SINFO_PAIR_CYCLES_MASK,
					TIPROF_PM_REC_SINFO_PAIR_CYCLES_SHIFT);

	prof_get(s, 1, &b);
	/* the first must have ended by itself (its lifetime is known) */
	if (!a->tagged || EVB(a->ev, TIMEOUT) || EVB(a->ev, EMPTY))
		return 0;
	/* a second never fetched before the timeout: nothing at that distance issued during
	 * the first's lifetime (which ended before the timeout); a tagged second whose tag was
	 * lost (TIMEOUT): its times are unknown, the pair is left out */
	if (!b.tagged && !EVB(b.ev, TIMEOUT))
		return 0;
	if (b.tagged && EVB(b.ev, TIMEOUT))
		return 0;
	if (!(ia = insn_get(e, a->pc)))
		return -1;
	pair_obs(ia, 0, (int)EVB(a->ev, RETIRED),
		 b.tagged && useful(&b, pcyc + b.issue, 0, a->end), a->end);
	e->n_pairs_used++;
	if (!b.tagged)
		return 0;
	if (!(ib = insn_get(e, b.pc)))	/* may move ia */
		return -1;
	pair_obs(ib, 1, (int)EVB(b.ev, RETIRED), useful(a, a->issue, pcyc, pcyc + b.end), b.end);
	return 0;
}

/* Contract in pm_est.h. */
int pm_est_add(struct pm_est *e, const struct tiprof_pm_sample *s)
{
	unsigned fmt = (unsigned)tiprof_pm_field(s, TIPROF_PM_REC_SINFO, 0,
						 TIPROF_PM_REC_SINFO_FMT_MASK,
						 TIPROF_PM_REC_SINFO_FMT_SHIFT);
	struct pm_est_insn *in;
	struct prof a;

	if (fmt != TIPROF_PM_REC_FMT) {
		e->n_bad++;
		return 0;
	}
	prof_get(s, 0, &a);
	e->n++;
	if (EVB(a.ev, EMPTY)) {
		e->n_empty++;
		return 0;
	}
	if (!a.tagged) {
		e->n_bad++;
		return 0;
	}
	if (!(in = insn_get(e, a.pc)))
		return -1;
	in->k_ev[PM_EST_EV_FETCHED]++;
	for (unsigned b = 0; b < TIPROF_PM_EV_BITS; b++)
		in->k_ev[b] += (a.ev >> b) & 1u;
	if (EVB(a.ev, TIMEOUT)) {
		e->n_timeout++;
	} else {
		int ok;
		uint16_t v;

		if (EVB(a.ev, ABORTED))
			in->reason[a.reason & 3u]++;
		for (unsigned sel = 0; sel < TIPROF_PM_NLAT; sel++) {
			v = tiprof_pm_latency(s->w, 0, sel, &ok);
			if (ok && lat_add(&in->lat[sel], v))
				return -1;
		}
		if (a.ev & ((1u << TIPROF_PM_EV_LOAD) | (1u << TIPROF_PM_EV_STORE))) {
			v = tiprof_pm_latency(s->w, 0, TIPROF_PM_LAT_MEM, &ok);
			mem_add(&in->mem, a.ev, ok, v);
			if (EVB(a.ev, EA_VALID)) {
				struct pm_est_region *r = region_get(e, a.ea);

				if (!r)
					return -1;
				mem_add(&r->mem, a.ev, ok, v);
			}
		}
	}
	if (path_add(in, a.path, a.ev))
		return -1;
	if (tiprof_pm_field(s, TIPROF_PM_REC_SINFO, 0, TIPROF_PM_REC_SINFO_PAIR_MASK,
			    TIPROF_PM_REC_SINFO_PAIR_SHIFT)) {
		e->n_pairs++;
		if (pair_add(e, s, &a))
			return -1;
	}
	return 0;
}

/* ---- init, finish, free */

/* Contract in pm_est.h. */
void pm_est_opts_init(struct pm_est_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->conf = 0.95;
	o->region_shift = 12;
}

/* Contract in pm_est.h. */
int pm_est_init(struct pm_est *e, const struct tiprof_pm_config *cfg,
		const struct tiprof_pm_counts *counts, const struct pm_est_opts *opts)
{
	memset(e, 0, sizeof(*e));
	if (!cfg || !cfg->period)
		return -1;
	e->cfg = *cfg;
	if (counts) {
		e->counts = *counts;
		e->have_counts = 1;
	}
	if (opts)
		e->opts = *opts;
	else
		pm_est_opts_init(&e->opts);
	if (!(e->opts.conf > 0.0 && e->opts.conf < 1.0))
		e->opts.conf = 0.95;
	return 0;
}

static int insn_by_pc(const void *a, const void *b)
{
	const struct pm_est_insn *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int region_by_base(const void *a, const void *b)
{
	const struct pm_est_region *x = a, *y = b;

	return x->base < y->base ? -1 : x->base > y->base;
}

static int func_by_key(const void *a, const void *b)
{
	const struct pm_est_func *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The derived figures of in's pairs (window W, issue width iw). */
static void pair_finish(struct pm_est_pair *p, double w, unsigned iw, double conf)
{
	double fa, fb, la, ha, lb, hb;

	if (!p->life_n)
		return;
	p->life_mean = p->life_sum / (double)p->life_n;
	if (p->n_first && p->n_second) {
		fa = (double)p->u_first / (double)p->n_first;
		fb = (double)p->u_second / (double)p->n_second;
		pm_ci_wilson(p->u_first, p->n_first, conf, &la, &ha);
		pm_ci_wilson(p->u_second, p->n_second, conf, &lb, &hb);
		p->overlap = w * (fa + fb);
		p->overlap_lo = w * (la + lb);
		p->overlap_hi = w * (ha + hb);
	} else {
		uint64_t u = p->n_first ? p->u_first : p->u_second;
		uint64_t n = p->n_first ? p->n_first : p->n_second;

		pm_ci_wilson(u, n, conf, &la, &ha);
		p->one_sided = 1;
		p->overlap = 2.0 * w * (double)u / (double)n;
		p->overlap_lo = 2.0 * w * la;
		p->overlap_hi = 2.0 * w * ha;
	}
	p->wasted = iw ? (double)iw * p->life_mean - p->overlap : 0.0;
}

/* Aggregate the instructions to functions (e->insn sorted by PC, func keys set). */
static int funcs_build(struct pm_est *e)
{
	struct pm_est_func *f;
	size_t n = 0;

	if (!e->ninsn)
		return 0;
	f = calloc(e->ninsn, sizeof(*f));
	if (!f)
		return -1;
	for (size_t i = 0; i < e->ninsn; i++) {
		f[i].key = e->insn[i].func;
		memcpy(f[i].k_ev, e->insn[i].k_ev, sizeof(f[i].k_ev));
		f[i].ninsn = e->insn[i].k_ev[PM_EST_EV_FETCHED] ? 1 : 0;
	}
	qsort(f, e->ninsn, sizeof(*f), func_by_key);
	for (size_t i = 0; i < e->ninsn; i++) {
		if (n && f[n - 1].key == f[i].key) {
			for (unsigned v = 0; v < PM_EST_NEV; v++)
				f[n - 1].k_ev[v] += f[i].k_ev[v];
			f[n - 1].ninsn += f[i].ninsn;
		} else {
			f[n++] = f[i];
		}
	}
	e->func = f;
	e->nfunc = n;
	return 0;
}

/* Contract in pm_est.h. */
int pm_est_finish(struct pm_est *e)
{
	const struct tiprof_pm_counts *c = &e->counts;
	double w = (double)((e->cfg.pair & TIPROF_PM_PAIR_WINDOW_MASK) >>
			    TIPROF_PM_PAIR_WINDOW_SHIFT);

	if (e->finished)
		return 0;
	e->finished = 1;
	free(e->ihash);
	free(e->rhash);
	e->ihash = e->rhash = NULL;
	e->ihcap = e->rhcap = 0;
	if (e->ninsn)
		qsort(e->insn, e->ninsn, sizeof(*e->insn), insn_by_pc);
	if (e->nregion)
		qsort(e->region, e->nregion, sizeof(*e->region), region_by_base);
	for (size_t i = 0; i < e->ninsn; i++) {
		struct pm_est_insn *in = &e->insn[i];

		for (unsigned s = 0; s < TIPROF_PM_NLAT; s++)
			if (in->lat[s].n)
				qsort(in->lat[s].v, in->lat[s].n, sizeof(uint16_t), u16_cmp);
		if (e->opts.func_key)
			in->func = e->opts.func_key(e->opts.func_ctx, in->pc);
		pair_finish(&in->pair, w, e->cfg.issue_width, e->opts.conf);
		pair_finish(&in->pair_retired, w, e->cfg.issue_width, e->opts.conf);
	}
	if (funcs_build(e))
		return -1;
	/* the scale (docs/profileme.md "Estimates"; n replaces TAKEN when some records were
	 * lost on the software path) */
	e->scale = (double)e->cfg.period;
	if (e->have_counts) {
		uint64_t sel = c->taken + c->lost + c->filtered + c->collided;

		if (e->n && c->taken + c->lost && sel > c->collided)
			e->scale = (double)e->cfg.period * (double)(c->taken + c->lost) /
				   (double)e->n * (double)sel / (double)(sel - c->collided);
		else
			e->have_counts = 0;
	}
	e->total = (double)e->n * e->scale;
	return 0;
}

/* Contract in pm_est.h. */
int pm_est_build(struct pm_est *e, const struct tiprof_pm_config *cfg,
		 const struct tiprof_pm_counts *counts, const struct pm_est_opts *opts,
		 const struct tiprof_pm_sample *s, size_t n)
{
	if (pm_est_init(e, cfg, counts, opts))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (pm_est_add(e, &s[i]))
			return -1;
	return pm_est_finish(e);
}

/* Contract in pm_est.h. */
void pm_est_free(struct pm_est *e)
{
	for (size_t i = 0; i < e->ninsn; i++) {
		for (unsigned s = 0; s < TIPROF_PM_NLAT; s++)
			free(e->insn[i].lat[s].v);
		free(e->insn[i].path);
	}
	free(e->insn);
	free(e->func);
	free(e->region);
	free(e->ihash);
	free(e->rhash);
	memset(e, 0, sizeof(*e));
}

/* ---- queries */

/* Contract in pm_est.h. */
const struct pm_est_insn *pm_est_find(const struct pm_est *e, uint64_t pc)
{
	struct pm_est_insn key;

	key.pc = pc;
	return e->ninsn ? bsearch(&key, e->insn, e->ninsn, sizeof(key), insn_by_pc) : NULL;
}

/* Contract in pm_est.h. */
const struct pm_est_func *pm_est_find_func(const struct pm_est *e, uint64_t k)
{
	struct pm_est_func key;

	key.key = k;
	return e->nfunc ? bsearch(&key, e->func, e->nfunc, sizeof(key), func_by_key) : NULL;
}

/* Contract in pm_est.h. */
double pm_est_count(const struct pm_est *e, uint64_t k)
{
	return (double)k * e->scale;
}

/* Contract in pm_est.h. */
void pm_est_rate(const struct pm_est *e, uint64_t k_e, uint64_t k, double *rate, double *lo,
		 double *hi)
{
	*rate = k ? (double)k_e / (double)k : 0.0;
	pm_ci_clopper_pearson(k_e, k, e->opts.conf, lo, hi);
}

/* Contract in pm_est.h. */
void pm_est_interval(const struct pm_est *e, uint64_t k, double *lo, double *hi)
{
	double pl, ph;

	pm_ci_clopper_pearson(k, e->n, e->opts.conf, &pl, &ph);
	*lo = pl * e->total;
	*hi = ph * e->total;
}
