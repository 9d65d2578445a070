/* NFS version 3 (RFC 1813): decode, call fsops, encode. */
#ifndef USERNFSD_NFS3_H
#define USERNFSD_NFS3_H

#include "rpc/dispatch.h"

#define NFS_PROGRAM_NUMBER 100003
extern const struct rpc_program nfs_program;

#endif
