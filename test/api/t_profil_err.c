/* t_profil_err.c: every misuse of PAPI_profil and PAPI_sprofil gets its error code. */
#include "ovf_common.h"

static void handler(int EventSet, void *address, long long vec, void *context)
{
	(void)EventSet, (void)address, (void)vec, (void)context;
}

int main(void)
{
	unsigned short buf[64];
	vptr_t off = (vptr_t)0x400000;
	is_int(PAPI_profil(buf, sizeof buf, off, 0x10000, 0, 0, 1000, 0), PAPI_ENOINIT,
	       "before init: PAPI_ENOINIT");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	if (!can_count()) {
		skip("perf_event_open refuses perf::TASK-CLOCK here", "profil error tests");
		return tap_done();
	}
	int tc = code_of("perf::TASK-CLOCK"), cc = code_of("perf::CPU-CLOCK");
	int es = set_of("perf::TASK-CLOCK", NULL);
	const struct {
		int line;
		void *buf;
		unsigned size, scale;
		int threshold, flags, want;
	} rows[] = {
		{ __LINE__, buf, sizeof buf, 0, 1000000, 0, PAPI_EINVAL },	/* scale 0: undefined */
		{ __LINE__, buf, sizeof buf, 1, 1000000, 0, PAPI_EINVAL },	/* scale 1: undefined */
		{ __LINE__, buf, sizeof buf, 0x10001, 1000000, 0, PAPI_EINVAL },
		{ __LINE__, buf, sizeof buf, 0x1FFFF, 1000000, 0, PAPI_EINVAL },
		{ __LINE__, buf, sizeof buf, 0x30000, 1000000, 0, PAPI_EINVAL },
		{ __LINE__, NULL, sizeof buf, 0x10000, 1000000, 0, PAPI_EINVAL },
		{ __LINE__, buf, 0, 0x10000, 1000000, 0, PAPI_EINVAL },
		{ __LINE__, buf, sizeof buf, 0x10000, -1, 0, PAPI_EINVAL },
		{ __LINE__, buf, sizeof buf, 0x10000, 1000000,
		  PAPI_PROFIL_BUCKET_16 | PAPI_PROFIL_BUCKET_32, PAPI_EINVAL },
		{ __LINE__, buf, sizeof buf, 0x10000, 1000000,
		  PAPI_PROFIL_BUCKET_32 | PAPI_PROFIL_BUCKET_64, PAPI_EINVAL },
		{ __LINE__, buf, sizeof buf, 0x10000, 1000000, 0x10000, PAPI_EINVAL },
		{ __LINE__, buf, sizeof buf, 0x10000, 1000000, PAPI_PROFIL_DATA_EAR, PAPI_EINVAL },
		{ __LINE__, buf, sizeof buf, 0x10000, 0, 0, PAPI_EINVAL },	/* off, never on */
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		is_int(PAPI_profil(rows[i].buf, rows[i].size, off, rows[i].scale, es, tc,
				   rows[i].threshold, rows[i].flags), rows[i].want,
		       "PAPI_profil row at line %d", rows[i].line);
	int st;
	PAPI_state(es, &st);
	is_int(st, PAPI_STOPPED, "refused calls leave the set alone");
	is_int(PAPI_profil(buf, sizeof buf, off, 0x10000, 12345, tc, 1000000, 0), PAPI_ENOEVST,
	       "no such set");
	is_int(PAPI_profil(buf, sizeof buf, off, 0x10000, es, cc, 1000000, 0), PAPI_ENOEVNT,
	       "event not in the set");
	is_int(PAPI_profil(buf, sizeof buf, off, 2, es, tc, 1000000, 0), PAPI_OK,
	       "scale 2 (one bucket for all) is valid");
	is_int(PAPI_profil(buf, sizeof buf, off, 0x20000, es, tc, 1000000, PAPI_PROFIL_BUCKET_64),
	       PAPI_OK, "scale 0x20000 is valid, and a second call replaces the first");
	PAPI_add_event(es, cc);
	is_int(PAPI_profil(buf, sizeof buf, off, 0x10000, es, cc, 1000000, PAPI_PROFIL_FORCE_SW),
	       PAPI_ECNFLCT, "software profiling in a kernel-overflow set: PAPI_ECNFLCT");
	is_int(PAPI_overflow(es, cc, 1000000, 0, NULL), PAPI_EINVAL,
	       "PAPI_overflow still wants a handler when only profil set one up");
	is_int(PAPI_start(es), PAPI_OK, "start");
	is_int(PAPI_profil(buf, sizeof buf, off, 0x10000, es, tc, 0, 0), PAPI_EISRUN,
	       "running: PAPI_EISRUN");
	PAPI_stop(es, NULL);

	PAPI_sprofil_t sp[2] = { { buf, sizeof buf, off, 0x10000 }, { buf, sizeof buf, off, 7 } };
	is_int(PAPI_sprofil(NULL, 1, es, cc, 1000000, 0), PAPI_EINVAL, "sprofil: NULL regions");
	is_int(PAPI_sprofil(sp, 0, es, cc, 1000000, 0), PAPI_EINVAL, "sprofil: profcnt 0");
	is_int(PAPI_sprofil(sp, -2, es, cc, 1000000, 0), PAPI_EINVAL, "sprofil: profcnt < 0");
	sp[1].pr_scale = 1;
	is_int(PAPI_sprofil(sp, 2, es, cc, 1000000, 0), PAPI_EINVAL, "sprofil: a bad scale in region 2");
	sp[1].pr_scale = 0x8000;
	sp[1].pr_base = NULL;
	is_int(PAPI_sprofil(sp, 2, es, cc, 1000000, 0), PAPI_EINVAL, "sprofil: NULL buffer in region 2");
	sp[1].pr_base = buf;
	is_int(PAPI_sprofil(sp, 2, es, cc, 1000000, 0), PAPI_OK, "sprofil: two good regions");

	/* removing a profiled event ends its profile; the other stays */
	is_int(PAPI_remove_event(es, tc), PAPI_OK, "remove a profiled event");
	PAPI_state(es, &st);
	ok(st & PAPI_PROFILING, "the other event still profiles (%#x)", st);
	is_int(PAPI_sprofil(NULL, 0, es, cc, 0, 0), PAPI_OK, "sprofil threshold 0 turns it off");
	PAPI_state(es, &st);
	is_int(st, PAPI_STOPPED, "nothing profiles or overflows any more");
	is_int(PAPI_sprofil(NULL, 0, es, cc, 0, 0), PAPI_EINVAL, "turning it off twice");

	/* a user handler and a profile share the set */
	is_int(PAPI_profil(buf, sizeof buf, off, 0x10000, es, cc, 1000000, 0), PAPI_OK, "profil");
	is_int(PAPI_overflow(es, cc, 1000000, 0, handler), PAPI_OK, "plus a handler on the event");
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup of a profiling set");
	PAPI_state(es, &st);
	is_int(st, PAPI_STOPPED, "cleanup clears PAPI_PROFILING");
	drop_set(&es);
	PAPI_shutdown();
	return tap_done();
}
