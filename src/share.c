/*
 * usernfsd --share: directories served without an exports file, as the
 * user who runs the command, with the mount commands printed.
 *
 * Each directory becomes the export an administrator would write as
 *     DIR CLIENT(rw,all_squash,anonuid=UID,anongid=GID,insecure,no_subtree_check,sync)
 * for every --allow CLIENT (default 127.0.0.1 and ::1), built through
 * exports_add, so the parser's option and client code decides. Run by an
 * ordinary user the daemon is that user and can reach nothing more; it
 * needs no privileged port, registers with rpcbind only when it can, and
 * serves no lock manager (clients mount with nolock).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ftw.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <pwd.h>
#include <rpc/rpc.h>
#include <rpc/pmap_prot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler.h"
#include "exports/exports.h"
#include "heads.h"
#include "share.h"

#define NFS_PROG 100003
#define MOUNT_PROG 100005
#define NLM_PROG 100021

static const char *const local_only[] = { "127.0.0.1", "::1" };

struct share_state {
	const struct share_opts *s;
	const struct daemon_opts *o;
	char **paths;		/* canonical */
	char host[256];		/* what clients are told to mount from */
	int nlm;
};

static void
print_err(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "usernfsd: %s\n", msg);
}

/* ---- the table ---- */

static void
clients_of(const struct share_opts *s, const char *const **list, size_t *n)
{
	if (s->nallow) {
		*list = s->allow;
		*n = s->nallow;
	} else {
		*list = local_only;
		*n = ARRAY_SIZE(local_only);
	}
}

/* The directories, canonical (exports name real paths); NULL after a message. */
static char **
resolve_dirs(const struct share_opts *s)
{
	char **paths = calloc(s->ndirs, sizeof(*paths));

	if (paths == NULL)
		return NULL;
	for (size_t i = 0; i < s->ndirs; i++) {
		struct stat st;

		paths[i] = realpath(s->dirs[i], NULL);
		if (paths[i] == NULL || stat(paths[i], &st) < 0) {
			fprintf(stderr, "usernfsd: --share %s: %s\n", s->dirs[i], strerror(errno));
			goto fail;
		}
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "usernfsd: --share %s: not a directory\n", s->dirs[i]);
			goto fail;
		}
		for (size_t k = 0; k < i; k++)
			if (strcmp(paths[k], paths[i]) == 0) {
				fprintf(stderr, "usernfsd: --share %s: %s is already shared\n",
				    s->dirs[i], paths[i]);
				goto fail;
			}
	}
	return paths;
fail:
	for (size_t i = 0; i < s->ndirs; i++)
		free(paths[i]);
	free(paths);
	return NULL;
}

static void
free_paths(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

static struct export_table *
build_table(const struct share_opts *s, char **paths)
{
	struct export_table *t = exports_new();
	const char *const *clients;
	size_t nclients;
	char opts[160];

	clients_of(s, &clients, &nclients);
	/* sync: acknowledged means on disk, the exports file's default too. */
	snprintf(opts, sizeof(opts),
	    "%s,all_squash,anonuid=%u,anongid=%u,insecure,no_subtree_check,sync",
	    s->ro ? "ro" : "rw", (unsigned)getuid(), (unsigned)getgid());
	for (size_t i = 0; i < s->ndirs; i++)
		if (exports_add(t, "--allow", paths[i], clients, nclients, opts, print_err,
		    NULL) < 0) {
			exports_free(t);
			return NULL;
		}
	if (exports_open(t, print_err, NULL) < 0) {
		exports_free(t);
		return NULL;
	}
	return t;
}

int
share_check(const struct share_opts *s)
{
	char **paths = resolve_dirs(s);
	struct export_table *t;

	if (paths == NULL)
		return 1;
	t = build_table(s, paths);
	free_paths(paths, s->ndirs);
	if (t == NULL)
		return 1;
	exports_print(stdout, t);
	fhcheck_exports(t, print_err, NULL);
	exports_free(t);
	return 0;
}

/* ---- ports ---- */

/* Can we bind port on every socket the daemon will open? (No IPv6: fine.) */
static int
port_free(uint16_t port)
{
	static const int types[2] = { SOCK_DGRAM, SOCK_STREAM };

	for (int f = 0; f < 2; f++)
		for (int k = 0; k < 2; k++) {
			struct sockaddr_storage ss;
			socklen_t len;
			int one = 1, fd, rc;

			memset(&ss, 0, sizeof(ss));
			if (f == 0) {
				struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

				sin->sin_family = AF_INET;
				sin->sin_port = htons(port);
				len = sizeof(*sin);
			} else {
				struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

				sin6->sin6_family = AF_INET6;
				sin6->sin6_port = htons(port);
				len = sizeof(*sin6);
			}
			fd = socket(ss.ss_family, types[k] | SOCK_CLOEXEC, 0);
			if (fd < 0) {
				if (f == 1)
					continue;
				return 0;
			}
			/* As transport.c binds: a TIME_WAIT left by a last run is no conflict. */
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (f == 1)
				setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
			rc = bind(fd, (struct sockaddr *)&ss, len);
			close(fd);
			if (rc < 0)
				return 0;
		}
	return 1;
}

/* A port the kernel considers free for TCP over IPv4, or 0. */
static uint16_t
kernel_port(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	uint16_t port = 0;

	if (fd < 0)
		return 0;
	if (bind(fd, (struct sockaddr *)&sin, len) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sin, &len) == 0)
		port = ntohs(sin.sin_port);
	close(fd);
	return port;
}

/* want when it is free, else one the kernel picks; 0 if none could be found. */
static uint16_t
choose_port(const char *what, uint16_t want, uint16_t avoid)
{
	if (want != avoid && port_free(want))
		return want;
	for (int i = 0; i < 50; i++) {
		uint16_t p = kernel_port();

		if (p != 0 && p != avoid && port_free(p)) {
			printf("usernfsd: port %u is taken; %s on port %u instead\n", want, what, p);
			return p;
		}
	}
	fprintf(stderr, "usernfsd: no free port for %s\n", what);
	return 0;
}

/* ---- rpcbind ---- */

/*
 * The port rpcbind (portmap version 2, over TCP to 127.0.0.1) has for
 * prog/vers/proto: 0 when none, -1 when rpcbind does not answer.
 */
static long
rpcbind_port(uint32_t prog, uint32_t vers, unsigned proto)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(PMAPPORT) };
	struct pmap map = { .pm_prog = prog, .pm_vers = vers, .pm_prot = proto };
	struct timeval tv = { 2, 0 };
	int sock = RPC_ANYSOCK;
	u_long port = 0;
	enum clnt_stat st;
	CLIENT *c;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c = clnttcp_create(&sin, PMAPPROG, PMAPVERS, &sock, 0, 0);
	if (c == NULL)
		return -1;
	st = clnt_call(c, PMAPPROC_GETPORT, (xdrproc_t)xdr_pmap, (char *)&map,
	    (xdrproc_t)xdr_u_long, (char *)&port, tv);
	clnt_destroy(c);
	return st == RPC_SUCCESS ? (long)port : -1;
}

/*
 * Whether to register: only when rpcbind runs and no other NFS server is
 * registered there (rpcreg would take its registrations away). Says why not.
 */
static int
want_rpcbind(void)
{
	static const uint32_t progs[2] = { NFS_PROG, MOUNT_PROG };

	for (int i = 0; i < 2; i++) {
		long tcp = rpcbind_port(progs[i], 3, IPPROTO_TCP);
		long udp = tcp < 0 ? -1 : rpcbind_port(progs[i], 3, IPPROTO_UDP);

		if (tcp < 0 || udp < 0) {
			printf("usernfsd: note: rpcbind is not running here: not registering "
			    "(clients need the ports, as below)\n");
			return 0;
		}
		if (tcp > 0 || udp > 0) {
			printf("usernfsd: note: another %s server is registered with rpcbind "
			    "(port %ld): not registering (clients need the ports, as below)\n",
			    i == 0 ? "NFS" : "MOUNT", tcp > 0 ? tcp : udp);
			return 0;
		}
	}
	return 1;
}

/* ---- what to print ---- */

/* Does this --allow entry name only this host? */
static int
loopback_only(const char *spec)
{
	char buf[INET6_ADDRSTRLEN + 8];
	char *slash;
	unsigned char a[16];
	long prefix = -1;

	if (strlen(spec) >= sizeof(buf))
		return 0;
	strcpy(buf, spec);
	if ((slash = strchr(buf, '/')) != NULL) {
		char *end;

		*slash = '\0';
		prefix = strtol(slash + 1, &end, 10);
		if (*end != '\0')
			return 0;
	}
	if (inet_pton(AF_INET, buf, a) == 1)
		return a[0] == 127 && (prefix < 0 || prefix >= 8);
	if (inet_pton(AF_INET6, buf, a) == 1)
		return memcmp(a, &in6addr_loopback, 16) == 0 && (prefix < 0 || prefix == 128);
	return strcmp(buf, "localhost") == 0;
}

/*
 * The host clients mount from: 127.0.0.1 when only this host may mount,
 * else the --bind address, or this machine's first IPv4 address that is
 * not a loopback one, or its name.
 */
static void
choose_host(const struct share_opts *s, const struct daemon_opts *o, char *host, size_t len)
{
	struct ifaddrs *ifs, *i;
	int local = 1;

	for (size_t k = 0; k < s->nallow; k++)
		if (!loopback_only(s->allow[k]))
			local = 0;
	snprintf(host, len, "127.0.0.1");
	if (local)
		return;
	if (o->bind_addr) {
		if (strchr(o->bind_addr, ':'))
			snprintf(host, len, "[%s]", o->bind_addr);
		else
			snprintf(host, len, "%s", o->bind_addr);
		return;
	}
	if (getifaddrs(&ifs) == 0) {
		for (i = ifs; i; i = i->ifa_next) {
			const struct sockaddr_in *sin = (const struct sockaddr_in *)i->ifa_addr;

			if (sin == NULL || sin->sin_family != AF_INET ||
			    (ntohl(sin->sin_addr.s_addr) >> 24) == 127)
				continue;
			inet_ntop(AF_INET, &sin->sin_addr, host, (socklen_t)len);
			break;
		}
		freeifaddrs(ifs);
		if (strcmp(host, "127.0.0.1") != 0)
			return;
	}
	if (gethostname(host, len) < 0 || host[0] == '\0')
		snprintf(host, len, "127.0.0.1");
}

/* Bytes a shell takes literally: anything else puts the word in single quotes. */
static int
shell_plain(const char *s)
{
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	    "/._+-,:@%[]") == strlen(s);
}

static void
print_quoted(const char *s)
{
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
}

static void
print_shell_word(const char *host, const char *path)
{
	if (shell_plain(host) && shell_plain(path)) {
		printf("%s:%s", host, path);
		return;
	}
	putchar('\'');
	print_quoted(host);
	putchar(':');
	print_quoted(path);
	putchar('\'');
}

/* RFC 3986 path characters stay, the rest is percent-encoded. */
static void
print_url_path(const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~!$&'()*+,;=:@", *p))
			putchar(*p);
		else
			printf("%%%02X", *p);
}

static void
on_ready(void *arg, int registered)
{
	struct share_state *st = arg;
	const struct share_opts *s = st->s;
	const struct daemon_opts *o = st->o;
	int nolock = !st->nlm || !registered;

	printf("usernfsd: NFS on port %u, MOUNT on port %u, %s\n", o->nfs_port, o->mount_port,
	    registered ? "registered with rpcbind" : "not registered with rpcbind");
	if (nolock)
		printf("usernfsd: no lock manager: clients mount with nolock (locks stay local "
		    "to each client)\n");
	for (size_t i = 0; i < s->ndirs; i++) {
		printf("\nSharing %s %s. Mount it with:\n", st->paths[i],
		    s->ro ? "read-only" : "read-write");
		printf("    mount -t nfs -o vers=3,proto=tcp,port=%u,mountport=%u,mountproto=tcp%s ",
		    o->nfs_port, o->mount_port, nolock ? ",nolock" : "");
		print_shell_word(st->host, st->paths[i]);
		printf(" /mnt\nor, with libnfs (nfs-ls, nfs-cp, ...):\n    nfs://%s", st->host);
		print_url_path(st->paths[i]);
		printf("?version=3&nfsport=%u&mountport=%u\n", o->nfs_port, o->mount_port);
	}
	printf("\nServing until Ctrl-C.\n");
	fflush(stdout);
}

/* ---- state directory ---- */

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* A temporary state directory goes at exit, also after a failed start (exit(1)). */
static char temp_statedir[PATH_MAX];

static void
remove_temp_statedir(void)
{
	if (temp_statedir[0])
		nftw(temp_statedir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	temp_statedir[0] = '\0';
}

/* The given one, $XDG_RUNTIME_DIR/usernfsd-share, or a new temporary one (*temp set). */
static int
choose_statedir(const struct share_opts *s, struct daemon_opts *o, char *buf, size_t len,
    int *temp)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	const char *tmp = getenv("TMPDIR");
	struct stat st;

	*temp = 0;
	if (s->statedir_given)
		return 0;
	if (xdg && xdg[0] == '/' && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid() && access(xdg, W_OK) == 0 &&
	    (size_t)snprintf(buf, len, "%s/usernfsd-share", xdg) < len) {
		o->statedir = buf;
		return 0;
	}
	if ((size_t)snprintf(buf, len, "%s/usernfsd-share.XXXXXX",
	    tmp && tmp[0] == '/' ? tmp : "/tmp") >= len || mkdtemp(buf) == NULL) {
		fprintf(stderr, "usernfsd: cannot make a state directory %s: %s\n", buf,
		    strerror(errno));
		return -1;
	}
	o->statedir = buf;
	*temp = 1;
	snprintf(temp_statedir, sizeof(temp_statedir), "%s", buf);
	atexit(remove_temp_statedir);
	return 0;
}

/* ---- the run ---- */

int
share_run(struct daemon_opts *o, const struct share_opts *s)
{
	struct share_state st = { .s = s, .o = o };
	char statedir[PATH_MAX];
	struct passwd *pw = getpwuid(getuid());
	int temp, rc;

	if ((st.paths = resolve_dirs(s)) == NULL)
		return 1;
	o->table = build_table(s, st.paths);
	if (o->table == NULL) {
		free_paths(st.paths, s->ndirs);
		return 1;
	}
	o->exports_file = "--share";
	o->foreground = 1;
	printf("usernfsd: every client acts as uid %u%s%s%s, gid %u: it reaches what that user "
	    "can, nothing more\n", (unsigned)getuid(), pw ? " (" : "", pw ? pw->pw_name : "",
	    pw ? ")" : "", (unsigned)getgid());
	if (geteuid() == 0)
		printf("usernfsd: note: that is root; run this as an ordinary user to share with "
		    "that user's rights only\n");
	if (s->nallow == 0)
		printf("usernfsd: only this host may mount (127.0.0.1 and ::1); "
		    "--allow ADDR/CIDR admits others\n");
	if ((!s->nfs_port_given && !(o->nfs_port = choose_port("NFS", o->nfs_port, 0))) ||
	    (!s->mount_port_given &&
	    !(o->mount_port = choose_port("MOUNT", o->mount_port, o->nfs_port)))) {
		exports_free(o->table);
		free_paths(st.paths, s->ndirs);
		return 1;
	}
	if (choose_statedir(s, o, statedir, sizeof(statedir), &temp) < 0) {
		exports_free(o->table);
		free_paths(st.paths, s->ndirs);
		return 1;
	}
	if (o->no_rpcbind) {
		printf("usernfsd: not registering with rpcbind (--no-rpcbind)\n");
	} else if (!want_rpcbind()) {
		o->no_rpcbind = 1;
	} else {
		/* Ours to try: an ordinary user may be refused, which is no reason to stop. */
		o->rpcbind_optional = 1;
	}
	/*
	 * Clients find the lock manager through rpcbind, and its calls back to
	 * them come from reserved ports: served only by root, registered.
	 */
	if (!o->no_nlm && (geteuid() != 0 || o->no_rpcbind))
		o->no_nlm = 1;
	/* The kernel's lockd (an NFS client mount here) keeps its registration. */
	if (!o->no_nlm && (rpcbind_port(NLM_PROG, 4, IPPROTO_TCP) != 0 ||
	    rpcbind_port(NLM_PROG, 4, IPPROTO_UDP) != 0)) {
		printf("usernfsd: note: another lock manager is registered with rpcbind: "
		    "not serving locks\n");
		o->no_nlm = 1;
	}
	st.nlm = !o->no_nlm;
	choose_host(s, o, st.host, sizeof(st.host));
	o->ready = on_ready;
	o->ready_arg = &st;
	fflush(stdout);
	rc = daemon_run(o);
	if (temp)
		remove_temp_statedir();
	free_paths(st.paths, s->ndirs);
	printf("usernfsd: stopped\n");
	return rc;
}
