/* levels.c: a program built at one release's level (-DPAPI_ABI_LEVEL=70, 71 or 72) checks that the library it runs on answers in that release's layouts and numbers; prints one "name value" line per fact, exit 1 on a broken layout.
 * The structs it gets are placed in buffers larger than its papi.h says and
 * filled with a guard byte: a library that writes another release's layout
 * writes past the end (caught here) or leaves the fields in the wrong place
 * (symbol, CmpIdx and the flags read back wrong). The lines printed are
 * compared between levels by library.bats: the same library, asked in three
 * releases' numbers, must name the same events. */
#include <stdio.h>
#include <string.h>

#include "papi.h"

#define GUARD 0xa5
#define SLACK 20000	/* 7.2's event description is 16,388 bytes larger than 7.0's */

static unsigned char buf[sizeof(PAPI_event_info_t) + SLACK];

static int untouched_after(const void *p, size_t size, size_t total)
{
	const unsigned char *b = p;
	for (size_t i = size; i < total; i++)
		if (b[i] != GUARD)
			return 0;
	return 1;
}

/* count EVENTS from code with modifier m */
static int walk(int code, int m)
{
	int n = 0;
	while (PAPI_enum_event(&code, m) == PAPI_OK)
		n++;
	return n;
}

int main(void)
{
	int bad = 0;
	printf("ver_current 0x%x\n", PAPI_VER_CURRENT);
	int r = PAPI_library_init(PAPI_VER_CURRENT);
	printf("library_init %s\n", r == PAPI_VER_CURRENT ? "ver_current" : "error");
	if (r != PAPI_VER_CURRENT)
		return 1;
	/* the library is of this release, not another's */
	printf("lib_version 0x%x\n", PAPI_get_opt(PAPI_LIB_VERSION, NULL));
	printf("library_init(other) %d\n", PAPI_library_init(PAPI_VER_CURRENT ^ 0x00030000));

	/* the component description: the fields after the 7.2 insertion in place */
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	if (!ci)
		return 1;
	printf("cmp0 %s idx %d initialized %d attach %d cpu %d inherit %d\n", ci->name, ci->CmpIdx,
	       ci->initialized, ci->attach, ci->cpu, ci->inherit);
	printf("cmp0 pmu %s\n", ci->pmu_names[0] ? ci->pmu_names[0] : "(none)");
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_COMPONENTINFO, &o);
	printf("get_opt(COMPONENTINFO) %d same %d\n", r, r == PAPI_OK && o.cmp_info &&
	       o.cmp_info->CmpIdx == 0 && o.cmp_info->initialized == ci->initialized);

	/* the event description: written within this release's size */
	int code = PAPI_TOT_INS;
	memset(buf, GUARD, sizeof buf);
	PAPI_event_info_t *in = (PAPI_event_info_t *)buf;
	r = PAPI_get_event_info(code, in);
	printf("event_info(PAPI_TOT_INS) %d symbol %s\n", r, in->symbol);
	printf("event_type(PAPI_TOT_INS) ins %d\n", !!(in->event_type & PAPI_PRESET_BIT_INS));
	if (!untouched_after(buf, sizeof *in, sizeof buf)) {
		printf("event_info wrote past %zu bytes\n", sizeof *in);
		bad = 1;
	}
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &code) == PAPI_OK) {
		memset(buf, GUARD, sizeof buf);
		r = PAPI_get_event_info(code, in);
		printf("event_info(perf::TASK-CLOCK) %d symbol %s component %d\n", r, in->symbol,
		       in->component_index);
		if (!untouched_after(buf, sizeof *in, sizeof buf)) {
			printf("event_info wrote past %zu bytes\n", sizeof *in);
			bad = 1;
		}
		printf("umasks(perf::TASK-CLOCK) %d\n", walk(code, PAPI_NTV_ENUM_UMASKS));
	}

	/* the enumeration modifiers, in this release's numbers */
	printf("presets %d\n", 1 + walk(PAPI_PRESET_MASK, PAPI_ENUM_EVENTS));
	printf("presets avail %d\n", walk(PAPI_PRESET_MASK, PAPI_PRESET_ENUM_AVAIL));
	printf("presets ins %d\n", walk(PAPI_PRESET_MASK, PAPI_PRESET_ENUM_INS));
	printf("presets fp %d\n", walk(PAPI_PRESET_MASK, PAPI_PRESET_ENUM_FP));
	printf("strerror(-27) %s\n", PAPI_strerror(-27) ? "message" : "NULL");
	printf("strerror(-28) %s\n", PAPI_strerror(-28) ? "message" : "NULL");
	return bad;
}
