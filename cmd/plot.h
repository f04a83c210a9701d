/* plot.h: self-contained SVG charts (no library): a column of panels, each a quantity with its unit, as lines over a shared axis or as bars over categories. */
#ifndef PAPI_CMD_PLOT_H
#define PAPI_CMD_PLOT_H

#include <stdio.h>

#define PLOT_MAX_LINES 16
#define PLOT_MAX_MARKS 4

/* A value marked across a panel of bars (a dashed line, its label in the
 * panel's legend): the k-th mark is drawn green, grey, red, then purple. */
struct plot_mark {
	const char *label;	/* "median 2.054k" */
	double y;		/* NaN: not drawn */
};

/* One panel: one quantity, drawn as one or more lines (a legend names
 * them when there are several) or as one bar per category. */
struct plot_panel {
	const char *title;	/* "perf::TASK-CLOCK" */
	const char *unit;	/* its unit, for the axis: "ms", "count", "GHz" */
	int nlines;		/* 1 for bars */
	const char *line[PLOT_MAX_LINES];	/* each line's name (legend), or NULL */
	const double *y[PLOT_MAX_LINES];	/* each line's n values; NAN: none (a gap) */
	/* Bars only, optional (left 0: none). */
	int nmarks;
	struct plot_mark mark[PLOT_MAX_MARKS];
	const unsigned char *tone;	/* each bar's colour: 0 the same plain one for all,
					 * k the colour of mark k-1; NULL: a colour per category */
};

/* Write an SVG document on f: a title, then np panels one above the other,
 * each with its y axis (ticks, the unit) over the shared x axis of n points
 * x[] labelled xlabel ("time (s)"). 0, or -1 when nothing can be drawn
 * (np or n is 0). The document is complete and valid whatever the values
 * (NaN and infinities are left out; a flat series gets a range around it). */
int plot_lines_svg(FILE *f, const char *title, const char *xlabel, const double *x, int n,
		   const struct plot_panel *p, int np);

/* The same with bars: each panel one bar per category cats[0..n-1],
 * labelled under the bars (as many labels as fit side by side), with its
 * marks; a category without a value gets a grey cross. xlabel names the
 * categories under the last panel (NULL: nothing). 0, or -1 when nothing
 * can be drawn. */
int plot_bars_svg(FILE *f, const char *title, const char *xlabel, const char *const *cats, int n,
		  const struct plot_panel *p, int np);

/* v as a chart shows it (its tick labels): 1.5k, 20M, 0.25, at most 4
 * significant digits, into buf of len bytes. */
void plot_number(char *buf, size_t len, double v);

/* Text for an SVG (or any XML) text node or attribute: & < > " ' escaped,
 * control bytes left out. */
void plot_xml_text(FILE *f, const char *s);

#endif
