#!/usr/bin/env python3
"""cffi_recipe.py: a Python binding built the way pypapi's recipe builds
its module: cffi's API mode, set_source() with '#include "papi.h"' and
libpapi.a as its only extra object, cdef() with the declarations the
binding uses. Nothing else is linked: libpapi.a must carry what it needs.

    python3 cffi_recipe.py build DIR LIBPAPI.a INCLUDEDIR
    python3 cffi_recipe.py count DIR

build compiles the module DIR/pypapi/_papi*.so; count imports it, checks
that PAPI_library_init returns PAPI_VER_CURRENT, counts perf::TASK-CLOCK
over a loop and prints "ok COUNT CPUTIME" when the count agrees with the
thread's CPU time (time.thread_time_ns, which shares nothing with
libpapi), "off ..." when not. A failure (an import error among them)
exits 1 with its message."""
import os
import sys
import time

CDEF = """
#define PAPI_OK ...
#define PAPI_NULL ...
#define PAPI_VER_CURRENT ...
int PAPI_library_init(int version);
int PAPI_create_eventset(int *EventSet);
int PAPI_add_named_event(int EventSet, const char *EventName);
int PAPI_start(int EventSet);
int PAPI_stop(int EventSet, long long *values);
int PAPI_cleanup_eventset(int EventSet);
int PAPI_destroy_eventset(int *EventSet);
char *PAPI_strerror(int);
"""


def build(out, archive, include):
    from cffi import FFI

    ffibuilder = FFI()
    ffibuilder.set_source("pypapi._papi", '#include "papi.h"',
                          extra_objects=[archive], include_dirs=[include])
    ffibuilder.cdef(CDEF)
    os.makedirs(os.path.join(out, "pypapi"), exist_ok=True)
    open(os.path.join(out, "pypapi", "__init__.py"), "w").close()
    ffibuilder.compile(tmpdir=out)


def count(out):
    sys.path.insert(0, out)
    try:
        from pypapi._papi import ffi, lib
    except ImportError as e:
        raise SystemExit("cffi_recipe: import: %s" % e)

    def check(what, ret, want=0):
        if ret != want:
            msg = lib.PAPI_strerror(ret) if ret < 0 else ffi.NULL
            text = ffi.string(msg).decode() if msg != ffi.NULL else "unexpected"
            raise SystemExit("cffi_recipe: %s: %d (%s)" % (what, ret, text))

    check("PAPI_library_init", lib.PAPI_library_init(lib.PAPI_VER_CURRENT), lib.PAPI_VER_CURRENT)
    es = ffi.new("int *", lib.PAPI_NULL)
    check("PAPI_create_eventset", lib.PAPI_create_eventset(es))
    check("PAPI_add_named_event", lib.PAPI_add_named_event(es[0], b"perf::TASK-CLOCK"))
    values = ffi.new("long long[1]")
    t0 = time.thread_time_ns()
    check("PAPI_start", lib.PAPI_start(es[0]))
    x = 0
    for i in range(2000000):
        x += i
    check("PAPI_stop", lib.PAPI_stop(es[0], values))
    t1 = time.thread_time_ns()
    check("PAPI_cleanup_eventset", lib.PAPI_cleanup_eventset(es[0]))
    check("PAPI_destroy_eventset", lib.PAPI_destroy_eventset(es))
    v, cpu = values[0], t1 - t0
    # inside [t0, t1] and for all of the loop; the kernel's two clocks of a
    # task differ by a few parts in a thousand
    print("%s %d %d" % ("ok" if cpu * 0.8 <= v <= cpu * 1.05 else "off", v, cpu))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "build":
        build(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "count":
        count(sys.argv[2])
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
