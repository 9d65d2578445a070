/* The Prometheus listener (include/metrics_http.h). */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "metrics_http.h"
#include "stats.h"
#include "stats_print.h"
#include "rpc/svcthread.h"

struct hconn {
	int fd;			/* -1: free */
	int64_t deadline;
	size_t inlen;
	char in[METRICS_MAX_HEADER + 1];
	char *out;		/* the response, once the request is read */
	size_t outlen, outoff;
};

static int listen_fd = -1;
static struct svc_thread thread = SVC_THREAD_INIT;
static int conns_ready;		/* conns[] initialised (their fds -1) */
static struct hconn conns[METRICS_MAX_CONNS];

static void
hconn_close(struct hconn *c)
{
	close(c->fd);
	c->fd = -1;
	free(c->out);
	c->out = NULL;
	c->inlen = c->outlen = c->outoff = 0;
}

/* A complete response with a body; the connection closes after it. */
static void
respond(struct hconn *c, const char *status, const char *extra, const char *ctype,
    const char *body, size_t bodylen)
{
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);

	if (f == NULL)
		return;
	fprintf(f, "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
	    "Connection: close\r\n\r\n", status, ctype, bodylen, extra);
	fwrite(body, 1, bodylen, f);
	if (fclose(f) != 0) {
		free(out);
		return;
	}
	c->out = out;
	c->outlen = outlen;
	c->outoff = 0;
}

static void
respond_text(struct hconn *c, const char *status, const char *extra, const char *msg)
{
	respond(c, status, extra, "text/plain; charset=utf-8", msg, strlen(msg));
}

/* The header is complete (or cannot be): decide the response. */
static void
handle_request(struct hconn *c)
{
	char *sp1, *sp2, *path, *line_end;
	struct stats_snapshot *s;
	char *body = NULL;
	size_t bodylen = 0;
	FILE *f;

	line_end = strpbrk(c->in, "\r\n");
	if (line_end)
		*line_end = '\0';
	sp1 = strchr(c->in, ' ');
	sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (sp1 == NULL || sp2 == NULL || strncmp(sp2 + 1, "HTTP/", 5) != 0) {
		respond_text(c, "400 Bad Request", "", "bad request\n");
		return;
	}
	*sp1 = '\0';
	*sp2 = '\0';
	path = sp1 + 1;
	path[strcspn(path, "?")] = '\0';	/* a query string changes nothing */
	if (strcmp(c->in, "GET") != 0) {
		respond_text(c, "405 Method Not Allowed", "Allow: GET\r\n", "only GET\n");
		return;
	}
	if (strcmp(path, "/metrics") != 0) {
		respond_text(c, "404 Not Found", "", "not found; try /metrics\n");
		return;
	}
	if ((s = stats_snapshot()) == NULL || (f = open_memstream(&body, &bodylen)) == NULL) {
		free(s);
		respond_text(c, "500 Internal Server Error", "", "out of memory\n");
		return;
	}
	stats_print_prometheus(f, s);
	free(s);
	if (fclose(f) != 0) {
		free(body);
		respond_text(c, "500 Internal Server Error", "", "out of memory\n");
		return;
	}
	respond(c, "200 OK", "", "text/plain; version=0.0.4; charset=utf-8", body, bodylen);
	free(body);
}

static int
header_complete(const struct hconn *c)
{
	return strstr(c->in, "\r\n\r\n") != NULL || strstr(c->in, "\n\n") != NULL;
}

static void
hconn_readable(struct hconn *c)
{
	ssize_t n = read(c->fd, c->in + c->inlen, METRICS_MAX_HEADER - c->inlen);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		hconn_close(c);
		return;
	}
	c->inlen += (size_t)n;
	c->in[c->inlen] = '\0';
	if (memchr(c->in, '\0', c->inlen) != NULL) {
		respond_text(c, "400 Bad Request", "", "bad request\n");
		return;
	}
	if (header_complete(c))
		handle_request(c);
	else if (c->inlen == METRICS_MAX_HEADER)
		respond_text(c, "431 Request Header Fields Too Large", "", "request too large\n");
	if (c->out == NULL && c->inlen == METRICS_MAX_HEADER)
		hconn_close(c);	/* not even an error response could be made */
}

static void
hconn_writable(struct hconn *c)
{
	ssize_t n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff,
	    MSG_NOSIGNAL | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		hconn_close(c);
		return;
	}
	c->outoff += (size_t)n;
	if (c->outoff == c->outlen) {
		/* Whatever the client still sends is not read: say we are done writing. */
		shutdown(c->fd, SHUT_WR);
		hconn_close(c);
	}
}

static void
accept_all(void)
{
	for (;;) {
		int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct hconn *c = NULL;

		if (fd < 0)
			return;
		for (unsigned i = 0; i < METRICS_MAX_CONNS && c == NULL; i++)
			if (conns[i].fd < 0)
				c = &conns[i];
		if (c == NULL) {
			close(fd);	/* at the cap: refused, not queued */
			continue;
		}
		c->fd = fd;
		c->deadline = svc_now_ms() + METRICS_TIMEOUT_MS;
		c->inlen = 0;
		c->in[0] = '\0';
	}
}

static void *
metrics_main(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd p[METRICS_MAX_CONNS + 2];
		struct hconn *who[METRICS_MAX_CONNS + 2];
		int64_t now = svc_now_ms(), next = now + 1000;
		int n = 0;

		p[n] = (struct pollfd){ thread.stop_fd, POLLIN, 0 };
		who[n++] = NULL;
		p[n] = (struct pollfd){ listen_fd, POLLIN, 0 };
		who[n++] = NULL;
		for (unsigned i = 0; i < METRICS_MAX_CONNS; i++) {
			struct hconn *c = &conns[i];
			if (c->fd < 0)
				continue;
			if (c->deadline <= now) {
				hconn_close(c);	/* slow or stuck: its time is up */
				continue;
			}
			if (c->deadline < next)
				next = c->deadline;
			p[n] = (struct pollfd){ c->fd, c->out ? POLLOUT : POLLIN, 0 };
			who[n++] = c;
		}
		if (poll(p, (nfds_t)n, (int)(next - now)) < 0) {
			if (errno == EINTR)
				continue;
			log_warn("metrics: poll");
			return NULL;
		}
		if (p[0].revents)
			return NULL;
		for (int i = 2; i < n; i++) {
			struct hconn *c = who[i];
			if (p[i].revents == 0 || c->fd < 0)
				continue;
			if (c->out)
				hconn_writable(c);
			else
				hconn_readable(c);
			if (c->fd >= 0 && c->out && (p[i].revents & (POLLERR | POLLHUP)))
				hconn_close(c);
		}
		if (p[1].revents & POLLIN)
			accept_all();
	}
}

/* "ADDR:PORT", "[V6]:PORT", ":PORT" -> a socket address. */
static int
parse_spec(const char *spec, struct sockaddr_storage *ss, socklen_t *len)
{
	char host[256];
	const char *colon = strrchr(spec, ':'), *port;
	struct addrinfo hints, *res;
	size_t hl;
	int rc;
	unsigned long pnum;
	char *end;

	if (colon == NULL || colon[1] < '0' || colon[1] > '9')
		return -1;
	port = colon + 1;
	pnum = strtoul(port, &end, 10);
	if (*end != '\0' || pnum < 1 || pnum > 65535)
		return -1;	/* getaddrinfo would take 99999 as 34463 */
	hl = (size_t)(colon - spec);
	if (hl >= sizeof(host))
		return -1;
	memcpy(host, spec, hl);
	host[hl] = '\0';
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		memmove(host, host + 1, hl - 2);
		host[hl - 2] = '\0';
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
	if (rc != 0)
		return -1;
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int
metrics_http_start(const char *spec, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	int one = 1;

	for (unsigned i = 0; i < METRICS_MAX_CONNS; i++)
		conns[i].fd = -1;
	conns_ready = 1;
	if (parse_spec(spec, &ss, &sslen) < 0) {
		snprintf(err, errlen, "--metrics %s: want ADDR:PORT", spec);
		return -1;
	}
	listen_fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (listen_fd < 0 ||
	    setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(listen_fd, (struct sockaddr *)&ss, sslen) < 0 || listen(listen_fd, 64) < 0) {
		snprintf(err, errlen, "--metrics %s: %s", spec, strerror(errno));
		if (listen_fd >= 0)
			close(listen_fd);
		listen_fd = -1;
		return -1;
	}
	if (svc_thread_start(&thread, metrics_main, "metrics", err, errlen) < 0) {
		metrics_http_stop();
		return -1;
	}
	log_info("metrics: Prometheus exposition on http://%s/metrics", spec);
	return 0;
}

void
metrics_http_stop(void)
{
	svc_thread_stop(&thread);
	for (unsigned i = 0; conns_ready && i < METRICS_MAX_CONNS; i++)
		if (conns[i].fd >= 0)
			hconn_close(&conns[i]);
	if (listen_fd >= 0) {
		close(listen_fd);
		listen_fd = -1;
	}
}
