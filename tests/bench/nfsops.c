/*
 * nfsops.c - NFSv3 calls shared by the workloads: asynchronous wrappers
 * around libnfs's rpc_nfs3_*_async (which encode the arguments at once,
 * so arguments may live on the stack), and synchronous helpers for setup
 * and cleanup.
 */
#include "nfsbench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fh_set(struct fh *f, const nfs_fh3 *h)
{
	f->len = h->data.data_len <= MAX_FH ? h->data.data_len : 0;
	memcpy(f->data, h->data.data_val, f->len);
}

nfs_fh3 fh_arg(const struct fh *f)
{
	nfs_fh3 h;

	h.data.data_len = f->len;
	h.data.data_val = (char *)(uintptr_t)f->data;   /* libnfs only reads it */
	return h;
}

const char *nfsstat_name(int st)
{
	switch (st) {
	case NFS3_OK: return "OK";
	case NFS3ERR_PERM: return "PERM";
	case NFS3ERR_NOENT: return "NOENT";
	case NFS3ERR_IO: return "IO";
	case NFS3ERR_ACCES: return "ACCES";
	case NFS3ERR_EXIST: return "EXIST";
	case NFS3ERR_NOTDIR: return "NOTDIR";
	case NFS3ERR_ISDIR: return "ISDIR";
	case NFS3ERR_INVAL: return "INVAL";
	case NFS3ERR_NOSPC: return "NOSPC";
	case NFS3ERR_NOTEMPTY: return "NOTEMPTY";
	case NFS3ERR_STALE: return "STALE";
	case NFS3ERR_BADHANDLE: return "BADHANDLE";
	case NFS3ERR_BAD_COOKIE: return "BAD_COOKIE";
	case NFS3ERR_NOTSUPP: return "NOTSUPP";
	case NFS3ERR_TOOSMALL: return "TOOSMALL";
	case NFS3ERR_SERVERFAULT: return "SERVERFAULT";
	case NFS3ERR_JUKEBOX: return "JUKEBOX";
	default: return "?";
	}
}

/* ---- asynchronous calls ---- */

static sattr3 mode_only(unsigned mode)
{
	sattr3 s;

	memset(&s, 0, sizeof(s));
	s.mode.set_it = 1;
	s.mode.set_mode3_u.mode = mode;
	return s;
}

int call_create(struct req *rq, const struct fh *dir, const char *name, int guarded)
{
	CREATE3args a;

	memset(&a, 0, sizeof(a));
	a.where.dir = fh_arg(dir);
	a.where.name = (char *)(uintptr_t)name;
	a.how.mode = guarded ? GUARDED : UNCHECKED;
	a.how.createhow3_u.obj_attributes = mode_only(0644);
	if (rpc_nfs3_create_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "CREATE");
	return 0;
}

int call_write(struct req *rq, const struct fh *f, uint64_t off, void *buf, unsigned len, int stable)
{
	WRITE3args a;

	memset(&a, 0, sizeof(a));
	a.file = fh_arg(f);
	a.offset = off;
	a.count = len;
	a.stable = stable;
	a.data.data_len = len;
	a.data.data_val = buf;
	if (rpc_nfs3_write_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "WRITE");
	return 0;
}

int call_read(struct req *rq, const struct fh *f, uint64_t off, unsigned len)
{
	READ3args a;

	a.file = fh_arg(f);
	a.offset = off;
	a.count = len;
	if (rpc_nfs3_read_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "READ");
	return 0;
}

int call_commit(struct req *rq, const struct fh *f)
{
	COMMIT3args a;

	a.file = fh_arg(f);
	a.offset = 0;
	a.count = 0;
	if (rpc_nfs3_commit_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "COMMIT");
	return 0;
}

int call_lookup(struct req *rq, const struct fh *dir, const char *name)
{
	LOOKUP3args a;

	a.what.dir = fh_arg(dir);
	a.what.name = (char *)(uintptr_t)name;
	if (rpc_nfs3_lookup_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "LOOKUP");
	return 0;
}

int call_getattr(struct req *rq, const struct fh *f)
{
	GETATTR3args a;

	a.object = fh_arg(f);
	if (rpc_nfs3_getattr_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "GETATTR");
	return 0;
}

int call_access(struct req *rq, const struct fh *f, uint32_t access)
{
	ACCESS3args a;

	a.object = fh_arg(f);
	a.access = access;
	if (rpc_nfs3_access_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "ACCESS");
	return 0;
}

int call_remove(struct req *rq, const struct fh *dir, const char *name)
{
	REMOVE3args a;

	a.object.dir = fh_arg(dir);
	a.object.name = (char *)(uintptr_t)name;
	if (rpc_nfs3_remove_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "REMOVE");
	return 0;
}

int call_rename(struct req *rq, const struct fh *dir, const char *from, const char *to)
{
	RENAME3args a;

	a.from.dir = fh_arg(dir);
	a.from.name = (char *)(uintptr_t)from;
	a.to.dir = fh_arg(dir);
	a.to.name = (char *)(uintptr_t)to;
	if (rpc_nfs3_rename_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "RENAME");
	return 0;
}

/* ---- synchronous helpers ---- */

struct sync { int done, status; struct fh fh; unsigned rtmax, wtmax; };

/* Every NFSv3 result starts with its nfsstat3. */
static void sync_status_done(struct req *rq, void *res)
{
	struct sync *s = rq->ctx;

	s->done = 1;
	s->status = res ? *(int *)res : -1;
}

static int sync_wait(struct conn *c, struct sync *s, int queued)
{
	if (queued < 0)
		return -1;
	if (loop_drain(c, 1) < 0 || !s->done)
		return -1;
	return s->status;
}

static void lookup_done(struct req *rq, void *res)
{
	LOOKUP3res *r = res;

	sync_status_done(rq, res);
	if (r && r->status == NFS3_OK)
		fh_set(&((struct sync *)rq->ctx)->fh, &r->LOOKUP3res_u.resok.object);
}

int sync_lookup(struct conn *c, const struct fh *dir, const char *name, struct fh *out)
{
	struct sync s = { 0 };
	int st = sync_wait(c, &s, call_lookup(req_new(c, lookup_done, &s), dir, name));

	if (st == NFS3_OK)
		*out = s.fh;
	return st;
}

static void mkdir_done(struct req *rq, void *res)
{
	MKDIR3res *r = res;

	sync_status_done(rq, res);
	if (r && r->status == NFS3_OK && r->MKDIR3res_u.resok.obj.handle_follows)
		fh_set(&((struct sync *)rq->ctx)->fh, &r->MKDIR3res_u.resok.obj.post_op_fh3_u.handle);
}

int sync_mkdir(struct conn *c, const struct fh *dir, const char *name, struct fh *out)
{
	struct sync s = { 0 };
	struct req *rq = req_new(c, mkdir_done, &s);
	MKDIR3args a;
	int st;

	memset(&a, 0, sizeof(a));
	a.where.dir = fh_arg(dir);
	a.where.name = (char *)(uintptr_t)name;
	a.attributes = mode_only(0755);
	st = sync_wait(c, &s, rpc_nfs3_mkdir_async(c->rpc, req_cb, &a, rq) < 0 ?
		       req_queue_failed(rq, "MKDIR") : 0);
	if (st != NFS3_OK)
		return st;
	if (!s.fh.len)          /* no handle in the reply: ask for it */
		return sync_lookup(c, dir, name, out);
	*out = s.fh;
	return st;
}

static void create_done(struct req *rq, void *res)
{
	CREATE3res *r = res;

	sync_status_done(rq, res);
	if (r && r->status == NFS3_OK && r->CREATE3res_u.resok.obj.handle_follows)
		fh_set(&((struct sync *)rq->ctx)->fh, &r->CREATE3res_u.resok.obj.post_op_fh3_u.handle);
}

int sync_create(struct conn *c, const struct fh *dir, const char *name, struct fh *out)
{
	struct sync s = { 0 };
	int st = sync_wait(c, &s, call_create(req_new(c, create_done, &s), dir, name, 1));

	if (st != NFS3_OK)
		return st;
	if (!s.fh.len)
		return sync_lookup(c, dir, name, out);
	*out = s.fh;
	return st;
}

int sync_rmdir(struct conn *c, const struct fh *dir, const char *name)
{
	struct sync s = { 0 };
	struct req *rq = req_new(c, sync_status_done, &s);
	RMDIR3args a;

	a.object.dir = fh_arg(dir);
	a.object.name = (char *)(uintptr_t)name;
	return sync_wait(c, &s, rpc_nfs3_rmdir_async(c->rpc, req_cb, &a, rq) < 0 ?
			 req_queue_failed(rq, "RMDIR") : 0);
}

int sync_remove(struct conn *c, const struct fh *dir, const char *name)
{
	struct sync s = { 0 };

	return sync_wait(c, &s, call_remove(req_new(c, sync_status_done, &s), dir, name));
}

static void fsinfo_done(struct req *rq, void *res)
{
	FSINFO3res *r = res;
	struct sync *s = rq->ctx;

	sync_status_done(rq, res);
	if (r && r->status == NFS3_OK) {
		s->rtmax = r->FSINFO3res_u.resok.rtmax;
		s->wtmax = r->FSINFO3res_u.resok.wtmax;
	}
}

int sync_fsinfo(struct conn *c, const struct fh *root, unsigned *rtmax, unsigned *wtmax)
{
	struct sync s = { 0 };
	struct req *rq = req_new(c, fsinfo_done, &s);
	FSINFO3args a;
	int st;

	a.fsroot = fh_arg(root);
	st = sync_wait(c, &s, rpc_nfs3_fsinfo_async(c->rpc, req_cb, &a, rq) < 0 ?
		       req_queue_failed(rq, "FSINFO") : 0);
	if (st == NFS3_OK) {
		*rtmax = s.rtmax;
		*wtmax = s.wtmax;
	}
	return st;
}

/* ---- removing a tree (cleanup; not timed) ---- */

struct listing {
	int done, status, eof;
	uint64_t cookie;
	char verf[NFS3_COOKIEVERFSIZE];
	char **names;
	int *isdir;
	size_t n, cap;
};

static void listing_add(struct listing *l, const char *name, int isdir)
{
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		char **names = realloc(l->names, cap * sizeof(*names));
		int *isd = realloc(l->isdir, cap * sizeof(*isd));

		if (!names || !isd)
			abort();
		l->names = names;
		l->isdir = isd;
		l->cap = cap;
	}
	l->names[l->n] = strdup(name);
	l->isdir[l->n++] = isdir;
}

static void list_done(struct req *rq, void *res)
{
	READDIRPLUS3res *r = res;
	struct listing *l = rq->ctx;

	l->done = 1;
	l->status = r ? (int)r->status : -1;
	if (!r || r->status != NFS3_OK)
		return;
	memcpy(l->verf, r->READDIRPLUS3res_u.resok.cookieverf, sizeof(l->verf));
	for (entryplus3 *e = r->READDIRPLUS3res_u.resok.reply.entries; e; e = e->nextentry) {
		int isdir = e->name_attributes.attributes_follow &&
			    e->name_attributes.post_op_attr_u.attributes.type == NF3DIR;

		listing_add(l, e->name, isdir);
		l->cookie = e->cookie;
	}
	l->eof = r->READDIRPLUS3res_u.resok.reply.eof;
}

static int list_dir(struct conn *c, const struct fh *dir, struct listing *l)
{
	while (!l->eof) {
		struct req *rq = req_new(c, list_done, l);
		READDIRPLUS3args a;

		a.dir = fh_arg(dir);
		a.cookie = l->cookie;
		memcpy(a.cookieverf, l->verf, sizeof(a.cookieverf));
		a.dircount = 8192;
		a.maxcount = 65536;
		l->done = 0;
		if (rpc_nfs3_readdirplus_async(c->rpc, req_cb, &a, rq) < 0) {
			req_queue_failed(rq, "READDIRPLUS");
			return -1;
		}
		if (loop_drain(c, 1) < 0 || !l->done || l->status != NFS3_OK)
			return -1;
	}
	return 0;
}

static void listing_free(struct listing *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l->isdir);
}

int remove_tree(struct conn *c, const struct fh *parent, const char *name)
{
	struct listing l;
	struct fh dir;
	int rc = 0;

	memset(&l, 0, sizeof(l));
	if (sync_lookup(c, parent, name, &dir) != NFS3_OK)
		return -1;
	if (list_dir(c, &dir, &l) < 0) {
		listing_free(&l);
		return -1;
	}
	for (size_t i = 0; i < l.n; i++) {
		int st = l.isdir[i] ? remove_tree(c, &dir, l.names[i]) : sync_remove(c, &dir, l.names[i]);

		if (st != 0)
			rc = -1;
	}
	listing_free(&l);
	if (sync_rmdir(c, parent, name) != NFS3_OK)
		rc = -1;
	return rc;
}

/* ---- the scratch directory ---- */

/* Walks O.dir (relative to the export root) component by component. */
int lookup_path(struct conn *c, const struct fh *root, const char *path, struct fh *out)
{
	char buf[1024], *save = NULL;

	*out = *root;
	snprintf(buf, sizeof(buf), "%s", path ? path : "");
	for (char *p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		struct fh next;
		int st = sync_lookup(c, out, p, &next);

		if (st != NFS3_OK) {
			bench_error("LOOKUP %s in %s: %s", p, path, nfsstat_name(st));
			return -1;
		}
		*out = next;
	}
	return 0;
}

int make_scratch(struct conn *c, const struct fh *root, const char *what,
		 struct fh *parent, char *name, size_t namesz, struct fh *out)
{
	int st;

	if (lookup_path(c, root, O.dir, parent) < 0)
		return -1;
	snprintf(name, namesz, "nfsbench-%s.%d", what, (int)getpid());
	st = sync_mkdir(c, parent, name, out);
	if (st == NFS3ERR_EXIST) {      /* left over from a crashed run with our pid */
		remove_tree(c, parent, name);
		st = sync_mkdir(c, parent, name, out);
	}
	if (st != NFS3_OK) {
		bench_error("MKDIR %s: %s", name, st < 0 ? "call failed" : nfsstat_name(st));
		return -1;
	}
	return 0;
}
