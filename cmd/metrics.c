/* metrics.c: metric groups for the commands: each event's alternative that counts here, why not, and metric values from counts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "metrics.h"

/* A name with "::" is a native event: straight to the native table, so
 * naming perf::TASK-CLOCK parses no preset table, then the public call for
 * the uncore PMUs' (skx_unc_imc0::..., uncore_imc_0::...); one with ":::"
 * names its component (io:::rchar), which the public call resolves. */
int mg_resolve(const char *name, int *code)
{
	int idx, ret, asked = 0;
	if (!strstr(name, "::") || strstr(name, ":::")) {
		ret = PAPI_event_name_to_code(name, code);
		if (ret != PAPI_ENOIMPL)
			return ret;
		asked = 1;
	}
	ret = native_lookup(name, &idx);
	if (ret == PAPI_OK)
		*code = PAPI_NATIVE_MASK | idx;
	else if (ret != PAPI_ENOMEM && !asked)	/* an uncore PMU's (perf_event_uncore) */
		ret = PAPI_event_name_to_code(name, code);
	return ret;
}

char *mg_reason(const char *name, int ret)
{
	const char *why = papi_last_reason();
	const char *core = NULL;
	char buf[512];
	if (!strncasecmp(name, "PAPI_", 5) || ret == PAPI_ECMP)
		core = pmu_core_unavailable_reason();
	if (core)
		snprintf(buf, sizeof buf, "%s", core);
	else if (why && *why)
		snprintf(buf, sizeof buf, "%s", why);
	else
		snprintf(buf, sizeof buf, "%s: %s", name,
			 ret == PAPI_ENOEVNT ? "no such event here (see 'papi avail' and 'papi native')"
					     : PAPI_strerror(ret));
	return strdup(buf);
}

/* Can code be added to an EventSet of this process? PAPI_OK or the error. */
static int countable(int code)
{
	int es = PAPI_NULL, ret = PAPI_create_eventset(&es);
	if (ret != PAPI_OK)
		return ret;
	ret = PAPI_add_event(es, code);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return ret;
}

int mg_pick_all(const struct mgroup *g, struct mg_pick *pick)
{
	for (int i = 0; i < g->nev; i++) {
		const struct mgroup_event *e = &g->ev[i];
		struct mg_pick *p = &pick[i];
		*p = (struct mg_pick){ .alt = -1 };
		for (int k = 0; k < e->nalt && !p->ok; k++) {
			int code, ret;
			papi_clear_reason();
			ret = mg_resolve(e->alt[k], &code);
			int named = ret == PAPI_OK;
			if (named)
				ret = countable(code);
			if (ret == PAPI_OK) {
				free(p->why);
				*p = (struct mg_pick){ .alt = k, .code = code, .ok = 1 };
				continue;
			}
			/* the first alternative that has a name here says why;
			 * while none has, each says why not (powercap's zone and
			 * perf's power PMU: both are missing) */
			if (p->why && p->alt >= 0)
				continue;
			char *why = mg_reason(e->alt[k], ret);
			if (!why)
				return -1;
			if (p->why && !named) {
				char *both = NULL;
				int n = strstr(p->why, why) ? 0 : asprintf(&both, "%s; %s", p->why, why);
				free(why);
				if (n < 0)
					return -1;
				if (!both)	/* the same reason again */
					continue;
				why = both;
			}
			free(p->why);
			p->why = why;
			p->alt = named ? k : -1;
			p->code = named ? code : 0;
		}
	}
	return 0;
}

void mg_picks_free(const struct mgroup *g, struct mg_pick *pick)
{
	for (int i = 0; i < g->nev; i++) {
		free(pick[i].why);
		pick[i].why = NULL;
	}
}

double mg_value(const struct mgroup *g, const struct mgroup_metric *m, const double *vals,
		double seconds)
{
	double v[MGROUP_MAX_EVENTS + 1];
	for (int i = 0; i < g->nev; i++)
		v[i] = vals[i];
	v[g->nev] = seconds;
	for (int k = 0; k < m->nuse; k++)
		if (isnan(v[m->use[k]]))
			return NAN;
	double r = formula_eval_double(m->f, v);
	return isfinite(r) ? r : NAN;
}

int mg_missing(const struct mgroup *g, const struct mgroup_metric *m, const struct mg_pick *pick)
{
	for (int k = 0; k < m->nuse; k++)
		if (m->use[k] < g->nev && !pick[m->use[k]].ok)
			return m->use[k];
	return -1;
}

void mg_format(char *buf, size_t len, double v, const char *unit)
{
	const char *k = "";
	if (strncmp(unit, "1/", 2)) {
		snprintf(buf, len, "%.3f%s%s", v, *unit ? " " : "", unit);
		return;
	}
	/* rates get a prefix: 1.174 K/s */
	double a = fabs(v);
	if (a >= 1e9) {
		v /= 1e9;
		k = "G";
	} else if (a >= 1e6) {
		v /= 1e6;
		k = "M";
	} else if (a >= 1e3) {
		v /= 1e3;
		k = "K";
	}
	snprintf(buf, len, "%.3f %s%s", v, k, unit + 1);
}

int group_files_report(const char *cmd)
{
	int n;
	const char *const *v = mgroups_errors(&n);
	const char *user = getenv("PAPI_USER_GROUPS_FILE");
	size_t ul = user ? strlen(user) : 0;
	for (int i = 0; i < n && i < 10; i++) {
		int mine = ul && !strncmp(v[i], user, ul) && v[i][ul] == ':';
		cli_error(cmd, "%s%s", mine ? "PAPI_USER_GROUPS_FILE=" : "", v[i]);
	}
	if (n > 10)
		cli_error(cmd, "... and %d more problems ('papi encode --check %s' lists them all)", n - 10,
			  user ? user : "FILE");
	return n;
}
