/* SPDX-License-Identifier: Apache-2.0 */
/*
 * svg.h - a minimal SVG 1.1 writer (no dependencies) and chart helpers in the style of
 * the TIP paper's figures: grouped bars (one group per policy, one bar per series), lines
 * over a logarithmic x axis (error vs sampling period), and panels of horizontal stacked
 * bars with a legend (cycle stacks, Figures 7 and 13). Text is XML-escaped, so any label
 * yields well-formed XML. Nothing here keeps global state; every function works on the
 * FILE * it is given and returns 0 or -1 on a write error (checked once at svg_end()).
 * svg_write_file() writes a whole document atomically (temporary file, then rename).
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
 * series[]); value v[g * nseries + s] in percent (negative, NaN and infinite values are
 * drawn as 0). */
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
 * (x[p], y[l * npts + p]); y in percent (negative, NaN and infinite values are drawn as 0);
 * x > 0. Returns 0, or -1 on a write error or when out of memory. */
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

/* A panel of horizontal stacked bars: one bar per row (label row[r] on the left), ncat
 * segments per bar with values v[r * ncat + c] >= 0 in percent of the axis (negative and
 * NaN values are drawn as 0), filled with color[c]; note[r] (NULL: none) is printed after
 * the bar and segments at least 28 pixels wide carry their value. The axis runs from 0 to
 * max percent (max <= 0: a "nice" bound above the longest bar), with xlabel under it. */
struct svg_hstack {
	const char *title;		/* panel title, above the bars */
	const char *xlabel;		/* axis label, under the axis */
	const char *const *row;		/* nrows bar labels */
	const char *const *note;	/* nrows texts after the bars, or NULL */
	size_t nrows;
	const double *v;		/* nrows * ncat values in percent */
	size_t ncat;
	const char *const *color;	/* ncat fill colours (constants, not escaped) */
	double max;			/* axis maximum in percent, <= 0: automatic */
};

/* Height in pixels svg_hstack() uses for c. */
double svg_hstack_height(const struct svg_hstack *c);

/* Draw c with its top-left corner at (x, y) in a box w pixels wide; the first lw pixels
 * hold the row labels (longer labels are cut with "..."). */
void svg_hstack(FILE *f, double x, double y, double w, double lw, const struct svg_hstack *c);

/* A legend of n colour swatches with names, left to right, wrapping at width w. Returns
 * the height used; svg_legend_height() gives it without drawing. */
double svg_legend(FILE *f, double x, double y, double w, const char *const *name,
		  const char *const *color, size_t n);
double svg_legend_height(double w, const char *const *name, size_t n);

/* Approximate width in pixels of text at font size (sans-serif; for layout). */
double svg_text_width(const char *text, double size);

/* Write a complete document to path atomically: fn(f, arg) writes it into a temporary
 * file in path's directory, which replaces path only when fn returned 0 and every write
 * succeeded; otherwise it is removed and path is left as it was. Returns 0, or -1 with a
 * one-line reason naming path in err. */
int svg_write_file(const char *path, int (*fn)(FILE *f, const void *arg), const void *arg,
		   char *err, size_t errlen);

#endif /* TIPROF_SVG_H */
