#!/usr/bin/env bats
# stat-events.bats: which events papi stat counts: one rule for events it cannot count (given or default), --strict, disabled components, forced PMUs, :cpu=N.

load helper

teardown() {
	[ -z "${BG:-}" ] || kill "$BG" 2>/dev/null || :
}

no_hw_pmu() {
	! ls /sys/bus/event_source/devices/ 2>/dev/null | grep -qx -e cpu -e cpu_core -e armv8_pmuv3_0
}

# An event that names fine but that this machine cannot count.
uncountable() {
	no_hw_pmu || skip "a hardware PMU counts every event this test could name"
	echo PAPI_TOT_CYC
}

@test "stat -e: an event that cannot be counted is reported as not supported and the command runs" {
	ev=$(uncountable)
	run --separate-stderr papi stat -e "perf::TASK-CLOCK,$ev" sh -c 'echo ran; exit 3'
	[ "$status" -eq 3 ]
	[ "$output" = ran ]
	[[ "$stderr" == *"<not supported> $ev"* ]]
	[[ "$stderr" == *"Not supported: $ev:"* ]]
	[[ "$stderr" == *" ms   perf::TASK-CLOCK"* ]]
	# the same as in the default set
	run --separate-stderr papi stat sh -c 'echo ran'
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"<not supported> $ev"* ]]
	# JSON: unavailable, with the reason; the rest counted
	run -0 papi stat --json -o j.json -e "$ev,perf::TASK-CLOCK" true
	jq -e --arg n "$ev" '.events[] | select(.name == $n) |
		.available == false and (.reason | length > 0) and (.reason | startswith($n) | not)' j.json
	jq -e '.events[] | select(.name == "perf::TASK-CLOCK") | .available and .value > 0' j.json
}

@test "stat: nothing countable still runs the command, attached too" {
	ev=$(uncountable)
	run --separate-stderr papi stat -e "$ev" sh -c 'echo ran; exit 4'
	[ "$status" -eq 4 ]
	[ "$output" = ran ]
	[[ "$stderr" == *"<not supported> $ev"* ]]
	sleep 30 &
	BG=$!
	run papi stat -p "$BG" --timeout 100 -e "$ev"
	kill "$BG"
	[ "$status" -eq 0 ]
	[[ "$output" == *"<not supported> $ev"* ]]
}

@test "stat --strict: an event that cannot be counted stops papi stat before the command runs" {
	ev=$(uncountable)
	run --separate-stderr papi stat --strict -e "perf::TASK-CLOCK,$ev" sh -c 'echo ran'
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"papi stat: --strict: cannot count $ev: "* ]]
	# the default set alike
	run --separate-stderr papi stat --strict sh -c 'echo ran'
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	# and what can be counted runs
	run --separate-stderr papi stat --strict -e perf::TASK-CLOCK sh -c 'echo ran'
	[ "$status" -eq 0 ]
	[ "$output" = ran ]
}

@test "stat: an unknown event name is still an error" {
	run --separate-stderr papi stat -e perf::TASK-CLOCK,NO_SUCH_EVENT_X sh -c 'echo ran'
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"NO_SUCH_EVENT_X: unknown event"* ]]
}

@test "stat: PAPI_DISABLE_COMPONENTS=perf_event is honoured: nothing is counted, and why" {
	PAPI_DISABLE_COMPONENTS=perf_event run --separate-stderr papi stat -e perf::TASK-CLOCK sh -c 'echo ran'
	[ "$status" -eq 0 ]
	[ "$output" = ran ]
	[[ "$stderr" == *"<not supported> perf::TASK-CLOCK"* ]]
	[[ "$stderr" == *"PAPI_DISABLE_COMPONENTS"* ]]
	PAPI_DISABLE_COMPONENTS=perf_event run -0 papi stat --json -o j.json true
	jq -e '[.events[] | .available] | any | not' j.json
	jq -e '[.events[] | .reason | test("perf_event.*PAPI_DISABLE_COMPONENTS")] | all' j.json
	PAPI_DISABLE_COMPONENTS=perf_event run -1 --separate-stderr papi stat --strict -e perf::TASK-CLOCK true
	[[ "$stderr" == *"--strict: cannot count perf::TASK-CLOCK: component perf_event"* ]]
}

@test "stat: with perf_event disabled, the other components' events still count" {
	papi native --names 2>/dev/null | grep -qx 'io:::rchar' || skip "no io component in this build"
	PAPI_DISABLE_COMPONENTS=perf_event run -0 papi stat --json -o j.json \
		-e io:::rchar,perf::TASK-CLOCK cat /etc/hostname
	jq -e '.events[] | select(.name == "io:::rchar") | .available and .value > 0' j.json
	jq -e '.events[] | select(.name == "perf::TASK-CLOCK") | .available == false and
		(.reason | test("PAPI_DISABLE_COMPONENTS"))' j.json
}

@test "stat under LIBPFM_FORCE_PMU: perf:: events are not supported, with the reason, and the command runs" {
	LIBPFM_FORCE_PMU=skx run --separate-stderr papi stat sh -c 'echo ran'
	[ "$status" -eq 0 ]
	[ "$output" = ran ]
	[[ "$stderr" == *"<not supported> perf::TASK-CLOCK"* ]]
	[[ "$stderr" == *"LIBPFM_FORCE_PMU=skx makes libpfm4 name only that PMU's events"*"unset it"* ]]
	LIBPFM_FORCE_PMU=skx run --separate-stderr papi stat -e perf::TASK-CLOCK sh -c 'echo ran'
	[ "$status" -eq 0 ]
	[ "$output" = ran ]
	[[ "$stderr" == *"LIBPFM_FORCE_PMU=skx"* ]]
}

@test "LIBPFM_FORCE_PMU=bogus: stat and component blame the variable, not the CPU" {
	LIBPFM_FORCE_PMU=bogus run --separate-stderr papi stat sh -c 'echo ran'
	[ "$status" -eq 0 ]
	[ "$output" = ran ]
	[[ "$stderr" == *"LIBPFM_FORCE_PMU=bogus: libpfm4 knows no PMU of that name"* ]]
	LIBPFM_FORCE_PMU=bogus run -0 papi component
	[[ "$output" == *"LIBPFM_FORCE_PMU=bogus: libpfm4 knows no PMU of that name"* ]]
	[[ "$output" != *"does not know this CPU"* ]]
}

@test "stat -e EV:cpu=N: a CPU this machine lacks is refused with the reason" {
	n=$(getconf _NPROCESSORS_CONF)
	run --separate-stderr papi stat -e "perf::TASK-CLOCK:cpu=$n" sh -c 'echo ran'
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"perf::TASK-CLOCK:cpu=$n: cpu=$n: there is no CPU $n here (CPUs 0 to $((n - 1)))"* ]]
	run -1 papi stat -e perf::TASK-CLOCK:cpu=99999999 true
}

@test "stat -e EV:cpu=N: the command is counted on CPU N only" {
	n=$(getconf _NPROCESSORS_CONF)
	[ "$n" -ge 2 ] || skip "one CPU: nothing to tell apart"
	command -v taskset >/dev/null || skip "taskset is not installed"
	threads=${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/stat_threads
	last=$((n - 1))
	# pinned to the last CPU, with what it starts: nothing runs on CPU 0
	run -0 taskset -c "$last" "$PAPI_BIN" stat -x, -o c.csv \
		-e "perf::TASK-CLOCK:cpu=0,perf::TASK-CLOCK:cpu=$last,perf::TASK-CLOCK" "$threads" 1 40
	python3 - "$last" <<'PY'
import csv, sys
ev = {r[2]: r for r in csv.reader(open("c.csv")) if len(r) > 3 and r[1] == "event"}
on0 = ev["perf::TASK-CLOCK:cpu=0"]
onl = ev["perf::TASK-CLOCK:cpu=" + sys.argv[1]]
assert int(on0[3]) == 0 and int(on0[11]) == 0, on0          # no count, never running
assert int(onl[3]) >= 40000000 * 9 // 10, onl              # the 40 ms burn
assert int(ev["perf::TASK-CLOCK"][3]) >= 40000000 * 9 // 10
PY
}

@test "stat -e EV:u=0: qualifiers that leave no privilege level are an error naming the event" {
	local ev bad
	for ev in perf::PAGE-FAULTS:u=0 perf::PAGE-FAULTS:k=0 perf::CONTEXT-SWITCHES,perf::PAGE-FAULTS:u=0:k=0 \
		'{perf::CONTEXT-SWITCHES,perf::PAGE-FAULTS:k=0}'; do
		bad=${ev##*,}
		bad=${bad%\}}
		run --separate-stderr papi stat -e "$ev" sh -c 'echo ran'
		[ "$status" -eq 1 ] || { echo "$ev: exit $status: $stderr"; return 1; }
		[ -z "$output" ] || { echo "$ev: the command ran"; return 1; }
		[[ "$stderr" == "papi stat: cannot count $bad: its qualifiers turn off every privilege level"* ]] ||
			{ echo "$ev: $stderr"; return 1; }
	done
	run --separate-stderr -1 papi command-line perf::PAGE-FAULTS:u=0
	[[ "$stderr" == *"cannot add perf::PAGE-FAULTS:u=0: its qualifiers turn off every privilege level"* ]]
	# one level kept counts: the command's user-space page faults
	run --separate-stderr -0 papi stat -x, -e perf::PAGE-FAULTS:k=0:u=1 "${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/oracle_work" touch 500
	[[ "$stderr" =~ ,event,perf::PAGE-FAULTS:k=0:u=1,([0-9]+),.*,user$'\n' ]]
	[ "${BASH_REMATCH[1]}" -ge 500 ]
}

@test "stat -e COMPONENT:::EVENT: the command's I/O, the machine's network and steal time" {
	[ -r /proc/self/io ] || skip "this kernel has no /proc/self/io"
	printf 'hello' >five
	run --separate-stderr -0 papi stat -x, -e io:::wchar,io:::syscw,perf::TASK-CLOCK,stealtime:::TOTAL -- \
		dd if=five of=/dev/null bs=1 status=none
	[[ "$stderr" == *",event,io:::wchar,5,"* ]]
	[[ "$stderr" == *",event,io:::syscw,5,"* ]]
	[[ "$stderr" =~ ,event,stealtime:::TOTAL,[0-9]+, ]]
	# -r: each run its own counts
	run --separate-stderr -0 papi stat -r 3 --json -e io:::wchar -- dd if=five of=/dev/null bs=1 status=none
	command -v jq >/dev/null || skip "jq is not installed"
	[ "$(jq '.events[] | select(.name == "io:::wchar") | .min' <<<"$stderr")" -eq 5 ]
	[ "$(jq '.events[] | select(.name == "io:::wchar") | .max' <<<"$stderr")" -eq 5 ]
}

@test "stat: loopback traffic of the command is counted by net" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	run papi native --names -i net:::lo:rx:packets
	[ "$output" = net:::lo:rx:packets ] || skip "no loopback interface here"
	run --separate-stderr -0 papi stat -x, -e net:::lo:rx:packets,net:::lo:tx:bytes -- python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0))
for i in range(20): s.sendto(b"x" * 1000, s.getsockname()); s.recv(2000)'
	local p b
	p=$(awk -F, '$3 == "net:::lo:rx:packets" { print $4 }' <<<"$stderr")
	b=$(awk -F, '$3 == "net:::lo:tx:bytes" { print $4 }' <<<"$stderr")
	# other programs may use loopback meanwhile: at least ours
	[ "$p" -ge 20 ]
	[ "$b" -ge 20000 ]
}

@test "stat: a component that cannot count the targets is not supported, with the reason" {
	run --separate-stderr papi stat -e appio:::READ_BYTES,perf::TASK-CLOCK true
	if [[ "$stderr" == *"rebuild it with make APPIO=1"* ]]; then
		# built without I/O interposition (the default): appio is disabled
		[ "$status" -eq 1 ]
		[[ "$stderr" == *"appio:::READ_BYTES: component appio: libpapi was built without I/O interposition"* ]]
	else
		[ "$status" -eq 0 ]
		[[ "$stderr" == *"<not supported> appio:::READ_BYTES"* ]]
		[[ "$stderr" == *"component appio counts the thread that reads it: papi stat itself, not the command"* ]]
	fi
	[ -r /proc/self/io ] || skip "this kernel has no /proc/self/io"
	run --separate-stderr -0 papi stat -I 50 -e io:::rchar true
	[[ "$stderr" == *"component io sees the command's I/O only once it has ended: not with -I"* ]]
	run --separate-stderr -0 papi stat --no-inherit -e io:::rchar true
	[[ "$stderr" == *"not with --no-inherit"* ]]
	sleep 5 &
	BG=$!
	run --separate-stderr -0 papi stat -p "$BG" --timeout 50 -e io:::rchar,net:::lo:rx:bytes
	[[ "$stderr" == *"component io counts the process that reads it: papi stat itself, not the processes attached to"* ]]
	[[ "$stderr" =~ [0-9]+\ +net:::lo:rx:bytes ]] || [[ "$stderr" == *"<not supported> net:::lo:rx:bytes"* ]]
	run --separate-stderr -0 papi stat --strict -e io:::rchar true
	run --separate-stderr -1 papi stat --strict -I 50 -e io:::rchar true
	[[ "$stderr" == *"--strict: cannot count io:::rchar"* ]]
}

@test "stat -e {a,b}: a group of events counted together, beside events given alone" {
	run --separate-stderr papi stat -j -e '{perf::TASK-CLOCK,perf::PAGE-FAULTS},perf::CS,{perf::MINOR-FAULTS}' true
	[ "$status" -eq 0 ]
	jq -e '[.events[] | [.name, .group, .available]] == [["perf::TASK-CLOCK",1,true],
	       ["perf::PAGE-FAULTS",1,true],["perf::CS",null,true],["perf::MINOR-FAULTS",2,true]]' <<<"$stderr"
	# one kernel group: its members were enabled and running for the same time
	jq -e '[.events[] | select(.group == 1) | [.time_enabled, .time_running]] | unique | length == 1' <<<"$stderr"
	jq -e '.events[] | select(.name == "perf::TASK-CLOCK") | .value > 0' <<<"$stderr"
	run --separate-stderr papi stat -x, -e '{perf::TASK-CLOCK,perf::PAGE-FAULTS}' true
	[ "$(grep -c '^,event,perf::' <<<"$stderr")" -eq 2 ]
}

@test "stat -e {a,b}: counted whole or not at all; the reason names the group" {
	ev=$(uncountable)
	run --separate-stderr papi stat -e "{perf::TASK-CLOCK,$ev},perf::PAGE-FAULTS" true
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"<not supported> perf::TASK-CLOCK"* ]]
	[[ "$stderr" == *"<not supported> $ev"* ]]
	[[ "$stderr" == *"Not supported: perf::TASK-CLOCK, $ev:"* ]]
	[[ "$stderr" == *"{perf::TASK-CLOCK,$ev}: $ev: "*"no hardware PMU driver"* ]]
	grep -Eq '^ +[0-9]+ +perf::PAGE-FAULTS' <<<"$stderr"
	run --separate-stderr papi stat --strict -e "{perf::TASK-CLOCK,$ev}" true
	[ "$status" -eq 1 ]
}

@test "stat -e: braces that do not pair, nest or end a name are usage errors" {
	for e in '{a,b' 'a}' '{a,{b}}' '{a}:u' '{}' '{a,b},' 'a{b}'; do
		run papi stat -e "$e" true
		[ "$status" -eq 2 ] || { echo "-e $e: $output"; false; }
		[[ "$output" == *"in '-e $e'"* ]] || { echo "-e $e: $output"; false; }
	done
	run papi stat -e '{a,b}:u' true
	[[ "$output" == *"qualifiers go on each event inside"* ]]
}

@test "stat -e: a comma between PMU/TERMS/'s slashes does not end the name, in a group too" {
	local ev='nopmu/event=0x3c,umask=0x00/u'
	for list in "$ev" "perf::TASK-CLOCK,$ev" "{perf::TASK-CLOCK,$ev},perf::PAGE-FAULTS"; do
		run papi stat -o /dev/null -e "$list" true
		[ "$status" -eq 1 ] || { echo "-e $list: $output"; false; }
		[[ "$output" == *"papi stat: $ev: "* ]] || { echo "-e $list: $output"; false; }
		[[ "$output" != *"nopmu/event=0x3c: "* ]]
	done
}

@test "stat -e: a sampling qualifier (period=, freq=) is refused before the command runs" {
	for q in period=1000 freq=100 u:period=5000; do
		run -1 --separate-stderr papi stat -e "perf::TASK-CLOCK:$q" touch ran
		[[ "$stderr" == *"cannot count 'perf::TASK-CLOCK:$q': ${q#u:} asks for sampling"* ]] ||
			{ echo "$stderr"; false; }
		[ ! -e ran ]
	done
}

@test "an out-of-range period= is refused by name, before the kernel sees it" {
	for v in -1 9223372036854775808 99999999999999999999999; do
		run -1 --separate-stderr papi stat -e "perf::TASK-CLOCK:period=$v" touch ran
		[[ "$stderr" == *"perf::TASK-CLOCK:period=$v: bad qualifier period=$v: a period is 1 to"* ]] ||
			{ echo "$stderr"; false; }
		[ ! -e ran ]
		# the library's own answer, for any caller
		run -1 --separate-stderr papi native -e "perf::TASK-CLOCK:period=$v"
		[[ "$stderr" == *"bad qualifier period=$v: a period is 1 to"* ]] || { echo "$stderr"; false; }
	done
}
