/* t_formula.c: derived-event formulas: postfix and infix parsing, precedence, every derived type, wrap-around and division rules. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

#define MX LLONG_MAX
#define MN LLONG_MIN

/* Values of N0..N3 every row is evaluated with unless it gives its own. */
static const long long V[] = { 100, 30, 7, 2 };

static const struct row {
	int line;
	int type;
	const char *text;
	int nterms;
	long long want;		/* ignored when bad */
	int bad;		/* compile must fail */
	long long vals[4];	/* all zero: use V */
} rows[] = {
	/* infix: left associativity (PAPI 7 computes N0-(N1-N2) = 77) */
	{ __LINE__, DERIVED_INFIX, "N0-N1-N2", 3, 63, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0/N1/N2", 3, 0, 0, { 0 } },	/* (100/30)/7 = 3/7 */
	{ __LINE__, DERIVED_INFIX, "N0/N2/N3", 4, 7, 0, { 0 } },	/* (100/7)/2 */
	{ __LINE__, DERIVED_INFIX, "N0-N1+N2", 3, 77, 0, { 0 } },
	/* precedence and parentheses */
	{ __LINE__, DERIVED_INFIX, "N0+N1*N2", 3, 310, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "(N0+N1)*N2", 3, 910, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0-(N1+(N2*5))", 3, 35, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0 - N1 * 2 / N3", 4, 70, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "((((N0))))", 1, 100, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "-N1+N0", 2, 70, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0+(N1*3)", 2, 190, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "42", 1, 42, 0, { 0 } },
	/* postfix */
	{ __LINE__, DERIVED_POSTFIX, "N0|N1|+|", 2, 130, 0, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0|N1|+", 2, 130, 0, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0|N1|N2|5|*|+|-|", 3, 35, 0, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0|N1|3|*|+|", 2, 190, 0, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0|N1|-|N2|-|", 3, 63, 0, { 0 } },
	/* fixed types */
	{ __LINE__, NOT_DERIVED, NULL, 1, 100, 0, { 0 } },
	{ __LINE__, DERIVED_ADD, NULL, 3, 137, 0, { 0 } },
	{ __LINE__, DERIVED_ADD, NULL, 1, 100, 0, { 0 } },
	{ __LINE__, DERIVED_SUB, NULL, 3, 63, 0, { 0 } },
	{ __LINE__, DERIVED_SUB, NULL, 4, 61, 0, { 0 } },
	{ __LINE__, DERIVED_CMPD, NULL, 2, 100, 0, { 0 } },
	/* division by zero is 0, wherever it happens */
	{ __LINE__, DERIVED_INFIX, "N0/N1", 2, 0, 0, { 5, 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0|0|/|", 1, 0, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0/(N1-N1)+1", 2, 1, 0, { 0 } },
	/* 64-bit limits: wrap-around, never a trap */
	{ __LINE__, DERIVED_ADD, NULL, 2, MN, 0, { MX, 1 } },
	{ __LINE__, DERIVED_SUB, NULL, 2, MX, 0, { MN, 1 } },
	{ __LINE__, DERIVED_INFIX, "N0*2", 1, -2, 0, { MX } },
	{ __LINE__, DERIVED_INFIX, "N0/N1", 2, MN, 0, { MN, -1 } },
	{ __LINE__, DERIVED_INFIX, "N0/N1", 2, -3, 0, { -7, 2 } },
	{ __LINE__, DERIVED_INFIX, "N0+N1", 2, MX, 0, { MX - 5, 5 } },
	{ __LINE__, DERIVED_POSTFIX, "9223372036854775807|", 1, MX, 0, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0 * 1000000007", 1, 3000000030000000063LL, 0, { 3000000000LL + 9 } },
	/* malformed */
	{ __LINE__, DERIVED_INFIX, "", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, NULL, 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0-", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "(N0", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0)", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0 N1", 2, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N2", 2, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0^2", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "9223372036854775808", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_INFIX, "N0+*N1", 2, 0, 1, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0|+|", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0|N1|", 2, 0, 1, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0||N1|+|", 2, 0, 1, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0|N1|x|", 2, 0, 1, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N0x|", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "N9|", 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_POSTFIX, "|", 1, 0, 1, { 0 } },
	{ __LINE__, NOT_DERIVED, NULL, 2, 0, 1, { 0 } },
	{ __LINE__, DERIVED_PS, NULL, 1, 0, 1, { 0 } },
	{ __LINE__, DERIVED_ADD_PS, NULL, 2, 0, 1, { 0 } },
	{ __LINE__, DERIVED_ADD, NULL, 0, 0, 1, { 0 } },
	{ __LINE__, DERIVED_ADD, NULL, 9, 0, 1, { 0 } },
	{ __LINE__, 3, NULL, 1, 0, 1, { 0 } },
};

static void test_rows(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		struct formula *f = NULL;
		char err[128];
		int ret = formula_compile(r->type, r->text, r->nterms, &f, err, sizeof err);
		if (r->bad) {
			ok(ret == PAPI_EINVAL && !f && err[0], "line %d: '%s' refused (%s)", r->line,
			   r->text ? r->text : "(null)", err);
			continue;
		}
		if (!ok(ret == PAPI_OK, "line %d: '%s' compiles (%s)", r->line,
			r->text ? r->text : formula_type_name(r->type), ret ? err : "ok"))
			continue;
		int own = r->vals[0] || r->vals[1];
		is_int(formula_eval(f, own ? r->vals : V), r->want, "line %d: value", r->line);
		formula_free(f);
	}
}

/* DERIVED_PS: N1 events per second of N0 cycles at the nominal clock. */
static void test_per_second(void)
{
	struct formula *ps, *aps;
	long long hz = (long long)(hwinfo_mhz() * 1e6 + 0.5);
	ok(formula_compile(DERIVED_PS, NULL, 2, &ps, NULL, 0) == PAPI_OK, "DERIVED_PS compiles");
	ok(formula_compile(DERIVED_ADD_PS, NULL, 3, &aps, NULL, 0) == PAPI_OK,
	   "DERIVED_ADD_PS compiles");
	/* Half a second of cycles and 1000 events: 2000 per second. */
	long long v[3] = { hz / 2, 1000, 500 };
	long long want = (long long)((__int128)1000 * hz / (hz / 2));
	is_int(formula_eval(ps, v), want, "PS: events * Hz / cycles");
	want = (long long)((__int128)1500 * hz / (hz / 2));
	is_int(formula_eval(aps, v), want, "ADD_PS: (a + b) * Hz / cycles");
	/* Large counts do not overflow through the intermediate product. */
	long long big[2] = { 4 * hz, 3000000000000LL };
	is_int(formula_eval(ps, big), 750000000000LL, "PS: 128-bit intermediate");
	long long zero[3] = { 0, 10, 10 };
	is_int(formula_eval(ps, zero), 0, "PS: zero cycles gives 0");
	is_int(formula_eval(aps, zero), 0, "ADD_PS: zero cycles gives 0");
	is_int(formula_shape(ps, 2), DERIVED_PS, "PS shape");
	char buf[64];
	is_int(formula_to_postfix(ps, buf, sizeof buf), PAPI_EINVAL, "PS has no postfix spelling");
	formula_free(ps);
	formula_free(aps);
}

static void test_render_and_compose(void)
{
	struct formula *f, *g, *h, *s;
	char buf[128];
	formula_compile(DERIVED_INFIX, "N0-N1-N2*3", 3, &f, NULL, 0);
	ok(formula_to_postfix(f, buf, sizeof buf) == PAPI_OK, "infix renders as postfix");
	is_str(buf, "N0|N1|-|N2|3|*|-|", "postfix of an infix formula");
	formula_compile(DERIVED_POSTFIX, buf, 3, &g, NULL, 0);
	is_int(formula_eval(g, V), formula_eval(f, V), "rendered postfix computes the same");
	is_int(formula_to_postfix(f, buf, 8), PAPI_EBUF, "short buffer: PAPI_EBUF");
	/* Substitute: outer N0-N1 with N0 := T2+T0 and N1 := T1. */
	struct formula *add, *one, *a2, *b1;
	formula_compile(DERIVED_SUB, NULL, 2, &h, NULL, 0);
	formula_compile(DERIVED_ADD, NULL, 2, &add, NULL, 0);
	formula_compile(NOT_DERIVED, NULL, 1, &one, NULL, 0);
	int m1[] = { 2, 0 }, m2[] = { 1 };
	formula_remap(add, m1, &a2);
	formula_remap(one, m2, &b1);
	const struct formula *sub[] = { a2, b1 };
	ok(formula_substitute(h, sub, 2, &s) == PAPI_OK, "substitute");
	long long v[3] = { 5, 3, 11 };
	is_int(formula_eval(s, v), 13, "(T2+T0)-T1");
	is_int(formula_shape(s, 3), DERIVED_POSTFIX, "composed shape is a postfix");
	is_int(formula_shape(add, 2), DERIVED_ADD, "ADD shape");
	is_int(formula_shape(h, 2), DERIVED_SUB, "SUB shape");
	is_int(formula_shape(one, 1), NOT_DERIVED, "identity shape");
	const struct formula *bad[] = { a2 };
	struct formula *x = NULL;
	is_int(formula_substitute(h, bad, 1, &x), PAPI_EINVAL, "missing substitute refused");
	ok(x == NULL, "nothing returned on failure");
	struct formula *all[] = { f, g, h, s, add, one, a2, b1 };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		formula_free(all[i]);
}

static void test_names_and_eval(void)
{
	static const int types[] = { NOT_DERIVED, DERIVED_ADD, DERIVED_PS, DERIVED_ADD_PS,
				     DERIVED_CMPD, DERIVED_SUB, DERIVED_POSTFIX, DERIVED_INFIX };
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		is_int(formula_type_parse(formula_type_name(types[i])), types[i], "type name %s",
		       formula_type_name(types[i]));
	is_int(formula_type_parse("DERIVED_MUL"), -1, "unknown type name");
	is_str(formula_type_name(12345), "UNKNOWN", "unknown type value");
	/* derived_eval without a program: sum, difference, first term. */
	struct derived_def d = { .nterms = 3, .derived = DERIVED_SUB };
	is_int(derived_eval(&d, V), 63, "derived_eval SUB without program");
	d.derived = DERIVED_ADD;
	is_int(derived_eval(&d, V), 137, "derived_eval ADD without program");
	struct formula *f;
	formula_compile(DERIVED_INFIX, "N0*N1", 2, &f, NULL, 0);
	d.f = f;
	is_int(derived_eval(&d, V), 3000, "derived_eval runs the program");
	formula_free(f);
}

/* Metric expressions: names looked up in a table, decimals, doubles. */
static const char *const expr_names[] = { "ins", "cyc", "time", "a_b2" };

static int expr_lookup(void *ctx, const char *name, size_t len)
{
	int *calls = ctx;
	(*calls)++;
	for (int i = 0; i < 4; i++)
		if (strlen(expr_names[i]) == len && !strncmp(expr_names[i], name, len))
			return i;
	return -1;
}

static void test_expr(void)
{
	static const double ev[] = { 3000, 2000, 0.5, 7 };	/* ins, cyc, time, a_b2 */
	static const struct {
		int line;
		const char *text;
		double want;	/* NAN: compile must fail */
		int nterms;	/* distinct terms used */
		int first;	/* first term used */
	} xrows[] = {
		{ __LINE__, "ins / cyc", 1.5, 2, 0 },
		{ __LINE__, "cyc/ins", 2000.0 / 3000.0, 2, 1 },
		{ __LINE__, "ins / time / 1e9", 3000 / 0.5 / 1e9, 2, 0 },
		{ __LINE__, "64 * cyc / time * 1.0E-06", 64 * 2000 / 0.5 * 1e-6, 2, 1 },
		{ __LINE__, "100 * (ins - cyc) / ins", 100.0 * 1000 / 3000, 2, 0 },
		{ __LINE__, "-a_b2 + 0.25", -6.75, 1, 3 },
		{ __LINE__, ".5 * ins", 1500, 1, 0 },
		{ __LINE__, "2.5e+2", 250, 0, -1 },
		{ __LINE__, "ins - cyc - a_b2", 993, 3, 0 },
		{ __LINE__, "ins / cyc * ins / cyc", 2.25, 2, 0 },
		{ __LINE__, "nope / cyc", NAN, 0, 0 },
		{ __LINE__, "ins /", NAN, 0, 0 },
		{ __LINE__, "1e", NAN, 0, 0 },
		{ __LINE__, "3x", NAN, 0, 0 },
		{ __LINE__, "ins cyc", NAN, 0, 0 },
		{ __LINE__, "N0", NAN, 0, 0 },
		{ __LINE__, "(ins", NAN, 0, 0 },
		{ __LINE__, "", NAN, 0, 0 },
		{ __LINE__, "1e999", NAN, 0, 0 },
	};
	for (size_t i = 0; i < sizeof xrows / sizeof xrows[0]; i++) {
		struct formula *f = NULL;
		char err[128];
		int calls = 0;
		int ret = formula_compile_expr(xrows[i].text, expr_lookup, &calls, &f, err, sizeof err);
		if (isnan(xrows[i].want)) {
			ok(ret == PAPI_EINVAL && !f && err[0], "line %d: '%s' refused (%s)", xrows[i].line,
			   xrows[i].text, err);
			continue;
		}
		if (!ok(ret == PAPI_OK, "line %d: '%s' compiles (%s)", xrows[i].line, xrows[i].text,
			ret ? err : "ok"))
			continue;
		double got = formula_eval_double(f, ev);
		ok(fabs(got - xrows[i].want) <= 1e-12 * fabs(xrows[i].want), "line %d: %s = %g (got %g)",
		   xrows[i].line, xrows[i].text, xrows[i].want, got);
		int t[8];
		is_int(formula_terms(f, t, 8), xrows[i].nterms, "line %d: terms used", xrows[i].line);
		if (xrows[i].nterms)
			is_int(t[0], xrows[i].first, "line %d: first term used", xrows[i].line);
		formula_free(f);
	}
	/* A division by zero cannot be computed: NaN, not 0 or a trap. */
	struct formula *f = NULL;
	int calls = 0;
	formula_compile_expr("ins / (cyc - cyc) + 1", expr_lookup, &calls, &f, NULL, 0);
	ok(f && isnan(formula_eval_double(f, ev)), "x / 0 gives NaN, and NaN spreads");
	char buf[64];
	is_int(formula_to_postfix(f, buf, sizeof buf), PAPI_OK, "integer constants render as postfix");
	formula_free(f);
	formula_compile_expr("ins * 0.5", expr_lookup, &calls, &f, NULL, 0);
	is_int(formula_to_postfix(f, buf, sizeof buf), PAPI_EINVAL, "a fraction has no postfix spelling");
	formula_free(f);
	/* A long name is cut in the message; the term limit holds. */
	char err[128], longname[300];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	is_int(formula_compile_expr(longname, expr_lookup, &calls, &f, err, sizeof err), PAPI_EINVAL,
	       "unknown long name refused");
	ok(strlen(err) < 100, "and the message stays short: %s", err);
	/* Old infix formulas still read N0 as a term, not as a name. */
	formula_compile(DERIVED_INFIX, "N0*2", 1, &f, NULL, 0);
	long long one[1] = { 21 };
	is_int(formula_eval(f, one), 42, "infix N0 unchanged");
	double dv[1] = { 21 };
	ok(formula_eval_double(f, dv) == 42.0, "an integer formula evaluates in doubles too");
	formula_free(f);
}

/* "N0|N0|+|N0|+|...": 1 + 2k steps summing k + 1 times N0, as postfix or
 * (with infix set) as "N0+N0+...". */
static char *sum_text(int k, int infix)
{
	char *t = malloc(8 + (size_t)k * 8);
	if (!t)
		return NULL;
	strcpy(t, infix ? "N0" : "N0|");
	for (int i = 0; i < k; i++)
		strcat(t, infix ? "+N0" : "N0|+|");
	return t;
}

static int n0_lookup(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	return len == 2 && !strncmp(name, "N0", 2) ? 0 : -1;
}

/* Programs up to the 256 steps a formula may have compile and compute;
 * one step more is refused, with the limit named. */
static void test_long(void)
{
	static const long long one[] = { 3 };
	char err[128];
	for (int infix = 0; infix <= 1; infix++) {
		const char *how = infix ? "infix" : "postfix";
		for (int k = 15; k <= 128; k += k < 127 ? 16 : 1) {
			char *t = sum_text(k, infix);
			struct formula *f = NULL;
			int ret = infix ? formula_compile_expr(t, n0_lookup, NULL, &f, err, sizeof err)
					: formula_compile(DERIVED_POSTFIX, t, 1, &f, err, sizeof err);
			if (2 * k + 1 <= 256) {
				if (ok(ret == PAPI_OK, "%s of %d steps compiles (%s)", how, 2 * k + 1, ret ? err : "ok"))
					is_int(formula_eval(f, one), 3LL * (k + 1), "%s of %d steps: value", how, 2 * k + 1);
			} else {
				ok(ret == PAPI_EINVAL && !f && strstr(err, "more than 256 steps"),
				   "%s of %d steps refused: %s", how, 2 * k + 1, err);
			}
			formula_free(f);
			free(t);
		}
	}
	/* a substitution's program is built the same way: (81) + (81) + 1 */
	char *t = sum_text(40, 0);
	struct formula *outer = NULL, *s40 = NULL, *sum = NULL;
	formula_compile(DERIVED_POSTFIX, "N0|N1|+|", 2, &outer, NULL, 0);
	formula_compile(DERIVED_POSTFIX, t, 1, &s40, NULL, 0);
	const struct formula *sub[2] = { s40, s40 };
	is_int(formula_substitute(outer, sub, 2, &sum), PAPI_OK, "substitute into 163 steps");
	is_int(formula_eval(sum, one), 3LL * 82, "which compute");
	formula_free(sum);
	sum = NULL;
	char *t70 = sum_text(70, 0);
	struct formula *s70 = NULL;
	formula_compile(DERIVED_POSTFIX, t70, 1, &s70, NULL, 0);
	const struct formula *sub70[2] = { s70, s70 };
	is_int(formula_substitute(outer, sub70, 2, &sum), PAPI_EINVAL, "one of 283 steps refused");
	ok(sum == NULL, "and nothing returned");
	formula_free(outer);
	formula_free(s40);
	formula_free(s70);
	free(t);
	free(t70);
}

int main(void)
{
	test_long();
	test_expr();
	test_rows();
	test_per_second();
	test_render_and_compose();
	test_names_and_eval();
	return tap_done();
}
