/*
 * NSM, the status monitor side of locking (XNFS). Clients that hold
 * locks are monitored by the host's rpc.statd (SM_MON, with a callback to
 * NLM procedure 16 when one restarts), so the daemon never owns program
 * 100024 and the host's own client-side NSM state is left alone. The
 * clients are also listed in the state directory: after the daemon
 * restarts (its locks died with the old process) it tells each of them
 * with SM_NOTIFY, under a state number of its own, and they reclaim.
 */
#ifndef USERNFSD_NSM_H
#define USERNFSD_NSM_H

#include <sys/socket.h>

/* The NLM procedure statd calls back, and the version it is in. */
#define NSM_CALLBACK_VERS 4
#define NSM_CALLBACK_PROC 16

/*
 * Reads the state directory: bumps our state number, returns the number
 * of clients the previous run listed (they may reclaim), or -1.
 */
int nsm_load(const char *statedir);
/* Sends SM_NOTIFY to every listed client (background tasks). */
void nsm_notify_clients(void);
/* A client holds locks: watch it and list it (once per client). */
void nsm_monitor(const struct sockaddr_storage *client, const struct sockaddr_storage *local,
    const char *caller);
/* It holds none any more. */
void nsm_unmonitor(const struct sockaddr_storage *client);
/* After the grace period: the list is what clients hold now. */
void nsm_prune(void);

#endif
