/* exports(5) parser and client matching. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler.h"
#include "exports/exports.h"
#include "unit.h"

static char errs[4096];

static void
collect(void *arg, const char *msg)
{
	(void)arg;
	strncat(errs, msg, sizeof(errs) - strlen(errs) - 2);
	strcat(errs, "\n");
}

static struct export_table *
parse(const char *text)
{
	errs[0] = '\0';
	return exports_parse_text("exports", text, collect, NULL);
}

static struct sockaddr_storage
addr(const char *s)
{
	struct sockaddr_storage ss;

	memset(&ss, 0, sizeof(ss));
	if (strchr(s, ':')) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
		a->sin6_family = AF_INET6;
		inet_pton(AF_INET6, s, &a->sin6_addr);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;
		a->sin_family = AF_INET;
		inet_pton(AF_INET, s, &a->sin_addr);
	}
	return ss;
}

static const struct export_client *
match(const struct export *e, const char *a)
{
	struct sockaddr_storage ss = addr(a);

	return export_match(e, (struct sockaddr *)&ss);
}

static void
test_basic(void)
{
	struct export_table *t = parse(
	    "# comment\n"
	    "\n"
	    "/srv/a 192.0.2.1(rw,no_root_squash,insecure) 10.0.0.0/8(ro) *(ro,all_squash,anonuid=7,anongid=8)\n"
	    "/srv/b   2001:db8::/32(rw)   192.168.1.0/255.255.255.0\n"
	    "\"/srv/with space\" *(rw)  # trailing comment\n"
	    "/srv/oct\\040al localhost(rw)\n"
	    "/srv/cont \\\n"
	    "   127.0.0.1(rw)\n");
	const struct export *e;
	const struct export_client *c;
	const char *rest;

	CHECK(t != NULL);
	if (t == NULL) {
		fprintf(stderr, "%s", errs);
		return;
	}
	CHECK(t->n == 5);
	e = &t->exports[0];
	CHECK(strcmp(e->path, "/srv/a") == 0);
	CHECK(e->nclients == 3);
	c = match(e, "192.0.2.1");
	CHECK(c && c->kind == CLIENT_HOST && !(c->opts.flags & EXP_RO) &&
	    !(c->opts.flags & EXP_ROOT_SQUASH) && !(c->opts.flags & EXP_SECURE));
	c = match(e, "10.1.2.3");
	CHECK(c && c->kind == CLIENT_NET && (c->opts.flags & EXP_RO) && (c->opts.flags & EXP_SECURE));
	c = match(e, "198.51.100.9");
	CHECK(c && c->kind == CLIENT_ANY && (c->opts.flags & EXP_ALL_SQUASH) &&
	    c->opts.anonuid == 7 && c->opts.anongid == 8);
	e = &t->exports[1];
	CHECK(match(e, "2001:db8:1::5") != NULL);
	CHECK(match(e, "2001:db9::5") == NULL);
	CHECK(match(e, "192.168.1.77") != NULL && (match(e, "192.168.1.77")->opts.flags & EXP_RO));
	CHECK(match(e, "192.168.2.77") == NULL);
	CHECK(strcmp(t->exports[2].path, "/srv/with space") == 0);
	CHECK(strcmp(t->exports[3].path, "/srv/oct al") == 0);
	CHECK(match(&t->exports[3], "127.0.0.1") != NULL);
	CHECK(strcmp(t->exports[4].path, "/srv/cont") == 0);
	CHECK(match(&t->exports[4], "127.0.0.1") != NULL);
	/* Export ids are stable functions of the path. */
	CHECK(t->exports[0].root.id != t->exports[1].root.id);
	/* Whole components only. */
	CHECK(exports_find_path(t, "/srv/a", &rest) == &t->exports[0] && *rest == '\0');
	CHECK(exports_find_path(t, "/srv/a/x/y", &rest) == &t->exports[0] && strcmp(rest, "x/y") == 0);
	CHECK(exports_find_path(t, "/srv/ab", &rest) == NULL);
	exports_free(t);
}

static void
test_defaults(void)
{
	struct export_table *t = parse("/x -rw,insecure 10.0.0.1 10.0.0.2(ro)\n/y\n");

	CHECK(t != NULL);
	if (t == NULL)
		return;
	CHECK(!(match(&t->exports[0], "10.0.0.1")->opts.flags & EXP_RO));
	CHECK(!(match(&t->exports[0], "10.0.0.1")->opts.flags & EXP_SECURE));
	CHECK(match(&t->exports[0], "10.0.0.2")->opts.flags & EXP_RO);
	/* No host: everyone, read-only, root squashed (nfs-utils' defaults). */
	CHECK(match(&t->exports[1], "203.0.113.1") != NULL);
	CHECK(match(&t->exports[1], "203.0.113.1")->opts.flags & EXP_RO);
	CHECK(match(&t->exports[1], "203.0.113.1")->opts.flags & EXP_ROOT_SQUASH);
	CHECK(match(&t->exports[1], "203.0.113.1")->opts.anonuid == 65534);
	exports_free(t);
}

static void
test_specificity(void)
{
	struct export_table *t = parse("/x *(ro) 10.0.0.0/8(rw) 10.1.1.1(rw,no_root_squash)\n");
	const struct export_client *c;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	c = match(&t->exports[0], "10.1.1.1");
	CHECK(c && c->kind == CLIENT_HOST);
	c = match(&t->exports[0], "10.2.2.2");
	CHECK(c && c->kind == CLIENT_NET);
	c = match(&t->exports[0], "11.0.0.1");
	CHECK(c && c->kind == CLIENT_ANY);
	exports_free(t);
}

static void
expect_error(const char *text, const char *msg)
{
	struct export_table *t = parse(text);

	CHECK(t == NULL);
	if (strstr(errs, msg) == NULL) {
		fprintf(stderr, "expected '%s' in:\n%s", msg, errs);
		CHECK(0);
	}
	exports_free(t);
}

static void
test_errors(void)
{
	expect_error("/ok *(rw)\n/x *(bogus)\n", "exports:2: unknown option 'bogus'");
	expect_error("/x *(ro,rw)\n", "exports:1: conflicting options 'ro' and 'rw'");
	expect_error("/x *(root_squash,no_root_squash)\n",
	    "exports:1: conflicting options 'root_squash' and 'no_root_squash'");
	expect_error("/x *(insecure,secure)\n", "conflicting options 'insecure' and 'secure'");
	expect_error("relative *(rw)\n", "exports:1: export path 'relative' is not absolute");
	expect_error("/x/../y *\n", "exports:1: export path '/x/../y' is not canonical");
	expect_error("/x 10.0.0.0/33\n", "exports:1: bad network '10.0.0.0/33'");
	expect_error("/x 10.0.0.0/255.0.255.0\n", "bad network");
	expect_error("/x *(anonuid=abc)\n", "exports:1: bad number in option 'anonuid=abc'");
	expect_error("/x *(rw\n", "exports:1: bad option list");
	expect_error("\"/x *(rw)\n", "exports:1: unterminated quote");
	expect_error("/x *(rw)\n\n/x 10.0.0.1(ro)\n", "exports:3: /x is already exported at line 1");
	expect_error("/x 10.0.0.1(rw) 10.0.0.1(ro)\n", "exports:1: client '10.0.0.1' listed twice");
	expect_error("/x \\\n  *(rw)\n/y *(nope)\n", "exports:3: unknown option 'nope'");
	expect_error("/x no-such-host.invalid(rw)\n", "exports:1: cannot resolve host 'no-such-host.invalid'");
}

static void
expect_ok(struct export_table *t)
{
	CHECK(t != NULL);
	if (t == NULL)
		fprintf(stderr, "unexpected errors:\n%s", errs);
}

static const struct export_client *
match_named(const struct export *e, const char *a, const char *name)
{
	struct sockaddr_storage ss = addr(a);

	return export_match_named(e, (struct sockaddr *)&ss, name);
}

/* A bare "(opts)" is everyone, and shows as "*". */
static void
test_bare_options(void)
{
	struct export_table *t = parse("/x (rw,insecure)\n/y 10.0.0.1(ro) (rw)\n");
	const struct export_client *c;

	expect_ok(t);
	if (t == NULL)
		return;
	c = match(&t->exports[0], "198.51.100.1");
	CHECK(c && c->kind == CLIENT_ANY && strcmp(c->spec, "*") == 0);
	CHECK(c && !(c->opts.flags & (EXP_RO | EXP_SECURE)));
	c = match(&t->exports[1], "10.0.0.1");
	CHECK(c && c->kind == CLIENT_HOST && (c->opts.flags & EXP_RO));
	c = match(&t->exports[1], "10.0.0.2");
	CHECK(c && c->kind == CLIENT_ANY && !(c->opts.flags & EXP_RO));
	exports_free(t);
	expect_error("/z (rw) *(ro)\n", "exports:1: client '*' listed twice for /z");
}

static void
test_networks(void)
{
	struct export_table *t = parse(
	    "/a 2001:db8::/ffff:ffff::(rw)\n"
	    "/b 10.0.0.0/255.255.0.0\n"
	    "/c ::/0\n"
	    "/d 192.0.2.128/25\n"
	    "/e 10.1.2.3/8\n"
	    "/f 2001:db8::1 192.0.2.7\n");

	expect_ok(t);
	if (t == NULL)
		return;
	CHECK(t->exports[0].clients[0].kind == CLIENT_NET);
	CHECK(t->exports[0].clients[0].addrs[0].prefix == 32);
	CHECK(match(&t->exports[0], "2001:db8:ffff::1") != NULL);
	CHECK(match(&t->exports[0], "2001:db9::1") == NULL);
	CHECK(match(&t->exports[0], "10.0.0.1") == NULL);
	CHECK(t->exports[1].clients[0].addrs[0].prefix == 16);
	CHECK(match(&t->exports[1], "10.0.255.1") != NULL);
	CHECK(match(&t->exports[1], "10.1.0.1") == NULL);
	/* IPv4-mapped IPv6 peers are IPv4 clients. */
	CHECK(match(&t->exports[1], "::ffff:10.0.0.5") != NULL);
	CHECK(match(&t->exports[2], "fe80::1") != NULL);
	CHECK(match(&t->exports[2], "10.0.0.1") == NULL);
	CHECK(match(&t->exports[3], "192.0.2.200") != NULL);
	CHECK(match(&t->exports[3], "192.0.2.100") == NULL);
	/* Host bits below the prefix are ignored, as nfs-utils does. */
	CHECK(match(&t->exports[4], "10.200.0.1") != NULL);
	CHECK(match(&t->exports[5], "2001:db8::1") && match(&t->exports[5], "2001:db8::1")->kind == CLIENT_HOST);
	CHECK(match(&t->exports[5], "2001:db8::2") == NULL);
	CHECK(match(&t->exports[5], "::ffff:192.0.2.7") != NULL);
	exports_free(t);

	expect_error("/x 2001:db8::/ffff:0:ffff::\n", "exports:1: bad network '2001:db8::/ffff:0:ffff::'");
	expect_error("/x 2001:db8::/129\n", "exports:1: bad network '2001:db8::/129'");
	expect_error("/x 2001:db8::/255.255.0.0\n", "exports:1: bad network");
	expect_error("/x 10.0.0.0/ffff::\n", "exports:1: bad network '10.0.0.0/ffff::'");
	expect_error("/x 10.0.0.0/\n", "exports:1: bad network '10.0.0.0/'");
	expect_error("/x 10.0.0.0/-1\n", "exports:1: bad network '10.0.0.0/-1'");
	expect_error("/x 10.0.0/8\n", "exports:1: bad network '10.0.0/8'");
}

static void
test_wildcards(void)
{
	struct export_table *t = parse("/x *.example.com(rw) host?.lab node[0-9].x(ro) [!a]*.neg\n");
	const struct export *e;

	expect_ok(t);
	if (t == NULL)
		return;
	e = &t->exports[0];
	CHECK(e->nclients == 4);
	CHECK(e->clients[0].kind == CLIENT_WILDCARD && e->clients[3].kind == CLIENT_WILDCARD);
	CHECK(match_named(e, "192.0.2.1", "a.example.com") == &e->clients[0]);
	/* '*' matches dots too, so subdomains are included, as in nfs-utils. */
	CHECK(match_named(e, "192.0.2.1", "deep.sub.example.com") == &e->clients[0]);
	CHECK(match_named(e, "192.0.2.1", "A.Example.COM") == &e->clients[0]);
	CHECK(match_named(e, "192.0.2.1", "example.com") == NULL);
	CHECK(match_named(e, "192.0.2.1", "a.example.com.evil") == NULL);
	CHECK(match_named(e, "192.0.2.1", "host1.lab") == &e->clients[1]);
	CHECK(match_named(e, "192.0.2.1", "HOSTx.LAB") == &e->clients[1]);
	CHECK(match_named(e, "192.0.2.1", "host12.lab") == NULL);
	CHECK(match_named(e, "192.0.2.1", "host.lab") == NULL);
	CHECK(match_named(e, "192.0.2.1", "node7.x") == &e->clients[2]);
	CHECK(match_named(e, "192.0.2.1", "nodeA.x") == NULL);
	CHECK(match_named(e, "192.0.2.1", "b.neg") == &e->clients[3]);
	CHECK(match_named(e, "192.0.2.1", "a.neg") == NULL);
	/* No name (reverse lookup failed): wildcards cannot match. */
	CHECK(match_named(e, "192.0.2.1", NULL) == NULL);
	exports_free(t);
}

static int ng_calls;
static char lo_name[256];

/* Stands in for innetgr(3): netgroup "trusted" lists alpha and beta.example.com. */
static int
fake_innetgr(const char *group, const char *host)
{
	ng_calls++;
	if (strcmp(group, "trusted") == 0)
		return strcmp(host, "alpha") == 0 || strcmp(host, "beta.example.com") == 0;
	if (strcmp(group, "lo") == 0)
		return lo_name[0] && strcmp(host, lo_name) == 0;
	return 0;
}

static void
test_netgroups(void)
{
	struct export_table *t = parse("/x @trusted(rw) @other(ro)\n");
	const struct export *e;

	exports_innetgr = fake_innetgr;
	expect_ok(t);
	if (t == NULL)
		return;
	e = &t->exports[0];
	CHECK(e->clients[0].kind == CLIENT_NETGROUP && strcmp(e->clients[0].spec, "@trusted") == 0);
	/* The short name is tried too. */
	CHECK(match_named(e, "192.0.2.1", "alpha.example.com") == &e->clients[0]);
	CHECK(match_named(e, "192.0.2.1", "alpha") == &e->clients[0]);
	CHECK(match_named(e, "192.0.2.1", "beta.example.com") == &e->clients[0]);
	CHECK(match_named(e, "192.0.2.1", "beta") == NULL);
	CHECK(match_named(e, "192.0.2.1", "gamma.example.com") == NULL);
	CHECK(match_named(e, "192.0.2.1", NULL) == NULL);
	CHECK(ng_calls > 0);
	exports_free(t);
}

/* nfs-utils' order: host, network, wildcard, netgroup, anonymous. */
static void
test_precedence(void)
{
	struct export_table *t = parse(
	    "/x *(insecure) @trusted(ro) *.example.com(rw) 10.0.0.0/8(async) 10.1.1.1(no_root_squash)\n"
	    "/y 10.0.0.0/8(rw) 10.1.0.0/16(ro) @trusted(rw) *.a.com(rw) *.com(ro)\n");
	const struct export *e;

	CHECK(CLIENT_HOST < CLIENT_NET && CLIENT_NET < CLIENT_WILDCARD &&
	    CLIENT_WILDCARD < CLIENT_NETGROUP && CLIENT_NETGROUP < CLIENT_ANY);
	exports_innetgr = fake_innetgr;
	expect_ok(t);
	if (t == NULL)
		return;
	e = &t->exports[0];
	CHECK(match_named(e, "10.1.1.1", "alpha.example.com") == &e->clients[4]);
	CHECK(match_named(e, "10.2.2.2", "alpha.example.com") == &e->clients[3]);
	/* A wildcard beats a netgroup listed before it. */
	CHECK(match_named(e, "192.0.2.1", "alpha.example.com") == &e->clients[2]);
	CHECK(match_named(e, "192.0.2.1", "alpha.other.org") == &e->clients[1]);
	CHECK(match_named(e, "192.0.2.1", "gamma.other.org") == &e->clients[0]);
	CHECK(match_named(e, "192.0.2.1", NULL) == &e->clients[0]);
	/* Within one kind the first listed wins, not the narrowest. */
	e = &t->exports[1];
	CHECK(match_named(e, "10.1.2.3", NULL) == &e->clients[0]);
	CHECK(match_named(e, "192.0.2.1", "x.a.com") == &e->clients[3]);
	CHECK(match_named(e, "192.0.2.1", "alpha.a.com") == &e->clients[3]);
	CHECK(match_named(e, "192.0.2.1", "alpha") == &e->clients[2]);
	exports_free(t);
}

/* Real lookups: 127.0.0.1's name, whatever this host calls it (skipped if none). */
static void
test_reverse_lookup(void)
{
	struct sockaddr_storage lo = addr("127.0.0.1"), mapped = addr("::ffff:127.0.0.1");
	struct export_table *t;
	char text[700], again[256];
	const struct export *e;
	int calls;

	exports_innetgr = fake_innetgr;
	exports_install(NULL);
	if (exports_client_name((struct sockaddr *)&lo, lo_name, sizeof(lo_name)) < 0) {
		lo_name[0] = '\0';
		printf("# 127.0.0.1 has no forward-confirmed name here: reverse lookup checks skipped\n");
		return;
	}
	CHECK(lo_name[0] != '\0');
	CHECK(exports_client_name((struct sockaddr *)&mapped, again, sizeof(again)) == 0 &&
	    strcmp(again, lo_name) == 0);
	CHECK(exports_client_name((struct sockaddr *)&lo, again, 2) < 0 || strlen(lo_name) < 2);

	snprintf(text, sizeof(text), "/x 10.9.9.9(rw) ?%s(ro)\n/y 127.0.0.1(rw) @lo(ro)\n/z @lo(ro)\n",
	    lo_name + 1);
	t = parse(text);
	expect_ok(t);
	if (t == NULL)
		return;
	e = &t->exports[0];
	CHECK(export_match(e, (struct sockaddr *)&lo) == &e->clients[1]);
	CHECK(export_match(e, (struct sockaddr *)&mapped) == &e->clients[1]);
	/* A host entry that matches makes the netgroup irrelevant: not even asked. */
	calls = ng_calls;
	e = &t->exports[1];
	CHECK(export_match(e, (struct sockaddr *)&lo) == &e->clients[0]);
	CHECK(ng_calls == calls);
	/* Netgroup answers are cached with the name, until a table is installed. */
	e = &t->exports[2];
	CHECK(export_match(e, (struct sockaddr *)&lo) == &e->clients[0]);
	CHECK(ng_calls == calls + 1);
	CHECK(export_match(e, (struct sockaddr *)&lo) == &e->clients[0]);
	CHECK(ng_calls == calls + 1);
	exports_install(NULL);
	CHECK(export_match(e, (struct sockaddr *)&lo) == &e->clients[0]);
	CHECK(ng_calls == calls + 2);
	exports_free(t);
}

static void
test_options(void)
{
	struct export_table *t = parse(
	    "/x 10.0.0.1(rw,async,insecure,no_root_squash,all_squash,anonuid=1,anongid=2,"
	    "crossmnt,nohide,no_subtree_check,wdelay,sec=sys,mp) "
	    "10.0.0.2(ro,sync,secure,root_squash,no_all_squash,nocrossmnt,hide,subtree_check,"
	    "no_wdelay,sec=sys:sys,mountpoint=/mnt/data/) "
	    "10.0.0.3(mp=/mnt/x,mountpoint=/mnt/x/,rw,rw,anonuid=5,anonuid=5,mp=/mnt/x)\n"
	    "/y -mp=/m,crossmnt,anonuid=5 10.0.0.1(mp) 10.0.0.2(nocrossmnt,anonuid=6) 10.0.0.3\n"
	    "/z -mountpoint 10.0.0.1(mountpoint,mp)\n"
	    "/w -no_delegations 10.0.0.1 10.0.0.2(delegations)\n");
	const struct export_client *c;

	expect_ok(t);
	if (t == NULL)
		return;
	/* usernfsd's no_delegations: a line default, undone per client. */
	CHECK(t->exports[3].clients[0].opts.flags & EXP_NODELEG);
	CHECK(!(t->exports[3].clients[1].opts.flags & EXP_NODELEG));
	c = &t->exports[0].clients[0];
	CHECK(c->opts.flags == (EXP_ASYNC | EXP_ALL_SQUASH | EXP_CROSSMNT | EXP_NOHIDE | EXP_MOUNTPOINT));
	CHECK(c->opts.anonuid == 1 && c->opts.anongid == 2 && c->opts.mountpoint == NULL);
	c = &t->exports[0].clients[1];
	CHECK(c->opts.flags == (EXP_RO | EXP_SECURE | EXP_ROOT_SQUASH | EXP_MOUNTPOINT));
	CHECK(c->opts.mountpoint && strcmp(c->opts.mountpoint, "/mnt/data") == 0);
	CHECK(c->opts.anonuid == 65534 && c->opts.anongid == 65534);
	c = &t->exports[0].clients[2];
	CHECK(c->opts.mountpoint && strcmp(c->opts.mountpoint, "/mnt/x") == 0);
	CHECK(!(c->opts.flags & EXP_RO) && c->opts.anonuid == 5);
	/* Client options override the line's defaults, copied per client. */
	c = &t->exports[1].clients[0];
	CHECK((c->opts.flags & (EXP_MOUNTPOINT | EXP_CROSSMNT)) == (EXP_MOUNTPOINT | EXP_CROSSMNT));
	CHECK(c->opts.mountpoint == NULL && c->opts.anonuid == 5);
	c = &t->exports[1].clients[1];
	CHECK(!(c->opts.flags & EXP_CROSSMNT) && c->opts.anonuid == 6);
	CHECK(c->opts.mountpoint && strcmp(c->opts.mountpoint, "/m") == 0);
	c = &t->exports[1].clients[2];
	CHECK(c->opts.mountpoint && strcmp(c->opts.mountpoint, "/m") == 0 && (c->opts.flags & EXP_CROSSMNT));
	CHECK(t->exports[1].clients[1].opts.mountpoint != t->exports[1].clients[2].opts.mountpoint);
	c = &t->exports[2].clients[0];
	CHECK((c->opts.flags & EXP_MOUNTPOINT) && c->opts.mountpoint == NULL);
	exports_free(t);
}

static void
test_fsid(void)
{
	struct export_table *t = parse(
	    "/a *(fsid=1234)\n"
	    "/b *(fsid=root)\n"
	    "/c 10.0.0.1(fsid=12345678-9abc-def0-1234-56789abcdef0) "
	    "10.0.0.2(fsid=123456789ABCDEF0123456789ABCDEF0) "
	    "10.0.0.3(fsid={12345678-9abc-def0-1234-56789abcdef0}) "
	    "10.0.0.4(fsid=12:34:56:78:9a:bc:de:f0:12:34:56:78:9a:bc:de:f0) 10.0.0.5\n"
	    "/d *(fsid=4294967295)\n"
	    "/e\n"
	    "/f *(fsid=12345678123456781234567812345678)\n"
	    "/g -fsid=7 10.0.0.1 10.0.0.2(fsid=7,fsid=007)\n");
	struct export_table *t2;
	char text[200];

	expect_ok(t);
	if (t == NULL)
		return;
	CHECK(t->exports[0].root.id == 1234 && t->exports[0].fsid_set && !t->exports[0].pseudo_root);
	CHECK(t->exports[0].clients[0].opts.flags & EXP_FSID);
	CHECK(t->exports[1].root.id == 0 && t->exports[1].fsid_set && t->exports[1].pseudo_root);
	CHECK(exports_find_id(t, 0) == &t->exports[1]);
	/* Every spelling of one UUID gives one id; it is never 0 (the root). */
	CHECK(t->exports[2].root.id != 0 && t->exports[2].fsid_set && !t->exports[2].pseudo_root);
	CHECK(t->exports[2].clients[0].opts.fsid == t->exports[2].root.id);
	CHECK(!(t->exports[2].clients[4].opts.flags & EXP_FSID));
	CHECK(t->exports[3].root.id == 4294967295u);
	CHECK(t->exports[4].root.id != 0 && !t->exports[4].fsid_set && !t->exports[4].pseudo_root);
	/* 32 decimal digits cannot be a 32-bit number: it is a UUID. */
	CHECK(t->exports[5].fsid_set && t->exports[5].root.id != 0);
	CHECK(t->exports[6].root.id == 7);
	/* fsid=0 is the root too, and agrees with fsid=root. */
	t2 = parse("/r 10.0.0.1(fsid=0,fsid=root) 10.0.0.2(fsid=root)\n");
	expect_ok(t2);
	CHECK(t2 && t2->exports[0].root.id == 0 && t2->exports[0].pseudo_root);
	exports_free(t2);
	/* A number equal to another export's path hash collides, either way round. */
	snprintf(text, sizeof(text), "/e\n/h *(fsid=%u)\n", (unsigned)t->exports[4].root.id);
	expect_error(text, "exports:2: export id");
	expect_error(text, "of /h is already used by /e at line 1");
	snprintf(text, sizeof(text), "/h *(fsid=%u)\n/e\n", (unsigned)t->exports[4].root.id);
	expect_error(text, "of /e is already used by /h at line 1 (set fsid= on one of them)");
	exports_free(t);

	expect_error("/x 10.0.0.1(fsid=1) 10.0.0.2(fsid=2)\n",
	    "exports:1: clients '10.0.0.1' and '10.0.0.2' of /x give different fsid= values (1 and 2)");
	expect_error("/x -fsid=1 10.0.0.1 10.0.0.2(fsid=2)\n",
	    "exports:1: clients '10.0.0.1' and '10.0.0.2' of /x give different fsid= values (1 and 2)");
	expect_error("/a *(fsid=5)\n/b *(fsid=5)\n", "exports:2: export id 5 of /b is already used by /a at line 1");
	expect_error("/a *(fsid=0)\n/b *(fsid=root)\n", "exports:2: export id 0 of /b is already used by /a at line 1");
	expect_error("/x *(fsid=1,fsid=2)\n", "exports:1: conflicting options 'fsid=1' and 'fsid=2'");
	expect_error("/x *(fsid=abc)\n",
	    "exports:1: bad value in option 'fsid=abc' (expected a number, root or a UUID)");
	expect_error("/x *(fsid=4294967296)\n", "exports:1: bad value in option 'fsid=4294967296'");
	expect_error("/x *(fsid=-1)\n", "exports:1: bad value in option 'fsid=-1'");
	expect_error("/x *(fsid=0x10)\n", "exports:1: bad value in option 'fsid=0x10'");
	expect_error("/x *(fsid=12345678-9abc-def0-1234-56789abcdef)\n", "exports:1: bad value in option");
	expect_error("/x *(fsid=12345678-9abc-def0-1234-56789abcdef01)\n", "exports:1: bad value in option");
	expect_error("/x *(fsid=12345678-9abc-def0-1234-56789abcdefg)\n", "exports:1: bad value in option");
	expect_error("/x *(fsid)\n", "exports:1: option 'fsid' needs a value");
	expect_error("/x *(fsid=)\n", "exports:1: option 'fsid' needs a value");
}

static void
test_option_errors(void)
{
	expect_error("/x *(sync,async)\n", "exports:1: conflicting options 'sync' and 'async'");
	expect_error("/x *(all_squash,no_all_squash)\n",
	    "exports:1: conflicting options 'all_squash' and 'no_all_squash'");
	expect_error("/x *(crossmnt,nocrossmnt)\n", "exports:1: conflicting options 'crossmnt' and 'nocrossmnt'");
	expect_error("/x *(nohide,hide)\n", "exports:1: conflicting options 'nohide' and 'hide'");
	expect_error("/x *(no_delegations,delegations)\n",
	    "exports:1: conflicting options 'no_delegations' and 'delegations'");
	expect_error("/x *(subtree_check,no_subtree_check)\n",
	    "exports:1: conflicting options 'subtree_check' and 'no_subtree_check'");
	expect_error("/x *(wdelay,no_wdelay)\n", "exports:1: conflicting options 'wdelay' and 'no_wdelay'");
	expect_error("/x *(anonuid=1,anonuid=2)\n", "exports:1: conflicting options 'anonuid=1' and 'anonuid=2'");
	expect_error("/x *(anongid=1,anongid=2)\n", "exports:1: conflicting options 'anongid=1' and 'anongid=2'");
	expect_error("/x *(mp=/a,mountpoint=/b)\n", "exports:1: conflicting options 'mp=/a' and 'mountpoint=/b'");
	expect_error("/x *(mp,mp=/a)\n", "exports:1: conflicting options 'mp' and 'mp=/a'");
	expect_error("/x -ro,rw *\n", "exports:1: conflicting options 'ro' and 'rw'");
	expect_error("/x *(ro=1)\n", "exports:1: option 'ro' takes no value");
	expect_error("/x *(crossmnt=yes)\n", "exports:1: option 'crossmnt' takes no value");
	expect_error("/x *(anonuid)\n", "exports:1: option 'anonuid' needs a value");
	expect_error("/x *(anongid=)\n", "exports:1: option 'anongid' needs a value");
	expect_error("/x *(sec)\n", "exports:1: option 'sec' needs a value");
	expect_error("/x *(mountpoint=)\n", "exports:1: option 'mountpoint' needs a value");
	expect_error("/x *(anonuid=4294967295)\n", "exports:1: bad number in option 'anonuid=4294967295'");
	expect_error("/x *(anongid=-1)\n", "exports:1: bad number in option 'anongid=-1'");
	expect_error("/x *(anongid=1x)\n", "exports:1: bad number in option 'anongid=1x'");
	expect_error("/x *(sec=krb4)\n",
	    "exports:1: unknown security flavor 'krb4' in 'sec=krb4' (sys, none, krb5, krb5i, krb5p)");
	expect_error("/x *(sec=sys:lkey)\n",
	    "exports:1: unknown security flavor 'lkey' in 'sec=sys:lkey' (sys, none, krb5, krb5i, krb5p)");
	expect_error("/x *(sec=krb5,ro,rw)\n", "exports:1: conflicting options 'ro' and 'rw'");
	expect_error("/x *(sec=sys::sys)\n", "exports:1: empty security flavor in 'sec=sys::sys'");
	expect_error("/x *(mp=relative)\n", "exports:1: mountpoint path 'relative' is not absolute");
	expect_error("/x *(mountpoint=/a/../b)\n", "exports:1: mountpoint path '/a/../b' is not canonical");
	expect_error("/x *(nordirplus)\n", "exports:1: unknown option 'nordirplus'");
	expect_error("/x *(rw,fsidx=1)\n", "exports:1: unknown option 'fsidx=1'");
	expect_error("/x -bogus *\n", "exports:1: unknown option 'bogus'");
	expect_error("/x *(rw)(ro)\n", "exports:1: bad option list in '*(rw)(ro)'");
}

static void
test_host_errors(void)
{
	expect_error("/x [2001:db8::1](rw)\n", "exports:1: bad address '[2001:db8::1]'");
	expect_error("/x 2001:db8::zz\n", "exports:1: bad address '2001:db8::zz'");
	expect_error("/x @\n", "exports:1: empty netgroup name in '@'");
	expect_error("/x gss/krb5(rw)\n", "exports:1: 'gss/krb5': Kerberos is not supported");
	expect_error("/x node[0-9.x\n", "exports:1: unclosed '[' in wildcard 'node[0-9.x'");
	expect_error("/x 10.0.0.1 -rw\n", "exports:1: default options '-rw' must come right after the path");
	expect_error("/x *.a.com *.A.com\n", "exports:1: client '*.A.com' listed twice for /x");
	expect_error("/x @g(rw) @g\n", "exports:1: client '@g' listed twice for /x");
}

static void
test_escapes(void)
{
	char longline[6000];
	struct export_table *t = parse(
	    "/srv/a\\040b\\101 *\n"
	    "\"/srv/q #x\"\\040y *\n"
	    "/srv/back\\slash *\n"
	    "/srv/g/ *\n"
	    "/ *\n"
	    "# a comment \\\n"
	    "/srv/hidden-by-the-comment *(bad)\n"
	    "/srv/c \\\n"
	    "   10.0.0.1(rw) \\\n"
	    "   10.0.0.2\n");

	expect_ok(t);
	if (t == NULL)
		return;
	CHECK(t->n == 6);
	CHECK(strcmp(t->exports[0].path, "/srv/a bA") == 0);
	CHECK(strcmp(t->exports[1].path, "/srv/q #x y") == 0);
	CHECK(strcmp(t->exports[2].path, "/srv/back\\slash") == 0);
	CHECK(strcmp(t->exports[3].path, "/srv/g") == 0);
	CHECK(strcmp(t->exports[4].path, "/") == 0);
	CHECK(strcmp(t->exports[5].path, "/srv/c") == 0 && t->exports[5].nclients == 2);
	CHECK(t->exports[5].line == 8);
	exports_free(t);

	expect_error("/srv/x\\000 *\n", "exports:1: \\000 is not allowed in a token");
	expect_error("/a \\\n 10.0.0.1(rw) \\\n 10.0.0.2\n/b *(bad)\n", "exports:4: unknown option 'bad'");
	memset(longline, 'a', sizeof(longline));
	longline[0] = '/';
	strcpy(longline + sizeof(longline) - 3, "\n");
	expect_error(longline, "exports:1: token longer than 4095 bytes");
}

/* sec=: the flavors in order, and the options each flavor has of its own (exports(5)). */
static void
test_sec(void)
{
	struct export_table *t = parse(
	    "/a *(rw)\n"
	    "/b *(sec=krb5p:krb5i:krb5:sys)\n"
	    "/c *(sec=sys,ro,sec=krb5p,rw,no_root_squash)\n"
	    "/d -rw,sec=krb5 10.0.0.1(all_squash) 10.0.0.2(sec=sys:krb5,ro)\n"
	    "/e *(rw,sec=krb5i,insecure,async,sec=sys:krb5i)\n");
	const struct export_opts *o;

	expect_ok(t);
	if (t == NULL)
		return;
	/* No sec=: sys alone, with the list's flags. */
	o = &t->exports[0].clients[0].opts;
	CHECK(o->nsec == 1 && o->sec[0].flavor == EXP_SEC_SYS && !(o->sec[0].flags & EXP_RO));
	CHECK(export_sec_find(o, EXP_SEC_KRB5) == NULL);
	/* Order kept; every flavor takes the defaults. */
	o = &t->exports[1].clients[0].opts;
	CHECK(o->nsec == 4 && o->sec[0].flavor == EXP_SEC_KRB5P && o->sec[1].flavor == EXP_SEC_KRB5I &&
	    o->sec[2].flavor == EXP_SEC_KRB5 && o->sec[3].flavor == EXP_SEC_SYS);
	CHECK(export_sec_find(o, EXP_SEC_SYS) == &o->sec[3] &&
	    o->sec[3].flags == (EXP_RO | EXP_ROOT_SQUASH | EXP_SECURE));
	/* Options after a sec= are its flavors'; ro then rw is no contradiction across groups. */
	o = &t->exports[2].clients[0].opts;
	CHECK(o->nsec == 2 && o->sec[0].flavor == EXP_SEC_SYS && (o->sec[0].flags & EXP_RO) &&
	    (o->sec[0].flags & EXP_ROOT_SQUASH));
	CHECK(o->sec[1].flavor == EXP_SEC_KRB5P && !(o->sec[1].flags & EXP_RO) &&
	    !(o->sec[1].flags & EXP_ROOT_SQUASH) && (o->sec[1].flags & EXP_SECURE));
	/* The line's defaults carry sec=krb5; a client's options before its own sec= are everyone's. */
	o = &t->exports[3].clients[0].opts;
	CHECK(o->nsec == 1 && o->sec[0].flavor == EXP_SEC_KRB5 &&
	    o->sec[0].flags == (EXP_ROOT_SQUASH | EXP_SECURE | EXP_ALL_SQUASH));
	o = &t->exports[3].clients[1].opts;
	/* sec=sys:krb5 names krb5 again (it keeps its place), so ro is both flavors'. */
	CHECK(o->nsec == 2 && o->sec[0].flavor == EXP_SEC_KRB5 && (o->sec[0].flags & EXP_RO) &&
	    o->sec[1].flavor == EXP_SEC_SYS && (o->sec[1].flags & EXP_RO) && !(o->flags & EXP_RO));
	/* A flavor named twice keeps its place; async is the whole list's, not a flavor's. */
	o = &t->exports[4].clients[0].opts;
	CHECK(o->nsec == 2 && o->sec[0].flavor == EXP_SEC_KRB5I && o->sec[1].flavor == EXP_SEC_SYS);
	CHECK(!(o->sec[0].flags & EXP_SECURE) && (o->sec[1].flags & EXP_SECURE) && (o->flags & EXP_ASYNC));
	CHECK(strcmp(export_flavor_name(EXP_SEC_KRB5P), "krb5p") == 0);
	exports_free(t);
}

static char *
print_table(const struct export_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return NULL;
	exports_print(f, t);
	fclose(f);
	return buf;
}

static void
test_print(void)
{
	struct export_table *t = parse(
	    "/srv/a 192.0.2.0/24(rw,fsid=1234,crossmnt)\n"
	    "\"/srv/with space\" @ng(mp=/mnt/my\\040disk,nohide) (ro,all_squash,anonuid=7)\n"
	    "/srv/r *.example.com(fsid=root,insecure,async,no_root_squash,mp)\n"
	    "/srv/k *(sec=sys,ro,sec=krb5p:krb5i,rw,no_root_squash)\n");
	struct export_table *t2;
	char expect[2048], *out, *out2;

	expect_ok(t);
	if (t == NULL)
		return;
	snprintf(expect, sizeof(expect),
	    "/srv/a\t192.0.2.0/24(rw,sync,secure,root_squash,no_all_squash,anonuid=65534,anongid=65534,"
	    "fsid=1234,crossmnt)\n"
	    "/srv/with\\040space\t@ng(ro,sync,secure,root_squash,no_all_squash,anonuid=65534,"
	    "anongid=65534,fsid=%u,nohide,mountpoint=/mnt/my\\040disk)\n"
	    "/srv/with\\040space\t*(ro,sync,secure,root_squash,all_squash,anonuid=7,anongid=65534,fsid=%u)\n"
	    "/srv/r\t*.example.com(ro,async,insecure,no_root_squash,no_all_squash,anonuid=65534,"
	    "anongid=65534,fsid=0,mountpoint)\n"
	    "/srv/k\t*(ro,sync,secure,root_squash,no_all_squash,anonuid=65534,anongid=65534,fsid=%u,"
	    "sec=sys,ro,secure,root_squash,no_all_squash,sec=krb5p,rw,secure,no_root_squash,no_all_squash,"
	    "sec=krb5i,rw,secure,no_root_squash,no_all_squash)\n",
	    (unsigned)t->exports[1].root.id, (unsigned)t->exports[1].root.id,
	    (unsigned)t->exports[3].root.id);
	out = print_table(t);
	CHECK(out && strcmp(out, expect) == 0);
	if (out && strcmp(out, expect) != 0)
		fprintf(stderr, "got:\n%sexpected:\n%s", out, expect);
	/* Each output line is itself an exports line that means the same. */
	for (char *line = out, *nl; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl == NULL)
			break;
		*nl = '\0';
		t2 = parse(line);
		expect_ok(t2);
		out2 = t2 ? print_table(t2) : NULL;
		CHECK(out2 && strncmp(out2, line, strlen(line)) == 0 && strcmp(out2 + strlen(line), "\n") == 0);
		CHECK(t2 && t2->exports[0].root.id == (strncmp(line, "/srv/r", 6) == 0 ? 0 :
		    strncmp(line, "/srv/a", 6) == 0 ? 1234 :
		    strncmp(line, "/srv/k", 6) == 0 ? t->exports[3].root.id : t->exports[1].root.id));
		free(out2);
		exports_free(t2);
		*nl = '\n';
	}
	free(out);
	exports_free(t);
}

/* ---- exports_load: exports.d, errors naming the right file, roots ---- */

static char tmpdir[] = "/tmp/test_exports.XXXXXX";

static void PRINTFLIKE(2, 3)
put_file(const char *rel, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static void
make_dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
}

static void
remove_rel(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	remove(path);
}

static struct export_table *
load(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	errs[0] = '\0';
	return exports_load(path, collect, NULL);
}

/* msg with every "@" replaced by the temporary directory. */
static void
expect_load_error(const char *rel, const char *msg)
{
	struct export_table *t = load(rel);
	char want[1024];
	size_t n = 0;

	for (const char *s = msg; *s && n + strlen(tmpdir) + 1 < sizeof(want); s++) {
		if (*s == '@') {
			strcpy(want + n, tmpdir);
			n += strlen(tmpdir);
		} else {
			want[n++] = *s;
		}
	}
	want[n] = '\0';
	CHECK(t == NULL);
	if (strstr(errs, want) == NULL) {
		fprintf(stderr, "expected '%s' in:\n%s", want, errs);
		CHECK(0);
	}
	exports_free(t);
}

static void
test_exports_d(void)
{
	struct export_table *t;
	static const char *const files[] = {
		"exports.d/10-a.exports", "exports.d/20-b.exports", "exports.d/.hidden.exports",
		"exports.d/notes.txt", "exports.d/old.exports.bak", "exports.d/30-c.exports",
		"exports.d/40-d.exports", "exports", "solo/exports", "solo/exports.d", "bare/exports",
		"dirent/exports", "dirent/exports.d/x.exports", "dirent/exports.d",
		"r1", "r2", "r3", "r4", "r5", "solo", "bare", "dirent", "exports.d",
	};
	char suffix[64];

	if (mkdtemp(tmpdir) == NULL) {
		CHECK(0);
		return;
	}
	make_dir("r1");
	make_dir("r2");
	make_dir("r3");
	make_dir("r4");
	make_dir("r5");
	make_dir("exports.d");
	put_file("exports", "%s/r1 *(rw)\n", tmpdir);
	put_file("exports.d/20-b.exports", "# b\n%s/r3 *\n", tmpdir);
	put_file("exports.d/10-a.exports", "%s/r2 10.0.0.1(rw)\n", tmpdir);
	/* Not read: hidden, or not named *.exports. */
	put_file("exports.d/.hidden.exports", "bad line\n");
	put_file("exports.d/notes.txt", "bad line\n");
	put_file("exports.d/old.exports.bak", "bad line\n");

	t = load("exports");
	expect_ok(t);
	if (t) {
		CHECK(t->n == 3);
		snprintf(suffix, sizeof(suffix), "/r2");
		CHECK(t->n == 3 && strstr(t->exports[1].path, suffix) && strstr(t->exports[2].path, "/r3"));
		CHECK(t->n == 3 && strstr(t->exports[1].file, "exports.d/10-a.exports") &&
		    t->exports[2].line == 2 && t->exports[0].root.rootfd >= 0);
		exports_free(t);
	}

	put_file("exports.d/30-c.exports", "\n%s/r1 *(ro)\n", tmpdir);
	expect_load_error("exports", "@/exports.d/30-c.exports:2: @/r1 is already exported at @/exports:1");

	put_file("exports.d/30-c.exports", "%s/r4 *(fsid=9)\n", tmpdir);
	put_file("exports.d/40-d.exports", "%s/r5 *(fsid=9)\n", tmpdir);
	expect_load_error("exports",
	    "@/exports.d/40-d.exports:1: export id 9 of @/r5 is already used by @/r4 at @/exports.d/30-c.exports:1");
	remove_rel("exports.d/40-d.exports");

	put_file("exports.d/30-c.exports", "%s/r4 *(bogus)\n", tmpdir);
	put_file("exports", "%s/r1 *(rw)\n%s/r5 *(worse)\n", tmpdir, tmpdir);
	/* Both files are reported, each under its own name. */
	expect_load_error("exports", "@/exports.d/30-c.exports:1: unknown option 'bogus'");
	expect_load_error("exports", "@/exports:2: unknown option 'worse'");
	put_file("exports", "%s/r1 *(rw)\n", tmpdir);

	put_file("exports.d/30-c.exports", "\n\n%s/missing *\n", tmpdir);
	expect_load_error("exports",
	    "@/exports.d/30-c.exports:3: cannot open export @/missing: No such file or directory");
	remove_rel("exports.d/30-c.exports");

	/* exports.d is optional, but must be a directory if it exists. */
	make_dir("bare");
	put_file("bare/exports", "%s/r1\n", tmpdir);
	t = load("bare/exports");
	expect_ok(t);
	exports_free(t);
	make_dir("solo");
	put_file("solo/exports", "%s/r1\n", tmpdir);
	put_file("solo/exports.d", "not a directory\n");
	expect_load_error("solo/exports", "@/solo/exports.d: Not a directory");
	make_dir("dirent");
	make_dir("dirent/exports.d");
	make_dir("dirent/exports.d/x.exports");
	put_file("dirent/exports", "%s/r1\n", tmpdir);
	expect_load_error("dirent/exports", "@/dirent/exports.d/x.exports: not a regular file");
	expect_load_error("none/exports", "@/none/exports: No such file or directory");

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		remove_rel(files[i]);
	CHECK(rmdir(tmpdir) == 0);
}

/*
 * A table built in code (usernfsd --share): the same options and client
 * matching as a parsed line, its errors named by "what", no line number.
 */
static void
test_built(void)
{
	static const char *const clients[] = { "127.0.0.1", "::1", "10.1.0.0/16" };
	static const char *const twice[] = { "127.0.0.1", "127.0.0.1" };
	static const char *const badnet[] = { "10.0.0.0/99" };
	struct export_table *t = exports_new(), *p;
	const struct export_client *c;

	errs[0] = '\0';
	CHECK(exports_add(t, "--allow", "/srv/a/", clients, 3,
	    "rw,all_squash,anonuid=1000,anongid=100,insecure,no_subtree_check,sync",
	    collect, NULL) == 0);
	CHECK(t->n == 1 && strcmp(t->exports[0].path, "/srv/a") == 0 && t->exports[0].nclients == 3);
	/* What the same line in a file gives: one code path. */
	p = parse("/srv/a 127.0.0.1(rw,all_squash,anonuid=1000,anongid=100,insecure,no_subtree_check,sync)\n");
	CHECK(p != NULL && t->n == 1 && p->exports[0].root.id == t->exports[0].root.id &&
	    p->exports[0].clients[0].opts.flags == t->exports[0].clients[0].opts.flags);
	exports_free(p);
	if (t->n == 1) {
		c = match(&t->exports[0], "127.0.0.1");
		CHECK(c && !(c->opts.flags & (EXP_RO | EXP_SECURE | EXP_ASYNC)) &&
		    (c->opts.flags & EXP_ALL_SQUASH) && c->opts.anonuid == 1000 && c->opts.anongid == 100);
		CHECK(match(&t->exports[0], "::1") != NULL);
		CHECK(match(&t->exports[0], "10.1.2.3") != NULL);
		CHECK(match(&t->exports[0], "10.2.0.1") == NULL);
		CHECK(match(&t->exports[0], "192.0.2.1") == NULL);
	}
	CHECK(exports_add(t, "--allow", "/srv/b", clients, 1, "ro,all_squash", collect, NULL) == 0);
	CHECK(t->n == 2 && t->n == 2 && (t->exports[1].clients[0].opts.flags & EXP_RO));
	CHECK(errs[0] == '\0');
	/* Errors: named by "what", without a line number. */
	CHECK(exports_add(t, "--allow", "/srv/a", clients, 1, "rw", collect, NULL) < 0);
	CHECK(strstr(errs, "--allow: /srv/a is already exported at --allow") != NULL);
	errs[0] = '\0';
	CHECK(exports_add(t, "--allow", "/srv/c", twice, 2, "rw", collect, NULL) < 0);
	CHECK(strstr(errs, "--allow: client '127.0.0.1' given twice") != NULL);
	errs[0] = '\0';
	CHECK(exports_add(t, "--allow", "/srv/c", badnet, 1, "rw", collect, NULL) < 0);
	CHECK(strstr(errs, "--allow: bad network '10.0.0.0/99'") != NULL);
	errs[0] = '\0';
	CHECK(exports_add(t, "--allow", "/srv/c", clients, 0, "rw", collect, NULL) < 0);
	CHECK(exports_add(t, "--allow", "/srv/c", clients, 1, "rw,bogus", collect, NULL) < 0);
	CHECK(exports_add(t, "--allow", "srv/c", clients, 1, "rw", collect, NULL) < 0);
	CHECK(t->n == 2);
	/* Opening the roots: a missing one is reported without a line number. */
	errs[0] = '\0';
	CHECK(exports_open(t, collect, NULL) < 0);
	CHECK(strstr(errs, "--allow: cannot open export /srv/a") != NULL);
	exports_free(t);
	t = exports_new();
	CHECK(exports_add(t, "--share", "/", clients, 1, "ro", collect, NULL) == 0);
	CHECK(exports_open(t, collect, NULL) == 0 && t->refs == 1 && t->exports[0].root.rootfd >= 0);
	exports_free(t);
}

int
main(void)
{
	test_basic();
	test_defaults();
	test_specificity();
	test_errors();
	test_bare_options();
	test_networks();
	test_wildcards();
	test_netgroups();
	test_precedence();
	test_reverse_lookup();
	test_options();
	test_fsid();
	test_option_errors();
	test_host_errors();
	test_escapes();
	test_sec();
	test_print();
	test_exports_d();
	test_built();
	return unit_done("test_exports");
}
