/*
 * Logging: stderr in the foreground, syslog when detached.
 * log_warn appends strerror(errno); the "x" variants do not.
 */
#ifndef USERNFSD_LOG_H
#define USERNFSD_LOG_H

#include "compiler.h"

void log_init(const char *ident, int to_stderr, int debug);
int log_debug_enabled(void);
void log_info(const char *fmt, ...) PRINTFLIKE(1, 2);
void log_warn(const char *fmt, ...) PRINTFLIKE(1, 2);
void log_warnx(const char *fmt, ...) PRINTFLIKE(1, 2);
void log_debug(const char *fmt, ...) PRINTFLIKE(1, 2);
/* At most one line per interval for the same call site key. */
void log_ratelimited(unsigned *last_sec, const char *fmt, ...) PRINTFLIKE(2, 3);
void fatal(const char *fmt, ...) PRINTFLIKE(1, 2) NORETURN;
void fatalx(const char *fmt, ...) PRINTFLIKE(1, 2) NORETURN;

#endif
