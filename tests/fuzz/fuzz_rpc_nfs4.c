/*
 * fuzz_rpc's NFSv4 part: a client with a confirmed session that every
 * NFSv4 input meets, the markers that put its session id and clientid
 * into an input, and the v4 seeds.
 *
 * Without a session an input gets no further than SEQUENCE's BADSESSION,
 * and the fuzzer would never guess a 16-byte session id. So the state
 * layer is reset after every NFSv4 call and the fixture made again, the
 * same each time (only the session id's random part differs, and the
 * marker hides it): slot 0 of the session expects sequence id 1, the
 * client's next CREATE_SESSION sequence is 2.
 *
 * NFSv4.0 compounds (v40_seeds) need no session; they name the same
 * client by its clientid marker (RENEW and OPEN accept any confirmed
 * client), and carry owners' seqids.
 *
 * The seeds of the file operations are compounds after SEQUENCE on that
 * slot, on the scratch tree's objects by their handle markers (fh3m).
 * Stateids cannot be written into an input either: a seed's READ,
 * WRITE, CLOSE... after its OPEN use the current stateid (seqid 1, other
 * all zeros; RFC 8881 16.2.3.1.2), and its SETATTR of a size uses the
 * anonymous one (all zeros). New seeds go at the end of n4fx_seeds: the
 * XIDs are counted, and the checked-in seeds must come out byte for byte
 * again.
 */
#include "config.h"

#include <string.h>

#include "fuzz_rpc.h"
#include "rpc/nfs4_prot.h"
#include "state/nfs4_clients.h"

static uint8_t fx_session[N4_SESSIONID_SIZE];
static uint64_t fx_clientid;

static const uint8_t mark_session[4] = { 0xff, 'F', 'Z', 'S' };	/* + 12 bytes */
static const uint8_t mark_clientid[4] = { 0xff, 'F', 'Z', 'I' };	/* + 4 bytes */

/*
 * The client's RECLAIM_COMPLETE, on the last slot (slot 0 stays the
 * inputs'): without it every OPEN is GRACE (RFC 8881 18.51.3) and the
 * fuzzer would not get into the open code.
 */
static void
fx_reclaim_complete(void)
{
	static uint8_t cache[N4_SLOT_CACHE_MAX];
	struct n4_sequence_in sq = { .sequenceid = 1, .slotid = 7, .highest_slotid = 7, .nops = 2,
	    .reqlen = 128 };
	struct n4_sequence_out so;
	struct n4_slot_ref ref = { 0 };
	size_t len = 0;
	enum n4_result r;

	memcpy(sq.sessionid, fx_session, N4_SESSIONID_SIZE);
	if ((r = n4_sequence(&sq, &so, &ref, cache, &len)) != N4_OK)
		die("the NFSv4 fixture: SEQUENCE gave %d", (int)r);
	if ((r = n4_reclaim_complete(&ref)) != N4_OK)
		die("the NFSv4 fixture: RECLAIM_COMPLETE gave %d", (int)r);
	n4_slot_done(&ref, NULL, 0);
}

void
n4fx_build(void)
{
	static const char owner[] = "fuzz-v4-owner";
	struct n4_exchange_in ex = { owner, sizeof(owner) - 1, "fuzzverf", { AUTH_SYS, 0, 0, 0 }, 0 };
	struct n4_exchange_out exo;
	struct n4_create_in cs;
	struct n4_create_out cso;
	enum n4_result r;

	n4_clients_reset();
	if ((r = n4_exchange_id(&ex, &exo)) != N4_OK)
		die("the NFSv4 fixture: EXCHANGE_ID gave %d", (int)r);
	memset(&cs, 0, sizeof(cs));
	cs.clientid = exo.clientid;
	cs.sequence = exo.sequenceid;
	cs.who = ex.who;
	cs.fore = (struct n4_channel){ 1 << 20, 1 << 20, 4096, 16, 8 };
	cs.back = (struct n4_channel){ 4096, 4096, 0, 2, 1 };
	if ((r = n4_create_session(&cs, &cso)) != N4_OK)
		die("the NFSv4 fixture: CREATE_SESSION gave %d", (int)r);
	fx_clientid = exo.clientid;
	memcpy(fx_session, cso.sessionid, sizeof(fx_session));
	fx_reclaim_complete();
}

size_t
n4fx_expand(const uint8_t *in, size_t n, uint8_t *out, size_t *outlen)
{
	if (n >= N4_SESSIONID_SIZE && memcmp(in, mark_session, 4) == 0) {
		memcpy(out, fx_session, N4_SESSIONID_SIZE);
		*outlen = N4_SESSIONID_SIZE;
		return N4_SESSIONID_SIZE;
	}
	if (n >= 8 && memcmp(in, mark_clientid, 4) == 0) {
		rr_put64(out, fx_clientid);
		*outlen = 8;
		return 8;
	}
	return 0;
}

/* ---- seeds ---- */

static void
session_marker(struct msg *m)
{
	uint8_t mk[N4_SESSIONID_SIZE] = { 0xff, 'F', 'Z', 'S' };

	rr_enc_fixed(&m->e, mk, sizeof(mk));
}

static void
clientid_marker(struct msg *m)
{
	uint8_t mk[8] = { 0xff, 'F', 'Z', 'I' };

	rr_enc_fixed(&m->e, mk, sizeof(mk));
}

/* COMPOUND's header: tag, minor version, number of operations. */
static void
compound(struct msg *m, uint32_t minor, uint32_t nops)
{
	begin(m, NFS4_PROGRAM, NFS_V4, NFSPROC4_COMPOUND, 1);
	rr_enc_string(&m->e, "fuzz");
	rr_enc_u32(&m->e, minor);
	rr_enc_u32(&m->e, nops);
}

/* SEQUENCE on the fixture's slot, with the sequence id it expects. */
static void
op_sequence(struct msg *m, uint32_t seqid, int cachethis)
{
	rr_enc_u32(&m->e, OP_SEQUENCE);
	session_marker(m);
	rr_enc_u32(&m->e, seqid);
	rr_enc_u32(&m->e, 0);		/* slot */
	rr_enc_u32(&m->e, 0);		/* highest slot */
	rr_enc_u32(&m->e, (uint32_t)cachethis);
}

static void
op_exchange_id(struct msg *m, const char *owner, uint32_t flags, uint32_t how)
{
	rr_enc_u32(&m->e, OP_EXCHANGE_ID);
	rr_enc_fixed(&m->e, "seedverf", 8);
	rr_enc_string(&m->e, owner);
	rr_enc_u32(&m->e, flags);
	rr_enc_u32(&m->e, how);		/* state_protect4_a: SP4_NONE has no arm */
	if (how == SP4_MACH_CRED) {
		rr_enc_u32(&m->e, 2);	/* spo_must_enforce: SEQUENCE */
		rr_enc_u32(&m->e, 0);
		rr_enc_u32(&m->e, 1u << (OP_SEQUENCE - 32));
		rr_enc_u32(&m->e, 0);	/* spo_must_allow */
	}
	rr_enc_u32(&m->e, 1);		/* eia_client_impl_id<1> */
	rr_enc_string(&m->e, "fuzz.invalid");
	rr_enc_string(&m->e, "fuzz_rpc");
	rr_enc_u64(&m->e, 0);		/* nii_date */
	rr_enc_u32(&m->e, 0);
}

static void
channel(struct msg *m, uint32_t maxreq, uint32_t maxresp, uint32_t cached, uint32_t ops,
    uint32_t slots)
{
	rr_enc_u32(&m->e, 0);		/* headerpadsize */
	rr_enc_u32(&m->e, maxreq);
	rr_enc_u32(&m->e, maxresp);
	rr_enc_u32(&m->e, cached);
	rr_enc_u32(&m->e, ops);
	rr_enc_u32(&m->e, slots);
	rr_enc_u32(&m->e, 0);		/* ca_rdma_ird<1> */
}

static void
op_create_session(struct msg *m, uint32_t seq, uint32_t flags, uint32_t slots)
{
	rr_enc_u32(&m->e, OP_CREATE_SESSION);
	clientid_marker(m);
	rr_enc_u32(&m->e, seq);
	rr_enc_u32(&m->e, flags);
	channel(m, 1 << 20, 1 << 20, 4096, 16, slots);
	channel(m, 4096, 4096, 0, 2, 1);
	rr_enc_u32(&m->e, 0x40000000);	/* csa_cb_program */
	rr_enc_u32(&m->e, 1);		/* csa_sec_parms: AUTH_NONE */
	rr_enc_u32(&m->e, AUTH_NONE);
}

static void
op_putfh(struct msg *m, enum obj i)
{
	rr_enc_u32(&m->e, OP_PUTFH);
	fh3m(m, i);
}

/* GETATTR of type, size and fileid (words 0 and 1 of the bitmap). */
static void
op_getattr(struct msg *m)
{
	rr_enc_u32(&m->e, OP_GETATTR);
	rr_enc_u32(&m->e, 2);
	rr_enc_u32(&m->e, 1u << FATTR4_TYPE | 1u << FATTR4_SIZE | 1u << FATTR4_FILEID);
	rr_enc_u32(&m->e, 1u << (FATTR4_MODE - 32));
}

static void
op_plain(struct msg *m, uint32_t op)
{
	rr_enc_u32(&m->e, op);
}

static void
session_seeds(void)
{
	struct msg m;

	compound(&m, 1, 2);
	op_sequence(&m, 1, 0);
	op_plain(&m, OP_PUTROOTFH);
	seed(&m, "nfs4-seq-putrootfh");
	compound(&m, 1, 3);
	op_sequence(&m, 1, 1);
	op_putfh(&m, O_FILE);
	op_getattr(&m);
	seed(&m, "nfs4-seq-putfh-getattr-cached");
	compound(&m, 2, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_DIR);
	rr_enc_u32(&m.e, OP_LOOKUP);
	rr_enc_string(&m.e, "sub");
	seed(&m, "nfs4.2-seq-lookup");
	compound(&m, 1, 2);
	op_sequence(&m, 1, 0);
	rr_enc_u32(&m.e, OP_RECLAIM_COMPLETE);
	rr_enc_u32(&m.e, 0);
	seed(&m, "nfs4-reclaim-complete");
	compound(&m, 1, 1);
	rr_enc_u32(&m.e, OP_DESTROY_SESSION);
	session_marker(&m);
	seed(&m, "nfs4-destroy-session");
	compound(&m, 1, 1);
	rr_enc_u32(&m.e, OP_BIND_CONN_TO_SESSION);
	session_marker(&m);
	rr_enc_u32(&m.e, CDFC4_FORE_OR_BOTH);
	rr_enc_u32(&m.e, 0);
	seed(&m, "nfs4-bind-conn");
	compound(&m, 1, 1);
	rr_enc_u32(&m.e, OP_DESTROY_CLIENTID);
	clientid_marker(&m);
	seed(&m, "nfs4-destroy-clientid-busy");
	compound(&m, 1, 1);
	op_create_session(&m, 2, CREATE_SESSION4_FLAG_PERSIST, 64);
	seed(&m, "nfs4-create-session");
	/* WRITE's data is decoded in place (rpc/xdr_inplace.c). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_WRITE);
	rr_enc_fixed(&m.e, (const uint8_t[16]){ 0 }, 16);	/* the anonymous stateid */
	rr_enc_u64(&m.e, 10);
	rr_enc_u32(&m.e, FILE_SYNC4);
	rr_enc_opaque(&m.e, "fuzzdata", 8);
	seed(&m, "nfs4-seq-write");
	/* 4.2's SEEK in a 4.1 compound: OP_ILLEGAL. */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_SEEK);
	rr_enc_fixed(&m.e, (const uint8_t[16]){ 0 }, 16);
	rr_enc_u64(&m.e, 0);
	rr_enc_u32(&m.e, NFS4_CONTENT_HOLE);
	seed(&m, "nfs4.1-seq-seek-illegal");
}

static void
sessionless_seeds(void)
{
	struct msg m;

	begin(&m, NFS4_PROGRAM, NFS_V4, NFSPROC4_NULL, 0);
	seed(&m, "nfs4-null");
	compound(&m, 1, 1);
	op_exchange_id(&m, "fuzz-seed-owner", EXCHGID4_FLAG_SUPP_MOVED_REFER, SP4_NONE);
	seed(&m, "nfs4-exchange-id");
	compound(&m, 2, 1);
	op_exchange_id(&m, "fuzz-v4-owner", EXCHGID4_FLAG_UPD_CONFIRMED_REC_A, SP4_MACH_CRED);
	seed(&m, "nfs4.2-exchange-id-update-machcred");
	compound(&m, 0, 1);
	op_plain(&m, OP_PUTROOTFH);
	seed(&m, "nfs4.0-minor-mismatch");
	compound(&m, 1, 1);
	op_plain(&m, OP_PUTROOTFH);
	seed(&m, "nfs4-not-in-session");
	compound(&m, 1, 2);
	op_sequence(&m, 1, 0);
	op_plain(&m, 9999);
	seed(&m, "bad-nfs4-op-illegal");
	compound(&m, 1, 2);
	op_sequence(&m, 1, 0);
	rr_enc_u32(&m.e, OP_LOOKUP);
	rr_enc_u32(&m.e, 0x7fffffff);	/* a name longer than the call */
	seed(&m, "bad-nfs4-lookup-badxdr");
	compound(&m, 1, 300);
	for (int i = 0; i < 300; i++)
		op_plain(&m, OP_GETFH);
	seed(&m, "bad-nfs4-too-many-ops");
	compound(&m, 1, 2);
	op_sequence(&m, 1, 0);
	m.e.len -= 8;			/* cut inside SEQUENCE */
	seed(&m, "bad-nfs4-sequence-truncated");
	compound(&m, 1, 1);
	op_plain(&m, OP_GETFH);
	m.buf[0] &= (uint8_t)~1;	/* over UDP: PROG_MISMATCH */
	seed(&m, "nfs4-over-udp");
}

/* ---- the file operations ---- */

/* A bitmap4 of the attributes listed (in any order; each below 96). */
static void
bitmap(struct msg *m, const unsigned *attrs, size_t n)
{
	uint32_t w[3] = { 0, 0, 0 };
	uint32_t words = 0;

	for (size_t i = 0; i < n; i++) {
		w[attrs[i] / 32] |= 1u << (attrs[i] % 32);
		if (attrs[i] / 32 + 1 > words)
			words = attrs[i] / 32 + 1;
	}
	rr_enc_u32(&m->e, words);
	for (uint32_t i = 0; i < words; i++)
		rr_enc_u32(&m->e, w[i]);
}

/* Every attribute GETATTR can read, and two it cannot (acl, time_create: left out). */
static const unsigned all_attrs[] = {
	FATTR4_SUPPORTED_ATTRS, FATTR4_TYPE, FATTR4_FH_EXPIRE_TYPE, FATTR4_CHANGE, FATTR4_SIZE,
	FATTR4_LINK_SUPPORT, FATTR4_SYMLINK_SUPPORT, FATTR4_NAMED_ATTR, FATTR4_FSID,
	FATTR4_UNIQUE_HANDLES, FATTR4_LEASE_TIME, FATTR4_RDATTR_ERROR, FATTR4_ACL,
	FATTR4_ACLSUPPORT, FATTR4_CANSETTIME, FATTR4_CASE_INSENSITIVE, FATTR4_CASE_PRESERVING,
	FATTR4_CHOWN_RESTRICTED, FATTR4_FILEHANDLE, FATTR4_FILEID, FATTR4_FILES_AVAIL,
	FATTR4_FILES_FREE, FATTR4_FILES_TOTAL, FATTR4_HOMOGENEOUS, FATTR4_MAXFILESIZE,
	FATTR4_MAXLINK, FATTR4_MAXNAME, FATTR4_MAXREAD, FATTR4_MAXWRITE, FATTR4_MODE,
	FATTR4_NO_TRUNC, FATTR4_NUMLINKS, FATTR4_OWNER, FATTR4_OWNER_GROUP, FATTR4_RAWDEV,
	FATTR4_SPACE_AVAIL, FATTR4_SPACE_FREE, FATTR4_SPACE_TOTAL, FATTR4_SPACE_USED,
	FATTR4_TIME_ACCESS, FATTR4_TIME_CREATE, FATTR4_TIME_DELTA, FATTR4_TIME_METADATA,
	FATTR4_TIME_MODIFY, FATTR4_MOUNTED_ON_FILEID, FATTR4_SUPPATTR_EXCLCREAT,
};

/* What a READDIR asks of each entry. */
static const unsigned entry_attrs[] = {
	FATTR4_TYPE, FATTR4_CHANGE, FATTR4_SIZE, FATTR4_FSID, FATTR4_RDATTR_ERROR,
	FATTR4_FILEHANDLE, FATTR4_FILEID, FATTR4_MODE, FATTR4_NUMLINKS, FATTR4_OWNER,
	FATTR4_SPACE_USED, FATTR4_TIME_MODIFY, FATTR4_MOUNTED_ON_FILEID,
};

static void
op_getattr_of(struct msg *m, const unsigned *attrs, size_t n)
{
	rr_enc_u32(&m->e, OP_GETATTR);
	bitmap(m, attrs, n);
}

static void
op_getattr_all(struct msg *m)
{
	op_getattr_of(m, all_attrs, ARRAY_SIZE(all_attrs));
}

static void
op_name(struct msg *m, uint32_t op, const char *name)
{
	rr_enc_u32(&m->e, op);
	rr_enc_string(&m->e, name);
}

/* The stateids of RFC 8881 8.2.3: anonymous (seqid 0) and current (seqid 1), other all zeros. */
static void
stateid_special(struct msg *m, uint32_t seqid)
{
	rr_enc_u32(&m->e, seqid);
	rr_enc_fixed(&m->e, (const uint8_t[12]){ 0 }, 12);
}

#define SID_ANON 0
#define SID_CURRENT 1

/* fattr4 setting mode only (~0: nothing at all). */
static void
fattr_mode(struct msg *m, uint32_t mode)
{
	static const unsigned a[] = { FATTR4_MODE };

	if (mode == ~0u) {
		rr_enc_u32(&m->e, 0);		/* attrmask<> */
		rr_enc_u32(&m->e, 0);		/* attr_vals<> */
		return;
	}
	bitmap(m, a, 1);
	rr_enc_u32(&m->e, 4);
	rr_enc_u32(&m->e, mode);
}

static void
fattr_size(struct msg *m, uint64_t size)
{
	static const unsigned a[] = { FATTR4_SIZE };

	bitmap(m, a, 1);
	rr_enc_u32(&m->e, 8);
	rr_enc_u64(&m->e, size);
}

/* fattr4 of mode, owner and owner_group (numeric, as Linux sends them without idmapping). */
static void
fattr_mode_owner(struct msg *m, uint32_t mode, const char *owner, const char *group)
{
	static const unsigned a[] = { FATTR4_MODE, FATTR4_OWNER, FATTR4_OWNER_GROUP };
	size_t lo = strlen(owner), lg = strlen(group);

	bitmap(m, a, 3);
	rr_enc_u32(&m->e, (uint32_t)(4 + 4 + ((lo + 3) & ~3u) + 4 + ((lg + 3) & ~3u)));
	rr_enc_u32(&m->e, mode);
	rr_enc_string(&m->e, owner);
	rr_enc_string(&m->e, group);
}

/* fattr4 of mode, atime set to the server's time and mtime to a client's. */
static void
fattr_mode_times(struct msg *m, uint32_t mode)
{
	static const unsigned a[] = { FATTR4_MODE, FATTR4_TIME_ACCESS_SET, FATTR4_TIME_MODIFY_SET };

	bitmap(m, a, 3);
	rr_enc_u32(&m->e, 4 + 4 + 4 + 8 + 4);
	rr_enc_u32(&m->e, mode);
	rr_enc_u32(&m->e, SET_TO_SERVER_TIME4);
	rr_enc_u32(&m->e, SET_TO_CLIENT_TIME4);
	rr_enc_u64(&m->e, 1500000000);
	rr_enc_u32(&m->e, 123456789);
}

/* OPEN's fixed part: seqid, share access and deny, the open owner. */
static void
open_head_owner(struct msg *m, uint32_t access, uint32_t deny, const char *owner)
{
	rr_enc_u32(&m->e, OP_OPEN);
	rr_enc_u32(&m->e, 0);		/* seqid: not used by 4.1 */
	rr_enc_u32(&m->e, access);
	rr_enc_u32(&m->e, deny);
	clientid_marker(m);
	rr_enc_string(&m->e, owner);
}

static void
open_head(struct msg *m, uint32_t access, uint32_t deny)
{
	open_head_owner(m, access, deny, "fuzz-open-owner");
}

/* OPEN of an existing name in the current directory (CLAIM_NULL, NOCREATE). */
static void
op_open_name(struct msg *m, uint32_t access, uint32_t deny, const char *name)
{
	open_head(m, access, deny);
	rr_enc_u32(&m->e, OPEN4_NOCREATE);
	rr_enc_u32(&m->e, CLAIM_NULL);
	rr_enc_string(&m->e, name);
}

/* OPEN4_CREATE's createhow4 up to its arm: the caller encodes the arm, then open_create_end. */
static void
op_open_create(struct msg *m, uint32_t access, uint32_t how)
{
	open_head(m, access, OPEN4_SHARE_DENY_NONE);
	rr_enc_u32(&m->e, OPEN4_CREATE);
	rr_enc_u32(&m->e, how);
}

static void
open_create_end(struct msg *m, const char *name)
{
	rr_enc_u32(&m->e, CLAIM_NULL);
	rr_enc_string(&m->e, name);
}

static void
op_read(struct msg *m, uint32_t sid, uint64_t off, uint32_t count)
{
	rr_enc_u32(&m->e, OP_READ);
	stateid_special(m, sid);
	rr_enc_u64(&m->e, off);
	rr_enc_u32(&m->e, count);
}

static void
op_write(struct msg *m, uint32_t sid, uint64_t off, uint32_t stable, const char *data)
{
	rr_enc_u32(&m->e, OP_WRITE);
	stateid_special(m, sid);
	rr_enc_u64(&m->e, off);
	rr_enc_u32(&m->e, stable);
	rr_enc_opaque(&m->e, data, (u_int)strlen(data));
}

static void
op_commit(struct msg *m)
{
	rr_enc_u32(&m->e, OP_COMMIT);
	rr_enc_u64(&m->e, 0);
	rr_enc_u32(&m->e, 0);		/* to the end of the file */
}

/* CLOSE of the current stateid. */
static void
op_close(struct msg *m)
{
	rr_enc_u32(&m->e, OP_CLOSE);
	rr_enc_u32(&m->e, 0);		/* seqid: not used by 4.1 */
	stateid_special(m, SID_CURRENT);
}

static void
op_readdir(struct msg *m, uint32_t dircount, uint32_t maxcount)
{
	rr_enc_u32(&m->e, OP_READDIR);
	rr_enc_u64(&m->e, 0);		/* cookie */
	rr_enc_fixed(&m->e, (const uint8_t[8]){ 0 }, 8);
	rr_enc_u32(&m->e, dircount);
	rr_enc_u32(&m->e, maxcount);
	bitmap(m, entry_attrs, ARRAY_SIZE(entry_attrs));
}

static void
op_create(struct msg *m, uint32_t type, const char *name, const char *linktext, uint32_t mode)
{
	rr_enc_u32(&m->e, OP_CREATE);
	rr_enc_u32(&m->e, type);
	if (type == NF4LNK)
		rr_enc_string(&m->e, linktext);
	rr_enc_string(&m->e, name);
	fattr_mode(m, mode);
}

/* Looking things up and reading them: no change to the tree. */
static void
lookup_seeds(void)
{
	static const unsigned type_size[] = { FATTR4_TYPE, FATTR4_SIZE };
	struct msg m;

	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_plain(&m, OP_PUTROOTFH);
	op_getattr_all(&m);
	seed(&m, "nfs4-seq-rootfh-getattr-all");
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	op_getattr_all(&m);
	seed(&m, "nfs4-seq-file-getattr-all");
	compound(&m, 2, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_getattr_all(&m);
	seed(&m, "nfs4.2-seq-export-getattr-all");
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_plain(&m, OP_PUTROOTFH);
	op_readdir(&m, 0, 8192);
	seed(&m, "nfs4-seq-rootfh-readdir");
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_readdir(&m, 4096, 32768);
	seed(&m, "nfs4-seq-export-readdir");
	/* dir/inner is uid 1000's, mode 0600: the export does not squash root. */
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_DIR);
	op_name(&m, OP_LOOKUP, "inner");
	op_plain(&m, OP_GETFH);
	op_getattr(&m);
	seed(&m, "nfs4-seq-lookup-getfh");
	compound(&m, 1, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_SUB);
	op_plain(&m, OP_LOOKUPP);
	op_plain(&m, OP_GETFH);
	seed(&m, "nfs4-seq-lookupp");
	/* ".." of an export's root: the pseudo directory above it. */
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_plain(&m, OP_LOOKUPP);
	op_plain(&m, OP_GETFH);
	op_getattr(&m);
	seed(&m, "nfs4-seq-lookupp-export-root");
	compound(&m, 1, 7);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	op_plain(&m, OP_SAVEFH);
	op_putfh(&m, O_DIR);
	op_plain(&m, OP_RESTOREFH);
	op_plain(&m, OP_GETFH);
	op_getattr(&m);
	seed(&m, "nfs4-seq-savefh-restorefh");
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_ACCESS);
	rr_enc_u32(&m.e, ACCESS4_READ | ACCESS4_LOOKUP | ACCESS4_MODIFY | ACCESS4_EXTEND |
	    ACCESS4_DELETE | ACCESS4_EXECUTE);
	op_putfh(&m, O_DIR);
	rr_enc_u32(&m.e, OP_ACCESS);
	rr_enc_u32(&m.e, ACCESS4_READ | ACCESS4_LOOKUP | ACCESS4_MODIFY | ACCESS4_DELETE);
	seed(&m, "nfs4-seq-access");
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_LINK);
	op_plain(&m, OP_READLINK);
	seed(&m, "nfs4-seq-readlink");
	/* file is a regular file of 5000 bytes: VERIFY holds, NVERIFY of size 0 too. */
	compound(&m, 1, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_VERIFY);
	bitmap(&m, type_size, 2);
	rr_enc_u32(&m.e, 12);
	rr_enc_u32(&m.e, NF4REG);
	rr_enc_u64(&m.e, 5000);
	rr_enc_u32(&m.e, OP_NVERIFY);
	fattr_size(&m, 0);
	seed(&m, "nfs4-seq-verify-nverify");
	/* SECINFO consumes the current filehandle: PUTFH again. */
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_name(&m, OP_SECINFO, "file");
	op_putfh(&m, O_ROOT);
	op_plain(&m, OP_GETFH);
	seed(&m, "nfs4-seq-secinfo");
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_SECINFO_NO_NAME);
	rr_enc_u32(&m.e, SECINFO_STYLE4_CURRENT_FH);
	op_putfh(&m, O_SUB);
	rr_enc_u32(&m.e, OP_SECINFO_NO_NAME);
	rr_enc_u32(&m.e, SECINFO_STYLE4_PARENT);
	seed(&m, "nfs4-seq-secinfo-no-name");
}

/* Opens, the I/O on their stateids, and the stateid operations. */
static void
open_seeds(void)
{
	static const unsigned a_mode[] = { FATTR4_MODE };
	struct msg m;

	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, "file");
	op_read(&m, SID_CURRENT, 10, 100);
	op_close(&m);
	seed(&m, "nfs4-seq-open-read-close");
	compound(&m, 1, 7);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_create(&m, OPEN4_SHARE_ACCESS_BOTH, UNCHECKED4);
	fattr_mode_owner(&m, 0640, "1000", "1000");
	open_create_end(&m, "created");
	op_write(&m, SID_CURRENT, 0, UNSTABLE4, "new file's data");
	op_commit(&m);
	op_read(&m, SID_CURRENT, 0, 64);
	op_close(&m);
	seed(&m, "nfs4-seq-open-unchecked-write");
	/* UNCHECKED of a file that is there: only the size is applied. */
	compound(&m, 2, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_create(&m, OPEN4_SHARE_ACCESS_WRITE, UNCHECKED4);
	fattr_size(&m, 0);
	open_create_end(&m, "file");
	op_getattr(&m);
	op_close(&m);
	seed(&m, "nfs4.2-seq-open-unchecked-truncate");
	compound(&m, 1, 6);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_DIR);
	op_open_create(&m, OPEN4_SHARE_ACCESS_BOTH, GUARDED4);
	fattr_mode(&m, 0600);
	open_create_end(&m, "guarded");
	op_write(&m, SID_CURRENT, 4096, FILE_SYNC4, "past a hole");
	op_getattr(&m);
	op_close(&m);
	seed(&m, "nfs4-seq-open-guarded");
	compound(&m, 1, 6);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_create(&m, OPEN4_SHARE_ACCESS_BOTH, EXCLUSIVE4_1);
	rr_enc_fixed(&m.e, "exclverf", 8);
	fattr_mode(&m, 0600);
	open_create_end(&m, "exclusive");
	op_plain(&m, OP_GETFH);
	op_getattr_of(&m, a_mode, 1);
	op_close(&m);
	seed(&m, "nfs4-seq-open-exclusive41");
	compound(&m, 1, 6);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	open_head(&m, OPEN4_SHARE_ACCESS_BOTH | OPEN4_SHARE_ACCESS_WANT_NO_DELEG,
	    OPEN4_SHARE_DENY_WRITE);
	rr_enc_u32(&m.e, OPEN4_NOCREATE);
	rr_enc_u32(&m.e, CLAIM_FH);
	op_write(&m, SID_CURRENT, 5000, DATA_SYNC4, "appended");
	op_read(&m, SID_CURRENT, 4990, 4096);
	op_close(&m);
	seed(&m, "nfs4-seq-open-claim-fh");
	compound(&m, 1, 6);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_WRITE, "file");
	rr_enc_u32(&m.e, OP_OPEN_DOWNGRADE);
	stateid_special(&m, SID_CURRENT);
	rr_enc_u32(&m.e, 0);
	rr_enc_u32(&m.e, OPEN4_SHARE_ACCESS_READ);
	rr_enc_u32(&m.e, OPEN4_SHARE_DENY_NONE);
	op_read(&m, SID_CURRENT, 0, 10);
	op_close(&m);
	seed(&m, "nfs4-seq-open-downgrade");
	/* The special stateids are never valid (BAD_STATEID), nor one never handed out. */
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, "empty");
	rr_enc_u32(&m.e, OP_TEST_STATEID);
	rr_enc_u32(&m.e, 3);
	stateid_special(&m, SID_CURRENT);
	stateid_special(&m, SID_ANON);
	rr_enc_u32(&m.e, 1);
	rr_enc_fixed(&m.e, "fuzzstateid", 12);
	op_close(&m);
	seed(&m, "nfs4-seq-test-stateid");
	/* An open stateid goes by CLOSE: FREE_STATEID says LOCKS_HELD (RFC 8881 18.38.3). */
	compound(&m, 1, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, "file");
	rr_enc_u32(&m.e, OP_FREE_STATEID);
	stateid_special(&m, SID_CURRENT);
	seed(&m, "nfs4-seq-free-stateid-open");
	/* The read-only export: ROFS for an open to write. */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_RO_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE, "rofile");
	seed(&m, "nfs4-seq-open-ro-write");
	/* RO's root squashes everyone to 1000; rofile is 0644, so it reads. */
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_RO_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, "rofile");
	op_read(&m, SID_CURRENT, 0, 50);
	op_close(&m);
	seed(&m, "nfs4-seq-open-ro-read");
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, "dir");
	seed(&m, "nfs4-seq-open-dir");
}

/* Changing attributes and the name space (the tree is put back after each). */
static void
change_seeds(void)
{
	struct msg m;

	compound(&m, 1, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_SETATTR);
	stateid_special(&m, SID_ANON);
	fattr_mode(&m, 0600);
	op_getattr(&m);
	seed(&m, "nfs4-seq-setattr-mode");
	compound(&m, 1, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_SETATTR);
	stateid_special(&m, SID_ANON);
	fattr_size(&m, 100);
	op_getattr(&m);
	seed(&m, "nfs4-seq-setattr-size");
	compound(&m, 2, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_DIR);
	rr_enc_u32(&m.e, OP_SETATTR);
	stateid_special(&m, SID_ANON);
	fattr_mode_times(&m, 0711);
	seed(&m, "nfs4.2-seq-setattr-times");
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_create(&m, NF4DIR, "newdir", NULL, 0700);
	op_plain(&m, OP_GETFH);
	op_getattr(&m);
	seed(&m, "nfs4-seq-create-dir");
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_DIR);
	op_create(&m, NF4LNK, "newlink", "../file", ~0u);
	op_plain(&m, OP_READLINK);
	op_getattr(&m);
	seed(&m, "nfs4-seq-create-symlink");
	compound(&m, 1, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_create(&m, NF4FIFO, "newfifo", NULL, 0600);
	op_getattr(&m);
	seed(&m, "nfs4-seq-create-fifo");
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_RO_ROOT);
	op_create(&m, NF4DIR, "newdir", NULL, 0755);
	seed(&m, "nfs4-seq-create-ro");
	compound(&m, 1, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_name(&m, OP_REMOVE, "file");
	op_name(&m, OP_REMOVE, "fifo");
	seed(&m, "nfs4-seq-remove");
	/* dir/sub is empty: rmdir. */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_DIR);
	op_name(&m, OP_REMOVE, "sub");
	seed(&m, "nfs4-seq-remove-dir");
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_plain(&m, OP_SAVEFH);
	op_putfh(&m, O_DIR);
	rr_enc_u32(&m.e, OP_RENAME);
	rr_enc_string(&m.e, "file");
	rr_enc_string(&m.e, "moved");
	seed(&m, "nfs4-seq-rename");
	compound(&m, 1, 6);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	op_plain(&m, OP_SAVEFH);
	op_putfh(&m, O_DIR);
	op_name(&m, OP_LINK, "hardlink");
	op_getattr(&m);
	seed(&m, "nfs4-seq-link");
}

/* Calls the server must refuse; the comments name the error RFC 8881 gives each. */
static void
error_seeds(void)
{
	struct msg m;

	/* NOFILEHANDLE (18.27.3; RESTOREFH is an obsoleted error, 15.1.16.4). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	op_plain(&m, OP_RESTOREFH);
	seed(&m, "bad-nfs4-restorefh-unsaved");
	/* NOFILEHANDLE (18.29.3). */
	compound(&m, 1, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_name(&m, OP_SECINFO, "file");
	op_plain(&m, OP_GETFH);
	seed(&m, "bad-nfs4-secinfo-consumes-fh");
	/* SYMLINK (18.13.3). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_LINK);
	op_name(&m, OP_LOOKUP, "file");
	seed(&m, "bad-nfs4-lookup-in-symlink");
	/* WRONG_TYPE (18.24.4). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	op_plain(&m, OP_READLINK);
	seed(&m, "bad-nfs4-readlink-file");
	/* SYMLINK (18.22.3); WRONG_TYPE for what is neither a file, directory nor link. */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_LINK);
	op_read(&m, SID_ANON, 0, 10);
	seed(&m, "bad-nfs4-read-symlink");
	/* WRONG_TYPE (15.2: COMMIT's errors hold no INVAL). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FIFO);
	op_commit(&m);
	seed(&m, "bad-nfs4-commit-fifo");
	/* PUTFH clears the current stateid (RFC 8881 18.19.3): BAD_STATEID. */
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, "file");
	op_putfh(&m, O_FILE);
	op_read(&m, SID_CURRENT, 0, 10);
	seed(&m, "bad-nfs4-putfh-clears-stateid");
	/* No current stateid at all: BAD_STATEID (16.2.3.1.2). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	op_read(&m, SID_CURRENT, 0, 10);
	seed(&m, "bad-nfs4-read-no-current-stateid");
	/* EXIST (18.16.3). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_create(&m, OPEN4_SHARE_ACCESS_BOTH, GUARDED4);
	fattr_mode(&m, 0600);
	open_create_end(&m, "file");
	seed(&m, "bad-nfs4-open-guarded-exists");
	/* Another owner's deny of writes: SHARE_DENIED (18.16.3). */
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_WRITE, "file");
	op_putfh(&m, O_ROOT);
	open_head_owner(&m, OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE, "fuzz-other-owner");
	rr_enc_u32(&m.e, OPEN4_NOCREATE);
	rr_enc_u32(&m.e, CLAIM_NULL);
	rr_enc_string(&m.e, "file");
	seed(&m, "bad-nfs4-open-share-denied");
	/* NOTEMPTY. */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_name(&m, OP_REMOVE, "dir");
	seed(&m, "bad-nfs4-remove-notempty");
	/* ISDIR (18.9.3). */
	compound(&m, 1, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_DIR);
	op_plain(&m, OP_SAVEFH);
	op_putfh(&m, O_ROOT);
	op_name(&m, OP_LINK, "dirlink");
	seed(&m, "bad-nfs4-link-dir");
	/* TOOSMALL: not even one entry fits (18.23.3). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_readdir(&m, 0, 40);
	seed(&m, "bad-nfs4-readdir-toosmall");
	/* BADTYPE: regular files are OPEN's to create (18.4.3). */
	compound(&m, 1, 3);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_create(&m, NF4REG, "regular", NULL, ~0u);
	seed(&m, "bad-nfs4-create-regular");
}

/* NFSv4.2's own reads and space operations (RFC 7862 15). */
static void
op_seek(struct msg *m, uint64_t off, uint32_t what)
{
	rr_enc_u32(&m->e, OP_SEEK);
	stateid_special(m, SID_ANON);
	rr_enc_u64(&m->e, off);
	rr_enc_u32(&m->e, what);
}

static void
op_read_plus(struct msg *m, uint32_t sid, uint64_t off, uint32_t count)
{
	rr_enc_u32(&m->e, OP_READ_PLUS);
	stateid_special(m, sid);
	rr_enc_u64(&m->e, off);
	rr_enc_u32(&m->e, count);
}

/* ALLOCATE or DEALLOCATE of [off, off + len) with the current stateid. */
static void
op_space(struct msg *m, uint32_t op, uint64_t off, uint64_t len)
{
	rr_enc_u32(&m->e, op);
	stateid_special(m, SID_CURRENT);
	rr_enc_u64(&m->e, off);
	rr_enc_u64(&m->e, len);
}

/* COPY (with_copy) or CLONE from the saved file to the current one, anonymous stateids. */
static void
op_copy(struct msg *m, int with_copy, uint64_t src, uint64_t dst, uint64_t count)
{
	rr_enc_u32(&m->e, with_copy ? OP_COPY : OP_CLONE);
	stateid_special(m, SID_ANON);
	stateid_special(m, SID_ANON);
	rr_enc_u64(&m->e, src);
	rr_enc_u64(&m->e, dst);
	rr_enc_u64(&m->e, count);
	if (with_copy) {
		rr_enc_u32(&m->e, 1);		/* consecutive */
		rr_enc_u32(&m->e, 1);		/* synchronous */
		rr_enc_u32(&m->e, 0);		/* no source server: intra-server */
	}
}

/* RFC 8276's four: set, get, list, remove on a file; an empty name and a huge cookie. */
static void
xattr_seeds(void)
{
	struct msg m;

	compound(&m, 2, 6);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_SETXATTR);
	rr_enc_u32(&m.e, SETXATTR4_CREATE);
	rr_enc_string(&m.e, "color");
	rr_enc_opaque(&m.e, "blue", 4);
	rr_enc_u32(&m.e, OP_GETXATTR);
	rr_enc_string(&m.e, "color");
	rr_enc_u32(&m.e, OP_LISTXATTRS);
	rr_enc_u64(&m.e, 0);
	rr_enc_u32(&m.e, 4096);
	rr_enc_u32(&m.e, OP_REMOVEXATTR);
	rr_enc_string(&m.e, "color");
	seed(&m, "nfs4.2-seq-xattrs");
	compound(&m, 2, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_GETXATTR);
	rr_enc_string(&m.e, "");
	rr_enc_u32(&m.e, OP_LISTXATTRS);
	rr_enc_u64(&m.e, ~0ull);
	rr_enc_u32(&m.e, 0);
	seed(&m, "bad-nfs4.2-xattrs");
}

static void
v42_seeds(void)
{
	struct msg m;

	compound(&m, 2, 5);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	op_seek(&m, 0, NFS4_CONTENT_DATA);
	op_seek(&m, 0, NFS4_CONTENT_HOLE);
	op_read_plus(&m, SID_ANON, 0, 65536);
	seed(&m, "nfs4.2-seq-seek-read-plus");
	compound(&m, 2, 7);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_ROOT);
	op_open_name(&m, OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE, "file");
	op_space(&m, OP_ALLOCATE, 8192, 65536);
	op_space(&m, OP_DEALLOCATE, 4096, 16384);
	op_read_plus(&m, SID_CURRENT, 0, 100000);
	op_close(&m);
	seed(&m, "nfs4.2-seq-allocate-deallocate-read-plus");
	compound(&m, 2, 6);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_FILE);
	op_plain(&m, OP_SAVEFH);
	op_putfh(&m, O_EMPTY);
	op_copy(&m, 1, 0, 100, 4096);
	op_copy(&m, 0, 0, 0, 0);
	seed(&m, "nfs4.2-seq-copy-clone");
	/* ISDIR (15.10.3 is READ's list), and a what that is neither arm. */
	compound(&m, 2, 4);
	op_sequence(&m, 1, 0);
	op_putfh(&m, O_DIR);
	op_read_plus(&m, SID_ANON, 0, 10);
	op_seek(&m, 0, 7);
	seed(&m, "bad-nfs4.2-read-plus-dir");
	xattr_seeds();
}

/* ---- NFSv4.0: no session; the fixture's clientid serves (RENEW accepts any confirmed one) ---- */

/* OPEN (4.0): owner and seqid given, CLAIM_NULL of name, created UNCHECKED when create. */
static void
op_open40(struct msg *m, uint32_t seqid, const char *owner, const char *name, int create)
{
	rr_enc_u32(&m->e, OP_OPEN);
	rr_enc_u32(&m->e, seqid);
	rr_enc_u32(&m->e, OPEN4_SHARE_ACCESS_BOTH);
	rr_enc_u32(&m->e, OPEN4_SHARE_DENY_NONE);
	clientid_marker(m);
	rr_enc_string(&m->e, owner);
	if (create) {
		rr_enc_u32(&m->e, OPEN4_CREATE);
		rr_enc_u32(&m->e, UNCHECKED4);
		fattr_mode(m, 0644);
	} else {
		rr_enc_u32(&m->e, OPEN4_NOCREATE);
	}
	rr_enc_u32(&m->e, CLAIM_NULL);
	rr_enc_string(&m->e, name);
}

/* An operation with a seqid and a stateid of no one (the fuzzer may find better). */
static void
op_seqid_sid(struct msg *m, uint32_t op, uint32_t seqid, int sid_first)
{
	rr_enc_u32(&m->e, op);
	if (sid_first) {
		stateid_special(m, 7);
		rr_enc_u32(&m->e, seqid);
	} else {
		rr_enc_u32(&m->e, seqid);
		stateid_special(m, 7);
	}
}

static void
v40_seeds(void)
{
	struct msg m;

	compound(&m, 0, 2);
	rr_enc_u32(&m.e, OP_SETCLIENTID);
	rr_enc_fixed(&m.e, "v40-verf", 8);
	rr_enc_string(&m.e, "fuzz-v40-client");
	rr_enc_u32(&m.e, 0x40000000);		/* cb_program */
	rr_enc_string(&m.e, "tcp");
	rr_enc_string(&m.e, "127.0.0.1.3.1");
	rr_enc_u32(&m.e, 1);			/* callback_ident */
	rr_enc_u32(&m.e, OP_SETCLIENTID_CONFIRM);
	clientid_marker(&m);
	rr_enc_fixed(&m.e, "confirm!", 8);
	seed(&m, "nfs4.0-setclientid-confirm");
	compound(&m, 0, 3);
	rr_enc_u32(&m.e, OP_RENEW);
	clientid_marker(&m);
	op_plain(&m, OP_PUTROOTFH);
	op_getattr(&m);
	seed(&m, "nfs4.0-renew-putrootfh-getattr");
	/* A new owner's OPEN, its retransmission (the same seqid), OPEN_CONFIRM, CLOSE. */
	compound(&m, 0, 6);
	op_putfh(&m, O_ROOT);
	op_open40(&m, 1, "fuzz-v40-owner", "file", 0);
	op_open40(&m, 1, "fuzz-v40-owner", "file", 0);
	op_plain(&m, OP_GETFH);
	op_seqid_sid(&m, OP_OPEN_CONFIRM, 2, 1);
	op_seqid_sid(&m, OP_CLOSE, 3, 0);
	seed(&m, "nfs4.0-open-replay-confirm-close");
	/* LOCK with a new lock-owner, LOCKT, LOCKU, RELEASE_LOCKOWNER. */
	compound(&m, 0, 6);
	op_putfh(&m, O_ROOT);
	op_open40(&m, 5, "fuzz-v40-locker", "v40lock", 1);
	rr_enc_u32(&m.e, OP_LOCK);
	rr_enc_u32(&m.e, WRITE_LT);
	rr_enc_u32(&m.e, 0);			/* reclaim */
	rr_enc_u64(&m.e, 0);
	rr_enc_u64(&m.e, 100);
	rr_enc_u32(&m.e, 1);			/* new_lock_owner */
	rr_enc_u32(&m.e, 6);			/* open_seqid */
	stateid_special(&m, 1);
	rr_enc_u32(&m.e, 1);			/* lock_seqid */
	clientid_marker(&m);
	rr_enc_string(&m.e, "fuzz-v40-lockowner");
	rr_enc_u32(&m.e, OP_LOCKT);
	rr_enc_u32(&m.e, READ_LT);
	rr_enc_u64(&m.e, 0);
	rr_enc_u64(&m.e, 10);
	clientid_marker(&m);
	rr_enc_string(&m.e, "fuzz-v40-other");
	rr_enc_u32(&m.e, OP_LOCKU);
	rr_enc_u32(&m.e, WRITE_LT);
	rr_enc_u32(&m.e, 2);			/* seqid */
	stateid_special(&m, 1);
	rr_enc_u64(&m.e, 0);
	rr_enc_u64(&m.e, 100);
	rr_enc_u32(&m.e, OP_RELEASE_LOCKOWNER);
	clientid_marker(&m);
	rr_enc_string(&m.e, "fuzz-v40-lockowner");
	seed(&m, "nfs4.0-open-lock-lockt-locku-release");
	compound(&m, 0, 3);
	op_putfh(&m, O_FILE);
	op_seqid_sid(&m, OP_OPEN_DOWNGRADE, 9, 1);
	rr_enc_u32(&m.e, OPEN4_SHARE_ACCESS_READ);
	rr_enc_u32(&m.e, OPEN4_SHARE_DENY_NONE);
	rr_enc_u32(&m.e, OP_DELEGRETURN);
	stateid_special(&m, 1);
	seed(&m, "bad-nfs4.0-downgrade-delegreturn");
	compound(&m, 0, 2);
	op_sequence(&m, 1, 0);
	op_plain(&m, OP_PUTROOTFH);
	seed(&m, "bad-nfs4.0-sequence-illegal");
	/* A reclaim out of the grace period: NO_GRACE, and the owner's seqid moves. */
	compound(&m, 0, 3);
	op_putfh(&m, O_FILE);
	rr_enc_u32(&m.e, OP_OPEN);
	rr_enc_u32(&m.e, 1);
	rr_enc_u32(&m.e, OPEN4_SHARE_ACCESS_READ);
	rr_enc_u32(&m.e, OPEN4_SHARE_DENY_NONE);
	clientid_marker(&m);
	rr_enc_string(&m.e, "fuzz-v40-reclaimer");
	rr_enc_u32(&m.e, OPEN4_NOCREATE);
	rr_enc_u32(&m.e, CLAIM_PREVIOUS);
	rr_enc_u32(&m.e, OPEN_DELEGATE_NONE);
	op_plain(&m, OP_GETFH);
	seed(&m, "nfs4.0-open-claim-previous");
}

void
n4fx_seeds(void)
{
	sessionless_seeds();
	session_seeds();
	lookup_seeds();
	open_seeds();
	change_seeds();
	error_seeds();
	v42_seeds();
	v40_seeds();
}
