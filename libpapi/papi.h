/* papi.h: the public libpapi API at PAPI 7.2's level (7.0's or 7.1's on request), plus the PAPI 3.5 calls PAPI 7 dropped. */
#ifndef _PAPI
#define _PAPI

/*
 * One header for the three PAPI 7 releases that distributions ship. By
 * default it is PAPI 7.2's: every code, constant and struct layout equals
 * 7.2's, and a program built with it links libpapi.so (libpapi.so.7.2) or
 * libpapi.a. A program written for an older release builds unchanged with
 *
 *	cc -DPAPI_ABI_LEVEL=70 ... -l:libpapi.so.7.0	(or `pkg-config papi-7.0`)
 *	cc -DPAPI_ABI_LEVEL=71 ... -l:libpapi.so.7.1	(or `pkg-config papi-7.1`)
 *
 * and then sees that release's values and layouts, as its own papi.h gave
 * them; the library of that SONAME answers in them, and so does libpapi.a,
 * which serves every level (libpapi/README.md, "One library, three
 * releases"). test/unit/t_papi7{0,1,2}_abi.c check each
 * level against the facts of that release's papi.h.
 */
#ifndef PAPI_ABI_LEVEL
#define PAPI_ABI_LEVEL 72
#endif
#if PAPI_ABI_LEVEL != 70 && PAPI_ABI_LEVEL != 71 && PAPI_ABI_LEVEL != 72
#error "PAPI_ABI_LEVEL must be 70, 71 or 72 (PAPI 7.0, 7.1 or 7.2)"
#endif

#include <sys/types.h>
#include <limits.h>
#include <signal.h>
#include "papiStdEventDefs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ---------------------------------------------------------- */

/* Four fields of 8 bits each: major.minor.revision.increment. */
#define PAPI_VERSION_NUMBER(maj, min, rev, inc) \
	(((maj) << 24) | ((min) << 16) | ((rev) << 8) | (inc))
#define PAPI_VERSION_MAJOR(x)		(((x) >> 24) & 0xff)
#define PAPI_VERSION_MINOR(x)		(((x) >> 16) & 0xff)
#define PAPI_VERSION_REVISION(x)	(((x) >> 8) & 0xff)
#define PAPI_VERSION_INCREMENT(x)	((x) & 0xff)

/* The API level chosen above.  PAPI_library_init() expects PAPI_VER_CURRENT,
 * which keeps major and minor only: revisions stay binary compatible. Tools
 * that read the version as text (CMake's FindPAPI modules, configure
 * scripts) take every line that begins "#define PAPI_VERSION" and expect
 * one, as PAPI 7.2 writes it: the default's. An older level's definition
 * is split after "#define", so that no such line is its. */
#if PAPI_ABI_LEVEL == 72
#define PAPI_VERSION		PAPI_VERSION_NUMBER(7,2,0,0)
#else
#define \
	PAPI_VERSION		PAPI_VERSION_NUMBER(7, PAPI_ABI_LEVEL - 70, 0, 0)
#endif
#define PAPI_VER_CURRENT	(PAPI_VERSION & 0xffff0000)

/* Kind of an event code (see papiStdEventDefs.h for the masks). */
#define IS_NATIVE(EventCode) \
	(((EventCode) & PAPI_NATIVE_MASK) && !((EventCode) & PAPI_PRESET_MASK))
#define IS_PRESET(EventCode) \
	(((EventCode) & PAPI_PRESET_MASK) && !((EventCode) & PAPI_NATIVE_MASK))
#define IS_USER_DEFINED(EventCode) \
	(((EventCode) & PAPI_PRESET_MASK) && ((EventCode) & PAPI_NATIVE_MASK))

/* ---- return codes: PAPI_OK or a negative error ------------------------- */

#define PAPI_OK			0	/* success */
#define PAPI_EINVAL		-1	/* bad argument */
#define PAPI_ENOMEM		-2	/* out of memory */
#define PAPI_ESYS		-3	/* a system call failed; see errno */
#define PAPI_ECMP		-4	/* the component cannot do this */
#define PAPI_ESBSTR		-4	/* old name of PAPI_ECMP */
#define PAPI_ECLOST		-5	/* counters were lost or interrupted */
#define PAPI_EBUG		-6	/* internal error */
#define PAPI_ENOEVNT		-7	/* no such event */
#define PAPI_ECNFLCT		-8	/* event exists but conflicts for counters */
#define PAPI_ENOTRUN		-9	/* event set is not running */
#define PAPI_EISRUN		-10	/* event set is running */
#define PAPI_ENOEVST		-11	/* no such event set */
#define PAPI_ENOTPRESET		-12	/* not a valid preset */
#define PAPI_ENOCNTR		-13	/* no performance counters */
#define PAPI_EMISC		-14	/* other error */
#define PAPI_EPERM		-15	/* not permitted */
#define PAPI_ENOINIT		-16	/* library not initialized */
#define PAPI_ENOCMP		-17	/* no such component / component not set */
#define PAPI_ENOSUPP		-18	/* not supported */
#define PAPI_ENOIMPL		-19	/* not implemented */
#define PAPI_EBUF		-20	/* buffer too small */
#define PAPI_EINVAL_DOM		-21	/* domain not supported for this */
#define PAPI_EATTR		-22	/* bad or missing event attribute */
#define PAPI_ECOUNT		-23	/* too many events or attributes */
#define PAPI_ECOMBO		-24	/* features cannot be combined */
#define PAPI_ECMP_DISABLED	-25	/* the event's component is disabled */
#define PAPI_EDELAY_INIT	-26	/* component initializes on first use */
#define PAPI_EMULPASS		-27	/* event needs several passes */
#if PAPI_ABI_LEVEL >= 72
#define PAPI_PARTIAL		-28	/* component works in part (7.2) */
#define PAPI_NUM_ERRORS		29	/* how many codes above (0 .. -28) */
#else
#define PAPI_NUM_ERRORS		28	/* how many codes above (0 .. -27) */
#endif

/* PAPI_is_initialized() results (bits). */
#define PAPI_NOT_INITED			0
#define PAPI_LOW_LEVEL_INITED		1
#define PAPI_HIGH_LEVEL_INITED		2
#define PAPI_THREAD_LEVEL_INITED	4

/* An event set handle that names no event set: initialize handles with it. */
#define PAPI_NULL		-1

/* ---- counting domains (bits) ------------------------------------------ */

#define PAPI_DOM_USER		0x1
#define PAPI_DOM_MIN		PAPI_DOM_USER
#define PAPI_DOM_KERNEL		0x2
#define PAPI_DOM_OTHER		0x4
#define PAPI_DOM_SUPERVISOR	0x8
#define PAPI_DOM_ALL		(PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_OTHER | PAPI_DOM_SUPERVISOR)
#define PAPI_DOM_MAX		PAPI_DOM_ALL
#define PAPI_DOM_HWSPEC		0x80000000	/* low bits are component specific */

/* ---- thread-local storage slots and user locks ------------------------- */

#define PAPI_USR1_TLS		0x0
#define PAPI_USR2_TLS		0x1
#define PAPI_TLS_HIGH_LEVEL	0x2
#define PAPI_NUM_TLS		0x3
#define PAPI_TLS_USR1		PAPI_USR1_TLS
#define PAPI_TLS_USR2		PAPI_USR2_TLS
#define PAPI_TLS_NUM		PAPI_NUM_TLS
#define PAPI_TLS_ALL_THREADS	0x10

#define PAPI_USR1_LOCK		0x0
#define PAPI_USR2_LOCK		0x1
#define PAPI_NUM_LOCK		0x2
#define PAPI_LOCK_USR1		PAPI_USR1_LOCK
#define PAPI_LOCK_USR2		PAPI_USR2_LOCK
#define PAPI_LOCK_NUM		PAPI_NUM_LOCK

/* ---- CPU vendors (PAPI_hw_info_t.vendor) -------------------------------- */

#define PAPI_VENDOR_UNKNOWN	0
#define PAPI_VENDOR_INTEL	1
#define PAPI_VENDOR_AMD		2
#define PAPI_VENDOR_IBM		3
#define PAPI_VENDOR_CRAY	4
#define PAPI_VENDOR_SUN		5
#define PAPI_VENDOR_FREESCALE	6
#define PAPI_VENDOR_ARM		7
#define PAPI_VENDOR_MIPS	8
/* ARM implementer codes, as in MIDR_EL1. */
#define PAPI_VENDOR_ARM_ARM		0x41
#define PAPI_VENDOR_ARM_BROADCOM	0x42
#define PAPI_VENDOR_ARM_CAVIUM		0x43
#define PAPI_VENDOR_ARM_FUJITSU		0x46
#define PAPI_VENDOR_ARM_HISILICON	0x48
#define PAPI_VENDOR_ARM_APM		0x50
#define PAPI_VENDOR_ARM_QUALCOMM	0x51

/* ---- granularity: whose activity an event set counts ------------------- */

#define PAPI_GRN_THR		0x1	/* the calling thread */
#define PAPI_GRN_MIN		PAPI_GRN_THR
#define PAPI_GRN_PROC		0x2	/* the process */
#define PAPI_GRN_PROCG		0x4	/* the process group */
#define PAPI_GRN_SYS		0x8	/* the current CPU */
#define PAPI_GRN_SYS_CPU	0x10	/* every CPU separately */
#define PAPI_GRN_MAX		PAPI_GRN_SYS_CPU

/* ---- event set state bits (PAPI_state) ---------------------------------- */

#define PAPI_STOPPED		0x01
#define PAPI_RUNNING		0x02
#define PAPI_PAUSED		0x04
#define PAPI_NOT_INIT		0x08
#define PAPI_OVERFLOWING	0x10
#define PAPI_PROFILING		0x20
#define PAPI_MULTIPLEXING	0x40
#define PAPI_ATTACHED		0x80
#define PAPI_CPU_ATTACHED	0x100

/* ---- debug levels (PAPI_set_debug) ------------------------------------- */

#define PAPI_QUIET		0	/* report nothing */
#define PAPI_VERB_ECONT		1	/* print errors, carry on */
#define PAPI_VERB_ESTOP		2	/* print errors, then exit */

/* ---- PAPI_profil / PAPI_sprofil flags ----------------------------------- */

#define PAPI_PROFIL_POSIX	0x0
#define PAPI_PROFIL_RANDOM	0x1	/* keep a random 75% of samples */
#define PAPI_PROFIL_WEIGHTED	0x2	/* weight samples by the overflow count */
#define PAPI_PROFIL_COMPRESS	0x4
#define PAPI_PROFIL_BUCKET_16	0x8	/* 16-bit buckets (the default) */
#define PAPI_PROFIL_BUCKET_32	0x10
#define PAPI_PROFIL_BUCKET_64	0x20
#define PAPI_PROFIL_FORCE_SW	0x40	/* software overflow detection */
#define PAPI_PROFIL_DATA_EAR	0x80
#define PAPI_PROFIL_INST_EAR	0x100
#define PAPI_PROFIL_BUCKETS	(PAPI_PROFIL_BUCKET_16 | PAPI_PROFIL_BUCKET_32 | PAPI_PROFIL_BUCKET_64)

/* ---- PAPI_overflow flags ------------------------------------------------ */

#define PAPI_OVERFLOW_FORCE_SW	0x40
#define PAPI_OVERFLOW_HARDWARE	0x80

/* ---- multiplexing flags (PAPI_multiplex_option_t.flags) ----------------- */

#define PAPI_MULTIPLEX_DEFAULT	0x0	/* kernel multiplexing when available */
#define PAPI_MULTIPLEX_FORCE_SW	0x1	/* timer-driven multiplexing in the library */

/* ---- options for PAPI_set_opt / PAPI_get_opt ---------------------------- */

#define PAPI_INHERIT_ALL	1	/* PAPI_inherit_option_t.inherit values */
#define PAPI_INHERIT_NONE	0

#define PAPI_DETACH		1
#define PAPI_DEBUG		2
#define PAPI_MULTIPLEX		3
#define PAPI_DEFDOM		4
#define PAPI_DOMAIN		5
#define PAPI_DEFGRN		6
#define PAPI_GRANUL		7
#define PAPI_DEF_MPX_NS		8
/* 9 and 10 are unused since PAPI 5. */
#define PAPI_MAX_MPX_CTRS	11
#define PAPI_PROFIL		12
#define PAPI_PRELOAD		13
#define PAPI_CLOCKRATE		14
#define PAPI_MAX_HWCTRS		15
#define PAPI_HWINFO		16
#define PAPI_EXEINFO		17
#define PAPI_MAX_CPUS		18
#define PAPI_ATTACH		19
#define PAPI_SHLIBINFO		20
#define PAPI_LIB_VERSION	21
#define PAPI_COMPONENTINFO	22
#define PAPI_DATA_ADDRESS	23
#define PAPI_INSTR_ADDRESS	24
#define PAPI_DEF_ITIMER		25
#define PAPI_DEF_ITIMER_NS	26
#define PAPI_CPU_ATTACH		27
#define PAPI_INHERIT		28
#define PAPI_USER_EVENTS_FILE	29
/* An extension, in no PAPI release: count only the tasks of one cgroup
 * (ptr->cgroup), on the CPU the set is bound to with PAPI_CPU_ATTACH. */
#define PAPI_CGROUP_ATTACH	1001

#define PAPI_INIT_SLOTS		64	/* initial size of the event set table */

/* ---- string sizes (buffers in the structures below) --------------------- */

#define PAPI_MIN_STR_LEN	64
#define PAPI_MAX_STR_LEN	128
#define PAPI_2MAX_STR_LEN	256
#define PAPI_HUGE_STR_LEN	1024

#define PAPI_PMU_MAX		80	/* PMU names one component may list */
#define PAPI_DERIVED		0x1

/* ---- PAPI_enum_event / PAPI_enum_cmp_event modifiers ------------------- */

enum {
	PAPI_ENUM_EVENTS = 0,		/* every event */
	PAPI_ENUM_FIRST,		/* the first event */
#if PAPI_ABI_LEVEL >= 72
	PAPI_PRESET_ENUM_FIRST_COMP,	/* the first preset of a component (7.2) */
#endif
	PAPI_PRESET_ENUM_AVAIL,		/* presets available here */
	/* presets by category */
	PAPI_PRESET_ENUM_MSC, PAPI_PRESET_ENUM_INS, PAPI_PRESET_ENUM_IDL,
	PAPI_PRESET_ENUM_BR, PAPI_PRESET_ENUM_CND, PAPI_PRESET_ENUM_MEM,
	PAPI_PRESET_ENUM_CACH, PAPI_PRESET_ENUM_L1, PAPI_PRESET_ENUM_L2,
	PAPI_PRESET_ENUM_L3, PAPI_PRESET_ENUM_TLB, PAPI_PRESET_ENUM_FP,
#if PAPI_ABI_LEVEL >= 72
	PAPI_PRESET_ENUM_CPU,		/* the CPU's presets (7.2) */
	PAPI_PRESET_ENUM_CPU_AVAIL,	/* those available here (7.2) */
#endif
	PAPI_NTV_ENUM_UMASKS,		/* the unit masks of one native event */
	PAPI_NTV_ENUM_UMASK_COMBOS, PAPI_NTV_ENUM_IARR, PAPI_NTV_ENUM_DARR,
	PAPI_NTV_ENUM_OPCM, PAPI_NTV_ENUM_IEAR, PAPI_NTV_ENUM_DEAR,
	PAPI_NTV_ENUM_GROUPS
};

#define PAPI_ENUM_ALL		PAPI_ENUM_EVENTS

/* PAPI_event_info_t.event_type bits for presets. */
#define PAPI_PRESET_BIT_MSC	(1 << PAPI_PRESET_ENUM_MSC)
#define PAPI_PRESET_BIT_INS	(1 << PAPI_PRESET_ENUM_INS)
#define PAPI_PRESET_BIT_IDL	(1 << PAPI_PRESET_ENUM_IDL)
#define PAPI_PRESET_BIT_BR	(1 << PAPI_PRESET_ENUM_BR)
#define PAPI_PRESET_BIT_CND	(1 << PAPI_PRESET_ENUM_CND)
#define PAPI_PRESET_BIT_MEM	(1 << PAPI_PRESET_ENUM_MEM)
#define PAPI_PRESET_BIT_CACH	(1 << PAPI_PRESET_ENUM_CACH)
#define PAPI_PRESET_BIT_L1	(1 << PAPI_PRESET_ENUM_L1)
#define PAPI_PRESET_BIT_L2	(1 << PAPI_PRESET_ENUM_L2)
#define PAPI_PRESET_BIT_L3	(1 << PAPI_PRESET_ENUM_L3)
#define PAPI_PRESET_BIT_TLB	(1 << PAPI_PRESET_ENUM_TLB)
#define PAPI_PRESET_BIT_FP	(1 << PAPI_PRESET_ENUM_FP)

#define PAPI_NTV_GROUP_AND_MASK	0x00FF0000	/* group number inside a native code */
#define PAPI_NTV_GROUP_SHIFT	16

/* ---- types -------------------------------------------------------------- */

/* Spellings from PAPI 3, when compilers disagreed on 64-bit integers. */
#define long_long long long
#define u_long_long unsigned long long

typedef unsigned long PAPI_thread_id_t;

/* Filled by PAPI_get_thr_specific(PAPI_TLS_ALL_THREADS | tag, ...). */
typedef struct _papi_all_thr_spec {
	int num;
	PAPI_thread_id_t *id;
	void **data;
} PAPI_all_thr_spec_t;

/* Called on counter overflow: overflow_vector has one bit per counter that
 * overflowed; context is the signal's ucontext. */
typedef void (*PAPI_overflow_handler_t)(int EventSet, void *address,
	long long overflow_vector, void *context);

typedef void *vptr_t;

/* One region for PAPI_sprofil(). pr_scale is a 16.16 fraction of a bucket
 * per text byte pair: 0x10000 one bucket per two bytes, 0x8000 half that. */
typedef struct _papi_sprofil {
	void *pr_base;		/* histogram buffer */
	unsigned pr_size;	/* its size in bytes */
	vptr_t pr_off;		/* lowest text address profiled */
	unsigned pr_scale;
} PAPI_sprofil_t;

typedef struct _papi_itimer_option {
	int itimer_num;		/* ITIMER_REAL, ITIMER_VIRTUAL or ITIMER_PROF */
	int itimer_sig;
	int ns;
	int flags;
} PAPI_itimer_option_t;

typedef struct _papi_inherit_option {
	int eventset;
	int inherit;
} PAPI_inherit_option_t;

typedef struct _papi_domain_option {
	int def_cidx;		/* component, for PAPI_DEFDOM */
	int eventset;
	int domain;
} PAPI_domain_option_t;

typedef struct _papi_granularity_option {
	int def_cidx;		/* component, for PAPI_DEFGRN */
	int eventset;
	int granularity;
} PAPI_granularity_option_t;

typedef struct _papi_preload_option {
	char lib_preload_env[PAPI_MAX_STR_LEN];
	char lib_preload_sep;
	char lib_dir_env[PAPI_MAX_STR_LEN];
	char lib_dir_sep;
} PAPI_preload_info_t;

/* What a component is and can do (PAPI_get_component_info). */
typedef struct _papi_component_option {
	char name[PAPI_MAX_STR_LEN];
	char short_name[PAPI_MIN_STR_LEN];	/* prefix of its event names */
	char description[PAPI_MAX_STR_LEN];
	char version[PAPI_MIN_STR_LEN];
	char support_version[PAPI_MIN_STR_LEN];
	char kernel_version[PAPI_MIN_STR_LEN];
	char disabled_reason[PAPI_HUGE_STR_LEN];
	int disabled;			/* 0, or the PAPI error that disabled it */
#if PAPI_ABI_LEVEL >= 72
	char partially_disabled_reason[PAPI_HUGE_STR_LEN];	/* what of it does not work */
	int partially_disabled;		/* 1: it works, but only in part */
#endif
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
	/* capabilities, one bit each */
	unsigned int hardware_intr:1, precise_intr:1, posix1b_timers:1,
		kernel_profile:1, kernel_multiplex:1, fast_counter_read:1,
		fast_real_timer:1, fast_virtual_timer:1, attach:1,
		attach_must_ptrace:1, cntr_umasks:1, cpu:1, inherit:1,
		reserved_bits:19;
} PAPI_component_info_t;

/* PAPI 3.5's description of the substrate, the CPU's counters
 * (PAPI_get_substrate_info): PAPI 7 calls it component 0. */
typedef struct _papi_substrate_option {
	char name[PAPI_MAX_STR_LEN];		/* the substrate: "perf_event" */
	char version[PAPI_MIN_STR_LEN];		/* its version */
	char support_version[PAPI_MIN_STR_LEN];	/* the support library's: "libpfm4 4.13" */
	char kernel_version[PAPI_MIN_STR_LEN];	/* the kernel's */
	int num_cntrs;				/* hardware counters */
	int num_mpx_cntrs;			/* counters it can multiplex */
	int num_preset_events;			/* presets defined for this CPU */
	int num_native_events;			/* native events */
	int default_domain;
	int available_domains;
	int default_granularity;
	int available_granularities;
	int multiplex_timer_sig;		/* signal of the multiplexing timer, 0 if none */
	int multiplex_timer_num;		/* its itimer */
	int multiplex_timer_us;			/* microseconds between switches */
	int hardware_intr_sig;			/* signal of overflow interrupts */
	int opcode_match_width;			/* width of an opcode matcher, 0 if none */
	int reserved_ints[4];
	unsigned int hardware_intr:1;		/* overflow interrupts from the hardware */
	unsigned int precise_intr:1;		/* that name the precise instruction */
	unsigned int posix1b_timers:1;		/* timer_create rather than setitimer */
	unsigned int kernel_profile:1;		/* kernel-side profiling buffers */
	unsigned int kernel_multiplex:1;	/* the kernel multiplexes */
	unsigned int data_address_range:1;	/* data address ranges can restrict counting */
	unsigned int instr_address_range:1;	/* instruction address ranges can */
	unsigned int fast_counter_read:1;	/* counters read from user space */
	unsigned int fast_real_timer:1;
	unsigned int fast_virtual_timer:1;
	unsigned int attach:1;			/* can count another thread or process */
	unsigned int attach_must_ptrace:1;
	unsigned int edge_detect:1;		/* events can count edges */
	unsigned int invert:1;			/* and invert their condition */
	unsigned int profile_ear:1;		/* event address registers */
	unsigned int grouped_cntrs:1;		/* counters come in hardware groups */
	unsigned int reserved_bits:16;
} PAPI_substrate_info_t;

typedef struct _papi_mpx_info {
	int timer_sig;
	int timer_num;
	int timer_us;
} PAPI_mpx_info_t;

typedef int (*PAPI_debug_handler_t)(int code);

typedef struct _papi_debug_option {
	int level;
	PAPI_debug_handler_t handler;
} PAPI_debug_option_t;

/* Where a loaded object's segments lie. */
typedef struct _papi_address_map {
	char name[PAPI_HUGE_STR_LEN];
	vptr_t text_start;
	vptr_t text_end;
	vptr_t data_start;
	vptr_t data_end;
	vptr_t bss_start;
	vptr_t bss_end;
} PAPI_address_map_t;

typedef struct _papi_program_info {
	char fullname[PAPI_HUGE_STR_LEN];
	PAPI_address_map_t address_info;
} PAPI_exe_info_t;

typedef struct _papi_shared_lib_info {
	PAPI_address_map_t *map;
	int count;
} PAPI_shlib_info_t;

typedef char *PAPI_user_defined_events_file_t;

/* ---- memory hierarchy (sizes in bytes) ---------------------------------- */

/* type field: kind in bits 0-3, write policy 4-7, replacement 8-11,
 * TLB/prefetch 12-13, allocation policy 16-19.
 * associativity: 0 unknown, 1 direct mapped, SHRT_MAX fully associative. */
#define PAPI_MH_TYPE_EMPTY	0x0
#define PAPI_MH_TYPE_INST	0x1
#define PAPI_MH_TYPE_DATA	0x2
#define PAPI_MH_TYPE_VECTOR	0x4
#define PAPI_MH_TYPE_TRACE	0x8
#define PAPI_MH_TYPE_UNIFIED	(PAPI_MH_TYPE_INST | PAPI_MH_TYPE_DATA)
#define PAPI_MH_CACHE_TYPE(a)	((a) & 0xf)
#define PAPI_MH_TYPE_WT		0x00
#define PAPI_MH_TYPE_WB		0x10
#define PAPI_MH_CACHE_WRITE_POLICY(a)	((a) & 0xf0)
#define PAPI_MH_TYPE_UNKNOWN	0x000
#define PAPI_MH_TYPE_LRU	0x100
#define PAPI_MH_TYPE_PSEUDO_LRU	0x200
#define PAPI_MH_TYPE_FIFO	0x400
#define PAPI_MH_CACHE_REPLACEMENT_POLICY(a)	((a) & 0xf00)
#define PAPI_MH_TYPE_TLB	0x1000
#define PAPI_MH_TYPE_PREF	0x2000
#define PAPI_MH_TYPE_RD_ALLOC	0x10000
#define PAPI_MH_TYPE_WR_ALLOC	0x20000
#define PAPI_MH_TYPE_RW_ALLOC	0x40000
#define PAPI_MH_CACHE_ALLOCATION_POLICY(a)	((a) & 0xf0000)
#define PAPI_MH_MAX_LEVELS	6	/* TLB or cache entries per level */
#define PAPI_MAX_MEM_HIERARCHY_LEVELS	4

typedef struct _papi_mh_tlb_info {
	int type;
	int num_entries;
	int page_size;
	int associativity;
} PAPI_mh_tlb_info_t;

typedef struct _papi_mh_cache_info {
	int type;
	int size;
	int line_size;
	int num_lines;
	int associativity;
} PAPI_mh_cache_info_t;

typedef struct _papi_mh_level_info {
	PAPI_mh_tlb_info_t tlb[PAPI_MH_MAX_LEVELS];
	PAPI_mh_cache_info_t cache[PAPI_MH_MAX_LEVELS];
} PAPI_mh_level_t;

typedef struct _papi_mh_info {
	int levels;
	PAPI_mh_level_t level[PAPI_MAX_MEM_HIERARCHY_LEVELS];
} PAPI_mh_info_t;

/* The machine (PAPI_get_hardware_info). */
typedef struct _papi_hw_info {
	int ncpu;			/* CPUs per NUMA node */
	int threads;			/* hardware threads per core */
	int cores;			/* cores per socket */
	int sockets;
	int nnodes;			/* NUMA nodes */
	int totalcpus;
	int vendor;			/* PAPI_VENDOR_* */
	char vendor_string[PAPI_MAX_STR_LEN];
	int model;
	char model_string[PAPI_MAX_STR_LEN];
	float revision;
	int cpuid_family;
	int cpuid_model;
	int cpuid_stepping;
	int cpu_max_mhz;
	int cpu_min_mhz;
	PAPI_mh_info_t mem_hierarchy;
	int virtualized;		/* nonzero in a virtual machine */
	char virtual_vendor_string[PAPI_MAX_STR_LEN];
	char virtual_vendor_version[PAPI_MAX_STR_LEN];
	float mhz;			/* deprecated */
	int clock_mhz;			/* deprecated */
	int reserved[8];
} PAPI_hw_info_t;

typedef struct _papi_attach_option {
	int eventset;
	unsigned long tid;
} PAPI_attach_option_t;

typedef struct _papi_cpu_option {
	int eventset;
	unsigned int cpu_num;
} PAPI_cpu_option_t;

typedef struct _papi_multiplex_option {
	int eventset;
	int ns;
	int flags;			/* PAPI_MULTIPLEX_* */
} PAPI_multiplex_option_t;

/* PAPI_CGROUP_ATTACH (an extension): path names a cgroup relative to the
 * hierarchy perf_event counts in (the cgroup2 mount, or a cgroup v1 mount
 * with the perf_event controller); NULL unbinds the set. */
typedef struct _papi_cgroup_option {
	int eventset;
	const char *path;
} PAPI_cgroup_option_t;

/* Address range restriction; start == end == 0 turns it off. */
typedef struct _papi_addr_range_option {
	int eventset;
	vptr_t start;
	vptr_t end;
	int start_off;			/* set by the library */
	int end_off;			/* set by the library */
} PAPI_addr_range_option_t;

/* The argument of PAPI_set_opt / PAPI_get_opt; the option number says
 * which member is meant. */
typedef union {
	PAPI_preload_info_t preload;
	PAPI_debug_option_t debug;
	PAPI_inherit_option_t inherit;
	PAPI_granularity_option_t granularity;
	PAPI_granularity_option_t defgranularity;
	PAPI_domain_option_t domain;
	PAPI_domain_option_t defdomain;
	PAPI_attach_option_t attach;
	PAPI_cpu_option_t cpu;
	PAPI_multiplex_option_t multiplex;
	PAPI_itimer_option_t itimer;
	PAPI_hw_info_t *hw_info;
	PAPI_shlib_info_t *shlib_info;
	PAPI_exe_info_t *exe_info;
	PAPI_component_info_t *cmp_info;
	PAPI_addr_range_option_t addr;
	PAPI_user_defined_events_file_t events_file;
	PAPI_cgroup_option_t cgroup;	/* extension: smaller than preload, so
					 * the union's size is PAPI 7's */
} PAPI_option_t;

/* Process memory use (PAPI_get_dmem_info), in kilobytes except pagesize. */
typedef struct _dmem_t {
	long long peak, size, resident, high_water_mark, shared, text;
	long long library, heap, locked, stack, pagesize, pte;
} PAPI_dmem_info_t;

/* 1-based positions of the fields above, for the Fortran binding. */
#define PAPIF_DMEM_VMPEAK	1
#define PAPIF_DMEM_VMSIZE	2
#define PAPIF_DMEM_RESIDENT	3
#define PAPIF_DMEM_HIGH_WATER	4
#define PAPIF_DMEM_SHARED	5
#define PAPIF_DMEM_TEXT		6
#define PAPIF_DMEM_LIBRARY	7
#define PAPIF_DMEM_HEAP		8
#define PAPIF_DMEM_LOCKED	9
#define PAPIF_DMEM_STACK	10
#define PAPIF_DMEM_PAGESIZE	11
#define PAPIF_DMEM_PTE		12
#define PAPIF_DMEM_MAXVAL	12

#define PAPI_MAX_INFO_TERMS	12	/* native terms a preset may combine */
#if PAPI_ABI_LEVEL >= 72
#define PAPI_MAX_COMP_QUALS	8	/* qualifiers PAPI_event_info_t lists */
#endif

/* Values of PAPI_event_info_t.location, .data_type, .value_type, .timescope
 * and .update_type. */
enum { PAPI_LOCATION_CORE = 0, PAPI_LOCATION_CPU, PAPI_LOCATION_PACKAGE,
	PAPI_LOCATION_UNCORE };
enum { PAPI_DATATYPE_INT64 = 0, PAPI_DATATYPE_UINT64, PAPI_DATATYPE_FP64,
	PAPI_DATATYPE_BIT64 };
enum { PAPI_VALUETYPE_RUNNING_SUM = 0, PAPI_VALUETYPE_ABSOLUTE };
enum { PAPI_TIMESCOPE_SINCE_START = 0, PAPI_TIMESCOPE_SINCE_LAST,
	PAPI_TIMESCOPE_UNTIL_NEXT, PAPI_TIMESCOPE_POINT };
enum { PAPI_UPDATETYPE_ARBITRARY = 0, PAPI_UPDATETYPE_PUSH, PAPI_UPDATETYPE_PULL,
	PAPI_UPDATETYPE_FIXEDFREQ };

/*
 * Everything known about one event (PAPI_get_event_info).  It is large
 * (several kilobytes): callers own it, usually on the stack.  For a preset,
 * count/code/name list the native events it is built from and derived/postfix
 * say how they combine; for a native event those fields are unused.
 */
typedef struct event_info {
	unsigned int event_code;
	char symbol[PAPI_HUGE_STR_LEN];
	char short_descr[PAPI_MIN_STR_LEN];
	char long_descr[PAPI_HUGE_STR_LEN];
	int component_index;
	char units[PAPI_MIN_STR_LEN];
	int location;			/* PAPI_LOCATION_* */
	int data_type;			/* PAPI_DATATYPE_* */
	int value_type;			/* PAPI_VALUETYPE_* */
	int timescope;			/* PAPI_TIMESCOPE_* */
	int update_type;		/* PAPI_UPDATETYPE_* */
	int update_freq;
	unsigned int count;
	unsigned int event_type;	/* PAPI_PRESET_BIT_* */
	char derived[PAPI_MIN_STR_LEN];
	char postfix[PAPI_2MAX_STR_LEN];
	unsigned int code[PAPI_MAX_INFO_TERMS];
	char name[PAPI_MAX_INFO_TERMS][PAPI_2MAX_STR_LEN];
	char note[PAPI_HUGE_STR_LEN];
#if PAPI_ABI_LEVEL >= 72
	/* a native event's qualifiers (":u=0", ":period=0", ...): how many,
	 * each one's name and its description */
	int num_quals;
	char quals[PAPI_MAX_COMP_QUALS][PAPI_HUGE_STR_LEN];
	char quals_descrs[PAPI_MAX_COMP_QUALS][PAPI_HUGE_STR_LEN];
#endif
} PAPI_event_info_t;

/* ---- devices (PAPI_enum_dev_type, PAPI_get_dev_*_attr) ------------------ */

typedef enum {
	PAPI_DEV_TYPE_ID__CPU,
	PAPI_DEV_TYPE_ID__CUDA,
	PAPI_DEV_TYPE_ID__ROCM,
	PAPI_DEV_TYPE_ID__MAX_NUM,
} PAPI_dev_type_id_e;

/* enum_modifier values of PAPI_enum_dev_type: a mask of device types. */
enum {
	PAPI_DEV_TYPE_ENUM__FIRST = 0,
	PAPI_DEV_TYPE_ENUM__CPU = (1 << PAPI_DEV_TYPE_ID__CPU),
	PAPI_DEV_TYPE_ENUM__CUDA = (1 << PAPI_DEV_TYPE_ID__CUDA),
	PAPI_DEV_TYPE_ENUM__ROCM = (1 << PAPI_DEV_TYPE_ID__ROCM),
	PAPI_DEV_TYPE_ENUM__ALL = (1 << PAPI_DEV_TYPE_ID__MAX_NUM) - 1,
};

typedef enum {
	PAPI_DEV_TYPE_ATTR__INT_PAPI_ID, PAPI_DEV_TYPE_ATTR__INT_VENDOR_ID,
	PAPI_DEV_TYPE_ATTR__CHAR_NAME, PAPI_DEV_TYPE_ATTR__INT_COUNT,
	PAPI_DEV_TYPE_ATTR__CHAR_STATUS,
} PAPI_dev_type_attr_e;

/* Named PAPI_DEV_ATTR__<device>_<value type>_<attribute>. */
typedef enum {
	PAPI_DEV_ATTR__CPU_CHAR_NAME, PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_SIZE,
	PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_SIZE,
	PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_SIZE,
	PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_SIZE,
	PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_SIZE,
	PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_SIZE,
	PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_SIZE,
	PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_COUNT,
	PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_COUNT,
	PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_COUNT,
	PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_COUNT,
	PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_ASSOC, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_ASSOC,
	PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_ASSOC, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_ASSOC,
	PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT,
	PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT,
	PAPI_DEV_ATTR__CPU_UINT_FAMILY, PAPI_DEV_ATTR__CPU_UINT_MODEL,
	PAPI_DEV_ATTR__CPU_UINT_STEPPING, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE,
	PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY, PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA,
	PAPI_DEV_ATTR__CUDA_ULONG_UID, PAPI_DEV_ATTR__CUDA_CHAR_DEVICE_NAME,
	PAPI_DEV_ATTR__CUDA_UINT_WARP_SIZE, PAPI_DEV_ATTR__CUDA_UINT_SHM_PER_BLK,
	PAPI_DEV_ATTR__CUDA_UINT_SHM_PER_SM, PAPI_DEV_ATTR__CUDA_UINT_BLK_DIM_X,
	PAPI_DEV_ATTR__CUDA_UINT_BLK_DIM_Y, PAPI_DEV_ATTR__CUDA_UINT_BLK_DIM_Z,
	PAPI_DEV_ATTR__CUDA_UINT_GRD_DIM_X, PAPI_DEV_ATTR__CUDA_UINT_GRD_DIM_Y,
	PAPI_DEV_ATTR__CUDA_UINT_GRD_DIM_Z, PAPI_DEV_ATTR__CUDA_UINT_THR_PER_BLK,
	PAPI_DEV_ATTR__CUDA_UINT_SM_COUNT, PAPI_DEV_ATTR__CUDA_UINT_MULTI_KERNEL,
	PAPI_DEV_ATTR__CUDA_UINT_MAP_HOST_MEM, PAPI_DEV_ATTR__CUDA_UINT_MEMCPY_OVERLAP,
	PAPI_DEV_ATTR__CUDA_UINT_UNIFIED_ADDR, PAPI_DEV_ATTR__CUDA_UINT_MANAGED_MEM,
	PAPI_DEV_ATTR__CUDA_UINT_COMP_CAP_MAJOR, PAPI_DEV_ATTR__CUDA_UINT_COMP_CAP_MINOR,
	PAPI_DEV_ATTR__CUDA_UINT_BLK_PER_SM,
	PAPI_DEV_ATTR__ROCM_ULONG_UID, PAPI_DEV_ATTR__ROCM_CHAR_DEVICE_NAME,
	PAPI_DEV_ATTR__ROCM_UINT_WAVEFRONT_SIZE, PAPI_DEV_ATTR__ROCM_UINT_WORKGROUP_SIZE,
	PAPI_DEV_ATTR__ROCM_UINT_WAVE_PER_CU, PAPI_DEV_ATTR__ROCM_UINT_SHM_PER_WG,
	PAPI_DEV_ATTR__ROCM_UINT_WG_DIM_X, PAPI_DEV_ATTR__ROCM_UINT_WG_DIM_Y,
	PAPI_DEV_ATTR__ROCM_UINT_WG_DIM_Z, PAPI_DEV_ATTR__ROCM_UINT_GRD_DIM_X,
	PAPI_DEV_ATTR__ROCM_UINT_GRD_DIM_Y, PAPI_DEV_ATTR__ROCM_UINT_GRD_DIM_Z,
	PAPI_DEV_ATTR__ROCM_UINT_CU_COUNT, PAPI_DEV_ATTR__ROCM_UINT_SIMD_PER_CU,
	PAPI_DEV_ATTR__ROCM_UINT_COMP_CAP_MAJOR, PAPI_DEV_ATTR__ROCM_UINT_COMP_CAP_MINOR,
} PAPI_dev_attr_e;

/* The library is compiled with -fvisibility=hidden: the functions declared
 * from here on are its whole interface, the only names a shared libpapi
 * exports and the only globals its static archive leaves visible. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ---- low-level API ------------------------------------------------------
 * Unless noted, each call returns PAPI_OK or a negative PAPI_E* code. */

/* library: initialization, options, errors, components */
int PAPI_library_init(int version);	/* returns version on success */
int PAPI_is_initialized(void);		/* PAPI_*_INITED bits */
void PAPI_shutdown(void);
int PAPI_set_debug(int level);
int PAPI_set_opt(int option, PAPI_option_t *ptr);
int PAPI_get_opt(int option, PAPI_option_t *ptr);	/* some options return a value */
int PAPI_get_cmp_opt(int option, PAPI_option_t *ptr, int cidx);
int PAPI_set_domain(int domain);
int PAPI_set_cmp_domain(int domain, int cidx);
int PAPI_set_granularity(int granularity);
int PAPI_set_cmp_granularity(int granularity, int cidx);
char *PAPI_strerror(int errorCode);	/* NULL for an unknown code */
void PAPI_perror(const char *msg);
int PAPI_num_components(void);
int PAPI_num_cmp_hwctrs(int cidx);	/* counters, or <= 0 */
int PAPI_num_hwctrs(void);		/* counters of component 0 */
int PAPI_get_component_index(const char *name);
int PAPI_disable_component(int cidx);
int PAPI_disable_component_by_name(const char *name);
const PAPI_component_info_t *PAPI_get_component_info(int cidx);	/* NULL on error */
int PAPI_multiplex_init(void);

/* event sets */
int PAPI_create_eventset(int *EventSet);
int PAPI_destroy_eventset(int *EventSet);
int PAPI_cleanup_eventset(int EventSet);
int PAPI_assign_eventset_component(int EventSet, int cidx);
int PAPI_get_eventset_component(int EventSet);
int PAPI_add_event(int EventSet, int EventCode);
int PAPI_add_named_event(int EventSet, const char *EventName);
int PAPI_add_events(int EventSet, int *Events, int number);
int PAPI_remove_event(int EventSet, int EventCode);
int PAPI_remove_named_event(int EventSet, const char *EventName);
int PAPI_remove_events(int EventSet, int *Events, int number);
int PAPI_list_events(int EventSet, int *Events, int *number);
int PAPI_num_events(int EventSet);	/* count, or < 0 */
int PAPI_state(int EventSet, int *status);
int PAPI_set_multiplex(int EventSet);
int PAPI_get_multiplex(int EventSet);	/* 1, 0, or < 0 */
int PAPI_attach(int EventSet, unsigned long tid);
int PAPI_detach(int EventSet);

/* counting */
int PAPI_start(int EventSet);
int PAPI_stop(int EventSet, long long *values);
int PAPI_read(int EventSet, long long *values);
int PAPI_read_ts(int EventSet, long long *values, long long *cyc);
int PAPI_accum(int EventSet, long long *values);
int PAPI_reset(int EventSet);
int PAPI_write(int EventSet, long long *values);

/* event codes, names and descriptions */
int PAPI_event_code_to_name(int EventCode, char *out);
int PAPI_event_name_to_code(const char *in, int *out);
int PAPI_enum_event(int *EventCode, int modifier);
int PAPI_enum_cmp_event(int *EventCode, int modifier, int cidx);
int PAPI_query_event(int EventCode);
int PAPI_query_named_event(const char *EventName);
int PAPI_get_event_info(int EventCode, PAPI_event_info_t *info);
int PAPI_get_event_component(int EventCode);

/* overflow and profiling */
int PAPI_overflow(int EventSet, int EventCode, int threshold, int flags,
	PAPI_overflow_handler_t handler);
int PAPI_get_overflow_event_index(int EventSet, long long overflow_vector,
	int *array, int *number);
int PAPI_profil(void *buf, unsigned bufsiz, vptr_t offset, unsigned scale,
	int EventSet, int EventCode, int threshold, int flags);
int PAPI_sprofil(PAPI_sprofil_t *prof, int profcnt, int EventSet,
	int EventCode, int threshold, int flags);

/* threads and locks */
int PAPI_thread_init(unsigned long (*id_fn)(void));
unsigned long PAPI_thread_id(void);	/* (unsigned long)-1 on error */
int PAPI_register_thread(void);
int PAPI_unregister_thread(void);
int PAPI_list_threads(unsigned long *tids, int *number);
int PAPI_get_thr_specific(int tag, void **ptr);
int PAPI_set_thr_specific(int tag, void *ptr);
int PAPI_lock(int lck);
int PAPI_unlock(int lck);

/* clocks: plain values, not error codes */
long long PAPI_get_real_cyc(void);
long long PAPI_get_real_nsec(void);
long long PAPI_get_real_usec(void);
long long PAPI_get_virt_cyc(void);
long long PAPI_get_virt_nsec(void);
long long PAPI_get_virt_usec(void);

/* system and process information: NULL on error */
const PAPI_hw_info_t *PAPI_get_hardware_info(void);
const PAPI_exe_info_t *PAPI_get_executable_info(void);
const PAPI_shlib_info_t *PAPI_get_shared_lib_info(void);
int PAPI_get_dmem_info(PAPI_dmem_info_t *dest);

/* devices */
int PAPI_enum_dev_type(int enum_modifier, void **handle);
int PAPI_get_dev_type_attr(void *handle, PAPI_dev_type_attr_e attr, void *value);
int PAPI_get_dev_attr(void *handle, int id, PAPI_dev_attr_e attr, void *value);

/* rates: each call reports totals since its first call */
int PAPI_flips_rate(int event, float *rtime, float *ptime, long long *flpins, float *mflips);
int PAPI_flops_rate(int event, float *rtime, float *ptime, long long *flpops, float *mflops);
int PAPI_ipc(float *rtime, float *ptime, long long *ins, float *ipc);
int PAPI_epc(int event, float *rtime, float *ptime, long long *ref,
	long long *core, long long *evt, float *epc);
int PAPI_rate_stop(void);

/* ---- high-level region API ---------------------------------------------- */

int PAPI_hl_region_begin(const char *region);
int PAPI_hl_read(const char *region);
int PAPI_hl_region_end(const char *region);
int PAPI_hl_stop(void);

/* The optional region calls of the high-level paper (seed 004, Table 5),
 * which PAPI 7.0's papi.h does not declare. */
int PAPI_hl_init(void);
int PAPI_hl_cleanup_thread(void);
int PAPI_hl_finalize(void);
int PAPI_hl_set_events(const char *events);
int PAPI_hl_print_output(void);

/* ---- PAPI 3.5 calls that PAPI 7 no longer has --------------------------- */

/* classic high-level counters: one implicit event set per thread */
int PAPI_num_counters(void);		/* counters, or < 0 */
int PAPI_start_counters(int *events, int array_len);
int PAPI_read_counters(long long *values, int array_len);
int PAPI_accum_counters(long long *values, int array_len);
int PAPI_stop_counters(long long *values, int array_len);
int PAPI_flips(float *rtime, float *ptime, long long *flpins, float *mflips);
int PAPI_flops(float *rtime, float *ptime, long long *flpops, float *mflops);

/* the CPU substrate (PAPI 7: PAPI_get_component_info(0)); NULL before
 * PAPI_library_init */
const PAPI_substrate_info_t *PAPI_get_substrate_info(void);

/* editing the preset table at run time */
int PAPI_encode_events(char *event_file, int replace);
int PAPI_set_event_info(PAPI_event_info_t *info, int *EventCode, int replace);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

/* ---- an older level's calls whose ABI changed in 7.2 ---------------------
 * A program built at -DPAPI_ABI_LEVEL=70 or 71 passes and gets that
 * release's numbers and layouts in nine calls. A shared library answers
 * them at its SONAME's release (libpapi.so.7.0 at 7.0's). The static
 * archive serves every release, and so has them under this level's names
 * as well (PAPI_library_init_v70, ...): the program calls those where it
 * is linked with them, else the PAPI_* ones. Each call below is that
 * choice, made through a weak reference; the name PAPI_library_init then
 * stands for it (calls and pointers alike). */
#if PAPI_ABI_LEVEL != 72 && defined(__GNUC__)
#if PAPI_ABI_LEVEL == 70
#define PAPI_AT_LEVEL_(name)	PAPI_##name##_v70
#else
#define PAPI_AT_LEVEL_(name)	PAPI_##name##_v71
#endif
#define PAPI_LEVEL_CALL_(type, name, params, args) \
	type PAPI_AT_LEVEL_(name) params __attribute__((weak)); \
	static __inline__ type PAPI_##name##_level_ params \
	{ \
		return PAPI_AT_LEVEL_(name) ? PAPI_AT_LEVEL_(name) args : PAPI_##name args; \
	}
PAPI_LEVEL_CALL_(int, library_init, (int version), (version))
PAPI_LEVEL_CALL_(const PAPI_component_info_t *, get_component_info, (int cidx), (cidx))
PAPI_LEVEL_CALL_(int, get_opt, (int option, PAPI_option_t *ptr), (option, ptr))
PAPI_LEVEL_CALL_(int, get_cmp_opt, (int option, PAPI_option_t *ptr, int cidx), (option, ptr, cidx))
PAPI_LEVEL_CALL_(int, get_event_info, (int EventCode, PAPI_event_info_t *info), (EventCode, info))
PAPI_LEVEL_CALL_(int, set_event_info, (PAPI_event_info_t *info, int *EventCode, int replace),
	(info, EventCode, replace))
PAPI_LEVEL_CALL_(int, enum_event, (int *EventCode, int modifier), (EventCode, modifier))
PAPI_LEVEL_CALL_(int, enum_cmp_event, (int *EventCode, int modifier, int cidx), (EventCode, modifier, cidx))
PAPI_LEVEL_CALL_(char *, strerror, (int errorCode), (errorCode))
#undef PAPI_LEVEL_CALL_
#undef PAPI_AT_LEVEL_
#define PAPI_library_init	PAPI_library_init_level_
#define PAPI_get_component_info	PAPI_get_component_info_level_
#define PAPI_get_opt		PAPI_get_opt_level_
#define PAPI_get_cmp_opt	PAPI_get_cmp_opt_level_
#define PAPI_get_event_info	PAPI_get_event_info_level_
#define PAPI_set_event_info	PAPI_set_event_info_level_
#define PAPI_enum_event		PAPI_enum_event_level_
#define PAPI_enum_cmp_event	PAPI_enum_cmp_event_level_
#define PAPI_strerror		PAPI_strerror_level_
#endif

/* ---- old spellings ------------------------------------------------------ */

#define PAPI_COMPONENT_INDEX(a)	PAPI_get_event_component(a)
#define PAPI_descr_error(a)	PAPI_strerror(a)

#ifdef __cplusplus
}
#endif

#endif
