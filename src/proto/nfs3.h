/* NFS version 3 (RFC 1813): decode, call fsops, encode. */
#ifndef USERNFSD_NFS3_H
#define USERNFSD_NFS3_H

#include "rpc/dispatch.h"

/* NULL .. COMMIT: one version of the NFS program (nfs_program.c). */
#define NFS3_NPROCS 22
extern const struct rpc_proc nfs3_procs[NFS3_NPROCS];

#endif
