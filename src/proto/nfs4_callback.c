/*
 * NFSv4.1's back channel, the server's side of it (RFC 8881 2.10.3.1,
 * 18.33, 20): which credential our calls carry, BACKCHANNEL_CTL, and the
 * probe (CB_NULL) that tells whether a session's back channel works, run
 * as a background task (tasks.h) so that no worker waits for a client.
 * The calls go out through rpc/backchannel.c on the client's own
 * connection; the state layer keeps which connection that is.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "nfs4_ops.h"
#include "nfs_program.h"
#include "rpc/backchannel.h"
#include "rpc/rpcproc.h"
#include "tasks.h"

#define CB_PROBE_MS	5000

void
n4_cb_init(void)
{
	n4_set_back_release(bc_release);
}

int
n4_cb_sec_choose(const callback_sec_parms4 *list, u_int n, struct n4_cb_sec *out)
{
	memset(out, 0, sizeof(*out));
	/* The first the server can speak, in the client's order (RPCSEC_GSS callbacks: not yet). */
	for (u_int i = 0; i < n; i++) {
		const callback_sec_parms4 *p = &list[i];

		if (p->cb_secflavor == AUTH_NONE) {
			out->flavor = AUTH_NONE;
			return 0;
		}
		if (p->cb_secflavor == AUTH_SYS) {
			const authsys_parms4 *a = &p->callback_sec_parms4_u.cbsp_sys_cred;

			out->flavor = AUTH_SYS;
			out->uid = a->uid;
			out->gid = a->gid;
			snprintf(out->machine, sizeof(out->machine), "%s",
			    a->machinename ? a->machinename : "");
			return 0;
		}
	}
	return -1;
}

static void
cb_auth(const struct n4_cb_sec *sec, struct bc_auth *a)
{
	memset(a, 0, sizeof(*a));
	a->flavor = sec->flavor;
	a->uid = sec->uid;
	a->gid = sec->gid;
	memcpy(a->machine, sec->machine, sizeof(a->machine));
}

struct probe {
	uint8_t sessionid[N4_SESSIONID_SIZE];
};

static void
probe_task(void *arg, int cancelled)
{
	struct probe *p = arg;
	struct n4_back b;
	struct bc_auth auth;
	char err[96];
	int up;

	if (!cancelled && n4_session_back(p->sessionid, &b) == N4_OK) {
		cb_auth(&b.sec, &auth);
		up = bc_call(b.conn, b.program, NFS_CB, CB_NULL, &auth, XDRPROC(xdr_void), NULL,
		    XDRPROC(xdr_void), NULL, CB_PROBE_MS, err, sizeof(err)) == 0;
		if (!up)
			log_info("NFSv4.1 back channel of a session does not answer CB_NULL: %s", err);
		n4_session_back_up(p->sessionid, up);
	}
	free(p);
}

void
n4_cb_probe(const uint8_t sessionid[N4_SESSIONID_SIZE])
{
	struct probe *p = malloc(sizeof(*p));

	if (p == NULL)
		return;
	memcpy(p->sessionid, sessionid, N4_SESSIONID_SIZE);
	if (tasks_push(probe_task, p) < 0) {
		/* No room to ask now: the channel stays unprobed, not down. */
		free(p);
	}
}

/*
 * BACKCHANNEL_CTL: the program and credential the session's callbacks
 * carry from now on; a list with no flavor we speak is INVAL, as knfsd has it.
 */
nfsstat4
n4_op_backchannel_ctl(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	BACKCHANNEL_CTL4args *args = &a->nfs_argop4_u.opbackchannel_ctl;
	struct n4_cb_sec sec;

	(void)r;
	if (n4_cb_sec_choose(args->bca_sec_parms.bca_sec_parms_val,
	    args->bca_sec_parms.bca_sec_parms_len, &sec) < 0)
		return NFS4ERR_INVAL;
	if (n4_session_set_back(c->sessionid, 0, &args->bca_cb_program, &sec) != N4_OK)
		return NFS4ERR_BADSESSION;
	n4_cb_probe(c->sessionid);
	return NFS4_OK;
}
