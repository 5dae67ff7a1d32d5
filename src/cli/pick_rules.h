/* The rules of the "Where the time went" section stat and report end with (socmon/findings.h). */
#ifndef SOCMON_CLI_PICK_RULES_H
#define SOCMON_CLI_PICK_RULES_H

#include "cli/opts.h"
#include "results/findings_pick.h"
#include "socmon/analysis.h"

/* smn_findings_pick for the run of info and the options' --metric-file and --findings. */
#define cli_findings_load(o, info, out) \
    smn_findings_pick((info) ? (info)->target : NULL, (o)->metric_file, (o)->findings, (out))

#endif
