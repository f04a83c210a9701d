/* memhier.c: the cache (sysfs, else CPUID) and TLB (CPUID) hierarchy of CPU 0: the one source for mem_hierarchy and papi mem-info. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "2-kernel/kernel.h"

/* Associativity of a fully associative cache or TLB, as PAPI reports it. */
#define MH_FULL SHRT_MAX

static int sysfs_text(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof path, "%s/%s", dir, file);
	if (n < 0 || (size_t)n >= sizeof path || os_read_at(AT_FDCWD, path, buf, len) <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = 0;	/* its first line */
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

/* Caches of cpu0 from sysfs, one entry per cacheN/index directory that
 * gives a size; those without (QEMU's virt machine lists level and type
 * only) are counted in *sizeless instead: a cache of no known size is no
 * description, and PAPI 7.0 then reports no cache levels at all. */
static int mh_caches(struct mh_entry *e, int n, int max, int *sizeless)
{
	char dir[PATH_MAX], buf[128];
	if (!sys->cpu_dir)
		return n;
	for (int i = 0; i < 32; i++) {
		struct mh_entry x = { .tlb = 0 };
		snprintf(dir, sizeof dir, "%s/cpu0/cache/index%d", sys->cpu_dir, i);
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
		if (x.size <= 0) {
			(*sizeless)++;
			continue;
		}
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

/* The answers one scan got: a scan asks some leaves more than once (the
 * vendor; AMD's 0x80000005 and 0x80000006 for caches, then TLBs), and in a
 * VM each CPUID traps to the hypervisor (~7 us). Per thread, and emptied
 * when a scan begins (a hybrid CPU answers per core type). */
#define MEMO_MAX 16
static __thread struct cpuid_memo {
	unsigned leaf, sub, r[4];
	int ret;
} memo[MEMO_MAX];
static __thread int nmemo;

/* CPUID through the kernel door's seam (a test plays a CPU there): 0 and
 * r, or -1 when the CPU has no such leaf or there is no CPUID. */
static int cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	for (int i = 0; i < nmemo; i++)
		if (memo[i].leaf == leaf && memo[i].sub == sub) {
			memcpy(r, memo[i].r, sizeof memo[i].r);
			return memo[i].ret;
		}
	int ret = sys->cpuid ? sys->cpuid(leaf, sub, r) : -1;
	if (nmemo < MEMO_MAX) {
		memo[nmemo] = (struct cpuid_memo){ .leaf = leaf, .sub = sub, .ret = ret };
		if (ret == 0)
			memcpy(memo[nmemo].r, r, sizeof memo[nmemo].r);
		nmemo++;
	}
	return ret;
}

/* "GenuineIntel", "AuthenticAMD", ... into v (13 bytes); "" without CPUID. */
static void cpu_vendor(char v[13])
{
	unsigned r[4];
	v[0] = 0;
	if (cpuid(0, 0, r) != 0)
		return;
	memcpy(v, &r[1], 4);
	memcpy(v + 4, &r[3], 4);
	memcpy(v + 8, &r[2], 4);
	v[12] = 0;
}

static int is_amd(const char *v)
{
	return !strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine");
}

static int mh_tlb(struct mh_entry *e, int n, int max, int level, int type, int page_kb, int entries,
		  int assoc)
{
	if (entries <= 0)
		return n;
	struct mh_entry x = { .tlb = 1, .level = level, .type = type, .page_kb = page_kb,
			      .entries = entries, .assoc = assoc };
	return mh_add(e, n, max, &x);
}

/* AMD's 4-bit L2/L3 associativity code (CPUID 0x80000006). */
static int amd_l2_assoc(unsigned v)
{
	static const int ways[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, MH_FULL };
	return ways[v & 0xf];
}

/* ---- caches from CPUID, where sysfs describes none (some VMs, containers) */

static int mh_cache(struct mh_entry *e, int n, int max, int level, int type, long long size,
		    int line, int assoc)
{
	if (size <= 0 || level < 1)
		return n;
	struct mh_entry x = { .tlb = 0, .level = level, .type = type, .size = size,
			      .line_size = line, .assoc = assoc, .cpuid = 1 };
	if (line > 0)
		x.entries = (int)(size / line);
	return mh_add(e, n, max, &x);
}

/* Intel's leaf 4 and AMD's 0x8000001D share a layout, one subleaf per
 * cache: EAX type (1 data, 2 instruction, 3 unified; 0 ends the list) and
 * level, bit 9 fully associative; EBX ways-1, partitions-1, line size-1;
 * ECX sets-1. */
static int mh_caches_deterministic(struct mh_entry *e, int n, int max, unsigned leaf)
{
	unsigned r[4];
	for (unsigned sub = 0; sub < 16 && cpuid(leaf, sub, r) == 0; sub++) {
		unsigned t = r[0] & 0x1f;
		if (t == 0 || t > 3)
			break;
		int type = t == 1 ? PAPI_MH_TYPE_DATA : t == 2 ? PAPI_MH_TYPE_INST : PAPI_MH_TYPE_UNIFIED;
		int level = (r[0] >> 5) & 7;
		long long ways = (r[1] >> 22) + 1, parts = ((r[1] >> 12) & 0x3ff) + 1;
		long long line = (r[1] & 0xfff) + 1, sets = (long long)r[2] + 1;
		int assoc = r[0] & 0x200 ? MH_FULL : (int)ways;
		n = mh_cache(e, n, max, level, type, ways * parts * line * sets, (int)line, assoc);
	}
	return n;
}

/* AMD before the topology extensions: L1 in 0x80000005 (ECX data, EDX
 * instruction: KB in bits 31-24, ways 23-16, 0xff full; line in 7-0), L2 in
 * 0x80000006 ECX (KB in 31-16) and L3 in its EDX (512 KB units in 31-18),
 * both with a 4-bit way code in 15-12 and the line in 7-0. */
static int mh_caches_amd_legacy(struct mh_entry *e, int n, int max)
{
	unsigned r[4];
	if (cpuid(0x80000005, 0, r) == 0)
		for (int i = 0; i < 2; i++) {
			unsigned v = i ? r[3] : r[2];
			unsigned ways = (v >> 16) & 0xff;
			n = mh_cache(e, n, max, 1, i ? PAPI_MH_TYPE_INST : PAPI_MH_TYPE_DATA,
				     (long long)(v >> 24) * 1024, (int)(v & 0xff),
				     ways == 0xff ? MH_FULL : (int)ways);
		}
	if (cpuid(0x80000006, 0, r) == 0) {
		n = mh_cache(e, n, max, 2, PAPI_MH_TYPE_UNIFIED, (long long)(r[2] >> 16) * 1024,
			     (int)(r[2] & 0xff), amd_l2_assoc(r[2] >> 12));
		n = mh_cache(e, n, max, 3, PAPI_MH_TYPE_UNIFIED, (long long)(r[3] >> 18) * 512 * 1024,
			     (int)(r[3] & 0xff), amd_l2_assoc(r[3] >> 12));
	}
	return n;
}

static int mh_caches_cpuid(struct mh_entry *e, int n, int max)
{
	char v[13];
	unsigned r[4];
	cpu_vendor(v);
	if (!v[0])
		return n;
	if (is_amd(v)) {
		/* 0x8000001D exists with the topology extensions (0x80000001 ECX bit 22). */
		if (cpuid(0x80000001, 0, r) == 0 && (r[2] & (1u << 22))) {
			int n1 = mh_caches_deterministic(e, n, max, 0x8000001D);
			if (n1 > n)
				return n1;
		}
		return mh_caches_amd_legacy(e, n, max);
	}
	return mh_caches_deterministic(e, n, max, 4);
}

/* ---- TLBs */

/* AMD: L1 TLBs in 0x80000005 (and 1G pages in 0x80000019 EAX), L2 in
 * 0x80000006 (1G: 0x80000019 EBX); EAX 2M/4M pages, EBX 4K pages. A 4M
 * page takes two 2M entries, so the 4M TLB has half as many entries (as
 * AMD's manuals say and PAPI lists it). */
static int mh_tlb_amd(struct mh_entry *e, int n, int max)
{
	unsigned r[4];
	static const int page_kb[3] = { 4, 2048, 1048576 };
	for (int p = 0; p < 3; p++) {
		unsigned l1, l2;
		if (p < 2) {
			if (cpuid(0x80000005, 0, r) != 0)
				return n;
			l1 = p == 0 ? r[1] : r[0];
			l2 = 0;
			if (cpuid(0x80000006, 0, r) == 0)
				l2 = p == 0 ? r[1] : r[0];
		} else {
			if (cpuid(0x80000019, 0, r) != 0)
				break;
			l1 = r[0];
			l2 = r[1];
		}
		for (int half = 0; half <= (p == 1); half++) {
			int kb = half ? 4096 : page_kb[p], div = half ? 2 : 1;
			int as = (l1 >> 8) & 0xff;
			n = mh_tlb(e, n, max, 1, PAPI_MH_TYPE_INST, kb, (int)(l1 & 0xff) / div,
				   as == 0xff ? MH_FULL : as);
			as = l1 >> 24;
			n = mh_tlb(e, n, max, 1, PAPI_MH_TYPE_DATA, kb, (int)((l1 >> 16) & 0xff) / div,
				   as == 0xff ? MH_FULL : as);
			n = mh_tlb(e, n, max, 2, PAPI_MH_TYPE_INST, kb, (int)(l2 & 0xfff) / div,
				   amd_l2_assoc((l2 >> 12) & 0xf));
			n = mh_tlb(e, n, max, 2, PAPI_MH_TYPE_DATA, kb, (int)((l2 >> 16) & 0xfff) / div,
				   amd_l2_assoc(l2 >> 28));
		}
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
	unsigned r[4];
	if (cpuid(0x18, 0, r) == 0) {
		unsigned last = r[0];
		int n0 = n;
		for (unsigned s = 0; s <= last && s < 64 && cpuid(0x18, s, r) == 0; s++) {
			unsigned b = r[1], c = r[2], d = r[3];
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
	if (cpuid(2, 0, r) != 0)
		return n;
	unsigned regs[4] = { r[0] & ~0xffu, r[1], r[2], r[3] };
	for (int g = 0; g < 4; g++) {
		if (regs[g] & 0x80000000u)
			continue;	/* register holds no descriptors */
		for (int k = 0; k < 4; k++) {
			unsigned char code = (regs[g] >> (8 * k)) & 0xff;
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
	char v[13];
	cpu_vendor(v);
	if (is_amd(v))
		return mh_tlb_amd(e, n, max);
	if (!strcmp(v, "GenuineIntel"))
		return mh_tlb_intel(e, n, max);
	return n;
}

/* mh_scan: contract in internal.h.  TLBs are listed by level (CPUID gives
 * them by page size), keeping CPUID's order within a level. */
int mh_scan(struct mh_entry *e, int max)
{
	nmemo = 0;
	int sizeless = 0, n0 = mh_caches(e, 0, max, &sizeless);
	if (n0 == 0)
		n0 = mh_caches_cpuid(e, 0, max);
	int n = mh_tlbs(e, n0, max);
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

/* mh_sizeless: contract in kernel.h. */
int mh_sizeless(void)
{
	nmemo = 0;
	int sizeless = 0;
	mh_caches(NULL, 0, 0, &sizeless);
	return sizeless;
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
			/* PAPI gives the page size in bytes (its papi_mem_info
			 * divides by 1024 to print KB). */
			L->tlb[slot] = (PAPI_mh_tlb_info_t){ e[i].type, e[i].entries, e[i].page_kb * 1024,
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
