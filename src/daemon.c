/*
 * Process life: detach, bind, register, serve, reload on SIGHUP, stop on
 * SIGTERM/SIGINT. Signal handlers only set flags; the main loop, which is
 * the only thread with those signals unblocked (during epoll_pwait), acts.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "compiler.h"
#include "admin/ctlsock.h"
#include "daemon.h"
#include "idmap.h"
#include "rpc/clients.h"
#include "rpc/backchannel.h"
#include "rpc/dispatch.h"
#include "rpc/drc.h"
#include "rpc/gss.h"
#include "exports/exports.h"
#include "fs/dirlock.h"
#include "fs/fh.h"
#include "fs/fsops.h"
#include "heads.h"
#include "fs/icache.h"
#include "state/locks.h"
#include "state/nfs4_clients.h"
#include "state/nfs4_state.h"
#include "log.h"
#include "memtrim.h"
#include "admin/metrics_http.h"
#include "proto/mountd.h"
#include "proto/nfs_program.h"
#include "state/nfs4_recover.h"
#include "proto/nlm.h"
#include "proto/nsm.h"
#include "rpc/rpcreg.h"
#include "stats.h"
#include "tasks.h"
#include "rpc/tcpconn.h"
#include "rpc/transport.h"
#include "rpc/workq.h"

#define TASK_THREADS 4		/* callbacks to clients: a dead one costs a thread seconds */

static volatile sig_atomic_t got_hup, got_term, got_io;

static void
on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else if (sig == SIGIO)
		got_io = 1;	/* a process on the server breaks a delegation's lease */
	else
		got_term = 1;
}

static void
notify(const char *state)
{
#ifdef HAVE_SYSTEMD
	sd_notify(0, state);
#else
	(void)state;
#endif
}

static void
log_export_error(void *arg, const char *msg)
{
	(void)arg;
	log_warnx("%s", msg);
}

static void
print_export_error(void *arg, const char *msg)
{
	fprintf(arg, "%s\n", msg);
}

int
daemon_check_exports(const char *file)
{
	struct export_table *t = exports_load(file, print_export_error, stderr);

	if (t == NULL) {
		fprintf(stderr, "%s: errors found; nothing would be exported\n", file);
		return 1;
	}
	exports_print(stdout, t);
	fhcheck_exports(t, print_export_error, stderr);
	exports_free(t);
	return 0;
}

/* ---- start-up helpers ---- */

/* mkdir -p, with the last component private: it holds the handle key. */
static int
make_statedir(const char *dir)
{
	char path[4096];
	struct stat st;
	size_t len = strlen(dir);

	if (len == 0 || len >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(path, dir, len + 1);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -1;
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

static int
write_pidfile(const char *path)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());

	if (fd < 0)
		return -1;
	if (write(fd, buf, (size_t)len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Raises the descriptor limit to the hard one; returns what we may use. */
static rlim_t
raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 1024;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	return rl.rlim_cur;
}

/*
 * Every 1 MiB WRITE arrives in a fresh record buffer.  With glibc's
 * defaults such buffers come from mmap, or the
 * heap top is trimmed when they are freed, and the next one is faulted
 * in and zeroed page by page by the one thread that reads all sockets
 * (7 % of its time under a write stream, measured).  Keep up to 64 MiB of
 * freed memory for reuse instead; RSS after a burst stays that much
 * higher, idle RSS is unchanged.
 */
static void
tune_malloc(void)
{
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

/*
 * Cached objects hold up to three descriptors (O_PATH, read, write); keep
 * room for connections and directory streams, so the cache never makes
 * the daemon run out.
 */
static unsigned
icache_capacity(rlim_t nofile)
{
	rlim_t room = nofile > 4096 ? nofile - 2048 : nofile / 2;
	rlim_t cap = room / 3;

	if (cap > 8192)
		cap = 8192;
	if (cap < 64)
		cap = 64;
	return (unsigned)cap;
}

/*
 * Without --foreground: fork; the parent waits on a pipe until the child
 * reports "ready" or an error, so the exit status means what it says.
 */
static int report_fd = -1;

static void
detach(void)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		fatal("pipe");
	pid = fork();
	if (pid < 0)
		fatal("fork");
	if (pid > 0) {
		char msg[1024];
		ssize_t n;

		close(p[1]);
		n = read(p[0], msg, sizeof(msg) - 1);
		if (n > 0 && strncmp(msg, "ok", 2) == 0)
			_exit(0);
		if (n > 0) {
			msg[n] = '\0';
			fprintf(stderr, "usernfsd: %s\n", msg);
		} else {
			fprintf(stderr, "usernfsd: failed to start (see the system log)\n");
		}
		_exit(1);
	}
	close(p[0]);
	report_fd = p[1];
	setsid();
	if (chdir("/") < 0)
		fatal("chdir /");
}

static void
report(const char *msg)
{
	if (report_fd >= 0) {
		if (write(report_fd, msg, strlen(msg)) < 0) {
			/* The parent is gone; nothing left to tell. */
		}
		close(report_fd);
		report_fd = -1;
	}
}

static int NORETURN
startup_failed(const char *msg)
{
	log_warnx("%s", msg);
	report(msg);
	exit(1);
}

static void
quiet_stdio(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
}

static void
setup_signals(sigset_t *waitmask)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGIO, &sa, NULL);
	/* Blocked except inside epoll_pwait: no request is ever interrupted. */
	sigemptyset(&block);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGIO);
	pthread_sigmask(SIG_BLOCK, &block, waitmask);
	sigdelset(waitmask, SIGHUP);
	sigdelset(waitmask, SIGTERM);
	sigdelset(waitmask, SIGINT);
	sigdelset(waitmask, SIGIO);
}

/* A reload's problems go to the log and, when usernfsctl asked for it, to its caller. */
static void
reload_error(void *arg, const char *msg)
{
	log_warnx("%s", msg);
	if (arg)
		fprintf(arg, "%s\n", msg);
}

/* A reload that brings sec=krb5* exports with no usable keytab still goes ahead, said loudly. */
static void
warn_keytab(const struct export_table *t, FILE *errs)
{
	char why[600];

	if (!exports_use_krb5(t) || gss_keytab_check(why, sizeof(why)) == 0)
		return;
	log_warnx("%s: Kerberos clients cannot mount the sec=krb5* exports", why);
	if (errs)
		fprintf(errs, "warning: %s: Kerberos clients cannot mount the sec=krb5* exports\n", why);
}

/*
 * The one reload: SIGHUP (main thread) and `usernfsctl reload` (control
 * thread) both come here, one at a time.  errs, when not NULL, receives
 * each problem as "file:line: ..." and the outcome.  0, or -1 when the
 * file has errors and the previous table stays in force.
 */
static int
reload(const char *file, const char *why, FILE *errs)
{
	static pthread_mutex_t reload_lock = PTHREAD_MUTEX_INITIALIZER;
	struct export_table *t;
	int rc = 0;

	pthread_mutex_lock(&reload_lock);
	notify("RELOADING=1");
	log_info("%s: re-reading %s", why, file);
	t = exports_load(file, reload_error, errs);
	if (t == NULL) {
		log_warnx("%s has errors; the previous exports stay in force", file);
		if (errs)
			fprintf(errs, "%s has errors; the previous exports stay in force\n", file);
		rc = -1;
	} else {
		if (errs)
			fprintf(errs, "%s: %zu exports in force\n", file, t->n);
		fhcheck_exports(t, reload_error, errs);
		warn_keytab(t, errs);
		exports_install(t);
	}
	notify("READY=1");
	pthread_mutex_unlock(&reload_lock);
	return rc;
}

/* The gauges of the statistics, read from their modules when a snapshot is taken. */
static int with_nlm;
static int with_nfs4;		/* NFSv4 served: its gauges */

static void
read_gauges(struct stats_gauges *g)
{
	unsigned entries, hits;

	g->tcp_open = conns_open_count();
	g->reply_memory = conns_reply_memory();
	g->workq_depth = workq_length();
	drc_stats(&entries, &hits);
	g->drc_entries = entries;
	g->icache_entries = icache_entries();
	g->clients = clients_count();
	g->gss_contexts = gss_contexts();
	if (with_nlm) {
		struct lk_stats lk;

		locks_get_stats(&lk);
		g->nlm_hosts = lk.hosts;
		g->nlm_files = lk.files;
		g->nlm_locks = lk.ranges;
		g->nlm_waiters = lk.waiters;
		g->nlm_shares = lk.shares;
		g->nlm_grace = lk.in_grace;
	}
	if (with_nfs4) {
		struct n4_counts nc;
		struct n4_state_counts sc;

		n4_clients_count(&nc);
		n4_state_count(&sc);
		g->nfs4_enabled = 1;
		g->nfs4_clients = nc.clients;
		g->nfs4_confirmed = nc.confirmed;
		g->nfs4_sessions = nc.sessions;
		g->nfs4_cache_bytes = nc.cache_reserved;
		g->nfs4_stateids = sc.opens;
	}
}

static int
ctl_reload(void *arg, FILE *errs)
{
	const struct daemon_opts *o = arg;

	if (o->table) {
		fprintf(errs, "the exports come from the command line (--share); nothing to re-read\n");
		return -1;
	}
	return reload(o->exports_file, "control socket", errs);
}

/*
 * The control socket.  One the administrator named must work; the
 * default one is a convenience: when it cannot be made (its directory
 * cannot be created or written, another daemon holds it), one in the
 * state directory, which exists, will do, and the log says where; a
 * daemon with neither still serves.
 */
static void
start_control(const struct daemon_opts *o)
{
	char err[512], err2[512], alt[256];
	const char *path = o->control_path ? o->control_path : CTL_DEFAULT_PATH;

	if (strcmp(path, "none") == 0)
		return;
	if (ctlsock_start(path, ctl_reload, (void *)o, err, sizeof(err)) == 0)
		return;
	if (o->control_path)
		startup_failed(err);
	if ((size_t)snprintf(alt, sizeof(alt), "%s/usernfsd.sock", o->statedir) < sizeof(alt) &&
	    ctlsock_start(alt, ctl_reload, (void *)o, err2, sizeof(err2)) == 0) {
		log_warnx("%s; using %s instead (usernfsctl -s %s)", err, alt, alt);
		return;
	}
	log_warnx("%s; usernfsctl will not reach this daemon", err);
}

static uint16_t
port_of(const struct daemon_opts *o, enum rpc_service s)
{
	switch (s) {
	case RPC_SVC_MOUNT:
		return o->mount_port;
	case RPC_SVC_NLM:
		return o->nlm_port ? o->nlm_port : o->nfs_port;
	case RPC_SVC_NFS:
		break;
	}
	return o->nfs_port;
}

/* Every version of every program we serve, each on its own port, as the tables say. */
static int
register_programs(const struct daemon_opts *o, char *err, size_t errlen)
{
	const struct rpc_program *const *progs;
	size_t n = dispatch_programs(&progs);

	for (size_t i = 0; i < n; i++)
		for (unsigned v = 0; v < progs[i]->nversions; v++)
			if (rpcreg_set(progs[i]->prog, progs[i]->versions[v].vers,
			    port_of(o, progs[i]->service),
			    (progs[i]->versions[v].flags & RPC_VERS_TCP_ONLY) != 0, err, errlen) < 0)
				return -1;
	return 0;
}

/* The NFS versions served: --nfs-versions, or the default (nfs_program.h). */
static unsigned
versions(const struct daemon_opts *o)
{
	if (o->nfs_versions)
		return o->nfs_versions;
	return NFSVERS_DEFAULT;
}

/* --idmap: owner names, before any worker encodes one; refused without NFSv4. */
static void
start_idmap(const struct daemon_opts *o)
{
	char err[600];

	if (!o->idmap)
		return;
	if (!(versions(o) & NFSVERS_4))
		startup_failed("--idmap names NFSv4 owners, and NFSv4 is not served (--nfs-versions)");
	if (idmap_start(o->idmapd_conf, err, sizeof(err)) < 0)
		startup_failed(err);
	log_info("NFSv4 owners as names in the domain %s (libnfsidmap)", idmap_domain());
}

/*
 * Several heads (--grace-dir): our grace period goes on the shared record
 * before we serve, so the other heads hold new locks back from now on.
 */
static void
start_shared_grace(const struct daemon_opts *o, unsigned grace_secs)
{
	char err[512];

	if (o->grace_dir == NULL)
		return;
	/* The other heads change the same directories: no change_info4 is atomic. */
	dirlock_set_shared(1);
	if (grace_shared_init(o->grace_dir, o->statedir) < 0 ||
	    grace_shared_begin(grace_secs) < 0) {
		snprintf(err, sizeof(err), "grace directory %s (identity: the last component of "
		    "%s): %s", o->grace_dir, o->statedir, strerror(errno));
		startup_failed(err);
	}
}

/*
 * The lock manager: our NSM state and the clients the last run had (they
 * may reclaim during the grace period), then its threads.
 */
/* Clients of the last run's lock manager (NSM): they reclaim with no word of being done. */
static int nlm_previous;

/*
 * RFC 8881 8.4.2.1: the grace period may end once every client that can
 * reclaim has said RECLAIM_COMPLETE. NLM clients never say so: with any
 * of them recorded, the period runs its course.
 */
static void
end_grace_early(void)
{
	if (nlm_previous == 0 && locks_in_grace() && n4_recover_all_reclaimed()) {
		log_info("every NFSv4 client of the last run has reclaimed: the grace period ends");
		locks_end_grace();
	}
}

/* NFSv4's client records: how many clients of the last run may reclaim. */
static int
load_v4_records(const struct daemon_opts *o)
{
	char err[512];
	int n;

	if (!(versions(o) & NFSVERS_4))
		return 0;
	if ((n = n4_recover_load(o->statedir)) < 0) {
		snprintf(err, sizeof(err), "state directory %s: cannot read the NFSv4 client "
		    "records: %s", o->statedir, strerror(errno));
		startup_failed(err);
	}
	if (n > 0)
		log_info("NFSv4 clients that held state before the restart: %d", n);
	return n;
}

static void
start_locking(const struct daemon_opts *o, rlim_t nofile)
{
	struct lk_config c = {
		.send_granted = nlm_grant_sender(),
		.monitor = nsm_monitor, .unmonitor = nsm_unmonitor, .prune = nsm_prune,
	};
	char err[512];
	int previous;

	if (tasks_start(TASK_THREADS) < 0)
		startup_failed("cannot start the background task threads");
	/* NFSv4 locks through the same manager: it runs without NLM too (--no-nlm). */
	if (o->no_nlm && !(versions(o) & NFSVERS_4)) {
		return;
	} else if (o->no_nlm) {
		previous = 0;
	} else if ((previous = nsm_load(o->statedir)) < 0) {
		snprintf(err, sizeof(err), "state directory %s: cannot keep the NSM state: %s",
		    o->statedir, strerror(errno));
		startup_failed(err);
	}
	/* Nobody held a lock or an open from us: nobody can reclaim, so no grace period. */
	nlm_previous = previous;
	previous += load_v4_records(o);
	c.grace_secs = previous > 0 ? o->grace_secs : 0;
	start_shared_grace(o, c.grace_secs);
	c.max_files = nofile / 8 < 4096 ? (unsigned)(nofile / 8) : 4096;
	if (o->no_nlm)
		c.monitor = NULL, c.unmonitor = NULL, c.prune = NULL;
	if (locks_start(&c) < 0)
		startup_failed("cannot start the lock manager");
	if (!o->no_nlm)
		dispatch_register(&nlm_program);
	if (previous > 0)
		log_info("clients that held locks before the restart: %d; %u s grace period "
		    "for their reclaims", previous, c.grace_secs);
}

static const struct workq_hooks pool_hooks = {
	.run = dispatch_request,
	.is_bulk = dispatch_is_bulk,
	.new_worker = worker_new,
	.free_worker = worker_free,
	.wait = transport_wait,
	.poll = transport_poll,
	.kick = transport_kick,
	.wake_all = transport_wake_all,
};

int
daemon_run(const struct daemon_opts *o)
{
	struct listen_spec ls = { .bind_addr = o->bind_addr };
	struct export_table *t;
	sigset_t waitmask;
	char err[512];
	time_t last_tick = 0;
	rlim_t nofile;
	int registered;

	if (!o->foreground)
		detach();
	log_init("usernfsd", o->foreground, o->debug);
	/* Clients send the exact modes they want; our umask must not alter them. */
	umask(0);
	fs_write_verifier_init();
	setup_signals(&waitmask);

	if (make_statedir(o->statedir) < 0) {
		snprintf(err, sizeof(err), "state directory %s: %s", o->statedir, strerror(errno));
		startup_failed(err);
	}
	if (o->handle_key) {
		if (handlekey_load(o->handle_key, err, sizeof(err)) < 0)
			startup_failed(err);
	} else if (fh_load_or_create_key(o->statedir) < 0) {
		snprintf(err, sizeof(err), "%s/handle-key: %s%s", o->statedir, strerror(errno),
		    errno == EPERM ? " (must not be readable by others)" : "");
		startup_failed(err);
	}
	if (o->keytab) {
		/* Said on the command line: a keytab we cannot read is a mistake to report now. */
		if (access(o->keytab, R_OK) < 0) {
			snprintf(err, sizeof(err), "keytab %s: %s", o->keytab, strerror(errno));
			startup_failed(err);
		}
		gss_set_keytab(o->keytab);
	}
	n4_server_names_init(o->statedir);
	t = o->table ? o->table : exports_load(o->exports_file, log_export_error, NULL);
	if (t == NULL) {
		snprintf(err, sizeof(err), "%s has errors; not starting", o->exports_file);
		startup_failed(err);
	}
	fhcheck_exports(t, log_export_error, NULL);
	if (exports_use_krb5(t) && gss_keytab_check(err, sizeof(err)) < 0)
		startup_failed(err);	/* sec=krb5* exports no Kerberos client could mount */
	exports_install(t);
	nofile = raise_fd_limit();
	icache_init(icache_capacity(nofile));
	mountd_init(o->statedir);
	tune_malloc();

	ls.ports[ls.nports++] = o->nfs_port;
	if (o->mount_port != o->nfs_port)
		ls.ports[ls.nports++] = o->mount_port;
	if (!o->no_nlm && o->nlm_port && o->nlm_port != o->nfs_port && o->nlm_port != o->mount_port)
		ls.ports[ls.nports++] = o->nlm_port;
	if (transport_listen(&ls, err, sizeof(err)) < 0)
		startup_failed(err);
	if (o->reply_memory_mib)
		transport_set_reply_budget((size_t)o->reply_memory_mib << 20);
	dispatch_set_hold(exports_acquire, exports_release);
	if (o->lease_secs)
		n4_set_lease(o->lease_secs);
	start_idmap(o);
	n4_clients_init();
	bc_init();
	n4_cb_init();
	/*
	 * Several heads (--grace-dir) are on several hosts: a kernel lease
	 * sees no writer on another host, so no delegations there.
	 */
	n4_deleg_enable(!o->no_delegations && o->grace_dir == NULL);
	dispatch_register(nfs_program_build(versions(o)));
	dispatch_register(&mount_program);
	start_locking(o, nofile);
	if (icache_start_sweeper() < 0)
		startup_failed("cannot start the inode cache sweeper");
	with_nlm = !o->no_nlm;
	with_nfs4 = (versions(o) & NFSVERS_4) != 0;
	stats_init(with_nlm, o->threads, read_gauges);
	if (workq_start(o->threads, &pool_hooks) < 0)
		startup_failed("cannot start worker threads");
	start_control(o);
	if (o->metrics_addr && metrics_http_start(o->metrics_addr, err, sizeof(err)) < 0)
		startup_failed(err);
	registered = !o->no_rpcbind;
	if (registered && register_programs(o, err, sizeof(err)) < 0) {
		rpcreg_unset_all();
		if (!o->rpcbind_optional)
			startup_failed(err);
		log_info("note: %s; serving without it", err);
		registered = 0;
	}
	if (o->pidfile && write_pidfile(o->pidfile) < 0) {
		snprintf(err, sizeof(err), "pidfile %s: %s", o->pidfile, strerror(errno));
		rpcreg_unset_all();
		startup_failed(err);
	}
	if (o->no_nlm)
		log_info("ready: NFS on port %u, MOUNT on port %u, no lock manager, %u threads, "
		    "exports from %s", o->nfs_port, o->mount_port, o->threads, o->exports_file);
	else
		log_info("ready: NFS on port %u, MOUNT on port %u, NLM on port %u, %u threads, "
		    "exports from %s", o->nfs_port, o->mount_port, port_of(o, RPC_SVC_NLM),
		    o->threads, o->exports_file);
	if (!o->no_nlm)
		nsm_notify_clients();
	notify("READY=1");
	report("ok");
	if (!o->foreground)
		quiet_stdio();
	if (o->ready)
		o->ready(o->ready_arg, registered);

	while (!got_term) {
		time_t now;

		/* The pool threads serve the sockets; this one takes signals and ticks. */
		struct timespec second = { 1, 0 };

		ppoll(NULL, 0, &second, &waitmask);
		if (got_hup) {
			got_hup = 0;
			if (o->table)
				log_info("SIGHUP: the exports come from the command line; nothing to re-read");
			else
				reload(o->exports_file, "SIGHUP", NULL);
		}
		if (got_io) {
			got_io = 0;
			n4_deleg_run(1);
		}
		now = time(NULL);
		if (now != last_tick) {
			last_tick = now;
			transport_tick();
			fs_tick();
			grace_shared_tick(locks_in_grace());
			n4_clients_tick();
			n4_deleg_run(0);
			end_grace_early();
			memtrim_tick(workq_pushed());
			if (now % 60 == 0)
				gss_sweep();	/* a walk of up to 4096 contexts: once a minute */
		}
	}

	log_info("shutting down");
	notify("STOPPING=1");
	metrics_http_stop();
	ctlsock_stop();
	if (registered)
		rpcreg_unset_all();
	/* Requests already accepted finish and are answered before sockets close. */
	workq_stop();
	locks_stop();
	tasks_stop();
	icache_stop_sweeper();
	transport_close_all();
	if (o->pidfile)
		unlink(o->pidfile);
	exports_install(NULL);
	return 0;
}
