/* MOUNT protocol v3 (RFC 1813 appendix I); v1/v2 join with NFSv2. */
#ifndef USERNFSD_MOUNTD_H
#define USERNFSD_MOUNTD_H

#include "dispatch.h"

#define MOUNT_PROGRAM_NUMBER 100005
extern const struct rpc_program mount_program;

/* Loads the list of mounts (for DUMP) from STATEDIR/rmtab. */
void mountd_init(const char *statedir);

#endif
