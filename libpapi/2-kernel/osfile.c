/* osfile.c: reading /proc and /sys files, read again after a signal, under a root that only test binaries move, noting one that is there but cannot be read. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* ------------------------------------------------------------------ faults
 * The first file that is there but could not be read (an open failing
 * for want of memory, a read failing with EIO), and how many such reads
 * failed, since the process started: the information read from it is
 * missing, which only the reader's caller can say (papi avail, papi
 * native). Kept for the process's life, since some of it is read only
 * once (the hardware description). */
static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;
static char fault_path[PATH_MAX];
static int fault_err, fault_n;

/* os_absent: see kernel.h. */
int os_absent(int err)
{
	switch (err) {
	case ENOENT: case ENOTDIR: case ENODEV: case ENXIO: case EACCES: case EPERM:
	case EOPNOTSUPP: case ENODATA:
		return 1;
	}
	return 0;
}

/* os_fault_note: see kernel.h. */
void os_fault_note(const char *path, int err)
{
	if (os_absent(err))
		return;
	pthread_mutex_lock(&fault_lock);
	if (!fault_n++) {
		snprintf(fault_path, sizeof fault_path, "%s", path);
		fault_err = err ? err : EIO;
	}
	pthread_mutex_unlock(&fault_lock);
}

/* os_fault: see kernel.h. */
int os_fault(char *path, size_t len, int *n)
{
	pthread_mutex_lock(&fault_lock);
	int e = fault_n ? fault_err : 0;
	snprintf(path, len, "%s", fault_n ? fault_path : "");
	*n = fault_n;
	pthread_mutex_unlock(&fault_lock);
	return e;
}

/* Note a failure (errno err) on rel under directory descriptor dirfd,
 * named by the directory's path as the kernel gives it (its sysfs device
 * rather than the link that led there); errno is kept. */
static void note_at(int dirfd, const char *rel, int err)
{
	if (os_absent(err))
		return;
	char link[64], dir[PATH_MAX], path[PATH_MAX + 256];
	ssize_t n = -1;
	if (dirfd != AT_FDCWD && rel[0] != '/') {
		snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
		n = readlink(link, dir, sizeof dir - 1);
	}
	if (n > 0) {
		dir[n] = '\0';
		snprintf(path, sizeof path, "%s%s%s", dir, *rel ? "/" : "", rel);
	} else
		snprintf(path, sizeof path, "%s", rel);
	os_fault_note(path, err);
	errno = err;
}

int os_open(const char *path)
{
	char full[1024];
	if (os_path(full, sizeof full, path) < 0)
		return -1;
	int fd = io_real_open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		note_at(AT_FDCWD, full, errno);
	return fd;
}

int os_open_dir(const char *path)
{
	char full[1024];
	if (os_path(full, sizeof full, path) < 0)
		return -1;
	return os_open_at(AT_FDCWD, full, O_DIRECTORY);
}

/* os_open_at: see kernel.h. */
int os_open_at(int dirfd, const char *rel, int flags)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | flags);
	if (fd < 0)
		note_at(dirfd, rel, errno);
	return fd;
}

/* os_dir_at: see kernel.h. */
DIR *os_dir_at(int dirfd, const char *rel)
{
	int fd = os_open_at(dirfd, rel, O_DIRECTORY);
	if (fd < 0)
		return NULL;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		io_real_close(fd);
		note_at(dirfd, rel, e);
	}
	return d;
}

/* The bytes and read calls of every os_pread: the io component takes the
 * library's own reads out of the process's totals. */
static long long own_bytes, own_calls;

void os_own_reads(long long *bytes, long long *calls)
{
	*bytes = __atomic_load_n(&own_bytes, __ATOMIC_RELAXED);
	*calls = __atomic_load_n(&own_calls, __ATOMIC_RELAXED);
}

/* os_pread without noting a failure. */
static ssize_t pread_whole(int fd, char *buf, size_t len)
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

ssize_t os_pread(int fd, char *buf, size_t len)
{
	ssize_t n = pread_whole(fd, buf, len);
	if (n < 0)
		note_at(fd, "", errno);
	return n;
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

/* os_read_bytes: see kernel.h. */
ssize_t os_read_bytes(int dirfd, const char *rel, char *buf, size_t len)
{
	int fd = os_open_at(dirfd, rel, 0);
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
	ssize_t n = os_read_bytes(dirfd, rel, buf, len);
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
