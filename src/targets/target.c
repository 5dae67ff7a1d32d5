/* Opening targets by spec ("esp:soc=my.soc") and the calls that forward to them. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "targets/target_internal.h"

struct socmon_target {
    const socmon_target_ops *ops;
    void *priv;
    socmon_device *dev;
    char *spec;
};

static void known_targets(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < socmon_target_count() && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", socmon_target_at(i)->name);
}

static socmon_status open_ops_argv(const socmon_target_ops *ops, const socmon_kv *opts, size_t nopts,
                                   char *const argv[], socmon_target **out);

socmon_status smn_target_open_spec_as(const socmon_spec *spec, const char *text, socmon_target **out)
{
    const socmon_target_ops *ops = socmon_spec_target(spec);
    if (!ops) {
        char known[256];
        known_targets(known, sizeof known);
        return socmon_fail(SOCMON_ENOENT, "unknown target '%s' (known: %s)", socmon_spec_name(spec), known);
    }
    const socmon_kv *kv = NULL;
    size_t nkv = socmon_spec_options(spec, &kv);
    socmon_status st = open_ops_argv(ops, kv, nkv, socmon_spec_argv(spec), out);
    if (st == SOCMON_OK) {
        char *s = strdup(text);
        if (!s) {
            socmon_target_close(*out);
            *out = NULL;
            return socmon_fail(SOCMON_ENOMEM, "socmon_target_open: out of memory");
        }
        free((*out)->spec);
        (*out)->spec = s;
    }
    return st;
}

socmon_status socmon_target_open(const char *spec, socmon_target **out)
{
    return socmon_target_open_kv(spec, NULL, 0, out);
}

socmon_status socmon_target_open_kv(const char *spec, const socmon_kv *extra, size_t nextra, socmon_target **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_open: out is NULL");
    if (nextra && !extra)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_open_kv: %zu extra options but extra is NULL", nextra);
    *out = NULL;
    socmon_spec *s = NULL;
    socmon_status st = socmon_spec_parse(spec, &s);
    /* An extra option replaces the spec's of the same key (the CLI's --trace-bus over a
     * spec's trace_bus=, say); a key the spec itself, or extra, gives twice is refused. */
    for (size_t i = 0; st == SOCMON_OK && i < nextra; i++) {
        if (!extra[i].key || !extra[i].value) {
            st = socmon_fail(SOCMON_EINVAL, "socmon_target_open_kv: extra option %zu has no key or value", i);
            break;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(extra[j].key, extra[i].key) == 0)
                st = socmon_fail(SOCMON_EINVAL, "target '%s': option '%s' given twice (%s=%s, then %s=%s)",
                                 socmon_spec_name(s), extra[i].key, extra[j].key, extra[j].value, extra[i].key,
                                 extra[i].value);
        if (st == SOCMON_OK)
            st = socmon_spec_set_extra(s, extra[i].key, extra[i].value);
    }
    if (st == SOCMON_OK)
        st = smn_target_open_spec_as(s, spec, out);
    socmon_spec_free(s);
    return st;
}

socmon_status socmon_target_open_spec(const socmon_spec *spec, socmon_target **out)
{
    if (!out || !spec)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_open_spec: NULL argument");
    *out = NULL;
    char *text = socmon_spec_text(spec);
    socmon_status st = text ? smn_target_open_spec_as(spec, text, out) : socmon_fail(SOCMON_ENOMEM, "out of memory");
    free(text);
    return st;
}

socmon_status socmon_target_open_ops(const socmon_target_ops *ops, const socmon_kv *opts, size_t nopts,
                                     socmon_target **out)
{
    return open_ops_argv(ops, opts, nopts, NULL, out);
}

static socmon_status open_ops_argv(const socmon_target_ops *ops, const socmon_kv *opts, size_t nopts,
                                   char *const argv[], socmon_target **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_open_ops: out is NULL");
    *out = NULL;
    if (!ops || !ops->open || !ops->advance || !ops->now_ns || !ops->close)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_open_ops: ops incomplete");
    socmon_status sz = smn_check_size("socmon_target_ops", ops->size, sizeof *ops);
    if (sz != SOCMON_OK)
        return sz;
    socmon_target *t = calloc(1, sizeof *t);
    if (!t || !(t->spec = strdup(ops->name))) {
        free(t);
        return socmon_fail(SOCMON_ENOMEM, "socmon_target_open: out of memory");
    }
    t->ops = ops;
    socmon_status st = SOCMON_OK;
    if (!opts && nopts)
        st = socmon_fail(SOCMON_EINVAL, "socmon_target_open_ops: opts is NULL");
    /* Keys first, for every target (its open parses the values): each known, and each
     * once, as which of two values was meant is not ours to guess. */
    for (size_t i = 0; i < nopts && st == SOCMON_OK; i++) {
        st = socmon_options_check_key(ops->name, ops->options, opts[i].key);
        for (size_t j = 0; j < i && st == SOCMON_OK; j++)
            if (strcmp(opts[j].key, opts[i].key) == 0)
                st = socmon_fail(SOCMON_EINVAL, "target '%s': option '%s' given twice (%s=%s, then %s=%s)",
                                 ops->name, opts[i].key, opts[j].key, opts[j].value ? opts[j].value : "",
                                 opts[i].key, opts[i].value ? opts[i].value : "");
    }
    /* argv only for a target that takes one, read only where the declaration's size has it */
    int takes_argv = (!ops->size || ops->size > offsetof(socmon_target_ops, open_argv)) && ops->open_argv;
    if (st == SOCMON_OK && argv && argv[0] && !takes_argv)
        st = socmon_fail(SOCMON_EINVAL, "target '%s' runs no command or program ('-- %s')", ops->name, argv[0]);
    else if (st == SOCMON_OK && argv && argv[0])
        st = ops->open_argv(ops, opts, nopts, argv, &t->priv, &t->dev);
    else if (st == SOCMON_OK)
        st = ops->open(ops, opts, nopts, &t->priv, &t->dev);
    if (st == SOCMON_OK && !t->dev) {
        ops->close(t->priv);
        st = socmon_fail(SOCMON_EINVAL, "target '%s' opened without a device", ops->name);
    }
    if (st != SOCMON_OK) {
        free(t->spec);
        free(t);
        return st;
    }
    *out = t;
    return SOCMON_OK;
}

void socmon_target_close(socmon_target *t)
{
    if (!t)
        return;
    t->ops->close(t->priv);
    free(t->spec);
    free(t);
}

const socmon_target_ops *socmon_target_ops_of(const socmon_target *t)
{
    return t ? t->ops : NULL;
}

const char *socmon_target_spec(const socmon_target *t)
{
    return t ? t->spec : "";
}

socmon_device *socmon_target_device(const socmon_target *t)
{
    return t ? t->dev : NULL;
}

socmon_status socmon_target_start(socmon_target *t, const char *workload)
{
    if (!t)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_start: target is NULL");
    if (workload && t->ops->workloads) {
        int known = socmon_target_has_workload(t->ops, workload);
        char list[320] = "";
        size_t used = 0;
        for (const char *const *w = t->ops->workloads; *w; w++) {
            if (used < sizeof list)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", *w);
        }
        if (!known)
            return socmon_fail(SOCMON_ENOENT, "target '%s': unknown workload '%s' (known: %s)", t->ops->name,
                               workload, list);
    }
    if (!t->ops->start)
        return workload ? socmon_fail(SOCMON_ENOTSUP, "target '%s' runs no workloads", t->ops->name)
                        : SOCMON_OK;
    return t->ops->start(t->priv, workload);
}

socmon_status smn_target_step(socmon_target *t, uint64_t ns, int *done)
{
    int d = 0;
    if (!t)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_advance: target is NULL");
    socmon_status st = t->ops->advance(t->priv, ns, &d);
    if (done)
        *done = d;
    return st;
}

socmon_status smn_target_set_spec(socmon_target *t, const char *spec)
{
    char *s = spec ? strdup(spec) : NULL;
    if (!t || !s) {
        free(s);
        return socmon_fail(SOCMON_ENOMEM, "target: out of memory");
    }
    free(t->spec);
    t->spec = s;
    return SOCMON_OK;
}

void *smn_target_priv(const socmon_target *t)
{
    return t ? t->priv : NULL;
}

int smn_target_wait(socmon_target *t, uint64_t deadline_ns)
{
    if (!t || !t->ops->wait)
        return -1;
    return t->ops->wait(t->priv, deadline_ns) ? 1 : 0;
}

socmon_status socmon_target_advance(socmon_target *t, uint64_t ns, int *done)
{
    if (t && socmon_target_is_hardware(t)) {
        struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
        while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
            ;
    }
    return smn_target_step(t, ns, done);
}

uint64_t socmon_target_now_ns(const socmon_target *t)
{
    return t ? t->ops->now_ns(t->priv) : 0;
}

int socmon_target_is_hardware(const socmon_target *t)
{
    if (!t)
        return 0;
    return !t->ops->simulated || (t->ops->hardware && t->ops->hardware(t->priv));
}

socmon_bus *socmon_target_bus(const socmon_target *t)
{
    return t && t->ops->bus ? t->ops->bus(t->priv) : NULL;
}

void *socmon_target_model(const socmon_target *t, const char *target_name)
{
    if (!t || !target_name || !t->ops->model || strcmp(t->ops->name, target_name) != 0)
        return NULL;
    return t->ops->model(t->priv);
}

socmon_status socmon_target_metrics(const socmon_target *t, socmon_metricset **out)
{
    if (!t || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_metrics: NULL argument");
    return socmon_metrics_for_target(t->ops, t->spec, out);
}

/* The one lookup of a target's built-in metric set (socmon_target_metrics and the analysis
 * layer's socmon_source_metricset both come here). */
socmon_status socmon_metrics_for_target(const socmon_target_ops *ops, const char *spec, socmon_metricset **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_metrics_for_target: NULL argument");
    *out = NULL;
    spec = spec ? spec : "";
    if (!ops)
        ops = socmon_spec_ops_of(spec);
    if (!(ops && ops->metrics) && socmon_spec_members(spec) > 1)
        return socmon_metrics_for_spec(spec, out);   /* a combined run: its members' files, merged */
    const char *text = ops ? socmon_builtin_metrics(ops->metrics) : NULL;
    if (!text)
        return socmon_fail(SOCMON_ENOENT, "target '%s' has no built-in metrics", ops ? ops->name : spec);
    char src[96];
    snprintf(src, sizeof src, "metrics/%s.json", ops->metrics);
    return socmon_metricset_load_string(text, src, out);
}
