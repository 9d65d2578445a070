/*
 * NFSv4 client records on stable storage (RFC 8881 8.4.2.1 and 8.6.3;
 * knfsd's nfs4recover): which clients held state from this server, so
 * that after a restart exactly those may reclaim it in the grace period,
 * and a client that did not hold state cannot claim it did. A record is
 * made durable before the client it names gets a session; it goes when
 * the client goes (lazily: a stale record only lets a client ask in vain).
 *
 * The file is STATEDIR/nfs4-clients: one line per client, its owner
 * (co_ownerid) in hex.
 */
#ifndef USERNFSD_NFS4_RECOVER_H
#define USERNFSD_NFS4_RECOVER_H

#include <stddef.h>

/* At start-up: the records of the last run. Their number, or -1 (errno set). */
int n4_recover_load(const char *statedir);
/* Was owner a client of the last run (may it reclaim)? */
int n4_recover_was_client(const void *owner, size_t len);
/* owner holds (may hold) state now: recorded, durably, before this returns. 0 or -1. */
int n4_recover_add(const void *owner, size_t len);
/* owner holds nothing any more; written out by the next n4_recover_flush. */
void n4_recover_remove(const void *owner, size_t len);
/* owner said RECLAIM_COMPLETE: it has nothing more to reclaim. */
void n4_recover_reclaimed(const void *owner, size_t len);
/* Has every client of the last run said RECLAIM_COMPLETE (the grace period may end)? */
int n4_recover_all_reclaimed(void);
/*
 * Once a second or so: writes out what n4_recover_remove changed, and
 * when the grace period is over, forgets the last run's clients that did
 * not come back.
 */
void n4_recover_flush(int in_grace);

#endif
