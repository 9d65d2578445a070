/*
 * RPCSEC_GSS version 1 (RFC 2203) with Kerberos V5: the credential, the
 * context creation exchange on the NULL procedure, DATA's header MIC and
 * sequence window, the integrity and privacy bodies both ways, the reply
 * verifier and DESTROY. The context table is gss_ctx.c's; who a context's
 * client is, gss_name.c's. Called by dispatch.c only (gss.h).
 *
 * Everything here is bounded by the call message: no length read from the
 * wire is trusted past the bytes that arrived.
 */
#include "config.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>

#include "be.h"
#include "gss.h"
#include "gss_ctx.h"
#include "gss_xdr.h"
#include "log.h"
#include "stats.h"

/* An xdrproc_t from an XDR routine of another prototype (void (*)(void) converts to any). */
#define GSS_XDRPROC(f) ((xdrproc_t)(void (*)(void))(f))

/* ---- the acceptor's credential ---- */

static pthread_mutex_t cred_lock = PTHREAD_MUTEX_INITIALIZER;
static gss_cred_id_t acceptor = GSS_C_NO_CREDENTIAL;

static void
log_gss_status(const char *what, OM_uint32 major, OM_uint32 minor)
{
	OM_uint32 maj2, min2, ctx = 0;
	gss_buffer_desc m1 = GSS_C_EMPTY_BUFFER, m2 = GSS_C_EMPTY_BUFFER;

	maj2 = gss_display_status(&min2, major, GSS_C_GSS_CODE, GSS_C_NO_OID, &ctx, &m1);
	if (maj2 == GSS_S_COMPLETE && minor) {
		ctx = 0;
		gss_display_status(&min2, minor, GSS_C_MECH_CODE, (gss_OID)gss_mech_krb5, &ctx,
		    &m2);
	}
	log_warnx("gss: %s: %.*s%s%.*s", what, (int)m1.length, (const char *)m1.value,
	    m2.length ? ": " : "", (int)m2.length, (const char *)m2.value);
	gss_release_buffer(&min2, &m1);
	gss_release_buffer(&min2, &m2);
}

/*
 * Acquired at the first INIT rather than at start-up, so that a daemon
 * whose keytab appears later (or never: AUTH_SYS only) starts all the
 * same; a failure is tried again at the next INIT. GSS_C_NO_NAME: any
 * key in the keytab may accept (nfs/<host> in practice), as rpc.svcgssd
 * and gssproxy do.
 */
static OM_uint32
acceptor_cred(gss_cred_id_t *out, OM_uint32 *minor)
{
	OM_uint32 major = GSS_S_COMPLETE;
	gss_OID_set_desc mechs = { 1, (gss_OID)gss_mech_krb5 };

	const char *keytab_path = gss_keytab_path();

	pthread_mutex_lock(&cred_lock);
	if (acceptor == GSS_C_NO_CREDENTIAL) {
		if (keytab_path) {
			gss_key_value_element_desc kt = { "keytab", keytab_path };
			gss_key_value_set_desc store = { 1, &kt };

			major = gss_acquire_cred_from(minor, GSS_C_NO_NAME, GSS_C_INDEFINITE, &mechs,
			    GSS_C_ACCEPT, &store, &acceptor, NULL, NULL);
		} else {
			major = gss_acquire_cred(minor, GSS_C_NO_NAME, GSS_C_INDEFINITE, &mechs,
			    GSS_C_ACCEPT, &acceptor, NULL, NULL);
		}
		if (major != GSS_S_COMPLETE) {
			acceptor = GSS_C_NO_CREDENTIAL;
			log_gss_status("no acceptor credential (keytab?)", major, *minor);
		}
	}
	*out = acceptor;
	pthread_mutex_unlock(&cred_lock);
	return major;
}

/* ---- context creation (RFC 2203 5.2) ---- */

static enum gss_verdict
deny(struct gss_call *gc, enum auth_stat why)
{
	STAT_INC(why == RG_AUTH_CREDPROBLEM ? ST_GSS_ERR_CREDPROBLEM :
	    why == RG_AUTH_CTXPROBLEM ? ST_GSS_ERR_CTXPROBLEM : ST_GSS_ERR_BADCRED);
	gc->why = why;
	return GSS_DENY;
}

/* Runs gss_accept_sec_context on gc->ctx (held, locked) with the client's token. */
static void
accept_token(struct gss_call *gc, gss_cred_id_t cred, const uint8_t *tok, uint32_t toklen)
{
	struct gss_ctx *c = gc->ctx;
	gss_buffer_desc in = { toklen, (void *)tok }, out = GSS_C_EMPTY_BUFFER;
	gss_name_t client = GSS_C_NO_NAME;
	OM_uint32 major, minor, lifetime = 0, minor2;

	major = gss_accept_sec_context(&minor, &c->gctx, cred, &in, GSS_C_NO_CHANNEL_BINDINGS,
	    &client, NULL, &out, NULL, &lifetime, NULL);
	gc->major = major;
	gc->minor = minor;
	gc->token = out.value;
	gc->token_len = out.length;
	if (major == GSS_S_COMPLETE) {
		gss_map_identity(client, &c->id);
		/* Until the ticket ends; GSS_C_INDEFINITE is not a Kerberos answer, but bound it. */
		if (lifetime == 0 || lifetime > 7 * 24 * 3600)
			lifetime = lifetime ? 7 * 24 * 3600 : 1;
		gss_ctx_established(c, lifetime);
		STAT_INC(ST_GSS_CTX_CREATED);
		gc->init_handle = 1;
		log_debug("gss: context for %s (%s), %u s", c->id.principal,
		    c->id.mapped ? "mapped" : "unmapped", (unsigned)lifetime);
	} else if (major == GSS_S_CONTINUE_NEEDED) {
		gc->init_handle = 1;
	} else {
		STAT_INC(ST_GSS_ERR_ACCEPT);
		log_gss_status("context creation refused", major, minor);
		gss_ctx_remove(c);
	}
	if (client != GSS_C_NO_NAME)
		gss_release_name(&minor2, &client);
}

/*
 * INIT and CONTINUE_INIT. Whatever GSS says, the answer is a SUCCESS
 * reply with gss_major and gss_minor in it (5.2.3.2): a failed accept
 * is news for the client, not a reason to drop its connection.
 */
static enum gss_verdict
init_call(struct gss_call *gc, const struct gss_msg *m, const struct gss_cred *cr)
{
	const uint8_t *tok;
	uint32_t toklen;
	size_t off = m->args_off;
	gss_cred_id_t cred;
	OM_uint32 minor;

	if (m->proc != 0)
		return deny(gc, AUTH_BADCRED);	/* only the NULL procedure carries it */
	if (m->verf->oa_flavor != AUTH_NONE)
		return deny(gc, AUTH_BADVERF);
	if ((tok = gss_opaque_at(m->buf, m->len, &off, RG_TOKEN_MAX, &toklen)) == NULL)
		return GSS_GARBAGE;
	if (cr->gproc == RG_PROC_INIT)
		gc->ctx = gss_ctx_new();
	else if ((gc->ctx = gss_ctx_find(cr->handle, cr->hlen)) == NULL)
		return deny(gc, RG_AUTH_CREDPROBLEM);
	if (gc->ctx == NULL) {
		gc->major = GSS_S_FAILURE;
		return GSS_REPLY;
	}
	if ((gc->major = acceptor_cred(&cred, &minor)) != GSS_S_COMPLETE) {
		gc->minor = minor;
		gss_ctx_remove(gc->ctx);
		return GSS_REPLY;
	}
	pthread_mutex_lock(&gc->ctx->lock);
	if (gc->ctx->complete) {
		/* CONTINUE_INIT of a context already made: not one being made. */
		pthread_mutex_unlock(&gc->ctx->lock);
		return deny(gc, RG_AUTH_CREDPROBLEM);
	}
	accept_token(gc, cred, tok, toklen);
	pthread_mutex_unlock(&gc->ctx->lock);
	return GSS_REPLY;
}

bool_t
gss_xdr_control(XDR *x, void *p)
{
	struct gss_call *gc = p;
	char *handle = gc->init_handle ? (char *)gc->ctx->handle : NULL;
	char *token = gc->token;
	u_int hlen = gc->init_handle ? RG_HANDLE_LEN : 0;
	u_int tlen = (u_int)gc->token_len;
	u_int window = RG_SEQ_WINDOW;

	if (gc->gproc == RG_PROC_DESTROY)
		return TRUE;	/* void */
	return xdr_bytes(x, &handle, &hlen, RG_HANDLE_LEN) && xdr_u_int(x, &gc->major) &&
	    xdr_u_int(x, &gc->minor) && xdr_u_int(x, &window) &&
	    xdr_bytes(x, &token, &tlen, UINT_MAX);
}

/* ---- data exchange (RFC 2203 5.3) ---- */

/* rpc_gss_integ_data: the MIC checked over databody_integ, whose first word is seq. */
static int
unwrap_integ(struct gss_call *gc, const struct gss_msg *m)
{
	struct gss_integ in;
	gss_buffer_desc b, t;
	OM_uint32 major, minor;

	if (gss_integ_decode(m->buf, m->len, m->args_off, MAX_AUTH_BYTES, &in) < 0)
		return -1;
	b.value = (void *)in.body;
	b.length = in.blen;
	t.value = (void *)in.mic;
	t.length = in.mlen;
	pthread_mutex_lock(&gc->ctx->lock);
	major = gss_verify_mic(&minor, gc->ctx->gctx, &b, &t, NULL);
	pthread_mutex_unlock(&gc->ctx->lock);
	if (major != GSS_S_COMPLETE || be32_get(in.body) != gc->seq)
		return -1;
	gc->args = in.body + 4;
	gc->argslen = in.blen - 4;
	return 0;
}

/* rpc_gss_priv_data: gss_unwrap, confidentiality required, then seq. */
static int
unwrap_priv(struct gss_call *gc, const struct gss_msg *m)
{
	size_t off = m->args_off;
	const uint8_t *body;
	uint32_t blen;
	gss_buffer_desc in, out = GSS_C_EMPTY_BUFFER;
	OM_uint32 major, minor;
	int conf = 0;

	if ((body = gss_opaque_at(m->buf, m->len, &off, UINT32_MAX, &blen)) == NULL)
		return -1;
	in.value = (void *)body;
	in.length = blen;
	pthread_mutex_lock(&gc->ctx->lock);
	major = gss_unwrap(&minor, gc->ctx->gctx, &in, &out, &conf, NULL);
	pthread_mutex_unlock(&gc->ctx->lock);
	gc->unwrapped = out.value;
	gc->unwrapped_len = out.length;
	if (major != GSS_S_COMPLETE || !conf || out.length < 4 ||
	    be32_get(out.value) != gc->seq)
		return -1;
	gc->args = (const uint8_t *)out.value + 4;
	gc->argslen = out.length - 4;
	return 0;
}

/*
 * The call header's MIC (xid through the credential, 5.3.1), then the
 * window: a call that fails the MIC must not move it, or a forger could
 * push a client's own calls below it.
 */
static enum gss_verdict
check_header(struct gss_call *gc, const struct gss_msg *m)
{
	size_t hdr_len = 8 * 4 + (((size_t)m->cred->oa_length + 3) & ~(size_t)3);
	gss_buffer_desc h = { hdr_len, (void *)m->buf };
	gss_buffer_desc v = { m->verf->oa_length, m->verf->oa_base };
	OM_uint32 major, minor;
	int fresh;

	if (m->verf->oa_flavor != RPCSEC_GSS_FLAVOR || hdr_len > m->len)
		return deny(gc, AUTH_BADVERF);
	pthread_mutex_lock(&gc->ctx->lock);
	if (!gc->ctx->complete) {
		/* Half-built: no DATA yet (complete is set under this lock). */
		pthread_mutex_unlock(&gc->ctx->lock);
		return deny(gc, RG_AUTH_CREDPROBLEM);
	}
	major = gss_verify_mic(&minor, gc->ctx->gctx, &h, &v, NULL);
	if (major != GSS_S_COMPLETE) {
		pthread_mutex_unlock(&gc->ctx->lock);
		log_debug("gss: header MIC of seq %u refused (major %#x)", gc->seq,
		    (unsigned)major);
		if (major == GSS_S_CONTEXT_EXPIRED)
			gss_ctx_remove(gc->ctx);
		else
			STAT_INC(ST_GSS_ERR_BADMIC);	/* and not also as CREDPROBLEM */
		gc->why = RG_AUTH_CREDPROBLEM;
		return major == GSS_S_CONTEXT_EXPIRED ? deny(gc, RG_AUTH_CREDPROBLEM) : GSS_DENY;
	}
	if (gc->seq >= RG_MAXSEQ) {
		pthread_mutex_unlock(&gc->ctx->lock);
		return deny(gc, RG_AUTH_CTXPROBLEM);
	}
	fresh = gss_ctx_window(gc->ctx, gc->seq);
	pthread_mutex_unlock(&gc->ctx->lock);
	if (!fresh) {
		log_debug("gss: seq %u replayed or below the window: dropped", gc->seq);
		STAT_INC(ST_GSS_ERR_DROPPED);
		return GSS_DROP;
	}
	return GSS_RUN;
}

static enum gss_verdict
data_call(struct gss_call *gc, const struct gss_msg *m, const struct gss_cred *cr)
{
	enum gss_verdict v;

	if (cr->svc < RG_SVC_NONE || cr->svc > RG_SVC_PRIVACY)
		return deny(gc, AUTH_BADCRED);
	gc->ctx = gss_ctx_find(cr->handle, cr->hlen);
	if (gc->ctx == NULL)
		return deny(gc, RG_AUTH_CREDPROBLEM);
	if ((v = check_header(gc, m)) != GSS_RUN)
		return v;
	if (cr->gproc == RG_PROC_DESTROY) {
		/* Answered with the verifier of this context, which the call still holds. */
		gss_ctx_remove(gc->ctx);
		STAT_INC(ST_GSS_CTX_DESTROYED);
		return GSS_REPLY;
	}
	if ((cr->svc == RG_SVC_INTEGRITY && unwrap_integ(gc, m) < 0) ||
	    (cr->svc == RG_SVC_PRIVACY && unwrap_priv(gc, m) < 0)) {
		STAT_INC(ST_GSS_ERR_BODY);
		return GSS_GARBAGE;
	}
	return GSS_RUN;
}

enum gss_verdict
gss_call_accept(struct gss_call *gc, const struct gss_msg *m)
{
	struct gss_cred cr;

	memset(gc, 0, sizeof(*gc));
	if (gss_cred_decode((const uint8_t *)m->cred->oa_base, m->cred->oa_length, &cr) < 0)
		return deny(gc, AUTH_BADCRED);
	gc->gproc = cr.gproc;
	gc->seq = cr.seq;
	gc->svc = cr.svc;
	switch (cr.gproc) {
	case RG_PROC_INIT:
	case RG_PROC_CONTINUE_INIT:
		return init_call(gc, m, &cr);
	case RG_PROC_DATA:
	case RG_PROC_DESTROY:
		return data_call(gc, m, &cr);
	default:
		return deny(gc, AUTH_BADCRED);
	}
}

int
gss_cred_creates(const struct opaque_auth *cred)
{
	struct gss_cred cr;

	return gss_cred_decode((const uint8_t *)cred->oa_base, cred->oa_length, &cr) == 0 &&
	    (cr.gproc == RG_PROC_INIT || cr.gproc == RG_PROC_CONTINUE_INIT);
}

const struct gss_identity *
gss_call_identity(const struct gss_call *gc)
{
	return &gc->ctx->id;
}

unsigned
gss_contexts(void)
{
	unsigned all, half;

	gss_ctx_count(&all, &half);
	return all;
}

void
gss_sweep(void)
{
	gss_ctx_sweep();
}

uint64_t
gss_call_ctx_tag(const struct gss_call *gc)
{
	uint64_t tag = 0;

	/* The handle is random (getrandom): its first bytes name the context well enough. */
	memcpy(&tag, gc->ctx->handle, sizeof(tag) < RG_HANDLE_LEN ? sizeof(tag) : RG_HANDLE_LEN);
	return tag;
}

int
gss_call_wraps(const struct gss_call *gc)
{
	return gc->gproc == RG_PROC_DATA && gc->svc != RG_SVC_NONE;
}

/* ---- replies ---- */

void
gss_reply_verf(struct gss_call *gc, struct opaque_auth *oa)
{
	uint8_t word[4];
	gss_buffer_desc in = { sizeof(word), word }, out = GSS_C_EMPTY_BUFFER;
	OM_uint32 major, minor;

	*oa = _null_auth;
	if (gc->ctx == NULL)
		return;
	if (gc->gproc == RG_PROC_INIT || gc->gproc == RG_PROC_CONTINUE_INIT) {
		if (gc->major != GSS_S_COMPLETE)
			return;		/* no context yet to sign with (5.2.3.1) */
		be32_put(word, RG_SEQ_WINDOW);
	} else {
		be32_put(word, gc->seq);
	}
	pthread_mutex_lock(&gc->ctx->lock);
	major = gss_get_mic(&minor, gc->ctx->gctx, GSS_C_QOP_DEFAULT, &in, &out);
	pthread_mutex_unlock(&gc->ctx->lock);
	if (major == GSS_S_COMPLETE && out.length <= sizeof(gc->verf)) {
		memcpy(gc->verf, out.value, out.length);
		oa->oa_flavor = RPCSEC_GSS_FLAVOR;
		oa->oa_base = (caddr_t)gc->verf;
		oa->oa_length = (u_int)out.length;
	} else {
		log_gss_status("reply verifier", major, minor);
	}
	gss_release_buffer(&minor, &out);
}

/* The body wrapped: seq and the results encoded plain into scratch, then MIC or wrap. */
static bool_t
xdr_wrapped_body(XDR *x, void *p)
{
	struct gss_call *gc = p;
	XDR in;
	char *body = (char *)gc->scratch, *tok;
	u_int blen, tlen;
	gss_buffer_desc b, out = GSS_C_EMPTY_BUFFER;
	OM_uint32 major, minor;
	int conf = 0;
	bool_t ok;

	if (x->x_op != XDR_ENCODE)
		return FALSE;
	xdrmem_create(&in, body, (u_int)gc->scratch_cap, XDR_ENCODE);
	ok = xdr_u_int(&in, &gc->seq) && gc->res_proc(&in, gc->res);
	blen = xdr_getpos(&in);
	xdr_destroy(&in);
	if (!ok)
		return FALSE;
	b.value = body;
	b.length = blen;
	pthread_mutex_lock(&gc->ctx->lock);
	if (gc->svc == RG_SVC_INTEGRITY)
		major = gss_get_mic(&minor, gc->ctx->gctx, GSS_C_QOP_DEFAULT, &b, &out);
	else
		major = gss_wrap(&minor, gc->ctx->gctx, 1, GSS_C_QOP_DEFAULT, &b, &conf, &out);
	pthread_mutex_unlock(&gc->ctx->lock);
	if (major != GSS_S_COMPLETE) {
		log_gss_status("reply body", major, minor);
		return FALSE;
	}
	tok = out.value;
	tlen = (u_int)out.length;
	if (gc->svc == RG_SVC_INTEGRITY)
		ok = xdr_bytes(x, &body, &blen, UINT_MAX) && xdr_bytes(x, &tok, &tlen, UINT_MAX);
	else
		ok = xdr_bytes(x, &tok, &tlen, UINT_MAX);
	gss_release_buffer(&minor, &out);
	return ok;
}

void
gss_reply_body(struct gss_call *gc, uint8_t *scratch, size_t cap, xdrproc_t *proc, void **where)
{
	if (!gss_call_wraps(gc))
		return;
	gc->res_proc = *proc;
	gc->res = *where;
	gc->scratch = scratch;
	gc->scratch_cap = cap;
	*proc = GSS_XDRPROC(xdr_wrapped_body);
	*where = gc;
}

void
gss_call_end(struct gss_call *gc)
{
	OM_uint32 minor;

	if (gc->token) {
		gss_buffer_desc t = { gc->token_len, gc->token };
		gss_release_buffer(&minor, &t);
	}
	if (gc->unwrapped) {
		gss_buffer_desc u = { gc->unwrapped_len, gc->unwrapped };
		gss_release_buffer(&minor, &u);
	}
	gss_ctx_put(gc->ctx);
	memset(gc, 0, sizeof(*gc));
}
