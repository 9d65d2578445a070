/*
 * The export table: parsed from an exports(5) file, swapped atomically on
 * reload, and consulted on every request to decide who may do what.
 */
#ifndef USERNFSD_EXPORTS_H
#define USERNFSD_EXPORTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>

#define EXP_RO		0x0001
#define EXP_ROOT_SQUASH	0x0002
#define EXP_ALL_SQUASH	0x0004
#define EXP_SECURE	0x0008
#define EXP_ASYNC	0x0010

#define EXP_ANON_ID 65534u

struct export_opts {
	unsigned flags;
	uid_t anonuid;
	gid_t anongid;
};

/* Lower value = more specific, as nfs-utils orders them. */
enum client_kind {
	CLIENT_HOST = 0,	/* one address, or a name resolved to addresses */
	CLIENT_NET = 1,		/* CIDR or address/netmask */
	CLIENT_ANY = 2,		/* "*" or no host at all */
};

struct netaddr {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t addr[16];
	unsigned prefix;	/* bits that must match */
};

struct export_client {
	enum client_kind kind;
	char *spec;		/* as written, for showmount and messages */
	struct netaddr *addrs;
	size_t naddrs;
	struct export_opts opts;
};

struct export {
	char *path;		/* canonical, no trailing slash */
	uint32_t id;		/* appears in file handles: must be stable */
	int rootfd;		/* descriptor of the export root, or -1 */
	dev_t dev;
	ino_t ino;
	struct export_client *clients;
	size_t nclients;
	unsigned line;		/* where it was defined, for messages */
};

struct export_table {
	struct export *exports;
	size_t n;
	int refs;		/* guarded by the table lock in exports.c */
};

/* Receives one message per problem, already prefixed with "file:line: ". */
typedef void (*exports_err_fn)(void *arg, const char *msg);

/*
 * Parses text (named 'name' in messages). Returns a table, or NULL when any
 * error was reported; warnings do not fail the parse.
 */
struct export_table *exports_parse_text(const char *name, const char *text,
    exports_err_fn err, void *arg);
/* Reads and parses a file, then opens each export root (missing roots are errors). */
struct export_table *exports_load(const char *file, exports_err_fn err, void *arg);
void exports_free(struct export_table *t);
void exports_print(FILE *out, const struct export_table *t);

/* The table in force; every request holds a reference while it runs. */
void exports_install(struct export_table *t);
struct export_table *exports_acquire(void);
void exports_release(struct export_table *t);

const struct export *exports_find_id(const struct export_table *t, uint32_t id);
/* The export containing path by whole components; *rest gets the remainder ("" or "a/b"). */
const struct export *exports_find_path(const struct export_table *t, const char *path,
    const char **rest);
/* The most specific client entry matching addr, or NULL. */
const struct export_client *export_match(const struct export *e, const struct sockaddr *addr);

int netaddr_from_sockaddr(const struct sockaddr *sa, struct netaddr *out);

#endif
