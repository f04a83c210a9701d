/* report.h: papi stat's reports, one module per format, each reading the same computed result (struct st after 4-compute). */
#ifndef PAPI_CMD_STAT_REPORT_H
#define PAPI_CMD_STAT_REPORT_H

#include "base.h"

/* ---- text.c */
/* The report for a person on f. */
void st_text_report(const struct st *s, FILE *f);
/* Print interval iv on s->out as it ends (a header before the first). */
void st_text_interval(struct st *s, const struct st_interval *iv);

/* ---- csv.c */
/* The CSV report with separator s->o.sep on f (the header unless the
 * intervals printed it). */
void st_csv_report(const struct st *s, FILE *f);
/* Print interval iv's rows on s->out as it ends (the header first). */
void st_csv_interval(struct st *s, const struct st_interval *iv);

/* ---- json.c */
/* The one JSON document on f. */
void st_json_report(const struct st *s, FILE *f);
/* In place of the report, on s->out: a rank file saying that papi stat
 * failed with status before it counted (the merge reports the rank). */
void st_json_rank_failed(const struct st *s, int status);

/* ---- plot.c */
/* --plot: the intervals kept in s->iv as an SVG chart in s->o.plot_path.
 * 0, or -1 after a message. */
int st_plot(const struct st *s);

/* ---- merge.c */
/* papi stat --merge: read the per-rank files in args (files, or directories
 * of papi-stat.*.json), keep one job (job NULL: the only one there is) and
 * print its report on out: JSON, CSV with separator sep, or text (sep 0);
 * with plot, also draw each event's and metric's value per rank into that
 * SVG file. *nmissing gets the number of ranks without a file (the report
 * says which). CLI_OK, or CLI_FAIL after a message (no report, or no
 * chart). */
int st_merge(FILE *out, int json, char sep, char **args, int nargs, const char *job, const char *plot,
	     int *nmissing);

/* ---- diff.c */
/* papi stat --diff: read two saved --json reports, base and new, and print
 * on out (JSON, CSV with separator sep, or text when sep is 0) each event's
 * and metric's mean in both, the change (absolute and in percent of the
 * base) and, when both were repeated (-r), whether the change is beyond
 * the runs' spread (more than twice the standard error of the difference
 * of the means). CLI_OK, or CLI_FAIL after a message (a file that cannot
 * be read or is not a papi stat report). */
int st_diff(FILE *out, int json, char sep, const char *base, const char *new);

/* ---- load.c */
/* papi stat --report: read the saved --json report in path into s, as the
 * stages up to 4-compute would have left it, so that the writers above
 * print it again (the intervals in s->iv). The strings of s point into
 * the file's document, kept until st_load_free. 0, or -1 after a message
 * naming the file and what is wrong with it (not JSON, cut short, not a
 * run of papi stat, a field of the wrong kind). */
int st_load(struct st *s, const char *path);
/* A saved report's JSON document (a json_t *: jansson's), or NULL after a
 * message that says why, for option opt ("--report", "--diff"): the
 * file's error ("FILE: No such file or directory"), a directory, or where
 * it is not JSON. */
void *st_report_read(const char *opt, const char *path);
/* What st_load allocated (also after it failed); s's arrays and counts
 * are left empty. */
void st_load_free(struct st *s);

#endif
