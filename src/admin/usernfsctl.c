/*
 * usernfsctl: asks a running usernfsd, over its control socket, for its
 * statistics, clients and exports, or to reload its exports (see
 * usernfsctl(8) and include/ctlsock.h for the protocol).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ctlsock.h"

#define MAX_REPLY (64u << 20)	/* far more than any reply; a runaway peer is cut off */

static const char *sock_path = CTL_DEFAULT_PATH;

static void
usage(FILE *out)
{
	fprintf(out,
	    "usage: usernfsctl [-s SOCKET] COMMAND\n"
	    "commands:\n"
	    "  stats [--json] [-i SECONDS [-c COUNT]]   statistics (like nfsstat -s)\n"
	    "  clients [--json]                         clients, their mounts, calls and bytes\n"
	    "  exports                                  the exports in force, effective options\n"
	    "  reload                                   re-read the exports file (like exportfs -ra)\n"
	    "  metrics                                  the Prometheus exposition\n"
	    "options:\n"
	    "  -s, --socket PATH   the daemon's control socket (default %s)\n"
	    "  -j, --json          JSON instead of a table\n"
	    "  -i, --interval S    stats: print what changed every S seconds (like vmstat)\n"
	    "  -c, --count N       with -i: stop after N intervals\n"
	    "  -V, --version       print the version and exit\n"
	    "  -h, --help          print this help and exit\n", CTL_DEFAULT_PATH);
}

/*
 * Sends one request and reads the whole reply.  Returns 0 when the daemon
 * said "ok", 1 when it said "error" (the body says why), -1 when it could
 * not be asked (errno).  *body is malloc'd.
 */
static int
ask(const char *request, char **body, size_t *bodylen)
{
	struct sockaddr_un sa;
	size_t cap = 65536, len = 0;
	char *buf, *nl;
	int fd, rc;

	*body = NULL;
	*bodylen = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(sock_path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, sock_path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	if (dprintf(fd, "%s\n", request) < 0) {
		/* The daemon may have refused us already: read what it said. */
	}
	shutdown(fd, SHUT_WR);
	if ((buf = malloc(cap + 1)) == NULL) {
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;
			if (cap >= MAX_REPLY)
				break;
			cap *= 2;
			if ((nb = realloc(buf, cap + 1)) == NULL)
				break;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	nl = memchr(buf, '\n', len);
	if (nl == NULL) {
		free(buf);
		errno = EPROTO;
		return -1;
	}
	*nl = '\0';
	rc = strcmp(buf, "ok") == 0 ? 0 : 1;
	*bodylen = len - (size_t)(nl + 1 - buf);
	memmove(buf, nl + 1, *bodylen + 1);
	*body = buf;
	return rc;
}

/* Why the daemon could not be asked; for a missing one, where else to look. */
static void
cannot_ask(void)
{
	int e = errno;

	fprintf(stderr, "usernfsctl: %s: %s%s\n", sock_path, strerror(e),
	    e == ENOENT || e == ECONNREFUSED ? " (is usernfsd running? one that could not use "
	    "this path logs the one it took: -s PATH)" : "");
}

/* One request, its reply printed: the exit status. */
static int
simple(const char *request)
{
	char *body;
	size_t len;
	int rc = ask(request, &body, &len);

	if (rc < 0) {
		cannot_ask();
		return 1;
	}
	fwrite(body, 1, len, rc == 0 ? stdout : stderr);
	free(body);
	return rc == 0 ? 0 : 1;
}

/* ---- stats -i: differences of the "stats flat" counters ---- */

struct kv {
	char *key;
	unsigned long long v;
};

struct kvset {
	struct kv *v;
	size_t n;
};

static void
kv_free(struct kvset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static int
kv_parse(char *text, struct kvset *s)
{
	size_t cap = 0;

	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *sp = strrchr(line, ' ');
		if (sp == NULL)
			continue;
		*sp = '\0';
		if (s->n == cap) {
			struct kv *nv;
			cap = cap ? 2 * cap : 128;
			if ((nv = realloc(s->v, cap * sizeof(*nv))) == NULL)
				return -1;
			s->v = nv;
		}
		s->v[s->n].key = strdup(line);
		s->v[s->n].v = strtoull(sp + 1, NULL, 10);
		if (s->v[s->n].key == NULL)
			return -1;
		s->n++;
	}
	return 0;
}

static unsigned long long
kv_get(const struct kvset *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].key, key) == 0)
			return s->v[i].v;
	return 0;
}

/* The difference of key between the two sets (all of it without prev). */
static unsigned long long
delta(const struct kvset *cur, const struct kvset *prev, const char *key)
{
	return kv_get(cur, key) - (prev ? kv_get(prev, key) : 0);
}

/*
 * One line per procedure that had calls (from its PROG.vV.PROC.* keys),
 * then the event counters that moved, then the gauges.  Returns how many
 * lines had activity.
 */
static int
print_changes(const struct kvset *cur, const struct kvset *prev, unsigned secs)
{
	char key[512];
	int shown = 0, header = 0;

	for (size_t i = 0; i < cur->n; i++) {
		const char *k = cur->v[i].key;
		size_t len = strlen(k);
		unsigned long long calls, svc;

		if (len < 6 || strcmp(k + len - 6, ".calls") != 0)
			continue;
		if ((calls = delta(cur, prev, k)) == 0)
			continue;
		if (!header++)
			printf("  %-24s %10s %8s %8s %14s %14s %9s\n", "procedure", "calls", "calls/s",
			    "errors", "bytes_in", "bytes_out", "svc_us");
		len -= 6;
		snprintf(key, sizeof(key), "%.*s.svc_us", (int)len, k);
		svc = delta(cur, prev, key);
		printf("  %-24.*s %10llu %8.1f", (int)len, k, calls, prev ? (double)calls / secs : 0.0);
		snprintf(key, sizeof(key), "%.*s.errors", (int)len, k);
		printf(" %8llu", delta(cur, prev, key));
		snprintf(key, sizeof(key), "%.*s.bytes_in", (int)len, k);
		printf(" %14llu", delta(cur, prev, key));
		snprintf(key, sizeof(key), "%.*s.bytes_out", (int)len, k);
		printf(" %14llu %9.1f\n", delta(cur, prev, key), (double)svc / (double)calls);
		shown++;
	}
	for (size_t i = 0; i < cur->n; i++) {
		const char *k = cur->v[i].key;
		unsigned long long d;

		if (k[0] == '=' || strchr(k, '.') != NULL)
			continue;	/* gauges below; procedures above */
		if ((d = delta(cur, prev, k)) == 0)
			continue;
		printf("  %-24s %10llu\n", k, d);
		shown++;
	}
	for (size_t i = 0; i < cur->n; i++)
		if (cur->v[i].key[0] == '=')
			printf("  %-24s %10llu (now)\n", cur->v[i].key + 1, cur->v[i].v);
	return shown;
}

static volatile sig_atomic_t stop;

static void
on_int(int sig)
{
	(void)sig;
	stop = 1;
}

static int
stats_interval(unsigned secs, unsigned long count)
{
	struct kvset prev = { 0 }, cur = { 0 };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (unsigned long round = 0; !stop && (count == 0 || round <= count); round++) {
		char *body, stamp[32];
		size_t len;
		time_t now = time(NULL);
		struct tm tm;
		int rc = ask("stats flat", &body, &len), shown = 0;

		if (rc != 0) {
			if (rc < 0)
				cannot_ask();
			else
				fputs(body, stderr);
			free(body);
			kv_free(&prev);
			return 1;
		}
		if (kv_parse(body, &cur) < 0) {
			free(body);
			kv_free(&prev);
			kv_free(&cur);
			return 1;
		}
		free(body);
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
		/* As vmstat: the first report is since the start, then each interval's. */
		printf("%s %s\n", stamp, round == 0 ? "since start" : "last interval");
		shown = print_changes(&cur, round ? &prev : NULL, secs);
		if (!shown)
			puts("  (no activity)");
		fflush(stdout);
		kv_free(&prev);
		prev = cur;
		cur = (struct kvset){ 0 };
		if (count && round == count)
			break;
		for (unsigned s = 0; s < secs && !stop; s++)
			sleep(1);
	}
	kv_free(&prev);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long interval = 0, count = 0;
	int json = 0, c;
	const char *cmd;
	char *end;

	/* A daemon that refuses us closes at once: read its word rather than die writing. */
	signal(SIGPIPE, SIG_IGN);
	/* Options may follow the command too (usernfsctl stats --json). */
	while ((c = getopt_long(argc, argv, "s:ji:c:Vh", longopts, NULL)) != -1) {
		switch (c) {
		case 's': sock_path = optarg; break;
		case 'j': json = 1; break;
		case 'i':
			interval = strtoul(optarg, &end, 10);
			if (*end || interval == 0 || interval > 86400) {
				fprintf(stderr, "usernfsctl: bad interval '%s'\n", optarg);
				return 2;
			}
			break;
		case 'c':
			count = strtoul(optarg, &end, 10);
			if (*end || count == 0) {
				fprintf(stderr, "usernfsctl: bad count '%s'\n", optarg);
				return 2;
			}
			break;
		case 'V': printf("usernfsctl %s\n", PACKAGE_VERSION); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	cmd = argv[optind];
	if (strcmp(cmd, "stats") == 0) {
		if (interval)
			return stats_interval((unsigned)interval, count);
		return simple(json ? "stats json" : "stats");
	}
	if (interval) {
		fprintf(stderr, "usernfsctl: -i is for stats\n");
		return 2;
	}
	if (strcmp(cmd, "clients") == 0)
		return simple(json ? "clients json" : "clients");
	if (strcmp(cmd, "exports") == 0 || strcmp(cmd, "reload") == 0 ||
	    strcmp(cmd, "metrics") == 0)
		return simple(cmd);
	fprintf(stderr, "usernfsctl: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}
