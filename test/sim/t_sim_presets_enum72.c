/* t_sim_presets_enum72.c: PAPI 7.2's preset walks under LIBPFM_FORCE_PMU=skx, on a simulated core PMU (a preset is available only where the kernel has its PMU): PAPI_PRESET_ENUM_CPU lists every preset, _CPU_AVAIL those PAPI_query_event finds here, _FIRST_COMP none (no component has presets), and the older walks still work. */
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

#define MAXC 256

/* The codes a walk with modifier m visits from the first preset. */
static int walk(int m, int *codes)
{
	int code = PAPI_PRESET_MASK, n = 0;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) != PAPI_OK)
		return -1;
	if (m == PAPI_ENUM_EVENTS || m == PAPI_PRESET_ENUM_CPU)
		codes[n++] = code;	/* the first is part of the walk */
	else if (PAPI_query_event(code) == PAPI_OK)
		codes[n++] = code;
	while (n < MAXC && PAPI_enum_event(&code, m) == PAPI_OK)
		codes[n++] = code;
	return n;
}

int main(void)
{
	if (pmu_tables_missing("skx", "the skx preset table"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	struct sim_config c = sim_default_config();
	sim_install(&c);
	unsetenv("PAPI_CSV_EVENT_FILE");
	unsetenv("PAPI_USER_EVENTS_FILE");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	static int all[MAXC], cpu[MAXC], avail[MAXC], cpu_avail[MAXC], queried[MAXC];
	int nall = walk(PAPI_ENUM_EVENTS, all), ncpu = walk(PAPI_PRESET_ENUM_CPU, cpu);
	is_int(nall, 108, "PAPI_ENUM_EVENTS walks PAPI 7's 108 presets");
	ok(ncpu == nall && !memcmp(all, cpu, sizeof *all * (size_t)nall),
	   "PAPI_PRESET_ENUM_CPU walks the same %d", ncpu);
	/* the available ones, asked one by one */
	int nq = 0;
	for (int i = 0; i < nall; i++)
		if (PAPI_query_event(all[i]) == PAPI_OK)
			queried[nq++] = all[i];
	ok(nq > 20, "skx has %d presets available", nq);
	int na = walk(PAPI_PRESET_ENUM_AVAIL, avail), nca = walk(PAPI_PRESET_ENUM_CPU_AVAIL, cpu_avail);
	ok(na == nq && !memcmp(avail, queried, sizeof *avail * (size_t)nq),
	   "PAPI_PRESET_ENUM_AVAIL walks those %d", na);
	ok(nca == nq && !memcmp(cpu_avail, queried, sizeof *cpu_avail * (size_t)nq),
	   "PAPI_PRESET_ENUM_CPU_AVAIL walks the same %d", nca);
	int code = PAPI_PRESET_MASK;
	is_int(PAPI_enum_event(&code, PAPI_PRESET_ENUM_FIRST_COMP), PAPI_ENOEVNT,
	       "PAPI_PRESET_ENUM_FIRST_COMP: no component has presets of its own");
	is_int(code, PAPI_PRESET_MASK, "and the code is left alone");
	code = PAPI_PRESET_MASK;
	is_int(PAPI_enum_cmp_event(&code, PAPI_PRESET_ENUM_CPU_AVAIL, 0), PAPI_OK,
	       "PAPI_enum_cmp_event takes the new walks on component 0");
	PAPI_shutdown();
	sim_uninstall();
	return tap_done();
}
