#!/bin/bash
# integ_unpriv.sh - the daemon run as an ordinary user: no CAP_DAC_READ_SEARCH,
# so open_by_handle_at is not available and handles that are not cached
# must be found again by searching the export. Handles must still survive
# restarts and moves of their parent directories, in either order.
. "$(dirname "$0")/lib.sh"

need_cmd setpriv
setup

T=$WORKDIR
user=nobody
group=$(id -gn nobody 2>/dev/null || echo nogroup)
chmod 755 "$T"
mkdir -p "$T/export/a/b" "$T/export/c"
head -c 100000 /dev/urandom >"$T/export/a/b/data"
WANT=$(sha256sum <"$T/export/a/b/data" | cut -d' ' -f1)
chown -R "$user:$group" "$T/export" "$STATE_DIR"
# Somewhere the daemon's user may write its pidfile.
PIDFILE=$STATE_DIR/usernfsd.pid

export USERNFSD_WRAPPER="setpriv --reuid=$user --regid=$group --clear-groups"
start_daemon "$T/export 127.0.0.1(rw,insecure)" --no-rpcbind
ROOT=$(mnt_fh tcp "$T/export") || fail "MNT failed"
FH=$(fh_of tcp "$ROOT" a/b/data) || fail "LOOKUP a/b/data failed"

check() {
	local p out
	for p in udp tcp; do
		run_expect "GETATTR over $p, $1" '^status=0$' nfs_probe $p getattr-hex "$FH"
		rm -f "$T/out"
		if run_expect "READ over $p, $1" '^status=0 bytes=100000 ' \
			nfs_probe $p read-file "$FH" "$T/out"; then
			out=$(sha256sum <"$T/out" | cut -d' ' -f1)
			[ "$out" = "$WANT" ] && ok "READ content over $p, $1" ||
				not_ok "READ over $p, $1 returned other bytes"
		fi
	done
}

check "as issued"
restart_daemon
check "after a restart (resolved by searching the export)"
mv "$T/export/a/b" "$T/export/c/b"
check "after restart-then-move"
mv "$T/export/c/b" "$T/export/moved"
restart_daemon
check "after move-then-restart"
# A directory the daemon's user may write but not read (a drop box): a
# file made there must still be made durable (sync export), not refused
# because the directory cannot be opened to fsync it.
mkdir "$T/export/drop"
chown "$user:$group" "$T/export/drop"
chmod 0333 "$T/export/drop"
DROP=$(fh_of tcp "$ROOT" drop) || fail "LOOKUP drop failed"
run_expect "CREATE in a write-only directory" '^status=0' \
	nfs_probe tcp create "$DROP" dropped guarded 0644
[ -f "$T/export/drop/dropped" ] && ok "created in the write-only directory" ||
	not_ok "no file in the write-only directory"
rm "$T/export/moved/data"
restart_daemon
run_expect "a deleted file is STALE, found by no search" '^status=70$' nfs_probe tcp getattr-hex "$FH"

check_daemon_alive "unprivileged operation"
stop_daemon
finish
