/* RPC call decoding, procedure dispatch and reply encoding (RFC 5531). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "be.h"
#include "clients.h"
#include "creds.h"
#include "dispatch.h"
#include "drc.h"
#include "gss.h"
#include "log.h"
#include "stats.h"
#include "readpipe.h"
#include "transport.h"
#include "worker.h"

#define MAX_PROGRAMS 8
#define MAX_VERSIONS 4		/* per program */
#define ARGS_MAX 512		/* largest rpcgen argument struct, checked at registration */
#define ARENA_CHUNK (256u << 10)
/* The largest plain result an RPCSEC_GSS call leaves in the DRC (results of PROC_DRC calls are small). */
#define DRC_GSS_BODY_MAX 65536

_Static_assert(RG_MAX_GIDS == RPC_MAX_GIDS, "a principal's groups fit an rpc_cred");

/* What every call holds while its procedure runs (dispatch_set_hold). */
static struct export_table *(*hold_acquire)(void);
static void (*hold_release)(struct export_table *);

void
dispatch_set_hold(struct export_table *(*acquire)(void), void (*release)(struct export_table *))
{
	hold_acquire = acquire;
	hold_release = release;
}

static const struct rpc_program *programs[MAX_PROGRAMS];
static unsigned nprograms;
/* First statistics slot of each program version (stats_register_version), or -1. */
static int slot_base[MAX_PROGRAMS][MAX_VERSIONS];

void
dispatch_register(const struct rpc_program *prog)
{
	if (nprograms == MAX_PROGRAMS)
		fatalx("too many RPC programs");
	for (unsigned v = 0; v < prog->nversions; v++)
		for (unsigned p = 0; p < prog->versions[v].nprocs; p++)
			if (prog->versions[v].procs[p].args_size > ARGS_MAX)
				fatalx("%s: argument struct too large", prog->versions[v].procs[p].name);
	for (unsigned v = 0; v < MAX_VERSIONS; v++) {
		const struct rpc_version *rv;
		const char *names[STATS_MAX_PROCS];

		slot_base[nprograms][v] = -1;
		if (v >= prog->nversions || prog->versions[v].nprocs > STATS_MAX_PROCS)
			continue;
		rv = &prog->versions[v];
		for (unsigned p = 0; p < rv->nprocs; p++)
			names[p] = rv->procs[p].fn ? rv->procs[p].name : NULL;
		slot_base[nprograms][v] = stats_register_version(prog->name, prog->prog, rv->vers,
		    names, rv->nprocs);
	}
	programs[nprograms++] = prog;
}

size_t
dispatch_programs(const struct rpc_program *const **out)
{
	*out = programs;
	return nprograms;
}

struct worker *
worker_new(void)
{
	struct worker *w = calloc(1, sizeof(*w));

	if (w == NULL || (w->reply = malloc(REPLY_HEADROOM + REPLY_BUF_LEN)) == NULL)
		fatal("worker buffers");
	creds_init(&w->creds);
	readpipe_init(&w->pipe);
	return w;
}

void
worker_free(struct worker *w)
{
	while (w->arena) {
		struct arena_chunk *c = w->arena;
		w->arena = c->next;
		free(c);
	}
	readpipe_discard(&w->pipe);
	free(w->databuf);
	free(w->gss_body);
	free(w->drc_body);
	free(w->reply);
	free(w);
}

void *
call_alloc(struct rpc_call *call, size_t n)
{
	struct worker *w = call->w;
	struct arena_chunk *c = w->arena;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (c == NULL || c->cap - c->used < n) {
		size_t cap = n > ARENA_CHUNK ? n : ARENA_CHUNK;
		c = malloc(sizeof(*c) + cap);
		if (c == NULL)
			return NULL;
		c->next = w->arena;
		c->used = 0;
		c->cap = cap;
		w->arena = c;
	}
	p = c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

struct creds_state *
call_creds(struct rpc_call *call)
{
	return &call->w->creds;
}

void *
call_databuf(struct rpc_call *call, size_t n)
{
	struct worker *w = call->w;

	if (w->databuf_len < n) {
		free(w->databuf);
		w->databuf = malloc(n);
		w->databuf_len = w->databuf ? n : 0;
	}
	return w->databuf;
}

int
call_read_pipe(struct rpc_call *call, size_t count)
{
	struct worker *w = call->w;
	const struct rpc_req *req = call->req;

	/*
	 * Only a reply that goes out now, over TCP, can take data from a pipe;
	 * not one that RPCSEC_GSS signs or seals whole.
	 */
	if (req->proto != IPPROTO_TCP || req->conn == NULL || w->hold_reply || count < GAP_MIN ||
	    (w->gss && gss_call_wraps(w->gss)))
		return -1;
	return readpipe_for(&w->pipe, count);
}

void
call_read_spliced(struct rpc_call *call, size_t n)
{
	call->w->pipe.held = n;
}

static void
arena_reset(struct worker *w)
{
	/* Keep one chunk warm; give back the rest (a big READDIR may have grown it). */
	while (w->arena && w->arena->next) {
		struct arena_chunk *c = w->arena;
		w->arena = c->next;
		free(c);
	}
	if (w->arena) {
		if (w->arena->cap > ARENA_CHUNK) {
			free(w->arena);
			w->arena = NULL;
		} else {
			w->arena->used = 0;
		}
	}
}

/* Does the transport of req carry version v? */
static int
version_on(const struct rpc_version *v, const struct rpc_req *req)
{
	return !(v->flags & RPC_VERS_TCP_ONLY) || req->proto != IPPROTO_UDP;
}

/* Does req's transport carry any version of p? */
static int
program_on(const struct rpc_program *p, const struct rpc_req *req)
{
	for (unsigned v = 0; v < p->nversions; v++)
		if (version_on(&p->versions[v], req))
			return 1;
	return 0;
}

/* The range of versions of p that req's transport carries. */
static void
reply_prog_mismatch(struct worker *w, struct rpc_req *req, uint32_t xid,
    const struct rpc_program *p)
{
	struct rpc_msg r;
	uint32_t low = UINT32_MAX, high = 0;

	for (unsigned v = 0; v < p->nversions; v++) {
		if (!version_on(&p->versions[v], req))
			continue;
		if (p->versions[v].vers < low)
			low = p->versions[v].vers;
		if (p->versions[v].vers > high)
			high = p->versions[v].vers;
	}
	memset(&r, 0, sizeof(r));
	r.rm_xid = xid;
	r.rm_direction = REPLY;
	r.rm_reply.rp_stat = MSG_ACCEPTED;
	r.acpted_rply.ar_verf = _null_auth;
	if (w->gss)
		gss_reply_verf(w->gss, &r.acpted_rply.ar_verf);
	r.acpted_rply.ar_stat = PROG_MISMATCH;
	r.acpted_rply.ar_vers.low = low;
	r.acpted_rply.ar_vers.high = high;
	send_reply(w, req, &r);
}

/* ---- calls ---- */

/*
 * libtirpc's xdr_callmsg() refuses a call whose RPC version is not 2, so
 * such calls never reach the version check below.  Look at the first
 * three words ourselves: xid, CALL, rpcvers.  A call of another RPC
 * version is answered RPC_MISMATCH (RFC 5531 section 9) instead of
 * silently dropped, so its sender learns why.
 */
static int
call_with_other_rpcvers(const struct rpc_req *req, uint32_t *xid)
{
	uint32_t direction, rpcvers;

	return req_call_word(req, 0, xid) && req_call_word(req, 1, &direction) &&
	    req_call_word(req, 2, &rpcvers) && direction == CALL && rpcvers != RPC_MSG_VERSION;
}

/*
 * A call of our RPC version whose header did not decode: its XID is still
 * the first word, so say what was wrong rather than leave the client to
 * time out. xdr_callmsg gives up on a credential or verifier longer than
 * MAX_AUTH_BYTES (RFC 5531's 400), or one the message is too short for.
 * Words: 0 xid, 1 direction, 2 rpcvers, 3-5 program, version, procedure,
 * 6 credential flavor, 7 its length, then the body, verifier flavor and
 * length. 0 if it is no such call, else the auth_stat to answer.
 */
static enum auth_stat
bad_auth_in_call(const struct rpc_req *req, uint32_t *xid)
{
	uint32_t direction, rpcvers, credlen;

	if (!req_call_word(req, 0, xid) || !req_call_word(req, 1, &direction) ||
	    !req_call_word(req, 2, &rpcvers) || direction != CALL || rpcvers != RPC_MSG_VERSION ||
	    !req_call_word(req, 7, &credlen))
		return 0;
	if (credlen > MAX_AUTH_BYTES || req->len < 8 * 4 + (size_t)((credlen + 3) & ~3u))
		return AUTH_BADCRED;
	return AUTH_BADVERF;
}

/* Decodes the AUTH_SYS body into cred without allocating. */
static int
decode_auth_sys(const struct opaque_auth *oa, struct rpc_cred *cred)
{
	char machname[MAX_MACHINE_NAME + 1];
	gid_t gids[NGRPS];
	struct authunix_parms p;
	XDR x;
	int ok;

	memset(&p, 0, sizeof(p));
	p.aup_machname = machname;
	p.aup_gids = gids;
	xdrmem_create(&x, oa->oa_base, oa->oa_length, XDR_DECODE);
	ok = xdr_authunix_parms(&x, &p);
	xdr_destroy(&x);
	if (!ok || p.aup_len > RPC_MAX_GIDS)
		return -1;
	cred->flavor = AUTH_SYS;
	cred->uid = p.aup_uid;
	cred->gid = p.aup_gid;
	cred->ngids = p.aup_len;
	for (unsigned i = 0; i < p.aup_len; i++)
		cred->gids[i] = gids[i];
	return 0;
}

/*
 * A call under RPCSEC_GSS: gss.c judges it, this only routes the verdict.
 * 1 when the procedure is to run, with the identity in call->cred and,
 * when the service wrapped them, the arguments in *ax (*use_ax set);
 * 0 when the call was answered (context creation, DESTROY, an error)
 * or dropped (a replay: no answer at all, RFC 2203 5.3.3.1).
 */
static int
route_gss(struct worker *w, struct rpc_req *req, XDR *x, const struct rpc_msg *msg,
    struct rpc_call *call, struct gss_call *gc, XDR *ax, int *use_ax)
{
	struct gss_msg m = {
		.buf = req->buf, .len = req->len, .args_off = xdr_getpos(x), .proc = call->proc,
		.cred = &msg->rm_call.cb_cred, .verf = &msg->rm_call.cb_verf,
	};
	const struct gss_identity *id;

	w->gss = gc;
	if (gss_cred_creates(m.cred) && creds_root(&w->creds) < 0) {
		reply_accepted(w, req, call->xid, SYSTEM_ERR, NULL, NULL);
		return 0;
	}
	switch (gss_call_accept(gc, &m)) {
	case GSS_RUN:
		break;
	case GSS_REPLY:
		reply_accepted(w, req, call->xid, SUCCESS, XDRPROC(gss_xdr_control), gc);
		return 0;
	case GSS_GARBAGE:
		STAT_INC(ST_REJ_GARBAGE_ARGS);
		reply_accepted(w, req, call->xid, GARBAGE_ARGS, NULL, NULL);
		return 0;
	case GSS_DENY:
		STAT_INC(ST_REJ_AUTH);
		reply_auth_error(w, req, call->xid, gc->why);
		return 0;
	case GSS_DROP:
		return 0;
	}
	id = gss_call_identity(gc);
	snprintf(w->st_principal, sizeof(w->st_principal), "%s", id->principal);
	call->cred.flavor = RPCSEC_GSS_FLAVOR;
	call->cred.gss = id;
	call->cred.gss_svc = gc->svc;
	if (id->mapped) {
		call->cred.uid = id->uid;
		call->cred.gid = id->gid;
		call->cred.ngids = id->ngids;
		memcpy(call->cred.gids, id->gids, sizeof(call->cred.gids));
	}
	if (gc->args) {
		xdrmem_create(ax, (char *)(uintptr_t)gc->args, (u_int)gc->argslen, XDR_DECODE);
		*use_ax = 1;
	}
	return 1;
}

static const struct rpc_program *
find_program(uint32_t prog)
{
	for (unsigned i = 0; i < nprograms; i++)
		if (programs[i]->prog == prog)
			return programs[i];
	return NULL;
}

static const struct rpc_version *
find_version(const struct rpc_program *p, uint32_t vers)
{
	for (unsigned v = 0; v < p->nversions; v++)
		if (p->versions[v].vers == vers)
			return &p->versions[v];
	return NULL;
}

/* The statistics slot of a procedure of a registered program version, or -1. */
static int
program_slot(const struct rpc_program *p, const struct rpc_version *v, uint32_t proc)
{
	for (unsigned i = 0; i < nprograms; i++) {
		size_t vi = (size_t)(v - p->versions);

		if (programs[i] != p)
			continue;
		if (vi >= MAX_VERSIONS || slot_base[i][vi] < 0)
			return -1;
		return slot_base[i][vi] + (int)proc;
	}
	return -1;
}

int
dispatch_is_bulk(const struct rpc_req *req)
{
	const struct rpc_program *p;
	const struct rpc_version *v;
	uint32_t prog, vers, proc;

	/* xid, direction, rpcvers, prog, vers, proc */
	if (!req_call_word(req, 3, &prog) || !req_call_word(req, 4, &vers) ||
	    !req_call_word(req, 5, &proc))
		return 0;
	if ((p = find_program(prog)) == NULL || (v = find_version(p, vers)) == NULL ||
	    proc >= v->nprocs)
		return 0;
	return (v->procs[proc].flags & PROC_BULK) != 0;
}

/* The plain encoding of a result, into w->drc_body, for the DRC to keep (RPCSEC_GSS). */
static void
capture_result(struct worker *w, const struct rpc_proc *proc, void *res)
{
	XDR x;

	w->capture_len = 0;
	if (w->drc_body == NULL && (w->drc_body = malloc(DRC_GSS_BODY_MAX)) == NULL)
		return;
	xdrmem_create(&x, (char *)w->drc_body, DRC_GSS_BODY_MAX, XDR_ENCODE);
	if (proc->xdr_res(&x, res))
		w->capture_len = xdr_getpos(&x);
	xdr_destroy(&x);
}

/* A captured result as it was encoded: what a retransmission's reply carries. */
struct plain_body {
	const uint8_t *p;
	size_t len;
};

static bool_t
xdr_plain_body(XDR *x, void *arg)
{
	const struct plain_body *b = arg;

	return XDR_PUTBYTES(x, (const char *)b->p, (u_int)b->len);
}

static size_t
run_procedure(struct worker *w, struct rpc_req *req, XDR *x, struct rpc_call *call,
    const struct rpc_proc *proc)
{
	union {
		char bytes[ARGS_MAX];
		long double align;
	} args;
	void *res = call_alloc(call, proc->res_size ? proc->res_size : 1);
	size_t len = 0;

	memset(&args, 0, sizeof(args));
	if (res == NULL)
		return reply_accepted(w, req, call->xid, SYSTEM_ERR, NULL, NULL);
	if (!proc->xdr_args(x, &args)) {
		xdr_free(proc->xdr_args, (char *)&args);
		STAT_INC(ST_REJ_GARBAGE_ARGS);
		return reply_accepted(w, req, call->xid, GARBAGE_ARGS, NULL, NULL);
	}
	call->exports = hold_acquire ? hold_acquire() : NULL;
	proc->fn(call, &args, res);
	if (hold_release)
		hold_release(call->exports);
	call->exports = NULL;
	if (!call->drop_reply && w->capture)
		capture_result(w, proc, res);
	if (!call->drop_reply)
		len = reply_accepted(w, req, call->xid, SUCCESS, proc->xdr_res, res);
	xdr_free(proc->xdr_args, (char *)&args);
	return len;
}

/*
 * Non-idempotent procedures go through the duplicate request cache: a
 * retransmission gets the original reply, a copy of a call still running
 * is dropped.
 */
/*
 * RPCSEC_GSS through the cache: a retransmission carries a new sequence
 * number (RFC 2203 5.3.3.1), so the cached reply of the first would not
 * verify. The cache keeps the plain result instead (keyed also by the
 * context), and the retry's reply gets its own verifier, its body signed
 * or sealed anew for its sequence number.
 */
static void
run_once_gss(struct worker *w, struct rpc_req *req, XDR *x, struct rpc_call *call,
    const struct rpc_proc *proc, struct drc_key *key)
{
	struct plain_body body;
	size_t len;

	key->ctx = gss_call_ctx_tag(w->gss);
	if (w->drc_body == NULL && (w->drc_body = malloc(DRC_GSS_BODY_MAX)) == NULL) {
		run_procedure(w, req, x, call, proc);
		return;
	}
	switch (drc_begin(key, w->drc_body, DRC_GSS_BODY_MAX, &len)) {
	case DRC_REPLAY:
		log_debug("xid %08x: retransmission answered from the cache, wrapped anew", call->xid);
		STAT_INC(ST_DRC_HITS);
		body.p = w->drc_body;
		body.len = len;
		reply_accepted(w, req, call->xid, SUCCESS, XDRPROC(xdr_plain_body), &body);
		return;
	case DRC_IN_PROGRESS:
		STAT_INC(ST_DRC_IN_PROGRESS);
		return;
	case DRC_NEW:
		STAT_INC(ST_DRC_MISSES);
		break;
	}
	w->hold_reply = 1;
	w->capture = 1;
	len = run_procedure(w, req, x, call, proc);
	w->hold_reply = 0;
	w->capture = 0;
	if (len && w->capture_len && !call->drc_skip)
		drc_done(key, w->drc_body, w->capture_len);
	else
		drc_forget(key);
	if (len)
		transport_reply(req, w->reply + REPLY_HEADROOM, len);
}

static void
run_once(struct worker *w, struct rpc_req *req, XDR *x, struct rpc_call *call,
    const struct rpc_proc *proc, const uint8_t *args, size_t argslen)
{
	struct drc_key key;
	size_t len;
	uint8_t *msg = w->reply + REPLY_HEADROOM;

	if (!(proc->flags & PROC_DRC) &&
	    !(proc->drc_wanted && proc->drc_wanted(args, argslen))) {
		run_procedure(w, req, x, call, proc);
		return;
	}
	drc_key_init(&key, call->xid, call->prog, call->vers, call->proc, req->proto, &req->peer,
	    args, argslen);
	if (w->gss) {
		run_once_gss(w, req, x, call, proc, &key);
		return;
	}
	switch (drc_begin(&key, msg, REPLY_BUF_LEN, &len)) {
	case DRC_REPLAY:
		log_debug("xid %08x: retransmission answered from the cache", call->xid);
		STAT_INC(ST_DRC_HITS);
		note_reply(w, msg, len);
		transport_reply(req, msg, len);
		return;
	case DRC_IN_PROGRESS:
		log_debug("xid %08x: retransmission of a call in progress dropped", call->xid);
		STAT_INC(ST_DRC_IN_PROGRESS);
		return;
	case DRC_NEW:
		STAT_INC(ST_DRC_MISSES);
		break;
	}
	/*
	 * The reply enters the cache before it is sent: a client that
	 * retransmits the moment it sees the reply must find it there, not
	 * an entry still marked in progress (whose duplicates are dropped).
	 */
	w->hold_reply = 1;
	len = run_procedure(w, req, x, call, proc);
	w->hold_reply = 0;
	if (len) {
		if (call->drc_skip)
			drc_forget(&key);
		else
			drc_done(&key, msg, len);
		transport_reply(req, msg, len);
	} else {
		drc_forget(&key);
	}
}

/*
 * Statistics for one call, in the one place every call passes: its slot
 * (program, version, procedure; -1 when it named none of ours), what the
 * reply said (note_reply), sizes, the time it waited in the work queue
 * and the time it took from here to its reply.
 */
static void
count_call(struct worker *w, const struct rpc_req *req, int slot, uint64_t t0)
{
#ifndef USERNFSD_NO_STATS
	uint64_t t1 = stats_now_us();
	uint64_t wait = req->queued_us && req->queued_us < t0 ? t0 - req->queued_us : 0;

	stats_call(slot, w->st_rpc_error, w->st_has_status, w->st_status, req->len, w->st_out,
	    wait, t1 - t0);
	clients_note_call(&req->peer, req->len, w->st_out, w->st_principal[0] ? w->st_principal : NULL);
#else
	(void)w; (void)req; (void)slot; (void)t0;
#endif
}

void
dispatch_request(struct worker *w, struct rpc_req *req)
{
	char credbuf[MAX_AUTH_BYTES], verfbuf[MAX_AUTH_BYTES];
	struct rpc_call call;
	struct rpc_msg msg;
	struct gss_call gc;
	const struct rpc_program *prog;
	const struct rpc_version *vers;
	XDR x, ax;
	int slot = -1, counted = 1, use_ax = 0;
#ifndef USERNFSD_NO_STATS
	uint64_t t0 = stats_now_us();
#else
	uint64_t t0 = 0;
#endif

	w->st_flags = 0;
	w->st_principal[0] = '\0';
	w->st_out = 0;
	w->st_rpc_error = 0;
	w->st_has_status = 0;
	memset(&call, 0, sizeof(call));
	memset(&msg, 0, sizeof(msg));
	msg.rm_call.cb_cred.oa_base = credbuf;
	msg.rm_call.cb_verf.oa_base = verfbuf;
	xdrmem_create(&x, (char *)req->buf, (u_int)req->len, XDR_DECODE);
	if (!xdr_callmsg(&x, &msg) || msg.rm_direction != CALL) {
		enum auth_stat why;

		if (call_with_other_rpcvers(req, &call.xid)) {
			STAT_INC(ST_REJ_RPC_VERSION);
			reply_rpc_mismatch(w, req, call.xid);
			goto out;
		}
		if ((why = bad_auth_in_call(req, &call.xid)) != 0) {
			STAT_INC(ST_REJ_AUTH);
			reply_auth_error(w, req, call.xid, why);
			goto out;
		}
		/*
		 * Not a call at all: nothing to answer (RFC 5531 allows the
		 * drop). A TCP stream that carries such a record is closed, so
		 * its client learns at once rather than after its timeout.
		 */
		log_debug("dropping undecodable call header (%zu bytes)", req->len);
		STAT_INC(ST_REJ_UNDECODABLE);
		counted = 0;	/* no call, no client to count it for */
		transport_drop(req);
		goto out;
	}
	call.req = req;
	call.w = w;
	call.xid = (uint32_t)msg.rm_xid;
	call.prog = (uint32_t)msg.rm_call.cb_prog;
	call.vers = (uint32_t)msg.rm_call.cb_vers;
	call.proc = (uint32_t)msg.rm_call.cb_proc;
	if (msg.rm_call.cb_rpcvers != RPC_MSG_VERSION) {
		STAT_INC(ST_REJ_RPC_VERSION);
		reply_rpc_mismatch(w, req, call.xid);
		goto out;
	}
	/*
	 * RPCSEC_GSS before the program is looked up, as knfsd does: every
	 * reply, PROG_UNAVAIL, PROG_MISMATCH and PROC_UNAVAIL too, then
	 * carries the verifier the client checks (a null one it would refuse).
	 */
	if (msg.rm_call.cb_cred.oa_flavor == RPCSEC_GSS_FLAVOR &&
	    !route_gss(w, req, &x, &msg, &call, &gc, &ax, &use_ax))
		goto out;
	prog = find_program(call.prog);
	/* NFSv4 alone, called over UDP: no version of it is there (RFC 5531's PROG_UNAVAIL). */
	if (prog == NULL || !program_on(prog, req)) {
		STAT_INC(ST_REJ_NO_PROGRAM);
		reply_accepted(w, req, call.xid, PROG_UNAVAIL, NULL, NULL);
		goto out;
	}
	vers = find_version(prog, call.vers);
	if (vers == NULL || !version_on(vers, req)) {
		STAT_INC(ST_REJ_NO_VERSION);
		reply_prog_mismatch(w, req, call.xid, prog);
		goto out;
	}
	if (call.proc >= vers->nprocs || vers->procs[call.proc].fn == NULL) {
		STAT_INC(ST_REJ_NO_PROCEDURE);
		reply_accepted(w, req, call.xid, PROC_UNAVAIL, NULL, NULL);
		goto out;
	}
	slot = program_slot(prog, vers, call.proc);
	w->st_flags = vers->procs[call.proc].flags;
	switch (msg.rm_call.cb_cred.oa_flavor) {
	case AUTH_NONE:
		call.cred.flavor = AUTH_NONE;
		if (vers->procs[call.proc].flags & PROC_AUTH_SYS) {
			STAT_INC(ST_REJ_AUTH);
			reply_auth_error(w, req, call.xid, AUTH_TOOWEAK);
			goto out;
		}
		break;
	case AUTH_SYS:
		if (decode_auth_sys(&msg.rm_call.cb_cred, &call.cred) < 0) {
			STAT_INC(ST_REJ_AUTH);
			reply_auth_error(w, req, call.xid, AUTH_BADCRED);
			goto out;
		}
		break;
	case RPCSEC_GSS_FLAVOR:
		break;		/* routed above */
	default:
		STAT_INC(ST_REJ_AUTH);
		reply_auth_error(w, req, call.xid, AUTH_BADCRED);
		goto out;
	}
	log_debug("xid %08x %s v%u %s", call.xid, prog->name, call.vers,
	    vers->procs[call.proc].name);
	STAT_INC(call.cred.flavor == AUTH_NONE ? ST_CALLS_AUTH_NONE :
	    call.cred.flavor == AUTH_SYS ? ST_CALLS_AUTH_SYS :
	    call.cred.gss_svc == RG_SVC_PRIVACY ? ST_CALLS_KRB5P :
	    call.cred.gss_svc == RG_SVC_INTEGRITY ? ST_CALLS_KRB5I : ST_CALLS_KRB5);
	/* The arguments as the procedure reads them (unwrapped), for the DRC's key. */
	if (use_ax)
		run_once(w, req, &ax, &call, &vers->procs[call.proc], gc.args, gc.argslen);
	else
		run_once(w, req, &x, &call, &vers->procs[call.proc], req->buf + xdr_getpos(&x),
		    req->len - xdr_getpos(&x));
out:
	if (use_ax)
		xdr_destroy(&ax);
	if (w->gss) {
		gss_call_end(w->gss);
		w->gss = NULL;
	}
	if (counted)
		count_call(w, req, slot, t0);
	xdr_destroy(&x);
	arena_reset(w);
	if (w->pipe.held)
		readpipe_discard(&w->pipe);	/* data spliced for a reply never sent */
	req_free(req);
}
