#!/usr/bin/env bats
# faults.bats: papi stat, avail, native and a libpapi client with their system calls failed by strace (test/tools/faults.sh): a clean error or a recovery, never a crash, hang, leak or file cut short.
load helper

# The matrix fails each call's first FAULT_N occurrences and its last (the
# same ones every run: the counts come from a plain run); make check-faults
# sets FAULT_N=0, every occurrence.
FAULT_N=${FAULT_N:-1}

setup_file() {
	export FAULT_DIR=$BATS_FILE_TMPDIR
	local cc=${CC:-cc}
	# the command papi stat counts, static: no loader whose calls would fail
	${cc%% *} -static -O2 -o "$FAULT_DIR/fault_work" "$PAPI_TOP/test/lib/fault_work.c" 2> /dev/null || :
	${cc%% *} -static -O2 -I"$PAPI_TOP/libpapi" -o "$FAULT_DIR/fault_client" \
		"$PAPI_TOP/test/lib/fault_client.c" "${PAPI_BUILD:-$PAPI_TOP/build}/libpapi.a" \
		-lpfm -lcsv -pthread -lm -lrt 2> /dev/null || :
}

setup() {
	papi_isolate
	command -v strace > /dev/null || skip "strace is not installed (make deps)"
	command -v jq > /dev/null || skip "jq is not installed (make deps)"
	strace -f -qq -o /dev/null true 2> /dev/null || skip "strace cannot trace here (ptrace refused)"
	# A sanitizer's runtime makes the calls failed here itself (its own
	# mmap, its reads of /proc): a fault there is its report, not papi's.
	! readelf -d "$PAPI_BIN" 2> /dev/null | grep -q 'lib[a-z]*san\.so' ||
		skip "a sanitizer build: its runtime's own calls would be failed"
	[ -x "$FAULT_DIR/fault_work" ] || skip "cannot link a static program (libc.a, from libc6-dev)"
	[ -x "$FAULT_DIR/fault_client" ] || skip "cannot link a static client on libpapi.a"
}

# faults [-v] [-n N] [-i CALL:ERRNO:WHEN] [SCENARIO...]: test/tools/faults.sh
# on the programs built above.
faults() {
	local opts=()
	while [ $# -gt 0 ] && [[ "$1" == -* ]]; do
		case $1 in
		-v) opts+=("$1"); shift ;;
		*) opts+=("$1" "$2"); shift 2 ;;
		esac
	done
	sh "$PAPI_TOP/test/tools/faults.sh" "${opts[@]}" "$FAULT_DIR/fault_work" "$FAULT_DIR/fault_client" "$@"
}

# fault [-P PATH] SCENARIO CALL:ERRNO:WHEN: that one fault (on PATH's
# calls alone); its verdict line is $verdict ("clean stat write ENOSPC 1 :
# papi stat: ...").
fault() {
	local only=()
	[ "$1" != -P ] || { only=(-P "$2"); shift 2; }
	run faults "${only[@]}" -i "$2" "$1"
	echo "$output"
	[ "${#lines[@]}" -eq 2 ]
	verdict=${lines[0]#--- }
}

@test "faults: each call of papi stat, avail, native and a client, failed at its first occurrence and its last" {
	run faults -v -n "$FAULT_N"
	echo "$output"
	echo "# ${lines[-1]}" >&3	# the figure, in the TAP output
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" =~ ^([0-9]+)\ injections,\ ([0-9]+)\ clean\ errors,\ ([0-9]+)\ recovered,\ 0\ degraded,.*\ 0\ crashes,\ 0\ hangs,\ 0\ leaks,\ 0\ bad$ ]]
	[ "${BASH_REMATCH[2]}" -gt 0 ] && [ "${BASH_REMATCH[3]}" -gt 0 ]
	# every scenario had faults that took effect, each errno of the matrix
	# was injected, and papi stat failed cleanly in each of its scenarios
	local s e
	for s in stat stat-I stat-r stat-o stat-save stat-ptrace avail native client; do
		printf '%s\n' "${lines[@]}" | grep -Eq "^--- (clean|recovered|known) $s " ||
			{ echo "no fault took effect in $s"; return 1; }
	done
	for e in EMFILE EACCES ENOENT EBUSY EINTR EIO ENOMEM ENOSPC EAGAIN EPERM; do
		printf '%s\n' "${lines[@]}" | grep -Eq "^--- [a-z]+ [a-z-]+ [a-z0-9_]+ $e " ||
			{ echo "$e was never injected"; return 1; }
	done
	for s in stat stat-I stat-r stat-o stat-save stat-ptrace; do
		printf '%s\n' "${lines[@]}" | grep -Eq "^--- clean $s .* : papi stat: " ||
			{ echo "no clean error in $s"; return 1; }
	done
}

@test "faults: a counter read a signal interrupts is read again (PAPI_read, papi stat)" {
	fault client read:EINTR:2
	[ "$verdict" = "recovered client read EINTR 2" ]
	fault stat read:EINTR:1
	[ "$verdict" = "recovered stat read EINTR 1" ]
}

# papi stat -I forks the command, which waits for a byte on a pipe until its
# counters are open.
@test "faults: papi stat -I whose command cannot get the go-ahead fails, and reports no run" {
	fault stat-I write:ENOSPC:1
	[[ "$verdict" == "clean stat-I write ENOSPC 1 : papi stat: cannot start '"*"/fault_work': No space left on device" ]]
	fault stat-I read:EINTR:1
	[ "$verdict" = "recovered stat-I read EINTR 1" ]
	# the command's wait and papi stat's for its exec both fail
	fault stat-I read:EIO:1
	[[ "$verdict" == "clean stat-I read EIO 1 : papi stat: cannot start '"*"/fault_work': "* ]]
}

# posix_spawn (plain counting) clones with clone3 here, fork_command (-I)
# with clone: no process for the command is papi stat's failure, status 1,
# never 126 ("could not be executed").
@test "faults: papi stat whose command gets no process says so and exits 1" {
	fault stat clone3:EAGAIN:1
	[[ "$verdict" == "clean stat clone3 EAGAIN 1 : papi stat: cannot start '"*"/fault_work': Resource temporarily unavailable" ]]
	fault stat mmap:ENOMEM:1
	[[ "$verdict" == "clean stat mmap ENOMEM 1 : papi stat: cannot start '"*"/fault_work': Cannot allocate memory" ]]
	fault stat-I clone:EAGAIN:1
	[[ "$verdict" == "clean stat-I clone EAGAIN 1 : papi stat: cannot start '"*"/fault_work': Resource temporarily unavailable" ]]
}

# The check before counting opens a user-space task clock: a failure of
# that first perf_event_open other than a refusal names what failed.
@test "faults: papi stat's first perf_event_open failing for another reason than a refusal names what failed" {
	fault stat perf_event_open:EMFILE:1
	[ "$verdict" = "clean stat perf_event_open EMFILE 1 : papi stat: cannot count even perf::TASK-CLOCK in user space: out of file descriptors (raise 'ulimit -n')" ]
	fault stat perf_event_open:EBUSY:1
	[ "$verdict" = "clean stat perf_event_open EBUSY 1 : papi stat: cannot count even perf::TASK-CLOCK in user space: the counters are in use by another tool (or exclusive access)" ]
	fault stat perf_event_open:EACCES:1
	[[ "$verdict" == "clean stat perf_event_open EACCES 1 : papi stat: perf_event_open was refused although"* ]]
}

@test "faults: a report that -o or --save could not write whole is removed, and the message says why" {
	fault stat-o write:ENOSPC:1
	[ "$verdict" = "clean stat-o write ENOSPC 1 : papi stat: write error on report.txt: No space left on device" ]
	# a run that fails before its report leaves no empty -o file either
	fault stat-o perf_event_open:EMFILE:2
	[ "$verdict" = "clean stat-o perf_event_open EMFILE 2 : papi stat: cannot count perf::TASK-CLOCK: out of file descriptors (raise 'ulimit -n')" ]
	fault stat-save write:ENOSPC:last
	[[ "$verdict" == "clean stat-save write ENOSPC "[0-9]*" : papi stat: --save: write error on run.json: No space left on device" ]]
}

# Only the regular file papi wrote is removed: /dev/full (papi stat -o
# /dev/full is how one tests a full disk) or a link to it stays.
@test "faults: a report cut short is removed only when it is the regular file written, never a device or a link" {
	[ -w /dev/full ] || skip "no /dev/full"
	ln -s /dev/full full-link
	run -1 papi stat -o full-link -e perf::TASK-CLOCK "$FAULT_DIR/fault_work" 0
	[[ "$output" == *"papi stat: write error on full-link: No space left on device"* ]]
	[ -L full-link ]
	run -1 papi stat --save full-link -e perf::TASK-CLOCK "$FAULT_DIR/fault_work" 0
	[[ "$output" == *"papi stat: --save: write error on full-link: No space left on device"* ]]
	[ -L full-link ]
	[ "$(id -u)" = 0 ] || return 0
	# a device of its own, as /dev/full is (only root may make one)
	mknod full c 1 7
	run -1 papi stat -o full -e perf::TASK-CLOCK "$FAULT_DIR/fault_work" 0
	[ -c full ]
	run -1 papi stat --save full -e perf::TASK-CLOCK "$FAULT_DIR/fault_work" 0
	[ -c full ]
}

# The intervals go to an unbuffered stderr as they end: the errno of their
# failed write is gone by the end of the run, unless kept then.
@test "faults: a failed write of papi stat -I's intervals gives that write's reason" {
	fault stat-I write:ENOSPC:2
	[ "$verdict" = "clean stat-I write ENOSPC 2 : papi stat: write error on stderr: No space left on device" ]
}

# --per-thread follows the command with ptrace; strace must not trace it too
# (the scenario runs without -f), and a stopped task that cannot be resumed
# (its PTRACE_CONT failing) must not leave papi stat waiting for it forever.
@test "faults: papi stat --per-thread whose stopped task cannot be resumed fails instead of waiting" {
	export FAULT_TIMEOUT=10
	fault stat-ptrace ptrace:EPERM:2
	[[ "$verdict" == "clean stat-ptrace ptrace EPERM 2 : papi stat: --per-thread: cannot let task "[0-9]*" go on after a stop: Operation not permitted" ]]
}

# The CPU's vendor and model come from /proc/cpuinfo, read with stdio:
# an interrupted read is read again, not the end of the file.
@test "faults: an interrupted read of /proc/cpuinfo leaves papi avail's CPU description whole" {
	[ -r /proc/cpuinfo ] || skip "no /proc/cpuinfo"
	run faults -v -P /proc/cpuinfo avail
	echo "$output"
	# each of its reads interrupted in turn, the output is the plain run's
	local eintr
	eintr=$(printf '%s\n' "${lines[@]}" | grep -E '^--- [a-z]+ avail [a-z0-9]+ EINTR ')
	[ -n "$eintr" ]
	! grep -v '^--- recovered ' <<< "$eintr"
}

# A /proc or sysfs file that is there but cannot be read leaves out what it
# describes: papi avail and papi native print what they could, name the
# file, and exit 1; an interrupted read of it is read again.
@test "faults: papi avail that cannot read /proc/cpuinfo or a CPU's topology says which file and exits 1" {
	[ -r /proc/cpuinfo ] || skip "no /proc/cpuinfo"
	local why=": the listing may be incomplete"
	fault -P /proc/cpuinfo avail openat:ENOMEM:1
	[ "$verdict" = "clean avail openat ENOMEM 1 : papi avail: could not read /proc/cpuinfo: Cannot allocate memory$why" ]
	fault -P /proc/cpuinfo avail pread64:EIO:1
	[ "$verdict" = "clean avail pread64 EIO 1 : papi avail: could not read /proc/cpuinfo: Input/output error$why" ]
	local topo=/sys/devices/system/cpu/cpu0/topology/physical_package_id
	[ -r "$topo" ] || skip "no $topo"
	fault -P "$topo" avail pread64:EIO:1
	[ "$verdict" = "clean avail pread64 EIO 1 : papi avail: could not read $topo: Input/output error$why" ]
	fault -P "$topo" avail pread64:EINTR:1
	[ "$verdict" = "recovered avail pread64 EINTR 1" ]
}

@test "faults: papi native that cannot read the kernel's PMUs or a component's /proc file says which and exits 1" {
	local why=": the listing may be incomplete" dir=/sys/bus/event_source/devices
	[ -r "$dir/software/type" ] || skip "no software PMU in sysfs"
	fault -P "$dir" native openat:ENOMEM:1
	[ "$verdict" = "clean native openat ENOMEM 1 : papi native: could not read $dir: Cannot allocate memory$why" ]
	# the PMU's type, read through the link to its device
	local type
	type=$(readlink -f "$dir/software/type")
	fault -P "$type" native pread64:EIO:1
	[ "$verdict" = "clean native pread64 EIO 1 : papi native: could not read $type: Input/output error$why" ]
	fault -P "$type" native pread64:EINTR:1
	[ "$verdict" = "recovered native pread64 EINTR 1" ]
	# the stealtime component's file
	fault -P /proc/stat native openat:ENOMEM:1
	[ "$verdict" = "clean native openat ENOMEM 1 : papi native: could not read /proc/stat: Cannot allocate memory$why" ]
}
