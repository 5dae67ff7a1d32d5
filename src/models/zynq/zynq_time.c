/* Time on the Zynq model's bus, and the search for interrupt edges.
 *
 * Every access to a mapped window (the APM, either PMU) first lets
 * access_ns of simulated time pass and then acts, so a read returns the
 * register as of the end of the access. That is what makes a driver that
 * polls a status register terminate, and why the access cost is part of the
 * model rather than of the bus: time is the model's.
 *
 * Interrupt handlers and waiters need the exact time a line rises, so time
 * runs in one function, smn_zynq_time_to. While no line that someone listens to
 * could rise by time alone (its enables clear, or it is already high), the
 * model simply runs. Otherwise it runs in growing steps from a saved copy of
 * the model part of the state; once a step ends with a new line high, it
 * bisects that step (restoring the copy, rerunning shorter) down to the
 * first nanosecond the line is high. This works for every interrupt source
 * alike (sample-interval lapses, counter overflows) because a line can only
 * fall through a register write: with time alone it rises once and stays,
 * and the models count the same over any split of time. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/zynq/zynq_soc.h"

socmon_status smn_zynq_time_init(socmon_zynq_soc *soc)
{
    zynq_irq_state *q = &soc->irq;
    q->snap = malloc(ZYNQ_MODEL_BYTES);
    if (!q->snap)
        return socmon_fail(SOCMON_ENOMEM, "zynq: out of memory");
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    int rc = pthread_mutex_init(&q->lock, &ma);
    pthread_mutexattr_destroy(&ma);
    if (rc) {
        free(q->snap);
        q->snap = NULL;
        return socmon_fail(SOCMON_ENOMEM, "zynq: cannot make the model's lock");
    }
    q->access_ns = SOCMON_ZYNQ_ACCESS_NS_DEFAULT;
    q->win[0] = (zynq_window){soc, &smn_zapm_regops, &soc->apm};
    for (unsigned c = 0; c < SOCMON_ZYNQ_NCORES; c++)
        q->win[1 + c] = (zynq_window){soc, &smn_za9_regops, &soc->pmu[c]};
    return SOCMON_OK;
}

void smn_zynq_time_free(socmon_zynq_soc *soc)
{
    free(soc->irq.snap);
    soc->irq.snap = NULL;
    pthread_mutex_destroy(&soc->irq.lock);
}

socmon_status socmon_zynq_soc_set_access_ns(socmon_zynq_soc *soc, uint64_t ns)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "zynq: NULL model");
    if (ns > SOCMON_ZYNQ_ACCESS_NS_MAX)
        return socmon_fail(SOCMON_ERANGE, "zynq: access_ns %llu out of range 0..%u",
                           (unsigned long long)ns, SOCMON_ZYNQ_ACCESS_NS_MAX);
    soc->irq.access_ns = ns;
    return SOCMON_OK;
}

uint64_t socmon_zynq_soc_access_ns(const socmon_zynq_soc *soc)
{
    return soc ? soc->irq.access_ns : 0;
}

static void save(socmon_zynq_soc *soc)
{
    memcpy(soc->irq.snap, soc, ZYNQ_MODEL_BYTES);
}

static void restore(socmon_zynq_soc *soc)
{
    memcpy(soc, soc->irq.snap, ZYNQ_MODEL_BYTES);
}

/* Runs to t, or to the first nanosecond at which a line that was low in
 * `low` is high; returns the lines that rose (0: at t, none did). */
static unsigned run_to_edge(socmon_zynq_soc *soc, uint64_t t, unsigned low)
{
    uint64_t step = 1024;   /* a few accesses; doubles while nothing rises */
    for (;;) {
        uint64_t lo = soc->now_ns, hi = t - lo > step ? lo + step : t;
        save(soc);
        smn_zynq_soc_run_plain(soc, hi);
        if (!(smn_zynq_irq_lines(soc) & low)) {
            if (hi == t)
                return 0;
            step = step < (UINT64_MAX >> 2) ? step * 2 : step;
            continue;
        }
        /* risen in (lo, hi]: the copy holds the state at lo */
        while (hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            restore(soc);
            smn_zynq_soc_run_plain(soc, mid);
            if (smn_zynq_irq_lines(soc) & low) {
                hi = mid;
            } else {
                lo = mid;
                save(soc);
            }
        }
        restore(soc);
        smn_zynq_soc_run_plain(soc, hi);
        return smn_zynq_irq_lines(soc) & low;
    }
}

unsigned smn_zynq_time_to(socmon_zynq_soc *soc, uint64_t t, unsigned stop)
{
    uint64_t delivered_at = UINT64_MAX;
    while (soc->now_ns < t) {
        /* edges queued while a handler ran; again only once time has moved,
         * so a handler that re-raises its own line without letting time
         * pass cannot hold the clock */
        if (soc->irq.pending && !soc->irq.depth && delivered_at != soc->now_ns) {
            delivered_at = soc->now_ns;
            smn_zynq_irq_deliver(soc);
            continue;
        }
        unsigned lines = smn_zynq_irq_lines(soc);
        unsigned search = smn_zynq_irq_armed(soc) & ~lines & (smn_zynq_irq_listened(soc) | stop);
        if (!search) {
            smn_zynq_soc_run_plain(soc, t);
            smn_zynq_irq_note(soc);
            break;
        }
        run_to_edge(soc, t, search);
        unsigned rose = smn_zynq_irq_note(soc);
        if (rose & stop)
            soc->irq.stop_ns = soc->now_ns;
        smn_zynq_irq_deliver(soc);
        if (rose & stop)
            return rose & stop;
    }
    return 0;
}

/* One access: time passes, then the block's register model acts; then what
 * the access changed (IS cleared, an interrupt enabled over a pending flag)
 * is noted, and edges are delivered once the access is complete. */
static void access_begin(zynq_window *w)
{
    socmon_zynq_soc *soc = w->soc;
    soc->irq.depth++;
    uint64_t ns = soc->irq.access_ns;
    if (ns > ZYNQ_TIME_MAX - soc->now_ns)
        ns = ZYNQ_TIME_MAX - soc->now_ns;   /* the clock's end: accesses go on, time stops */
    smn_zynq_time_to(soc, soc->now_ns + ns, 0);
}

static void access_end(zynq_window *w)
{
    socmon_zynq_soc *soc = w->soc;
    smn_zynq_irq_note(soc);
    soc->irq.depth--;
    smn_zynq_irq_deliver(soc);
}

static socmon_status win_read(void *ctx, uint64_t off, uint32_t *val)
{
    zynq_window *w = ctx;
    zynq_lock(w->soc);
    access_begin(w);
    socmon_status st = w->ops->read(w->model, off, val);
    access_end(w);
    zynq_unlock(w->soc);
    return st;
}

static socmon_status win_write(void *ctx, uint64_t off, uint32_t val)
{
    zynq_window *w = ctx;
    zynq_lock(w->soc);
    access_begin(w);
    socmon_status st = w->ops->write(w->model, off, val);
    access_end(w);
    zynq_unlock(w->soc);
    return st;
}

const socmon_regmodel_ops smn_zynq_window_ops = {.read = win_read, .write = win_write};
