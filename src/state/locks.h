/*
 * The lock manager behind NLM: byte-range locks as real kernel locks on
 * the server's files, so NFS clients and local processes see each other's
 * locks. Each lock owner (client host, svid, owner handle) gets one open
 * file description per file and takes F_OFD_SETLK locks through it: the
 * kernel splits, merges, upgrades and downgrades ranges as POSIX says,
 * and owners conflict with each other and with fcntl/OFD locks of local
 * processes. Blocked requests wait here, never on a worker: they are
 * retried when a lock is released and every WAITER_POLL_MS (a local
 * process's unlock is not announced), and the client is called back
 * (GRANTED) from a background task. DOS-style share reservations
 * (SHARE/UNSHARE) are kept here too; the kernel has no such thing, so
 * they bind NLM clients only. See DESIGN.md, "Locking".
 *
 * Statuses are NLM version 4's numbers; nlm.c maps them for v1 and v3.
 */
#ifndef USERNFSD_LOCKS_H
#define USERNFSD_LOCKS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct fs_ctx;

enum lk_status {
	LK_GRANTED = 0,
	LK_DENIED = 1,
	LK_NOLOCKS = 2,		/* out of resources: try later */
	LK_BLOCKED = 3,
	LK_GRACE = 4,		/* only reclaims now */
	LK_DEADLCK = 5,
	LK_ROFS = 6,
	LK_STALE = 7,
	LK_FBIG = 8,
	LK_FAILED = 9,
};

#define LK_OH_MAX 1024		/* owner handles and cookies: XDR's netobj limit */
#define LK_FH_MAX 64

/* Who asks, about which file, for which range: one NLM call. */
struct lk_req {
	struct fs_ctx *ctx;		/* the file; passed the access gate */
	const char *caller;		/* caller_name */
	struct sockaddr_storage peer;	/* the client (its port is ignored) */
	struct sockaddr_storage local;	/* our address it called */
	int proto;			/* IPPROTO_UDP or IPPROTO_TCP */
	uint32_t vers;			/* NLM version, for callbacks */
	int msg;			/* came as a _MSG call: call back with _MSG */
	const void *oh;
	size_t ohlen;
	int32_t svid;
	uint64_t off, len;		/* len 0: to the end of the file, and beyond */
	int exclusive;
	const void *fh;			/* the wire handle, echoed in GRANTED */
	size_t fhlen;
};

/* A conflicting lock, for TEST. */
struct lk_holder {
	int exclusive;
	int32_t svid;
	uint8_t oh[LK_OH_MAX];
	size_t ohlen;
	uint64_t off, len;
};

/* What a GRANTED callback needs; filled by locks.c, sent by nlm.c. */
struct lk_grant {
	struct sockaddr_storage peer, local;
	int proto;
	uint32_t vers;
	int msg;
	uint8_t cookie[8];		/* ours: GRANTED_RES names the grant by it */
	char caller[64];		/* our name, as the caller of the callback */
	uint8_t fh[LK_FH_MAX];
	size_t fhlen;
	uint8_t oh[LK_OH_MAX];
	size_t ohlen;
	int32_t svid;
	uint64_t off, len;
	int exclusive;
};
/*
 * Sends one GRANTED (or GRANTED_MSG) in a background task: LK_GRANTED or
 * LK_DENIED as the client answered, LK_BLOCKED for a _MSG sent (its
 * answer comes as GRANTED_RES), -1 when the call failed.
 */
typedef int (*lk_grant_fn)(const struct lk_grant *g);

struct lk_config {
	unsigned grace_secs;		/* 0: no grace period */
	unsigned max_files;		/* open file descriptions for locks */
	lk_grant_fn send_granted;
	/*
	 * The status monitor (NSM, proto/nsm.c): watch a client that holds
	 * locks, stop when it holds none, and forget the clients that did not
	 * reclaim when the grace period ends.  NULL: nobody is watched.
	 */
	void (*monitor)(const struct sockaddr_storage *client,
	    const struct sockaddr_storage *local, const char *caller);
	void (*unmonitor)(const struct sockaddr_storage *client);
	void (*prune)(void);
	/*
	 * No thread retrying blocked requests (the fuzz target's choice: it
	 * runs calls one at a time, and blocked ones then simply wait).
	 */
	int no_waiter;
};

int locks_start(const struct lk_config *c);
void locks_stop(void);
int locks_in_grace(void);
/* Every client that could reclaim has: the grace period ends at the next tick. */
void locks_end_grace(void);

int locks_test(const struct lk_req *r, struct lk_holder *h);
/* monitor: ask the status monitor to watch the client (not for NM_LOCK). */
int locks_lock(const struct lk_req *r, int block, int reclaim, int monitor);
int locks_unlock(const struct lk_req *r);
int locks_cancel(const struct lk_req *r);
/* Does r's owner hold any range of r's file (NFSv4's LOCKS_HELD)? */
int locks_held(const struct lk_req *r);
/* mode: deny bits (1 read, 2 write); access: 1 read, 2 write. */
int locks_share(const struct lk_req *r, unsigned mode, unsigned access, int reclaim);
int locks_unshare(const struct lk_req *r);
/* FREE_ALL: everything the host caller_name at peer holds. */
void locks_free_all(const char *caller, const struct sockaddr_storage *peer);
/* The status monitor says the host at addr restarted: it holds nothing now. */
void locks_host_rebooted(const struct sockaddr_storage *addr);
/* GRANTED_RES: the client at peer answers a GRANTED_MSG. */
void locks_granted_res(const void *cookie, size_t len, const struct sockaddr_storage *peer,
    int granted);

/* Tests only: releases everything and forgets every client, as a restart would. */
void locks_reset(void);

/* Counts for statistics. */
struct lk_stats {
	unsigned hosts, files, ranges, waiters, grants, shares;
	int in_grace;
};
void locks_get_stats(struct lk_stats *s);

#endif
