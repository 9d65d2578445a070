#!/bin/bash
# integ_hostile.sh - usernfsd against hostile and overloading clients, with
# tests/hostile (a C tool on libtirpc) doing the attacking while a normal
# client, from its own address, mounts the export and reads a file whole
# and compares every byte, again and again:
#   1. 10,000 idle TCP connections (the daemon keeps 1024 and closes the
#      oldest): the normal client keeps working, descriptors stay bounded
#   2. a client that sends 1 MiB READs and never reads a reply: the daemon
#      neither blocks nor grows without bound (VmRSS)
#   3. garbage at >= 10,000 messages/s over UDP and TCP (random bytes and
#      malformed RPC calls) for 5 s: the normal client's reads succeed
#   4. record marking: empty fragments, fragments announcing more than the
#      largest record, a record in hundreds of tiny fragments
#   5. fairness: 127.0.0.2 keeps thousands of calls in flight, 127.0.0.3
#      still gets answers quickly (p99 reported and bounded)
#   6. 1. again with the daemon held to 256 descriptors: connections get
#      half of them, the oldest closed one at a time; MNT and READ still work
# The daemon must stay up throughout and exit cleanly at the end. Every
# number measured is printed (run with VERBOSE=1 to see the checks too).
. "$(dirname "$0")/lib.sh"

setup
# Timing and memory bounds mean nothing under valgrind and the like.
[ -z "${USERNFSD_WRAPPER:-}" ] || skip "bounds on latency and memory do not hold under $USERNFSD_WRAPPER"

HOSTILE=${HOSTILE:-$top_builddir/tests/hostile}
if [ ! -x "$HOSTILE" ]; then
	build_tool hostile
	HOSTILE=$WORKDIR/hostile
fi

EXPORT=$WORKDIR/export
mkdir -p "$EXPORT"
head -c 200000 /dev/urandom >"$EXPORT/small"
head -c $((2 << 20)) /dev/urandom >"$EXPORT/big"
chmod 755 "$EXPORT"
chmod 644 "$EXPORT/small" "$EXPORT/big"

# Under AddressSanitizer freed memory waits in a quarantine (256 MiB by
# default), which would hide or fake growth: keep it small.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"

opts="ro,insecure,no_root_squash"
start_daemon "$EXPORT 127.0.0.1($opts) 127.0.0.2($opts) 127.0.0.3($opts)" --no-rpcbind
PID=$DAEMON_PID
ASAN=
if grep -q libasan "/proc/$PID/maps" 2>/dev/null; then ASAN=1; fi
# The daemon keeps at most 1024 connections, fewer when its descriptor
# limit is under 2176: half of that, less 64 (see transport_listen).
KEEP=1024
nofile=$(awk '/^Max open files/ { print $4 }' "/proc/$PID/limits")
if [ "$nofile" != unlimited ] && [ $((nofile / 2 - 64)) -lt $KEEP ]; then KEEP=$((nofile / 2 - 64)); fi

hostile() {
	"$HOSTILE" -n "$NFS_PORT" -m "$MOUNT_PORT" -e "$EXPORT" -f small -l "$EXPORT/small" \
		-b big -p "$PID" "$@"
}

# expect KEY OP BOUND DESC: the KEY=value the last hostile run printed
# ($OUT) compared with BOUND (integers; OP as for test: -eq -lt -le -ge ...)
expect() {
	local key=$1 op=$2 bound=$3 desc=$4 v
	v=$(field "$key" "$OUT")
	if [ -n "$v" ] && [ "$v" "$op" "$bound" ] 2>/dev/null; then
		ok "$desc ($key=$v)"
		return 0
	fi
	not_ok "$desc: $key=${v:-(missing)}, expected $op $bound" "$OUT"
	return 1
}

# expect_re KEY ERE DESC: the KEY=value of $OUT matches ERE
expect_re() {
	local v
	v=$(field "$1" "$OUT")
	if printf '%s\n' "$v" | grep -Eq -- "^($2)\$"; then
		ok "$3 ($1=$v)"
		return 0
	fi
	not_ok "$3: $1=${v:-(missing)}, expected $2" "$OUT"
	return 1
}

# The normal client's record while an attack ran (prefix normal_ or victim_).
expect_normal() {
	local p=${2:-normal}
	expect ${p}_sessions -ge 10 "$1: the normal client kept mounting and reading"
	expect ${p}_fail -eq 0 "$1: no call of the normal client failed"
	expect ${p}_bad -eq 0 "$1: every answer to the normal client was correct"
	expect ${p}_max_ms -lt 2000 "$1: every call of the normal client took < 2 s"
}

say() {
	echo "$TEST_NAME: $*"
}

v() {
	field "$1" "$OUT"
}

T0=$(date +%s)
run_check "a normal client over TCP and UDP from 127.0.0.1" hostile check
run_check "a normal client from 127.0.0.3" hostile -c 127.0.0.3 check

# ---------------------------------------------------------------------------
# 1. 10,000 idle TCP connections

N=10000
if run_check "idle flood: $N connections" hostile -N $N -k $KEEP -d 3 idle-flood; then
	expect pre_ok -eq 1 "idle flood: normal client before"
	expect opened -eq $N "idle flood: all $N connections were accepted"
	expect_normal "idle flood"
	# the daemon keeps at most 1024 and closes the oldest (idle) ones
	expect still_open -le $KEEP "idle flood: at most $KEEP connections kept"
	expect closed_oldest -eq "$(v oldest)" "idle flood: the oldest connections were closed"
	expect open_newest -eq "$(v newest)" "idle flood: the newest connections were kept"
	# descriptors: 1024 connections on top of what the daemon had before
	# (listeners, the inode cache); not one per connection ever made
	expect fds_max -le $(($(v fds_before) + KEEP + 32)) "idle flood: the daemon's descriptors stay bounded"
	expect alive -eq 1 "idle flood: daemon alive during"
	expect post_ok -eq 1 "idle flood: normal client over TCP after"
	expect post_udp_ok -eq 1 "idle flood: normal client over UDP after"
	say "idle flood: $(v opened) connections in $(v open_secs) s from $(v processes) process(es)," \
		"daemon closed $(v closed_by_server), kept $(v still_open);" \
		"daemon fds before $(v fds_before), max $(v fds_max), after $(v fds_after);" \
		"normal client: $(v normal_calls) calls, p99 $(v normal_p99_ms) ms, max $(v normal_max_ms) ms," \
		"$(v normal_reconnects) reconnects"
fi
check_daemon_alive "the idle flood" || fail "daemon died"

# ---------------------------------------------------------------------------
# 2. a client that never reads its replies

# Per connection the daemon stops reading at 64 requests in flight or 8 MiB
# of unsent replies, so with 1 MiB READs it may hold 64 + 8 MiB of them
# (plus allocator slack), however many calls the client sends.
RSS_BOUND=$((96 * 1024))
[ -z "$ASAN" ] || RSS_BOUND=$((RSS_BOUND * 2))	# redzones and shadow memory
if run_check "slow reader: 1 MiB READs, replies never read" hostile -N 1 -d 5 slow-reader; then
	expect slow_calls_sent -ge 1000 "slow reader: the client sent far more than the daemon may hold"
	expect rss_growth_kb -lt $RSS_BOUND "slow reader: the daemon's VmRSS stays bounded"
	expect_normal "slow reader"
	expect alive -eq 1 "slow reader: daemon alive during"
	expect post_ok -eq 1 "slow reader: normal client after"
	say "slow reader: $(v slow_calls_sent) READs of 1 MiB sent," \
		"VmRSS $(v rss_base_kb) kB -> max $(v rss_max_kb) kB (+$(v rss_growth_kb) kB, bound $RSS_BOUND)," \
		"$(v rss_after_close_kb) kB after it hung up;" \
		"normal client p99 $(v normal_p99_ms) ms, max $(v normal_max_ms) ms"
fi
check_daemon_alive "the slow reader" || fail "daemon died"

# ---------------------------------------------------------------------------
# 3. garbage at >= 10,000 messages/s

if run_check "garbage over UDP and TCP" hostile -d 5 -r 20000 garbage; then
	expect garbage_rate -ge 10000 "garbage: sent at >= 10,000 messages/s"
	expect_normal "garbage"
	expect alive -eq 1 "garbage: daemon alive during"
	expect post_ok -eq 1 "garbage: normal client over TCP after"
	expect post_udp_ok -eq 1 "garbage: normal client over UDP after"
	say "garbage: $(v garbage_msgs) messages in $(v garbage_secs) s = $(v garbage_rate)/s" \
		"($(v udp_msgs) UDP, $(v tcp_msgs) TCP on $(v tcp_connections) connections);" \
		"normal client: $(v normal_sessions) verified reads, p99 $(v normal_p99_ms) ms, max $(v normal_max_ms) ms"
fi
check_daemon_alive "the garbage" || fail "daemon died"

# ---------------------------------------------------------------------------
# 4. record marking

if run_check "record-marking edge cases" hostile recmark; then
	expect_re empty_records 'answered|closed' "10,000 empty records, then a call: answered or closed"
	expect_re empty_fragments 'answered|closed' "2,000 empty fragments, then a call: answered or closed"
	expect_re empty_between_calls 'answered|closed' "empty records between two calls"
	expect huge_closed -eq "$(v huge_fragments)" "fragments announcing more than the largest record: closed"
	expect huge_rss_growth_kb -lt $((16 * 1024)) "...without allocating what they announce"
	expect_re tiny_fragments answered "a call in 1-byte fragments is answered correctly"
	expect_re tiny_fragments_trickled answered "a call in 1-byte fragments, headers split across writes"
	expect_re read_in_4byte_fragments answered "a READ in 4-byte fragments returns the file's data"
	expect_re too_many_fragments 'answered|closed' "a record in 2,100 fragments: answered or closed"
	expect alive -eq 1 "record marking: daemon alive"
	expect post_ok -eq 1 "record marking: normal client after"
	say "record marking: empty records: $(v empty_records), empty fragments: $(v empty_fragments)," \
		"huge fragments closed: $(v huge_closed)/$(v huge_fragments), tiny fragments: $(v tiny_fragments)," \
		"2,100 fragments: $(v too_many_fragments)"
fi
check_daemon_alive "the record-marking cases" || fail "daemon died"

# ---------------------------------------------------------------------------
# 5. fairness between client addresses

if run_check "fairness: 127.0.0.2 floods, 127.0.0.3 calls" \
	hostile -s 127.0.0.2 -c 127.0.0.3 -N 32 -d 5 fairness; then
	expect flood_max_inflight -ge 2000 "fairness: thousands of calls in flight from 127.0.0.2"
	expect flood_replies -ge 1000 "fairness: the flood was being served"
	expect victim_calls -ge 100 "fairness: 127.0.0.3 kept calling"
	expect victim_fail -eq 0 "fairness: every call of 127.0.0.3 answered"
	expect victim_bad -eq 0 "fairness: every answer to 127.0.0.3 correct"
	expect victim_p99_ms -lt 500 "fairness: p99 latency of 127.0.0.3 under 500 ms"
	expect alive -eq 1 "fairness: daemon alive during"
	expect post_ok -eq 1 "fairness: normal client after"
	say "fairness: 127.0.0.3 GETATTR/READ latency p50 $(v victim_p50_us) us, p99 $(v victim_p99_us) us," \
		"max $(v victim_max_ms) ms over $(v victim_calls) calls (alone: p50 $(v solo_p50_us) us," \
		"p99 $(v solo_p99_us) us); 127.0.0.2: $(v flood_max_inflight) in flight, $(v flood_replies) replies," \
		"$(v flood_closes) connections closed by the daemon, $(v flood_udp_sent) UDP calls sent"
fi
check_daemon_alive "the fairness flood" || fail "daemon died"

run_check "a normal client at the end" hostile check
stop_daemon
ok "clean exit after the attacks"

# ---------------------------------------------------------------------------
# 6. idle connections against a daemon that runs out of descriptors first

if command -v prlimit >/dev/null 2>&1; then
	USERNFSD_WRAPPER="prlimit --nofile=256:256"	# prlimit execs: same pid
	start_daemon "$EXPORT 127.0.0.1($opts) 127.0.0.2($opts) 127.0.0.3($opts)" --no-rpcbind
	USERNFSD_WRAPPER=
	PID=$DAEMON_PID
	# half the descriptors may go to connections: 128 - 64 in reserve
	if run_check "idle flood at 256 descriptors: 1000 connections" hostile -N 1000 -k 60 -d 1 idle-flood; then
		expect opened -eq 1000 "fd limit: all connections were accepted"
		expect_normal "fd limit"
		expect still_open -le 64 "fd limit: at most 64 connections kept"
		expect still_open -ge 40 "fd limit: ...and not many fewer (no mass closing)"
		expect open_newest -eq "$(v newest)" "fd limit: the newest connections were kept"
		expect closed_oldest -eq "$(v oldest)" "fd limit: the oldest connections were closed"
		expect fds_max -le 128 "fd limit: connections leave half the descriptors for files"
		expect post_ok -eq 1 "fd limit: normal client after"
		say "fd limit 256: daemon kept $(v still_open) of $(v opened) connections, fds max $(v fds_max);" \
			"normal client max $(v normal_max_ms) ms, $(v normal_reconnects) reconnects"
	fi
	check_daemon_alive "the idle flood at the descriptor limit" || fail "daemon died"
	stop_daemon
	ok "clean exit after the idle flood at the descriptor limit"
else
	say "no prlimit: the flood at a descriptor limit is left out"
fi
say "took $(($(date +%s) - T0)) s"
finish
