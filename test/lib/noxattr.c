/* noxattr.c: preloaded (LD_PRELOAD), it makes every file system look as if it kept no extended attributes, as some do. */
#include <errno.h>
#include <stddef.h>
#include <sys/types.h>

int fsetxattr(int fd, const char *name, const void *value, size_t size, int flags)
{
	(void)fd, (void)name, (void)value, (void)size, (void)flags;
	errno = ENOTSUP;
	return -1;
}

ssize_t fgetxattr(int fd, const char *name, void *value, size_t size)
{
	(void)fd, (void)name, (void)value, (void)size;
	errno = ENOTSUP;
	return -1;
}
