/*
 * NFSv4 data operations (RFC 8881 18.22, 18.32, 18.3, RFC 7862 15.10):
 * READ, READ_PLUS, WRITE and COMMIT on the current filehandle, after its
 * stateid passed
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
 * READ's and READ_PLUS's gate: the current file, a file, a stateid that
 * may read it. On success o is begun and the caller ends it.
 */
static nfsstat4
read_begin(struct n4_compound *c, const stateid4 *sid, struct n4_obj *o)
{
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, o)) != NFS4_OK)
		return s;
	if ((s = need_file(o)) == NFS4_OK)
		s = n4_stateid_check(c, sid, o, N4_SHARE_READ);
	if (s != NFS4_OK)
		n4_obj_end(o);
	return s;
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

	if ((s = read_begin(c, &args->stateid, &o)) != NFS4_OK)
		return s;
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

/* ---- READ_PLUS (RFC 7862 15.10) ---- */

/*
 * Segments one READ_PLUS returns at most; a file more fragmented than
 * that gets a short reply (no eof), and the client reads on from its end.
 */
#define N4_READ_PLUS_SEGS 16

/* Room for the data segments: the worker's buffer as READ's (never a pipe), or the call's. */
static void *
read_plus_room(struct n4_compound *c, size_t len)
{
	if (len == 0)
		len = 1;
	return read_in_place(c) ? call_databuf(c->call, len) : call_alloc(c->call, len);
}

/*
 * The data segments of map read into room, one after the other; a read
 * that comes back short (the file shrank) ends the reply there, its eof
 * the read's. How many segments stand goes to *nseg.
 */
static nfsstat4
read_plus_fill(struct n4_obj *o, const struct fs_segment *map, unsigned *nseg, char *room,
    read_plus_content *out, int *eof)
{
	struct fs_readbuf rb = { NULL, -1, 0 };
	size_t used = 0, n;
	struct stat st;
	unsigned i;
	int err;

	for (i = 0; i < *nseg; i++) {
		if (map[i].hole) {
			out[i].rpc_content = NFS4_CONTENT_HOLE;
			out[i].read_plus_content_u.rpc_hole.di_offset = map[i].off;
			out[i].read_plus_content_u.rpc_hole.di_length = map[i].len;
			continue;
		}
		rb.buf = room + used;
		n = 0;
		if ((err = fs_read(&o->ctx, map[i].off, (size_t)map[i].len, &rb, &n, eof, &st)) != 0)
			return errno_to_nfs4(err);
		out[i].rpc_content = NFS4_CONTENT_DATA;
		out[i].read_plus_content_u.rpc_data.d_offset = map[i].off;
		out[i].read_plus_content_u.rpc_data.d_data.d_data_val = rb.buf;
		out[i].read_plus_content_u.rpc_data.d_data.d_data_len = (u_int)n;
		used += n;
		if (n < map[i].len) {
			*nseg = n ? i + 1 : i;
			return NFS4_OK;
		}
	}
	return NFS4_OK;
}

/*
 * READ's rules and stateid, the reply a list of data and holes: the file's
 * own, from SEEK_DATA and SEEK_HOLE (fs_segments), so that a sparse file's
 * holes cross the wire as an offset and a length, not as zeros.
 */
nfsstat4
n4_op_read_plus(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	READ_PLUS4args *args = &a->nfs_argop4_u.opread_plus;
	read_plus_res4 *ok = &r->nfs_resop4_u.opread_plus.READ_PLUS4res_u.rp_resok4;
	size_t count = args->rpa_count < N4_MAX_READ ? args->rpa_count : N4_MAX_READ, data = 0;
	struct fs_segment map[N4_READ_PLUS_SEGS];
	read_plus_content *out = NULL;
	unsigned nseg = 0;
	uint64_t size = 0;
	char *room = NULL;
	struct n4_obj o;
	int eof = 0;
	nfsstat4 s;

	if ((s = read_begin(c, &args->rpa_stateid, &o)) != NFS4_OK)
		return s;
	s = errno_to_nfs4(fs_segments(&o.ctx, args->rpa_offset, count, map, N4_READ_PLUS_SEGS,
	    &nseg, &size));
	for (unsigned i = 0; s == NFS4_OK && i < nseg; i++)
		data += map[i].hole ? 0 : (size_t)map[i].len;
	if (s == NFS4_OK && nseg && ((out = call_alloc(c->call, nseg * sizeof(*out))) == NULL ||
	    (room = read_plus_room(c, data)) == NULL))
		s = NFS4ERR_DELAY;
	if (s == NFS4_OK && nseg)
		s = read_plus_fill(&o, map, &nseg, room, out, &eof);
	n4_obj_end(&o);
	if (s != NFS4_OK)
		return s;
	/* At the end when the last segment reaches the size the map saw, or a read said so. */
	if (nseg == 0)
		eof = args->rpa_offset >= size;
	else if (map[nseg - 1].off + map[nseg - 1].len >= size)
		eof = 1;
	ok->rpr_eof = eof ? TRUE : FALSE;
	ok->rpr_contents.rpr_contents_val = out;
	ok->rpr_contents.rpr_contents_len = nseg;
	return NFS4_OK;
}

/* ---- WRITE and COMMIT ---- */

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
