/* The rules of the "Where the time went" section stat and report end with (socmon/findings.h):
 * the built-in rules of the target (each member's, for a combined target), the rules of
 * NAME.findings.json beside a metric file NAME.json when there is one, and a findings file's. */
#ifndef SOCMON_RESULTS_FINDINGS_PICK_H
#define SOCMON_RESULTS_FINDINGS_PICK_H

#include "socmon/findings.h"

/* *out is NULL when there are none. target: the run's spec (NULL: none); metric_file and
 * findings_file may be NULL. */
socmon_status smn_findings_pick(const char *target, const char *metric_file, const char *findings_file,
                                socmon_findingset **out);

#endif
