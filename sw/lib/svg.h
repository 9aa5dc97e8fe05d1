/* SPDX-License-Identifier: Apache-2.0 */
/*
 * svg.h - a minimal SVG 1.1 writer (no dependencies) and two chart helpers in the style of
 * the TIP paper's accuracy figures: grouped bars (one group per policy, one bar per series)
 * and lines over a logarithmic x axis (error vs sampling period). Text is XML-escaped, so
 * any label yields well-formed XML. Nothing here keeps global state; every function works on
 * the FILE * it is given and returns 0 or -1 on a write error (checked once at svg_end()).
 */
#ifndef TIPROF_SVG_H
#define TIPROF_SVG_H

#include <stddef.h>
#include <stdio.h>

/* Open an <svg> element of w x h pixels on f (white background). */
void svg_begin(FILE *f, double w, double h);

/* Close the <svg> element. Returns 0, or -1 if f has seen a write error. */
int svg_end(FILE *f);

/* Primitives; colours are CSS strings such as "#1f77b4" (not escaped: pass constants). */
void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill);
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
	      double width);
/* Text at (x, y); anchor is "start", "middle" or "end"; rotate in degrees about (x, y). */
void svg_text(FILE *f, double x, double y, double size, const char *anchor, double rotate,
	      const char *text);
/* Polyline through n points (xs[i], ys[i]) with a small circle on each. */
void svg_polyline(FILE *f, const double *xs, const double *ys, size_t n, const char *stroke);

/* The i-th colour of a fixed qualitative palette (wraps around). */
const char *svg_color(size_t i);

/* Grouped bar chart: ngroups groups (x labels group[]), nseries bars per group (legend
 * series[]); value v[g * nseries + s] in percent (negative values are drawn as 0). */
struct svg_bars {
	const char *title;        /* chart title */
	const char *ylabel;       /* y axis label */
	const char *const *group; /* ngroups labels */
	size_t ngroups;
	const char *const *series; /* nseries legend entries */
	size_t nseries;
	const double *v;          /* ngroups * nseries values */
};
/* Write a complete SVG document (begin..end). Returns 0 or -1 on a write error. */
int svg_bar_chart(FILE *f, const struct svg_bars *c);

/* Line chart over a log2 x axis: nlines lines (legend line[]), each through npts points
 * (x[p], y[l * npts + p]); y in percent; x > 0. */
struct svg_lines {
	const char *title;
	const char *xlabel, *ylabel;
	const double *x;          /* npts x values, > 0 */
	size_t npts;
	const char *const *line;  /* nlines legend entries */
	size_t nlines;
	const double *y;          /* nlines * npts values */
};
int svg_line_chart(FILE *f, const struct svg_lines *c);

#endif /* TIPROF_SVG_H */
