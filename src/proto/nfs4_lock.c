/*
 * NFSv4 byte-range locks (RFC 8881 9, 18.10-18.12): LOCK, LOCKT and LOCKU
 * through the lock manager NLM uses (state/locks.c), so that v4 clients,
 * NLM clients and local processes all exclude each other: every lock is
 * a kernel OFD lock on the server's file. Each v4 client is one "host" of
 * the lock manager (named by its clientid), each lock owner one owner.
 * Blocking requests (READW_LT, WRITEW_LT) are answered DENIED at once, as
 * RFC 8881 9.6 allows; the client polls. The lock stateids are the state
 * layer's (state/nfs4_state.c).
 */
#include "config.h"

#include <string.h>

#include "access.h"
#include "errmap.h"
#include "nfs4_ops.h"
#include "rpc/req.h"
#include "state/locks.h"
#include "state/nfs4_state.h"


/* The lock manager's answers (NLM version 4's numbers) as NFSv4 statuses. */
static nfsstat4
lk_status(int st)
{
	switch (st) {
	case LK_GRANTED: return NFS4_OK;
	case LK_DENIED:
	case LK_BLOCKED: return NFS4ERR_DENIED;
	case LK_NOLOCKS: return NFS4ERR_DELAY;
	case LK_GRACE: return NFS4ERR_GRACE;
	case LK_DEADLCK: return NFS4ERR_DEADLOCK;
	case LK_ROFS: return NFS4ERR_ROFS;
	case LK_STALE: return NFS4ERR_STALE;
	case LK_FBIG: return NFS4ERR_BAD_RANGE;
	default: return NFS4ERR_SERVERFAULT;
	}
}

/*
 * offset and length (NFS4_UINT64_MAX: to the end) as the lock manager's
 * offset and length (0: to the end). INVAL for a length of 0 or a range
 * past 2^64 (RFC 8881 18.10.3).
 */
static nfsstat4
range(uint64_t off, uint64_t len, uint64_t *lk_off, uint64_t *lk_len)
{
	if (len == 0)
		return NFS4ERR_INVAL;
	if (len != NFS4_UINT64_MAX && len > NFS4_UINT64_MAX - off)
		return NFS4ERR_INVAL;
	*lk_off = off;
	*lk_len = len == NFS4_UINT64_MAX ? 0 : len;
	return NFS4_OK;
}

struct lock_call {
	struct lk_req r;
	char caller[N4_CALLER_LEN];
};

/* The lock manager's request for owner on file, from this call's client. */
static void
fill(struct n4_compound *c, struct lock_call *lc, struct fs_ctx *file, const void *owner,
    size_t ownerlen, const struct sockaddr_storage *peer)
{
	memset(lc, 0, sizeof(*lc));
	n4_lock_caller(c->clientid, lc->caller);
	lc->r.ctx = file;
	lc->r.caller = lc->caller;
	lc->r.peer = peer ? *peer : c->call->req->peer;
	if (req_local_addr(c->call->req, &lc->r.local) < 0)
		lc->r.local.ss_family = AF_UNSPEC;
	lc->r.proto = c->call->req->proto;
	lc->r.vers = 4;
	lc->r.oh = ownerlen ? owner : "";
	lc->r.ohlen = ownerlen;
	lc->r.fh = c->cur.data;
	lc->r.fhlen = c->cur.len;
}

void
n4_unlock_all(struct n4_compound *c, struct fs_ctx *file, const void *owner, size_t ownerlen,
    const struct sockaddr_storage *peer)
{
	struct lock_call lc;

	fill(c, &lc, file, owner, ownerlen, peer);
	locks_unlock(&lc.r);	/* 0 + to the end: all of it */
}

/*
 * The conflicting lock, as LOCK4denied: its owner when it is a client's,
 * else empty. NFS4_OK when there is none (any more).
 */
static nfsstat4
denied(struct n4_compound *c, struct lock_call *lc, LOCK4denied *d)
{
	struct lk_holder *h = call_alloc(c->call, sizeof(*h));
	int st;

	if (h == NULL)
		return NFS4ERR_DELAY;
	st = locks_test(&lc->r, h);
	if (st != LK_DENIED)	/* no conflict (now): OK, or why the test failed */
		return lk_status(st);
	d->offset = h->off;
	d->length = h->len ? h->len : NFS4_UINT64_MAX;
	d->locktype = h->exclusive ? WRITE_LT : READ_LT;
	d->owner.clientid = 0;
	d->owner.owner.owner_val = (char *)h->oh;
	d->owner.owner.owner_len = (u_int)h->ohlen;
	return NFS4ERR_DENIED;
}

static int
exclusive(nfs_lock_type4 t)
{
	return t == WRITE_LT || t == WRITEW_LT;
}

/* The current filehandle as a regular file for a lock: ISDIR, INVAL, or its object. */
static nfsstat4
lock_file(struct n4_compound *c, struct n4_obj *o)
{
	struct stat st;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, o)) != NFS4_OK)
		return s;
	if (o->pseudo)
		s = NFS4ERR_ISDIR;
	else if ((s = n4_obj_stat(o, &st)) == NFS4_OK && !S_ISREG(st.st_mode))
		s = S_ISDIR(st.st_mode) ? NFS4ERR_ISDIR : NFS4ERR_INVAL;
	if (s != NFS4_OK)
		n4_obj_end(o);
	return s;
}

/* The lock state LOCK's locker names: a new lock owner on an open, or a lock stateid. */
static nfsstat4
locker(struct n4_compound *c, const locker4 *l, struct n4_lock_out *out)
{
	struct n4_lock_in in;
	const stateid4 *sid;

	memset(&in, 0, sizeof(in));
	in.clientid = c->clientid;
	in.peer = &c->call->req->peer;
	in.new_owner = l->new_lock_owner;
	if (l->new_lock_owner) {
		const open_to_lock_owner4 *o = &l->locker4_u.open_owner;

		if (o->lock_owner.owner.owner_len > N4_LOCK_OWNER_MAX)
			return NFS4ERR_BADXDR;
		sid = n4_named_sid(c, &o->open_stateid);
		in.owner = o->lock_owner.owner.owner_val;
		in.ownerlen = o->lock_owner.owner.owner_len;
	} else {
		sid = n4_named_sid(c, &l->locker4_u.lock_owner.lock_stateid);
	}
	/* The open or lock stateid may be the current one: OPEN, LOCK in one compound (16.2.3.1.2). */
	if (sid == NULL)
		return NFS4ERR_BAD_STATEID;
	n4_sid_from_wire(sid, &in.sid);
	return n4_state_status(n4_lock_get(&in, out));
}

static int
same_file(const struct n4_obj *o, const struct n4_file *f)
{
	const struct fh *h = fs_handle(&o->ctx);

	return h->export_id == f->export_id && h->ino == f->ino;
}

nfsstat4
n4_op_lock(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	LOCK4args *args = &a->nfs_argop4_u.oplock;
	LOCK4res *res = &r->nfs_resop4_u.oplock;
	struct n4_stateid sid;
	struct n4_lock_out lo;
	struct lock_call lc;
	struct n4_obj o;
	nfsstat4 s, p;
	int st;

	if (args->locktype < READ_LT || args->locktype > WRITEW_LT)
		return NFS4ERR_INVAL;
	/* A reclaim out of the grace period, or of a client with nothing to reclaim (8.4.2.1). */
	if (args->reclaim && n4_may_reclaim(c->clientid) != N4_OK)
		return NFS4ERR_NO_GRACE;
	if ((s = lock_file(c, &o)) != NFS4_OK)
		return s;
	if ((s = locker(c, &args->locker, &lo)) != NFS4_OK) {
		n4_obj_end(&o);
		return s;
	}
	fill(c, &lc, &o.ctx, lo.owner, lo.ownerlen, &lo.peer);
	lc.r.exclusive = exclusive(args->locktype);
	if (!same_file(&o, &lo.file))
		s = NFS4ERR_BAD_STATEID;
	else if (lc.r.exclusive && !(lo.access & N4_SHARE_WRITE))
		s = NFS4ERR_OPENMODE;	/* a write lock wants a file open for writing (18.10.3) */
	else
		s = range(args->offset, args->length, &lc.r.off, &lc.r.len);
	if (s == NFS4_OK) {
		st = locks_lock(&lc.r, 0, args->reclaim, 0);
		s = lk_status(st);
		if (st == LK_DENIED && (s = denied(c, &lc, &res->LOCK4res_u.denied)) == NFS4_OK)
			s = NFS4ERR_DELAY;	/* the conflict went meanwhile: try again */
	}
	/* The stateid's seqid moves only with a lock taken; a new owner denied leaves none. */
	if (s == NFS4_OK || lo.created) {
		p = n4_state_status(n4_lock_put(c->clientid, lo.other, s == NFS4_OK, lo.created,
		    s == NFS4_OK || locks_held(&lc.r), &sid));
		if (s == NFS4_OK && (s = p) == NFS4_OK) {
			n4_sid_to_wire(&sid, &res->LOCK4res_u.resok4.lock_stateid);
			n4_set_cur_sid(c, &res->LOCK4res_u.resok4.lock_stateid);
		}
	}
	n4_obj_end(&o);
	return s;
}

nfsstat4
n4_op_lockt(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	LOCKT4args *args = &a->nfs_argop4_u.oplockt;
	struct lock_call lc;
	struct n4_obj o;
	nfsstat4 s;

	if (args->locktype < READ_LT || args->locktype > WRITEW_LT)
		return NFS4ERR_INVAL;
	if (args->owner.owner.owner_len > N4_LOCK_OWNER_MAX)
		return NFS4ERR_BADXDR;
	if ((s = lock_file(c, &o)) != NFS4_OK)
		return s;
	fill(c, &lc, &o.ctx, args->owner.owner.owner_val, args->owner.owner.owner_len, NULL);
	lc.r.exclusive = exclusive(args->locktype);
	if ((s = range(args->offset, args->length, &lc.r.off, &lc.r.len)) == NFS4_OK &&
	    (s = errno_to_nfs4(fs_lock_access(&o.ctx, 1))) == NFS4_OK)
		s = denied(c, &lc, &r->nfs_resop4_u.oplockt.LOCKT4res_u.denied);
	n4_obj_end(&o);
	return s;
}

nfsstat4
n4_op_locku(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	LOCKU4args *args = &a->nfs_argop4_u.oplocku;
	stateid4 *ok = &r->nfs_resop4_u.oplocku.LOCKU4res_u.lock_stateid;
	/* The lock stateid may be the current one: LOCK, LOCKU in one compound (16.2.3.1.2). */
	const stateid4 *lsid = n4_named_sid(c, &args->lock_stateid);
	struct n4_stateid sid;
	struct n4_lock_out lo;
	struct lock_call lc;
	struct n4_lock_in in;
	struct n4_obj o;
	nfsstat4 s;

	if (args->locktype < READ_LT || args->locktype > WRITEW_LT)
		return NFS4ERR_INVAL;
	if ((s = lock_file(c, &o)) != NFS4_OK)
		return s;
	memset(&in, 0, sizeof(in));
	in.clientid = c->clientid;
	if (lsid == NULL)
		s = NFS4ERR_BAD_STATEID;
	else
		n4_sid_from_wire(lsid, &in.sid);
	if (s == NFS4_OK && (s = n4_state_status(n4_lock_get(&in, &lo))) == NFS4_OK &&
	    !same_file(&o, &lo.file))
		s = NFS4ERR_BAD_STATEID;
	if (s == NFS4_OK) {
		fill(c, &lc, &o.ctx, lo.owner, lo.ownerlen, &lo.peer);
		s = range(args->offset, args->length, &lc.r.off, &lc.r.len);
	}
	if (s == NFS4_OK)
		s = lk_status(locks_unlock(&lc.r));
	if (s == NFS4_OK &&
	    (s = n4_state_status(n4_lock_put(c->clientid, lo.other, 1, 0, locks_held(&lc.r),
	    &sid))) == NFS4_OK) {
		n4_sid_to_wire(&sid, ok);
		n4_set_cur_sid(c, ok);
	}
	n4_obj_end(&o);
	return s;
}
