/* A row's flags as the words every format shows (table column, CSV field, JSON "flags") and the
 * table's footnotes that say what each word used means, one line per word, not per value: a
 * table stays as compact as before when no flag is set. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export/output_format.h"

enum { W_MISSED, W_UNDEF, W_SHORT, W_SCALED, W_LOST, W_IMPLAUSIBLE, W_DEAD, NWORDS };

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
    [W_IMPLAUSIBLE] = "implausible=C: counter C moved more than its maximum rate allows in the interval (it "
                      "went backwards, jumped or read a broken value); its delta is shown as read and the "
                      "metrics over it are undefined",
    [W_DEAD] = "dead-bus=B: every register of block B read all-ones: no device answered (a dead bus, an "
               "absent or unclocked slave); its values are not counts",
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

/* A name list is at most this long (a row's flags stay one readable line). */
#define NAMES_LEN 128

const char *smn_row_bad_names(const smn_output *o, const socmon_row *row, unsigned bit, char *buf, size_t len)
{
    if (!row->implausible || !o->cols.src)
        return NULL;
    smn_value_names(o->cols.src, row->implausible, bit, buf, len);
    return buf;
}

const char *smn_output_row_phase(const smn_output *o, const socmon_row *row)
{
    return smn_row_phase(o->run.phases, o->run.nphases, row->t_ns);
}

/* The words of a row's flags, of those in `flags` and `value_flags` alone. */
static void flag_words(const smn_output *o, const socmon_row *row, unsigned flags, unsigned value_flags,
                       char *buf, size_t len, unsigned *used)
{
    if (!len)
        return;
    *buf = '\0';
    char one[64];
    if (flags & SOCMON_SAMPLE_MISSED) {
        snprintf(one, sizeof one, "missed=%u", row->missed);
        word(buf, len, used, W_MISSED, one);
    }
    if (flags & SOCMON_SAMPLE_UNDEF)
        word(buf, len, used, W_UNDEF, "undef");
    if (flags & SOCMON_SAMPLE_SHORT)
        word(buf, len, used, W_SHORT, "short");
    if ((value_flags & SOCMON_VALUE_SCALED) && !isnan(row->min_running)) {
        snprintf(one, sizeof one, "scaled=%.2f%%", row->min_running);
        word(buf, len, used, W_SCALED, one);
    }
    if (value_flags & SOCMON_VALUE_LOST) {
        snprintf(one, sizeof one, "lost=%llu", (unsigned long long)row->lost);
        word(buf, len, used, W_LOST, one);
    }
    char names[NAMES_LEN], many[160];
    const char *bad = value_flags & SOCMON_VALUE_IMPLAUSIBLE
                          ? smn_row_bad_names(o, row, SOCMON_VALUE_IMPLAUSIBLE, names, sizeof names) : NULL;
    if (bad && *bad) {
        snprintf(many, sizeof many, "implausible=%s", bad);
        word(buf, len, used, W_IMPLAUSIBLE, many);
    }
    const char *dead = value_flags & SOCMON_VALUE_DEAD_BUS
                           ? smn_row_bad_names(o, row, SOCMON_VALUE_DEAD_BUS, names, sizeof names) : NULL;
    if (dead && *dead) {
        snprintf(many, sizeof many, "dead-bus=%s", dead);
        word(buf, len, used, W_DEAD, many);
    }
}

void smn_row_flags_used(const smn_output *o, const socmon_row *row, char *buf, size_t len, unsigned *used)
{
    flag_words(o, row, row->flags, row->value_flags, buf, len, used);
}

void smn_row_value_note(const smn_output *o, const socmon_row *row, char *buf, size_t len)
{
    unsigned used = 0;
    flag_words(o, row, 0, row->value_flags & (SOCMON_VALUE_IMPLAUSIBLE | SOCMON_VALUE_DEAD_BUS), buf, len, &used);
}

/* At most this many names in a word: a row's flags stay one readable line. */
#define NAMES_SHOWN 3

void smn_value_names(const socmon_source_info *info, const unsigned char *bad, unsigned bit, char *buf, size_t len)
{
    if (!len)
        return;
    *buf = '\0';
    size_t shown = 0, more = 0, at = 0;
    const char *last = NULL;
    for (size_t i = 0; bad && i < info->ncounters; i++) {
        if (!(bad[i] & bit) || (bit != SOCMON_VALUE_DEAD_BUS && (bad[i] & SOCMON_VALUE_DEAD_BUS)))
            continue;   /* a dead block's counters are named by their block alone */
        const char *name = info->names[i];
        if (bit == SOCMON_VALUE_DEAD_BUS) {
            name = info->counters[i].instance && *info->counters[i].instance ? info->counters[i].instance : "device";
            if (last && strcmp(last, name) == 0)
                continue;   /* a block's counters are listed together */
            last = name;
        }
        if (shown == NAMES_SHOWN) {
            more++;
            continue;
        }
        int w = snprintf(buf + at, len - at, "%s%s", shown ? "," : "", name);
        if (w < 0 || (size_t)w >= len - at) {
            buf[at] = '\0';
            more++;
            shown = NAMES_SHOWN;
            continue;
        }
        at += (size_t)w;
        shown++;
    }
    if (more && at + 1 < len)
        snprintf(buf + at, len - at, "+%zu", more);
}

socmon_status smn_row_footnotes(smn_sink *s, unsigned used)
{
    socmon_status st = SOCMON_OK;
    for (int w = 0; w < NWORDS && st == SOCMON_OK; w++)
        if (used & (1u << w))
            st = smn_sink_printf(s, "%s  %s\n", w == 0 || !(used & ((1u << w) - 1)) ? "\n" : "", notes[w]);
    return st;
}
