/*
 * Statistics: counters kept by the threads that do the work, summed only
 * when somebody asks (usernfsctl, the metrics listener, through
 * admin/stats_print.h). Every layer counts through this header.
 *
 * Every thread that counts has its own block (stats_me), found through a
 * thread-local pointer and registered once in a list; only its own
 * thread writes it, with plain relaxed loads and stores (no locked
 * instruction, no shared cache line), and a snapshot reads every block
 * with relaxed loads.  Nothing on the path of a call takes a lock or
 * writes memory another thread writes.  DESIGN.md, "Statistics".
 *
 * Configured with --disable-stats (USERNFSD_NO_STATS) the counting macros
 * and calls compile to nothing, for measuring what counting costs.
 */
#ifndef USERNFSD_STATS_H
#define USERNFSD_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Events, each a counter; the names are in stats.c (counter_names). */
enum stat_counter {
	ST_TCP_ACCEPTED,	/* connections accepted */
	ST_TCP_CLOSED,		/* connections closed, for any reason */
	ST_TCP_EVICTED,		/* closed to make room: the connection limit */
	ST_TCP_REFUSED,		/* refused: no slot at all */
	ST_TCP_IDLE_CLOSED,	/* closed by the idle timeout */
	ST_TCP_RECORDS,		/* calls (records) read over TCP */
	ST_UDP_DATAGRAMS,	/* calls read over UDP */
	ST_UDP_DROPS,		/* UDP calls dropped: the work queue was full */
	ST_TCP_OVERLOAD,	/* connections closed: the work queue was full */
	ST_RECMARK_ERRORS,	/* bad or oversized record marks */
	ST_REPLIES_QUEUED,	/* TCP replies left on a connection's output queue */
	ST_TCP_BUDGET_PAUSES,	/* connections paused: all replies queued reached the budget */
	ST_TCP_BUDGET_DROPS,	/* connections closed: replies stalled while over the budget */
	ST_DRC_HITS,		/* retransmissions answered from the cache */
	ST_DRC_IN_PROGRESS,	/* retransmissions of a call still running: dropped */
	ST_DRC_MISSES,		/* non-idempotent calls run (and cached) */
	ST_IC_HITS,		/* file handle found in the inode cache */
	ST_IC_MISSES,		/* not found: resolved as below */
	ST_IC_MISS_HANDLE,	/* ... by open_by_handle_at */
	ST_IC_MISS_SEARCH,	/* ... by searching the export */
	ST_IC_MISS_FAILED,	/* ... not at all (stale) */
	ST_IC_EVICTIONS,	/* entries dropped to make room */
	ST_FD_HITS,		/* data descriptor reused */
	ST_FD_OPENS,		/* data descriptor opened */
	ST_COMMITS,		/* fsyncs for stability: COMMIT, stable WRITEs, sync exports */
	ST_READ_BYTES,		/* file data read for clients */
	ST_WRITE_BYTES,		/* file data written for clients */
	ST_CALLS_AUTH_NONE,	/* calls run, by security flavor ... */
	ST_CALLS_AUTH_SYS,
	ST_CALLS_KRB5,		/* ... RPCSEC_GSS by service */
	ST_CALLS_KRB5I,
	ST_CALLS_KRB5P,
	ST_GSS_CTX_CREATED,	/* RPCSEC_GSS contexts established */
	ST_GSS_CTX_DESTROYED,	/* ... ended by the client (DESTROY) */
	ST_GSS_CTX_EXPIRED,	/* ... dropped at the ticket's end (half-built: after 60 s) */
	ST_GSS_CTX_EVICTED,	/* ... dropped to make room (the table's caps) */
	ST_GSS_ERR_ACCEPT,	/* RPCSEC_GSS failures, by reason: context creation refused */
	ST_GSS_ERR_CREDPROBLEM,	/* an unknown, half-built or expired handle */
	ST_GSS_ERR_BADMIC,	/* a header MIC that does not verify */
	ST_GSS_ERR_CTXPROBLEM,	/* a sequence number of 2^31 or more */
	ST_GSS_ERR_DROPPED,	/* a replayed sequence number, or one below the window */
	ST_GSS_ERR_BODY,	/* an integrity or privacy body that does not check */
	ST_GSS_ERR_BADCRED,	/* a malformed credential or verifier */
	ST_CB_SENT,		/* calls to clients (NFSv4 callbacks), sent */
	ST_CB_ANSWERED,		/* ... answered with SUCCESS */
	ST_CB_TIMEOUTS,		/* ... not answered in time */
	ST_CB_FAILED,		/* ... refused, undecodable, or with no connection to go on */
	ST_DELEG_GRANTED,	/* read delegations handed out with OPEN */
	ST_DELEG_RECALLED,	/* ... recalled (CB_RECALL) for a conflict */
	ST_DELEG_RETURNED,	/* ... given back (DELEGRETURN) */
	ST_DELEG_REVOKED,	/* ... taken back: not returned in time, or the kernel broke its lease */
	ST_REJ_BADMAC,		/* rejected calls, by reason */
	ST_REJ_BADHANDLE,
	ST_REJ_STALE,
	ST_REJ_ACCESS,
	ST_REJ_SECURE_PORT,
	ST_REJ_WRONGSEC,	/* a flavor the export's sec= does not list */
	ST_REJ_AUTH,
	ST_REJ_GARBAGE_ARGS,
	ST_REJ_NO_PROGRAM,
	ST_REJ_NO_VERSION,
	ST_REJ_NO_PROCEDURE,
	ST_REJ_RPC_VERSION,
	ST_REJ_UNDECODABLE,
	ST_NCOUNTERS
};

/* Latency histograms: bucket i counts times up to 2^i microseconds; the last is +Inf. */
#define STATS_HBUCKETS 24
/*
 * Status values of results, compact: 0-31 as they are (NFS, MOUNT and NLM
 * statuses alike), then v2/v3's above 31 (63-71), then 10001-10096 (v3's
 * and NFSv4.2's, RFC 7863, to NFS4ERR_XATTR2BIG), then "other". The
 * blocks are mmap'd: a status never seen costs no resident memory.
 */
#define STATS_NSTATUS (32 + 5 + 96 + 1)
/* (program, version, procedure) slots, given out at registration. */
#define STATS_MAX_PROCS 256

struct stats_hist {
	uint64_t b[STATS_HBUCKETS];
	uint64_t sum_us;
};

struct stats_proc {
	uint64_t calls;		/* answered, whatever the outcome */
	uint64_t rpc_errors;	/* not accepted, or accepted without SUCCESS */
	uint64_t bytes_in, bytes_out;
	uint64_t status[STATS_NSTATUS];
	struct stats_hist wait, svc;
};

struct stats_block {
	uint64_t ctr[ST_NCOUNTERS];
	struct stats_hist fsync;
	struct stats_proc proc[STATS_MAX_PROCS];
	struct stats_block *next;	/* the list of all blocks */
};

/* Gauges, read at snapshot time from their modules. */
struct stats_gauges {
	uint64_t tcp_open, workq_depth, drc_entries, icache_entries, clients;
	uint64_t reply_memory;	/* bytes of the TCP reply budget in use (tcpbudget.c) */
	uint64_t gss_contexts;	/* RPCSEC_GSS contexts in the table, half-built ones too */
	uint64_t nlm_hosts, nlm_files, nlm_locks, nlm_waiters, nlm_shares;
	int nlm_enabled, nlm_grace;
	/* NFSv4's state, against its bounds (state/nfs4_clients.h, nfs4_state.h). */
	int nfs4_enabled;
	uint64_t nfs4_clients, nfs4_confirmed, nfs4_sessions, nfs4_stateids, nfs4_cache_bytes;
};

struct stats_snapshot {
	struct stats_block sum;
	struct stats_gauges g;
	const struct stats_slot *slots;	/* what sum.proc[i] stands for, i < nslots */
	unsigned nslots;
	unsigned threads;		/* workers serving calls */
	time_t now;
	double uptime;
};

/* What a slot stands for. */
struct stats_slot {
	const char *prog_name;	/* "nfs", "mount", "nlm" */
	uint32_t prog, vers, proc;
	const char *proc_name;
};

/* The block of the calling thread; registered on first use. */
extern _Thread_local struct stats_block *stats_tl;
struct stats_block *stats_register_thread(void);

static inline struct stats_block *
stats_me(void)
{
	struct stats_block *b = stats_tl;

	return __builtin_expect(b != NULL, 1) ? b : stats_register_thread();
}

/*
 * Only the owning thread writes a counter: a relaxed load and store is
 * enough (no locked add) and lets a snapshot read it without a data race.
 */
static inline void
stats_bump(uint64_t *p, uint64_t n)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

static inline unsigned
stats_bucket_of(uint64_t us)
{
	unsigned i = us <= 1 ? 0 : 64 - (unsigned)__builtin_clzll(us - 1);

	return i < STATS_HBUCKETS - 1 ? i : STATS_HBUCKETS - 1;
}

static inline void
stats_hist_add(struct stats_hist *h, uint64_t us)
{
	stats_bump(&h->b[stats_bucket_of(us)], 1);
	stats_bump(&h->sum_us, us);
}

/* Monotonic microseconds. */
uint64_t stats_now_us(void);

#ifdef USERNFSD_NO_STATS
#define STAT_ADD(c, n) do { (void)(n); } while (0)
#define STAT_INC(c) do { } while (0)
#define STATS_ENABLED 0
#else
#define STAT_ADD(c, n) stats_bump(&stats_me()->ctr[(c)], (uint64_t)(n))
#define STAT_INC(c) STAT_ADD((c), 1)
#define STATS_ENABLED 1
#endif

/*
 * rc = call, where call is an fsync done so that data or metadata is
 * stable for a client (COMMIT, a FILE_SYNC WRITE, a change on a sync
 * export): counted, and timed into the fsync histogram.
 */
#ifdef USERNFSD_NO_STATS
#define STAT_FSYNC(rc, call) do { (rc) = (call); } while (0)
#else
#define STAT_FSYNC(rc, call) do { \
	uint64_t t0_ = stats_now_us(); \
	(rc) = (call); \
	STAT_INC(ST_COMMITS); \
	stats_fsync_time(stats_now_us() - t0_); \
} while (0)
#endif

/*
 * Gives one slot to each procedure of a program version; returns the
 * first (the rest follow in procedure order), or -1 when full.
 */
int stats_register_version(const char *prog_name, uint32_t prog, uint32_t vers,
    const char *const *proc_names, unsigned nprocs);
/* Status word -> index into stats_proc.status, and back (-1: "other"). */
unsigned stats_status_index(uint32_t status);
int64_t stats_status_value(unsigned idx);

/* One call answered: its slot (-1 if none), outcome, sizes and times. */
void stats_call(int slot, int rpc_error, int has_status, uint32_t status, size_t bytes_in,
    size_t bytes_out, uint64_t wait_us, uint64_t svc_us);
void stats_fsync_time(uint64_t us);

/* Sums every block and reads the gauges; free with free(). */
struct stats_snapshot *stats_snapshot(void);
size_t stats_slots(const struct stats_slot **out);

/*
 * At start-up: whether the lock manager runs, the worker thread count, and
 * who reads the gauges (daemon.c: from their modules, so that this file
 * depends on none of them; NULL: none).
 */
typedef void (*stats_gauges_fn)(struct stats_gauges *g);
void stats_init(int with_nlm, unsigned threads, stats_gauges_fn gauges);

#endif
