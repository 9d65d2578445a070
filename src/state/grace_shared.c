/*
 * The shared grace record (DESIGN.md, "Several heads"). Every head names
 * the same directory on the shared file system (--grace-dir). A head that
 * starts a grace period (its server identity had clients holding locks)
 * writes one file there, named after its identity, holding the
 * wall-clock second its grace period ends; it removes the file when the
 * period is over. Every head refuses new locks while any file there names
 * a second still to come, so no head hands a range to a newcomer that a
 * client of a restarted or taken-over identity is about to reclaim.
 *
 * A record outlives a head that dies in its grace period, and ends by
 * itself at the second it names: nothing has to clean up after a crash.
 * Heads compare wall-clock seconds, so their clocks must agree (NTP) to
 * within a second or two.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "heads.h"
#include "log.h"

static int dirfd_g = -1;
static char record[256];	/* our identity: the last component of the state directory */
static time_t our_end;		/* wall clock; 0 once our grace period is over */

/*
 * What the last scan found, and the directory's change time it found it
 * at. A record that comes, goes or is replaced changes the directory, so
 * a scan is repeated only when the directory changed, and every ask costs
 * one fstat. File times are taken from a coarse clock: a change made in
 * the same tick as a scan can leave the time unchanged, so a scan of a
 * directory changed less than two seconds before it is not trusted
 * (the next ask scans again), as git does with its index.
 */
static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;
static struct timespec scanned_ctime;
static int scanned_trusted;
static time_t active_until;	/* wall clock: the latest end a record named */

/* The last component of statedir: /shared/usernfsd/vip-a/ names "vip-a". */
static int
identity_of(const char *statedir)
{
	size_t len = strlen(statedir);
	const char *start;

	while (len > 1 && statedir[len - 1] == '/')
		len--;
	start = statedir + len;
	while (start > statedir && start[-1] != '/')
		start--;
	len -= (size_t)(start - statedir);
	if (len == 0 || len >= sizeof(record) || start[0] == '.') {
		errno = EINVAL;
		return -1;
	}
	memcpy(record, start, len);
	record[len] = '\0';
	return 0;
}

int
grace_shared_init(const char *dir, const char *statedir)
{
	if (identity_of(statedir) < 0)
		return -1;
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -1;
	dirfd_g = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dirfd_g < 0 ? -1 : 0;
}

int
grace_shared_begin(unsigned secs)
{
	char tmp[300], text[32];
	int fd, len, rc = -1;

	if (dirfd_g < 0 || secs == 0)
		return 0;
	our_end = time(NULL) + (time_t)secs;
	len = snprintf(text, sizeof(text), "%lld\n", (long long)our_end);
	/* A dot-name: never read as a record while it is being written. */
	snprintf(tmp, sizeof(tmp), ".%s.%ld", record, (long)getpid());
	fd = openat(dirfd_g, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	/* Durable before we serve: a head that crashes now still holds the others back. */
	if (write(fd, text, (size_t)len) == len && fsync(fd) == 0 &&
	    renameat(dirfd_g, tmp, dirfd_g, record) == 0 && fsync(dirfd_g) == 0)
		rc = 0;
	close(fd);
	if (rc < 0)
		unlinkat(dirfd_g, tmp, 0);
	return rc;
}

/* The end second a record names, or 0 when it names none. */
static time_t
record_end(int dfd, const char *name)
{
	char buf[32];
	long long v;
	ssize_t n;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%lld", &v) != 1 || v < 0)
		return 0;
	return (time_t)v;
}

/* The latest end second any record names (0: none), or -1 if unreadable. */
static time_t
scan(void)
{
	time_t latest = 0, end;
	struct dirent *de;
	int dfd;
	DIR *d;

	/* A descriptor of our own: readdir moves the offset. */
	if ((dfd = openat(dirfd_g, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (d = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.' && (end = record_end(dirfd(d), de->d_name)) > latest)
			latest = end;
	closedir(d);
	return latest;
}

static int
same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

int
grace_shared_enabled(void)
{
	return dirfd_g >= 0;
}

int
grace_shared_active(void)
{
	time_t now = time(NULL), latest;
	struct stat st;
	int active;

	if (dirfd_g < 0)
		return 0;
	/* Cannot tell: assume someone is in grace rather than grant too early. */
	if (fstat(dirfd_g, &st) < 0)
		return 1;
	pthread_mutex_lock(&scan_lock);
	if (!scanned_trusted || !same_time(&st.st_ctim, &scanned_ctime)) {
		latest = scan();
		scanned_ctime = st.st_ctim;
		scanned_trusted = latest >= 0 && st.st_ctim.tv_sec + 2 <= now;
		active_until = latest < 0 ? now + 1 : latest;
	}
	active = now < active_until;
	pthread_mutex_unlock(&scan_lock);
	return active;
}

void
grace_shared_tick(int in_grace)
{
	if (dirfd_g < 0 || our_end == 0 || (in_grace && time(NULL) < our_end))
		return;
	our_end = 0;
	if (unlinkat(dirfd_g, record, 0) < 0 && errno != ENOENT)
		log_warn("grace record %s", record);
}
