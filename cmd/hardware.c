/* hardware.c: `papi hardware`: the CPU, its topology and clock, and whether this runs in a virtual machine, from PAPI_get_hardware_info. */
#include "cli.h"
#include "cmds.h"
#include "papi.h"

#include <stdio.h>
#include <sys/utsname.h>


static const struct cli_opt opts[] = {
	{ "devices", 'D', no_argument, NULL, "the device types PAPI_enum_dev_type lists, and every attribute\n"
	  "of the CPU: caches, NUMA nodes and their memory, each thread's node" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"hardware", "[OPTION]...",
	"Show what PAPI knows about this machine: CPU vendor and model, CPUID\n"
	"family/model/stepping, sockets, cores, threads, NUMA nodes, clock rate,\n"
	"and whether it runs in a virtual machine. With --devices, what the device\n"
	"calls of PAPI 7 (PAPI_enum_dev_type, PAPI_get_dev_attr) answer instead.",
	opts, 0,
};

/* "L1d 32 KB, L1i 32 KB, L2 1 MB" from the caches of the memory hierarchy
 * (the ones papi mem-info shows); "" when none is known. Returns the
 * deepest cache level. */
static int caches_text(const PAPI_mh_info_t *mh, char *buf, size_t len)
{
	size_t n = 0;
	int deepest = 0;
	buf[0] = '\0';
	for (int l = 0; l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
		for (int k = 0; k < PAPI_MH_MAX_LEVELS; k++) {
			const PAPI_mh_cache_info_t *c = &mh->level[l].cache[k];
			if (c->type == PAPI_MH_TYPE_EMPTY || c->size <= 0)
				continue;
			int mb = c->size % (1 << 20) == 0;
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%sL%d%s %d %s", n ? ", " : "",
					      l + 1, c->type == PAPI_MH_TYPE_DATA ? "d" :
						     c->type == PAPI_MH_TYPE_INST ? "i" : "",
					      mb ? c->size >> 20 : c->size >> 10, mb ? "MB" : "KB");
			deepest = l + 1;
		}
	return deepest;
}

static void show_json(const PAPI_hw_info_t *h, const char *os)
{
	struct json j;
	json_init(&j, stdout, 1);
	json_obj_begin(&j);
	json_kstr(&j, "os", os);
	json_kstr(&j, "vendor", h->vendor_string);
	json_kint(&j, "vendor_code", h->vendor);
	json_kstr(&j, "model", h->model_string);
	json_kint(&j, "model_code", h->model);
	json_kdouble(&j, "revision", h->revision);
	json_kint(&j, "family", h->cpuid_family);
	json_kint(&j, "cpuid_model", h->cpuid_model);
	json_kint(&j, "stepping", h->cpuid_stepping);
	json_kint(&j, "total_cpus", h->totalcpus);
	json_kint(&j, "sockets", h->sockets);
	json_kint(&j, "cores_per_socket", h->cores);
	json_kint(&j, "threads_per_core", h->threads);
	json_kint(&j, "numa_nodes", h->nnodes);
	json_kint(&j, "cpus_per_node", h->ncpu);
	json_kint(&j, "max_mhz", h->cpu_max_mhz);
	json_kint(&j, "min_mhz", h->cpu_min_mhz);
	json_kbool(&j, "virtualized", h->virtualized);
	json_kstr(&j, "vm_vendor", h->virtualized ? h->virtual_vendor_string : NULL);
	char caches[256];
	json_kint(&j, "cache_levels", caches_text(&h->mem_hierarchy, caches, sizeof caches));
	json_key(&j, "caches");
	json_arr_begin(&j);
	for (int l = 0; l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
		for (int k = 0; k < PAPI_MH_MAX_LEVELS; k++) {
			const PAPI_mh_cache_info_t *c = &h->mem_hierarchy.level[l].cache[k];
			if (c->type == PAPI_MH_TYPE_EMPTY || c->size <= 0)
				continue;
			json_obj_begin(&j);
			json_kint(&j, "level", l + 1);
			json_kstr(&j, "type", c->type == PAPI_MH_TYPE_DATA ? "data" :
					      c->type == PAPI_MH_TYPE_INST ? "instruction" : "unified");
			json_kint(&j, "size", c->size);
			json_obj_end(&j);
		}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

static void show_text(const PAPI_hw_info_t *h, const char *os)
{
	printf("Operating system      %s\n", os);
	printf("Vendor                %s (%d)\n", h->vendor_string, h->vendor);
	printf("Model                 %s (%d)\n", h->model_string, h->model);
	printf("Family/model/stepping %d/%d/%d (0x%02x/0x%02x/0x%02x)\n", h->cpuid_family,
	       h->cpuid_model, h->cpuid_stepping, h->cpuid_family, h->cpuid_model,
	       h->cpuid_stepping);
	printf("CPUs                  %d\n", h->totalcpus);
	printf("Sockets               %d\n", h->sockets);
	printf("Cores per socket      %d\n", h->cores);
	printf("Threads per core      %d\n", h->threads);
	printf("NUMA nodes            %d (%d CPUs each)\n", h->nnodes, h->ncpu);
	printf("Clock                 %d MHz max, %d MHz min\n", h->cpu_max_mhz, h->cpu_min_mhz);
	if (h->virtualized)
		printf("Virtual machine       yes (%s)\n",
		       h->virtual_vendor_string[0] ? h->virtual_vendor_string : "unknown hypervisor");
	else
		printf("Virtual machine       no\n");
	char caches[256];
	caches_text(&h->mem_hierarchy, caches, sizeof caches);
	printf("Caches                %s (see papi mem-info)\n", caches[0] ? caches : "none known");
}

/* ------------------------------------------------------------------ --devices */

static const char *const type_names[] = { "CPU", "CUDA", "ROCm" };

static unsigned dev_u(void *h, int id, PAPI_dev_attr_e a)
{
	unsigned v = 0;
	return PAPI_get_dev_attr(h, id, a, &v) == PAPI_OK ? v : 0;
}

/* The CPU's caches, in dev attribute order: name, size, line size, lines, ways. */
static const struct {
	const char *name;
	int level;
	const char *type;
	PAPI_dev_attr_e a[4];
} dev_caches[] = {
	{ "L1i", 1, "instruction", { PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_SIZE,
			PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_ASSOC } },
	{ "L1d", 1, "data", { PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_SIZE,
			PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_ASSOC } },
	{ "L2", 2, "unified", { PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_SIZE,
			PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_ASSOC } },
	{ "L3", 3, "unified", { PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_SIZE, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_SIZE,
			PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_COUNT, PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_ASSOC } },
};
#define NDEV_CACHES (int)(sizeof dev_caches / sizeof *dev_caches)

static void cpu_json(struct json *j, void *h)
{
	const char *name = "";
	PAPI_get_dev_attr(h, 0, PAPI_DEV_ATTR__CPU_CHAR_NAME, &name);
	json_kstr(j, "name", name);
	json_kint(j, "family", dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_FAMILY));
	json_kint(j, "model", dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_MODEL));
	json_kint(j, "stepping", dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_STEPPING));
	json_kint(j, "sockets", dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT));
	json_kint(j, "cores_per_socket", dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT));
	unsigned threads = dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT);
	unsigned numas = dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT);
	json_kint(j, "threads", threads);
	json_key(j, "caches");
	json_arr_begin(j);
	for (int c = 0; c < NDEV_CACHES; c++) {
		if (!dev_u(h, 0, dev_caches[c].a[0]))
			continue;
		json_obj_begin(j);
		json_kint(j, "level", dev_caches[c].level);
		json_kstr(j, "type", dev_caches[c].type);
		json_kint(j, "size", dev_u(h, 0, dev_caches[c].a[0]));
		json_kint(j, "line_size", dev_u(h, 0, dev_caches[c].a[1]));
		json_kint(j, "lines", dev_u(h, 0, dev_caches[c].a[2]));
		json_kint(j, "associativity", dev_u(h, 0, dev_caches[c].a[3]));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "numa_nodes");
	json_arr_begin(j);
	for (unsigned k = 0; k < numas; k++) {
		json_obj_begin(j);
		json_kint(j, "node", k);
		json_kint(j, "threads", dev_u(h, (int)k, PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA));
		json_kint(j, "memory_mb", dev_u(h, (int)k, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "thread_numa");
	json_arr_begin(j);
	for (unsigned t = 0; t < threads; t++) {
		int node = -1;
		PAPI_get_dev_attr(h, (int)t, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY, &node);
		json_int(j, node);
	}
	json_arr_end(j);
}

static void cpu_text(void *h)
{
	const char *name = "";
	PAPI_get_dev_attr(h, 0, PAPI_DEV_ATTR__CPU_CHAR_NAME, &name);
	unsigned fam = dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_FAMILY), mod = dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_MODEL);
	unsigned step = dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_STEPPING);
	unsigned threads = dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT);
	unsigned numas = dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT);
	printf("\nCPU 0                 %s\n", name);
	printf("Family/model/stepping %u/%u/%u (0x%02x/0x%02x/0x%02x)\n", fam, mod, step, fam, mod, step);
	printf("Sockets               %u\n", dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT));
	printf("Cores per socket      %u\n", dev_u(h, 0, PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT));
	printf("Hardware threads      %u\n", threads);
	for (int c = 0; c < NDEV_CACHES; c++) {
		unsigned size = dev_u(h, 0, dev_caches[c].a[0]);
		if (!size)
			continue;
		printf("%-3s cache             %u KB, %u-byte lines, %u lines, %u-way\n", dev_caches[c].name,
		       size >> 10, dev_u(h, 0, dev_caches[c].a[1]), dev_u(h, 0, dev_caches[c].a[2]),
		       dev_u(h, 0, dev_caches[c].a[3]));
	}
	printf("NUMA nodes            %u\n", numas);
	for (unsigned k = 0; k < numas; k++)
		printf("  node %-3u            %u threads, %u MB\n", k,
		       dev_u(h, (int)k, PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA),
		       dev_u(h, (int)k, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE));
	printf("Thread affinity      ");
	for (unsigned t = 0; t < threads; t++) {
		int node = -1;
		PAPI_get_dev_attr(h, (int)t, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY, &node);
		printf(" %u:%d", t, node);
	}
	printf("  (CPU:node)\n");
}

/* Every device type and the CPU's attributes, through the device calls. */
static int show_devices(int json)
{
	struct json j;
	void *h, *cpu = NULL;
	int r;
	if (json) {
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_key(&j, "device_types");
		json_arr_begin(&j);
	} else {
		printf("Device types (PAPI_enum_dev_type):\n");
	}
	while ((r = PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &h)) == PAPI_OK) {
		int id = -1, vendor = 0, count = 0;
		const char *vname = "", *status = "";
		PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__INT_PAPI_ID, &id);
		PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__INT_VENDOR_ID, &vendor);
		PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__CHAR_NAME, &vname);
		PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__INT_COUNT, &count);
		PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__CHAR_STATUS, &status);
		const char *tname = id >= 0 && id < 3 ? type_names[id] : "?";
		if (id == PAPI_DEV_TYPE_ID__CPU && count > 0)
			cpu = h;
		if (json) {
			json_obj_begin(&j);
			json_kint(&j, "id", id);
			json_kstr(&j, "type", tname);
			json_kstr(&j, "vendor", vname);
			json_kint(&j, "vendor_id", vendor);
			json_kint(&j, "count", count);
			json_kstr(&j, "status", status);
			json_obj_end(&j);
		} else {
			printf("  %-5s %s (vendor %d): %d device%s; %s\n", tname, vname, vendor, count,
			       count == 1 ? "" : "s", status);
		}
	}
	if (json) {
		json_arr_end(&j);
		json_key(&j, "cpu");
		if (cpu) {
			json_obj_begin(&j);
			cpu_json(&j, cpu);
			json_obj_end(&j);
		} else {
			json_put_null(&j);
		}
		json_obj_end(&j);
		json_end(&j);
	} else if (cpu) {
		cpu_text(cpu);
	}
	return r == PAPI_EINVAL ? CLI_OK : cli_error(spec.name, "PAPI_enum_dev_type: %s", PAPI_strerror(r));
}

int cmd_hardware(int argc, char **argv)
{
	struct cli_ctx c;
	int o, n, r, json = 0, devices = 0;
	char os[2 * 65 + 2] = "unknown";
	struct utsname u;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1)
		if (o == 'j')
			json = 1;
		else if (o == 'D')
			devices = 1;
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		return cli_error(spec.name, "PAPI_library_init: %s", PAPI_strerror(r));
	if (devices) {
		int st = show_devices(json);
		PAPI_shutdown();
		return cli_finish(spec.name, st);
	}
	const PAPI_hw_info_t *h = PAPI_get_hardware_info();
	if (!h) {
		PAPI_shutdown();
		return cli_error(spec.name, "PAPI_get_hardware_info: no information");
	}
	if (uname(&u) == 0)
		snprintf(os, sizeof os, "%s %s", u.sysname, u.release);
	if (json)
		show_json(h, os);
	else
		show_text(h, os);
	PAPI_shutdown();
	return cli_finish(spec.name, CLI_OK);
}
