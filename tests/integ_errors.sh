#!/bin/bash
# integ_errors.sh - error answers of usernfsd, over UDP and TCP (and their
# IPv6 twins when lo has IPv6), checked with rpcprobe: bad handles (length
# 0/7/65, wrong version, every single flipped byte), undecodable arguments,
# AUTH_NONE, unknown procedures and versions, RPC version 3 (RPC_MISMATCH),
# refused MNTs (client not allowed, path not exported, secure export from an
# unprivileged port), READDIR's TOOSMALL and BAD_COOKIE,
# writes on an ro export, and junk datagrams/streams.  Throughout, the
# daemon must stay up.
. "$(dirname "$0")/lib.sh"

setup
# no rpcbind needed: every call goes to the explicit ports

EXPORT=$WORKDIR/export
RO=$WORKDIR/ro
DENIED=$WORKDIR/denied
SECURE=$WORKDIR/secure
NOTEXP=$WORKDIR/notexported
mkdir -p "$EXPORT/dir" "$RO" "$DENIED" "$SECURE" "$NOTEXP"
echo data >"$EXPORT/file"
echo ro-data >"$RO/file"

start_daemon "$EXPORT 127.0.0.1(rw,insecure,no_root_squash) ::1(rw,insecure,no_root_squash)
$RO 127.0.0.1(ro,insecure,no_root_squash) ::1(ro,insecure,no_root_squash)
$DENIED 10.9.9.9(rw,insecure)
$SECURE 127.0.0.1(ro,secure,no_root_squash) ::1(ro,secure,no_root_squash)" --no-rpcbind

PROTOS="udp tcp"
if has_ipv6_lo; then PROTOS="$PROTOS udp6 tcp6"; fi

# readdir3_args HEXFH HEXCOOKIE COUNT: READDIR3args in hex (a zero verifier)
readdir3_args() {
	local len=$((${#1} / 2))
	printf '%08x%s' "$len" "$1"
	printf '%*s' $(( (4 - len % 4) % 4 * 2 )) '' | tr ' ' 0
	printf '%s%016x%08x' "$2" 0 "$3"
}

BAD_FH_RE='^status=(10001|70)$'            # BADHANDLE or STALE
BAD_FH_OR_GARBAGE_RE='^(status=(10001|70)|rpc=GARBAGE_ARGS.*)$'

for proto in $PROTOS; do
	ROOT=$(mnt_fh $proto "$EXPORT")
	if [ -z "$ROOT" ]; then
		not_ok "MNT $EXPORT over $proto failed; skipping the $proto handle checks" \
			"$(mnt_probe $proto mnt "$EXPORT" 2>&1)"
		continue
	fi
	ok "MNT over $proto"
	FILE=$(fh_of $proto "$ROOT" file)
	[ -n "$FILE" ] || not_ok "LOOKUP file over $proto failed" "$(nfs_probe $proto lookup-hex "$ROOT" file 2>&1)"
	run_expect "GETATTR root over $proto" '^status=0$' nfs_probe $proto getattr-hex "$ROOT"

	# -- malformed handles
	run_expect "handle of length 0 over $proto" "$BAD_FH_OR_GARBAGE_RE" \
		nfs_probe $proto getattr-hex ""
	run_expect "handle of length 7 over $proto" "$BAD_FH_OR_GARBAGE_RE" \
		nfs_probe $proto getattr-hex "${ROOT:0:14}"
	long=$ROOT
	while [ ${#long} -lt 130 ]; do long=${long}00; done
	run_expect "handle of length 65 over $proto" "$BAD_FH_OR_GARBAGE_RE" \
		nfs_probe $proto getattr-hex "${long:0:130}"
	zeros=$(printf '%0128d' 0)
	run_expect "64 zero bytes as a handle over $proto" "$BAD_FH_RE" \
		nfs_probe $proto getattr-hex "$zeros"
	vers=$(printf '%02x' $(((0x${ROOT:0:2} + 1) & 255)))
	run_expect "handle with another version byte over $proto" "$BAD_FH_RE" \
		nfs_probe $proto getattr-hex "$vers${ROOT:2}"
	last=$((${#ROOT} - 2))
	flipped=${ROOT:0:$last}$(printf '%02x' $((0x${ROOT:$last:2} ^ 0x80)))
	run_expect "handle with a flipped MAC byte over $proto" "$BAD_FH_RE" \
		nfs_probe $proto getattr-hex "$flipped"
	run_expect "LOOKUP in a tampered directory handle over $proto" "$BAD_FH_RE" \
		nfs_probe $proto lookup-hex "$flipped" file
	# every single byte flipped, root and file handle: never NFS3_OK
	for h in "root:$ROOT" "file:$FILE"; do
		[ -n "${h#*:}" ] || continue
		if run_check "no flipped byte of the ${h%%:*} handle is accepted over $proto" \
			nfs_probe $proto flip-each "${h#*:}"; then
			odd=$(printf '%s\n' "$OUT" | grep -Ev '^byte=[0-9]+ (status=(10001|70)|rpc=GARBAGE_ARGS.*)$')
			[ -z "$odd" ] && ok "flipped ${h%%:*} handle bytes: BADHANDLE/STALE" ||
				not_ok "flipped bytes of the ${h%%:*} handle over $proto: answers other than BADHANDLE/STALE" "$odd"
		fi
	done
	# a handle of one export must not be usable after swapping the export id
	# is covered by the MAC; a handle from another daemon key is covered by
	# the restart tests in integ_libnfs.sh

	# -- undecodable arguments
	run_check "truncated LOOKUP is GARBAGE_ARGS over $proto" \
		nfs_probe $proto expect-garbage-args "$ROOT"
	run_expect "handle length 0xffffffff is GARBAGE_ARGS over $proto" '^rpc=GARBAGE_ARGS' \
		nfs_probe $proto raw $NFS_PROG 3 1 ffffffff
	for proc in 1 3 4 5 6 16 17 18 19 20; do
		run_expect "empty body for NFS proc $proc is GARBAGE_ARGS over $proto" '^rpc=GARBAGE_ARGS' \
			nfs_probe $proto raw $NFS_PROG 3 $proc ""
	done
	for proc in 2 7 8 9 10 11 12 13 14 15 21; do
		# modifying procedures: not implemented yet, but an answer is due
		run_expect "empty body for NFS proc $proc answered over $proto" \
			'^(rpc=GARBAGE_ARGS.*|reply=[0-9a-f]{8}.*)$' \
			nfs_probe $proto raw $NFS_PROG 3 $proc ""
		case $OUT in *reply=00000000*)
			not_ok "NFS proc $proc with an empty body answered NFS3_OK over $proto" "$OUT" ;;
		esac
	done
	run_expect "empty body for MNT is GARBAGE_ARGS over $proto" '^rpc=GARBAGE_ARGS' \
		mnt_probe $proto raw $MOUNT_PROG 3 1 ""

	# -- READDIR's own statuses (errmap's EBADCOOKIE and ETOOSMALL), not INVAL
	run_expect "READDIR with count 8 is TOOSMALL over $proto" '^reply=00002715' \
		nfs_probe $proto raw $NFS_PROG 3 16 "$(readdir3_args "$ROOT" 0000000000000000 8)"
	run_expect "READDIR with a cookie never given out is BAD_COOKIE over $proto" '^reply=00002713' \
		nfs_probe $proto raw $NFS_PROG 3 16 "$(readdir3_args "$ROOT" ffffffffffffffff 4096)"
	run_expect "READDIR of a file is NOTDIR over $proto" '^reply=00000014' \
		nfs_probe $proto raw $NFS_PROG 3 16 "$(readdir3_args "$FILE" 0000000000000000 4096)"

	# -- credentials
	run_check "GETATTR with AUTH_NONE is AUTH_TOOWEAK over $proto" \
		nfs_probe $proto expect-auth-tooweak "$ROOT"
	run_check "NULL with AUTH_NONE works over $proto" \
		nfs_probe $proto -a none null $NFS_PROG 3
	# past RFC 5531's 400 bytes the header does not decode; the XID still does
	if run_expect "a 440-byte credential is AUTH_BADCRED over $proto" '^ms=[0-9]+ rpc=AUTH_BADCRED$' \
		nfs_probe $proto expect-badcred $NFS_PROG 3 440; then
		[ "$(field ms "$OUT")" -lt 100 ] && ok "answered within 100 ms" ||
			not_ok "a 440-byte credential over $proto was answered after $(field ms "$OUT") ms" "$OUT"
	fi
	run_expect "a 1000-byte credential is AUTH_BADCRED over $proto" '^ms=[0-9]+ rpc=AUTH_BADCRED$' \
		nfs_probe $proto expect-badcred $NFS_PROG 3 1000

	# -- procedures and versions
	run_check "NFS proc 99 is PROC_UNAVAIL over $proto" \
		nfs_probe $proto expect-proc-unavail $NFS_PROG 3 99
	run_check "NFS proc 22 is PROC_UNAVAIL over $proto" \
		nfs_probe $proto expect-proc-unavail $NFS_PROG 3 22
	run_check "MOUNT proc 99 is PROC_UNAVAIL over $proto" \
		mnt_probe $proto expect-proc-unavail $MOUNT_PROG 3 99
	run_expect "RPC version 3 is RPC_MISMATCH 2..2 over $proto" '^rpc=RPC_MISMATCH low=2 high=2$' \
		nfs_probe $proto expect-rpc-mismatch $NFS_PROG 3
	run_expect "RPC version 3 to MOUNT is RPC_MISMATCH over $proto" '^rpc=RPC_MISMATCH low=2 high=2$' \
		mnt_probe $proto expect-rpc-mismatch $MOUNT_PROG 3
	# NFS 5 and 1: no such versions (4 is served over TCP by default).
	for spec in "$NFS_PROG 5 nfs_probe" "$NFS_PROG 1 nfs_probe" "$MOUNT_PROG 4 mnt_probe"; do
		set -- $spec
		if run_check "program $1 version $2 is PROG_MISMATCH over $proto" $3 $proto expect-prog-mismatch $1 $2; then
			low=$(field low "$OUT")
			high=$(field high "$OUT")
			if [ -n "$low" ] && [ -n "$high" ] && [ "$low" -le 3 ] && [ "$high" -ge 3 ] &&
				[ "$low" -le "$high" ]; then
				ok "PROG_MISMATCH range $low..$high covers 3"
			else
				not_ok "program $1 version $2 over $proto: PROG_MISMATCH range low=$low high=$high should contain 3" "$OUT"
			fi
		fi
	done

	# -- MNT refusals
	run_expect "MNT of an export for 10.9.9.9 only is ACCES over $proto" '^status=13$' \
		mnt_probe $proto mnt "$DENIED"
	run_expect "MNT of a directory that is not exported over $proto" '^status=(13|2)$' \
		mnt_probe $proto mnt "$NOTEXP"
	run_expect "MNT of a missing path over $proto" '^status=(13|2)$' \
		mnt_probe $proto mnt "$WORKDIR/does-not-exist"
	run_expect "MNT of a relative path over $proto" '^status=(13|2|22)$' \
		mnt_probe $proto mnt "export"
	run_expect "MNT of an empty path over $proto" '^(status=(13|2|22)|rpc=GARBAGE_ARGS.*)$' \
		mnt_probe $proto mnt ""
	longpath=/$(printf 'x%.0s' $(seq 1100))
	run_expect "MNT of a 1101-byte path (> MNTPATHLEN) over $proto" \
		'^(rpc=GARBAGE_ARGS.*|status=(13|2|63|22))$' mnt_probe $proto mnt "$longpath"
	run_expect "MNT of a secure export from an unprivileged port over $proto" '^status=(13|1)$' \
		mnt_probe $proto -P mnt "$SECURE"
	SEC=$(mnt_fh $proto "$SECURE")
	if [ -n "$SEC" ]; then
		ok "MNT of a secure export from a reserved port over $proto"
		OUT=$(nfs_probe $proto -P getattr-hex "$SEC" 2>&1)
		case $OUT in
		*status=0*) not_ok "GETATTR on a secure export from an unprivileged port succeeded over $proto" "$OUT" ;;
		*rpc=SUCCESS*status=* | *rpc=AUTH_ERROR*) ok "secure export refuses unprivileged port over $proto" ;;
		*) not_ok "GETATTR on a secure export from an unprivileged port over $proto: no proper answer" "$OUT" ;;
		esac
	else
		not_ok "MNT of a secure export from a reserved port failed over $proto" \
			"$(mnt_probe $proto mnt "$SECURE" 2>&1)"
	fi

	# -- writes on a read-only export
	RORT=$(mnt_fh $proto "$RO")
	if [ -z "$RORT" ]; then
		not_ok "MNT $RO over $proto failed" "$(mnt_probe $proto mnt "$RO" 2>&1)"
	else
		ROFILE=$(fh_of $proto "$RORT" file)
		run_expect "SETATTR on an ro export is ROFS over $proto" '^status=30$' \
			nfs_probe $proto setattr-mode "$ROFILE" 0600
		run_expect "WRITE on an ro export is ROFS over $proto" '^status=30$' \
			nfs_probe $proto write-hex "$ROFILE" 0 41424344
		run_expect "READ on an ro export works over $proto" '^status=0$' \
			nfs_probe $proto read-hex "$ROFILE" 0 100
		[ "$(stat -c %a "$RO/file")" = 644 ] && [ "$(cat "$RO/file")" = ro-data ] &&
			ok "ro file unchanged" || not_ok "the file on the ro export was modified"
	fi

	check_daemon_alive "the $proto error checks" || fail "daemon died"
done

# ---------------------------------------------------------------------------
# junk that is not even RPC: random datagrams and TCP streams

junk() {   # junk PROTO PORT BYTES
	head -c "$3" /dev/urandom >"$WORKDIR/junk.bin"
	if [ "$1" = udp ]; then
		cat "$WORKDIR/junk.bin" >/dev/udp/127.0.0.1/"$2"
	else
		timeout 3 bash -c 'cat "$1" >/dev/tcp/127.0.0.1/"$2"' _ "$WORKDIR/junk.bin" "$2"
	fi
} 2>/dev/null

for i in $(seq 30); do
	junk udp "$NFS_PORT" $((RANDOM % 1400 + 1))
	junk udp "$MOUNT_PORT" $((RANDOM % 200 + 1))
done
for i in $(seq 5); do
	junk tcp "$NFS_PORT" $((RANDOM % 3000 + 1))
done
# a TCP record marker announcing ~2 GiB, then hang up
timeout 3 bash -c 'printf "\xff\xff\xff\xf0\x00\x00\x00\x01" >/dev/tcp/127.0.0.1/'"$NFS_PORT" 2>/dev/null
sleep 0.5
check_daemon_alive "junk datagrams and streams"

# random bodies for random procedures, as real RPC calls
for proto in udp tcp; do
	for i in $(seq 40); do
		proc=$((RANDOM % 23))
		body=$(head -c $((RANDOM % 200)) /dev/urandom | od -An -tx1 -v | tr -d ' \n')
		body=${body:0:$((${#body} / 8 * 8))}
		nfs_probe $proto -t 2 raw $NFS_PROG 3 $proc "$body" >"$WORKDIR/rand.out" 2>&1
		if grep -Eq 'TIMEDOUT|CANTRECV|CREATE_FAILED' "$WORKDIR/rand.out"; then
			not_ok "no answer to NFS proc $proc with a random body over $proto" \
				"body: $body
$(cat "$WORKDIR/rand.out")"
			break
		fi
	done
done
check_daemon_alive "random call bodies"

# still serving after all of that
for proto in $PROTOS; do
	run_check "NULL nfs still answers over $proto" nfs_probe $proto null $NFS_PROG 3
	run_check "NULL mount still answers over $proto" mnt_probe $proto null $MOUNT_PROG 3
done
stop_daemon
ok "clean exit after the error checks"

finish
