/* tap.h: the tiny TAP producer every C test program uses (header only).
 *
 * Each check prints "ok N - what" or "not ok N - what (file:line ...)";
 * tap_done() prints the plan and returns the exit status. Skips print
 * "ok N - what # SKIP reason" and always carry the reason. */
#ifndef PAPI_TEST_TAP_H
#define PAPI_TEST_TAP_H
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static int tap_n, tap_failed;

static inline int tap_vcheck(int cond, const char *file, int line, const char *fmt, va_list ap)
{
	++tap_n;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	vprintf(fmt, ap);
	if (!cond) {
		printf(" (%s:%d)", file, line);
		tap_failed++;
	}
	putchar('\n');
	fflush(stdout);
	return cond;
}

static inline int tap_check(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = tap_vcheck(cond, file, line, fmt, ap);
	va_end(ap);
	return r;
}

/* ok(cond, "fmt", ...): one test point. */
#define ok(cond, ...) tap_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* is_int(got, want, "what"): equality of integers, printing both on failure. */
#define is_int(got, want, ...) do { long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!tap_check(g_ == w_, __FILE__, __LINE__, __VA_ARGS__)) \
		printf("#   got %lld, want %lld\n", g_, w_); } while (0)
#define is_str(got, want, ...) do { const char *g_ = (got), *w_ = (want); \
	int eq_ = g_ && w_ ? strcmp(g_, w_) == 0 : g_ == w_; \
	if (!tap_check(eq_, __FILE__, __LINE__, __VA_ARGS__)) \
		printf("#   got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); } while (0)

static inline void skip(const char *why, const char *what)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
	fflush(stdout);
}

static inline void diag(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
