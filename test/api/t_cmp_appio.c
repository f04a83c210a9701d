/* t_cmp_appio.c: the appio component: the calling thread's I/O calls, tallied exactly where libpapi interposes them (this program links it), and nothing of the library's own I/O or of other threads. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static const char *const names[] = {
	"READ_BYTES", "READ_CALLS", "READ_ERR", "READ_WOULD_BLOCK", "READ_SHORT", "READ_EOF",
	"READ_BLOCK_SIZE", "WRITE_BYTES", "WRITE_CALLS", "WRITE_BLOCK_SIZE", "OPEN_CALLS",
	"OPEN_ERR", "OPEN_FDS", "SEEK_CALLS", "SEEK_ABS_STRIDE_SIZE", "RECV_BYTES", "RECV_CALLS",
	"SOCK_READ_BYTES", "SOCK_READ_CALLS", "SOCK_WRITE_BYTES", "SOCK_WRITE_CALLS",
	"READ_INTERRUPTED", "SELECT_USEC",
};
#define N ((int)(sizeof names / sizeof *names))
enum { RB, RC, RE, RWB, RS, REOF, RBS, WB, WC, WBS, OC, OE, OF, SC, SAS, VB, VC, SRB, SRC, SWB, SWC,
       RI, SU };

static void *other_thread(void *arg)
{
	char buf[64];
	int fd = *(int *)arg;
	for (int i = 0; i < 5; i++)
		if (read(fd, buf, sizeof buf) < 0)
			break;
	return NULL;
}

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	int appio = PAPI_get_component_index("appio");
	ok(appio > 0, "appio is a component");
	const PAPI_component_info_t *ci = PAPI_get_component_info(appio);
	ok(ci && !ci->disabled, "appio is active (%s)", ci ? ci->disabled_reason : "");
	is_int(ci ? ci->num_native_events : 0, 45, "PAPI 7's 45 appio events");
	is_int(ci ? ci->default_granularity : 0, PAPI_GRN_THR, "it counts the calling thread");
	int es = PAPI_NULL, codes[N];
	PAPI_create_eventset(&es);
	for (int i = 0; i < N; i++) {
		char full[64];
		snprintf(full, sizeof full, "appio:::%s", names[i]);
		is_int(PAPI_event_name_to_code(full, &codes[i]), PAPI_OK, "%s", full);
	}
	int c2;
	is_int(PAPI_event_name_to_code("READ_CALLS", &c2), PAPI_OK, "READ_CALLS without its prefix");
	is_int(c2, codes[RC], "is appio:::READ_CALLS (as PAPI 7's appio tests spell it)");
	is_int(PAPI_add_events(es, codes, N), PAPI_OK, "add them all");
	int tc = PAPI_NULL, tces = PAPI_NULL;
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &tc) == PAPI_OK) {
		PAPI_create_eventset(&tces);
		PAPI_add_event(tces, tc);
	}

	char path[] = "/tmp/t_cmp_appio.XXXXXX";
	int tmp = mkstemp(path);
	char blk[1000], buf[4096];
	memset(blk, 'a', sizeof blk);
	if (write(tmp, blk, sizeof blk) != (ssize_t)sizeof blk)
		diag("short write");
	int sv[2], pp[2], pq[2];
	ok(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "a socket pair");
	ok(pipe(pp) == 0 && pipe(pq) == 0, "two pipes");
	fcntl(pp[0], F_SETFL, O_NONBLOCK);
	pthread_t th;
	long long v[N];
	int e[8], k = 0;

	FILE *fnull = fopen("/dev/null", "w"), *fin = fopen(path, "r");
	int dnull = open("/dev/null", O_WRONLY);
	ok(fnull && fin && dnull >= 0, "files to write and read");

	/* Nothing is printed while counting: printing is writing. */
	e[k++] = PAPI_start(es);
	if (tces != PAPI_NULL)
		PAPI_start(tces);
	ssize_t w1 = write(dnull, blk, 300);		/* a write, 300 bytes */
	size_t fw = fwrite(blk, 1, 200, fnull);		/* a write call, 200 bytes */
	off_t s1 = lseek(tmp, 0, SEEK_SET);		/* a seek, |0| */
	ssize_t r1 = read(tmp, buf, 700);		/* 700 bytes */
	ssize_t r2 = read(tmp, buf, 700);		/* the other 300: short */
	off_t s2 = lseek(tmp, -100, SEEK_END);		/* a seek, |-100| */
	ssize_t r3 = read(tmp, buf, 4096);		/* 100 bytes: short */
	ssize_t r4 = read(tmp, buf, 4096);		/* end of file */
	size_t fr = fread(buf, 1, 50, fin);		/* a read call, 50 bytes */
	int fd = open(path, O_RDONLY);			/* an open */
	int bad = open("/nonexistent/t_cmp_appio", O_RDONLY);	/* an open that fails */
	close(fd);					/* a close */
	ssize_t r5 = read(pp[0], buf, 10);		/* EAGAIN: would block, an error */
	ssize_t w2 = write(sv[0], blk, 40);		/* a socket: a write and a socket write */
	ssize_t r6 = read(sv[1], buf, 30);		/* a socket read: 30 */
	ssize_t r7 = recv(sv[1], buf, 30, 0);		/* recv: the other 10 */
	long long rd[4];
	if (tces != PAPI_NULL)
		PAPI_read(tces, rd);			/* the library's own read(): not tallied */
	if (write(pq[1], blk, 5 * 64) != 5 * 64)	/* a write; another thread's reads: not ours */
		diag("short write");
	pthread_create(&th, NULL, other_thread, &pq[0]);
	pthread_join(th, NULL);
	e[k++] = PAPI_read(es, v);
	e[k++] = PAPI_stop(es, v);
	if (tces != PAPI_NULL)
		PAPI_stop(tces, rd);
	fclose(fnull);
	fclose(fin);
	close(dnull);

	is_int(e[0], PAPI_OK, "start");
	is_int(e[1], PAPI_OK, "read");
	is_int(e[2], PAPI_OK, "stop");
	ok(w1 == 300 && fw == 200 && s1 == 0 && r1 == 700 && r2 == 300 && s2 == 900 && r3 == 100 &&
	   r4 == 0 && fr == 50 && fd >= 0 && bad < 0 && r5 < 0 && w2 == 40 && r6 == 30 && r7 == 10,
	   "the I/O went as planned (%zd %zu %ld %zd %zd %ld %zd %zd %zu %d %d %zd %zd %zd %zd)", w1,
	   fw, (long)s1, r1, r2, (long)s2, r3, r4, fr, fd, bad, r5, w2, r6, r7);
	is_int(v[WC], 4, "WRITE_CALLS: write, fwrite, the socket, the pipe");
	is_int(v[WB], 300 + 200 + 40 + 320, "WRITE_BYTES");
	is_int(v[WBS], 860 / 4, "WRITE_BLOCK_SIZE: the mean asked");
	is_int(v[RC], 7, "READ_CALLS: four file reads, fread, the pipe, the socket");
	is_int(v[RB], 700 + 300 + 100 + 50 + 30, "READ_BYTES");
	is_int(v[RE], 1, "READ_ERR: the empty non-blocking pipe");
	is_int(v[RWB], 1, "READ_WOULD_BLOCK: the same");
	is_int(v[RS], 2, "READ_SHORT: 300 of 700, 100 of 4096");
	is_int(v[REOF], 1, "READ_EOF: one");
	is_int(v[RBS], (700 + 700 + 4096 + 4096 + 50 + 10 + 30) / 7, "READ_BLOCK_SIZE: the mean asked");
	is_int(v[RI], 0, "READ_INTERRUPTED: none");
	is_int(v[OC], 2, "OPEN_CALLS: two");
	is_int(v[OE], 1, "OPEN_ERR: one");
	is_int(v[OF], 0, "OPEN_FDS: one opened, one closed");
	is_int(v[SC], 2, "SEEK_CALLS: two");
	is_int(v[SAS], 50, "SEEK_ABS_STRIDE_SIZE: (0 + 100) / 2");
	is_int(v[VC], 1, "RECV_CALLS");
	is_int(v[VB], 10, "RECV_BYTES");
	is_int(v[SRC], 1, "SOCK_READ_CALLS: the read on the socket");
	is_int(v[SRB], 30, "SOCK_READ_BYTES");
	is_int(v[SWC], 1, "SOCK_WRITE_CALLS");
	is_int(v[SWB], 40, "SOCK_WRITE_BYTES");
	is_int(v[SU], 0, "SELECT_USEC: no select");

	/* select is timed */
	struct timeval tv = { 0, 20000 };
	fd_set rs;
	FD_ZERO(&rs);
	FD_SET(pp[0], &rs);
	e[0] = PAPI_start(es);
	select(pp[0] + 1, &rs, NULL, NULL, &tv);
	e[1] = PAPI_stop(es, v);
	is_int(e[0] + e[1], 0, "start, select for 20 ms, stop");
	ok(v[SU] >= 19000 && v[SU] < 5000000, "SELECT_USEC %lld: about 20000", v[SU]);
	is_int(v[RC] + v[WC], 0, "no read or write");

	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	if (tces != PAPI_NULL) {
		PAPI_cleanup_eventset(tces);
		PAPI_destroy_eventset(&tces);
	}
	close(tmp);
	unlink(path);
	PAPI_shutdown();
	return tap_done();
}
