/*
 * NFSv4.0's sequenced operations (RFC 7530 9.1.7-9.1.10, 16.18, 16.37):
 * OPEN, OPEN_CONFIRM, OPEN_DOWNGRADE, CLOSE, LOCK and LOCKU carry their
 * owner's seqid. The next one runs; the last one again is a
 * retransmission, answered with the reply it had (the kept reply, not a
 * second run: a CLOSE run twice would say BAD_STATEID); any other is
 * BAD_SEQID. The owners are the state layer's (state/nfs40_owners.c);
 * what a reply holds is packed here, where the wire types are known.
 *
 * Also OPEN_CONFIRM, which a new open-owner's first OPEN waits for, and
 * RELEASE_LOCKOWNER. NFSv4.1 has sessions instead and none of this runs
 * for it.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "nfs4_ops.h"
#include "state/nfs40_owners.h"

/* A sequenced operation's reply, as kept for its retransmission (plain bytes). */
struct kept {
	uint32_t op;
	nfsstat4 status;
	stateid4 sid;
	/* OPEN */
	change_info4 cinfo;
	uint32_t rflags;
	uint32_t attrset[2], attrset_len;
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	uint32_t deleg;			/* OPEN_DELEGATE_READ: deleg_sid came with it */
	stateid4 deleg_sid;
	/* LOCK's DENIED */
	offset4 d_off;
	length4 d_len;
	uint32_t d_type;
	uint64_t d_clientid;
	uint32_t d_ownerlen;
	uint8_t d_owner[NFS4_OPAQUE_LIMIT];
};

_Static_assert(sizeof(struct kept) <= N40_REPLAY_MAX, "a kept reply fits the owner's buffer");

/* Statuses after which the seqid does not move on (RFC 7530 9.1.7). */
static int
bumps(nfsstat4 s)
{
	switch (s) {
	case NFS4ERR_STALE_CLIENTID:
	case NFS4ERR_STALE_STATEID:
	case NFS4ERR_BAD_STATEID:
	case NFS4ERR_BAD_SEQID:
	case NFS4ERR_BADXDR:
	case NFS4ERR_RESOURCE:
	case NFS4ERR_NOFILEHANDLE:
	case NFS4ERR_MOVED:
		return 0;
	default:
		return 1;
	}
}

static size_t
keep(const struct n4_compound *c, const nfs_resop4 *r, nfsstat4 st, struct kept *k)
{
	const __typeof__(r->nfs_resop4_u) *u = &r->nfs_resop4_u;

	memset(k, 0, offsetof(struct kept, d_owner));
	k->op = r->resop;
	k->status = st;
	if (r->resop == OP_LOCK && st == NFS4ERR_DENIED) {
		const LOCK4denied *d = &u->oplock.LOCK4res_u.denied;

		k->d_off = d->offset;
		k->d_len = d->length;
		k->d_type = d->locktype;
		k->d_clientid = d->owner.clientid;
		k->d_ownerlen = d->owner.owner.owner_len;
		if (k->d_ownerlen > NFS4_OPAQUE_LIMIT)
			k->d_ownerlen = 0;
		if (k->d_ownerlen)
			memcpy(k->d_owner, d->owner.owner.owner_val, k->d_ownerlen);
	}
	if (st != NFS4_OK)
		return offsetof(struct kept, d_owner) + k->d_ownerlen;
	switch (r->resop) {
	case OP_OPEN: {
		const OPEN4resok *o = &u->opopen.OPEN4res_u.resok4;

		k->sid = o->stateid;
		k->cinfo = o->cinfo;
		k->rflags = o->rflags;
		k->attrset_len = o->attrset.bitmap4_len < 2 ? o->attrset.bitmap4_len : 2;
		if (k->attrset_len)
			memcpy(k->attrset, o->attrset.bitmap4_val, k->attrset_len * sizeof(uint32_t));
		k->fhlen = c->cur.len;
		memcpy(k->fh, c->cur.data, c->cur.len);
		k->deleg = o->delegation.delegation_type;
		if (k->deleg == OPEN_DELEGATE_READ)
			k->deleg_sid = o->delegation.open_delegation4_u.read.stateid;
		break;
	}
	case OP_OPEN_CONFIRM:
		k->sid = u->opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid;
		break;
	case OP_OPEN_DOWNGRADE:
		k->sid = u->opopen_downgrade.OPEN_DOWNGRADE4res_u.resok4.open_stateid;
		break;
	case OP_CLOSE:
		k->sid = u->opclose.CLOSE4res_u.open_stateid;
		break;
	case OP_LOCK:
		k->sid = u->oplock.LOCK4res_u.resok4.lock_stateid;
		break;
	case OP_LOCKU:
		k->sid = u->oplocku.LOCKU4res_u.lock_stateid;
		break;
	default:
		break;
	}
	return offsetof(struct kept, d_owner);
}

/* A retransmission: the kept reply in r, and OPEN's filehandle current again. */
static nfsstat4
replay(struct n4_compound *c, nfs_resop4 *r, const struct kept *k, size_t len)
{
	__typeof__(r->nfs_resop4_u) *u = &r->nfs_resop4_u;

	if (len < offsetof(struct kept, d_owner) || k->op != r->resop)
		return NFS4ERR_BAD_SEQID;	/* another operation had that seqid */
	if (k->op == OP_LOCK && k->status == NFS4ERR_DENIED) {
		LOCK4denied *d = &u->oplock.LOCK4res_u.denied;
		char *owner = call_alloc(c->call, k->d_ownerlen ? k->d_ownerlen : 1);

		if (owner == NULL)
			return NFS4ERR_RESOURCE;
		memcpy(owner, k->d_owner, k->d_ownerlen);
		d->offset = k->d_off;
		d->length = k->d_len;
		d->locktype = k->d_type;
		d->owner.clientid = k->d_clientid;
		d->owner.owner.owner_val = owner;
		d->owner.owner.owner_len = k->d_ownerlen;
	}
	if (k->status != NFS4_OK)
		return k->status;
	switch (k->op) {
	case OP_OPEN: {
		OPEN4resok *o = &u->opopen.OPEN4res_u.resok4;
		uint32_t *set = call_alloc(c->call, sizeof(k->attrset));

		if (set == NULL)
			return NFS4ERR_RESOURCE;
		memcpy(set, k->attrset, sizeof(k->attrset));
		o->stateid = k->sid;
		o->cinfo = k->cinfo;
		o->rflags = k->rflags;
		o->attrset.bitmap4_val = set;
		o->attrset.bitmap4_len = k->attrset_len;
		o->delegation.delegation_type = OPEN_DELEGATE_NONE;
		if (k->deleg == OPEN_DELEGATE_READ)
			n4_deleg_read_result(&k->deleg_sid, &o->delegation);
		c->cur.len = k->fhlen;
		memcpy(c->cur.data, k->fh, k->fhlen);
		break;
	}
	case OP_OPEN_CONFIRM:
		u->opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid = k->sid;
		break;
	case OP_OPEN_DOWNGRADE:
		u->opopen_downgrade.OPEN_DOWNGRADE4res_u.resok4.open_stateid = k->sid;
		break;
	case OP_CLOSE:
		u->opclose.CLOSE4res_u.open_stateid = k->sid;
		break;
	case OP_LOCK:
		u->oplock.LOCK4res_u.resok4.lock_stateid = k->sid;
		break;
	case OP_LOCKU:
		u->oplocku.LOCKU4res_u.lock_stateid = k->sid;
		break;
	default:
		break;
	}
	return NFS4_OK;
}

/* The owner of a stateid, as the key of its owner record (w holds the bytes). */
static nfsstat4
owner_of_sid(const stateid4 *sid, struct n4_sid_owner *w, struct n40_owner_key *k)
{
	struct n4_stateid s;
	enum n4_state_result r;

	n4_sid_from_wire(sid, &s);
	if ((r = n4_stateid_owner(&s, w)) != N4S_OK)
		return n4_state_status(r);
	k->clientid = w->clientid;
	k->lock = w->lock;
	k->owner = w->owner;
	k->ownerlen = w->ownerlen;
	return NFS4_OK;
}

/* Whose seqid an operation carries, and which. */
static nfsstat4
owner_of(const nfs_argop4 *a, struct n4_sid_owner *w, struct n40_owner_key *k, uint32_t *seqid)
{
	const __typeof__(a->nfs_argop4_u) *u = &a->nfs_argop4_u;

	switch (a->argop) {
	case OP_OPEN:
		k->clientid = u->opopen.owner.clientid;
		k->lock = 0;
		k->owner = u->opopen.owner.owner.owner_val;
		k->ownerlen = u->opopen.owner.owner.owner_len;
		*seqid = u->opopen.seqid;
		return NFS4_OK;
	case OP_OPEN_CONFIRM:
		*seqid = u->opopen_confirm.seqid;
		return owner_of_sid(&u->opopen_confirm.open_stateid, w, k);
	case OP_OPEN_DOWNGRADE:
		*seqid = u->opopen_downgrade.seqid;
		return owner_of_sid(&u->opopen_downgrade.open_stateid, w, k);
	case OP_CLOSE: {
		nfsstat4 st;

		*seqid = u->opclose.seqid;
		st = owner_of_sid(&u->opclose.open_stateid, w, k);
		/* Gone: perhaps this very CLOSE took it, and this is its retransmission. */
		if (st == NFS4ERR_BAD_STATEID &&
		    n40_owner_by_closed((const uint8_t *)u->opclose.open_stateid.other, k,
		    w->owner) == 0)
			st = NFS4_OK;
		return st;
	}
	case OP_LOCK:
		/* A new lock-owner's LOCK is its open-owner's (open_seqid, 16.10.5). */
		if (u->oplock.locker.new_lock_owner) {
			*seqid = u->oplock.locker.locker4_u.open_owner.open_seqid;
			return owner_of_sid(&u->oplock.locker.locker4_u.open_owner.open_stateid, w, k);
		}
		*seqid = u->oplock.locker.locker4_u.lock_owner.lock_seqid;
		return owner_of_sid(&u->oplock.locker.locker4_u.lock_owner.lock_stateid, w, k);
	case OP_LOCKU:
		*seqid = u->oplocku.seqid;
		return owner_of_sid(&u->oplocku.lock_stateid, w, k);
	default:
		return NFS4ERR_SERVERFAULT;
	}
}

/*
 * What an OPEN does to its owner: a reclaim confirms it (the client knew
 * it before the restart, as knfsd treats it); another OPEN asks for
 * OPEN_CONFIRM until the owner is confirmed.
 */
static void
after_open(struct n4_compound *c, const nfs_argop4 *a, nfs_resop4 *r, struct n40_owner *o)
{
	if (a->nfs_argop4_u.opopen.claim.claim == CLAIM_PREVIOUS)
		n40_owner_confirm(o);
	else if (!n40_owner_confirmed(o))
		r->nfs_resop4_u.opopen.OPEN4res_u.resok4.rflags |= OPEN4_RESULT_CONFIRM;
	(void)c;
}

/* LOCK's new lock-owner starts at lock_seqid, whatever LOCK said of the range. */
static nfsstat4
start_lock_owner(struct n4_compound *c, const nfs_argop4 *a)
{
	const open_to_lock_owner4 *o = &a->nfs_argop4_u.oplock.locker.locker4_u.open_owner;
	struct n40_owner_key k = { c->clientid, 1, o->lock_owner.owner.owner_val,
	    o->lock_owner.owner.owner_len };

	return n40_lock_owner_start(&k, o->lock_seqid) == 0 ? NFS4_OK : NFS4ERR_RESOURCE;
}

nfsstat4
n40_run_seqid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r, n4_op_fn fn)
{
	struct n4_sid_owner *w = call_alloc(c->call, sizeof(*w));
	struct kept *k = call_alloc(c->call, N40_REPLAY_MAX);
	struct n40_owner_key key;
	struct n40_owner *o;
	uint32_t seqid = 0;
	size_t len = 0;
	nfsstat4 st;

	if (w == NULL || k == NULL)
		return NFS4ERR_RESOURCE;
	/* A stateid that names no owner: the operation's own error, no seqid moves. */
	if ((st = owner_of(a, w, &key, &seqid)) != NFS4_OK)
		return st;
	switch (n40_owner_take(&key, seqid, a->argop == OP_OPEN, &o, k, &len)) {
	case N40_SEQ_REPLAY:
		return replay(c, r, k, len);
	case N40_SEQ_BAD:
		return NFS4ERR_BAD_SEQID;
	case N40_SEQ_FULL:
		return NFS4ERR_RESOURCE;
	case N40_SEQ_RESTART:
		/* An open-owner that never confirmed: its earlier opens go (RFC 7530 16.18.5). */
		n4_state_owner_gone(key.clientid, key.owner, key.ownerlen);
		break;
	case N40_SEQ_FIRST:
		/* An owner with a stateid already (its record gone at the bound) was confirmed. */
		if (a->argop != OP_OPEN)
			n40_owner_confirm(o);
		break;
	case N40_SEQ_NEW:
		break;
	}
	c->open_unconfirmed = a->argop == OP_OPEN && !n40_owner_confirmed(o) &&
	    a->nfs_argop4_u.opopen.claim.claim != CLAIM_PREVIOUS;
	st = fn(c, a, r);
	c->open_unconfirmed = 0;
	if (st == NFS4_OK && a->argop == OP_OPEN)
		after_open(c, a, r, o);
	if (st == NFS4_OK && a->argop == OP_OPEN_CONFIRM)
		n40_owner_confirm(o);
	if (st == NFS4_OK && a->argop == OP_CLOSE)
		n40_owner_closed(o, (const uint8_t *)a->nfs_argop4_u.opclose.open_stateid.other);
	if (a->argop == OP_LOCK && a->nfs_argop4_u.oplock.locker.new_lock_owner && bumps(st) &&
	    start_lock_owner(c, a) != NFS4_OK)
		st = NFS4ERR_RESOURCE;
	len = keep(c, r, st, k);
	n40_owner_done(o, seqid, bumps(st), k, len);
	return st;
}

nfsstat4
n4_op_open_confirm(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	OPEN_CONFIRM4args *args = &a->nfs_argop4_u.opopen_confirm;
	stateid4 *ok = &r->nfs_resop4_u.opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid;
	struct n4_stateid in, out;
	struct n4_obj o;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	n4_obj_end(&o);
	n4_sid_from_wire(&args->open_stateid, &in);
	s = n4_state_status(n4_open_confirm(c->clientid, &in, &out));
	if (s == NFS4_OK)
		n4_sid_to_wire(&out, ok);
	return s;
}

nfsstat4
n4_op_release_lockowner(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	const lock_owner4 *lo = &a->nfs_argop4_u.oprelease_lockowner.lock_owner;
	struct n40_owner_key k = { c->clientid, 1, lo->owner.owner_val, lo->owner.owner_len };
	nfsstat4 s;

	(void)r;
	s = n4_state_status(n4_release_lockowner(c->clientid, lo->owner.owner_val,
	    lo->owner.owner_len));
	if (s == NFS4_OK)
		n40_owner_forget(&k);
	return s;
}
