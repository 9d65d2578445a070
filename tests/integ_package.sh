#!/bin/sh
# The Debian package in a QEMU guest (throwaway root): dpkg -i, the SysV
# init script's start, reload and stop, a kernel-client mount, dpkg -r and
# -P (tests/guest/package.sh says what is checked).
# The package is $USERNFSD_DEB (tests/check.sh builds it first), else it is
# built here with tests/build-deb.sh. Skipped (77) with a message when it
# cannot be built for want of dpkg-buildpackage or debhelper, or when QEMU,
# the kernel image or busybox-static is not installed.
here=$(cd "$(dirname "$0")" && pwd)

stage=$(mktemp -d /var/tmp/usernfsd-pkg.XXXXXX) || exit 99
trap 'rm -rf "$stage"' EXIT
cp "$here/guest/package.sh" "$here/guest/guest-lib.sh" "$stage/" || exit 99

start=$(date +%s)
if [ -n "${USERNFSD_DEB:-}" ]; then
	[ -f "$USERNFSD_DEB" ] || { echo "integ_package: USERNFSD_DEB=$USERNFSD_DEB: no such file"; exit 99; }
	cp "$USERNFSD_DEB" "$stage/" || exit 99
else
	echo "integ_package: no USERNFSD_DEB given: building the package (tests/build-deb.sh)"
	sh "$here/build-deb.sh" --no-lintian "$stage/deb"
	rc=$?
	if [ "$rc" -eq 77 ]; then
		echo "SKIP: integ_package: cannot build the package (install debhelper and dpkg-dev," \
			"or set USERNFSD_DEB to a built usernfsd_*.deb)"
		exit 77
	fi
	[ "$rc" -eq 0 ] || { echo "FAIL: integ_package: the package build failed"; exit 1; }
	cp "$stage"/deb/usernfsd_*.deb "$stage/" || exit 99
	echo "integ_package: package built in $(( $(date +%s) - start )) s"
fi
deb=$(ls "$stage"/usernfsd_*.deb)

gstart=$(date +%s)
"$here/guest/run-guest" -t 600 "$stage/package.sh" "$deb"
rc=$?
echo "integ_package: guest run took $(( $(date +%s) - gstart )) s (exit $rc)"
exit $rc
