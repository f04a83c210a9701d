/* io.c: the io component: the process's I/O totals from /proc/self/io, each field an event under its own name. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "4-components/components.h"

static const struct {
	const char *name, *desc, *units;
} fields[] = {
	{ "rchar", "Bytes the process's read-like calls returned (read, pread, readv, sendfile ...), "
		   "from the page cache or not", "bytes" },
	{ "wchar", "Bytes the process's write-like calls passed on (write, pwrite, writev ...)", "bytes" },
	{ "syscr", "Read-like system calls of the process", "calls" },
	{ "syscw", "Write-like system calls of the process", "calls" },
	{ "read_bytes", "Bytes the process caused to be fetched from storage", "bytes" },
	{ "write_bytes", "Bytes the process caused to be sent to storage", "bytes" },
	{ "cancelled_write_bytes", "Bytes the process kept from being written to storage "
				   "(truncating dirty page cache)", "bytes" },
};
#define NFIELDS ((int)(sizeof fields / sizeof *fields))
#define PATH "/proc/self/io"

/* /proc/self/io stays open: a read is one pread. The descriptor names the
 * process that opened it, so a forked child opens its own. Reading the file
 * is itself a read() of the process, as are the other components' reads of
 * /proc: every os_pread of the library is taken out of rchar and syscr
 * (os_own_reads), so that an interval with no I/O reads 0. */
static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static int io_fd = -1;
static long long base_bytes, base_calls;	/* os_own_reads at this process's start */
static pthread_once_t io_atfork_once = PTHREAD_ONCE_INIT;

static void io_child(void)
{
	/* the parent's descriptor and reads are not the child's */
	if (io_fd >= 0)
		io_real_close(io_fd);
	io_fd = -1;
	os_own_reads(&base_bytes, &base_calls);
	pthread_mutex_init(&io_lock, NULL);
}

static void io_atfork(void)
{
	pthread_atfork(NULL, NULL, io_child);
}

/* Parse the file's text into raw[]: PAPI_OK, or PAPI_ESYS naming the first
 * field missing. */
static int io_parse(const char *text, long long *raw)
{
	for (int i = 0; i < NFIELDS; i++) {
		size_t n = strlen(fields[i].name);
		const char *p = text;
		while ((p = strstr(p, fields[i].name)) &&
		       ((p != text && p[-1] != '\n') || p[n] != ':'))
			p += n;
		if (!p) {
			papi_set_reason("io: %s has no field %s", PATH, fields[i].name);
			return PAPI_ESYS;
		}
		raw[i] = strtoll(p + n + 1, NULL, 10);
	}
	return PAPI_OK;
}

static int io_sample(long long *raw)
{
	char buf[1024];
	long long own_bytes, own_calls;
	pthread_mutex_lock(&io_lock);
	/* the kernel counts this read after the values it returns */
	os_own_reads(&own_bytes, &own_calls);
	if (io_fd < 0)
		io_fd = os_open(PATH);
	ssize_t n = io_fd < 0 ? -1 : os_pread(io_fd, buf, sizeof buf);
	int ret = n < 0 ? PAPI_ESYS : io_parse(buf, raw);
	if (n < 0)
		papi_set_reason("io: cannot read %s: %s", PATH, strerror(errno));
	if (ret == PAPI_OK && os_root_is_real()) {
		raw[0] -= own_bytes - base_bytes;
		raw[2] -= own_calls - base_calls;
	}
	pthread_mutex_unlock(&io_lock);
	return ret;
}

static int io_init(char *why, size_t len)
{
	pthread_once(&io_atfork_once, io_atfork);
	long long raw[NFIELDS];
	if (io_sample(raw) != PAPI_OK) {
		char path[1024];
		if (os_path(path, sizeof path, PATH) == 0 && access(path, F_OK) != 0 && errno == ENOENT)
			snprintf(why, len, "no %s: this kernel keeps no I/O accounting per task "
				 "(CONFIG_TASK_IO_ACCOUNTING)", PATH);
		else
			snprintf(why, len, "%s", papi_last_reason());
		return PAPI_ECMP;
	}
	return PAPI_OK;
}

static void io_shutdown(void)
{
	pthread_mutex_lock(&io_lock);
	if (io_fd >= 0)
		io_real_close(io_fd);
	io_fd = -1;
	pthread_mutex_unlock(&io_lock);
}

static int io_nevents(void)
{
	return NFIELDS;
}

static int io_event(int ev, struct cmp_event *out)
{
	if (ev < 0 || ev >= NFIELDS)
		return PAPI_ENOEVNT;
	*out = (struct cmp_event){ fields[ev].name, fields[ev].desc, fields[ev].units, 0 };
	return PAPI_OK;
}

const struct component cmp_io = {
	.name = "io",
	.short_name = "io",
	.description = "I/O of this process: the fields of /proc/self/io",
	.granularity = PAPI_GRN_PROC,
	.init = io_init,
	.shutdown = io_shutdown,
	.nevents = io_nevents,
	.event = io_event,
	.sample = io_sample,
	CMP_SAMPLED_OPS,
};
