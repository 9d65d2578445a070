/*
 * fsmeta - a metadata loop and a small-file copy through the local file
 * system interface, for kernel NFS clients: run by guest-bench.sh in the
 * QEMU guest against mounts of knfsd's and usernfsd's sync and async
 * exports, to show what durable metadata costs each server.
 *
 *   fsmeta [-n FILES] [-k SMALLFILES] [-s KIB] [-c CHUNK] [-p PREFIX] [-r] [-a]
 *          [-l SUBDIR [-L ENTRIES]] NAME=DIR...
 *
 * In a fresh directory DIR/fsmeta.PID of each target, one call after
 * another:
 *   create     FILES empty files (open O_CREAT|O_TRUNC, close: one
 *              CREATE, as `touch` or `cp` make them; O_EXCL would add a
 *              SETATTR)
 *   setattr    chmod each (SETATTR)
 *   rename     each to another name in the directory (RENAME)
 *   remove     unlink each (REMOVE)
 *   mkdir      FILES directories (MKDIR)
 *   rmdir      each (RMDIR)
 *   smallcopy  SMALLFILES files of KIB KiB: open, one write, close (the
 *              client writes them back at close: WRITE, COMMIT, as cp of
 *              many small files does)
 * These are the calls a `sync` export makes durable before it replies.
 * With -r, then (guest-bench.sh's per-version runs):
 *   smallread  after sync and drop_caches (the client's cache cold), each
 *              small file opened, read whole (checked) and closed: LOOKUP
 *              or OPEN, ACCESS, READ
 * With -l SUBDIR, last:
 *   lsl        what ls -l does with DIR/SUBDIR (a directory that is already
 *              there, beside fsmeta.PID, not in it), after drop_caches:
 *              readdir, and lstat of every entry (fstatat
 *              AT_SYMLINK_NOFOLLOW); entries/s.  With -L, any other count
 *              of entries (. and .. not counted) is an error.  Not in
 *              turns: one whole listing per target, in the order given,
 *              each after drop_caches (see run_lsl).
 * With -a, NAME.meta.ops_s too: the six metadata phases' operations over
 * their summed time (the metadata mix as one number).
 *
 * The targets take turns, CHUNK operations at a time, and the one that
 * goes first rotates: the guest shares a busy host, whose load drifts,
 * and taking turns spreads that drift evenly over the targets, where
 * running one after the other would pin it on whichever ran during a
 * busy spell.  Each target's rate counts only its own operations' time.
 * One process does everything (a process start costs ~0.1 s there).
 *
 * Output: a human line per phase and target, then PREFIX NAME.PHASE.ops_s
 * lines (smallcopy: NAME.smallcopy.files_s and .mib_s).  Exits 1 on the
 * first failed call, naming it; no rates are printed then.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_TARGETS 16      /* guest-bench.sh -F: 2 servers x 4 flavors x 2 versions */
#define NPHASES 7
#define NMETA 6         /* phases[0..5]: the metadata mix */

struct target {
	const char *name;
	const char *base;       /* DIR of NAME=DIR */
	char dir[4096];
	int dfd;
	double secs[NPHASES];
	double read_secs;       /* -r: smallread */
	double lsl_secs;        /* -l: lsl */
	long lsl_entries;
	DIR *lsl_dir;
};

/* One operation on item i in a target's directory; dies on failure. */
typedef void (*op_fn)(struct target *t, long i);

struct phase { const char *key; op_fn fn; int small; };

static struct target targets[MAX_TARGETS];
static int ntargets;
static char *small_buf;
static size_t small_len;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const struct target *t, const char *what, const char *name)
{
	fprintf(stderr, "fsmeta: %s: %s %s/%s: %s\n", t->name, what, t->dir, name, strerror(errno));
	exit(1);
}

static void name_of(char *buf, size_t sz, char kind, long i)
{
	snprintf(buf, sz, "%c%06ld", kind, i);
}

static void op_create(struct target *t, long i)
{
	char n[16];
	int fd;

	name_of(n, sizeof(n), 'f', i);
	if ((fd = openat(t->dfd, n, O_CREAT | O_TRUNC | O_WRONLY, 0644)) < 0)
		die(t, "create", n);
	if (close(fd) < 0)
		die(t, "close", n);
}

static void op_setattr(struct target *t, long i)
{
	char n[16];

	name_of(n, sizeof(n), 'f', i);
	if (fchmodat(t->dfd, n, 0600, 0) < 0)
		die(t, "chmod", n);
}

static void op_rename(struct target *t, long i)
{
	char from[16], to[16];

	name_of(from, sizeof(from), 'f', i);
	name_of(to, sizeof(to), 'g', i);
	if (renameat(t->dfd, from, t->dfd, to) < 0)
		die(t, "rename", from);
}

static void op_remove(struct target *t, long i)
{
	char n[16];

	name_of(n, sizeof(n), 'g', i);
	if (unlinkat(t->dfd, n, 0) < 0)
		die(t, "unlink", n);
}

static void op_mkdir(struct target *t, long i)
{
	char n[16];

	name_of(n, sizeof(n), 'd', i);
	if (mkdirat(t->dfd, n, 0755) < 0)
		die(t, "mkdir", n);
}

static void op_rmdir(struct target *t, long i)
{
	char n[16];

	name_of(n, sizeof(n), 'd', i);
	if (unlinkat(t->dfd, n, AT_REMOVEDIR) < 0)
		die(t, "rmdir", n);
}

static void op_smallcopy(struct target *t, long i)
{
	char n[16];
	int fd;

	name_of(n, sizeof(n), 's', i);
	if ((fd = openat(t->dfd, n, O_CREAT | O_TRUNC | O_WRONLY, 0644)) < 0)
		die(t, "create", n);
	if (write(fd, small_buf, small_len) != (ssize_t)small_len)
		die(t, "write", n);
	if (close(fd) < 0)     /* where the NFS client flushes: WRITE, COMMIT */
		die(t, "close", n);
}

/* -r: a small file read back whole and checked (the client's cache cold) */
static void op_smallread(struct target *t, long i)
{
	static char *rbuf;
	char n[24];
	ssize_t got;
	size_t have = 0;
	int fd;

	if (!rbuf && !(rbuf = malloc(small_len + 1))) {
		perror("fsmeta: malloc");
		exit(1);
	}
	name_of(n, sizeof(n), 's', i);
	if ((fd = openat(t->dfd, n, O_RDONLY)) < 0)
		die(t, "open", n);
	while ((got = read(fd, rbuf + have, small_len + 1 - have)) > 0)
		have += (size_t)got;
	if (got < 0)
		die(t, "read", n);
	if (have != small_len || memcmp(rbuf, small_buf, small_len) != 0) {
		fprintf(stderr, "fsmeta: %s: %s/%s: read back %zu bytes, not the %zu written\n",
			t->name, t->dir, n, have, small_len);
		exit(1);
	}
	if (close(fd) < 0)
		die(t, "close", n);
}

static const struct phase phases[NPHASES] = {
	{ "create", op_create, 0 }, { "setattr", op_setattr, 0 }, { "rename", op_rename, 0 },
	{ "remove", op_remove, 0 }, { "mkdir", op_mkdir, 0 }, { "rmdir", op_rmdir, 0 },
	{ "smallcopy", op_smallcopy, 1 },
};

/* Items [from, to) of phase p on target t, timed into t->secs[p]. */
static void run_chunk(struct target *t, int p, long from, long to)
{
	double t0 = now();

	for (long i = from; i < to; i++)
		phases[p].fn(t, i);
	t->secs[p] += now() - t0;
}

/* Every target does items 0..n-1, taking turns CHUNK at a time. */
static void run_phase(int p, long n, long chunk)
{
	for (long c = 0; c * chunk < n; c++) {
		long from = c * chunk, to = from + chunk < n ? from + chunk : n;

		for (int k = 0; k < ntargets; k++)
			run_chunk(&targets[(c + k) % ntargets], p, from, to);
	}
	for (int k = 0; k < ntargets; k++)
		printf("fsmeta: %-9s %-16s %9.1f /s  (%ld in %.2f s)\n", phases[p].key, targets[k].name,
		       n / targets[k].secs[p], n, targets[k].secs[p]);
	fflush(stdout);
}

/* Dirty data out, then every clean page, dentry and inode dropped: the
 * NFS client's caches (and the servers' page caches) are cold.  The
 * guest runs this as root; elsewhere a failure is only reported. */
static void drop_caches(void)
{
	int fd;

	sync();
	if ((fd = open("/proc/sys/vm/drop_caches", O_WRONLY)) < 0 || write(fd, "3\n", 2) != 2)
		fprintf(stderr, "fsmeta: cannot drop caches: %s (the read is warm)\n", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* -r: the small files read back, taking turns as run_phase does */
static void run_smallread(long k, long chunk)
{
	drop_caches();
	for (long c = 0; c * chunk < k; c++) {
		long from = c * chunk, to = from + chunk < k ? from + chunk : k;

		for (int j = 0; j < ntargets; j++) {
			struct target *t = &targets[(c + j) % ntargets];
			double t0 = now();

			for (long i = from; i < to; i++)
				op_smallread(t, i);
			t->read_secs += now() - t0;
		}
	}
	for (int j = 0; j < ntargets; j++)
		printf("fsmeta: %-9s %-16s %9.1f /s  (%ld in %.2f s)\n", "smallread", targets[j].name,
		       k / targets[j].read_secs, k, targets[j].read_secs);
	fflush(stdout);
}

/* Up to CHUNK entries of t's listing: readdir, lstat each.  0 at the end. */
static int lsl_chunk(struct target *t, long chunk)
{
	struct dirent *de;
	struct stat st;
	double t0 = now();
	int more = 1;

	for (long i = 0; i < chunk; ) {
		errno = 0;
		if (!(de = readdir(t->lsl_dir))) {
			if (errno)
				die(t, "readdir", ".");
			more = 0;
			break;
		}
		if (de->d_name[0] == '.' && (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (fstatat(dirfd(t->lsl_dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			die(t, "lstat", de->d_name);
		t->lsl_entries++;
		i++;
	}
	t->lsl_secs += now() - t0;
	return more;
}

/* -l: ls -l of BASE/SUBDIR on every target, one whole listing after the
 * other, each after drop_caches.  Not in turns: interleaved listings
 * would put the other targets' time between an entry's READDIR(PLUS) and
 * its lstat, and past the client's attribute timeout (acregmin, 3 s) every
 * lstat becomes a GETATTR of its own (20,000 entries in six turns: 20x
 * slower).  Whoever calls fsmeta rotates the order of the targets. */
static void run_lsl(const char *sub, long expect)
{
	for (int j = 0; j < ntargets; j++) {
		struct target *t = &targets[j];
		char path[4096];
		double t0;
		int fd;

		drop_caches();
		t0 = now();
		snprintf(path, sizeof(path), "%s/%s", t->base, sub);
		if ((fd = open(path, O_RDONLY | O_DIRECTORY)) < 0 || !(t->lsl_dir = fdopendir(fd))) {
			fprintf(stderr, "fsmeta: %s: opendir %s: %s\n", t->name, path, strerror(errno));
			exit(1);
		}
		t->lsl_secs += now() - t0;
		while (lsl_chunk(t, 1L << 30))
			;
		closedir(t->lsl_dir);
		if (expect >= 0 && t->lsl_entries != expect) {
			fprintf(stderr, "fsmeta: %s: %s/%s: %ld entries listed, not %ld\n",
				t->name, t->base, sub, t->lsl_entries, expect);
			exit(1);
		}
	}
	for (int j = 0; j < ntargets; j++)
		printf("fsmeta: %-9s %-16s %9.1f /s  (%ld in %.2f s)\n", "lsl", targets[j].name,
		       targets[j].lsl_entries / targets[j].lsl_secs, targets[j].lsl_entries, targets[j].lsl_secs);
	fflush(stdout);
}

static void add_target(const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct target *t = &targets[ntargets];

	if (!eq || eq == arg || ntargets == MAX_TARGETS) {
		fprintf(stderr, "fsmeta: want NAME=DIR (at most %d), not '%s'\n", MAX_TARGETS, arg);
		exit(2);
	}
	t->name = strndup(arg, (size_t)(eq - arg));
	t->base = eq + 1;
	snprintf(t->dir, sizeof(t->dir), "%s/fsmeta.%d", eq + 1, (int)getpid());
	if (mkdir(t->dir, 0755) < 0 || (t->dfd = open(t->dir, O_RDONLY | O_DIRECTORY)) < 0)
		die(t, "mkdir", ".");
	ntargets++;
}

/* What smallcopy left (the other phases clean up after themselves), then the directory. */
static void cleanup(struct target *t, long k)
{
	char n[16];

	for (long i = 0; i < k; i++) {
		name_of(n, sizeof(n), 's', i);
		if (unlinkat(t->dfd, n, 0) < 0)
			die(t, "unlink", n);
	}
	close(t->dfd);
	if (rmdir(t->dir) < 0)
		die(t, "rmdir", ".");
}

static void print_results(const char *prefix, long n, long k, long kib, int rd, int lsl, int all)
{
	for (int i = 0; i < ntargets; i++) {
		const struct target *t = &targets[i];
		double meta = 0;

		for (int p = 0; p < NPHASES; p++) {
			if (phases[p].small) {
				printf("%s%s.%s.files_s=%.1f\n", prefix, t->name, phases[p].key, k / t->secs[p]);
				printf("%s%s.%s.mib_s=%.2f\n", prefix, t->name, phases[p].key,
				       k * kib / 1024.0 / t->secs[p]);
			} else {
				printf("%s%s.%s.ops_s=%.1f\n", prefix, t->name, phases[p].key, n / t->secs[p]);
			}
		}
		for (int p = 0; p < NMETA; p++)
			meta += t->secs[p];
		if (all)
			printf("%s%s.meta.ops_s=%.1f\n", prefix, t->name, NMETA * n / meta);
		if (rd) {
			printf("%s%s.smallread.files_s=%.1f\n", prefix, t->name, k / t->read_secs);
			printf("%s%s.smallread.mib_s=%.2f\n", prefix, t->name, k * kib / 1024.0 / t->read_secs);
		}
		if (lsl) {
			printf("%s%s.lsl.entries_s=%.1f\n", prefix, t->name, t->lsl_entries / t->lsl_secs);
			printf("%s%s.lsl.entries=%ld\n", prefix, t->name, t->lsl_entries);
		}
	}
}

static void usage(void)
{
	fputs("usage: fsmeta [-n FILES] [-k SMALLFILES] [-s KIB] [-c CHUNK] [-p PREFIX] [-r] [-a]\n"
	      "              [-l SUBDIR [-L ENTRIES]] NAME=DIR...\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	long n = 200, k = 100, kib = 64, chunk = 20, lsl_expect = -1;
	const char *prefix = "", *lsl = NULL;
	int c, rd = 0, all = 0;

	while ((c = getopt(argc, argv, "n:k:s:c:p:ral:L:")) != -1) {
		switch (c) {
		case 'r': rd = 1; break;
		case 'a': all = 1; break;
		case 'l': lsl = optarg; break;
		case 'L': lsl_expect = atol(optarg); break;
		case 'n': n = atol(optarg); break;
		case 'k': k = atol(optarg); break;
		case 's': kib = atol(optarg); break;
		case 'c': chunk = atol(optarg); break;
		case 'p': prefix = optarg; break;
		default: usage();
		}
	}
	if (optind == argc || n < 1 || k < 1 || kib < 1 || chunk < 1 || n > 999999 || k > 999999)
		usage();
	small_len = (size_t)kib * 1024;
	if (!(small_buf = malloc(small_len))) {
		perror("fsmeta: malloc");
		return 1;
	}
	memset(small_buf, 'x', small_len);
	for (int i = optind; i < argc; i++)
		add_target(argv[i]);

	for (int p = 0; p < NPHASES; p++)
		run_phase(p, phases[p].small ? k : n, chunk);
	if (rd)
		run_smallread(k, chunk);
	for (int i = 0; i < ntargets; i++)
		cleanup(&targets[i], k);
	if (lsl)
		run_lsl(lsl, lsl_expect);
	print_results(prefix, n, k, kib, rd, lsl != NULL, all);
	return 0;
}
