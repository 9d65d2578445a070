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
#     machine's and stays unmapped.
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
EXPORT=$WORKDIR/export
mkdir -p "$EXPORT"
start_daemon "$EXPORT 127.0.0.1(rw,insecure)" --keytab "$KRB5_KEYTAB" --debug

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

check_daemon_alive "the GSS calls"
stop_daemon
finish
