/*
 * libFuzzer target: the RPC call decoder and dispatch of every program,
 * version and procedure (NFS v2/v3, MOUNT v1/v2/v3, NLM v1/v3/v4) against
 * a scratch export, the way a worker thread runs a call (dispatch_request).
 *
 * Input layout:
 *   byte 0     how the call arrived:
 *                bit 0     TCP (else UDP)
 *                bit 1     from a privileged port (700, else 40000)
 *                bits 2-3  client: 0 127.0.0.1, 1 ::1, 2 192.0.2.99
 *                          (no export admits it), 3 ::ffff:127.0.0.1
 *   the rest   the call message (RFC 5531), after marker expansion
 *
 * Markers. File handles carry a MAC and name inodes of a directory tree
 * made fresh on every run, so a checked-in input cannot hold a valid
 * handle. Inputs hold markers instead, expanded before dispatch:
 *   00 00 00 08 FF 'F' 'Z' 'H' i x y z   (an XDR opaque<> of 8 bytes)
 *       -> the v3 handle of object i (see enum obj); x != 0 cuts or pads
 *          it to x % 65 bytes; z != 0 xors byte y with z
 *   FF 'F' 'Z' '2' i x y z + 24 bytes    (a fixed 32-byte NFSv2 handle)
 *       -> the v2 handle of object i, y/z as above (NLM v1/v3 carry it
 *          as a netobj: 00 00 00 20 and this marker)
 *   00 00 00 08 FF 'F' 'Z' 'P' i x y z   (an XDR string of 8 bytes)
 *       -> path i (see enum path); x != 0 cuts it to x bytes (prefixes of
 *          an export path); z != 0 appends "/", "/dir", "/.." or "/../ro"
 * Everything else in the message is the fuzzer's.
 *
 * Locks. NLM's state is the lock manager's (locks.c), not the tree's, and
 * it would carry over from one input to the next. Like the tree it is put
 * back after every NLM call: locks_reset() forgets every client, then the
 * fixture below is built again, so that one call can meet a conflict, a
 * waiter, a share reservation or a range of its own to split or merge.
 * The fixture's owners are caller "fuzz" at 127.0.0.1 with the owner
 * handles "fuzz-A" (svid 1) and "fuzz-B" (svid 2), and caller "fuzz6" at
 * ::1 with "fuzz-D" (svid 4), all on object O_FILE (see
 * build_lock_fixture); the seeds use them. The lock manager runs without
 * its waiter thread and without background tasks, so blocked requests
 * just wait and callbacks (GRANTED, _RES, SM_MON) are dropped: nothing
 * leaves the process.
 *
 * The transport is this file's: transport_reply, transport_drop and the
 * two connection functions the request object (src/req.c, linked as the
 * daemon links it) calls are defined here, so transport.o and tcpconn.o
 * are never linked in (tests/fuzz/smoke.sh checks with nm). Requests come
 * over no connection, with loopback, in the peer's family, as the address
 * they were sent to (pktinfo, as a UDP call has it). A request that is
 * not freed, freed twice or answered after it was freed is AddressSanitizer's
 * to report (libFuzzer checks every input for leaks). transport_reply
 * checks every reply: it answers the call's XID, at most one per call (and
 * none to a call dropped), decodes as an RPC reply and, when accepted,
 * with the procedure's own XDR results routine consuming exactly the
 * reply (an RPCSEC_GSS INIT's, rpc_gss_init_res, whatever the procedure);
 * a UDP reply fits in a datagram. After each call the worker's
 * identity goes back to root and the export tree is put back as it was
 * (same inodes where possible, so the handles stay valid); a change
 * outside the exports aborts.
 *
 * FUZZ_WRITE_SEEDS=DIR: write the seed corpus (valid calls for every
 * procedure) into DIR, run each once and print what it got, then exit. The
 * calls are encoded with the tests' raw RPC client library (tests/rpcraw.h)
 * and written with seeds.h.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "creds.h"
#include "rpc/dispatch.h"
#include "rpc/gss.h"
#include "exports/exports.h"
#include "fs/fh.h"
#include "fs/fsops.h"
#include "fs/icache.h"
#include "state/locks.h"
#include "state/nfs4_clients.h"
#include "log.h"
#include "proto/mountd.h"
#include "proto/nfs_program.h"
#include "proto/nlm.h"
#include "proto/nsm.h"
#include "rpc/recmark.h"
#include "rpc/tcpconn.h"
#include "rpc/transport.h"

#include "rpc/mount_prot.h"
#include "rpc/nfs3_prot.h"
#include "rpc/nfs_prot.h"
#include "rpc/nlm4_prot.h"
#include "rpc/nlm_prot.h"

#include "../rpcraw.h"
#include "fuzz_rpc.h"
#include "seeds.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FSID_RW 7
#define FSID_RO 8
#define MAX_MSG (RPC_MAX_RECORD + 64)
#define NLM_V4 4		/* nlm_prot.h names versions 1 and 3 only */

static const uint8_t fuzz_key[FH_KEY_LEN] = "usernfsd-fuzzrpc";

/*
 * Where our own complaints go: stderr as it was at start-up, which stays
 * open when -close_fd_mask=2 sends the daemon's log lines to /dev/null.
 */
static int errfd = 2;

void
die(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dprintf(errfd, "fuzz_rpc: %s\n", msg);
	abort();
}

/* ---- the scratch tree ---- */


struct node {
	const char *path;
	char type;		/* d(irectory), f(ile), l(ink), p (fifo) */
	mode_t mode;
	uid_t uid;
	const char *target;	/* symlinks */
	size_t size;		/* files: that many bytes of pattern() */
	/* what it was after the last restore */
	ino_t ino;
	struct timespec ctime;
};

static struct node tree[NOBJ] = {
	[O_ROOT] = { "export", 'd', 0755, 0, NULL, 0, 0, { 0, 0 } },
	[O_FILE] = { "export/file", 'f', 0644, 0, NULL, 5000, 0, { 0, 0 } },
	[O_EMPTY] = { "export/empty", 'f', 0666, 0, NULL, 0, 0, { 0, 0 } },
	[O_DIR] = { "export/dir", 'd', 0755, 0, NULL, 0, 0, { 0, 0 } },
	[O_SUB] = { "export/dir/sub", 'd', 0700, 1000, NULL, 0, 0, { 0, 0 } },
	[O_INNER] = { "export/dir/inner", 'f', 0600, 1000, NULL, 100, 0, { 0, 0 } },
	[O_LINK] = { "export/link", 'l', 0777, 0, "file", 0, 0, { 0, 0 } },
	[O_ESCAPE] = { "export/escape", 'l', 0777, 0, "../outside/canary", 0, 0, { 0, 0 } },
	[O_FIFO] = { "export/fifo", 'p', 0644, 0, NULL, 0, 0, { 0, 0 } },
	[O_RO_ROOT] = { "ro", 'd', 0755, 0, NULL, 0, 0, { 0, 0 } },
	[O_RO_FILE] = { "ro/rofile", 'f', 0644, 0, NULL, 50, 0, { 0, 0 } },
};

/* Paths MNT may be asked for (relative to the scratch directory; "" = itself). */
enum path { P_EXPORT, P_DIR, P_RO, P_LINK, P_OUTSIDE, P_SCRATCH, NPATH };
static const char *const mnt_paths[NPATH] = {
	"export", "export/dir", "ro", "export/link", "outside", "",
};

static char scratch[PATH_MAX];	/* the scratch directory */
static int scratchfd = -1;
static struct stat scratch_st, outside_st, canary_st, keep_st;

static uint8_t fh3[NOBJ][FH3_MAXLEN];
static size_t fh3_len[NOBJ];
static uint8_t fh2[NOBJ][FH2_LEN];
static char abs_path[NPATH][PATH_MAX];

static char
pattern(size_t i)
{
	return "abcdefghijklmnopqrstuvwxyz0123456789\n"[i % 37];
}

static int
same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

static void
rm_rf_at(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
		struct dirent *de;

		if (d == NULL) {
			if (fd >= 0)
				close(fd);
			return;
		}
		fchmod(fd, 0700);
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
				rm_rf_at(fd, de->d_name);
		closedir(d);
		unlinkat(dirfd, name, AT_REMOVEDIR);
	} else {
		unlinkat(dirfd, name, 0);
	}
}

static void
keep_name(size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "keep/%zu", i);
}

/* Contents, mode, owner and times as the manifest says (the inode stays). */
static void
set_attrs(const struct node *n)
{
	const struct timespec t[2] = { { 1600000000, 0 }, { 1600000000, 0 } };

	if (n->type == 'f') {
		int fd = openat(scratchfd, n->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		char buf[8192];

		if (fd < 0)
			die("cannot open %s: %s", n->path, strerror(errno));
		for (size_t i = 0; i < n->size && i < sizeof(buf); i++)
			buf[i] = pattern(i);
		if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, n->size, 0) != (ssize_t)n->size)
			die("cannot rewrite %s: %s", n->path, strerror(errno));
		close(fd);
	}
	if (n->type != 'l')
		fchmodat(scratchfd, n->path, n->mode, 0);
	if (geteuid() == 0)
		fchownat(scratchfd, n->path, n->uid, n->uid, AT_SYMLINK_NOFOLLOW);
	utimensat(scratchfd, n->path, t, AT_SYMLINK_NOFOLLOW);
}

static void
create_node(size_t i)
{
	const struct node *n = &tree[i];
	char keep[64];

	keep_name(i, keep, sizeof(keep));
	switch (n->type) {
	case 'd':
		if (mkdirat(scratchfd, n->path, n->mode) < 0)
			die("mkdir %s: %s", n->path, strerror(errno));
		return;
	case 'f':
		close(openat(scratchfd, n->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, n->mode));
		break;
	case 'l':
		symlinkat(n->target, scratchfd, n->path);
		break;
	case 'p':
		mkfifoat(scratchfd, n->path, n->mode);
		break;
	}
	/* A second name outside the exports: REMOVE cannot destroy the inode. */
	if (linkat(scratchfd, n->path, scratchfd, keep, 0) < 0)
		die("link %s: %s", n->path, strerror(errno));
}

static int
node_at(const char *path)
{
	for (int i = 0; i < NOBJ; i++)
		if (strcmp(tree[i].path, path) == 0)
			return i;
	return -1;
}

static int
node_with_ino(ino_t ino)
{
	for (int i = 0; i < NOBJ; i++)
		if (tree[i].ino == ino)
			return i;
	return -1;
}

/*
 * One pass over the manifest's directories: objects of the manifest found
 * under another name go home, anything else that is not in the manifest
 * goes away. Returns how many things it changed.
 */
static int
tidy_dirs(void)
{
	int changed = 0;

	for (int i = 0; i < NOBJ; i++) {
		struct dirent *de;
		DIR *d;
		int fd;

		if (tree[i].type != 'd')
			continue;
		fd = openat(scratchfd, tree[i].path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || (d = fdopendir(fd)) == NULL) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		while ((de = readdir(d)) != NULL) {
			char p[PATH_MAX];
			struct stat st, home;
			int owner, here;

			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			snprintf(p, sizeof(p), "%s/%s", tree[i].path, de->d_name);
			if (fstatat(scratchfd, p, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			owner = node_with_ino(st.st_ino);
			here = node_at(p);
			if (owner >= 0 && owner == here)
				continue;
			changed++;
			if (owner >= 0 &&
			    fstatat(scratchfd, tree[owner].path, &home, AT_SYMLINK_NOFOLLOW) == 0) {
				if (home.st_ino == st.st_ino) {
					unlinkat(scratchfd, p, 0);	/* an extra hard link */
					continue;
				}
				if (node_with_ino(home.st_ino) >= 0)
					continue;	/* its place is taken by another: later */
				rm_rf_at(scratchfd, tree[owner].path);
			}
			if (owner >= 0)
				renameat(scratchfd, p, scratchfd, tree[owner].path);
			else
				rm_rf_at(scratchfd, p);
		}
		closedir(d);
	}
	return changed;
}

static void refresh_handles(void);

static void
check_outside(void)
{
	struct stat st;

	if (fstat(scratchfd, &st) < 0 || !same_time(&st.st_ctim, &scratch_st.st_ctim) ||
	    fstatat(scratchfd, "outside", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    st.st_ino != outside_st.st_ino || !same_time(&st.st_ctim, &outside_st.st_ctim) ||
	    fstatat(scratchfd, "outside/canary", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    st.st_ino != canary_st.st_ino || !same_time(&st.st_ctim, &canary_st.st_ctim) ||
	    fstatat(scratchfd, "keep", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !same_time(&st.st_ctim, &keep_st.st_ctim))
		die("a call changed something outside the exports (in %s)", scratch);
}

/* Records what every object is now. Returns whether an inode changed. */
static int
snapshot(void)
{
	struct stat st;
	int moved = 0;

	for (int i = 0; i < NOBJ; i++) {
		if (fstatat(scratchfd, tree[i].path, &st, AT_SYMLINK_NOFOLLOW) < 0)
			die("%s is gone", tree[i].path);
		moved |= tree[i].ino != 0 && st.st_ino != tree[i].ino;
		tree[i].ino = st.st_ino;
		tree[i].ctime = st.st_ctim;
	}
	return moved;
}

/* Puts the tree back after a call; cheap when nothing changed. */
static void
restore_tree(void)
{
	static int refreshing;
	int dirty = 0;
	struct stat st;

	for (int i = 0; i < NOBJ && !dirty; i++)
		dirty = fstatat(scratchfd, tree[i].path, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    st.st_ino != tree[i].ino || !same_time(&st.st_ctim, &tree[i].ctime);
	if (!dirty) {
		check_outside();
		return;
	}
	for (int pass = 0; pass < 4 && tidy_dirs() > 0; pass++)
		;
	for (int i = 0; i < NOBJ; i++) {
		char keep[64];

		if (fstatat(scratchfd, tree[i].path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == tree[i].ino)
			continue;
		rm_rf_at(scratchfd, tree[i].path);
		keep_name((size_t)i, keep, sizeof(keep));
		if (tree[i].type == 'd' || linkat(scratchfd, keep, scratchfd, tree[i].path, 0) < 0) {
			if (tree[i].type != 'd')
				die("cannot restore %s: %s", tree[i].path, strerror(errno));
			create_node((size_t)i);
		}
	}
	for (int i = 0; i < NOBJ; i++) {
		if (fstatat(scratchfd, tree[i].path, &st, AT_SYMLINK_NOFOLLOW) < 0)
			die("%s is gone", tree[i].path);
		if (!same_time(&st.st_ctim, &tree[i].ctime) || st.st_ino != tree[i].ino)
			set_attrs(&tree[i]);
	}
	check_outside();
	/* Forget cached objects that were deleted (and close their descriptors). */
	icache_sweep();
	/* A directory had to be made anew: its handle (and its children's) changed. */
	if (snapshot() && !refreshing) {
		refreshing = 1;
		refresh_handles();
		refreshing = 0;
	}
}

/*
 * A crash ends the process without atexit handlers: scratch directories of
 * earlier runs whose process is gone are removed here.
 */
static void
remove_stale_scratch(const char *tmpdir)
{
	struct dirent *de;
	DIR *d = opendir(tmpdir);

	while (d && (de = readdir(d)) != NULL) {
		char path[PATH_MAX];
		long pid;

		if (sscanf(de->d_name, "usernfsd-fuzz-rpc.%ld.", &pid) != 1 || pid <= 0 ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, de->d_name);
		rm_rf_at(AT_FDCWD, path);
	}
	if (d)
		closedir(d);
}

static void
make_tree(void)
{
	const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd;

	remove_stale_scratch(tmpdir);
	snprintf(scratch, sizeof(scratch), "%s/usernfsd-fuzz-rpc.%ld.XXXXXX", tmpdir,
	    (long)getpid());
	if (mkdtemp(scratch) == NULL)
		die("mkdtemp: %s", strerror(errno));
	chmod(scratch, 0755);
	/* Paths relative to scratchfd: the fuzzer's own files are relative to the cwd. */
	scratchfd = open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (scratchfd < 0)
		die("%s: %s", scratch, strerror(errno));
	if (mkdirat(scratchfd, "keep", 0700) < 0 || mkdirat(scratchfd, "state", 0700) < 0 ||
	    mkdirat(scratchfd, "outside", 0755) < 0)
		die("mkdir: %s", strerror(errno));
	fd = openat(scratchfd, "outside/canary", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, "secret\n", 7) != 7)
		die("canary: %s", strerror(errno));
	close(fd);
	/* Written by init_server; made now, so the directory is complete. */
	close(openat(scratchfd, "exports", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
	for (size_t i = 0; i < NOBJ; i++) {
		create_node(i);
		set_attrs(&tree[i]);
	}
	snapshot();
	if (fstat(scratchfd, &scratch_st) < 0 ||
	    fstatat(scratchfd, "outside", &outside_st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    fstatat(scratchfd, "outside/canary", &canary_st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    fstatat(scratchfd, "keep", &keep_st, AT_SYMLINK_NOFOLLOW) < 0)
		die("fstatat: %s", strerror(errno));
	for (int i = 0; i < NPATH; i++)
		snprintf(abs_path[i], sizeof(abs_path[i]), "%s%s%s", scratch,
		    *mnt_paths[i] ? "/" : "", mnt_paths[i]);
}

static void
remove_tree(void)
{
	if (scratch[0] && getenv("FUZZ_KEEP_SCRATCH") == NULL)
		rm_rf_at(AT_FDCWD, scratch);
}

/* ---- the transport, as the daemon's would be seen by dispatch ---- */

static struct {
	unsigned replies;	/* to the call being dispatched */
	unsigned drops;		/* transport_drop: a TCP connection would close */
	int drop_proto;		/* over which transport it was */
	int capture;		/* the little client below wants the reply: */
	uint8_t *captured;
	size_t captured_len;
} cur;

static const struct rpc_program *nfs_prog;	/* every version, as built at start-up */

/* XDR routine for the results of whatever procedure answered. */
static const struct rpc_proc *
find_proc(uint32_t prog, uint32_t vers, uint32_t proc)
{
	const struct rpc_program *progs[] = { nfs_prog, &mount_program, &nlm_program };

	for (size_t i = 0; i < ARRAY_SIZE(progs); i++) {
		if (progs[i]->prog != prog)
			continue;
		for (unsigned v = 0; v < progs[i]->nversions; v++)
			if (progs[i]->versions[v].vers == vers && proc < progs[i]->versions[v].nprocs)
				return &progs[i]->versions[v].procs[proc];
	}
	return NULL;
}

static bool_t xdr_gss_init_res_skip(XDR *x, void *unused);

static const struct rpc_proc gss_init_proc = {
	"RPCSEC_GSS_INIT", XDRPROC(xdr_void), 0, XDRPROC(xdr_gss_init_res_skip), 0, NULL, 0,
};

/*
 * rpc_gss_init_res (RFC 2203 5.2.3.1), the result of an RPCSEC_GSS INIT or
 * CONTINUE_INIT whatever the procedure's own: read and forgotten.
 */
static bool_t
xdr_gss_init_res_skip(XDR *x, void *unused)
{
	static char skip[RG_TOKEN_MAX];
	u_int n, w;

	(void)unused;
	if (x->x_op != XDR_DECODE)
		return TRUE;
	return xdr_u_int(x, &n) && n <= RG_HANDLE_LEN && xdr_opaque(x, skip, n) &&
	    xdr_u_int(x, &w) && xdr_u_int(x, &w) && xdr_u_int(x, &w) &&
	    xdr_u_int(x, &n) && n <= RG_TOKEN_MAX && xdr_opaque(x, skip, n);
}

static void
check_reply(const struct rpc_req *req, const uint8_t *msg, size_t len)
{
	char credbuf[MAX_AUTH_BYTES], verfbuf[MAX_AUTH_BYTES];
	union { char bytes[1024]; long double align; } res;
	const struct rpc_proc *proc = NULL;
	struct rpc_msg call, reply;
	XDR x;

	if (len < 12 || memcmp(msg, req->buf, 4) != 0)
		die("reply does not carry the call's XID");
	if (req->proto == IPPROTO_UDP && len > 65507)
		die("UDP reply of %zu bytes does not fit in a datagram", len);
	memset(&call, 0, sizeof(call));
	call.rm_call.cb_cred.oa_base = credbuf;
	call.rm_call.cb_verf.oa_base = verfbuf;
	xdrmem_create(&x, (char *)req->buf, (u_int)req->len, XDR_DECODE);
	if (xdr_callmsg(&x, &call))
		proc = find_proc((uint32_t)call.rm_call.cb_prog, (uint32_t)call.rm_call.cb_vers,
		    (uint32_t)call.rm_call.cb_proc);
	xdr_destroy(&x);
	if (proc && call.rm_call.cb_cred.oa_flavor == RPCSEC_GSS_FLAVOR &&
	    gss_cred_creates(&call.rm_call.cb_cred))
		proc = &gss_init_proc;

	memset(&reply, 0, sizeof(reply));
	memset(&res, 0, sizeof(res));
	reply.acpted_rply.ar_verf.oa_base = verfbuf;
	reply.acpted_rply.ar_results.where = (caddr_t)&res;
	reply.acpted_rply.ar_results.proc = XDRPROC(xdr_void);
	if (proc && proc->xdr_res && proc->res_size <= sizeof(res))
		reply.acpted_rply.ar_results.proc = proc->xdr_res;
	xdrmem_create(&x, (char *)msg, (u_int)len, XDR_DECODE);
	if (!xdr_replymsg(&x, &reply))
		die("reply does not decode");
	if (reply.rm_direction != REPLY)
		die("reply is not a REPLY");
	if (reply.rm_reply.rp_stat == MSG_ACCEPTED && reply.acpted_rply.ar_stat == SUCCESS &&
	    proc && xdr_getpos(&x) != len)
		die("reply to %s has %zu bytes after its results", proc->name,
		    len - (size_t)xdr_getpos(&x));
	xdr_destroy(&x);
	if (reply.rm_reply.rp_stat == MSG_ACCEPTED && reply.acpted_rply.ar_stat == SUCCESS)
		xdr_free(reply.acpted_rply.ar_results.proc, (char *)&res);
}

void
transport_reply(struct rpc_req *req, uint8_t *msg, size_t len)
{
	if (++cur.replies > 1)
		die("more than one reply to one call");
	if (cur.drops)
		die("a reply to a call already dropped");
	if (req->proto == IPPROTO_TCP) {
		/* The record mark goes into the headroom, as the real transport does. */
		uint32_t mark = htonl(RM_LAST_FRAG | (uint32_t)len);

		memcpy(msg - REPLY_HEADROOM, &mark, 4);
	}
	check_reply(req, msg, len);
	if (cur.capture) {
		cur.captured = malloc(len);
		if (cur.captured == NULL)
			die("out of memory");
		memcpy(cur.captured, msg, len);
		cur.captured_len = len;
	}
}

/* As the real transport sends it: the hole's bytes from gap->data. */
int
transport_reply_gap(struct rpc_req *req, uint8_t *msg, size_t len, const struct reply_gap *gap)
{
	if (gap->off + gap->len > len)
		die("a reply's hole lies beyond its end");
	if (gap->pipe >= 0 || gap->data == NULL)
		die("READ data spliced for a reply with no TCP connection");
	memcpy(msg + gap->off, gap->data, gap->len);
	transport_reply(req, msg, len);
	return 0;
}

/*
 * A record that is no call at all: the real transport closes its TCP
 * connection. Here there is no connection, but it must not also be
 * answered, nor be dropped twice.
 */
void
transport_drop(struct rpc_req *req)
{
	cur.drop_proto = req->proto;	/* (a request already freed: ASan says so) */
	if (cur.replies)
		die("a call dropped after it was answered");
	if (++cur.drops > 1)
		die("a call dropped twice");
}

/* The request object calls these for a TCP request; ours come over none. */
void
conn_request_done(struct conn *c, size_t reserved)
{
	(void)c;
	(void)reserved;
	die("a request with a connection");
}

int
conn_local_fd(const struct conn *c)
{
	(void)c;
	die("a request with a connection");
	return -1;
}

/*
 * The back channel's (rpc/backchannel.c): with no connection under any
 * request, nothing is ever held, so none of these may be reached.
 */
int
conn_hold(struct conn *c)
{
	(void)c;
	die("a back channel held without a connection");
	return -1;
}

void
conn_release(struct conn *c)
{
	(void)c;
	die("a back channel released without a connection");
}

int
conn_is_open(struct conn *c)
{
	(void)c;
	die("a back channel asked about without a connection");
	return 0;
}

int
conn_seems_open(struct conn *c)
{
	(void)c;
	die("a back channel asked about without a connection");
	return 0;
}

int
conn_reply(struct conn *c, uint8_t *msg, const struct iovec *iov, int niov, int data_pipe)
{
	(void)c; (void)msg; (void)iov; (void)niov; (void)data_pipe;
	die("a call back without a connection");
	return -1;
}

void
conns_set_reply_taker(int (*fn)(struct conn *c, uint8_t *rec, size_t len))
{
	(void)fn;
}

/* ---- markers ---- */

static const uint8_t mark3[8] = { 0, 0, 0, 8, 0xff, 'F', 'Z', 0 };	/* + 'H' or 'P' */
static const uint8_t mark2[4] = { 0xff, 'F', 'Z', '2' };

static size_t
emit_opaque(uint8_t *out, const void *p, size_t n)
{
	uint32_t be = htonl((uint32_t)n);

	memcpy(out, &be, 4);
	memcpy(out + 4, p, n);
	memset(out + 4 + n, 0, (4 - n % 4) % 4);
	return 4 + n + (4 - n % 4) % 4;
}

/* Expands the markers of in into out (MAX_MSG bytes); returns the length. */
static size_t
expand(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t i = 0, o = 0;

	while (i < n && o + 4200 < MAX_MSG) {
		const uint8_t *m = in + i;
		size_t used, wrote;

		if (n - i >= 12 && memcmp(m, mark3, 7) == 0 && (m[7] == 'H' || m[7] == 'P')) {
			uint8_t idx = m[8], x = m[9], y = m[10], z = m[11];

			if (m[7] == 'H') {
				uint8_t h[FH3_MAXLEN];
				size_t len = fh3_len[idx % NOBJ];

				memset(h, 0, sizeof(h));
				memcpy(h, fh3[idx % NOBJ], len);
				if (x)
					len = x % (FH3_MAXLEN + 1);
				if (z && len)
					h[y % len] ^= z;
				o += emit_opaque(out + o, h, len);
			} else {
				static const char *const tails[] = { "/", "/dir", "/..", "/../ro" };
				char p[PATH_MAX + 16];
				size_t len;

				snprintf(p, PATH_MAX, "%s", abs_path[idx % NPATH]);
				len = strlen(p);
				if (x && x < len)
					p[len = x] = '\0';
				if (z)
					len += (size_t)snprintf(p + len, 16, "%s", tails[z % 4]);
				o += emit_opaque(out + o, p, len);
			}
			i += 12;
		} else if ((used = n4fx_expand(m, n - i, out + o, &wrote)) != 0) {
			i += used;
			o += wrote;
		} else if (n - i >= FH2_LEN && memcmp(m, mark2, 4) == 0) {
			uint8_t y = m[6], z = m[7];

			memcpy(out + o, fh2[m[4] % NOBJ], FH2_LEN);
			if (z)
				out[o + y % FH2_LEN] ^= z;
			o += FH2_LEN;
			i += FH2_LEN;
		} else {
			out[o++] = in[i++];
		}
	}
	return o;
}

/* ---- running one call ---- */

static struct worker *worker;
static uint8_t *msgbuf;
/*
 * An NLM call ran since the lock fixture was built: it may have changed
 * the lock table. (Not "the last call was NLM": restore_tree may have run
 * calls of its own since.)
 */
static int locks_touched;
static int v4_touched;		/* an NFSv4 call ran: fuzz_rpc_nfs4.c's fixture again */

static void
set_peer(struct rpc_req *req, uint8_t how)
{
	uint16_t port = htons(how & 2 ? 700 : 40000);
	struct sockaddr_in *sin = (struct sockaddr_in *)&req->peer;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&req->peer;

	switch ((how >> 2) & 3) {
	case 0:
	case 2:
		sin->sin_family = AF_INET;
		sin->sin_port = port;
		inet_pton(AF_INET, (how >> 2 & 3) == 0 ? "127.0.0.1" : "192.0.2.99", &sin->sin_addr);
		req->peerlen = sizeof(*sin);
		/* NLM asks which of our addresses was called (its callbacks go nowhere) */
		req->pktinfo_family = AF_INET;
		req->pktinfo.v4.ipi_addr.s_addr = htonl(INADDR_LOOPBACK);
		break;
	default:
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = port;
		inet_pton(AF_INET6, (how >> 2 & 3) == 1 ? "::1" : "::ffff:127.0.0.1",
		    &sin6->sin6_addr);
		req->peerlen = sizeof(*sin6);
		/* a v4-mapped peer came to a v6 socket on ::ffff:127.0.0.1 */
		req->pktinfo_family = AF_INET6;
		req->pktinfo.v6.ipi6_addr = sin6->sin6_addr;
		if (!IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr))
			req->pktinfo.v6.ipi6_addr = in6addr_loopback;
		break;
	}
}

/* Runs one input (flags byte + message with markers). */
static void
run_input(const uint8_t *data, size_t size, int capture)
{
	struct rpc_req *req;
	struct rpc_call c;
	uint8_t *buf;
	uint32_t prog = 0, vers;
	size_t len;

	if (size < 1)
		return;
	len = expand(data + 1, size - 1, msgbuf);
	/* An exact-size copy: ASan sees any read past the end of the call. */
	buf = malloc(len ? len : 1);
	req = buf ? req_new(buf, len) : NULL;
	if (req == NULL)
		die("out of memory");
	memcpy(buf, msgbuf, len);
	req->proto = data[0] & 1 ? IPPROTO_TCP : IPPROTO_UDP;
	req->udp_fd = -1;
	req->local_port = 2049;
	set_peer(req, data[0]);
	if (req_call_word(req, 3, &prog) && prog == NLM_PROG)
		locks_touched = 1;
	if (prog == NFS_PROGRAM && req_call_word(req, 4, &vers) && vers == 4)
		v4_touched = 1;

	memset(&cur, 0, sizeof(cur));
	cur.capture = capture;
	dispatch_request(worker, req);	/* frees req */

	/* The worker goes back to the daemon's own identity. */
	memset(&c, 0, sizeof(c));
	c.w = worker;
	if (creds_root(call_creds(&c)) < 0)
		die("cannot switch back to root");
	/* The NFSv4 state is put back at once: the seed writer's calls meet it too. */
	if (v4_touched) {
		n4fx_build();
		v4_touched = 0;
	}
}

/* ---- a little client, for start-up and for writing seeds ----
 * Messages are encoded with tests/rpcraw.h's encoder. */


static void
begin_xid(struct msg *m, uint32_t xid, uint32_t prog, uint32_t vers, uint32_t proc,
    int auth_sys)
{
	static const gid_t gids[2] = { 0, 1000 };
	struct rr_cred cred;

	rr_auth_sys(&cred, "fuzz", 0, 0, 2, gids);
	m->prog = prog;
	m->vers = vers;
	m->proc = proc;
	m->buf[0] = 0x03;	/* TCP, privileged port, 127.0.0.1 */
	rr_enc_init(&m->e, m->buf + 1, sizeof(m->buf) - 1);
	rr_enc_callhdr(&m->e, xid, prog, vers, proc, auth_sys ? &cred.auth : NULL);
}

void
begin(struct msg *m, uint32_t prog, uint32_t vers, uint32_t proc, int auth_sys)
{
	static uint32_t xid = 0x46555a00;	/* "FUZ" */

	begin_xid(m, ++xid, prog, vers, proc, auth_sys);
}

size_t
msg_len(struct msg *m)
{
	return 1 + m->e.len;
}

/* A v3 handle marker for object i: cut to len (0 = as is), byte pos ^= xor. */
static void
fh3x(struct msg *m, enum obj i, uint8_t len, uint8_t pos, uint8_t xor)
{
	const uint8_t mk[8] = { 0xff, 'F', 'Z', 'H', (uint8_t)i, len, pos, xor };

	rr_enc_opaque(&m->e, mk, 8);
}

void
fh3m(struct msg *m, enum obj i)
{
	fh3x(m, i, 0, 0, 0);
}

static void
fh2m(struct msg *m, enum obj i)
{
	uint8_t mk[FH2_LEN] = { 0xff, 'F', 'Z', '2', (uint8_t)i };

	rr_enc_fixed(&m->e, mk, sizeof(mk));
}

static void
pathm(struct msg *m, enum path p)
{
	const uint8_t mk[8] = { 0xff, 'F', 'Z', 'P', (uint8_t)p, 0, 0, 0 };

	rr_enc_opaque(&m->e, mk, 8);
}

/* sattr3 setting mode only (or nothing with mode ~0). */
static void
put_sattr3(struct msg *m, uint32_t mode)
{
	if (mode != ~0u) {
		rr_enc_u32(&m->e, 1);
		rr_enc_u32(&m->e, mode);
	} else {
		rr_enc_u32(&m->e, 0);
	}
	rr_enc_u32(&m->e, 0);	/* uid */
	rr_enc_u32(&m->e, 0);	/* gid */
	rr_enc_u32(&m->e, 0);	/* size */
	rr_enc_u32(&m->e, DONT_CHANGE);
	rr_enc_u32(&m->e, DONT_CHANGE);
}

/* NFSv2 sattr: -1 means "do not set". */
static void
put_sattr2(struct msg *m, uint32_t mode, uint32_t size)
{
	rr_enc_u32(&m->e, mode);
	rr_enc_u32(&m->e, ~0u);
	rr_enc_u32(&m->e, ~0u);
	rr_enc_u32(&m->e, size);
	for (int i = 0; i < 4; i++)
		rr_enc_u32(&m->e, ~0u);
}

/* Status word and handle, the start of both mountres3 and LOOKUP3res. */
struct status_fh {
	uint32_t status;
	char *fh;
	u_int len;
};

static bool_t
xdr_status_fh(XDR *x, struct status_fh *r)
{
	if (!xdr_u_int(x, &r->status))
		return FALSE;
	return r->status != 0 || xdr_bytes(x, &r->fh, &r->len, FH3_MAXLEN);
}

/* Cookie and status: the start of every NLM result there is. */
static bool_t
xdr_cookie_stat(XDR *x, struct status_fh *r)
{
	char *cookie = NULL;
	u_int len = 0;
	bool_t ok = xdr_bytes(x, &cookie, &len, LK_OH_MAX) && xdr_u_int(x, &r->status);

	free(cookie);
	return ok;
}

/*
 * Runs m; returns the accept status (or 100 + reject status, or -1 when
 * nothing came back) and, when accepted, the first word of the results.
 */
static int
call(struct msg *m, uint32_t *status, uint8_t *fh, size_t *fhlen)
{
	char verf[MAX_AUTH_BYTES];
	struct status_fh sf;
	struct rpc_msg reply;
	uint8_t *captured;
	size_t captured_len;
	int rc;
	XDR x;

	run_input(m->buf, msg_len(m), 1);
	captured = cur.captured;
	captured_len = cur.captured_len;
	cur.captured = NULL;
	restore_tree();
	if (captured == NULL)
		return -1;
	memset(&reply, 0, sizeof(reply));
	memset(&sf, 0, sizeof(sf));
	reply.acpted_rply.ar_verf.oa_base = verf;
	reply.acpted_rply.ar_results.where = (caddr_t)&sf;
	reply.acpted_rply.ar_results.proc = m->prog == NLM_PROG ? XDRPROC(xdr_cookie_stat) :
	    XDRPROC(xdr_status_fh);
	xdrmem_create(&x, (char *)captured, (u_int)captured_len, XDR_DECODE);
	if (!xdr_replymsg(&x, &reply)) {
		/* Results that are not status + handle: the status alone will do. */
		reply.acpted_rply.ar_results.proc = XDRPROC(xdr_u_int);
		xdr_setpos(&x, 0);
		xdr_replymsg(&x, &reply);
		sf.fh = NULL;
	}
	xdr_destroy(&x);
	if (reply.rm_reply.rp_stat != MSG_ACCEPTED) {
		rc = 100 + (int)reply.rjcted_rply.rj_stat;
	} else {
		rc = (int)reply.acpted_rply.ar_stat;
		if (status)
			*status = sf.status;
		if (fh && fhlen && rc == SUCCESS && sf.status == 0 && sf.fh) {
			memcpy(fh, sf.fh, sf.len);
			*fhlen = sf.len;
		}
	}
	free(sf.fh);
	free(captured);
	return rc;
}

/* The v3 handle of tree[i], by MNT (roots) or LOOKUP of each component. */
static void
get_handle(enum obj i)
{
	const char *path = tree[i].path, *slash = strchr(path, '/');
	enum obj parent = O_ROOT;
	uint32_t status = ~0u;
	struct msg m;

	if (slash == NULL) {
		begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_MNT, 1);
		pathm(&m, i == O_ROOT ? P_EXPORT : P_RO);
	} else {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(path, '/') - path), path);
		parent = (enum obj)node_at(dir);
		begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_LOOKUP, 1);
		fh3m(&m, parent);
		rr_enc_string(&m.e, strrchr(path, '/') + 1);
	}
	if (call(&m, &status, fh3[i], &fh3_len[i]) != SUCCESS || status != 0)
		die("cannot get a handle for %s (status %u)", path, status);
}

static void
refresh_handles(void)
{
	struct fh f;

	for (int i = 0; i < NOBJ; i++)
		get_handle((enum obj)i);
	for (int i = 0; i < NOBJ; i++) {
		memset(fh2[i], 0, FH2_LEN);
		if (fh_decode(fh3[i], fh3_len[i], &f) == FH_OK)
			fh_encode_v2(&f, fh2[i]);
	}
}

/* ---- NLM arguments, and the lock fixture ---- */

/* A lock owner: NLM's (caller_name, owner handle, svid) and where it calls from. */
struct owner {
	const char *caller, *oh;
	int32_t svid;
	uint8_t how;		/* the input's byte 0 */
};

/* The fixture's owners A, B (at 127.0.0.1) and D (at ::1); C is the seeds' own. */
static const struct owner own_a = { "fuzz", "fuzz-A", 1, 0x03 };
static const struct owner own_b = { "fuzz", "fuzz-B", 2, 0x03 };
static const struct owner own_c = { "fuzz", "fuzz-C", 3, 0x03 };
static const struct owner own_d = { "fuzz6", "fuzz-D", 4, 0x07 };	/* TCP, 700, ::1 */

#define GIB4 0x100000000ull	/* beyond what a version 1 or 3 offset can say */

static void
put_cookie(struct msg *m)
{
	rr_enc_string(&m->e, "fuzz-cookie");
}

/* NLM's fh: v4's is the v3 handle, v1's and v3's the 32-byte v2 handle. */
static void
put_nlm_fh(struct msg *m, uint32_t vers, enum obj i)
{
	if (vers == NLM_V4) {
		fh3m(m, i);
	} else {
		rr_enc_u32(&m->e, FH2_LEN);	/* a netobj holding the v2 handle marker */
		fh2m(m, i);
	}
}

/* nlm_lock / nlm4_lock: offsets and lengths have 32 bits before version 4. */
static void
put_nlm_lock(struct msg *m, uint32_t vers, enum obj i, const struct owner *o, uint64_t off,
    uint64_t len)
{
	rr_enc_string(&m->e, o->caller);
	put_nlm_fh(m, vers, i);
	rr_enc_string(&m->e, o->oh);
	rr_enc_u32(&m->e, (uint32_t)o->svid);
	if (vers == NLM_V4) {
		rr_enc_u64(&m->e, off);
		rr_enc_u64(&m->e, len);
	} else {
		rr_enc_u32(&m->e, (uint32_t)off);
		rr_enc_u32(&m->e, (uint32_t)len);
	}
}

static void
put_nlm_lockargs(struct msg *m, uint32_t vers, int block, int excl, enum obj i,
    const struct owner *o, uint64_t off, uint64_t len)
{
	put_cookie(m);
	rr_enc_u32(&m->e, (uint32_t)block);
	rr_enc_u32(&m->e, (uint32_t)excl);
	put_nlm_lock(m, vers, i, o, off, len);
	rr_enc_u32(&m->e, 0);		/* reclaim */
	rr_enc_u32(&m->e, 3);		/* the client's NSM state */
}

/* nlm_share / nlm4_share with its cookie and reclaim flag. */
static void
put_nlm_shareargs(struct msg *m, uint32_t vers, enum obj i, const struct owner *o, uint32_t mode,
    uint32_t access)
{
	put_cookie(m);
	rr_enc_string(&m->e, o->caller);
	put_nlm_fh(m, vers, i);
	rr_enc_string(&m->e, o->oh);
	rr_enc_u32(&m->e, mode);
	rr_enc_u32(&m->e, access);
	rr_enc_u32(&m->e, 0);		/* reclaim */
}

/*
 * Fixture calls have XIDs of their own: the duplicate request cache would
 * answer a LOCK it has seen without taking the lock, and the seeds' XIDs
 * stay what they were before NLM was fuzzed.
 */
static uint32_t fixture_xid = 0x4c4b0000;	/* "LK" */

static void
fixture_call(struct msg *m, uint32_t want, const char *what)
{
	uint32_t st = ~0u;
	int rc = call(m, &st, NULL, NULL);

	if (rc != SUCCESS || st != want)
		die("lock fixture: %s: accept status %d, NLM status %u, not %u", what, rc, st,
		    want);
}

static void
fixture_lock(const struct owner *o, int block, int excl, uint64_t off, uint64_t len,
    uint32_t want, const char *what)
{
	struct msg m;

	begin_xid(&m, ++fixture_xid, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, block, excl, O_FILE, o, off, len);
	m.buf[0] = o->how;
	fixture_call(&m, want, what);
}

/*
 * The lock table every NLM call meets, on O_FILE: A holds 0-99 exclusive,
 * 200-299 shared and 4 KiB from 4 GiB exclusive (beyond v1/v3 offsets),
 * and a share reservation (reads, denying writes); B holds 250-349 shared
 * and from 4 GiB + 8 KiB to the end of the file shared, and waits for 0-99
 * exclusive; D, at another address (and family), holds 200-209 shared.
 */
static void
build_lock_fixture(void)
{
	static const struct lk_stats empty;
	static struct lk_stats first;
	struct lk_stats st;
	struct msg m;

	/* The counts catch a lock table whose bookkeeping went wrong. */
	locks_reset();
	locks_get_stats(&st);
	if (memcmp(&st, &empty, sizeof(st)) != 0)
		die("after locks_reset: %u hosts, %u files, %u ranges, %u waiters, %u grants, "
		    "%u shares", st.hosts, st.files, st.ranges, st.waiters, st.grants, st.shares);
	fixture_lock(&own_a, 0, 1, 0, 100, NLM4_GRANTED, "A: exclusive 0-99");
	fixture_lock(&own_a, 0, 0, 200, 100, NLM4_GRANTED, "A: shared 200-299");
	fixture_lock(&own_a, 0, 1, GIB4, 4096, NLM4_GRANTED, "A: exclusive at 4 GiB");
	fixture_lock(&own_b, 0, 0, 250, 100, NLM4_GRANTED, "B: shared 250-349");
	fixture_lock(&own_b, 0, 0, GIB4 + 8192, 0, NLM4_GRANTED, "B: shared from 4 GiB + 8 KiB on");
	fixture_lock(&own_b, 1, 1, 0, 100, NLM4_BLOCKED, "B: waits for 0-99");
	fixture_lock(&own_d, 0, 0, 200, 10, NLM4_GRANTED, "D: shared 200-209");
	begin_xid(&m, ++fixture_xid, NLM_PROG, NLM_V4, NLM_SHARE, 1);
	put_nlm_shareargs(&m, NLM_V4, O_FILE, &own_a, FSM4_DW, FSA4_R);
	fixture_call(&m, NLM4_GRANTED, "A: share, deny write");
	locks_touched = 0;
	locks_get_stats(&st);
	if (first.hosts == 0)
		first = st;
	else if (memcmp(&st, &first, sizeof(st)) != 0)
		die("the lock fixture came out different: %u hosts, %u files, %u ranges, "
		    "%u waiters, %u shares", st.hosts, st.files, st.ranges, st.waiters, st.shares);
}

/* After a call, as restore_tree for the tree: NLM calls may change the lock table. */
static void
put_back_locks(void)
{
	if (locks_touched)
		build_lock_fixture();
}

/* ---- seeds ---- */

static const char *seed_dir;
static unsigned nseeds;

/* Writes m as seed NAME and runs it; prints what came back. */
void
seed(struct msg *m, const char *name)
{
	const struct rpc_proc *proc;
	uint32_t status = ~0u;
	int rc;

	fuzz_save_seed(seed_dir, name, NULL, 0, m->buf, msg_len(m));
	nseeds++;
	rc = call(m, &status, NULL, NULL);
	proc = find_proc(m->prog, m->vers, m->proc);
	printf("%-28s %4zu bytes  ", name, msg_len(m));
	if (rc < 0)
		printf("no reply");
	else if (rc >= 100)
		printf("denied (reject_stat %d)", rc - 100);
	else if (rc != SUCCESS)
		printf("accept_stat %d", rc);
	else if (m->proc == 0 || (proc && proc->res_size == 0))
		printf("ok");
	else if (m->prog == NLM_PROG)
		printf("ok, NLM status %u", status);
	else
		printf("ok, results begin with %u", status);
	if (m->prog == NLM_PROG) {
		struct lk_stats st;

		/* What the call did to the fixture (hosts, files, ranges, waiters, shares). */
		locks_get_stats(&st);
		printf(" [locks %u/%u/%u/%u/%u]", st.hosts, st.files, st.ranges, st.waiters,
		    st.shares);
	}
	printf("\n");
	/* As between fuzz inputs: the next seed meets the fixture, not this one's locks. */
	put_back_locks();
}

/* The arguments of NLM procedure proc of version vers, a valid call against the fixture. */
static void
put_nlm_args(struct msg *m, uint32_t vers, uint32_t proc)
{
	static const uint8_t priv[16] = "statd's private";
	int v4 = vers == NLM_V4;

	switch (proc) {
	case NLM_TEST:
	case NLM_TEST_MSG:
	case NLM_GRANTED:
	case NLM_GRANTED_MSG:
		/* C asks about A's exclusive range (GRANTED: as if we were a client). */
		put_cookie(m);
		rr_enc_u32(&m->e, 1);		/* exclusive */
		put_nlm_lock(m, vers, O_FILE, &own_c, 50, 10);
		break;
	case NLM_LOCK:
	case NLM_LOCK_MSG:
	case NLM_NM_LOCK:
		put_nlm_lockargs(m, vers, 0, 1, O_FILE, &own_c, 1000, 100);
		break;
	case NLM_CANCEL:
	case NLM_CANCEL_MSG:
		/* B gives up waiting for 0-99. */
		put_cookie(m);
		rr_enc_u32(&m->e, 1);		/* block */
		rr_enc_u32(&m->e, 1);		/* exclusive */
		put_nlm_lock(m, vers, O_FILE, &own_b, 0, 100);
		break;
	case NLM_UNLOCK:
	case NLM_UNLOCK_MSG:
		/* A unlocks the middle of 0-99: two ranges are left. */
		put_cookie(m);
		put_nlm_lock(m, vers, O_FILE, &own_a, 40, 20);
		break;
	case NLM_TEST_RES:
		/* What a client's lock manager answers to a TEST_MSG: denied, and by whom. */
		put_cookie(m);
		rr_enc_u32(&m->e, 1);		/* denied */
		rr_enc_u32(&m->e, 1);		/* exclusive */
		rr_enc_u32(&m->e, (uint32_t)own_a.svid);
		rr_enc_string(&m->e, own_a.oh);
		if (v4) {
			rr_enc_u64(&m->e, 0);
			rr_enc_u64(&m->e, 100);
		} else {
			rr_enc_u32(&m->e, 0);
			rr_enc_u32(&m->e, 100);
		}
		break;
	case NLM_LOCK_RES:
	case NLM_CANCEL_RES:
	case NLM_UNLOCK_RES:
		put_cookie(m);
		rr_enc_u32(&m->e, 0);		/* granted */
		break;
	case NLM_GRANTED_RES:
		/* An answer to a GRANTED_MSG we never sent: its 8-byte cookie is unknown. */
		rr_enc_string(&m->e, "grant-id");
		rr_enc_u32(&m->e, 0);
		break;
	case NLM_SHARE:
		/* C reads, denying nothing: A's reservation denies only writes. */
		put_nlm_shareargs(m, vers, O_FILE, &own_c, FSM4_DN, FSA4_R);
		break;
	case NLM_UNSHARE:
		put_nlm_shareargs(m, vers, O_FILE, &own_a, FSM4_DN, FSA4_NONE);
		break;
	case NLM_FREE_ALL:
		rr_enc_string(&m->e, "fuzz");	/* the fixture's caller restarted */
		rr_enc_u32(&m->e, 5);
		break;
	case NSM_CALLBACK_PROC:
		/* rpc.statd: 127.0.0.1 (every fixture owner's address) restarted. */
		rr_enc_string(&m->e, "127.0.0.1");
		rr_enc_u32(&m->e, 7);
		rr_enc_fixed(&m->e, priv, sizeof(priv));
		break;
	default:
		break;		/* NULL */
	}
}

/*
 * A call with an RPCSEC_GSS credential (rpc_gss_cred_vers_1_t) in place
 * of begin's: version, gss_proc, seq, service, handle; the verifier is a
 * GSS one (a MIC nobody made) for DATA and DESTROY, AUTH_NONE for
 * context creation, as RFC 2203 5.2.2 and 5.3.1 have them.
 */
static void
begin_gss(struct msg *m, uint32_t proc, uint32_t vers1, uint32_t gproc, uint32_t svc,
    const uint8_t *handle, uint32_t hlen)
{
	static const uint8_t mic[28] = { 0x04, 0x04, 0x05, 0xff };

	begin(m, NFS_PROGRAM, NFS_V3, proc, 0);
	m->e.len = 24;	/* after XID, CALL, RPC version, program, version, procedure */
	rr_enc_u32(&m->e, RPCSEC_GSS_FLAVOR);
	rr_enc_u32(&m->e, 20 + ((hlen + 3) & ~3u));
	rr_enc_u32(&m->e, vers1);
	rr_enc_u32(&m->e, gproc);
	rr_enc_u32(&m->e, 1);		/* seq_num */
	rr_enc_u32(&m->e, svc);
	rr_enc_opaque(&m->e, handle, hlen);
	if (gproc == RG_PROC_INIT || gproc == RG_PROC_CONTINUE_INIT) {
		rr_enc_u32(&m->e, AUTH_NONE);
		rr_enc_u32(&m->e, 0);
	} else {
		rr_enc_u32(&m->e, RPCSEC_GSS_FLAVOR);
		rr_enc_opaque(&m->e, mic, sizeof(mic));
	}
}

/*
 * RPCSEC_GSS without a KDC: context creation is refused by GSS (no
 * keytab), and no handle is known, so DATA and DESTROY meet CREDPROBLEM;
 * the seeds lead the fuzzer to the credential and the INIT result.
 */
static void
write_gss_seeds(void)
{
	static const uint8_t handle[16] = { 0xa5, 0x5a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
	static const uint8_t apreq[12] = { 0x60, 0x0a, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12 };
	struct msg m;

	begin_gss(&m, NFSPROC3_NULL, 1, RG_PROC_INIT, RG_SVC_NONE, NULL, 0);
	rr_enc_opaque(&m.e, apreq, sizeof(apreq));
	seed(&m, "gss-init");
	begin_gss(&m, NFSPROC3_NULL, 1, RG_PROC_CONTINUE_INIT, RG_SVC_NONE, handle, 16);
	rr_enc_opaque(&m.e, apreq, sizeof(apreq));
	seed(&m, "gss-continue-unknown");
	begin_gss(&m, NFSPROC3_GETATTR, 1, RG_PROC_INIT, RG_SVC_NONE, NULL, 0);
	rr_enc_opaque(&m.e, apreq, sizeof(apreq));
	seed(&m, "gss-init-not-null");
	begin_gss(&m, NFSPROC3_NULL, 1, RG_PROC_DATA, RG_SVC_INTEGRITY, handle, 16);
	rr_enc_u32(&m.e, 4);			/* databody_integ: seq, NULL's no arguments */
	rr_enc_u32(&m.e, 1);
	rr_enc_opaque(&m.e, handle, 16);	/* the checksum */
	seed(&m, "gss-data-integ-unknown");
	begin_gss(&m, NFSPROC3_NULL, 1, RG_PROC_DESTROY, RG_SVC_NONE, handle, 16);
	seed(&m, "gss-destroy-unknown");
	begin_gss(&m, NFSPROC3_NULL, 2, RG_PROC_INIT, RG_SVC_NONE, NULL, 0);
	seed(&m, "gss-bad-version");
}

/* One seed per procedure of each version, then calls a hostile client makes. */
static void
write_nlm_seeds(void)
{
	static const uint32_t procs1[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const uint32_t procs3[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23
	};
	static const uint32_t procs4[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 21, 22, 23
	};
	static const struct {
		uint32_t vers;
		const uint32_t *procs;
		size_t n;
	} versions[] = {
		{ NLM_VERS, procs1, ARRAY_SIZE(procs1) },
		{ NLM_VERSX, procs3, ARRAY_SIZE(procs3) },
		{ NLM_V4, procs4, ARRAY_SIZE(procs4) },
	};
	char big[LK_OH_MAX + 2], seedname[64];
	struct owner o;
	struct msg m;

	for (size_t v = 0; v < ARRAY_SIZE(versions); v++) {
		for (size_t i = 0; i < versions[v].n; i++) {
			uint32_t vers = versions[v].vers, proc = versions[v].procs[i];
			const struct rpc_proc *p = find_proc(NLM_PROG, vers, proc);
			size_t len;

			if (p == NULL || p->fn == NULL)
				die("NLM v%u has no procedure %u", vers, proc);
			/* nlm4-test-msg for TEST_MSG of version 4 */
			len = (size_t)snprintf(seedname, sizeof(seedname), "nlm%u-%s", vers, p->name);
			for (size_t c = 4; c < len; c++) {
				char ch = seedname[c];

				seedname[c] = ch == '_' ? '-' : (char)tolower((unsigned char)ch);
			}
			begin(&m, NLM_PROG, vers, proc, 1);
			put_nlm_args(&m, vers, proc);
			seed(&m, seedname);
		}
	}

	/* ---- the lock table's corners ---- */
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 1, 1, O_FILE, &own_c, 0, 10);
	seed(&m, "nlm4-lock-blocked");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 1, 1, O_FILE, &own_b, 0, 100);
	seed(&m, "nlm4-lock-blocked-again");	/* B asks again for what it waits for */
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &own_c, 200, 10);
	seed(&m, "nlm4-lock-denied");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &own_a, 220, 10);
	seed(&m, "nlm4-lock-upgrade-middle");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &own_a, 100, 50);
	seed(&m, "nlm4-lock-merge");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 0, O_FILE, &own_a, 0, 0);
	seed(&m, "nlm4-lock-downgrade-all");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 0, O_FILE, &own_c, GIB4 + 8192, 0);
	seed(&m, "nlm4-lock-to-eof");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 0, O_FILE, &own_c, 1ull << 63, 10);
	seed(&m, "nlm4-lock-fbig");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 0, O_FILE, &own_c, 10, ~0ull);
	seed(&m, "nlm4-lock-huge-len");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_EMPTY, &own_c, 0, 0);
	m.e.len -= 8;
	rr_enc_u32(&m.e, 1);		/* reclaim, out of any grace period */
	rr_enc_u32(&m.e, 3);
	seed(&m, "nlm4-lock-reclaim");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_RO_FILE, &own_c, 0, 0);
	seed(&m, "nlm4-lock-ro-export");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 0, O_DIR, &own_c, 0, 0);
	seed(&m, "nlm4-lock-dir");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FIFO, &own_c, 0, 0);
	seed(&m, "nlm4-lock-fifo");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_ESCAPE, &own_c, 0, 0);
	seed(&m, "nlm4-lock-symlink");
	begin(&m, NLM_PROG, NLM_V4, NLM_UNLOCK, 1);
	put_cookie(&m);
	put_nlm_lock(&m, NLM_V4, O_FILE, &own_b, 0, 0);
	seed(&m, "nlm4-unlock-all");
	begin(&m, NLM_PROG, NLM_V4, NLM_TEST, 1);
	put_cookie(&m);
	rr_enc_u32(&m.e, 1);
	put_nlm_lock(&m, NLM_V4, O_FILE, &own_a, 0, 200);	/* its own: no conflict */
	seed(&m, "nlm4-test-own");
	begin(&m, NLM_PROG, NLM_V4, NLM_TEST, 1);
	put_cookie(&m);
	rr_enc_u32(&m.e, 0);
	put_nlm_lock(&m, NLM_V4, O_FILE, &own_c, 300, 0);
	seed(&m, "nlm4-test-shared-denied");
	/* The holder is beyond 32 bits: a version 1 client is told "from here to the end". */
	begin(&m, NLM_PROG, NLM_VERS, NLM_TEST, 1);
	put_cookie(&m);
	rr_enc_u32(&m.e, 1);
	put_nlm_lock(&m, NLM_VERS, O_FILE, &own_c, 0xfffff000u, 0);
	seed(&m, "nlm1-test-holder-beyond-4g");
	begin(&m, NLM_PROG, NLM_V4, NLM_CANCEL, 1);
	put_cookie(&m);
	rr_enc_u32(&m.e, 1);
	rr_enc_u32(&m.e, 1);
	put_nlm_lock(&m, NLM_V4, O_FILE, &own_c, 0, 100);
	seed(&m, "nlm4-cancel-nothing");
	begin(&m, NLM_PROG, NLM_V4, NLM_SHARE, 1);
	put_nlm_shareargs(&m, NLM_V4, O_FILE, &own_c, FSM4_DN, FSA4_RW);
	seed(&m, "nlm4-share-denied");
	begin(&m, NLM_PROG, NLM_V4, NLM_SHARE, 1);
	put_nlm_shareargs(&m, NLM_V4, O_FILE, &own_a, FSM4_DRW, FSA4_RW);
	seed(&m, "nlm4-share-change-own");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK_MSG, 1);
	put_nlm_lockargs(&m, NLM_V4, 1, 1, O_FILE, &own_c, 0, 10);
	seed(&m, "nlm4-lock-msg-blocked");
	begin(&m, NLM_PROG, NLM_V4, NLM_FREE_ALL, 1);
	rr_enc_string(&m.e, "someone-else");
	rr_enc_u32(&m.e, 5);
	seed(&m, "nlm4-free-all-stranger");

	/* ---- the same calls from elsewhere ---- */
	begin(&m, NLM_PROG, NLM_V4, NLM_UNLOCK, 1);
	put_cookie(&m);
	put_nlm_lock(&m, NLM_V4, O_FILE, &own_d, 0, 0);
	m.buf[0] = own_d.how;
	seed(&m, "nlm4-unlock-ipv6");
	begin(&m, NLM_PROG, NLM_V4, NLM_FREE_ALL, 1);
	rr_enc_string(&m.e, own_d.caller);
	rr_enc_u32(&m.e, 5);
	m.buf[0] = own_d.how;
	seed(&m, "nlm4-free-all-ipv6");
	begin(&m, NLM_PROG, NLM_V4, NSM_CALLBACK_PROC, 1);
	rr_enc_string(&m.e, "::1");
	rr_enc_u32(&m.e, 9);
	rr_enc_fixed(&m.e, "0123456789abcdef", 16);
	m.buf[0] = own_d.how;	/* statd on ::1 */
	seed(&m, "nlm4-sm-notify-ipv6");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &own_c, 1000, 100);
	m.buf[0] = 0x07;	/* TCP, privileged port, ::1 (a secure entry) */
	seed(&m, "nlm4-lock-ipv6");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &own_a, 0, 100);
	m.buf[0] = 0x0c;	/* UDP, port 40000, ::ffff:127.0.0.1: A, by name, elsewhere */
	seed(&m, "nlm4-lock-v4mapped-udp");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &own_c, 1000, 100);
	m.buf[0] = 0x0b;	/* TCP, privileged port, 192.0.2.99: no export admits it */
	seed(&m, "bad-nlm4-lock-stranger");
	begin(&m, NLM_PROG, NLM_V4, NSM_CALLBACK_PROC, 1);
	put_nlm_args(&m, NLM_V4, NSM_CALLBACK_PROC);
	m.buf[0] = 0x01;	/* TCP from port 40000: not rpc.statd */
	seed(&m, "bad-nlm4-sm-notify-unprivileged");
	begin(&m, NLM_PROG, NLM_V4, NSM_CALLBACK_PROC, 1);
	rr_enc_string(&m.e, "fuzz");	/* not an address: we never ask statd to watch names */
	rr_enc_u32(&m.e, 7);
	rr_enc_fixed(&m.e, "0123456789abcdef", 16);
	seed(&m, "bad-nlm4-sm-notify-name");

	/* ---- sizes at XDR's limits (1024) and beyond ---- */
	/* big is 1024 x's, or 1025 with big[LK_OH_MAX] = 'x'. */
	memset(big, 'x', sizeof(big));
	big[LK_OH_MAX + 1] = '\0';
	big[LK_OH_MAX] = '\0';
	o = own_c;
	o.caller = big;		/* caller_name<1024> */
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &o, 1000, 100);
	seed(&m, "bad-nlm4-caller-1024");
	begin(&m, NLM_PROG, NLM_VERSX, NLM_SHARE, 1);
	put_nlm_shareargs(&m, NLM_VERSX, O_FILE, &o, FSM4_DN, FSA4_R);
	seed(&m, "bad-nlm3-share-caller-1024");
	big[LK_OH_MAX] = 'x';
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &o, 1000, 100);
	seed(&m, "bad-nlm4-caller-1025");
	begin(&m, NLM_PROG, NLM_VERS, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_VERS, 0, 1, O_FILE, &o, 1000, 100);
	seed(&m, "bad-nlm1-caller-1025");
	begin(&m, NLM_PROG, NLM_V4, NLM_FREE_ALL, 1);
	rr_enc_string(&m.e, big);		/* name<1025>: at the limit */
	rr_enc_u32(&m.e, 5);
	seed(&m, "bad-nlm4-free-all-name-1025");
	o = own_c;
	o.oh = big;		/* netobj: at most 1024 bytes */
	big[LK_OH_MAX] = '\0';
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 1, 1, O_FILE, &o, 0, 10);
	seed(&m, "bad-nlm4-oh-1024-blocked");
	begin(&m, NLM_PROG, NLM_V4, NLM_TEST_MSG, 1);
	rr_enc_string(&m.e, big);	/* cookie 1024: a 1024-byte cookie and holder in the _RES */
	rr_enc_u32(&m.e, 1);
	put_nlm_lock(&m, NLM_V4, O_FILE, &o, 50, 10);
	seed(&m, "bad-nlm4-test-msg-cookie-1024");
	begin(&m, NLM_PROG, NLM_VERS, NLM_UNLOCK, 1);
	rr_enc_string(&m.e, big);
	put_nlm_lock(&m, NLM_VERS, O_FILE, &o, 0, 0);
	seed(&m, "bad-nlm1-cookie-oh-1024");
	big[LK_OH_MAX] = 'x';
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &o, 1000, 100);
	seed(&m, "bad-nlm4-oh-1025");
	begin(&m, NLM_PROG, NLM_V4, NLM_TEST, 1);
	rr_enc_string(&m.e, big);
	rr_enc_u32(&m.e, 1);
	put_nlm_lock(&m, NLM_V4, O_FILE, &own_c, 50, 10);
	seed(&m, "bad-nlm4-cookie-1025");

	/* ---- handles ---- */
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_cookie(&m);
	rr_enc_u32(&m.e, 0);
	rr_enc_u32(&m.e, 1);
	rr_enc_string(&m.e, "fuzz");
	fh3x(&m, O_FILE, 0, 9, 0x40);	/* a forged handle: its MAC fails */
	rr_enc_string(&m.e, own_c.oh);
	rr_enc_u32(&m.e, (uint32_t)own_c.svid);
	rr_enc_u64(&m.e, 0);
	rr_enc_u64(&m.e, 0);
	rr_enc_u32(&m.e, 0);
	rr_enc_u32(&m.e, 3);
	seed(&m, "bad-nlm4-fh-forged");
	begin(&m, NLM_PROG, NLM_VERS, NLM_TEST, 1);
	put_cookie(&m);
	rr_enc_u32(&m.e, 1);
	rr_enc_string(&m.e, "fuzz");
	rr_enc_u32(&m.e, FH2_LEN);
	{
		uint8_t mk[FH2_LEN] = { 0xff, 'F', 'Z', '2', O_FILE, 0, 20, 0x01 };

		rr_enc_fixed(&m.e, mk, sizeof(mk));
	}
	rr_enc_string(&m.e, own_c.oh);
	rr_enc_u32(&m.e, (uint32_t)own_c.svid);
	rr_enc_u32(&m.e, 0);
	rr_enc_u32(&m.e, 0);
	seed(&m, "bad-nlm1-fh-forged");
	/* Version 1 with the v3 handle, version 4 with the v2 handle. */
	begin(&m, NLM_PROG, NLM_VERS, NLM_TEST, 1);
	put_cookie(&m);
	rr_enc_u32(&m.e, 1);
	put_nlm_lock(&m, NLM_V4, O_FILE, &own_c, 0, 0);	/* v4's fh: the v3 handle */
	m.e.len -= 16;
	rr_enc_u32(&m.e, 0);
	rr_enc_u32(&m.e, 0);
	seed(&m, "bad-nlm1-fh-v3");
	begin(&m, NLM_PROG, NLM_V4, NLM_TEST, 1);
	put_cookie(&m);
	rr_enc_u32(&m.e, 1);
	put_nlm_lock(&m, NLM_VERS, O_FILE, &own_c, 0, 0);	/* v1's fh: the v2 handle */
	rr_enc_u64(&m.e, 0);	/* v4's wider offsets: v1's two words and two more */
	seed(&m, "bad-nlm4-fh-v2");
	begin(&m, NLM_PROG, NLM_V4, NLM_UNLOCK, 0);	/* AUTH_NONE */
	put_nlm_args(&m, NLM_V4, NLM_UNLOCK);
	seed(&m, "bad-nlm4-auth-none");
	begin(&m, NLM_PROG, NLM_V4, 17, 1);
	seed(&m, "bad-nlm4-proc-unavail");
	begin(&m, NLM_PROG, 2, 0, 0);
	seed(&m, "bad-nlm-prog-mismatch");
	begin(&m, NLM_PROG, NLM_V4, NLM_LOCK, 1);
	put_nlm_lockargs(&m, NLM_V4, 0, 1, O_FILE, &own_c, 1000, 100);
	m.e.len -= 12;	/* cut inside the lock */
	seed(&m, "bad-nlm4-lock-truncated");
}

static void
write_seeds(void)
{
	static const uint8_t verf[8] = "fuzzverf", zero8[8] = { 0 }, cookie2[4] = { 0 };
	struct msg m;

	/* ---- MOUNT ---- */
	begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_NULL, 0);
	seed(&m, "mnt3-null");
	begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_MNT, 1);
	pathm(&m, P_EXPORT);
	seed(&m, "mnt3-mnt-export");
	begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_MNT, 1);
	pathm(&m, P_DIR);
	seed(&m, "mnt3-mnt-subdir");
	begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_MNT, 0);
	pathm(&m, P_OUTSIDE);
	seed(&m, "mnt3-mnt-outside");
	begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_DUMP, 0);
	seed(&m, "mnt3-dump");
	begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_UMNT, 1);
	pathm(&m, P_EXPORT);
	seed(&m, "mnt3-umnt");
	begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_UMNTALL, 1);
	seed(&m, "mnt3-umntall");
	begin(&m, MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_EXPORT, 0);
	seed(&m, "mnt3-export");
	begin(&m, MOUNT_PROGRAM, MOUNT_V1, MOUNTPROC_MNT, 1);
	pathm(&m, P_RO);
	seed(&m, "mnt1-mnt-ro");
	begin(&m, MOUNT_PROGRAM, MOUNT_V2, MOUNTPROC_PATHCONF, 1);
	pathm(&m, P_EXPORT);
	seed(&m, "mnt2-pathconf");

	/* ---- NFSv3, every procedure ---- */
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_NULL, 0);
	seed(&m, "nfs3-null");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_GETATTR, 1);
	fh3m(&m, O_ROOT);
	seed(&m, "nfs3-getattr");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_SETATTR, 1);
	fh3m(&m, O_FILE);
	rr_enc_u32(&m.e, 1); rr_enc_u32(&m.e, 0640);		/* mode */
	rr_enc_u32(&m.e, 1); rr_enc_u32(&m.e, 1000);		/* uid */
	rr_enc_u32(&m.e, 0);				/* gid */
	rr_enc_u32(&m.e, 1); rr_enc_u64(&m.e, 100);		/* size */
	rr_enc_u32(&m.e, SET_TO_SERVER_TIME);
	rr_enc_u32(&m.e, SET_TO_CLIENT_TIME); rr_enc_u32(&m.e, 1700000000); rr_enc_u32(&m.e, 5);
	rr_enc_u32(&m.e, 0);				/* no guard */
	seed(&m, "nfs3-setattr");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_LOOKUP, 1);
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "file");
	seed(&m, "nfs3-lookup");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_LOOKUP, 1);
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "..");
	seed(&m, "nfs3-lookup-dotdot-root");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_ACCESS, 1);
	fh3m(&m, O_DIR);
	rr_enc_u32(&m.e, 0x3f);
	seed(&m, "nfs3-access");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_READLINK, 1);
	fh3m(&m, O_ESCAPE);
	seed(&m, "nfs3-readlink");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_READ, 1);
	fh3m(&m, O_FILE);
	rr_enc_u64(&m.e, 10);
	rr_enc_u32(&m.e, 4096);
	seed(&m, "nfs3-read");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_WRITE, 1);
	fh3m(&m, O_FILE);
	rr_enc_u64(&m.e, 4);
	rr_enc_u32(&m.e, 11);
	rr_enc_u32(&m.e, FILE_SYNC);
	rr_enc_string(&m.e, "hello world");
	seed(&m, "nfs3-write");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_CREATE, 1);
	fh3m(&m, O_DIR);
	rr_enc_string(&m.e, "new");
	rr_enc_u32(&m.e, GUARDED);
	put_sattr3(&m, 0644);
	seed(&m, "nfs3-create");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_CREATE, 1);
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "excl");
	rr_enc_u32(&m.e, EXCLUSIVE);
	rr_enc_fixed(&m.e, verf, 8);
	seed(&m, "nfs3-create-exclusive");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_MKDIR, 1);
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "newdir");
	put_sattr3(&m, 0755);
	seed(&m, "nfs3-mkdir");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_SYMLINK, 1);
	fh3m(&m, O_DIR);
	rr_enc_string(&m.e, "sl");
	put_sattr3(&m, ~0u);
	rr_enc_string(&m.e, "../../outside/canary");
	seed(&m, "nfs3-symlink");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_MKNOD, 1);
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "chr");
	rr_enc_u32(&m.e, NF3CHR);
	put_sattr3(&m, 0600);
	rr_enc_u32(&m.e, 1); rr_enc_u32(&m.e, 3);			/* /dev/null's numbers */
	seed(&m, "nfs3-mknod-chr");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_MKNOD, 1);
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "pipe");
	rr_enc_u32(&m.e, NF3FIFO);
	put_sattr3(&m, 0600);
	seed(&m, "nfs3-mknod-fifo");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_REMOVE, 1);
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "file");
	seed(&m, "nfs3-remove");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_RMDIR, 1);
	fh3m(&m, O_DIR);
	rr_enc_string(&m.e, "sub");
	seed(&m, "nfs3-rmdir");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_RENAME, 1);
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "dir");
	fh3m(&m, O_ROOT);
	rr_enc_string(&m.e, "moved");
	seed(&m, "nfs3-rename");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_LINK, 1);
	fh3m(&m, O_FILE);
	fh3m(&m, O_DIR);
	rr_enc_string(&m.e, "hardlink");
	seed(&m, "nfs3-link");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_READDIR, 1);
	fh3m(&m, O_ROOT);
	rr_enc_u64(&m.e, 0);
	rr_enc_fixed(&m.e, zero8, 8);
	rr_enc_u32(&m.e, 4096);
	seed(&m, "nfs3-readdir");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_READDIRPLUS, 1);
	fh3m(&m, O_ROOT);
	rr_enc_u64(&m.e, 0);
	rr_enc_fixed(&m.e, zero8, 8);
	rr_enc_u32(&m.e, 1024);
	rr_enc_u32(&m.e, 8192);
	seed(&m, "nfs3-readdirplus");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_FSSTAT, 1);
	fh3m(&m, O_RO_ROOT);
	seed(&m, "nfs3-fsstat");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_FSINFO, 1);
	fh3m(&m, O_ROOT);
	seed(&m, "nfs3-fsinfo");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_PATHCONF, 1);
	fh3m(&m, O_ROOT);
	seed(&m, "nfs3-pathconf");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_COMMIT, 1);
	fh3m(&m, O_FILE);
	rr_enc_u64(&m.e, 0);
	rr_enc_u32(&m.e, 0);
	seed(&m, "nfs3-commit");

	/* ---- NFSv2 ---- */
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_GETATTR, 1);
	fh2m(&m, O_ROOT);
	seed(&m, "nfs2-getattr");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_SETATTR, 1);
	fh2m(&m, O_EMPTY);
	put_sattr2(&m, 0600, 3);
	seed(&m, "nfs2-setattr");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_LOOKUP, 1);
	fh2m(&m, O_DIR);
	rr_enc_string(&m.e, "inner");
	seed(&m, "nfs2-lookup");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_READLINK, 1);
	fh2m(&m, O_LINK);
	seed(&m, "nfs2-readlink");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_READ, 1);
	fh2m(&m, O_FILE);
	rr_enc_u32(&m.e, 0); rr_enc_u32(&m.e, 8192); rr_enc_u32(&m.e, 0);
	seed(&m, "nfs2-read");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_WRITE, 1);
	fh2m(&m, O_FILE);
	rr_enc_u32(&m.e, 0); rr_enc_u32(&m.e, 100); rr_enc_u32(&m.e, 0);
	rr_enc_string(&m.e, "v2 data");
	seed(&m, "nfs2-write");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_CREATE, 1);
	fh2m(&m, O_ROOT);
	rr_enc_string(&m.e, "new2");
	put_sattr2(&m, 0644, ~0u);
	seed(&m, "nfs2-create");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_REMOVE, 1);
	fh2m(&m, O_ROOT);
	rr_enc_string(&m.e, "empty");
	seed(&m, "nfs2-remove");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_RENAME, 1);
	fh2m(&m, O_ROOT);
	rr_enc_string(&m.e, "file");
	fh2m(&m, O_DIR);
	rr_enc_string(&m.e, "renamed");
	seed(&m, "nfs2-rename");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_LINK, 1);
	fh2m(&m, O_FILE);
	fh2m(&m, O_ROOT);
	rr_enc_string(&m.e, "link2");
	seed(&m, "nfs2-link");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_SYMLINK, 1);
	fh2m(&m, O_ROOT);
	rr_enc_string(&m.e, "sym2");
	rr_enc_string(&m.e, "/etc/passwd");
	put_sattr2(&m, ~0u, ~0u);
	seed(&m, "nfs2-symlink");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_MKDIR, 1);
	fh2m(&m, O_DIR);
	rr_enc_string(&m.e, "dir2");
	put_sattr2(&m, 0755, ~0u);
	seed(&m, "nfs2-mkdir");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_RMDIR, 1);
	fh2m(&m, O_DIR);
	rr_enc_string(&m.e, "sub");
	seed(&m, "nfs2-rmdir");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_READDIR, 1);
	fh2m(&m, O_ROOT);
	rr_enc_fixed(&m.e, cookie2, 4);
	rr_enc_u32(&m.e, 2048);
	seed(&m, "nfs2-readdir");
	begin(&m, NFS_PROGRAM, NFS_VERSION, NFSPROC_STATFS, 1);
	fh2m(&m, O_RO_ROOT);
	seed(&m, "nfs2-statfs");

	/* ---- what a hostile or broken client sends ---- */
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_GETATTR, 1);
	fh3x(&m, O_FILE, 0, 9, 0x40);
	seed(&m, "bad-fh-flipped");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_GETATTR, 1);
	fh3x(&m, O_FILE, 12, 0, 0);
	seed(&m, "bad-fh-short");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_LOOKUP, 1);
	fh3m(&m, O_DIR);
	rr_enc_string(&m.e, "../../outside");
	seed(&m, "bad-lookup-slash");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_GETATTR, 0);
	fh3m(&m, O_ROOT);
	seed(&m, "bad-auth-none");
	/* AUTH_SYS claiming 17 groups (the limit is 16), in place of AUTH_NONE */
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_GETATTR, 0);
	m.e.len = 24;	/* after XID, CALL, RPC version, program, version, procedure */
	rr_enc_u32(&m.e, AUTH_SYS);
	rr_enc_u32(&m.e, 4 + 8 + 4 + 4 + 4 + 17 * 4);	/* the body's length */
	rr_enc_u32(&m.e, 0);				/* stamp */
	rr_enc_string(&m.e, "fuzz");			/* machine name */
	rr_enc_u32(&m.e, 0);				/* uid */
	rr_enc_u32(&m.e, 0);				/* gid */
	rr_enc_u32(&m.e, 17);
	for (uint32_t i = 0; i < 17; i++)
		rr_enc_u32(&m.e, i);
	rr_enc_u32(&m.e, AUTH_NONE);			/* verifier */
	rr_enc_u32(&m.e, 0);
	fh3m(&m, O_ROOT);
	seed(&m, "bad-auth-17-groups");
	/* RPC version 3 */
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_NULL, 0);
	rr_put32(m.e.buf + 8, 3);
	seed(&m, "bad-rpc-version");
	begin(&m, NFS_PROGRAM, 4, 0, 0);
	seed(&m, "bad-prog-mismatch");
	begin(&m, 100000, 2, 0, 0);
	seed(&m, "bad-prog-unavail");
	begin(&m, NFS_PROGRAM, NFS_V3, 22, 1);
	seed(&m, "bad-proc-unavail");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_READ, 1);
	fh3m(&m, O_FILE);
	seed(&m, "bad-garbage-args");
	begin(&m, NFS_PROGRAM, NFS_V3, NFSPROC3_WRITE, 1);
	fh3m(&m, O_FILE);
	rr_enc_u64(&m.e, 0);
	rr_enc_u32(&m.e, 5);
	rr_enc_u32(&m.e, UNSTABLE);
	rr_enc_u32(&m.e, 0x7fffffff);	/* a data length far beyond what follows */
	seed(&m, "bad-write-length");

	write_nlm_seeds();
	n4fx_seeds();
	write_gss_seeds();	/* last: the seeds before keep their XIDs */
}


/* ---- libFuzzer entry points ---- */

static void
init_server(void)
{
	struct lk_config lock_cfg = {
		.grace_secs = 0,
		.max_files = 256,
		.send_granted = nlm_grant_sender(),
		.monitor = nsm_monitor, .unmonitor = nsm_unmonitor, .prune = nsm_prune,
		.no_waiter = 1,
	};
	char path[PATH_MAX + 16];
	struct export_table *t;
	FILE *f;

	log_init("fuzz_rpc", 1, getenv("FUZZ_DEBUG") != NULL);
	umask(0);
	make_tree();
	atexit(remove_tree);
	fh_set_key(fuzz_key);
	snprintf(path, sizeof(path), "%s/exports", scratch);
	f = fopen(path, "w");
	if (f == NULL)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "%s 127.0.0.1(rw,no_root_squash,insecure,fsid=%d) ::1(rw,secure,fsid=%d)\n",
	    abs_path[P_EXPORT], FSID_RW, FSID_RW);
	fprintf(f, "%s 127.0.0.0/8(ro,all_squash,anonuid=1000,anongid=1000,fsid=%d) "
	    "::/0(ro,insecure,fsid=%d)\n", abs_path[P_RO], FSID_RO, FSID_RO);
	fclose(f);
	t = exports_load(path, NULL, NULL);
	if (t == NULL)
		die("the exports file does not load");
	exports_install(t);
	fs_write_verifier_init();
	icache_init(256);
	snprintf(path, sizeof(path), "%s/state", scratch);
	mountd_init(path);
	dispatch_set_hold(exports_acquire, exports_release);
	nfs_prog = nfs_program_build(NFSVERS_ALL);
	dispatch_register(nfs_prog);
	dispatch_register(&mount_program);
	dispatch_register(&nlm_program);
	/*
	 * No grace period (nothing to reclaim); no waiter thread: blocked
	 * requests wait until the fixture is built again, and a call's
	 * outcome does not depend on a thread's timing. Background tasks are
	 * never started either, so GRANTED, the _RES calls and SM_MON/UNMON are
	 * dropped (tasks_push fails) and nsm.c writes no client list: it needs
	 * no state directory (nsm_load) for that.
	 */
	if (locks_start(&lock_cfg) < 0)
		die("the lock manager does not start");
	worker = worker_new();
	msgbuf = malloc(MAX_MSG);
	if (msgbuf == NULL)
		die("out of memory");
	refresh_handles();
	build_lock_fixture();
	n4_clients_init();
	n4fx_build();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	errfd = dup(2);
	if (errfd < 0)
		errfd = 2;
	init_server();
	seed_dir = getenv("FUZZ_WRITE_SEEDS");
	if (seed_dir) {
		write_seeds();
		printf("%u seeds written to %s\n", nseeds, seed_dir);
		exit(0);
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned long n;

	run_input(data, size, 0);
	restore_tree();
	put_back_locks();
	/* The daemon's main loop does this once a second. */
	if (++n % 256 == 0)
		fs_tick();
	return 0;
}
