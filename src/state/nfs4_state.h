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
	N4S_NRESULTS
};

struct n4_open_in {
	uint64_t clientid;
	const void *owner;
	size_t ownerlen;
	struct n4_file file;
	unsigned access, deny;	/* N4_SHARE_* */
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
/* CLOSE: the open is gone; its file and owner are in *file for the caller's locks. */
enum n4_state_result n4_close(uint64_t clientid, const struct n4_stateid *sid,
    struct n4_file *file);
/*
 * A stateid given with READ (need N4_SHARE_READ), WRITE or a SETATTR of
 * the size (N4_SHARE_WRITE) of file. The special stateids (RFC 8881
 * 8.2.3: anonymous, READ bypass) are the caller's to recognise and pass
 * as NULL: then only the deny bits of other opens count.
 */
enum n4_state_result n4_stateid_use(uint64_t clientid, const struct n4_stateid *sid,
    const struct n4_file *file, unsigned need);
/* TEST_STATEID of one stateid; FREE_STATEID (an open is LOCKS_HELD until closed). */
enum n4_state_result n4_stateid_test(uint64_t clientid, const struct n4_stateid *sid);
enum n4_state_result n4_stateid_free(uint64_t clientid, const struct n4_stateid *sid);

/* Every stateid of a client that went (expired, destroyed, rebooted). */
void n4_state_client_gone(uint64_t clientid);
/* Does the client hold any stateid (DESTROY_CLIENTID's CLIENTID_BUSY)? */
int n4_state_client_busy(uint64_t clientid);
/* The fuzzer's fixture, built anew: every stateid gone. */
void n4_state_reset(void);

struct n4_state_counts {
	unsigned opens;
};
void n4_state_count(struct n4_state_counts *c);

#endif
