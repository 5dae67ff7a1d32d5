/* The rules of the "Where the time went" section stat and report end with (socmon/findings.h). */
#ifndef SOCMON_CLI_PICK_RULES_H
#define SOCMON_CLI_PICK_RULES_H

#include "cli/opts.h"
#include "socmon/analysis.h"
#include "socmon/findings.h"

/* The built-in rules of info's target (each member's, for a combined target), the rules of
 * NAME.findings.json beside a --metric-file NAME.json when there is one, and --findings FILE's.
 * *out is NULL when there are none. */
socmon_status cli_findings_load(const cli_opts *o, const socmon_source_info *info, socmon_findingset **out);

#endif
