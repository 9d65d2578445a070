#!/bin/sh
# Builds the Debian package as a clean clone would (dpkg-buildpackage -us
# -uc -b) in a copy of the source tree, so the tree's own build is left
# alone, and checks it with lintian.
#     sh tests/build-deb.sh [--no-lintian] OUTDIR
# OUTDIR receives the .deb, .changes and .buildinfo, build.log and
# lintian.log. The copy holds the files git tracks or would track
# (committed or not, nothing it ignores): what a clone of this state
# would have. DEB_BUILD_OPTIONS=nocheck: the test suite is run by
# check.sh, not again inside the package build.
# Exit status: 0 built (and lintian found no error), 1 the build failed,
# 2 lintian reported errors, 77 dpkg-buildpackage or debhelper is missing.
set -eu
lint=1
if [ "${1:-}" = --no-lintian ]; then lint=; shift; fi
[ $# -eq 1 ] || { echo "usage: $0 [--no-lintian] OUTDIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)

command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || {
	echo "build-deb: SKIP: dpkg-buildpackage or dh missing (install dpkg-dev and debhelper:" \
		"sh tests/install-deps.sh test)" >&2
	exit 77
}
if [ -n "$lint" ] && ! command -v lintian >/dev/null; then
	echo "build-deb: SKIP: lintian missing (sh tests/install-deps.sh test)" >&2
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/usernfsd-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/usernfsd"
start=$(date +%s)
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# What git tracks or would track, as it is in the tree (no build products).
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -C "$tmp/usernfsd" -xf -
else
	# A release tarball's tree: all of it (dh_auto_clean runs make distclean).
	cp -a "$top/." "$tmp/usernfsd/"
fi
rm -f "$out"/usernfsd*_*.deb "$out"/usernfsd_*.changes "$out"/usernfsd_*.buildinfo
if ! (cd "$tmp/usernfsd" && DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log"
	echo "build-deb: dpkg-buildpackage failed after $(( $(date +%s) - start )) s; log: $out/build.log"
	exit 1
fi
# The package and its automatic debug symbols (named in the .changes).
cp "$tmp"/usernfsd*_*.deb "$tmp"/usernfsd_*.changes "$tmp"/usernfsd_*.buildinfo "$out/"
deb=$(ls "$out"/usernfsd_*.deb)
echo "build-deb: built $(basename "$deb") in $(( $(date +%s) - start )) s"
[ -n "$lint" ] || exit 0

lstart=$(date +%s)
rc=0
lintian --fail-on error "$out"/usernfsd_*.changes >"$out/lintian.log" 2>&1 || rc=$?
# Nothing checked is no pass.
grep -q '^No packages selected' "$out/lintian.log" && rc=1
errors=$(grep -c '^E: ' "$out/lintian.log" || true)
warnings=$(grep -c '^W: ' "$out/lintian.log" || true)
cat "$out/lintian.log"
echo "build-deb: lintian: $errors errors, $warnings warnings in $(( $(date +%s) - lstart )) s"
if [ "$rc" -ne 0 ] || [ "$errors" -gt 0 ]; then
	exit 2
fi
exit 0
