/* xdr_string that refuses, on decode, a string with a NUL byte inside. */
#include "config.h"

#include <string.h>

#include "xdr_nonul.h"

bool_t
xdr_string_nonul(XDR *xdrs, char **cpp, u_int maxsize)
{
	u_int pos, size;

	if (xdrs->x_op != XDR_DECODE)
		return xdr_string(xdrs, cpp, maxsize);
	/* Peek at the length libtirpc is about to read, then let it decode. */
	pos = xdr_getpos(xdrs);
	if (!xdr_u_int(xdrs, &size) || !xdr_setpos(xdrs, pos))
		return FALSE;
	if (!xdr_string(xdrs, cpp, maxsize))
		return FALSE;
	/* A shorter C string than the wire length means a NUL inside. */
	return strlen(*cpp) == size;
}
