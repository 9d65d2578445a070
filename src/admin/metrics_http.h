/*
 * The Prometheus listener (--metrics ADDR:PORT): GET /metrics returns the
 * text exposition of the statistics.  One small thread with poll() serves
 * it, never a pool thread, so scrapes cannot delay NFS work; and it is
 * bounded: at most METRICS_MAX_CONNS connections (more are closed at
 * once), METRICS_MAX_HEADER bytes of request header (then 431), and
 * METRICS_TIMEOUT_MS for a connection's whole life.  GET only (405), one
 * path (404), one request per connection.
 */
#ifndef USERNFSD_METRICS_HTTP_H
#define USERNFSD_METRICS_HTTP_H

#include <stddef.h>

#define METRICS_MAX_CONNS 16
#define METRICS_MAX_HEADER 8192
#define METRICS_TIMEOUT_MS 5000

/* spec: "ADDR:PORT", "[IPV6]:PORT" or ":PORT" (all addresses). */
int metrics_http_start(const char *spec, char *err, size_t errlen);
void metrics_http_stop(void);

#endif
