#!/bin/bash
# Runs inside the QEMU guest (see run-guest): the Linux kernel NFS client
# against usernfsd, both in the guest, over loopback TCP.
#   kernel-client.sh USERNFSD_BINARY
# Mounts with noac,lookupcache=none and drops the page cache before reads,
# so every check below is answered by the server, not by client caches.
set -eu
daemon=$1
work=/tmp/kc
exp=$work/export
mnt=$work/mnt
log=$work/usernfsd.log
NFS_PORT=2049
MOUNT_PORT=20048

step() { echo "kernel-client: $*"; }
fail() {
	echo "kernel-client: FAIL: $*"
	echo "---- daemon log"; tail -n 30 "$log" 2>/dev/null || true
	exit 1
}

. "$(dirname "$0")/guest-lib.sh"

step "loading the NFS client modules"
modprobe nfs
modprobe nfsv3
mkdir -p "$exp" "$mnt" "$work/state"

step "building the export"
mkdir -p "$exp/a/b" "$exp/x" "$exp/deep/1/2/3" "$exp/big"
printf '' >"$exp/empty"
head -c 1 /dev/urandom >"$exp/one"
head -c 4097 /dev/urandom >"$exp/page-plus-one"
head -c 3000000 /dev/urandom >"$exp/deep/1/2/3/three-megs"
head -c 8000000 /dev/urandom >"$exp/eight-megs"
echo "held open across restart and move" >"$exp/a/b/file"
ln -s eight-megs "$exp/rel-link"
ln -s /etc/hostname "$exp/abs-link"
(cd "$exp/big" && seq -f 'entry-%05g' 1 5000 | xargs touch)
# Checksums for the data files; the 5000 empty names are checked by listing.
(cd "$exp" && find . -path ./big -prune -o -type f -print0 | sort -z | xargs -0 sha256sum) >"$work/want.sum"

echo "$exp 127.0.0.1(rw,no_root_squash)" >"$work/exports"
start_daemon

step "mounting vers=3,proto=tcp"
mount -t nfs -o vers=3,proto=tcp,port=$NFS_PORT,mountport=$MOUNT_PORT,mountproto=tcp,nolock,noac,lookupcache=none \
	127.0.0.1:"$exp" "$mnt" || fail "mount"
grep -q " $mnt nfs " /proc/mounts || fail "not in /proc/mounts"

step "reading the tree back"
drop_caches
(cd "$mnt" && sha256sum -c --quiet "$work/want.sum") || fail "checksums differ"
[ "$(readlink "$mnt/rel-link")" = eight-megs ] || fail "relative symlink"
[ "$(readlink "$mnt/abs-link")" = /etc/hostname ] || fail "absolute symlink"
cmp "$mnt/rel-link" "$exp/eight-megs" || fail "read through a relative symlink"
ls "$mnt/big" >"$work/listing"
[ "$(wc -l <"$work/listing")" -eq 5000 ] || fail "listing of 5000 entries"
[ "$(sort -u "$work/listing" | wc -l)" -eq 5000 ] || fail "duplicate names in listing"
[ "$(stat -c %s "$mnt/eight-megs")" -eq 8000000 ] || fail "size"

step "a file held open across a restart and a move of its parent"
exec 3<"$mnt/a/b/file"
ino=$(stat -L -c %i /proc/self/fd/3)
stop_daemon
mv "$exp/a/b" "$exp/x/moved"
start_daemon
drop_caches
[ "$(stat -L -c %i /proc/self/fd/3)" = "$ino" ] || fail "stat through the held descriptor"
[ "$(cat /proc/self/fd/3)" = "held open across restart and move" ] || fail "read through the held descriptor"
[ "$(cat "$mnt/x/moved/file")" = "held open across restart and move" ] || fail "read at the new path"
[ ! -e "$mnt/a/b" ] || fail "old path still visible"
exec 3<&-

step "POSIX workout on the mount"
w=$mnt/work
mkdir "$w" || fail "mkdir"
echo hello >"$w/f" && echo more >>"$w/f" || fail "create and append"
[ "$(cat "$w/f")" = "$(printf 'hello\nmore')" ] || fail "append content"
truncate -s 3 "$w/f" && [ "$(cat "$w/f")" = hel ] || fail "truncate down"
truncate -s 100000 "$w/f" && [ "$(stat -c %s "$w/f")" -eq 100000 ] || fail "truncate up"
[ "$(tail -c 5 "$w/f" | od -An -tx1 | tr -d ' ')" = 0000000000 ] || fail "hole reads zeros"
mv "$w/f" "$w/g" && [ ! -e "$w/f" ] && [ -f "$w/g" ] || fail "rename"
ln "$w/g" "$w/h" && [ "$(stat -c %h "$w/g")" -eq 2 ] || fail "hard link"
ln -s g "$w/s" && [ "$(readlink "$w/s")" = g ] && [ "$(head -c 3 "$w/s")" = hel ] || fail "symlink"
mkdir -p "$w/d/e/f" && rmdir "$w/d/e/f" "$w/d/e" "$w/d" && [ ! -e "$w/d" ] || fail "mkdir -p / rmdir"
mkdir "$w/full" && touch "$w/full/x" && ! rmdir "$w/full" 2>/dev/null || fail "rmdir of a non-empty dir"
chmod 640 "$w/g" && [ "$(stat -c %a "$w/g")" = 640 ] || fail "chmod"
chown 1234:5678 "$w/g" && [ "$(stat -c %u:%g "$w/g")" = 1234:5678 ] || fail "chown"
touch -d '2001-02-03 04:05:06 UTC' "$w/g" && [ "$(stat -c %Y "$w/g")" = 981173106 ] || fail "utime"
mkfifo "$w/fifo" && [ -p "$w/fifo" ] || fail "mkfifo"
rm "$w/h" "$w/s" "$w/fifo" && [ "$(stat -c %h "$w/g")" -eq 1 ] || fail "unlink"
# what the client did is what the server's file system holds
[ "$(stat -c %u:%g:%a:%s "$exp/work/g")" = 1234:5678:640:100000 ] || fail "server-side attributes"

step "large file written through the client"
head -c 24000000 /dev/urandom >"$work/large"
cp "$work/large" "$w/large" && sync || fail "write large file"
drop_caches
cmp "$work/large" "$w/large" || fail "large file read back through the client"
cmp "$work/large" "$exp/work/large" || fail "large file on the server"

step "daemon killed (SIGKILL) in the middle of a large write"
head -c 48000000 /dev/urandom >"$work/crash"
dd if="$work/crash" of="$w/crash" bs=1M conv=fsync status=none &
ddpid=$!
sleep 1
kill -KILL "$(cat "$work/pid")"
rm -f "$work/pid"
sleep 1
start_daemon
wait "$ddpid" || fail "dd across the crash"
drop_caches
cmp "$work/crash" "$w/crash" || fail "data written across the crash differs (client view)"
cmp "$work/crash" "$exp/work/crash" || fail "data written across the crash differs (server file)"
rm -f "$w/crash"

step "tar extract and compare"
tar -C /usr/include -cf "$work/src.tar" tirpc rpcsvc
mkdir "$w/tree" && tar -C "$w/tree" -xf "$work/src.tar" || fail "tar extract"
drop_caches
diff -r /usr/include/tirpc "$w/tree/tirpc" && diff -r /usr/include/rpcsvc "$w/tree/rpcsvc" ||
	fail "extracted tree differs"

step "git on the mount"
(
	set -e
	cd "$w" && mkdir repo && cd repo
	git init -q -b main .
	git config user.email t@example.invalid && git config user.name test
	echo one >a && git add a && git commit -qm one
	git checkout -qb side && echo two >a && git commit -qam two
	git checkout -q main && [ "$(cat a)" = one ]
	git checkout -q side && [ "$(cat a)" = two ]
	git fsck --no-dangling --no-progress >/dev/null
) || fail "git init/commit/checkout"

step "cleaning up through the client"
rm -rf "$w" && [ ! -e "$exp/work" ] || fail "rm -rf"

step "unmounting"
umount "$mnt" || { ls -l /proc/[0-9]*/cwd /proc/[0-9]*/fd 2>/dev/null | grep -B3 "$mnt"; fail "umount"; }
stop_daemon
check_sanitizer_reports
step "all checks passed"
