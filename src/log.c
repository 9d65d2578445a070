/* Logging to stderr or syslog; safe to call from any thread. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "log.h"

static int log_to_stderr = 1;
static int log_verbose;

void
log_init(const char *ident, int to_stderr, int debug)
{
	log_to_stderr = to_stderr;
	log_verbose = debug;
	if (!to_stderr)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

int
log_debug_enabled(void)
{
	return log_verbose;
}

static void
vlog(int pri, const char *fmt, va_list ap, int with_errno)
{
	char msg[1024];
	int saved = errno;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (log_to_stderr) {
		/* One fprintf per line so threads do not interleave. */
		if (with_errno)
			fprintf(stderr, "usernfsd: %s: %s\n", msg, strerror(saved));
		else
			fprintf(stderr, "usernfsd: %s\n", msg);
	} else {
		if (with_errno)
			syslog(pri, "%s: %s", msg, strerror(saved));
		else
			syslog(pri, "%s", msg);
	}
	errno = saved;
}

#define LOGFN(name, pri, with_errno)                \
	void name(const char *fmt, ...)             \
	{                                           \
		va_list ap;                         \
		va_start(ap, fmt);                  \
		vlog(pri, fmt, ap, with_errno);     \
		va_end(ap);                         \
	}

LOGFN(log_info, LOG_INFO, 0)
LOGFN(log_warn, LOG_WARNING, 1)
LOGFN(log_warnx, LOG_WARNING, 0)

void
log_debug(const char *fmt, ...)
{
	va_list ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	vlog(LOG_DEBUG, fmt, ap, 0);
	va_end(ap);
}

void
log_ratelimited(unsigned *last_sec, const char *fmt, ...)
{
	va_list ap;
	unsigned now = (unsigned)time(NULL);

	/* Racy by design: an occasional extra line is harmless. */
	if (*last_sec != 0 && now - *last_sec < 10)
		return;
	*last_sec = now;
	va_start(ap, fmt);
	vlog(LOG_WARNING, fmt, ap, 0);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_ERR, fmt, ap, 1);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_ERR, fmt, ap, 0);
	va_end(ap);
	exit(1);
}
