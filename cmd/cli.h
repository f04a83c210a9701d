/* cli.h: what every subcommand shares: option tables, messages, exit codes, JSON and CSV output. */
#ifndef PAPI_CMD_CLI_H
#define PAPI_CMD_CLI_H

#include <getopt.h>
#include <stdio.h>

/* Small state a subcommand writes on every run: in the section where the
 * library keeps what its start-up writes (libpapi/1-state/state.h's
 * PAPI_FIRST_DATA), so that a run faults in one page for all of it rather
 * than a page of .bss per source file. */
#define CLI_FIRST_DATA __attribute__((section("papi_first_data")))

/* Exit statuses of every subcommand. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Flags of a struct cli_spec. */
enum {
	CLI_STOP_AT_ARG = 1,	/* options end at the first non-option (papi stat -e X prog -x) */
};

/* Value of an option that has no short form: CLI_LONG(0), CLI_LONG(1), ... */
#define CLI_LONG(n) (256 + (n))

/* One option of one command.  The same row drives getopt_long, --help and
 * --list-opts.  shrt is the letter (or CLI_LONG(n) for a long-only option)
 * and is what cli_next() returns; arg is no_argument, required_argument or
 * optional_argument, with CLI_COMPAT or'ed in for an option kept because
 * PAPI 7's tool of the same purpose takes it (--help lists it apart,
 * --list-opts and so completion leave it out); argname names the value in
 * --help ("EVENT"). */
struct cli_opt {
	const char *lng;
	int shrt;
	int arg;
	const char *argname;
	const char *help;
};

#define CLI_COMPAT 0x100
#define CLI_ARG(o) ((o)->arg & ~CLI_COMPAT)

/* A command's description: its name (as in "papi NAME"), the usage line
 * after "papi NAME" ("[OPTION]... EVENT..."), a short text printed after
 * the usage line (may hold newlines; NULL for none), the option table ended
 * by a row with lng == NULL and shrt == 0, and CLI_* flags. */
struct cli_spec {
	const char *name;
	const char *usage;
	const char *about;
	const struct cli_opt *opts;
	int flags;
};

#define CLI_MAX_OPTS 64

/* Parsing state of one command invocation (lives on the command's stack). */
struct cli_ctx {
	const struct cli_spec *spec;
	int argc;
	char **argv;
	char *optarg;		/* value of the option cli_next() returned, or NULL */
	char optword[64];	/* that option as the user wrote it: "-t" or "--iterations" */
	int optind;		/* after the loop: index of the first operand in argv */
	int started;		/* getopt has been re-initialised for this argv */
	struct option lopts[CLI_MAX_OPTS + 3];
	char sopts[3 * CLI_MAX_OPTS + 8];
};

/* cli_begin: prepare to parse argv[1..argc-1] of the command described by
 * spec (argv[0] is the command's name as invoked).  Resets getopt's state. */
void cli_begin(struct cli_ctx *c, const struct cli_spec *spec, int argc, char **argv);

/* cli_next: the next option's shrt value (its value, if any, in c->optarg),
 * or -1 when options end (c->optind then indexes the first operand).
 * Handles the common cases itself and does not return for them:
 *   -h/--help      usage and options on stdout, exit 0 (1 on a write error);
 *   --list-opts    every option form, one a line, on stdout, exit 0 (an
 *                  option that takes a value: a tab and its argname);
 *   unknown option, missing or unwanted value: "papi NAME: ..." and
 *                  "Try 'papi NAME --help'." on stderr, exit 2.
 * So parse options before acquiring resources. */
int cli_next(struct cli_ctx *c);

/* cli_operands: the arguments after the options; *n receives their count. */
char **cli_operands(struct cli_ctx *c, int *n);

/* cli_help: print the --help text of spec on f. */
void cli_help(const struct cli_spec *spec, FILE *f);

/* cli_usage: report a usage error of command cmd ("papi cmd: msg" and the
 * --help hint on stderr); returns CLI_USAGE so a command can
 * "return cli_usage(...)". */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cli_set_usage_status: what cli_usage returns (and cli_next exits with on
 * a bad option) from now on, CLI_USAGE until set: a command run under a
 * classic tool name whose PAPI 7 tool exits 1 on bad arguments sets
 * CLI_FAIL, so scripts written for that tool see its status. */
void cli_set_usage_status(int status);

/* cli_error: "papi cmd: msg" on stderr (cmd NULL: "papi: msg"); returns
 * CLI_FAIL so a command can "return cli_error(...)". */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cli_reason: why the library call that just returned ret failed: the
 * reason the library gave for it, else PAPI_strerror(ret). Valid until the
 * next library call. */
const char *cli_reason(int ret);
/* cli_plot_arg: check --plot's file name: charts are SVG, so a name that
 * asks for another image format (.png, .jpg, .pdf, ...) is refused. 0, or
 * -1 after a usage message that says how to get that format. */
int cli_plot_arg(const char *cmd, const char *path);
/* cli_wopen: open path for writing (created or truncated, close-on-exec).
 * NULL after cli_error's "what: cannot write 'path': reason" (what NULL:
 * no prefix). */
FILE *cli_wopen(const char *cmd, const char *what, const char *path);
/* cli_wclose: flush and close f, opened on path by cli_wopen: CLI_OK, or
 * CLI_FAIL after "what: write error on path: reason" (a full disk, say),
 * with path removed when cli_own_file: a file cut short is never left
 * behind as if whole. */
int cli_wclose(const char *cmd, const char *what, const char *path, FILE *f);
/* cli_own_file: whether path is the regular file that fd writes, which a
 * command may remove when it cannot write it whole (never a device such as
 * /dev/full, a FIFO, or a symbolic link to the file). */
int cli_own_file(const char *path, int fd);

/* cli_flush: flush stdout, remembering the first write error for
 * cli_finish.  Use it instead of fflush(stdout) before writing to stderr. */
void cli_flush(void);

/* cli_put_safe: write str to f with every control byte (C0, DEL, C1), and
 * every byte that is not valid UTF-8, shown as \xNN: text that came from
 * the user or a file cannot drive the terminal.  cli_error and cli_usage
 * write their messages this way. */
void cli_put_safe(FILE *f, const char *str);

/* cli_unsafe_at: the first byte of str that cli_put_safe would escape, or
 * NULL when there is none (str NULL: NULL). */
const char *cli_unsafe_at(const char *str);

/* cli_finish: flush stdout and check that everything written reached it;
 * on failure (now or in an earlier cli_flush) reports "papi cmd: write
 * error: <strerror>" and returns CLI_FAIL, else returns status unchanged.  Call it last:
 * "return cli_finish("avail", status);". */
int cli_finish(const char *cmd, int status);

/* cli_unread: status, or CLI_FAIL after "papi cmd: could not read PATH:
 * why: the listing may be incomplete" when the library could not read a
 * /proc or sysfs file that is there (os_fault): a listing (papi avail,
 * papi native) then lacks what that file describes. Call it after the
 * listing, before cli_finish. */
int cli_unread(const char *cmd, int status);

/* cli_long_arg: parse s as a decimal integer in [min, max] for option
 * opt of command cmd (pass the cli_ctx's optword, so that the message names
 * the option the way it was written).  Returns 0 and sets *out, or prints a usage error and
 * returns -1 (the command then returns CLI_USAGE). */
int cli_long_arg(const char *cmd, const char *opt, const char *s, long min, long max, long *out);

/* cli_cut: s for a message: s itself when it is at most 64 bytes long,
 * else its first 48 bytes (never half a UTF-8 character), "..." and its
 * length, "AAAA... (100000 bytes)", written into buf (size >= 80). An
 * argument can be any size; a message need not echo it all. */
const char *cli_cut(const char *s, char *buf, size_t size);

/* ---- cli_suggest.c: "did you mean" for a mistyped name. */

/* cli_suggest: for an event name that did not resolve, the nearest known
 * names as "did you mean perf::TASK-CLOCK?" (up to three, "A, B or C"),
 * written into buf (size >= 16); NULL when none is near. When the event
 * part resolves and a qualifier does not (perf::TASK-CLOCK:uu,
 * :perod=1000), the nearest qualifiers of that event ("did you mean :u?").
 * Names are compared ignoring case; a name without "pmu::" is compared with
 * the event part of native names. It walks every event name of every
 * component: call it only once a name has failed. */
const char *cli_suggest(const char *name, char *buf, size_t size);

/* cli_name_why: why event name failed with error err, for a message that
 * names it first ("papi CMD: NAME: why"): the library's last reason without
 * the name it starts with (PAPI_strerror(err) when it gave none), then,
 * when the name does not resolve, "; " and cli_suggest's words. Written
 * into buf; returns buf. Clears the library's reason. */
const char *cli_name_why(const char *name, int err, char *buf, size_t size);

/* ---- cli_count.c: what this user may count. */

/* cli_can_count: 0 when this user can count events here at all; otherwise
 * prints the one sentence why and what to do ("papi cmd: this kernel lets
 * no unprivileged user count events (perf_event_paranoid=3): ...") and
 * returns CLI_FAIL. Every command that counts calls it after
 * PAPI_library_init. */
int cli_can_count(const char *cmd);

/* Below this share of the enabled time (in percent) a multiplexed count is
 * reported as an extrapolation (papi stat, papi hl-report): the scaled
 * value assumes the event came at the rate it was seen at while the counter
 * was elsewhere, and under a tenth of the time what was seen is less than a
 * tenth of what is reported. The reports then add what was really counted,
 * the one sure number: a lower bound of the true count. */
#define CLI_LOW_SHARE 10.0
/* cli_low_share: 1 when a count whose counter ran running of its enabled
 * ns (the kernel's times) is such an extrapolation: multiplexed
 * (running < enabled) below CLI_LOW_SHARE percent; 0 without times
 * (enabled 0) or when the counter ran the whole time. */
int cli_low_share(double enabled, double running);

/* cli_no_level: for a perf_event native event whose own qualifiers leave
 * no privilege level to count in (:u=0 alone, :k=0 alone: a name that sets
 * one level leaves out those it does not set), the reason the commands
 * that count refuse it; else NULL. The library takes such an event, as
 * PAPI 7 does, and counts nothing. */
const char *cli_no_level(int code);

/* cli_domain_arg: parse the value of --domain, a comma-separated list of
 * user, kernel, supervisor (or hv), or all, into PAPI_DOM_* bits (all:
 * PAPI_DOM_ALL). 0, or -1 after a usage message. */
int cli_domain_arg(const char *cmd, const char *s, int *dom);

/* cli_set_domain: make dom (cli_domain_arg's answer for the text arg) the
 * domain of the EventSets created from now on. "all" counts what the kernel
 * allows this user: when that leaves the kernel out, one line on stderr says
 * so and how to allow it. A domain named outright that the kernel refuses is
 * an error. 0, or CLI_FAIL after the message. */
int cli_set_domain(const char *cmd, const char *arg, int dom);

/* cli_is_classic: non-zero when the command runs under a classic PAPI
 * tool name (argv[0] "papi_avail" ...), so it can accept that tool's
 * arguments and output. */
int cli_is_classic(char **argv);
/* Split an event list in place, as strtok_r at commas, but never inside a
 * kernel PMU's event (cpu/event=0x3c,umask=0x00/): the next name of *save
 * (start it as the list), NULL after the last. Empty names are skipped. */
char *cli_next_event(char **save);
/* Why component cidx is disabled, whole (disabled_reason, 128 bytes for
 * PAPI 6's programs, may hold only its start); NULL when it is not. */
const char *cli_disabled_reason(int cidx);
/* When the presets come from the generic table (presets_generic()): a
 * paragraph saying so and what it means for their accuracy; else NULL. */
const char *cli_generic_note(void);

/* cli_round: v rounded to the nearest whole number, halves away from zero
 * (as round(3)): the papi binary does without libm, whose loading would
 * cost every command start-up time. */
double cli_round(double v);

/* cli_fmt_double: format v into buf (size >= 32) the way JSON and CSV want
 * it whatever the locale: shortest form that reads back exactly, '.' as
 * the decimal point.  Returns buf; NaN and infinities give "null". */
char *cli_fmt_double(double v, char *buf, size_t size);

/* ---- JSON: a streaming writer that always produces one valid document. */

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	int pretty;
	unsigned char kind[JSON_MAX_DEPTH + 1];	/* '{' or '[' per open level */
	unsigned char count[JSON_MAX_DEPTH + 1];	/* level has a member yet */
	int after_key;		/* a key was written; its value comes next */
	int done;		/* the top-level value is complete */
	int broken;		/* misuse (too deep, unbalanced): the output is invalid */
};

/* json_init: write to f; pretty != 0 indents by two spaces per level. */
void json_init(struct json *j, FILE *f, int pretty);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
/* json_key: the key of the next value inside an object. */
void json_key(struct json *j, const char *key);
/* json_str: a string; NULL writes null.  Control characters are escaped and
 * each byte that is not part of valid UTF-8 becomes U+FFFD. */
void json_str(struct json *j, const char *s);
void json_int(struct json *j, long long v);
void json_uint(struct json *j, unsigned long long v);
/* json_double: a number ('.' whatever the locale); NaN and infinities: null. */
void json_double(struct json *j, double v);
void json_bool(struct json *j, int v);
void json_put_null(struct json *j);
/* json_end: finish the document (newline); 0 when it is complete and valid,
 * -1 when the calls were unbalanced or nested too deep. */
int json_end(struct json *j);

/* Shorthands for "key": value inside an object. */
void json_kstr(struct json *j, const char *key, const char *s);
void json_kint(struct json *j, const char *key, long long v);
void json_kdouble(struct json *j, const char *key, double v);
void json_kbool(struct json *j, const char *key, int v);

/* ---- CSV: RFC 4180 fields with a chosen separator, rows ended by "\n". */

struct cli_csv {
	FILE *f;
	char sep;
	int col;
};

/* (cli_csv_: libcsv, linked into libpapi.a, owns the csv_ prefix.) */
void cli_csv_init(struct cli_csv *c, FILE *f, char sep);
/* One field; quoted (with "" for ") when it holds the separator,
 * a quote, CR or LF, or starts or ends with a space; NULL is empty. */
void cli_csv_field(struct cli_csv *c, const char *s);
void cli_csv_int(struct cli_csv *c, long long v);
void cli_csv_double(struct cli_csv *c, double v);	/* NaN, infinities: empty field */
void cli_csv_end(struct cli_csv *c);
/* Write s as one field to f (no separator before or after). */
void cli_csv_quote(FILE *f, const char *s, char sep);

#endif
