/*
 * mix.c - the SPEC SFS 3.0 NFSv3 operation mix over a working set that
 * the tool builds itself, run open-loop at a ladder of offered loads and
 * closed-loop to find the peak.  mix1 is the closed loop alone at 1 call
 * in flight per connection: how fast a lightly loaded server answers.
 *
 * Open loop: each connection gets offered/conns calls per second with
 * exponential (Poisson) interarrival times; a call's latency is measured
 * from when it was due, not from when it could be sent, so a server that
 * falls behind is charged for the queue it causes.  Calls still waiting
 * at the end of a step are not sent and are reported as "missed".
 *
 * Every reply is checked: status, READ data against the pattern the file
 * was written with (mix WRITEs rewrite the same bytes, so concurrent
 * READs stay checkable), LOOKUP handles against those CREATE returned,
 * READLINK targets, GETATTR types.
 */
#include "nfsbench.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum op {
	OP_GETATTR, OP_SETATTR, OP_LOOKUP, OP_READLINK, OP_READ, OP_WRITE, OP_CREATE,
	OP_REMOVE, OP_READDIR, OP_FSSTAT, OP_ACCESS, OP_COMMIT, OP_FSINFO, OP_READDIRPLUS,
	NOPS
};

/* SPEC SFS 3.0 (SFS97_R1) NFSv3 mix, percent */
static const struct { const char *name; int pct; } mixtab[NOPS] = {
	{ "getattr", 11 }, { "setattr", 1 }, { "lookup", 27 }, { "readlink", 7 },
	{ "read", 18 }, { "write", 9 }, { "create", 1 }, { "remove", 1 },
	{ "readdir", 2 }, { "fsstat", 1 }, { "access", 7 }, { "commit", 5 },
	{ "fsinfo", 1 }, { "readdirplus", 9 },
};

/*
 * File sizes of the working set, SFS-style: mostly small files, a few
 * large ones (percent of files).
 */
static const struct { unsigned size; int pct; } sizetab[] = {
	{ 1 * KiB, 33 }, { 2 * KiB, 21 }, { 4 * KiB, 13 }, { 8 * KiB, 10 },
	{ 16 * KiB, 8 }, { 32 * KiB, 5 }, { 64 * KiB, 4 }, { 128 * KiB, 3 },
	{ 256 * KiB, 2 }, { 1024 * KiB, 1 },
};

struct wsfile { struct fh fh; unsigned size, dir; uint64_t seed; char name[16]; };
struct wslink { struct fh fh; unsigned dir; char name[16], target[48]; };

struct ws {
	struct fh root, parent, top;
	char topname[64];
	struct fh *dirs;
	struct wsfile *files;
	struct wslink *links;
	int ndirs, nfiles, nlinks;
	uint64_t bytes;
	unsigned wmax;
};

static struct ws W;

#define RING 1024               /* names created and not yet removed, per conn */

struct cstate {
	struct rng rng;
	struct fh scratch;
	char ring[RING][32];         /* as long as req.name */
	unsigned head, tail, serial;
	char *wbuf;
	/* the current step */
	uint64_t next_due, ok, missed, last_done;
	double gap_ns;
	struct lat lat, op_lat[NOPS];
};

/* What all threads run now; set by the main thread between barriers. */
struct step {
	int open, quit;
	double rate;            /* per connection, calls/s */
	uint64_t start, end;
};

static struct step S;
static pthread_barrier_t step_begin, step_end;

/* mix or mix1: the name printed, and the prefix of the closed loop's keys */
static const char *mix_name = "mix", *closed_key = "mix.peak";

/* ---- the working set ---- */

static unsigned pick_size(struct rng *r)
{
	int x = (int)rng_below(r, 100), acc = 0;

	for (size_t i = 0; i < sizeof(sizetab) / sizeof(sizetab[0]); i++) {
		acc += sizetab[i].pct;
		if (x < acc)
			return sizetab[i].size;
	}
	return sizetab[0].size;
}

static void ws_plan(void)
{
	struct rng r = { O.seed };

	W.ndirs = O.ws_dirs;
	W.nfiles = O.ws_dirs * O.ws_files;
	W.nlinks = O.ws_dirs * O.ws_links;
	W.dirs = calloc((size_t)W.ndirs, sizeof(*W.dirs));
	W.files = calloc((size_t)W.nfiles, sizeof(*W.files));
	W.links = calloc((size_t)W.nlinks, sizeof(*W.links));
	if (!W.dirs || !W.files || !W.links)
		abort();
	for (int i = 0; i < W.nfiles; i++) {
		struct wsfile *f = &W.files[i];

		f->dir = (unsigned)(i % W.ndirs);
		f->size = pick_size(&r);
		f->seed = O.seed * 1000003u + (uint64_t)i;
		snprintf(f->name, sizeof(f->name), "f%05d", i);
		W.bytes += f->size;
	}
	for (int i = 0; i < W.nlinks; i++) {
		struct wslink *l = &W.links[i];

		l->dir = (unsigned)(i % W.ndirs);
		snprintf(l->name, sizeof(l->name), "l%05d", i);
		snprintf(l->target, sizeof(l->target), "../d%03u/f%05d", l->dir, i % W.nfiles);
	}
}

static int check_st(int st, const char *what, const char *name)
{
	if (st == NFS3_OK)
		return 0;
	bench_error("%s %s: %s", what, name, st < 0 ? "call failed" : nfsstat_name(st));
	return -1;
}

static void prep_create_done(struct req *rq, void *res)
{
	CREATE3res *r = res;
	struct wsfile *f = rq->ctx;

	if (!r || check_st((int)r->status, "CREATE", f->name) < 0)
		return;
	if (!r->CREATE3res_u.resok.obj.handle_follows) {
		bench_error("CREATE %s: the reply carries no handle", f->name);
		return;
	}
	fh_set(&f->fh, &r->CREATE3res_u.resok.obj.post_op_fh3_u.handle);
}

static int prep_create(struct conn *c, size_t i, void *arg)
{
	struct wsfile *f = &W.files[i];

	(void)arg;
	return call_create(req_new(c, prep_create_done, f), &W.dirs[f->dir], f->name, 1);
}

static void prep_write_done(struct req *rq, void *res)
{
	WRITE3res *r = res;

	if (r)
		check_st((int)r->status, "WRITE", ((struct wsfile *)rq->ctx)->name);
}

/* One WRITE per item of at most W.wmax bytes; items index (file, chunk). */
struct chunk { unsigned file; uint64_t off; unsigned len; };

static int prep_write(struct conn *c, size_t i, void *arg)
{
	struct chunk *ch = &((struct chunk *)arg)[i];
	struct wsfile *f = &W.files[ch->file];
	struct cstate *cs = c->wl;

	pattern_fill(cs->wbuf, f->seed, ch->off, ch->len);
	return call_write(req_new(c, prep_write_done, f), &f->fh, ch->off, cs->wbuf, ch->len, UNSTABLE);
}

static void prep_symlink_done(struct req *rq, void *res)
{
	SYMLINK3res *r = res;
	struct wslink *l = rq->ctx;

	if (!r || check_st((int)r->status, "SYMLINK", l->name) < 0)
		return;
	if (!r->SYMLINK3res_u.resok.obj.handle_follows) {
		bench_error("SYMLINK %s: the reply carries no handle", l->name);
		return;
	}
	fh_set(&l->fh, &r->SYMLINK3res_u.resok.obj.post_op_fh3_u.handle);
}

static int prep_symlink(struct conn *c, size_t i, void *arg)
{
	struct wslink *l = &W.links[i];
	struct req *rq = req_new(c, prep_symlink_done, l);
	SYMLINK3args a;

	(void)arg;
	memset(&a, 0, sizeof(a));
	a.where.dir = fh_arg(&W.dirs[l->dir]);
	a.where.name = l->name;
	a.symlink.symlink_attributes.mode.set_it = 1;
	a.symlink.symlink_attributes.mode.set_mode3_u.mode = 0777;
	a.symlink.symlink_data = l->target;
	if (rpc_nfs3_symlink_async(c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "SYMLINK");
	return 0;
}

static struct chunk *plan_chunks(size_t *n)
{
	size_t cap = 0, k = 0;
	struct chunk *v = NULL;

	for (int i = 0; i < W.nfiles; i++)
		cap += (W.files[i].size + W.wmax - 1) / W.wmax;
	v = calloc(cap, sizeof(*v));
	if (!v)
		abort();
	for (int i = 0; i < W.nfiles; i++)
		for (uint64_t off = 0; off < W.files[i].size; off += W.wmax) {
			v[k].file = (unsigned)i;
			v[k].off = off;
			v[k].len = (unsigned)(W.files[i].size - off < W.wmax ? W.files[i].size - off : W.wmax);
			k++;
		}
	*n = k;
	return v;
}

/* Per connection: a scratch directory for CREATE/REMOVE, with files to remove. */
static void ring_push(struct cstate *cs, const char *name);

static void prep_ring_done(struct req *rq, void *res)
{
	CREATE3res *r = res;

	if (r && check_st((int)r->status, "CREATE", rq->name) == 0)
		ring_push(rq->c->wl, rq->name);
}

static int prep_ring(struct conn *c, size_t i, void *arg)
{
	struct cstate *cs = c->wl;
	struct req *rq = req_new(c, prep_ring_done, NULL);

	(void)i;
	(void)arg;
	snprintf(rq->name, sizeof(rq->name), "n%07u", cs->serial++);
	return call_create(rq, &cs->scratch, rq->name, 1);
}

static int ws_build(struct conn *cs, int n)
{
	char name[32];
	struct chunk *chunks;
	size_t nchunks;
	int rc;

	for (int i = 0; i < W.ndirs; i++) {
		snprintf(name, sizeof(name), "d%03d", i);
		if (check_st(sync_mkdir(&cs[0], &W.top, name, &W.dirs[i]), "MKDIR", name) < 0)
			return -1;
	}
	for (int i = 0; i < n; i++) {
		struct cstate *st = cs[i].wl;

		snprintf(name, sizeof(name), "c%03d", i);
		if (check_st(sync_mkdir(&cs[0], &W.top, name, &st->scratch), "MKDIR", name) < 0)
			return -1;
	}
	if (run_batch(cs, n, (size_t)W.nfiles, 16, prep_create, NULL) < 0)
		return -1;
	chunks = plan_chunks(&nchunks);
	rc = run_batch(cs, n, nchunks, 8, prep_write, chunks);
	free(chunks);
	if (rc < 0 || run_batch(cs, n, (size_t)W.nlinks, 16, prep_symlink, NULL) < 0)
		return -1;
	/* RING/2 files to remove per connection: REMOVE never runs dry */
	return run_batch(cs, n, (size_t)n * RING / 2, 16, prep_ring, NULL);
}

/* ---- the operations ---- */

static void ring_push(struct cstate *cs, const char *name)
{
	if (cs->head - cs->tail >= RING)
		return;          /* full: the file stays (cleanup removes it) */
	snprintf(cs->ring[cs->head++ % RING], sizeof(cs->ring[0]), "%s", name);
}

static void op_done(struct req *rq, int ok)
{
	struct cstate *cs = rq->c->wl;
	uint64_t t = now_ns();

	if (!ok)
		return;
	cs->ok++;
	cs->last_done = t;
	lat_add(&cs->lat, t - rq->t0);
	lat_add(&cs->op_lat[rq->kind], t - rq->t0);
}

/* Checks the nfsstat3 every result starts with. */
static int reply_ok(struct req *rq, void *res)
{
	int st;

	if (!res)
		return 0;
	st = *(int *)res;
	if (st != NFS3_OK) {
		bench_error("%s: %s", mixtab[rq->kind].name, nfsstat_name(st));
		return 0;
	}
	return 1;
}

static void done_status(struct req *rq, void *res)
{
	op_done(rq, reply_ok(rq, res));
}

static void done_getattr(struct req *rq, void *res)
{
	GETATTR3res *r = res;
	int ok = reply_ok(rq, res);

	if (ok && (uint64_t)r->GETATTR3res_u.resok.obj_attributes.type != rq->u64) {
		bench_error("getattr: type %d, expected %d", (int)r->GETATTR3res_u.resok.obj_attributes.type,
			    (int)rq->u64);
		ok = 0;
	}
	op_done(rq, ok);
}

static void done_lookup(struct req *rq, void *res)
{
	LOOKUP3res *r = res;
	struct wsfile *f = rq->ctx;
	int ok = reply_ok(rq, res);

	if (ok) {
		nfs_fh3 *h = &r->LOOKUP3res_u.resok.object;

		if (h->data.data_len != f->fh.len || memcmp(h->data.data_val, f->fh.data, f->fh.len)) {
			bench_error("lookup %s: handle differs from the one CREATE returned", f->name);
			ok = 0;
		}
	}
	op_done(rq, ok);
}

static void done_readlink(struct req *rq, void *res)
{
	READLINK3res *r = res;
	struct wslink *l = rq->ctx;
	int ok = reply_ok(rq, res);

	if (ok && strcmp(r->READLINK3res_u.resok.data, l->target)) {
		bench_error("readlink %s: '%s', expected '%s'", l->name, r->READLINK3res_u.resok.data, l->target);
		ok = 0;
	}
	op_done(rq, ok);
}

static void done_read(struct req *rq, void *res)
{
	READ3res *r = res;
	struct wsfile *f = rq->ctx;
	int ok = reply_ok(rq, res);

	if (ok) {
		READ3resok *k = &r->READ3res_u.resok;
		unsigned want = (unsigned)(f->size - rq->u64 < O.io_size ? f->size - rq->u64 : O.io_size);
		long long bad;

		if (k->count != want || k->data.data_len != want) {
			bench_error("read %s at %llu: %u bytes, expected %u", f->name,
				    (unsigned long long)rq->u64, k->count, want);
			ok = 0;
		} else if ((bad = pattern_check(k->data.data_val, f->seed, rq->u64, want)) >= 0) {
			bench_error("read %s: wrong data at offset %llu", f->name,
				    (unsigned long long)(rq->u64 + (uint64_t)bad));
			ok = 0;
		}
	}
	op_done(rq, ok);
}

static void done_write(struct req *rq, void *res)
{
	WRITE3res *r = res;
	int ok = reply_ok(rq, res);

	if (ok && r->WRITE3res_u.resok.count != (unsigned)rq->u64) {
		bench_error("write: %u bytes written of %u", r->WRITE3res_u.resok.count, (unsigned)rq->u64);
		ok = 0;
	}
	op_done(rq, ok);
}

static void done_create(struct req *rq, void *res)
{
	int ok = reply_ok(rq, res);

	if (ok)
		ring_push(rq->c->wl, rq->name);
	op_done(rq, ok);
}

static void done_readdir(struct req *rq, void *res)
{
	int ok = reply_ok(rq, res);
	int n = 0;

	if (ok && rq->kind == OP_READDIR) {
		for (entry3 *e = ((READDIR3res *)res)->READDIR3res_u.resok.reply.entries; e; e = e->nextentry)
			n++;
	} else if (ok) {
		for (entryplus3 *e = ((READDIRPLUS3res *)res)->READDIRPLUS3res_u.resok.reply.entries; e;
		     e = e->nextentry)
			n++;
	}
	if (ok && n == 0) {
		bench_error("%s: no entries", mixtab[rq->kind].name);
		ok = 0;
	}
	op_done(rq, ok);
}

static struct wsfile *rnd_file(struct cstate *cs)
{
	return &W.files[rng_below(&cs->rng, (unsigned)W.nfiles)];
}

/* An I/O-sized, aligned piece of f: the offset; the length goes to *len. */
static uint64_t rnd_block(struct cstate *cs, const struct wsfile *f, unsigned *len)
{
	unsigned nblk = (f->size + O.io_size - 1) / O.io_size;
	uint64_t off = (uint64_t)rng_below(&cs->rng, nblk) * O.io_size;

	*len = (unsigned)(f->size - off < O.io_size ? f->size - off : O.io_size);
	return off;
}

static int issue_getattr(struct req *rq, struct cstate *cs)
{
	unsigned x = rng_below(&cs->rng, 10);
	const struct fh *f;

	/* 80 % files, 10 % directories, 10 % symlinks */
	if (x < 8) {
		f = &rnd_file(cs)->fh;
		rq->u64 = NF3REG;
	} else if (x == 8) {
		f = &W.dirs[rng_below(&cs->rng, (unsigned)W.ndirs)];
		rq->u64 = NF3DIR;
	} else {
		f = &W.links[rng_below(&cs->rng, (unsigned)W.nlinks)].fh;
		rq->u64 = NF3LNK;
	}
	rq->done = done_getattr;
	return call_getattr(rq, f);
}

static int issue_setattr(struct req *rq, struct cstate *cs)
{
	SETATTR3args a;

	memset(&a, 0, sizeof(a));
	a.object = fh_arg(&rnd_file(cs)->fh);
	a.new_attributes.mode.set_it = 1;
	a.new_attributes.mode.set_mode3_u.mode = rng_below(&cs->rng, 2) ? 0644 : 0664;
	if (rpc_nfs3_setattr_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "SETATTR");
	return 0;
}

static int issue_lookup(struct req *rq, struct cstate *cs)
{
	struct wsfile *f = rnd_file(cs);

	rq->ctx = f;
	rq->done = done_lookup;
	return call_lookup(rq, &W.dirs[f->dir], f->name);
}

static int issue_readlink(struct req *rq, struct cstate *cs)
{
	struct wslink *l = &W.links[rng_below(&cs->rng, (unsigned)W.nlinks)];
	READLINK3args a;

	rq->ctx = l;
	rq->done = done_readlink;
	a.symlink = fh_arg(&l->fh);
	if (rpc_nfs3_readlink_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "READLINK");
	return 0;
}

static int issue_read(struct req *rq, struct cstate *cs)
{
	struct wsfile *f = rnd_file(cs);
	unsigned len;

	rq->ctx = f;
	rq->u64 = rnd_block(cs, f, &len);
	rq->done = done_read;
	return call_read(rq, &f->fh, rq->u64, len);
}

static int issue_write(struct req *rq, struct cstate *cs)
{
	struct wsfile *f = rnd_file(cs);
	unsigned len;
	uint64_t off = rnd_block(cs, f, &len);

	pattern_fill(cs->wbuf, f->seed, off, len);
	rq->u64 = len;
	rq->done = done_write;
	return call_write(rq, &f->fh, off, cs->wbuf, len, UNSTABLE);
}

static int issue_create(struct req *rq, struct cstate *cs)
{
	rq->kind = OP_CREATE;
	rq->done = done_create;
	snprintf(rq->name, sizeof(rq->name), "n%07u", cs->serial++);
	return call_create(rq, &cs->scratch, rq->name, 0);
}

static int issue_remove(struct req *rq, struct cstate *cs)
{
	if (cs->head == cs->tail)       /* nothing left to remove */
		return issue_create(rq, cs);
	snprintf(rq->name, sizeof(rq->name), "%s", cs->ring[cs->tail++ % RING]);
	return call_remove(rq, &cs->scratch, rq->name);
}

static int issue_readdir(struct req *rq, struct cstate *cs)
{
	const struct fh *d = &W.dirs[rng_below(&cs->rng, (unsigned)W.ndirs)];

	rq->done = done_readdir;
	if (rq->kind == OP_READDIR) {
		READDIR3args a;

		memset(&a, 0, sizeof(a));
		a.dir = fh_arg(d);
		a.count = 8192;
		if (rpc_nfs3_readdir_async(rq->c->rpc, req_cb, &a, rq) < 0)
			return req_queue_failed(rq, "READDIR");
	} else {
		READDIRPLUS3args a;

		memset(&a, 0, sizeof(a));
		a.dir = fh_arg(d);
		a.dircount = O.dircount;
		a.maxcount = O.maxcount;
		if (rpc_nfs3_readdirplus_async(rq->c->rpc, req_cb, &a, rq) < 0)
			return req_queue_failed(rq, "READDIRPLUS");
	}
	return 0;
}

static int issue_fs(struct req *rq)
{
	FSSTAT3args s;
	FSINFO3args i;

	if (rq->kind == OP_FSSTAT) {
		s.fsroot = fh_arg(&W.root);
		if (rpc_nfs3_fsstat_async(rq->c->rpc, req_cb, &s, rq) < 0)
			return req_queue_failed(rq, "FSSTAT");
	} else {
		i.fsroot = fh_arg(&W.root);
		if (rpc_nfs3_fsinfo_async(rq->c->rpc, req_cb, &i, rq) < 0)
			return req_queue_failed(rq, "FSINFO");
	}
	return 0;
}

static int issue_access(struct req *rq, struct cstate *cs)
{
	ACCESS3args a;

	a.object = fh_arg(&rnd_file(cs)->fh);
	a.access = ACCESS3_READ | ACCESS3_LOOKUP | ACCESS3_MODIFY | ACCESS3_EXTEND |
		   ACCESS3_DELETE | ACCESS3_EXECUTE;
	if (rpc_nfs3_access_async(rq->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "ACCESS");
	return 0;
}

static enum op pick_op(struct cstate *cs)
{
	int x = (int)rng_below(&cs->rng, 100), acc = 0;

	for (int i = 0; i < NOPS; i++) {
		acc += mixtab[i].pct;
		if (x < acc)
			return (enum op)i;
	}
	return OP_LOOKUP;
}

/* Issues one call of the mix, due at t0. */
static int issue(struct conn *c, uint64_t t0)
{
	struct cstate *cs = c->wl;
	struct req *rq = req_new(c, done_status, NULL);

	rq->t0 = t0;
	rq->kind = pick_op(cs);
	switch (rq->kind) {
	case OP_GETATTR: return issue_getattr(rq, cs);
	case OP_SETATTR: return issue_setattr(rq, cs);
	case OP_LOOKUP: return issue_lookup(rq, cs);
	case OP_READLINK: return issue_readlink(rq, cs);
	case OP_READ: return issue_read(rq, cs);
	case OP_WRITE: return issue_write(rq, cs);
	case OP_CREATE: return issue_create(rq, cs);
	case OP_REMOVE: return issue_remove(rq, cs);
	case OP_READDIR:
	case OP_READDIRPLUS: return issue_readdir(rq, cs);
	case OP_FSSTAT:
	case OP_FSINFO: return issue_fs(rq);
	case OP_ACCESS: return issue_access(rq, cs);
	case OP_COMMIT: return call_commit(rq, &rnd_file(cs)->fh);
	default: return req_queue_failed(rq, "?");
	}
}

/* ---- running steps: one thread per slice of the connections ---- */

struct slice { struct conn *cs; int n; };

static uint64_t pump_closed(struct conn *c, uint64_t t)
{
	if (t >= S.end)
		return UINT64_MAX;
	while (c->inflight < O.depth)
		if (issue(c, now_ns()) < 0)
			break;
	return S.end - t;
}

static uint64_t pump_open(struct conn *c, uint64_t t)
{
	struct cstate *cs = c->wl;

	while (cs->next_due <= t && cs->next_due < S.end) {
		if (t >= S.end) {       /* the step is over: what is still due is missed */
			cs->missed++;
		} else if (c->inflight >= O.max_inflight) {
			return UINT64_MAX;
		} else if (issue(c, cs->next_due) < 0) {
			break;
		}
		cs->next_due += (uint64_t)rng_exp(&cs->rng, cs->gap_ns);
	}
	if (cs->next_due >= S.end)
		return t < S.end ? S.end - t : UINT64_MAX;
	return cs->next_due - t;
}

static uint64_t mix_pump(struct conn *c, void *arg)
{
	uint64_t t = now_ns();

	(void)arg;
	return S.open ? pump_open(c, t) : pump_closed(c, t);
}

static int mix_stop(void *arg)
{
	struct slice *sl = arg;

	if (now_ns() < S.end)
		return 0;
	for (int i = 0; i < sl->n; i++)
		if (sl->cs[i].inflight)
			return 0;
	return 1;
}

static void *mix_thread(void *arg)
{
	struct slice *sl = arg;

	for (;;) {
		pthread_barrier_wait(&step_begin);
		if (S.quit)
			break;
		for (int i = 0; i < sl->n; i++) {
			struct cstate *cs = sl->cs[i].wl;

			cs->next_due = S.start;
			cs->gap_ns = S.rate > 0 ? 1e9 / S.rate : 0;
		}
		loop_run(sl->cs, sl->n, mix_pump, mix_stop, sl);
		pthread_barrier_wait(&step_end);
	}
	return NULL;
}

struct stepres { double achieved, mean, p50, p99; uint64_t ok, missed; };

/* Merges the connections' numbers for the step just run, and resets them. */
static struct stepres collect(struct conn *cs, int n, struct lat *all, struct lat *per_op)
{
	struct stepres r = { 0 };
	uint64_t last = S.end;

	lat_reset(all);
	for (int k = 0; per_op && k < NOPS; k++)
		lat_reset(&per_op[k]);
	for (int i = 0; i < n; i++) {
		struct cstate *c = cs[i].wl;

		r.ok += c->ok;
		r.missed += c->missed;
		if (c->last_done > last)
			last = c->last_done;
		lat_merge(all, &c->lat);
		for (int k = 0; per_op && k < NOPS; k++)
			lat_merge(&per_op[k], &c->op_lat[k]);
		c->ok = c->missed = c->last_done = 0;
		lat_reset(&c->lat);
		for (int k = 0; k < NOPS; k++)
			lat_reset(&c->op_lat[k]);
	}
	r.achieved = (double)r.ok / secs(last - S.start);
	r.mean = lat_mean_ms(all);
	r.p50 = lat_pct_ms(all, 50);
	r.p99 = lat_pct_ms(all, 99);
	return r;
}

/*
 * Runs one step; returns the server's CPU time over it (-1: unknown).  The
 * step ends when the last call is answered and starts with nothing in
 * flight, so that CPU time belongs to the calls the step counts.
 */
static int64_t run_step(int open, double total_rate, double seconds, int nconns)
{
	int64_t cpu0 = server_cpu_ns(), cpu1;

	S.open = open;
	S.rate = total_rate / nconns;
	S.start = now_ns() + 1000000;   /* 1 ms for every thread to get going */
	S.end = S.start + (uint64_t)(seconds * 1e9);
	pthread_barrier_wait(&step_begin);
	pthread_barrier_wait(&step_end);
	cpu1 = server_cpu_ns();
	return cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0;
}

/* "12.3" or "-": the server's CPU per call, for the tables */
static const char *cpu_str(char *buf, size_t sz, double us)
{
	if (us < 0)
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%.1f", us);
	return buf;
}

/* Each operation's p99 as key=value; returns the operation whose p99 is worst. */
static int op_p99s(const char *prefix, struct lat *per_op, double *worst)
{
	int w = 0;

	*worst = -1;
	for (int k = 0; k < NOPS; k++) {
		char key[96];
		double p = lat_pct_ms(&per_op[k], 99);

		if (!per_op[k].n)
			continue;
		snprintf(key, sizeof(key), "%s.%s.p99_ms", prefix, mixtab[k].name);
		result(key, "%.3f", p);
		if (p > *worst) {
			*worst = p;
			w = k;
		}
	}
	return w;
}

/* closed_key.NAME=V with that many decimals */
static void closed_result(const char *name, int decimals, double v)
{
	char key[96];

	snprintf(key, sizeof(key), "%s.%s", closed_key, name);
	result(key, "%.*f", decimals, v);
}

static void print_peak(struct conn *cs, int n)
{
	struct lat all = { 0 }, per_op[NOPS];
	struct stepres r;
	double worst, cpu;
	int64_t cpu_ns;
	char buf[32];

	memset(per_op, 0, sizeof(per_op));
	cpu_ns = run_step(0, 0, O.duration, n);
	r = collect(cs, n, &all, per_op);
	if (bench_failed())
		return;
	cpu = cpu_us_per_call(0, cpu_ns, r.ok);
	printf("\nclosed loop, %d connection%s x %d call%s in flight, %.0f s:\n", n, n == 1 ? "" : "s",
	       O.depth, O.depth == 1 ? "" : "s", O.duration);
	printf("  %s %.0f ops/s, mean %.3f ms, p50 %.3f ms, p99 %.3f ms, server CPU %s us/call\n\n",
	       O.depth == 1 ? "at 1 in flight:" : "peak", r.achieved, r.mean, r.p50, r.p99,
	       cpu_str(buf, sizeof(buf), cpu));
	printf("  %-12s %9s %9s %9s\n", "op", "calls", "mean ms", "p99 ms");
	closed_result("ops_s", 0, r.achieved);
	closed_result("mean_ms", 3, r.mean);
	closed_result("p50_ms", 3, r.p50);
	closed_result("p99_ms", 3, r.p99);
	if (cpu >= 0)
		closed_result("cpu_us_per_op", 2, cpu);
	for (int k = 0; k < NOPS; k++) {
		char key[64];
		double m = lat_mean_ms(&per_op[k]), p = lat_pct_ms(&per_op[k], 99);

		printf("  %-12s %9zu %9.3f %9.3f\n", mixtab[k].name, per_op[k].n, m, p);
		snprintf(key, sizeof(key), "%s.mean_ms", mixtab[k].name);
		closed_result(key, 3, m);
	}
	op_p99s(closed_key, per_op, &worst);
	lat_free(&all);
	for (int k = 0; k < NOPS; k++)
		lat_free(&per_op[k]);
}

static void print_ladder(struct conn *cs, int n)
{
	struct lat all = { 0 }, per_op[NOPS];
	char *list = strdup(O.loads), *save = NULL;

	memset(per_op, 0, sizeof(per_op));
	printf("\nopen loop, %d connections, Poisson arrivals, %.0f s per load:\n", n, O.duration);
	printf("  %10s %10s %9s %9s %8s %7s   %s\n", "offered/s", "achieved/s", "mean ms", "p99 ms", "missed",
	       "srv us", "worst op: its p99 ms");
	for (char *p = strtok_r(list, ",", &save); p && !bench_failed(); p = strtok_r(NULL, ",", &save)) {
		double load = atof(p);
		struct stepres r;
		char key[64], buf[32];
		double worst, cpu;
		int64_t cpu_ns;
		int w;

		if (load <= 0)
			continue;
		cpu_ns = run_step(1, load, O.duration, n);
		r = collect(cs, n, &all, per_op);
		if (bench_failed())
			break;
		cpu = cpu_us_per_call(0, cpu_ns, r.ok);
		snprintf(key, sizeof(key), "mix.load.%.0f", load);
		w = op_p99s(key, per_op, &worst);
		printf("  %10.0f %10.0f %9.3f %9.3f %8llu %7s   %s: %.3f\n", load, r.achieved, r.mean, r.p99,
		       (unsigned long long)r.missed, cpu_str(buf, sizeof(buf), cpu), mixtab[w].name, worst);
		fflush(stdout);
		snprintf(key, sizeof(key), "mix.load.%.0f.achieved", load);
		result(key, "%.0f", r.achieved);
		snprintf(key, sizeof(key), "mix.load.%.0f.mean_ms", load);
		result(key, "%.3f", r.mean);
		snprintf(key, sizeof(key), "mix.load.%.0f.p99_ms", load);
		result(key, "%.3f", r.p99);
		snprintf(key, sizeof(key), "mix.load.%.0f.missed", load);
		result(key, "%llu", (unsigned long long)r.missed);
		snprintf(key, sizeof(key), "mix.load.%.0f.cpu_us_per_op", load);
		if (cpu >= 0)
			result(key, "%.2f", cpu);
	}
	free(list);
	lat_free(&all);
	for (int k = 0; k < NOPS; k++)
		lat_free(&per_op[k]);
}

/* Runs warmup, peak and ladder with the threads, then stops them. */
static void measure(struct conn *cs, int n)
{
	int nt = O.threads < n ? O.threads : n;
	pthread_t *th = calloc((size_t)nt, sizeof(*th));
	struct slice *sl = calloc((size_t)nt, sizeof(*sl));
	struct lat all = { 0 };

	pthread_barrier_init(&step_begin, NULL, (unsigned)nt + 1);
	pthread_barrier_init(&step_end, NULL, (unsigned)nt + 1);
	for (int t = 0; t < nt; t++) {
		sl[t].cs = cs + t * n / nt;
		sl[t].n = (t + 1) * n / nt - t * n / nt;
		pthread_create(&th[t], NULL, mix_thread, &sl[t]);
	}
	if (O.warmup > 0) {
		run_step(0, 0, O.warmup, n);
		collect(cs, n, &all, NULL);
	}
	bench_hook("start");
	if (!O.no_peak && !bench_failed())
		print_peak(cs, n);
	if (!O.no_ladder && !bench_failed())
		print_ladder(cs, n);
	bench_hook("stop");
	S.quit = 1;
	pthread_barrier_wait(&step_begin);
	for (int t = 0; t < nt; t++)
		pthread_join(th[t], NULL);
	pthread_barrier_destroy(&step_begin);
	pthread_barrier_destroy(&step_end);
	free(th);
	free(sl);
	lat_free(&all);
}

static void cstates_free(struct conn *cs, int n)
{
	for (int i = 0; i < n; i++) {
		struct cstate *c = cs[i].wl;

		if (!c)
			continue;
		free(c->wbuf);
		lat_free(&c->lat);
		for (int k = 0; k < NOPS; k++)
			lat_free(&c->op_lat[k]);
		free(c);
	}
}

int run_mix(void)
{
	int n = O.conns;
	unsigned rtmax, wtmax;
	struct conn *cs = conns_open(n, &W.root);

	if (!cs)
		return -1;
	ws_plan();
	for (int i = 0; i < n; i++) {
		struct cstate *c = calloc(1, sizeof(*c));

		c->rng.s = O.seed + 7919u * (uint64_t)(i + 1);
		c->wbuf = malloc(MiB);
		cs[i].wl = c;
	}
	if (check_st(sync_fsinfo(&cs[0], &W.root, &rtmax, &wtmax), "FSINFO", "/") == 0) {
		W.wmax = wtmax < MiB ? wtmax : MiB;
		if (O.io_size > rtmax || O.io_size > wtmax)
			bench_error("--io-size %u exceeds the server's rtmax %u / wtmax %u", O.io_size, rtmax, wtmax);
	}
	printf("%s: SPEC SFS 3.0 NFSv3 mix; working set %d dirs, %d files (%.1f MiB), %d symlinks; "
	       "%u-byte READ/WRITE\n", mix_name, W.ndirs, W.nfiles, (double)W.bytes / MiB, W.nlinks, O.io_size);
	fflush(stdout);
	if (!bench_failed() &&
	    make_scratch(&cs[0], &W.root, mix_name, &W.parent, W.topname, sizeof(W.topname), &W.top) == 0) {
		if (ws_build(cs, n) == 0 && !bench_failed())
			measure(cs, n);
		loop_drain(cs, n);
		if (!O.keep)
			remove_tree(&cs[0], &W.parent, W.topname);
	}
	cstates_free(cs, n);
	conns_close(cs, n);
	free(W.dirs);
	free(W.files);
	free(W.links);
	return bench_failed() ? -1 : 0;
}

/*
 * mix1: the closed loop alone, 1 call in flight per connection (run_one
 * makes that the default --depth): the latency of a lightly loaded
 * server, which the peak's queues hide.  Keys mix1.ops_s, .mean_ms, ...
 */
int run_mix1(void)
{
	mix_name = "mix1";
	closed_key = "mix1";
	O.no_peak = 0;
	O.no_ladder = 1;
	return run_mix();
}
