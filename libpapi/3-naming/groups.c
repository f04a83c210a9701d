/* groups.c: metric groups: group files and papi decode --groups's CSV parsed, their formulas compiled, and groups written back as lines. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "3-naming/naming.h"

/*
 * A group file is CSV, one record a line (papi-groups(5)):
 *
 *	CPU,skx,clx                      the groups below concern these PMUs only
 *	GROUP,BRANCH,Branch rate and misprediction ratio
 *	EVENT,ins,PAPI_TOT_INS           alias, event (or alternatives A|B)
 *	EVENT,br,PAPI_BR_INS
 *	METRIC,branch_rate,,br / ins,branches per instruction
 *
 * or papi decode --groups's CSV: a title "group,kind,name,definition,unit,
 * description,cpus", then one row per group, event and metric. A group
 * ends at the next GROUP (or CPU) line; one with a problem is dropped as a
 * whole and the reason reported as file:line, and the next one loads.
 */

struct gparse {
	const char *path;
	const struct mgroup_sink *sink;
	struct msgs *errs;
	int nerr;
	int format;		/* 0 unknown yet, 1 group file, 2 decode CSV */
	int line;
	char **cpus;		/* the current section's names (NULL-terminated), or NULL */
	int in_groups;		/* a group came since the last CPU line */
	struct mgroup *g;	/* the group being read */
	int g_bad;		/* it had a problem: drop it at its end */
	const char *only;	/* NULL, or the one group name to read (any case) */
	int skip;		/* inside a group of another name: its rows are passed over */
};

static void g_err(struct gparse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void g_err(struct gparse *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	msgs_add_at(p->errs, p->path, p->line, fmt, ap);
	va_end(ap);
	p->nerr++;
}

static char **strv_dup(char *const *v)
{
	int n = 0;
	while (v && v[n])
		n++;
	if (!v)
		return NULL;
	char **c = calloc((size_t)n + 1, sizeof *c);
	for (int i = 0; c && i < n; i++)
		if (!(c[i] = strdup(v[i]))) {
			while (i--)
				free(c[i]);
			free(c);
			return NULL;
		}
	return c;
}

static void strv_free(char **v)
{
	for (int i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* mgroup_free: see naming.h. */
void mgroup_free(struct mgroup *g)
{
	if (!g)
		return;
	free(g->name);
	free(g->desc);
	free(g->file);
	strv_free(g->cpus);
	for (int i = 0; i < g->nev; i++) {
		free(g->ev[i].alias);
		free(g->ev[i].names);
		free(g->ev[i].buf);
	}
	for (int i = 0; i < g->nmet; i++) {
		struct mgroup_metric *m = &g->met[i];
		free(m->name);
		free(m->unit);
		free(m->formula);
		free(m->desc);
		formula_free(m->f);
	}
	free(g->met);
	free(g);
}

static int is_ident(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* A group name: letters, digits, '_', '-' and '.', as LIKWID's and perf's are. */
static int group_name_ok(const char *s)
{
	if (!*s || strlen(s) >= 64)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.", *s))
			return 0;
	return 1;
}

/* Term of a name in a metric formula: an alias, or MGROUP_TIME. */
static int term_of(void *ctx, const char *name, size_t len)
{
	const struct mgroup *g = ctx;
	for (int i = 0; i < g->nev; i++)
		if (strlen(g->ev[i].alias) == len && !strncmp(g->ev[i].alias, name, len))
			return i;
	if (len == 4 && !strncmp(name, "time", 4))
		return g->nev;
	return -1;
}

/* The end of the group being read: compile its formulas, hand it over. */
static void group_end(struct gparse *p)
{
	struct mgroup *g = p->g;
	if (!g)
		return;
	p->g = NULL;
	int line = p->line;
	p->line = g->line;
	if (!p->g_bad && g->nev == 0) {
		g_err(p, "group %s: no EVENT line", g->name);
		p->g_bad = 1;
	}
	for (int i = 0; i < g->nmet && !p->g_bad; i++) {
		struct mgroup_metric *m = &g->met[i];
		char why[256];
		p->line = m->line;
		if (formula_compile_expr(m->formula, term_of, g, &m->f, why, sizeof why) != PAPI_OK) {
			g_err(p, "group %s: metric %s: %s (names: the group's aliases and 'time')",
			      g->name, m->name, why);
			p->g_bad = 1;
			break;
		}
		m->nuse = formula_terms(m->f, m->use, MGROUP_MAX_EVENTS + 1);
	}
	p->line = g->line;
	if (!p->g_bad) {
		char why[256] = "";
		if (p->sink->group(p->sink->ctx, g, why, sizeof why) == PAPI_OK)
			g = NULL;	/* the sink took it */
		else
			g_err(p, "group %s: %s", g->name, why[0] ? why : "cannot define this group");
	}
	p->line = line;
	p->g_bad = 0;
	mgroup_free(g);
}

static void group_begin(struct gparse *p, const char *name, const char *desc, char *const *cpus)
{
	group_end(p);
	p->in_groups = 1;
	p->skip = p->only && strcasecmp(name, p->only) != 0;
	if (p->skip)
		return;
	struct mgroup *g = calloc(1, sizeof *g);
	if (!g || !(g->name = strdup(name)) || !(g->file = strdup(p->path)) ||
	    (desc && *desc && !(g->desc = strdup(desc))) || (cpus && !(g->cpus = strv_dup(cpus)))) {
		mgroup_free(g);
		g_err(p, "out of memory");
		return;
	}
	g->line = p->line;
	p->g = g;
	p->g_bad = 0;
	if (!group_name_ok(name)) {
		g_err(p, "bad group name '%s' (letters, digits, '_', '-' and '.', at most 63)", name);
		p->g_bad = 1;
	}
}

/* The group a line belongs to; NULL (with a message) outside any group. */
static struct mgroup *in_group(struct gparse *p, const char *what)
{
	if (!p->g)
		g_err(p, "%s outside a group (a GROUP line comes first)", what);
	return p->g;
}

static void add_event(struct gparse *p, const char *alias, const char *names)
{
	struct mgroup *g = in_group(p, "EVENT");
	if (!g || p->g_bad)
		return;
	if (!is_ident(alias) || !strcmp(alias, "time")) {
		g_err(p, "group %s: bad alias '%s' (a letter or '_', then letters, digits, '_'; not 'time')",
		      g->name, alias);
		p->g_bad = 1;
		return;
	}
	if (term_of(g, alias, strlen(alias)) >= 0 && term_of(g, alias, strlen(alias)) < g->nev) {
		g_err(p, "group %s: alias %s given twice", g->name, alias);
		p->g_bad = 1;
		return;
	}
	if (g->nev == MGROUP_MAX_EVENTS) {
		g_err(p, "group %s: more than %d events", g->name, MGROUP_MAX_EVENTS);
		p->g_bad = 1;
		return;
	}
	struct mgroup_event *e = &g->ev[g->nev];
	if (!(e->alias = strdup(alias)) || !(e->names = strdup(names)) || !(e->buf = strdup(names))) {
		free(e->alias);
		free(e->names);
		memset(e, 0, sizeof *e);
		g_err(p, "out of memory");
		p->g_bad = 1;
		return;
	}
	g->nev++;
	/* Alternatives: the first that can be counted is used. */
	for (char *t = e->buf, *bar; t; t = bar) {
		if ((bar = strchr(t, '|')))
			*bar++ = '\0';
		int bad = !*t, inside = 0;	/* between the slashes of PMU/TERMS/ */
		for (const char *c = t; *c; c++) {
			inside ^= *c == '/';
			if (isspace((unsigned char)*c) || *c == '"' || (*c == ',' && !inside))
				bad = 1;
		}
		if (bad || strlen(t) >= PAPI_HUGE_STR_LEN) {
			g_err(p, "group %s: alias %s: bad event name '%s'", g->name, alias, t);
			p->g_bad = 1;
			return;
		}
		if (e->nalt == MGROUP_MAX_ALT) {
			g_err(p, "group %s: alias %s: more than %d alternatives", g->name, alias,
			      MGROUP_MAX_ALT);
			p->g_bad = 1;
			return;
		}
		e->alt[e->nalt++] = t;
	}
}

static void add_metric(struct gparse *p, const char *name, const char *unit, const char *formula,
		       const char *desc)
{
	struct mgroup *g = in_group(p, "METRIC");
	if (!g || p->g_bad)
		return;
	if (!is_ident(name)) {
		g_err(p, "group %s: bad metric name '%s' (a letter or '_', then letters, digits, '_')",
		      g->name, name);
		p->g_bad = 1;
		return;
	}
	for (int i = 0; i < g->nmet; i++)
		if (!strcmp(g->met[i].name, name)) {
			g_err(p, "group %s: metric %s given twice", g->name, name);
			p->g_bad = 1;
			return;
		}
	if (!formula || !*formula) {
		g_err(p, "group %s: metric %s has no formula", g->name, name);
		p->g_bad = 1;
		return;
	}
	struct mgroup_metric *m = realloc(g->met, (size_t)(g->nmet + 1) * sizeof *m);
	if (!m) {
		g_err(p, "out of memory");
		p->g_bad = 1;
		return;
	}
	g->met = m;
	m = &g->met[g->nmet];
	memset(m, 0, sizeof *m);
	m->name = strdup(name);
	m->unit = strdup(unit ? unit : "");
	m->formula = strdup(formula);
	m->desc = strdup(desc ? desc : "");
	m->line = p->line;
	g->nmet++;
	if (!m->name || !m->unit || !m->formula || !m->desc) {
		g_err(p, "out of memory");
		p->g_bad = 1;
	}
}

/* A text field: a control byte in it is refused (it would reach a terminal). */
static int text_ok(struct gparse *p, const char *s, const char *what)
{
	for (const char *c = s; c && *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			g_err(p, "control byte 0x%02x in the %s", (unsigned char)*c, what);
			if (p->g)
				p->g_bad = 1;
			return 0;
		}
	return 1;
}

static const char *field(char **f, int n, int i)
{
	return i < n ? f[i] : "";
}

static void cpu_line(struct gparse *p, char **f, int n)
{
	group_end(p);
	p->skip = 0;
	if (p->in_groups || !p->cpus) {
		strv_free(p->cpus);
		p->cpus = calloc(1, sizeof *p->cpus);
		p->in_groups = 0;
	}
	int k = 0;
	while (p->cpus && p->cpus[k])
		k++;
	for (int i = 1; i < n && p->cpus; i++) {
		if (!*f[i])
			continue;
		char **v = realloc(p->cpus, (size_t)(k + 2) * sizeof *v);
		if (!v || !(v[k] = strdup(f[i]))) {
			if (v)
				p->cpus = v;
			g_err(p, "out of memory");
			return;
		}
		p->cpus = v;
		p->cpus[++k] = NULL;
	}
	if (k == 0)
		g_err(p, "CPU without a PMU name");
}

/* A row of the group-file form. */
static void file_row(struct gparse *p, char **f, int n)
{
	const char *cmd = f[0];
	if (!strcmp(cmd, "CPU")) {
		cpu_line(p, f, n);
	} else if (!strcmp(cmd, "GROUP")) {
		if (n < 2 || !*f[1]) {
			group_end(p);
			g_err(p, "GROUP without a name");
		} else if (text_ok(p, field(f, n, 2), "description")) {
			group_begin(p, f[1], field(f, n, 2), p->cpus);
			if (n > 3)
				g_err(p, "group %s: unexpected field '%s' (GROUP,name,description)", f[1], f[3]);
		}
	} else if (p->skip) {
		return;		/* a row of a group not asked for, unread */
	} else if (!strcmp(cmd, "EVENT")) {
		if (n < 3 || !*f[1] || !*f[2]) {
			if (in_group(p, "EVENT"))
				g_err(p, "group %s: EVENT needs an alias and an event name", p->g->name);
			if (p->g)
				p->g_bad = 1;
		} else {
			add_event(p, f[1], f[2]);
		}
	} else if (!strcmp(cmd, "METRIC")) {
		if (n < 4) {
			if (in_group(p, "METRIC"))
				g_err(p, "group %s: METRIC needs a name, a unit (may be empty) and a formula",
				      p->g->name);
			if (p->g)
				p->g_bad = 1;
		} else if (text_ok(p, field(f, n, 2), "unit") && text_ok(p, field(f, n, 4), "description")) {
			add_metric(p, f[1], f[2], f[3], field(f, n, 4));
		}
	} else {
		g_err(p, "unknown command '%s' (CPU, GROUP, EVENT or METRIC expected)", cmd);
		if (p->g)
			p->g_bad = 1;
	}
}

/* A row of papi decode --groups's CSV: group,kind,name,definition,unit,description,cpus. */
static void csv_row(struct gparse *p, char **f, int n)
{
	const char *grp = f[0], *kind = field(f, n, 1);
	if (!strcmp(kind, "group")) {
		char *cpus[17] = { NULL }, *copy = strdup(field(f, n, 6)), *save = NULL;
		int k = 0;
		for (char *t = copy ? strtok_r(copy, " ", &save) : NULL; t && k < 16;
		     t = strtok_r(NULL, " ", &save))
			cpus[k++] = t;
		if (text_ok(p, field(f, n, 5), "description"))
			group_begin(p, grp, field(f, n, 5), k ? cpus : NULL);
		free(copy);
		return;
	}
	if (p->skip)
		return;
	if (!p->g) {
		g_err(p, "%s row outside a group (a 'group' row comes first)", kind);
		return;
	}
	if (strcmp(p->g->name, grp)) {
		g_err(p, "row of group %s inside group %s (a 'group' row comes first)", grp, p->g->name);
		p->g_bad = 1;
		return;
	}
	if (!strcmp(kind, "event")) {
		if (!*field(f, n, 2) || !*field(f, n, 3)) {
			g_err(p, "group %s: an event row needs a name and a definition", grp);
			p->g_bad = 1;
			return;
		}
		add_event(p, f[2], f[3]);
	} else if (!strcmp(kind, "metric")) {
		if (text_ok(p, field(f, n, 4), "unit") && text_ok(p, field(f, n, 5), "description"))
			add_metric(p, field(f, n, 2), field(f, n, 4), field(f, n, 3), field(f, n, 5));
	} else {
		g_err(p, "unknown kind '%s' (group, event or metric expected)", kind);
		p->g_bad = 1;
	}
}

static void on_row(void *ctx, int line, char **f, int n)
{
	struct gparse *p = ctx;
	p->line = line;
	if (p->format == 0 && n >= 2 && !strcmp(f[0], "group") && !strcmp(f[1], "kind")) {
		p->format = 2;
		return;
	}
	if (p->format == 0)
		p->format = 1;
	if (p->format == 2)
		csv_row(p, f, n);
	else
		file_row(p, f, n);
}

static void on_bad(void *ctx, int line, const char *msg)
{
	struct gparse *p = ctx;
	p->line = line;
	g_err(p, "%s", msg);
	if (p->g)
		p->g_bad = 1;
}

/* mgroups_parse_named: see naming.h. */
int mgroups_parse_named(const char *path, const char *text, size_t len, const struct mgroup_sink *sink,
			struct msgs *errs, const char *only)
{
	struct gparse p = { .path = path, .sink = sink, .errs = errs, .only = only };
	struct deffile_lines_cb cb = { on_row, on_bad, &p };
	int r = deffile_lines(text, len, &cb);
	group_end(&p);
	strv_free(p.cpus);
	return r != PAPI_OK ? r : p.nerr;
}

/* mgroups_parse: see naming.h. */
int mgroups_parse(const char *path, const char *text, size_t len, const struct mgroup_sink *sink,
		  struct msgs *errs)
{
	return mgroups_parse_named(path, text, len, sink, errs, NULL);
}

/* mgroups_text_is_groups: see naming.h. */
int mgroups_text_is_groups(const char *text, size_t len)
{
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		size_t n = (size_t)(e - s);
		if (n && *s != '#' && *s != '\r' && !(n >= 3 && !strncmp(s, "CPU", 3)))
			return (n >= 6 && !strncmp(s, "GROUP,", 6)) ||
			       (n >= 11 && !strncmp(s, "group,kind,", 11));
		s = e + 1;
	}
	return 0;
}

/* Write s as a field: quoted when it must be (or always). */
static void put_field(FILE *f, const char *s, int always)
{
	int q = always || strpbrk(s, ",\"#") || (*s && (isspace((unsigned char)s[0]) ||
					      isspace((unsigned char)s[strlen(s) - 1]))) || s[0] == '\'';
	fputc(',', f);
	if (!q) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* mgroup_write: see naming.h. */
void mgroup_write(FILE *f, const struct mgroup *g)
{
	fputs("GROUP", f);
	put_field(f, g->name, 0);
	if (g->desc)
		put_field(f, g->desc, 1);
	fputc('\n', f);
	for (int i = 0; i < g->nev; i++) {
		fputs("EVENT", f);
		put_field(f, g->ev[i].alias, 0);
		put_field(f, g->ev[i].names, 0);
		fputc('\n', f);
	}
	for (int i = 0; i < g->nmet; i++) {
		const struct mgroup_metric *m = &g->met[i];
		fputs("METRIC", f);
		put_field(f, m->name, 0);
		put_field(f, m->unit, 0);
		put_field(f, m->formula, 0);
		put_field(f, m->desc, 1);
		fputc('\n', f);
	}
}

/* ------------------------------------------------------------------ the loaded groups */
