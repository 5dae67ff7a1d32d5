/* The JSON the web page reads, built once for both places that serve it: the live API
 * (src/serve/http.c: GET /api/info and the rows of GET /api/stream) and the self-contained
 * report (export/fmt_html.c: window.SOCMON_DATA). One builder keeps the two identical, so the
 * page has a single reader (docs/charts.md describes the shapes).
 *
 *   info = {"version":1, "target", "device", "interval_ns", "simulated", "params":{name:value},
 *           "layout":{...}, "counters":[{"name","instance","counter","unit","width"}],
 *           "metrics":[{"name","instance","metric","unit","precision","desc"[,"labels"]}]}
 *   row  = {"seq","t_ns","dt_ns","flags","missed","m":[one per info.metrics, null for NaN],
 *           "d":[deltas of the chosen counters][,"note":"implausible=... dead-bus=..."]}
 *
 * Internal to socmon (not installed): the agent side links the static library. */
#ifndef SOCMON_EXPORT_WEB_JSON_H
#define SOCMON_EXPORT_WEB_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "export/output.h"
#include "socmon/target.h"

#define SOCMON_WEB_INFO_VERSION 1

typedef struct smn_web_info_in {
    const char *target;                 /* the target spec */
    const char *device;                 /* the device name, or NULL */
    uint64_t interval_ns;
    int simulated;                      /* timestamps are a model's simulated time */
    const smn_counter_list *counters;
    const socmon_metrics *metrics;      /* bound metrics, or NULL */
    size_t nparams;                     /* the device's parameters (clock_hz, rows, cols, ...) */
    const char *const *param_names;
    const double *param_values;
    const socmon_target_ops *ops;       /* the target's declaration (its grid op places the heat
                                           map's tiles), or NULL: no grid */
    const socmon_phase *phases;         /* the workload's phases: the info's "phases", the charts'
                                           bands; NULL / 0: no "phases" member */
    size_t nphases;
} smn_web_info_in;

/* The whole info object; NULL (with socmon_fail's message) when out of memory or given no
 * target or counters. The caller owns the reference. */
json_t *smn_web_info_json(const smn_web_info_in *in);

/* What the page needs to draw the target's own picture, from the grid op of ops (the target's
 * declaration; socmon_target_ops.grid): {"kind" (the grid's, e.g. "esp-grid"), "cols", "rows",
 * "planes", "tiles":[{"instance":"tile3","x":0,"y":1,"type":"cpu|mem|acc|io|empty"}]}. A target
 * without a grid op, or whose op finds no grid in these counters and parameters:
 * {"kind":"<target name>"}. NULL when out of memory. */
json_t *smn_web_layout_json(const socmon_target_ops *ops, const char *target, const smn_counter_list *counters,
                               size_t nparams, const char *const *names, const double *values);

/* One row object as text into buf (always terminated when len > 0). No allocation, so a
 * server may call it anywhere. Returns the length the whole text needs, as snprintf does: the
 * text was cut when that is >= len. note (NULL or "": none): what is wrong with the row's values
 * (value_notes.c's words, "implausible=cpu0.ccnt"), its "note" member, which the page lists. */
size_t smn_web_row_text(char *buf, size_t len, uint64_t seq, uint64_t t_ns, uint64_t dt_ns, unsigned flags,
                           unsigned missed, const double *m, size_t nm, const uint64_t *d, size_t nd,
                           const char *note);

#endif
