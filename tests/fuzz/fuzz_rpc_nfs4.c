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

void
n4fx_build(void)
{
	static const char owner[] = "fuzz-v4-owner";
	struct n4_exchange_in ex = { owner, sizeof(owner) - 1, "fuzzverf", { AUTH_SYS, 0, 0 }, 0 };
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

void
n4fx_seeds(void)
{
	sessionless_seeds();
	session_seeds();
}
