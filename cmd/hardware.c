/* hardware.c: `papi hardware`: the CPU, its topology and clock, and whether this runs in a virtual machine, from PAPI_get_hardware_info. */
#include "cli.h"
#include "cmds.h"
#include "papi.h"

#include <stdio.h>
#include <sys/utsname.h>


static const struct cli_opt opts[] = {
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"hardware", "[OPTION]...",
	"Show what PAPI knows about this machine: CPU vendor and model, CPUID\n"
	"family/model/stepping, sockets, cores, threads, NUMA nodes, clock rate,\n"
	"and whether it runs in a virtual machine.",
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

int cmd_hardware(int argc, char **argv)
{
	struct cli_ctx c;
	int o, n, r, json = 0;
	char os[2 * 65 + 2] = "unknown";
	struct utsname u;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1)
		if (o == 'j')
			json = 1;
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		return cli_error(spec.name, "PAPI_library_init: %s", PAPI_strerror(r));
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
