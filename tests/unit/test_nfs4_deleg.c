/*
 * Read delegations in the state layer (state/nfs4_state.c): when one is
 * granted, what recalls it (an open for writing, anyone's, the holder's
 * too; a change of attributes or names by anyone but the holder), that a
 * recall is asked for once, DELEGRETURN, revocation after the limit (the
 * stateid stays, DELEG_REVOKED, until FREE_STATEID), a
 * delegation's stateid for READ but not WRITE, and the client's going.
 * Leases are the fs layer's: -1 here (none), which the state drops as a
 * no-op.
 */
#include "config.h"

#include <string.h>

#include "state/nfs4_state.h"
#include "unit.h"

static unsigned recalls;
static uint64_t recalled_client;

static int refuse;	/* count_recall says the queue is full */

static int
count_recall(void *arg, uint64_t clientid, const struct n4_stateid *sid, const void *fh,
    size_t fhlen, const struct sockaddr_storage *peer)
{
	(void)arg; (void)sid; (void)peer;
	recalls++;
	recalled_client = clientid;
	CHECK(fhlen == 4 && memcmp(fh, "fh-1", 4) == 0);
	return refuse ? -1 : 0;
}

static struct n4_deleg_in
deleg(uint64_t clientid, uint64_t ino)
{
	struct n4_deleg_in in;

	memset(&in, 0, sizeof(in));
	in.clientid = clientid;
	in.file.export_id = 1;
	in.file.ino = ino;
	in.lease = -1;
	in.fh = "fh-1";
	in.fhlen = 4;
	return in;
}

static void
test_grant_and_recall(void)
{
	struct n4_deleg_in a = deleg(100, 10), b = deleg(200, 10);
	struct n4_stateid sa, sb, so;
	struct n4_open_in o;
	struct n4_state_counts n;
	unsigned revoked;

	CHECK(n4_deleg_grant(&a, &sa) == N4S_OK);
	CHECK(n4_deleg_grant(&a, &so) == N4S_SHARE_DENIED);	/* one per client and file */
	CHECK(n4_deleg_grant(&b, &sb) == N4S_OK);		/* read delegations share */
	n4_state_count(&n);
	CHECK(n.delegations == 2);
	/* The stateid reads, but does not write. */
	CHECK(n4_stateid_use(100, &sa, &a.file, N4_SHARE_READ) == N4S_OK);
	CHECK(n4_stateid_use(100, &sa, &a.file, N4_SHARE_WRITE) == N4S_OPENMODE);
	/* A read open is in no one's way; an open for writing recalls both, once. */
	CHECK(n4_deleg_conflicts(&a.file, 300, N4_SHARE_READ, 1000, count_recall, NULL) == 0);
	CHECK(n4_deleg_conflicts(&a.file, 300, N4_SHARE_WRITE, 1000, count_recall, NULL) == 2);
	CHECK(recalls == 2);
	CHECK(n4_deleg_conflicts(&a.file, 300, N4_SHARE_WRITE, 1001, count_recall, NULL) == 2);
	CHECK(recalls == 2);
	/* Being recalled: no new one for the file. */
	{
		struct n4_deleg_in c = deleg(300, 10);

		CHECK(n4_deleg_grant(&c, &so) == N4S_SHARE_DENIED);
	}
	/* One comes back; the other is revoked once the limit has passed. */
	CHECK(n4_deleg_return(100, &sa) == N4S_OK);
	CHECK(n4_deleg_return(100, &sa) == N4S_BAD_STATEID);
	n4_deleg_tick(1005, 10, 0, count_recall, NULL, &revoked);
	CHECK(revoked == 0);
	CHECK(!n4_state_client_revoked(200));
	n4_deleg_tick(1011, 10, 0, count_recall, NULL, &revoked);
	CHECK(revoked == 1);
	n4_state_count(&n);
	CHECK(n.delegations == 0);
	/* Revoked: the stateid says so until the client frees it (SEQUENCE's flag meanwhile). */
	CHECK(n4_state_client_revoked(200));
	CHECK(!n4_state_client_revoked(100));
	CHECK(n4_deleg_return(200, &sb) == N4S_DELEG_REVOKED);
	CHECK(n4_stateid_test(200, &sb) == N4S_DELEG_REVOKED);
	CHECK(n4_stateid_use(200, &sb, &b.file, N4_SHARE_READ) == N4S_DELEG_REVOKED);
	CHECK(n4_stateid_free(200, &sb) == N4S_OK);
	CHECK(!n4_state_client_revoked(200));
	CHECK(n4_stateid_test(200, &sb) == N4S_BAD_STATEID);
	/* A file open for writing gets none. */
	memset(&o, 0, sizeof(o));
	o.clientid = 100;
	o.owner = "ow";
	o.ownerlen = 2;
	o.file = a.file;
	o.access = N4_SHARE_WRITE;
	CHECK(n4_open(&o, &so) == N4S_OK);
	CHECK(n4_deleg_grant(&a, &sa) == N4S_SHARE_DENIED);
	n4_state_client_gone(100);
}

static void
test_changes(void)
{
	struct n4_deleg_in a = deleg(100, 20);
	struct n4_stateid sa;
	unsigned revoked;

	recalls = 0;
	CHECK(n4_deleg_grant(&a, &sa) == N4S_OK);
	/* The holder's own change does not recall it; anyone else's does. */
	CHECK(n4_deleg_break_others(&a.file, 100, 2000, count_recall, NULL) == 0);
	CHECK(recalls == 0);
	CHECK(n4_deleg_break_others(&a.file, 0, 2000, count_recall, NULL) == 1);
	CHECK(recalls == 1 && recalled_client == 100);
	/* A lease the kernel began to break (none here: -1) is recalled on the tick that looks. */
	{
		struct n4_deleg_in b = deleg(100, 21);
		struct n4_stateid sb;

		CHECK(n4_deleg_grant(&b, &sb) == N4S_OK);
		n4_deleg_tick(2001, 10, 1, count_recall, NULL, &revoked);
		CHECK(recalls == 2);
	}
	/* A recall that could not be queued is asked for again on the next tick, once. */
	{
		struct n4_deleg_in e = deleg(100, 22);
		struct n4_stateid se;

		CHECK(n4_deleg_grant(&e, &se) == N4S_OK);
		refuse = 1;
		CHECK(n4_deleg_break_others(&e.file, 0, 2003, count_recall, NULL) == 1);
		CHECK(recalls == 3);
		refuse = 0;
		n4_deleg_tick(2004, 10, 0, count_recall, NULL, &revoked);
		CHECK(recalls == 4);
		n4_deleg_tick(2005, 10, 0, count_recall, NULL, &revoked);
		CHECK(recalls == 4);
	}
	/* Its client goes: so do its delegations. */
	n4_state_client_gone(100);
	CHECK(n4_deleg_return(100, &sa) == N4S_BAD_STATEID);
	CHECK(n4_deleg_break_others(&a.file, 0, 2002, count_recall, NULL) == 0);
}

static void
test_bound(void)
{
	struct n4_stateid s;
	unsigned made = 0;

	for (uint64_t i = 0; i < N4_MAX_DELEGS + 5; i++) {
		struct n4_deleg_in in = deleg(500 + i / 4000, 1000 + i);

		if (n4_deleg_grant(&in, &s) == N4S_OK)
			made++;
	}
	CHECK(made == N4_MAX_DELEGS);
	n4_state_reset();
}

int
main(void)
{
	n4_state_init(7);
	test_grant_and_recall();
	test_changes();
	test_bound();
	return unit_done("test_nfs4_deleg");
}
