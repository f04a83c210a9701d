#!/bin/sh
# t_pmu_generic.sh: papi's commands on a CPU libpfm4 does not know, over a real kernel PMU driver (component, avail, native, stat).
#
# LIBPFM_FORCE_PMU=nowhere: libpfm4 knows no PMU, whatever CPU QEMU emulates,
# so the core PMU is named from sysfs and the presets are the generic ones.
# The workload is t_pmu_counting --loop N (2N instructions and a constant).
. "$(dirname "$0")/lib.sh"
pmu_present || skip_all "no hardware PMU" "papi commands on a CPU libpfm4 does not know"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LOOP=$PAPI_BUILD/test/pmu/t_pmu_counting
N=1000000
export LIBPFM_FORCE_PMU=nowhere

# ---- papi component: the driver is there, named from sysfs; generic presets
papi component > "$tmp/comp"
ok $? "component: exit status 0"
check "component: no 'no hardware PMU driver'" eval '! grep -q "no hardware PMU driver" "$tmp/comp"'
check "component: a core PMU line says its events come from sysfs" grep -q "^  core PMU: .*named from the kernel's sysfs" "$tmp/comp"
check "component: the presets line names the generic table" grep -q "^  presets:  The presets come from the generic table" "$tmp/comp"
cntrs=$(sed -n 's/^  counters: \([0-9]*\) hardware.*/\1/p' "$tmp/comp")
check "component: $cntrs counters, found by the kernel (below the probe's 32)" [ "${cntrs:-0}" -gt 0 -a "${cntrs:-0}" -lt 32 ]
pmu=$(sed -n "s|^  core PMU: \([^:]*\):.*|\1|p" "$tmp/comp")
diag "core PMU: $pmu"
check "component: the PMU is listed in this kernel" grep -q "^    $pmu .*in this kernel" "$tmp/comp"
# perf_event_uncore: whatever non-core PMUs this kernel has, or why none
diag "kernel PMUs: $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
sed -n '/^perf_event_uncore:/,/^$/p' "$tmp/comp" > "$tmp/unc"
while read -r l; do diag "$l"; done < "$tmp/unc"
check "component: perf_event_uncore is listed, active or with its reason" \
	grep -q -e '^  active:   yes' -e '^  disabled: ..*' "$tmp/unc"

# ---- papi avail: the generic presets are available, and it says why
papi avail -a --names > "$tmp/avail"
check "avail -a lists PAPI_TOT_INS" grep -qx PAPI_TOT_INS "$tmp/avail"
check "avail -a lists PAPI_TOT_CYC" grep -qx PAPI_TOT_CYC "$tmp/avail"
papi avail > "$tmp/all"
check "avail: the closing paragraph names the generic table" grep -q "The presets come from the generic table" "$tmp/all"
check "avail: the header names the kernel's core PMU" grep -q "^Core PMU (kernel, sysfs) : $pmu" "$tmp/all"
papi avail -e PAPI_TOT_INS > "$tmp/e"
check "avail -e PAPI_TOT_INS: available, counted as $pmu/instructions/" grep -q "$pmu/instructions/" "$tmp/e"

# ---- papi native: the PMU's events, named from sysfs
papi native --names > "$tmp/names"
check "native: $pmu/inst_retired/ is listed" grep -qx "$pmu/inst_retired/" "$tmp/names"
check "native: $pmu/cycles/ (generic) is listed" grep -qx "$pmu/cycles/" "$tmp/names"
papi native > "$tmp/native"
check "native: the PMU's header says libpfm4 does not know it" grep -q "libpfm4 does not know it" "$tmp/native"

# ---- papi stat: the presets and the sysfs events count the loop
papi stat -x , --domain user -o "$tmp/a" -e PAPI_TOT_INS,PAPI_TOT_CYC -- "$LOOP" --loop $N
ok $? "stat: exit status 0"
papi stat -x , --domain user -o "$tmp/b" -e PAPI_TOT_INS,PAPI_TOT_CYC -- "$LOOP" --loop $((3 * N))
a=$(csv_value "$tmp/a" PAPI_TOT_INS) b=$(csv_value "$tmp/b" PAPI_TOT_INS)
check "stat: 2N more iterations, 4N more instructions ($a, then $b)" near "$((b - a))" $((4 * N)) 20000 1
ca=$(csv_value "$tmp/a" PAPI_TOT_CYC) cb=$(csv_value "$tmp/b" PAPI_TOT_CYC)
if [ "${PMU_QEMU:-0}" = 1 ]; then
	check "stat: as many more cycles on QEMU ($ca, then $cb)" near "$((cb - ca))" $((4 * N)) 20000 1
else
	check "stat: cycles counted ($ca)" [ "${ca:-0}" -gt 0 ]
fi
papi stat -x , --domain user -o "$tmp/d" -- "$LOOP" --loop $N
d=$(csv_value "$tmp/d" PAPI_TOT_INS)
check "stat: the default events count PAPI_TOT_INS ($d)" near "${d:-0}" "$a" 0 5
papi stat -x , --domain user -o "$tmp/r" -e "$pmu/inst_retired/,$pmu/event=0x08/" -- "$LOOP" --loop $N
ok $? "stat: a sysfs event and a raw encoding with a comma in one -e"
r1=$(csv_value "$tmp/r" "$pmu/inst_retired/") r2=$(csv_value "$tmp/r" "$pmu/event=0x08/")
check "stat: $pmu/inst_retired/ counts as PAPI_TOT_INS ($r1)" near "${r1:-0}" "$a" 20000 1
check "stat: $pmu/event=0x08/ too ($r2)" near "${r2:-0}" "$a" 20000 1
finish
