/*
 * NFSv4 READDIR's entry list, coded in a loop. RFC 5662 writes it as a
 * linked list (entry4 *nextentry), and rpcgen codes that by recursion, one
 * stack frame per entry: a 1 MiB reply of short names is tens of
 * thousands of frames, on the server's worker stack when it encodes and on
 * a client's when it decodes. The bytes are the same: a TRUE before every
 * entry, a FALSE after the last. The build renames rpcgen's recursive
 * xdr_dirlist4 (RPCGEN_C in Makefile.am), so its callers reach this one.
 */
#include "config.h"

#include <stdlib.h>

#include "nfs4_prot.h"

#define FREE_WITH(f) ((xdrproc_t)(void (*)(void))(f))

/* Entries until the FALSE: as many as the message holds, each at least 16 bytes of it. */
static bool_t
decode_entries(XDR *x, entry4 **head)
{
	entry4 **tail = head;
	bool_t more;

	for (;;) {
		if (!xdr_bool(x, &more))
			return FALSE;
		if (!more)
			return TRUE;
		if ((*tail = calloc(1, sizeof(**tail))) == NULL)
			return FALSE;
		if (!xdr_nfs_cookie4(x, &(*tail)->cookie) || !xdr_component4(x, &(*tail)->name) ||
		    !xdr_fattr4(x, &(*tail)->attrs))
			return FALSE;
		tail = &(*tail)->nextentry;
	}
}

static void
free_entries(entry4 *e)
{
	while (e) {
		entry4 *next = e->nextentry;

		xdr_free(FREE_WITH(xdr_component4), (char *)&e->name);
		xdr_free(FREE_WITH(xdr_fattr4), (char *)&e->attrs);
		free(e);
		e = next;
	}
}

static bool_t
encode_entries(XDR *x, entry4 *e)
{
	bool_t more = TRUE, last = FALSE;

	for (; e; e = e->nextentry)
		if (!xdr_bool(x, &more) || !xdr_nfs_cookie4(x, &e->cookie) ||
		    !xdr_component4(x, &e->name) || !xdr_fattr4(x, &e->attrs))
			return FALSE;
	return xdr_bool(x, &last);
}

bool_t
xdr_dirlist4(XDR *x, dirlist4 *objp)
{
	switch (x->x_op) {
	case XDR_ENCODE:
		if (!encode_entries(x, objp->entries))
			return FALSE;
		break;
	case XDR_DECODE:
		/* A list decoded in part is freed by the caller's XDR_FREE, as rpcgen's would be. */
		if (!decode_entries(x, &objp->entries))
			return FALSE;
		break;
	case XDR_FREE:
		free_entries(objp->entries);
		objp->entries = NULL;
		return TRUE;
	}
	return xdr_bool(x, &objp->eof);
}
