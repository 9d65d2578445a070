/*
 * NFSv4 owner names: uid and gid to "name@domain" and back, through
 * nfs-utils' libnfsidmap and its /etc/idmapd.conf (the Domain, the
 * plugins, the static and regex maps), as rpc.idmapd and nfsidmap do for
 * knfsd. Off by default: owners then go out as numbers, as knfsd sends
 * them for AUTH_SYS (nfs4_disable_idmapping) and the Linux client expects.
 * A shared helper: NFSv4's attributes use it now, RPCSEC_GSS's principal
 * mapping will.
 */
#ifndef USERNFSD_IDMAP_H
#define USERNFSD_IDMAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * Names on, with libnfsidmap reading conf (NULL: its own default,
 * /etc/idmapd.conf). Once, before the workers start. -1 with a message
 * in err when the library will not start or knows no domain.
 */
int idmap_start(const char *conf, char *err, size_t errlen);
/* Names in use (idmap_start succeeded)? */
int idmap_on(void);
/* The domain names are in (idmap_on only; "" otherwise). */
const char *idmap_domain(void);
/*
 * The owner string of a uid (a gid when group): "name@domain" when the
 * maps know the id, else the number, as knfsd falls back. Never fails;
 * the length written (buf is NUL-terminated; len at least 16).
 */
size_t idmap_name_of(uint32_t id, int group, char *buf, size_t len);
/*
 * The uid (gid) of "name@domain": 1 when the maps know it in our domain,
 * 0 otherwise (NFS4ERR_BADOWNER for the caller). Numbers are the caller's.
 */
int idmap_id_of(const char *name, int group, uint32_t *id);

#endif
