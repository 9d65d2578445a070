/*
 * NLM, the network lock manager (program 100021): versions 1 and 3 (XNFS,
 * 32-bit offsets, the NFSv2 handle) and 4 (RFC 1813 chapter 6, 64-bit
 * offsets, the NFSv3 handle). A protocol room like nfs3.c: it decodes,
 * passes the handle through the access gate, asks the lock manager
 * (locks.c) and encodes. Version 1 and 3 arguments are raised to version
 * 4's types first and results lowered again, so each procedure is
 * written once.
 *
 * The _MSG procedures are one-way: the result goes back as a separate
 * _RES call to the client's lock manager, from a background task.
 * Procedure 16 of version 4 is the callback we give rpc.statd (nsm.c).
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "rpc/dispatch.h"
#include "access.h"
#include "errmap.h"
#include "fs/fsops.h"
#include "state/locks.h"
#include "log.h"
#include "nlm.h"
#include "rpc/nlm4_prot.h"
#include "rpc/nlm_prot.h"
#include "nsm.h"
#include "rpc/rpcclient.h"
#include "rpc/rpcproc.h"
#include "sockaddr.h"
#include "rpc/sm_inter_prot.h"
#include "tasks.h"
#include "rpc/transport.h"

#define NLM_PROGRAM_NUMBER 100021
/* Procedure numbers: the same in every version (nlm_prot.h names v1's). */
#define P_TEST 1
#define P_LOCK 2
#define P_CANCEL 3
#define P_UNLOCK 4
#define P_GRANTED 5
#define P_TEST_MSG 6
#define P_LOCK_MSG 7
#define P_CANCEL_MSG 8
#define P_UNLOCK_MSG 9
#define P_GRANTED_MSG 10
#define P_TEST_RES 11
#define P_LOCK_RES 12
#define P_CANCEL_RES 13
#define P_UNLOCK_RES 14
#define P_GRANTED_RES 15
#define P_SHARE 20
#define P_UNSHARE 21
#define P_NM_LOCK 22
#define P_FREE_ALL 23
#define MSG_TO_RES 5		/* X_MSG + 5 = X_RES */
#define GRANTED_TIMEOUT_MS 5000
#define RES_BUF_MAX 4096	/* two netobjs of at most 1024 bytes, and a little */
#define RES_PER_CLIENT 8	/* _RES answers queued for one client at most */

/* ---- versions 1 and 3 raised to 4, results lowered ---- */

static void
lock_up(const struct nlm_lock *l, nlm4_lock *l4)
{
	l4->caller_name = l->caller_name;
	l4->fh = l->fh;
	l4->oh = l->oh;
	l4->svid = l->svid;
	l4->l_offset = l->l_offset;
	l4->l_len = l->l_len;
}

static unsigned
u32_clamp(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
}

static void
res_down(const nlm4_res *r4, nlm_res *r)
{
	r->cookie = r4->cookie;
	r->stat.stat = (nlm_stats)nlm4_to_nlm1(r4->stat.stat);
}

static void
testres_down(const nlm4_testres *r4, nlm_testres *r)
{
	const nlm4_holder *h4 = &r4->stat.nlm4_testrply_u.holder;
	nlm_holder *h = &r->stat.nlm_testrply_u.holder;

	r->cookie = r4->cookie;
	r->stat.stat = (nlm_stats)nlm4_to_nlm1(r4->stat.stat);
	if (r4->stat.stat != NLM4_DENIED)
		return;
	h->exclusive = h4->exclusive;
	h->svid = h4->svid;
	h->oh = h4->oh;
	/* Beyond 32 bits a v1 client can only be told "from here on". */
	h->l_offset = u32_clamp(h4->l_offset);
	h->l_len = h4->l_offset + h4->l_len > UINT32_MAX ? 0 : (unsigned)h4->l_len;
}

/* ---- the call's side of a request ---- */

/*
 * Fills r from the call and a lock; passes its handle through the gate.
 * take: the call takes something (TEST, LOCK, SHARE), so the caller must
 * be able to read the file or own it, as knfsd's NFSD_MAY_LOCK asks;
 * what was taken can always be given back (UNLOCK, CANCEL, UNSHARE).
 */
static int
begin(struct rpc_call *call, const nlm4_lock *l, struct fs_ctx *ctx, struct lk_req *r,
    int take)
{
	struct rpc_req *req = call->req;
	int err;

	memset(r, 0, sizeof(*r));
	r->ctx = ctx;
	r->caller = l->caller_name;
	r->peer = req->peer;
	if (req_local_addr(req, &r->local) < 0)
		r->local.ss_family = AF_UNSPEC;
	r->proto = req->proto;
	r->vers = call->vers;
	/* An empty netobj decodes to NULL: memcpy and memcmp want a pointer. */
	r->oh = l->oh.n_len ? l->oh.n_bytes : "";
	r->ohlen = l->oh.n_len;
	r->svid = l->svid;
	r->off = l->l_offset;
	r->len = l->l_len;
	r->fh = l->fh.n_bytes;
	r->fhlen = l->fh.n_len;
	/* Clients lock with AUTH_SYS under Kerberos mounts too (knfsd's NFSD_MAY_LOCK). */
	call->any_flavor = 1;
	err = fs_begin(call, l->fh.n_bytes, l->fh.n_len, ctx);
	if (err == 0)
		err = fs_lock_access(ctx, take);
	return err ? errno_to_nlm4(err) : NLM4_GRANTED;
}

/* ---- the procedures, in version 4's types ---- */

static int
do_test(struct rpc_call *call, const nlm4_testargs *a, nlm4_testres *out)
{
	struct lk_holder *h = call_alloc(call, sizeof(*h));
	struct fs_ctx ctx;
	struct lk_req r;
	int st = begin(call, &a->alock, &ctx, &r, 1);

	out->cookie = a->cookie;
	if (st == NLM4_GRANTED) {
		r.exclusive = a->exclusive;
		st = h ? locks_test(&r, h) : NLM4_DENIED_NOLOCKS;
	}
	fs_end(&ctx);
	out->stat.stat = (nlm4_stats)st;
	if (st == NLM4_DENIED) {
		nlm4_holder *o = &out->stat.nlm4_testrply_u.holder;

		o->exclusive = h->exclusive;
		o->svid = h->svid;
		o->oh.n_bytes = (char *)h->oh;
		o->oh.n_len = (u_int)h->ohlen;
		o->l_offset = h->off;
		o->l_len = h->len;
	}
	return st;
}

static void
do_lock(struct rpc_call *call, const nlm4_lockargs *a, nlm4_res *out, int monitor)
{
	struct fs_ctx ctx;
	struct lk_req r;
	int st = begin(call, &a->alock, &ctx, &r, 1);

	out->cookie = a->cookie;
	if (st == NLM4_GRANTED) {
		r.exclusive = a->exclusive;
		r.msg = call->proc == P_LOCK_MSG;
		st = locks_lock(&r, monitor && a->block, a->reclaim, monitor);
	}
	fs_end(&ctx);
	out->stat.stat = (nlm4_stats)st;
}

static void
do_cancel(struct rpc_call *call, const nlm4_cancargs *a, nlm4_res *out)
{
	struct fs_ctx ctx;
	struct lk_req r;
	int st = begin(call, &a->alock, &ctx, &r, 0);

	out->cookie = a->cookie;
	if (st == NLM4_GRANTED) {
		r.exclusive = a->exclusive;
		st = locks_cancel(&r);
	}
	fs_end(&ctx);
	out->stat.stat = (nlm4_stats)st;
}

static void
do_unlock(struct rpc_call *call, const nlm4_unlockargs *a, nlm4_res *out)
{
	struct fs_ctx ctx;
	struct lk_req r;
	int st = begin(call, &a->alock, &ctx, &r, 0);

	out->cookie = a->cookie;
	if (st == NLM4_GRANTED)
		st = locks_unlock(&r);
	fs_end(&ctx);
	out->stat.stat = (nlm4_stats)st;
}

/* ---- version dispatch: one handler per procedure ---- */

static int
is_v4(const struct rpc_call *call)
{
	return call->vers == 4;
}

static void
nlmsvc_test(struct rpc_call *call, void *argp, void *resp)
{
	nlm4_testargs a4;
	nlm4_testres r4;

	if (is_v4(call)) {
		do_test(call, argp, resp);
		return;
	}
	a4.cookie = ((nlm_testargs *)argp)->cookie;
	a4.exclusive = ((nlm_testargs *)argp)->exclusive;
	lock_up(&((nlm_testargs *)argp)->alock, &a4.alock);
	memset(&r4, 0, sizeof(r4));
	do_test(call, &a4, &r4);
	testres_down(&r4, resp);
}

static void
lock_common(struct rpc_call *call, void *argp, void *resp, int monitor)
{
	const nlm_lockargs *a = argp;
	nlm4_lockargs a4;
	nlm4_res r4;

	if (is_v4(call)) {
		do_lock(call, argp, resp, monitor);
		return;
	}
	a4.cookie = a->cookie;
	a4.block = a->block;
	a4.exclusive = a->exclusive;
	lock_up(&a->alock, &a4.alock);
	a4.reclaim = a->reclaim;
	a4.state = a->state;
	do_lock(call, &a4, &r4, monitor);
	res_down(&r4, resp);
}

static void
nlmsvc_lock(struct rpc_call *call, void *argp, void *resp)
{
	lock_common(call, argp, resp, 1);
}

/* NM_LOCK: for clients without a status monitor; never blocks, not watched. */
static void
nlmsvc_nm_lock(struct rpc_call *call, void *argp, void *resp)
{
	lock_common(call, argp, resp, 0);
}

static void
nlmsvc_cancel(struct rpc_call *call, void *argp, void *resp)
{
	const nlm_cancargs *a = argp;
	nlm4_cancargs a4;
	nlm4_res r4;

	if (is_v4(call)) {
		do_cancel(call, argp, resp);
		return;
	}
	a4.cookie = a->cookie;
	a4.block = a->block;
	a4.exclusive = a->exclusive;
	lock_up(&a->alock, &a4.alock);
	do_cancel(call, &a4, &r4);
	res_down(&r4, resp);
}

static void
nlmsvc_unlock(struct rpc_call *call, void *argp, void *resp)
{
	const nlm_unlockargs *a = argp;
	nlm4_unlockargs a4;
	nlm4_res r4;

	if (is_v4(call)) {
		do_unlock(call, argp, resp);
		return;
	}
	a4.cookie = a->cookie;
	lock_up(&a->alock, &a4.alock);
	do_unlock(call, &a4, &r4);
	res_down(&r4, resp);
}

/* We hold no client-side locks: nothing here was waiting to be granted. */
static void
nlmsvc_granted(struct rpc_call *call, void *argp, void *resp)
{
	if (is_v4(call)) {
		((nlm4_res *)resp)->cookie = ((nlm4_testargs *)argp)->cookie;
		((nlm4_res *)resp)->stat.stat = NLM4_DENIED;
	} else {
		((nlm_res *)resp)->cookie = ((nlm_testargs *)argp)->cookie;
		((nlm_res *)resp)->stat.stat = nlm_denied;
	}
}

/* ---- the one-way forms ---- */

struct res_msg {
	struct rpc_target t;
	uint32_t vers, proc;
	size_t len;
	uint8_t buf[];
};

static void
res_task(void *arg, int cancelled)
{
	static unsigned last_log;
	struct res_msg *m = arg;
	struct xdr_encoded e = { m->buf, m->len };
	char err[256];

	if (!cancelled && rpcclient_call(&m->t, NLM_PROGRAM_NUMBER, m->vers, m->proc,
	    XDRPROC(xdr_encoded), &e, NULL, NULL, 0, err, sizeof(err)) < 0)
		log_ratelimited(&last_log, "cannot send an NLM result back: %s", err);
	free(m);
}

/* Sends out back to the caller's lock manager as procedure proc. */
static void
send_res(struct rpc_call *call, uint32_t proc, xdrproc_t xres, void *out)
{
	struct res_msg *m = malloc(sizeof(*m) + RES_BUF_MAX);
	XDR x;

	if (m == NULL)
		return;
	xdrmem_create(&x, (char *)m->buf, RES_BUF_MAX, XDR_ENCODE);
	if (!xres(&x, out)) {
		xdr_destroy(&x);
		free(m);
		return;
	}
	m->len = xdr_getpos(&x);
	xdr_destroy(&x);
	memset(&m->t, 0, sizeof(m->t));
	m->t.addr = call->req->peer;
	if (req_local_addr(call->req, &m->t.local) < 0)
		m->t.local.ss_family = AF_UNSPEC;
	m->t.proto = call->req->proto;
	m->vers = call->vers;
	m->proc = proc;
	if (tasks_push_for(&m->t.addr, RES_PER_CLIENT, res_task, m) < 0)
		free(m);
}

#define TESTRES_SIZE (sizeof(nlm4_testres) > sizeof(nlm_testres) ? \
	sizeof(nlm4_testres) : sizeof(nlm_testres))
#define RES_SIZE (sizeof(nlm4_res) > sizeof(nlm_res) ? sizeof(nlm4_res) : sizeof(nlm_res))

/* Each _MSG procedure is its two-way twin, whose result goes back as _RES. */
static const struct one_way {
	rpc_handler twin;
	xdrproc_t xres1, xres4;		/* the result's XDR in versions 1/3 and 4 */
	size_t size;
} one_ways[] = {
	[P_TEST_MSG - P_TEST_MSG] = { nlmsvc_test, XDRPROC(xdr_nlm_testres),
	    XDRPROC(xdr_nlm4_testres), TESTRES_SIZE },
	[P_LOCK_MSG - P_TEST_MSG] = { nlmsvc_lock, XDRPROC(xdr_nlm_res), XDRPROC(xdr_nlm4_res),
	    RES_SIZE },
	[P_CANCEL_MSG - P_TEST_MSG] = { nlmsvc_cancel, XDRPROC(xdr_nlm_res),
	    XDRPROC(xdr_nlm4_res), RES_SIZE },
	[P_UNLOCK_MSG - P_TEST_MSG] = { nlmsvc_unlock, XDRPROC(xdr_nlm_res),
	    XDRPROC(xdr_nlm4_res), RES_SIZE },
	[P_GRANTED_MSG - P_TEST_MSG] = { nlmsvc_granted, XDRPROC(xdr_nlm_res),
	    XDRPROC(xdr_nlm4_res), RES_SIZE },
};

/* TEST_MSG, LOCK_MSG, CANCEL_MSG, UNLOCK_MSG, GRANTED_MSG. */
static void
nlmsvc_msg(struct rpc_call *call, void *argp, void *resp)
{
	const struct one_way *w = &one_ways[call->proc - P_TEST_MSG];
	void *out = call_alloc(call, w->size);

	(void)resp;
	if (out == NULL)
		return;
	w->twin(call, argp, out);
	send_res(call, call->proc + MSG_TO_RES, is_v4(call) ? w->xres4 : w->xres1, out);
}

/* TEST_RES, LOCK_RES, CANCEL_RES, UNLOCK_RES: answers to calls we never make. */
static void
nlmsvc_ignore_res(struct rpc_call *call, void *argp, void *resp)
{
	(void)call;
	(void)argp;
	(void)resp;
}

/* A client's answer to our GRANTED_MSG. */
static void
nlmsvc_granted_res(struct rpc_call *call, void *argp, void *resp)
{
	const netobj *cookie;
	int granted;

	(void)resp;
	if (is_v4(call)) {
		cookie = &((nlm4_res *)argp)->cookie;
		granted = ((nlm4_res *)argp)->stat.stat == NLM4_GRANTED;
	} else {
		cookie = &((nlm_res *)argp)->cookie;
		granted = ((nlm_res *)argp)->stat.stat == nlm_granted;
	}
	locks_granted_res(cookie->n_bytes, cookie->n_len, &call->req->peer, granted);
}

/* ---- share reservations, FREE_ALL ---- */

static void
share_up(const nlm_shareargs *a, nlm4_shareargs *a4)
{
	a4->cookie = a->cookie;
	a4->share.caller_name = a->share.caller_name;
	a4->share.fh = a->share.fh;
	a4->share.oh = a->share.oh;
	a4->share.mode = (fsh4_mode)a->share.mode;
	a4->share.access = (fsh4_access)a->share.access;
	a4->reclaim = a->reclaim;
}

static int
do_share(struct rpc_call *call, const nlm4_shareargs *a, int unshare)
{
	nlm4_lock l;
	struct fs_ctx ctx;
	struct lk_req r;
	int st;

	memset(&l, 0, sizeof(l));
	l.caller_name = a->share.caller_name;
	l.fh = a->share.fh;
	l.oh = a->share.oh;
	st = begin(call, &l, &ctx, &r, !unshare);
	/* XDR's enum decoding takes any number: only deny and access bits are modes. */
	if (st == NLM4_GRANTED && ((unsigned)a->share.mode > FSM4_DRW ||
	    (unsigned)a->share.access > FSA4_RW))
		st = NLM4_FAILED;
	if (st == NLM4_GRANTED)
		st = unshare ? locks_unshare(&r) :
		    locks_share(&r, (unsigned)a->share.mode, (unsigned)a->share.access, a->reclaim);
	fs_end(&ctx);
	return st;
}

static void
nlmsvc_share_common(struct rpc_call *call, void *argp, void *resp, int unshare)
{
	nlm4_shareargs a4;
	int st;

	if (is_v4(call)) {
		nlm4_shareres *out = resp;

		st = do_share(call, argp, unshare);
		out->cookie = ((nlm4_shareargs *)argp)->cookie;
		out->stat = (nlm4_stats)st;
	} else {
		nlm_shareres *out = resp;

		share_up(argp, &a4);
		st = do_share(call, &a4, unshare);
		out->cookie = a4.cookie;
		out->stat = (nlm_stats)nlm4_to_nlm1(st);
	}
}

static void
nlmsvc_share(struct rpc_call *call, void *argp, void *resp)
{
	nlmsvc_share_common(call, argp, resp, 0);
}

static void
nlmsvc_unshare(struct rpc_call *call, void *argp, void *resp)
{
	nlmsvc_share_common(call, argp, resp, 1);
}

/* FREE_ALL: the named client restarted without a status monitor. */
static void
nlmsvc_free_all(struct rpc_call *call, void *argp, void *resp)
{
	(void)resp;
	locks_free_all(is_v4(call) ? ((nlm4_notify *)argp)->name : ((nlm_notify *)argp)->name,
	    &call->req->peer);
}

/* ---- rpc.statd's callback: a monitored client restarted ---- */

static int
from_local_statd(const struct rpc_call *call)
{
	const struct sockaddr_storage *p = &call->req->peer;

	if (req_peer_port(call->req) >= IPPORT_RESERVED)
		return 0;
	if (p->ss_family == AF_INET)
		return ((const struct sockaddr_in *)p)->sin_addr.s_addr == htonl(INADDR_LOOPBACK);
	if (p->ss_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)p)->sin6_addr);
	return 0;
}

static void
nlmsvc_sm_notify(struct rpc_call *call, void *argp, void *resp)
{
	static unsigned last_log;
	const struct status *s = argp;
	struct sockaddr_storage addr;

	(void)resp;
	if (!from_local_statd(call)) {
		char peer[64];

		/* Anyone else could wipe a client's locks by saying it restarted. */
		req_peer_str(call->req, peer, sizeof(peer));
		log_ratelimited(&last_log, "%s: restart notice not from the local rpc.statd refused",
		    peer);
		return;
	}
	if (sockaddr_parse(s->mon_name, &addr) < 0) {
		log_warnx("rpc.statd: restart of '%s', which we never asked it to watch",
		    s->mon_name);
		return;
	}
	locks_host_rebooted(&addr);
}

/* ---- GRANTED callbacks (from locks.c's background tasks) ---- */

static int
send_granted(const struct lk_grant *g)
{
	struct rpc_target t;
	nlm4_testargs a4;
	nlm_testargs a1;
	nlm4_res r4;
	nlm_res r1;
	int v4 = g->vers == 4, rc, st;
	char err[256];
	unsigned timeout = g->msg ? 0 : GRANTED_TIMEOUT_MS;
	uint32_t proc = g->msg ? P_GRANTED_MSG : P_GRANTED;

	memset(&t, 0, sizeof(t));
	t.addr = g->peer;
	t.local = g->local;
	t.proto = g->proto;
	memset(&a4, 0, sizeof(a4));
	a4.cookie.n_bytes = (char *)(uintptr_t)g->cookie;
	a4.cookie.n_len = sizeof(g->cookie);
	a4.exclusive = g->exclusive;
	a4.alock.caller_name = (char *)(uintptr_t)g->caller;
	a4.alock.fh.n_bytes = (char *)(uintptr_t)g->fh;
	a4.alock.fh.n_len = (u_int)g->fhlen;
	a4.alock.oh.n_bytes = (char *)(uintptr_t)g->oh;
	a4.alock.oh.n_len = (u_int)g->ohlen;
	a4.alock.svid = g->svid;
	a4.alock.l_offset = g->off;
	a4.alock.l_len = g->len;
	memset(&r4, 0, sizeof(r4));
	memset(&r1, 0, sizeof(r1));
	if (v4) {
		rc = rpcclient_call(&t, NLM_PROGRAM_NUMBER, 4, proc, XDRPROC(xdr_nlm4_testargs), &a4,
		    XDRPROC(xdr_nlm4_res), &r4, timeout, err, sizeof(err));
		st = r4.stat.stat;
	} else {
		a1.cookie = a4.cookie;
		a1.exclusive = a4.exclusive;
		a1.alock.caller_name = a4.alock.caller_name;
		a1.alock.fh = a4.alock.fh;
		a1.alock.oh = a4.alock.oh;
		a1.alock.svid = a4.alock.svid;
		a1.alock.l_offset = u32_clamp(g->off);
		a1.alock.l_len = u32_clamp(g->len);
		rc = rpcclient_call(&t, NLM_PROGRAM_NUMBER, g->vers, proc,
		    XDRPROC(xdr_nlm_testargs), &a1, XDRPROC(xdr_nlm_res), &r1, timeout, err,
		    sizeof(err));
		st = r1.stat.stat;
	}
	if (v4)
		xdr_free(XDRPROC(xdr_nlm4_res), (char *)&r4);
	else
		xdr_free(XDRPROC(xdr_nlm_res), (char *)&r1);
	if (rc < 0) {
		char peer[64];

		sockaddr_text(&g->peer, peer, sizeof(peer));
		log_info("%s: GRANTED callback failed: %s", peer, err);
		return -1;
	}
	if (g->msg)
		return LK_BLOCKED;	/* sent; GRANTED_RES will say */
	if (st == NLM4_GRANTED)
		return LK_GRANTED;
	/* In its grace period it cannot take it yet: ask again later. */
	return st == NLM4_DENIED_GRACE_PERIOD ? -1 : LK_DENIED;
}

lk_grant_fn
nlm_grant_sender(void)
{
	return send_granted;
}

/* ---- the tables ---- */

/* The result has a status after the cookie, which statistics count. */
#define NLMPROC(name, argt, rest, fn, flags) \
	RPC_PROC(name, argt, rest, fn, (flags) | PROC_STATUS_COOKIE)
#define NLMVOID RPC_PROC_NORES
#define NLMNULL RPC_PROC_NULL("NULL")

/*
 * Versions 1 and 3 (with the share procedures). Calls that change lock
 * state go through the duplicate request cache: a LOCK retransmitted
 * after the client's UNLOCK must not take the lock again.
 */
#define NLM1_PROCS(P) \
	[0] = NLMNULL, \
	[P_TEST] = NLMPROC("TEST", P##testargs, P##testres, nlmsvc_test, 0), \
	[P_LOCK] = NLMPROC("LOCK", P##lockargs, P##res, nlmsvc_lock, PROC_DRC), \
	[P_CANCEL] = NLMPROC("CANCEL", P##cancargs, P##res, nlmsvc_cancel, PROC_DRC), \
	[P_UNLOCK] = NLMPROC("UNLOCK", P##unlockargs, P##res, nlmsvc_unlock, PROC_DRC), \
	[P_GRANTED] = NLMPROC("GRANTED", P##testargs, P##res, nlmsvc_granted, 0), \
	[P_TEST_MSG] = NLMVOID("TEST_MSG", P##testargs, nlmsvc_msg, 0), \
	[P_LOCK_MSG] = NLMVOID("LOCK_MSG", P##lockargs, nlmsvc_msg, PROC_DRC), \
	[P_CANCEL_MSG] = NLMVOID("CANCEL_MSG", P##cancargs, nlmsvc_msg, PROC_DRC), \
	[P_UNLOCK_MSG] = NLMVOID("UNLOCK_MSG", P##unlockargs, nlmsvc_msg, PROC_DRC), \
	[P_GRANTED_MSG] = NLMVOID("GRANTED_MSG", P##testargs, nlmsvc_msg, 0), \
	[P_TEST_RES] = NLMVOID("TEST_RES", P##testres, nlmsvc_ignore_res, 0), \
	[P_LOCK_RES] = NLMVOID("LOCK_RES", P##res, nlmsvc_ignore_res, 0), \
	[P_CANCEL_RES] = NLMVOID("CANCEL_RES", P##res, nlmsvc_ignore_res, 0), \
	[P_UNLOCK_RES] = NLMVOID("UNLOCK_RES", P##res, nlmsvc_ignore_res, 0), \
	[P_GRANTED_RES] = NLMVOID("GRANTED_RES", P##res, nlmsvc_granted_res, 0)
#define NLM3_PROCS(P, N) \
	NLM1_PROCS(P), \
	[P_SHARE] = NLMPROC("SHARE", P##shareargs, P##shareres, nlmsvc_share, PROC_DRC), \
	[P_UNSHARE] = NLMPROC("UNSHARE", P##shareargs, P##shareres, nlmsvc_unshare, PROC_DRC), \
	[P_NM_LOCK] = NLMPROC("NM_LOCK", P##lockargs, P##res, nlmsvc_nm_lock, PROC_DRC), \
	[P_FREE_ALL] = NLMVOID("FREE_ALL", N, nlmsvc_free_all, PROC_DRC)

static const struct rpc_proc nlm1_procs[] = { NLM1_PROCS(nlm_) };
static const struct rpc_proc nlm3_procs[] = { NLM3_PROCS(nlm_, nlm_notify) };
static const struct rpc_proc nlm4_procs[] = {
	NLM3_PROCS(nlm4_, nlm4_notify),
	[NSM_CALLBACK_PROC] = NLMVOID("SM_NOTIFY", status, nlmsvc_sm_notify, 0),
};

static const struct rpc_version nlm_versions[] = {
	{ 1, nlm1_procs, ARRAY_SIZE(nlm1_procs), 0 },
	{ 3, nlm3_procs, ARRAY_SIZE(nlm3_procs), 0 },
	{ 4, nlm4_procs, ARRAY_SIZE(nlm4_procs), 0 },
};

const struct rpc_program nlm_program = {
	NLM_PROGRAM_NUMBER, "NLM", nlm_versions, ARRAY_SIZE(nlm_versions), RPC_SVC_NLM,
};
