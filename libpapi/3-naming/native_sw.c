/* native_sw.c: the kernel's software events named without libpfm4 (the fast path of a native lookup). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "3-naming/naming.h"

/* libpfm4's "perf" PMU lists each software event under its PERF_COUNT_SW_*
 * name and its perf-tool aliases; all spellings of one event share its
 * config and its description (the primary name). The table holds exactly the
 * spellings libpfm4 lists, so an entry made here is the entry libpfm4's
 * lookup or enumeration would make (test/unit/t_native_sw.c checks this
 * against libpfm4 itself). */
/* The names are kept in the entries (not as pointers to string literals,
 * which the linker scatters over the program's constants), so a first
 * lookup reads one or two pages of this table and nothing else. */
struct sw_event {
	char name[32];		/* as libpfm4 spells it */
	char primary[32];	/* libpfm4's description: the PERF_COUNT_SW_* name */
	unsigned config;	/* PERF_COUNT_SW_* */
};

#define SW(n, p, c) { n, p, c }
static const struct sw_event sw_events[] = {
	SW("PERF_COUNT_SW_CPU_CLOCK", "PERF_COUNT_SW_CPU_CLOCK", PERF_COUNT_SW_CPU_CLOCK),
	SW("CPU-CLOCK", "PERF_COUNT_SW_CPU_CLOCK", PERF_COUNT_SW_CPU_CLOCK),
	SW("PERF_COUNT_SW_TASK_CLOCK", "PERF_COUNT_SW_TASK_CLOCK", PERF_COUNT_SW_TASK_CLOCK),
	SW("TASK-CLOCK", "PERF_COUNT_SW_TASK_CLOCK", PERF_COUNT_SW_TASK_CLOCK),
	SW("PERF_COUNT_SW_PAGE_FAULTS", "PERF_COUNT_SW_PAGE_FAULTS", PERF_COUNT_SW_PAGE_FAULTS),
	SW("PAGE-FAULTS", "PERF_COUNT_SW_PAGE_FAULTS", PERF_COUNT_SW_PAGE_FAULTS),
	SW("FAULTS", "PERF_COUNT_SW_PAGE_FAULTS", PERF_COUNT_SW_PAGE_FAULTS),
	SW("PERF_COUNT_SW_CONTEXT_SWITCHES", "PERF_COUNT_SW_CONTEXT_SWITCHES",
	   PERF_COUNT_SW_CONTEXT_SWITCHES),
	SW("CONTEXT-SWITCHES", "PERF_COUNT_SW_CONTEXT_SWITCHES", PERF_COUNT_SW_CONTEXT_SWITCHES),
	SW("CS", "PERF_COUNT_SW_CONTEXT_SWITCHES", PERF_COUNT_SW_CONTEXT_SWITCHES),
	SW("PERF_COUNT_SW_CPU_MIGRATIONS", "PERF_COUNT_SW_CPU_MIGRATIONS",
	   PERF_COUNT_SW_CPU_MIGRATIONS),
	SW("CPU-MIGRATIONS", "PERF_COUNT_SW_CPU_MIGRATIONS", PERF_COUNT_SW_CPU_MIGRATIONS),
	SW("MIGRATIONS", "PERF_COUNT_SW_CPU_MIGRATIONS", PERF_COUNT_SW_CPU_MIGRATIONS),
	SW("PERF_COUNT_SW_PAGE_FAULTS_MIN", "PERF_COUNT_SW_PAGE_FAULTS_MIN",
	   PERF_COUNT_SW_PAGE_FAULTS_MIN),
	SW("MINOR-FAULTS", "PERF_COUNT_SW_PAGE_FAULTS_MIN", PERF_COUNT_SW_PAGE_FAULTS_MIN),
	SW("PERF_COUNT_SW_PAGE_FAULTS_MAJ", "PERF_COUNT_SW_PAGE_FAULTS_MAJ",
	   PERF_COUNT_SW_PAGE_FAULTS_MAJ),
	SW("MAJOR-FAULTS", "PERF_COUNT_SW_PAGE_FAULTS_MAJ", PERF_COUNT_SW_PAGE_FAULTS_MAJ),
	SW("PERF_COUNT_SW_CGROUP_SWITCHES", "PERF_COUNT_SW_CGROUP_SWITCHES",
	   PERF_COUNT_SW_CGROUP_SWITCHES),
	SW("CGROUP-SWITCHES", "PERF_COUNT_SW_CGROUP_SWITCHES", PERF_COUNT_SW_CGROUP_SWITCHES),
};
#undef SW

/* Each software event in plain words: libpfm4 describes them only by their
 * PERF_COUNT_SW_* names. Indexed by PERF_COUNT_SW_*; each under 90
 * characters, so that a modifier's description still fits native_sw's desc,
 * and without a colon: PAPI's tools (papi_event_chooser) take what follows
 * a qualifier's first colon, that of ", masks:", for its own description. */
static const char *const sw_plain[] = {
	[PERF_COUNT_SW_CPU_CLOCK] = "CPU clock, the time the counted task ran by a per-CPU timer, in ns",
	[PERF_COUNT_SW_TASK_CLOCK] = "Task clock, the CPU time of the counted task, in ns",
	[PERF_COUNT_SW_PAGE_FAULTS] = "Page faults of the counted task, minor and major",
	[PERF_COUNT_SW_CONTEXT_SWITCHES] = "Context switches, the times the counted task left its CPU",
	[PERF_COUNT_SW_CPU_MIGRATIONS] = "CPU migrations, the times the counted task moved to another CPU",
	[PERF_COUNT_SW_PAGE_FAULTS_MIN] = "Minor page faults, those resolved without reading from disk",
	[PERF_COUNT_SW_PAGE_FAULTS_MAJ] = "Major page faults, those resolved by reading from disk",
	[PERF_COUNT_SW_ALIGNMENT_FAULTS] = "Alignment faults, the unaligned accesses the kernel fixed up",
	[PERF_COUNT_SW_EMULATION_FAULTS] = "Emulation faults, the instructions the kernel emulated",
	[PERF_COUNT_SW_CGROUP_SWITCHES] = "Cgroup switches, the context switches to a task of another cgroup",
};

/* native_sw_plain: see naming.h. */
const char *native_sw_plain(unsigned long long config)
{
	return config < sizeof sw_plain / sizeof *sw_plain ? sw_plain[config] : NULL;
}

/* native_sw_match: see internal.h. */
/* dst = a b c, cut to cap - 1 bytes as snprintf would (snprintf's
 * formatting machinery is the largest code a first lookup would touch). */
static void join3(char *dst, size_t cap, const char *a, const char *b, const char *c)
{
	const char *part[3] = { a, b, c };
	size_t n = 0;
	for (int i = 0; i < 3; i++)
		for (const char *p = part[i]; *p && n + 1 < cap; p++)
			dst[n++] = *p;
	dst[n] = '\0';
}

/* Next to sw_events, unlike a string literal (see struct sw_event). */
static const char perf_prefix[] = "perf::";

int native_sw_match(const char *name, struct native_sw *out)
{
	/* Only the qualified "perf::" spelling: a bare name is searched in every
	 * PMU by libpfm4, and another PMU could list it first. Environment that
	 * changes libpfm4's PMU list (which hides perf:: under a forced PMU)
	 * turns the fast path off. */
	if (strncmp(name, perf_prefix, 6) != 0)
		return 0;
	const char *env = getenv("LIBPFM_FORCE_PMU");
	if (env && *env)
		return 0;
	env = getenv("LIBPFM_DISABLED_PMUS");
	if (env && *env)
		return 0;
	const char *ev = name + 6;
	size_t n = 0;	/* up to the first ':' (a loop: one libc page fewer to fault in) */
	while (ev[n] && ev[n] != ':')
		n++;
	const char *q = ev + n;
	/* Qualifiers: none (user level, our default), ":u" or ":k". Anything
	 * else goes to libpfm4, which knows every modifier and its errors. */
	int eu = 0, ek = 1;
	if (strcmp(q, ":k") == 0) {
		eu = 1;
		ek = 0;
	} else if (*q && strcmp(q, ":u") != 0) {
		return 0;
	}
	for (size_t i = 0; i < sizeof sw_events / sizeof sw_events[0]; i++) {
		const struct sw_event *s = &sw_events[i];
		if (strlen(s->name) != n || strncasecmp(s->name, ev, n) != 0)
			continue;
		join3(out->canon, sizeof out->canon, "perf::", s->name, q);
		out->event = out->canon + 6;
		out->event_len = n;
		/* The plain words (libpfm4's primary name when there are
		 * none); a lookup with :u or :k adds that modifier's description. */
		const char *plain = native_sw_plain(s->config);
		join3(out->desc, sizeof out->desc, plain ? plain : s->primary,
		      !*q ? "" : eu ? ", masks:monitor at kernel level" : ", masks:monitor at user level", "");
		out->has_domain_mod = *q != '\0';
		memset(&out->attr, 0, sizeof out->attr);
		out->attr.type = PERF_TYPE_SOFTWARE;
		out->attr.config = s->config;
		out->attr.exclude_user = eu;
		out->attr.exclude_kernel = ek;
		out->attr.exclude_hv = 1;
		out->attr.exclude_guest = 1;	/* libpfm4's default without :mg */
		return 1;
	}
	return 0;
}
