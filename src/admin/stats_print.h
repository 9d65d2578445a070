/*
 * The forms a statistics snapshot is shown in (stats_print.c): usernfsctl's
 * table, JSON, "key value" lines (for -i) and Prometheus's text format.
 */
#ifndef USERNFSD_STATS_PRINT_H
#define USERNFSD_STATS_PRINT_H

#include <stdio.h>

struct stats_snapshot;

void stats_print_table(FILE *out, const struct stats_snapshot *s);
void stats_print_json(FILE *out, const struct stats_snapshot *s);
void stats_print_flat(FILE *out, const struct stats_snapshot *s);
void stats_print_prometheus(FILE *out, const struct stats_snapshot *s);

#endif
