/* plot.h: self-contained SVG charts (no library): a column of panels, each a quantity with its unit, as lines over a shared axis or as bars over categories. */
#ifndef PAPI_CMD_PLOT_H
#define PAPI_CMD_PLOT_H

#include <stdio.h>

#define PLOT_MAX_LINES 16

/* One panel: one quantity, drawn as one or more lines (a legend names
 * them when there are several) or as one bar per category. */
struct plot_panel {
	const char *title;	/* "perf::TASK-CLOCK" */
	const char *unit;	/* its unit, for the axis: "ms", "count", "GHz" */
	int nlines;		/* 1 for bars */
	const char *line[PLOT_MAX_LINES];	/* each line's name (legend), or NULL */
	const double *y[PLOT_MAX_LINES];	/* each line's n values; NAN: none (a gap) */
};

/* Write an SVG document on f: a title, then np panels one above the other,
 * each with its y axis (ticks, the unit) over the shared x axis of n points
 * x[] labelled xlabel ("time (s)"). 0, or -1 when nothing can be drawn
 * (np or n is 0). The document is complete and valid whatever the values
 * (NaN and infinities are left out; a flat series gets a range around it). */
int plot_lines_svg(FILE *f, const char *title, const char *xlabel, const double *x, int n,
		   const struct plot_panel *p, int np);

/* The same with bars: each panel one bar per category cats[0..n-1],
 * labelled under the bars. 0, or -1 when nothing can be drawn. */
int plot_bars_svg(FILE *f, const char *title, const char *const *cats, int n,
		  const struct plot_panel *p, int np);

/* Text for an SVG (or any XML) text node or attribute: & < > " ' escaped,
 * control bytes left out. */
void plot_xml_text(FILE *f, const char *s);

#endif
