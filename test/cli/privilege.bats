#!/usr/bin/env bats
# privilege.bats: what an ordinary user can count at each perf_event_paranoid level, and what every counting command says when the kernel refuses.
load helper

BUILD=${PAPI_BUILD:-$PAPI_TOP/build}
NO_PERF=$BUILD/test/cli/no_perf

# May this user count the kernel's share? A whole CPU? (root holds CAP_SYS_ADMIN)
paranoid() { cat /proc/sys/kernel/perf_event_paranoid; }
kernel_ok() { [ "$(id -u)" = 0 ] || [ "$(paranoid)" -le 1 ]; }
cpu_ok() { [ "$(id -u)" = 0 ] || [ "$(paranoid)" -le 0 ]; }

# A user other than root that can run the papi under test, for root's runs.
other_user() {
	local u
	for u in papitest nobody; do
		id "$u" >/dev/null 2>&1 && setpriv --reuid="$u" --regid="$u" --clear-groups test -x "$PAPI_BIN" &&
			{ echo "$u"; return 0; }
	done
	return 1
}

# Run a command as an ordinary user: as it is when this run is one, else
# (root) through setpriv as other_user. Tests that use it call need_user first.
unprivileged() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
	else
		setpriv --reuid="$(other_user)" --regid="$(other_user)" --clear-groups "$@"
	fi
}

need_user() {
	[ "$(id -u)" != 0 ] || other_user >/dev/null ||
		skip "root's run: no ordinary user can read $PAPI_BIN (the run as one covers this)"
}

# The value of event $2 in papi stat's JSON report $1 (text, not a file:
# an ordinary user cannot write into the test's directory).
jval() {
	jq -e --arg n "$2" '.events[] | select(.name == $n) | .value' <<< "$1"
}

# A program that counts perf::CPU-CLOCK on all of CPU 0 (PAPI_CPU_ATTACH) and
# prints the return code and the reason.
cpu_prog() {
	cat > cpu.c <<'C'
#include <stdio.h>
#include <string.h>
#include "papi.h"
const char *papi_last_reason(void);
int main(void)
{
	int es = PAPI_NULL, r;
	PAPI_option_t o;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_create_eventset(&es) != PAPI_OK ||
	    PAPI_assign_eventset_component(es, 0) != PAPI_OK)
		return 2;
	memset(&o, 0, sizeof o);
	o.cpu.eventset = es;
	o.cpu.cpu_num = 0;
	r = PAPI_set_opt(PAPI_CPU_ATTACH, &o);
	if (r == PAPI_OK)
		r = PAPI_add_named_event(es, "perf::CPU-CLOCK");
	printf("%d %s\n", r, r == PAPI_OK ? "" : papi_last_reason());
	return 0;
}
C
	# where an ordinary user can run it
	PUB=$(mktemp -d /tmp/papi-privilege.XXXXXX)
	chmod 755 "$PUB"
	# the internal archive: papi_last_reason is not public
	${CC:-cc} -std=gnu11 -pthread -I "$PAPI_TOP/libpapi" -o "$PUB/cpu" cpu.c "$BUILD/libpapi-internal.a" -lm -lrt
}

# Set perf_event_paranoid to $1 for the command that follows, and back.
# Root only; teardown restores it should a test stop half-way.
with_paranoid() {
	local level=$1 rc=0
	shift
	echo "$level" > /proc/sys/kernel/perf_event_paranoid
	"$@" || rc=$?
	echo "$SAVED_PARANOID" > /proc/sys/kernel/perf_event_paranoid
	return "$rc"
}

teardown() {
	[ -z "${PUB:-}" ] || rm -rf "$PUB"
	if [ -n "${SAVED_PARANOID:-}" ] && [ "$(paranoid)" != "$SAVED_PARANOID" ]; then
		echo "$SAVED_PARANOID" > /proc/sys/kernel/perf_event_paranoid
	fi
}

@test "privilege: every command that counts says in one line why nothing can be counted, and exits 1" {
	[ -x "$NO_PERF" ] || skip "no $NO_PERF (make tests)"
	local args err
	for args in "stat true" "command-line perf::TASK-CLOCK" "command-line perf::TASK-CLOCK -- true" \
		"cost" "chooser perf::TASK-CLOCK" "native -c" "avail -a" "avail -c"; do
		for err in EACCES EPERM; do
			run --separate-stderr "$NO_PERF" "$err" "$PAPI_BIN" $args
			[ "$status" -eq 1 ] || { echo "$args ($err): exit $status"; return 1; }
			[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$args ($err): $stderr"; return 1; }
			[[ "$stderr" == "papi ${args%% *}: perf_event_open was refused although perf_event_paranoid="*": a security policy forbids it"* ]] ||
				{ echo "$args ($err): $stderr"; return 1; }
			[ -z "$output" ] || { echo "$args ($err) printed: $output"; return 1; }
		done
	done
	run --separate-stderr "$NO_PERF" ENOSYS "$PAPI_BIN" stat true
	[ "$status" -eq 1 ]
	[ "$stderr" = "papi stat: this kernel has no perf_event support" ]
}

@test "privilege: papi stat counts every domain this user may; command-line user space" {
	need_user
	# a sleeping command switches context in the kernel only; its page
	# faults are taken at user addresses
	run -0 --separate-stderr papi stat --json -e perf::CONTEXT-SWITCHES,perf::PAGE-FAULTS sleep 0.05
	[ "$(jval "$stderr" perf::PAGE-FAULTS)" -gt 0 ]
	if kernel_ok; then
		[ "$(jval "$stderr" perf::CONTEXT-SWITCHES)" -ge 1 ]
		jq -e '.domain == "all" and .domain_note == null and .events[0].domain == "all"' <<<"$stderr"
	else
		[ "$(jval "$stderr" perf::CONTEXT-SWITCHES)" -eq 0 ]
		jq -e '.domain == "user" and (.domain_note | test("perf_event_paranoid")) and
			.events[0].domain == "user"' <<<"$stderr"
	fi
	# the library's default stays PAPI's: user space
	run -0 papi command-line perf::CONTEXT-SWITCHES -- sleep 0.05
	[ "$output" = "perf::CONTEXT-SWITCHES  0" ]
	# an ordinary user counts user space, and the report says why once
	run --separate-stderr unprivileged "$PAPI_BIN" stat -e perf::TASK-CLOCK true
	[ "$status" -eq 0 ]
	if [ "$(paranoid)" -le 1 ]; then
		[[ "$stderr" == *" perf::TASK-CLOCK "* && "$stderr" != *paranoid* ]]
	else
		[[ "$stderr" == *" perf::TASK-CLOCK:u "* ]]
		[ "$(grep -c paranoid <<<"$stderr")" -eq 1 ]
		grep -qx " User space only (:u): counting the kernel needs perf_event_paranoid 1 or lower (it is $(paranoid)) or CAP_PERFMON: set /proc/sys/kernel/perf_event_paranoid to 1, or grant CAP_PERFMON." <<<"$stderr"
	fi
}

@test "privilege: papi stat falls back to user space when the kernel refuses what the capabilities allow" {
	# root of a user namespace holds every capability there, but the
	# kernel counts its own share only for the initial namespace's
	need_user
	unprivileged unshare -r true 2>/dev/null || skip "no unprivileged user namespaces here"
	run --separate-stderr unprivileged unshare -r "$PAPI_BIN" stat -e perf::PAGE-FAULTS,'{perf::TASK-CLOCK,perf::CONTEXT-SWITCHES}' true
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$stderr" == *" User space only (:u): the kernel refused to count its own share although this user holds CAP_PERFMON or CAP_SYS_ADMIN"* ]]
	[[ "$stderr" == *" perf::PAGE-FAULTS:u "* && "$stderr" == *" perf::CONTEXT-SWITCHES:u "* ]]
	[[ "$stderr" == *"Context switches happen in the kernel: counted in user space only, they may read 0."* ]]
	# a domain named outright is refused rather than changed
	run --separate-stderr unprivileged unshare -r "$PAPI_BIN" stat --domain=user,kernel -e perf::TASK-CLOCK true
	[ "$status" -eq 1 ]
}

@test "privilege: --domain=all is papi stat's default; command-line says once why it counts user space" {
	need_user
	run --separate-stderr papi stat --domain=all --json -o j -e perf::CONTEXT-SWITCHES sleep 0.05
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	if kernel_ok; then
		[ "$(jval "$(cat j)" perf::CONTEXT-SWITCHES)" -ge 1 ]
		jq -e '.domain == "all"' j
	else
		[ "$(jval "$(cat j)" perf::CONTEXT-SWITCHES)" -eq 0 ]
		jq -e '.domain == "user" and (.domain_note | startswith("counting the kernel needs perf_event_paranoid 1 or lower (it is '"$(paranoid)"') or CAP_PERFMON"))' j
	fi
	run --separate-stderr papi command-line --domain=all perf::CONTEXT-SWITCHES -- sleep 0.05
	[ "$status" -eq 0 ]
	if kernel_ok; then
		[ -z "$stderr" ] && [ "$output" != "perf::CONTEXT-SWITCHES  0" ]
	else
		[[ "$stderr" == "papi command-line: counting user space only: "* ]]
		[ "$output" = "perf::CONTEXT-SWITCHES  0" ]
	fi
	# --domain=user names user space outright: no note, the :u suffix
	run --separate-stderr papi stat --domain=user -e perf::TASK-CLOCK true
	[ "$status" -eq 0 ]
	[[ "$stderr" == *" perf::TASK-CLOCK:u "* && "$stderr" != *"User space only"* ]]
}

@test "privilege: a domain or qualifier that insists on the kernel is refused without the privilege" {
	local args
	for args in "stat --domain=user,kernel -e perf::CONTEXT-SWITCHES sleep 0.02" \
		"stat --domain=kernel true" "stat -e perf::CONTEXT-SWITCHES:k=1 sleep 0.02" \
		"command-line --domain=kernel perf::CONTEXT-SWITCHES -- sleep 0.02" \
		"command-line perf::CONTEXT-SWITCHES:u=1:k=1 -- sleep 0.02"; do
		run --separate-stderr papi $args
		if kernel_ok; then
			[ "$status" -eq 0 ] || { echo "$args: $stderr"; return 1; }
		else
			[ "$status" -eq 1 ] || { echo "$args: exit $status"; return 1; }
			[[ "$stderr" == *"counting the kernel needs perf_event_paranoid 1 or lower (it is $(paranoid)) or CAP_PERFMON"* ]] ||
				{ echo "$args: $stderr"; return 1; }
		fi
	done
	run -2 papi stat --domain=users true
	[[ "$output" == *"--domain: 'users' is not a list of user, kernel, supervisor (hv) or all"* ]]
	run -2 papi stat --domain=user, true
	run -2 papi command-line --domain= perf::TASK-CLOCK
}

@test "privilege: an event's own :k refused this user stops papi stat, alone or with others, as perf stat" {
	need_user
	[ "$(paranoid)" -ge 2 ] || skip "at perf_event_paranoid $(paranoid) an ordinary user counts the kernel"
	local ev
	for ev in perf::TASK-CLOCK:k perf::CONTEXT-SWITCHES,perf::TASK-CLOCK:k \
		'{perf::CONTEXT-SWITCHES,perf::TASK-CLOCK:k}' perf::TASK-CLOCK:k,perf::CONTEXT-SWITCHES; do
		run --separate-stderr unprivileged "$PAPI_BIN" stat -e "$ev" sh -c 'echo ran'
		[ "$status" -eq 1 ] || { echo "$ev: exit $status: $stderr"; return 1; }
		[ -z "$output" ] || { echo "$ev: the command ran"; return 1; }
		[[ "$stderr" == "papi stat: cannot count perf::TASK-CLOCK:k: counting the kernel needs perf_event_paranoid 1 or lower (it is $(paranoid)) or CAP_PERFMON"* ]] ||
			{ echo "$ev: $stderr"; return 1; }
	done
	# the same with :u=1:k=1; user space alone counts beside the others
	run --separate-stderr unprivileged "$PAPI_BIN" stat -e perf::CONTEXT-SWITCHES,perf::TASK-CLOCK:u=1:k=1 true
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot count perf::TASK-CLOCK:u=1:k=1: counting the kernel needs"* ]]
	run --separate-stderr -0 unprivileged "$PAPI_BIN" stat -j -e perf::CONTEXT-SWITCHES,perf::TASK-CLOCK:u true
	[ "$(jval "$stderr" perf::TASK-CLOCK:u)" -gt 0 ]
	# perf stat, as the same user, refuses the run as well
	if [ -x /usr/bin/perf ]; then
		run unprivileged /usr/bin/perf stat -e context-switches,task-clock:k true
		[ "$status" -ne 0 ]
		run -0 unprivileged /usr/bin/perf stat -e context-switches,task-clock:u true
	fi
}

@test "privilege: attaching to another user's process is refused with the reason" {
	[ "$(stat -c %u /proc/1)" != "$(id -u)" ] || [ "$(id -u)" = 0 ] || skip "process 1 belongs to this user"
	need_user
	run --separate-stderr unprivileged "$PAPI_BIN" stat -p 1 --timeout 100 -e perf::TASK-CLOCK
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"not permitted to count process 1: it belongs to another user; that needs CAP_PERFMON or the right to ptrace it"* ]]
}

@test "privilege: an event the kernel refuses this user is not supported, the others count, as under perf" {
	[ -d /sys/bus/event_source/devices/msr ] || skip "no msr PMU here"
	need_user
	[ "$(paranoid)" -ge 2 ] || skip "at perf_event_paranoid $(paranoid) an ordinary user counts msr's events"
	# msr's events count every privilege level: the kernel asks paranoid 1
	run --separate-stderr unprivileged "$PAPI_BIN" stat -j -e msr::tsc,perf::TASK-CLOCK true
	echo "$stderr"
	[ "$status" -eq 0 ]
	jq -e '.events[] | select(.name == "msr::tsc") | .available == false and (.reason | test("paranoid"))' <<<"$stderr"
	[ "$(jval "$stderr" perf::TASK-CLOCK)" -gt 0 ]
	# perf stat, as the same user, does the same
	if [ -x /usr/bin/perf ]; then
		run --separate-stderr unprivileged /usr/bin/perf stat -x, -e msr/tsc/,task-clock true
		grep -q '<not supported>,,msr/tsc/' <<<"$stderr"
		grep -Eq '^[0-9.]+,msec,task-clock' <<<"$stderr"
	fi
	# alone, nothing is left to count: an error, with the reason
	run --separate-stderr unprivileged "$PAPI_BIN" stat -e msr::tsc true
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot count msr::tsc: "*"paranoid"* ]]
}

@test "privilege: counting a whole CPU says what privilege it needs" {
	cpu_prog
	run "$PUB/cpu"
	if cpu_ok; then
		[ "$output" = "0 " ]
	else
		[ "$output" = "-15 PAPI_CPU_ATTACH: counting all of CPU 0 needs perf_event_paranoid 0 or lower (it is $(paranoid)) or CAP_PERFMON: set /proc/sys/kernel/perf_event_paranoid to 0, or grant CAP_PERFMON" ]
	fi
}

@test "privilege: an ordinary user at perf_event_paranoid 1 and -1, for real (root sets the level for a moment)" {
	[ "$(id -u)" = 0 ] || skip "needs root to set perf_event_paranoid"
	need_user
	cpu_prog
	SAVED_PARANOID=$(paranoid)
	# 1: the kernel's share of one's own processes, not a whole CPU
	run --separate-stderr with_paranoid 1 unprivileged "$PAPI_BIN" stat --domain=user,kernel --json \
		-e perf::CONTEXT-SWITCHES sleep 0.05
	[ "$status" -eq 0 ]
	[ "$(jval "$stderr" perf::CONTEXT-SWITCHES)" -ge 1 ]
	run with_paranoid 1 unprivileged "$PUB/cpu"
	[[ "$output" == "-15 PAPI_CPU_ATTACH: counting all of CPU 0 needs perf_event_paranoid 0 or lower (it is 1)"* ]]
	# -1: a whole CPU too
	run with_paranoid -1 unprivileged "$PUB/cpu"
	[ "$output" = "0 " ]
	[ "$(paranoid)" = "$SAVED_PARANOID" ]
}

@test "privilege: papi component says what this user may count, and why not more" {
	run -0 papi component -j
	if kernel_ok; then
		[ "$(jq -r .paranoid_advice <<< "$output")" = null ]
	else
		[ "$(jq -r .paranoid_advice <<< "$output")" = "user space only: counting the kernel needs perf_event_paranoid 1 or lower (it is $(paranoid)) or CAP_PERFMON: set /proc/sys/kernel/perf_event_paranoid to 1, or grant CAP_PERFMON" ]
	fi
	[ -x "$NO_PERF" ] || skip "no $NO_PERF (make tests)"
	run -0 "$NO_PERF" EACCES "$PAPI_BIN" component
	[[ "$output" == *"  perf_event_open was refused although perf_event_paranoid=$(paranoid)"*": a security policy forbids it"* ]]
}

@test "privilege: an ordinary user learns why uncore events need more (component, native -c, stat)" {
	need_user
	command -v jq >/dev/null || skip "jq is not installed"
	local ev
	ev=$(papi native --names -i perf_event_uncore::: | head -n 1)
	[ -n "$ev" ] || skip "perf_event_uncore has no events here (no uncore or other non-core PMU)"
	run --separate-stderr -0 unprivileged "$PAPI_BIN" component --json
	local why
	why=$(jq -r '.components[] | select(.name == "perf_event_uncore") | .counting_problem' <<< "$output")
	if [ "$(paranoid)" -le 0 ]; then
		[ "$why" = null ]
		skip "this user may count a whole CPU (perf_event_paranoid $(paranoid))"
	fi
	[[ "$why" == "uncore PMUs count whole sockets (CPU-wide, pid -1): that needs perf_event_paranoid 0 or lower (it is $(paranoid)) or CAP_PERFMON"* ]]
	run -0 unprivileged "$PAPI_BIN" component
	[[ "$output" == *$'\n'"perf_event_uncore: "*$'\n'"  but counting fails: uncore PMUs count whole sockets"* ]]
	run --separate-stderr -0 unprivileged "$PAPI_BIN" native -c -i "perf_event_uncore:::$ev"
	[[ "$output" == *"$ev   [cannot count here]"*"why: "*"perf_event_paranoid 0 or lower (it is $(paranoid))"* ]]
	run --separate-stderr -1 unprivileged "$PAPI_BIN" stat -e "$ev" true
	[[ "$stderr" == "papi stat: cannot count $ev: "*"perf_event_paranoid 0 or lower (it is $(paranoid))"* ]]
}
