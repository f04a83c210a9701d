/* memhier.c: the cache hierarchy of CPU 0 from sysfs, for PAPI_get_hardware_info's mem_hierarchy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
static int parse_size(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*end == 'K')
		v *= 1024;
	else if (*end == 'M')
		v *= 1024 * 1024;
	else if (*end == 'G')
		v *= 1024L * 1024 * 1024;
	return v > 0 && v < 0x7fffffff ? (int)v : 0;
}

/* mh_fill: caches of cpu0 (one entry per sysfs cache index, by level).
 * Levels with nothing known stay empty; TLBs come from CPUID elsewhere. */
void mh_fill(PAPI_mh_info_t *mh)
{
	char dir[128], buf[64];
	for (int i = 0; i < 16; i++) {
		snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		if (sysfs_text(dir, "level", buf, sizeof buf) != 0)
			break;
		int lvl = atoi(buf);
		if (lvl < 1 || lvl > PAPI_MAX_MEM_HIERARCHY_LEVELS)
			continue;
		PAPI_mh_level_t *L = &mh->level[lvl - 1];
		int slot;
		for (slot = 0; slot < PAPI_MH_MAX_LEVELS; slot++)
			if (L->cache[slot].type == PAPI_MH_TYPE_EMPTY)
				break;
		if (slot == PAPI_MH_MAX_LEVELS)
			continue;
		PAPI_mh_cache_info_t *c = &L->cache[slot];
		if (sysfs_text(dir, "type", buf, sizeof buf) == 0) {
			if (!strcmp(buf, "Data"))
				c->type = PAPI_MH_TYPE_DATA;
			else if (!strcmp(buf, "Instruction"))
				c->type = PAPI_MH_TYPE_INST;
			else
				c->type = PAPI_MH_TYPE_UNIFIED;
		}
		if (sysfs_text(dir, "size", buf, sizeof buf) == 0)
			c->size = parse_size(buf);
		if (sysfs_text(dir, "coherency_line_size", buf, sizeof buf) == 0)
			c->line_size = atoi(buf);
		if (sysfs_text(dir, "ways_of_associativity", buf, sizeof buf) == 0)
			c->associativity = atoi(buf);
		if (c->line_size > 0)
			c->num_lines = c->size / c->line_size;
		if (lvl > mh->levels)
			mh->levels = lvl;
	}
}
