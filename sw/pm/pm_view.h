/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pm_view.h - the views of `tiprof pm` (docs/pm-report.md): report (estimated counts with
 * intervals, per function and instruction), lat (latency distributions per stage), mem (loads
 * by D-cache/D-TLB outcome and latency, per instruction and data region), path (path
 * histories), pairs (useful overlap and wasted issue slots); each as text or one JSON object.
 * pm_view.c has what they share: names, the recording's summary, row selection and order,
 * JSON strings. One file per view.
 */
#ifndef TIPROF_PM_VIEW_H
#define TIPROF_PM_VIEW_H

#include <stdio.h>

#include "code_map.h"
#include "pm_est.h"
#include "pm_file.h"

struct sfprof;

/* Sort keys beyond the event indexes 0..PM_EST_NEV-1. */
enum {
	PM_SORT_LAT = 100,		/* + TIPROF_PM_LAT_*: mean latency of that stage */
	PM_SORT_OVERLAP = 200,		/* useful overlap */
	PM_SORT_WASTED,			/* wasted issue slots per execution */
	PM_SORT_WASTED_TOTAL,		/* wasted issue slots x fetched estimate */
	PM_SORT_PATHS,			/* distinct paths */
	PM_SORT_PC,			/* by address */
	PM_SORT_DEFAULT = -1,		/* the view's own */
};

/* What a view shows and from what. */
struct pm_view {
	const char *file;		/* the sample file */
	const char *view;		/* "report", "lat", ... */
	FILE *out;
	int json;
	long limit;			/* rows per table, 0 = all */
	int sort;			/* PM_SORT_* or an event index */
	int level;			/* -1 both, else enum code_level (report) */
	unsigned ev[PM_EST_NEV];	/* events shown (report), in order */
	unsigned nev;
	const struct pm_file *pf;
	const struct pm_est *e;
	struct sfprof *sym;		/* symbols, or NULL */
	const char *elf;		/* the ELF used for them, or NULL */
};

/* Parse a --sort value: an event name, a stage name, overlap, wasted, wasted-total, paths,
 * pc. Returns the key or -2. */
int pm_view_sort_parse(const char *s);

/* An estimated count for text: 0, 2 decimals below 10, 1 below 1000, whole below 1e10, else
 * 4 significant digits. Returns buf. */
const char *pm_view_fmt(char *buf, size_t len, double x);

/* Name of a sort key (an event, stage or the names above). */
const char *pm_view_sort_name(int key);

/* Name of an instruction ("func+0x10", "[0x1234]") or a function key ("func", "[unknown]"). */
void pm_view_insn_name(const struct pm_view *v, uint64_t pc, char *buf, size_t len);
void pm_view_func_name(const struct pm_view *v, uint64_t key, char *buf, size_t len);

/* The sort value of an instruction under key (higher first; PM_SORT_PC: lower first). */
double pm_view_insn_value(const struct pm_view *v, const struct pm_est_insn *in, int key);

/* The instructions for which keep() is true, ordered by key, at most limit of them (0: all):
 * a malloc'd array (NULL and *n = 0 when none or out of memory). */
const struct pm_est_insn **pm_view_rows(const struct pm_view *v, int key,
					int (*keep)(const struct pm_est_insn *), size_t *n);

/* Text: the recording's summary (samples, period, counters, scale, method) in a few lines. */
void pm_view_text_head(const struct pm_view *v);

/* JSON: the opening of the object with "view", "file", "elf" and "recording" and
 * "estimate" members, ending with a comma (the view adds its members and the closing '}'). */
void pm_view_json_head(const struct pm_view *v);

/* A JSON string, escaped. */
void pm_view_json_str(FILE *out, const char *s);

/* A JSON number: finite doubles with up to 17 significant digits, others as null. */
void pm_view_json_num(FILE *out, double x);

/* JSON "name": {"k":..,"est":..,"lo":..,"hi":..} of sample count k. */
void pm_view_json_estimate(const struct pm_view *v, const char *name, uint64_t k);

/* The same with the rate per fetch of the row (k_fetched samples) appended: "rate",
 * "rate_lo", "rate_hi" (pm_est_rate). */
void pm_view_json_estimate_rate(const struct pm_view *v, const char *name, uint64_t k,
				uint64_t k_fetched);

/* JSON latency distribution object {"n":..,"mean":..,"min":..,"p50":..,"p90":..,"p99":..,
 * "max":..,"hist":[[lo, count], ...]} (only non-empty bins). */
void pm_view_json_lat(FILE *out, const struct pm_est_lat *l);

/* The views; each returns 0 or -1 (out of memory). */
int pm_view_report(const struct pm_view *v);
int pm_view_lat(const struct pm_view *v);
int pm_view_mem(const struct pm_view *v);
int pm_view_path(const struct pm_view *v);
int pm_view_pairs(const struct pm_view *v);

#endif /* TIPROF_PM_VIEW_H */
