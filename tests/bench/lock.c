/*
 * lock.c - lock/unlock throughput.
 *
 * lock (NLM v4 over TCP, libnfs's rpc_nlm4_*_async, straight to the NLM
 * port given: no portmapper): LOCK then UNLOCK of one byte of a file the
 * run creates, as one pair, for --duration seconds each of
 *   one:  one owner, one pair after another (1 call in flight);
 *   two:  two owners passing the lock back and forth: A locks and
 *         unlocks, then B, then A... (before that, B's LOCK while A holds
 *         must be DENIED: the owners really are two);
 *   many: --conns x --depth owners at once, each on a byte of its own.
 * Every reply must be NLM4_GRANTED and echo its cookie. Pairs/s and the
 * latency of a pair (LOCK sent to UNLOCK answered).
 *
 * fcntl (no NFS: a local path, or a kernel NFS mount in the QEMU guest):
 * the same "one" and "two" with F_SETLK on DIR/nfsbench-fcntl.PID, the
 * second owner a child process, the turns passed through pipes.
 */
#include "nfsbench.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nfsc/libnfs-raw-nlm.h>

#define CALLER "nfsbench"

enum lmode { ONE, TWO, MANY };

struct owner {
	struct conn *c;
	u_int svid;
	char oh[32];
	uint64_t off;
	uint64_t t0;           /* the pair's LOCK went out */
	uint32_t cookie;       /* of the call in flight */
	char cbuf[4];
};

struct lockrun {
	enum lmode mode;
	struct fh file;
	struct owner *ow;
	int nowners;
	uint64_t until;        /* no new pair after this */
	int measuring;
	int chains;            /* owners with a call in flight */
	uint64_t pairs;
	struct lat lat;
	uint32_t next_cookie;
};

static int issue(struct lockrun *L, struct owner *o, int unlock);

static void set_cookie(struct lockrun *L, struct owner *o, nlm_cookie *c)
{
	o->cookie = ++L->next_cookie;
	memcpy(o->cbuf, &o->cookie, 4);
	c->data.data_len = 4;
	c->data.data_val = o->cbuf;
}

static void fill_lock(const struct lockrun *L, struct owner *o, nlm4_lock *k)
{
	k->caller_name = CALLER;
	k->fh.data.data_len = L->file.len;
	k->fh.data.data_val = (char *)L->file.data;
	k->oh = o->oh;
	k->svid = o->svid;
	k->l_offset = o->off;
	k->l_len = 1;
}

/* Status and cookie of a LOCK or UNLOCK reply (same layout in libnfs). */
static int reply_ok(struct owner *o, const nlm_cookie *c, nlmstat4 st, const char *what)
{
	if (c->data.data_len != 4 || memcmp(c->data.data_val, &o->cookie, 4)) {
		bench_error("%s (svid %u): the reply does not echo the cookie", what, o->svid);
		return 0;
	}
	if (st != NLM4_GRANTED) {
		bench_error("%s (svid %u) of byte %llu: status %d, not NLM4_GRANTED", what, o->svid,
			    (unsigned long long)o->off, (int)st);
		return 0;
	}
	return 1;
}

/* The next owner to take the lock: the same one, or the other of two. */
static struct owner *next_owner(struct lockrun *L, struct owner *o)
{
	if (L->mode != TWO)
		return o;
	return o == &L->ow[0] ? &L->ow[1] : &L->ow[0];
}

static void unlock_done(struct req *rq, void *res)
{
	struct lockrun *L = rq->ctx;
	struct owner *o = &L->ow[rq->u64];
	NLM4_UNLOCKres *r = res;

	if (!r || !reply_ok(o, &r->cookie, r->status, "UNLOCK"))
		return;
	if (L->measuring) {
		L->pairs++;
		lat_add(&L->lat, now_ns() - o->t0);
	}
	if (now_ns() < L->until)
		issue(L, next_owner(L, o), 0);
	else
		L->chains--;
}

static void lock_done(struct req *rq, void *res)
{
	struct lockrun *L = rq->ctx;
	struct owner *o = &L->ow[rq->u64];
	NLM4_LOCKres *r = res;

	if (!r || !reply_ok(o, &r->cookie, r->status, "LOCK"))
		return;
	issue(L, o, 1);
}

/* LOCK (non-blocking, exclusive) or UNLOCK of o's byte. */
static int issue(struct lockrun *L, struct owner *o, int unlock)
{
	struct req *rq = req_new(o->c, unlock ? unlock_done : lock_done, L);

	rq->u64 = (uint64_t)(o - L->ow);
	if (unlock) {
		NLM4_UNLOCKargs a;

		memset(&a, 0, sizeof(a));
		set_cookie(L, o, &a.cookie);
		fill_lock(L, o, &a.lock);
		if (rpc_nlm4_unlock_async(o->c->rpc, req_cb, &a, rq) < 0)
			return req_queue_failed(rq, "UNLOCK");
		return 0;
	}
	NLM4_LOCKargs a;

	memset(&a, 0, sizeof(a));
	set_cookie(L, o, &a.cookie);
	a.exclusive = 1;
	a.state = 1;
	fill_lock(L, o, &a.lock);
	o->t0 = now_ns();
	if (rpc_nlm4_lock_async(o->c->rpc, req_cb, &a, rq) < 0)
		return req_queue_failed(rq, "LOCK");
	return 0;
}

/* ---- the runs ---- */

static uint64_t idle_pump(struct conn *c, void *arg)
{
	(void)c;
	(void)arg;
	return UINT64_MAX;
}

static int done_stop(void *arg)
{
	struct lockrun *L = arg;

	return L->chains == 0;
}

/* Keep the chains going until `until`, then let the last pairs finish. */
static int run_for(struct lockrun *L, struct conn *cs, int n, double seconds)
{
	L->until = now_ns() + (uint64_t)(seconds * 1e9);
	L->chains = L->mode == TWO ? 1 : L->nowners;
	if (L->mode == TWO)
		issue(L, &L->ow[0], 0);
	else
		for (int i = 0; i < L->nowners; i++)
			issue(L, &L->ow[i], 0);
	loop_run(cs, n, idle_pump, done_stop, L);
	return loop_drain(cs, n);
}

/* One LOCK or UNLOCK and its answer, outside the timed chains (the TWO check). */
static void single_done(struct req *rq, void *res)
{
	nlmstat4 *st = rq->ctx;
	NLM4_LOCKres *r = res;   /* UNLOCKres has the same layout */

	*st = r ? r->status : NLM4_FAILED;
}

static nlmstat4 lock_once(struct lockrun *L, struct conn *c, struct owner *o, int unlock)
{
	nlmstat4 st = NLM4_FAILED;
	struct req *rq = req_new(c, single_done, &st);
	int rc;

	if (unlock) {
		NLM4_UNLOCKargs a;

		memset(&a, 0, sizeof(a));
		set_cookie(L, o, &a.cookie);
		fill_lock(L, o, &a.lock);
		rc = rpc_nlm4_unlock_async(c->rpc, req_cb, &a, rq);
	} else {
		NLM4_LOCKargs a;

		memset(&a, 0, sizeof(a));
		set_cookie(L, o, &a.cookie);
		a.exclusive = 1;
		a.state = 1;
		fill_lock(L, o, &a.lock);
		rc = rpc_nlm4_lock_async(c->rpc, req_cb, &a, rq);
	}
	if (rc < 0) {
		req_queue_failed(rq, unlock ? "UNLOCK" : "LOCK");
		return NLM4_FAILED;
	}
	loop_drain(c, 1);
	return st;
}

static void report(struct lockrun *L, const char *key, const char *what, double seconds)
{
	char k[64];
	double rate = (double)L->pairs / seconds;

	printf("  %-44s %10.0f pairs/s  p50 %.3f ms  p99 %.3f ms  (%llu pairs)\n", what, rate,
	       lat_pct_ms(&L->lat, 50), lat_pct_ms(&L->lat, 99), (unsigned long long)L->pairs);
	snprintf(k, sizeof(k), "lock.%s.pairs_s", key);
	result(k, "%.0f", rate);
	snprintf(k, sizeof(k), "lock.%s.p50_ms", key);
	result(k, "%.3f", lat_pct_ms(&L->lat, 50));
	snprintf(k, sizeof(k), "lock.%s.p99_ms", key);
	result(k, "%.3f", lat_pct_ms(&L->lat, 99));
}

/* Warm up for O.warmup, then count pairs for O.duration. */
static void measure(struct lockrun *L, struct conn *cs, int n, const char *key, const char *what)
{
	uint64_t t0;

	L->measuring = 0;
	if (O.warmup > 0)
		run_for(L, cs, n, O.warmup);
	lat_reset(&L->lat);
	L->pairs = 0;
	L->measuring = 1;
	t0 = now_ns();
	run_for(L, cs, n, O.duration);
	if (!bench_failed())
		report(L, key, what, secs(now_ns() - t0));
}

static void owners_init(struct lockrun *L, struct conn *cs, int n, int count)
{
	L->ow = calloc((size_t)count, sizeof(*L->ow));
	if (!L->ow) {
		bench_error("out of memory");
		return;
	}
	L->nowners = count;
	for (int i = 0; i < count; i++) {
		L->ow[i].c = &cs[i % n];
		L->ow[i].svid = 1000u + (u_int)i;
		snprintf(L->ow[i].oh, sizeof(L->ow[i].oh), "nfsbench.%d.%d", (int)getpid(), i);
		/* MANY: a byte each; ONE and TWO: all on byte 0 */
		L->ow[i].off = L->mode == MANY ? (uint64_t)i * 8 : 0;
	}
}

/* TWO: while A holds the byte, B's LOCK must be denied. */
static void check_two_owners(struct lockrun *L, struct conn *c)
{
	nlmstat4 st;

	if (lock_once(L, c, &L->ow[0], 0) != NLM4_GRANTED) {
		bench_error("LOCK by the first owner was not granted");
		return;
	}
	st = lock_once(L, c, &L->ow[1], 0);
	if (st != NLM4_DENIED)
		bench_error("LOCK by the second owner while the first holds it: status %d, not DENIED", (int)st);
	if (lock_once(L, c, &L->ow[0], 1) != NLM4_GRANTED)
		bench_error("UNLOCK by the first owner was not granted");
}

static void lock_variant(enum lmode mode, struct conn *cs, int n, const struct fh *file)
{
	static const char *const keys[] = { "one", "two", "many" };
	char what[96];
	struct lockrun L;
	int count = mode == ONE ? 1 : mode == TWO ? 2 : n * O.depth;

	memset(&L, 0, sizeof(L));
	L.mode = mode;
	L.file = *file;
	owners_init(&L, cs, mode == MANY ? n : 1, count);
	if (bench_failed())
		return;
	if (mode == TWO)
		check_two_owners(&L, &cs[0]);
	if (mode == ONE)
		snprintf(what, sizeof(what), "one owner, LOCK + UNLOCK");
	else if (mode == TWO)
		snprintf(what, sizeof(what), "two owners passing one lock");
	else
		snprintf(what, sizeof(what), "%d owners at once (%d conns x %d)", count, n, O.depth);
	if (!bench_failed())
		measure(&L, cs, mode == MANY ? n : 1, keys[mode], what);
	lat_free(&L.lat);
	free(L.ow);
}

/* NLM connections: O.conns of them, to the NLM port (default: the NFS port). */
static struct conn *nlm_conns(int n)
{
	struct conn *cs = calloc((size_t)n, sizeof(*cs));

	if (!cs)
		return NULL;
	for (int i = 0; i < n; i++) {
		cs[i].id = i;
		cs[i].rpc = connect_to(O.nlm_port ? O.nlm_port : O.nfs_port, NLM_PROGRAM, NLM_V4);
		if (!cs[i].rpc) {
			conns_close(cs, i);
			return NULL;
		}
	}
	return cs;
}

int run_lock(void)
{
	struct conn *nfs, *cs;
	struct fh root, parent, dir, file;
	char name[64];
	int st;

	nfs = conns_open(1, &root);
	if (!nfs)
		return -1;
	if (make_scratch(&nfs[0], &root, "lock", &parent, name, sizeof(name), &dir) < 0) {
		conns_close(nfs, 1);
		return -1;
	}
	st = sync_create(&nfs[0], &dir, "lockfile", &file);
	if (st != NFS3_OK)
		bench_error("CREATE lockfile: %s", st < 0 ? "call failed" : nfsstat_name(st));
	cs = bench_failed() ? NULL : nlm_conns(O.conns);
	if (cs) {
		printf("lock: NLM v4 LOCK/UNLOCK pairs of one byte, %.1f s each (after %.1f s warm-up), "
		       "port %d\n", O.duration, O.warmup, O.nlm_port ? O.nlm_port : O.nfs_port);
		bench_hook("start");
		lock_variant(ONE, cs, O.conns, &file);
		if (!bench_failed())
			lock_variant(TWO, cs, O.conns, &file);
		if (!bench_failed())
			lock_variant(MANY, cs, O.conns, &file);
		bench_hook("stop");
		conns_close(cs, O.conns);
	}
	if (!O.keep)
		remove_tree(&nfs[0], &parent, name);
	conns_close(nfs, 1);
	return bench_failed() ? -1 : 0;
}

/* ---- fcntl: the same through the kernel (a local path or an NFS mount) ---- */

static int setlk(int fd, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };

	return fcntl(fd, F_SETLK, &fl);
}

/* One pair; its latency into lat. */
static int fcntl_pair(int fd, struct lat *lat)
{
	uint64_t t0 = now_ns();

	if (setlk(fd, F_WRLCK) < 0 || setlk(fd, F_UNLCK) < 0)
		return -1;
	lat_add(lat, now_ns() - t0);
	return 0;
}

static void fcntl_report(const char *key, const char *what, struct lat *lat, size_t pairs, double s)
{
	char k[64];

	printf("  %-44s %10.0f pairs/s  p50 %.3f ms  p99 %.3f ms  (%zu pairs)\n", what,
	       (double)pairs / s, lat_pct_ms(lat, 50), lat_pct_ms(lat, 99), pairs);
	snprintf(k, sizeof(k), "fcntl.%s.pairs_s", key);
	result(k, "%.0f", (double)pairs / s);
	snprintf(k, sizeof(k), "fcntl.%s.p50_ms", key);
	result(k, "%.3f", lat_pct_ms(lat, 50));
	snprintf(k, sizeof(k), "fcntl.%s.p99_ms", key);
	result(k, "%.3f", lat_pct_ms(lat, 99));
}

static void fcntl_one(int fd)
{
	struct lat lat = { 0 };
	uint64_t t0, until;

	/* untimed: the first lock may wait out a server's grace period */
	if (fcntl_pair(fd, &lat) < 0) {
		bench_error("fcntl: %s", strerror(errno));
		return;
	}
	lat_reset(&lat);
	t0 = now_ns();
	until = t0 + (uint64_t)(O.duration * 1e9);

	while (now_ns() < until)
		if (fcntl_pair(fd, &lat) < 0) {
			bench_error("fcntl: %s", strerror(errno));
			break;
		}
	if (!bench_failed())
		fcntl_report("one", "one owner, F_SETLK + F_UNLCK", &lat, lat.n, secs(now_ns() - t0));
	lat_free(&lat);
}

/*
 * The second owner: a child that takes its turn when a byte arrives on
 * `in`, and hands the turn back on `out`; exits on end of file.
 */
static void fcntl_child(const char *path, int in, int out)
{
	int fd = open(path, O_RDWR);
	char t;

	if (fd < 0)
		_exit(2);
	/* the parent holds the lock now: we must be refused */
	if (read(in, &t, 1) != 1 || setlk(fd, F_WRLCK) == 0 || (errno != EAGAIN && errno != EACCES))
		_exit(3);
	if (write(out, "k", 1) != 1)
		_exit(2);
	while (read(in, &t, 1) == 1) {
		if (setlk(fd, F_WRLCK) < 0 || setlk(fd, F_UNLCK) < 0)
			_exit(4);
		if (write(out, "k", 1) != 1)
			_exit(2);
	}
	_exit(0);
}

static void fcntl_two(const char *path, int fd)
{
	int to_child[2], to_parent[2], status;
	struct lat lat = { 0 };
	uint64_t t0, until;
	pid_t pid;
	char t;

	if (pipe(to_child) < 0 || pipe(to_parent) < 0) {
		bench_error("pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		fcntl_child(path, to_child[0], to_parent[1]);
	}
	close(to_child[0]);
	close(to_parent[1]);
	/* first: the child's LOCK while we hold it is refused */
	if (setlk(fd, F_WRLCK) < 0 || write(to_child[1], "k", 1) != 1 || read(to_parent[0], &t, 1) != 1 ||
	    setlk(fd, F_UNLCK) < 0)
		bench_error("fcntl two owners: the second owner was not refused while the first held the lock");
	t0 = now_ns();
	until = t0 + (uint64_t)(O.duration * 1e9);
	/* our pair, then the child's: two pairs a round (latencies: ours) */
	while (!bench_failed() && now_ns() < until)
		if (fcntl_pair(fd, &lat) < 0 || write(to_child[1], "k", 1) != 1 || read(to_parent[0], &t, 1) != 1)
			bench_error("fcntl two owners: a turn failed");
	close(to_child[1]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		bench_error("fcntl two owners: the second owner failed (status %d)", status);
	if (!bench_failed())
		fcntl_report("two", "two owners (processes) passing one lock", &lat, 2 * lat.n, secs(now_ns() - t0));
	close(to_parent[0]);
	lat_free(&lat);
}

int run_fcntl(void)
{
	char path[4096];
	int fd;

	if (!O.dir) {
		fprintf(stderr, "nfsbench fcntl: -D DIR is required\n");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/nfsbench-fcntl.%d", O.dir, (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		bench_error("%s: %s", path, strerror(errno));
		return -1;
	}
	printf("fcntl: F_SETLK/F_UNLCK pairs on one byte of %s, %.1f s each\n", path, O.duration);
	fcntl_one(fd);
	if (!bench_failed())
		fcntl_two(path, fd);
	close(fd);
	unlink(path);
	return bench_failed() ? -1 : 0;
}
