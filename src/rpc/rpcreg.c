/* rpcbind registration through libtirpc (rpcb_set/rpcb_unset). */
#include "config.h"

#include <netconfig.h>
#include <rpc/rpc.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "rpcreg.h"
#include "transport.h"

#define MAX_REG 32

static struct {
	uint32_t prog, vers;
} regs[MAX_REG];
static unsigned nregs;

static void
remember(uint32_t prog, uint32_t vers)
{
	for (unsigned i = 0; i < nregs; i++)
		if (regs[i].prog == prog && regs[i].vers == vers)
			return;
	if (nregs < MAX_REG) {
		regs[nregs].prog = prog;
		regs[nregs].vers = vers;
		nregs++;
	}
}

int
rpcreg_set(uint32_t prog, uint32_t vers, uint16_t port, int tcp_only, char *err,
    size_t errlen)
{
	const struct bound_socket *b;
	size_t n = transport_bound(&b);

	/* Whatever a previous instance left behind would shadow us. */
	rpcb_unset(prog, vers, NULL);
	remember(prog, vers);
	for (size_t i = 0; i < n; i++) {
		struct netconfig *nc;
		struct netbuf nb;
		bool_t ok;

		if (b[i].port != port || (tcp_only && strncmp(b[i].netid, "udp", 3) == 0))
			continue;
		nc = getnetconfigent(b[i].netid);
		if (nc == NULL) {
			log_warnx("no netconfig entry for %s; not registering it", b[i].netid);
			continue;
		}
		nb.len = nb.maxlen = b[i].addrlen;
		nb.buf = (void *)&b[i].addr;
		ok = rpcb_set(prog, vers, nc, &nb);
		freenetconfigent(nc);
		if (!ok) {
			snprintf(err, errlen, "cannot register program %u version %u on %s with rpcbind"
			    " (is rpcbind running? use --no-rpcbind to run without it)",
			    (unsigned)prog, (unsigned)vers, b[i].netid);
			return -1;
		}
	}
	return 0;
}

void
rpcreg_unset_all(void)
{
	for (unsigned i = 0; i < nregs; i++)
		rpcb_unset(regs[i].prog, regs[i].vers, NULL);
	nregs = 0;
}
