/*
 * Per-request identity. The client's credentials, squashed as the export
 * says (by the gate, proto/access.c), are installed as this worker
 * thread's file-system identity
 * (setfsuid/setfsgid/setgroups, as raw syscalls because glibc would apply
 * them to every thread), so the kernel's own permission checks apply.
 */
#ifndef USERNFSD_CREDS_H
#define USERNFSD_CREDS_H

#include <sys/types.h>

/* As many supplementary groups as AUTH_SYS carries (RFC 5531: 16). */
#define CREDS_MAX_GIDS 16

struct eff_cred {
	uid_t uid;
	gid_t gid;
	unsigned ngids;
	gid_t gids[CREDS_MAX_GIDS];
};

struct creds_state {
	int valid;		/* what the thread currently runs as */
	int root;		/* the daemon runs as root: identities can be switched */
	struct eff_cred cur;
};

void creds_init(struct creds_state *st);
/* Makes the calling thread act as c for file-system access. 0 or -1. */
int creds_apply(struct creds_state *st, const struct eff_cred *c);
/* Back to the daemon's own identity (needed for open_by_handle_at). */
int creds_root(struct creds_state *st);
/*
 * Opens the object behind the descriptor pathfd (an O_PATH one, through
 * /proc/self/fd) as the daemon, then returns to the identity st had, so a
 * client's permissions neither block nor strand the new descriptor.
 * Callers check the client's own rights. -1 with errno.
 */
int creds_reopen_as_daemon(struct creds_state *st, int pathfd, int flags);

#endif
