/* t_memhier_cpuid.c: caches from CPUID where sysfs describes none (Intel leaf 4, AMD 0x8000001D and 0x80000005/6), AMD's 4M-page TLBs, on CPUs played through the seam and on this machine. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fake_sysfs.h"
#include "internal.h"
#include "tap.h"

/* One CPUID answer: leaf, subleaf, eax, ebx, ecx, edx. */
struct leaf {
	unsigned leaf, sub, r[4];
};

static const struct leaf *cpu;	/* the CPU the fake CPUID plays; ends with leaf ~0 */

#define VENDOR(b, c, d) { b, c, d }	/* ebx, edx, ecx as CPUID gives them */
/* "GenuineIntel" and "AuthenticAMD" in ebx, edx, ecx. */
#define INTEL 0x756e6547u, 0x6c65746eu, 0x49656e69u
#define AMD 0x68747541u, 0x444d4163u, 0x69746e65u

/* An Intel Core i7-8700 (Coffee Lake): leaf 4 lists L1d and L1i 32K 8-way,
 * L2 256K 4-way, L3 12M 16-way, 64-byte lines. */
static const struct leaf intel_8700[] = {
	{ 0, 0, { 0x16, INTEL } },
	{ 4, 0, { 0x1c004121, 0x01c0003f, 0x0000003f, 0 } },
	{ 4, 1, { 0x1c004122, 0x01c0003f, 0x0000003f, 0 } },
	{ 4, 2, { 0x1c004143, 0x00c0003f, 0x000003ff, 0 } },
	{ 4, 3, { 0x1c03c163, 0x03c0003f, 0x00002fff, 6 } },
	{ 4, 4, { 0, 0, 0, 0 } },
	{ ~0u, 0, { 0 } },
};

/* An AMD Zen 2 with the topology extensions (0x80000001 ECX bit 22): L1d
 * and L1i 32K 8-way, L2 512K 8-way, L3 16M 16-way in 0x8000001D; its TLBs
 * in 0x80000005/6 (2M/4M pages in EAX, 4K in EBX). */
static const struct leaf amd_zen2[] = {
	{ 0, 0, { 0x10, AMD } },
	{ 0x80000000, 0, { 0x8000001f, AMD } },
	{ 0x80000001, 0, { 0, 0, 1u << 22, 0 } },
	{ 0x80000005, 0, { 0xff40ff48, 0xff40ff40, 0x20080140, 0x20080140 } },
	{ 0x80000006, 0, { 0x48002200, 0x68004200, 0x02006140, 0x00808140 } },
	{ 0x8000001d, 0, { 0x00004121, 0x01c0003f, 0x0000003f, 0 } },
	{ 0x8000001d, 1, { 0x00004122, 0x01c0003f, 0x0000003f, 0 } },
	{ 0x8000001d, 2, { 0x00004143, 0x01c0003f, 0x000003ff, 2 } },
	{ 0x8000001d, 3, { 0x0001c163, 0x03c0003f, 0x00003fff, 1 } },
	{ 0x8000001d, 4, { 0, 0, 0, 0 } },
	{ ~0u, 0, { 0 } },
};

/* An AMD K10 without them: L1d and L1i 64K 2-way in 0x80000005, L2 512K
 * (way code 6: 8-way) and L3 6M (code 0xb: 48-way) in 0x80000006. */
static const struct leaf amd_k10[] = {
	{ 0, 0, { 0x5, AMD } },
	{ 0x80000001, 0, { 0, 0, 0, 0 } },
	{ 0x80000005, 0, { 0, 0, 0x40020140, 0x40020140 } },
	{ 0x80000006, 0, { 0, 0, 0x02006140, 0x0030b140 } },
	{ ~0u, 0, { 0 } },
};

static int fake_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	for (const struct leaf *l = cpu; l->leaf != ~0u; l++)
		if (l->leaf == leaf && l->sub == sub) {
			memcpy(r, l->r, sizeof l->r);
			return 0;
		}
	return -1;
}

static struct sys_ops fake;
static char empty[PATH_MAX], with_cache[PATH_MAX];
static struct mh_entry e[MH_MAX_ENTRIES];

/* mh_scan on cpu c (NULL: no CPUID) with the CPU directory dir. */
static int scan(const struct leaf *c, const char *dir)
{
	fake = sys_real;
	fake.cpu_dir = dir;
	fake.cpuid = c ? fake_cpuid : NULL;
	cpu = c;
	sys_set_ops(&fake);
	int n = mh_scan(e, MH_MAX_ENTRIES);
	sys_set_ops(NULL);
	return n;
}

/* The cache at level l of type t among e[0..n-1], or NULL. */
static const struct mh_entry *cache(int n, int l, int t)
{
	for (int i = 0; i < n && i < MH_MAX_ENTRIES; i++)
		if (!e[i].tlb && e[i].level == l && e[i].type == t)
			return &e[i];
	return NULL;
}

static const struct mh_entry *tlb(int n, int l, int t, int page_kb)
{
	for (int i = 0; i < n && i < MH_MAX_ENTRIES; i++)
		if (e[i].tlb && e[i].level == l && e[i].type == t && e[i].page_kb == page_kb)
			return &e[i];
	return NULL;
}

static const struct want {
	int line;
	const struct leaf *cpu;
	const char *name;
	int level, type;
	long long size;
	int line_size, assoc;
} wants[] = {
	{ __LINE__, intel_8700, "i7-8700", 1, PAPI_MH_TYPE_DATA, 32 << 10, 64, 8 },
	{ __LINE__, intel_8700, "i7-8700", 1, PAPI_MH_TYPE_INST, 32 << 10, 64, 8 },
	{ __LINE__, intel_8700, "i7-8700", 2, PAPI_MH_TYPE_UNIFIED, 256 << 10, 64, 4 },
	{ __LINE__, intel_8700, "i7-8700", 3, PAPI_MH_TYPE_UNIFIED, 12 << 20, 64, 16 },
	{ __LINE__, amd_zen2, "Zen 2", 1, PAPI_MH_TYPE_DATA, 32 << 10, 64, 8 },
	{ __LINE__, amd_zen2, "Zen 2", 1, PAPI_MH_TYPE_INST, 32 << 10, 64, 8 },
	{ __LINE__, amd_zen2, "Zen 2", 2, PAPI_MH_TYPE_UNIFIED, 512 << 10, 64, 8 },
	{ __LINE__, amd_zen2, "Zen 2", 3, PAPI_MH_TYPE_UNIFIED, 16 << 20, 64, 16 },
	{ __LINE__, amd_k10, "K10", 1, PAPI_MH_TYPE_DATA, 64 << 10, 64, 2 },
	{ __LINE__, amd_k10, "K10", 1, PAPI_MH_TYPE_INST, 64 << 10, 64, 2 },
	{ __LINE__, amd_k10, "K10", 2, PAPI_MH_TYPE_UNIFIED, 512 << 10, 64, 8 },
	{ __LINE__, amd_k10, "K10", 3, PAPI_MH_TYPE_UNIFIED, 6 << 20, 64, 48 },
};

static void played_cpus(void)
{
	for (size_t i = 0; i < sizeof wants / sizeof *wants; i++) {
		const struct want *w = &wants[i];
		int n = scan(w->cpu, empty);
		const struct mh_entry *c = cache(n, w->level, w->type);
		ok(c != NULL, "line %d: %s: L%d type %d from CPUID", w->line, w->name, w->level, w->type);
		if (!c)
			continue;
		is_int(c->size, w->size, "line %d: %s: L%d size", w->line, w->name, w->level);
		is_int(c->line_size, w->line_size, "line %d: %s: L%d line", w->line, w->name, w->level);
		is_int(c->assoc, w->assoc, "line %d: %s: L%d ways", w->line, w->name, w->level);
		is_int(c->entries, w->size / w->line_size, "line %d: %s: L%d lines", w->line, w->name,
		       w->level);
		ok(c->cpuid, "line %d: %s: marked as from CPUID", w->line, w->name);
	}
	is_int(scan(amd_k10, empty), 4, "K10: four caches (its table has no TLB bits)");
	is_int(scan(NULL, empty), 0, "no sysfs caches and no CPUID: nothing");
}

static void sysfs_first(void)
{
	/* sysfs describes one cache: CPUID's are not asked for. */
	int n = scan(intel_8700, with_cache);
	const struct mh_entry *c = cache(n, 2, PAPI_MH_TYPE_UNIFIED);
	ok(c && c->size == 2 << 20 && !c->cpuid, "sysfs's L2 of 2M, not CPUID's");
	ok(!cache(n, 1, PAPI_MH_TYPE_DATA), "no CPUID cache beside sysfs's");
}

static void amd_tlbs(void)
{
	int n = scan(amd_zen2, empty);
	/* 0x80000005 EAX 0xff40ff48: L1 2M/4M: data 64 full, instruction 72 full. */
	const struct mh_entry *t = tlb(n, 1, PAPI_MH_TYPE_INST, 2048);
	ok(t && t->entries == 72, "L1 ITLB, 2M pages: 72 entries");
	t = tlb(n, 1, PAPI_MH_TYPE_INST, 4096);
	ok(t && t->entries == 36 && t->assoc == SHRT_MAX, "L1 ITLB, 4M pages: half, 36, fully associative");
	t = tlb(n, 1, PAPI_MH_TYPE_DATA, 4096);
	ok(t && t->entries == 32, "L1 DTLB, 4M pages: 32");
	/* 0x80000006 EAX 0x48002200: L2 2M: data 0x800 = 2048 (code 4: 4-way), instruction 512 */
	t = tlb(n, 2, PAPI_MH_TYPE_DATA, 4096);
	ok(t && t->entries == 1024 && t->assoc == 4, "L2 DTLB, 4M pages: 1024, 4-way");
	t = tlb(n, 1, PAPI_MH_TYPE_DATA, 4);
	ok(t && t->entries == 64, "L1 DTLB, 4K pages: 64 (EBX)");
	ok(!tlb(n, 1, PAPI_MH_TYPE_DATA, 1048576), "no 1G TLB without leaf 0x80000019");
}

/* On this machine, where both answer: CPUID's caches are sysfs's. */
static void this_machine(void)
{
	struct mh_entry s[MH_MAX_ENTRIES];
	if (!sys_real.cpuid) {
		skip("no CPUID on this architecture", "CPUID caches equal sysfs's");
		return;
	}
	int ns = mh_scan(s, MH_MAX_ENTRIES), caches = 0;
	for (int i = 0; i < ns && i < MH_MAX_ENTRIES; i++)
		caches += !s[i].tlb;
	if (!caches || s[0].cpuid) {
		skip("sysfs describes no caches here", "CPUID caches equal sysfs's");
		return;
	}
	fake = sys_real;
	fake.cpu_dir = empty;
	sys_set_ops(&fake);
	int n = mh_scan(e, MH_MAX_ENTRIES);
	sys_set_ops(NULL);
	for (int i = 0; i < ns && i < MH_MAX_ENTRIES; i++) {
		if (s[i].tlb)
			continue;
		const struct mh_entry *c = cache(n, s[i].level, s[i].type);
		ok(c && c->size == s[i].size && c->line_size == s[i].line_size &&
			   c->assoc == s[i].assoc,
		   "L%d type %d: CPUID says %lld bytes, %d-byte lines, %d ways; sysfs %lld, %d, %d",
		   s[i].level, s[i].type, c ? c->size : 0, c ? c->line_size : 0, c ? c->assoc : 0,
		   s[i].size, s[i].line_size, s[i].assoc);
	}
}

int main(void)
{
	if (fs_make(empty) < 0 || fs_make(with_cache) < 0 ||
	    fs_write(with_cache, "cpu0/cache/index0/level", "2") < 0 ||
	    fs_write(with_cache, "cpu0/cache/index0/type", "Unified") < 0 ||
	    fs_write(with_cache, "cpu0/cache/index0/size", "2048K") < 0 ||
	    fs_write(with_cache, "cpu0/cache/index0/coherency_line_size", "64") < 0) {
		ok(0, "fake sysfs: %s", strerror(errno));
		return tap_done();
	}
	played_cpus();
	sysfs_first();
	amd_tlbs();
	this_machine();
	fs_remove(empty);
	fs_remove(with_cache);
	return tap_done();
}
