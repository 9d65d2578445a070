/*
 * RPCSEC_GSS version 1 (RFC 2203) over Kerberos V5 (RFC 4121), for the
 * dispatcher: dispatch.c routes a call whose credential flavor is
 * RPCSEC_GSS here (gss_call_accept) and asks for the reply's verifier
 * and body (gss_reply_verf, gss_reply_body); everything GSS is in gss.c,
 * the context table in gss_ctx.c.
 *
 * libtirpc's own server side (svc_auth_gss) keeps one context per
 * transport with a window of 5, so it is not used: contexts here are
 * global, named by a random handle, with a window of 128.
 */
#ifndef USERNFSD_GSS_H
#define USERNFSD_GSS_H

#include <stddef.h>
#include <stdint.h>
#include <rpc/rpc.h>

#include "gss_proto.h"

struct gss_ctx;

/* The RPCSEC_GSS side of one call, on the dispatcher's stack. */
struct gss_call {
	struct gss_ctx *ctx;		/* a reference, dropped by gss_call_end */
	uint32_t gproc, seq, svc;
	enum auth_stat why;		/* GSS_DENY's reason */
	/* DATA with integrity or privacy: the plain argument bytes. */
	const uint8_t *args;
	size_t argslen;
	void *unwrapped;		/* privacy: gss_unwrap's buffer (released at the end) */
	size_t unwrapped_len;
	/* INIT and CONTINUE_INIT: the result (rpc_gss_init_res). */
	uint32_t major, minor;
	int init_handle;		/* the result names ctx's handle */
	void *token;			/* gss_accept_sec_context's output, released at the end */
	size_t token_len;
	/* The reply: its verifier and, for integrity and privacy, the wrapped body. */
	uint8_t verf[MAX_AUTH_BYTES];
	xdrproc_t res_proc;
	void *res;
	uint8_t *scratch;		/* the worker's buffer for the plain body */
	size_t scratch_cap;
};

enum gss_verdict {
	GSS_RUN,	/* DATA: run the procedure, its arguments at args when wrapped */
	GSS_REPLY,	/* INIT, CONTINUE_INIT, DESTROY: answer SUCCESS with gss_xdr_control */
	GSS_DENY,	/* MSG_DENIED, AUTH_ERROR why */
	GSS_GARBAGE,	/* GARBAGE_ARGS (with our verifier) */
	GSS_DROP,	/* no answer: a replay, a call below the window */
};

/* What gss_call_accept reads of the call as it came off the wire. */
struct gss_msg {
	const uint8_t *buf;		/* the whole call, from its xid */
	size_t len;
	size_t args_off;		/* where the arguments start */
	uint32_t proc;			/* the procedure called */
	const struct opaque_auth *cred, *verf;
};

/*
 * Checks a call whose credential is RPCSEC_GSS: parses rpc_gss_cred_vers_1,
 * runs context creation and destruction, and for DATA checks the header's
 * MIC before the window moves, then unwraps the arguments. gc is zeroed
 * here; gss_call_end(gc) whatever the verdict.
 */
enum gss_verdict gss_call_accept(struct gss_call *gc, const struct gss_msg *m);
/*
 * Does this credential create a context (INIT, CONTINUE_INIT)? Those read
 * the keytab and write the replay cache, so the worker must be back to
 * the daemon's own identity first, not the last client's.
 */
int gss_cred_creates(const struct opaque_auth *cred);
/* The identity behind a call that gss_call_accept let run. */
const struct gss_identity *gss_call_identity(const struct gss_call *gc);
/* A DATA call's context, for the duplicate request cache's key. */
uint64_t gss_call_ctx_tag(const struct gss_call *gc);
/* The XDR of GSS_REPLY's result: rpc_gss_init_res, or nothing for DESTROY. */
bool_t gss_xdr_control(XDR *x, void *gc);
/*
 * The reply verifier of an accepted reply: the MIC of the sequence number
 * (of the window for a completed INIT), or AUTH_NONE where RFC 2203 says
 * so. Computed under the context's lock.
 */
void gss_reply_verf(struct gss_call *gc, struct opaque_auth *oa);
/*
 * A SUCCESS reply's body as the service asks: *proc and *where are
 * replaced by an encoder that writes rpc_gss_integ_data or
 * rpc_gss_priv_data around them, encoding the plain body into scratch.
 */
void gss_reply_body(struct gss_call *gc, uint8_t *scratch, size_t cap, xdrproc_t *proc,
    void **where);
/* Do the call's arguments and results pass through gss (no spliced READ data)? */
int gss_call_wraps(const struct gss_call *gc);
void gss_call_end(struct gss_call *gc);

/* Contexts in the table (the statistics' gauge). */
unsigned gss_contexts(void);
/* Drops the contexts past their end: on the daemon's tick, so that idle ones do not linger. */
void gss_sweep(void);

/*
 * The acceptor's keytab: NULL for the default (KRB5_KTNAME, else
 * /etc/krb5.keytab). Set once before the workers start (--keytab).
 */
void gss_set_keytab(const char *path);
const char *gss_keytab_path(void);
/*
 * Can Kerberos clients make contexts with us: is the keytab readable,
 * with an nfs/ key? 0, or -1 with the reason in err (gss_keytab.c).
 */
int gss_keytab_check(char *err, size_t errlen);

#endif
