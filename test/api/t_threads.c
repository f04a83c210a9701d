/* t_threads.c: eight threads count their own work at once; registry, thread data and locks. */
#include <sys/syscall.h>
#include <unistd.h>

#include "llapi_util.h"

#define NTHR 8

static int tclk;

struct job {
	int idx;
	double work;		/* seconds of CPU to burn */
	long long count;	/* task-clock ns counted */
	double cpu;		/* CPU time measured by the thread itself */
	double wall;		/* ns from before PAPI_start to after PAPI_stop */
	int err;
	void *tls;
};

static unsigned long my_id(void)
{
	return (unsigned long)syscall(SYS_gettid);
}

static pthread_barrier_t go;

static void *worker(void *arg)
{
	struct job *j = arg;
	int es = PAPI_NULL;
	j->err = PAPI_register_thread();
	if (!j->err)
		j->err = PAPI_set_thr_specific(PAPI_USR1_TLS, j);
	if (!j->err)
		j->err = PAPI_create_eventset(&es);
	if (!j->err)
		j->err = PAPI_add_event(es, tclk);
	pthread_barrier_wait(&go);	/* everyone counts at the same time */
	long long w0 = PAPI_get_real_nsec();
	if (!j->err)
		j->err = PAPI_start(es);
	double c0 = thread_cpu_s();
	spin_cpu(j->work);
	j->cpu = (thread_cpu_s() - c0) * 1e9;
	if (!j->err)
		j->err = PAPI_stop(es, &j->count);
	j->wall = (double)(PAPI_get_real_nsec() - w0);
	void *p = NULL;
	PAPI_get_thr_specific(PAPI_USR1_TLS, &p);
	j->tls = p;
	pthread_barrier_wait(&go);	/* stay registered until the main thread looked */
	pthread_barrier_wait(&go);
	set_free(&es);
	PAPI_unregister_thread();
	return NULL;
}

static void concurrent(void)
{
	pthread_t th[NTHR];
	struct job j[NTHR];
	pthread_barrier_init(&go, NULL, NTHR + 1);
	for (int i = 0; i < NTHR; i++) {
		j[i] = (struct job){ .idx = i, .work = 0.02 * (i + 1) };
		pthread_create(&th[i], NULL, worker, &j[i]);
	}
	pthread_barrier_wait(&go);
	pthread_barrier_wait(&go);
	int n = 0;
	is_int(PAPI_list_threads(NULL, &n), PAPI_OK, "list_threads counts");
	ok(n >= NTHR + 1, "all %d workers and main are registered (%d)", NTHR, n);
	PAPI_thread_id_t ids[NTHR + 4];
	int cap = NTHR + 4;
	PAPI_list_threads(ids, &cap);
	int found = 0;
	for (int i = 0; i < cap; i++)
		found += ids[i] == my_id();
	is_int(found, 1, "the main thread's id (from the id function) is listed once");
	PAPI_all_thr_spec_t all;
	PAPI_thread_id_t aid[NTHR + 4];
	void *adata[NTHR + 4];
	all.num = NTHR + 4;
	all.id = aid;
	all.data = adata;
	is_int(PAPI_get_thr_specific(PAPI_TLS_ALL_THREADS | PAPI_USR1_TLS, (void **)&all), PAPI_OK,
	       "thread data of all threads");
	int seen = 0;
	for (int i = 0; i < all.num; i++)
		for (int k = 0; k < NTHR; k++)
			seen += all.data[i] == &j[k];
	is_int(seen, NTHR, "every worker's PAPI_USR1_TLS pointer is there");
	pthread_barrier_wait(&go);
	for (int i = 0; i < NTHR; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&go);
	for (int i = 0; i < NTHR; i++) {
		is_int(j[i].err, PAPI_OK, "thread %d: register, create, add, start, stop", i);
		/* What the counting window guarantees: at most the thread's
		 * wall time around it (another thread's work would show up as
		 * more), and about the CPU time measured inside it. The
		 * kernel's task-clock runs behind the thread's CPU clock on a
		 * busy VM: a raw perf_event_open task-clock over 100 ms of
		 * spinning read 0.5-7% less than CLOCK_THREAD_CPUTIME_ID at a
		 * load of 11 on 2 CPUs, so the lower bound allows 20%. */
		ok((double)j[i].count >= 0.8 * j[i].cpu && (double)j[i].count <= j[i].wall,
		   "thread %d counted its own %.0f ms of work (%lld ns: measured %.0f ns CPU "
		   "within %.0f ns)", i, j[i].work * 1e3, j[i].count, j[i].cpu, j[i].wall);
		ok(j[i].tls == &j[i], "thread %d: its own thread-specific pointer", i);
	}
	n = 0;
	PAPI_list_threads(NULL, &n);
	is_int(n, 1, "after unregistering only main is left");
}

/* As in PAPI 7.0, the thread that initialized the library is known without
 * registering, here and across a shutdown; another thread sees it too. */
static void *count_threads(void *arg)
{
	PAPI_list_threads(NULL, arg);
	return NULL;
}

static void initial_thread(void)
{
	int n = 0;
	pthread_t th;
	pthread_create(&th, NULL, count_threads, &n);
	pthread_join(th, NULL);
	is_int(n, 1, "another thread lists the initializing thread");
	n = 0;
	is_int(PAPI_list_threads(NULL, &n), PAPI_OK, "list_threads after init");
	is_int(n, 1, "the initializing thread is listed without registering");
	PAPI_thread_id_t id[2];
	n = 2;
	PAPI_list_threads(id, &n);
	ok(n == 1 && id[0] == (PAPI_thread_id_t)syscall(SYS_gettid), "its id is its tid (no id function yet)");
	is_int(PAPI_register_thread(), PAPI_OK, "registering it again");
	n = 0;
	PAPI_list_threads(NULL, &n);
	is_int(n, 1, "is idempotent");
	is_int(PAPI_unregister_thread(), PAPI_OK, "unregister the initializing thread");
	n = 0;
	PAPI_list_threads(NULL, &n);
	is_int(n, 0, "then no thread is listed");
	PAPI_shutdown();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init again after shutdown");
	n = 0;
	PAPI_list_threads(NULL, &n);
	is_int(n, 1, "the initializing thread is listed again");
}

static void registry_errors(void)
{
	void *p;
	int n = 1;
	is_int(PAPI_thread_init(NULL), PAPI_EINVAL, "thread_init(NULL): PAPI_EINVAL");
	is_int(PAPI_thread_init(my_id), PAPI_OK, "thread_init");
	is_int(PAPI_thread_init(my_id), PAPI_OK, "thread_init again with the same function");
	ok(PAPI_is_initialized() & PAPI_THREAD_LEVEL_INITED, "PAPI_THREAD_LEVEL_INITED is set");
	is_int((long long)PAPI_thread_id(), (long long)my_id(), "PAPI_thread_id is the id function's answer");
	is_int(PAPI_list_threads(NULL, NULL), PAPI_EINVAL, "list_threads(NULL, NULL): PAPI_EINVAL");
	n = 0;
	PAPI_thread_id_t id[2];
	is_int(PAPI_list_threads(id, &n), PAPI_EINVAL, "list_threads with room for none: PAPI_EINVAL");
	is_int(PAPI_set_thr_specific(PAPI_NUM_TLS, &n), PAPI_EINVAL, "set_thr_specific bad tag: PAPI_EINVAL");
	is_int(PAPI_get_thr_specific(-1, &p), PAPI_EINVAL, "get_thr_specific bad tag: PAPI_EINVAL");
	is_int(PAPI_get_thr_specific(PAPI_USR2_TLS, NULL), PAPI_EINVAL, "get_thr_specific NULL: PAPI_EINVAL");
	is_int(PAPI_set_thr_specific(PAPI_USR2_TLS, &n), PAPI_OK, "set_thr_specific");
	p = NULL;
	PAPI_get_thr_specific(PAPI_USR2_TLS, &p);
	ok(p == &n, "get_thr_specific returns what was set");
	is_int(PAPI_lock(PAPI_NUM_LOCK), PAPI_EINVAL, "lock out of range: PAPI_EINVAL");
	is_int(PAPI_lock(-1), PAPI_EINVAL, "lock -1: PAPI_EINVAL");
	is_int(PAPI_unlock(PAPI_NUM_LOCK), PAPI_EINVAL, "unlock out of range: PAPI_EINVAL");
}

static long shared_counter;

static void *locker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++) {
		PAPI_lock(PAPI_USR1_LOCK);
		long v = shared_counter;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		shared_counter = v + 1;
		PAPI_unlock(PAPI_USR1_LOCK);
	}
	return NULL;
}

static void locks(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, locker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	is_int(shared_counter, 80000, "PAPI_USR1_LOCK serializes four threads");
}

int main(void)
{
	is_int((long long)PAPI_thread_id(), (long long)(unsigned long)PAPI_EMISC,
	       "PAPI_thread_id before init: PAPI_EMISC");
	is_int(PAPI_thread_init(my_id), PAPI_ENOINIT, "thread_init before library_init: PAPI_ENOINIT");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	initial_thread();
	tclk = code_of("perf::TASK-CLOCK");
	registry_errors();
	locks();
	if (tclk)
		concurrent();
	else
		skip("perf::TASK-CLOCK unknown here", "eight threads count concurrently");
	PAPI_shutdown();
	return tap_done();
}
