/* A session's counters read once (snapshot.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/snapshot.h"
#include "socmon/perf.h"

/* The events the machine could not count, of t's perf_event device or of a member's: up to max
 * names into out; returns how many. */
static size_t unsupported_events(const socmon_target *t, const char **out, size_t max)
{
    const socmon_device *d = socmon_target_device((socmon_target *)t);
    if (socmon_perf_device_unsupported(d, 0, NULL, NULL) == SOCMON_EINVAL) {
        socmon_clear_error();
        for (size_t i = 0; socmon_target_member(t, i); i++) {
            size_t n = unsupported_events(socmon_target_member(t, i), out, max);
            if (n)
                return n;
        }
        return 0;
    }
    size_t n = 0;
    while (n < max && socmon_perf_device_unsupported(d, n, &out[n], NULL) == SOCMON_OK)
        n++;
    socmon_clear_error();
    return n;
}

socmon_status smn_session_snapshot(smn_session *sess, int run, smn_snapshot *x)
{
    memset(x, 0, sizeof *x);
    socmon_target *t = smn_session_target(sess);
    socmon_set *set = smn_session_set(sess);
    uint64_t t0 = socmon_target_now_ns(t);
    socmon_status st = run ? smn_session_run(sess) : SOCMON_OK;
    x->elapsed_ns = socmon_target_now_ns(t) - t0;
    if (st == SOCMON_OK && (st = socmon_sample_alloc(set, &x->s)) == SOCMON_OK)
        st = socmon_set_read(set, socmon_target_now_ns(t), &x->s);
    if (st == SOCMON_OK)
        st = socmon_target_trace_flush(t);
    x->n = socmon_set_size(set);
    x->schema = calloc(x->n ? x->n : 1, sizeof *x->schema);
    x->names = calloc(x->n ? x->n : 1, sizeof *x->names);
    if (st == SOCMON_OK && (!x->schema || !x->names))
        st = socmon_fail(SOCMON_ENOMEM, "read: out of memory");
    for (size_t i = 0; st == SOCMON_OK && i < x->n; i++) {
        x->schema[i] = *socmon_set_counter(set, i);
        x->names[i] = socmon_set_full_name(set, i);
    }
    x->nunsupported = st == SOCMON_OK ? unsupported_events(t, x->unsupported, SMN_SNAPSHOT_MAX_UNSUPPORTED) : 0;
    return st;
}

void smn_snapshot_free(smn_snapshot *x)
{
    free(x->schema);
    free(x->names);
    socmon_sample_free(&x->s);
    memset(x, 0, sizeof *x);
}
