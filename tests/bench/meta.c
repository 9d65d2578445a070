/*
 * meta.c - metadata and small-file workloads.
 *
 * meta: CREATE N files in one directory, list it with READDIRPLUS (what
 * `ls -l` costs: one call after another, each continuing at the last
 * cookie), LOOKUP and GETATTR each name, RENAME each within the directory
 * (mNNN to rNNN), REMOVE them; ops/s per phase.  LOOKUP must return the
 * handle CREATE did, the listing must hold every name exactly once with
 * attributes and a handle, and the directory must be empty at the end.
 * CREATE, RENAME and REMOVE are the calls a `sync` export makes durable
 * before replying, so their rates show what that costs.
 *
 * smallcopy: write K files of S KiB (CREATE, WRITE UNSTABLE, COMMIT, as
 * `cp` over a kernel client does) and read them back (LOOKUP, ACCESS,
 * READ: the kernel client asks ACCESS on open), several files at a time;
 * files/s and MiB/s.  The Plan 9 test: copy a directory of images.
 * smallfile is the same one file at a time (-c 1 -q 1 by default), under
 * keys of its own: what a single user waits for.
 *
 * getattr: GETATTR of one file, one call after another on one connection:
 * the round trip of the cheapest call, and the server's CPU per call.
 */
#include "nfsbench.h"

#include <stdlib.h>
#include <string.h>

struct meta {
	struct conn *cs;
	int n;
	struct fh root, parent, dir;
	char dirname[64];
	struct fh *fhs;
	unsigned char *seen;
	size_t count, listed;
	int eof;
	uint64_t cookie;
	char verf[NFS3_COOKIEVERFSIZE];
	unsigned calls;
};

static void meta_name(char *buf, size_t sz, size_t i)
{
	snprintf(buf, sz, "m%07zu", i);
}

/* What RENAME turns meta_name(i) into. */
static void renamed_name(char *buf, size_t sz, size_t i)
{
	snprintf(buf, sz, "r%07zu", i);
}

static int status_ok(void *res, const char *what, const char *name)
{
	int st;

	if (!res)
		return 0;
	st = *(int *)res;
	if (st == NFS3_OK)
		return 1;
	bench_error("%s %s: %s", what, name, nfsstat_name(st));
	return 0;
}

/* ---- meta phases: one call per item ---- */

static void m_create_done(struct req *rq, void *res)
{
	struct meta *m = rq->ctx;
	CREATE3res *r = res;

	if (!status_ok(res, "CREATE", rq->name))
		return;
	if (!r->CREATE3res_u.resok.obj.handle_follows)
		bench_error("CREATE %s: the reply carries no handle", rq->name);
	else
		fh_set(&m->fhs[rq->u64], &r->CREATE3res_u.resok.obj.post_op_fh3_u.handle);
}

static int m_create(struct conn *c, size_t i, void *arg)
{
	struct meta *m = arg;
	struct req *rq = req_new(c, m_create_done, m);

	rq->u64 = i;
	meta_name(rq->name, sizeof(rq->name), i);
	return call_create(rq, &m->dir, rq->name, 1);
}

static void m_lookup_done(struct req *rq, void *res)
{
	struct meta *m = rq->ctx;
	LOOKUP3res *r = res;
	const struct fh *want = &m->fhs[rq->u64];

	if (!status_ok(res, "LOOKUP", rq->name))
		return;
	if (r->LOOKUP3res_u.resok.object.data.data_len != want->len ||
	    memcmp(r->LOOKUP3res_u.resok.object.data.data_val, want->data, want->len))
		bench_error("LOOKUP %s: handle differs from the one CREATE returned", rq->name);
}

static int m_lookup(struct conn *c, size_t i, void *arg)
{
	struct meta *m = arg;
	struct req *rq = req_new(c, m_lookup_done, m);

	rq->u64 = i;
	meta_name(rq->name, sizeof(rq->name), i);
	return call_lookup(rq, &m->dir, rq->name);
}

static void m_getattr_done(struct req *rq, void *res)
{
	GETATTR3res *r = res;

	if (!status_ok(res, "GETATTR", rq->name))
		return;
	if (r->GETATTR3res_u.resok.obj_attributes.type != NF3REG || r->GETATTR3res_u.resok.obj_attributes.size)
		bench_error("GETATTR %s: not an empty regular file", rq->name);
}

static int m_getattr(struct conn *c, size_t i, void *arg)
{
	struct meta *m = arg;
	struct req *rq = req_new(c, m_getattr_done, m);

	meta_name(rq->name, sizeof(rq->name), i);
	return call_getattr(rq, &m->fhs[i]);
}

static void m_rename_done(struct req *rq, void *res)
{
	status_ok(res, "RENAME", rq->name);
}

static int m_rename(struct conn *c, size_t i, void *arg)
{
	struct meta *m = arg;
	struct req *rq = req_new(c, m_rename_done, m);
	char to[16];

	meta_name(rq->name, sizeof(rq->name), i);
	renamed_name(to, sizeof(to), i);
	return call_rename(rq, &m->dir, rq->name, to);     /* libnfs encodes at once */
}

static void m_remove_done(struct req *rq, void *res)
{
	status_ok(res, "REMOVE", rq->name);
}

static int m_remove(struct conn *c, size_t i, void *arg)
{
	struct meta *m = arg;
	struct req *rq = req_new(c, m_remove_done, m);

	renamed_name(rq->name, sizeof(rq->name), i);
	return call_remove(rq, &m->dir, rq->name);
}

/* ---- the listing: READDIRPLUS calls one after another ---- */

static void m_entry(struct meta *m, const entryplus3 *e)
{
	char *end;
	unsigned long i;

	if (!strcmp(e->name, ".") || !strcmp(e->name, ".."))
		return;
	i = e->name[0] == 'm' ? strtoul(e->name + 1, &end, 10) : 0;
	if (e->name[0] != 'm' || *end || i >= m->count) {
		bench_error("READDIRPLUS: unexpected name '%s'", e->name);
	} else if (m->seen[i]++) {
		bench_error("READDIRPLUS: '%s' listed twice", e->name);
	} else if (!e->name_attributes.attributes_follow || !e->name_handle.handle_follows) {
		bench_error("READDIRPLUS: '%s' without attributes or handle", e->name);
	}
	m->listed++;
}

static void m_list_done(struct req *rq, void *res)
{
	struct meta *m = rq->ctx;
	READDIRPLUS3res *r = res;

	if (!status_ok(res, "READDIRPLUS", m->dirname)) {
		m->eof = 1;
		return;
	}
	memcpy(m->verf, r->READDIRPLUS3res_u.resok.cookieverf, sizeof(m->verf));
	for (entryplus3 *e = r->READDIRPLUS3res_u.resok.reply.entries; e; e = e->nextentry) {
		m_entry(m, e);
		m->cookie = e->cookie;
	}
	m->eof = r->READDIRPLUS3res_u.resok.reply.eof;
}

static uint64_t m_list_pump(struct conn *c, void *arg)
{
	struct meta *m = arg;
	READDIRPLUS3args a;
	struct req *rq;

	if (c != &m->cs[0] || c->inflight || m->eof)
		return UINT64_MAX;
	rq = req_new(c, m_list_done, m);
	a.dir = fh_arg(&m->dir);
	a.cookie = m->cookie;
	memcpy(a.cookieverf, m->verf, sizeof(a.cookieverf));
	a.dircount = O.dircount;
	a.maxcount = O.maxcount;
	m->calls++;
	if (rpc_nfs3_readdirplus_async(c->rpc, req_cb, &a, rq) < 0)
		req_queue_failed(rq, "READDIRPLUS");
	return UINT64_MAX;
}

static int m_list_stop(void *arg)
{
	struct meta *m = arg;

	return m->eof && !m->cs[0].inflight;
}

static int m_list(struct meta *m)
{
	m->eof = 0;
	m->cookie = 0;
	m->listed = 0;
	m->calls = 0;
	memset(m->verf, 0, sizeof(m->verf));
	memset(m->seen, 0, m->count);
	if (loop_run(m->cs, 1, m_list_pump, m_list_stop, m) < 0)
		return -1;
	if (m->listed != m->count && !bench_failed())
		bench_error("READDIRPLUS listed %zu entries of %zu", m->listed, m->count);
	return bench_failed() ? -1 : 0;
}

/* ---- meta: phases in order, each timed ---- */

static void phase_report(const char *key, const char *what, size_t n, double s)
{
	char k[64];

	if (bench_failed())
		return;
	printf("  %-34s %10.0f /s  (%zu in %.2f s)\n", what, (double)n / s, n, s);
	fflush(stdout);
	snprintf(k, sizeof(k), "meta.%s.ops_s", key);
	result(k, "%.0f", (double)n / s);
}

static int timed_batch(struct meta *m, batch_fn fn, const char *key, const char *what)
{
	uint64_t t0 = now_ns();

	if (run_batch(m->cs, m->n, m->count, O.depth, fn, m) < 0)
		return -1;
	phase_report(key, what, m->count, secs(now_ns() - t0));
	return bench_failed() ? -1 : 0;
}

static void meta_phases(struct meta *m)
{
	uint64_t t0;

	if (timed_batch(m, m_create, "create", "CREATE") < 0)
		return;
	t0 = now_ns();
	if (m_list(m) < 0)
		return;
	phase_report("readdirplus", "READDIRPLUS (ls -l), entries", m->count, secs(now_ns() - t0));
	printf("  %-34s %10u calls of maxcount %u\n", "", m->calls, O.maxcount);
	if (timed_batch(m, m_lookup, "lookup", "LOOKUP") < 0 ||
	    timed_batch(m, m_getattr, "getattr", "GETATTR") < 0 ||
	    timed_batch(m, m_rename, "rename", "RENAME") < 0 ||
	    timed_batch(m, m_remove, "remove", "REMOVE") < 0)
		return;
	m->count = 0;           /* now the listing must be empty */
	m_list(m);
}

int run_meta(void)
{
	struct meta m;

	memset(&m, 0, sizeof(m));
	m.n = O.conns;
	m.count = (size_t)O.meta_files;
	m.fhs = calloc(m.count, sizeof(*m.fhs));
	m.seen = calloc(m.count ? m.count : 1, 1);
	m.cs = conns_open(m.n, &m.root);
	if (!m.cs || !m.fhs || !m.seen)
		return -1;
	printf("meta: %zu files in one directory, %d connections x %d in flight\n", m.count, m.n, O.depth);
	fflush(stdout);
	if (make_scratch(&m.cs[0], &m.root, "meta", &m.parent, m.dirname, sizeof(m.dirname), &m.dir) == 0) {
		bench_hook("start");
		meta_phases(&m);
		bench_hook("stop");
		loop_drain(m.cs, m.n);
		if (!O.keep && remove_tree(&m.cs[0], &m.parent, m.dirname) < 0 && !bench_failed())
			bench_error("cannot remove %s", m.dirname);
	}
	conns_close(m.cs, m.n);
	free(m.fhs);
	free(m.seen);
	return bench_failed() ? -1 : 0;
}

/* ---- smallcopy: each file is a chain of calls on one connection ---- */

struct small {
	const char *key;          /* smallcopy or smallfile */
	struct conn *cs;
	int n;
	struct fh dir;
	unsigned size, xfer;
	char *buf;
	int reading;
};

struct sfile {
	struct small *s;
	struct fh fh;
	size_t idx;
	uint64_t off;
	char verf[NFS3_WRITEVERFSIZE];
	char name[16];
};

static void s_next(struct sfile *f, struct conn *c);

static void s_created(struct req *rq, void *res)
{
	struct sfile *f = rq->ctx;
	CREATE3res *r = res;

	if (!status_ok(res, "CREATE", f->name))
		return;
	if (!r->CREATE3res_u.resok.obj.handle_follows) {
		bench_error("CREATE %s: the reply carries no handle", f->name);
		return;
	}
	fh_set(&f->fh, &r->CREATE3res_u.resok.obj.post_op_fh3_u.handle);
	s_next(f, rq->c);
}

/* What the Linux client asks of a regular file it opens. */
#define OPEN_ACCESS (ACCESS3_READ | ACCESS3_MODIFY | ACCESS3_EXTEND | ACCESS3_EXECUTE)

static void s_accessed(struct req *rq, void *res)
{
	struct sfile *f = rq->ctx;

	if (!status_ok(res, "ACCESS", f->name))
		return;
	if (!(((ACCESS3res *)res)->ACCESS3res_u.resok.access & ACCESS3_READ)) {
		bench_error("ACCESS %s: READ not granted", f->name);
		return;
	}
	s_next(f, rq->c);
}

static void s_looked_up(struct req *rq, void *res)
{
	struct sfile *f = rq->ctx;

	if (!status_ok(res, "LOOKUP", f->name))
		return;
	fh_set(&f->fh, &((LOOKUP3res *)res)->LOOKUP3res_u.resok.object);
	call_access(req_new(rq->c, s_accessed, f), &f->fh, OPEN_ACCESS);
}

static void s_written(struct req *rq, void *res)
{
	struct sfile *f = rq->ctx;
	WRITE3resok *k;

	if (!status_ok(res, "WRITE", f->name))
		return;
	k = &((WRITE3res *)res)->WRITE3res_u.resok;
	if (k->count != (unsigned)rq->u64) {
		bench_error("WRITE %s: short write", f->name);
		return;
	}
	if (f->off && memcmp(f->verf, k->verf, sizeof(f->verf))) {
		bench_error("WRITE %s: the write verifier changed", f->name);
		return;
	}
	memcpy(f->verf, k->verf, sizeof(f->verf));
	f->off += rq->u64;
	s_next(f, rq->c);
}

static void s_committed(struct req *rq, void *res)
{
	struct sfile *f = rq->ctx;

	if (status_ok(res, "COMMIT", f->name) &&
	    memcmp(f->verf, ((COMMIT3res *)res)->COMMIT3res_u.resok.verf, sizeof(f->verf)))
		bench_error("COMMIT %s: verifier differs from the WRITEs'", f->name);
	free(f);
}

static void s_read(struct req *rq, void *res)
{
	struct sfile *f = rq->ctx;
	READ3resok *k;

	if (!status_ok(res, "READ", f->name))
		return;
	k = &((READ3res *)res)->READ3res_u.resok;
	if (k->count != (unsigned)rq->u64 || k->data.data_len != (unsigned)rq->u64 ||
	    pattern_check(k->data.data_val, O.seed + f->idx, f->off, k->count) >= 0) {
		bench_error("READ %s at %llu: wrong length or data", f->name, (unsigned long long)f->off);
		return;
	}
	f->off += k->count;
	s_next(f, rq->c);
}

/* The next call of a file's chain: WRITEs then COMMIT, or READs; then done. */
static void s_next(struct sfile *f, struct conn *c)
{
	struct small *s = f->s;
	unsigned len = s->size - f->off < s->xfer ? (unsigned)(s->size - f->off) : s->xfer;
	struct req *rq;

	if (f->off >= s->size) {
		if (s->reading)
			free(f);
		else
			call_commit(req_new(c, s_committed, f), &f->fh);
		return;
	}
	rq = req_new(c, s->reading ? s_read : s_written, f);
	rq->u64 = len;
	if (s->reading) {
		call_read(rq, &f->fh, f->off, len);
	} else {
		pattern_fill(s->buf, O.seed + f->idx, f->off, len);
		call_write(rq, &f->fh, f->off, s->buf, len, UNSTABLE);
	}
}

static int s_start(struct conn *c, size_t i, void *arg)
{
	struct small *s = arg;
	struct sfile *f = calloc(1, sizeof(*f));

	if (!f)
		abort();
	f->s = s;
	f->idx = i;
	snprintf(f->name, sizeof(f->name), "s%06zu", i);
	if (s->reading)
		return call_lookup(req_new(c, s_looked_up, f), &s->dir, f->name);
	return call_create(req_new(c, s_created, f), &s->dir, f->name, 1);
}

static void small_phase(struct small *s, int reading, const char *key, const char *what)
{
	uint64_t t0 = now_ns();
	double sec, mib = (double)O.small_files * s->size / MiB;
	char k[64];

	s->reading = reading;
	if (run_batch(s->cs, s->n, (size_t)O.small_files, O.depth, s_start, s) < 0 || bench_failed())
		return;
	sec = secs(now_ns() - t0);
	printf("  %-34s %8.0f files/s %8.1f MiB/s  (%.2f s)\n", what, O.small_files / sec, mib / sec, sec);
	fflush(stdout);
	snprintf(k, sizeof(k), "%s.%s.files_s", s->key, key);
	result(k, "%.0f", O.small_files / sec);
	snprintf(k, sizeof(k), "%s.%s.mib_s", s->key, key);
	result(k, "%.1f", mib / sec);
}

static int small_run(const char *key)
{
	struct small s;
	struct fh root, parent;
	char name[64];
	unsigned rtmax = 0, wtmax = 0;

	memset(&s, 0, sizeof(s));
	s.key = key;
	s.n = O.conns;
	s.size = O.small_kib * KiB;
	s.cs = conns_open(s.n, &root);
	if (!s.cs)
		return -1;
	if (sync_fsinfo(&s.cs[0], &root, &rtmax, &wtmax) != NFS3_OK)
		bench_error("FSINFO failed");
	s.xfer = O.xfer;
	if (rtmax && rtmax < s.xfer)
		s.xfer = rtmax;
	if (wtmax && wtmax < s.xfer)
		s.xfer = wtmax;
	s.xfer &= ~7u;
	s.buf = malloc(s.xfer ? s.xfer : 1);
	printf("%s: %d files of %u KiB, %d connection%s x %d file%s at a time, %u-byte transfers\n",
	       key, O.small_files, O.small_kib, s.n, s.n == 1 ? "" : "s", O.depth, O.depth == 1 ? "" : "s",
	       s.xfer);
	fflush(stdout);
	if (!bench_failed() && make_scratch(&s.cs[0], &root, key, &parent, name, sizeof(name), &s.dir) == 0) {
		bench_hook("start");
		small_phase(&s, 0, "write", "write (CREATE, WRITE, COMMIT)");
		if (!bench_failed())
			small_phase(&s, 1, "read", "read back (LOOKUP, ACCESS, READ)");
		bench_hook("stop");
		loop_drain(s.cs, s.n);
		if (!O.keep)
			remove_tree(&s.cs[0], &parent, name);
	}
	free(s.buf);
	conns_close(s.cs, s.n);
	return bench_failed() ? -1 : 0;
}

int run_smallcopy(void)
{
	return small_run("smallcopy");
}

int run_smallfile(void)
{
	return small_run("smallfile");
}

/* ---- getattr: one call at a time, closed loop ---- */

struct ga {
	struct conn *c;
	struct fh fh;
	uint64_t fileid, end;
	int have_fileid;
	struct lat lat;
};

static void ga_done(struct req *rq, void *res)
{
	struct ga *g = rq->ctx;
	uint64_t t = now_ns();
	fattr3 *a;

	if (!status_ok(res, "GETATTR", "probe"))
		return;
	a = &((GETATTR3res *)res)->GETATTR3res_u.resok.obj_attributes;
	if (a->type != NF3REG || a->size) {
		bench_error("GETATTR probe: not the empty regular file it was created as");
		return;
	}
	if (g->have_fileid && a->fileid != g->fileid) {
		bench_error("GETATTR probe: fileid %llu, was %llu", (unsigned long long)a->fileid,
			    (unsigned long long)g->fileid);
		return;
	}
	g->fileid = a->fileid;
	g->have_fileid = 1;
	lat_add(&g->lat, t - rq->t0);
}

/* The next call as soon as the last is answered, until the step ends. */
static uint64_t ga_pump(struct conn *c, void *arg)
{
	struct ga *g = arg;

	if (!c->inflight && now_ns() < g->end)
		call_getattr(req_new(c, ga_done, g), &g->fh);
	return UINT64_MAX;
}

static int ga_stop(void *arg)
{
	struct ga *g = arg;

	return !g->c->inflight && now_ns() >= g->end;
}

static void ga_measure(struct ga *g)
{
	uint64_t t0;
	int64_t cpu0;
	double sec, cpu, mean, p50, p99;

	g->end = now_ns() + (uint64_t)(O.warmup * 1e9);
	if (loop_run(g->c, 1, ga_pump, ga_stop, g) < 0)
		return;
	lat_reset(&g->lat);
	bench_hook("start");
	cpu0 = server_cpu_ns();
	t0 = now_ns();
	g->end = t0 + (uint64_t)(O.duration * 1e9);
	loop_run(g->c, 1, ga_pump, ga_stop, g);
	sec = secs(now_ns() - t0);
	cpu = cpu_us_per_call(cpu0, server_cpu_ns(), g->lat.n);
	bench_hook("stop");
	if (bench_failed())
		return;
	if (!g->lat.n) {
		bench_error("GETATTR probe: no call was answered");
		return;
	}
	mean = lat_mean_ms(&g->lat);
	p50 = lat_pct_ms(&g->lat, 50);
	p99 = lat_pct_ms(&g->lat, 99);
	printf("  %zu calls in %.2f s: %.0f /s, mean %.3f ms, p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
	       g->lat.n, sec, (double)g->lat.n / sec, mean, p50, p99, lat_pct_ms(&g->lat, 100));
	if (cpu >= 0)
		printf("  server CPU %.1f us per call\n", cpu);
	result("getattr.ops_s", "%.0f", (double)g->lat.n / sec);
	result("getattr.mean_ms", "%.4f", mean);
	result("getattr.p50_ms", "%.4f", p50);
	result("getattr.p99_ms", "%.4f", p99);
	result("getattr.calls", "%zu", g->lat.n);
	if (cpu >= 0)
		result("getattr.cpu_us_per_op", "%.2f", cpu);
}

int run_getattr(void)
{
	struct ga g;
	struct fh root, parent, dir;
	char name[64];
	int st;

	memset(&g, 0, sizeof(g));
	g.c = conns_open(1, &root);
	if (!g.c)
		return -1;
	printf("getattr: GETATTR of one file, one call at a time on one connection, %.0f s after %.0f s\n",
	       O.duration, O.warmup);
	fflush(stdout);
	if (make_scratch(g.c, &root, "getattr", &parent, name, sizeof(name), &dir) == 0) {
		st = sync_create(g.c, &dir, "probe", &g.fh);
		if (st != NFS3_OK)
			bench_error("CREATE probe: %s", st < 0 ? "call failed" : nfsstat_name(st));
		else
			ga_measure(&g);
		loop_drain(g.c, 1);
		if (!O.keep)
			remove_tree(g.c, &parent, name);
	}
	lat_free(&g.lat);
	conns_close(g.c, 1);
	return bench_failed() ? -1 : 0;
}
