#!/bin/bash
# integ_nfs4.sh - NFSv4.1/4.2 (RFC 8881, RFC 7862) against tests/nfs4probe,
# a client built on the XDR rpcgen generates from src/rpc/nfs4_prot.x:
#   - --nfs-versions: 3 serves no v4; 4.1 alone refuses minor version 2;
#     5 and 4.3 stop the daemon with a message; 4.1 alone refuses 4.0; v4 is TCP only (rpcbind
#     has no udp entry, a v4 call over UDP is PROG_MISMATCH 3..3);
#   - the COMPOUND rules (RFC 8881 2.10.6, 16.2.3, 18): OP_NOT_IN_SESSION,
#     NOT_ONLY_OP, SEQUENCE_POS, MINOR_VERS_MISMATCH with no results,
#     OP_ILLEGAL, TOO_MANY_OPS, BADXDR, 4.0-only and 4.2 operations;
#   - EXCHANGE_ID's cases (18.35.5), CREATE_SESSION's replay cache and
#     clamped channel (18.36), SEQUENCE's slots and reply cache (2.10.6.1,
#     18.46), DESTROY_SESSION, DESTROY_CLIENTID, RECLAIM_COMPLETE and
#     BIND_CONN_TO_SESSION;
#   - the file operations (RFC 8881 18) with their arguments, on a rw, a
#     ro and a third export and two the client does not match: the pseudo
#     file system (7.3-7.5), LOOKUP, LOOKUPP and the filehandle operations,
#     GETATTR and VERIFY against stat on the server, READDIR (cookies, 2000
#     entries in small replies), OPEN's create modes, READ, WRITE, COMMIT,
#     OPEN_DOWNGRADE, CLOSE, the stateids (8.2) and share reservations
#     between two clients (9.7), CREATE, REMOVE, RENAME, LINK, SETATTR;
#     what the export directories hold afterwards;
#   - thousands of EXCHANGE_IDs and CREATE_SESSIONs: the tables stay
#     bounded and the daemon alive; the nfs4ops statistics count them.
. "$(dirname "$0")/lib.sh"
# AddressSanitizer's quarantine (256 MiB by default) would fake growth in
# the memory bound check: freed records wait there instead of being reused.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"

NFS4PROBE=${NFS4PROBE:-$top_builddir/tests/nfs4probe}
[ -x "$NFS4PROBE" ] || skip "nfs4probe not built ($NFS4PROBE): run make check"
need_cmd rpcinfo jq timeout
setup
start_rpcbind

EXPORT=$WORKDIR/export
mkdir -p "$EXPORT"
EXPORTS="$EXPORT 127.0.0.1(rw,insecure,no_root_squash)"
# The file operations' exports (section 6): rw and ro below the pseudo
# directory v4, one on another path, and two for a client that is not us.
RW=$WORKDIR/v4/rw RO=$WORKDIR/v4/ro FAR=$WORKDIR/far/side/xd
HIDDEN=$WORKDIR/v4/hidden SECRET=$WORKDIR/secret
FO_EXPORTS="$RW 127.0.0.1(rw,insecure,no_root_squash)
$RO 127.0.0.1(ro,insecure,no_root_squash)
$FAR 127.0.0.1(rw,insecure,no_root_squash)
$HIDDEN 10.99.99.99(rw,insecure)
$SECRET 10.99.99.99(rw,insecure)"
mkdir -p "$RW" "$RO" "$FAR" "$HIDDEN" "$SECRET"

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

# refused DESC RC TEXT OPTIONS...: the daemon started with OPTIONS stops
# before it serves, with exit status RC (any but 0: -) and TEXT in its words
refused() {
	local desc=$1 want=$2 text=$3 out rc
	shift 3
	out=$(timeout 10 "$USERNFSD" --exports "$EXPORTS_FILE" --foreground --no-rpcbind \
		--nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT" --state-dir "$WORKDIR/bad" \
		"$@" </dev/null 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] && { [ "$want" = - ] || [ "$rc" -eq "$want" ]; } &&
		printf '%s\n' "$out" | grep -qF -- "$text"; then
		ok "$desc"
	else
		not_ok "$desc: exit status $rc (want ${want/-/non-zero} and '$text')" "$out"
	fi
}

# A list naming no version served stops the daemon before it serves.
for bad in 5 4.3 3,5; do
	refused "--nfs-versions $bad is refused" 2 "--nfs-versions: '${bad##*,}' is not a version served" \
		--nfs-versions "$bad"
done

# The default is every version: a stock mount negotiates 4.2.
start_daemon "$EXPORTS"
expect_reg "by default NFS v4 is registered on tcp" yes "$NFS_PROG" 4 tcp
expect_reg "by default NFS v3 too" yes "$NFS_PROG" 3 tcp
expect_reg "by default NFS v2 too" yes "$NFS_PROG" 2 udp
expect4 "by default minor version 2 is served" \
	'status=NFS4_OK nres=1 op0=OP_EXCHANGE_ID:NFS4_OK' -m 2 exchange_id integ-default-minor2
stop_daemon

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
expect4 "--nfs-versions 4.1: minor version 0 is MINOR_VERS_MISMATCH, no results" \
	'status=NFS4ERR_MINOR_VERS_MISMATCH nres=0 ' compound 0 putrootfh
# No version of NFS over UDP at all: the program is not there (RFC 5531).
run_expect "--nfs-versions 4.1: any NFS call over UDP is PROG_UNAVAIL" '^rpc=PROG_UNAVAIL' \
	v4 udp null
stop_daemon

start_daemon "$EXPORTS
$FO_EXPORTS" --nfs-versions 3,4.1,4.2

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
# The scope: a tag of the handle key; the major id: the identity (the state directory's name) in it.
SCOPE1=$(sfield 1 server_scope)
step_expect "EXCHANGE_ID's server scope is the handle key's tag, the major id the identity" 1 \
	" server_scope=usernfsd-[0-9a-f]{16} server_major=$(basename "$STATE_DIR")@$SCOPE1( |\$)"
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
step_expect "BIND_CONN_TO_SESSION for the back channel only: the back channel" 25 \
	'status=NFS4_OK nres=1 op0=OP_BIND_CONN_TO_SESSION:NFS4_OK .*bctsr_dir=CDFS4_BACK '
step_expect "BIND_CONN_TO_SESSION fore: bound to the fore channel" 26 \
	'status=NFS4_OK nres=1 op0=OP_BIND_CONN_TO_SESSION:NFS4_OK .*bctsr_dir=CDFS4_FORE '
step_expect "BIND_CONN_TO_SESSION fore or both: both channels" 27 \
	'status=NFS4_OK nres=1 op0=OP_BIND_CONN_TO_SESSION:NFS4_OK .*bctsr_dir=CDFS4_BOTH '
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
step_expect "CONN_BACK_CHAN granted, PERSIST not (no persistent reply cache)" 2 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* csr_flags=0x2 '
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

# CREATE_SESSION's arguments as pynfs's server41tests check them.
# CSESS10: a confirmed client id takes CREATE_SESSION from any principal
# under SP4_NONE (RFC 8881 18.36.4): a retry of the confirming one and a
# new one from uid 1000 are served, as knfsd serves them.
run4 exchange_id integ-cs-princ ++ create_session
CS_CID=$(sfield 1 clientid) CS_SES=$(sfield 2 sessionid)
if [ -n "$CS_CID" ] && [ -n "$CS_SES" ]; then
	run4 -u 1000 -g 1000 clientid "0x$CS_CID" 1 ++ create_session ++ create_session
	step_expect "a confirmed client's CREATE_SESSION retried by another principal: served (CSESS10)" 2 \
		"op0=OP_CREATE_SESSION:NFS4_OK .* sessionid=$CS_SES csr_sequence=1 "
	step_expect "... and a new CREATE_SESSION from that principal" 3 \
		'op0=OP_CREATE_SESSION:NFS4_OK .* csr_sequence=2 '
else
	not_ok "no client id or session for the CREATE_SESSION principal check" "$OUT"
fi
# CSESS15: csa_flags bits RFC 8881 18.36 does not define are INVAL (as in
# knfsd); refused, they take no csa_sequence.
run4 exchange_id integ-cs-flags ++ create_session 8 16 4096 0xf 1 ++ create_session 8 16 4096 0x8 1 \
	++ create_session 8 16 4096 0x1 1
step_expect "CREATE_SESSION with csa_flags 0xf: INVAL (CSESS15)" 2 \
	'status=NFS4ERR_INVAL nres=1 op0=OP_CREATE_SESSION:NFS4ERR_INVAL '
step_expect "CREATE_SESSION with csa_flags 0x8: INVAL" 3 \
	'status=NFS4ERR_INVAL nres=1 op0=OP_CREATE_SESSION:NFS4ERR_INVAL '
step_expect "CREATE_SESSION with PERSIST, the same csa_sequence: created, PERSIST not granted" 4 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* csr_sequence=1 csr_flags=0x0 '
# CSESS29: a back channel no callback fits in (ca_maxrequestsize 10,
# one operation) is TOOSMALL (RFC 8881 18.36.3, as in knfsd), and takes
# no csa_sequence: the same one with a sane back channel creates.
run4 exchange_id integ-cs-back ++ create_session ++ create_session 8 16 4096 0 2 8192 8192 10 1 \
	++ create_session 8 16 4096 0 2 8192 8192 4096 1 ++ create_session 8 16 4096 0 2 8192 8192 4096 2
step_expect "a back channel of 10-byte requests: TOOSMALL (CSESS29)" 3 \
	'status=NFS4ERR_TOOSMALL nres=1 op0=OP_CREATE_SESSION:NFS4ERR_TOOSMALL '
step_expect "a back channel of one operation per compound: TOOSMALL" 4 \
	'status=NFS4ERR_TOOSMALL nres=1 op0=OP_CREATE_SESSION:NFS4ERR_TOOSMALL '
step_expect "the same csa_sequence with a back channel that fits: created" 5 \
	'op0=OP_CREATE_SESSION:NFS4_OK .* csr_sequence=2 '

# RECLAIM_COMPLETE of one file system (RFC 8881 18.51.3), pynfs RECC1: that
# of the current filehandle, so NOFILEHANDLE without one, OK with one; the
# client's own (rca_one_fs FALSE) is still awaited after it.
run4 exchange_id integ-recc ++ create_session ++ sequence 0 1 RECLAIM_COMPLETE:one_fs \
	++ sequence 0 2 PUTROOTFH RECLAIM_COMPLETE:one_fs ++ sequence 0 3 RECLAIM_COMPLETE:all \
	++ sequence 0 4 RECLAIM_COMPLETE
step_expect "RECLAIM_COMPLETE of one file system without a filehandle: NOFILEHANDLE" 3 \
	'status=NFS4ERR_NOFILEHANDLE nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_RECLAIM_COMPLETE:NFS4ERR_NOFILEHANDLE '
step_expect "RECLAIM_COMPLETE of the current filehandle's file system: OK (RECC1)" 4 \
	'status=NFS4_OK nres=3 op0=OP_SEQUENCE:NFS4_OK op1=OP_PUTROOTFH:NFS4_OK op2=OP_RECLAIM_COMPLETE:NFS4_OK '
step_expect "... then the client's own RECLAIM_COMPLETE: OK" 5 \
	'status=NFS4_OK nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_RECLAIM_COMPLETE:NFS4_OK '
step_expect "... and once more: COMPLETE_ALREADY" 6 \
	'status=NFS4ERR_COMPLETE_ALREADY nres=2 op0=OP_SEQUENCE:NFS4_OK op1=OP_RECLAIM_COMPLETE:NFS4ERR_COMPLETE_ALREADY '

# ---------------------------------------------------------------------------
# 6. file operations (RFC 8881 18), checked against the export directories

# A plan: the compounds one nfs4probe process sends, each after SEQUENCE on
# slot $PLAN_SLOT with that slot's next sequence id, and what each must print.
# plan_begin OWNER: a new client (EXCHANGE_ID, CREATE_SESSION: steps 1 and 2)
#   that has said RECLAIM_COMPLETE (step 3), as it must before it opens
# plan_resume CLIENTID SESSION SLOT: an earlier process's client and session,
#   on a slot it did not use
# plan DESC ERE OP...: one compound, its check (DESC -: none); its step is $PLAN_N
# plan_cmd DESC ERE COMMAND ARGS...: a probe command of its own as a step
# plan_run: runs the process, then every check
plan_begin() {
	PLAN_ARGS=(exchange_id "$1" ++ create_session ++ sequence 0 next RECLAIM_COMPLETE)
	PLAN_N=3 PLAN_SLOT=0 PLAN_DESC=() PLAN_ERE=() PLAN_STEP=()
}
plan_resume() {
	PLAN_ARGS=(clientid "0x$1" ++ session "$2")
	PLAN_N=2 PLAN_SLOT=$3 PLAN_DESC=() PLAN_ERE=() PLAN_STEP=()
}
_plan_check() {
	PLAN_N=$((PLAN_N + 1))
	if [ "$1" != - ]; then
		PLAN_DESC+=("$1") PLAN_ERE+=("$2") PLAN_STEP+=("$PLAN_N")
	fi
}
plan() {
	_plan_check "$1" "$2"
	shift 2
	PLAN_ARGS+=(++ sequence "$PLAN_SLOT" next "$@")
}
plan_cmd() {
	_plan_check "$1" "$2"
	shift 2
	PLAN_ARGS+=(++ "$@")
}
plan_run() {
	local i
	run4 "${PLAN_ARGS[@]}"
	for i in "${!PLAN_STEP[@]}"; do
		step_expect "${PLAN_DESC[$i]}" "${PLAN_STEP[$i]}" "${PLAN_ERE[$i]}"
	done
}
# E OP STATUS: the ERE of a compound whose last result is OP's, with STATUS
E() {
	printf 'status=%s nres=[0-9]+ .*op[0-9]+=OP_%s:%s reply=' "$2" "$1" "$2"
}
OK4='status=NFS4_OK '
# sfieldn N KEY I: the I-th KEY= value in step N
sfieldn() {
	stepout "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | sed -n "${3}p"
}
# fnv1a64 FILE OFFSET LENGTH: nfs4probe's read_hash of those bytes of FILE
fnv1a64() {
	python3 -c 'import sys
f = open(sys.argv[1], "rb"); f.seek(int(sys.argv[2])); h = 0xcbf29ce484222325
for b in f.read(int(sys.argv[3])): h = ((h ^ b) * 0x100000001b3) & (2**64 - 1)
print("%016x" % h)' "$@"
}
# re STRING: STRING with the ERE's special characters escaped
re() {
	printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'
}
# sorted_list LIST: a comma list, sorted
sorted_list() {
	printf '%s\n' "$1" | tr , '\n' | sort | paste -sd, -
}
# path_ops PATH: LOOKUP:COMPONENT for each component of PATH, in PATH_OPS
path_ops() {
	local IFS=/ c
	PATH_OPS=()
	for c in $1; do
		[ -n "$c" ] && PATH_OPS+=("LOOKUP:$c")
	done
}
# expect_file DESC PATH CONTENT: the export directory holds PATH with CONTENT
expect_file() {
	expect_eq "$1" "$(cat "$2" 2>&1)" "$3"
}
# present DIR NAME...: those of the NAMEs DIR holds (even as dangling links), space-separated
present() {
	local d=$1 n out=
	shift
	for n in "$@"; do
		if [ -e "$d/$n" ] || [ -L "$d/$n" ]; then out="$out${out:+ }$n"; fi
	done
	printf '%s' "$out"
}

file_ops() {
	local n s got name top wd_ops cid ses sid bcid bses bad
	top=${WORKDIR#/}
	top=${top%%/*}
	path_ops "$WORKDIR"
	wd_ops=("${PATH_OPS[@]}")

	# The filehandles down the pseudo tree, kept for the processes after.
	run4 exchange_id integ-fo-fh ++ create_session \
		++ sequence 0 next PUTROOTFH GETFH "${wd_ops[@]}" GETFH LOOKUP:v4 GETFH LOOKUP:rw GETFH \
		++ sequence 0 next PUTROOTFH "${wd_ops[@]}" LOOKUP:v4 LOOKUP:ro GETFH \
		++ sequence 0 next PUTROOTFH "${wd_ops[@]}" LOOKUP:far LOOKUP:side LOOKUP:xd GETFH
	ROOT_FH=$(sfieldn 3 fh 1) WD_FH=$(sfieldn 3 fh 2) V4_FH=$(sfieldn 3 fh 3) RW_FH=$(sfieldn 3 fh 4)
	RO_FH=$(sfield 4 fh) FAR_FH=$(sfield 5 fh)
	step_expect "PUTROOTFH, LOOKUP down the pseudo tree to the rw export (RFC 8881 7.3)" 3 \
		"${OK4}nres=$((${#wd_ops[@]} + 8)) "
	step_expect "... and to the ro export" 4 "$OK4"
	step_expect "... and to the export on another path" 5 "$OK4"
	for s in "$ROOT_FH" "$WD_FH" "$V4_FH" "$RW_FH" "$RO_FH" "$FAR_FH"; do
		if [ -z "$s" ]; then
			not_ok "no filehandles down the pseudo tree: the file operations are not tested" "$OUT"
			return
		fi
	done
	if [ "$RW_FH" != "$V4_FH" ] && [ "${#ROOT_FH}" -eq 48 ]; then
		ok "the pseudo root has a pseudo handle, the export its own"
	else
		not_ok "pseudo root handle '$ROOT_FH', rw export '$RW_FH'" "$OUT"
	fi

	# -- one handle for both versions: the same gate, the same bytes
	local m3
	m3=$(mnt_fh tcp "$RW")
	if [ -n "$m3" ] && [ "$m3" = "$RW_FH" ]; then
		ok "MOUNT v3's handle of the rw export is the one LOOKUP found over v4"
	else
		not_ok "MOUNT v3's handle '$m3', v4's '$RW_FH'"
	fi
	run_expect "a handle found over v4 works in an NFSv3 GETATTR" '^status=0$' \
		nfs_probe tcp getattr-hex "$RW_FH"
	run_expect "a handle from MOUNT v3 works in an NFSv4 PUTFH" \
		"${OK4}.*attr_type=NF4DIR" v4 tcp exchange_id integ-fo-v3fh ++ create_session \
		++ sequence 0 next "PUTFH:${m3:-00}" GETATTR:type

	# -- the pseudo file system (RFC 8881 7.3-7.5)
	plan_begin integ-fo-pseudo
	plan "PUTROOTFH: a directory of fsid 0.0, read and search only" \
		"$OK4.* attr_type=NF4DIR attr_fsid=0\\.0 attr_mode=0555\$" PUTROOTFH GETATTR:type,fsid,mode
	plan "READDIR of /: only the first component of the exports' paths, once" \
		"$OK4.* rd_count=1 rd_eof=1 rd_names=$(re "$top") " PUTROOTFH READDIR:0,8192
	plan - '' "PUTFH:$WD_FH" READDIR:0,8192
	S_WD=$PLAN_N
	plan - '' "PUTFH:$V4_FH" READDIR:0,8192,type,fsid
	S_V4=$PLAN_N
	plan "LOOKUP from the pseudo directory into the export" "$OK4" \
		"PUTFH:$V4_FH" GETATTR:fsid LOOKUP:rw GETATTR:type,fsid,fileid GETFH
	S_CROSS=$PLAN_N
	plan "LOOKUPP from the export's root: the pseudo directory again (18.14)" \
		"$OK4.* fh=$V4_FH attrmask=type,fsid attr_type=NF4DIR attr_fsid=0\\.0" \
		"PUTFH:$RW_FH" LOOKUPP GETFH GETATTR:type,fsid
	plan "LOOKUPP three times from an export three levels down: its pseudo directories" \
		"$OK4.* fh=$WD_FH" "PUTFH:$FAR_FH" LOOKUPP LOOKUPP LOOKUPP GETFH
	plan "READDIR of a pseudo directory on the way to one export: that one" \
		"$OK4.* rd_count=1 rd_eof=1 rd_names=xd " "PUTFH:$FAR_FH" LOOKUPP READDIR:0,8192
	plan "LOOKUPP at the pseudo root: NOENT (18.14.3)" "$(E LOOKUPP NFS4ERR_NOENT)" \
		PUTROOTFH LOOKUPP
	plan "LOOKUP of an export this client does not match: NOENT, invisible" \
		"$(E LOOKUP NFS4ERR_NOENT)" "PUTFH:$V4_FH" LOOKUP:hidden
	plan "LOOKUP of the other one (the scratch directory's secret): NOENT" \
		"$(E LOOKUP NFS4ERR_NOENT)" "PUTFH:$WD_FH" LOOKUP:secret
	plan "LOOKUP of a name on no export's path: NOENT" "$(E LOOKUP NFS4ERR_NOENT)" \
		"PUTFH:$WD_FH" LOOKUP:nosuch
	plan "CREATE in a pseudo directory: ROFS" "$(E CREATE NFS4ERR_ROFS)" \
		"PUTFH:$V4_FH" CREATE:dir,newdir
	plan "OPEN with create in a pseudo directory: ROFS" "$(E OPEN NFS4ERR_ROFS)" \
		"PUTFH:$V4_FH" OPEN:newfile,both,none,unchecked
	plan "OPEN of an export's root in its pseudo directory: ISDIR" "$(E OPEN NFS4ERR_ISDIR)" \
		"PUTFH:$V4_FH" OPEN:rw,read,none
	plan "REMOVE in a pseudo directory: ROFS" "$(E REMOVE NFS4ERR_ROFS)" "PUTFH:$V4_FH" REMOVE:rw
	plan "RENAME in a pseudo directory: ROFS" "$(E RENAME NFS4ERR_ROFS)" \
		"PUTFH:$V4_FH" SAVEFH RENAME:rw,rw2
	plan "SETATTR of the pseudo root: ROFS" "$(E SETATTR NFS4ERR_ROFS)" PUTROOTFH SETATTR:mode=0777
	plan "ACCESS of a pseudo directory: READ and LOOKUP, nothing else" \
		"$OK4.* access_supported=0x3f access_granted=0x3" PUTROOTFH ACCESS:0x3f
	plan "READ of a pseudo directory: ISDIR" "$(E READ NFS4ERR_ISDIR)" PUTROOTFH READ:0,10
	plan "READLINK of a pseudo directory: ISDIR" "$(E READLINK NFS4ERR_ISDIR)" \
		PUTROOTFH READLINK
	plan "SECINFO of the export's name: AUTH_SYS, and the filehandle is consumed (2.6.3.1.1.8)" \
		"status=NFS4ERR_NOFILEHANDLE .*op2=OP_SECINFO:NFS4_OK op3=OP_GETFH:NFS4ERR_NOFILEHANDLE .* flavors=1" \
		"PUTFH:$V4_FH" SECINFO:rw GETFH
	plan "SECINFO of a name not there: NOENT" "$(E SECINFO NFS4ERR_NOENT)" \
		"PUTFH:$V4_FH" SECINFO:nosuch
	plan "SECINFO_NO_NAME of the current filehandle: AUTH_SYS (18.45)" \
		"$OK4.* flavors=1" "PUTFH:$RW_FH" SECINFO_NO_NAME:current
	plan "SECINFO_NO_NAME of the pseudo root's parent: NOENT" \
		"$(E SECINFO_NO_NAME NFS4ERR_NOENT)" PUTROOTFH SECINFO_NO_NAME:parent
	plan_cmd "READDIR of a pseudo directory an entry at a time: each entry once" \
		'readdir_calls=[34] entries=3 distinct=3 eof=1 rd_status=NFS4_OK' \
		readdir_all 0 "$WD_FH" 64
	plan_run
	expect_eq "READDIR of the scratch directory: export, v4 and far, not 'secret' (its client is another)" \
		"$(sorted_list "$(sfield "$S_WD" rd_names)")" "export,far,v4"
	expect_eq "READDIR of the pseudo directory v4: rw and ro, not 'hidden'" \
		"$(sorted_list "$(sfield "$S_V4" rd_names)")" "ro,rw"
	expect_eq "READDIR's attributes of an export's entry: its own fsid" \
		"$(sfield "$S_V4" rd.rw.fsid)" "$(sfieldn "$S_CROSS" attr_fsid 2)"
	expect_eq "the pseudo directory's fsid before the LOOKUP" "$(sfieldn "$S_CROSS" attr_fsid 1)" "0.0"
	got=$(sfieldn "$S_CROSS" attr_fsid 2)
	if [ -n "$got" ] && [ "$got" != 0.0 ]; then
		ok "LOOKUP into the export crosses into its file system: fsid $got"
	else
		not_ok "LOOKUP into the export: fsid '$got', want another than 0.0" "$(stepout "$S_CROSS")"
	fi
	expect_eq "the export's root: its fileid is the directory's inode" \
		"$(sfield "$S_CROSS" attr_fileid)" "$(stat -c %i "$RW")"
	expect_eq "LOOKUP's filehandle of the export's root is the one LOOKUP gave before" \
		"$(sfield "$S_CROSS" fh)" "$RW_FH"

	# -- LOOKUP, the filehandle operations, GETATTR, VERIFY (18.13, 18.19, 18.27, 18.7, 18.31)
	plan_begin integ-fo-lookup
	plan "LOOKUP of a name not there: NOENT" "$(E LOOKUP NFS4ERR_NOENT)" "PUTFH:$RW_FH" LOOKUP:nosuch
	plan "LOOKUP with a file as the current filehandle: NOTDIR" "$(E LOOKUP NFS4ERR_NOTDIR)" \
		"PUTFH:$RW_FH" LOOKUP:f LOOKUP:x
	plan "LOOKUP with a symbolic link as the current filehandle: SYMLINK" \
		"$(E LOOKUP NFS4ERR_SYMLINK)" "PUTFH:$RW_FH" LOOKUP:l LOOKUP:x
	plan "LOOKUP of '.': BADNAME" "$(E LOOKUP NFS4ERR_BADNAME)" "PUTFH:$RW_FH" LOOKUP:.
	plan "LOOKUP of '..': BADNAME" "$(E LOOKUP NFS4ERR_BADNAME)" "PUTFH:$RW_FH" LOOKUP:..
	plan "LOOKUP of '': INVAL" "$(E LOOKUP NFS4ERR_INVAL)" "PUTFH:$RW_FH" LOOKUP:
	plan "LOOKUP of 256 bytes: NAMETOOLONG" "$(E LOOKUP NFS4ERR_NAMETOOLONG)" \
		"PUTFH:$RW_FH" LOOKUP:pat:256
	plan "LOOKUP of 1536 bytes (pynfs LOOK4): NAMETOOLONG too, not BADXDR" \
		"$(E LOOKUP NFS4ERR_NAMETOOLONG)" PUTROOTFH LOOKUP:pat:1536
	plan "CREATE of a 4096-byte name: NAMETOOLONG" "$(E CREATE NFS4ERR_NAMETOOLONG)" \
		"PUTFH:$RW_FH" CREATE:dir,pat:4096
	plan "LOOKUP of 255 bytes: NOENT" "$(E LOOKUP NFS4ERR_NOENT)" "PUTFH:$RW_FH" LOOKUP:pat:255
	plan "LOOKUP without a filehandle: NOFILEHANDLE" "$(E LOOKUP NFS4ERR_NOFILEHANDLE)" LOOKUP:f
	plan "GETFH without a filehandle: NOFILEHANDLE" "$(E GETFH NFS4ERR_NOFILEHANDLE)" GETFH
	plan "PUTFH of garbage: BADHANDLE (18.19.3)" "$(E PUTFH NFS4ERR_BADHANDLE)" \
		PUTFH:0123456789abcdef0123456789abcdef
	plan "PUTFH of an export's handle with its MAC changed: BADHANDLE" \
		"$(E PUTFH NFS4ERR_BADHANDLE)" "PUTFH:${RW_FH%??}$([ "${RW_FH: -2}" = 00 ] && echo 01 || echo 00)"
	plan "RESTOREFH without SAVEFH: NOFILEHANDLE (18.27.3)" "$(E RESTOREFH NFS4ERR_NOFILEHANDLE)" \
		"PUTFH:$RW_FH" RESTOREFH
	plan "SAVEFH without a filehandle: NOFILEHANDLE" "$(E SAVEFH NFS4ERR_NOFILEHANDLE)" SAVEFH
	plan "SAVEFH, LOOKUP, RESTOREFH: the saved filehandle again" "$OK4.* fh=$RW_FH" \
		"PUTFH:$RW_FH" SAVEFH LOOKUP:d RESTOREFH GETFH
	plan "LOOKUPP from a directory of the export: the export's root" "$OK4.* fh=$RW_FH" \
		"PUTFH:$RW_FH" LOOKUP:d LOOKUPP GETFH
	plan "LOOKUPP with a file as the current filehandle: NOTDIR (18.14.3)" \
		"$(E LOOKUPP NFS4ERR_NOTDIR)" "PUTFH:$RW_FH" LOOKUP:f LOOKUPP
	plan "LOOKUPP with a symbolic link as the current filehandle: SYMLINK (pynfs LKPP1a)" \
		"$(E LOOKUPP NFS4ERR_SYMLINK)" "PUTFH:$RW_FH" LOOKUP:l LOOKUPP
	plan "PUTPUBFH: the root's filehandle (18.20.3)" "$OK4.* fh=$ROOT_FH" PUTPUBFH GETFH
	plan "GETATTR filehandle: what GETFH gives" "$OK4" "PUTFH:$RW_FH" LOOKUP:f GETFH GETATTR:filehandle
	S_FHATTR=$PLAN_N
	plan "GETATTR of a file" "$OK4" "PUTFH:$RW_FH" LOOKUP:f \
		GETATTR:type,size,fileid,mode,numlinks,owner,owner_group,supported_attrs
	S_GA=$PLAN_N
	plan "GETATTR of a directory: NF4DIR" "$OK4.* attr_type=NF4DIR" "PUTFH:$RW_FH" LOOKUP:d GETATTR:type
	plan "GETATTR of a symbolic link: NF4LNK" "$OK4.* attr_type=NF4LNK attr_size=1\$" \
		"PUTFH:$RW_FH" LOOKUP:l GETATTR:type,size
	plan "GETATTR of a fifo: NF4FIFO" "$OK4.* attr_type=NF4FIFO" "PUTFH:$RW_FH" LOOKUP:p GETATTR:type
	plan "GETATTR of an attribute not supported (hidden): left out (18.7.3)" \
		"$OK4.* attrmask=size attr_size=12\$" \
		"PUTFH:$RW_FH" LOOKUP:f GETATTR:size,hidden
	plan "GETATTR of a write-only attribute (time_modify_set): INVAL" \
		"$(E GETATTR NFS4ERR_INVAL)" "PUTFH:$RW_FH" LOOKUP:f GETATTR:size,time_modify_set
	plan "GETATTR of the ro export's root: a file system of its own" "$OK4" \
		"PUTFH:$RO_FH" GETATTR:fsid "PUTFH:$RW_FH" GETATTR:fsid
	S_FSIDS=$PLAN_N
	plan "READLINK of a symbolic link" "$OK4.* link=f\$" "PUTFH:$RW_FH" LOOKUP:l READLINK
	plan "READLINK of a file: WRONG_TYPE (as knfsd)" "$(E READLINK NFS4ERR_WRONG_TYPE)" \
		"PUTFH:$RW_FH" LOOKUP:f READLINK
	plan "VERIFY of the file's size and type: OK (18.31)" "$OK4" \
		"PUTFH:$RW_FH" LOOKUP:f VERIFY:size=12,type=NF4REG,mode=0640
	plan "VERIFY of another size: NOT_SAME" "$(E VERIFY NFS4ERR_NOT_SAME)" \
		"PUTFH:$RW_FH" LOOKUP:f VERIFY:size=13
	plan "NVERIFY of the file's size: SAME (18.15)" "$(E NVERIFY NFS4ERR_SAME)" \
		"PUTFH:$RW_FH" LOOKUP:f NVERIFY:size=12
	plan "NVERIFY of another size: OK" "$OK4" "PUTFH:$RW_FH" LOOKUP:f NVERIFY:size=13
	plan "VERIFY of rdattr_error: INVAL" "$(E VERIFY NFS4ERR_INVAL)" \
		"PUTFH:$RW_FH" LOOKUP:f VERIFY:rdattr_error=0
	plan "ACCESS of a file, as root: all six bits looked at" "$OK4.* access_supported=0x3f " \
		"PUTFH:$RW_FH" LOOKUP:f ACCESS:0x3f
	plan - '' "PUTFH:$RO_FH" LOOKUP:r ACCESS:0x3f
	S_ROACC=$PLAN_N
	plan_run
	expect_eq "GETATTR filehandle equals GETFH's" "$(sfield "$S_FHATTR" attr_filehandle)" \
		"$(sfield "$S_FHATTR" fh)"
	got=$(sfield "$S_ROACC" access_granted)
	if [ -n "$got" ] && [ $((got & 0x0c)) -eq 0 ] && [ $((got & 0x01)) -eq 1 ]; then
		ok "ACCESS of a file of the ro export: READ, neither MODIFY nor EXTEND ($got)"
	else
		not_ok "ACCESS of a file of the ro export: granted '$got'" "$(stepout "$S_ROACC")"
	fi
	expect_eq "GETATTR size: the file's 12 bytes" "$(sfield "$S_GA" attr_size)" 12
	expect_eq "GETATTR type: NF4REG" "$(sfield "$S_GA" attr_type)" NF4REG
	expect_eq "GETATTR mode: 0640, as chmod set it" "$(sfield "$S_GA" attr_mode)" 0640
	expect_eq "GETATTR owner: 1234, numeric (no idmapping)" "$(sfield "$S_GA" attr_owner)" 1234
	expect_eq "GETATTR owner_group: 5678" "$(sfield "$S_GA" attr_owner_group)" 5678
	expect_eq "GETATTR numlinks: 1" "$(sfield "$S_GA" attr_numlinks)" 1
	expect_eq "GETATTR fileid: the inode stat gives on the server" \
		"$(sfield "$S_GA" attr_fileid)" "$(stat -c %i "$RW/f")"
	got=,$(sfield "$S_GA" attr_supported_attrs),
	n=0
	# RFC 8881 5.6: the REQUIRED attributes of minor version 1
	for name in supported_attrs type fh_expire_type change size link_support symlink_support \
		named_attr fsid unique_handles lease_time rdattr_error filehandle suppattr_exclcreat; do
		case $got in *,$name,*) ;; *) n=$((n + 1)); not_ok "supported_attrs lacks REQUIRED $name" "$got" ;; esac
	done
	[ "$n" -eq 0 ] && ok "supported_attrs holds the 14 REQUIRED attributes (5.6)"
	got=$(sfieldn "$S_FSIDS" attr_fsid 1)
	if [ -n "$got" ] && [ "$got" != "$(sfieldn "$S_FSIDS" attr_fsid 2)" ]; then
		ok "the ro and the rw export have fsids of their own"
	else
		not_ok "fsids of the ro and rw exports: '$got' and '$(sfieldn "$S_FSIDS" attr_fsid 2)'" \
			"$(stepout "$S_FSIDS")"
	fi

	# -- READDIR (18.23)
	plan_begin integ-fo-readdir
	plan "READDIR of a directory of three" "$OK4.* rd_count=3 rd_eof=1 " \
		"PUTFH:$RW_FH" LOOKUP:sm READDIR:0,8192,type
	S_SM=$PLAN_N
	plan "READDIR from the last cookie: nothing more, eof" "$OK4.* rd_count=0 rd_eof=1 " \
		"PUTFH:$RW_FH" LOOKUP:sm READDIR:last,8192
	plan "READDIR from cookie 1: BAD_COOKIE (18.23.3)" "$(E READDIR NFS4ERR_BAD_COOKIE)" \
		"PUTFH:$RW_FH" LOOKUP:sm READDIR:1,8192
	plan "READDIR from cookie 2: BAD_COOKIE" "$(E READDIR NFS4ERR_BAD_COOKIE)" \
		"PUTFH:$RW_FH" LOOKUP:sm READDIR:2,8192
	plan "READDIR of maxcount 10: TOOSMALL" "$(E READDIR NFS4ERR_TOOSMALL)" \
		"PUTFH:$RW_FH" LOOKUP:sm READDIR:0,10
	plan "READDIR of maxcount 32, too small for one entry: TOOSMALL" \
		"$(E READDIR NFS4ERR_TOOSMALL)" "PUTFH:$RW_FH" LOOKUP:sm READDIR:0,32
	plan "READDIR of a file: NOTDIR" "$(E READDIR NFS4ERR_NOTDIR)" \
		"PUTFH:$RW_FH" LOOKUP:f READDIR:0,8192
	plan "READDIR from a cookie with a verifier the server never gave: NOT_SAME" \
		"$(E READDIR NFS4ERR_NOT_SAME)" "PUTFH:$RW_FH" LOOKUP:sm READDIR:3,8192,verf=ffffffffffffffff
	plan - '' "PUTFH:$RW_FH" LOOKUP:big GETFH:big
	plan_cmd "READDIR of 2000 entries in replies of at most 600 bytes: each once, then eof" \
		'readdir_calls=[0-9]+ entries=2000 distinct=2000 eof=1 rd_status=NFS4_OK' \
		readdir_all 0 @big 600
	S_BIG=$PLAN_N
	plan_cmd "... and with attributes, in replies of at most 4000 bytes" \
		'readdir_calls=[0-9]+ entries=2000 distinct=2000 eof=1 rd_status=NFS4_OK' \
		readdir_all 0 @big 4000 type,fileid,size
	plan_run
	expect_eq "READDIR lists the names there, not '.' and '..'" \
		"$(sorted_list "$(sfield "$S_SM" rd_names)")" "a,b,c"
	expect_eq "... with their types" \
		"$(sfield "$S_SM" rd.a.type) $(sfield "$S_SM" rd.c.type)" "NF4REG NF4DIR"
	n=0
	for s in $(sfield "$S_SM" rd_cookies | tr , ' '); do
		case $s in 0 | 1 | 2 | *[!0-9]*) n=$((n + 1)) ;; esac
	done
	if [ "$n" -eq 0 ] && [ -n "$(sfield "$S_SM" rd_cookies)" ]; then
		ok "READDIR's cookies are above the reserved 0, 1 and 2: $(sfield "$S_SM" rd_cookies)"
	else
		not_ok "READDIR's cookies: $(sfield "$S_SM" rd_cookies)" "$(stepout "$S_SM")"
	fi
	expect_eq "the 2000 names are the directory's on the server" \
		"$(stepout "$S_BIG" | sed -n 's/^name=\([^ ]*\) .*/\1/p' | sort | md5sum)" \
		"$(cd "$RW/big" && printf '%s\n' * | sort | md5sum)"
	got=$(sfield "$S_BIG" readdir_calls)
	if [ "${got:-0}" -ge 20 ]; then
		ok "... in $got replies"
	else
		not_ok "2000 entries in replies of 600 bytes: $got replies" "$(stepout "$S_BIG" | tail -3)"
	fi

	# -- OPEN, READ, WRITE, COMMIT, OPEN_DOWNGRADE, CLOSE, stateids (18.16, 18.22, 18.32, 8.2)
	plan_begin integ-fo-open
	plan "OPEN, READ with the current stateid, CLOSE (16.2.3.1.2)" \
		"$OK4.* read_len=12 read_eof=1 read_data=$(hex 'hello, open!')" \
		"PUTFH:$RW_FH" OPEN:o,read,none READ:0,100,current CLOSE:current
	plan "OPEN for reading" "$OK4.* stateid=00000001" "PUTFH:$RW_FH" OPEN:o,read,none
	S_O1=$PLAN_N
	plan "READ with its stateid, short of the end: not eof" \
		"$OK4.* read_len=5 read_eof=0 read_data=$(hex hello) " "PUTFH:$RW_FH" LOOKUP:o READ:0,5,last
	plan "WRITE with a read-only open: OPENMODE (18.32.3)" "$(E WRITE NFS4ERR_OPENMODE)" \
		"PUTFH:$RW_FH" LOOKUP:o WRITE:0,zz,filesync,last
	plan "OPEN again for writing, same owner: the stateid's seqid goes up (upgrade)" \
		"$OK4.* stateid=00000002" "PUTFH:$RW_FH" OPEN:o,write,none
	S_O2=$PLAN_N
	plan "READ with the stateid of before the upgrade: OLD_STATEID (8.2.2)" \
		"$(E READ NFS4ERR_OLD_STATEID)" "PUTFH:$RW_FH" LOOKUP:o READ:0,5,prev
	plan "WRITE with the upgraded stateid" "$OK4.* written=1 committed=FILE_SYNC4 " \
		"PUTFH:$RW_FH" LOOKUP:o 'WRITE:11,?,filesync,last'
	plan "OPEN_DOWNGRADE to reading" "$OK4.* stateid=00000003" \
		"PUTFH:$RW_FH" LOOKUP:o OPEN_DOWNGRADE:read,none,last
	plan "WRITE after the downgrade: OPENMODE" "$(E WRITE NFS4ERR_OPENMODE)" \
		"PUTFH:$RW_FH" LOOKUP:o WRITE:0,x,filesync,last
	plan "OPEN_DOWNGRADE to more than it holds: INVAL (18.18.3)" \
		"$(E OPEN_DOWNGRADE NFS4ERR_INVAL)" "PUTFH:$RW_FH" LOOKUP:o OPEN_DOWNGRADE:both,none,last
	plan "TEST_STATEID: the open's OK, its old seqid OLD_STATEID, the anonymous BAD (18.48)" \
		"$OK4.* test_codes=NFS4_OK,NFS4ERR_OLD_STATEID,NFS4ERR_BAD_STATEID" \
		TEST_STATEID:last,prev,anon
	plan "FREE_STATEID of an open stateid: LOCKS_HELD (18.38.3)" \
		"$(E FREE_STATEID NFS4ERR_LOCKS_HELD)" FREE_STATEID:last
	plan "CLOSE: the invalid special stateid back (18.2.3)" \
		"$OK4.* closed_stateid=ffffffff000000000000000000000000" "PUTFH:$RW_FH" LOOKUP:o CLOSE:last
	plan "READ with the closed stateid: BAD_STATEID" "$(E READ NFS4ERR_BAD_STATEID)" \
		"PUTFH:$RW_FH" LOOKUP:o READ:0,1,last
	plan "CLOSE of the closed stateid: BAD_STATEID" "$(E CLOSE NFS4ERR_BAD_STATEID)" \
		"PUTFH:$RW_FH" LOOKUP:o CLOSE:last
	plan "TEST_STATEID of the closed stateid: BAD_STATEID" \
		"$OK4.* test_codes=NFS4ERR_BAD_STATEID" TEST_STATEID:last
	plan "READ with the current stateid when none was set: BAD_STATEID" \
		"$(E READ NFS4ERR_BAD_STATEID)" "PUTFH:$RW_FH" LOOKUP:o READ:0,1,current
	plan "READ with the current stateid after CLOSE (the invalid one): BAD_STATEID" \
		"$(E READ NFS4ERR_BAD_STATEID)" "PUTFH:$RW_FH" OPEN:o,read,none CLOSE:current READ:0,1,current
	plan "READ with the READ bypass stateid" "$OK4.* read_len=5 " \
		"PUTFH:$RW_FH" LOOKUP:o READ:0,5,bypass
	plan "READ with the anonymous stateid" "$OK4.* read_len=5 " "PUTFH:$RW_FH" LOOKUP:o READ:0,5,anon
	plan "READ past the end: nothing, eof" "$OK4.* read_len=0 read_eof=1 " \
		"PUTFH:$RW_FH" LOOKUP:o READ:1000,10
	# The first READ's data goes out from the worker's buffer or a pipe,
	# the second's from the call's own room: both must arrive whole.
	plan "two large READs in one compound: 200000 bytes, then the last 100000 with eof" \
		"$OK4.* read_len=200000 read_eof=0 .* read_len=100000 read_eof=1 " \
		"PUTFH:$RW_FH" LOOKUP:rbig READ:0,200000,anon READ:200000,200000,anon
	S_RBIG=$PLAN_N
	plan "OPEN of a directory: ISDIR (18.16.3)" "$(E OPEN NFS4ERR_ISDIR)" "PUTFH:$RW_FH" OPEN:d,read,none
	plan "OPEN of a symbolic link: SYMLINK" "$(E OPEN NFS4ERR_SYMLINK)" "PUTFH:$RW_FH" OPEN:l,read,none
	plan "OPEN of a name not there, no create: NOENT" "$(E OPEN NFS4ERR_NOENT)" \
		"PUTFH:$RW_FH" OPEN:nosuch,read,none
	plan "OPEN named '': INVAL" "$(E OPEN NFS4ERR_INVAL)" "PUTFH:$RW_FH" OPEN:,read,none
	plan "OPEN with share access 0: INVAL (18.16.3)" "$(E OPEN NFS4ERR_INVAL)" \
		"PUTFH:$RW_FH" OPEN:o,0,none
	plan "OPEN with share deny 4: INVAL" "$(E OPEN NFS4ERR_INVAL)" "PUTFH:$RW_FH" OPEN:o,read,4
	plan "OPEN by CLAIM_FH of a directory: ISDIR" "$(E OPEN NFS4ERR_ISDIR)" \
		"PUTFH:$RW_FH" LOOKUP:d OPEN_FH:read,none
	plan "OPEN by CLAIM_FH of a file, READ, CLOSE" "$OK4.* read_len=12 " \
		"PUTFH:$RW_FH" LOOKUP:o OPEN_FH:read,none READ:0,100,current CLOSE:current
	plan "READ of a directory: ISDIR (18.22.3)" "$(E READ NFS4ERR_ISDIR)" "PUTFH:$RW_FH" LOOKUP:d READ:0,10
	plan "WRITE to a directory: ISDIR" "$(E WRITE NFS4ERR_ISDIR)" "PUTFH:$RW_FH" LOOKUP:d WRITE:0,x
	plan "COMMIT of a directory: ISDIR (18.3.3)" "$(E COMMIT NFS4ERR_ISDIR)" \
		"PUTFH:$RW_FH" LOOKUP:d COMMIT
	plan "OPEN UNCHECKED4 of a new file, mode 0604: attrset {mode}" \
		"$OK4.* attrset=mode cinfo_before=.* cinfo_atomic=1 cinfo_changed=1" \
		"PUTFH:$RW_FH" OPEN:u1,both,none,unchecked,mode=0604 CLOSE:current
	plan "OPEN UNCHECKED4 again: the file there, opened, the directory unchanged" \
		"$OK4.* cinfo_atomic=1 cinfo_changed=0" \
		"PUTFH:$RW_FH" OPEN:u1,both,none,unchecked,mode=0666 CLOSE:current
	plan "OPEN UNCHECKED4 of a file there with size 0: truncated" "$OK4" \
		"PUTFH:$RW_FH" OPEN:trunc,write,none,unchecked,size=0 GETATTR:size CLOSE:current
	S_TRUNC=$PLAN_N
	plan "OPEN GUARDED4 of a new file" "$OK4" "PUTFH:$RW_FH" OPEN:g1,both,none,guarded CLOSE:current
	plan "OPEN GUARDED4 again: EXIST (18.16.3)" "$(E OPEN NFS4ERR_EXIST)" \
		"PUTFH:$RW_FH" OPEN:g1,both,none,guarded
	plan "OPEN EXCLUSIVE4_1 of a new file, mode 0640" "$OK4" \
		"PUTFH:$RW_FH" OPEN:e1,both,none,exclusive4_1,verf=1111111111111111,mode=0640 \
		GETATTR:fileid CLOSE:current
	S_E1=$PLAN_N
	plan "OPEN EXCLUSIVE4_1 retried with the same verifier: the same file (18.16.3)" "$OK4" \
		"PUTFH:$RW_FH" OPEN:e1,both,none,exclusive4_1,verf=1111111111111111,mode=0640 \
		GETATTR:fileid CLOSE:current
	S_E2=$PLAN_N
	plan "OPEN EXCLUSIVE4_1 with another verifier: EXIST" "$(E OPEN NFS4ERR_EXIST)" \
		"PUTFH:$RW_FH" OPEN:e1,both,none,exclusive4_1,verf=2222222222222222
	plan "OPEN EXCLUSIVE4_1 setting a time (not in suppattr_exclcreat): INVAL" \
		"$(E OPEN NFS4ERR_INVAL)" \
		"PUTFH:$RW_FH" OPEN:e2,both,none,exclusive4_1,time_modify_set=server
	plan "OPEN, WRITE (FILE_SYNC4, then UNSTABLE4), COMMIT, GETATTR, CLOSE" \
		"$OK4.* written=5 committed=FILE_SYNC4 .* written=1000 committed=[A-Z_0-9]+ .* attr_size=1005 " \
		"PUTFH:$RW_FH" OPEN:w1,both,none,unchecked GETATTR:change WRITE:0,hello,filesync,current \
		WRITE:5,pat:1000,unstable,current COMMIT GETATTR:size,change CLOSE:current
	S_W1=$PLAN_N
	plan "WRITE to a file of the ro export: ROFS (18.32.3)" "$(E WRITE NFS4ERR_ROFS)" \
		"PUTFH:$RO_FH" LOOKUP:r WRITE:0,x,filesync,anon
	plan "OPEN for writing on the ro export: ROFS" "$(E OPEN NFS4ERR_ROFS)" \
		"PUTFH:$RO_FH" OPEN:r,write,none
	plan "OPEN with create on the ro export: ROFS" "$(E OPEN NFS4ERR_ROFS)" \
		"PUTFH:$RO_FH" OPEN:new,both,none,unchecked
	plan "OPEN for reading on the ro export, READ, CLOSE" "$OK4.* read_data=$(hex 'read only') " \
		"PUTFH:$RO_FH" OPEN:r,read,none READ:0,9,current CLOSE:current
	plan_run
	expect_eq "the two READs' data is the file's (FNV-1a of each part)" \
		"$(sfieldn "$S_RBIG" read_hash 1) $(sfieldn "$S_RBIG" read_hash 2)" \
		"$(fnv1a64 "$RW/rbig" 0 200000) $(fnv1a64 "$RW/rbig" 200000 100000)"
	s=$(sfield "$S_O1" stateid)
	expect_eq "the upgrade keeps the stateid's other" "$(sfield "$S_O2" stateid | cut -c9-)" "${s:8}"
	expect_eq "OPEN UNCHECKED4 made u1 with mode 0604, and the second (mode 0666) left it" \
		"$(stat -c %a "$RW/u1" 2>&1)" 604
	expect_eq "OPEN UNCHECKED4 with size 0 truncated the file" \
		"$(sfield "$S_TRUNC" attr_size) $(stat -c %s "$RW/trunc" 2>&1)" "0 0"
	expect_eq "EXCLUSIVE4_1's retry opened the file it made" \
		"$(sfield "$S_E2" attr_fileid)" "$(sfield "$S_E1" attr_fileid)"
	expect_eq "EXCLUSIVE4_1 applied the mode" "$(stat -c %a "$RW/e1" 2>&1)" 640
	expect_eq "... and the refused one made no e2" "$(present "$RW" e2)" ""
	got=$(sfieldn "$S_W1" attr_change 1)
	if [ -n "$got" ] && [ "$got" != "$(sfieldn "$S_W1" attr_change 2)" ]; then
		ok "WRITE changes the file's change attribute (5.8.1.4)"
	else
		not_ok "change attribute before and after WRITE: '$got', '$(sfieldn "$S_W1" attr_change 2)'" \
			"$(stepout "$S_W1")"
	fi
	expect_eq "COMMIT's write verifier is WRITE's" \
		"$(sfieldn "$S_W1" writeverf 3)" "$(sfieldn "$S_W1" writeverf 1)"
	expect_file "the data written is in the export directory" "$RW/w1" \
		"hello$(printf 'abcdefghijklmnopqrstuvwxyz%.0s' $(seq 39) | head -c 1000)"
	expect_file "the upgraded stateid's WRITE is there too" "$RW/o" "hello, open?"
	expect_file "the ro export's file is unchanged" "$RO/r" "read only"
	expect_eq "... and OPEN made nothing there" "$(ls -A "$RO")" r

	# -- RECLAIM_COMPLETE before the first new open (RFC 8881 18.51.3, pynfs RECC3):
	# until the client has said it, its new opens are GRACE
	run4 exchange_id integ-fo-recc ++ create_session \
		++ sequence 0 1 "PUTFH:$RW_FH" OPEN:recc,both,none,unchecked ++ sequence 0 2 RECLAIM_COMPLETE \
		++ sequence 0 3 "PUTFH:$RW_FH" OPEN:recc,both,none,unchecked CLOSE:current
	step_expect "OPEN before the client's RECLAIM_COMPLETE: GRACE (RECC3)" 3 "$(E OPEN NFS4ERR_GRACE)"
	step_expect "OPEN after it: the file opens, and closes" 5 "$OK4.* closed_stateid="

	# -- share reservations (9.7): client A denies writers, client B is refused
	plan_begin integ-fo-share-a
	plan "client A: OPEN for reading, denying writers" "$OK4.* stateid=00000001" \
		"PUTFH:$RW_FH" OPEN:sh,read,write,unchecked
	S_A_OPEN=$PLAN_N
	plan "client A, another open owner: OPEN for writing: SHARE_DENIED too" \
		"$(E OPEN NFS4ERR_SHARE_DENIED)" "PUTFH:$RW_FH" OPEN:sh,write,none,open_owner=other
	plan "client A, another open owner: OPEN for reading" "$OK4" \
		"PUTFH:$RW_FH" OPEN:sh,read,none,open_owner=other CLOSE:current
	plan_run
	cid=$(sfield 1 clientid) ses=$(sfield 2 sessionid) sid=$(sfield "$S_A_OPEN" stateid)
	if [ -n "$cid" ] && [ -n "$ses" ] && [ "${#sid}" -eq 32 ]; then
		plan_begin integ-fo-share-b
		plan "client B: OPEN for writing: SHARE_DENIED (18.16.3)" "$(E OPEN NFS4ERR_SHARE_DENIED)" \
			"PUTFH:$RW_FH" OPEN:sh,write,none
		plan "client B: OPEN for reading and writing: SHARE_DENIED" \
			"$(E OPEN NFS4ERR_SHARE_DENIED)" "PUTFH:$RW_FH" OPEN:sh,both,none
		plan "client B: OPEN denying readers, while A reads: SHARE_DENIED" \
			"$(E OPEN NFS4ERR_SHARE_DENIED)" "PUTFH:$RW_FH" OPEN:sh,read,read
		plan "client B: WRITE with the anonymous stateid: LOCKED (9.7)" \
			"$(E WRITE NFS4ERR_LOCKED)" "PUTFH:$RW_FH" LOOKUP:sh WRITE:0,bbb,filesync,anon
		plan "client B: SETATTR of the size with the anonymous stateid: LOCKED" \
			"$(E SETATTR NFS4ERR_LOCKED)" "PUTFH:$RW_FH" LOOKUP:sh SETATTR:size=0,anon
		plan "client B: READ with the anonymous stateid: OK, reading is not denied" "$OK4" \
			"PUTFH:$RW_FH" LOOKUP:sh READ:0,10,anon
		plan "client B: OPEN for reading, READ, CLOSE" "$OK4" \
			"PUTFH:$RW_FH" OPEN:sh,read,none READ:0,10,current CLOSE:current
		plan "client B: READ with A's stateid: BAD_STATEID (another client's)" \
			"$(E READ NFS4ERR_BAD_STATEID)" "PUTFH:$RW_FH" LOOKUP:sh "READ:0,1,$sid"
		plan_run
		bcid=$(sfield 1 clientid) bses=$(sfield 2 sessionid)
		# seqid + 1, and another other of this server instance (its first 4 bytes)
		bad=$(printf '%08x' $((0x${sid:0:8} + 1)))${sid:8}
		plan_resume "$cid" "$ses" 1
		plan "client A again: READ with its stateid's seqid one ahead: BAD_STATEID (8.2.2)" \
			"$(E READ NFS4ERR_BAD_STATEID)" "PUTFH:$RW_FH" LOOKUP:sh "READ:0,1,$bad"
		plan "client A again: READ with an invented stateid: BAD_STATEID" \
			"$(E READ NFS4ERR_BAD_STATEID)" "PUTFH:$RW_FH" LOOKUP:sh \
			"READ:0,1,${sid:0:16}0badbad0badbad0b"
		plan "client A again: READ with seqid 0, the current (8.2.2)" "$OK4" \
			"PUTFH:$RW_FH" LOOKUP:sh "READ:0,1,00000000${sid:8}"
		plan "client A again: CLOSE" "$OK4" "PUTFH:$RW_FH" LOOKUP:sh "CLOSE:$sid"
		plan "client A again: CLOSE once more: BAD_STATEID" "$(E CLOSE NFS4ERR_BAD_STATEID)" \
			"PUTFH:$RW_FH" LOOKUP:sh "CLOSE:$sid"
		plan_run
		plan_resume "$bcid" "$bses" 1
		plan "client B after A's CLOSE: OPEN for writing" "$OK4" "PUTFH:$RW_FH" OPEN:sh,write,none
		plan "client B after A's CLOSE: WRITE with the anonymous stateid" "$OK4.* written=3 " \
			"PUTFH:$RW_FH" LOOKUP:sh WRITE:0,bbb,filesync,anon
		plan_run
		expect_file "client B's data is in the file" "$RW/sh" bbb
	else
		not_ok "client A's OPEN gave no client id, session or stateid" "$OUT"
	fi

	# -- LOCK and LOCKU naming the current stateid (RFC 8881 16.2.3.1.2; pynfs CSID2, CSID4)
	plan_begin integ-fo-lock
	plan "OPEN for the locks" "$OK4" "PUTFH:$RW_FH" OPEN:lk,both,none,unchecked GETFH:lk
	plan "LOCK, LOCKU of the current stateid, LOCK's (CSID2)" \
		"$OK4.* lock_stateid=00000001.* lock_stateid=00000002" \
		PUTFH:@lk LOCK:write,0,max,new,#1 LOCKU:write,0,max,current
	plan "LOCK, WRITE and LOCKU of the current stateid (CSID4)" "$OK4.* written=4 " \
		PUTFH:@lk LOCK:write,0,max,exist,#3 WRITE:5,data,filesync,current LOCKU:write,0,max,current
	plan "LOCK by a new owner from the current stateid, OPEN's" "$OK4.* lock_stateid=00000001" \
		"PUTFH:$RW_FH" OPEN:lk,both,none LOCK:read,0,10,new,current,lock_owner=lk2 \
		LOCKU:read,0,10,current
	plan "LOCKU of the current stateid when none was set: BAD_STATEID" \
		"$(E LOCKU NFS4ERR_BAD_STATEID)" PUTFH:@lk LOCKU:write,0,max,current
	plan "CLOSE" "$OK4" PUTFH:@lk CLOSE:#6
	plan_run

	# -- CREATE, REMOVE, RENAME, LINK, SETATTR (18.4, 18.25, 18.26, 18.9, 18.30)
	plan_begin integ-fo-dirops
	plan "CREATE of a directory: it is the current filehandle, cinfo changes" \
		"$OK4.* cinfo_atomic=1 cinfo_changed=1 .* attr_type=NF4DIR" "PUTFH:$RW_FH" CREATE:dir,cd1 GETFH GETATTR:type
	plan "CREATE of it again: EXIST" "$(E CREATE NFS4ERR_EXIST)" "PUTFH:$RW_FH" CREATE:dir,cd1
	plan "CREATE of a regular file (OPEN's): BADTYPE (18.4.3)" "$(E CREATE NFS4ERR_BADTYPE)" \
		"PUTFH:$RW_FH" CREATE:reg,cr
	plan "CREATE of a symbolic link, READLINK of it" "$OK4.* link=target\$" \
		"PUTFH:$RW_FH" CREATE:symlink,cl,target READLINK
	plan "CREATE of a symbolic link with empty text: INVAL" "$(E CREATE NFS4ERR_INVAL)" \
		"PUTFH:$RW_FH" CREATE:symlink,cl2,
	plan "CREATE of a fifo" "$OK4.* attr_type=NF4FIFO" "PUTFH:$RW_FH" CREATE:fifo,cf GETATTR:type
	plan "CREATE named '': INVAL" "$(E CREATE NFS4ERR_INVAL)" "PUTFH:$RW_FH" CREATE:dir,
	plan "CREATE named '.': BADNAME" "$(E CREATE NFS4ERR_BADNAME)" "PUTFH:$RW_FH" CREATE:dir,.
	plan "CREATE of a 256-byte name: NAMETOOLONG" "$(E CREATE NFS4ERR_NAMETOOLONG)" \
		"PUTFH:$RW_FH" CREATE:dir,pat:256
	plan "CREATE with a file as the current filehandle: NOTDIR" "$(E CREATE NFS4ERR_NOTDIR)" \
		"PUTFH:$RW_FH" LOOKUP:f CREATE:dir,x
	plan "CREATE at the pseudo root: ROFS" "$(E CREATE NFS4ERR_ROFS)" PUTROOTFH CREATE:dir,x
	plan "CREATE in the ro export: ROFS" "$(E CREATE NFS4ERR_ROFS)" "PUTFH:$RO_FH" CREATE:dir,x
	plan "CREATE of a directory with mode 0700: attrset {mode}" "$OK4.* attrset=mode\$" \
		"PUTFH:$RW_FH" CREATE:dir,cd2,mode=0700
	plan "CREATE with a size among the attributes: INVAL" "$(E CREATE NFS4ERR_INVAL)" \
		"PUTFH:$RW_FH" CREATE:dir,cd3,size=0
	plan "REMOVE of a fifo" "$OK4.* cinfo_atomic=1 cinfo_changed=1" "PUTFH:$RW_FH" REMOVE:cf
	plan "REMOVE of an empty directory" "$OK4" "PUTFH:$RW_FH" REMOVE:cd1
	plan "REMOVE of a symbolic link" "$OK4" "PUTFH:$RW_FH" REMOVE:cl
	plan "REMOVE of a name not there: NOENT" "$(E REMOVE NFS4ERR_NOENT)" "PUTFH:$RW_FH" REMOVE:cd1
	plan "REMOVE of a directory not empty: NOTEMPTY (18.25.3)" "$(E REMOVE NFS4ERR_NOTEMPTY)" \
		"PUTFH:$RW_FH" REMOVE:sm
	plan "REMOVE with a file as the current filehandle: NOTDIR" "$(E REMOVE NFS4ERR_NOTDIR)" \
		"PUTFH:$RW_FH" LOOKUP:f REMOVE:x
	plan "REMOVE in the ro export: ROFS" "$(E REMOVE NFS4ERR_ROFS)" "PUTFH:$RO_FH" REMOVE:r
	plan "RENAME in one directory" \
		"$OK4.* src_cinfo_atomic=1 src_cinfo_changed=1 .* tgt_cinfo_atomic=1 tgt_cinfo_changed=1" \
		"PUTFH:$RW_FH" SAVEFH RENAME:rn1,rn2
	plan "RENAME into another directory" "$OK4" "PUTFH:$RW_FH" SAVEFH LOOKUP:d RENAME:rn2,rn3
	plan "RENAME of a name to itself: OK, nothing done (18.26.3)" "$OK4" \
		"PUTFH:$RW_FH" SAVEFH RENAME:rnf,rnf
	plan "RENAME of a file over another file: it replaces it" "$OK4" \
		"PUTFH:$RW_FH" SAVEFH RENAME:rf1,rf2
	plan "RENAME without SAVEFH: NOFILEHANDLE" "$(E RENAME NFS4ERR_NOFILEHANDLE)" \
		"PUTFH:$RW_FH" RENAME:rn3,rn4
	plan "RENAME of a name not there: NOENT" "$(E RENAME NFS4ERR_NOENT)" \
		"PUTFH:$RW_FH" SAVEFH RENAME:nosuch,rn4
	plan "RENAME of a file over a directory not empty: EXIST (18.26.3)" \
		"$(E RENAME NFS4ERR_EXIST)" "PUTFH:$RW_FH" SAVEFH RENAME:rnf,ne
	plan "RENAME of a directory into its own subdirectory: INVAL" "$(E RENAME NFS4ERR_INVAL)" \
		"PUTFH:$RW_FH" SAVEFH LOOKUP:dd LOOKUP:sub RENAME:dd,x
	plan "RENAME from one export to another: XDEV" "$(E RENAME NFS4ERR_XDEV)" \
		"PUTFH:$RW_FH" SAVEFH "PUTFH:$FAR_FH" RENAME:rnf,rnf
	plan "RENAME in the ro export: ROFS" "$(E RENAME NFS4ERR_ROFS)" \
		"PUTFH:$RO_FH" SAVEFH RENAME:r,r2
	plan "LINK of a file" "$OK4.* cinfo_atomic=1 cinfo_changed=1 .* attr_numlinks=2" \
		"PUTFH:$RW_FH" LOOKUP:lf SAVEFH "PUTFH:$RW_FH" LINK:lf2 LOOKUP:lf2 GETATTR:numlinks
	plan "LINK to a name there: EXIST" "$(E LINK NFS4ERR_EXIST)" \
		"PUTFH:$RW_FH" LOOKUP:lf SAVEFH "PUTFH:$RW_FH" LINK:lf2
	plan "LINK of a directory: ISDIR (18.9.3)" "$(E LINK NFS4ERR_ISDIR)" \
		"PUTFH:$RW_FH" LOOKUP:d SAVEFH "PUTFH:$RW_FH" LINK:dl
	plan "LINK into another export: XDEV" "$(E LINK NFS4ERR_XDEV)" \
		"PUTFH:$RW_FH" LOOKUP:lf SAVEFH "PUTFH:$FAR_FH" LINK:lx
	plan "LINK without SAVEFH: NOFILEHANDLE" "$(E LINK NFS4ERR_NOFILEHANDLE)" \
		"PUTFH:$RW_FH" LINK:lx
	plan "CREATE twice between two GETATTRs of the directory: the cinfo chain" "$OK4" \
		"PUTFH:$RW_FH" GETATTR:change CREATE:dir,ch1 "PUTFH:$RW_FH" CREATE:dir,ch2 \
		"PUTFH:$RW_FH" GETATTR:change
	S_CHAIN=$PLAN_N
	plan "SETATTR of the mode: attrsset {mode}" "$OK4.* attrsset=mode\$" \
		"PUTFH:$RW_FH" LOOKUP:sa SETATTR:mode=0600
	plan "SETATTR of the size with the anonymous stateid" "$OK4.* attrsset=size\$" \
		"PUTFH:$RW_FH" LOOKUP:sa SETATTR:size=3,anon
	plan "SETATTR of a directory's size: ISDIR (18.30.3)" "$(E SETATTR NFS4ERR_ISDIR)" \
		"PUTFH:$RW_FH" LOOKUP:d SETATTR:size=0
	plan "SETATTR of an owner no one is: BADOWNER, nothing set" \
		"$(E SETATTR NFS4ERR_BADOWNER).* attrsset=\$" \
		"PUTFH:$RW_FH" LOOKUP:sa SETATTR:owner=nosuchuser@nowhere
	plan "SETATTR of owner and group, numeric" "$OK4.* attrsset=owner,owner_group\$" \
		"PUTFH:$RW_FH" LOOKUP:sa SETATTR:owner=4321,owner_group=8765
	plan "SETATTR of the modification time" "$OK4" \
		"PUTFH:$RW_FH" LOOKUP:sa SETATTR:time_modify_set=1000000000
	plan "SETATTR of a read-only attribute (type): INVAL" "$(E SETATTR NFS4ERR_INVAL)" \
		"PUTFH:$RW_FH" LOOKUP:sa SETATTR:type=NF4DIR
	plan "SETATTR of the size with a read-only open's stateid: OPENMODE" \
		"$(E SETATTR NFS4ERR_OPENMODE)" "PUTFH:$RW_FH" OPEN:sa,read,none SETATTR:size=0,current
	plan "SETATTR in the ro export: ROFS" "$(E SETATTR NFS4ERR_ROFS)" \
		"PUTFH:$RO_FH" LOOKUP:r SETATTR:mode=0600
	plan_run
	# atomic TRUE promises that nothing changed the directory between
	# before and after: each change takes up where the last left off.
	expect_eq "change_info4 chains: GETATTR, CREATE, CREATE, GETATTR take up one from the other" \
		"before $(sfieldn "$S_CHAIN" cinfo_before 1), after $(sfieldn "$S_CHAIN" cinfo_after 1), after $(sfieldn "$S_CHAIN" cinfo_after 2)" \
		"before $(sfieldn "$S_CHAIN" attr_change 1), after $(sfieldn "$S_CHAIN" cinfo_before 2), after $(sfieldn "$S_CHAIN" attr_change 2)"
	expect_eq "CREATE made the directory cd2 with mode 0700 on the server" \
		"$(stat -c '%F %a' "$RW/cd2" 2>&1)" "directory 700"
	expect_eq "REMOVE took the fifo, the directory and the symbolic link CREATE made" \
		"$(present "$RW" cf cd1 cl)" ""
	expect_eq "CREATE with a size made nothing, nor CREATE of a regular file or with bad names" \
		"$(present "$RW" cd3 cr cl2 x)" ""
	expect_eq "RENAME moved rn1 to d/rn3" "$(present "$RW" rn1 rn2 rn3) $(present "$RW/d" rn3)" \
		" rn3"
	expect_eq "RENAME over a file: the source's content under the target's name, the source gone" \
		"$(cat "$RW/rf2" 2>&1) [$(present "$RW" rf1)]" "one []"
	expect_eq "the file RENAME refused to put over ne is there, and ne" \
		"$(stat -c %F "$RW/rnf" "$RW/ne" 2>&1 | paste -sd, -)" "regular empty file,directory"
	expect_eq "LINK: the file has two links on the server" "$(stat -c %h "$RW/lf" 2>&1)" 2
	expect_eq "SETATTR's mode, size, owner, group and mtime on the server" \
		"$(stat -c '%a %s %u %g %Y' "$RW/sa" 2>&1)" "600 3 4321 8765 1000000000"
	expect_eq "the ro export unchanged by all of it" "$(ls -A "$RO") $(stat -c %a "$RO/r")" "r 644"
	check_daemon_alive "the file operations"
}

# The exports' contents, made on the server side.
file_ops_setup() {
	local i
	mkdir -p "$RW" "$RO" "$FAR" "$HIDDEN" "$SECRET"
	printf 'hello, nfs4\n' >"$RW/f"
	chown 1234:5678 "$RW/f"
	chmod 0640 "$RW/f"
	printf 'hello, open!' >"$RW/o"
	head -c 300000 /dev/urandom >"$RW/rbig"
	printf 'to be cut' >"$RW/trunc"
	mkdir "$RW/d" "$RW/sm" "$RW/big" "$RW/ne" "$RW/dd" "$RW/dd/sub"
	ln -s f "$RW/l"
	mkfifo "$RW/p"
	: >"$RW/sm/a"
	: >"$RW/sm/b"
	mkdir "$RW/sm/c"
	: >"$RW/ne/x"
	: >"$RW/rn1"
	: >"$RW/rnf"
	: >"$RW/lf"
	echo one >"$RW/rf1"
	echo two >"$RW/rf2"
	printf 'some data' >"$RW/sa"
	for i in $(seq -w 2000); do : >"$RW/big/entry$i"; done
	printf 'read only' >"$RO/r"
	chmod 0644 "$RO/r"
	# 1 MiB with 64 KiB of data at 256 KiB and at 768 KiB, holes around them
	truncate -s 1M "$RW/sp"
	head -c 65536 /dev/urandom | dd of="$RW/sp" bs=64k seek=4 conv=notrunc status=none
	head -c 65536 /dev/urandom | dd of="$RW/sp" bs=64k seek=12 conv=notrunc status=none
	sync "$RW/sp"
}

# NFSv4.2's reads of a sparse file (RFC 7862 15.10, 15.11): READ_PLUS's
# holes and data, SEEK's answers, each against the file on the server.
v42_ops() {
	local segs
	plan_begin integ-v42
	PLAN_ARGS=(-m 2 "${PLAN_ARGS[@]}")
	segs="h:0:262144,d:262144:65536:$(fnv1a64 "$RW/sp" 262144 65536),h:327680:458752"
	segs="$segs,d:786432:65536:$(fnv1a64 "$RW/sp" 786432 65536),h:851968:196608"
	plan "READ_PLUS of a sparse file: its holes as offset and length, its data, eof" \
		"$OK4.* rp_eof=1 rp_segs=$segs " "PUTFH:$RW_FH" LOOKUP:sp READ_PLUS:0,1048576
	plan "READ_PLUS from within data into a hole: both cut at the range's end, no eof" \
		"$OK4.* rp_eof=0 rp_segs=d:300000:27680:$(fnv1a64 "$RW/sp" 300000 27680),h:327680:72320 " \
		"PUTFH:$RW_FH" LOOKUP:sp READ_PLUS:300000,100000
	plan "READ_PLUS to the end of a trailing hole: eof" "$OK4.* rp_eof=1 rp_segs=h:900000:148576 " \
		"PUTFH:$RW_FH" LOOKUP:sp READ_PLUS:900000,1000000
	plan "READ_PLUS past the end: nothing, eof" "$OK4.* rp_eof=1 rp_segs= " \
		"PUTFH:$RW_FH" LOOKUP:sp READ_PLUS:2000000,10
	plan "READ_PLUS of a file without holes: one data segment, its bytes" \
		"$OK4.* rp_eof=0 rp_segs=d:0:200000:$(fnv1a64 "$RW/rbig" 0 200000) " \
		"PUTFH:$RW_FH" LOOKUP:rbig READ_PLUS:0,200000,anon
	plan "two READ_PLUS in one compound, through an open's stateid" \
		"$OK4.* rp_eof=1 rp_segs=d:0:12:$(fnv1a64 "$RW/o" 0 12) .* rp_eof=1 rp_segs=d:6:6:$(fnv1a64 "$RW/o" 6 6) " \
		"PUTFH:$RW_FH" OPEN:o,read,none READ_PLUS:0,100,current READ_PLUS:6,6,current CLOSE:current
	plan "READ_PLUS with a closed open's stateid: BAD_STATEID" "$(E READ_PLUS NFS4ERR_BAD_STATEID)" \
		"PUTFH:$RW_FH" OPEN:o,read,none CLOSE:current READ_PLUS:0,1,current
	plan "READ_PLUS of a directory: ISDIR" "$(E READ_PLUS NFS4ERR_ISDIR)" \
		"PUTFH:$RW_FH" LOOKUP:d READ_PLUS:0,10
	plan "READ_PLUS of a symbolic link: SYMLINK" "$(E READ_PLUS NFS4ERR_SYMLINK)" \
		"PUTFH:$RW_FH" LOOKUP:l READ_PLUS:0,10
	plan "READ_PLUS of a pseudo directory: ISDIR" "$(E READ_PLUS NFS4ERR_ISDIR)" PUTROOTFH READ_PLUS:0,10
	plan "READ_PLUS without a filehandle: NOFILEHANDLE" "$(E READ_PLUS NFS4ERR_NOFILEHANDLE)" \
		READ_PLUS:0,10
	plan "SEEK for data from 0: the first data" "$OK4.* seek_eof=0 seek_offset=262144\$" \
		"PUTFH:$RW_FH" LOOKUP:sp SEEK:0,data
	plan "SEEK for a hole from within data: where it ends" "$OK4.* seek_eof=0 seek_offset=327680\$" \
		"PUTFH:$RW_FH" LOOKUP:sp SEEK:262144,hole
	plan "SEEK for data in the trailing hole: eof (15.11.3)" "$OK4.* seek_eof=1 " \
		"PUTFH:$RW_FH" LOOKUP:sp SEEK:900000,data
	plan "SEEK past the end: NXIO" "$(E SEEK NFS4ERR_NXIO)" "PUTFH:$RW_FH" LOOKUP:sp SEEK:2000000,hole
	plan "SEEK of a directory: ISDIR" "$(E SEEK NFS4ERR_ISDIR)" "PUTFH:$RW_FH" LOOKUP:d SEEK:0,data
	plan "SEEK for neither data nor a hole: UNION_NOTSUPP" "$(E SEEK NFS4ERR_UNION_NOTSUPP)" \
		"PUTFH:$RW_FH" LOOKUP:sp SEEK:0,7
	# Every COPY is synchronous: no stateid names a copy (pynfs COPY10).
	plan "OFFLOAD_STATUS of a copy nobody started: BAD_STATEID" "$(E OFFLOAD_STATUS NFS4ERR_BAD_STATEID)" \
		"PUTFH:$RW_FH" LOOKUP:sp OFFLOAD_STATUS
	plan "OFFLOAD_CANCEL of it: BAD_STATEID" "$(E OFFLOAD_CANCEL NFS4ERR_BAD_STATEID)" \
		"PUTFH:$RW_FH" LOOKUP:sp OFFLOAD_CANCEL
	plan "OFFLOAD_STATUS without a filehandle: NOFILEHANDLE" \
		"$(E OFFLOAD_STATUS NFS4ERR_NOFILEHANDLE)" OFFLOAD_STATUS
	# Extended attributes (RFC 8276), the user. namespace named without its prefix.
	plan "SETXATTR create: the file's change attribute moves" "$OK4.* xattr_changed=1" \
		"PUTFH:$RW_FH" LOOKUP:sp SETXATTR:create,color,hex:626c7565
	plan "SETXATTR create of one that exists: EXIST" "$(E SETXATTR NFS4ERR_EXIST)" \
		"PUTFH:$RW_FH" LOOKUP:sp SETXATTR:create,color,hex:00
	plan "SETXATTR replace of one missing: NOXATTR" "$(E SETXATTR NFS4ERR_NOXATTR)" \
		"PUTFH:$RW_FH" LOOKUP:sp SETXATTR:replace,nosuch,hex:00
	plan "GETXATTR: the value" "$OK4.* xattr_len=4 xattr_value=626c7565" \
		"PUTFH:$RW_FH" LOOKUP:sp GETXATTR:color
	# (ext4 keeps a value in the inode's block: 2000 bytes fit, 64 KiB need ea_inode)
	plan "SETXATTR either: a second one, 2000 bytes" "$OK4" \
		"PUTFH:$RW_FH" LOOKUP:sp SETXATTR:either,big,pat:2000
	plan "SETXATTR of a value past 64 KiB: XATTR2BIG" "$(E SETXATTR NFS4ERR_XATTR2BIG)" \
		"PUTFH:$RW_FH" LOOKUP:sp SETXATTR:either,huge,pat:65537
	plan "LISTXATTRS: both names, without user., eof" "$OK4.* lx_cookie=2 lx_eof=1 lx_names=(color,big|big,color)\$" \
		"PUTFH:$RW_FH" LOOKUP:sp LISTXATTRS:0,4096
	plan "LISTXATTRS with room for one name: the cookie goes on from it" "$OK4.* lx_cookie=1 lx_eof=0 " \
		"PUTFH:$RW_FH" LOOKUP:sp LISTXATTRS:0,28
	plan "LISTXATTRS from cookie 1: the other, eof" "$OK4.* lx_cookie=2 lx_eof=1 lx_names=[a-z]+\$" \
		"PUTFH:$RW_FH" LOOKUP:sp LISTXATTRS:1,4096
	plan "LISTXATTRS too small for any name: TOOSMALL" "$(E LISTXATTRS NFS4ERR_TOOSMALL)" \
		"PUTFH:$RW_FH" LOOKUP:sp LISTXATTRS:0,16
	plan "LISTXATTRS past the end: BAD_COOKIE" "$(E LISTXATTRS NFS4ERR_BAD_COOKIE)" \
		"PUTFH:$RW_FH" LOOKUP:sp LISTXATTRS:9,4096
	plan "REMOVEXATTR" "$OK4.* xattr_changed=1" "PUTFH:$RW_FH" LOOKUP:sp REMOVEXATTR:big
	plan "GETXATTR of the removed one: NOXATTR" "$(E GETXATTR NFS4ERR_NOXATTR)" \
		"PUTFH:$RW_FH" LOOKUP:sp GETXATTR:big
	plan "REMOVEXATTR of one missing: NOXATTR" "$(E REMOVEXATTR NFS4ERR_NOXATTR)" \
		"PUTFH:$RW_FH" LOOKUP:sp REMOVEXATTR:big
	plan "GETXATTR of an empty name: INVAL" "$(E GETXATTR NFS4ERR_INVAL)" \
		"PUTFH:$RW_FH" LOOKUP:sp GETXATTR:hex:
	plan "GETXATTR of a name past 250 bytes: NAMETOOLONG" "$(E GETXATTR NFS4ERR_NAMETOOLONG)" \
		"PUTFH:$RW_FH" LOOKUP:sp GETXATTR:pat:251
	plan "SETXATTR on the read-only export: ROFS" "$(E SETXATTR NFS4ERR_ROFS)" \
		"PUTFH:$RO_FH" SETXATTR:either,x,hex:00
	plan "xattr_support: true on the export (ext4, tmpfs)" "$OK4.* attr_xattr_support=(1|true)" \
		"PUTFH:$RW_FH" "GETATTR:xattr_support"
	plan "xattr_support: false on a pseudo directory" "$OK4.* attr_xattr_support=(0|false)" \
		PUTROOTFH "GETATTR:xattr_support"
	plan "ACCESS grants the extended attributes' bits in 4.2 (XAREAD XAWRITE XALIST)" \
		"$OK4.* access_supported=0x1c0 access_granted=0x1c0" "PUTFH:$RW_FH" LOOKUP:sp ACCESS:0x1c0
	plan_run
	python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "user.color").decode())' \
		"$RW/sp" 2>&1 | grep -qx blue &&
		ok "SETXATTR: user.color on the server's file" ||
		not_ok "user.color not on $RW/sp" "$(getfattr -d "$RW/sp" 2>&1)"
	check_daemon_alive "NFSv4.2's READ_PLUS and SEEK"
}

file_ops_setup
file_ops
v42_ops

# ---------------------------------------------------------------------------
# 7. many clients: the tables are bounded (N4_MAX_CLIENTS 1024), memory too

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
	bound=16384
	grep -q libasan "/proc/$(_daemon_real_pid)/maps" 2>/dev/null && bound=$((bound * 4))	# redzones, shadow
	if [ -n "$RSS1" ] && [ -n "$RSS2" ] && [ $((RSS2 - RSS1)) -lt "$bound" ]; then
		ok "memory after 40000 more clients: ${RSS1} -> ${RSS2} KiB"
	else
		not_ok "memory grew with the clients: '${RSS1}' -> '${RSS2}' KiB"
	fi
fi
check_daemon_alive "thousands of EXCHANGE_IDs"

# ---------------------------------------------------------------------------
# 8. the statistics count operations (usernfsctl, the control socket)

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
run_expect "usernfsctl stats shows the NFSv4 state against its bounds" '^  sessions +[0-9]' \
	"$USERNFSCTL" -s "$CTL_SOCK" stats
run4 exchange_id "integ listed owner" ++ create_session
run_expect "usernfsctl clients lists a v4 client with its owner, address and session" \
	'^[0-9a-f]{16} 4\.1  127\.0\.0\.1 +yes +1 +[0-9]+  integ listed owner$' \
	"$USERNFSCTL" -s "$CTL_SOCK" clients
run_expect "... and its JSON" '"owner":"integ listed owner","confirmed":true,"sessions":1' \
	"$USERNFSCTL" -s "$CTL_SOCK" clients --json

# ---------------------------------------------------------------------------
# 9. confirmed clients with sessions: sessions stop at the cache budget

run4 exchange_many 1100 integ-flood-d 64 session
step_expect "1100 EXCHANGE_IDs with CREATE_SESSIONs answered" 1 'sent=1100 exchange_ok=1100 '
if [ "$(sfield 1 session_err)" -gt 0 ] 2>/dev/null &&
	[ "$(sfield 1 session_last)" = NFS4ERR_NOSPC ]; then
	ok "sessions are bounded: $(sfield 1 session_ok) made, then NOSPC"
else
	not_ok "1100 sessions of 64 slots x 4 KiB: no bound met" "$OUT"
fi
check_daemon_alive "1100 sessions"

# ---------------------------------------------------------------------------
# 10. --idmap: owners as name@domain through libnfsidmap (/etc/idmapd.conf's
# language), numbers where the maps know no name, as knfsd with rpc.idmapd

stop_daemon
refused "--idmapd-conf naming a missing file is refused at start" - \
	"--idmapd-conf $WORKDIR/no-such-idmapd.conf: No such file" --idmapd-conf "$WORKDIR/no-such-idmapd.conf"
refused "--idmap without NFSv4 is refused at start" - "--idmap names NFSv4 owners" \
	--idmap --nfs-versions 3
printf '[General]\nDomain = usernfsd.test\n' >"$WORKDIR/idmapd.conf"
start_daemon "$EXPORTS
$FO_EXPORTS" --idmapd-conf "$WORKDIR/idmapd.conf"
run_expect "a restarted server names the same server scope (a client reclaims only then)" \
	" server_scope=$SCOPE1 " v4 tcp exchange_id integ-scope-after-restart
run_expect "--idmap: the log names the domain" 'owners as names in the domain usernfsd\.test' \
	cat "$DAEMON_LOG"
printf 'x' >"$RW/idm"
chown 0:65534 "$RW/idm"
: >"$RW/idm_num"
chown 54321:54322 "$RW/idm_num"
getent passwd 54321 >/dev/null || getent group 54322 >/dev/null &&
	not_ok "uid 54321 or gid 54322 has a name here: the numeric fallback is not tested"
plan_begin integ-idmap
plan "GETATTR: owner root@usernfsd.test, group nogroup@usernfsd.test" \
	"$OK4.* attr_owner=root@usernfsd\\.test attr_owner_group=nogroup@usernfsd\\.test\$" \
	"PUTFH:$RW_FH" LOOKUP:idm GETATTR:owner,owner_group
plan "GETATTR of ids without names: the numbers" \
	"$OK4.* attr_owner=54321 attr_owner_group=54322\$" \
	"PUTFH:$RW_FH" LOOKUP:idm_num GETATTR:owner,owner_group
plan "READDIR's owners are names too" "$OK4.* rd\\.idm\\.owner=root@usernfsd\\.test " \
	"PUTFH:$RW_FH" READDIR:0,65536,owner
plan "SETATTR owner nobody@usernfsd.test, group root@usernfsd.test" "$OK4" \
	"PUTFH:$RW_FH" LOOKUP:idm SETATTR:owner=nobody@usernfsd.test,owner_group=root@usernfsd.test
S_IDM_SET=$PLAN_N
plan "SETATTR owner in another domain: BADOWNER" "$(E SETATTR NFS4ERR_BADOWNER)" \
	"PUTFH:$RW_FH" LOOKUP:idm_num SETATTR:owner=nobody@elsewhere.test
plan "SETATTR owner without a domain: BADOWNER" "$(E SETATTR NFS4ERR_BADOWNER)" \
	"PUTFH:$RW_FH" LOOKUP:idm_num SETATTR:owner=nobody
plan "SETATTR owner nobody knows in our domain: BADOWNER" "$(E SETATTR NFS4ERR_BADOWNER)" \
	"PUTFH:$RW_FH" LOOKUP:idm_num SETATTR:owner=no-such-user-x@usernfsd.test
plan "SETATTR group in another domain: BADOWNER" "$(E SETATTR NFS4ERR_BADOWNER)" \
	"PUTFH:$RW_FH" LOOKUP:idm_num SETATTR:owner_group=root@elsewhere.test
plan "SETATTR with numbers still works (AUTH_SYS, RFC 8881 5.9)" "$OK4" \
	"PUTFH:$RW_FH" LOOKUP:idm_num SETATTR:owner=4321,owner_group=8765
plan "VERIFY of owner by name: SAME" "$OK4" \
	"PUTFH:$RW_FH" LOOKUP:idm VERIFY:owner=nobody@usernfsd.test
plan "the cache answers the same the second time" \
	"$OK4.* attr_owner=nobody@usernfsd\\.test attr_owner_group=root@usernfsd\\.test\$" \
	"PUTFH:$RW_FH" LOOKUP:idm GETATTR:owner,owner_group GETATTR:owner,owner_group
plan_run
expect_eq "SETATTR by name: the server's file is 65534:0" "$(stat -c %u:%g "$RW/idm" 2>&1)" 65534:0
expect_eq "the files BADOWNER refused are unchanged but for the numbers" \
	"$(stat -c %u:%g "$RW/idm_num" 2>&1)" 4321:8765
check_daemon_alive "--idmap"

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
