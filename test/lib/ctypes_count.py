#!/usr/bin/env python3
"""ctypes_count.py: a Python program that uses libpapi through ctypes, as the
Python bindings do: it sizes its buffers with PAPI_list_events(es, NULL, &n)
with n == 0, as PAPI 7.0 answers it, then counts.

    python3 ctypes_count.py LIBPAPI.so EVENT...

Prints one line per event, "NAME COUNT"; exits 1 with a message when a call
fails or an answer is not PAPI 7.0's."""
import ctypes
import sys

PAPI_OK, PAPI_NULL = 0, -1
PAPI_VER_CURRENT = 7 << 24  # PAPI_VERSION_NUMBER(7,0,0,0) & 0xffff0000


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lib = ctypes.CDLL(sys.argv[1])
    names = sys.argv[2:]
    lib.PAPI_strerror.restype = ctypes.c_char_p

    def check(what, ret, want=PAPI_OK):
        if ret != want:
            msg = lib.PAPI_strerror(ret) if ret < 0 else b"unexpected"
            raise SystemExit("ctypes_count: %s: %d (%s)" % (what, ret, msg.decode()))

    check("PAPI_library_init", lib.PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT)
    es = ctypes.c_int(PAPI_NULL)
    check("PAPI_create_eventset", lib.PAPI_create_eventset(ctypes.byref(es)))
    for name in names:
        check("PAPI_add_named_event " + name, lib.PAPI_add_named_event(es, name.encode()))

    # The size query: no array and *number == 0 give the number of events.
    n = ctypes.c_int(0)
    check("PAPI_list_events(es, NULL, &0)", lib.PAPI_list_events(es, None, ctypes.byref(n)))
    if n.value != len(names):
        raise SystemExit("ctypes_count: PAPI_list_events(es, NULL, &0) gave %d, not %d" % (n.value, len(names)))
    # and with an array but *number == 0, the same
    codes = (ctypes.c_int * n.value)()
    m = ctypes.c_int(0)
    check("PAPI_list_events(es, codes, &0)", lib.PAPI_list_events(es, codes, ctypes.byref(m)))
    if m.value != n.value:
        raise SystemExit("ctypes_count: PAPI_list_events(es, codes, &0) gave %d, not %d" % (m.value, n.value))
    m.value = n.value
    check("PAPI_list_events(es, codes, &n)", lib.PAPI_list_events(es, codes, ctypes.byref(m)))

    # Count into a buffer of exactly that size, with a guard behind it.
    values = (ctypes.c_longlong * (n.value + 1))()
    values[n.value] = 0x5A5A5A5A
    check("PAPI_start", lib.PAPI_start(es))
    total = 0
    for i in range(1, 300000):
        total += i * i
    check("PAPI_stop", lib.PAPI_stop(es, values))
    if values[n.value] != 0x5A5A5A5A:
        raise SystemExit("ctypes_count: PAPI_stop wrote past the %d values" % n.value)
    name = ctypes.create_string_buffer(1024)
    for i in range(n.value):
        check("PAPI_event_code_to_name", lib.PAPI_event_code_to_name(codes[i], name))
        print(name.value.decode(), values[i])
    check("PAPI_cleanup_eventset", lib.PAPI_cleanup_eventset(es))
    check("PAPI_destroy_eventset", lib.PAPI_destroy_eventset(ctypes.byref(es)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
