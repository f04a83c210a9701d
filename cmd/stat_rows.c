/* stat_rows.c: papi stat's --per-* rows: which targets each sums (a CPU, core, socket or node; a thread or process), their counts per run and per interval, and the rows in text, CSV and JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "internal.h"
#include "stat.h"

static const char *const aggr_names[] = {
	[AGGR_NONE] = "none", [AGGR_CPU] = "cpu", [AGGR_CORE] = "core", [AGGR_SOCKET] = "socket",
	[AGGR_NODE] = "node", [AGGR_THREAD] = "thread", [AGGR_PROCESS] = "process",
};

const char *st_aggr_name(int aggr)
{
	return aggr >= 0 && aggr <= AGGR_PROCESS ? aggr_names[aggr] : "none";
}

/* A process's (or thread's) name from /proc, "?" when it is gone. */
static void comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[96];
	if (tid && pid)
		snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	else
		snprintf(path, sizeof path, "/proc/%d/comm", (int)(tid ? tid : pid));
	FILE *f = fopen(path, "re");
	snprintf(buf, len, "?");
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* The process a thread belongs to (its Tgid), or tid itself. */
static pid_t tgid(pid_t tid)
{
	char path[64], line[128];
	pid_t g = tid;
	snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "Tgid: %d", &g) == 1)
			break;
	if (f)
		fclose(f);
	return g;
}

/* The label of target t's row. */
static void label(const struct st *s, const struct st_target *t, char *buf, size_t len)
{
	int sock = 0, die = 0, core = 0, node = 0;
	char name[32];
	if (t->cpu >= 0 && s->o.aggr != AGGR_CPU)
		st_cpus_place(t->cpu, &sock, &die, &core, &node);
	switch (s->o.aggr) {
	case AGGR_CPU: snprintf(buf, len, "CPU%d", t->cpu); break;
	case AGGR_CORE: snprintf(buf, len, "S%d-D%d-C%d", sock, die, core); break;
	case AGGR_SOCKET: snprintf(buf, len, "S%d", sock); break;
	case AGGR_NODE: snprintf(buf, len, "N%d", node); break;
	case AGGR_THREAD:
		comm(t->pid, t->tid, name, sizeof name);
		snprintf(buf, len, "%s-%d", name, (int)t->tid);
		break;
	default: {
		pid_t p = t->pid ? t->pid : tgid(t->tid);
		comm(p, 0, name, sizeof name);
		snprintf(buf, len, "%s-%d", name, (int)p);
	}
	}
}

static int rows_make(struct st *s)
{
	int nev = s->nev > 0 ? s->nev : 1;
	if (!(s->tg_row = calloc((size_t)s->ntargets, sizeof *s->tg_row)) ||
	    !(s->rows = calloc((size_t)s->ntargets, sizeof *s->rows)))
		return cli_error("stat", "out of memory"), -1;
	for (int t = 0; t < s->ntargets; t++) {
		char l[64];
		label(s, &s->tg[t], l, sizeof l);
		int r;
		for (r = 0; r < s->nrows; r++)
			if (!strcmp(s->rows[r].label, l))
				break;
		if (r == s->nrows) {
			struct st_row *w = &s->rows[s->nrows++];
			snprintf(w->label, sizeof w->label, "%s", l);
			w->val = calloc((size_t)nev * (size_t)s->o.repeat, sizeof *w->val);
			w->en = calloc((size_t)nev, sizeof *w->en);
			w->run = calloc((size_t)nev, sizeof *w->run);
			w->ivprev = calloc((size_t)nev, sizeof *w->ivprev);
			if (!w->val || !w->en || !w->run || !w->ivprev)
				return cli_error("stat", "out of memory"), -1;
		}
		s->rows[r].n++;
		s->tg_row[t] = r;
	}
	return 0;
}

/* Each row's current totals into tot[nrows][nev] (and times). */
static int rows_read(struct st *s, long long *tot, uint64_t *en, uint64_t *run)
{
	int nev = s->nev;
	long long v[nev > 0 ? nev : 1];
	uint64_t e[nev > 0 ? nev : 1], r[nev > 0 ? nev : 1];
	memset(tot, 0, (size_t)s->nrows * (size_t)nev * sizeof *tot);
	if (en) {
		memset(en, 0, (size_t)s->nrows * (size_t)nev * sizeof *en);
		memset(run, 0, (size_t)s->nrows * (size_t)nev * sizeof *run);
	}
	for (int t = 0; t < s->ntargets; t++) {
		if (st_sets_read_target(s, t, v, e, r) < 0)
			return -1;
		int w = s->tg_row[t];
		for (int i = 0; i < nev; i++) {
			tot[w * nev + i] += v[i];
			if (en) {
				en[w * nev + i] += e[i];
				run[w * nev + i] += r[i];
			}
		}
	}
	return 0;
}

int st_rows_collect(struct st *s, int r, long long *val, uint64_t *ven, uint64_t *vrun)
{
	if (!s->rows && rows_make(s) < 0)
		return -1;
	size_t n = (size_t)s->nrows * (size_t)(s->nev > 0 ? s->nev : 1);
	long long *tot = malloc(n * sizeof *tot);
	uint64_t *en = malloc(n * sizeof *en), *run = malloc(n * sizeof *run);
	int ret = tot && en && run ? rows_read(s, tot, en, run) : -1;
	if (ret < 0 && !(tot && en && run))
		cli_error("stat", "out of memory");
	for (int i = 0; ret == 0 && i < s->nev; i++)
		val[i] = 0, ven[i] = vrun[i] = 0;
	for (int w = 0; ret == 0 && w < s->nrows; w++)
		for (int i = 0; i < s->nev; i++) {
			s->rows[w].val[i * s->o.repeat + r] = tot[w * s->nev + i];
			s->rows[w].en[i] += en[w * s->nev + i];
			s->rows[w].run[i] += run[w * s->nev + i];
			val[i] += tot[w * s->nev + i];
			ven[i] += en[w * s->nev + i];
			vrun[i] += run[w * s->nev + i];
		}
	/* the other components count papi stat itself: totals, not rows */
	if (ret == 0)
		ret = st_csets_read(s, val);
	/* the last interval, if any, ends with this very read */
	free(s->rowcur);
	s->rowcur = ret == 0 ? tot : NULL;
	if (ret != 0)
		free(tot);
	free(en);
	free(run);
	return ret;
}

void st_rows_free(struct st *s)
{
	for (int w = 0; w < s->nrows; w++) {
		free(s->rows[w].val);
		free(s->rows[w].en);
		free(s->rows[w].run);
		free(s->rows[w].ivprev);
	}
	free(s->rows);
	free(s->tg_row);
	free(s->rowcur);
	s->rowcur = NULL;
	s->rows = NULL;
	s->tg_row = NULL;
	s->nrows = 0;
}

/* ------------------------------------------------------------------ values */
/* Row w's counts in run r, as the metrics take them. */
static void row_run(const struct st *s, const struct st_row *w, int r, long long *v)
{
	for (int i = 0; i < s->nev; i++)
		v[i] = w->val[i * s->o.repeat + r];
}

static void row_stats(const struct st *s, const struct st_row *w, int i, struct st_stats *t)
{
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int r = 0; r < s->nruns; r++)
		v[r] = (double)w->val[i * s->o.repeat + r];
	st_stats(v, s->nruns, t);
}

/* Metric m's statistics over the runs in row w (t->n 0: none). */
static void row_metric(const struct st *s, const struct st_row *w, const struct st_metric *m,
		       struct st_stats *t)
{
	long long v[s->nev > 0 ? s->nev : 1];
	double x[s->nruns > 0 ? s->nruns : 1];
	int n = 0;
	for (int r = 0; r < s->nruns; r++) {
		row_run(s, w, r, v);
		double y = st_metric_value(s, m->grp, m->def, v, s->runs[r].elapsed);
		if (!isnan(y))
			x[n++] = y;
	}
	st_stats(x, n, t);
}

/* ------------------------------------------------------------------ text */
static void row_label(const struct st *s, FILE *f, const struct st_row *w)
{
	if (s->o.aggr == AGGR_CORE || s->o.aggr == AGGR_SOCKET || s->o.aggr == AGGR_NODE)
		fprintf(f, "%-10s %3d", w->label, w->n);
	else
		fprintf(f, "%-14s", w->label);
}

void st_rows_human(const struct st *s, FILE *f, const struct st_metric *m, int nm)
{
	char val[64];
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail) {
			fprintf(f, "%-14s %21s %s\n", "", "<not supported>", e->name);
			continue;
		}
		if (e->cidx > 0) {	/* another component's: counted once, not by row */
			struct st_stats t;
			st_event_stats(s, e, &t);
			fprintf(f, "%-14s", "all");
			st_human_value(f, e, t.mean);
			fprintf(f, " %s\n", st_label(e));
			continue;
		}
		for (int w = 0; w < s->nrows; w++) {
			const struct st_row *row = &s->rows[w];
			struct st_stats t;
			row_stats(s, row, i, &t);
			row_label(s, f, row);
			if (row->run[i] == 0 && row->en[i] > 0) {
				fprintf(f, " %21s %s\n", "<not counted>", st_label(e));
				continue;
			}
			st_human_value(f, e, t.mean);
			fprintf(f, " %-24s", st_label(e));
			for (int k = 0; k < nm; k++) {
				struct st_stats mt;
				if (!m[k].grp->dflt || m[k].line != i)
					continue;
				row_metric(s, row, &m[k], &mt);
				if (!mt.n)
					continue;
				st_metric_format(val, sizeof val, mt.mean, m[k].def);
				fprintf(f, "  # %s%s%s", val, *m[k].def->desc ? " " : "", m[k].def->desc);
			}
			if (s->nruns > 1)
				fprintf(f, "  (± %.2f%%)", t.mean ? 100 * t.stddev / fabs(t.mean) : 0);
			if (row->en[i] && row->run[i] < row->en[i])
				fprintf(f, "  (counted %.2f%% of the time, scaled)",
					100.0 * (double)row->run[i] / (double)row->en[i]);
			fputc('\n', f);
		}
	}
	/* the -g groups' metrics, row by row */
	const struct st_group *cur = NULL;
	for (int k = 0; k < nm; k++) {
		if (m[k].grp->dflt)
			continue;
		if (m[k].grp != cur) {
			cur = m[k].grp;
			fprintf(f, "\n %s: %s\n", cur->g->name, cur->g->desc ? cur->g->desc : "");
		}
		for (int w = 0; w < s->nrows; w++) {
			struct st_stats mt;
			row_metric(s, &s->rows[w], &m[k], &mt);
			row_label(s, f, &s->rows[w]);
			if (mt.n)
				st_metric_format(val, sizeof val, mt.mean, m[k].def);
			fprintf(f, " %21s %s\n", mt.n ? val : "<not computed>", m[k].def->name);
		}
	}
}

/* ------------------------------------------------------------------ intervals */
int st_rows_sample(struct st *s, long long *cur)
{
	if (!s->rows && rows_make(s) < 0)
		return -1;
	size_t n = (size_t)s->nrows * (size_t)(s->nev > 0 ? s->nev : 1);
	free(s->rowcur);
	if (!(s->rowcur = malloc(n * sizeof *s->rowcur)) || rows_read(s, s->rowcur, NULL, NULL) < 0)
		return -1;
	for (int i = 0; i < s->nev; i++) {
		cur[i] = 0;
		for (int w = 0; w < s->nrows; w++)
			cur[i] += s->rowcur[w * s->nev + i];
	}
	return st_csets_read(s, cur);
}

void st_rows_interval(struct st *s, int64_t t_ns)
{
	long long *tot = s->rowcur;
	if (!s->o.aggr || !tot)
		return;
	s->rowcur = NULL;
	for (int w = 0; w < s->nrows; w++)
		for (int i = 0; i < s->nev; i++) {
			long long now = tot[w * s->nev + i];
			tot[w * s->nev + i] = now - s->rows[w].ivprev[i];
			s->rows[w].ivprev[i] = now;
		}
	/* the deltas go with the interval just recorded (JSON, --plot) */
	int kept = 0;
	if ((s->o.json || s->o.plot_path) && s->niv > 0 && !s->iv[s->niv - 1].rows) {
		s->iv[s->niv - 1].rows = tot;
		kept = 1;
	}
	if (s->o.json) {
		if (!kept)
			free(tot);
		return;
	}
	double t = (double)t_ns / 1e9;
	FILE *f = s->out;
	struct csv c;
	if (s->o.sep)
		csv_init(&c, f, s->o.sep);
	for (int i = 0; i < s->nev; i++) {
		if (!s->ev[i].avail || s->ev[i].cidx > 0)
			continue;
		for (int w = 0; w < s->nrows; w++) {
			long long d = tot[w * s->nev + i];
			if (s->o.sep) {
				csv_double(&c, st_tidy(t));
				csv_field(&c, "interval");
				csv_field(&c, s->ev[i].name);
				csv_int(&c, d);
				csv_field(&c, s->ev[i].is_time ? "ns" : "count");
				for (int k = 5; k < st_ncsv_cols - 2; k++)
					csv_field(&c, NULL);
				csv_field(&c, s->rows[w].label);
				char dom[32];
				csv_field(&c, st_csv_domain(s, &s->ev[i], dom, sizeof dom));
				csv_row_end(&c);
			} else {
				fprintf(f, "%12.3f ", t);
				row_label(s, f, &s->rows[w]);
				st_human_value(f, &s->ev[i], (double)d);
				fprintf(f, " %s\n", st_label(&s->ev[i]));
			}
		}
	}
	fflush(f);
	if (!kept)
		free(tot);
}

/* ------------------------------------------------------------------ CSV and JSON */
void st_rows_csv(const struct st *s, struct csv *c)
{
	struct st_metric m[st_metrics_max(s)];
	int nm = st_metrics(s, m);
	for (int w = 0; w < s->nrows; w++) {
		const struct st_row *row = &s->rows[w];
		for (int i = 0; i < s->nev; i++) {
			if (!s->ev[i].avail || s->ev[i].cidx > 0)
				continue;
			struct st_stats t;
			row_stats(s, row, i, &t);
			csv_field(c, NULL);
			csv_field(c, "event");
			csv_field(c, s->ev[i].name);
			csv_double(c, st_tidy(t.mean));
			csv_field(c, s->ev[i].is_time ? "ns" : "count");
			csv_int(c, t.n);
			for (int k = 6; k < st_ncsv_cols - 2; k++)
				csv_field(c, NULL);
			csv_field(c, row->label);
			char dom[32];
			csv_field(c, st_csv_domain(s, &s->ev[i], dom, sizeof dom));
			csv_row_end(c);
		}
		for (int k = 0; k < nm; k++) {
			struct st_stats mt;
			row_metric(s, row, &m[k], &mt);
			if (!mt.n)
				continue;
			csv_field(c, NULL);
			csv_field(c, "metric");
			csv_field(c, m[k].def->name);
			csv_double(c, st_tidy(mt.mean));
			csv_field(c, m[k].def->unit);
			csv_int(c, mt.n);
			for (int j = 6; j < st_ncsv_cols - 2; j++)
				csv_field(c, NULL);
			csv_field(c, row->label);
			csv_field(c, NULL);
			csv_row_end(c);
		}
	}
}

void st_rows_json(const struct st *s, struct json *j)
{
	struct st_metric m[st_metrics_max(s)];
	int nm = st_metrics(s, m);
	json_kstr(j, "per", st_aggr_name(s->o.aggr));
	json_key(j, "rows");
	json_arr_begin(j);
	for (int w = 0; w < s->nrows; w++) {
		const struct st_row *row = &s->rows[w];
		json_obj_begin(j);
		json_kstr(j, "target", row->label);
		json_key(j, "cpus");
		json_arr_begin(j);
		for (int t = 0; t < s->ntargets; t++)
			if (s->tg_row[t] == w && s->tg[t].cpu >= 0)
				json_int(j, s->tg[t].cpu);
		json_arr_end(j);
		json_key(j, "tids");
		json_arr_begin(j);
		for (int t = 0; t < s->ntargets; t++)
			if (s->tg_row[t] == w && s->tg[t].cpu < 0)
				json_int(j, s->tg[t].tid);
		json_arr_end(j);
		json_key(j, "events");
		json_arr_begin(j);
		for (int i = 0; i < s->nev; i++) {
			if (!s->ev[i].avail || s->ev[i].cidx > 0)
				continue;
			struct st_stats t;
			row_stats(s, row, i, &t);
			json_obj_begin(j);
			json_kstr(j, "name", s->ev[i].name);
			json_kdouble(j, "value", st_tidy(t.mean));
			json_key(j, "values");
			json_arr_begin(j);
			for (int r = 0; r < s->nruns; r++)
				json_int(j, row->val[i * s->o.repeat + r]);
			json_arr_end(j);
			json_kint(j, "time_enabled", s->nruns ? (long long)(row->en[i] / (uint64_t)s->nruns) : 0);
			json_kint(j, "time_running", s->nruns ? (long long)(row->run[i] / (uint64_t)s->nruns) : 0);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_key(j, "metrics");
		json_obj_begin(j);
		for (int k = 0; k < nm; k++) {
			struct st_stats mt;
			row_metric(s, row, &m[k], &mt);
			if (mt.n)
				json_kdouble(j, m[k].def->name, st_tidy(mt.mean));
		}
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void st_rows_json_interval(const struct st *s, struct json *j, int k)
{
	const long long *d = s->iv[k].rows;
	if (!d)
		return;
	json_key(j, "rows");
	json_obj_begin(j);
	for (int w = 0; w < s->nrows; w++) {
		json_key(j, s->rows[w].label);
		json_arr_begin(j);
		for (int i = 0; i < s->nev; i++)
			if (s->ev[i].avail)
				json_int(j, d[w * s->nev + i]);
			else
				json_put_null(j);
		json_arr_end(j);
	}
	json_obj_end(j);
}
