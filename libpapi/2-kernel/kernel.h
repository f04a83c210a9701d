/* kernel.h: layer 2, the kernel door: the perf_event seam (perf.c), the
 * machine's description from /proc, sysfs and CPUID (hwinfo.c, memhier.c),
 * the process's (procinfo.c), the clocks (timers.c) and the /proc and /sys
 * files the OS components read (osfile.c). Calls only layer 1. */
#ifndef PAPI_KERNEL_H
#define PAPI_KERNEL_H

#include <dirent.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "1-state/state.h"

/* ------------------------------------------------------------------ sys seam
 * perf.c is the only module that talks to the kernel's perf_event interface,
 * and it does so only through these calls, so that a test binary can plug in
 * a simulated PMU (test/sim). The shipped library always uses the real ones. */
struct sys_ops {
	int (*perf_open)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags);
	ssize_t (*read)(int fd, void *buf, size_t len);
	int (*ioctl)(int fd, unsigned long req, unsigned long arg);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *addr, size_t len);
	int (*close)(int fd);
	int (*fcntl)(int fd, int cmd, long arg);
	/* perf_event_attr.type of the kernel PMU called name (as in
	 * PMU_DIR/NAME/type), or -1 when the kernel has none. */
	int (*pmu_type)(const char *name);
	/* The directory where the kernel lists its PMUs, one directory each
	 * (/sys/bus/event_source/devices): kpmu.c reads it. A test points it
	 * at a tree of its own; NULL: the kernel lists none. */
	const char *pmu_dir;
	/* The raw value of hardware counter `counter` of this CPU (the user
	 * page's index - 1: x86 rdpmc's ecx; on arm64 31 the cycle counter,
	 * else an event counter). NULL where the library has no such
	 * instruction: counters are then always read with read(). */
	uint64_t (*rdpmc)(uint32_t counter);
	/* The counter the user page's time_mult/time_shift convert to
	 * nanoseconds (x86 rdtsc, arm64 CNTVCT_EL0). NULL when absent (read()
	 * is used). */
	uint64_t (*tsc)(void);
	/* The directory where the kernel describes the CPUs, cpuN/cache/indexM
	 * among them (/sys/devices/system/cpu): memhier.c reads it. NULL: none. */
	const char *cpu_dir;
	/* CPUID leaf, subleaf into r[0..3] (eax, ebx, ecx, edx): 0, or -1 when
	 * this CPU has no such leaf (beyond the highest of its range). NULL
	 * where there is no CPUID (not x86). */
	int (*cpuid)(unsigned leaf, unsigned sub, unsigned r[4]);
	/* /proc/sys/kernel/perf_event_paranoid (2 when it cannot be read). */
	int (*paranoid)(void);
	/* 1 when this process holds CAP_PERFMON or CAP_SYS_ADMIN, which lift
	 * the paranoid limits. */
	int (*privileged)(void);
};
extern const struct sys_ops *sys;
extern const struct sys_ops sys_real;
/* Replace the seam (test binaries only; NULL restores the real one). */
void sys_set_ops(const struct sys_ops *ops);

/* Turn a perf_event_open errno into a PAPI error code. */
int pe_errno_to_papi(int err);
/* Write advice for a failed perf_event_open(attr, pid, cpu) of the event
 * called name (NULL: no name) into buf: what failed and what a person can do
 * about it. core_why, when not NULL, says why this machine's core PMU cannot
 * count (the naming layer knows: pmu_core_unavailable_reason) and explains a
 * refused hardware event. */
void pe_advice(int err, const char *name, const struct perf_event_attr *attr, pid_t pid, int cpu,
	       const char *core_why, char *buf, size_t len);
/* What the kernel lets this process count, from perf_event_paranoid and its
 * capabilities: kernel (and hypervisor) domains, whole CPUs. */
int pe_kernel_allowed(void);
int pe_cpu_allowed(void);
/* The domains (PAPI_DOM_*) this process may count. */
int pe_domains_allowed(void);
/* Advice when kernel counting is refused for lack of privilege, into buf. */
void pe_kernel_advice(char *buf, size_t len);
/* The kernel's highest sampling frequency (Hz) for an event opened with
 * freq set, from /proc/sys/kernel/perf_event_max_sample_rate; 0 when it
 * cannot be read. */
unsigned long long pe_max_sample_rate(void);
/* Can this process count at all? PAPI_OK, or an error code with the one
 * sentence that says why (and what to do) in buf. */
int pe_probe(char *buf, size_t len);

/* ------------------------------------------------------------------ kernel PMUs
 * kpmu.c: every PMU the kernel registered, as it describes them in sysfs,
 * one directory each under sys->pmu_dir (Documentation/ABI/testing/
 * sysfs-bus-event_source-devices*):
 *   type         perf_event_attr.type that opens an event on this PMU
 *   cpus         the CPUs a core PMU counts on (ARM, hybrid x86)
 *   cpumask      the CPUs on which to open an uncore PMU's events
 *   format/F     how term F fills the attr: "config:0-7", "config1:0-63"
 *   events/E     a named event as terms: "event=0x3c,umask=0x00";
 *                E.scale and E.unit turn its count into a quantity
 * kpmu_count/kpmu_get/kpmu_find read the list on first use (name, type,
 * core mark, a core PMU's CPUs); each PMU's format, events and cpumask are
 * read when first asked for (kpmu_load, which kpmu_event, kpmu_field and
 * kpmu_encode call). Everything returned stays valid and unchanged until
 * PAPI_shutdown, after which the next call reads sysfs afresh. Thread-safe.
 * Never fails for want of sysfs: a missing directory is an empty list. */
enum { KPMU_CONFIG, KPMU_CONFIG1, KPMU_CONFIG2, KPMU_CONFIG3 };
struct kpmu_field {
	char name[32];		/* the term: "event", "umask", "cmask", "inv" */
	int word;		/* KPMU_CONFIG..KPMU_CONFIG3: which attr word it fills */
	uint64_t mask;		/* its bits in that word, possibly split */
};
struct kpmu_event {
	char *name;		/* file name: "cpu-cycles", "l1d_cache_refill" */
	char *terms;		/* file content: "event=0x3c", "event=0x03" */
	double scale;		/* E.scale, 1.0 without one */
	char *unit;		/* E.unit ("MiB", "Joules"), "" without one */
};
struct kpmu {
	char name[64];		/* directory name: "cpu", "cpu_atom", "armv8_pmuv3_0" */
	int type;		/* perf_event_attr.type */
	int core;		/* 1: a CPU core PMU: named "cpu", type PERF_TYPE_RAW,
				 * or it has a cpus file (the kernel's own marks) */
	char cpus[128];		/* "cpus" (core) or "cpumask" (uncore, after kpmu_load
				 * or kpmu_per_task) as a CPU list ("0-7", "0,36");
				 * "" when neither */
	int mask_read;		/* cpus was looked for (a core PMU's: by the scan) */
	int loaded;		/* format and events read (kpmu_load) */
	int nfields;
	struct kpmu_field *fields;	/* after kpmu_load, in directory order */
	int nevents;
	struct kpmu_event *events;	/* after kpmu_load, sorted by name */
};
/* Number of PMUs the kernel lists (0 without sysfs), the i-th in name order
 * (NULL when i is out of range), the one called name (NULL when none). */
int kpmu_count(void);
const struct kpmu *kpmu_get(int i);
const struct kpmu *kpmu_find(const char *name);
/* Number of core PMUs (two on a hybrid machine, 0 without a hardware PMU
 * driver). */
int kpmu_core_count(void);
/* 1 when p is one of the kernel's software kinds (software, tracepoint,
 * breakpoint, kprobe, uprobe), else 0. */
int kpmu_software(const struct kpmu *p);
/* 1 when p counts per task, as a core PMU does: neither a core PMU nor a
 * software kind, and without a cpumask, so that the kernel opens its events
 * on a task (pid, cpu -1) and they follow it from CPU to CPU (msr: the TSC,
 * APERF, MPERF while the task runs); 0 for an uncore PMU (its cpumask names
 * the CPUs to open it on, CPU-wide), the others, and NULL. Reads p's
 * cpumask, not its format or events. */
int kpmu_per_task(const struct kpmu *p);
/* Read p's format fields, named events and cpumask once. PAPI_OK (also
 * when p has none of them), PAPI_EINVAL (p is not from kpmu_get/kpmu_find),
 * PAPI_ENOMEM (p then stays unloaded). */
int kpmu_load(const struct kpmu *p);
/* p's named event called name (case-insensitive) or format field called
 * name; NULL when p has none (or cannot be loaded). */
const struct kpmu_event *kpmu_event(const struct kpmu *p, const char *name);
const struct kpmu_field *kpmu_field(const struct kpmu *p, const char *name);
/* Encode terms ("event=0x3c,umask=0x01,inv", "cmask=2", a named event of p
 * possibly followed by more terms: "cpu-cycles,cmask=1") into *attr, as
 * perf does: attr's type becomes p->type and its config words are built
 * from nothing; its other fields are kept. A term is a format field with a
 * value (decimal or 0x hex; a bare field means 1), config/config1/config2
 * with a whole value, or one of p's named events. On failure *attr is
 * unchanged and why (may be NULL) says which term is wrong: PAPI_ENOEVNT
 * (p has no such field or event), PAPI_EINVAL (a bad or missing value, a
 * value too wide for its field, NULL arguments), PAPI_ENOMEM. */
int kpmu_encode(const struct kpmu *p, const char *terms, struct perf_event_attr *attr, char *why,
		size_t len);

/* ------------------------------------------------------------------ hardware */
/* Fill the process-wide hardware description once (hwinfo.c). */
const PAPI_hw_info_t *hwinfo_get(void);
/* Nominal clock in MHz for cycle conversions (never 0). */
double hwinfo_mhz(void);
/* armcpu_names (armcpu.c): for ARM implementer impl and part number part
 * (the MIDR fields /proc/cpuinfo shows), the vendor string PAPI 7.0 gives
 * ("ARM_ARM", "ARM_FUJITSU", ..., "ARM_UNKNOWN") into vendor and a model
 * name ("ARM Neoverse N1"; "ARM part 0xd99" for a part not in the table)
 * into model, each cut to its length. */
void armcpu_names(unsigned impl, unsigned part, char *vendor, size_t vlen, char *model, size_t mlen);

/* ------------------------------------------------------------------ memhier
 * memhier.c: the cache and TLB hierarchy of CPU 0, the one source for
 * PAPI_get_hardware_info's mem_hierarchy and `papi mem-info`. */
#define MH_MAX_ENTRIES 64
struct mh_entry {
	int tlb;		/* 1: a TLB, 0: a cache */
	int level;		/* 1, 2, 3 ... */
	int type;		/* PAPI_MH_TYPE_INST, _DATA or _UNIFIED */
	long long size;		/* cache: bytes */
	int line_size;		/* cache: bytes per line */
	int entries;		/* cache: lines; TLB: entries */
	int assoc;		/* ways; SHRT_MAX fully associative; 0 unknown */
	int page_kb;		/* TLB: page size in KB */
	char shared[128];	/* cache: CPUs sharing it (sysfs shared_cpu_list), or "" */
	int cpuid;		/* cache: 1 when CPUID described it (sysfs did not) */
};
/* mh_scan: caches of cpu0 from sysfs (sys->cpu_dir; those it gives a size)
 * or, where sysfs describes none, from CPUID on x86 (leaf 4; AMD:
 * 0x8000001D, else 0x80000005/6), then TLBs from CPUID on x86 (none
 * elsewhere), into e[0..max-1]. Returns how many exist (may exceed max;
 * only max are stored); 0 when nothing is known. Never fails. */
int mh_scan(struct mh_entry *e, int max);
/* mh_sizeless: how many caches of cpu0 sysfs lists without a size (left
 * out of mh_scan and mh_fill). */
int mh_sizeless(void);
/* mh_fill: fill mh (zeroed by the caller) from mh_scan: one cache or tlb
 * slot per entry at its level; levels = the deepest level seen. */
void mh_fill(PAPI_mh_info_t *mh);

/* ------------------------------------------------------------------ cgroup
 * cgroup.c: counting one cgroup's tasks (PERF_FLAG_PID_CGROUP). */
/* pe_cgroup_mount: the directory of the hierarchy perf_event counts in, as
 * perf finds it in /proc/self/mounts (under the os root): a cgroup v1 mount
 * with the perf_event controller, else the cgroup2 mount. 0 with the path
 * in buf; -1 (ENOENT) when there is neither, or errno of reading the table. */
int pe_cgroup_mount(char *buf, size_t len);
/* pe_cgroup_open: a descriptor of cgroup name's directory (a path relative
 * to that hierarchy; leading slashes ignored, "/" its root), for
 * perf_event_open's pid with PERF_FLAG_PID_CGROUP; the caller closes it.
 * Else a PAPI error (negative), with why written: PAPI_EINVAL (empty name,
 * a ".." component, too long, no such cgroup), PAPI_ENOSUPP (no such
 * hierarchy mounted), PAPI_EPERM (its directory is not readable), or
 * PAPI_ESYS. */
int pe_cgroup_open(const char *name, char *why, size_t len);

/* ------------------------------------------------------------------ osfile
 * osfile.c: the /proc and /sys files of the OS components (io, net,
 * stealtime, sysdetect), each path taken under a root: "" (the machine's
 * own) unless a test binary set another with os_set_root; and the readers
 * of the library's other /proc and sysfs files (kpmu, hwinfo, memhier),
 * which take their paths as given. A read that a signal interrupts is
 * read again; a file that is there but cannot be read is noted. */
/* Move the root (tests only: a fake tree; NULL or "" restores the real one).
 * Call it before PAPI_library_init or after PAPI_shutdown. */
void os_set_root(const char *root);
/* 1 while the root is the machine's own tree. */
int os_root_is_real(void);
/* root + path into buf: 0, or -1 (ENAMETOOLONG). */
int os_path(char *buf, size_t len, const char *path);
/* Whether errno err says a file is absent or refused by design (ENOENT,
 * ENODEV, EACCES, ...) rather than there and unreadable (EIO, ENOMEM). */
int os_absent(int err);
/* Note that path could not be read (errno err), unless os_absent(err): every
 * opener and reader below notes its failures so. The library's own readers
 * elsewhere call it where they read otherwise. */
void os_fault_note(const char *path, int err);
/* The first file noted since the process started, into path (len bytes),
 * and how many failures were noted (*n): that one's errno, 0 when none. */
int os_fault(char *path, size_t len, int *n);
/* open(root + path, O_RDONLY | O_CLOEXEC): a descriptor, or -1 with errno. */
int os_open(const char *path);
/* open(root + path, O_RDONLY | O_DIRECTORY | O_CLOEXEC): a descriptor of
 * the directory, or -1 with errno (ENOTDIR when it is something else). */
int os_open_dir(const char *path);
/* openat(dirfd, rel, O_RDONLY | O_CLOEXEC | flags), not under the root: a
 * descriptor, or -1 with errno. */
int os_open_at(int dirfd, const char *rel, int flags);
/* The directory rel under dirfd (AT_FDCWD: rel as given), not under the
 * root, opened for readdir: NULL with errno when it cannot be. */
DIR *os_dir_at(int dirfd, const char *rel);
/* The whole file behind fd from offset 0, at most len - 1 bytes, into buf
 * (NUL-terminated): its length, or -1 with errno. */
ssize_t os_pread(int fd, char *buf, size_t len);
/* The bytes and read calls (successful or not) of every os_pread so far,
 * process-wide: the library's own reads of /proc and /sys. */
void os_own_reads(long long *bytes, long long *calls);
/* os_open + os_pread + close. */
ssize_t os_read(const char *path, char *buf, size_t len);
/* The file rel under directory descriptor dirfd (AT_FDCWD: rel as given;
 * not under the root), its bytes as they are, at most len - 1 of them,
 * into buf (NUL-terminated): its length, or -1 with errno. */
ssize_t os_read_bytes(int dirfd, const char *rel, char *buf, size_t len);
/* The small file rel under directory descriptor dirfd (AT_FDCWD: rel as
 * given; not under the root) into buf, without its trailing white space:
 * its length, or -1 when it cannot be read. Counted as os_pread counts. */
int os_read_at(int dirfd, const char *rel, char *buf, size_t len);
/* The whole of root + path, however long, into a NUL-terminated buffer the
 * caller frees (*out): its length, or -1 with errno (ENOMEM included). */
ssize_t os_read_all(const char *path, char **out);
/* A file a component reads again at every sample (/proc/net/dev,
 * /proc/stat), into one buffer that grows and is kept between reads. */
struct os_text {
	char *buf;		/* the last read, NUL-terminated */
	size_t cap;
};
/* Read root + path into t, growing it until the file fits or whole(buf)
 * says the part the caller wants is in (whole NULL: the whole file):
 * PAPI_OK, PAPI_ENOMEM, or PAPI_ESYS with the reason "who: cannot read
 * path: why". */
int os_text_read(struct os_text *t, const char *who, const char *path,
		 int (*whole)(const char *buf));
/* Free t's buffer (the next read starts afresh). */
void os_text_free(struct os_text *t);

#endif
