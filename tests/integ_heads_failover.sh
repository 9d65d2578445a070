#!/bin/bash
# Several heads with the Linux kernel client, in a QEMU guest booted from
# Debian's kernel (tests/guest/run-guest, tests/guest/heads.sh): a head is
# SIGKILLed under a stream of writes and another takes over its address,
# port and identity (the writer goes on, no ESTALE, sha256 equal); a lock
# through one head keeps the range from another; after a takeover the
# guest reclaims its lock in the new head's grace period while the other
# head grants no new lock; the same with NFSv4.1 mounts and locks. Skipped (77) with a message when QEMU, the
# kernel image, busybox-static, rpcbind, nfs-common or python3 is missing.
. "$(dirname "$0")/lib.sh"

LOCKTOOL=${LOCKTOOL:-$top_builddir/tests/locktool}
need_cmd rpcbind rpc.statd rpcinfo nsenter unshare ip python3
[ -x "$USERNFSD" ] || skip "daemon not built: $USERNFSD"
[ -x "$LOCKTOOL" ] || skip "lock tool not built: $LOCKTOOL (make check builds it)"

# The guest gets a fresh /tmp, so hand it copies somewhere it can see.
stage=$(mktemp -d /var/tmp/usernfsd-heads.XXXXXX) || exit 99
at_exit 'rm -rf "$stage"'
cp "$LOCKTOOL" "$USERNFSD" "$TESTS_SRCDIR/guest/heads.sh" "$TESTS_SRCDIR/guest/guest-lib.sh" "$stage/" || exit 99

start=$(date +%s)
"$TESTS_SRCDIR/guest/run-guest" -t 900 "$stage/heads.sh" "$stage/usernfsd" "$stage/locktool"
rc=$?
echo "integ_heads_failover: guest run took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
