/* The recording writer as a consumer (analysis/recorder.h). */
#include <math.h>
#include <stdio.h>

#include "analysis/recorder.h"
#include "core/text.h"
#include "core/clock.h"

static socmon_status fail(smn_recorder *r, socmon_status st)
{
    r->failed = st != SOCMON_OK;
    return st;
}

/* Samples before index `to` that the file does not have are lost: a gap in the file. Only the
 * indices actually skipped count (what overlaps the file loses nothing more; a writer cannot go
 * back). */
static socmon_status skip_to(smn_recorder *r, uint64_t to)
{
    uint64_t next = socmon_recwriter_next_index(r->w);
    if (to <= next)
        return SOCMON_OK;
    r->lost += to - next;
    return fail(r, socmon_recwriter_skip_to(r->w, to));
}

static socmon_status on_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    smn_recorder *r = self;
    (void)a;
    (void)want;   /* no rows: the file keeps the samples themselves */
    r->next_flush = smn_mono_ns() + r->flush_ns;
    return SOCMON_OK;
}

static socmon_status on_sample(void *self, uint64_t seq, const socmon_sample *s)
{
    smn_recorder *r = self;
    socmon_status st = skip_to(r, seq);
    return st == SOCMON_OK ? fail(r, socmon_recwriter_append(r->w, s)) : st;
}

static socmon_status on_gap(void *self, const socmon_gap *g)
{
    return skip_to(self, g->first_seq + g->count);
}

static socmon_status on_tick(void *self)
{
    smn_recorder *r = self;
    if (!r->flush_ns || r->failed)
        return SOCMON_OK;
    uint64_t now = smn_mono_ns();
    if (now < r->next_flush)
        return SOCMON_OK;
    r->next_flush = now + r->flush_ns;
    return fail(r, socmon_recwriter_flush(r->w));
}

static const socmon_consumer_ops recorder_ops = {.size = sizeof recorder_ops, .begin = on_begin,
                                                 .sample = on_sample, .gap = on_gap, .tick = on_tick};

socmon_consumer smn_recorder_consumer(smn_recorder *r)
{
    return (socmon_consumer){.ops = &recorder_ops, .self = r};
}

int smn_recorder_too_long(uint64_t duration_ns, uint64_t interval_ns, size_t ncounters, char *buf, size_t len)
{
    if (!duration_ns || !interval_ns || !ncounters)
        return 0;
    double samples = floor((double)duration_ns / (double)interval_ns) + 1, values = samples * (double)ncounters;
    if (values <= (double)SOCMON_RECORDING_LOAD_MAX_VALUES)
        return 0;
    char a[32], b[32], c[32], d[32];
    smn_format_count(a, sizeof a, (uint64_t)samples, 1);
    smn_format_count(b, sizeof b, ncounters, 1);
    smn_format_count(c, sizeof c, values < 1.8e19 ? (uint64_t)values : UINT64_MAX, 1);
    smn_format_count(d, sizeof d, SOCMON_RECORDING_LOAD_MAX_VALUES, 1);
    snprintf(buf, len, "this run will record about %s samples of %s counters (%s values), more than the %s a load "
             "holds: report's --stats, --summary, rows, -x, and --json read it a block at a time, --html and "
             "--perfetto merge its intervals, and socmon_recording_load refuses it (socmon_recording_open reads it)",
             a, b, c, d);
    return 1;
}
