#!/usr/bin/env bats
# hardware.bats: papi hardware and its classic name papi_hardware_avail.
load helper

@test "papi hardware shows the CPU vendor, family/model/stepping and CPU count of this machine" {
	run --separate-stderr -0 papi hardware
	local ncpu vendor fam
	ncpu=$(getconf _NPROCESSORS_CONF)
	[[ "$output" =~ CPUs\ +$ncpu($'\n') ]]
	vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -1)
	if [ -n "$vendor" ]; then
		[[ "$output" == *"Vendor                $vendor"* ]]
		fam=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1)
		[[ "$output" =~ Family/model/stepping\ $fam/ ]]
	fi
	[[ "$output" =~ Virtual\ machine\ +(yes|no) ]]
}

@test "papi hardware says yes to 'Virtual machine' exactly when cpuinfo has the hypervisor flag" {
	grep -q '^flags' /proc/cpuinfo || skip "no x86 CPU flags in /proc/cpuinfo"
	run -0 papi hardware
	if grep -q '^flags.* hypervisor' /proc/cpuinfo; then
		[[ "$output" == *"Virtual machine       yes"* ]]
	else
		[[ "$output" == *"Virtual machine       no"* ]]
	fi
}

@test "papi hardware --json agrees with the text form" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi hardware --json
	[ "$(jq .total_cpus <<<"$output")" -eq "$(getconf _NPROCESSORS_CONF)" ]
	[ "$(jq -r '.virtualized | type' <<<"$output")" = boolean ]
	[ "$(jq .sockets <<<"$output")" -ge 1 ]
}

@test "papi_hardware_avail runs; bad usage exits 2" {
	run -0 run_as papi_hardware_avail
	[[ "$output" == *"Sockets"* ]]
	run -2 papi hardware extra
	run -2 papi hardware --bogus
}

@test "papi hardware shows the caches papi mem-info shows (one source)" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi hardware --json
	local hw=$output
	run -0 papi mem-info --json
	[ "$(jq -c '[.caches[] | {level, type, size}]' <<<"$hw")" = "$(jq -c '[.caches[] | {level, type, size}]' <<<"$output")" ]
	[ "$(jq .cache_levels <<<"$hw")" -eq "$(jq '[.caches[].level] | max // 0' <<<"$output")" ]
	run -0 papi hardware
	local n
	n=$(jq '.caches | length' <<<"$hw")
	if [ "$n" -eq 0 ]; then
		grep -q '^Caches  *none known' <<<"$output"
	else
		[ "$(grep '^Caches ' <<<"$output" | grep -o 'L[0-9][di]* [0-9]* [KM]B' | wc -l)" -eq "$n" ]
	fi
}

@test "papi hardware --devices: the device types and the CPU, as the device calls answer" {
	run --separate-stderr -0 papi hardware --devices
	[[ "$output" == *"Device types (PAPI_enum_dev_type):"* ]]
	[[ "$output" =~ CPU\ +.*:\ 1\ device\; ]]
	[[ "$output" == *"CUDA  NVIDIA (vendor 0): 0 devices; not supported"* ]]
	[[ "$output" =~ Hardware\ threads\ +$(getconf _NPROCESSORS_CONF)($'\n') ]]
	command -v jq >/dev/null || skip "jq is not installed"
	# node 0's memory, read around the call: a VM's memory can be plugged
	# or ballooned while the test runs
	local kb0 kb1
	kb0=$(awk '/MemTotal/ { print $(NF - 1) }' /sys/devices/system/node/node0/meminfo 2>/dev/null) || kb0=
	run -0 papi hardware --devices --json
	local dev=$output
	kb1=$(awk '/MemTotal/ { print $(NF - 1) }' /sys/devices/system/node/node0/meminfo 2>/dev/null) || kb1=
	[ "$(jq '.device_types | length' <<<"$dev")" -eq 3 ]
	[ "$(jq -r '.device_types[0].type' <<<"$dev")" = CPU ]
	[ "$(jq '.cpu.threads' <<<"$dev")" -eq "$(getconf _NPROCESSORS_CONF)" ]
	[ "$(jq '.cpu.thread_numa | length' <<<"$dev")" -eq "$(getconf _NPROCESSORS_CONF)" ]
	[ "$(jq '[.cpu.numa_nodes[].threads] | add' <<<"$dev")" -eq "$(getconf _NPROCESSORS_CONF)" ]
	# the same machine as papi hardware, the same caches as papi mem-info
	run -0 papi hardware --json
	[ "$(jq .sockets <<<"$output")" -eq "$(jq .cpu.sockets <<<"$dev")" ]
	[ "$(jq .family <<<"$output")" -eq "$(jq .cpu.family <<<"$dev")" ]
	[ "$(jq -r .vendor <<<"$output")" = "$(jq -r '.device_types[0].vendor' <<<"$dev")" ]
	[ "$(jq .numa_nodes <<<"$output")" -eq "$(jq '.cpu.numa_nodes | length' <<<"$dev")" ]
	run -0 papi mem-info --json
	[ "$(jq -c '[.caches[] | select(.level <= 3) | {level, type, size}] | sort' <<<"$output")" = \
	  "$(jq -c '[.cpu.caches[] | {level, type, size}] | sort' <<<"$dev")" ]
	# node 0's memory is what the kernel says it has, before or after
	[ -n "$kb0" ] && [ -n "$kb1" ] || skip "no NUMA node in sysfs"
	local mb
	mb=$(jq '.cpu.numa_nodes[0].memory_mb' <<<"$dev")
	[ "$mb" -eq $((kb0 >> 10)) ] || [ "$mb" -eq $((kb1 >> 10)) ] ||
		{ echo "node 0: papi says $mb MB, the kernel $((kb0 >> 10)) MB before and $((kb1 >> 10)) MB after"; false; }
}

@test "papi hardware --devices with sysdetect disabled says why and fails" {
	PAPI_DISABLE_COMPONENTS=sysdetect run --separate-stderr -1 papi hardware --devices
	[[ "$stderr" == *"papi hardware: PAPI_enum_dev_type: "* ]]
}
