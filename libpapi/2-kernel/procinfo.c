/* procinfo.c: the running program's text/data/bss ranges, its shared libraries, and its memory use. */
#include <elf.h>
#include <limits.h>
#include <stddef.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "2-kernel/kernel.h"

/* ---- address maps from the loaded ELF segments -------------------------
 * dl_iterate_phdr hands us every loaded object with its program headers and
 * load bias: text is the executable PT_LOAD, data the file-backed part of
 * the writable one, bss its zero-filled tail (p_filesz .. p_memsz). These
 * are the ranges the ELF defines, not whole pages of /proc/self/maps. */
static void map_from_phdrs(const struct dl_phdr_info *info, PAPI_address_map_t *m)
{
	uintptr_t ts = UINTPTR_MAX, te = 0, ds = UINTPTR_MAX, de = 0, bs = UINTPTR_MAX, be = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_flags & PF_X) {
			if (start < ts)
				ts = start;
			if (start + ph->p_memsz > te)
				te = start + ph->p_memsz;
		} else if (ph->p_flags & PF_W) {
			if (start < ds)
				ds = start;
			if (start + ph->p_filesz > de)
				de = start + ph->p_filesz;
			if (ph->p_memsz > ph->p_filesz) {
				if (start + ph->p_filesz < bs)
					bs = start + ph->p_filesz;
				if (start + ph->p_memsz > be)
					be = start + ph->p_memsz;
			}
		}
	}
	m->text_start = ts == UINTPTR_MAX ? NULL : (vptr_t)ts;
	m->text_end = (vptr_t)te;
	m->data_start = ds == UINTPTR_MAX ? NULL : (vptr_t)ds;
	m->data_end = (vptr_t)de;
	m->bss_start = bs == UINTPTR_MAX ? m->data_end : (vptr_t)bs;
	m->bss_end = be ? (vptr_t)be : m->data_end;
}

static PAPI_exe_info_t exe;
static pthread_mutex_t pi_lock = PTHREAD_MUTEX_INITIALIZER;

static int exe_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	map_from_phdrs(info, arg);
	return 1;	/* the first object is the program itself */
}

/* PAPI_get_executable_info: the program's full path, its name, and the
 * text, data and bss ranges of its loaded image. NULL before
 * PAPI_library_init or when /proc/self/exe cannot be read. */
const PAPI_exe_info_t *PAPI_get_executable_info(void)
{
	if (!lib_ready())
		return NULL;
	const PAPI_exe_info_t *ret = &exe;
	pthread_mutex_lock(&pi_lock);
	char path[PAPI_HUGE_STR_LEN];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
	if (n <= 0) {
		ret = NULL;
		goto out;
	}
	path[n] = 0;
	memset(&exe, 0, sizeof exe);
	memcpy(exe.fullname, path, (size_t)n + 1);
	const char *base = strrchr(path, '/');
	snprintf(exe.address_info.name, sizeof exe.address_info.name, "%s", base ? base + 1 : path);
	dl_iterate_phdr(exe_cb, &exe.address_info);
out:
	pthread_mutex_unlock(&pi_lock);
	return ret;
}

/* ---- shared libraries ---------------------------------------------------
 * The table is rebuilt when the set of loaded objects changed (dlopen,
 * dlclose). A caller may still hold the previous table, so old ones are
 * kept until PAPI_shutdown instead of being freed under its feet. */
static PAPI_shlib_info_t shlib;
struct old_map {
	PAPI_address_map_t *map;
	struct old_map *next;
};
static struct old_map *retired;
static unsigned long long seen_adds = ~0ULL, seen_subs = ~0ULL;

struct shl_walk {
	PAPI_address_map_t *map;
	int n, cap;
	unsigned long long adds, subs;
};

static int shl_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct shl_walk *w = arg;
	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
		w->adds = info->dlpi_adds;
		w->subs = info->dlpi_subs;
	}
	/* The program has an empty name; the vDSO has no file. */
	if (!info->dlpi_name || info->dlpi_name[0] != '/')
		return 0;
	if (w->n == w->cap) {
		int cap = w->cap ? w->cap * 2 : 16;
		PAPI_address_map_t *m = realloc(w->map, (size_t)cap * sizeof *m);
		if (!m)
			return 1;
		w->map = m;
		w->cap = cap;
	}
	PAPI_address_map_t *m = &w->map[w->n++];
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "%s", info->dlpi_name);
	map_from_phdrs(info, m);
	return 0;
}

static void procinfo_shutdown(void)
{
	pthread_mutex_lock(&pi_lock);
	while (retired) {
		struct old_map *o = retired;
		retired = o->next;
		free(o->map);
		free(o);
	}
	free(shlib.map);
	shlib.map = NULL;
	shlib.count = 0;
	seen_adds = seen_subs = ~0ULL;
	pthread_mutex_unlock(&pi_lock);
}

/* PAPI_get_shared_lib_info: every shared object loaded now, each with its
 * path and text/data/bss ranges. NULL before PAPI_library_init or when out
 * of memory. The table stays valid until PAPI_shutdown. */
const PAPI_shlib_info_t *PAPI_get_shared_lib_info(void)
{
	if (!lib_ready())
		return NULL;
	papi_on_shutdown(procinfo_shutdown);
	const PAPI_shlib_info_t *ret = &shlib;
	pthread_mutex_lock(&pi_lock);
	struct shl_walk w = { 0 };
	dl_iterate_phdr(shl_cb, &w);
	if (shlib.map && w.adds == seen_adds && w.subs == seen_subs) {
		free(w.map);	/* nothing changed: keep the table callers hold */
		goto out;
	}
	if (shlib.map) {
		struct old_map *o = malloc(sizeof *o);
		if (!o) {
			free(w.map);
			goto out;
		}
		o->map = shlib.map;
		o->next = retired;
		retired = o;
	}
	shlib.map = w.map;
	shlib.count = w.n;
	seen_adds = w.adds;
	seen_subs = w.subs;
out:
	pthread_mutex_unlock(&pi_lock);
	return ret;
}

/* ---- memory use ---------------------------------------------------------- */
static long long status_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	if (!p)
		return PAPI_EINVAL;	/* PAPI's mark for a value this kernel lacks */
	return strtoll(p + strlen(key), NULL, 10);
}

/* PAPI_get_dmem_info: the process's memory use in KB (pagesize in bytes):
 * peak and current size, resident, high-water mark, shared, text, library,
 * heap (data segment), locked, stack, page-table size. A field the kernel
 * does not report holds PAPI_EINVAL. PAPI_EINVAL for NULL, PAPI_ESYS when
 * /proc/self cannot be read, PAPI_ENOINIT. */
int PAPI_get_dmem_info(PAPI_dmem_info_t *d)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!d)
		return PAPI_EINVAL;
	char buf[8192];
	FILE *f = fopen("/proc/self/status", "re");
	if (!f)
		return PAPI_ESYS;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	d->peak = status_kb(buf, "\nVmPeak:");
	d->size = status_kb(buf, "\nVmSize:");
	d->resident = status_kb(buf, "\nVmRSS:");
	d->high_water_mark = status_kb(buf, "\nVmHWM:");
	d->locked = status_kb(buf, "\nVmLck:");
	d->heap = status_kb(buf, "\nVmData:");
	d->stack = status_kb(buf, "\nVmStk:");
	d->text = status_kb(buf, "\nVmExe:");
	d->library = status_kb(buf, "\nVmLib:");
	d->pte = status_kb(buf, "\nVmPTE:");
	d->pagesize = page;
	/* statm: size resident shared text lib data dt, in pages */
	d->shared = PAPI_EINVAL;
	f = fopen("/proc/self/statm", "re");
	if (f) {
		long long sz, res, shr;
		if (fscanf(f, "%lld %lld %lld", &sz, &res, &shr) == 3)
			d->shared = shr * page / 1024;
		fclose(f);
	}
	return PAPI_OK;
}
