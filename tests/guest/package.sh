#!/bin/bash
# Runs inside the QEMU guest (see run-guest), whose root is a throwaway
# overlay: the Debian package installed with dpkg -i, the service run by its
# SysV init script (the guest has no systemd), mounted by the guest's kernel
# client over loopback through rpcbind (v3) and by a mount with no options
# (which negotiates NFSv4.2), reloaded after /etc/exports is
# edited, stopped; dpkg -r must leave no daemon running, and the package
# must never take /etc/exports: created only when absent, kept otherwise,
# kept on purge.
#   package.sh USERNFSD_DEB
set -u
deb=$1
work=/tmp/pkg
mnt=$work/mnt
failed=0

t_start=$(date +%s)
step() { echo "package: [$(( $(date +%s) - t_start )) s] $*"; }
ok() { echo "package: ok: $*"; }
bad() { echo "package: FAIL: $*"; failed=$((failed + 1)); }
die() {
	bad "$*"
	pgrep -a usernfsd
	exit 1
}
. "$(dirname "$0")/guest-lib.sh"
registered() { rpcinfo -p 127.0.0.1 2>/dev/null | awk '$1 == 100003 { f = 1 } END { exit !f }'; }

modprobe nfs && modprobe nfsv3 && modprobe nfsv4 || die "modprobe nfs nfsv3 nfsv4"
# As on a host: rpcbind runs before the service (the script requires it).
mkdir -p /run/rpcbind
rpcbind -w || die "cannot start rpcbind"
for _ in $(seq 50); do rpcinfo -p 127.0.0.1 >/dev/null 2>&1 && break; sleep 0.1; done
rpcinfo -p 127.0.0.1 >/dev/null || die "rpcbind does not answer"

mkdir -p "$work/export" "$work/second" "$mnt"
echo "served by the package" >"$work/export/hello"
echo "second export" >"$work/second/file"

step "dpkg -i $(basename "$deb") (starting services denied, as in a chroot)"
rm -f /etc/exports
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
chmod 755 /usr/sbin/policy-rc.d
# man-db's trigger would rebuild the index of every manual page on the
# host, minutes under TCG (measured: most of each dpkg run); as build
# chroots and containers do, it is told not to (its own switch).
rm -f /var/lib/man-db/auto-update
dpkg -i "$deb" >"$work/dpkg-i.log" 2>&1 || { cat "$work/dpkg-i.log"; die "dpkg -i failed"; }
dpkg-query -W -f='${Status}\n' usernfsd | grep -q 'install ok installed' &&
	ok "installed" || bad "not installed: $(dpkg-query -W -f='${Status}' usernfsd)"
for f in /usr/sbin/usernfsd /etc/init.d/usernfsd /lib/systemd/system/usernfsd.service \
	/usr/share/man/man8/usernfsd.8.gz /usr/share/man/man5/usernfsd-exports.5.gz \
	/usr/share/doc/usernfsd/examples/exports.example /usr/share/doc/usernfsd/copyright; do
	[ -e "$f" ] && ok "ships $f" || bad "no $f"
done
ls /etc/rc2.d/S*usernfsd >/dev/null 2>&1 && ok "SysV script enabled (rc2.d)" ||
	bad "no /etc/rc2.d/S*usernfsd link"
[ -L /etc/systemd/system/multi-user.target.wants/usernfsd.service ] &&
	ok "systemd unit enabled" || bad "unit not enabled"
[ -f /etc/exports ] && ok "/etc/exports created when absent" || bad "no /etc/exports"
grep -qv '^#' /etc/exports && bad "the created /etc/exports exports something" ||
	ok "the created /etc/exports exports nothing"
dpkg -S /etc/exports >/dev/null 2>&1 && bad "/etc/exports belongs to a package" ||
	ok "/etc/exports is in no package"
pgrep -x usernfsd >/dev/null && bad "started although policy-rc.d denied it" ||
	ok "not started (policy-rc.d)"

step "reinstalling keeps an existing /etc/exports"
echo "$work/export 127.0.0.1(rw,no_root_squash)" >/etc/exports
cp /etc/exports "$work/exports.mine"
dpkg -i "$deb" >"$work/dpkg-i2.log" 2>&1 || { cat "$work/dpkg-i2.log"; die "second dpkg -i failed"; }
cmp -s /etc/exports "$work/exports.mine" && ok "/etc/exports untouched" ||
	bad "/etc/exports changed by the reinstall"
rm -f /usr/sbin/policy-rc.d

step "/etc/init.d/usernfsd start"
/etc/init.d/usernfsd start || die "init script start failed"
/etc/init.d/usernfsd status >/dev/null && ok "status: running" || bad "status: not running"
registered && ok "NFS registered with rpcbind" || bad "NFS not registered with rpcbind"

step "mount through rpcbind, read, write"
timeout 60 mount -t nfs -o vers=3,proto=tcp 127.0.0.1:"$work/export" "$mnt" ||
	die "mount 127.0.0.1:$work/export"
[ "$(cat "$mnt/hello")" = "served by the package" ] && ok "read" || bad "read"
echo "written by the client" >"$mnt/new" && ok "write" || bad "write"
drop_caches
[ "$(cat "$work/export/new")" = "written by the client" ] && ok "written data on the server" ||
	bad "written data on the server"
umount "$mnt" || bad "umount"

step "a stock mount, no options: NFSv4.2 (port 2049, no MOUNT protocol)"
timeout 60 mount -t nfs 127.0.0.1:"$work/export" "$mnt" || die "mount 127.0.0.1:$work/export (no options)"
opts=$(awk -v m="$mnt" '$2 == m { print $3, $4 }' /proc/mounts)
case $opts in
"nfs4 "*vers=4.2*) ok "negotiated NFSv4.2 ($opts)" ;;
*) bad "stock mount options: $opts" ;;
esac
[ "$(cat "$mnt/new" 2>/dev/null)" = "written by the client" ] && ok "read over v4.2" || bad "read over v4.2"
echo "written over v4.2" >"$mnt/new4" && ok "write over v4.2" || bad "write over v4.2"
umount "$mnt" || bad "umount of the v4.2 mount"
[ "$(cat "$work/export/new4" 2>/dev/null)" = "written over v4.2" ] && ok "v4.2 data on the server" ||
	bad "v4.2 data on the server"

step "edit /etc/exports, /etc/init.d/usernfsd reload"
timeout 60 mount -t nfs -o vers=3,proto=tcp 127.0.0.1:"$work/second" "$mnt" 2>/dev/null &&
	{ bad "mounted $work/second before it was exported"; umount "$mnt"; }
echo "$work/second 127.0.0.1(ro)" >>/etc/exports
pid=$(cat /run/usernfsd.pid)
/etc/init.d/usernfsd reload || bad "init script reload failed"
[ "$(cat /run/usernfsd.pid)" = "$pid" ] && ok "reload kept the process ($pid)" ||
	bad "reload changed the process"
exported=
for _ in $(seq 50); do
	showmount -e 127.0.0.1 2>/dev/null | grep -q "^$work/second " && { exported=1; break; }
	sleep 0.1
done
[ -n "$exported" ] && ok "the new export is listed after reload" || bad "no new export after reload"
timeout 60 mount -t nfs -o vers=3,proto=tcp 127.0.0.1:"$work/second" "$mnt" ||
	bad "mount of the export added by reload"
[ "$(cat "$mnt/file" 2>/dev/null)" = "second export" ] && ok "read the new export" ||
	bad "read the new export"
echo x 2>/dev/null >"$mnt/nope" && bad "wrote to the ro export" || ok "ro export refuses writes"
umount "$mnt" 2>/dev/null

step "/etc/init.d/usernfsd stop"
/etc/init.d/usernfsd stop || bad "init script stop failed"
pgrep -x usernfsd >/dev/null && bad "usernfsd still running after stop" || ok "stopped"
registered && bad "still registered with rpcbind after stop" || ok "unregistered"

step "dpkg -r with the service running"
/etc/init.d/usernfsd start >/dev/null || die "second start failed"
pgrep -x usernfsd >/dev/null || die "not running before dpkg -r"
dpkg -r usernfsd >"$work/dpkg-r.log" 2>&1 || { cat "$work/dpkg-r.log"; bad "dpkg -r failed"; }
for _ in $(seq 50); do pgrep -x usernfsd >/dev/null || break; sleep 0.1; done
if pgrep -x usernfsd >/dev/null; then
	cat "$work/dpkg-r.log"
	bad "dpkg -r left usernfsd running: $(pgrep -a usernfsd)"
else
	ok "dpkg -r left no usernfsd process"
fi
registered && bad "still registered with rpcbind after dpkg -r" || ok "unregistered after dpkg -r"
[ ! -e /usr/sbin/usernfsd ] && ok "binary removed" || bad "binary still there"
cmp -s /etc/exports "$work/exports.mine" && bad "/etc/exports changed by dpkg -r" ||
	{ grep -q "^$work/second " /etc/exports && ok "/etc/exports kept by dpkg -r" ||
		bad "/etc/exports lost by dpkg -r"; }

step "dpkg -P"
dpkg -P usernfsd >"$work/dpkg-p.log" 2>&1 || { cat "$work/dpkg-p.log"; bad "dpkg -P failed"; }
[ ! -e /etc/init.d/usernfsd ] && ok "purge removed the init script" || bad "init script left"
[ ! -e /var/lib/usernfsd ] && ok "purge removed /var/lib/usernfsd" || bad "/var/lib/usernfsd left"
grep -q "^$work/second " /etc/exports 2>/dev/null && ok "/etc/exports kept by purge" ||
	bad "/etc/exports lost by purge"

if [ "$failed" -gt 0 ]; then
	echo "package: $failed checks failed"
	exit 1
fi
step "all checks passed"
