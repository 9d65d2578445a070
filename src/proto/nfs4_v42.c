/*
 * NFSv4.2's own data operations (RFC 7862 4, 5, 6, 15): SEEK, ALLOCATE,
 * DEALLOCATE, and the intra-server COPY and CLONE, from the saved
 * filehandle (the source) to the current one (the destination).  Copies
 * are synchronous only: COPY answers when the data is there (with
 * cr_synchronous, whatever ca_synchronous asked), so there is never a
 * copy stateid, and OFFLOAD_CANCEL, OFFLOAD_STATUS and COPY_NOTIFY (an
 * inter-server copy's) stay unserved: a synchronous-only server needs
 * none of them.  The work is the fs layer's (fs/fsops_space.c).
 */
#include "config.h"

#include <string.h>

#include "errmap.h"
#include "nfs4_ops.h"
#include "state/nfs4_state.h"

/*
 * What an operation on a regular file answers for anything else: 7862's
 * operations say WRONG_TYPE (15.1.3, 15.2.3, 15.4.3, 15.13.3); SEEK goes
 * by READ's rules (RFC 8881 18.22.3), ISDIR and SYMLINK for those two.
 */
static nfsstat4
need_regular(struct n4_obj *o, int as_read)
{
	struct stat st;
	nfsstat4 s;

	if (o->pseudo)		/* every pseudo file system node is a directory */
		return as_read ? NFS4ERR_ISDIR : NFS4ERR_WRONG_TYPE;
	if ((s = n4_obj_stat(o, &st)) != NFS4_OK)
		return s;
	if (S_ISREG(st.st_mode))
		return NFS4_OK;
	if (as_read && S_ISDIR(st.st_mode))
		return NFS4ERR_ISDIR;
	if (as_read && S_ISLNK(st.st_mode))
		return NFS4ERR_SYMLINK;
	return NFS4ERR_WRONG_TYPE;
}

nfsstat4
n4_op_seek(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SEEK4args *args = &a->nfs_argop4_u.opseek;
	seek_res4 *ok = &r->nfs_resop4_u.opseek.SEEK4res_u.resok4;
	enum fs_seek_what what;
	struct n4_obj o;
	uint64_t found = 0;
	int eof = 0;
	nfsstat4 s;

	/* An enum decodes as any number: one that is neither arm, as knfsd answers it. */
	if (args->sa_what == NFS4_CONTENT_DATA)
		what = FS_SEEK_DATA;
	else if (args->sa_what == NFS4_CONTENT_HOLE)
		what = FS_SEEK_HOLE;
	else
		return NFS4ERR_UNION_NOTSUPP;
	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	/* The stateid as READ_PLUS's, which are READ's (15.11.3, 15.10.3). */
	if ((s = need_regular(&o, 1)) == NFS4_OK)
		s = n4_stateid_check(c, &args->sa_stateid, &o, N4_SHARE_READ);
	if (s == NFS4_OK)
		s = errno_to_nfs4(fs_seek(&o.ctx, args->sa_offset, what, &found, &eof));
	n4_obj_end(&o);
	if (s == NFS4_OK) {
		ok->sr_eof = eof ? TRUE : FALSE;
		ok->sr_offset = found;
	}
	return s;
}

/* ALLOCATE and DEALLOCATE: the range of the current file, with a stateid to write. */
static nfsstat4
space_op(struct n4_compound *c, const stateid4 *sid, uint64_t off, uint64_t len,
    int (*fn)(struct fs_ctx *, uint64_t, uint64_t))
{
	struct n4_obj o;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if ((s = need_regular(&o, 0)) == NFS4_OK)
		s = n4_stateid_check(c, sid, &o, N4_SHARE_WRITE);
	if (s == NFS4_OK && fs_readonly(&o.ctx))
		s = NFS4ERR_ROFS;
	if (s == NFS4_OK)
		s = errno_to_nfs4(fn(&o.ctx, off, len));
	n4_obj_end(&o);
	return s;
}

nfsstat4
n4_op_allocate(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	ALLOCATE4args *args = &a->nfs_argop4_u.opallocate;

	(void)r;
	return space_op(c, &args->aa_stateid, args->aa_offset, args->aa_length, fs_allocate);
}

nfsstat4
n4_op_deallocate(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	DEALLOCATE4args *args = &a->nfs_argop4_u.opdeallocate;

	(void)r;
	return space_op(c, &args->da_stateid, args->da_offset, args->da_length, fs_deallocate);
}

/*
 * COPY's and CLONE's two files: the saved filehandle's, read with
 * src_sid, and the current one's, written with dst_sid (15.2.3, 15.13.3).
 */
static nfsstat4
pair_begin(struct n4_compound *c, const stateid4 *src_sid, const stateid4 *dst_sid,
    struct n4_obj *src, struct n4_obj *dst)
{
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->saved, src)) != NFS4_OK)
		return s;
	if ((s = n4_obj_begin(c, &c->cur, dst)) != NFS4_OK) {
		n4_obj_end(src);
		return s;
	}
	if ((s = need_regular(src, 0)) == NFS4_OK)
		s = need_regular(dst, 0);
	if (s == NFS4_OK)
		s = n4_stateid_check(c, src_sid, src, N4_SHARE_READ);
	if (s == NFS4_OK)
		s = n4_stateid_check(c, dst_sid, dst, N4_SHARE_WRITE);
	if (s == NFS4_OK && fs_readonly(&dst->ctx))
		s = NFS4ERR_ROFS;
	if (s != NFS4_OK) {
		n4_obj_end(dst);
		n4_obj_end(src);
	}
	return s;
}

nfsstat4
n4_op_copy(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	COPY4args *args = &a->nfs_argop4_u.opcopy;
	COPY4resok *ok = &r->nfs_resop4_u.opcopy.COPY4res_u.cr_resok4;
	enum fs_stable committed = FS_FILE_SYNC;
	struct n4_obj src, dst;
	uint64_t copied = 0;
	nfsstat4 s;

	/* A source on another server: an inter-server copy, which is not served. */
	if (args->ca_source_server.ca_source_server_len != 0)
		return NFS4ERR_NOTSUPP;
	if ((s = pair_begin(c, &args->ca_src_stateid, &args->ca_dst_stateid, &src, &dst)) != NFS4_OK)
		return s;
	/* Another export than the source's: the fs layer's EXDEV, NFS4ERR_XDEV. */
	s = errno_to_nfs4(fs_copy(&src.ctx, args->ca_src_offset, &dst.ctx, args->ca_dst_offset,
	    args->ca_count, &copied, &committed));
	n4_obj_end(&dst);
	n4_obj_end(&src);
	if (s != NFS4_OK)
		return s;
	memset(ok, 0, sizeof(*ok));
	/* Done before the reply: no callback id, and no CB_OFFLOAD to come. */
	ok->cr_response.wr_callback_id.wr_callback_id_len = 0;
	ok->cr_response.wr_callback_id.wr_callback_id_val = NULL;
	ok->cr_response.wr_count = copied;
	ok->cr_response.wr_committed = committed == FS_FILE_SYNC ? FILE_SYNC4 :
	    committed == FS_DATA_SYNC ? DATA_SYNC4 : UNSTABLE4;
	fs_write_verifier((uint8_t *)ok->cr_response.wr_writeverf);
	ok->cr_requirements.cr_consecutive = TRUE;
	ok->cr_requirements.cr_synchronous = TRUE;
	return NFS4_OK;
}

nfsstat4
n4_op_clone(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	CLONE4args *args = &a->nfs_argop4_u.opclone;
	struct n4_obj src, dst;
	nfsstat4 s;

	(void)r;
	if ((s = pair_begin(c, &args->cl_src_stateid, &args->cl_dst_stateid, &src, &dst)) != NFS4_OK)
		return s;
	s = errno_to_nfs4(fs_clone(&src.ctx, args->cl_src_offset, &dst.ctx, args->cl_dst_offset,
	    args->cl_count));
	n4_obj_end(&dst);
	n4_obj_end(&src);
	return s;
}

/*
 * OFFLOAD_STATUS and OFFLOAD_CANCEL (RFC 7862 15.9, 15.8) name a copy by
 * the stateid an asynchronous COPY handed out. Ours are all synchronous,
 * so no stateid names one: BAD_STATEID, as knfsd answers for a copy it
 * does not know (pynfs COPY10), rather than NOTSUPP for operations whose
 * every call has one right answer.
 */
nfsstat4
n4_op_offload_status(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	(void)a;
	(void)r;
	return c->cur.len == 0 ? NFS4ERR_NOFILEHANDLE : NFS4ERR_BAD_STATEID;
}

nfsstat4
n4_op_offload_cancel(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	return n4_op_offload_status(c, a, r);
}
