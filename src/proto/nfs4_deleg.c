/*
 * NFSv4 read delegations (RFC 8881 10.2, 10.4, 18.6, 20.2): when OPEN hands
 * one out, what recalls it, DELEGRETURN, and revocation. The delegation
 * is state (state/nfs4_state.c); on the server's own file it is a kernel
 * read lease (fs/lease.c), so that a local writer is held back, and our
 * own writes (their descriptors open without blocking) answer DELAY or
 * JUKEBOX, until the client has given it back. Recalls are CB_RECALL on
 * the client's back channel (nfs4_callback.c's connection), sent by a
 * background task.
 *
 * Handed out: for an OPEN of a regular file for reading only, deny
 * none, by a client whose back channel (4.1, 4.2) or callback address
 * (4.0) answered its probe,
 * when nothing writes the file (no open for writing, no writer the
 * kernel knows of: the lease would not be granted), within the bound.
 * Recalled: by another OPEN for writing (its opener hears DELAY until
 * the delegation is back), by a process on the server that opens the
 * file for writing or truncates it (SIGIO, then n4_deleg_run), by a
 * WRITE or SETATTR of the size through us (EAGAIN from the descriptor;
 * the kernel's SIGIO follows). Revoked when not returned within the
 * lease, or when the kernel gave up waiting (its lease-break time).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fs/fh.h"
#include "fs/lease.h"
#include "log.h"
#include "monotime.h"
#include "nfs4_ops.h"
#include "nfs_program.h"
#include "rpc/backchannel.h"
#include "rpc/req.h"
#include "rpc/rpcproc.h"
#include "stats.h"
#include "tasks.h"

#define CB_RECALL_MS	5000
#define CB_BUSY_TRIES	50		/* the session's back channel slot taken: 100 ms each */

static int deleg_enabled = 1;
static int queue_recall(void *arg, uint64_t clientid, const struct n4_stateid *sid,
    const void *fh, size_t fhlen, const struct sockaddr_storage *peer);
static unsigned break_secs = 45;	/* the kernel's lease-break time */

/* ---- recalls ---- */

struct recall_job {
	uint64_t clientid;
	struct n4_stateid sid;
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
};

static void
cb_auth(const struct n4_cb_sec *sec, struct bc_auth *a)
{
	memset(a, 0, sizeof(*a));
	a->flavor = sec->flavor;
	a->uid = sec->uid;
	a->gid = sec->gid;
	memcpy(a->machine, sec->machine, sizeof(a->machine));
}

/* NFSv4.0: CB_COMPOUND { CB_RECALL } to SETCLIENTID's callback address. */
static int
send_recall40(const struct recall_job *j)
{
	nfs_cb_argop4 op;
	CB_COMPOUND4args args;
	CB_COMPOUND4res res;
	char err[128];
	int ok;

	memset(&op, 0, sizeof(op));
	op.argop = OP_CB_RECALL;
	n4_sid_to_wire(&j->sid, &op.nfs_cb_argop4_u.opcbrecall.stateid);
	op.nfs_cb_argop4_u.opcbrecall.fh.nfs_fh4_val = (char *)(uintptr_t)j->fh;
	op.nfs_cb_argop4_u.opcbrecall.fh.nfs_fh4_len = j->fhlen;
	memset(&args, 0, sizeof(args));
	args.tag.utf8string_val = (char *)"";
	args.minorversion = 0;
	args.argarray.argarray_val = &op;
	args.argarray.argarray_len = 1;
	memset(&res, 0, sizeof(res));
	ok = n40_cb_call(j->clientid, CB_COMPOUND, XDRPROC(xdr_CB_COMPOUND4args), &args,
	    XDRPROC(xdr_CB_COMPOUND4res), &res, &args.callback_ident, err, sizeof(err)) == 0;
	if (!ok) {
		log_info("NFSv4.0 client %016llx: CB_RECALL: %s; the delegation is revoked after "
		    "the lease", (unsigned long long)j->clientid, err);
		n40_client_cb_up(j->clientid, 0);	/* RENEW says CB_PATH_DOWN */
		return -1;
	}
	xdr_free(XDRPROC(xdr_CB_COMPOUND4res), (char *)&res);
	return 0;
}

/* CB_COMPOUND { CB_SEQUENCE, CB_RECALL } on one of the client's back channels. */
static int
send_recall(const struct recall_job *j)
{
	uint8_t sessionid[N4_SESSIONID_SIZE];
	nfs_cb_argop4 ops[2];
	CB_COMPOUND4args args;
	CB_COMPOUND4res res;
	struct n4_back b;
	struct bc_auth auth;
	enum n4_result r = N4_DELAY;
	char err[96];
	int ok;

	for (int i = 0; i < CB_BUSY_TRIES && (r = n4_client_back(j->clientid, sessionid, &b)) ==
	    N4_DELAY; i++)
		usleep(100000);
	if (r == N4_STALE_CLIENTID)
		return send_recall40(j);	/* no sessions: an NFSv4.0 client */
	if (r != N4_OK) {
		log_info("NFSv4 client %016llx: no back channel to recall a delegation on; "
		    "it is revoked after the lease", (unsigned long long)j->clientid);
		return -1;
	}
	memset(ops, 0, sizeof(ops));
	ops[0].argop = OP_CB_SEQUENCE;
	memcpy(ops[0].nfs_cb_argop4_u.opcbsequence.csa_sessionid, sessionid, N4_SESSIONID_SIZE);
	ops[0].nfs_cb_argop4_u.opcbsequence.csa_sequenceid = b.seq;
	ops[1].argop = OP_CB_RECALL;
	n4_sid_to_wire(&j->sid, &ops[1].nfs_cb_argop4_u.opcbrecall.stateid);
	ops[1].nfs_cb_argop4_u.opcbrecall.fh.nfs_fh4_val = (char *)(uintptr_t)j->fh;
	ops[1].nfs_cb_argop4_u.opcbrecall.fh.nfs_fh4_len = j->fhlen;
	memset(&args, 0, sizeof(args));
	args.tag.utf8string_val = (char *)"";
	args.minorversion = b.minor;
	args.argarray.argarray_val = ops;
	args.argarray.argarray_len = 2;
	memset(&res, 0, sizeof(res));
	cb_auth(&b.sec, &auth);
	ok = bc_call(b.conn, b.program, NFS_CB, CB_COMPOUND, &auth, XDRPROC(xdr_CB_COMPOUND4args),
	    &args, XDRPROC(xdr_CB_COMPOUND4res), &res, CB_RECALL_MS, err, sizeof(err)) == 0;
	if (!ok)
		log_info("NFSv4 client %016llx: CB_RECALL: %s", (unsigned long long)j->clientid, err);
	else if (res.status != NFS4_OK)
		log_debug("NFSv4 client %016llx: CB_RECALL answered %d",
		    (unsigned long long)j->clientid, (int)res.status);
	if (ok)
		xdr_free(XDRPROC(xdr_CB_COMPOUND4res), (char *)&res);
	n4_session_back_done(sessionid, ok);
	return ok ? 0 : -1;
}

static void
recall_task(void *arg, int cancelled)
{
	struct recall_job *j = arg;

	if (!cancelled)
		send_recall(j);
	free(j);
}

/*
 * A client that answers no recall holds a task thread for CB_RECALL_MS a
 * time: a few at a time per client address, so that it cannot hold them
 * all (NLM's callbacks need them too). The rest wait for the next tick.
 */
#define CB_RECALLS_PER_PEER 4

/* n4_recall_fn: the state lock is held, so the call goes to a task. */
static int
queue_recall(void *arg, uint64_t clientid, const struct n4_stateid *sid, const void *fh,
    size_t fhlen, const struct sockaddr_storage *peer)
{
	struct recall_job *j;

	(void)arg;
	if (fhlen > sizeof(j->fh) || (j = malloc(sizeof(*j))) == NULL)
		return -1;
	j->clientid = clientid;
	j->sid = *sid;
	j->fhlen = (uint32_t)fhlen;
	memcpy(j->fh, fh, fhlen);
	if (tasks_push_for(peer, CB_RECALLS_PER_PEER, recall_task, j) < 0) {
		free(j);
		return -1;	/* asked again on the next tick */
	}
	STAT_INC(ST_DELEG_RECALLED);
	return 0;
}

/* ---- OPEN's side ---- */

nfsstat4
n4_deleg_check(struct n4_compound *c, const struct n4_file *f, unsigned access)
{
	/* Recalled now; the opener asks again once it is back (RFC 8881 10.4.1). */
	if (n4_deleg_conflicts(f, c->clientid, access, mono_sec(), queue_recall, NULL) > 0)
		return NFS4ERR_DELAY;
	return NFS4_OK;
}

void
n4_deleg_offer(struct n4_compound *c, struct fs_ctx *file, const struct n4_file *f,
    unsigned access, unsigned deny, open_delegation4 *d)
{
	open_read_delegation4 *rd = &d->open_delegation4_u.read;
	struct n4_deleg_in in;
	struct n4_stateid sid;
	uint8_t fh[NFS4_FHSIZE];
	size_t fhlen = fh_encode(fs_handle(file), fh, sizeof(fh));
	int lease;

	if (!deleg_enabled || (file->flags & FS_CTX_NODELEG) || access != N4_SHARE_READ ||
	    deny != 0 || fhlen == 0 || !n4_client_cb_up(c->clientid))
		return;
	if ((lease = fs_lease_take(file)) < 0)
		return;		/* written, or leases not allowed here: no delegation */
	memset(&in, 0, sizeof(in));
	in.clientid = c->clientid;
	in.file = *f;
	in.lease = lease;
	in.fh = fh;
	in.fhlen = fhlen;
	in.minor0 = c->minor == 0;
	in.peer = &c->call->req->peer;
	if (n4_deleg_grant(&in, &sid) != N4S_OK) {
		fs_lease_drop(lease);
		return;
	}
	STAT_INC(ST_DELEG_GRANTED);
	n4_sid_to_wire(&sid, &rd->stateid);
	n4_deleg_read_result(&rd->stateid, d);
}

void
n4_deleg_read_result(const stateid4 *sid, open_delegation4 *d)
{
	open_read_delegation4 *rd = &d->open_delegation4_u.read;

	d->delegation_type = OPEN_DELEGATE_READ;
	rd->stateid = *sid;
	rd->recall = FALSE;
	/* Who may open it for reading without asking: everyone the server would let. */
	rd->permissions.type = ACE4_ACCESS_ALLOWED_ACE_TYPE;
	rd->permissions.flag = 0;
	rd->permissions.access_mask = ACE4_READ_DATA;
	rd->permissions.who.utf8string_val = (char *)"EVERYONE@";
	rd->permissions.who.utf8string_len = 9;
}

/* ---- DELEGRETURN, and the main loop's tick ---- */

nfsstat4
n4_op_delegreturn(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	const stateid4 *sid = n4_named_sid(c, &a->nfs_argop4_u.opdelegreturn.deleg_stateid);
	struct n4_stateid s;
	struct n4_obj o;
	nfsstat4 st;

	(void)r;
	if ((st = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return st;
	n4_obj_end(&o);
	if (sid == NULL)
		return NFS4ERR_BAD_STATEID;
	n4_sid_from_wire(sid, &s);
	st = n4_state_status(n4_deleg_return(c->clientid, &s));
	if (st == NFS4_OK)
		STAT_INC(ST_DELEG_RETURNED);
	return st;
}

/*
 * fs_change_hook: another client's (or a v2/v3 client's, or NLM's) change
 * of a delegated file's attributes or names waits for the recall (EAGAIN:
 * DELAY, JUKEBOX); the holder's own does not.
 */
static int
change_hook(const struct fs_ctx *ctx, uint32_t export_id, uint64_t ino)
{
	struct n4_file f = { export_id, ino };
	uint64_t except = ctx->call ? ctx->call->client_tag : 0;

	return n4_deleg_break_others(&f, except, mono_sec(), queue_recall, NULL) > 0 ? EAGAIN : 0;
}

void
n4_deleg_enable(int on)
{
	deleg_enabled = on;
	break_secs = fs_lease_break_secs();
	fs_set_change_hook(change_hook);
}

void
n4_deleg_run(int lease_signal)
{
	unsigned revoked = 0, limit = n4_lease();

	/*
	 * Not returned within the lease: revoked, or sooner if the kernel
	 * would take the lease away from a held-back writer before that.
	 */
	if (break_secs > 1 && limit > break_secs - 1)
		limit = break_secs - 1;
	n4_deleg_tick(mono_sec(), limit, lease_signal, queue_recall, NULL, &revoked);
	for (unsigned i = 0; i < revoked; i++)
		STAT_INC(ST_DELEG_REVOKED);
	if (revoked)
		log_info("NFSv4: %u delegation%s revoked (not returned in time)", revoked,
		    revoked == 1 ? "" : "s");
}
