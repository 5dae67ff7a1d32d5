/* The "esp" target: an ESP SoC's tile monitors through the ESP driver, on
 * the virtual SoC (default) or on silicon through /dev/mem (devmem=1).
 * The generic model target (model_target.h) does the rest. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bus/window_bus.h"
#include "core/error.h"
#include "drivers/esp/esp_driver.h"
#include "models/esp/esp_soc.h"
#include "socmon/esp.h"
#include "targets/esp_grid.h"
#include "targets/model_target.h"
#include "targets/target_internal.h"

typedef struct esp_opts {
    const char *soc, *dev, *trace_bus;
    uint64_t base;
    int have_base, devmem;
    unsigned driver;
} esp_opts;

typedef struct esp_state {
    socmon_esp_soc_desc desc;   /* from soc= or the built-in 2x3, base= applied */
} esp_state;

/* base= must be a register address: word aligned. */
static socmon_status parse_base(const socmon_option *opt, const char *v, void *out)
{
    esp_opts *eo = out;
    uint64_t b = 0;
    if (smn_option_read_u64(v, &b) != 0 || b % 4)
        return socmon_fail(SOCMON_EINVAL, "%s=%s is not a 4-byte-aligned address (e.g. 0x60090000)",
                           opt->name, v);
    eo->base = b;
    eo->have_base = 1;
    return SOCMON_OK;
}

static const socmon_option esp_options[] = {
    {.name = "soc", .type = SOCMON_OPT_PATH, .help = "SoC description: a path or an installed name (esp_4x4); default: built-in 2x3",
     .offset = offsetof(esp_opts, soc)},
    {.name = "base", .type = SOCMON_OPT_UINT, .arg = "ADDR",
     .help = "monitor base address (default from the SoC: 0x60090000)", .offset = offsetof(esp_opts, base),
     .parse = parse_base},
    {.name = "devmem", .type = SOCMON_OPT_BOOL, .help = "1: real hardware, map the monitors from dev=",
     .def = "0", .offset = offsetof(esp_opts, devmem)},
    {.name = "dev", .type = SOCMON_OPT_PATH, .help = "device to map with devmem=1", .def = "/dev/mem",
     .offset = offsetof(esp_opts, dev)},
    SOCMON_OPTION_TRACE_BUS(esp_opts),
    SOCMON_OPTION_DRIVER(esp_opts),
    {0},
};

/* Must equal socmon_esp_workloads() (a test checks), then the two that take arguments (the
 * chosen traffic of docs/esp-model.md): target ops are static data. */
static const char *const esp_workloads[] = {"multifft", "cpu_stream", "acc_sweep", "noc_stress", "idle",
                                            "acc_none", "acc_llc",    "acc_dma",   "acc_full",
                                            "noc-trace:FILE",
                                            "noc:pattern=P,rate=R,len=N|mix,seed=S,plane=P,cycles=C,hot=T", NULL};

static socmon_status esp_prepare(smn_model_target *mt)
{
    const esp_opts *eo = mt->opts;
    esp_state *s = mt->priv;
    socmon_status st = SOCMON_OK;
    if (eo->soc)
        st = socmon_esp_soc_desc_load(eo->soc, &s->desc);
    else
        socmon_esp_soc_desc_default(&s->desc);
    if (st)
        return st;
    if (eo->have_base)
        s->desc.monitor_base = eo->base;
    return socmon_esp_desc_check(&s->desc);
}

static socmon_status esp_hw_bus(smn_model_target *mt, socmon_bus **bus)
{
    const esp_opts *eo = mt->opts;
    const socmon_esp_soc_desc *d = &((esp_state *)mt->priv)->desc;
    if (!eo->devmem)
        return SOCMON_OK;
    /* The mapping answers at offsets in the window; the window bus moves it
     * to the monitor base, where the model answers too, so the driver, a
     * trace and socmon_target_bus() see the same addresses either way. */
    uint64_t size = (uint64_t)d->rows * d->cols * SOCMON_ESP_TILE_SIZE;
    socmon_bus *mmio = NULL;
    socmon_status st = socmon_bus_mmio_open(eo->dev, d->monitor_base, size, &mmio);
    if (st == SOCMON_OK && (st = smn_bus_window_new(mmio, d->monitor_base, size, bus)) != SOCMON_OK)
        socmon_bus_free(mmio);
    return st;
}

static socmon_status esp_model_new(smn_model_target *mt, void **model)
{
    return smn_esp_soc_new(&((esp_state *)mt->priv)->desc, (socmon_esp_soc **)model);
}

static socmon_status esp_map(smn_model_target *mt, socmon_bus *bus)
{
    return smn_esp_soc_map(mt->model, bus);
}

static socmon_status esp_device_new(smn_model_target *mt, socmon_bus *bus, socmon_device **dev)
{
    /* The model-only counters only where the model answers: not on silicon (devmem=1). */
    const esp_opts *eo = mt->opts;
    return smn_esp_device_new(bus, &((esp_state *)mt->priv)->desc, "esp", !eo->devmem, dev);
}

static socmon_status esp_start(smn_model_target *mt, const char *workload)
{
    return socmon_esp_soc_start(mt->model, workload);
}

static socmon_status esp_advance(smn_model_target *mt, uint64_t ns, int *done)
{
    return socmon_esp_soc_advance(mt->model, ns, done);
}

static uint64_t esp_now(smn_model_target *mt)
{
    return socmon_esp_soc_now_ns(mt->model);
}

static void esp_model_free(void *model)
{
    smn_esp_soc_free(model);
}

static const smn_model_target_decl esp_decl = {
    .opts_size = sizeof(esp_opts),
    .priv_size = sizeof(esp_state),
    .hw_option = "devmem=1",
    .prepare = esp_prepare,
    .hw_bus = esp_hw_bus,
    .model_new = esp_model_new,
    .map = esp_map,
    .device_new = esp_device_new,
    .start = esp_start,
    .advance = esp_advance,
    .now_ns = esp_now,
    .model_free = esp_model_free,
};

/* The running workload's phases, from the model (none on hardware: no script runs there). */
static size_t esp_phases(void *priv, socmon_phase *out, size_t max)
{
    return smn_esp_soc_phases(smn_model_target_model(priv), out, max);
}

/* A noc-trace or noc workload's results (none on hardware, or after another workload). */
static size_t esp_results(void *priv, socmon_result *out, size_t max)
{
    void *model = smn_model_target_model(priv);
    return model ? smn_esp_soc_results(model, out, max) : 0;
}

const socmon_target_ops smn_target_esp_ops = {
    .name = "esp",
    .desc = "ESP SoC tile monitors (59 per tile) on the virtual SoC, or on silicon with devmem=1",
    .options = esp_options,
    .workloads = esp_workloads,
    .metrics = "esp",
    .simulated = 1,
    .hotspots = "*.noc_out_*",
    SOCMON_MODEL_TARGET_OPS(esp_decl),
    .grid = smn_esp_grid,
    .min_interval_ns = 1000, /* one sample reads 59 monitors a tile over the NoC */
    .phases = esp_phases,
    .results = esp_results,
};

socmon_esp_soc *socmon_esp_soc_of_target(const socmon_target *t)
{
    return socmon_target_model(t, "esp");
}
