/*
 * NFSv4 SECINFO and SECINFO_NO_NAME (RFC 8881 2.6.3.1, 18.29, 18.45): the
 * security flavors an object may be reached with, its export entry's sec=
 * in order (the pseudo file system's: those of the exports below). Both
 * look whatever the call's flavor (the compound admits any for them, and
 * they never answer WRONGSEC) and consume the current filehandle (RFC
 * 8881 2.6.3.1.1.8): a client must put one again.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "access.h"
#include "errmap.h"
#include "nfs4_ops.h"

/* Kerberos V5's mechanism OID, 1.2.840.113554.1.2.2, DER-encoded without its tag and length. */
static const uint8_t krb5_oid[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 };

static void
encode_flavor(enum export_flavor f, secinfo4 *s)
{
	memset(s, 0, sizeof(*s));
	switch (f) {
	case EXP_SEC_KRB5:
	case EXP_SEC_KRB5I:
	case EXP_SEC_KRB5P:
		s->flavor = RPCSEC_GSS;
		s->secinfo4_u.flavor_info.oid.sec_oid4_val = (char *)(uintptr_t)krb5_oid;
		s->secinfo4_u.flavor_info.oid.sec_oid4_len = sizeof(krb5_oid);
		s->secinfo4_u.flavor_info.qop = 0;
		s->secinfo4_u.flavor_info.service = f == EXP_SEC_KRB5P ? RPC_GSS_SVC_PRIVACY :
		    f == EXP_SEC_KRB5I ? RPC_GSS_SVC_INTEGRITY : RPC_GSS_SVC_NONE;
		break;
	case EXP_SEC_NONE:
		s->flavor = AUTH_NONE;
		break;
	default:
		s->flavor = AUTH_SYS;
		break;
	}
}

/* The flavors of the object fh names, into the result. */
static nfsstat4
flavors(struct n4_compound *c, const struct n4_fh *fh, SECINFO4resok *ok)
{
	struct fs_flavors fl;
	struct n4_obj o;
	secinfo4 *s;
	nfsstat4 st;

	if ((st = n4_obj_begin(c, fh, &o)) != NFS4_OK)
		return st;
	if (o.pseudo)
		n4_pseudo_flavors(c->call, &o.node, &fl);
	else
		fs_client_flavors(o.ctx.client, &fl);
	n4_obj_end(&o);
	if ((s = call_alloc(c->call, fl.n * sizeof(*s))) == NULL)
		return NFS4ERR_DELAY;
	for (unsigned i = 0; i < fl.n; i++)
		encode_flavor(fl.f[i], &s[i]);
	ok->SECINFO4resok_val = s;
	ok->SECINFO4resok_len = fl.n;
	return NFS4_OK;
}

/* The object name names in the current directory, found by LOOKUP (which answers its errors). */
static nfsstat4
lookup_name(struct n4_compound *c, const component4 *name, struct n4_fh *found)
{
	struct n4_fh keep = c->cur;
	nfs_argop4 look;
	nfsstat4 s;

	memset(&look, 0, sizeof(look));
	look.argop = OP_LOOKUP;
	look.nfs_argop4_u.oplookup.objname = *name;
	s = n4_op_lookup(c, &look, NULL);
	*found = c->cur;
	c->cur = keep;
	return s;
}

nfsstat4
n4_op_secinfo(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SECINFO4resok *ok = &r->nfs_resop4_u.opsecinfo.SECINFO4res_u.resok4;
	struct n4_fh target;
	nfsstat4 s = lookup_name(c, &a->nfs_argop4_u.opsecinfo.name, &target);

	if (s == NFS4_OK)
		s = flavors(c, &target, ok);
	if (s == NFS4_OK)
		c->cur.len = 0;
	return s;
}

nfsstat4
n4_op_secinfo_no_name(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SECINFO4resok *ok = &r->nfs_resop4_u.opsecinfo_no_name.SECINFO4res_u.resok4;
	struct n4_fh keep = c->cur, target = c->cur;
	nfsstat4 s;

	switch (a->nfs_argop4_u.opsecinfo_no_name) {
	case SECINFO_STYLE4_CURRENT_FH:
		s = NFS4_OK;
		break;
	case SECINFO_STYLE4_PARENT:
		/* LOOKUPP's answer, NOENT at the root; the filehandle is consumed either way. */
		s = n4_op_lookupp(c, NULL, NULL);
		target = c->cur;
		c->cur = keep;
		break;
	default:
		return NFS4ERR_INVAL;
	}
	if (s == NFS4_OK)
		s = flavors(c, &target, ok);
	if (s == NFS4_OK)
		c->cur.len = 0;
	return s;
}
