/*
 * NFSv4.0 open-owners and lock-owners (RFC 7530 9.1.7-9.1.10): each owner's
 * sequence id, whether an open-owner is confirmed (OPEN_CONFIRM), and the
 * reply to its last sequenced operation, kept so that a retransmission
 * gets that reply again instead of BAD_SEQID. NFSv4.1 has sessions for
 * this and keeps no owners here.
 *
 * The reply is kept as opaque bytes: the protocol room packs and unpacks
 * it (proto/nfs40_seqid.c). One operation at a time runs per owner; a
 * second waits for the first, so that a retransmission that overtakes its
 * original finds the original's reply.
 *
 * Bounded: owners per client and in all. An owner past the bound that is
 * not running an operation goes, oldest first; its client's next
 * sequenced operation on it starts it anew (the owner's opens stand).
 */
#ifndef USERNFSD_NFS40_OWNERS_H
#define USERNFSD_NFS40_OWNERS_H

#include <stddef.h>
#include <stdint.h>

#define N40_MAX_OWNERS_CLIENT	4096
#define N40_MAX_OWNERS		65536
#define N40_REPLAY_MAX		2048	/* bytes of a kept reply */

struct n40_owner;

struct n40_owner_key {
	uint64_t clientid;
	int lock;			/* a lock-owner (else an open-owner) */
	const void *owner;
	size_t ownerlen;
};

enum n40_seq {
	N40_SEQ_NEW,		/* seqid is the next: run the operation */
	N40_SEQ_FIRST,		/* a new owner: run it, any seqid */
	N40_SEQ_RESTART,	/* an unconfirmed open-owner's next OPEN: it starts anew, any seqid */
	N40_SEQ_REPLAY,		/* the last one again: its reply is in replay */
	N40_SEQ_BAD,		/* BAD_SEQID */
	N40_SEQ_FULL,		/* no room for another owner: RESOURCE */
};

/*
 * Takes the owner for one sequenced operation with seqid (waits while one
 * runs): made when new. On N40_SEQ_NEW, _FIRST and _RESTART *o is held
 * until n40_owner_done; on N40_SEQ_REPLAY the reply (*len bytes, at most
 * N40_REPLAY_MAX) is copied to replay and nothing is held. An OPEN (open
 * set) of an open-owner never confirmed is not judged by its seqid: the
 * owner starts anew (RFC 7530 16.18.5; knfsd does the same), unless it is
 * a retransmission of the last.
 */
enum n40_seq n40_owner_take(const struct n40_owner_key *k, uint32_t seqid, int open,
    struct n40_owner **o, void *replay, size_t *len);
/*
 * The operation ran: bump moves the owner's seqid on (to the one it
 * took), and reply (len bytes; NULL: none) is kept for its retransmission.
 */
void n40_owner_done(struct n40_owner *o, uint32_t seqid, int bump, const void *reply, size_t len);

/*
 * CLOSE takes its stateid away, so its retransmission names none: the
 * owner remembers the stateid it closed last, and is found by it (the
 * owner's key into k, its bytes into owner, at most N4_OWNER_BYTES).
 */
#define N40_OWNER_BYTES 1024
void n40_owner_closed(struct n40_owner *o, const uint8_t other[12]);
int n40_owner_by_closed(const uint8_t other[12], struct n40_owner_key *k,
    uint8_t owner[N40_OWNER_BYTES]);

/* An open-owner's confirmation (OPEN_CONFIRM, or a reclaim, confirms it). */
int n40_owner_confirmed(const struct n40_owner *o);
void n40_owner_confirm(struct n40_owner *o);

/*
 * A lock-owner that LOCK's open_to_lock_owner4 made, its seqid that
 * lock_seqid: its next LOCK or LOCKU is lock_seqid + 1.
 */
int n40_lock_owner_start(const struct n40_owner_key *k, uint32_t lock_seqid);
/* RELEASE_LOCKOWNER: the lock-owner's record goes (its locks must be gone). */
void n40_owner_forget(const struct n40_owner_key *k);
/* Every owner of a client that went. */
void n40_owners_client_gone(uint64_t clientid);
/* The fuzzer's fixture: every owner gone. */
void n40_owners_reset(void);

#endif
