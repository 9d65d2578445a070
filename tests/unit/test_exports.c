/* exports(5) parser and client matching. */
#include "config.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
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
	CHECK(t->exports[0].id != t->exports[1].id);
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

int
main(void)
{
	test_basic();
	test_defaults();
	test_specificity();
	test_errors();
	return unit_done("test_exports");
}
