/* codes.c: the event code layout; name <-> code, enumeration, query and event info for every kind of code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "4-components/components.h"

/* Code kinds: presets 0x8xxxxxxx, user-defined 0xCxxxxxxx, native 0x4xxxxxxx. */
enum kind { K_OTHER, K_NATIVE, K_PRESET };

static enum kind code_kind(int code)
{
	if (code & PAPI_PRESET_MASK)	/* presets and user events alike */
		return K_PRESET;
	if (code & PAPI_NATIVE_MASK)
		return K_NATIVE;
	return K_OTHER;
}

/* The native entry of code, NULL when it is not a live native code. */
static const struct native *code_native(int code)
{
	return code_kind(code) == K_NATIVE ? native_get(code & PAPI_NATIVE_AND_MASK) : NULL;
}

/* codes_component: see components.h. */
int codes_component(int code, int *cev)
{
	*cev = -1;
	switch (code_kind(code)) {
	case K_PRESET:
		return 0;	/* presets and user events: the CPU component's, as PAPI 7 */
	case K_NATIVE: {
		const struct native *n = code_native(code);
		if (!n)
			return PAPI_ENOEVNT;
		if (n->cidx > 0)
			*cev = n->cev;
		return n->cidx;
	}
	default:
		return PAPI_ENOTPRESET;
	}
}

/* The components' names, for a message: "perf_event, io, net" (static). */
static const char *component_list(void)
{
	static __thread char buf[256];
	size_t len = 0;
	buf[0] = 0;
	for (int c = 0; c < PAPI_num_components(); c++) {
		const PAPI_component_info_t *ci = PAPI_get_component_info(c);
		if (ci && len < sizeof buf)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", c ? ", " : "", ci->name);
	}
	return buf;
}

/* A name may start with its component, as PAPI 7 spells events of other
 * components ("perf_event:::perf::TASK-CLOCK", "appio:::READ_BYTES"). Returns
 * the event part and *cidx (-1 when the name has no prefix), or NULL (reason
 * set) when the prefix names no component of this library. */
static const char *strip_component(const char *in, int *cidx)
{
	*cidx = -1;
	const char *sep = strstr(in, ":::");
	if (!sep)
		return in;
	char cmp[PAPI_MIN_STR_LEN];
	size_t n = (size_t)(sep - in);
	/* No component is called "pmu::EVENT": ":::" after an event name is a
	 * typo in its qualifiers, not a component prefix. */
	const char *pmu_sep = strstr(in, "::");
	if (pmu_sep && pmu_sep < sep) {
		papi_set_reason("%.200s: ':::' after the event name: a qualifier is ':NAME' or "
				"':NAME=VALUE' (':::' only ends a component name, as in "
				"perf_event:::perf::TASK-CLOCK)", in);
		return NULL;
	}
	if (n == 0) {
		papi_set_reason("%.200s: nothing before ':::', where a component name belongs "
				"(perf_event:::perf::TASK-CLOCK)", in);
		return NULL;
	}
	if (n < sizeof cmp) {
		memcpy(cmp, in, n);
		cmp[n] = 0;
		if ((*cidx = PAPI_get_component_index(cmp)) >= 0)
			return sep + 3;
	}
	papi_set_reason("%.200s: no component \"%.*s\" in this library (its components: %s)", in,
			(int)(n < 64 ? n : 64), in, component_list());
	return NULL;
}

/* The code of event ev of component cidx (> 0), made on first use. */
static int cmp_code(int cidx, int ev, const char *cname, int *out)
{
	struct cmp_event e;
	const struct component *c;
	int r = cmp_get(cidx, &c);
	if (r != PAPI_OK)
		return r;
	if ((r = c->event(ev, &e)) != PAPI_OK)
		return r;
	char full[PAPI_HUGE_STR_LEN];
	if (snprintf(full, sizeof full, "%s%s%s", c->bare_names ? "" : cname,
		     c->bare_names ? "" : ":::", e.name) >= (int)sizeof full)
		return PAPI_EINVAL;
	int idx;
	if ((r = native_intern(cidx, ev, full, &idx)) == PAPI_OK)
		*out = PAPI_NATIVE_MASK | idx;
	return r;
}

/* The code of event name (without prefix) of component cidx (> 0):
 * PAPI_OK, PAPI_ENOEVNT (no such event, reason set), PAPI_ECMP (the
 * component is disabled, reason set). */
static int cmp_name_to_code(int cidx, const char *name, int *out)
{
	const struct component *c;
	int r = cmp_get(cidx, &c);
	if (r != PAPI_OK)
		return PAPI_ENOEVNT;	/* a disabled component names nothing */
	char full[PAPI_HUGE_STR_LEN];
	int idx, ev;
	if (snprintf(full, sizeof full, "%s%s%s", c->bare_names ? "" : c->name,
		     c->bare_names ? "" : ":::", name) < (int)sizeof full &&
	    native_find(full, &idx) == PAPI_OK) {
		const struct native *n = native_get(idx);
		if (n && n->cidx == cidx) {
			*out = PAPI_NATIVE_MASK | idx;
			return PAPI_OK;
		}
	}
	if (!*name || (r = cmp_event_lookup(cidx, name, &ev)) != PAPI_OK) {
		/* A lookup hook says why itself, but for a name that is not
		 * its kind at all (PAPI_ENOCMP: no PMU of that name). */
		if (!c->lookup || r == PAPI_ENOCMP || !*papi_last_reason())
			papi_set_reason("%s:::%.200s: unknown event: component %s has none of that "
					"name (see 'papi native -i %s:::')", c->name, name, c->name, c->name);
		return r == PAPI_ENOMEM || r == PAPI_ENOCMP ? r : PAPI_ENOEVNT;
	}
	return cmp_code(cidx, ev, c->name, out);
}

/* PAPI_event_name_to_code: the code of a preset, user or native event name.
 * Native names may omit the PMU ("TASK-CLOCK"), carry qualifiers
 * ("perf::TASK-CLOCK:u=1") and start with the component ("perf_event:::",
 * "io:::rchar"); every spelling of one event gets one code. A name without a
 * component that perf_event does not know is looked for in the other
 * components, in order (as PAPI 7: "rchar" is io:::rchar).
 * PAPI_ENOINIT, PAPI_EINVAL (NULL), PAPI_ENOEVNT (no such event, unit mask,
 * qualifier or qualifier value, a name over PAPI_HUGE_STR_LEN, no such
 * component or a disabled one: as PAPI 7; the reason says which),
 * PAPI_ENOMEM. */
int PAPI_event_name_to_code(const char *in, int *out)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!in || !out)
		return PAPI_EINVAL;
	if (strnlen(in, PAPI_HUGE_STR_LEN + 1) > PAPI_HUGE_STR_LEN) {
		papi_set_reason("%.40s...: longer than any event name (%d characters)", in,
				PAPI_HUGE_STR_LEN);
		return PAPI_ENOEVNT;
	}
	/* With a component prefix, only native events (as PAPI 7). */
	int cidx;
	const char *ev = strip_component(in, &cidx);
	if (!ev)
		return PAPI_ENOEVNT;
	if (cidx > 0) {
		int r = cmp_name_to_code(cidx, ev, out);
		return r == PAPI_ENOCMP ? PAPI_ENOEVNT : r;
	}
	if (cidx < 0) {
		int r = presets_may_name(in) ? presets_name_to_code(in, out) : PAPI_ENOEVNT;
		if (r == PAPI_ENOEVNT && strncmp(in, "PAPI_", 5) == 0 && !*papi_last_reason())
			papi_set_reason("%.200s: unknown event (no preset of that name)", in);
		if (r != PAPI_ENOEVNT || strncmp(in, "PAPI_", 5) == 0)
			return r;
	}
	/* Loading the preset tables on first use may leave the reason of some
	 * preset's event behind: it says nothing about this name. */
	papi_clear_reason();
	if (!*ev) {
		papi_set_reason("empty event name");
		return PAPI_ENOEVNT;
	}
	int idx, r = PAPI_ENOEVNT;
	if (!cmp_disabled(0) && (r = native_lookup(ev, &idx)) == PAPI_OK) {
		*out = PAPI_NATIVE_MASK | idx;
		return PAPI_OK;
	}
	/* Another component's event named without its prefix: perf_event's
	 * reason stays when none has it. A pmu:: or PMU/terms/ name is only
	 * asked of the components whose names are spelled so (uncore). */
	int pmu_name = strstr(ev, "::") || strchr(ev, '/');
	if ((r != PAPI_ENOEVNT && (!pmu_name || r == PAPI_ENOMEM)) || cidx == 0)
		return r;
	char why[PAPI_HUGE_STR_LEN];
	if (cmp_disabled(0) > 0) {	/* perf_event, which names the CPU's events, is off */
		const PAPI_component_info_t *ci = PAPI_get_component_info(0);
		snprintf(why, sizeof why, "%.200s: no enabled component has it; component perf_event "
			 "is disabled (%.500s)", ev, ci && *ci->disabled_reason ? ci->disabled_reason :
			 "by PAPI_DISABLE_COMPONENTS or PAPI_disable_component");
	} else {
		snprintf(why, sizeof why, "%s", papi_last_reason());
	}
	for (int c = 1; pmu_name && c < PAPI_num_components(); c++) {
		const struct component *k;
		if (cmp_disabled(c) || cmp_get(c, &k) != PAPI_OK || !k->bare_names)
			continue;
		/* A component that has the PMU says what is wrong with the rest. */
		int rc = cmp_name_to_code(c, ev, out);
		if (rc == PAPI_OK)
			return PAPI_OK;
		/* perf_event knew the event and refused it otherwise (a bad
		 * qualifier): its answer stands. */
		if (rc != PAPI_ENOCMP && r == PAPI_ENOEVNT)
			return rc;
	}
	papi_clear_reason();
	if (pmu_name) {
		/* A PMU libpfm4 does not know (unforced: LIBPFM_FORCE_PMU
		 * hides the others), while perf_event_uncore, which names the
		 * kernel's other PMUs, is off: say that too. */
		struct pfm_pmu_brief pb;
		const struct component *k;
		const char *forced = getenv("LIBPFM_FORCE_PMU");
		int u = cmp_index(&cmp_uncore);
		const PAPI_component_info_t *ci = PAPI_get_component_info(u);
		if (r == PAPI_ENOEVNT && u > 0 && ci && (!forced || !*forced) &&
		    cmp_get(u, &k) == PAPI_ECMP && !pmu_pfm_named(ev, strcspn(ev, ":/"), &pb)) {
			size_t n = strlen(why);
			snprintf(why + n, sizeof why - n, "%s%.*s is no PMU of libpfm4's, and component "
				 "%s, which names the kernel's other PMUs, is disabled: %.300s",
				 n ? "; " : "", (int)strcspn(ev, ":/"), ev, ci->name,
				 cmp_disabled_reason(u) ? cmp_disabled_reason(u) : ci->disabled_reason);
		}
		if (*why)
			papi_set_reason("%s", why);
		return r;
	}
	int was = papi_reason_mute(1);
	for (int c = 1; c < PAPI_num_components(); c++)
		if (cmp_name_to_code(c, ev, out) == PAPI_OK) {
			papi_reason_mute(was);
			papi_clear_reason();
			return PAPI_OK;
		}
	papi_reason_mute(was);
	papi_clear_reason();
	if (*why)
		papi_set_reason("%s", why);
	return r;
}

/* PAPI_event_code_to_name: write the event's name into out, which must hold
 * PAPI_MAX_STR_LEN bytes (native names with long qualifier lists may need up
 * to PAPI_HUGE_STR_LEN: such a name gives PAPI_EBUF rather than a cut name).
 * Native names come back canonical, "pmu::EVENT[:qualifiers]", but for the
 * events of libpfm4's default core PMU, which PAPI 7 names without their
 * PMU: "EVENT[:qualifiers]" (native_api_name).
 * PAPI_ENOINIT, PAPI_EINVAL (out NULL), PAPI_ENOEVNT (unknown code),
 * PAPI_ENOTPRESET (preset code out of range), PAPI_EBUF. */
int PAPI_event_code_to_name(int EventCode, char *out)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!out)
		return PAPI_EINVAL;
	switch (code_kind(EventCode)) {
	case K_PRESET:
		return presets_code_to_name(EventCode, out);
	case K_NATIVE: {
		const struct native *n = code_native(EventCode);
		if (!n || (n->cidx > 0 && cmp_disabled(n->cidx)))
			return PAPI_ENOEVNT;
		const char *name = native_api_name(n);
		size_t len = strlen(name);
		if (len >= PAPI_MAX_STR_LEN)
			return PAPI_EBUF;
		memcpy(out, name, len + 1);
		return PAPI_OK;
	}
	default:
		return PAPI_ENOEVNT;
	}
}

/* Describe event n of a component other than perf_event. */
static int cmp_info(int code, const struct native *n, PAPI_event_info_t *info)
{
	const struct component *c;
	struct cmp_event e;
	int r = cmp_get(n->cidx, &c);
	if (r != PAPI_OK)
		return PAPI_ENOCMP;
	if ((r = c->event(n->cev, &e)) != PAPI_OK)
		return r;
	memset(info, 0, sizeof *info);
	info->event_code = (unsigned)code;
	snprintf(info->symbol, sizeof info->symbol, "%s", n->name);
	snprintf(info->short_descr, sizeof info->short_descr, "%s", e.desc);
	snprintf(info->long_descr, sizeof info->long_descr, "%s", e.desc);
	snprintf(info->units, sizeof info->units, "%s", e.units);
	info->component_index = n->cidx;
	info->data_type = PAPI_DATATYPE_INT64;
	info->value_type = e.instant ? PAPI_VALUETYPE_ABSOLUTE : PAPI_VALUETYPE_RUNNING_SUM;
	info->timescope = e.instant ? PAPI_TIMESCOPE_POINT : PAPI_TIMESCOPE_SINCE_START;
	return PAPI_OK;
}

/* The qualifiers of libpfm4 event ev (its modifiers, not its umasks) into
 * PAPI 7.2's num_quals, quals (":NAME=0", as the name takes them) and
 * quals_descrs, the first PAPI_MAX_COMP_QUALS of them. */
static void info_quals(int ev, PAPI_event_info_t *info)
{
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (ev < 0 || pfm_get_event_info(ev, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return;
	for (int k = 0; k < ei.nattrs && info->num_quals < PAPI_MAX_COMP_QUALS; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(ev, k, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS ||
		    ai.type == PFM_ATTR_UMASK)
			continue;
		int q = info->num_quals++;
		snprintf(info->quals[q], sizeof info->quals[q], ":%s=0", ai.name);
		snprintf(info->quals_descrs[q], sizeof info->quals_descrs[q], "%s", ai.desc ? ai.desc : "");
	}
}

/* PAPI_get_event_info: describe an event. For natives as PAPI 7's perf_event
 * component: symbol, long_descr, component_index, and PAPI 7.2's qualifiers
 * (the libpfm4 modifiers the event takes); the rest zero.
 * PAPI_ENOINIT, PAPI_EINVAL (info NULL), PAPI_ENOCMP (native code of no
 * event, as PAPI 7), PAPI_ENOTPRESET (a code of no kind, or a preset out of
 * range), PAPI_ENOEVNT (unknown user event). */
int PAPI_get_event_info(int EventCode, PAPI_event_info_t *info)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!info)
		return PAPI_EINVAL;
	switch (code_kind(EventCode)) {
	case K_PRESET:
		return presets_info(EventCode, info);
	case K_NATIVE: {
		const struct native *n = code_native(EventCode);
		if (!n)
			return PAPI_ENOCMP;
		if (n->cidx > 0)
			return cmp_info(EventCode, n, info);
		int r = native_info(EventCode & PAPI_NATIVE_AND_MASK, info);
		const struct native *f = native_get_full(EventCode & PAPI_NATIVE_AND_MASK);
		if (r == PAPI_OK && f && !f->umask_only)
			info_quals(f->pfm_idx, info);
		return r;
	}
	default:
		return PAPI_ENOTPRESET;
	}
}

/* codes_explain_unavailable: see internal.h. */
void codes_explain_unavailable(int code, int err)
{
	if (code_kind(code) != K_PRESET || err == PAPI_OK)
		return;
	char name[PAPI_MAX_STR_LEN];
	if (presets_code_to_name(code, name) != PAPI_OK)
		snprintf(name, sizeof name, "event 0x%x", (unsigned)code);
	const char *core = pmu_core_unavailable_reason(), *why = presets_why(code);
	if (err == PAPI_ENOTPRESET)
		papi_set_reason("%s: not a preset code", name);
	else if (core)
		papi_set_reason("%s: not available here: it needs hardware events and %s", name, core);
	else if (why)
		papi_set_reason("%s: not available here: %s", name, why);
	else
		papi_set_reason("%s: not available on this CPU: no definition for it, or its "
				"native events are missing", name);
}

/* PAPI_query_event: PAPI_OK when the event exists here. As in PAPI 7, a native
 * event exists when it has a code and its component is enabled (whether the
 * kernel can count it is for PAPI_add_event to say); a preset when this
 * machine defines it.
 * PAPI_ENOINIT, PAPI_ENOEVNT, PAPI_ENOCMP (native code of no event),
 * PAPI_ENOTPRESET (preset code out of range). */
int PAPI_query_event(int EventCode)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	switch (code_kind(EventCode)) {
	case K_PRESET: {
		int r = presets_query(EventCode);
		codes_explain_unavailable(EventCode, r);
		return r;
	}
	case K_NATIVE: {
		const struct native *n = code_native(EventCode);
		if (!n)
			return PAPI_ENOCMP;
		const struct component *c;
		return n->cidx > 0 && cmp_get(n->cidx, &c) != PAPI_OK ? PAPI_ENOEVNT : PAPI_OK;
	}
	default:
		return PAPI_ENOEVNT;
	}
}

/* PAPI_query_named_event: PAPI_query_event of the event called EventName.
 * PAPI_ENOINIT, PAPI_EINVAL (NULL), PAPI_ENOEVNT (as
 * PAPI_event_name_to_code). */
int PAPI_query_named_event(const char *EventName)
{
	int code, r = PAPI_event_name_to_code(EventName, &code);
	return r == PAPI_OK ? PAPI_query_event(code) : r;
}

/* PAPI_get_event_component: the component index of an event code: 0 for
 * presets and user events (which the CPU component carries, as PAPI 7), the
 * component of a native event. PAPI_ENOINIT, PAPI_ENOEVNT (native code of no
 * event). */
int PAPI_get_event_component(int EventCode)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	int cev, c = codes_component(EventCode, &cev);
	return c == PAPI_ENOTPRESET ? 0 : c;
}

/* Enumerate the events of component cidx (> 0): PAPI_ENUM_FIRST its first,
 * PAPI_ENUM_EVENTS the one after *code (which must be one of its events);
 * they have no unit masks. */
static int cmp_enum(int *code, int modifier, int cidx)
{
	const struct component *c;
	if (cmp_get(cidx, &c) != PAPI_OK)
		return PAPI_ENOCMP;
	int ev;
	switch (modifier) {
	case PAPI_ENUM_FIRST:
		ev = 0;
		break;
	case PAPI_ENUM_EVENTS: {
		const struct native *n = code_native(*code);
		if (!n || n->cidx != cidx)
			return PAPI_ENOCMP;
		ev = n->cev + 1;
		break;
	}
	case PAPI_NTV_ENUM_UMASKS:
		return code_native(*code) ? PAPI_ENOEVNT : PAPI_ENOCMP;
	default:
		return PAPI_EINVAL;
	}
	/* skip the events that are gone (sde: a counter its library unregistered) */
	struct cmp_event e;
	for (int n = c->nevents(); ev < n; ev++)
		if (c->event(ev, &e) == PAPI_OK)
			return cmp_code(cidx, ev, c->name, code);
	return PAPI_ENOEVNT;
}

/* PAPI_enum_cmp_event: the next event code of component cidx after
 * *EventCode. For native codes: PAPI_ENUM_FIRST (from PAPI_NATIVE_MASK),
 * PAPI_ENUM_EVENTS, PAPI_NTV_ENUM_UMASKS (see native_enum; the other
 * components' events have none); preset and user codes walk the presets,
 * which are component 0's. PAPI_ENOINIT, PAPI_EINVAL (NULL, a code of no
 * kind, an unsupported modifier), PAPI_ENOCMP (bad or disabled cidx, native
 * code of no event or of another component), PAPI_ENOEVNT (no more events). */
int PAPI_enum_cmp_event(int *EventCode, int modifier, int cidx)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!EventCode)
		return PAPI_EINVAL;
	if (cmp_disabled(cidx) != 0)
		return PAPI_ENOCMP;
	switch (code_kind(*EventCode)) {
	case K_PRESET:
		return cidx == 0 ? presets_enum(EventCode, modifier) : PAPI_ENOEVNT;
	case K_NATIVE:
		return cidx == 0 ? native_enum(EventCode, modifier, 0) : cmp_enum(EventCode, modifier, cidx);
	default:
		return PAPI_EINVAL;
	}
}

/* PAPI_enum_event: PAPI_enum_cmp_event within the component of *EventCode
 * (perf_event for PAPI_ENUM_FIRST from PAPI_NATIVE_MASK), as PAPI 7. Same
 * errors; PAPI_ENOEVNT when that component is disabled. */
int PAPI_enum_event(int *EventCode, int modifier)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!EventCode)
		return PAPI_EINVAL;
	if (code_kind(*EventCode) == K_PRESET)
		return presets_enum(EventCode, modifier);
	if (code_kind(*EventCode) == K_OTHER)
		return PAPI_EINVAL;
	const struct native *n = modifier == PAPI_ENUM_FIRST ? NULL : code_native(*EventCode);
	int cidx = n ? n->cidx : 0;
	if (cmp_disabled(cidx))
		return PAPI_ENOEVNT;
	return cidx == 0 ? native_enum(EventCode, modifier, 0) : cmp_enum(EventCode, modifier, cidx);
}
