/* Small files in the state directory (src/statefile.c). */
#ifndef USERNFSD_STATEFILE_H
#define USERNFSD_STATEFILE_H

#include <stdio.h>

/* Replaces dir/name with text, durably: a power cut keeps one or the other. 0 or -1 (logged). */
int statefile_replace(const char *dir, const char *name, const char *text);
/* dir/name open for reading, or NULL. */
FILE *statefile_open(const char *dir, const char *name);

#endif
