/* state.c: whether the library is initialized, the shutdown hooks every layer registers, the cached thread id. */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "1-state/state.h"

PAPI_FIRST_DATA int papi_state = PAPI_NOT_INITED;
PAPI_FIRST_DATA static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;

/* Components, presets, threads and others register a shutdown hook here so
 * that PAPI_shutdown needs no knowledge of them. Hooks run in reverse order. */
#define MAX_HOOKS 16
PAPI_FIRST_DATA static void (*shutdown_hooks[MAX_HOOKS])(void);
PAPI_FIRST_DATA static int nhooks;

void papi_on_shutdown(void (*fn)(void))
{
	pthread_mutex_lock(&hooks_lock);
	for (int i = 0; i < nhooks; i++)
		if (shutdown_hooks[i] == fn)
			goto out;
	if (nhooks < MAX_HOOKS)
		shutdown_hooks[nhooks++] = fn;
out:
	pthread_mutex_unlock(&hooks_lock);
}

/* state_run_shutdown_hooks: the hooks registered so far, newest first. A
 * hook registered while they run waits for the next shutdown. */
void state_run_shutdown_hooks(void)
{
	pthread_mutex_lock(&hooks_lock);
	int n = nhooks;
	pthread_mutex_unlock(&hooks_lock);
	for (int i = n - 1; i >= 0; i--)
		shutdown_hooks[i]();
}

static __thread pid_t cached_tid;

/* The forking thread's cached id is the parent's; the child's differs. */
static void child_after_fork(void)
{
	cached_tid = 0;
}

PAPI_FIRST_DATA static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_setup(void)
{
	pthread_atfork(NULL, NULL, child_after_fork);
}

pid_t papi_gettid(void)
{
	if (!cached_tid) {
		/* the handler first, so that no cache outlives a fork */
		pthread_once(&fork_once, fork_setup);
		cached_tid = (pid_t)syscall(SYS_gettid);
	}
	return cached_tid;
}

const char *papi_getenv(const char *name)
{
	extern char **environ;
	for (char **e = environ; e && *e; e++) {
		const char *a = *e, *b = name;
		while (*b && *a == *b) {
			a++;
			b++;
		}
		if (!*b && *a == '=')
			return a + 1;
	}
	return NULL;
}
