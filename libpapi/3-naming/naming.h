/* naming.h: layer 3, naming events: the PMUs and native events through
 * libpfm4 (native.c, listed by native_enum.c) and the kernel's software
 * events (native_sw.c), the
 * preset and user-event tables (presets.c, preset_catalog.c, the generated
 * events_tbl), definition files (deffile.c), formulas (formula.c) and
 * metric groups (groups.c). */
#ifndef PAPI_NAMING_H
#define PAPI_NAMING_H

#include <stdarg.h>
#include <stdio.h>

#include "2-kernel/kernel.h"
#include "3-naming/preset_catalog.h"	/* PAPI 7's preset names, for the layers above too */

/* Most native terms one preset or user event may combine (PAPI 7's limit). */
#define PAPI_EVENTS_IN_DERIVED_EVENT 8

/* Derived types of the definition files (seed 002). */
#define NOT_DERIVED	0x0
#define DERIVED_ADD	0x1
#define DERIVED_PS	0x2
#define DERIVED_ADD_PS	0x4
#define DERIVED_CMPD	0x8
#define DERIVED_SUB	0x10
#define DERIVED_POSTFIX	0x20
#define DERIVED_INFIX	0x40
/* ------------------------------------------------------------------ PMUs
 * pmus.c keeps the PMUs events are named on: those libpfm4 detected, each
 * matched to its kernel PMU, then the kernel's core PMUs that libpfm4 does
 * not know and its other PMUs that count per task (msr, kpmu_per_task:
 * pfm_type PFM_PMU_TYPE_OS_GENERIC), both sysfs = 1, whose events
 * native_sysfs.c names. A PMU is usable when the running kernel exposes
 * it (kernel_type >= 0). */
struct pmu {
	int pfm_pmu;		/* libpfm4 pfm_pmu_t, -1 for a sysfs entry */
	int pfm_type;		/* PFM_PMU_TYPE_CORE (sysfs entries too), _UNCORE, _OS_GENERIC */
	int kernel_type;	/* perf_event_attr.type from sysfs, -1 when absent */
	int num_cntrs, num_fixed;	/* as libpfm4 knows them; for a sysfs entry, how
					 * many instruction counters the kernel accepted in
					 * one group (0: none), and no fixed ones */
	int sysfs;		/* 1: a kernel core PMU libpfm4 does not know, or a
				 * per-task PMU that is no core's */
	char name[64];		/* libpfm4 name: "skx", "perf", "amd64_fam19h_zen4"; a
				 * sysfs entry's is its kernel name: "cpu", "cpu_atom" */
	char desc[128];
	char kernel_name[64];	/* sysfs device: "cpu", "cpu_core", "software", ... */
};
/* Initialize libpfm4 and make the list, once (every call below does it
 * first). PAPI_OK, PAPI_ECMP (libpfm4 failed: the reason is set),
 * PAPI_ENOMEM. */
int pmus_init(void);
/* Free the list and libpfm4's state; the next call starts afresh. */
void pmus_shutdown(void);
int pmu_count(void);
const struct pmu *pmu_get(int i);
/* Why hardware events cannot be counted here, or NULL when they can: no
 * core PMU in the kernel, or a forced libpfm4 PMU the kernel lacks. */
const char *pmu_core_unavailable_reason(void);
/* The same for the kernel's generic hardware events (PERF_TYPE_HARDWARE and
 * PERF_TYPE_HW_CACHE: perf::CYCLES, perf::INSTRUCTIONS, ...): only the
 * kernel's side of it, since they need no CPU that libpfm4 knows. */
const char *pmu_generic_unavailable_reason(void);
/* NULL unless LIBPFM_FORCE_PMU names a PMU libpfm4 does not know, or one
 * that is not a CPU core's (libpfm4 itself starts without a word then): a
 * sentence that says so and names the variable ("LIBPFM_FORCE_PMU=nosuch:
 * libpfm4 knows no PMU of that name"). */
const char *pmu_forced_unknown(void);
/* NULL when libpfm4 names the events of every kernel core PMU; else a
 * sentence naming the core PMUs whose events come from sysfs and the
 * kernel's generic events instead ("cpu: libpfm4 does not know ..."). */
const char *pmu_core_sysfs(void);
/* Index of the entry of libpfm4 PMU pfm_pmu, -1 when none. */
int pmu_of_pfm(int pfm_pmu);
/* Index of libpfm4's default core PMU (the first core PMU it detected:
 * amd64_fam19h_zen4, or skx under LIBPFM_FORCE_PMU=skx), -1 when none. */
int pmu_default_core(void);
/* Index of the core PMU entry (or sysfs entry) whose kernel device is
 * kernel_name ("cpu", "cpu_atom", "armv8_pmuv3_0", "msr"), -1 when the
 * kernel has no such PMU of those kinds. */
int pmu_of_kernel(const char *kernel_name);
/* Number of events libpfm4 lists over the PMUs it detected, but for the
 * uncore PMUs (perf_event_uncore's). */
int pmu_pfm_events(void);
/* libpfm4's PMU called by the n bytes at name, detected here or not: 1
 * and *out (strings of libpfm4's, valid while it is initialized), or 0
 * when libpfm4 has no PMU of that name. Call after pmus_init. */
struct pfm_pmu_brief {
	const char *name, *desc;
	int core;		/* a CPU core's PMU */
	int present;		/* detected on this machine */
};
int pmu_pfm_named(const char *name, size_t n, struct pfm_pmu_brief *out);
/* The kernel's PMU for libpfm4's uncore PMU pfm_name (skx_unc_imc0 is
 * uncore_imc_0, amd64_fam19h_zen3_l3 amd_l3, rapl power): its type, with
 * its name in out; -1 when the kernel lists no such PMU (out then has the
 * name it would have). */
int pmu_uncore_kernel(const char *pfm_name, char *out, size_t len);

/* ------------------------------------------------------------------ native events
 * Native events live in a per-process table; code = PAPI_NATIVE_MASK | index.
 * Entries are created on first lookup (name -> encoding through libpfm4) and
 * never move, so native_get() needs no lock. */
struct native {
	char *name;		/* canonical name "pmu::EVENT[:UMASK][:mod=val]" */
	char *desc;		/* long description (event, then umask), owned */
	int pfm_idx;		/* libpfm4 event index, -1 when libpfm4 did not name it */
	int pmu;		/* index into the PMU list, -1 for a software event
				 * named before libpfm4 started */
	int umask_only;		/* 1 for the code of a bare "EVENT:UMASK" enumeration entry */
	int attr_idx;		/* libpfm4 attribute index of that umask/modifier, else -1 */
	int encode_err;		/* PAPI_OK, or why attr is unusable (an event that needs a
				 * unit mask: listed and named, but not countable as is;
				 * or one qualifier libpfm4 will not encode alone,
				 * ":period=0": the unit-mask walk lists it, a lookup
				 * by name still refuses it) */
	int encode_pfm;		/* the latter's libpfm4 refusal, else PFM_SUCCESS */
	struct perf_event_attr attr;	/* encoded; exclude_* as the name's modifiers set */
	unsigned char has_domain_mod;	/* name carries :u/:k/:h: domain fixed by name */
	int on_cpu;		/* :cpu=N in the name: N + 1 (counts only on CPU N); 0: any */
	/* The component the event belongs to: 0 (perf_event) for everything
	 * above; another component's event (native_intern) has only its name,
	 * cidx and cev, that component's own index of it. */
	int cidx, cev;
	unsigned char sysfs;	/* named PMU/TERMS/ (native_sysfs.c), not by libpfm4 */
	int probe;		/* native_probe: 0 not yet, 1 known, -errno refused */
};
/* Longest name handed to libpfm4; longer ones are refused untouched. */
#define NATIVE_NAME_MAX PAPI_HUGE_STR_LEN
/* Look name up (encoding it through libpfm4 the first time).
 * Returns PAPI_OK and *idx, PAPI_ENOEVNT (unknown), PAPI_EINVAL (bad
 * qualifier, :cpu=N of no CPU here, or NULL/overlong name), PAPI_ENOMEM. */
int native_lookup(const char *name, int *idx);
/* native_resolve: native_lookup for enumeration (native_enum.c), which
 * names events as libpfm4 spells them (no component's ":::"). hint: the
 * index of the unit mask or modifier the name ends with (-1 none), or -2 to
 * find it from the name. Returns as native_lookup. */
int native_resolve(const char *name, int hint, int *idx);
/* native_init: initialize libpfm4 and the PMU list once, at the first call
 * that needs them (and again after native_shutdown). Returns PAPI_OK or
 * pmus_init's error, the same on every call. */
int native_init(void);
/* The entry for index idx, or NULL when idx is not a valid index. */
const struct native *native_get(int idx);
/* The index of event cev of component cidx (> 0), whose full name is name
 * ("io:::rchar", or an uncore "pmu::EVENT" or "pmu/terms/"): made on its first use, so that every component's events
 * share one code space as in PAPI 7 (code = PAPI_NATIVE_MASK | index). A
 * name libpfm4 resolves never gets such an entry, and native_lookup never
 * returns one. PAPI_OK and *idx, PAPI_EINVAL (bad arguments, or the name
 * already names another event), PAPI_ENOMEM. */
int native_intern(int cidx, int cev, const char *name, int *idx);
/* The index of the entry whose name (or alias) is exactly name, made
 * earlier by a lookup or native_intern: PAPI_OK and *idx, or PAPI_ENOEVNT.
 * Asks libpfm4 nothing. */
int native_find(const char *name, int *idx);
/* The name PAPI's API gives entry e (PAPI_event_code_to_name, the symbol
 * and a preset's native names in PAPI_get_event_info): its canonical name,
 * but without "pmu::" for an event of libpfm4's default core PMU, as PAPI 7
 * names those ("RETIRED_SSE_AVX_FLOPS:ANY", while "perf::TASK-CLOCK" keeps
 * its PMU). Both spellings look up the same entry. After
 * native_names_qualified(1) every name keeps its PMU (the papi tool's
 * choice: its output names events the same on every machine). */
const char *native_api_name(const struct native *e);
void native_names_qualified(int on);
/* As native_get, after starting libpfm4, so that an entry the software
 * fast path made has its libpfm4 event and PMU (pfm_idx, pmu) filled. */
const struct native *native_get_full(int idx);
/* native_enum.c: enumerate native codes (PAPI_enum_event semantics for
 * native codes). */
int native_enum(int *code, int modifier, int cidx);
/* Fill info for a native code. */
int native_info(int idx, PAPI_event_info_t *info);
/* Number of native events native_enum lists: the events of every PMU libpfm4
 * detected and of the kernel core PMUs named from sysfs (for component info; whether the kernel can count them is
 * native_usable's question). */
int native_count(void);
/* Can the running kernel count native index idx? PAPI_OK, or PAPI_ENOEVNT
 * (bad index, or a listed qualifier libpfm4 refuses, ":period=0"),
 * PAPI_EINVAL (needs a unit mask), PAPI_ECMP (the PMU it needs
 * is absent from the kernel; papi_last_reason() says which). */
int native_usable(int idx);
/* Free the table and libpfm4's state; the next call starts afresh. */
void native_shutdown(void);
/* Does the kernel's driver know native idx? It is opened once, alone and
 * disabled, on the calling thread, and closed; the answer is kept. PAPI_OK
 * (opened, or refused only for want of permission or free counters: the
 * event exists), PAPI_ENOEVNT (bad idx), or the error of the refusal
 * (PAPI_ENOEVNT, PAPI_ENOSUPP, PAPI_EINVAL) with why (may be NULL) saying
 * it in pe_advice's words. */
int native_probe(int idx, char *why, size_t len);

/* native_sysfs.c: events of a kernel core PMU in perf's spelling,
 * "PMU/TERMS/MODS": the PMU's named sysfs events, the kernel's generic
 * events (cycles, instructions, L1-dcache-load-misses, ...: perf list's
 * names), or terms through its format files (event=0x3c,umask=0x01); MODS
 * any of u, k, h. Any core PMU of the kernel, whether libpfm4 knows it;
 * and a PMU that counts per task and is no core's ("msr/tsc/", also
 * spelled "msr::tsc"), without MODS: it counts every privilege level. */
struct native_sysfs {
	char canon[PAPI_HUGE_STR_LEN];	/* "cpu/instructions/", "cpu/event=0x3c/u" */
	char desc[PAPI_HUGE_STR_LEN];
	int pmu;			/* index into the PMU list */
	struct perf_event_attr attr;
	int has_domain_mod;		/* MODS given */
};
/* 0 when name is not spelled PMU/.../; 1 when it is and *out is filled;
 * else PAPI_ENOEVNT (no such core PMU, term or modifier, a bad value: as
 * PAPI 7, a name that cannot be encoded names no event) or PAPI_ENOMEM,
 * with papi_last_reason() saying why. */
int native_sysfs_match(const char *name, struct native_sysfs *out);
/* The events listed under sysfs entry pmu (its named events in name order,
 * then the generic events no named event spells; aliases are not listed):
 * how many (0 for another entry), the i-th as "PMU/EVENT/" (PAPI_OK, or
 * PAPI_ENOEVNT past the last), and the position of canon's event (its
 * modifiers aside) in that list, -1 when it is not listed. */
int native_sysfs_count(int pmu);
int native_sysfs_nth(int pmu, int i, char *name, size_t len);
int native_sysfs_index(int pmu, const char *canon);
/* The end of the event name that starts at p in a comma-separated list:
 * the next comma outside a PMU/TERMS/ name (whose terms have commas of
 * their own), or the terminating NUL. */
const char *native_list_end(const char *p);

/* native_sw: the software events a lookup resolves without libpfm4. */
struct native_sw {
	char canon[96];		/* "perf::EVENT[:u|:k]", EVENT as libpfm4 spells it */
	const char *event;	/* EVENT inside canon */
	size_t event_len;
	char desc[128];		/* the description libpfm4's lookup gives it */
	struct perf_event_attr attr;	/* as libpfm4 encodes it */
	int has_domain_mod;
};
/* If name is "perf::EVENT" (any case) with an optional ":u" or ":k", EVENT
 * a software event libpfm4 lists, and no LIBPFM_FORCE_PMU/DISABLED_PMUS in
 * the environment: fill *out and return 1; else 0 (ask libpfm4). */
int native_sw_match(const char *name, struct native_sw *out);
/* The description of software event config (PERF_COUNT_SW_*) in plain words
 * ("Task clock: CPU time of the counted task, in ns"), which replaces
 * libpfm4's bare PERF_COUNT_SW_* name; NULL when the table has none. */
const char *native_sw_plain(unsigned long long config);
/* 0 when name cannot be a preset or user event, so that a native lookup may
 * skip loading the preset tables (a "pmu::" name and no event file named in
 * the environment); 1 when the tables must be asked. */
int presets_may_name(const char *name);
/* Note whether the environment names an event file (the values of
 * PAPI_USER_EVENTS_FILE and PAPI_CSV_EVENT_FILE, NULL when unset) for
 * presets_may_name; PAPI_library_init calls it, so a change to those
 * variables takes effect at the next init. */
void presets_read_env(const char *user, const char *csv);
/* 1 once the preset tables (and event files) are loaded, 0 before. */
int presets_loaded(void);

/* ------------------------------------------------------------------ codes / presets
 * codes.c dispatches preset (PAPI_PRESET_MASK) and user (PAPI_UE_MASK) codes to
 * the presets module. Same contracts as the public calls of the same names. */
int presets_name_to_code(const char *name, int *code);
int presets_code_to_name(int code, char *name);
int presets_info(int code, PAPI_event_info_t *info);
int presets_enum(int *code, int modifier);
/* PAPI_OK when the preset/user event can be counted here (PAPI_add_event
 * would take it), else PAPI_ENOEVNT / PAPI_ENOTPRESET. */
int presets_query(int code);
/* PAPI_OK when the preset/user event is defined here and each of its natives
 * resolves, counting a PMU that LIBPFM_FORCE_PMU names as present even when
 * the kernel lacks it (then presets_query says PAPI_ENOEVNT): what a table
 * gives for that PMU. Else PAPI_ENOEVNT / PAPI_ENOTPRESET. */
int presets_resolves(int code);
/* presets_info_full: as presets_info, but count, code[], name[], derived and
 * postfix describe this CPU's definition even when the kernel cannot count
 * its natives (PAPI_get_event_info leaves them empty then); for the CLI. */
int presets_info_full(int code, PAPI_event_info_t *info);

/* ------------------------------------------------------------------ presets / user events
 * A preset or user-defined event resolves to up to PAPI_EVENTS_IN_DERIVED_EVENT
 * native indexes and a formula over their values. */
struct formula;
struct derived_def {
	int nterms;
	int ntv[PAPI_EVENTS_IN_DERIVED_EVENT];	/* native indexes */
	int derived;		/* DERIVED_* type as in the definition files */
	const struct formula *f;	/* compiled program; NULL for NOT_DERIVED and ADD */
};
/* Resolve a preset or user-event code for the running machine.
 * PAPI_OK, PAPI_ENOEVNT (not defined / not available here), PAPI_ENOTPRESET. */
int presets_resolve(int code, struct derived_def *out);
/* Evaluate a derived event from its term values. */
long long derived_eval(const struct derived_def *d, const long long *vals);

/* ------------------------------------------------------------------ formulas (formula.c)
 * A compiled formula is a stack program over term values N0..N(k-1).
 * Arithmetic wraps modulo 2^64 (unsigned), division is signed and x/0 = 0;
 * DERIVED_PS scales by hwinfo_mhz() with a 128-bit intermediate. */
/* Compile a derived type over nterms base events: text is the formula of
 * DERIVED_POSTFIX ("N0|N1|+|") or DERIVED_INFIX ("N0-(N1*2)"), ignored by the
 * other types, which get their fixed program (ADD, SUB: N0-N1-..., PS:
 * N1*Hz/N0, ADD_PS: (N1+N2)*Hz/N0, NOT_DERIVED and CMPD: N0).
 * PAPI_OK and *out (free with formula_free), PAPI_EINVAL with a message in
 * err (may be NULL) for a malformed formula or wrong term count, PAPI_ENOMEM. */
int formula_compile(int type, const char *text, int nterms, struct formula **out, char *err,
		    size_t errlen);
/* Replace each term i of outer by the program sub[i] (whose terms are already
 * numbered in the final term list). PAPI_OK, PAPI_EINVAL, PAPI_ENOMEM. */
int formula_substitute(const struct formula *outer, const struct formula *const *sub, int nsub,
		       struct formula **out);
/* Copy of f with term i renamed map[i]. PAPI_OK or PAPI_ENOMEM. */
int formula_remap(const struct formula *f, const int *map, struct formula **out);
void formula_free(struct formula *f);
long long formula_eval(const struct formula *f, const long long *vals);
/* Write f as a PAPI postfix string ("N0|N1|+|"). PAPI_OK, PAPI_EBUF (too
 * long), PAPI_EINVAL (a per-second step or a fraction, which postfix cannot
 * spell). */
int formula_to_postfix(const struct formula *f, char *buf, size_t len);
/* The simplest derived type whose fixed program f is (over nterms terms):
 * NOT_DERIVED, DERIVED_ADD, DERIVED_SUB, DERIVED_PS/ADD_PS, else DERIVED_POSTFIX. */
int formula_shape(const struct formula *f, int nterms);
/* Compile a metric expression: infix + - * / ( ) and unary minus over
 * decimal numbers ("64", "0.5", "1e-9") and names ([A-Za-z_][A-Za-z0-9_]*)
 * that lookup(ctx, name, len) turns into a term index 0..1000, or -1 for
 * a name it does not know. Evaluate it with formula_eval_double.
 * PAPI_OK and *out, PAPI_EINVAL with the reason in err (may be NULL):
 * malformed, an unknown name; PAPI_ENOMEM. */
int formula_compile_expr(const char *text, int (*lookup)(void *ctx, const char *name, size_t len),
			 void *ctx, struct formula **out, char *err, size_t errlen);
/* Evaluate f in double precision over vals (indexed by term). A division
 * by zero gives NaN (a value that cannot be computed), which then spreads
 * through the rest of the formula. */
double formula_eval_double(const struct formula *f, const double *vals);
/* The distinct terms f uses, in the order they first appear, into
 * terms[0..max-1]; returns how many there are (even past max). */
int formula_terms(const struct formula *f, int *terms, int max);
/* "DERIVED_ADD" for DERIVED_ADD ...; "UNKNOWN" for other values. */
const char *formula_type_name(int type);
/* The DERIVED_* value of a type name, -1 when it is not one. */
int formula_type_parse(const char *name);

/* ------------------------------------------------------------------ definition files (deffile.c)
 * Seed 002's syntax (CPU / PRESET / EVENT lines) and papi decode's CSV
 * (title "name,derived,postfix,..." then one row per event). One record a
 * line; errors read "file:line: what is wrong" and the next line loads. */struct msgs {			/* collected messages */
	char **v;
	int n, cap;
	int total;		/* also those past the kept 1000 */
};
void msgs_add(struct msgs *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A problem of a file being parsed (definition files, metric groups), as
 * "path:line: what" (at most 511 bytes of what). */
void msgs_add_at(struct msgs *m, const char *path, int line, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
void msgs_free(struct msgs *m);

struct def_event {		/* one PRESET/EVENT row; strings live until the callback returns */
	const char *file;
	int line;
	int preset;		/* PRESET (1) or EVENT (0) */
	const char *name;
	int derived;		/* DERIVED_* */
	const char *formula;	/* POSTFIX/INFIX text, NULL for the other types */
	int nbase;
	const char *base[PAPI_EVENTS_IN_DERIVED_EVENT];	/* as written */
	const char *ldesc, *sdesc, *note;	/* NULL when absent */
	const char *pmu;	/* CPU name of the section that matched; NULL outside sections */
	const char *const *cpus;	/* every name of that section, NULL-terminated; NULL outside */
};
struct deffile_sink {
	/* 1 when the events under "CPU,name" concern this machine; NULL: all do. */
	int (*cpu_match)(void *ctx, const char *name);
	/* Take one event: PAPI_OK, or an error code with the reason in why. */
	int (*event)(void *ctx, const struct def_event *ev, char *why, size_t len);
	void *ctx;
};
/* Split text (len bytes) into CSV records, one a line: blank lines, lines
 * starting with '#' (after blanks) and a CR before the newline are skipped;
 * quoted fields may hold commas and doubled quotes, a field wrapped in
 * single quotes loses them. row(ctx, line, fields, n) gets each record with
 * a non-empty field (the fields live until it returns); bad(ctx, line,
 * message) each line that is not one record (bad CSV, a NUL byte, more than
 * 64 fields). PAPI_OK or PAPI_ENOMEM. */
struct deffile_lines_cb {
	void (*row)(void *ctx, int line, char **fields, int n);
	void (*bad)(void *ctx, int line, const char *msg);
	void *ctx;
};
int deffile_lines(const char *text, size_t len, const struct deffile_lines_cb *cb);
/* Parse text (len bytes, named path in messages): every event of a section
 * that applies goes to sink->event; each problem is added to errs. Returns
 * the number of problems (0 = clean), or PAPI_ENOMEM. */
int deffile_parse(const char *path, const char *text, size_t len, const struct deffile_sink *sink,
		  struct msgs *errs);
/* Read a whole file ("-" = stdin) into a NUL-terminated buffer (free() it).
 * PAPI_OK, PAPI_ESYS (errno says why), PAPI_ENOMEM, PAPI_EINVAL (over 64 MiB). */
int deffile_read(const char *path, char **text, size_t *len);
/* Write ev as one definition-file line (PRESET or EVENT as ev->preset says). */
void deffile_write_event(FILE *f, const struct def_event *ev);

/* ------------------------------------------------------------------ metric groups (groups.c)
 * A metric group names events (each under an alias, with alternatives
 * "A|B": the first that counts here is used) and metrics, each a formula
 * over the aliases and "time" (the seconds measured), with a unit and a
 * description. Groups come from the group files of events/ (built in) and
 * PAPI_USER_GROUPS_FILE; syntax in papi-groups(5). Event names are not
 * checked here: a group may name events that only a later component or
 * another machine has. */
#define MGROUP_MAX_EVENTS 32
#define MGROUP_MAX_ALT 8
struct mgroup_event {
	char *alias;
	char *names;		/* as written: "PAPI_TOT_CYC|perf::CPU-CYCLES" */
	int nalt;
	const char *alt[MGROUP_MAX_ALT];	/* each alternative (into buf) */
	char *buf;
};
struct mgroup_metric {
	char *name, *unit, *formula, *desc;	/* unit and desc may be "" */
	int line;		/* where it was defined */
	struct formula *f;	/* term i: event i; term nev: time (seconds) */
	int nuse;		/* distinct terms f uses, in order of first use */
	int use[MGROUP_MAX_EVENTS + 1];
};
struct mgroup {
	char *name;
	char *desc;		/* NULL when none */
	char **cpus;		/* PMU names of its CPU section (NULL-terminated); NULL: every machine */
	char *file;		/* where it was defined, for messages */
	int line;
	int nev;
	struct mgroup_event ev[MGROUP_MAX_EVENTS];
	int nmet;
	struct mgroup_metric *met;
	int user;		/* read from PAPI_USER_GROUPS_FILE (the loader sets it) */
};
struct mgroup_sink {
	/* Take a complete, valid group (PAPI_OK: it is the sink's to free with
	 * mgroup_free), or refuse it with the reason in why. */
	int (*group)(void *ctx, struct mgroup *g, char *why, size_t len);
	void *ctx;
};
/* Parse a group file or papi decode --groups's CSV (len bytes, named path
 * in messages); each valid group goes to sink, each problem is added to
 * errs as "path:line: what" (a group with one is dropped). Returns the
 * number of problems (0 = clean), or PAPI_ENOMEM. */
int mgroups_parse(const char *path, const char *text, size_t len, const struct mgroup_sink *sink,
		  struct msgs *errs);
/* mgroups_parse, but with only (not NULL) just the groups called only (any
 * case) are read and handed to sink; the rows of the others are passed
 * over unchecked. */
int mgroups_parse_named(const char *path, const char *text, size_t len, const struct mgroup_sink *sink,
			struct msgs *errs, const char *only);
/* 1 when text reads as a group file or group CSV (its first line other than
 * a comment or CPU line starts with GROUP, or is decode's group title). */
int mgroups_text_is_groups(const char *text, size_t len);
/* Write g as group-file lines (GROUP, EVENT..., METRIC...; no CPU line). */
void mgroup_write(FILE *f, const struct mgroup *g);
void mgroup_free(struct mgroup *g);
/* Every group loaded (built in, then PAPI_USER_GROUPS_FILE's), in file
 * order, whether it applies here or not; *n their count. Loads them the
 * first time; valid until PAPI_shutdown. */
const struct mgroup *const *mgroups_all(int *n);
/* The group called name (any case) as it applies here: the user file's,
 * else one for a PMU of this machine, else the generic one; the last
 * defined among equals. NULL when none applies. Before mgroups_all or
 * mgroups_errors has loaded every group, it reads only the groups of that
 * name (problems of the files are told by those two): the group it returns
 * then is the same group, but not the same object, as theirs. Valid until
 * PAPI_shutdown. */
const struct mgroup *mgroups_find(const char *name);
/* 1 when g is generic or names a PMU of this machine (libpfm4's core PMU
 * or another it detected). */
int mgroup_applies(const struct mgroup *g);
/* 1 when g came from PAPI_USER_GROUPS_FILE. */
int mgroup_is_user(const struct mgroup *g);
/* Problems met loading the group files (file:line: ...); *n their count. */
const char *const *mgroups_errors(int *n);

/* ------------------------------------------------------------------ core types (coretypes.c)
 * A hybrid CPU has a kernel core PMU per core type (cpu_core and cpu_atom;
 * ARM's armv8_cortex_a53 and armv8_cortex_a72), each counting only while
 * the thread runs on its CPUs: a preset is defined on each and summed. */
/* One pass of the preset tables: the section ("adl_glc", "skx", "generic")
 * that names the presets on core PMU entry pmu (-1: on every core PMU
 * without a table of its own, by the generic events), label the kernel
 * names of those PMUs ("cpu_core"; "cpu_atom and cpu_core"). */
struct ct_pass {
	char section[64];
	int pmu;
	char label[128];
};
/* The passes presets are loaded in, the first one defining them, each
 * other adding its core type to them: one per core PMU the kernel counts on
 * (the one selected only, see coretype_select) with a table, libpfm4's
 * core PMU core_name first, then one generic pass for those without; when
 * no core PMU counts, one pass of core_name's table ("" none) with pmu -1.
 * Returns how many (1..max) into out. */
int coretype_passes(const char *core_name, struct ct_pass *out, int max);
/* The natives generic event name ("cycles") stands for on each core PMU of
 * the generic pass ("cpu_atom/cycles/", "cpu_core/cycles/"), into idx[]:
 * how many, 0 when it cannot be named on all of them, or PAPI_ENOMEM. */
int coretype_generic_natives(const char *name, int *idx, int max);
/* A definition over natives: terms ntv[0..nterms-1], formula f over them
 * (NULL: the single native as is). */
struct ct_def {
	int nterms;
	int ntv[PAPI_EVENTS_IN_DERIVED_EVENT];
	struct formula *f;
};
/* coretype_sum: *out = a + b, b's terms after a's (out->f is new: free it
 * with formula_free). PAPI_OK, PAPI_EINVAL (more than
 * PAPI_EVENTS_IN_DERIVED_EVENT terms in all), PAPI_ENOMEM. */
int coretype_sum(const struct ct_def *a, const struct ct_def *b, struct ct_def *out);
/* coretype_cover: a preset's note on a hybrid, into out: the labels of the
 * passes of bits types that it counts on, summed ("Counts on cpu_core and
 * cpu_atom, summed."), and those it does not ("... only, not on cpu_atom."). */
void coretype_cover(const struct ct_pass *pass, int n, unsigned types, char *out, size_t len);
/* Keep the presets to one core type: type is a core PMU's kernel name or
 * what follows its "cpu_" (perf's --cputype: core, atom); NULL or "" every
 * type again. Call before the preset tables load (PAPI_library_init loads
 * none); it holds until PAPI_shutdown. PAPI_OK; else, with why filled:
 * PAPI_ENOSUPP (not a hybrid), PAPI_EINVAL (no such core type), PAPI_EISRUN
 * (tables loaded). */
int coretype_select(const char *type, char *why, size_t len);
/* The kernel name of the core PMU selected, NULL when none. */
const char *coretype_selected(void);
/* The core types presets count on, when there are two or more: their
 * kernel names ("cpu_core", "cpu_atom"), in the PMU list's order (the order
 * below calls number them in), into names[max] (valid until
 * PAPI_shutdown). How many; PAPI_ENOSUPP with why filled when the CPU is no
 * hybrid or a core type was selected (coretype_select). */
int coretype_list(const char **names, int max, char *why, size_t len);
/* The core types (bit k: coretype_list's k-th) d's terms count on; 0 when
 * some term counts on none of them (a software event, an uncore one). */
unsigned coretype_types(const struct derived_def *d);
/* d's part on core type k: d evaluated from its terms' values vals[] with
 * every term not on type k taken as 0. A table's formulas have no constant
 * term, so over the types of coretype_types(d) the parts sum to
 * derived_eval(d, vals) (a merged preset is the sum of each type's
 * definition); a type d does not count on has the part 0. */
long long coretype_part(const struct derived_def *d, const long long *vals, int k);

/* ------------------------------------------------------------------ presets extras (presets.c) */
/* 1 when the generic table (events/generic.csv, section "generic") is in
 * use: no table names the core PMU libpfm4 detected, and the kernel has a
 * core PMU, whose generic events the presets then count. */
int presets_generic(void);
/* Why preset or user event code, defined here, cannot be counted (the
 * reason of its first native that cannot); NULL when it can, when it is
 * not defined, or when nothing was said. Valid until PAPI_shutdown. */
const char *presets_why(int code);
/* Problems met while loading the tables and event files (file:line: ...), in
 * order; *n receives their count. Valid until PAPI_shutdown. Loads the tables
 * first if needed. */
const char *const *presets_errors(int *n);
/* Why preset or user code is not defined though a table loaded for this CPU
 * defines it ("no native event BR_RETIRED on this CPU"): the failure of the
 * last definition given; NULL when it is defined or no table defines it.
 * Valid until PAPI_shutdown. Loads the tables first if needed. */
const char *presets_why_undefined(int code);
/* Fill *ev with the definition of preset/user code as this machine resolved
 * it: canonical native names, effective derived type and postfix. Strings
 * stay valid until PAPI_shutdown or a redefinition. PAPI_OK, PAPI_ENOEVNT
 * (not defined here), PAPI_ENOTPRESET (bad code). *avail: 1 when its natives
 * resolve (presets_resolves). */
int presets_definition(int code, struct def_event *ev, int *avail);
/* presets_define_file: load the definitions of the file at path (papi
 * decode's CSV or a definition file; what names it in problems, as
 * "PAPI_encode_events=path: ...") into the tables, loading them first if
 * needed. Every valid row loads; returns the first row's failure (as
 * presets_define), else PAPI_EINVAL for an unreadable or malformed file,
 * else PAPI_OK. presets_errors() lists every problem. */
int presets_define_file(const char *what, const char *path, int replace);
/* presets_define: define ev, or redefine it when replace, loading the
 * tables first if needed; *code (may be NULL) receives its code. PAPI_OK,
 * or PAPI_EPERM (defined already, replace 0), PAPI_EISRUN (in an EventSet),
 * PAPI_EINVAL or PAPI_ENOEVNT (bad definition), PAPI_ENOTPRESET (table
 * full), PAPI_ENOMEM, with the reason set. */
int presets_define(const struct def_event *ev, int replace, int *code);

/* The core layer answers "is code in an EventSet?" for presets.c, which must
 * not redefine such an event; until one is registered, no code is in use. */
extern int (*presets_in_use_fn)(int code);
static inline void presets_set_in_use(int (*in_use)(int code))
{
	__atomic_store_n(&presets_in_use_fn, in_use, __ATOMIC_RELEASE);
}

#endif
