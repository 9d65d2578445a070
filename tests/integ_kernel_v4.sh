#!/bin/sh
# The Linux kernel's NFSv4.0, 4.1 and 4.2 client against usernfsd, in a QEMU
# guest booted from Debian's kernel (tests/guest/run-guest,
# tests/guest/kernel-v4.sh): the server in namespaces of its own behind
# an nftables wall that admits TCP 2049 only. One boot for every check.
# Skipped (77) with a message when QEMU, the kernel image, busybox-static
# or nft is not installed.
here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-$here/..}
USERNFSD=${USERNFSD:-$top_builddir/src/usernfsd}
LOCKTOOL=${LOCKTOOL:-$top_builddir/tests/locktool}
[ -x "$LOCKTOOL" ] || { echo "integ_kernel_v4: SKIP: $LOCKTOOL not built (make check builds it)"; exit 77; }

for cmd in nft rpcbind rpc.statd nsenter unshare ip; do
	command -v "$cmd" >/dev/null 2>&1 || { echo "integ_kernel_v4: SKIP: $cmd is not installed"; exit 77; }
done
# The guest gets a fresh /tmp, so hand it copies somewhere it can see.
stage=$(mktemp -d /var/tmp/usernfsd-kv4.XXXXXX) || exit 99
trap 'rm -rf "$stage"' EXIT
USERNFSCTL=${USERNFSCTL:-$top_builddir/src/usernfsctl}
cp "$USERNFSD" "$LOCKTOOL" "$USERNFSCTL" "$here/guest/kernel-v4.sh" "$here/guest/guest-lib.sh" "$stage/" || exit 99
# A small ext4 for NFSv4.2's extended attributes (the guest's tmpfs keeps none): /dev/vda there.
command -v mkfs.ext4 >/dev/null || { echo "integ_kernel_v4: SKIP: mkfs.ext4 is not installed (e2fsprogs)"; exit 77; }
truncate -s 16M "$stage/xattr.img" && mkfs.ext4 -q -F "$stage/xattr.img" >/dev/null 2>&1 || exit 99

start=$(date +%s)
"$here/guest/run-guest" -t 900 -d "$stage/xattr.img" "$stage/kernel-v4.sh" "$stage/usernfsd" "$stage/locktool" "$stage/usernfsctl"
rc=$?
echo "integ_kernel_v4: guest run took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
