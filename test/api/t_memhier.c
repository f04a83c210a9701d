/* t_memhier.c: PAPI_get_hardware_info's mem_hierarchy agrees with sysfs (caches) and holds sane TLBs. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "tap.h"

static int read_line(const char *dir, const char *file, char *buf, size_t len)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok_ = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok_ ? 0 : -1;
}

/* Find the cache of mh at level lvl with type t whose size is size. */
static const PAPI_mh_cache_info_t *find_cache(const PAPI_mh_info_t *mh, int lvl, int t, int size)
{
	if (lvl < 1 || lvl > PAPI_MAX_MEM_HIERARCHY_LEVELS)
		return NULL;
	for (int s = 0; s < PAPI_MH_MAX_LEVELS; s++) {
		const PAPI_mh_cache_info_t *c = &mh->level[lvl - 1].cache[s];
		if (c->type == t && c->size == size)
			return c;
	}
	return NULL;
}

static void caches_match_sysfs(const PAPI_mh_info_t *mh)
{
	char dir[128], buf[64];
	int seen = 0, deepest = 0;
	for (int i = 0; i < 32; i++) {
		snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		if (read_line(dir, "level", buf, sizeof buf))
			break;
		int lvl = atoi(buf), t = PAPI_MH_TYPE_UNIFIED, size, line, ways, sets;
		read_line(dir, "type", buf, sizeof buf);
		if (!strcmp(buf, "Data"))
			t = PAPI_MH_TYPE_DATA;
		else if (!strcmp(buf, "Instruction"))
			t = PAPI_MH_TYPE_INST;
		read_line(dir, "size", buf, sizeof buf);
		size = atoi(buf) * (strchr(buf, 'K') ? 1024 : strchr(buf, 'M') ? 1048576 : 1);
		read_line(dir, "coherency_line_size", buf, sizeof buf);
		line = atoi(buf);
		read_line(dir, "ways_of_associativity", buf, sizeof buf);
		ways = atoi(buf);
		sets = read_line(dir, "number_of_sets", buf, sizeof buf) ? 0 : atoi(buf);
		const PAPI_mh_cache_info_t *c = find_cache(mh, lvl, t, size);
		ok(c != NULL, "index%d: L%d cache of %d bytes is in mem_hierarchy", i, lvl, size);
		if (!c)
			continue;
		is_int(c->line_size, line, "index%d: line size", i);
		is_int(c->num_lines, line ? size / line : 0, "index%d: lines = size / line size", i);
		is_int(c->associativity, sets == 1 ? SHRT_MAX : ways, "index%d: associativity", i);
		seen++;
		if (lvl > deepest)
			deepest = lvl;
	}
	if (!seen) {
		skip("sysfs describes no caches of cpu0", "cache comparison");
		return;
	}
	is_int(mh->levels >= deepest, 1, "levels covers the deepest sysfs cache level (%d)", deepest);
}

static void tlbs_sane(const PAPI_mh_info_t *mh)
{
	int n = 0, bad = 0;
	for (int l = 0; l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
		for (int s = 0; s < PAPI_MH_MAX_LEVELS; s++) {
			const PAPI_mh_tlb_info_t *t = &mh->level[l].tlb[s];
			if (t->type == PAPI_MH_TYPE_EMPTY)
				continue;
			n++;
			if (t->num_entries <= 0 || t->page_size < 4 || (t->page_size & (t->page_size - 1)) ||
			    (t->type & ~PAPI_MH_TYPE_UNIFIED) || l + 1 > mh->levels)
				bad++;
		}
#if defined(__x86_64__) || defined(__i386__)
	ok(n > 0, "CPUID describes at least one TLB (%d)", n);
#else
	if (!n)
		skip("TLBs are described by CPUID on x86 only", "TLB presence");
#endif
	is_int(bad, 0, "every TLB has entries, a power-of-two page size in KB and a known type");
}

int main(void)
{
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
	ok(hw != NULL, "PAPI_get_hardware_info");
	if (hw) {
		caches_match_sysfs(&hw->mem_hierarchy);
		tlbs_sane(&hw->mem_hierarchy);
	}
	PAPI_shutdown();
	return tap_done();
}
