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
 */
#include "nfsbench.h"

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
	else if ((bad = pattern_check(k->data.data_val, q->seed, rq->u64, want)) >= 0)
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
		snprintf(k, sizeof(k), "seq.%s.commit_s", key);
		result(k, "%.3f", q->commit_s);
	}
	printf(")\n");
	fflush(stdout);
	snprintf(k, sizeof(k), "seq.%s.mib_s", key);
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

static void seq_all(struct seq *q, const struct fh *dir)
{
	struct seq fs;

	if (seq_file(q, dir, "unstable", O.seed + 1) < 0)
		return;
	q->stable = UNSTABLE;
	report("write_unstable_commit", "write UNSTABLE + COMMIT", q, seq_pass(q));
	fs = *q;
	if (bench_failed() || seq_file(&fs, dir, "filesync", O.seed + 2) < 0)
		return;
	fs.stable = FILE_SYNC;
	report("write_filesync", "write FILE_SYNC", &fs, seq_pass(&fs));
	/* the file just written is surely in the server's cache */
	fs.stable = -1;
	if (!bench_failed())
		report("read_warm", "read, warm server cache", &fs, seq_pass(&fs));
	q->stable = -1;
	if (!bench_failed() && drop_server_cache() == 0)
		report("read_cold", "read, cold server cache", q, seq_pass(q));
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
