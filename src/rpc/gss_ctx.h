/*
 * The RPCSEC_GSS context table (gss_ctx.c), shared by every connection
 * and worker: contexts are named by a random 16-byte handle, bounded in
 * number (LRU, and a smaller cap on half-built ones), and reference-
 * counted, so an evicted or destroyed context lives until the last call
 * that holds it ends. Only gss.c uses it.
 */
#ifndef USERNFSD_GSS_CTX_H
#define USERNFSD_GSS_CTX_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <gssapi/gssapi.h>

#include "gss_proto.h"
#include "queue.h"

#define GSS_CTX_MAX		4096	/* contexts in all */
#define GSS_CTX_HALF_MAX	64	/* of which not yet established */
#define GSS_CTX_HALF_SECS	60	/* a half-built context lives this long */

struct gss_ctx {
	uint8_t handle[RG_HANDLE_LEN];
	/*
	 * A krb5 context handle must not be used by two threads at once:
	 * every gss_* call on gctx, and the window, are under lock. Never
	 * held across a send.
	 */
	pthread_mutex_t lock;
	gss_ctx_id_t gctx;
	int complete;			/* established: DATA may use it (set under lock and the table's) */
	time_t expires;			/* CLOCK_MONOTONIC seconds */
	uint32_t seq_max;		/* the window: highest seq seen ... */
	uint64_t seen[2];		/* ... and bit i: seq_max - i was seen */
	int any_seen;
	struct gss_identity id;
	/* The table's (under its mutex). */
	unsigned refs;			/* the table's own, while linked, and each call's */
	int linked;
	struct gss_ctx *hnext;
	TAILQ_ENTRY(gss_ctx) lru;
};

/* A new half-built context with a fresh handle, held by the caller; NULL when out of memory. */
struct gss_ctx *gss_ctx_new(void);
/* The context named by handle, held; NULL if unknown, or expired (then dropped). */
struct gss_ctx *gss_ctx_find(const uint8_t *handle, size_t len);
/* Established: counts no longer against the half-built cap; lives for secs. */
void gss_ctx_established(struct gss_ctx *c, uint32_t secs);
/* Out of the table (DESTROY, a failed INIT); the holders keep it until they let go. */
void gss_ctx_remove(struct gss_ctx *c);
void gss_ctx_put(struct gss_ctx *c);
/* Contexts in the table, and how many of them are half-built (tests, statistics). */
void gss_ctx_count(unsigned *all, unsigned *half);
/* Unlinks every context past its end (those in use finish with their reference). */
void gss_ctx_sweep(void);

/*
 * RFC 2203 5.3.3.1's window of RG_SEQ_WINDOW: 1 if seq is new (and now
 * seen), 0 for a replay or a number below the window. Under c->lock.
 */
int gss_ctx_window(struct gss_ctx *c, uint32_t seq);

/*
 * gss_name.c: the client principal as text, and whether it maps to a local
 * user (krb5's auth_to_local through gss_localname, then the password and
 * group databases). Machine principals (host/..., nfs/...) never map.
 */
void gss_map_identity(gss_name_t client, struct gss_identity *id);

#endif
