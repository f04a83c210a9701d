/* host.c: a program that does not link libpapi and dlopens plugins that do (plugin.c; moda.c and modb.c, which must share one library).
 *   host plugin PLUGIN.so      prints the plugin's count
 *   host pair MODA.so MODB.so  A initializes the library and makes an EventSet, B uses it
 *   host appio APPIO.so        appio.c's appio_count in a plugin: its answer */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void *sym(const char *path, const char *name)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	void *f = h ? dlsym(h, name) : NULL;
	if (!f)
		fprintf(stderr, "host: %s: %s\n", path, dlerror());
	return f;
}

int main(int argc, char **argv)
{
	long long v = 0;
	int r;

	if (argc == 3 && !strcmp(argv[1], "plugin")) {
		int (*count)(long long *) = (int (*)(long long *))sym(argv[2], "plugin_count");
		if (!count)
			return 1;
		if ((r = count(&v)) != 0 || v <= 0) {
			fprintf(stderr, "host: plugin_count: %d, count %lld\n", r, v);
			return 1;
		}
		printf("%lld\n", v);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "pair")) {
		int (*init)(void) = (int (*)(void))sym(argv[2], "moda_init");
		int (*use)(int, long long *) = (int (*)(int, long long *))sym(argv[3], "modb_count");
		if (!init || !use)
			return 1;
		int es = init();
		if (es < 0) {
			fprintf(stderr, "host: moda_init: %d\n", es);
			return 1;
		}
		if ((r = use(es, &v)) != 0 || v <= 0) {
			fprintf(stderr, "host: modb_count: %d, count %lld\n", r, v);
			return 1;
		}
		printf("%lld\n", v);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "appio")) {
		int (*count)(long long *, long long *, char *, size_t) =
			(int (*)(long long *, long long *, char *, size_t))sym(argv[2], "appio_count");
		long long b = 0, c = 0;
		char why[256];
		if (!count)
			return 1;
		if ((r = count(&b, &c, why, sizeof why)) == -2)
			printf("disabled: %s\n", why);
		else
			printf("%lld %lld\n", b, c);
		return r == 0 || r == -2 ? 0 : 1;
	}
	fprintf(stderr, "usage: host plugin PLUGIN.so | host pair MODA.so MODB.so | host appio APPIO.so\n");
	return 2;
}
