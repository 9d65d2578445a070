/*
 * NFSv4 open state (RFC 8881 8.2, 9.7, 18.2, 18.16, 18.18, 18.38, 18.48):
 * the stateids OPEN hands out, one per open owner and file, with the
 * share access and deny bits it holds, and the checks READ, WRITE and
 * SETATTR make with a stateid. Plain data in, a result code out, as
 * nfs4_clients.h; the room maps results to nfsstat4.
 *
 * A file is named by its handle's export id and inode number: the state
 * layer never opens anything. The data is read and written through the fs
 * layer as for v3; what an OPEN adds is bookkeeping, and the share
 * reservations other opens must respect.
 *
 * Bounded: stateids per client and in all (DESIGN.md).
 */
#ifndef USERNFSD_NFS4_STATE_H
#define USERNFSD_NFS4_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#define N4_OTHER_SIZE		12
#define N4_MAX_STATE_CLIENT	4096	/* stateids one client may hold */
#define N4_MAX_STATE		65536	/* stateids of all clients */

/* OPEN4_SHARE_ACCESS_* and OPEN4_SHARE_DENY_*: the same two bits. */
#define N4_SHARE_READ	1u
#define N4_SHARE_WRITE	2u
#define N4_SHARE_BOTH	3u

struct n4_stateid {
	uint32_t seqid;
	uint8_t other[N4_OTHER_SIZE];
};

struct n4_file {
	uint32_t export_id;
	uint64_t ino;
};

/* What state results add to nfs4_clients.h's. */
enum n4_state_result {
	N4S_OK,
	N4S_SHARE_DENIED,	/* an open of another owner denies this, or is denied by it */
	N4S_BAD_STATEID,	/* not ours, another client's, another file's, or a seqid not yet given */
	N4S_OLD_STATEID,
	N4S_STALE_STATEID,	/* of an earlier boot */
	N4S_OPENMODE,		/* WRITE with a read-only open */
	N4S_LOCKED,		/* I/O without an open, against another open's deny */
	N4S_INVAL,		/* a downgrade that is no downgrade */
	N4S_DELAY,		/* the limits: try later */
	N4S_LOCKS_HELD,
	N4S_DELEG_REVOKED,	/* a delegation revoked: only FREE_STATEID takes it */
	N4S_NRESULTS
};

struct n4_open_in {
	uint64_t clientid;
	const void *owner;
	size_t ownerlen;
	struct n4_file file;
	unsigned access, deny;	/* N4_SHARE_* */
	int unconfirmed;	/* NFSv4.0: the owner is new; a new stateid waits for OPEN_CONFIRM */
};

/* At start-up: the instance in every stateid (an earlier boot's are stale). */
void n4_state_init(uint32_t instance);
/*
 * OPEN: the owner's stateid for the file, its access and deny now the
 * union of what it held and what it asks; a new stateid has seqid 1, an
 * upgrade bumps it.
 */
enum n4_state_result n4_open(const struct n4_open_in *in, struct n4_stateid *out);
/* OPEN_DOWNGRADE: access and deny become a subset of what the stateid holds. */
enum n4_state_result n4_open_downgrade(uint64_t clientid, const struct n4_stateid *sid,
    unsigned access, unsigned deny, struct n4_stateid *out);
/* OPEN_CONFIRM (NFSv4.0): the unconfirmed open sid names is usable now, its seqid bumped. */
enum n4_state_result n4_open_confirm(uint64_t clientid, const struct n4_stateid *sid,
    struct n4_stateid *out);
/* Releases one lock owner's locks on the file of a CLOSE (the lock manager's). */
typedef void (*n4_release_fn)(void *arg, const void *owner, size_t ownerlen,
    const struct sockaddr_storage *peer);
/*
 * CLOSE: the open is gone, and the lock states made from it; fn releases
 * the locks of those that hold any (the state lock is held meanwhile).
 */
enum n4_state_result n4_close(uint64_t clientid, const struct n4_stateid *sid,
    struct n4_file *file, n4_release_fn fn, void *arg);

/* ---- lock stateids (RFC 8881 18.10-18.12) ---- */

#define N4_CALLER_LEN 24
#define N4_LOCK_OWNER_MAX 1024	/* lock_owner4's bytes (NFS4_OPAQUE_LIMIT) */

/* The lock manager's caller name for a client's lock owners. */
void n4_lock_caller(uint64_t clientid, char buf[N4_CALLER_LEN]);

struct n4_lock_in {
	uint64_t clientid;
	int new_owner;			/* open_to_lock_owner4: sid is the open's */
	struct n4_stateid sid;		/* the open stateid, or the lock stateid */
	const void *owner;		/* new_owner: the lock owner */
	size_t ownerlen;
	const struct sockaddr_storage *peer;
};

struct n4_lock_out {
	struct n4_file file;
	unsigned access;		/* of the open it hangs from */
	uint8_t other[N4_OTHER_SIZE];
	int created;			/* a new lock state: n4_lock_put drops it if nothing was locked */
	uint8_t owner[N4_LOCK_OWNER_MAX];
	size_t ownerlen;
	struct sockaddr_storage peer;
};

/* LOCK and LOCKU: the lock state the call names (made for a new owner). */
enum n4_state_result n4_lock_get(const struct n4_lock_in *in, struct n4_lock_out *out);
/*
 * After the lock manager answered: changed (granted, or unlocked) bumps
 * the seqid into *out; held is whether the owner still holds a range.
 */
enum n4_state_result n4_lock_put(uint64_t clientid, const uint8_t other[N4_OTHER_SIZE],
    int changed, int created, int held, struct n4_stateid *out);
/*
 * A stateid given with READ (need N4_SHARE_READ), WRITE or a SETATTR of
 * the size (N4_SHARE_WRITE) of file. The special stateids (RFC 8881
 * 8.2.3: anonymous, READ bypass) are the caller's to recognise and pass
 * as NULL: then only the deny bits of other opens count.
 */
enum n4_state_result n4_stateid_use(uint64_t clientid, const struct n4_stateid *sid,
    const struct n4_file *file, unsigned need);
/* TEST_STATEID of one stateid; FREE_STATEID (an open, or a lock state holding a range: LOCKS_HELD). */
enum n4_state_result n4_stateid_test(uint64_t clientid, const struct n4_stateid *sid);
enum n4_state_result n4_stateid_free(uint64_t clientid, const struct n4_stateid *sid);

/* Whose is a stateid (NFSv4.0 names its client and owner by it)? */
struct n4_sid_owner {
	uint64_t clientid;
	int lock;			/* a lock stateid: owner is the lock-owner */
	uint8_t owner[N4_LOCK_OWNER_MAX];
	size_t ownerlen;
};
/* N4S_STALE_STATEID for one of an earlier boot, N4S_BAD_STATEID for one not ours. */
enum n4_state_result n4_stateid_owner(const struct n4_stateid *sid, struct n4_sid_owner *out);
/*
 * RELEASE_LOCKOWNER (NFSv4.0): the lock-owner's stateids go, unless one
 * still holds a range (N4S_LOCKS_HELD).
 */
enum n4_state_result n4_release_lockowner(uint64_t clientid, const void *owner, size_t ownerlen);
/* An unconfirmed NFSv4.0 open-owner started anew: its opens go. */
void n4_state_owner_gone(uint64_t clientid, const void *owner, size_t ownerlen);

/* ---- read delegations (RFC 8881 10.2, 10.4; RFC 7530 10.2) ---- */

#define N4_MAX_DELEGS	4096	/* delegations outstanding, in all */

struct n4_deleg_in {
	uint64_t clientid;
	struct n4_file file;
	int lease;			/* fs/lease.h's: the state's once granted */
	const void *fh;			/* the file's handle, which a recall names */
	size_t fhlen;
	int minor0;			/* an NFSv4.0 client's (no FREE_STATEID after a revocation) */
	const struct sockaddr_storage *peer;	/* where it came from: recalls per client are bounded */
};

/*
 * A read delegation of file for the client: N4S_OK with its stateid, or
 * N4S_SHARE_DENIED (an open for writing, a delegation being recalled, or
 * one the client has) or N4S_DELAY (the bound); the lease stays the
 * caller's to drop unless granted.
 */
enum n4_state_result n4_deleg_grant(const struct n4_deleg_in *in, struct n4_stateid *out);
/*
 * Told of each delegation marked for recall (the state lock held: fn only
 * queues work): 0 when the recall is on its way, -1 when it could not be
 * queued now (asked again on the next n4_deleg_tick).
 */
typedef int (*n4_recall_fn)(void *arg, uint64_t clientid, const struct n4_stateid *sid,
    const void *fh, size_t fhlen, const struct sockaddr_storage *peer);
/*
 * The delegations in the way of an open for access by clientid (every
 * read delegation, when it writes), each marked for recall (at now) and
 * passed to fn the first time: how many there are.
 */
unsigned n4_deleg_conflicts(const struct n4_file *file, uint64_t clientid, unsigned access,
    time_t now, n4_recall_fn fn, void *arg);
/*
 * A change to the file's attributes or names (SETATTR, REMOVE, RENAME,
 * LINK) by anyone but the client except: its delegations are recalled as
 * above; how many stand in the way.
 */
unsigned n4_deleg_break_others(const struct n4_file *file, uint64_t except, time_t now,
    n4_recall_fn fn, void *arg);
/*
 * Has the client a revoked delegation it has not freed yet (SEQUENCE's
 * SEQ4_STATUS_RECALLABLE_STATE_REVOKED)?
 */
int n4_state_client_revoked(uint64_t clientid);
/* How many delegations the client holds (RENEW's CB_PATH_DOWN matters only then). */
int n4_state_client_delegs(uint64_t clientid);
/* DELEGRETURN: the delegation and its lease go. */
enum n4_state_result n4_deleg_return(uint64_t clientid, const struct n4_stateid *sid);
/*
 * Once a second: recalls that could not be queued are asked for again;
 * delegations recalled more than limit seconds ago are
 * revoked (*revoked says how many): the lease goes, the stateid stays,
 * DELEG_REVOKED to every use, until the client frees it (FREE_STATEID;
 * an NFSv4.0 client, which has none, has it simply removed);
 * with check_leases (a SIGIO came), those whose lease a process on the
 * server began to break are recalled (fn).
 */
void n4_deleg_tick(time_t now, unsigned limit, int check_leases, n4_recall_fn fn, void *arg,
    unsigned *revoked);

/* Every stateid of a client that went (expired, destroyed, rebooted). */
void n4_state_client_gone(uint64_t clientid);
/* Does the client hold any stateid (DESTROY_CLIENTID's CLIENTID_BUSY)? */
int n4_state_client_busy(uint64_t clientid);
/* The fuzzer's fixture, built anew: every stateid gone. */
void n4_state_reset(void);

struct n4_state_counts {
	unsigned opens;			/* stateids of every kind */
	unsigned delegations;
};
void n4_state_count(struct n4_state_counts *c);

#endif
