/*
 * NFSv4.0 clients (RFC 7530 9.1.1, 9.5, 16.33, 16.34, 16.29): SETCLIENTID,
 * SETCLIENTID_CONFIRM and RENEW, and the client each operation names.
 *
 * NFSv4.0 has no session to say whose a compound is: each operation names
 * its client itself, by a clientid (OPEN's owner, LOCKT's, LOCK's new
 * lock-owner, RELEASE_LOCKOWNER's) or by a stateid (CLOSE, READ, ...).
 * n40_bind finds it before the operation runs, renews its lease (any
 * operation that names a client renews it, 9.5) and tells an earlier boot's
 * clientid or stateid apart (STALE_CLIENTID, STALE_STATEID), which NFSv4.1
 * has no code for.
 */
#include "config.h"

#include <string.h>

#include "nfs4_ops.h"
#include "rpc/req.h"

/* A wire string into buf (cut to fit): callback netids and addresses are short. */
static void
copy_str(char *buf, size_t cap, const char *s)
{
	size_t n = s ? strnlen(s, cap - 1) : 0;

	if (n)
		memcpy(buf, s, n);
	buf[n] = '\0';
}

nfsstat4
n4_op_setclientid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SETCLIENTID4args *args = &a->nfs_argop4_u.opsetclientid;
	SETCLIENTID4res *res = &r->nfs_resop4_u.opsetclientid;
	struct n40_setclientid_in in;
	struct n40_setclientid_out out;
	enum n4_result rr;

	memset(&in, 0, sizeof(in));
	in.id = args->client.id.id_val;
	in.idlen = args->client.id.id_len;
	memcpy(in.verifier, args->client.verifier, N4_VERIFIER_SIZE);
	in.who = n4_principal_of(c);
	in.cb.program = args->callback.cb_program;
	in.cb.ident = args->callback_ident;
	copy_str(in.cb.netid, sizeof(in.cb.netid), args->callback.cb_location.na_r_netid);
	copy_str(in.cb.addr, sizeof(in.cb.addr), args->callback.cb_location.na_r_addr);
	in.addr = c->call->req->peer;
	if (req_local_addr(c->call->req, &in.cb.local) < 0)
		in.cb.local.ss_family = AF_UNSPEC;
	if (in.idlen == 0)
		return NFS4ERR_INVAL;
	rr = n40_setclientid(&in, &out);
	if (rr == N4_CLID_INUSE) {
		char *netid = call_alloc(c->call, sizeof(out.inuse.netid));
		char *addr = call_alloc(c->call, sizeof(out.inuse.addr));

		if (netid == NULL || addr == NULL)
			return NFS4ERR_RESOURCE;
		memcpy(netid, out.inuse.netid, sizeof(out.inuse.netid));
		memcpy(addr, out.inuse.addr, sizeof(out.inuse.addr));
		res->SETCLIENTID4res_u.client_using.na_r_netid = netid;
		res->SETCLIENTID4res_u.client_using.na_r_addr = addr;
		return NFS4ERR_CLID_INUSE;
	}
	if (rr != N4_OK)
		return rr == N4_DELAY ? NFS4ERR_RESOURCE : n4_status[rr];
	res->SETCLIENTID4res_u.resok4.clientid = out.clientid;
	memcpy(res->SETCLIENTID4res_u.resok4.setclientid_confirm, out.confirm, N4_VERIFIER_SIZE);
	return NFS4_OK;
}

nfsstat4
n4_op_setclientid_confirm(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SETCLIENTID_CONFIRM4args *args = &a->nfs_argop4_u.opsetclientid_confirm;
	struct n4_principal who = n4_principal_of(c);

	enum n4_result rr;

	(void)r;
	rr = n40_setclientid_confirm(args->clientid, (const uint8_t *)args->setclientid_confirm,
	    &who);
	/* Does its callback answer (may it get delegations)? Asked in the background. */
	if (rr == N4_OK)
		n40_cb_probe(c, args->clientid);
	return n4_status[rr];
}

nfsstat4
n4_op_renew(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	uint64_t clientid = a->nfs_argop4_u.oprenew.clientid;
	enum n4_result rr = n40_renew(clientid);

	(void)c; (void)r;
	if (rr != N4_OK)
		return n4_status[rr];
	/* Delegations it could not be asked to give back (RFC 7530 16.29.4). */
	if (n40_client_cb_down(clientid) && n4_state_client_delegs(clientid) > 0)
		return NFS4ERR_CB_PATH_DOWN;
	return NFS4_OK;
}

static nfsstat4
bind_clientid(struct n4_compound *c, uint64_t clientid)
{
	if (n40_renew(clientid) != N4_OK)
		return NFS4ERR_STALE_CLIENTID;
	c->clientid = clientid;
	return NFS4_OK;
}

static int
special(const stateid4 *sid)
{
	static const char zero[NFS4_OTHER_SIZE], ones[NFS4_OTHER_SIZE] = {
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };

	return (sid->seqid == 0 && memcmp(sid->other, zero, sizeof(zero)) == 0) ||
	    (sid->seqid == NFS4_UINT32_MAX && memcmp(sid->other, ones, sizeof(ones)) == 0);
}

/*
 * The client a stateid is of. An unknown stateid is left to the operation
 * to refuse (BAD_STATEID, after its own checks); a seqid of 0 is not
 * "the current one" in NFSv4.0 but one older than any handed out.
 */
static nfsstat4
bind_stateid(struct n4_compound *c, const stateid4 *sid, int strict)
{
	struct n4_sid_owner *w = call_alloc(c->call, sizeof(*w));
	struct n4_stateid s;
	enum n4_state_result sr;

	if (w == NULL)
		return NFS4ERR_RESOURCE;
	if (special(sid))
		return NFS4_OK;
	n4_sid_from_wire(sid, &s);
	sr = n4_stateid_owner(&s, w);
	if (sr == N4S_STALE_STATEID)
		return strict ? NFS4ERR_STALE_STATEID : NFS4_OK;
	if (sr != N4S_OK)
		return NFS4_OK;
	if (sid->seqid == 0 && strict)
		return NFS4ERR_OLD_STATEID;
	if (n40_renew(w->clientid) != N4_OK)
		return strict ? NFS4ERR_EXPIRED : NFS4_OK;
	c->clientid = w->clientid;
	return NFS4_OK;
}

nfsstat4
n40_bind(struct n4_compound *c, const nfs_argop4 *a)
{
	const __typeof__(a->nfs_argop4_u) *u = &a->nfs_argop4_u;

	c->clientid = 0;
	switch (a->argop) {
	case OP_OPEN:
		return bind_clientid(c, u->opopen.owner.clientid);
	case OP_LOCKT:
		return bind_clientid(c, u->oplockt.owner.clientid);
	case OP_RELEASE_LOCKOWNER:
		return bind_clientid(c, u->oprelease_lockowner.lock_owner.clientid);
	case OP_LOCK:
		if (u->oplock.locker.new_lock_owner) {
			const open_to_lock_owner4 *o = &u->oplock.locker.locker4_u.open_owner;
			nfsstat4 s = bind_clientid(c, o->lock_owner.clientid);

			if (s == NFS4_OK)
				s = bind_stateid(c, &o->open_stateid, 1);
			/* The open and the new lock-owner are one client's (RFC 7530 16.10.5). */
			if (s == NFS4_OK && c->clientid != o->lock_owner.clientid)
				s = NFS4ERR_BAD_STATEID;
			return s;
		}
		return bind_stateid(c, &u->oplock.locker.locker4_u.lock_owner.lock_stateid, 1);
	case OP_LOCKU:
		return bind_stateid(c, &u->oplocku.lock_stateid, 1);
	case OP_CLOSE:
		return bind_stateid(c, &u->opclose.open_stateid, 1);
	case OP_OPEN_CONFIRM:
		return bind_stateid(c, &u->opopen_confirm.open_stateid, 1);
	case OP_OPEN_DOWNGRADE:
		return bind_stateid(c, &u->opopen_downgrade.open_stateid, 1);
	case OP_READ:
		return bind_stateid(c, &u->opread.stateid, 1);
	case OP_WRITE:
		return bind_stateid(c, &u->opwrite.stateid, 1);
	case OP_SETATTR:
		/* Its stateid counts only for a change of size (nfs4_dirops.c). */
		return bind_stateid(c, &u->opsetattr.stateid, 0);
	case OP_DELEGRETURN:
		return bind_stateid(c, &u->opdelegreturn.deleg_stateid, 1);
	default:
		return NFS4_OK;
	}
}
