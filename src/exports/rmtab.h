/*
 * The mounts DUMP reports (src/rmtab.c): host and path of each successful
 * MNT until its UMNT, saved in STATEDIR/rmtab.
 */
#ifndef USERNFSD_RMTAB_H
#define USERNFSD_RMTAB_H

/* Loads STATEDIR/rmtab, where later changes are saved. */
void rmtab_init(const char *statedir);
void rmtab_add(const char *host, const char *path);
/* Forgets host's mount of path, or all of host's when path is NULL. */
void rmtab_remove(const char *host, const char *path);
/* Calls fn for each mount recorded (host, path), under the list's lock. */
void rmtab_foreach(void (*fn)(void *arg, const char *host, const char *path), void *arg);

#endif
