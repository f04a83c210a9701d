#!/bin/busybox sh
# guest-init.sh: /init of make check-pmu's QEMU guest (busybox sh, as PID 1).
#
# Mounts what the tests read (proc, sysfs, devtmpfs, a tmpfs for /tmp), lets
# user space read the PMU's counters (perf_user_access), sets
# perf_event_paranoid to 2, prints what the kernel found, then runs
# test/tools/run-tests.sh over the aarch64 test programs under /papi/build
# and the sh tests under /papi/test/pmu, as root and again as the ordinary
# user papitest, where a skip for want of a PMU is a failure. Its report comes out on the serial
# console between the lines "@@ begin" and "@@ end STATUS"; the host
# (test/tools/check-pmu.sh) reads it from there. Then the guest powers off.
#
# The kernel command line passes: papi_tests=PATTERN (run only the tests
# whose path contains it), papi_qemu=1 (QEMU's PMU under -icount: the tests
# get PMU_QEMU=1, see test/pmu/pmu_util.h), papi_timeout=SECONDS (a test),
# papi_verbose=1 (every test's whole output).
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp TMPDIR=/tmp LC_ALL=C
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
# The loopback interface, for the tests that send datagrams to themselves.
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up

tests= qemu=0 tmo=120 verbose=0
for a in $(cat /proc/cmdline); do
	case "$a" in
	papi_tests=*) tests=${a#*=} ;;
	papi_qemu=*) qemu=${a#*=} ;;
	papi_timeout=*) tmo=${a#*=} ;;
	papi_verbose=*) verbose=${a#*=} ;;
	esac
done

# Counters read in user space where the kernel allows it (arm64: a sysctl),
# and the limits most users count under: Debian's perf_event_paranoid 2 (a
# user's own processes, user space only), which the run as papitest meets.
[ ! -w /proc/sys/kernel/perf_user_access ] || echo 1 > /proc/sys/kernel/perf_user_access
echo 2 > /proc/sys/kernel/perf_event_paranoid

echo "@@ kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
dmesg | grep -i 'hw perfevents' | sed 's/^\[[^]]*\] */@@ /'
echo "@@ begin"
# As root, then again as papitest, an ordinary user of the initramfs's
# /etc/passwd (run-tests.sh switches to it with busybox's su).
TESTS=$tests PMU_QEMU=$qemu NO_BATS=1 PMU_REQUIRED=1 TEST_PROGRESS=1 TEST_TIMEOUT=$tmo \
	TEST_VERBOSE=$verbose PAPI_TEST_USER=papitest \
	sh /papi/test/tools/run-tests.sh /papi/build
echo "@@ end $?"
# The kernel's own complaints (perf throttling, oopses) for the console log.
dmesg | grep -iE 'perf|oops|bug|warn' | sed 's/^/@@ dmesg: /'
sync
poweroff -f
