/*
 * Inside the client table (nfs4_clients.c for NFSv4.1's EXCHANGE_ID and
 * sessions, nfs40_clients.c for NFSv4.0's SETCLIENTID): the records, the
 * one lock over them, and what both files do to them. Nothing outside
 * state/ includes this.
 */
#ifndef USERNFSD_NFS4_CLIENTS_IMPL_H
#define USERNFSD_NFS4_CLIENTS_IMPL_H

#include <pthread.h>
#include <time.h>

#include "nfs4_clients.h"
#include "queue.h"

#define NBUCKETS 256

struct n4_slot {
	uint32_t seq;		/* of the last request the slot took */
	uint8_t used;		/* it took one */
	uint8_t busy;		/* that request is still running */
	uint8_t cached;		/* its reply is in reply[0..len) */
	uint16_t len;
	uint8_t *reply;		/* cache_max bytes, allocated when first kept */
};

struct n4_client;

struct n4_session {
	TAILQ_ENTRY(n4_session) by_client;
	struct n4_session *hnext;
	uint8_t id[N4_SESSIONID_SIZE];
	struct n4_client *clp;		/* NULL once destroyed */
	unsigned refs;			/* slots busy on it */
	int dead;			/* destroyed: freed when refs drops to 0 */
	uint32_t cache_max, maxops;
	uint32_t maxreq, maxresp;	/* the fore channel's sizes, as granted */
	size_t reserved;		/* nslots * cache_max, of the budget */
	int back_wanted;		/* the client asked for a back channel */
	int back_busy;			/* a CB_COMPOUND is on its one slot */
	struct n4_back back;
	uint32_t nslots;
	struct n4_slot slots[];
};

struct n4_client {
	TAILQ_ENTRY(n4_client) link;
	struct n4_client *hnext;
	uint64_t clientid;
	uint8_t verifier[N4_VERIFIER_SIZE];
	struct n4_principal who;
	int confirmed, reclaim_complete;
	uint32_t cs_seq;		/* the CREATE_SESSION sequence expected next */
	int cs_cached;			/* cs_reply answers a retry of cs_seq - 1 */
	struct n4_create_out cs_reply;
	time_t renewed;
	struct sockaddr_storage addr;
	/*
	 * NFSv4.0 (nfs40_clients.c): SETCLIENTID's confirm verifier and
	 * callback; a callback update of the confirmed record waits in
	 * cb_next until SETCLIENTID_CONFIRM with next_confirm.
	 */
	int minor0, cb_update;
	int cb_up;			/* 4.0: the last CB_NULL to cb answered (1), not (0), not yet (-1) */
	uint32_t minor;			/* the minor version it came with */
	uint8_t confirm[N4_VERIFIER_SIZE], next_confirm[N4_VERIFIER_SIZE];
	struct n40_callback cb, cb_next;
	unsigned nsessions;
	TAILQ_HEAD(, n4_session) sessions;
	size_t ownerlen;
	uint8_t owner[];
};

extern pthread_mutex_t n4_lock;

/* With n4_lock held. */
int n4c_same_principal(const struct n4_principal *a, const struct n4_principal *b);
struct n4_client *n4c_find_client(uint64_t clientid);
/* The record of owner that is (or is not yet) confirmed. */
struct n4_client *n4c_find_owner(const void *owner, size_t len, int confirmed);
/* A new unconfirmed record (room made by expiring others): NULL at the limits. */
struct n4_client *n4c_new(const struct n4_exchange_in *in);
/* The record and every session and stateid it holds go. */
void n4c_destroy(struct n4_client *c);
/* Past its lease (and no compound running on its sessions)? */
int n4c_expired(const struct n4_client *c, time_t now);

#endif
