/*
 * crossmnt and nohide: file systems mounted below an export.
 *
 * A crossmnt export serves what is mounted below it as if each mount were
 * exported too, with the parent's clients and options, under an export id
 * of its own (the hash of its mount point path, the id an explicit export
 * of that path would get), so file ids never collide across file systems
 * and handles stay valid across restarts. A mount point that is itself
 * exported with nohide is entered as that export.
 */
#ifndef USERNFSD_SUBMOUNTS_H
#define USERNFSD_SUBMOUNTS_H

#include <sys/types.h>

struct export;
struct export_client;
struct export_table;
struct sockaddr;

/*
 * The export serving the file system whose root (dev, ino) a LOOKUP in
 * parent reached, for a client whose entry in parent is 'client'; NULL
 * when that client may not cross there.
 */
const struct export *submount_enter(struct export_table *t, const struct export *parent,
    const struct export_client *client, const struct sockaddr *peer, dev_t dev, ino_t ino);
/* A crossed submount by export id (after a restart, from a handle); NULL if none. */
const struct export *submount_find_id(struct export_table *t, uint32_t id);

#endif
