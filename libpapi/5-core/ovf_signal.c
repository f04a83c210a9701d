/* ovf_signal.c: the overflow signals: the slot table their handlers find their work in, the handlers, and the call of the user's handler. */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "5-core/ovf.h"

/*
 * Signal-handler safety: the handlers take no lock and allocate nothing.
 * They find their work in a fixed slot table; a slot is published with an
 * atomic store and claimed with compare-and-swap (LIVE -> BUSY), so a
 * thread that releases a slot never unmaps a ring under a running handler:
 * it waits for a handler of another thread, and hands the unmapping to a
 * handler of its own thread that it interrupted (DEAD). What a slot's
 * signal does is the fire function of the module that took it (ovf_kernel,
 * ovf_soft, ovf_cmp), so this module calls none of them.
 */

struct slot ovf_slots[MAX_SLOTS];
static int slots_hi;			/* atomic: slots below this were used */
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static int handlers_installed;
static struct sigaction old_hw, old_sw;
__thread int ovf_in_signal;

/* profil.c's histogram (init.c registers it): samples of a set with
 * es->profil go there too. */
PAPI_FIRST_DATA ovf_sample_fn ovf_sample_hook;

int ovf_slots_hi(void)
{
	return __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE);
}

static pid_t tid_now(void)
{
	return (pid_t)syscall(SYS_gettid);
}

void *ovf_pc_of(void *uc)
{
	const ucontext_t *u = uc;
	if (!u)
		return NULL;
#if defined(__x86_64__)
	return (void *)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
	return (void *)u->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
	return (void *)u->uc_mcontext.pc;
#else
	return NULL;
#endif
}

void ovf_dispatch(EventSet_t *es, struct ovf_set *os, void *pc, long long vec, void *uc)
{
	PAPI_overflow_handler_t h = os->handler;
	if (h)
		h(es->id, pc, vec, uc);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	pid_t me = tid_now();
	int kind = sig == OVF_SW_SIGNAL ? K_TIMER : K_RING;
	int hi = __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE);
	ovf_in_signal = 1;
	for (int i = 0; i < hi; i++) {
		struct slot *s = &ovf_slots[i];
		if (__atomic_load_n(&s->use, __ATOMIC_ACQUIRE) != S_LIVE || s->tid != me ||
		    (s->kind != kind && !(kind == K_TIMER && s->kind == K_CMP)))
			continue;
		int exp = S_LIVE;
		if (!__atomic_compare_exchange_n(&s->use, &exp, S_BUSY, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		if (s->tid == me && (s->kind == kind || s->kind == K_CMP))
			s->fire(s, si, uc);
		exp = S_BUSY;
		if (!__atomic_compare_exchange_n(&s->use, &exp, S_LIVE, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			/* released while we ran (S_DEAD): the unmapping is ours */
			if (s->pg)
				sys->munmap(s->pg, s->len);
			__atomic_store_n(&s->use, S_FREE, __ATOMIC_RELEASE);
		}
	}
	ovf_in_signal = 0;
	errno = saved;
}

/* ------------------------------------------------------------------ slots */

static void handlers_restore(void)
{
	pthread_mutex_lock(&slot_lock);
	if (handlers_installed) {
		sigaction(OVF_HW_SIGNAL, &old_hw, NULL);
		sigaction(OVF_SW_SIGNAL, &old_sw, NULL);
		handlers_installed = 0;
	}
	pthread_mutex_unlock(&slot_lock);
}

/* Called with slot_lock held. */
static int handlers_install(void)
{
	if (handlers_installed)
		return PAPI_OK;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, OVF_HW_SIGNAL);
	sigaddset(&sa.sa_mask, OVF_SW_SIGNAL);
	if (sigaction(OVF_HW_SIGNAL, &sa, &old_hw) < 0)
		return PAPI_ESYS;
	if (sigaction(OVF_SW_SIGNAL, &sa, &old_sw) < 0) {
		sigaction(OVF_HW_SIGNAL, &old_hw, NULL);
		return PAPI_ESYS;
	}
	handlers_installed = 1;
	papi_on_shutdown(handlers_restore);
	return PAPI_OK;
}

struct slot *ovf_slot_take(int kind, ovf_fire_fn fire, pid_t tid, EventSet_t *es)
{
	struct slot *s = NULL;
	pthread_mutex_lock(&slot_lock);
	if (handlers_install() != PAPI_OK)
		goto out;
	for (int i = 0; i < MAX_SLOTS; i++) {
		if (__atomic_load_n(&ovf_slots[i].use, __ATOMIC_ACQUIRE) == S_FREE) {
			s = &ovf_slots[i];
			s->kind = kind;
			s->fire = fire;
			s->tid = tid;
			s->es = es;
			s->fd = -1;
			s->pg = NULL;
			s->len = 0;
			__atomic_store_n(&s->use, S_HELD, __ATOMIC_RELEASE);
			if (i + 1 > __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE))
				__atomic_store_n(&slots_hi, i + 1, __ATOMIC_RELEASE);
			break;
		}
	}
out:
	pthread_mutex_unlock(&slot_lock);
	return s;
}

/* Take s away from the signal handlers and unmap its ring; a handler of
 * this thread that we interrupted inside s finishes the job instead. */
void ovf_slot_release(struct slot *s)
{
	for (;;) {
		int exp = S_LIVE;
		if (__atomic_compare_exchange_n(&s->use, &exp, S_HELD, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE) || exp == S_HELD)
			break;
		if (exp == S_BUSY && ovf_in_signal && s->tid == tid_now()) {
			if (__atomic_compare_exchange_n(&s->use, &exp, S_DEAD, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
				return;
			continue;
		}
		if (exp == S_FREE || exp == S_DEAD)
			return;
		sched_yield();	/* a handler of another thread is inside s */
	}
	if (s->pg)
		sys->munmap(s->pg, s->len);
	s->pg = NULL;
	__atomic_store_n(&s->use, S_FREE, __ATOMIC_RELEASE);
}
