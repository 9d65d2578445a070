/* errno -> NFS status mapping. */
#include "config.h"

#include <errno.h>

#include "proto/errmap.h"
#include "rpc/mount_prot.h"
#include "rpc/nfs_prot.h"
#include "unit.h"

int
main(void)
{
	CHECK(errno_to_nfs3(0) == NFS3_OK);
	CHECK(errno_to_nfs3(EPERM) == NFS3ERR_PERM);
	CHECK(errno_to_nfs3(EACCES) == NFS3ERR_ACCES);
	CHECK(errno_to_nfs3(ENOENT) == NFS3ERR_NOENT);
	CHECK(errno_to_nfs3(ENOTDIR) == NFS3ERR_NOTDIR);
	CHECK(errno_to_nfs3(EISDIR) == NFS3ERR_ISDIR);
	CHECK(errno_to_nfs3(ENOTEMPTY) == NFS3ERR_NOTEMPTY);
	CHECK(errno_to_nfs3(EEXIST) == NFS3ERR_EXIST);
	CHECK(errno_to_nfs3(ENOSPC) == NFS3ERR_NOSPC);
	CHECK(errno_to_nfs3(EDQUOT) == NFS3ERR_DQUOT);
	CHECK(errno_to_nfs3(ENAMETOOLONG) == NFS3ERR_NAMETOOLONG);
	CHECK(errno_to_nfs3(EXDEV) == NFS3ERR_XDEV);
	CHECK(errno_to_nfs3(EMLINK) == NFS3ERR_MLINK);
	CHECK(errno_to_nfs3(EROFS) == NFS3ERR_ROFS);
	CHECK(errno_to_nfs3(ESTALE) == NFS3ERR_STALE);
	CHECK(errno_to_nfs3(EBADHANDLE) == NFS3ERR_BADHANDLE);
	CHECK(errno_to_nfs3(EAGAIN) == NFS3ERR_JUKEBOX);
	CHECK(errno_to_nfs3(ENOMEM) == NFS3ERR_JUKEBOX);
	CHECK(errno_to_nfs3(EFBIG) == NFS3ERR_FBIG);
	CHECK(errno_to_nfs3(EINVAL) == NFS3ERR_INVAL);
	/* READDIR's own statuses come from codes of ours, not from EINVAL. */
	CHECK(errno_to_nfs3(EBADCOOKIE) == NFS3ERR_BAD_COOKIE);
	CHECK(errno_to_nfs3(ETOOSMALL) == NFS3ERR_TOOSMALL);
	CHECK(errno_to_nfs3(EOVERFLOW) == NFS3ERR_INVAL);
	CHECK(errno_to_nfs3(ENOTSYNC) == NFS3ERR_NOT_SYNC);
	CHECK(errno_to_nfs3(EBADTYPE) == NFS3ERR_BADTYPE);
	/* Anything unforeseen is an I/O error, never success. */
	CHECK(errno_to_nfs3(EPIPE) == NFS3ERR_IO);
	CHECK(errno_to_nfs3(12345) == NFS3ERR_IO);
	CHECK(errno_to_mnt3(0) == MNT3_OK);
	CHECK(errno_to_mnt3(EACCES) == MNT3ERR_ACCES);
	CHECK(errno_to_mnt3(ENOENT) == MNT3ERR_NOENT);
	CHECK(errno_to_mnt3(ENOTDIR) == MNT3ERR_NOTDIR);
	CHECK(errno_to_mnt3(EPIPE) == MNT3ERR_IO);
	/* NFSv2: RFC 1094's statuses, Sun's additions, and no v3-only codes. */
	CHECK(errno_to_nfs2(0) == NFS_OK);
	CHECK(errno_to_nfs2(EPERM) == NFSERR_PERM);
	CHECK(errno_to_nfs2(ENOENT) == NFSERR_NOENT);
	CHECK(errno_to_nfs2(EACCES) == NFSERR_ACCES);
	CHECK(errno_to_nfs2(EEXIST) == NFSERR_EXIST);
	CHECK(errno_to_nfs2(ENOTDIR) == NFSERR_NOTDIR);
	CHECK(errno_to_nfs2(EISDIR) == NFSERR_ISDIR);
	CHECK(errno_to_nfs2(EFBIG) == NFSERR_FBIG);
	CHECK(errno_to_nfs2(ENOSPC) == NFSERR_NOSPC);
	CHECK(errno_to_nfs2(EROFS) == NFSERR_ROFS);
	CHECK(errno_to_nfs2(ENAMETOOLONG) == NFSERR_NAMETOOLONG);
	CHECK(errno_to_nfs2(ENOTEMPTY) == NFSERR_NOTEMPTY);
	CHECK(errno_to_nfs2(EDQUOT) == NFSERR_DQUOT);
	CHECK(errno_to_nfs2(ESTALE) == NFSERR_STALE);
	CHECK(errno_to_nfs2(EBADHANDLE) == NFSERR_STALE);
	CHECK(errno_to_nfs2(EXDEV) == 18);
	CHECK(errno_to_nfs2(EINVAL) == 22);
	CHECK(errno_to_nfs2(EMLINK) == 31);
	CHECK(errno_to_nfs2(EOPNOTSUPP) == 45);
	CHECK(errno_to_nfs2(ENOFH2) == 45);
	CHECK(errno_to_nfs2(EBADCOOKIE) == 22);
	CHECK(errno_to_nfs2(ETOOSMALL) == 22);
	CHECK(errno_to_nfs2(EPIPE) == NFSERR_IO);
	CHECK(errno_to_nfs2(12345) == NFSERR_IO);
	/* No JUKEBOX in v2: the reply is dropped and the client retransmits. */
	CHECK(errno_to_nfs2(EAGAIN) == NFS2_DROP);
	CHECK(errno_to_nfs2(ENOMEM) == NFS2_DROP);
	/* Every errno the table knows has a v2 status below v3's private range. */
	for (int e = 0; e < 200; e++)
		CHECK(errno_to_nfs2(e) == NFS2_DROP || (errno_to_nfs2(e) >= 0 && errno_to_nfs2(e) < 100));
	/* MOUNT v1/v2: an errno value, never a dropped reply. */
	CHECK(errno_to_mnt1(0) == 0);
	CHECK(errno_to_mnt1(EACCES) == 13);
	CHECK(errno_to_mnt1(ENOENT) == 2);
	CHECK(errno_to_mnt1(ENOTDIR) == 20);
	CHECK(errno_to_mnt1(ENOMEM) == NFSERR_IO);
	/* NFSv4: ACCESS (not ACCES), SYMLINK for a link where none may be, DELAY never RESOURCE. */
	CHECK(errno_to_nfs4(0) == NFS4_OK);
	CHECK(errno_to_nfs4(EACCES) == NFS4ERR_ACCESS);
	CHECK(errno_to_nfs4(ENOENT) == NFS4ERR_NOENT);
	CHECK(errno_to_nfs4(ESTALE) == NFS4ERR_STALE);
	CHECK(errno_to_nfs4(EBADHANDLE) == NFS4ERR_BADHANDLE);
	CHECK(errno_to_nfs4(ELOOP) == NFS4ERR_SYMLINK);
	CHECK(errno_to_nfs4(ENOMEM) == NFS4ERR_DELAY);
	CHECK(errno_to_nfs4(EAGAIN) == NFS4ERR_DELAY);
	CHECK(errno_to_nfs4(EBADCOOKIE) == NFS4ERR_BAD_COOKIE);
	CHECK(errno_to_nfs4(ETOOSMALL) == NFS4ERR_TOOSMALL);
	CHECK(errno_to_nfs4(ENODEV) == NFS4ERR_IO);
	CHECK(errno_to_nfs4(EOPNOTSUPP) == NFS4ERR_NOTSUPP);
	CHECK(errno_to_nfs4(12345) == NFS4ERR_IO);
	return unit_done("test_errmap");
}
