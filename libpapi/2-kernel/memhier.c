/* memhier.c: the cache (sysfs) and TLB (CPUID) hierarchy of CPU 0: the one source for mem_hierarchy and papi mem-info. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "2-kernel/kernel.h"

/* Associativity of a fully associative cache or TLB, as PAPI reports it. */
#define MH_FULL SHRT_MAX

static int sysfs_text(const char *dir, const char *file, char *buf, size_t len)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* "32K" -> 32768; "1M" -> 1048576. */
static long long parse_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (*end == 'K')
		v *= 1024;
	else if (*end == 'M')
		v *= 1024 * 1024;
	else if (*end == 'G')
		v *= 1024LL * 1024 * 1024;
	return v > 0 ? v : 0;
}

static int mh_add(struct mh_entry *e, int n, int max, const struct mh_entry *x)
{
	if (n < max)
		e[n] = *x;
	return n + 1;
}

/* Caches of cpu0 from sysfs, one entry per cacheN/index directory. */
static int mh_caches(struct mh_entry *e, int n, int max)
{
	char dir[128], buf[128];
	for (int i = 0; i < 32; i++) {
		struct mh_entry x = { .tlb = 0 };
		snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		if (sysfs_text(dir, "level", buf, sizeof buf) != 0)
			break;
		x.level = atoi(buf);
		if (x.level < 1)
			continue;
		x.type = PAPI_MH_TYPE_UNIFIED;
		if (sysfs_text(dir, "type", buf, sizeof buf) == 0) {
			if (!strcmp(buf, "Data"))
				x.type = PAPI_MH_TYPE_DATA;
			else if (!strcmp(buf, "Instruction"))
				x.type = PAPI_MH_TYPE_INST;
		}
		if (sysfs_text(dir, "size", buf, sizeof buf) == 0)
			x.size = parse_size(buf);
		if (sysfs_text(dir, "coherency_line_size", buf, sizeof buf) == 0)
			x.line_size = atoi(buf);
		if (sysfs_text(dir, "ways_of_associativity", buf, sizeof buf) == 0)
			x.assoc = atoi(buf);
		/* sysfs says 0 ways for a fully associative cache on some kernels */
		if (sysfs_text(dir, "number_of_sets", buf, sizeof buf) == 0 && atoi(buf) == 1)
			x.assoc = MH_FULL;
		if (x.line_size > 0)
			x.entries = (int)(x.size / x.line_size);
		if (sysfs_text(dir, "shared_cpu_list", buf, sizeof buf) == 0)
			snprintf(x.shared, sizeof x.shared, "%s", buf);
		n = mh_add(e, n, max, &x);
	}
	return n;
}

#if defined(__x86_64__) || defined(__i386__)
static int mh_tlb(struct mh_entry *e, int n, int max, int level, int type, int page_kb, int entries,
		  int assoc)
{
	if (entries <= 0)
		return n;
	struct mh_entry x = { .tlb = 1, .level = level, .type = type, .page_kb = page_kb,
			      .entries = entries, .assoc = assoc };
	return mh_add(e, n, max, &x);
}

/* AMD's 4-bit L2 associativity code (CPUID 0x80000006). */
static int amd_l2_assoc(unsigned v)
{
	static const int ways[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, MH_FULL };
	return ways[v & 0xf];
}

/* AMD: L1 TLBs in 0x80000005 (and 1G pages in 0x80000019 EAX), L2 in
 * 0x80000006 (1G: 0x80000019 EBX); EAX 2M pages, EBX 4K pages. */
static int mh_tlb_amd(struct mh_entry *e, int n, int max)
{
	unsigned a, b, c, d, top = __get_cpuid_max(0x80000000, NULL);
	static const int page_kb[3] = { 4, 2048, 1048576 };
	for (int p = 0; p < 3; p++) {
		unsigned l1, l2;
		if (p < 2) {
			if (top < 0x80000005 || !__get_cpuid(0x80000005, &a, &b, &c, &d))
				return n;
			l1 = p == 0 ? b : a;
			l2 = 0;
			if (top >= 0x80000006 && __get_cpuid(0x80000006, &a, &b, &c, &d))
				l2 = p == 0 ? b : a;
		} else {
			if (top < 0x80000019 || !__get_cpuid(0x80000019, &a, &b, &c, &d))
				break;
			l1 = a;
			l2 = b;
		}
		int as = (l1 >> 8) & 0xff;
		n = mh_tlb(e, n, max, 1, PAPI_MH_TYPE_INST, page_kb[p], l1 & 0xff, as == 0xff ? MH_FULL : as);
		as = l1 >> 24;
		n = mh_tlb(e, n, max, 1, PAPI_MH_TYPE_DATA, page_kb[p], (l1 >> 16) & 0xff,
			   as == 0xff ? MH_FULL : as);
		n = mh_tlb(e, n, max, 2, PAPI_MH_TYPE_INST, page_kb[p], l2 & 0xfff,
			   amd_l2_assoc((l2 >> 12) & 0xf));
		n = mh_tlb(e, n, max, 2, PAPI_MH_TYPE_DATA, page_kb[p], (l2 >> 16) & 0xfff,
			   amd_l2_assoc(l2 >> 28));
	}
	return n;
}

/* Intel CPUID leaf 2 TLB descriptors (level, type, page KB, entries, ways). */
static const struct tlb_desc {
	unsigned char code, level, type;
	int page_kb, entries, assoc;
} intel_tlb[] = {
	{ 0x01, 1, PAPI_MH_TYPE_INST, 4, 32, 4 },
	{ 0x02, 1, PAPI_MH_TYPE_INST, 4096, 2, MH_FULL },
	{ 0x03, 1, PAPI_MH_TYPE_DATA, 4, 64, 4 },
	{ 0x04, 1, PAPI_MH_TYPE_DATA, 4096, 8, 4 },
	{ 0x05, 1, PAPI_MH_TYPE_DATA, 4096, 32, 4 },
	{ 0x0b, 1, PAPI_MH_TYPE_INST, 4096, 4, 4 },
	{ 0x4f, 1, PAPI_MH_TYPE_INST, 4, 32, 0 },
	{ 0x50, 1, PAPI_MH_TYPE_INST, 4, 64, MH_FULL },
	{ 0x51, 1, PAPI_MH_TYPE_INST, 4, 128, MH_FULL },
	{ 0x52, 1, PAPI_MH_TYPE_INST, 4, 256, MH_FULL },
	{ 0x55, 1, PAPI_MH_TYPE_INST, 2048, 7, MH_FULL },
	{ 0x56, 1, PAPI_MH_TYPE_DATA, 4096, 16, 4 },
	{ 0x57, 1, PAPI_MH_TYPE_DATA, 4, 16, 4 },
	{ 0x59, 1, PAPI_MH_TYPE_DATA, 4, 16, MH_FULL },
	{ 0x5a, 1, PAPI_MH_TYPE_DATA, 2048, 32, 4 },
	{ 0x5b, 1, PAPI_MH_TYPE_DATA, 4, 64, MH_FULL },
	{ 0x5c, 1, PAPI_MH_TYPE_DATA, 4, 128, MH_FULL },
	{ 0x5d, 1, PAPI_MH_TYPE_DATA, 4, 256, MH_FULL },
	{ 0x61, 1, PAPI_MH_TYPE_INST, 4, 48, MH_FULL },
	{ 0x63, 1, PAPI_MH_TYPE_DATA, 2048, 32, 4 },
	{ 0x63, 1, PAPI_MH_TYPE_DATA, 1048576, 4, 4 },
	{ 0x6a, 1, PAPI_MH_TYPE_DATA, 4, 64, 8 },
	{ 0x6b, 1, PAPI_MH_TYPE_DATA, 4, 256, 8 },
	{ 0x6c, 1, PAPI_MH_TYPE_DATA, 2048, 128, 8 },
	{ 0x6d, 1, PAPI_MH_TYPE_DATA, 1048576, 16, MH_FULL },
	{ 0x76, 1, PAPI_MH_TYPE_INST, 2048, 8, MH_FULL },
	{ 0xa0, 1, PAPI_MH_TYPE_DATA, 4, 32, MH_FULL },
	{ 0xb0, 1, PAPI_MH_TYPE_INST, 4, 128, 4 },
	{ 0xb1, 1, PAPI_MH_TYPE_INST, 2048, 8, 4 },
	{ 0xb2, 1, PAPI_MH_TYPE_INST, 4, 64, 4 },
	{ 0xb3, 1, PAPI_MH_TYPE_DATA, 4, 128, 4 },
	{ 0xb4, 1, PAPI_MH_TYPE_DATA, 4, 256, 4 },
	{ 0xb5, 1, PAPI_MH_TYPE_INST, 4, 64, 8 },
	{ 0xb6, 1, PAPI_MH_TYPE_INST, 4, 128, 8 },
	{ 0xba, 1, PAPI_MH_TYPE_DATA, 4, 64, 4 },
	{ 0xc0, 1, PAPI_MH_TYPE_DATA, 4, 8, 4 },
	{ 0xc1, 2, PAPI_MH_TYPE_UNIFIED, 4, 1024, 8 },
	{ 0xc2, 1, PAPI_MH_TYPE_DATA, 4, 16, 4 },
	{ 0xc3, 2, PAPI_MH_TYPE_UNIFIED, 4, 1536, 6 },
	{ 0xc4, 1, PAPI_MH_TYPE_DATA, 2048, 32, 4 },
	{ 0xca, 2, PAPI_MH_TYPE_UNIFIED, 4, 512, 4 },
};

/* Intel: the deterministic TLB leaf 0x18 when there is one, else leaf 2. */
static int mh_tlb_intel(struct mh_entry *e, int n, int max)
{
	unsigned a, b, c, d, top = __get_cpuid_max(0, NULL);
	if (top >= 0x18) {
		__cpuid_count(0x18, 0, a, b, c, d);
		unsigned last = a;
		int n0 = n;
		for (unsigned s = 0; s <= last && s < 64; s++) {
			__cpuid_count(0x18, s, a, b, c, d);
			int t = d & 0x1f, level = (d >> 5) & 7;
			if (!t)
				continue;
			int type = t == 1 || t == 4 || t == 5 ? PAPI_MH_TYPE_DATA :
				   t == 2 ? PAPI_MH_TYPE_INST : PAPI_MH_TYPE_UNIFIED;
			int ways = (b >> 16) & 0xffff, sets = (int)c;
			int assoc = d & 0x100 ? MH_FULL : ways;
			static const int page_kb[4] = { 4, 2048, 4096, 1048576 };
			for (int p = 0; p < 4; p++)
				if (b & (1u << p))
					n = mh_tlb(e, n, max, level, type, page_kb[p], ways * sets, assoc);
		}
		if (n > n0)
			return n;
	}
	if (top < 2)
		return n;
	__cpuid(2, a, b, c, d);
	unsigned regs[4] = { a & ~0xffu, b, c, d };
	for (int r = 0; r < 4; r++) {
		if (regs[r] & 0x80000000u)
			continue;	/* register holds no descriptors */
		for (int k = 0; k < 4; k++) {
			unsigned char code = (regs[r] >> (8 * k)) & 0xff;
			for (size_t i = 0; code && i < sizeof intel_tlb / sizeof intel_tlb[0]; i++)
				if (intel_tlb[i].code == code)
					n = mh_tlb(e, n, max, intel_tlb[i].level, intel_tlb[i].type,
						   intel_tlb[i].page_kb, intel_tlb[i].entries,
						   intel_tlb[i].assoc);
		}
	}
	return n;
}

static int mh_tlbs(struct mh_entry *e, int n, int max)
{
	unsigned a, v[3];
	if (!__get_cpuid(0, &a, &v[0], &v[2], &v[1]))
		return n;
	char vendor[13];
	memcpy(vendor, v, 12);
	vendor[12] = 0;
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"))
		return mh_tlb_amd(e, n, max);
	if (!strcmp(vendor, "GenuineIntel"))
		return mh_tlb_intel(e, n, max);
	return n;
}
#else
/* Elsewhere (ARM ...) sysfs describes no TLBs: caches only. */
static int mh_tlbs(struct mh_entry *e, int n, int max)
{
	(void)e;
	(void)max;
	return n;
}
#endif

/* mh_scan: contract in internal.h.  TLBs are listed by level (CPUID gives
 * them by page size), keeping CPUID's order within a level. */
int mh_scan(struct mh_entry *e, int max)
{
	int n0 = mh_caches(e, 0, max), n = mh_tlbs(e, n0, max);
	int stored = n < max ? n : max;
	for (int i = n0 + 1; i < stored; i++) {
		struct mh_entry x = e[i];
		int k = i;
		for (; k > n0 && e[k - 1].level > x.level; k--)
			e[k] = e[k - 1];
		e[k] = x;
	}
	return n;
}

/* mh_fill: contract in internal.h. */
void mh_fill(PAPI_mh_info_t *mh)
{
	struct mh_entry e[MH_MAX_ENTRIES];
	int n = mh_scan(e, MH_MAX_ENTRIES);
	if (n > MH_MAX_ENTRIES)
		n = MH_MAX_ENTRIES;
	for (int i = 0; i < n; i++) {
		int lvl = e[i].level;
		if (lvl < 1 || lvl > PAPI_MAX_MEM_HIERARCHY_LEVELS)
			continue;
		PAPI_mh_level_t *L = &mh->level[lvl - 1];
		int slot;
		if (e[i].tlb) {
			for (slot = 0; slot < PAPI_MH_MAX_LEVELS; slot++)
				if (L->tlb[slot].type == PAPI_MH_TYPE_EMPTY)
					break;
			if (slot == PAPI_MH_MAX_LEVELS)
				continue;
			L->tlb[slot] = (PAPI_mh_tlb_info_t){ e[i].type, e[i].entries, e[i].page_kb,
							     e[i].assoc };
		} else {
			for (slot = 0; slot < PAPI_MH_MAX_LEVELS; slot++)
				if (L->cache[slot].type == PAPI_MH_TYPE_EMPTY)
					break;
			if (slot == PAPI_MH_MAX_LEVELS)
				continue;
			L->cache[slot] = (PAPI_mh_cache_info_t){
				e[i].type, e[i].size > INT_MAX ? INT_MAX : (int)e[i].size,
				e[i].line_size, e[i].entries, e[i].assoc };
		}
		if (lvl > mh->levels)
			mh->levels = lvl;
	}
}
