/*
 * A small service thread of the daemon's own (the control socket, the
 * metrics listener): started with every signal blocked (the main thread
 * takes them), stopped through a pipe its poll() watches, joined.
 */
#ifndef USERNFSD_SVCTHREAD_H
#define USERNFSD_SVCTHREAD_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct svc_thread {
	pthread_t tid;
	int stop_fd;		/* readable once svc_thread_stop is called: poll it */
	int wake_fd;
	int running;
};

#define SVC_THREAD_INIT { .stop_fd = -1, .wake_fd = -1 }

/* Starts fn(NULL); on failure writes why (prefixed with what) to err. 0 or -1. */
int svc_thread_start(struct svc_thread *t, void *(*fn)(void *), const char *what, char *err,
    size_t errlen);
/* Tells the thread to return (stop_fd turns readable), waits for it. */
void svc_thread_stop(struct svc_thread *t);
/* Monotonic milliseconds, for the threads' deadlines. */
int64_t svc_now_ms(void);

#endif
