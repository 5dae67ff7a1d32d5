/* What can be measured, as `socmon list` shows it: the targets with their options and
 * workloads, one target's whole declaration, its metrics with their formulas, its workloads
 * (its counters: export/counter_list.h). Each writes to fp;
 * the declarations are the targets' own (socmon_target_ops), read through the public API. */
#ifndef SOCMON_RESULTS_CATALOG_H
#define SOCMON_RESULTS_CATALOG_H

#include <stdio.h>
#include "socmon/target.h"

/* Every built-in target: its description, options and workloads. */
void smn_catalog_targets(FILE *fp);
/* One target: description, usage, options with ranges and defaults, workloads, metrics file,
 * default interval, and its own event list where it has one. */
void smn_catalog_target(FILE *fp, const socmon_target_ops *t);
/* The metrics of target spec: name, unit, description and formula. */
socmon_status smn_catalog_metrics(FILE *fp, const char *spec);
/* The workloads of target spec's kind, the first marked the default. */
socmon_status smn_catalog_workloads(FILE *fp, const char *spec);

/* The options of the target spec names, as --help -t SPEC shows them: "Options of target 'T'
 * (-t T:key=value,...):" and its option table's help, or that it has none; SOCMON_ENOENT for
 * no such target. */
socmon_status smn_catalog_options(FILE *fp, const char *spec);

#endif
