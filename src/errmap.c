/*
 * errno -> NFS status. One table, one column per protocol. Choices follow
 * what Linux clients expect from knfsd; the NFSv2 column uses RFC 1094's
 * statuses plus the few Sun's implementation added (see errmap.h).
 */
#include "config.h"

#include <errno.h>

#include "errmap.h"
#include "mount_prot.h"
#include "nfs_prot.h"

static const struct {
	int err;
	nfsstat3 nfs3;
	int nfs2;
	int mnt3;
} errtab[] = {
	{ 0,		NFS3_OK,		NFS_OK,			MNT3_OK },
	{ EPERM,	NFS3ERR_PERM,		NFSERR_PERM,		MNT3ERR_PERM },
	{ ENOENT,	NFS3ERR_NOENT,		NFSERR_NOENT,		MNT3ERR_NOENT },
	{ EIO,		NFS3ERR_IO,		NFSERR_IO,		MNT3ERR_IO },
	{ ENXIO,	NFS3ERR_NXIO,		NFSERR_NXIO,		MNT3ERR_IO },
	{ EACCES,	NFS3ERR_ACCES,		NFSERR_ACCES,		MNT3ERR_ACCES },
	{ EEXIST,	NFS3ERR_EXIST,		NFSERR_EXIST,		MNT3ERR_IO },
	{ EXDEV,	NFS3ERR_XDEV,		NFS2ERR_XDEV,		MNT3ERR_IO },
	{ ENODEV,	NFS3ERR_NODEV,		NFSERR_NODEV,		MNT3ERR_IO },
	{ ENOTDIR,	NFS3ERR_NOTDIR,		NFSERR_NOTDIR,		MNT3ERR_NOTDIR },
	{ EISDIR,	NFS3ERR_ISDIR,		NFSERR_ISDIR,		MNT3ERR_IO },
	{ EINVAL,	NFS3ERR_INVAL,		NFS2ERR_INVAL,		MNT3ERR_INVAL },
	{ EFBIG,	NFS3ERR_FBIG,		NFSERR_FBIG,		MNT3ERR_IO },
	{ ENOSPC,	NFS3ERR_NOSPC,		NFSERR_NOSPC,		MNT3ERR_IO },
	{ EROFS,	NFS3ERR_ROFS,		NFSERR_ROFS,		MNT3ERR_IO },
	{ EMLINK,	NFS3ERR_MLINK,		NFS2ERR_MLINK,		MNT3ERR_IO },
	{ ENAMETOOLONG,	NFS3ERR_NAMETOOLONG,	NFSERR_NAMETOOLONG,	MNT3ERR_NAMETOOLONG },
	{ ENOTEMPTY,	NFS3ERR_NOTEMPTY,	NFSERR_NOTEMPTY,	MNT3ERR_IO },
	{ EDQUOT,	NFS3ERR_DQUOT,		NFSERR_DQUOT,		MNT3ERR_IO },
	{ ESTALE,	NFS3ERR_STALE,		NFSERR_STALE,		MNT3ERR_NOENT },
	/* a symlink where none may be */
	{ ELOOP,	NFS3ERR_NOTSUPP,	NFS2ERR_OPNOTSUPP,	MNT3ERR_NOENT },
	/* v2 has no BADHANDLE: a handle we cannot use is as good as stale */
	{ EBADHANDLE,	NFS3ERR_BADHANDLE,	NFSERR_STALE,		MNT3ERR_IO },
	{ ENOTSYNC,	NFS3ERR_NOT_SYNC,	NFSERR_IO,		MNT3ERR_IO },
	{ EBADTYPE,	NFS3ERR_BADTYPE,	NFS2ERR_INVAL,		MNT3ERR_IO },
	/* only NFSv2 and MOUNT v1/v2 produce it: naming this object is not supported */
	{ ENOFH2,	NFS3ERR_SERVERFAULT,	NFS2ERR_OPNOTSUPP,	MNT3ERR_NOTSUPP },
	{ EOPNOTSUPP,	NFS3ERR_NOTSUPP,	NFS2ERR_OPNOTSUPP,	MNT3ERR_NOTSUPP },
	{ ETXTBSY,	NFS3ERR_ACCES,		NFSERR_ACCES,		MNT3ERR_ACCES },
	{ EOVERFLOW,	NFS3ERR_INVAL,		NFS2ERR_INVAL,		MNT3ERR_INVAL },
	/* Transient: the client should retry later rather than fail. */
	{ EAGAIN,	NFS3ERR_JUKEBOX,	NFS2_DROP,		MNT3ERR_SERVERFAULT },
	{ ENOMEM,	NFS3ERR_JUKEBOX,	NFS2_DROP,		MNT3ERR_SERVERFAULT },
	{ EMFILE,	NFS3ERR_JUKEBOX,	NFS2_DROP,		MNT3ERR_SERVERFAULT },
	{ ENFILE,	NFS3ERR_JUKEBOX,	NFS2_DROP,		MNT3ERR_SERVERFAULT },
};

static int
find(int err)
{
	for (unsigned i = 0; i < sizeof(errtab) / sizeof(errtab[0]); i++)
		if (errtab[i].err == err)
			return (int)i;
	return -1;
}

nfsstat3
errno_to_nfs3(int err)
{
	int i = find(err);

	return i < 0 ? NFS3ERR_IO : errtab[i].nfs3;
}

int
errno_to_nfs2(int err)
{
	int i = find(err);

	return i < 0 ? NFSERR_IO : errtab[i].nfs2;
}

int
errno_to_mnt1(int err)
{
	int st = errno_to_nfs2(err);

	/* MNT is idempotent and cheap: a plain I/O error is honest enough. */
	return st == NFS2_DROP ? NFSERR_IO : st;
}

int
errno_to_mnt3(int err)
{
	int i = find(err);

	return i < 0 ? MNT3ERR_IO : errtab[i].mnt3;
}
