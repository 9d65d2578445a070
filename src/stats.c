/*
 * Statistics: the per-thread blocks and their sum (stats.h; DESIGN.md,
 * "Statistics"). The forms they are shown in are admin/stats_print.c's.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "log.h"
#include "stats.h"
#include "monotime.h"

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
	return (uint64_t)mono_ns() / 1000u;
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

/* NFS statuses from 32 to 9999 (RFC 1813, RFC 1094, RFC 8881): the next part of the index. */
static const uint32_t high_status[] = { 63, 66, 69, 70, 71 };
#define NHIGH (sizeof(high_status) / sizeof(high_status[0]))
/* Then 10001 (v3's BADHANDLE) to 10096 (NFSv4.2's XATTR2BIG), each its own. */
#define RANGE_LO 10001u
#define RANGE_N (STATS_NSTATUS - 1 - 32 - NHIGH)

unsigned
stats_status_index(uint32_t status)
{
	if (status < 32)
		return status;
	for (unsigned i = 0; i < NHIGH; i++)
		if (high_status[i] == status)
			return 32 + i;
	if (status >= RANGE_LO && status - RANGE_LO < RANGE_N)
		return 32 + NHIGH + (status - RANGE_LO);
	return STATS_NSTATUS - 1;
}

int64_t
stats_status_value(unsigned idx)
{
	if (idx < 32)
		return idx;
	if (idx - 32 < NHIGH)
		return high_status[idx - 32];
	if (idx - 32 - NHIGH < RANGE_N)
		return RANGE_LO + (idx - 32 - NHIGH);
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

struct stats_snapshot *
stats_snapshot(void)
{
	struct stats_snapshot *s = calloc(1, sizeof(*s));
	struct stats_block *b;
	unsigned n = nslots_now();

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
	s->slots = slots;
	s->nslots = n;
	s->threads = nthreads;
	s->now = time(NULL);
	s->uptime = (double)(stats_now_us() - start_us) / 1e6;
	return s;
}
