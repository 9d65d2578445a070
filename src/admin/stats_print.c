/*
 * The statistics shown: usernfsctl's table, JSON, "key value" lines and
 * Prometheus's text format, all from one snapshot (stats.h). The names
 * follow node_exporter's nfsd collector where it has one.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "rpc/clients.h"
#include "stats.h"
#include "stats_print.h"

/* Events in a histogram. */
static uint64_t
hist_count(const struct stats_hist *h)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < STATS_HBUCKETS; i++)
		n += h->b[i];
	return n;
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
	[ST_CALLS_AUTH_NONE] = { "calls_auth_none", "calls_by_flavor_total", "flavor=\"none\"",
	    "Calls run, by security flavor (RPCSEC_GSS by service)." },
	[ST_CALLS_AUTH_SYS] = { "calls_auth_sys", "calls_by_flavor_total", "flavor=\"sys\"",
	    "Calls run, by security flavor (RPCSEC_GSS by service)." },
	[ST_CALLS_KRB5] = { "calls_krb5", "calls_by_flavor_total", "flavor=\"krb5\"",
	    "Calls run, by security flavor (RPCSEC_GSS by service)." },
	[ST_CALLS_KRB5I] = { "calls_krb5i", "calls_by_flavor_total", "flavor=\"krb5i\"",
	    "Calls run, by security flavor (RPCSEC_GSS by service)." },
	[ST_CALLS_KRB5P] = { "calls_krb5p", "calls_by_flavor_total", "flavor=\"krb5p\"",
	    "Calls run, by security flavor (RPCSEC_GSS by service)." },
	[ST_GSS_CTX_CREATED] = { "gss_contexts_created", "gss_contexts_total", "event=\"created\"",
	    "RPCSEC_GSS contexts, by what happened to them." },
	[ST_GSS_CTX_DESTROYED] = { "gss_contexts_destroyed", "gss_contexts_total",
	    "event=\"destroyed\"", "RPCSEC_GSS contexts, by what happened to them." },
	[ST_GSS_CTX_EXPIRED] = { "gss_contexts_expired", "gss_contexts_total", "event=\"expired\"",
	    "RPCSEC_GSS contexts, by what happened to them." },
	[ST_GSS_CTX_EVICTED] = { "gss_contexts_evicted", "gss_contexts_total", "event=\"evicted\"",
	    "RPCSEC_GSS contexts, by what happened to them." },
	[ST_GSS_ERR_ACCEPT] = { "gss_fail_accept", "gss_failures_total", "reason=\"accept\"",
	    "RPCSEC_GSS calls refused or dropped, by reason." },
	[ST_GSS_ERR_CREDPROBLEM] = { "gss_fail_credproblem", "gss_failures_total",
	    "reason=\"credproblem\"", "RPCSEC_GSS calls refused or dropped, by reason." },
	[ST_GSS_ERR_BADMIC] = { "gss_fail_bad_mic", "gss_failures_total", "reason=\"bad_mic\"",
	    "RPCSEC_GSS calls refused or dropped, by reason." },
	[ST_GSS_ERR_CTXPROBLEM] = { "gss_fail_ctxproblem", "gss_failures_total",
	    "reason=\"ctxproblem\"", "RPCSEC_GSS calls refused or dropped, by reason." },
	[ST_GSS_ERR_DROPPED] = { "gss_fail_replay", "gss_failures_total", "reason=\"replay\"",
	    "RPCSEC_GSS calls refused or dropped, by reason." },
	[ST_GSS_ERR_BODY] = { "gss_fail_body", "gss_failures_total", "reason=\"body\"",
	    "RPCSEC_GSS calls refused or dropped, by reason." },
	[ST_GSS_ERR_BADCRED] = { "gss_fail_badcred", "gss_failures_total", "reason=\"badcred\"",
	    "RPCSEC_GSS calls refused or dropped, by reason." },
	[ST_CB_SENT] = { "callbacks_sent", "callbacks_total", "event=\"sent\"",
	    "Calls to NFSv4 clients (CB_NULL, CB_COMPOUND), by outcome." },
	[ST_CB_ANSWERED] = { "callbacks_answered", "callbacks_total", "event=\"answered\"",
	    "Calls to NFSv4 clients (CB_NULL, CB_COMPOUND), by outcome." },
	[ST_CB_TIMEOUTS] = { "callbacks_timed_out", "callbacks_total", "event=\"timed_out\"",
	    "Calls to NFSv4 clients (CB_NULL, CB_COMPOUND), by outcome." },
	[ST_CB_FAILED] = { "callbacks_failed", "callbacks_total", "event=\"failed\"",
	    "Calls to NFSv4 clients (CB_NULL, CB_COMPOUND), by outcome." },
	[ST_DELEG_GRANTED] = { "delegations_granted", "delegations_total", "event=\"granted\"",
	    "NFSv4 read delegations, by event." },
	[ST_DELEG_RECALLED] = { "delegations_recalled", "delegations_total", "event=\"recalled\"",
	    "NFSv4 read delegations, by event." },
	[ST_DELEG_RETURNED] = { "delegations_returned", "delegations_total", "event=\"returned\"",
	    "NFSv4 read delegations, by event." },
	[ST_DELEG_REVOKED] = { "delegations_revoked", "delegations_total", "event=\"revoked\"",
	    "NFSv4 read delegations, by event." },
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
	[ST_REJ_WRONGSEC] = { "rejected_wrong_flavor", "rejected_calls_total",
	    "reason=\"wrong_flavor\"", "Calls refused, by reason." },
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
	"Access", "MkNod", "ReadDirPlus", "FsInfo", "PathConf", "Commit", "Compound",
};

/*
 * NFSv4's operations as node_exporter names those of knfsd's proc4ops
 * line (method label, proto "4"); the operations it has no name for
 * (4.1's and 4.2's) take the same CamelCase.
 */
static const struct {
	const char *op, *node;
} node_v4ops[] = {
	{ "ACCESS", "Access" }, { "CLOSE", "Close" }, { "COMMIT", "Commit" },
	{ "CREATE", "Create" }, { "DELEGPURGE", "DelegPurge" }, { "DELEGRETURN", "DelegReturn" },
	{ "GETATTR", "GetAttr" }, { "GETFH", "GetFH" }, { "LINK", "Link" }, { "LOCK", "Lock" },
	{ "LOCKT", "Lockt" }, { "LOCKU", "Locku" }, { "LOOKUP", "Lookup" },
	{ "LOOKUPP", "LookupRoot" }, { "NVERIFY", "Nverify" }, { "OPEN", "Open" },
	{ "OPENATTR", "OpenAttr" }, { "OPEN_CONFIRM", "OpenConfirm" },
	{ "OPEN_DOWNGRADE", "OpenDgrd" }, { "PUTFH", "PutFH" }, { "PUTPUBFH", "PutPubFH" },
	{ "PUTROOTFH", "PutRootFH" }, { "READ", "Read" }, { "READDIR", "ReadDir" },
	{ "READLINK", "ReadLink" }, { "REMOVE", "Remove" }, { "RENAME", "Rename" },
	{ "RENEW", "Renew" }, { "RESTOREFH", "RestoreFH" }, { "SAVEFH", "SaveFH" },
	{ "SECINFO", "SecInfo" }, { "SETATTR", "SetAttr" }, { "SETCLIENTID", "SetClientID" },
	{ "SETCLIENTID_CONFIRM", "SetClientIDConfirm" }, { "VERIFY", "Verify" },
	{ "WRITE", "Write" }, { "RELEASE_LOCKOWNER", "RelLockOwner" },
	{ "BACKCHANNEL_CTL", "BackchannelCtl" }, { "BIND_CONN_TO_SESSION", "BindConnToSession" },
	{ "EXCHANGE_ID", "ExchangeID" }, { "CREATE_SESSION", "CreateSession" },
	{ "DESTROY_SESSION", "DestroySession" }, { "FREE_STATEID", "FreeStateID" },
	{ "GET_DIR_DELEGATION", "GetDirDeleg" }, { "GETDEVICEINFO", "GetDeviceInfo" },
	{ "GETDEVICELIST", "GetDeviceList" }, { "LAYOUTCOMMIT", "LayoutCommit" },
	{ "LAYOUTGET", "LayoutGet" }, { "LAYOUTRETURN", "LayoutReturn" },
	{ "SECINFO_NO_NAME", "SecinfoNoName" }, { "SEQUENCE", "Sequence" },
	{ "SET_SSV", "SetSSV" }, { "TEST_STATEID", "TestStateID" },
	{ "WANT_DELEGATION", "WantDeleg" }, { "DESTROY_CLIENTID", "DestroyClientID" },
	{ "RECLAIM_COMPLETE", "ReclaimComplete" }, { "ALLOCATE", "Allocate" },
	{ "COPY", "Copy" }, { "COPY_NOTIFY", "CopyNotify" }, { "DEALLOCATE", "DeAllocate" },
	{ "IO_ADVISE", "IOAdvise" }, { "LAYOUTERROR", "LayoutError" },
	{ "LAYOUTSTATS", "LayoutStats" }, { "OFFLOAD_CANCEL", "OffloadCancel" },
	{ "OFFLOAD_STATUS", "OffloadStatus" }, { "READ_PLUS", "ReadPlus" }, { "SEEK", "Seek" },
	{ "WRITE_SAME", "WriteSame" }, { "CLONE", "Clone" }, { "GETXATTR", "GetXattr" },
	{ "SETXATTR", "SetXattr" }, { "LISTXATTRS", "ListXattrs" },
	{ "REMOVEXATTR", "RemoveXattr" },
};

static const char *
node_v4op(const char *op)
{
	for (size_t i = 0; i < sizeof(node_v4ops) / sizeof(node_v4ops[0]); i++)
		if (strcmp(op, node_v4ops[i].op) == 0)
			return node_v4ops[i].node;
	return op;
}

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

/*
 * Slots of one registration: one version of a program, or NFSv4's
 * operations ("nfs4ops"), which share the program and version of COMPOUND.
 */
static int
same_group(const struct stats_slot *a, const struct stats_slot *b)
{
	return a->prog == b->prog && a->vers == b->vers && strcmp(a->prog_name, b->prog_name) == 0;
}

static int
version_used(const struct stats_snapshot *s, unsigned n, unsigned k)
{
	for (unsigned i = 0; i < n; i++)
		if (same_group(&s->slots[i], &s->slots[k]) && s->sum.proc[i].calls)
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
	unsigned n = s->nslots;
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
		if (s->slots[k].proc != 0 || !version_used(s, n, k))
			continue;
		uint64_t vcalls = 0;
		for (unsigned i = k; i < n && same_group(&s->slots[i], &s->slots[k]); i++)
			vcalls += s->sum.proc[i].calls;
		fprintf(out, "\nServer %s v%u:\n", s->slots[k].prog_name, s->slots[k].vers);
		fprintf(out, "%-20s %10s %4s %8s %8s %14s %14s %9s %9s\n", "procedure", "calls",
		    "%", "errors", "rpc_err", "bytes_in", "bytes_out", "wait_us", "svc_us");
		for (unsigned i = k; i < n && same_group(&s->slots[i], &s->slots[k]); i++) {
			const struct stats_proc *p = &s->sum.proc[i];
			if (s->slots[i].proc_name[0] == '\0')
				continue;
			fprintf(out, "%-20s %10llu %3.0f%% %8llu %8llu %14llu %14llu %9.1f %9.1f\n",
			    s->slots[i].proc_name, (unsigned long long)p->calls,
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
	fputs("\nSecurity flavors and RPCSEC_GSS:\n", out);
	fprintf(out, "  %-28s %llu\n", "gss_contexts", (unsigned long long)s->g.gss_contexts);
	for (unsigned i = ST_CALLS_AUTH_NONE; i <= ST_GSS_ERR_BADCRED; i++)
		fprintf(out, "  %-28s %llu\n", counters[i].key, (unsigned long long)s->sum.ctr[i]);
	fputs("\nNFSv4 callbacks and delegations:\n", out);
	for (unsigned i = ST_CB_SENT; i <= ST_DELEG_REVOKED; i++)
		fprintf(out, "  %-28s %llu\n", counters[i].key, (unsigned long long)s->sum.ctr[i]);
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
	if (s->g.nfs4_enabled) {
		fputs("\nNFSv4 state:\n", out);
		fprintf(out, "  %-28s %llu\n  %-28s %llu\n  %-28s %llu\n  %-28s %llu\n  %-28s %llu\n",
		    "clients", (unsigned long long)s->g.nfs4_clients, "confirmed",
		    (unsigned long long)s->g.nfs4_confirmed, "sessions",
		    (unsigned long long)s->g.nfs4_sessions, "stateids",
		    (unsigned long long)s->g.nfs4_stateids, "reply_cache_bytes",
		    (unsigned long long)s->g.nfs4_cache_bytes);
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
	unsigned n = s->nslots;
	int first = 1;

	fprintf(out, "{\"time\":%lld,\"uptime_s\":%.3f,\"histogram_bounds_us\":[",
	    (long long)s->now, s->uptime);
	for (unsigned i = 0; i + 1 < STATS_HBUCKETS; i++)
		fprintf(out, "%s%llu", i ? "," : "", 1ull << i);
	fputs(",\"inf\"],\n\"procedures\":[", out);
	for (unsigned k = 0; k < n; k++) {
		const struct stats_proc *p = &s->sum.proc[k];
		if (s->slots[k].proc_name[0] == '\0')
			continue;
		fprintf(out, "%s\n{\"program\":\"%s\",\"prog\":%u,\"version\":%u,\"procedure\":\"%s\","
		    "\"proc\":%u,\"calls\":%llu,\"rpc_errors\":%llu,\"bytes_in\":%llu,"
		    "\"bytes_out\":%llu,\"status\":{", first ? "" : ",", s->slots[k].prog_name,
		    s->slots[k].prog, s->slots[k].vers, s->slots[k].proc_name, s->slots[k].proc,
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
	    "\"icache_entries\":%llu,\"clients\":%llu,\"reply_memory\":%llu,\"gss_contexts\":%llu",
	    (unsigned long long)s->g.tcp_open, (unsigned long long)s->g.workq_depth,
	    (unsigned long long)s->g.drc_entries, (unsigned long long)s->g.icache_entries,
	    (unsigned long long)s->g.clients, (unsigned long long)s->g.reply_memory,
	    (unsigned long long)s->g.gss_contexts);
	if (s->g.nlm_enabled)
		fprintf(out, ",\"nlm_hosts\":%llu,\"nlm_files\":%llu,\"nlm_locks\":%llu,"
		    "\"nlm_waiters\":%llu,\"nlm_shares\":%llu,\"nlm_grace\":%d",
		    (unsigned long long)s->g.nlm_hosts, (unsigned long long)s->g.nlm_files,
		    (unsigned long long)s->g.nlm_locks, (unsigned long long)s->g.nlm_waiters,
		    (unsigned long long)s->g.nlm_shares, s->g.nlm_grace);
	if (s->g.nfs4_enabled)
		fprintf(out, ",\"nfs4_clients\":%llu,\"nfs4_confirmed\":%llu,\"nfs4_sessions\":%llu,"
		    "\"nfs4_stateids\":%llu,\"nfs4_reply_cache_bytes\":%llu",
		    (unsigned long long)s->g.nfs4_clients, (unsigned long long)s->g.nfs4_confirmed,
		    (unsigned long long)s->g.nfs4_sessions, (unsigned long long)s->g.nfs4_stateids,
		    (unsigned long long)s->g.nfs4_cache_bytes);
	fputs("}}\n", out);
}

/* ---- "key value" lines, for usernfsctl stats -i ---- */

void
stats_print_flat(FILE *out, const struct stats_snapshot *s)
{
	unsigned n = s->nslots;

	for (unsigned k = 0; k < n; k++) {
		const struct stats_proc *p = &s->sum.proc[k];
		if (p->calls == 0)
			continue;
		fprintf(out, "%s.v%u.%s.calls %llu\n", s->slots[k].prog_name, s->slots[k].vers,
		    s->slots[k].proc_name, (unsigned long long)p->calls);
		fprintf(out, "%s.v%u.%s.errors %llu\n", s->slots[k].prog_name, s->slots[k].vers,
		    s->slots[k].proc_name, (unsigned long long)(status_errors(p) + p->rpc_errors));
		fprintf(out, "%s.v%u.%s.bytes_in %llu\n", s->slots[k].prog_name, s->slots[k].vers,
		    s->slots[k].proc_name, (unsigned long long)p->bytes_in);
		fprintf(out, "%s.v%u.%s.bytes_out %llu\n", s->slots[k].prog_name, s->slots[k].vers,
		    s->slots[k].proc_name, (unsigned long long)p->bytes_out);
		fprintf(out, "%s.v%u.%s.svc_us %llu\n", s->slots[k].prog_name, s->slots[k].vers,
		    s->slots[k].proc_name, (unsigned long long)p->svc.sum_us);
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
		proc_labels(labels, sizeof(labels), &s->slots[k]);
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
	unsigned n = s->nslots;
	char labels[256];
	uint64_t nfs_calls = 0;
	struct client_info *cl;
	size_t ncl;

	/* node_exporter's nfsd collector names, for knfsd dashboards. */
	prom_head(out, "node_nfsd_requests_total", "counter",
	    "Calls answered, by NFS procedure (method) and NFS version (proto); as node_exporter's nfsd collector.");
	for (unsigned k = 0; k < n; k++) {
		if (s->slots[k].prog != NFS_PROG || s->slots[k].proc_name[0] == '\0')
			continue;
		nfs_calls += s->sum.proc[k].calls;
		fprintf(out, "node_nfsd_requests_total{method=\"%s\",proto=\"%u\"} %llu\n",
		    strcmp(s->slots[k].prog_name, "nfs4ops") == 0 ?
		    node_v4op(s->slots[k].proc_name) : node_method(s->slots[k].proc_name),
		    s->slots[k].vers,
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
	    "Worker threads serving calls.", s->threads);

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
		proc_labels(labels, sizeof(labels), &s->slots[k]);
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
		proc_labels(labels, sizeof(labels), &s->slots[k]);
		prom_hist(out, "usernfsd_rpc_queue_wait_seconds", labels, &s->sum.proc[k].wait);
	}
	prom_head(out, "usernfsd_rpc_service_seconds", "histogram",
	    "Time from taking a call off the queue to its reply sent.");
	for (unsigned k = 0; k < n; k++) {
		if (s->sum.proc[k].calls == 0)
			continue;
		proc_labels(labels, sizeof(labels), &s->slots[k]);
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
	prom_gauge(out, "usernfsd_gss_contexts", "RPCSEC_GSS contexts held (at most 4096).",
	    s->g.gss_contexts);
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
	if (s->g.nfs4_enabled) {
		prom_gauge(out, "usernfsd_nfs4_clients", "NFSv4 client records (at most 1024).",
		    s->g.nfs4_clients);
		prom_gauge(out, "usernfsd_nfs4_confirmed_clients", "NFSv4 client records confirmed.",
		    s->g.nfs4_confirmed);
		prom_gauge(out, "usernfsd_nfs4_sessions", "NFSv4.1 sessions (at most 1024).",
		    s->g.nfs4_sessions);
		prom_gauge(out, "usernfsd_nfs4_stateids", "NFSv4 open and lock stateids (at most 65536).",
		    s->g.nfs4_stateids);
		prom_gauge(out, "usernfsd_nfs4_reply_cache_bytes",
		    "Bytes reserved for the sessions' slot reply caches (at most 64 MiB).",
		    s->g.nfs4_cache_bytes);
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
