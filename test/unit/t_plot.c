/* t_plot.c: the SVG charts of papi stat --plot and hl-report --plot: escaping, gaps, flat and empty series, a valid document whatever the values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/plot.c"
#include "tap.h"

static char *draw_lines(const char *title, const double *x, int n, struct plot_panel *p, int np, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*ret = plot_lines_svg(f, title, "time (s)", x, n, p, np);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

int main(void)
{
	double x[5] = { 0.1, 0.2, 0.3, 0.4, 0.5 };
	double a[5] = { 1, 2, NAN, 4, 5 }, b[5] = { 3, 3, 3, 3, 3 }, c[5] = { NAN, NAN, NAN, NAN, NAN };
	double big[5] = { 1e9, 2.5e9, 3e9, INFINITY, 1e9 };
	struct plot_panel p[4] = {
		{ .title = "a <&> \"quoted\"", .unit = "ms", .nlines = 1, .y = { a } },
		{ .title = "flat", .unit = "count", .nlines = 2, .line = { "CPU0", "CPU1" }, .y = { b, a } },
		{ .title = "nothing", .unit = "GHz", .nlines = 1, .y = { c } },
		{ .title = "big", .unit = "1/s", .nlines = 1, .y = { big } },
	};
	int ret;
	char *s = draw_lines("title & <cmd>", x, 5, p, 4, &ret);
	is_int(ret, 0, "drawn");
	ok(strstr(s, "<title>title &amp; &lt;cmd&gt;</title>") != NULL, "the title is escaped");
	ok(strstr(s, "a &lt;&amp;&gt; &quot;quoted&quot;") != NULL, "a panel title is escaped");
	ok(!strstr(s, "nan") && !strstr(s, "inf"), "no NaN or infinity is written");
	/* a gap: the first line is drawn in two pieces */
	char *first = strstr(s, "<path");
	char *end = first ? strstr(first, "/>") : NULL;
	if (ok(first && end, "a line is drawn")) {
		*end = '\0';
		is_int(count(first, " M"), 2, "the missing value splits the line");
		*end = '/';
	}
	ok(strstr(s, ">no value</text>") != NULL, "a panel without any value says so");
	ok(strstr(s, ">CPU0</text>") && strstr(s, ">CPU1</text>"), "two lines get a legend");
	ok(strstr(s, ">3G</text>") != NULL, "large ticks take a prefix (3G)");
	ok(strstr(s, ">ms</text>") && strstr(s, ">1/s</text>"), "each panel names its unit");
	ok(strstr(s, ">time (s)</text>") != NULL, "the x axis is labelled");
	ok(s[strlen(s) - 7] == '<' && !strcmp(s + strlen(s) - 7, "</svg>\n"), "the document ends");
	free(s);

	s = draw_lines("none", x, 0, p, 1, &ret);
	is_int(ret, -1, "no point: nothing drawn");
	free(s);
	s = draw_lines("none", x, 5, p, 0, &ret);
	is_int(ret, -1, "no panel: nothing drawn");
	free(s);

	/* bars: one per category, a negative value below the zero line */
	const char *cats[3] = { "r1", "a very long region name indeed", "r<3>" };
	double v[3] = { 2, -1, NAN };
	struct plot_panel bp = { .title = "IPC", .unit = "IPC", .nlines = 1, .y = { v } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	is_int(plot_bars_svg(f, "regions", NULL, cats, 3, &bp, 1), 0, "bars drawn");
	fclose(f);
	is_int(count(buf, "<rect x="), 3, "two bars (one value is missing) and the plot area");
	ok(strstr(buf, ">a very long region n...</text>") != NULL, "long names are cut");
	ok(strstr(buf, "r&lt;3&gt;") != NULL, "category names are escaped");
	ok(strstr(buf, "<title>r&lt;3&gt;: no value</title></path>") != NULL, "a missing value gets a cross");
	ok(!strstr(buf, "stroke-dasharray"), "no mark, no dashed line");
	free(buf);

	/* ranks: 200 bars, marks with their legend, tones, labels that fit */
	enum { NR = 200 };
	const char *rk[NR];
	char rname[NR][12];	/* any int */
	double rv[NR];
	unsigned char tone[NR] = { 0 };
	for (int i = 0; i < NR; i++) {
		snprintf(rname[i], sizeof rname[i], "%d", i);
		rk[i] = rname[i];
		rv[i] = 1000 + i % 7;
	}
	rv[42] = 3000;
	tone[42] = 3;
	tone[0] = 1;
	struct plot_panel mp = {
		.title = "an event with a name far too long to fit beside the legend of its marks", .unit = "count",
		.nlines = 1, .y = { rv }, .tone = tone, .nmarks = 3,
		.mark = { { "min 1k @0", 1000 }, { "median 1.003k", 1003 }, { "max 3k @42", 3000 } },
	};
	buf = NULL;
	f = open_memstream(&buf, &len);
	is_int(plot_bars_svg(f, "job", "MPI rank", rk, NR, &mp, 1), 0, "200 bars drawn");
	fclose(f);
	is_int(count(buf, "<rect x="), NR + 1, "a bar per rank");
	is_int(count(buf, "stroke-dasharray"), 6, "three marks: a line across and one in the legend each");
	ok(strstr(buf, ">max 3k @42</text>") && strstr(buf, ">min 1k @0</text>"), "the marks' labels");
	ok(strstr(buf, "fill=\"#d62728\"><title>42: 3000</title>") != NULL, "the max's bar in the max's colour");
	ok(strstr(buf, "fill=\"#2ca02c\"><title>0: 1000</title>") != NULL, "the min's bar in the min's colour");
	is_int(count(buf, "fill=\"" PLAIN_BAR "\""), NR - 2, "the others plain");
	ok(strstr(buf, ">10</text>") && strstr(buf, ">190</text>") && !strstr(buf, ">11</text>"),
	   "a label every 10 ranks: as many as fit");
	ok(strstr(buf, ">MPI rank</text>") != NULL, "the x axis is labelled");
	ok(strstr(buf, ">an event with a name far too long to fit beside...</text>") != NULL,
	   "a long title is cut before the legend");
	free(buf);

	char num[32];
	plot_number(num, sizeof num, 18636935);
	is_str(num, "18.64M", "numbers as the ticks show them");
	plot_number(num, sizeof num, 0.25);
	is_str(num, "0.25", "small numbers whole");
	return tap_done();
}
