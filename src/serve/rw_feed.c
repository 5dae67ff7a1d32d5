/* The remote writer fed by hand (remote_write.h): the agent samples in a thread of its own and
 * has no pipeline, so the writer makes one for the set, with itself as its only consumer. The
 * pipeline's per-sample work (deltas, metrics once per merged row) allocates nothing. */
#include <stdlib.h>

#include "socmon/status.h"
#include "serve/rw_internal.h"

socmon_status smn_rw_attach_set(smn_rw *rw, const socmon_set *set, const char *target, const char *workload,
                                uint64_t interval_ns, int simulated, const socmon_metricset *ms)
{
    if (!rw || !set)
        return socmon_fail(SOCMON_EINVAL, "smn_rw_attach_set: rw or set is NULL");
    if (rw->own_p)
        return socmon_fail(SOCMON_ESTATE, "smn_rw_attach_set: already attached");
    size_t n = socmon_set_size(set);
    rw->own_counters = calloc(n + 1, sizeof *rw->own_counters);
    rw->own_names = calloc(n + 1, sizeof *rw->own_names);
    if (!rw->own_counters || !rw->own_names)
        return socmon_fail(SOCMON_ENOMEM, "remote write: out of memory");
    for (size_t i = 0; i < n; i++) {
        rw->own_counters[i] = *socmon_set_counter(set, i);
        rw->own_names[i] = socmon_set_full_name(set, i);
    }
    /* the device's parameters: metrics over clock_hz (latencies in ns) need them */
    const socmon_device *dev = socmon_set_device(set);
    size_t np = socmon_device_nparams(dev);
    rw->own_pnames = calloc(np + 1, sizeof *rw->own_pnames);
    rw->own_pvalues = calloc(np + 1, sizeof *rw->own_pvalues);
    if (!rw->own_pnames || !rw->own_pvalues)
        return socmon_fail(SOCMON_ENOMEM, "remote write: out of memory");
    for (size_t i = 0; i < np; i++) {
        socmon_status pst = socmon_device_param_at(dev, i, &rw->own_pnames[i], &rw->own_pvalues[i]);
        if (pst != SOCMON_OK)
            return pst;
    }
    rw->own_info = (socmon_source_info){.kind = "target", .target = target, .device = socmon_device_name(dev),
                                        .workload = workload, .interval_ns = interval_ns, .simulated = simulated,
                                        .ncounters = n, .counters = rw->own_counters, .names = rw->own_names,
                                        .nparams = np, .param_names = rw->own_pnames,
                                        .param_values = rw->own_pvalues, .set = set};
    socmon_pipeline_opts po = {.size = sizeof po, .ms = ms};
    socmon_consumer c = smn_rw_consumer(rw);
    c.optional = 0;
    socmon_status st = socmon_pipeline_new(&rw->own_info, &po, &rw->own_p);
    if (st == SOCMON_OK)
        st = socmon_pipeline_add(rw->own_p, &c);
    if (st == SOCMON_OK)
        st = socmon_pipeline_begin(rw->own_p);
    if (st != SOCMON_OK) {
        socmon_pipeline_free(rw->own_p);
        rw->own_p = NULL;
    }
    return st;
}

void smn_rw_sample(smn_rw *rw, uint64_t seq, const socmon_sample *s)
{
    if (rw && rw->own_p && !rw->own_ended)
        socmon_pipeline_sample(rw->own_p, seq, s, 0);
}

void smn_rw_end(smn_rw *rw)
{
    if (rw && rw->own_p && !rw->own_ended) {
        rw->own_ended = 1;
        socmon_pipeline_end(rw->own_p, NULL);
    }
}
