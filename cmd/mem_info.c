/* mem_info.c: `papi mem-info`: the cache and TLB hierarchy (sysfs and CPUID, through libpapi's memhier). */
#include "cli.h"
#include "cmds.h"
#include "tool.h"
#include "papi.h"

#include <limits.h>
#include <stdio.h>

static const struct cli_opt opts[] = {
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"mem-info", "[OPTION]...",
	"Show the caches (level, type, size, line size, lines, associativity, the\n"
	"CPUs that share each: from sysfs, or from CPUID on x86 where sysfs has\n"
	"none) and the TLBs (from CPUID on x86: level, type, page size, entries,\n"
	"associativity) of CPU 0.",
	opts, 0,
};

static const char *type_name(int t)
{
	switch (t) {
	case PAPI_MH_TYPE_INST:
		return "instruction";
	case PAPI_MH_TYPE_DATA:
		return "data";
	default:
		return "unified";
	}
}

static const char *type_title(int t)
{
	switch (t) {
	case PAPI_MH_TYPE_INST:
		return "Instruction";
	case PAPI_MH_TYPE_DATA:
		return "Data";
	default:
		return "Unified";
	}
}

static void assoc_text(int a, char *buf, size_t len)
{
	if (a == SHRT_MAX)
		snprintf(buf, len, "full");
	else if (a <= 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%d-way", a);
}

/* JSON: associativity as a number of ways, "full", or null when unknown. */
static void json_assoc(struct json *j, int a)
{
	json_key(j, "associativity");
	if (a == SHRT_MAX)
		json_str(j, "full");
	else if (a <= 0)
		json_put_null(j);
	else
		json_int(j, a);
}

static void print_json(const struct mh_entry *e, int n)
{
	struct json j;
	json_init(&j, stdout, 1);
	json_obj_begin(&j);
	for (int pass = 0; pass < 2; pass++) {
		json_key(&j, pass ? "tlbs" : "caches");
		json_arr_begin(&j);
		for (int i = 0; i < n; i++) {
			if (e[i].tlb != pass)
				continue;
			json_obj_begin(&j);
			json_kint(&j, "level", e[i].level);
			json_kstr(&j, "type", type_name(e[i].type));
			if (pass) {
				json_kint(&j, "page_size_kb", e[i].page_kb);
				json_kint(&j, "entries", e[i].entries);
				json_assoc(&j, e[i].assoc);
			} else {
				json_kint(&j, "size", e[i].size);
				json_kint(&j, "line_size", e[i].line_size);
				json_kint(&j, "lines", e[i].entries);
				json_assoc(&j, e[i].assoc);
				json_kstr(&j, "shared_cpu_list", e[i].shared);
				json_kstr(&j, "source", e[i].cpuid ? "cpuid" : "sysfs");
			}
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_kint(&j, "caches_without_size", mh_sizeless());
	json_obj_end(&j);
	json_end(&j);
}

static void print_text(const struct mh_entry *e, int n)
{
	char a[32];
	int caches = 0, tlbs = 0, from_cpuid = 0;
	for (int i = 0; i < n; i++)
		from_cpuid |= !e[i].tlb && e[i].cpuid;
	printf("Memory cache and TLB hierarchy of CPU 0\n\nCaches%s:\n",
	       from_cpuid ? " (from CPUID: sysfs describes none)" : "");
	for (int i = 0; i < n; i++) {
		if (e[i].tlb)
			continue;
		caches++;
		assoc_text(e[i].assoc, a, sizeof a);
		printf("  L%d %-11s size %8lld KB  line %4d B  lines %8d  %-8s  shared by CPUs %s\n",
		       e[i].level, type_title(e[i].type), e[i].size / 1024, e[i].line_size,
		       e[i].entries, a, *e[i].shared ? e[i].shared : "?");
	}
	int sizeless = mh_sizeless();
	if (!caches && sizeless)
		printf("  (none: sysfs lists %d of CPU 0 without their sizes)\n", sizeless);
	else if (!caches)
		printf("  (none: neither sysfs nor CPUID describes them here)\n");
	printf("\nTLBs:\n");
	for (int i = 0; i < n; i++) {
		if (!e[i].tlb)
			continue;
		tlbs++;
		assoc_text(e[i].assoc, a, sizeof a);
		printf("  L%d %-11s page %8d KB  entries %6d  %s\n", e[i].level, type_title(e[i].type),
		       e[i].page_kb, e[i].entries, a);
	}
	if (!tlbs)
		printf("  (none known: CPUID describes TLBs on x86 only)\n");
}

/* The layout of PAPI's papi_mem_info, for scripts that read it. */
static void print_classic(const struct mh_entry *e, int n)
{
	printf("Memory Cache and TLB Hierarchy Information.\n");
	printf("------------------------------------------------------------------------\n");
	printf("TLB Information.\n  There may be multiple descriptors for each level of TLB\n"
	       "  if multiple page sizes are supported.\n\n");
	for (int i = 0; i < n; i++) {
		if (!e[i].tlb)
			continue;
		printf("L%d %s TLB:\n", e[i].level, type_title(e[i].type));
		printf("  Page Size:         %6d KB\n", e[i].page_kb);
		printf("  Number of Entries: %6d\n", e[i].entries);
		if (e[i].assoc == SHRT_MAX)
			printf("  Associativity:       Full\n\n");
		else
			printf("  Associativity:     %6d\n\n", e[i].assoc);
	}
	printf("\nCache Information.\n\n");
	for (int i = 0; i < n; i++) {
		if (e[i].tlb)
			continue;
		printf("L%d %s Cache:\n", e[i].level, type_title(e[i].type));
		printf("  Total size:        %6lld KB\n", e[i].size / 1024);
		printf("  Line size:         %6d B\n", e[i].line_size);
		printf("  Number of Lines:   %6d\n", e[i].entries);
		if (e[i].assoc == SHRT_MAX)
			printf("  Associativity:       Full\n\n");
		else
			printf("  Associativity:     %6d\n\n", e[i].assoc);
	}
}

int cmd_mem_info(int argc, char **argv)
{
	struct cli_ctx c;
	struct mh_entry e[MH_MAX_ENTRIES];
	int o, json = 0, n;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		switch (o) {
		case 'j':
			json = 1;
			break;
		}
	}
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);

	n = mh_scan(e, MH_MAX_ENTRIES);
	if (n > MH_MAX_ENTRIES)
		n = MH_MAX_ENTRIES;
	if (json)
		print_json(e, n);
	else if (cli_is_classic(argv))
		print_classic(e, n);
	else
		print_text(e, n);
	return cli_finish(spec.name, CLI_OK);
}
