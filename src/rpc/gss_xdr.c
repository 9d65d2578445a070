/* RPCSEC_GSS's XDR structures, read in place (gss_xdr.h). */
#include "config.h"

#include "be.h"
#include "gss_proto.h"
#include "gss_xdr.h"

int
gss_cred_decode(const uint8_t *p, size_t len, struct gss_cred *c)
{
	if (len < 20)
		return -1;
	c->vers = be32_get(p);
	c->gproc = be32_get(p + 4);
	c->seq = be32_get(p + 8);
	c->svc = be32_get(p + 12);
	c->hlen = be32_get(p + 16);
	c->handle = p + 20;
	if (c->vers != RPCSEC_GSS_VERS_1 || c->hlen > len - 20)
		return -1;
	return 0;
}

const uint8_t *
gss_opaque_at(const uint8_t *buf, size_t len, size_t *off, uint32_t max, uint32_t *olen)
{
	uint32_t n;
	size_t padded;

	if (*off > len || len - *off < 4)
		return NULL;
	n = be32_get(buf + *off);
	padded = ((size_t)n + 3) & ~(size_t)3;
	if (n > max || padded > len - *off - 4)
		return NULL;
	*olen = n;
	*off += 4 + padded;
	return buf + *off - padded;
}

int
gss_integ_decode(const uint8_t *buf, size_t len, size_t off, uint32_t mic_max,
    struct gss_integ *in)
{
	if ((in->body = gss_opaque_at(buf, len, &off, UINT32_MAX, &in->blen)) == NULL ||
	    (in->mic = gss_opaque_at(buf, len, &off, mic_max, &in->mlen)) == NULL ||
	    in->blen < 4)
		return -1;
	return 0;
}
