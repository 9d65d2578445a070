/*
 * seq.c - large-file sequential transfer: WRITE UNSTABLE + COMMIT,
 * WRITE FILE_SYNC, READ with the server's cache warm, and READ after the
 * server's cache was dropped (by --drop-cache CMD, run here: only
 * possible when the server shares this machine, or CMD reaches it).
 *
 * Transfers are the smaller of --xfer and what FSINFO allows, with
 * --depth calls in flight per connection, issued in file order.  Every
 * byte read is checked against the pattern it was written with; an
 * UNSTABLE write is only counted once COMMIT returned the verifier every
 * WRITE returned (otherwise the client would have to write it again).
 *
 * hol (head-of-line blocking): one connection streams a large file (the
 * same WRITE UNSTABLE pass, then COMMIT) while a second connection, in a
 * thread of its own, sends a GETATTR of another (empty) file every
 * --interval ms, open loop: the GETATTRs go out on time whether or not
 * the earlier ones were answered.  A server that lets the big writes hold
 * up everything else shows it in the GETATTR latencies (from when a call
 * was sent to its reply): p50, p99, max, next to those of the same probe
 * without the stream, and the stream's MiB/s.
 */
#include "nfsbench.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct seq {
	struct conn *cs;
	int n;
	struct fh fh;
	const char *name;
	uint64_t seed, size, next;
	unsigned xfer;
	int stable;            /* WRITE: how; -1 for READ */
	char *buf;
	char verf[NFS3_WRITEVERFSIZE];
	int have_verf;
	double commit_s;       /* of the last UNSTABLE pass: how long COMMIT took */
};

static void write_done(struct req *rq, void *res)
{
	struct seq *q = rq->ctx;
	WRITE3res *r = res;
	WRITE3resok *k;

	if (!r)
		return;
	if (r->status != NFS3_OK) {
		bench_error("WRITE %s at %llu: %s", q->name, (unsigned long long)rq->u64, nfsstat_name((int)r->status));
		return;
	}
	k = &r->WRITE3res_u.resok;
	if (k->count != (rq->u64 + q->xfer < q->size ? q->xfer : q->size - rq->u64))
		bench_error("WRITE %s at %llu: short write (%u bytes)", q->name, (unsigned long long)rq->u64, k->count);
	else if ((int)k->committed < q->stable)
		bench_error("WRITE %s: asked for stable_how %d, server answered %d", q->name, q->stable, (int)k->committed);
	else if (q->have_verf && memcmp(q->verf, k->verf, sizeof(q->verf)))
		bench_error("WRITE %s: the write verifier changed during the run (server restarted?)", q->name);
	memcpy(q->verf, k->verf, sizeof(q->verf));
	q->have_verf = 1;
}

static void read_done(struct req *rq, void *res)
{
	struct seq *q = rq->ctx;
	READ3res *r = res;
	READ3resok *k;
	uint64_t want = rq->u64 + q->xfer < q->size ? q->xfer : q->size - rq->u64;
	long long bad;

	if (!r)
		return;
	if (r->status != NFS3_OK) {
		bench_error("READ %s at %llu: %s", q->name, (unsigned long long)rq->u64, nfsstat_name((int)r->status));
		return;
	}
	k = &r->READ3res_u.resok;
	if (k->count != want || k->data.data_len != want)
		bench_error("READ %s at %llu: %u bytes, expected %llu", q->name, (unsigned long long)rq->u64,
			    k->count, (unsigned long long)want);
	else if (!O.no_check && (bad = pattern_check(k->data.data_val, q->seed, rq->u64, want)) >= 0)
		bench_error("READ %s: wrong data at offset %llu", q->name, (unsigned long long)(rq->u64 + (uint64_t)bad));
}

/* Keeps --depth transfers in flight on each connection, in file order. */
static uint64_t seq_pump(struct conn *c, void *arg)
{
	struct seq *q = arg;

	while (c->inflight < O.depth && q->next < q->size) {
		unsigned len = (unsigned)(q->size - q->next < q->xfer ? q->size - q->next : q->xfer);
		struct req *rq = req_new(c, q->stable >= 0 ? write_done : read_done, q);

		rq->u64 = q->next;
		if (q->stable >= 0) {
			pattern_fill(q->buf, q->seed, q->next, len);
			if (call_write(rq, &q->fh, q->next, q->buf, len, q->stable) < 0)
				break;
		} else if (call_read(rq, &q->fh, q->next, len) < 0) {
			break;
		}
		q->next += len;
	}
	return UINT64_MAX;
}

static int seq_stop(void *arg)
{
	struct seq *q = arg;

	if (q->next < q->size)
		return 0;
	for (int i = 0; i < q->n; i++)
		if (q->cs[i].inflight)
			return 0;
	return 1;
}

static void commit_done(struct req *rq, void *res)
{
	struct seq *q = rq->ctx;
	COMMIT3res *r = res;

	if (!r)
		return;
	if (r->status != NFS3_OK)
		bench_error("COMMIT %s: %s", q->name, nfsstat_name((int)r->status));
	else if (memcmp(q->verf, r->COMMIT3res_u.resok.verf, sizeof(q->verf)))
		bench_error("COMMIT %s: verifier differs from the WRITEs' (data would be resent)", q->name);
}

/* One pass over the file (q->stable says which); returns seconds, <0 on error. */
static double seq_pass(struct seq *q)
{
	uint64_t t0 = now_ns();

	q->next = 0;
	q->have_verf = 0;
	if (loop_run(q->cs, q->n, seq_pump, seq_stop, q) < 0)
		return -1;
	if (q->stable == UNSTABLE) {
		uint64_t tc = now_ns();

		if (call_commit(req_new(&q->cs[0], commit_done, q), &q->fh) < 0 || loop_drain(q->cs, q->n) < 0)
			return -1;
		q->commit_s = secs(now_ns() - tc);
	}
	return bench_failed() ? -1 : secs(now_ns() - t0);
}

static void report(const char *key, const char *what, const struct seq *q, double s)
{
	double mibs = (double)q->size / MiB / s;
	char k[64];

	if (s < 0 || bench_failed())
		return;
	printf("  %-28s %9.1f MiB/s  (%.2f s", what, mibs, s);
	if (q->stable == UNSTABLE) {
		printf(", of which COMMIT %.2f s", q->commit_s);
		snprintf(k, sizeof(k), "%s.commit_s", key);
		result(k, "%.3f", q->commit_s);
	}
	printf(")\n");
	fflush(stdout);
	snprintf(k, sizeof(k), "%s.mib_s", key);
	result(k, "%.1f", mibs);
}

static int seq_file(struct seq *q, const struct fh *dir, const char *name, uint64_t seed)
{
	int st = sync_create(&q->cs[0], dir, name, &q->fh);

	q->name = name;
	q->seed = seed;
	if (st != NFS3_OK) {
		bench_error("CREATE %s: %s", name, st < 0 ? "call failed" : nfsstat_name(st));
		return -1;
	}
	return 0;
}

/* The server's cache is dropped by a command run here (see --drop-cache). */
static int drop_server_cache(void)
{
	int rc;

	if (!O.drop_cmd || !*O.drop_cmd) {
		printf("  %-28s skipped: give --drop-cache CMD (on the server: "
		       "sync; echo 3 > /proc/sys/vm/drop_caches)\n", "read, cold server cache");
		return -1;
	}
	printf("  (dropping the server's cache with: %s)\n", O.drop_cmd);
	fflush(stdout);
	rc = system(O.drop_cmd);
	if (rc != 0) {
		printf("  %-28s skipped: '%s' failed (status %d)\n", "read, cold server cache", O.drop_cmd, rc);
		return -1;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The warm read, --passes times: a pass of a few hundred MiB lasts a
 * tenth of a second, where one scheduling hiccup shows.  Each pass is
 * reported (seq.read_warm.passN.mib_s), and seq.read_warm.mib_s is all
 * the passes' bytes over all their time.
 */
static void read_warm(struct seq *q)
{
	double *v = calloc((size_t)O.passes, sizeof(*v)), total = 0, s;
	char k[64];
	int i;

	if (!v) {
		bench_error("out of memory");
		return;
	}
	for (i = 0; i < O.passes && !bench_failed(); i++) {
		if ((s = seq_pass(q)) < 0)
			break;
		total += s;
		v[i] = (double)q->size / MiB / s;
		snprintf(k, sizeof(k), "seq.read_warm.pass%d.mib_s", i + 1);
		result(k, "%.1f", v[i]);
	}
	if (i == O.passes && !bench_failed()) {
		struct seq all = *q;

		all.size *= (uint64_t)O.passes;
		report("seq.read_warm", "read, warm server cache", &all, total);
		if (O.passes > 1) {
			qsort(v, (size_t)O.passes, sizeof(*v), cmp_double);
			printf("  %-28s min %.1f, median %.1f, max %.1f MiB/s (%d passes of %u MiB)\n", "  its passes",
			       v[0], v[O.passes / 2], v[O.passes - 1], O.passes, (unsigned)(q->size / MiB));
		}
	}
	free(v);
}

static void seq_all(struct seq *q, const struct fh *dir)
{
	struct seq fs;

	if (seq_file(q, dir, "unstable", O.seed + 1) < 0)
		return;
	q->stable = UNSTABLE;
	report("seq.write_unstable_commit", "write UNSTABLE + COMMIT", q, seq_pass(q));
	fs = *q;
	if (bench_failed() || seq_file(&fs, dir, "filesync", O.seed + 2) < 0)
		return;
	fs.stable = FILE_SYNC;
	report("seq.write_filesync", "write FILE_SYNC", &fs, seq_pass(&fs));
	/* the file just written is surely in the server's cache */
	fs.stable = -1;
	read_warm(&fs);
	q->stable = -1;
	if (!bench_failed() && drop_server_cache() == 0)
		report("seq.read_cold", "read, cold server cache", q, seq_pass(q));
}

int run_seq(void)
{
	struct seq q;
	struct fh root, parent, dir;
	char name[64];
	unsigned rtmax = 0, wtmax = 0;
	int st;

	memset(&q, 0, sizeof(q));
	q.n = O.conns;
	q.cs = conns_open(q.n, &root);
	if (!q.cs)
		return -1;
	st = sync_fsinfo(&q.cs[0], &root, &rtmax, &wtmax);
	if (st != NFS3_OK)
		bench_error("FSINFO: %s", st < 0 ? "call failed" : nfsstat_name(st));
	q.xfer = O.xfer;
	if (rtmax && rtmax < q.xfer)
		q.xfer = rtmax;
	if (wtmax && wtmax < q.xfer)
		q.xfer = wtmax;
	q.xfer &= ~7u;
	q.size = (uint64_t)O.seq_mib * MiB;
	q.buf = malloc(q.xfer ? q.xfer : 1);
	if (!bench_failed() && make_scratch(&q.cs[0], &root, "seq", &parent, name, sizeof(name), &dir) == 0) {
		printf("seq: %u MiB file, %u-byte transfers (server rtmax %u, wtmax %u), "
		       "%d connection(s) x %d in flight\n", O.seq_mib, q.xfer, rtmax, wtmax, q.n, O.depth);
		result("seq.xfer_bytes", "%u", q.xfer);
		bench_hook("start");
		seq_all(&q, &dir);
		bench_hook("stop");
		loop_drain(q.cs, q.n);
		if (!O.keep)
			remove_tree(&q.cs[0], &parent, name);
	}
	free(q.buf);
	conns_close(q.cs, q.n);
	return bench_failed() ? -1 : 0;
}

/* ---- hol: GETATTR every --interval ms on one connection during a stream on another ---- */

struct probe {
	struct conn *c;
	struct fh fh;
	uint64_t gap, next_due, until;   /* until: stop issuing then (0: when told) */
	int stop;                        /* set by the writer (atomic) */
	struct lat lat;
};

static void probe_done(struct req *rq, void *res)
{
	struct probe *p = rq->ctx;
	GETATTR3res *r = res;
	uint64_t t = now_ns();

	if (!r)
		return;
	if (r->status != NFS3_OK) {
		bench_error("GETATTR probe: %s", nfsstat_name((int)r->status));
		return;
	}
	if (r->GETATTR3res_u.resok.obj_attributes.type != NF3REG || r->GETATTR3res_u.resok.obj_attributes.size)
		bench_error("GETATTR probe: not the empty regular file it was created as");
	lat_add(&p->lat, t - rq->t0);
}

static int probe_over(struct probe *p, uint64_t t)
{
	return p->until ? t >= p->until : __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
}

/* Open loop: every call goes out when due, answered or not. */
static uint64_t probe_pump(struct conn *c, void *arg)
{
	struct probe *p = arg;
	uint64_t t = now_ns();

	if (probe_over(p, t))
		return UINT64_MAX;
	while (p->next_due <= t) {
		if (call_getattr(req_new(c, probe_done, p), &p->fh) < 0)
			return UINT64_MAX;
		p->next_due += p->gap;
	}
	return p->next_due - t;
}

static int probe_stop(void *arg)
{
	struct probe *p = arg;

	return probe_over(p, now_ns()) && !p->c->inflight;
}

static void *probe_thread(void *arg)
{
	struct probe *p = arg;

	loop_run(p->c, 1, probe_pump, probe_stop, p);
	return NULL;
}

static void probe_report(const char *key, const char *what, struct probe *p)
{
	double p50, p99, max, mean = lat_mean_ms(&p->lat);
	char k[64];

	if (bench_failed())
		return;
	if (!p->lat.n) {
		bench_error("GETATTR probe: no call was answered");
		return;
	}
	p50 = lat_pct_ms(&p->lat, 50);
	p99 = lat_pct_ms(&p->lat, 99);
	max = lat_pct_ms(&p->lat, 100);
	printf("  %-30s p50 %7.3f ms  p99 %7.3f ms  max %8.3f ms  mean %7.3f ms  (%zu calls)\n",
	       what, p50, p99, max, mean, p->lat.n);
	fflush(stdout);
	snprintf(k, sizeof(k), "hol.%s.p50_ms", key);
	result(k, "%.3f", p50);
	snprintf(k, sizeof(k), "hol.%s.p99_ms", key);
	result(k, "%.3f", p99);
	snprintf(k, sizeof(k), "hol.%s.max_ms", key);
	result(k, "%.3f", max);
	snprintf(k, sizeof(k), "hol.%s.mean_ms", key);
	result(k, "%.3f", mean);
	snprintf(k, sizeof(k), "hol.%s.calls", key);
	result(k, "%zu", p->lat.n);
}

static void hol_all(struct seq *q, struct probe *p, const struct fh *dir)
{
	pthread_t th;
	double s;
	int st;

	st = sync_create(&q->cs[0], dir, "probe", &p->fh);
	if (st != NFS3_OK) {
		bench_error("CREATE probe: %s", st < 0 ? "call failed" : nfsstat_name(st));
		return;
	}
	if (seq_file(q, dir, "stream", O.seed + 3) < 0)
		return;
	q->stable = UNSTABLE;
	/* the probe alone first, for comparison (in this thread) */
	p->next_due = now_ns();
	p->until = p->next_due + 1000000000u;
	loop_run(p->c, 1, probe_pump, probe_stop, p);
	probe_report("idle", "GETATTR alone (1 s)", p);
	if (bench_failed())
		return;
	/* then during the stream, in a thread of its own */
	lat_reset(&p->lat);
	p->until = 0;
	p->next_due = now_ns();
	if (pthread_create(&th, NULL, probe_thread, p) != 0) {
		bench_error("cannot start the probe thread");
		return;
	}
	s = seq_pass(q);
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	probe_report("getattr", "GETATTR during the write", p);
	report("hol.write", "write UNSTABLE + COMMIT", q, s);
}

int run_hol(void)
{
	struct seq q;
	struct probe p;
	struct conn *cs;
	struct fh root, parent, dir;
	char name[64];
	unsigned rtmax = 0, wtmax = 0;
	int st;

	memset(&q, 0, sizeof(q));
	memset(&p, 0, sizeof(p));
	cs = conns_open(2, &root);
	if (!cs)
		return -1;
	q.cs = &cs[0];
	q.n = 1;
	p.c = &cs[1];
	p.gap = (uint64_t)(O.interval_ms * 1e6);
	if (p.gap < 1000)
		p.gap = 1000;
	st = sync_fsinfo(&cs[0], &root, &rtmax, &wtmax);
	if (st != NFS3_OK)
		bench_error("FSINFO: %s", st < 0 ? "call failed" : nfsstat_name(st));
	q.xfer = O.xfer;
	if (wtmax && wtmax < q.xfer)
		q.xfer = wtmax;
	q.xfer &= ~7u;
	q.size = (uint64_t)O.seq_mib * MiB;
	q.buf = malloc(q.xfer ? q.xfer : 1);
	if (!bench_failed() && make_scratch(&cs[0], &root, "hol", &parent, name, sizeof(name), &dir) == 0) {
		printf("hol: %u MiB written UNSTABLE in %u-byte transfers (server wtmax %u), %d in flight on one "
		       "connection, then COMMIT; meanwhile GETATTR every %.1f ms on another connection\n",
		       O.seq_mib, q.xfer, wtmax, O.depth, O.interval_ms);
		result("hol.xfer_bytes", "%u", q.xfer);
		bench_hook("start");
		hol_all(&q, &p, &dir);
		bench_hook("stop");
		loop_drain(cs, 2);
		if (!O.keep)
			remove_tree(&cs[0], &parent, name);
	}
	lat_free(&p.lat);
	free(q.buf);
	conns_close(cs, 2);
	return bench_failed() ? -1 : 0;
}
