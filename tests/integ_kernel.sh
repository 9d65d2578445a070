#!/bin/sh
# The Linux kernel NFS client against usernfsd, in a QEMU guest booted from
# Debian's kernel (tests/guest/run-guest). Skipped (77) with a message when
# QEMU, the kernel image or busybox-static is not installed.
here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-$here/..}
USERNFSD=${USERNFSD:-$top_builddir/src/usernfsd}

# The guest gets a fresh /tmp, so hand it copies somewhere it can see.
stage=$(mktemp -d /var/tmp/usernfsd-kc.XXXXXX) || exit 99
trap 'rm -rf "$stage"' EXIT
cp "$USERNFSD" "$here/guest/kernel-client.sh" "$here/guest/guest-lib.sh" "$stage/" || exit 99

start=$(date +%s)
"$here/guest/run-guest" -t 600 "$stage/kernel-client.sh" "$stage/usernfsd"
rc=$?
echo "integ_kernel: guest run took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
