/*
 * usernfsd --share DIR...: serve directories without an exports file, in
 * the foreground, as the user who runs it, and print how to mount them.
 * The export table is built in code (exports_add) with the options an
 * administrator would write for it, so matching and squashing are the
 * exports file's own.
 */
#ifndef USERNFSD_SHARE_H
#define USERNFSD_SHARE_H

#include <stddef.h>

#include "daemon.h"

struct share_opts {
	const char *const *dirs;
	size_t ndirs;
	const char *const *allow;	/* clients as in an exports file; none: this host */
	size_t nallow;
	int ro;
	int nfs_port_given;		/* else the defaults, or free ports if those are taken */
	int mount_port_given;
	int statedir_given;		/* else $XDG_RUNTIME_DIR/usernfsd-share or a temporary one */
};

/* Serves until SIGINT/SIGTERM; o holds the other options. The exit status. */
int share_run(struct daemon_opts *o, const struct share_opts *s);
/* --share ... --check-exports: prints the table that would be served; 0 or 1. */
int share_check(const struct share_opts *s);

#endif
