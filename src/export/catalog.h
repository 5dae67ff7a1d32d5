/* What can be measured, as `socmon list` shows it: the targets with their options and
 * workloads, one target's whole declaration, a target's counters (a table, or JSON with each
 * counter's vendor number), its metrics with their formulas, its workloads. Each writes to fp;
 * the declarations are the targets' own (socmon_target_ops), read through the public API. */
#ifndef SOCMON_EXPORT_CATALOG_H
#define SOCMON_EXPORT_CATALOG_H

#include <stdio.h>
#include "socmon/target.h"

/* Every built-in target: its description, options and workloads. */
void smn_catalog_targets(FILE *fp);
/* One target: description, usage, options with ranges and defaults, workloads, metrics file,
 * default interval, and its own event list where it has one. */
void smn_catalog_target(FILE *fp, const socmon_target_ops *t);
/* The counters of target spec (opened here) that events selects (NULL: all): a table with a
 * count line, or with json one JSON document, {"target", "device", ["index",] "counters": [...]}. */
socmon_status smn_catalog_counters(FILE *fp, const char *spec, const char *events, int json);
/* The metrics of target spec: name, unit, description and formula. */
socmon_status smn_catalog_metrics(FILE *fp, const char *spec);
/* The workloads of target spec's kind, the first marked the default. */
socmon_status smn_catalog_workloads(FILE *fp, const char *spec);

#endif
