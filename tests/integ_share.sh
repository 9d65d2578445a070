#!/bin/sh
# usernfsd --share run by an ordinary user, mounted by the Linux kernel
# client in a QEMU guest with the very command the daemon prints
# (tests/guest/share.sh says what is checked). Skipped (77) with a message
# when QEMU, the kernel image or busybox-static is not installed.
here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-$here/..}
USERNFSD=${USERNFSD:-$top_builddir/src/usernfsd}
RPCPROBE=${RPCPROBE:-$top_builddir/tests/rpcprobe}

[ -x "$USERNFSD" ] || { echo "SKIP: integ_share: no daemon at $USERNFSD"; exit 77; }
# The guest gets a fresh /tmp, so hand it copies somewhere it can see, and
# that the test user can read (the daemon runs as that user).
stage=$(mktemp -d /var/tmp/usernfsd-share.XXXXXX) || exit 99
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
cp "$USERNFSD" "$here/guest/share.sh" "$here/guest/guest-lib.sh" "$stage/" || exit 99
probe=
if [ -x "$RPCPROBE" ]; then
	cp "$RPCPROBE" "$stage/" && probe=$stage/rpcprobe
fi

start=$(date +%s)
"$here/guest/run-guest" -t 600 "$stage/share.sh" "$stage/usernfsd" $probe
rc=$?
echo "integ_share: guest run took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
