# tests/guest/guest-lib.sh - helpers shared by the scripts that run inside
# the QEMU guest (kernel-client.sh, kernel-v2.sh, powerloss.sh, share.sh,
# package.sh); the host-side tests have tests/lib.sh instead.
#
# The guest's root is the host's, so a script finds this file beside it:
#
#     . "$(dirname "$0")/guest-lib.sh"
#
# What it provides (the script defines fail MSG itself, for its own way of
# reporting, before it calls any of them):
#   drop_caches              sync and drop the page cache, so that the next
#                            reads go to the server
#   start_daemon [ARGS...]   $daemon in the foreground and background:
#                            exports $work/exports, state $work/state,
#                            pidfile $work/pid, ports $NFS_PORT/$MOUNT_PORT,
#                            no rpcbind, output appended to $log; waits up to
#                            10 s for the pidfile
#   stop_daemon              SIGTERM, then up to 10 s for the pidfile to go
#   check_sanitizer_reports  fail when the daemon log ($log) holds an ASan,
#                            LSan or UBSan report (a daemon built with
#                            --enable-sanitizers goes on after UBSan's)

drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

start_daemon() {
	rm -f "$work/pid"
	"$daemon" --foreground --no-rpcbind --exports "$work/exports" --state-dir "$work/state" \
		--pidfile "$work/pid" --nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT" "$@" \
		>>"$log" 2>&1 3<&- &
	for _ in $(seq 100); do
		[ -s "$work/pid" ] && return 0
		sleep 0.1
	done
	fail "daemon did not start"
}

stop_daemon() {
	kill -TERM "$(cat "$work/pid")"
	for _ in $(seq 100); do
		[ -e "$work/pid" ] || return 0
		sleep 0.1
	done
	fail "daemon did not stop"
}

check_sanitizer_reports() {
	if grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" >/dev/null 2>&1; then
		grep -E -A 30 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" | head -n 60
		fail "sanitizer report in the daemon log"
	fi
}
