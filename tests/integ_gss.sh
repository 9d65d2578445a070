#!/bin/bash
# integ_gss.sh - RPCSEC_GSS version 1 (RFC 2203) with Kerberos V5 against
# tests/gssprobe, in a throwaway realm (tests/krb5-realm.sh: a KDC on
# 127.0.0.1, everything under the scratch directory), the daemon started
# with --keytab:
#   - krb5, krb5i and krb5p: context creation on NFSv3 NULL, DATA NULL and
#     GETATTR of an export's root (handle from MOUNT with AUTH_SYS), the
#     reply verifiers and the integrity and privacy bodies checked by the
#     client, DESTROY, and the destroyed handle refused (CREDPROBLEM);
#   - a handle nobody issued: CREDPROBLEM; a spoiled header MIC:
#     CREDPROBLEM, and the window did not move for it; a replayed sequence
#     number and one below the window of 128: no reply, and the context
#     goes on; a sequence number of 2^31: CTXPROBLEM; a spoiled integrity
#     or privacy body: GARBAGE_ARGS;
#   - 120 calls in flight on one context (several workers on it at once);
#   - the principal's mapping (the daemon's log): alice has no local
#     user, daemon@ is the local user daemon, a host/ principal is a
#     machine's and stays unmapped;
#   - the identity through the gate, seen as the owner of a file each
#     creates: daemon@ acts as daemon, alice and host/ as the anonymous
#     ids, root@ is squashed unless no_root_squash, all_squash squashes
#     everyone;
#   - sec= (exports(5)): MOUNT v3 lists the flavors in the export's order;
#     a flavor the export does not list is refused (v3: ACCES; v4:
#     WRONGSEC from the operation that uses the handle, RFC 8881
#     2.6.3.1.1), SECINFO and SECINFO_NO_NAME say what to use; per-flavor
#     options (sec=sys,ro,sec=krb5p,rw); a daemon with sec=krb5 exports
#     and no usable keytab refuses to start, naming it.
. "$(dirname "$0")/lib.sh"
. "$TESTS_SRCDIR/krb5-realm.sh"

need_krb5
need_cmd ss
setup

GSSPROBE=${GSSPROBE:-$top_builddir/tests/gssprobe}
if [ ! -x "$GSSPROBE" ]; then
	# shellcheck disable=SC2046
	gcc -O2 -Wall -Wextra -Werror -pthread $(pkg-config --cflags libtirpc krb5-gssapi) \
		-o "$WORKDIR/gssprobe" "$TESTS_SRCDIR/gssprobe.c" "$TESTS_SRCDIR/rpcraw.c" \
		$(pkg-config --libs libtirpc krb5-gssapi) 2>"$WORKDIR/gssprobe.build" ||
		skip "gssprobe not built and cannot be: $(head -c 300 "$WORKDIR/gssprobe.build")"
	GSSPROBE=$WORKDIR/gssprobe
fi

krb5_realm_start "$WORKDIR/krb5"
EXPORT=$WORKDIR/export K5P=$WORKDIR/k5p MIX=$WORKDIR/mix NRS=$WORKDIR/nrs ALLSQ=$WORKDIR/allsq
mkdir -p "$EXPORT" "$K5P" "$MIX" "$NRS" "$ALLSQ"
chmod 1777 "$EXPORT" "$K5P" "$MIX" "$NRS" "$ALLSQ"
start_daemon "$EXPORT 127.0.0.1(rw,insecure,sec=sys:krb5:krb5i:krb5p)
$K5P 127.0.0.1(rw,insecure,sec=krb5p)
$MIX 127.0.0.1(sec=sys,ro,sec=krb5p:krb5,rw,insecure)
$NRS 127.0.0.1(rw,insecure,no_root_squash,sec=krb5)
$ALLSQ 127.0.0.1(rw,insecure,all_squash,anonuid=4242,anongid=4343,sec=krb5i)" \
	--keytab "$KRB5_KEYTAB" --debug

ROOTFH=$(mnt_fh tcp "$EXPORT")
[ -n "$ROOTFH" ] || fail "MNT of $EXPORT gave no handle"

gss() {
	"$GSSPROBE" -t 5 127.0.0.1 "$NFS_PORT" "$@" 2>&1
}

# expect_line DESC STEP ERE: the line of step STEP (the Nth with "STEP#N",
# default the first) in $OUT matches ERE
expect_line() {
	local desc=$1 step=${2%#*} n=1 ere=$3 line
	case $2 in *#*) n=${2#*#} ;; esac
	line=$(printf '%s\n' "$OUT" | grep "^step=$step " | sed -n "${n}p")
	if printf '%s\n' "$line" | grep -Eq -- "$ere"; then
		ok "$desc"
	else
		not_ok "$desc" "step=$step (#$n) should match: $ere
$OUT"
	fi
}

# ---------------------------------------------------------------------------
# 1. each service: NULL, GETATTR, DESTROY, then the handle is gone

for svc in none integ priv; do
	OUT=$(gss svc $svc ++ init ++ null ++ getattr "$ROOTFH" ++ destroy ++ null)
	expect_line "$svc: context created, reply verifier is the window's MIC" init \
		'init major=0 .*rpc=SUCCESS verf=ok'
	expect_line "$svc: DATA NULL" null 'rpc=SUCCESS verf=ok$'
	expect_line "$svc: GETATTR of the export root (a directory)" getattr \
		'rpc=SUCCESS verf=ok status=0 type=2$'
	expect_line "$svc: DESTROY" destroy 'rpc=SUCCESS verf=ok$'
	expect_line "$svc: the destroyed context is CREDPROBLEM" 'null#2' 'rpc=AUTH_ERROR why=13$'
done

# ---------------------------------------------------------------------------
# 2. what must be refused or dropped

OUT=$(gss forged ++ null)
expect_line "a handle nobody issued: CREDPROBLEM" forged 'rpc=AUTH_ERROR why=13$'
expect_line "the real context still works" null 'rpc=SUCCESS verf=ok$'

OUT=$(gss seq 10 ++ null ++ replay ++ null)
expect_line "a call before its replay" null 'rpc=SUCCESS verf=ok$'
expect_line "a replayed sequence number: no reply" replay 'rpc=NOREPLY$'
expect_line "the context goes on after a replay" 'null#2' 'rpc=SUCCESS verf=ok$'

OUT=$(gss seq 300 ++ null ++ seq 200 ++ null ++ seq 100 ++ null ++ seq 301 ++ null)
expect_line "seq 300" null 'rpc=SUCCESS'
expect_line "seq 200, inside the window of 128: answered" 'null#2' 'rpc=SUCCESS verf=ok$'
expect_line "seq 100, below the window: no reply" 'null#3' 'rpc=NOREPLY$'
expect_line "seq 301 after that" 'null#4' 'rpc=SUCCESS verf=ok$'

# A spoiled MIC must not move the window: 1000 refused, then 600 (below
# 1000's window, inside 500's) is still new.
OUT=$(gss seq 500 ++ null ++ seq 1000 ++ badmic ++ seq 600 ++ null)
expect_line "a spoiled header MIC: CREDPROBLEM" badmic 'rpc=AUTH_ERROR why=13$'
expect_line "the spoiled call did not move the window" 'null#2' 'rpc=SUCCESS verf=ok$'

# Errors found after the credential still carry our verifier (RFC 2203 5.3.3.2)
for svc in none priv; do
	OUT=$(gss svc $svc ++ proc 99 ++ null)
	expect_line "$svc: an unknown procedure: PROC_UNAVAIL with the verifier" proc 'rpc=PROC_UNAVAIL verf=ok$'
	expect_line "$svc: the context goes on" null 'rpc=SUCCESS verf=ok$'
done

OUT=$(gss seq 2147483648 ++ null)
expect_line "seq 2^31 (MAXSEQ): CTXPROBLEM" null 'rpc=AUTH_ERROR why=14$'

for svc in integ priv; do
	OUT=$(gss svc $svc ++ badbody ++ null)
	expect_line "$svc: a spoiled body is GARBAGE_ARGS" badbody 'rpc=GARBAGE_ARGS verf=ok$'
	expect_line "$svc: the context goes on" null 'rpc=SUCCESS verf=ok$'
done

# ---------------------------------------------------------------------------
# 3. one context, many workers at once (the daemon runs 16 threads): 120
# calls in flight, each reply's verifier and body checked. Fewer than the
# window of 128: with more in flight, the oldest may arrive below it.

for svc in integ priv; do
	OUT=$(gss svc $svc ++ burst 120 ++ null)
	expect_line "$svc: 120 calls at once on one context" burst 'rpc=SUCCESS sent=120 replies=120 ok=120$'
	expect_line "$svc: the context goes on" null 'rpc=SUCCESS verf=ok$'
done

# ---------------------------------------------------------------------------
# 4. who the principal is (the daemon logs it when --debug)

grep -q "context for alice@$KRB5_REALM (unmapped)" "$DAEMON_LOG" &&
	ok "alice (no local user) is unmapped" ||
	not_ok "alice's context is not logged as unmapped" "$(grep 'gss:' "$DAEMON_LOG" | tail -5)"

krb5_addprinc daemon daemon-Secret-1
if getent passwd daemon >/dev/null && krb5_kinit daemon daemon-Secret-1; then
	OUT=$(gss null)
	expect_line "daemon@: DATA NULL" null 'rpc=SUCCESS verf=ok$'
	grep -q "context for daemon@$KRB5_REALM (mapped)" "$DAEMON_LOG" &&
		ok "daemon@ maps to the local user daemon" ||
		not_ok "daemon@ is not mapped" "$(grep 'gss:' "$DAEMON_LOG" | tail -5)"
fi

krb5_addprinc host/localhost
krb5_ktadd host/localhost "$KRB5_DIR/host.keytab"
if kinit -k -t "$KRB5_DIR/host.keytab" host/localhost >>"$KRB5_DIR/kinit.log" 2>&1; then
	OUT=$(gss null)
	expect_line "host/localhost: DATA NULL" null 'rpc=SUCCESS verf=ok$'
	grep -q "context for host/localhost@$KRB5_REALM (unmapped)" "$DAEMON_LOG" &&
		ok "a machine principal stays unmapped" ||
		not_ok "host/localhost is not logged as unmapped" "$(grep 'gss:' "$DAEMON_LOG" | tail -5)"
else
	not_ok "kinit -k host/localhost" "$(tail -5 "$KRB5_DIR/kinit.log")"
fi

# ---------------------------------------------------------------------------
# 5. the identity through the gate: whom each principal's CREATE acts as

K5P_FH=$(mnt_fh tcp "$K5P")
MIX_FH=$(mnt_fh tcp "$MIX")
NRS_FH=$(mnt_fh tcp "$NRS")
ALLSQ_FH=$(mnt_fh tcp "$ALLSQ")

# owner_is DESC FILE UID:GID: the file on the server belongs to them
owner_is() {
	local got
	got=$(stat -c %u:%g "$2" 2>&1)
	[ "$got" = "$3" ] && ok "$1" || not_ok "$1" "$2 is $got, not $3"
}

krb5_kinit alice "$KRB5_ALICE_PW" || fail "kinit alice"
OUT=$(gss svc priv ++ create "$ROOTFH" by-alice)
expect_line "alice (no local user): CREATE answered" create 'rpc=SUCCESS verf=ok status=0 uid=65534 gid=65534$'
owner_is "alice's file belongs to the anonymous ids" "$EXPORT/by-alice" 65534:65534

if getent passwd daemon >/dev/null && krb5_kinit daemon daemon-Secret-1; then
	dmn=$(id -u daemon):$(id -g daemon)
	OUT=$(gss svc integ ++ create "$ROOTFH" by-daemon ++ svc none ++ create "$K5P_FH" wrong-service \
		++ svc priv ++ create "$K5P_FH" by-daemon ++ svc none ++ create "$MIX_FH" by-daemon \
		++ svc integ ++ create "$MIX_FH" krb5i-not-listed ++ svc none ++ create "$ALLSQ_FH" krb5-not-listed \
		++ svc integ ++ create "$ALLSQ_FH" by-daemon)
	expect_line "daemon@ acts as the local user daemon" create "status=0 uid=${dmn%:*} gid=${dmn#*:}\$"
	owner_is "daemon@'s file belongs to daemon" "$EXPORT/by-daemon" "$dmn"
	expect_line "krb5 on a sec=krb5p export: ACCES" 'create#2' 'rpc=SUCCESS verf=ok status=13$'
	expect_line "krb5p on a sec=krb5p export" 'create#3' "status=0 uid=${dmn%:*} "
	owner_is "daemon@'s file in the krb5p export belongs to daemon" "$K5P/by-daemon" "$dmn"
	expect_line "krb5 on sec=sys,ro,sec=krb5p:krb5,rw: krb5's rw" 'create#4' "status=0 uid=${dmn%:*} "
	expect_line "krb5i on an export that lists krb5 and krb5p only: ACCES" 'create#5' 'status=13$'
	expect_line "krb5 on a sec=krb5i export: ACCES" 'create#6' 'status=13$'
	expect_line "all_squash under krb5i: the anonuid and anongid" 'create#7' 'status=0 uid=4242 gid=4343$'
	owner_is "all_squash: the file belongs to anonuid:anongid" "$ALLSQ/by-daemon" 4242:4343
else
	not_ok "kinit daemon" "no local user daemon, or kinit failed"
fi

# root@REALM maps to the local root (krb5's default auth_to_local): squashed unless no_root_squash.
krb5_addprinc root root-Secret-1
if krb5_kinit root root-Secret-1; then
	OUT=$(gss create "$ROOTFH" by-root ++ create "$NRS_FH" by-root)
	expect_line "root@ on a root_squash export: the anonymous ids" create 'status=0 uid=65534 gid=65534$'
	expect_line "root@ on a no_root_squash export: root" 'create#2' 'status=0 uid=0 gid=0$'
	owner_is "no_root_squash: root@'s file belongs to root" "$NRS/by-root" 0:0
else
	not_ok "kinit root" "$(tail -3 "$KRB5_DIR/kinit.log" 2>/dev/null)"
fi

kinit -k -t "$KRB5_DIR/host.keytab" host/localhost >>"$KRB5_DIR/kinit.log" 2>&1
OUT=$(gss create "$NRS_FH" by-host)
expect_line "a machine principal is the anonymous ids, even with no_root_squash" create \
	'status=0 uid=65534 gid=65534$'

# ---------------------------------------------------------------------------
# 5b. the duplicate request cache under RPCSEC_GSS: a retransmission (same
# XID, new sequence number) of a REMOVE is answered from the cache, its
# reply verified and unwrapped for the new number; a rerun would say NOENT

for svc in none integ priv; do
	: >"$EXPORT/drc-$svc"
	chown 65534:65534 "$EXPORT/drc-$svc"	# host/ (the ticket now) acts as the anonymous ids
	OUT=$(gss svc $svc ++ remove "$ROOTFH" "drc-$svc" ++ retry ++ remove "$ROOTFH" "drc-$svc" \
		++ remove "$ROOTFH" "drc-$svc")
	expect_line "$svc: REMOVE" remove 'rpc=SUCCESS verf=ok status=0$'
	expect_line "$svc: its retransmission, new sequence number: the cached result, wrapped anew" \
		'remove#2' 'rpc=SUCCESS verf=ok status=0$'
	expect_line "$svc: a new REMOVE of the same name (new XID): NOENT" 'remove#3' 'rpc=SUCCESS verf=ok status=2$'
done

# ---------------------------------------------------------------------------
# 6. sec= for AUTH_SYS clients: MOUNT's list, v3's ACCES, v4's WRONGSEC and SECINFO

field_is() {
	local got
	got=$(field "$2" "$3")
	[ "$got" = "$4" ] && ok "$1" || not_ok "$1" "$2=$got, not $4: $3"
}
field_is "MOUNT v3 lists sec=sys:krb5:krb5i:krb5p in that order" flavors \
	"$(mnt_probe tcp mnt "$EXPORT")" 1,390003,390004,390005
field_is "MOUNT v3 of a sec=krb5p export (AUTH_SYS may mount): krb5p" flavors "$(mnt_probe tcp mnt "$K5P")" 390005
field_is "MOUNT v3 lists sec=sys,ro,sec=krb5p:krb5,rw in order" flavors "$(mnt_probe tcp mnt "$MIX")" 1,390005,390003

call tcp getattr-hex "$K5P_FH"
[ "$ST" = 13 ] && ok "AUTH_SYS GETATTR on a sec=krb5p export: ACCES" || not_ok "AUTH_SYS on krb5p: status $ST" "$OUT"
call tcp getattr-hex "$MIX_FH"
[ "$ST" = 0 ] && ok "AUTH_SYS GETATTR on sec=sys,...: allowed" || not_ok "AUTH_SYS on mix: status $ST" "$OUT"
call tcp create "$MIX_FH" sys-ro unchecked 0644
[ "$ST" = 30 ] && ok "AUTH_SYS CREATE where sys is ro: ROFS" || not_ok "sys ro CREATE: status $ST" "$OUT"
n=$("$USERNFSCTL" -s "$CTL_SOCK" stats --json 2>&1 | grep -o '"rejected_wrong_flavor": *[0-9]*' | grep -o '[0-9]*$')
[ "${n:-0}" -ge 3 ] && ok "statistics count the refused flavors ($n)" ||
	not_ok "rejected_wrong_flavor is '$n'" "$("$USERNFSCTL" -s "$CTL_SOCK" stats --json 2>&1 | head -c 600)"

NFS4PROBE=${NFS4PROBE:-$top_builddir/tests/nfs4probe}
if [ -x "$NFS4PROBE" ]; then
	# LOOKUPs from the pseudo root down to the directory that holds the exports
	to_workdir=()
	IFS=/ read -ra comps <<<"${WORKDIR#/}"
	for c in "${comps[@]}"; do to_workdir+=("LOOKUP:$c"); done
	OUT=$("$NFS4PROBE" 127.0.0.1 "$NFS_PORT" tcp exchange_id gss-sec ++ create_session \
		++ sequence 0 next RECLAIM_COMPLETE \
		++ sequence 0 next "PUTFH:$K5P_FH" GETATTR \
		++ sequence 0 next "PUTFH:$K5P_FH" SECINFO_NO_NAME:current \
		++ sequence 0 next "PUTFH:$K5P_FH" \
		++ sequence 0 next "PUTFH:$K5P_FH" LOOKUP:nosuch \
		++ sequence 0 next "PUTFH:$K5P_FH" SAVEFH "PUTFH:$ROOTFH" RESTOREFH GETATTR \
		++ sequence 0 next "PUTFH:$K5P_FH" SAVEFH "PUTFH:$ROOTFH" GETATTR \
		++ sequence 0 next "PUTFH:$MIX_FH" GETATTR \
		++ sequence 0 next PUTROOTFH SECINFO_NO_NAME:current \
		++ sequence 0 next PUTROOTFH "${to_workdir[@]}" SECINFO:k5p 2>&1)
	v4_step() { printf '%s\n' "$OUT" | awk -v n="$1" '/^step=/ { s = ($1 == "step=" n); next } s'; }
	v4_expect() {
		v4_step "$2" | grep -Eq -- "$3" && ok "$1" || not_ok "$1" "step $2: $(v4_step "$2")"
	}
	v4_expect "v4 AUTH_SYS: PUTFH then GETATTR of a krb5p export: WRONGSEC from PUTFH" 4 \
		'status=NFS4ERR_WRONGSEC .*op1=OP_PUTFH:NFS4ERR_WRONGSEC'
	v4_expect "v4: PUTFH then SECINFO_NO_NAME: krb5p (no WRONGSEC before SECINFO)" 5 \
		'status=NFS4_OK .*flavors=6:krb5p( |$)'
	v4_expect "v4: PUTFH alone: no WRONGSEC (nothing uses the handle)" 6 'status=NFS4_OK '
	v4_expect "v4: PUTFH then LOOKUP: LOOKUP answers WRONGSEC" 7 \
		'op1=OP_PUTFH:NFS4_OK op2=OP_LOOKUP:NFS4ERR_WRONGSEC'
	v4_expect "v4: RESTOREFH of a krb5p handle before GETATTR: WRONGSEC from RESTOREFH" 8 \
		'op3=OP_PUTFH:NFS4_OK op4=OP_RESTOREFH:NFS4ERR_WRONGSEC'
	v4_expect "v4: a put before SAVEFH is not checked; SAVEFH keeps the handle unchecked" 9 'status=NFS4_OK '
	v4_expect "v4: AUTH_SYS on sec=sys,...: served" 10 'status=NFS4_OK '
	v4_expect "v4: SECINFO_NO_NAME of the pseudo root: every flavor below, in order" 11 \
		'flavors=1,6:krb5,6:krb5i,6:krb5p( |$)'
	v4_expect "v4: SECINFO of the export's name: its sec=" 12 'status=NFS4_OK .*flavors=6:krb5p( |$)'
fi

# ---------------------------------------------------------------------------
# 8. statistics: calls by flavor, contexts, failures by reason (JSON and
# Prometheus), and the client list names the principal

ctl() { "$USERNFSCTL" -s "$CTL_SOCK" "$@"; }
JSON=$(ctl stats --json 2>&1)
PROM=$(ctl metrics 2>&1)
ctr() { printf '%s\n' "$JSON" | grep -o "\"$1\": *[0-9]*" | grep -o '[0-9]*$'; }
prom() { printf '%s\n' "$PROM" | awk -v k="$1" '$1 == k { print $2 }'; }
at_least() {
	[ "${2:-0}" -ge "$3" ] 2>/dev/null && ok "$1 ($2)" || not_ok "$1" "got '${2}', want at least $3"
}
at_least "stats: krb5p calls" "$(ctr calls_krb5p)" 10
at_least "stats: krb5i calls" "$(ctr calls_krb5i)" 10
at_least "stats: krb5 calls" "$(ctr calls_krb5)" 5
at_least "stats: AUTH_SYS calls" "$(ctr calls_auth_sys)" 5
at_least "stats: contexts created" "$(ctr gss_contexts_created)" 10
at_least "stats: contexts destroyed (section 1)" "$(ctr gss_contexts_destroyed)" 3
at_least "stats: bad header MICs (section 2)" "$(ctr gss_fail_bad_mic)" 1
at_least "stats: replays and calls below the window dropped" "$(ctr gss_fail_replay)" 2
at_least "stats: CTXPROBLEM (seq 2^31)" "$(ctr gss_fail_ctxproblem)" 1
at_least "stats: spoiled integrity and privacy bodies" "$(ctr gss_fail_body)" 2
at_least "stats: CREDPROBLEM (forged and destroyed handles)" "$(ctr gss_fail_credproblem)" 4
at_least "stats: contexts held (gauge)" "$(ctr gss_contexts)" 1
at_least "prometheus: calls_by_flavor krb5p" \
	"$(prom 'usernfsd_calls_by_flavor_total{flavor="krb5p"}')" 10
at_least "prometheus: gss_failures replay" "$(prom 'usernfsd_gss_failures_total{reason="replay"}')" 2
at_least "prometheus: gss_contexts gauge" "$(prom usernfsd_gss_contexts)" 1
clients=$(ctl clients 2>&1)
printf '%s\n' "$clients" | grep -q "^127.0.0.1 .*krb5:.*@$KRB5_REALM" &&
	ok "usernfsctl clients names the principal" || not_ok "no principal in the client list" "$clients"
ctl clients --json 2>&1 | grep -q "\"principal\":\"[^\"]*@$KRB5_REALM\"" &&
	ok "usernfsctl clients --json has the principal" ||
	not_ok "no principal in clients --json" "$(ctl clients --json 2>&1 | head -c 400)"

check_daemon_alive "the GSS calls"

# ---------------------------------------------------------------------------
# 9. an NFSv4 client's record is written as the daemon: with one worker,
# whose previous call was a user's (AUTH_SYS uid 4242 here; a Kerberos
# user or a squashed one alike), CREATE_SESSION must still write it

DAEMON_EXTRA+=(--threads 1)
restart_daemon
call tcp -u 4242 -g 4242 getattr-hex "$ROOTFH"
[ "$ST" = 0 ] || not_ok "GETATTR as uid 4242: status $ST" "$OUT"
if [ -x "$NFS4PROBE" ]; then
	OUT=$("$NFS4PROBE" 127.0.0.1 "$NFS_PORT" tcp exchange_id record-as-daemon ++ create_session 2>&1)
	printf '%s\n' "$OUT" | grep -q 'op0=OP_CREATE_SESSION:NFS4_OK' || not_ok "CREATE_SESSION" "$OUT"
	sleep 0.2
	if grep -q "not on stable storage" "$DAEMON_LOG"; then
		not_ok "CREATE_SESSION after a user's call: the record was not written" \
			"$(grep -i "nfs4-clients\|stable storage" "$DAEMON_LOG" | tail -3)"
	elif grep -q "$(printf record-as-daemon | od -An -tx1 | tr -d ' \n')" "$STATE_DIR"/nfs4-clients 2>/dev/null; then
		ok "CREATE_SESSION after a user's call: the client's record is written"
	else
		not_ok "the client's record is not in $STATE_DIR/nfs4-clients" "$(ls -la "$STATE_DIR")"
	fi
fi
stop_daemon

# ---------------------------------------------------------------------------
# 7. sec=krb5 with no usable keytab: the daemon refuses to start, naming it

NOKEY=$WORKDIR/empty.keytab
: >"$NOKEY"
printf '%s\n' "$K5P 127.0.0.1(rw,insecure,sec=krb5p)" >"$EXPORTS_FILE"
for kt in "$WORKDIR/missing.keytab" "$KRB5_DIR/host.keytab"; do
	out=$(timeout 20 "$USERNFSD" --exports "$EXPORTS_FILE" --foreground --nfs-port "$NFS_PORT" \
		--mount-port "$MOUNT_PORT" --state-dir "$STATE_DIR" --no-rpcbind --keytab "$kt" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q "keytab $kt"; then
		ok "sec=krb5p with keytab $(basename "$kt"): refuses to start, naming it"
	else
		not_ok "sec=krb5p with keytab $kt: exit $rc" "$out"
	fi
done
finish
