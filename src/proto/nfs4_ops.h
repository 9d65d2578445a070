/*
 * Inside the NFSv4 room: what one COMPOUND carries from operation to
 * operation, and the table of operations (nfs4_ops.c) that
 * nfs4_compound.c runs them from. One file per group of operations, as
 * knfsd's nfs4proc.c and ganesha's Protocols/NFS: nfs4_session.c holds the
 * session operations.
 */
#ifndef USERNFSD_NFS4_OPS_H
#define USERNFSD_NFS4_OPS_H

#include "fs/fsops.h"
#include "access_pseudo.h"
#include "rpc/dispatch.h"
#include "rpc/nfs4_prot.h"
#include "state/nfs4_clients.h"
#include "state/nfs4_state.h"

/* The highest operation number served or known (RFC 8276's REMOVEXATTR). */
#define N4_OP_LAST OP_REMOVEXATTR

/* Operations a COMPOUND may carry beyond SEQUENCE: what CREATE_SESSION grants at most. */
#define N4_MAX_OPS 50

/* A filehandle as the compound holds it: the bytes a client would send (len 0: none). */
struct n4_fh {
	uint32_t len;
	uint8_t data[NFS4_FHSIZE];
};

struct n4_compound {
	struct rpc_call *call;
	struct n4_fh cur, saved;	/* the current and saved filehandles (RFC 8881 16.2.3.1) */
	/* The current stateid (RFC 8881 16.2.3.1.2): what OPEN, LOCK... returned last. */
	stateid4 cur_sid, saved_sid;	/* the saved one goes with SAVEFH's filehandle */
	int have_cur_sid, have_saved_sid;
	uint32_t minor;
	unsigned nops;			/* operations in the compound */
	unsigned index;			/* of the one running */
	unsigned ndecoded;		/* operations that decoded */
	int in_session;			/* SEQUENCE came first and took a slot */
	uint64_t clientid;		/* the session's client */
	int cachethis;			/* its sa_cachethis */
	struct n4_slot_ref slot;
	/* SEQUENCE found a retry: the cached reply to send in whole, or none kept. */
	void *replay;
	size_t replay_len;
	int replay_uncached;
	int databuf_taken;		/* a READ has the worker's data buffer (nfs4_io.c) */
	uint8_t sessionid[N4_SESSIONID_SIZE];	/* SEQUENCE's, when in_session */
	/* NFSv4.0: the OPEN running is its open-owner's first, not yet confirmed (nfs40_seqid.c). */
	int open_unconfirmed;
};

typedef nfsstat4 (*n4_op_fn)(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

#define OP4_SESSIONLESS	0x1	/* may come first without SEQUENCE (then alone) */
#define OP4_V40_ONLY	0x2	/* NFSv4.0 only: NOTSUPP in 4.1 and later (RFC 8881 18) */
#define OP4_MINOR2	0x4	/* new in 4.2 (RFC 7862, 8276): OP_ILLEGAL in 4.1 */
#define OP4_ALONE	0x8	/* must be the only operation, even after SEQUENCE */
/*
 * Security flavors (RFC 8881 2.6.3.1.1): a put-filehandle operation
 * answers WRONGSEC for its handle only when the next operation uses it as
 * it is; the next one may instead check what it reaches (LOOKUP, LOOKUPP,
 * OPEN), keep it for later (SAVEFH, another put) or ask about it (SECINFO,
 * SECINFO_NO_NAME, which admit any flavor).
 */
#define OP4_PUTFH	0x10	/* PUTFH, PUTROOTFH, PUTPUBFH, RESTOREFH */
#define OP4_SEC_LATER	0x20	/* after a put, the put does not check the flavor */
#define OP4_SEC_ANY	0x40	/* admits any flavor itself */
/* NFSv4.0: sequenced by its owner's seqid, its reply kept for a retransmission (nfs40_seqid.c). */
#define OP4_SEQID	0x80
/* Changes something: an NFSv4.0 compound with one keeps its reply in the DRC. */
#define OP4_CHANGES	0x100

struct n4_op {
	const char *name;
	n4_op_fn fn;		/* NULL: not served yet (NOTSUPP) */
	unsigned flags;
};

extern const struct n4_op n4_ops[N4_OP_LAST + 1];

/* Every result arm starts with its status: where it is, whatever the arm. */
static inline nfsstat4 *
n4_res_status(nfs_resop4 *r)
{
	return (nfsstat4 *)(void *)&r->nfs_resop4_u;
}

/*
 * The object a filehandle names, admitted by the gate for this call:
 * a pseudo file system node, or an object of an export in ctx.
 */
struct n4_obj {
	int pseudo;
	struct n4_pseudo node;
	struct fs_ctx ctx;
};

/* The current filehandle's object: NOFILEHANDLE, BADHANDLE, STALE, ACCESS... */
nfsstat4 n4_obj_begin(struct n4_compound *c, const struct n4_fh *fh, struct n4_obj *o);
void n4_obj_end(struct n4_obj *o);
/* The current filehandle becomes o's. */
nfsstat4 n4_set_cur(struct n4_compound *c, const struct n4_obj *o);
/* Its attributes: the fs layer's stat, or the pseudo node's. */
nfsstat4 n4_obj_stat(struct n4_obj *o, struct stat *st);

/* A name from the wire as a C string (INVAL, NAMETOOLONG, BADNAME). */
nfsstat4 n4_name(struct n4_compound *c, const component4 *in, char **out);

/* The filehandle operations (nfs4_fh.c). */
nfsstat4 n4_op_putfh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_putrootfh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_getfh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_savefh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_restorefh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_lookup(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_lookupp(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

/* Reading one object (nfs4_inode.c), its directory (nfs4_readdir.c), its flavors (nfs4_secinfo.c). */
struct n4_attr_src;
/* What o's attributes are encoded from: st, and fh for FATTR4_FILEHANDLE. */
void n4_attr_src_of(struct n4_obj *o, const struct stat *st, const struct n4_fh *fh,
    struct n4_attr_src *src);
nfsstat4 n4_op_access(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_getattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_verify(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_nverify(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_readlink(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_readdir(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_secinfo(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_secinfo_no_name(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

/*
 * The stateid an I/O operation (READ, WRITE, SETATTR of the size) gave
 * for o, checked for need (N4_SHARE_READ or N4_SHARE_WRITE): the special
 * stateids (anonymous, READ bypass, current) and those OPEN handed out.
 */
nfsstat4 n4_stateid_check(struct n4_compound *c, const stateid4 *sid, struct n4_obj *o,
    unsigned need);
/* The state layer's results as statuses, and stateids between it and the wire (nfs4_open.c). */
nfsstat4 n4_state_status(enum n4_state_result r);
void n4_sid_to_wire(const struct n4_stateid *in, stateid4 *out);
void n4_sid_from_wire(const stateid4 *in, struct n4_stateid *out);
/*
 * The change_info4 of a change to dir's entries, from what the fs layer
 * read around it (fs_wcc); when it could not read both, the directory's
 * change attribute now as both, not atomic: the client drops its caches.
 */
void n4_cinfo(change_info4 *ci, const struct fs_wcc *w, struct fs_ctx *dir);
/*
 * The stateid a state operation names: the current stateid when sid is
 * the special one that says so (RFC 8881 16.2.3.1.2), NULL when the
 * compound has none; any other sid as it is.
 */
const stateid4 *n4_named_sid(struct n4_compound *c, const stateid4 *sid);
/* The current stateid becomes sid (OPEN, OPEN_DOWNGRADE, CLOSE, LOCK, LOCKU). */
void n4_set_cur_sid(struct n4_compound *c, const stateid4 *sid);

/* Opens (nfs4_open.c) and I/O (nfs4_io.c). */
nfsstat4 n4_op_open(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_open_downgrade(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_close(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_test_stateid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_free_stateid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_read(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
/* NFSv4.2's READ_PLUS (RFC 7862 15.10): READ with the file's holes as ranges (nfs4_io.c). */
nfsstat4 n4_op_read_plus(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_write(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_commit(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

/* Byte-range locks (nfs4_lock.c), through the lock manager NLM uses too. */
nfsstat4 n4_op_lock(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_lockt(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_locku(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
/* CLOSE: every lock a lock owner holds on file goes. */
void n4_unlock_all(struct n4_compound *c, struct fs_ctx *file, const void *owner, size_t ownerlen,
    const struct sockaddr_storage *peer);

/* Changing the name space and attributes (nfs4_dirops.c). */
nfsstat4 n4_op_setattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_create(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_remove(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_rename(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_link(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

/* The client-record results as statuses (nfs4_session.c), and who calls, as records compare it. */
extern const nfsstat4 n4_status[N4_NRESULTS];
struct n4_principal n4_principal_of(const struct n4_compound *c);

/*
 * NFSv4.0 (nfs40_client.c): SETCLIENTID, SETCLIENTID_CONFIRM, RENEW, and
 * before each operation the client it names (its clientid, or a stateid
 * of its), whose lease that renews: STALE_CLIENTID, STALE_STATEID...
 */
nfsstat4 n4_op_setclientid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_setclientid_confirm(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_renew(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n40_bind(struct n4_compound *c, const nfs_argop4 *a);
/*
 * NFSv4.0's sequenced operations (nfs40_seqid.c): fn run under its
 * owner's seqid (RFC 7530 9.1.7), or the kept reply of a retransmission;
 * OPEN_CONFIRM and RELEASE_LOCKOWNER.
 */
nfsstat4 n40_run_seqid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r, n4_op_fn fn);
nfsstat4 n4_op_open_confirm(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_release_lockowner(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
/*
 * Read delegations (nfs4_deleg.c): OPEN asks what is in the way of an
 * open (DELAY while recalled) and offers one after a successful open
 * (d untouched when none); DELEGRETURN.
 */
nfsstat4 n4_deleg_check(struct n4_compound *c, const struct n4_file *f, unsigned access);
void n4_deleg_offer(struct n4_compound *c, struct fs_ctx *file, const struct n4_file *f,
    unsigned access, unsigned deny, open_delegation4 *d);
nfsstat4 n4_op_delegreturn(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
/* OPEN's result for a read delegation with stateid sid (a 4.0 replay's too). */
void n4_deleg_read_result(const stateid4 *sid, open_delegation4 *d);

/*
 * The back channel (nfs4_callback.c): the credential our calls carry, of
 * those the client lists (-1: none we speak); a probe of a session's back
 * channel in the background; BACKCHANNEL_CTL.
 */
int n4_cb_sec_choose(const callback_sec_parms4 *list, u_int n, struct n4_cb_sec *out);
void n4_cb_probe(struct n4_compound *c, const uint8_t sessionid[N4_SESSIONID_SIZE]);
/*
 * NFSv4.0: a call to the client's callback (blocking: from a task), its
 * callback_ident into *ident; a probe of it in the background.
 */
int n40_cb_call(uint64_t clientid, uint32_t proc, xdrproc_t xargs, void *args, xdrproc_t xres,
    void *res, uint32_t *ident, char *err, size_t errlen);
void n40_cb_probe(struct n4_compound *c, uint64_t clientid);
nfsstat4 n4_op_backchannel_ctl(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

/* The session operations (nfs4_session.c). */
nfsstat4 n4_op_exchange_id(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_create_session(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_sequence(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_destroy_session(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_destroy_clientid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_reclaim_complete(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_bind_conn(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

/* NFSv4.2's space and copy operations (nfs4_v42.c): SEEK, ALLOCATE, DEALLOCATE, COPY, CLONE. */
nfsstat4 n4_op_seek(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_allocate(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_deallocate(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_copy(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_clone(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
/* No asynchronous copies: no stateid names one (BAD_STATEID). */
nfsstat4 n4_op_offload_status(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_offload_cancel(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

/* NFSv4.2's extended attributes (nfs4_xattr.c, RFC 8276): the user. namespace. */
nfsstat4 n4_op_getxattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_setxattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_listxattrs(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_removexattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

#endif
