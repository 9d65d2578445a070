/* Background tasks (tasks.h): a bounded FIFO and its threads. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include "queue.h"

#include "log.h"
#include "tasks.h"

#define TASKS_MAX 4096		/* queued at most: beyond, the caller gives up */
#define TASKS_THREADS_MAX 8

struct task {
	STAILQ_ENTRY(task) link;
	task_fn fn;
	void *arg;
};

static STAILQ_HEAD(, task) queue = STAILQ_HEAD_INITIALIZER(queue);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static unsigned queued, nthreads;
static int stopping;
static pthread_t threads[TASKS_THREADS_MAX];

static void *
task_main(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&lock);
	for (;;) {
		struct task *t;

		while (STAILQ_EMPTY(&queue) && !stopping)
			pthread_cond_wait(&more, &lock);
		if ((t = STAILQ_FIRST(&queue)) == NULL)
			break;	/* stopping, and nothing left */
		STAILQ_REMOVE_HEAD(&queue, link);
		queued--;
		pthread_mutex_unlock(&lock);
		t->fn(t->arg, stopping);
		free(t);
		pthread_mutex_lock(&lock);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int
tasks_start(unsigned n)
{
	sigset_t all, old;

	if (n > TASKS_THREADS_MAX)
		n = TASKS_THREADS_MAX;
	/* Signals are the main loop's. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (nthreads = 0; nthreads < n; nthreads++)
		if (pthread_create(&threads[nthreads], NULL, task_main, NULL) != 0)
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return nthreads == n ? 0 : -1;
}

int
tasks_push(task_fn fn, void *arg)
{
	static unsigned last_log;
	struct task *t = malloc(sizeof(*t));

	if (t == NULL)
		return -1;
	t->fn = fn;
	t->arg = arg;
	pthread_mutex_lock(&lock);
	if (queued >= TASKS_MAX || stopping || nthreads == 0) {
		pthread_mutex_unlock(&lock);
		free(t);
		log_ratelimited(&last_log, "background task queue full: a callback is dropped");
		return -1;
	}
	STAILQ_INSERT_TAIL(&queue, t, link);
	queued++;
	pthread_cond_signal(&more);
	pthread_mutex_unlock(&lock);
	return 0;
}

void
tasks_stop(void)
{
	pthread_mutex_lock(&lock);
	stopping = 1;
	pthread_cond_broadcast(&more);
	pthread_mutex_unlock(&lock);
	for (unsigned i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	nthreads = 0;
}
