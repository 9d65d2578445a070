/* `usernfsctl clients` (clients_print.c). */
#ifndef USERNFSD_CLIENTS_PRINT_H
#define USERNFSD_CLIENTS_PRINT_H

#include <stdio.h>

/* Text, or JSON when json is set; mounts from the MOUNT list. */
void clients_print(FILE *out, int json);

#endif
