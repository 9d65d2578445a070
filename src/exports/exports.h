/*
 * The export table: parsed from an exports(5) file, swapped atomically on
 * reload, and consulted on every request to decide who may do what.
 */
#ifndef USERNFSD_EXPORTS_H
#define USERNFSD_EXPORTS_H

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "fs/fsroot.h"

#define EXP_RO		0x0001
#define EXP_ROOT_SQUASH	0x0002
#define EXP_ALL_SQUASH	0x0004
#define EXP_SECURE	0x0008
#define EXP_ASYNC	0x0010
/*
 * Recorded for the NFS paths to enforce; the parser only checks syntax.
 * crossmnt: serve file systems mounted below this export; nohide: this
 * export may be entered from a parent export's LOOKUP; mountpoint: serve
 * the export only while export_opts.mountpoint (or, when that is NULL,
 * the export root itself) is a mount point.
 */
#define EXP_CROSSMNT	0x0020
#define EXP_NOHIDE	0x0040
#define EXP_MOUNTPOINT	0x0080
#define EXP_FSID	0x0100	/* fsid= was given; the value is in export_opts.fsid */
#define EXP_NODELEG	0x0200	/* no_delegations (usernfsd's): no NFSv4 delegations here */

#define EXP_ANON_ID 65534u

/*
 * The flags exports(5) lets differ per security flavor: an option after a
 * sec= applies to the flavors that sec= named (nfs-utils' and knfsd's
 * NFSEXP_SECINFO_FLAGS).
 */
#define EXP_SECINFO_FLAGS (EXP_RO | EXP_ROOT_SQUASH | EXP_ALL_SQUASH | EXP_SECURE)

/* sec= flavors, as exports(5) names them. */
enum export_flavor {
	EXP_SEC_SYS,		/* AUTH_SYS, and AUTH_NONE */
	EXP_SEC_NONE,		/* AUTH_NONE only */
	EXP_SEC_KRB5,		/* RPCSEC_GSS, Kerberos V5, authentication */
	EXP_SEC_KRB5I,		/* ... with integrity */
	EXP_SEC_KRB5P,		/* ... with privacy */
	EXP_SEC_COUNT
};

struct export_sec {
	enum export_flavor flavor;
	unsigned flags;		/* the EXP_SECINFO_FLAGS this flavor is served with */
};

struct export_opts {
	unsigned flags;
	uid_t anonuid;
	gid_t anongid;
	uint32_t fsid;		/* with EXP_FSID: the export id it asks for (0 = root) */
	char *mountpoint;	/* with EXP_MOUNTPOINT: mountpoint=PATH, or NULL */
	/*
	 * sec=: the flavors admitted, in the client's order of preference
	 * (MOUNT and SECINFO list them so). Never empty once parsed: without
	 * sec= it is sys alone, with the list's own flags.
	 */
	unsigned nsec;
	struct export_sec sec[EXP_SEC_COUNT];
	unsigned sec_active;	/* parsing: bit i = sec[i] named by the latest sec= */
};

/* "sys", "krb5p"...: exports(5)'s name of a flavor. */
const char *export_flavor_name(enum export_flavor f);
/* The flags a call in flavor f is served with, or NULL when o does not admit f. */
const struct export_sec *export_sec_find(const struct export_opts *o, enum export_flavor f);

/*
 * Lower value = more specific, the precedence of nfs-utils' exports(5):
 * single host, then network, then wildcard name, then netgroup, then
 * everyone. Within one kind the client listed first wins.
 */
enum client_kind {
	CLIENT_HOST = 0,	/* one address, or a name resolved to addresses */
	CLIENT_NET = 1,		/* CIDR or address/netmask */
	CLIENT_WILDCARD = 2,	/* name pattern with * ? [...]: spec is the pattern */
	CLIENT_NETGROUP = 3,	/* @group: spec + 1 is the netgroup */
	CLIENT_ANY = 4,		/* "*" or no host at all */
};

struct netaddr {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t addr[16];
	unsigned prefix;	/* bits that must match */
};

struct export_client {
	enum client_kind kind;
	char *spec;		/* as written ("*" for a bare "(opts)"), for showmount and messages */
	struct netaddr *addrs;	/* CLIENT_HOST and CLIENT_NET only */
	size_t naddrs;
	struct export_opts opts;
};

struct export {
	char *path;		/* canonical, no trailing slash */
	/*
	 * What the fs layer resolves below.  root.id appears in file handles,
	 * so it must be stable: fsid= when given, else a hash of the path,
	 * which is never 0. Id 0 is only ever fsid=0 / fsid=root, the
	 * NFSv4-style pseudo root (pseudo_root set).  root.path is path.
	 */
	struct fs_root root;
	int fsid_set;		/* root.id came from fsid= */
	int pseudo_root;	/* fsid=0 or fsid=root */
	struct export_client *clients;
	size_t nclients;
	char *file;		/* where it was defined, for messages */
	unsigned line;
	/*
	 * A file system mounted below a crossmnt export and entered through
	 * it (submounts.c): it borrows the parent's clients and options.
	 */
	const struct export *parent;
};

struct export_table {
	struct export *exports;
	size_t n;
	int refs;		/* guarded by the table lock in exports.c */
	/* Submounts entered so far: appended under sublock, freed with the table. */
	pthread_mutex_t sublock;
	struct export **subs;
	size_t nsubs;
};

/* Receives one message per problem, already prefixed with "file:line: ". */
typedef void (*exports_err_fn)(void *arg, const char *msg);

/*
 * Parses text (named 'name' in messages). Returns a table, or NULL when any
 * error was reported; warnings do not fail the parse.
 */
struct export_table *exports_parse_text(const char *name, const char *text,
    exports_err_fn err, void *arg);
/*
 * Reads and parses file, then every "*.exports" file (by name; not those
 * starting with ".") in the directory exports.d next to it, if that exists,
 * as one table; then opens each export root (missing roots are errors).
 */
struct export_table *exports_load(const char *file, exports_err_fn err, void *arg);
/*
 * A table built in code rather than parsed (usernfsd --share), through the
 * parser's own option and client code: exports_new, then exports_add for
 * each path (absolute and canonical), every client in clients[] (as written
 * in an exports file: address, network, name, ...) getting the options in
 * opts (as written between the parentheses: "rw,all_squash,anonuid=1000").
 * Problems are reported as "what: message"; exports_add returns 0 or -1.
 * exports_open then opens the export roots, as exports_load does; 0, or -1
 * after reporting. The table is then ready for exports_install.
 */
struct export_table *exports_new(void);
int exports_add(struct export_table *t, const char *what, const char *path,
    const char *const *clients, size_t nclients, const char *opts,
    exports_err_fn err, void *arg);
int exports_open(struct export_table *t, exports_err_fn err, void *arg);
void exports_free(struct export_table *t);
void exports_print(FILE *out, const struct export_table *t);
/* Does any export of t admit a Kerberos flavor (sec=krb5, krb5i, krb5p)? */
int exports_use_krb5(const struct export_table *t);

/*
 * The table in force; every request holds a reference while it runs.
 * Installing a table also forgets the cached client names.
 */
void exports_install(struct export_table *t);
struct export_table *exports_acquire(void);
void exports_release(struct export_table *t);

const struct export *exports_find_id(const struct export_table *t, uint32_t id);
/* The export containing path by whole components; *rest gets the remainder ("" or "a/b"). */
const struct export *exports_find_path(const struct export_table *t, const char *path,
    const char **rest);
/*
 * The most specific client entry matching addr, or NULL. Wildcard and
 * netgroup entries need the client's name: it is looked up (reverse, then
 * forward-confirmed) only when no host or network entry matches, and cached.
 */
const struct export_client *export_match(const struct export *e, const struct sockaddr *addr);
/* The same with the client's name given (NULL: it has none); no DNS. */
const struct export_client *export_match_named(const struct export *e,
    const struct sockaddr *addr, const char *name);
/*
 * The client's host name: the reverse lookup of addr, accepted only if that
 * name resolves back to addr. Cached per address for 60 s. Returns 0, or -1
 * when the client has no such name.
 */
int exports_client_name(const struct sockaddr *addr, char *name, size_t len);
/* Netgroup membership test, innetgr(3) by default; unit tests replace it. */
extern int (*exports_innetgr)(const char *netgroup, const char *host);

int netaddr_from_sockaddr(const struct sockaddr *sa, struct netaddr *out);
/* The stable export id for a path when no fsid= is given (never 0). */
uint32_t exports_path_id(const char *path);

#endif
