/*
 * The duplicate request cache: a hash table of the non-idempotent calls
 * seen lately (by XID, program, procedure, client address and a checksum
 * of the arguments) with their replies, and a TAILQ in least-recently-used
 * order for trimming; one lock.
 */
#include "config.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "drc.h"
#include "queue.h"
#include "siphash.h"
#include "sockaddr.h"

#define DRC_BUCKETS 4096		/* power of two */
#define DRC_MAX_ENTRIES 8192
#define DRC_MAX_BYTES (8u << 20)
#define DRC_CSUM_BYTES 1024		/* from each end of the arguments */

struct drc_entry {
	struct drc_key key;
	struct drc_entry *hnext;	/* hash chain */
	TAILQ_ENTRY(drc_entry) lru;	/* head newest */
	int done;
	uint8_t *reply;
	size_t len;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct drc_entry *buckets[DRC_BUCKETS];
static TAILQ_HEAD(drc_lru, drc_entry) lru = TAILQ_HEAD_INITIALIZER(lru);
static unsigned nentries, hits;
static size_t nbytes;

static int
same_key(const struct drc_key *a, const struct drc_key *b)
{
	return a->xid == b->xid && a->proc == b->proc && a->prog == b->prog &&
	    a->vers == b->vers && a->proto == b->proto && a->csum == b->csum &&
	    a->ctx == b->ctx && sockaddr_same(&a->addr, &b->addr);
}

void
drc_key_init(struct drc_key *k, uint32_t xid, uint32_t prog, uint32_t vers, uint32_t proc,
    int proto, const struct sockaddr_storage *addr, const void *args, size_t argslen)
{
	static const uint8_t zero_key[SIPHASH_KEY_LEN];

	memset(k, 0, sizeof(*k));
	k->xid = xid;
	k->prog = prog;
	k->vers = vers;
	k->proc = proc;
	k->proto = proto;
	k->addr = *addr;
	/*
	 * XIDs wrap and clients reuse them: the arguments tell calls apart.
	 * Head and tail, not all of a 1 MiB WRITE: two calls alike in both,
	 * in length and in XID from one client port are not a real risk.
	 */
	if (argslen <= 2 * DRC_CSUM_BYTES) {
		k->csum = siphash24(zero_key, args, argslen);
	} else {
		k->csum = siphash24(zero_key, args, DRC_CSUM_BYTES) ^
		    siphash24(zero_key, (const uint8_t *)args + argslen - DRC_CSUM_BYTES,
		    DRC_CSUM_BYTES) * 31;
	}
	k->csum ^= (uint64_t)argslen;
}

static unsigned
bucket(const struct drc_key *k)
{
	return (k->xid * 2654435761u ^ (uint32_t)k->csum) & (DRC_BUCKETS - 1);
}

static struct drc_entry *
find(const struct drc_key *k)
{
	for (struct drc_entry *e = buckets[bucket(k)]; e; e = e->hnext)
		if (same_key(&e->key, k))
			return e;
	return NULL;
}

static void
unlink_entry(struct drc_entry *e)
{
	struct drc_entry **pp = &buckets[bucket(&e->key)];

	while (*pp && *pp != e)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = e->hnext;
	TAILQ_REMOVE(&lru, e, lru);
	nentries--;
	nbytes -= e->len;
	free(e->reply);
	free(e);
}

static void
trim(void)
{
	struct drc_entry *e = TAILQ_LAST(&lru, drc_lru);

	while ((nentries > DRC_MAX_ENTRIES || nbytes > DRC_MAX_BYTES) && e) {
		struct drc_entry *prev = TAILQ_PREV(e, drc_lru, lru);
		/* A call still running keeps its slot: its duplicates must stay dropped. */
		if (e->done)
			unlink_entry(e);
		e = prev;
	}
}

enum drc_state
drc_begin(const struct drc_key *k, uint8_t *reply, size_t cap, size_t *len)
{
	struct drc_entry *e;
	enum drc_state st = DRC_NEW;

	pthread_mutex_lock(&lock);
	e = find(k);
	if (e && !e->done) {
		st = DRC_IN_PROGRESS;
	} else if (e && e->len <= cap) {
		memcpy(reply, e->reply, e->len);
		*len = e->len;
		hits++;
		st = DRC_REPLAY;
	} else if (e == NULL && (e = calloc(1, sizeof(*e))) != NULL) {
		e->key = *k;
		e->hnext = buckets[bucket(k)];
		buckets[bucket(k)] = e;
		TAILQ_INSERT_HEAD(&lru, e, lru);
		nentries++;
		trim();
	}
	pthread_mutex_unlock(&lock);
	return st;
}

void
drc_done(const struct drc_key *k, const uint8_t *reply, size_t len)
{
	struct drc_entry *e;
	uint8_t *copy = malloc(len ? len : 1);

	pthread_mutex_lock(&lock);
	e = find(k);
	if (e && !e->done && copy) {
		memcpy(copy, reply, len);
		e->reply = copy;
		e->len = len;
		e->done = 1;
		nbytes += len;
		copy = NULL;
		trim();
	} else if (e && !e->done) {
		unlink_entry(e);	/* no memory for the reply: forget rather than block */
	}
	pthread_mutex_unlock(&lock);
	free(copy);
}

void
drc_forget(const struct drc_key *k)
{
	struct drc_entry *e;

	pthread_mutex_lock(&lock);
	e = find(k);
	if (e)
		unlink_entry(e);
	pthread_mutex_unlock(&lock);
}

void
drc_stats(unsigned *entries, unsigned *nhits)
{
	pthread_mutex_lock(&lock);
	*entries = nentries;
	*nhits = hits;
	pthread_mutex_unlock(&lock);
}
