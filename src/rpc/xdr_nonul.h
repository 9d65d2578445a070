/*
 * XDR strings for C: rpcgen's decoders call xdr_string, which accepts a
 * NUL inside the string, so "a\0b" would reach the server as the name "a".
 * The build points the generated code at this checking wrapper instead
 * (see RPCGEN_C in Makefile.am).
 */
#ifndef USERNFSD_XDR_NONUL_H
#define USERNFSD_XDR_NONUL_H

#include <rpc/rpc.h>

bool_t xdr_string_nonul(XDR *xdrs, char **cpp, u_int maxsize);

#endif
