/* Targets: a device plus a way to make time pass on it.
 *
 * A target is what the CLI and library users open by name: the built-in
 * virtual ESP SoC ("esp"), a Tensix core model ("tensix"), a Zynq model
 * ("zynq"), or real hardware. On a model target, time is simulated: advancing
 * runs the workload model for that long. On hardware, advancing sleeps.
 *
 * A target spec is NAME or NAME:key=value,key=value (e.g.
 * "esp:soc=my.soc", "tensix:bound=math,tiles=64"). Unknown keys are errors
 * naming the key and listing the valid ones. */
#ifndef SOCMON_TARGET_H
#define SOCMON_TARGET_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/device.h"
#include "socmon/metrics.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_target socmon_target;

typedef struct socmon_kv {
    const char *key;
    const char *value;
} socmon_kv;

/* What a target implementation provides. Built-in targets are listed in
 * src/targets/registry.c; users may open their own with socmon_target_open_ops. */
typedef struct socmon_target_ops {
    const char *name;
    const char *desc;
    const char *options_help;        /* one line per key: "soc=FILE  SoC description" */
    const char *const *option_keys;  /* NULL-terminated list of accepted keys */
    const char *const *workloads;    /* NULL-terminated; workloads[0] is the default */
    const char *metrics;             /* name of the built-in metric file, or NULL */
    int simulated;                   /* 1: time is simulated, no sleeping needed */
    const char *hotspots;            /* counter pattern whose largest deltas `stat` lists
                                        as hot spots (e.g. NoC backpressure), or NULL */
    socmon_status (*open)(const socmon_kv *opts, size_t nopts, void **priv,
                          socmon_device **dev);
    /* Begin a workload (NULL: the default). open starts none: until start,
     * advancing a model lets idle time pass. */
    socmon_status (*start)(void *priv, const char *workload);
    /* Let ns of target time pass; *done = 1 once the workload has finished.
     * A model simulates ns. Hardware needs no help for time to pass: its
     * advance only updates *done and returns at once; the waiting is done
     * by socmon_target_advance (or the sampler, to its deadlines). */
    socmon_status (*advance)(void *priv, uint64_t ns, int *done);
    uint64_t (*now_ns)(void *priv);
    void (*close)(void *priv);       /* frees priv and the device */
    /* Optional: 1 if this opened instance is real hardware although the
     * target is a model by default (e.g. esp:devmem=1), so it is paced in
     * real time. */
    int (*hardware)(void *priv);
    uint64_t default_interval_ns;    /* sampling interval when none is given; 0: 1 ms */
} socmon_target_ops;

size_t socmon_target_count(void);
const socmon_target_ops *socmon_target_at(size_t i);
const socmon_target_ops *socmon_target_lookup(const char *name);

socmon_status socmon_target_open(const char *spec, socmon_target **out);
socmon_status socmon_target_open_ops(const socmon_target_ops *ops, const socmon_kv *opts,
                                     size_t nopts, socmon_target **out);
void socmon_target_close(socmon_target *t);

const socmon_target_ops *socmon_target_ops_of(const socmon_target *t);
const char *socmon_target_spec(const socmon_target *t);
socmon_device *socmon_target_device(const socmon_target *t);
socmon_status socmon_target_start(socmon_target *t, const char *workload);
/* Lets ns of target time pass: simulates them on a model, sleeps on hardware. */
socmon_status socmon_target_advance(socmon_target *t, uint64_t ns, int *done);
uint64_t socmon_target_now_ns(const socmon_target *t);
/* 1 if time on this target is real (hardware): sampling sleeps to deadlines. */
int socmon_target_is_hardware(const socmon_target *t);
/* Loads the target's built-in metric file (SOCMON_ENOENT if it has none). */
socmon_status socmon_target_metrics(const socmon_target *t, socmon_metricset **out);

/* For target implementations. A target that reaches its device over a bus
 * lists "trace_bus" among its option keys and passes its bus through this:
 * with trace_bus=PATH in opts, *out is a recording bus over inner that logs
 * every access to PATH (the CLI's --trace-bus); without it, *out = inner.
 * Free *trace (may be NULL) after the last use of *out. */
typedef struct socmon_bus_trace socmon_bus_trace;
socmon_status socmon_bus_trace_open(const socmon_kv *opts, size_t nopts, socmon_bus *inner,
                                    socmon_bus **out, socmon_bus_trace **trace);
void socmon_bus_trace_close(socmon_bus_trace *trace);

/* Built-in metric files compiled into the library from metrics/NAME.json. */
const char *socmon_builtin_metrics(const char *name);

SOCMON_END_DECLS
#endif
