#!/bin/bash
# integ_powerloss.sh - nothing acknowledged is lost on power loss.
#
# usernfsd and the Linux kernel client run in a QEMU guest
# (tests/guest/run-guest); the exports are ext4 file systems on virtio
# disks (raw images here), one per kind of operation, so that one kind's
# journal commit cannot make another kind's unsynced changes durable.
# They are mounted with commit=60 and write-back held back, so only what
# the server syncs reaches the disks.  tests/powerloss performs N (30)
# operations of each of 14 kinds through NFS and logs every one the client
# acknowledged to a serial port that is a file here
# (tests/guest/powerloss.sh); right after the last one QEMU gets SIGKILL.
# A second boot on the same disks replays the journals and checks every
# acknowledged operation; e2fsck -fn here must then find the file systems
# clean.
#
#   sync export, NFSv3, NFSv2 (over TCP) and NFSv4.1: nothing may be lost
#   async export, NFSv3, NFSv2 and NFSv4.1: something must be lost in
#       every kind, or the test could not fail and proves nothing (a
#       harness failure)
#
# POWERLOSS_N=N changes the count per kind; POWERLOSS_VERSIONS="3" skips
# the NFSv2 and NFSv4.1 cycles.  Skipped (77) when QEMU, the kernel image,
# busybox-static or e2fsprogs is missing.
. "$(dirname "$0")/lib.sh"

POWERLOSS=${POWERLOSS:-$top_builddir/tests/powerloss}
N=${POWERLOSS_N:-30}
VERSIONS=${POWERLOSS_VERSIONS:-3 2 4.1}

need_cmd mkfs.ext4 e2fsck truncate
[ -x "$USERNFSD" ] || skip "daemon not built: $USERNFSD"
[ -x "$POWERLOSS" ] || skip "not built: $POWERLOSS (make check builds it)"

# The guest sees the host's / but gets a fresh /tmp: stage under /var/tmp.
stage=$(mktemp -d /var/tmp/usernfsd-pl.XXXXXX) || fail "mktemp"
cp "$USERNFSD" "$POWERLOSS" "$TESTS_SRCDIR/guest/powerloss.sh" "$TESTS_SRCDIR/guest/guest-lib.sh" \
	"$stage/" || fail "staging"
kinds=$("$POWERLOSS" kinds) || fail "powerloss kinds"
nkinds=$(echo "$kinds" | wc -l)

# A kill of QEMU on any way out, so no guest outlives the test.
kill_qemu() {
	local p
	p=$(cat "$stage/qemu.pid" 2>/dev/null) || return 0
	[ -n "$p" ] && kill -KILL "$p" 2>/dev/null
	rm -f "$stage/qemu.pid"
}
at_exit kill_qemu
at_exit 'rm -rf "$stage"'

# Fresh images, one per kind, labelled with the kind's name.
make_disks() {
	local k
	DISKS=()
	for k in $kinds; do
		rm -f "$stage/$k.img"
		truncate -s 32M "$stage/$k.img" &&
			mkfs.ext4 -F -q -L "$k" -E lazy_itable_init=0,lazy_journal_init=0 "$stage/$k.img" ||
			fail "mkfs.ext4 $stage/$k.img"
		DISKS+=(-d "$stage/$k.img")
	done
}

indent() { sed 's/^/    /'; }

# cut_power VERS EXPORT_OPT: boot, run, and kill QEMU after the DONE line.
# 0 when the run finished and QEMU was killed; 77 when the guest cannot run.
cut_power() {
	local vers=$1 opt=$2 rg rc started
	rm -f "$stage/acks" "$stage/qemu.pid"
	started=$(date +%s)
	"$TESTS_SRCDIR/guest/run-guest" -t 600 "${DISKS[@]}" -s "$stage/acks" -p "$stage/qemu.pid" \
		"$stage/powerloss.sh" run "$stage/usernfsd" "$stage/powerloss" "$vers" "$opt" "$N" \
		>"$stage/run.out" 2>&1 9>&- &
	rg=$!
	# The guest writes DONE (or FAIL) when the last acknowledgement is out.
	while ! grep -Eq '^(DONE|FAIL)' "$stage/acks" 2>/dev/null; do
		_pid_running "$rg" || break
		if [ $(( $(date +%s) - started )) -ge 300 ]; then
			echo "$TEST_NAME: no DONE from the guest after 300 s"
			break
		fi
		sleep 0.1
	done
	kill_qemu
	wait "$rg"
	rc=$?
	indent <"$stage/run.out"
	echo "$TEST_NAME: run boot took $(( $(date +%s) - started )) s (run-guest exit $rc)"
	[ "$rc" -ne 77 ] || return 77
	grep -q '^DONE' "$stage/acks" 2>/dev/null && [ "$rc" -eq 137 ] || {
		grep '^FAIL' "$stage/acks" 2>/dev/null
		return 1
	}
	return 0
}

# reboot_verify: the second boot; its table is left in $stage/verify.out.
reboot_verify() {
	local rc started
	started=$(date +%s)
	"$TESTS_SRCDIR/guest/run-guest" -t 300 "${DISKS[@]}" \
		"$stage/powerloss.sh" verify "$stage/powerloss" "$stage/acks" >"$stage/verify.out" 2>&1 9>&-
	rc=$?
	indent <"$stage/verify.out"
	echo "$TEST_NAME: verify boot took $(( $(date +%s) - started )) s (exit $rc)"
	return $rc
}

# Every image clean after the journal replay.
fsck_disks() {
	local k bad=0
	for k in $kinds; do
		e2fsck -fn "$stage/$k.img" >"$stage/fsck.out" 2>&1 || {
			indent <"$stage/fsck.out"
			bad=1
		}
	done
	return $bad
}

# Kinds of the verify table that lost nothing.
kinds_without_loss() {
	awk '$1 == "powerloss:" && NF == 5 && $3 ~ /^[0-9]+$/ && $2 != "total" &&
		$4 + $5 == 0 { print $2 }' "$stage/verify.out"
}

# cycle VERS EXPORT_OPT
cycle() {
	local vers=$1 opt=$2 tag="NFSv$1 $2 export" rc missing
	echo "$TEST_NAME: ---- $tag: $N operations of each of $nkinds kinds, then SIGKILL to QEMU"
	make_disks
	cut_power "$vers" "$opt"
	rc=$?
	[ "$rc" -ne 77 ] || skip "the guest cannot run (see above)"
	if [ "$rc" -ne 0 ]; then
		not_ok "$tag: the run did not finish"
		return
	fi
	ok "$tag: run finished, power cut"
	# All made it through the serial port, or fewer get verified.
	rc=$(grep -cv '^\(BEGIN\|DONE\|FAIL\)' "$stage/acks")
	if [ "$rc" -eq $((N * nkinds)) ]; then
		ok "$tag: $rc acknowledgements on the host"
	else
		not_ok "$tag: $rc acknowledgements on the host, not $((N * nkinds))"
	fi
	reboot_verify
	rc=$?
	case $opt:$rc in
	sync:0) ok "$tag: nothing acknowledged was lost" ;;
	sync:1) not_ok "$tag: acknowledged operations were lost (table above)" ;;
	async:1)
		missing=$(kinds_without_loss)
		if [ -z "$missing" ]; then
			ok "$tag: losses in every kind, so the test can fail"
		else
			not_ok "$tag: no loss in: $(echo "$missing" | tr '\n' ' ')- the harness cannot see a loss there"
		fi ;;
	async:0) not_ok "$tag: nothing lost - the harness cannot see a loss at all" ;;
	*) not_ok "$tag: verify boot failed (exit $rc)" ;;
	esac
	if fsck_disks; then
		ok "$tag: e2fsck -fn clean"
	else
		not_ok "$tag: e2fsck -fn found errors"
	fi
}

t0=$(date +%s)
for v in $VERSIONS; do
	cycle "$v" sync
	cycle "$v" async
done
echo "$TEST_NAME: $(( $(date +%s) - t0 )) s in all"
finish
