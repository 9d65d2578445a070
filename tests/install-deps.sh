#!/bin/sh
# Installs what building ("build") or also testing ("test") usernfsd needs,
# from Debian 12's packages. Idempotent; quiet when everything is there.
set -eu

build="build-essential autoconf automake pkg-config libtirpc-dev rpcsvc-proto libsystemd-dev rpcbind"
# The kernel-client test boots Debian's kernel under QEMU; libnfs, rpcinfo
# and showmount are the real clients the other tests use.
test="$build libnfs-utils libnfs-dev nfs-common qemu-system-x86 linux-image-amd64 busybox-static kmod strace"

case "${1:-build}" in
build) want=$build ;;
test) want=$test ;;
*) echo "usage: install-deps.sh build|test" >&2; exit 2 ;;
esac

missing=
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
