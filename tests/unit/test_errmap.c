/* errno -> NFS status mapping. */
#include "config.h"

#include <errno.h>

#include "errmap.h"
#include "mount_prot.h"
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
	/* Anything unforeseen is an I/O error, never success. */
	CHECK(errno_to_nfs3(EPIPE) == NFS3ERR_IO);
	CHECK(errno_to_nfs3(12345) == NFS3ERR_IO);
	CHECK(errno_to_mnt3(0) == MNT3_OK);
	CHECK(errno_to_mnt3(EACCES) == MNT3ERR_ACCES);
	CHECK(errno_to_mnt3(ENOENT) == MNT3ERR_NOENT);
	CHECK(errno_to_mnt3(ENOTDIR) == MNT3ERR_NOTDIR);
	CHECK(errno_to_mnt3(EPIPE) == MNT3ERR_IO);
	return unit_done("test_errmap");
}
