/*
 * NFSv4.1 client records, sessions and slots (nfs4_clients.h); NFSv4.0's
 * SETCLIENTID is nfs40_clients.c, on the same records.
 *
 * One mutex guards it all: every call here is short (a hash lookup, at
 * most a 4 KiB copy of a cached reply), and a compound holds no lock while
 * it runs, only a reference on its session's slot.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "log.h"
#include "nfs4_clients.h"
#include "nfs4_clients_impl.h"
#include "locks.h"
#include "nfs40_owners.h"
#include "nfs4_recover.h"
#include "nfs4_state.h"
#include "queue.h"
#include "monotime.h"

pthread_mutex_t n4_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, n4_client) all_clients = TAILQ_HEAD_INITIALIZER(all_clients);
static struct n4_client *client_hash[NBUCKETS];
static struct n4_session *session_hash[NBUCKETS];
static unsigned nclients, nsessions;
static size_t cache_reserved;
static uint32_t instance;		/* this boot: the high word of every clientid */
static uint32_t next_client = 1, next_session = 1;
static unsigned lease_secs = N4_LEASE_DEFAULT;

void
n4_set_lease(unsigned secs)
{
	lease_secs = secs;
}

unsigned
n4_lease(void)
{
	return lease_secs;
}

void
n4_clients_init(void)
{
	/*
	 * Wall-clock seconds: a restarted server must not hand out a clientid
	 * or sessionid its previous run did, so that their holders get STALE
	 * or BADSESSION and recover, never another client's state.
	 */
	instance = (uint32_t)time(NULL);
	n4_state_init(instance);
}

static unsigned
client_bucket(uint64_t clientid)
{
	return (unsigned)(clientid % NBUCKETS);
}

/* A session id: instance, clientid's counter, session counter, random. */
static unsigned
session_bucket(const uint8_t id[N4_SESSIONID_SIZE])
{
	uint32_t n;

	memcpy(&n, id + 8, 4);
	return n % NBUCKETS;
}

int
n4c_same_principal(const struct n4_principal *a, const struct n4_principal *b)
{
	return a->flavor == b->flavor && a->uid == b->uid && a->gid == b->gid &&
	    a->name == b->name;
}

struct n4_client *
n4c_find_client(uint64_t clientid)
{
	struct n4_client *c;

	for (c = client_hash[client_bucket(clientid)]; c; c = c->hnext)
		if (c->clientid == clientid)
			return c;
	return NULL;
}

struct n4_client *
n4c_find_owner(const void *owner, size_t len, int confirmed)
{
	struct n4_client *c;

	TAILQ_FOREACH(c, &all_clients, link)
		if (c->confirmed == confirmed && c->ownerlen == len &&
		    memcmp(c->owner, owner, len) == 0)
			return c;
	return NULL;
}

static struct n4_session *
find_session(const uint8_t id[N4_SESSIONID_SIZE])
{
	struct n4_session *s;

	for (s = session_hash[session_bucket(id)]; s; s = s->hnext)
		if (memcmp(s->id, id, N4_SESSIONID_SIZE) == 0)
			return s;
	return NULL;
}

static void (*back_release)(uint64_t conn);

void
n4_set_back_release(void (*fn)(uint64_t conn))
{
	back_release = fn;
}

static void
session_free(struct n4_session *s)
{
	if (s->back.conn && back_release)
		back_release(s->back.conn);
	for (uint32_t i = 0; i < s->nslots; i++)
		free(s->slots[i].reply);
	free(s);
}

/* Gone for new calls; freed now, or by the last n4_slot_done on it. */
static void
session_destroy(struct n4_session *s)
{
	struct n4_session **pp = &session_hash[session_bucket(s->id)];

	while (*pp != s)
		pp = &(*pp)->hnext;
	*pp = s->hnext;
	TAILQ_REMOVE(&s->clp->sessions, s, by_client);
	s->clp->nsessions--;
	s->clp = NULL;
	s->dead = 1;
	nsessions--;
	cache_reserved -= s->reserved;
	if (s->refs == 0)
		session_free(s);
}

void
n4c_destroy(struct n4_client *c)
{
	struct n4_client **pp = &client_hash[client_bucket(c->clientid)];
	struct n4_session *s;

	while ((s = TAILQ_FIRST(&c->sessions)) != NULL)
		session_destroy(s);
	n4_state_client_gone(c->clientid);
	n40_owners_client_gone(c->clientid);
	if (c->confirmed)
		n4_recover_remove(c->owner, c->ownerlen);
	while (*pp != c)
		pp = &(*pp)->hnext;
	*pp = c->hnext;
	TAILQ_REMOVE(&all_clients, c, link);
	nclients--;
	free(c);
}

static int
client_busy(const struct n4_client *c)
{
	const struct n4_session *s;

	TAILQ_FOREACH(s, &c->sessions, by_client)
		if (s->refs)
			return 1;
	return 0;
}

/*
 * Past its lease: an unconfirmed record at once, a confirmed one a lease
 * later (a client that lost its network for a moment keeps its sessions;
 * there is no other state yet for a later client to conflict with).
 */
int
n4c_expired(const struct n4_client *c, time_t now)
{
	time_t life = c->confirmed ? 2 * (time_t)lease_secs : (time_t)lease_secs;

	return now - c->renewed > life && !client_busy(c);
}

/* Room for one more record: expired ones go, then the oldest unconfirmed one. */
static int
make_room(void)
{
	time_t now = mono_sec();
	struct n4_client *c, *next, *oldest = NULL;

	if (nclients < N4_MAX_CLIENTS)
		return 0;
	TAILQ_FOREACH_SAFE(c, &all_clients, link, next)
		if (n4c_expired(c, now))
			n4c_destroy(c);
	if (nclients < N4_MAX_CLIENTS)
		return 0;
	TAILQ_FOREACH(c, &all_clients, link)
		if (!c->confirmed && !client_busy(c) &&
		    (oldest == NULL || c->renewed < oldest->renewed))
			oldest = c;
	if (oldest == NULL)
		return -1;
	n4c_destroy(oldest);
	return 0;
}

struct n4_client *
n4c_new(const struct n4_exchange_in *in)
{
	struct n4_client *c;
	unsigned b;

	if (make_room() < 0 || (c = calloc(1, sizeof(*c) + in->ownerlen)) == NULL)
		return NULL;
	c->clientid = (uint64_t)instance << 32 | next_client++;
	if (next_client == 0)
		next_client = 1;
	memcpy(c->verifier, in->verifier, N4_VERIFIER_SIZE);
	c->who = in->who;
	c->addr = in->addr;
	c->minor = in->minor;
	c->cs_seq = 1;
	c->renewed = mono_sec();
	TAILQ_INIT(&c->sessions);
	c->ownerlen = in->ownerlen;
	memcpy(c->owner, in->owner, in->ownerlen);
	b = client_bucket(c->clientid);
	c->hnext = client_hash[b];
	client_hash[b] = c;
	TAILQ_INSERT_TAIL(&all_clients, c, link);
	nclients++;
	return c;
}

static void
exchange_answer(const struct n4_client *c, struct n4_exchange_out *out)
{
	out->clientid = c->clientid;
	out->sequenceid = c->cs_seq;
	out->confirmed = c->confirmed;
}

/* RFC 8881 18.35.5: an update of the confirmed record (cases 6-9). */
static enum n4_result
exchange_update(struct n4_client *conf, const struct n4_exchange_in *in,
    struct n4_exchange_out *out)
{
	if (conf == NULL)
		return N4_NOENT;
	if (!n4c_same_principal(&conf->who, &in->who))
		return N4_PERM;
	if (memcmp(conf->verifier, in->verifier, N4_VERIFIER_SIZE) != 0)
		return N4_NOT_SAME;
	conf->renewed = mono_sec();
	exchange_answer(conf, out);
	return N4_OK;
}

static enum n4_result
exchange_locked(const struct n4_exchange_in *in, struct n4_exchange_out *out)
{
	struct n4_client *conf = n4c_find_owner(in->owner, in->ownerlen, 1);
	struct n4_client *unconf = n4c_find_owner(in->owner, in->ownerlen, 0);
	struct n4_client *c;

	if (in->update)
		return exchange_update(conf, in, out);
	if (conf && !n4c_same_principal(&conf->who, &in->who)) {
		/* Case 3: another principal's owner, in use while it has sessions. */
		if (conf->nsessions && !n4c_expired(conf, mono_sec()))
			return N4_CLID_INUSE;
		n4c_destroy(conf);
		conf = NULL;
	}
	if (conf && memcmp(conf->verifier, in->verifier, N4_VERIFIER_SIZE) == 0) {
		/* Case 2: the same client again. */
		conf->renewed = mono_sec();
		exchange_answer(conf, out);
		return N4_OK;
	}
	/*
	 * Case 1 (new), 4 (a new unconfirmed record replaces the old one) and
	 * 5 (a client restarted: the confirmed record stays until
	 * CREATE_SESSION confirms its successor).
	 */
	if (unconf) {
		if (client_busy(unconf))
			return N4_DELAY;
		n4c_destroy(unconf);
	}
	if ((c = n4c_new(in)) == NULL)
		return N4_DELAY;
	exchange_answer(c, out);
	return N4_OK;
}

enum n4_result
n4_exchange_id(const struct n4_exchange_in *in, struct n4_exchange_out *out)
{
	enum n4_result r;

	if (in->ownerlen > N4_OWNER_MAX)
		return N4_NOENT;
	pthread_mutex_lock(&n4_lock);
	r = exchange_locked(in, out);
	pthread_mutex_unlock(&n4_lock);
	return r;
}

static uint32_t
min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static struct n4_session *
session_new(struct n4_client *c, const struct n4_create_in *in, struct n4_create_out *out)
{
	uint32_t cache_max = min_u32(in->fore.maxresponsesize_cached, N4_SLOT_CACHE_MAX);
	uint32_t nslots = min_u32(in->fore.maxrequests ? in->fore.maxrequests : 1, N4_MAX_SLOTS);
	struct n4_session *s;
	uint32_t n, rnd = 0;
	unsigned b;

	if (c->nsessions >= N4_MAX_SESSIONS_CLIENT || nsessions >= N4_MAX_SESSIONS)
		return NULL;
	/* The budget of cached replies may grant fewer slots than asked. */
	if (cache_max && (size_t)nslots * cache_max > N4_CACHE_BUDGET - cache_reserved)
		nslots = (uint32_t)((N4_CACHE_BUDGET - cache_reserved) / cache_max);
	if (nslots == 0 || (s = calloc(1, sizeof(*s) + nslots * sizeof(s->slots[0]))) == NULL)
		return NULL;
	s->nslots = nslots;
	s->cache_max = cache_max;
	s->maxops = in->fore.maxoperations;
	s->maxreq = in->fore.maxrequestsize;
	s->maxresp = in->fore.maxresponsesize;
	s->reserved = (size_t)nslots * cache_max;
	cache_reserved += s->reserved;
	memcpy(s->id, &instance, 4);
	n = (uint32_t)c->clientid;
	memcpy(s->id + 4, &n, 4);
	n = next_session++;
	memcpy(s->id + 8, &n, 4);
	if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
		rnd = (uint32_t)mono_sec() ^ n;
	memcpy(s->id + 12, &rnd, 4);
	s->clp = c;
	b = session_bucket(s->id);
	s->hnext = session_hash[b];
	session_hash[b] = s;
	TAILQ_INSERT_TAIL(&c->sessions, s, by_client);
	c->nsessions++;
	nsessions++;

	memcpy(out->sessionid, s->id, N4_SESSIONID_SIZE);
	out->fore = in->fore;
	out->fore.maxrequests = nslots;
	out->fore.maxresponsesize_cached = cache_max;
	/* One back channel slot: the server's calls go one at a time. */
	out->back = in->back;
	out->back.maxrequests = 1;
	out->flags = 0;
	if (in->back_conn) {
		s->back.conn = in->back_conn;
		s->back.program = in->cb_program;
		s->back.sec = in->cb_sec;
		s->back.up = -1;
		s->back_wanted = 1;
		out->flags = N4_FLAG_CONN_BACK_CHAN;
	}
	return s;
}

/* owner (ownerlen bytes) is set to the client's when this confirms it. */
static enum n4_result
create_locked(const struct n4_create_in *in, struct n4_create_out *out, uint8_t *owner,
    size_t *ownerlen, int *back_taken)
{
	struct n4_client *c = n4c_find_client(in->clientid), *old;

	if (c == NULL)
		return N4_STALE_CLIENTID;
	/*
	 * Only the confirming CREATE_SESSION must come from the principal of
	 * the EXCHANGE_ID (RFC 8881 18.36.4); once confirmed, with SP4_NONE,
	 * any principal may add a session or retry one, as in knfsd.
	 */
	if (!c->confirmed && !n4c_same_principal(&c->who, &in->who))
		return N4_CLID_INUSE;
	if (c->cs_cached && in->sequence == c->cs_seq - 1) {
		*out = c->cs_reply;		/* a retry: the same answer */
		return N4_OK;
	}
	if (in->sequence != c->cs_seq)
		return N4_SEQ_MISORDERED;
	if (session_new(c, in, out) == NULL)
		return N4_NOSPC;
	*back_taken = in->back_conn != 0;
	out->sequence = in->sequence;
	if (!c->confirmed) {
		/* Case 5 of EXCHANGE_ID ends here: the restarted client's old record goes. */
		if ((old = n4c_find_owner(c->owner, c->ownerlen, 1)) != NULL)
			n4c_destroy(old);
		c->confirmed = 1;
		memcpy(owner, c->owner, c->ownerlen);
		*ownerlen = c->ownerlen;
	}
	c->cs_seq++;
	c->cs_reply = *out;
	c->cs_cached = 1;
	c->renewed = mono_sec();
	return N4_OK;
}

enum n4_result
n4_create_session(const struct n4_create_in *in, struct n4_create_out *out)
{
	uint8_t owner[N4_OWNER_MAX];
	size_t ownerlen = 0;
	enum n4_result r;
	int back_taken = 0;

	pthread_mutex_lock(&n4_lock);
	r = create_locked(in, out, owner, &ownerlen, &back_taken);
	pthread_mutex_unlock(&n4_lock);
	/* A retry's answer, or no session: the connection held for it is not kept. */
	if (in->back_conn && !back_taken && back_release)
		back_release(in->back_conn);
	/*
	 * A confirmed client may hold state from now on: its record is on disk
	 * before it hears so (outside the lock: an fsync must not hold up the
	 * other clients' SEQUENCEs).
	 */
	if (r == N4_OK && ownerlen && n4_recover_add(owner, ownerlen) < 0)
		log_warn("NFSv4 client %016llx: its record is not on stable storage: it may "
		    "not be able to reclaim its state after a restart",
		    (unsigned long long)in->clientid);
	return r;
}

static void
sequence_answer(const struct n4_session *s, struct n4_sequence_out *out)
{
	out->highest_slotid = s->nslots - 1;
	out->target_highest_slotid = s->nslots - 1;
	out->status_flags = 0;
	out->maxoperations = s->maxops;
	out->clientid = s->clp->clientid;
	out->back_conn = s->back.conn;
	out->back_wanted = s->back_wanted;
	out->back_up = s->back.up;
}

/* RFC 8881 2.10.6.1: a new request, a retry, or neither. */
static enum n4_result
sequence_locked(const struct n4_sequence_in *in, struct n4_sequence_out *out,
    struct n4_slot_ref *ref, void *cache, size_t *cachelen)
{
	struct n4_session *s = find_session(in->sessionid);
	struct n4_slot *slot;

	if (s == NULL)
		return N4_BADSESSION;
	if (in->slotid >= s->nslots)
		return N4_BADSLOT;
	if (in->nops > s->maxops)
		return N4_TOO_MANY_OPS;
	if (in->reqlen > s->maxreq)
		return N4_REQ_TOO_BIG;
	slot = &s->slots[in->slotid];
	if (slot->used && in->sequenceid == slot->seq) {
		if (slot->busy)
			return N4_DELAY;
		sequence_answer(s, out);
		if (!slot->cached)
			return N4_REPLAY_UNCACHED;
		memcpy(cache, slot->reply, slot->len);
		*cachelen = slot->len;
		return N4_REPLAY;
	}
	if (in->sequenceid != slot->seq + 1)
		return N4_SEQ_MISORDERED;
	slot->seq = in->sequenceid;
	slot->used = 1;
	slot->busy = 1;
	slot->cached = 0;
	s->refs++;
	s->clp->renewed = mono_sec();
	sequence_answer(s, out);
	ref->session = s;
	ref->slot = in->slotid;
	ref->cache_max = s->cache_max;
	ref->resp_max = s->maxresp;
	return N4_OK;
}

enum n4_result
n4_sequence(const struct n4_sequence_in *in, struct n4_sequence_out *out,
    struct n4_slot_ref *ref, void *cache, size_t *cachelen)
{
	enum n4_result r;

	pthread_mutex_lock(&n4_lock);
	r = sequence_locked(in, out, ref, cache, cachelen);
	pthread_mutex_unlock(&n4_lock);
	return r;
}

void
n4_slot_done(struct n4_slot_ref *ref, const void *reply, size_t len)
{
	struct n4_session *s = ref->session;
	struct n4_slot *slot;

	if (s == NULL)
		return;
	pthread_mutex_lock(&n4_lock);
	slot = &s->slots[ref->slot];
	slot->busy = 0;
	if (reply && len <= s->cache_max && !s->dead) {
		if (slot->reply == NULL)
			slot->reply = malloc(s->cache_max);
		if (slot->reply) {
			memcpy(slot->reply, reply, len);
			slot->len = (uint16_t)len;
			slot->cached = 1;
		}
	}
	if (--s->refs == 0 && s->dead)
		session_free(s);
	pthread_mutex_unlock(&n4_lock);
	ref->session = NULL;
}

enum n4_result
n4_session_set_back(const uint8_t sessionid[N4_SESSIONID_SIZE], uint64_t conn,
    const uint32_t *program, const struct n4_cb_sec *sec)
{
	struct n4_session *s;
	uint64_t old = 0;
	enum n4_result r = N4_BADSESSION;

	pthread_mutex_lock(&n4_lock);
	if ((s = find_session(sessionid)) != NULL) {
		if (conn) {
			old = s->back.conn;
			s->back.conn = conn;
			s->back_wanted = 1;
			s->back.up = -1;	/* until the probe answers */
		}
		if (program)
			s->back.program = *program;
		if (sec)
			s->back.sec = *sec;
		r = N4_OK;
	} else {
		old = conn;
	}
	pthread_mutex_unlock(&n4_lock);
	if (old && back_release)
		back_release(old);
	return r;
}

enum n4_result
n4_session_back(const uint8_t sessionid[N4_SESSIONID_SIZE], struct n4_back *out)
{
	struct n4_session *s;
	enum n4_result r = N4_BADSESSION;

	pthread_mutex_lock(&n4_lock);
	if ((s = find_session(sessionid)) != NULL && s->back.conn) {
		*out = s->back;		/* a CB_NULL probe: no sequence id taken */
		r = N4_OK;
	}
	pthread_mutex_unlock(&n4_lock);
	return r;
}

void
n4_session_back_up(const uint8_t sessionid[N4_SESSIONID_SIZE], int up)
{
	struct n4_session *s;

	pthread_mutex_lock(&n4_lock);
	if ((s = find_session(sessionid)) != NULL)
		s->back.up = up;
	pthread_mutex_unlock(&n4_lock);
}

int
n4_client_cb_up(uint64_t clientid)
{
	const struct n4_session *s;
	struct n4_client *c;
	int up = 0;

	pthread_mutex_lock(&n4_lock);
	/*
	 * A 4.0 callback must have answered its probe; a 4.1 back channel
	 * may be still being probed (it is the client's own connection, and
	 * knfsd counts it good as well until a probe says otherwise).
	 */
	if ((c = n4c_find_client(clientid)) != NULL && c->minor0)
		up = c->cb_up == 1;
	else if (c != NULL)
		TAILQ_FOREACH(s, &c->sessions, by_client)
			if (s->back.conn && s->back.up != 0)
				up = 1;
	pthread_mutex_unlock(&n4_lock);
	return up;
}

enum n4_result
n4_client_back(uint64_t clientid, uint8_t sessionid[N4_SESSIONID_SIZE], struct n4_back *out)
{
	struct n4_session *s;
	struct n4_client *c;
	enum n4_result r = N4_STALE_CLIENTID;

	pthread_mutex_lock(&n4_lock);
	if ((c = n4c_find_client(clientid)) != NULL)
		TAILQ_FOREACH(s, &c->sessions, by_client) {
			if (!s->back.conn || s->back.up == 0)
				continue;
			if (s->back_busy) {
				r = N4_DELAY;
				continue;
			}
			s->back_busy = 1;
			memcpy(sessionid, s->id, N4_SESSIONID_SIZE);
			*out = s->back;
			out->seq = ++s->back.seq;
			out->minor = c->minor;
			r = N4_OK;
			break;
		}
	pthread_mutex_unlock(&n4_lock);
	return r;
}

void
n4_session_back_done(const uint8_t sessionid[N4_SESSIONID_SIZE], int answered)
{
	struct n4_session *s;

	pthread_mutex_lock(&n4_lock);
	if ((s = find_session(sessionid)) != NULL) {
		s->back_busy = 0;
		if (!answered)
			s->back.up = 0;		/* SEQUENCE tells the client: it binds anew */
	}
	pthread_mutex_unlock(&n4_lock);
}

enum n4_result
n4_destroy_session(const uint8_t sessionid[N4_SESSIONID_SIZE])
{
	struct n4_session *s;
	enum n4_result r = N4_BADSESSION;

	pthread_mutex_lock(&n4_lock);
	if ((s = find_session(sessionid)) != NULL) {
		session_destroy(s);
		r = N4_OK;
	}
	pthread_mutex_unlock(&n4_lock);
	return r;
}

enum n4_result
n4_destroy_clientid(uint64_t clientid)
{
	struct n4_client *c;
	enum n4_result r = N4_STALE_CLIENTID;

	pthread_mutex_lock(&n4_lock);
	if ((c = n4c_find_client(clientid)) != NULL) {
		/* Sessions or state left: the client must give them back first (RFC 8881 18.50.3). */
		r = c->nsessions || n4_state_client_busy(clientid) ? N4_CLIENTID_BUSY : N4_OK;
		if (r == N4_OK)
			n4c_destroy(c);
	}
	pthread_mutex_unlock(&n4_lock);
	return r;
}

enum n4_result
n4_reclaim_complete(const struct n4_slot_ref *ref)
{
	struct n4_client *c;
	enum n4_result r = N4_BADSESSION;

	pthread_mutex_lock(&n4_lock);
	if ((c = ref->session->clp) != NULL) {
		r = c->reclaim_complete ? N4_COMPLETE_ALREADY : N4_OK;
		c->reclaim_complete = 1;
		n4_recover_reclaimed(c->owner, c->ownerlen);
	}
	pthread_mutex_unlock(&n4_lock);
	return r;
}

int
n4_reclaims_done(const struct n4_slot_ref *ref)
{
	int done = 0;

	pthread_mutex_lock(&n4_lock);
	if (ref->session && ref->session->clp)
		done = ref->session->clp->reclaim_complete;
	pthread_mutex_unlock(&n4_lock);
	return done;
}

enum n4_result
n4_session_exists(const uint8_t sessionid[N4_SESSIONID_SIZE])
{
	enum n4_result r;

	pthread_mutex_lock(&n4_lock);
	r = find_session(sessionid) ? N4_OK : N4_BADSESSION;
	pthread_mutex_unlock(&n4_lock);
	return r;
}

int
n4_slot_is_session(const struct n4_slot_ref *ref, const uint8_t sessionid[N4_SESSIONID_SIZE])
{
	/* The id of a session held cannot change under us: it is freed only when released. */
	return ref->session && memcmp(ref->session->id, sessionid, N4_SESSIONID_SIZE) == 0;
}

void
n4_clients_tick(void)
{
	time_t now = mono_sec();
	struct n4_client *c, *next;

	pthread_mutex_lock(&n4_lock);
	TAILQ_FOREACH_SAFE(c, &all_clients, link, next)
		if (n4c_expired(c, now)) {
			log_debug("NFSv4 client %016llx: lease expired",
			    (unsigned long long)c->clientid);
			n4c_destroy(c);
		}
	pthread_mutex_unlock(&n4_lock);
	n4_recover_flush(locks_in_grace());
}

enum n4_result
n4_may_reclaim(uint64_t clientid)
{
	enum n4_result r = N4_NO_GRACE;
	struct n4_client *c;

	if (!locks_in_grace())
		return N4_NO_GRACE;
	pthread_mutex_lock(&n4_lock);
	/* Only what the last run's records name, and only until RECLAIM_COMPLETE. */
	if ((c = n4c_find_client(clientid)) != NULL && !c->reclaim_complete &&
	    n4_recover_was_client(c->owner, c->ownerlen))
		r = N4_OK;
	pthread_mutex_unlock(&n4_lock);
	return r;
}

/*
 * Forgets every client and session, as a restart would, but keeps the
 * instance: for the fuzzer, which builds its fixture again after each call.
 * A session a compound still holds stays until its slot is done.
 */
void
n4_clients_reset(void)
{
	struct n4_client *c;

	pthread_mutex_lock(&n4_lock);
	while ((c = TAILQ_FIRST(&all_clients)) != NULL)
		n4c_destroy(c);
	next_client = next_session = 1;
	pthread_mutex_unlock(&n4_lock);
}

void
n4_clients_foreach(void (*fn)(void *arg, const struct n4_client_info *ci), void *arg)
{
	time_t now = mono_sec();
	struct n4_client_info ci;
	const struct n4_client *c;

	pthread_mutex_lock(&n4_lock);
	TAILQ_FOREACH(c, &all_clients, link) {
		ci.clientid = c->clientid;
		ci.owner = c->owner;
		ci.ownerlen = c->ownerlen;
		ci.addr = c->addr;
		ci.confirmed = c->confirmed;
		ci.minor = (int)c->minor;
		ci.sessions = c->nsessions;
		ci.idle_secs = (unsigned)(now - c->renewed);
		fn(arg, &ci);
	}
	pthread_mutex_unlock(&n4_lock);
}

void
n4_clients_count(struct n4_counts *out)
{
	const struct n4_client *c;

	pthread_mutex_lock(&n4_lock);
	out->clients = nclients;
	out->confirmed = 0;
	TAILQ_FOREACH(c, &all_clients, link)
		out->confirmed += c->confirmed != 0;
	out->sessions = nsessions;
	out->cache_reserved = cache_reserved;
	pthread_mutex_unlock(&n4_lock);
}
