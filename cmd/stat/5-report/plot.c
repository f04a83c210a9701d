/* plot.c: papi stat --plot FILE.svg: the intervals of -I as a chart, a panel per event and per metric over time (a line per row with --per-*). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot.h"
#include "tool.h"
#include "report.h"

/* "papi stat: 'cmd arg'" or the targets, for the chart's title. */
static void title(const struct st *s, char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "papi stat");
	if (s->o.cmd) {
		char cmd[64];
		size_t c = 0;
		for (int i = 0; i < s->o.ncmd && c < sizeof cmd; i++)
			c += (size_t)snprintf(cmd + c, sizeof cmd - c, "%s%s", i ? " " : "", s->o.cmd[i]);
		/* a long command is cut: the title fits the chart */
		k += (size_t)snprintf(buf + k, k < len ? len - k : 0, " of '%.40s%s'", cmd,
				      strlen(cmd) > 40 ? "..." : "");
	} else if (s->o.system_wide) {
		k += (size_t)snprintf(buf + k, k < len ? len - k : 0, ", system-wide");
	} else {
		k += (size_t)snprintf(buf + k, k < len ? len - k : 0, ", attached");
	}
	if (k < len)
		snprintf(buf + k, len - k, ": every %ld ms", s->o.interval_ms);
}

int st_plot(const struct st *s)
{
	int n = s->niv, nm = 0;
	if (n == 0)
		return cli_error("stat", "--plot: no interval to draw (the count ended before the first)"), -1;
	int maxm = s->iv[0].nmet > 0 ? s->iv[0].nmet : 1, rows = s->nrows > 1 && s->nrows <= PLOT_MAX_LINES;
	struct plot_panel *p = calloc((size_t)(s->nev + maxm), sizeof *p);
	double *x = malloc((size_t)n * sizeof *x);
	/* one array of n values per line of every panel */
	int lines = rows ? s->nrows : 1;
	double *buf = malloc((size_t)(s->nev * lines + maxm) * (size_t)n * sizeof *buf);
	char (*titles)[112] = calloc((size_t)s->nev, sizeof *titles);
	if (!p || !x || !buf || !titles) {
		free(p), free(x), free(buf), free(titles);
		return cli_error("stat", "out of memory"), -1;
	}
	int np = 0;
	double *next = buf;
	for (int k = 0; k < n; k++)
		x[k] = (double)s->iv[k].t_ns / 1e9;
	/* the events: each interval's count over its own length, a rate (a
	 * time per second is the CPUs busy): the last interval, cut short by
	 * the end, and one that a late read made longer, are not a dip or a
	 * peak but what happened in them */
	double len[n];
	for (int k = 0; k < n; k++) {
		int64_t d = s->iv[k].t_ns - (k ? s->iv[k - 1].t_ns : 0);
		len[k] = d > 0 ? (double)d / 1e9 : NAN;
	}
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail)
			continue;
		struct plot_panel *q = &p[np++];
		snprintf(titles[i], sizeof titles[i], "%.80s, %s", e->name,
			 e->is_time ? "busy in each interval" : "per second of each interval");
		q->title = titles[i];
		q->unit = e->is_time ? "CPUs" : "1/s";
		int by_row = rows && s->iv[0].rows && st_by_row(s, e);
		q->nlines = by_row ? s->nrows : 1;
		for (int l = 0; l < q->nlines; l++) {
			q->line[l] = by_row ? s->rows[l].label : NULL;
			q->y[l] = next;
			for (int k = 0; k < n; k++) {
				long long v = by_row ? s->iv[k].rows[l * s->nev + i] : s->iv[k].val[i];
				next[k] = (e->is_time ? (double)v / 1e9 : (double)v) / len[k];
			}
			next += n;
		}
	}
	/* the metrics each interval could compute (the first interval's) */
	double *mv = next;
	for (int k = 0; k < n; k++) {
		const struct st_ivmetric *m = s->iv[k].met;
		int c = s->iv[k].nmet;
		if (k == 0) {
			nm = c;
			for (int j = 0; j < nm; j++) {
				struct plot_panel *q = &p[np + j];
				q->title = m[j].def->name;
				q->unit = *m[j].def->unit ? m[j].def->unit : "ratio";
				q->nlines = 1;
				q->y[0] = mv + (size_t)j * (size_t)n;
			}
		}
		for (int j = 0; j < nm; j++)
			mv[(size_t)j * (size_t)n + (size_t)k] = j < c && m[j].def == s->iv[0].met[j].def ? m[j].value : NAN;
	}
	np += nm;
	char t[256];
	title(s, t, sizeof t);
	int ret = CLI_FAIL;
	FILE *f = cli_wopen("stat", "--plot", s->o.plot_path);
	if (f) {
		plot_lines_svg(f, t, "time since counting began (s)", x, n, p, np);
		ret = cli_wclose("stat", "--plot", s->o.plot_path, f);
	}
	free(p), free(x), free(buf), free(titles);
	return ret == CLI_OK ? 0 : -1;
}
