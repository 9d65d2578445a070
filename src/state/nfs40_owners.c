/*
 * NFSv4.0 owners and their sequence ids (nfs40_owners.h).
 *
 * One mutex, taken after nfs4_clients.c's (a client that goes takes its
 * owners with it) and never held while an operation runs: an operation
 * holds its owner by its busy flag, and a second operation of the same
 * owner waits on the condition variable until the first is done.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nfs40_owners.h"
#include "queue.h"

#define NBUCKETS 1024

struct n40_owner {
	struct n40_owner *hnext;
	TAILQ_ENTRY(n40_owner) lru;	/* head: the most recently used */
	uint64_t clientid;
	int lock, confirmed, busy, dead;
	int started;			/* it has a last seqid */
	int closed;			/* last_closed holds the stateid of its last CLOSE */
	uint8_t last_closed[12];
	uint32_t seqid;			/* of the last sequenced operation */
	uint8_t *reply;			/* that operation's reply, replen bytes */
	size_t replen;
	size_t ownerlen;
	uint8_t owner[];
};

/* How many owners a client has. */
struct n40_count {
	struct n40_count *next;
	uint64_t clientid;
	unsigned n;
};

static pthread_mutex_t owners_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t owner_free = PTHREAD_COND_INITIALIZER;
static struct n40_owner *hash[NBUCKETS];
static struct n40_count *counts[NBUCKETS];
static TAILQ_HEAD(n40_lru, n40_owner) lru = TAILQ_HEAD_INITIALIZER(lru);
static unsigned nowners;

static unsigned
bucket(const struct n40_owner_key *k)
{
	uint64_t h = 14695981039346656037ull ^ k->clientid ^ (uint64_t)k->lock;	/* FNV-1a */
	const uint8_t *p = k->owner;

	for (size_t i = 0; i < k->ownerlen; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return (unsigned)(h % NBUCKETS);
}

static int
matches(const struct n40_owner *o, const struct n40_owner_key *k)
{
	return !o->dead && o->clientid == k->clientid && o->lock == k->lock &&
	    o->ownerlen == k->ownerlen &&
	    (k->ownerlen == 0 || memcmp(o->owner, k->owner, k->ownerlen) == 0);
}

static struct n40_owner *
find(const struct n40_owner_key *k)
{
	for (struct n40_owner *o = hash[bucket(k)]; o; o = o->hnext)
		if (matches(o, k))
			return o;
	return NULL;
}

static struct n40_count **
count_slot(uint64_t clientid)
{
	struct n40_count **pp = &counts[clientid % NBUCKETS];

	while (*pp && (*pp)->clientid != clientid)
		pp = &(*pp)->next;
	return pp;
}

static unsigned
count_of(uint64_t clientid)
{
	struct n40_count *c = *count_slot(clientid);

	return c ? c->n : 0;
}

static int
count_add(uint64_t clientid, int delta)
{
	struct n40_count **pp = count_slot(clientid), *c = *pp;

	if (c == NULL) {
		if (delta < 0 || (c = calloc(1, sizeof(*c))) == NULL)
			return -1;
		c->clientid = clientid;
		*pp = c;
	}
	c->n += (unsigned)delta;
	if (c->n == 0) {
		*pp = c->next;
		free(c);
	}
	return 0;
}

/* Out of the table; freed now, or by n40_owner_done when an operation holds it. */
static void
unlink_owner(struct n40_owner *o)
{
	struct n40_owner **pp;
	struct n40_owner_key k = { o->clientid, o->lock, o->owner, o->ownerlen };

	for (pp = &hash[bucket(&k)]; *pp != o; pp = &(*pp)->hnext)
		;
	*pp = o->hnext;
	TAILQ_REMOVE(&lru, o, lru);
	count_add(o->clientid, -1);
	nowners--;
	o->dead = 1;
	if (!o->busy) {
		free(o->reply);
		free(o);
	}
}

/* The oldest owner not running an operation (of clientid, unless any): NULL if none. */
static struct n40_owner *
oldest_idle(uint64_t clientid, int any)
{
	struct n40_owner *o;

	TAILQ_FOREACH_REVERSE(o, &lru, n40_lru, lru)
		if (!o->busy && (any || o->clientid == clientid))
			return o;
	return NULL;
}

static int
make_room(uint64_t clientid)
{
	struct n40_owner *o;

	if (count_of(clientid) >= N40_MAX_OWNERS_CLIENT) {
		if ((o = oldest_idle(clientid, 0)) == NULL)
			return -1;
		unlink_owner(o);
	}
	if (nowners >= N40_MAX_OWNERS) {
		if ((o = oldest_idle(0, 1)) == NULL)
			return -1;
		unlink_owner(o);
	}
	return 0;
}

static struct n40_owner *
new_owner(const struct n40_owner_key *k)
{
	struct n40_owner *o;
	unsigned b;

	if (make_room(k->clientid) < 0 || (o = calloc(1, sizeof(*o) + k->ownerlen)) == NULL)
		return NULL;
	if (count_add(k->clientid, 1) < 0) {
		free(o);
		return NULL;
	}
	o->clientid = k->clientid;
	o->lock = k->lock;
	o->confirmed = k->lock;		/* lock-owners need no confirmation */
	o->ownerlen = k->ownerlen;
	if (k->ownerlen)
		memcpy(o->owner, k->owner, k->ownerlen);
	b = bucket(k);
	o->hnext = hash[b];
	hash[b] = o;
	TAILQ_INSERT_HEAD(&lru, o, lru);
	nowners++;
	return o;
}

enum n40_seq
n40_owner_take(const struct n40_owner_key *k, uint32_t seqid, int open, struct n40_owner **out,
    void *replay, size_t *len)
{
	enum n40_seq r;
	struct n40_owner *o;

	*out = NULL;
	pthread_mutex_lock(&owners_lock);
	while ((o = find(k)) != NULL && o->busy)
		pthread_cond_wait(&owner_free, &owners_lock);
	if (o == NULL && (o = new_owner(k)) == NULL) {
		pthread_mutex_unlock(&owners_lock);
		return N40_SEQ_FULL;
	}
	TAILQ_REMOVE(&lru, o, lru);
	TAILQ_INSERT_HEAD(&lru, o, lru);
	if (!o->started) {
		r = N40_SEQ_FIRST;
	} else if (seqid == o->seqid) {
		/* RFC 7530 9.1.8: the last request again, answered as it was (if it was kept). */
		if (o->reply == NULL) {
			pthread_mutex_unlock(&owners_lock);
			return N40_SEQ_BAD;
		}
		memcpy(replay, o->reply, o->replen);
		*len = o->replen;
		pthread_mutex_unlock(&owners_lock);
		return N40_SEQ_REPLAY;
	} else if (open && !o->confirmed) {
		o->started = 0;
		free(o->reply);
		o->reply = NULL;
		o->replen = 0;
		r = N40_SEQ_RESTART;
	} else if (seqid == o->seqid + 1) {
		r = N40_SEQ_NEW;
	} else {
		pthread_mutex_unlock(&owners_lock);
		return N40_SEQ_BAD;
	}
	o->busy = 1;
	*out = o;
	pthread_mutex_unlock(&owners_lock);
	return r;
}

void
n40_owner_done(struct n40_owner *o, uint32_t seqid, int bump, const void *reply, size_t len)
{
	uint8_t *copy = NULL;

	if (o == NULL)
		return;
	if (bump && reply && len <= N40_REPLAY_MAX && (copy = malloc(len ? len : 1)) != NULL)
		memcpy(copy, reply, len);
	pthread_mutex_lock(&owners_lock);
	if (bump) {
		o->seqid = seqid;
		o->started = 1;
		free(o->reply);
		o->reply = copy;	/* NULL: not kept, a retransmission is BAD_SEQID */
		o->replen = len;
		copy = NULL;
	}
	o->busy = 0;
	if (o->dead) {
		free(o->reply);
		free(o);
	}
	pthread_cond_broadcast(&owner_free);
	pthread_mutex_unlock(&owners_lock);
	free(copy);
}

int
n40_owner_confirmed(const struct n40_owner *o)
{
	return o->confirmed;	/* the holder's to read: no one else changes it meanwhile */
}

void
n40_owner_confirm(struct n40_owner *o)
{
	pthread_mutex_lock(&owners_lock);
	o->confirmed = 1;
	pthread_mutex_unlock(&owners_lock);
}

void
n40_owner_closed(struct n40_owner *o, const uint8_t other[12])
{
	pthread_mutex_lock(&owners_lock);
	memcpy(o->last_closed, other, sizeof(o->last_closed));
	o->closed = 1;
	pthread_mutex_unlock(&owners_lock);
}

int
n40_owner_by_closed(const uint8_t other[12], struct n40_owner_key *k,
    uint8_t owner[N40_OWNER_BYTES])
{
	const struct n40_owner *o;
	int r = -1;

	/* A walk, but only for a stateid that is not there any more (a CLOSE's retransmission). */
	pthread_mutex_lock(&owners_lock);
	TAILQ_FOREACH(o, &lru, lru)
		if (o->closed && !o->lock && memcmp(o->last_closed, other, 12) == 0 &&
		    o->ownerlen <= N40_OWNER_BYTES) {
			k->clientid = o->clientid;
			k->lock = 0;
			memcpy(owner, o->owner, o->ownerlen);
			k->owner = owner;
			k->ownerlen = o->ownerlen;
			r = 0;
			break;
		}
	pthread_mutex_unlock(&owners_lock);
	return r;
}

int
n40_lock_owner_start(const struct n40_owner_key *k, uint32_t lock_seqid)
{
	struct n40_owner *o;
	int r = 0;

	pthread_mutex_lock(&owners_lock);
	if ((o = find(k)) == NULL)
		o = new_owner(k);
	if (o == NULL) {
		r = -1;
	} else if (!o->busy && !o->started) {
		/* A new lock-owner: lock_seqid is its first (RFC 7530 16.10.5). */
		o->seqid = lock_seqid;
		o->started = 1;
	}
	pthread_mutex_unlock(&owners_lock);
	return r;
}

void
n40_owner_forget(const struct n40_owner_key *k)
{
	struct n40_owner *o;

	pthread_mutex_lock(&owners_lock);
	if ((o = find(k)) != NULL)
		unlink_owner(o);
	pthread_mutex_unlock(&owners_lock);
}

static void
drop_where(int all, uint64_t clientid)
{
	struct n40_owner *o, *next;

	pthread_mutex_lock(&owners_lock);
	for (o = TAILQ_FIRST(&lru); o; o = next) {
		next = TAILQ_NEXT(o, lru);
		if (all || o->clientid == clientid)
			unlink_owner(o);
	}
	pthread_mutex_unlock(&owners_lock);
}

void
n40_owners_client_gone(uint64_t clientid)
{
	drop_where(0, clientid);
}

void
n40_owners_reset(void)
{
	drop_where(1, 0);
}
