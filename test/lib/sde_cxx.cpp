// sde_cxx.cpp: libsde's C++ API (sde_lib.hpp) in a program: each kind of event made through papi_sde::PapiSde, read back through the tool interface. Prints "ok" or what failed.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sde_lib.hpp"
#include "sde_ti.h"

static int failed;

static long long value(const char *name)
{
    uint32_t id = 0;
    long long v = -12345;
    if (sde_ti_name_to_code(name, &id) != SDE_OK || sde_ti_read_counter(id, &v) != SDE_OK)
        std::printf("cannot read %s\n", name), failed++;
    return v;
}

static void expect(long long got, long long want, const char *what)
{
    if (got != want)
        std::printf("%s: got %lld, want %lld\n", what, got, want), failed++;
}

static long long twice(long long *p)
{
    return 2 * *p;
}

int main()
{
    papi_sde::PapiSde sde("Cxx");
    long long n = 5;
    double d = 0.5;
    short s = 1;
    expect(sde.register_counter("n", PAPI_SDE_RO | PAPI_SDE_INSTANT, n), SDE_OK, "register_counter<long long>");
    expect(sde.register_counter("d", PAPI_SDE_RO | PAPI_SDE_INSTANT, d), SDE_OK, "register_counter<double>");
    expect(sde.register_counter("s", PAPI_SDE_RO, s), SDE_EINVAL, "register_counter<short>");
    expect(sde.register_counter_cb("twice", PAPI_SDE_RO | PAPI_SDE_INSTANT, twice, n), SDE_OK,
           "register_counter_cb");
    expect(sde.describe_counter("n", "five"), SDE_OK, "describe_counter");
    expect(sde.add_counter_to_group("n", "g", PAPI_SDE_SUM), SDE_OK, "add_counter_to_group");
    n = 7;
    expect(value("Cxx::n"), 7, "n");
    long long dv = value("Cxx::d");
    if (GET_DOUBLE_SDE(dv) != 0.5)
        std::printf("d is not 0.5\n"), failed++;
    expect(value("Cxx::twice"), 14, "twice");
    expect(value("Cxx::g"), 7, "g");

    papi_sde::PapiSde::CreatedCounter *c = sde.create_counter("c", PAPI_SDE_RO | PAPI_SDE_INSTANT);
    if (!c)
        return std::printf("create_counter failed\n"), 1;
    ++*c;
    *c += 10;
    --*c;
    c->increment(2.9);
    expect(value("Cxx::c"), 12, "created counter after ++, += 10, --, += 2.9");
    expect(c->reset(), SDE_OK, "CreatedCounter::reset");
    expect(value("Cxx::c"), 0, "after reset");
    if (sde.create_counter("n", PAPI_SDE_RO) != nullptr)
        std::printf("create_counter over a counter did not fail\n"), failed++;

    papi_sde::PapiSde::Recorder *r = sde.create_recorder("r", sizeof(double), papi_sde_compare_double);
    if (!r)
        return std::printf("create_recorder failed\n"), 1;
    r->record(3.0);
    r->record(1.0);
    expect(r->record(1), SDE_EINVAL, "record<int> in a recorder of doubles");
    expect(value("Cxx::r:CNT"), 2, "r:CNT");
    double *mn = GET_SDE_RECORDER_ADDRESS(value("Cxx::r:MIN"), double);
    if (!mn || *mn != 1.0)
        std::printf("r:MIN is not 1.0\n"), failed++;
    std::free(mn);
    expect(r->reset(), SDE_OK, "Recorder::reset");

    papi_sde::PapiSde::CountingSet *cs = sde.create_counting_set("cs");
    if (!cs)
        return std::printf("create_counting_set failed\n"), 1;
    struct { int key; int pad; } e = { 4, 9 };
    cs->insert(e, 1);
    cs->insert(sizeof e.key, e, 1);
    expect(cs->remove(sizeof e.key, e, 1), SDE_OK, "CountingSet::remove");
    cset_list_object_t *l = (cset_list_object_t *)(intptr_t)value("Cxx::cs");
    int objs = 0;
    for (cset_list_object_t *o = l; o; o = o->next)
        objs++;
    expect(objs, 1, "distinct elements left in the set");
    std::free(l);
    expect(sde.unregister_counter("n"), SDE_OK, "unregister_counter");
    expect(value("Cxx::n"), -1, "n after unregister_counter");
    delete c;
    delete r;
    delete cs;
    if (failed)
        return 1;
    std::printf("ok\n");
    return 0;
}
