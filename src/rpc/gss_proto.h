/*
 * RPCSEC_GSS's wire constants (RFC 2203) and our bounds, and who a
 * context's client is: what gss.h (the dispatcher's side) and gss_ctx.h
 * (the context table) both need, in a header of its own so that neither
 * includes the other.
 */
#ifndef USERNFSD_GSS_PROTO_H
#define USERNFSD_GSS_PROTO_H

#include <stdint.h>

#define RPCSEC_GSS_FLAVOR	6
#define RPCSEC_GSS_VERS_1	1

/* rpc_gss_proc_t */
#define RG_PROC_DATA		0
#define RG_PROC_INIT		1
#define RG_PROC_CONTINUE_INIT	2
#define RG_PROC_DESTROY		3

/* rpc_gss_service_t */
#define RG_SVC_NONE		1
#define RG_SVC_INTEGRITY	2
#define RG_SVC_PRIVACY		3

/* auth_stat values RFC 2203 section 4 adds. */
#define RG_AUTH_CREDPROBLEM	13
#define RG_AUTH_CTXPROBLEM	14

#define RG_MAXSEQ		0x80000000u
#define RG_SEQ_WINDOW		128u
#define RG_HANDLE_LEN		16	/* our handles; a longer one is unknown */
#define RG_PRINCIPAL_MAX	256
/* The largest INIT token we read (a Kerberos AP-REQ with a big PAC fits). */
#define RG_TOKEN_MAX		65536u
/* AUTH_SYS's 16 (dispatch.h's RPC_MAX_GIDS; dispatch.c asserts they agree). */
#define RG_MAX_GIDS		16

/*
 * Who a context's client is. The export layer decides later what an
 * unmapped principal becomes (the export's anonymous ids); mapped says
 * whether uid, gid and gids came from the password and group databases.
 */
struct gss_identity {
	char principal[RG_PRINCIPAL_MAX];	/* "alice@REALM", NUL-terminated */
	int mapped;
	uint32_t uid, gid;
	unsigned ngids;
	uint32_t gids[RG_MAX_GIDS];
};

#endif
