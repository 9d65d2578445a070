#!/bin/bash
# integ_nfs40.sh - NFSv4.0 (RFC 7530) against tests/nfs4probe as a
# minor version 0 client ("compound 0": no sessions, no SEQUENCE):
#   - --nfs-versions: 4.0 alone serves minor version 0 and no other;
#     4.1,4.2 answer it MINOR_VERS_MISMATCH; 4 is 4.0, 4.1 and 4.2; the
#     default serves all three;
#   - the compound of minor version 0 (RFC 7530 15.2, 16.1): no SEQUENCE,
#     4.1's operations (40 and on) OP_ILLEGAL, PUTROOTFH and GETATTR with
#     no client id, an unknown client id STALE_CLIENTID;
#   - SETCLIENTID's cases (16.33.5) and SETCLIENTID_CONFIRM's (16.34.5):
#     confirmation, its replay, a wrong verifier, a callback update, a
#     client that rebooted (a new verifier: a new client id, the old one
#     serving until the new one is confirmed, then gone with its opens),
#     CLID_INUSE for another principal; RENEW (16.29);
#   - the lease (--lease-time 5, or 10 where 5 is refused): a client
#     quiet for more than two leases is gone, its open with it;
#   - OPEN_CONFIRM (16.18) of a new open owner; the owners' sequence ids
#     (9.1.7, 9.1.8): the next proceeds, the last again is a replay
#     answered as before and not done twice, any other BAD_SEQID, and
#     which errors take a sequence id; the stateids (9.1.4): OLD, BAD and,
#     after a restart, STALE;
#   - LOCK by a new and by an existing lock owner, LOCKT, LOCKU,
#     RELEASE_LOCKOWNER (16.37) with and without locks held;
#   - a 4.0 and a 4.1 client on one file: share reservations and
#     byte-range locks conflict across minor versions;
#   - the duplicate request cache: PUTFH+REMOVE retransmitted with the
#     same XID gets the first reply's bytes, not NOENT;
#   - the nfs4ops statistics count SETCLIENTID, RENEW and OPEN_CONFIRM;
#   - a restart (--grace 20): the old client id is STALE_CLIENTID, its
#     stateid STALE_STATEID, a new OPEN in the grace period GRACE, and
#     the client that held an open reclaims it (CLAIM_PREVIOUS).
# One daemon serves sections 2 to 10 (three short ones check the version
# lists first); the quiet client of section 3 goes quiet early, so that
# its two leases pass while the other sections run.
. "$(dirname "$0")/lib.sh"

NFS4PROBE=${NFS4PROBE:-$top_builddir/tests/nfs4probe}
[ -x "$NFS4PROBE" ] || skip "nfs4probe not built ($NFS4PROBE): run make check"
need_cmd rpcinfo jq
setup
start_rpcbind

EXP=$WORKDIR/v40
mkdir -p "$EXP"
EXPORTS="$EXP 127.0.0.1(rw,insecure,no_root_squash)"
printf '%s\n' "$EXPORTS" >"$EXPORTS_FILE"
# The shortest lease the daemon takes of 5 s and 10 s (rpc.nfsd's least):
# the quiet client of section 3 waits two of them.
LEASE=5
if ! "$USERNFSD" --check-exports --exports "$EXPORTS_FILE" --lease-time "$LEASE" >/dev/null 2>&1; then
	echo "note: usernfsd refuses --lease-time $LEASE; the lease is 10 s"
	LEASE=10
fi
printf 'hello, v4.0\n' >"$EXP/f"
printf 'gee\n' >"$EXP/g"
# Verifiers of SETCLIENTID (nfs_client_id4.verifier), a client's boot instances.
V1=1111111111111111 V2=2222222222222222 V3=3333333333333333
WRONG=ffffffffffffffff

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
# E OP STATUS: the ERE of a compound whose last result is OP's, with STATUS
# (an ERE itself: NFS4ERR_(A|B) for either)
E() {
	printf 'status=%s nres=[0-9]+ .*op[0-9]+=OP_%s:%s reply=' "$2" "$1" "$2"
}
OK4='status=NFS4_OK '
MISMATCH='status=NFS4ERR_MINOR_VERS_MISMATCH nres=0 '
NOT_IN_SESSION='status=NFS4ERR_OP_NOT_IN_SESSION nres=1 '
ILLEGAL='status=NFS4ERR_OP_ILLEGAL nres=1 op0=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '

# A plan: the steps one nfs4probe process runs, and what each must print.
# plan_begin: a new plan
# c0 DESC ERE OP...: a compound of minor version 0 as the next step (DESC
#   -: no check); its step number is $P_N
# pcmd DESC ERE COMMAND ARGS...: a probe command of its own as a step
# client40 ID [VERF]: SETCLIENTID and SETCLIENTID_CONFIRM, two steps
# plan_run: runs the process, then every check
plan_begin() {
	P_ARGS=() P_N=0 P_DESC=() P_ERE=() P_STEP=()
}
pcmd() {
	P_N=$((P_N + 1))
	if [ "$1" != - ]; then
		P_DESC+=("$1") P_ERE+=("$2") P_STEP+=("$P_N")
	fi
	shift 2
	[ "${#P_ARGS[@]}" -eq 0 ] || P_ARGS+=(++)
	P_ARGS+=("$@")
}
c0() {
	local d=$1 e=$2
	shift 2
	pcmd "$d" "$e" compound 0 "$@"
}
client40() {
	c0 - '' "SETCLIENTID:${2:-$V1},$1"
	c0 "client $1: SETCLIENTID, SETCLIENTID_CONFIRM" "$OK4" SETCLIENTID_CONFIRM
}
plan_run() {
	local i
	run4 "${P_ARGS[@]}"
	for i in "${!P_STEP[@]}"; do
		step_expect "${P_DESC[$i]}" "${P_STEP[$i]}" "${P_ERE[$i]}"
	done
}
# rflag_confirm DESC STEP yes|no: OPEN4_RESULT_CONFIRM (2) in step STEP's rflags
rflag_confirm() {
	local rf got=no
	rf=$(sfield "$2" rflags)
	if [ -z "$rf" ]; then
		not_ok "$1: no rflags in step $2" "command: $LAST_CMD
$(stepout "$2")"
		return
	fi
	[ $((rf & 2)) -eq 0 ] || got=yes
	expect_eq "$1" "$got" "$3" "rflags=$rf; $(stepout "$2")"
}
# have DESC VALUE...: 0 when every VALUE is there; else one failed check
have() {
	local d=$1 v
	shift
	for v in "$@"; do
		if [ -z "$v" ]; then
			not_ok "$d: a value from an earlier step is missing" "command: $LAST_CMD
$OUT"
			return 1
		fi
	done
}
# present DIR NAME...: those of the NAMEs DIR holds, space-separated
present() {
	local d=$1 n out=
	shift
	for n in "$@"; do
		if [ -e "$d/$n" ]; then out="$out${out:+ }$n"; fi
	done
	printf '%s' "$out"
}
# path_ops PATH: LOOKUP:COMPONENT for each component of PATH, in PATH_OPS
path_ops() {
	local IFS=/ c
	PATH_OPS=()
	for c in $1; do
		[ -n "$c" ] && PATH_OPS+=("LOOKUP:$c")
	done
}
# wait_until T: sleep until the epoch second T
wait_until() {
	local now
	now=$(date +%s)
	[ "$now" -ge "$1" ] || sleep $(($1 - now))
}
# jdelta PROCEDURE JQ-EXPR: after.json's value of nfs4ops PROCEDURE less before.json's
jdelta() {
	local f v=()
	for f in "$WORKDIR/before.json" "$WORKDIR/after.json"; do
		v+=("$(jq -r --arg n "$1" \
			"[.procedures[] | select(.program == \"nfs4ops\" and .procedure == \$n) | $2 // 0] | add // 0" \
			"$f" 2>/dev/null)")
	done
	echo $((${v[1]:-0} - ${v[0]:-0}))
}

T_START=$(date +%s)

# ---------------------------------------------------------------------------
# 1. --nfs-versions: 4.0 is a version of its own; 4 is all three minors

start_daemon "$EXPORTS" --nfs-versions 4.1,4.2
expect_reg "--nfs-versions 4.1,4.2 registers NFS v4 on tcp" yes "$NFS_PROG" 4 tcp
run4 compound 0 PUTROOTFH ++ compound 0 ++ compound 1 PUTROOTFH ++ compound 2 PUTROOTFH
step_expect "--nfs-versions 4.1,4.2: minor version 0 is MINOR_VERS_MISMATCH, no results" 1 "$MISMATCH"
step_expect "--nfs-versions 4.1,4.2: an empty compound of minor version 0 too" 2 "$MISMATCH"
step_expect "--nfs-versions 4.1,4.2: minor version 1 is served" 3 "$NOT_IN_SESSION"
step_expect "--nfs-versions 4.1,4.2: minor version 2 is served" 4 "$NOT_IN_SESSION"
stop_daemon

start_daemon "$EXPORTS" --nfs-versions 4.0
expect_reg "--nfs-versions 4.0 registers NFS v4 on tcp" yes "$NFS_PROG" 4 tcp
expect_reg "--nfs-versions 4.0 registers no NFS v3" no "$NFS_PROG" 3 tcp
run4 compound 0 PUTROOTFH GETATTR:type ++ compound 1 PUTROOTFH ++ compound 2 PUTROOTFH \
	++ exchange_id integ40-minor1
step_expect "--nfs-versions 4.0: minor version 0 is served" 1 \
	"${OK4}nres=2 op0=OP_PUTROOTFH:NFS4_OK op1=OP_GETATTR:NFS4_OK .* attr_type=NF4DIR"
step_expect "--nfs-versions 4.0: minor version 1 is MINOR_VERS_MISMATCH" 2 "$MISMATCH"
step_expect "--nfs-versions 4.0: minor version 2 is MINOR_VERS_MISMATCH" 3 "$MISMATCH"
step_expect "--nfs-versions 4.0: EXCHANGE_ID of minor version 1 too" 4 "$MISMATCH"
stop_daemon

start_daemon "$EXPORTS" --nfs-versions 4
run4 compound 0 PUTROOTFH ++ compound 1 PUTROOTFH ++ compound 2 PUTROOTFH
step_expect "--nfs-versions 4: minor version 0 is served" 1 "${OK4}nres=1 op0=OP_PUTROOTFH:NFS4_OK "
step_expect "--nfs-versions 4: minor version 1 is served" 2 "$NOT_IN_SESSION"
step_expect "--nfs-versions 4: minor version 2 is served" 3 "$NOT_IN_SESSION"
stop_daemon

# The daemon of the rest: every version (the default), short leases, and a
# grace period after the restart of section 10 long enough for its checks.
start_daemon "$EXPORTS" --lease-time "$LEASE" --grace 20

# ---------------------------------------------------------------------------
# 2. the compound of minor version 0, with no client id (RFC 7530 15.2, 16.1)

path_ops "$EXP"
run4 compound 0 PUTROOTFH GETATTR:type,fsid ++ compound 0 PUTROOTFH "${PATH_OPS[@]}" GETFH \
	++ compound 0 SEQUENCE ++ compound 0 EXCHANGE_ID ++ compound 0 CREATE_SESSION \
	++ compound 0 PUTROOTFH RECLAIM_COMPLETE GETFH ++ compound 0 PUTROOTFH TEST_STATEID:anon \
	++ compound 0 ++ compound 0 RENEW:0123456789abcdef \
	++ compound 0 SETCLIENTID_CONFIRM:0123456789abcdef,0123456789abcdef \
	++ clientid 0x0123456789abcdef ++ compound 0 PUTROOTFH "${PATH_OPS[@]}" OPEN:f,read,none,seqid=0 \
	++ compound 1 PUTROOTFH ++ compound 2 PUTROOTFH
EXP_FH=$(sfield 2 fh)
step_expect "PUTROOTFH and GETATTR with no client id at all: the pseudo root" 1 \
	"${OK4}nres=2 op0=OP_PUTROOTFH:NFS4_OK op1=OP_GETATTR:NFS4_OK .* attr_type=NF4DIR attr_fsid=0\\.0"
step_expect "PUTROOTFH, LOOKUP down to the export, GETFH: no client id needed either" 2 \
	"${OK4}nres=$((${#PATH_OPS[@]} + 2)) "
n=3
for op in SEQUENCE EXCHANGE_ID CREATE_SESSION; do
	step_expect "$op (4.1) in a 4.0 compound is OP_ILLEGAL, resop OP_ILLEGAL" $n "$ILLEGAL"
	n=$((n + 1))
done
step_expect "RECLAIM_COMPLETE after PUTROOTFH: OP_ILLEGAL, and nothing runs after it" 6 \
	'status=NFS4ERR_OP_ILLEGAL nres=2 op0=OP_PUTROOTFH:NFS4_OK op1=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '
step_expect "TEST_STATEID (40, the first of 4.1's) after PUTROOTFH: OP_ILLEGAL" 7 \
	'status=NFS4ERR_OP_ILLEGAL nres=2 op0=OP_PUTROOTFH:NFS4_OK op1=OP_ILLEGAL:NFS4ERR_OP_ILLEGAL '
step_expect "a 4.0 compound of no operations: NFS4_OK, no results" 8 "${OK4}nres=0 "
step_expect "RENEW of a client id never given: STALE_CLIENTID (16.29.4)" 9 \
	'status=NFS4ERR_STALE_CLIENTID nres=1 op0=OP_RENEW:NFS4ERR_STALE_CLIENTID '
step_expect "SETCLIENTID_CONFIRM of a client id never given: STALE_CLIENTID (16.34.5)" 10 \
	'status=NFS4ERR_STALE_CLIENTID nres=1 op0=OP_SETCLIENTID_CONFIRM:NFS4ERR_STALE_CLIENTID '
step_expect "OPEN of an owner whose client id was never given: STALE_CLIENTID" 12 \
	"$(E OPEN NFS4ERR_STALE_CLIENTID)"
step_expect "by default minor version 1 is served too" 13 "$NOT_IN_SESSION"
step_expect "by default minor version 2 is served too" 14 "$NOT_IN_SESSION"
# Operations by number, without arguments, in a minor version 0 compound.
run4 -m 0 illegal_op 40 ++ illegal_op 53 ++ illegal_op 58 ++ illegal_op 69 ++ illegal_op 76 \
	++ illegal_op 2
i=1
for num in 40 53 58 69 76 2; do
	step_expect "operation $num in a 4.0 compound is OP_ILLEGAL" $i "$ILLEGAL"
	i=$((i + 1))
done
[ -n "$EXP_FH" ] || fail "no filehandle of the export over 4.0: nothing more to test"

# ---------------------------------------------------------------------------
# 3 (first half). The lease: a client that goes quiet now, looked at again
# (after section 8) when more than two leases have passed.

plan_begin
client40 integ40-quiet
c0 "the quiet client: OPEN denying writers" "$OK4" "PUTFH:$EXP_FH" \
	OPEN:q,both,write,unchecked,seqid=0,open_owner=q GETFH:q
c0 "the quiet client: OPEN_CONFIRM" "$OK4.* stateid=00000002" PUTFH:@q OPEN_CONFIRM:last,1
plan_run
Q_CID=$(sfield 1 clientid) Q_FH=$(sfield 3 fh) Q_SID=$(sfield 4 stateid)
Q_T0=$(date +%s)

# ---------------------------------------------------------------------------
# 4. SETCLIENTID, SETCLIENTID_CONFIRM, RENEW (RFC 7530 16.33.5, 16.34.5, 16.29)

plan_begin
c0 "SETCLIENTID of a new id string: a client id and a confirm verifier" \
	"${OK4}nres=1 op0=OP_SETCLIENTID:NFS4_OK .* clientid=[0-9a-f]{16} confirm=[0-9a-f]{16}" \
	"SETCLIENTID:$V1,integ40-sc"
S_SC=$P_N
c0 "RENEW of the unconfirmed client id: STALE_CLIENTID" "$(E RENEW NFS4ERR_STALE_CLIENTID)" RENEW
c0 "SETCLIENTID_CONFIRM with a wrong verifier: STALE_CLIENTID (16.34.5)" \
	"$(E SETCLIENTID_CONFIRM NFS4ERR_STALE_CLIENTID)" "SETCLIENTID_CONFIRM:-,$WRONG"
c0 "SETCLIENTID_CONFIRM: confirmed" "${OK4}nres=1 op0=OP_SETCLIENTID_CONFIRM:NFS4_OK " \
	SETCLIENTID_CONFIRM
c0 "SETCLIENTID_CONFIRM again, the same arguments: NFS4_OK (a replay)" \
	"${OK4}nres=1 op0=OP_SETCLIENTID_CONFIRM:NFS4_OK " SETCLIENTID_CONFIRM
c0 "SETCLIENTID_CONFIRM of the confirmed client id, a wrong verifier: STALE_CLIENTID" \
	"$(E SETCLIENTID_CONFIRM NFS4ERR_STALE_CLIENTID)" "SETCLIENTID_CONFIRM:-,$WRONG"
c0 "RENEW of the confirmed client id" "${OK4}nres=1 op0=OP_RENEW:NFS4_OK " RENEW
c0 "SETCLIENTID again, same id and verifier (a callback update): OK" \
	"${OK4}nres=1 op0=OP_SETCLIENTID:NFS4_OK .* clientid=" "SETCLIENTID:$V1,integ40-sc,0x40000002"
S_CB=$P_N
c0 "RENEW while the update is unconfirmed: the confirmed record serves" "$OK4" RENEW
c0 "SETCLIENTID_CONFIRM of the callback update" "$OK4" SETCLIENTID_CONFIRM
c0 "RENEW after the update" "$OK4" RENEW
c0 "OPEN by the client, denying writers" "$OK4" "PUTFH:$EXP_FH" \
	OPEN:sc1,both,write,unchecked,seqid=0,open_owner=sc GETFH:sc1
S_SC_OPEN=$P_N
c0 "OPEN_CONFIRM" "$OK4.* stateid=00000002" PUTFH:@sc1 OPEN_CONFIRM:last,1
S_SC_CONF=$P_N
plan_run
C1=$(sfield "$S_SC" clientid) K1=$(sfield "$S_SC" confirm)
expect_eq "the callback update keeps the client id" "$(sfield "$S_CB" clientid)" "$C1"
K2=$(sfield "$S_CB" confirm)
if [ -n "$K2" ] && [ "$K2" != "$K1" ]; then
	ok "the callback update gives a new confirm verifier"
else
	not_ok "callback update: confirm verifier '$K2', the first was '$K1'" "$OUT"
fi
SC_FH=$(sfield "$S_SC_OPEN" fh) SC_SID=$(sfield "$S_SC_CONF" stateid)

# The client reboots: a new verifier, the same id string.
if have "the rebooted client" "$C1" "$SC_FH" "$SC_SID"; then
	plan_begin
	c0 "SETCLIENTID with a new verifier (the client rebooted): OK" \
		"${OK4}nres=1 op0=OP_SETCLIENTID:NFS4_OK .* clientid=" "SETCLIENTID:$V2,integ40-sc"
	S_R=$P_N
	c0 "RENEW of the new client id before its confirmation: STALE_CLIENTID" \
		"$(E RENEW NFS4ERR_STALE_CLIENTID)" RENEW
	c0 "the old client id serves until the new one is confirmed: RENEW" "$OK4" "RENEW:$C1"
	c0 "... and its open: READ" "$OK4.* read_len=" "PUTFH:$SC_FH" "READ:0,4,$SC_SID"
	c0 "SETCLIENTID_CONFIRM of the new client id" "$OK4" SETCLIENTID_CONFIRM
	c0 "then the old client id is STALE_CLIENTID" "$(E RENEW NFS4ERR_STALE_CLIENTID)" "RENEW:$C1"
	c0 "... and its open is gone: READ with its stateid refused" \
		"$(E READ 'NFS4ERR_(BAD_STATEID|STALE_STATEID|EXPIRED)')" "PUTFH:$SC_FH" "READ:0,4,$SC_SID"
	c0 "... and its share reservation: the new client opens the file for writing" "$OK4" \
		"PUTFH:$EXP_FH" OPEN:sc1,write,none,seqid=0,open_owner=sc2
	c0 "RENEW of the new client id" "$OK4" RENEW
	plan_run
	C2=$(sfield "$S_R" clientid)
	if [ -n "$C2" ] && [ "$C2" != "$C1" ]; then
		ok "a new verifier gives a new client id"
	else
		not_ok "the rebooted client's client id: '$C2', before '$C1'" "$OUT"
	fi
fi
# Another principal, the same id string, while the client holds an open.
run4 -u 1000 -g 1000 compound 0 "SETCLIENTID:$V3,integ40-sc"
step_expect "SETCLIENTID of the id string from another principal: CLID_INUSE (16.33.5)" 1 \
	'status=NFS4ERR_CLID_INUSE nres=1 op0=OP_SETCLIENTID:NFS4ERR_CLID_INUSE .* inuse_netid='
run4 compound 0 "RENEW:${C2:-0}"
step_expect "... and the client holding it is untouched: RENEW" 1 "${OK4}nres=1 op0=OP_RENEW:NFS4_OK "

# ---------------------------------------------------------------------------
# 5. OPEN_CONFIRM, the open owner's sequence ids, stateids (RFC 7530 16.16,
# 16.18, 9.1.4, 9.1.7, 9.1.8)

plan_begin
client40 integ40-open
c0 "OPEN by a new open owner: a stateid of seqid 1" "$OK4.* stateid=00000001[0-9a-f]{24} rflags=" \
	"PUTFH:$EXP_FH" OPEN:f,both,none,seqid=0,open_owner=o1 GETFH:f
S_O1=$P_N
c0 "READ with that stateid before OPEN_CONFIRM: BAD_STATEID" "$(E READ NFS4ERR_BAD_STATEID)" \
	PUTFH:@f READ:0,5,last
c0 "OPEN_CONFIRM with the next seqid: the stateid's seqid goes from 1 to 2 (16.18.5)" \
	"$OK4.* stateid=00000002[0-9a-f]{24}" PUTFH:@f OPEN_CONFIRM:last,1
S_OC=$P_N
c0 "READ with the confirmed stateid" "$OK4.* read_len=5 read_eof=0 read_data=$(hex hello) " \
	PUTFH:@f READ:0,5,last
c0 "WRITE with it" "$OK4.* written=5 " PUTFH:@f WRITE:0,HELLO,filesync,last
c0 "READ with the stateid of before OPEN_CONFIRM, seqid 1: OLD_STATEID (9.1.4.2)" \
	"$(E READ NFS4ERR_OLD_STATEID)" PUTFH:@f READ:0,5,prev
c0 - '' "PUTFH:$EXP_FH" LOOKUP:g GETFH:g
c0 "a second OPEN by the owner (seqid 2), of another file" "$OK4.* stateid=00000001" \
	"PUTFH:$EXP_FH" OPEN:g,read,none,seqid=2,open_owner=o1
S_O2=$P_N
c0 "the same OPEN again, the same seqid: a replay (9.1.8)" "$OK4.* stateid=" \
	"PUTFH:$EXP_FH" OPEN:g,read,none,seqid=2,open_owner=o1
S_O2R=$P_N
c0 "OPEN with a seqid past the next: BAD_SEQID (9.1.7)" "$(E OPEN NFS4ERR_BAD_SEQID)" \
	"PUTFH:$EXP_FH" OPEN:g,read,none,seqid=5,open_owner=o1
c0 "OPEN with a seqid before the last: BAD_SEQID" "$(E OPEN NFS4ERR_BAD_SEQID)" \
	"PUTFH:$EXP_FH" OPEN:g,read,none,seqid=1,open_owner=o1
c0 "OPEN (seqid 3) of a name not there, no create: NOENT; BAD_SEQID took no seqid" \
	"$(E OPEN NFS4ERR_NOENT)" "PUTFH:$EXP_FH" OPEN:nosuch,read,none,seqid=3,open_owner=o1
c0 "the NOENT took seqid 3: OPEN with seqid 4 proceeds (9.1.7)" "$OK4.* stateid=00000002" \
	"PUTFH:$EXP_FH" OPEN:g,read,none,seqid=4,open_owner=o1
S_O4=$P_N
# (all ones and zeros: no open of this boot; BAD_STATEID or, by its zero
# boot instance, STALE_STATEID: neither takes a seqid)
c0 "CLOSE with a stateid of no open (seqid 5): BAD_STATEID or STALE_STATEID" \
	"$(E CLOSE 'NFS4ERR_(BAD_STATEID|STALE_STATEID)')" PUTFH:@g CLOSE:invalid,seqid=5
c0 "that took no seqid: CLOSE with seqid 5" "$OK4.* closed_stateid=" PUTFH:@g CLOSE:last,seqid=5
S_C1=$P_N
c0 "the CLOSE again, the same seqid: a replay, NFS4_OK again (9.1.8)" "$OK4.* closed_stateid=" \
	PUTFH:@g CLOSE:last,seqid=5
S_C2=$P_N
c0 "READ with the closed stateid: BAD_STATEID" "$(E READ NFS4ERR_BAD_STATEID)" PUTFH:@g READ:0,1,last
plan_run
rflag_confirm "a new open owner's OPEN asks for OPEN_CONFIRM (OPEN4_RESULT_CONFIRM)" "$S_O1" yes
rflag_confirm "the owner's second OPEN, once confirmed, does not" "$S_O2" no
expect_eq "the replayed OPEN gives the first one's stateid (not done twice)" \
	"$(sfield "$S_O2R" stateid)" "$(sfield "$S_O2" stateid)"
expect_eq "the replayed OPEN's reply is the first one's, byte for byte (9.1.9)" \
	"$(sfield "$S_O2R" reply)" "$(sfield "$S_O2" reply)"
expect_eq "the replayed CLOSE's reply is the first one's" "$(sfield "$S_C2" reply)" "$(sfield "$S_C1" reply)"
s=$(sfield "$S_O1" stateid)
expect_eq "OPEN_CONFIRM keeps the stateid's other" "$(sfield "$S_OC" stateid | cut -c9-)" "${s:8}"
s=$(sfield "$S_O2" stateid)
expect_eq "the OPEN of an open file by its owner keeps the other, seqid + 1" \
	"$(sfield "$S_O4" stateid | cut -c9-)" "${s:8}"
expect_eq "the WRITE is in the file" "$(cat "$EXP/f")" "HELLO, v4.0"

O_SID=$(sfield "$S_OC" stateid) F_FH=$(sfield "$S_O1" fh)
if have "OPEN_DOWNGRADE" "$O_SID" "$F_FH"; then
	plan_begin
	c0 "OPEN_DOWNGRADE (seqid 6) to reading: the stateid's seqid 3" "$OK4.* stateid=00000003" \
		"PUTFH:$F_FH" "OPEN_DOWNGRADE:read,none,$O_SID,seqid=6"
	S_OD=$P_N
	c0 "the OPEN_DOWNGRADE again, the same seqid: a replay, the same stateid" \
		"$OK4.* stateid=00000003" "PUTFH:$F_FH" "OPEN_DOWNGRADE:read,none,$O_SID,seqid=6"
	c0 "OPEN_DOWNGRADE with seqid 8: BAD_SEQID" "$(E OPEN_DOWNGRADE NFS4ERR_BAD_SEQID)" \
		"PUTFH:$F_FH" OPEN_DOWNGRADE:read,none,last,seqid=8
	c0 "WRITE after the downgrade: OPENMODE" "$(E WRITE NFS4ERR_OPENMODE)" \
		"PUTFH:$F_FH" WRITE:0,x,filesync,last
	c0 "READ with the stateid of before the downgrade: OLD_STATEID" "$(E READ NFS4ERR_OLD_STATEID)" \
		"PUTFH:$F_FH" "READ:0,1,$O_SID"
	c0 "READ with a stateid the server never gave: BAD_STATEID" "$(E READ NFS4ERR_BAD_STATEID)" \
		"PUTFH:$F_FH" "READ:0,1,${O_SID:0:16}0badbad0badbad0b"
	c0 "CLOSE (seqid 7)" "$OK4.* closed_stateid=" "PUTFH:$F_FH" CLOSE:last,seqid=7
	plan_run
	expect_eq "the downgrade keeps the other" "$(sfield "$S_OD" stateid | cut -c9-)" "${O_SID:8}"
fi

# ---------------------------------------------------------------------------
# 6. LOCK, LOCKT, LOCKU, RELEASE_LOCKOWNER (RFC 7530 16.10-16.12, 16.37)

plan_begin
client40 integ40-lock
c0 "OPEN for the locks" "$OK4" "PUTFH:$EXP_FH" OPEN:lk,both,none,unchecked,seqid=0,open_owner=lo GETFH:lk
c0 "... OPEN_CONFIRM" "$OK4" PUTFH:@lk OPEN_CONFIRM:last,1
c0 "LOCK by a new lock owner (open_seqid 2, lock_seqid 0): a lock stateid of seqid 1" \
	"$OK4.* lock_stateid=00000001" PUTFH:@lk LOCK:write,0,10,new,last,open_seqid=2,lock_seqid=0,lock_owner=lk1
S_L1=$P_N
c0 "LOCK through the lock stateid (lock_seqid 1): its seqid 2" "$OK4.* lock_stateid=00000002" \
	PUTFH:@lk LOCK:write,20,10,exist,last,lock_seqid=1
S_L2=$P_N
c0 "the same LOCK again, the same lock_seqid: a replay" "$OK4.* lock_stateid=" \
	PUTFH:@lk LOCK:write,20,10,exist,prev,lock_seqid=1
S_L2R=$P_N
c0 "LOCK with lock_seqid 5: BAD_SEQID" "$(E LOCK NFS4ERR_BAD_SEQID)" \
	PUTFH:@lk LOCK:write,40,10,exist,last,lock_seqid=5
c0 "LOCKT by another lock owner: DENIED, with the holder and its range" \
	"$(E LOCKT NFS4ERR_DENIED).* denied=0:10:write:$(hex lk1)" PUTFH:@lk LOCKT:read,5,1,lock_owner=other
c0 "LOCKU (seqid 2): the lock stateid's seqid 3" "$OK4.* lock_stateid=00000003" \
	PUTFH:@lk LOCKU:write,0,10,last,seqid=2
S_LU=$P_N
c0 "the same LOCKU again, the same seqid: a replay" "$OK4.* lock_stateid=" \
	PUTFH:@lk LOCKU:write,0,10,prev,seqid=2
S_LUR=$P_N
c0 "LOCKT of the unlocked range: OK" "$OK4" PUTFH:@lk LOCKT:write,0,10,lock_owner=other
c0 "RELEASE_LOCKOWNER while a lock is held: LOCKS_HELD (16.37.4)" \
	"$(E RELEASE_LOCKOWNER NFS4ERR_LOCKS_HELD)" RELEASE_LOCKOWNER:lk1
c0 "LOCKU of the other range (seqid 3)" "$OK4.* lock_stateid=00000004" \
	PUTFH:@lk LOCKU:write,20,10,last,seqid=3
c0 "RELEASE_LOCKOWNER with no locks held: OK" "${OK4}nres=1 op0=OP_RELEASE_LOCKOWNER:NFS4_OK " \
	RELEASE_LOCKOWNER:lk1
c0 "the released owner's lock stateid: BAD_STATEID" "$(E LOCK NFS4ERR_BAD_STATEID)" \
	PUTFH:@lk LOCK:write,0,10,exist,last,lock_seqid=4
c0 "CLOSE of the open (seqid 3: LOCK's open_seqid took 2)" "$OK4.* closed_stateid=" \
	PUTFH:@lk "CLOSE:#2,seqid=3"
plan_run
expect_eq "the replayed LOCK gives the first one's stateid (not done twice)" \
	"$(sfield "$S_L2R" lock_stateid)" "$(sfield "$S_L2" lock_stateid)"
expect_eq "the replayed LOCK's reply is the first one's" "$(sfield "$S_L2R" reply)" "$(sfield "$S_L2" reply)"
expect_eq "the replayed LOCKU gives the first one's stateid (not done twice)" \
	"$(sfield "$S_LUR" lock_stateid)" "$(sfield "$S_LU" lock_stateid)"
s=$(sfield "$S_L1" lock_stateid)
expect_eq "LOCK through the lock stateid keeps its other" "$(sfield "$S_L2" lock_stateid | cut -c9-)" "${s:8}"

# ---------------------------------------------------------------------------
# 7. a 4.0 and a 4.1 client on one file

plan_begin
client40 integ40-share
c0 "4.0 client: OPEN for reading and writing, denying writers" "$OK4" "PUTFH:$EXP_FH" \
	OPEN:sh,both,write,unchecked,seqid=0,open_owner=sa GETFH:sh
c0 "4.0 client: OPEN_CONFIRM" "$OK4.* stateid=00000002" PUTFH:@sh OPEN_CONFIRM:last,1
S_SH_OC=$P_N
c0 "4.0 client: a write lock of bytes 0-99" "$OK4.* lock_stateid=00000001" \
	PUTFH:@sh LOCK:write,0,100,new,last,open_seqid=2,lock_seqid=0,lock_owner=sal
S_SH_LK=$P_N
plan_run
SH_FH=$(sfield 3 fh) SH_OSID=$(sfield "$S_SH_OC" stateid) SH_LSID=$(sfield "$S_SH_LK" lock_stateid)
if have "the 4.0 and 4.1 clients" "$SH_FH" "$SH_OSID" "$SH_LSID"; then
	run4 exchange_id integ40-share41 ++ create_session ++ sequence 0 next RECLAIM_COMPLETE \
		++ sequence 0 next "PUTFH:$EXP_FH" OPEN:sh,write,none \
		++ sequence 0 next "PUTFH:$EXP_FH" OPEN:sh,both,none \
		++ sequence 0 next "PUTFH:$EXP_FH" OPEN:sh,read,none \
		++ sequence 0 next "PUTFH:$SH_FH" LOCK:read,0,10,new,last \
		++ sequence 0 next "PUTFH:$SH_FH" LOCKT:read,99,1 \
		++ sequence 0 next "PUTFH:$SH_FH" LOCKT:read,100,1
	B_CID=$(sfield 1 clientid) B_SES=$(sfield 2 sessionid)
	step_expect "4.1 client: OPEN for writing of the file 4.0 denies writers: SHARE_DENIED" 4 \
		"$(E OPEN NFS4ERR_SHARE_DENIED)"
	step_expect "4.1 client: OPEN for reading and writing: SHARE_DENIED" 5 "$(E OPEN NFS4ERR_SHARE_DENIED)"
	step_expect "4.1 client: OPEN for reading: OK" 6 "$OK4.* stateid=00000001"
	step_expect "4.1 client: a read LOCK in the 4.0 client's write-locked range: DENIED, its owner" 7 \
		"$(E LOCK NFS4ERR_DENIED).* denied=0:100:write:$(hex sal)"
	step_expect "4.1 client: LOCKT of its last byte: DENIED" 8 "$(E LOCKT NFS4ERR_DENIED)"
	step_expect "4.1 client: LOCKT past it: OK" 9 "$OK4"
	plan_begin
	c0 "4.0 client: LOCKU" "$OK4" "PUTFH:$SH_FH" "LOCKU:write,0,100,$SH_LSID,seqid=1"
	c0 "4.0 client: CLOSE" "$OK4" "PUTFH:$SH_FH" "CLOSE:$SH_OSID,seqid=3"
	plan_run
	run4 clientid "0x$B_CID" ++ session "$B_SES" ++ sequence 1 1 "PUTFH:$EXP_FH" OPEN:sh,write,none \
		++ sequence 1 2 "PUTFH:$SH_FH" LOCK:write,0,10,new,last
	step_expect "4.1 client, after the 4.0 client's CLOSE: OPEN for writing" 3 "$OK4"
	step_expect "4.1 client, after the 4.0 client's LOCKU: LOCK" 4 "$OK4.* lock_stateid=00000001"
fi

# ---------------------------------------------------------------------------
# 8. the duplicate request cache: one 4.0 call sent twice with one XID

: >"$EXP/drc1"
run4 dup 0 "PUTFH:$EXP_FH" REMOVE:drc1 ++ compound 0 "PUTFH:$EXP_FH" REMOVE:drc1
step_expect "PUTFH+REMOVE: removed" 1 \
	'^send=1 xid=[0-9a-f]{8} tag= status=NFS4_OK nres=2 op0=OP_PUTFH:NFS4_OK op1=OP_REMOVE:NFS4_OK '
step_expect "the same call retransmitted (same XID): the reply again, not NOENT" 1 \
	'^send=2 xid=[0-9a-f]{8} tag= status=NFS4_OK nres=2 op0=OP_PUTFH:NFS4_OK op1=OP_REMOVE:NFS4_OK '
step_expect "... the same bytes" 1 '^same_reply=1$'
step_expect "the same REMOVE with a new XID: NOENT" 2 "$(E REMOVE NFS4ERR_NOENT)"
expect_eq "drc1 is gone from the export" "$(present "$EXP" drc1)" ""

# ---------------------------------------------------------------------------
# 3 (second half). The quiet client, more than two leases later

wait_until $((Q_T0 + 2 * LEASE + 2))
if have "the quiet client" "$Q_CID" "$Q_FH" "$Q_SID"; then
	plan_begin
	c0 "a client quiet for more than two leases: RENEW is EXPIRED or STALE_CLIENTID" \
		"$(E RENEW 'NFS4ERR_(EXPIRED|STALE_CLIENTID)')" "RENEW:$Q_CID"
	c0 "... its open stateid no longer reads" \
		"$(E READ 'NFS4ERR_(BAD_STATEID|EXPIRED|STALE_STATEID)')" "PUTFH:$Q_FH" "READ:0,1,$Q_SID"
	client40 integ40-after-quiet
	c0 "... its share reservation is gone: another client opens the file for writing" "$OK4" \
		"PUTFH:$EXP_FH" OPEN:q,write,none,seqid=0,open_owner=aq
	plan_run
fi
check_daemon_alive "the 4.0 clients"

# ---------------------------------------------------------------------------
# 9. the statistics count the 4.0 operations

"$USERNFSCTL" -s "$CTL_SOCK" stats --json >"$WORKDIR/before.json" 2>&1 ||
	not_ok "usernfsctl stats --json failed" "$(cat "$WORKDIR/before.json")"
plan_begin
client40 integ40-stats
c0 - '' "PUTFH:$EXP_FH" OPEN:st,both,none,unchecked,seqid=0,open_owner=st GETFH:st
c0 - '' PUTFH:@st OPEN_CONFIRM:last,1
c0 - '' RENEW
c0 - '' RENEW
c0 - '' "RENEW:$WRONG"
plan_run
"$USERNFSCTL" -s "$CTL_SOCK" stats --json >"$WORKDIR/after.json" 2>&1 ||
	not_ok "usernfsctl stats --json failed" "$(cat "$WORKDIR/after.json")"
expect_eq "usernfsctl: one more nfs4ops SETCLIENTID" "$(jdelta SETCLIENTID .calls)" 1 \
	"$(jq -c '[.procedures[] | select(.program == "nfs4ops")]' "$WORKDIR/after.json" 2>&1 | head -c 3000)"
expect_eq "usernfsctl: one more SETCLIENTID_CONFIRM" "$(jdelta SETCLIENTID_CONFIRM .calls)" 1
expect_eq "usernfsctl: three more RENEWs" "$(jdelta RENEW .calls)" 3
expect_eq "usernfsctl: two of them with status 0" "$(jdelta RENEW '.status["0"]')" 2
expect_eq "usernfsctl: one with STALE_CLIENTID (10022)" "$(jdelta RENEW '.status["10022"]')" 1
expect_eq "usernfsctl: one more OPEN_CONFIRM" "$(jdelta OPEN_CONFIRM .calls)" 1
run_expect "usernfsctl stats shows SETCLIENTID in the nfs4ops table" '^SETCLIENTID +[1-9]' \
	"$USERNFSCTL" -s "$CTL_SOCK" stats
run_expect "... and OPEN_CONFIRM" '^OPEN_CONFIRM +[1-9]' "$USERNFSCTL" -s "$CTL_SOCK" stats

# ---------------------------------------------------------------------------
# 10. a restart: stale client ids and stateids, the grace period, a reclaim

printf 'before' >"$EXP/rc"
plan_begin
client40 integ40-reclaim
c0 "a client before the restart: OPEN denying writers" "$OK4" "PUTFH:$EXP_FH" \
	OPEN:rc,both,write,seqid=0,open_owner=ro GETFH:rc
c0 "... OPEN_CONFIRM" "$OK4.* stateid=00000002" PUTFH:@rc OPEN_CONFIRM:last,1
plan_run
R_CID=$(sfield 1 clientid) R_FH=$(sfield 3 fh) R_SID=$(sfield 4 stateid)
restart_daemon
if have "the restart" "$R_CID" "$R_FH" "$R_SID"; then
	plan_begin
	c0 "after the restart the old client id is STALE_CLIENTID" "$(E RENEW NFS4ERR_STALE_CLIENTID)" \
		"RENEW:$R_CID"
	c0 "... and its stateid STALE_STATEID (9.1.4)" "$(E READ NFS4ERR_STALE_STATEID)" \
		"PUTFH:$R_FH" "READ:0,6,$R_SID"
	client40 integ40-newcomer
	c0 "a new client's OPEN (CLAIM_NULL) in the grace period: GRACE (9.6.2)" \
		"$(E OPEN NFS4ERR_GRACE)" "PUTFH:$EXP_FH" OPEN:new,both,none,unchecked,seqid=0,open_owner=nc
	c0 "a reclaim by a client that held nothing: NO_GRACE or RECLAIM_BAD" \
		"$(E OPEN 'NFS4ERR_(NO_GRACE|RECLAIM_BAD)')" "PUTFH:$R_FH" OPEN_PREV:read,none,seqid=1,open_owner=nc
	plan_run
	plan_begin
	c0 "the client that held the open, a new verifier: SETCLIENTID" "$OK4" \
		"SETCLIENTID:$V2,integ40-reclaim"
	c0 "... SETCLIENTID_CONFIRM" "$OK4" SETCLIENTID_CONFIRM
	c0 "OPEN by CLAIM_PREVIOUS in the grace period: its open back (9.6.2)" "$OK4.* stateid=" \
		"PUTFH:$R_FH" OPEN_PREV:both,write,seqid=0,open_owner=ro
	S_RP=$P_N
	c0 "READ with the reclaimed open's stateid" "$OK4.* read_data=$(hex before)" \
		"PUTFH:$R_FH" READ:0,6,last
	c0 "a CLAIM_NULL OPEN by that client in the grace period: GRACE" "$(E OPEN NFS4ERR_GRACE)" \
		"PUTFH:$EXP_FH" OPEN:new2,both,none,unchecked,seqid=1,open_owner=ro
	plan_run
	rflag_confirm "the reclaimed open asks for no OPEN_CONFIRM" "$S_RP" no
fi

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
echo "$TEST_NAME: $(($(date +%s) - T_START)) s"
finish
