#!/bin/bash
# integ_heads_grace.sh - locks across two heads over one export, and the
# shared grace record (--grace-dir, issue 16), from tests/nlmprobe:
#   - a lock taken through head A conflicts with the same range through
#     head B (they are kernel locks on the one file system), both ways
#   - head A starts with a server identity (its state directory) whose
#     clients held locks: it writes its record in the grace directory,
#     grants the reclaim; head B, not in grace itself, refuses new LOCKs
#     and TESTs with DENIED_GRACE_PERIOD meanwhile, yet UNLOCKs
#   - when A's grace period ends its record goes, and B grants again
#   - a head SIGKILLed in its grace period leaves its record, which holds
#     B back until the second it names, and no longer
#   - a record that appears or goes is seen by B on its very next call
. "$(dirname "$0")/lib.sh"

NLMPROBE=${NLMPROBE:-$top_builddir/tests/nlmprobe}
[ -x "$NLMPROBE" ] || skip "nlmprobe not built ($NLMPROBE): run make check"
setup

EXPORT=$WORKDIR/export
KEY=$WORKDIR/shared-key
GRACE_DIR=$WORKDIR/shared/grace
ID_A=$WORKDIR/shared/ids/vip-a
mkdir -p "$EXPORT" "$ID_A"
: >"$EXPORT/locked"
(umask 077 && head -c 16 /dev/urandom >"$KEY")
LINE="$EXPORT 127.0.0.1(rw,no_root_squash,insecure)"
GRANTED=0 DENIED=1 GRACE=4

# nlm_a / nlm_b [NLMPROBE OPTIONS] CMD ARGS: NLM v4 over TCP to that head
nlm_at() {
	probe_argv "$NLMPROBE" PR vniokstaSug 127.0.0.1 "$1" tcp "${@:2}"
	"${PROBE_ARGV[@]}"
}
nlm_a() { nlm_at "$NFS_PORT" "$@"; }
nlm_b() { nlm_at "$B_NFS_PORT" "$@"; }
expect_stat() {   # expect_stat DESC WANT CMD...
	local desc=$1 want=$2
	shift 2
	OUT=$("$@" 2>&1)
	if [ "$(field rpc "$OUT")" = SUCCESS ] && [ "$(field stat "$OUT")" = "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc: expected stat=$want" "command: $*
$OUT"
	fi
}

# The identity A takes over: its last run had a client holding locks.
echo "10.250.0.9 127.0.0.1 ghost" >"$ID_A/nlm-clients"
STATE_DIR=$ID_A
printf "%s\n" "$LINE" >"$EXPORTS_FILE"
start_head_b --handle-key "$KEY" --grace-dir "$GRACE_DIR"
# Ten seconds: room for the checks below on a slow machine (sanitizers).
T_A=$(date +%s)
start_daemon "$LINE" --no-rpcbind --handle-key "$KEY" --grace-dir "$GRACE_DIR" --grace 10
T_READY=$(date +%s)
ROOT=$(mnt_fh tcp "$EXPORT")
FH=$(fh_of tcp "$ROOT" locked)
[ -n "$FH" ] || fail "no handle for the locked file"

# ---- A is in grace; so is the cluster ----
[ -f "$GRACE_DIR/vip-a" ] && ok "A wrote its grace record, named after its identity" ||
	not_ok "A wrote its grace record, named after its identity" "$(ls -la "$GRACE_DIR" 2>&1)"
END=$(cat "$GRACE_DIR/vip-a" 2>/dev/null)
[ -n "$END" ] && [ "$END" -ge $((T_A + 10)) ] && [ "$END" -le $((T_READY + 10)) ] &&
	ok "the record names the end of A's grace period" ||
	not_ok "the record names the end of A's grace period" "record: '$END', A started from $T_A to $T_READY"
[ -z "$(ls "$GRACE_DIR"/vip-a.* 2>/dev/null)" ] && [ ! -e "$GRACE_DIR/state-b" ] &&
	ok "B, not in grace, wrote no record" || not_ok "B, not in grace, wrote no record" "$(ls -la "$GRACE_DIR")"
# NFSv4 is served by the heads too: one server scope (the shared key),
# an owner per identity, so a client takes them for two servers (no
# trunking) whose handles mean the same, and reclaims on the head that
# takes an identity over.
NFS4PROBE=${NFS4PROBE:-$top_builddir/tests/nfs4probe}
if [ -x "$NFS4PROBE" ]; then
	SC_A=$(field server_scope "$("$NFS4PROBE" 127.0.0.1 "$NFS_PORT" tcp exchange_id heads-a 2>&1)")
	OUT=$("$NFS4PROBE" 127.0.0.1 "$B_NFS_PORT" tcp exchange_id heads-b 2>&1)
	SC_B=$(field server_scope "$OUT") MJ_B=$(field server_major "$OUT")
	MJ_A=$(field server_major "$("$NFS4PROBE" 127.0.0.1 "$NFS_PORT" tcp exchange_id heads-a 2>&1)")
	[ -n "$SC_A" ] && [ "$SC_A" = "$SC_B" ] && ok "NFSv4 by default on both heads, with one server scope" ||
		not_ok "both heads' NFSv4 server scope: A '$SC_A', B '$SC_B'" "$OUT"
	[ "$MJ_A" = "vip-a@$SC_A" ] && [ "$MJ_B" = "state-b@$SC_B" ] &&
		ok "each identity its own server owner" || not_ok "server owners: A '$MJ_A', B '$MJ_B'"
fi
expect_stat "A's client reclaims its lock through A" $GRANTED \
	nlm_a -n client1 -i 11 lock "$FH" 0 100 reclaim
expect_stat "B refuses a new LOCK while A is in grace" $GRACE nlm_b -n client2 -i 21 lock "$FH" 200 10
expect_stat "B refuses TEST while A is in grace" $GRACE nlm_b -n client2 -i 21 test "$FH" 0 10
expect_stat "B still answers UNLOCK while A is in grace" $GRANTED nlm_b -n client2 -i 21 unlock "$FH" 300 10

# ---- A's grace period ends: the cluster's too ----
for i in $(seq 150); do [ -e "$GRACE_DIR/vip-a" ] || break; sleep 0.1; done
[ ! -e "$GRACE_DIR/vip-a" ] && ok "A removed its record when its grace period ended" ||
	not_ok "A removed its record when its grace period ended" "now $(date +%s), record $(cat "$GRACE_DIR/vip-a")"
expect_stat "B grants a new LOCK after A's grace period" $GRANTED nlm_b -n client2 -i 21 lock "$FH" 200 10
expect_stat "the lock reclaimed through A blocks the range through B" $DENIED \
	nlm_b -n client2 -i 21 lock "$FH" 50 10
expect_stat "the lock taken through B blocks the range through A" $DENIED \
	nlm_a -n client1 -i 12 lock "$FH" 205 1
expect_stat "UNLOCK through A" $GRANTED nlm_a -n client1 -i 11 unlock "$FH" 0 100
expect_stat "then B gets that range" $GRANTED nlm_b -n client2 -i 21 lock "$FH" 50 10
expect_stat "UNLOCK through B" $GRANTED nlm_b -n client2 -i 21 unlock "$FH" 0 0

# ---- a head killed in its grace period: its record ends by itself ----
stop_daemon
echo "10.250.0.9 127.0.0.1 ghost" >"$ID_A/nlm-clients"
start_daemon "$LINE" --no-rpcbind --handle-key "$KEY" --grace-dir "$GRACE_DIR" --grace 5
END=$(cat "$GRACE_DIR/vip-a")
stop_bg "$DAEMON_PID" KILL
DAEMON_PID=
sleep 1.1
expect_stat "A SIGKILLed in grace: B still refuses new locks" $GRACE nlm_b -n client2 -i 22 lock "$FH" 0 10
while [ "$(date +%s)" -le "$END" ]; do sleep 0.2; done
sleep 1.1
expect_stat "... until the second its record names" $GRANTED nlm_b -n client2 -i 22 lock "$FH" 0 10
# ---- a record that appears is seen at once, not a second later ----
expect_stat "B grants before any record appears" $GRANTED nlm_b -n client2 -i 23 test "$FH" 500 10
echo $(($(date +%s) + 30)) >"$GRACE_DIR/.vip-x.tmp" && mv "$GRACE_DIR/.vip-x.tmp" "$GRACE_DIR/vip-x"
expect_stat "a record renamed in: B refuses the very next TEST" $GRACE nlm_b -n client2 -i 23 test "$FH" 500 10
rm -f "$GRACE_DIR/vip-x"
expect_stat "the record removed: B grants the very next TEST" $GRANTED nlm_b -n client2 -i 23 test "$FH" 500 10
# ---- the records are read as the daemon, whoever the caller is ----
# The grace directory is 0700 and the daemon's: a lock call from a client
# that is not root (the kernel's lockd sends the locking process's uid)
# must still read it, right after a change and later alike.
echo $(($(date +%s) + 30)) >"$GRACE_DIR/.vip-y.tmp" && mv "$GRACE_DIR/.vip-y.tmp" "$GRACE_DIR/vip-y"
expect_stat "a record renamed in: B refuses a TEST from uid 1000" $GRACE \
	nlm_b -u 1000 -g 1000 -n client3 -i 31 test "$FH" 600 10
rm -f "$GRACE_DIR/vip-y"
for i in 1 2 3; do
	expect_stat "the record removed: B grants TEST $i from uid 1000" $GRANTED \
		nlm_b -u 1000 -g 1000 -n client3 -i 31 test "$FH" 600 10
done
sleep 2.1
expect_stat "two seconds on: B still grants a LOCK from uid 1000" $GRANTED \
	nlm_b -u 1000 -g 1000 -n client3 -i 31 lock "$FH" 600 10
expect_stat "... and its UNLOCK" $GRANTED nlm_b -u 1000 -g 1000 -n client3 -i 31 unlock "$FH" 600 10

# ---- NFSv4: once every v4 client of the last run reclaimed, A's grace
# period ends early, and so does its record (B grants again at once) ----
if [ -x "$NFS4PROBE" ]; then
	stop_daemon
	: >"$ID_A/nlm-clients"
	start_daemon "$LINE" --no-rpcbind --handle-key "$KEY" --grace-dir "$GRACE_DIR" --grace 60
	OUT=$("$NFS4PROBE" 127.0.0.1 "$NFS_PORT" tcp exchange_id heads-v4-client ++ create_session 2>&1)
	case $OUT in *OP_CREATE_SESSION:NFS4_OK*) ok "a v4 client makes a session through A" ;;
	*) not_ok "a v4 client's session through A" "$OUT" ;; esac
	stop_bg "$DAEMON_PID" KILL
	DAEMON_PID=
	: >"$ID_A/nlm-clients"
	start_daemon "$LINE" --no-rpcbind --handle-key "$KEY" --grace-dir "$GRACE_DIR" --grace 60
	[ -f "$GRACE_DIR/vip-a" ] && ok "A, restarted with a v4 client on record, is in grace" ||
		not_ok "no grace record after a restart with a v4 client on record" "$(ls -la "$GRACE_DIR")"
	expect_stat "B refuses a new LOCK meanwhile" $GRACE nlm_b -n client4 -i 41 lock "$FH" 700 10
	OUT=$("$NFS4PROBE" 127.0.0.1 "$NFS_PORT" tcp exchange_id heads-v4-client ++ create_session \
		++ sequence 0 next RECLAIM_COMPLETE 2>&1)
	case $OUT in *OP_RECLAIM_COMPLETE:NFS4_OK*) ok "the v4 client comes back and says RECLAIM_COMPLETE" ;;
	*) not_ok "the v4 client's RECLAIM_COMPLETE through A" "$OUT" ;; esac
	for i in $(seq 50); do [ -e "$GRACE_DIR/vip-a" ] || break; sleep 0.1; done
	[ ! -e "$GRACE_DIR/vip-a" ] && ok "A's record went when its grace period ended early, not after 60 s" ||
		not_ok "A's record still there 5 s after its only v4 client reclaimed" "$(daemon_log_tail 10)"
	expect_stat "B grants a new LOCK at once" $GRANTED nlm_b -n client4 -i 41 lock "$FH" 700 10
	expect_stat "... and its UNLOCK" $GRANTED nlm_b -n client4 -i 41 unlock "$FH" 700 10
fi
kill -0 "$B_PID" && ok "head B alive" || not_ok "head B alive"
finish
