/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_svg.c - tests of lib/chart/svg: bar, line and stacked-bar charts with normal, empty
 * and huge inputs, NaN, negative and infinite values, long labels and labels that need
 * escaping (<, &, ", control characters, UTF-8, bytes that are not UTF-8). Every document
 * is read back by an independent XML parser (xmllint: well-formed, element counts, the text
 * of every label, the geometry of bars and lines) and rendered by rsvg-convert; no
 * coordinate may be NaN or infinite. Then svg_write_file: the file appears whole or not at
 * all (writer failure, write error under RLIMIT_FSIZE, missing directory, unusable names,
 * a directory in the way), with no temporary file left behind. Built with
 * AddressSanitizer/UBSan: a crash or an overflow fails the run.
 *
 * Usage: test_svg TMPDIR   (XMLLINT and RSVG_CONVERT name the tools; a missing tool fails)
 */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "svg.h"
#include "tcheck.h"

/* ---------------------------------------------------------------- helpers */

static const char *tmpdir, *xmllint, *rsvg;

static char *path_of(const char *name)
{
	static char buf[4][1024];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	return buf[k];
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Entries of tmpdir whose name starts with prefix (temporary files of svg_write_file). */
static int count_prefix(const char *prefix)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

/* xmllint parses path: a well-formed XML document (errors go to path.xmllint). */
static int well_formed(const char *path)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "'%s' --noout '%s' 2>'%s.xmllint'", xmllint, path, path);
	return system(cmd) == 0;
}

/* tool --version succeeds. */
static int tool_runs(const char *tool)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "'%s' --version >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* rsvg-convert renders path into a non-empty PNG. */
static int renders(const char *path)
{
	char cmd[4096], png[1100];
	struct stat st;

	snprintf(png, sizeof(png), "%s.png", path);
	unlink(png);
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s' 2>'%s.rsvg'", rsvg, png, path, path);
	return system(cmd) == 0 && stat(png, &st) == 0 && st.st_size > 0;
}

/* What xmllint --xpath prints for expr on path (malloc'd, last newline cut), or NULL. */
static char *xq(const char *path, const char *expr)
{
	char cmd[4096], *out = NULL;
	size_t n = 0, cap = 0;
	FILE *p;
	int ch;

	snprintf(cmd, sizeof(cmd), "'%s' --xpath '%s' '%s' 2>/dev/null", xmllint, expr, path);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	while ((ch = fgetc(p)) != EOF) {
		if (n + 2 > cap) {
			char *q = realloc(out, cap = 2 * cap + 4096);

			if (!q)
				break;
			out = q;
		}
		out[n++] = (char)ch;
	}
	if (pclose(p) != 0 && !out)
		return NULL;
	if (!out)
		out = calloc(1, 1);
	else
		out[n] = 0;
	if (out && n && out[n - 1] == '\n')
		out[n - 1] = 0;
	return out;
}

/* Number an XPath expression evaluates to on path (NaN if none). */
static double xq_num(const char *path, const char *expr)
{
	char *s = xq(path, expr), *end;
	double v = NAN;

	if (s) {
		v = strtod(s, &end);
		if (end == s)
			v = NAN;
	}
	free(s);
	return v;
}

/* How many elements called name the document has (by xmllint). */
static long count_el(const char *path, const char *name)
{
	char expr[256];

	snprintf(expr, sizeof(expr), "count(//*[local-name()=\"%s\"])", name);
	return (long)xq_num(path, expr);
}

/* The values of an attribute node set (xmllint prints ` name="value"` each), as numbers, in
 * document order; returns how many (at most max). */
static size_t xq_nums(const char *path, const char *expr, double *v, size_t max)
{
	char *s = xq(path, expr), *p;
	size_t n = 0;

	for (p = s; p && n < max && (p = strstr(p, "=\"")); n++) {
		p += 2;
		v[n] = strtod(p, &p);
	}
	free(s);
	return n;
}

/* The text of the i-th <text> element (1-based, document order), malloc'd. */
static char *text_el(const char *path, long i)
{
	char expr[256];

	snprintf(expr, sizeof(expr), "string((//*[local-name()=\"text\"])[%ld])", i);
	return xq(path, expr);
}

/* No NaN or infinity anywhere in the file (its labels contain neither word). */
static int all_finite(const char *path)
{
	size_t n;
	char *s = tc_slurp(path, &n);
	int ok;

	for (size_t i = 0; i < n; i++)
		s[i] = (char)tolower((unsigned char)s[i]);
	ok = s && !strstr(s, "nan") && !strstr(s, "inf");

	free(s);
	return ok;
}

/* Write fn's document to name in tmpdir with svg_write_file; 0 or -1. */
static int write_doc(const char *name, int (*fn)(FILE *f, const void *arg), const void *arg)
{
	char err[512] = "";
	int rc = svg_write_file(path_of(name), fn, arg, err, sizeof(err));

	if (rc)
		printf("    %s: %s\n", name, err);
	return rc;
}

static int wr_bars(FILE *f, const void *arg)
{
	return svg_bar_chart(f, arg);
}

static int wr_lines(FILE *f, const void *arg)
{
	return svg_line_chart(f, arg);
}

/* A page with one stacked-bar panel and a legend under it. */
struct hs_page {
	const struct svg_hstack *c;
	double w, lw;			/* panel width, label width */
	const char *const *lname, *const *lcolor;	/* legend */
	size_t nlegend;
};

static int wr_hstack(FILE *f, const void *arg)
{
	const struct hs_page *p = arg;
	double h = svg_hstack_height(p->c);

	svg_begin(f, p->w + 20, 10 + h + svg_legend_height(p->w, p->lname, p->nlegend) + 10);
	svg_hstack(f, 10, 10, p->w, p->lw, p->c);
	svg_legend(f, 10, 10 + h, p->w, p->lname, p->lcolor, p->nlegend);
	return svg_end(f);
}

/* The standard checks of a written document: well-formed, renders, no NaN or infinity. */
static void check_doc(const char *name, int finite)
{
	const char *path = path_of(name);

	CHECK(well_formed(path), "%s is well-formed XML (xmllint: %s.xmllint)", name, path);
	CHECK(renders(path), "%s renders (rsvg-convert: %s.rsvg)", name, path);
	if (finite)
		CHECK(all_finite(path), "%s: no NaN or infinite number", name);
}

/* |a - b| within the rounding of "%.2f" coordinates, relative to scale. */
static int near(double a, double b, double scale)
{
	return fabs(a - b) <= 0.02 + 1e-9 * fabs(scale);
}

/* ---------------------------------------------------------------- bar chart */

/* Bars of a chart of n values v: heights proportional to the values drawn (negative,
 * NaN and infinite ones drawn as 0), one baseline, left to right. */
static void check_bars(const char *name, const double *v, size_t n)
{
	const char *path = path_of(name);
	double *h = calloc(n + 1, sizeof(double)), *y = calloc(n + 1, sizeof(double));
	double *x = calloc(n + 1, sizeof(double)), top = 0, vtop = 0;
	char expr[256];
	size_t bad = 0, nh, ny, nx;

	snprintf(expr, sizeof(expr), "(//*[local-name()=\"rect\"])[position() > 1 and position() "
		 "<= %zu]/@height", n + 1);
	nh = xq_nums(path, expr, h, n);
	snprintf(expr, sizeof(expr), "(//*[local-name()=\"rect\"])[position() > 1 and position() "
		 "<= %zu]/@y", n + 1);
	ny = xq_nums(path, expr, y, n);
	snprintf(expr, sizeof(expr), "(//*[local-name()=\"rect\"])[position() > 1 and position() "
		 "<= %zu]/@x", n + 1);
	nx = xq_nums(path, expr, x, n);
	if (!CHECK(nh == n && ny == n && nx == n, "%s: %zu bars read back, want %zu", name, nh, n))
		goto out;
	for (size_t i = 0; i < n; i++) {	/* the tallest drawn bar is the scale */
		double d = isfinite(v[i]) && v[i] > 0 ? v[i] : 0;

		if (d > vtop) {
			vtop = d;
			top = h[i];
		}
	}
	for (size_t i = 0; i < n; i++) {
		double d = isfinite(v[i]) && v[i] > 0 ? v[i] : 0;
		double want = vtop > 0 ? top * (d / vtop) : 0;

		if (!near(h[i], want, top) || !near(y[i] + h[i], y[0] + h[0], 0) ||
		    (i && x[i] <= x[i - 1])) {
			if (bad++ < 3)
				printf("    %s: bar %zu (value %g): x %.2f y %.2f height %.2f, want "
				       "height %.2f\n", name, i, v[i], x[i], y[i], h[i], want);
		}
	}
	CHECK(bad == 0 && (vtop == 0 || top > 0), "%s: %zu bars proportional to their values on "
	      "one baseline: %zu wrong", name, n, bad);
out:
	free(h);
	free(y);
	free(x);
}

static void test_bar_chart(void)
{
	static const char *const grp[] = { "TIP", "NCI", "LCI" };
	static const char *const ser[] = { "function", "instruction" };
	static const double v[] = { 10, 40, 80, 0, 25, 50 };
	struct svg_bars c = { "Profile error", "error (%)", grp, 3, ser, 2, v };
	char *s;

	tc_section("bar chart");
	if (!CHECK(write_doc("bars.svg", wr_bars, &c) == 0, "bars.svg written"))
		return;
	check_doc("bars.svg", 1);
	CHECK(count_el(path_of("bars.svg"), "rect") == 1 + 6 + 2,
	      "bars.svg: background, 6 bars and 2 legend swatches");
	check_bars("bars.svg", v, 6);
	s = text_el(path_of("bars.svg"), 1);
	CHECK(s && strcmp(s, "Profile error") == 0, "bars.svg: title \"%s\"", s ? s : "");
	free(s);
	for (int g = 0; g < 3; g++) {	/* every group label once */
		char expr[256];

		snprintf(expr, sizeof(expr), "count(//*[local-name()=\"text\"][.=\"%s\"])", grp[g]);
		CHECK(xq_num(path_of("bars.svg"), expr) == 1, "bars.svg: group label %s", grp[g]);
	}

	/* empty charts */
	struct svg_bars e0 = { "empty", "y", NULL, 0, NULL, 0, NULL };
	struct svg_bars e1 = { NULL, NULL, grp, 3, NULL, 0, NULL };
	struct svg_bars e2 = { "", "", NULL, 0, ser, 2, NULL };

	if (CHECK(write_doc("bars-empty.svg", wr_bars, &e0) == 0, "empty bar chart written")) {
		check_doc("bars-empty.svg", 1);
		CHECK(count_el(path_of("bars-empty.svg"), "rect") == 1, "empty: background only");
	}
	if (CHECK(write_doc("bars-noseries.svg", wr_bars, &e1) == 0, "groups, no series")) {
		check_doc("bars-noseries.svg", 1);
		CHECK(count_el(path_of("bars-noseries.svg"), "rect") == 1, "no series: no bars");
	}
	if (CHECK(write_doc("bars-nogroups.svg", wr_bars, &e2) == 0, "series, no groups")) {
		check_doc("bars-nogroups.svg", 1);
		CHECK(count_el(path_of("bars-nogroups.svg"), "rect") == 1 + 2,
		      "no groups: background and legend");
	}

	/* NaN, negative and infinite values are drawn as 0; the others keep their scale */
	static const double odd[] = { NAN, 30, -20, INFINITY, 60, -INFINITY, 0, 15 };
	struct svg_bars b = { "odd values", "y", grp, 4, ser, 2, odd };
	static const char *const grp4[] = { "a", "b", "c", "d" };

	b.group = grp4;
	if (CHECK(write_doc("bars-odd.svg", wr_bars, &b) == 0, "NaN/negative/infinite values")) {
		check_doc("bars-odd.svg", 1);
		check_bars("bars-odd.svg", odd, 8);
	}

	/* all values zero or negative: a flat, finite chart */
	static const double neg[] = { -1, -50, 0, -0.0 };

	b.v = neg;
	b.ngroups = 2;
	if (CHECK(write_doc("bars-neg.svg", wr_bars, &b) == 0, "only negative values")) {
		check_doc("bars-neg.svg", 1);
		check_bars("bars-neg.svg", neg, 4);
	}

	/* huge: 1500 groups of 8 series, values up to 1e300, 5000-character labels */
	enum { HG = 1500, HS = 8 };
	double *hv = malloc(HG * HS * sizeof(double));
	const char **hg = malloc(HG * sizeof(char *)), *hs[HS];
	char *longlab = malloc(5001);
	struct tc_rng rng = { 42 };

	memset(longlab, 'W', 5000);
	longlab[5000] = 0;
	for (size_t i = 0; i < HG * HS; i++)
		hv[i] = (double)tc_below(&rng, 1000) * 1e297;
	for (size_t g = 0; g < HG; g++)
		hg[g] = g % 100 ? "g" : longlab;
	for (size_t s = 0; s < HS; s++)
		hs[s] = longlab;
	struct svg_bars hb = { longlab, longlab, hg, HG, hs, HS, hv };

	if (CHECK(write_doc("bars-huge.svg", wr_bars, &hb) == 0, "huge bar chart written")) {
		check_doc("bars-huge.svg", 1);
		CHECK(count_el(path_of("bars-huge.svg"), "rect") == 1 + HG * HS + HS,
		      "bars-huge.svg: %d bars", HG * HS);
		check_bars("bars-huge.svg", hv, 64);	/* the first 8 groups */
	}
	free(hv);
	free(hg);
	free(longlab);
}

/* ---------------------------------------------------------------- escaping */

/* Labels that need escaping come back as written (control characters as spaces, bytes
 * that are not UTF-8 replaced), in a well-formed document. */
static void test_escaping(void)
{
	static const struct {
		const char *in;		/* label */
		const char *pre, *post;	/* it reads back as pre, something, post (post NULL:
					 * exactly pre) */
	} lab[] = {
		{ "<script>alert(\"x\")</script>", "<script>alert(\"x\")</script>", NULL },
		{ "a & b && c &amp; d", "a & b && c &amp; d", NULL },
		{ "'single' \"double\" >gt<", "'single' \"double\" >gt<", NULL },
		{ "]]> <![CDATA[ x ]]>", "]]> <![CDATA[ x ]]>", NULL },
		{ "tab\there\nnew\rline\x01\x1f.", "tab here new line  .", NULL },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", NULL },
		{ "", "", NULL },
		/* bytes that are not UTF-8 (or not XML characters) */
		{ "bad\xff\xfe" "bytes", "bad", "bytes" },
		{ "cut\xe2\x82", "cut", "" },
		{ "overlong\xc0\xaf" "x", "overlong", "x" },
		{ "surrogate\xed\xa0\x80" "x", "surrogate", "x" },
		{ "nonchar\xef\xbf\xbe" "x", "nonchar", "x" },
		{ "lone\x80" "cont", "lone", "cont" },
		{ "four\xf4\x90\x80\x80" "x", "four", "x" },
	};
	enum { N = sizeof(lab) / sizeof(lab[0]) };
	const char *grp[N];
	static const char *const ser[] = { "s&p<500>" };
	double v[N];
	struct svg_bars c = { "<title & \"quotes\">", "y & <x>", grp, N, ser, 1, v };
	const char *path = path_of("escape.svg");

	tc_section("escaping");
	for (size_t i = 0; i < N; i++) {
		grp[i] = lab[i].in;
		v[i] = (double)i;
	}
	if (!CHECK(write_doc("escape.svg", wr_bars, &c) == 0, "escape.svg written"))
		return;
	check_doc("escape.svg", 0);
	for (size_t i = 0; i < N; i++) {
		/* texts: title, 6 ticks, y label, then each group's label */
		char *s = text_el(path, (long)(9 + i));
		size_t n = s ? strlen(s) : 0, np = strlen(lab[i].pre);

		if (!lab[i].post)
			CHECK(s && strcmp(s, lab[i].pre) == 0,
			      "label %zu reads back \"%s\", want \"%s\"", i, s ? s : "(none)",
			      lab[i].pre);
		else	/* the valid parts on both sides of the bad bytes survive */
			CHECK(s && n > np + strlen(lab[i].post) && strncmp(s, lab[i].pre, np) == 0 &&
			      strcmp(s + n - strlen(lab[i].post), lab[i].post) == 0,
			      "label %zu with bytes that are not UTF-8 reads back \"%s\"", i,
			      s ? s : "(none)");
		free(s);
	}
	{
		char *s = text_el(path, 1), *t = text_el(path, 8);

		CHECK(s && strcmp(s, "<title & \"quotes\">") == 0, "title reads back \"%s\"", s);
		CHECK(t && strcmp(t, "y & <x>") == 0, "y label reads back \"%s\"", t);
		free(s);
		free(t);
	}
}

/* ---------------------------------------------------------------- line chart */

/* The points of polyline i (1-based) into xs, ys; returns how many. */
static size_t polyline_points(const char *path, int i, double *xs, double *ys, size_t max)
{
	char expr[128], *s, *p;
	size_t n = 0;

	snprintf(expr, sizeof(expr), "string((//*[local-name()=\"polyline\"])[%d]/@points)", i);
	s = xq(path, expr);
	for (p = s; p && *p && n < max; n++) {
		char *e;

		xs[n] = strtod(p, &e);
		if (e == p || *e != ',')
			break;
		ys[n] = strtod(e + 1, &p);
	}
	free(s);
	return n;
}

static void test_line_chart(void)
{
	static const double x[] = { 1, 2, 4, 8, 16 };
	static const double y[] = { 5, 10, 20, 40, 80, 80, 40, 20, 10, 5 };
	static const char *const ln[] = { "TIP", "NCI" };
	struct svg_lines c = { "Error vs period", "period", "error (%)", x, 5, ln, 2, y };
	double xs[256], ys[256];
	size_t n;

	tc_section("line chart");
	if (!CHECK(write_doc("lines.svg", wr_lines, &c) == 0, "lines.svg written"))
		return;
	check_doc("lines.svg", 1);
	CHECK(count_el(path_of("lines.svg"), "polyline") == 2 &&
	      count_el(path_of("lines.svg"), "circle") == 10, "lines.svg: 2 lines of 5 points");
	n = polyline_points(path_of("lines.svg"), 1, xs, ys, 256);
	if (CHECK(n == 5, "line 1 has %zu points, want 5", n)) {
		/* ys[i] = base - k * y[i]: k pixels per percent up the page, base the y of 0 */
		double dx = xs[1] - xs[0], k = (ys[0] - ys[4]) / (y[4] - y[0]), base = ys[0] + k * y[0];
		int ok = dx > 0 && k > 0;

		for (size_t i = 1; i < 5; i++) {
			/* powers of two are evenly spaced on the log2 axis */
			ok &= near(xs[i] - xs[i - 1], dx, 0);
			/* y proportional to the value */
			ok &= near(ys[i], base - k * y[i], 0);
		}
		CHECK(ok, "line 1: evenly spaced on log2 x, y proportional");
	}

	/* more points than the old 64-point buffer */
	enum { NP = 100 };
	double bx[NP], by[2 * NP];

	for (int i = 0; i < NP; i++) {
		bx[i] = 1 << (i % 30);
		by[i] = i;
		by[NP + i] = NP - i;
	}
	struct svg_lines big = { "many points", "x", "y", bx, NP, ln, 2, by };

	if (CHECK(write_doc("lines-many.svg", wr_lines, &big) == 0, "lines-many.svg written")) {
		check_doc("lines-many.svg", 1);
		n = polyline_points(path_of("lines-many.svg"), 2, xs, ys, 256);
		CHECK(n == NP && count_el(path_of("lines-many.svg"), "circle") == 2 * NP,
		      "lines-many.svg: line 2 has %zu points, want %d", n, NP);
	}

	/* empty, a single point, odd values */
	struct svg_lines e0 = { NULL, NULL, NULL, NULL, 0, NULL, 0, NULL };
	struct svg_lines e1 = { "no points", "x", "y", NULL, 0, ln, 2, NULL };
	static const double x1[] = { 64 }, y1[] = { 50, 20 };
	struct svg_lines one = { "one point", "x", "y", x1, 1, ln, 2, y1 };
	static const double yo[] = { NAN, -5, INFINITY, 30, 20, 1e300, -INFINITY, 0, 5, 7 };
	struct svg_lines odd = { "odd values", "x", "y", x, 5, ln, 2, yo };
	static const double xo[] = { 0, -4, NAN, 8, INFINITY };	/* outside the contract */
	struct svg_lines badx = { "odd x", "x", "y", xo, 5, ln, 2, y };

	if (CHECK(write_doc("lines-empty.svg", wr_lines, &e0) == 0, "empty line chart written"))
		check_doc("lines-empty.svg", 1);
	if (CHECK(write_doc("lines-nopts.svg", wr_lines, &e1) == 0, "lines without points")) {
		check_doc("lines-nopts.svg", 1);
		CHECK(count_el(path_of("lines-nopts.svg"), "circle") == 0, "no points, no circles");
	}
	if (CHECK(write_doc("lines-one.svg", wr_lines, &one) == 0, "single-point lines")) {
		check_doc("lines-one.svg", 1);
		CHECK(count_el(path_of("lines-one.svg"), "circle") == 2, "one point per line");
	}
	if (CHECK(write_doc("lines-odd.svg", wr_lines, &odd) == 0, "NaN/negative/infinite y")) {
		check_doc("lines-odd.svg", 1);
		n = polyline_points(path_of("lines-odd.svg"), 2, xs, ys, 256);
		/* line 2: 1e300 is the top, 20 and 5 are far below it, the rest at 0 */
		CHECK(n == 5 && ys[0] < ys[1] && ys[1] == ys[2] && ys[2] == ys[3] && ys[3] >= ys[4],
		      "line 2 of odd values: top, then 0 (-inf, 0), then tiny values");
	}
	/* x values outside the contract: their tick labels say so, coordinates stay finite */
	if (CHECK(write_doc("lines-badx.svg", wr_lines, &badx) == 0, "x <= 0, NaN, infinite")) {
		int ok = 1;

		check_doc("lines-badx.svg", 0);
		for (int l = 1; l <= 2; l++) {
			n = polyline_points(path_of("lines-badx.svg"), l, xs, ys, 256);
			ok &= n == 5;
			for (size_t i = 0; i < n; i++)
				ok &= isfinite(xs[i]) && isfinite(ys[i]);
		}
		CHECK(ok, "lines-badx.svg: every point finite");
	}
}

/* ---------------------------------------------------------------- stacked bars, legend */

/* XPath of the text of row label i (1-based): the texts anchored at their end. */
#define ROW_LABEL(i) "string((//*[local-name()=\"text\"][@text-anchor=\"end\"])[" #i "])"

static void test_hstack(void)
{
	static const char *const row[] = { "main", "crc_slice8.constprop.0", "memcpy" };
	static const char *const note[] = { "1234 samples", NULL, "& <more>" };
	static const char *const col[] = { "#1f77b4", "#ff7f0e", "#2ca02c" };
	static const char *const cat[] = { "Base", "Stall", "Flush" };
	static const double v[] = { 45, 20, 10, 10, NAN, -5, 5, 5, 5 };
	struct svg_hstack c = { "Cycle stack", "cycles (%)", row, note, 3, v, 3, col, 0 };
	struct hs_page pg = { &c, 600, 150, cat, col, 3 };
	const char *path = path_of("hstack.svg");
	double w[16], x[16], y[16];
	size_t n;

	tc_section("stacked bars and legend");
	CHECK(svg_hstack_height(&c) > 0 && svg_hstack_height(&c) < svg_hstack_height(
		&(struct svg_hstack){ .nrows = 4 }), "svg_hstack_height grows with the rows");
	if (!CHECK(write_doc("hstack.svg", wr_hstack, &pg) == 0, "hstack.svg written"))
		return;
	check_doc("hstack.svg", 1);
	/* segments: 3 + 1 + 3 (NaN and negative ones not drawn), then 3 legend swatches */
	CHECK(count_el(path, "rect") == 1 + 7 + 3, "hstack.svg: %ld rects, want 11",
	      count_el(path, "rect"));
	n = xq_nums(path, "(//*[local-name()=\"rect\"])[position() > 1 and position() <= 8]/@width",
		    w, 16);
	xq_nums(path, "(//*[local-name()=\"rect\"])[position() > 1 and position() <= 8]/@x", x, 16);
	xq_nums(path, "(//*[local-name()=\"rect\"])[position() > 1 and position() <= 8]/@y", y, 16);
	if (CHECK(n == 7, "7 segments read back (%zu)", n)) {
		/* row 0: 45, 20, 10 back to back; row 1: 10 (then NaN, -5 skipped); row 2: 5, 5, 5 */
		double unit = w[0] / 45;
		int ok = unit > 0 && near(w[1], 20 * unit, 0) && near(w[2], 10 * unit, 0) &&
			 near(w[3], 10 * unit, 0) && near(w[4], 5 * unit, 0) &&
			 near(x[1], x[0] + w[0], 0) && near(x[2], x[1] + w[1], 0) &&
			 near(x[3], x[0], 0) && near(x[4], x[0], 0) && near(x[5], x[4] + w[4], 0) &&
			 near(y[0], y[2], 0) && y[3] > y[0] && y[4] > y[3];

		CHECK(ok, "segments proportional, stacked left to right, one row each");
	}
	{
		char *s = xq(path, "string(//*[local-name()=\"text\"][.=\"& <more>\"])");

		CHECK(s && strcmp(s, "& <more>") == 0, "note with & and < reads back");
		free(s);
		CHECK(xq_num(path, "count(//*[local-name()=\"text\"][.=\"45\"])") == 1,
		      "a wide segment carries its value");
	}
	/* everything of the panel lies within its box: [10, 10 + w] x [10, 10 + height] */
	{
		double ys[512], xs[512], h = svg_hstack_height(&c);
		size_t ny = xq_nums(path, "(//*[local-name()=\"rect\"])[position() > 1 and "
				    "position() <= 8]/@y | (//*[local-name()=\"text\"])[position() "
				    "<= 13]/@y", ys, 512);
		size_t nx = xq_nums(path, "(//*[local-name()=\"rect\"])[position() > 1 and "
				    "position() <= 8]/@x", xs, 512);
		int ok = ny > 10 && nx == 7;

		for (size_t i = 0; i < ny; i++)
			ok &= ys[i] >= 10 && ys[i] <= 10 + h;
		for (size_t i = 0; i < nx; i++)
			ok &= xs[i] + w[i] <= 10 + 600 + 0.01;
		CHECK(ok, "the panel stays within its %.0f-pixel height and its width", h);
	}

	/* a long label is cut with "...", a short one is whole */
	static const char *const longrow[] = {
		"a_very_long_function_name_that_cannot_fit_in_the_label_column_at_all", "ok" };
	static const double v2[] = { 50, 50 };
	struct svg_hstack c2 = { "long", "x", longrow, NULL, 2, v2, 1, col, 0 };
	struct hs_page pg2 = { &c2, 400, 100, cat, col, 1 };

	if (CHECK(write_doc("hstack-long.svg", wr_hstack, &pg2) == 0, "hstack-long.svg written")) {
		char *s = xq(path_of("hstack-long.svg"), ROW_LABEL(1));
		char *t = xq(path_of("hstack-long.svg"), ROW_LABEL(2));
		size_t k = s ? strlen(s) : 0;

		check_doc("hstack-long.svg", 1);
		CHECK(k > 3 && strcmp(s + k - 3, "...") == 0 && strncmp(s, longrow[0], k - 3) == 0 &&
		      svg_text_width(s, 11) <= 100, "long label cut to \"%s\"", s ? s : "");
		CHECK(t && strcmp(t, "ok") == 0, "short label whole: \"%s\"", t ? t : "");
		free(s);
		free(t);
	}

	/* labels of multi-byte characters, cut by width or by length, stay UTF-8 */
	char *wide = malloc(1001);

	for (int i = 0; i < 1000; i += 2)
		memcpy(wide + i, "\xc3\xa9", 2);
	wide[1000] = 0;
	const char *wrow[] = { wide, wide };
	struct svg_hstack c3 = { wide, wide, wrow, wrow, 2, v2, 1, col, 0 };
	struct hs_page narrow = { &c3, 400, 100, wrow, col, 1 };
	struct hs_page broad = { &c3, 20000, 9000, wrow, col, 1 };	/* 255 bytes fit */

	if (CHECK(write_doc("hstack-utf8.svg", wr_hstack, &narrow) == 0, "UTF-8 labels (narrow)"))
		check_doc("hstack-utf8.svg", 1);
	if (CHECK(write_doc("hstack-utf8-wide.svg", wr_hstack, &broad) == 0, "UTF-8 labels (wide)")) {
		char *s = xq(path_of("hstack-utf8-wide.svg"), ROW_LABEL(1));
		size_t k = s ? strlen(s) : 0;

		check_doc("hstack-utf8-wide.svg", 1);
		CHECK(k > 3 && (k == 1000 || strcmp(s + k - 3, "...") == 0),
		      "a 1000-byte label is whole or cut with \"...\" (%zu bytes)", k);
		free(s);
	}
	free(wide);

	/* an explicit maximum the values exceed: bars end at the axis */
	static const double over[] = { 80, 80 };
	struct svg_hstack c4 = { "over", "x", longrow + 1, NULL, 1, over, 2, col, 50 };
	struct hs_page pg4 = { &c4, 500, 100, cat, col, 2 };

	if (CHECK(write_doc("hstack-over.svg", wr_hstack, &pg4) == 0, "values above max")) {
		double ow[4], ox[4];

		check_doc("hstack-over.svg", 1);
		n = xq_nums(path_of("hstack-over.svg"), "(//*[local-name()=\"rect\"])[position() > 1 "
			    "and position() <= 3]/@width", ow, 4);
		xq_nums(path_of("hstack-over.svg"), "(//*[local-name()=\"rect\"])[position() > 1 and "
			"position() <= 3]/@x", ox, 4);
		CHECK(n == 2 && count_el(path_of("hstack-over.svg"), "rect") == 1 + 1 + 2 &&
		      ox[0] + ow[0] <= 10 + 500, "80%% of a 50%% axis is one segment clipped at the "
		      "axis end, the next one is not drawn");
	}

	/* empty panel, empty legend */
	struct svg_hstack c5 = { NULL, NULL, NULL, NULL, 0, NULL, 0, NULL, 0 };
	struct hs_page pg5 = { &c5, 300, 100, NULL, NULL, 0 };

	if (CHECK(write_doc("hstack-empty.svg", wr_hstack, &pg5) == 0, "empty panel written")) {
		check_doc("hstack-empty.svg", 1);
		CHECK(count_el(path_of("hstack-empty.svg"), "rect") == 1, "empty panel: no bars");
	}
	CHECK(svg_legend_height(300, NULL, 0) == 0, "an empty legend takes no height");

	/* the legend wraps within its width and uses the height it reports */
	static const char *const names[] = { "Base", "Stall", "Frontend", "Flush", "Mispredict",
					     "Exception", "Drained", "Other" };
	static const char *const cols[] = { "#000000", "#111111", "#222222", "#333333",
					    "#444444", "#555555", "#666666", "#777777" };
	FILE *f = tmpfile();

	if (CHECK(f != NULL, "tmpfile")) {
		double h1 = svg_legend_height(2000, names, 8), h2 = svg_legend_height(200, names, 8);
		double r = svg_legend(f, 0, 0, 200, names, cols, 8);

		CHECK(h1 > 0, "a legend takes some height (%g)", h1);
		CHECK(h2 > h1 && r == h2, "narrow legend wraps: %g > %g, returns %g", h2, h1, r);
		fclose(f);
	}

	/* text width: empty, NULL, UTF-8 counted per character, monotone */
	CHECK(svg_text_width("", 11) == 0 && svg_text_width(NULL, 11) == 0,
	      "empty text has no width");
	CHECK(svg_text_width("\xc3\xa9", 10) == svg_text_width("e", 10),
	      "a 2-byte character is one character wide");
	CHECK(svg_text_width("abc", 10) < svg_text_width("abcd", 10) &&
	      svg_text_width("abc", 10) < svg_text_width("abc", 20),
	      "width grows with text and size");
	CHECK(strlen(svg_color(0)) == 7 && svg_color(0)[0] == '#' &&
	      strcmp(svg_color(0), svg_color(1)) != 0, "palette colours are #rrggbb and differ");
	{
		int wraps = 0;

		for (size_t i = 1; i < 64 && !wraps; i++)
			wraps = strcmp(svg_color(i), svg_color(0)) == 0 &&
				strcmp(svg_color(i + 1), svg_color(1)) == 0;
		CHECK(wraps && svg_color(SIZE_MAX) != NULL, "the palette wraps around");
	}
}

/* ---------------------------------------------------------------- write errors */

/* A document writer that fails half way. */
static int wr_fail(FILE *f, const void *arg)
{
	(void)arg;
	svg_begin(f, 100, 100);
	svg_text(f, 1, 1, 10, "start", 0, "half a document");
	return -1;
}

static void test_write_file(void)
{
	static const char *const grp[] = { "a" };
	static const char *const ser[] = { "s" };
	static const double v[] = { 1 };
	struct svg_bars c = { "t", "y", grp, 1, ser, 1, v };
	char err[512], *before, *after;
	size_t nb, na;
	struct stat st;
	int rc;

	tc_section("svg_write_file");
	/* a new file: whole, mode 0644, no temporary left */
	unlink(path_of("w.svg"));
	rc = svg_write_file(path_of("w.svg"), wr_bars, &c, err, sizeof(err));
	CHECK(rc == 0 && stat(path_of("w.svg"), &st) == 0 && (st.st_mode & 0777) == 0644,
	      "new file written with mode 0644 (rc %d, mode %o)", rc, (unsigned)st.st_mode & 0777);
	CHECK(well_formed(path_of("w.svg")), "the new file is a whole document");
	CHECK(count_prefix(".w.svg.") == 0, "no temporary file left after success");
	before = tc_slurp(path_of("w.svg"), &nb);

	/* the writer fails: old file untouched, temporary removed, reason names the path */
	err[0] = 0;
	rc = svg_write_file(path_of("w.svg"), wr_fail, NULL, err, sizeof(err));
	after = tc_slurp(path_of("w.svg"), &na);
	CHECK(rc == -1 && strstr(err, path_of("w.svg")), "failing writer: -1 (\"%s\")", err);
	CHECK(before && after && na == nb && memcmp(before, after, nb) == 0,
	      "failing writer: the old file is left as it was");
	CHECK(count_prefix(".w.svg.") == 0, "failing writer: no temporary file left");
	free(after);

	/* a write error (file size limit) in a child: old file untouched, nothing left */
	{
		static double hv[4000];
		static const char *hg[4000];
		struct svg_bars big = { "big", "y", hg, 4000, ser, 1, hv };
		pid_t pid;
		int status = -1;

		for (int i = 0; i < 4000; i++) {
			hv[i] = i;
			hg[i] = "label";
		}
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			struct rlimit rl;

			signal(SIGXFSZ, SIG_IGN);
			getrlimit(RLIMIT_FSIZE, &rl);
			rl.rlim_cur = 4096;
			setrlimit(RLIMIT_FSIZE, &rl);
			err[0] = 0;
			rc = svg_write_file(path_of("w.svg"), wr_bars, &big, err, sizeof(err));
			_exit(rc == -1 && strstr(err, path_of("w.svg")) ? 0 : 1);
		}
		if (pid > 0)
			waitpid(pid, &status, 0);
		after = tc_slurp(path_of("w.svg"), &na);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "write error (file size limit): -1 with a reason");
		CHECK(before && after && na == nb && memcmp(before, after, nb) == 0,
		      "write error: the old file is left as it was");
		CHECK(count_prefix(".w.svg.") == 0, "write error: no temporary file left");
		free(after);
	}
	free(before);

	/* an existing file is replaced by the new document */
	{
		struct svg_bars c2 = c;

		c2.title = "second";
		rc = svg_write_file(path_of("w.svg"), wr_bars, &c2, err, sizeof(err));
		after = tc_slurp(path_of("w.svg"), &na);
		CHECK(rc == 0 && after && strstr(after, ">second<"), "an existing file is replaced");
		free(after);
	}

	/* a missing directory: -1, nothing created */
	err[0] = 0;
	rc = svg_write_file(path_of("no-such-dir/x.svg"), wr_bars, &c, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "no-such-dir/x.svg") && !exists(path_of("no-such-dir")),
	      "missing directory: -1, nothing created (\"%s\")", err);

	/* a directory where the file should go: -1, the directory stays, nothing left */
	mkdir(path_of("adir"), 0755);
	err[0] = 0;
	rc = svg_write_file(path_of("adir"), wr_bars, &c, err, sizeof(err));
	CHECK(rc == -1 && err[0] && stat(path_of("adir"), &st) == 0 && S_ISDIR(st.st_mode) &&
	      count_prefix(".adir.") == 0, "a directory in the way: -1, no temporary left (\"%s\")",
	      err);

	/* unusable names */
	err[0] = 0;
	CHECK(svg_write_file("", wr_bars, &c, err, sizeof(err)) == -1 && err[0],
	      "empty path refused (\"%s\")", err);
	err[0] = 0;
	CHECK(svg_write_file(path_of("adir/"), wr_bars, &c, err, sizeof(err)) == -1 && err[0],
	      "path ending in / refused (\"%s\")", err);
	{
		char *lp = malloc(6000);

		memset(lp, 'x', 5999);
		lp[5999] = 0;
		err[0] = 0;
		CHECK(svg_write_file(lp, wr_bars, &c, err, sizeof(err)) == -1 && err[0],
		      "a 6000-character path refused");
		free(lp);
	}

	/* a name without a directory is relative to the working directory */
	{
		char cwd[4096];

		if (CHECK(getcwd(cwd, sizeof(cwd)) && chdir(tmpdir) == 0, "chdir %s", tmpdir)) {
			unlink("plain.svg");
			rc = svg_write_file("plain.svg", wr_bars, &c, err, sizeof(err));
			CHECK(rc == 0 && exists("plain.svg") && count_prefix(".plain.svg.") == 0,
			      "a bare file name is written in the working directory");
			CHECK(chdir(cwd) == 0, "chdir back");
		}
	}

	/* svg_end reports an earlier write error of its stream */
	{
		static double hv[2000];
		static const char *hg[2000];
		struct svg_bars big = { "big", "y", hg, 2000, ser, 1, hv };
		FILE *f = fopen("/dev/full", "w");

		for (int i = 0; i < 2000; i++)
			hg[i] = "g";
		if (CHECK(f != NULL, "open /dev/full")) {
			CHECK(svg_bar_chart(f, &big) == -1, "a chart on /dev/full returns -1");
			fclose(f);
		}
	}
}

int main(int argc, char **argv)
{
	tmpdir = argc > 1 ? argv[1] : "/tmp";
	xmllint = getenv("XMLLINT") ? getenv("XMLLINT") : "xmllint";
	rsvg = getenv("RSVG_CONVERT") ? getenv("RSVG_CONVERT") : "rsvg-convert";
	setvbuf(stdout, NULL, _IOLBF, 0);	/* keep the output if a sanitizer aborts */
	mkdir(tmpdir, 0777);
	{
		static char abs[4096];	/* the test changes directory once */

		if (realpath(tmpdir, abs))
			tmpdir = abs;
	}
	printf("test_svg: lib/chart/svg (files in %s, read back by %s and %s)\n", tmpdir, xmllint,
	       rsvg);
	if (!CHECK(tool_runs(xmllint) && tool_runs(rsvg),
		   "%s and %s run (Debian: libxml2-utils, librsvg2-bin)", xmllint, rsvg))
		return tc_summary();
	test_bar_chart();
	test_escaping();
	test_line_chart();
	test_hstack();
	test_write_file();
	return tc_summary();
}
