/* powercap.c: the powercap component: the energy and power limits of the RAPL zones the kernel's powercap class lists (/sys/class/powercap/intel-rapl:*), with the energy counters' wrap-around handled. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "4-components/components.h"

/*
 * Each zone is a directory intel-rapl:N (a package, or psys: the whole
 * platform) or intel-rapl:N:M (a part of package N: core, uncore, dram),
 * with a name file and these files, each an event named as PAPI 7's
 * powercap component names it (ENERGY_UJ:ZONE0, ENERGY_UJ:ZONE0_SUBZONE1;
 * ZONE is the package's number from "package-N", SUBZONE the M):
 *   energy_uj             ENERGY_UJ, the energy used since start, in uJ
 *   max_energy_range_uj   MAX_ENERGY_RANGE_UJ, where energy_uj wraps to 0
 *   constraint_0/1_*      power limits (uW) and their time windows (us)
 *   enabled               ENABLED, 1 when the limits are enforced
 * The counter wraps at max_energy_range_uj (about 262 kJ: minutes under
 * load); each read adds the change since the last modulo that range, so a
 * set read at least once per range never loses a wrap. Zones the kernel
 * names otherwise (psys) are ENERGY_UJ:PSYS and so on.
 *
 * energy_uj is readable only by root since Linux 5.10 (CVE-2020-8694: its
 * resolution leaked secrets to a side channel); an unreadable file is no
 * event, and the component is disabled when no energy file is readable.
 * There is no software estimate of energy: without these files nothing
 * here measures it, and the component says so.
 */

#define DIR_PATH "/sys/class/powercap"

static const struct {
	const char *file, *event, *units, *what;
	int sub;		/* a subzone has it too */
} files[] = {
	{ "energy_uj", "ENERGY_UJ", "uJ", "Energy used since start", 1 },
	{ "max_energy_range_uj", "MAX_ENERGY_RANGE_UJ", "uJ", "Where the energy counter wraps to 0", 1 },
	{ "constraint_0_max_power_uw", "MAX_POWER_A_UW", "uW", "Highest power limit A may be set to", 1 },
	{ "constraint_0_power_limit_uw", "POWER_LIMIT_A_UW", "uW", "Power limit A (long term)", 1 },
	{ "constraint_0_time_window_us", "TIME_WINDOW_A_US", "us", "Time window of power limit A", 1 },
	{ "constraint_1_max_power_uw", "MAX_POWER_B_UW", "uW", "Highest power limit B may be set to", 0 },
	{ "constraint_1_power_limit_uw", "POWER_LIMIT_B_UW", "uW", "Power limit B (short term)", 0 },
	/* PAPI 7's name, without the _US its other windows have */
	{ "constraint_1_time_window_us", "TIME_WINDOW_B", "us", "Time window of power limit B", 0 },
	{ "enabled", "ENABLED", "", "1 when the zone's power limits are enforced", 1 },
};
#define NFILES ((int)(sizeof files / sizeof *files))

struct pevent {
	char name[100];
	char desc[256];
	const char *units;
	int fd;
	int energy;		/* ENERGY_UJ: counted, wraps */
	long long range;	/* its zone's max_energy_range_uj, 0 unknown */
	long long last;		/* the file's last value */
	long long total;	/* energy since the first read, wraps undone */
};

static pthread_mutex_t pc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pevent *evs;
static int nevs, capevs;
static int denied;		/* energy files this process may not read */

static long long read_fd(int fd, int *err)
{
	char buf[64];
	ssize_t n = os_pread(fd, buf, sizeof buf);
	char *end;
	*err = n < 0 ? errno : 0;
	if (n <= 0)
		return -1;
	long long v = strtoll(buf, &end, 10);
	if (end == buf || v < 0) {
		*err = EINVAL;
		return -1;
	}
	return v;
}

/* A zone's name file ("package-0", "core", "psys"), "" when none. */
static void zone_name(const char *dir, char *out, size_t len)
{
	char path[640];
	snprintf(path, sizeof path, "%s/%s/name", DIR_PATH, dir);
	ssize_t n = os_read(path, out, len);
	if (n < 0)
		n = 0;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* The ZONE part of a top zone's events: "ZONE0" for package-0, else its
 * name upper-cased ("PSYS"). */
static void zone_label(const char *zname, const char *dir, char *out, size_t len)
{
	if (!strncmp(zname, "package-", 8) && zname[8]) {
		snprintf(out, len, "ZONE%d", atoi(zname + 8));
		return;
	}
	const char *src = *zname ? zname : dir;
	size_t i = 0;
	for (; src[i] && i + 1 < len; i++) {
		char c = src[i];
		out[i] = c >= 'a' && c <= 'z' ? (char)(c - 32) : (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_';
	}
	out[i] = '\0';
}

static int add_event(void)
{
	if (nevs == capevs) {
		int cap = capevs ? 2 * capevs : 32;
		struct pevent *n = realloc(evs, (size_t)cap * sizeof *n);
		if (!n)
			return PAPI_ENOMEM;
		evs = n;
		capevs = cap;
	}
	memset(&evs[nevs], 0, sizeof evs[nevs]);
	evs[nevs].fd = -1;
	return PAPI_OK;
}

/* The events of zone dir (intel-rapl:N or intel-rapl:N:M). */
static int add_zone(const char *dir, int sub)
{
	char zname[64], label[64], top[64], topname[64] = "", where[200];
	zone_name(dir, zname, sizeof zname);
	if (sub) {
		int n = 0, m = 0;
		sscanf(dir, "intel-rapl:%d:%d", &n, &m);
		snprintf(top, sizeof top, "intel-rapl:%d", n);
		zone_name(top, topname, sizeof topname);
		zone_label(topname, top, label, sizeof label);
		size_t l = strlen(label);
		snprintf(label + l, sizeof label - l, "_SUBZONE%d", m);
		snprintf(where, sizeof where, "%.63s's %.63s (%.63s)", *topname ? topname : top,
			 *zname ? zname : "part", dir);
	} else {
		zone_label(zname, dir, label, sizeof label);
		snprintf(where, sizeof where, "%.63s (%.63s)", *zname ? zname : dir, dir);
	}
	long long range = 0;
	int first = nevs;
	for (int f = 0; f < NFILES; f++) {
		if (sub && !files[f].sub)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s/%s", DIR_PATH, dir, files[f].file);
		int fd = os_open(path);
		if (fd < 0) {
			denied += (errno == EACCES || errno == EPERM) && f == 0;
			continue;
		}
		int err;
		long long v = read_fd(fd, &err);
		if (v < 0) {
			denied += (err == EACCES || err == EPERM) && f == 0;
			close(fd);
			continue;
		}
		if (add_event() != PAPI_OK) {
			close(fd);
			return PAPI_ENOMEM;
		}
		struct pevent *e = &evs[nevs++];
		e->fd = fd;
		e->units = files[f].units;
		e->energy = f == 0;
		e->last = e->total = v;
		if (f == 1)
			range = v;
		snprintf(e->name, sizeof e->name, "%.32s:%.63s", files[f].event, label);
		snprintf(e->desc, sizeof e->desc, "%s: %s%s", where, files[f].what,
			 f == 0 ? " (wrap-around at max_energy_range_uj undone)" : "");
	}
	for (int i = first; i < nevs; i++)
		evs[i].range = range;
	return PAPI_OK;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void pc_shutdown(void)
{
	pthread_mutex_lock(&pc_lock);
	for (int i = 0; i < nevs; i++)
		close(evs[i].fd);
	free(evs);
	evs = NULL;
	nevs = capevs = denied = 0;
	pthread_mutex_unlock(&pc_lock);
}

static int pc_init(char *why, size_t len)
{
	char full[1024];
	os_path(full, sizeof full, DIR_PATH);
	DIR *d = os_dir_at(AT_FDCWD, full);
	int r = PAPI_OK, nz = 0, energy = 0;
	char **names = NULL;
	if (d) {
		struct dirent *de;
		int cap = 0;
		while ((de = readdir(d)) && r == PAPI_OK) {
			if (strncmp(de->d_name, "intel-rapl:", 11))
				continue;
			if (nz == cap) {
				cap = cap ? 2 * cap : 16;
				char **n = realloc(names, (size_t)cap * sizeof *n);
				if (!n) {
					r = PAPI_ENOMEM;
					break;
				}
				names = n;
			}
			if (!(names[nz] = strdup(de->d_name)))
				r = PAPI_ENOMEM;
			else
				nz++;
		}
		closedir(d);
	}
	if (nz > 1)	/* the kernel's order is none: zones by name, parts after theirs */
		qsort(names, (size_t)nz, sizeof *names, by_name);
	pthread_mutex_lock(&pc_lock);
	for (int i = 0; i < nz && r == PAPI_OK; i++)
		r = add_zone(names[i], strchr(names[i] + 11, ':') != NULL);
	for (int i = 0; i < nevs; i++)
		energy += evs[i].energy;
	pthread_mutex_unlock(&pc_lock);
	for (int i = 0; i < nz; i++)
		free(names[i]);
	free(names);
	if (r == PAPI_OK && !nz) {
		snprintf(why, len, "No RAPL zones: %s has no intel-rapl:* (no RAPL here, as in "
			 "most VMs); no software estimate stands in", DIR_PATH);
		r = PAPI_ECMP;
	} else if (r == PAPI_OK && !energy) {
		snprintf(why, len, "%s: %s", DIR_PATH, denied > 0
			 ? "energy_uj is readable only by root since Linux 5.10 (CVE-2020-8694): "
			   "run as root"
			 : "no zone has an energy_uj file this process can read");
		r = PAPI_ECMP;
	}
	if (r != PAPI_OK)
		pc_shutdown();
	return r;
}

static int pc_nevents(void)
{
	return nevs;
}

static int pc_event(int ev, struct cmp_event *out)
{
	if (ev < 0 || ev >= nevs)
		return PAPI_ENOEVNT;
	*out = (struct cmp_event){ evs[ev].name, evs[ev].desc, evs[ev].units, !evs[ev].energy };
	return PAPI_OK;
}

/* Every file's value; an energy counter's as its total since the first
 * read, each change taken modulo its range. */
static int pc_sample(long long *raw)
{
	int r = PAPI_OK;
	pthread_mutex_lock(&pc_lock);
	for (int i = 0; i < nevs && r == PAPI_OK; i++) {
		struct pevent *e = &evs[i];
		int err;
		long long v = read_fd(e->fd, &err);
		if (v < 0) {
			papi_set_reason("powercap: cannot read %s: %s", e->name, strerror(err));
			r = PAPI_ESYS;
			break;
		}
		if (!e->energy) {
			raw[i] = v;
			continue;
		}
		long long d = v - e->last;
		if (d < 0)	/* wrapped at the range (once: reads come more often) */
			d = e->range > 0 && e->last <= e->range ? e->range - e->last + 1 + v : v;
		e->total += d;
		e->last = v;
		raw[i] = e->total;
	}
	pthread_mutex_unlock(&pc_lock);
	return r;
}

const struct component cmp_powercap = {
	.name = "powercap",
	.short_name = "powercap",
	.description = "Linux powercap energy measurements (RAPL zones)",
	.granularity = PAPI_GRN_SYS,
	.init = pc_init,
	.shutdown = pc_shutdown,
	.nevents = pc_nevents,
	.event = pc_event,
	.sample = pc_sample,
	CMP_SAMPLED_OPS,
};
