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
		{ "a <&> \"quoted\"", "ms", 1, { NULL }, { a } },
		{ "flat", "count", 2, { "CPU0", "CPU1" }, { b, a } },
		{ "nothing", "GHz", 1, { NULL }, { c } },
		{ "big", "1/s", 1, { NULL }, { big } },
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
	struct plot_panel bp = { "IPC", "IPC", 1, { NULL }, { v } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	is_int(plot_bars_svg(f, "regions", cats, 3, &bp, 1), 0, "bars drawn");
	fclose(f);
	is_int(count(buf, "<rect x="), 3, "two bars (one value is missing) and the plot area");
	ok(strstr(buf, ">a very long region n...</text>") != NULL, "long names are cut");
	ok(strstr(buf, "r&lt;3&gt;") != NULL, "category names are escaped");
	free(buf);
	return tap_done();
}
