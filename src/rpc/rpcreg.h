/* Registration of our programs with rpcbind, for every transport we bound. */
#ifndef USERNFSD_RPCREG_H
#define USERNFSD_RPCREG_H

#include <stddef.h>
#include <stdint.h>

/*
 * Registers (prog, vers) on every bound socket with this port, or on its
 * stream sockets only when tcp_only (NFSv4). 0 or -1.
 */
int rpcreg_set(uint32_t prog, uint32_t vers, uint16_t port, int tcp_only, char *err,
    size_t errlen);
/* Removes every registration made by rpcreg_set. */
void rpcreg_unset_all(void);

#endif
