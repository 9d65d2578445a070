# tests/krb5-realm.sh - a throwaway MIT Kerberos realm for the RPCSEC_GSS
# tests, sourced after tests/lib.sh (it uses skip, fail and EXTRA_PIDS,
# which lib.sh stops at exit); tests/bench/run-bench defines those three
# itself.
#
#   need_krb5                   skip (77) unless the KDC and kinit are installed
#   krb5_realm_start DIR        realm TEST.USERNFSD on 127.0.0.1 at a free high
#                               port, everything under DIR: the KDC's database,
#                               stash, log, the configuration, the credential
#                               cache and the keytab. Exports KRB5_CONFIG,
#                               KRB5_KDC_PROFILE, KRB5CCNAME, KRB5_KTNAME and
#                               KRB5RCACHEDIR (the acceptor's replay cache), so
#                               nothing is written outside DIR. Principals:
#                               nfs/localhost (keys in $KRB5_KEYTAB, for the
#                               daemon) and alice (password $KRB5_ALICE_PW).
#   krb5_addprinc NAME [PASSWORD]   another principal (random key without one)
#   krb5_kinit NAME PASSWORD    a ticket for NAME in $KRB5CCNAME
#   krb5_ktadd NAME FILE        NAME's keys into the keytab FILE
#   krb5_guest_keytabs DIR CLIENT SERVER SERVER_KEYTAB
#                               the keys for a kernel client in the QEMU guest
#                               (tests/guest/guest-lib.sh's gss_client) and the
#                               server it mounts: host/CLIENT in DIR/krb5.keytab
#                               (the machine credential rpc.gssd takes for
#                               root), daemon@ in DIR/daemon.keytab owned by
#                               uid 1 (the local user daemon: uid 1 kinits
#                               with it, gss_kinit), nfs/SERVER in SERVER_KEYTAB
#
# Only aes256-cts-hmac-sha1-96 and aes128-cts-hmac-sha1-96 are used.

KRB5_REALM=TEST.USERNFSD
KRB5_ALICE_PW=alice-Secret-1
KRB5_ENCTYPES="aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96"

need_krb5() {
	local c
	for c in krb5kdc kdb5_util kadmin.local kinit; do
		command -v "$c" >/dev/null 2>&1 ||
			skip "$c not found: install krb5-kdc, krb5-admin-server and krb5-user (tests/install-deps.sh test)"
	done
}

# A TCP and UDP port on 127.0.0.1 that nothing listens on (a race with
# another process remains; the KDC's start then fails and says so).
_krb5_free_port() {
	local p i
	for i in $(seq 50); do
		p=$((40000 + RANDOM % 20000))
		if ! ss -Htuln "( sport = :$p )" 2>/dev/null | grep -q .; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

_krb5_write_conf() {
	local d=$1 port=$2
	cat >"$d/krb5.conf" <<EOF
[libdefaults]
	default_realm = $KRB5_REALM
	dns_lookup_kdc = false
	dns_lookup_realm = false
	dns_canonicalize_hostname = false
	rdns = false
	udp_preference_limit = 1
	permitted_enctypes = $KRB5_ENCTYPES
	default_tkt_enctypes = $KRB5_ENCTYPES
	default_tgs_enctypes = $KRB5_ENCTYPES
	default_ccache_name = FILE:$d/ccache
	default_keytab_name = FILE:$d/nfs.keytab
[realms]
	$KRB5_REALM = {
		kdc = 127.0.0.1:$port
	}
[domain_realm]
	localhost = $KRB5_REALM
EOF
	cat >"$d/kdc.conf" <<EOF
[kdcdefaults]
	kdc_listen = 127.0.0.1:$port
	kdc_tcp_listen = 127.0.0.1:$port
[realms]
	$KRB5_REALM = {
		database_name = $d/principal
		key_stash_file = $d/stash
		acl_file = $d/kadm5.acl
		master_key_type = aes256-cts-hmac-sha1-96
		supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
		max_life = 1h
		kdc_listen = 127.0.0.1:$port
		kdc_tcp_listen = 127.0.0.1:$port
	}
[logging]
	kdc = FILE:$d/kdc.log
	default = FILE:$d/kdc.log
EOF
	: >"$d/kadm5.acl"
}

krb5_addprinc() {
	if [ -n "${2:-}" ]; then
		kadmin.local -r "$KRB5_REALM" -q "addprinc -pw $2 $1" >>"$KRB5_DIR/kadmin.log" 2>&1
	else
		kadmin.local -r "$KRB5_REALM" -q "addprinc -randkey $1" >>"$KRB5_DIR/kadmin.log" 2>&1
	fi || fail "kadmin.local: addprinc $1 (see $KRB5_DIR/kadmin.log)"
}

krb5_ktadd() {
	kadmin.local -r "$KRB5_REALM" -q "ktadd -k $2 $1" >>"$KRB5_DIR/kadmin.log" 2>&1 ||
		fail "kadmin.local: ktadd $1"
}

krb5_guest_keytabs() {
	krb5_addprinc "nfs/$3"
	krb5_ktadd "nfs/$3" "$4"
	krb5_addprinc "host/$2"
	krb5_ktadd "host/$2" "$1/krb5.keytab"
	krb5_addprinc daemon
	krb5_ktadd daemon "$1/daemon.keytab"
	chown 1:1 "$1/daemon.keytab" || fail "chown 1:1 $1/daemon.keytab"
}

# kinit reads the password from standard input when there is no terminal.
krb5_kinit() {
	printf '%s\n' "$2" | kinit "$1" >>"$KRB5_DIR/kinit.log" 2>&1 </dev/stdin
}

krb5_realm_start() {
	local d=$1 port i
	mkdir -p "$d/rcache" || fail "mkdir $d"
	KRB5_DIR=$d
	port=$(_krb5_free_port) || fail "no free port for the KDC"
	KRB5_KDC_PORT=$port
	_krb5_write_conf "$d" "$port"
	export KRB5_CONFIG=$d/krb5.conf KRB5_KDC_PROFILE=$d/kdc.conf
	export KRB5CCNAME=FILE:$d/ccache KRB5_KTNAME=FILE:$d/nfs.keytab KRB5RCACHEDIR=$d/rcache
	KRB5_KEYTAB=$d/nfs.keytab
	kdb5_util create -s -r "$KRB5_REALM" -P "master-$RANDOM-$RANDOM" >"$d/kdb5_util.log" 2>&1 ||
		fail "kdb5_util create: $(cat "$d/kdb5_util.log")"
	krb5_addprinc nfs/localhost
	krb5_ktadd nfs/localhost "$KRB5_KEYTAB"
	krb5_addprinc alice "$KRB5_ALICE_PW"
	krb5kdc -n -r "$KRB5_REALM" </dev/null >>"$d/kdc.out" 2>&1 9>&- &
	KRB5_KDC_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $KRB5_KDC_PID"
	# Ready when it hands out a ticket.
	for i in $(seq 50); do
		krb5_kinit alice "$KRB5_ALICE_PW" && return 0
		kill -0 "$KRB5_KDC_PID" 2>/dev/null || break
		sleep 0.2
	done
	cat "$d/kdc.out" "$d/kdc.log" "$d/kinit.log" >&2 2>/dev/null
	fail "the KDC on 127.0.0.1:$port did not answer"
}
