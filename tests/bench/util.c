/*
 * util.c - time, random numbers, latency statistics, file-content
 * patterns, error and result reporting for nfsbench.
 */
#include "nfsbench.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- time ---- */

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* ---- random numbers: splitmix64, good enough and trivially seedable ---- */

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint64_t rng_next(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ull;
	return splitmix64(r->s);
}

double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

unsigned rng_below(struct rng *r, unsigned n)
{
	return (unsigned)(rng_unit(r) * n);
}

double rng_exp(struct rng *r, double mean)
{
	return -mean * log(1.0 - rng_unit(r));
}

/* ---- latencies ---- */

void lat_add(struct lat *l, uint64_t ns)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		uint64_t *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			bench_error("out of memory recording latencies");
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = ns;
	l->sum += ns;
}

void lat_merge(struct lat *into, const struct lat *from)
{
	for (size_t i = 0; i < from->n; i++)
		lat_add(into, from->v[i]);
}

void lat_reset(struct lat *l)
{
	l->n = 0;
	l->sum = 0;
}

void lat_free(struct lat *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

double lat_mean_ms(const struct lat *l)
{
	return l->n ? (double)l->sum / (double)l->n / 1e6 : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double lat_pct_ms(struct lat *l, double pct)
{
	size_t i;

	if (!l->n)
		return 0;
	qsort(l->v, l->n, sizeof(*l->v), cmp_u64);
	i = (size_t)ceil(pct / 100.0 * (double)l->n);
	if (i > 0)
		i--;
	if (i >= l->n)
		i = l->n - 1;
	return (double)l->v[i] / 1e6;
}

/* ---- file contents ---- */

#define PAT_WORDS 512           /* one 4 KiB block */
static uint64_t pat_base[PAT_WORDS];
static pthread_once_t pat_once = PTHREAD_ONCE_INIT;

static void pat_init(void)
{
	for (unsigned i = 0; i < PAT_WORDS; i++)
		pat_base[i] = splitmix64(0x6e667362656e6368ull + i);
}

static uint64_t block_key(uint64_t seed, uint64_t block)
{
	return splitmix64(seed * 0x100000001b3ull ^ block);
}

/* Calls fn on each run of words that share a block key. */
static void pattern_walk(uint64_t seed, uint64_t off, size_t len,
			 void (*fn)(uint64_t *w, const uint64_t *base, uint64_t key, size_t n, void *arg),
			 uint64_t *words, void *arg)
{
	uint64_t i = off / 8, end = (off + len) / 8;

	pthread_once(&pat_once, pat_init);
	while (i < end) {
		size_t in_block = i % PAT_WORDS;
		size_t n = PAT_WORDS - in_block;

		if (n > end - i)
			n = end - i;
		fn(words, pat_base + in_block, block_key(seed, i / PAT_WORDS), n, arg);
		words += n;
		i += n;
	}
}

static void fill_run(uint64_t *w, const uint64_t *base, uint64_t key, size_t n, void *arg)
{
	(void)arg;
	for (size_t k = 0; k < n; k++)
		w[k] = base[k] ^ key;
}

void pattern_fill(void *buf, uint64_t seed, uint64_t off, size_t len)
{
	pattern_walk(seed, off, len, fill_run, buf, NULL);
}

struct check_state { long long bad; long long pos; };

static void check_run(uint64_t *w, const uint64_t *base, uint64_t key, size_t n, void *arg)
{
	struct check_state *st = arg;

	if (st->bad < 0) {
		for (size_t k = 0; k < n; k++) {
			if (w[k] != (base[k] ^ key)) {
				st->bad = st->pos + (long long)k * 8;
				break;
			}
		}
	}
	st->pos += (long long)n * 8;
}

long long pattern_check(const void *buf, uint64_t seed, uint64_t off, size_t len)
{
	struct check_state st = { -1, 0 };

	/* the walker only reads through the pointer in check_run */
	pattern_walk(seed, off, len, check_run, (uint64_t *)(uintptr_t)buf, &st);
	return st.bad;
}

/* ---- errors ---- */

static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long n_errors;
static char first_error[512];

void bench_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&err_lock);
	if (n_errors++ == 0)
		snprintf(first_error, sizeof(first_error), "%s", msg);
	if (n_errors <= 5)
		fprintf(stderr, "nfsbench: error: %s\n", msg);
	pthread_mutex_unlock(&err_lock);
}

int bench_failed(void)
{
	int f;

	pthread_mutex_lock(&err_lock);
	f = n_errors > 0;
	pthread_mutex_unlock(&err_lock);
	return f;
}

const char *bench_first_error(void)
{
	return first_error;
}

/* ---- the measuring hook ---- */

void bench_hook(const char *what)
{
	char cmd[1024];

	if (!O.hook)
		return;
	snprintf(cmd, sizeof(cmd), "%s %s", O.hook, what);
	if (system(cmd) != 0)
		fprintf(stderr, "nfsbench: hook '%s' failed\n", cmd);
}

/* ---- the server's CPU time ---- */

/* utime + stime of /proc/PID/stat: every thread's, but in clock ticks (10 ms). */
static int64_t stat_cpu_ns(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	long tck = sysconf(_SC_CLK_TCK);
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* the name in parentheses may hold anything; fields 3 (state) to 15 (stime) follow it */
	p = strrchr(buf, ')');
	if (!p || tck <= 0 ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (int64_t)((ut + st) * (1000000000ull / (unsigned long long)tck));
}

/*
 * The process's CPU clock (clock_getcpuclockid) when it can be had: the
 * kernel's nanosecond sum over every thread, those that have exited too
 * (a sum over /proc/PID/task/N/schedstat loses an exited thread's time,
 * and a step could then come out negative).  Only the main thread calls it.
 */
int64_t server_cpu_ns(void)
{
	static clockid_t clk;
	static int how;         /* 0: not tried yet, 1: the CPU clock, 2: /proc/PID/stat */
	struct timespec ts;

	if (!O.server_pid)
		return -1;
	if (!how)
		how = clock_getcpuclockid((pid_t)O.server_pid, &clk) == 0 ? 1 : 2;
	if (how == 1 && clock_gettime(clk, &ts) == 0)
		return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return stat_cpu_ns(O.server_pid);
}

double cpu_us_per_call(int64_t before, int64_t after, uint64_t calls)
{
	if (before < 0 || after < before || !calls)
		return -1;
	return (double)(after - before) / 1e3 / (double)calls;
}

/* ---- results: key=value lines, held back until the run has passed ---- */

static char *res_buf;
static size_t res_len, res_cap;

void result(const char *key, const char *fmt, ...)
{
	char val[256], line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	n = snprintf(line, sizeof(line), "%s%s%s=%s\n", O.tag ? O.tag : "", O.tag ? "." : "", key, val);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	if (res_len + (size_t)n + 1 > res_cap) {
		size_t cap = res_cap ? res_cap * 2 : 4096;
		char *b;

		while (cap < res_len + (size_t)n + 1)
			cap *= 2;
		b = realloc(res_buf, cap);
		if (!b)
			return;
		res_buf = b;
		res_cap = cap;
	}
	memcpy(res_buf + res_len, line, (size_t)n + 1);
	res_len += (size_t)n;
}

/*
 * A run with any error prints the error and no numbers: a throughput
 * measured while the server was failing calls would be meaningless.
 */
void results_flush(void)
{
	FILE *f = stdout;

	if (O.results) {
		f = fopen(O.results, "a");
		if (!f) {
			perror(O.results);
			f = stdout;
		}
	}
	if (bench_failed()) {
		fprintf(f, "%s%serror=%s\n", O.tag ? O.tag : "", O.tag ? "." : "", first_error);
		fprintf(f, "%s%serrors=%lu\n", O.tag ? O.tag : "", O.tag ? "." : "", n_errors);
	} else if (res_len) {
		fputs(res_buf, f);
	}
	if (f != stdout)
		fclose(f);
	else
		fflush(f);
}
