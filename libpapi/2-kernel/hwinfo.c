/* hwinfo.c: the hardware description (vendor, model, topology, clock, virtualization). */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "2-kernel/kernel.h"

static PAPI_hw_info_t hw;
static pthread_once_t hw_once = PTHREAD_ONCE_INIT;

/* The number that the sysfs file path starts with; dflt when there is
 * none (a failure to read it is noted by osfile.c). */
static int read_int(const char *path, int dflt)
{
	char buf[64], *end;
	if (os_read_at(AT_FDCWD, path, buf, sizeof buf) <= 0)
		return dflt;
	long v = strtol(buf, &end, 10);
	return end != buf && v >= INT_MIN && v <= INT_MAX ? (int)v : dflt;
}

static void copy_field(char *dst, size_t len, const char *line)
{
	const char *v = strchr(line, ':');
	if (!v)
		return;
	v++;
	while (*v == ' ' || *v == '\t')
		v++;
	snprintf(dst, len, "%s", v);
	dst[strcspn(dst, "\n")] = 0;
}

/* What /proc/cpuinfo says about the first CPU beyond the fields copied into
 * hw directly: x86's current MHz and hypervisor flag; arm64's MIDR fields
 * (implementer, architecture, variant, part, revision; -1 when absent) and
 * BogoMIPS. */
struct cpuinfo {
	double mhz, bogomips;
	int hypervisor;
	int impl, arch, variant, part, rev;
};

/* The start of /proc/cpuinfo read: the first CPU's lines, even with the
 * flags of a large x86 CPU (about 1.5 KB). */
#define CPUINFO_HEAD 16384

static void parse_cpuinfo(struct cpuinfo *ci)
{
	*ci = (struct cpuinfo){ .impl = -1, .arch = -1, .variant = -1, .part = -1, .rev = -1 };
	/* Read whole with os_pread, which reads on after a signal interrupts
	 * it (stdio's fgets gives up there, losing the line it was in) and
	 * notes a file it cannot read. */
	char *text = malloc(CPUINFO_HEAD);
	ssize_t len = text ? os_read_bytes(AT_FDCWD, "/proc/cpuinfo", text, CPUINFO_HEAD) : -1;
	if (len < 0) {
		free(text);
		return;
	}
	char tmp[64];
	int seen_proc = 0;
	static const struct {
		const char *key;
		size_t off;
	} midr[] = {
		{ "CPU implementer", offsetof(struct cpuinfo, impl) },
		{ "CPU architecture", offsetof(struct cpuinfo, arch) },
		{ "CPU variant", offsetof(struct cpuinfo, variant) },
		{ "CPU part", offsetof(struct cpuinfo, part) },
		{ "CPU revision", offsetof(struct cpuinfo, rev) },
	};
	for (char *line = text, *end; *line; line = end) {
		end = line + strcspn(line, "\n");
		if (*end)
			*end++ = '\0';
		if (!strncmp(line, "processor", 9) && ++seen_proc > 1)
			break;	/* the first CPU describes them all */
		for (size_t i = 0; i < sizeof midr / sizeof midr[0]; i++)
			if (!strncmp(line, midr[i].key, strlen(midr[i].key))) {
				copy_field(tmp, sizeof tmp, line);
				/* 0x-prefixed hex, or decimal (architecture, revision) */
				*(int *)((char *)ci + midr[i].off) = (int)strtol(tmp, NULL, 0);
			}
		if (!strncmp(line, "vendor_id", 9))
			copy_field(hw.vendor_string, sizeof hw.vendor_string, line);
		else if (!strncmp(line, "model name", 10))
			copy_field(hw.model_string, sizeof hw.model_string, line);
		else if (!strncmp(line, "cpu family", 10)) {
			copy_field(tmp, sizeof tmp, line);
			hw.cpuid_family = atoi(tmp);
		} else if (!strncmp(line, "model\t", 6) || !strncmp(line, "model :", 7)) {
			copy_field(tmp, sizeof tmp, line);
			hw.cpuid_model = atoi(tmp);
		} else if (!strncmp(line, "stepping", 8)) {
			copy_field(tmp, sizeof tmp, line);
			hw.cpuid_stepping = atoi(tmp);
		} else if (!strncmp(line, "cpu MHz", 7)) {
			copy_field(tmp, sizeof tmp, line);
			ci->mhz = strtod(tmp, NULL);
		} else if (!strncmp(line, "BogoMIPS", 8)) {
			copy_field(tmp, sizeof tmp, line);
			ci->bogomips = strtod(tmp, NULL);
		} else if (!strncmp(line, "flags", 5)) {
			ci->hypervisor = strstr(line, " hypervisor") != NULL;
		}
	}
	free(text);
}

/* arm64: the MIDR fields as PAPI 7.0 reports them: family the architecture
 * (8), model the part number, stepping the variant; revision and the old
 * model field the revision. Vendor code the implementer, names from the
 * table of armcpu.c. */
static void arm_ids(const struct cpuinfo *ci)
{
	if (ci->impl < 0)
		return;
	hw.vendor = ci->impl;
	hw.cpuid_family = ci->arch > 0 ? ci->arch : 8;
	hw.cpuid_model = ci->part > 0 ? ci->part : 0;
	hw.cpuid_stepping = ci->variant > 0 ? ci->variant : 0;
	hw.model = ci->rev > 0 ? ci->rev : 0;
	hw.revision = (float)hw.model;
	char model[sizeof hw.model_string];
	armcpu_names((unsigned)ci->impl, (unsigned)hw.cpuid_model, hw.vendor_string, sizeof hw.vendor_string,
		     model, sizeof model);
	if (!hw.model_string[0])
		snprintf(hw.model_string, sizeof hw.model_string, "%s", model);
}

/* The device tree's clock-frequency of cpu@0 (big-endian, 32 or 64 bits)
 * in MHz, 0 when absent. */
static int dt_mhz(void)
{
	unsigned char b[9];
	ssize_t n = os_read_bytes(AT_FDCWD, "/proc/device-tree/cpus/cpu@0/clock-frequency",
				  (char *)b, sizeof b);
	if (n != 4 && n != 8)
		return 0;
	unsigned long long hz = 0;
	for (size_t i = 0; i < (size_t)n; i++)
		hz = hz << 8 | b[i];
	return (int)(hz / 1000000);
}

/* The clock when cpufreq gives none and cpuinfo has no "cpu MHz" (arm64):
 * ACPI CPPC's nominal frequency, the device tree's, else PAPI 7.0's
 * estimate, BogoMIPS / CPUs (on arm64 the BogoMIPS measure the timer, not
 * the CPU; QEMU's virt machine gives nothing better), at least 1 so that
 * programs deriving thresholds from it never get 0. 0 when nothing says. */
static void fallback_mhz(const struct cpuinfo *ci, int *max, int *min)
{
	int nom = read_int("/sys/devices/system/cpu/cpu0/acpi_cppc/nominal_freq", 0);
	if (nom > 0) {
		int low = read_int("/sys/devices/system/cpu/cpu0/acpi_cppc/lowest_freq", 0);
		*max = nom;
		*min = low > 0 && low <= nom ? low : nom;
		return;
	}
	int dt = dt_mhz();
	if (dt <= 0 && ci->bogomips > 0) {
		dt = (int)(ci->bogomips / (hw.totalcpus > 0 ? hw.totalcpus : 1));
		if (dt < 1)
			dt = 1;
	}
	*max = *min = dt;
}

static int count_dirs(const char *dir, const char *prefix)
{
	DIR *d = os_dir_at(AT_FDCWD, dir);
	if (!d)
		return 0;
	int n = 0;
	size_t pl = strlen(prefix);
	struct dirent *e;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, pl) && e->d_name[pl] >= '0' && e->d_name[pl] <= '9')
			n++;
	closedir(d);
	return n;
}

static void topology(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	hw.totalcpus = n > 0 ? (int)n : 1;
	int pkgs[256], npkg = 0, cores0 = 0, thr0 = 0;
	char path[128];
	for (int c = 0; c < hw.totalcpus && c < 4096; c++) {
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		int p = read_int(path, 0), k;
		for (k = 0; k < npkg; k++)
			if (pkgs[k] == p)
				break;
		if (k == npkg && npkg < 256)
			pkgs[npkg++] = p;
		if (p == pkgs[0]) {
			snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
			/* count a core once: at its first sibling */
			if (read_int(path, c) == c)
				cores0++;
			thr0++;
		}
	}
	hw.sockets = npkg > 0 ? npkg : 1;
	hw.cores = cores0 > 0 ? cores0 : 1;
	hw.threads = cores0 > 0 ? thr0 / cores0 : 1;
	hw.nnodes = count_dirs("/sys/devices/system/node", "node");
	if (hw.nnodes < 1)
		hw.nnodes = 1;
	hw.ncpu = hw.totalcpus / hw.nnodes;
}

static void vm_vendor(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	__cpuid(0x40000000, a, b, c, d);
	char s[13];
	memcpy(s, &b, 4);
	memcpy(s + 4, &c, 4);
	memcpy(s + 8, &d, 4);
	s[12] = 0;
	for (int i = 0; i < 12; i++)
		if (s[i] && (s[i] < 32 || s[i] > 126))
			s[i] = '?';
	snprintf(hw.virtual_vendor_string, sizeof hw.virtual_vendor_string, "%s", s);
#endif
}

static void fill(void)
{
	struct cpuinfo ci;
	parse_cpuinfo(&ci);
	topology();
	if (strstr(hw.vendor_string, "Intel"))
		hw.vendor = PAPI_VENDOR_INTEL;
	else if (strstr(hw.vendor_string, "AMD"))
		hw.vendor = PAPI_VENDOR_AMD;
	hw.model = hw.cpuid_model;
	hw.revision = (float)hw.cpuid_stepping;
	arm_ids(&ci);
	int maxk = read_int("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", 0);
	int mink = read_int("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq", 0);
	int fmax = (int)ci.mhz, fmin = (int)ci.mhz;
	if (maxk <= 0 && ci.mhz <= 0)
		fallback_mhz(&ci, &fmax, &fmin);
	hw.cpu_max_mhz = maxk > 0 ? maxk / 1000 : fmax;
	hw.cpu_min_mhz = mink > 0 ? mink / 1000 : fmin;
	hw.mhz = (float)(ci.mhz > 0 ? ci.mhz : hw.cpu_max_mhz);
	hw.clock_mhz = (int)hw.mhz;
	hw.virtualized = ci.hypervisor;
	if (ci.hypervisor)
		vm_vendor();
	mh_fill(&hw.mem_hierarchy);
}

const PAPI_hw_info_t *hwinfo_get(void)
{
	pthread_once(&hw_once, fill);
	return &hw;
}

double hwinfo_mhz(void)
{
	const PAPI_hw_info_t *h = hwinfo_get();
	return h->mhz > 0 ? h->mhz : 1000.0;
}

/* PAPI_get_hardware_info: the machine's description, or NULL before
 * PAPI_library_init. Filled once; the pointer stays valid. */
const PAPI_hw_info_t *PAPI_get_hardware_info(void)
{
	if (!lib_ready())
		return NULL;
	return hwinfo_get();
}
