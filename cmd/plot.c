/* plot.c: SVG charts written by hand: panels one above the other, each with its own y axis and unit, as lines over time or bars over categories. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"

/* Sizes in SVG user units (pixels at 100%). */
enum {
	W = 860,		/* document width */
	LEFT = 92,		/* room for the y tick labels */
	RIGHT = 24,
	TOP = 44,		/* the document's title */
	PANEL = 178,		/* one panel: its title, its plot, its x tick labels */
	PTITLE = 30,		/* the panel's title row */
	PLOT = 112,		/* the plot area's height */
	BOTTOM = 34,		/* the x axis label */
};

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};
#define NCOLORS (sizeof colors / sizeof *colors)

/* The marks': low, middle, high, other; and bars of no mark's colour. */
static const char *const mark_colors[] = { "#2ca02c", "#555555", "#d62728", "#9467bd" };
#define NMARK_COLORS (sizeof mark_colors / sizeof *mark_colors)
#define PLAIN_BAR "#6f9fcf"

void plot_xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 && *s != 0x7f)
				fputc(*s, f);
		}
	}
}

/* The width of s drawn cw units a character (an estimate: no font metrics). */
static double text_width(const char *s, double cw)
{
	return (double)strlen(s) * cw;
}

/* s as a text node of at most max characters: a longer one is cut with "...". */
static void fit_text(FILE *f, const char *s, double max)
{
	size_t n = strlen(s ? s : "");
	if (max < 4)
		max = 4;
	if ((double)n <= max) {
		plot_xml_text(f, s);
		return;
	}
	char buf[256];
	size_t keep = (size_t)max - 3 < sizeof buf - 1 ? (size_t)max - 3 : sizeof buf - 1;
	while (keep > 0 && ((unsigned char)s[keep] & 0xc0) == 0x80)
		keep--;		/* never within a UTF-8 character */
	memcpy(buf, s, keep);
	buf[keep] = '\0';
	plot_xml_text(f, buf);
	fputs("...", f);
}

/* A step of 1, 2 or 5 times a power of ten near span/target. */
static double nice_step(double span, int target)
{
	double raw = span / target, p = 1, m;
	/* The power of ten at or below raw, without libm (papi loads no libm). */
	if (!(raw > 0) || raw > 1e300)
		return 1;
	while (p > raw)
		p /= 10;
	while (p * 10 <= raw)
		p *= 10;
	m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* An axis: [lo, hi] rounded out to whole steps. */
struct axis {
	double lo, hi, step;
};

static void axis_of(double lo, double hi, int zero, struct axis *a)
{
	if (zero && lo > 0)
		lo = 0;
	if (zero && hi < 0)
		hi = 0;
	if (!(hi > lo)) {	/* one value: a range around it */
		double d = lo != 0 ? fabs(lo) * 0.5 : 1;
		lo -= zero && lo >= 0 ? 0 : d;
		hi += d;
	}
	a->step = nice_step(hi - lo, 4);
	a->lo = floor(lo / a->step + 1e-9) * a->step;
	a->hi = ceil(hi / a->step - 1e-9) * a->step;
	if (a->hi <= a->lo)
		a->hi = a->lo + a->step;
}

void plot_number(char *buf, size_t len, double v)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T", "P" };
	int k = 0;
	double a = fabs(v);
	if (a < 1e-12)
		v = 0;
	while (a >= 1000 && k < 5) {
		a /= 1000;
		v /= 1000;
		k++;
	}
	snprintf(buf, len, "%.4g%s", v, sfx[k]);
}

static void text(FILE *f, double x, double y, const char *anchor, const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra ? extra : "");
	plot_xml_text(f, s);
	fputs("</text>\n", f);
}

static void head(FILE *f, const char *title, int np)
{
	int h = TOP + np * PANEL + BOTTOM;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
		   "font-size=\"12\">\n<title>", W, h, W, h);
	plot_xml_text(f, title);
	fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, h);
	text(f, W / 2.0, 26, "middle", " font-size=\"16\" font-weight=\"bold\"", title);
}

/* The range of panel p's finite values; 0 when it has none. */
static int range(const struct plot_panel *p, int n, double *lo, double *hi)
{
	int any = 0;
	for (int l = 0; l < p->nlines; l++)
		for (int i = 0; i < n; i++) {
			double v = p->y[l][i];
			if (!isfinite(v))
				continue;
			if (!any || v < *lo)
				*lo = v;
			if (!any || v > *hi)
				*hi = v;
			any = 1;
		}
	return any;
}

/* A panel's frame: title, legend, y grid and ticks with the unit. Its plot
 * area is [x0, x0 + w] x [y0, y0 + PLOT]. */
static void frame(FILE *f, const struct plot_panel *p, int top, const struct axis *a, int any);

/* Panel p of n values at top: its y axis into *ya, its frame drawn.
 * Returns 1 when it has a value to draw. */
static int panel(FILE *f, const struct plot_panel *p, int n, int top, struct axis *ya)
{
	double lo = 0, hi = 0;
	int any = range(p, n, &lo, &hi);
	axis_of(lo, hi, 1, ya);
	frame(f, p, top, ya, any);
	return any;
}

static void frame(FILE *f, const struct plot_panel *p, int top, const struct axis *a, int any)
{
	double x0 = LEFT, y0 = top + PTITLE, w = W - LEFT - RIGHT;
	char lab[64];
	/* the marks' legend, right-aligned; the title keeps the room left of it */
	double edge = W - RIGHT;
	for (int k = p->nmarks - 1; k >= 0; k--) {
		const struct plot_mark *m = &p->mark[k];
		if (!m->label || !isfinite(m->y))
			continue;
		edge -= 26 + text_width(m->label, 7) + 10;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
			   "stroke-width=\"2\" stroke-dasharray=\"5 3\"/>\n", edge, top + 14, edge + 20, top + 14,
			mark_colors[k % NMARK_COLORS]);
		text(f, edge + 26, top + 18, "start", NULL, m->label);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"start\" font-size=\"13\" font-weight=\"bold\">",
		x0, top + 18);
	fit_text(f, p->title, (edge - 12 - x0) / 8);
	fputs("</text>\n", f);
	for (int l = 0; p->nlines > 1 && l < p->nlines; l++) {
		double lx = W - RIGHT - 120.0 * (p->nlines - l);
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", lx, top + 9,
			colors[l % NCOLORS]);
		text(f, lx + 14, top + 18, "start", NULL, p->line[l] ? p->line[l] : "");
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#fafafa\" stroke=\"#999\"/>\n",
		x0, y0, w, PLOT);
	/* the unit, along the y axis */
	fprintf(f, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">",
		y0 + PLOT / 2.0, y0 + PLOT / 2.0);
	plot_xml_text(f, p->unit && *p->unit ? p->unit : "value");
	fputs("</text>\n", f);
	if (!any) {
		text(f, x0 + w / 2, y0 + PLOT / 2.0, "middle", " fill=\"#777\"", "no value");
		return;
	}
	for (double v = a->lo; v <= a->hi + a->step * 1e-6; v += a->step) {
		double y = y0 + PLOT - (v - a->lo) / (a->hi - a->lo) * PLOT;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x0, y,
			x0 + w, y);
		plot_number(lab, sizeof lab, v);
		text(f, x0 - 6, y + 4, "end", NULL, lab);
	}
}

int plot_lines_svg(FILE *f, const char *title, const char *xlabel, const double *x, int n,
		   const struct plot_panel *p, int np)
{
	if (np <= 0 || n <= 0)
		return -1;
	struct axis xa;
	double xlo = x[0], xhi = x[0];
	for (int i = 1; i < n; i++) {
		xlo = x[i] < xlo ? x[i] : xlo;
		xhi = x[i] > xhi ? x[i] : xhi;
	}
	axis_of(xlo, xhi, 1, &xa);
	head(f, title, np);
	double w = W - LEFT - RIGHT;
	char lab[64];
	for (int k = 0; k < np; k++) {
		int top = TOP + k * PANEL;
		double y0 = top + PTITLE;
		struct axis ya;
		int any = panel(f, &p[k], n, top, &ya);
		for (double v = xa.lo; v <= xa.hi + xa.step * 1e-6; v += xa.step) {
			double px = LEFT + (v - xa.lo) / (xa.hi - xa.lo) * w;
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>\n", px,
				y0 + PLOT, px, y0 + PLOT + 4);
			plot_number(lab, sizeof lab, v);
			text(f, px, y0 + PLOT + 17, "middle", NULL, lab);
		}
		for (int l = 0; any && l < p[k].nlines; l++) {
			int pen = 0;
			fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" d=\"", colors[l % NCOLORS]);
			for (int i = 0; i < n; i++) {
				double v = p[k].y[l][i];
				if (!isfinite(v) || !isfinite(x[i])) {
					pen = 0;
					continue;
				}
				double px = LEFT + (x[i] - xa.lo) / (xa.hi - xa.lo) * w;
				double py = y0 + PLOT - (v - ya.lo) / (ya.hi - ya.lo) * PLOT;
				fprintf(f, "%s%.1f %.1f", pen ? " L" : " M", px, py);
				pen = 1;
			}
			fputs("\"/>\n", f);
			for (int i = 0; n <= 60 && i < n; i++)
				if (isfinite(p[k].y[l][i]) && isfinite(x[i]))
					fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
						LEFT + (x[i] - xa.lo) / (xa.hi - xa.lo) * w,
						y0 + PLOT - (p[k].y[l][i] - ya.lo) / (ya.hi - ya.lo) * PLOT,
						colors[l % NCOLORS]);
		}
	}
	text(f, LEFT + w / 2, TOP + np * PANEL + 18, "middle", NULL, xlabel);
	fputs("</svg>\n", f);
	return 0;
}

int plot_bars_svg(FILE *f, const char *title, const char *xlabel, const char *const *cats, int n,
		  const struct plot_panel *p, int np)
{
	if (np <= 0 || n <= 0)
		return -1;
	head(f, title, np);
	double w = W - LEFT - RIGHT, slot = w / n, bw = slot * (n > 100 ? 0.85 : 0.6), widest = 0;
	/* a label every 1, 2, 5, 10, 20... categories: as many as fit side by side */
	for (int i = 0; i < n; i++) {
		double t = text_width(cats[i], 7);
		widest = t > widest ? t : widest;
	}
	int every = 1;
	while (every * slot < (widest < 161 ? widest : 161) + 6 && every < n) {
		int d = 1;
		while (d * 10 <= every)
			d *= 10;
		every = (every / d == 1 ? 2 : every / d == 2 ? 5 : 10) * d;
	}
	for (int k = 0; k < np; k++) {
		int top = TOP + k * PANEL;
		double y0 = top + PTITLE;
		struct axis ya;
		int any = panel(f, &p[k], n, top, &ya);
		double zero = y0 + PLOT - (0 - ya.lo) / (ya.hi - ya.lo) * PLOT;
		for (int i = 0; i < n; i++) {
			double cx = LEFT + slot * (i + 0.5), v = p[k].y[0][i];
			char name[24];
			snprintf(name, sizeof name, "%.20s%s", cats[i], strlen(cats[i]) > 20 ? "..." : "");
			if (i % every == 0)
				text(f, cx, y0 + PLOT + 17, "middle", NULL, name);
			if (!any)
				continue;
			if (!isfinite(v)) {
				/* no value: a grey cross on the zero line, not an empty slot */
				double d = bw / 2 < 4 ? bw / 2 : 4;
				fprintf(f, "<path d=\"M%.1f %.1fl%.1f %.1fm0 %.1fl%.1f %.1f\" stroke=\"#888\"><title>",
					cx - d, zero - d, 2 * d, 2 * d, -2 * d, -2 * d, 2 * d);
				plot_xml_text(f, cats[i]);
				fputs(": no value</title></path>\n", f);
				continue;
			}
			const unsigned char *tone = p[k].tone;
			const char *fill = !tone ? colors[i % NCOLORS]
					   : tone[i] ? mark_colors[(tone[i] - 1) % NMARK_COLORS] : PLAIN_BAR;
			double py = y0 + PLOT - (v - ya.lo) / (ya.hi - ya.lo) * PLOT;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\">"
				   "<title>", cx - bw / 2, py < zero ? py : zero, bw, fabs(zero - py), fill);
			plot_xml_text(f, cats[i]);
			fprintf(f, ": %.6g</title></rect>\n", v);
		}
		/* the marks over the bars */
		for (int m = 0; any && m < p[k].nmarks; m++) {
			double v = p[k].mark[m].y;
			if (!isfinite(v))
				continue;
			double py = y0 + PLOT - (v - ya.lo) / (ya.hi - ya.lo) * PLOT;
			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				   "stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n", LEFT, py, LEFT + w, py,
				mark_colors[m % NMARK_COLORS]);
		}
	}
	if (xlabel)
		text(f, LEFT + w / 2, TOP + np * PANEL + 18, "middle", NULL, xlabel);
	fputs("</svg>\n", f);
	return 0;
}
