/* hl_util.h: helpers of the region API tests (hl_util.c). */
#ifndef PAPI_TEST_HL_UTIL_H
#define PAPI_TEST_HL_UTIL_H
#include <limits.h>
#include <stddef.h>
#include <time.h>

#define HLU_NONE LLONG_MIN

/* 1 when jq is installed (the tests read the reports with it). */
int hlu_have_jq(void);
/* A fresh directory under /tmp (static buffer), or NULL. */
char *hlu_tmpdir(void);
/* Run this program again as "hl-child MODE" with env (name, value, ...,
 * NULL) added to a cleaned PAPI_* environment (with PAPI_HL_LAYOUT=aggregated
 * unless env names a layout), stdout to out and stderr to
 * err (NULL: /dev/null). Returns its exit status (128+signal). */
int hlu_run(const char *mode, const char *const *env, const char *out, const char *err);
/* jq -r EXPR FILE as a whole number; HLU_NONE when absent or not a number. */
long long hlu_num(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* jq -r EXPR FILE's first line into buf; 0, or -1 when jq fails. */
int hlu_str(const char *file, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* 1 when file is one valid JSON document. */
int hlu_valid(const char *file);
/* Entries of dir matching the shell glob. */
int hlu_count(const char *dir, const char *glob);
/* Number of rank files in dir/papi_hl_output; the first one's path in path. */
int hlu_rank_file(const char *dir, char *path, size_t len);
/* Lines of file containing needle (all lines for NULL); -1 if unreadable. */
int hlu_lines(const char *file, const char *needle);
/* rm -rf a directory made by hlu_tmpdir. */
void hlu_rmrf(const char *dir);
/* Burn about ms milliseconds of this thread's CPU time. */
void hlu_spin_ms(int ms);

#endif
