/*
 * Replies (RFC 5531): encoding them into the worker's buffer with READ
 * data left in place (the gap), the RPCSEC_GSS verifier and wrapping,
 * sending, and reading back what each says for the statistics.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "be.h"
#include "dispatch.h"
#include "gss.h"
#include "log.h"
#include "readpipe.h"
#include "rpcproc.h"
#include "transport.h"
#include "worker.h"

/* ---- statistics ---- */

/*
 * What a reply says, read from its encoded form, so that every path that
 * answers (results, errors, the DRC's copies) is counted alike: xid,
 * REPLY, reply status, verifier flavor, length and body, accept status,
 * then the result (RFC 5531). Under RPCSEC_GSS integrity the result
 * follows the body's length and sequence number; a sealed one is not read.
 */
void
note_reply(struct worker *w, const uint8_t *msg, size_t len)
{
#ifndef USERNFSD_NO_STATS
	size_t off = 20;

	w->st_out = len;
	if (len >= 20)
		off += (be32_get(msg + 16) + 3) & ~3u;
	w->st_rpc_error = len < off + 4 || be32_get(msg + 8) != MSG_ACCEPTED ||
	    be32_get(msg + off) != SUCCESS;
	off += 4;
	if (w->st_rpc_error || !(w->st_flags & (PROC_STATUS | PROC_STATUS_COOKIE)))
		return;
	if (w->gss && gss_call_wraps(w->gss)) {
		if (w->gss->svc != RG_SVC_INTEGRITY)
			return;
		off += 8;
	}
	if (w->st_flags & PROC_STATUS_COOKIE) {
		/* NLM: the status follows the cookie, an opaque of at most 1024 bytes. */
		uint32_t clen;

		if (len < off + 4 || (clen = be32_get(msg + off)) > 1024)
			return;
		off += 4 + ((clen + 3) & ~3u);
	}
	if (len < off + 4)
		return;
	w->st_status = be32_get(msg + off);
	w->st_has_status = 1;
#else
	(void)w; (void)msg; (void)len;
#endif
}

/* ---- replies ---- */

/*
 * READ data is not copied into the reply buffer: the reply is encoded by
 * xdrmem with one operation changed, putbytes, which for a run of the
 * worker's data buffer (call_databuf, where READ reads into) only leaves
 * a hole and notes it; the transport sends the hole's bytes from the data
 * buffer (transport_reply_gap).  A 1 MiB READ so costs one copy less.
 * The DRC, which keeps whole replies, gets the hole filled (gap_fill).
 */
static struct xdr_ops gap_ops;
static const struct xdr_ops *gap_mem_ops;	/* xdrmem's, which gap_ops copies */
static pthread_once_t gap_once = PTHREAD_ONCE_INIT;

static bool_t
gap_putbytes(XDR *x, const char *addr, u_int len)
{
	struct worker *w = (struct worker *)x->x_public;
	const uint8_t *p = (const uint8_t *)addr;
	u_int pos = xdr_getpos(x);

	if (w->gap.len == 0 && w->pipe.held && p == w->databuf && len == w->pipe.held) {
		/* The data is in the pipe; the buffer was never written. */
		if (!xdr_setpos(x, pos + len))
			return FALSE;
		w->gap.off = pos;
		w->gap.len = len;
		w->gap.data = NULL;
		w->gap.pipe = w->pipe.rd;
		return TRUE;
	}
	if (w->gap.len == 0 && len >= GAP_MIN && w->databuf != NULL && p >= w->databuf &&
	    p + len <= w->databuf + w->databuf_len) {
		if (!xdr_setpos(x, pos + len))
			return FALSE;	/* no room: as xdrmem would say */
		w->gap.off = pos;
		w->gap.len = len;
		w->gap.data = p;
		w->gap.pipe = -1;
		return TRUE;
	}
	return gap_mem_ops->x_putbytes(x, addr, len);
}

static void
gap_ops_init(void)
{
	XDR x;
	char b[4];

	xdrmem_create(&x, b, sizeof(b), XDR_ENCODE);
	gap_mem_ops = x.x_ops;
	gap_ops = *x.x_ops;
	gap_ops.x_putbytes = gap_putbytes;
}

/* An encoder into msg that may leave READ data out (w->gap). */
static void
gap_xdr_create(struct worker *w, XDR *x, uint8_t *msg)
{
	pthread_once(&gap_once, gap_ops_init);
	w->gap.len = 0;
	xdrmem_create(x, (char *)msg, REPLY_BUF_LEN, XDR_ENCODE);
	if (x->x_ops == gap_mem_ops) {
		x->x_ops = &gap_ops;
		x->x_public = (char *)w;
	}
}

static void
gap_fill(struct worker *w, uint8_t *msg)
{
	if (w->gap.len && w->gap.data) {
		memcpy(msg + w->gap.off, w->gap.data, w->gap.len);
		w->gap.len = 0;
	}
}

size_t
send_reply(struct worker *w, struct rpc_req *req, struct rpc_msg *reply)
{
	XDR x;
	uint8_t *msg = w->reply + REPLY_HEADROOM;
	size_t len;

	gap_xdr_create(w, &x, msg);
	if (!xdr_replymsg(&x, reply)) {
		/* The result did not encode: say so rather than go silent. */
		xdr_destroy(&x);
		log_warnx("xid %08x: reply does not encode", (unsigned)reply->rm_xid);
		reply->acpted_rply.ar_stat = SYSTEM_ERR;
		reply->acpted_rply.ar_results.proc = XDRPROC(xdr_void);
		w->gap.len = 0;
		xdrmem_create(&x, (char *)msg, REPLY_BUF_LEN, XDR_ENCODE);
		if (!xdr_replymsg(&x, reply))
			return 0;
	}
	len = xdr_getpos(&x);
	xdr_destroy(&x);
	note_reply(w, msg, len);
	if (w->hold_reply)
		gap_fill(w, msg);	/* the caller keeps or sends it whole */
	else if (w->gap.len && transport_reply_gap(req, msg, len, &w->gap) == 0 && w->gap.pipe >= 0)
		w->pipe.held = 0;	/* all of it went out */
	else if (w->gap.len == 0)
		transport_reply(req, msg, len);
	if (w->pipe.held)
		readpipe_discard(&w->pipe);	/* the reply failed, or did not use it */
	return len;
}

size_t
reply_accepted(struct worker *w, struct rpc_req *req, uint32_t xid, enum accept_stat st,
    xdrproc_t xdr_res, void *res)
{
	struct rpc_msg r;
	xdrproc_t proc = st == SUCCESS ? xdr_res : XDRPROC(xdr_void);
	void *where = res;

	memset(&r, 0, sizeof(r));
	r.rm_xid = xid;
	r.rm_direction = REPLY;
	r.rm_reply.rp_stat = MSG_ACCEPTED;
	r.acpted_rply.ar_verf = _null_auth;
	if (w->gss) {
		/* RPCSEC_GSS: our verifier, and the body signed or sealed as the call was. */
		gss_reply_verf(w->gss, &r.acpted_rply.ar_verf);
		if (st == SUCCESS && gss_call_wraps(w->gss) && w->gss_body == NULL &&
		    (w->gss_body = malloc(REPLY_BUF_LEN)) == NULL) {
			st = SYSTEM_ERR;
			proc = XDRPROC(xdr_void);
		} else if (st == SUCCESS) {
			gss_reply_body(w->gss, w->gss_body, REPLY_BUF_LEN, &proc, &where);
		}
	}
	r.acpted_rply.ar_stat = st;
	r.acpted_rply.ar_results.where = where;
	r.acpted_rply.ar_results.proc = proc;
	return send_reply(w, req, &r);
}

void
reply_auth_error(struct worker *w, struct rpc_req *req, uint32_t xid, enum auth_stat why)
{
	struct rpc_msg r;

	memset(&r, 0, sizeof(r));
	r.rm_xid = xid;
	r.rm_direction = REPLY;
	r.rm_reply.rp_stat = MSG_DENIED;
	r.rjcted_rply.rj_stat = AUTH_ERROR;
	r.rjcted_rply.rj_why = why;
	send_reply(w, req, &r);
}

void
reply_rpc_mismatch(struct worker *w, struct rpc_req *req, uint32_t xid)
{
	struct rpc_msg r;

	memset(&r, 0, sizeof(r));
	r.rm_xid = xid;
	r.rm_direction = REPLY;
	r.rm_reply.rp_stat = MSG_DENIED;
	r.rjcted_rply.rj_stat = RPC_MISMATCH;
	r.rjcted_rply.rj_vers.low = RPC_MSG_VERSION;
	r.rjcted_rply.rj_vers.high = RPC_MSG_VERSION;
	send_reply(w, req, &r);
}
