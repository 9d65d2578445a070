#!/bin/bash
# Runs inside the QEMU guest (see run-guest): the Linux kernel's NFSv2
# client against usernfsd, both in the guest.
#   kernel-v2.sh USERNFSD_BINARY [UDP_MODULE_DIR]
# 1. The stock modules over TCP (Debian's client refuses NFS over UDP):
#    mount vers=2 with MOUNT v1, the POSIX workout of kernel-client.sh, a
#    file beyond 2 GiB, and a vers=3 mount beside it: what one version
#    writes the other reads.
# 2. With UDP_MODULE_DIR (nfs.ko, nfsv2.ko, nfsv3.ko rebuilt without
#    CONFIG_NFS_DISABLE_UDP_SUPPORT by build-nfs-udp): the stock modules are
#    replaced by those and the workout runs again over UDP, as SunOS-era
#    clients mount.
# Mounts use noac,lookupcache=none and reads follow a page-cache drop, so
# the server answers every check. mount.nfs refuses vers=2 before sending
# anything, so mount -i hands the options straight to the kernel, which
# talks MOUNT itself (mountvers=1, mountport=, mountproto=).
set -eu
daemon=$1
udpmods=${2:-}
work=/tmp/kc2
exp=$work/export
mnt=$work/mnt
mnt3=$work/mnt3
log=$work/usernfsd.log
NFS_PORT=2049
MOUNT_PORT=20048

step() { echo "kernel-v2: $*"; }
fail() {
	echo "kernel-v2: FAIL: $*"
	echo "---- daemon log"; tail -n 30 "$log" 2>/dev/null || true
	echo "---- kernel"; dmesg | tail -n 10
	exit 1
}

. "$(dirname "$0")/guest-lib.sh"

# mount_nfs VERS PROTO DIR
mount_nfs() {
	local v=$1 proto=$2 dir=$3 mv=3
	[ "$v" = 2 ] && mv=1
	mount -i -t nfs -o "vers=$v,proto=$proto,addr=127.0.0.1,mountaddr=127.0.0.1,port=$NFS_PORT,mountport=$MOUNT_PORT,mountproto=$proto,mountvers=$mv,nolock,noac,lookupcache=none" \
		127.0.0.1:"$exp" "$dir" || fail "mount vers=$v proto=$proto"
	grep " $dir nfs .*vers=$v.*proto=$proto" /proc/mounts >/dev/null ||
		fail "vers=$v proto=$proto not in /proc/mounts: $(grep " $dir " /proc/mounts)"
}

# workout TAG: the POSIX workout on $mnt (v2), checked from the server and from $mnt3 (v3)
workout() {
	local tag=$1 w=$mnt/work-$1 s=$exp/work-$1 w3=$mnt3/work-$1

	step "$tag: reading the tree back"
	drop_caches
	(cd "$mnt" && sha256sum -c --quiet "$work/want.sum") || fail "$tag: checksums differ"
	[ "$(readlink "$mnt/rel-link")" = eight-megs ] || fail "$tag: relative symlink"
	[ "$(readlink "$mnt/abs-link")" = /etc/hostname ] || fail "$tag: absolute symlink"
	cmp "$mnt/rel-link" "$exp/eight-megs" || fail "$tag: read through a symlink"
	ls "$mnt/big" >"$work/listing"
	[ "$(wc -l <"$work/listing")" -eq 5000 ] || fail "$tag: listing of 5000 entries"
	[ "$(sort -u "$work/listing" | wc -l)" -eq 5000 ] || fail "$tag: duplicate names in listing"
	[ "$(stat -c %s "$mnt/eight-megs")" -eq 8000000 ] || fail "$tag: size"
	# Beyond 2 GiB: shown as the largest size v2 has; writing there is refused.
	[ "$(stat -c %s "$mnt/huge")" -eq 2147483647 ] || fail "$tag: size of a 3 GiB file over v2"
	[ "$(stat -c %s "$mnt3/huge")" -eq 3221225472 ] || fail "$tag: size of a 3 GiB file over v3"
	! dd if=/dev/zero of="$mnt/huge" bs=1 count=1 seek=2147483647 conv=notrunc 2>/dev/null ||
		fail "$tag: a write at 2 GiB succeeded"

	step "$tag: POSIX workout"
	mkdir "$w" || fail "$tag: mkdir"
	echo hello >"$w/f" && echo more >>"$w/f" || fail "$tag: create and append"
	[ "$(cat "$w/f")" = "$(printf 'hello\nmore')" ] || fail "$tag: append content"
	truncate -s 3 "$w/f" && [ "$(cat "$w/f")" = hel ] || fail "$tag: truncate down"
	truncate -s 100000 "$w/f" && [ "$(stat -c %s "$w/f")" -eq 100000 ] || fail "$tag: truncate up"
	[ "$(tail -c 5 "$w/f" | od -An -tx1 | tr -d ' ')" = 0000000000 ] || fail "$tag: hole reads zeros"
	mv "$w/f" "$w/g" && [ ! -e "$w/f" ] && [ -f "$w/g" ] || fail "$tag: rename"
	ln "$w/g" "$w/h" && [ "$(stat -c %h "$w/g")" -eq 2 ] || fail "$tag: hard link"
	ln -s g "$w/s" && [ "$(readlink "$w/s")" = g ] && [ "$(head -c 3 "$w/s")" = hel ] ||
		fail "$tag: symlink"
	mkdir -p "$w/d/e/f" && rmdir "$w/d/e/f" "$w/d/e" "$w/d" && [ ! -e "$w/d" ] ||
		fail "$tag: mkdir -p / rmdir"
	mkdir "$w/full" && touch "$w/full/x" && ! rmdir "$w/full" 2>/dev/null ||
		fail "$tag: rmdir of a non-empty dir"
	chmod 640 "$w/g" && [ "$(stat -c %a "$w/g")" = 640 ] || fail "$tag: chmod"
	chown 1234:5678 "$w/g" && [ "$(stat -c %u:%g "$w/g")" = 1234:5678 ] || fail "$tag: chown"
	touch -d '2001-02-03 04:05:06.123456 UTC' "$w/g" &&
		[ "$(stat -c %Y "$w/g")" = 981173106 ] || fail "$tag: utime"
	[ "$(stat -c %y "$s/g" | cut -c 20-26)" = .123456 ] || fail "$tag: microseconds of mtime"
	touch "$w/g" && [ "$(stat -c %Y "$s/g")" -ge "$(($(date +%s) - 60))" ] ||
		fail "$tag: touch to the server's time"
	mkfifo "$w/fifo" && [ -p "$w/fifo" ] && [ -p "$s/fifo" ] || fail "$tag: mkfifo"
	rm "$w/h" "$w/s" "$w/fifo" && [ "$(stat -c %h "$w/g")" -eq 1 ] || fail "$tag: unlink"
	[ "$(stat -c %u:%g:%a:%s "$s/g")" = 1234:5678:640:100000 ] || fail "$tag: server-side attributes"

	step "$tag: a large file through the client"
	head -c 6000000 /dev/urandom >"$work/large"
	cp "$work/large" "$w/large" && sync || fail "$tag: write large file"
	drop_caches
	cmp "$work/large" "$w/large" || fail "$tag: large file read back over v2"
	cmp "$work/large" "$s/large" || fail "$tag: large file on the server"
	cmp "$work/large" "$w3/large" || fail "$tag: large file written over v2, read over v3"
	head -c 3000000 /dev/urandom >"$work/large3"
	cp "$work/large3" "$w3/large3" && sync || fail "$tag: write over v3"
	drop_caches
	cmp "$work/large3" "$w/large3" || fail "$tag: written over v3, read over v2"

	step "$tag: tar extract and compare"
	mkdir "$w/tree" && tar -C "$w/tree" -xf "$work/src.tar" || fail "$tag: tar extract"
	drop_caches
	diff -r /usr/include/rpcsvc "$w/tree/rpcsvc" || fail "$tag: extracted tree differs over v2"
	diff -r /usr/include/rpcsvc "$w3/tree/rpcsvc" || fail "$tag: extracted tree differs over v3"

	step "$tag: cleaning up through the client"
	rm -rf "$w" && [ ! -e "$s" ] || fail "$tag: rm -rf"
}

# The client's RPC counters (both mounts): a retransmission means a lost or late reply.
rpc_stats() {
	awk '/^rpc / { print "client RPC calls " $2 ", retransmissions " $3 }' /proc/net/rpc/nfs
}

unmount_all() {
	for d in "$mnt" "$mnt3"; do
		umount "$d" || { ls -l /proc/[0-9]*/cwd /proc/[0-9]*/fd 2>/dev/null | grep -B3 "$d"; fail "umount $d"; }
	done
}

modprobe nfs
modprobe nfsv2
modprobe nfsv3
mkdir -p "$exp" "$mnt" "$mnt3" "$work/state"

step "building the export"
mkdir -p "$exp/big"
head -c 1 /dev/urandom >"$exp/one"
head -c 8193 /dev/urandom >"$exp/eight-k-plus-one"
head -c 8000000 /dev/urandom >"$exp/eight-megs"
mkdir -p "$exp/deep/1/2/3" && head -c 300000 /dev/urandom >"$exp/deep/1/2/3/three-hundred-k"
ln -s eight-megs "$exp/rel-link"
ln -s /etc/hostname "$exp/abs-link"
truncate -s 3G "$exp/huge"
(cd "$exp/big" && seq -f 'entry-%05g' 1 5000 | xargs touch)
(cd "$exp" && find . -path ./big -prune -o -path ./huge -prune -o -type f -print0 | sort -z |
	xargs -0 sha256sum) >"$work/want.sum"
tar -C /usr/include -cf "$work/src.tar" rpcsvc
echo "$exp 127.0.0.1(rw,no_root_squash,insecure)" >"$work/exports"
start_daemon

step "stock client: mounting vers=2 (MOUNT v1) and vers=3 over TCP"
mount_nfs 2 tcp "$mnt"
mount_nfs 3 tcp "$mnt3"
t0=$(date +%s)
workout tcp
step "tcp workout took $(($(date +%s) - t0)) s; $(rpc_stats)"

step "a v2 mount survives a daemon restart"
exec 3<"$mnt/deep/1/2/3/three-hundred-k"
stop_daemon
start_daemon
drop_caches
cmp /proc/self/fd/3 "$exp/deep/1/2/3/three-hundred-k" || fail "read through a descriptor held across a restart"
exec 3<&-
unmount_all

if [ -z "$udpmods" ]; then
	step "no rebuilt modules given: UDP not tested"
	stop_daemon
	step "all checks passed"
	exit 0
fi

step "replacing the stock client with the one rebuilt with UDP ($udpmods)"
rmmod nfsv2 nfsv3 nfs || fail "cannot unload the stock NFS client: $(lsmod | grep nfs)"
for m in nfs nfsv2 nfsv3; do
	insmod "$udpmods/$m.ko" || fail "insmod $udpmods/$m.ko"
done
step "rebuilt client: mounting vers=2 and vers=3 over UDP"
mount_nfs 2 udp "$mnt"
mount_nfs 3 udp "$mnt3"
t0=$(date +%s)
workout udp
step "udp workout took $(($(date +%s) - t0)) s; $(rpc_stats)"
unmount_all
stop_daemon
check_sanitizer_reports
step "all checks passed (tcp and udp)"
