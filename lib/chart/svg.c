/* SPDX-License-Identifier: Apache-2.0 */
/* svg.c - minimal SVG writer and chart helpers (contracts in svg.h). */
#include "svg.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
	"#7f7f7f", "#bcbd22", "#17becf",
};

const char *svg_color(size_t i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

/* Length of the UTF-8 sequence at s if it is a well-formed XML character, else 0. */
static size_t utf8_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[0] == 0xe0 && s[1] < 0xa0) ||		/* overlong */
		    (s[0] == 0xed && s[1] > 0x9f) ||		/* surrogates */
		    (s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe))	/* U+FFFE, U+FFFF */
			return 0;
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80 ||
		    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
			return 0;
		return 4;
	}
	return 0;
}

/* Write s with &, <, >, " and ' escaped; control characters become spaces, bytes that are
 * not UTF-8 (the document says UTF-8) become '?'. */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		size_t n = utf8_len((const unsigned char *)s);

		if (n != 1) {
			if (n)
				fwrite(s, 1, n, f);
			else
				fputc('?', f);
			s += n ? n - 1 : 0;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
		}
	}
}

void svg_begin(FILE *f, double w, double h)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		w, h, w, h);
	svg_rect(f, 0, 0, w, h, "#ffffff");
}

int svg_end(FILE *f)
{
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}

void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill)
{
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
		x, y, w < 0 ? 0 : w, h < 0 ? 0 : h, fill);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
	      double width)
{
	fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"%.2f\"/>\n", x1, y1, x2, y2, stroke, width);
}

void svg_text(FILE *f, double x, double y, double size, const char *anchor, double rotate,
	      const char *text)
{
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"%s\"", x, y,
		size, anchor);
	if (rotate != 0)
		fprintf(f, " transform=\"rotate(%.1f %.2f %.2f)\"", rotate, x, y);
	fputc('>', f);
	esc(f, text);
	fputs("</text>\n", f);
}

void svg_polyline(FILE *f, const double *xs, const double *ys, size_t n, const char *stroke)
{
	fputs("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"", f);
	fputs(stroke, f);
	fputs("\" points=\"", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%.2f,%.2f", i ? " " : "", xs[i], ys[i]);
	fputs("\"/>\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"%s\"/>\n", xs[i], ys[i],
			stroke);
}

/* A "nice" upper bound for an axis whose data reach m (> 0): 1, 2, 2.5 or 5 times 10^k. */
static double nice_max(double m)
{
	double p, s;

	if (!(m > 0))
		return 1;
	p = pow(10, floor(log10(m)));
	s = m / p;
	return (s <= 1 ? 1 : s <= 2 ? 2 : s <= 2.5 ? 2.5 : s <= 5 ? 5 : 10) * p;
}

/* A value as drawn (bar length, line point): negative, NaN and infinite are 0. */
static double val(double v)
{
	return v > 0 && isfinite(v) ? v : 0;
}

/* Plot area shared by both charts. */
enum { PL = 70, PT = 40, PW = 560, PH = 300 };

/* Y axis from 0 to ymax with 5 ticks and grid lines, label rotated. */
static void y_axis(FILE *f, double ymax, const char *label)
{
	char buf[32];

	for (int i = 0; i <= 5; i++) {
		double y = PT + PH - PH * i / 5.0;

		svg_line(f, PL, y, PL + PW, y, i ? "#dddddd" : "#000000", 1);
		snprintf(buf, sizeof(buf), "%g", ymax * i / 5.0);
		svg_text(f, PL - 6, y + 4, 11, "end", 0, buf);
	}
	svg_line(f, PL, PT, PL, PT + PH, "#000000", 1);
	svg_text(f, 18, PT + PH / 2.0, 12, "middle", -90, label);
}

int svg_bar_chart(FILE *f, const struct svg_bars *c)
{
	double m = 0, ymax, gw, bw;
	size_t n = c->ngroups * c->nseries;

	for (size_t i = 0; i < n; i++)
		if (val(c->v[i]) > m)
			m = val(c->v[i]);
	ymax = nice_max(m);
	svg_begin(f, PL + PW + 150, PT + PH + 60);
	svg_text(f, PL + PW / 2.0, 22, 14, "middle", 0, c->title);
	y_axis(f, ymax, c->ylabel);
	gw = c->ngroups ? (double)PW / (double)c->ngroups : PW;
	bw = c->nseries ? gw * 0.8 / (double)c->nseries : 0;
	for (size_t g = 0; g < c->ngroups; g++) {
		for (size_t s = 0; s < c->nseries; s++) {
			double v = val(c->v[g * c->nseries + s]), h = PH * v / ymax;

			svg_rect(f, PL + gw * (double)g + gw * 0.1 + bw * (double)s, PT + PH - h, bw,
				 h, svg_color(s));
		}
		svg_text(f, PL + gw * ((double)g + 0.5), PT + PH + 18, 12, "middle", 0, c->group[g]);
	}
	for (size_t s = 0; s < c->nseries; s++) {
		svg_rect(f, PL + PW + 15, PT + 10 + 20.0 * (double)s, 12, 12, svg_color(s));
		svg_text(f, PL + PW + 32, PT + 21 + 20.0 * (double)s, 12, "start", 0, c->series[s]);
	}
	return svg_end(f);
}

int svg_line_chart(FILE *f, const struct svg_lines *c)
{
	double m = 0, ymax, lo = 0, hi = 0, *xs, *ys;
	char buf[32];
	size_t np = c->npts;

	xs = malloc((np ? np : 1) * sizeof(*xs));
	ys = malloc((np ? np : 1) * sizeof(*ys));
	if (!xs || !ys) {
		free(xs);
		free(ys);
		return -1;
	}
	for (size_t i = 0; i < c->nlines * c->npts; i++)
		if (val(c->y[i]) > m)
			m = val(c->y[i]);
	for (size_t p = 0; p < np; p++) {
		double lx = log2(val(c->x[p]) > 0 ? c->x[p] : 1);

		if (!p || lx < lo)
			lo = lx;
		if (!p || lx > hi)
			hi = lx;
	}
	if (hi <= lo) {
		lo -= 1;
		hi += 1;
	}
	ymax = nice_max(m);
	svg_begin(f, PL + PW + 150, PT + PH + 60);
	svg_text(f, PL + PW / 2.0, 22, 14, "middle", 0, c->title);
	y_axis(f, ymax, c->ylabel);
	svg_line(f, PL, PT + PH, PL + PW, PT + PH, "#000000", 1);
	for (size_t p = 0; p < np; p++) {
		xs[p] = PL + 20 + (PW - 40) * (log2(val(c->x[p]) > 0 ? c->x[p] : 1) - lo) /
			(hi - lo);
		svg_line(f, xs[p], PT + PH, xs[p], PT + PH + 5, "#000000", 1);
		snprintf(buf, sizeof(buf), "%g", c->x[p]);
		svg_text(f, xs[p], PT + PH + 18, 11, "middle", 0, buf);
	}
	svg_text(f, PL + PW / 2.0, PT + PH + 42, 12, "middle", 0, c->xlabel);
	for (size_t l = 0; l < c->nlines; l++) {
		for (size_t p = 0; p < np; p++) {
			ys[p] = PT + PH - PH * val(c->y[l * c->npts + p]) / ymax;
		}
		svg_polyline(f, xs, ys, np, svg_color(l));
		svg_line(f, PL + PW + 15, PT + 16 + 20.0 * (double)l, PL + PW + 30,
			 PT + 16 + 20.0 * (double)l, svg_color(l), 2);
		svg_text(f, PL + PW + 35, PT + 21 + 20.0 * (double)l, 12, "start", 0, c->line[l]);
	}
	free(xs);
	free(ys);
	return svg_end(f);
}

/* ---- horizontal stacked bars (cycle stacks) */

enum { HS_TITLE = 24, HS_PITCH = 22, HS_BAR = 15, HS_AXIS = 40, HS_NOTE = 64 };

double svg_text_width(const char *text, double size)
{
	double w = 0;

	for (; text && *text; text++) {
		unsigned char ch = (unsigned char)*text;

		if ((ch & 0xc0) == 0x80)	/* UTF-8 continuation byte */
			continue;
		w += strchr("ijlt.,:;'|!()[] ", ch) ? 0.3 : strchr("mwMW@%", ch) ? 0.85 :
		     (ch >= 'A' && ch <= 'Z') ? 0.68 : 0.56;
	}
	return w * size;
}

double svg_hstack_height(const struct svg_hstack *c)
{
	return HS_TITLE + HS_PITCH * (double)c->nrows + HS_AXIS;
}

/* label cut to fit width px at size, with "..." */
static void hs_label(FILE *f, double x, double y, double px, const char *label)
{
	char buf[256];
	size_t n;
	int cut;

	snprintf(buf, sizeof(buf), "%s", label ? label : "");
	n = strlen(buf);
	cut = label && label[n];	/* longer than buf: cut it here too */
	while (n > 3 && (cut || svg_text_width(buf, 11) > px)) {
		n = n > sizeof(buf) - 4 ? sizeof(buf) - 4 : n - 1;	/* room for "..." */
		while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80)	/* whole characters */
			n--;
		memcpy(buf + n, "...", 4);
		cut = 0;
	}
	svg_text(f, x, y, 11, "end", 0, buf);
}

void svg_hstack(FILE *f, double x, double y, double w, double lw, const struct svg_hstack *c)
{
	double m = 0, max, px0 = x + lw + 8, pw = w - lw - 8 - HS_NOTE;
	double top = y + HS_TITLE, bot = top + HS_PITCH * (double)c->nrows + 2;
	char buf[64];

	for (size_t r = 0; r < c->nrows; r++) {
		double t = 0;

		for (size_t k = 0; k < c->ncat; k++)
			t += val(c->v[r * c->ncat + k]);
		if (t > m)
			m = t;
	}
	max = c->max > 0 ? c->max : nice_max(m);
	if (pw < 50)
		pw = 50;
	svg_text(f, x, y + 15, 13, "start", 0, c->title);
	for (int i = 0; i <= 5; i++) {	/* grid, ticks and tick labels */
		double gx = px0 + pw * i / 5.0;

		svg_line(f, gx, top, gx, bot, i ? "#dddddd" : "#000000", 1);
		svg_line(f, gx, bot, gx, bot + 4, "#000000", 1);
		snprintf(buf, sizeof(buf), "%g", max * i / 5.0);
		svg_text(f, gx, bot + 16, 10, "middle", 0, buf);
	}
	svg_line(f, px0, bot, px0 + pw, bot, "#000000", 1);
	svg_text(f, px0 + pw / 2.0, bot + 32, 11, "middle", 0, c->xlabel);
	for (size_t r = 0; r < c->nrows; r++) {
		double by = top + HS_PITCH * (double)r + (HS_PITCH - HS_BAR) / 2.0, bx = px0;

		hs_label(f, x + lw, by + 11.5, lw, c->row[r]);
		for (size_t k = 0; k < c->ncat; k++) {
			double v = val(c->v[r * c->ncat + k]), sw = pw * v / max;

			if (bx + sw > px0 + pw)		/* an explicit max can be exceeded */
				sw = px0 + pw - bx;
			if (sw <= 0)
				continue;
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" "
				"fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>\n", bx, by,
				sw, HS_BAR, c->color[k]);
			if (sw >= 28) {
				snprintf(buf, sizeof(buf), "%.0f", v);
				svg_text(f, bx + sw / 2.0, by + 11.5, 10, "middle", 0, buf);
			}
			bx += sw;
		}
		if (c->note && c->note[r])
			svg_text(f, bx + 5, by + 11.5, 11, "start", 0, c->note[r]);
	}
}

/* Width of one legend item. */
static double legend_item(const char *name)
{
	return 14 + 5 + svg_text_width(name, 11) + 18;
}

double svg_legend_height(double w, const char *const *name, size_t n)
{
	double cx = 0, h = n ? 18 : 0;

	for (size_t i = 0; i < n; i++) {
		double iw = legend_item(name[i]);

		if (cx > 0 && cx + iw > w) {
			cx = 0;
			h += 18;
		}
		cx += iw;
	}
	return h;
}

double svg_legend(FILE *f, double x, double y, double w, const char *const *name,
		  const char *const *color, size_t n)
{
	double cx = 0, cy = 0;

	for (size_t i = 0; i < n; i++) {
		double iw = legend_item(name[i]);

		if (cx > 0 && cx + iw > w) {
			cx = 0;
			cy += 18;
		}
		svg_rect(f, x + cx, y + cy + 2, 14, 12, color[i]);
		svg_text(f, x + cx + 19, y + cy + 12, 11, "start", 0, name[i]);
		cx += iw;
	}
	return svg_legend_height(w, name, n);
}

/* ---- writing a file atomically */

int svg_write_file(const char *path, int (*fn)(FILE *f, const void *arg), const void *arg,
		   char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char tmp[4096];
	int fd, r;
	FILE *f;

	if (slash)
		r = snprintf(tmp, sizeof(tmp), "%.*s/.%s.XXXXXX", (int)(slash - path), path,
			     slash + 1);
	else
		r = snprintf(tmp, sizeof(tmp), ".%s.XXXXXX", path);
	if (r < 0 || (size_t)r >= sizeof(tmp) || !*path || (slash && !slash[1])) {
		snprintf(err, errlen, "%s: not a usable file name for the SVG", path);
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create the SVG: %s", path, strerror(errno));
		return -1;
	}
	f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "%s: cannot create the SVG: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	r = fchmod(fd, 0644) ? -1 : fn(f, arg);
	if (fflush(f) || ferror(f))
		r = -1;
	if (fclose(f))
		r = -1;
	if (!r && rename(tmp, path)) {
		snprintf(err, errlen, "%s: cannot write the SVG: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (r) {
		snprintf(err, errlen, "%s: cannot write the SVG (disk full?)", path);
		unlink(tmp);
		return -1;
	}
	return 0;
}
