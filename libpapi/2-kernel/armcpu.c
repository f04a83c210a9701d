/* armcpu.c: ARM CPUs by their MIDR implementer and part number: the vendor and model names of the hardware description. */
#include <stdio.h>
#include <string.h>

#include "2-kernel/kernel.h"

/* Implementers: the vendor string PAPI 7.0 gives those it knows (ARM_ARM,
 * ...), the same form for the others. */
static const struct {
	unsigned impl;
	const char *vendor;	/* PAPI_hw_info_t.vendor_string */
	const char *name;	/* how its models are named */
} impls[] = {
	{ 0x41, "ARM_ARM", "ARM" },
	{ 0x42, "ARM_BROADCOM", "Broadcom" },
	{ 0x43, "ARM_CAVIUM", "Cavium" },
	{ 0x46, "ARM_FUJITSU", "Fujitsu" },
	{ 0x48, "ARM_HISILICON", "Hisilicon" },
	{ 0x4e, "ARM_NVIDIA", "NVIDIA" },
	{ 0x50, "ARM_APM", "Applied Micro" },
	{ 0x51, "ARM_QUALCOMM", "Qualcomm" },
	{ 0x61, "ARM_APPLE", "Apple" },
	{ 0xc0, "ARM_AMPERE", "Ampere" },
};

/* Parts (the Linux kernel's cputype.h numbers). Where libpfm4 has a table
 * for the core, the model is its description, which PAPI 7.0 reports. */
static const struct {
	unsigned impl, part;
	const char *model;
} parts[] = {
	{ 0x41, 0xd03, "ARM Cortex A53" },
	{ 0x41, 0xd04, "ARM Cortex A35" },
	{ 0x41, 0xd05, "ARM Cortex A55" },
	{ 0x41, 0xd07, "ARM Cortex A57" },
	{ 0x41, 0xd08, "ARM Cortex A72" },
	{ 0x41, 0xd09, "ARM Cortex A73" },
	{ 0x41, 0xd0a, "ARM Cortex A75" },
	{ 0x41, 0xd0b, "ARM Cortex A76" },
	{ 0x41, 0xd0c, "ARM Neoverse N1" },
	{ 0x41, 0xd0d, "ARM Cortex A77" },
	{ 0x41, 0xd40, "Arm Neoverse V1" },
	{ 0x41, 0xd41, "ARM Cortex A78" },
	{ 0x41, 0xd44, "ARM Cortex X1" },
	{ 0x41, 0xd46, "ARM Cortex A510" },
	{ 0x41, 0xd47, "ARM Cortex A710" },
	{ 0x41, 0xd48, "ARM Cortex X2" },
	{ 0x41, 0xd49, "Arm Neoverse N2" },
	{ 0x41, 0xd4d, "ARM Cortex A715" },
	{ 0x41, 0xd4f, "Arm Neoverse V2" },
	{ 0x41, 0xd80, "ARM Cortex A520" },
	{ 0x41, 0xd81, "ARM Cortex A720" },
	{ 0x41, 0xd82, "ARM Cortex X4" },
	{ 0x41, 0xd84, "Arm Neoverse V3" },
	{ 0x41, 0xd8e, "Arm Neoverse N3" },
	{ 0x42, 0x516, "Broadcom Vulcan" },
	{ 0x43, 0x0a1, "Cavium ThunderX" },
	{ 0x43, 0x0af, "Cavium ThunderX2" },
	{ 0x46, 0x001, "Fujitsu A64FX" },
	{ 0x48, 0xd01, "Hisilicon Kunpeng" },
	{ 0x50, 0x000, "Applied Micro X-Gene" },
	{ 0xc0, 0xac3, "Ampere AmpereOne" },
	{ 0xc0, 0xac4, "Ampere AmpereOne A" },
};

/* armcpu_names: contract in kernel.h. */
void armcpu_names(unsigned impl, unsigned part, char *vendor, size_t vlen, char *model, size_t mlen)
{
	const char *v = "ARM_UNKNOWN", *name = NULL;
	for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++)
		if (impls[i].impl == impl) {
			v = impls[i].vendor;
			name = impls[i].name;
		}
	snprintf(vendor, vlen, "%s", v);
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (parts[i].impl == impl && parts[i].part == part) {
			snprintf(model, mlen, "%s", parts[i].model);
			return;
		}
	if (name)
		snprintf(model, mlen, "%s part 0x%03x", name, part);
	else
		snprintf(model, mlen, "implementer 0x%02x part 0x%03x", impl, part);
}
