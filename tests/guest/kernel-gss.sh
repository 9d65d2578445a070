#!/bin/bash
# Runs inside the QEMU guest (see run-guest), booted from bookworm-backports'
# kernel (USERNFSD_GUEST_KROOT, tests/guest/fetch-kernel): the Linux NFS
# client with sec=krb5, krb5i and krb5p against usernfsd on the host.
#   kernel-gss.sh STAGE NFS_PORT MOUNT_PORT KDC_PORT EXPORT
# tests/integ_kernel_gss.sh made the realm TEST.USERNFSD (a KDC on the
# host's 127.0.0.1:KDC_PORT, 10.0.2.2 from here) and STAGE: krb5.keytab
# (host/kgss-client.test.usernfsd, the machine credential rpc.gssd takes
# for root), daemon.keytab (daemon@TEST.USERNFSD, owned by uid 1) and
# src-SEC-VERS, the 1 MiB files to write (each carries a marker the host
# looks for in its capture). The server is nfs-server.test.usernfsd, whose
# service principal is nfs/nfs-server.test.usernfsd: rpc.gssd (avoid-dns,
# its default) asks for nfs@ the name in the mount command.
# For each of krb5, krb5i, krb5p over vers=4.1 and vers=3:
#   - the mount succeeds and /proc/mounts says sec=SEC;
#   - uid 1 (daemon, with a ticket) writes user-SEC-VERS and reads it back
#     byte for byte, the page cache dropped between;
#   - uid 2 (bin, no ticket) can neither read that file nor create one:
#     rpc.gssd finds no credential and the kernel answers EACCES;
#   - root (no ticket) writes root-SEC-VERS with the machine credential.
# The host checks the owners and the capture afterwards.
set -u
stage=$1
NFS_PORT=$2
MOUNT_PORT=$3
KDC_PORT=$4
export=$5
konly=$6	# sec=krb5p
mixed=$7	# sec=sys:krb5p
work=/tmp/kgss
SRV=nfs-server.test.usernfsd
CLI=kgss-client.test.usernfsd
REALM=TEST.USERNFSD

. "$(dirname "$0")/guest-lib.sh"
counted_checks kernel-gss
# What rpc.gssd and the kernel said, less uid 2's expected refusals and
# the boot's messages.
diag() {
	echo "---- rpc.gssd -vvv: errors"
	grep -iE 'error|fail|denied' "$work/gssd.log" 2>/dev/null |
		grep -vE 'uid 2 |krb5cc_2|/run/user/2' | tail -n 20
	echo "---- kernel: RPC, NFS, GSS"
	dmesg | grep -iE 'rpc|nfs|gss|krb5' | grep -vE 'Registered|Registering|drop_caches|ommand line' | tail -n 20
}
snooze_setup

# uid 1 and uid 2, no supplementary groups
as1() { setpriv --reuid=1 --regid=1 --clear-groups "$@"; }
as2() { setpriv --reuid=2 --regid=2 --clear-groups "$@"; }

step "the client $CLI, the realm at 10.0.2.2:$KDC_PORT, rpc.gssd"
modprobe -a nfsv3 nfsv4 || fatal "modprobe nfsv3 nfsv4"
gss_client "$REALM" "10.0.2.2:$KDC_PORT" "$CLI" "$SRV" 10.0.2.2 "$stage/krb5.keytab" "$work/gssd.log" ||
	fatal "$GSS_ERR"
gssd=$GSSD_PID
gss_kinit 1 "$stage/daemon.keytab" "daemon@$REALM" "$work/kinit.out"
expect 0 $? "uid 1 has a ticket for daemon@$REALM" "$work/kinit.out"

# refused FILE: ok when FILE (a command's stderr) says EACCES or EPERM
refused() { grep -qE 'Permission denied|Operation not permitted' "$1"; }

# one SEC VERS: the checks of one mount
one() {
	local sec=$1 vers=$2 t="$1 v$2" m=/mnt/$1-$2 c=$1-$2 opts line f
	step "sec=$sec, vers=$vers"
	case $vers in
	3) opts=vers=3,proto=tcp,mountproto=tcp,port=$NFS_PORT,mountport=$MOUNT_PORT,nolock ;;
	*) opts=vers=$vers,port=$NFS_PORT ;;
	esac
	mkdir -p "$m"
	if mount -t nfs -o "$opts,sec=$sec" "$SRV:$export" "$m" >"$work/err" 2>&1; then
		ok "$t: mount"
	else
		t="$t: mount"
		# v3: the kernel refuses a flavor that MNT's reply does not list.
		[ "$vers" != 3 ] || t="$t (does MNT's reply list $sec?)"
		bad "$t" "$work/err"
		return
	fi
	line=
	while read -r -a f; do [ "${f[1]}" != "$m" ] || line=${f[3]}; done </proc/mounts
	[[ ,$line, == *,sec=$sec,* ]]
	expect 0 $? "$t: /proc/mounts says sec=$sec ($line)"
	as1 cp "$stage/src-$c" "$m/user-$c" 2>"$work/err"
	expect 0 $? "$t: uid 1 writes 1 MiB" "$work/err"
	drop_caches
	as1 cmp "$stage/src-$c" "$m/user-$c" >"$work/err" 2>&1
	expect 0 $? "$t: uid 1 reads it back, byte for byte" "$work/err"
	as2 cat "$m/user-$c" >/dev/null 2>"$work/err"
	[ $? -ne 0 ] && refused "$work/err"
	expect 0 $? "$t: uid 2, without a ticket, cannot read it" "$work/err"
	as2 touch "$m/u2-$c" 2>"$work/err"
	[ $? -ne 0 ] && refused "$work/err" && [ ! -e "$m/u2-$c" ]
	expect 0 $? "$t: uid 2, without a ticket, cannot create a file" "$work/err"
	cp "$stage/src-$c" "$m/root-$c" 2>"$work/err"
	expect 0 $? "$t: root, without a ticket, writes through the machine credential" "$work/err"
	umount "$m" 2>"$work/err"
	expect 0 $? "$t: umount" "$work/err"
}

for sec in krb5 krb5i krb5p; do
	for vers in 4.1 3; do
		one $sec $vers
	done
done

# The flavor a mount may use is the export's: sec=krb5p refuses AUTH_SYS
# (v4.1: WRONGSEC, then the flavors SECINFO gives; v3: MNT's list),
# sec=sys:krb5p takes both.
sysmount() {	# sysmount DIR VERS SEC: mount DIR at /mnt/x
	local o=vers=$2,port=$NFS_PORT
	[ "$2" != 3 ] || o=vers=3,proto=tcp,mountproto=tcp,port=$NFS_PORT,mountport=$MOUNT_PORT,nolock
	mkdir -p /mnt/x
	timeout 60 mount -t nfs -o "$o,sec=$3" "$SRV:$1" /mnt/x >"$work/err" 2>&1
}
step "the export's flavors: sec=krb5p, sec=sys:krb5p"
for vers in 4.1 3; do
	sysmount "$konly" $vers sys
	rc=$?
	[ $rc -eq 0 ] && umount /mnt/x
	[ $rc -ne 0 ]
	expect 0 $? "v$vers: a sec=sys mount of a sec=krb5p export is refused" "$work/err"
	sysmount "$mixed" $vers sys && touch "/mnt/x/sys-$vers" && umount /mnt/x
	expect 0 $? "v$vers: sec=sys:krb5p takes a sec=sys mount" "$work/err"
	sysmount "$mixed" $vers krb5p && as1 touch "/mnt/x/krb5p-$vers" && umount /mnt/x
	expect 0 $? "v$vers: sec=sys:krb5p takes a sec=krb5p mount" "$work/err"
done

kill -0 "$gssd" 2>/dev/null
expect 0 $? "rpc.gssd is still running"
[ "$FAILED" -eq 0 ] || diag
echo "kernel-gss: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
