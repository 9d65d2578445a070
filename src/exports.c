/*
 * exports(5) parser and client matching.
 *
 * Parsing is a pure function of the text (plus name resolution) so it can be
 * unit-tested and fuzzed; reading exports.d and opening the export roots are
 * separate steps of exports_load().
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exports.h"
#include "log.h"

#define MAX_EXPORTS_FILE (4u << 20)
#define MAX_TOKEN 4096

struct parser {
	const char *name;	/* file name used in messages */
	unsigned line;
	exports_err_fn err;
	void *arg;
	int nerrors;
};

/* Reports a problem not tied to a line: the caller writes the whole text. */
static void PRINTFLIKE(2, 3)
report(struct parser *p, const char *fmt, ...)
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
static void PRINTFLIKE(2, 3)
perr(struct parser *p, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Line 0: no file, an export built in code (exports_add). */
	if (p->line == 0)
		report(p, "%s: %s", p->name, msg);
	else
		report(p, "%s:%u: %s", p->name, p->line, msg);
}

static void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (p == NULL)
		fatal("calloc");
	return p;
}

static void *
xrealloc(void *old, size_t n, size_t sz)
{
	void *p = reallocarray(old, n ? n : 1, sz);

	if (p == NULL)
		fatal("realloc");
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

/* ---- options ---- */

/* uid and gid values: (uid_t)-1 means "unchanged" to the kernel, so refuse it. */
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

static int
parse_u32(const char *v, uint32_t *out)
{
	char *end;
	unsigned long n;

	if (*v == '\0' || !isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || n > UINT32_MAX)
		return -1;
	*out = (uint32_t)n;
	return 0;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * A UUID as nfs-utils takes it: 32 hex digits with any punctuation between
 * them, which covers 8-4-4-4-12, plain, colon-separated and {braced} forms.
 */
static int
parse_uuid(const char *s, uint8_t out[16])
{
	unsigned n = 0;

	for (; *s; s++) {
		int v = hexval(*s);

		if (v < 0) {
			if (!ispunct((unsigned char)*s))
				return -1;
			continue;
		}
		if (n == 32)
			return -1;
		if (n % 2 == 0)
			out[n / 2] = (uint8_t)(v << 4);
		else
			out[n / 2] |= (uint8_t)v;
		n++;
	}
	return n == 32 ? 0 : -1;
}

/* FNV-1a, never 0: 0 is reserved for fsid=root. Stable, as handles need. */
static uint32_t
hash_id(const void *data, size_t len)
{
	const uint8_t *b = data;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 16777619u;
	return h ? h : 1;
}

/* fsid=N, fsid=root (same as 0) or fsid=UUID (folded to 32 bits). */
static int
parse_fsid(const char *v, uint32_t *id)
{
	uint8_t uuid[16];

	if (strcmp(v, "root") == 0) {
		*id = 0;
		return 0;
	}
	/* 32 decimal digits cannot be a 32-bit number, but can be a UUID. */
	if (parse_uuid(v, uuid) == 0) {
		*id = hash_id(uuid, sizeof(uuid));
		return 0;
	}
	return parse_u32(v, id);
}

/* Export paths and mountpoint= paths: absolute, without . or .. or //. */
static int
check_path(struct parser *p, const char *what, const char *in)
{
	size_t len = strlen(in);

	if (in[0] != '/') {
		perr(p, "%s '%s' is not absolute", what, in);
		return -1;
	}
	if (strstr(in, "/../") || strstr(in, "/./") || strstr(in, "//") ||
	    (len >= 3 && strcmp(in + len - 3, "/..") == 0) ||
	    (len >= 2 && strcmp(in + len - 2, "/.") == 0)) {
		perr(p, "%s '%s' is not canonical", what, in);
		return -1;
	}
	return 0;
}

/* A copy without trailing slashes ("/" stays "/"). */
static char *
strip_slashes(const char *in)
{
	char *s = xstrdup(in);
	size_t len = strlen(s);

	while (len > 1 && s[len - 1] == '/')
		s[--len] = '\0';
	return s;
}

enum opt_kind { OPT_FLAG, OPT_ANONUID, OPT_ANONGID, OPT_FSID, OPT_MOUNTPOINT, OPT_SEC };

/* Options in one group contradict each other unless they mean the same. */
enum opt_group {
	G_ACCESS, G_ROOT_SQUASH, G_ALL_SQUASH, G_SECURE, G_SYNC, G_CROSSMNT, G_HIDE,
	G_SUBTREE, G_WDELAY, G_ANONUID, G_ANONGID, G_FSID, G_MOUNTPOINT, G_SEC, G_COUNT
};

struct optdef {
	const char *name;
	enum opt_kind kind;
	unsigned set, clear;
	enum opt_group group;
};

static const struct optdef optdefs[] = {
	{ "ro", OPT_FLAG, EXP_RO, 0, G_ACCESS },
	{ "rw", OPT_FLAG, 0, EXP_RO, G_ACCESS },
	{ "root_squash", OPT_FLAG, EXP_ROOT_SQUASH, 0, G_ROOT_SQUASH },
	{ "no_root_squash", OPT_FLAG, 0, EXP_ROOT_SQUASH, G_ROOT_SQUASH },
	{ "all_squash", OPT_FLAG, EXP_ALL_SQUASH, 0, G_ALL_SQUASH },
	{ "no_all_squash", OPT_FLAG, 0, EXP_ALL_SQUASH, G_ALL_SQUASH },
	{ "secure", OPT_FLAG, EXP_SECURE, 0, G_SECURE },
	{ "insecure", OPT_FLAG, 0, EXP_SECURE, G_SECURE },
	{ "sync", OPT_FLAG, 0, EXP_ASYNC, G_SYNC },
	{ "async", OPT_FLAG, EXP_ASYNC, 0, G_SYNC },
	{ "crossmnt", OPT_FLAG, EXP_CROSSMNT, 0, G_CROSSMNT },
	{ "nocrossmnt", OPT_FLAG, 0, EXP_CROSSMNT, G_CROSSMNT },
	{ "nohide", OPT_FLAG, EXP_NOHIDE, 0, G_HIDE },
	{ "hide", OPT_FLAG, 0, EXP_NOHIDE, G_HIDE },
	/* Accepted so existing files load; usernfsd-exports(5) says why they do nothing. */
	{ "subtree_check", OPT_FLAG, 0, 0, G_SUBTREE },
	{ "no_subtree_check", OPT_FLAG, 0, 0, G_SUBTREE },
	{ "wdelay", OPT_FLAG, 0, 0, G_WDELAY },
	{ "no_wdelay", OPT_FLAG, 0, 0, G_WDELAY },
	{ "anonuid", OPT_ANONUID, 0, 0, G_ANONUID },
	{ "anongid", OPT_ANONGID, 0, 0, G_ANONGID },
	{ "fsid", OPT_FSID, EXP_FSID, 0, G_FSID },
	{ "mountpoint", OPT_MOUNTPOINT, EXP_MOUNTPOINT, 0, G_MOUNTPOINT },
	{ "mp", OPT_MOUNTPOINT, EXP_MOUNTPOINT, 0, G_MOUNTPOINT },
	{ "sec", OPT_SEC, 0, 0, G_SEC },
};

/* What each group was given so far in one option list, as written. */
struct optseen {
	const char *given[G_COUNT];
};

static const struct optdef *
find_optdef(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(optdefs); i++)
		if (strlen(optdefs[i].name) == len && strncmp(optdefs[i].name, name, len) == 0)
			return &optdefs[i];
	return NULL;
}

/* sec= takes a colon-separated list of flavors; only AUTH_SYS is served. */
static int
check_sec(struct parser *p, const char *opt, const char *v)
{
	const char *s = v;

	for (;;) {
		size_t n = strcspn(s, ":");

		if (n == 0) {
			perr(p, "empty security flavor in '%s'", opt);
			return -1;
		}
		if (n != 3 || strncmp(s, "sys", 3) != 0) {
			perr(p, "sec=%.*s is not supported", (int)n, s);
			return -1;
		}
		if (s[n] == '\0')
			return 0;
		s += n + 1;
	}
}

/* mountpoint=PATH, or mountpoint alone (v NULL): the export root itself. */
static int
apply_mountpoint(struct parser *p, const char *v, struct export_opts *o, int *same)
{
	char *mp;

	if (v && check_path(p, "mountpoint path", v) < 0)
		return -1;
	/* A client's option list cannot hold one, so the table could not be printed. */
	if (v && strpbrk(v, "()")) {
		perr(p, "mountpoint path '%s' has a parenthesis", v);
		return -1;
	}
	mp = v ? strip_slashes(v) : NULL;
	*same = (mp == NULL && o->mountpoint == NULL) ||
	    (mp && o->mountpoint && strcmp(mp, o->mountpoint) == 0);
	free(o->mountpoint);
	o->mountpoint = mp;
	return 0;
}

/*
 * Parses the value of a valued option into o. *same tells whether it
 * equals what the same group already holds in o, for conflict checks.
 */
static int
apply_value(struct parser *p, const struct optdef *d, const char *opt, const char *v,
    struct export_opts *o, int *same)
{
	unsigned id;
	uint32_t fsid;

	switch (d->kind) {
	case OPT_ANONUID:
	case OPT_ANONGID:
		if (parse_id(v, &id) < 0) {
			perr(p, "bad number in option '%s'", opt);
			return -1;
		}
		if (d->kind == OPT_ANONUID) {
			*same = o->anonuid == id;
			o->anonuid = id;
		} else {
			*same = o->anongid == id;
			o->anongid = id;
		}
		return 0;
	case OPT_FSID:
		if (parse_fsid(v, &fsid) < 0) {
			perr(p, "bad value in option '%s' (expected a number, root or a UUID)", opt);
			return -1;
		}
		*same = o->fsid == fsid;
		o->fsid = fsid;
		return 0;
	case OPT_MOUNTPOINT:
		return apply_mountpoint(p, v, o, same);
	case OPT_SEC:
		*same = 1;
		return check_sec(p, opt, v);
	case OPT_FLAG:
		break;
	}
	return -1;
}

static int
apply_option(struct parser *p, const char *opt, struct export_opts *o, struct optseen *seen)
{
	const char *eq = strchr(opt, '=');
	size_t nlen = eq ? (size_t)(eq - opt) : strlen(opt);
	const struct optdef *d = find_optdef(opt, nlen);
	const char **prev;
	int same = 1;

	if (d == NULL) {
		perr(p, "unknown option '%s'", opt);
		return -1;
	}
	if (d->kind == OPT_FLAG && eq) {
		perr(p, "option '%s' takes no value", d->name);
		return -1;
	}
	/* mountpoint alone means the export itself; everything else needs its value. */
	if ((eq && eq[1] == '\0') || (!eq && d->kind != OPT_FLAG && d->kind != OPT_MOUNTPOINT)) {
		perr(p, "option '%s' needs a value", d->name);
		return -1;
	}
	if (d->kind != OPT_FLAG && apply_value(p, d, opt, eq ? eq + 1 : NULL, o, &same) < 0)
		return -1;
	prev = &seen->given[d->group];
	if (d->kind == OPT_FLAG)
		same = *prev == NULL || strcmp(*prev, opt) == 0;
	if (*prev && !same) {
		perr(p, "conflicting options '%s' and '%s'", *prev, opt);
		return -1;
	}
	*prev = opt;
	o->flags = (o->flags | d->set) & ~d->clear;
	return 0;
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

static void
opts_copy(struct export_opts *dst, const struct export_opts *src)
{
	*dst = *src;
	dst->mountpoint = src->mountpoint ? xstrdup(src->mountpoint) : NULL;
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
			perr(p, "empty netgroup name in '%s'", spec);
			return -1;
		}
		c->kind = CLIENT_NETGROUP;
		return 0;
	}
	/* nfs-utils' old spelling of sec=krb5 and friends. */
	if (strncmp(spec, "gss/", 4) == 0) {
		perr(p, "'%s': Kerberos is not supported", spec);
		return -1;
	}
	slash = strchr(c->spec, '/');
	if (slash) {
		int bad;

		*slash = '\0';
		bad = parse_address(c->spec, &a) < 0 || parse_netmask(slash + 1, a.family, &a.prefix) < 0;
		*slash = '/';
		if (bad) {
			perr(p, "bad network '%s'", spec);
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
		perr(p, "bad address '%s'", spec);
		return -1;
	}
	if (strpbrk(spec, "*?[")) {
		if (!pattern_ok(spec)) {
			perr(p, "unclosed '[' in wildcard '%s'", spec);
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
	if (e->rootfd >= 0)
		close(e->rootfd);
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
			perr(p, "bad option list in '%s'", tok);
			goto fail;
		}
		memcpy(opts, paren + 1, olen - 2);
		opts[olen - 2] = '\0';
		if (apply_options(p, opts, &c->opts) < 0)
			goto fail;
	}
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
			perr(p, "clients '%s' and '%s' of %s give different fsid= values (%u and %u)",
			    first->spec, c->spec, e->path, (unsigned)first->opts.fsid,
			    (unsigned)c->opts.fsid);
			return -1;
		}
	}
	if (first) {
		e->id = first->opts.fsid;
		e->fsid_set = 1;
		e->pseudo_root = e->id == 0;
	} else {
		e->id = hash_id(e->path, strlen(e->path));
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
			perr(p, "%s is already exported at %s", e->path, where(p, o, at, sizeof(at)));
			return -1;
		}
		if (o->id == e->id) {
			perr(p, "export id %u of %s is already used by %s at %s%s", (unsigned)e->id,
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
			perr(p, "default options '%s' must come right after the path", toks[i]);
			return -1;
		}
		if (parse_client_token(p, toks[i], defaults, &c) < 0)
			return -1;
		for (size_t k = 0; k < e->nclients; k++)
			if (same_client(&e->clients[k], &c)) {
				perr(p, "client '%s' listed twice for %s", c.spec, e->path);
				free_client(&c);
				return -1;
			}
		add_client(e, &c);
	}
	if (e->nclients == 0) {
		/* nfs-utils exports to the world here, with a warning; so do we. */
		struct export_client c = { .kind = CLIENT_ANY, .spec = xstrdup("*") };

		opts_copy(&c.opts, defaults);
		add_client(e, &c);
	}
	return 0;
}

static void
parse_line(struct parser *p, char **toks, int ntoks, struct export_table *t)
{
	struct export e = { .rootfd = -1, .line = p->line };
	struct export_opts defaults = default_opts();
	int i = 1;

	if (check_path(p, "export path", toks[0]) < 0)
		return;
	e.path = strip_slashes(toks[0]);
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
static void
parse_text_into(struct parser *p, const char *text, struct export_table *t)
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

static struct export_table *
new_table(void)
{
	struct export_table *t = xcalloc(1, sizeof(*t));

	pthread_mutex_init(&t->sublock, NULL);
	return t;
}

struct export_table *
exports_parse_text(const char *name, const char *text, exports_err_fn err, void *arg)
{
	struct parser p = { .name = name, .err = err, .arg = arg };
	struct export_table *t = new_table();

	parse_text_into(&p, text, t);
	if (p.nerrors) {
		exports_free(t);
		return NULL;
	}
	t->refs = 1;
	return t;
}

/* ---- files ---- */

static char *
read_file(struct parser *p, const char *file)
{
	struct stat st;
	char *buf;
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		report(p, "%s: %s", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_EXPORTS_FILE) {
		report(p, "%s: %s", file, S_ISREG(st.st_mode) ? "file too large" : "not a regular file");
		close(fd);
		return NULL;
	}
	buf = xcalloc((size_t)st.st_size + 1, 1);
	n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n != st.st_size) {
		report(p, "%s: short read", file);
		free(buf);
		return NULL;
	}
	if (memchr(buf, '\0', (size_t)n)) {
		report(p, "%s: contains a NUL byte", file);
		free(buf);
		return NULL;
	}
	return buf;
}

static void
parse_file_into(struct parser *p, const char *file, struct export_table *t)
{
	const char *outer = p->name;
	char *text = read_file(p, file);

	if (text == NULL)
		return;
	/* Messages name this file; file outlives the parse, not the caller's loop. */
	p->name = file;
	parse_text_into(p, text, t);
	p->name = outer;
	free(text);
}

/* nfs-utils reads only "*.exports" there and skips hidden files (editor leftovers). */
static int
is_exports_name(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 8 && strcmp(d->d_name + len - 8, ".exports") == 0;
}

/* Byte order, not the locale's: the order must not change with LANG. */
static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The exports.d directory that sits next to file. */
static char *
exports_dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	size_t n = slash ? (size_t)(slash - file) : 0;
	char *dir = xcalloc(n + sizeof("/exports.d"), 1);

	if (slash)
		memcpy(dir, file, n);
	strcpy(dir + n, slash ? "/exports.d" : "exports.d");
	return dir;
}

static void
parse_dir_into(struct parser *p, const char *file, struct export_table *t)
{
	char *dir = exports_dir_of(file);
	struct dirent **names;
	int n = scandir(dir, &names, is_exports_name, by_name);

	if (n < 0) {
		if (errno != ENOENT)
			report(p, "%s: %s", dir, strerror(errno));
		free(dir);
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
		char *path = xcalloc(len, 1);

		snprintf(path, len, "%s/%s", dir, names[i]->d_name);
		parse_file_into(p, path, t);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
}

static void
open_roots(struct parser *p, struct export_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct export *e = &t->exports[i];
		struct stat st;

		/* Readable, not O_PATH: open_by_handle_at refuses an O_PATH mount fd. */
		e->rootfd = open(e->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (e->rootfd < 0 && errno == EACCES)
			e->rootfd = open(e->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (e->rootfd < 0 || fstat(e->rootfd, &st) < 0) {
			if (e->line == 0)
				report(p, "%s: cannot open export %s: %s", e->file, e->path,
				    strerror(errno));
			else
				report(p, "%s:%u: cannot open export %s: %s", e->file, e->line,
				    e->path, strerror(errno));
			continue;
		}
		e->dev = st.st_dev;
		e->ino = st.st_ino;
	}
}

struct export_table *
exports_load(const char *file, exports_err_fn err, void *arg)
{
	struct parser p = { .name = file, .err = err, .arg = arg };
	struct export_table *t = new_table();

	/* Every file is parsed even after errors, so one run reports them all. */
	parse_file_into(&p, file, t);
	parse_dir_into(&p, file, t);
	if (p.nerrors == 0)
		open_roots(&p, t);
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
	return new_table();
}

int
exports_add(struct export_table *t, const char *what, const char *path,
    const char *const *clients, size_t nclients, const char *opts,
    exports_err_fn err, void *arg)
{
	struct parser p = { .name = what, .err = err, .arg = arg };
	struct export e = { .rootfd = -1 };
	struct export_opts o = default_opts();

	if (check_path(&p, "export path", path) < 0 || apply_options(&p, opts, &o) < 0)
		goto fail;
	e.path = strip_slashes(path);
	e.file = xstrdup(what);
	if (nclients == 0) {
		perr(&p, "no clients for %s", e.path);
		goto fail;
	}
	for (size_t i = 0; i < nclients; i++) {
		struct export_client c;

		/* What parse_client_token does for "client(opts)", opts parsed once. */
		memset(&c, 0, sizeof(c));
		opts_copy(&c.opts, &o);
		if (parse_host(&p, clients[i], &c) < 0) {
			free_client(&c);
			goto fail;
		}
		for (size_t k = 0; k < e.nclients; k++)
			if (same_client(&e.clients[k], &c)) {
				perr(&p, "client '%s' given twice", c.spec);
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

	open_roots(&p, t);
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
		if (t->subs[i]->rootfd >= 0)
			close(t->subs[i]->rootfd);
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

/* ---- printing, as a valid exports file ---- */

/* Bytes the tokenizer would split on or interpret become \ooo escapes. */
static void
print_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch <= ' ' || ch == 0x7f || ch == '"' || ch == '\\' || ch == '#')
			fprintf(out, "\\%03o", ch);
		else
			putc(ch, out);
	}
}

static void
print_opts(FILE *out, const struct export *e, const struct export_opts *o)
{
	fprintf(out, "%s,%s,%s,%s,%s,anonuid=%u,anongid=%u,fsid=%u",
	    o->flags & EXP_RO ? "ro" : "rw",
	    o->flags & EXP_ASYNC ? "async" : "sync",
	    o->flags & EXP_SECURE ? "secure" : "insecure",
	    o->flags & EXP_ROOT_SQUASH ? "root_squash" : "no_root_squash",
	    o->flags & EXP_ALL_SQUASH ? "all_squash" : "no_all_squash",
	    (unsigned)o->anonuid, (unsigned)o->anongid, (unsigned)e->id);
	if (o->flags & EXP_CROSSMNT)
		fputs(",crossmnt", out);
	if (o->flags & EXP_NOHIDE)
		fputs(",nohide", out);
	if (o->flags & EXP_MOUNTPOINT) {
		fputs(",mountpoint", out);
		if (o->mountpoint) {
			putc('=', out);
			print_escaped(out, o->mountpoint);
		}
	}
}

void
exports_print(FILE *out, const struct export_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct export *e = &t->exports[i];

		for (size_t k = 0; k < e->nclients; k++) {
			print_escaped(out, e->path);
			putc('\t', out);
			print_escaped(out, e->clients[k].spec);
			putc('(', out);
			print_opts(out, e, &e->clients[k].opts);
			fputs(")\n", out);
		}
	}
}

/* ---- the table in force ---- */

static void name_cache_clear(void);

static pthread_mutex_t table_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
static struct export_table *current;

void
exports_install(struct export_table *t)
{
	struct export_table *old;

	pthread_mutex_lock(&table_lock);
	old = current;
	current = t;
	pthread_mutex_unlock(&table_lock);
	/* A reload is also how an administrator makes DNS changes count. */
	name_cache_clear();
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

static socklen_t
sockaddr_from_netaddr(const struct netaddr *a, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, a->addr, 4);
		return sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, a->addr, 16);
		return sizeof(*sin6);
	}
}

static int
same_host(const struct netaddr *a, const struct netaddr *b)
{
	return a->family == b->family && memcmp(a->addr, b->addr, a->family == AF_INET ? 4 : 16) == 0;
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

/* ---- client names: reverse lookups, cached ---- */

/*
 * Wildcard and netgroup entries match names, and a reverse lookup can take
 * seconds, on every NFS call. So names (and failures to find one) are kept
 * per address for a minute, in a fixed table of sets of a few entries each:
 * bounded memory, no allocation on the request path. Each entry also
 * remembers a few netgroup answers, which may cost a NIS or LDAP query.
 */
#define NC_SETS 256
#define NC_WAYS 4
#define NC_TTL 60
#define NC_NAME 256		/* DNS names have at most 253 characters */
#define NC_GROUPS 4
#define NC_GROUP_NAME 64

struct name_ent {
	struct netaddr addr;
	time_t expires;		/* 0: free */
	int has_name;
	char name[NC_NAME];
	struct {
		char group[NC_GROUP_NAME];	/* "" : free */
		int member;
	} ng[NC_GROUPS];
	unsigned ng_next;
};

static pthread_mutex_t cache_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
static struct name_ent *cache;		/* NC_SETS * NC_WAYS, allocated on first use */
static unsigned long cache_gen;		/* bumped by a clear, so late results are dropped */

static time_t
now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1;	/* never 0, which marks a free entry */
}

static void
name_cache_clear(void)
{
	pthread_mutex_lock(&cache_lock);
	cache_gen++;
	if (cache)
		memset(cache, 0, NC_SETS * NC_WAYS * sizeof(*cache));
	pthread_mutex_unlock(&cache_lock);
}

static struct name_ent *
cache_set(const struct netaddr *a)
{
	if (cache == NULL)
		cache = xcalloc(NC_SETS * NC_WAYS, sizeof(*cache));
	return &cache[(hash_id(a->addr, sizeof(a->addr)) % NC_SETS) * NC_WAYS];
}

/* Caller holds cache_lock. */
static struct name_ent *
cache_find(const struct netaddr *a, time_t now)
{
	struct name_ent *set = cache_set(a);

	for (int i = 0; i < NC_WAYS; i++)
		if (set[i].expires > now && same_host(&set[i].addr, a))
			return &set[i];
	return NULL;
}

/* Caller holds cache_lock. Reuses the entry that expires first. */
static struct name_ent *
cache_slot(const struct netaddr *a, time_t now)
{
	struct name_ent *set = cache_set(a), *victim = &set[0];

	for (int i = 0; i < NC_WAYS; i++) {
		if (set[i].expires > now && same_host(&set[i].addr, a))
			return &set[i];
		if (set[i].expires < victim->expires)
			victim = &set[i];
	}
	return victim;
}

/*
 * The name of a, if its reverse lookup gives one that resolves back to a.
 * Without the forward check, whoever controls the PTR records of a network
 * could claim any name.
 */
static int
reverse_lookup(const struct netaddr *a, char *name, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sockaddr_from_netaddr(a, &ss);
	struct addrinfo hints = { .ai_family = a->family, .ai_socktype = SOCK_DGRAM }, *res, *ai;
	struct netaddr b;
	size_t n;
	int ok = 0;

	if (getnameinfo((struct sockaddr *)&ss, sl, name, (socklen_t)len, NULL, 0, NI_NAMEREQD) != 0)
		return -1;
	n = strlen(name);
	if (n > 0 && name[n - 1] == '.')
		name[--n] = '\0';
	/* A PTR record spelling an address would "resolve back" to anything it names. */
	if (n == 0 || parse_address(name, &b) == 0)
		return -1;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return -1;
	for (ai = res; ai && !ok; ai = ai->ai_next)
		ok = netaddr_from_sockaddr(ai->ai_addr, &b) == 0 && same_host(&b, a);
	freeaddrinfo(res);
	return ok ? 0 : -1;
}

static int
client_name(const struct netaddr *a, char *name, size_t len)
{
	char buf[NI_MAXHOST];
	struct name_ent *e;
	unsigned long gen;
	time_t now = now_sec();
	int rc;

	pthread_mutex_lock(&cache_lock);
	e = cache_find(a, now);
	if (e) {
		rc = e->has_name && strlen(e->name) < len ? 0 : -1;
		if (rc == 0)
			strcpy(name, e->name);
		pthread_mutex_unlock(&cache_lock);
		return rc;
	}
	gen = cache_gen;
	pthread_mutex_unlock(&cache_lock);

	/* Not under the lock: other workers must not wait for this lookup. */
	rc = reverse_lookup(a, buf, sizeof(buf));
	if (rc == 0 && strlen(buf) >= NC_NAME)
		rc = -1;

	pthread_mutex_lock(&cache_lock);
	if (gen == cache_gen) {
		e = cache_slot(a, now);
		memset(e, 0, sizeof(*e));
		e->addr = *a;
		e->expires = now + NC_TTL;
		e->has_name = rc == 0;
		if (rc == 0)
			strcpy(e->name, buf);
	}
	pthread_mutex_unlock(&cache_lock);
	if (rc == 0 && strlen(buf) >= len)
		return -1;
	if (rc == 0)
		strcpy(name, buf);
	return rc;
}

int
exports_client_name(const struct sockaddr *addr, char *name, size_t len)
{
	struct netaddr a;

	if (netaddr_from_sockaddr(addr, &a) < 0)
		return -1;
	return client_name(&a, name, len);
}

static pthread_mutex_t netgroup_lock = PTHREAD_MUTEX_INITIALIZER;

static int
system_innetgr(const char *netgroup, const char *host)
{
	int r;

	/* glibc's innetgr is MT-Unsafe: it shares the NSS netgroup state. */
	pthread_mutex_lock(&netgroup_lock);
	r = innetgr(netgroup, host, NULL, NULL);
	pthread_mutex_unlock(&netgroup_lock);
	return r == 1;
}

int (*exports_innetgr)(const char *netgroup, const char *host) = system_innetgr;

/* Members are listed by full or by short name; nfs-utils tries both. */
static int
in_netgroup(const char *group, const char *name)
{
	char shortname[NC_NAME];
	const char *dot = strchr(name, '.');

	if (exports_innetgr(group, name))
		return 1;
	if (dot == NULL || (size_t)(dot - name) >= sizeof(shortname) || dot == name)
		return 0;
	memcpy(shortname, name, (size_t)(dot - name));
	shortname[dot - name] = '\0';
	return exports_innetgr(group, shortname);
}

/* in_netgroup, remembered in a's cache entry while that entry holds name. */
static int
in_netgroup_cached(const struct netaddr *a, const char *group, const char *name)
{
	struct name_ent *e;
	time_t now = now_sec();
	int member = -1;

	if (strlen(group) >= NC_GROUP_NAME)
		return in_netgroup(group, name);
	pthread_mutex_lock(&cache_lock);
	e = cache_find(a, now);
	for (int i = 0; e && e->has_name && strcmp(e->name, name) == 0 && i < NC_GROUPS; i++)
		if (strcmp(e->ng[i].group, group) == 0)
			member = e->ng[i].member;
	pthread_mutex_unlock(&cache_lock);
	if (member >= 0)
		return member;

	member = in_netgroup(group, name);
	pthread_mutex_lock(&cache_lock);
	e = cache_find(a, now);
	if (e && e->has_name && strcmp(e->name, name) == 0) {
		unsigned i = e->ng_next++ % NC_GROUPS;

		strcpy(e->ng[i].group, group);
		e->ng[i].member = member;
	}
	pthread_mutex_unlock(&cache_lock);
	return member;
}

/* ---- matching ---- */

/* Whether a wildcard or netgroup entry admits the host called name. */
static int
name_matches(const struct export_client *c, const struct netaddr *a, const char *name,
    int cached)
{
	if (c->kind == CLIENT_WILDCARD)
		return fnmatch(c->spec, name, FNM_CASEFOLD) == 0;
	if (c->kind == CLIENT_NETGROUP)
		return cached ? in_netgroup_cached(a, c->spec + 1, name) : in_netgroup(c->spec + 1, name);
	return 0;
}

static int
is_name_kind(enum client_kind k)
{
	return k == CLIENT_WILDCARD || k == CLIENT_NETGROUP;
}

/* Within one kind the first listed wins, hence the strict comparison. */
static int
beats(const struct export_client *c, const struct export_client *best)
{
	return best == NULL || c->kind < best->kind;
}

static const struct export_client *
match_addresses(const struct export *e, const struct netaddr *a)
{
	const struct export_client *best = NULL;

	for (size_t i = 0; i < e->nclients; i++) {
		const struct export_client *c = &e->clients[i];
		int hit = c->kind == CLIENT_ANY;

		if (is_name_kind(c->kind) || !beats(c, best))
			continue;
		for (size_t k = 0; !hit && k < c->naddrs; k++)
			hit = net_contains(&c->addrs[k], a);
		if (hit)
			best = c;
	}
	return best;
}

/* Whether some name-based entry could beat best: only then is a name needed. */
static int
name_could_beat(const struct export *e, const struct export_client *best)
{
	for (size_t i = 0; i < e->nclients; i++)
		if (is_name_kind(e->clients[i].kind) && beats(&e->clients[i], best))
			return 1;
	return 0;
}

static const struct export_client *
match_names(const struct export *e, const struct netaddr *a, const char *name, int cached,
    const struct export_client *best)
{
	for (size_t i = 0; i < e->nclients; i++) {
		const struct export_client *c = &e->clients[i];

		if (is_name_kind(c->kind) && beats(c, best) && name_matches(c, a, name, cached))
			best = c;
	}
	return best;
}

const struct export_client *
export_match_named(const struct export *e, const struct sockaddr *addr, const char *name)
{
	const struct export_client *best;
	struct netaddr a;

	if (netaddr_from_sockaddr(addr, &a) < 0)
		return NULL;
	best = match_addresses(e, &a);
	if (name == NULL || !name_could_beat(e, best))
		return best;
	return match_names(e, &a, name, 0, best);
}

const struct export_client *
export_match(const struct export *e, const struct sockaddr *addr)
{
	const struct export_client *best;
	struct netaddr a;
	char name[NC_NAME];

	if (netaddr_from_sockaddr(addr, &a) < 0)
		return NULL;
	best = match_addresses(e, &a);
	if (!name_could_beat(e, best) || client_name(&a, name, sizeof(name)) < 0)
		return best;
	return match_names(e, &a, name, 1, best);
}
