/* codes.c: the event code layout; name <-> code, enumeration, query and event info for every kind of code. */
#include <stdio.h>
#include <string.h>

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

/* A name may start with its component, as PAPI 7 spells events of other
 * components ("perf_event:::perf::TASK-CLOCK", "appio:::READ_BYTES"). Returns
 * the event part, or NULL (reason set) when the prefix names no component of
 * this library. */
static const char *strip_component(const char *in)
{
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
		if (PAPI_get_component_index(cmp) >= 0)
			return sep + 3;
	}
	papi_set_reason("%.200s: no component \"%.*s\" in this library (its one component is "
			"perf_event: CPU and kernel software events)", in, (int)(n < 64 ? n : 64), in);
	return NULL;
}

/* PAPI_event_name_to_code: the code of a preset, user or native event name.
 * Native names may omit the PMU ("TASK-CLOCK"), carry qualifiers
 * ("perf::TASK-CLOCK:u=1") and start with the component ("perf_event:::");
 * every spelling of one event gets one code.
 * PAPI_ENOINIT, PAPI_EINVAL (NULL, over PAPI_HUGE_STR_LEN, bad qualifier),
 * PAPI_ENOEVNT (no such event or component, or its component is disabled),
 * PAPI_ENOMEM. */
int PAPI_event_name_to_code(const char *in, int *out)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!in || !out || strnlen(in, PAPI_HUGE_STR_LEN + 1) > PAPI_HUGE_STR_LEN)
		return PAPI_EINVAL;
	/* With a component prefix, only native events (as PAPI 7). */
	const char *ev = strip_component(in);
	if (!ev)
		return PAPI_ENOEVNT;
	if (ev == in) {
		int r = presets_may_name(in) ? presets_name_to_code(in, out) : PAPI_ENOEVNT;
		if (r != PAPI_ENOEVNT || strncmp(in, "PAPI_", 5) == 0)
			return r;
	}
	in = ev;
	/* Loading the preset tables on first use may leave the reason of some
	 * preset's event behind: it says nothing about this name. */
	papi_clear_reason();
	if (!*in) {
		papi_set_reason("empty event name");
		return PAPI_ENOEVNT;
	}
	if (cmp_disabled(0))
		return PAPI_ENOEVNT;
	int idx;
	int r = native_lookup(in, &idx);
	if (r == PAPI_OK)
		*out = PAPI_NATIVE_MASK | idx;
	return r;
}

/* PAPI_event_code_to_name: write the event's name into out, which must hold
 * PAPI_MAX_STR_LEN bytes (native names with long qualifier lists may need up
 * to PAPI_HUGE_STR_LEN: such a name gives PAPI_EBUF rather than a cut name).
 * Native names come back canonical: "pmu::EVENT[:qualifiers]".
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
		if (!n)
			return PAPI_ENOEVNT;
		size_t len = strlen(n->name);
		if (len >= PAPI_MAX_STR_LEN)
			return PAPI_EBUF;
		memcpy(out, n->name, len + 1);
		return PAPI_OK;
	}
	default:
		return PAPI_ENOEVNT;
	}
}

/* PAPI_get_event_info: describe an event. For natives as PAPI 7's perf_event
 * component: symbol, long_descr, component_index; the rest zero.
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
	case K_NATIVE:
		if (!code_native(EventCode))
			return PAPI_ENOCMP;
		return native_info(EventCode & PAPI_NATIVE_AND_MASK, info);
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
	const char *core = pmu_core_unavailable_reason();
	if (err == PAPI_ENOTPRESET)
		papi_set_reason("%s: not a preset code", name);
	else if (core)
		papi_set_reason("%s: not available here: it needs hardware events and %s", name, core);
	else
		papi_set_reason("%s: not available on this CPU: no definition for it, or its "
				"native events are missing", name);
}

/* PAPI_query_event: PAPI_OK when the event exists here. As in PAPI 7, a native
 * event exists when it has a code (whether the kernel can count it is for
 * PAPI_add_event to say); a preset when this machine defines it.
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
	case K_NATIVE:
		return code_native(EventCode) ? PAPI_OK : PAPI_ENOCMP;
	default:
		return PAPI_ENOEVNT;
	}
}

/* PAPI_query_named_event: PAPI_query_event of the event called EventName.
 * PAPI_ENOINIT, PAPI_EINVAL (NULL or bad qualifier), PAPI_ENOEVNT. */
int PAPI_query_named_event(const char *EventName)
{
	int code, r = PAPI_event_name_to_code(EventName, &code);
	return r == PAPI_OK ? PAPI_query_event(code) : r;
}

/* PAPI_get_event_component: the component index of an event code: 0 for
 * presets and user events (which the CPU component carries, as PAPI 7) and
 * for natives. PAPI_ENOINIT, PAPI_ENOEVNT (native code of no event). */
int PAPI_get_event_component(int EventCode)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (code_kind(EventCode) == K_NATIVE && !code_native(EventCode))
		return PAPI_ENOEVNT;
	return 0;
}

/* PAPI_enum_cmp_event: the next event code of component cidx after
 * *EventCode. For native codes: PAPI_ENUM_FIRST (from PAPI_NATIVE_MASK),
 * PAPI_ENUM_EVENTS, PAPI_NTV_ENUM_UMASKS (see native_enum); preset and user
 * codes walk the presets. PAPI_ENOINIT, PAPI_EINVAL (NULL, a code of no kind,
 * an unsupported modifier), PAPI_ENOCMP (bad or disabled cidx, native code
 * of no event), PAPI_ENOEVNT (no more events). */
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
		return presets_enum(EventCode, modifier);
	case K_NATIVE:
		return native_enum(EventCode, modifier, cidx);
	default:
		return PAPI_EINVAL;
	}
}

/* PAPI_enum_event: PAPI_enum_cmp_event over every component (there is one
 * CPU component). Same errors. */
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
	if (cmp_disabled(0))
		return PAPI_ENOEVNT;
	return native_enum(EventCode, modifier, 0);
}
