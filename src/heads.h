/*
 * Several heads over one shared file system (DESIGN.md, "Several heads"):
 * the handle key the heads share (handlekey.c), the check that an export
 * gives persistent handles (fhcheck.c) and the cluster-wide grace record
 * (grace_shared.c).
 */
#ifndef USERNFSD_HEADS_H
#define USERNFSD_HEADS_H

#include <stdio.h>
#include <time.h>

struct export_table;

/*
 * --handle-key FILE: the MAC key from FILE, exactly FH_KEY_LEN bytes,
 * not readable by group or others. Never created: heads that each made
 * their own would refuse each other's handles. 0, or -1 with a message.
 */
int handlekey_load(const char *path, char *err, size_t errlen);

/*
 * For each export root whose file system gives no kernel handle that fits
 * ours, calls warn with a message naming the export (file:line) and what
 * it means for restarts and failover. Returns how many it warned about.
 */
unsigned fhcheck_exports(const struct export_table *t, void (*warn)(void *, const char *),
    void *arg);

/*
 * The shared grace record (--grace-dir DIR): DIR holds one file per server
 * identity in its grace period, named after the identity (the last
 * component of its state directory), holding the wall-clock second the
 * grace period ends. grace_shared_init: 0 or -1 with errno.
 */
int grace_shared_init(const char *dir, const char *statedir);
/* Our grace period starts now and lasts secs: record it, durably, before serving. */
int grace_shared_begin(unsigned secs);
/* Is any head's grace period running (ours included)? One fstat; a scan when the record directory changed. */
int grace_shared_active(void);
/* Was a grace directory given (--grace-dir)? */
int grace_shared_enabled(void);
/*
 * From the main loop: removes our record once our grace period is over,
 * at the end it names or as soon as in_grace says it ended early (every
 * NFSv4 client of the last run said RECLAIM_COMPLETE).
 */
void grace_shared_tick(int in_grace);

#endif
