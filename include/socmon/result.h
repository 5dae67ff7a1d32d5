/* Run results: facts of a run as a whole that no counter holds (the cycle a NoC trace drained,
 * its packets' latency), as a target's workload gives them (socmon_target_results) and `stat`
 * shows them ("results" in JSON, docs/output.md). */
#ifndef SOCMON_RESULT_H
#define SOCMON_RESULT_H

#include "socmon/export.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_result {
    char name[32];       /* "cycles", "latency_p99" */
    double value;
    const char *unit;    /* static text: "cycles", "packets" */
    const char *desc;    /* static text, one line */
} socmon_result;

SOCMON_END_DECLS
#endif
