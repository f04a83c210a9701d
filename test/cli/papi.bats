#!/usr/bin/env bats
# papi.bats: the dispatcher: global options, the command list, unknown commands, names it runs under, write errors.
load helper

@test "papi --version prints the papi and PAPI API versions" {
	run -0 papi --version
	[[ "${lines[0]}" =~ ^papi\ [0-9]+\.[0-9]+\.[0-9]+ ]]
	[[ "${lines[1]}" =~ ^PAPI\ [0-9]+\.[0-9]+\.[0-9]+\.[0-9]+\ API$ ]]
}

@test "papi --help lists every command of --list-cmds, exit 0" {
	run --separate-stderr -0 papi --help
	[[ "$output" == Usage:* ]]
	[ -z "$stderr" ]
	local name
	for name in $(papi --list-cmds | cut -f1); do
		[[ "$output" == *"  $name "* ]] || { echo "missing $name"; false; }
	done
}

@test "papi -h is papi --help" {
	run -0 papi -h
	[ "$output" = "$(papi --help)" ]
}

@test "papi alone prints the usage on stderr and exits 2" {
	run --separate-stderr -2 papi
	[ -z "$output" ]
	[[ "$stderr" == Usage:* ]]
}

@test "papi --list-cmds: one name TAB summary a line, version and help included" {
	run -0 papi --list-cmds
	local line
	for line in "${lines[@]}"; do
		[[ "$line" =~ ^[a-z][a-z-]*$'\t'[^$'\t']+$ ]] || { echo "bad line: $line"; false; }
	done
	printf '%s\n' "${lines[@]}" | cut -f1 | grep -qx version
	printf '%s\n' "${lines[@]}" | cut -f1 | grep -qx help
	# no name twice
	[ -z "$(printf '%s\n' "${lines[@]}" | cut -f1 | sort | uniq -d)" ]
}

@test "every listed command answers --help with exit 0 and a Usage line" {
	local name
	for name in $(papi --list-cmds | cut -f1); do
		run -0 papi "$name" --help
		[[ "${lines[0]}" == "Usage: papi $name"* ]] || { echo "$name: ${lines[0]}"; false; }
	done
}

@test "unknown command: message, exit 2, nothing on stdout" {
	run --separate-stderr -2 papi frobnicate
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = "papi: 'frobnicate' is not a papi command. See 'papi help'." ]
	[[ "$stderr" != *"Did you mean"* ]]
}

@test "unknown command close to a real one gets a suggestion" {
	run --separate-stderr -2 papi verison
	[[ "$stderr" == *"Did you mean 'version'?"* ]]
	run --separate-stderr -2 papi hlep
	[[ "$stderr" == *"Did you mean 'help'?"* ]]
	run --separate-stderr -2 papi versio
	[[ "$stderr" == *"Did you mean 'version'?"* ]]
}

@test "unknown global option exits 2" {
	run --separate-stderr -2 papi --frob
	[[ "$stderr" == *"unknown option '--frob'"* ]]
}

@test "papi CMD --list-opts lists the long and short forms" {
	run -0 papi version --list-opts
	printf '%s\n' "${lines[@]}" | grep -qx -- --json
	printf '%s\n' "${lines[@]}" | grep -qx -- -j
	printf '%s\n' "${lines[@]}" | grep -qx -- --help
	printf '%s\n' "${lines[@]}" | grep -qx -- -h
	local line
	for line in "${lines[@]}"; do
		[[ "$line" =~ ^(-[A-Za-z0-9]|--[a-z0-9][a-z0-9-]*)$ ]] || { echo "bad: $line"; false; }
	done
	# an option that takes a value: a tab, then what the value is
	run -0 papi stat --list-opts
	printf '%s\n' "${lines[@]}" | grep -qx -- $'-o\tFILE'
	printf '%s\n' "${lines[@]}" | grep -Fqx -- $'--pid\tPID[,PID...]'
	printf '%s\n' "${lines[@]}" | grep -Fqx -- $'-e\tEV[,EV...]'
	printf '%s\n' "${lines[@]}" | grep -qx -- --json
}

@test "every option in --list-opts is accepted by getopt (no typo in a table)" {
	local name opt
	for name in $(papi --list-cmds | cut -f1); do
		for opt in $(papi "$name" --list-opts | cut -f1); do
			run papi "$name" "$opt" --help
			# exit 2 would mean the option itself was refused, unless it
			# needs a value and swallowed --help.
			if [ "$status" -eq 2 ]; then
				[[ "$output" != *"unknown option"* ]] || { echo "$name $opt: $output"; false; }
			fi
		done
	done
}

@test "runs as papi-version through a symlink" {
	run -0 run_as papi-version
	[ "$output" = "$(papi version)" ]
}

@test "runs as the classic papi_version, printing PAPI's one line" {
	run -0 run_as papi_version
	[[ "$output" =~ ^PAPI\ Version:\ [0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]]
	[ "${#lines[@]}" -eq 1 ]
	# the same API level as papi version says
	local api=${output#PAPI Version: }
	[[ "$(papi version)" == *"PAPI $api API"* ]]
}

@test "every classic name reaches its command, whose help exits 0" {
	local dir name cmd
	dir=$(classic_links papi_avail papi_native_avail papi_event_chooser papi_decode papi_cost \
		papi_clockres papi_mem_info papi_command_line papi_component_avail papi_hardware_avail \
		papi_error_codes)
	for name in papi_avail:avail papi_native_avail:native papi_event_chooser:chooser \
		papi_decode:decode papi_cost:cost papi_clockres:clockres papi_mem_info:mem-info \
		papi_command_line:command-line papi_component_avail:component \
		papi_hardware_avail:hardware papi_error_codes:error-codes; do
		cmd=${name#*:} name=${name%%:*}
		run -0 "$dir/$name" --help
		[[ "$output" == *"papi $cmd"* || "$output" == *"$name"* ]] || { echo "$name: $output"; false; }
	done
}

# A weak reference would let a command whose file is missing vanish from
# the table at run time; a strong one makes such a build fail to link.
@test "the command table refers to its commands strongly: a missing one fails the link" {
	local obj="${PAPI_BUILD:-$PAPI_TOP/build}/cmd/papi.o"
	[ -f "$obj" ] || skip "no $obj"
	command -v nm >/dev/null || skip "nm is not installed"
	run -0 nm -P "$obj"
	local weak
	weak=$(awk '($2 == "w" || $2 == "v") && $1 ~ /^cmd_/ { print $1 }' <<< "$output")
	[ -z "$weak" ] || { echo "weak command references: $weak"; false; }
	grep -q '^cmd_avail U' <<< "$output"
}

@test "an unknown papi-* or papi_* name is an unknown command, exit 2" {
	run --separate-stderr -2 run_as papi-frob
	[[ "$stderr" == *"'papi-frob' is not a papi command"* ]]
	run --separate-stderr -2 run_as papi_frob
	[[ "$stderr" == *"'papi_frob' is not a papi command"* ]]
}

@test "write error on stdout: message and exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 bash -c '"$PAPI_BIN" version > /dev/full'
	[ "$output" = "papi version: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" --list-cmds > /dev/full'
	[ "$output" = "papi: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" --help > /dev/full'
	[ "$output" = "papi: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" version --list-opts > /dev/full'
	[ "$output" = "papi version: write error: No space left on device" ]
}

@test "-j means --json in every command that has --json" {
	local c n=0
	for c in $(papi --list-cmds | cut -f1); do
		papi "$c" --list-opts > opts
		if grep -qx -- --json opts; then
			grep -qx -- -j opts || { echo "$c: --json without -j"; return 1; }
			n=$((n + 1))
		else
			! grep -qx -- -j opts || { echo "$c: -j that is not --json"; return 1; }
		fi
	done
	[ "$n" -ge 10 ]
	command -v jq >/dev/null || skip "jq is not installed"
	for c in avail component hardware error-codes version mem-info "native -e perf::TASK-CLOCK" \
		"command-line perf::TASK-CLOCK" "command-line perf::TASK-CLOCK -j -- true" \
		"stat -e perf::TASK-CLOCK -o /dev/stdout true"; do
		# shellcheck disable=SC2086
		set -- $c
		papi "$1" -j "${@:2}" > out || { echo "$c: exit $?"; return 1; }
		[ -s out ] && jq -e . out > /dev/null || { echo "$c: not JSON"; cat out; return 1; }
	done
}

@test "classic names take every option PAPI 7.0's tool of that name takes" {
	local dir row tool args want n=0
	dir=$(classic_links papi_avail papi_native_avail papi_event_chooser papi_decode papi_cost \
		papi_clockres papi_mem_info papi_command_line papi_component_avail papi_hardware_avail \
		papi_error_codes papi_version)
	# tool|arguments|exit status: the options of PAPI 7.0's tools (their --help and source)
	while IFS='|' read -r tool args want; do
		[ -n "$tool" ] || continue
		# shellcheck disable=SC2086
		run "$dir/$tool" $args
		[ "$status" -eq "$want" ] || { echo "$tool $args: exit $status, not $want: $output"; return 1; }
		n=$((n + 1))
	done <<'T'
papi_avail|-a|0
papi_avail|--avail|0
papi_avail|-c|0
papi_avail|--check|0
papi_avail|-d|0
papi_avail|--detail|0
papi_avail|-e PAPI_TOT_CYC|0
papi_avail|--br --cache --cnd --fp --ins --idl --l1 --l2 --l3 --mem --msc --tlb|0
papi_avail|-h|0
papi_avail|--help|0
papi_native_avail|-c -i TASK-CLOCK|0
papi_native_avail|--check -i TASK-CLOCK|0
papi_native_avail|-e perf::TASK-CLOCK|0
papi_native_avail|-i TASK -x CPU|0
papi_native_avail|--noqual -i TASK|0
papi_native_avail|--nogroups -i TASK|0
papi_native_avail|-sde /bin/sh -i TASK|1
papi_native_avail|--darr|0
papi_native_avail|--dear|0
papi_native_avail|--iarr|0
papi_native_avail|--iear|0
papi_native_avail|--opcm|0
papi_native_avail|-h|0
papi_native_avail|--help|0
papi_event_chooser|NATIVE perf::TASK-CLOCK|0
papi_decode|-a|0
papi_decode|-h|0
papi_cost|-b 10 -d -p -s -t 50|0
papi_cost|-t 50 TESTS_QUIET|0
papi_cost|-h|0
papi_clockres||0
papi_mem_info||0
papi_command_line|-u -x perf::TASK-CLOCK|0
papi_command_line|-h|0
papi_component_avail|-d|0
papi_component_avail|-h|0
papi_component_avail|--help|0
papi_hardware_avail|-h|0
papi_hardware_avail|--help|0
papi_error_codes||0
papi_version||0
T
	[ "$n" -eq 41 ]
}

@test "papi_native_avail ends with PAPI 7's total line; the feature filters say why nothing has them" {
	run --separate-stderr -0 run_as papi_native_avail -i TASK-CLOCK
	[[ "${lines[-1]}" =~ ^Total\ events\ reported:\ [1-9][0-9]*$ ]]
	run --separate-stderr -0 run_as papi_native_avail --darr
	[ "${lines[-1]}" = "Total events reported: 0" ]
	[[ "$stderr" == *"no event here supports data address range restriction: an Itanium"* ]]
	run --separate-stderr -1 run_as papi_native_avail -sde /bin/sh -i TASK-CLOCK
	[[ "$stderr" == *"-sde /bin/sh: cannot load it: "* ]]
	run --separate-stderr -1 run_as papi_native_avail -sde "$BATS_TEST_TMPDIR/none"
	[[ "$stderr" == *"none: No such file or directory"* ]]
	# the compatibility options are in --help, apart, and not offered for completion
	run -0 papi native --help
	[[ "$output" == *"Accepted as PAPI 7's tool takes them:"*"--darr"*"--nogroups"*"--sde=FILE"* ]]
	run -0 papi native --list-opts
	[[ "$output" != *darr* && "$output" != *sde* ]]
}

@test "papi component -d shows each component's version, domains and capabilities" {
	run -0 papi component -d
	[[ "$output" == *"version:  "* ]]
	[[ "$output" == *"domains:  "*"(default "* ]]
	[[ "$output" == *"fast counter read (rdpmc)"* ]]
	run -0 papi component
	[[ "$output" != *"domains:"* ]]
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component -d --json
	jq -e '.components[0].detail | has("version") and has("fast_counter_read") and has("default_domain")' <<<"$output"
}

@test "papi starts without the dynamic loader; its dynamic sibling for --sde loads only libc" {
	command -v readelf >/dev/null || skip "readelf is not installed"
	run -0 readelf -d "$PAPI_BIN"
	[[ "$output" != *libasan* && "$output" != *libtsan* ]] || skip "a sanitizer build (papi is dynamic there)"
	[[ "$output" == *"There is no dynamic section"* ]]
	# each shared library would cost every --sde listing its start-up
	run -0 readelf -d "$(dirname "$PAPI_BIN")/libexec/papi/papi"
	[[ "$output" == *"(NEEDED)"*"libc.so"* ]]
	[[ "$output" != *"libm.so"* ]]
}

@test "papi_native_avail and papi_command_line exit as PAPI 7.0's tools on bad or unknown arguments" {
	local dir tool args ours theirs n=0
	dir=$(classic_links papi_native_avail papi_command_line)
	# Arguments whose outcome does not depend on what the tool can count
	# here: PAPI 7.0's own tools, on their own library, are the oracle.
	while IFS='|' read -r tool args; do
		[ -n "$tool" ] || continue
		[ -x "/usr/bin/$tool" ] || skip "/usr/bin/$tool (Debian's PAPI 7.0, papi-tools) is not installed"
		# shellcheck disable=SC2086
		theirs=0
		"/usr/bin/$tool" $args >/dev/null 2>&1 </dev/null || theirs=$?
		# shellcheck disable=SC2086
		ours=0
		"$dir/$tool" $args >/dev/null 2>&1 </dev/null || ours=$?
		[ "$ours" -eq "$theirs" ] || { echo "$tool $args: ours exits $ours, PAPI 7.0's $theirs"; return 1; }
		n=$((n + 1))
	done <<'T'
papi_native_avail|--darr
papi_native_avail|--iarr
papi_native_avail|--dear
papi_native_avail|--iear
papi_native_avail|--opcm
papi_native_avail|-i NO_EVENT_HAS_THIS
papi_native_avail|--bogus
papi_native_avail|-e
papi_native_avail|-x
papi_native_avail|extra
papi_native_avail|-e NO_SUCH_EVENT
papi_command_line|
papi_command_line|NO_SUCH_EVENT
papi_command_line|--bogus
papi_command_line|-u NO_SUCH_EVENT
papi_command_line|-x -u
T
	[ "$n" -eq 16 ]
}
