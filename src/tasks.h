/*
 * Background tasks: work a call causes but must not wait for on a worker,
 * such as calls out to other hosts (NLM GRANTED callbacks and _RES
 * answers, NSM monitoring and notification), which may take seconds when
 * the other host is slow or gone. A bounded queue served by a few
 * threads of their own.
 */
#ifndef USERNFSD_TASKS_H
#define USERNFSD_TASKS_H

#include <sys/socket.h>

/* cancelled: the daemon is stopping; fn must only release arg. */
typedef void (*task_fn)(void *arg, int cancelled);

int tasks_start(unsigned nthreads);
/* Queues fn(arg); -1 when the queue is full (arg is then the caller's). */
int tasks_push(task_fn fn, void *arg);
/*
 * The same for a task that calls peer: -1 also when per_peer of them are
 * queued or running already, so one slow host cannot take every thread.
 */
int tasks_push_for(const struct sockaddr_storage *peer, unsigned per_peer, task_fn fn,
    void *arg);
/* Runs what is queued as cancelled, waits for the running tasks, stops. */
void tasks_stop(void);

#endif
