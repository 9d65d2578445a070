/*
 * walk.c - walk a large tree that is already there (run-bench makes one of
 * 1000 directories of 1000 files on the server's file system before the
 * servers start, with mktree below): READDIRPLUS every directory, LOOKUP and GETATTR every
 * entry, with --depth calls in flight on each of --conns connections.
 * What `ls -lR` or a backup program's scan asks of a server; run-bench
 * watches the server's resident memory meanwhile.  Reports entries/s.
 *
 * The walk starts at --dir (the export's root when not given) and goes
 * into every directory it finds.  Listings are read as the entries they
 * bring are used up (at most --conns directories at a time, and only
 * while fewer than WALK_BACKLOG entries wait for their LOOKUP), so the
 * client's memory stays small whatever the tree.
 *
 * Checks: every call succeeds; every listed entry comes with attributes
 * and a handle; LOOKUP returns the handle READDIRPLUS gave; GETATTR of
 * that handle gives the file type and fileid READDIRPLUS gave; no name
 * is listed twice in a directory (a set of 64-bit hashes of directory
 * handle and name); and, with --expect N, the walk finds exactly N
 * entries below its start.
 */
#include "nfsbench.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WALK_BACKLOG 2048       /* entries waiting for LOOKUP before listing pauses */

struct wdir {                   /* a directory still to be (fully) listed */
	struct wdir *next;
	struct fh fh;
	uint64_t cookie;
	char verf[NFS3_COOKIEVERFSIZE];
	size_t listed;
	int calls;
};

struct went {                   /* an entry waiting for, or in, LOOKUP + GETATTR */
	struct went *next;
	struct fh parent, fh;       /* fh: what READDIRPLUS gave */
	uint64_t fileid;
	int type;
	char name[];
};

struct walk {
	struct conn *cs;
	int n;
	struct wdir *ready;         /* directories with more to list, none in flight */
	struct went *head, *tail;   /* entries waiting for LOOKUP */
	size_t backlog;
	int listing;                /* READDIRPLUS in flight */
	uint64_t entries, dirs, files, rdp_calls, lookups, getattrs;
	uint64_t *seen;             /* open addressing; 0 = free */
	size_t nseen, seen_cap;
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		bench_error("out of memory");
		abort();
	}
	return p;
}

/* FNV-1a over the directory's handle and the name; never 0. */
static uint64_t name_key(const struct fh *dir, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned i = 0; i < dir->len; i++)
		h = (h ^ (unsigned char)dir->data[i]) * 0x100000001b3ull;
	h = (h ^ 0xff) * 0x100000001b3ull;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return h ? h : 1;
}

static void seen_put(uint64_t *tab, size_t cap, uint64_t k)
{
	size_t i = (size_t)(k ^ (k >> 29)) & (cap - 1);

	while (tab[i])
		i = (i + 1) & (cap - 1);
	tab[i] = k;
}

/* Returns 0 when the key is new (and adds it), 1 when it was there. */
static int seen_add(struct walk *w, uint64_t k)
{
	size_t i;

	if (2 * (w->nseen + 1) > w->seen_cap) {
		size_t cap = w->seen_cap ? 2 * w->seen_cap : 65536;
		uint64_t *tab = calloc(cap, sizeof(*tab));

		if (!tab) {
			bench_error("out of memory");
			abort();
		}
		for (i = 0; i < w->seen_cap; i++)
			if (w->seen[i])
				seen_put(tab, cap, w->seen[i]);
		free(w->seen);
		w->seen = tab;
		w->seen_cap = cap;
	}
	for (i = (size_t)(k ^ (k >> 29)) & (w->seen_cap - 1); w->seen[i]; i = (i + 1) & (w->seen_cap - 1))
		if (w->seen[i] == k)
			return 1;
	w->seen[i] = k;
	w->nseen++;
	return 0;
}

static void push_dir(struct walk *w, const struct fh *fh)
{
	struct wdir *d = xmalloc(sizeof(*d));

	memset(d, 0, sizeof(*d));
	d->fh = *fh;
	d->next = w->ready;
	w->ready = d;
}

/* ---- LOOKUP, then GETATTR of the handle it returned ---- */

static void getattr_done(struct req *rq, void *res)
{
	struct walk *w = rq->c->wl;
	struct went *e = rq->ctx;
	GETATTR3res *r = res;

	if (!r)
		goto out;
	if (r->status != NFS3_OK) {
		bench_error("GETATTR %s: %s", e->name, nfsstat_name((int)r->status));
		goto out;
	}
	w->getattrs++;
	if ((int)r->GETATTR3res_u.resok.obj_attributes.type != e->type ||
	    r->GETATTR3res_u.resok.obj_attributes.fileid != e->fileid) {
		bench_error("GETATTR %s: type %d fileid %llu, READDIRPLUS said type %d fileid %llu", e->name,
			    (int)r->GETATTR3res_u.resok.obj_attributes.type,
			    (unsigned long long)r->GETATTR3res_u.resok.obj_attributes.fileid,
			    e->type, (unsigned long long)e->fileid);
		goto out;
	}
	w->entries++;
	if (e->type == NF3DIR) {
		w->dirs++;
		push_dir(w, &e->fh);
	} else {
		w->files++;
	}
out:
	free(e);
}

static void lookup_done(struct req *rq, void *res)
{
	struct walk *w = rq->c->wl;
	struct went *e = rq->ctx;
	LOOKUP3res *r = res;
	nfs_fh3 *h;

	if (!r) {
		free(e);
		return;
	}
	if (r->status != NFS3_OK) {
		bench_error("LOOKUP %s: %s", e->name, nfsstat_name((int)r->status));
		free(e);
		return;
	}
	w->lookups++;
	h = &r->LOOKUP3res_u.resok.object;
	if (h->data.data_len != e->fh.len || memcmp(h->data.data_val, e->fh.data, e->fh.len)) {
		bench_error("LOOKUP %s: handle differs from the one READDIRPLUS gave", e->name);
		free(e);
		return;
	}
	if (call_getattr(req_new(rq->c, getattr_done, e), &e->fh) < 0)
		free(e);
}

/* ---- READDIRPLUS, one call in flight per directory, continuing at its cookie ---- */

static void list_done(struct req *rq, void *res)
{
	struct walk *w = rq->c->wl;
	struct wdir *d = rq->ctx;
	READDIRPLUS3res *r = res;

	w->listing--;
	if (!r) {
		free(d);
		return;
	}
	if (r->status != NFS3_OK) {
		bench_error("READDIRPLUS (after %zu entries): %s", d->listed, nfsstat_name((int)r->status));
		free(d);
		return;
	}
	w->rdp_calls++;
	memcpy(d->verf, r->READDIRPLUS3res_u.resok.cookieverf, sizeof(d->verf));
	for (entryplus3 *x = r->READDIRPLUS3res_u.resok.reply.entries; x; x = x->nextentry) {
		size_t len = strlen(x->name);
		struct went *e;

		d->cookie = x->cookie;
		if (!strcmp(x->name, ".") || !strcmp(x->name, ".."))
			continue;
		if (!x->name_attributes.attributes_follow || !x->name_handle.handle_follows ||
		    !x->name_handle.post_op_fh3_u.handle.data.data_len) {
			bench_error("READDIRPLUS: '%s' without attributes or handle", x->name);
			continue;
		}
		if (seen_add(w, name_key(&d->fh, x->name))) {
			bench_error("READDIRPLUS: '%s' listed twice in its directory", x->name);
			continue;
		}
		e = xmalloc(sizeof(*e) + len + 1);
		e->next = NULL;
		e->parent = d->fh;
		fh_set(&e->fh, &x->name_handle.post_op_fh3_u.handle);
		e->fileid = x->name_attributes.post_op_attr_u.attributes.fileid;
		e->type = (int)x->name_attributes.post_op_attr_u.attributes.type;
		memcpy(e->name, x->name, len + 1);
		if (w->tail)
			w->tail->next = e;
		else
			w->head = e;
		w->tail = e;
		w->backlog++;
		d->listed++;
	}
	if (r->READDIRPLUS3res_u.resok.reply.eof) {
		free(d);
	} else if (!r->READDIRPLUS3res_u.resok.reply.entries) {
		bench_error("READDIRPLUS: no entries and no eof (after %zu entries)", d->listed);
		free(d);
	} else {
		d->next = w->ready;
		w->ready = d;
	}
}

static int issue_list(struct walk *w, struct conn *c)
{
	struct wdir *d = w->ready;
	struct req *rq = req_new(c, list_done, d);
	READDIRPLUS3args a;

	w->ready = d->next;
	a.dir = fh_arg(&d->fh);
	a.cookie = d->cookie;
	memcpy(a.cookieverf, d->verf, sizeof(a.cookieverf));
	a.dircount = O.dircount;
	a.maxcount = O.maxcount;
	d->calls++;
	w->listing++;
	if (rpc_nfs3_readdirplus_async(c->rpc, req_cb, &a, rq) < 0) {
		w->listing--;
		free(d);
		return req_queue_failed(rq, "READDIRPLUS");
	}
	return 0;
}

static int issue_lookup(struct walk *w, struct conn *c)
{
	struct went *e = w->head;

	w->head = e->next;
	if (!w->head)
		w->tail = NULL;
	w->backlog--;
	if (call_lookup(req_new(c, lookup_done, e), &e->parent, e->name) < 0) {
		free(e);
		return -1;
	}
	return 0;
}

static uint64_t walk_pump(struct conn *c, void *arg)
{
	struct walk *w = arg;

	while (c->inflight < O.depth && !bench_failed()) {
		if (w->ready && w->listing < w->n && w->backlog < WALK_BACKLOG) {
			if (issue_list(w, c) < 0)
				break;
		} else if (w->head) {
			if (issue_lookup(w, c) < 0)
				break;
		} else {
			break;
		}
	}
	return UINT64_MAX;
}

static int walk_stop(void *arg)
{
	struct walk *w = arg;

	if (w->ready || w->head || w->listing)
		return 0;
	for (int i = 0; i < w->n; i++)
		if (w->cs[i].inflight)
			return 0;
	return 1;
}

static void walk_free(struct walk *w)
{
	while (w->ready) {
		struct wdir *d = w->ready;

		w->ready = d->next;
		free(d);
	}
	while (w->head) {
		struct went *e = w->head;

		w->head = e->next;
		free(e);
	}
	free(w->seen);
}

static void walk_report(const struct walk *w, double s)
{
	uint64_t calls = w->rdp_calls + w->lookups + w->getattrs;

	printf("  %-34s %10.0f /s  (%llu entries: %llu directories, %llu others, in %.2f s)\n",
	       "entries walked", (double)w->entries / s, (unsigned long long)w->entries,
	       (unsigned long long)w->dirs, (unsigned long long)w->files, s);
	printf("  %-34s %10llu READDIRPLUS, %llu LOOKUP, %llu GETATTR: %.0f calls/s\n", "calls",
	       (unsigned long long)w->rdp_calls, (unsigned long long)w->lookups,
	       (unsigned long long)w->getattrs, (double)calls / s);
	fflush(stdout);
	result("walk.entries_s", "%.0f", (double)w->entries / s);
	result("walk.entries", "%llu", (unsigned long long)w->entries);
	result("walk.dirs", "%llu", (unsigned long long)w->dirs);
	result("walk.s", "%.2f", s);
	result("walk.calls_s", "%.0f", (double)calls / s);
}

int run_walk(void)
{
	struct walk w;
	struct fh root, start;
	uint64_t t0;
	double s;

	memset(&w, 0, sizeof(w));
	w.n = O.conns;
	w.cs = conns_open(w.n, &root);
	if (!w.cs)
		return -1;
	for (int i = 0; i < w.n; i++)
		w.cs[i].wl = &w;
	if (lookup_path(&w.cs[0], &root, O.dir, &start) == 0) {
		printf("walk: the tree at %s%s%s, %d connections x %d in flight, READDIRPLUS dircount %u "
		       "maxcount %u, then LOOKUP + GETATTR of every entry\n", O.export,
		       O.dir ? "/" : "", O.dir ? O.dir : "", w.n, O.depth, O.dircount, O.maxcount);
		fflush(stdout);
		push_dir(&w, &start);
		bench_hook("start");
		t0 = now_ns();
		loop_run(w.cs, w.n, walk_pump, walk_stop, &w);
		s = secs(now_ns() - t0);
		bench_hook("stop");
		if (!bench_failed() && O.walk_expect >= 0 && w.entries != (uint64_t)O.walk_expect)
			bench_error("walk found %llu entries, expected %lld",
				    (unsigned long long)w.entries, O.walk_expect);
		if (!bench_failed())
			walk_report(&w, s);
	}
	loop_drain(w.cs, w.n);
	walk_free(&w);
	conns_close(w.cs, w.n);
	return bench_failed() ? -1 : 0;
}

/*
 * mktree: no NFS.  Makes --tree D,F under the local directory --dir (on
 * the server's machine, before the server starts): D directories dNNNN of
 * F empty files fNNNN each, with one mknodat() per file (a quarter of
 * what touch costs), --threads directories at a time (default: one per
 * CPU).  The directory --dir must not hold them already.
 */
struct mktree {
	int root;
	unsigned dirs, files, width;
	unsigned next;          /* atomic */
};

static void *mktree_thread(void *arg)
{
	struct mktree *t = arg;
	char name[32];
	unsigned i;

	while ((i = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED)) < t->dirs && !bench_failed()) {
		int d;

		snprintf(name, sizeof(name), "d%0*u", (int)t->width, i);
		if (mkdirat(t->root, name, 0755) < 0 ||
		    (d = openat(t->root, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			bench_error("mktree: %s/%s: %s", O.dir, name, strerror(errno));
			break;
		}
		for (unsigned f = 0; f < t->files; f++) {
			snprintf(name, sizeof(name), "f%0*u", (int)t->width, f);
			if (mknodat(d, name, S_IFREG | 0644, 0) < 0) {
				bench_error("mktree: %s/d%0*u/%s: %s", O.dir, (int)t->width, i, name, strerror(errno));
				break;
			}
		}
		close(d);
	}
	return NULL;
}

int run_mktree(void)
{
	struct mktree t = { -1, O.tree_dirs, O.tree_files, 4, 0 };
	int nthreads = O.threads;
	pthread_t th[64];
	uint64_t t0 = now_ns();
	int n;

	if (!O.dir) {
		fprintf(stderr, "nfsbench: mktree wants --dir (a local directory)\n");
		return -1;
	}
	for (unsigned m = (t.dirs > t.files ? t.dirs : t.files) - 1; m >= 10000; m /= 10)
		t.width++;
	if (nthreads < 1)
		nthreads = 1;
	if (nthreads > 64)
		nthreads = 64;
	if (mkdir(O.dir, 0755) < 0 && errno != EEXIST) {
		bench_error("mktree: %s: %s", O.dir, strerror(errno));
		return -1;
	}
	t.root = open(O.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t.root < 0) {
		bench_error("mktree: %s: %s", O.dir, strerror(errno));
		return -1;
	}
	for (n = 0; n < nthreads; n++)
		if (pthread_create(&th[n], NULL, mktree_thread, &t) != 0)
			break;
	if (n == 0)
		mktree_thread(&t);
	while (n > 0)
		pthread_join(th[--n], NULL);
	if (!bench_failed() && syncfs(t.root) < 0)
		bench_error("mktree: syncfs %s: %s", O.dir, strerror(errno));
	close(t.root);
	if (bench_failed())
		return -1;
	printf("mktree: %u directories of %u empty files under %s in %.2f s (%d threads, synced)\n",
	       t.dirs, t.files, O.dir, secs(now_ns() - t0), nthreads);
	result("mktree.s", "%.2f", secs(now_ns() - t0));
	return 0;
}
