# native-listing.awk: the listing of perf_event's native events that PAPI's
# papi_native_avail (-v tool=native) or papi_event_chooser NATIVE
# (-v tool=chooser) prints, in a form two libraries' runs compare in:
#
#   papi_native_avail: each event's name as the library gives it (the
#   default core PMU's without its PMU, the others' with theirs), then its
#   unit masks and modifiers with their descriptions. Left out: the other
#   components, the events named PMU/EVENT/ from sysfs (msr/tsc/, which
#   PAPI does not list), and an event's own description (ours describes
#   perf::'s software events in plain words where libpfm4 gives
#   PERF_COUNT_SW_*).
#
#   papi_event_chooser: names and qualifier lines without their codes (each
#   library numbers its own), the qualifiers' descriptions as the tool cuts
#   them (after the first colon of the description).
#
# Used by test/tools/distro-abi.sh and test/cli/abi.bats.
tool == "chooser" && /\t0x/ {
	n = $1
	skip = index(n, "/") > 0
	if (!skip)
		print n
	next
}
tool == "chooser" {
	if (/^    0x/ && !skip) {
		sub(/^    0x[0-9a-f]+/, "")
		print
	}
	next
}
/^ Native Events in Component: / { on = $NF == "perf_event"; next }
!on || /^[-=]+$/ { next }
{ sub(/^\| /, ""); sub(/ *\|$/, "") }
/^[^ ]/ {
	skip = index($0, "/") > 0
	q = 0
	if (!skip)
		print
	next
}
skip { next }
/^    :/ { q = 1; sub(/^ +/, ""); print "  " $0; next }
q { sub(/^ +/, ""); print "    " $0 }
