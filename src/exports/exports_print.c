/*
 * Printing an export table back as a valid exports(5) file (usernfsctl
 * exports, usernfsd --check-exports and --share).
 */
#include "config.h"

#include <stdio.h>

#include "exports.h"
#include "log.h"

#include "exports_impl.h"

/* ---- printing, as a valid exports file ---- */

/* Bytes the tokenizer would split on or interpret become \ooo escapes. */
static void
print_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch <= ' ' || ch == 0x7f || ch == '"' || ch == '\\' || ch == '#')
			fprintf(out, "\\%03o", ch);
		else
			putc(ch, out);
	}
}

/* The flags a flavor may have of its own (EXP_SECINFO_FLAGS). */
static void
print_secinfo_flags(FILE *out, unsigned flags)
{
	fprintf(out, "%s,%s,%s,%s",
	    flags & EXP_RO ? "ro" : "rw",
	    flags & EXP_SECURE ? "secure" : "insecure",
	    flags & EXP_ROOT_SQUASH ? "root_squash" : "no_root_squash",
	    flags & EXP_ALL_SQUASH ? "all_squash" : "no_all_squash");
}

/* sec= groups, unless the list is the default: sys alone, with the list's flags. */
static void
print_sec(FILE *out, const struct export_opts *o)
{
	if (o->nsec == 1 && o->sec[0].flavor == EXP_SEC_SYS &&
	    o->sec[0].flags == (o->flags & EXP_SECINFO_FLAGS))
		return;
	for (unsigned i = 0; i < o->nsec; i++) {
		fprintf(out, ",sec=%s,", export_flavor_name(o->sec[i].flavor));
		print_secinfo_flags(out, o->sec[i].flags);
	}
}

static void
print_opts(FILE *out, const struct export *e, const struct export_opts *o)
{
	fprintf(out, "%s,%s,%s,%s,%s,anonuid=%u,anongid=%u,fsid=%u",
	    o->flags & EXP_RO ? "ro" : "rw",
	    o->flags & EXP_ASYNC ? "async" : "sync",
	    o->flags & EXP_SECURE ? "secure" : "insecure",
	    o->flags & EXP_ROOT_SQUASH ? "root_squash" : "no_root_squash",
	    o->flags & EXP_ALL_SQUASH ? "all_squash" : "no_all_squash",
	    (unsigned)o->anonuid, (unsigned)o->anongid, (unsigned)e->root.id);
	if (o->flags & EXP_CROSSMNT)
		fputs(",crossmnt", out);
	if (o->flags & EXP_NOHIDE)
		fputs(",nohide", out);
	if (o->flags & EXP_NODELEG)
		fputs(",no_delegations", out);
	if (o->flags & EXP_MOUNTPOINT) {
		fputs(",mountpoint", out);
		if (o->mountpoint) {
			putc('=', out);
			print_escaped(out, o->mountpoint);
		}
	}
	print_sec(out, o);
}

void
exports_print(FILE *out, const struct export_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct export *e = &t->exports[i];

		for (size_t k = 0; k < e->nclients; k++) {
			print_escaped(out, e->path);
			putc('\t', out);
			print_escaped(out, e->clients[k].spec);
			putc('(', out);
			print_opts(out, e, &e->clients[k].opts);
			fputs(")\n", out);
		}
	}
}
