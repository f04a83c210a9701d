/* t_hwinfo.c: PAPI_get_hardware_info's vendor, model, family/model/stepping and clock, as PAPI 7.0 reports them from /proc/cpuinfo and sysfs.
 *
 * The expectations are worked out here from the same files, independently:
 * on x86 the cpuinfo fields themselves; on arm64 (make check-pmu's guest)
 * the MIDR fields, named: family the architecture, model the part number,
 * stepping the variant, revision and the old model field the revision,
 * vendor code the implementer. The clock comes from cpufreq where it is,
 * else cpuinfo's "cpu MHz", else (ARM without cpufreq, as on QEMU) ACPI
 * CPPC, the device tree, or PAPI 7.0's BogoMIPS / CPUs; never 0, so the
 * programs that derive an overflow threshold from it get a valid one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"

/* The value after "key" and ':' on the first CPU's lines of cpuinfo. */
static int cpuinfo(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	int found = 0, procs = 0;
	while (f && !found && fgets(line, sizeof line, f)) {
		if (!strncmp(line, "processor", 9) && ++procs > 1)
			break;
		char *c = strchr(line, ':');
		if (strncmp(line, key, strlen(key)) || !c)
			continue;
		c++;
		c += strspn(c, " \t");
		snprintf(buf, len, "%s", c);
		buf[strcspn(buf, "\n")] = 0;
		found = 1;
	}
	if (f)
		fclose(f);
	return found;
}

static long file_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void x86(const PAPI_hw_info_t *hw)
{
	char v[256];
	cpuinfo("vendor_id", v, sizeof v);
	is_str(hw->vendor_string, v, "vendor string: cpuinfo's vendor_id");
	if (!strcmp(v, "GenuineIntel") || !strcmp(v, "AuthenticAMD"))
		is_int(hw->vendor, !strcmp(v, "GenuineIntel") ? PAPI_VENDOR_INTEL : PAPI_VENDOR_AMD,
		       "vendor code");
	else
		skip("the vendor code is checked for Intel and AMD only", "vendor code");
	if (cpuinfo("model name", v, sizeof v))
		is_str(hw->model_string, v, "model string: cpuinfo's model name");
	cpuinfo("cpu family", v, sizeof v);
	is_int(hw->cpuid_family, atoi(v), "family");
	cpuinfo("model\t", v, sizeof v);
	is_int(hw->cpuid_model, atoi(v), "model");
	cpuinfo("stepping", v, sizeof v);
	is_int(hw->cpuid_stepping, atoi(v), "stepping");
}

static void arm(const PAPI_hw_info_t *hw)
{
	char v[256];
	long impl = -1, arch = -1, var = -1, part = -1, rev = -1;
	if (cpuinfo("CPU implementer", v, sizeof v))
		impl = strtol(v, NULL, 0);
	if (cpuinfo("CPU architecture", v, sizeof v))
		arch = strtol(v, NULL, 0);
	if (cpuinfo("CPU variant", v, sizeof v))
		var = strtol(v, NULL, 0);
	if (cpuinfo("CPU part", v, sizeof v))
		part = strtol(v, NULL, 0);
	if (cpuinfo("CPU revision", v, sizeof v))
		rev = strtol(v, NULL, 0);
	diag("MIDR: implementer 0x%lx architecture %ld variant 0x%lx part 0x%lx revision %ld", impl, arch,
	     var, part, rev);
	is_int(hw->vendor, impl, "vendor code: the implementer");
	is_int(hw->cpuid_family, arch, "family: the architecture");
	is_int(hw->cpuid_model, part, "model: the part number");
	is_int(hw->cpuid_stepping, var, "stepping: the variant");
	is_int(hw->model, rev, "the old model field: the revision");
	ok(hw->revision == (float)rev, "revision: the revision (%g)", hw->revision);
	/* A few parts by name; PAPI 7.0 takes these from libpfm4. */
	static const struct {
		long impl, part;
		const char *vendor, *model;
	} known[] = {
		{ 0x41, 0xd0c, "ARM_ARM", "ARM Neoverse N1" },
		{ 0x41, 0xd49, "ARM_ARM", "Arm Neoverse N2" },
		{ 0x41, 0xd40, "ARM_ARM", "Arm Neoverse V1" },
		{ 0x41, 0xd07, "ARM_ARM", "ARM Cortex A57" },
		{ 0x46, 0x001, "ARM_FUJITSU", "Fujitsu A64FX" },
	};
	int named = 0;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (known[i].impl == impl && known[i].part == part) {
			is_str(hw->vendor_string, known[i].vendor, "vendor string");
			is_str(hw->model_string, known[i].model, "model string");
			named = 1;
		}
	if (!named) {
		ok(!strncmp(hw->vendor_string, "ARM_", 4), "vendor string of an ARM (%s)", hw->vendor_string);
		ok(hw->model_string[0] != 0, "a model string (%s)", hw->model_string);
	}
}

/* The clock PAPI 7.0 would give, or -1 when only "> 0" can be said. */
static long want_mhz(const PAPI_hw_info_t *hw)
{
	char v[256];
	long k = file_long("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
	if (k > 0)
		return k / 1000;
	if (cpuinfo("cpu MHz", v, sizeof v))
		return (long)strtod(v, NULL);
	if (access("/sys/devices/system/cpu/cpu0/acpi_cppc/nominal_freq", F_OK) == 0 ||
	    access("/proc/device-tree/cpus/cpu@0/clock-frequency", F_OK) == 0)
		return -1;
	if (cpuinfo("BogoMIPS", v, sizeof v)) {
		long m = (long)(strtod(v, NULL) / hw->totalcpus);
		return m > 0 ? m : 1;
	}
	return -1;
}

int main(void)
{
	char v[256];
	if (!ok(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init"))
		return tap_done();
	const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
	if (!ok(hw != NULL, "PAPI_get_hardware_info"))
		return tap_done();
	diag("vendor %s (%d), model %s (%d), family/model/stepping %d/%d/%d, %d MHz", hw->vendor_string,
	     hw->vendor, hw->model_string, hw->model, hw->cpuid_family, hw->cpuid_model,
	     hw->cpuid_stepping, hw->cpu_max_mhz);
	if (cpuinfo("vendor_id", v, sizeof v))
		x86(hw);
	else if (cpuinfo("CPU implementer", v, sizeof v))
		arm(hw);
	else
		skip("cpuinfo has neither vendor_id nor CPU implementer", "vendor and model");

	long mhz = want_mhz(hw);
	ok(hw->cpu_max_mhz > 0 && hw->cpu_min_mhz > 0 && hw->cpu_min_mhz <= hw->cpu_max_mhz,
	   "a clock: %d MHz max, %d min", hw->cpu_max_mhz, hw->cpu_min_mhz);
	if (mhz > 0)
		is_int(hw->cpu_max_mhz, mhz, "the clock from the source PAPI 7.0 reads");
	ok(hw->mhz > 0, "the deprecated mhz field is filled too (%g)", hw->mhz);
	PAPI_shutdown();
	return tap_done();
}
