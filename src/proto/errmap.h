/*
 * errno to NFS status: the one table every protocol version uses, and the
 * only place an errno value becomes a status. The fs layer says what only
 * NFS can name with codes of its own (fs/fserr.h, 10001 and up).
 */
#ifndef USERNFSD_ERRMAP_H
#define USERNFSD_ERRMAP_H

#include "fs/fserr.h"
#include "rpc/nfs3_prot.h"
#include "rpc/nfs4_prot.h"

/*
 * NFSv2 statuses beyond RFC 1094's list. Sun's own server cast errno into
 * nfsstat, and SunOS/Solaris <nfs/nfs.h> lists these four as v2 statuses;
 * the V7 numbers (18, 22, 31) are the same on every Unix, and the Linux
 * client decodes all four.
 */
#define NFS2ERR_XDEV 18
#define NFS2ERR_INVAL 22
#define NFS2ERR_MLINK 31
#define NFS2ERR_OPNOTSUPP 45
/*
 * Not a status: NFSv2 has no "try again later" (v3's JUKEBOX), so the
 * reply is dropped and the client retransmits, as knfsd does.
 */
#define NFS2_DROP (-1)

/* NFSv3 status for an errno value; unknown values become NFS3ERR_IO. */
nfsstat3 errno_to_nfs3(int err);
/* NFSv4 status for an errno value; unknown values become NFS4ERR_IO. */
nfsstat4 errno_to_nfs4(int err);
/* NFSv2 status (an nfsstat value) for an errno value, or NFS2_DROP. */
int errno_to_nfs2(int err);
/* MOUNT v3 status for an errno value. */
int errno_to_mnt3(int err);
/* MOUNT v1/v2 fhstatus: an errno in the numbering v2 uses (never NFS2_DROP). */
int errno_to_mnt1(int err);
/* NLM version 4 status (nlm4_stats) for an errno value. */
int errno_to_nlm4(int err);
/* The NLM v1/v3 status (nlm_stats) for a version 4 one. */
int nlm4_to_nlm1(int st);

#endif
