/* deffile.c: the event definition-file parser (libcsv): CSV lines, CPU sections, PRESET/EVENT rows, papi decode's CSV; file:line errors. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "3-naming/naming.h"

/*
 * A record is one line: libcsv parses each line on its own, so a broken line
 * (an unbalanced quote, a bad field) is reported with its number and the next
 * line starts clean. Quoted fields may hold commas and doubled quotes; a field
 * wrapped in single quotes (as in the seed's examples) loses them.
 */

#define MAX_FIELDS 64

/* msgs_add: see internal.h. Messages past the first 1000 are counted only. */
void msgs_add(struct msgs *m, const char *fmt, ...)
{
	m->total++;
	if (m->n >= 1000)
		return;
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 16;
		char **v = realloc(m->v, cap * sizeof *v);
		if (!v)
			return;
		m->v = v;
		m->cap = cap;
	}
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&m->v[m->n], fmt, ap) >= 0)
		m->n++;
	va_end(ap);
}

/* msgs_add_at: see naming.h. */
void msgs_add_at(struct msgs *m, const char *path, int line, const char *fmt, va_list ap)
{
	char buf[512];
	vsnprintf(buf, sizeof buf, fmt, ap);
	msgs_add(m, "%s:%d: %s", path, line, buf);
}

void msgs_free(struct msgs *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
	memset(m, 0, sizeof *m);
}

struct rec {
	char *f[MAX_FIELDS];
	int n;
	int overflow;
	int oom;
};

static void on_field(void *s, size_t len, void *data)
{
	struct rec *r = data;
	if (r->n == MAX_FIELDS) {
		r->overflow = 1;
		return;
	}
	char *c = malloc(len + 1);
	if (!c) {
		r->oom = 1;
		return;
	}
	if (len)
		memcpy(c, s, len);
	c[len] = '\0';
	/* 'text' as in the seed's examples: drop the single quotes. */
	if (len >= 2 && c[0] == '\'' && c[len - 1] == '\'') {
		memmove(c, c + 1, len - 2);
		c[len - 2] = '\0';
	}
	r->f[r->n++] = c;
}

static void on_row(int c, void *data)
{
	(void)c;
	(void)data;
}

static void rec_clear(struct rec *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->f[i]);
	memset(r, 0, sizeof *r);
}

struct parse {
	const char *path;
	int line;
	const struct deffile_sink *sink;
	struct msgs *errs;
	int format;		/* 0 unknown yet, 1 definition file, 2 decode CSV */
	int applies;		/* the current CPU section concerns this machine */
	int in_events;		/* an event came since the last CPU line */
	char pmu[PAPI_MIN_STR_LEN];	/* first matching name of the section */
	char cpu_names[16][PAPI_MIN_STR_LEN];	/* the section's names (first 16) */
	const char *cpus[17];
	int ncpus;
	int nerr;
};

static void p_err(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void p_err(struct parse *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	msgs_add_at(p->errs, p->path, p->line, fmt, ap);
	va_end(ap);
	p->nerr++;
}

#define FAIL(...) do { p_err(p, __VA_ARGS__); return; } while (0)

static int is_keyword(const char *s)
{
	return !strcmp(s, "LDESC") || !strcmp(s, "SDESC") || !strcmp(s, "NOTE");
}

static int name_ok(struct parse *p, const char *name)
{
	if (!*name) {
		p_err(p, "missing event name");
		return 0;
	}
	if (strlen(name) >= PAPI_MAX_STR_LEN) {
		p_err(p, "event name longer than %d characters", PAPI_MAX_STR_LEN - 1);
		return 0;
	}
	for (const char *c = name; *c; c++)
		if (isspace((unsigned char)*c) || *c == '|' || *c == '"') {
			p_err(p, "bad character '%c' in event name '%s'", *c, name);
			return 0;
		}
	return 1;
}

static void deliver(struct parse *p, struct def_event *ev)
{
	char why[512] = "";
	ev->file = p->path;
	ev->line = p->line;
	if (p->sink->event(p->sink->ctx, ev, why, sizeof why) != PAPI_OK)
		p_err(p, "%s: %s", ev->name, why[0] ? why : "cannot define this event");
}

/* The value of a type field; reports and returns -1 when it is not a type. */
static int type_field(struct parse *p, const char *s)
{
	int t = formula_type_parse(s);
	if (t < 0)
		p_err(p, "unknown derived type '%s' (NOT_DERIVED, DERIVED_ADD, DERIVED_SUB, "
			 "DERIVED_PS, DERIVED_ADD_PS, DERIVED_CMPD, DERIVED_POSTFIX, DERIVED_INFIX)", s);
	return t;
}

/* PRESET|EVENT,<name>,<type>,[<formula>,]<base>...[,LDESC,x][,SDESC,x][,NOTE,x] */
static void def_event_row(struct parse *p, struct rec *r)
{
	struct def_event ev = { 0 };
	int i = 3;
	ev.preset = strcmp(r->f[0], "PRESET") == 0;
	if (r->n < 2)
		FAIL("missing event name");
	if (!name_ok(p, r->f[1]))
		return;
	ev.name = r->f[1];
	if (r->n < 3 || !*r->f[2])
		FAIL("%s: missing derived type", ev.name);
	if ((ev.derived = type_field(p, r->f[2])) < 0)
		return;
	if (ev.derived == DERIVED_POSTFIX || ev.derived == DERIVED_INFIX) {
		if (r->n < 4 || !*r->f[3] || is_keyword(r->f[3]))
			FAIL("%s: %s needs a formula", ev.name, r->f[2]);
		ev.formula = r->f[i++];
	}
	for (; i < r->n && !is_keyword(r->f[i]); i++) {
		if (!*r->f[i])
			FAIL("%s: empty base event (field %d)", ev.name, i + 1);
		if (ev.nbase == PAPI_EVENTS_IN_DERIVED_EVENT)
			FAIL("%s: more than %d base events", ev.name,
				     PAPI_EVENTS_IN_DERIVED_EVENT);
		ev.base[ev.nbase++] = r->f[i];
	}
	if (ev.nbase == 0)
		FAIL("%s: no base event", ev.name);
	for (; i < r->n; i += 2) {
		if (!is_keyword(r->f[i]))
			FAIL("%s: '%s' where LDESC, SDESC or NOTE was expected", ev.name,
				     r->f[i]);
		if (i + 1 >= r->n)
			FAIL("%s: %s without its text", ev.name, r->f[i]);
		const char **dst = r->f[i][0] == 'L' ? &ev.ldesc : r->f[i][0] == 'S' ? &ev.sdesc
											: &ev.note;
		*dst = r->f[i + 1];
	}
	ev.pmu = p->pmu[0] ? p->pmu : NULL;
	ev.cpus = p->ncpus ? p->cpus : NULL;
	deliver(p, &ev);
}

/* CPU,<name>[,<name>...] (also "CPU <name>"). */
static void def_cpu_row(struct parse *p, struct rec *r, const char *inline_name)
{
	if (p->in_events || p->format == 0) {
		p->applies = 0;
		p->pmu[0] = '\0';
		p->ncpus = 0;
		p->cpus[0] = NULL;
	}
	p->in_events = 0;
	int named = 0;
	for (int i = inline_name ? 0 : 1; i < r->n; i++) {
		const char *name = i == 0 ? inline_name : r->f[i];
		if (!*name)
			continue;
		named++;
		if (p->ncpus < 16) {
			snprintf(p->cpu_names[p->ncpus], PAPI_MIN_STR_LEN, "%s", name);
			p->cpus[p->ncpus] = p->cpu_names[p->ncpus];
			p->cpus[++p->ncpus] = NULL;
		}
		if (!p->applies && (!p->sink->cpu_match || p->sink->cpu_match(p->sink->ctx, name))) {
			p->applies = 1;
			snprintf(p->pmu, sizeof p->pmu, "%s", name);
		}
	}
	if (!named)
		p_err(p, "CPU without a PMU name");
}

/* A row of papi decode's CSV: name,derived,postfix,short,long,note,native... */
static void csv_event_row(struct parse *p, struct rec *r)
{
	struct def_event ev = { 0 };
	ev.preset = 1;
	if (!name_ok(p, r->f[0]))
		return;
	ev.name = r->f[0];
	if (r->n < 2 || !*r->f[1])
		FAIL("%s: missing derived type", ev.name);
	if ((ev.derived = type_field(p, r->f[1])) < 0)
		return;
	if (r->n > 2 && *r->f[2])
		ev.formula = r->f[2];
	if ((ev.derived == DERIVED_POSTFIX || ev.derived == DERIVED_INFIX) && !ev.formula)
		FAIL("%s: %s needs a formula in the postfix column", ev.name, r->f[1]);
	ev.sdesc = r->n > 3 && *r->f[3] ? r->f[3] : NULL;
	ev.ldesc = r->n > 4 && *r->f[4] ? r->f[4] : NULL;
	ev.note = r->n > 5 && *r->f[5] ? r->f[5] : NULL;
	for (int i = 6; i < r->n; i++) {
		if (!*r->f[i])
			continue;
		if (ev.nbase == PAPI_EVENTS_IN_DERIVED_EVENT)
			FAIL("%s: more than %d native events", ev.name,
				     PAPI_EVENTS_IN_DERIVED_EVENT);
		ev.base[ev.nbase++] = r->f[i];
	}
	if (ev.nbase == 0)
		FAIL("%s: no native event", ev.name);
	deliver(p, &ev);
}

static void record(struct parse *p, struct rec *r)
{
	const char *cmd = r->f[0];
	if (p->format == 0 && r->n >= 2 && !strcmp(cmd, "name") && !strcmp(r->f[1], "derived")) {
		p->format = 2;	/* the title line of papi decode's CSV */
		return;
	}
	if (p->format == 2) {
		csv_event_row(p, r);
		return;
	}
	if (!strncmp(cmd, "CPU", 3) && (cmd[3] == '\0' || isspace((unsigned char)cmd[3]))) {
		const char *inl = cmd + 3;
		while (isspace((unsigned char)*inl))
			inl++;
		def_cpu_row(p, r, *inl ? inl : NULL);
		p->format = 1;
		return;
	}
	if (!strcmp(cmd, "PRESET") || !strcmp(cmd, "EVENT")) {
		if (p->format == 0) {	/* rows before any CPU line apply everywhere */
			p->format = 1;
			p->applies = 1;
		}
		p->in_events = 1;
		if (p->applies)
			def_event_row(p, r);
		return;
	}
	p_err(p, "unknown command '%s' (CPU, PRESET or EVENT expected)", cmd);
}

/* deffile_lines: see naming.h. */
int deffile_lines(const char *text, size_t len, const struct deffile_lines_cb *cb)
{
	struct csv_parser cp;
	struct rec r = { 0 };
	int line = 0;
	if (csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return PAPI_ENOMEM;
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', end - s);
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *next = nl ? nl + 1 : end;
		line++;
		if (n && s[n - 1] == '\r')
			n--;
		size_t k = 0;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k == n || s[k] == '#' || memchr(s, '\0', n)) {
			if (k < n && s[k] != '#')
				cb->bad(cb->ctx, line, "NUL byte in line");
			s = next;
			continue;
		}
		if (csv_parse(&cp, s, n, on_field, on_row, &r) != n ||
		    csv_fini(&cp, on_field, on_row, &r) != 0) {
			char msg[160];
			snprintf(msg, sizeof msg, "malformed CSV: %s (quotes must enclose a whole field)",
				 csv_strerror(csv_error(&cp)));
			cb->bad(cb->ctx, line, msg);
			csv_free(&cp);
			if (csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
				rec_clear(&r);
				return PAPI_ENOMEM;
			}
		} else if (r.oom) {
			cb->bad(cb->ctx, line, "out of memory");
		} else if (r.overflow) {
			char msg[64];
			snprintf(msg, sizeof msg, "more than %d fields", MAX_FIELDS);
			cb->bad(cb->ctx, line, msg);
		} else {
			int empty = 1;
			for (int i = 0; i < r.n; i++)
				if (*r.f[i])
					empty = 0;
			if (!empty)
				cb->row(cb->ctx, line, r.f, r.n);
		}
		rec_clear(&r);
		s = next;
	}
	csv_free(&cp);
	return PAPI_OK;
}

static void p_row(void *ctx, int line, char **f, int n)
{
	struct parse *p = ctx;
	struct rec r = { .n = n };
	p->line = line;
	memcpy(r.f, f, (size_t)n * sizeof *f);
	record(p, &r);
}

static void p_bad(void *ctx, int line, const char *msg)
{
	struct parse *p = ctx;
	p->line = line;
	p_err(p, "%s", msg);
}

/* deffile_parse: see internal.h. */
int deffile_parse(const char *path, const char *text, size_t len, const struct deffile_sink *sink,
		  struct msgs *errs)
{
	struct parse p = { .path = path, .sink = sink, .errs = errs };
	struct deffile_lines_cb cb = { p_row, p_bad, &p };
	int r = deffile_lines(text, len, &cb);
	return r != PAPI_OK ? r : p.nerr;
}

/* deffile_read: see internal.h. */
int deffile_read(const char *path, char **text, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 8192, n = 0;
	char *buf;
	int ret = PAPI_OK;
	*text = NULL;
	*len = 0;
	if (!f)
		return PAPI_ESYS;
	buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
		if (cap - n - 1 == 0) {
			if (cap > ((size_t)64 << 20)) {	/* no definition file is this large */
				ret = PAPI_EINVAL;
				break;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	if (!buf || ferror(f))
		ret = buf ? PAPI_ESYS : PAPI_ENOMEM;
	if (f != stdin)
		fclose(f);
	if (ret != PAPI_OK) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return PAPI_OK;
}

/* Write s as a field of a definition file: quoted when it holds a comma, a
 * quote, a '#' or surrounding spaces, or when always is set. */
static void put_field(FILE *f, const char *s, int always)
{
	int q = always || !*s || strpbrk(s, ",\"#\r\n") || isspace((unsigned char)s[0]) ||
		isspace((unsigned char)s[strlen(s) - 1]) || s[0] == '\'';
	fputc(',', f);
	if (!q) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('"', f);
}

/* deffile_write_event: see internal.h. */
void deffile_write_event(FILE *f, const struct def_event *ev)
{
	fputs(ev->preset ? "PRESET" : "EVENT", f);
	put_field(f, ev->name, 0);
	put_field(f, formula_type_name(ev->derived), 0);
	if (ev->formula)
		put_field(f, ev->formula, 0);
	for (int i = 0; i < ev->nbase; i++)
		put_field(f, ev->base[i], 0);
	if (ev->ldesc) {
		fputs(",LDESC", f);
		put_field(f, ev->ldesc, 1);
	}
	if (ev->sdesc) {
		fputs(",SDESC", f);
		put_field(f, ev->sdesc, 1);
	}
	if (ev->note) {
		fputs(",NOTE", f);
		put_field(f, ev->note, 1);
	}
	fputc('\n', f);
}
