/*
 * The NFSv4.1 client and session records (state/nfs4_clients.c) against
 * RFC 8881's cases: EXCHANGE_ID 18.35.5, CREATE_SESSION's replay cache
 * 18.36.4, SEQUENCE's slots 2.10.6.1, and the destroy operations.
 */
#include "config.h"

#include <string.h>

#include "state/nfs4_clients.h"
#include "unit.h"

static struct n4_exchange_in
owner(const char *name, char verf, uint32_t uid)
{
	struct n4_exchange_in in;

	memset(&in, 0, sizeof(in));
	in.owner = name;
	in.ownerlen = strlen(name);
	memset(in.verifier, verf, sizeof(in.verifier));
	in.who.flavor = 1;
	in.who.uid = uid;
	return in;
}

static struct n4_create_in
create(uint64_t clientid, uint32_t seq, uint32_t uid, uint32_t slots)
{
	struct n4_create_in in;

	memset(&in, 0, sizeof(in));
	in.clientid = clientid;
	in.sequence = seq;
	in.who.flavor = 1;
	in.who.uid = uid;
	in.fore.maxrequestsize = in.fore.maxresponsesize = 65536;
	in.fore.maxresponsesize_cached = 8192;
	in.fore.maxoperations = 16;
	in.fore.maxrequests = slots;
	return in;
}

static enum n4_result
seq(const uint8_t *sid, uint32_t seqid, uint32_t slot, struct n4_slot_ref *ref,
    char *cache, size_t *len)
{
	struct n4_sequence_in in;
	struct n4_sequence_out out;

	memset(&in, 0, sizeof(in));
	memcpy(in.sessionid, sid, N4_SESSIONID_SIZE);
	in.sequenceid = seqid;
	in.slotid = slot;
	in.nops = 2;
	return n4_sequence(&in, &out, ref, cache, len);
}

static void
test_exchange(void)
{
	struct n4_exchange_in a = owner("host-a", 1, 0), b;
	struct n4_exchange_out o1, o2;
	struct n4_create_in cin;
	struct n4_create_out cout;

	/* Case 1: a new owner gets an unconfirmed record. */
	CHECK(n4_exchange_id(&a, &o1) == N4_OK && !o1.confirmed);
	/* Case 4: again before CREATE_SESSION: a new record replaces it. */
	CHECK(n4_exchange_id(&a, &o2) == N4_OK && o2.clientid != o1.clientid);
	cin = create(o1.clientid, o1.sequenceid, 0, 4);
	CHECK(n4_create_session(&cin, &cout) == N4_STALE_CLIENTID);
	cin = create(o2.clientid, o2.sequenceid + 1, 0, 4);
	CHECK(n4_create_session(&cin, &cout) == N4_SEQ_MISORDERED);
	cin = create(o2.clientid, o2.sequenceid, 7, 4);
	CHECK(n4_create_session(&cin, &cout) == N4_CLID_INUSE);
	cin = create(o2.clientid, o2.sequenceid, 0, 4);
	CHECK(n4_create_session(&cin, &cout) == N4_OK);
	/* Case 2: the same client again: its confirmed record. */
	CHECK(n4_exchange_id(&a, &o1) == N4_OK && o1.confirmed && o1.clientid == o2.clientid);
	/* Case 3: another principal, while sessions live: CLID_INUSE. */
	b = owner("host-a", 1, 5);
	CHECK(n4_exchange_id(&b, &o1) == N4_CLID_INUSE);
	/* Updates: cases 6-9. */
	a.update = 1;
	CHECK(n4_exchange_id(&a, &o1) == N4_OK && o1.clientid == o2.clientid);
	b = owner("host-a", 2, 0);
	b.update = 1;
	CHECK(n4_exchange_id(&b, &o1) == N4_NOT_SAME);
	b = owner("host-a", 1, 9);
	b.update = 1;
	CHECK(n4_exchange_id(&b, &o1) == N4_PERM);
	b = owner("host-nobody", 1, 0);
	b.update = 1;
	CHECK(n4_exchange_id(&b, &o1) == N4_NOENT);
	/* Case 5: a restart (new verifier): a new record, confirmed by CREATE_SESSION. */
	b = owner("host-a", 3, 0);
	CHECK(n4_exchange_id(&b, &o1) == N4_OK && !o1.confirmed && o1.clientid != o2.clientid);
	cin = create(o1.clientid, o1.sequenceid, 0, 4);
	CHECK(n4_create_session(&cin, &cout) == N4_OK);
	CHECK(n4_destroy_clientid(o2.clientid) == N4_STALE_CLIENTID);	/* gone with it */
	CHECK(n4_destroy_clientid(o1.clientid) == N4_CLIENTID_BUSY);
	CHECK(n4_destroy_session(cout.sessionid) == N4_OK);
	CHECK(n4_destroy_session(cout.sessionid) == N4_BADSESSION);
	CHECK(n4_destroy_clientid(o1.clientid) == N4_OK);
}

static void
test_sessions(void)
{
	struct n4_exchange_in a = owner("host-b", 1, 0);
	struct n4_exchange_out o;
	struct n4_create_in cin;
	struct n4_create_out c1, c2;
	struct n4_slot_ref ref, ref2;
	char cache[N4_SLOT_CACHE_MAX];
	size_t len = 0;
	uint8_t bad[N4_SESSIONID_SIZE] = { 0 };

	CHECK(n4_exchange_id(&a, &o) == N4_OK);
	cin = create(o.clientid, o.sequenceid, 0, 200);
	CHECK(n4_create_session(&cin, &c1) == N4_OK);
	CHECK(c1.fore.maxrequests == N4_MAX_SLOTS);
	CHECK(c1.fore.maxresponsesize_cached == N4_SLOT_CACHE_MAX);
	CHECK(c1.flags == 0);			/* no back channel, no persistence */
	/* A retry of CREATE_SESSION: the same session, not a second one. */
	CHECK(n4_create_session(&cin, &c2) == N4_OK);
	CHECK(memcmp(c1.sessionid, c2.sessionid, N4_SESSIONID_SIZE) == 0);
	cin.sequence += 2;
	CHECK(n4_create_session(&cin, &c2) == N4_SEQ_MISORDERED);

	CHECK(seq(bad, 1, 0, &ref, cache, &len) == N4_BADSESSION);
	CHECK(seq(c1.sessionid, 1, N4_MAX_SLOTS, &ref, cache, &len) == N4_BADSLOT);
	CHECK(seq(c1.sessionid, 2, 0, &ref, cache, &len) == N4_SEQ_MISORDERED);
	CHECK(seq(c1.sessionid, 1, 0, &ref, cache, &len) == N4_OK);
	/* A retry while the first still runs: DELAY. */
	CHECK(seq(c1.sessionid, 1, 0, &ref2, cache, &len) == N4_DELAY);
	n4_slot_done(&ref, "reply-one", 9);
	CHECK(seq(c1.sessionid, 1, 0, &ref2, cache, &len) == N4_REPLAY);
	CHECK(len == 9 && memcmp(cache, "reply-one", 9) == 0);
	/* Not kept: a retry is answered uncached. */
	CHECK(seq(c1.sessionid, 2, 0, &ref, cache, &len) == N4_OK);
	n4_slot_done(&ref, NULL, 0);
	CHECK(seq(c1.sessionid, 2, 0, &ref, cache, &len) == N4_REPLAY_UNCACHED);
	/* Too big to keep: not kept. */
	CHECK(seq(c1.sessionid, 3, 0, &ref, cache, &len) == N4_OK);
	n4_slot_done(&ref, cache, N4_SLOT_CACHE_MAX + 1);
	CHECK(seq(c1.sessionid, 3, 0, &ref, cache, &len) == N4_REPLAY_UNCACHED);
	/* The slot's sequence wraps (RFC 8881 2.10.6.1). */
	CHECK(seq(c1.sessionid, 1, 5, &ref, cache, &len) == N4_OK);
	CHECK(n4_slot_is_session(&ref, c1.sessionid));
	CHECK(n4_reclaim_complete(&ref) == N4_OK);
	CHECK(n4_reclaim_complete(&ref) == N4_COMPLETE_ALREADY);
	/* Destroyed while held: gone for others, freed when released. */
	CHECK(n4_destroy_session(c1.sessionid) == N4_OK);
	CHECK(seq(c1.sessionid, 2, 5, &ref2, cache, &len) == N4_BADSESSION);
	n4_slot_done(&ref, "x", 1);
	CHECK(n4_session_exists(c1.sessionid) == N4_BADSESSION);
	CHECK(n4_destroy_clientid(o.clientid) == N4_OK);
}

static void
test_limits(void)
{
	struct n4_exchange_in a = owner("host-c", 1, 0);
	struct n4_exchange_out o;
	struct n4_create_in cin;
	struct n4_create_out cout;
	struct n4_counts n;
	char name[32];
	unsigned made = 0;

	CHECK(n4_exchange_id(&a, &o) == N4_OK);
	for (uint32_t i = 0; i < N4_MAX_SESSIONS_CLIENT + 2; i++) {
		cin = create(o.clientid, o.sequenceid + i, 0, 4);
		if (n4_create_session(&cin, &cout) != N4_OK)
			break;
		made++;
	}
	CHECK(made == N4_MAX_SESSIONS_CLIENT);
	/* A full table: the oldest unconfirmed record makes room for a new one. */
	for (unsigned i = 0; i < N4_MAX_CLIENTS + 10; i++) {
		snprintf(name, sizeof(name), "flood-%u", i);
		a = owner(name, 1, 0);
		CHECK(n4_exchange_id(&a, &o) == N4_OK);
	}
	n4_clients_count(&n);
	CHECK(n.clients == N4_MAX_CLIENTS);
	CHECK(n.confirmed == 1);
	CHECK(n.sessions == N4_MAX_SESSIONS_CLIENT);
	CHECK(n.cache_reserved == N4_MAX_SESSIONS_CLIENT * 4 * N4_SLOT_CACHE_MAX);
}

int
main(void)
{
	n4_clients_init();
	test_exchange();
	test_sessions();
	test_limits();
	return unit_done("test_nfs4_clients");
}
