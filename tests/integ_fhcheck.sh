#!/bin/bash
# integ_fhcheck.sh - exports whose file system gives no persistent handles
# are named, with file:line, at start-up and by --check-exports (issue 16):
#   - a FUSE file system (bindfs): its kernel handles are FUSE node ids,
#     valid across remounts only with export support
#   - /proc/sys: no kernel handles at all (name_to_handle_at: EOPNOTSUPP)
#   - an ordinary directory is not named
#   - --share DIR --check-exports names a FUSE directory too
#   - what the warning says is true: a handle of a file on the FUSE export
#     is stale once the FUSE file system is mounted again
. "$(dirname "$0")/lib.sh"

need_cmd bindfs
[ -c /dev/fuse ] || skip "no /dev/fuse"
setup

PLAIN=$WORKDIR/plain
LOWER=$WORKDIR/lower
FUSE=$WORKDIR/fuse
mkdir -p "$PLAIN" "$LOWER" "$FUSE"
echo "under fuse" >"$LOWER/file"
bindfs "$LOWER" "$FUSE" || skip "bindfs cannot mount here"
at_exit "umount '$FUSE' 2>/dev/null"

TABLE="$PLAIN 127.0.0.1(rw,no_root_squash,insecure)
$FUSE 127.0.0.1(rw,no_root_squash,insecure)
/proc/sys 127.0.0.1(ro,insecure)"
printf '%s\n' "$TABLE" >"$WORKDIR/check-exports"

# ---- --check-exports ----
OUT=$("$USERNFSD" --check-exports --exports "$WORKDIR/check-exports" 2>&1)
RC=$?
[ "$RC" -eq 0 ] && ok "--check-exports: warnings leave the exit status 0" ||
	not_ok "--check-exports: warnings leave the exit status 0" "status $RC: $OUT"
expect_line() {   # expect_line DESC ERE TEXT
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then ok "$1"; else not_ok "$1" "$3"; fi
}
expect_line "--check-exports names the FUSE export with file:line" \
	"check-exports:2: warning: export $FUSE is on a FUSE file system.*stale" "$OUT"
expect_line "--check-exports names /proc/sys (no kernel handles) with file:line" \
	"check-exports:3: warning: export /proc/sys has no persistent file handles \(name_to_handle_at: Operation not supported\).*failover" "$OUT"
if printf '%s\n' "$OUT" | grep -q "warning: export $PLAIN "; then
	not_ok "--check-exports does not name the ordinary export" "$OUT"
else ok "--check-exports does not name the ordinary export"; fi

OUT=$("$USERNFSD" --share "$FUSE" --check-exports 2>&1)
expect_line "--share --check-exports names a FUSE directory" \
	"^usernfsd: warning: export $FUSE is on a FUSE file system" "$OUT"

# ---- start-up ----
start_daemon "$TABLE" --no-rpcbind --no-nlm
expect_line "start-up log names the FUSE export" \
	"exports:2: warning: export $FUSE is on a FUSE file system" "$(cat "$DAEMON_LOG")"
expect_line "start-up log names /proc/sys" \
	"exports:3: warning: export /proc/sys has no persistent file handles" "$(cat "$DAEMON_LOG")"
if grep -q "warning: export $PLAIN " "$DAEMON_LOG"; then
	not_ok "start-up log does not name the ordinary export" "$(cat "$DAEMON_LOG")"
else ok "start-up log does not name the ordinary export"; fi

# ---- and it is true: the FUSE file's handle does not survive a remount ----
ROOT=$(mnt_fh tcp "$FUSE")
FH=$(fh_of tcp "$ROOT" file)
[ -n "$FH" ] || fail "no handle for $FUSE/file"
run_expect "the FUSE file's handle works before the remount" "^status=0" nfs_probe tcp getattr-hex "$FH"
stop_daemon
umount "$FUSE" || fail "cannot unmount $FUSE"
bindfs "$LOWER" "$FUSE" || fail "cannot mount $FUSE again"
start_daemon "$TABLE" --no-rpcbind --no-nlm
run_expect "after a remount and a restart the FUSE file's handle is stale, as warned" \
	"^status=$NFS3ERR_STALE" nfs_probe tcp getattr-hex "$FH"
check_daemon_alive
finish
