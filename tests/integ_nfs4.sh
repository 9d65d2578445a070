#!/bin/bash
# integ_nfs4.sh - NFSv4.1/4.2 (RFC 8881, RFC 7862) against tests/nfs4probe,
# a client built on the XDR rpcgen generates from src/rpc/nfs4_prot.x:
#   - --nfs-versions: 3 serves no v4; 4.1 alone refuses minor version 2;
#     5 and 4.0 stop the daemon with a message; v4 is TCP only (rpcbind
#     has no udp entry, a v4 call over UDP is PROG_MISMATCH 3..3);
#   - the COMPOUND rules (RFC 8881 2.10.6, 16.2.3, 18): OP_NOT_IN_SESSION,
#     NOT_ONLY_OP, SEQUENCE_POS, MINOR_VERS_MISMATCH with no results,
#     OP_ILLEGAL, TOO_MANY_OPS, BADXDR, 4.0-only and 4.2 operations;
#   - EXCHANGE_ID's cases (18.35.5), CREATE_SESSION's replay cache and
#     clamped channel (18.36), SEQUENCE's slots and reply cache (2.10.6.1,
#     18.46), DESTROY_SESSION, DESTROY_CLIENTID, RECLAIM_COMPLETE and
#     BIND_CONN_TO_SESSION;
#   - thousands of EXCHANGE_IDs and CREATE_SESSIONs: the tables stay
#     bounded and the daemon alive; the nfs4ops statistics count them.
. "$(dirname "$0")/lib.sh"

NFS4PROBE=${NFS4PROBE:-$top_builddir/tests/nfs4probe}
[ -x "$NFS4PROBE" ] || skip "nfs4probe not built ($NFS4PROBE): run make check"
need_cmd rpcinfo jq timeout
setup
start_rpcbind

EXPORT=$WORKDIR/export
mkdir -p "$EXPORT"
EXPORTS="$EXPORT 127.0.0.1(rw,insecure,no_root_squash)"

# v4 PROTO [OPTIONS] COMMAND ARGS... [++ COMMAND ARGS...]: nfs4probe at the NFS port
v4() {
	probe_argv "$NFS4PROBE" P augtSmT - "$NFS_PORT" "$@"
	"${PROBE_ARGV[@]}"
}
# run4 [OPTIONS] COMMANDS...: v4 over TCP, its output in $OUT (steps: stepout)
run4() {
	OUT=$(v4 tcp "$@" 2>&1)
	RC=$?
	LAST_CMD="nfs4probe $*"
}
# stepout N: what step N of the last run4 printed (all of it without steps)
stepout() {
	if printf '%s\n' "$OUT" | grep -q '^step='; then
		printf '%s\n' "$OUT" | awk -v n="$1" '/^step=/ { s = ($1 == "step=" n); next } s'
	else
		printf '%s\n' "$OUT"
	fi
}
# sfield N KEY: KEY's value in step N
sfield() {
	field "$2" "$(stepout "$1")"
}
# step_expect DESC N ERE: one check, passed when step N's output matches ERE
step_expect() {
	local s
	s=$(stepout "$2")
	if printf '%s\n' "$s" | grep -Eq -- "$3"; then
		ok "$1"
	else
		not_ok "$1" "command: $LAST_CMD
step $2 should match: $3
${s:-(step $2 printed nothing; exit status $RC)}"
	fi
}
# expect4 DESC ERE [OPTIONS] COMMAND ARGS...: one call, its output matching ERE
expect4() {
	local desc=$1 ere=$2
	shift 2
	run_expect "$desc" "$ere" v4 tcp "$@"
}
# registered PROG VERS NETID: rpcbind lists it on our NFS port
registered() {
	rpcinfo -p 127.0.0.1 2>/dev/null |
		awk -v p="$1" -v v="$2" -v t="$3" -v port="$NFS_PORT" \
		'$1 == p && $2 == v && $3 == t && $4 == port { f = 1 } END { exit !f }'
}
# expect_reg DESC yes|no PROG VERS NETID: one check of rpcbind's table
expect_reg() {
	local got=no
	if registered "$3" "$4" "$5"; then got=yes; fi
	expect_eq "$1" "$got" "$2" "$(rpcinfo -p 127.0.0.1 2>&1)"
}
rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$(_daemon_real_pid)/status"
}
ZERO_SESSION=00000000000000000000000000000000
# The status of an operation the check does not look at (PUTROOTFH: served or not yet).
ANY='[A-Z0-9_]+'

# ---------------------------------------------------------------------------
# 1. --nfs-versions

# A list naming no version served stops the daemon before it serves.
for bad in 5 4.0 3,5; do
	out=$(timeout 10 "$USERNFSD" --exports "$EXPORTS_FILE" --foreground --no-rpcbind \
		--nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT" --state-dir "$WORKDIR/bad" \
		--nfs-versions "$bad" </dev/null 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && printf '%s\n' "$out" | grep -q -- "--nfs-versions: '${bad##*,}' is not a version served"; then
		ok "--nfs-versions $bad is refused"
	else
		not_ok "--nfs-versions $bad: exit status $rc (want 2 and a message)" "$out"
	fi
done

start_daemon "$EXPORTS" --nfs-versions 3
expect_reg "--nfs-versions 3 registers no NFS v4 on tcp" no "$NFS_PROG" 4 tcp
expect_reg "--nfs-versions 3 registers no NFS v4 on udp" no "$NFS_PROG" 4 udp
expect4 "--nfs-versions 3: a v4 NULL is PROG_MISMATCH 3..3" '^rpc=PROG_MISMATCH low=3 high=3$' null
expect4 "--nfs-versions 3: a v4 COMPOUND is PROG_MISMATCH 3..3" '^rpc=PROG_MISMATCH low=3 high=3$' \
	compound 1
stop_daemon

start_daemon "$EXPORTS" --nfs-versions 4.1
expect_reg "--nfs-versions 4.1 registers NFS v4 on tcp" yes "$NFS_PROG" 4 tcp
expect_reg "--nfs-versions 4.1 registers no NFS v3" no "$NFS_PROG" 3 tcp
expect4 "--nfs-versions 4.1: minor version 1 is served" \
	'status=NFS4_OK nres=1 op0=OP_EXCHANGE_ID:NFS4_OK' exchange_id integ-minor1
expect4 "--nfs-versions 4.1: minor version 2 is MINOR_VERS_MISMATCH, no results" \
	'status=NFS4ERR_MINOR_VERS_MISMATCH nres=0 ' -m 2 exchange_id integ-minor2
expect4 "--nfs-versions 4.1: an empty compound of minor version 2 too" \
	'status=NFS4ERR_MINOR_VERS_MISMATCH nres=0 ' compound 2
# No version of NFS over UDP at all: the program is not there (RFC 5531).
run_expect "--nfs-versions 4.1: any NFS call over UDP is PROG_UNAVAIL" '^rpc=PROG_UNAVAIL' \
	v4 udp null
stop_daemon

start_daemon "$EXPORTS" --nfs-versions 3,4.1,4.2

# ---------------------------------------------------------------------------
# 2. transports and rpcbind: v4 over TCP only (RFC 8881 2.9.1)

expect_reg "rpcbind: nfs 4 tcp" yes "$NFS_PROG" 4 tcp
expect_reg "rpcbind: no nfs 4 udp" no "$NFS_PROG" 4 udp
expect_reg "rpcbind: nfs 3 udp still there" yes "$NFS_PROG" 3 udp
expect_reg "rpcbind: nfs 3 tcp still there" yes "$NFS_PROG" 3 tcp
run_expect "rpcinfo -t nfs 4" 'ready and waiting' rpcinfo -t 127.0.0.1 "$NFS_PROG" 4
run_expect "v4 NULL over TCP" '^rpc=SUCCESS$' v4 tcp null
run_expect "v4 NULL over UDP is PROG_MISMATCH 3..3" '^rpc=PROG_MISMATCH low=3 high=3$' v4 udp null
run_expect "v4 COMPOUND over UDP is PROG_MISMATCH 3..3" '^rpc=PROG_MISMATCH low=3 high=3$' \
	v4 udp exchange_id integ-udp
run_expect "v3 NULL over UDP still served" '^rpc=SUCCESS' nfs_probe udp null "$NFS_PROG" 3
if has_ipv6_lo; then
	run_expect "v4 NULL over TCP/IPv6" '^rpc=SUCCESS$' v4 tcp6 null
fi

# ---------------------------------------------------------------------------
# 3. where operations may stand, without a session

run4 compound 1 PUTROOTFH ++ compound 1 RECLAIM_COMPLETE ++ compound 2 GETATTR \
	++ compound 1 EXCHANGE_ID PUTROOTFH ++ compound 1 CREATE_SESSION PUTROOTFH \
	++ compound 1 DESTROY_SESSION PUTROOTFH ++ compound 1 DESTROY_CLIENTID PUTROOTFH \
	++ compound 1 BIND_CONN_TO_SESSION PUTROOTFH ++ compound 1 PUTROOTFH SEQUENCE \
	++ compound 0 PUTROOTFH ++ compound 3 PUTROOTFH ++ compound 1 ++ compound 0 \
	++ compound 1 RENEW ++ compound 1 SETCLIENTID_CONFIRM ++ compound 1 SEEK \
	++ compound 1 GETXATTR ++ compound 2 SEEK
step_expect "PUTROOTFH first is OP_NOT_IN_SESSION" 1 \
	'status=NFS4ERR_OP_NOT_IN_SESSION nres=1 op0=OP_PUTROOTFH:NFS4ERR_OP_NOT_IN_SESSION '
step_expect "RECLAIM_COMPLETE first is OP_NOT_IN_SESSION" 2 \
	'status=NFS4ERR_OP_NOT_IN_SESSION nres=1 op0=OP_RECLAIM_COMPLETE:NFS4ERR_OP_NOT_IN_SESSION '
step_expect "GETATTR first (4.2) is OP_NOT_IN_SESSION" 3 \
	'status=NFS4ERR_OP_NOT_IN_SESSION nres=1 op0=OP_GETATTR:NFS4ERR_OP_NOT_IN_SESSION '
n=4
for op in EXCHANGE_ID CREATE_SESSION DESTROY_SESSION DESTROY_CLIENTID BIND_CONN_TO_SESSION; do
	step_expect "$op without SEQUENCE and not alone is NOT_ONLY_OP" $n \
		"status=NFS4ERR_NOT_ONLY_OP nres=1 op0=OP_$op:NFS4ERR_NOT_ONLY_OP "
	n=$((n + 1))
done
step_expect "SEQUENCE after PUTROOTFH: the first operation's error, nothing more" 9 \
	'status=NFS4ERR_OP_NOT_IN_SESSION nres=1 op0=OP_PUTROOTFH:'
step_expect "minor version 0 is MINOR_VERS_MISMATCH with no results (16.2.3)" 10 \
	'status=NFS4ERR_MINOR_VERS_MISMATCH nres=0 '
step_expect "minor version 3 is MINOR_VERS_MISMATCH with no results" 11 \
	'status=NFS4ERR_MINOR_VERS_MISMATCH nres=0 '
step_expect "a compound of no operations is NFS4_OK, no results" 12 'status=NFS4_OK nres=0 '
step_expect "an empty compound of minor version 0 is MINOR_VERS_MISMATCH" 13 \
	'status=NFS4ERR_MINOR_VERS_MISMATCH nres=0 '
step_expect "RENEW (4.0 only) is NOTSUPP in 4.1" 14 \
	'status=NFS4ERR_NOTSUPP nres=1 op0=OP_RENEW:NFS4ERR_NOTSUPP '
step_expect "SETCLIENTID_CONFIRM (4.0 only) is NOTSUPP in 4.1" 15 \
	'status=NFS4ERR_NOTSUPP nres=1 op0=OP_SETCLIENTID_CONFIRM:NFS4ERR_NOTSUPP '
step_expect "SEEK (4.2) in a 4.1 compound is OP_ILLEGAL" 16 \
	'status=NFS4ERR_OP_ILLEGAL nres=1 op0=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '
step_expect "GETXATTR (RFC 8276) in a 4.1 compound is OP_ILLEGAL" 17 \
	'status=NFS4ERR_OP_ILLEGAL nres=1 op0=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '
step_expect "SEEK first in a 4.2 compound is OP_NOT_IN_SESSION" 18 \
	'status=NFS4ERR_OP_NOT_IN_SESSION nres=1 op0=OP_SEEK:NFS4ERR_OP_NOT_IN_SESSION '

# Malformed compounds, laid out by hand.
run4 illegal_op 76 ++ illegal_op 10044 ++ illegal_op 0 ++ illegal_op 2 \
	++ too_many_ops 257 ++ too_many_ops 5000 ++ too_many_ops 256 \
	++ badxdr truncated ++ badxdr missing ++ illegal_op 69
i=1
for num in 76 10044 0 2; do
	step_expect "unknown operation number $num is OP_ILLEGAL" $i \
		'status=NFS4ERR_OP_ILLEGAL nres=1 op0=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '
	i=$((i + 1))
done
step_expect "257 operations are TOO_MANY_OPS, no results" 5 'status=NFS4ERR_TOO_MANY_OPS nres=0 '
step_expect "5000 operations are TOO_MANY_OPS, no results" 6 'status=NFS4ERR_TOO_MANY_OPS nres=0 '
step_expect "256 operations are decoded: the first is OP_NOT_IN_SESSION" 7 \
	'status=NFS4ERR_OP_NOT_IN_SESSION nres=1 op0=OP_PUTROOTFH:'
step_expect "RECLAIM_COMPLETE cut short is BADXDR at that operation" 8 \
	'status=NFS4ERR_BADXDR nres=1 op0=OP_RECLAIM_COMPLETE:NFS4ERR_BADXDR '
step_expect "an operation missing from the count is BADXDR" 9 'status=NFS4ERR_BADXDR nres=1 '
# RFC 8881 has no operation 69 (SEEK is RFC 7862's): in a minor version 1
# compound it is as illegal as 76, whatever follows it.
step_expect "operation 69 without arguments in a 4.1 compound is OP_ILLEGAL" 10 \
	'status=NFS4ERR_OP_ILLEGAL nres=1 op0=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '
check_daemon_alive "malformed compounds"

# ---------------------------------------------------------------------------
# 4. a client's life on one connection: EXCHANGE_ID, CREATE_SESSION, SEQUENCE...

run4 -T integ_nfs4 exchange_id integ-a ++ exchange_id integ-a ++ create_session 8 16 4096 0 \
	++ create_session 8 16 4096 0 1 ++ create_session 8 16 4096 0 5 ++ exchange_id integ-a \
	++ sequence 0 1 cachethis PUTROOTFH ++ sequence 0 1 cachethis PUTROOTFH \
	++ sequence 0 2 PUTROOTFH ++ sequence 0 2 PUTROOTFH ++ sequence 0 5 ++ sequence 0 1 \
	++ sequence 8 1 ++ sequence 7 1 ++ sequence 1 1 SEQUENCE ++ sequence 1 2 OPEN_CONFIRM \
	++ sequence 1 3 SEEK ++ sequence 1 4 RECLAIM_COMPLETE ++ sequence 1 5 RECLAIM_COMPLETE \
	++ illegal_op 76 1 6 ++ sequence 1 7 ++ badxdr truncated 1 8 ++ sequence 1 9 \
	++ destroy_clientid ++ bind_conn back ++ bind_conn fore ++ bind_conn fore_or_both \
	++ sequence 1 10 DESTROY_SESSION ++ sequence 1 11 ++ destroy_session ++ destroy_clientid \
	++ create_session
A1=$(sfield 1 clientid) A2=$(sfield 2 clientid) A6=$(sfield 6 clientid)
S3=$(sfield 3 sessionid) S4=$(sfield 4 sessionid)
step_expect "EXCHANGE_ID: a new owner, unconfirmed, non-pNFS (18.35.5 case 1)" 1 \
	'status=NFS4_OK nres=1 op0=OP_EXCHANGE_ID:NFS4_OK .*seqid=1 eir_flags=0x00010000 confirmed=0'
step_expect "the tag comes back" 1 '^tag=integ_nfs4 status='
step_expect "EXCHANGE_ID again before CREATE_SESSION: unconfirmed still" 2 \
	'op0=OP_EXCHANGE_ID:NFS4_OK .*confirmed=0'
if [ -n "$A1" ] && [ -n "$A2" ] && [ "$A1" != "$A2" ]; then
	ok "an unconfirmed record is replaced with a new client id (18.35.5 case 4)"
else
	not_ok "EXCHANGE_ID twice, unconfirmed: client ids '$A1' and '$A2', want two" "$OUT"
fi
step_expect "CREATE_SESSION: a session, its sequence, no flags granted" 3 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* sessionid=[0-9a-f]{32} csr_sequence=1 csr_flags=0x0 slots=8 maxops=16 cached=4096 '
step_expect "CREATE_SESSION retried (same csa_sequence): answered from its cache" 4 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* sessionid=[0-9a-f]{32} csr_sequence=1 '
expect_eq "the retried CREATE_SESSION gives the same session (18.36)" "$S4" "$S3"
step_expect "CREATE_SESSION with a csa_sequence neither next nor last: SEQ_MISORDERED" 5 \
	'status=NFS4ERR_SEQ_MISORDERED nres=1 op0=OP_CREATE_SESSION:NFS4ERR_SEQ_MISORDERED '
step_expect "EXCHANGE_ID of the confirmed client: CONFIRMED_R (18.35.5 case 2)" 6 \
	'op0=OP_EXCHANGE_ID:NFS4_OK .*eir_flags=0x80010000 confirmed=1'
expect_eq "EXCHANGE_ID twice with the same owner and verifier: the same client id" "$A6" "$A2"
step_expect "SEQUENCE cachethis + PUTROOTFH: both run, 8 slots" 7 \
	"nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_PUTROOTFH:$ANY .*sr_seqid=1 sr_slot=0 highest_slot=7 target_slot=7 "
expect_eq "a retry of a cachethis compound gets the identical reply (2.10.6.1.3)" \
	"$(sfield 8 reply)" "$(sfield 7 reply)"
step_expect "a compound without cachethis runs" 9 \
	"nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_PUTROOTFH:$ANY .*sr_seqid=2 "
step_expect "its retry: SEQUENCE, then RETRY_UNCACHED_REP (2.10.6.1.3)" 10 \
	'status=NFS4ERR_RETRY_UNCACHED_REP nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_PUTROOTFH:NFS4ERR_RETRY_UNCACHED_REP '
step_expect "a sequence id past the next: SEQ_MISORDERED (2.10.6.1)" 11 \
	'status=NFS4ERR_SEQ_MISORDERED nres=1 op0=OP_SEQUENCE:NFS4ERR_SEQ_MISORDERED '
step_expect "an older sequence id: SEQ_MISORDERED" 12 \
	'status=NFS4ERR_SEQ_MISORDERED nres=1 op0=OP_SEQUENCE:NFS4ERR_SEQ_MISORDERED '
step_expect "slot 8 of 8 slots: BADSLOT" 13 'status=NFS4ERR_BADSLOT nres=1 op0=OP_SEQUENCE:NFS4ERR_BADSLOT '
step_expect "the last slot starts at sequence id 1 of its own" 14 \
	'status=NFS4_OK nres=1 op0=OP_SEQUENCE:NFS4_OK .* sr_seqid=1 sr_slot=7 '
step_expect "SEQUENCE not first: SEQUENCE_POS" 15 \
	'status=NFS4ERR_SEQUENCE_POS nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_SEQUENCE:NFS4ERR_SEQUENCE_POS '
step_expect "OPEN_CONFIRM (4.0 only) after SEQUENCE: NOTSUPP" 16 \
	'status=NFS4ERR_NOTSUPP nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_OPEN_CONFIRM:NFS4ERR_NOTSUPP '
step_expect "SEEK after SEQUENCE in 4.1: OP_ILLEGAL" 17 \
	'status=NFS4ERR_OP_ILLEGAL nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '
step_expect "RECLAIM_COMPLETE" 18 \
	'status=NFS4_OK nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_RECLAIM_COMPLETE:NFS4_OK '
step_expect "RECLAIM_COMPLETE again: COMPLETE_ALREADY (18.51)" 19 \
	'status=NFS4ERR_COMPLETE_ALREADY nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_RECLAIM_COMPLETE:NFS4ERR_COMPLETE_ALREADY '
step_expect "an unknown operation after SEQUENCE: SEQUENCE ran, then OP_ILLEGAL" 20 \
	'encoder=raw'
step_expect "... op0 SEQUENCE, op1 OP_ILLEGAL" 20 \
	'status=NFS4ERR_OP_ILLEGAL nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '
step_expect "the slot took that sequence id: the next one follows" 21 'status=NFS4_OK nres=1 op0=OP_SEQUENCE:NFS4_OK .* sr_seqid=7 sr_slot=1 '
step_expect "arguments cut short after SEQUENCE: BADXDR at that operation" 22 \
	'status=NFS4ERR_BADXDR nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_RECLAIM_COMPLETE:NFS4ERR_BADXDR '
step_expect "the slot took that sequence id too" 23 'status=NFS4_OK nres=1 op0=OP_SEQUENCE:NFS4_OK .* sr_seqid=9 sr_slot=1 '
step_expect "DESTROY_CLIENTID with a session: CLIENTID_BUSY (18.50)" 24 \
	'status=NFS4ERR_CLIENTID_BUSY nres=1 op0=OP_DESTROY_CLIENTID:NFS4ERR_CLIENTID_BUSY '
step_expect "BIND_CONN_TO_SESSION for the back channel only: INVAL (no back channel)" 25 \
	'status=NFS4ERR_INVAL nres=1 op0=OP_BIND_CONN_TO_SESSION:NFS4ERR_INVAL '
step_expect "BIND_CONN_TO_SESSION fore: bound to the fore channel" 26 \
	'status=NFS4_OK nres=1 op0=OP_BIND_CONN_TO_SESSION:NFS4_OK .*bctsr_dir=CDFS4_FORE '
step_expect "BIND_CONN_TO_SESSION fore or both: the fore channel" 27 \
	'status=NFS4_OK nres=1 op0=OP_BIND_CONN_TO_SESSION:NFS4_OK .*bctsr_dir=CDFS4_FORE '
step_expect "DESTROY_SESSION of its own session, last after SEQUENCE (18.37)" 28 \
	'status=NFS4_OK nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_DESTROY_SESSION:NFS4_OK '
step_expect "the destroyed session: BADSESSION" 29 \
	'status=NFS4ERR_BADSESSION nres=1 op0=OP_SEQUENCE:NFS4ERR_BADSESSION '
step_expect "DESTROY_SESSION again: BADSESSION" 30 \
	'status=NFS4ERR_BADSESSION nres=1 op0=OP_DESTROY_SESSION:NFS4ERR_BADSESSION '
step_expect "DESTROY_CLIENTID without sessions: OK" 31 \
	'status=NFS4_OK nres=1 op0=OP_DESTROY_CLIENTID:NFS4_OK '
step_expect "CREATE_SESSION for the destroyed client id: STALE_CLIENTID" 32 \
	'status=NFS4ERR_STALE_CLIENTID nres=1 op0=OP_CREATE_SESSION:NFS4ERR_STALE_CLIENTID '

# ---------------------------------------------------------------------------
# 5. limits, sessions across connections, other principals

run4 exchange_id integ-b ++ create_session 100 100 100000 3 ++ create_session 4 3 \
	++ sequence 0 1 PUTROOTFH PUTROOTFH PUTROOTFH ++ sequence 0 1 PUTROOTFH PUTROOTFH \
	++ too_many_ops 257 0 2 ++ sequence 0 2 ++ sequence 2 1 cachethis PUTROOTFH
SB=$(sfield 3 sessionid) RB=$(sfield 8 reply)
step_expect "CREATE_SESSION clamps the fore channel: 64 slots, 50 operations, 4 KiB cached" 2 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* slots=64 maxops=50 cached=4096 '
step_expect "no PERSIST or CONN_BACK_CHAN granted (no back channel)" 2 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* csr_flags=0x0 '
step_expect "a session of 4 slots, 3 operations" 3 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* csr_sequence=2 csr_flags=0x0 slots=4 maxops=3 '
step_expect "4 operations in a session of 3: TOO_MANY_OPS at SEQUENCE (2.10.6.4)" 4 \
	'status=NFS4ERR_TOO_MANY_OPS nres=1 op0=OP_SEQUENCE:NFS4ERR_TOO_MANY_OPS '
step_expect "3 operations: they run, the refused compound took no sequence id" 5 \
	"op0=OP_SEQUENCE:NFS4_OK op1=OP_PUTROOTFH:$ANY .*sr_seqid=1 "
step_expect "SEQUENCE and 256 more: TOO_MANY_OPS, no results" 6 'status=NFS4ERR_TOO_MANY_OPS nres=0 '
step_expect "... and took no sequence id" 7 'status=NFS4_OK nres=1 op0=OP_SEQUENCE:NFS4_OK .* sr_seqid=2 '
if [ -n "$SB" ] && [ -n "$RB" ]; then
	run4 session "$SB" ++ sequence 2 1 cachethis PUTROOTFH
	expect_eq "a retry from another connection gets the identical cached reply" \
		"$(sfield 2 reply)" "$RB"
else
	not_ok "no session or reply to retry from another connection" "$OUT"
fi
run4 session "$ZERO_SESSION" ++ sequence 0 1 ++ bind_conn fore ++ destroy_session
step_expect "SEQUENCE of an unknown session: BADSESSION" 2 \
	'status=NFS4ERR_BADSESSION nres=1 op0=OP_SEQUENCE:NFS4ERR_BADSESSION '
step_expect "BIND_CONN_TO_SESSION of an unknown session: BADSESSION" 3 \
	'status=NFS4ERR_BADSESSION nres=1 op0=OP_BIND_CONN_TO_SESSION:NFS4ERR_BADSESSION '
step_expect "DESTROY_SESSION of an unknown session: BADSESSION" 4 \
	'status=NFS4ERR_BADSESSION nres=1 op0=OP_DESTROY_SESSION:NFS4ERR_BADSESSION '
expect4 "the owner of a client with a session, from another principal: CLID_INUSE (case 3)" \
	'status=NFS4ERR_CLID_INUSE nres=1 op0=OP_EXCHANGE_ID:NFS4ERR_CLID_INUSE ' \
	-u 1000 -g 1000 exchange_id integ-b
expect4 "EXCHANGE_ID flags outside EXCHGID4_FLAG_MASK_A: INVAL" \
	'status=NFS4ERR_INVAL nres=1 op0=OP_EXCHANGE_ID:NFS4ERR_INVAL ' \
	exchange_id integ-c 0123456789abcdef 0x8
expect4 "an update of a record that is not there: NOENT (case 7)" \
	'status=NFS4ERR_NOENT nres=1 op0=OP_EXCHANGE_ID:NFS4ERR_NOENT ' \
	exchange_id integ-nobody 0123456789abcdef 0x40000000
run4 clientid 0x0123456789abcdef ++ create_session ++ destroy_clientid
step_expect "CREATE_SESSION of an unknown client id: STALE_CLIENTID" 2 \
	'status=NFS4ERR_STALE_CLIENTID nres=1 op0=OP_CREATE_SESSION:NFS4ERR_STALE_CLIENTID '
step_expect "DESTROY_CLIENTID of an unknown client id: STALE_CLIENTID" 3 \
	'status=NFS4ERR_STALE_CLIENTID nres=1 op0=OP_DESTROY_CLIENTID:NFS4ERR_STALE_CLIENTID '

# A client that restarted (another verifier, 18.35.5 case 5): its old
# record and sessions live until CREATE_SESSION confirms the new one.
run4 exchange_id integ-r ++ create_session ++ sequence 0 1
R_CID=$(sfield 1 clientid) R_SESSION=$(sfield 2 sessionid)
if [ -n "$R_CID" ] && [ -n "$R_SESSION" ]; then
	run4 exchange_id integ-r fedcba9876543210 ++ session "$R_SESSION" ++ sequence 0 2 \
		++ create_session ++ session "$R_SESSION" ++ sequence 0 3 ++ destroy_clientid "0x$R_CID"
	step_expect "EXCHANGE_ID with a new verifier: a new, unconfirmed record (case 5)" 1 \
		'op0=OP_EXCHANGE_ID:NFS4_OK .*seqid=1 eir_flags=0x00010000 confirmed=0'
	if [ "$(sfield 1 clientid)" != "$R_CID" ]; then
		ok "the restarted client has a new client id"
	else
		not_ok "the restarted client kept client id $R_CID" "$OUT"
	fi
	step_expect "the old session serves until the new record is confirmed" 3 \
		'status=NFS4_OK nres=1 op0=OP_SEQUENCE:NFS4_OK '
	step_expect "CREATE_SESSION confirms the new record" 4 'op0=OP_CREATE_SESSION:NFS4_OK '
	step_expect "then the old session is gone" 6 'status=NFS4ERR_BADSESSION '
	step_expect "and the old client id" 7 'status=NFS4ERR_STALE_CLIENTID '
else
	not_ok "no client id or session for the restart case" "$OUT"
fi

# A reply too big for the slot's cache, asked to be cached: RFC 8881
# 2.10.6.4 and 18.46.3 want REP_TOO_BIG_TO_CACHE, so that the client never
# believes a reply kept that was not. 60 bytes hold SEQUENCE's own reply
# (56 with an empty tag), not SEQUENCE + PUTROOTFH (64).
run4 exchange_id integ-small ++ create_session 8 16 60 ++ sequence 0 1 cachethis PUTROOTFH \
	++ sequence 0 1 cachethis PUTROOTFH
if [ "$(sfield 3 status)" = NFS4ERR_REP_TOO_BIG_TO_CACHE ] ||
	{ [ -n "$(sfield 3 reply)" ] && [ "$(sfield 4 reply)" = "$(sfield 3 reply)" ]; }; then
	ok "cachethis with a reply over ca_maxresponsesize_cached: REP_TOO_BIG_TO_CACHE or kept"
else
	not_ok "cachethis with a reply over ca_maxresponsesize_cached: neither REP_TOO_BIG_TO_CACHE nor a replay" \
		"command: $LAST_CMD
$OUT"
fi

# The channel's sizes bind the requester (RFC 8881 18.36.3, 2.10.6.4):
# a request over ca_maxrequestsize is REQ_TOO_BIG, a reply over
# ca_maxresponsesize REP_TOO_BIG. 50 operations are 244 bytes of arguments
# alone (over 200); SEQUENCE and 10 PUTROOTFH answer 136 bytes (over 128).
PUTS49=$(for i in $(seq 49); do printf 'PUTROOTFH '; done)
PUTS10=$(for i in $(seq 10); do printf 'PUTROOTFH '; done)
# shellcheck disable=SC2086
run4 exchange_id integ-sizes ++ create_session 8 50 4096 0 1 200 ++ sequence 0 1 $PUTS49 \
	++ create_session 8 50 4096 0 2 1049620 128 ++ sequence 0 1 $PUTS10
step_expect "a session whose requests are at most 200 bytes" 2 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* maxreq=200 '
step_expect "a request over ca_maxrequestsize: REQ_TOO_BIG" 3 'status=NFS4ERR_REQ_TOO_BIG '
step_expect "a session whose replies are at most 128 bytes" 4 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* maxresp=128'
step_expect "a reply over ca_maxresponsesize: REP_TOO_BIG" 5 'status=NFS4ERR_REP_TOO_BIG '

# ---------------------------------------------------------------------------
# 6. many clients: the tables are bounded (N4_MAX_CLIENTS 1024), memory too

run4 exchange_many 1100 integ-flood-a 1024
step_expect "1100 EXCHANGE_IDs of 1 KiB owners all answered" 1 'sent=1100 exchange_ok=1100 exchange_err=0 '
FIRST_A=$(sfield 1 first_clientid) LAST_A=$(sfield 1 last_clientid)
run4 clientid "0x$FIRST_A" ++ create_session
step_expect "the oldest unconfirmed record made room for the newest" 2 \
	'status=NFS4ERR_STALE_CLIENTID nres=1 op0=OP_CREATE_SESSION:NFS4ERR_STALE_CLIENTID '
"$USERNFSCTL" -s "$CTL_SOCK" stats --json >"$WORKDIR/before.json" 2>&1 ||
	not_ok "usernfsctl stats --json failed" "$(cat "$WORKDIR/before.json")"
run4 exchange_many 4000 integ-flood-b 1024
step_expect "4000 more EXCHANGE_IDs all answered" 1 'sent=4000 exchange_ok=4000 exchange_err=0 '
"$USERNFSCTL" -s "$CTL_SOCK" stats --json >"$WORKDIR/after.json" 2>&1 ||
	not_ok "usernfsctl stats --json failed" "$(cat "$WORKDIR/after.json")"
run4 clientid "0x$LAST_A" ++ create_session
step_expect "after 4000 more, the first flood's records are all gone" 2 \
	'status=NFS4ERR_STALE_CLIENTID nres=1 op0=OP_CREATE_SESSION:NFS4ERR_STALE_CLIENTID '
# Unbounded, 40000 more owners of 1 KiB would be over 40 MiB more. Bounded,
# RSS still creeps while malloc's arenas (one per service thread, each up
# to a table's worth of records) fill: 4 to 6 MiB measured, about 19 at
# most. (valgrind keeps freed blocks in a queue of its own: no measure.)
if [ -z "${USERNFSD_WRAPPER:-}" ]; then
	RSS1=$(rss_kb)
	run4 exchange_many 40000 integ-flood-c 1024
	step_expect "40000 more EXCHANGE_IDs all answered" 1 'sent=40000 exchange_ok=40000 exchange_err=0 '
	RSS2=$(rss_kb)
	if [ -n "$RSS1" ] && [ -n "$RSS2" ] && [ $((RSS2 - RSS1)) -lt 16384 ]; then
		ok "memory after 40000 more clients: ${RSS1} -> ${RSS2} KiB"
	else
		not_ok "memory grew with the clients: '${RSS1}' -> '${RSS2}' KiB"
	fi
fi
check_daemon_alive "thousands of EXCHANGE_IDs"

# ---------------------------------------------------------------------------
# 7. the statistics count operations (usernfsctl, the control socket)

# jdelta PROGRAM VERSION PROCEDURE JQ-EXPR: after.json's value less before.json's
jdelta() {
	local f v=()
	for f in "$WORKDIR/before.json" "$WORKDIR/after.json"; do
		v+=("$(jq -r --arg p "$1" --argjson v "$2" --arg n "$3" \
			"[.procedures[] | select(.program == \$p and .version == \$v and .procedure == \$n) | $4 // 0] | add // 0" "$f" 2>/dev/null)")
	done
	echo $((${v[1]:-0} - ${v[0]:-0}))
}
expect_eq "usernfsctl: 4000 more nfs4ops EXCHANGE_IDs" "$(jdelta nfs4ops 4 EXCHANGE_ID .calls)" 4000 \
	"$(head -c 1500 "$WORKDIR/after.json")"
expect_eq "usernfsctl: all 4000 with status 0" "$(jdelta nfs4ops 4 EXCHANGE_ID '.status["0"]')" 4000
expect_eq "usernfsctl: no SEQUENCE among them" "$(jdelta nfs4ops 4 SEQUENCE .calls)" 0
expect_eq "usernfsctl: 4000 more NFS v4 COMPOUNDs" "$(jdelta NFS 4 COMPOUND .calls)" 4000
run_expect "usernfsctl stats shows the nfs4ops table" '^RECLAIM_COMPLETE +[1-9]' \
	"$USERNFSCTL" -s "$CTL_SOCK" stats

# ---------------------------------------------------------------------------
# 8. confirmed clients with sessions: sessions stop at the cache budget

run4 exchange_many 1100 integ-flood-d 64 session
step_expect "1100 EXCHANGE_IDs with CREATE_SESSIONs answered" 1 'sent=1100 exchange_ok=1100 '
if [ "$(sfield 1 session_err)" -gt 0 ] 2>/dev/null &&
	[ "$(sfield 1 session_last)" = NFS4ERR_NOSPC ]; then
	ok "sessions are bounded: $(sfield 1 session_ok) made, then NOSPC"
else
	not_ok "1100 sessions of 64 slots x 4 KiB: no bound met" "$OUT"
fi
check_daemon_alive "1100 sessions"

# It stops cleanly (under USERNFSD_WRAPPER=valgrind: with no error found).
if daemon_alive; then
	kill -TERM "$(_daemon_real_pid)"
	if _wait_gone "$DAEMON_PID" 300 0.1; then
		wait "$DAEMON_PID"
		rc=$?
	else
		rc="still running after 30 s"
	fi
	DAEMON_PID=
	expect_eq "the daemon exits 0 on SIGTERM" "$rc" 0 "$(daemon_log_tail 30)"
fi
finish
