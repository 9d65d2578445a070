/* Opaque data decoded in place (xdr_inplace.h). */
#include "config.h"

#include "xdr_inplace.h"

bool_t
xdr_opaque_inplace(XDR *x, char **data, u_int *len, u_int max)
{
	char *p;

	if (x->x_op != XDR_DECODE || !xdr_u_int(x, len) || *len > max)
		return FALSE;
	p = (char *)xdr_inline(x, (int)((*len + 3) & ~3u));
	if (p == NULL)
		return FALSE;		/* shorter than it says */
	*data = p;
	return TRUE;
}
