/* The pieces of the Prometheus text formats (0.0.4 and OpenMetrics 1.0) that are rules rather
 * than layout: metric names from socmon's counter, metric and unit names, base units, escaping,
 * Go's float syntax, and which format an HTTP Accept header asks for. export/fmt_prom.c lays
 * the document out with them; the agent's HTTP server (src/agent/) negotiates with them.
 * docs/prometheus.md explains every choice. */
#ifndef SOCMON_EXPORT_PROM_TEXT_H
#define SOCMON_EXPORT_PROM_TEXT_H

#include <stddef.h>
#include "export/sink.h"

/* Content types of the two expositions ("prometheus", "openmetrics"); NULL for another name. */
#define SOCMON_PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define SOCMON_OPENMETRICS_CONTENT_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"
const char *smn_prom_content_type(const char *format);

/* The format an HTTP Accept header asks for: "openmetrics" when it accepts
 * application/openmetrics-text at least as much (q) as text/plain, else "prometheus" (also for a
 * NULL or empty header, as Prometheus's own exporters answer). */
const char *smn_prom_negotiate(const char *accept);

/* How a socmon unit reads in a metric name: the suffix (a Prometheus base unit where socmon's
 * unit is a scaled one: "ns" -> "seconds" / 1e9, "MB/s" -> "bytes_per_second" x 1e6; "%" ->
 * "percent"; NULL for a plain count such as "events" or no unit) and the factor mul / div the
 * value is scaled by (two numbers, so 250 ns is 2.5e-07 s, not 2.5000000000000004e-07). */
typedef struct smn_prom_unit {
    const char *suffix;   /* NULL: no unit in the name, no UNIT line */
    double mul, div;
    const char *strip;    /* socmon's abbreviation of the unit ("_ns"), dropped from a name's end */
    char buf[64];         /* holds a suffix made from an unknown unit */
} smn_prom_unit;
void smn_prom_unit_of(const char *unit, smn_prom_unit *u);
/* v in the unit's Prometheus form: v * mul / div. */
double smn_prom_scale(const smn_prom_unit *u, double v);
/* 1 if the unit keeps values as they are (mul == div == 1). */
int smn_prom_unscaled(const smn_prom_unit *u);

/* A valid metric name: "socmon_" + name, lower case, every run of characters outside [a-z0-9_]
 * one '_' (':' too: it is for recording rules), then "_<n>" when n > 1 (telling apart two names
 * that came out equal), then "_<u->suffix>" unless the name already ends with it (u may be
 * NULL: no unit); socmon's abbreviation of a converted unit ending the name goes ("latency_ns"
 * in seconds: "latency_seconds"; promtool rejects "_ns", "_ms", "_per_s", ...). For a counter
 * (counter != 0) a trailing "_total" of name is dropped (the sample adds it back). Returns 0, or
 * -1 if buf is too small. */
int smn_prom_name(char *buf, size_t len, const char *name, const smn_prom_unit *u, unsigned n, int counter);

/* 1 if a gauge name ends in a suffix Prometheus reserves for counters, histograms and infos
 * (_total, _count, _sum, _bucket, _created, _info). */
int smn_prom_reserved_suffix(const char *name);

/* Escaped text: HELP (\\ and \n; OpenMetrics also \") and label values (\\, \" and \n).
 * Bytes that are not UTF-8 become U+FFFD: a scrape with one bad byte fails as a whole. */
socmon_status smn_prom_help(smn_sink *s, const char *text, int openmetrics);
socmon_status smn_prom_label_value(smn_sink *s, const char *text);

/* A value as Go's strconv.FormatFloat(v, 'g', -1, 64) writes it, as Prometheus's own clients
 * do: the shortest digits that read back exactly, NaN, +Inf, -Inf. Returns buf. */
const char *smn_prom_float(char *buf, size_t len, double v);

#endif
