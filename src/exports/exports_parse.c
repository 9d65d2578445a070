/*
 * The exports(5) parser: one logical line at a time into a table, with
 * "file:line: message" errors; tables built in code (usernfsd --share) go
 * through the same checks. Option lists are exports_opts.c's; reading files
 * and exports.d is exports_load.c's.
 *
 * Parsing is a pure function of the text (plus name resolution) so it can be
 * unit-tested and fuzzed.
 */
#include "config.h"

#include <arpa/inet.h>
#include <fnmatch.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "exports.h"
#include "log.h"

#include "exports_impl.h"

/* Reports a problem not tied to a line: the caller writes the whole text. */
void
parser_report(struct parser *p, const char *fmt, ...)
{
	char msg[4200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->nerrors++;
	if (p->err)
		p->err(p->arg, msg);
}

/* Reports a problem at the current line as "file:line: msg". */
void
parser_err(struct parser *p, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Line 0: no file, an export built in code (exports_add). */
	if (p->line == 0)
		parser_report(p, "%s: %s", p->name, msg);
	else
		parser_report(p, "%s:%u: %s", p->name, p->line, msg);
}

void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (p == NULL)
		fatal("calloc");
	return p;
}

void *
xrealloc(void *old, size_t n, size_t sz)
{
	void *p = reallocarray(old, n ? n : 1, sz);

	if (p == NULL)
		fatal("realloc");
	return p;
}

char *
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
					parser_err(p, "\\000 is not allowed in a token");
					goto fail;
				}
			}
			if (len + 1 >= sizeof(buf)) {
				parser_err(p, "token longer than %d bytes", MAX_TOKEN - 1);
				goto fail;
			}
			buf[len++] = c;
		}
		if (quoted) {
			parser_err(p, "unterminated quote");
			goto fail;
		}
		if (!any)
			break;
		buf[len] = '\0';
		if (ntoks == cap) {
			cap = cap ? cap * 2 : 8;
			toks = xrealloc(toks, (size_t)cap, sizeof(*toks));
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
	/* A mask in address form, dotted for IPv4 or ffff:ff00:: style for IPv6. */
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

int
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
		parser_err(p, "cannot resolve host '%s': %s", name, gai_strerror(rc));
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

static void
set_single_addr(struct export_client *c, enum client_kind kind, const struct netaddr *a)
{
	c->kind = kind;
	c->addrs = xcalloc(1, sizeof(*a));
	c->addrs[0] = *a;
	c->naddrs = 1;
}

/* fnmatch would take an unclosed '[' literally, which is never what was meant. */
static int
pattern_ok(const char *s)
{
	const char *lb = strchr(s, '[');

	while (lb) {
		/* "[]...]" and "[!]...]": the first ']' belongs to the set. */
		const char *q = lb + 1;

		if (*q == '!' || *q == '^')
			q++;
		if (*q == ']')
			q++;
		q = strchr(q, ']');
		if (q == NULL)
			return 0;
		lb = strchr(q + 1, '[');
	}
	return 1;
}

static int
parse_host(struct parser *p, const char *spec, struct export_client *c)
{
	char *slash;
	struct netaddr a;

	if (strcmp(spec, "*") == 0 || *spec == '\0') {
		/* A bare "(opts)" is everyone, and is listed as "*" like nfs-utils does. */
		c->spec = xstrdup("*");
		c->kind = CLIENT_ANY;
		return 0;
	}
	c->spec = xstrdup(spec);
	if (spec[0] == '@') {
		if (spec[1] == '\0') {
			parser_err(p, "empty netgroup name in '%s'", spec);
			return -1;
		}
		c->kind = CLIENT_NETGROUP;
		return 0;
	}
	/* nfs-utils' old spelling of sec=krb5 and friends. */
	if (strncmp(spec, "gss/", 4) == 0) {
		parser_err(p, "'%s': Kerberos is not supported", spec);
		return -1;
	}
	slash = strchr(c->spec, '/');
	if (slash) {
		int bad;

		*slash = '\0';
		bad = parse_address(c->spec, &a) < 0 || parse_netmask(slash + 1, a.family, &a.prefix) < 0;
		*slash = '/';
		if (bad) {
			parser_err(p, "bad network '%s'", spec);
			return -1;
		}
		set_single_addr(c, CLIENT_NET, &a);
		return 0;
	}
	if (parse_address(spec, &a) == 0) {
		set_single_addr(c, CLIENT_HOST, &a);
		return 0;
	}
	/* No host name has a colon: this is a mistyped IPv6 address (or one in brackets). */
	if (strchr(spec, ':')) {
		parser_err(p, "bad address '%s'", spec);
		return -1;
	}
	if (strpbrk(spec, "*?[")) {
		if (!pattern_ok(spec)) {
			parser_err(p, "unclosed '[' in wildcard '%s'", spec);
			return -1;
		}
		c->kind = CLIENT_WILDCARD;
		return 0;
	}
	c->kind = CLIENT_HOST;
	return resolve_name(p, spec, c);
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

static void
add_client(struct export *e, const struct export_client *c)
{
	e->clients = xrealloc(e->clients, e->nclients + 1, sizeof(*e->clients));
	e->clients[e->nclients++] = *c;
}

static void
free_client(struct export_client *c)
{
	free(c->spec);
	free(c->addrs);
	free(c->opts.mountpoint);
}

static void
free_export(struct export *e)
{
	for (size_t k = 0; k < e->nclients; k++)
		free_client(&e->clients[k]);
	free(e->clients);
	free(e->path);
	free(e->file);
	if (e->root.rootfd >= 0)
		close(e->root.rootfd);
}

static int
parse_client_token(struct parser *p, const char *tok, const struct export_opts *defaults,
    struct export_client *c)
{
	char host[MAX_TOKEN];
	const char *paren = strchr(tok, '(');
	size_t hlen = paren ? (size_t)(paren - tok) : strlen(tok);

	memset(c, 0, sizeof(*c));
	opts_copy(&c->opts, defaults);
	if (hlen >= sizeof(host))
		goto fail;
	memcpy(host, tok, hlen);
	host[hlen] = '\0';
	if (paren) {
		size_t olen = strlen(paren);
		char opts[MAX_TOKEN];

		if (olen < 2 || paren[olen - 1] != ')' || memchr(paren + 1, '(', olen - 2)) {
			parser_err(p, "bad option list in '%s'", tok);
			goto fail;
		}
		memcpy(opts, paren + 1, olen - 2);
		opts[olen - 2] = '\0';
		if (apply_options(p, opts, &c->opts) < 0)
			goto fail;
	}
	opts_finish(&c->opts);
	if (parse_host(p, host, c) < 0)
		goto fail;
	return 0;
fail:
	free_client(c);
	return -1;
}

static int
same_client(const struct export_client *a, const struct export_client *b)
{
	/* Host names and IPv6 hex digits are case-insensitive. */
	return strcasecmp(a->spec, b->spec) == 0;
}

/*
 * fsid= is written per client but names the export: entries that give it
 * must agree. The export id is that value, or else the path hash.
 */
static int
resolve_export_id(struct parser *p, struct export *e)
{
	const struct export_client *first = NULL;

	for (size_t k = 0; k < e->nclients; k++) {
		const struct export_client *c = &e->clients[k];

		if (!(c->opts.flags & EXP_FSID))
			continue;
		if (first == NULL) {
			first = c;
		} else if (c->opts.fsid != first->opts.fsid) {
			parser_err(p, "clients '%s' and '%s' of %s give different fsid= values (%u and %u)",
			    first->spec, c->spec, e->path, (unsigned)first->opts.fsid,
			    (unsigned)c->opts.fsid);
			return -1;
		}
	}
	if (first) {
		e->root.id = first->opts.fsid;
		e->fsid_set = 1;
		e->pseudo_root = e->root.id == 0;
	} else {
		e->root.id = hash_id(e->path, strlen(e->path));
	}
	return 0;
}

/* "line 3" within the file being parsed, "other:3" across files. */
static const char *
where(const struct parser *p, const struct export *other, char *buf, size_t len)
{
	if (other->line == 0)
		snprintf(buf, len, "%s", other->file);
	else if (strcmp(other->file, p->name) == 0)
		snprintf(buf, len, "line %u", other->line);
	else
		snprintf(buf, len, "%s:%u", other->file, other->line);
	return buf;
}

static int
check_unique(struct parser *p, const struct export *e, const struct export_table *t)
{
	char at[PATH_MAX + 32];

	for (size_t k = 0; k < t->n; k++) {
		const struct export *o = &t->exports[k];

		if (strcmp(o->path, e->path) == 0) {
			parser_err(p, "%s is already exported at %s", e->path, where(p, o, at, sizeof(at)));
			return -1;
		}
		if (o->root.id == e->root.id) {
			parser_err(p, "export id %u of %s is already used by %s at %s%s", (unsigned)e->root.id,
			    e->path, o->path, where(p, o, at, sizeof(at)),
			    e->fsid_set ? "" : " (set fsid= on one of them)");
			return -1;
		}
	}
	return 0;
}

static int
parse_clients(struct parser *p, char **toks, int ntoks, struct export *e,
    const struct export_opts *defaults)
{
	for (int i = 0; i < ntoks; i++) {
		struct export_client c;

		if (toks[i][0] == '-') {
			parser_err(p, "default options '%s' must come right after the path", toks[i]);
			return -1;
		}
		if (parse_client_token(p, toks[i], defaults, &c) < 0)
			return -1;
		for (size_t k = 0; k < e->nclients; k++)
			if (same_client(&e->clients[k], &c)) {
				parser_err(p, "client '%s' listed twice for %s", c.spec, e->path);
				free_client(&c);
				return -1;
			}
		add_client(e, &c);
	}
	if (e->nclients == 0) {
		/* nfs-utils exports to the world here, with a warning; so do we. */
		struct export_client c = { .kind = CLIENT_ANY, .spec = xstrdup("*") };

		opts_copy(&c.opts, defaults);
		opts_finish(&c.opts);
		add_client(e, &c);
	}
	return 0;
}

static void
parse_line(struct parser *p, char **toks, int ntoks, struct export_table *t)
{
	struct export e = { .root.rootfd = -1, .line = p->line };
	struct export_opts defaults = default_opts();
	int i = 1;

	if (check_path(p, "export path", toks[0]) < 0)
		return;
	e.path = strip_slashes(toks[0]);
	e.root.path = e.path;
	e.file = xstrdup(p->name);
	if (i < ntoks && toks[i][0] == '-') {
		if (apply_options(p, toks[i] + 1, &defaults) < 0)
			goto fail;
		i++;
	}
	if (parse_clients(p, toks + i, ntoks - i, &e, &defaults) < 0 ||
	    resolve_export_id(p, &e) < 0 || check_unique(p, &e, t) < 0)
		goto fail;
	t->exports = xrealloc(t->exports, t->n + 1, sizeof(*t->exports));
	t->exports[t->n++] = e;
	free(defaults.mountpoint);
	return;
fail:
	free(defaults.mountpoint);
	free_export(&e);
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
			*buf = xrealloc(*buf, *cap, 1);
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

/* Adds the exports in text to t; problems are counted in p->nerrors. */
void
exports_parse_into(struct parser *p, const char *text, struct export_table *t)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned used, next = 1;

	while ((text = next_logical_line(text, &line, &cap, &used)) != NULL) {
		char **toks;
		int ntoks;

		p->line = next;
		next += used;
		ntoks = tokenize(p, line, &toks);
		if (ntoks > 0)
			parse_line(p, toks, ntoks, t);
		for (int i = 0; i < ntoks; i++)
			free(toks[i]);
		if (ntoks > 0)
			free(toks);
	}
	free(line);
}

struct export_table *
exports_table_new(void)
{
	struct export_table *t = xcalloc(1, sizeof(*t));

	pthread_mutex_init(&t->sublock, NULL);
	return t;
}

struct export_table *
exports_parse_text(const char *name, const char *text, exports_err_fn err, void *arg)
{
	struct parser p = { .name = name, .err = err, .arg = arg };
	struct export_table *t = exports_table_new();

	exports_parse_into(&p, text, t);
	if (p.nerrors) {
		exports_free(t);
		return NULL;
	}
	t->refs = 1;
	return t;
}

/* ---- tables built in code (usernfsd --share) ---- */

struct export_table *
exports_new(void)
{
	return exports_table_new();
}

int
exports_add(struct export_table *t, const char *what, const char *path,
    const char *const *clients, size_t nclients, const char *opts,
    exports_err_fn err, void *arg)
{
	struct parser p = { .name = what, .err = err, .arg = arg };
	struct export e = { .root.rootfd = -1 };
	struct export_opts o = default_opts();

	if (check_path(&p, "export path", path) < 0 || apply_options(&p, opts, &o) < 0)
		goto fail;
	e.path = strip_slashes(path);
	e.root.path = e.path;
	e.file = xstrdup(what);
	if (nclients == 0) {
		parser_err(&p, "no clients for %s", e.path);
		goto fail;
	}
	for (size_t i = 0; i < nclients; i++) {
		struct export_client c;

		/* What parse_client_token does for "client(opts)", opts parsed once. */
		memset(&c, 0, sizeof(c));
		opts_copy(&c.opts, &o);
		opts_finish(&c.opts);
		if (parse_host(&p, clients[i], &c) < 0) {
			free_client(&c);
			goto fail;
		}
		for (size_t k = 0; k < e.nclients; k++)
			if (same_client(&e.clients[k], &c)) {
				parser_err(&p, "client '%s' given twice", c.spec);
				free_client(&c);
				goto fail;
			}
		add_client(&e, &c);
	}
	if (resolve_export_id(&p, &e) < 0 || check_unique(&p, &e, t) < 0)
		goto fail;
	t->exports = xrealloc(t->exports, t->n + 1, sizeof(*t->exports));
	t->exports[t->n++] = e;
	free(o.mountpoint);
	return 0;
fail:
	free(o.mountpoint);
	free_export(&e);
	return -1;
}

int
exports_open(struct export_table *t, exports_err_fn err, void *arg)
{
	struct parser p = { .name = "", .err = err, .arg = arg };

	exports_open_roots(&p, t);
	if (p.nerrors)
		return -1;
	t->refs = 1;
	return 0;
}

void
exports_free(struct export_table *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->n; i++)
		free_export(&t->exports[i]);
	free(t->exports);
	/* Submounts borrow their parent's clients: only their own parts go. */
	for (size_t i = 0; i < t->nsubs; i++) {
		free(t->subs[i]->path);
		if (t->subs[i]->root.rootfd >= 0)
			close(t->subs[i]->root.rootfd);
		free(t->subs[i]);
	}
	free(t->subs);
	pthread_mutex_destroy(&t->sublock);
	free(t);
}

uint32_t
exports_path_id(const char *path)
{
	return hash_id(path, strlen(path));
}
