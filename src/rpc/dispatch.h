/*
 * RPC call dispatch: decodes the call header and credentials (libtirpc's
 * XDR routines), finds the program/version/procedure, decodes arguments with
 * the rpcgen routines, runs the handler and encodes the reply. Runs on a
 * worker thread; everything here is per-request or read-only.
 */
#ifndef USERNFSD_DISPATCH_H
#define USERNFSD_DISPATCH_H

#include <stddef.h>
#include <stdint.h>
#include <rpc/rpc.h>

struct rpc_req;
struct export_table;

/* rpcgen routines and xdr_void have different prototypes; void (*)(void) converts to any. */
#define XDRPROC(f) ((xdrproc_t)(void (*)(void))(f))

#define RPC_MAX_GIDS 16

struct gss_identity;

struct rpc_cred {
	uint32_t flavor;	/* AUTH_NONE, AUTH_SYS or RPCSEC_GSS (6) */
	/*
	 * AUTH_SYS: as the client says. RPCSEC_GSS: the principal's local
	 * user when gss->mapped, else 0 (the gate squashes every flavor but
	 * AUTH_SYS to the export's anonymous ids for now).
	 */
	uint32_t uid, gid;
	unsigned ngids;
	uint32_t gids[RPC_MAX_GIDS];
	const struct gss_identity *gss;	/* RPCSEC_GSS: who, for the life of the call */
	uint32_t gss_svc;		/* RPCSEC_GSS: 1 none, 2 integrity, 3 privacy (RFC 2203) */
};

struct worker;

struct rpc_call {
	struct rpc_req *req;
	struct worker *w;
	uint32_t xid, prog, vers, proc;
	struct rpc_cred cred;
	struct export_table *exports;	/* held for the life of the call */
	int drop_reply;			/* a handler may decide not to answer */
	/*
	 * The gate admits any flavor, whatever the export's sec= says: MOUNT
	 * and NLM stay AUTH_SYS under Kerberos mounts (as with knfsd), and
	 * NFSv4 defers the check for some operations (RFC 8881 2.6.3.1.1).
	 */
	int any_flavor;
	/*
	 * A procedure whose drc_wanted put it in the cache found that it
	 * changed nothing (an NFSv4.0 compound of reads): its reply is not
	 * kept.
	 */
	int drc_skip;
	/*
	 * The protocol's name for the caller, if it has one (NFSv4: its
	 * clientid), so that what a call changes does not recall the
	 * caller's own delegation (fs_set_change_hook).
	 */
	uint64_t client_tag;
};

typedef void (*rpc_handler)(struct rpc_call *call, void *args, void *res);

#define PROC_AUTH_SYS	0x1	/* AUTH_NONE is too weak for this procedure */
#define PROC_DRC	0x2	/* not idempotent: retransmissions answered from the DRC */
/*
 * May wait on the disk for milliseconds (data I/O, an fsync before the
 * reply): the work queue keeps workers free for the other calls (workq.c).
 */
#define PROC_BULK	0x4
/*
 * The result starts with a status (NFS, MOUNT's MNT), or has one right
 * after a cookie (NLM): dispatch.c reads it from the encoded reply and
 * statistics count results by status, so no procedure has to.
 */
#define PROC_STATUS		0x8
#define PROC_STATUS_COOKIE	0x10

struct rpc_proc {
	const char *name;
	xdrproc_t xdr_args;
	size_t args_size;
	xdrproc_t xdr_res;
	size_t res_size;
	rpc_handler fn;
	unsigned flags;
	/*
	 * Not PROC_DRC, but some calls want the cache: asked with the raw
	 * arguments before they are decoded (NFSv4.0's COMPOUND, which has no
	 * session to answer its retries; RFC 7530 3.1, 9.1.8).
	 */
	int (*drc_wanted)(const uint8_t *args, size_t len);
};

/*
 * A version that a datagram transport must not carry: NFSv4 (RFC 8881
 * 2.9.1, RFC 7530 3.1 ask for congestion control). Over UDP its calls get
 * PROG_MISMATCH with the range UDP serves, and rpcbind hears of it on TCP
 * only.
 */
#define RPC_VERS_TCP_ONLY 0x1

struct rpc_version {
	uint32_t vers;
	const struct rpc_proc *procs;
	unsigned nprocs;
	unsigned flags;		/* RPC_VERS_* */
};

/* Which of our ports a program is registered on with rpcbind. */
enum rpc_service { RPC_SVC_NFS, RPC_SVC_MOUNT, RPC_SVC_NLM };

struct rpc_program {
	uint32_t prog;
	const char *name;
	const struct rpc_version *versions;
	unsigned nversions;
	enum rpc_service service;
};

void dispatch_register(const struct rpc_program *prog);
/*
 * What every call holds while its procedure runs, in call->exports: the
 * export table in force, so that a reload cannot free it under the call.
 * Set once at start-up (daemon.c), so that rpc knows no protocol's data.
 */
void dispatch_set_hold(struct export_table *(*acquire)(void), void (*release)(struct export_table *));
/* The programs registered so far; returns how many. */
size_t dispatch_programs(const struct rpc_program *const **out);
struct worker *worker_new(void);
void worker_free(struct worker *w);
void dispatch_request(struct worker *w, struct rpc_req *req);
/* Is the call in req PROC_BULK? Read from its header, before decoding. */
int dispatch_is_bulk(const struct rpc_req *req);

/* Zeroed per-call memory for results; released when the reply has gone. */
void *call_alloc(struct rpc_call *call, size_t n);
struct creds_state;
/* The worker thread's current identity, switched per call by fsops. */
struct creds_state *call_creds(struct rpc_call *call);
/* The worker's scratch buffer for bulk data (READ), at least n bytes. */
void *call_databuf(struct rpc_call *call, size_t n);
/*
 * READ data may skip the buffer: the write end of a pipe that holds count
 * bytes, when the reply can take its data from there (TCP, sent at once),
 * else -1.  Whoever splices n bytes into it says so with call_read_spliced
 * and encodes call_databuf's start as the data: the reply then sends the
 * pipe's bytes, never the buffer's.
 */
int call_read_pipe(struct rpc_call *call, size_t count);
void call_read_spliced(struct rpc_call *call, size_t n);

#endif
