/*
 * NFS version 2 (RFC 1094): decode, call fsops, encode. Its procedures
 * are one version of the NFS program (nfs_program.c).
 */
#ifndef USERNFSD_NFS2_H
#define USERNFSD_NFS2_H

#include "rpc/dispatch.h"

/* NULL .. STATFS */
#define NFS2_NPROCS 18
extern const struct rpc_proc nfs2_procs[NFS2_NPROCS];

/* v2 sizes and offsets are 32-bit, and its clients' off_t is signed. */
#define NFS2_MAXFILESIZE 0x7fffffffu

#endif
