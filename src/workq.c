/* A fixed pool of worker threads fed from one bounded FIFO. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "log.h"
#include "transport.h"
#include "workq.h"

#define WORKQ_MAX 4096

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;
static struct rpc_req *q_head, *q_tail;
static size_t q_len;
static int q_stopping;
static pthread_t *threads;
static unsigned nthreads_started;
static workq_fn q_fn;
static worker_new_fn q_mk;
static worker_free_fn q_rm;

static void *
worker_main(void *arg)
{
	struct worker *w = q_mk();

	(void)arg;
	for (;;) {
		struct rpc_req *req;

		pthread_mutex_lock(&q_lock);
		while (q_head == NULL && !q_stopping)
			pthread_cond_wait(&q_cond, &q_lock);
		if (q_head == NULL) {
			pthread_mutex_unlock(&q_lock);
			break;
		}
		req = q_head;
		q_head = req->next;
		if (q_head == NULL)
			q_tail = NULL;
		q_len--;
		pthread_mutex_unlock(&q_lock);
		req->next = NULL;
		q_fn(w, req);
	}
	q_rm(w);
	return NULL;
}

int
workq_start(unsigned nthreads, workq_fn fn, worker_new_fn mk, worker_free_fn rm)
{
	sigset_t all, old;
	int rc = 0;

	q_fn = fn;
	q_mk = mk;
	q_rm = rm;
	threads = calloc(nthreads, sizeof(*threads));
	if (threads == NULL)
		return -1;
	/* Workers never take signals: the main loop does. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (unsigned i = 0; i < nthreads; i++) {
		rc = pthread_create(&threads[i], NULL, worker_main, NULL);
		if (rc != 0) {
			errno = rc;
			rc = -1;
			break;
		}
		nthreads_started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int
workq_push(struct rpc_req *req)
{
	pthread_mutex_lock(&q_lock);
	if (q_len >= WORKQ_MAX || q_stopping) {
		pthread_mutex_unlock(&q_lock);
		return -1;
	}
	req->next = NULL;
	if (q_tail)
		q_tail->next = req;
	else
		q_head = req;
	q_tail = req;
	q_len++;
	pthread_cond_signal(&q_cond);
	pthread_mutex_unlock(&q_lock);
	return 0;
}

size_t
workq_length(void)
{
	size_t n;

	pthread_mutex_lock(&q_lock);
	n = q_len;
	pthread_mutex_unlock(&q_lock);
	return n;
}

void
workq_stop(void)
{
	pthread_mutex_lock(&q_lock);
	q_stopping = 1;
	pthread_cond_broadcast(&q_cond);
	pthread_mutex_unlock(&q_lock);
	/* Requests already queued still run, so nothing accepted is lost. */
	for (unsigned i = 0; i < nthreads_started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	threads = NULL;
	nthreads_started = 0;
}
