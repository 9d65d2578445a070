/*
 * NFSv4.0's client records (state/nfs40_clients.c) against RFC 7530
 * 16.33.5's cases and 16.34's confirmation, and its owners' sequence ids
 * (state/nfs40_owners.c, 9.1.7-9.1.8): next, retransmission, bad, an
 * unconfirmed owner's restart, a new lock-owner's first seqid, the bound.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "state/nfs40_owners.h"
#include "state/nfs4_clients.h"
#include "unit.h"

static struct n40_setclientid_in
client(const char *id, char verf, uint32_t uid, const char *cbaddr)
{
	struct n40_setclientid_in in;

	memset(&in, 0, sizeof(in));
	in.id = id;
	in.idlen = strlen(id);
	memset(in.verifier, verf, sizeof(in.verifier));
	in.who.flavor = 1;
	in.who.uid = uid;
	in.cb.program = 0x40000000;
	snprintf(in.cb.netid, sizeof(in.cb.netid), "tcp");
	snprintf(in.cb.addr, sizeof(in.cb.addr), "%s", cbaddr);
	return in;
}

static void
test_setclientid(void)
{
	struct n40_setclientid_in a = client("linux-a", 1, 0, "127.0.0.1.3.1");
	struct n40_setclientid_out o1, o2, o3;
	struct n4_principal other = { 1, 1000, 1000, 0 };
	uint8_t wrong[N4_VERIFIER_SIZE];

	/* Case 1: a new client; not usable until confirmed. */
	CHECK(n40_setclientid(&a, &o1) == N4_OK);
	CHECK(n40_renew(o1.clientid) == N4_STALE_CLIENTID);
	memset(wrong, 0x5a, sizeof(wrong));
	CHECK(n40_setclientid_confirm(o1.clientid, wrong, &a.who) == N4_STALE_CLIENTID);
	CHECK(n40_setclientid_confirm(o1.clientid, o1.confirm, &other) == N4_CLID_INUSE);
	CHECK(n40_setclientid_confirm(o1.clientid, o1.confirm, &a.who) == N4_OK);
	CHECK(n40_renew(o1.clientid) == N4_OK);
	/* The confirmation again: a retransmission, OK. */
	CHECK(n40_setclientid_confirm(o1.clientid, o1.confirm, &a.who) == N4_OK);

	/* Case 2: same verifier, a new callback: same clientid, a new confirm verifier. */
	a = client("linux-a", 1, 0, "127.0.0.1.3.2");
	CHECK(n40_setclientid(&a, &o2) == N4_OK);
	CHECK(o2.clientid == o1.clientid);
	CHECK(memcmp(o2.confirm, o1.confirm, N4_VERIFIER_SIZE) != 0);
	CHECK(n40_renew(o1.clientid) == N4_OK);		/* the record stands meanwhile */
	CHECK(n40_setclientid_confirm(o2.clientid, o2.confirm, &a.who) == N4_OK);

	/* Another principal, while the record's lease runs: CLID_INUSE, with its callback. */
	a = client("linux-a", 1, 1000, "127.0.0.1.9.9");
	CHECK(n40_setclientid(&a, &o3) == N4_CLID_INUSE);
	CHECK(strcmp(o3.inuse.addr, "127.0.0.1.3.2") == 0);

	/* Case 3: a rebooted client; the old record stands until the new one is confirmed. */
	a = client("linux-a", 2, 0, "127.0.0.1.3.3");
	CHECK(n40_setclientid(&a, &o3) == N4_OK);
	CHECK(o3.clientid != o1.clientid);
	CHECK(n40_renew(o1.clientid) == N4_OK);
	CHECK(n40_setclientid_confirm(o3.clientid, o3.confirm, &a.who) == N4_OK);
	CHECK(n40_renew(o1.clientid) == N4_STALE_CLIENTID);
	CHECK(n40_renew(o3.clientid) == N4_OK);

	/* Cases 4 and 5: an unconfirmed record replaced by the next SETCLIENTID. */
	a = client("linux-b", 1, 0, "127.0.0.1.4.1");
	CHECK(n40_setclientid(&a, &o1) == N4_OK);
	a = client("linux-b", 3, 0, "127.0.0.1.4.1");
	CHECK(n40_setclientid(&a, &o2) == N4_OK);
	CHECK(n40_setclientid_confirm(o1.clientid, o1.confirm, &a.who) == N4_STALE_CLIENTID);
	CHECK(n40_setclientid_confirm(o2.clientid, o2.confirm, &a.who) == N4_OK);

	/* An empty id is no client. */
	a = client("", 1, 0, "");
	CHECK(n40_setclientid(&a, &o1) == N4_NOENT);
	/* A made-up clientid. */
	CHECK(n40_renew(0x1234) == N4_STALE_CLIENTID);
}

static void
test_seqids(void)
{
	struct n40_owner_key k = { 77, 0, "owner-1", 7 };
	struct n40_owner *o;
	char reply[N40_REPLAY_MAX];
	size_t len = 0;

	/* A new owner: any seqid; then the next, the last again, and others. */
	CHECK(n40_owner_take(&k, 5, 1, &o, reply, &len) == N40_SEQ_FIRST);
	CHECK(!n40_owner_confirmed(o));
	n40_owner_done(o, 5, 1, "open-5", 6);
	CHECK(n40_owner_take(&k, 5, 1, &o, reply, &len) == N40_SEQ_REPLAY);
	CHECK(len == 6 && memcmp(reply, "open-5", 6) == 0);
	/* An unconfirmed owner's next OPEN starts it anew, whatever its seqid. */
	CHECK(n40_owner_take(&k, 9, 1, &o, reply, &len) == N40_SEQ_RESTART);
	n40_owner_done(o, 9, 1, "open-9", 6);
	/* OPEN_CONFIRM (not an OPEN): the seqid rules hold. */
	CHECK(n40_owner_take(&k, 11, 0, &o, reply, &len) == N40_SEQ_BAD);
	CHECK(n40_owner_take(&k, 10, 0, &o, reply, &len) == N40_SEQ_NEW);
	n40_owner_confirm(o);
	n40_owner_done(o, 10, 1, "confirm-10", 10);
	/* Confirmed: an OPEN with a bad seqid is BAD_SEQID now. */
	CHECK(n40_owner_take(&k, 12, 1, &o, reply, &len) == N40_SEQ_BAD);
	/* An error that does not bump: the same seqid is new again after it. */
	CHECK(n40_owner_take(&k, 11, 1, &o, reply, &len) == N40_SEQ_NEW);
	n40_owner_done(o, 11, 0, NULL, 0);
	CHECK(n40_owner_take(&k, 11, 1, &o, reply, &len) == N40_SEQ_NEW);
	n40_owner_done(o, 11, 1, "open-11", 7);
	CHECK(n40_owner_take(&k, 10, 1, &o, reply, &len) == N40_SEQ_BAD);

	/* A lock-owner starts at LOCK's lock_seqid. */
	struct n40_owner_key l = { 77, 1, "lock-1", 6 };

	CHECK(n40_lock_owner_start(&l, 100) == 0);
	CHECK(n40_owner_take(&l, 100, 0, &o, reply, &len) == N40_SEQ_BAD);	/* nothing kept */
	CHECK(n40_owner_take(&l, 101, 0, &o, reply, &len) == N40_SEQ_NEW);
	n40_owner_done(o, 101, 1, "lock-101", 8);
	n40_owner_forget(&l);
	CHECK(n40_owner_take(&l, 500, 0, &o, reply, &len) == N40_SEQ_FIRST);
	n40_owner_done(o, 500, 1, "x", 1);

	/* A client that goes takes its owners. */
	n40_owners_client_gone(77);
	CHECK(n40_owner_take(&k, 1, 1, &o, reply, &len) == N40_SEQ_FIRST);
	n40_owner_done(o, 1, 1, "y", 1);
	n40_owners_reset();
}

static void
test_owner_bound(void)
{
	struct n40_owner *o;
	char name[32], reply[N40_REPLAY_MAX];
	size_t len;
	unsigned taken = 0;

	/* Past the bound, the oldest idle owner of the client goes. */
	for (unsigned i = 0; i < N40_MAX_OWNERS_CLIENT + 5; i++) {
		struct n40_owner_key k = { 5, 0, name, 0 };

		k.ownerlen = (size_t)snprintf(name, sizeof(name), "own-%u", i);
		if (n40_owner_take(&k, 1, 1, &o, reply, &len) == N40_SEQ_FIRST) {
			n40_owner_done(o, 1, 1, "r", 1);
			taken++;
		}
	}
	CHECK(taken == N40_MAX_OWNERS_CLIENT + 5);
	{
		struct n40_owner_key first = { 5, 0, "own-0", 5 };

		/* own-0 went: it starts anew. */
		CHECK(n40_owner_take(&first, 1, 1, &o, reply, &len) == N40_SEQ_FIRST);
		n40_owner_done(o, 1, 1, "r", 1);
	}
	n40_owners_reset();
}

int
main(void)
{
	n4_clients_init();
	test_setclientid();
	test_seqids();
	test_owner_bound();
	return unit_done("test_nfs40");
}
