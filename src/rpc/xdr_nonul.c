/* xdr_string that refuses, on decode, a string with a NUL byte inside. */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "xdr_nonul.h"

bool_t
xdr_string_nonul(XDR *xdrs, char **cpp, u_int maxsize)
{
	u_int size;
	char *sp;

	if (xdrs->x_op != XDR_DECODE)
		return xdr_string(xdrs, cpp, maxsize);
	/*
	 * Decoded here, as xdr_string would, rather than peeked at: a record
	 * stream (a TCP client's) cannot seek back to re-read the length.
	 */
	if (!xdr_u_int(xdrs, &size) || size > maxsize || size == UINT_MAX)
		return FALSE;
	sp = *cpp;
	if (sp == NULL && (sp = *cpp = mem_alloc(size + 1)) == NULL)
		return FALSE;
	sp[size] = '\0';
	if (!xdr_opaque(xdrs, sp, size))
		return FALSE;
	/* A NUL inside would make C see another, shorter name. */
	return memchr(sp, '\0', size) == NULL;
}
