/* The live format: the lines `socmon record` prints while it samples, one per interval as it
 * arrives ("  1.200 ms  l2_hit_rate_all=49.84%  coh_traffic=16,384 messages  ..."), so nothing
 * waits for the run to end. It shows the chosen metric results (cols.shown) as name=value unit,
 * each metric with the same decimals as in report's table, or the sum of all deltas when the
 * metrics could not be evaluated, and says when intervals were missed. With cols.show_counts it
 * first shows that many counters' deltas (name=count). Totals look as in the table format. */
#include <string.h>

#include "export/output_format.h"
#include "export/table.h"
#include "socmon/sample.h"

static socmon_status live_begin(smn_output *o)
{
    const smn_run_info *r = &o->run;
    if (r->doc == SOCMON_DOC_TOTALS)
        return smn_format_table.begin(o);
    char iv[32];
    smn_format_ns(iv, sizeof iv, r->interval_ns);
    return smn_sink_printf(o->sink, "%s target '%s'%s%s, %zu counters every %s%s\n",
                              r->title ? r->title : "sampling", r->target, r->workload ? ", workload " : "",
                              r->workload ? r->workload : "", r->ncounters, iv,
                              r->simulated ? " (simulated time)" : " (real time)");
}

static socmon_status live_counters(smn_output *o, const smn_counter_rows *r)
{
    return smn_format_table.counters(o, r);
}

static socmon_status live_metrics(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                                  const double *values)
{
    return smn_format_table.metrics(o, ms, m, values);
}

static socmon_status live_hotspots(smn_output *o, const smn_counter_rows *r)
{
    return smn_format_table.hotspots(o, r);
}

static socmon_status live_row(smn_output *o, const socmon_row *row)
{
    const smn_interval_cols *c = &o->cols;
    smn_sink *s = o->sink;
    /* One unit for the whole run (the interval's), so times line up and never switch units. */
    uint64_t tu = smn_time_unit_ns(o->run.interval_ns);
    char t[32];
    smn_format_time(t, sizeof t, row->since_ns, tu, !o->opts.no_big_num);
    smn_sink_printf(s, "%10s %s", t, smn_time_unit_name(tu));
    for (size_t i = 0; i < c->show_counts && i < c->counters->n; i++) {
        char v[32];
        const char *unit = c->counters->c[i].unit;
        smn_output_count(o, row->deltas[smn_col(o, i)], v, sizeof v);
        /* "events" says nothing a count does not; ns and bytes do */
        int bare = !unit || !*unit || strcmp(unit, "events") == 0;
        smn_sink_printf(s, "  %s=%s%s%s", c->counters->names[i], v, bare ? "" : " ", bare ? "" : unit);
    }
    if (row->metrics) {
        for (size_t k = 0; k < c->nshown; k++) {
            const socmon_metric_result_info *r = socmon_metrics_result(c->metrics, c->shown[k]);
            char v[48];
            const char *unit;
            smn_metric_human(o, r->def, row->metrics[c->shown[k]], v, sizeof v, &unit);
            /* A percent sign reads well glued to a number, other units after a space; an
             * undefined value ("-") has no unit to show. */
            int bare = !*unit || strcmp(v, "-") == 0;
            smn_sink_printf(s, "  %s%s%s=%s%s%s", r->instance, *r->instance ? "." : "", r->def->name, v,
                               bare || strcmp(unit, "%") == 0 ? "" : " ", bare ? "" : unit);
        }
    } else if (!c->show_counts) {
        uint64_t sum = 0;
        for (size_t i = 0; i < c->counters->n; i++)
            sum += row->deltas[smn_col(o, i)];
        char v[32];
        smn_output_count(o, sum, v, sizeof v);
        smn_sink_printf(s, "  events=%s", v);
    }
    if (row->flags & SOCMON_SAMPLE_MISSED)
        smn_sink_printf(s, "  MISSED %u interval%s", row->missed, row->missed == 1 ? "" : "s");
    if (row->flags & SOCMON_SAMPLE_UNDEF)
        smn_sink_puts(s, "  UNDEFINED values");
    if (row->flags & SOCMON_SAMPLE_SHORT)
        smn_sink_puts(s, "  (short interval)");
    char names[128];
    const char *bad = row->value_flags & SOCMON_VALUE_IMPLAUSIBLE
                          ? smn_row_bad_names(o, row, SOCMON_VALUE_IMPLAUSIBLE, names, sizeof names) : NULL;
    if (bad && *bad)
        smn_sink_printf(s, "  IMPLAUSIBLE %s", bad);
    const char *dead = row->value_flags & SOCMON_VALUE_DEAD_BUS
                           ? smn_row_bad_names(o, row, SOCMON_VALUE_DEAD_BUS, names, sizeof names) : NULL;
    if (dead && *dead)
        smn_sink_printf(s, "  DEAD BUS %s", dead);
    return smn_sink_putc(s, '\n');
}

static socmon_status live_note(smn_output *o, const char *text)
{
    return smn_sink_printf(o->sink, "%s\n", text);
}

static socmon_status live_end(smn_output *o)
{
    return smn_format_table.end(o);
}

static const smn_timeline_ops live_timeline = {
    .row = live_row,
};

const smn_output_format smn_format_live = {
    .name = "live", .selects_metrics = 1, .begin = live_begin, .counters = live_counters,
    .metrics = live_metrics, .hotspots = live_hotspots, .note = live_note, .end = live_end,
    .timeline = &live_timeline,
};
