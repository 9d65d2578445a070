/*
 * locktool - take one file lock and report when it was granted, for the
 * kernel-client lock tests (tests/guest/kernel-lock.sh).
 *
 *   locktool [-r] [-s START] [-l LEN] [-u START,LEN] [-h HOLD_MS] [-t SECONDS] OP FILE
 *
 * OP is one of
 *   setlk    fcntl F_SETLK (fails at once on a conflict)
 *   setlkw   fcntl F_SETLKW (waits for the lock)
 *   getlk    fcntl F_GETLK (prints the conflicting lock, if any)
 *   flock    flock LOCK_NB (fails at once on a conflict)
 *   flockw   flock (waits)
 * -r takes a shared (read) lock instead of an exclusive one; -s and -l give
 * the byte range of fcntl locks (default 0 and 0: the whole file).  -u
 * unlocks a part of that range once it is granted, splitting the lock.
 * Once the lock is held, -h keeps it HOLD_MS milliseconds (-1: until SIGTERM,
 * SIGINT or SIGHUP), then unlocks it explicitly and exits; without -h it
 * exits holding the lock, which the close releases.  -t bounds each lock
 * and unlock call: after SECONDS, SIGALRM ends the process (status 142).
 * No handler: the NFS client's lock waits only give way to a signal that
 * kills, and a server that never answers must not hang the test.
 *
 * Lines on stdout, flushed as they happen, times in milliseconds of
 * CLOCK_MONOTONIC (one clock for every process of a machine, so the
 * shell can compare two processes' times):
 *   start t=T              before the lock call
 *   locked t=T waited=W    the lock is held; W ms after start
 *   split t=T              -u: the part is unlocked
 *   unlock t=T             before the unlock call
 *   unlocked t=T           after it returned
 *   EAGAIN t=T             setlk/flock: a conflicting lock is held
 *   unlocked / locked type=R|W pid=P start=S len=L     (getlk)
 * Exit status: 0 success (getlk: no conflict), 3 a conflicting lock
 * (EAGAIN, EACCES, EWOULDBLOCK; getlk: one exists), 1 any other error,
 * 2 usage, 142 timed out (-t).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_CONFLICT = 3, EXIT_USAGE = 2 };

struct opts {
	const char *op;
	const char *path;
	int shared;
	off_t start;
	off_t len;
	long hold_ms;		/* -2: no -h, -1: until a signal */
	unsigned timeout;	/* seconds per lock call, 0: none */
	off_t split_start;	/* -u: the part to unlock once granted */
	off_t split_len;
	int split;
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Flushed at once: the shell polls our output while we hold the lock. */
__attribute__((format(printf, 1, 2)))
static void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void usage(void)
{
	fprintf(stderr, "usage: locktool [-r] [-s START] [-l LEN] [-u START,LEN] [-h HOLD_MS] [-t SECONDS] "
		"setlk|setlkw|getlk|flock|flockw FILE\n");
	exit(EXIT_USAGE);
}

static long long number(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s || *end)
		usage();
	return v;
}

static unsigned nonnegative(const char *s)
{
	long long v = number(s);

	if (v < 0 || v > 86400)
		usage();
	return (unsigned)v;
}

/* -u START,LEN */
static void split_arg(char *arg, struct opts *o)
{
	char *comma = strchr(arg, ',');

	if (!comma)
		usage();
	*comma = '\0';
	o->split_start = number(arg);
	o->split_len = number(comma + 1);
	o->split = 1;
}

static void parse(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->hold_ms = -2;
	while ((c = getopt(argc, argv, "rs:l:u:h:t:")) != -1) {
		switch (c) {
		case 'r': o->shared = 1; break;
		case 's': o->start = number(optarg); break;
		case 'l': o->len = number(optarg); break;
		case 'h': o->hold_ms = number(optarg); break;
		case 't': o->timeout = nonnegative(optarg); break;
		case 'u': split_arg(optarg, o); break;
		default: usage();
		}
	}
	if (argc - optind != 2 || o->hold_ms < -2)
		usage();
	o->op = argv[optind];
	o->path = argv[optind + 1];
}

static int is_conflict(int err)
{
	return err == EAGAIN || err == EACCES || err == EWOULDBLOCK;
}

static int is_flock(const struct opts *o)
{
	return strncmp(o->op, "flock", 5) == 0;
}

static int range_fcntl(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock fl = {
		.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len,
	};

	return fcntl(fd, cmd, &fl);
}

static int do_fcntl(int fd, const struct opts *o, int cmd, short type)
{
	return range_fcntl(fd, cmd, type, o->start, o->len);
}

/* -u: unlock a part of the lock just granted; 0 or 1. */
static int unlock_part(int fd, const struct opts *o)
{
	alarm(o->timeout);
	if (range_fcntl(fd, F_SETLK, F_UNLCK, o->split_start, o->split_len) < 0) {
		fprintf(stderr, "locktool: unlock part of %s: %s\n", o->path, strerror(errno));
		return 1;
	}
	alarm(0);
	report("split t=%lld", now_ms());
	return 0;
}

/* F_GETLK: report the lock that would conflict, if any. */
static int getlk(int fd, const struct opts *o)
{
	struct flock fl = {
		.l_type = o->shared ? F_RDLCK : F_WRLCK, .l_whence = SEEK_SET,
		.l_start = o->start, .l_len = o->len,
	};

	alarm(o->timeout);
	if (fcntl(fd, F_GETLK, &fl) < 0) {
		fprintf(stderr, "locktool: F_GETLK %s: %s\n", o->path, strerror(errno));
		return 1;
	}
	if (fl.l_type == F_UNLCK) {
		report("unlocked");
		return 0;
	}
	report("locked type=%c pid=%ld start=%lld len=%lld", fl.l_type == F_RDLCK ? 'R' : 'W',
	       (long)fl.l_pid, (long long)fl.l_start, (long long)fl.l_len);
	return EXIT_CONFLICT;
}

/* Take the lock; 0, EXIT_CONFLICT or 1. */
static int lock(int fd, const struct opts *o)
{
	int wait = o->op[strlen(o->op) - 1] == 'w';
	long long t0 = now_ms();
	int rc;

	report("start t=%lld", t0);
	alarm(o->timeout);
	if (is_flock(o))
		rc = flock(fd, (o->shared ? LOCK_SH : LOCK_EX) | (wait ? 0 : LOCK_NB));
	else
		rc = do_fcntl(fd, o, wait ? F_SETLKW : F_SETLK, o->shared ? F_RDLCK : F_WRLCK);
	alarm(0);
	if (rc < 0 && !wait && is_conflict(errno)) {
		report("EAGAIN t=%lld", now_ms());
		return EXIT_CONFLICT;
	}
	if (rc < 0) {
		fprintf(stderr, "locktool: %s %s: %s\n", o->op, o->path, strerror(errno));
		return 1;
	}
	report("locked t=%lld waited=%lld", now_ms(), now_ms() - t0);
	return 0;
}

/*
 * Hold the lock for o->hold_ms (or until a signal), then unlock it with a
 * call of its own, so that the "unlock" time is when the server is told.
 * The signals are blocked only now: until the lock is granted, SIGTERM
 * ends the process (a waiting F_SETLKW is not otherwise interruptible).
 */
static int hold_and_unlock(int fd, const struct opts *o)
{
	struct timespec ts = { o->hold_ms / 1000, (o->hold_ms % 1000) * 1000000 };
	sigset_t set;
	int rc;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (o->hold_ms < 0)
		sigwaitinfo(&set, NULL);
	else
		sigtimedwait(&set, NULL, &ts);
	report("unlock t=%lld", now_ms());
	alarm(o->timeout);
	rc = is_flock(o) ? flock(fd, LOCK_UN) : do_fcntl(fd, o, F_SETLK, F_UNLCK);
	if (rc < 0) {
		fprintf(stderr, "locktool: unlock %s: %s\n", o->path, strerror(errno));
		return 1;
	}
	report("unlocked t=%lld", now_ms());
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	int fd, rc;

	parse(argc, argv, &o);
	if (strcmp(o.op, "setlk") && strcmp(o.op, "setlkw") && strcmp(o.op, "getlk") &&
	    strcmp(o.op, "flock") && strcmp(o.op, "flockw"))
		usage();
	/* Read-write: an exclusive lock on NFS needs a descriptor open for writing. */
	fd = open(o.path, O_RDWR | O_CREAT, 0666);
	if (fd < 0) {
		fprintf(stderr, "locktool: %s: %s\n", o.path, strerror(errno));
		return 1;
	}
	if (strcmp(o.op, "getlk") == 0)
		return getlk(fd, &o);
	rc = lock(fd, &o);
	if (rc == 0 && o.split)
		rc = unlock_part(fd, &o);
	if (rc == 0 && o.hold_ms != -2)
		rc = hold_and_unlock(fd, &o);
	return rc;
}
