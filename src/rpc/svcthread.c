/* The service threads' start, stop and clock (include/svcthread.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "svcthread.h"
#include "monotime.h"

int64_t
svc_now_ms(void)
{
	return mono_ns() / 1000000;
}

int
svc_thread_start(struct svc_thread *t, void *(*fn)(void *), const char *what, char *err,
    size_t errlen)
{
	sigset_t all, old;
	int p[2], rc;

	if (pipe2(p, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "%s: pipe: %s", what, strerror(errno));
		return -1;
	}
	t->stop_fd = p[0];
	t->wake_fd = p[1];
	/* Signals are the main thread's (daemon.c): none may land here. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&t->tid, NULL, fn, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(err, errlen, "%s: thread: %s", what, strerror(rc));
		svc_thread_stop(t);
		return -1;
	}
	t->running = 1;
	return 0;
}

void
svc_thread_stop(struct svc_thread *t)
{
	if (t->running) {
		if (write(t->wake_fd, "x", 1) < 0)
			log_warn("stopping a service thread");
		pthread_join(t->tid, NULL);
		t->running = 0;
	}
	if (t->stop_fd >= 0)
		close(t->stop_fd);
	if (t->wake_fd >= 0)
		close(t->wake_fd);
	t->stop_fd = t->wake_fd = -1;
}
