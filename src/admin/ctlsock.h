/*
 * The control socket: a Unix stream socket (0600) on which usernfsctl asks
 * the running daemon for its statistics, clients and exports, or for a
 * reload.  One small thread serves it, one client at a time, each with a
 * deadline, so a stuck client delays only other control clients, never NFS.
 *
 * Protocol: one request line ("stats", "stats json", "stats flat",
 * "clients", "clients json", "exports", "reload", "metrics"), at most
 * CTL_MAX_REQUEST bytes; the reply is "ok" or "error" on a line of its
 * own, then text, then EOF.  Only root and the daemon's own user may ask
 * (SO_PEERCRED); others get "error" and the connection closed.
 */
#ifndef USERNFSD_CTLSOCK_H
#define USERNFSD_CTLSOCK_H

#include <stddef.h>
#include <stdio.h>

#define CTL_MAX_REQUEST 256

/*
 * Where the daemon listens and usernfsctl asks when neither is told
 * (--socket): one definition, so the two always agree. RUNSTATEDIR comes
 * from configure (/run unless --runstatedir says otherwise).
 */
#ifndef RUNSTATEDIR
#define RUNSTATEDIR "/run"
#endif
#define CTL_DEFAULT_PATH RUNSTATEDIR "/usernfsd.sock"

/* Re-reads the exports; writes each problem (file:line: ...) to errs; 0 or -1. */
typedef int (*ctl_reload_fn)(void *arg, FILE *errs);

/*
 * Binds path (replacing a stale socket, never a live one; making its
 * directory, 0755, when missing) and starts the thread.
 */
int ctlsock_start(const char *path, ctl_reload_fn reload, void *arg, char *err, size_t errlen);
/* Stops the thread and removes the socket. */
void ctlsock_stop(void);

#endif
