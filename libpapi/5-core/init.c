/* init.c: PAPI_library_init and PAPI_shutdown: the top of the core layer, which wires the modules below together. */
#include <pthread.h>
#include <stdlib.h>

#include "5-core/core.h"

PAPI_FIRST_DATA static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/* The modules that keep state per EventSet or per counter, in the order
 * eventset.c calls their hooks (see struct es_hooks): the thread registry
 * notes a set's creator; a counter's user page is mapped before its ring
 * buffer; an event's profile goes before its overflow; the software
 * multiplexing rotation is freed last. */
static void wire_modules(void)
{
	es_add_hooks(&thr_es_hooks);
	es_add_hooks(&rdpmc_es_hooks);
	es_add_hooks(&profil_es_hooks);
	es_add_hooks(&ovf_es_hooks);
	es_add_hooks(&mpx_es_hooks);
	ovf_set_sample_hook(profil_hit);
	cmp_set_overflow_hooks(ovf_cmp_push, ovf_cmp_poll);
	presets_set_in_use(es_code_in_use);
}

/* The variables PAPI_library_init reads, in the data page it writes anyway
 * (string literals would be in .rodata, one more page to fault in). */
PAPI_FIRST_DATA static char env_debug[] = "PAPI_DEBUG", env_rdpmc[] = "PAPI_RDPMC",
			    env_user[] = "PAPI_USER_EVENTS_FILE", env_csv[] = "PAPI_CSV_EVENT_FILE";

/* PAPI_library_init: version must be PAPI_VER_CURRENT. Cheap by design: no
 * event enumeration and no libpfm4 work happen here; they happen on the first
 * call that needs them. Returns PAPI_VER_CURRENT, or PAPI_EINVAL for a
 * version this library does not implement. Calling it again is harmless. */
int PAPI_library_init(int version)
{
	if (version != PAPI_VER_CURRENT)
		return PAPI_EINVAL;
	pthread_mutex_lock(&init_lock);
	if (papi_state == PAPI_NOT_INITED) {
		const char *dbg = papi_getenv(env_debug);
		papi_explain = dbg && *dbg;
		if (papi_explain)
			papi_debug_level = PAPI_VERB_ECONT;
		wire_modules();
		rdpmc_init(papi_getenv(env_rdpmc));
		presets_read_env(papi_getenv(env_user), papi_getenv(env_csv));
		__atomic_store_n(&papi_state, PAPI_LOW_LEVEL_INITED, __ATOMIC_SEQ_CST);
		thr_register_initial();
	}
	pthread_mutex_unlock(&init_lock);
	return PAPI_VER_CURRENT;
}

/* PAPI_is_initialized: PAPI_NOT_INITED or the PAPI_*_INITED bits. */
int PAPI_is_initialized(void)
{
	return __atomic_load_n(&papi_state, __ATOMIC_ACQUIRE);
}

/* PAPI_shutdown: stop and destroy every EventSet, close every counter, free
 * every table. The library can be initialized again afterwards. */
void PAPI_shutdown(void)
{
	pthread_mutex_lock(&init_lock);
	if (papi_state == PAPI_NOT_INITED) {
		pthread_mutex_unlock(&init_lock);
		return;
	}
	__atomic_store_n(&papi_state, PAPI_NOT_INITED, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&init_lock);
	es_destroy_all();
	state_run_shutdown_hooks();
	native_shutdown();
}
