/*
 * NFSv4 SECINFO and SECINFO_NO_NAME (RFC 8881 2.6.3.1, 18.29, 18.45): the
 * security flavors an object may be reached with. AUTH_SYS is the one
 * flavor served until RPCSEC_GSS lands (issue 28). Both consume the
 * current filehandle (RFC 8881 2.6.3.1.1.8): a client must put one again.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "errmap.h"
#include "nfs4_ops.h"

static nfsstat4
flavors(struct n4_compound *c, SECINFO4resok *ok)
{
	secinfo4 *s = call_alloc(c->call, sizeof(*s));

	if (s == NULL)
		return NFS4ERR_DELAY;
	memset(s, 0, sizeof(*s));
	s->flavor = AUTH_SYS;
	ok->SECINFO4resok_val = s;
	ok->SECINFO4resok_len = 1;
	return NFS4_OK;
}

/* Does name exist in the current directory? Found by LOOKUP, which keeps the result. */
static nfsstat4
name_exists(struct n4_compound *c, const component4 *name)
{
	struct n4_fh keep = c->cur;
	nfs_argop4 look;
	nfsstat4 s;

	memset(&look, 0, sizeof(look));
	look.argop = OP_LOOKUP;
	look.nfs_argop4_u.oplookup.objname = *name;
	s = n4_op_lookup(c, &look, NULL);
	c->cur = keep;
	return s;
}

nfsstat4
n4_op_secinfo(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SECINFO4resok *ok = &r->nfs_resop4_u.opsecinfo.SECINFO4res_u.resok4;
	nfsstat4 s = name_exists(c, &a->nfs_argop4_u.opsecinfo.name);

	if (s == NFS4_OK)
		s = flavors(c, ok);
	if (s == NFS4_OK)
		c->cur.len = 0;
	return s;
}

nfsstat4
n4_op_secinfo_no_name(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SECINFO4resok *ok = &r->nfs_resop4_u.opsecinfo_no_name.SECINFO4res_u.resok4;
	struct n4_fh keep = c->cur;
	struct n4_obj o;
	nfsstat4 s;

	switch (a->nfs_argop4_u.opsecinfo_no_name) {
	case SECINFO_STYLE4_CURRENT_FH:
		if ((s = n4_obj_begin(c, &c->cur, &o)) == NFS4_OK)
			n4_obj_end(&o);
		break;
	case SECINFO_STYLE4_PARENT:
		/* LOOKUPP's answer, NOENT at the root; the filehandle is consumed either way. */
		s = n4_op_lookupp(c, NULL, NULL);
		c->cur = keep;
		break;
	default:
		return NFS4ERR_INVAL;
	}
	if (s == NFS4_OK)
		s = flavors(c, ok);
	if (s == NFS4_OK)
		c->cur.len = 0;
	return s;
}
