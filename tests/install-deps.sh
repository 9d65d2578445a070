#!/bin/sh
# Installs what building ("build"), the demo ("demo": tests/demo.sh) or
# also testing ("test") usernfsd needs, from Debian 12's packages.
# Idempotent; quiet when everything is there.
set -eu

build="build-essential autoconf automake pkg-config libtirpc-dev libnfsidmap-dev libkrb5-dev rpcsvc-proto libsystemd-dev rpcbind"
# The demo prints nfs-ls (libnfs-utils, small) and showmount (nfs-common,
# which brings Kerberos libraries, python3 and rpc.statd: not for "build").
demo="$build libnfs-utils nfs-common"
# The kernel-client test boots Debian's kernel under QEMU; libnfs, rpcinfo
# and showmount are the real clients the other tests use. The NFSv2-over-UDP
# test rebuilds the kernel's NFS client from linux-source against the
# headers of that kernel (tests/guest/build-nfs-udp).
# clang (libFuzzer) and valgrind are for check.sh's fuzzing and memcheck runs.
# prometheus (promtool and the server), jq and curl check the statistics
# (integ_stats.sh); python3 drives the metrics listener's hostile clients.
# bindfs is a FUSE file system for the persistent-handle warning (integ_fhcheck.sh).
# debhelper (with dh-autoreconf), dpkg-dev and lintian build and check the
# Debian package (tests/build-deb.sh), which integ_package installs.
# nftables walls the NFSv4 server's namespace in the guest down to TCP 2049
# (integ_kernel_v4.sh): what a v4 client really needs.
# krb5-kdc (krb5kdc, kdb5_util), krb5-admin-server (kadmin.local) and krb5-user
# (kinit, klist) make the throwaway realm integ_gss.sh serves RPCSEC_GSS from.
# integ_kernel_gss.sh captures the krb5i and krb5p writes with tcpdump (tshark
# would do too) to see the data in clear or not; its guest runs
# bookworm-backports' kernel, fetched below (zstd unpacks its vmlinux).
# attr (setfattr, getfattr): NFSv4.2's extended attributes from the kernel
# client (integ_kernel_v4.sh).
test="$build krb5-kdc krb5-admin-server krb5-user debhelper dh-autoreconf dpkg-dev lintian clang valgrind libnfs-utils libnfs-dev nfs-common qemu-system-x86 linux-image-amd64 busybox-static kmod strace
	linux-source-6.1 linux-headers-amd64 prometheus jq curl python3 bindfs nftables tcpdump zstd attr"

case "${1:-build}" in
build) want=$build ;;
demo) want=$demo ;;
test) want=$test ;;
*) echo "usage: install-deps.sh build|demo|test" >&2; exit 2 ;;
esac

export DEBIAN_FRONTEND=noninteractive
updated=
install_missing() {
	missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "install-deps: installing$missing"
	[ -n "$updated" ] || apt-get update -q
	updated=1
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
}

# shellcheck disable=SC2086
install_missing $want
if [ "${1:-build}" = test ]; then
	# The headers of exactly the kernel the guest boots (the newest in /boot),
	# which linux-headers-amd64 may not be when that image is older.
	kver=$(for f in /boot/vmlinuz-*; do [ -e "$f" ] && echo "${f#/boot/vmlinuz-}"; done |
		sort -V | tail -n 1)
	[ -z "$kver" ] || install_missing "linux-headers-$kver" ||
		echo "install-deps: no linux-headers-$kver: the NFSv2-over-UDP test will be skipped" >&2
	# bookworm-backports' kernel for the Kerberos guest test, unpacked under
	# /var/tmp/usernfsd-guest (nothing installed; a no-op once it is there).
	"$(dirname "$0")/guest/fetch-kernel" >/dev/null ||
		echo "install-deps: no backports kernel: integ_kernel_gss.sh will be skipped" >&2
fi
