/*
 * NFSv4 data operations (RFC 8881 18.22, 18.32, 18.3): READ, WRITE and
 * COMMIT on the current filehandle, after its stateid passed
 * n4_stateid_check. The data moves through the fs layer as v3's does;
 * WRITE's data is still in the request buffer (nfs4_compound.c decodes
 * it in place).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "access.h"
#include "errmap.h"
#include "nfs4_ops.h"
#include "state/nfs4_state.h"

/* The most one READ returns: what a session's channel carries (nfs4_session.c). */
#define N4_MAX_READ (1u << 20)

/*
 * A file to read or write: ISDIR for a directory, SYMLINK for a link,
 * WRONG_TYPE for the rest (RFC 8881 18.22.3; what knfsd's fh_verify says).
 */
static nfsstat4
need_file(struct n4_obj *o)
{
	struct stat st;
	nfsstat4 s;

	if (o->pseudo)
		return NFS4ERR_ISDIR;
	if ((s = n4_obj_stat(o, &st)) != NFS4_OK)
		return s;
	if (S_ISREG(st.st_mode))
		return NFS4_OK;
	if (S_ISDIR(st.st_mode))
		return NFS4ERR_ISDIR;
	return S_ISLNK(st.st_mode) ? NFS4ERR_SYMLINK : NFS4ERR_WRONG_TYPE;
}

/*
 * The compound's first READ reads as v3's does: into the worker's data
 * buffer, or spliced from the file into a pipe, and the transport sends
 * the data from there instead of copying it into the reply (dispatch.c).
 * There is one such buffer, so a second READ in the compound takes room
 * of the call's own; so does a READ whose reply the slot keeps
 * (sa_cachethis): the slot's copy is encoded from memory, never a pipe.
 */
static int
read_in_place(struct n4_compound *c)
{
	if (c->databuf_taken || c->cachethis)
		return 0;
	c->databuf_taken = 1;
	return 1;
}

static nfsstat4
read_reply(struct n4_compound *c, struct n4_obj *o, uint64_t off, size_t count,
    struct fs_readbuf *rb, size_t *n, int *eof, struct stat *st)
{
	if ((rb->buf = call_databuf(c->call, count ? count : 1)) == NULL)
		return NFS4ERR_DELAY;
	return errno_to_nfs4(fs_read_reply(c->call, &o->ctx, off, count, rb->buf, n, eof, st));
}

static nfsstat4
read_copied(struct n4_compound *c, struct n4_obj *o, uint64_t off, size_t count,
    struct fs_readbuf *rb, size_t *n, int *eof, struct stat *st)
{
	if ((rb->buf = call_alloc(c->call, count ? count : 1)) == NULL)
		return NFS4ERR_DELAY;
	return errno_to_nfs4(fs_read(&o->ctx, off, count, rb, n, eof, st));
}

nfsstat4
n4_op_read(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	READ4args *args = &a->nfs_argop4_u.opread;
	READ4resok *ok = &r->nfs_resop4_u.opread.READ4res_u.resok4;
	size_t count = args->count < N4_MAX_READ ? args->count : N4_MAX_READ, n = 0;
	struct fs_readbuf rb = { NULL, -1, 0 };
	struct n4_obj o;
	struct stat st;
	int eof = 0;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if ((s = need_file(&o)) == NFS4_OK)
		s = n4_stateid_check(c, &args->stateid, &o, N4_SHARE_READ);
	if (s == NFS4_OK)
		s = read_in_place(c) ? read_reply(c, &o, args->offset, count, &rb, &n, &eof, &st) :
		    read_copied(c, &o, args->offset, count, &rb, &n, &eof, &st);
	n4_obj_end(&o);
	if (s == NFS4_OK) {
		ok->eof = eof ? TRUE : FALSE;
		ok->data.data_val = rb.buf;
		ok->data.data_len = (u_int)n;
	}
	return s;
}

nfsstat4
n4_op_write(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	WRITE4args *args = &a->nfs_argop4_u.opwrite;
	WRITE4resok *ok = &r->nfs_resop4_u.opwrite.WRITE4res_u.resok4;
	enum fs_stable committed = FS_UNSTABLE;
	struct n4_obj o;
	struct stat before;
	size_t written = 0;
	nfsstat4 s;

	if (args->stable > FILE_SYNC4)
		return NFS4ERR_INVAL;
	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if ((s = need_file(&o)) == NFS4_OK)
		s = n4_stateid_check(c, &args->stateid, &o, N4_SHARE_WRITE);
	if (s == NFS4_OK && fs_readonly(&o.ctx))
		s = NFS4ERR_ROFS;
	if (s == NFS4_OK)
		s = errno_to_nfs4(fs_getattr(&o.ctx, &before));
	if (s == NFS4_OK)
		s = errno_to_nfs4(fs_write(&o.ctx, &before, args->offset, args->data.data_val,
		    args->data.data_len, (enum fs_stable)args->stable, &written, &committed));
	n4_obj_end(&o);
	if (s == NFS4_OK) {
		ok->count = (count4)written;
		ok->committed = (stable_how4)committed;
		fs_write_verifier((uint8_t *)ok->writeverf);
	}
	return s;
}

nfsstat4
n4_op_commit(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	COMMIT4resok *ok = &r->nfs_resop4_u.opcommit.COMMIT4res_u.resok4;
	struct n4_obj o;
	nfsstat4 s;

	(void)a;
	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if ((s = need_file(&o)) == NFS4_OK)
		s = errno_to_nfs4(fs_commit(&o.ctx));
	n4_obj_end(&o);
	if (s == NFS4_OK)
		fs_write_verifier((uint8_t *)ok->writeverf);
	return s;
}
