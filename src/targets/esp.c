/* The "esp" target: an ESP SoC's tile monitors through the ESP driver, on
 * the virtual SoC (default) or on silicon through /dev/mem (devmem=1). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "drivers/esp/esp_driver.h"
#include "models/esp/esp_soc.h"
#include "socmon/target.h"

typedef struct esp_target {
    socmon_esp_soc *soc;        /* virtual SoC; NULL on hardware */
    socmon_bus *bus;
    socmon_bus_trace *trace;
    socmon_device *dev;
    uint64_t t0_ns;             /* hardware: CLOCK_MONOTONIC at open */
    int started;                /* a workload was started (else advance starts the default) */
} esp_target;

static const char *const keys[] = {"soc", "base", "devmem", "dev", "trace_bus", NULL};

/* Must equal socmon_esp_workloads() (a test checks): target ops are static data. */
static const char *const esp_workloads[] = {"multifft", "cpu_stream", "acc_sweep", "noc_stress",
                                            "idle", NULL};

static void esp_close(void *priv)
{
    esp_target *e = priv;
    if (!e)
        return;
    socmon_device_free(e->dev);   /* before the buses its driver uses */
    socmon_bus_trace_close(e->trace);
    socmon_bus_free(e->bus);
    socmon_esp_soc_free(e->soc);
    free(e);
}

typedef struct esp_opts {
    const char *soc, *dev;
    int have_base, devmem;
    uint64_t base;
} esp_opts;

static socmon_status parse(const socmon_kv *o, size_t n, esp_opts *eo)
{
    for (size_t i = 0; i < n; i++) {
        const char *k = o[i].key, *v = o[i].value;
        if (!strcmp(k, "soc")) {
            eo->soc = v;
        } else if (!strcmp(k, "dev")) {
            eo->dev = v;
        } else if (!strcmp(k, "base")) {
            char *end = NULL;
            errno = 0;
            unsigned long long b = strtoull(v, &end, 0);
            if (!*v || *end || errno || b % 4)
                return socmon_fail(SOCMON_EINVAL, "esp: base=%s is not a 4-byte-aligned address "
                                                  "(e.g. 0x60090000)", v);
            eo->base = b;
            eo->have_base = 1;
        } else if (!strcmp(k, "devmem")) {
            if (strcmp(v, "0") && strcmp(v, "1"))
                return socmon_fail(SOCMON_EINVAL, "esp: devmem=%s must be 0 or 1", v);
            eo->devmem = v[0] == '1';
        } else if (strcmp(k, "trace_bus") != 0) {
            return socmon_fail(SOCMON_EINVAL, "esp: unknown option '%s' (valid: soc, base, "
                                              "devmem, dev, trace_bus)", k);
        }
    }
    return SOCMON_OK;
}

static socmon_status esp_open(const socmon_kv *opts, size_t nopts, void **priv,
                              socmon_device **dev)
{
    esp_opts eo = {0};
    socmon_status st = parse(opts, nopts, &eo);
    if (st)
        return st;
    socmon_esp_soc_desc d;
    if (eo.soc)
        st = socmon_esp_soc_desc_load(eo.soc, &d);
    else
        socmon_esp_soc_desc_default(&d);
    if (st)
        return st;
    if (eo.have_base)
        d.monitor_base = eo.base;
    if ((st = socmon_esp_desc_check(&d)))
        return st;
    esp_target *e = calloc(1, sizeof *e);
    if (!e)
        return socmon_fail(SOCMON_ENOMEM, "esp: out of memory");
    socmon_esp_soc_desc drvdesc = d;
    if (eo.devmem) {
        const char *path = eo.dev ? eo.dev : "/dev/mem";
        uint64_t size = (uint64_t)d.rows * d.cols * SOCMON_ESP_TILE_SIZE;
        if ((st = socmon_bus_mmio_open(path, d.monitor_base, size, &e->bus)))
            goto fail;
        drvdesc.monitor_base = 0;   /* the window starts at the monitor base */
        e->t0_ns = socmon_mono_ns();
    } else if ((st = socmon_bus_model_new(&e->bus)) || (st = socmon_esp_soc_new(&d, &e->soc)) ||
               (st = socmon_esp_soc_map(e->soc, e->bus))) {
        /* No workload yet: socmon_target_start picks one (the sampler's caller does). */
        goto fail;
    }
    socmon_bus *use = NULL;
    if ((st = socmon_bus_trace_open(opts, nopts, e->bus, &use, &e->trace)) ||
        (st = socmon_esp_device_new(use, &drvdesc, "esp", &e->dev)))
        goto fail;
    *priv = e;
    *dev = e->dev;
    return SOCMON_OK;
fail:
    esp_close(e);
    return st;
}

static socmon_status esp_start(void *priv, const char *workload)
{
    esp_target *e = priv;
    if (!e->soc)
        return workload ? socmon_fail(SOCMON_ENOTSUP, "esp: workload '%s': on hardware (devmem=1) "
                                                      "run your program yourself", workload)
                        : SOCMON_OK;
    socmon_status st = socmon_esp_soc_start(e->soc, workload);
    e->started |= st == SOCMON_OK;
    return st;
}

static socmon_status esp_advance(void *priv, uint64_t ns, int *done)
{
    esp_target *e = priv;
    if (e->soc) {
        /* A target nobody started still runs (and finishes) the default workload. */
        if (!e->started) {
            socmon_status st = esp_start(e, NULL);
            if (st != SOCMON_OK)
                return st;
        }
        return socmon_esp_soc_advance(e->soc, ns, done);
    }
    /* Hardware: time passes by itself (socmon_target_advance or the sampler
     * does the waiting); the workload is whatever runs there. */
    if (done)
        *done = 0;
    return SOCMON_OK;
}

static uint64_t esp_now(void *priv)
{
    esp_target *e = priv;
    return e->soc ? socmon_esp_soc_now_ns(e->soc) : socmon_mono_ns() - e->t0_ns;
}

static int esp_hardware(void *priv)
{
    return ((esp_target *)priv)->soc == NULL;
}

const socmon_target_ops socmon_target_esp_ops = {
    .name = "esp",
    .desc = "ESP SoC tile monitors (59 per tile) on the virtual SoC, or on silicon with devmem=1",
    .options_help = "soc=FILE      SoC description (docs/esp-model.md); default: built-in 2x3\n"
                    "base=ADDR     monitor base address (default from the SoC: 0x60090000)\n"
                    "devmem=1      real hardware: map the monitors from /dev/mem\n"
                    "dev=PATH      device to map with devmem=1 (default /dev/mem)\n"
                    "trace_bus=F   log every register access to F ('-' = stderr)\n",
    .option_keys = keys,
    .workloads = esp_workloads,
    .metrics = "esp",
    .simulated = 1,
    .hotspots = "*.noc_bp_*",
    .open = esp_open,
    .start = esp_start,
    .advance = esp_advance,
    .now_ns = esp_now,
    .close = esp_close,
    .hardware = esp_hardware,
};
