#!/usr/bin/env bats
# mem-info.bats: papi mem-info and its classic name papi_mem_info.
load helper

sysfs=/sys/devices/system/cpu/cpu0/cache

@test "papi mem-info: one line per sysfs cache with its size and sharing CPUs" {
	[ -r "$sysfs/index0/level" ] || skip "sysfs describes no caches"
	run --separate-stderr -0 papi mem-info
	[ "${lines[0]}" = "Memory cache and TLB hierarchy of CPU 0" ]
	local d n=0 lvl size shared
	for d in "$sysfs"/index*; do
		lvl=$(cat "$d/level") size=$(cat "$d/size") shared=$(cat "$d/shared_cpu_list")
		size=${size%K}
		grep -Eq "^  L$lvl .* size +$size KB .*shared by CPUs $shared\$" <<<"$output" ||
			{ echo "no line for $d"; false; }
		n=$((n + 1))
	done
	[ "$(grep -c '^  L[0-9] .* size ' <<<"$output")" -eq "$n" ]
	[ -z "$stderr" ]
}

@test "papi mem-info --json: caches equal sysfs, TLBs well formed" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi mem-info --json
	echo "$output" | jq -e . >/dev/null
	local json=$output d i=0 want
	for d in "$sysfs"/index*; do
		[ -r "$d/level" ] || continue
		want=$(cat "$d/size")
		[ "$(jq ".caches[$i].level" <<<"$json")" -eq "$(cat "$d/level")" ]
		[ "$(jq ".caches[$i].size / 1024" <<<"$json")" -eq "${want%K}" ]
		[ "$(jq ".caches[$i].line_size" <<<"$json")" -eq "$(cat "$d/coherency_line_size")" ]
		[ "$(jq -r ".caches[$i].shared_cpu_list" <<<"$json")" = "$(cat "$d/shared_cpu_list")" ]
		[ "$(jq ".caches[$i].lines * .caches[$i].line_size == .caches[$i].size" <<<"$json")" = true ]
		i=$((i + 1))
	done
	if [ "$i" -eq 0 ]; then
		# No cache in sysfs (some hypervisors): the caches come from CPUID,
		# as glibc's getconf reads them.
		local key lvl type
		for key in LEVEL1_DCACHE:1:data LEVEL1_ICACHE:1:instruction LEVEL2_CACHE:2:unified LEVEL3_CACHE:3:unified; do
			IFS=: read -r key lvl type <<<"$key"
			want=$(getconf "${key}_SIZE" 2>/dev/null) || continue
			[ -n "$want" ] && [ "$want" -gt 0 ] || continue
			[ "$(jq "[.caches[] | select(.level == $lvl and .type == \"$type\")][0].size" <<<"$json")" -eq "$want" ] ||
				{ echo "$key: getconf says $want"; false; }
			[ "$(jq -r "[.caches[] | select(.level == $lvl and .type == \"$type\")][0].source" <<<"$json")" = cpuid ]
			i=$((i + 1))
		done
		[ "$i" -gt 0 ] || skip "neither sysfs nor getconf describes a cache"
		[ "$(jq '[.caches[] | select(.level <= 3)] | length' <<<"$json")" -eq "$i" ]
	else
		[ "$(jq '.caches | length' <<<"$json")" -eq "$i" ]
	fi
	jq -e 'all(.tlbs[]; .entries > 0 and .page_size_kb >= 4 and
		(.type == "data" or .type == "instruction" or .type == "unified") and
		((.associativity | type) == "number" or .associativity == "full" or .associativity == null))' \
		<<<"$json" >/dev/null
	# TLBs come by level
	jq -e '[.tlbs[].level] as $l | $l == ($l | sort)' <<<"$json" >/dev/null
	case "$(uname -m)" in
	x86_64 | i?86) [ "$(jq '.tlbs | length' <<<"$json")" -gt 0 ] ;;
	esac
}

@test "papi mem-info: on x86 the caches are known with or without sysfs; AMD's 4M-page TLBs" {
	command -v jq >/dev/null || skip "jq is not installed"
	case "$(uname -m)" in x86_64 | i?86) ;; *) skip "CPUID is x86's" ;; esac
	run -0 papi mem-info --json
	local json=$output
	# sysfs, or CPUID where sysfs has none (the test of CPUID's caches
	# themselves is test/unit/t_memhier_cpuid.c)
	jq -e '(.caches | length) > 0 and all(.caches[]; .source == "sysfs" or .source == "cpuid")' <<<"$json"
	[ -r "$sysfs/index0/level" ] || jq -e 'all(.caches[]; .source == "cpuid")' <<<"$json"
	grep -q AuthenticAMD /proc/cpuinfo || skip "not an AMD CPU"
	# a 4M page takes two 2M entries: each 2M TLB has a 4M twin with half the entries
	jq -e '[.tlbs[] | select(.page_size_kb == 2048)] as $two | ($two | length) > 0 and
		all($two[]; . as $t | any($json_tlbs[]; .page_size_kb == 4096 and .level == $t.level and
			.type == $t.type and .entries == (($t.entries / 2) | floor)))' \
		--argjson json_tlbs "$(jq .tlbs <<<"$json")" <<<"$json"
}

@test "papi_mem_info prints PAPI's layout" {
	run -0 run_as papi_mem_info
	[ "${lines[0]}" = "Memory Cache and TLB Hierarchy Information." ]
	[[ "$output" == *"Cache Information."* ]]
	[ -r "$sysfs/index0/level" ] || skip "sysfs describes no caches"
	[[ "$output" == *"L1 Data Cache:"* || "$output" == *"L1 Unified Cache:"* ]]
}

@test "papi mem-info: operands and unknown options exit 2" {
	run --separate-stderr -2 papi mem-info extra
	[ "${stderr_lines[0]}" = "papi mem-info: unexpected argument 'extra'" ]
	run --separate-stderr -2 papi mem-info --bogus
	[ "${stderr_lines[1]}" = "Try 'papi mem-info --help'." ]
	[ -z "$output" ]
}

@test "papi mem-info > /dev/full fails with a message, exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 bash -c '"$PAPI_BIN" mem-info > /dev/full'
	[ "$output" = "papi mem-info: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" mem-info --json > /dev/full'
	[ "$output" = "papi mem-info: write error: No space left on device" ]
}
