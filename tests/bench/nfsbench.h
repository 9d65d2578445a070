/*
 * nfsbench.h - shared pieces of nfsbench, an NFSv3 load generator built
 * on libnfs's asynchronous raw API (see nfsbench.c for the command line).
 *
 * Model: a "conn" is one TCP connection (one libnfs rpc_context).  A
 * "loop" polls a set of conns and lets each workload keep as many calls
 * in flight as it wants; every call carries a "req" that records when it
 * was meant to start (for latency) and what to check in the reply.
 * Anything unexpected goes through bench_error(): the run is then
 * reported as failed and no throughput is printed.
 */
#ifndef NFSBENCH_H
#define NFSBENCH_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* ppoll */
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>            /* libnfs.h uses struct timeval */

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-mount.h>
#include <nfsc/libnfs-raw-nfs.h>

#define KiB 1024u
#define MiB (1024u * 1024u)
#define MAX_FH 64               /* NFSv3 handles are at most 64 bytes */

/* ---- options ---- */

struct opts {
	const char *host;
	int nfs_port, mount_port;
	int nlm_port;            /* lock: the NLM port (0: the NFS port) */
	const char *export;
	const char *dir;         /* parent of the scratch directory, relative to the export */
	int conns;               /* TCP connections */
	int threads;             /* mix: threads sharing the connections */
	int depth;               /* closed loop: calls in flight per connection */
	int max_inflight;        /* open loop: cap per connection (the rest waits, counted in latency) */
	double duration;         /* seconds per measured step */
	double warmup;           /* seconds of load before the first step */
	const char *loads;       /* mix: comma-separated offered loads (ops/s) */
	int no_peak;             /* mix: skip the closed-loop peak */
	int no_ladder;           /* mix: skip the open-loop ladder */
	int ws_dirs, ws_files, ws_links;   /* mix working set */
	unsigned io_size;        /* mix READ/WRITE size */
	unsigned seq_mib;        /* seq/hol: file size */
	unsigned xfer;           /* seq/smallcopy: transfer size cap (also capped by FSINFO) */
	const char *drop_cmd;    /* seq: shell command that empties the server's cache */
	int passes;              /* seq: passes of the warm read (each reported) */
	int no_check;            /* seq: do not check the data read (the client's CPU) */
	int meta_files;          /* meta: N */
	unsigned dircount, maxcount;  /* READDIRPLUS sizes */
	long long walk_expect;   /* walk: entries it must find (-1: any) */
	unsigned tree_dirs, tree_files;  /* mktree */
	double interval_ms;      /* hol: GETATTR period */
	int small_files;         /* smallcopy: K */
	unsigned small_kib;      /* smallcopy: S */
	const char *results;     /* key=value output file (default: stdout) */
	const char *tag;         /* prefix of every key (e.g. the server's name) */
	const char *hook;        /* run as 'HOOK start' / 'HOOK stop' around the measured part */
	int server_pid;          /* the server's pid on this machine, for its CPU time per call (0: none) */
	int keep;                /* keep what was created */
	double stall_s;          /* abort when no reply arrives for this long */
	uint64_t seed;
};

extern struct opts O;

/* ---- time, random numbers, statistics (util.c) ---- */

uint64_t now_ns(void);
double secs(uint64_t ns);

struct rng { uint64_t s; };
uint64_t rng_next(struct rng *r);
double rng_unit(struct rng *r);             /* uniform in [0, 1) */
unsigned rng_below(struct rng *r, unsigned n);
double rng_exp(struct rng *r, double mean); /* exponential interarrival */

struct lat {                /* every latency of a step, in ns; exact percentiles */
	uint64_t *v;
	size_t n, cap;
	uint64_t sum;
};
void lat_add(struct lat *l, uint64_t ns);
void lat_merge(struct lat *into, const struct lat *from);
void lat_reset(struct lat *l);
void lat_free(struct lat *l);
double lat_mean_ms(const struct lat *l);
double lat_pct_ms(struct lat *l, double pct);  /* sorts l->v */

/*
 * File contents: word i of a file with seed s is base[i % 512] XOR a
 * per-4-KiB-block key, so generating and checking cost about a memcpy
 * (the client shares two cores with the server) while every block of
 * every file differs.  Offsets and lengths must be multiples of 8.
 */
void pattern_fill(void *buf, uint64_t seed, uint64_t off, size_t len);
/* returns the offset of the first bad byte, or -1 when all match */
long long pattern_check(const void *buf, uint64_t seed, uint64_t off, size_t len);

/* ---- errors and results ---- */

void bench_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int bench_failed(void);
const char *bench_first_error(void);
void result(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void results_flush(void);
/* Runs O.hook with the argument (e.g. to start a profiler only while measuring). */
void bench_hook(const char *what);

/*
 * CPU time (ns) the server (--server-pid) has used so far, all its
 * threads; -1 without --server-pid or when it cannot be read.  Read it
 * before and after a measured step: cpu_us_per_call() turns the two
 * readings into microseconds per call (-1 when either is missing).
 */
int64_t server_cpu_ns(void);
double cpu_us_per_call(int64_t before, int64_t after, uint64_t calls);

/* ---- connections and the event loop (conn.c) ---- */

struct fh { unsigned len; char data[MAX_FH]; };

struct conn {
	struct rpc_context *rpc;
	int id;
	int inflight;
	void *wl;                 /* workload's per-connection state */
};

struct req;
typedef void (*req_done)(struct req *rq, void *res);

/* One call in flight.  'res' given to done() is the decoded reply (NULL
 * after an RPC-level failure, which has already been reported). */
struct req {
	struct conn *c;
	req_done done;
	uint64_t t0;              /* when the call was due: latency includes queueing */
	int kind;                 /* workload-defined */
	void *ctx;                /* workload-defined */
	uint64_t u64;             /* workload-defined */
	char name[32];            /* for calls that carry a name */
};

struct req *req_new(struct conn *c, req_done done, void *ctx);
/* The libnfs callback every call uses: bookkeeping, then rq->done. */
void req_cb(struct rpc_context *rpc, int status, void *data, void *priv);
/* Queue-failure path of an rpc_nfs3_*_async call (returns -1). */
int req_queue_failed(struct req *rq, const char *proc);

struct conn *conns_open(int n, struct fh *root);
/* A TCP connection to O.host:port for prog/vers (NULL after bench_error). */
struct rpc_context *connect_to(int port, int prog, int vers);
void conns_close(struct conn *c, int n);

/*
 * Run the loop over conns until stop(arg) says so.  pump(c, arg) is
 * called for each conn after every poll round and issues new calls; it
 * returns how long (ns) the loop may sleep before it wants to issue again
 * (UINT64_MAX: until a reply arrives).
 */
typedef uint64_t (*pump_fn)(struct conn *c, void *arg);
typedef int (*stop_fn)(void *arg);
int loop_run(struct conn *cs, int n, pump_fn pump, stop_fn stop, void *arg);

/* Wait until no call is in flight on any of the conns. */
int loop_drain(struct conn *cs, int n);

/*
 * Hand out items 0..count-1 to the conns, keeping up to depth calls in
 * flight on each: fn(c, i, arg) issues the first call of item i (a
 * multi-step item issues its next call from the reply's callback, on the
 * same conn, so one item is one call in flight).  Returns when every item
 * has finished.
 */
typedef int (*batch_fn)(struct conn *c, size_t i, void *arg);
int run_batch(struct conn *cs, int n, size_t count, int depth, batch_fn fn, void *arg);

/* ---- NFS helpers (nfsops.c) ---- */

void fh_set(struct fh *f, const nfs_fh3 *h);
nfs_fh3 fh_arg(const struct fh *f);    /* points into f */
const char *nfsstat_name(int st);

/* Synchronous helpers for setup and cleanup, on one conn. */
int sync_lookup(struct conn *c, const struct fh *dir, const char *name, struct fh *out);
int sync_mkdir(struct conn *c, const struct fh *dir, const char *name, struct fh *out);
int sync_create(struct conn *c, const struct fh *dir, const char *name, struct fh *out);
int sync_rmdir(struct conn *c, const struct fh *dir, const char *name);
int sync_remove(struct conn *c, const struct fh *dir, const char *name);
int sync_fsinfo(struct conn *c, const struct fh *root, unsigned *rtmax, unsigned *wtmax);
/* Remove every entry of dir (one level of subdirectories too), then dir. */
int remove_tree(struct conn *c, const struct fh *parent, const char *name);

/* Asynchronous calls used by several workloads: rq->done gets the reply. */
int call_create(struct req *rq, const struct fh *dir, const char *name, int guarded);
int call_write(struct req *rq, const struct fh *f, uint64_t off, void *buf, unsigned len, int stable);
int call_read(struct req *rq, const struct fh *f, uint64_t off, unsigned len);
int call_commit(struct req *rq, const struct fh *f);
int call_lookup(struct req *rq, const struct fh *dir, const char *name);
int call_getattr(struct req *rq, const struct fh *f);
int call_access(struct req *rq, const struct fh *f, uint32_t access);
int call_remove(struct req *rq, const struct fh *dir, const char *name);
/* Within one directory: from -> to. */
int call_rename(struct req *rq, const struct fh *dir, const char *from, const char *to);

/* LOOKUP of each component of path (relative to root; NULL: root itself). */
int lookup_path(struct conn *c, const struct fh *root, const char *path, struct fh *out);

/* The working directory of a run: O.dir/NAME.PID under the export. */
int make_scratch(struct conn *c, const struct fh *root, const char *what,
		 struct fh *parent, char *name, size_t namesz, struct fh *out);

/* ---- workloads ---- */

int run_mix(void);
int run_mix1(void);
int run_getattr(void);
int run_smallfile(void);
int run_seq(void);
int run_meta(void);
int run_smallcopy(void);
int run_walk(void);
int run_hol(void);
int run_mktree(void);
int run_lock(void);
int run_fcntl(void);

#endif
