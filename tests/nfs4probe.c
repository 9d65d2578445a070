/*
 * nfs4probe - a raw NFSv4.1/4.2 (RFC 8881, RFC 7862) COMPOUND test client
 * for usernfsd's integration tests: the session operations (EXCHANGE_ID,
 * CREATE_SESSION, SEQUENCE, DESTROY_SESSION, DESTROY_CLIENTID,
 * RECLAIM_COMPLETE, BIND_CONN_TO_SESSION) and the compound's rules.
 *
 * Arguments are encoded and replies decoded by the XDR routines rpcgen
 * generated from the build's src/rpc/nfs4_prot.x, so the tests speak what a
 * real client speaks. Only the malformed cases (an unknown opcode, more
 * operations than the XDR allows, arguments cut short) are laid out by
 * hand with rpcraw.h's encoder; the probe says so with encoder=raw. Every
 * reply is read as bytes first (rr_xdr_slurp) and then decoded with
 * xdr_COMPOUND4res, so that reply=LEN:HASH can show two replies to be the
 * same bytes (a retry answered from the session's slot cache). The
 * client, the options -a -u -g -P -t -S, the rpc=NAME lines and the "++"
 * command loop are rpcraw.h's.
 *
 * State lives across "++" in one process, on one TCP connection: the
 * client id EXCHANGE_ID returned, the csa_sequence to send next, and the
 * session CREATE_SESSION made. The commands clientid and session set them
 * by hand (a stale or forged id, or one from another process).
 *
 * Usage: nfs4probe [OPTIONS] HOST PORT tcp|tcp6|udp|udp6 COMMAND [ARGS...]
 *        [++ COMMAND [ARGS...]]...
 * "nfs4probe --help" lists the commands (the table `commands` below).
 *
 * Output, one line per compound, key=value words:
 *   rpc=SUCCESS | rpc=NAME (...)            the RPC (rpcraw.h)
 *   encoder=raw bytes=N                     the arguments were laid out by hand
 *   tag=TAG status=NFS4ERR_X nres=N op0=OP_NAME:NFS4ERR_X op1=...
 *     reply=LEN:HASH (the COMPOUND4res bytes, FNV-1a 64), then what the
 *     successful session operations returned: clientid= seqid= eir_flags=
 *     confirmed= (EXCHANGE_ID); sessionid= csr_sequence= csr_flags= slots=
 *     maxops= cached= maxreq= maxresp= (CREATE_SESSION); sr_seqid=
 *     sr_slot= highest_slot= target_slot= sr_flags= (SEQUENCE);
 *     bctsr_dir= (BIND_CONN_TO_SESSION)
 * Exit status: 0 when every RPC went through and its reply decoded
 * (whatever its NFS status), 1 on an RPC or decoding failure, 2 on a
 * usage error.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <rpc/rpc.h>

#include "rpc/nfs4_prot.h"
#include "rpcraw.h"

#define DEFAULT_VERIFIER "0123456789abcdef"
/* The fore channel's sizes CREATE_SESSION asks by default: a 1 MiB WRITE or READ and headers. */
#define MAXREQ 1049620
#define MAXRESP 1049480

/* nfs4probe's own options; the target, credentials and socket are rpcraw's (rr). */
static struct {
	uint32_t minor;		/* -m: the minorversion of every compound but "compound"'s */
	const char *tag;	/* -T */
} opt = { .minor = 1, .tag = "" };

/* What one process keeps between commands. */
static struct {
	uint64_t clientid;
	int have_clientid;
	uint32_t cs_seq;	/* the csa_sequence to send next */
	sessionid4 sessionid;
	int have_session;
} st;

/* ---- names ---- */

#define S(x) { x, #x },
static const struct {
	uint32_t v;
	const char *name;
} stat_names[] = {
	S(NFS4_OK) S(NFS4ERR_PERM) S(NFS4ERR_NOENT) S(NFS4ERR_IO) S(NFS4ERR_NXIO)
	S(NFS4ERR_ACCESS) S(NFS4ERR_EXIST) S(NFS4ERR_XDEV) S(NFS4ERR_NOTDIR) S(NFS4ERR_ISDIR)
	S(NFS4ERR_INVAL) S(NFS4ERR_FBIG) S(NFS4ERR_NOSPC) S(NFS4ERR_ROFS) S(NFS4ERR_MLINK)
	S(NFS4ERR_NAMETOOLONG) S(NFS4ERR_NOTEMPTY) S(NFS4ERR_DQUOT) S(NFS4ERR_STALE)
	S(NFS4ERR_BADHANDLE) S(NFS4ERR_BAD_COOKIE) S(NFS4ERR_NOTSUPP) S(NFS4ERR_TOOSMALL)
	S(NFS4ERR_SERVERFAULT) S(NFS4ERR_BADTYPE) S(NFS4ERR_DELAY) S(NFS4ERR_SAME)
	S(NFS4ERR_DENIED) S(NFS4ERR_EXPIRED) S(NFS4ERR_LOCKED) S(NFS4ERR_GRACE)
	S(NFS4ERR_FHEXPIRED) S(NFS4ERR_SHARE_DENIED) S(NFS4ERR_WRONGSEC) S(NFS4ERR_CLID_INUSE)
	S(NFS4ERR_RESOURCE) S(NFS4ERR_MOVED) S(NFS4ERR_NOFILEHANDLE)
	S(NFS4ERR_MINOR_VERS_MISMATCH) S(NFS4ERR_STALE_CLIENTID) S(NFS4ERR_STALE_STATEID)
	S(NFS4ERR_OLD_STATEID) S(NFS4ERR_BAD_STATEID) S(NFS4ERR_BAD_SEQID) S(NFS4ERR_NOT_SAME)
	S(NFS4ERR_LOCK_RANGE) S(NFS4ERR_SYMLINK) S(NFS4ERR_RESTOREFH) S(NFS4ERR_LEASE_MOVED)
	S(NFS4ERR_ATTRNOTSUPP) S(NFS4ERR_NO_GRACE) S(NFS4ERR_RECLAIM_BAD)
	S(NFS4ERR_RECLAIM_CONFLICT) S(NFS4ERR_BADXDR) S(NFS4ERR_LOCKS_HELD) S(NFS4ERR_OPENMODE)
	S(NFS4ERR_BADOWNER) S(NFS4ERR_BADCHAR) S(NFS4ERR_BADNAME) S(NFS4ERR_BAD_RANGE)
	S(NFS4ERR_LOCK_NOTSUPP) S(NFS4ERR_OP_ILLEGAL) S(NFS4ERR_DEADLOCK) S(NFS4ERR_FILE_OPEN)
	S(NFS4ERR_ADMIN_REVOKED) S(NFS4ERR_CB_PATH_DOWN) S(NFS4ERR_BADIOMODE) S(NFS4ERR_BADLAYOUT)
	S(NFS4ERR_BAD_SESSION_DIGEST) S(NFS4ERR_BADSESSION) S(NFS4ERR_BADSLOT)
	S(NFS4ERR_COMPLETE_ALREADY) S(NFS4ERR_CONN_NOT_BOUND_TO_SESSION)
	S(NFS4ERR_DELEG_ALREADY_WANTED) S(NFS4ERR_BACK_CHAN_BUSY) S(NFS4ERR_LAYOUTTRYLATER)
	S(NFS4ERR_LAYOUTUNAVAILABLE) S(NFS4ERR_NOMATCHING_LAYOUT) S(NFS4ERR_RECALLCONFLICT)
	S(NFS4ERR_UNKNOWN_LAYOUTTYPE) S(NFS4ERR_SEQ_MISORDERED) S(NFS4ERR_SEQUENCE_POS)
	S(NFS4ERR_REQ_TOO_BIG) S(NFS4ERR_REP_TOO_BIG) S(NFS4ERR_REP_TOO_BIG_TO_CACHE)
	S(NFS4ERR_RETRY_UNCACHED_REP) S(NFS4ERR_UNSAFE_COMPOUND) S(NFS4ERR_TOO_MANY_OPS)
	S(NFS4ERR_OP_NOT_IN_SESSION) S(NFS4ERR_HASH_ALG_UNSUPP) S(NFS4ERR_CLIENTID_BUSY)
	S(NFS4ERR_PNFS_IO_HOLE) S(NFS4ERR_SEQ_FALSE_RETRY) S(NFS4ERR_BAD_HIGH_SLOT)
	S(NFS4ERR_DEADSESSION) S(NFS4ERR_ENCR_ALG_UNSUPP) S(NFS4ERR_PNFS_NO_LAYOUT)
	S(NFS4ERR_NOT_ONLY_OP) S(NFS4ERR_WRONG_CRED) S(NFS4ERR_WRONG_TYPE)
	S(NFS4ERR_DIRDELEG_UNAVAIL) S(NFS4ERR_REJECT_DELEG) S(NFS4ERR_RETURNCONFLICT)
	S(NFS4ERR_DELEG_REVOKED) S(NFS4ERR_PARTNER_NOTSUPP) S(NFS4ERR_PARTNER_NO_AUTH)
	S(NFS4ERR_UNION_NOTSUPP) S(NFS4ERR_OFFLOAD_DENIED) S(NFS4ERR_WRONG_LFS) S(NFS4ERR_BADLABEL)
	S(NFS4ERR_OFFLOAD_NO_REQS) S(NFS4ERR_NOXATTR) S(NFS4ERR_XATTR2BIG)
};
#undef S

#define O(x) { OP_##x, #x },
static const struct {
	uint32_t v;
	const char *name;	/* without OP_ */
} op_names[] = {
	O(ACCESS) O(CLOSE) O(COMMIT) O(CREATE) O(DELEGPURGE) O(DELEGRETURN) O(GETATTR)
	O(GETFH) O(LINK) O(LOCK) O(LOCKT) O(LOCKU) O(LOOKUP) O(LOOKUPP) O(NVERIFY) O(OPEN)
	O(OPENATTR) O(OPEN_CONFIRM) O(OPEN_DOWNGRADE) O(PUTFH) O(PUTPUBFH) O(PUTROOTFH)
	O(READ) O(READDIR) O(READLINK) O(REMOVE) O(RENAME) O(RENEW) O(RESTOREFH) O(SAVEFH)
	O(SECINFO) O(SETATTR) O(SETCLIENTID) O(SETCLIENTID_CONFIRM) O(VERIFY) O(WRITE)
	O(RELEASE_LOCKOWNER) O(BACKCHANNEL_CTL) O(BIND_CONN_TO_SESSION) O(EXCHANGE_ID)
	O(CREATE_SESSION) O(DESTROY_SESSION) O(FREE_STATEID) O(GET_DIR_DELEGATION)
	O(GETDEVICEINFO) O(GETDEVICELIST) O(LAYOUTCOMMIT) O(LAYOUTGET) O(LAYOUTRETURN)
	O(SECINFO_NO_NAME) O(SEQUENCE) O(SET_SSV) O(TEST_STATEID) O(WANT_DELEGATION)
	O(DESTROY_CLIENTID) O(RECLAIM_COMPLETE) O(ALLOCATE) O(COPY) O(COPY_NOTIFY)
	O(DEALLOCATE) O(IO_ADVISE) O(LAYOUTERROR) O(LAYOUTSTATS) O(OFFLOAD_CANCEL)
	O(OFFLOAD_STATUS) O(READ_PLUS) O(SEEK) O(WRITE_SAME) O(CLONE) O(GETXATTR) O(SETXATTR)
	O(LISTXATTRS) O(REMOVEXATTR) O(ILLEGAL)
};
#undef O

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *
stat_name(uint32_t v)
{
	static char buf[32];

	for (size_t i = 0; i < NELEM(stat_names); i++)
		if (stat_names[i].v == v)
			return stat_names[i].name;
	snprintf(buf, sizeof(buf), "NFS4ERR_%u", v);
	return buf;
}

/* "OP_NAME", or OP_<number> for what the XDR does not name */
static void
print_op(uint32_t v)
{
	for (size_t i = 0; i < NELEM(op_names); i++)
		if (op_names[i].v == v) {
			printf("OP_%s", op_names[i].name);
			return;
		}
	printf("OP_%u", v);
}

/* An operation by name (any case, OP_ or not) or number. */
static uint32_t
op_parse(const char *s)
{
	const char *n = strncasecmp(s, "OP_", 3) == 0 ? s + 3 : s;

	for (size_t i = 0; i < NELEM(op_names); i++)
		if (strcasecmp(op_names[i].name, n) == 0)
			return op_names[i].v;
	if (*s >= '0' && *s <= '9')
		return (uint32_t)rr_parse_num(s, "operation number");
	rr_die_usage("unknown operation '%s'", s);
}

static void
parse_fixed_hex(const char *s, void *out, u_int n, const char *what)
{
	u_int len;
	char *b = rr_parse_hex(s, &len);

	if (len != n)
		rr_die_usage("%s is %u bytes of hex, not '%s'", what, n, s);
	memcpy(out, b, n);
	free(b);
}

static uint64_t
fnv1a64(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* ---- sending a compound, printing its reply ---- */

/*
 * One COMPOUND, encoded by rpcgen (args) or given as bytes (raw); the
 * reply's bytes in *rep, decoded into *res (xdr_free it). 1 when the call
 * went through and its reply decoded.
 */
static int
call_compound(COMPOUND4args *args, struct rr_enc *raw, struct rr_enc *rep, COMPOUND4res *res)
{
	XDR x;
	int ok;

	memset(rep, 0, sizeof(*rep));
	memset(res, 0, sizeof(*res));
	if (raw) {
		if (!rr.quiet)
			printf("encoder=raw bytes=%u\n", raw->len);
		ok = rr_call(NFS4_PROGRAM, NFS_V4, NFSPROC4_COMPOUND, RR_XDRP(rr_xdr_send), raw,
		    RR_XDRP(rr_xdr_slurp), rep);
	} else {
		ok = rr_call(NFS4_PROGRAM, NFS_V4, NFSPROC4_COMPOUND, RR_XDRP(xdr_COMPOUND4args), args,
		    RR_XDRP(rr_xdr_slurp), rep);
	}
	if (!ok)
		return 0;
	xdrmem_create(&x, rep->buf, rep->len, XDR_DECODE);
	ok = xdr_COMPOUND4res(&x, res);
	if (ok && xdr_getpos(&x) != rep->len) {
		printf("decode=TRAILING bytes=%u decoded=%u\n", rep->len, xdr_getpos(&x));
		ok = 0;
	} else if (!ok) {
		printf("decode=FAILED bytes=%u\n", rep->len);
	}
	xdr_destroy(&x);
	return ok;
}

static void
free_reply(struct rr_enc *rep, COMPOUND4res *res)
{
	xdr_free(RR_XDRP(xdr_COMPOUND4res), (char *)res);
	free(rep->buf);
	rep->buf = NULL;
}

/* What a successful session operation returned; the state it gives. */
static void
print_resok(const nfs_resop4 *r)
{
	switch (r->resop) {
	case OP_EXCHANGE_ID: {
		const EXCHANGE_ID4resok *ok = &r->nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4;

		printf(" clientid=%016llx seqid=%u eir_flags=0x%08x confirmed=%d",
		    (unsigned long long)ok->eir_clientid, ok->eir_sequenceid, ok->eir_flags,
		    (ok->eir_flags & EXCHGID4_FLAG_CONFIRMED_R) != 0);
		st.clientid = ok->eir_clientid;
		st.have_clientid = 1;
		st.cs_seq = ok->eir_sequenceid;
		break;
	}
	case OP_CREATE_SESSION: {
		const CREATE_SESSION4resok *ok =
		    &r->nfs_resop4_u.opcreate_session.CREATE_SESSION4res_u.csr_resok4;
		const channel_attrs4 *f = &ok->csr_fore_chan_attrs;

		printf(" ");
		rr_print_hex("sessionid", ok->csr_sessionid, NFS4_SESSIONID_SIZE, 0);
		printf(" csr_sequence=%u csr_flags=0x%x slots=%u maxops=%u cached=%u maxreq=%u "
		    "maxresp=%u", ok->csr_sequence, ok->csr_flags, f->ca_maxrequests,
		    f->ca_maxoperations, f->ca_maxresponsesize_cached, f->ca_maxrequestsize,
		    f->ca_maxresponsesize);
		memcpy(st.sessionid, ok->csr_sessionid, NFS4_SESSIONID_SIZE);
		st.have_session = 1;
		st.cs_seq = ok->csr_sequence + 1;
		break;
	}
	case OP_SEQUENCE: {
		const SEQUENCE4resok *ok = &r->nfs_resop4_u.opsequence.SEQUENCE4res_u.sr_resok4;

		printf(" sr_seqid=%u sr_slot=%u highest_slot=%u target_slot=%u sr_flags=0x%x",
		    ok->sr_sequenceid, ok->sr_slotid, ok->sr_highest_slotid,
		    ok->sr_target_highest_slotid, ok->sr_status_flags);
		break;
	}
	case OP_BIND_CONN_TO_SESSION: {
		const BIND_CONN_TO_SESSION4resok *ok =
		    &r->nfs_resop4_u.opbind_conn_to_session.BIND_CONN_TO_SESSION4res_u.bctsr_resok4;

		printf(" bctsr_dir=%s rdma=%d", ok->bctsr_dir == CDFS4_FORE ? "CDFS4_FORE" :
		    ok->bctsr_dir == CDFS4_BACK ? "CDFS4_BACK" : ok->bctsr_dir == CDFS4_BOTH ?
		    "CDFS4_BOTH" : "?", (int)ok->bctsr_use_conn_in_rdma_mode);
		break;
	}
	default:
		break;
	}
}

static void
print_reply(const struct rr_enc *rep, const COMPOUND4res *res)
{
	u_int n = res->resarray.resarray_len;

	printf("tag=%.*s status=%s nres=%u", (int)res->tag.utf8string_len,
	    res->tag.utf8string_val ? res->tag.utf8string_val : "", stat_name(res->status), n);
	for (u_int i = 0; i < n; i++) {
		const nfs_resop4 *r = &res->resarray.resarray_val[i];

		printf(" op%u=", i);
		print_op(r->resop);
		/* every result arm starts with its status */
		printf(":%s", stat_name(*(const uint32_t *)(const void *)&r->nfs_resop4_u));
	}
	printf(" reply=%u:%016llx", rep->len, (unsigned long long)fnv1a64(rep->buf, rep->len));
	for (u_int i = 0; i < n; i++) {
		const nfs_resop4 *r = &res->resarray.resarray_val[i];

		if (*(const uint32_t *)(const void *)&r->nfs_resop4_u == NFS4_OK)
			print_resok(r);
	}
	printf("\n");
}

/* Sends, prints; the command's exit status. */
static int
run_compound(COMPOUND4args *args, struct rr_enc *raw)
{
	struct rr_enc rep;
	COMPOUND4res res;
	int ok = call_compound(args, raw, &rep, &res);

	if (ok)
		print_reply(&rep, &res);
	free_reply(&rep, &res);
	return ok ? 0 : 1;
}

/* ---- arguments, by rpcgen's types ---- */

struct compound {
	COMPOUND4args a;
	nfs_argop4 ops[NFS4_COMPOUND_MAX];
};

static void
compound_init(struct compound *c, uint32_t minor)
{
	memset(c, 0, sizeof(*c));
	c->a.tag.utf8string_val = (char *)opt.tag;
	c->a.tag.utf8string_len = (u_int)strlen(opt.tag);
	c->a.minorversion = minor;
	c->a.argarray.argarray_val = c->ops;
}

static nfs_argop4 *
compound_add(struct compound *c, uint32_t op)
{
	nfs_argop4 *o;

	if (c->a.argarray.argarray_len >= NFS4_COMPOUND_MAX)
		rr_die_usage("at most %d operations (too_many_ops sends more)", NFS4_COMPOUND_MAX);
	o = &c->ops[c->a.argarray.argarray_len++];
	memset(o, 0, sizeof(*o));
	o->argop = op;
	return o;
}

static void
need_clientid(void)
{
	if (!st.have_clientid)
		rr_die_usage("no client id yet: exchange_id (or clientid HEX) first");
}

static void
need_session(void)
{
	if (!st.have_session)
		rr_die_usage("no session yet: create_session (or session HEX) first");
}

static void
exchange_args(EXCHANGE_ID4args *a, const char *owner, size_t ownerlen, const char *verf,
    uint32_t flags)
{
	parse_fixed_hex(verf, a->eia_clientowner.co_verifier, NFS4_VERIFIER_SIZE, "a verifier");
	a->eia_clientowner.co_ownerid.co_ownerid_val = (char *)owner;
	a->eia_clientowner.co_ownerid.co_ownerid_len = (u_int)ownerlen;
	a->eia_flags = flags;
	a->eia_state_protect.spa_how = SP4_NONE;
}

/* What CREATE_SESSION asks for the fore channel, its flags and csa_sequence. */
struct session_ask {
	uint32_t slots, maxops, cache, flags, seq, maxreq, maxresp;
};

static void
create_args(CREATE_SESSION4args *a, const struct session_ask *s)
{
	static callback_sec_parms4 none = { .cb_secflavor = AUTH_NONE };
	channel_attrs4 *f = &a->csa_fore_chan_attrs, *b = &a->csa_back_chan_attrs;

	a->csa_clientid = st.clientid;
	a->csa_sequence = s->seq;
	a->csa_flags = s->flags;
	f->ca_maxrequestsize = s->maxreq;
	f->ca_maxresponsesize = s->maxresp;
	f->ca_maxresponsesize_cached = s->cache;
	f->ca_maxoperations = s->maxops;
	f->ca_maxrequests = s->slots;
	b->ca_maxrequestsize = 4096;
	b->ca_maxresponsesize = 4096;
	b->ca_maxoperations = 2;
	b->ca_maxrequests = 1;
	a->csa_cb_program = 0x40000000;
	a->csa_sec_parms.csa_sec_parms_len = 1;
	a->csa_sec_parms.csa_sec_parms_val = &none;
}

static void
sequence_args(SEQUENCE4args *a, uint32_t slot, uint32_t seq, int cachethis)
{
	memcpy(a->sa_sessionid, st.sessionid, NFS4_SESSIONID_SIZE);
	a->sa_sequenceid = seq;
	a->sa_slotid = slot;
	a->sa_highest_slotid = slot;
	a->sa_cachethis = cachethis ? TRUE : FALSE;
}

/*
 * An operation with what arguments the probe's state gives: the session
 * operations from the client id and session, any other zeroed (which
 * rpcgen encodes for every operation of this room's tests).
 */
static void
add_named_op(struct compound *c, uint32_t op)
{
	nfs_argop4 *o = compound_add(c, op);
	struct session_ask s = { 8, 16, 4096, 0, st.cs_seq, MAXREQ, MAXRESP };

	switch (op) {
	case OP_SEQUENCE:
		sequence_args(&o->nfs_argop4_u.opsequence, 0, 1, 0);
		break;
	case OP_EXCHANGE_ID:
		exchange_args(&o->nfs_argop4_u.opexchange_id, "nfs4probe", strlen("nfs4probe"),
		    DEFAULT_VERIFIER, 0);
		break;
	case OP_CREATE_SESSION:
		create_args(&o->nfs_argop4_u.opcreate_session, &s);
		break;
	case OP_DESTROY_SESSION:
		memcpy(o->nfs_argop4_u.opdestroy_session.dsa_sessionid, st.sessionid,
		    NFS4_SESSIONID_SIZE);
		break;
	case OP_DESTROY_CLIENTID:
		o->nfs_argop4_u.opdestroy_clientid.dca_clientid = st.clientid;
		break;
	case OP_BIND_CONN_TO_SESSION:
		memcpy(o->nfs_argop4_u.opbind_conn_to_session.bctsa_sessid, st.sessionid,
		    NFS4_SESSIONID_SIZE);
		o->nfs_argop4_u.opbind_conn_to_session.bctsa_dir = CDFC4_FORE;
		break;
	default:
		break;
	}
}

/* ---- commands ---- */

static int
cmd_null(char **av)
{
	(void)av;
	return rr_call(NFS4_PROGRAM, NFS_V4, NFSPROC4_NULL, RR_XDRP(xdr_void), NULL,
	    RR_XDRP(xdr_void), NULL) ? 0 : 1;
}

static int
cmd_clientid(char **av)
{
	st.clientid = rr_parse_num(av[0], "client id");
	st.have_clientid = 1;
	if (av[1])
		st.cs_seq = (uint32_t)rr_parse_num(av[1], "csa_sequence");
	printf("clientid=%016llx\n", (unsigned long long)st.clientid);
	return 0;
}

static int
cmd_session(char **av)
{
	parse_fixed_hex(av[0], st.sessionid, NFS4_SESSIONID_SIZE, "a session id");
	st.have_session = 1;
	rr_print_hex("sessionid", st.sessionid, NFS4_SESSIONID_SIZE, 0);
	printf("\n");
	return 0;
}

/* OWNER [VERIFIER [FLAGS]] */
static int
cmd_exchange_id(char **av)
{
	struct compound c;
	nfs_argop4 *o;

	compound_init(&c, opt.minor);
	o = compound_add(&c, OP_EXCHANGE_ID);
	exchange_args(&o->nfs_argop4_u.opexchange_id, av[0], strlen(av[0]),
	    av[1] ? av[1] : DEFAULT_VERIFIER, av[1] && av[2] ?
	    (uint32_t)rr_parse_num(av[2], "flags") : 0);
	return run_compound(&c.a, NULL);
}

/* [SLOTS MAXOPS CACHE FLAGS SEQ MAXREQ MAXRESP], each optional in this order */
static int
cmd_create_session(char **av)
{
	struct session_ask s = { 8, 16, 4096, 0, 0, MAXREQ, MAXRESP };
	uint32_t *field[] = { &s.slots, &s.maxops, &s.cache, &s.flags, &s.seq, &s.maxreq, &s.maxresp };
	struct compound c;

	need_clientid();
	s.seq = st.cs_seq;
	for (int i = 0; av[i]; i++)
		*field[i] = (uint32_t)rr_parse_num(av[i], "CREATE_SESSION argument");
	compound_init(&c, opt.minor);
	create_args(&compound_add(&c, OP_CREATE_SESSION)->nfs_argop4_u.opcreate_session, &s);
	return run_compound(&c.a, NULL);
}

/* SLOT SEQID [cachethis|nocache] [OP...] */
static int
cmd_sequence(char **av)
{
	struct compound c;
	int cachethis = 0, i = 2;

	need_session();
	if (av[2] && (strcmp(av[2], "cachethis") == 0 || strcmp(av[2], "nocache") == 0)) {
		cachethis = strcmp(av[2], "cachethis") == 0;
		i++;
	}
	compound_init(&c, opt.minor);
	sequence_args(&compound_add(&c, OP_SEQUENCE)->nfs_argop4_u.opsequence,
	    (uint32_t)rr_parse_num(av[0], "slot"), (uint32_t)rr_parse_num(av[1], "sequence id"),
	    cachethis);
	for (; av[i]; i++)
		add_named_op(&c, op_parse(av[i]));
	return run_compound(&c.a, NULL);
}

/* MINOR OP...: the operations as named, no SEQUENCE added */
static int
cmd_compound(char **av)
{
	struct compound c;

	compound_init(&c, (uint32_t)rr_parse_num(av[0], "minor version"));
	for (int i = 1; av[i]; i++)
		add_named_op(&c, op_parse(av[i]));
	return run_compound(&c.a, NULL);
}

/* [SESSION]: DESTROY_SESSION alone */
static int
cmd_destroy_session(char **av)
{
	struct compound c;
	nfs_argop4 *o;

	if (av[0] == NULL)
		need_session();
	compound_init(&c, opt.minor);
	o = compound_add(&c, OP_DESTROY_SESSION);
	if (av[0])
		parse_fixed_hex(av[0], o->nfs_argop4_u.opdestroy_session.dsa_sessionid,
		    NFS4_SESSIONID_SIZE, "a session id");
	else
		memcpy(o->nfs_argop4_u.opdestroy_session.dsa_sessionid, st.sessionid,
		    NFS4_SESSIONID_SIZE);
	return run_compound(&c.a, NULL);
}

/* [CLIENTID]: DESTROY_CLIENTID alone */
static int
cmd_destroy_clientid(char **av)
{
	struct compound c;

	if (av[0] == NULL)
		need_clientid();
	compound_init(&c, opt.minor);
	compound_add(&c, OP_DESTROY_CLIENTID)->nfs_argop4_u.opdestroy_clientid.dca_clientid =
	    av[0] ? rr_parse_num(av[0], "client id") : st.clientid;
	return run_compound(&c.a, NULL);
}

/* DIR: BIND_CONN_TO_SESSION alone, on this connection */
static int
cmd_bind_conn(char **av)
{
	static const struct {
		const char *name;
		channel_dir_from_client4 dir;
	} dirs[] = {
		{ "fore", CDFC4_FORE }, { "back", CDFC4_BACK },
		{ "fore_or_both", CDFC4_FORE_OR_BOTH }, { "back_or_both", CDFC4_BACK_OR_BOTH },
	};
	BIND_CONN_TO_SESSION4args *b;
	struct compound c;
	size_t i;

	need_session();
	for (i = 0; i < NELEM(dirs) && strcmp(dirs[i].name, av[0]); i++)
		;
	if (i == NELEM(dirs))
		rr_die_usage("bind_conn takes fore, back, fore_or_both or back_or_both");
	compound_init(&c, opt.minor);
	b = &compound_add(&c, OP_BIND_CONN_TO_SESSION)->nfs_argop4_u.opbind_conn_to_session;
	memcpy(b->bctsa_sessid, st.sessionid, NFS4_SESSIONID_SIZE);
	b->bctsa_dir = dirs[i].dir;
	return run_compound(&c.a, NULL);
}

/*
 * N EXCHANGE_IDs of owners PREFIX-1 ... PREFIX-N (padded with '.' to
 * OWNERLEN bytes), each followed by a CREATE_SESSION when "session" is
 * given; a line of counts. The probe's state is left alone.
 */
static int
cmd_exchange_many(char **av)
{
	unsigned long n = rr_parse_num(av[0], "count"), ex_ok = 0, ex_other = 0, cs_ok = 0;
	unsigned long cs_other = 0;
	size_t ownerlen = av[2] ? rr_parse_num(av[2], "owner length") : 0;
	int sessions = av[2] && av[3] && strcmp(av[3], "session") == 0;
	uint64_t first = 0, last = 0;
	uint32_t ex_last = NFS4_OK, cs_last = NFS4_OK;
	char owner[NFS4_OPAQUE_LIMIT + 1];
	int saved_quiet = rr.quiet, rc = 0;

	if (ownerlen > NFS4_OPAQUE_LIMIT)
		rr_die_usage("an owner is at most %d bytes", NFS4_OPAQUE_LIMIT);
	if (av[2] && av[3] && !sessions)
		rr_die_usage("exchange_many's fourth word is 'session'");
	rr.quiet = 1;
	for (unsigned long i = 1; i <= n && rc == 0; i++) {
		struct compound c;
		struct rr_enc rep;
		COMPOUND4res res;
		size_t len = (size_t)snprintf(owner, sizeof(owner), "%s-%lu", av[1], i);

		if (len < ownerlen) {
			memset(owner + len, '.', ownerlen - len);
			len = ownerlen;
		}
		compound_init(&c, opt.minor);
		exchange_args(&compound_add(&c, OP_EXCHANGE_ID)->nfs_argop4_u.opexchange_id, owner,
		    len, DEFAULT_VERIFIER, 0);
		if (!call_compound(&c.a, NULL, &rep, &res)) {
			rc = 1;
		} else if ((ex_last = res.status) == NFS4_OK) {
			const EXCHANGE_ID4resok *ok = &res.resarray.resarray_val[0].nfs_resop4_u.
			    opexchange_id.EXCHANGE_ID4res_u.eir_resok4;
			struct session_ask s = { 64, 16, 4096, 0, ok->eir_sequenceid, MAXREQ, MAXRESP };
			uint64_t saved = st.clientid;

			ex_ok++;
			last = ok->eir_clientid;
			if (first == 0)
				first = last;
			if (sessions) {
				struct rr_enc rep2;
				COMPOUND4res res2;

				st.clientid = last;
				compound_init(&c, opt.minor);
				create_args(&compound_add(&c, OP_CREATE_SESSION)->nfs_argop4_u.
				    opcreate_session, &s);
				st.clientid = saved;
				if (!call_compound(&c.a, NULL, &rep2, &res2))
					rc = 1;
				else if ((cs_last = res2.status) == NFS4_OK)
					cs_ok++;
				else
					cs_other++;
				free_reply(&rep2, &res2);
			}
		} else {
			ex_other++;
		}
		free_reply(&rep, &res);
	}
	rr.quiet = saved_quiet;
	printf("sent=%lu exchange_ok=%lu exchange_err=%lu exchange_last=%s", n, ex_ok, ex_other,
	    stat_name(ex_last));
	if (sessions)
		printf(" session_ok=%lu session_err=%lu session_last=%s", cs_ok, cs_other,
		    stat_name(cs_last));
	printf(" first_clientid=%016llx last_clientid=%016llx\n", (unsigned long long)first,
	    (unsigned long long)last);
	return rc;
}

/* ---- malformed compounds, laid out by hand ---- */

static void
raw_header(struct rr_enc *e, uint32_t count)
{
	rr_enc_opaque(e, opt.tag, (u_int)strlen(opt.tag));
	rr_enc_u32(e, opt.minor);
	rr_enc_u32(e, count);
}

/* SEQUENCE4args in order: sessionid, sequenceid, slotid, highest_slotid, cachethis */
static void
raw_sequence(struct rr_enc *e, char **av)
{
	uint32_t slot = (uint32_t)rr_parse_num(av[0], "slot");

	need_session();
	rr_enc_u32(e, OP_SEQUENCE);
	rr_enc_fixed(e, st.sessionid, NFS4_SESSIONID_SIZE);
	rr_enc_u32(e, (uint32_t)rr_parse_num(av[1], "sequence id"));
	rr_enc_u32(e, slot);
	rr_enc_u32(e, slot);
	rr_enc_u32(e, 0);
}

/* av: [SLOT SEQID] after the command's own words; 1 when SEQUENCE comes first */
static int
has_sequence(char **av)
{
	if (av[0] && !av[1])
		rr_die_usage("SLOT and SEQID come together");
	return av[0] != NULL;
}

/* N [SLOT SEQID]: a compound of N operations, PUTROOTFH (no arguments) after the SEQUENCE */
static int
cmd_too_many_ops(char **av)
{
	uint32_t n = (uint32_t)rr_parse_num(av[0], "count");
	int seq = has_sequence(av + 1);
	struct rr_enc e = { 0 };
	int rc;

	raw_header(&e, n);
	if (seq)
		raw_sequence(&e, av + 1);
	for (uint32_t i = seq; i < n; i++)
		rr_enc_u32(&e, OP_PUTROOTFH);
	rc = run_compound(NULL, &e);
	free(e.buf);
	return rc;
}

/* NUM [SLOT SEQID]: operation number NUM with no arguments, after the SEQUENCE */
static int
cmd_illegal_op(char **av)
{
	uint32_t op = (uint32_t)rr_parse_num(av[0], "operation number");
	int seq = has_sequence(av + 1);
	struct rr_enc e = { 0 };
	int rc;

	raw_header(&e, 1 + (uint32_t)seq);
	if (seq)
		raw_sequence(&e, av + 1);
	rr_enc_u32(&e, op);
	rc = run_compound(NULL, &e);
	free(e.buf);
	return rc;
}

/*
 * truncated|missing [SLOT SEQID], after the SEQUENCE: RECLAIM_COMPLETE
 * without its rca_one_fs, or a count one more than the operations sent.
 */
static int
cmd_badxdr(char **av)
{
	int truncated = strcmp(av[0], "truncated") == 0;
	int seq = has_sequence(av + 1);
	struct rr_enc e = { 0 };
	int rc;

	if (!truncated && strcmp(av[0], "missing") != 0)
		rr_die_usage("badxdr takes truncated or missing");
	raw_header(&e, 1 + (uint32_t)seq);
	if (seq)
		raw_sequence(&e, av + 1);
	if (truncated)
		rr_enc_u32(&e, OP_RECLAIM_COMPLETE);
	rc = run_compound(NULL, &e);
	free(e.buf);
	return rc;
}

/* ---- the table ---- */

static const struct rr_command commands[] = {
	{ "null", 0, 0, cmd_null, "", "NFSv4 NULL" },
	{ "exchange_id", 1, 3, cmd_exchange_id, "OWNER [VERF [FLAGS]]",
	  "EXCHANGE_ID alone (VERF: 16 hex digits); keeps the client id" },
	{ "create_session", 0, 7, cmd_create_session, "[SLOTS MAXOPS CACHE FLAGS SEQ REQ RESP]",
	  "CREATE_SESSION alone; defaults 8 16 4096 0 next 1049620 1049480" },
	{ "sequence", 2, 300, cmd_sequence, "SLOT SEQID [cachethis|nocache] [OP...]",
	  "SEQUENCE, then OPs by name or number" },
	{ "compound", 1, 300, cmd_compound, "MINOR OP...", "the OPs as named (no SEQUENCE added)" },
	{ "destroy_session", 0, 1, cmd_destroy_session, "[SESSION]", "DESTROY_SESSION alone" },
	{ "destroy_clientid", 0, 1, cmd_destroy_clientid, "[CLIENTID]", "DESTROY_CLIENTID alone" },
	{ "bind_conn", 1, 1, cmd_bind_conn, "fore|back|fore_or_both|back_or_both",
	  "BIND_CONN_TO_SESSION alone" },
	{ "clientid", 1, 2, cmd_clientid, "CLIENTID [SEQ]", "use this client id (and csa_sequence)" },
	{ "session", 1, 1, cmd_session, "SESSION", "use this session id (32 hex digits)" },
	{ "exchange_many", 2, 4, cmd_exchange_many, "N PREFIX [OWNERLEN [session]]",
	  "N EXCHANGE_IDs (and CREATE_SESSIONs): counts" },
	{ "too_many_ops", 1, 3, cmd_too_many_ops, "N [SLOT SEQID]",
	  "raw: N operations ([SEQUENCE,] PUTROOTFH...)" },
	{ "illegal_op", 1, 3, cmd_illegal_op, "NUM [SLOT SEQID]",
	  "raw: [SEQUENCE,] operation NUM without arguments" },
	{ "badxdr", 1, 3, cmd_badxdr, "truncated|missing [SLOT SEQID]",
	  "raw: [SEQUENCE,] RECLAIM_COMPLETE cut short, or one operation missing" },
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: nfs4probe [-a none|sys] [-u UID] [-g GID] [-P] [-t SECS] [-S ADDR] [-m MINOR]\n"
	    "                 [-T TAG] HOST PORT tcp|tcp6|udp|udp6 COMMAND [ARGS] [++ COMMAND...]\n"
	    "  -a  credentials (default sys)   -u/-g  AUTH_SYS uid/gid (default 0)\n"
	    "  -P  unprivileged source port    -t  timeout per call (default 5 s)\n"
	    "  -m  minorversion of the compounds (default 1; compound takes its own)\n"
	    "  -T  the compounds' tag (default empty)\n"
	    "OP: an operation by name (PUTROOTFH, OP_GETFH, ...) or number; the session\n"
	    "operations take the probe's client id and session, others zeroed arguments.\n"
	    "commands:\n");
	rr_usage_commands(f, commands, NELEM(commands), 16, 40);
}

int
main(int argc, char **argv)
{
	int c;

	rr_start(argc, argv, "nfs4probe", usage);
	rr.machname = "nfs4probe";
	while ((c = getopt(argc, argv, "+a:u:g:Pt:S:m:T:h")) != -1) {
		if (rr_option(c, optarg))
			continue;
		switch (c) {
		case 'm': opt.minor = (uint32_t)rr_parse_num(optarg, "minor version"); break;
		case 'T': opt.tag = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	return rr_run_steps(argc, argv, optind, commands, NELEM(commands), usage);
}
