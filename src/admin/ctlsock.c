/* The control socket's server (include/ctlsock.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "rpc/clients.h"
#include "ctlsock.h"
#include "exports/exports.h"
#include "log.h"
#include "stats.h"
#include "stats_print.h"
#include "clients_print.h"
#include "rpc/svcthread.h"

#define READ_TIMEOUT_MS 2000	/* for the request line */
#define WRITE_TIMEOUT_MS 10000	/* for the whole reply */

static int listen_fd = -1;
static struct svc_thread thread = SVC_THREAD_INIT;
static char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static dev_t sock_dev;
static ino_t sock_ino;
static ctl_reload_fn reload_fn;
static void *reload_arg;

/* Reads one line (without its newline) before the deadline; -1 on timeout, EOF or overflow. */
static int
read_request(int fd, char *buf, size_t cap)
{
	int64_t deadline = svc_now_ms() + READ_TIMEOUT_MS;
	size_t len = 0;

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int64_t left = deadline - svc_now_ms();
		char *nl;
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -1;
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			return len ? 0 : -1;	/* EOF ends a request without a newline */
		len += (size_t)n;
		buf[len] = '\0';
		if ((nl = memchr(buf, '\n', len)) != NULL) {
			*nl = '\0';
			if (nl > buf && nl[-1] == '\r')
				nl[-1] = '\0';
			return 0;
		}
		if (len == cap - 1)
			return -1;	/* too long to be a request */
	}
}

static void
write_all(int fd, const char *p, size_t len)
{
	int64_t deadline = svc_now_ms() + WRITE_TIMEOUT_MS;

	while (len > 0) {
		struct pollfd pf = { fd, POLLOUT, 0 };
		int64_t left = deadline - svc_now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pf, 1, (int)left) <= 0)
			return;		/* the client does not read: give up on it */
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

/* Runs a request; its reply text (after the status line) goes to out. 0 ok, -1 error. */
static int
run_request(const char *req, FILE *out)
{
	struct stats_snapshot *s;
	int rc = 0;

	if (strcmp(req, "reload") == 0) {
		if (reload_fn(reload_arg, out) < 0)
			return -1;
		return 0;
	}
	if (strcmp(req, "exports") == 0) {
		struct export_table *t = exports_acquire();

		if (t)
			exports_print(out, t);
		exports_release(t);
		return 0;
	}
	if (strcmp(req, "clients") == 0 || strcmp(req, "clients json") == 0) {
		clients_print(out, req[7] != '\0');
		return 0;
	}
	if (strcmp(req, "stats") != 0 && strcmp(req, "stats json") != 0 &&
	    strcmp(req, "stats flat") != 0 && strcmp(req, "metrics") != 0) {
		fprintf(out, "unknown request '%.64s' (stats [json|flat], clients [json], "
		    "exports, reload, metrics)\n", req);
		return -1;
	}
	if ((s = stats_snapshot()) == NULL) {
		fputs("out of memory\n", out);
		return -1;
	}
	if (strcmp(req, "stats") == 0)
		stats_print_table(out, s);
	else if (strcmp(req, "stats json") == 0)
		stats_print_json(out, s);
	else if (strcmp(req, "stats flat") == 0)
		stats_print_flat(out, s);
	else
		stats_print_prometheus(out, s);
	free(s);
	return rc;
}

static void
serve_client(int fd)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	char req[CTL_MAX_REQUEST];
	char *body = NULL;
	size_t bodylen = 0;
	FILE *out;
	int rc;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0 ||
	    (cred.uid != 0 && cred.uid != getuid())) {
		static unsigned last_log;
		char msg[128];
		int len = snprintf(msg, sizeof(msg), "error\npermission denied: uid %ld may not "
		    "use the control socket\n", clen ? (long)cred.uid : -1L);

		log_ratelimited(&last_log, "control socket: refused uid %ld", (long)cred.uid);
		write_all(fd, msg, (size_t)len);
		return;
	}
	if (read_request(fd, req, sizeof(req)) < 0) {
		static const char msg[] = "error\nbad or missing request line\n";
		write_all(fd, msg, sizeof(msg) - 1);
		return;
	}
	if ((out = open_memstream(&body, &bodylen)) == NULL)
		return;
	rc = run_request(req, out);
	if (fclose(out) != 0) {
		free(body);
		return;
	}
	write_all(fd, rc == 0 ? "ok\n" : "error\n", rc == 0 ? 3 : 6);
	write_all(fd, body, bodylen);
	free(body);
}

static void *
ctl_main(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd p[2] = { { listen_fd, POLLIN, 0 }, { thread.stop_fd, POLLIN, 0 } };
		int fd;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			log_warn("control socket: poll");
			return NULL;
		}
		if (p[1].revents)
			return NULL;
		if (!(p[0].revents & POLLIN))
			continue;
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			continue;
		serve_client(fd);
		close(fd);
	}
}

/* A socket file at path that nobody answers on: left by a daemon that died. */
static int
is_stale(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), stale;

	if (fd < 0)
		return 0;
	stale = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) < 0 && errno == ECONNREFUSED;
	close(fd);
	return stale;
}

/*
 * Makes the socket's directory, and any parent, when it is missing: mode
 * 0755 (a run-state directory others may look into; the socket itself is
 * 0600). 0 when it is there or made, -1 (errno) when it cannot be made.
 */
static int
make_socket_dir(const char *path)
{
	char dir[sizeof(sock_path)];
	char *slash;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	if ((slash = strrchr(dir, '/')) == NULL || slash == dir)
		return 0;	/* the current directory, or / */
	*slash = '\0';
	if (stat(dir, &st) == 0 || errno != ENOENT)
		return 0;	/* bind says what is wrong with it */
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(dir, 0755) < 0)
		return errno == EEXIST ? 0 : -1;
	chmod(dir, 0755);	/* whatever the umask */
	log_info("control socket: created the directory %s (mode 0755)", dir);
	return 0;
}

int
ctlsock_start(const char *path, ctl_reload_fn reload, void *arg, char *err, size_t errlen)
{
	struct sockaddr_un sa;
	struct stat st;
	int rc;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "control socket %s: path too long", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	if (make_socket_dir(path) < 0) {
		snprintf(err, errlen, "control socket %s: cannot make its directory: %s", path,
		    strerror(errno));
		return -1;
	}
	listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (listen_fd < 0) {
		snprintf(err, errlen, "control socket: %s", strerror(errno));
		return -1;
	}
	/* Owner only from the start: the daemon's umask is 0 (clients' modes must pass). */
	fchmod(listen_fd, 0600);
	rc = bind(listen_fd, (struct sockaddr *)&sa, sizeof(sa));
	if (rc < 0 && errno == EADDRINUSE && is_stale(&sa) && unlink(path) == 0)
		rc = bind(listen_fd, (struct sockaddr *)&sa, sizeof(sa));
	if (rc < 0 || chmod(path, 0600) < 0 || stat(path, &st) < 0 || listen(listen_fd, 16) < 0) {
		snprintf(err, errlen, "control socket %s: %s%s", path, strerror(errno),
		    errno == EADDRINUSE ? " (another usernfsd is using it?)" : "");
		close(listen_fd);
		listen_fd = -1;
		return -1;
	}
	snprintf(sock_path, sizeof(sock_path), "%s", path);
	sock_dev = st.st_dev;
	sock_ino = st.st_ino;
	reload_fn = reload;
	reload_arg = arg;
	if (svc_thread_start(&thread, ctl_main, "control socket", err, errlen) < 0) {
		ctlsock_stop();
		return -1;
	}
	return 0;
}

void
ctlsock_stop(void)
{
	struct stat st;

	svc_thread_stop(&thread);
	if (listen_fd >= 0) {
		/* Only our own socket: a newer daemon may have replaced it. */
		if (stat(sock_path, &st) == 0 && st.st_dev == sock_dev && st.st_ino == sock_ino)
			unlink(sock_path);
		close(listen_fd);
		listen_fd = -1;
	}
}
