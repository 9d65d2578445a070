/*
 * Inside the stateid table, shared by the two files that work on it:
 * nfs4_state.c (opens, locks, the checks I/O makes, clients that go) and
 * nfs4_deleg_state.c (delegations: granted, recalled, returned, revoked).
 * Nothing outside state/ includes this.
 */
#ifndef USERNFSD_NFS4_STATE_IMPL_H
#define USERNFSD_NFS4_STATE_IMPL_H

#include <pthread.h>
#include <sys/socket.h>
#include <time.h>

#include "nfs4_state.h"

#define NBUCKETS 1024

/*
 * A delegation (N4K_DELEG) is kept as one more kind of stateid: found by
 * stateid and by file like the others, gone with its client. Its owner
 * bytes are the file's handle, which a recall names; lease is the fs
 * layer's kernel lease that stands for it on the server.
 */
enum n4_kind { N4K_OPEN, N4K_LOCK, N4K_DELEG, N4K_REVOKED };

/*
 * An open, or a lock owner's stateid on the file of an open (RFC 8881
 * 8.2.1): a lock state's parent is that open, and goes before it.
 */
struct n4_open {
	struct n4_open *by_other, *by_file;
	enum n4_kind kind;
	struct n4_open *parent;		/* N4K_LOCK: its open */
	struct sockaddr_storage peer;	/* N4K_LOCK: where its locks came from */
	int held;			/* N4K_LOCK: it holds a range, as the lock manager said last */
	int unconfirmed;		/* N4K_OPEN of an NFSv4.0 open-owner not yet confirmed */
	int lease;			/* N4K_DELEG: fs/lease.h's, dropped when it goes */
	time_t recalled;		/* N4K_DELEG: when CB_RECALL was asked for (0: not) */
	int no_free;			/* N4K_DELEG of an NFSv4.0 client: revoked, it just goes */
	int recall_queued;		/* N4K_DELEG: its CB_RECALL is on its way */
	uint64_t clientid;
	struct n4_file file;
	unsigned access, deny;
	uint32_t seqid;
	uint8_t other[N4_OTHER_SIZE];
	size_t ownerlen;
	uint8_t owner[];
};

/* How many stateids a client holds. */
struct n4_holder {
	struct n4_holder *next;
	uint64_t clientid;
	unsigned n;
	unsigned revoked;	/* N4K_REVOKED stateids among them */
	unsigned delegs;	/* N4K_DELEG ones */
};

/* One mutex over it all (taken after nfs4_clients.c's). */
extern pthread_mutex_t n4s_lock;
extern struct n4_open *n4s_other_hash[NBUCKETS], *n4s_file_hash[NBUCKETS];
extern unsigned n4s_ndelegs, n4s_nrevoked;

/* With n4s_lock held. */
unsigned n4s_file_bucket(const struct n4_file *f);
int n4s_same_file(const struct n4_file *a, const struct n4_file *b);
struct n4_holder **n4s_holder_slot(uint64_t clientid);
/* A new stateid (an open's kind) charged to in's client: NULL at the limits. */
struct n4_open *n4s_new_open(const struct n4_open_in *in);
/* Out of the tables and freed; a delegation's lease dropped. */
void n4s_unlink(struct n4_open *o);
void n4s_answer(const struct n4_open *o, struct n4_stateid *out);
enum n4_state_result n4s_lookup_sid(uint64_t clientid, const struct n4_stateid *sid,
    struct n4_open **out);

#endif
