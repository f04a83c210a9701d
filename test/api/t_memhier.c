/* t_memhier.c: PAPI_get_hardware_info's mem_hierarchy agrees with sysfs (caches) and holds sane TLBs. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Every sysfs cache of cpu0 with a size is in mh with it; one without (QEMU's
 * virt machine lists level and type only) is left out, as PAPI 7.0 does,
 * never reported with size 0 (where sysfs gives none, x86's CPUID may
 * describe them instead). Returns how many had no size. */
static int caches_match_sysfs(const PAPI_mh_info_t *mh)
{
	char dir[128], buf[64];
	int seen = 0, deepest = 0, sizeless = 0;
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
		if (read_line(dir, "size", buf, sizeof buf) || atoi(buf) <= 0) {
			sizeless++;
			continue;
		}
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
	int zero = 0, n = 0;
	for (int l = 0; l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
		for (int k = 0; k < PAPI_MH_MAX_LEVELS; k++)
			if (mh->level[l].cache[k].type != PAPI_MH_TYPE_EMPTY) {
				n++;
				zero += mh->level[l].cache[k].size <= 0;
			}
	is_int(zero, 0, "no cache in mem_hierarchy has size 0 (%d caches)", n);
	if (seen)
		is_int(n, seen, "as many caches as sysfs gives sizes for (%d without)", sizeless);
#if !defined(__x86_64__) && !defined(__i386__)
	else
		is_int(n, 0, "no cache where sysfs gives no size (%d without)", sizeless);
#endif
	if (seen)
		is_int(mh->levels >= deepest, 1, "levels covers the deepest sysfs cache level (%d)", deepest);
	return sizeless;
}

/* papi mem-info prints no cache of size 0 and says why none is listed. */
static void mem_info_cmd(int sizeless, int levels)
{
	const char *bin = getenv("PAPI_BIN");
	char cmd[4200], line[512];
	if (!bin || access(bin, X_OK)) {
		skip("PAPI_BIN is not set (run-tests.sh sets it)", "papi mem-info");
		return;
	}
	snprintf(cmd, sizeof cmd, "'%s' mem-info", bin);
	FILE *p = popen(cmd, "r");
	int zero = 0, said = 0, lines = 0;
	while (p && fgets(line, sizeof line, p)) {
		lines++;
		zero += strstr(line, " size        0 KB") != NULL;
		said += strstr(line, "without their sizes") != NULL;
	}
	ok(p && pclose(p) == 0 && lines > 0, "papi mem-info runs");
	is_int(zero, 0, "papi mem-info lists no cache of size 0");
	if (sizeless && !levels)
		is_int(said, 1, "papi mem-info says sysfs lists %d caches without their sizes", sizeless);
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
		int sizeless = caches_match_sysfs(&hw->mem_hierarchy);
		tlbs_sane(&hw->mem_hierarchy);
		mem_info_cmd(sizeless, hw->mem_hierarchy.levels);
	}
	PAPI_shutdown();
	return tap_done();
}
