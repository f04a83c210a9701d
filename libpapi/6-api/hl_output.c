/* hl_output.c: the region API's report: JSON, the per-rank file under papi_hl_output, rotation, PAPI_REPORT. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "6-api/hl.h"

#define HL_DIR "papi_hl_output"

/* ------------------------------------------------------------------ JSON */

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
	text_json_quoted(f, key);
	fprintf(f, ": %lld", v);
}

/* Per event with kernel times, its time enabled and time running summed
 * over the instances in v (ns), as "EVENT": {...} members at level after
 * *first's comma; every number a string in PAPI 7.0's layout (str). Returns
 * how many it wrote. */
static int put_times(FILE *f, int level, int *first, const long long *v, int str)
{
	int n = 0;
	for (int e = 0; e < hl_nev; e++) {
		if (v[hl_en(e)] <= 0)
			continue;
		fputs(*first ? "" : ",", f);
		*first = 0;
		indent(f, level);
		text_json_quoted(f, hl_ev[e].name);
		fprintf(f, str ? ":{\"time_enabled\":\"%lld\",\"time_running\":\"%lld\"}"
			       : ": { \"time_enabled\": %lld, \"time_running\": %lld }",
			v[hl_en(e)], v[hl_run(e)]);
		n++;
	}
	return n;
}

/* "event_times": {...} of put_times after a region's values at level;
 * nothing when no event has kernel times. Readers that take every other
 * key of a region for an event know this one as not an event. */
static void put_region_times(FILE *f, int level, const long long *v)
{
	int any = 0;
	for (int e = 0; e < hl_nev; e++)
		any |= v[hl_en(e)] > 0;
	if (!any)
		return;
	fputs(",", f);
	indent(f, level);
	fputs("\"event_times\": {", f);
	int first = 1;
	put_times(f, level + 1, &first, v, 0);
	indent(f, level);
	fputs("}", f);
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

/* ------------------------------------------------------------------ PAPI 7.0's layout */

/* "key":"value" at level, the value a whole number written as a string, as
 * PAPI 7.0 writes them. */
static void put7(FILE *f, int level, int *first, const char *key, long long v)
{
	fputs(*first ? "" : ",", f);
	*first = 0;
	indent(f, level);
	text_json_quoted(f, key);
	fprintf(f, ":\"%lld\"", v);
}

/* Metric i of values v, as the report states it (real time from the cycles
 * when regions keep cycles only). */
static long long metric(const long long *v, int i, double nspc)
{
	if (i == HL_REALNS && hl_tsc_time) {
		double x = (double)v[HL_CYCLES] * nspc;
		return (long long)(x < 0 ? x - 0.5 : x + 0.5);
	}
	return v[i];
}

static const char *metric_name(int i)
{
	return i == HL_CYCLES ? "cycles" : i == HL_REALNS ? "real_time_nsec" : hl_ev[i - HL_FIRST_EVENT].name;
}

/* The next instance record of t's log from *pos (below end), its number
 * in *no (counted from 0 by the caller), and *pos past it; NULL at the end. */
static const long long *next_instance(struct hl_thread *t, long long *pos, long long end, long long *no)
{
	while (*pos < end) {
		const long long *rec = hl_log_at(t->log, *pos);
		if (rec[0] == HL_REC_PAD) {
			*pos += HL_LOG_CHUNK - *pos % HL_LOG_CHUNK;
		} else if (rec[0] == HL_REC_READ) {
			*pos += HL_READ_HEAD + hl_nval;
		} else {
			*pos += HL_INST_HEAD + hl_nval;
			++*no;
			return rec;
		}
	}
	return NULL;
}

/* The times of t's ended instances, beside its "regions" (PAPI 7.0's
 * readers take every key of an instance for an event, and of a thread
 * only "regions"): "event_times": {"NO": {EVENT: {...}}}. Nothing when no
 * instance has kernel times. */
static void put7_times(FILE *f, struct hl_thread *t, long long end)
{
	long long pos = 0, no = -1;
	int ifirst = 1;
	for (const long long *rec; (rec = next_instance(t, &pos, end, &no));) {
		if (__atomic_load_n(&rec[3], __ATOMIC_ACQUIRE) != HL_ENDED)
			continue;
		int any = 0;
		for (int e = 0; e < hl_nev; e++)
			any |= rec[HL_INST_HEAD + hl_en(e)] > 0;
		if (!any)
			continue;
		fputs(",", f);	/* after "regions", or between two instances */
		if (ifirst) {
			indent(f, 3);
			fputs("\"event_times\":{", f);
		}
		ifirst = 0;
		indent(f, 4);
		fprintf(f, "\"%lld\":{", no);
		int first = 1;
		put_times(f, 5, &first, rec + HL_INST_HEAD, 1);
		indent(f, 4);
		fputs("}", f);
	}
	if (!ifirst) {
		indent(f, 3);
		fputs("}", f);
	}
}

/* One instance (rec) numbered no: its name, parent and values; with reads,
 * each value is {"region_value": ..., "read_1": ..., ...}. */
static void put7_instance(FILE *f, struct hl_thread *t, const long long *rec, long long no, int *first, double nspc)
{
	int k = 1;
	fputs(*first ? "" : ",", f);
	*first = 0;
	indent(f, 4);
	fprintf(f, "\"%lld\":{", no);
	indent(f, 5);
	fputs("\"name\":", f);
	text_json_quoted(f, hl_region_at(t, (int)rec[1])->name);
	fputs(",", f);
	indent(f, 5);
	fprintf(f, "\"parent_region_id\":\"%lld\"", rec[2]);
	long long first_read = __atomic_load_n(&rec[4], __ATOMIC_ACQUIRE);
	for (int i = 0; i < hl_en(0); i++) {
		if (first_read < 0) {
			int no_first = 0;
			put7(f, 5, &no_first, metric_name(i), metric(rec + HL_INST_HEAD, i, nspc));
			continue;
		}
		fputs(",", f);
		indent(f, 5);
		text_json_quoted(f, metric_name(i));
		fputs(":{", f);
		int f2 = 1;
		put7(f, 6, &f2, "region_value", metric(rec + HL_INST_HEAD, i, nspc));
		k = 1;
		for (long long p = first_read; p >= 0; p = __atomic_load_n(hl_log_at(t->log, p) + 1, __ATOMIC_ACQUIRE)) {
			char key[32];
			snprintf(key, sizeof key, "read_%d", k++);
			put7(f, 6, &f2, key, metric(hl_log_at(t->log, p) + HL_READ_HEAD, i, nspc));
		}
		indent(f, 5);
		fputs("}", f);
	}
	indent(f, 4);
	fputs("}", f);
}

/* The report in PAPI 7.0's layout: one entry per ended region instance,
 * numbered per thread in the order they began, every number a string. */
static int output_papi7(FILE *f, struct hl_thread **ts, int nt, double nspc)
{
	const PAPI_hw_info_t *hw = hwinfo_get();
	fputs("{", f);
	indent(f, 1);
	fputs("\"papi_version\":\"7.0.0.0\",", f);
	indent(f, 1);
	fputs("\"cpu_info\":", f);
	text_json_quoted(f, hw ? hw->model_string : "");
	fputs(",", f);
	indent(f, 1);
	fprintf(f, "\"max_cpu_rate_mhz\":\"%d\",", hw ? hw->cpu_max_mhz : 0);
	indent(f, 1);
	fprintf(f, "\"min_cpu_rate_mhz\":\"%d\",", hw ? hw->cpu_min_mhz : 0);
	indent(f, 1);
	fputs("\"event_definitions\":{", f);
	for (int e = 0; e < hl_nev; e++) {
		fputs(e ? "," : "", f);
		indent(f, 2);
		text_json_quoted(f, hl_ev[e].name);
		fputs(":{", f);
		indent(f, 3);
		fputs("\"component\":", f);
		text_json_quoted(f, hl_ev[e].cmp);
		fputs(",", f);
		indent(f, 3);
		fprintf(f, "\"type\":\"%s\"", hl_ev[e].instant ? "instant" : "delta");
		indent(f, 2);
		fputs("}", f);
	}
	if (hl_nev)
		indent(f, 1);
	fputs("},", f);
	indent(f, 1);
	fputs("\"threads\":{", f);
	int tfirst = 1;
	for (int i = 0; i < nt; i++) {
		struct hl_thread *t = ts[i];
		long long end = atomic_load_explicit(&t->nlog, memory_order_acquire), no = -1, pos = 0;
		int rfirst = 1;
		for (const long long *rec; (rec = next_instance(t, &pos, end, &no));) {
			if (__atomic_load_n(&rec[3], __ATOMIC_ACQUIRE) == HL_ENDED) {
				if (rfirst) {
					fputs(tfirst ? "" : ",", f);
					tfirst = 0;
					indent(f, 2);
					fprintf(f, "\"%d\":{", t->id);
					indent(f, 3);
					fputs("\"regions\":{", f);
				}
				put7_instance(f, t, rec, no, &rfirst, nspc);
			}
		}
		if (!rfirst) {
			indent(f, 3);
			fputs("}", f);
			put7_times(f, t, end);
			indent(f, 2);
			fputs("}", f);
		}
	}
	if (!tfirst)
		indent(f, 1);
	fputs("}\n}\n", f);
	return ferror(f) ? PAPI_ESYS : PAPI_OK;
}

/* ------------------------------------------------------------------ the aggregated layout */

int hl_output_json(FILE *f)
{
	int nt, rank = hl_rank(), first;
	struct hl_thread **ts = threads_sorted(&nt);
	char host[256] = "";

	if (!ts)
		return PAPI_ENOMEM;
	double nspc = hl_tsc_time ? hl_ns_per_cycle() : 0;
	if (hl_layout == HL_LAYOUT_PAPI7) {
		int ret = output_papi7(f, ts, nt, nspc);
		free(ts);
		return ret;
	}
	/* This library's own layout, declared as such: a region's totals per
	 * thread (PAPI_HL_LAYOUT=aggregated). */
	gethostname(host, sizeof host - 1);
	fputs("{", f);
	indent(f, 1);
	fputs("\"layout\": \"papi aggregated 1\",", f);
	indent(f, 1);
	fputs("\"library\": \"papi " PAPI_TOOL_VERSION "\",", f);
	indent(f, 1);
	fputs("\"hostname\": ", f);
	text_json_quoted(f, host);
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
		text_json_quoted(f, hl_ev[e].name);
		fputs(": { \"component\": ", f);
		text_json_quoted(f, hl_ev[e].cmp);
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
			text_json_quoted(f, g->name);
			fputs(": {", f);
			first = 1;
			put_num(f, 4, &first, "region_count", g->count);
			fputs(",", f);
			indent(f, 4);
			fputs("\"parent_region\": ", f);
			if (g->parent >= 0)
				text_json_quoted(f, hl_region_at(t, g->parent)->name);
			else
				fputs("null", f);
			put_values(f, 4, 0, g->val, nspc);
			put_region_times(f, 4, g->val);
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

/* papi_hl_output/ holds the measurement files only (PAPI 7.0's
 * papi_hl_output_writer reads every file in it). This run's key goes on the
 * directory as an extended attribute, or where the file system has none,
 * in a hidden file beside it; files are written beside it, then renamed in. */
#define HL_KEY_XATTR "user.papi_hl_run"
#define HL_KEY_FILE ".papi_hl_output.run"

static int no_xattr(int e)
{
	return e == ENOTSUP || e == EOPNOTSUPP || e == EPERM;
}

/* Move the old directory path aside as path-YYYYMMDD-HHMMSS[-N], never
 * onto an existing name, with its key file beside it. 0, or -1 with errno
 * (ENOENT: already gone). */
static int rotate(int basefd, const char *path)
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
		if (renameat2(AT_FDCWD, path, AT_FDCWD, to, RENAME_NOREPLACE) == 0) {
			unlinkat(basefd, HL_KEY_FILE, 0);
			return 0;
		}
		if (errno != EEXIST && errno != ENOTEMPTY)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* Does directory fd (in basefd) hold this run's key? 1 yes, 0 another
 * run's, -1 none yet. */
static int key_matches(int fd, int basefd, const char *key)
{
	char got[256];
	ssize_t n = fgetxattr(fd, HL_KEY_XATTR, got, sizeof got - 1);
	if (n < 0 && no_xattr(errno)) {
		int kf = openat(basefd, HL_KEY_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (kf < 0)
			return -1;
		n = read(kf, got, sizeof got - 1);
		close(kf);
	}
	if (n <= 0)
		return -1;
	got[n] = 0;
	return !strcmp(got, key);
}

/* Mark the new directory fd (in basefd) as this run's. 0, or -1. */
static int key_write(int fd, int basefd, const char *key)
{
	size_t len = strlen(key);
	if (fsetxattr(fd, HL_KEY_XATTR, key, len, XATTR_CREATE) == 0)
		return 0;
	if (!no_xattr(errno))
		return -1;
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%s.%ld", HL_KEY_FILE, (long)getpid());
	int kf = openat(basefd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (kf < 0)
		return -1;
	ssize_t w = write(kf, key, len);
	if (close(kf) != 0 || w != (ssize_t)len || renameat(basefd, tmp, basefd, HL_KEY_FILE) != 0) {
		unlinkat(basefd, tmp, 0);
		return -1;
	}
	return 0;
}

/* Open (making it, or moving an older run's aside) this run's output
 * directory. Returns its fd and *basefd (the directory it is in), or -1
 * with *why set. */
static int open_dir(char *path, size_t len, int *basefd, const char **why)
{
	const char *base = getenv("PAPI_OUTPUT_DIRECTORY");
	char key[256];
	int fd = -1;

	run_key(key, sizeof key);
	base = base && *base ? base : ".";
	if ((size_t)snprintf(path, len, "%s/%s", base, HL_DIR) >= len) {
		*why = "path too long";
		return -1;
	}
	/* PAPI_OUTPUT_DIRECTORY itself is made when missing (one level, as
	 * a user would with mkdir): only papi_hl_output below it is ours. */
	(void)mkdir(base, 0755);
	if ((*basefd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		*why = strerror(errno);
		return -1;
	}
	for (int tries = 0; tries < 200; tries++) {
		if (mkdir(path, 0755) == 0) {
			if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
				break;
			if (key_write(fd, *basefd, key) == 0)
				return fd;
			break;
		}
		if (errno != EEXIST)
			break;
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			int m = key_matches(fd, *basefd, key);
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
		if (rotate(*basefd, path) < 0 && errno != ENOENT)
			break;
	}
	*why = strerror(errno ? errno : EEXIST);
	if (fd >= 0)
		close(fd);
	close(*basefd);
	*basefd = -1;
	return -1;
}

/* Write len bytes of data as rank file name in directory fd: into a new
 * temporary file beside it (in basefd), then renamed into place without
 * replacing anything but the file an earlier report of this process wrote. */
static int write_file(int fd, int basefd, const char *name, const char *data, size_t len, int replace)
{
	char tmp[128];
	snprintf(tmp, sizeof tmp, ".papi_hl_%s.%ld.tmp", name, (long)getpid());
	int out = openat(basefd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
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
		ok = replace ? renameat(basefd, tmp, fd, name) == 0
			     : renameat2(basefd, tmp, fd, name, RENAME_NOREPLACE) == 0;
	if (!ok) {
		int e = errno;
		unlinkat(basefd, tmp, 0);
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
	int basefd = -1, fd = open_dir(path, sizeof path, &basefd, &why);
	if (fd < 0) {
		ret = PAPI_ESYS;
		goto out;
	}
	if (write_file(fd, basefd, name, buf, len, written) < 0) {
		why = strerror(errno);
		ret = PAPI_ESYS;
	} else {
		written = 1;
	}
	close(fd);
	close(basefd);
out:
	if (ret == PAPI_ESYS)
		fprintf(stderr, "PAPI high-level: cannot write the report %s/%s: %s\n", path, name,
			why ? why : "unknown error");
	pthread_mutex_unlock(&lock);
	free(buf);
	return ret;
}
