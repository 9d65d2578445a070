/*
 * NFSv4 open stateids and share reservations (nfs4_state.h).
 *
 * One mutex, taken after nfs4_clients.c's when both are held (a client
 * that goes takes its stateids with it). Opens are found by stateid
 * (other) and by file, in two hash tables; a client's count bounds what
 * it may hold.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "fs/lease.h"
#include "locks.h"
#include "nfs4_state.h"
#include "nfs4_state_impl.h"

pthread_mutex_t n4s_lock = PTHREAD_MUTEX_INITIALIZER;
struct n4_open *n4s_other_hash[NBUCKETS], *n4s_file_hash[NBUCKETS];
static struct n4_holder *holder_hash[NBUCKETS];
static unsigned nstate;
unsigned n4s_ndelegs, n4s_nrevoked;
static uint32_t instance, counter;

void
n4_state_init(uint32_t inst)
{
	instance = inst;
}

static unsigned
other_bucket(const uint8_t other[N4_OTHER_SIZE])
{
	uint32_t n;

	memcpy(&n, other + 4, 4);
	return n % NBUCKETS;
}

unsigned
n4s_file_bucket(const struct n4_file *f)
{
	return (unsigned)((f->ino * 31 + f->export_id) % NBUCKETS);
}

/* An owner of 0 bytes may come with a NULL pointer, which memcmp and memcpy must not see. */
static int
same_owner(const uint8_t *a, size_t alen, const void *b, size_t blen)
{
	return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

int
n4s_same_file(const struct n4_file *a, const struct n4_file *b)
{
	return a->export_id == b->export_id && a->ino == b->ino;
}

struct n4_holder **
n4s_holder_slot(uint64_t clientid)
{
	struct n4_holder **pp = &holder_hash[clientid % NBUCKETS];

	while (*pp && (*pp)->clientid != clientid)
		pp = &(*pp)->next;
	return pp;
}

/* One more stateid for clientid, if the limits allow. */
static int
charge(uint64_t clientid)
{
	struct n4_holder **pp = n4s_holder_slot(clientid);

	if (nstate >= N4_MAX_STATE || (*pp && (*pp)->n >= N4_MAX_STATE_CLIENT))
		return -1;
	if (*pp == NULL) {
		if ((*pp = calloc(1, sizeof(**pp))) == NULL)
			return -1;
		(*pp)->clientid = clientid;
	}
	(*pp)->n++;
	nstate++;
	return 0;
}

static void
uncharge(uint64_t clientid)
{
	struct n4_holder **pp = n4s_holder_slot(clientid), *h = *pp;

	if (h == NULL)
		return;
	nstate--;
	if (--h->n == 0) {
		*pp = h->next;
		free(h);
	}
}

static struct n4_open *
find_other(const uint8_t other[N4_OTHER_SIZE])
{
	struct n4_open *o;

	for (o = n4s_other_hash[other_bucket(other)]; o; o = o->by_other)
		if (memcmp(o->other, other, N4_OTHER_SIZE) == 0)
			return o;
	return NULL;
}

static struct n4_open *
find_open(const struct n4_open_in *in)
{
	struct n4_open *o;

	for (o = n4s_file_hash[n4s_file_bucket(&in->file)]; o; o = o->by_file)
		if (o->kind == N4K_OPEN && o->clientid == in->clientid &&
		    n4s_same_file(&o->file, &in->file) &&
		    same_owner(o->owner, o->ownerlen, in->owner, in->ownerlen))
			return o;
	return NULL;
}

/* Does an open of file other than self deny access, or hold what deny denies? */
static int
share_conflict(const struct n4_file *file, const struct n4_open *self, unsigned access,
    unsigned deny)
{
	const struct n4_open *o;

	for (o = n4s_file_hash[n4s_file_bucket(file)]; o; o = o->by_file)
		if (o != self && o->kind == N4K_OPEN && n4s_same_file(&o->file, file) &&
		    ((access & o->deny) || (deny & o->access)))
			return 1;
	return 0;
}

void
n4s_unlink(struct n4_open *o)
{
	struct n4_open **pp;

	for (pp = &n4s_other_hash[other_bucket(o->other)]; *pp != o; pp = &(*pp)->by_other)
		;
	*pp = o->by_other;
	for (pp = &n4s_file_hash[n4s_file_bucket(&o->file)]; *pp != o; pp = &(*pp)->by_file)
		;
	*pp = o->by_file;
	if (o->kind == N4K_DELEG) {
		fs_lease_drop(o->lease);
		n4s_ndelegs--;
		if (*n4s_holder_slot(o->clientid))
			(*n4s_holder_slot(o->clientid))->delegs--;
	}
	if (o->kind == N4K_REVOKED) {
		n4s_nrevoked--;
		if (*n4s_holder_slot(o->clientid))
			(*n4s_holder_slot(o->clientid))->revoked--;
	}
	uncharge(o->clientid);
	free(o);
}

struct n4_open *
n4s_new_open(const struct n4_open_in *in)
{
	struct n4_open *o;
	uint32_t rnd = 0, n;
	unsigned b;

	if (charge(in->clientid) < 0)
		return NULL;
	if ((o = calloc(1, sizeof(*o) + in->ownerlen)) == NULL) {
		uncharge(in->clientid);
		return NULL;
	}
	o->clientid = in->clientid;
	o->file = in->file;
	o->ownerlen = in->ownerlen;
	if (in->ownerlen)
		memcpy(o->owner, in->owner, in->ownerlen);
	memcpy(o->other, &instance, 4);
	n = ++counter;
	memcpy(o->other + 4, &n, 4);
	/* Not to be guessed: a stateid is a capability for the file's I/O. */
	if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
		rnd = n * 2654435761u;
	memcpy(o->other + 8, &rnd, 4);
	b = other_bucket(o->other);
	o->by_other = n4s_other_hash[b];
	n4s_other_hash[b] = o;
	b = n4s_file_bucket(&o->file);
	o->by_file = n4s_file_hash[b];
	n4s_file_hash[b] = o;
	return o;
}

static const struct n4_open *
open_of(const struct n4_open *o)
{
	return o->kind == N4K_LOCK ? o->parent : o;
}

void
n4s_answer(const struct n4_open *o, struct n4_stateid *out)
{
	out->seqid = o->seqid;
	memcpy(out->other, o->other, N4_OTHER_SIZE);
}

/* The seqid after n: 0 is never handed out (it means "the current one"). */
static uint32_t
next_seqid(uint32_t n)
{
	return n + 1 ? n + 1 : 1;
}

enum n4_state_result
n4_open(const struct n4_open_in *in, struct n4_stateid *out)
{
	enum n4_state_result r = N4S_OK;
	struct n4_open *o;

	pthread_mutex_lock(&n4s_lock);
	o = find_open(in);
	if (share_conflict(&in->file, o, in->access, in->deny)) {
		r = N4S_SHARE_DENIED;
	} else if (o == NULL && (o = n4s_new_open(in)) == NULL) {
		r = N4S_DELAY;
	} else {
		if (o->seqid == 0)
			o->unconfirmed = in->unconfirmed;
		o->access |= in->access;
		o->deny |= in->deny;
		o->seqid = next_seqid(o->seqid);
		n4s_answer(o, out);
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

/*
 * The open sid names for clientid, checking its seqid (0: the current
 * one), and not one of an unconfirmed NFSv4.0 owner unless confirming it.
 */
static enum n4_state_result
lookup_any(uint64_t clientid, const struct n4_stateid *sid, struct n4_open **out, int confirming)
{
	struct n4_open *o = find_other(sid->other);

	/* One of an earlier boot too: 4.1 has no STALE_STATEID (RFC 8881 15.1.16.5). */
	if (o == NULL)
		return N4S_BAD_STATEID;
	if (o->clientid != clientid || o->unconfirmed != confirming)
		return N4S_BAD_STATEID;
	if (o->kind == N4K_REVOKED) {
		*out = o;	/* FREE_STATEID takes it; everything else hears this */
		return N4S_DELEG_REVOKED;
	}
	if (sid->seqid != 0 && sid->seqid > o->seqid)
		return N4S_BAD_STATEID;
	if (sid->seqid != 0 && sid->seqid < o->seqid)
		return N4S_OLD_STATEID;
	*out = o;
	return N4S_OK;
}

enum n4_state_result
n4s_lookup_sid(uint64_t clientid, const struct n4_stateid *sid, struct n4_open **out)
{
	return lookup_any(clientid, sid, out, 0);
}

enum n4_state_result
n4_open_confirm(uint64_t clientid, const struct n4_stateid *sid, struct n4_stateid *out)
{
	enum n4_state_result r;
	struct n4_open *o;

	pthread_mutex_lock(&n4s_lock);
	r = lookup_any(clientid, sid, &o, 1);
	if (r == N4S_OK && o->kind != N4K_OPEN)
		r = N4S_BAD_STATEID;
	if (r == N4S_OK) {
		o->unconfirmed = 0;
		o->seqid = next_seqid(o->seqid);
		n4s_answer(o, out);
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

enum n4_state_result
n4_stateid_owner(const struct n4_stateid *sid, struct n4_sid_owner *out)
{
	enum n4_state_result r = N4S_OK;
	const struct n4_open *o;

	if (memcmp(sid->other, &instance, 4) != 0)
		return N4S_STALE_STATEID;
	pthread_mutex_lock(&n4s_lock);
	if ((o = find_other(sid->other)) == NULL) {
		r = N4S_BAD_STATEID;
	} else {
		out->clientid = o->clientid;
		out->lock = o->kind == N4K_LOCK;
		out->ownerlen = o->ownerlen;
		memcpy(out->owner, o->owner, o->ownerlen);
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

enum n4_state_result
n4_open_downgrade(uint64_t clientid, const struct n4_stateid *sid, unsigned access,
    unsigned deny, struct n4_stateid *out)
{
	enum n4_state_result r;
	struct n4_open *o;

	pthread_mutex_lock(&n4s_lock);
	r = n4s_lookup_sid(clientid, sid, &o);
	if (r == N4S_OK && o->kind != N4K_OPEN)
		r = N4S_BAD_STATEID;
	if (r == N4S_OK && (access == 0 || (access & ~o->access) || (deny & ~o->deny)))
		r = N4S_INVAL;
	if (r == N4S_OK) {
		o->access = access;
		o->deny = deny;
		o->seqid = next_seqid(o->seqid);
		n4s_answer(o, out);
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

/* The lock manager's name for a client's lock owners: one "host" per client. */
void
n4_lock_caller(uint64_t clientid, char buf[N4_CALLER_LEN])
{
	snprintf(buf, N4_CALLER_LEN, "nfs4:%016llx", (unsigned long long)clientid);
}

/* Every lock state whose parent is open, released through fn, then gone. */
static void
drop_locks_of(struct n4_open *open, n4_release_fn fn, void *arg)
{
	for (unsigned b = 0; b < NBUCKETS; b++) {
		struct n4_open *o = n4s_other_hash[b], *next;

		for (; o; o = next) {
			next = o->by_other;
			if (o->kind != N4K_LOCK || o->parent != open)
				continue;
			if (o->held && fn)
				fn(arg, o->owner, o->ownerlen, &o->peer);
			n4s_unlink(o);
			next = n4s_other_hash[b];	/* the chain changed: start it again */
		}
	}
}

enum n4_state_result
n4_close(uint64_t clientid, const struct n4_stateid *sid, struct n4_file *file,
    n4_release_fn fn, void *arg)
{
	enum n4_state_result r;
	struct n4_open *o;

	pthread_mutex_lock(&n4s_lock);
	r = n4s_lookup_sid(clientid, sid, &o);
	if (r == N4S_OK && o->kind != N4K_OPEN)
		r = N4S_BAD_STATEID;
	if (r == N4S_OK) {
		*file = o->file;
		/* The locks go with the open, as POSIX's go with close (RFC 8881 18.2.3). */
		drop_locks_of(o, fn, arg);
		n4s_unlink(o);
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

static struct n4_open *
find_lock(uint64_t clientid, const struct n4_file *f, const void *owner, size_t len)
{
	struct n4_open *o;

	for (o = n4s_file_hash[n4s_file_bucket(f)]; o; o = o->by_file)
		if (o->kind == N4K_LOCK && o->clientid == clientid && n4s_same_file(&o->file, f) &&
		    same_owner(o->owner, o->ownerlen, owner, len))
			return o;
	return NULL;
}

/* LOCK with open_to_lock_owner4: the owner's lock state on the open's file, made if new. */
static enum n4_state_result
lock_of_new_owner(const struct n4_lock_in *in, struct n4_open **out, int *created)
{
	struct n4_open *open, *l;
	struct n4_open_in oi;
	enum n4_state_result r = n4s_lookup_sid(in->clientid, &in->sid, &open);

	if (r != N4S_OK)
		return r;
	if (open->kind != N4K_OPEN)
		return N4S_BAD_STATEID;
	if ((l = find_lock(in->clientid, &open->file, in->owner, in->ownerlen)) != NULL) {
		*out = l;
		return N4S_OK;
	}
	memset(&oi, 0, sizeof(oi));
	oi.clientid = in->clientid;
	oi.owner = in->owner;
	oi.ownerlen = in->ownerlen;
	oi.file = open->file;
	if ((l = n4s_new_open(&oi)) == NULL)
		return N4S_DELAY;
	l->kind = N4K_LOCK;
	l->parent = open;
	l->peer = *in->peer;
	*created = 1;
	*out = l;
	return N4S_OK;
}

enum n4_state_result
n4_lock_get(const struct n4_lock_in *in, struct n4_lock_out *out)
{
	enum n4_state_result r;
	struct n4_open *l = NULL;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&n4s_lock);
	if (in->new_owner) {
		r = lock_of_new_owner(in, &l, &out->created);
	} else {
		r = n4s_lookup_sid(in->clientid, &in->sid, &l);
		if (r == N4S_OK && l->kind != N4K_LOCK)
			r = N4S_BAD_STATEID;
	}
	if (r == N4S_OK) {
		out->file = l->file;
		out->access = l->parent->access;
		memcpy(out->other, l->other, N4_OTHER_SIZE);
		memcpy(out->owner, l->owner, l->ownerlen);
		out->ownerlen = l->ownerlen;
		out->peer = l->peer;
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

enum n4_state_result
n4_lock_put(uint64_t clientid, const uint8_t other[N4_OTHER_SIZE], int changed, int created,
    int held, struct n4_stateid *out)
{
	enum n4_state_result r = N4S_OK;
	struct n4_open *l;

	pthread_mutex_lock(&n4s_lock);
	l = find_other(other);
	if (l == NULL || l->clientid != clientid || l->kind != N4K_LOCK) {
		r = N4S_BAD_STATEID;	/* its open was closed meanwhile */
	} else if (!changed && created) {
		n4s_unlink(l);		/* a first lock denied: no stateid for nothing */
	} else {
		l->held = held;
		if (changed)
			l->seqid = next_seqid(l->seqid);
		n4s_answer(l, out);
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

static int
deny_of_others(const struct n4_file *file, unsigned need)
{
	const struct n4_open *o;

	for (o = n4s_file_hash[n4s_file_bucket(file)]; o; o = o->by_file)
		if (o->kind == N4K_OPEN && n4s_same_file(&o->file, file) && (o->deny & need))
			return 1;
	return 0;
}

enum n4_state_result
n4_stateid_use(uint64_t clientid, const struct n4_stateid *sid, const struct n4_file *file,
    unsigned need)
{
	enum n4_state_result r = N4S_OK;
	struct n4_open *o;

	pthread_mutex_lock(&n4s_lock);
	if (sid == NULL) {
		if (deny_of_others(file, need))
			r = N4S_LOCKED;
	} else if ((r = n4s_lookup_sid(clientid, sid, &o)) == N4S_OK) {
		if (!n4s_same_file(&o->file, file))
			r = N4S_BAD_STATEID;
		/* Reading with a write-only open is allowed, as knfsd allows it. */
		else if ((need & N4_SHARE_WRITE) && !(open_of(o)->access & N4_SHARE_WRITE))
			r = N4S_OPENMODE;
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

enum n4_state_result
n4_stateid_test(uint64_t clientid, const struct n4_stateid *sid)
{
	enum n4_state_result r;
	struct n4_open *o;

	pthread_mutex_lock(&n4s_lock);
	r = n4s_lookup_sid(clientid, sid, &o);
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

enum n4_state_result
n4_stateid_free(uint64_t clientid, const struct n4_stateid *sid)
{
	enum n4_state_result r;
	struct n4_open *o;

	pthread_mutex_lock(&n4s_lock);
	r = n4s_lookup_sid(clientid, sid, &o);
	if (r == N4S_DELEG_REVOKED) {
		n4s_unlink(o);		/* the client has seen it revoked */
		pthread_mutex_unlock(&n4s_lock);
		return N4S_OK;
	}
	/* An open goes with CLOSE, a lock state once it holds nothing (RFC 8881 18.38.3). */
	if (r == N4S_OK && (o->kind != N4K_LOCK || o->held))
		r = N4S_LOCKS_HELD;	/* a delegation goes with DELEGRETURN */
	else if (r == N4S_OK)
		n4s_unlink(o);
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

enum n4_state_result
n4_release_lockowner(uint64_t clientid, const void *owner, size_t ownerlen)
{
	enum n4_state_result r = N4S_OK;

	pthread_mutex_lock(&n4s_lock);
	for (unsigned b = 0; b < NBUCKETS && r == N4S_OK; b++)
		for (const struct n4_open *o = n4s_other_hash[b]; o; o = o->by_other)
			if (o->kind == N4K_LOCK && o->clientid == clientid && o->held &&
			    same_owner(o->owner, o->ownerlen, owner, ownerlen))
				r = N4S_LOCKS_HELD;
	for (unsigned b = 0; b < NBUCKETS && r == N4S_OK; b++) {
		struct n4_open *o = n4s_other_hash[b], *next;

		for (; o; o = next) {
			next = o->by_other;
			if (o->kind == N4K_LOCK && o->clientid == clientid &&
			    same_owner(o->owner, o->ownerlen, owner, ownerlen)) {
				n4s_unlink(o);
				next = n4s_other_hash[b];
			}
		}
	}
	pthread_mutex_unlock(&n4s_lock);
	return r;
}

/* Lock states first (their parents must outlive them), then opens. */
static void
drop_where(int (*match)(const struct n4_open *, uint64_t, const void *), uint64_t clientid,
    const void *arg)
{
	char caller[N4_CALLER_LEN];

	pthread_mutex_lock(&n4s_lock);
	for (int kind = N4K_REVOKED; kind >= N4K_OPEN; kind--)
		for (unsigned b = 0; b < NBUCKETS; b++) {
			struct n4_open *o = n4s_other_hash[b], *next;

			for (; o; o = next) {
				next = o->by_other;
				if ((int)o->kind != kind || !match(o, clientid, arg))
					continue;
				if (o->kind == N4K_LOCK && o->held) {
					n4_lock_caller(o->clientid, caller);
					locks_free_all(caller, &o->peer);
				}
				n4s_unlink(o);
			}
		}
	pthread_mutex_unlock(&n4s_lock);
}

static int
of_client(const struct n4_open *o, uint64_t clientid, const void *arg)
{
	(void)arg;
	return o->clientid == clientid;
}

struct owner_bytes {
	const void *p;
	size_t len;
};

/* An open of the open-owner in arg (struct owner_bytes), or a lock state made from one. */
static int
of_open_owner(const struct n4_open *o, uint64_t clientid, const void *arg)
{
	const struct owner_bytes *w = arg;
	const struct n4_open *open = open_of(o);

	return o->clientid == clientid && same_owner(open->owner, open->ownerlen, w->p, w->len);
}

static int
any(const struct n4_open *o, uint64_t clientid, const void *arg)
{
	(void)o; (void)clientid; (void)arg;
	return 1;
}

void
n4_state_client_gone(uint64_t clientid)
{
	drop_where(of_client, clientid, NULL);
}

void
n4_state_owner_gone(uint64_t clientid, const void *owner, size_t ownerlen)
{
	struct owner_bytes w = { owner, ownerlen };

	drop_where(of_open_owner, clientid, &w);
}

void
n4_state_reset(void)
{
	drop_where(any, 0, NULL);
	counter = 0;
}

int
n4_state_client_busy(uint64_t clientid)
{
	int busy;

	pthread_mutex_lock(&n4s_lock);
	busy = *n4s_holder_slot(clientid) != NULL;
	pthread_mutex_unlock(&n4s_lock);
	return busy;
}

void
n4_state_count(struct n4_state_counts *c)
{
	pthread_mutex_lock(&n4s_lock);
	c->opens = nstate;
	c->delegations = n4s_ndelegs;
	pthread_mutex_unlock(&n4s_lock);
}
