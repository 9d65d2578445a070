/*
 * exports(5) option lists: "rw,sync,anonuid=1000,fsid=..." into an
 * export_opts, with contradictions refused; also export path checks and the
 * stable ids (hash_id) that handles carry.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "log.h"

#include "exports_impl.h"

/* ---- options ---- */

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

/* uid and gid values: (uid_t)-1 means "unchanged" to the kernel, so refuse it. */
int
parse_id(const char *v, unsigned *out)
{
	uint32_t n;

	if (parse_u32(v, &n) < 0 || n == UINT32_MAX)
		return -1;
	*out = n;
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
uint32_t
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
int
check_path(struct parser *p, const char *what, const char *in)
{
	size_t len = strlen(in);

	if (in[0] != '/') {
		parser_err(p, "%s '%s' is not absolute", what, in);
		return -1;
	}
	if (strstr(in, "/../") || strstr(in, "/./") || strstr(in, "//") ||
	    (len >= 3 && strcmp(in + len - 3, "/..") == 0) ||
	    (len >= 2 && strcmp(in + len - 2, "/.") == 0)) {
		parser_err(p, "%s '%s' is not canonical", what, in);
		return -1;
	}
	return 0;
}

/* A copy without trailing slashes ("/" stays "/"). */
char *
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
	G_SUBTREE, G_WDELAY, G_ANONUID, G_ANONGID, G_FSID, G_MOUNTPOINT, G_SEC, G_DELEG, G_COUNT
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
	{ "no_delegations", OPT_FLAG, EXP_NODELEG, 0, G_DELEG },
	{ "delegations", OPT_FLAG, 0, EXP_NODELEG, G_DELEG },
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

static const char *const flavor_names[EXP_SEC_COUNT] = {
	[EXP_SEC_SYS] = "sys", [EXP_SEC_NONE] = "none", [EXP_SEC_KRB5] = "krb5",
	[EXP_SEC_KRB5I] = "krb5i", [EXP_SEC_KRB5P] = "krb5p",
};

const char *
export_flavor_name(enum export_flavor f)
{
	return (unsigned)f < EXP_SEC_COUNT ? flavor_names[f] : "?";
}

const struct export_sec *
export_sec_find(const struct export_opts *o, enum export_flavor f)
{
	for (unsigned i = 0; i < o->nsec; i++)
		if (o->sec[i].flavor == f)
			return &o->sec[i];
	return NULL;
}

int
exports_use_krb5(const struct export_table *t)
{
	for (size_t i = 0; t && i < t->n; i++)
		for (size_t k = 0; k < t->exports[i].nclients; k++) {
			const struct export_opts *o = &t->exports[i].clients[k].opts;

			if (export_sec_find(o, EXP_SEC_KRB5) || export_sec_find(o, EXP_SEC_KRB5I) ||
			    export_sec_find(o, EXP_SEC_KRB5P))
				return 1;
		}
	return 0;
}

/* f's entry in o's list, added (with the list's flags so far) when new. */
static unsigned
sec_add(struct export_opts *o, enum export_flavor f)
{
	unsigned i;

	for (i = 0; i < o->nsec; i++)
		if (o->sec[i].flavor == f)
			return i;
	o->sec[i].flavor = f;
	o->sec[i].flags = o->flags & EXP_SECINFO_FLAGS;
	o->nsec++;
	return i;
}

/*
 * sec=krb5p:krb5i:sys: the flavors in order of preference, appended to
 * those of earlier sec= options; the options that follow, up to the next
 * sec=, apply to these flavors only (exports(5)).
 */
static int
apply_sec(struct parser *p, const char *opt, const char *v, struct export_opts *o)
{
	unsigned active = 0;

	for (const char *s = v;; ) {
		size_t n = strcspn(s, ":");
		unsigned f;

		for (f = 0; f < EXP_SEC_COUNT; f++)
			if (strlen(flavor_names[f]) == n && strncmp(s, flavor_names[f], n) == 0)
				break;
		if (n == 0) {
			parser_err(p, "empty security flavor in '%s'", opt);
			return -1;
		}
		if (f == EXP_SEC_COUNT) {
			parser_err(p, "unknown security flavor '%.*s' in '%s' (sys, none, krb5, krb5i, krb5p)",
			    (int)n, s, opt);
			return -1;
		}
		active |= 1u << sec_add(o, (enum export_flavor)f);
		if (s[n] == '\0')
			break;
		s += n + 1;
	}
	o->sec_active = active;
	return 0;
}

void
opts_finish(struct export_opts *o)
{
	if (o->nsec == 0)
		(void)sec_add(o, EXP_SEC_SYS);
	o->sec_active = 0;
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
		parser_err(p, "mountpoint path '%s' has a parenthesis", v);
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
			parser_err(p, "bad number in option '%s'", opt);
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
			parser_err(p, "bad value in option '%s' (expected a number, root or a UUID)", opt);
			return -1;
		}
		*same = o->fsid == fsid;
		o->fsid = fsid;
		return 0;
	case OPT_MOUNTPOINT:
		return apply_mountpoint(p, v, o, same);
	case OPT_SEC:
		*same = 1;
		return apply_sec(p, opt, v, o);
	case OPT_FLAG:
		break;
	}
	return -1;
}

/*
 * A flag option: ro/rw, the squashes and secure/insecure go to the flavors
 * of the latest sec= when there is one in this list, else to the whole
 * list and every flavor in it; the others to the whole list.
 */
static void
apply_flags(struct export_opts *o, unsigned set, unsigned clear)
{
	unsigned mask = (set | clear) & EXP_SECINFO_FLAGS;

	if (o->sec_active == 0 || mask == 0)
		o->flags = (o->flags | set) & ~clear;
	for (unsigned i = 0; i < o->nsec && mask; i++)
		if (o->sec_active == 0 || (o->sec_active & (1u << i)))
			o->sec[i].flags = (o->sec[i].flags | (set & mask)) & ~(clear & mask);
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
		parser_err(p, "unknown option '%s'", opt);
		return -1;
	}
	if (d->kind == OPT_FLAG && eq) {
		parser_err(p, "option '%s' takes no value", d->name);
		return -1;
	}
	/* mountpoint alone means the export itself; everything else needs its value. */
	if ((eq && eq[1] == '\0') || (!eq && d->kind != OPT_FLAG && d->kind != OPT_MOUNTPOINT)) {
		parser_err(p, "option '%s' needs a value", d->name);
		return -1;
	}
	if (d->kind != OPT_FLAG && apply_value(p, d, opt, eq ? eq + 1 : NULL, o, &same) < 0)
		return -1;
	prev = &seen->given[d->group];
	if (d->kind == OPT_FLAG)
		same = *prev == NULL || strcmp(*prev, opt) == 0;
	if (*prev && !same) {
		parser_err(p, "conflicting options '%s' and '%s'", *prev, opt);
		return -1;
	}
	*prev = opt;
	if (d->kind == OPT_SEC) {
		/* ro or rw again after sec= is that flavor's, not a contradiction. */
		seen->given[G_ACCESS] = seen->given[G_ROOT_SQUASH] = NULL;
		seen->given[G_ALL_SQUASH] = seen->given[G_SECURE] = NULL;
		return 0;
	}
	apply_flags(o, d->set, d->clear);
	return 0;
}

int
apply_options(struct parser *p, const char *list, struct export_opts *o)
{
	char buf[MAX_TOKEN], *save = NULL, *opt;
	struct optseen seen = { 0 };
	int rc = 0;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	o->sec_active = 0;	/* options before this list's first sec= are everyone's */
	for (opt = strtok_r(buf, ",", &save); opt; opt = strtok_r(NULL, ",", &save))
		if (apply_option(p, opt, o, &seen) < 0)
			rc = -1;
	return rc;
}

void
opts_copy(struct export_opts *dst, const struct export_opts *src)
{
	*dst = *src;
	dst->mountpoint = src->mountpoint ? xstrdup(src->mountpoint) : NULL;
}
