/*
 * NFSv4.1 clients and sessions (RFC 8881 2.4, 2.10, 18.35-18.37, 18.46):
 * the client records EXCHANGE_ID makes and CREATE_SESSION confirms, their
 * sessions, and each session's slot table with its reply cache. Plain data
 * in, a result code out: the protocol room (proto/nfs4_session.c) decodes,
 * calls here and encodes, and maps these results to nfsstat4 in one table.
 *
 * Everything a client can make us hold is bounded (DESIGN.md): records,
 * sessions per client and in all, slots per session, and the bytes of
 * cached replies, which CREATE_SESSION reserves from one budget.
 */
#ifndef USERNFSD_NFS4_CLIENTS_H
#define USERNFSD_NFS4_CLIENTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define N4_MAX_CLIENTS		1024
#define N4_MAX_SESSIONS_CLIENT	8
#define N4_MAX_SESSIONS		1024
#define N4_MAX_SLOTS		64
#define N4_SLOT_CACHE_MAX	4096	/* bytes a slot keeps of a cachethis reply */
#define N4_CACHE_BUDGET		(64u << 20)	/* slot caches of every session together */
#define N4_LEASE_DEFAULT	90	/* seconds, as knfsd's (rpc.nfsd --lease-time) */
#define N4_OWNER_MAX		1024	/* co_ownerid bytes (NFS4_OPAQUE_LIMIT) */
#define N4_SESSIONID_SIZE	16
#define N4_VERIFIER_SIZE	8

enum n4_result {
	N4_OK,
	N4_STALE_CLIENTID,	/* no such client (or one of an earlier boot) */
	N4_CLID_INUSE,		/* the owner is held by another principal */
	N4_NOENT,		/* an update of a record that is not there */
	N4_NOT_SAME,		/* an update with another verifier */
	N4_PERM,		/* an update by another principal */
	N4_SEQ_MISORDERED,
	N4_BADSESSION,
	N4_BADSLOT,
	N4_DELAY,		/* the slot is busy, or the table is full for now */
	N4_NOSPC,		/* no session can be made: the limits */
	N4_CLIENTID_BUSY,	/* DESTROY_CLIENTID with sessions left */
	N4_COMPLETE_ALREADY,
	N4_TOO_MANY_OPS,	/* SEQUENCE: more operations than the session grants */
	N4_REQ_TOO_BIG,		/* SEQUENCE: a request longer than the session grants */
	N4_NO_GRACE,		/* a reclaim out of the grace period, or by a client with nothing to reclaim */
	N4_REPLAY,		/* SEQUENCE: a retry, answered from the slot's cache */
	N4_REPLAY_UNCACHED,	/* SEQUENCE: a retry of a reply not kept */
	N4_NRESULTS
};

/* The credential callbacks carry: one the client's sec parms accept (AUTH_NONE, AUTH_SYS). */
struct n4_cb_sec {
	uint32_t flavor, uid, gid;
	char machine[64];
};

/* Who sent a call, as far as client records care (RFC 8881 2.4.3). */
struct n4_principal {
	uint32_t flavor, uid, gid;
	uint64_t name;		/* RPCSEC_GSS: a hash of the principal's name (unmapped ones share ids) */
};

struct n4_exchange_in {
	const void *owner;
	size_t ownerlen;
	uint8_t verifier[N4_VERIFIER_SIZE];
	struct n4_principal who;
	int update;		/* EXCHGID4_FLAG_UPD_CONFIRMED_REC_A */
	uint32_t minor;		/* of the compound, for usernfsctl clients */
	struct sockaddr_storage addr;	/* where it came from, for usernfsctl clients */
};

struct n4_exchange_out {
	uint64_t clientid;
	uint32_t sequenceid;
	int confirmed;
};

/* One direction's channel attributes (channel_attrs4 without RDMA). */
struct n4_channel {
	uint32_t maxrequestsize, maxresponsesize, maxresponsesize_cached;
	uint32_t maxoperations, maxrequests;
};

struct n4_create_in {
	uint64_t clientid;
	uint32_t sequence;
	struct n4_principal who;
	uint32_t flags;		/* CREATE_SESSION4_FLAG_*, as asked */
	struct n4_channel fore, back;
	uint32_t cb_program;
	/* CONN_BACK_CHAN: the connection held for the back channel (0: none), its credential. */
	uint64_t back_conn;
	struct n4_cb_sec cb_sec;
};

/* CREATE_SESSION4_FLAG_CONN_BACK_CHAN: the session's connection is its back channel too. */
#define N4_FLAG_CONN_BACK_CHAN	0x2

struct n4_create_out {
	uint8_t sessionid[N4_SESSIONID_SIZE];
	uint32_t sequence;
	uint32_t flags;		/* as granted */
	struct n4_channel fore, back;
};

/* What SEQUENCE hands the rest of the compound: the slot it holds. */
struct n4_slot_ref {
	struct n4_session *session;
	uint32_t slot;
	uint32_t cache_max;	/* bytes its cache may keep */
	uint32_t resp_max;	/* bytes a reply on the session may have (ca_maxresponsesize) */
};

struct n4_sequence_in {
	uint8_t sessionid[N4_SESSIONID_SIZE];
	uint32_t sequenceid, slotid, highest_slotid;
	uint32_t nops;		/* operations in the compound */
	size_t reqlen;		/* bytes of the call, RPC header included */
};

struct n4_sequence_out {
	uint32_t highest_slotid, target_highest_slotid, status_flags;
	uint32_t maxoperations;		/* as granted to the session */
	uint64_t clientid;
	/* The back channel, for SEQ4_STATUS_CB_PATH_DOWN*: held (conn), wanted, probed up. */
	uint64_t back_conn;
	int back_wanted, back_up;
};

/* ---- the back channel (RFC 8881 2.10.3.1, 18.33, 18.34, 18.36) ---- */

/*
 * A session's back channel: the connection held for calls to the client
 * (the rpc layer's handle, opaque here: 0 for none), the program and
 * credential they carry, whether the last probe was answered (1), not
 * (0) or is pending (-1), and the slot's next CB_SEQUENCE sequence id.
 */
struct n4_back {
	uint64_t conn;
	uint32_t program;
	struct n4_cb_sec sec;
	int up;
	uint32_t seq;
	uint32_t minor;			/* of the client: CB_COMPOUND's minorversion */
};

/*
 * The rpc layer's release of a held connection, for sessions that go with
 * one (set once at start-up by the room, so that state needs no rpc).
 */
void n4_set_back_release(void (*fn)(uint64_t conn));
/*
 * CREATE_SESSION with CONN_BACK_CHAN, BIND_CONN_TO_SESSION for the back
 * channel, BACKCHANNEL_CTL: conn (0: keep the one held) becomes the
 * session's, and program and sec with it when given (NULL: keep). The
 * connection held before is released. N4_BADSESSION when it is gone
 * (then conn is released too).
 */
enum n4_result n4_session_set_back(const uint8_t sessionid[N4_SESSIONID_SIZE], uint64_t conn,
    const uint32_t *program, const struct n4_cb_sec *sec);
/* What a CB_NULL probe of the session needs: N4_BADSESSION, or N4_OK. */
enum n4_result n4_session_back(const uint8_t sessionid[N4_SESSIONID_SIZE], struct n4_back *out);
/* A probe's answer (1: answered, 0: not). */
void n4_session_back_up(const uint8_t sessionid[N4_SESSIONID_SIZE], int up);
/*
 * May the client get a delegation: a 4.0 callback that answered its
 * probe, or a 4.1 back channel not found down?
 */
int n4_client_cb_up(uint64_t clientid);
/*
 * For a CB_COMPOUND to the client: a session with a back channel that
 * answers, its id, and its back channel with the slot's next sequence id;
 * the slot is the caller's until n4_session_back_done (N4_DELAY while
 * another call holds it; N4_STALE_CLIENTID: no such client or channel).
 */
enum n4_result n4_client_back(uint64_t clientid, uint8_t sessionid[N4_SESSIONID_SIZE],
    struct n4_back *out);
void n4_session_back_done(const uint8_t sessionid[N4_SESSIONID_SIZE], int answered);

/* ---- NFSv4.0 (RFC 7530 16.33, 16.34, 16.29; nfs40_clients.c) ---- */

/* SETCLIENTID's callback: where a delegation would be recalled (issue 29's next step). */
struct n40_callback {
	uint32_t program, ident;
	char netid[8];			/* "tcp", "tcp6" (r_netid is at most 5 bytes of those) */
	char addr[64];			/* the universal address, "h1.h2.h3.h4.p1.p2" */
	struct sockaddr_storage local;	/* ours the client called: calls back come from it */
};

struct n40_setclientid_in {
	const void *id;			/* nfs_client_id4's id */
	size_t idlen;
	uint8_t verifier[N4_VERIFIER_SIZE];
	struct n4_principal who;
	struct n40_callback cb;
	struct sockaddr_storage addr;	/* where it came from, for usernfsctl clients */
};

struct n40_setclientid_out {
	uint64_t clientid;
	uint8_t confirm[N4_VERIFIER_SIZE];
	struct n40_callback inuse;	/* N4_CLID_INUSE: the record's holder's callback */
};

/* SETCLIENTID's five cases: a new record, a callback update, a rebooted client... */
enum n4_result n40_setclientid(const struct n40_setclientid_in *in,
    struct n40_setclientid_out *out);
/*
 * SETCLIENTID_CONFIRM: the record (or the callback update) that clientid
 * and confirm name is confirmed; a rebooted client's old record goes.
 * A confirmed client's record is on stable storage before this returns.
 */
enum n4_result n40_setclientid_confirm(uint64_t clientid, const uint8_t confirm[N4_VERIFIER_SIZE],
    const struct n4_principal *who);
/* NFSv4.0: the callback of a confirmed client (N4_OK), for a probe or a recall. */
enum n4_result n40_client_callback(uint64_t clientid, struct n40_callback *cb);
/* What the probe of it found (1: answered). */
void n40_client_cb_up(uint64_t clientid, int up);
/* Has a 4.0 client's callback been found down (RENEW's CB_PATH_DOWN)? */
int n40_client_cb_down(uint64_t clientid);
/*
 * RENEW, and every NFSv4.0 operation that names a client (its clientid,
 * or a stateid of its): the lease runs anew. N4_STALE_CLIENTID for a
 * client that is not there, or not confirmed.
 */
enum n4_result n40_renew(uint64_t clientid);

/* Before n4_clients_init: the lease time (--lease-time), and what it is. */
void n4_set_lease(unsigned secs);
unsigned n4_lease(void);
/* At start-up: the server's instance (the clientids of an earlier boot go stale). */
void n4_clients_init(void);
/* Once a second or so, from the daemon's loop: forgets expired records. */
void n4_clients_tick(void);

enum n4_result n4_exchange_id(const struct n4_exchange_in *in, struct n4_exchange_out *out);
/*
 * Grants the channels as asked but within our limits (slots, operations,
 * cached bytes, which it reserves from the budget); replays the cached
 * answer to a retry of the last one.
 */
enum n4_result n4_create_session(const struct n4_create_in *in, struct n4_create_out *out);
/*
 * Takes the slot: N4_OK (ref held until n4_slot_done), N4_REPLAY with the
 * cached reply copied to cache (at most N4_SLOT_CACHE_MAX bytes; its length
 * in *cachelen, no ref held), N4_REPLAY_UNCACHED (no ref), or an error.
 */
enum n4_result n4_sequence(const struct n4_sequence_in *in, struct n4_sequence_out *out,
    struct n4_slot_ref *ref, void *cache, size_t *cachelen);
/* Ends the compound on the slot; keeps reply (len bytes) if it is not NULL and fits. */
void n4_slot_done(struct n4_slot_ref *ref, const void *reply, size_t len);
/*
 * DESTROY_SESSION. The compound's own session may be the one: it is gone
 * for new calls at once, and freed when the last slot held on it is done.
 */
enum n4_result n4_destroy_session(const uint8_t sessionid[N4_SESSIONID_SIZE]);
enum n4_result n4_destroy_clientid(uint64_t clientid);
/* RECLAIM_COMPLETE for the whole client of the session in ref. */
enum n4_result n4_reclaim_complete(const struct n4_slot_ref *ref);
/*
 * May this client reclaim (OPEN's CLAIM_PREVIOUS, LOCK's reclaim)? In the
 * grace period, if the last run's records name it and it has not said
 * RECLAIM_COMPLETE: N4_OK, else N4_NO_GRACE.
 */
enum n4_result n4_may_reclaim(uint64_t clientid);
/*
 * Has the client of the session in ref said RECLAIM_COMPLETE (rca_one_fs
 * FALSE)? Until it has, its new opens are GRACE (RFC 8881 18.51.3).
 */
int n4_reclaims_done(const struct n4_slot_ref *ref);
/* BIND_CONN_TO_SESSION: the session exists (its fore channel takes any connection). */
enum n4_result n4_session_exists(const uint8_t sessionid[N4_SESSIONID_SIZE]);
/* Is the held slot's session this one? */
int n4_slot_is_session(const struct n4_slot_ref *ref, const uint8_t sessionid[N4_SESSIONID_SIZE]);

/* Every client and session gone (the fuzzer's fixture is built again after each call). */
void n4_clients_reset(void);

/* For the gauges: records, confirmed ones, sessions, cached reply bytes reserved. */
struct n4_counts {
	unsigned clients, confirmed, sessions;
	size_t cache_reserved;
};
void n4_clients_count(struct n4_counts *c);

/* One client record, for usernfsctl clients. */
struct n4_client_info {
	uint64_t clientid;
	const uint8_t *owner;		/* co_ownerid: valid during the call only */
	size_t ownerlen;
	struct sockaddr_storage addr;	/* of its last EXCHANGE_ID */
	int confirmed;
	int minor;			/* 0: SETCLIENTID's; 1 or 2: of EXCHANGE_ID's compound */
	unsigned sessions;
	unsigned idle_secs;		/* since it last renewed its lease */
};
/* fn for each client record (the table's lock is held: fn must not call back in). */
void n4_clients_foreach(void (*fn)(void *arg, const struct n4_client_info *ci), void *arg);

#endif
