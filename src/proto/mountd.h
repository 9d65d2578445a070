/*
 * MOUNT protocol: v3 (RFC 1813 appendix I) for NFSv3, v1 (RFC 1094
 * appendix A) and v2 (v1 plus PATHCONF, XNFS) for NFSv2 clients.
 */
#ifndef USERNFSD_MOUNTD_H
#define USERNFSD_MOUNTD_H

#include "rpc/dispatch.h"

#define MOUNT_PROGRAM_NUMBER 100005
extern const struct rpc_program mount_program;

/* MOUNT's start-up: loads the list of mounts DUMP reports (rmtab.c) from STATEDIR. */
void mountd_init(const char *statedir);


#endif
