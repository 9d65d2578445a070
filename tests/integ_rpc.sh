#!/bin/bash
# integ_rpc.sh - usernfsd as an RPC service: rpcbind registration (IPv4 and
# IPv6), NULL on every transport, NFSACL unavailable, MOUNT EXPORT and
# showmount, unregistration on SIGTERM, --no-rpcbind, a second daemon on
# the same ports, daemon (non --foreground) mode and bad exports files.
. "$(dirname "$0")/lib.sh"

need_cmd rpcinfo
setup
start_rpcbind

EXPORT=$WORKDIR/export
PUB=$WORKDIR/pub
mkdir -p "$EXPORT" "$PUB"
echo hello >"$EXPORT/hello.txt"
EXPORTS="$EXPORT 127.0.0.1(rw,insecure,no_root_squash) ::1(rw,insecure)
$PUB *(ro,insecure) 10.0.0.0/8(ro)"

IPV6=
if has_ipv6_lo; then IPV6=1; fi
PROTOS="tcp udp${IPV6:+ tcp6 udp6}"

# registered PROG PROTO PORT: rpcinfo -p shows PROG v3 on PROTO at PORT
registered() {
	rpcinfo -p 127.0.0.1 | awk -v p="$1" -v t="$2" -v port="$3" \
		'$1 == p && $2 == 3 && $3 == t && $4 == port { f = 1 } END { exit !f }'
}

# netids PROG: the netid column of rpcinfo -s for PROG (e.g. tcp6,udp6,tcp,udp)
netids() {
	rpcinfo -s 127.0.0.1 | awk -v p="$1" '$1 == p { print $3 }'
}

# no_registration PROG: rpcbind knows nothing about PROG (any netid)
no_registration() {
	local s
	s=$(rpcinfo -s 127.0.0.1 | awk -v p="$1" '$1 == p')
	[ -z "$s" ] || { echo "still registered: $s"; return 1; }
}

# ---------------------------------------------------------------------------
# 1. registration with rpcbind

start_daemon "$EXPORTS"

PMAP=$(rpcinfo -p 127.0.0.1 2>&1)
for proto in tcp udp; do
	registered $NFS_PROG $proto "$NFS_PORT" && ok "nfs v3 $proto registered" ||
		not_ok "rpcinfo -p: 100003 v3 $proto port $NFS_PORT missing" "$PMAP"
	registered $MOUNT_PROG $proto "$MOUNT_PORT" && ok "mount v3 $proto registered" ||
		not_ok "rpcinfo -p: 100005 v3 $proto port $MOUNT_PORT missing" "$PMAP"
done
# nothing registered on other ports for our programs
other=$(printf '%s\n' "$PMAP" | awk -v n=$NFS_PROG -v m=$MOUNT_PROG -v np="$NFS_PORT" -v mp="$MOUNT_PORT" \
	'($1 == n && $4 != np) || ($1 == m && $4 != mp)')
[ -z "$other" ] && ok "no stray ports registered" ||
	not_ok "rpcinfo -p: registrations on unexpected ports" "$other"
# NFSACL is not served, so it must not be registered either
[ -z "$(rpcbind_entries $NFSACL_PROG)" ] && ok "nfsacl not registered" ||
	not_ok "rpcinfo -p: 100227 (NFSACL) is registered but not served" "$PMAP"

if [ -n "$IPV6" ]; then
	for prog in $NFS_PROG $MOUNT_PROG; do
		ids=$(netids $prog)
		missing=
		for n in tcp udp tcp6 udp6; do
			case ",$ids," in *",$n,"*) ;; *) missing="$missing $n" ;; esac
		done
		[ -z "$missing" ] && ok "$prog netids $ids" ||
			not_ok "rpcinfo -s: program $prog lacks netid(s):$missing" "$(rpcinfo -s 127.0.0.1)"
	done
else
	echo "note: no IPv6 on lo, tcp6/udp6 registration not checked"
fi

# ---------------------------------------------------------------------------
# 2. rpcinfo pings (through rpcbind and on the explicit port)

for t in t u; do
	run_expect "rpcinfo -$t nfs 3" 'ready and waiting' rpcinfo -$t 127.0.0.1 $NFS_PROG 3
	run_expect "rpcinfo -$t mountd 3" 'ready and waiting' rpcinfo -$t 127.0.0.1 $MOUNT_PROG 3
	run_expect "rpcinfo -n -$t nfs 3" 'ready and waiting' rpcinfo -n "$NFS_PORT" -$t 127.0.0.1 $NFS_PROG 3
	run_expect "rpcinfo -n -$t mountd 3" 'ready and waiting' rpcinfo -n "$MOUNT_PORT" -$t 127.0.0.1 $MOUNT_PROG 3
done
if grep -q '^nfs[[:space:]]' /etc/rpc 2>/dev/null; then
	run_expect "rpcinfo -t by name (nfs)" 'ready and waiting' rpcinfo -t 127.0.0.1 nfs 3
	run_expect "rpcinfo -u by name (mountd)" 'ready and waiting' rpcinfo -u 127.0.0.1 mountd 3
fi

# ---------------------------------------------------------------------------
# 3. NULL with rpcprobe on every transport, NFSACL and unknown programs

for proto in $PROTOS; do
	run_check "NULL nfs v3 over $proto" nfs_probe $proto null $NFS_PROG 3
	run_check "NULL mount v3 over $proto" mnt_probe $proto null $MOUNT_PROG 3
	run_check "NFSACL (100227 v3) over $proto is PROG_UNAVAIL" \
		nfs_probe $proto expect-prog-unavail $NFSACL_PROG 3
	run_check "unknown program 100099 over $proto is PROG_UNAVAIL" \
		nfs_probe $proto expect-prog-unavail 100099 1
done

# ---------------------------------------------------------------------------
# 4. the export list: MOUNT EXPORT (v3, both transports) and showmount

for proto in tcp udp; do
	if run_check "MOUNT EXPORT over $proto" mnt_probe $proto exports; then
		line=$(printf '%s\n' "$OUT" | grep -F "export=$EXPORT groups=")
		# a host may also be shown as 127.0.0.1/32, ::1/128
		case ",$(field groups "$line")," in
		*,127.0.0.1[,/]*::1[,/]* | *,::1[,/]*127.0.0.1[,/]*) ok "EXPORT lists $EXPORT clients" ;;
		*) not_ok "MOUNT EXPORT over $proto: $EXPORT should list 127.0.0.1 and ::1" "$OUT" ;;
		esac
		line=$(printf '%s\n' "$OUT" | grep -F "export=$PUB groups=")
		case ",$(field groups "$line")," in
		*,\*,*10.0.0.0/8,* | *,10.0.0.0/8,*\*,*) ok "EXPORT lists $PUB clients" ;;
		*) not_ok "MOUNT EXPORT over $proto: $PUB should list * and 10.0.0.0/8" "$OUT" ;;
		esac
	fi
done

if command -v showmount >/dev/null 2>&1; then
	# showmount (nfs-utils) finds mountd through rpcbind
	if run_check "showmount -e 127.0.0.1" showmount -e 127.0.0.1; then
		line=$(printf '%s\n' "$OUT" | awk -v e="$EXPORT" '$1 == e')
		case "$line" in
		*127.0.0.1*) case "$line" in *::1*) ok "showmount lists $EXPORT" ;;
			*) not_ok "showmount: ::1 missing for $EXPORT" "$OUT" ;; esac ;;
		*) not_ok "showmount: $EXPORT with 127.0.0.1 missing" "$OUT" ;;
		esac
		line=$(printf '%s\n' "$OUT" | awk -v e="$PUB" '$1 == e')
		case "$line" in
		*10.0.0.0/8*) ok "showmount lists $PUB" ;;
		*) not_ok "showmount: $PUB with 10.0.0.0/8 missing" "$OUT" ;;
		esac
	fi
else
	echo "note: showmount not installed, skipped"
fi

# ---------------------------------------------------------------------------
# 5. a second daemon on the same ports must fail, and leave the first alone

mkdir -p "$WORKDIR/state2"
timeout 15 "$USERNFSD" --exports "$EXPORTS_FILE" --foreground \
	--nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT" \
	--pidfile "$WORKDIR/second.pid" --state-dir "$WORKDIR/state2" \
	</dev/null >"$WORKDIR/second.log" 2>&1 9>&-
rc=$?
if [ $rc -eq 124 ]; then
	not_ok "second daemon on the same ports was still running after 15 s (should fail to bind)" \
		"$(cat "$WORKDIR/second.log")"
elif [ $rc -eq 0 ]; then
	not_ok "second daemon on the same ports exited 0 (should fail)" "$(cat "$WORKDIR/second.log")"
else
	ok "second daemon exits $rc"
	[ -s "$WORKDIR/second.log" ] && ok "second daemon says why" ||
		not_ok "second daemon failed without a message on stderr"
fi
check_daemon_alive "a second daemon tried the same ports"
for proto in tcp udp; do
	registered $NFS_PROG $proto "$NFS_PORT" && registered $MOUNT_PROG $proto "$MOUNT_PORT" &&
		ok "registrations intact ($proto)" ||
		not_ok "the failed second daemon removed the first one's $proto registrations" \
			"$(rpcinfo -p 127.0.0.1)"
	run_check "first daemon still answers over $proto" nfs_probe $proto null $NFS_PROG 3
done

# ---------------------------------------------------------------------------
# 6. SIGTERM: exit 0 and unregister everything

stop_daemon
ok "SIGTERM: exit status 0"
for prog in $NFS_PROG $MOUNT_PROG; do
	run_check "program $prog unregistered after SIGTERM" no_registration $prog
done

# ---------------------------------------------------------------------------
# 7. --no-rpcbind: nothing registered, NULL works on the explicit ports

start_daemon "$EXPORTS" --no-rpcbind
for prog in $NFS_PROG $MOUNT_PROG; do
	run_check "--no-rpcbind: program $prog not registered" no_registration $prog
done
for proto in $PROTOS; do
	run_check "--no-rpcbind: NULL nfs over $proto" nfs_probe $proto null $NFS_PROG 3
	run_check "--no-rpcbind: NULL mount over $proto" mnt_probe $proto null $MOUNT_PROG 3
done
stop_daemon

# ---------------------------------------------------------------------------
# 8. daemon mode (no --foreground): the parent exits 0 only once ready

rm -f "$PIDFILE"
timeout 20 "$USERNFSD" --exports "$EXPORTS_FILE" \
	--nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT" \
	--pidfile "$PIDFILE" --state-dir "$STATE_DIR" \
	</dev/null >"$WORKDIR/detached.log" 2>&1 9>&-
rc=$?
if [ $rc -ne 0 ]; then
	not_ok "daemon mode: the parent exited $rc (expected 0 once ready)" "$(cat "$WORKDIR/detached.log")"
else
	ok "daemon mode: parent exit 0"
	# no sleeping here: all of this must hold the moment the parent is gone
	dpid=$(tr -d ' \n' <"$PIDFILE" 2>/dev/null)
	if [ -n "$dpid" ] && _pid_running "$dpid"; then
		ok "daemon mode: pidfile names a running process"
		EXTRA_PIDS="$EXTRA_PIDS $dpid"
	else
		not_ok "daemon mode: no pidfile or its pid '$dpid' is not running right after the parent exited"
	fi
	registered $NFS_PROG tcp "$NFS_PORT" && registered $MOUNT_PROG udp "$MOUNT_PORT" &&
		ok "daemon mode: registered when the parent exits" ||
		not_ok "daemon mode: not (yet) registered when the parent exited" "$(rpcinfo -p 127.0.0.1)"
	run_check "daemon mode: NULL answers right away" nfs_probe tcp null $NFS_PROG 3
	run_expect "daemon mode: rpcinfo -u answers" 'ready and waiting' rpcinfo -u 127.0.0.1 $NFS_PROG 3
	if [ -n "$dpid" ]; then
		kill -TERM "$dpid" 2>/dev/null
		for i in $(seq 100); do _pid_running "$dpid" || break; sleep 0.1; done
		if _pid_running "$dpid"; then
			not_ok "daemon mode: still running 10 s after SIGTERM"
		else
			ok "daemon mode: exits on SIGTERM"
			run_check "daemon mode: unregistered after SIGTERM" no_registration $NFS_PROG
		fi
	fi
fi

# ---------------------------------------------------------------------------
# 9. bad exports files

BAD=$WORKDIR/bad-exports
printf '%s\n' "$EXPORT 127.0.0.1(rw,frobnicate)" >"$BAD"
run_check "--check-exports accepts the good file" "$USERNFSD" --check-exports --exports "$EXPORTS_FILE"
OUT=$("$USERNFSD" --check-exports --exports "$BAD" 2>&1)
rc=$?
[ $rc -eq 1 ] && ok "--check-exports rejects an unknown option" ||
	not_ok "--check-exports on a bad file exited $rc (expected 1)" "$OUT"
printf '%s\n' "$EXPORT 127.0.0.1(rw" >"$BAD.paren"
OUT=$("$USERNFSD" --check-exports --exports "$BAD.paren" 2>&1)
rc=$?
[ $rc -eq 1 ] && ok "--check-exports rejects an unclosed parenthesis" ||
	not_ok "--check-exports on an unclosed '(' exited $rc (expected 1)" "$OUT"

rm -f "$PIDFILE"
timeout 20 "$USERNFSD" --exports "$BAD" --nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT" \
	--pidfile "$PIDFILE" --state-dir "$STATE_DIR" </dev/null >"$WORKDIR/bad.log" 2>&1 9>&-
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ]; then
	ok "daemon mode with a bad exports file exits $rc"
else
	not_ok "daemon mode with a bad exports file exited $rc (expected non-zero, promptly)" \
		"$(cat "$WORKDIR/bad.log")"
fi
if [ -s "$PIDFILE" ]; then
	p=$(tr -d ' \n' <"$PIDFILE")
	if _pid_running "$p"; then
		EXTRA_PIDS="$EXTRA_PIDS $p"
		not_ok "a daemon (pid $p) is running although the exports file is bad"
	fi
fi
run_check "bad exports: nothing registered" no_registration $NFS_PROG

timeout 20 "$USERNFSD" --exports "$BAD" --foreground --nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT" \
	--pidfile "$PIDFILE" --state-dir "$STATE_DIR" </dev/null >"$WORKDIR/bad-fg.log" 2>&1 9>&-
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "--foreground with a bad exports file exits $rc" ||
	not_ok "--foreground with a bad exports file exited $rc (expected non-zero, promptly)" \
		"$(cat "$WORKDIR/bad-fg.log")"

finish
