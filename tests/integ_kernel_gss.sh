#!/bin/bash
# integ_kernel_gss.sh - the Linux kernel's NFS client with Kerberos against
# usernfsd: sec=krb5, krb5i and krb5p over vers=4.1 and vers=3, in one
# boot of a QEMU guest (tests/guest/kernel-gss.sh says what it checks
# there). The guest runs bookworm-backports' kernel (6.12), fetched and
# unpacked by tests/guest/fetch-kernel: Debian 12's 6.1 client fails
# krb5p at the first GETATTR, against knfsd too.
#
# On the host: a throwaway realm TEST.USERNFSD (tests/krb5-realm.sh; its
# KDC on 127.0.0.1, which the guest reaches as 10.0.2.2), usernfsd with
# --keytab (nfs/nfs-server.test.usernfsd) exporting a directory to
# 127.0.0.1 with insecure (the guest's connections arrive from there, from
# unprivileged ports) and sec=krb5:krb5i:krb5p (so MNT's reply lists the
# three flavors: a v3 mount takes only a listed one, and AUTH_SYS is
# refused), and a capture of the NFS port on lo during the whole guest
# run. After it, on the host:
#   - the server's copy of each file uid 1 wrote equals the source;
#   - its owner is uid 1, the user daemon@TEST.USERNFSD maps to
#     (gss_localname, getpwnam);
#   - root's files (the machine credential, host/...) are the anonymous
#     user's, 65534 (root_squash);
#   - the marker written into each krb5p file is nowhere in clear on the
#     wire, while (the control) each krb5i file's is;
#   - the daemon wrote each v4 client's record (its log has no refusal).
#
# Skipped (77) with a message without QEMU, busybox-static, the KDC
# (krb5-kdc, krb5-admin-server, krb5-user), rpc.gssd (nfs-common), tshark or
# tcpdump, or when the backports kernel is neither cached nor downloadable.
. "$(dirname "$0")/lib.sh"
. "$TESTS_SRCDIR/krb5-realm.sh"

need_krb5
need_cmd qemu-system-x86_64 rpc.gssd mount.nfs setpriv ss
capture=
for c in tshark tcpdump; do
	command -v "$c" >/dev/null 2>&1 && { capture=$c; break; }
done
[ -n "$capture" ] || skip "neither tshark nor tcpdump: install tcpdump (tests/install-deps.sh test)"
# Before the lock: the first run downloads ~100 MB.
KROOT=$("$TESTS_SRCDIR/guest/fetch-kernel")
case $? in
0) ;;
77) skip "no bookworm-backports kernel for the guest (tests/guest/fetch-kernel says why above)" ;;
*) echo "FAIL: $TEST_NAME: tests/guest/fetch-kernel failed"; exit 99 ;;
esac
setup

SRVNAME=nfs-server.test.usernfsd
CLINAME=kgss-client.test.usernfsd

# What the host checks is printed as the guest's checks are.
hok() { PASSED=$((PASSED + 1)); echo "$TEST_NAME:   ok: $1"; }
hbad() {
	FAILED=$((FAILED + 1))
	echo "$TEST_NAME:   FAIL: $1"
	[ -z "${2:-}" ] || printf '%s\n' "$2" | sed 's/^/      | /'
}

# The guest gets a fresh /tmp: what it reads is staged under /var/tmp.
stage=$(mktemp -d /var/tmp/usernfsd-kgss.XXXXXX) || fail "mktemp"
at_exit 'rm -rf "$stage"'
chmod 755 "$stage"
cp "$TESTS_SRCDIR/guest/kernel-gss.sh" "$TESTS_SRCDIR/guest/guest-lib.sh" "$stage/" || fail "staging"

krb5_realm_start "$WORKDIR/krb5"
# host/CLINAME and daemon@ for the guest, nfs/SRVNAME for the daemon here
krb5_guest_keytabs "$stage" "$CLINAME" "$SRVNAME" "$KRB5_KEYTAB"

# 1 MiB each: 16 runs of random bytes, each followed by the file's marker.
cases=
for sec in krb5 krb5i krb5p; do
	for vers in 4.1 3; do
		c=$sec-$vers
		cases="$cases $c"
		m="KGSS-MARKER-$c-$RANDOM$RANDOM"
		for _ in $(seq 16); do
			head -c $((65536 - ${#m})) /dev/urandom
			printf '%s' "$m"
		done >"$stage/src-$c"
		eval "marker_${c//[.-]/_}=\$m"
	done
done
marker() { eval "echo \"\$marker_${1//[.-]/_}\""; }

EXPORT=$WORKDIR/export KONLY=$WORKDIR/krb5p-only MIXED=$WORKDIR/sys-or-krb5p
mkdir -p "$EXPORT" "$KONLY" "$MIXED"
# uid 1 and the anonymous user (root, squashed) both write here.
chmod 1777 "$EXPORT" "$KONLY" "$MIXED"
# Two more for the flavor a mount may use: krb5p alone, and sys or krb5p.
start_daemon "$EXPORT 127.0.0.1(rw,insecure,sec=krb5:krb5i:krb5p)
$KONLY 127.0.0.1(rw,insecure,sec=krb5p)
$MIXED 127.0.0.1(rw,insecure,sec=sys:krb5p)" --no-rpcbind --no-nlm \
	--nfs-versions 3,4.1 --keytab "$KRB5_KEYTAB"

# The capture: the NFS port on lo (the guest's 10.0.2.2 is the host's
# 127.0.0.1), for the whole guest run.
pcap=$WORKDIR/nfs.pcap
case $capture in
tshark) capcmd=(tshark -n -q -i lo -f "tcp port $NFS_PORT" -B 32 -F pcap -w "$pcap") ;;
# -Z root: tcpdump would write the file as the user tcpdump otherwise.
tcpdump) capcmd=(tcpdump -n -Z root -i lo -s 0 -B 32768 -w "$pcap" "tcp port $NFS_PORT") ;;
esac
"${capcmd[@]}" </dev/null >"$WORKDIR/capture.log" 2>&1 9>&- &
cap_pid=$!
EXTRA_PIDS="$EXTRA_PIDS $cap_pid"
for _ in $(seq 100); do
	grep -qE 'listening on|Capturing on' "$WORKDIR/capture.log" && break
	kill -0 "$cap_pid" 2>/dev/null || break
	sleep 0.1
done
grep -qE 'listening on|Capturing on' "$WORKDIR/capture.log" ||
	fail "$capture did not start: $(cat "$WORKDIR/capture.log")"

start=$(date +%s)
USERNFSD_GUEST_KROOT=$KROOT "$TESTS_SRCDIR/guest/run-guest" -t 300 "$stage/kernel-gss.sh" \
	"$stage" "$NFS_PORT" "$MOUNT_PORT" "$KRB5_KDC_PORT" "$EXPORT" "$KONLY" "$MIXED" |
	tee "$WORKDIR/guest.out"
rc=${PIPESTATUS[0]}
echo "$TEST_NAME: guest run took $(( $(date +%s) - start )) s (exit $rc)"
kill -INT "$cap_pid"
wait "$cap_pid" 2>/dev/null
case $rc in
77) skip "run-guest skipped (see above)" ;;
0 | 1) ;;
*) echo "FAIL: $TEST_NAME: the guest did not run to its end (exit $rc)"; exit 99 ;;
esac
summary=$(grep '^kernel-gss: [0-9]* passed, [0-9]* failed' "$WORKDIR/guest.out")
[ -n "$summary" ] || { echo "FAIL: $TEST_NAME: no summary from the guest"; exit 99; }
read -r _ gpassed _ gfailed _ <<<"$summary"
PASSED=$((PASSED + gpassed))
FAILED=$((FAILED + gfailed))
grep -E 'dropped by kernel|dropped' "$WORKDIR/capture.log" | sed "s/^/$TEST_NAME: $capture: /"

echo "$TEST_NAME: on the host: ls -ln $EXPORT"
ls -ln "$EXPORT" | sed 's/^/      | /'
for c in $cases; do
	t="${c%-*} v${c##*-}"
	f=$EXPORT/user-$c
	if ! [ -f "$f" ]; then
		hbad "$t: the server has no user-$c (no mount or no write)"
		continue
	fi
	if cmp -s "$stage/src-$c" "$f"; then
		hok "$t: the server's copy of user-$c equals the source"
	else
		hbad "$t: the server's copy of user-$c differs from the source" "$(cmp "$stage/src-$c" "$f" 2>&1)"
	fi
	# 65534 here: the server did not act as the principal's local user.
	owner=$(stat -c %u:%g "$f")
	if [ "$owner" = 1:1 ]; then
		hok "$t: user-$c is owned by 1:1, daemon@$KRB5_REALM's user"
	else
		hbad "$t: user-$c is owned by $owner, not 1:1 (the user daemon@$KRB5_REALM maps to)"
	fi
	if [ -f "$EXPORT/root-$c" ]; then
		owner=$(stat -c %u:%g "$EXPORT/root-$c")
		if [ "$owner" = 65534:65534 ]; then
			hok "$t: root's root-$c (machine credential) is owned by 65534:65534 (root_squash)"
		else
			hbad "$t: root's root-$c is owned by $owner, not 65534:65534 (root_squash)"
		fi
	fi
	m=$(marker "$c")
	case $c in
	krb5p-*)
		if grep -qaF "$m" "$pcap"; then
			hbad "$t: the file's marker is in clear on the wire ($m)"
		else
			hok "$t: the file's marker is nowhere in clear on the wire"
		fi ;;
	krb5i-*)
		if grep -qaF "$m" "$pcap"; then
			hok "$t: the file's marker is in clear on the wire (integrity only: the capture sees the data)"
		else
			hbad "$t: the file's marker is not on the wire, though krb5i does not encrypt: is the capture blind? ($(grep -i packets "$WORKDIR/capture.log" | tr '\n' ' '))"
		fi ;;
	esac
done
if [ -z "$(find "$EXPORT" -name 'u2-*')" ]; then
	hok "no file of uid 2's on the server"
else
	hbad "uid 2, without a ticket, created files"
fi
# On sec=sys:krb5p: root's AUTH_SYS file squashed, uid 1's krb5p file its own.
for v in 4.1 3; do
	for f in "sys-$v:65534:65534" "krb5p-$v:1:1"; do
		owner=$(stat -c %u:%g "$MIXED/${f%%:*}" 2>&1)
		if [ "$owner" = "${f#*:}" ]; then
			hok "sec=sys:krb5p, v$v: ${f%%:*} is owned by ${f#*:}"
		else
			hbad "sec=sys:krb5p, v$v: ${f%%:*} is owned by '$owner', not ${f#*:}"
		fi
	done
done
[ -z "$(ls -A "$KONLY")" ] && hok "nothing was written to the sec=krb5p export by AUTH_SYS mounts" ||
	hbad "files in the sec=krb5p export: $(ls -A "$KONLY")"

# The daemon writes a v4 client's record into its state directory when
# CREATE_SESSION confirms the client. Here the calls before it run as
# uid 1 or the anonymous user, not as root as in the other guest tests:
# a write made with the identity a worker's last call left behind is
# refused (EACCES), and the client could not reclaim after a restart.
if grep -qE 'not on stable storage|Permission denied' "$DAEMON_LOG"; then
	hbad "the server wrote every NFSv4 client's record; its log says:" \
		"$(grep -E 'not on stable storage|Permission denied' "$DAEMON_LOG")"
else
	hok "the server wrote every NFSv4 client's record (no refusal in its log)"
fi

check_daemon_alive "the guest's mounts"
stop_daemon
finish
