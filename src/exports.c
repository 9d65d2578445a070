/*
 * exports(5) parser and client matching.
 *
 * Parsing is a pure function of the text (plus name resolution) so it can be
 * unit-tested and fuzzed; opening the export roots is a separate step.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exports.h"
#include "log.h"

#define MAX_EXPORTS_FILE (4u << 20)
#define MAX_TOKEN 4096

struct parser {
	const char *name;
	unsigned line;
	exports_err_fn err;
	void *arg;
	int nerrors;
};

static void PRINTFLIKE(2, 3)
perr(struct parser *p, const char *fmt, ...)
{
	char msg[1024], full[1200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "%s:%u: %s", p->name, p->line, msg);
	p->nerrors++;
	if (p->err)
		p->err(p->arg, full);
}

static void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (p == NULL)
		fatal("calloc");
	return p;
}

static char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL)
		fatal("strdup");
	return d;
}

/* ---- tokenizer: one logical line at a time ---- */

/*
 * Splits one logical line (continuations already joined) into tokens.
 * Handles double quotes and \ooo octal escapes; stops at an unquoted '#'.
 * Returns the number of tokens, or -1 after reporting an error.
 */
static int
tokenize(struct parser *p, const char *s, char ***out)
{
	char **toks = NULL;
	int ntoks = 0, cap = 0;
	char buf[MAX_TOKEN];

	for (;;) {
		size_t len = 0;
		int quoted = 0, any = 0;

		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\0' || *s == '#' || *s == '\n')
			break;
		while (*s && *s != '\n' && (quoted || (*s != ' ' && *s != '\t' && *s != '#' && *s != '\r'))) {
			char c = *s++;

			any = 1;
			if (c == '"') {
				quoted = !quoted;
				continue;
			}
			if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' &&
			    s[2] >= '0' && s[2] <= '7') {
				c = (char)((s[0] - '0') << 6 | (s[1] - '0') << 3 | (s[2] - '0'));
				s += 3;
				if (c == '\0') {
					perr(p, "\\000 is not allowed in a token");
					goto fail;
				}
			}
			if (len + 1 >= sizeof(buf)) {
				perr(p, "token longer than %d bytes", MAX_TOKEN - 1);
				goto fail;
			}
			buf[len++] = c;
		}
		if (quoted) {
			perr(p, "unterminated quote");
			goto fail;
		}
		if (!any)
			break;
		buf[len] = '\0';
		if (ntoks == cap) {
			cap = cap ? cap * 2 : 8;
			toks = realloc(toks, (size_t)cap * sizeof(*toks));
			if (toks == NULL)
				fatal("realloc");
		}
		toks[ntoks++] = xstrdup(buf);
	}
	*out = toks;
	return ntoks;
fail:
	for (int i = 0; i < ntoks; i++)
		free(toks[i]);
	free(toks);
	return -1;
}

/* ---- options ---- */

static int
parse_id(const char *v, unsigned *out)
{
	char *end;
	unsigned long n;

	if (*v == '\0' || !isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || n > UINT32_MAX - 1)
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* The option given for each group so far, to report ro+rw style conflicts. */
#define OPT_GROUPS 8
struct optseen {
	const char *given[OPT_GROUPS];
};

static int
apply_option(struct parser *p, const char *opt, struct export_opts *o, struct optseen *seen)
{
	/* Options in the same group contradict each other. */
	static const struct {
		const char *name;
		unsigned set, clear;
		int group;
	} flags[] = {
		{ "ro", EXP_RO, 0, 1 },
		{ "rw", 0, EXP_RO, 1 },
		{ "root_squash", EXP_ROOT_SQUASH, 0, 2 },
		{ "no_root_squash", 0, EXP_ROOT_SQUASH, 2 },
		{ "all_squash", EXP_ALL_SQUASH, 0, 3 },
		{ "no_all_squash", 0, EXP_ALL_SQUASH, 3 },
		{ "secure", EXP_SECURE, 0, 4 },
		{ "insecure", 0, EXP_SECURE, 4 },
		{ "sync", 0, EXP_ASYNC, 5 },
		{ "async", EXP_ASYNC, 0, 5 },
		/* Accepted for compatibility; see usernfsd.8 for what they mean here. */
		{ "no_subtree_check", 0, 0, 6 },
		{ "subtree_check", 0, 0, 6 },
		{ "wdelay", 0, 0, 7 },
		{ "no_wdelay", 0, 0, 7 },
	};
	const char *eq = strchr(opt, '=');
	unsigned id;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		if (strcmp(opt, flags[i].name) != 0)
			continue;
		const char **prev = &seen->given[flags[i].group];

		if (*prev && strcmp(*prev, opt) != 0) {
			perr(p, "conflicting options '%s' and '%s'", *prev, opt);
			return -1;
		}
		*prev = flags[i].name;
		o->flags = (o->flags | flags[i].set) & ~flags[i].clear;
		return 0;
	}
	if (eq && (strncmp(opt, "anonuid=", 8) == 0 || strncmp(opt, "anongid=", 8) == 0)) {
		if (parse_id(eq + 1, &id) < 0) {
			perr(p, "bad number in option '%s'", opt);
			return -1;
		}
		if (opt[4] == 'u')
			o->anonuid = id;
		else
			o->anongid = id;
		return 0;
	}
	if (strcmp(opt, "sec=sys") == 0)
		return 0;
	perr(p, "unknown option '%s'", opt);
	return -1;
}

static int
apply_options(struct parser *p, const char *list, struct export_opts *o)
{
	char buf[MAX_TOKEN], *save = NULL, *opt;
	struct optseen seen = { 0 };
	int rc = 0;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	for (opt = strtok_r(buf, ",", &save); opt; opt = strtok_r(NULL, ",", &save))
		if (apply_option(p, opt, o, &seen) < 0)
			rc = -1;
	return rc;
}

/* ---- hosts ---- */

static int
parse_netmask(const char *s, int family, unsigned *prefix)
{
	uint8_t m[16];
	unsigned bits = 0, len = family == AF_INET ? 4 : 16;
	int done = 0;

	if (strchr(s, '.') == NULL && strchr(s, ':') == NULL) {
		if (parse_id(s, prefix) < 0 || *prefix > len * 8)
			return -1;
		return 0;
	}
	if (inet_pton(family, s, m) != 1)
		return -1;
	for (unsigned i = 0; i < len * 8; i++) {
		int bit = (m[i / 8] >> (7 - i % 8)) & 1;
		if (bit && done)
			return -1;	/* not contiguous */
		if (bit)
			bits++;
		else
			done = 1;
	}
	*prefix = bits;
	return 0;
}

static int
parse_address(const char *s, struct netaddr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->addr) == 1) {
		a->family = AF_INET;
		a->prefix = 32;
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->addr) == 1) {
		a->family = AF_INET6;
		a->prefix = 128;
		return 0;
	}
	return -1;
}

static int
resolve_name(struct parser *p, const char *name, struct export_client *c)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *res, *ai;
	size_t n = 0;
	int rc;

	rc = getaddrinfo(name, NULL, &hints, &res);
	if (rc != 0) {
		perr(p, "cannot resolve host '%s': %s", name, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next)
		n++;
	c->addrs = xcalloc(n, sizeof(*c->addrs));
	for (ai = res; ai; ai = ai->ai_next)
		if (netaddr_from_sockaddr(ai->ai_addr, &c->addrs[c->naddrs]) == 0)
			c->naddrs++;
	freeaddrinfo(res);
	return 0;
}

static int
parse_host(struct parser *p, const char *spec, struct export_client *c)
{
	char buf[MAX_TOKEN];
	char *slash;
	struct netaddr a;

	c->spec = xstrdup(spec);
	if (strcmp(spec, "*") == 0 || *spec == '\0') {
		c->kind = CLIENT_ANY;
		return 0;
	}
	if (strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		if (parse_address(buf, &a) < 0 || parse_netmask(slash + 1, a.family, &a.prefix) < 0) {
			perr(p, "bad network '%s'", spec);
			return -1;
		}
		c->kind = CLIENT_NET;
		c->addrs = xcalloc(1, sizeof(a));
		c->addrs[0] = a;
		c->naddrs = 1;
		return 0;
	}
	c->kind = CLIENT_HOST;
	if (parse_address(buf, &a) == 0) {
		c->addrs = xcalloc(1, sizeof(a));
		c->addrs[0] = a;
		c->naddrs = 1;
		return 0;
	}
	if (buf[0] == '@' || strpbrk(buf, "*?[")) {
		perr(p, "host form '%s' is not supported yet", spec);
		return -1;
	}
	return resolve_name(p, buf, c);
}

/* ---- lines ---- */

static struct export_opts
default_opts(void)
{
	struct export_opts o = {
		.flags = EXP_RO | EXP_ROOT_SQUASH | EXP_SECURE,
		.anonuid = EXP_ANON_ID,
		.anongid = EXP_ANON_ID,
	};
	return o;
}

static uint32_t
path_id(const char *path)
{
	/* FNV-1a: stable across runs and machines, which handles need. */
	uint32_t h = 2166136261u;

	for (; *path; path++)
		h = (h ^ (uint8_t)*path) * 16777619u;
	return h ? h : 1;
}

static int
canonical_path(struct parser *p, const char *in, char **out)
{
	size_t len = strlen(in);
	char *s;

	if (in[0] != '/') {
		perr(p, "export path '%s' is not absolute", in);
		return -1;
	}
	if (strstr(in, "/../") || strstr(in, "/./") || strstr(in, "//") ||
	    (len >= 3 && strcmp(in + len - 3, "/..") == 0) ||
	    (len >= 2 && strcmp(in + len - 2, "/.") == 0)) {
		perr(p, "export path '%s' is not canonical", in);
		return -1;
	}
	s = xstrdup(in);
	while (len > 1 && s[len - 1] == '/')
		s[--len] = '\0';
	*out = s;
	return 0;
}

static void
add_client(struct export *e, const struct export_client *c)
{
	struct export_client *n = realloc(e->clients, (e->nclients + 1) * sizeof(*n));

	if (n == NULL)
		fatal("realloc");
	e->clients = n;
	e->clients[e->nclients++] = *c;
}

static void
free_client(struct export_client *c)
{
	free(c->spec);
	free(c->addrs);
}

static int
parse_client_token(struct parser *p, const char *tok, const struct export_opts *defaults,
    struct export_client *c)
{
	char host[MAX_TOKEN];
	const char *paren = strchr(tok, '(');
	size_t hlen = paren ? (size_t)(paren - tok) : strlen(tok);

	memset(c, 0, sizeof(*c));
	c->opts = *defaults;
	if (hlen >= sizeof(host))
		return -1;
	memcpy(host, tok, hlen);
	host[hlen] = '\0';
	if (paren) {
		size_t olen = strlen(paren);
		char opts[MAX_TOKEN];

		if (olen < 2 || paren[olen - 1] != ')' || memchr(paren + 1, '(', olen - 2)) {
			perr(p, "bad option list in '%s'", tok);
			return -1;
		}
		memcpy(opts, paren + 1, olen - 2);
		opts[olen - 2] = '\0';
		if (apply_options(p, opts, &c->opts) < 0)
			return -1;
	}
	if (parse_host(p, host, c) < 0) {
		free_client(c);
		return -1;
	}
	return 0;
}

static int
same_client(const struct export_client *a, const struct export_client *b)
{
	return strcmp(a->spec, b->spec) == 0;
}

static void
parse_line(struct parser *p, char **toks, int ntoks, struct export_table *t)
{
	struct export e = { .rootfd = -1, .line = p->line };
	struct export_opts defaults = default_opts();
	int i = 1;

	if (canonical_path(p, toks[0], &e.path) < 0)
		return;
	if (i < ntoks && toks[i][0] == '-') {
		if (apply_options(p, toks[i] + 1, &defaults) < 0)
			goto fail;
		i++;
	}
	for (; i < ntoks; i++) {
		struct export_client c;

		if (parse_client_token(p, toks[i], &defaults, &c) < 0)
			goto fail;
		for (size_t k = 0; k < e.nclients; k++)
			if (same_client(&e.clients[k], &c)) {
				perr(p, "client '%s' listed twice for %s", c.spec, e.path);
				free_client(&c);
				goto fail;
			}
		add_client(&e, &c);
	}
	if (e.nclients == 0) {
		/* nfs-utils exports to the world here, with a warning; so do we. */
		struct export_client c = { .kind = CLIENT_ANY, .spec = xstrdup("*"), .opts = defaults };
		add_client(&e, &c);
	}
	e.id = path_id(e.path);
	for (size_t k = 0; k < t->n; k++) {
		if (strcmp(t->exports[k].path, e.path) == 0) {
			perr(p, "%s is already exported at line %u", e.path, t->exports[k].line);
			goto fail;
		}
		if (t->exports[k].id == e.id) {
			perr(p, "export id of %s collides with %s", e.path, t->exports[k].path);
			goto fail;
		}
	}
	t->exports = realloc(t->exports, (t->n + 1) * sizeof(*t->exports));
	if (t->exports == NULL)
		fatal("realloc");
	t->exports[t->n++] = e;
	return;
fail:
	for (size_t k = 0; k < e.nclients; k++)
		free_client(&e.clients[k]);
	free(e.clients);
	free(e.path);
}

/*
 * Copies one logical line (joining "\\\n" continuations) into buf.
 * Returns a pointer past it, or NULL at the end of text.
 */
static const char *
next_logical_line(const char *s, char **buf, size_t *cap, unsigned *lines_used)
{
	size_t len = 0;

	*lines_used = 0;
	if (*s == '\0')
		return NULL;
	for (;;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		int cont = n > 0 && s[n - 1] == '\\';

		if (cont)
			n--;
		if (len + n + 2 > *cap) {
			*cap = (len + n + 2) * 2;
			*buf = realloc(*buf, *cap);
			if (*buf == NULL)
				fatal("realloc");
		}
		memcpy(*buf + len, s, n);
		len += n;
		(*buf)[len++] = cont ? ' ' : '\0';
		(*lines_used)++;
		s = nl ? nl + 1 : s + strlen(s);
		if (!cont || *s == '\0')
			break;
	}
	(*buf)[len] = '\0';
	return s;
}

struct export_table *
exports_parse_text(const char *name, const char *text, exports_err_fn err, void *arg)
{
	struct parser p = { .name = name, .err = err, .arg = arg };
	struct export_table *t = xcalloc(1, sizeof(*t));
	char *line = NULL;
	size_t cap = 0;
	unsigned used, next = 1;

	while ((text = next_logical_line(text, &line, &cap, &used)) != NULL) {
		char **toks;
		int ntoks;

		p.line = next;
		next += used;
		ntoks = tokenize(&p, line, &toks);
		if (ntoks > 0)
			parse_line(&p, toks, ntoks, t);
		for (int i = 0; i < ntoks; i++)
			free(toks[i]);
		if (ntoks > 0)
			free(toks);
	}
	free(line);
	if (p.nerrors) {
		exports_free(t);
		return NULL;
	}
	t->refs = 1;
	return t;
}

static char *
read_file(const char *file, exports_err_fn err, void *arg)
{
	char msg[4200];
	struct stat st;
	char *buf;
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size > (off_t)MAX_EXPORTS_FILE) {
		snprintf(msg, sizeof(msg), "%s: %s", file,
		    fd < 0 || errno ? strerror(errno) : "file too large");
		if (fd >= 0)
			close(fd);
		err(arg, msg);
		return NULL;
	}
	buf = xcalloc((size_t)st.st_size + 1, 1);
	n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n != st.st_size) {
		snprintf(msg, sizeof(msg), "%s: short read", file);
		err(arg, msg);
		free(buf);
		return NULL;
	}
	if (memchr(buf, '\0', (size_t)n)) {
		snprintf(msg, sizeof(msg), "%s: contains a NUL byte", file);
		err(arg, msg);
		free(buf);
		return NULL;
	}
	return buf;
}

static int
open_roots(const char *file, struct export_table *t, exports_err_fn err, void *arg)
{
	char msg[4200];
	int bad = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct export *e = &t->exports[i];
		struct stat st;

		/* Readable, not O_PATH: open_by_handle_at refuses an O_PATH mount fd. */
		e->rootfd = open(e->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (e->rootfd < 0 && errno == EACCES)
			e->rootfd = open(e->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (e->rootfd < 0 || fstat(e->rootfd, &st) < 0) {
			snprintf(msg, sizeof(msg), "%s:%u: cannot open export %s: %s",
			    file, e->line, e->path, strerror(errno));
			err(arg, msg);
			bad = 1;
			continue;
		}
		e->dev = st.st_dev;
		e->ino = st.st_ino;
	}
	return bad ? -1 : 0;
}

struct export_table *
exports_load(const char *file, exports_err_fn err, void *arg)
{
	char *text = read_file(file, err, arg);
	struct export_table *t;

	if (text == NULL)
		return NULL;
	t = exports_parse_text(file, text, err, arg);
	free(text);
	if (t && open_roots(file, t, err, arg) < 0) {
		exports_free(t);
		t = NULL;
	}
	return t;
}

void
exports_free(struct export_table *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->n; i++) {
		struct export *e = &t->exports[i];

		for (size_t k = 0; k < e->nclients; k++)
			free_client(&e->clients[k]);
		free(e->clients);
		free(e->path);
		if (e->rootfd >= 0)
			close(e->rootfd);
	}
	free(t->exports);
	free(t);
}

static void
print_opts(FILE *out, const struct export_opts *o)
{
	fprintf(out, "%s,%s,%s,%s,%s,anonuid=%u,anongid=%u",
	    o->flags & EXP_RO ? "ro" : "rw",
	    o->flags & EXP_ASYNC ? "async" : "sync",
	    o->flags & EXP_SECURE ? "secure" : "insecure",
	    o->flags & EXP_ROOT_SQUASH ? "root_squash" : "no_root_squash",
	    o->flags & EXP_ALL_SQUASH ? "all_squash" : "no_all_squash",
	    (unsigned)o->anonuid, (unsigned)o->anongid);
}

void
exports_print(FILE *out, const struct export_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct export *e = &t->exports[i];

		for (size_t k = 0; k < e->nclients; k++) {
			fprintf(out, "%s\t%s(", e->path, e->clients[k].spec);
			print_opts(out, &e->clients[k].opts);
			fprintf(out, ",fsid=%u)\n", (unsigned)e->id);
		}
	}
}

/* ---- the table in force ---- */

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct export_table *current;

void
exports_install(struct export_table *t)
{
	struct export_table *old;

	pthread_mutex_lock(&table_lock);
	old = current;
	current = t;
	pthread_mutex_unlock(&table_lock);
	if (old)
		exports_release(old);
}

struct export_table *
exports_acquire(void)
{
	struct export_table *t;

	pthread_mutex_lock(&table_lock);
	t = current;
	if (t)
		t->refs++;
	pthread_mutex_unlock(&table_lock);
	return t;
}

void
exports_release(struct export_table *t)
{
	int last;

	if (t == NULL)
		return;
	pthread_mutex_lock(&table_lock);
	last = --t->refs == 0;
	pthread_mutex_unlock(&table_lock);
	if (last)
		exports_free(t);
}

const struct export *
exports_find_id(const struct export_table *t, uint32_t id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->exports[i].id == id)
			return &t->exports[i];
	return NULL;
}

const struct export *
exports_find_path(const struct export_table *t, const char *path, const char **rest)
{
	const struct export *best = NULL;
	size_t bestlen = 0;

	for (size_t i = 0; i < t->n; i++) {
		const char *ep = t->exports[i].path;
		size_t len = strcmp(ep, "/") == 0 ? 0 : strlen(ep);

		/* Whole components only: /srv/a must not cover /srv/ab. */
		if (strncmp(path, ep, len) != 0 || (path[len] != '\0' && path[len] != '/'))
			continue;
		if (best == NULL || len >= bestlen) {
			best = &t->exports[i];
			bestlen = len;
		}
	}
	if (best) {
		const char *r = path + bestlen;
		while (*r == '/')
			r++;
		*rest = r;
	}
	return best;
}

int
netaddr_from_sockaddr(const struct sockaddr *sa, struct netaddr *out)
{
	memset(out, 0, sizeof(*out));
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;
		out->family = AF_INET;
		memcpy(out->addr, &sin->sin_addr, 4);
		out->prefix = 32;
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
		if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
			out->family = AF_INET;
			memcpy(out->addr, &sin6->sin6_addr.s6_addr[12], 4);
			out->prefix = 32;
		} else {
			out->family = AF_INET6;
			memcpy(out->addr, &sin6->sin6_addr, 16);
			out->prefix = 128;
		}
		return 0;
	}
	return -1;
}

static int
net_contains(const struct netaddr *net, const struct netaddr *a)
{
	unsigned full = net->prefix / 8, rem = net->prefix % 8;

	if (net->family != a->family)
		return 0;
	if (memcmp(net->addr, a->addr, full) != 0)
		return 0;
	if (rem) {
		uint8_t mask = (uint8_t)(0xff << (8 - rem));
		if ((net->addr[full] & mask) != (a->addr[full] & mask))
			return 0;
	}
	return 1;
}

const struct export_client *
export_match(const struct export *e, const struct sockaddr *addr)
{
	const struct export_client *best = NULL;
	struct netaddr a;

	if (netaddr_from_sockaddr(addr, &a) < 0)
		return NULL;
	for (size_t i = 0; i < e->nclients; i++) {
		const struct export_client *c = &e->clients[i];
		int hit = c->kind == CLIENT_ANY;

		for (size_t k = 0; !hit && k < c->naddrs; k++)
			hit = net_contains(&c->addrs[k], &a);
		if (hit && (best == NULL || c->kind < best->kind))
			best = c;
	}
	return best;
}
