/*
 * NFSv4 COMPOUND (RFC 8881 2.10.6, 15.2, 16.2): decodes the operations one
 * at a time with rpcgen's routines, runs them in order until one fails,
 * checks where each may stand, and keeps the reply in the session's slot
 * when the client asked for it (sa_cachethis).
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "log.h"
#include "nfs4.h"
#include "nfs4_ops.h"
#include "rpc/rpcproc.h"
#include "rpc/xdr_inplace.h"
#include "stats.h"

static unsigned minors_served;		/* 1 << minor */
static int op_slot_base = -1;		/* the "nfs4ops" statistics slots */

/*
 * The arguments as decoded: the operations up to the first that did not
 * decode, and why that one did not (BADXDR, OP_ILLEGAL), which it answers
 * once those before it ran. A call with more operations than any session
 * grants is not decoded past its header: TOO_MANY_OPS.
 */
struct n4_args {
	COMPOUND4args a;
	unsigned ndecoded;
	nfsstat4 bad;			/* NFS4_OK: every operation decoded */
	nfs_opnum4 bad_op;
};

/* The reply: the results, or the cached bytes of a retry's original reply. */
struct n4_reply {
	COMPOUND4res r;
	const void *raw;
	size_t rawlen;
};

/* WRITE's data stays in the request buffer (rpc/xdr_inplace.h). */
static bool_t
decode_write(XDR *x, WRITE4args *w)
{
	return xdr_stateid4(x, &w->stateid) && xdr_offset4(x, &w->offset) &&
	    xdr_stable_how4(x, &w->stable) &&
	    xdr_opaque_inplace(x, &w->data.data_val, &w->data.data_len, NFS4_MAXDATA);
}

/* Operations of later minor versions are not known to a compound of this one (RFC 8881 15.2). */
static int
op_known(uint32_t op, uint32_t minor)
{
	uint32_t last = minor >= 2 ? N4_OP_LAST : minor == 1 ? OP_RECLAIM_COMPLETE :
	    OP_RELEASE_LOCKOWNER;

	return op >= OP_ACCESS && op <= last;
}

/* One operation into o; FALSE with a->bad and a->bad_op set if it did not decode. */
static bool_t
decode_op(XDR *x, struct n4_args *a, nfs_argop4 *o)
{
	u_int pos = xdr_getpos(x);
	uint32_t op;

	if (!xdr_uint32_t(x, &op)) {
		a->bad = NFS4ERR_BADXDR;
		a->bad_op = OP_ILLEGAL;
		return FALSE;
	}
	if (!op_known(op, a->a.minorversion)) {
		a->bad = NFS4ERR_OP_ILLEGAL;
		a->bad_op = OP_ILLEGAL;
		return FALSE;
	}
	if (op == OP_WRITE) {
		o->argop = OP_WRITE;
		if (decode_write(x, &o->nfs_argop4_u.opwrite))
			return TRUE;
	} else if (xdr_setpos(x, pos) && xdr_nfs_argop4(x, o)) {
		return TRUE;
	}
	/* What rpcgen allocated before it failed goes now, not with the rest. */
	if (op != OP_WRITE)
		xdr_free(XDRPROC(xdr_nfs_argop4), (char *)o);
	memset(o, 0, sizeof(*o));
	a->bad = NFS4ERR_BADXDR;
	a->bad_op = op;
	return FALSE;
}

static void
free_args(struct n4_args *a)
{
	nfs_argop4 *ops = a->a.argarray.argarray_val;

	for (unsigned i = 0; i < a->ndecoded; i++)
		if (ops[i].argop != OP_WRITE)	/* its data is the request's */
			xdr_free(XDRPROC(xdr_nfs_argop4), (char *)&ops[i]);
	free(ops);
	free(a->a.tag.utf8string_val);
	memset(a, 0, sizeof(*a));
}

static bool_t
xdr_n4_args(XDR *x, struct n4_args *a)
{
	uint32_t count;
	nfs_argop4 *ops;

	if (x->x_op == XDR_FREE) {
		free_args(a);
		return TRUE;
	}
	if (x->x_op != XDR_DECODE)
		return FALSE;
	if (!xdr_utf8str_cs(x, &a->a.tag) || !xdr_uint32_t(x, &a->a.minorversion) ||
	    !xdr_uint32_t(x, &count))
		return FALSE;
	if (count > NFS4_COMPOUND_MAX) {
		a->bad = NFS4ERR_TOO_MANY_OPS;
		return TRUE;
	}
	if (count == 0)
		return TRUE;
	if ((ops = calloc(count, sizeof(*ops))) == NULL)
		return FALSE;
	a->a.argarray.argarray_val = ops;
	a->a.argarray.argarray_len = count;
	while (a->ndecoded < count && decode_op(x, a, &ops[a->ndecoded]))
		a->ndecoded++;
	return TRUE;
}

static bool_t
xdr_n4_reply(XDR *x, struct n4_reply *p)
{
	if (p->raw)
		return xdr_opaque(x, (char *)(uintptr_t)p->raw, (u_int)p->rawlen);
	return xdr_COMPOUND4res(x, &p->r);
}

/*
 * RFC 8881 2.10.6.2-3, 16.2.3 and 18's per-operation rules: where the
 * operation at index i may stand, NFS4_OK if there.
 */
static nfsstat4
check_position(const struct n4_compound *c, uint32_t op)
{
	const struct n4_op *d = &n4_ops[op];

	if (c->minor == 0)
		return NFS4_OK;		/* no sessions: any operation anywhere (RFC 7530 15.2) */
	if (d->flags & OP4_V40_ONLY)
		return NFS4ERR_NOTSUPP;
	if ((d->flags & OP4_MINOR2) && c->minor < 2)
		return NFS4ERR_OP_ILLEGAL;
	if (c->index == 0) {
		if (op == OP_SEQUENCE)
			return NFS4_OK;
		if (!(d->flags & OP4_SESSIONLESS))
			return NFS4ERR_OP_NOT_IN_SESSION;
		return c->nops > 1 ? NFS4ERR_NOT_ONLY_OP : NFS4_OK;
	}
	if (op == OP_SEQUENCE)
		return NFS4ERR_SEQUENCE_POS;
	if (d->flags & OP4_ALONE)
		return NFS4ERR_NOT_ONLY_OP;
	return NFS4_OK;
}

static void
count_op(uint32_t op, nfsstat4 st, uint64_t t0)
{
#ifndef USERNFSD_NO_STATS
	if (op_slot_base >= 0 && op <= N4_OP_LAST)
		stats_call(op_slot_base + (int)op, 0, 1, (uint32_t)st, 0, 0, 0,
		    stats_now_us() - t0);
#else
	(void)op; (void)st; (void)t0;
#endif
}

/*
 * Does the gate admit any flavor for operation a (RFC 8881 2.6.3.1.1)?
 * SECINFO and SECINFO_NO_NAME always; a put-filehandle operation when
 * the next operation checks later, or when none follows (knfsd does not
 * refuse a handle nothing uses); every other operation checks the
 * handles it uses.
 */
static int
any_flavor(const struct n4_compound *c, const nfs_argop4 *a)
{
	uint32_t next;

	if (n4_ops[a->argop].flags & OP4_SEC_ANY)
		return 1;
	if (!(n4_ops[a->argop].flags & OP4_PUTFH))
		return 0;
	if (c->index + 1 >= c->ndecoded)
		return 1;
	next = a[1].argop;
	return next <= N4_OP_LAST && (n4_ops[next].flags & OP4_SEC_LATER);
}

/*
 * An operation that has a handler and may stand where it is. In 4.0 it
 * names its client first (and may be sequenced by its owner); whoever the
 * client is, the fs layer hears of it (a change it makes does not recall
 * its own delegation).
 */
static nfsstat4
run_served(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	uint32_t op = a->argop;
	nfsstat4 st;

	c->call->any_flavor = any_flavor(c, a);
	if (c->minor == 0 && (st = n40_bind(c, a)) != NFS4_OK)
		return st;	/* the client or stateid it names is stale */
	c->call->client_tag = c->clientid;
	if (c->minor == 0 && (n4_ops[op].flags & OP4_SEQID))
		return n40_run_seqid(c, a, r, n4_ops[op].fn);
	return n4_ops[op].fn(c, a, r);
}

/* Runs operation i: its result in r, its status returned. */
static nfsstat4
run_op(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	uint64_t t0 = stats_now_us();
	uint32_t op = a->argop;
	nfsstat4 st;

	r->resop = op;
	st = check_position(c, op);
	if (st == NFS4ERR_OP_ILLEGAL)
		r->resop = OP_ILLEGAL;
	else if (st == NFS4_OK && n4_ops[op].fn == NULL)
		st = NFS4ERR_NOTSUPP;
	else if (st == NFS4_OK)
		st = run_served(c, a, r);
	*n4_res_status(r) = st;
	count_op(op, st, t0);
	log_debug("xid %08x NFSv4 %s: %u", c->call->xid, n4_ops[op].name, (unsigned)st);
	return st;
}

/* The answer to an operation that did not decode: BADXDR or OP_ILLEGAL. */
static nfsstat4
bad_op(const struct n4_args *a, nfs_resop4 *r)
{
	r->resop = a->bad_op;
	*n4_res_status(r) = a->bad;
	return a->bad;
}

/* An accepted reply's RPC header (AUTH_NONE verifier), then COMPOUND4res up to its results. */
static size_t
reply_header_size(const COMPOUND4args *a)
{
	return 24 + 4 + 4 + ((a->tag.utf8string_len + 3) & ~3u) + 4;
}

/*
 * RFC 8881 2.10.6.4 and 18.36.3: a reply may not grow past the session's
 * ca_maxresponsesize, nor past ca_maxresponsesize_cached when the client
 * asked to cache it. The operation whose result crosses the line gets
 * REP_TOO_BIG (or _TO_CACHE) in its place, and the compound stops there.
 */
static nfsstat4
check_reply_size(const struct n4_compound *c, nfs_resop4 *r, size_t *size)
{
	*size += xdr_sizeof(XDRPROC(xdr_nfs_resop4), r);
	if (*size > c->slot.resp_max)
		return NFS4ERR_REP_TOO_BIG;
	if (c->cachethis && *size > c->slot.cache_max)
		return NFS4ERR_REP_TOO_BIG_TO_CACHE;
	return *n4_res_status(r);
}

/*
 * The reply goes into the slot before it is sent, so that a retry that
 * crosses it finds it there. Kept only if the client asked and it fits.
 */
static void
release_slot(struct n4_compound *c, COMPOUND4res *r)
{
	char buf[N4_SLOT_CACHE_MAX];
	XDR x;
	size_t len = 0;
	int fits = 0;

	if (c->cachethis && c->slot.cache_max) {
		xdrmem_create(&x, buf, c->slot.cache_max, XDR_ENCODE);
		fits = xdr_COMPOUND4res(&x, r);
		len = xdr_getpos(&x);
		xdr_destroy(&x);
	}
	n4_slot_done(&c->slot, fits ? buf : NULL, len);
}

/* Does the compound carry an operation that changes something (its retry must not run again)? */
static int
changes(const struct n4_args *a)
{
	for (unsigned i = 0; i < a->ndecoded; i++)
		if (n4_ops[a->a.argarray.argarray_val[i].argop].flags & OP4_CHANGES)
			return 1;
	return 0;
}

static void
nfs4_compound(struct rpc_call *call, void *argp, void *resp)
{
	struct n4_args *a = argp;
	struct n4_reply *rep = resp;
	COMPOUND4res *r = &rep->r;
	struct n4_compound c;
	nfs_resop4 *res;
	nfsstat4 st = NFS4_OK;
	unsigned n = 0;
	size_t size;

	r->tag = a->a.tag;			/* the call's, freed after the reply is sent */
	if (a->a.minorversion > 2 || !(minors_served & (1u << a->a.minorversion))) {
		r->status = NFS4ERR_MINOR_VERS_MISMATCH;
		return;
	}
	if (a->bad == NFS4ERR_TOO_MANY_OPS) {
		r->status = NFS4ERR_TOO_MANY_OPS;
		return;
	}
	memset(&c, 0, sizeof(c));
	c.call = call;
	c.minor = a->a.minorversion;
	c.nops = a->a.argarray.argarray_len;
	c.ndecoded = a->ndecoded;
	if (c.nops == 0)
		return;
	res = call_alloc(call, c.nops * sizeof(*res));
	if (res == NULL) {
		r->status = NFS4ERR_SERVERFAULT;
		return;
	}
	r->resarray.resarray_val = res;
	size = reply_header_size(&a->a);
	for (; n < a->ndecoded && st == NFS4_OK; n++) {
		c.index = n;
		st = run_op(&c, &a->a.argarray.argarray_val[n], &res[n]);
		if (c.in_session && (st = check_reply_size(&c, &res[n], &size)) != NFS4_OK)
			*n4_res_status(&res[n]) = st;
		if (c.replay) {
			/* A retry: the original reply, in whole, as it was sent. */
			rep->raw = c.replay;
			rep->rawlen = c.replay_len;
			return;
		}
		if (c.replay_uncached && n + 1 < c.nops) {
			/* The retry of a reply not kept: SEQUENCE, then this (RFC 8881 2.10.6.1.3). */
			nfs_resop4 *next = &res[++n];

			next->resop = n < a->ndecoded ? a->a.argarray.argarray_val[n].argop :
			    a->bad_op;
			st = *n4_res_status(next) = NFS4ERR_RETRY_UNCACHED_REP;
		}
	}
	if (st == NFS4_OK && n < c.nops)
		st = bad_op(a, &res[n++]);
	if (c.minor == 0)
		call->drc_skip = !changes(a);
	r->status = st;
	r->resarray.resarray_len = n;
	if (c.in_session)
		release_slot(&c, r);
}

void
nfs4_set_minors(unsigned mask)
{
	const char *names[N4_OP_LAST + 1];

	minors_served = mask;
	if (op_slot_base >= 0)
		return;
	for (unsigned i = 0; i <= N4_OP_LAST; i++)
		names[i] = n4_ops[i].name;
	op_slot_base = stats_register_version("nfs4ops", NFS4_PROGRAM, NFS_V4, names,
	    N4_OP_LAST + 1);
}

/*
 * NFSv4.0 has no session to answer a retransmission, so its compounds go
 * through the duplicate request cache (RFC 7530 9.1.8 leaves the owners'
 * replies for the sequenced operations to the server and the rest to
 * this). Read from the raw arguments: tag, then the minor version.
 */
static int
drc_wanted(const uint8_t *args, size_t len)
{
	uint32_t taglen, minor;

	if (len < 8)
		return 0;
	memcpy(&taglen, args, 4);
	taglen = ntohl(taglen);
	if (taglen > len - 8 || ((taglen + 3) & ~3u) > len - 8)
		return 0;
	memcpy(&minor, args + 4 + ((taglen + 3) & ~3u), 4);
	return ntohl(minor) == 0;
}

typedef struct n4_args n4_args;
typedef struct n4_reply n4_reply;

/*
 * COMPOUND is not idempotent, but the retries of 4.1 and 4.2 are the
 * session's to answer (the slot's cache), not the DRC's, so it is not
 * PROC_DRC; 4.0's are the DRC's (drc_wanted). It may wait on the disk.
 */
const struct rpc_proc nfs4_procs[NFS4_NPROCS] = {
	[NFSPROC4_NULL] = RPC_PROC_NULL("NULL"),
	[NFSPROC4_COMPOUND] = { "COMPOUND", XDRPROC(xdr_n4_args), sizeof(n4_args),
	    XDRPROC(xdr_n4_reply), sizeof(n4_reply), nfs4_compound,
	    PROC_AUTH_SYS | PROC_BULK | PROC_STATUS, drc_wanted },
};
