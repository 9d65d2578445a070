/*
 * Statistics: the per-thread blocks, their sum, and the forms it is shown
 * in (include/stats.h; DESIGN.md, "Statistics").
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "rpc/clients.h"
#include "log.h"
#include "stats.h"

_Thread_local struct stats_block *stats_tl;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stats_block *blocks;		/* every thread's, never freed */
static struct stats_slot slots[STATS_MAX_PROCS];
static unsigned nslots;
static uint64_t start_us;
static int nlm_enabled;
static unsigned nthreads;
static stats_gauges_fn read_gauges;

/* ---- counting ---- */

/*
 * A thread's first count registers its block; blocks outlive their
 * threads (a pool is fixed, so they are few), so what a thread counted
 * is never lost.  mmap: untouched slots cost no memory.
 */
struct stats_block *
stats_register_thread(void)
{
	struct stats_block *b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (b == MAP_FAILED)
		fatal("statistics block");
	pthread_mutex_lock(&reg_lock);
	b->next = blocks;
	__atomic_store_n(&blocks, b, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&reg_lock);
	stats_tl = b;
	return b;
}

uint64_t
stats_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void
stats_init(int with_nlm, unsigned threads, stats_gauges_fn gauges)
{
	start_us = stats_now_us();
	nlm_enabled = with_nlm;
	nthreads = threads;
	read_gauges = gauges;
}

int
stats_register_version(const char *prog_name, uint32_t prog, uint32_t vers,
    const char *const *proc_names, unsigned nprocs)
{
	int base;

	pthread_mutex_lock(&reg_lock);
	if (nslots + nprocs > STATS_MAX_PROCS) {
		pthread_mutex_unlock(&reg_lock);
		return -1;
	}
	base = (int)nslots;
	for (unsigned p = 0; p < nprocs; p++) {
		struct stats_slot *s = &slots[nslots++];
		s->prog_name = prog_name;
		s->prog = prog;
		s->vers = vers;
		s->proc = p;
		s->proc_name = proc_names[p] ? proc_names[p] : "";
	}
	pthread_mutex_unlock(&reg_lock);
	return base;
}

static unsigned
nslots_now(void)
{
	return __atomic_load_n(&nslots, __ATOMIC_ACQUIRE);
}

size_t
stats_slots(const struct stats_slot **out)
{
	*out = slots;
	return __atomic_load_n(&nslots, __ATOMIC_ACQUIRE);
}

/* NFS statuses above 31 (RFC 1813, RFC 1094): the rest of the compact index. */
static const uint32_t high_status[] = {
	63, 66, 69, 70, 71, 10001, 10002, 10003, 10004, 10005, 10006, 10007, 10008,
};
#define NHIGH (sizeof(high_status) / sizeof(high_status[0]))

unsigned
stats_status_index(uint32_t status)
{
	if (status < 32)
		return status;
	for (unsigned i = 0; i < NHIGH; i++)
		if (high_status[i] == status)
			return 32 + i;
	return STATS_NSTATUS - 1;
}

int64_t
stats_status_value(unsigned idx)
{
	if (idx < 32)
		return idx;
	if (idx - 32 < NHIGH)
		return high_status[idx - 32];
	return -1;
}

void
stats_call(int slot, int rpc_error, int has_status, uint32_t status, size_t bytes_in,
    size_t bytes_out, uint64_t wait_us, uint64_t svc_us)
{
	struct stats_proc *p;

	if (slot < 0 || slot >= STATS_MAX_PROCS)
		return;
	p = &stats_me()->proc[slot];
	stats_bump(&p->calls, 1);
	if (rpc_error)
		stats_bump(&p->rpc_errors, 1);
	else if (has_status)
		stats_bump(&p->status[stats_status_index(status)], 1);
	stats_bump(&p->bytes_in, bytes_in);
	stats_bump(&p->bytes_out, bytes_out);
	stats_hist_add(&p->wait, wait_us);
	stats_hist_add(&p->svc, svc_us);
}

void
stats_fsync_time(uint64_t us)
{
	stats_hist_add(&stats_me()->fsync, us);
}

/* ---- the sum ---- */

static void
add_hist(struct stats_hist *to, const struct stats_hist *from)
{
	for (unsigned i = 0; i < STATS_HBUCKETS; i++)
		to->b[i] += __atomic_load_n(&from->b[i], __ATOMIC_RELAXED);
	to->sum_us += __atomic_load_n(&from->sum_us, __ATOMIC_RELAXED);
}

static uint64_t
hist_count(const struct stats_hist *h)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < STATS_HBUCKETS; i++)
		n += h->b[i];
	return n;
}

struct stats_snapshot *
stats_snapshot(void)
{
	struct stats_snapshot *s = calloc(1, sizeof(*s));
	struct stats_block *b;
	unsigned n = nslots_now();
	struct client_info *cl;

	if (s == NULL)
		return NULL;
	for (b = __atomic_load_n(&blocks, __ATOMIC_ACQUIRE); b; b = b->next) {
		for (unsigned i = 0; i < ST_NCOUNTERS; i++)
			s->sum.ctr[i] += __atomic_load_n(&b->ctr[i], __ATOMIC_RELAXED);
		add_hist(&s->sum.fsync, &b->fsync);
		for (unsigned k = 0; k < n; k++) {
			struct stats_proc *to = &s->sum.proc[k];
			const struct stats_proc *from = &b->proc[k];

			to->calls += __atomic_load_n(&from->calls, __ATOMIC_RELAXED);
			to->rpc_errors += __atomic_load_n(&from->rpc_errors, __ATOMIC_RELAXED);
			to->bytes_in += __atomic_load_n(&from->bytes_in, __ATOMIC_RELAXED);
			to->bytes_out += __atomic_load_n(&from->bytes_out, __ATOMIC_RELAXED);
			for (unsigned i = 0; i < STATS_NSTATUS; i++)
				to->status[i] += __atomic_load_n(&from->status[i], __ATOMIC_RELAXED);
			add_hist(&to->wait, &from->wait);
			add_hist(&to->svc, &from->svc);
		}
	}
	s->g.nlm_enabled = nlm_enabled;
	if (read_gauges)
		read_gauges(&s->g);
	s->g.clients = clients_list(&cl);
	free(cl);
	s->now = time(NULL);
	s->uptime = (double)(stats_now_us() - start_us) / 1e6;
	return s;
}

/* ---- names ---- */

struct counter_desc {
	const char *key;	/* JSON and flat key */
	const char *metric;	/* Prometheus name, without usernfsd_ */
	const char *label;	/* label="value" that sets it apart, or NULL */
	const char *help;
};

static const struct counter_desc counters[ST_NCOUNTERS] = {
	[ST_TCP_ACCEPTED] = { "tcp_accepted", "tcp_connections_accepted_total", NULL,
	    "TCP connections accepted." },
	[ST_TCP_CLOSED] = { "tcp_closed", "tcp_connections_closed_total", NULL,
	    "TCP connections closed, for any reason." },
	[ST_TCP_EVICTED] = { "tcp_evicted", "tcp_connections_evicted_total", NULL,
	    "TCP connections closed to make room for a new one (connection limit)." },
	[ST_TCP_REFUSED] = { "tcp_refused", "tcp_connections_refused_total", NULL,
	    "TCP connections refused: no room at all." },
	[ST_TCP_IDLE_CLOSED] = { "tcp_idle_closed", "tcp_connections_idle_closed_total", NULL,
	    "TCP connections closed after the idle timeout." },
	[ST_TCP_RECORDS] = { "tcp_calls", "calls_received_total", "proto=\"tcp\"",
	    "Calls received, by transport." },
	[ST_UDP_DATAGRAMS] = { "udp_calls", "calls_received_total", "proto=\"udp\"",
	    "Calls received, by transport." },
	[ST_UDP_DROPS] = { "udp_drops", "udp_drops_total", NULL,
	    "UDP calls dropped because the work queue was full." },
	[ST_TCP_OVERLOAD] = { "tcp_overload_closed", "tcp_connections_overload_closed_total", NULL,
	    "TCP connections closed because the work queue was full." },
	[ST_RECMARK_ERRORS] = { "recmark_errors", "record_marking_errors_total", NULL,
	    "TCP streams closed for a bad or oversized RPC record." },
	[ST_REPLIES_QUEUED] = { "replies_queued", "tcp_replies_queued_total", NULL,
	    "TCP replies left on a connection's output queue for its writer." },
	[ST_TCP_BUDGET_PAUSES] = { "tcp_budget_pauses", "tcp_reply_budget_pauses_total", NULL,
	    "TCP connections paused because the replies queued for all reached --reply-memory." },
	[ST_TCP_BUDGET_DROPS] = { "tcp_budget_drops", "tcp_reply_budget_drops_total", NULL,
	    "TCP connections closed: their unread replies stalled while over --reply-memory." },
	[ST_DRC_HITS] = { "drc_hits", "drc_hits_total", NULL,
	    "Retransmissions answered from the duplicate request cache." },
	[ST_DRC_IN_PROGRESS] = { "drc_in_progress", "drc_in_progress_drops_total", NULL,
	    "Retransmissions of a call still running, dropped." },
	[ST_DRC_MISSES] = { "drc_misses", "drc_misses_total", NULL,
	    "Non-idempotent calls run and entered in the duplicate request cache." },
	[ST_IC_HITS] = { "icache_hits", "icache_hits_total", NULL,
	    "File handles found in the inode cache." },
	[ST_IC_MISSES] = { "icache_misses", "icache_misses_total", NULL,
	    "File handles not in the inode cache." },
	[ST_IC_MISS_HANDLE] = { "icache_miss_by_handle", "icache_miss_resolutions_total",
	    "by=\"kernel_handle\"", "Inode cache misses, by how they were resolved." },
	[ST_IC_MISS_SEARCH] = { "icache_miss_by_search", "icache_miss_resolutions_total",
	    "by=\"search\"", "Inode cache misses, by how they were resolved." },
	[ST_IC_MISS_FAILED] = { "icache_miss_failed", "icache_miss_resolutions_total",
	    "by=\"none\"", "Inode cache misses, by how they were resolved." },
	[ST_IC_EVICTIONS] = { "icache_evictions", "icache_evictions_total", NULL,
	    "Inode cache entries dropped to make room." },
	[ST_FD_HITS] = { "datafd_hits", "datafd_cache_hits_total", NULL,
	    "Reads and writes that reused a cached open descriptor." },
	[ST_FD_OPENS] = { "datafd_opens", "datafd_cache_opens_total", NULL,
	    "Data descriptors opened (data-fd cache misses)." },
	[ST_COMMITS] = { "commits", "commits_total", NULL,
	    "fsyncs done for durability (COMMIT, and writes on sync exports)." },
	[ST_READ_BYTES] = { "read_bytes", "read_bytes_total", NULL,
	    "File data bytes read for clients." },
	[ST_WRITE_BYTES] = { "write_bytes", "write_bytes_total", NULL,
	    "File data bytes written for clients." },
	[ST_REJ_BADMAC] = { "rejected_bad_mac", "rejected_calls_total", "reason=\"bad_mac\"",
	    "Calls refused, by reason." },
	[ST_REJ_BADHANDLE] = { "rejected_bad_handle", "rejected_calls_total",
	    "reason=\"bad_handle\"", "Calls refused, by reason." },
	[ST_REJ_STALE] = { "rejected_stale", "rejected_calls_total", "reason=\"stale\"",
	    "Calls refused, by reason." },
	[ST_REJ_ACCESS] = { "rejected_access", "rejected_calls_total", "reason=\"access_denied\"",
	    "Calls refused, by reason." },
	[ST_REJ_SECURE_PORT] = { "rejected_secure_port", "rejected_calls_total",
	    "reason=\"secure_port\"", "Calls refused, by reason." },
	[ST_REJ_AUTH] = { "rejected_auth", "rejected_calls_total", "reason=\"auth\"",
	    "Calls refused, by reason." },
	[ST_REJ_GARBAGE_ARGS] = { "rejected_garbage_args", "rejected_calls_total",
	    "reason=\"garbage_args\"", "Calls refused, by reason." },
	[ST_REJ_NO_PROGRAM] = { "rejected_no_program", "rejected_calls_total",
	    "reason=\"prog_unavail\"", "Calls refused, by reason." },
	[ST_REJ_NO_VERSION] = { "rejected_no_version", "rejected_calls_total",
	    "reason=\"prog_mismatch\"", "Calls refused, by reason." },
	[ST_REJ_NO_PROCEDURE] = { "rejected_no_procedure", "rejected_calls_total",
	    "reason=\"proc_unavail\"", "Calls refused, by reason." },
	[ST_REJ_RPC_VERSION] = { "rejected_rpc_version", "rejected_calls_total",
	    "reason=\"rpc_mismatch\"", "Calls refused, by reason." },
	[ST_REJ_UNDECODABLE] = { "rejected_undecodable", "rejected_calls_total",
	    "reason=\"undecodable\"", "Calls refused, by reason." },
};

/* node_exporter's nfsd collector names NFS procedures so (its "method" label). */
static const char *const node_methods[] = {
	"Null", "GetAttr", "SetAttr", "Root", "Lookup", "ReadLink", "Read", "WrCache", "Write",
	"Create", "Remove", "Rename", "Link", "SymLink", "MkDir", "RmDir", "ReadDir", "FsStat",
	"Access", "MkNod", "ReadDirPlus", "FsInfo", "PathConf", "Commit",
};

static const char *
node_method(const char *proc)
{
	if (strcmp(proc, "WRITECACHE") == 0)
		return "WrCache";
	if (strcmp(proc, "STATFS") == 0)
		return "FsStat";
	for (size_t i = 0; i < sizeof(node_methods) / sizeof(node_methods[0]); i++)
		if (strcasecmp(proc, node_methods[i]) == 0)
			return node_methods[i];
	return proc;
}

#define NFS_PROG 100003u

static int
version_used(const struct stats_snapshot *s, unsigned n, unsigned k)
{
	for (unsigned i = 0; i < n; i++)
		if (slots[i].prog == slots[k].prog && slots[i].vers == slots[k].vers &&
		    s->sum.proc[i].calls)
			return 1;
	return 0;
}

static uint64_t
status_errors(const struct stats_proc *p)
{
	uint64_t n = 0;

	for (unsigned i = 1; i < STATS_NSTATUS; i++)
		n += p->status[i];
	return n;
}

static double
avg_us(const struct stats_hist *h)
{
	uint64_t n = hist_count(h);

	return n ? (double)h->sum_us / (double)n : 0.0;
}

/* ---- usernfsctl stats ---- */

void
stats_print_table(FILE *out, const struct stats_snapshot *s)
{
	unsigned n = nslots_now();
	uint64_t calls = 0, rpcerr = 0;

	for (unsigned k = 0; k < n; k++) {
		calls += s->sum.proc[k].calls;
		rpcerr += s->sum.proc[k].rpc_errors;
	}
	fprintf(out, "Server rpc stats (up %.0f s):\n", s->uptime);
	fprintf(out, "%-12s %-12s %-12s %-12s %-12s\n", "calls", "rpc_errors", "tcp_calls",
	    "udp_calls", "udp_drops");
	fprintf(out, "%-12llu %-12llu %-12llu %-12llu %-12llu\n", (unsigned long long)calls,
	    (unsigned long long)rpcerr, (unsigned long long)s->sum.ctr[ST_TCP_RECORDS],
	    (unsigned long long)s->sum.ctr[ST_UDP_DATAGRAMS],
	    (unsigned long long)s->sum.ctr[ST_UDP_DROPS]);
	for (unsigned k = 0; k < n; k++) {
		if (slots[k].proc != 0 || !version_used(s, n, k))
			continue;
		uint64_t vcalls = 0;
		for (unsigned i = k; i < n && slots[i].prog == slots[k].prog &&
		    slots[i].vers == slots[k].vers; i++)
			vcalls += s->sum.proc[i].calls;
		fprintf(out, "\nServer %s v%u:\n", slots[k].prog_name, slots[k].vers);
		fprintf(out, "%-12s %10s %4s %8s %8s %14s %14s %9s %9s\n", "procedure", "calls",
		    "%", "errors", "rpc_err", "bytes_in", "bytes_out", "wait_us", "svc_us");
		for (unsigned i = k; i < n && slots[i].prog == slots[k].prog &&
		    slots[i].vers == slots[k].vers; i++) {
			const struct stats_proc *p = &s->sum.proc[i];
			if (slots[i].proc_name[0] == '\0')
				continue;
			fprintf(out, "%-12s %10llu %3.0f%% %8llu %8llu %14llu %14llu %9.1f %9.1f\n",
			    slots[i].proc_name, (unsigned long long)p->calls,
			    vcalls ? 100.0 * (double)p->calls / (double)vcalls : 0.0,
			    (unsigned long long)status_errors(p), (unsigned long long)p->rpc_errors,
			    (unsigned long long)p->bytes_in, (unsigned long long)p->bytes_out,
			    avg_us(&p->wait), avg_us(&p->svc));
		}
	}
	fputs("\nTransport:\n", out);
	fprintf(out, "  %-28s %llu\n", "tcp_open", (unsigned long long)s->g.tcp_open);
	fprintf(out, "  %-28s %llu\n", "reply_memory", (unsigned long long)s->g.reply_memory);
	for (unsigned i = 0; i < ST_NCOUNTERS; i++)
		if (i <= ST_TCP_BUDGET_DROPS && i != ST_TCP_RECORDS && i != ST_UDP_DATAGRAMS &&
		    i != ST_UDP_DROPS)
			fprintf(out, "  %-28s %llu\n", counters[i].key,
			    (unsigned long long)s->sum.ctr[i]);
	fputs("\nWork queue:\n", out);
	fprintf(out, "  %-28s %llu\n", "depth", (unsigned long long)s->g.workq_depth);
	fputs("\nDuplicate request cache:\n", out);
	fprintf(out, "  %-28s %llu\n", "entries", (unsigned long long)s->g.drc_entries);
	for (unsigned i = ST_DRC_HITS; i <= ST_DRC_MISSES; i++)
		fprintf(out, "  %-28s %llu\n", counters[i].key, (unsigned long long)s->sum.ctr[i]);
	fputs("\nInode cache and data descriptors:\n", out);
	fprintf(out, "  %-28s %llu\n", "icache_entries", (unsigned long long)s->g.icache_entries);
	for (unsigned i = ST_IC_HITS; i <= ST_FD_OPENS; i++)
		fprintf(out, "  %-28s %llu\n", counters[i].key, (unsigned long long)s->sum.ctr[i]);
	fputs("\nData and commits:\n", out);
	for (unsigned i = ST_COMMITS; i <= ST_WRITE_BYTES; i++)
		fprintf(out, "  %-28s %llu\n", counters[i].key, (unsigned long long)s->sum.ctr[i]);
	fprintf(out, "  %-28s %.1f\n", "fsync_avg_us", avg_us(&s->sum.fsync));
	fputs("\nRejected calls:\n", out);
	for (unsigned i = ST_REJ_BADMAC; i < ST_NCOUNTERS; i++)
		fprintf(out, "  %-28s %llu\n", counters[i].key + strlen("rejected_"),
		    (unsigned long long)s->sum.ctr[i]);
	if (s->g.nlm_enabled) {
		fputs("\nLock manager:\n", out);
		fprintf(out, "  %-28s %llu\n  %-28s %llu\n  %-28s %llu\n  %-28s %llu\n  %-28s %s\n",
		    "hosts", (unsigned long long)s->g.nlm_hosts, "locks_held",
		    (unsigned long long)s->g.nlm_locks, "waiters",
		    (unsigned long long)s->g.nlm_waiters, "shares",
		    (unsigned long long)s->g.nlm_shares, "grace", s->g.nlm_grace ? "yes" : "no");
	}
	fprintf(out, "\nClients: %llu (usernfsctl clients)\n", (unsigned long long)s->g.clients);
}

/* ---- JSON ---- */

static void
json_hist(FILE *out, const char *name, const struct stats_hist *h)
{
	fprintf(out, "\"%s\":{\"count\":%llu,\"sum_us\":%llu,\"buckets_le_us\":[", name,
	    (unsigned long long)hist_count(h), (unsigned long long)h->sum_us);
	for (unsigned i = 0; i < STATS_HBUCKETS; i++)
		fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)h->b[i]);
	fputs("]}", out);
}

void
stats_print_json(FILE *out, const struct stats_snapshot *s)
{
	unsigned n = nslots_now();
	int first = 1;

	fprintf(out, "{\"time\":%lld,\"uptime_s\":%.3f,\"histogram_bounds_us\":[",
	    (long long)s->now, s->uptime);
	for (unsigned i = 0; i + 1 < STATS_HBUCKETS; i++)
		fprintf(out, "%s%llu", i ? "," : "", 1ull << i);
	fputs(",\"inf\"],\n\"procedures\":[", out);
	for (unsigned k = 0; k < n; k++) {
		const struct stats_proc *p = &s->sum.proc[k];
		if (slots[k].proc_name[0] == '\0')
			continue;
		fprintf(out, "%s\n{\"program\":\"%s\",\"prog\":%u,\"version\":%u,\"procedure\":\"%s\","
		    "\"proc\":%u,\"calls\":%llu,\"rpc_errors\":%llu,\"bytes_in\":%llu,"
		    "\"bytes_out\":%llu,\"status\":{", first ? "" : ",", slots[k].prog_name,
		    slots[k].prog, slots[k].vers, slots[k].proc_name, slots[k].proc,
		    (unsigned long long)p->calls, (unsigned long long)p->rpc_errors,
		    (unsigned long long)p->bytes_in, (unsigned long long)p->bytes_out);
		first = 0;
		for (unsigned i = 0, f = 1; i < STATS_NSTATUS; i++) {
			if (p->status[i] == 0)
				continue;
			if (stats_status_value(i) < 0)
				fprintf(out, "%s\"other\":%llu", f ? "" : ",",
				    (unsigned long long)p->status[i]);
			else
				fprintf(out, "%s\"%lld\":%llu", f ? "" : ",",
				    (long long)stats_status_value(i), (unsigned long long)p->status[i]);
			f = 0;
		}
		fputs("},", out);
		json_hist(out, "queue_wait", &p->wait);
		putc(',', out);
		json_hist(out, "service", &p->svc);
		putc('}', out);
	}
	fputs("],\n\"counters\":{", out);
	for (unsigned i = 0; i < ST_NCOUNTERS; i++)
		fprintf(out, "%s\"%s\":%llu", i ? "," : "", counters[i].key,
		    (unsigned long long)s->sum.ctr[i]);
	fputs("},\n", out);
	json_hist(out, "fsync", &s->sum.fsync);
	fprintf(out, ",\n\"gauges\":{\"tcp_open\":%llu,\"workq_depth\":%llu,\"drc_entries\":%llu,"
	    "\"icache_entries\":%llu,\"clients\":%llu,\"reply_memory\":%llu",
	    (unsigned long long)s->g.tcp_open, (unsigned long long)s->g.workq_depth,
	    (unsigned long long)s->g.drc_entries, (unsigned long long)s->g.icache_entries,
	    (unsigned long long)s->g.clients, (unsigned long long)s->g.reply_memory);
	if (s->g.nlm_enabled)
		fprintf(out, ",\"nlm_hosts\":%llu,\"nlm_files\":%llu,\"nlm_locks\":%llu,"
		    "\"nlm_waiters\":%llu,\"nlm_shares\":%llu,\"nlm_grace\":%d",
		    (unsigned long long)s->g.nlm_hosts, (unsigned long long)s->g.nlm_files,
		    (unsigned long long)s->g.nlm_locks, (unsigned long long)s->g.nlm_waiters,
		    (unsigned long long)s->g.nlm_shares, s->g.nlm_grace);
	fputs("}}\n", out);
}

/* ---- "key value" lines, for usernfsctl stats -i ---- */

void
stats_print_flat(FILE *out, const struct stats_snapshot *s)
{
	unsigned n = nslots_now();

	for (unsigned k = 0; k < n; k++) {
		const struct stats_proc *p = &s->sum.proc[k];
		if (p->calls == 0)
			continue;
		fprintf(out, "%s.v%u.%s.calls %llu\n", slots[k].prog_name, slots[k].vers,
		    slots[k].proc_name, (unsigned long long)p->calls);
		fprintf(out, "%s.v%u.%s.errors %llu\n", slots[k].prog_name, slots[k].vers,
		    slots[k].proc_name, (unsigned long long)(status_errors(p) + p->rpc_errors));
		fprintf(out, "%s.v%u.%s.bytes_in %llu\n", slots[k].prog_name, slots[k].vers,
		    slots[k].proc_name, (unsigned long long)p->bytes_in);
		fprintf(out, "%s.v%u.%s.bytes_out %llu\n", slots[k].prog_name, slots[k].vers,
		    slots[k].proc_name, (unsigned long long)p->bytes_out);
		fprintf(out, "%s.v%u.%s.svc_us %llu\n", slots[k].prog_name, slots[k].vers,
		    slots[k].proc_name, (unsigned long long)p->svc.sum_us);
	}
	for (unsigned i = 0; i < ST_NCOUNTERS; i++)
		fprintf(out, "%s %llu\n", counters[i].key, (unsigned long long)s->sum.ctr[i]);
	/* Gauges are shown as they are, not as differences. */
	fprintf(out, "=tcp_open %llu\n=workq_depth %llu\n=clients %llu\n=reply_memory %llu\n",
	    (unsigned long long)s->g.tcp_open, (unsigned long long)s->g.workq_depth,
	    (unsigned long long)s->g.clients, (unsigned long long)s->g.reply_memory);
}

/* ---- Prometheus text exposition (format 0.0.4) ---- */

static void
prom_head(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
prom_hist(FILE *out, const char *name, const char *labels, const struct stats_hist *h)
{
	uint64_t cum = 0;

	for (unsigned i = 0; i < STATS_HBUCKETS; i++) {
		cum += h->b[i];
		if (i + 1 < STATS_HBUCKETS)
			fprintf(out, "%s_bucket{%s%sle=\"%.6f\"} %llu\n", name, labels,
			    *labels ? "," : "", (double)(1ull << i) / 1e6, (unsigned long long)cum);
		else
			fprintf(out, "%s_bucket{%s%sle=\"+Inf\"} %llu\n", name, labels,
			    *labels ? "," : "", (unsigned long long)cum);
	}
	if (*labels) {
		fprintf(out, "%s_sum{%s} %.6f\n", name, labels, (double)h->sum_us / 1e6);
		fprintf(out, "%s_count{%s} %llu\n", name, labels, (unsigned long long)cum);
	} else {
		fprintf(out, "%s_sum %.6f\n", name, (double)h->sum_us / 1e6);
		fprintf(out, "%s_count %llu\n", name, (unsigned long long)cum);
	}
}

static void
proc_labels(char *buf, size_t len, const struct stats_slot *sl)
{
	snprintf(buf, len, "program=\"%s\",version=\"%u\",procedure=\"%s\"", sl->prog_name,
	    sl->vers, sl->proc_name);
}

/* One metric per slot with calls: value picked by what. */
enum slot_value { SV_CALLS, SV_RPCERR, SV_IN, SV_OUT };

static void
prom_slots(FILE *out, const struct stats_snapshot *s, unsigned n, const char *name,
    const char *help, enum slot_value what)
{
	char labels[256];

	prom_head(out, name, "counter", help);
	for (unsigned k = 0; k < n; k++) {
		const struct stats_proc *p = &s->sum.proc[k];
		uint64_t v = what == SV_CALLS ? p->calls : what == SV_RPCERR ? p->rpc_errors :
		    what == SV_IN ? p->bytes_in : p->bytes_out;
		if (p->calls == 0)
			continue;
		proc_labels(labels, sizeof(labels), &slots[k]);
		fprintf(out, "%s{%s} %llu\n", name, labels, (unsigned long long)v);
	}
}

static void
prom_gauge(FILE *out, const char *name, const char *help, uint64_t v)
{
	prom_head(out, name, "gauge", help);
	fprintf(out, "%s %llu\n", name, (unsigned long long)v);
}

static void
prom_counter(FILE *out, const char *name, const char *help, uint64_t v)
{
	prom_head(out, name, "counter", help);
	fprintf(out, "%s %llu\n", name, (unsigned long long)v);
}

/* Quoted for a label value: backslash, quote and newline escaped. */
static void
prom_label_value(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s && o + 3 < len; s++) {
		if (*s == '\\' || *s == '"') {
			buf[o++] = '\\';
			buf[o++] = *s;
		} else if (*s == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = '\0';
}

/* The per-client series: one family each, every client in it. */
static uint64_t cl_calls(const struct client_info *c) { return c->calls; }
static uint64_t cl_in(const struct client_info *c) { return c->bytes_in; }
static uint64_t cl_out(const struct client_info *c) { return c->bytes_out; }
static uint64_t cl_seen(const struct client_info *c) { return (uint64_t)c->last_seen; }

static const struct client_metric {
	const char *name, *type, *help;
	uint64_t (*value)(const struct client_info *c);
} client_metrics[] = {
	{ "usernfsd_client_calls_total", "counter", "Calls answered, by client address.",
	    cl_calls },
	{ "usernfsd_client_request_bytes_total", "counter", "Bytes of calls, by client address.",
	    cl_in },
	{ "usernfsd_client_reply_bytes_total", "counter", "Bytes of replies, by client address.",
	    cl_out },
	{ "usernfsd_client_last_seen_timestamp_seconds", "gauge",
	    "When a client was last seen (Unix time).", cl_seen },
};

void
stats_print_prometheus(FILE *out, const struct stats_snapshot *s)
{
	unsigned n = nslots_now();
	char labels[256];
	uint64_t nfs_calls = 0;
	struct client_info *cl;
	size_t ncl;

	/* node_exporter's nfsd collector names, for knfsd dashboards. */
	prom_head(out, "node_nfsd_requests_total", "counter",
	    "Calls answered, by NFS procedure (method) and NFS version (proto); as node_exporter's nfsd collector.");
	for (unsigned k = 0; k < n; k++) {
		if (slots[k].prog != NFS_PROG || slots[k].proc_name[0] == '\0')
			continue;
		nfs_calls += s->sum.proc[k].calls;
		fprintf(out, "node_nfsd_requests_total{method=\"%s\",proto=\"%u\"} %llu\n",
		    node_method(slots[k].proc_name), slots[k].vers,
		    (unsigned long long)s->sum.proc[k].calls);
	}
	prom_counter(out, "node_nfsd_server_rpcs_total", "NFS calls answered, all versions.", nfs_calls);
	prom_head(out, "node_nfsd_rpc_errors_total", "counter",
	    "Calls refused at the RPC level: fmt (undecodable, unknown program, version or procedure, bad arguments), auth.");
	fprintf(out, "node_nfsd_rpc_errors_total{error=\"fmt\"} %llu\n",
	    (unsigned long long)(s->sum.ctr[ST_REJ_GARBAGE_ARGS] + s->sum.ctr[ST_REJ_UNDECODABLE] +
	    s->sum.ctr[ST_REJ_RPC_VERSION] + s->sum.ctr[ST_REJ_NO_PROGRAM] +
	    s->sum.ctr[ST_REJ_NO_VERSION] + s->sum.ctr[ST_REJ_NO_PROCEDURE]));
	fprintf(out, "node_nfsd_rpc_errors_total{error=\"auth\"} %llu\n",
	    (unsigned long long)s->sum.ctr[ST_REJ_AUTH]);
	fputs("node_nfsd_rpc_errors_total{error=\"cInt\"} 0\n", out);
	prom_counter(out, "node_nfsd_connections_total", "TCP connections accepted.",
	    s->sum.ctr[ST_TCP_ACCEPTED]);
	prom_head(out, "node_nfsd_packets_total", "counter",
	    "Calls received, by transport.");
	fprintf(out, "node_nfsd_packets_total{proto=\"udp\"} %llu\n",
	    (unsigned long long)s->sum.ctr[ST_UDP_DATAGRAMS]);
	fprintf(out, "node_nfsd_packets_total{proto=\"tcp\"} %llu\n",
	    (unsigned long long)s->sum.ctr[ST_TCP_RECORDS]);
	prom_counter(out, "node_nfsd_reply_cache_hits_total",
	    "Retransmissions answered from the duplicate request cache.",
	    s->sum.ctr[ST_DRC_HITS]);
	prom_counter(out, "node_nfsd_reply_cache_misses_total",
	    "Non-idempotent calls run and entered in the duplicate request cache.",
	    s->sum.ctr[ST_DRC_MISSES]);
	prom_counter(out, "node_nfsd_file_handles_stale_total",
	    "Calls refused for a stale file handle.", s->sum.ctr[ST_REJ_STALE]);
	prom_counter(out, "node_nfsd_disk_bytes_read_total", "File data bytes read for clients.",
	    s->sum.ctr[ST_READ_BYTES]);
	prom_counter(out, "node_nfsd_disk_bytes_written_total", "File data bytes written for clients.",
	    s->sum.ctr[ST_WRITE_BYTES]);
	prom_gauge(out, "node_nfsd_server_threads",
	    "Worker threads serving calls.", nthreads);

	/* Ours: every program, version and procedure. */
	prom_slots(out, s, n, "usernfsd_rpc_calls_total",
	    "Calls answered, by program, version and procedure.", SV_CALLS);
	prom_slots(out, s, n, "usernfsd_rpc_errors_total",
	    "Calls answered with an RPC-level error (not SUCCESS).", SV_RPCERR);
	prom_slots(out, s, n, "usernfsd_rpc_request_bytes_total",
	    "Bytes of calls (RPC message, without record marks).", SV_IN);
	prom_slots(out, s, n, "usernfsd_rpc_reply_bytes_total",
	    "Bytes of replies (RPC message, without record marks).", SV_OUT);
	prom_head(out, "usernfsd_rpc_status_total", "counter",
	    "Results by the status they carry (NFS, MOUNT and NLM status numbers).");
	for (unsigned k = 0; k < n; k++) {
		const struct stats_proc *p = &s->sum.proc[k];
		if (p->calls == 0)
			continue;
		proc_labels(labels, sizeof(labels), &slots[k]);
		for (unsigned i = 0; i < STATS_NSTATUS; i++) {
			if (p->status[i] == 0)
				continue;
			if (stats_status_value(i) < 0)
				fprintf(out, "usernfsd_rpc_status_total{%s,status=\"other\"} %llu\n",
				    labels, (unsigned long long)p->status[i]);
			else
				fprintf(out, "usernfsd_rpc_status_total{%s,status=\"%lld\"} %llu\n",
				    labels, (long long)stats_status_value(i),
				    (unsigned long long)p->status[i]);
		}
	}
	prom_head(out, "usernfsd_rpc_queue_wait_seconds", "histogram",
	    "Time calls waited in the work queue.");
	for (unsigned k = 0; k < n; k++) {
		if (s->sum.proc[k].calls == 0)
			continue;
		proc_labels(labels, sizeof(labels), &slots[k]);
		prom_hist(out, "usernfsd_rpc_queue_wait_seconds", labels, &s->sum.proc[k].wait);
	}
	prom_head(out, "usernfsd_rpc_service_seconds", "histogram",
	    "Time from taking a call off the queue to its reply sent.");
	for (unsigned k = 0; k < n; k++) {
		if (s->sum.proc[k].calls == 0)
			continue;
		proc_labels(labels, sizeof(labels), &slots[k]);
		prom_hist(out, "usernfsd_rpc_service_seconds", labels, &s->sum.proc[k].svc);
	}
	prom_head(out, "usernfsd_commit_fsync_seconds", "histogram",
	    "Time of the fsyncs done for durability.");
	prom_hist(out, "usernfsd_commit_fsync_seconds", "", &s->sum.fsync);

	/* The event counters; those sharing a name differ by one label. */
	for (unsigned i = 0; i < ST_NCOUNTERS; i++) {
		char name[128];
		snprintf(name, sizeof(name), "usernfsd_%s", counters[i].metric);
		if (i == 0 || strcmp(counters[i].metric, counters[i - 1].metric) != 0)
			prom_head(out, name, "counter", counters[i].help);
		if (counters[i].label)
			fprintf(out, "%s{%s} %llu\n", name, counters[i].label,
			    (unsigned long long)s->sum.ctr[i]);
		else
			fprintf(out, "%s %llu\n", name, (unsigned long long)s->sum.ctr[i]);
	}

	prom_gauge(out, "usernfsd_tcp_connections_open", "TCP connections open.", s->g.tcp_open);
	prom_gauge(out, "usernfsd_tcp_reply_memory_bytes",
	    "TCP replies queued and reserved for bulk calls running (--reply-memory).",
	    s->g.reply_memory);
	prom_gauge(out, "usernfsd_workq_depth", "Calls waiting in the work queue.",
	    s->g.workq_depth);
	prom_gauge(out, "usernfsd_drc_entries", "Entries in the duplicate request cache.",
	    s->g.drc_entries);
	prom_gauge(out, "usernfsd_icache_entries", "Entries in the inode cache.",
	    s->g.icache_entries);
	prom_gauge(out, "usernfsd_clients", "Client addresses in the client table.", s->g.clients);
	if (s->g.nlm_enabled) {
		prom_gauge(out, "usernfsd_nlm_hosts", "Hosts known to the lock manager.",
		    s->g.nlm_hosts);
		prom_gauge(out, "usernfsd_nlm_locks_held", "Byte-range locks held.", s->g.nlm_locks);
		prom_gauge(out, "usernfsd_nlm_waiters", "Blocked lock requests waiting.",
		    s->g.nlm_waiters);
		prom_gauge(out, "usernfsd_nlm_shares", "DOS share reservations held.",
		    s->g.nlm_shares);
		prom_gauge(out, "usernfsd_nlm_grace", "1 while in the grace period after a restart.",
		    (uint64_t)s->g.nlm_grace);
	}
	prom_gauge(out, "usernfsd_uptime_seconds", "Seconds since the daemon started.",
	    (uint64_t)s->uptime);

	/* Per client: bounded by the table (CLIENTS_MAX addresses). */
	ncl = clients_list(&cl);
	for (unsigned m = 0; m < sizeof(client_metrics) / sizeof(client_metrics[0]); m++) {
		const struct client_metric *cm = &client_metrics[m];

		prom_head(out, cm->name, cm->type, cm->help);
		for (size_t i = 0; i < ncl; i++) {
			prom_label_value(labels, sizeof(labels), cl[i].host);
			fprintf(out, "%s{client=\"%s\"} %llu\n", cm->name, labels,
			    (unsigned long long)cm->value(&cl[i]));
		}
	}
	free(cl);
}
