/* t_sde_lib.c: libsde alone (linked with libsde.a, nothing of libpapi): registering, the values its tool interface reads, and the error codes. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sde/sde_lib.h"
#include "sde/sde_ti.h"
#include "tap.h"

/* The id of "LIB::EV" (asserting that it has one). */
static uint32_t id_of(const char *full)
{
	uint32_t id = UINT32_MAX;
	int r = sde_ti_name_to_code(full, &id);
	if (r != SDE_OK)
		printf("# sde_ti_name_to_code(%s) = %d\n", full, r);
	return id;
}

static long long rd(const char *full)
{
	long long v = -12345;
	int r = sde_ti_read_counter(id_of(full), &v);
	if (r != SDE_OK)
		printf("# sde_ti_read_counter(%s) = %d\n", full, r);
	return v;
}

static double rdd(const char *full)
{
	long long v = rd(full);
	return GET_DOUBLE_SDE(v);
}

static long long cb_calls;
static long long times_ten(void *p)
{
	cb_calls++;
	return *(long long *)p * 10;
}

static long long half_as_double(void *p)
{
	double d = *(double *)p / 2;
	long long v;
	memcpy(&v, &d, sizeof v);
	return v;
}

static papi_handle_t reentrant_h;
/* A callback that calls libsde itself: the registry's lock is recursive. */
static long long reentrant(void *p)
{
	(void)p;
	return papi_sde_get_counter_handle(reentrant_h, "reentrant") != NULL ? 42 : -42;
}

static void test_init(void)
{
	ok(papi_sde_init(NULL) == NULL, "papi_sde_init(NULL) is NULL");
	ok(papi_sde_init("") == NULL, "papi_sde_init(\"\") is NULL");
	ok(papi_sde_init("a::b") == NULL, "a library name with '::' is refused");
	papi_handle_t a = papi_sde_init("LibA"), b = papi_sde_init("LibB");
	ok(a && b && a != b, "two libraries, two handles");
	ok(papi_sde_init("LibA") == a, "the same name gives the same handle");
	long long x = 0;
	is_int(papi_sde_register_counter(NULL, "x", PAPI_SDE_DELTA, PAPI_SDE_long_long, &x), SDE_OK,
	       "a NULL handle (papi_sde_init failed) makes calls do nothing");
	is_int(papi_sde_create_counter(NULL, "x", PAPI_SDE_DELTA, NULL), SDE_OK, "create_counter on NULL");
	is_int(papi_sde_inc_counter(NULL, 1), SDE_OK, "inc_counter on NULL");
	is_int(papi_sde_record(NULL, 8, &x), SDE_OK, "record on NULL");
	ok(papi_sde_get_counter_handle(NULL, "x") == NULL, "get_counter_handle on NULL");
	is_int(papi_sde_shutdown(NULL), SDE_OK, "shutdown on NULL");
	long long fake = 0;
	is_int(papi_sde_register_counter(&fake, "x", PAPI_SDE_DELTA, PAPI_SDE_long_long, &x), SDE_EINVAL,
	       "a pointer that is no library's handle is refused");
}

static long long ll = 5, cbv = 3;
static int iv = 7;
static double dv = 1.5;
static float fv = 2.5f;

static void test_counters(void)
{
	papi_handle_t h = papi_sde_init("Ctr");
	is_int(papi_sde_register_counter(h, "LL", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &ll), SDE_OK,
	       "register a long long");
	is_int(papi_sde_register_counter(h, "I", PAPI_SDE_RW | PAPI_SDE_DELTA, PAPI_SDE_int, &iv), SDE_OK,
	       "register an int (read-write)");
	is_int(papi_sde_register_counter(h, "D", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_double, &dv), SDE_OK,
	       "register a double (instant)");
	is_int(papi_sde_register_counter(h, "F", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_float, &fv), SDE_OK,
	       "register a float");
	is_int(papi_sde_register_counter_cb(h, "CB", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long,
					    times_ten, &cbv), SDE_OK, "register a callback");
	is_int(papi_sde_register_counter_cb(h, "CBD", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_double,
					    half_as_double, &dv), SDE_OK, "register a double callback");

	/* errors */
	is_int(papi_sde_register_counter(h, "bad", 0x2, PAPI_SDE_long_long, &ll), SDE_EINVAL, "unknown mode bit");
	is_int(papi_sde_register_counter(h, "bad", PAPI_SDE_DELTA, 4, &ll), SDE_EINVAL, "unknown type");
	is_int(papi_sde_register_counter(h, "bad", PAPI_SDE_DELTA, -1, &ll), SDE_EINVAL, "negative type");
	is_int(papi_sde_register_counter(h, "bad", PAPI_SDE_DELTA, PAPI_SDE_long_long, NULL), SDE_EINVAL,
	       "no counter");
	is_int(papi_sde_register_counter_cb(h, "bad", PAPI_SDE_DELTA, PAPI_SDE_long_long, NULL, NULL), SDE_EINVAL,
	       "no callback");
	is_int(papi_sde_register_counter(h, "", PAPI_SDE_DELTA, PAPI_SDE_long_long, &ll), SDE_EINVAL, "empty name");
	is_int(papi_sde_register_counter(h, NULL, PAPI_SDE_DELTA, PAPI_SDE_long_long, &ll), SDE_EINVAL, "NULL name");
	long long other = 99;
	is_int(papi_sde_register_counter(h, "LL", PAPI_SDE_DELTA, PAPI_SDE_long_long, &other), SDE_OK,
	       "registering a name again is accepted (PAPI 7.0) ...");
	is_int(rd("Ctr::LL"), 5, "... and keeps the first counter");

	/* values: DELTA from the last reset (0 before any), INSTANT as they are */
	is_int(rd("Ctr::LL"), 5, "a DELTA counter never reset reads its value");
	is_int(sde_ti_reset_counter(id_of("Ctr::LL")), SDE_OK, "reset");
	ll += 4;
	is_int(rd("Ctr::LL"), 4, "then its change");
	sde_ti_reset_counter(id_of("Ctr::I"));
	iv -= 3;
	is_int(rd("Ctr::I"), -3, "an int's change, negative");
	sde_ti_reset_counter(id_of("Ctr::D"));
	dv = 4.25;
	ok(rdd("Ctr::D") == 4.25, "an INSTANT double reads its value, reset or not");
	sde_ti_reset_counter(id_of("Ctr::F"));
	fv = 3.75f;
	ok(rdd("Ctr::F") == 1.25, "a float's change, as a double");
	sde_ti_reset_counter(id_of("Ctr::CB"));
	long long calls = cb_calls;
	cbv = 5;
	is_int(rd("Ctr::CB"), 20, "a callback's change (50 - 30)");
	ok(cb_calls > calls, "the callback runs at the read");
	ok(rdd("Ctr::CBD") == 2.125, "a double callback");
	ok(sde_ti_is_simple_counter(id_of("Ctr::LL")) && !sde_ti_is_simple_counter(id_of("Ctr::CB")),
	   "sde_ti_is_simple_counter: by address, not by callback");

	/* descriptions */
	is_str(sde_ti_get_event_description(id_of("Ctr::LL")), "Ctr::LL", "the default description is the name");
	is_int(papi_sde_describe_counter(h, "LL", "long long counter"), SDE_OK, "describe");
	is_str(sde_ti_get_event_description(id_of("Ctr::LL")), "long long counter", "the description");
	is_int(papi_sde_describe_counter(h, "nope", "x"), SDE_EINVAL, "describe what is not registered");
	is_int(papi_sde_describe_counter(h, "LL", NULL), SDE_EINVAL, "describe with NULL");
	is_str(sde_ti_get_event_name(id_of("Ctr::LL")), "Ctr::LL", "sde_ti_get_event_name");

	/* writes: read-write counters only */
	is_int(sde_ti_write_counter(id_of("Ctr::I"), 100), SDE_OK, "write a read-write counter");
	is_int(iv, 100, "the library's variable holds it");
	is_int(rd("Ctr::I"), 100, "and it reads as written");
	iv += 2;
	is_int(rd("Ctr::I"), 102, "then counts on");
	is_int(sde_ti_write_counter(id_of("Ctr::LL"), 1), SDE_EINVAL, "a read-only counter is not written");
	is_int(sde_ti_write_counter(id_of("Ctr::CB"), 1), SDE_EINVAL, "nor a callback");

	reentrant_h = h;
	papi_sde_register_counter_cb(h, "reentrant", PAPI_SDE_INSTANT, PAPI_SDE_long_long, reentrant, NULL);
	is_int(rd("Ctr::reentrant"), 42, "a callback may call libsde");
}

static void test_created(void)
{
	papi_handle_t h = papi_sde_init("Cre");
	void *c = NULL, *c2 = NULL;
	is_int(papi_sde_create_counter(h, "C", PAPI_SDE_DELTA, &c), SDE_OK, "create a counter");
	ok(c != NULL, "with a handle");
	is_int(papi_sde_create_counter(h, "C", PAPI_SDE_DELTA, &c2), SDE_OK, "create it again");
	ok(c2 == c, "the same handle");
	ok(papi_sde_get_counter_handle(h, "C") == c, "papi_sde_get_counter_handle");
	ok(papi_sde_get_counter_handle(h, "nope") == NULL, "no handle for an unknown name");
	is_int(papi_sde_inc_counter(c, 3), SDE_OK, "inc");
	papi_sde_inc_counter(c, 4);
	is_int(rd("Cre::C"), 7, "7 after 3 + 4");
	sde_ti_reset_counter(id_of("Cre::C"));
	papi_sde_inc_counter(c, -2);
	is_int(rd("Cre::C"), -2, "a negative increment, from the reset");
	is_int(papi_sde_reset_counter(c), SDE_OK, "papi_sde_reset_counter");
	sde_ti_reset_counter(id_of("Cre::C"));
	is_int(rd("Cre::C"), 0, "0 after both resets");
	long long x = 0;
	papi_sde_register_counter(h, "V", PAPI_SDE_DELTA, PAPI_SDE_long_long, &x);
	is_int(papi_sde_create_counter(h, "V", PAPI_SDE_DELTA, &c2), SDE_EINVAL, "create over a registered counter");
	is_int(papi_sde_inc_counter(papi_sde_get_counter_handle(h, "V"), 1), SDE_EINVAL,
	       "inc a counter registered by address");
	is_int(papi_sde_inc_counter(h, 1), SDE_EINVAL, "inc a library's handle");
	is_int(papi_sde_reset_counter(h), SDE_EINVAL, "reset_counter a library's handle");
	is_int(papi_sde_create_counter(h, "bad", 0x4, &c2), SDE_EINVAL, "create with an unknown mode");
	void *w = NULL;
	papi_sde_create_counter(h, "W", PAPI_SDE_RW | PAPI_SDE_DELTA, &w);
	is_int(sde_ti_write_counter(id_of("Cre::W"), 50), SDE_OK, "write a read-write created counter");
	papi_sde_inc_counter(w, 1);
	is_int(rd("Cre::W"), 51, "51");
}

static void test_groups(void)
{
	papi_handle_t h = papi_sde_init("Grp");
	static long long a = 10, b = 3, c = 7;
	static double d1 = 1.5, d2 = 2.25;
	papi_sde_register_counter(h, "a", PAPI_SDE_DELTA, PAPI_SDE_long_long, &a);
	papi_sde_register_counter(h, "b", PAPI_SDE_DELTA, PAPI_SDE_long_long, &b);
	papi_sde_register_counter(h, "c", PAPI_SDE_INSTANT, PAPI_SDE_long_long, &c);
	papi_sde_register_counter(h, "d1", PAPI_SDE_INSTANT, PAPI_SDE_double, &d1);
	papi_sde_register_counter(h, "d2", PAPI_SDE_INSTANT, PAPI_SDE_double, &d2);
	is_int(papi_sde_add_counter_to_group(h, "a", "sum", PAPI_SDE_SUM), SDE_OK, "make a SUM group");
	is_int(papi_sde_add_counter_to_group(h, "b", "sum", PAPI_SDE_SUM), SDE_OK, "add to it");
	is_int(papi_sde_add_counter_to_group(h, "b", "sum", PAPI_SDE_SUM), SDE_OK, "add a member again");
	is_int(rd("Grp::sum"), 13, "SUM: 10 + 3 (once each)");
	papi_sde_add_counter_to_group(h, "a", "max", PAPI_SDE_MAX);
	papi_sde_add_counter_to_group(h, "b", "max", PAPI_SDE_MAX);
	papi_sde_add_counter_to_group(h, "c", "max", PAPI_SDE_MAX);
	papi_sde_add_counter_to_group(h, "a", "min", PAPI_SDE_MIN);
	papi_sde_add_counter_to_group(h, "b", "min", PAPI_SDE_MIN);
	papi_sde_add_counter_to_group(h, "c", "min", PAPI_SDE_MIN);
	is_int(rd("Grp::max"), 10, "MAX");
	is_int(rd("Grp::min"), 3, "MIN (not 0: the first member starts it)");
	is_int(papi_sde_add_counter_to_group(h, "d1", "dsum", PAPI_SDE_SUM), SDE_OK, "a double group");
	papi_sde_add_counter_to_group(h, "d2", "dsum", PAPI_SDE_SUM);
	ok(rdd("Grp::dsum") == 3.75, "double SUM");
	is_int(papi_sde_add_counter_to_group(h, "sum", "outer", PAPI_SDE_SUM), SDE_OK, "a group in a group");
	papi_sde_add_counter_to_group(h, "c", "outer", PAPI_SDE_SUM);
	is_int(rd("Grp::outer"), 20, "nested SUM: 13 + 7");
	/* a group's reset starts its members over */
	sde_ti_reset_counter(id_of("Grp::outer"));
	a += 2;
	b += 1;
	is_int(rd("Grp::outer"), 10, "after the group's reset: 3 + the INSTANT 7");
	is_int(rd("Grp::a"), 2, "the member's own value counts from the group's reset too");

	is_int(papi_sde_add_counter_to_group(h, "a", "sum", PAPI_SDE_MAX), SDE_EINVAL, "other flags than the group's");
	is_int(papi_sde_add_counter_to_group(h, "a", "g", 3), SDE_EINVAL, "unknown flags");
	is_int(papi_sde_add_counter_to_group(h, "nope", "g", PAPI_SDE_SUM), SDE_EINVAL, "no such counter");
	is_int(papi_sde_add_counter_to_group(h, "d1", "sum", PAPI_SDE_SUM), SDE_EINVAL,
	       "a double in an integer group");
	is_int(papi_sde_add_counter_to_group(h, "outer", "sum", PAPI_SDE_SUM), SDE_EINVAL, "a group inside itself");
	is_int(papi_sde_add_counter_to_group(h, "sum", "sum", PAPI_SDE_SUM), SDE_EINVAL, "a group in itself");
	is_int(papi_sde_add_counter_to_group(h, "a", "b", PAPI_SDE_SUM), SDE_EINVAL, "a group named as a counter");
	void *rec;
	papi_sde_create_recorder(h, "rec", sizeof(long long), NULL, &rec);
	is_int(papi_sde_add_counter_to_group(h, "rec", "g", PAPI_SDE_SUM), SDE_EINVAL, "a recorder in a group");
	is_int(papi_sde_register_counter(h, "sum", PAPI_SDE_DELTA, PAPI_SDE_long_long, &a), SDE_EINVAL,
	       "a counter named as a group");
	is_int(papi_sde_describe_counter(h, "sum", "a plus b"), SDE_OK, "describe a group");
	is_str(sde_ti_get_event_description(id_of("Grp::sum")), "a plus b", "the group's description");
}

static void test_recorders(void)
{
	papi_handle_t h = papi_sde_init("Rec");
	void *r = NULL, *r2 = NULL;
	is_int(papi_sde_create_recorder(h, "r", sizeof(long long), papi_sde_compare_long_long, &r), SDE_OK,
	       "create a recorder with a comparison");
	const char *aux[] = { "Rec::r:CNT", "Rec::r:MIN", "Rec::r:Q1", "Rec::r:MED", "Rec::r:Q3", "Rec::r:MAX" };
	for (int i = 0; i < 6; i++)
		ok(sde_ti_is_registered(id_of(aux[i])), "%s is registered", aux[i]);
	is_int(rd("Rec::r:CNT"), 0, "nothing recorded");
	is_int(rd("Rec::r"), 0, "no values: a NULL address");
	is_int(rd("Rec::r:MIN"), 0, "no minimum yet");
	long long vals[] = { 40, 10, 30, 20, 50, 0, 90, 60 };
	for (int i = 0; i < 8; i++)
		papi_sde_record(r, sizeof vals[i], &vals[i]);
	is_int(rd("Rec::r:CNT"), 8, "8 recorded");
	long long *copy = (long long *)(intptr_t)rd("Rec::r");
	ok(copy && memcmp(copy, vals, sizeof vals) == 0, "the values, in order, in a copy");
	free(copy);
	const char *red[] = { "Rec::r:MIN", "Rec::r:Q1", "Rec::r:MED", "Rec::r:Q3", "Rec::r:MAX" };
	long long want[] = { 0, 20, 40, 60, 90 };	/* sorted: 0 10 20 30 40 50 60 90, index n*p/100 */
	for (int i = 0; i < 5; i++) {
		long long *p = (long long *)(intptr_t)rd(red[i]);
		is_int(p ? *p : -1, want[i], "%s", red[i]);
		free(p);
	}
	long long more = 100, most = 110;
	papi_sde_record(r, sizeof more, &more);
	papi_sde_record(r, sizeof most, &most);
	long long *mx = (long long *)(intptr_t)rd("Rec::r:MAX"), *md = (long long *)(intptr_t)rd("Rec::r:MED");
	ok(mx && *mx == 110 && md && *md == 50, "new values change MAX and the median");
	free(mx);
	free(md);
	is_int(papi_sde_record(r, 4, &more), SDE_EINVAL, "a value of another size");
	is_int(papi_sde_record(r, sizeof more, NULL), SDE_EINVAL, "no value");
	is_int(papi_sde_inc_counter(r, 1), SDE_EINVAL, "inc a recorder");
	is_int(papi_sde_reset_recorder(r), SDE_OK, "reset the recorder");
	is_int(rd("Rec::r:CNT"), 0, "empty again");
	is_int(papi_sde_create_recorder(h, "r", sizeof(long long), papi_sde_compare_long_long, &r2), SDE_OK,
	       "create it again");
	ok(r2 == r, "the same recorder");
	is_int(papi_sde_create_recorder(h, "r", 4, NULL, &r2), SDE_EINVAL, "again with another size");
	is_int(papi_sde_create_recorder(h, "z", 0, NULL, &r2), SDE_EINVAL, "values of size 0");
	void *d = NULL;
	is_int(papi_sde_create_recorder(h, "d", sizeof(double), NULL, &d), SDE_OK, "a recorder without comparison");
	ok(sde_ti_is_registered(id_of("Rec::d:CNT")) && !sde_ti_is_registered(id_of("Rec::d:MIN")),
	   "has :CNT, not :MIN");
	double x = 2.5;
	papi_sde_record(d, sizeof x, &x);
	double *dp = (double *)(intptr_t)rd("Rec::d");
	ok(dp && *dp == 2.5, "GET_SDE_RECORDER_ADDRESS reads doubles");
	free(dp);
	is_int(papi_sde_reset_recorder(h), SDE_EINVAL, "reset_recorder on a library's handle");
	is_int(sde_ti_set_counter_overflow(id_of("Rec::d"), 5), SDE_EINVAL, "no overflow on a recorder");
	/* a name of a reduction taken: the recorder is refused */
	long long y = 0;
	papi_sde_register_counter(h, "t:MAX", PAPI_SDE_DELTA, PAPI_SDE_long_long, &y);
	is_int(papi_sde_create_recorder(h, "t", 8, papi_sde_compare_long_long, &r2), SDE_EINVAL,
	       "a recorder whose :MAX is taken");
	ok(!sde_ti_is_registered(id_of("Rec::t")), "is not made");
	/* many values */
	void *big = NULL;
	papi_sde_create_recorder(h, "big", sizeof(int), papi_sde_compare_int, &big);
	for (int i = 10000; i > 0; i--)
		papi_sde_record(big, sizeof i, &i);
	int *q = (int *)(intptr_t)rd("Rec::big:Q1");
	is_int(rd("Rec::big:CNT"), 10000, "10000 values");
	is_int(q ? *q : -1, 2501, "their first quartile");
	free(q);
}

struct elem {
	int id;
	double payload;
};

static void test_csets(void)
{
	papi_handle_t h = papi_sde_init("Set");
	void *s = NULL;
	is_int(papi_sde_create_counting_set(h, "s", &s), SDE_OK, "create a counting set");
	is_int(rd("Set::s"), 0, "empty: a NULL list");
	for (int i = 0; i < 100; i++) {
		struct elem e = { i % 7, i };	/* told apart by id only */
		papi_sde_counting_set_insert(s, sizeof e, sizeof e.id, &e, 1);
	}
	struct elem e = { 3, 0 };
	is_int(papi_sde_counting_set_insert(s, sizeof e, sizeof e, &e, 2), SDE_OK, "another type_id");
	cset_list_object_t *list = (cset_list_object_t *)(intptr_t)rd("Set::s");
	int n = 0, total = 0, ok_sizes = 1;
	for (cset_list_object_t *o = list; o; o = o->next) {
		n++;
		total += (int)o->count;
		ok_sizes &= o->type_size == sizeof(struct elem);
	}
	is_int(n, 8, "7 ids of type 1, one of type 2");
	is_int(total, 101, "101 insertions");
	ok(ok_sizes, "each with its element's size");
	free(list);	/* one block */
	struct elem three = { 3, 0 };
	for (int i = 0; i < 15; i++)
		papi_sde_counting_set_remove(s, sizeof three.id, &three, 1);
	list = (cset_list_object_t *)(intptr_t)rd("Set::s");
	n = 0;
	for (cset_list_object_t *o = list; o; o = o->next)
		n++;
	is_int(n, 7, "removing every id 3 of type 1 drops it");
	free(list);
	is_int(papi_sde_counting_set_remove(s, sizeof three.id, &three, 1), SDE_EINVAL, "remove what is not there");
	is_int(papi_sde_counting_set_insert(s, 4, 8, &three, 1), SDE_EINVAL, "hashable size above the element's");
	is_int(papi_sde_counting_set_insert(s, 8, 0, &three, 1), SDE_EINVAL, "hashable size 0");
	is_int(papi_sde_counting_set_insert(s, 8, 8, NULL, 1), SDE_EINVAL, "no element");
	is_int(papi_sde_counting_set_insert(h, 8, 8, &three, 1), SDE_EINVAL, "a library's handle");
	void *s2 = NULL;
	is_int(papi_sde_create_counting_set(h, "s", &s2), SDE_OK, "create it again");
	ok(s2 == s, "the same set");
}

static void test_unregister(void)
{
	papi_handle_t h = papi_sde_init("Unr");
	static long long v = 8;
	papi_sde_register_counter(h, "v", PAPI_SDE_DELTA, PAPI_SDE_long_long, &v);
	papi_sde_add_counter_to_group(h, "v", "g", PAPI_SDE_SUM);
	uint32_t id = id_of("Unr::v");
	is_int(papi_sde_unregister_counter(h, "v"), SDE_OK, "unregister");
	is_int(papi_sde_unregister_counter(h, "v"), SDE_EINVAL, "again");
	is_int(papi_sde_unregister_counter(h, "never"), SDE_EINVAL, "a name never registered");
	ok(!sde_ti_is_registered(id), "not registered");
	is_int(rd("Unr::v"), -1, "reads -1");
	is_int(rd("Unr::g"), 0, "its group, now empty, 0");
	is_int(id_of("Unr::v"), id, "the name keeps its id");
	is_int(papi_sde_register_counter(h, "v", PAPI_SDE_INSTANT, PAPI_SDE_long_long, &v), SDE_OK, "register it again");
	is_int(rd("Unr::v"), 8, "counts again, in the same id");
	is_int(rd("Unr::g"), 8, "and in its group");
	void *r;
	papi_sde_create_recorder(h, "r", 8, papi_sde_compare_long_long, &r);
	papi_sde_unregister_counter(h, "r");
	ok(!sde_ti_is_registered(id_of("Unr::r:CNT")) && !sde_ti_is_registered(id_of("Unr::r:Q3")),
	   "unregistering a recorder unregisters its :CNT ... :MAX");
	is_int(papi_sde_record(r, 8, &v), SDE_EINVAL, "its handle is refused since");
	void *c;
	papi_sde_create_counter(h, "c", PAPI_SDE_DELTA, &c);
	is_int(papi_sde_shutdown(h), SDE_OK, "papi_sde_shutdown");
	ok(!sde_ti_is_registered(id_of("Unr::v")) && !sde_ti_is_registered(id_of("Unr::c")),
	   "unregisters all of the library");
	is_int(papi_sde_inc_counter(c, 1), SDE_EINVAL, "a created counter's handle is refused since");
	ok(papi_sde_init("Unr") == h, "the library registers again");
}

static void test_tool_interface(void)
{
	uint32_t id = 7;
	is_int(sde_ti_name_to_code("NoColons", &id), SDE_ENOEVNT, "a name without LIBRARY::");
	is_int(sde_ti_name_to_code("::x", &id), SDE_ENOEVNT, "no library");
	is_int(sde_ti_name_to_code("Lib::", &id), SDE_ENOEVNT, "no event");
	is_int(sde_ti_name_to_code(NULL, &id), SDE_EINVAL, "NULL");
	int before = sde_ti_get_num_reg_events();
	uint32_t later = UINT32_MAX;
	is_int(sde_ti_name_to_code("Later::ev", &later), SDE_OK,
	       "a name no library registered yet gets an id (PAPI 7.0)");
	is_int(sde_ti_get_num_reg_events(), before + 1, "one more id");
	ok(!sde_ti_is_registered(later), "not registered");
	is_str(sde_ti_get_event_name((int)later), "Later::ev", "its name");
	long long v = 0;
	is_int(sde_ti_read_counter(later, &v), SDE_OK, "it reads");
	is_int(v, -1, "as -1");
	is_int(sde_ti_set_counter_overflow(later, 10), SDE_OK, "overflow is remembered until it is registered");
	static long long late = 31;
	papi_sde_register_counter(papi_sde_init("Later"), "ev", PAPI_SDE_INSTANT, PAPI_SDE_long_long, &late);
	is_int(id_of("Later::ev"), later, "registered under the same id");
	sde_ti_read_counter(later, &v);
	is_int(v, 31, "and counts");
	ok(sde_ti_is_counter_set_to_overflow(later), "polled for overflow");
	is_int(sde_ti_set_counter_overflow(later, 10), 0xFF, "a counter libsde does not see change is polled");
	is_int(sde_ti_set_counter_overflow(later, 0), 0xFF, "cleared");
	ok(!sde_ti_is_counter_set_to_overflow(later), "not polled");
	uint32_t none = (uint32_t)sde_ti_get_num_reg_events();
	is_int(sde_ti_read_counter(none, &v), SDE_EINVAL, "read an id never given");
	is_int(sde_ti_reset_counter(none), SDE_EINVAL, "reset an id never given");
	is_int(sde_ti_write_counter(none, 1), SDE_EINVAL, "write an id never given");
	ok(sde_ti_get_event_name((int)none) == NULL && sde_ti_get_event_name(-1) == NULL, "no name");
	is_int(sde_ti_set_counter_overflow(none, 1), SDE_EINVAL, "overflow on an id never given");
	is_int(sde_ti_shutdown(), SDE_OK, "sde_ti_shutdown");
	ok(sde_ti_is_registered(id_of("Ctr::LL")), "leaves the libraries' counters registered");
}

#define NTHREADS 4
#define NINC 100000
static void *incer(void *c)
{
	for (int i = 0; i < NINC; i++)
		papi_sde_inc_counter(c, 1);
	return NULL;
}

static void test_threads(void)
{
	void *c = NULL;
	papi_sde_create_counter(papi_sde_init("Thr"), "c", PAPI_SDE_DELTA, &c);
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, incer, c);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	is_int(rd("Thr::c"), NTHREADS * NINC, "increments from %d threads, none lost", NTHREADS);
}

int main(void)
{
	test_init();
	test_counters();
	test_created();
	test_groups();
	test_recorders();
	test_csets();
	test_unregister();
	test_tool_interface();
	test_threads();
	return tap_done();
}
