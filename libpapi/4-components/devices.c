/* devices.c: the device calls of PAPI 7's sysdetect (PAPI_enum_dev_type, PAPI_get_dev_type_attr, PAPI_get_dev_attr) over the CPU that the sysdetect component gathered; no GPU here. */
#include <stdio.h>
#include <string.h>

#include "4-components/components.h"

/* One handle per device type, as PAPI 7 has them: the CPU, and the GPU
 * types this library has no component for (none of them, and why). */
struct dev_type {
	int id;				/* PAPI_DEV_TYPE_ID__* */
	const char *status;
};
static const struct dev_type types[PAPI_DEV_TYPE_ID__MAX_NUM] = {
	{ PAPI_DEV_TYPE_ID__CPU, "Device Initialized" },
	{ PAPI_DEV_TYPE_ID__CUDA, "not supported: this library has no CUDA component" },
	{ PAPI_DEV_TYPE_ID__ROCM, "not supported: this library has no ROCm component" },
};

/* Where each thread's enumeration stands: the next type to look at. */
static __thread int cursor;

/* The CPU, initializing sysdetect on first use: PAPI_OK, PAPI_ENOINIT, or
 * PAPI_ECMP when sysdetect is disabled (reason set). */
static int cpu_of(const struct sd_cpu **out)
{
	const struct component *c;
	if (!lib_ready())
		return PAPI_ENOINIT;
	int r = cmp_get(PAPI_get_component_index("sysdetect"), &c);
	if (r != PAPI_OK)
		return r;
	*out = sysdetect_cpu();
	return *out ? PAPI_OK : PAPI_ECMP;
}

static const struct dev_type *type_of(void *handle)
{
	for (int i = 0; i < PAPI_DEV_TYPE_ID__MAX_NUM; i++)
		if (handle == (const void *)&types[i])
			return &types[i];
	return NULL;
}

/* PAPI_enum_dev_type: the next device type whose bit is in enum_modifier
 * (PAPI_DEV_TYPE_ENUM__CPU, __CUDA, __ROCM, __ALL), as a handle for the
 * attribute calls; PAPI_DEV_TYPE_ENUM__FIRST restarts at the first type.
 * Every type is listed, with its device count (0 for the GPU types, which
 * say why in their status). Each thread enumerates on its own. PAPI_OK,
 * PAPI_EINVAL (handle NULL, a modifier of no type, or no more types: the
 * next call starts over, as PAPI 7), PAPI_ENOINIT, PAPI_ECMP (sysdetect
 * disabled). */
int PAPI_enum_dev_type(int enum_modifier, void **handle)
{
	const struct sd_cpu *cpu;
	if (!handle || (enum_modifier & ~PAPI_DEV_TYPE_ENUM__ALL))
		return PAPI_EINVAL;
	int r = cpu_of(&cpu);
	if (r != PAPI_OK)
		return r;
	if (enum_modifier == PAPI_DEV_TYPE_ENUM__FIRST) {
		cursor = 1;
		*handle = (void *)&types[0];
		return PAPI_OK;
	}
	while (cursor < PAPI_DEV_TYPE_ID__MAX_NUM) {
		const struct dev_type *t = &types[cursor++];
		if (enum_modifier & (1 << t->id)) {
			*handle = (void *)t;
			return PAPI_OK;
		}
	}
	cursor = 0;
	*handle = NULL;
	return PAPI_EINVAL;
}

/* PAPI_get_dev_type_attr: an attribute of a device type: PAPI_ID (int),
 * VENDOR_ID (int: PAPI_VENDOR_* for the CPU), NAME (const char *: the
 * vendor), COUNT (int: devices of the type; the CPU is one, as PAPI 7
 * counts it), STATUS (const char *). PAPI_OK, PAPI_EINVAL (no such handle,
 * value NULL), PAPI_ENOSUPP (no such attribute), PAPI_ENOINIT, PAPI_ECMP. */
int PAPI_get_dev_type_attr(void *handle, PAPI_dev_type_attr_e attr, void *value)
{
	const struct sd_cpu *cpu;
	const struct dev_type *t = type_of(handle);
	if (!t || !value)
		return PAPI_EINVAL;
	int r = cpu_of(&cpu);
	if (r != PAPI_OK)
		return r;
	int is_cpu = t->id == PAPI_DEV_TYPE_ID__CPU;
	switch (attr) {
	case PAPI_DEV_TYPE_ATTR__INT_PAPI_ID:
		*(int *)value = t->id;
		return PAPI_OK;
	case PAPI_DEV_TYPE_ATTR__INT_VENDOR_ID:
		*(int *)value = is_cpu ? cpu->vendor_id : PAPI_VENDOR_UNKNOWN;
		return PAPI_OK;
	case PAPI_DEV_TYPE_ATTR__CHAR_NAME:
		*(const char **)value = is_cpu ? cpu->vendor
				      : t->id == PAPI_DEV_TYPE_ID__CUDA ? "NVIDIA" : "AMD";
		return PAPI_OK;
	case PAPI_DEV_TYPE_ATTR__INT_COUNT:
		*(int *)value = is_cpu ? 1 : 0;
		return PAPI_OK;
	case PAPI_DEV_TYPE_ATTR__CHAR_STATUS:
		*(const char **)value = t->status;
		return PAPI_OK;
	default:
		return PAPI_ENOSUPP;
	}
}

/* The cache attribute attr as its table slot and field; 0 when it is none. */
static int cache_attr(PAPI_dev_attr_e attr, int *k, int *field)
{
	static const PAPI_dev_attr_e table[SD_NCACHE][4] = {
		{ PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_SIZE,
		  PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_ASSOC },
		{ PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_SIZE,
		  PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_ASSOC },
		{ PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_SIZE,
		  PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_ASSOC },
		{ PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_SIZE,
		  PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_ASSOC },
	};
	for (*k = 0; *k < SD_NCACHE; ++*k)
		for (*field = 0; *field < 4; ++*field)
			if (table[*k][*field] == attr)
				return 1;
	return 0;
}

/* PAPI_get_dev_attr: attribute attr of device id of the type handle. The
 * CPU (one device: id 0) answers, as PAPI 7: its name (const char *);
 * family, model, stepping, sockets, NUMA nodes, cores per socket, hardware
 * threads (unsigned); cache size and line size in bytes, lines and ways of
 * L1I, L1D, L2U and L3U (unsigned, 0 when unknown: the caches papi mem-info
 * shows); and per id, NUMA_MEM_SIZE (node id's memory in MB),
 * THR_PER_NUMA (node id's hardware threads), THR_NUMA_AFFINITY (the node
 * of hardware thread id, -1 for a CPU no node lists). PAPI_OK, PAPI_EINVAL
 * (no such handle, value NULL, id out of range, an attribute of another
 * device type, any id of a GPU type: none exist), PAPI_ENOSUPP (no such
 * attribute), PAPI_ENOINIT, PAPI_ECMP. */
int PAPI_get_dev_attr(void *handle, int id, PAPI_dev_attr_e attr, void *value)
{
	const struct sd_cpu *cpu;
	const struct dev_type *t = type_of(handle);
	if (!t || !value || id < 0)
		return PAPI_EINVAL;
	int r = cpu_of(&cpu);
	if (r != PAPI_OK)
		return r;
	if ((int)attr < 0 || attr > PAPI_DEV_ATTR__ROCM_UINT_COMP_CAP_MINOR)
		return PAPI_ENOSUPP;
	if (t->id != PAPI_DEV_TYPE_ID__CPU || attr > PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA)
		return PAPI_EINVAL;	/* no GPU device, or a GPU attribute of the CPU */
	unsigned *u = value;
	int k, field;
	switch (attr) {
	case PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE:
	case PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA:
		if (id >= cpu->numas)
			return PAPI_EINVAL;
		*u = attr == PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE ? cpu->numa_mem_mb[id]
								   : cpu->numa_threads[id];
		return PAPI_OK;
	case PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY:
		if (id >= cpu->threads)
			return PAPI_EINVAL;
		*(int *)value = cpu->thr_numa[id];
		return PAPI_OK;
	default:
		break;
	}
	if (id != 0)
		return PAPI_EINVAL;	/* one CPU device */
	if (cache_attr(attr, &k, &field)) {
		*u = field == 0 ? cpu->cache[k].size : field == 1 ? cpu->cache[k].line
		   : field == 2 ? cpu->cache[k].lines : cpu->cache[k].assoc;
		return PAPI_OK;
	}
	switch (attr) {
	case PAPI_DEV_ATTR__CPU_CHAR_NAME:
		*(const char **)value = cpu->name;
		return PAPI_OK;
	case PAPI_DEV_ATTR__CPU_UINT_FAMILY:
		*u = (unsigned)cpu->family;
		return PAPI_OK;
	case PAPI_DEV_ATTR__CPU_UINT_MODEL:
		*u = (unsigned)cpu->model;
		return PAPI_OK;
	case PAPI_DEV_ATTR__CPU_UINT_STEPPING:
		*u = (unsigned)cpu->stepping;
		return PAPI_OK;
	case PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT:
		*u = (unsigned)cpu->sockets;
		return PAPI_OK;
	case PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT:
		*u = (unsigned)cpu->numas;
		return PAPI_OK;
	case PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT:
		*u = (unsigned)cpu->cores;
		return PAPI_OK;
	case PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT:
		*u = (unsigned)cpu->threads;
		return PAPI_OK;
	default:
		return PAPI_ENOSUPP;
	}
}
