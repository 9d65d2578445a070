/*
 * NFSv4 read delegations in the stateid table (nfs4_state.h's
 * n4_deleg_*): granted beside the opens of a file, marked for recall by
 * what conflicts with them, returned, or revoked after their time. The
 * lease that stands for one on the server's file is the fs layer's
 * (fs/lease.h); it is dropped with the delegation (n4s_unlink).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fs/lease.h"
#include "nfs4_state.h"
#include "nfs4_state_impl.h"

enum n4_state_result
n4_deleg_grant(const struct n4_deleg_in *in, struct n4_stateid *out)
{
	struct n4_open_in oi;
	struct n4_open *o;
	enum n4_state_result r = N4S_OK;

	if (in->fhlen > N4_LOCK_OWNER_MAX)
		return N4S_INVAL;
	pthread_mutex_lock(&n4s_lock);
	for (o = n4s_file_hash[n4s_file_bucket(&in->file)]; o && r == N4S_OK; o = o->by_file) {
		if (!n4s_same_file(&o->file, &in->file))
			continue;
		/* Someone writes it, or it is being recalled, or the client has one already. */
		if ((o->kind == N4K_OPEN && (o->access & N4_SHARE_WRITE)) ||
		    (o->kind == N4K_DELEG && (o->recalled || o->clientid == in->clientid)))
			r = N4S_SHARE_DENIED;
	}
	if (r == N4S_OK && n4s_ndelegs >= N4_MAX_DELEGS)
		r = N4S_DELAY;
	memset(&oi, 0, sizeof(oi));
	oi.clientid = in->clientid;
	oi.owner = in->fh;
	oi.ownerlen = in->fhlen;
	oi.file = in->file;
	if (r == N4S_OK && (o = n4s_new_open(&oi)) == NULL)
		r = N4S_DELAY;
	if (r == N4S_OK) {
		o->kind = N4K_DELEG;
		o->access = N4_SHARE_READ;
		o->lease = in->lease;
		o->no_free = in->minor0;
		if (in->peer)
			o->peer = *in->peer;
		o->seqid = 1;
		n4s_ndelegs++;
		if (*n4s_holder_slot(o->clientid))
			(*n4s_holder_slot(o->clientid))->delegs++;
		n4s_answer(o, out);
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

/*
 * A delegation taken back: its lease goes (the writer held back goes on);
 * the stateid stays, so that the client learns (DELEG_REVOKED, and
 * SEQUENCE's flag) and frees it (FREE_STATEID). Only 4.1 and later
 * clients get delegations, so every holder has FREE_STATEID.
 */
static void
revoke(struct n4_open *o)
{
	struct n4_holder *h = *n4s_holder_slot(o->clientid);

	fs_lease_drop(o->lease);
	o->lease = -1;
	n4s_ndelegs--;
	if (h)
		h->delegs--;
	if (o->no_free) {
		/* An NFSv4.0 client has no FREE_STATEID: the stateid just goes. */
		o->kind = N4K_REVOKED;	/* (n4s_unlink counts it off as such) */
		n4s_nrevoked++;
		if (h)
			h->revoked++;
		n4s_unlink(o);
		return;
	}
	o->kind = N4K_REVOKED;
	n4s_nrevoked++;
	if (h)
		h->revoked++;
}

int
n4_state_client_delegs(uint64_t clientid)
{
	struct n4_holder *h;
	int n;

	pthread_mutex_lock(&n4s_lock);
	h = *n4s_holder_slot(clientid);
	n = h ? (int)h->delegs : 0;
	pthread_mutex_unlock(&n4s_lock);
	return n;
}

int
n4_state_client_revoked(uint64_t clientid)
{
	struct n4_holder *h;
	int r;

	/* Asked by every SEQUENCE: no lock while nothing is revoked anywhere. */
	if (__atomic_load_n(&n4s_nrevoked, __ATOMIC_RELAXED) == 0)
		return 0;
	pthread_mutex_lock(&n4s_lock);
	h = *n4s_holder_slot(clientid);
	r = h && h->revoked;
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

/* Has fn queue o's recall (with the state lock held: fn only queues). */
static void
queue(struct n4_open *o, n4_recall_fn fn, void *arg)
{
	struct n4_stateid sid;

	n4s_answer(o, &sid);
	o->recall_queued = fn == NULL || fn(arg, o->clientid, &sid, o->owner, o->ownerlen,
	    &o->peer) == 0;
}

/* Marks o for recall, once; the revocation clock starts now. */
static void
recall(struct n4_open *o, time_t now, n4_recall_fn fn, void *arg)
{
	if (o->recalled)
		return;
	o->recalled = now ? now : 1;
	queue(o, fn, arg);
}

unsigned
n4_deleg_conflicts(const struct n4_file *file, uint64_t clientid, unsigned access, time_t now,
    n4_recall_fn fn, void *arg)
{
	struct n4_open *o;
	unsigned n = 0;

	(void)clientid;		/* a read delegation is in the way of any writer, its holder too */
	if (!(access & N4_SHARE_WRITE))
		return 0;
	pthread_mutex_lock(&n4s_lock);
	for (o = n4s_file_hash[n4s_file_bucket(file)]; o; o = o->by_file)
		if (o->kind == N4K_DELEG && n4s_same_file(&o->file, file)) {
			recall(o, now, fn, arg);
			n++;
		}
	pthread_mutex_unlock(&n4s_lock);
	return n;
}

unsigned
n4_deleg_break_others(const struct n4_file *file, uint64_t except, time_t now, n4_recall_fn fn,
    void *arg)
{
	struct n4_open *o;
	unsigned n = 0;

	/* Most changes meet no delegation at all: no lock for them. */
	if (__atomic_load_n(&n4s_ndelegs, __ATOMIC_RELAXED) == 0)
		return 0;
	pthread_mutex_lock(&n4s_lock);
	for (o = n4s_file_hash[n4s_file_bucket(file)]; o; o = o->by_file)
		if (o->kind == N4K_DELEG && n4s_same_file(&o->file, file) && o->clientid != except) {
			recall(o, now, fn, arg);
			n++;
		}
	pthread_mutex_unlock(&n4s_lock);
	return n;
}

enum n4_state_result
n4_deleg_return(uint64_t clientid, const struct n4_stateid *sid)
{
	enum n4_state_result r;
	struct n4_open *o;

	pthread_mutex_lock(&n4s_lock);
	r = n4s_lookup_sid(clientid, sid, &o);
	if (r == N4S_OK && o->kind != N4K_DELEG)
		r = N4S_BAD_STATEID;
	if (r == N4S_OK)
		n4s_unlink(o);		/* its lease goes: a writer held back goes on */
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

void
n4_deleg_tick(time_t now, unsigned limit, int check_leases, n4_recall_fn fn, void *arg,
    unsigned *revoked)
{
	*revoked = 0;
	if (__atomic_load_n(&n4s_ndelegs, __ATOMIC_RELAXED) == 0)
		return;		/* nothing to recall or revoke: the usual second */
	pthread_mutex_lock(&n4s_lock);
	for (unsigned b = 0; b < NBUCKETS; b++) {
		struct n4_open *o = n4s_other_hash[b], *next;

		for (; o; o = next) {
			next = o->by_other;
			if (o->kind != N4K_DELEG)
				continue;
			/*
			 * Recalled and not returned within the limit: revoked. (A
			 * lease being broken and one the kernel took away both read
			 * as F_UNLCK, so the limit is the caller's to keep below the
			 * kernel's lease-break time.)
			 */
			if (o->recalled && now - o->recalled > (time_t)limit) {
				revoke(o);
				(*revoked)++;
				continue;
			}
			/* A process on the server wants to write it (SIGIO): recall. */
			if (check_leases && !o->recalled && !fs_lease_intact(o->lease))
				recall(o, now, fn, arg);
			else if (o->recalled && !o->recall_queued)
				queue(o, fn, arg);	/* the client's queue was full */
		}
	}
	pthread_mutex_unlock(&n4s_lock);
}

