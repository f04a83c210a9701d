/* rows.c: papi stat's --per-* rows: which targets each sums (a CPU, core, socket or node; a thread or process; or every target's part on a core type), and their counts read per run and per interval. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tool.h"
#include "count.h"

void st_comm(pid_t pid, pid_t tid, char *buf, size_t len)
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

pid_t st_tgid(pid_t tid)
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
	case AGGR_CGROUP: snprintf(buf, len, "%s", s->o.cgroups[t->cg]); break;
	case AGGR_THREAD:
		if (t->comm[0])
			snprintf(name, sizeof name, "%s", t->comm);	/* read as it exited */
		else
			st_comm(t->pid, t->tid, name, sizeof name);
		snprintf(buf, len, "%s-%d", name, (int)t->tid);
		break;
	default: {
		pid_t p = t->pid ? t->pid : st_tgid(t->tid);
		st_comm(p, 0, name, sizeof name);
		snprintf(buf, len, "%s-%d", name, (int)p);
	}
	}
}

/* A new row labelled l. 0 or -1. */
static int row_add(struct st *s, const char *l)
{
	int nev = s->nev > 0 ? s->nev : 1;
	struct st_row *w = &s->rows[s->nrows++];
	snprintf(w->label, sizeof w->label, "%s", l);
	w->val = calloc((size_t)nev * (size_t)s->o.repeat, sizeof *w->val);
	w->en = calloc((size_t)nev, sizeof *w->en);
	w->run = calloc((size_t)nev, sizeof *w->run);
	return w->val && w->en && w->run ? 0 : -1;
}

/* --per-cputype: a row per core type of the hybrid, each summing every
 * target's part there. */
static int rows_make_types(struct st *s)
{
	const char *names[ST_MAX_CPUTYPES];
	char why[256];
	int n = coretype_list(names, ST_MAX_CPUTYPES, why, sizeof why);
	if (n < 0)
		return cli_error("stat", "--per-cputype: %s", why), -1;
	if (!(s->rows = calloc((size_t)n, sizeof *s->rows)))
		return cli_error("stat", "out of memory"), -1;
	for (int k = 0; k < n; k++) {
		if (row_add(s, names[k]) < 0)
			return cli_error("stat", "out of memory"), -1;
		s->rows[k].n = s->ntargets;
	}
	return 0;
}

static int rows_make(struct st *s)
{
	if (s->o.aggr == AGGR_CPUTYPE)
		return rows_make_types(s);
	if (!(s->tg_row = calloc((size_t)s->ntargets, sizeof *s->tg_row)) ||
	    !(s->rows = calloc((size_t)s->ntargets, sizeof *s->rows)))
		return cli_error("stat", "out of memory"), -1;
	for (int t = 0; t < s->ntargets; t++) {
		char l[64];
		label(s, &s->tg[t], l, sizeof l);
		int r;
		for (r = 0; r < s->nrows; r++)
			if (s->o.aggr == AGGR_CGROUP ? s->tg[s->rows[r].first].cg == s->tg[t].cg
						     : !strcmp(s->rows[r].label, l))
				break;	/* a cgroup's path may be longer than a label */
		if (r == s->nrows) {
			if (row_add(s, l) < 0)
				return cli_error("stat", "out of memory"), -1;
			s->rows[r].first = t;
		}
		s->rows[r].n++;
		s->tg_row[t] = r;
	}
	return 0;
}

/* Each row's current totals into tot[nrows][nev] (and times), and every
 * target's into sum[nev] (with --per-cputype more than the rows hold: an
 * event not on core types alone has no part in them). */
static int rows_read(struct st *s, long long *tot, uint64_t *en, uint64_t *run, long long *sum)
{
	int nev = s->nev, types = s->o.aggr == AGGR_CPUTYPE;
	long long v[nev > 0 ? nev : 1];
	uint64_t e[nev > 0 ? nev : 1], r[nev > 0 ? nev : 1];
	memset(tot, 0, (size_t)s->nrows * (size_t)nev * sizeof *tot);
	memset(sum, 0, (size_t)nev * sizeof *sum);
	if (en) {
		memset(en, 0, (size_t)s->nrows * (size_t)nev * sizeof *en);
		memset(run, 0, (size_t)s->nrows * (size_t)nev * sizeof *run);
	}
	for (int t = 0; t < s->ntargets; t++) {
		if (st_sets_read_target(s, t, v, e, r, types ? tot : NULL) < 0)
			return -1;
		/* a target's part on each type is in every row: its times too */
		for (int w = types ? 0 : s->tg_row[t]; w < (types ? s->nrows : s->tg_row[t] + 1); w++)
			for (int i = 0; i < nev; i++) {
				if (!types)
					tot[w * nev + i] += v[i];
				if (en) {
					en[w * nev + i] += e[i];
					run[w * nev + i] += r[i];
				}
			}
		for (int i = 0; i < nev; i++)
			sum[i] += v[i];
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
	int ret = tot && en && run ? rows_read(s, tot, en, run, val) : -1;
	if (ret < 0 && !(tot && en && run))
		cli_error("stat", "out of memory");
	for (int i = 0; ret == 0 && i < s->nev; i++)
		ven[i] = vrun[i] = 0;
	for (int w = 0; ret == 0 && w < s->nrows; w++)
		for (int i = 0; i < s->nev; i++) {
			s->rows[w].val[i * s->o.repeat + r] = tot[w * s->nev + i];
			s->rows[w].en[i] += en[w * s->nev + i];
			s->rows[w].run[i] += run[w * s->nev + i];
			/* the times of each target once (every row has them all by type) */
			if (s->o.aggr != AGGR_CPUTYPE || w == 0) {
				ven[i] += en[w * s->nev + i];
				vrun[i] += run[w * s->nev + i];
			}
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
	}
	free(s->rows);
	free(s->tg_row);
	free(s->rowcur);
	s->rowcur = NULL;
	s->rows = NULL;
	s->tg_row = NULL;
	s->nrows = 0;
}

/* ------------------------------------------------------------------ intervals */
int st_rows_sample(struct st *s, long long *cur)
{
	if (!s->rows && rows_make(s) < 0)
		return -1;
	size_t n = (size_t)s->nrows * (size_t)(s->nev > 0 ? s->nev : 1);
	free(s->rowcur);
	if (!(s->rowcur = malloc(n * sizeof *s->rowcur)) || rows_read(s, s->rowcur, NULL, NULL, cur) < 0)
		return -1;
	return st_csets_read(s, cur);
}

