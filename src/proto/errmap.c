/*
 * errno -> NFS status. One table, one column per protocol. Choices follow
 * what Linux clients expect from knfsd; the NFSv2 column uses RFC 1094's
 * statuses plus the few Sun's implementation added (see errmap.h). The
 * NLM column is version 4's (RFC 1813 ch. 6) for calls whose handle does
 * not pass the gate; versions 1 and 3 fold its new statuses into theirs.
 * NFSv4's column never says RESOURCE (RFC 8881 15.1.1.4: not in 4.1): a
 * shortage is DELAY, and v4 has no NODEV, so that is IO.
 */
#include "config.h"

#include <errno.h>

#include "errmap.h"
#include "rpc/mount_prot.h"
#include "rpc/nfs4_prot.h"
#include "rpc/nfs_prot.h"
#include "rpc/nlm4_prot.h"

static const struct {
	int err;
	nfsstat3 nfs3;
	int nfs2;
	int mnt3;
	int nlm4;
	nfsstat4 nfs4;
} errtab[] = {
	{ 0,		NFS3_OK,		NFS_OK,			MNT3_OK,	NLM4_GRANTED,	NFS4_OK },
	{ EPERM,	NFS3ERR_PERM,		NFSERR_PERM,		MNT3ERR_PERM,	NLM4_FAILED,	NFS4ERR_PERM },
	{ ENOENT,	NFS3ERR_NOENT,		NFSERR_NOENT,		MNT3ERR_NOENT,	NLM4_STALE_FH,	NFS4ERR_NOENT },
	{ EIO,		NFS3ERR_IO,		NFSERR_IO,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_IO },
	{ ENXIO,	NFS3ERR_NXIO,		NFSERR_NXIO,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_NXIO },
	{ EACCES,	NFS3ERR_ACCES,		NFSERR_ACCES,		MNT3ERR_ACCES,	NLM4_FAILED,	NFS4ERR_ACCESS },
	{ EEXIST,	NFS3ERR_EXIST,		NFSERR_EXIST,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_EXIST },
	{ EXDEV,	NFS3ERR_XDEV,		NFS2ERR_XDEV,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_XDEV },
	{ ENODEV,	NFS3ERR_NODEV,		NFSERR_NODEV,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_IO },
	{ ENOTDIR,	NFS3ERR_NOTDIR,		NFSERR_NOTDIR,		MNT3ERR_NOTDIR,	NLM4_FAILED,	NFS4ERR_NOTDIR },
	{ EISDIR,	NFS3ERR_ISDIR,		NFSERR_ISDIR,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_ISDIR },
	{ EINVAL,	NFS3ERR_INVAL,		NFS2ERR_INVAL,		MNT3ERR_INVAL,	NLM4_FAILED,	NFS4ERR_INVAL },
	{ EFBIG,	NFS3ERR_FBIG,		NFSERR_FBIG,		MNT3ERR_IO,	NLM4_FBIG,	NFS4ERR_FBIG },
	{ ENOSPC,	NFS3ERR_NOSPC,		NFSERR_NOSPC,		MNT3ERR_IO,	NLM4_DENIED_NOLOCKS,	NFS4ERR_NOSPC },
	{ EROFS,	NFS3ERR_ROFS,		NFSERR_ROFS,		MNT3ERR_IO,	NLM4_ROFS,	NFS4ERR_ROFS },
	{ EMLINK,	NFS3ERR_MLINK,		NFS2ERR_MLINK,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_MLINK },
	{ ENAMETOOLONG,	NFS3ERR_NAMETOOLONG,	NFSERR_NAMETOOLONG,	MNT3ERR_NAMETOOLONG,	NLM4_FAILED,	NFS4ERR_NAMETOOLONG },
	{ ENOTEMPTY,	NFS3ERR_NOTEMPTY,	NFSERR_NOTEMPTY,	MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_NOTEMPTY },
	{ EDQUOT,	NFS3ERR_DQUOT,		NFSERR_DQUOT,		MNT3ERR_IO,	NLM4_DENIED_NOLOCKS,	NFS4ERR_DQUOT },
	{ ESTALE,	NFS3ERR_STALE,		NFSERR_STALE,		MNT3ERR_NOENT,	NLM4_STALE_FH,	NFS4ERR_STALE },
	/* a symlink where none may be */
	{ ELOOP,	NFS3ERR_NOTSUPP,	NFS2ERR_OPNOTSUPP,	MNT3ERR_NOENT,	NLM4_FAILED,	NFS4ERR_SYMLINK },
	/* v2 has no BADHANDLE: a handle we cannot use is as good as stale */
	{ EBADHANDLE,	NFS3ERR_BADHANDLE,	NFSERR_STALE,		MNT3ERR_IO,	NLM4_STALE_FH,	NFS4ERR_BADHANDLE },
	{ ENOTSYNC,	NFS3ERR_NOT_SYNC,	NFSERR_IO,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_SERVERFAULT },
	{ EBADTYPE,	NFS3ERR_BADTYPE,	NFS2ERR_INVAL,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_BADTYPE },
	/* only NFSv2 and MOUNT v1/v2 produce it: naming this object is not supported */
	{ ENOFH2,	NFS3ERR_SERVERFAULT,	NFS2ERR_OPNOTSUPP,	MNT3ERR_NOTSUPP,	NLM4_FAILED,	NFS4ERR_SERVERFAULT },
	/* v2 has neither: its READDIR says the argument is invalid */
	{ EBADCOOKIE,	NFS3ERR_BAD_COOKIE,	NFS2ERR_INVAL,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_BAD_COOKIE },
	{ ETOOSMALL,	NFS3ERR_TOOSMALL,	NFS2ERR_INVAL,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_TOOSMALL },
	/*
	 * A flavor the export's sec= does not list: v4 tells the client to
	 * ask SECINFO; v2 and v3 have no such status, ACCES as knfsd says.
	 */
	{ EWRONGSEC,	NFS3ERR_ACCES,		NFSERR_ACCES,		MNT3ERR_ACCES,	NLM4_FAILED,	NFS4ERR_WRONGSEC },
	/* Extended attributes (NFSv4.2, RFC 8276): none such; too large for the file system or the reply. */
	{ ENODATA,	NFS3ERR_NOENT,		NFSERR_NOENT,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_NOXATTR },
	{ E2BIG,	NFS3ERR_INVAL,		NFS2ERR_INVAL,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_XATTR2BIG },
	{ ERANGE,	NFS3ERR_INVAL,		NFS2ERR_INVAL,		MNT3ERR_IO,	NLM4_FAILED,	NFS4ERR_XATTR2BIG },
	{ EOPNOTSUPP,	NFS3ERR_NOTSUPP,	NFS2ERR_OPNOTSUPP,	MNT3ERR_NOTSUPP,	NLM4_FAILED,	NFS4ERR_NOTSUPP },
	{ ETXTBSY,	NFS3ERR_ACCES,		NFSERR_ACCES,		MNT3ERR_ACCES,	NLM4_FAILED,	NFS4ERR_ACCESS },
	{ EOVERFLOW,	NFS3ERR_INVAL,		NFS2ERR_INVAL,		MNT3ERR_INVAL,	NLM4_FBIG,	NFS4ERR_INVAL },
	/* Transient: the client should retry later rather than fail. */
	{ EAGAIN,	NFS3ERR_JUKEBOX,	NFS2_DROP,		MNT3ERR_SERVERFAULT,	NLM4_DENIED_NOLOCKS,	NFS4ERR_DELAY },
	{ ENOMEM,	NFS3ERR_JUKEBOX,	NFS2_DROP,		MNT3ERR_SERVERFAULT,	NLM4_DENIED_NOLOCKS,	NFS4ERR_DELAY },
	{ EMFILE,	NFS3ERR_JUKEBOX,	NFS2_DROP,		MNT3ERR_SERVERFAULT,	NLM4_DENIED_NOLOCKS,	NFS4ERR_DELAY },
	{ ENFILE,	NFS3ERR_JUKEBOX,	NFS2_DROP,		MNT3ERR_SERVERFAULT,	NLM4_DENIED_NOLOCKS,	NFS4ERR_DELAY },
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

nfsstat4
errno_to_nfs4(int err)
{
	int i = find(err);

	return i < 0 ? NFS4ERR_IO : errtab[i].nfs4;
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

int
errno_to_nlm4(int err)
{
	int i = find(err);

	return i < 0 ? NLM4_FAILED : errtab[i].nlm4;
}

int
nlm4_to_nlm1(int st)
{
	switch (st) {
	case NLM4_GRANTED:
	case NLM4_DENIED:
	case NLM4_DENIED_NOLOCKS:
	case NLM4_BLOCKED:
	case NLM4_DENIED_GRACE_PERIOD:
		return st;	/* the five versions 1 and 3 know, numbered alike */
	case NLM4_DEADLCK:
		return NLM4_DENIED;
	default:
		return NLM4_DENIED_NOLOCKS;	/* what knfsd sends them for the rest */
	}
}
