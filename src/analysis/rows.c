/* A consumer's rows (socmon_row_policy): each interval as it comes, every Nth of them, or
 * intervals merged by count (a page of a long recording) or by time (the live page's ~20 rows a
 * second, whatever the interval). A merged row sums the deltas and evaluates the metrics once,
 * over its whole span; a missed interval starts a row of its own, so a hole stays a hole. */
#include <stdlib.h>
#include <string.h>

#include "analysis/pipeline_internal.h"
#include "core/clock.h"

int smn_pipeline_merger_init(pipeline_merger *m, size_t n, size_t nm)
{
    m->raw = calloc(n + 1, sizeof *m->raw);
    m->scaled = calloc(n + 1, sizeof *m->scaled);
    m->running = calloc(n + 1, sizeof *m->running);
    m->tmp = calloc(n + 1, sizeof *m->tmp);
    m->mv = calloc(nm + 1, sizeof *m->mv);
    m->bad = calloc(n + 1, 1);
    if (!m->raw || !m->scaled || !m->running || !m->tmp || !m->mv || !m->bad) {
        smn_pipeline_merger_free(m);
        return -1;
    }
    return 0;
}

void smn_pipeline_merger_free(pipeline_merger *m)
{
    free(m->raw), free(m->scaled), free(m->running), free(m->tmp), free(m->mv), free(m->bad);
    m->raw = m->scaled = NULL;
    m->bad = NULL;
    m->running = m->tmp = m->mv = NULL;
}

void smn_pipeline_merger_reset(pipeline_merger *m)
{
    memset(&m->want, 0, sizeof m->want);
    m->n = 0;
    m->seen = 0;
    m->dt = 0;
    m->flags = m->missed = 0;
    m->lost = 0;
    m->have_wall = 0;
    m->badflags = 0;
}

socmon_status smn_pipeline_merger_flush(socmon_pipeline *p, pipeline_merger *m)
{
    if (!m->n || m->off)
        return SOCMON_OK;
    smn_pipeline_scale(p->sc, p->n, m->raw, m->scaled, m->running, m->tmp);
    const unsigned char *bad = m->badflags ? m->bad : NULL;
    smn_pipeline_eval(p, m->scaled, bad, m->dt, m->mv);
    double lo;
    unsigned vf = smn_pipeline_value_flags(p, m->running, p->m ? m->mv : NULL, m->flags, m->lost, &lo) | m->badflags;
    socmon_row r = {.seq = m->seq, .first_seq = m->first_seq, .t_ns = m->t, .since_ns = p->elapsed, .dt_ns = m->dt,
                    .flags = m->flags, .missed = m->missed, .intervals = m->n, .index = p->intervals - 1,
                    .raw = m->raw, .deltas = m->scaled, .metrics = p->m ? m->mv : NULL, .samples = p->samples,
                    .run_missed = p->missed_so_far, .value_flags = vf, .min_running = lo,
                    .counter_running = p->sc ? m->running : NULL, .lost = m->lost, .implausible = bad};
    socmon_status st = m->c.ops->row ? smn_pipeline_call(m, m->c.ops->row(m->c.self, &r)) : SOCMON_OK;
    memset(m->raw, 0, p->n * sizeof *m->raw);
    if (m->badflags)
        memset(m->bad, 0, p->n);
    m->badflags = 0;
    m->n = 0;
    m->dt = 0;
    m->flags = m->missed = 0;
    m->lost = 0;
    return st;
}

socmon_status smn_pipeline_merger_add(socmon_pipeline *p, pipeline_merger *m, uint64_t seq, const socmon_sample *s,
                                  uint64_t dt, unsigned flags)
{
    const socmon_row_policy *w = &m->want;
    if (m->off || !w->rows)
        return SOCMON_OK;
    m->seen++;
    if (w->every > 1 && (m->seen - 1) % w->every != 0)
        return SOCMON_OK;
    socmon_status st = SOCMON_OK;
    int merging = w->merge > 1 || w->merge_ns;
    if (merging && (s->flags & SOCMON_SAMPLE_MISSED))
        st = smn_pipeline_merger_flush(p, m);
    if (st != SOCMON_OK)
        return st;
    for (size_t i = 0; i < p->n; i++)
        m->raw[i] += p->d[i];
    if (p->badflags) {
        m->badflags |= p->badflags;
        for (size_t i = 0; i < p->n; i++)
            m->bad[i] |= p->bad[i];
    }
    if (!m->n)
        m->first_seq = seq;
    m->n++;
    m->seq = seq;
    m->t = s->t_ns;
    m->dt += dt;
    m->flags |= s->flags;
    m->missed += s->missed;
    if (w->merge_ns) {
        /* Live, rows are paced by the wall clock (the page's load): merge_ns since the last row,
         * or half of it once the row spans merge_ns of its own time (a paced 50 ms interval woken
         * a little early must not make 100 ms rows of two samples; a model running faster than
         * the wall clock still makes at most two rows per merge_ns). Samples of the past arrive
         * all at once, so their rows are cut by the samples' own time alone. */
        uint64_t now = w->clock ? w->clock(w->clock_user) : smn_mono_ns(), since = now - m->last_wall, row = w->merge_ns;
        int cut = (flags & SOCMON_PAST) ? m->dt >= row
                                        : !m->have_wall || since >= row || (m->dt >= row && since >= row / 2);
        if (!cut)
            return SOCMON_OK;
        m->last_wall = now;
        m->have_wall = 1;
    } else if (w->merge > 1 && m->n < w->merge) {
        return SOCMON_OK;
    }
    return smn_pipeline_merger_flush(p, m);
}
