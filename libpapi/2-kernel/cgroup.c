/* cgroup.c: the cgroup hierarchy perf_event counts in, found as perf finds it, and a cgroup's directory opened for perf_event_open. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "2-kernel/kernel.h"

/* Whether word w is one of the comma-separated words of list. */
static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, w, n) && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* A mount table (as /proc/self/mounts writes it: device, directory, type,
 * options, ...; a space in a directory written \040) searched for the
 * hierarchy perf_event counts in: a cgroup v1 mount with the perf_event
 * controller, else the cgroup2 mount. */
int pe_cgroup_mount(char *buf, size_t len)
{
	char *tab = NULL;
	if (os_read_all("/proc/self/mounts", &tab) < 0)
		return -1;
	char v2[512] = "";
	int found = 0;
	for (char *line = tab, *next; line && *line && !found; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char dir[512], type[64], opts[512];
		if (sscanf(line, "%*s %511s %63s %511s", dir, type, opts) != 3)
			continue;
		/* \040 and friends: octal escapes of space, tab, newline, backslash */
		char *w = dir;
		for (const char *r = dir; *r; r++) {
			if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
			    r[3] >= '0' && r[3] <= '7') {
				*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
				r += 3;
			} else
				*w++ = *r;
		}
		*w = '\0';
		if (!strcmp(type, "cgroup") && has_word(opts, "perf_event")) {
			snprintf(buf, len, "%s", dir);
			found = 1;
		} else if (!strcmp(type, "cgroup2") && !v2[0])
			snprintf(v2, sizeof v2, "%s", dir);
	}
	free(tab);
	if (!found && v2[0])
		snprintf(buf, len, "%s", v2), found = 1;
	return found ? 0 : (errno = ENOENT, -1);
}

int pe_cgroup_open(const char *name, char *why, size_t len)
{
	char mnt[512];
	if (!name || !*name) {
		snprintf(why, len, "no cgroup named (an empty name)");
		return PAPI_EINVAL;
	}
	if (pe_cgroup_mount(mnt, sizeof mnt) < 0) {
		snprintf(why, len, "cgroup %s: this system mounts no cgroup hierarchy perf_event counts "
			 "in (neither cgroup2 nor a cgroup v1 mount with the perf_event controller)", name);
		return PAPI_ENOSUPP;
	}
	for (const char *p = name; *p; p++)
		if (p[0] == '.' && p[1] == '.' && (p == name || p[-1] == '/') && (p[2] == '/' || !p[2])) {
			snprintf(why, len, "cgroup %s: a cgroup's path may not leave the hierarchy (..)",
				 name);
			return PAPI_EINVAL;
		}
	while (*name == '/')
		name++;
	char path[1024];
	int n = snprintf(path, sizeof path, "%s/%s", mnt, name);
	if (n < 0 || (size_t)n >= sizeof path) {
		snprintf(why, len, "cgroup %s: its path is too long", name);
		return PAPI_EINVAL;
	}
	int fd = os_open_dir(path);
	if (fd < 0) {
		int err = errno;
		snprintf(why, len, "cgroup %s: cannot open %s: %s", *name ? name : "/", path,
			 err == ENOENT ? "no such cgroup" : strerror(err));
		return err == ENOENT || err == ENOTDIR ? PAPI_EINVAL : err == EACCES ? PAPI_EPERM : PAPI_ESYS;
	}
	return fd;
}
