/* native_probe.c: whether the kernel opens a native event for this user, asked once per event with a counter opened and closed, the answer kept in the event's entry. */
#include <errno.h>

#include "3-naming/naming.h"

/* native_probe: see naming.h. */
int native_probe(int idx, char *why, size_t len)
{
	/* the table's entry itself: its probe field is this file's to set */
	struct native *e = (struct native *)native_get(idx);
	if (!e)
		return PAPI_ENOEVNT;
	int st = __atomic_load_n(&e->probe, __ATOMIC_ACQUIRE);
	if (!st) {
		struct perf_event_attr a = e->attr;
		a.size = sizeof a;
		a.disabled = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.exclude_user = 0;
		int fd = sys->perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		int err = fd < 0 ? errno : 0;
		if (fd >= 0)
			sys->close(fd);
		st = fd >= 0 || err == EACCES || err == EPERM || err == ENOSPC || err == EBUSY ||
				     err == EMFILE || err == ENFILE || err == EAGAIN
			     ? 1 : -err;
		__atomic_store_n(&e->probe, st, __ATOMIC_RELEASE);
	}
	if (st > 0)
		return PAPI_OK;
	if (why && len)
		pe_advice(-st, e->name, &e->attr, 0, -1, NULL, why, len);
	return pe_errno_to_papi(-st);
}
