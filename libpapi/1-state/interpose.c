/* interpose.c: the program's I/O calls (read, write, open, close, lseek, select, recv, fread, fwrite) passed on to the C library and, while the appio component asks, tallied per thread; only in a library built with make APPIO=1. */
/* These definitions replace the C library's for the whole program, so they
 * must keep its prototypes: no fortified inline versions here. A program
 * that links libpapi does not expect its read and write to be libpapi's:
 * they are defined only when the build asks (PAPI_APPIO_INTERPOSE, make
 * APPIO=1); otherwise the appio component is disabled and says how to get
 * it, and nothing of the C library is replaced. */
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "1-state/state.h"

/* How many appio EventSets hold events: tallying costs an fstat and two
 * clock reads per call, so it happens only while one does. */
static int tally_users;
static __thread long long tally[IOT_N];

void io_tally_use(int delta)
{
	__atomic_add_fetch(&tally_users, delta, __ATOMIC_RELAXED);
}

const long long *io_tally_self(void)
{
	return tally;
}

#if defined(__GLIBC__)
/* The interposed names are the program's: visible even from a library
 * built with hidden symbols. */
#define PUBLIC __attribute__((visibility("default")))

/* glibc's own entry points, of which its public names are aliases: the
 * interposed calls pass on to them (keeping them cancellation points), and
 * the library's own I/O calls them directly, so that appio counts only the
 * program's. */
extern ssize_t __read(int fd, void *buf, size_t n);
extern ssize_t __write(int fd, const void *buf, size_t n);
extern int __open(const char *path, int flags, ...);
extern int __open64(const char *path, int flags, ...);
extern int __close(int fd);
extern off_t __lseek(int fd, off_t off, int whence);
extern int __select(int n, fd_set *r, fd_set *w, fd_set *x, struct timeval *t);
extern size_t _IO_fread(void *p, size_t size, size_t n, FILE *f);
extern size_t _IO_fwrite(const void *p, size_t size, size_t n, FILE *f);

int io_real_open(const char *path, int flags)
{
	return __open(path, flags);
}

int io_real_close(int fd)
{
	return __close(fd);
}

#if !defined(PAPI_APPIO_INTERPOSE)

const char *io_interpose_problem(void)
{
	return "libpapi was built without I/O interposition: rebuild it with make APPIO=1";
}

#else	/* interposed: the definitions below are the program's I/O calls */

/* write as defined here, whatever the program's write resolves to. */
PUBLIC ssize_t write(int fd, const void *buf, size_t n);
extern ssize_t io_own_write(int fd, const void *buf, size_t n) __attribute__((alias("write")));

const char *io_interpose_problem(void)
{
	/* Linked (statically, or as a shared library the program needs),
	 * the program's write reaches this one, perhaps through a tool's
	 * interceptor in front of it (a sanitizer's); loaded with dlopen, the
	 * program's calls were bound to the C library's before libpapi came.
	 * Ask: write nothing to no descriptor through the program's write,
	 * tallying, and see whether the tally moved. A program with no
	 * dynamic loader (fully static) finds no write, and is linked. */
	ssize_t (*w)(int, const void *, size_t) = (ssize_t (*)(int, const void *, size_t))dlsym(
		RTLD_DEFAULT, "write");
	if (!w || w == io_own_write)
		return NULL;
	io_tally_use(1);
	long long before = tally[IOT_WRITE + IO_CALLS];
	int e = errno;
	w(-1, NULL, 0);
	errno = e;
	int reached = tally[IOT_WRITE + IO_CALLS] != before;
	io_tally_use(-1);
	if (!reached)
		return "libpapi came with dlopen, after the program's I/O calls were bound to the "
		       "C library (link libpapi to count them)";
	return NULL;
}


static inline int on(void)
{
	return __builtin_expect(__atomic_load_n(&tally_users, __ATOMIC_RELAXED) > 0, 0);
}

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int is_socket(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* One call of a read- or write-like kind k (the IOT_* block at k): it asked
 * for want bytes and returned r (errno err), taking ns nanoseconds. */
static void tally_call(int k, ssize_t r, size_t want, int err, long long ns)
{
	long long *t = &tally[k];
	t[IO_CALLS]++;
	t[IO_REQ] += (long long)want;
	t[IO_NS] += ns;
	if (r > 0) {
		t[IO_BYTES] += r;
		if ((size_t)r < want)
			t[IO_SHORT]++;
	} else if (r == 0 && want > 0) {
		t[IO_EOF]++;
	} else if (r < 0) {
		t[IO_ERR]++;
		if (err == EINTR)
			t[IO_INTR]++;
		if (err == EAGAIN || err == EWOULDBLOCK)
			t[IO_AGAIN]++;
	}
}

PUBLIC ssize_t read(int fd, void *buf, size_t n)
{
	if (!on())
		return __read(fd, buf, n);
	int sock = is_socket(fd);
	long long t0 = now_ns();
	ssize_t r = __read(fd, buf, n);
	int e = errno;
	long long ns = now_ns() - t0;
	tally_call(IOT_READ, r, n, e, ns);
	if (sock)
		tally_call(IOT_SOCK_READ, r, n, e, ns);
	errno = e;
	return r;
}

PUBLIC ssize_t write(int fd, const void *buf, size_t n)
{
	if (!on())
		return __write(fd, buf, n);
	int sock = is_socket(fd);
	long long t0 = now_ns();
	ssize_t r = __write(fd, buf, n);
	int e = errno;
	long long ns = now_ns() - t0;
	tally_call(IOT_WRITE, r, n, e, ns);
	if (sock)
		tally_call(IOT_SOCK_WRITE, r, n, e, ns);
	errno = e;
	return r;
}

PUBLIC ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	if (!on())
		return recvfrom(fd, buf, n, flags, NULL, NULL);
	long long t0 = now_ns();
	ssize_t r = recvfrom(fd, buf, n, flags, NULL, NULL);
	int e = errno;
	tally_call(IOT_RECV, r, n, e, now_ns() - t0);
	errno = e;
	return r;
}

PUBLIC size_t fread(void *p, size_t size, size_t n, FILE *f)
{
	if (!on())
		return _IO_fread(p, size, n, f);
	long long t0 = now_ns();
	size_t r = _IO_fread(p, size, n, f);
	int e = errno;
	/* fewer items than asked: end of file, or an error */
	ssize_t got = r == n ? (ssize_t)(r * size) : r > 0 || feof(f) ? (ssize_t)(r * size) : -1;
	tally_call(IOT_READ, got, size * n, e, now_ns() - t0);
	errno = e;
	return r;
}

PUBLIC size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	if (!on())
		return _IO_fwrite(p, size, n, f);
	long long t0 = now_ns();
	size_t r = _IO_fwrite(p, size, n, f);
	int e = errno;
	tally_call(IOT_WRITE, r == 0 && n > 0 && size > 0 ? -1 : (ssize_t)(r * size), size * n, e,
		   now_ns() - t0);
	errno = e;
	return r;
}

static void tally_open(int r)
{
	tally[IOT_OPEN_CALLS]++;
	if (r < 0)
		tally[IOT_OPEN_ERR]++;
	else
		tally[IOT_OPEN_OK]++;
}

/* open's third argument is there only when the flags create a file. */
static mode_t open_mode(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? (mode_t)va_arg(ap, int) : 0;
}

PUBLIC int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	int r = __open(path, flags, mode);
	if (on()) {
		int e = errno;
		tally_open(r);
		errno = e;
	}
	return r;
}

PUBLIC int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	int r = __open64(path, flags, mode);
	if (on()) {
		int e = errno;
		tally_open(r);
		errno = e;
	}
	return r;
}

PUBLIC int close(int fd)
{
	int r = __close(fd);
	if (on() && r == 0)
		tally[IOT_CLOSE_OK]++;
	return r;
}

static off_t seek(int fd, off_t off, int whence)
{
	if (!on())
		return __lseek(fd, off, whence);
	long long t0 = now_ns();
	off_t r = __lseek(fd, off, whence);
	int e = errno;
	tally[IOT_SEEK_NS] += now_ns() - t0;
	tally[IOT_SEEK_CALLS]++;
	tally[IOT_SEEK_ABS] += off < 0 ? -(long long)off : (long long)off;
	errno = e;
	return r;
}

PUBLIC off_t lseek(int fd, off_t off, int whence)
{
	return seek(fd, off, whence);
}

PUBLIC off64_t lseek64(int fd, off64_t off, int whence)
{
	return seek(fd, (off_t)off, whence);
}

PUBLIC int select(int n, fd_set *r, fd_set *w, fd_set *x, struct timeval *t)
{
	if (!on())
		return __select(n, r, w, x, t);
	long long t0 = now_ns();
	int ret = __select(n, r, w, x, t);
	int e = errno;
	tally[IOT_SELECT_NS] += now_ns() - t0;
	errno = e;
	return ret;
}

#endif	/* PAPI_APPIO_INTERPOSE */

#else	/* no glibc: nothing is interposed */

const char *io_interpose_problem(void)
{
	return "this C library is not glibc: libpapi cannot interpose its I/O calls";
}

ssize_t io_real_read(int fd, void *buf, size_t n)
{
	return read(fd, buf, n);
}

int io_real_open(const char *path, int flags)
{
	return open(path, flags);
}

int io_real_close(int fd)
{
	return close(fd);
}

#endif
