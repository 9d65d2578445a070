/*
 * What the pieces of the export code share and nobody else needs: the
 * parser state and its error reporting and allocation helpers
 * (exports_parse.c), option and path helpers (exports_opts.c), opening the
 * roots (exports_load.c), address helpers (exports.c) and the client name
 * cache (clientname.c).
 */
#ifndef USERNFSD_EXPORTS_IMPL_H
#define USERNFSD_EXPORTS_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "compiler.h"
#include "exports.h"

#define MAX_EXPORTS_FILE (4u << 20)
#define MAX_TOKEN 4096
#define CLIENT_NAME_MAX 256	/* DNS names have at most 253 characters */

struct parser {
	const char *name;	/* file name used in messages */
	unsigned line;
	exports_err_fn err;
	void *arg;
	int nerrors;
};

/* exports_parse.c */
/* Reports a problem not tied to a line: the caller writes the whole text. */
void PRINTFLIKE(2, 3) parser_report(struct parser *p, const char *fmt, ...);
/* Reports a problem at the current line as "file:line: msg". */
void PRINTFLIKE(2, 3) parser_err(struct parser *p, const char *fmt, ...);
/* Allocation that cannot fail (fatal() when it does). */
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *old, size_t n, size_t sz);
char *xstrdup(const char *s);
struct export_table *exports_table_new(void);
/* Adds the exports in text to t; problems are counted in p->nerrors. */
void exports_parse_into(struct parser *p, const char *text, struct export_table *t);
int parse_address(const char *s, struct netaddr *a);

/* exports_opts.c */
int parse_id(const char *v, unsigned *out);
uint32_t hash_id(const void *data, size_t len);
int check_path(struct parser *p, const char *what, const char *in);
char *strip_slashes(const char *in);
int apply_options(struct parser *p, const char *list, struct export_opts *o);
void opts_copy(struct export_opts *dst, const struct export_opts *src);
/* A client's options are complete: without sec=, sys alone. */
void opts_finish(struct export_opts *o);

/* exports_load.c */
void exports_open_roots(struct parser *p, struct export_table *t);

/* exports.c */
socklen_t sockaddr_from_netaddr(const struct netaddr *a, struct sockaddr_storage *ss);
int same_host(const struct netaddr *a, const struct netaddr *b);

/* clientname.c */
/* Forgets every name (a reload is how DNS changes are made to count). */
void clientname_cache_clear(void);
/* a's verified name, from the cache or a reverse lookup: 0, or -1 without one. */
int clientname_lookup(const struct netaddr *a, char *name, size_t len);
int clientname_in_netgroup(const char *group, const char *name);
/* The same, remembered in a's cache entry while that entry holds name. */
int clientname_in_netgroup_cached(const struct netaddr *a, const char *group, const char *name);

#endif
