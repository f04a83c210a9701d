/* preset_define.c: the public calls that define preset and user events at run time (PAPI_encode_events, PAPI_set_event_info), turned into definitions for presets.c's tables, and an entry's definition read back (papi decode). */
#include <string.h>

#include "3-naming/naming.h"
#include "3-naming/presets_int.h"

/* PAPI_encode_events: load the definitions of event_file (papi decode's CSV
 * or a definition file) into the preset and user-event tables. Every valid
 * row loads; the first failure is returned: PAPI_ENOINIT, PAPI_EINVAL (NULL,
 * unreadable file, malformed row), PAPI_EPERM (existing event, replace 0),
 * PAPI_EISRUN (event in an EventSet), PAPI_ENOTPRESET (table full),
 * PAPI_ENOEVNT (unknown base event). presets_errors() lists every problem. */
int PAPI_encode_events(char *event_file, int replace)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!event_file)
		return PAPI_EINVAL;
	return presets_define_file("PAPI_encode_events", event_file, replace);
}

/* PAPI_set_event_info: define or (with replace) redefine the event named
 * info->symbol from info->derived, info->postfix and the native names
 * info->name[0..]; *EventCode receives its code. info->event_code must be a
 * preset or user code. PAPI_ENOINIT, PAPI_EINVAL (NULL, empty symbol, unknown
 * derived type, no or too many natives, bad formula), PAPI_ENOEVNT (not a
 * preset code, unknown native), PAPI_EPERM, PAPI_EISRUN, PAPI_ENOTPRESET. */
int PAPI_set_event_info(PAPI_event_info_t *info, int *EventCode, int replace)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!info || !EventCode)
		return PAPI_EINVAL;
	if (!((int)info->event_code & PAPI_PRESET_MASK))
		return PAPI_ENOEVNT;
	struct def_event ev = { .preset = 1, .name = info->symbol };
	if (!info->symbol[0] || strnlen(info->symbol, PAPI_MAX_STR_LEN) >= PAPI_MAX_STR_LEN)
		return PAPI_EINVAL;
	ev.derived = info->derived[0] ? formula_type_parse(info->derived) : NOT_DERIVED;
	if (ev.derived < 0)
		return PAPI_EINVAL;
	if (ev.derived == DERIVED_POSTFIX || ev.derived == DERIVED_INFIX)
		ev.formula = info->postfix;
	for (int i = 0; i < PAPI_MAX_INFO_TERMS && info->name[i][0]; i++) {
		if (ev.nbase == PAPI_EVENTS_IN_DERIVED_EVENT)
			return PAPI_EINVAL;
		ev.base[ev.nbase++] = info->name[i];
	}
	if (!ev.nbase)
		return PAPI_EINVAL;
	ev.sdesc = info->short_descr[0] ? info->short_descr : NULL;
	ev.ldesc = info->long_descr[0] ? info->long_descr : NULL;
	ev.note = info->note[0] ? info->note : NULL;
	return presets_define(&ev, replace, EventCode);
}

/* presets_definition: see internal.h. */
int presets_definition(int code, struct def_event *ev, int *avail)
{
	int err;
	const struct pev *e = presets_entry(code, &err);
	if (!e)
		return err;
	if (!e->defined)
		return PAPI_ENOEVNT;
	memset(ev, 0, sizeof *ev);
	ev->preset = (code & PAPI_UE_MASK) != PAPI_UE_MASK;
	ev->name = e->name;
	ev->derived = e->eff;
	ev->formula = e->eff == DERIVED_POSTFIX ? e->postfix : NULL;
	if (e->eff == DERIVED_POSTFIX && !e->postfix)
		return PAPI_ENOEVNT;	/* a formula postfix cannot spell */
	ev->nbase = e->nterms;
	for (int t = 0; t < e->nterms; t++) {
		const struct native *n = native_get(e->ntv[t]);
		ev->base[t] = n ? n->name : "";
	}
	ev->sdesc = e->sdesc;
	ev->ldesc = e->ldesc;
	ev->note = e->note;
	*avail = e->avail;
	return PAPI_OK;
}
