/*
 * Background tasks (tasks.h): a bounded FIFO and its threads, with a
 * share per peer: the tasks for one host (calls to it, which take
 * seconds when it is gone) are bounded, so one dead or flooding client
 * cannot fill the queue or occupy every thread.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "log.h"
#include "queue.h"
#include "sockaddr.h"
#include "tasks.h"

#define TASKS_MAX 4096		/* queued at most: beyond, the caller gives up */
#define TASKS_THREADS_MAX 8
#define PEER_SLOTS 512		/* hosts with tasks at once */

struct peer_slot {
	struct sockaddr_storage addr;
	unsigned count;		/* queued or running; 0: the slot is free */
};

struct task {
	STAILQ_ENTRY(task) link;
	task_fn fn;
	void *arg;
	struct peer_slot *peer;	/* NULL: nobody's share */
};

static STAILQ_HEAD(, task) queue = STAILQ_HEAD_INITIALIZER(queue);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static unsigned queued, nthreads;
static int stopping;
static pthread_t threads[TASKS_THREADS_MAX];
static struct peer_slot peers[PEER_SLOTS];

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
		pthread_mutex_lock(&lock);
		if (t->peer)
			t->peer->count--;
		free(t);
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

/* With the lock held: peer's slot with room for one more, or NULL. */
static struct peer_slot *
peer_take(const struct sockaddr_storage *peer, unsigned per_peer)
{
	struct peer_slot *free_slot = NULL;

	for (unsigned i = 0; i < PEER_SLOTS; i++) {
		struct peer_slot *p = &peers[i];

		if (p->count == 0) {
			if (free_slot == NULL)
				free_slot = p;
			continue;
		}
		if (sockaddr_same_host(&p->addr, peer))
			return p->count < per_peer ? p : NULL;
	}
	if (free_slot)
		free_slot->addr = *peer;
	return free_slot;
}

static int
push(const struct sockaddr_storage *peer, unsigned per_peer, task_fn fn, void *arg)
{
	static unsigned last_log;
	struct task *t = malloc(sizeof(*t));

	if (t == NULL)
		return -1;
	t->fn = fn;
	t->arg = arg;
	t->peer = NULL;
	pthread_mutex_lock(&lock);
	if (queued >= TASKS_MAX || stopping || nthreads == 0 ||
	    (peer && (t->peer = peer_take(peer, per_peer)) == NULL)) {
		pthread_mutex_unlock(&lock);
		free(t);
		log_ratelimited(&last_log, "background tasks: queue or a host's share full: "
		    "a call to a client is dropped");
		return -1;
	}
	if (t->peer)
		t->peer->count++;
	STAILQ_INSERT_TAIL(&queue, t, link);
	queued++;
	pthread_cond_signal(&more);
	pthread_mutex_unlock(&lock);
	return 0;
}

int
tasks_push(task_fn fn, void *arg)
{
	return push(NULL, 0, fn, arg);
}

int
tasks_push_for(const struct sockaddr_storage *peer, unsigned per_peer, task_fn fn, void *arg)
{
	return push(peer, per_peer, fn, arg);
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
