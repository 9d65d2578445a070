#!/bin/bash
# integ_transport.sh - the transport's answers to bad calls, and the global
# reply-memory budget (issue 14), with tests/transport_probe.py as the
# raw client.
#
# 1. Calls that used to go unanswered: a credential longer than RFC 5531's
#    400 bytes (440, and a length of 0x7fffffff with no body) is answered
#    AUTH_BADCRED within 100 ms over UDP and TCP (v4 and v6); a call cut
#    short after three words closes its TCP connection at once, and over
#    UDP is dropped and counted (rejected_undecodable).
# 2. --reply-memory 64: 200 TCP connections pipeline 1 MiB READs and never
#    read a reply; the daemon's VmRSS stays under its idle RSS plus the
#    budget and its eighth plus SLACK_MIB (worker buffers, calls held
#    unread, malloc's rounding), while nfs-cat reads a 16 MiB file whole
#    and correct, the reply_memory gauge never passes the budget and its
#    eighth by more than a reply per worker thread, and the budget's
#    pauses are counted.
. "$(dirname "$0")/lib.sh"

need_cmd python3 jq libnfs-utils
setup
[ -x "$USERNFSCTL" ] || skip "usernfsctl not built: $USERNFSCTL"

PROBE_PY=$TESTS_SRCDIR/transport_probe.py
EXPORT=$WORKDIR/export
T=$WORKDIR/t
BUDGET_MIB=64
SLACK_MIB=32
mkdir -p "$EXPORT" "$T"
truncate -s 64M "$EXPORT/big"
head -c 16M /dev/urandom >"$EXPORT/real"

# AddressSanitizer's quarantine (256 MiB by default) would hide or fake growth
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"
start_daemon "$EXPORT 127.0.0.1(rw,insecure,no_root_squash) ::1(rw,insecure,no_root_squash)" \
	--no-rpcbind --reply-memory $BUDGET_MIB

ctl() { "$USERNFSCTL" -s "$CTL_SOCK" "$@"; }
counter() { ctl stats --json | jq -r ".counters.$1"; }
# tp PROTO MODE ARGS...: transport_probe.py against our NFS port, over PROTO
tp() { timeout 60 python3 "$PROBE_PY" "$(_host_for "$1")" "$NFS_PORT" "$2" "${1%6}" "${@:3}"; }
ms_under() {   # ms_under DESC LIMIT: the last answer came within LIMIT ms
	local ms
	ms=$(field ms "$OUT")
	[ -n "$ms" ] && [ "$ms" -lt "$2" ] && ok "$1 within $2 ms ($ms)" ||
		not_ok "$1 took ${ms:-?} ms (limit $2)" "$OUT"
}

# ---- 1. bad calls

PROTOS="udp tcp"
if has_ipv6_lo; then PROTOS="$PROTOS udp6 tcp6"; fi
for proto in $PROTOS; do
	run_expect "a 440-byte credential is AUTH_BADCRED over $proto" '^ms=[0-9]+ rpc=AUTH_BADCRED$' \
		tp $proto badcred 440 && ms_under "AUTH_BADCRED for 440 bytes over $proto" 100
	case $proto in
	udp*) re='^ms=[0-9]+ rpc=AUTH_BADCRED$' ;;
	*) re='^ms=[0-9]+ (rpc=AUTH_BADCRED|closed)$' ;;
	esac
	run_expect "a credential length of 0x7fffffff is answered over $proto" "$re" \
		tp $proto badcred 0x7fffffff 0 && ms_under "the answer to 0x7fffffff over $proto" 100
	run_expect "a credential of 401 bytes, 4 sent, is AUTH_BADCRED over $proto" \
		'^ms=[0-9]+ rpc=AUTH_BADCRED$' tp $proto badcred 401 4
done
run_expect "a call cut after three words closes its TCP connection" '^ms=[0-9]+ closed$' \
	tp tcp short && ms_under "the close" 100
before=$(counter rejected_undecodable)
run_expect "a call cut after three words over UDP gets no answer" '^timeout$' tp udp short
after=$(counter rejected_undecodable)
[ "$after" -gt "$before" ] && ok "the short datagram is counted ($before -> $after)" ||
	not_ok "rejected_undecodable did not move for a short datagram ($before -> $after)"
run_check "NULL still answered after the bad calls" nfs_probe tcp null $NFS_PROG 3
check_daemon_alive "the bad calls"

# ---- 2. the global reply budget

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$(_daemon_real_pid)/status"; }
ROOT=$(mnt_fh tcp "$EXPORT")
[ -n "$ROOT" ] || fail "MNT $EXPORT failed: $(mnt_probe tcp mnt "$EXPORT" 2>&1)"
BIG=$(fh_of tcp "$ROOT" big)
[ -n "$BIG" ] || fail "LOOKUP big failed"
want=$(sha256sum <"$EXPORT/real" | cut -d' ' -f1)
timeout 60 nfs-cat "$(nfsurl real)" >"$T/warm" 2>"$T/err" ||
	fail "nfs-cat before the flood failed: $(cat "$T/err")"
base=$(rss_kib)
limit=$((base + (BUDGET_MIB + BUDGET_MIB / 8 + SLACK_MIB) * 1024))
# redzones and shadow memory
if grep -q libasan "/proc/$(_daemon_real_pid)/maps" 2>/dev/null ||
	nm -D "$USERNFSD" 2>/dev/null | grep -q ' __asan_init$'; then
	limit=$((base + (limit - base) * 2))
fi

timeout 90 python3 "$PROBE_PY" 127.0.0.1 "$NFS_PORT" flood 200 80 "$BIG" 25 >"$T/flood" 2>&1 &
FLOOD=$!
at_exit "kill $FLOOD 2>/dev/null"
# sample the daemon's RSS until the flood ends, reading normally meanwhile
max=$base
gmax=0
reads=0 good=0
for i in $(seq 300); do
	r=$(rss_kib); [ "${r:-0}" -gt "$max" ] && max=$r
	g=$(ctl stats --json | jq -r .gauges.reply_memory)
	[ "${g:-0}" -gt "$gmax" ] && gmax=$g
	# three reads, some 5 s apart, while the connections hold their replies
	if grep -q connected "$T/flood" && [ $reads -lt 3 ] && [ $((i % 25)) = 0 ]; then
		reads=$((reads + 1))
		t0=$(now_ms)
		timeout 60 nfs-cat "$(nfsurl real)" >"$T/out" 2>"$T/err"
		rc=$?
		got=$(sha256sum <"$T/out" | cut -d' ' -f1)
		if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
			good=$((good + 1))
			ok "nfs-cat during the flood: 16 MiB correct in $(($(now_ms) - t0)) ms"
		else
			not_ok "nfs-cat during the flood: exit $rc, $(stat -c %s "$T/out") bytes" "$(cat "$T/err")"
		fi
		r=$(rss_kib); [ "${r:-0}" -gt "$max" ] && max=$r
	fi
	kill -0 $FLOOD 2>/dev/null || break
	sleep 0.2
done
wait $FLOOD
grep -q '^connected=200 sent=16000$' "$T/flood" && ok "flood: $(cat "$T/flood")" ||
	not_ok "the flood did not connect and send as asked" "$(cat "$T/flood")"
[ $good -ge 1 ] || not_ok "no nfs-cat ran during the flood"
echo "# VmRSS: idle $((base / 1024)) MiB, peak $((max / 1024)) MiB, limit $((limit / 1024)) MiB"
if [ -n "${USERNFSD_WRAPPER:-}" ]; then
	echo "# the resident size is not checked under $USERNFSD_WRAPPER"
elif [ "$max" -le "$limit" ]; then
	ok "peak VmRSS $((max / 1024)) MiB within $((limit / 1024)) MiB (idle $((base / 1024)) + budget $BUDGET_MIB + 1/8 + $SLACK_MIB)"
else
	not_ok "peak VmRSS $((max / 1024)) MiB over $((limit / 1024)) MiB (idle $((base / 1024)))"
fi
# the budget's own count: the budget and its eighth, and at most one reply
# (1 MiB) per worker thread beyond: calls that pass the test at the same
# moment, a queued reply still counted as its running call's reservation
glimit=$(((BUDGET_MIB + BUDGET_MIB / 8 + 16) << 20))
echo "# reply_memory gauge: peak $((gmax >> 20)) MiB"
[ "$gmax" -gt 0 ] && [ "$gmax" -le "$glimit" ] &&
	ok "reply_memory peaked at $((gmax >> 20)) MiB, within $((glimit >> 20)) MiB" ||
	not_ok "reply_memory peaked at $gmax bytes (limit $glimit)"
pauses=$(counter tcp_budget_pauses)
drops=$(counter tcp_budget_drops)
echo "# tcp_budget_pauses=$pauses tcp_budget_drops=$drops"
[ "$pauses" -gt 0 ] && ok "budget pauses counted ($pauses)" || not_ok "no budget pause counted"
check_daemon_alive "the flood"
timeout 60 nfs-cat "$(nfsurl real)" >"$T/out" 2>"$T/err" &&
	[ "$(sha256sum <"$T/out" | cut -d' ' -f1)" = "$want" ] && ok "nfs-cat after the flood" ||
	not_ok "nfs-cat after the flood" "$(cat "$T/err")"
stop_daemon
finish
