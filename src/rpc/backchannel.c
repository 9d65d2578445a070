/*
 * Calls back on a client's own connection (backchannel.h).
 *
 * Held connections sit in a fixed table; a handle is the slot and a
 * generation, so a released slot's old handles find nothing. A call in
 * flight waits on its own condition variable in the list of pending
 * calls until the connection's reader hands its REPLY over (matched by
 * XID and connection) or its time runs out. One mutex for both: every
 * step under it is a list walk or a pointer move.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <time.h>

#include "backchannel.h"
#include "be.h"
#include "queue.h"
#include "req.h"
#include "stats.h"
#include "tcpconn.h"
#include "transport.h"

#define BC_CALL_MAX	(64u << 10)	/* an encoded call: CB_COMPOUND with a handle */

struct held {
	struct conn *c;
	uint32_t gen;
};

struct pending {
	TAILQ_ENTRY(pending) link;
	uint32_t xid;
	struct conn *c;
	uint8_t *rec;			/* the reply, when it came */
	size_t len;
	pthread_cond_t cv;
};

static pthread_mutex_t bc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct held held[BC_MAX_HELD];
static uint32_t next_gen = 1;
static TAILQ_HEAD(, pending) pending = TAILQ_HEAD_INITIALIZER(pending);
static uint32_t next_xid;

/* The reader's hand-off: a REPLY for a call of ours on c (1: rec is taken). */
static int
take_reply(struct conn *c, uint8_t *rec, size_t len)
{
	uint32_t xid = be32_get(rec);
	struct pending *p;

	pthread_mutex_lock(&bc_lock);
	TAILQ_FOREACH(p, &pending, link)
		if (p->xid == xid && p->c == c && p->rec == NULL) {
			p->rec = rec;
			p->len = len;
			pthread_cond_signal(&p->cv);
			pthread_mutex_unlock(&bc_lock);
			return 1;
		}
	pthread_mutex_unlock(&bc_lock);
	/* A reply nobody waits for (its call timed out): dropped, as a client drops ours. */
	free(rec);
	return 1;
}

void
bc_init(void)
{
	uint32_t x = 0;

	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) != sizeof(x))
		x = (uint32_t)time(NULL);
	next_xid = x;
	conns_set_reply_taker(take_reply);
}

uint64_t
bc_hold(const struct rpc_req *req)
{
	uint64_t h = 0;

	if (req->conn == NULL || conn_hold(req->conn) < 0)
		return 0;
	pthread_mutex_lock(&bc_lock);
	for (uint32_t i = 0; i < BC_MAX_HELD; i++)
		if (held[i].c == NULL) {
			/* The connection before the generation: bc_is_open reads them the other way. */
			__atomic_store_n(&held[i].c, req->conn, __ATOMIC_RELEASE);
			__atomic_store_n(&held[i].gen, next_gen++, __ATOMIC_RELEASE);
			if (next_gen == 0)
				next_gen = 1;
			h = (uint64_t)held[i].gen << 32 | (i + 1);
			break;
		}
	pthread_mutex_unlock(&bc_lock);
	if (h == 0)
		conn_release(req->conn);
	return h;
}

/* The held slot h names, with bc_lock held: NULL when released. */
static struct held *
lookup(uint64_t h)
{
	uint32_t i = (uint32_t)h;

	if (i == 0 || i > BC_MAX_HELD || held[i - 1].c == NULL || held[i - 1].gen != h >> 32)
		return NULL;
	return &held[i - 1];
}

void
bc_release(uint64_t h)
{
	struct conn *c = NULL;
	struct held *e;

	pthread_mutex_lock(&bc_lock);
	if ((e = lookup(h)) != NULL) {
		c = e->c;
		__atomic_store_n(&e->c, NULL, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&bc_lock);
	if (c)
		conn_release(c);
}

/* The connection of h with a reference of the caller's, or NULL. */
static struct conn *
get(uint64_t h)
{
	struct conn *c = NULL;
	struct held *e;

	pthread_mutex_lock(&bc_lock);
	if ((e = lookup(h)) != NULL && conn_hold(e->c) == 0)
		c = e->c;
	pthread_mutex_unlock(&bc_lock);
	return c;
}

/*
 * Asked by every SEQUENCE of a session with a back channel: no lock. A
 * connection is never freed, only recycled (tcpconn.h), so a slot read
 * while it is being released still points at a connection; the answer
 * may be a call late, which SEQUENCE's flag tolerates.
 */
int
bc_is_open(uint64_t h)
{
	uint32_t i = (uint32_t)h;
	struct conn *c;

	if (i == 0 || i > BC_MAX_HELD ||
	    __atomic_load_n(&held[i - 1].gen, __ATOMIC_ACQUIRE) != (uint32_t)(h >> 32))
		return 0;
	c = __atomic_load_n(&held[i - 1].c, __ATOMIC_ACQUIRE);
	return c != NULL && conn_seems_open(c);
}

/* The call's header and arguments into buf (after the record mark's room): its length, or 0. */
static size_t
encode_call(uint8_t *buf, size_t cap, uint32_t xid, uint32_t prog, uint32_t vers, uint32_t proc,
    const struct bc_auth *auth, xdrproc_t xargs, void *args)
{
	char credbuf[MAX_AUTH_BYTES];
	struct rpc_msg m;
	struct authunix_parms aup;
	XDR x, cx;
	size_t len = 0;

	memset(&m, 0, sizeof(m));
	m.rm_xid = xid;
	m.rm_direction = CALL;
	m.rm_call.cb_rpcvers = RPC_MSG_VERSION;
	m.rm_call.cb_prog = prog;
	m.rm_call.cb_vers = vers;
	m.rm_call.cb_proc = proc;
	m.rm_call.cb_cred = _null_auth;
	m.rm_call.cb_verf = _null_auth;
	if (auth && auth->flavor == AUTH_SYS) {
		memset(&aup, 0, sizeof(aup));
		aup.aup_time = (u_long)time(NULL);
		aup.aup_machname = (char *)auth->machine;
		aup.aup_uid = auth->uid;
		aup.aup_gid = auth->gid;
		xdrmem_create(&cx, credbuf, sizeof(credbuf), XDR_ENCODE);
		if (!xdr_authunix_parms(&cx, &aup)) {
			xdr_destroy(&cx);
			return 0;
		}
		m.rm_call.cb_cred.oa_flavor = AUTH_SYS;
		m.rm_call.cb_cred.oa_base = credbuf;
		m.rm_call.cb_cred.oa_length = xdr_getpos(&cx);
		xdr_destroy(&cx);
	}
	xdrmem_create(&x, (char *)buf, (u_int)cap, XDR_ENCODE);
	if (xdr_callmsg(&x, &m) && xargs(&x, args))
		len = xdr_getpos(&x);
	xdr_destroy(&x);
	return len;
}

int
bc_decode_reply(const uint8_t *rec, size_t len, xdrproc_t xres, void *res, char *err,
    size_t errlen)
{
	char verf[MAX_AUTH_BYTES];	/* the reply's verifier: decoded here, not allocated */
	struct rpc_msg m;
	XDR x;
	int ok;

	memset(&m, 0, sizeof(m));
	m.acpted_rply.ar_verf = _null_auth;
	m.acpted_rply.ar_verf.oa_base = verf;
	m.acpted_rply.ar_results.where = res;
	m.acpted_rply.ar_results.proc = xres;
	xdrmem_create(&x, (char *)(uintptr_t)rec, (u_int)len, XDR_DECODE);
	ok = xdr_replymsg(&x, &m);
	xdr_destroy(&x);
	if (!ok) {
		xdr_free(xres, res);	/* what the results' decoder allocated before it failed */
		snprintf(err, errlen, "undecodable reply");
		return -1;
	}
	if (m.rm_reply.rp_stat != MSG_ACCEPTED) {
		snprintf(err, errlen, "call refused (%s)",
		    m.rjcted_rply.rj_stat == AUTH_ERROR ? "auth error" : "rpc mismatch");
		return -1;
	}
	if (m.acpted_rply.ar_stat != SUCCESS) {
		snprintf(err, errlen, "call not accepted (status %d)", (int)m.acpted_rply.ar_stat);
		return -1;
	}
	return 0;
}

int
bc_call(uint64_t h, uint32_t prog, uint32_t vers, uint32_t proc, const struct bc_auth *auth,
    xdrproc_t xargs, void *args, xdrproc_t xres, void *res, unsigned timeout_ms,
    char *err, size_t errlen)
{
	struct pending p = { .rec = NULL };
	struct conn *c = get(h);
	struct timespec until;
	struct iovec iov;
	uint8_t *buf;
	size_t len;
	int r = -1, rc = 0;

	STAT_INC(ST_CB_SENT);
	if (c == NULL) {
		STAT_INC(ST_CB_FAILED);
		snprintf(err, errlen, "no connection");
		return -1;
	}
	if ((buf = malloc(REPLY_HEADROOM + BC_CALL_MAX)) == NULL) {
		conn_release(c);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pthread_mutex_lock(&bc_lock);
	p.xid = next_xid++;
	pthread_mutex_unlock(&bc_lock);
	len = encode_call(buf + REPLY_HEADROOM, BC_CALL_MAX, p.xid, prog, vers, proc, auth, xargs,
	    args);
	if (len == 0) {
		STAT_INC(ST_CB_FAILED);
		snprintf(err, errlen, "arguments do not encode");
		goto out;
	}
	p.c = c;
	pthread_cond_init(&p.cv, NULL);
	pthread_mutex_lock(&bc_lock);
	TAILQ_INSERT_TAIL(&pending, &p, link);
	pthread_mutex_unlock(&bc_lock);
	iov.iov_base = buf + REPLY_HEADROOM;
	iov.iov_len = len;
	if (conn_reply(c, buf + REPLY_HEADROOM, &iov, 1, -1) < 0 || !conn_is_open(c))
		snprintf(err, errlen, "connection closed");
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&bc_lock);
	while (p.rec == NULL && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&p.cv, &bc_lock, &until);
	TAILQ_REMOVE(&pending, &p, link);
	pthread_mutex_unlock(&bc_lock);
	pthread_cond_destroy(&p.cv);
	if (p.rec == NULL) {
		snprintf(err, errlen, "no reply within %u ms", timeout_ms);
		STAT_INC(ST_CB_TIMEOUTS);
	} else {
		r = bc_decode_reply(p.rec, p.len, xres, res, err, errlen);
		STAT_INC(r == 0 ? ST_CB_ANSWERED : ST_CB_FAILED);
		free(p.rec);
	}
out:
	free(buf);
	conn_release(c);
	return r;
}
