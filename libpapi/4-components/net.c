/* net.c: the net component: each network interface's totals from /proc/net/dev, as net:::IFACE:rx:bytes and the like. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "4-components/components.h"

#define PATH "/proc/net/dev"
/* The columns of /proc/net/dev, in order, and what each counts. */
#define NCOL 16
static const struct {
	const char *name, *desc, *units;
} cols[NCOL] = {
	{ "rx:bytes", "bytes received", "bytes" },
	{ "rx:packets", "packets received", "packets" },
	{ "rx:errors", "receive errors", "packets" },
	{ "rx:dropped", "received packets dropped", "packets" },
	{ "rx:fifo", "receive FIFO buffer errors", "packets" },
	{ "rx:frame", "receive framing errors", "packets" },
	{ "rx:compressed", "compressed packets received", "packets" },
	{ "rx:multicast", "multicast packets received", "packets" },
	{ "tx:bytes", "bytes sent", "bytes" },
	{ "tx:packets", "packets sent", "packets" },
	{ "tx:errors", "transmit errors", "packets" },
	{ "tx:dropped", "packets dropped on sending", "packets" },
	{ "tx:fifo", "transmit FIFO buffer errors", "packets" },
	{ "tx:colls", "collisions while sending", "packets" },
	{ "tx:carrier", "carrier losses while sending", "packets" },
	{ "tx:compressed", "compressed packets sent", "packets" },
};

struct iface {
	char name[32];
	char ev[NCOL][48];	/* "eth0:rx:bytes" */
	char desc[NCOL][96];	/* "eth0: bytes received" */
};

/* The interfaces as /proc/net/dev listed them at initialization; event
 * i*NCOL+c is column c of interface i. */
static pthread_mutex_t net_lock = PTHREAD_MUTEX_INITIALIZER;
static struct iface *ifs;
static int nifs;
static long long *last;		/* each total as last read (an interface that went away keeps it) */
static struct os_text text;	/* the file's text, reused */

/* Read the file into text (lock held): PAPI_OK, PAPI_ENOMEM or PAPI_ESYS. */
static int net_read(void)
{
	return os_text_read(&text, "net", PATH, NULL);
}

/* Each "  name: n n n ..." line of the text: fn(name, values) for every line
 * with all sixteen columns; the number of such lines. */
static int net_lines(void (*fn)(const char *name, const long long *v))
{
	int n = 0;
	for (char *line = text.buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *colon = strchr(line, ':');
		if (!colon || strchr(line, '|'))
			continue;	/* the two header lines */
		*colon = '\0';
		char *name = line + strspn(line, " \t");
		long long v[NCOL];
		char *p = colon + 1, *end;
		int c;
		for (c = 0; c < NCOL; c++, p = end) {
			v[c] = (long long)strtoull(p, &end, 10);
			if (end == p)
				break;
		}
		if (c < NCOL || !*name || strlen(name) >= sizeof ifs->name)
			continue;
		fn(name, v);
		n++;
	}
	return n;
}

static int ifs_cap;

static void count_iface(const char *name, const long long *v)
{
	(void)name, (void)v;
}

static void add_iface(const char *name, const long long *v)
{
	if (nifs == ifs_cap)
		return;	/* one more came between the two reads of init */
	struct iface *f = &ifs[nifs];
	snprintf(f->name, sizeof f->name, "%s", name);
	for (int c = 0; c < NCOL; c++) {
		snprintf(f->ev[c], sizeof f->ev[c], "%s:%s", name, cols[c].name);
		snprintf(f->desc[c], sizeof f->desc[c], "%s: %s", name, cols[c].desc);
		last[nifs * NCOL + c] = v[c];
	}
	nifs++;
}

static void net_shutdown(void)
{
	pthread_mutex_lock(&net_lock);
	free(ifs);
	free(last);
	os_text_free(&text);
	ifs = NULL;
	last = NULL;
	nifs = ifs_cap = 0;
	pthread_mutex_unlock(&net_lock);
}

static int net_init(char *why, size_t len)
{
	pthread_mutex_lock(&net_lock);
	int ret = net_read(), n = 0;
	if (ret == PAPI_OK && (n = net_lines(count_iface)) > 0) {
		ifs = calloc((size_t)n, sizeof *ifs);
		last = calloc((size_t)n * NCOL, sizeof *last);
		ifs_cap = n;
		if (!ifs || !last)
			ret = PAPI_ENOMEM;
		else if ((ret = net_read()) == PAPI_OK)
			net_lines(add_iface);
	}
	if (ret != PAPI_OK)
		snprintf(why, len, "%s", papi_last_reason());
	else if (nifs == 0)
		snprintf(why, len, "%s lists no network interface", PATH);
	pthread_mutex_unlock(&net_lock);
	if (ret != PAPI_OK || nifs == 0) {
		net_shutdown();
		return ret == PAPI_ENOMEM ? ret : PAPI_ECMP;
	}
	return PAPI_OK;
}

static int net_nevents(void)
{
	return nifs * NCOL;
}

static int net_event(int ev, struct cmp_event *out)
{
	if (ev < 0 || ev >= nifs * NCOL)
		return PAPI_ENOEVNT;
	const struct iface *f = &ifs[ev / NCOL];
	*out = (struct cmp_event){ f->ev[ev % NCOL], f->desc[ev % NCOL], cols[ev % NCOL].units, 0 };
	return PAPI_OK;
}

/* A line's values into last[] under its interface (lock held); an
 * interface that came after initialization has no events. */
static int hint;		/* where the previous line's interface was found */
static void store_iface(const char *name, const long long *v)
{
	for (int k = 0; k < nifs; k++) {
		int i = (hint + k) % nifs;
		if (strcmp(ifs[i].name, name) == 0) {
			memcpy(&last[i * NCOL], v, NCOL * sizeof *v);
			hint = i + 1;
			return;
		}
	}
}

static int net_sample(long long *raw)
{
	pthread_mutex_lock(&net_lock);
	int ret = net_read();
	if (ret == PAPI_OK) {
		hint = 0;
		net_lines(store_iface);
		memcpy(raw, last, (size_t)nifs * NCOL * sizeof *raw);
	}
	pthread_mutex_unlock(&net_lock);
	return ret;
}

const struct component cmp_net = {
	.name = "net",
	.short_name = "net",
	.description = "Network interfaces of this machine: the columns of /proc/net/dev",
	.granularity = PAPI_GRN_SYS,
	.init = net_init,
	.shutdown = net_shutdown,
	.nevents = net_nevents,
	.event = net_event,
	.sample = net_sample,
	CMP_SAMPLED_OPS,
};
