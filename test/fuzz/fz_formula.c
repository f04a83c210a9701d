/* fz_formula.c: libFuzzer target for the formula compiler and evaluator (postfix and infix). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Metric expressions know the names a..h as terms 0..7. */
static int lookup(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	return len == 1 && name[0] >= 'a' && name[0] <= 'h' ? name[0] - 'a' : -1;
}

static void expr(const char *text)
{
	struct formula *f = NULL;
	char err[PAPI_MAX_STR_LEN];
	if (formula_compile_expr(text, lookup, NULL, &f, err, sizeof err) != PAPI_OK)
		return;
	double vals[8] = { 0, 1, -2.5, 1e300, 3, 1e-300, 7, 64 };
	int terms[8];
	formula_eval_double(f, vals);
	if (formula_terms(f, terms, 8) > 8)
		abort();
	formula_free(f);
}

/* Input: byte 0 picks the type (postfix or infix; bit 1: a metric
 * expression), byte 1 the term count (1..PAPI_EVENTS_IN_DERIVED_EVENT),
 * the rest is the formula text. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	int type = data[0] & 1 ? DERIVED_INFIX : DERIVED_POSTFIX;
	int nterms = 1 + data[1] % PAPI_EVENTS_IN_DERIVED_EVENT;
	char *text = malloc(size - 1);
	if (!text)
		return 0;
	memcpy(text, data + 2, size - 2);
	text[size - 2] = 0;
	if (data[0] & 2) {
		expr(text);
		free(text);
		return 0;
	}
	struct formula *f = NULL;
	char err[PAPI_MAX_STR_LEN];
	if (formula_compile(type, text, nterms, &f, err, sizeof err) == PAPI_OK) {
		long long vals[PAPI_EVENTS_IN_DERIVED_EVENT];
		for (int i = 0; i < PAPI_EVENTS_IN_DERIVED_EVENT; i++)
			vals[i] = i & 1 ? -(1LL << (i * 3)) : (long long)i * 1000003;
		vals[0] = 0;	/* a division by zero */
		long long v = formula_eval(f, vals);
		char pf[PAPI_HUGE_STR_LEN];
		if (formula_to_postfix(f, pf, sizeof pf) == PAPI_OK) {
			/* what we print must compile again to the same value */
			struct formula *g = NULL;
			if (formula_compile(DERIVED_POSTFIX, pf, nterms, &g, NULL, 0) != PAPI_OK)
				abort();
			if (formula_eval(g, vals) != v)
				abort();
			formula_free(g);
		}
		formula_shape(f, nterms);
		formula_free(f);
	}
	free(text);
	return 0;
}
