/* sde_sample.c: a library with software-defined events of every kind, linked with -lsde only, as a library that offers SDEs is built.
 *
 * Library "Sample", after sample_init() (or papi_sde_hook_list_events, for
 * papi native -sde), each sample_work(n) step i = 0..n-1 adding:
 *   ITER    long long by address, DELTA        +1
 *   EVENTS  created counter, DELTA             +2
 *   ALL     group SUM of ITER and EVENTS       +3
 *   HALF    double by callback, INSTANT        ITER's total / 2
 *   LEVEL   int by address, read-write, INSTANT   set to i
 *   RATIO   float by address, DELTA            +0.5
 *   SIZES   recorder of long long (:CNT, :MIN ... :MAX)   records i
 *   KEYS    counting set                       inserts i % 3
 */
#include <string.h>

#include "sde_lib.h"

void sample_init(void);
void sample_work(int n);
int sample_unregister(const char *name);

static long long iter;
static int level;
static float ratio;
static void *events, *sizes, *keys;
static papi_handle_t handle;

static long long half(void *p)
{
	double d = (double)*(long long *)p / 2;
	long long v;
	memcpy(&v, &d, sizeof v);
	return v;
}

static papi_handle_t register_all(papi_sde_fptr_struct_t *f)
{
	papi_handle_t h = f->init("Sample");
	f->register_counter(h, "ITER", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &iter);
	f->create_counter(h, "EVENTS", PAPI_SDE_RO | PAPI_SDE_DELTA, &events);
	f->add_counter_to_group(h, "ITER", "ALL", PAPI_SDE_SUM);
	f->add_counter_to_group(h, "EVENTS", "ALL", PAPI_SDE_SUM);
	f->register_counter_cb(h, "HALF", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_double, half, &iter);
	f->register_counter(h, "LEVEL", PAPI_SDE_RW | PAPI_SDE_INSTANT, PAPI_SDE_int, &level);
	f->register_counter(h, "RATIO", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_float, &ratio);
	f->create_recorder(h, "SIZES", sizeof(long long), papi_sde_compare_long_long, &sizes);
	f->create_counting_set(h, "KEYS", &keys);
	f->describe_counter(h, "ITER", "Steps of sample_work.");
	f->describe_counter(h, "EVENTS", "Two per step, counted by libsde.");
	f->describe_counter(h, "ALL", "ITER and EVENTS together.");
	f->describe_counter(h, "HALF", "Half of all steps ever, as a double.");
	return h;
}

papi_handle_t papi_sde_hook_list_events(papi_sde_fptr_struct_t *fptr_struct)
{
	return register_all(fptr_struct);
}

void sample_init(void)
{
	papi_sde_fptr_struct_t f;
	memset(&f, 0, sizeof f);
	POPULATE_SDE_FPTR_STRUCT(f);
	handle = register_all(&f);
}

void sample_work(int n)
{
	for (int i = 0; i < n; i++) {
		long long v = i;
		int k = i % 3;
		iter++;
		papi_sde_inc_counter(events, 2);
		level = i;
		ratio += 0.5f;
		papi_sde_record(sizes, sizeof v, &v);
		papi_sde_counting_set_insert(keys, sizeof k, sizeof k, &k, 0);
	}
}

int sample_unregister(const char *name)
{
	return papi_sde_unregister_counter(handle, name);
}
