/*
 * Calls out to another host's RPC service (an NLM client's GRANTED and
 * _RES procedures, its status monitor; the local rpc.statd), on libtirpc:
 * the service's port from the host's rpcbind (version 3, then portmap
 * version 2), then one call over UDP or TCP. Blocking, with time limits:
 * for background tasks (tasks.h), never for a worker.
 */
#ifndef USERNFSD_RPCCLIENT_H
#define USERNFSD_RPCCLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <rpc/rpc.h>

struct rpc_target {
	struct sockaddr_storage addr;	/* the host; its port is ignored */
	/*
	 * Ours to call from (AF_UNSPEC: any). An NLM client takes a GRANTED
	 * call only from the address it sent its lock request to.
	 */
	struct sockaddr_storage local;
	int proto;			/* IPPROTO_UDP or IPPROTO_TCP */
	/*
	 * The call's credential: AUTH_NONE (0), or AUTH_SYS as root of this
	 * host (1), which NFSv4.0 callbacks need (Linux takes only CB_NULL
	 * with AUTH_NONE).
	 */
	int auth_sys;
};

/*
 * Calls prog/vers/proc on t. With timeout_ms 0 the call is sent and not
 * waited for (the one-way _MSG/_RES style; res is not touched). The
 * source port is a reserved one when we may bind one. 0, or -1 with the
 * reason in err.
 */
int rpcclient_call(const struct rpc_target *t, uint32_t prog, uint32_t vers, uint32_t proc,
    xdrproc_t xargs, void *args, xdrproc_t xres, void *res, unsigned timeout_ms,
    char *err, size_t errlen);

/*
 * The same at a port the caller knows (t->addr's port: NFSv4.0's callback
 * address from SETCLIENTID), without asking rpcbind.
 */
int rpcclient_call_direct(const struct rpc_target *t, uint32_t prog, uint32_t vers, uint32_t proc,
    xdrproc_t xargs, void *args, xdrproc_t xres, void *res, unsigned timeout_ms,
    char *err, size_t errlen);

/* Already encoded XDR arguments, sent as they are (xdr_encoded). */
struct xdr_encoded {
	const void *buf;
	size_t len;		/* a multiple of 4 */
};
bool_t xdr_encoded(XDR *x, struct xdr_encoded *e);

#endif
