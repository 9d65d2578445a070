/*
 * errno -> NFS status. One table: the NFSv2 column joins it when v2 lands.
 * Choices follow what Linux clients expect from knfsd.
 */
#include "config.h"

#include <errno.h>

#include "errmap.h"
#include "mount_prot.h"

static const struct {
	int err;
	nfsstat3 nfs3;
	int mnt3;
} errtab[] = {
	{ 0,		NFS3_OK,		MNT3_OK },
	{ EPERM,	NFS3ERR_PERM,		MNT3ERR_PERM },
	{ ENOENT,	NFS3ERR_NOENT,		MNT3ERR_NOENT },
	{ EIO,		NFS3ERR_IO,		MNT3ERR_IO },
	{ ENXIO,	NFS3ERR_NXIO,		MNT3ERR_IO },
	{ EACCES,	NFS3ERR_ACCES,		MNT3ERR_ACCES },
	{ EEXIST,	NFS3ERR_EXIST,		MNT3ERR_IO },
	{ EXDEV,	NFS3ERR_XDEV,		MNT3ERR_IO },
	{ ENODEV,	NFS3ERR_NODEV,		MNT3ERR_IO },
	{ ENOTDIR,	NFS3ERR_NOTDIR,		MNT3ERR_NOTDIR },
	{ EISDIR,	NFS3ERR_ISDIR,		MNT3ERR_IO },
	{ EINVAL,	NFS3ERR_INVAL,		MNT3ERR_INVAL },
	{ EFBIG,	NFS3ERR_FBIG,		MNT3ERR_IO },
	{ ENOSPC,	NFS3ERR_NOSPC,		MNT3ERR_IO },
	{ EROFS,	NFS3ERR_ROFS,		MNT3ERR_IO },
	{ EMLINK,	NFS3ERR_MLINK,		MNT3ERR_IO },
	{ ENAMETOOLONG,	NFS3ERR_NAMETOOLONG,	MNT3ERR_NAMETOOLONG },
	{ ENOTEMPTY,	NFS3ERR_NOTEMPTY,	MNT3ERR_IO },
	{ EDQUOT,	NFS3ERR_DQUOT,		MNT3ERR_IO },
	{ ESTALE,	NFS3ERR_STALE,		MNT3ERR_NOENT },
	{ ELOOP,	NFS3ERR_NOTSUPP,	MNT3ERR_NOENT },	/* a symlink where none may be */
	{ EBADHANDLE,	NFS3ERR_BADHANDLE,	MNT3ERR_IO },
	{ ENOTSYNC,	NFS3ERR_NOT_SYNC,	MNT3ERR_IO },
	{ EBADTYPE,	NFS3ERR_BADTYPE,	MNT3ERR_IO },
	{ EOPNOTSUPP,	NFS3ERR_NOTSUPP,	MNT3ERR_NOTSUPP },
	{ ETXTBSY,	NFS3ERR_ACCES,		MNT3ERR_ACCES },
	{ EOVERFLOW,	NFS3ERR_INVAL,		MNT3ERR_INVAL },
	/* Transient: the client should retry later rather than fail. */
	{ EAGAIN,	NFS3ERR_JUKEBOX,	MNT3ERR_SERVERFAULT },
	{ ENOMEM,	NFS3ERR_JUKEBOX,	MNT3ERR_SERVERFAULT },
	{ EMFILE,	NFS3ERR_JUKEBOX,	MNT3ERR_SERVERFAULT },
	{ ENFILE,	NFS3ERR_JUKEBOX,	MNT3ERR_SERVERFAULT },
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
errno_to_mnt3(int err)
{
	int i = find(err);

	return i < 0 ? MNT3ERR_IO : errtab[i].mnt3;
}
