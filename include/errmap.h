/* errno to NFS status: the one table every protocol version uses. */
#ifndef USERNFSD_ERRMAP_H
#define USERNFSD_ERRMAP_H

#include "nfs3_prot.h"

/* An errno-style code of our own, above the system range: not a handle we issued. */
#define EBADHANDLE 10001
/* SETATTR guard mismatch. */
#define ENOTSYNC 10002
/* MKNOD of a type that is not a special file. */
#define EBADTYPE 10003

/* NFSv3 status for an errno value; unknown values become NFS3ERR_IO. */
nfsstat3 errno_to_nfs3(int err);
/* MOUNT v3 status for an errno value. */
int errno_to_mnt3(int err);

#endif
