/*
 * nlmprobe - a raw NLM (Network Lock Manager, program 100021, versions 1,
 * 3 and 4) and NSM (status monitor, program 100024) test client for
 * usernfsd's integration tests, and the callback server a client of a lock
 * manager has to run.
 *
 * Arguments and results go through the XDR routines rpcgen generated from
 * rpcsvc-proto's nlm_prot.x (v1/v3) and sm_inter.x, and the build's
 * nlm4_prot.x (v4, RFC 1813 chapter 6), so the tests speak what a real
 * client speaks. Only where a test wants what those routines refuse to
 * encode (a caller name, owner, cookie or handle beyond LM_MAXSTRLEN or
 * MAXNETOBJ_SZ, 1024 bytes; a caller name with a NUL inside) are the
 * arguments laid out by hand, field by field in the same order (with
 * rpcraw.h's encoder); the probe says so with encoder=raw. The client, the
 * options -t -P -a -S, the rpc=NAME lines and the "++" command loop are
 * rpcraw.h's too.
 *
 * Usage: nlmprobe [OPTIONS] HOST PORT udp|tcp|udp6|tcp6 COMMAND [ARGS...]
 *                 [++ COMMAND [ARGS...]]...
 *        nlmprobe [OPTIONS] listen [granted|denied|never]
 *        nlmprobe local-lock|local-test PATH OFFSET LENGTH [r|w] [SECONDS]
 * "nlmprobe --help" lists the commands and options.
 *
 * Output, one key=value per word, for shell tests to pick apart:
 *   rpc=SUCCESS | rpc=SENT (a one-way _MSG/_RES message) | rpc=NAME (...)
 *   stat=N name=NLM4_GRANTED... cookie=HEX cookie_ok=1|0   (the reply)
 *   holder_exclusive= holder_svid= holder_oh=HEX holder_offset= holder_len=
 *   encoder=raw        the arguments were encoded by hand
 * The listener prints one line per call it receives:
 *   callback=GRANTED vers=4 from=ADDR cookie=HEX caller=NAME svid=N oh=HEX
 *     offset=N len=N exclusive=0|1 answer=granted|denied|none
 *   callback=LOCK_RES ... stat=N (the _RES messages), callback=NULL, ...
 * and listening=1 udp_port=N tcp_port=N once it is registered.
 *
 * Exit status: 0 when every RPC went through (whatever its NLM status), 1
 * on an RPC-level failure, 2 on a usage error.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rpc/rpc.h>

#include "rpc/nlm_prot.h"
#include "rpc/nlm4_prot.h"
#include "rpc/sm_inter_prot.h"
#include "rpcraw.h"

/* Procedure numbers, the same in every version (v1 has 0..16 only). */
enum {
	P_NULL = 0, P_TEST = 1, P_LOCK = 2, P_CANCEL = 3, P_UNLOCK = 4, P_GRANTED = 5,
	P_TEST_MSG = 6, P_LOCK_MSG = 7, P_CANCEL_MSG = 8, P_UNLOCK_MSG = 9,
	P_GRANTED_MSG = 10, P_TEST_RES = 11, P_LOCK_RES = 12, P_CANCEL_RES = 13,
	P_UNLOCK_RES = 14, P_GRANTED_RES = 15, P_SM_NOTIFY = 16, P_SHARE = 20,
	P_UNSHARE = 21, P_NM_LOCK = 22, P_FREE_ALL = 23
};
#define NLM_PROGRAM 100021u
#define SM_PROGRAM 100024u
#define SMPROC_NOTIFY 6u	/* not in rpcsvc-proto's sm_inter.x */
#define XDR_LIMIT 1024u		/* LM_MAXSTRLEN and MAXNETOBJ_SZ */

/* ---- options ---- */

struct blob {
	char *data;
	u_int len;
};

/* nlmprobe's own options; the target, -t, -P, -a and -S are rpcraw's (rr). */
static struct {
	unsigned vers;		/* -v: 1, 3 or 4 */
	struct blob caller;	/* -n */
	struct blob owner;	/* -o */
	struct blob cookie;	/* -k (empty: a fresh 8-byte cookie per call) */
	int svid;		/* -i */
	int state;		/* -s: the client's NSM state in LOCK */
	int raw;		/* -R: always encode by hand */
} opt = { .vers = 4, .svid = 1, .state = 1 };

static struct blob
parse_hex(const char *s)
{
	struct blob b;

	b.data = rr_parse_hex(s, &b.len);
	return b;
}

/*
 * A byte string from the command line: "hex:HEX", "len:N" (N bytes of
 * FILL: the oversize cases), "len:N:C" (N copies of the character C), or
 * anything else taken as HEX when hex_default is set (handles) and as text
 * otherwise (names). Always NUL-terminated beyond len, for xdr_string.
 */
static struct blob
parse_blob(const char *s, int hex_default, char fill)
{
	struct blob b;

	if (strncmp(s, "hex:", 4) == 0)
		return parse_hex(s + 4);
	if (strncmp(s, "len:", 4) == 0) {
		char *colon = strchr(s + 4, ':');
		char *num = strdup(s + 4);

		if (colon) {
			num[colon - (s + 4)] = '\0';
			if (colon[1] == '\0' || colon[2] != '\0')
				rr_die_usage("len:N:C takes one character, not '%s'", colon + 1);
			fill = colon[1];
		}
		b.len = (u_int)rr_parse_num(num, "length");
		free(num);
		if (b.len > 16u << 20)
			rr_die_usage("at most 16 MiB, please");
		b.data = rr_xmalloc(b.len + 1);
		memset(b.data, fill, b.len);
		b.data[b.len] = '\0';
		return b;
	}
	if (hex_default)
		return parse_hex(s);
	b.data = strdup(s);
	b.len = (u_int)strlen(s);
	return b;
}

/*
 * A one-way message (the _MSG and _RES procedures): no reply is awaited.
 * libtirpc's TCP client ships the record at once only when it has a
 * result decoder (without one and with no time to wait it keeps the
 * record buffered, and closing the client drops it); its UDP client does
 * not send at all with no time to wait, so it gets a millisecond. A reply
 * the server sends anyway is skipped by the next call (its XID differs).
 */
static enum clnt_stat
msg_call(CLIENT *clnt, int dg, unsigned long proc, xdrproc_t xargs, void *args)
{
	struct timeval zero = { 0, 0 }, ms = { 0, 1000 };

	return clnt_call(clnt, proc, xargs, args, RR_XDRP(xdr_void), NULL, dg ? ms : zero);
}

static int
send_msg(unsigned long prog, unsigned long vers, unsigned long proc, xdrproc_t xargs, void *args)
{
	enum clnt_stat st = msg_call(rr_client(prog, vers, 0), rr_is_udp(), proc, xargs, args);

	if (st == RPC_SUCCESS || st == RPC_TIMEDOUT) {
		printf("rpc=SENT\n");
		return 1;
	}
	printf("rpc=%s (%s)\n", rr_clnt_stat_name(st), clnt_sperrno(st));
	rr_drop_client();
	return 0;
}

/* ---- hand-made argument bodies (struct rr_enc), for what rpcgen's
 * encoders refuse ---- */

/* ---- one lock request, whatever the version ---- */

struct lk {
	struct blob cookie, caller, fh, oh;
	int svid;
	uint64_t off, len;
	int excl, block, reclaim;
};

/* The reply of a TEST, LOCK, CANCEL, UNLOCK, SHARE...: what the tests look at. */
struct answer {
	netobj cookie;
	int stat;
	int denied_holder;	/* TEST: a holder came with the denial */
	nlm4_holder holder;	/* v1/v3 holders are widened into it */
	int sequence;		/* SHARE */
};

static unsigned cookie_counter;

static struct blob
next_cookie(void)
{
	struct blob b;

	if (opt.cookie.data)
		return opt.cookie;
	/* distinct per call and per process, so a crossed reply would show */
	b.len = 8;
	b.data = rr_xmalloc(9);
	snprintf(b.data, 9, "%04x%04x", (unsigned)getpid() & 0xffff, ++cookie_counter & 0xffff);
	return b;
}

static void
lk_init(struct lk *l, const char *fh, const char *off, const char *len)
{
	memset(l, 0, sizeof(*l));
	l->cookie = next_cookie();
	l->caller = opt.caller;
	l->fh = parse_blob(fh, 1, (char)0xab);
	l->oh = opt.owner;
	l->svid = opt.svid;
	l->off = rr_parse_num(off, "offset");
	l->len = rr_parse_num(len, "length");
	l->excl = 1;
	if (opt.vers < 4 && (l->off > UINT32_MAX || l->len > UINT32_MAX))
		rr_die_usage("NLM v%u offsets and lengths are 32 bits", opt.vers);
}

/* What lk_init allocated: the fh, and the cookie unless -k gave it. */
static void
lk_free(struct lk *l)
{
	if (l->cookie.data != opt.cookie.data)
		free(l->cookie.data);
	free(l->fh.data);
}

/* Words after the range: shared, block, reclaim. */
static void
lk_flags(struct lk *l, char **av)
{
	for (; *av; av++) {
		if (strcmp(*av, "shared") == 0)
			l->excl = 0;
		else if (strcmp(*av, "exclusive") == 0)
			l->excl = 1;
		else if (strcmp(*av, "block") == 0)
			l->block = 1;
		else if (strcmp(*av, "reclaim") == 0)
			l->reclaim = 1;
		else
			rr_die_usage("unknown flag '%s' (shared, exclusive, block, reclaim)", *av);
	}
}

/* Does anything exceed what rpcgen's encoders take? Then lay it out by hand. */
static int
lk_needs_raw(const struct lk *l)
{
	return opt.raw || l->cookie.len > XDR_LIMIT || l->caller.len > XDR_LIMIT ||
	    l->fh.len > XDR_LIMIT || l->oh.len > XDR_LIMIT ||
	    memchr(l->caller.data, '\0', l->caller.len) != NULL;
}

static netobj
nobj(const struct blob *b)
{
	netobj n = { b->len, b->data };

	return n;
}

static void
lock1_of(const struct lk *l, nlm_lock *a)
{
	a->caller_name = l->caller.data;
	a->fh = nobj(&l->fh);
	a->oh = nobj(&l->oh);
	a->svid = l->svid;
	a->l_offset = (u_int)l->off;
	a->l_len = (u_int)l->len;
}

static void
lock4_of(const struct lk *l, nlm4_lock *a)
{
	a->caller_name = l->caller.data;
	a->fh = nobj(&l->fh);
	a->oh = nobj(&l->oh);
	a->svid = l->svid;
	a->l_offset = l->off;
	a->l_len = l->len;
}

/* The raw layout of nlm_lock / nlm4_lock. */
static void
body_lock(struct rr_enc *b, const struct lk *l)
{
	rr_enc_opaque(b, l->caller.data, l->caller.len);
	rr_enc_opaque(b, l->fh.data, l->fh.len);
	rr_enc_opaque(b, l->oh.data, l->oh.len);
	rr_enc_u32(b, (uint32_t)l->svid);
	if (opt.vers == 4) {
		rr_enc_u64(b, l->off);
		rr_enc_u64(b, l->len);
	} else {
		rr_enc_u32(b, (uint32_t)l->off);
		rr_enc_u32(b, (uint32_t)l->len);
	}
}

/* Which fields a procedure's arguments have, in order after the cookie. */
enum argkind { A_TEST, A_LOCK, A_CANCEL, A_UNLOCK };

static enum argkind
argkind_of(unsigned proc)
{
	switch (proc) {
	case P_TEST: case P_TEST_MSG: case P_GRANTED: case P_GRANTED_MSG: return A_TEST;
	case P_LOCK: case P_LOCK_MSG: case P_NM_LOCK: return A_LOCK;
	case P_CANCEL: case P_CANCEL_MSG: return A_CANCEL;
	default: return A_UNLOCK;
	}
}

static void
body_args(struct rr_enc *b, unsigned proc, const struct lk *l)
{
	enum argkind k = argkind_of(proc);

	rr_enc_opaque(b, l->cookie.data, l->cookie.len);
	if (k == A_LOCK || k == A_CANCEL)
		rr_enc_u32(b, (uint32_t)l->block);
	if (k != A_UNLOCK)
		rr_enc_u32(b, (uint32_t)l->excl);
	body_lock(b, l);
	if (k == A_LOCK) {
		rr_enc_u32(b, (uint32_t)l->reclaim);
		rr_enc_u32(b, (uint32_t)opt.state);
	}
}

/* All four argument structures of both generations, filled from one lk. */
union args {
	nlm_testargs t1; nlm_lockargs l1; nlm_cancargs c1; nlm_unlockargs u1;
	nlm4_testargs t4; nlm4_lockargs l4; nlm4_cancargs c4; nlm4_unlockargs u4;
};

static xdrproc_t
fill_args1(union args *a, enum argkind k, const struct lk *l)
{
	netobj c = nobj(&l->cookie);

	switch (k) {
	case A_TEST:
		a->t1.cookie = c;
		a->t1.exclusive = l->excl;
		lock1_of(l, &a->t1.alock);
		return RR_XDRP(xdr_nlm_testargs);
	case A_LOCK:
		a->l1.cookie = c;
		a->l1.block = l->block;
		a->l1.exclusive = l->excl;
		lock1_of(l, &a->l1.alock);
		a->l1.reclaim = l->reclaim;
		a->l1.state = opt.state;
		return RR_XDRP(xdr_nlm_lockargs);
	case A_CANCEL:
		a->c1.cookie = c;
		a->c1.block = l->block;
		a->c1.exclusive = l->excl;
		lock1_of(l, &a->c1.alock);
		return RR_XDRP(xdr_nlm_cancargs);
	default:
		a->u1.cookie = c;
		lock1_of(l, &a->u1.alock);
		return RR_XDRP(xdr_nlm_unlockargs);
	}
}

static xdrproc_t
fill_args4(union args *a, enum argkind k, const struct lk *l)
{
	netobj c = nobj(&l->cookie);

	switch (k) {
	case A_TEST:
		a->t4.cookie = c;
		a->t4.exclusive = l->excl;
		lock4_of(l, &a->t4.alock);
		return RR_XDRP(xdr_nlm4_testargs);
	case A_LOCK:
		a->l4.cookie = c;
		a->l4.block = l->block;
		a->l4.exclusive = l->excl;
		lock4_of(l, &a->l4.alock);
		a->l4.reclaim = l->reclaim;
		a->l4.state = opt.state;
		return RR_XDRP(xdr_nlm4_lockargs);
	case A_CANCEL:
		a->c4.cookie = c;
		a->c4.block = l->block;
		a->c4.exclusive = l->excl;
		lock4_of(l, &a->c4.alock);
		return RR_XDRP(xdr_nlm4_cancargs);
	default:
		a->u4.cookie = c;
		lock4_of(l, &a->u4.alock);
		return RR_XDRP(xdr_nlm4_unlockargs);
	}
}

/* Replies: every version's result structure, decoded into struct answer. */
union results {
	nlm_res r1; nlm_testres t1; nlm_shareres s1;
	nlm4_res r4; nlm4_testres t4; nlm4_shareres s4;
};

static xdrproc_t
res_decoder(unsigned proc)
{
	int v4 = opt.vers == 4;

	if (proc == P_TEST)
		return v4 ? RR_XDRP(xdr_nlm4_testres) : RR_XDRP(xdr_nlm_testres);
	if (proc == P_SHARE || proc == P_UNSHARE)
		return v4 ? RR_XDRP(xdr_nlm4_shareres) : RR_XDRP(xdr_nlm_shareres);
	return v4 ? RR_XDRP(xdr_nlm4_res) : RR_XDRP(xdr_nlm_res);
}

static void
answer_of(unsigned proc, const union results *r, struct answer *a)
{
	memset(a, 0, sizeof(*a));
	if (proc == P_TEST && opt.vers == 4) {
		a->cookie = r->t4.cookie;
		a->stat = r->t4.stat.stat;
		a->denied_holder = a->stat == 1;
		a->holder = r->t4.stat.nlm4_testrply_u.holder;
	} else if (proc == P_TEST) {
		const nlm_holder *h = &r->t1.stat.nlm_testrply_u.holder;

		a->cookie = r->t1.cookie;
		a->stat = r->t1.stat.stat;
		a->denied_holder = a->stat == 1;
		a->holder.exclusive = h->exclusive;
		a->holder.svid = h->svid;
		a->holder.oh = h->oh;
		a->holder.l_offset = h->l_offset;
		a->holder.l_len = h->l_len;
	} else if (proc == P_SHARE || proc == P_UNSHARE) {
		a->cookie = opt.vers == 4 ? r->s4.cookie : r->s1.cookie;
		a->stat = opt.vers == 4 ? (int)r->s4.stat : (int)r->s1.stat;
		a->sequence = opt.vers == 4 ? r->s4.sequence : r->s1.sequence;
	} else {
		a->cookie = opt.vers == 4 ? r->r4.cookie : r->r1.cookie;
		a->stat = opt.vers == 4 ? (int)r->r4.stat.stat : (int)r->r1.stat.stat;
	}
}

/* ---- printing ---- */

static const char *
stat_name(int st)
{
	static const char *const v4[] = { "GRANTED", "DENIED", "DENIED_NOLOCKS", "BLOCKED",
		"DENIED_GRACE_PERIOD", "DEADLCK", "ROFS", "STALE_FH", "FBIG", "FAILED" };

	if (st < 0 || st > 9 || (opt.vers < 4 && st > 4))
		return "UNKNOWN";
	return v4[st];
}

/* The reply on one line; cookie_ok says whether it echoed sent_cookie (when given). */
static void
print_answer(unsigned proc, const struct answer *a, const struct blob *sent_cookie)
{
	printf("stat=%d name=%s%s ", a->stat, opt.vers == 4 ? "NLM4_" : "LCK_", stat_name(a->stat));
	rr_print_hex("cookie", a->cookie.n_bytes, a->cookie.n_len, 64);
	if (sent_cookie)
		printf(" cookie_ok=%d", a->cookie.n_len == sent_cookie->len &&
		    (sent_cookie->len == 0 ||
		    memcmp(a->cookie.n_bytes, sent_cookie->data, sent_cookie->len) == 0));
	if (proc == P_SHARE || proc == P_UNSHARE)
		printf(" sequence=%d", a->sequence);
	if (a->denied_holder) {
		printf(" holder_exclusive=%d holder_svid=%d ", (int)a->holder.exclusive,
		    a->holder.svid);
		rr_print_hex("holder_oh", a->holder.oh.n_bytes, a->holder.oh.n_len, 64);
		printf(" holder_offset=%llu holder_len=%llu",
		    (unsigned long long)a->holder.l_offset, (unsigned long long)a->holder.l_len);
	}
	printf("\n");
}

enum outcome { FAILED, REPLIED, SENT };

/*
 * One TEST/LOCK/CANCEL/UNLOCK/GRANTED/NM_LOCK (or its _MSG form) of l.
 * Fills *ans when a reply was decoded (REPLIED); SENT for a message;
 * FAILED after an RPC failure, which rr_call() printed.
 */
static enum outcome
lock_call(unsigned proc, const struct lk *l, struct answer *ans, union results *resp)
{
	union args a;
	xdrproc_t xargs;
	void *argp = &a;
	struct rr_enc raw = { 0 };
	int is_msg = proc >= P_TEST_MSG && proc <= P_GRANTED_MSG;
	int ok;

	if (lk_needs_raw(l)) {
		body_args(&raw, proc, l);
		xargs = RR_XDRP(rr_xdr_send);
		argp = &raw;
		if (!rr.quiet)
			printf("encoder=raw bytes=%u\n", raw.len);
	} else {
		memset(&a, 0, sizeof(a));
		xargs = opt.vers == 4 ? fill_args4(&a, argkind_of(proc), l) :
		    fill_args1(&a, argkind_of(proc), l);
	}
	if (is_msg) {
		ok = send_msg(NLM_PROGRAM, opt.vers, proc, xargs, argp);
		free(raw.buf);
		return ok ? SENT : FAILED;
	}
	memset(resp, 0, sizeof(*resp));
	ok = rr_call(NLM_PROGRAM, opt.vers, proc, xargs, argp, res_decoder(proc), resp);
	free(raw.buf);
	if (!ok)
		return FAILED;
	answer_of(proc, resp, ans);
	return REPLIED;
}

static int
lock_cmd(unsigned proc, char **av)
{
	struct lk l;
	struct answer ans;
	union results resp;
	enum outcome o;

	lk_init(&l, av[0], av[1], av[2]);
	lk_flags(&l, av + 3);
	o = lock_call(proc, &l, &ans, &resp);
	if (o == REPLIED) {
		print_answer(proc, &ans, &l.cookie);
		xdr_free(res_decoder(proc), (char *)&resp);
	}
	lk_free(&l);
	return o == FAILED ? 1 : 0;
}

static int cmd_test(char **av) { return lock_cmd(P_TEST, av); }
static int cmd_lock(char **av) { return lock_cmd(P_LOCK, av); }
static int cmd_cancel(char **av) { return lock_cmd(P_CANCEL, av); }
static int cmd_unlock(char **av) { return lock_cmd(P_UNLOCK, av); }
static int cmd_granted(char **av) { return lock_cmd(P_GRANTED, av); }
static int cmd_nm_lock(char **av) { return lock_cmd(P_NM_LOCK, av); }
static int cmd_test_msg(char **av) { return lock_cmd(P_TEST_MSG, av); }
static int cmd_lock_msg(char **av) { return lock_cmd(P_LOCK_MSG, av); }
static int cmd_cancel_msg(char **av) { return lock_cmd(P_CANCEL_MSG, av); }
static int cmd_unlock_msg(char **av) { return lock_cmd(P_UNLOCK_MSG, av); }
static int cmd_granted_msg(char **av) { return lock_cmd(P_GRANTED_MSG, av); }

static int
cmd_null(char **av)
{
	(void)av;
	return rr_call(NLM_PROGRAM, opt.vers, P_NULL, RR_XDRP(xdr_void), NULL, RR_XDRP(xdr_void), NULL) ?
	    0 : 1;
}

/* ---- SHARE / UNSHARE (v3, v4) ---- */

static int
share_word(const char *s, const char *const *names, const char *what)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return (int)rr_parse_num(s, what);	/* a number: out-of-range values are a test too */
}

static void
body_share(struct rr_enc *b, const struct lk *l, int mode, int access)
{
	rr_enc_opaque(b, l->cookie.data, l->cookie.len);
	rr_enc_opaque(b, l->caller.data, l->caller.len);
	rr_enc_opaque(b, l->fh.data, l->fh.len);
	rr_enc_opaque(b, l->oh.data, l->oh.len);
	rr_enc_u32(b, (uint32_t)mode);
	rr_enc_u32(b, (uint32_t)access);
	rr_enc_u32(b, (uint32_t)l->reclaim);
}

static int
share_cmd(unsigned proc, char **av)
{
	static const char *const modes[] = { "dn", "dr", "dw", "drw" };
	static const char *const accesses[] = { "none", "r", "w", "rw" };
	int mode = share_word(av[1], modes, "deny mode"), access = share_word(av[2], accesses, "access");
	union { nlm_shareargs s1; nlm4_shareargs s4; } a;
	struct rr_enc raw = { 0 };
	union results resp;
	struct answer ans;
	struct lk l;
	void *argp = &a;
	xdrproc_t xargs;
	int ok;

	lk_init(&l, av[0], "0", "0");
	lk_flags(&l, av + 3);
	memset(&a, 0, sizeof(a));
	if (lk_needs_raw(&l) || mode > 3 || access > 3) {
		body_share(&raw, &l, mode, access);
		xargs = RR_XDRP(rr_xdr_send);
		argp = &raw;
		printf("encoder=raw bytes=%u\n", raw.len);
	} else if (opt.vers == 4) {
		a.s4.cookie = nobj(&l.cookie);
		a.s4.reclaim = l.reclaim;
		a.s4.share.caller_name = l.caller.data;
		a.s4.share.fh = nobj(&l.fh);
		a.s4.share.oh = nobj(&l.oh);
		a.s4.share.mode = mode;
		a.s4.share.access = access;
		xargs = RR_XDRP(xdr_nlm4_shareargs);
	} else {
		a.s1.cookie = nobj(&l.cookie);
		a.s1.reclaim = l.reclaim;
		a.s1.share.caller_name = l.caller.data;
		a.s1.share.fh = nobj(&l.fh);
		a.s1.share.oh = nobj(&l.oh);
		a.s1.share.mode = mode;
		a.s1.share.access = access;
		xargs = RR_XDRP(xdr_nlm_shareargs);
	}
	memset(&resp, 0, sizeof(resp));
	ok = rr_call(NLM_PROGRAM, opt.vers, proc, xargs, argp, res_decoder(proc), &resp);
	free(raw.buf);
	if (ok) {
		answer_of(proc, &resp, &ans);
		print_answer(proc, &ans, &l.cookie);
		xdr_free(res_decoder(proc), (char *)&resp);
	}
	lk_free(&l);
	return ok ? 0 : 1;
}

static int cmd_share(char **av) { return share_cmd(P_SHARE, av); }
static int cmd_unshare(char **av) { return share_cmd(P_UNSHARE, av); }

/* ---- FREE_ALL, the NSM callback, SM_NOTIFY ---- */

/* FREE_ALL NAME STATE: nlm_notify and nlm4_notify have the same layout. */
static int
cmd_free_all(char **av)
{
	struct blob name = parse_blob(av[0], 0, 'n');
	struct rr_enc b = { 0 };
	int ok;

	rr_enc_opaque(&b, name.data, name.len);
	rr_enc_u32(&b, (uint32_t)rr_parse_num(av[1], "state"));
	if (name.len > XDR_LIMIT || opt.raw) {
		printf("encoder=raw bytes=%u\n", b.len);
		ok = rr_call(NLM_PROGRAM, opt.vers, P_FREE_ALL, RR_XDRP(rr_xdr_send), &b, RR_XDRP(xdr_void), NULL);
	} else if (opt.vers == 4) {
		nlm4_notify n = { name.data, (int)rr_parse_num(av[1], "state") };

		ok = rr_call(NLM_PROGRAM, 4, P_FREE_ALL, RR_XDRP(xdr_nlm4_notify), &n, RR_XDRP(xdr_void), NULL);
	} else {
		nlm_notify n = { name.data, (long)rr_parse_num(av[1], "state") };

		ok = rr_call(NLM_PROGRAM, opt.vers, P_FREE_ALL, RR_XDRP(xdr_nlm_notify), &n,
		    RR_XDRP(xdr_void), NULL);
	}
	free(b.buf);
	return ok ? 0 : 1;
}

/*
 * The status monitor's callback into the lock manager (NLM procedure 16,
 * struct status of sm_inter.x): what rpc.statd sends when a monitored host
 * rebooted. A real statd sends it from a privileged loopback port.
 */
static int
cmd_status(char **av)
{
	status s;
	struct blob priv = { 0 };

	memset(&s, 0, sizeof(s));
	s.mon_name = parse_blob(av[0], 0, 'm').data;
	s.state = (int)rr_parse_num(av[1], "state");
	if (av[2]) {
		priv = parse_hex(av[2]);
		if (priv.len != sizeof(s.priv))
			rr_die_usage("priv is %zu bytes of hex", sizeof(s.priv));
		memcpy(s.priv, priv.data, sizeof(s.priv));
	}
	return rr_call(NLM_PROGRAM, opt.vers, P_SM_NOTIFY, RR_XDRP(xdr_status), &s, RR_XDRP(xdr_void), NULL) ?
	    0 : 1;
}

/* SM_NOTIFY (statd procedure 6: string mon_name, int state), what a rebooted host sends. */
static int
cmd_sm_notify(char **av)
{
	struct blob name = parse_blob(av[0], 0, 'm');
	struct rr_enc b = { 0 };
	int ok;

	rr_enc_opaque(&b, name.data, name.len);
	rr_enc_u32(&b, (uint32_t)rr_parse_num(av[1], "state"));
	ok = rr_call(SM_PROGRAM, 1, SMPROC_NOTIFY, RR_XDRP(rr_xdr_send), &b, RR_XDRP(xdr_void), NULL);
	free(b.buf);
	return ok ? 0 : 1;
}

/* SM_STAT NAME: whether statd could monitor NAME, and its own state number. */
static int
cmd_sm_stat(char **av)
{
	sm_name n = { av[0] };
	sm_stat_res r;

	memset(&r, 0, sizeof(r));
	if (!rr_call(SM_PROGRAM, 1, SM_STAT, RR_XDRP(xdr_sm_name), &n, RR_XDRP(xdr_sm_stat_res), &r))
		return 1;
	printf("res_stat=%d state=%d\n", (int)r.res_stat, r.state);
	return 0;
}

/* ---- raw bodies and floods, for the hostile tests ---- */

/*
 * raw PROC HEX: any bytes as the arguments of NLM procedure PROC. Prints
 * the reply's length and, when it decodes as PROC's result, the result.
 */
static int
cmd_raw(char **av)
{
	struct blob hex = parse_hex(av[1]);
	struct rr_enc b = { hex.data, hex.len, hex.len, 1 }, reply = { 0 };
	unsigned proc = (unsigned)rr_parse_num(av[0], "procedure");
	union results resp;
	struct answer ans;
	XDR x;

	if (!rr_call(NLM_PROGRAM, opt.vers, proc, RR_XDRP(rr_xdr_send), &b, RR_XDRP(rr_xdr_slurp), &reply))
		return 1;
	printf("reply_len=%u\n", reply.len);
	memset(&resp, 0, sizeof(resp));
	xdrmem_create(&x, reply.buf ? reply.buf : "", reply.len, XDR_DECODE);
	if (reply.len > 0 && res_decoder(proc)(&x, &resp)) {
		answer_of(proc, &resp, &ans);
		print_answer(proc, &ans, NULL);
		xdr_free(res_decoder(proc), (char *)&resp);
	}
	free(reply.buf);
	return 0;
}

/*
 * flood-block FH N [OFFSET LENGTH]: N blocking exclusive LOCKs from one
 * client (opt.caller), owners svid..svid+N-1 with owner handles
 * "flood.I", one after another on one connection; counts the answers.
 * flood-cancel undoes it with CANCELs of the same owners.
 */
static int
flood(unsigned proc, char **av)
{
	unsigned long n = (unsigned long)rr_parse_num(av[1], "count"), counts[11] = { 0 }, failed = 0;
	struct timespec t0, t1;
	char ohbuf[32];
	struct lk l;

	lk_init(&l, av[0], av[2] ? av[2] : "0", av[2] && av[3] ? av[3] : "0");
	l.block = 1;
	rr.quiet = 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned long i = 0; i < n; i++) {
		struct answer ans;
		union results resp;

		snprintf(ohbuf, sizeof(ohbuf), "flood.%lu", i);
		l.oh.data = ohbuf;
		l.oh.len = (u_int)strlen(ohbuf);
		l.svid = opt.svid + (int)i;
		if (lock_call(proc, &l, &ans, &resp) != REPLIED) {
			failed++;
			continue;
		}
		counts[ans.stat >= 0 && ans.stat < 10 ? ans.stat : 10]++;
		xdr_free(res_decoder(proc), (char *)&resp);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("sent=%lu granted=%lu denied=%lu denied_nolocks=%lu blocked=%lu grace=%lu "
	    "other=%lu rpc_failed=%lu secs=%.2f\n", n, counts[0], counts[1], counts[2], counts[3],
	    counts[4], counts[5] + counts[6] + counts[7] + counts[8] + counts[9] + counts[10], failed,
	    (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	rr.quiet = 0;
	lk_free(&l);
	return failed == n && n ? 1 : 0;
}

static int cmd_flood_block(char **av) { return flood(P_LOCK, av); }
static int cmd_flood_cancel(char **av) { return flood(P_CANCEL, av); }

/* ---- the callback server: GRANTED, GRANTED_MSG and the _RES messages ---- */

static enum { ANSWER_GRANTED, ANSWER_DENIED, ANSWER_NEVER } answer_mode;
static volatile sig_atomic_t stop_listening;

static void
on_signal(int sig)
{
	(void)sig;
	stop_listening = 1;
}

/* Wall-clock milliseconds: the test compares them with when it unlocked. */
static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *
caller_addr(SVCXPRT *x)
{
	static char buf[INET6_ADDRSTRLEN + 8];
	struct netbuf *nb = svc_getrpccaller(x);
	struct sockaddr *sa = nb ? (struct sockaddr *)nb->buf : NULL;

	if (sa && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)sa)->sin_addr, buf, sizeof(buf));
	else if (sa && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)sa)->sin6_addr, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "unknown");
	return buf;
}

static const char *
proc_name(unsigned p)
{
	static const char *const n[] = { "NULL", "TEST", "LOCK", "CANCEL", "UNLOCK", "GRANTED",
		"TEST_MSG", "LOCK_MSG", "CANCEL_MSG", "UNLOCK_MSG", "GRANTED_MSG", "TEST_RES",
		"LOCK_RES", "CANCEL_RES", "UNLOCK_RES", "GRANTED_RES", "SM_NOTIFY" };

	return p < sizeof(n) / sizeof(n[0]) ? n[p] : "OTHER";
}

/* GRANTED and GRANTED_MSG carry testargs; print them in one form. */
static void
print_testargs(unsigned vers, const void *args)
{
	const nlm4_testargs *t4 = args;
	const nlm_testargs *t1 = args;
	const netobj *cookie = vers == 4 ? &t4->cookie : &t1->cookie;
	const netobj *oh = vers == 4 ? &t4->alock.oh : &t1->alock.oh;

	rr_print_hex("cookie", cookie->n_bytes, cookie->n_len, 64);
	printf(" caller=%s svid=%d ", vers == 4 ? t4->alock.caller_name : t1->alock.caller_name,
	    vers == 4 ? t4->alock.svid : t1->alock.svid);
	rr_print_hex("oh", oh->n_bytes, oh->n_len, 64);
	printf(" offset=%llu len=%llu exclusive=%d",
	    vers == 4 ? (unsigned long long)t4->alock.l_offset : t1->alock.l_offset,
	    vers == 4 ? (unsigned long long)t4->alock.l_len : t1->alock.l_len,
	    vers == 4 ? (int)t4->exclusive : (int)t1->exclusive);
}

/*
 * GRANTED_RES back to the server that sent GRANTED_MSG: its NLM service is
 * found through the rpcbind at the address the message came from, as a
 * lock manager finds any peer.
 */
static void
send_granted_res(const char *host, unsigned vers, const netobj *cookie, int stat)
{
	CLIENT *c = clnt_create(host, NLM_PROGRAM, vers, "udp");
	nlm4_res r4 = { *cookie, { (nlm4_stats)stat } };
	nlm_res r1 = { *cookie, { (nlm_stats)stat } };

	if (c == NULL) {
		printf("granted_res=CREATE_FAILED %s\n", clnt_spcreateerror(host));
		return;
	}
	c->cl_auth = authunix_create_default();
	(void)msg_call(c, 1, P_GRANTED_RES, vers == 4 ? RR_XDRP(xdr_nlm4_res) : RR_XDRP(xdr_nlm_res),
	    vers == 4 ? (void *)&r4 : (void *)&r1);
	printf("granted_res=sent to=%s stat=%d\n", host, stat);
	auth_destroy(c->cl_auth);
	clnt_destroy(c);
}

static void
serve_granted(struct svc_req *rq, SVCXPRT *x, int is_msg)
{
	union { nlm_testargs t1; nlm4_testargs t4; } a;
	xdrproc_t xa = rq->rq_vers == 4 ? RR_XDRP(xdr_nlm4_testargs) : RR_XDRP(xdr_nlm_testargs);
	const char *from = caller_addr(x);
	int stat = answer_mode == ANSWER_DENIED ? 1 : 0;
	netobj cookie;

	memset(&a, 0, sizeof(a));
	if (!svc_getargs(x, xa, (char *)&a)) {
		printf("callback=%s vers=%u from=%s garbage=1\n", proc_name(rq->rq_proc),
		    (unsigned)rq->rq_vers, from);
		svcerr_decode(x);
		return;
	}
	printf("callback=%s vers=%u from=%s t_ms=%lld ", proc_name(rq->rq_proc),
	    (unsigned)rq->rq_vers, from, now_ms());
	print_testargs((unsigned)rq->rq_vers, &a);
	printf(" answer=%s\n", answer_mode == ANSWER_NEVER ? "none" : stat ? "denied" : "granted");
	cookie = rq->rq_vers == 4 ? a.t4.cookie : a.t1.cookie;
	if (answer_mode != ANSWER_NEVER) {
		if (is_msg) {
			svc_sendreply(x, RR_XDRP(xdr_void), NULL);
			send_granted_res(from, (unsigned)rq->rq_vers, &cookie, stat);
		} else if (rq->rq_vers == 4) {
			nlm4_res r = { cookie, { (nlm4_stats)stat } };

			svc_sendreply(x, RR_XDRP(xdr_nlm4_res), (char *)&r);
		} else {
			nlm_res r = { cookie, { (nlm_stats)stat } };

			svc_sendreply(x, RR_XDRP(xdr_nlm_res), (char *)&r);
		}
	}
	svc_freeargs(x, xa, (char *)&a);
}

/* The _RES messages: the answers to our _MSG requests. */
static void
serve_res(struct svc_req *rq, SVCXPRT *x)
{
	union results r;
	struct answer ans;
	unsigned saved = opt.vers;
	xdrproc_t xr;

	opt.vers = (unsigned)rq->rq_vers;
	xr = res_decoder(rq->rq_proc == P_TEST_RES ? P_TEST : P_LOCK);
	memset(&r, 0, sizeof(r));
	if (!svc_getargs(x, xr, (char *)&r)) {
		printf("callback=%s vers=%u from=%s garbage=1\n", proc_name(rq->rq_proc),
		    (unsigned)rq->rq_vers, caller_addr(x));
		svcerr_decode(x);
		opt.vers = saved;
		return;
	}
	answer_of(rq->rq_proc == P_TEST_RES ? P_TEST : P_LOCK, &r, &ans);
	printf("callback=%s vers=%u from=%s t_ms=%lld ", proc_name(rq->rq_proc),
	    (unsigned)rq->rq_vers, caller_addr(x), now_ms());
	print_answer(rq->rq_proc == P_TEST_RES ? P_TEST : P_LOCK, &ans, NULL);
	svc_sendreply(x, RR_XDRP(xdr_void), NULL);
	svc_freeargs(x, xr, (char *)&r);
	opt.vers = saved;
}

static void
dispatch(struct svc_req *rq, SVCXPRT *x)
{
	switch (rq->rq_proc) {
	case P_NULL:
		printf("callback=NULL vers=%u from=%s\n", (unsigned)rq->rq_vers, caller_addr(x));
		svc_sendreply(x, RR_XDRP(xdr_void), NULL);
		break;
	case P_GRANTED:
		serve_granted(rq, x, 0);
		break;
	case P_GRANTED_MSG:
		serve_granted(rq, x, 1);
		break;
	case P_TEST_RES: case P_LOCK_RES: case P_CANCEL_RES: case P_UNLOCK_RES: case P_GRANTED_RES:
		serve_res(rq, x);
		break;
	default:
		printf("callback=%s proc=%u vers=%u from=%s unexpected=1\n", proc_name(rq->rq_proc),
		    (unsigned)rq->rq_proc, (unsigned)rq->rq_vers, caller_addr(x));
		svcerr_noproc(x);
	}
	fflush(stdout);
}

static unsigned
xprt_port(SVCXPRT *x)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);

	if (getsockname(x->xp_fd, (struct sockaddr *)&sin, &len) < 0)
		return 0;
	return ntohs(sin.sin_port);
}

/* One transport, registered with the local rpcbind for NLM v1, v3 and v4. */
static SVCXPRT *
listen_on(const char *netid)
{
	static const unsigned versions[] = { 1, 3, 4 };
	struct netconfig *nc = getnetconfigent(netid);
	SVCXPRT *x = nc ? svc_tli_create(RPC_ANYFD, nc, NULL, 0, 0) : NULL;

	if (x == NULL) {
		printf("listening=0 error=cannot create a %s transport\n", netid);
		exit(1);
	}
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		rpcb_unset(NLM_PROGRAM, versions[i], nc);
		if (!svc_reg(x, NLM_PROGRAM, versions[i], dispatch, nc)) {
			printf("listening=0 error=cannot register NLM v%u over %s with rpcbind\n",
			    versions[i], netid);
			exit(1);
		}
	}
	freenetconfigent(nc);
	return x;
}

static void
unregister_all(void)
{
	static const char *const netids[] = { "udp", "tcp" };

	for (size_t n = 0; n < 2; n++) {
		struct netconfig *nc = getnetconfigent(netids[n]);

		for (unsigned v = 1; v <= 4; v++)
			if (v != 2)
				rpcb_unset(NLM_PROGRAM, v, nc);
		freenetconfigent(nc);
	}
}

/*
 * listen [granted|denied|never]: serve NLM callbacks until SIGTERM,
 * answering GRANTED as told ("never": no answer at all, the client that
 * vanished), then unregister.
 */
static int
cmd_listen(char **av)
{
	struct sigaction sa;
	SVCXPRT *u, *t;

	if (av[0] && strcmp(av[0], "denied") == 0)
		answer_mode = ANSWER_DENIED;
	else if (av[0] && strcmp(av[0], "never") == 0)
		answer_mode = ANSWER_NEVER;
	else if (av[0] && strcmp(av[0], "granted") != 0)
		rr_die_usage("listen takes granted, denied or never");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	u = listen_on("udp");
	t = listen_on("tcp");
	printf("listening=1 udp_port=%u tcp_port=%u answer=%s\n", xprt_port(u), xprt_port(t),
	    av[0] ? av[0] : "granted");
	fflush(stdout);
	while (!stop_listening) {
		int n = poll(svc_pollfd, (nfds_t)svc_max_pollfd, 200);

		if (n > 0)
			svc_getreq_poll(svc_pollfd, n);
	}
	unregister_all();
	printf("listening=0 stopped=1\n");
	return 0;
}

/* ---- local fcntl locks on the exported file (no server involved) ---- */

static void
local_flock(char **av, struct flock *fl)
{
	memset(fl, 0, sizeof(*fl));
	fl->l_whence = SEEK_SET;
	fl->l_start = (off_t)rr_parse_num(av[1], "offset");
	fl->l_len = (off_t)rr_parse_num(av[2], "length");
	fl->l_type = av[3] && strcmp(av[3], "r") == 0 ? F_RDLCK : F_WRLCK;
}

/*
 * local-lock PATH OFF LEN [r|w] [SECONDS]: a process on the server holding
 * a POSIX lock (F_SETLK, never waiting); prints local=locked and holds it
 * SECONDS (default: until killed), or prints local=busy.
 */
static int
cmd_local_lock(char **av)
{
	struct flock fl;
	int fd;

	local_flock(av, &fl);
	fd = open(av[0], fl.l_type == F_RDLCK ? O_RDONLY : O_RDWR);
	if (fd < 0) {
		printf("local=error errno=%d (%s)\n", errno, strerror(errno));
		return 1;
	}
	if (fcntl(fd, F_SETLK, &fl) < 0) {
		printf("local=busy errno=%d\n", errno);
		return 0;
	}
	printf("local=locked pid=%d\n", (int)getpid());
	fflush(stdout);
	if (av[3] && av[4])
		sleep((unsigned)rr_parse_num(av[4], "seconds"));
	else
		for (;;)
			pause();
	return 0;
}

/* local-test PATH OFF LEN [r|w]: F_GETLK, what a local process would run into. */
static int
cmd_local_test(char **av)
{
	struct flock fl;
	int fd;

	local_flock(av, &fl);
	fd = open(av[0], O_RDWR);
	if (fd < 0 || fcntl(fd, F_GETLK, &fl) < 0) {
		printf("local=error errno=%d (%s)\n", errno, strerror(errno));
		return 1;
	}
	if (fl.l_type == F_UNLCK)
		printf("local=free\n");
	else
		printf("local=conflict type=%s pid=%d start=%lld len=%lld\n",
		    fl.l_type == F_WRLCK ? "w" : "r", (int)fl.l_pid, (long long)fl.l_start,
		    (long long)fl.l_len);
	close(fd);
	return 0;
}

/* ---- the table ---- */

#define RANGE "FH OFFSET LENGTH"
static const struct rr_command commands[] = {
	{ "null", 0, 0, cmd_null, "", "NLM NULL" },
	{ "test", 3, 4, cmd_test, RANGE " [shared]", "TEST: stat, holder" },
	{ "lock", 3, 6, cmd_lock, RANGE " [shared] [block] [reclaim]", "LOCK" },
	{ "cancel", 3, 5, cmd_cancel, RANGE " [shared] [block]", "CANCEL a blocked LOCK" },
	{ "unlock", 3, 3, cmd_unlock, RANGE, "UNLOCK" },
	{ "granted", 3, 4, cmd_granted, RANGE " [shared]", "GRANTED (the server-to-client call)" },
	{ "nm-lock", 3, 4, cmd_nm_lock, RANGE " [shared]", "NM_LOCK (v3/v4: non-monitored LOCK)" },
	{ "test-msg", 3, 4, cmd_test_msg, RANGE " [shared]", "TEST_MSG: answer as TEST_RES" },
	{ "lock-msg", 3, 6, cmd_lock_msg, RANGE " [shared] [block] [reclaim]", "LOCK_MSG" },
	{ "cancel-msg", 3, 5, cmd_cancel_msg, RANGE " [shared] [block]", "CANCEL_MSG" },
	{ "unlock-msg", 3, 3, cmd_unlock_msg, RANGE, "UNLOCK_MSG" },
	{ "granted-msg", 3, 4, cmd_granted_msg, RANGE " [shared]", "GRANTED_MSG" },
	{ "share", 3, 4, cmd_share, "FH dn|dr|dw|drw none|r|w|rw [reclaim]", "SHARE (v3/v4)" },
	{ "unshare", 3, 3, cmd_unshare, "FH dn|dr|dw|drw none|r|w|rw", "UNSHARE (v3/v4)" },
	{ "free-all", 2, 2, cmd_free_all, "NAME STATE", "FREE_ALL (v3/v4): a client's locks" },
	{ "status", 2, 3, cmd_status, "MON_NAME STATE [PRIV_HEX]",
	  "procedure 16: statd's reboot callback (struct status)" },
	{ "sm-notify", 2, 2, cmd_sm_notify, "MON_NAME STATE", "SM_NOTIFY to a statd (SM port)" },
	{ "sm-stat", 1, 1, cmd_sm_stat, "NAME", "SM_STAT to a statd: res_stat, state" },
	{ "raw", 2, 2, cmd_raw, "PROC HEX", "any bytes as the arguments of PROC" },
	{ "flood-block", 2, 4, cmd_flood_block, "FH N [OFFSET LENGTH]",
	  "N blocking LOCKs, owners svid.. svid+N-1: counts" },
	{ "flood-cancel", 2, 4, cmd_flood_cancel, "FH N [OFFSET LENGTH]", "CANCEL them" },
};

/* Commands without a server: the callback listener and local locks. */
static const struct rr_command local_commands[] = {
	{ "listen", 0, 1, cmd_listen, "[granted|denied|never]",
	  "serve NLM v1/v3/v4 callbacks (registered with the local rpcbind) until SIGTERM" },
	{ "local-lock", 3, 5, cmd_local_lock, "PATH OFFSET LENGTH [r|w] [SECONDS]",
	  "hold a local POSIX lock (F_SETLK) until killed" },
	{ "local-test", 3, 4, cmd_local_test, "PATH OFFSET LENGTH [r|w]",
	  "F_GETLK: local=free or local=conflict" },
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: nlmprobe [OPTIONS] HOST PORT udp|tcp|udp6|tcp6 COMMAND [ARGS] [++ COMMAND...]\n"
	    "       nlmprobe [OPTIONS] listen [granted|denied|never]\n"
	    "       nlmprobe local-lock|local-test PATH OFFSET LENGTH ...\n"
	    "  -v 1|3|4   NLM version (4)         -n NAME   caller_name (the host name)\n"
	    "  -i SVID    lock owner's svid (1)   -o OWNER  owner handle oh (\"owner.SVID\")\n"
	    "  -k COOKIE  cookie (a fresh one per call)  -s STATE  NSM state in LOCK (1)\n"
	    "  -t SECS    timeout per call (5)    -P  unprivileged source port\n"
	    "  -a none    AUTH_NONE               -R  always encode the arguments by hand\n"
	    "  -S ADDR    call from this source address\n"
	    "  -u UID, -g GID  AUTH_SYS uid and gid (0)\n"
	    "  NAME, OWNER, COOKIE: TEXT, hex:HEX or len:N[:C] (N bytes); FH: HEX, hex:HEX or\n"
	    "  len:N (N bytes of 0xab, a forged handle). Lengths of 0 lock to end of file.\n"
	    "commands:\n");
	rr_usage_commands(f, commands, sizeof(commands) / sizeof(commands[0]), 12, 40);
	rr_usage_commands(f, local_commands, sizeof(local_commands) / sizeof(local_commands[0]), 12,
	    40);
}

static void
parse_options(int argc, char **argv)
{
	char host[256] = "nlmprobe", ownerbuf[64];
	int c;

	opt.caller.data = NULL;
	opt.owner.data = NULL;
	while ((c = getopt(argc, argv, "+v:n:i:o:k:s:t:Pa:u:g:RS:h")) != -1) {
		if (rr_option(c, optarg))
			continue;
		switch (c) {
		case 'v':
			opt.vers = (unsigned)rr_parse_num(optarg, "version");
			if (opt.vers != 1 && opt.vers != 3 && opt.vers != 4)
				rr_die_usage("-v takes 1, 3 or 4");
			break;
		case 'n': opt.caller = parse_blob(optarg, 0, 'c'); break;
		case 'i': opt.svid = (int)rr_parse_num(optarg, "svid"); break;
		case 'o': opt.owner = parse_blob(optarg, 0, 'o'); break;
		case 'k': opt.cookie = parse_blob(optarg, 0, 'k'); break;
		case 's': opt.state = (int)rr_parse_num(optarg, "state"); break;
		case 'R': opt.raw = 1; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (opt.caller.data == NULL) {
		(void)gethostname(host, sizeof(host) - 1);
		opt.caller = parse_blob(host, 0, 'c');
	}
	if (opt.owner.data == NULL) {
		snprintf(ownerbuf, sizeof(ownerbuf), "owner.%d", opt.svid);
		opt.owner = parse_blob(ownerbuf, 0, 'o');
	}
}

int
main(int argc, char **argv)
{
	int rc;
	const size_t nlocal = sizeof(local_commands) / sizeof(local_commands[0]);

	rr_start(argc, argv, "nlmprobe", usage);
	parse_options(argc, argv);
	if (optind < argc && (rc = rr_run_command(local_commands, nlocal, argv + optind)) >= 0)
		return rc;
	return rr_run_steps(argc, argv, optind, commands, sizeof(commands) / sizeof(commands[0]),
	    usage);
}
