/* threads.c: the thread registry, thread-specific data, user locks, and the fork child's clean start. */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "5-core/core.h"

/* One entry per thread PAPI knows. Entries are added when a thread
 * registers (explicitly, or by creating an EventSet) and removed when it
 * unregisters; the list is only walked by the listing calls, so start, read
 * and stop never touch it or its lock. */
struct thr {
	unsigned long id;	/* id_fn() at registration, else the kernel tid */
	pid_t tid;
	void *tls[PAPI_NUM_TLS];
	struct thr *next;
};

/* Adaptive: threads that register and unregister at the same moment (each
 * OpenMP region of PAPI's omptough) spin briefly on its short sections
 * instead of sleeping in the kernel. */
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#define REGISTRY_LOCK_INIT PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#else
#define REGISTRY_LOCK_INIT PTHREAD_MUTEX_INITIALIZER
#endif
PAPI_FIRST_DATA static pthread_mutex_t thr_lock = REGISTRY_LOCK_INIT;
PAPI_FIRST_DATA static struct thr *threads;
/* The thread that initialized the library is known from then on, as in
 * PAPI 7.0 (PAPI_list_threads counts it). It joins the list the first time
 * the registry is used, in a static entry, so that PAPI_library_init itself
 * only notes it: its tid (0 once joined) and its pthread. */
static struct thr initial;
PAPI_FIRST_DATA static pid_t initial_tid;
PAPI_FIRST_DATA static pthread_t initial_thread;
static __thread struct thr *self;
/* Bumped by every shutdown: a thread's cached entry (self) is trusted while
 * self_gen equals it, without taking the lock. */
static unsigned registry_gen;
static __thread unsigned self_gen;
PAPI_FIRST_DATA static unsigned long (*id_fn)(void);
static pthread_mutex_t user_locks[PAPI_NUM_LOCK] = {
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER
};

static void thr_free(struct thr *t)
{
	if (t != &initial)
		free(t);
}

static void threads_shutdown(void)
{
	pthread_mutex_lock(&thr_lock);
	while (threads) {
		struct thr *t = threads;
		threads = t->next;
		thr_free(t);
	}
	id_fn = NULL;
	__atomic_add_fetch(&registry_gen, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&thr_lock);
	self = NULL;	/* other threads' caches are checked against the list */
}

static void threads_setup(void);
PAPI_FIRST_DATA static pthread_once_t setup_once = PTHREAD_ONCE_INIT;


/* Take the registry's lock, the initializing thread joining the list first
 * when it has not yet. */
static void registry_lock(void)
{
	pthread_once(&setup_once, threads_setup);
	pthread_mutex_lock(&thr_lock);
	if (initial_tid) {
		int mine = pthread_equal(pthread_self(), initial_thread);
		memset(&initial, 0, sizeof initial);
		initial.tid = mine ? papi_gettid() : initial_tid;
		initial.id = mine && id_fn ? id_fn() : (unsigned long)initial.tid;
		initial.next = threads;
		threads = &initial;
		initial_tid = 0;
	}
}

/* The caller's entry, or NULL when it is not registered (a thread-local
 * cache could outlive a shutdown: it is trusted only while listed). */
static struct thr *find_self(void)
{
	pid_t me = papi_gettid();
	struct thr *t = NULL;
	if (self && self->tid == me)
		for (t = threads; t && t != self; t = t->next)
			;
	for (struct thr *u = threads; !t && u; u = u->next)
		if (u->tid == me)
			t = u;
	if (t) {
		self = t;
		self_gen = registry_gen;
	}
	return t;
}

/* Register the caller (idempotent). PAPI_OK or PAPI_ENOMEM. */
static int register_self(struct thr **out)
{
	/* A thread without a valid cached entry most likely needs a new one:
	 * allocated before the lock, which OpenMP threads registering at the
	 * same moment then hold only to look and link. */
	struct thr *n = NULL;
	if (!self || self_gen != __atomic_load_n(&registry_gen, __ATOMIC_ACQUIRE))
		n = calloc(1, sizeof *n);
	registry_lock();
	struct thr *t = find_self();
	if (!t && (t = n ? n : calloc(1, sizeof *t))) {
		n = NULL;
		t->tid = papi_gettid();
		t->id = id_fn ? id_fn() : (unsigned long)t->tid;
		t->next = threads;
		threads = t;
		self = t;
		self_gen = registry_gen;
	}
	pthread_mutex_unlock(&thr_lock);
	free(n);
	if (out)
		*out = t;
	return t ? PAPI_OK : PAPI_ENOMEM;
}

/* ---- fork: the child starts clean ---------------------------------------
 * The child inherits the parent's descriptors, which count the parent's
 * threads: reading them would report the parent's work (and with inherit
 * the parent already gets the child's). So in the child every set closes
 * them, stops, becomes the child's own (unless attached to another task or
 * bound to a CPU) and reopens fresh counters for it. Only the forking
 * thread exists in the child: the registry keeps just that one. */
static void child_set(EventSet_t *es, void *arg)
{
	mpx_forget(es);
	es_close_all(es);
	es->state = (es->state & ~PAPI_RUNNING) | PAPI_STOPPED;
	if (!es->attach)
		es->owner = *(pid_t *)arg;
	for (int h = 0; es->hwval && h < es->nhw; h++)
		es->hwval[h] = 0;
	if (es->nhw > 0 && es_reopen(es) != PAPI_OK)
		DBG("fork: EventSet %d could not reopen its counters in the child", es->id);
}

static void child_after_fork(void)
{
	thr_lock = (pthread_mutex_t)REGISTRY_LOCK_INIT;
	for (int i = 0; i < PAPI_NUM_LOCK; i++)
		pthread_mutex_init(&user_locks[i], NULL);
	if (!lib_ready())
		return;
	/* Ask the kernel: library.c's handler may not have reset its cache yet. */
	pid_t me = (pid_t)syscall(SYS_gettid);
	struct thr *keep = NULL;
	while (threads) {
		struct thr *t = threads;
		threads = t->next;
		if (t == self && !keep)
			keep = t;
		else
			thr_free(t);
	}
	threads = keep;
	if (keep) {
		keep->tid = me;
		keep->next = NULL;
	}
	es_foreach(child_set, &me);
}

/* Once per process: the fork handler, and the shutdown hook (hooks outlive
 * a shutdown), so that no call takes the hooks' lock again. */
static void threads_setup(void)
{
	pthread_atfork(NULL, NULL, child_after_fork);
	papi_on_shutdown(threads_shutdown);
}

void thr_note_self(void)
{
	pthread_once(&setup_once, threads_setup);
	if (!(__atomic_load_n(&papi_state, __ATOMIC_ACQUIRE) & PAPI_THREAD_LEVEL_INITED))
		return;
	/* Registered already (the common case: a thread making its sets) */
	if (self && self_gen == __atomic_load_n(&registry_gen, __ATOMIC_ACQUIRE))
		return;
	register_self(NULL);
}

void thr_register_initial(void)
{
	initial_tid = (pid_t)syscall(SYS_gettid);	/* no cache: see papi_gettid */
	initial_thread = pthread_self();
}

/* PAPI_thread_init: id_fn returns a unique id for the calling thread
 * (pthread_self, gettid, ...). Calling it again with the same function is
 * harmless. PAPI_EINVAL for NULL or for a different function once one is
 * set (the registered ids would stop matching), PAPI_ENOINIT. */
int PAPI_thread_init(unsigned long (*id_function)(void))
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!id_function)
		return PAPI_EINVAL;
	pthread_once(&setup_once, threads_setup);
	pthread_mutex_lock(&thr_lock);
	int ok = !id_fn || id_fn == id_function;
	if (ok) {
		id_fn = id_function;
		__atomic_or_fetch(&papi_state, PAPI_THREAD_LEVEL_INITED, __ATOMIC_SEQ_CST);
	}
	pthread_mutex_unlock(&thr_lock);
	if (!ok)
		return PAPI_EINVAL;
	return register_self(NULL);
}

/* PAPI_thread_id: the id function's answer for the caller, or
 * (unsigned long)PAPI_EMISC when PAPI_thread_init was not called. */
unsigned long PAPI_thread_id(void)
{
	unsigned long (*fn)(void) = id_fn;
	if (!lib_ready() || !fn)
		return (unsigned long)PAPI_EMISC;
	return fn();
}

/* PAPI_register_thread: make the caller known (idempotent).
 * PAPI_ENOMEM, PAPI_ENOINIT. */
int PAPI_register_thread(void)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	return register_self(NULL);
}

/* PAPI_unregister_thread: forget the caller and its thread-specific data
 * (its EventSets stay). PAPI_OK also when it was not registered. */
int PAPI_unregister_thread(void)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	registry_lock();
	struct thr *t = find_self();
	for (struct thr **pp = &threads; t && *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	self = NULL;
	pthread_mutex_unlock(&thr_lock);
	if (t)
		thr_free(t);	/* after the lock: nobody else can reach it now */
	return PAPI_OK;
}

/* PAPI_list_threads: with id, copy up to *number ids and set *number to
 * the count copied; with id NULL, set *number to the count of threads.
 * PAPI_EINVAL for NULL number or id with *number <= 0. */
int PAPI_list_threads(PAPI_thread_id_t *id, int *number)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!number || (id && *number <= 0))
		return PAPI_EINVAL;
	int n = 0;
	registry_lock();
	for (struct thr *t = threads; t; t = t->next) {
		if (id) {
			if (n == *number)
				break;
			id[n] = t->id;
		}
		n++;
	}
	pthread_mutex_unlock(&thr_lock);
	*number = n;
	return PAPI_OK;
}

/* PAPI_set_thr_specific: store ptr in the caller's slot tag (PAPI_USR1_TLS,
 * PAPI_USR2_TLS, PAPI_TLS_HIGH_LEVEL), registering the caller if needed.
 * PAPI_EINVAL for another tag, PAPI_ENOMEM, PAPI_ENOINIT. */
int PAPI_set_thr_specific(int tag, void *ptr)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (tag < 0 || tag >= PAPI_NUM_TLS)
		return PAPI_EINVAL;
	struct thr *t;
	int ret = register_self(&t);
	if (ret == PAPI_OK)
		t->tls[tag] = ptr;
	return ret;
}

/* PAPI_get_thr_specific: the caller's slot tag into *ptr (NULL when never
 * set). With PAPI_TLS_ALL_THREADS | tag, ptr points to a
 * PAPI_all_thr_spec_t whose id and data arrays hold num entries: they get
 * every registered thread's id and slot, and num the count filled.
 * PAPI_EINVAL for a bad tag or NULL ptr. */
int PAPI_get_thr_specific(int tag, void **ptr)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	int all = tag & PAPI_TLS_ALL_THREADS;
	tag &= ~PAPI_TLS_ALL_THREADS;
	if (tag < 0 || tag >= PAPI_NUM_TLS || !ptr)
		return PAPI_EINVAL;
	if (all) {
		PAPI_all_thr_spec_t *a = (PAPI_all_thr_spec_t *)ptr;
		if (a->num < 0 || (a->num > 0 && (!a->id || !a->data)))
			return PAPI_EINVAL;
		int n = 0;
		registry_lock();
		for (struct thr *t = threads; t && n < a->num; t = t->next, n++) {
			a->id[n] = t->id;
			a->data[n] = t->tls[tag];
		}
		pthread_mutex_unlock(&thr_lock);
		a->num = n;
		return PAPI_OK;
	}
	struct thr *t;
	int ret = register_self(&t);
	if (ret == PAPI_OK)
		*ptr = t->tls[tag];
	return ret;
}

/* PAPI_lock: take user lock lck (PAPI_USR1_LOCK, PAPI_USR2_LOCK); blocks
 * until it is free. PAPI_EINVAL for another lck. Needs no initialization. */
int PAPI_lock(int lck)
{
	if (lck < 0 || lck >= PAPI_NUM_LOCK)
		return PAPI_EINVAL;
	pthread_mutex_lock(&user_locks[lck]);
	return PAPI_OK;
}

/* PAPI_unlock: release user lock lck; PAPI_EINVAL for another lck. */
int PAPI_unlock(int lck)
{
	if (lck < 0 || lck >= PAPI_NUM_LOCK)
		return PAPI_EINVAL;
	pthread_mutex_unlock(&user_locks[lck]);
	return PAPI_OK;
}

static void hook_created(EventSet_t *es)
{
	thr_note_self();
}

const struct es_hooks thr_es_hooks = {
	.created = hook_created,
};
