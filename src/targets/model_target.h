/* The generic model target: what every model-backed target shares, so a
 * concrete target (esp.c, zynq.c, tensix.c) is a declaration plus the
 * callbacks only it can provide.
 *
 * The generic part owns: parsing the options table into the target's options
 * struct; choosing between the model and real hardware (a target with a
 * hardware path opens its own bus when its options ask for it); the model
 * bus, mapping the model onto it, and the trace_bus recorder in front of
 * it; the clock (the model's simulated time, or CLOCK_MONOTONIC since open
 * on hardware); the rule that a model nobody started runs its default
 * workload from the first advance; and teardown in the one safe order
 * (device, driver state, trace, bus, model).
 *
 * Declaring a target:
 *
 *   static const smn_model_target_decl my_decl = {
 *       .opts_size = sizeof(my_opts), .priv_size = sizeof(my_state),
 *       .model_new = my_model_new, .map = my_map, .device_new = my_device_new,
 *       .start = my_start, .advance = my_advance, .now_ns = my_now,
 *       .model_free = my_model_free};
 *   const socmon_target_ops my_target_ops = {
 *       .name = "my", .desc = "...", .options = my_options, .workloads = my_workloads,
 *       .metrics = "my", .simulated = 1, SOCMON_MODEL_TARGET_OPS(my_decl)};
 *
 * docs/architecture.md ("Adding a target") walks through one. */
#ifndef SOCMON_TARGETS_MODEL_TARGET_H
#define SOCMON_TARGETS_MODEL_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "socmon/target.h"

typedef struct smn_model_target smn_model_target;

/* The callbacks a concrete target fills. All take the opened instance; its
 * parsed options are mt->opts (during open only), its own state mt->priv. */
typedef struct smn_model_target_decl {
    size_t opts_size;   /* the struct the option table's offsets point into */
    size_t priv_size;   /* the target's own state, zeroed at open, freed at close */
    /* For messages when a hardware instance is asked for a workload: the
     * option that selects hardware ("devmem=1"). */
    const char *hw_option;
    /* Optional, first: checks the options as a whole and derives what the
     * other callbacks need into mt->priv (e.g. load a SoC description). */
    socmon_status (*prepare)(smn_model_target *mt);
    /* Optional: if the options ask for real hardware, opens a bus onto it
     * into *bus; otherwise leaves *bus NULL and the model is built. */
    socmon_status (*hw_bus)(smn_model_target *mt, socmon_bus **bus);
    /* The model: create it from the options, map its registers on bus. */
    socmon_status (*model_new)(smn_model_target *mt, void **model);
    socmon_status (*map)(smn_model_target *mt, socmon_bus *bus);
    /* The driver side, over bus (model or hardware, maybe traced). */
    socmon_status (*device_new)(smn_model_target *mt, socmon_bus *bus, socmon_device **dev);
    /* Model only (the generic part answers for hardware). */
    socmon_status (*start)(smn_model_target *mt, const char *workload);
    socmon_status (*advance)(smn_model_target *mt, uint64_t ns, int *done);
    uint64_t (*now_ns)(smn_model_target *mt);
    /* Optional, hardware: 1 once a run of elapsed_ns has ended (default: never). */
    int (*hw_done)(smn_model_target *mt, uint64_t elapsed_ns);
    /* Optional: frees driver-side state kept in priv; runs after the device
     * is freed and before the bus goes. */
    void (*unbind)(smn_model_target *mt);
    void (*model_free)(void *model);
} smn_model_target_decl;

/* One opened model target. */
struct smn_model_target {
    const socmon_target_ops *ops;
    const smn_model_target_decl *decl;
    const void *opts;          /* parsed options; valid during open only */
    uint64_t given;            /* bit i: option table entry i was given */
    void *priv;                /* decl->priv_size bytes */
    void *model;               /* NULL on hardware */
    socmon_bus *bus;           /* model bus or the hardware's */
    socmon_bus_trace *trace;
    socmon_bus *use;           /* bus, or the trace recorder over it: what the driver reads */
    socmon_device *dev;
    uint64_t t0_ns;            /* hardware: CLOCK_MONOTONIC at open */
    int started;               /* a workload was started */
    /* driver=none: no socmon driver was attached, so no register was touched
     * by socmon (the model is as reset) and dev is an empty placeholder. A
     * target whose start/advance program registers through its driver (tensix's
     * thread calls) must skip that when set. */
    int no_driver;
};

/* 1 if option `name` of mt's table was given (not just defaulted). */
int smn_model_target_given(const smn_model_target *mt, const char *name);

socmon_status smn_model_target_open(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv,
                                       void **priv, socmon_device **dev);
socmon_status smn_model_target_start(void *priv, const char *workload);
socmon_status smn_model_target_advance(void *priv, uint64_t ns, int *done);
uint64_t smn_model_target_now(void *priv);
void smn_model_target_close(void *priv);
int smn_model_target_hardware(void *priv);
socmon_bus *smn_model_target_bus(void *priv);
void *smn_model_target_model(void *priv);

/* The socmon_target_ops fields a model target gets from the generic part. */
#define SOCMON_MODEL_TARGET_OPS(decl)                                                          \
    .open = smn_model_target_open, .start = smn_model_target_start,                     \
    .advance = smn_model_target_advance, .now_ns = smn_model_target_now,                \
    .close = smn_model_target_close, .hardware = smn_model_target_hardware,             \
    .bus = smn_model_target_bus, .model = smn_model_target_model, .impl = &(decl)

/* The driver= option every model target offers: "none" opens the model (or
 * the board's bus) with no socmon driver attached, for the user's own driver
 * over socmon_target_bus(). The generic part reads it from the raw pairs; the
 * field (unsigned, index into the choices) only gives the table its offset. */
extern const char *const smn_model_target_drivers[];
#define SOCMON_OPTION_DRIVER(opts_type)                                                            \
    {.name = "driver", .type = SOCMON_OPT_CHOICE, .arg = "NAME",                                \
     .help = "none: attach no socmon driver, every register at its reset value (for your own "   \
             "driver: socmon_target_bus)",                                                          \
     .def = "socmon", .choices = smn_model_target_drivers, .offset = offsetof(opts_type, driver)}

/* The trace_bus option every bus-backed target offers (the CLI's --trace-bus);
 * the generic part reads it from the raw pairs. */
#define SOCMON_OPTION_TRACE_BUS(opts_type)                                                         \
    {.name = "trace_bus", .type = SOCMON_OPT_PATH,                                            \
     .help = "log every register access to FILE ('-' = stderr)",                             \
     .offset = offsetof(opts_type, trace_bus)}

#endif
