/* older.c: PAPI 7.0's and 7.1's ABI over the 7.2 implementation: the calls whose ABI changed in 7.2, as libpapi.so.7.0 and libpapi.so.7.1 export them. */
/*
 * One implementation, three releases. The library is compiled once, at
 * PAPI 7.2's level: its structs, codes and enum values are 7.2's, and that
 * is libpapi.so.7.2 (and libpapi.a). A program built against PAPI 7.0 or
 * 7.1 differs from a 7.2 one in a handful of calls only:
 *
 *   PAPI_library_init        it passes its own PAPI_VER_CURRENT
 *   PAPI_get_component_info  its PAPI_component_info_t has no
 *   PAPI_get_opt, _cmp_opt   partially_disabled_reason/partially_disabled
 *     (PAPI_COMPONENTINFO)   (2,272 bytes, not 3,296); PAPI_get_opt's
 *                            PAPI_LIB_VERSION is that release's
 *   PAPI_get_event_info      its PAPI_event_info_t ends before num_quals
 *   PAPI_set_event_info      (6,680 bytes, not 23,068), and its
 *                            PAPI_PRESET_BIT_* are one bit lower
 *   PAPI_enum_event,         its modifiers lack PAPI_PRESET_ENUM_FIRST_COMP
 *   PAPI_enum_cmp_event      (2), _CPU and _CPU_AVAIL (16, 17)
 *   PAPI_strerror            it knows no PAPI_PARTIAL (-28)
 *
 * (PAPI_rate_stop and PAPI_hl_stop, "()" in 7.0 and "(void)" since 7.1,
 * are called the same way.) To make libpapi.so.7.0 and .7.1, the Makefile
 * links the same objects with those calls renamed papi72_* (objcopy
 * --redefine-syms: the library's own calls of them reach the 7.2 code
 * still) and this file, compiled once per release with PAPI_OLDER_LEVEL 70
 * or 71, which defines them under their PAPI_* names: each turns the older
 * caller's numbers into 7.2's, calls the papi72_* one and turns the answer
 * back. Nothing else is copied or compiled twice.
 *
 * libpapi.a serves every release from one archive: there the 7.2 calls
 * keep their PAPI_* names, and this file, compiled with
 * PAPI_OLDER_IN_ARCHIVE as well, defines the older release's calls under
 * the names that papi.h gives a program built at that level
 * (PAPI_library_init_v70, ...), over the PAPI_* ones.
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "papi.h"

#if PAPI_OLDER_LEVEL != 70 && PAPI_OLDER_LEVEL != 71
#error "compile with -DPAPI_OLDER_LEVEL=70 or 71"
#endif
#if PAPI_ABI_LEVEL != 72
#error "the implementation below is 7.2's: include papi.h at its default level"
#endif

#define HIDDEN __attribute__((visibility("hidden")))

#ifdef PAPI_OLDER_IN_ARCHIVE
/* Beside the 7.2 calls, under papi.h's names for this level (OLD(x) is
 * PAPI_x_v70 or PAPI_x_v71), which the archive leaves global. */
#define OLD(name)		OLD_AT(name, PAPI_OLDER_LEVEL)
#define OLD_AT(name, level)	OLD_AT_(name, level)
#define OLD_AT_(name, level)	PAPI_##name##_v##level
#define NEW(name)		PAPI_##name
#define OLD_API			__attribute__((visibility("default")))
#else
/* In this release's library, under the PAPI_* names, over the 7.2
 * implementation renamed by the Makefile (hidden: this library exports
 * the PAPI_* names instead). */
#define OLD(name)		PAPI_##name
#define NEW(name)		papi72_##name
#define OLD_API
HIDDEN int papi72_library_init(int version);
HIDDEN const PAPI_component_info_t *papi72_get_component_info(int cidx);
HIDDEN int papi72_get_opt(int option, PAPI_option_t *ptr);
HIDDEN int papi72_get_cmp_opt(int option, PAPI_option_t *ptr, int cidx);
HIDDEN int papi72_get_event_info(int EventCode, PAPI_event_info_t *info);
HIDDEN int papi72_set_event_info(PAPI_event_info_t *info, int *EventCode, int replace);
HIDDEN int papi72_enum_event(int *EventCode, int modifier);
HIDDEN int papi72_enum_cmp_event(int *EventCode, int modifier, int cidx);
HIDDEN char *papi72_strerror(int code);
#endif

/* The older release's numbers. */
#define OLD_VERSION		PAPI_VERSION_NUMBER(7, PAPI_OLDER_LEVEL - 70, 0, 0)
#define OLD_VER_CURRENT		((int)(OLD_VERSION & 0xffff0000))
#define OLD_PRESET_ENUM_AVAIL	2	/* PAPI_PRESET_ENUM_AVAIL .. _FP: 2 .. 14 */
#define OLD_PRESET_ENUM_FP	14
#define OLD_NUM_ERRORS		28	/* 0 .. PAPI_EMULPASS */

/* The older event description is 7.2's cut where num_quals begins. */
#define OLD_EVENT_INFO_SIZE	offsetof(PAPI_event_info_t, num_quals)
_Static_assert(OLD_EVENT_INFO_SIZE == 6680, "PAPI 7.0/7.1 PAPI_event_info_t is 6,680 bytes");

/* The older component description: 7.2's without partially_disabled_reason
 * and partially_disabled (whose removal also moves pmu_names' padding). */
struct old_cmp_info {
	char name[PAPI_MAX_STR_LEN];
	char short_name[PAPI_MIN_STR_LEN];
	char description[PAPI_MAX_STR_LEN];
	char version[PAPI_MIN_STR_LEN];
	char support_version[PAPI_MIN_STR_LEN];
	char kernel_version[PAPI_MIN_STR_LEN];
	char disabled_reason[PAPI_HUGE_STR_LEN];
	int disabled;
	int initialized;
	int CmpIdx;
	int num_cntrs;
	int num_mpx_cntrs;
	int num_preset_events;
	int num_native_events;
	int default_domain;
	int available_domains;
	int default_granularity;
	int available_granularities;
	int hardware_intr_sig;
	int component_type;
	char *pmu_names[PAPI_PMU_MAX];
	int reserved[8];
	unsigned int hardware_intr:1, precise_intr:1, posix1b_timers:1,
		kernel_profile:1, kernel_multiplex:1, fast_counter_read:1,
		fast_real_timer:1, fast_virtual_timer:1, attach:1,
		attach_must_ptrace:1, cntr_umasks:1, cpu:1, inherit:1,
		reserved_bits:19;
};
_Static_assert(sizeof(struct old_cmp_info) == 2272, "PAPI 7.0/7.1 PAPI_component_info_t is 2,272 bytes");
_Static_assert(offsetof(struct old_cmp_info, pmu_names) == 1592, "PAPI 7.0/7.1 pmu_names offset");
_Static_assert(PAPI_PRESET_ENUM_FIRST_COMP == 2 && PAPI_PRESET_ENUM_AVAIL == 3 &&
	       PAPI_PRESET_ENUM_FP == 15 && PAPI_NTV_ENUM_UMASKS == 18, "7.2's modifiers");

/* An older caller's modifier as 7.2's, or -1 for none of 7.2's. */
static int modifier_in(int m)
{
	if (m == PAPI_ENUM_EVENTS || m == PAPI_ENUM_FIRST)
		return m;
	if (m >= OLD_PRESET_ENUM_AVAIL && m <= OLD_PRESET_ENUM_FP)
		return m + 1;		/* after PAPI_PRESET_ENUM_FIRST_COMP */
	if (m > OLD_PRESET_ENUM_FP)
		return m + 3;		/* and after _CPU and _CPU_AVAIL */
	return -1;
}

/* The preset categories (PAPI_PRESET_BIT_MSC .. _FP) moved up one bit. */
#define BITS_72 (((1u << (PAPI_PRESET_ENUM_FP + 1)) - 1) & ~((1u << PAPI_PRESET_ENUM_MSC) - 1))
static unsigned bits_out(unsigned t)
{
	return ((t & BITS_72) >> 1) | (t & ~BITS_72 & ~(1u << PAPI_PRESET_ENUM_CPU));
}
static unsigned bits_in(unsigned t)
{
	unsigned cats = t & (BITS_72 >> 1);
	return (cats << 1) | (t & ~(BITS_72 >> 1) & ~BITS_72);
}

/* PAPI_library_init: this release's PAPI_VER_CURRENT, and only it. Returns
 * it, or PAPI_EINVAL, or the 7.2 call's error. */
OLD_API int OLD(library_init)(int version)
{
	if (version != OLD_VER_CURRENT)
		return PAPI_EINVAL;
	int r = NEW(library_init)(PAPI_VER_CURRENT);
	return r == PAPI_VER_CURRENT ? OLD_VER_CURRENT : r;
}

/* The older descriptions of the components: rewritten from 7.2's at each
 * call, as 7.2's own is, and valid until PAPI_shutdown like it. */
#define OLD_CMP_MAX 64
static struct old_cmp_info old_cmp[OLD_CMP_MAX];
static pthread_mutex_t old_cmp_lock = PTHREAD_MUTEX_INITIALIZER;

static const PAPI_component_info_t *cmp_out(const PAPI_component_info_t *n)
{
	if (!n || n->CmpIdx < 0 || n->CmpIdx >= OLD_CMP_MAX)
		return NULL;
	struct old_cmp_info *o = &old_cmp[n->CmpIdx];
	pthread_mutex_lock(&old_cmp_lock);
	/* the strings up to disabled, then every field from initialized on */
	memcpy(o, n, offsetof(struct old_cmp_info, initialized));
	/* a component that works in part works: an older release has no other word for it */
	if (o->disabled == PAPI_PARTIAL)
		o->disabled = 0;
#define F(x) o->x = n->x;
	F(initialized) F(CmpIdx) F(num_cntrs) F(num_mpx_cntrs) F(num_preset_events)
	F(num_native_events) F(default_domain) F(available_domains) F(default_granularity)
	F(available_granularities) F(hardware_intr_sig) F(component_type)
	F(hardware_intr) F(precise_intr) F(posix1b_timers) F(kernel_profile) F(kernel_multiplex)
	F(fast_counter_read) F(fast_real_timer) F(fast_virtual_timer) F(attach)
	F(attach_must_ptrace) F(cntr_umasks) F(cpu) F(inherit) F(reserved_bits)
#undef F
	memcpy(o->pmu_names, n->pmu_names, sizeof o->pmu_names);
	memcpy(o->reserved, n->reserved, sizeof o->reserved);
	pthread_mutex_unlock(&old_cmp_lock);
	return (const PAPI_component_info_t *)(const void *)o;
}

/* PAPI_get_component_info: component cidx in this release's layout; NULL as
 * the 7.2 call. */
OLD_API const PAPI_component_info_t *OLD(get_component_info)(int cidx)
{
	return cmp_out(NEW(get_component_info)(cidx));
}

/* PAPI_get_cmp_opt, PAPI_get_opt: as 7.2's; PAPI_COMPONENTINFO answers with
 * this release's layout, PAPI_LIB_VERSION with this release's number. */
OLD_API int OLD(get_cmp_opt)(int option, PAPI_option_t *ptr, int cidx)
{
	int r = NEW(get_cmp_opt)(option, ptr, cidx);
	if (r == PAPI_OK && option == PAPI_COMPONENTINFO && ptr)
		ptr->cmp_info = (PAPI_component_info_t *)cmp_out(ptr->cmp_info);
	return r;
}

OLD_API int OLD(get_opt)(int option, PAPI_option_t *ptr)
{
	int r = NEW(get_opt)(option, ptr);
	if (option == PAPI_LIB_VERSION && r == PAPI_VERSION)
		return OLD_VERSION;
	if (r == PAPI_OK && option == PAPI_COMPONENTINFO && ptr)
		ptr->cmp_info = (PAPI_component_info_t *)cmp_out(ptr->cmp_info);
	return r;
}

/* PAPI_get_event_info: the 7.2 description cut to this release's layout
 * (info points to 6,680 bytes). Same errors. */
OLD_API int OLD(get_event_info)(int EventCode, PAPI_event_info_t *info)
{
	if (!info)
		return NEW(get_event_info)(EventCode, info);
	PAPI_event_info_t n;
	int r = NEW(get_event_info)(EventCode, &n);
	if (r != PAPI_OK)
		return r;
	n.event_type = IS_PRESET(EventCode) ? bits_out(n.event_type) : n.event_type;
	memcpy(info, &n, OLD_EVENT_INFO_SIZE);
	return PAPI_OK;
}

/* PAPI_set_event_info: an older caller's description (6,680 bytes) given to
 * the 7.2 call with no qualifiers. */
OLD_API int OLD(set_event_info)(PAPI_event_info_t *info, int *EventCode, int replace)
{
	if (!info)
		return NEW(set_event_info)(info, EventCode, replace);
	PAPI_event_info_t n;
	memset(&n, 0, sizeof n);
	memcpy(&n, info, OLD_EVENT_INFO_SIZE);
	n.event_type = bits_in(n.event_type);
	return NEW(set_event_info)(&n, EventCode, replace);
}

/* PAPI_enum_event, PAPI_enum_cmp_event: this release's modifiers; one it
 * does not have is PAPI_EINVAL, as the 7.2 calls answer an unknown one. */
OLD_API int OLD(enum_event)(int *EventCode, int modifier)
{
	int m = modifier_in(modifier);
	return m < 0 ? PAPI_EINVAL : NEW(enum_event)(EventCode, m);
}

OLD_API int OLD(enum_cmp_event)(int *EventCode, int modifier, int cidx)
{
	int m = modifier_in(modifier);
	return m < 0 ? PAPI_EINVAL : NEW(enum_cmp_event)(EventCode, m, cidx);
}

/* PAPI_strerror: NULL for PAPI_PARTIAL, which this release does not have. */
OLD_API char *OLD(strerror)(int code)
{
	return code <= -OLD_NUM_ERRORS ? NULL : NEW(strerror)(code);
}
