#!/bin/sh
# smoke.sh CORPUS_DIR OUT_DIR TARGET...  (what `make fuzz-smoke` runs)
#
# Runs each libFuzzer target for FUZZ_TIME seconds (default 30), FUZZ_JOBS
# of them at once (default: the number of CPUs), on its
# checked-in seed corpus (CORPUS_DIR/NAME, read only) plus a work corpus
# (OUT_DIR/work/NAME, where new inputs go). A crash, leak, timeout (25 s per
# input) or more than 2 GiB of memory fails the target; the input that did
# it is saved as OUT_DIR/artifacts/NAME-crash-... (or leak-, timeout-, oom-)
# and the end of its log is printed. Prints "PASS: NAME ..." or
# "FAIL: NAME ..." per target, then a summary; exits 1 if any failed.
set -u
[ $# -ge 3 ] || { echo "usage: $0 CORPUS_DIR OUT_DIR TARGET..." >&2; exit 2; }
corpus=$1
out=$2
shift 2
time=${FUZZ_TIME:-30}
# Stack traces for UBSan reports too.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export UBSAN_OPTIONS
# Targets run FUZZ_JOBS at a time (default: one per CPU): each is one
# single-threaded libFuzzer process, so on 2 cores two at once halve the
# wall time and give each target the same FUZZ_TIME seconds.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1

# fuzz_one TARGET: runs it and writes its report to OUT_DIR/work/NAME.result,
# a first line PASS or FAIL and what to print.
fuzz_one() {
	t=$1
	name=$(basename "$t")
	log=$out/work/$name.log
	res=$out/work/$name.result
	mkdir -p "$out/work/$name" "$out/artifacts"
	rm -f "$out/artifacts/$name"-*	# what an earlier run found
	# The RPC target brings its own transport; the daemon's must not be linked in.
	if [ "$name" = fuzz_rpc ] && nm "$t" | grep -Eq ' T (transport_listen|transport_poll|conns_accept)$'; then
		echo "FAIL: $name: src/rpc/transport.o or src/rpc/tcpconn.o is linked into $t" >"$res"
		return
	fi
	# fuzz_rpc runs the daemon's code, which logs to stderr: keep that quiet.
	quiet=
	[ "$name" != fuzz_rpc ] || quiet=-close_fd_mask=2
	start=$(date +%s)
	"$t" -max_total_time="$time" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
		$quiet -artifact_prefix="$out/artifacts/$name-" \
		"$out/work/$name" "$corpus/$name" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		echo "PASS: $name: ${runs:-?} runs in $secs s, ${cov:-cov: ?}" >"$res"
		return
	fi
	{
		echo "FAIL: $name: exit status $rc after ${runs:-?} runs ($log)"
		# From the report on (the progress lines before it say little).
		first=$(grep -n -m 1 -E 'ERROR: |runtime error|^fuzz_[a-z]*: ' "$log" | cut -d: -f1)
		tail -n +"${first:-1}" "$log" | grep -v 'in fuzzer::' | tail -n 60 | sed 's/^/    /'
		for a in "$out/artifacts/$name"-*; do
			[ -e "$a" ] && echo "    reproducer: $a (run: $t $a)"
		done
	} >"$res"
}

running=0
for t in "$@"; do
	rm -f "$out/work/$(basename "$t").result"
	fuzz_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

# The reports in the order the targets were given; a target that left
# none (killed, out of disk) fails too.
pass=0
fail=0
for t in "$@"; do
	name=$(basename "$t")
	res=$out/work/$name.result
	if [ -s "$res" ]; then
		cat "$res"
	else
		echo "FAIL: $name: no result (see $out/work/$name.log)"
	fi
	if [ -s "$res" ] && head -n 1 "$res" | grep -q '^PASS: '; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "fuzz-smoke: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
