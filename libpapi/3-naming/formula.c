/* formula.c: derived-event formulas: postfix and infix compiled into a small stack program, evaluated on 64-bit integers; metric expressions over named terms, evaluated in floating point. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "3-naming/naming.h"

/*
 * A formula is a postfix program over the values of its terms (N0, N1, ...).
 * Arithmetic is done on unsigned 64-bit integers, so overflow wraps modulo
 * 2^64 (defined, never a trap) and the result is read back as a long long.
 * Division is signed (a count difference may be negative); x / 0 is 0, and
 * LLONG_MIN / -1 wraps to LLONG_MIN. The per-second operator scales by the
 * clock in Hz with a 128-bit intermediate, so it does not overflow for any
 * realistic count.
 */
enum { F_TERM, F_CONST, F_ADD, F_SUB, F_MUL, F_DIV, F_PS };

struct fop {
	int op;
	int arg;		/* term index of F_TERM */
	long long k;		/* value of F_CONST (its integer part in an expression) */
	double d;		/* value of F_CONST in floating point */
};

struct formula {
	int n;
	int depth;		/* deepest stack the program needs */
	struct fop op[];
};

/* Longest program accepted (PAPI's postfix strings hold at most 256 bytes). */
#define FORMULA_MAX_OPS 256
/* Deepest parenthesis nesting of an infix formula. */
#define INFIX_MAX_NEST 64

struct builder {
	struct fop op[FORMULA_MAX_OPS];
	int n;
	char *err;
	size_t errlen;
	int failed;
};

/* An empty builder: op[] is written only as far as the program goes (6 KB
 * zeroed per formula would touch pages a short formula never uses). */
static struct builder *b_new(void)
{
	struct builder *b = malloc(sizeof *b);
	if (b) {
		b->n = 0;
		b->err = NULL;
		b->errlen = 0;
		b->failed = 0;
	}
	return b;
}

static void b_fail(struct builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void b_fail(struct builder *b, const char *fmt, ...)
{
	if (b->failed)
		return;
	b->failed = 1;
	if (b->err && b->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(b->err, b->errlen, fmt, ap);
		va_end(ap);
	}
}

static void b_emit(struct builder *b, int op, int arg, long long k)
{
	if (b->failed)
		return;
	if (b->n == FORMULA_MAX_OPS) {
		b_fail(b, "formula too long (more than %d steps)", FORMULA_MAX_OPS);
		return;
	}
	b->op[b->n++] = (struct fop){ op, arg, k, (double)k };
}

/* Check the stack discipline and package the program. */
static int b_finish(struct builder *b, struct formula **out)
{
	int depth = 0, maxd = 0;
	if (b->failed)
		return PAPI_EINVAL;
	for (int i = 0; i < b->n; i++) {
		if (b->op[i].op == F_TERM || b->op[i].op == F_CONST)
			depth++;
		else if (depth < 2) {
			b_fail(b, "operator without two operands");
			return PAPI_EINVAL;
		} else
			depth--;
		if (depth > maxd)
			maxd = depth;
	}
	if (depth != 1) {
		b_fail(b, depth ? "operands left over (missing operator)" : "empty formula");
		return PAPI_EINVAL;
	}
	struct formula *f = malloc(sizeof *f + b->n * sizeof f->op[0]);
	if (!f)
		return PAPI_ENOMEM;
	f->n = b->n;
	f->depth = maxd;
	memcpy(f->op, b->op, b->n * sizeof f->op[0]);
	*out = f;
	return PAPI_OK;
}

/* Parse a decimal number at *s ("N" already skipped for terms). */
static int parse_num(struct builder *b, const char **s, unsigned long long max, long long *v)
{
	const char *p = *s;
	unsigned long long x = 0;
	if (*p < '0' || *p > '9') {
		b_fail(b, "number expected at '%.20s'", p);
		return -1;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = *p - '0';
		if (x > (max - d) / 10) {
			b_fail(b, "number too large at '%.20s'", *s);
			return -1;
		}
		x = x * 10 + d;
	}
	*s = p;
	*v = (long long)x;
	return 0;
}

static void emit_term(struct builder *b, const char **s, int nterms)
{
	long long i;
	if (parse_num(b, s, 1000, &i))
		return;
	if (i >= nterms)
		b_fail(b, "N%lld names a base event that is not there (%d given)", i, nterms);
	b_emit(b, F_TERM, (int)i, 0);
}

static int op_of(char c)
{
	switch (c) {
	case '+': return F_ADD;
	case '-': return F_SUB;
	case '*': return F_MUL;
	case '/': return F_DIV;
	}
	return -1;
}

/* Postfix: tokens separated by '|' ("N0|N1|3|*|+|"); the last '|' is optional. */
static void parse_postfix(struct builder *b, const char *s, int nterms)
{
	while (*s && !b->failed) {
		const char *tok = s;
		size_t len = strcspn(s, "|");
		if (len == 0) {
			b_fail(b, "empty token in postfix formula");
			return;
		}
		if (len == 1 && op_of(*s) >= 0) {
			b_emit(b, op_of(*s), 0, 0);
			s++;
		} else if (*s == 'N') {
			s++;
			emit_term(b, &s, nterms);
		} else {
			long long v;
			if (parse_num(b, &s, (unsigned long long)INT64_MAX, &v) == 0)
				b_emit(b, F_CONST, 0, v);
		}
		if (b->failed)
			return;
		if (s != tok + len) {
			b_fail(b, "bad token '%.*s' in postfix formula", (int)len, tok);
			return;
		}
		if (*s == '|')
			s++;
	}
}

/* Infix by recursive descent: expr = term {(+|-) term}; term = factor {(*|/)
 * factor}; factor = Nk | number | (expr) | -factor. Loops keep + - * /
 * left-associative: N0-N1-N2 is (N0-N1)-N2. */
struct infix {
	struct builder *b;
	const char *s;
	int nterms;
	int nest;
	/* Expressions (formula_compile_expr): names instead of Nk, decimals. */
	int (*lookup)(void *ctx, const char *name, size_t len);
	void *ctx;
};

static int is_name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/* A decimal number of an expression: digits, an optional fraction and an
 * optional exponent ("64", "0.5", "1e9", "2.5E-3"), read without the
 * locale (strtod would take the locale's decimal point). Exact for
 * integers below 2^53 and powers of ten up to 1e22. */
static void ix_decimal(struct infix *x)
{
	const char *p = x->s;
	double v = 0, scale = 1;
	int digits = 0, exp = 0;
	for (; *p >= '0' && *p <= '9'; p++, digits++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			v = v * 10 + (*p - '0');
			exp--;
		}
	if (!digits) {
		b_fail(x->b, "number expected at '%.20s'", x->s);
		return;
	}
	if (*p == 'e' || *p == 'E') {
		int sign = 1, e = 0;
		const char *q = p + 1;
		if (*q == '+' || *q == '-')
			sign = *q++ == '-' ? -1 : 1;
		if (*q < '0' || *q > '9') {
			b_fail(x->b, "exponent expected at '%.20s'", x->s);
			return;
		}
		for (; *q >= '0' && *q <= '9'; q++)
			if (e < 10000)
				e = e * 10 + (*q - '0');
		exp += sign * e;
		p = q;
	}
	if (exp < -330 || exp > 310) {
		b_fail(x->b, "number out of range at '%.20s'", x->s);
		return;
	}
	for (int i = 0; i < (exp < 0 ? -exp : exp); i++)
		scale *= 10;
	v = exp < 0 ? v / scale : v * scale;
	if (is_name_char(*p)) {
		b_fail(x->b, "bad number at '%.20s'", x->s);
		return;
	}
	x->s = p;
	b_emit(x->b, F_CONST, 0, v < 9.2e18 ? (long long)v : LLONG_MAX);
	if (!x->b->failed)
		x->b->op[x->b->n - 1].d = v;
}

/* A name of an expression: its term index from the lookup. */
static void ix_name(struct infix *x)
{
	const char *p = x->s;
	while (is_name_char(*p))
		p++;
	size_t len = (size_t)(p - x->s);
	int t = x->lookup(x->ctx, x->s, len);
	if (t < 0) {
		b_fail(x->b, "unknown name '%.*s'", len > 64 ? 64 : (int)len, x->s);
		return;
	}
	if (t > 1000) {
		b_fail(x->b, "name '%.*s' has term %d (at most 1000)", len > 64 ? 64 : (int)len, x->s, t);
		return;
	}
	x->s = p;
	b_emit(x->b, F_TERM, t, 0);
}

static void ix_expr(struct infix *x);

static char ix_peek(struct infix *x)
{
	while (*x->s == ' ' || *x->s == '\t')
		x->s++;
	return *x->s;
}

static void ix_factor(struct infix *x)
{
	char c = ix_peek(x);
	if (x->b->failed)
		return;
	if (c == '(') {
		if (++x->nest > INFIX_MAX_NEST) {
			b_fail(x->b, "parentheses nested too deeply");
			return;
		}
		x->s++;
		ix_expr(x);
		if (ix_peek(x) != ')')
			b_fail(x->b, "')' expected at '%.20s'", x->s);
		else
			x->s++;
		x->nest--;
	} else if (x->lookup && is_name_start(c)) {
		ix_name(x);
	} else if (x->lookup && ((c >= '0' && c <= '9') || c == '.')) {
		ix_decimal(x);
	} else if (c == 'N') {
		x->s++;
		emit_term(x->b, &x->s, x->nterms);
	} else if (c >= '0' && c <= '9') {
		long long v;
		if (parse_num(x->b, &x->s, (unsigned long long)INT64_MAX, &v) == 0)
			b_emit(x->b, F_CONST, 0, v);
	} else if (c == '-') {
		if (++x->nest > INFIX_MAX_NEST) {
			b_fail(x->b, "too many signs in a row");
			return;
		}
		x->s++;
		b_emit(x->b, F_CONST, 0, 0);
		ix_factor(x);
		b_emit(x->b, F_SUB, 0, 0);
		x->nest--;
	} else {
		b_fail(x->b, c ? "operand expected at '%.20s'" : "operand expected at end%.0s", x->s);
	}
}

static void ix_term(struct infix *x)
{
	ix_factor(x);
	for (char c; !x->b->failed && ((c = ix_peek(x)) == '*' || c == '/');) {
		x->s++;
		ix_factor(x);
		b_emit(x->b, op_of(c), 0, 0);
	}
}

static void ix_expr(struct infix *x)
{
	ix_term(x);
	for (char c; !x->b->failed && ((c = ix_peek(x)) == '+' || c == '-');) {
		x->s++;
		ix_term(x);
		b_emit(x->b, op_of(c), 0, 0);
	}
}

/* formula_compile: see internal.h. */
int formula_compile(int type, const char *text, int nterms, struct formula **out, char *err,
		    size_t errlen)
{
	struct builder *b = b_new();
	if (!b)
		return PAPI_ENOMEM;
	b->err = err;
	b->errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	*out = NULL;
	if (nterms < 1 || nterms > PAPI_EVENTS_IN_DERIVED_EVENT)
		b_fail(b, "%d base events (1 to %d allowed)", nterms, PAPI_EVENTS_IN_DERIVED_EVENT);
	else if (type == DERIVED_POSTFIX || type == DERIVED_INFIX) {
		if (!text || !*text)
			b_fail(b, "missing formula");
		else if (type == DERIVED_POSTFIX)
			parse_postfix(b, text, nterms);
		else {
			struct infix x = { b, text, nterms, 0, NULL, NULL };
			ix_expr(&x);
			if (!b->failed && ix_peek(&x))
				b_fail(b, "unexpected '%.20s' in infix formula", x.s);
		}
	} else {
		static const int need[] = {
			[NOT_DERIVED] = 1, [DERIVED_ADD] = 1, [DERIVED_SUB] = 1, [DERIVED_CMPD] = 1,
			[DERIVED_PS] = 2, [DERIVED_ADD_PS] = 2,
		};
		if (type < 0 || type > DERIVED_SUB || (type && !need[type]))
			b_fail(b, "unknown derived type %d", type);
		else if (nterms < need[type])
			b_fail(b, "%s needs at least %d base events", formula_type_name(type),
			       need[type]);
		else if (type == NOT_DERIVED && nterms != 1)
			b_fail(b, "NOT_DERIVED takes exactly one base event");
		else if (type == DERIVED_PS && nterms != 2)
			b_fail(b, "DERIVED_PS takes PAPI_TOT_CYC and one event");
		else if (type == DERIVED_ADD_PS && nterms != 3)
			b_fail(b, "DERIVED_ADD_PS takes PAPI_TOT_CYC and two events");
		else if (type == NOT_DERIVED || type == DERIVED_CMPD)
			b_emit(b, F_TERM, 0, 0);
		else if (type == DERIVED_ADD || type == DERIVED_SUB) {
			b_emit(b, F_TERM, 0, 0);
			for (int i = 1; i < nterms; i++) {
				b_emit(b, F_TERM, i, 0);
				b_emit(b, type == DERIVED_ADD ? F_ADD : F_SUB, 0, 0);
			}
		} else {	/* PS: N1 * Hz / N0; ADD_PS: (N1 + N2) * Hz / N0 */
			b_emit(b, F_TERM, 1, 0);
			if (type == DERIVED_ADD_PS) {
				b_emit(b, F_TERM, 2, 0);
				b_emit(b, F_ADD, 0, 0);
			}
			b_emit(b, F_TERM, 0, 0);
			b_emit(b, F_PS, 0, 0);
		}
	}
	int r = b_finish(b, out);
	free(b);
	return r;
}

/* formula_compile_expr: see naming.h. */
int formula_compile_expr(const char *text, int (*lookup)(void *ctx, const char *name, size_t len),
			 void *ctx, struct formula **out, char *err, size_t errlen)
{
	struct builder *b = b_new();
	if (!b)
		return PAPI_ENOMEM;
	b->err = err;
	b->errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	*out = NULL;
	if (!text || !*text) {
		b_fail(b, "missing formula");
	} else {
		struct infix x = { b, text, 0, 0, lookup, ctx };
		ix_expr(&x);
		if (!b->failed && ix_peek(&x))
			b_fail(b, "unexpected '%.20s' in formula", x.s);
	}
	int r = b_finish(b, out);
	free(b);
	return r;
}

/* formula_substitute: see internal.h. */
int formula_substitute(const struct formula *outer, const struct formula *const *sub, int nsub,
		       struct formula **out)
{
	struct builder *b = b_new();
	if (!b)
		return PAPI_ENOMEM;
	*out = NULL;
	for (int i = 0; i < outer->n && !b->failed; i++) {
		const struct fop *o = &outer->op[i];
		if (o->op != F_TERM) {
			b_emit(b, o->op, o->arg, o->k);
			if (!b->failed)
				b->op[b->n - 1].d = o->d;
			continue;
		}
		if (o->arg >= nsub || !sub[o->arg]) {
			b_fail(b, "term without a definition");
			break;
		}
		const struct formula *s = sub[o->arg];
		for (int j = 0; j < s->n && !b->failed; j++) {
			b_emit(b, s->op[j].op, s->op[j].arg, s->op[j].k);
			if (!b->failed)
				b->op[b->n - 1].d = s->op[j].d;
		}
	}
	int r = b_finish(b, out);
	free(b);
	return r;
}

/* formula_remap: see internal.h. */
int formula_remap(const struct formula *f, const int *map, struct formula **out)
{
	size_t sz = sizeof *f + f->n * sizeof f->op[0];
	struct formula *c = malloc(sz);
	if (!c)
		return PAPI_ENOMEM;
	memcpy(c, f, sz);
	for (int i = 0; i < c->n; i++)
		if (c->op[i].op == F_TERM)
			c->op[i].arg = map[c->op[i].arg];
	*out = c;
	return PAPI_OK;
}

void formula_free(struct formula *f)
{
	free(f);
}

/* formula_eval: see internal.h and the arithmetic rules at the top. */
long long formula_eval(const struct formula *f, const long long *vals)
{
	unsigned long long st[FORMULA_MAX_OPS];
	int sp = 0;
	double mhz = 0;
	for (int i = 0; i < f->n; i++) {
		const struct fop *o = &f->op[i];
		unsigned long long a, b;
		switch (o->op) {
		case F_TERM:
			st[sp++] = (unsigned long long)vals[o->arg];
			continue;
		case F_CONST:
			st[sp++] = (unsigned long long)o->k;
			continue;
		}
		b = st[--sp];
		a = st[sp - 1];
		switch (o->op) {
		case F_ADD: a += b; break;
		case F_SUB: a -= b; break;
		case F_MUL: a *= b; break;
		case F_DIV:
			if (b == 0)
				a = 0;
			else if ((long long)b == -1)	/* also keeps LLONG_MIN / -1 defined */
				a = -a;
			else
				a = (unsigned long long)((long long)a / (long long)b);
			break;
		case F_PS:
			if (mhz == 0)
				mhz = hwinfo_mhz();
			if (b == 0) {
				a = 0;
			} else {
				__int128 hz = (__int128)(mhz * 1e6 + 0.5);
				a = (unsigned long long)((__int128)(long long)a * hz / (long long)b);
			}
			break;
		}
		st[sp - 1] = a;
	}
	return (long long)st[0];
}

/* formula_eval_double: see naming.h. */
double formula_eval_double(const struct formula *f, const double *vals)
{
	double st[FORMULA_MAX_OPS];
	int sp = 0;
	for (int i = 0; i < f->n; i++) {
		const struct fop *o = &f->op[i];
		switch (o->op) {
		case F_TERM:
			st[sp++] = vals[o->arg];
			continue;
		case F_CONST:
			st[sp++] = o->d;
			continue;
		}
		double b = st[--sp], a = st[sp - 1];
		switch (o->op) {
		case F_ADD: a += b; break;
		case F_SUB: a -= b; break;
		case F_MUL: a *= b; break;
		case F_DIV: a = b == 0 ? NAN : a / b; break;
		case F_PS: a = b == 0 ? NAN : a * hwinfo_mhz() * 1e6 / b; break;
		}
		st[sp - 1] = a;
	}
	return st[0];
}

/* formula_terms: see naming.h. */
int formula_terms(const struct formula *f, int *terms, int max)
{
	int n = 0;
	for (int i = 0; i < f->n; i++) {
		if (f->op[i].op != F_TERM)
			continue;
		int seen = 0;
		for (int k = 0; k < n && k < max; k++)
			if (terms[k] == f->op[i].arg)
				seen = 1;
		if (seen)
			continue;
		if (n < max)
			terms[n] = f->op[i].arg;
		n++;
	}
	return n;
}

/* formula_to_postfix: see internal.h. */
int formula_to_postfix(const struct formula *f, char *buf, size_t len)
{
	size_t pos = 0;
	if (len)
		buf[0] = '\0';
	for (int i = 0; i < f->n; i++) {
		const struct fop *o = &f->op[i];
		int w;
		if (o->op == F_PS || (o->op == F_CONST && o->d != (double)o->k))
			return PAPI_EINVAL;
		if (o->op == F_TERM)
			w = snprintf(buf + pos, len - pos, "N%d|", o->arg);
		else if (o->op == F_CONST)
			w = snprintf(buf + pos, len - pos, "%lld|", o->k);
		else
			w = snprintf(buf + pos, len - pos, "%c|", "  +-*/"[o->op]);
		if (w < 0 || (size_t)w >= len - pos)
			return PAPI_EBUF;
		pos += w;
	}
	return PAPI_OK;
}

/* formula_shape: see internal.h. */
int formula_shape(const struct formula *f, int nterms)
{
	const struct fop *o = f->op;
	if (f->n == 1 && o[0].op == F_TERM && o[0].arg == 0 && nterms == 1)
		return NOT_DERIVED;
	if (f->n == 2 * nterms - 1 && o[0].op == F_TERM && o[0].arg == 0) {
		int add = 1, sub = 1;
		for (int i = 1; i < nterms; i++) {
			const struct fop *t = &o[2 * i - 1], *op = &o[2 * i];
			if (t->op != F_TERM || t->arg != i)
				add = sub = 0;
			if (op->op != F_ADD)
				add = 0;
			if (op->op != F_SUB)
				sub = 0;
		}
		if (add)
			return DERIVED_ADD;
		if (sub)
			return DERIVED_SUB;
	}
	for (int i = 0; i < f->n; i++)
		if (o[i].op == F_PS)
			return nterms == 3 ? DERIVED_ADD_PS : DERIVED_PS;
	return DERIVED_POSTFIX;
}

/* Names of the derived types as the definition files and PAPI 7 spell them. */
static const struct {
	int type;
	const char *name;
} type_names[] = {
	{ NOT_DERIVED, "NOT_DERIVED" }, { DERIVED_ADD, "DERIVED_ADD" },
	{ DERIVED_PS, "DERIVED_PS" }, { DERIVED_ADD_PS, "DERIVED_ADD_PS" },
	{ DERIVED_CMPD, "DERIVED_CMPD" }, { DERIVED_SUB, "DERIVED_SUB" },
	{ DERIVED_POSTFIX, "DERIVED_POSTFIX" }, { DERIVED_INFIX, "DERIVED_INFIX" },
};

/* formula_type_name: see internal.h. */
const char *formula_type_name(int type)
{
	for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
		if (type_names[i].type == type)
			return type_names[i].name;
	return "UNKNOWN";
}

/* formula_type_parse: see internal.h. */
int formula_type_parse(const char *name)
{
	for (size_t i = 0; name && i < sizeof type_names / sizeof type_names[0]; i++)
		if (strcmp(type_names[i].name, name) == 0)
			return type_names[i].type;
	return -1;
}

/* derived_eval: see internal.h. A definition without a program is a plain
 * sum or difference of its terms, or its first term. */
long long derived_eval(const struct derived_def *d, const long long *vals)
{
	if (d->f)
		return formula_eval(d->f, vals);
	unsigned long long v = (unsigned long long)vals[0];
	if (d->derived == DERIVED_ADD || d->derived == DERIVED_SUB)
		for (int i = 1; i < d->nterms; i++)
			v = d->derived == DERIVED_SUB ? v - (unsigned long long)vals[i]
						      : v + (unsigned long long)vals[i];
	return (long long)v;
}
