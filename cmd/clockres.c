/* clockres.c: `papi clockres`: latency and resolution of PAPI's real and virtual timers. */
#include "cli.h"
#include "cmds.h"
#include "papi.h"

#include <stdio.h>
#include <stdlib.h>

static const struct cli_opt opts[] = {
	{ "iterations", 't', required_argument, "N", "calls per timer (default 100000)" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"clockres", "[OPTION]...",
	"Measure each PAPI timer: its resolution (the smallest step between two\n"
	"successive different readings) and its latency (the mean cost of a call,\n"
	"in the timer's own unit).",
	opts, 0,
};

static long long t_real_cyc(void) { return PAPI_get_real_cyc(); }
static long long t_real_usec(void) { return PAPI_get_real_usec(); }
static long long t_real_nsec(void) { return PAPI_get_real_nsec(); }
static long long t_virt_cyc(void) { return PAPI_get_virt_cyc(); }
static long long t_virt_usec(void) { return PAPI_get_virt_usec(); }
static long long t_virt_nsec(void) { return PAPI_get_virt_nsec(); }

static const struct timer {
	const char *name, *unit;
	long long (*fn)(void);
} timers[] = {
	{ "PAPI_get_real_cyc", "cycles", t_real_cyc },
	{ "PAPI_get_real_usec", "usec", t_real_usec },
	{ "PAPI_get_real_nsec", "nsec", t_real_nsec },
	{ "PAPI_get_virt_cyc", "cycles", t_virt_cyc },
	{ "PAPI_get_virt_usec", "usec", t_virt_usec },
	{ "PAPI_get_virt_nsec", "nsec", t_virt_nsec },
};
#define NTIMERS (sizeof timers / sizeof timers[0])

struct result {
	long long resolution;	/* smallest positive step seen, -1 if never stepped */
	double latency;		/* mean call cost in the timer's unit */
	long long steps;	/* how many distinct readings were seen */
};

/* clockres_measure: call the timer n times; the resolution is the smallest
 * positive difference of successive readings, the latency the elapsed time
 * over the number of calls. */
static void clockres_measure(const struct timer *t, long n, struct result *r)
{
	long long first = t->fn(), prev = first, min = -1, steps = 0, v = first;
	for (long i = 0; i < n; i++) {
		v = t->fn();
		if (v != prev) {
			long long d = v - prev;
			if (d > 0 && (min < 0 || d < min))
				min = d;
			steps++;
			prev = v;
		}
	}
	r->resolution = min;
	r->steps = steps;
	r->latency = (double)(v - first) / (double)n;
}

int cmd_clockres(int argc, char **argv)
{
	struct cli_ctx c;
	struct result res[NTIMERS];
	long iters = 100000;
	int o, json = 0, n, rv;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		switch (o) {
		case 'j':
			json = 1;
			break;
		case 't':
			if (cli_long_arg(spec.name, c.optword, c.optarg, 1, 100000000, &iters))
				return CLI_USAGE;
			break;
		}
	}
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);

	rv = PAPI_library_init(PAPI_VER_CURRENT);
	if (rv != PAPI_VER_CURRENT)
		return cli_error(spec.name, "cannot initialise PAPI: %s", PAPI_strerror(rv));
	for (size_t i = 0; i < NTIMERS; i++)
		clockres_measure(&timers[i], iters, &res[i]);

	if (json) {
		struct json j;
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_kint(&j, "iterations", iters);
		json_key(&j, "timers");
		json_arr_begin(&j);
		for (size_t i = 0; i < NTIMERS; i++) {
			json_obj_begin(&j);
			json_kstr(&j, "timer", timers[i].name);
			json_kstr(&j, "unit", timers[i].unit);
			json_key(&j, "resolution");
			if (res[i].resolution < 0)
				json_put_null(&j);
			else
				json_int(&j, res[i].resolution);
			json_kdouble(&j, "latency", res[i].latency);
			json_kint(&j, "distinct_readings", res[i].steps);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	} else {
		printf("%-20s %-7s %14s %14s\n", "Timer", "Unit", "Resolution", "Latency");
		for (size_t i = 0; i < NTIMERS; i++) {
			char rbuf[32];
			if (res[i].resolution < 0)
				snprintf(rbuf, sizeof rbuf, "> %g", res[i].latency * (double)iters);
			else
				snprintf(rbuf, sizeof rbuf, "%lld", res[i].resolution);
			printf("%-20s %-7s %14s %14.3f\n", timers[i].name, timers[i].unit, rbuf,
			       res[i].latency);
		}
		printf("(%ld calls per timer; resolution: smallest step between two different readings;\n"
		       " latency: mean cost of one call, in the timer's unit)\n", iters);
	}
	PAPI_shutdown();
	return cli_finish(spec.name, CLI_OK);
}
