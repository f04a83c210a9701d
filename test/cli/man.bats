#!/usr/bin/env bats
# man.bats: every man page in man/ formats without a warning and renders with man -l.
load helper

pages() {
	local f
	for f in "$PAPI_TOP"/man/*.[135]; do
		[ -f "$f" ] && echo "$f"
	done
}

@test "there are man pages for papi, papi help and papi version" {
	[ -f "$PAPI_TOP/man/papi.1" ]
	[ -f "$PAPI_TOP/man/papi-help.1" ]
	[ -f "$PAPI_TOP/man/papi-version.1" ]
}

@test "groff -ww -z -man: no warnings in any man page" {
	command -v groff >/dev/null || skip "groff is not installed"
	local f err
	for f in $(pages); do
		err=$(groff -ww -z -man "$f" 2>&1)
		[ -z "$err" ] || { echo "${f##*/}: $err"; false; }
	done
}

@test "man -l renders every page with its NAME section" {
	command -v man >/dev/null || skip "man is not installed"
	command -v groff >/dev/null || skip "groff is not installed"
	local f
	for f in $(pages); do
		run bash -c 'MANWIDTH=80 man -l "$1" 2>&1 >/dev/null' _ "$f"
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "${f##*/}: $output"; false; }
		run bash -c 'MANWIDTH=80 man -l "$1" 2>/dev/null | grep -c NAME' _ "$f"
		[ "$output" -ge 1 ] || { echo "${f##*/}: no NAME section"; false; }
	done
}

@test "every subcommand of this build has its man page, listed in papi(1)" {
	local name
	for name in $(papi --list-cmds | cut -f1); do
		[ -f "$PAPI_TOP/man/papi-$name.1" ] || { echo "no man/papi-$name.1"; false; }
		grep -q "papi\\\\-$name\|^\.B $name\$" "$PAPI_TOP/man/papi.1" || { echo "papi.1 misses $name"; false; }
	done
}
