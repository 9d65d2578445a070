/*
 * NFSv4.0 client records (RFC 7530 9.1.1, 16.33, 16.34, 16.29): what
 * SETCLIENTID makes and SETCLIENTID_CONFIRM confirms, in the same table
 * as NFSv4.1's records (nfs4_clients_impl.h), so that both kinds share
 * the limits, the lease sweep and the records kept for reclaim.
 *
 * A record is {id, verifier, principal, callback, clientid, confirm}. A
 * client that comes back with its verifier only changes its callback: the
 * change waits in the confirmed record (cb_next) until it is confirmed,
 * so that one clientid names one record. A client with a new verifier
 * rebooted: its new record waits beside the old one, whose state stands
 * until the new one is confirmed.
 */
#include "config.h"

#include <string.h>
#include <sys/random.h>

#include "log.h"
#include "monotime.h"
#include "nfs4_clients_impl.h"
#include "nfs4_recover.h"

/* A confirm verifier: not to be guessed, so that only the caller of SETCLIENTID confirms. */
static void
new_confirm(uint8_t out[N4_VERIFIER_SIZE])
{
	static uint64_t counter;
	uint64_t n = ++counter ^ (uint64_t)mono_sec() << 32;

	if (getrandom(out, N4_VERIFIER_SIZE, GRND_NONBLOCK) != N4_VERIFIER_SIZE)
		memcpy(out, &n, N4_VERIFIER_SIZE);
}

/*
 * Another principal's record keeps its id while it may hold state: its
 * lease runs (RFC 7530 16.33.5, the CLID_INUSE case). knfsd tells the
 * same: a confirmed record of a live client is not another's to take.
 */
static int
in_use_by_other(const struct n4_client *conf, const struct n40_setclientid_in *in)
{
	return conf && !n4c_same_principal(&conf->who, &in->who) &&
	    !n4c_expired(conf, mono_sec());
}

static struct n4_client *
new_record(const struct n40_setclientid_in *in)
{
	struct n4_exchange_in ex;
	struct n4_client *c;

	memset(&ex, 0, sizeof(ex));
	ex.owner = in->id;
	ex.ownerlen = in->idlen;
	memcpy(ex.verifier, in->verifier, N4_VERIFIER_SIZE);
	ex.who = in->who;
	ex.addr = in->addr;
	if ((c = n4c_new(&ex)) == NULL)
		return NULL;
	c->minor0 = 1;
	c->cb = in->cb;
	c->cb_up = -1;
	new_confirm(c->confirm);
	return c;
}

static enum n4_result
setclientid_locked(const struct n40_setclientid_in *in, struct n40_setclientid_out *out)
{
	struct n4_client *conf = n4c_find_owner(in->id, in->idlen, 1);
	struct n4_client *unconf = n4c_find_owner(in->id, in->idlen, 0);
	struct n4_client *c;

	if (in_use_by_other(conf, in)) {
		out->inuse = conf->cb;
		return N4_CLID_INUSE;
	}
	if (conf && !n4c_same_principal(&conf->who, &in->who)) {
		/* Its lease is over: the record is the newcomer's to replace. */
		n4c_destroy(conf);
		conf = NULL;
	}
	/* Whatever was waiting for confirmation is replaced by this (cases 4 and 5). */
	if (unconf)
		n4c_destroy(unconf);
	if (conf && conf->minor0 &&
	    memcmp(conf->verifier, in->verifier, N4_VERIFIER_SIZE) == 0) {
		/* Case 2: the same client, a new callback; confirmed by the next CONFIRM. */
		conf->cb_next = in->cb;
		conf->cb_update = 1;
		new_confirm(conf->next_confirm);
		out->clientid = conf->clientid;
		memcpy(out->confirm, conf->next_confirm, N4_VERIFIER_SIZE);
		return N4_OK;
	}
	/* Case 1 (a new client) and 3 (a rebooted one: the old record stands until confirmed). */
	if ((c = new_record(in)) == NULL)
		return N4_DELAY;
	out->clientid = c->clientid;
	memcpy(out->confirm, c->confirm, N4_VERIFIER_SIZE);
	return N4_OK;
}

enum n4_result
n40_setclientid(const struct n40_setclientid_in *in, struct n40_setclientid_out *out)
{
	enum n4_result r;

	memset(out, 0, sizeof(*out));
	if (in->idlen == 0 || in->idlen > N4_OWNER_MAX)
		return N4_NOENT;
	pthread_mutex_lock(&n4_lock);
	r = setclientid_locked(in, out);
	pthread_mutex_unlock(&n4_lock);
	return r;
}

/* owner (ownerlen bytes) is set to the client's when this confirms a new record. */
static enum n4_result
confirm_locked(uint64_t clientid, const uint8_t confirm[N4_VERIFIER_SIZE],
    const struct n4_principal *who, uint8_t *owner, size_t *ownerlen)
{
	struct n4_client *c = n4c_find_client(clientid), *old;

	if (c == NULL || !c->minor0)
		return N4_STALE_CLIENTID;
	if (!n4c_same_principal(&c->who, who))
		return N4_CLID_INUSE;
	if (c->confirmed && c->cb_update &&
	    memcmp(c->next_confirm, confirm, N4_VERIFIER_SIZE) == 0) {
		/* A callback update of a confirmed client. */
		c->cb = c->cb_next;
		c->cb_update = 0;
		c->cb_up = -1;		/* a new callback: probed again */
		memcpy(c->confirm, c->next_confirm, N4_VERIFIER_SIZE);
		c->renewed = mono_sec();
		return N4_OK;
	}
	if (memcmp(c->confirm, confirm, N4_VERIFIER_SIZE) != 0)
		return N4_STALE_CLIENTID;
	c->renewed = mono_sec();
	if (c->confirmed)
		return N4_OK;		/* a retry of the confirmation that was */
	/* Case 3 ends here: the rebooted client's old record and its state go. */
	if ((old = n4c_find_owner(c->owner, c->ownerlen, 1)) != NULL)
		n4c_destroy(old);
	c->confirmed = 1;
	memcpy(owner, c->owner, c->ownerlen);
	*ownerlen = c->ownerlen;
	return N4_OK;
}

enum n4_result
n40_setclientid_confirm(uint64_t clientid, const uint8_t confirm[N4_VERIFIER_SIZE],
    const struct n4_principal *who)
{
	uint8_t owner[N4_OWNER_MAX];
	size_t ownerlen = 0;
	enum n4_result r;

	pthread_mutex_lock(&n4_lock);
	r = confirm_locked(clientid, confirm, who, owner, &ownerlen);
	pthread_mutex_unlock(&n4_lock);
	/* As CREATE_SESSION's: the record is durable before the client may take state. */
	if (r == N4_OK && ownerlen && n4_recover_add(owner, ownerlen) < 0)
		log_warn("NFSv4.0 client %016llx: its record is not on stable storage: it may "
		    "not be able to reclaim its state after a restart",
		    (unsigned long long)clientid);
	return r;
}

enum n4_result
n40_renew(uint64_t clientid)
{
	struct n4_client *c;
	enum n4_result r = N4_STALE_CLIENTID;

	pthread_mutex_lock(&n4_lock);
	if ((c = n4c_find_client(clientid)) != NULL && c->confirmed) {
		c->renewed = mono_sec();
		r = N4_OK;
	}
	pthread_mutex_unlock(&n4_lock);
	return r;
}

enum n4_result
n40_client_callback(uint64_t clientid, struct n40_callback *cb)
{
	struct n4_client *c;
	enum n4_result r = N4_STALE_CLIENTID;

	pthread_mutex_lock(&n4_lock);
	if ((c = n4c_find_client(clientid)) != NULL && c->minor0 && c->confirmed &&
	    c->cb.program) {
		*cb = c->cb;
		r = N4_OK;
	}
	pthread_mutex_unlock(&n4_lock);
	return r;
}

void
n40_client_cb_up(uint64_t clientid, int up)
{
	struct n4_client *c;

	pthread_mutex_lock(&n4_lock);
	if ((c = n4c_find_client(clientid)) != NULL && c->minor0)
		c->cb_up = up;
	pthread_mutex_unlock(&n4_lock);
}

int
n40_client_cb_down(uint64_t clientid)
{
	struct n4_client *c;
	int down = 0;

	pthread_mutex_lock(&n4_lock);
	if ((c = n4c_find_client(clientid)) != NULL && c->minor0)
		down = c->cb_up == 0;
	pthread_mutex_unlock(&n4_lock);
	return down;
}
