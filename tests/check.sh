#!/bin/sh
# Runs the whole test suite: installs the test dependencies, builds with
# warnings as errors, runs `make check`'s unit tests and the QEMU guests
# (the Linux kernel client, power loss, the package) and `make
# distcheck`, and builds the Debian package (dpkg-buildpackage in a copy
# of the tree, then lintian). Then, each in its own build tree made from
# the release tarball: the unit tests and the integration tests of this
# host (rpcinfo, showmount, libnfs, the raw probes, a KDC) built with
# AddressSanitizer + UBSan (_asan/; two streams side by side, each in
# network and mount namespaces of its own), and, side by side, the libFuzzer
# targets for FUZZ_TIME seconds each (_fuzz/, `make fuzz-smoke`) and eight
# integration tests once more with the daemon under valgrind memcheck
# (_valgrind/). Run as root on Debian 12:
#     sudo sh tests/check.sh
# CI runs exactly this. CHECK_QUICK=1 runs all of `make check` with the
# release build and leaves out the other trees; FUZZ_TIME sets the
# seconds per fuzz target (default 25).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# The sanitizer, fuzzing and valgrind runs are on unless CHECK_QUICK is set.
if [ -n "${CHECK_QUICK:-}" ]; then CHECK_FULL=; else CHECK_FULL=1; fi

if [ "$(id -u)" -ne 0 ]; then
	echo "check.sh: run as root (tests start rpcbind and act as other users)" >&2
	exit 1
fi
sh tests/install-deps.sh test

t0=$(date +%s)
autoreconf -fi
./configure --enable-werror
make -j"$(nproc)"

status=0
# The Debian package, as CI builds it from a clean clone: dpkg-buildpackage
# in a copy of the tree (this one stays as it is), then lintian, whose
# errors fail the run. tests/integ_package.sh installs this .deb in the
# QEMU guest (USERNFSD_DEB) instead of building its own.
tp=$(date +%s)
debstatus=0
sh tests/build-deb.sh "$top/_deb" >"$top/_deb.log" 2>&1 || debstatus=$?
cat "$top/_deb.log"
lint=$(sed -n 's/^build-deb: lintian: \([0-9]* errors, [0-9]* warnings\).*/\1/p' "$top/_deb.log")
case $debstatus in
0) deb="ok, lintian: $lint" ;;
2) deb="FAILED: lintian: $lint"; status=1 ;;
*) deb="FAILED: dpkg-buildpackage (exit $debstatus; log: _deb/build.log)"; status=1 ;;
esac
deb="$deb ($(( $(date +%s) - tp )) s)"
if [ "$debstatus" -eq 0 ] || [ "$debstatus" -eq 2 ]; then
	USERNFSD_DEB=$(ls "$top"/_deb/usernfsd_*.deb)
	export USERNFSD_DEB
fi

# Each integration test runs once, with the build that tells most: the
# QEMU guests (the Linux kernel client, power loss, the package) with this
# release build, as users run it; the tests of the daemon on this host
# with the AddressSanitizer + UBSan build below (their bugs are memory
# and undefined behaviour; with CHECK_QUICK, here instead). The unit
# tests run in both. `make check` alone still runs everything.
# print_tests DIR: the TESTS of DIR's Makefile, one per line
print_tests() {
	printf 'print-tests:\n\t@echo $(TESTS)\n' | make -s -C "$1" -f Makefile -f - print-tests |
		tr ' ' '\n' | grep .
}
# The guests whose daemon runs inside QEMU (minutes under TCG, more with
# the sanitizers); integ_kernel_gss serves from this host, so it is not one.
guest_re='integ_\(kernel\|kernel_v2\|kernel_v4\|kernel_lock\|powerloss\|package\|share\|heads_failover\)\.sh'
all_tests=$(print_tests .)
if [ -n "${CHECK_FULL}" ]; then
	main_tests=$(printf '%s\n' "$all_tests" |
		grep -e '/unit/' -e "$guest_re" -e check_layout -e integ_demo -e integ_kernel_gss)
	# Two at a time: the guests' daemons run in QEMU, on no port of this
	# host, and spend much of their time waiting (leases, grace periods,
	# the disk), so two share the cores well; integ_demo and
	# integ_kernel_gss, which serve from this host, take the test lock.
	jobs=2
else
	# Serial on purpose: the integration tests share rpcbind and test ports.
	main_tests=$all_tests
	jobs=1
fi
make -j"$jobs" check TESTS="$(printf '%s\n' "$main_tests" | tr '\n' ' ')" || status=1
# show_failures DIR: the end of every failed test's log under DIR
show_failures() {
	for log in "$1"/tests/*.log "$1"/tests/unit/*.log; do
		[ -f "$log" ] || continue
		case "$log" in */test-suite.log) continue ;; esac
		if grep -q '^:test-result: \(FAIL\|ERROR\)' "${log%.log}.trs" 2>/dev/null; then
			echo "==== $log"; tail -n 40 "$log"
		fi
	done
	for tsl in "$1"/test-suite*.log; do
		[ ! -f "$tsl" ] || sed -n '1,12p' "$tsl"
	done
}
show_failures .

# The release tarball must build and pass its unit tests on its own.
distcheck=ok
make distcheck TESTS="tests/unit/test_fh tests/unit/test_exports tests/unit/test_errmap tests/unit/test_cookie2 tests/unit/test_beneath tests/unit/test_lock_ranges tests/unit/test_stats" \
	>distcheck.log 2>&1 || { tail -n 40 distcheck.log; status=1; distcheck=FAILED; }

# count DIR RESULT: how many tests under DIR had RESULT (PASS, SKIP, FAIL|ERROR)
count() {
	cat "$1"/tests/*.trs "$1"/tests/unit/*.trs 2>/dev/null | grep -c "^:test-result: \($2\)" || true
}
pass=$(count . PASS)
fail=$(count . 'FAIL\|ERROR')
skip=$(count . SKIP)
summary="make check (gcc, -Werror)         $pass passed, $fail failed, $skip skipped
make distcheck                    $distcheck
Debian package + lintian          $deb"
case $deb in FAILED*) fail=$((fail + 1)) ;; esac
t1=$(date +%s)

# Separate trees from the tarball: a source tree configured in place
# cannot also hold VPATH builds.
if [ -n "${CHECK_FULL}" ] && ! make dist >dist.log 2>&1; then
	tail -n 20 dist.log
	summary="$summary
make dist                         FAILED: no sanitizer, fuzzing or valgrind runs"
	fail=$((fail + 1))
	status=1
elif [ -n "${CHECK_FULL}" ]; then
	dist=$(sed -n 's/^PACKAGE = //p' Makefile)-$(sed -n 's/^VERSION = //p' Makefile)
	# tree NAME CONFIGURE-ARGS...: _NAME/$dist, configured and built
	tree() {
		local_name=$1
		shift
		rm -rf "$top/_$local_name"
		mkdir "$top/_$local_name"
		tar -C "$top/_$local_name" -xzf "$top/$dist.tar.gz"
		(cd "$top/_$local_name/$dist" && ${TREE_NICE:-} ./configure "$@" >configure.log 2>&1 &&
			${TREE_NICE:-} make -j"$(nproc)" >make.log 2>&1) || {
			echo "check.sh: building _$local_name failed:"
			tail -n 30 "$top/_$local_name/$dist/configure.log" "$top/_$local_name/$dist/make.log"
			return 1
		}
	}

	# asan_stream NAME TESTS: `make check-TESTS` of TESTS in the _asan tree,
	# in network and mount namespaces of their own: a loopback (the test
	# ports, rpcbind's port, a KDC's), a /run (rpcbind's socket and state
	# file) and a test lock, so that another stream runs beside it.
	asan_stream() {
		unshare --net --mount --propagation private sh -c '
			ip link set lo up && mount -t tmpfs -o mode=0755 usernfsd-run /run &&
			mkdir -p /run/rpcbind /run/lock && cd "$0" &&
			USERNFSD_TEST_LOCK=/tmp/usernfsd-tests-$1.lock \
			exec make check-TESTS TESTS="$2" TEST_SUITE_LOG=test-suite-$1.log' \
			"$a" "$1" "$2" >"$a/check-$1.log" 2>&1
	}
	# split_tests LIST: LIST (one per line) into stream_a and stream_b of
	# about equal time, longest first, by what each took under ASan in CI
	# (seconds; 10 for one not listed).
	split_tests() {
		stream_a= stream_b= ta=0 tb=0
		weighed=$(printf '%s\n' "$1" | while read -r name; do
			case $name in
			*integ_nlm.sh) w=89 ;; *integ_libnfs.sh) w=58 ;; *integ_write.sh) w=54 ;;
			*integ_durability.sh) w=52 ;; *integ_errors.sh) w=48 ;; *integ_nfs4.sh) w=40 ;;
			*integ_transport.sh|*integ_nfs2.sh) w=37 ;; *integ_hostile.sh) w=31 ;;
			*test_fh) w=30 ;; *integ_nfs40.sh) w=28 ;; *integ_kernel_gss.sh) w=27 ;;
			*integ_heads_grace.sh) w=24 ;; *integ_drc.sh) w=23 ;; */unit/*) w=2 ;;
			*) w=10 ;;
			esac
			echo "$w $name"
		done | sort -rn)
		while read -r w t; do
			if [ "$ta" -le "$tb" ]; then
				stream_a="$stream_a $t" ta=$((ta + w))
			else
				stream_b="$stream_b $t" tb=$((tb + w))
			fi
		done <<EOF
$weighed
EOF
	}

	# ---- 1. the integration tests of this host under AddressSanitizer + UBSan ----
	# A report ends the process with status 86 (ASan, LSan) or 87 (UBSan),
	# which fails the test; ASan/LSan reports are also kept in _asan/reports,
	# so one from a process whose status nobody checks still counts.
	# Every test but the guests whose daemon runs in QEMU (ran above with
	# the release build: under the sanitizers and TCG each took minutes,
	# for server paths the host tests here cover: integ_nfs4 and
	# integ_nlm every operation the kernel clients send, integ_nfs2 v2 on
	# both transports, integ_durability the writes and commits) and
	# check_layout, which reads the sources.
	a=$top/_asan/$dist
	trees_pid=
	rm -f "$top/_fuzz.built" "$top/_valgrind.built"
	if tree asan --enable-sanitizers; then
		# The fuzzing and valgrind trees build meanwhile, at a lower priority.
		(TREE_NICE="nice -n 10"
			tree fuzz --enable-fuzzing; echo $? >"$top/_fuzz.built"
			tree valgrind; echo $? >"$top/_valgrind.built") >"$top/_trees.log" 2>&1 &
		trees_pid=$!
		mkdir -p "$top/_asan/reports"
		asan_tests=$(print_tests "$a" | grep -v -e "$guest_re" -e check_layout)
		ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:exitcode=86:detect_leaks=1:log_path=$top/_asan/reports/asan"
		UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87"
		export ASAN_OPTIONS UBSAN_OPTIONS
		# The check programs once, then two streams side by side, each in
		# network and mount namespaces of its own (asan_stream): most of
		# these tests wait (leases, grace periods, retransmissions, the
		# disk), and run serially they took 11 of CI's minutes.
		(cd "$a" && make check TESTS= >check.log 2>&1) || status=1
		split_tests "$asan_tests"
		asan_stream a "$stream_a" &
		sa=$!
		asan_stream b "$stream_b" || status=1
		wait "$sa" || status=1
		show_failures "$a"
		p=$(count "$a" PASS); f=$(count "$a" 'FAIL\|ERROR'); s=$(count "$a" SKIP)
		reports=$(find "$top/_asan/reports" -type f | wc -l)
		ub=$(cat "$a"/tests/*.log "$a"/tests/unit/*.log 2>/dev/null | grep -c 'runtime error:' || true)
		for r in "$top"/_asan/reports/*; do
			[ -f "$r" ] && { echo "==== sanitizer report $r"; head -n 60 "$r"; }
		done
		if [ "$reports" -gt 0 ] || [ "$ub" -gt 0 ]; then
			f=$((f + 1))	# the reports count as one more failed test
			status=1
		fi
	else
		p=0 f=1 s=0 reports='?' ub='?'
		status=1
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	summary="$summary
make check (ASan + UBSan)         $p passed, $f failed, $s skipped; reports: $reports ASan/LSan, $ub UBSan"
	t2=$(date +%s)

	# ---- 2 and 3, side by side: the libFuzzer targets (clang), and the
	# integration tests with the daemon under valgrind. Each keeps one
	# core busy (libFuzzer runs one target at a time; valgrind runs the
	# daemon's threads one at a time), so on two cores together they take
	# the time of the longer.
	if [ -n "${trees_pid:-}" ]; then
		wait "$trees_pid" || :
		cat "$top/_trees.log"
	else
		(tree fuzz --enable-fuzzing; echo $? >"$top/_fuzz.built"
			tree valgrind; echo $? >"$top/_valgrind.built") || :
	fi
	built() { [ "$(cat "$top/_$1.built" 2>/dev/null)" = 0 ]; }
	fz=$top/_fuzz/$dist
	fuzz_pid=
	if built fuzz; then
		(cd "$fz" && make fuzz-smoke FUZZ_TIME="${FUZZ_TIME:-25}") >"$top/_fuzz/smoke.log" 2>&1 &
		fuzz_pid=$!
	fi

	# The valgrind round: eight host tests with the release build, for
	# what the sanitized build cannot show (reads of uninitialised memory
	# in gcc's code); about as long as the fuzzers. integ_durability and
	# integ_libnfs, a minute each here, stay with ASan alone: their paths
	# (stable writes, COMMIT; libnfs's calls) are integ_write's and
	# integ_rpc's too.  valgrind 3.19 has no openat2: the daemon walks
	# paths one component at a time there (beneath.c, openat_beneath).
	v=$top/_valgrind/$dist
	vg_tests="tests/integ_rpc.sh tests/integ_errors.sh tests/integ_write.sh"
	vg_tests="$vg_tests tests/integ_drc.sh tests/integ_reload.sh tests/integ_unpriv.sh"
	vg_tests="$vg_tests tests/integ_exports.sh tests/integ_nfs2.sh"
	if built valgrind; then
		(cd "$v" && USERNFSD_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite" \
			make check TESTS="$vg_tests" >check.log 2>&1) || status=1
		show_failures "$v"
		vp=$(count "$v" PASS); vf=$(count "$v" 'FAIL\|ERROR'); vs=$(count "$v" SKIP)
	else
		vp=0 vf=1 vs=0
		status=1
	fi

	if [ -n "$fuzz_pid" ]; then
		wait "$fuzz_pid" || status=1
		# smoke.sh's own lines: PASS/FAIL per target, a failure's log and reproducer
		grep '^\(PASS: \|FAIL: \|    \)' "$top/_fuzz/smoke.log" || true
		p=$(grep -c '^PASS: ' "$top/_fuzz/smoke.log" || true)
		f=$(grep -c '^FAIL: ' "$top/_fuzz/smoke.log" || true)
		[ $((p + f)) -gt 0 ] || { f=1; status=1; tail -n 30 "$top/_fuzz/smoke.log"; }
	else
		p=0 f=1
		status=1
	fi
	pass=$((pass + p + vp)); fail=$((fail + f + vf)); skip=$((skip + vs))
	summary="$summary
make fuzz-smoke (${FUZZ_TIME:-25} s/target)     $p passed, $f failed
integration tests under valgrind  $vp passed, $vf failed, $vs skipped"
	t4=$(date +%s)
	dur() { echo "$(( $1 / 60 ))m$(( $1 % 60 ))s"; }
	summary="$summary
time: $(dur $((t1 - t0))) build + check + distcheck, $(dur $((t2 - t1))) ASan, $(dur $((t4 - t2))) fuzzing and valgrind"
fi

echo "==== summary"
echo "$summary"
[ "$status" -eq 0 ] || [ "$fail" -gt 0 ] || fail=1
echo "$pass passed, $fail failed, $skip skipped"
exit $status
