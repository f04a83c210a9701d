/* t_procinfo.c: executable ranges contain our own code and data; shared libraries; plausible memory use. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "llapi_util.h"

static int initialized_data = 42;	/* lands in .data */
static char zeroed[65536];		/* lands in .bss */

static int in(const void *p, vptr_t lo, vptr_t hi)
{
	return (uintptr_t)p >= (uintptr_t)lo && (uintptr_t)p < (uintptr_t)hi;
}

static void exe_info(void)
{
	const PAPI_exe_info_t *e = PAPI_get_executable_info();
	ok(e != NULL, "PAPI_get_executable_info");
	if (!e)
		return;
	char self[PAPI_HUGE_STR_LEN];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	self[n > 0 ? n : 0] = 0;
	is_str(e->fullname, self, "fullname is the running binary");
	is_str(e->address_info.name, "t_procinfo", "name is its file name");
	ok(in((void *)(uintptr_t)exe_info, e->address_info.text_start, e->address_info.text_end),
	   "this function lies in text [%p, %p)", e->address_info.text_start, e->address_info.text_end);
	ok(in(&initialized_data, e->address_info.data_start, e->address_info.data_end),
	   "an initialized static lies in data [%p, %p)", e->address_info.data_start, e->address_info.data_end);
	ok(in(&zeroed[100], e->address_info.bss_start, e->address_info.bss_end),
	   "a zeroed static lies in bss [%p, %p)", e->address_info.bss_start, e->address_info.bss_end);
	ok(!in(&initialized_data, e->address_info.text_start, e->address_info.text_end), "data is not in text");
	int local = 0;
	ok(!in(&local, e->address_info.text_start, e->address_info.bss_end), "the stack is in none of them");
}

static void shlib_info(void)
{
	const PAPI_shlib_info_t *s = PAPI_get_shared_lib_info();
	ok(s && s->count > 0, "PAPI_get_shared_lib_info lists libraries");
	if (!s)
		return;
	int libc = -1;
	for (int i = 0; i < s->count; i++)
		if (strstr(s->map[i].name, "libc.so"))
			libc = i;
	ok(libc >= 0, "libc is among them");
	if (libc >= 0)
		ok(in((void *)(uintptr_t)abort, s->map[libc].text_start, s->map[libc].text_end),
		   "abort() lies in libc's text");
	ok(PAPI_get_shared_lib_info() == s, "a second call returns the same table");
}

static void dmem(void)
{
	PAPI_dmem_info_t d;
	is_int(PAPI_get_dmem_info(NULL), PAPI_EINVAL, "get_dmem_info(NULL): PAPI_EINVAL");
	is_int(PAPI_get_dmem_info(&d), PAPI_OK, "get_dmem_info");
	is_int(d.pagesize, sysconf(_SC_PAGESIZE), "pagesize in bytes");
	ok(d.size > 0 && d.resident > 0 && d.resident <= d.size, "0 < resident %lld <= size %lld KB", d.resident, d.size);
	ok(d.peak >= d.size, "peak %lld >= size", d.peak);
	ok(d.high_water_mark >= d.resident, "high-water mark %lld >= resident", d.high_water_mark);
	ok(d.text > 0 && d.text < d.size, "text %lld KB", d.text);
	ok(d.library > 0 && d.library < d.size, "library %lld KB", d.library);
	ok(d.stack > 0 && d.heap > 0, "stack %lld, heap %lld KB", d.stack, d.heap);
	ok(d.shared >= 0 && d.locked >= 0 && d.pte > 0, "shared %lld, locked %lld, page tables %lld KB",
	   d.shared, d.locked, d.pte);
	/* touch 32 MB: resident grows by about that much */
	size_t big = 32u << 20;
	char *volatile p = malloc(big);	/* volatile: the compiler may not elide it */
	if (!p) {
		skip("no memory", "resident grows with use");
		return;
	}
	for (size_t i = 0; i < big; i += 1024)
		p[i] = 1;
	PAPI_dmem_info_t d2;
	PAPI_get_dmem_info(&d2);
	ok(d2.resident - d.resident > 24 * 1024, "resident grew by %lld KB after touching 32 MB",
	   d2.resident - d.resident);
	free(p);
}

int main(void)
{
	ok(PAPI_get_executable_info() == NULL, "executable info before init: NULL");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	zeroed[0] = (char)initialized_data;
	exe_info();
	shlib_info();
	dmem();
	PAPI_shutdown();
	return tap_done();
}
