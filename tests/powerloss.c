/*
 * powerloss - the client and the judge of the power-loss test
 * (tests/integ_powerloss.sh, tests/guest/powerloss.sh).
 *
 *   powerloss kinds
 *       print the kinds of operation, one a line (the host labels one
 *       ext4 image after each)
 *   powerloss setup BASE N
 *       on the local file systems BASE/KIND (one per kind), create what
 *       the operations will act on, then sync(): this state is durable
 *   powerloss run MNT ACKDEV N
 *       through the NFS mounts MNT/KIND, perform N operations of each
 *       kind; after each one the kernel client acknowledged, write the
 *       line "KIND I" to ACKDEV and wait until it has left (tcdrain on a
 *       serial port: the host has the line before the next operation
 *       starts).  A failed operation writes "FAIL KIND I: ERROR" and
 *       exits 1.
 *   powerloss verify BASE ACKLOG
 *       after the power cut and a reboot, check every operation ACKLOG
 *       acknowledges against BASE/KIND (the ext4 file systems, mounted
 *       directly): each is done (the state the operation leaves), lost
 *       (the state setup left) or partial (neither).  Prints a table of
 *       acknowledged / lost / partial per kind; exits 0 when nothing
 *       acknowledged was lost, 1 when something was, 2 on other errors.
 *
 * One process does all the operations of a run: process starts in the
 * TCG guest cost 100 ms each.  Each kind has its own file system, hence
 * its own journal: on ext4 an fsync commits everything in the journal's
 * running transaction, so one kind's sync would otherwise make another
 * kind's unsynced changes durable and hide that they were never synced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <termios.h>
#include <unistd.h>

#define MAX_N 100
#define NAME_MAX_LEN 64

enum state { DONE, LOST, PARTIAL };

/* Setup and verify work on BASE/KIND, run on MNT/KIND: same names. */
struct kind {
	const char *name;
	int (*setup)(int dir, unsigned i);   /* 0 or -1 with errno */
	int (*op)(int dir, unsigned i);      /* 0 or -1 with errno */
	enum state (*check)(int dir, unsigned i, char *why, size_t whylen);
};

/* ------------------------------------------------------------------ */
/* helpers */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("powerloss: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static const char *
name(const char *prefix, unsigned i)
{
	static char buf[4][NAME_MAX_LEN];
	static unsigned next;
	char *b = buf[next++ % 4];

	snprintf(b, NAME_MAX_LEN, "%s%02u", prefix, i);
	return b;
}

/* Content that differs per file and per offset, so a misplaced block shows. */
static void
fill(char *buf, size_t len, unsigned seed)
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz\n";

	for (size_t j = 0; j < len; j++)
		buf[j] = alphabet[(j + seed * 13) % (sizeof(alphabet) - 1)];
}

static int
write_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* A file holding exactly LEN bytes of fill(SEED), mode 0644. */
static int
make_file(int dir, const char *path, size_t len, unsigned seed)
{
	char buf[16384];
	int fd, rc;

	if (len > sizeof(buf)) {
		errno = EINVAL;
		return -1;
	}
	fd = openat(dir, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	fill(buf, len, seed);
	rc = write_all(fd, buf, len, 0);
	if (close(fd) < 0)
		rc = -1;
	return rc;
}

static int
make_dir(int dir, const char *path)
{
	return mkdirat(dir, path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* 1: PATH exists; 0: it does not; -1: stat failed otherwise. */
static int
lstat_at(int dir, const char *path, struct stat *st)
{
	if (fstatat(dir, path, st, AT_SYMLINK_NOFOLLOW) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

/* 1 when PATH is a regular file of exactly LEN bytes of fill(SEED). */
static int
has_content(int dir, const char *path, size_t len, unsigned seed)
{
	char want[16384], got[16384 + 1];
	ssize_t n;
	int fd;

	if (len > sizeof(want))
		return 0;
	fd = openat(dir, path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	n = pread(fd, got, sizeof(got), 0);
	close(fd);
	fill(want, len, seed);
	return n == (ssize_t)len && memcmp(want, got, len) == 0;
}

static enum state why(enum state s, char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum state
why(enum state s, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return s;
}

static int
no_setup(int dir, unsigned i)
{
	(void)dir;
	(void)i;
	return 0;
}

/* ------------------------------------------------------------------ */
/* the kinds: what setup leaves, what the operation does, how to tell */

/* CREATE: open(O_CREAT|O_EXCL) is EXCLUSIVE CREATE + SETATTR over v3. */
static int
create_op(int dir, unsigned i)
{
	int fd = openat(dir, name("c", i), O_WRONLY | O_CREAT | O_EXCL, 0640);

	return fd < 0 ? -1 : close(fd);
}

static enum state
create_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("c", i);
	struct stat st;

	switch (lstat_at(dir, n, &st)) {
	case 0:
		return why(LOST, w, wl, "%s missing", n);
	case 1:
		if (S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0640 && st.st_size == 0)
			return DONE;
		return why(PARTIAL, w, wl, "%s mode %o size %lld", n, st.st_mode,
		    (long long)st.st_size);
	}
	return why(PARTIAL, w, wl, "%s: %s", n, strerror(errno));
}

static int
mkdir_op(int dir, unsigned i)
{
	return mkdirat(dir, name("d", i), 0750);
}

static enum state
mkdir_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("d", i);
	struct stat st;

	switch (lstat_at(dir, n, &st)) {
	case 0:
		return why(LOST, w, wl, "%s missing", n);
	case 1:
		if (S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0750)
			return DONE;
		return why(PARTIAL, w, wl, "%s mode %o", n, st.st_mode);
	}
	return why(PARTIAL, w, wl, "%s: %s", n, strerror(errno));
}

static const char *
link_target(unsigned i)
{
	return name("target-of-symlink-", i);
}

static int
symlink_op(int dir, unsigned i)
{
	return symlinkat(link_target(i), dir, name("s", i));
}

static enum state
symlink_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("s", i), *want = link_target(i);
	char got[NAME_MAX_LEN];
	struct stat st;
	ssize_t len;

	switch (lstat_at(dir, n, &st)) {
	case 0:
		return why(LOST, w, wl, "%s missing", n);
	case -1:
		return why(PARTIAL, w, wl, "%s: %s", n, strerror(errno));
	}
	len = readlinkat(dir, n, got, sizeof(got) - 1);
	if (len < 0)
		return why(PARTIAL, w, wl, "%s: readlink: %s", n, strerror(errno));
	got[len] = '\0';
	if (S_ISLNK(st.st_mode) && strcmp(got, want) == 0)
		return DONE;
	return why(PARTIAL, w, wl, "%s points to '%s'", n, got);
}

/* MKNOD (v3), or CREATE with the type in the mode (v2). */
static int
mknod_op(int dir, unsigned i)
{
	return mknodat(dir, name("p", i), S_IFIFO | 0620, 0);
}

static enum state
mknod_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("p", i);
	struct stat st;

	switch (lstat_at(dir, n, &st)) {
	case 0:
		return why(LOST, w, wl, "%s missing", n);
	case 1:
		if (S_ISFIFO(st.st_mode) && (st.st_mode & 07777) == 0620)
			return DONE;
		return why(PARTIAL, w, wl, "%s mode %o", n, st.st_mode);
	}
	return why(PARTIAL, w, wl, "%s: %s", n, strerror(errno));
}

static int
link_setup(int dir, unsigned i)
{
	return make_file(dir, name("src", i), 100, i);
}

static int
link_op(int dir, unsigned i)
{
	return linkat(dir, name("src", i), dir, name("lnk", i), 0);
}

static enum state
link_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *s = name("src", i), *l = name("lnk", i);
	struct stat ss, ls;
	int has_l = lstat_at(dir, l, &ls);

	if (lstat_at(dir, s, &ss) != 1)
		return why(PARTIAL, w, wl, "%s gone", s);
	if (has_l == 0 && ss.st_nlink == 1)
		return why(LOST, w, wl, "%s missing", l);
	if (has_l == 1 && ls.st_ino == ss.st_ino && ss.st_nlink == 2)
		return DONE;
	return why(PARTIAL, w, wl, "%s %s, %s has %lu links", l,
	    has_l == 1 ? "exists" : "missing", s, (unsigned long)ss.st_nlink);
}

/* old -> new, in one directory (i) or from one to another (100 + i). */
static enum state
renamed(int dir, const char *from, const char *to, unsigned seed, char *w, size_t wl)
{
	struct stat st;
	int has_from = lstat_at(dir, from, &st), has_to = lstat_at(dir, to, &st);

	if (has_from == 0 && has_to == 1 && has_content(dir, to, 100, seed))
		return DONE;
	if (has_from == 1 && has_to == 0 && has_content(dir, from, 100, seed))
		return why(LOST, w, wl, "%s still there, %s missing", from, to);
	return why(PARTIAL, w, wl, "%s %s, %s %s", from, has_from == 1 ? "exists" : "missing",
	    to, has_to == 1 ? "exists" : "missing");
}

static int
rename_setup(int dir, unsigned i)
{
	return make_file(dir, name("old", i), 100, i);
}

static int
rename_op(int dir, unsigned i)
{
	return renameat(dir, name("old", i), dir, name("new", i));
}

static enum state
rename_check(int dir, unsigned i, char *w, size_t wl)
{
	return renamed(dir, name("old", i), name("new", i), i, w, wl);
}

static int
rename_dirs_setup(int dir, unsigned i)
{
	if (make_dir(dir, "from") < 0 || make_dir(dir, "to") < 0)
		return -1;
	return make_file(dir, name("from/f", i), 100, 100 + i);
}

static int
rename_dirs_op(int dir, unsigned i)
{
	return renameat(dir, name("from/f", i), dir, name("to/f", i));
}

static enum state
rename_dirs_check(int dir, unsigned i, char *w, size_t wl)
{
	return renamed(dir, name("from/f", i), name("to/f", i), 100 + i, w, wl);
}

static int
remove_setup(int dir, unsigned i)
{
	return make_file(dir, name("r", i), 100, i);
}

static int
remove_op(int dir, unsigned i)
{
	return unlinkat(dir, name("r", i), 0);
}

static enum state
gone_check(int dir, const char *n, char *w, size_t wl)
{
	struct stat st;

	switch (lstat_at(dir, n, &st)) {
	case 0:
		return DONE;
	case 1:
		return why(LOST, w, wl, "%s still there", n);
	}
	return why(PARTIAL, w, wl, "%s: %s", n, strerror(errno));
}

static enum state
remove_check(int dir, unsigned i, char *w, size_t wl)
{
	return gone_check(dir, name("r", i), w, wl);
}

static int
rmdir_setup(int dir, unsigned i)
{
	return make_dir(dir, name("e", i));
}

static int
rmdir_op(int dir, unsigned i)
{
	return unlinkat(dir, name("e", i), AT_REMOVEDIR);
}

static enum state
rmdir_check(int dir, unsigned i, char *w, size_t wl)
{
	return gone_check(dir, name("e", i), w, wl);
}

/* SETATTR mode: 0644 -> 0600. */
static int
chmod_setup(int dir, unsigned i)
{
	return make_file(dir, name("m", i), 100, i);
}

static int
chmod_op(int dir, unsigned i)
{
	return fchmodat(dir, name("m", i), 0600, 0);
}

static enum state
chmod_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("m", i);
	struct stat st;

	if (lstat_at(dir, n, &st) != 1)
		return why(PARTIAL, w, wl, "%s gone", n);
	if ((st.st_mode & 07777) == 0600)
		return DONE;
	if ((st.st_mode & 07777) == 0644)
		return why(LOST, w, wl, "%s mode still 644", n);
	return why(PARTIAL, w, wl, "%s mode %o", n, st.st_mode);
}

/* SETATTR size: 8192 bytes -> 1000 + i, the start of the content kept. */
#define TRUNC_FROM 8192

static int
truncate_setup(int dir, unsigned i)
{
	return make_file(dir, name("t", i), TRUNC_FROM, i);
}

static int
truncate_op(int dir, unsigned i)
{
	int fd = openat(dir, name("t", i), O_WRONLY);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, 1000 + i) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

static enum state
truncate_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("t", i);

	if (has_content(dir, n, 1000 + i, i))
		return DONE;
	if (has_content(dir, n, TRUNC_FROM, i))
		return why(LOST, w, wl, "%s still %d bytes", n, TRUNC_FROM);
	return why(PARTIAL, w, wl, "%s neither %u nor %d bytes of its content", n, 1000 + i,
	    TRUNC_FROM);
}

/*
 * SETATTR times: set to one past value by setup, to another by the
 * operation; microseconds only, which NFSv2 carries exactly.
 */
static void
times_of(unsigned i, int after, struct timespec ts[2])
{
	ts[0].tv_sec = ts[1].tv_sec = (after ? 1000000000 : 900000000) + (time_t)i;
	ts[0].tv_nsec = ts[1].tv_nsec = after ? 123456000 : 0;
}

static int
utimes_setup(int dir, unsigned i)
{
	struct timespec ts[2];

	if (make_file(dir, name("u", i), 100, i) < 0)
		return -1;
	times_of(i, 0, ts);
	return utimensat(dir, name("u", i), ts, 0);
}

static int
utimes_op(int dir, unsigned i)
{
	struct timespec ts[2];

	times_of(i, 1, ts);
	return utimensat(dir, name("u", i), ts, 0);
}

static int
same_times(const struct stat *st, const struct timespec ts[2])
{
	return st->st_atim.tv_sec == ts[0].tv_sec && st->st_atim.tv_nsec == ts[0].tv_nsec &&
	    st->st_mtim.tv_sec == ts[1].tv_sec && st->st_mtim.tv_nsec == ts[1].tv_nsec;
}

static enum state
utimes_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("u", i);
	struct timespec before[2], after[2];
	struct stat st;

	if (lstat_at(dir, n, &st) != 1)
		return why(PARTIAL, w, wl, "%s gone", n);
	times_of(i, 0, before);
	times_of(i, 1, after);
	if (same_times(&st, after))
		return DONE;
	if (same_times(&st, before))
		return why(LOST, w, wl, "%s has the times setup gave it", n);
	return why(PARTIAL, w, wl, "%s atime %lld.%09ld mtime %lld.%09ld", n,
	    (long long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
	    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

/*
 * Writes into empty files that setup made.  O_SYNC: one WRITE of
 * 3000 + i bytes, which the client sends FILE_SYNC (a flush for fsync
 * sends FILE_SYNC writes too).  write + fsync: 6000 + i bytes, whose
 * write-back sync_file_range starts as background write-back does, which
 * the client sends UNSTABLE; fsync then waits for it and sends a COMMIT
 * (v3; every v2 WRITE is stable).
 */

static int
write_sync_setup(int dir, unsigned i)
{
	return make_file(dir, name("w", i), 0, i);
}

static int
write_sync_op(int dir, unsigned i)
{
	char buf[4096];
	int fd = openat(dir, name("w", i), O_WRONLY | O_SYNC), rc;

	if (fd < 0)
		return -1;
	fill(buf, 3000 + i, i);
	rc = write_all(fd, buf, 3000 + i, 0);
	return close(fd) < 0 ? -1 : rc;
}

static enum state
write_sync_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("w", i);
	struct stat st;

	if (has_content(dir, n, 3000 + i, i))
		return DONE;
	if (lstat_at(dir, n, &st) == 1 && st.st_size == 0)
		return why(LOST, w, wl, "%s empty", n);
	return why(PARTIAL, w, wl, "%s has not the %u bytes written", n, 3000 + i);
}

static int
write_fsync_setup(int dir, unsigned i)
{
	return make_file(dir, name("f", i), 0, i);
}

static int
write_fsync_op(int dir, unsigned i)
{
	char buf[8192];
	int fd = openat(dir, name("f", i), O_WRONLY), rc;

	if (fd < 0)
		return -1;
	fill(buf, 6000 + i, i);
	rc = write_all(fd, buf, 6000 + i, 0);
	if (rc == 0)
		rc = sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
	if (rc == 0)
		rc = fsync(fd);
	return close(fd) < 0 ? -1 : rc;
}

static enum state
write_fsync_check(int dir, unsigned i, char *w, size_t wl)
{
	const char *n = name("f", i);
	struct stat st;

	if (has_content(dir, n, 6000 + i, i))
		return DONE;
	if (lstat_at(dir, n, &st) == 1 && st.st_size == 0)
		return why(LOST, w, wl, "%s empty", n);
	return why(PARTIAL, w, wl, "%s has not the %u bytes written", n, 6000 + i);
}

/* Labels of ext4 images: at most 16 characters. */
static const struct kind kinds[] = {
	{ "create", no_setup, create_op, create_check },
	{ "mkdir", no_setup, mkdir_op, mkdir_check },
	{ "symlink", no_setup, symlink_op, symlink_check },
	{ "mknod", no_setup, mknod_op, mknod_check },
	{ "link", link_setup, link_op, link_check },
	{ "rename", rename_setup, rename_op, rename_check },
	{ "rename_dirs", rename_dirs_setup, rename_dirs_op, rename_dirs_check },
	{ "remove", remove_setup, remove_op, remove_check },
	{ "rmdir", rmdir_setup, rmdir_op, rmdir_check },
	{ "chmod", chmod_setup, chmod_op, chmod_check },
	{ "truncate", truncate_setup, truncate_op, truncate_check },
	{ "utimes", utimes_setup, utimes_op, utimes_check },
	{ "write_sync", write_sync_setup, write_sync_op, write_sync_check },
	{ "write_fsync", write_fsync_setup, write_fsync_op, write_fsync_check },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* ------------------------------------------------------------------ */
/* the commands */

static unsigned
parse_n(const char *s)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || n < 1 || n > MAX_N)
		die("N must be 1..%d, not '%s'", MAX_N, s);
	return (unsigned)n;
}

/* The directory of kind K below TOP; setup/run also check it is its own fs. */
static int
open_kind(const char *top, size_t k)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", top, kinds[k].name);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	return fd;
}

/* One journal per kind, or a sync of one kind could hide another's. */
static void
check_separate(const int *dirs)
{
	struct stat st[NKINDS];

	for (size_t k = 0; k < NKINDS; k++) {
		if (fstat(dirs[k], &st[k]) < 0)
			die("%s: %s", kinds[k].name, strerror(errno));
		for (size_t j = 0; j < k; j++)
			if (st[j].st_dev == st[k].st_dev)
				die("%s and %s are on one file system; each kind needs its own",
				    kinds[j].name, kinds[k].name);
	}
}

/* The guest mounts the disks in order; the labels say which is which. */
static void
check_label(int dir, size_t k)
{
	char label[FSLABEL_MAX];

	if (ioctl(dir, FS_IOC_GETFSLABEL, label) < 0)
		die("%s: reading the file system label: %s", kinds[k].name, strerror(errno));
	if (strcmp(label, kinds[k].name) != 0)
		die("%s: mounted is the file system labelled '%s'", kinds[k].name, label);
}

static int
cmd_kinds(void)
{
	for (size_t k = 0; k < NKINDS; k++)
		puts(kinds[k].name);
	return 0;
}

static int
cmd_setup(const char *base, unsigned n)
{
	int dirs[NKINDS];

	for (size_t k = 0; k < NKINDS; k++) {
		dirs[k] = open_kind(base, k);
		check_label(dirs[k], k);
	}
	check_separate(dirs);
	for (size_t k = 0; k < NKINDS; k++) {
		for (unsigned i = 0; i < n; i++)
			if (kinds[k].setup(dirs[k], i) < 0)
				die("setup %s %u: %s", kinds[k].name, i, strerror(errno));
		close(dirs[k]);
	}
	sync();
	return 0;
}

/* The acknowledgement port: raw, so the host file gets the bytes as written. */
static int
open_ack(const char *path)
{
	struct termios t;
	int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_APPEND | O_CREAT, 0644);

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	if (isatty(fd)) {
		if (tcgetattr(fd, &t) < 0)
			die("%s: tcgetattr: %s", path, strerror(errno));
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL;
		if (tcsetattr(fd, TCSANOW, &t) < 0)
			die("%s: tcsetattr: %s", path, strerror(errno));
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		die("%s: fcntl: %s", path, strerror(errno));
	return fd;
}

/* Write LINE and wait until it left the guest (tcdrain) before going on. */
static void
ack(int fd, const char *line)
{
	size_t len = strlen(line);

	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, line + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("writing the acknowledgement: %s", strerror(errno));
		off += (size_t)w;
	}
	if (isatty(fd) && tcdrain(fd) < 0)
		die("tcdrain: %s", strerror(errno));
}

static int
cmd_run(const char *mnt, const char *ackdev, unsigned n)
{
	int dirs[NKINDS], fd = open_ack(ackdev);
	char line[256];

	for (size_t k = 0; k < NKINDS; k++)
		dirs[k] = open_kind(mnt, k);
	check_separate(dirs);
	snprintf(line, sizeof(line), "BEGIN %u\n", n);
	ack(fd, line);
	for (size_t k = 0; k < NKINDS; k++) {
		for (unsigned i = 0; i < n; i++) {
			if (kinds[k].op(dirs[k], i) < 0) {
				snprintf(line, sizeof(line), "FAIL %s %u: %s\n", kinds[k].name, i,
				    strerror(errno));
				ack(fd, line);
				fprintf(stderr, "powerloss: %s", line);
				return 1;
			}
			snprintf(line, sizeof(line), "%s %u\n", kinds[k].name, i);
			ack(fd, line);
		}
		close(dirs[k]);
	}
	printf("powerloss: %zu operations acknowledged\n", NKINDS * n);
	return 0;
}

struct tally {
	unsigned acked, lost, partial, shown;
};

/* Check one acknowledged operation; print the first few that failed. */
static void
verify_one(const int *dirs, struct tally *t, size_t k, unsigned i)
{
	char w[256] = "";
	enum state s = kinds[k].check(dirs[k], i, w, sizeof(w));

	t[k].acked++;
	if (s == DONE)
		return;
	if (s == LOST)
		t[k].lost++;
	else
		t[k].partial++;
	if (t[k].shown++ < 2)
		printf("powerloss: %s %s %u: %s\n", s == LOST ? "lost" : "partial",
		    kinds[k].name, i, w);
}

/* "KIND I" -> 0 with *k, *i; -1 when the line is not an operation. */
static int
parse_ack(const char *line, size_t *k, unsigned *i)
{
	char kname[32];
	unsigned idx;
	char extra;

	if (sscanf(line, "%31s %u %c", kname, &idx, &extra) != 2 || idx >= MAX_N)
		return -1;
	for (size_t j = 0; j < NKINDS; j++)
		if (strcmp(kname, kinds[j].name) == 0) {
			*k = j;
			*i = idx;
			return 0;
		}
	return -1;
}

static void
print_table(const struct tally *t)
{
	struct tally sum = { 0, 0, 0, 0 };

	printf("powerloss: %-12s %6s %6s %8s\n", "kind", "acked", "lost", "partial");
	for (size_t k = 0; k < NKINDS; k++) {
		printf("powerloss: %-12s %6u %6u %8u\n", kinds[k].name, t[k].acked, t[k].lost,
		    t[k].partial);
		sum.acked += t[k].acked;
		sum.lost += t[k].lost;
		sum.partial += t[k].partial;
	}
	printf("powerloss: %-12s %6u %6u %8u\n", "total", sum.acked, sum.lost, sum.partial);
}

static int
cmd_verify(const char *base, const char *acklog)
{
	struct tally t[NKINDS];
	int dirs[NKINDS], done = 0, bad = 0, lost = 0;
	char line[512];
	FILE *f = fopen(acklog, "r");

	if (f == NULL)
		die("%s: %s", acklog, strerror(errno));
	memset(t, 0, sizeof(t));
	for (size_t k = 0; k < NKINDS; k++) {
		dirs[k] = open_kind(base, k);
		check_label(dirs[k], k);
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		size_t len = strlen(line), k;
		unsigned i;

		if (len == 0 || line[len - 1] != '\n') {
			printf("powerloss: ignoring an unfinished last line '%s'\n", line);
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (parse_ack(line, &k, &i) == 0)
			verify_one(dirs, t, k, i);
		else if (strncmp(line, "DONE", 4) == 0)
			done = 1;
		else if (strncmp(line, "BEGIN", 5) != 0 && strncmp(line, "FAIL", 4) != 0 &&
		    line[0] != '#') {
			printf("powerloss: %s: not an acknowledgement: '%s'\n", acklog, line);
			bad = 1;
		}
	}
	fclose(f);
	print_table(t);
	if (!done)
		printf("powerloss: note: %s has no DONE line (the run did not finish)\n", acklog);
	for (size_t k = 0; k < NKINDS; k++) {
		close(dirs[k]);
		if (t[k].lost + t[k].partial > 0)
			lost = 1;
	}
	return lost ? 1 : bad ? 2 : 0;
}

static void
usage(void)
{
	fputs("usage: powerloss kinds\n"
	      "       powerloss setup BASE N\n"
	      "       powerloss run MNT ACKDEV N\n"
	      "       powerloss verify BASE ACKLOG\n", stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	/* Exact modes: what the program asks for is what it checks. */
	umask(0);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && strcmp(argv[1], "kinds") == 0)
		return cmd_kinds();
	if (argc == 4 && strcmp(argv[1], "setup") == 0)
		return cmd_setup(argv[2], parse_n(argv[3]));
	if (argc == 5 && strcmp(argv[1], "run") == 0)
		return cmd_run(argv[2], argv[3], parse_n(argv[4]));
	if (argc == 4 && strcmp(argv[1], "verify") == 0)
		return cmd_verify(argv[2], argv[3]);
	usage();
	return 2;
}
