#!/bin/bash
# integ_demo.sh - a newcomer's first run (README's quick start, issue 26):
# tests/demo.sh itself sets up a fresh export and starts the daemon, on the
# test ports (DEMO_PREPARED=1: no packages, no build), and the commands it
# prints must work:
#   - the mount line is the Linux client's, for this host and the ports the
#     daemon registered (a string check; the kernel-client tests mount);
#   - showmount -e lists the export; nfs-ls with the printed URL lists
#     hello.txt (when libnfs-utils is installed);
#   - the printed usernfsctl stats, with no socket flag, answers: the demo's
#     daemon has the default control socket, which both programs agree on;
#   - a second daemon that finds the default taken listens in its state
#     directory and says so, leaving the first one's socket alone;
#   - a socket in a directory that does not exist yet: the daemon makes it.
# A usernfsd already answering on the default socket (a real service) is
# not touched: the test is skipped.
. "$(dirname "$0")/lib.sh"

need_cmd showmount rpcinfo
setup
[ -x "$USERNFSCTL" ] || skip "usernfsctl not built: $USERNFSCTL"
# demo.sh execs the daemon itself: there is no place for a wrapper.
[ -z "${USERNFSD_WRAPPER:-}" ] || skip "demo.sh starts the daemon itself (no USERNFSD_WRAPPER)"

DEMO=$WORKDIR/demo

# The default socket, as each program's --help gives it.
DEF=$("$USERNFSD" --help | sed -n 's/.*--socket PATH .*(default \([^;]*\);.*/\1/p')
CTL_DEF=$("$USERNFSCTL" --help | sed -n 's/.*--socket PATH .*(default \([^)]*\)).*/\1/p')
expect_eq "usernfsd and usernfsctl have the same default socket" "$CTL_DEF" "$DEF" \
	"$("$USERNFSD" --help; "$USERNFSCTL" --help)"
[ -n "$DEF" ] || fail "no default socket in usernfsd --help"
if "$USERNFSCTL" stats >/dev/null 2>&1; then
	skip "a usernfsd already answers on $DEF (a real service?): not starting another there"
fi
# A build whose run-state directory does not exist: the daemon makes it,
# and the test removes what it made (when empty) at exit, deepest first.
made=
d=${DEF%/*}
while [ -n "$d" ] && [ ! -d "$d" ]; do
	made="$made '$d'"
	d=${d%/*}
done
[ -z "$made" ] || at_exit "rmdir$made 2>/dev/null"

# start_demo [USERNFSD ARGS...]: tests/demo.sh in the background, on the
# test ports and $DEMO; its output (what it prints, then the daemon's log)
# in $DAEMON_LOG; the daemon is $DAEMON_PID (demo.sh execs it), stopped at
# exit by lib.sh. Waits for the daemon's ready line.
start_demo() {
	local i rc
	if "$RPCPROBE" -t 2 127.0.0.1 "$NFS_PORT" tcp null $NFS_PROG 3 >/dev/null 2>&1; then
		fail "something already answers NFS on 127.0.0.1:$NFS_PORT (a stale daemon?)"
	fi
	start_rpcbind
	clear_stale_registrations
	DAEMON_N=$((DAEMON_N + 1))
	DAEMON_LOG=$WORKDIR/demo.$DAEMON_N.log
	DEMO_PREPARED=1 DEMO_DIR=$DEMO NFS_PORT=$NFS_PORT MOUNT_PORT=$MOUNT_PORT \
		USERNFSD=$USERNFSD USERNFSCTL=$USERNFSCTL \
		sh "$TESTS_SRCDIR/demo.sh" "$@" </dev/null >"$DAEMON_LOG" 2>&1 9>&- &
	DAEMON_PID=$!
	for i in $(seq 100); do
		grep -q '^usernfsd: ready' "$DAEMON_LOG" && return 0
		if ! _pid_running "$DAEMON_PID"; then
			wait "$DAEMON_PID"
			rc=$?
			DAEMON_PID=
			fail "demo.sh exited with status $rc before the daemon was ready"
		fi
		sleep 0.1
	done
	fail "the demo's daemon printed no ready line within 10 s"
}

# printed ERE: the first line of what the demo printed that matches ERE,
# without its indentation
printed() {
	grep -m 1 -E "$1" "$DAEMON_LOG" | sed 's/^ *//'
}

# ---------------------------------------------------------------------------
# 1. the demo as a newcomer runs it: the default control socket

start_demo
[ -s "$DEMO/export/hello.txt" ] && ok "the demo made its export" ||
	not_ok "no $DEMO/export/hello.txt"

MOUNT_LINE=$(printed '^ *mount -t nfs ')
HOST=$(printf '%s\n' "$MOUNT_LINE" | sed -n 's/.* \([^ :]*\):\/.*/\1/p')
expect_eq "the printed mount command is a Linux client's" "$MOUNT_LINE" \
	"mount -t nfs -o vers=3,proto=tcp,port=$NFS_PORT,mountport=$MOUNT_PORT $HOST:$DEMO/export /mnt" \
	"$(cat "$DAEMON_LOG")"
case " $(hostname -I 2>/dev/null) 127.0.0.1 " in
*" $HOST "*) ok "the printed host $HOST is this machine's" ;;
*) not_ok "the printed host '$HOST' is none of this machine's addresses" "$(hostname -I)" ;;
esac
# The ports it names are where clients find the server through rpcbind.
expect_eq "NFS v3 over TCP is registered on the printed port" \
	"$(rpcbind_entries $NFS_PROG | awk '$2 == 3 && $3 == "tcp" { print $4 }')" "$NFS_PORT" \
	"$(rpcinfo -p 127.0.0.1)"
expect_eq "MOUNT v3 over TCP is registered on the printed mountport" \
	"$(rpcbind_entries $MOUNT_PROG | awk '$2 == 3 && $3 == "tcp" { print $4 }')" "$MOUNT_PORT" \
	"$(rpcinfo -p 127.0.0.1)"

EXP_RE="^${DEMO//./\\.}/export "
run_expect "showmount -e 127.0.0.1 lists the export" "$EXP_RE" showmount -e 127.0.0.1
SHOWMOUNT=$(printed '^ *showmount -e ')
expect_eq "the printed showmount command" "$SHOWMOUNT" "showmount -e $HOST"
run_expect "the printed showmount command lists the export" "$EXP_RE" $SHOWMOUNT

URL=$(printed "^ *nfs-ls '" | sed -n "s/^nfs-ls '\(.*\)'$/\1/p")
expect_eq "the printed nfs-ls URL" "$URL" \
	"nfs://$HOST$DEMO/export?version=3&nfsport=$NFS_PORT&mountport=$MOUNT_PORT"
if command -v nfs-ls >/dev/null 2>&1; then
	run_expect "the printed nfs-ls lists hello.txt" '(^| )hello\.txt$' nfs-ls "$URL"
else
	echo "note: nfs-ls not installed (libnfs-utils): the printed URL is not tried"
fi

CTL_LINE=$(printed ' stats$')
expect_eq "the printed usernfsctl command has no socket flag" "$CTL_LINE" "$USERNFSCTL stats"
[ -S "$DEF" ] && ok "the daemon listens on the default socket $DEF" ||
	not_ok "no socket at $DEF" "$(cat "$DAEMON_LOG")"
# shellcheck disable=SC2086
run_expect "the printed usernfsctl stats answers" '^Server rpc stats' $CTL_LINE
run_expect "usernfsctl with no flag reaches the demo's daemon" "^$DEMO/export	127\\.0\\.0\\.1\\(rw" \
	"$USERNFSCTL" exports
if grep -qE 'control socket .*(instead|will not reach)' "$DAEMON_LOG"; then
	not_ok "the daemon could not use its default control socket" "$(cat "$DAEMON_LOG")"
else
	ok "the daemon uses its default control socket"
fi

# ---------------------------------------------------------------------------
# 2. a second daemon without --socket: the default is taken, so it listens
# in its state directory, says where, and the first keeps its socket

before=$(stat -c %i "$DEF")
B_STATE=$WORKDIR/state-b
B_LOG=$WORKDIR/second.log
"$USERNFSD" --foreground --no-rpcbind --exports "$DEMO/exports" --state-dir "$B_STATE" \
	--nfs-port $((NFS_PORT + 100)) --mount-port $((MOUNT_PORT + 100)) \
	</dev/null >"$B_LOG" 2>&1 9>&- &
B_PID=$!
EXTRA_PIDS="$EXTRA_PIDS $B_PID"
for _ in $(seq 100); do
	grep -q ready "$B_LOG" && break
	_pid_running "$B_PID" || break
	sleep 0.1
done
grep -q ready "$B_LOG" || fail "the second daemon did not start: $(cat "$B_LOG")"
grep -qF "using $B_STATE/usernfsd.sock instead (usernfsctl -s $B_STATE/usernfsd.sock)" "$B_LOG" &&
	ok "the second daemon says where its control socket is" ||
	not_ok "the second daemon did not say it fell back to $B_STATE/usernfsd.sock" "$(cat "$B_LOG")"
run_expect "usernfsctl -s reaches the second daemon there" '^Server rpc stats' \
	"$USERNFSCTL" -s "$B_STATE/usernfsd.sock" stats
kill -TERM "$B_PID"
wait "$B_PID"
rc=$?
expect_eq "the second daemon exits 0" "$rc" 0 "$(cat "$B_LOG")"
expect_eq "the first daemon's socket is left as it was" "$(stat -c %i "$DEF" 2>/dev/null)" "$before"
run_check "and still answers" "$USERNFSCTL" stats

check_daemon_alive "the demo's checks"
stop_daemon
[ ! -e "$DEF" ] && ok "the demo's daemon removed its socket at exit" ||
	not_ok "$DEF is still there after the daemon stopped"

# ---------------------------------------------------------------------------
# 3. --socket in a directory that does not exist yet: it is made

SOCK=$WORKDIR/run/usernfsd/usernfsd.sock
start_demo --socket "$SOCK"
[ -S "$SOCK" ] && ok "--socket in a new directory: the socket is there" ||
	not_ok "no socket at $SOCK" "$(cat "$DAEMON_LOG")"
expect_eq "the directory made for it has mode 755" "$(stat -c %a "${SOCK%/*}" 2>/dev/null)" 755
grep -qF "created the directory ${SOCK%/*}" "$DAEMON_LOG" && ok "the daemon says it made it" ||
	not_ok "the daemon did not say it made ${SOCK%/*}" "$(cat "$DAEMON_LOG")"
run_expect "usernfsctl -s answers there" '^Server rpc stats' "$USERNFSCTL" -s "$SOCK" stats
[ ! -e "$DEF" ] && ok "nothing at the default socket meanwhile" || not_ok "$DEF exists"
stop_daemon

finish
