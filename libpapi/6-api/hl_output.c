/* hl_output.c: the region API's report: JSON, the per-rank file under papi_hl_output, rotation, PAPI_REPORT. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "6-api/hl.h"

#define HL_DIR "papi_hl_output"
#define HL_KEYFILE ".papi_run"

/* ------------------------------------------------------------------ JSON */

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n;
	unsigned cp;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* s as a JSON string: quotes, backslashes and control characters escaped,
 * bytes that are not UTF-8 replaced by U+FFFD. */
static void put_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	putc('"', f);
	while (*p) {
		int n = utf8_len(p);
		if (n == 0) {
			fputs("\\ufffd", f);
			p++;
		} else if (*p == '"' || *p == '\\') {
			putc('\\', f);
			putc(*p++, f);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, (size_t)n, f);
			p += n;
		}
	}
	putc('"', f);
}

static void indent(FILE *f, int level)
{
	putc('\n', f);
	for (int i = 0; i < level; i++)
		fputs("  ", f);
}

/* "key": value with value a whole number (locale plays no part in %lld). */
static void put_num(FILE *f, int level, int *first, const char *key, long long v)
{
	fputs(*first ? "" : ",", f);
	*first = 0;
	indent(f, level);
	put_str(f, key);
	fprintf(f, ": %lld", v);
}

/* A region's values; nspc: nanoseconds per cycle when regions keep cycles
 * only (hl_tsc_time). */
static void put_values(FILE *f, int level, int first, const long long *v, double nspc)
{
	put_num(f, level, &first, "cycles", v[HL_CYCLES]);
	long long ns = v[HL_REALNS];
	if (hl_tsc_time) {
		double x = (double)v[HL_CYCLES] * nspc;
		ns = (long long)(x < 0 ? x - 0.5 : x + 0.5);
	}
	put_num(f, level, &first, "real_time_nsec", ns);
	for (int e = 0; e < hl_nev; e++)
		put_num(f, level, &first, hl_ev[e].name, v[HL_FIRST_EVENT + e]);
}

/* The rank of this process in its MPI job (from the launcher's
 * environment; MPI itself is not needed), or -1 when not under one. */
static int hl_rank(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID",
					    "ALPS_APP_PE", "PMIX_RANK" };
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *s = getenv(vars[i]);
		char *end;
		if (!s || !*s)
			continue;
		errno = 0;
		long r = strtol(s, &end, 10);
		if (!*end && !errno && r >= 0 && r <= 99999999)
			return (int)r;
	}
	return -1;
}

static struct hl_thread **threads_sorted(int *n)
{
	int cap = atomic_load(&hl_nthreads), k = 0;
	struct hl_thread **v = calloc((size_t)cap + 1, sizeof *v);
	if (!v)
		return NULL;
	for (struct hl_thread *t = atomic_load(&hl_threads); t && k < cap; t = t->next)
		v[k++] = t;
	/* The list is newest first: reverse it into id order. */
	for (int i = 0; i < k / 2; i++) {
		struct hl_thread *x = v[i];
		v[i] = v[k - 1 - i];
		v[k - 1 - i] = x;
	}
	*n = k;
	return v;
}

int hl_output_json(FILE *f)
{
	int nt, rank = hl_rank(), first;
	struct hl_thread **ts = threads_sorted(&nt);
	char host[256] = "";

	if (!ts)
		return PAPI_ENOMEM;
	double nspc = hl_tsc_time ? hl_ns_per_cycle() : 0;
	gethostname(host, sizeof host - 1);
	fputs("{", f);
	indent(f, 1);
	fputs("\"papi_version\": \"7.0.0.0\",", f);
	indent(f, 1);
	fputs("\"hostname\": ", f);
	put_str(f, host);
	fputs(",", f);
	indent(f, 1);
	if (rank >= 0)
		fprintf(f, "\"rank\": %d,", rank);
	else
		fputs("\"rank\": null,", f);
	indent(f, 1);
	fprintf(f, "\"pid\": %ld,", (long)getpid());
	indent(f, 1);
	fprintf(f, "\"cpu_in_mhz\": %lld,", (long long)(hwinfo_mhz() + 0.5));
	indent(f, 1);
	fputs("\"event_definitions\": {", f);
	for (int e = 0; e < hl_nev; e++) {
		fputs(e ? "," : "", f);
		indent(f, 2);
		put_str(f, hl_ev[e].name);
		fputs(": { \"component\": ", f);
		put_str(f, hl_ev[e].cmp);
		fprintf(f, ", \"type\": \"%s\" }", hl_ev[e].instant ? "instant" : "delta");
	}
	fputs(hl_nev ? "\n  }," : "},", f);
	indent(f, 1);
	fputs("\"threads\": [", f);
	for (int i = 0; i < nt; i++) {
		struct hl_thread *t = ts[i];
		fputs(i ? "," : "", f);
		indent(f, 2);
		fprintf(f, "{ \"id\": %d, \"tid\": %ld, \"regions\": [", t->id, (long)t->tid);
		int n = atomic_load_explicit(&t->nreg, memory_order_acquire), out = 0;
		for (int r = 0; r < n; r++) {
			struct hl_region *g = hl_region_at(t, r);
			if (g->count == 0 && g->reads == 0)
				continue;
			fputs(out++ ? "," : "", f);
			indent(f, 3);
			fputs("{ ", f);
			put_str(f, g->name);
			fputs(": {", f);
			first = 1;
			put_num(f, 4, &first, "region_count", g->count);
			fputs(",", f);
			indent(f, 4);
			fputs("\"parent_region\": ", f);
			if (g->parent >= 0)
				put_str(f, hl_region_at(t, g->parent)->name);
			else
				fputs("null", f);
			put_values(f, 4, 0, g->val, nspc);
			if (g->reads) {
				put_num(f, 4, &first, "read_count", g->reads);
				fputs(",", f);
				indent(f, 4);
				fputs("\"last_read\": {", f);
				put_values(f, 5, 1, g->rd, nspc);
				indent(f, 4);
				fputs("}", f);
			}
			indent(f, 3);
			fputs("} }", f);
		}
		if (out)
			indent(f, 2);
		fputs("] }", f);
	}
	if (nt)
		indent(f, 1);
	fputs("]\n}\n", f);
	free(ts);
	return ferror(f) ? PAPI_ESYS : PAPI_OK;
}

/* ------------------------------------------------------------------ the output directory */

/* What all processes of one run share, so that the ranks of an MPI job use
 * one directory and a new run moves an old one aside. */
static void run_key(char *buf, size_t len)
{
	static const char *const job[] = { "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid", "SLURM_JOB_ID",
					   "PBS_JOBID", "ALPS_APP_ID" };
	char host[128] = "";
	gethostname(host, sizeof host - 1);
	for (size_t i = 0; i < sizeof job / sizeof job[0]; i++) {
		const char *s = getenv(job[i]);
		if (s && *s) {
			const char *step = getenv("SLURM_STEP_ID");
			snprintf(buf, len, "%s=%s.%s\n", job[i], s, i == 2 && step ? step : "");
			return;
		}
	}
	/* Ranks without a job id share their launcher (the parent). */
	if (hl_rank() >= 0)
		snprintf(buf, len, "ppid=%ld@%s\n", (long)getppid(), host);
	else
		snprintf(buf, len, "pid=%ld@%s\n", (long)getpid(), host);
}

/* Move the old directory path aside as path-YYYYMMDD-HHMMSS[-N], never
 * onto an existing name. 0, or -1 with errno (ENOENT: already gone). */
static int rotate(const char *path)
{
	struct stat st;
	char stamp[32], to[PATH_MAX + 64];
	if (lstat(path, &st) < 0)
		return -1;
	time_t when = st.st_mtime;
	struct tm tm;
	localtime_r(&when, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	for (int n = 0; n < 10000; n++) {
		if (n)
			snprintf(to, sizeof to, "%s-%s-%d", path, stamp, n);
		else
			snprintf(to, sizeof to, "%s-%s", path, stamp);
		if (renameat2(AT_FDCWD, path, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST && errno != ENOTEMPTY)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* Does directory fd hold this run's key? 1 yes, 0 another run's, -1 none yet. */
static int key_matches(int fd, const char *key)
{
	char got[256];
	int kf = openat(fd, HL_KEYFILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (kf < 0)
		return -1;
	ssize_t n = read(kf, got, sizeof got - 1);
	close(kf);
	if (n <= 0)
		return -1;
	got[n] = 0;
	return !strcmp(got, key);
}

/* Open (making it, or moving an older run's aside) this run's output
 * directory. Returns its fd, or -1 with *why set. */
static int open_dir(char *path, size_t len, const char **why)
{
	const char *base = getenv("PAPI_OUTPUT_DIRECTORY");
	char key[256];
	int fd = -1;

	run_key(key, sizeof key);
	if ((size_t)snprintf(path, len, "%s/%s", base && *base ? base : ".", HL_DIR) >= len) {
		*why = "path too long";
		return -1;
	}
	/* PAPI_OUTPUT_DIRECTORY itself is made when missing (one level, as
	 * a user would with mkdir): only papi_hl_output below it is ours. */
	if (base && *base)
		(void)mkdir(base, 0755);
	for (int tries = 0; tries < 200; tries++) {
		if (mkdir(path, 0755) == 0) {
			if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
				break;
			int kf = openat(fd, HL_KEYFILE, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (kf >= 0) {
				ssize_t w = write(kf, key, strlen(key));
				close(kf);
				if (w == (ssize_t)strlen(key))
					return fd;
			}
			break;
		}
		if (errno != EEXIST)
			break;
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			int m = key_matches(fd, key);
			if (m == 1)
				return fd;
			struct stat st;
			/* Just made by another rank of this run, key not yet written? */
			if (m < 0 && tries < 100 && fstat(fd, &st) == 0 && time(NULL) - st.st_mtime < 3) {
				close(fd);
				fd = -1;
				nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
				continue;
			}
			close(fd);
			fd = -1;
		}
		if (rotate(path) < 0 && errno != ENOENT)
			break;
	}
	*why = strerror(errno ? errno : EEXIST);
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Write len bytes of data as rank file name in dir fd: into a new temporary
 * file, then renamed into place without replacing anything but the file an
 * earlier report of this process wrote. */
static int write_file(int fd, const char *name, const char *data, size_t len, int replace)
{
	char tmp[128];
	snprintf(tmp, sizeof tmp, ".%s.%ld.tmp", name, (long)getpid());
	int out = openat(fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0)
		return -1;
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(out, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	int ok = done == len;
	ok = close(out) == 0 && ok;
	if (ok)
		ok = replace ? renameat(fd, tmp, fd, name) == 0
			     : renameat2(fd, tmp, fd, name, RENAME_NOREPLACE) == 0;
	if (!ok) {
		int e = errno;
		unlinkat(fd, tmp, 0);
		errno = e;
		return -1;
	}
	return 0;
}

int hl_output_write(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static int written;	/* this process wrote its rank file before */
	char *buf = NULL, path[PATH_MAX], name[64];
	size_t len = 0;
	const char *why = NULL;
	int ret = PAPI_OK, rank = hl_rank();

	pthread_mutex_lock(&lock);
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		ret = PAPI_ENOMEM;
		goto out;
	}
	ret = hl_output_json(f);
	if (fclose(f) != 0 && ret == PAPI_OK)
		ret = PAPI_ENOMEM;
	if (ret != PAPI_OK)
		goto out;
	const char *rep = getenv("PAPI_REPORT");
	if (rep && *rep && strcmp(rep, "0")) {
		fwrite(buf, 1, len, stdout);
		fflush(stdout);
	}
	snprintf(name, sizeof name, "rank_%06d.json", rank >= 0 ? rank : (int)getpid());
	int fd = open_dir(path, sizeof path, &why);
	if (fd < 0) {
		ret = PAPI_ESYS;
		goto out;
	}
	if (write_file(fd, name, buf, len, written) < 0) {
		why = strerror(errno);
		ret = PAPI_ESYS;
	} else {
		written = 1;
	}
	close(fd);
out:
	if (ret == PAPI_ESYS)
		fprintf(stderr, "PAPI high-level: cannot write the report %s/%s: %s\n", path, name,
			why ? why : "unknown error");
	pthread_mutex_unlock(&lock);
	free(buf);
	return ret;
}
