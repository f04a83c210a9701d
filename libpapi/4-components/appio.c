/* appio.c: the appio component: the I/O calls the calling thread made (read, write, open, lseek, select, recv, fread, fwrite), tallied where libpapi interposes them, under PAPI 7's appio names. */
#include <stdio.h>
#include <string.h>

#include "4-components/components.h"

enum how { DIFF, MEAN, USEC, FDS };

/* Each event: a tally's change since start (DIFF), one tally's change per
 * another's (MEAN), nanoseconds as microseconds (USEC), or descriptors
 * opened minus closed (FDS). */
#define RD(f) (IOT_READ + IO_##f)
#define WR(f) (IOT_WRITE + IO_##f)
#define RV(f) (IOT_RECV + IO_##f)
#define SR(f) (IOT_SOCK_READ + IO_##f)
#define SW(f) (IOT_SOCK_WRITE + IO_##f)
static const struct {
	const char *name, *desc, *units;
	int how, a, b;
} evs[] = {
	{ "READ_BYTES", "Bytes read (read, fread)", "bytes", DIFF, RD(BYTES), 0 },
	{ "READ_CALLS", "Read calls (read, fread)", "calls", DIFF, RD(CALLS), 0 },
	{ "READ_ERR", "Read calls that failed", "calls", DIFF, RD(ERR), 0 },
	{ "READ_INTERRUPTED", "Read calls a signal interrupted (EINTR)", "calls", DIFF, RD(INTR), 0 },
	{ "READ_WOULD_BLOCK", "Read calls on a non-blocking descriptor that found nothing (EAGAIN)",
	  "calls", DIFF, RD(AGAIN), 0 },
	{ "READ_SHORT", "Read calls that returned fewer bytes than asked for, but some", "calls", DIFF,
	  RD(SHORT), 0 },
	{ "READ_EOF", "Read calls that returned end of file", "calls", DIFF, RD(EOF), 0 },
	{ "READ_BLOCK_SIZE", "Bytes asked for per read call, on average", "bytes", MEAN, RD(REQ),
	  RD(CALLS) },
	{ "READ_USEC", "Microseconds spent in read calls", "us", USEC, RD(NS), 0 },
	{ "WRITE_BYTES", "Bytes written (write, fwrite)", "bytes", DIFF, WR(BYTES), 0 },
	{ "WRITE_CALLS", "Write calls (write, fwrite)", "calls", DIFF, WR(CALLS), 0 },
	{ "WRITE_ERR", "Write calls that failed", "calls", DIFF, WR(ERR), 0 },
	{ "WRITE_SHORT", "Write calls that wrote fewer bytes than asked for", "calls", DIFF, WR(SHORT),
	  0 },
	{ "WRITE_INTERRUPTED", "Write calls a signal interrupted (EINTR)", "calls", DIFF, WR(INTR), 0 },
	{ "WRITE_WOULD_BLOCK", "Write calls on a non-blocking descriptor that could write nothing "
			       "(EAGAIN)", "calls", DIFF, WR(AGAIN), 0 },
	{ "WRITE_BLOCK_SIZE", "Bytes asked to write per write call, on average", "bytes", MEAN,
	  WR(REQ), WR(CALLS) },
	{ "WRITE_USEC", "Microseconds spent in write calls", "us", USEC, WR(NS), 0 },
	{ "OPEN_CALLS", "open calls", "calls", DIFF, IOT_OPEN_CALLS, 0 },
	{ "OPEN_ERR", "open calls that failed", "calls", DIFF, IOT_OPEN_ERR, 0 },
	{ "OPEN_FDS", "Descriptors open opened, less those close closed", "descriptors", FDS, 0, 0 },
	{ "SELECT_USEC", "Microseconds spent in select calls", "us", USEC, IOT_SELECT_NS, 0 },
	{ "RECV_BYTES", "Bytes received (recv)", "bytes", DIFF, RV(BYTES), 0 },
	{ "RECV_CALLS", "recv calls", "calls", DIFF, RV(CALLS), 0 },
	{ "RECV_ERR", "recv calls that failed", "calls", DIFF, RV(ERR), 0 },
	{ "RECV_INTERRUPTED", "recv calls a signal interrupted (EINTR)", "calls", DIFF, RV(INTR), 0 },
	{ "RECV_WOULD_BLOCK", "recv calls that found nothing without waiting (EAGAIN)", "calls", DIFF,
	  RV(AGAIN), 0 },
	{ "RECV_SHORT", "recv calls that returned fewer bytes than asked for, but some", "calls", DIFF,
	  RV(SHORT), 0 },
	{ "RECV_EOF", "recv calls that found the connection closed", "calls", DIFF, RV(EOF), 0 },
	{ "RECV_BLOCK_SIZE", "Bytes asked for per recv call, on average", "bytes", MEAN, RV(REQ),
	  RV(CALLS) },
	{ "RECV_USEC", "Microseconds spent in recv calls", "us", USEC, RV(NS), 0 },
	{ "SOCK_READ_BYTES", "Bytes read from sockets with read", "bytes", DIFF, SR(BYTES), 0 },
	{ "SOCK_READ_CALLS", "read calls on sockets", "calls", DIFF, SR(CALLS), 0 },
	{ "SOCK_READ_ERR", "read calls on sockets that failed", "calls", DIFF, SR(ERR), 0 },
	{ "SOCK_READ_SHORT", "read calls on sockets that returned fewer bytes than asked for, but "
			     "some", "calls", DIFF, SR(SHORT), 0 },
	{ "SOCK_READ_WOULD_BLOCK", "read calls on non-blocking sockets that found nothing (EAGAIN)",
	  "calls", DIFF, SR(AGAIN), 0 },
	{ "SOCK_READ_USEC", "Microseconds spent in read calls on sockets", "us", USEC, SR(NS), 0 },
	{ "SOCK_WRITE_BYTES", "Bytes written to sockets with write", "bytes", DIFF, SW(BYTES), 0 },
	{ "SOCK_WRITE_CALLS", "write calls on sockets", "calls", DIFF, SW(CALLS), 0 },
	{ "SOCK_WRITE_ERR", "write calls on sockets that failed", "calls", DIFF, SW(ERR), 0 },
	{ "SOCK_WRITE_SHORT", "write calls on sockets that wrote fewer bytes than asked for", "calls",
	  DIFF, SW(SHORT), 0 },
	{ "SOCK_WRITE_WOULD_BLOCK", "write calls on non-blocking sockets that could write nothing "
				    "(EAGAIN)", "calls", DIFF, SW(AGAIN), 0 },
	{ "SOCK_WRITE_USEC", "Microseconds spent in write calls on sockets", "us", USEC, SW(NS), 0 },
	{ "SEEK_CALLS", "lseek calls", "calls", DIFF, IOT_SEEK_CALLS, 0 },
	{ "SEEK_ABS_STRIDE_SIZE", "The offset given to lseek, without its sign, on average", "bytes",
	  MEAN, IOT_SEEK_ABS, IOT_SEEK_CALLS },
	{ "SEEK_USEC", "Microseconds spent in lseek calls", "us", USEC, IOT_SEEK_NS, 0 },
};
#define NEVS ((int)(sizeof evs / sizeof *evs))

static int appio_init(char *why, size_t len)
{
	const char *problem = io_interpose_problem();
	if (problem) {
		snprintf(why, len, "%s", problem);
		return PAPI_ECMP;
	}
	return PAPI_OK;
}

static int appio_nevents(void)
{
	return NEVS;
}

static int appio_event(int ev, struct cmp_event *out)
{
	if (ev < 0 || ev >= NEVS)
		return PAPI_ENOEVNT;
	*out = (struct cmp_event){ evs[ev].name, evs[ev].desc, evs[ev].units, 0 };
	return PAPI_OK;
}

static int appio_nraw(void)
{
	return IOT_N;
}

/* The calling thread's tallies. */
static int appio_sample(long long *raw)
{
	memcpy(raw, io_tally_self(), IOT_N * sizeof *raw);
	return PAPI_OK;
}

static long long appio_value(int ev, const long long *d, const long long *now)
{
	(void)now;
	switch (evs[ev].how) {
	case MEAN:
		return d[evs[ev].b] > 0 ? d[evs[ev].a] / d[evs[ev].b] : 0;
	case USEC:
		return d[evs[ev].a] / 1000;
	case FDS:
		return d[IOT_OPEN_OK] - d[IOT_CLOSE_OK];
	default:
		return d[evs[ev].a];
	}
}

/* The calls are tallied only while some set holds appio events (s->mark:
 * this one does). */
static int appio_update(struct cmp_set *s)
{
	int ret = cmp_sampled_update(s);
	int want = ret == PAPI_OK && s->n > 0;
	if (want != s->mark) {
		io_tally_use(want ? 1 : -1);
		s->mark = want;
	}
	return ret;
}

static void appio_release(struct cmp_set *s)
{
	if (s->mark)
		io_tally_use(-1);
	s->mark = 0;
	cmp_sampled_release(s);
}

const struct component cmp_appio = {
	.name = "appio",
	.short_name = "appio",
	.description = "The calling thread's read, write, open, close, lseek, select, recv, fread "
		       "and fwrite calls, interposed by libpapi",
	.granularity = PAPI_GRN_THR,
	.init = appio_init,
	.nevents = appio_nevents,
	.event = appio_event,
	.nraw = appio_nraw,
	.sample = appio_sample,
	.value = appio_value,
	.update = appio_update,
	.start = cmp_sampled_start,
	.stop = cmp_sampled_stop,
	.read = cmp_sampled_read,
	.reset = cmp_sampled_reset,
	.accum = cmp_sampled_accum,
	.release = appio_release,
};
