#!/bin/bash
# integ_exports.sh - exports(5) rules enforced on every request, seen by
# real clients: access by address, network, name and wildcard; ro; root,
# all and anonymous squashing in the ownership of created files; secure
# and insecure source ports; fsid=; crossmnt, nohide and mountpoint with
# real mounts; exports.d.
. "$(dirname "$0")/lib.sh"

need_cmd showmount mount umount
setup

T=$WORKDIR
chmod 755 "$T"
for d in byaddr byaddr6 bynet notnet byname bywild notwild ro sq nsq allsq plain sec insec \
	fsid cross nocross hidden mp; do
	mkdir -p "$T/$d"
	chmod 777 "$T/$d"
done
echo data >"$T/byaddr/f"
MOUNTED=()
cleanup_mounts() {
	local m
	for m in "${MOUNTED[@]}"; do umount "$m" 2>/dev/null; done
}
at_exit cleanup_mounts
mount_tmpfs() {
	mount -t tmpfs tmpfs "$1" || skip "cannot mount tmpfs (no CAP_SYS_ADMIN here)"
	MOUNTED+=("$1")
}
mkdir -p "$T/cross/sub" "$T/nocross/sub" "$T/hidden/sub" "$T/mp"
mount_tmpfs "$T/cross/sub"
mount_tmpfs "$T/nocross/sub"
mount_tmpfs "$T/hidden/sub"
mount_tmpfs "$T/mp"
echo in-sub >"$T/cross/sub/file"
echo in-hidden >"$T/hidden/sub/file"
mkdir -p "$T/exports.d" "$T/fromdir" "$T/plain/notmounted"

cat >"$T/exports.d/extra.exports" <<EOT
# a second file, read with the main one
$T/fromdir 127.0.0.1(ro,insecure)
EOT

start_daemon "\
$T/byaddr 127.0.0.1(rw,insecure)
$T/byaddr6 ::1(rw,insecure)
$T/bynet 127.0.0.0/8(rw,insecure) ::1/128(rw,insecure)
$T/notnet 10.0.0.0/255.0.0.0(rw,insecure)
$T/byname localhost(rw,insecure)
$T/bywild localhos?(rw,insecure)
$T/notwild *.invalid(rw,insecure)
$T/ro 127.0.0.1(ro,insecure)
$T/sq 127.0.0.1(rw,insecure,root_squash)
$T/nsq 127.0.0.1(rw,insecure,no_root_squash)
$T/allsq 127.0.0.1(rw,insecure,all_squash,anonuid=1234,anongid=4321)
$T/plain 127.0.0.1(rw,insecure,no_root_squash)
$T/sec 127.0.0.1(rw,secure)
$T/insec 127.0.0.1(rw,insecure)
$T/fsid 127.0.0.1(rw,insecure,fsid=77)
$T/cross 127.0.0.1(rw,insecure,crossmnt)
$T/nocross 127.0.0.1(rw,insecure)
$T/hidden 127.0.0.1(rw,insecure)
$T/hidden/sub 127.0.0.1(rw,insecure,nohide)
$T/mp 127.0.0.1(rw,insecure,mountpoint)
$T/plain/notmounted 127.0.0.1(rw,insecure,mp)"

# 1. who may mount what
run_expect "by address: 127.0.0.1 mounts" '^status=0' mnt_probe tcp mnt "$T/byaddr"
run_expect "by address: ::1 is refused" '^status=13' mnt_probe tcp6 mnt "$T/byaddr"
run_expect "by IPv6 address: ::1 mounts" '^status=0' mnt_probe tcp6 mnt "$T/byaddr6"
run_expect "by IPv6 address: 127.0.0.1 is refused" '^status=13' mnt_probe tcp mnt "$T/byaddr6"
run_expect "by network: 127.0.0.0/8 mounts" '^status=0' mnt_probe udp mnt "$T/bynet"
run_expect "by network: ::1/128 mounts" '^status=0' mnt_probe udp6 mnt "$T/bynet"
run_expect "by netmask: 10/255.0.0.0 refuses 127.0.0.1" '^status=13' mnt_probe tcp mnt "$T/notnet"
if [ "$(getent hosts localhost | awk '{print $1; exit}')" = 127.0.0.1 ]; then
	run_expect "by name: localhost mounts from 127.0.0.1" '^status=0' mnt_probe tcp mnt "$T/byname"
fi
if getent hosts 127.0.0.1 | grep -qw localhost; then
	run_expect "by wildcard: localhos? matches the reverse name" '^status=0' \
		mnt_probe tcp mnt "$T/bywild"
fi
run_expect "by wildcard: *.invalid refuses" '^status=13' mnt_probe tcp mnt "$T/notwild"
run_expect "exports.d is read" '^status=0' mnt_probe tcp mnt "$T/fromdir"
run_expect "showmount lists exports.d entries" "$T/fromdir" showmount -e 127.0.0.1

# 2. the rules hold on every NFS call, not only at MNT
ADDR=$(mnt_fh tcp "$T/byaddr") || fail "MNT byaddr"
run_expect "a handle used from a client the export does not list is refused" '^status=13$' \
	nfs_probe tcp6 getattr-hex "$ADDR"
run_expect "and works from the client it lists" '^status=0$' nfs_probe tcp getattr-hex "$ADDR"

# 3. ro
RO=$(mnt_fh tcp "$T/ro") || fail "MNT ro"
run_expect "ro: CREATE is ROFS" '^status=30' nfs_probe tcp create "$RO" x guarded 0644
run_expect "ro: MKDIR is ROFS" '^status=30' nfs_probe tcp mkdir "$RO" d 0755

# 4. squashing, seen in who owns what a client creates
created_owner() {	# PROTO-OPTS... DIRPATH NAME -> uid:gid on the server
	local dir=$1 name=$2
	shift 2
	local fh
	fh=$(mnt_fh tcp "$dir") || return 1
	nfs_probe tcp "$@" create "$fh" "$name" guarded 0644 | grep -q '^status=0' || return 1
	stat -c %u:%g "$dir/$name"
}
run_expect "root_squash: root's file belongs to 65534:65534" '^65534:65534$' \
	created_owner "$T/sq" f -u 0 -g 0
run_expect "no_root_squash: root's file belongs to 0:0" '^0:0$' created_owner "$T/nsq" f -u 0 -g 0
run_expect "all_squash,anonuid,anongid: uid 1000's file belongs to 1234:4321" '^1234:4321$' \
	created_owner "$T/allsq" f -u 1000 -g 1000
run_expect "no squashing: uid 1000 gid 1000 own their file" '^1000:1000$' \
	created_owner "$T/plain" f -u 1000 -g 1000
mkdir -m 700 "$T/plain/private"
PLAIN=$(mnt_fh tcp "$T/plain")
run_expect "the file system's own permissions apply to the client's uid" '^status=13' \
	nfs_probe tcp -u 1000 -g 1000 lookup-path "$PLAIN" private/x

# 5. secure / insecure: the source port is checked on every call
# Reserved-port calls go over UDP: after hundreds of earlier TCP calls from
# reserved ports, TIME_WAIT can leave none free for a TCP client to bind.
run_expect "secure: MNT from a reserved port" '^status=0' mnt_probe udp mnt "$T/sec"
run_expect "secure: MNT from an unprivileged port is refused" '^status=13' mnt_probe tcp -P mnt "$T/sec"
SEC=$(mnt_fh udp "$T/sec")
run_expect "secure: GETATTR from an unprivileged port is refused" '^status=13$' \
	nfs_probe tcp -P getattr-hex "$SEC"
run_expect "insecure: MNT from an unprivileged port" '^status=0' mnt_probe tcp -P mnt "$T/insec"

# 6. fsid=
FSID=$(mnt_fh tcp "$T/fsid")
run_expect "fsid=77 is what GETATTR reports" ' fsid=77 ' nfs_probe tcp getattr-hex "$FSID"

# 7. crossmnt, nohide, no crossing
CROSS=$(mnt_fh tcp "$T/cross")
run_expect "crossmnt: LOOKUP enters the file system mounted below" '^status=0' \
	nfs_probe tcp lookup-path "$CROSS" sub/file
SUBFH=$(fh_of tcp "$CROSS" sub/file)
rm -f "$T/out"
run_expect "crossmnt: the file below the mount reads back" '^status=0' \
	nfs_probe tcp read-file "$SUBFH" "$T/out"
[ "$(cat "$T/out" 2>/dev/null)" = in-sub ] && ok "crossmnt: right content" || not_ok "crossmnt: content"
F1=$(nfs_probe tcp getattr-hex "$CROSS" | sed -n 's/.* fsid=\([0-9]*\) .*/\1/p')
F2=$(nfs_probe tcp getattr-hex "$SUBFH" | sed -n 's/.* fsid=\([0-9]*\) .*/\1/p')
[ -n "$F1" ] && [ -n "$F2" ] && [ "$F1" != "$F2" ] && ok "crossmnt: the submount has its own fsid" ||
	not_ok "crossmnt: fsids $F1 and $F2 should differ"
run_expect "crossmnt: MNT of a path inside the submount" '^status=0' mnt_probe tcp mnt "$T/cross/sub"
restart_daemon
run_expect "crossmnt: a submount handle survives a restart" '^status=0$' \
	nfs_probe tcp getattr-hex "$SUBFH"
NOCROSS=$(mnt_fh tcp "$T/nocross")
run_expect "no crossmnt: the mount below is not entered" '^status=13' \
	nfs_probe tcp lookup-hex "$NOCROSS" sub
HID=$(mnt_fh tcp "$T/hidden")
run_expect "nohide: a child export is entered from its parent" '^status=0' \
	nfs_probe tcp lookup-path "$HID" sub/file

# 8. mountpoint
run_expect "mountpoint: served while something is mounted there" '^status=0' \
	mnt_probe tcp mnt "$T/mp"
run_expect "mp: not served while nothing is mounted there" '^status=13' \
	mnt_probe tcp mnt "$T/plain/notmounted"

check_daemon_alive "exports enforcement"
stop_daemon
cleanup_mounts
MOUNTED=()
finish
