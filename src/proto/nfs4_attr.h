/*
 * NFSv4 attributes on the wire (RFC 8881 5, RFC 7862 12.2): fattr4 from
 * what the fs layer's stat, statvfs and pathconf found, and the settable
 * attributes of SETATTR, CREATE and OPEN back into an fs_sattr. Kept out
 * of the operations, as nfs3_attr.c is for v3.
 */
#ifndef USERNFSD_NFS4_ATTR_H
#define USERNFSD_NFS4_ATTR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "fs/fsops.h"
#include "rpc/nfs4_prot.h"

struct rpc_call;

/* What one object's attributes are encoded from. */
struct n4_attr_src {
	struct fs_ctx *ctx;		/* the object; NULL for a pseudo file system node */
	/*
	 * Its attributes (made up for a pseudo node); NULL when they could
	 * not be had (READDIR): then only rdattr_error is encoded.
	 */
	const struct stat *st;
	const void *fh;			/* its NFSv4 handle, for FATTR4_FILEHANDLE */
	size_t fhlen;
	uint64_t fsid_major, fsid_minor;
	/* The fileid of what it is mounted on: its own, unless an export's root. */
	uint64_t mounted_on_fileid;
	nfsstat4 rdattr_error;		/* READDIR: why the entry's attributes are missing */
};

/*
 * The attributes served in minor version minor, for supported_attrs: out
 * points at static words, never to be written. The write-only
 * time_access_set and time_modify_set are among them (clients set only
 * what is listed), though GETATTR cannot read them.
 */
void n4_attr_supported(uint32_t minor, bitmap4 *out);

/*
 * The attributes of src asked for in want that are supported, encoded into
 * out (attrmask without trailing zero words, attr_vals), from the call's
 * arena; those not supported are left out (RFC 8881 18.7.3). NFS4_OK, or
 * NFS4ERR_INVAL (a write-only attribute asked for), the status of a failed
 * statvfs, NFS4ERR_RESOURCE (no room) or NFS4ERR_SERVERFAULT (no memory,
 * or a filehandle asked for that src lacks). statvfs and pathconf only
 * when an attribute asked for needs them, and never for a pseudo node
 * (ctx NULL: zeros and defaults).
 */
nfsstat4 n4_attr_encode(struct rpc_call *call, uint32_t minor, const struct n4_attr_src *src,
    const bitmap4 *want, fattr4 *out);

/*
 * SETATTR's, CREATE's and OPEN's attributes into sa (cleared first): NFS4_OK
 * with the attributes taken in *set (the attrsset of the reply, from the
 * call's arena), or NFS4ERR_ATTRNOTSUPP (an attribute not supported),
 * NFS4ERR_INVAL (a read-only one, or nanoseconds of 10^9 or more),
 * NFS4ERR_BADXDR (attr_vals do not decode as the mask says, or bytes are
 * left over), NFS4ERR_BADOWNER (an owner or group this server cannot map
 * to an id), NFS4ERR_SERVERFAULT (no memory); on error sa and *set are
 * empty. Settable: size, mode, owner, owner_group, time_access_set and
 * time_modify_set (server time as UTIME_NOW). call: scratch memory.
 */
nfsstat4 n4_attr_decode_set(uint32_t minor, const fattr4 *in, struct fs_sattr *sa, bitmap4 *set,
    struct rpc_call *call);

/*
 * VERIFY and NVERIFY: NFS4ERR_SAME when every attribute in `in` equals
 * src's, NFS4ERR_NOT_SAME when one differs, or an error (ATTRNOTSUPP,
 * INVAL for rdattr_error or a write-only attribute, or n4_attr_encode's).
 * The comparison is of the encoded bytes, as knfsd's: attr_vals that are
 * not what this server would send (another length, an owner by name) are
 * NOT_SAME, never BADXDR. Nothing is taken from the arena.
 */
nfsstat4 n4_attr_compare(struct rpc_call *call, uint32_t minor, const struct n4_attr_src *src,
    const fattr4 *in);

#endif
