/*
 * A worker's per-call state, shared by the dispatcher (dispatch.c: decode,
 * route, run) and the reply builders (reply.c: encode, sign, send, count).
 * Internal to src/rpc: the protocols see a worker only through the call
 * helpers of dispatch.h.
 */
#ifndef USERNFSD_WORKER_H
#define USERNFSD_WORKER_H

#include <stddef.h>
#include <stdint.h>
#include <rpc/rpc.h>

#include "creds.h"
#include "gss_proto.h"
#include "readpipe.h"
#include "transport.h"

#define REPLY_BUF_LEN (TCP_MAX_PAYLOAD + 65536)
#define GAP_MIN 4096		/* smaller READ data is copied into the reply */

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	unsigned char data[];
};

struct gss_call;

struct worker {
	uint8_t *reply;		/* REPLY_HEADROOM + REPLY_BUF_LEN */
	uint8_t *databuf;
	size_t databuf_len;
	struct arena_chunk *arena;
	struct creds_state creds;
	int hold_reply;		/* encode but do not send: the caller sends */
	struct reply_gap gap;	/* READ data left out of the reply (gap_putbytes) */
	struct readpipe pipe;	/* READ data spliced from the file, for the gap */
	struct gss_call *gss;	/* the call's RPCSEC_GSS side, NULL for other flavors */
	uint8_t *gss_body;	/* REPLY_BUF_LEN: a wrapped reply's plain body (gss.c) */
	/*
	 * RPCSEC_GSS through the DRC: the plain result (DRC_GSS_BODY_MAX),
	 * captured by run_procedure when capture_len is set, replayed from
	 * there. 0 in capture_len after the call: nothing captured.
	 */
	uint8_t *drc_body;
	int capture;
	size_t capture_len;
	/* The call being served, for statistics (see count_call). */
	unsigned st_flags;	/* its procedure's PROC_STATUS* flags */
	size_t st_out;		/* bytes of the reply sent, 0 if none */
	int st_rpc_error;	/* the reply was not an accepted SUCCESS */
	int st_has_status;
	uint32_t st_status;	/* the result's status, when st_has_status */
	char st_principal[RG_PRINCIPAL_MAX];	/* RPCSEC_GSS: who called, for the client list */
};

/* ---- reply.c ---- */

/* What a reply says, for the statistics: read from its encoded form. */
void note_reply(struct worker *w, const uint8_t *msg, size_t len);
/* Encodes and sends a reply; returns its length (0 if nothing was sent). */
size_t send_reply(struct worker *w, struct rpc_req *req, struct rpc_msg *reply);
/*
 * MSG_ACCEPTED with st; for SUCCESS the result xdr_res encodes from res
 * (signed or sealed under RPCSEC_GSS integrity or privacy). Its length.
 */
size_t reply_accepted(struct worker *w, struct rpc_req *req, uint32_t xid, enum accept_stat st,
    xdrproc_t xdr_res, void *res);
void reply_auth_error(struct worker *w, struct rpc_req *req, uint32_t xid, enum auth_stat why);
void reply_rpc_mismatch(struct worker *w, struct rpc_req *req, uint32_t xid);

#endif
