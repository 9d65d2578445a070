/*
 * The NFS program as served: the versions --nfs-versions turns on, each
 * from its own room (nfs2.c, nfs3.c), assembled once at
 * start-up before the program is registered.
 */
#ifndef USERNFSD_NFS_PROGRAM_H
#define USERNFSD_NFS_PROGRAM_H

#include <stddef.h>

#include "rpc/dispatch.h"

#define NFS_PROGRAM_NUMBER 100003

/* What --nfs-versions names, as bits; "4" is every minor version of NFSv4. */
#define NFSVERS_2	0x01
#define NFSVERS_3	0x02
#define NFSVERS_4_1	0x04
#define NFSVERS_4_2	0x08
#define NFSVERS_4_0	0x10
#define NFSVERS_4	(NFSVERS_4_0 | NFSVERS_4_1 | NFSVERS_4_2)
/*
 * What a stock mount finds: every version, with several heads too (their
 * NFSv4 client records move with the identity's state directory, as the
 * NSM state does, and the shared grace record holds other heads' new
 * locks back while they reclaim).
 */
#define NFSVERS_DEFAULT	(NFSVERS_2 | NFSVERS_3 | NFSVERS_4)
#define NFSVERS_ALL	(NFSVERS_2 | NFSVERS_3 | NFSVERS_4)

/*
 * "2,3" (rpc.nfsd -V's names) into bits. 0, or -1 with a message in err
 * that names the bad word.
 */
int nfs_versions_parse(const char *list, unsigned *out, char *err, size_t errlen);
/* The program with the versions in bits; call once, before dispatch_register. */
const struct rpc_program *nfs_program_build(unsigned bits);

/*
 * At start-up, once the handle key is loaded: NFSv4 EXCHANGE_ID's server
 * scope (from the key) and owner (the identity, statedir's last
 * component), nfs4_session.c.
 */
void n4_server_names_init(const char *statedir);
/* At start-up: sessions release their back channel connections through the rpc layer. */
void n4_cb_init(void);
/* Read delegations handed out (on by default; --no-delegations). */
void n4_deleg_enable(int on);
/*
 * From the main loop, once a second and after a SIGIO (lease_signal):
 * recalls what a process on the server wants to write, revokes what was
 * not returned in time.
 */
void n4_deleg_run(int lease_signal);

#endif
