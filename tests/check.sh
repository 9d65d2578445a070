#!/bin/sh
# Runs the whole test suite: installs the test dependencies, builds with
# warnings as errors, runs `make check` (unit tests, rpcinfo/showmount/
# libnfs integration tests, the Linux kernel client under QEMU) and
# `make distcheck`. Run as root on Debian 12:  sudo sh tests/check.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if [ "$(id -u)" -ne 0 ]; then
	echo "check.sh: run as root (tests start rpcbind and act as other users)" >&2
	exit 1
fi
sh tests/install-deps.sh test

autoreconf -fi
./configure --enable-werror
make -j"$(nproc)"

status=0
# Serial on purpose: the integration tests share rpcbind and test ports.
make check || status=1
for log in tests/*.log tests/unit/*.log; do
	[ -f "$log" ] || continue
	case "$log" in */test-suite.log) continue ;; esac
	if grep -q '^FAIL\|^ERROR' "${log%.log}.trs" 2>/dev/null; then
		echo "==== $log"; tail -n 40 "$log"
	fi
done
[ -f test-suite.log ] && sed -n '1,12p' test-suite.log

# The release tarball must build and pass its unit tests on its own.
make distcheck TESTS="tests/unit/test_fh tests/unit/test_exports tests/unit/test_errmap" \
	>distcheck.log 2>&1 || { tail -n 40 distcheck.log; status=1; }

pass=$(cat tests/*.trs tests/unit/*.trs 2>/dev/null | grep -c '^:test-result: PASS' || true)
fail=$(cat tests/*.trs tests/unit/*.trs 2>/dev/null | grep -c '^:test-result: \(FAIL\|ERROR\)' || true)
skip=$(cat tests/*.trs tests/unit/*.trs 2>/dev/null | grep -c '^:test-result: SKIP' || true)
[ "$status" -eq 0 ] || [ "$fail" -gt 0 ] || fail=1
echo "$pass passed, $fail failed, $skip skipped"
exit $status
