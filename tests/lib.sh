# tests/lib.sh - shared helpers for usernfsd's host-side integration tests.
#
# Sourced (by bash) from every tests/integ_*.sh:
#
#     . "$(dirname "$0")/lib.sh"
#
# What it provides
#   skip REASON              exit 77 (automake's SKIP) with a reason
#   need_root, need_cmd CMD|PKG..., need_ipv6_lo
#   fail MSG                 fatal error: prints MSG and the daemon log tail, exit 1
#   ok DESC / not_ok DESC [DETAILS]   record one check
#   run_check DESC CMD...    check passes iff CMD exits 0 (its output: $OUT)
#   run_expect DESC ERE CMD...   check passes iff CMD's output matches ERE
#   finish                   print "NAME: N passed, M failed" and exit 0/1
#   at_exit CMD              run CMD at exit (never set an EXIT trap yourself)
#   start_rpcbind            use the running rpcbind, or start one (stopped at exit)
#   start_daemon EXPORTS_CONTENT [EXTRA ARGS...]   start usernfsd in the foreground
#   stop_daemon              SIGTERM, bounded wait, the exit status must be 0
#   restart_daemon           stop_daemon + start again with the same exports/args
#   daemon_alive             0 if the daemon process is still running
#   _wait_gone PID N SECS    poll until PID has exited; 1 if it is still running
#   stop_bg PID SIGNAL       signal a background helper and reap it
#   probe ARGS...            run rpcprobe
#   nfs_probe PROTO [OPTS] CMD...   rpcprobe against 127.0.0.1:$NFS_PORT (::1 for *6)
#   mnt_probe PROTO [OPTS] CMD...   rpcprobe against 127.0.0.1:$MOUNT_PORT
#   probe_argv BIN FLAGS ARGFLAGS HOST PORT PROTO [OPTS] CMD...   sets PROBE_ARGV
#                            to a probe's command line (HOST - : by PROTO)
#   field KEY TEXT           value of the first KEY=value token in TEXT
#   ok_field KEY CMD...      CMD's KEY= value when it printed status=0
#   mnt_fh PROTO PATH        prints the MNT handle of PATH (empty on failure)
#   fh_of PROTO ROOTFH REL/PATH   handle of a path below a root handle
#   call PROTO [OPTS] CMD... nfs_probe; its output in $OUT, its status= in $ST
#   expect_st DESC ERE PROTO [OPTS] CMD...   check: call's status matches ^(ERE)$
#   expect_eq DESC GOT WANT [DETAILS]        check: GOT = WANT
#   hex STRING               STRING's bytes in hex
#   build_tool NAME          compile tests/NAME.c + rpcraw.c into $WORKDIR/NAME
#   nfsurl PATH              libnfs URL for PATH (relative paths: under $EXPORT)
#   start_head_b [ARGS...]   a second head on $EXPORTS_FILE: ports $B_NFS_PORT /
#                            $B_MOUNT_PORT (default NFS_PORT / MOUNT_PORT + 100),
#                            state $B_STATE (default $WORKDIR/state-b), no rpcbind;
#                            pid $B_PID, log $B_LOG; waits for its 'ready'
#   stop_head_b              SIGTERM head B; its exit status must be 0
#
# Environment knobs
#   USERNFSD   daemon binary (default $top_builddir/src/usernfsd)
#   RPCPROBE   probe binary  (default $top_builddir/tests/rpcprobe; built
#              on the fly by build_tool into the scratch dir if missing)
#   top_builddir   (default: the first of ., .., $(dirname $0)/.. that holds
#              src/usernfsd)
#   NFS_PORT / MOUNT_PORT  test ports (default 32049 / 32048)
#   USERNFSD_WRAPPER   e.g. "valgrind -q" (then the pidfile check is relaxed)
#   USERNFSCTL  control client (default $top_builddir/src/usernfsctl); each
#              test daemon has its own control socket, $CTL_SOCK (in its
#              state directory)
#   TEST_DEBUG=1   pass --debug to the daemon; VERBOSE=1 print passing checks
#   KEEP_TMP=1     keep the scratch directory
#   LOCK_TIMEOUT   seconds to wait for the global test lock (default 600)

TEST_NAME=$(basename "$0" .sh)
TESTS_SRCDIR=$(cd "$(dirname "$0")" && pwd)

NFS_PORT=${NFS_PORT:-32049}
MOUNT_PORT=${MOUNT_PORT:-32048}
NFS_PROG=100003
MOUNT_PROG=100005
NFSACL_PROG=100227
NLM_PROG=100021

# nfsstat3 / mountstat3 values used by the tests
NFS3_OK=0
NFS3ERR_NOENT=2
NFS3ERR_ACCES=13
NFS3ERR_ROFS=30
NFS3ERR_STALE=70
NFS3ERR_BADHANDLE=10001
NFS3ERR_NOTSUPP=10004
MNT3ERR_NOENT=2
MNT3ERR_ACCES=13

PASSED=0
FAILED=0
DAEMON_PID=
DAEMON_LOG=
DAEMON_N=0
RPCBIND_PID=
EXTRA_PIDS=
WORKDIR=

# ---------------------------------------------------------------------------
# reporting

skip() {
	echo "SKIP: $TEST_NAME: $*"
	exit 77
}

daemon_log_tail() {
	if [ -n "$DAEMON_LOG" ] && [ -f "$DAEMON_LOG" ]; then
		echo "---- last ${1:-30} lines of $DAEMON_LOG ----"
		tail -n "${1:-30}" "$DAEMON_LOG"
		echo "----"
	fi
}

fail() {
	echo "FAIL: $TEST_NAME: $*" >&2
	daemon_log_tail 40 >&2
	exit 1
}

ok() {
	PASSED=$((PASSED + 1))
	if [ -n "${VERBOSE:-}" ]; then echo "ok: $1"; fi
}

# not_ok DESC [DETAILS]
not_ok() {
	FAILED=$((FAILED + 1))
	{
		echo "FAIL: $1"
		if [ -n "${2:-}" ]; then printf '%s\n' "$2" | head -n 40 | sed 's/^/    /'; fi
	} >&2
}

# run_check DESC CMD...: passes iff CMD exits 0; its output is left in $OUT
run_check() {
	local desc=$1; shift
	OUT=$("$@" 2>&1)
	RC=$?
	if [ "$RC" -eq 0 ]; then
		ok "$desc"
	else
		not_ok "$desc" "command: $*
exit status: $RC
$OUT"
	fi
	return $RC
}

# run_expect DESC ERE CMD...: passes iff CMD's output (stdout+stderr)
# matches the extended regular expression ERE; its output is left in $OUT
run_expect() {
	local desc=$1 ere=$2; shift 2
	OUT=$("$@" 2>&1)
	RC=$?
	if printf '%s\n' "$OUT" | grep -Eq -- "$ere"; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc" "command: $*
expected output matching: $ere
exit status: $RC
$OUT"
	return 1
}

finish() {
	if [ "$FAILED" -gt 0 ]; then
		daemon_log_tail 40 >&2
	fi
	echo "$TEST_NAME: $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ] && exit 0
	exit 1
}

# ---------------------------------------------------------------------------
# requirements

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (rpcbind registration, reserved ports, file handles)"
}

# need_cmd CMD...: a word containing '-utils' or a known package name is
# mapped to the commands it provides
need_cmd() {
	local c
	for c in "$@"; do
		case $c in
		libnfs-utils) need_cmd nfs-ls nfs-cat nfs-cp ;;
		nfs-common) need_cmd showmount ;;
		*) command -v "$c" >/dev/null 2>&1 || skip "command '$c' not found" ;;
		esac
	done
}

has_ipv6_lo() {
	[ -r /proc/net/if_inet6 ] && grep -q ' lo$' /proc/net/if_inet6
}

need_ipv6_lo() {
	has_ipv6_lo || skip "no IPv6 address on lo"
}

# ---------------------------------------------------------------------------
# locating the binaries

if [ -z "${top_builddir:-}" ]; then
	for d in . .. "$TESTS_SRCDIR/.."; do
		if [ -x "$d/src/usernfsd" ]; then top_builddir=$d; break; fi
	done
	: "${top_builddir:=$TESTS_SRCDIR/..}"
fi
USERNFSD=${USERNFSD:-$top_builddir/src/usernfsd}
RPCPROBE=${RPCPROBE:-$top_builddir/tests/rpcprobe}
USERNFSCTL=${USERNFSCTL:-$top_builddir/src/usernfsctl}

# ---------------------------------------------------------------------------
# the global lock, scratch directory and cleanup

_stop_pid() {   # _stop_pid PID: TERM, up to 5 s, then KILL (not for our children's status)
	local pid=$1
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	_wait_gone "$pid" 50 0.1 && return 0
	echo "warning: pid $pid ignored SIGTERM for 5 s, sending SIGKILL" >&2
	kill -KILL "$pid" 2>/dev/null
}

# _wait_gone PID N SECONDS: poll N times, SECONDS apart, until PID is no
# longer running; 1 when it still is
_wait_gone() {
	local i
	for i in $(seq "$2"); do
		_pid_running "$1" || return 0
		sleep "$3"
	done
	! _pid_running "$1"
}

# stop_bg PID SIGNAL: signal a helper the test started in the background
# (nothing when PID is empty) and reap it
stop_bg() {
	[ -n "$1" ] || return 0
	kill "-$2" "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# running = exists and is not a zombie
_pid_running() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ]
}

# at_exit CMD: run CMD (eval'd) when the test exits, after the daemon is
# stopped (it may hold files open under a mount that CMD removes).  Tests
# must not set an EXIT trap of their own: it would replace this one and
# leave the daemon and rpcbind running.
AT_EXIT_CMDS=()
at_exit() {
	AT_EXIT_CMDS+=("$1")
}

_cleanup() {
	local rc=$? p c
	trap - EXIT
	if [ -n "$DAEMON_PID" ]; then
		p=$(_daemon_real_pid)
		[ "$p" = "$DAEMON_PID" ] || _stop_pid "$p"
		_stop_pid "$DAEMON_PID"
		wait "$DAEMON_PID" 2>/dev/null
	fi
	for p in $EXTRA_PIDS; do _stop_pid "$p"; done
	for c in "${AT_EXIT_CMDS[@]}"; do eval "$c"; done
	if [ -n "$RPCBIND_PID" ]; then
		_stop_pid "$RPCBIND_PID"
		wait "$RPCBIND_PID" 2>/dev/null
	fi
	if [ -n "$WORKDIR" ] && [ -d "$WORKDIR" ]; then
		if [ -n "${KEEP_TMP:-}" ]; then
			echo "$TEST_NAME: scratch kept in $WORKDIR"
		else
			rm -rf "$WORKDIR"
		fi
	fi
	exit $rc
}

trap _cleanup EXIT
trap 'exit 1' INT TERM HUP

# Take the lock that keeps two tests from running daemons at the same
# time.  fd 9 is closed for every long-lived process we start, so only
# this shell holds it.
take_lock() {
	need_cmd flock
	exec 9>>"${USERNFSD_TEST_LOCK:-/tmp/usernfsd-tests.lock}"
	flock -w "${LOCK_TIMEOUT:-600}" 9 ||
		fail "could not take ${USERNFSD_TEST_LOCK:-/tmp/usernfsd-tests.lock} within ${LOCK_TIMEOUT:-600} s"
}

make_workdir() {
	WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/usernfsd-$TEST_NAME.XXXXXX") ||
		fail "mktemp failed"
	EXPORTS_FILE=$WORKDIR/exports
	STATE_DIR=$WORKDIR/state
	PIDFILE=$WORKDIR/usernfsd.pid
	CTL_SOCK=$STATE_DIR/usernfsd.sock	# the daemon's control socket (usernfsctl -s)
	mkdir -p "$STATE_DIR"
}

# build_tool NAME: compile tests/NAME.c with the raw RPC client library
# (tests/rpcraw.c) into $WORKDIR/NAME, for a tool make has not built; skips
# the test without gcc and libtirpc
build_tool() {
	command -v gcc >/dev/null 2>&1 && pkg-config --exists libtirpc 2>/dev/null ||
		skip "$1 not built and no gcc/libtirpc to build it"
	# shellcheck disable=SC2046
	gcc -O2 -Wall -Wextra -Werror -pthread $(pkg-config --cflags libtirpc) \
		-o "$WORKDIR/$1" "$TESTS_SRCDIR/$1.c" "$TESTS_SRCDIR/rpcraw.c" \
		$(pkg-config --libs libtirpc) ||
		fail "cannot build $1 from $TESTS_SRCDIR/$1.c"
}

# Make sure the binaries are there; build rpcprobe if needed.
need_binaries() {
	[ -x "$USERNFSD" ] || skip "daemon not built: $USERNFSD (set USERNFSD=...)"
	if [ ! -x "$RPCPROBE" ]; then
		build_tool rpcprobe
		RPCPROBE=$WORKDIR/rpcprobe
	fi
}

# The usual prologue: root, lock, scratch dir, binaries.
setup() {
	need_root
	take_lock
	make_workdir
	need_binaries
}

# ---------------------------------------------------------------------------
# rpcbind

start_rpcbind() {
	local i
	if rpcinfo -p 127.0.0.1 >/dev/null 2>&1; then
		return 0      # somebody else's rpcbind: use it, never stop it
	fi
	need_cmd rpcinfo rpcbind
	mkdir -p /run/rpcbind 2>/dev/null
	rpcbind -f </dev/null >"$WORKDIR/rpcbind.log" 2>&1 9>&- &
	RPCBIND_PID=$!
	# rpcbind answers on 127.0.0.1 before it listens on ::1 and on its
	# unix socket, which is what libtirpc's rpcb_set() tries first: wait
	# for all three, or the daemon's registration races rpcbind's start.
	for i in $(seq 50); do
		rpcinfo -p 127.0.0.1 >/dev/null 2>&1 && _rpcbind_socket_listening &&
			{ ! _have_ipv6_loopback || rpcinfo -p ::1 >/dev/null 2>&1; } && return 0
		_pid_running "$RPCBIND_PID" || break
		sleep 0.1
	done
	cat "$WORKDIR/rpcbind.log" >&2
	skip "could not start rpcbind"
}

# /proc/net/unix: Flags 00010000 is __SO_ACCEPTCON, a listening socket.
_rpcbind_socket_listening() {
	awk '$4 == "00010000" && ($8 == "/run/rpcbind.sock" || $8 == "/var/run/rpcbind.sock") { found = 1 }
	     END { exit !found }' /proc/net/unix
}

_have_ipv6_loopback() {
	grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 2>/dev/null
}

# rpcinfo -p lines for PROG (4th column port), e.g. "100003 3 tcp 32049 nfs"
rpcbind_entries() {
	rpcinfo -p 127.0.0.1 2>/dev/null | awk -v p="$1" '$1 == p'
}

# Remove registrations of NFS/MOUNT v3 left behind by an earlier crashed
# test daemon (same ports).  Anything else registered is not ours: skip.
clear_stale_registrations() {
	local prog port stale
	for prog in $NFS_PROG $MOUNT_PROG $NFSACL_PROG $NLM_PROG; do
		stale=$(rpcbind_entries $prog)
		[ -n "$stale" ] || continue
		for port in $(printf '%s\n' "$stale" | awk '{print $4}' | sort -u); do
			if [ "$port" != "$NFS_PORT" ] && [ "$port" != "$MOUNT_PORT" ]; then
				skip "program $prog is registered with rpcbind on port $port (another NFS server?)"
			fi
		done
		echo "note: removing stale rpcbind registrations of $prog" >&2
		for v in $(printf '%s\n' "$stale" | awk '{print $2}' | sort -u); do
			rpcinfo -d "$prog" "$v" 2>/dev/null
		done
	done
}

# ---------------------------------------------------------------------------
# the daemon

# start_daemon EXPORTS_CONTENT [EXTRA ARGS...]
start_daemon() {
	[ -n "$WORKDIR" ] || make_workdir
	DAEMON_EXPORTS=$1
	shift
	DAEMON_EXTRA=("$@")
	printf '%s\n' "$DAEMON_EXPORTS" >"$EXPORTS_FILE"
	_launch_daemon
}

restart_daemon() {
	stop_daemon
	_launch_daemon
}

_daemon_cmd() {
	# In the state directory: a daemon run as another user can create it there.
	CTL_SOCK=$STATE_DIR/usernfsd.sock
	DAEMON_CMD=("$USERNFSD" --exports "$EXPORTS_FILE" --foreground
		--nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT"
		--pidfile "$PIDFILE" --state-dir "$STATE_DIR" --control "$CTL_SOCK")
	if [ -n "${TEST_DEBUG:-}" ]; then DAEMON_CMD+=(--debug); fi
	DAEMON_CMD+=("${DAEMON_EXTRA[@]}")
}

_launch_daemon() {
	local i rc pid
	if "$RPCPROBE" -t 2 127.0.0.1 "$NFS_PORT" tcp null $NFS_PROG 3 >/dev/null 2>&1; then
		fail "something already answers NFS on 127.0.0.1:$NFS_PORT (a stale daemon?)"
	fi
	case " ${DAEMON_EXTRA[*]} " in
	*" --no-rpcbind "*) ;;
	*) start_rpcbind; clear_stale_registrations ;;
	esac
	_daemon_cmd
	DAEMON_N=$((DAEMON_N + 1))
	DAEMON_LOG=$WORKDIR/daemon.$DAEMON_N.log
	rm -f "$PIDFILE"
	# shellcheck disable=SC2086
	${USERNFSD_WRAPPER:-} "${DAEMON_CMD[@]}" </dev/null >>"$DAEMON_LOG" 2>&1 9>&- &
	DAEMON_PID=$!
	for i in $(seq 100); do
		if grep -q ready "$DAEMON_LOG" 2>/dev/null; then
			break
		fi
		if ! _pid_running "$DAEMON_PID"; then
			wait "$DAEMON_PID"
			rc=$?
			DAEMON_PID=
			fail "daemon exited with status $rc before it was ready: ${DAEMON_CMD[*]}"
		fi
		sleep 0.1
	done
	grep -q ready "$DAEMON_LOG" ||
		fail "daemon printed no 'ready' line within 10 s: ${DAEMON_CMD[*]}"
	# the pidfile is written by the time it says ready
	for i in $(seq 10); do [ -s "$PIDFILE" ] && break; sleep 0.1; done
	[ -s "$PIDFILE" ] || fail "daemon said ready but $PIDFILE is missing or empty"
	pid=$(tr -d ' \n' <"$PIDFILE")
	if [ -z "${USERNFSD_WRAPPER:-}" ] && [ "$pid" != "$DAEMON_PID" ]; then
		fail "pidfile says '$pid' but the daemon's pid is $DAEMON_PID"
	fi
}

_daemon_real_pid() {
	local p=
	if [ -n "${USERNFSD_WRAPPER:-}" ] && [ -s "$PIDFILE" ]; then
		p=$(tr -d ' \n' <"$PIDFILE")
	fi
	echo "${p:-$DAEMON_PID}"
}

daemon_alive() {
	[ -n "$DAEMON_PID" ] && _pid_running "$DAEMON_PID"
}

# A check that the daemon survived what the test did to it.
check_daemon_alive() {
	if daemon_alive; then
		ok "daemon alive${1:+ after $1}"
		return 0
	fi
	local rc
	wait "$DAEMON_PID" 2>/dev/null
	rc=$?
	DAEMON_PID=
	not_ok "daemon died${1:+ after $1} (exit status $rc)" "$(daemon_log_tail 30)"
	return 1
}

# SIGTERM, wait up to 10 s; the exit status must be 0.
stop_daemon() {
	local rc
	[ -n "$DAEMON_PID" ] || return 0
	# with a wrapper (strace, ...) the daemon is the pid in the pidfile
	kill -TERM "$(_daemon_real_pid)" 2>/dev/null
	if ! _wait_gone "$DAEMON_PID" 100 0.1; then
		kill -KILL "$DAEMON_PID"
		wait "$DAEMON_PID" 2>/dev/null
		DAEMON_PID=
		fail "daemon did not exit within 10 s of SIGTERM"
	fi
	wait "$DAEMON_PID"
	rc=$?
	DAEMON_PID=
	[ "$rc" -eq 0 ] || fail "daemon exited with status $rc after SIGTERM (expected 0)"
}

# ---------------------------------------------------------------------------
# probing

probe() {
	"$RPCPROBE" "$@"
}

_host_for() {
	case $1 in *6) echo ::1 ;; *) echo 127.0.0.1 ;; esac
}

# probe_argv BIN FLAGS ARGFLAGS HOST PORT PROTO [OPTIONS] COMMAND ARGS...:
# sets PROBE_ARGV to "BIN OPTIONS HOST PORT PROTO COMMAND ARGS...". The
# probes (rpcprobe, nfs2probe, nlmprobe) take their options before HOST;
# the tests write them after PROTO. FLAGS are the option letters without an
# argument, ARGFLAGS those with one; HOST - is ::1 or 127.0.0.1 by PROTO.
probe_argv() {
	local bin=$1 flags=$2 argflags=$3 host=$4 port=$5 proto=$6
	local opts=()
	shift 6
	while [ $# -gt 0 ]; do
		case $1 in
		-["$flags"]) opts+=("$1"); shift ;;
		-["$argflags"]) opts+=("$1" "$2"); shift 2 ;;
		*) break ;;
		esac
	done
	[ "$host" != - ] || host=$(_host_for "$proto")
	PROBE_ARGV=("$bin" "${opts[@]}" "$host" "$port" "$proto" "$@")
}

# _probe_at PORT PROTO [RPCPROBE OPTIONS] COMMAND ARGS...
_probe_at() {
	probe_argv "$RPCPROBE" P augtc - "$@"
	"${PROBE_ARGV[@]}"
}

# nfs_probe PROTO [-a none] [-P] [-t S] [-c N] COMMAND ARGS...
nfs_probe() {
	_probe_at "$NFS_PORT" "$@"
}

mnt_probe() {
	_probe_at "$MOUNT_PORT" "$@"
}

# field KEY TEXT: the value of the first KEY=value token in TEXT
field() {
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1
}

# ok_field KEY CMD...: runs CMD (a probe); prints the value of its KEY= when
# it printed status=0, else nothing and returns 1
ok_field() {
	local key=$1 out
	shift
	out=$("$@" 2>&1) || return 1
	[ "$(field status "$out")" = 0 ] || return 1
	field "$key" "$out"
}

# mnt_fh PROTO PATH: the root handle of PATH in hex, empty if MNT failed
mnt_fh() {
	ok_field fh mnt_probe "$1" mnt "$2"
}

# fh_of PROTO ROOTFH REL/PATH: handle of a path below a root handle
fh_of() {
	ok_field fh nfs_probe "$1" lookup-path "$2" "$3"
}

# call PROTO [OPTS] COMMAND ARGS...: nfs_probe; output in $OUT, the first
# status= in $ST
call() {
	OUT=$(nfs_probe "$@" 2>&1)
	ST=$(field status "$OUT")
}

# expect_st DESC ERE PROTO [OPTS] COMMAND ARGS...: one check, passed when
# the NFS status of the call matches ^(ERE)$; output in $OUT
expect_st() {
	local desc=$1 want=$2
	shift 2
	call "$@"
	if [[ $ST =~ ^($want)$ ]]; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc: status '${ST:-none}', want $want" "command: rpcprobe $*
$OUT"
	return 1
}

# expect_eq DESC GOT WANT [DETAILS]: one check, passed when GOT = WANT;
# DETAILS (default $OUT) are printed when it fails
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1: got '$2', want '$3'" "${4:-${OUT:-}}"
	fi
}

# hex STRING: the bytes of STRING in hex, lower case, no spaces
hex() {
	printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n'
}

# nfsurl PATH: libnfs (4.x/5.x) URL; relative PATHs are below $EXPORT
nfsurl() {
	local p=$1
	case $p in
	/*) ;;
	*) p=${EXPORT%/}/$p ;;
	esac
	echo "nfs://127.0.0.1$p?version=3&nfsport=$NFS_PORT&mountport=$MOUNT_PORT"
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# ---------------------------------------------------------------------------
# a second head (issue 16): tests of several usernfsd over one export

# start_head_b [ARGS...]: head B on the same exports file as the daemon, with
# its own ports, state directory and control socket (there), without rpcbind
# (which holds one port per program); ARGS are added. Its pid is in $B_PID
# (stopped at exit), its output in $B_LOG (head-b.N.log, one per start).
start_head_b() {
	local i
	: "${B_NFS_PORT:=$((NFS_PORT + 100))}" "${B_MOUNT_PORT:=$((MOUNT_PORT + 100))}"
	: "${B_STATE:=$WORKDIR/state-b}" "${B_N:=0}"
	B_N=$((B_N + 1))
	B_LOG=$WORKDIR/head-b.$B_N.log
	mkdir -p "$B_STATE"
	"$USERNFSD" --exports "$EXPORTS_FILE" --foreground --no-rpcbind \
		--nfs-port "$B_NFS_PORT" --mount-port "$B_MOUNT_PORT" \
		--state-dir "$B_STATE" --control "$B_STATE/usernfsd.sock" "$@" \
		</dev/null >"$B_LOG" 2>&1 9>&- &
	B_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $B_PID"
	for i in $(seq 100); do
		grep -q ready "$B_LOG" && return 0
		_pid_running "$B_PID" || { cat "$B_LOG" >&2; fail "head B did not start"; }
		sleep 0.1
	done
	fail "head B printed no 'ready' line within 10 s"
}

# stop_head_b: SIGTERM head B, which must exit 0
stop_head_b() {
	kill -TERM "$B_PID"
	wait "$B_PID" || fail "head B exited with status $? after SIGTERM"
	B_PID=
}
