#!/usr/bin/env bats
# stat-groups.bats: papi stat's {...} groups of any component against the workload's arithmetic: bytes read and written.

load ../cli/helper

# csv_value CSV NAME: the value of event NAME's total row.
csv_value() {
	awk -F, -v n="$2" '$2 == "event" && $3 == n { print $4 }' "$1"
}

@test "{io:::rchar,io:::wchar} of cat FILE: the file's size more than cat /dev/null, exactly" {
	papi native -e io:::rchar >/dev/null 2>&1 || skip "no io component here"
	head -c 1048579 /dev/urandom > file
	size=$(stat -c %s file)
	# what the loader and cat read and write besides the file is the same
	# in both runs: the difference is the file, read once and written once
	run -0 papi stat -x, -o f.csv -e '{io:::rchar,io:::wchar}' sh -c 'exec cat file > /dev/null'
	run -0 papi stat -x, -o n.csv -e '{io:::rchar,io:::wchar}' sh -c 'exec cat /dev/null > /dev/null'
	for ev in io:::rchar io:::wchar; do
		f=$(csv_value f.csv $ev) n=$(csv_value n.csv $ev)
		[ -n "$f" ] && [ -n "$n" ] && [ $((f - n)) -eq "$size" ] ||
			{ echo "$ev: cat file $f, cat /dev/null $n: difference $((f - n)), file $size bytes"; cat f.csv; false; }
	done
	# the report says how the group was counted: not a kernel group
	grep -q ',event,io:::rchar,.*,"not a kernel group: io.s are read together, in one call",,$' f.csv
	run -0 --separate-stderr papi stat -e '{io:::rchar,io:::wchar}' cat file
	[[ "$stderr" == *"Group {io:::rchar,io:::wchar}:"*"not a kernel group: io's are read together"* ]] ||
		{ echo "$stderr"; false; }
}

@test "papi chooser --groups' line for io events pastes into papi stat" {
	papi native -e io:::rchar >/dev/null 2>&1 || skip "no io component here"
	line=$(papi chooser --groups io:::rchar io:::wchar | sed -n "s/^-e '\(.*\)'$/\1/p" | head -1)
	[ "$line" = "{io:::rchar,io:::wchar}" ] || { echo "chooser printed: $line"; false; }
	head -c 65536 /dev/zero > file
	run -0 papi stat -j -o j.json -e "$line" sh -c 'exec cat file > /dev/null'
	jq -e '[.events[] | .available and .group == 1 and .value >= 65536
		and (.group_note | startswith("not a kernel group"))] | all' j.json
}

@test "a group of perf_event and io events: each counted, the kernel group apart from io's" {
	papi native -e io:::rchar >/dev/null 2>&1 || skip "no io component here"
	head -c 200000 /dev/zero > file
	run -0 papi stat -x, -o f.csv -e '{perf::TASK-CLOCK,io:::rchar}' sh -c 'exec cat file > /dev/null'
	run -0 papi stat -x, -o n.csv -e '{perf::TASK-CLOCK,io:::rchar}' sh -c 'exec cat /dev/null > /dev/null'
	f=$(csv_value f.csv io:::rchar) n=$(csv_value n.csv io:::rchar)
	[ $((f - n)) -eq 200000 ] || { echo "io:::rchar: $f - $n, file 200000 bytes"; false; }
	[ "$(csv_value f.csv perf::TASK-CLOCK)" -gt 0 ]
	grep -q 'perf_event.s events are one kernel group; io.s are read together, in one call, apart from them' f.csv
}
