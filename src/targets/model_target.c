/* The generic model target (see model_target.h): open, clock, workload
 * start, advance and teardown shared by every model-backed target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "targets/model_target.h"

int smn_model_target_given(const smn_model_target *mt, const char *name)
{
    size_t i = 0;
    for (const socmon_option *o = mt->ops->options; o && o->name && i < 64; o++, i++)
        if (strcmp(o->name, name) == 0)
            return (mt->given >> i) & 1;
    return 0;
}

void smn_model_target_close(void *priv)
{
    smn_model_target *mt = priv;
    if (!mt)
        return;
    socmon_device_free(mt->dev);   /* before the driver state and buses it uses */
    if (mt->decl->unbind && mt->priv)
        mt->decl->unbind(mt);
    socmon_bus_trace_close(mt->trace);
    socmon_bus_free(mt->bus);
    if (mt->model)
        mt->decl->model_free(mt->model);
    free(mt->priv);
    free(mt);
}

const char *const smn_model_target_drivers[] = {"socmon", "none", NULL};

/* driver=none given (the table has checked the value). */
static int no_driver(const socmon_kv *kv, size_t nkv)
{
    int none = 0;
    for (size_t i = 0; i < nkv; i++)
        if (kv[i].key && strcmp(kv[i].key, "driver") == 0)
            none = kv[i].value && strcmp(kv[i].value, "none") == 0;
    return none;
}

static socmon_status no_counters(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    (void)idx;
    (void)n;
    (void)out;
    return socmon_fail(SOCMON_ENOTSUP, "%s: driver=none: no socmon driver is attached, so there are "
                       "no counters to read (read the registers yourself through socmon_target_bus)",
                       (const char *)drv);
}

/* The placeholder device of a driver=none target: its name says why it has
 * no counters, which is what socmon_set_new's "has no counters" then shows. */
static socmon_status placeholder_device(smn_model_target *mt, socmon_device **dev)
{
    static const socmon_device_ops ops = {.size = sizeof ops, .read = no_counters};
    char name[96];
    snprintf(name, sizeof name, "%s (driver=none: no socmon driver attached)", mt->ops->name);
    return socmon_device_new(name, &ops, (void *)mt->ops->name, dev);
}

static socmon_status build(smn_model_target *mt, const socmon_kv *kv, size_t nkv)
{
    const smn_model_target_decl *d = mt->decl;
    socmon_status st = d->prepare ? d->prepare(mt) : SOCMON_OK;
    if (st == SOCMON_OK && d->hw_bus)
        st = d->hw_bus(mt, &mt->bus);
    if (st != SOCMON_OK)
        return st;
    if (mt->bus) {
        mt->t0_ns = smn_mono_ns();   /* hardware: time is the wall clock since open */
    } else if ((st = socmon_bus_model_new(&mt->bus)) || (st = d->model_new(mt, &mt->model)) ||
               (st = d->map(mt, mt->bus))) {
        return st;
    }
    /* No workload yet: socmon_target_start picks one, or the first advance
     * starts the default. */
    if ((st = socmon_bus_trace_open(kv, nkv, mt->bus, &mt->use, &mt->trace)))
        return st;
    if (mt->no_driver)
        return placeholder_device(mt, &mt->dev);
    return d->device_new(mt, mt->use, &mt->dev);
}

socmon_status smn_model_target_open(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv,
                                       void **priv, socmon_device **dev)
{
    const smn_model_target_decl *d = self ? self->impl : NULL;
    if (!d || !d->model_new || !d->map || !d->device_new || !d->start || !d->advance || !d->now_ns ||
        !d->model_free)
        return socmon_fail(SOCMON_EINVAL, "target '%s': model target declaration incomplete",
                           self ? self->name : "?");
    smn_model_target *mt = calloc(1, sizeof *mt);
    void *opts = calloc(1, d->opts_size ? d->opts_size : 1);
    if (mt)
        mt->priv = calloc(1, d->priv_size ? d->priv_size : 1);
    if (!mt || !opts || !mt->priv) {
        free(opts);
        if (mt)
            free(mt->priv);
        free(mt);
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", self->name);
    }
    mt->ops = self;
    mt->decl = d;
    mt->opts = opts;
    socmon_status st = socmon_options_parse(self->name, self->options, kv, nkv, opts, &mt->given);
    mt->no_driver = no_driver(kv, nkv);
    if (st == SOCMON_OK)
        st = build(mt, kv, nkv);
    mt->opts = NULL;   /* its strings point into kv: gone after open */
    free(opts);
    if (st != SOCMON_OK) {
        smn_model_target_close(mt);
        return st;
    }
    *priv = mt;
    *dev = mt->dev;
    return SOCMON_OK;
}

socmon_status smn_model_target_start(void *priv, const char *workload)
{
    smn_model_target *mt = priv;
    if (!mt->model)
        return workload ? socmon_fail(SOCMON_ENOTSUP,
                                      "%s: workload '%s': on hardware (%s) the board runs its own "
                                      "software; run your program yourself",
                                      mt->ops->name, workload, mt->decl->hw_option ? mt->decl->hw_option : "")
                        : SOCMON_OK;
    socmon_status st = mt->decl->start(mt, workload);
    mt->started |= st == SOCMON_OK;
    return st;
}

socmon_status smn_model_target_advance(void *priv, uint64_t ns, int *done)
{
    smn_model_target *mt = priv;
    int d = 0;
    socmon_status st = SOCMON_OK;
    if (!mt->model) {
        /* Hardware: time passes by itself (socmon_target_advance or the
         * sampler does the waiting); the workload is whatever runs there. */
        d = mt->decl->hw_done && mt->decl->hw_done(mt, smn_mono_ns() - mt->t0_ns);
    } else if (!mt->started && (st = smn_model_target_start(mt, NULL)) != SOCMON_OK) {
        return st;   /* a model nobody started runs (and finishes) its default workload */
    } else {
        st = mt->decl->advance(mt, ns, &d);
    }
    if (done)
        *done = d;
    return st;
}

uint64_t smn_model_target_now(void *priv)
{
    smn_model_target *mt = priv;
    return mt->model ? mt->decl->now_ns(mt) : smn_mono_ns() - mt->t0_ns;
}

int smn_model_target_hardware(void *priv)
{
    return ((smn_model_target *)priv)->model == NULL;
}

socmon_bus *smn_model_target_bus(void *priv)
{
    return ((smn_model_target *)priv)->use;
}

void *smn_model_target_model(void *priv)
{
    return ((smn_model_target *)priv)->model;
}
