/* One device over several Zynq driver parts (APM + PMUs): the counter list is
 * the parts' lists one after another, and a read is split by part so that
 * each part sees all of its counters in one call (the APM latches once).
 * The public device calls of socmon/zynq.h are built here from the parts. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/zynq/zynq_drv.h"

typedef struct zdev {
    size_t nparts;
    smn_zynq_part *parts;
    size_t *first;          /* device index of each part's counter 0 */
    size_t cap;             /* scratch capacity */
    uint32_t *lidx;         /* local indices for one part */
    size_t *pos;            /* where each goes in out[] */
    uint64_t *val;
} zdev;

static void zdev_destroy(void *p)
{
    zdev *z = p;
    if (!z)
        return;
    for (size_t i = 0; i < z->nparts; i++)
        if (z->parts[i].destroy)
            z->parts[i].destroy(z->parts[i].drv);
    free(z->parts);
    free(z->first);
    free(z->lidx);
    free(z->pos);
    free(z->val);
    free(z);
}

static socmon_status grow(zdev *z, size_t n)
{
    if (n <= z->cap)
        return SOCMON_OK;
    uint32_t *l = realloc(z->lidx, n * sizeof *l);
    if (l)
        z->lidx = l;
    size_t *p = realloc(z->pos, n * sizeof *p);
    if (p)
        z->pos = p;
    uint64_t *v = realloc(z->val, n * sizeof *v);
    if (v)
        z->val = v;
    if (!l || !p || !v)
        return socmon_fail(SOCMON_ENOMEM, "zynq device: out of memory");
    z->cap = n;
    return SOCMON_OK;
}

static socmon_status zdev_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    zdev *z = p;
    socmon_status st = grow(z, n);
    if (st)
        return st;
    for (size_t k = 0; k < z->nparts; k++) {
        size_t lo = z->first[k], hi = lo + z->parts[k].ncounters, m = 0;
        for (size_t i = 0; i < n; i++)
            if (idx[i] >= lo && idx[i] < hi) {
                z->lidx[m] = (uint32_t)(idx[i] - lo);
                z->pos[m++] = i;
            }
        if (!m)
            continue;
        if ((st = z->parts[k].read(z->parts[k].drv, z->lidx, m, z->val)) != SOCMON_OK)
            return st;
        for (size_t i = 0; i < m; i++)
            out[z->pos[i]] = z->val[i];
    }
    return SOCMON_OK;
}

static const socmon_device_ops zdev_ops = {.read = zdev_read, .destroy = zdev_destroy};

socmon_status smn_zynq_parts_device_new(const char *name, smn_zynq_part *parts, size_t nparts,
                                    socmon_device **out)
{
    socmon_status st;
    zdev *z = calloc(1, sizeof *z);
    if (z) {
        z->parts = calloc(nparts ? nparts : 1, sizeof *z->parts);
        z->first = calloc(nparts ? nparts : 1, sizeof *z->first);
    }
    if (!z || !z->parts || !z->first) {
        for (size_t i = 0; i < nparts; i++)
            if (parts[i].destroy)
                parts[i].destroy(parts[i].drv);
        if (z) {
            free(z->parts);
            free(z->first);
            free(z);
        }
        return socmon_fail(SOCMON_ENOMEM, "zynq device: out of memory");
    }
    memcpy(z->parts, parts, nparts * sizeof *parts);
    z->nparts = nparts;
    socmon_device *dev = NULL;
    if ((st = socmon_device_new(name, &zdev_ops, z, &dev)) != SOCMON_OK) {
        zdev_destroy(z);
        return st;
    }
    size_t total = 0;
    for (size_t k = 0; k < nparts && !st; k++) {
        z->first[k] = total;
        for (size_t i = 0; i < parts[k].ncounters && !st; i++)
            st = socmon_device_add_counter(dev, &parts[k].counters[i], NULL);
        total += parts[k].ncounters;
    }
    if (!st)
        st = grow(z, total);
    if (st) {
        socmon_device_free(dev);
        return st;
    }
    *out = dev;
    return SOCMON_OK;
}

/* ---- the public device calls (include/socmon/zynq.h) ---- */

/* What metrics/zynq.json needs besides counters, for the blocks present. */
static socmon_status set_params(socmon_device *dev, const smn_zapm_config *apm,
                                const smn_za9_config *pmu)
{
    socmon_status st = SOCMON_OK;
    if (apm) {
        st = socmon_device_set_param(dev, "apm_clock_hz", apm->clock_hz);
        if (!st)
            st = socmon_device_set_param(dev, "bus_width_bytes",
                                         apm->bus_width_bytes ? apm->bus_width_bytes : 8);
    }
    if (pmu && !st) {
        st = socmon_device_set_param(dev, "cpu_clock_hz", pmu->cpu_hz);
        if (!st)   /* the A9 global timer: SPA's reference clock */
            st = socmon_device_set_param(dev, "ref_clock_hz", pmu->cpu_hz / 2);
        if (!st)
            st = socmon_device_set_param(dev, "pmu_ccnt_div", pmu->ccnt_div64 ? 64 : 1);
    }
    return st;
}

static socmon_status finish(const char *name, smn_zynq_part *parts, size_t n,
                            const smn_zapm_config *apm, const smn_za9_config *pmu,
                            socmon_device **out)
{
    socmon_device *dev = NULL;
    socmon_status st = smn_zynq_parts_device_new(name, parts, n, &dev);
    if (!st && (st = set_params(dev, apm, pmu)) != SOCMON_OK)
        socmon_device_free(dev);
    if (!st)
        *out = dev;
    return st;
}

socmon_status smn_zapm_device_new(socmon_bus *bus, uint64_t base, const smn_zapm_config *cfg,
                                     socmon_device **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "apm: NULL output");
    smn_zynq_part part;
    socmon_status st = smn_zapm_part_new(bus, base, cfg, &part);
    return st ? st : finish("zynq-apm", &part, 1, cfg, NULL, out);
}

socmon_status smn_za9_device_new(socmon_bus *bus, const smn_za9_config *cfg,
                                    socmon_device **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "a9 pmu: NULL output");
    smn_zynq_part part;
    socmon_status st = smn_za9_part_new(bus, cfg, &part);
    return st ? st : finish("zynq-a9pmu", &part, 1, NULL, cfg, out);
}

socmon_status smn_za9_cp15_device_new(const socmon_cp15 *cps, const smn_za9_config *cfg,
                                         socmon_device **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "a9 pmu (cp15): NULL output");
    smn_zynq_part part;
    socmon_status st = smn_za9_cp15_part_new(cps, cfg, &part);
    return st ? st : finish("zynq-a9cp15", &part, 1, NULL, cfg, out);
}

socmon_status smn_za9_perf_device_new(const smn_za9_config *cfg, socmon_device **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "a9 perf: NULL output");
    smn_zynq_part part;
    socmon_status st = smn_za9_perf_part_new(cfg, &part);
    return st ? st : finish("zynq-a9perf", &part, 1, NULL, cfg, out);
}

socmon_status smn_zynq_device_new(socmon_bus *bus, uint64_t apm_base,
                                     const smn_zapm_config *apm, const smn_za9_config *pmu,
                                     socmon_device **out)
{
    if (!apm || !pmu || !out)
        return socmon_fail(SOCMON_EINVAL, "zynq: NULL argument");
    smn_zynq_part parts[2];
    socmon_status st = smn_zapm_part_new(bus, apm_base, apm, &parts[0]);
    if (st)
        return st;
    if ((st = smn_za9_part_new(bus, pmu, &parts[1])) != SOCMON_OK) {
        parts[0].destroy(parts[0].drv);
        return st;
    }
    return finish("zynq", parts, 2, apm, pmu, out);
}
