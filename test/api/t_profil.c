/* t_profil.c: PAPI_profil and PAPI_sprofil on perf::TASK-CLOCK: hits land in the hot function's buckets. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ovf_common.h"

#define THRESHOLD 1000000	/* 1 ms of task-clock */

extern char __executable_start[];

static uintptr_t lo, hi;	/* the profiled text: up to the end of both hot sections */

/* What a RANDOM profile's buckets are compared with: the samples the
 * overflow handler saw whose PC falls in a bucket of the profile, counted by
 * the test's own arithmetic (bucket i covers off + i * 0x20000 / scale on). */
static uintptr_t seen_off;
static unsigned seen_scale;
static size_t seen_nb;
static volatile unsigned long seen;

static void count_in_buckets(int es, void *pc, long long vector, void *ctx)
{
	uintptr_t a = (uintptr_t)pc;
	if (a >= seen_off &&
	    (unsigned __int128)(a - seen_off) * seen_scale / 0x20000 < seen_nb)
		seen++;
}

/* Sum of the buckets of a histogram whose addresses fall in [a, b). */
static unsigned long long sum_range(const void *buf, size_t nb, int bytes, uintptr_t off,
				    unsigned scale, uintptr_t a, uintptr_t b)
{
	unsigned long long s = 0;
	for (size_t i = 0; i < nb; i++) {
		/* first address of bucket i: off + i * 0x20000 / scale */
		uintptr_t addr = off + (uintptr_t)((unsigned __int128)i * 0x20000 / scale);
		if (addr < a || addr >= b)
			continue;
		s += bytes == 2 ? ((const uint16_t *)buf)[i] :
		     bytes == 4 ? ((const uint32_t *)buf)[i] : ((const uint64_t *)buf)[i];
	}
	return s;
}

/* One profile of hot_a with the given scale and bucket size. */
static void profile_hot(unsigned scale, int bucket_flag, int bytes, long long ns, int extra)
{
	int es = set_of("perf::TASK-CLOCK", NULL), tc = code_of("perf::TASK-CLOCK");
	/* bufsiz = (end - start) * (bucket_size / 2) * (scale / 65536) */
	size_t bufsiz = (size_t)((unsigned __int128)(hi - lo) * (unsigned)bytes / 2 * scale / 65536);
	size_t nb = bufsiz / (size_t)bytes;
	void *buf = calloc(nb + 1, (size_t)bytes);
	is_int(PAPI_profil(buf, (unsigned)bufsiz, (vptr_t)lo, scale, es, tc, THRESHOLD,
			   PAPI_PROFIL_POSIX | bucket_flag | extra), PAPI_OK,
	       "PAPI_profil scale %#x, %d-byte buckets%s", scale, bytes,
	       extra & PAPI_PROFIL_FORCE_SW ? " (software overflow, weighted)" : extra ? " (random)" : "");
	if (extra & PAPI_PROFIL_RANDOM) {
		/* the same samples reach an overflow handler: it counts them all */
		seen_off = lo, seen_scale = scale, seen_nb = nb, seen = 0;
		is_int(PAPI_overflow(es, tc, THRESHOLD, 0, count_in_buckets), PAPI_OK,
		       "an overflow handler beside the RANDOM profile");
	}
	int st;
	PAPI_state(es, &st);
	ok((st & PAPI_PROFILING) && (st & PAPI_OVERFLOWING), "state says profiling (%#x)", st);
	long long v;
	PAPI_start(es);
	spin_cpu(ns, 0);
	PAPI_stop(es, &v);
	unsigned long long all = sum_range(buf, nb, bytes, lo, scale, 0, UINTPTR_MAX);
	unsigned long long hot = sum_range(buf, nb, bytes, lo, scale, (uintptr_t)__start_papi_hot_a,
					   (uintptr_t)__stop_papi_hot_a);
	double want = (double)v / THRESHOLD;
	diag("%llu hits, %llu in hot_a, %.0f overflows expected", all, hot, want);
	if (extra & PAPI_PROFIL_RANDOM) {
		/* Each sample is kept with probability 3/4, whatever the number
		 * of samples the kernel delivered (fewer on a busy machine): the
		 * kept share of n samples stays within 5 standard deviations
		 * of 3/4 (binomial, sd = sqrt(n * 3/16)), plus one for rounding. */
		double n = (double)seen, dev = (double)all - 0.75 * n;
		double bound = 5 * sqrt(n * 0.1875) + 1;
		diag("RANDOM kept %llu of %.0f samples in the buckets (%.2f)", all, n,
		     n > 0 ? all / n : 0);
		ok(n >= 1 && fabs(dev) <= bound,
		   "RANDOM keeps about three quarters of the samples: %llu of %.0f, "
		   "want %.1f +- %.1f", all, n, 0.75 * n, bound);
	} else {
		ok(all >= want * 0.5 && all <= want * 1.5 + 2,
		   "hit count follows the overflows (%llu, %.0f thresholds)", all, want);
	}
	ok(hot * 2 > all && all > 0, "most hits land in hot_a's buckets (%llu of %llu)", hot, all);
	ok(((unsigned char *)buf)[nb * (size_t)bytes] == 0 &&
	   ((unsigned char *)buf)[nb * (size_t)bytes + (size_t)bytes - 1] == 0,
	   "nothing written past bufsiz");
	is_int(PAPI_profil(buf, (unsigned)bufsiz, (vptr_t)lo, scale, es, tc, 0, 0), PAPI_OK,
	       "threshold 0 turns the profile off");
	PAPI_state(es, &st);
	ok(!(st & (PAPI_PROFILING | PAPI_OVERFLOWING)), "state back to plain (%#x)", st);
	free(buf);
	drop_set(&es);
}

/* Two regions (hot_a, hot_b) and a catch-all bucket of scale 2. */
static void sprofile_two(void)
{
	int es = set_of("perf::TASK-CLOCK", NULL), tc = code_of("perf::TASK-CLOCK");
	uintptr_t a0 = (uintptr_t)__start_papi_hot_a, a1 = (uintptr_t)__stop_papi_hot_a;
	uintptr_t b0 = (uintptr_t)__start_papi_hot_b, b1 = (uintptr_t)__stop_papi_hot_b;
	size_t na = a1 - a0, nb = b1 - b0;	/* scale 0x20000: one bucket per address */
	uint32_t *ba = calloc(na, 4), *bb = calloc(nb, 4), rest = 0;
	PAPI_sprofil_t sp[3] = {
		{ ba, (unsigned)(na * 4), (vptr_t)a0, 0x20000 },
		{ bb, (unsigned)(nb * 4), (vptr_t)b0, 0x20000 },
		{ &rest, sizeof rest, (vptr_t)0, 2 },
	};
	is_int(PAPI_sprofil(sp, 3, es, tc, THRESHOLD, PAPI_PROFIL_BUCKET_32), PAPI_OK,
	       "PAPI_sprofil with two regions and a catch-all");
	long long v;
	PAPI_start(es);
	for (int i = 0; i < 4; i++) {
		spin_cpu(40000000, 0);
		spin_cpu(40000000, 1);
	}
	PAPI_stop(es, &v);
	unsigned long long ha = sum_range(ba, na, 4, a0, 0x20000, 0, UINTPTR_MAX);
	unsigned long long hb = sum_range(bb, nb, 4, b0, 0x20000, 0, UINTPTR_MAX);
	diag("hot_a %llu, hot_b %llu, elsewhere %u, %.0f overflows", ha, hb, rest,
	     (double)v / THRESHOLD);
	ok(ha > 20 && hb > 20, "both regions got hits (%llu, %llu)", ha, hb);
	ok((ha + hb) * 2 > ha + hb + rest, "most hits are in the two regions");
	ok(ha + hb + rest >= (double)v / THRESHOLD * 0.5, "every overflow went somewhere");
	free(ba);
	free(bb);
	drop_set(&es);
}

int main(void)
{
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	if (!can_count()) {
		skip("perf_event_open refuses perf::TASK-CLOCK here", "profiling tests");
		return tap_done();
	}
	lo = (uintptr_t)__executable_start;
	hi = (uintptr_t)__stop_papi_hot_a > (uintptr_t)__stop_papi_hot_b ?
	     (uintptr_t)__stop_papi_hot_a : (uintptr_t)__stop_papi_hot_b;
	hi += 64;
	profile_hot(0x10000, PAPI_PROFIL_BUCKET_16, 2, 300000000, 0);
	profile_hot(0x8000, PAPI_PROFIL_BUCKET_32, 4, 100000000, 0);
	profile_hot(0x20000, PAPI_PROFIL_BUCKET_64, 8, 100000000, 0);
	/* a software tick may cross several thresholds: WEIGHTED adds them all */
	profile_hot(0x10000, 0, 2, 100000000, PAPI_PROFIL_FORCE_SW | PAPI_PROFIL_WEIGHTED);
	profile_hot(0x10000, 0, 2, 600000000, PAPI_PROFIL_RANDOM);
	sprofile_two();
	PAPI_shutdown();
	return tap_done();
}
