/*
 * What every protocol room (nfs3.c, nfs2.c, mountd.c, nlm.c) writes its
 * procedure table with: entries for rpcgen's types, the procedure that
 * does nothing (NULL, and NFSv2's ROOT and WRITECACHE), and XDR sizes.
 */
#ifndef USERNFSD_RPCPROC_H
#define USERNFSD_RPCPROC_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"

/* An entry for the rpcgen types argt and rest (coded by xdr_argt, xdr_rest). */
#define RPC_PROC(name, argt, rest, fn, flags) \
	{ name, XDRPROC(xdr_##argt), sizeof(argt), XDRPROC(xdr_##rest), sizeof(rest), fn, flags }
/* The same without a result (NLM's one-way messages). */
#define RPC_PROC_NORES(name, argt, fn, flags) \
	{ name, XDRPROC(xdr_##argt), sizeof(argt), XDRPROC(xdr_void), 0, fn, flags }
/* Neither arguments nor result, and nothing to do. */
#define RPC_PROC_NULL(name) \
	{ name, XDRPROC(xdr_void), 0, XDRPROC(xdr_void), 0, rpc_null, 0 }

/* NFS (v2 and v3): AUTH_SYS only; the result starts with a status. */
#define NFS_PROC(name, argt, rest, fn) \
	RPC_PROC(name, argt, rest, fn, PROC_AUTH_SYS | PROC_STATUS)
/* Reads and lists that may wait on the disk. */
#define NFS_PROC_IO(name, argt, rest, fn) \
	RPC_PROC(name, argt, rest, fn, PROC_AUTH_SYS | PROC_BULK | PROC_STATUS)
/*
 * Not idempotent: a retransmission must not run twice. Each changes the
 * file system, so on a sync export it waits for the disk before replying.
 */
#define NFS_PROC_ONCE(name, argt, rest, fn) \
	RPC_PROC(name, argt, rest, fn, PROC_AUTH_SYS | PROC_DRC | PROC_BULK | PROC_STATUS)

static inline void
rpc_null(struct rpc_call *call, void *args, void *res)
{
	(void)call; (void)args; (void)res;
}

/* The bytes an XDR string or opaque of n bytes takes after its length word. */
static inline uint32_t
xdr_strlen(size_t n)
{
	return (uint32_t)((n + 3) & ~(size_t)3);
}

#endif
