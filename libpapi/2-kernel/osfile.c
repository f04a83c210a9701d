/* osfile.c: reading /proc and /sys files for the OS components, under a root that only test binaries move. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "2-kernel/kernel.h"

/* "" is the machine's own tree. Test binaries point it at a fake /proc and
 * /sys (os_set_root); nothing in the shipped library or binary does, and no
 * environment variable reaches it. */
static char os_root_dir[512];

void os_set_root(const char *root)
{
	snprintf(os_root_dir, sizeof os_root_dir, "%s", root ? root : "");
	size_t n = strlen(os_root_dir);
	while (n > 0 && os_root_dir[n - 1] == '/')
		os_root_dir[--n] = '\0';
}

int os_root_is_real(void)
{
	return os_root_dir[0] == '\0';
}

int os_path(char *buf, size_t len, const char *path)
{
	int n = snprintf(buf, len, "%s%s", os_root_dir, path);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int os_open(const char *path)
{
	char full[1024];
	if (os_path(full, sizeof full, path) < 0)
		return -1;
	return io_real_open(full, O_RDONLY | O_CLOEXEC);
}

int os_open_dir(const char *path)
{
	char full[1024];
	if (os_path(full, sizeof full, path) < 0)
		return -1;
	return io_real_open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* The bytes and read calls of every os_pread: the io component takes the
 * library's own reads out of the process's totals. */
static long long own_bytes, own_calls;

void os_own_reads(long long *bytes, long long *calls)
{
	*bytes = __atomic_load_n(&own_bytes, __ATOMIC_RELAXED);
	*calls = __atomic_load_n(&own_calls, __ATOMIC_RELAXED);
}

ssize_t os_pread(int fd, char *buf, size_t len)
{
	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	size_t got = 0;
	while (got < len - 1) {
		ssize_t n = pread(fd, buf + got, len - 1 - got, (off_t)got);
		__atomic_add_fetch(&own_calls, 1, __ATOMIC_RELAXED);
		if (n > 0)
			__atomic_add_fetch(&own_bytes, n, __ATOMIC_RELAXED);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	return (ssize_t)got;
}

ssize_t os_read(const char *path, char *buf, size_t len)
{
	int fd = os_open(path);
	if (fd < 0)
		return -1;
	ssize_t n = os_pread(fd, buf, len);
	int e = errno;
	io_real_close(fd);
	errno = e;
	return n;
}

int os_read_at(int dirfd, const char *rel, char *buf, size_t len)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = os_pread(fd, buf, len);
	io_real_close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		n--;
	buf[n] = '\0';
	return (int)n;
}

ssize_t os_read_all(const char *path, char **out)
{
	*out = NULL;
	int fd = os_open(path);
	if (fd < 0)
		return -1;
	size_t cap = 8192;
	char *buf = NULL;
	ssize_t n;
	for (;;) {
		char *b = realloc(buf, cap);
		if (!b) {
			free(buf);
			io_real_close(fd);
			errno = ENOMEM;
			return -1;
		}
		buf = b;
		/* /proc files have no size: read until a read comes back short */
		n = os_pread(fd, buf, cap);
		if (n < 0 || (size_t)n < cap - 1 || cap >= (64u << 20))
			break;
		cap *= 2;
	}
	int e = errno;
	io_real_close(fd);
	if (n < 0) {
		free(buf);
		errno = e;
		return -1;
	}
	*out = buf;
	return n;
}

/* os_text_read: see kernel.h. */
int os_text_read(struct os_text *t, const char *who, const char *path,
		 int (*whole)(const char *buf))
{
	for (;;) {
		if (!t->buf || t->cap < 4096) {
			char *b = realloc(t->buf, 4096);
			if (!b)
				return PAPI_ENOMEM;
			t->buf = b;
			t->cap = 4096;
		}
		ssize_t n = os_read(path, t->buf, t->cap);
		if (n < 0) {
			papi_set_reason("%s: cannot read %s: %s", who, path, strerror(errno));
			return PAPI_ESYS;
		}
		if ((size_t)n < t->cap - 1 || (whole && whole(t->buf)))
			return PAPI_OK;
		char *b = realloc(t->buf, 2 * t->cap);
		if (!b)
			return PAPI_ENOMEM;
		t->buf = b;
		t->cap *= 2;
	}
}

void os_text_free(struct os_text *t)
{
	free(t->buf);
	t->buf = NULL;
	t->cap = 0;
}
