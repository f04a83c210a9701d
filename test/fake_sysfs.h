/* fake_sysfs.h: a throw-away tree of files shaped like /sys/bus/event_source/devices, for the tests that point the kernel door's PMU directory at it (header only). */
#ifndef PAPI_TEST_FAKE_SYSFS_H
#define PAPI_TEST_FAKE_SYSFS_H

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* fs_make: a new empty directory under $TMPDIR (or /tmp), its path in
 * root (PATH_MAX bytes). 0, or -1 with errno. */
static inline int fs_make(char *root)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(root, PATH_MAX, "%s/papi-sysfs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(root) ? 0 : -1;
}

/* fs_write: write text (a newline added, as sysfs does) to root/rel,
 * making the directories on the way. 0, or -1 with errno. */
static inline int fs_write(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", root, rel) >= (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		int r = mkdir(path, 0755);
		*p = '/';
		if (r < 0 && errno != EEXIST)
			return -1;
	}
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", text);
	return fclose(f);
}

static inline int fs_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* fs_remove: remove the tree at root (nothing when root is ""). */
static inline void fs_remove(const char *root)
{
	if (root && *root)
		nftw(root, fs_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
