#!/bin/sh
# The Linux kernel NFSv2 client against usernfsd in a QEMU guest
# (tests/guest/run-guest, tests/guest/kernel-v2.sh): over TCP with Debian's
# own modules, then over UDP with nfs.ko/nfsv2.ko/nfsv3.ko rebuilt without
# CONFIG_NFS_DISABLE_UDP_SUPPORT (tests/guest/build-nfs-udp, cached). The
# UDP part is skipped, with a message, when linux-source-6.1 or the
# kernel's linux-headers package is missing; the whole test (77) when
# QEMU, the kernel image or busybox-static is.
here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-$here/..}
USERNFSD=${USERNFSD:-$top_builddir/src/usernfsd}

# The kernel the guest boots.
kver=$("$here/guest/run-guest" -k)

udpmods=
if [ -n "$kver" ] && command -v qemu-system-x86_64 >/dev/null; then
	start=$(date +%s)
	udpmods=$("$here/guest/build-nfs-udp" "$kver")
	rc=$?
	case $rc in
	0) echo "integ_kernel_v2: UDP client modules ready in $(( $(date +%s) - start )) s: $udpmods" ;;
	77) udpmods=
	    echo "integ_kernel_v2: NOTE: the UDP part is skipped (see above); TCP only" ;;
	*) echo "integ_kernel_v2: FAIL: could not build the UDP client modules"; exit 1 ;;
	esac
fi

# The guest gets a fresh /tmp, so hand it copies somewhere it can see.
stage=$(mktemp -d /var/tmp/usernfsd-kc2.XXXXXX) || exit 99
trap 'rm -rf "$stage"' EXIT
cp "$USERNFSD" "$here/guest/kernel-v2.sh" "$here/guest/guest-lib.sh" "$stage/" || exit 99

start=$(date +%s)
"$here/guest/run-guest" -t 900 "$stage/kernel-v2.sh" "$stage/usernfsd" $udpmods
rc=$?
echo "integ_kernel_v2: guest run took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
