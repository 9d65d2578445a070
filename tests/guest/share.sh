#!/bin/bash
# Runs inside the QEMU guest (see run-guest): "usernfsd --share" run by an
# ordinary user created here, mounted by the guest's kernel client with
# exactly the command the daemon printed (only /mnt replaced).
#   share.sh USERNFSD_BINARY [RPCPROBE_BINARY]
# Checks: the printed ports are above 1024; the mount reads and writes;
# what clients create belongs to the sharing user, whoever they are; what
# that user cannot read stays unreadable; nothing outside the shared
# directory can be mounted or looked up; --ro refuses writes; a client
# outside --allow is refused; rpcbind is used when it runs (and the daemon
# says when it does not); Ctrl-C (SIGINT) stops it with status 0 and
# leaves nothing behind.
set -u
daemon=$1
rpcprobe=${2:-}
work=/tmp/share
exp=$work/shared
mnt=$work/mnt
user=nfsshare
failed=0
PID=
LOG=

step() { echo "share: $*"; }
ok() { echo "share: ok: $*"; }
bad() { echo "share: FAIL: $*"; failed=$((failed + 1)); }
die() {
	bad "$*"
	[ -z "$LOG" ] || { echo "---- $LOG"; tail -n 30 "$LOG"; }
	[ -z "$PID" ] || kill -INT "$PID" 2>/dev/null
	exit 1
}
. "$(dirname "$0")/guest-lib.sh"

# start_share LOG ARGS...: the daemon as $user, in the background, until it
# prints that it serves.
start_share() {
	LOG=$1
	shift
	setpriv --reuid="$user" --regid="$user" --clear-groups \
		"$daemon" --share "$exp" "$@" >"$LOG" 2>&1 </dev/null &
	PID=$!
	for _ in $(seq 300); do
		grep -q '^Serving until Ctrl-C' "$LOG" && return 0
		kill -0 "$PID" 2>/dev/null || die "usernfsd --share $* exited before serving"
		sleep 0.1
	done
	die "usernfsd --share $* did not say it serves within 30 s"
}

# stop_share: Ctrl-C, as a terminal sends it; exit status 0, nothing left.
stop_share() {
	local rc
	kill -INT "$PID"
	for _ in $(seq 100); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$PID" 2>/dev/null && die "still running 10 s after SIGINT"
	wait "$PID"
	rc=$?
	[ "$rc" -eq 0 ] && ok "SIGINT: exit status 0" || bad "SIGINT: exit status $rc"
	grep -q '^usernfsd: stopped' "$LOG" && ok "says it stopped" || bad "no 'stopped' line"
	if grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$LOG" >/dev/null; then
		grep -E -A 30 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$LOG" | head -n 60
		bad "sanitizer report in $LOG"
	fi
	PID=
}

# The mount command as printed, mountpoint substituted: MOUNT_CMD.
printed_mount() {
	MOUNT_CMD=$(grep -m 1 '^    mount -t nfs ' "$LOG" | sed 's/^ *//')
	case $MOUNT_CMD in
	*" /mnt") MOUNT_CMD="${MOUNT_CMD% /mnt} $mnt" ;;
	*) die "no mount command ending in /mnt in $LOG" ;;
	esac
}

# Also a mount that must be refused must not hang the test.
try_mount() { timeout 60 sh -c "$1" >"$work/mount.out" 2>&1; }

modprobe nfs && modprobe nfsv3 || die "modprobe nfs nfsv3"
useradd -M -U -d /nonexistent -s /usr/sbin/nologin "$user" || die "useradd $user"
uid=$(id -u "$user")
gid=$(id -g "$user")
step "sharing user $user: uid $uid gid $gid"

mkdir -p "$exp" "$mnt" "$work/secret"
chmod 755 "$work"
echo "from the server" >"$exp/hello"
chown -R "$user:$user" "$exp"
# Inside the share but not readable by the user: must stay unreadable.
mkdir "$exp/private"
echo "root only" >"$exp/private/file"
chmod 700 "$exp/private"
# Outside the share.
echo "outside" >"$work/secret/file"

step "1. read-write, default clients, no rpcbind running"
start_share "$work/rw.log"
grep -q 'only this host may mount (127.0.0.1 and ::1)' "$LOG" &&
	ok "says only this host may mount" || bad "no note on the default clients"
grep -q 'rpcbind is not running' "$LOG" &&
	ok "says it cannot register with rpcbind" || bad "no note on rpcbind"
read -r nfsport mountport <<EOF
$(sed -n 's/^usernfsd: NFS on port \([0-9]*\), MOUNT on port \([0-9]*\),.*/\1 \2/p' "$LOG")
EOF
[ -n "$nfsport" ] && [ "$nfsport" -gt 1024 ] && [ "$mountport" -gt 1024 ] &&
	ok "ports above 1024: $nfsport, $mountport" || bad "ports '$nfsport' '$mountport'"
grep -q "nfs://127.0.0.1$exp?version=3&nfsport=$nfsport&mountport=$mountport" "$LOG" &&
	ok "libnfs URL printed" || bad "no libnfs URL"
printed_mount
step "running: $MOUNT_CMD"
try_mount "$MOUNT_CMD" || die "the printed mount command failed: $(cat "$work/mount.out")"
grep -q " $mnt nfs " /proc/mounts && ok "mounted" || bad "not in /proc/mounts"
[ "$(cat "$mnt/hello")" = "from the server" ] && ok "read" || bad "read"
echo "from the client" >"$mnt/written" && ok "write" || bad "write"
mkdir "$mnt/dir" && ok "mkdir" || bad "mkdir"
# Another client user is squashed to the sharing user as well.
setpriv --reuid=4321 --regid=4321 --clear-groups sh -c "echo other >'$mnt/dir/by-4321'" ||
	bad "write as client uid 4321"
drop_caches
[ "$(cat "$exp/written")" = "from the client" ] && ok "written data on the server" ||
	bad "written data on the server"
for f in written dir dir/by-4321; do
	[ "$(stat -c %u:%g "$exp/$f")" = "$uid:$gid" ] && ok "$f owned by $user" ||
		bad "$f owned by $(stat -c %u:%g "$exp/$f"), want $uid:$gid"
done
cat "$mnt/private/file" >/dev/null 2>&1 && bad "read a file $user may not read" ||
	ok "a file $user may not read stays unreadable"
# Outside the share: not mountable, not reachable by LOOKUP "..".
for p in "$work" "$work/secret" "$exp/../secret"; do
	other=$(printf '%s' "$MOUNT_CMD" | sed "s|127.0.0.1:$exp |127.0.0.1:$p |")
	mkdir -p "$work/mnt2"
	other="${other% $mnt} $work/mnt2"
	if try_mount "$other"; then
		bad "mounted $p, outside the share"
		umount "$work/mnt2"
	else
		ok "mount of $p refused"
	fi
done
if [ -n "$rpcprobe" ]; then
	out=$("$rpcprobe" 127.0.0.1 "$mountport" tcp mnt "$exp")
	rfh=$(printf '%s\n' "$out" | tr ' ' '\n' | sed -n 's/^fh=//p')
	rootid=$(stat -c %i "$exp")
	out=$("$rpcprobe" 127.0.0.1 "$nfsport" tcp lookup-hex "$rfh" .. 2>&1)
	id=$(printf '%s\n' "$out" | tr ' ' '\n' | sed -n 's/^fileid=//p' | head -n 1)
	st=$(printf '%s\n' "$out" | tr ' ' '\n' | sed -n 's/^status=//p' | head -n 1)
	if [ "$st" = 0 ] && [ "$id" != "$rootid" ]; then
		bad "LOOKUP .. at the share's root left it (fileid $id, root $rootid)"
	elif [ -z "$st" ]; then
		bad "LOOKUP .. at the share's root: no answer: $out"
	else
		ok "LOOKUP .. at the share's root stays inside (status $st)"
	fi
fi
umount "$mnt" || die "umount"
stop_share
ls -d /tmp/usernfsd-share.* >/dev/null 2>&1 && bad "temporary state directory left behind" ||
	ok "temporary state directory removed"

step "2. --ro"
start_share "$work/ro.log" --ro
grep -q "^Sharing $exp read-only" "$LOG" && ok "says read-only" || bad "does not say read-only"
printed_mount
try_mount "$MOUNT_CMD" || die "the printed mount command failed: $(cat "$work/mount.out")"
[ "$(cat "$mnt/hello")" = "from the server" ] && ok "read (ro)" || bad "read (ro)"
if echo nope 2>"$work/err" >"$mnt/ro-write"; then
	bad "wrote to a --ro share"
else
	ok "write refused: $(cat "$work/err")"
fi
[ ! -e "$exp/ro-write" ] && ok "nothing written on the server" || bad "file created through --ro"
rm "$mnt/hello" 2>/dev/null && bad "removed a file through --ro" || ok "remove refused"
umount "$mnt" || die "umount"
stop_share

step "3. --allow 127.0.0.1: another address is refused"
start_share "$work/allow.log" --allow 127.0.0.1
grep -q 'only this host may mount' "$LOG" && bad "default-clients note with --allow" ||
	ok "no default-clients note with --allow"
printed_mount
outside=$(printf '%s' "$MOUNT_CMD" | sed 's| 127\.0\.0\.1:| 10.0.2.15:|')
step "running: $outside"
try_mount "$outside" && { bad "mounted from 10.0.2.15, outside --allow"; umount "$mnt"; } ||
	ok "10.0.2.15 refused: $(tail -n 1 "$work/mount.out")"
try_mount "$MOUNT_CMD" && ok "127.0.0.1 admitted" || bad "127.0.0.1 refused: $(cat "$work/mount.out")"
umount "$mnt" 2>/dev/null
stop_share

step "4. --allow 10.0.2.0/24 with rpcbind running: registered, the LAN address printed"
mkdir -p /run/rpcbind
rpcbind -w || die "cannot start rpcbind"
for _ in $(seq 50); do rpcinfo -p 127.0.0.1 >/dev/null 2>&1 && break; sleep 0.1; done
start_share "$work/lan.log" --allow 10.0.2.0/24
printed_mount
case $MOUNT_CMD in
*" 10.0.2.15:$exp "*) ok "prints the LAN address: $MOUNT_CMD" ;;
*) bad "printed mount command $MOUNT_CMD does not use 10.0.2.15" ;;
esac
if grep -q 'registered with rpcbind$' "$LOG" && ! grep -q 'not registered' "$LOG"; then
	rpcinfo -p 127.0.0.1 | grep -q "100003 *3 *tcp *$nfsport" &&
		ok "registered with rpcbind as $user" || bad "says registered, rpcbind disagrees"
else
	grep -q 'note:.*rpcbind' "$LOG" && ok "rpcbind refused, and it says so" ||
		bad "neither registered nor a note"
fi
try_mount "$MOUNT_CMD" && ok "10.0.2.15 admitted" || bad "10.0.2.15 refused: $(cat "$work/mount.out")"
[ "$(cat "$mnt/written" 2>/dev/null)" = "from the client" ] && ok "read over 10.0.2.15" ||
	bad "read over 10.0.2.15"
umount "$mnt" 2>/dev/null
local_cmd=$(printf '%s' "$MOUNT_CMD" | sed 's| 10\.0\.2\.15:| 127.0.0.1:|')
try_mount "$local_cmd" && { bad "127.0.0.1 admitted, outside --allow 10.0.2.0/24"; umount "$mnt"; } ||
	ok "127.0.0.1 refused with --allow 10.0.2.0/24"
stop_share
rpcinfo -p 127.0.0.1 | grep -q '^ *100003 ' && bad "registration left in rpcbind" ||
	ok "no registration left in rpcbind"

pgrep -x usernfsd >/dev/null && bad "a usernfsd process is left"
if [ "$failed" -gt 0 ]; then
	echo "share: $failed checks failed"
	exit 1
fi
step "all checks passed"
