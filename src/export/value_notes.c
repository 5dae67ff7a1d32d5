/* A row's flags as the words every format shows (table column, CSV field, JSON "flags") and the
 * table's footnotes that say what each word used means, one line per word, not per value: a
 * table stays as compact as before when no flag is set. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export/output.h"

enum { W_MISSED, W_UNDEF, W_SHORT, W_SCALED, W_LOST, NWORDS };

static const char *const notes[NWORDS] = {
    [W_MISSED] = "missed=N: N sampling intervals before this row have no sample of their own (the "
                 "sampler was late, or a recording's gap); the row's deltas cover them",
    [W_UNDEF] = "undef: the device flagged some of the row's values as undefined",
    [W_SHORT] = "short: the interval is shorter than the sampling interval (the run's last, or a stop); "
                "rates are over its real length",
    [W_SCALED] = "scaled=P%: multiplexed perf counts, estimated from the share of time P they counted "
                 "(the least of the row's counters), as perf prints (P%)",
    [W_LOST] = "lost=N: N samples were lost in a gap just before this row (a recording's gap, an "
               "agent's ring overrun); its deltas start after the gap",
};

/* Appends one word (already formatted) and marks it used. */
static void word(char *buf, size_t len, unsigned *used, int w, const char *one)
{
    size_t at = strlen(buf);
    if (at + 1 >= len)
        return;
    snprintf(buf + at, len - at, "%s%s", at ? " " : "", one);
    *used |= 1u << w;
}

void smn_row_flags_used(const socmon_interval_row *row, char *buf, size_t len, unsigned *used)
{
    if (!len)
        return;
    *buf = '\0';
    char one[64];
    if (row->flags & SOCMON_SAMPLE_MISSED) {
        snprintf(one, sizeof one, "missed=%u", row->missed);
        word(buf, len, used, W_MISSED, one);
    }
    if (row->flags & SOCMON_SAMPLE_UNDEF)
        word(buf, len, used, W_UNDEF, "undef");
    if (row->flags & SOCMON_SAMPLE_SHORT)
        word(buf, len, used, W_SHORT, "short");
    if ((row->value_flags & SOCMON_VALUE_SCALED) && !isnan(row->min_running)) {
        snprintf(one, sizeof one, "scaled=%.2f%%", row->min_running);
        word(buf, len, used, W_SCALED, one);
    }
    if (row->value_flags & SOCMON_VALUE_LOST) {
        snprintf(one, sizeof one, "lost=%llu", (unsigned long long)row->lost);
        word(buf, len, used, W_LOST, one);
    }
}

socmon_status smn_row_footnotes(socmon_sink *s, unsigned used)
{
    socmon_status st = SOCMON_OK;
    for (int w = 0; w < NWORDS && st == SOCMON_OK; w++)
        if (used & (1u << w))
            st = smn_sink_printf(s, "%s  %s\n", w == 0 || !(used & ((1u << w) - 1)) ? "\n" : "", notes[w]);
    return st;
}
