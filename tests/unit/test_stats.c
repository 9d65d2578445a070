/*
 * Unit tests for the statistics (src/stats.c): histogram buckets, the
 * status index, counts from several threads summed exactly, and the
 * Prometheus histogram form (cumulative buckets ending in +Inf = _count).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "admin/stats_print.h"
#include "unit.h"

#define THREADS 4
#define CALLS 1000

static int base;

static void *
caller(void *arg)
{
	(void)arg;
	for (int i = 0; i < CALLS; i++) {
		stats_call(base + 1, 0, 1, i % 10 == 0 ? 2 : 0, 100, 200, (uint64_t)i, 3);
		STAT_INC(ST_TCP_RECORDS);
		STAT_ADD(ST_READ_BYTES, 10);
	}
	return NULL;
}

/* The value of the line starting with prefix, or -1. */
static long long
value_of(const char *text, const char *prefix)
{
	const char *p = strstr(text, prefix);

	return p ? strtoll(p + strlen(prefix), NULL, 10) : -1;
}

int
main(void)
{
	static const char *const names[] = { "NULL", "GETATTR", "SETATTR" };
	pthread_t t[THREADS];
	struct stats_snapshot *s;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	/* bucket i holds times up to 2^i us; the last is +Inf */
	CHECK(stats_bucket_of(0) == 0);
	CHECK(stats_bucket_of(1) == 0);
	CHECK(stats_bucket_of(2) == 1);
	CHECK(stats_bucket_of(3) == 2);
	CHECK(stats_bucket_of(4) == 2);
	CHECK(stats_bucket_of(5) == 3);
	CHECK(stats_bucket_of(1u << 22) == 22);
	CHECK(stats_bucket_of((1u << 22) + 1) == STATS_HBUCKETS - 1);
	CHECK(stats_bucket_of(UINT64_MAX) == STATS_HBUCKETS - 1);

	/* statuses: small ones as they are, NFS's large ones, the rest "other" */
	CHECK(stats_status_index(0) == 0);
	CHECK(stats_status_index(13) == 13);
	CHECK(stats_status_value(stats_status_index(70)) == 70);
	CHECK(stats_status_value(stats_status_index(10004)) == 10004);
	/* NFSv4's, up to 4.2's last (NFS4ERR_XATTR2BIG), each its own */
	CHECK(stats_status_value(stats_status_index(10013)) == 10013);	/* NFS4ERR_GRACE */
	CHECK(stats_status_value(stats_status_index(10052)) == 10052);	/* NFS4ERR_BADSESSION */
	CHECK(stats_status_value(stats_status_index(10096)) == 10096);
	CHECK(stats_status_index(10097) == STATS_NSTATUS - 1);
	CHECK(stats_status_index(10000) == STATS_NSTATUS - 1);
	CHECK(stats_status_index(12345) == STATS_NSTATUS - 1);
	CHECK(stats_status_value(STATS_NSTATUS - 1) == -1);
	for (unsigned i = 0; i + 1 < STATS_NSTATUS; i++)
		CHECK(stats_status_index((uint32_t)stats_status_value(i)) == i);

	stats_init(0, THREADS, NULL);
	base = stats_register_version("NFS", 100003, 3, names, 3);
	CHECK(base >= 0);

	/* several threads, each with its own block: the sum is exact */
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, caller, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	s = stats_snapshot();
	CHECK(s != NULL);
	if (s == NULL)
		return unit_done("test_stats");
	CHECK(s->sum.proc[base + 1].calls == THREADS * CALLS);
	CHECK(s->sum.proc[base + 1].status[0] == THREADS * CALLS * 9 / 10);
	CHECK(s->sum.proc[base + 1].status[2] == THREADS * CALLS / 10);
	CHECK(s->sum.proc[base + 1].bytes_in == 100ull * THREADS * CALLS);
	CHECK(s->sum.proc[base + 1].bytes_out == 200ull * THREADS * CALLS);
	CHECK(s->sum.proc[base].calls == 0);
	CHECK(s->sum.ctr[ST_TCP_RECORDS] == THREADS * CALLS);
	CHECK(s->sum.ctr[ST_READ_BYTES] == 10ull * THREADS * CALLS);
	CHECK(s->sum.proc[base + 1].svc.b[stats_bucket_of(3)] == THREADS * CALLS);

	/* Prometheus: cumulative buckets, +Inf equal to the count */
	f = open_memstream(&text, &len);
	stats_print_prometheus(f, s);
	fclose(f);
	CHECK(value_of(text, "node_nfsd_requests_total{method=\"GetAttr\",proto=\"3\"} ") ==
	    THREADS * CALLS);
	CHECK(value_of(text, "usernfsd_rpc_queue_wait_seconds_bucket{program=\"NFS\",version=\"3\","
	    "procedure=\"GETATTR\",le=\"+Inf\"} ") == THREADS * CALLS);
	CHECK(value_of(text, "usernfsd_rpc_queue_wait_seconds_count{program=\"NFS\",version=\"3\","
	    "procedure=\"GETATTR\"} ") == THREADS * CALLS);
	/* waits 0..999 us: 2 of them (0, 1) up to 1 us, 513 up to 512 us */
	CHECK(value_of(text, "usernfsd_rpc_queue_wait_seconds_bucket{program=\"NFS\",version=\"3\","
	    "procedure=\"GETATTR\",le=\"0.000001\"} ") == 2 * THREADS);
	CHECK(value_of(text, "usernfsd_rpc_queue_wait_seconds_bucket{program=\"NFS\",version=\"3\","
	    "procedure=\"GETATTR\",le=\"0.000512\"} ") == 513 * THREADS);
	CHECK(strstr(text, "procedure=\"SETATTR\"") == NULL);	/* no calls, no series */
	CHECK(value_of(text, "usernfsd_rpc_status_total{program=\"NFS\",version=\"3\","
	    "procedure=\"GETATTR\",status=\"2\"} ") == THREADS * CALLS / 10);
	free(text);
	free(s);
	return unit_done("test_stats");
}
