# tests/guest/guest-lib.sh - helpers shared by the scripts that run inside
# the QEMU guest (kernel-client.sh, kernel-v2.sh, powerloss.sh, share.sh,
# package.sh, kernel-lock.sh, heads.sh, kernel-gss.sh; tests/bench/
# guest-bench.sh -F); the host-side tests have tests/lib.sh instead.
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
#
# For the scripts that count their checks and put a server in namespaces of
# its own (kernel-lock.sh, heads.sh):
#   counted_checks NAME      defines the five below (NAME prefixes their
#                            lines) and zeroes PASSED and FAILED; the script
#                            defines diag (what to show before a fatal exit)
#     step MSG               a progress line, seconds since counted_checks
#     ok DESC                a check passed
#     bad DESC [FILE]        a check failed; FILE's lines shown indented
#     fatal MSG              a FATAL line, diag, exit 1
#     expect WANT STATUS DESC [FILE]   ok when STATUS is WANT, else bad; a
#                            STATUS of 142 (locktool -t ran out) also calls
#                            timed_out, if the script defines one
#   snooze_setup             a FIFO $work/never open on fd 7, for snooze
#   snooze SECONDS           a sleep without a process (guest process starts
#                            cost ~100 ms)
#   bg OUT CMD...            CMD in the background (fd 7 closed), its output
#                            in OUT (emptied first), its pid in $!
#   wait_line WORD FILE SECONDS   until a line of FILE starts with WORD;
#                            1 when SECONDS ran out
#   server_netns VETH CLIENT_HOST SERVER_HOST CLIENT_ADDR SERVER_ADDR...
#                            network, mount and UTS namespaces for the
#                            server, joined to this (the client's) by the veth
#                            pair VETH-cli/VETH-srv (/24 addresses); each side
#                            runs its own rpcbind and rpc.statd; the server's
#                            have their own /run and /var/lib/nfs (with what
#                            knfsd wants there). Sets SRV_NS; log in
#                            $work/srv-setup.log; fatal on failure
#   srv CMD...               CMD in the server's namespaces (nsenter execs
#                            CMD, so "${SRV_NS[@]}" CMD & has CMD's pid in $!)
#   srv_daemon PIDFILE LOG SECONDS [ARGS...]   $daemon in the server's
#                            namespaces, foreground, in the background:
#                            --exports $work/exports --grace $GRACE
#                            --pidfile PIDFILE ARGS, output appended to LOG;
#                            its pid in SRV_PID; 1 when it wrote no PIDFILE
#                            within SECONDS or exited
#   nfs_mount VERS PROTO ADDR:PATH DIR [OPTIONS]   the kernel client mounts
#                            with vers=VERS,proto=PROTO,mountproto=PROTO and
#                            OPTIONS (vers=2 goes to the kernel directly,
#                            MOUNT v1: mount.nfs refuses it)
#   check_reclaimed PREFIX SRVPATH GPID GOUT T0 SECONDS   after the server
#                            restarted or was taken over at T0
#                            (${EPOCHREALTIME/./}): checks that the lock the
#                            guest process GPID (output GOUT) holds on the file
#                            (SRVPATH on the server) is back on the server
#                            within SECONDS, that GPID still holds it, and
#                            that a server process cannot take it (locktool
#                            "${LTT[@]}"; PREFIX starts the checks' lines)
#
# Kerberos, the kernel client's side (kernel-gss.sh, tests/bench/
# guest-bench.sh -F), in a realm tests/krb5-realm.sh made on the host (the
# keytabs: krb5_guest_keytabs); snooze_setup first:
#   gss_client REALM KDC CLIENT SERVER SERVER_ADDR KEYTAB LOG
#                            CLIENT as the host name, SERVER at SERVER_ADDR
#                            and CLIENT at 10.0.2.15 in /etc/hosts,
#                            /etc/krb5.conf for REALM (its KDC at KDC,
#                            host:port; AES only; .test.usernfsd in REALM),
#                            rpcsec_gss_krb5 loaded, rpc_pipefs on
#                            /run/rpc_pipefs, rpc.gssd -vvv -k KEYTAB
#                            (host/CLIENT: the machine credential, root's)
#                            writing to LOG, its pid in GSSD_PID; then waits
#                            (5 s at most) until rpc.gssd holds the kernel's
#                            pipe open. 1 with GSS_ERR set when a step
#                            failed. rpc.gssd (avoid-dns) asks for nfs/ the
#                            name in the mount command: mount SERVER:/path
#   gss_kinit UID KEYTAB PRINCIPAL OUT   UID's ticket for PRINCIPAL from
#                            KEYTAB in /tmp/krb5cc_UID, where rpc.gssd looks
#                            for UID's credentials; kinit's output in OUT

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

# ---- counted checks, a server in namespaces of its own ----

counted_checks() {
	CHECKS_NAME=$1
	PASSED=0
	FAILED=0
	T0=${EPOCHREALTIME/./}
	step() { echo "$CHECKS_NAME: [$(( (${EPOCHREALTIME/./} - T0) / 1000000 )) s] $*"; }
	ok() { PASSED=$((PASSED + 1)); echo "$CHECKS_NAME:   ok: $*"; }
	bad() {
		FAILED=$((FAILED + 1))
		echo "$CHECKS_NAME:   FAIL: $1"
		[ -z "${2:-}" ] || sed 's/^/      | /' "$2"
	}
	fatal() {
		echo "$CHECKS_NAME: FATAL: $*"
		diag
		exit 1
	}
	expect() {
		if [ "$2" -eq "$1" ]; then ok "$3"; else bad "$3 (exit $2, wanted $1)" "${4:-}"; fi
		[ "$2" -ne 142 ] || ! declare -F timed_out >/dev/null || timed_out
	}
}

snooze_setup() { mkdir -p "$work" && mkfifo "$work/never" && exec 7<>"$work/never"; }
snooze() { read -r -t "$1" -u 7 || :; }

# (OUT is emptied here: the child's own ">" would race a reading of what an
# earlier command left there.)
bg() {
	local out=$1
	shift
	: >"$out"
	"$@" >"$out" 2>&1 7<&- &
}

wait_line() {
	local end=$(( ${EPOCHREALTIME/./} + $3 * 1000000 )) l
	while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
		while read -r l; do [[ $l == "$1"* ]] && return 0; done <"$2"
		snooze 0.05
	done
	return 1
}

srv() { "${SRV_NS[@]}" "$@"; }

server_netns() {
	local veth=$1 chost=$2 shost=$3 cli=$4 addrs='' a comm='' holder
	shift 4
	for a; do addrs="$addrs ip addr add $a/24 dev $veth-srv &&"; done
	hostname "$chost"
	ip link add "$veth-cli" type veth peer name "$veth-srv" &&
		ip addr add "$cli/24" dev "$veth-cli" && ip link set "$veth-cli" up || fatal "veth pair"
	# A process that holds the server's namespaces; the rest joins them.
	unshare --net --mount --uts --propagation private sleep 100000 </dev/null >/dev/null 2>&1 &
	holder=$!
	for _ in $(seq 100); do
		read -r comm <"/proc/$holder/comm" 2>/dev/null
		[ "$comm" = sleep ] && break
		snooze 0.05
	done
	[ "$comm" = sleep ] || fatal "the server's namespaces"
	SRV_NS=(nsenter -t "$holder" -n -m -u)
	ip link set "$veth-srv" netns "$holder" || fatal "veth into the server's namespace"
	# Its own /run (rpcbind's socket, pid files) and /var/lib/nfs (statd's
	# monitor list, exportfs's etab): nothing shared with the client's.
	srv bash -c "hostname $shost && ip link set lo up && $addrs
		ip link set $veth-srv up &&
		mount -t tmpfs -o mode=0755 srvrun /run && mkdir /run/rpcbind &&
		mount -t tmpfs -o mode=0755 srvnfs /var/lib/nfs &&
		mkdir /var/lib/nfs/sm /var/lib/nfs/sm.bak /var/lib/nfs/v4recovery &&
		touch /var/lib/nfs/etab /var/lib/nfs/rmtab &&
		rpcbind && rpc.statd --no-notify" >"$work/srv-setup.log" 2>&1 ||
		{ cat "$work/srv-setup.log"; fatal "the server's rpcbind and statd"; }
	# The client, as a real one runs: rpcbind and statd (no nolock).
	mkdir -p /run/rpcbind && rpcbind && rpc.statd --no-notify || fatal "the client's rpcbind and statd"
}

srv_daemon() {
	local pidfile=$1 log=$2 tries=$(($3 * 10))
	shift 3
	rm -f "$pidfile"
	"${SRV_NS[@]}" "$daemon" --foreground --exports "$work/exports" --grace "$GRACE" \
		--pidfile "$pidfile" "$@" >>"$log" 2>&1 7<&- &
	SRV_PID=$!
	for _ in $(seq "$tries"); do
		[ -s "$pidfile" ] && return 0
		kill -0 "$SRV_PID" 2>/dev/null || return 1
		snooze 0.1
	done
	return 1
}

nfs_mount() {
	local o="vers=$1,proto=$2,mountproto=$2${5:+,$5}" addr=${3%%:*}
	if [ "$1" = 2 ]; then
		mount -i -t nfs -o "$o,mountvers=1,addr=$addr,mountaddr=$addr" "$3" "$4"
	else
		mount -t nfs -o "$o" "$3" "$4"
	fi
}

check_reclaimed() {
	local tag=$1 path=$2 gpid=$3 gout=$4 t0=$5 o=$work/reclaim.out reclaimed=
	for _ in $(seq $(($6 * 2))); do
		srv "${LTT[@]}" getlk "$path" >"$o" 2>&1
		[ $? -eq 3 ] && { reclaimed=1; break; }
		snooze 0.5
	done
	if [ -n "$reclaimed" ]; then
		ok "$tag the guest's lock is back on the server $(( (${EPOCHREALTIME/./} - t0) / 1000 )) ms later: $(<"$o")"
	else
		bad "$tag the guest's lock was not reclaimed within $6 s" "$o"
	fi
	if kill -0 "$gpid" 2>/dev/null && ! grep -q unlock "$gout"; then
		ok "$tag the guest process still holds its lock"
	else
		bad "$tag the guest process lost its lock" "$gout"
	fi
	srv "${LTT[@]}" setlk "$path" >"$o" 2>&1
	expect 3 $? "$tag a server process cannot take the reclaimed lock" "$o"
}

# ---- Kerberos: the kernel client's side ----

gss_client() {
	local realm=$1 kdc=$2 cli=$3 srv=$4 srvaddr=$5 keytab=$6 log=$7
	GSS_ERR=
	echo "$cli" >/proc/sys/kernel/hostname
	# The overlay is writable: the host's files are not touched.
	printf '%s\t%s\n10.0.2.15\t%s %s\n' "$srvaddr" "$srv" "$cli" "${cli%%.*}" >>/etc/hosts
	cat >/etc/krb5.conf <<EOF
[libdefaults]
	default_realm = $realm
	dns_lookup_kdc = false
	dns_lookup_realm = false
	rdns = false
	udp_preference_limit = 1
	permitted_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
	default_tkt_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
	default_tgs_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
[realms]
	$realm = {
		kdc = $kdc
	}
[domain_realm]
	.test.usernfsd = $realm
EOF
	modprobe rpcsec_gss_krb5 || { GSS_ERR="modprobe rpcsec_gss_krb5 failed"; return 1; }
	mkdir -p /run/rpc_pipefs && mount -t rpc_pipefs sunrpc /run/rpc_pipefs ||
		{ GSS_ERR="cannot mount rpc_pipefs"; return 1; }
	rpc.gssd -f -vvv -p /run/rpc_pipefs -k "$keytab" >"$log" 2>&1 7<&- &
	GSSD_PID=$!
	# The kernel refuses GSS at once while no rpc.gssd holds its pipe open.
	for _ in $(seq 50); do
		[ -z "$(find "/proc/$GSSD_PID/fd" -lname '*/gssd/clntXX/gssd' 2>/dev/null)" ] || return 0
		kill -0 "$GSSD_PID" 2>/dev/null ||
			{ GSS_ERR="rpc.gssd exited: $(tail -n 3 "$log" | tr '\n' ' ')"; return 1; }
		snooze 0.1
	done
}

gss_kinit() {
	setpriv --reuid="$1" --regid="$1" --clear-groups \
		env KRB5CCNAME="FILE:/tmp/krb5cc_$1" kinit -k -t "$2" "$3" >"$4" 2>&1
}
