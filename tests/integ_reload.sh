#!/bin/bash
# integ_reload.sh - SIGHUP re-reads the exports file in the main loop:
#   - a new table takes effect for MOUNT and for every NFS call;
#   - a client that no longer matches gets ACCES on its next call, and
#     recovers when it is allowed again (its handles stay valid);
#   - a file with errors is reported with file:line and the previous
#     table stays in force.
. "$(dirname "$0")/lib.sh"

need_cmd showmount nfs-common
setup

T=$WORKDIR
mkdir -p "$T/one" "$T/two"
echo one >"$T/one/file"
echo two >"$T/two/file"

start_daemon "$T/one 127.0.0.1(rw,insecure) ::1(rw,insecure)"
ROOT=$(mnt_fh tcp "$T/one") || fail "MNT $T/one failed"
FH=$(fh_of tcp "$ROOT" file) || fail "LOOKUP file failed"
run_expect "GETATTR before any reload" '^status=0$' nfs_probe tcp getattr-hex "$FH"

hup() {
	kill -HUP "$(_daemon_real_pid)"
	# the reload is logged once it is done
	for _ in $(seq 50); do
		[ "$(grep -c "${1:-re-reading}" "$DAEMON_LOG")" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "no reload seen in the log"
}

# 1. another export added, the client of the first narrowed to nobody here
printf '%s\n' "$T/one 10.9.9.9(rw)" "$T/two 127.0.0.1(ro,insecure)" >"$EXPORTS_FILE"
hup re-reading 1
sleep 0.3
run_expect "MNT of the new export after SIGHUP" '^status=0' mnt_probe tcp mnt "$T/two"
run_expect "MNT of the narrowed export is refused" '^status=13' mnt_probe tcp mnt "$T/one"
run_expect "an old handle of a client that no longer matches gets ACCES" '^status=13$' \
	nfs_probe tcp getattr-hex "$FH"
run_expect "showmount -e shows the new table" "$T/two" showmount -e 127.0.0.1

# 2. allowed again: the same handle works, nothing was forgotten
printf '%s\n' "$T/one 127.0.0.1(rw,insecure)" "$T/two 127.0.0.1(ro,insecure)" >"$EXPORTS_FILE"
hup re-reading 2
sleep 0.3
run_expect "the handle works again once the client is allowed" '^status=0$' \
	nfs_probe tcp getattr-hex "$FH"

# 3. a broken file: errors named by file:line, old table kept
printf '%s\n' "# comment" "$T/one 127.0.0.1(rw,bogus)" >"$EXPORTS_FILE"
hup "previous exports stay in force" 1
run_expect "the error names file and line" "$EXPORTS_FILE:2: unknown option 'bogus'" \
	cat "$DAEMON_LOG"
run_expect "the previous table stays in force" '^status=0$' nfs_probe tcp getattr-hex "$FH"
run_expect "MNT of the second export still works" '^status=0' mnt_probe tcp mnt "$T/two"

# 4. an export removed: its handles are stale, not an error of another kind
printf '%s\n' "$T/two 127.0.0.1(ro,insecure)" >"$EXPORTS_FILE"
hup re-reading 4
sleep 0.3
run_expect "a handle of a removed export is STALE" '^status=70$' nfs_probe tcp getattr-hex "$FH"

check_daemon_alive "reloads"
stop_daemon
finish
