/*
 * NFSv4.1 session operations (RFC 8881 18.34-18.37, 18.46, 18.50, 18.51):
 * EXCHANGE_ID, CREATE_SESSION, SEQUENCE, DESTROY_SESSION, DESTROY_CLIENTID,
 * RECLAIM_COMPLETE and BIND_CONN_TO_SESSION. Decoded arguments go to the
 * state layer (state/nfs4_clients.c) as plain data; its results come back
 * through one table.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "creds.h"
#include "fs/fh.h"
#include "rpc/backchannel.h"
#include "rpc/gss_proto.h"
#include "nfs4_ops.h"
#include "nfs_program.h"
#include "rpc/req.h"
#include "rpc/transport.h"

const nfsstat4 n4_status[N4_NRESULTS] = {
	[N4_OK] = NFS4_OK,
	[N4_STALE_CLIENTID] = NFS4ERR_STALE_CLIENTID,
	[N4_CLID_INUSE] = NFS4ERR_CLID_INUSE,
	[N4_NOENT] = NFS4ERR_NOENT,
	[N4_NOT_SAME] = NFS4ERR_NOT_SAME,
	[N4_PERM] = NFS4ERR_PERM,
	[N4_SEQ_MISORDERED] = NFS4ERR_SEQ_MISORDERED,
	[N4_BADSESSION] = NFS4ERR_BADSESSION,
	[N4_BADSLOT] = NFS4ERR_BADSLOT,
	[N4_DELAY] = NFS4ERR_DELAY,
	[N4_NOSPC] = NFS4ERR_NOSPC,
	[N4_CLIENTID_BUSY] = NFS4ERR_CLIENTID_BUSY,
	[N4_COMPLETE_ALREADY] = NFS4ERR_COMPLETE_ALREADY,
	[N4_TOO_MANY_OPS] = NFS4ERR_TOO_MANY_OPS,
	[N4_REQ_TOO_BIG] = NFS4ERR_REQ_TOO_BIG,
	[N4_NO_GRACE] = NFS4ERR_NO_GRACE,
	[N4_REPLAY] = NFS4_OK,
	[N4_REPLAY_UNCACHED] = NFS4_OK,
};

/* The smallest channel a compound with SEQUENCE fits in (RFC 8881 18.36.3, TOOSMALL). */
#define N4_MIN_REQUEST	128
#define N4_MIN_RESPONSE	128
/* Requests carry a 1 MiB WRITE and its headers; replies a 1 MiB READ. */
#define N4_MAX_REQUEST	RPC_MAX_RECORD
#define N4_MAX_RESPONSE	RPC_MAX_RECORD

/*
 * Who is calling, for RFC 8881 18.35/18.36's "same principal" rules:
 * AUTH_SYS's ids, or under RPCSEC_GSS the principal's name (host/a and
 * host/b are both unmapped, with the same ids).
 */
struct n4_principal
n4_principal_of(const struct n4_compound *c)
{
	const struct rpc_cred *cr = &c->call->cred;
	struct n4_principal p = { cr->flavor, cr->uid, cr->gid, 0 };

	if (cr->flavor == RPCSEC_GSS_FLAVOR && cr->gss) {
		uint64_t h = 14695981039346656037ull;	/* FNV-1a */

		for (const char *s = cr->gss->principal; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
		p.name = h;
	}
	return p;
}

/*
 * EXCHANGE_ID's server scope and owner (RFC 8881 2.10.4, 2.10.5). The
 * scope names the servers whose handles mean the same: those sealing them
 * with one key, so every head that shares --handle-key, and a single
 * server across its restarts. A client finding another scope after a
 * restart would not reclaim (the Linux client goes straight to new opens),
 * so it must not depend on the host a head runs on. The owner's major id
 * names whose state this is: the server identity, which is its state
 * directory's last component and moves with it to the head that takes
 * over (DESIGN.md, "Several heads"), within the scope.
 */
static struct {
	char scope[32];
	char major[300];
} srv;

void
n4_server_names_init(const char *statedir)
{
	const char *id = statedir, *end;
	size_t len;

	snprintf(srv.scope, sizeof(srv.scope), "usernfsd-%016llx",
	    (unsigned long long)fh_key_tag("usernfsd NFSv4 server scope"));
	/* The last component, trailing slashes aside: /srv/nfs/vip-a/ names vip-a. */
	for (end = statedir + strlen(statedir); end > statedir && end[-1] == '/'; end--)
		;
	for (id = end; id > statedir && id[-1] != '/'; id--)
		;
	len = (size_t)(end - id);
	snprintf(srv.major, sizeof(srv.major), "%.*s@%s", (int)(len ? len : 1),
	    len ? id : "/", srv.scope);
}

static nfsstat4
exchange_check(uint32_t minor, const EXCHANGE_ID4args *a)
{
	uint32_t mask = EXCHGID4_FLAG_MASK_A | (minor >= 2 ? EXCHGID4_FLAG_SUPP_FENCE_OPS : 0);

	if (a->eia_flags & ~mask)
		return NFS4ERR_INVAL;
	if (a->eia_clientowner.co_ownerid.co_ownerid_len == 0)
		return NFS4ERR_INVAL;
	switch (a->eia_state_protect.spa_how) {
	case SP4_NONE:
		return NFS4_OK;
	case SP4_MACH_CRED:
		return NFS4ERR_INVAL;		/* needs RPCSEC_GSS integrity (issue 28) */
	case SP4_SSV:
		return NFS4ERR_ENCR_ALG_UNSUPP;
	}
	return NFS4ERR_INVAL;
}

nfsstat4
n4_op_exchange_id(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	EXCHANGE_ID4args *args = &a->nfs_argop4_u.opexchange_id;
	EXCHANGE_ID4resok *ok = &r->nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4;
	struct n4_exchange_in in;
	struct n4_exchange_out out;
	nfs_impl_id4 *impl;
	enum n4_result res;
	nfsstat4 st = exchange_check(c->minor, args);

	if (st != NFS4_OK)
		return st;
	memset(&in, 0, sizeof(in));
	in.owner = args->eia_clientowner.co_ownerid.co_ownerid_val;
	in.ownerlen = args->eia_clientowner.co_ownerid.co_ownerid_len;
	memcpy(in.verifier, args->eia_clientowner.co_verifier, N4_VERIFIER_SIZE);
	in.who = n4_principal_of(c);
	in.update = (args->eia_flags & EXCHGID4_FLAG_UPD_CONFIRMED_REC_A) != 0;
	in.minor = c->minor;
	in.addr = c->call->req->peer;
	if ((res = n4_exchange_id(&in, &out)) != N4_OK)
		return n4_status[res];
	if ((impl = call_alloc(c->call, sizeof(*impl))) == NULL)
		return NFS4ERR_SERVERFAULT;
	ok->eir_clientid = out.clientid;
	ok->eir_sequenceid = out.sequenceid;
	/* Exactly one pNFS role (RFC 8881 13.1): we serve no layouts. */
	ok->eir_flags = EXCHGID4_FLAG_USE_NON_PNFS | (out.confirmed ? EXCHGID4_FLAG_CONFIRMED_R : 0);
	ok->eir_state_protect.spr_how = SP4_NONE;
	ok->eir_server_owner.so_minor_id = 0;
	if (srv.scope[0] == '\0')	/* no daemon around it (fuzz_rpc) */
		n4_server_names_init("usernfsd");
	ok->eir_server_owner.so_major_id.so_major_id_val = srv.major;
	ok->eir_server_owner.so_major_id.so_major_id_len = (u_int)strlen(srv.major);
	ok->eir_server_scope.eir_server_scope_val = srv.scope;
	ok->eir_server_scope.eir_server_scope_len = (u_int)strlen(srv.scope);
	impl->nii_domain.utf8string_val = (char *)"usernfsd.invalid";
	impl->nii_domain.utf8string_len = (u_int)strlen("usernfsd.invalid");
	impl->nii_name.utf8string_val = (char *)"usernfsd " PACKAGE_VERSION;
	impl->nii_name.utf8string_len = (u_int)strlen("usernfsd " PACKAGE_VERSION);
	ok->eir_server_impl_id.eir_server_impl_id_val = impl;
	ok->eir_server_impl_id.eir_server_impl_id_len = 1;
	return NFS4_OK;
}

static uint32_t
clamp(uint32_t v, uint32_t max)
{
	return v < max ? v : max;
}

static void
channel_in(const channel_attrs4 *ca, struct n4_channel *ch)
{
	ch->maxrequestsize = clamp(ca->ca_maxrequestsize, N4_MAX_REQUEST);
	ch->maxresponsesize = clamp(ca->ca_maxresponsesize, N4_MAX_RESPONSE);
	ch->maxresponsesize_cached = ca->ca_maxresponsesize_cached;
	ch->maxoperations = clamp(ca->ca_maxoperations, N4_MAX_OPS);
	ch->maxrequests = ca->ca_maxrequests;
}

/* As granted: no header padding, no RDMA. */
static void
channel_out(const struct n4_channel *ch, channel_attrs4 *ca)
{
	memset(ca, 0, sizeof(*ca));
	ca->ca_maxrequestsize = ch->maxrequestsize;
	ca->ca_maxresponsesize = ch->maxresponsesize;
	ca->ca_maxresponsesize_cached = ch->maxresponsesize_cached;
	ca->ca_maxoperations = ch->maxoperations;
	ca->ca_maxrequests = ch->maxrequests;
}

static int
channel_too_small(const channel_attrs4 *ca)
{
	return ca->ca_maxrequestsize < N4_MIN_REQUEST || ca->ca_maxresponsesize < N4_MIN_RESPONSE ||
	    ca->ca_maxoperations < 2 || ca->ca_maxrequests == 0;
}

/*
 * The back channel binds us as the requester (RFC 8881 18.36.3): sizes
 * no CB_COMPOUND of CB_SEQUENCE and one more operation fits in are
 * TOOSMALL, as knfsd has it, even while no back channel is granted, so
 * that a client learns it at once and not at its first callback. Its
 * slot count is not checked: knfsd does not, and clients send 1.
 */
static int
back_channel_too_small(const channel_attrs4 *ca)
{
	return ca->ca_maxrequestsize < N4_MIN_REQUEST || ca->ca_maxresponsesize < N4_MIN_RESPONSE ||
	    ca->ca_maxoperations < 2;
}

/* The csa_flags RFC 8881 18.36 defines; any other bit is INVAL, as in knfsd. */
#define N4_CREATE_SESSION_FLAGS (CREATE_SESSION4_FLAG_PERSIST | \
	CREATE_SESSION4_FLAG_CONN_BACK_CHAN | CREATE_SESSION4_FLAG_CONN_RDMA)

nfsstat4
n4_op_create_session(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	CREATE_SESSION4args *args = &a->nfs_argop4_u.opcreate_session;
	CREATE_SESSION4resok *ok = &r->nfs_resop4_u.opcreate_session.CREATE_SESSION4res_u.csr_resok4;
	struct n4_create_in in;
	struct n4_create_out out;
	enum n4_result res;

	if (args->csa_flags & ~(uint32_t)N4_CREATE_SESSION_FLAGS)
		return NFS4ERR_INVAL;
	/*
	 * Arguments refused before the client record is looked at: they take
	 * no csa_sequence, so the same one, corrected, still creates.
	 */
	if (channel_too_small(&args->csa_fore_chan_attrs) ||
	    back_channel_too_small(&args->csa_back_chan_attrs))
		return NFS4ERR_TOOSMALL;
	memset(&in, 0, sizeof(in));
	in.clientid = args->csa_clientid;
	in.sequence = args->csa_sequence;
	in.who = n4_principal_of(c);
	in.flags = args->csa_flags;
	channel_in(&args->csa_fore_chan_attrs, &in.fore);
	channel_in(&args->csa_back_chan_attrs, &in.back);
	in.cb_program = args->csa_cb_program;
	/*
	 * A back channel on this connection, when the client asks for one and
	 * lists a credential we can call with (RFC 8881 18.36.3: else the
	 * flag is not granted and the client may bind one later).
	 */
	if ((args->csa_flags & CREATE_SESSION4_FLAG_CONN_BACK_CHAN) &&
	    n4_cb_sec_choose(args->csa_sec_parms.csa_sec_parms_val,
	    args->csa_sec_parms.csa_sec_parms_len, &in.cb_sec) == 0)
		in.back_conn = bc_hold(c->call->req);
	/*
	 * A confirmation writes the client's record into the state directory,
	 * the daemon's: as the daemon, not as whoever this worker's previous
	 * call was (under Kerberos or root_squash, a user who cannot write it).
	 */
	if (creds_root(call_creds(c->call)) < 0)
		return NFS4ERR_SERVERFAULT;
	if ((res = n4_create_session(&in, &out)) != N4_OK)
		return n4_status[res];
	memcpy(ok->csr_sessionid, out.sessionid, N4_SESSIONID_SIZE);
	ok->csr_sequence = out.sequence;
	ok->csr_flags = out.flags;
	if (out.flags & N4_FLAG_CONN_BACK_CHAN)
		n4_cb_probe(c, out.sessionid);
	channel_out(&out.fore, &ok->csr_fore_chan_attrs);
	channel_out(&out.back, &ok->csr_back_chan_attrs);
	return NFS4_OK;
}

nfsstat4
n4_op_sequence(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SEQUENCE4args *args = &a->nfs_argop4_u.opsequence;
	SEQUENCE4resok *ok = &r->nfs_resop4_u.opsequence.SEQUENCE4res_u.sr_resok4;
	struct n4_sequence_in in;
	struct n4_sequence_out out;
	enum n4_result res;
	void *cache = call_alloc(c->call, N4_SLOT_CACHE_MAX);

	if (cache == NULL)
		return NFS4ERR_SERVERFAULT;
	memcpy(in.sessionid, args->sa_sessionid, N4_SESSIONID_SIZE);
	in.sequenceid = args->sa_sequenceid;
	in.slotid = args->sa_slotid;
	in.highest_slotid = args->sa_highest_slotid;
	in.nops = c->nops;
	in.reqlen = c->call->req->len;
	res = n4_sequence(&in, &out, &c->slot, cache, &c->replay_len);
	switch (res) {
	case N4_OK:
		c->in_session = 1;
		c->clientid = out.clientid;
		c->cachethis = args->sa_cachethis;
		memcpy(c->sessionid, args->sa_sessionid, N4_SESSIONID_SIZE);
		break;
	case N4_REPLAY:
		c->replay = cache;
		return NFS4_OK;
	case N4_REPLAY_UNCACHED:
		c->replay_uncached = 1;
		break;
	default:
		return n4_status[res];
	}
	memcpy(ok->sr_sessionid, args->sa_sessionid, N4_SESSIONID_SIZE);
	ok->sr_sequenceid = args->sa_sequenceid;
	ok->sr_slotid = args->sa_slotid;
	ok->sr_highest_slotid = out.highest_slotid;
	ok->sr_target_highest_slotid = out.target_highest_slotid;
	ok->sr_status_flags = out.status_flags;
	/*
	 * A back channel the client asked for that is gone (its connection
	 * closed) or did not answer the probe: the client binds another
	 * connection (RFC 8881 18.46.3). While a probe runs, it is not down.
	 */
	if (out.back_wanted && (!bc_is_open(out.back_conn) || out.back_up == 0))
		ok->sr_status_flags |= SEQ4_STATUS_CB_PATH_DOWN_SESSION;
	/* A delegation it did not return in time: it tests its stateids and frees them. */
	if (n4_state_client_revoked(out.clientid))
		ok->sr_status_flags |= SEQ4_STATUS_RECALLABLE_STATE_REVOKED;
	return NFS4_OK;
}

nfsstat4
n4_op_destroy_session(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	DESTROY_SESSION4args *args = &a->nfs_argop4_u.opdestroy_session;

	(void)r;
	/* Its own session, after SEQUENCE: only as the last operation (RFC 8881 18.37.3). */
	if (c->in_session && c->index + 1 < c->nops &&
	    n4_slot_is_session(&c->slot, (const uint8_t *)args->dsa_sessionid))
		return NFS4ERR_NOT_ONLY_OP;
	return n4_status[n4_destroy_session((const uint8_t *)args->dsa_sessionid)];
}

nfsstat4
n4_op_destroy_clientid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	(void)c; (void)r;
	return n4_status[n4_destroy_clientid(a->nfs_argop4_u.opdestroy_clientid.dca_clientid)];
}

nfsstat4
n4_op_reclaim_complete(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	(void)r;
	/*
	 * One file system's, that of the current filehandle (RFC 8881 18.51.3):
	 * reclaims end for every file system at once here (no migration), so
	 * it says nothing we keep; it is answered as knfsd answers it, and the
	 * client's own RECLAIM_COMPLETE (rca_one_fs FALSE) is still awaited.
	 */
	if (a->nfs_argop4_u.opreclaim_complete.rca_one_fs)
		return c->cur.len == 0 ? NFS4ERR_NOFILEHANDLE : NFS4_OK;
	return n4_status[n4_reclaim_complete(&c->slot)];
}

/*
 * The fore channel takes any connection (SP4_NONE). The back channel
 * moves to this connection when the client asks for it (BACK, or either
 * *_OR_BOTH), the connection it had released; a probe then tells whether
 * it answers. A connection we cannot hold serves the fore channel only.
 */
nfsstat4
n4_op_bind_conn(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	BIND_CONN_TO_SESSION4args *args = &a->nfs_argop4_u.opbind_conn_to_session;
	BIND_CONN_TO_SESSION4resok *ok =
	    &r->nfs_resop4_u.opbind_conn_to_session.BIND_CONN_TO_SESSION4res_u.bctsr_resok4;
	const uint8_t *sid = (const uint8_t *)args->bctsa_sessid;
	enum n4_result res;
	uint64_t conn = 0;
	int back;

	switch (args->bctsa_dir) {
	case CDFC4_FORE:
		back = 0;
		break;
	case CDFC4_BACK:
	case CDFC4_FORE_OR_BOTH:
	case CDFC4_BACK_OR_BOTH:
		back = 1;
		break;
	default:
		return NFS4ERR_INVAL;
	}
	if ((res = n4_session_exists(sid)) != N4_OK)
		return n4_status[res];
	if (back && (conn = bc_hold(c->call->req)) == 0 && args->bctsa_dir != CDFC4_FORE_OR_BOTH)
		return NFS4ERR_RESOURCE;	/* the table of held connections is full */
	if (conn && (res = n4_session_set_back(sid, conn, NULL, NULL)) != N4_OK)
		return n4_status[res];
	memcpy(ok->bctsr_sessid, args->bctsa_sessid, N4_SESSIONID_SIZE);
	ok->bctsr_dir = conn == 0 ? CDFS4_FORE : args->bctsa_dir == CDFC4_BACK ? CDFS4_BACK :
	    CDFS4_BOTH;
	ok->bctsr_use_conn_in_rdma_mode = FALSE;
	if (conn)
		n4_cb_probe(c, sid);
	return NFS4_OK;
}
