/*
 * Bulk data decoded in place: WRITE's data left in the request buffer,
 * which outlives the call. rpcgen's xdr_bytes would calloc a copy (for a
 * 1 MiB WRITE: fresh zero pages from mmap, faulted in one by one) only for
 * the file system to copy it again. NFSv3's and NFSv4's WRITE share it.
 */
#ifndef USERNFSD_XDR_INPLACE_H
#define USERNFSD_XDR_INPLACE_H

#include <rpc/rpc.h>

/*
 * Decodes a variable-length opaque of at most max bytes: *data points into
 * the XDR stream's buffer (never to be freed). FALSE if it is longer than
 * max or than what is left of the stream.
 */
bool_t xdr_opaque_inplace(XDR *x, char **data, u_int *len, u_int max);

#endif
