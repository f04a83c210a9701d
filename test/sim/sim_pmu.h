/* sim_pmu.h: a simulated perf_event PMU behind libpapi's sys seam, for test binaries only.
 *
 * What only hardware produces (counter conflicts, rotation, 48-bit counters,
 * overflow interrupts, hybrid CPUs, rdpmc) is simulated here, deterministically:
 * nothing counts until the test calls sim_advance(cycles). The simulated CPU
 * runs at 1 GHz, so one cycle is one nanosecond of time_enabled/running.
 *
 * Use:
 *	struct sim_config c = sim_default_config();	// one "cpu" PMU, 4+3 counters
 *	sim_install(&c);				// before PAPI_library_init
 *	sim_event(PERF_TYPE_RAW, 0x3c, SIM_FIXED(1), 1, 1);	// cycles: 1/cycle
 *	... PAPI_add_event, PAPI_start ...
 *	sim_advance(1000000);
 *	... PAPI_read ...
 *	sim_uninstall();				// after PAPI_shutdown
 *
 * Kernel behaviour modelled (each is a place a library can get it wrong):
 * - perf_event_open: EINVAL for a bad attr size/flags/read_format/sample_type,
 *   a group_fd that is no open leader, or hardware events of two PMUs in one
 *   group; ENOENT for a type no PMU has or an event the PMU lacks; ENOSPC when
 *   the group (leader, members and the new event) cannot be placed on the
 *   counters at once (per-event counter masks: general and fixed counters);
 *   EACCES when the configured paranoid level forbids it to an unprivileged
 *   process: anything at 3 (as distributions' patched kernels), the kernel's
 *   share at 2, a whole CPU (pid -1) at 1;
 *   EBUSY while sim_set_busy(1); any errno injected by sim_fail_next().
 * - one pool of counters per PMU shared by every enabled group of the process;
 *   when the groups do not fit, the kernel's rotation: each tick the groups
 *   are scheduled in list order, the first unscheduled-capable group moves to
 *   the end, so time_running < time_enabled for the groups that lost turns.
 * - read(): the read_format layouts (GROUP, ID, TOTAL_TIME_*), ENOSPC for a
 *   short buffer; 64-bit counts (the kernel folds the 48-bit hardware counter).
 * - ioctl: ENABLE, DISABLE, RESET (the count only: times keep running), with
 *   PERF_IOC_FLAG_GROUP for the whole group, REFRESH, PERIOD, ID.
 * - mmap: the user page (lock seqcount, index, offset, time_enabled/running,
 *   cap_user_rdpmc, pmc_width, cap_user_time with time_offset/mult/shift over
 *   a simulated TSC of 2 ticks per nanosecond) and a ring buffer of PERF_RECORD_SAMPLE records
 *   for events with a sample_period (IDENTIFIER, IP, TID, TIME, ADDR, ID,
 *   STREAM_ID, CPU, PERIOD).
 * - fcntl: F_SETFL O_ASYNC, F_SETSIG, F_SETOWN / F_SETOWN_EX; each overflow
 *   (each wakeup_events-th) queues the signal to the owner with si_code
 *   POLL_IN and si_fd = the counter's fd (POLL_HUP when a REFRESH runs out).
 *   Signals are sent after the simulator's lock is released, at the end of
 *   sim_advance, so a handler may call PAPI_read/PAPI_stop.
 * - paranoid and privileged: the configured level and CAP_PERFMON.
 * - pmu_type: "software" -> 1, each configured PMU its type ("cpu" -> 4 =
 *   PERF_TYPE_RAW, or "cpu_core" -> 4 and "cpu_atom" -> 10 on a hybrid).
 * - pmu_dir: the kernel's list of PMUs (sysfs), a directory sim_install
 *   makes under $TMPDIR: NAME/type of each configured PMU and of
 *   "software", and NAME/cpus of every PMU but a plain "cpu" (as hybrid x86
 *   and ARM kernels mark their core PMUs) and the uncore ones, which get
 *   NAME/cpumask instead (sim_pmu_desc.cpumask). A test adds format and event
 *   files with sim_sysfs_write before PAPI_library_init; sim_uninstall (or
 *   the end of the process) removes the tree.
 * - rdpmc and tsc: the raw counter of the CPU the test runs on, which is of
 *   the first configured PMU's kind (so the pages of the other PMUs' events
 *   say index 0: not on this CPU's counters), and the simulated TSC.
 *
 * Simplifications: every process/thread/cpu target counts the same stream;
 * software events (PERF_TYPE_SOFTWARE) count one per cycle (task-clock and
 * cpu-clock: nanoseconds) and use no counter; inherit is accepted and ignored. */
#ifndef PAPI_TEST_SIM_PMU_H
#define PAPI_TEST_SIM_PMU_H

#include <linux/perf_event.h>
#include <stdint.h>

#define SIM_MAX_PMUS 12
#define SIM_MAX_CNTRS 16	/* general + fixed, per PMU */

/* Counter masks for sim_event: general counter i, fixed counter i. */
#define SIM_GP(i) (1u << (i))
#define SIM_FIXED(i) (1u << (8 + (i)))	/* fixed counters sit at bits 8.. */
#define SIM_ANY_GP 0xffu

struct sim_pmu_desc {
	char name[32];		/* sysfs name: "cpu", "cpu_core", "cpu_atom" */
	int type;		/* perf_event_attr.type of the PMU */
	int ngeneral, nfixed;	/* at most 8 each */
	int width;		/* counter bits (pmc_width), 48 */
	/* An uncore PMU: its cpumask file's text ("0,1": one CPU per socket
	 * or die) instead of a cpus file; "" for a core PMU. */
	char cpumask[32];
};

struct sim_config {
	int npmus;
	struct sim_pmu_desc pmu[SIM_MAX_PMUS];
	int paranoid;		/* perf_event_paranoid: see perf_event_open above */
	int privileged;		/* CAP_PERFMON: no paranoid limit */
	uint64_t tick;		/* cycles between rotations (default 4,000,000 = 4 ms) */
	uint64_t pmc_start;	/* raw value a counter holds when an event is placed on it */
	int rdpmc;		/* cap_user_rdpmc in the user page */
	int group_err;		/* errno for a group that cannot fit: 0 = ENOSPC
				 * (x86 kernels answer EINVAL: set it to test that) */
	int lazy_page;		/* 1: user pages are rewritten only when a counter is
				 * (re)scheduled, enabled, disabled or reset, as the
				 * kernel does (readers bring the times up to date with
				 * cap_user_time); 0: also at the end of each sim_advance */
};

/* One "cpu" PMU of type 4 with 4 general and 3 fixed counters, width 48,
 * paranoid 1, tick 4 ms, rdpmc allowed, pmc_start 0. */
struct sim_config sim_default_config(void);
/* Two core PMUs: cpu_core (type 4, 8 general + 4 fixed) and cpu_atom
 * (type 10, 6 general + 3 fixed); no "cpu". */
struct sim_config sim_hybrid_config(void);

/* Reset the simulator to config c (the table of events too) and plug it in
 * with sys_set_ops(). Call before PAPI_library_init. */
void sim_install(const struct sim_config *c);
/* Restore the real kernel; closes whatever the library left open. */
void sim_uninstall(void);
/* The simulated kernel's PMU directory ("" when it could not be made), and
 * text written to a file in it, directories made on the way:
 * sim_sysfs_write("cpu/events/instructions", "event=0xc0"). 0, or -1 with
 * errno. */
const char *sim_sysfs_dir(void);
int sim_sysfs_write(const char *rel, const char *text);

/* Declare event (type, config) of the PMUs: which counters can hold it
 * (mask of SIM_GP/SIM_FIXED; 0 = any general counter) and how fast it counts:
 * num/den per cycle (exact: the remainder carries over). On a hybrid, type 4
 * or 10 picks the PMU; PERF_TYPE_HARDWARE events apply to every core PMU
 * (extended type in config bits 32-63 selects one), unless declared with
 * that extended type for one PMU alone. Undeclared events of a
 * core PMU count 1 per cycle on any general counter. */
void sim_event(uint32_t type, uint64_t config, unsigned mask, uint64_t num, uint64_t den);
/* The skx events (LIBPFM_FORCE_PMU=skx encodings) the counting tests use,
 * declared on PERF_TYPE_RAW: UNHALTED_CORE_CYCLES 1 per cycle (fixed 1 or
 * any general), INST_RETIRED:ANY_P 2 per cycle (fixed 0 or any general),
 * BR_INST_RETIRED:ALL_BRANCHES 1 per 5 (general), and two events that only
 * general counter 2 holds: CYCLE_ACTIVITY:STALLS_L1D_MISS 1 per 10 and
 * MEM_LOAD_RETIRED:L1_HIT 1 per 3. */
#define SKX_CYC 0x3c
#define SKX_INS 0xc0
#define SKX_BR 0xc4
#define SKX_STALL 0xc000ca3
#define SKX_L1HIT 0x1d1
void sim_declare_skx(void);
/* Make the kernel refuse opening (type, config) with errno err (e.g. ENOENT). */
void sim_event_refuse(uint32_t type, uint64_t config, int err);

/* Run the simulated CPU for cycles: every scheduled counter counts, with
 * rotation at each tick; overflows write samples and queue signals, which are
 * delivered before this returns. */
void sim_advance(uint64_t cycles);
/* The instruction pointer samples report (default 0x400000). */
void sim_set_ip(uint64_t ip);
/* The next n perf_event_open calls fail with errno err (n = 0 cancels). */
void sim_fail_next(int err, int n);
/* While on, every hardware open fails with EBUSY (another tool owns the PMU). */
void sim_set_busy(int on);

/* Introspection for tests. */
int sim_open_count(void);		/* counters open now */
int sim_opens_total(void);		/* perf_event_open calls that succeeded */
/* The perf_event_attr the library opened fd with (NULL when fd is not one). */
const struct perf_event_attr *sim_attr(int fd);
/* Raw hardware counter idx (the user page's index - 1) of the PMU of fd, as
 * rdpmc would return it: width bits, wrapping. -1 when fd is not scheduled. */
int64_t sim_rdpmc(int fd, uint32_t idx);
/* Overflows taken and samples written by fd; signals queued in total. */
uint64_t sim_overflows(int fd);
uint64_t sim_samples(int fd);
uint64_t sim_signals(void);

/* The seam's rdpmc op: the next n reads of a counter first reprogram it
 * (a new raw value, the pages of its events rewritten with a new offset),
 * as if the kernel rescheduled it between a reader's look at the page and
 * its rdpmc: the reader must notice the page's lock move and retry. */
void sim_rdpmc_interfere(int n);
/* Calls the library made: rdpmc ops, read() of counters, user pages and
 * ring buffers mapped now. */
uint64_t sim_rdpmcs(void);
uint64_t sim_reads(void);
uint64_t sim_ioctls(void);	/* ioctl calls on simulated counters */
int sim_maps_live(void);

/* Read the count of fd the way a user-space rdpmc reader does: seqlock loop
 * over the user page mapped at page, sign-extending the raw counter to
 * pmc_width (times as the page holds them, not brought up to date). Returns -1 when the page says rdpmc is not possible. */
int64_t sim_user_read(int fd, const struct perf_event_mmap_page *page, uint64_t *enabled,
		      uint64_t *running);

#endif
