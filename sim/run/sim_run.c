/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_run.c - the one simulation loop and its standard consumers (contract in sim_run.h).
 */
#include "sim_run.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oracle.h"
#include "recsim.h"

void sim_run_init(struct sim_run *r, struct core *core, const char *prog)
{
	memset(r, 0, sizeof(*r));
	r->core = core;
	r->prog = prog;
}

int sim_run_attach(struct sim_run *r, const struct sim_consumer *c)
{
	if (r->nconsumers >= SIM_RUN_MAX_CONSUMERS)
		return -1;
	r->consumer[r->nconsumers++] = *c;
	return 0;
}

int sim_run_loop(struct sim_run *r, char *err, size_t errlen)
{
	struct core_cycle_out o;
	int more;

	do {
		more = core_cycle(r->core, &o);
		if (more < 0) {
			snprintf(err, errlen, "%.200s: %s", r->prog, core_error(r->core));
			return -1;
		}
		for (unsigned i = 0; i < r->nconsumers; i++)
			if (r->consumer[i].cycle(r->consumer[i].ctx, r->cycles, &o, err, errlen))
				return -1;
		r->cycles++;
	} while (more > 0);
	for (unsigned i = 0; i < r->nconsumers; i++)
		if (r->consumer[i].finish && r->consumer[i].finish(r->consumer[i].ctx, err, errlen))
			return -1;
	return 0;
}

/* ---- the Oracle */

static int oracle_consume(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
			  size_t errlen)
{
	struct oracle *orc = ctx;

	(void)cyc;
	if (oracle_cycle(orc, &o->rob, o->head_kind))
		goto nomem;
	for (unsigned k = 0; k < o->n_retired; k++)
		if (oracle_count(orc, o->retired[k]->pc))
			goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for the Oracle profile");
	return -1;
}

static int oracle_done(void *ctx, char *err, size_t errlen)
{
	struct oracle *orc = ctx;

	if (oracle_finish(orc)) {
		snprintf(err, errlen, "out of memory for the Oracle profile");
		return -1;
	}
	return oracle_check(orc, err, errlen);
}

struct sim_consumer sim_consumer_oracle(struct oracle *orc)
{
	return (struct sim_consumer){ oracle_consume, oracle_done, orc };
}

/* ---- the ROB trace writer */

static int trace_consume(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
			 size_t errlen)
{
	struct sim_trace_sink *s = ctx;

	(void)cyc;
	if (rob_trace_writer_cycle(&s->tw, &o->rob) < 0) {
		snprintf(err, errlen, "cannot write the ROB trace %s", s->path);
		return -1;
	}
	return 0;
}

int sim_trace_open(struct sim_trace_sink *s, const char *path, unsigned w, char *err,
		   size_t errlen)
{
	struct rob_trace_hdr th = { w, 64, 7 };

	s->path = path;
	s->open = rob_trace_writer_open(&s->tw, path, &th) == 0;
	if (!s->open) {
		snprintf(err, errlen, "cannot create the ROB trace %s", path);
		return -1;
	}
	return 0;
}

int sim_trace_close(struct sim_trace_sink *s, int keep, char *err, size_t errlen)
{
	int bad;

	if (!s->open)
		return 0;
	s->open = 0;
	bad = rob_trace_writer_close(&s->tw) < 0;
	if (bad || !keep)
		unlink(s->path);
	if (bad && keep) {
		snprintf(err, errlen, "cannot write the ROB trace %s", s->path);
		return -1;
	}
	return 0;
}

struct sim_consumer sim_consumer_rob_trace(struct sim_trace_sink *s)
{
	return (struct sim_consumer){ trace_consume, NULL, s };
}

/* ---- the sample recorder */

static int recsim_consume(void *ctx, uint64_t cyc, const struct core_cycle_out *o, char *err,
			  size_t errlen)
{
	(void)cyc;
	return recsim_cycle(ctx, &o->rob, err, errlen);
}

struct sim_consumer sim_consumer_recsim(struct recsim *rec)
{
	return (struct sim_consumer){ recsim_consume, NULL, rec };
}

/* ---- sampled simulation */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* st->measured += b - a, counter by counter. */
static void stats_add(struct core_stats *acc, const struct core_stats *a,
		      const struct core_stats *b)
{
	uint64_t *s = (uint64_t *)acc;
	const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;

	for (size_t i = 0; i < sizeof(*acc) / sizeof(uint64_t); i++)
		s[i] += y[i] - x[i];
}

int sim_run_sampled(struct sim_run *r, const struct sim_windows *w,
		    struct sim_sampled_stats *st, char *err, size_t errlen)
{
	enum { PH_DETAIL, PH_MEASURE, PH_DRAIN } ph;
	const struct core_stats *cs = core_stats(r->core);
	struct core_stats at_start;
	struct core_cycle_out o;
	uint64_t start;
	double t0 = now_s(), t1;
	int more;

	memset(st, 0, sizeof(*st));
	memset(&at_start, 0, sizeof(at_start));
	start = 0;
	ph = w->detail ? PH_DETAIL : PH_MEASURE;
	st->windows = ph == PH_MEASURE;
	do {
		more = core_cycle(r->core, &o);
		if (more < 0) {
			snprintf(err, errlen, "%.200s: %s", r->prog, core_error(r->core));
			return -1;
		}
		st->detailed_cycles++;
		st->detailed_insns += o.n_retired;
		if (ph == PH_MEASURE) {
			st->measured_cycles++;
			st->measured_insns += o.n_retired;
			for (unsigned i = 0; i < r->nconsumers; i++)
				if (r->consumer[i].cycle(r->consumer[i].ctx, r->cycles, &o, err, errlen))
					return -1;
		} else {
			if (r->skip && r->skip(r->skip_ctx, r->cycles, &o, err, errlen))
				return -1;
		}
		r->cycles++;
		if (!more)
			break;
		switch (ph) {
		case PH_DETAIL:
			if (cs->insns - start >= w->detail) {
				ph = PH_MEASURE;
				st->windows++;
				start = cs->insns;
				at_start = *cs;
			}
			break;
		case PH_MEASURE:
			if (cs->insns - start < w->measure)
				break;
			stats_add(&st->measured, &at_start, cs);
			if (w->warm) {
				core_fetch_stop(r->core);
				ph = PH_DRAIN;
			} else {
				ph = w->detail ? PH_DETAIL : PH_MEASURE;
				st->windows += ph == PH_MEASURE;
				start = cs->insns;
				at_start = *cs;
			}
			break;
		case PH_DRAIN:
			break;
		}
		if (ph == PH_DRAIN && core_empty(r->core)) {
			uint64_t n;

			t1 = now_s();
			st->detailed_s += t1 - t0;
			if ((w->cold ? core_skip : core_warm)(r->core, w->warm, &n)) {
				snprintf(err, errlen, "%.200s: %s", r->prog, core_error(r->core));
				return -1;
			}
			st->warmed_insns += n;
			t0 = now_s();
			st->warm_s += t0 - t1;
			ph = w->detail ? PH_DETAIL : PH_MEASURE;
			st->windows += ph == PH_MEASURE;
			start = cs->insns;
			at_start = *cs;
		}
	} while (more > 0);
	if (ph == PH_MEASURE)
		stats_add(&st->measured, &at_start, cs);
	st->detailed_s += now_s() - t0;
	for (unsigned i = 0; i < r->nconsumers; i++)
		if (r->consumer[i].finish && r->consumer[i].finish(r->consumer[i].ctx, err, errlen))
			return -1;
	return 0;
}
