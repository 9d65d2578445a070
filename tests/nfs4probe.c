/*
 * nfs4probe - a raw NFSv4.1/4.2 (RFC 8881, RFC 7862) COMPOUND test client
 * for usernfsd's integration tests: the session operations (EXCHANGE_ID,
 * CREATE_SESSION, SEQUENCE, DESTROY_SESSION, DESTROY_CLIENTID,
 * RECLAIM_COMPLETE, BIND_CONN_TO_SESSION), the compound's rules, and the
 * file operations with their arguments (PUTFH, LOOKUP, GETATTR, READDIR,
 * OPEN, READ, WRITE, CREATE, RENAME, ...).
 *
 * It is an NFSv4.0 (RFC 7530) client too: "compound 0 OP..." sends minor
 * version 0 without SEQUENCE, and the 4.0 operations take their
 * arguments: SETCLIENTID (keeps the client id and the confirm verifier),
 * SETCLIENTID_CONFIRM and RENEW (the kept ones by default), OPEN_CONFIRM,
 * RELEASE_LOCKOWNER, OPEN by CLAIM_PREVIOUS (OPEN_PREV); OPEN, CLOSE,
 * OPEN_DOWNGRADE, LOCK and LOCKU take the owners' sequence ids (seqid=,
 * open_seqid=, lock_seqid=; 0 unless given, which 4.1 ignores), and the
 * open and lock owners carry the kept client id, SETCLIENTID's or
 * EXCHANGE_ID's, whichever came last. "dup" sends one compound twice
 * with the same XID, for the duplicate request cache.
 *
 * Arguments are encoded and replies decoded by the XDR routines rpcgen
 * generated from the build's src/rpc/nfs4_prot.x, so the tests speak what a
 * real client speaks; fattr4's values too, each attribute with its own
 * xdr_fattr4_* routine. Only the malformed cases (an unknown opcode, more
 * operations than the XDR allows, arguments cut short) are laid out by
 * hand with rpcraw.h's encoder; the probe says so with encoder=raw. Every
 * reply is read as bytes first (rr_xdr_slurp) and then decoded with
 * xdr_COMPOUND4res, so that reply=LEN:HASH can show two replies to be the
 * same bytes (a retry answered from the session's slot cache). The
 * client, the options -a -u -g -P -t -S, the rpc=NAME lines and the "++"
 * command loop are rpcraw.h's.
 *
 * State lives across "++" in one process, on one TCP connection: the
 * client id EXCHANGE_ID or SETCLIENTID returned (and SETCLIENTID's
 * confirm verifier), the csa_sequence to send next, the
 * session CREATE_SESSION made and the sequence id each of its slots took
 * last (SEQID "next"), the stateids OPEN, OPEN_CONFIRM, OPEN_DOWNGRADE,
 * LOCK and LOCKU returned, the filehandles GETFH returned (by name), and the last
 * READDIR's cookie and verifier. The commands clientid and session set the first two by hand
 * (a stale or forged id, or one from another process). The probe keeps no
 * owner sequence ids: a 4.0 test says each one, so that it can send a
 * replay or a wrong one as easily as the next.
 *
 * Usage: nfs4probe [OPTIONS] HOST PORT tcp|tcp6|udp|udp6 COMMAND [ARGS...]
 *        [++ COMMAND [ARGS...]]...
 * "nfs4probe --help" lists the commands (the table `commands` below) and
 * the operations' arguments (the text `op_help` below).
 *
 * An operation in "sequence" and "compound" is NAME or NAME:ARG,ARG,...
 * (NAME: OP_NAME, NAME or a number, any case). Without ":" it takes what
 * the probe's state gives (the session operations) or zeroed arguments,
 * except where op_help names a default. An argument that is a name or
 * data may be hex:HEX (any bytes) or pat:N (N bytes, 'a' to 'z' over and
 * over); a stateid is last, prev, #N (the N-th stateid OPEN,
 * OPEN_CONFIRM, OPEN_DOWNGRADE, LOCK or LOCKU returned in this process),
 * current, anon, bypass, invalid or 32 hex digits (seqid, then other); a filehandle is HEX or
 * @NAME (saved by GETFH:NAME; @last: the last GETFH).
 *
 * Output, one line per compound, key=value words:
 *   rpc=SUCCESS | rpc=NAME (...)            the RPC (rpcraw.h)
 *   encoder=raw bytes=N                     the arguments were laid out by hand
 *   tag=TAG status=NFS4ERR_X nres=N op0=OP_NAME:NFS4ERR_X op1=...
 *     reply=LEN:HASH (the COMPOUND4res bytes, FNV-1a 64), then, in the
 *     order of the operations, what the successful ones returned:
 *     clientid= seqid= eir_flags= confirmed= server_scope= server_major=
 *     (EXCHANGE_ID); clientid= confirm= (SETCLIENTID; inuse_netid=
 *     inuse_addr= for CLID_INUSE); sessionid=
 *     csr_sequence= csr_flags= slots= maxops= cached= maxreq= maxresp=
 *     (CREATE_SESSION); sr_seqid= sr_slot= highest_slot= target_slot=
 *     sr_flags= (SEQUENCE); bctsr_dir= (BIND_CONN_TO_SESSION); fh=
 *     (GETFH); attrmask= attr_NAME= (GETATTR: attr_size=4 attr_type=NF4REG
 *     attr_mode=0644 attr_owner=0 attr_fsid=MAJOR.MINOR, bitmaps as
 *     names, times as SECONDS.NANOSECONDS); access_supported=
 *     access_granted= (ACCESS); rd_count= rd_eof= rd_names= rd_cookies=
 *     rd_cookieverf= and rd.NAME.ATTR= (READDIR); link= (READLINK);
 *     stateid= rflags= delegation= attrset= cinfo_* (OPEN); stateid=
 *     (OPEN_CONFIRM, OPEN_DOWNGRADE); closed_stateid= (CLOSE);
 *     lock_stateid= (LOCK, LOCKU; denied=OFFSET:LENGTH:TYPE:OWNER for
 *     LOCK and LOCKT refused);
 *     copy_count= copy_committed= copy_consecutive= copy_synchronous=
 *     (COPY); read_len= read_eof=
 *     read_data= read_hash= (READ); rp_eof= rp_segs= (READ_PLUS: h:OFF:LEN for a
 *     hole, d:OFF:LEN:FNV1A64 for data); seek_eof= seek_offset= (SEEK); written= committed= writeverf=
 *     (WRITE); writeverf= (COMMIT); attrsset= (SETATTR, whatever its
 *     status); cinfo_before= cinfo_after= cinfo_atomic= cinfo_changed=
 *     (CREATE with attrset=, REMOVE, LINK; RENAME's as src_cinfo_* and
 *     tgt_cinfo_*); flavors= (SECINFO, SECINFO_NO_NAME: 1,6:krb5p,...); test_codes=
 *     (TEST_STATEID)
 *   readdir_all: name=NAME cookie=N lines, then readdir_calls= entries=
 *     distinct= eof= rd_status=
 *   dup: "send=1 xid=XID tag=..." and "send=2 xid=XID tag=..." (each as
 *     above), then same_reply=0|1
 * Exit status: 0 when every RPC went through and its reply decoded
 * (whatever its NFS status), 1 on an RPC or decoding failure, 2 on a
 * usage error.
 *
 * Some 2,900 lines: the names, the attribute table, one argument builder
 * and one result printer per operation. Should it grow much more, the
 * file operations' encoders and printers would be a file of their own.
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
#define DEFAULT_OPEN_OWNER "nfs4probe-owner"
#define DEFAULT_LOCK_OWNER "nfs4probe-lock-owner"
/* The fore channel's sizes CREATE_SESSION asks by default: a 1 MiB WRITE or READ and headers. */
#define MAXREQ 1049620
#define MAXRESP 1049480

#define N_SLOTS 64		/* slots whose sequence ids the probe follows (CREATE_SESSION's most) */
#define N_SIDS 64		/* stateids kept for last, prev and #N */
#define N_FHS 32		/* filehandles kept by name */
#define FHNAME_MAX 32

/* nfs4probe's own options; the target, credentials and socket are rpcraw's (rr). */
static struct {
	uint32_t minor;		/* -m: the minorversion of every compound but "compound"'s */
	const char *tag;	/* -T */
} opt = { .minor = 1, .tag = "" };

struct saved_fh {
	char name[FHNAME_MAX];
	u_int len;
	char data[NFS4_FHSIZE];
};

/* What one process keeps between commands. */
static struct {
	uint64_t clientid;
	int have_clientid;
	uint32_t cs_seq;	/* the csa_sequence to send next */
	sessionid4 sessionid;
	int have_session;
	uint32_t slot_seq[N_SLOTS];	/* the sequence id each slot took last (0: none yet) */
	stateid4 sids[N_SIDS];		/* OPEN's and OPEN_DOWNGRADE's, oldest first */
	unsigned nsids;			/* returned in all (the oldest are dropped past N_SIDS) */
	struct saved_fh fhs[N_FHS];
	unsigned nfhs;
	nfs_cookie4 cookie;		/* the last READDIR's last cookie, and its verifier */
	verifier4 cookieverf;
	verifier4 confirm;		/* SETCLIENTID's setclientid_confirm (4.0) */
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

/* bytes in hex, nothing else */
static void
print_hex(const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", ((const uint8_t *)p)[i]);
}

/* ---- scratch memory for one compound's arguments ---- */

/* Blocks chained through their first word; all freed after the compound. */
static void **scratch_head;

static void *
scratch(size_t n)
{
	/* Room before the data for the link, kept at malloc's alignment. */
	const size_t hdr = 16;
	char *b = rr_xmalloc(hdr + (n ? n : 1));

	memset(b, 0, hdr + (n ? n : 1));
	*(void **)(void *)b = scratch_head;
	scratch_head = (void **)(void *)b;
	return b + hdr;
}

static void
scratch_free(void)
{
	while (scratch_head) {
		void **next = *scratch_head;

		free(scratch_head);
		scratch_head = next;
	}
}

static char *
scratch_str(const char *s, size_t n)
{
	char *p;

	if (n > NFS4_OPAQUE_LIMIT * 1024)
		rr_die_usage("an argument of %zu bytes", n);
	p = scratch(n + 1);
	memcpy(p, s, n);
	return p;
}

/* ---- an operation's arguments: NAME:W1,W2,... ---- */

struct words {
	const char *op;		/* for messages */
	char **w;
	int n, i;
};

static void
words_split(struct words *w, const char *op, const char *args)
{
	const char *p = args;

	w->op = op;
	w->n = w->i = 0;
	w->w = NULL;
	if (args == NULL)
		return;
	w->w = scratch((strlen(args) + 2) * sizeof(char *));
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		w->w[w->n++] = scratch_str(p, len);
		if (comma == NULL)
			break;
		p = comma + 1;
	}
}

static const char *
word_opt(struct words *w)
{
	return w->i < w->n ? w->w[w->i++] : NULL;
}

static const char *
word_req(struct words *w, const char *what)
{
	if (w->i >= w->n)
		rr_die_usage("%s: %s missing", w->op, what);
	return w->w[w->i++];
}

static void
words_end(struct words *w)
{
	if (w->i < w->n)
		rr_die_usage("%s: what is '%s'?", w->op, w->w[w->i]);
}

/* A name, text or data: hex:HEX, pat:N, or the word itself (maybe empty). */
static void
bytes_arg(const char *s, char **val, u_int *len)
{
	if (strncmp(s, "hex:", 4) == 0) {
		char *b = rr_parse_hex(s + 4, len);

		*val = scratch_str(b, *len);
		free(b);
	} else if (strncmp(s, "pat:", 4) == 0) {
		*len = (u_int)rr_parse_num(s + 4, "pattern length");
		*val = scratch(*len);
		for (u_int i = 0; i < *len; i++)
			(*val)[i] = (char)('a' + i % 26);
	} else {
		*len = (u_int)strlen(s);
		*val = scratch_str(s, *len);
	}
}

static void
utf8_arg(const char *s, utf8string *u)
{
	bytes_arg(s, &u->utf8string_val, &u->utf8string_len);
}

/* KEY=VALUE: 1 with *val set when the word has key KEY. */
static int
keyword(const char *w, const char *key, const char **val)
{
	size_t n = strlen(key);

	if (strncmp(w, key, n) != 0 || w[n] != '=')
		return 0;
	*val = w + n + 1;
	return 1;
}

/* ---- names of values ---- */

struct named {
	const char *name;
	uint32_t v;
};

/* A value by one of its names (any case) or as a number. */
static uint32_t
named_arg(const struct named *t, size_t n, const char *s, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(t[i].name, s) == 0)
			return t[i].v;
	if (*s >= '0' && *s <= '9')
		return (uint32_t)rr_parse_num(s, what);
	rr_die_usage("unknown %s '%s'", what, s);
}

static const char *
named_str(const struct named *t, size_t n, uint32_t v)
{
	static char buf[16];

	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].name;
	snprintf(buf, sizeof(buf), "%u", v);
	return buf;
}

static const struct named ftypes[] = {
	{ "NF4REG", NF4REG }, { "NF4DIR", NF4DIR }, { "NF4BLK", NF4BLK }, { "NF4CHR", NF4CHR },
	{ "NF4LNK", NF4LNK }, { "NF4SOCK", NF4SOCK }, { "NF4FIFO", NF4FIFO },
	{ "NF4ATTRDIR", NF4ATTRDIR }, { "NF4NAMEDATTR", NF4NAMEDATTR },
	/* CREATE's words */
	{ "reg", NF4REG }, { "dir", NF4DIR }, { "blk", NF4BLK }, { "chr", NF4CHR },
	{ "symlink", NF4LNK }, { "lnk", NF4LNK }, { "sock", NF4SOCK }, { "fifo", NF4FIFO },
};
static const struct named share_access[] = {
	{ "read", OPEN4_SHARE_ACCESS_READ }, { "write", OPEN4_SHARE_ACCESS_WRITE },
	{ "both", OPEN4_SHARE_ACCESS_BOTH },
};
static const struct named share_deny[] = {
	{ "none", OPEN4_SHARE_DENY_NONE }, { "read", OPEN4_SHARE_DENY_READ },
	{ "write", OPEN4_SHARE_DENY_WRITE }, { "both", OPEN4_SHARE_DENY_BOTH },
};
static const struct named create_modes[] = {
	{ "unchecked", UNCHECKED4 }, { "guarded", GUARDED4 }, { "exclusive", EXCLUSIVE4 },
	{ "exclusive4_1", EXCLUSIVE4_1 },
};
static const struct named stable_names[] = {
	{ "unstable", UNSTABLE4 }, { "datasync", DATA_SYNC4 }, { "filesync", FILE_SYNC4 },
};
static const struct named stable_out[] = {
	{ "UNSTABLE4", UNSTABLE4 }, { "DATA_SYNC4", DATA_SYNC4 }, { "FILE_SYNC4", FILE_SYNC4 },
};
static const struct named lock_types[] = {
	{ "read", READ_LT }, { "write", WRITE_LT }, { "readw", READW_LT }, { "writew", WRITEW_LT },
};

static const struct named deleg_types[] = {
	{ "NONE", OPEN_DELEGATE_NONE }, { "READ", OPEN_DELEGATE_READ },
	{ "WRITE", OPEN_DELEGATE_WRITE }, { "NONE_EXT", OPEN_DELEGATE_NONE_EXT },
};

/* ---- attributes (RFC 8881 5), each by rpcgen's routine for it ---- */

enum akind {
	K_U32, K_U64, K_BOOL, K_MODE, K_TYPE, K_FSID, K_STR, K_BITMAP, K_TIME, K_SETTIME, K_FH,
	K_SPEC, K_STATUS
};

/* Any attribute's value, as its routine decodes it. */
union aval {
	uint32_t u32;
	uint64_t u64;
	bool_t b;
	nfs_ftype4 type;
	fsid4 fsid;
	utf8string str;
	bitmap4 bm;
	nfstime4 t;
	settime4 set;
	nfs_fh4 fh;
	specdata4 spec;
	nfsstat4 status;
};

struct attr_def {
	unsigned num;
	const char *name;
	enum akind kind;
	xdrproc_t xdr;
};

#define A(up, low, kind) { FATTR4_##up, #low, kind, RR_XDRP(xdr_fattr4_##low) },
static const struct attr_def attr_defs[] = {
	A(SUPPORTED_ATTRS, supported_attrs, K_BITMAP) A(TYPE, type, K_TYPE)
	A(FH_EXPIRE_TYPE, fh_expire_type, K_U32) A(CHANGE, change, K_U64) A(SIZE, size, K_U64)
	A(LINK_SUPPORT, link_support, K_BOOL) A(SYMLINK_SUPPORT, symlink_support, K_BOOL)
	A(NAMED_ATTR, named_attr, K_BOOL) A(FSID, fsid, K_FSID)
	A(UNIQUE_HANDLES, unique_handles, K_BOOL) A(LEASE_TIME, lease_time, K_U32)
	A(RDATTR_ERROR, rdattr_error, K_STATUS) A(ACLSUPPORT, aclsupport, K_U32)
	A(ARCHIVE, archive, K_BOOL) A(CANSETTIME, cansettime, K_BOOL)
	A(CASE_INSENSITIVE, case_insensitive, K_BOOL) A(CASE_PRESERVING, case_preserving, K_BOOL)
	A(CHOWN_RESTRICTED, chown_restricted, K_BOOL) A(FILEHANDLE, filehandle, K_FH)
	A(FILEID, fileid, K_U64) A(FILES_AVAIL, files_avail, K_U64)
	A(FILES_FREE, files_free, K_U64) A(FILES_TOTAL, files_total, K_U64)
	A(HIDDEN, hidden, K_BOOL) A(HOMOGENEOUS, homogeneous, K_BOOL)
	A(MAXFILESIZE, maxfilesize, K_U64) A(MAXLINK, maxlink, K_U32) A(MAXNAME, maxname, K_U32)
	A(MAXREAD, maxread, K_U64) A(MAXWRITE, maxwrite, K_U64) A(MODE, mode, K_MODE)
	A(NO_TRUNC, no_trunc, K_BOOL) A(NUMLINKS, numlinks, K_U32) A(OWNER, owner, K_STR)
	A(OWNER_GROUP, owner_group, K_STR) A(QUOTA_AVAIL_HARD, quota_avail_hard, K_U64)
	A(QUOTA_AVAIL_SOFT, quota_avail_soft, K_U64) A(QUOTA_USED, quota_used, K_U64)
	A(RAWDEV, rawdev, K_SPEC) A(SPACE_AVAIL, space_avail, K_U64)
	A(SPACE_FREE, space_free, K_U64) A(SPACE_TOTAL, space_total, K_U64)
	A(SPACE_USED, space_used, K_U64) A(SYSTEM, system, K_BOOL)
	A(TIME_ACCESS, time_access, K_TIME) A(TIME_ACCESS_SET, time_access_set, K_SETTIME)
	A(TIME_BACKUP, time_backup, K_TIME) A(TIME_CREATE, time_create, K_TIME)
	A(TIME_DELTA, time_delta, K_TIME) A(TIME_METADATA, time_metadata, K_TIME)
	A(TIME_MODIFY, time_modify, K_TIME) A(TIME_MODIFY_SET, time_modify_set, K_SETTIME)
	A(MOUNTED_ON_FILEID, mounted_on_fileid, K_U64)
	A(SUPPATTR_EXCLCREAT, suppattr_exclcreat, K_BITMAP)
	A(CLONE_BLKSIZE, clone_blksize, K_U32) A(XATTR_SUPPORT, xattr_support, K_BOOL)
};
#undef A

#define ATTR_WORDS 3		/* up to attribute 95: suppattr_exclcreat (75) is in word 2 */

static const struct attr_def *
attr_by_num(unsigned n)
{
	for (size_t i = 0; i < NELEM(attr_defs); i++)
		if (attr_defs[i].num == n)
			return &attr_defs[i];
	return NULL;
}

/* By name (any case) or number; NULL when the probe does not know it. */
static const struct attr_def *
attr_by_name(const char *s)
{
	for (size_t i = 0; i < NELEM(attr_defs); i++)
		if (strcasecmp(attr_defs[i].name, s) == 0)
			return &attr_defs[i];
	if (*s >= '0' && *s <= '9')
		return attr_by_num((unsigned)rr_parse_num(s, "attribute number"));
	return NULL;
}

static void
bitmap_set(uint32_t w[ATTR_WORDS], unsigned n)
{
	if (n >= 32 * ATTR_WORDS)
		rr_die_usage("attribute %u is past the probe's bitmap", n);
	w[n / 32] |= 1u << (n % 32);
}

/* The words into a bitmap4 of scratch memory, without trailing zero words. */
static void
bitmap_out(const uint32_t w[ATTR_WORDS], bitmap4 *b)
{
	u_int n = ATTR_WORDS;

	while (n > 0 && w[n - 1] == 0)
		n--;
	b->bitmap4_len = n;
	b->bitmap4_val = n ? scratch(n * sizeof(uint32_t)) : NULL;
	if (n)
		memcpy(b->bitmap4_val, w, n * sizeof(uint32_t));
}

/* An attribute list (names or numbers; "all": every readable one the probe knows) into w. */
static void
attr_list_add(uint32_t w[ATTR_WORDS], const char *s)
{
	const struct attr_def *d;

	if (strcasecmp(s, "all") == 0) {
		for (size_t i = 0; i < NELEM(attr_defs); i++)
			if (attr_defs[i].kind != K_SETTIME)
				bitmap_set(w, attr_defs[i].num);
		return;
	}
	if ((d = attr_by_name(s)) != NULL)
		bitmap_set(w, d->num);
	else if (*s >= '0' && *s <= '9')
		bitmap_set(w, (unsigned)rr_parse_num(s, "attribute number"));
	else
		rr_die_usage("unknown attribute '%s'", s);
}

static int
bitmap_has(const bitmap4 *b, unsigned n)
{
	return n / 32 < b->bitmap4_len && (b->bitmap4_val[n / 32] >> (n % 32) & 1);
}

/* The attributes of a bitmap by name (number when unknown), comma-separated. */
static void
print_attr_names(const bitmap4 *b)
{
	const char *sep = "";

	for (unsigned n = 0; n < 32 * b->bitmap4_len; n++) {
		const struct attr_def *d;

		if (!bitmap_has(b, n))
			continue;
		d = attr_by_num(n);
		if (d)
			printf("%s%s", sep, d->name);
		else
			printf("%s%u", sep, n);
		sep = ",";
	}
}

/* KEY=name,name,... (no leading space) */
static void
print_bitmap(const char *key, const bitmap4 *b)
{
	printf("%s=", key);
	print_attr_names(b);
}

static void
print_value(const struct attr_def *d, const union aval *v)
{
	switch (d->kind) {
	case K_U32: printf("%u", v->u32); break;
	case K_U64: printf("%llu", (unsigned long long)v->u64); break;
	case K_BOOL: printf("%s", v->b ? "true" : "false"); break;
	case K_MODE: printf("%04o", v->u32); break;
	case K_TYPE: printf("%s", named_str(ftypes, NELEM(ftypes), v->type)); break;
	case K_FSID:
		printf("%llu.%llu", (unsigned long long)v->fsid.major,
		    (unsigned long long)v->fsid.minor);
		break;
	case K_STR: printf("%.*s", (int)v->str.utf8string_len, v->str.utf8string_val); break;
	case K_BITMAP: print_attr_names(&v->bm); break;
	case K_TIME: printf("%lld.%09u", (long long)v->t.seconds, v->t.nseconds); break;
	case K_SETTIME:
		if (v->set.set_it == SET_TO_SERVER_TIME4)
			printf("server");
		else
			printf("%lld.%09u", (long long)v->set.settime4_u.time.seconds,
			    v->set.settime4_u.time.nseconds);
		break;
	case K_FH: print_hex(v->fh.nfs_fh4_val, v->fh.nfs_fh4_len); break;
	case K_SPEC: printf("%u.%u", v->spec.specdata1, v->spec.specdata2); break;
	case K_STATUS: printf("%s", stat_name(v->status)); break;
	}
}

typedef bool_t (*xdr_any_fn)(XDR *, void *);

static bool_t
attr_xdr(const struct attr_def *d, XDR *x, union aval *v)
{
	return ((xdr_any_fn)(void (*)(void))d->xdr)(x, v);
}

/*
 * fattr4's values, decoded in attribute order: " PREFIXname=value" for
 * each; attr_decode=FAILED or =TRAILING when they do not decode as the
 * mask says, attr_unknown=N for one the probe cannot decode (then stop).
 */
static void
print_fattr(const fattr4 *f, const char *prefix)
{
	const bitmap4 *m = &f->attrmask;
	XDR x;

	xdrmem_create(&x, f->attr_vals.attrlist4_val, f->attr_vals.attrlist4_len, XDR_DECODE);
	for (unsigned n = 0; n < 32 * m->bitmap4_len; n++) {
		const struct attr_def *d;
		union aval v;

		if (!bitmap_has(m, n))
			continue;
		if ((d = attr_by_num(n)) == NULL) {
			printf(" %sattr_unknown=%u", prefix, n);
			xdr_destroy(&x);
			return;
		}
		memset(&v, 0, sizeof(v));
		if (!attr_xdr(d, &x, &v)) {
			printf(" %sattr_decode=FAILED(%s)", prefix, d->name);
			xdr_destroy(&x);
			return;
		}
		printf(" %s%s=", prefix, d->name);
		print_value(d, &v);
		xdr_free(d->xdr, (char *)&v);
	}
	if (xdr_getpos(&x) != f->attr_vals.attrlist4_len)
		printf(" %sattr_decode=TRAILING", prefix);
	xdr_destroy(&x);
}

/* "S[.N]" */
static nfstime4
time_arg(const char *s)
{
	nfstime4 t = { 0, 0 };
	const char *dot = strchr(s, '.');
	char *sec = scratch_str(s, dot ? (size_t)(dot - s) : strlen(s));

	t.seconds = (int64_t)rr_parse_num(sec, "seconds");
	if (dot)
		t.nseconds = (uint32_t)rr_parse_num(dot + 1, "nanoseconds");
	return t;
}

/* "A.B" into two numbers */
static void
pair_arg(const char *s, uint64_t *a, uint64_t *b, const char *what)
{
	const char *dot = strchr(s, '.');

	if (dot == NULL)
		rr_die_usage("%s is A.B, not '%s'", what, s);
	*a = rr_parse_num(scratch_str(s, (size_t)(dot - s)), what);
	*b = rr_parse_num(dot + 1, what);
}

static void
value_arg(const struct attr_def *d, const char *s, union aval *v)
{
	uint64_t a, b;

	memset(v, 0, sizeof(*v));
	switch (d->kind) {
	case K_U32: case K_MODE: v->u32 = (uint32_t)rr_parse_num(s, d->name); break;
	case K_U64: v->u64 = rr_parse_num(s, d->name); break;
	case K_BOOL:
		v->b = strcmp(s, "true") == 0 || strcmp(s, "1") == 0;
		if (!v->b && strcmp(s, "false") && strcmp(s, "0"))
			rr_die_usage("%s is true or false, not '%s'", d->name, s);
		break;
	case K_TYPE: v->type = (nfs_ftype4)named_arg(ftypes, NELEM(ftypes), s, "type"); break;
	case K_FSID: pair_arg(s, &v->fsid.major, &v->fsid.minor, d->name); break;
	case K_STR: utf8_arg(s, &v->str); break;
	case K_BITMAP: {
		uint32_t w[ATTR_WORDS] = { 0 };
		char *copy = scratch_str(s, strlen(s)), *tok, *save = NULL;

		for (tok = strtok_r(copy, "+", &save); tok; tok = strtok_r(NULL, "+", &save))
			attr_list_add(w, tok);
		bitmap_out(w, &v->bm);
		break;
	}
	case K_TIME: v->t = time_arg(s); break;
	case K_SETTIME:
		if (strcmp(s, "server") == 0) {
			v->set.set_it = SET_TO_SERVER_TIME4;
		} else {
			v->set.set_it = SET_TO_CLIENT_TIME4;
			v->set.settime4_u.time = time_arg(s);
		}
		break;
	case K_FH: {
		char *h = rr_parse_hex(s, &v->fh.nfs_fh4_len);

		v->fh.nfs_fh4_val = scratch_str(h, v->fh.nfs_fh4_len);
		free(h);
		break;
	}
	case K_SPEC:
		pair_arg(s, &a, &b, d->name);
		v->spec.specdata1 = (uint32_t)a;
		v->spec.specdata2 = (uint32_t)b;
		break;
	case K_STATUS: {
		uint32_t n = 0;

		for (size_t i = 0; i < NELEM(stat_names); i++)
			if (strcasecmp(stat_names[i].name, s) == 0)
				n = stat_names[i].v + 1;
		v->status = n ? (nfsstat4)(n - 1) : (nfsstat4)rr_parse_num(s, d->name);
		break;
	}
	}
}

/* Attribute values to send, gathered from ATTR=VALUE words. */
struct fattr_in {
	unsigned n;
	struct {
		const struct attr_def *d;
		const char *val;
	} a[NELEM(attr_defs)];
};

/* 1 when w is ATTR=VALUE of an attribute the probe knows (then kept in in). */
static int
fattr_word(struct fattr_in *in, const char *w)
{
	const char *eq = strchr(w, '=');
	const struct attr_def *d;

	if (eq == NULL || (d = attr_by_name(scratch_str(w, (size_t)(eq - w)))) == NULL)
		return 0;
	if (in->n == NELEM(in->a))
		rr_die_usage("too many attributes");
	in->a[in->n].d = d;
	in->a[in->n].val = eq + 1;
	in->n++;
	return 1;
}

/* The values in attribute order (RFC 8881 5.4), each by its routine. */
static void
fattr_encode(const struct fattr_in *in, fattr4 *out)
{
	uint32_t w[ATTR_WORDS] = { 0 };
	const u_int cap = 65536;
	char *buf = scratch(cap);
	XDR x;

	xdrmem_create(&x, buf, cap, XDR_ENCODE);
	for (unsigned num = 0; num < 32 * ATTR_WORDS; num++)
		for (unsigned i = 0; i < in->n; i++) {
			union aval v;

			if (in->a[i].d->num != num)
				continue;
			value_arg(in->a[i].d, in->a[i].val, &v);
			if (!attr_xdr(in->a[i].d, &x, &v))
				rr_die_usage("cannot encode %s=%s", in->a[i].d->name, in->a[i].val);
			bitmap_set(w, num);
		}
	bitmap_out(w, &out->attrmask);
	out->attr_vals.attrlist4_val = buf;
	out->attr_vals.attrlist4_len = xdr_getpos(&x);
	xdr_destroy(&x);
}

/* ---- stateids and filehandles ---- */

static void
sid_set(stateid4 *s, uint32_t seqid, int byte)
{
	s->seqid = seqid;
	memset(s->other, byte, NFS4_OTHER_SIZE);
}

static int
all_hex(const char *s, size_t n)
{
	if (strlen(s) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (rr_hexval(s[i]) < 0)
			return 0;
	return 1;
}

/* The k-th stateid kept from the end (0: the last). */
static const stateid4 *
kept_sid(unsigned k, const char *word)
{
	if (k >= st.nsids || k >= N_SIDS)
		rr_die_usage("no stateid '%s' yet: OPEN returned %u", word, st.nsids);
	return &st.sids[(st.nsids - 1 - k) % N_SIDS];
}

/* 1 when w names a stateid (then in *out). */
static int
sid_word(const char *w, stateid4 *out)
{
	if (strcmp(w, "anon") == 0) {
		sid_set(out, 0, 0);
	} else if (strcmp(w, "bypass") == 0) {
		sid_set(out, NFS4_UINT32_MAX, 0xff);
	} else if (strcmp(w, "current") == 0) {
		sid_set(out, 1, 0);
	} else if (strcmp(w, "invalid") == 0) {
		sid_set(out, NFS4_UINT32_MAX, 0);
	} else if (strcmp(w, "last") == 0) {
		*out = *kept_sid(0, w);
	} else if (strcmp(w, "prev") == 0) {
		*out = *kept_sid(1, w);
	} else if (w[0] == '#' && w[1] >= '1' && w[1] <= '9') {
		unsigned long long n = rr_parse_num(w + 1, "stateid number");

		if (n > st.nsids)
			rr_die_usage("no stateid '%s' yet: OPEN returned %u", w, st.nsids);
		*out = *kept_sid(st.nsids - (unsigned)n, w);
	} else if (all_hex(w, 2 * (4 + NFS4_OTHER_SIZE))) {
		char buf[4 + NFS4_OTHER_SIZE];

		parse_fixed_hex(w, buf, sizeof(buf), "a stateid");
		out->seqid = rr_get32(buf);
		memcpy(out->other, buf + 4, NFS4_OTHER_SIZE);
	} else {
		return 0;
	}
	return 1;
}

static void
sid_arg(const char *w, stateid4 *out)
{
	if (!sid_word(w, out))
		rr_die_usage("'%s' is no stateid (last, prev, #N, current, anon, bypass, "
		    "invalid, 32 hex digits)", w);
}

static void
print_sid(const char *key, const stateid4 *s)
{
	printf(" %s=%08x", key, s->seqid);
	print_hex(s->other, NFS4_OTHER_SIZE);
}

static void
keep_sid(const stateid4 *s)
{
	st.sids[st.nsids++ % N_SIDS] = *s;
}

static struct saved_fh *
saved_fh(const char *name)
{
	for (unsigned i = 0; i < st.nfhs; i++)
		if (strcmp(st.fhs[i].name, name) == 0)
			return &st.fhs[i];
	return NULL;
}

static void
keep_fh(const char *name, const nfs_fh4 *fh)
{
	struct saved_fh *s = saved_fh(name);

	if (s == NULL) {
		if (st.nfhs == N_FHS)
			rr_die_usage("more than %d filehandles kept by name", N_FHS);
		s = &st.fhs[st.nfhs++];
		snprintf(s->name, sizeof(s->name), "%s", name);
	}
	s->len = fh->nfs_fh4_len <= NFS4_FHSIZE ? fh->nfs_fh4_len : NFS4_FHSIZE;
	memcpy(s->data, fh->nfs_fh4_val, s->len);
}

/* HEX or @NAME */
static void
fh_arg(const char *w, nfs_fh4 *fh)
{
	if (w[0] == '@') {
		const struct saved_fh *s = saved_fh(w + 1);

		if (s == NULL)
			rr_die_usage("no filehandle '%s' yet (GETFH:%s keeps one)", w, w + 1);
		fh->nfs_fh4_len = s->len;
		fh->nfs_fh4_val = scratch_str(s->data, s->len);
	} else {
		char *b = rr_parse_hex(w, &fh->nfs_fh4_len);

		fh->nfs_fh4_val = scratch_str(b, fh->nfs_fh4_len);
		free(b);
	}
}

/* A client id: 16 hex digits, as the probe prints them, or a number (0x... for hex). */
static uint64_t
clientid_arg(const char *s)
{
	if (all_hex(s, 16)) {
		char b[8];

		parse_fixed_hex(s, b, sizeof(b), "a client id");
		return rr_get64(b);
	}
	return rr_parse_num(s, "client id");
}

/* KEY=N of an owner's sequence id (seqid=, open_seqid=, lock_seqid=): 1 with *v set. */
static int
seqid_word(const char *w, const char *key, seqid4 *v)
{
	const char *val;

	if (!keyword(w, key, &val))
		return 0;
	*v = (seqid4)rr_parse_num(val, key);
	return 1;
}

/* The sequence id to send on slot: SEQID, or "next" (one more than the slot took last). */
static uint32_t
seqid_arg(uint32_t slot, const char *s)
{
	if (strcmp(s, "next") == 0) {
		if (slot >= N_SLOTS)
			rr_die_usage("the probe follows slots 0 to %d only", N_SLOTS - 1);
		return st.slot_seq[slot] + 1;
	}
	return (uint32_t)rr_parse_num(s, "sequence id");
}

static void
slots_reset(void)
{
	memset(st.slot_seq, 0, sizeof(st.slot_seq));
}

/* ---- sending a compound, printing its reply ---- */

/* What the probe notes about one operation it sent, for its result. */
struct op_note {
	const char *fhname;	/* GETFH:NAME */
};

struct compound {
	COMPOUND4args a;
	nfs_argop4 ops[NFS4_COMPOUND_MAX];
	struct op_note notes[NFS4_COMPOUND_MAX];
};

/* COMPOUND4res's bytes into *res (xdr_free it): 1 when they decode, all of them. */
static int
decode_compound(const struct rr_enc *rep, COMPOUND4res *res)
{
	XDR x;
	int ok;

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

/*
 * One COMPOUND, encoded by rpcgen (args) or given as bytes (raw); the
 * reply's bytes in *rep, decoded into *res (xdr_free it). 1 when the call
 * went through and its reply decoded.
 */
static int
call_compound(COMPOUND4args *args, struct rr_enc *raw, struct rr_enc *rep, COMPOUND4res *res)
{
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
	return ok ? decode_compound(rep, res) : 0;
}

static void
free_reply(struct rr_enc *rep, COMPOUND4res *res)
{
	xdr_free(RR_XDRP(xdr_COMPOUND4res), (char *)res);
	free(rep->buf);
	rep->buf = NULL;
}

static nfsstat4
res_status(const nfs_resop4 *r)
{
	/* every result arm starts with its status */
	return *(const nfsstat4 *)(const void *)&r->nfs_resop4_u;
}

/* A SEQUENCE that succeeded: its slot took that sequence id. */
static void
note_sequence(const SEQUENCE4resok *ok)
{
	if (ok->sr_slotid < N_SLOTS)
		st.slot_seq[ok->sr_slotid] = ok->sr_sequenceid;
}

/* What a successful session operation returned; the state it gives. */
static void
print_session_resok(const nfs_resop4 *r)
{
	switch (r->resop) {
	case OP_EXCHANGE_ID: {
		const EXCHANGE_ID4resok *ok = &r->nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4;

		printf(" clientid=%016llx seqid=%u eir_flags=0x%08x confirmed=%d",
		    (unsigned long long)ok->eir_clientid, ok->eir_sequenceid, ok->eir_flags,
		    (ok->eir_flags & EXCHGID4_FLAG_CONFIRMED_R) != 0);
		printf(" server_scope=%.*s server_major=%.*s",
		    (int)ok->eir_server_scope.eir_server_scope_len,
		    ok->eir_server_scope.eir_server_scope_val,
		    (int)ok->eir_server_owner.so_major_id.so_major_id_len,
		    ok->eir_server_owner.so_major_id.so_major_id_val);
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
		slots_reset();
		break;
	}
	case OP_SEQUENCE: {
		const SEQUENCE4resok *ok = &r->nfs_resop4_u.opsequence.SEQUENCE4res_u.sr_resok4;

		printf(" sr_seqid=%u sr_slot=%u highest_slot=%u target_slot=%u sr_flags=0x%x",
		    ok->sr_sequenceid, ok->sr_slotid, ok->sr_highest_slotid,
		    ok->sr_target_highest_slotid, ok->sr_status_flags);
		note_sequence(ok);
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
print_cinfo(const char *prefix, const change_info4 *ci)
{
	printf(" %scinfo_before=%llu %scinfo_after=%llu %scinfo_atomic=%d %scinfo_changed=%d",
	    prefix, (unsigned long long)ci->before, prefix, (unsigned long long)ci->after, prefix,
	    (int)ci->atomic, prefix, ci->before != ci->after);
}

/*
 * READ_PLUS: rp_eof=, then rp_segs= the contents in order, a hole as
 * h:OFFSET:LENGTH, data as d:OFFSET:LENGTH:FNV1A64 (of its bytes).
 */
static void
print_read_plus(const read_plus_res4 *ok)
{
	const char *sep = "";
	u_int i;

	printf(" rp_eof=%d rp_segs=", (int)ok->rpr_eof);
	for (i = 0; i < ok->rpr_contents.rpr_contents_len; i++, sep = ",") {
		const read_plus_content *c = &ok->rpr_contents.rpr_contents_val[i];

		if (c->rpc_content == NFS4_CONTENT_HOLE)
			printf("%sh:%llu:%llu", sep,
			    (unsigned long long)c->read_plus_content_u.rpc_hole.di_offset,
			    (unsigned long long)c->read_plus_content_u.rpc_hole.di_length);
		else if (c->rpc_content == NFS4_CONTENT_DATA)
			printf("%sd:%llu:%u:%016llx", sep,
			    (unsigned long long)c->read_plus_content_u.rpc_data.d_offset,
			    c->read_plus_content_u.rpc_data.d_data.d_data_len,
			    (unsigned long long)fnv1a64(c->read_plus_content_u.rpc_data.d_data.d_data_val,
			    c->read_plus_content_u.rpc_data.d_data.d_data_len));
		else
			printf("%s?%d", sep, (int)c->rpc_content);
	}
	printf(" ");
}

static void
print_readdir(const READDIR4resok *ok)
{
	const entry4 *e;
	const char *sep = "";
	unsigned n = 0;

	for (e = ok->reply.entries; e; e = e->nextentry)
		n++;
	printf(" rd_count=%u rd_eof=%d rd_names=", n, (int)ok->reply.eof);
	for (e = ok->reply.entries; e; e = e->nextentry, sep = ",")
		printf("%s%.*s", sep, (int)e->name.utf8string_len, e->name.utf8string_val);
	printf(" rd_cookies=");
	sep = "";
	for (e = ok->reply.entries; e; e = e->nextentry, sep = ",")
		printf("%s%llu", sep, (unsigned long long)e->cookie);
	printf(" ");
	rr_print_hex("rd_cookieverf", ok->cookieverf, NFS4_VERIFIER_SIZE, 0);
	for (e = ok->reply.entries; e; e = e->nextentry) {
		char prefix[NFS4_OPAQUE_LIMIT + 8];

		if (e->attrs.attrmask.bitmap4_len == 0)
			continue;
		snprintf(prefix, sizeof(prefix), "rd.%.*s.", (int)e->name.utf8string_len,
		    e->name.utf8string_val);
		print_fattr(&e->attrs, prefix);
	}
	for (e = ok->reply.entries; e; e = e->nextentry)
		st.cookie = e->cookie;
	memcpy(st.cookieverf, ok->cookieverf, NFS4_VERIFIER_SIZE);
}

static void
print_secinfo(const SECINFO4resok *ok)
{
	static const uint8_t krb5[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 };

	printf(" flavors=");
	for (u_int i = 0; i < ok->SECINFO4resok_len; i++) {
		const secinfo4 *s = &ok->SECINFO4resok_val[i];
		const rpcsec_gss_info *g = &s->secinfo4_u.flavor_info;

		printf("%s%u", i ? "," : "", s->flavor);
		/* RPCSEC_GSS: krb5 (the OID checked), krb5i or krb5p by the service; the qop if any */
		if (s->flavor == RPCSEC_GSS)
			printf(":%s%s%s", g->oid.sec_oid4_len == sizeof(krb5) &&
			    memcmp(g->oid.sec_oid4_val, krb5, sizeof(krb5)) == 0 ? "krb5" : "oid?",
			    g->service == RPC_GSS_SVC_PRIVACY ? "p" : g->service == RPC_GSS_SVC_INTEGRITY ? "i" :
			    g->service == RPC_GSS_SVC_NONE ? "" : "?", g->qop ? ":qop" : "");
	}
}

/* The lock that refused LOCK or LOCKT: denied=OFFSET:LENGTH:TYPE:OWNER(hex) */
static void
print_denied(const LOCK4denied *d)
{
	printf(" denied=%llu:%llu:%s:", (unsigned long long)d->offset,
	    (unsigned long long)d->length, named_str(lock_types, NELEM(lock_types), d->locktype));
	print_hex(d->owner.owner.owner_val, d->owner.owner.owner_len);
}

/* What a file operation returned (when it succeeded; SETATTR's attrsset always). */
static void
print_file_result(const nfs_resop4 *r, const struct op_note *note)
{
	const __typeof__(r->nfs_resop4_u) *u = &r->nfs_resop4_u;

	if (r->resop == OP_SETATTR) {
		printf(" ");
		print_bitmap("attrsset", &u->opsetattr.attrsset);
		return;
	}
	if (res_status(r) == NFS4ERR_DENIED && (r->resop == OP_LOCK || r->resop == OP_LOCKT)) {
		print_denied(r->resop == OP_LOCK ? &u->oplock.LOCK4res_u.denied :
		    &u->oplockt.LOCKT4res_u.denied);
		return;
	}
	if (res_status(r) == NFS4ERR_CLID_INUSE && r->resop == OP_SETCLIENTID) {
		const clientaddr4 *a = &u->opsetclientid.SETCLIENTID4res_u.client_using;

		printf(" inuse_netid=%s inuse_addr=%s", a->na_r_netid ? a->na_r_netid : "",
		    a->na_r_addr ? a->na_r_addr : "");
		return;
	}
	if (res_status(r) != NFS4_OK)
		return;
	switch (r->resop) {
	case OP_SETCLIENTID: {
		const SETCLIENTID4resok *ok = &u->opsetclientid.SETCLIENTID4res_u.resok4;

		printf(" clientid=%016llx ", (unsigned long long)ok->clientid);
		rr_print_hex("confirm", ok->setclientid_confirm, NFS4_VERIFIER_SIZE, 0);
		st.clientid = ok->clientid;
		st.have_clientid = 1;
		memcpy(st.confirm, ok->setclientid_confirm, NFS4_VERIFIER_SIZE);
		break;
	}
	case OP_OPEN_CONFIRM: {
		const stateid4 *s = &u->opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid;

		print_sid("stateid", s);
		keep_sid(s);
		break;
	}
	case OP_GETFH: {
		const nfs_fh4 *fh = &u->opgetfh.GETFH4res_u.resok4.object;

		printf(" ");
		rr_print_hex("fh", fh->nfs_fh4_val, fh->nfs_fh4_len, 0);
		keep_fh("last", fh);
		if (note && note->fhname)
			keep_fh(note->fhname, fh);
		break;
	}
	case OP_GETATTR:
		printf(" ");
		print_bitmap("attrmask", &u->opgetattr.GETATTR4res_u.resok4.obj_attributes.attrmask);
		print_fattr(&u->opgetattr.GETATTR4res_u.resok4.obj_attributes, "attr_");
		break;
	case OP_ACCESS:
		printf(" access_supported=0x%x access_granted=0x%x",
		    u->opaccess.ACCESS4res_u.resok4.supported, u->opaccess.ACCESS4res_u.resok4.access);
		break;
	case OP_READDIR:
		print_readdir(&u->opreaddir.READDIR4res_u.resok4);
		break;
	case OP_READLINK: {
		const linktext4 *l = &u->opreadlink.READLINK4res_u.resok4.link;

		printf(" link=%.*s", (int)l->linktext4_len, l->linktext4_val);
		break;
	}
	case OP_OPEN: {
		const OPEN4resok *ok = &u->opopen.OPEN4res_u.resok4;

		print_sid("stateid", &ok->stateid);
		keep_sid(&ok->stateid);
		printf(" rflags=0x%x delegation=%s ", ok->rflags, named_str(deleg_types,
		    NELEM(deleg_types), ok->delegation.delegation_type));
		print_bitmap("attrset", &ok->attrset);
		print_cinfo("", &ok->cinfo);
		break;
	}
	case OP_OPEN_DOWNGRADE: {
		const stateid4 *s = &u->opopen_downgrade.OPEN_DOWNGRADE4res_u.resok4.open_stateid;

		print_sid("stateid", s);
		keep_sid(s);
		break;
	}
	case OP_CLOSE:
		print_sid("closed_stateid", &u->opclose.CLOSE4res_u.open_stateid);
		break;
	case OP_LOCK: {
		const stateid4 *s = &u->oplock.LOCK4res_u.resok4.lock_stateid;

		print_sid("lock_stateid", s);
		keep_sid(s);
		break;
	}
	case OP_LOCKU: {
		const stateid4 *s = &u->oplocku.LOCKU4res_u.lock_stateid;

		print_sid("lock_stateid", s);
		keep_sid(s);
		break;
	}
	case OP_COPY: {
		const COPY4resok *ok = &u->opcopy.COPY4res_u.cr_resok4;

		printf(" copy_count=%llu copy_committed=%s copy_consecutive=%d copy_synchronous=%d",
		    (unsigned long long)ok->cr_response.wr_count, named_str(stable_out,
		    NELEM(stable_out), ok->cr_response.wr_committed),
		    (int)ok->cr_requirements.cr_consecutive, (int)ok->cr_requirements.cr_synchronous);
		break;
	}
	case OP_READ: {
		const READ4resok *ok = &u->opread.READ4res_u.resok4;

		printf(" read_len=%u read_eof=%d ", ok->data.data_len, (int)ok->eof);
		rr_print_hex("read_data", ok->data.data_val, ok->data.data_len, 64);
		printf(" read_hash=%016llx",
		    (unsigned long long)fnv1a64(ok->data.data_val, ok->data.data_len));
		break;
	}
	case OP_READ_PLUS:
		print_read_plus(&u->opread_plus.READ_PLUS4res_u.rp_resok4);
		break;
	case OP_SEEK:
		printf(" seek_eof=%d seek_offset=%llu", (int)u->opseek.SEEK4res_u.resok4.sr_eof,
		    (unsigned long long)u->opseek.SEEK4res_u.resok4.sr_offset);
		break;
	case OP_GETXATTR: {
		const xattrvalue4 *v = &u->opgetxattr.GETXATTR4res_u.gxr_value;

		printf(" xattr_len=%u ", v->xattrvalue4_len);
		rr_print_hex("xattr_value", v->xattrvalue4_val, v->xattrvalue4_len, 64);
		break;
	}
	case OP_SETXATTR:
	case OP_REMOVEXATTR: {
		const change_info4 *ci = r->resop == OP_SETXATTR ?
		    &u->opsetxattr.SETXATTR4res_u.sxr_info : &u->opremovexattr.REMOVEXATTR4res_u.rxr_info;

		printf(" xattr_changed=%d", ci->after != ci->before);
		break;
	}
	case OP_LISTXATTRS: {
		const LISTXATTRS4resok *ok = &u->oplistxattrs.LISTXATTRS4res_u.lxr_value;

		printf(" lx_cookie=%llu lx_eof=%d lx_names=", (unsigned long long)ok->lxr_cookie,
		    (int)ok->lxr_eof);
		for (u_int i = 0; i < ok->lxr_names.lxr_names_len; i++)
			printf("%s%.*s", i ? "," : "", (int)ok->lxr_names.lxr_names_val[i].utf8string_len,
			    ok->lxr_names.lxr_names_val[i].utf8string_val);
		break;
	}
	case OP_WRITE: {
		const WRITE4resok *ok = &u->opwrite.WRITE4res_u.resok4;

		printf(" written=%u committed=%s ", ok->count,
		    named_str(stable_out, NELEM(stable_out), ok->committed));
		rr_print_hex("writeverf", ok->writeverf, NFS4_VERIFIER_SIZE, 0);
		break;
	}
	case OP_COMMIT:
		printf(" ");
		rr_print_hex("writeverf", u->opcommit.COMMIT4res_u.resok4.writeverf,
		    NFS4_VERIFIER_SIZE, 0);
		break;
	case OP_CREATE:
		print_cinfo("", &u->opcreate.CREATE4res_u.resok4.cinfo);
		printf(" ");
		print_bitmap("attrset", &u->opcreate.CREATE4res_u.resok4.attrset);
		break;
	case OP_REMOVE:
		print_cinfo("", &u->opremove.REMOVE4res_u.resok4.cinfo);
		break;
	case OP_LINK:
		print_cinfo("", &u->oplink.LINK4res_u.resok4.cinfo);
		break;
	case OP_RENAME:
		print_cinfo("src_", &u->oprename.RENAME4res_u.resok4.source_cinfo);
		print_cinfo("tgt_", &u->oprename.RENAME4res_u.resok4.target_cinfo);
		break;
	case OP_SECINFO:
		print_secinfo(&u->opsecinfo.SECINFO4res_u.resok4);
		break;
	case OP_SECINFO_NO_NAME:
		print_secinfo(&u->opsecinfo_no_name.SECINFO4res_u.resok4);
		break;
	case OP_TEST_STATEID: {
		const TEST_STATEID4resok *ok = &u->optest_stateid.TEST_STATEID4res_u.tsr_resok4;

		printf(" test_codes=");
		for (u_int i = 0; i < ok->tsr_status_codes.tsr_status_codes_len; i++)
			printf("%s%s", i ? "," : "",
			    stat_name(ok->tsr_status_codes.tsr_status_codes_val[i]));
		break;
	}
	default:
		print_session_resok(r);
		break;
	}
}

static void
print_reply(const struct rr_enc *rep, const COMPOUND4res *res, const struct compound *c)
{
	u_int n = res->resarray.resarray_len;

	printf("tag=%.*s status=%s nres=%u", (int)res->tag.utf8string_len,
	    res->tag.utf8string_val ? res->tag.utf8string_val : "", stat_name(res->status), n);
	for (u_int i = 0; i < n; i++) {
		const nfs_resop4 *r = &res->resarray.resarray_val[i];

		printf(" op%u=", i);
		print_op(r->resop);
		printf(":%s", stat_name(res_status(r)));
	}
	printf(" reply=%u:%016llx", rep->len, (unsigned long long)fnv1a64(rep->buf, rep->len));
	for (u_int i = 0; i < n; i++) {
		/* The results answer the operations in order (RFC 8881 16.2.3). */
		const struct op_note *note = c && i < c->a.argarray.argarray_len ? &c->notes[i] : NULL;

		print_file_result(&res->resarray.resarray_val[i], note);
	}
	printf("\n");
}

/* Sends, prints; the command's exit status. */
static int
run_compound(struct compound *c, struct rr_enc *raw)
{
	struct rr_enc rep;
	COMPOUND4res res;
	int ok = call_compound(c ? &c->a : NULL, raw, &rep, &res);

	if (ok)
		print_reply(&rep, &res, c);
	free_reply(&rep, &res);
	scratch_free();
	return ok ? 0 : 1;
}

/* ---- arguments, by rpcgen's types ---- */

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

/* What CREATE_SESSION asks: the fore channel, flags, csa_sequence, the back channel's sizes. */
struct session_ask {
	uint32_t slots, maxops, cache, flags, seq, maxreq, maxresp, backreq, backops;
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
	b->ca_maxrequestsize = s->backreq;
	b->ca_maxresponsesize = 4096;
	b->ca_maxoperations = s->backops;
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

/* The session operations' arguments from the probe's state. */
static void
session_op_args(nfs_argop4 *o)
{
	struct session_ask s = { 8, 16, 4096, 0, st.cs_seq, MAXREQ, MAXRESP, 4096, 2 };

	switch (o->argop) {
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

/* ---- the file operations' arguments (op_help documents them) ---- */

static void
getattr_args(struct words *w, bitmap4 *b)
{
	uint32_t m[ATTR_WORDS] = { 0 };
	const char *s;

	while ((s = word_opt(w)) != NULL)
		if (*s)
			attr_list_add(m, s);
	bitmap_out(m, b);
}

/* COOKIE,MAXCOUNT[,ATTR...][,dircount=N][,verf=HEX] */
static void
readdir_args(struct words *w, READDIR4args *a)
{
	uint32_t m[ATTR_WORDS] = { 0 };
	const char *s, *v;

	a->maxcount = 8192;
	if (w->n == 0)
		return;
	s = word_req(w, "cookie");
	if (strcmp(s, "last") == 0) {
		a->cookie = st.cookie;
		memcpy(a->cookieverf, st.cookieverf, NFS4_VERIFIER_SIZE);
	} else {
		a->cookie = rr_parse_num(s, "cookie");
		if (a->cookie != 0)
			memcpy(a->cookieverf, st.cookieverf, NFS4_VERIFIER_SIZE);
	}
	a->maxcount = (count4)rr_parse_num(word_req(w, "maxcount"), "maxcount");
	while ((s = word_opt(w)) != NULL) {
		if (keyword(s, "dircount", &v))
			a->dircount = (count4)rr_parse_num(v, "dircount");
		else if (keyword(s, "verf", &v))
			parse_fixed_hex(v, a->cookieverf, NFS4_VERIFIER_SIZE, "a cookie verifier");
		else if (*s)
			attr_list_add(m, s);
	}
	bitmap_out(m, &a->attr_request);
}

/* The create mode's arm of createhow4: attributes, verifier, or both (EXCLUSIVE4_1). */
static void
createhow_args(struct words *w, createhow4 *how, const struct fattr_in *attrs, const char *verf)
{
	switch (how->mode) {
	case UNCHECKED4:
	case GUARDED4:
		fattr_encode(attrs, &how->createhow4_u.createattrs);
		break;
	case EXCLUSIVE4:
		if (attrs->n)
			rr_die_usage("%s: EXCLUSIVE4 takes no attributes", w->op);
		parse_fixed_hex(verf, how->createhow4_u.createverf, NFS4_VERIFIER_SIZE, "a verifier");
		break;
	case EXCLUSIVE4_1:
		parse_fixed_hex(verf, how->createhow4_u.ch_createboth.cva_verf, NFS4_VERIFIER_SIZE,
		    "a verifier");
		fattr_encode(attrs, &how->createhow4_u.ch_createboth.cva_attrs);
		break;
	default:
		break;		/* a mode by number: its arm empty */
	}
}

/*
 * NAME,ACCESS,DENY[,MODE][,verf=HEX][,open_owner=NAME][,seqid=N][,ATTR=VALUE...],
 * or for CLAIM_FH and CLAIM_PREVIOUS (the current filehandle's file)
 * ACCESS,DENY[,open_owner=NAME][,seqid=N]
 */
static void
open_args(struct words *w, OPEN4args *a, open_claim_type4 claim)
{
	struct fattr_in attrs = { 0 };
	const char *s, *v, *owner = DEFAULT_OPEN_OWNER, *verf = DEFAULT_VERIFIER;
	int have_mode = 0, by_fh = claim != CLAIM_NULL;

	a->claim.claim = claim;
	if (claim == CLAIM_PREVIOUS)
		a->claim.open_claim4_u.delegate_type = OPEN_DELEGATE_NONE;
	else if (!by_fh)
		utf8_arg(word_req(w, "name"), &a->claim.open_claim4_u.file);
	a->share_access = named_arg(share_access, NELEM(share_access), word_req(w, "access"),
	    "share access");
	a->share_deny = named_arg(share_deny, NELEM(share_deny), word_req(w, "deny"),
	    "share deny");
	while ((s = word_opt(w)) != NULL) {
		if (keyword(s, "open_owner", &v)) {
			owner = v;
		} else if (seqid_word(s, "seqid", &a->seqid)) {
			continue;
		} else if (keyword(s, "verf", &v)) {
			verf = v;
		} else if (fattr_word(&attrs, s)) {
			continue;
		} else if (!by_fh && !have_mode && strcmp(s, "nocreate") == 0) {
			have_mode = 1;
		} else if (!by_fh && !have_mode) {
			a->openhow.opentype = OPEN4_CREATE;
			a->openhow.openflag4_u.how.mode = (createmode4)named_arg(create_modes,
			    NELEM(create_modes), s, "create mode");
			have_mode = 1;
		} else {
			rr_die_usage("%s: what is '%s'?", w->op, s);
		}
	}
	a->owner.clientid = st.clientid;
	bytes_arg(owner, &a->owner.owner.owner_val, &a->owner.owner.owner_len);
	if (a->openhow.opentype == OPEN4_CREATE)
		createhow_args(w, &a->openhow.openflag4_u.how, &attrs, verf);
	else if (attrs.n)
		rr_die_usage("%s: attributes only with a create mode", w->op);
}

/* The stateid word if there is one left, else dflt (NULL: the last OPEN's). */
static void
sid_opt(struct words *w, stateid4 *s, const char *dflt)
{
	const char *word = word_opt(w);

	sid_arg(word ? word : dflt ? dflt : "last", s);
}

/* [SID][,seqid=N], in either order: the stateid (default last) and the owner's sequence id (0) */
static void
sid_seqid_args(struct words *w, stateid4 *sid, seqid4 *seqid)
{
	const char *s;
	int have_sid = 0;

	while ((s = word_opt(w)) != NULL) {
		if (seqid_word(s, "seqid", seqid))
			continue;
		if (have_sid)
			rr_die_usage("%s: what is '%s'?", w->op, s);
		sid_arg(s, sid);
		have_sid = 1;
	}
	if (!have_sid)
		sid_arg("last", sid);
}

/* CREATE: TYPE,NAME[,TARGET|MAJOR.MINOR][,ATTR=VALUE...] */
static void
create_op_args(struct words *w, CREATE4args *a)
{
	struct fattr_in attrs = { 0 };
	const char *s;

	a->objtype.type = (nfs_ftype4)named_arg(ftypes, NELEM(ftypes), word_req(w, "type"), "type");
	utf8_arg(word_req(w, "name"), &a->objname);
	if (a->objtype.type == NF4LNK) {
		bytes_arg(word_req(w, "the link's text"), &a->objtype.createtype4_u.linkdata.linktext4_val,
		    &a->objtype.createtype4_u.linkdata.linktext4_len);
	} else if (a->objtype.type == NF4BLK || a->objtype.type == NF4CHR) {
		uint64_t maj, min;

		pair_arg(word_req(w, "MAJOR.MINOR"), &maj, &min, "a device number");
		a->objtype.createtype4_u.devdata.specdata1 = (uint32_t)maj;
		a->objtype.createtype4_u.devdata.specdata2 = (uint32_t)min;
	}
	while ((s = word_opt(w)) != NULL)
		if (!fattr_word(&attrs, s))
			rr_die_usage("%s: what is '%s'?", w->op, s);
	fattr_encode(&attrs, &a->createattrs);
}

/* ATTR=VALUE... [STATEID] (SETATTR), or ATTR=VALUE... (VERIFY, NVERIFY) */
static void
fattr_args(struct words *w, fattr4 *f, stateid4 *sid)
{
	struct fattr_in attrs = { 0 };
	const char *s;

	if (sid)
		sid_set(sid, 0, 0);
	while ((s = word_opt(w)) != NULL) {
		if (fattr_word(&attrs, s))
			continue;
		if (sid == NULL || !sid_word(s, sid))
			rr_die_usage("%s: what is '%s'?", w->op, s);
	}
	fattr_encode(&attrs, f);
}

/* OFFSET,DATA[,unstable|datasync|filesync][,STATEID] */
static void
write_args(struct words *w, WRITE4args *a)
{
	const char *s;

	a->stable = FILE_SYNC4;
	sid_set(&a->stateid, 0, 0);
	if (w->n == 0)
		return;
	a->offset = rr_parse_num(word_req(w, "offset"), "offset");
	bytes_arg(word_req(w, "data"), &a->data.data_val, &a->data.data_len);
	while ((s = word_opt(w)) != NULL) {
		size_t i;

		for (i = 0; i < NELEM(stable_names) && strcmp(stable_names[i].name, s); i++)
			;
		if (i < NELEM(stable_names))
			a->stable = (stable_how4)stable_names[i].v;
		else
			sid_arg(s, &a->stateid);
	}
}

static void
test_stateid_args(struct words *w, TEST_STATEID4args *a)
{
	u_int n = w->n ? (u_int)w->n : 1;

	a->ts_stateids.ts_stateids_val = scratch(n * sizeof(stateid4));
	a->ts_stateids.ts_stateids_len = n;
	for (u_int i = 0; i < n; i++)
		sid_arg(w->n ? w->w[w->i++] : "last", &a->ts_stateids.ts_stateids_val[i]);
}

/* A lock range's LENGTH: a number, or max (all ones: to the end of the file). */
static uint64_t
length_arg(const char *s)
{
	return strcmp(s, "max") == 0 ? NFS4_UINT64_MAX : rr_parse_num(s, "length");
}

/* TYPE,OFFSET,LENGTH of LOCK, LOCKT and LOCKU */
static void
lock_range_args(struct words *w, nfs_lock_type4 *type, offset4 *off, length4 *len)
{
	*type = (nfs_lock_type4)named_arg(lock_types, NELEM(lock_types), word_req(w, "type"),
	    "lock type");
	*off = rr_parse_num(word_req(w, "offset"), "offset");
	*len = length_arg(word_req(w, "length"));
}

/*
 * LOCK: TYPE,OFFSET,LENGTH,new[,SID][,lock_owner=NAME][,open_seqid=N]
 * [,lock_seqid=N] (a new lock owner from the open stateid SID, default
 * last) or TYPE,OFFSET,LENGTH,exist[,SID][,lock_seqid=N] (the lock
 * stateid SID, default last); [,reclaim] either way. The seqids are 0
 * unless given (4.1 ignores them; 4.0 checks them, RFC 7530 9.1.7).
 */
static void
lock_args(struct words *w, LOCK4args *a)
{
	const char *s, *v, *owner = DEFAULT_LOCK_OWNER, *how;
	seqid4 open_seqid = 0, lock_seqid = 0;
	stateid4 sid;
	int is_new, have_sid = 0;

	lock_range_args(w, &a->locktype, &a->offset, &a->length);
	how = word_req(w, "new or exist");
	is_new = strcmp(how, "new") == 0;
	if (!is_new && strcmp(how, "exist") != 0)
		rr_die_usage("%s: new or exist, not '%s'", w->op, how);
	while ((s = word_opt(w)) != NULL) {
		if (is_new && keyword(s, "lock_owner", &v))
			owner = v;
		else if (is_new && seqid_word(s, "open_seqid", &open_seqid))
			continue;
		else if (seqid_word(s, "lock_seqid", &lock_seqid))
			continue;
		else if (strcmp(s, "reclaim") == 0)
			a->reclaim = TRUE;
		else if (!have_sid && sid_word(s, &sid))
			have_sid = 1;
		else
			rr_die_usage("%s: what is '%s'?", w->op, s);
	}
	if (!have_sid)
		sid_arg("last", &sid);
	if (is_new) {
		open_to_lock_owner4 *o = &a->locker.locker4_u.open_owner;

		a->locker.new_lock_owner = TRUE;
		o->open_seqid = open_seqid;
		o->open_stateid = sid;
		o->lock_seqid = lock_seqid;
		o->lock_owner.clientid = st.clientid;
		bytes_arg(owner, &o->lock_owner.owner.owner_val, &o->lock_owner.owner.owner_len);
	} else {
		a->locker.new_lock_owner = FALSE;
		a->locker.locker4_u.lock_owner.lock_stateid = sid;
		a->locker.locker4_u.lock_owner.lock_seqid = lock_seqid;
	}
}

/* LOCKT: TYPE,OFFSET,LENGTH[,lock_owner=NAME] */
static void
lockt_args(struct words *w, LOCKT4args *a)
{
	const char *s, *v, *owner = DEFAULT_LOCK_OWNER;

	lock_range_args(w, &a->locktype, &a->offset, &a->length);
	while ((s = word_opt(w)) != NULL) {
		if (!keyword(s, "lock_owner", &v))
			rr_die_usage("%s: what is '%s'?", w->op, s);
		owner = v;
	}
	a->owner.clientid = st.clientid;
	bytes_arg(owner, &a->owner.owner.owner_val, &a->owner.owner.owner_len);
}

/* COPY: SRC_OFFSET,DST_OFFSET,COUNT[,SRC_SID[,DST_SID]] (after SAVEFH of the source; SIDs anon) */
static void
copy_args(struct words *w, COPY4args *a)
{
	a->ca_src_offset = rr_parse_num(word_req(w, "source offset"), "source offset");
	a->ca_dst_offset = rr_parse_num(word_req(w, "destination offset"), "destination offset");
	a->ca_count = rr_parse_num(word_req(w, "count"), "count");
	sid_opt(w, &a->ca_src_stateid, "anon");
	sid_opt(w, &a->ca_dst_stateid, "anon");
	a->ca_synchronous = TRUE;
	a->ca_consecutive = TRUE;
}

/*
 * SETCLIENTID (4.0): [VERIFIER,IDSTRING[,CBPROG[,NETID[,UADDR]]]][,ident=N];
 * defaults DEFAULT_VERIFIER, nfs4probe, 0x40000000, tcp, 127.0.0.1.0.0, 1.
 */
static void
setclientid_args(struct words *w, SETCLIENTID4args *a)
{
	const char *s, *v, *verf = DEFAULT_VERIFIER, *id = "nfs4probe";
	int k = 0;

	if (w->n) {
		verf = word_req(w, "verifier");
		id = word_req(w, "id string");
	}
	parse_fixed_hex(verf, a->client.verifier, NFS4_VERIFIER_SIZE, "a verifier");
	bytes_arg(id, &a->client.id.id_val, &a->client.id.id_len);
	a->callback.cb_program = 0x40000000;
	a->callback.cb_location.na_r_netid = scratch_str("tcp", 3);
	a->callback.cb_location.na_r_addr = scratch_str("127.0.0.1.0.0", 13);
	a->callback_ident = 1;
	while ((s = word_opt(w)) != NULL) {
		if (keyword(s, "ident", &v))
			a->callback_ident = (uint32_t)rr_parse_num(v, "callback_ident");
		else if (k == 0 && ++k)
			a->callback.cb_program = (uint32_t)rr_parse_num(s, "callback program");
		else if (k == 1 && ++k)
			a->callback.cb_location.na_r_netid = scratch_str(s, strlen(s));
		else if (k == 2 && ++k)
			a->callback.cb_location.na_r_addr = scratch_str(s, strlen(s));
		else
			rr_die_usage("%s: what is '%s'?", w->op, s);
	}
}

/* SETCLIENTID_CONFIRM (4.0): [CLIENTID|-[,VERIFIER|-]]; - or nothing: SETCLIENTID's */
static void
setclientid_confirm_args(struct words *w, SETCLIENTID_CONFIRM4args *a)
{
	const char *s;

	a->clientid = st.clientid;
	memcpy(a->setclientid_confirm, st.confirm, NFS4_VERIFIER_SIZE);
	if ((s = word_opt(w)) != NULL && *s && strcmp(s, "-") != 0)
		a->clientid = clientid_arg(s);
	if ((s = word_opt(w)) != NULL && *s && strcmp(s, "-") != 0)
		parse_fixed_hex(s, a->setclientid_confirm, NFS4_VERIFIER_SIZE, "a confirm verifier");
}

/* The arguments of op (an operation that is not a session one) from its words. */
static void
file_op_args(nfs_argop4 *o, struct words *w, struct op_note *note, open_claim_type4 claim)
{
	__typeof__(o->nfs_argop4_u) *u = &o->nfs_argop4_u;
	const char *s;

	switch (o->argop) {
	case OP_PUTFH:
		fh_arg(word_req(w, "filehandle"), &u->opputfh.object);
		break;
	case OP_LOOKUP:
		if (w->n)
			utf8_arg(word_req(w, "name"), &u->oplookup.objname);
		break;
	case OP_GETFH:
		if ((s = word_opt(w)) != NULL)
			note->fhname = s[0] == '@' ? s + 1 : s;
		break;
	case OP_GETATTR:
		getattr_args(w, &u->opgetattr.attr_request);
		break;
	case OP_ACCESS:
		u->opaccess.access = 0x3f;
		if ((s = word_opt(w)) != NULL)
			u->opaccess.access = (uint32_t)rr_parse_num(s, "access bits");
		break;
	case OP_READDIR:
		readdir_args(w, &u->opreaddir);
		break;
	case OP_OPEN:
		open_args(w, &u->opopen, claim);
		break;
	case OP_OPEN_CONFIRM:
		sid_arg(word_req(w, "stateid"), &u->opopen_confirm.open_stateid);
		s = word_req(w, "seqid");
		if (!seqid_word(s, "seqid", &u->opopen_confirm.seqid))
			u->opopen_confirm.seqid = (seqid4)rr_parse_num(s, "seqid");
		break;
	case OP_OPEN_DOWNGRADE:
		u->opopen_downgrade.share_access = named_arg(share_access, NELEM(share_access),
		    word_req(w, "access"), "share access");
		u->opopen_downgrade.share_deny = named_arg(share_deny, NELEM(share_deny),
		    word_req(w, "deny"), "share deny");
		sid_seqid_args(w, &u->opopen_downgrade.open_stateid, &u->opopen_downgrade.seqid);
		break;
	case OP_CLOSE:
		sid_seqid_args(w, &u->opclose.open_stateid, &u->opclose.seqid);
		break;
	case OP_SETCLIENTID:
		setclientid_args(w, &u->opsetclientid);
		break;
	case OP_SETCLIENTID_CONFIRM:
		setclientid_confirm_args(w, &u->opsetclientid_confirm);
		break;
	case OP_RENEW:
		s = word_opt(w);
		u->oprenew.clientid = s ? clientid_arg(s) : st.clientid;
		break;
	case OP_RELEASE_LOCKOWNER:
		s = word_opt(w);
		u->oprelease_lockowner.lock_owner.clientid = st.clientid;
		bytes_arg(s ? s : DEFAULT_LOCK_OWNER, &u->oprelease_lockowner.lock_owner.owner.owner_val,
		    &u->oprelease_lockowner.lock_owner.owner.owner_len);
		break;
	case OP_FREE_STATEID:
		sid_opt(w, &u->opfree_stateid.fsa_stateid, NULL);
		break;
	case OP_TEST_STATEID:
		test_stateid_args(w, &u->optest_stateid);
		break;
	case OP_LOCK:
		lock_args(w, &u->oplock);
		break;
	case OP_LOCKT:
		lockt_args(w, &u->oplockt);
		break;
	case OP_LOCKU:
		lock_range_args(w, &u->oplocku.locktype, &u->oplocku.offset, &u->oplocku.length);
		sid_seqid_args(w, &u->oplocku.lock_stateid, &u->oplocku.seqid);
		break;
	case OP_ALLOCATE:
		u->opallocate.aa_offset = rr_parse_num(word_req(w, "offset"), "offset");
		u->opallocate.aa_length = length_arg(word_req(w, "length"));
		sid_opt(w, &u->opallocate.aa_stateid, "anon");
		break;
	case OP_DEALLOCATE:
		u->opdeallocate.da_offset = rr_parse_num(word_req(w, "offset"), "offset");
		u->opdeallocate.da_length = length_arg(word_req(w, "length"));
		sid_opt(w, &u->opdeallocate.da_stateid, "anon");
		break;
	case OP_COPY:
		copy_args(w, &u->opcopy);
		break;
	case OP_READ:
		if (w->n) {
			u->opread.offset = rr_parse_num(word_req(w, "offset"), "offset");
			u->opread.count = (count4)rr_parse_num(word_req(w, "count"), "count");
		}
		sid_opt(w, &u->opread.stateid, "anon");
		break;
	case OP_READ_PLUS:
		if (w->n) {
			u->opread_plus.rpa_offset = rr_parse_num(word_req(w, "offset"), "offset");
			u->opread_plus.rpa_count = (count4)rr_parse_num(word_req(w, "count"), "count");
		}
		sid_opt(w, &u->opread_plus.rpa_stateid, "anon");
		break;
	case OP_GETXATTR:
		utf8_arg(word_req(w, "name"), &u->opgetxattr.gxa_name);
		break;
	case OP_SETXATTR:
		s = word_req(w, "how");
		u->opsetxattr.sxa_option = strcmp(s, "either") == 0 ? SETXATTR4_EITHER :
		    strcmp(s, "create") == 0 ? SETXATTR4_CREATE :
		    strcmp(s, "replace") == 0 ? SETXATTR4_REPLACE :
		    (setxattr_option4)rr_parse_num(s, "how");
		utf8_arg(word_req(w, "name"), &u->opsetxattr.sxa_key);
		bytes_arg(word_req(w, "value"), &u->opsetxattr.sxa_value.xattrvalue4_val,
		    &u->opsetxattr.sxa_value.xattrvalue4_len);
		break;
	case OP_LISTXATTRS:
		u->oplistxattrs.lxa_cookie = rr_parse_num(word_req(w, "cookie"), "cookie");
		u->oplistxattrs.lxa_maxcount = (count4)rr_parse_num(word_req(w, "maxcount"), "maxcount");
		break;
	case OP_REMOVEXATTR:
		utf8_arg(word_req(w, "name"), &u->opremovexattr.rxa_name);
		break;
	case OP_SEEK:
		u->opseek.sa_offset = rr_parse_num(word_req(w, "offset"), "offset");
		s = word_req(w, "what");
		u->opseek.sa_what = strcmp(s, "data") == 0 ? NFS4_CONTENT_DATA :
		    strcmp(s, "hole") == 0 ? NFS4_CONTENT_HOLE :
		    (data_content4)rr_parse_num(s, "what");
		sid_opt(w, &u->opseek.sa_stateid, "anon");
		break;
	case OP_WRITE:
		write_args(w, &u->opwrite);
		break;
	case OP_COMMIT:
		if (w->n) {
			u->opcommit.offset = rr_parse_num(word_req(w, "offset"), "offset");
			u->opcommit.count = (count4)rr_parse_num(word_req(w, "count"), "count");
		}
		break;
	case OP_SETATTR:
		fattr_args(w, &u->opsetattr.obj_attributes, &u->opsetattr.stateid);
		break;
	case OP_VERIFY:
		fattr_args(w, &u->opverify.obj_attributes, NULL);
		break;
	case OP_NVERIFY:
		fattr_args(w, &u->opnverify.obj_attributes, NULL);
		break;
	case OP_CREATE:
		create_op_args(w, &u->opcreate);
		break;
	case OP_REMOVE:
		utf8_arg(word_req(w, "name"), &u->opremove.target);
		break;
	case OP_RENAME:
		utf8_arg(word_req(w, "old name"), &u->oprename.oldname);
		utf8_arg(word_req(w, "new name"), &u->oprename.newname);
		break;
	case OP_LINK:
		utf8_arg(word_req(w, "name"), &u->oplink.newname);
		break;
	case OP_SECINFO:
		utf8_arg(word_req(w, "name"), &u->opsecinfo.name);
		break;
	case OP_RECLAIM_COMPLETE:
		s = word_req(w, "scope");
		u->opreclaim_complete.rca_one_fs = strcmp(s, "one_fs") == 0 ? TRUE :
		    strcmp(s, "all") == 0 ? FALSE : (bool_t)rr_parse_num(s, "rca_one_fs");
		break;
	case OP_SECINFO_NO_NAME:
		s = word_req(w, "style");
		u->opsecinfo_no_name = strcmp(s, "parent") == 0 ? SECINFO_STYLE4_PARENT :
		    strcmp(s, "current") == 0 ? SECINFO_STYLE4_CURRENT_FH :
		    (secinfo_style4)rr_parse_num(s, "style");
		break;
	default:
		if (w->n)
			rr_die_usage("%s: the probe sends no arguments for it", w->op);
		break;
	}
	words_end(w);
}

/* Operations whose bare name (no ":") takes defaults of their own, not zeros (op_help). */
static int
has_defaults(uint32_t op)
{
	switch (op) {
	case OP_ACCESS: case OP_READDIR: case OP_CLOSE: case OP_FREE_STATEID:
	case OP_TEST_STATEID: case OP_READ: case OP_READ_PLUS: case OP_WRITE:
	case OP_SETCLIENTID: case OP_SETCLIENTID_CONFIRM: case OP_RENEW: case OP_RELEASE_LOCKOWNER:
		return 1;
	}
	return 0;
}

/*
 * One operation of a sequence or compound command: NAME or NAME:ARGS.
 * A bare name takes the session operations' arguments from the probe's
 * state, has_defaults()'s their defaults, and any other zeroed arguments
 * (which rpcgen encodes for every operation of the session tests).
 */
static void
add_op(struct compound *c, const char *word)
{
	const char *colon = strchr(word, ':');
	char *name = scratch_str(word, colon ? (size_t)(colon - word) : strlen(word));
	open_claim_type4 claim = strcasecmp(name, "OPEN_FH") == 0 ? CLAIM_FH :
	    strcasecmp(name, "OPEN_PREV") == 0 ? CLAIM_PREVIOUS : CLAIM_NULL;
	uint32_t op = claim != CLAIM_NULL ? OP_OPEN : op_parse(name);
	unsigned i = c->a.argarray.argarray_len;
	nfs_argop4 *o = compound_add(c, op);
	struct words w;

	words_split(&w, name, colon ? colon + 1 : NULL);
	switch (op) {
	case OP_SEQUENCE: case OP_EXCHANGE_ID: case OP_CREATE_SESSION: case OP_DESTROY_SESSION:
	case OP_DESTROY_CLIENTID: case OP_BIND_CONN_TO_SESSION:
		if (colon)
			rr_die_usage("%s takes its arguments from the probe's state", name);
		session_op_args(o);
		return;
	}
	if (colon || claim != CLAIM_NULL || has_defaults(op))
		file_op_args(o, &w, &c->notes[i], claim);
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
	st.clientid = clientid_arg(av[0]);
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
	slots_reset();
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
	return run_compound(&c, NULL);
}

/* [SLOTS MAXOPS CACHE FLAGS SEQ MAXREQ MAXRESP], each optional in this order */
static int
cmd_create_session(char **av)
{
	struct session_ask s = { 8, 16, 4096, 0, 0, MAXREQ, MAXRESP, 4096, 2 };
	uint32_t *field[] = { &s.slots, &s.maxops, &s.cache, &s.flags, &s.seq, &s.maxreq, &s.maxresp,
	    &s.backreq, &s.backops };
	struct compound c;

	need_clientid();
	s.seq = st.cs_seq;
	for (int i = 0; av[i]; i++)
		*field[i] = (uint32_t)rr_parse_num(av[i], "CREATE_SESSION argument");
	compound_init(&c, opt.minor);
	create_args(&compound_add(&c, OP_CREATE_SESSION)->nfs_argop4_u.opcreate_session, &s);
	return run_compound(&c, NULL);
}

/* SLOT SEQID|next [cachethis|nocache] [OP[:ARGS]...] */
static int
cmd_sequence(char **av)
{
	struct compound c;
	int cachethis = 0, i = 2;
	uint32_t slot;

	need_session();
	if (av[2] && (strcmp(av[2], "cachethis") == 0 || strcmp(av[2], "nocache") == 0)) {
		cachethis = strcmp(av[2], "cachethis") == 0;
		i++;
	}
	compound_init(&c, opt.minor);
	slot = (uint32_t)rr_parse_num(av[0], "slot");
	sequence_args(&compound_add(&c, OP_SEQUENCE)->nfs_argop4_u.opsequence, slot,
	    seqid_arg(slot, av[1]), cachethis);
	for (; av[i]; i++)
		add_op(&c, av[i]);
	return run_compound(&c, NULL);
}

/* MINOR OP[:ARGS]...: the operations as named, no SEQUENCE added */
static int
cmd_compound(char **av)
{
	struct compound c;

	compound_init(&c, (uint32_t)rr_parse_num(av[0], "minor version"));
	for (int i = 1; av[i]; i++)
		add_op(&c, av[i]);
	return run_compound(&c, NULL);
}

/*
 * MINOR OP...: one COMPOUND sent twice on this connection with the same
 * XID, as a client retransmits (RFC 5531 9, RFC 7530 3.1), the second
 * after the first's reply. Laid out here (the call header by rpcraw.h,
 * the arguments by rpcgen) and written to the cached client's socket,
 * since libtirpc gives every call an XID of its own. Prints, for each,
 * "send=N xid=XID" and the reply as compound prints it, then
 * same_reply=1 when the two COMPOUND4res are the same bytes.
 */
static int
cmd_dup(char **av)
{
	struct compound c;
	struct rr_enc call = { 0 }, rep[2];
	struct rr_rbuf rb = { 0 };
	struct rr_cred cred;
	gid_t gids[1] = { rr.gid };
	COMPOUND4res res;
	int fd = -1, rc = 0, n = 0;
	uint32_t xid;
	u_int argslen;
	char *args;
	XDR x;

	if (rr_is_udp())
		rr_die_usage("dup is for TCP");
	compound_init(&c, (uint32_t)rr_parse_num(av[0], "minor version"));
	for (int i = 1; av[i]; i++)
		add_op(&c, av[i]);
	argslen = (u_int)xdr_sizeof(RR_XDRP(xdr_COMPOUND4args), &c.a);
	args = rr_xmalloc(argslen);
	xdrmem_create(&x, args, argslen, XDR_ENCODE);
	if (!xdr_COMPOUND4args(&x, &c.a))
		rr_die("dup: cannot encode the compound");
	xdr_destroy(&x);
	if (!clnt_control(rr_client(NFS4_PROGRAM, NFS_V4, 0), CLGET_FD, (char *)&fd) || fd < 0)
		rr_die("dup: no socket");
	xid = ((uint32_t)getpid() << 16) ^ (uint32_t)(rr_now() * 1000) ^ 0xd0000000u;
	rr_enc_u32(&call, 0);			/* the record mark, below */
	if (!rr.auth_none)
		rr_auth_sys(&cred, rr.machname, rr.uid, rr.gid, 1, gids);
	rr_enc_callhdr(&call, xid, NFS4_PROGRAM, NFS_V4, NFSPROC4_COMPOUND,
	    rr.auth_none ? NULL : &cred.auth);
	rr_enc_bytes(&call, args, argslen);
	rr_put32(call.buf, RR_LAST_FRAG | (call.len - 4));
	for (; n < 2; n++) {
		double deadline = rr_now() + rr.timeout;
		const uint8_t *body = NULL;
		size_t blen = 0;
		uint32_t rxid = 0;
		int got;

		if (rr_send_all(fd, call.buf, call.len, deadline) < 0 ||
		    rr_read_record(fd, &rb, 1u << 24, deadline) <= 0) {
			printf("send=%d rpc=CANTRECV (no reply)\n", n + 1);
			rc = 1;
			break;
		}
		got = rr_parse_reply(rb.p, rb.len, &rxid, &body, &blen);
		if (got != 0 || rxid != xid) {
			printf("send=%d rpc=BAD_REPLY (%d) xid=%08x\n", n + 1, got, rxid);
			rc = 1;
			break;
		}
		rep[n].buf = rr_xmalloc(blen ? blen : 1);
		memcpy(rep[n].buf, body, blen);
		rep[n].len = rep[n].cap = (u_int)blen;
		rep[n].fixed = 0;
		memset(&res, 0, sizeof(res));
		printf("send=%d xid=%08x ", n + 1, xid);
		if (!decode_compound(&rep[n], &res))
			rc = 1;
		else
			print_reply(&rep[n], &res, &c);
		xdr_free(RR_XDRP(xdr_COMPOUND4res), (char *)&res);
		if (rc) {
			free(rep[n].buf);
			break;
		}
	}
	if (n == 2) {
		printf("same_reply=%d\n", rep[0].len == rep[1].len &&
		    memcmp(rep[0].buf, rep[1].buf, rep[0].len) == 0);
		free(rep[1].buf);
	}
	if (n >= 1)
		free(rep[0].buf);
	free(rb.p);
	free(call.buf);
	free(args);
	scratch_free();
	return rc;
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
	return run_compound(&c, NULL);
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
	return run_compound(&c, NULL);
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
	return run_compound(&c, NULL);
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
			struct session_ask s = { 64, 16, 4096, 0, ok->eir_sequenceid, MAXREQ, MAXRESP, 4096, 2 };
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

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* How many different names among n (sorted in place). */
static size_t
distinct(char **names, size_t n)
{
	size_t d = 0;

	if (n == 0)
		return 0;
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(names[i], names[i - 1]) != 0)
			d++;
	return d;
}

/*
 * SLOT FH MAXCOUNT [ATTR,...]: a whole directory by READDIRs of at most
 * MAXCOUNT bytes, each after SEQUENCE (the slot's next sequence id) and
 * PUTFH, from cookie 0 on with the cookie and verifier of the last reply,
 * until eof or an error. A line name= cookie= per entry, then the counts.
 */
static int
cmd_readdir_all(char **av)
{
	uint32_t slot = (uint32_t)rr_parse_num(av[0], "slot");
	count4 maxcount = (count4)rr_parse_num(av[2], "maxcount");
	nfs_cookie4 cookie = 0;
	verifier4 verf = { 0 };
	char **names = NULL;
	size_t n = 0, cap = 0;
	unsigned long calls = 0;
	nfsstat4 last = NFS4_OK;
	int eof = 0, rc = 0, saved_quiet = rr.quiet;

	need_session();
	rr.quiet = 1;
	while (!eof && rc == 0 && calls < 1000000) {
		struct compound c;
		struct rr_enc rep;
		COMPOUND4res res;
		READDIR4args *a;
		struct words w;
		const READDIR4resok *ok;
		const entry4 *e;
		size_t before = n;

		compound_init(&c, opt.minor);
		sequence_args(&compound_add(&c, OP_SEQUENCE)->nfs_argop4_u.opsequence, slot,
		    seqid_arg(slot, "next"), 0);
		fh_arg(av[1], &compound_add(&c, OP_PUTFH)->nfs_argop4_u.opputfh.object);
		a = &compound_add(&c, OP_READDIR)->nfs_argop4_u.opreaddir;
		words_split(&w, "readdir_all", av[3]);
		getattr_args(&w, &a->attr_request);
		a->cookie = cookie;
		memcpy(a->cookieverf, verf, NFS4_VERIFIER_SIZE);
		a->maxcount = maxcount;
		calls++;
		if (!call_compound(&c.a, NULL, &rep, &res)) {
			rc = 1;
		} else if (res.resarray.resarray_len > 0 &&
		    res_status(&res.resarray.resarray_val[0]) == NFS4_OK) {
			note_sequence(&res.resarray.resarray_val[0].nfs_resop4_u.opsequence.
			    SEQUENCE4res_u.sr_resok4);
		}
		if (rc == 0 && (last = res.status) == NFS4_OK && res.resarray.resarray_len == 3) {
			ok = &res.resarray.resarray_val[2].nfs_resop4_u.opreaddir.READDIR4res_u.resok4;
			for (e = ok->reply.entries; e; e = e->nextentry) {
				if (n == cap) {
					cap = cap ? 2 * cap : 1024;
					if ((names = realloc(names, cap * sizeof(*names))) == NULL)
						rr_die("out of memory");
				}
				names[n] = rr_xmalloc(e->name.utf8string_len + 1);
				memcpy(names[n], e->name.utf8string_val, e->name.utf8string_len);
				names[n][e->name.utf8string_len] = '\0';
				printf("name=%s cookie=%llu\n", names[n++], (unsigned long long)e->cookie);
				cookie = e->cookie;
			}
			memcpy(verf, ok->cookieverf, NFS4_VERIFIER_SIZE);
			eof = ok->reply.eof;
		}
		free_reply(&rep, &res);
		scratch_free();
		if (rc || last != NFS4_OK || (!eof && n == before))
			break;		/* an error, or no progress */
	}
	rr.quiet = saved_quiet;
	printf("readdir_calls=%lu entries=%zu distinct=%zu eof=%d rd_status=%s\n", calls, n,
	    distinct(names, n), eof, stat_name(last));
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
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
	{ "create_session", 0, 9, cmd_create_session, "[SLOTS MAXOPS CACHE FLAGS SEQ REQ RESP BREQ BOPS]",
	  "CREATE_SESSION alone; defaults 8 16 4096 0 next 1049620 1049480 4096 2" },
	{ "sequence", 2, 300, cmd_sequence, "SLOT SEQID|next [cachethis|nocache] [OP...]",
	  "SEQUENCE, then the OPs (next: the slot's next sequence id)" },
	{ "compound", 1, 300, cmd_compound, "MINOR OP...", "the OPs as named (no SEQUENCE added)" },
	{ "dup", 1, 300, cmd_dup, "MINOR OP...",
	  "compound sent twice with one XID: both replies, same_reply=" },
	{ "readdir_all", 3, 4, cmd_readdir_all, "SLOT FH MAXCOUNT [ATTR,...]",
	  "READDIR to eof: name= lines and the counts" },
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

/* The operations' arguments, for --help: what add_op() and file_op_args() take. */
static const char op_help[] =
    "OP: NAME or NAME:ARG,ARG,... (OP_NAME, NAME or a number, any case). Without ':'\n"
    "the session operations take the probe's client id and session, the others\n"
    "zeroed arguments, except for the defaults said below.\n"
    "  PUTFH:FH  PUTROOTFH  PUTPUBFH  GETFH[:NAME] (keeps it as @NAME; @last always)\n"
    "  LOOKUP:NAME  LOOKUPP  SAVEFH  RESTOREFH  READLINK\n"
    "  GETATTR:ATTR,...          names (type,size,fileid,mode,owner,fsid,...), numbers, all\n"
    "  ACCESS[:BITS]             default 0x3f\n"
    "  READDIR[:COOKIE,MAXCOUNT[,ATTR...][,dircount=N][,verf=HEX]]\n"
    "                            COOKIE a number or last (the last reply's); default 0,8192\n"
    "  OPEN:NAME,ACCESS,DENY[,unchecked|guarded|exclusive|exclusive4_1|nocreate]\n"
    "       [,verf=HEX][,open_owner=NAME][,seqid=N][,ATTR=VALUE...]\n"
    "                            ACCESS read|write|both|N, DENY none|read|write|both|N;\n"
    "                            verf default " DEFAULT_VERIFIER ", open_owner " DEFAULT_OPEN_OWNER "\n"
    "  OPEN_FH:ACCESS,DENY[,open_owner=NAME][,seqid=N]  OPEN by CLAIM_FH of the current filehandle\n"
    "  OPEN_PREV:ACCESS,DENY[,open_owner=NAME][,seqid=N]  OPEN by CLAIM_PREVIOUS (a reclaim) of it\n"
    "  OPEN_DOWNGRADE:ACCESS,DENY[,SID][,seqid=N]   CLOSE[:SID][,seqid=N]\n"
    "  FREE_STATEID[:SID]        (SID default last; seqid= default 0)\n"
    "  TEST_STATEID[:SID,...]    default last\n"
    "  LOCK:TYPE,OFFSET,LENGTH,new[,SID][,lock_owner=NAME][,open_seqid=N][,lock_seqid=N]\n"
    "                            a new lock owner, SID the open's\n"
    "  LOCK:TYPE,OFFSET,LENGTH,exist[,SID][,lock_seqid=N]   either LOCK [,reclaim]\n"
    "  LOCKU:TYPE,OFFSET,LENGTH[,SID][,seqid=N]   (SID default last, seqids default 0)\n"
    "  LOCKT:TYPE,OFFSET,LENGTH[,lock_owner=NAME]\n"
    "                            TYPE read|write|readw|writew, LENGTH N or max;\n"
    "                            lock_owner default nfs4probe-lock-owner\n"
    "  READ[:OFFSET,COUNT[,SID]] SID default anon\n"
    "  READ_PLUS[:OFFSET,COUNT[,SID]]  SEEK:OFFSET,data|hole|N[,SID]   (4.2; SID default anon)\n"
    "  ALLOCATE:OFFSET,LENGTH[,SID]  DEALLOCATE:OFFSET,LENGTH[,SID]   (4.2; SID default anon)\n"
    "  GETXATTR:NAME  SETXATTR:either|create|replace,NAME,VALUE  LISTXATTRS:COOKIE,MAXCOUNT\n"
    "  REMOVEXATTR:NAME   (4.2, RFC 8276: NAME without user.; VALUE as data)\n"
    "  COPY:SRC_OFFSET,DST_OFFSET,COUNT[,SRC_SID[,DST_SID]]  (4.2, after SAVEFH of the source;\n"
    "                            synchronous, SIDs default anon)\n"
    "  WRITE[:OFFSET,DATA[,unstable|datasync|filesync][,SID]]   default filesync, anon\n"
    "  COMMIT[:OFFSET,COUNT]\n"
    "  SETATTR:ATTR=VALUE,...[,SID]       SID default anon\n"
    "  VERIFY:ATTR=VALUE,...  NVERIFY:ATTR=VALUE,...\n"
    "  CREATE:TYPE,NAME[,TARGET|MAJOR.MINOR][,ATTR=VALUE...]\n"
    "                            TYPE dir|symlink|fifo|sock|blk|chr|reg|NF4...|N\n"
    "  REMOVE:NAME  RENAME:OLD,NEW (after SAVEFH)  LINK:NAME (after SAVEFH)\n"
    "  SECINFO:NAME  SECINFO_NO_NAME:current|parent|N\n"
    "  RECLAIM_COMPLETE[:one_fs|all|N]   rca_one_fs (bare: FALSE)\n"
    "NFSv4.0's own (RFC 7530; in compound 0 or dup 0):\n"
    "  SETCLIENTID[:VERIFIER,IDSTRING[,CBPROG[,NETID[,UADDR]]][,ident=N]]\n"
    "                            defaults " DEFAULT_VERIFIER ",nfs4probe,0x40000000,tcp,\n"
    "                            127.0.0.1.0.0, ident 1; keeps clientid and confirm\n"
    "  SETCLIENTID_CONFIRM[:CLIENTID|-[,VERIFIER|-]]   default (-) the kept ones\n"
    "  RENEW[:CLIENTID]          default the kept one (CLIENTID: 16 hex digits or a number)\n"
    "  OPEN_CONFIRM:SID,SEQID    RELEASE_LOCKOWNER[:OWNER]  (default nfs4probe-lock-owner)\n"
    "FH: HEX or @NAME. SID: last, prev, #N (N-th OPEN/OPEN_CONFIRM/OPEN_DOWNGRADE/LOCK/LOCKU\n"
    "stateid of this process), current, anon, bypass, invalid, or 32 hex digits (seqid,\n"
    "other).\n"
    "NAME, DATA, TARGET, open_owner and string attributes: text, hex:HEX or pat:N\n"
    "(N bytes a-z...).\n"
    "ATTR=VALUE: size=N mode=0600 owner=S owner_group=S type=NF4REG fileid=N\n"
    "fsid=A.B time_modify_set=server|S[.N] rdattr_error=N ... (values as printed).\n"
    "last/@NAME/next name what earlier compounds of this process returned.\n";

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
	    "commands:\n");
	rr_usage_commands(f, commands, NELEM(commands), 16, 40);
	fputs(op_help, f);
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
