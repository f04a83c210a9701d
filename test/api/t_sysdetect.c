/* t_sysdetect.c: the device calls (PAPI_enum_dev_type, PAPI_get_dev_type_attr, PAPI_get_dev_attr) on this machine's CPU, agreeing with PAPI_get_hardware_info, and on fake NUMA trees (os_set_root); every error code. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static char root[] = "/tmp/t_sysdetect.XXXXXX";

static void put(const char *path, const char *text)
{
	char full[1024], dir[1024];
	snprintf(full, sizeof full, "%s%s", root, path);
	for (char *p = full + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(dir, sizeof dir, "%.*s", (int)(p - full), full);
		mkdir(dir, 0755);
	}
	FILE *f = fopen(full, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static unsigned uattr(void *h, int id, PAPI_dev_attr_e a)
{
	unsigned v = 12345;
	int r = PAPI_get_dev_attr(h, id, a, &v);
	return r == PAPI_OK ? v : (unsigned)-1;
}

/* The caches of the memory hierarchy: level l's cache of type t (or the
 * unified one). */
static const PAPI_mh_cache_info_t *mh_cache(const PAPI_hw_info_t *hw, int l, int t)
{
	for (int k = 0; k < PAPI_MH_MAX_LEVELS; k++) {
		const PAPI_mh_cache_info_t *c = &hw->mem_hierarchy.level[l].cache[k];
		if (c->size > 0 && (c->type == t || (t != PAPI_MH_TYPE_INST && c->type == PAPI_MH_TYPE_UNIFIED)))
			return c;
	}
	return NULL;
}

static void machine(void)
{
	void *h = NULL, *cpu = NULL;
	int id, n = 0, r;
	const char *s;
	is_int(PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &h), PAPI_ENOINIT, "before init: ENOINIT");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	static const int want[] = { PAPI_DEV_TYPE_ID__CPU, PAPI_DEV_TYPE_ID__CUDA, PAPI_DEV_TYPE_ID__ROCM };
	while ((r = PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &h)) == PAPI_OK && n < 5) {
		is_int(PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__INT_PAPI_ID, &id), PAPI_OK, "type id");
		is_int(id, want[n < 3 ? n : 0], "type %d in PAPI 7's order", n);
		int count = -1;
		PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__INT_COUNT, &count);
		is_int(count, id == PAPI_DEV_TYPE_ID__CPU ? 1 : 0, "devices of type %d", id);
		s = NULL;
		PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__CHAR_STATUS, &s);
		ok(s && *s, "its status: %s", s ? s : "");
		if (id == PAPI_DEV_TYPE_ID__CPU)
			cpu = h;
		n++;
	}
	is_int(r, PAPI_EINVAL, "the end: EINVAL, as PAPI 7");
	is_int(n, 3, "three types: CPU, CUDA, ROCm");
	is_int(PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &h), PAPI_OK, "then it starts over");
	is_int(PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__FIRST, &h), PAPI_OK, "ENUM__FIRST");
	ok(h == cpu, "is the CPU");
	is_int(PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ROCM, &h), PAPI_OK, "then ROCm alone");
	PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__INT_PAPI_ID, &id);
	is_int(id, PAPI_DEV_TYPE_ID__ROCM, "is ROCm");
	is_int(PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ROCM, &h), PAPI_EINVAL, "and no more");
	is_int(PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, NULL), PAPI_EINVAL, "NULL handle");
	is_int(PAPI_enum_dev_type(1 << 20, &h), PAPI_EINVAL, "a type bit that does not exist");

	const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
	int v = -1;
	is_int(PAPI_get_dev_type_attr(cpu, PAPI_DEV_TYPE_ATTR__INT_VENDOR_ID, &v), PAPI_OK, "vendor id");
	is_int(v, hw->vendor, "PAPI_get_hardware_info's vendor code");
	PAPI_get_dev_type_attr(cpu, PAPI_DEV_TYPE_ATTR__CHAR_NAME, &s);
	is_str(s, hw->vendor_string, "the vendor: %s", s);
	PAPI_get_dev_attr(cpu, 0, PAPI_DEV_ATTR__CPU_CHAR_NAME, &s);
	is_str(s, hw->model_string, "the name: %s", s);
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_FAMILY), hw->cpuid_family, "family");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_MODEL), hw->cpuid_model, "model");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_STEPPING), hw->cpuid_stepping, "stepping");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT), hw->sockets, "sockets");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT), hw->cores, "cores per socket");
	unsigned threads = uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT);
	is_int(threads, hw->totalcpus, "hardware threads");
	unsigned numas = uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT);
	is_int(numas, hw->nnodes, "NUMA nodes");
	static const struct {
		int line, level, type;
		PAPI_dev_attr_e size, lsize, lines, assoc;
	} caches[] = {
		{ __LINE__, 0, PAPI_MH_TYPE_INST, PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_SIZE,
		  PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_COUNT,
		  PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_ASSOC },
		{ __LINE__, 0, PAPI_MH_TYPE_DATA, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_SIZE,
		  PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_COUNT,
		  PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_ASSOC },
		{ __LINE__, 1, PAPI_MH_TYPE_UNIFIED, PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_SIZE,
		  PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_COUNT,
		  PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_ASSOC },
		{ __LINE__, 2, PAPI_MH_TYPE_UNIFIED, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_SIZE,
		  PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_COUNT,
		  PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_ASSOC },
	};
	for (size_t i = 0; i < sizeof caches / sizeof *caches; i++) {
		const PAPI_mh_cache_info_t *c = mh_cache(hw, caches[i].level, caches[i].type);
		unsigned sz = uattr(cpu, 0, caches[i].size), ls = uattr(cpu, 0, caches[i].lsize);
		is_int(sz, c ? c->size : 0, "row %d: size as papi mem-info's", caches[i].line);
		is_int(ls, c ? c->line_size : 0, "row %d: line size", caches[i].line);
		is_int(uattr(cpu, 0, caches[i].lines), ls ? sz / ls : 0, "row %d: lines", caches[i].line);
		is_int(uattr(cpu, 0, caches[i].assoc), c ? (unsigned)c->associativity : 0, "row %d: ways",
		       caches[i].line);
	}
	unsigned sum = 0;
	for (unsigned k = 0; k < numas; k++) {
		sum += uattr(cpu, (int)k, PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA);
		ok(uattr(cpu, (int)k, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE) > 0, "node %u has memory", k);
	}
	is_int(sum, threads, "every hardware thread is in one node");
	for (unsigned t = 0; t < threads; t++)
		ok(uattr(cpu, (int)t, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY) < numas, "thread %u's node", t);

	/* errors */
	unsigned u;
	void *cuda = NULL;
	PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__FIRST, &h);
	PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__CUDA, &cuda);
	is_int(PAPI_get_dev_type_attr(NULL, PAPI_DEV_TYPE_ATTR__INT_COUNT, &v), PAPI_EINVAL, "type attr: NULL handle");
	is_int(PAPI_get_dev_type_attr(&u, PAPI_DEV_TYPE_ATTR__INT_COUNT, &v), PAPI_EINVAL, "type attr: not a handle");
	is_int(PAPI_get_dev_type_attr(cpu, PAPI_DEV_TYPE_ATTR__INT_COUNT, NULL), PAPI_EINVAL, "type attr: NULL value");
	is_int(PAPI_get_dev_type_attr(cpu, (PAPI_dev_type_attr_e)99, &v), PAPI_ENOSUPP, "type attr: no such");
	is_int(PAPI_get_dev_attr(NULL, 0, PAPI_DEV_ATTR__CPU_UINT_FAMILY, &u), PAPI_EINVAL, "attr: NULL handle");
	is_int(PAPI_get_dev_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_FAMILY, NULL), PAPI_EINVAL, "attr: NULL value");
	is_int(PAPI_get_dev_attr(cpu, 1, PAPI_DEV_ATTR__CPU_UINT_FAMILY, &u), PAPI_EINVAL, "attr: one CPU device");
	is_int(PAPI_get_dev_attr(cpu, -1, PAPI_DEV_ATTR__CPU_UINT_FAMILY, &u), PAPI_EINVAL, "attr: id -1");
	is_int(PAPI_get_dev_attr(cpu, (int)numas, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE, &u), PAPI_EINVAL,
	       "attr: no such node");
	is_int(PAPI_get_dev_attr(cpu, (int)threads, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY, &u), PAPI_EINVAL,
	       "attr: no such thread");
	is_int(PAPI_get_dev_attr(cpu, 0, PAPI_DEV_ATTR__CUDA_UINT_WARP_SIZE, &u), PAPI_EINVAL,
	       "attr: a CUDA attribute of the CPU");
	is_int(PAPI_get_dev_attr(cuda, 0, PAPI_DEV_ATTR__CUDA_UINT_WARP_SIZE, &u), PAPI_EINVAL,
	       "attr: no CUDA device");
	is_int(PAPI_get_dev_attr(cpu, 0, (PAPI_dev_attr_e)9999, &u), PAPI_ENOSUPP, "attr: no such attribute");
	PAPI_shutdown();
	setenv("PAPI_DISABLE_COMPONENTS", "sysdetect", 1);
	PAPI_library_init(PAPI_VER_CURRENT);
	is_int(PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &h), PAPI_ECMP, "sysdetect disabled: ECMP");
	PAPI_shutdown();
	unsetenv("PAPI_DISABLE_COMPONENTS");
}

/* Two nodes of a fake tree: node0 has CPU 0 and 1 GB, node3 the rest and 2 GB. */
static void fake_numa(void)
{
	put("/sys/devices/system/node/node0/cpulist", "0\n");
	put("/sys/devices/system/node/node0/meminfo", "Node 0 MemTotal:       1048576 kB\nNode 0 MemFree: 5 kB\n");
	put("/sys/devices/system/node/node3/cpulist", "1-4095\n");
	put("/sys/devices/system/node/node3/meminfo", "Node 3 MemTotal:       2097152 kB\n");
	put("/sys/devices/system/node/possible", "0,3\n");
	os_set_root(root);
	PAPI_library_init(PAPI_VER_CURRENT);
	void *cpu = NULL;
	PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__FIRST, &cpu);
	unsigned threads = uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT);
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT), 2, "fake: two nodes (0 and 3)");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE), 1024, "fake: the first has 1024 MB");
	is_int(uattr(cpu, 1, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE), 2048, "fake: node3, the second, 2048 MB");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA), 1, "fake: one thread in the first");
	is_int(uattr(cpu, 1, PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA), threads - 1, "fake: the rest in the second");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY), 0, "fake: CPU 0 in the first");
	if (threads > 1)
		is_int(uattr(cpu, (int)threads - 1, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY), 1,
		       "fake: the last CPU in the second");
	PAPI_shutdown();

	/* no node directory: one node with all the memory of /proc/meminfo */
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/sys'", root);
	if (system(cmd) != 0)
		diag("cannot remove the fake sys");
	put("/proc/meminfo", "MemTotal:        4194304 kB\nMemFree:  1 kB\n");
	PAPI_library_init(PAPI_VER_CURRENT);
	PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__FIRST, &cpu);
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT), 1, "no NUMA: one node");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE), 4096, "with /proc/meminfo's 4096 MB");
	is_int(uattr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA), threads, "and every thread");
	PAPI_shutdown();
	os_set_root(NULL);
}

int main(void)
{
	machine();
	if (!mkdtemp(root)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	fake_numa();
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		diag("could not remove %s", root);
	return tap_done();
}
