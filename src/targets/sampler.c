/* The interval sampler. See include/socmon/sampler.h for the contract.
 *
 * It lives with the targets, not in core, because it drives a target's
 * clock (smn_target_step) between reads: core never calls a target. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/text.h"
#include "socmon/delta.h"
#include "socmon/sampler.h"
#include "targets/target_internal.h"

static void sleep_until(uint64_t deadline_ns)
{
    struct timespec ts = {(time_t)(deadline_ns / 1000000000u), (long)(deadline_ns % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* Refuse intervals in which some counter could wrap twice unseen. */
static socmon_status check_interval(const socmon_set *set, uint64_t interval_ns)
{
    for (size_t i = 0; i < socmon_set_size(set); i++) {
        const socmon_counter *c = socmon_set_counter(set, i);
        uint64_t lim = socmon_max_interval_ns(c->width, c->max_rate_hz);
        if (interval_ns > lim)
            return socmon_fail(SOCMON_ERANGE,
                               "interval %.6g s too long for counter '%s': %u bits at up to %.4g events/s "
                               "wrap every %.6g s; sample at least that often",
                               (double)interval_ns / 1e9, socmon_set_full_name(set, i), c->width,
                               c->max_rate_hz, (double)lim / 1e9);
    }
    return SOCMON_OK;
}

socmon_status socmon_target_check_interval(const socmon_target *t, uint64_t interval_ns)
{
    const socmon_target_ops *ops = t ? socmon_target_ops_of(t) : NULL;
    if (!ops)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_check_interval: NULL target");
    if (ops->min_interval_ns && interval_ns < ops->min_interval_ns) {
        char got[32], min[32];
        smn_format_ns(got, sizeof got, interval_ns);
        smn_format_ns(min, sizeof min, ops->min_interval_ns);
        return socmon_fail(SOCMON_ERANGE,
                           "interval %s is below the minimum of target %s, %s (one sample reads every counter "
                           "over the device's bus)", got, ops->name, min);
    }
    return SOCMON_OK;
}

/* Whole intervals a wake-up `late` ns past its deadline slept through, never
 * more than the run has left: with a duration the run is
 * ceil(duration / interval) intervals, sampled or missed, and the interval
 * about to be sampled is one of them. Without this clamp a late wake-up near
 * the end counted intervals past the end of the run as missed. */
static uint32_t missed_in_run(uint64_t late, const socmon_sampler_opts *opts, uint64_t elapsed,
                              uint64_t intervals)
{
    uint64_t missed = late / opts->interval_ns;
    if (opts->duration_ns) {
        uint64_t left = opts->duration_ns - elapsed;   /* > 0: the loop still runs */
        uint64_t intervals_left = left / opts->interval_ns + (left % opts->interval_ns != 0);
        if (missed > intervals_left - 1)
            missed = intervals_left - 1;
    }
    if (opts->max_intervals && missed > opts->max_intervals - intervals - 1)
        missed = opts->max_intervals - intervals - 1;   /* intervals < max_intervals: the loop runs */
    return missed > UINT32_MAX ? UINT32_MAX : (uint32_t)missed;
}

/* A device may flag values undefined (SOCMON_EUNDEF); that sample is kept
 * with SOCMON_SAMPLE_UNDEF so the gap shows, and the run goes on. */
static socmon_status read_sample(socmon_set *set, uint64_t t_ns, socmon_sample *s)
{
    socmon_status st = socmon_set_read(set, t_ns, s);
    return st == SOCMON_EUNDEF ? SOCMON_OK : st;
}

/* A model's clock from elapsed to goal (ns since the first sample). A model
 * stops its clock where its workload ends, which may be inside the step:
 * without a duration that ends the run there; with one the rest of the
 * interval is still run, so samples stay on the interval grid. Elapsed time
 * is always what the target's clock says, never the sum of the steps asked. */
static socmon_status advance_model(socmon_target *t, uint64_t t_start, uint64_t goal, int until_goal,
                                   uint64_t *elapsed, int *done)
{
    int stuck = 0;
    while (*elapsed < goal) {
        uint64_t before = *elapsed;
        int d = 0;
        socmon_status st = smn_target_step(t, goal - *elapsed, &d);
        if (st != SOCMON_OK)
            return st;
        *done |= d;
        uint64_t now = socmon_target_now_ns(t);
        *elapsed = now > t_start ? now - t_start : 0;
        if (!until_goal)
            break;
        /* One step without progress is a workload that ended exactly where
         * the step began; a second one is a clock that does not move. */
        if (*elapsed <= before && ++stuck > 1)
            return socmon_fail(SOCMON_EIO, "target '%s': its clock did not move when advanced %llu ns "
                               "(stuck at %llu ns)", socmon_target_ops_of(t)->name,
                               (unsigned long long)(goal - before), (unsigned long long)now);
    }
    return SOCMON_OK;
}

socmon_status socmon_sampler_run(socmon_target *t, socmon_set *set, const socmon_sampler_opts *opts,
                                 socmon_timeline *tl, socmon_sample_fn fn, void *user,
                                 socmon_sampler_stats *stats)
{
    if (!t || !set || !opts)
        return socmon_fail(SOCMON_EINVAL, "socmon_sampler_run: NULL argument");
    socmon_status sz = smn_check_size("socmon_sampler_opts", opts->size, sizeof *opts);
    if (sz != SOCMON_OK)
        return sz;
    if (opts->interval_ns == 0)
        return socmon_fail(SOCMON_EINVAL, "sampling interval must be > 0");
    if (tl && socmon_timeline_ncounters(tl) != socmon_set_size(set))
        return socmon_fail(SOCMON_EINVAL, "timeline holds %zu counters, set has %zu",
                           socmon_timeline_ncounters(tl), socmon_set_size(set));
    socmon_status st = check_interval(set, opts->interval_ns);
    if (st != SOCMON_OK)
        return st;
    const socmon_target_ops *ops = socmon_target_ops_of(t);
    if ((st = socmon_target_check_interval(t, opts->interval_ns)) != SOCMON_OK)
        return st;
    int hardware = socmon_target_is_hardware(t);
    int realtime = opts->realtime || hardware;
    if (!realtime && opts->duration_ns == 0 && opts->max_intervals == 0 && !ops->workloads)
        return socmon_fail(SOCMON_EINVAL, "target '%s' has no workload to finish: give a duration", ops->name);

    socmon_sample a, b;
    uint64_t *deltas = calloc(socmon_set_size(set) + 1, sizeof *deltas);
    if (!deltas || socmon_sample_alloc(set, &a) != SOCMON_OK) {
        free(deltas);
        return socmon_fail(SOCMON_ENOMEM, "sampler: out of memory");
    }
    if ((st = socmon_sample_alloc(set, &b)) != SOCMON_OK) {
        socmon_sample_free(&a);
        free(deltas);
        return st;
    }
    socmon_sample *prev = &a, *cur = &b;
    socmon_sampler_stats s = {0};
    double jitter_sum = 0;
    /* elapsed: the run so far. On a model, its clock since the first sample;
     * on hardware, the deadlines passed (sampled or missed), so a late
     * wake-up never shortens the intervals still to come. */
    uint64_t elapsed = 0, intervals = 0, mono0 = 0;
    uint64_t t_start = socmon_target_now_ns(t);
    int done = 0;

    st = read_sample(set, t_start, prev);
    if (st == SOCMON_OK && tl)
        st = socmon_timeline_append(tl, prev);
    if (st == SOCMON_OK)
        s.samples++;
    if (realtime)
        mono0 = smn_mono_ns();

    while (st == SOCMON_OK) {
        if (opts->duration_ns ? elapsed >= opts->duration_ns : done)
            break;
        if (opts->max_intervals && intervals >= opts->max_intervals)
            break;
        /* The last interval of a duration may be short: -d is the run's length whatever -I is. */
        uint64_t left = opts->duration_ns ? opts->duration_ns - elapsed : UINT64_MAX;
        uint64_t step = opts->interval_ns < left ? opts->interval_ns : left;
        uint64_t from = elapsed;
        uint32_t missed = 0;
        if (realtime) {
            uint64_t deadline = mono0 + elapsed + step;
            /* A target that can say its run ended (a host command exited) wakes the
             * sampler then: the last interval is short, not slept out. */
            if (hardware && smn_target_wait(t, deadline) == 1) {
                uint64_t now = smn_mono_ns();
                if (now < deadline) {
                    uint64_t part = now > mono0 + elapsed ? now - (mono0 + elapsed) : 1;
                    step = part ? part : 1;
                    deadline = now;
                }
            } else {
                sleep_until(deadline);
            }
            uint64_t now = smn_mono_ns();
            uint64_t late = now > deadline ? now - deadline : 0;
            if (late > s.jitter_max_ns)
                s.jitter_max_ns = late;
            jitter_sum += (double)late;
            /* Woke a whole interval (or more) late. On hardware those
             * intervals are gone: say so in the sample instead of stretching
             * it silently. A model's clock waited for us, so nothing was lost:
             * take the backlog of samples at their exact simulated instants. */
            if (late >= opts->interval_ns && hardware) {
                missed = missed_in_run(late, opts, elapsed, intervals);
                uint64_t span = ((uint64_t)missed + 1) * opts->interval_ns;
                step = span < left ? span : left;
            }
        }
        if (hardware) {
            /* Already waited: never sleep again here. */
            int d = 0;
            if ((st = smn_target_step(t, step, &d)) != SOCMON_OK)
                break;
            done |= d;
            elapsed += step;
        } else if ((st = advance_model(t, t_start, elapsed + step, opts->duration_ns != 0, &elapsed,
                                       &done)) != SOCMON_OK) {
            break;
        }
        if ((st = read_sample(set, socmon_target_now_ns(t), cur)) != SOCMON_OK)
            break;
        if (missed) {
            cur->flags |= SOCMON_SAMPLE_MISSED;
            cur->missed = missed;
            s.missed += missed;
        }
        /* Its own length (the missed intervals before it aside) is less than
         * a whole interval: the end of a duration or of the workload. */
        if (elapsed - from - (uint64_t)missed * opts->interval_ns < opts->interval_ns)
            cur->flags |= SOCMON_SAMPLE_SHORT;
        intervals += 1 + (uint64_t)missed;
        if (tl && (st = socmon_timeline_append(tl, cur)) != SOCMON_OK)
            break;
        s.samples++;
        socmon_set_diff(set, prev, cur, deltas);
        if (fn && (st = fn(user, prev, cur, deltas)) != SOCMON_OK)
            break;
        socmon_sample *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    if (s.samples > 1)
        s.jitter_mean_ns = jitter_sum / (double)(s.samples - 1);
    if (stats)
        *stats = s;
    socmon_sample_free(&a);
    socmon_sample_free(&b);
    free(deltas);
    return st;
}
