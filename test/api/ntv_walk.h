/* ntv_walk.h: the unit-mask walk (PAPI_NTV_ENUM_UMASKS) of a native event
 * against libpfm4's own list of that event's attributes, which PAPI 7's
 * perf_event component lists one by one: each unit mask as ":NAME", each
 * modifier as ":NAME=0", described as "EVENT'S, masks:ATTRIBUTE'S". */
#ifndef PAPI_TEST_NTV_WALK_H
#define PAPI_TEST_NTV_WALK_H

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib.h>

#include "papi.h"
#include "tap.h"

/* ntv_walk_check: the number of differences between the walk from code
 * (named name, as the library spells it) and libpfm4's attributes of
 * name's event, with a diag for the first few; *walked: how many the walk
 * listed. -1 when libpfm4 does not name the event. */
static inline int ntv_walk_check(int code, const char *name, int *walked)
{
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	memset(&pi, 0, sizeof pi);
	pi.size = sizeof pi;
	/* the event of that very spelling: pfm_find_event takes an alias
	 * (perf::ITLB-LOADS) for the event it stands for, whose unit masks
	 * the alias has fixed */
	int ev = pfm_find_event(name);
	const char *sep = strstr(name, "::"), *evname = sep ? sep + 2 : name;
	*walked = 0;
	ei.size = sizeof ei;
	if (ev < 0 || pfm_get_event_info(ev, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS ||
	    pfm_get_pmu_info(ei.pmu, &pi) != PFM_SUCCESS)
		return -1;
	for (ev = pi.first_event; ev >= 0; ev = pfm_get_event_next(ev)) {
		memset(&ei, 0, sizeof ei);
		ei.size = sizeof ei;
		if (pfm_get_event_info(ev, PFM_OS_PERF_EVENT_EXT, &ei) == PFM_SUCCESS &&
		    !strcasecmp(ei.name, evname))
			break;
	}
	if (ev < 0)
		return -1;
	int bad = 0, u = code, k = 0;
	for (; k < ei.nattrs; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(ev, k, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS ||
		    (ai.type != PFM_ATTR_UMASK && ai.type != PFM_ATTR_MOD_BOOL &&
		     ai.type != PFM_ATTR_MOD_INTEGER))
			continue;
		char want[2 * PAPI_HUGE_STR_LEN], got[PAPI_HUGE_STR_LEN] = "";
		snprintf(want, sizeof want, "%s:%s%s", name, ai.name, ai.type == PFM_ATTR_UMASK ? "" : "=0");
		PAPI_event_info_t in;
		int r = PAPI_enum_event(&u, PAPI_NTV_ENUM_UMASKS);
		if (r == PAPI_OK && PAPI_get_event_info(u, &in) == PAPI_OK)
			snprintf(got, sizeof got, "%s", in.symbol);
		const char *masks = r == PAPI_OK ? strstr(in.long_descr, ", masks:") : NULL;
		if (r != PAPI_OK || strcmp(got, want) || !masks || strcmp(masks + 8, ai.desc)) {
			if (bad++ < 3)
				diag("walk of %s: got %s (%s), want %s", name, got,
				     r == PAPI_OK ? in.long_descr : PAPI_strerror(r), want);
			if (r != PAPI_OK)
				break;
		}
		++*walked;
	}
	if (k == ei.nattrs && PAPI_enum_event(&u, PAPI_NTV_ENUM_UMASKS) != PAPI_ENOEVNT)
		bad++;
	return bad;
}

#endif
