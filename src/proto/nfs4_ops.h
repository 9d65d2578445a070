/*
 * Inside the NFSv4 room: what one COMPOUND carries from operation to
 * operation, and the table of operations (nfs4_ops.c) that
 * nfs4_compound.c runs them from. One file per group of operations, as
 * knfsd's nfs4proc.c and ganesha's Protocols/NFS: nfs4_session.c holds the
 * session operations.
 */
#ifndef USERNFSD_NFS4_OPS_H
#define USERNFSD_NFS4_OPS_H

#include "rpc/dispatch.h"
#include "rpc/nfs4_prot.h"
#include "state/nfs4_clients.h"

/* The highest operation number served or known (RFC 8276's REMOVEXATTR). */
#define N4_OP_LAST OP_REMOVEXATTR

/* Operations a COMPOUND may carry beyond SEQUENCE: what CREATE_SESSION grants at most. */
#define N4_MAX_OPS 50

struct n4_compound {
	struct rpc_call *call;
	uint32_t minor;
	unsigned nops;			/* operations in the compound */
	unsigned index;			/* of the one running */
	int in_session;			/* SEQUENCE came first and took a slot */
	int cachethis;			/* its sa_cachethis */
	struct n4_slot_ref slot;
	/* SEQUENCE found a retry: the cached reply to send in whole, or none kept. */
	void *replay;
	size_t replay_len;
	int replay_uncached;
};

typedef nfsstat4 (*n4_op_fn)(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

#define OP4_SESSIONLESS	0x1	/* may come first without SEQUENCE (then alone) */
#define OP4_V40_ONLY	0x2	/* NFSv4.0 only: NOTSUPP in 4.1 and later (RFC 8881 18) */
#define OP4_MINOR2	0x4	/* new in 4.2 (RFC 7862, 8276): OP_ILLEGAL in 4.1 */
#define OP4_ALONE	0x8	/* must be the only operation, even after SEQUENCE */

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

/* The session operations (nfs4_session.c). */
nfsstat4 n4_op_exchange_id(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_create_session(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_sequence(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_destroy_session(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_destroy_clientid(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_reclaim_complete(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 n4_op_bind_conn(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r);

#endif
