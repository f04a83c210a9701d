/* rank.c: papi stat in an MPI job: which rank this is, per-rank file names, publishing a rank's file, and rank 0 waiting for the job's. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "base.h"

/* Where launchers say rank, size, local rank and job (MPI itself is not
 * needed: the launcher sets these in every rank's environment). The first
 * variable set wins; the rows are in the order the region API reads them. */
static const struct {
	const char *rank, *size, *local, *launcher;
} launchers[] = {
	{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "Open MPI" },
	{ "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "PMI" },
	{ "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "Slurm" },
	{ "ALPS_APP_PE", NULL, NULL, "ALPS" },
	{ "PMIX_RANK", "PMIX_SIZE", "PMIX_LOCAL_RANK", "PMIx" },
};
static const char *const job_vars[] = {
	"PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid", "SLURM_JOB_ID", "PBS_JOBID", "ALPS_APP_ID",
};

/* A whole non-negative number below 10^8 from variable name, or -1. */
static long env_num(const char *name)
{
	const char *s = name ? getenv(name) : NULL;
	char *end;
	if (!s || !*s)
		return -1;
	errno = 0;
	long v = strtol(s, &end, 10);
	return *end || errno || v < 0 || v > 99999999 ? -1 : v;
}

/* Keep letters, digits, '.', '-' and '_'; anything else becomes '_', so a
 * job id can stand in a file name. */
static void name_safe(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '-' || *s == '_'))
			*s = '_';
}

int st_rank_detect(struct st_rank *r)
{
	memset(r, 0, sizeof *r);
	r->size = 1;
	r->local_rank = -1;
	r->pid = (long)getpid();
	if (gethostname(r->host, sizeof r->host - 1) < 0 || !r->host[0])
		strcpy(r->host, "localhost");
	for (size_t i = 0; i < sizeof launchers / sizeof *launchers; i++) {
		long rank = env_num(launchers[i].rank);
		if (rank < 0)
			continue;
		long size = env_num(launchers[i].size);
		r->rank = (int)rank;
		r->size = size > rank ? (int)size : 0;	/* 0: the launcher does not say */
		r->local_rank = (int)env_num(launchers[i].local);
		snprintf(r->launcher, sizeof r->launcher, "%s", launchers[i].launcher);
		r->in_job = 1;
		break;
	}
	for (size_t i = 0; i < sizeof job_vars / sizeof *job_vars; i++) {
		const char *v = getenv(job_vars[i]);
		if (!v || !*v)
			continue;
		const char *step = i == 2 ? getenv("SLURM_STEP_ID") : NULL;
		snprintf(r->job, sizeof r->job, "%s%s%s", v, step && *step ? "." : "", step ? step : "");
		break;
	}
	/* No job id: ranks on one host share their launcher (our parent); a
	 * process outside any job is a job of its own. */
	if (!r->job[0]) {
		/* The pid last, so a host name too long to fit loses its end
		 * rather than the pid. */
		char pid[24];
		int n = snprintf(pid, sizeof pid, "-%ld", r->in_job ? (long)getppid() : r->pid);
		int room = (int)sizeof r->job - 1 - n;
		snprintf(r->job, sizeof r->job, "%.*s%s", room, r->host, pid);
	}
	name_safe(r->job);
	return r->in_job;
}

int st_path_expand(const char *opt, const char *tmpl, const struct st_rank *r, char *out, size_t len,
		   int *placeholders)
{
	size_t k = 0;
	*placeholders = 0;
	for (const char *p = tmpl; *p; p++) {
		char buf[160];
		const char *add = buf;
		if (*p != '%') {
			buf[0] = *p;
			buf[1] = 0;
		} else {
			switch (*++p) {
			case 'r': snprintf(buf, sizeof buf, "%d", r->rank); break;
			case 'h': snprintf(buf, sizeof buf, "%s", r->host); break;
			case 'p': snprintf(buf, sizeof buf, "%ld", r->pid); break;
			case 'j': add = r->job; break;
			case '%': add = "%"; break;
			default:
				return cli_usage("stat", "%s: unknown placeholder '%%%.1s' (%%r rank, %%h "
						 "host, %%p pid, %%j job, %%%% a percent sign)", opt, p), -1;
			}
			*placeholders |= *p == 'r' ? ST_PH_RANK : *p == 'h' ? ST_PH_HOST
					 : *p == 'p' ? ST_PH_PID : *p == 'j' ? ST_PH_JOB : 0;
		}
		size_t n = strlen(add);
		if (k + n >= len)
			return cli_usage("stat", "%s: the file name is too long", opt), -1;
		memcpy(out + k, add, n);
		k += n;
	}
	out[k] = 0;
	return 0;
}

void st_rank_file(const char *dir, const char *job, int rank, char *out, size_t len)
{
	snprintf(out, len, "%s/papi-stat.%s.%d.json", dir, job, rank);
}

int st_rank_claim(const char *path)
{
	struct stat sb;
	if (lstat(path, &sb) == 0)
		return cli_error("stat", "%s exists: a job's files are never overwritten "
				 "(move it away, or count into another directory)", path), -1;
	return 0;
}

FILE *st_rank_open(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');
	int dl = slash ? (int)(slash - path + 1) : 0;
	snprintf(tmp, len, "%.*s.%s.%ld.tmp", dl, path, slash ? slash + 1 : path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		cli_error("stat", "cannot write '%s': %s", tmp, strerror(errno));
		return NULL;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		cli_error("stat", "cannot write '%s': %s", tmp, strerror(errno));
	}
	return f;
}

int st_rank_publish(const char *tmp, const char *path)
{
	/* link() fails when path exists, where rename() would replace it: the
	 * file appears whole, and never over another. */
	if (link(tmp, path) < 0) {
		int err = errno;
		return cli_error("stat", "cannot publish '%s' (the report stays in '%s'): %s", path, tmp,
				 err == EEXIST ? "another process wrote that file meanwhile" : strerror(err)),
		       -1;
	}
	unlink(tmp);
	return 0;
}

int st_rank_mkdir(const char *dir)
{
	struct stat sb;
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return cli_error("stat", "cannot create '%s': %s", dir, strerror(errno)), -1;
	if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode))
		return cli_error("stat", "'%s' is not a directory", dir), -1;
	return 0;
}

int st_rank_wait(const char *dir, const struct st_rank *r, long wait_ms)
{
	int64_t start = st_now_ns();
	for (;;) {
		int have = 0;
		for (int k = 0; k < r->size; k++) {
			char path[PATH_MAX];
			st_rank_file(dir, r->job, k, path, sizeof path);
			have += access(path, F_OK) == 0;
		}
		if (have == r->size)
			return have;
		int64_t left = wait_ms > 0 ? wait_ms * 1000000LL - (st_now_ns() - start) : 100000000;
		if (left <= 0)
			return have;
		/* A forwarded signal (the launcher tearing the job down) ends
		 * the wait: the merge then says which ranks are missing. */
		if (st_wait_signal(left < 100000000 ? left : 100000000))
			return have;
	}
}

