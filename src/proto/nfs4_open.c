/*
 * NFSv4 opens (RFC 8881 18.16, 18.18, 18.2, 18.48, 18.38; stateids 8.2):
 * OPEN, OPEN_DOWNGRADE, CLOSE, TEST_STATEID and FREE_STATEID, and the
 * stateid check every I/O operation makes. The state is the state
 * layer's (state/nfs4_state.c); the files are the fs layer's. A read
 * delegation may come with an OPEN (nfs4_deleg.c says when); without one
 * OPEN answers NONE, or NONE_EXT to a client that said what it wanted.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "access.h"
#include "errmap.h"
#include "nfs4_attr.h"
#include "nfs4_ops.h"
#include "state/locks.h"
#include "state/nfs4_state.h"

static const nfsstat4 state_status[N4S_NRESULTS] = {
	[N4S_OK] = NFS4_OK,
	[N4S_SHARE_DENIED] = NFS4ERR_SHARE_DENIED,
	[N4S_BAD_STATEID] = NFS4ERR_BAD_STATEID,
	[N4S_OLD_STATEID] = NFS4ERR_OLD_STATEID,
	[N4S_STALE_STATEID] = NFS4ERR_STALE_STATEID,
	[N4S_OPENMODE] = NFS4ERR_OPENMODE,
	[N4S_LOCKED] = NFS4ERR_LOCKED,
	[N4S_INVAL] = NFS4ERR_INVAL,
	[N4S_DELAY] = NFS4ERR_DELAY,
	[N4S_LOCKS_HELD] = NFS4ERR_LOCKS_HELD,
	[N4S_DELEG_REVOKED] = NFS4ERR_DELEG_REVOKED,
};

static changeid4
change_of(const struct stat *st)
{
	/* As FATTR4_CHANGE says it (nfs4_attr.c): the ctime, in nanoseconds. */
	return (uint64_t)st->st_ctim.tv_sec * 1000000000u + (uint64_t)st->st_ctim.tv_nsec;
}

void
n4_cinfo(change_info4 *ci, const struct fs_wcc *w, struct fs_ctx *dir)
{
	struct stat now;

	if (w->valid) {
		ci->atomic = w->atomic ? TRUE : FALSE;
		ci->before = change_of(&w->before);
		ci->after = change_of(&w->after);
		return;
	}
	ci->atomic = FALSE;
	ci->before = ci->after = fs_getattr(dir, &now) == 0 ? change_of(&now) : 0;
}

void
n4_set_cur_sid(struct n4_compound *c, const stateid4 *sid)
{
	c->cur_sid = *sid;
	c->have_cur_sid = 1;
}

nfsstat4
n4_state_status(enum n4_state_result r)
{
	return state_status[r];
}

void
n4_sid_to_wire(const struct n4_stateid *in, stateid4 *out)
{
	out->seqid = in->seqid;
	memcpy(out->other, in->other, N4_OTHER_SIZE);
}

void
n4_sid_from_wire(const stateid4 *in, struct n4_stateid *out)
{
	out->seqid = in->seqid;
	memcpy(out->other, in->other, N4_OTHER_SIZE);
}

static int
other_is(const stateid4 *sid, uint8_t byte)
{
	for (unsigned i = 0; i < N4_OTHER_SIZE; i++)
		if ((uint8_t)sid->other[i] != byte)
			return 0;
	return 1;
}

static void
file_of(const struct n4_obj *o, struct n4_file *f)
{
	const struct fh *h = fs_handle(&o->ctx);

	f->export_id = h->export_id;
	f->ino = h->ino;
}

nfsstat4
n4_stateid_check(struct n4_compound *c, const stateid4 *sid, struct n4_obj *o, unsigned need)
{
	struct n4_stateid s;
	struct n4_file f;

	file_of(o, &f);
	/* RFC 8881 8.2.3's special stateids: all zeros, all ones, and the current one. */
	if (other_is(sid, 0) && sid->seqid == 0)
		return state_status[n4_stateid_use(c->clientid, NULL, &f, need)];
	if (other_is(sid, 0xff) && sid->seqid == NFS4_UINT32_MAX)
		return (need & N4_SHARE_READ) ? NFS4_OK :	/* READ bypasses the deny bits */
		    state_status[n4_stateid_use(c->clientid, NULL, &f, need)];
	if (other_is(sid, 0) && sid->seqid == 1 && c->minor > 0) {
		if (!c->have_cur_sid)
			return NFS4ERR_BAD_STATEID;
		sid = &c->cur_sid;
	}
	if (other_is(sid, 0) || other_is(sid, 0xff))
		return NFS4ERR_BAD_STATEID;
	n4_sid_from_wire(sid, &s);
	return state_status[n4_stateid_use(c->clientid, &s, &f, need)];
}

const stateid4 *
n4_named_sid(struct n4_compound *c, const stateid4 *sid)
{
	/* NFSv4.0 has no current stateid: the one that would say so is just not a stateid. */
	if (other_is(sid, 0) && sid->seqid == 1 && c->minor > 0)
		return c->have_cur_sid ? &c->cur_sid : NULL;
	return sid;
}

/* ---- OPEN ---- */

struct open_req {
	struct n4_compound *c;
	OPEN4args *a;
	OPEN4resok *ok;
	unsigned access, deny;
	int created;		/* by this OPEN: no permission check, as for the creator */
	int may_delegate;	/* CLAIM_NULL or CLAIM_FH, and the client did not say no */
	struct fs_sattr sa;	/* UNCHECKED's size, applied to a file that was there */
};

static nfsstat4
check_share(uint32_t minor, const OPEN4args *a, unsigned *access, unsigned *deny)
{
	uint32_t want = a->share_access & ~(uint32_t)OPEN4_SHARE_ACCESS_BOTH;

	*access = a->share_access & OPEN4_SHARE_ACCESS_BOTH;
	*deny = a->share_deny;
	if (*access == 0 || a->share_deny > OPEN4_SHARE_DENY_BOTH)
		return NFS4ERR_INVAL;
	if (minor == 0 && want)
		return NFS4ERR_INVAL;	/* NFSv4.0 has no want bits (RFC 7530 16.16) */
	/* 4.1's want bits: the delegation mask and the two signal flags, nothing else. */
	if (want & ~(uint32_t)(OPEN4_SHARE_ACCESS_WANT_DELEG_MASK |
	    OPEN4_SHARE_ACCESS_WANT_SIGNAL_DELEG_WHEN_RESRC_AVAIL |
	    OPEN4_SHARE_ACCESS_WANT_PUSH_DELEG_WHEN_UNCONTENDED))
		return NFS4ERR_INVAL;
	return NFS4_OK;
}

/* Only a regular file opens (RFC 8881 18.16.3). */
static nfsstat4
check_type(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return NFS4_OK;
	if (S_ISDIR(st->st_mode))
		return NFS4ERR_ISDIR;
	if (S_ISLNK(st->st_mode))
		return NFS4ERR_SYMLINK;
	return NFS4ERR_WRONG_TYPE;
}

static nfsstat4
check_access(struct open_req *q, struct fs_ctx *file)
{
	if ((q->access & N4_SHARE_WRITE) && fs_readonly(file))
		return NFS4ERR_ROFS;
	if (q->created)
		return NFS4_OK;
	if ((q->access & N4_SHARE_READ) && !fs_may(file, R_OK))
		return NFS4ERR_ACCESS;
	if ((q->access & N4_SHARE_WRITE) && !fs_may(file, W_OK))
		return NFS4ERR_ACCESS;
	return NFS4_OK;
}

/* The attributes a create sets; EXCLUSIVE4_1's may not touch the times its verifier is in. */
static nfsstat4
create_attrs(struct open_req *q, const fattr4 *in, int exclusive, bitmap4 *set)
{
	nfsstat4 s = n4_attr_decode_set(q->c->minor, in, &q->sa, set, q->c->call);

	if (s == NFS4_OK && exclusive && (q->sa.set & (FS_SET_ATIME | FS_SET_MTIME)))
		return NFS4ERR_INVAL;
	return s;
}

/* Where the verifier of an exclusive create is kept: the two times. */
static nfsstat4
verifier_attrs(struct open_req *q, bitmap4 *set)
{
	uint32_t *w = call_alloc(q->c->call, 2 * sizeof(uint32_t));

	if (w == NULL)
		return NFS4ERR_DELAY;
	w[1] = 1u << (FATTR4_TIME_ACCESS_SET - 32) | 1u << (FATTR4_TIME_MODIFY_SET - 32);
	set->bitmap4_val = w;
	set->bitmap4_len = 2;
	return NFS4_OK;
}

static nfsstat4
open_create(struct open_req *q, struct fs_ctx *dir, const char *name, struct fs_ctx *child,
    struct stat *st)
{
	createhow4 *how = &q->a->openhow.openflag4_u.how;
	struct fs_sattr later;
	int err;

	switch (how->mode) {
	case UNCHECKED4: {
		nfsstat4 s = create_attrs(q, &how->createhow4_u.createattrs, 0, &q->ok->attrset);

		if (s != NFS4_OK)
			return s;
		err = fs_lookup(dir, name, child, st);
		if (err == 0) {
			/*
			 * There already: a size of 0 truncates it, nothing else is set
			 * (RFC 8881 18.16.3), and only with write access, as knfsd says.
			 */
			q->ok->attrset.bitmap4_len = 0;
			if (!(q->sa.set & FS_SET_SIZE) || q->sa.size != 0) {
				q->sa.set = 0;
				return NFS4_OK;
			}
			q->sa.set = FS_SET_SIZE;
			return (q->access & N4_SHARE_WRITE) ? NFS4_OK : NFS4ERR_INVAL;
		}
		if (err != ENOENT)
			return errno_to_nfs4(err);
		fs_end(child);
		err = fs_create(dir, name, FS_CREATE_UNCHECKED, &q->sa, NULL, child, st);
		break;
	}
	case GUARDED4: {
		nfsstat4 s = create_attrs(q, &how->createhow4_u.createattrs, 0, &q->ok->attrset);

		if (s != NFS4_OK)
			return s;
		err = fs_create(dir, name, FS_CREATE_GUARDED, &q->sa, NULL, child, st);
		break;
	}
	case EXCLUSIVE4:
		if (verifier_attrs(q, &q->ok->attrset) != NFS4_OK)
			return NFS4ERR_DELAY;
		memset(&q->sa, 0, sizeof(q->sa));
		err = fs_create(dir, name, FS_CREATE_EXCLUSIVE, &q->sa,
		    (const uint8_t *)how->createhow4_u.createverf, child, st);
		break;
	case EXCLUSIVE4_1: {
		bitmap4 set;
		nfsstat4 s = q->c->minor == 0 ? NFS4ERR_INVAL :	/* 4.1's (RFC 7530 has three) */
		    create_attrs(q, &how->createhow4_u.ch_createboth.cva_attrs, 1, &set);

		if (s != NFS4_OK)
			return s;
		later = q->sa;
		memset(&q->sa, 0, sizeof(q->sa));
		err = fs_create(dir, name, FS_CREATE_EXCLUSIVE, &q->sa,
		    (const uint8_t *)how->createhow4_u.ch_createboth.cva_verf, child, st);
		if (err == 0 && later.set)
			err = fs_setattr(child, st, &later, NULL);
		if (err == 0)
			err = fs_getattr(child, st);
		if (verifier_attrs(q, &q->ok->attrset) != NFS4_OK)
			return NFS4ERR_DELAY;
		/* attrset: the verifier's times and what cva_attrs set (18.16.3). */
		for (u_int w = 0; w < set.bitmap4_len && w < 2; w++)
			q->ok->attrset.bitmap4_val[w] |= set.bitmap4_val[w];
		break;
	}
	default:
		return NFS4ERR_INVAL;
	}
	if (err == EEXIST && how->mode != GUARDED4 && fs_lookup(dir, name, child, st) == 0 &&
	    check_type(st) != NFS4_OK)
		return check_type(st);
	if (err == 0)
		q->created = 1;
	return errno_to_nfs4(err);
}

/* The file's share reservation and stateid, and it becomes the current filehandle. */
static nfsstat4
open_file(struct open_req *q, struct fs_ctx *file, struct stat *st)
{
	struct n4_open_in in;
	struct n4_stateid sid;
	struct n4_obj o = { .pseudo = 0 };
	struct n4_file f;
	nfsstat4 s;

	if ((s = check_type(st)) != NFS4_OK || (s = check_access(q, file)) != NFS4_OK)
		return s;
	o.ctx = *file;
	file_of(&o, &f);
	memset(&in, 0, sizeof(in));
	in.clientid = q->c->clientid;
	in.owner = q->a->owner.owner.owner_val;
	in.ownerlen = q->a->owner.owner.owner_len;
	in.file = f;
	in.access = q->access;
	in.deny = q->deny;
	in.unconfirmed = q->c->open_unconfirmed;
	/* A delegation in the way is recalled; this open waits for it (DELAY). */
	if ((s = n4_deleg_check(q->c, &f, q->access)) != NFS4_OK)
		return s;
	if ((s = state_status[n4_open(&in, &sid)]) != NFS4_OK)
		return s;
	/* UNCHECKED's truncation of a file that was there, once the open stands. */
	if ((q->sa.set & FS_SET_SIZE) && !q->created &&
	    (s = errno_to_nfs4(fs_setattr(file, st, &q->sa, NULL))) != NFS4_OK)
		return s;
	n4_sid_to_wire(&sid, &q->ok->stateid);
	n4_set_cur_sid(q->c, &q->ok->stateid);
	if (q->may_delegate)
		n4_deleg_offer(q->c, file, &f, q->access, q->deny, &q->ok->delegation);
	return n4_set_cur(q->c, &o);
}

/* No delegation: NONE, or NONE_EXT with the reason when the client said what it wanted. */
static void
no_delegation(const OPEN4args *a, open_delegation4 *d)
{
	uint32_t want = a->share_access & OPEN4_SHARE_ACCESS_WANT_DELEG_MASK;

	if (want == OPEN4_SHARE_ACCESS_WANT_NO_PREFERENCE) {
		d->delegation_type = OPEN_DELEGATE_NONE;
		return;
	}
	d->delegation_type = OPEN_DELEGATE_NONE_EXT;
	if (want == OPEN4_SHARE_ACCESS_WANT_NO_DELEG) {
		d->open_delegation4_u.od_whynone.ond_why = WND4_NOT_WANTED;
	} else if (want == OPEN4_SHARE_ACCESS_WANT_CANCEL) {
		d->open_delegation4_u.od_whynone.ond_why = WND4_CANCELLED;
	} else {
		d->open_delegation4_u.od_whynone.ond_why = WND4_CONTENTION;
		d->open_delegation4_u.od_whynone.open_none_delegation4_u.ond_server_will_push_deleg =
		    FALSE;
	}
}

/* CLAIM_NULL: a name in the current directory, looked up or created. */
static nfsstat4
open_by_name(struct open_req *q, struct n4_obj *dir, const component4 *name)
{
	struct fs_wcc wcc;
	struct fs_ctx child;
	struct stat st;
	char *n;
	nfsstat4 s;
	int err;

	if (dir->pseudo)
		return q->a->openhow.opentype == OPEN4_CREATE ? NFS4ERR_ROFS : NFS4ERR_ISDIR;
	if (!fs_is_dir(&dir->ctx))
		return NFS4ERR_NOTDIR;
	if ((s = n4_name(q->c, name, &n)) != NFS4_OK)
		return s;
	/*
	 * Until a create changes the directory, before and after are one
	 * reading, atomically so; a create puts its own around it (fs_wcc).
	 */
	if ((err = fs_getattr(&dir->ctx, &wcc.before)) != 0)
		return errno_to_nfs4(err);
	wcc.after = wcc.before;
	wcc.valid = wcc.atomic = 1;
	memset(&child, 0, sizeof(child));
	if (q->a->openhow.opentype == OPEN4_CREATE) {
		dir->ctx.wcc = &wcc;
		s = open_create(q, &dir->ctx, n, &child, &st);
	} else {
		s = errno_to_nfs4(fs_lookup(&dir->ctx, n, &child, &st));
	}
	if (s == NFS4_OK)
		s = open_file(q, &child, &st);
	fs_end(&child);
	if (s == NFS4_OK)
		n4_cinfo(&q->ok->cinfo, &wcc, &dir->ctx);
	return s;
}

/* CLAIM_FH: the current filehandle is the file (RFC 8881 18.16.3). */
static nfsstat4
open_by_fh(struct open_req *q, struct n4_obj *o)
{
	struct stat st;
	int err;

	if (o->pseudo)
		return NFS4ERR_ISDIR;
	if (q->a->openhow.opentype == OPEN4_CREATE)
		return NFS4ERR_INVAL;
	if ((err = fs_getattr(&o->ctx, &st)) != 0)
		return errno_to_nfs4(err);
	return open_file(q, &o->ctx, &st);
}

/*
 * A new (not reclaiming) open waits for the reclaims of the grace period
 * (RFC 8881 8.4.2.1), and for its own client's RECLAIM_COMPLETE: a client
 * sends it before its first new lock, and is told GRACE until it has
 * (18.51.3), as knfsd tells it, so that it cannot take a lock it should
 * have reclaimed.
 */
static int
new_open_grace(const struct n4_compound *c)
{
	/* NFSv4.0 has no RECLAIM_COMPLETE: its clients reclaim until the grace period ends. */
	return locks_in_grace() || (c->minor > 0 && !n4_reclaims_done(&c->slot));
}

nfsstat4
n4_op_open(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	OPEN4args *args = &a->nfs_argop4_u.opopen;
	struct open_req q = { c, args, &r->nfs_resop4_u.opopen.OPEN4res_u.resok4, 0, 0, 0, 0,
	    { 0 } };
	open_claim4 *claim = &args->claim;
	struct n4_obj o;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if ((s = check_share(c->minor, args, &q.access, &q.deny)) != NFS4_OK) {
		n4_obj_end(&o);
		return s;
	}
	/* The claims by filehandle are NFSv4.1's (RFC 8881 18.16.1). */
	if (c->minor == 0 && claim->claim > CLAIM_DELEGATE_PREV) {
		n4_obj_end(&o);
		return NFS4ERR_INVAL;
	}
	q.may_delegate = (claim->claim == CLAIM_NULL || claim->claim == CLAIM_FH) &&
	    (args->share_access & OPEN4_SHARE_ACCESS_WANT_DELEG_MASK) !=
	    OPEN4_SHARE_ACCESS_WANT_NO_DELEG;
	switch (claim->claim) {
	case CLAIM_NULL:
		s = new_open_grace(c) ? NFS4ERR_GRACE : open_by_name(&q, &o, &claim->open_claim4_u.file);
		break;
	case CLAIM_FH:
		s = new_open_grace(c) ? NFS4ERR_GRACE : open_by_fh(&q, &o);
		break;
	case CLAIM_PREVIOUS:
		/* The current filehandle is the file the client had open before the restart. */
		if (n4_may_reclaim(c->clientid) != N4_OK) {
			s = NFS4ERR_NO_GRACE;
		} else if (claim->open_claim4_u.delegate_type != OPEN_DELEGATE_NONE &&
		    claim->open_claim4_u.delegate_type != OPEN_DELEGATE_READ) {
			s = NFS4ERR_RECLAIM_BAD;	/* no write delegation was ever handed out */
		} else {
			/*
			 * The open is reclaimed; a read delegation it held comes
			 * back if one may be handed out now (its callback probed
			 * already), else the answer says NONE and the client
			 * caches no more (RFC 8881 10.2.1, 18.16.3).
			 */
			q.may_delegate = claim->open_claim4_u.delegate_type == OPEN_DELEGATE_READ;
			s = open_by_fh(&q, &o);
		}
		break;
	case CLAIM_DELEGATE_CUR:
	case CLAIM_DELEG_CUR_FH:
		s = NFS4ERR_BAD_STATEID;	/* no delegation was ever handed out */
		break;
	case CLAIM_DELEGATE_PREV:
	case CLAIM_DELEG_PREV_FH:
		s = NFS4ERR_NOTSUPP;
		break;
	default:
		s = NFS4ERR_INVAL;
	}
	n4_obj_end(&o);
	if (s == NFS4_OK) {
		q.ok->rflags = OPEN4_RESULT_LOCKTYPE_POSIX;
		if (q.ok->delegation.delegation_type != OPEN_DELEGATE_READ)
			no_delegation(args, &q.ok->delegation);
	}
	return s;
}

nfsstat4
n4_op_open_downgrade(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	OPEN_DOWNGRADE4args *args = &a->nfs_argop4_u.opopen_downgrade;
	OPEN_DOWNGRADE4resok *ok = &r->nfs_resop4_u.opopen_downgrade.OPEN_DOWNGRADE4res_u.resok4;
	const stateid4 *sid = n4_named_sid(c, &args->open_stateid);
	struct n4_stateid in, out;
	struct n4_obj o;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	n4_obj_end(&o);
	if (sid == NULL)
		return NFS4ERR_BAD_STATEID;
	/* Want bits are masked off, not refused (RFC 8881 18.18.3). */
	if (args->share_deny > OPEN4_SHARE_DENY_BOTH)
		return NFS4ERR_INVAL;
	n4_sid_from_wire(sid, &in);
	s = state_status[n4_open_downgrade(c->clientid, &in,
	    args->share_access & OPEN4_SHARE_ACCESS_BOTH, args->share_deny, &out)];
	if (s == NFS4_OK) {
		n4_sid_to_wire(&out, &ok->open_stateid);
		n4_set_cur_sid(c, &ok->open_stateid);
	}
	return s;
}

/* CLOSE's locks: what each lock owner of the open holds on the file, released whole. */
struct close_release {
	struct n4_compound *c;
	struct n4_obj *file;
};

static void
release_owner(void *arg, const void *owner, size_t ownerlen, const struct sockaddr_storage *peer)
{
	struct close_release *cr = arg;

	n4_unlock_all(cr->c, &cr->file->ctx, owner, ownerlen, peer);
}

nfsstat4
n4_op_close(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	stateid4 *ok = &r->nfs_resop4_u.opclose.CLOSE4res_u.open_stateid;
	const stateid4 *sid = n4_named_sid(c, &a->nfs_argop4_u.opclose.open_stateid);
	struct close_release cr = { c, NULL };
	struct n4_stateid in;
	struct n4_file f;
	struct n4_obj o;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if (sid == NULL || o.pseudo) {
		n4_obj_end(&o);
		return NFS4ERR_BAD_STATEID;
	}
	n4_sid_from_wire(sid, &in);
	cr.file = &o;
	s = state_status[n4_close(c->clientid, &in, &f, release_owner, &cr)];
	n4_obj_end(&o);
	if (s != NFS4_OK)
		return s;
	/* What is left of it: the invalid special stateid (RFC 8881 18.2.4). */
	memset(ok, 0, sizeof(*ok));
	ok->seqid = NFS4_UINT32_MAX;
	n4_set_cur_sid(c, ok);
	return NFS4_OK;
}

nfsstat4
n4_op_test_stateid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	TEST_STATEID4args *args = &a->nfs_argop4_u.optest_stateid;
	TEST_STATEID4resok *ok = &r->nfs_resop4_u.optest_stateid.TEST_STATEID4res_u.tsr_resok4;
	u_int n = args->ts_stateids.ts_stateids_len;
	nfsstat4 *codes = call_alloc(c->call, (n ? n : 1) * sizeof(*codes));

	if (codes == NULL)
		return NFS4ERR_DELAY;
	for (u_int i = 0; i < n; i++) {
		const stateid4 *sid = &args->ts_stateids.ts_stateids_val[i];
		struct n4_stateid s;

		/* Special stateids are never valid to test (RFC 8881 18.48.3). */
		if (other_is(sid, 0) || other_is(sid, 0xff)) {
			codes[i] = NFS4ERR_BAD_STATEID;
			continue;
		}
		n4_sid_from_wire(sid, &s);
		codes[i] = state_status[n4_stateid_test(c->clientid, &s)];
	}
	ok->tsr_status_codes.tsr_status_codes_val = codes;
	ok->tsr_status_codes.tsr_status_codes_len = n;
	return NFS4_OK;
}

nfsstat4
n4_op_free_stateid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	const stateid4 *sid = n4_named_sid(c, &a->nfs_argop4_u.opfree_stateid.fsa_stateid);
	struct n4_stateid s;

	(void)r;
	if (sid == NULL || other_is(sid, 0) || other_is(sid, 0xff))
		return NFS4ERR_BAD_STATEID;
	n4_sid_from_wire(sid, &s);
	return state_status[n4_stateid_free(c->clientid, &s)];
}
