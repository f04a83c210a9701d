#!/bin/sh
# test-user.sh [NAME]: make sure the ordinary user the suite runs as a second
# time exists (root only): a system account with no home and no login shell,
# papitest unless NAME says otherwise. Prints its name; exit 1 when it cannot.
set -u
user=${1:-papitest}
if ! id "$user" >/dev/null 2>&1; then
	if [ "$(id -u)" != 0 ]; then
		echo "test-user.sh: no user $user, and only root can create one" >&2
		exit 1
	fi
	# another run may create it at the same moment: check again on failure
	useradd --system --user-group --no-create-home --home-dir /nonexistent \
		--shell /usr/sbin/nologin "$user" 2>/dev/null || id "$user" >/dev/null 2>&1 || {
		echo "test-user.sh: cannot create user $user (useradd failed)" >&2
		exit 1
	}
fi
if [ "$(id -u "$user")" = 0 ]; then
	echo "test-user.sh: $user is root, not an ordinary user" >&2
	exit 1
fi
echo "$user"
