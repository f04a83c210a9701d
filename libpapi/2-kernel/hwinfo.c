/* hwinfo.c: the hardware description (vendor, model, topology, clock, virtualization). */
#include <dirent.h>
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

static int read_int(const char *path, int dflt)
{
	FILE *f = fopen(path, "re");
	int v = dflt;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = dflt;
		fclose(f);
	}
	return v;
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

static void parse_cpuinfo(double *mhz, int *hypervisor)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return;
	char line[1024], tmp[64];
	int seen_proc = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "processor", 9) && ++seen_proc > 1)
			break;	/* the first CPU describes them all */
		if (!strncmp(line, "vendor_id", 9) || !strncmp(line, "CPU implementer", 15))
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
			*mhz = strtod(tmp, NULL);
		} else if (!strncmp(line, "flags", 5)) {
			*hypervisor = strstr(line, " hypervisor") != NULL;
		}
	}
	fclose(f);
}

static int count_dirs(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
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
			FILE *f = fopen(path, "re");
			int first = c;
			if (f) {
				if (fscanf(f, "%d", &first) != 1)
					first = c;
				fclose(f);
			}
			if (first == c)
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
	double mhz = 0;
	int hyp = 0;
	parse_cpuinfo(&mhz, &hyp);
	if (strstr(hw.vendor_string, "Intel"))
		hw.vendor = PAPI_VENDOR_INTEL;
	else if (strstr(hw.vendor_string, "AMD"))
		hw.vendor = PAPI_VENDOR_AMD;
	else if (!strncmp(hw.vendor_string, "0x41", 4))
		hw.vendor = PAPI_VENDOR_ARM_ARM;
	else if (!strncmp(hw.vendor_string, "0x46", 4))
		hw.vendor = PAPI_VENDOR_ARM_FUJITSU;
	hw.model = hw.cpuid_model;
	hw.revision = (float)hw.cpuid_stepping;
	int maxk = read_int("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", 0);
	int mink = read_int("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq", 0);
	hw.cpu_max_mhz = maxk > 0 ? maxk / 1000 : (int)mhz;
	hw.cpu_min_mhz = mink > 0 ? mink / 1000 : (int)mhz;
	hw.mhz = (float)(mhz > 0 ? mhz : hw.cpu_max_mhz);
	hw.clock_mhz = (int)hw.mhz;
	topology();
	hw.virtualized = hyp;
	if (hyp)
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
