/*
 * NFS version 4.1 and 4.2 (RFC 8881, RFC 7862): the COMPOUND procedure,
 * one version of the NFS program (nfs_program.c).
 */
#ifndef USERNFSD_NFS4_H
#define USERNFSD_NFS4_H

#include "rpc/dispatch.h"

/* NULL, COMPOUND */
#define NFS4_NPROCS 2
extern const struct rpc_proc nfs4_procs[NFS4_NPROCS];

/* The minor versions served, as bits (1 << minor); before registration. */
void nfs4_set_minors(unsigned mask);

#endif
