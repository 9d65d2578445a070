/*
 * Calls back to clients, the server's side (RFC 8881 2.10.3.1, 18.33,
 * 20; RFC 7530 3.4, 16): for 4.1, which credential our calls carry on a
 * session's back channel, BACKCHANNEL_CTL, and the probe (CB_NULL) that
 * tells whether it works; the calls go out through rpc/backchannel.c on
 * the client's own connection. For 4.0, calls to the address SETCLIENTID
 * gave, on a TCP connection of ours (rpc/rpcclient.c), AUTH_SYS (Linux
 * takes only CB_NULL without a credential), probed with CB_NULL after
 * SETCLIENTID_CONFIRM. Probes run as background tasks (tasks.h), so that
 * no worker waits for a client.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "nfs4_ops.h"
#include "nfs_program.h"
#include "rpc/backchannel.h"
#include "rpc/rpcclient.h"
#include "rpc/req.h"
#include "rpc/rpcproc.h"
#include "stats.h"
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

/*
 * Probes wait up to CB_PROBE_MS for a client that may never answer: at
 * most CB_PROBES_PER_PEER of them per client address at a time, so that
 * a flood of sessions cannot take the task threads from NLM's callbacks.
 */
#define CB_PROBES_PER_PEER 2

void
n4_cb_probe(struct n4_compound *c, const uint8_t sessionid[N4_SESSIONID_SIZE])
{
	struct probe *p = malloc(sizeof(*p));

	if (p == NULL)
		return;
	memcpy(p->sessionid, sessionid, N4_SESSIONID_SIZE);
	if (tasks_push_for(&c->call->req->peer, CB_PROBES_PER_PEER, probe_task, p) < 0) {
		/* No room to ask now: the channel stays unprobed, not down. */
		free(p);
	}
}

/* ---- NFSv4.0: calls to SETCLIENTID's callback address, on a connection of ours ---- */

/*
 * A universal address (RFC 5665): "h1.h2.h3.h4.p1.p2" for tcp,
 * "x:...:y.p1.p2" for tcp6. 0, or -1 when it is neither.
 */
static int
uaddr_parse(const struct n40_callback *cb, struct sockaddr_storage *out)
{
	char host[64], *dot;
	unsigned hi, lo;

	if (snprintf(host, sizeof(host), "%s", cb->addr) >= (int)sizeof(host) ||
	    (dot = strrchr(host, '.')) == NULL || sscanf(dot + 1, "%u", &lo) != 1)
		return -1;
	*dot = '\0';
	if ((dot = strrchr(host, '.')) == NULL || sscanf(dot + 1, "%u", &hi) != 1 ||
	    hi > 255 || lo > 255)
		return -1;
	*dot = '\0';
	memset(out, 0, sizeof(*out));
	if (strcmp(cb->netid, "tcp") == 0) {
		struct sockaddr_in *in = (struct sockaddr_in *)out;

		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)(hi << 8 | lo));
		return inet_pton(AF_INET, host, &in->sin_addr) == 1 ? 0 : -1;
	}
	if (strcmp(cb->netid, "tcp6") == 0) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)out;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)(hi << 8 | lo));
		return inet_pton(AF_INET6, host, &in6->sin6_addr) == 1 ? 0 : -1;
	}
	return -1;	/* callbacks over UDP, or RDMA: not ours to make */
}

int
n40_cb_call(uint64_t clientid, uint32_t proc, xdrproc_t xargs, void *args, xdrproc_t xres,
    void *res, uint32_t *ident, char *err, size_t errlen)
{
	struct n40_callback cb;
	struct rpc_target t;
	int r;

	if (n40_client_callback(clientid, &cb) != N4_OK) {
		snprintf(err, errlen, "no callback");
		return -1;
	}
	memset(&t, 0, sizeof(t));
	if (uaddr_parse(&cb, &t.addr) < 0) {
		snprintf(err, errlen, "callback address %s (%s) not usable", cb.addr, cb.netid);
		return -1;
	}
	t.local = cb.local;
	t.proto = IPPROTO_TCP;
	t.auth_sys = 1;
	if (ident)
		*ident = cb.ident;
	STAT_INC(ST_CB_SENT);
	r = rpcclient_call_direct(&t, cb.program, NFS_CB, proc, xargs, args, xres, res,
	    CB_PROBE_MS, err, errlen);
	STAT_INC(r == 0 ? ST_CB_ANSWERED : ST_CB_FAILED);
	return r;
}

struct probe40 {
	uint64_t clientid;
};

static void
probe40_task(void *arg, int cancelled)
{
	struct probe40 *p = arg;
	char err[128];
	int up;

	if (!cancelled) {
		up = n40_cb_call(p->clientid, CB_NULL, XDRPROC(xdr_void), NULL, XDRPROC(xdr_void),
		    NULL, NULL, err, sizeof(err)) == 0;
		if (!up)
			log_info("NFSv4.0 client %016llx: its callback does not answer CB_NULL: %s "
			    "(no delegations for it)", (unsigned long long)p->clientid, err);
		n40_client_cb_up(p->clientid, up);
	}
	free(p);
}

void
n40_cb_probe(struct n4_compound *c, uint64_t clientid)
{
	struct probe40 *p = malloc(sizeof(*p));

	if (p == NULL)
		return;
	p->clientid = clientid;
	if (tasks_push_for(&c->call->req->peer, CB_PROBES_PER_PEER, probe40_task, p) < 0)
		free(p);
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
	n4_cb_probe(c, c->sessionid);
	return NFS4_OK;
}
