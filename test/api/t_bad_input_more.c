/* t_bad_input_more.c: the bad-input catalogue, second part: options, threads, multiplex, attach, overflow, profil, HL, rates, presets and process information. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "tap.h"

static void row(int line, const char *call, long long got, long long want)
{
	if (!ok(got == want, "%s == %lld (line %d)", call, want, line))
		printf("#   got %lld\n", got);
}
#define ROW(call, want) row(__LINE__, #call, (long long)(call), (long long)(want))

static void handler(int es, void *addr, long long vec, void *ctx)
{
	(void)es, (void)addr, (void)vec, (void)ctx;
}

static unsigned long tid_fn(void)
{
	return (unsigned long)pthread_self();
}

static unsigned long other_fn(void)
{
	return 7;
}

int main(void)
{
	PAPI_option_t opt;
	int es = PAPI_NULL, code = 0, n = 0, arr[4] = { 0 };
	long long ll = 0;
	float rt = 0, pt = 0, rate = 0;
	unsigned long tids[4];
	void *p = NULL;
	unsigned short buf[64];
	PAPI_sprofil_t sp = { buf, sizeof buf, 0, 0x10000 };
	PAPI_dmem_info_t dm;
	PAPI_event_info_t info;

	/* Before PAPI_library_init. */
	memset(&opt, 0, sizeof opt);
	ROW(PAPI_set_opt(PAPI_DEF_MPX_NS, &opt), PAPI_ENOINIT);
	ROW(PAPI_get_opt(PAPI_DOMAIN, &opt), PAPI_ENOINIT);
	ROW(PAPI_get_cmp_opt(PAPI_MAX_HWCTRS, &opt, 0), PAPI_ENOINIT);
	ROW(PAPI_set_domain(PAPI_DOM_USER), PAPI_ENOINIT);
	ROW(PAPI_set_granularity(PAPI_GRN_THR), PAPI_ENOINIT);
	ROW(PAPI_set_multiplex(0), PAPI_ENOINIT);
	ROW(PAPI_get_multiplex(0), PAPI_ENOINIT);
	ROW(PAPI_attach(0, 1), PAPI_ENOINIT);
	ROW(PAPI_detach(0), PAPI_ENOINIT);
	ROW(PAPI_overflow(0, PAPI_TOT_CYC, 1000, 0, handler), PAPI_ENOINIT);
	ROW(PAPI_sprofil(&sp, 1, 0, PAPI_TOT_CYC, 1000, 0), PAPI_ENOINIT);
	ROW(PAPI_thread_init(tid_fn), PAPI_ENOINIT);
	ROW(PAPI_register_thread(), PAPI_ENOINIT);
	n = 4;
	ROW(PAPI_list_threads(tids, &n), PAPI_ENOINIT);
	ROW(PAPI_get_dmem_info(&dm), PAPI_ENOINIT);
	ROW(PAPI_get_executable_info() == NULL, 1);
	ROW(PAPI_set_event_info(&info, &code, 0), PAPI_ENOINIT);
	ROW(PAPI_multiplex_init(), PAPI_OK);	/* as PAPI 7: fine before init */

	ROW(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);

	/* Options: NULL, unknown, bad values, bad sets. */
	ROW(PAPI_set_opt(PAPI_DEF_MPX_NS, NULL), PAPI_EINVAL);
	ROW(PAPI_get_opt(PAPI_DEF_MPX_NS, NULL), PAPI_EINVAL);
	ROW(PAPI_set_opt(-12345, &opt), PAPI_EINVAL);
	ROW(PAPI_get_opt(-12345, &opt), PAPI_EINVAL);
	opt.multiplex.ns = -1;
	ROW(PAPI_set_opt(PAPI_DEF_MPX_NS, &opt), PAPI_EINVAL);
	opt.itimer.itimer_num = 99;
	ROW(PAPI_set_opt(PAPI_DEF_ITIMER, &opt), PAPI_EINVAL);
	ROW(PAPI_set_domain(0), PAPI_EINVAL);
	ROW(PAPI_set_domain(0x100000), PAPI_EINVAL);
	ROW(PAPI_set_granularity(0), PAPI_EINVAL);
	ROW(PAPI_set_cmp_domain(PAPI_DOM_USER, 99), PAPI_ENOCMP);
	ROW(PAPI_set_cmp_granularity(PAPI_GRN_THR, -1), PAPI_ENOCMP);
	ROW(PAPI_get_cmp_opt(PAPI_MAX_HWCTRS, &opt, 99), PAPI_ECMP);	/* as PAPI 7 */
	opt.domain.eventset = 12345;
	opt.domain.domain = PAPI_DOM_USER;
	ROW(PAPI_set_opt(PAPI_DOMAIN, &opt), PAPI_ENOEVST);
	ROW(PAPI_get_opt(PAPI_DOMAIN, &opt), PAPI_ENOEVST);
	opt.multiplex.eventset = -1;
	ROW(PAPI_set_opt(PAPI_MULTIPLEX, &opt), PAPI_ENOEVST);
	memset(&opt, 0, sizeof opt);
	opt.events_file = NULL;
	ROW(PAPI_set_opt(PAPI_USER_EVENTS_FILE, &opt), PAPI_EINVAL);

	/* Bad set ids everywhere a set is named. */
	static const int bad_ids[] = { -1, INT_MIN, INT_MAX, 65536, 12345 };
	for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
		int id = bad_ids[i];
		ROW(PAPI_set_multiplex(id), PAPI_ENOEVST);
		ROW(PAPI_get_multiplex(id), PAPI_ENOEVST);
		ROW(PAPI_attach(id, 1), PAPI_ENOEVST);
		ROW(PAPI_detach(id), PAPI_ENOEVST);
		ROW(PAPI_overflow(id, PAPI_TOT_CYC, 1000, 0, handler), PAPI_ENOEVST);
		n = 4;
		ROW(PAPI_get_overflow_event_index(id, 1, arr, &n), PAPI_ENOEVST);
		ROW(PAPI_sprofil(&sp, 1, id, PAPI_TOT_CYC, 1000, 0), PAPI_ENOEVST);
		ROW(PAPI_profil(buf, sizeof buf, 0, 0x10000, id, PAPI_TOT_CYC, 1000, 0), PAPI_ENOEVST);
	}

	/* A real set in the wrong state or with bad arguments. */
	ROW(PAPI_create_eventset(&es), PAPI_OK);
	ROW(PAPI_set_multiplex(es), PAPI_ENOCMP);	/* no component bound yet */
	ROW(PAPI_attach(es, 1), PAPI_ENOCMP);
	ROW(PAPI_add_named_event(es, "perf::TASK-CLOCK"), PAPI_OK);
	ROW(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_OK);
	ROW(PAPI_detach(es), PAPI_EINVAL);		/* not attached */
	ROW(PAPI_attach(es, 0), PAPI_EINVAL);
	ROW(PAPI_overflow(es, PAPI_TOT_CYC, 1000, 0, handler), PAPI_ENOEVNT);	/* not in the set */
	ROW(PAPI_overflow(es, code, -1, 0, handler), PAPI_EINVAL);
	ROW(PAPI_overflow(es, code, 0, 0, handler), PAPI_EINVAL);	/* turning off what is off */
	ROW(PAPI_overflow(es, code, 1000, 0, NULL), PAPI_EINVAL);
	n = 4;
	ROW(PAPI_get_overflow_event_index(es, 0, arr, &n), PAPI_EINVAL);
	ROW(PAPI_get_overflow_event_index(es, 1, NULL, &n), PAPI_EINVAL);
	ROW(PAPI_get_overflow_event_index(es, 1, arr, NULL), PAPI_EINVAL);
	n = 0;
	ROW(PAPI_get_overflow_event_index(es, 1, arr, &n), PAPI_EINVAL);
	ROW(PAPI_sprofil(NULL, 1, es, code, 1000, 0), PAPI_EINVAL);
	ROW(PAPI_sprofil(&sp, 0, es, code, 1000, 0), PAPI_EINVAL);
	ROW(PAPI_sprofil(&sp, 1, es, code, -1, 0), PAPI_EINVAL);
	ROW(PAPI_sprofil(&sp, 1, es, code, 1000, 0x40000000), PAPI_EINVAL);
	ROW(PAPI_profil(buf, sizeof buf, 0, 1, es, code, 1000, 0), PAPI_EINVAL);	/* scale 1 */
	ROW(PAPI_profil(NULL, sizeof buf, 0, 0x10000, es, code, 1000, 0), PAPI_EINVAL);
	ROW(PAPI_profil(buf, sizeof buf, 0, 0x10000, es, PAPI_TOT_CYC, 1000, 0), PAPI_ENOEVNT);
	ROW(PAPI_start(es), PAPI_OK);
	ROW(PAPI_set_multiplex(es), PAPI_EISRUN);
	ROW(PAPI_attach(es, 1), PAPI_EISRUN);
	ROW(PAPI_overflow(es, code, 1000, 0, handler), PAPI_EISRUN);
	ROW(PAPI_sprofil(&sp, 1, es, code, 1000, 0), PAPI_EISRUN);
	opt.domain.eventset = es;
	opt.domain.domain = PAPI_DOM_USER;
	ROW(PAPI_set_opt(PAPI_DOMAIN, &opt), PAPI_EISRUN);
	ROW(PAPI_stop(es, NULL), PAPI_OK);
	ROW(PAPI_set_multiplex(es), PAPI_OK);
	ROW(PAPI_get_multiplex(es), 1);
	opt.multiplex.eventset = es;
	opt.multiplex.ns = 0;
	opt.multiplex.flags = 0;
	ROW(PAPI_set_opt(PAPI_MULTIPLEX, &opt), PAPI_EINVAL);	/* already multiplexed */
	ROW(PAPI_cleanup_eventset(es), PAPI_OK);
	ROW(PAPI_destroy_eventset(&es), PAPI_OK);

	/* Threads and locks. */
	ROW(PAPI_thread_init(NULL), PAPI_EINVAL);
	ROW(PAPI_thread_init(tid_fn), PAPI_OK);
	ROW(PAPI_thread_init(other_fn), PAPI_EINVAL);	/* a different function */
	ROW(PAPI_list_threads(tids, NULL), PAPI_EINVAL);
	n = -1;
	ROW(PAPI_list_threads(tids, &n), PAPI_EINVAL);
	ROW(PAPI_get_thr_specific(-1, &p), PAPI_EINVAL);
	ROW(PAPI_get_thr_specific(PAPI_NUM_TLS, &p), PAPI_EINVAL);
	ROW(PAPI_get_thr_specific(0, NULL), PAPI_EINVAL);
	ROW(PAPI_set_thr_specific(PAPI_NUM_TLS, p), PAPI_EINVAL);
	ROW(PAPI_lock(-1), PAPI_EINVAL);
	ROW(PAPI_lock(PAPI_NUM_LOCK), PAPI_EINVAL);
	ROW(PAPI_unlock(PAPI_NUM_LOCK), PAPI_EINVAL);

	/* High-level regions and rates. */
	ROW(PAPI_hl_region_begin(NULL), PAPI_EINVAL);
	ROW(PAPI_hl_region_end(NULL), PAPI_EINVAL);
	ROW(PAPI_hl_read(NULL), PAPI_EINVAL);
	ROW(PAPI_hl_region_end("never-begun"), PAPI_EINVAL);	/* not open */
	ROW(PAPI_flops_rate(PAPI_FP_OPS, NULL, &pt, &ll, &rate), PAPI_EINVAL);
	ROW(PAPI_flops_rate(PAPI_TOT_INS, &rt, &pt, &ll, &rate), PAPI_EINVAL);	/* not a flop event */
	ROW(PAPI_ipc(&rt, &pt, NULL, &rate), PAPI_EINVAL);
	ROW(PAPI_epc(PAPI_TOT_INS, &rt, &pt, NULL, &ll, &ll, &rate), PAPI_EINVAL);

	/* Presets and user events. */
	ROW(PAPI_set_event_info(NULL, &code, 0), PAPI_EINVAL);
	ROW(PAPI_set_event_info(&info, NULL, 0), PAPI_EINVAL);
	memset(&info, 0, sizeof info);
	ROW(PAPI_set_event_info(&info, &code, 0), PAPI_ENOEVNT);	/* code 0: no preset code */
	info.event_code = (unsigned int)PAPI_PRESET_MASK;
	ROW(PAPI_set_event_info(&info, &code, 0), PAPI_EINVAL);	/* empty symbol */
	ROW(PAPI_encode_events(NULL, 0), PAPI_EINVAL);
	ROW(PAPI_encode_events("/nonexistent/events.csv", 0), PAPI_EINVAL);	/* unreadable */

	/* Process information. */
	ROW(PAPI_get_dmem_info(NULL), PAPI_EINVAL);
	ROW(PAPI_get_shared_lib_info() != NULL, 1);
	ROW(PAPI_get_executable_info() != NULL, 1);

	PAPI_shutdown();
	ROW(PAPI_set_multiplex(0), PAPI_ENOINIT);	/* shut down again */
	ROW(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
	es = PAPI_NULL;
	long long v = -1;
	int r = PAPI_create_eventset(&es);
	if (r == PAPI_OK)
		r = PAPI_add_named_event(es, "perf::TASK-CLOCK");
	if (r == PAPI_OK)
		r = PAPI_start(es);
	if (r == PAPI_OK)
		r = PAPI_stop(es, &v);
	ok(r == PAPI_OK && v >= 0, "the library still counts after the catalogue (%d)", r);
	PAPI_shutdown();
	return tap_done();
}
