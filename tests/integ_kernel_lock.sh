#!/bin/bash
# NLM locking through the Linux kernel NFS client, in a QEMU guest booted
# from Debian's kernel (tests/guest/run-guest, tests/guest/kernel-lock.sh):
# the server (usernfsd, with its own rpcbind and rpc.statd) in network and
# mount namespaces of its own, the client in the guest's root namespace with
# rpcbind and rpc.statd, mounts without nolock over v3/TCP, v2/TCP and, with
# nfs.ko rebuilt with UDP (tests/guest/build-nfs-udp, cached), v3/UDP and
# v2/UDP.  Skipped (77) with a message when QEMU, the kernel image,
# busybox-static, rpcbind or nfs-common is missing; the UDP part alone when
# linux-source or the kernel's headers are.
#
# USERNFSD_LOCK_SERVER=knfsd runs the same checks against the guest kernel's
# own server (needs nfs-kernel-server): the reference for the harness.
# USERNFSD_LOCK_DEBUG=1 adds lockd's debugging messages and usernfsd --debug.
. "$(dirname "$0")/lib.sh"

server=${USERNFSD_LOCK_SERVER:-usernfsd}
LOCKTOOL=${LOCKTOOL:-$top_builddir/tests/locktool}

# The guest runs the host's userland: the client's and server's daemons
# must be installed here.
need_cmd rpcbind rpc.statd sm-notify rpcinfo nsenter unshare ip
case $server in
usernfsd) [ -x "$USERNFSD" ] || skip "daemon not built: $USERNFSD" ;;
knfsd) need_cmd rpc.nfsd rpc.mountd exportfs ;;
*) echo "integ_kernel_lock: USERNFSD_LOCK_SERVER must be usernfsd or knfsd" >&2; exit 99 ;;
esac
[ -x "$LOCKTOOL" ] || skip "lock tool not built: $LOCKTOOL (make check builds it)"

# The kernel the guest boots.
kver=$("$TESTS_SRCDIR/guest/run-guest" -k)

udpmods=
if [ -n "$kver" ] && command -v qemu-system-x86_64 >/dev/null; then
	udpmods=$("$TESTS_SRCDIR/guest/build-nfs-udp" "$kver")
	case $? in
	0) ;;
	77) udpmods=
	    echo "integ_kernel_lock: NOTE: the UDP part is skipped (see above); TCP only" ;;
	*) echo "integ_kernel_lock: FAIL: could not build the UDP client modules"; exit 1 ;;
	esac
fi

# The guest gets a fresh /tmp, so hand it copies somewhere it can see.
stage=$(mktemp -d /var/tmp/usernfsd-kl.XXXXXX) || exit 99
at_exit 'rm -rf "$stage"'
cp "$LOCKTOOL" "$TESTS_SRCDIR/guest/kernel-lock.sh" "$TESTS_SRCDIR/guest/guest-lib.sh" "$stage/" || exit 99
[ "$server" = knfsd ] || cp "$USERNFSD" "$stage/" || exit 99

start=$(date +%s)
"$TESTS_SRCDIR/guest/run-guest" -t 600 "$stage/kernel-lock.sh" "$server" "$stage/locktool" \
	"$stage/usernfsd" ${udpmods:+"$udpmods"}
rc=$?
echo "integ_kernel_lock: guest run took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
