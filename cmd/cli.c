/* cli.c: option parsing from one table, messages and exit codes, stdout checking, JSON and CSV writers. */
#include "cli.h"
#include "tool.h"

#include <perfmon/pfmlib.h>

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Values cli_next() keeps for itself; commands use letters and CLI_LONG(n). */
enum { OPT_HELP = 'h', OPT_LIST = CLI_LONG(1000) };

static const struct cli_opt builtin_help = { "help", OPT_HELP, no_argument, NULL, "show this help and exit" };
static const struct cli_opt builtin_list = { "list-opts", OPT_LIST, no_argument, NULL,
					     "list the options, one a line (for completions)" };

static int opt_end(const struct cli_opt *o)
{
	return !o || (!o->lng && !o->shrt);
}

static int opt_has_short(const struct cli_opt *o)
{
	return o->shrt > 0 && o->shrt < 256;
}

/* Does the command's own table already use this letter or long name? */
static int spec_uses(const struct cli_spec *s, int shrt, const char *lng)
{
	for (const struct cli_opt *o = s->opts; !opt_end(o); o++)
		if ((shrt && o->shrt == shrt) || (lng && o->lng && !strcmp(o->lng, lng)))
			return 1;
	return 0;
}

void cli_begin(struct cli_ctx *c, const struct cli_spec *spec, int argc, char **argv)
{
	size_t nl = 0, ns = 0;

	memset(c, 0, sizeof(*c));
	c->spec = spec;
	c->argc = argc;
	c->argv = argv;
	c->optind = 1;
	/* '+': stop at the first operand when asked; ':': report a missing
	 * value as ':' so we can word the message ourselves. */
	if (spec->flags & CLI_STOP_AT_ARG)
		c->sopts[ns++] = '+';
	c->sopts[ns++] = ':';
	const struct cli_opt *o = spec->opts;
	for (int i = 0; !opt_end(o + i) && i < CLI_MAX_OPTS; i++) {
		const struct cli_opt *r = o + i;
		if (r->lng)
			c->lopts[nl++] = (struct option){ r->lng, CLI_ARG(r), NULL, r->shrt };
		if (opt_has_short(r)) {
			c->sopts[ns++] = (char)r->shrt;
			if (CLI_ARG(r) != no_argument)
				c->sopts[ns++] = ':';
			if (CLI_ARG(r) == optional_argument)
				c->sopts[ns++] = ':';
		}
	}
	if (!spec_uses(spec, 0, "help"))
		c->lopts[nl++] = (struct option){ "help", no_argument, NULL, OPT_HELP };
	if (!spec_uses(spec, 'h', NULL))
		c->sopts[ns++] = 'h';
	c->lopts[nl++] = (struct option){ "list-opts", no_argument, NULL, OPT_LIST };
	c->lopts[nl] = (struct option){ 0 };
	c->sopts[ns] = '\0';
}

/* Left column of one option in --help: "  -e, --event=EVENT". */
static int help_left(const struct cli_opt *o, char *buf, size_t size)
{
	int n;

	if (opt_has_short(o))
		n = snprintf(buf, size, "  -%c%s", o->shrt, o->lng ? ", " : "");
	else
		n = snprintf(buf, size, "      ");
	if (o->lng)
		n += snprintf(buf + n, size - (size_t)n, "--%s", o->lng);
	if (CLI_ARG(o) != no_argument) {
		const char *a = o->argname ? o->argname : "ARG";
		if (CLI_ARG(o) == optional_argument)
			n += snprintf(buf + n, size - (size_t)n, o->lng ? "[=%s]" : "[%s]", a);
		else
			n += snprintf(buf + n, size - (size_t)n, o->lng ? "=%s" : " %s", a);
	}
	return n;
}

/* One option in --help; a help text with newlines continues indented. */
static void help_row(const struct cli_opt *o, FILE *f)
{
	enum { COL = 28 };
	char left[160];
	int n = help_left(o, left, sizeof(left));

	fputs(left, f);
	if (n >= COL - 1) {
		fputc('\n', f);
		n = 0;
	}
	fprintf(f, "%*s", COL - n, "");
	for (const char *h = o->help ? o->help : ""; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "%*s", COL, "");
	}
	fputc('\n', f);
}

void cli_help(const struct cli_spec *spec, FILE *f)
{
	fprintf(f, "Usage: papi %s%s%s\n", spec->name, spec->usage ? " " : "", spec->usage ? spec->usage : "");
	if (spec->about)
		fprintf(f, "%s%s", spec->about, spec->about[strlen(spec->about) - 1] == '\n' ? "" : "\n");
	fputs("\nOptions:\n", f);
	int ncompat = 0;
	for (const struct cli_opt *o = spec->opts; !opt_end(o); o++)
		if (o->arg & CLI_COMPAT)
			ncompat++;
		else
			help_row(o, f);
	struct cli_opt h = builtin_help;
	if (spec_uses(spec, 'h', NULL))
		h.shrt = CLI_LONG(1001);
	if (!spec_uses(spec, 0, "help"))
		help_row(&h, f);
	help_row(&builtin_list, f);
	if (ncompat)
		fputs("\nAccepted as PAPI 7's tool takes them:\n", f);
	for (const struct cli_opt *o = spec->opts; !opt_end(o); o++)
		if (o->arg & CLI_COMPAT)
			help_row(o, f);
}

static void list_opts(const struct cli_spec *spec)
{
	for (const struct cli_opt *o = spec->opts; !opt_end(o); o++) {
		/* An option that takes a value is followed by a tab and the
		 * value's name (FILE, PID[,PID...], EVENT ...): the completions
		 * offer file names, process ids or events from it. */
		const char *v = CLI_ARG(o) == no_argument ? "" : o->argname ? o->argname : "ARG";
		if (o->arg & CLI_COMPAT)
			continue;
		if (o->lng)
			printf("--%s%s%s\n", o->lng, *v ? "\t" : "", v);
		if (opt_has_short(o))
			printf("-%c%s%s\n", o->shrt, *v ? "\t" : "", v);
	}
	if (!spec_uses(spec, 0, "help"))
		puts("--help");
	if (!spec_uses(spec, 'h', NULL))
		puts("-h");
	puts("--list-opts");
}

static const struct cli_opt *find_opt(const struct cli_spec *spec, int val)
{
	for (const struct cli_opt *o = spec->opts; !opt_end(o); o++)
		if (o->shrt == val)
			return o;
	return NULL;
}

/* The option word as the user typed it, without any "=value". */
static void typed_word(const char *arg, char *buf, size_t size)
{
	size_t n = strcspn(arg ? arg : "", "=");
	if (n >= size)
		n = size - 1;
	memcpy(buf, arg ? arg : "", n);
	buf[n] = '\0';
}

/* Was the option just parsed written as "--lng" (or an abbreviation of it)? */
static int is_long_word(const struct cli_ctx *c, const char *lng)
{
	int i = optind - 1;
	const char *w;

	if (i < 1 || i >= c->argc)
		i = c->argc - 1;
	w = c->argv[i];
	return w && w[0] == '-' && w[1] == '-' && w[2] && !strncmp(w + 2, lng, strcspn(w + 2, "="));
}

int cli_next(struct cli_ctx *c)
{
	const char *name = c->spec->name;
	int li = -1, r;
	char word[64];


	optind = c->optind;
	opterr = 0;
	optarg = NULL;
	if (!c->started) {
		optind = 0;	/* a full re-initialisation of getopt */
		c->started = 1;
	}
	r = getopt_long(c->argc, c->argv, c->sopts, c->lopts, &li);
	c->optind = optind;
	c->optarg = optarg;
	if (r == -1)
		return -1;
	if (li >= 0)
		snprintf(c->optword, sizeof c->optword, "--%s", c->lopts[li].name);
	else
		snprintf(c->optword, sizeof c->optword, "-%c", r > 0 && r < 256 ? r : '?');
	if (r == OPT_HELP && (li >= 0 ? !strcmp(c->lopts[li].name, "help") && !spec_uses(c->spec, 0, "help")
				      : !spec_uses(c->spec, 'h', NULL))) {
		cli_help(c->spec, stdout);
		exit(cli_finish(name, CLI_OK));
	}
	if (r == OPT_LIST) {
		list_opts(c->spec);
		exit(cli_finish(name, CLI_OK));
	}
	if (r == ':' || r == '?') {
		const struct cli_opt *o = find_opt(c->spec, optopt);
		if (!o && optopt == OPT_HELP)
			o = &builtin_help;
		else if (!o && optopt == OPT_LIST)
			o = &builtin_list;
		if (r == ':' && o && o->lng && is_long_word(c, o->lng))
			exit(cli_usage(name, "option '--%s' needs a value (%s)", o->lng, o->argname ? o->argname : "ARG"));
		if (r == ':')
			exit(cli_usage(name, "option '-%c' needs a value (%s)", optopt,
				       o && o->argname ? o->argname : "ARG"));
		/* A known option reported as '?' was given a value it does not take. */
		if (o && o->lng)
			exit(cli_usage(name, "option '--%s' takes no value", o->lng));
		if (optopt > 0 && optopt < 256)
			exit(cli_usage(name, "unknown option '-%c'", optopt));
		typed_word(optind > 0 && optind <= c->argc ? c->argv[optind - 1] : "", word, sizeof(word));
		/* getopt_long takes an abbreviation of one long option; one of
		 * several ("--rep": --repeat, --report) it refuses alike */
		char cand[256] = "";
		size_t len = strlen(word), used = 0;
		int ncand = 0;
		for (const struct option *lo = c->lopts; len > 2 && !strncmp(word, "--", 2) && lo->name; lo++)
			if (!strncmp(lo->name, word + 2, len - 2) && used < sizeof cand)
				used += (size_t)snprintf(cand + used, sizeof cand - used, "%s--%s",
							 ncand++ ? ", " : "", lo->name);
		if (ncand > 1)
			exit(cli_usage(name, "option '%s' is ambiguous: it may be %s", word, cand));
		exit(cli_usage(name, "unknown option '%s'", word));
	}
	return r;
}

char **cli_operands(struct cli_ctx *c, int *n)
{
	int i = c->optind > c->argc ? c->argc : c->optind;
	*n = c->argc - i;
	return c->argv + i;
}

/* The first error writing stdout, as an errno value (-1: one without an
 * errno), so that cli_finish can still say why after an earlier flush
 * failed (a message on stderr flushes stdout first). */
static int out_err;

void cli_flush(void)
{
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && !out_err)
		out_err = errno ? errno : -1;
}

/* Bytes of the character at s that cli_put_safe writes as they are (0: the
 * first byte is escaped): printable ASCII, and UTF-8 other than the C1
 * controls U+0080..U+009F, which some terminals obey. */
static int safe_len(const unsigned char *s)
{
	int n = text_utf8_len(s);
	if (n == 1)
		return *s >= 0x20 && *s != 0x7F;
	return n > 1 && !(s[0] == 0xC2 && s[1] < 0xA0) ? n : 0;
}

const char *cli_unsafe_at(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	for (; s && *s; s += n)
		if (!(n = safe_len(s)))
			return (const char *)s;
	return NULL;
}

void cli_put_safe(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		int n = safe_len(s);
		if (n) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
		} else {
			fprintf(f, "\\x%02x", *s++);
		}
	}
}

static void vmsg(const char *cmd, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list aq;
	int n;

	cli_flush();	/* keep stdout and stderr in order on a terminal */
	va_copy(aq, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small && (buf = malloc((size_t)n + 1)) != NULL)
		vsnprintf(buf, (size_t)n + 1, fmt, aq);
	else if (!buf)
		buf = small;	/* out of memory: the message cut */
	va_end(aq);
	if (cmd)
		fprintf(stderr, "papi %s: ", cmd);
	else
		fputs("papi: ", stderr);
	/* What the user gave (event names, file contents) may be in the
	 * message: no raw control byte of it reaches the terminal. */
	cli_put_safe(stderr, n < 0 ? fmt : buf);
	fputc('\n', stderr);
	if (buf != small)
		free(buf);
}

static int usage_status = CLI_USAGE;

void cli_set_usage_status(int status)
{
	usage_status = status;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(cmd, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "Try 'papi %s --help'.\n", cmd);
	else
		fputs("See 'papi help'.\n", stderr);
	return usage_status;
}

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(cmd, fmt, ap);
	va_end(ap);
	return CLI_FAIL;
}

const char *cli_reason(int ret)
{
	const char *why = papi_last_reason();
	return *why ? why : PAPI_strerror(ret);
}

int cli_plot_arg(const char *cmd, const char *path)
{
	static const char *const other[] = { "png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff",
					     "pdf", "ps", "eps" };
	const char *dot = strrchr(path, '.');
	if (!dot || strchr(dot, '/'))
		return 0;
	for (size_t i = 0; i < sizeof other / sizeof *other; i++)
		if (!strcasecmp(dot + 1, other[i]))
			return cli_usage(cmd, "--plot writes SVG, not %s: name the file .svg (an SVG "
					 "converter such as rsvg-convert makes a %s of it)", other[i], other[i]), -1;
	return 0;
}

FILE *cli_wopen(const char *cmd, const char *what, const char *path)
{
	FILE *f = fopen(path, "we");
	if (!f)
		cli_error(cmd, "%s%scannot write '%s': %s", what ? what : "", what ? ": " : "", path,
			  strerror(errno));
	return f;
}

int cli_own_file(const char *path, int fd)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && S_ISREG(a.st_mode) && lstat(path, &b) == 0 && S_ISREG(b.st_mode) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int cli_wclose(const char *cmd, const char *what, const char *path, FILE *f)
{
	int bad = fflush(f) != 0 || ferror(f), e = errno;
	int own = cli_own_file(path, fileno(f));
	if (fclose(f) != 0 && !bad)
		bad = 1, e = errno;
	if (!bad)
		return CLI_OK;
	/* what was written is cut short somewhere: not left as if whole */
	if (own)
		unlink(path);
	return cli_error(cmd, "%s%swrite error on %s: %s", what ? what : "", what ? ": " : "", path,
			 strerror(e ? e : EIO));
}

int cli_finish(const char *cmd, int status)
{
	cli_flush();
	if (!out_err)
		return status;
	/* The error may have happened in a write whose errno is gone; say
	 * "write error" alone then. */
	if (out_err > 0)
		cli_error(cmd, "write error: %s", strerror(out_err));
	else
		cli_error(cmd, "write error");
	return status ? status : CLI_FAIL;
}

/* cli_unread: see cli.h. */
int cli_unread(const char *cmd, int status)
{
	char path[PATH_MAX];
	int n, e = os_fault(path, sizeof path, &n);
	if (!e)
		return status;
	if (n > 1)
		cli_error(cmd, "could not read %s: %s (and %d more failed reads): the listing may be "
			  "incomplete", path, strerror(e), n - 1);
	else
		cli_error(cmd, "could not read %s: %s: the listing may be incomplete", path, strerror(e));
	return CLI_FAIL;
}

int cli_long_arg(const char *cmd, const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s ? s : "", &end, 10);
	char cut[80];
	if (!s || !*s || *end) {
		cli_usage(cmd, "%s: '%s' is not a number", opt, cli_cut(s ? s : "", cut, sizeof cut));
		return -1;
	}
	if (errno == ERANGE) {	/* digits beyond any long: out of range too */
		cli_usage(cmd, "%s: %s is out of range (%ld to %ld)", opt, cli_cut(s, cut, sizeof cut),
			  min, max);
		return -1;
	}
	if (v < min || v > max) {
		cli_usage(cmd, "%s: %ld is out of range (%ld to %ld)", opt, v, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

const char *cli_cut(const char *s, char *buf, size_t size)
{
	size_t n = strlen(s), k = 48;
	if (n <= 64)
		return s;
	while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;		/* s[k] continues a character: cut before it */
	snprintf(buf, size, "%.*s... (%zu bytes)", (int)k, s, n);
	return buf;
}

int cli_is_classic(char **argv)
{
	return argv && argv[0] && !strncmp(argv[0], "papi_", 5);
}

double cli_round(double v)
{
	/* From 2^52 on, every double is whole already (and NaN, infinities). */
	if (!(v > -4503599627370496.0 && v < 4503599627370496.0))
		return v;
	double t = (double)(long long)v;	/* towards zero */
	if (v - t >= 0.5)
		t += 1;
	else if (t - v >= 0.5)
		t -= 1;
	return t;
}

char *cli_fmt_double(double v, char *buf, size_t size)
{
	const char *dp;
	char *p;

	if (!isfinite(v)) {
		snprintf(buf, size, "null");
		return buf;
	}
	/* The shortest of 15..17 significant digits that reads back exactly;
	 * strtod runs in the same locale as snprintf, so they agree. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	dp = localeconv()->decimal_point;
	if (dp && *dp && strcmp(dp, ".") && (p = strstr(buf, dp))) {
		size_t n = strlen(dp);
		*p = '.';
		memmove(p + 1, p + n, strlen(p + n) + 1);
	}
	return buf;
}

/* ---- JSON */

void json_init(struct json *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
}

static void json_indent(struct json *j, int depth)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < depth; i++)
		fputs("  ", j->f);
}

/* Everything that comes before a value: comma, indentation, checks. */
static void json_pre(struct json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth == 0) {
		if (j->done)
			j->broken = 1;	/* a second top-level value */
		return;
	}
	if (j->kind[j->depth] == '{')
		j->broken = 1;	/* a value in an object needs a key */
	if (j->count[j->depth])
		fputc(',', j->f);
	j->count[j->depth] = 1;
	json_indent(j, j->depth);
}

static void json_post(struct json *j)
{
	if (j->depth == 0)
		j->done = 1;
}

static void json_open(struct json *j, int kind)
{
	json_pre(j);
	fputc(kind, j->f);
	if (j->depth >= JSON_MAX_DEPTH) {
		j->broken = 1;
		return;
	}
	j->depth++;
	j->kind[j->depth] = (unsigned char)kind;
	j->count[j->depth] = 0;
}

static void json_close(struct json *j, int kind)
{
	if (j->depth == 0 || j->kind[j->depth] != kind || j->after_key) {
		j->broken = 1;
		return;
	}
	if (j->count[j->depth])
		json_indent(j, j->depth - 1);
	fputc(kind == '{' ? '}' : ']', j->f);
	j->depth--;
	json_post(j);
}

void json_obj_begin(struct json *j) { json_open(j, '{'); }
void json_obj_end(struct json *j) { json_close(j, '{'); }
void json_arr_begin(struct json *j) { json_open(j, '['); }
void json_arr_end(struct json *j) { json_close(j, '['); }

void json_key(struct json *j, const char *key)
{
	if (j->depth == 0 || j->kind[j->depth] != '{' || j->after_key)
		j->broken = 1;
	if (j->count[j->depth])
		fputc(',', j->f);
	j->count[j->depth] = 1;
	json_indent(j, j->depth);
	text_json_quoted(j->f, key ? key : "");
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = 1;
}

void json_str(struct json *j, const char *s)
{
	json_pre(j);
	if (s)
		text_json_quoted(j->f, s);
	else
		fputs("null", j->f);
	json_post(j);
}

void json_int(struct json *j, long long v)
{
	json_pre(j);
	fprintf(j->f, "%lld", v);
	json_post(j);
}

void json_uint(struct json *j, unsigned long long v)
{
	json_pre(j);
	fprintf(j->f, "%llu", v);
	json_post(j);
}

void json_double(struct json *j, double v)
{
	char buf[40];
	json_pre(j);
	fputs(cli_fmt_double(v, buf, sizeof(buf)), j->f);
	json_post(j);
}

void json_bool(struct json *j, int v)
{
	json_pre(j);
	fputs(v ? "true" : "false", j->f);
	json_post(j);
}

void json_put_null(struct json *j)
{
	json_pre(j);
	fputs("null", j->f);
	json_post(j);
}

int json_end(struct json *j)
{
	fputc('\n', j->f);
	return j->broken || j->depth || j->after_key || !j->done ? -1 : 0;
}

void json_kstr(struct json *j, const char *key, const char *s) { json_key(j, key); json_str(j, s); }
void json_kint(struct json *j, const char *key, long long v) { json_key(j, key); json_int(j, v); }
void json_kdouble(struct json *j, const char *key, double v) { json_key(j, key); json_double(j, v); }
void json_kbool(struct json *j, const char *key, int v) { json_key(j, key); json_bool(j, v); }

/* ---- CSV */

void cli_csv_init(struct cli_csv *c, FILE *f, char sep)
{
	c->f = f;
	c->sep = sep;
	c->col = 0;
}

void cli_csv_quote(FILE *f, const char *s, char sep)
{
	size_t n;

	if (!s)
		return;
	n = strlen(s);
	char specials[] = { '"', '\r', '\n', sep, '\0' };
	if (!s[strcspn(s, specials)] && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
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

static void cli_csv_sep(struct cli_csv *c)
{
	if (c->col++)
		fputc(c->sep, c->f);
}

void cli_csv_field(struct cli_csv *c, const char *s)
{
	cli_csv_sep(c);
	cli_csv_quote(c->f, s, c->sep);
}

void cli_csv_int(struct cli_csv *c, long long v)
{
	cli_csv_sep(c);
	fprintf(c->f, "%lld", v);
}

void cli_csv_double(struct cli_csv *c, double v)
{
	char buf[40];
	cli_csv_sep(c);
	if (isfinite(v))
		cli_csv_quote(c->f, cli_fmt_double(v, buf, sizeof(buf)), c->sep);
}

void cli_csv_end(struct cli_csv *c)
{
	fputc('\n', c->f);
	c->col = 0;
}

/* cli_next_event: see cli.h. */
char *cli_next_event(char **save)
{
	char *p = *save;
	while (p && *p == ',')
		p++;
	if (!p || !*p) {
		*save = NULL;
		return NULL;
	}
	char *end = (char *)native_list_end(p);
	*save = *end ? end + 1 : NULL;
	*end = '\0';
	return p;
}

/* cli_disabled_reason: see cli.h. */
const char *cli_disabled_reason(int cidx)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	if (!ci || !ci->disabled)
		return NULL;
	const char *whole = cmp_disabled_reason(cidx);
	return whole ? whole : ci->disabled_reason;
}

/* cli_generic_note: see cli.h. */
const char *cli_generic_note(void)
{
	static char buf[768];
	if (!presets_generic())
		return NULL;
	const char *core = "?";
	int known = 0;
	for (int i = 0; i < pmu_count(); i++)
		if (pmu_get(i)->pfm_type == PFM_PMU_TYPE_CORE && pmu_get(i)->kernel_type >= 0) {
			core = pmu_get(i)->kernel_name;
			known = !pmu_get(i)->sysfs;
			break;
		}
	snprintf(buf, sizeof buf,
		 "The presets come from the generic table (events/generic.csv), since %s%s: "
		 "each counts the kernel's generic event (cycles, instructions, branches, cache "
		 "and TLB misses) as the kernel's driver maps it on this CPU%s. Cycles and "
		 "instructions are exact; the others may count another cache level, only loads, "
		 "or speculative events: each preset's note says what it counts on Intel, AMD and "
		 "ARM (papi avail -e NAME).",
		 known ? "no table here names the core PMU " : "libpfm4 does not know the core PMU ",
		 core, kpmu_core_count() > 1 ? ", summed over the core types" : "");
	return buf;
}
